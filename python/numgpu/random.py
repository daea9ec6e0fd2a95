"""numgpu.random: NumPy's random streams (identical numbers for a seed) and the device Philox generator.

Two kinds of generator:

* NumPy's own streams, the default. ``numgpu.random.seed/rand/randn/random/
  randint/uniform/normal/choice/permutation/shuffle/...``, ``default_rng``,
  ``RandomState`` and ``Generator(numpy_bit_generator)`` draw with NumPy (so a
  seed gives exactly NumPy's numbers) and upload the result as a numgpu
  array. ``shuffle``/``permutation`` of a numgpu array apply NumPy's
  permutation on the device, without downloading the data. Every other name
  of numpy.random is served through the NumPy fallback.

* The device generator, when asked for: ``Generator(Philox(seed))`` or
  ``device_rng(seed)``. Philox4x32-10 (counter-based) computed by kernels on
  the current device; the same seed gives the same numbers on cpu, opencl
  and cuda, but not NumPy's numbers (numpy.random.Philox is Philox4x64, a
  different generator). See src/ops/random.c for how each method draws.
"""
import functools as _functools
import operator as _operator

import numpy as _np
import numpy.random as _npr

from . import _core, _fallback, _protocols

__all__ = [
    "Philox", "Generator", "RandomState", "default_rng", "device_rng", "SeedSequence",
    "seed", "get_state", "set_state", "rand", "randn", "random", "random_sample", "ranf", "sample",
    "randint", "random_integers", "uniform", "normal", "standard_normal", "exponential",
    "standard_exponential", "choice", "permutation", "shuffle", "bytes",
]

SeedSequence = _npr.SeedSequence
BitGenerator = _npr.BitGenerator
PCG64, PCG64DXSM, MT19937, SFC64 = _npr.PCG64, _npr.PCG64DXSM, _npr.MT19937, _npr.SFC64

_U64 = (1 << 64) - 1
_U128 = (1 << 128) - 1


def _ndarray():
    return _core.ndarray


# ---- NumPy's streams ------------------------------------------------------------


def _down(x):
    if isinstance(x, _ndarray()):
        return x.get()
    if isinstance(x, (list, tuple)):
        return type(x)(_down(v) for v in x)
    return x


def _up(x):
    if isinstance(x, _np.ndarray):
        v = _fallback.host_result(x)
        if v is not None:   # (cpu: NumPy's fresh draws themselves, no copy)
            return v
        try:
            return _core.asarray(x, None, False)
        except _core.UnsupportedDtypeError:   # choice of strs, ...: NumPy's array, as drawn
            return x
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(_up(v) for v in x)
    return x


_PLAIN = frozenset((int, float, bool, str, type(None)))


def _host(func, name):
    """NumPy's `func` with numgpu arguments downloaded and array results uploaded; a numgpu array
    given as out= gets the draws (NumPy writes a cpu array's own memory; a GPU's gets them copied
    back) and is returned, as NumPy returns out."""
    def f(*args, **kwargs):
        out = kwargs.get("out")
        if isinstance(out, _core.ndarray):
            host = _np.asarray(out)         # (a view of a cpu array's memory, a copy of a GPU's)
            if not host.flags.writeable:
                host = out.get()            # (NumPy's own error for a read-only out, below)
                host.flags.writeable = False
            r = func(*_down(args), **dict({k: _down(v) for k, v in kwargs.items()}, out=host))
            if not out.device.startswith("cpu"):
                out[...] = host
            return out if r is host else _up(r)
        for a in args:
            if type(a) not in _PLAIN:     # (numbers and strs, the common draw, pass as they are)
                args = _down(args)
                break
        r = func(*args, **{k: _down(v) for k, v in kwargs.items()}) if kwargs else func(*args)
        if type(r) in _PLAIN or _protocols._library_caller():   # (a library keeps NumPy's arrays)
            return r
        return _up(r)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = "NumPy's numpy.random %s (NumPy's stream), result on the current device." % name
    f.__wrapped__ = func
    f._numgpu_draws_on_host = True
    return f


def _take(x, idx, axis):
    """x[..., idx, ...] with idx (a numgpu int array) on `axis`."""
    return x[(slice(None),) * axis + (idx,)]


def _host_shuffle(shuffle, x, axis=0):
    """Shuffles numgpu array x in place along axis with the permutation NumPy's
    `shuffle` applies to an array of that length (same draws)."""
    from . import asarray
    if x.ndim == 0:
        shuffle(_np.empty(()))  # NumPy's error for 0-d arrays
    axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
    idx = _np.arange(x.shape[axis])
    shuffle(idx)
    x[...] = _take(x, asarray(idx), axis)


def _host_permutation(permutation, x, axis=0):
    from . import asarray
    if not isinstance(x, _ndarray()):
        return _up(permutation(x) if axis == 0 else permutation(x, axis=axis))
    if x.ndim == 0:
        permutation(_np.empty(()))  # NumPy's error
    axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
    return _take(x, asarray(permutation(x.shape[axis])), axis)


_LEGACY = ("seed", "get_state", "set_state", "rand", "randn", "random", "random_sample", "ranf", "sample",
           "randint", "random_integers", "uniform", "normal", "standard_normal", "exponential",
           "standard_exponential", "choice", "bytes", "binomial", "poisson", "beta", "gamma", "standard_gamma",
           "lognormal", "laplace", "logistic", "geometric", "multinomial", "multivariate_normal", "dirichlet",
           "triangular", "chisquare", "standard_t", "standard_cauchy", "weibull", "pareto", "power", "rayleigh",
           "vonmises", "wald", "zipf", "gumbel", "hypergeometric", "logseries", "negative_binomial", "f",
           "noncentral_chisquare", "noncentral_f")
for _name in _LEGACY:
    globals()[_name] = _host(getattr(_npr, _name), _name)
del _name


# ---- numgpu run's report: which calls draw on the host --------------------------

_counter = [None]     # numgpu run's counting wrapper (_run._counted) while it counts calls
_draws = {}           # (class, method) -> its counted caller


def _draws_on_host(f):
    """True for the module's functions that draw (or set up) NumPy's streams on the host:
    the numbers are NumPy's, uploaded (seed, rand, default_rng, shuffle, ...)."""
    while f is not None:
        if getattr(f, "_numgpu_draws_on_host", False):
            return True
        f = getattr(f, "__wrapped__", None)    # (through the fallback's guard)
    return False


def _class_label(cls):
    return "RandomState" if issubclass(cls, RandomState) else "Generator"


def _counted_draw(cls, name, f):
    """A NumPy generator's method f (made by _host) counted as numpy.random.<class>.<name>."""
    caller = _draws.get((cls, name))
    if caller is None:
        caller = _draws[(cls, name)] = _counter[0]("numpy.random.%s.%s" % (_class_label(cls), name),
                                                    lambda method, *a, **k: method(*a, **k), "host")
    draw = _functools.partial(caller, f)
    draw.__name__ = draw.__qualname__ = f.__name__
    draw.__doc__, draw.__wrapped__ = f.__doc__, f
    return draw


def _count_calls(counted):
    """numgpu run's report on: the methods of generators are counted with `counted` (name, f,
    kind): NumPy's streams as host draws, the device generator's as device calls."""
    if _counter[0] is not None:
        return
    _counter[0] = counted
    for cls in (_HostGenerator, RandomState):
        for name in ("shuffle", "permutation"):
            setattr(cls, name, counted("numpy.random.%s.%s" % (_class_label(cls), name), getattr(cls, name), "host"))
    for name, v in list(vars(_DeviceGenerator).items()):
        if callable(v) and not name.startswith("_"):
            setattr(_DeviceGenerator, name, counted("numgpu.random.Generator(Philox).%s" % name, v))


def shuffle(x):
    """numpy.random.shuffle: numgpu arrays are shuffled in place on the device."""
    if isinstance(x, _ndarray()):
        return _host_shuffle(_npr.shuffle, x)
    return _npr.shuffle(x)


def permutation(x):
    """numpy.random.permutation (NumPy's global stream)."""
    return _host_permutation(_npr.permutation, x)


def _host_object(cls, np_obj):
    """Unpickles a _HostObject of class cls around NumPy's np_obj."""
    obj = object.__new__(cls)
    obj._np = np_obj
    return obj


class _HostObject:
    """Wraps a NumPy Generator or RandomState: every method draws with NumPy
    and uploads array results (a library's call, scipy's: NumPy's arrays as drawn)."""

    @property
    def __class__(self):
        # isinstance(rng, numpy.random.Generator) holds, as isinstance looks at __class__ where the
        # type is not NumPy's: scipy takes such a generator as random_state=/rng= (it refused it)
        return type(self._np)

    def __getattr__(self, name):
        if name == "_np":
            raise AttributeError(name)
        value = getattr(self._np, name)
        if callable(value) and not name.startswith("_"):
            f = _host(value, name)
            f = f if _counter[0] is None else _counted_draw(type(self), name, f)
            self.__dict__[name] = f        # (found there from now on: a draw in a loop looks up no more)
            return f
        return value

    def shuffle(self, x, axis=0):
        if isinstance(x, _ndarray()):
            return _host_shuffle(self._np.shuffle, x, axis)  # NumPy draws the same for any axis
        return self._np.shuffle(x) if axis == 0 else self._np.shuffle(x, axis=axis)

    def permutation(self, x, axis=0):
        return _host_permutation(self._np.permutation, x, axis)

    def __getstate__(self):
        return self._np.__getstate__()

    def __reduce__(self):
        """pickle: NumPy's object inside (its stream's state); under numgpu run NumPy's own
        pickle of it, which loads without numgpu."""
        from ._run import running_script
        if running_script():
            return self._np.__reduce__()
        return _host_object, (type(self), self._np)

    def __repr__(self):
        return repr(self._np).replace("Generator", "numgpu.random.Generator", 1)


class RandomState(_HostObject):
    """numpy.random.RandomState (NumPy's stream); results on the device."""

    def __init__(self, seed=None):
        self._np = seed if isinstance(seed, _npr.RandomState) else _npr.RandomState(seed)


# ---- the device generator ------------------------------------------------------

_RAW, _UNIFORM, _NORMAL, _EXPONENTIAL = range(4)  # NgRandomDist


class Philox:
    """Philox4x32-10 counter-based bit generator on the device.

    Philox(seed=None, counter=None, key=None): the 64-bit key is derived from
    `seed` with NumPy's SeedSequence (None: fresh entropy), or given directly
    as `key` (an int, or two uint32 words, low first). `counter` is the
    128-bit block counter to start from (an int, or four uint32 words, low
    first), 0 by default. Block c of the stream is Random123's
    philox4x32_R(10, c, key); each call uses the next blocks.
    """

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            self.key = self._words(key, 2)
        else:
            words = SeedSequence(seed).generate_state(2, _np.uint32)
            self.key = int(words[0]) | int(words[1]) << 32
        self.counter = 0 if counter is None else self._words(counter, 4)

    @staticmethod
    def _words(v, n):
        if isinstance(v, (int, _np.integer)):
            v = int(v)
            if not 0 <= v < 1 << (32 * n):
                raise ValueError("value must be in [0, 2**%d)" % (32 * n))
            return v
        w = _np.asarray(_down(v))
        if w.shape != (n,):
            raise ValueError("expected an int or %d uint32 words" % n)
        return sum(int(x) << (32 * i) for i, x in enumerate(w.astype(_np.uint64) & 0xFFFFFFFF))

    @property
    def state(self):
        return {"bit_generator": "Philox4x32-10", "state": {"counter": self.counter, "key": self.key}}

    @state.setter
    def state(self, value):
        if value.get("bit_generator") != "Philox4x32-10":
            raise ValueError("state must be for a Philox4x32-10 generator")
        self.counter = value["state"]["counter"] & _U128
        self.key = value["state"]["key"] & _U64

    def advance(self, delta):
        """Skips `delta` blocks (4 words each) of the stream."""
        self.counter = (self.counter + int(delta)) & _U128
        return self

    def random_raw(self, size=None):
        """The stream's next 32-bit words (uint32), 4 per block."""
        from . import empty
        out = empty(_shape(size), dtype=_np.uint32)
        self.counter = _core.random_fill(self.counter, self.key, _RAW, out, 0.0, 1.0)
        return out.get()[()] if size is None else out

    def __repr__(self):
        return "numgpu.random.Philox(key=%#x, counter=%#x)" % (self.key, self.counter)


def _shape(size):
    """size= argument -> shape tuple, NumPy's errors."""
    if size is None:
        return ()
    try:
        shape = (_operator.index(size),)
    except TypeError:
        try:
            shape = tuple(_operator.index(s) for s in size)
        except TypeError:
            raise TypeError("expected a sequence of integers or a single integer, got %r" % (str(size),)) from None
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _float_dtype(dtype, name):
    dt = _np.dtype(dtype)
    if dt not in (_np.dtype(_np.float32), _np.dtype(_np.float64)):
        raise TypeError("Unsupported dtype %r for %s" % (dt, name))
    return dt


def _scalar(x):
    """A Python number from a Python/NumPy scalar or 0-d array, else None."""
    if isinstance(x, (int, float, _np.integer, _np.floating, _np.bool_)):
        return x
    if isinstance(x, (_np.ndarray, _ndarray())) and x.ndim == 0:
        return _down(x)[()]
    return None


class Generator:
    """numpy.random.Generator. Generator(numgpu.random.Philox(seed)) is the
    device generator; Generator(numpy_bit_generator) draws NumPy's stream."""

    def __new__(cls, bit_generator):
        if cls is Generator:
            cls = _DeviceGenerator if isinstance(bit_generator, Philox) else _HostGenerator
        return object.__new__(cls)


class _HostGenerator(_HostObject, Generator):
    def __init__(self, bit_generator):
        self._np = bit_generator if isinstance(bit_generator, _npr.Generator) else _npr.Generator(bit_generator)

    @property
    def bit_generator(self):
        return self._np.bit_generator


class _DeviceGenerator(Generator):
    """Generator over the device Philox stream (see numgpu.random.Philox)."""

    def __init__(self, bit_generator):
        self._bitgen = bit_generator

    def __reduce__(self):   # (pickle: Generator.__new__ takes the bit generator)
        return Generator, (self._bitgen,)

    @property
    def bit_generator(self):
        return self._bitgen

    def __repr__(self):
        return "numgpu.random.Generator(%r)" % (self._bitgen,)

    # -- helpers --

    def _fill(self, dist, size, dtype, shift=0.0, scale=1.0, out=None):
        from . import empty
        if out is not None:
            if size is not None and tuple(out.shape) != _shape(size):
                raise ValueError("size must match out.shape when used together")
            if _np.dtype(out.dtype) != dtype:
                raise TypeError("Supplied output array has the wrong type. Expected %s, got %s" % (dtype, out.dtype))
            res = out
        else:
            res = empty(_shape(size), dtype=dtype)
        g = self._bitgen
        g.counter = _core.random_fill(g.counter, g.key, dist, res, float(shift), float(scale))
        if out is not None:
            return out
        return res.get()[()] if size is None else res

    def _affine(self, dist, a, b, size):
        """a + b * X for array-valued a or b: X of the broadcast shape, then device arithmetic."""
        from . import asarray
        a, b = asarray(a, dtype=_np.float64), asarray(b, dtype=_np.float64)
        shape = _np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        if size is not None:
            shape = _shape(size)
            if _np.broadcast_shapes(shape, tuple(a.shape), tuple(b.shape)) != shape:
                raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                                 "is between arg 0 with shape %s and the parameters' shapes %s, %s"
                                 % (shape, tuple(a.shape), tuple(b.shape)))
        res = a + b * self._fill(dist, shape, _np.dtype(_np.float64))
        return res.get()[()] if size is None and not shape else res

    # -- floats --

    def random(self, size=None, dtype=_np.float64, out=None):
        """Uniform floats in [0, 1): 53 random bits for float64, 24 for float32."""
        return self._fill(_UNIFORM, size, _float_dtype(dtype, "random"), out=out)

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        """Standard normal floats (Box-Muller)."""
        return self._fill(_NORMAL, size, _float_dtype(dtype, "standard_normal"), out=out)

    def standard_exponential(self, size=None, dtype=_np.float64, method="inv", out=None):
        """Standard exponential floats, -log(1 - U) (inversion; method= is accepted and ignored)."""
        return self._fill(_EXPONENTIAL, size, _float_dtype(dtype, "standard_exponential"), out=out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        sl, ss = _scalar(loc), _scalar(scale)
        if ss is not None and ss < 0 or ss is None and bool((_to_dev(scale) < 0).any()):
            raise ValueError("scale < 0")
        if sl is not None and ss is not None:
            return self._fill(_NORMAL, size, _np.dtype(_np.float64), sl, ss)
        return self._affine(_NORMAL, loc, scale, size)

    def exponential(self, scale=1.0, size=None):
        ss = _scalar(scale)
        if ss is not None and ss < 0 or ss is None and bool((_to_dev(scale) < 0).any()):
            raise ValueError("scale < 0")
        if ss is not None:
            return self._fill(_EXPONENTIAL, size, _np.dtype(_np.float64), 0.0, ss)
        return self._affine(_EXPONENTIAL, 0.0, scale, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        sl, sh = _scalar(low), _scalar(high)
        if sl is not None and sh is not None:
            if sh - sl < 0:
                raise ValueError("high - low < 0")
            if not _np.isfinite(sh - sl):
                raise OverflowError("high - low range exceeds valid bounds")
            return self._fill(_UNIFORM, size, _np.dtype(_np.float64), sl, sh - sl)
        from . import asarray
        low, high = asarray(low, dtype=_np.float64), asarray(high, dtype=_np.float64)
        if bool(((high - low) < 0).any()):
            raise ValueError("high - low < 0")
        return self._affine(_UNIFORM, low, high - low, size)

    # -- integers --

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False):
        """Uniform integers in [low, high) (or [low, high] with endpoint=True),
        exactly uniform (Lemire's method with rejection)."""
        from . import empty
        dt = _np.dtype(dtype)
        if dt.kind not in "iub":
            raise TypeError("Unsupported dtype %r for integers" % (dt,))
        if high is None:
            low, high = 0, low
            if _scalar(high) is not None and not endpoint and int(high) <= 0:
                raise ValueError("high <= 0")
            if _scalar(high) is not None and endpoint and int(high) < 0:
                raise ValueError("high < 0")
        lo, hi = _scalar(low), _scalar(high)
        if lo is None or hi is None:
            raise NotImplementedError("numgpu's device generator: integers() takes scalar low and high; "
                                      "use the NumPy stream (numgpu.random.default_rng) for array bounds")
        lo, hi = int(lo), int(hi)
        info = (0, 1) if dt.kind == "b" else (int(_np.iinfo(dt).min), int(_np.iinfo(dt).max))
        top = hi if endpoint else hi - 1
        if lo < info[0]:
            raise ValueError("low is out of bounds for %s" % dt)
        if top > info[1]:
            raise ValueError("high is out of bounds for %s" % dt)
        if lo > top:
            raise ValueError("low > high" if endpoint else "low >= high")
        res = empty(_shape(size), dtype=dt)
        g = self._bitgen
        g.counter = _core.random_integers(g.counter, g.key, res, lo, top - lo + 1)
        return res.get()[()] if size is None else res

    # -- sampling and permutations --

    def permutation(self, x, axis=0):
        """A random permutation of range(x), or a permuted copy of array x along axis."""
        if isinstance(x, (int, _np.integer)):
            n = max(int(x), 0)  # as numpy.arange(x)
            return self._perm(n, n)
        x = _to_dev(x)
        if x.ndim == 0:
            raise _np.exceptions.AxisError(axis, 0)
        axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
        return _take(x, self._perm(x.shape[axis], x.shape[axis]), axis)

    def shuffle(self, x, axis=0):
        """Shuffles numgpu array x in place along axis."""
        if not isinstance(x, _ndarray()):
            raise TypeError("numgpu's device generator shuffles numgpu arrays; got %s" % type(x).__name__)
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
        x[...] = _take(x, self._perm(x.shape[axis], x.shape[axis]), axis)

    def _perm(self, n, m):
        """The first m entries of a random permutation of range(n) (int64, on the device)."""
        from . import empty
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        out = empty((m,), dtype=_np.int64)
        g = self._bitgen
        g.counter = _core.random_permutation(g.counter, g.key, n, out)
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Random sample from range(a) or from array a along axis (NumPy's
        checks and messages). With p and replace: inverse CDF on the device;
        without replace: a partial random permutation (uniform) or the
        Efraimidis-Spirakis keys E/p sorted (weighted)."""
        from . import asarray
        if isinstance(a, (int, _np.integer)) or (_scalar(a) is not None and _np.ndim(a) == 0
                                                   and not isinstance(a, (float, _np.floating))):
            pop, arr = int(a), None
            if pop < 0 or pop == 0 and size != 0 and _np.prod(_shape(size)) != 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            arr = _to_dev(a)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not %s" % type(a))
            axis = _np.lib.array_utils.normalize_axis_index(axis, arr.ndim)
            pop = arr.shape[axis]
            if pop == 0 and _np.prod(_shape(size)) != 0:
                raise ValueError("a cannot be empty unless no samples are taken")
        shape = _shape(size)
        count = int(_np.prod(shape))
        cdf = None
        if p is not None:
            ph = _np.asarray(_down(p), dtype=_np.float64)
            if ph.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if ph.size != pop:
                raise ValueError("a and p must have same size")
            if _np.isnan(ph).any():
                raise ValueError("Probabilities contain NaN")
            if (ph < 0).any():
                raise ValueError("Probabilities are not non-negative")
            if abs(ph.sum() - 1.0) > _np.sqrt(_np.finfo(_np.float64).eps):
                raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more "
                                 "information.")
            cdf = ph
        if not replace and count > pop:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if not replace and cdf is not None and _np.count_nonzero(cdf) < count:
            raise ValueError("Fewer non-zero entries in p than size")
        if replace and cdf is not None:
            c = _np.cumsum(cdf)
            c /= c[-1]
            idx = self._choice_cdf(asarray(c), count)
        elif replace:
            idx = self.integers(0, pop, size=count) if count else self._perm(0, 0)
        elif cdf is None:
            idx = self._perm(pop, count)
        else:
            idx = self._weighted_no_replace(asarray(cdf), count)
        idx = idx.reshape(shape) if shape else idx.reshape(())
        if arr is None:
            return idx if size is not None else idx.get()[()]
        res = _take(arr, idx, axis)
        return res if size is not None or arr.ndim > 1 or not isinstance(res, _ndarray()) else res.get()[()]

    def _choice_cdf(self, cdf, count):
        from . import empty
        out = empty((count,), dtype=_np.int64)
        g = self._bitgen
        g.counter = _core.random_choice_cdf(g.counter, g.key, cdf, out)
        return out

    def _weighted_no_replace(self, p, count):
        """Efraimidis-Spirakis: the `count` smallest keys E_i / p_i, E_i
        standard exponential, are a weighted sample without replacement."""
        keys = self._fill(_EXPONENTIAL, (p.shape[0],), _np.dtype(_np.float64)) / p
        try:
            from . import argsort
        except ImportError:  # no device sort yet: NumPy's stable argsort of the keys (same result)
            from . import asarray
            return asarray(_np.argsort(keys.get(), kind="stable")[:count])
        return argsort(keys, kind="stable")[:count]


def _to_dev(x):
    from . import asarray
    return x if isinstance(x, _ndarray()) else asarray(x)


def default_rng(seed=None):
    """numpy.random.default_rng: NumPy's stream (PCG64), results on the device.
    A numgpu.random.Philox (or a Generator) gives the device generator."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed)
    return _HostGenerator(_npr.default_rng(_down(seed)))


shuffle._numgpu_draws_on_host = permutation._numgpu_draws_on_host = True
default_rng._numgpu_draws_on_host = True


def device_rng(seed=None):
    """The device generator: Generator(Philox(seed))."""
    return Generator(Philox(seed))


def __getattr__(name):
    from ._fallback import submodule_getattr
    return submodule_getattr("numpy.random", name)
