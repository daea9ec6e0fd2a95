"""NumPy fallback for what numgpu does not implement (issue 5).

The contract the other modules use (numgpu.linalg, numgpu.random, ...):

    call_numpy(name, func, *args, **kwargs)
        runs NumPy's `func` with every numgpu array in args/kwargs (also
        inside lists, tuples and dicts) downloaded, and returns the result
        with every numpy.ndarray (and numeric NumPy scalar, as a 0-d array)
        in it uploaded to the current device.
        `name` ("numpy.linalg.svd") is what reports and warnings call it.
    submodule_getattr(numpy_module_name, name)
        for a module's __getattr__: NumPy's attribute `name` of the module,
        wrapped with call_numpy when it is callable; AttributeError if NumPy
        has none.

Every fallback is counted per function name (calls, seconds) for the run
report, and the mode decides what else happens (NUMGPU_FALLBACK, or
set_mode / numgpu.config(fallback=...)):
    warn    a FallbackWarning the first time each function falls back (default)
    silent  nothing
    error   FallbackError naming the function, before NumPy runs
NUMGPU_STRICT=1 (numgpu.set_strict) also makes every fallback an error.
Functions numgpu implements never come here: this module costs them nothing.
"""
import importlib
import inspect
import os
import sys
import time
import types
import warnings

import numpy as _np

from . import _core
from ._core import UnsupportedDtypeError, ndarray

MODES = ("warn", "silent", "error")
# NumPy's own random streams are served from the host on purpose (identical
# numbers for the same seed), and numpy.testing checks results on the host:
# counted, never warned about.
HOST_BY_DESIGN = ("numpy.random.", "numpy.testing.")
# Host work by nature (files, print options, dtype questions): counted, never warned about.
HOST_UTILITIES = frozenset("numpy." + n for n in (
    "set_printoptions get_printoptions printoptions seterr geterr save savez savez_compressed savetxt load "
    "loadtxt genfromtxt fromfile frombuffer fromstring fromiter fromregex array2string array_repr array_str format_float_positional "
    "format_float_scientific result_type can_cast promote_types issubdtype isscalar iterable shape ndim size "
    "may_share_memory shares_memory info show_config show_runtime get_include").split())


# NumPy functions that change their first argument in place (with the keyword, where given, at
# that value): a numgpu array there gets NumPy's host copy back, as ufunc.at does.
INPLACE = {"numpy.place": None, "numpy.putmask": None, "numpy.copyto": None, "numpy.fill_diagonal": None,
           "numpy.nan_to_num": ("copy", False), "numpy.put": None, "numpy.put_along_axis": None}


class FallbackError(RuntimeError):
    """A NumPy function ran on the host where fallbacks are errors."""


class FallbackWarning(UserWarning):
    """A NumPy function ran on the host because numgpu has no device version."""


counts = {}          # name -> [calls, seconds]
calls = [0]          # fallbacks so far (numgpu run's counting tells device calls from them)
_warned = set()
_mode = os.environ.get("NUMGPU_FALLBACK", "warn").strip().lower() or "warn"
if _mode not in MODES:
    sys.stderr.write("numgpu: NUMGPU_FALLBACK=%s is not one of %s; it stays 'warn'\n"
                     % (os.environ["NUMGPU_FALLBACK"], ", ".join(MODES)))
    _mode = "warn"
numpy_scalars = [False]  # config(scalars="numpy"): NumPy's scalars for results NumPy gives as scalars
host_scalar_math = [False]  # ... and float64 precision: ufuncs of scalars alone run NumPy's on the host


def set_mode(mode):
    """Set the fallback mode ("warn", "silent", "error"); returns the previous one."""
    global _mode
    if mode not in MODES:
        raise ValueError("fallback mode must be one of %s, not %r" % (", ".join(MODES), mode))
    prev, _mode = _mode, mode
    return prev


def get_mode():
    return _mode


def reset():
    """Forget the counts and which functions were warned about."""
    counts.clear()
    _warned.clear()


def _strict():
    from . import _core
    prev = _core.set_strict(True)
    _core.set_strict(prev)
    return prev


_PKG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _caller_level():
    """warnings' stacklevel of the first frame outside numgpu (the user's line), seen from _admit."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PKG_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _admit(name, why=None):
    """Raise or warn as the mode says, before `name` runs on NumPy (`why`: numgpu's reason, where
    numgpu has the function but not for this call)."""
    if name.startswith(HOST_BY_DESIGN) or name in HOST_UTILITIES:
        return
    if _mode == "error" or _strict():
        rule = "NUMGPU_STRICT=1" if _mode != "error" else "NUMGPU_FALLBACK=error"
        raise FallbackError("%s: %s %s and would run on NumPy (host); set NUMGPU_FALLBACK=warn to allow it"
                            % (rule, name, "has no numgpu device version" if why is None
                               else "cannot run on the device here (%s)" % why))
    if _mode == "warn" and name not in _warned:
        _warned.add(name)
        warnings.warn("numgpu: %s runs on NumPy (%s): device arrays among its arguments are downloaded, and "
                      "a result numgpu has a device dtype for is uploaded (NUMGPU_FALLBACK=silent hides this)"
                      % (name, why or "no device version for these arguments"),
                      FallbackWarning, stacklevel=_caller_level())


def _down(x):
    if isinstance(x, ndarray):
        return x.get()
    if isinstance(x, (list, tuple)):
        return type(x)(_down(v) for v in x) if not hasattr(x, "_fields") else type(x)(*(_down(v) for v in x))
    if isinstance(x, dict):
        return {k: _down(v) for k, v in x.items()}
    return x


down = _down   # for the modules that hand NumPy arguments of their own (numgpu._ufunc)


def host_views(x):
    """x with its numgpu arrays (inside lists, tuples and dicts too) as NumPy arrays, as _down
    but no copy where there need be none: views of a cpu array's memory (writes reach it), copies
    downloaded from a GPU."""
    t = type(x)
    if t is ndarray or isinstance(x, ndarray):
        return _np.asarray(x)
    if t is list or t is tuple:
        return t(host_views(v) for v in x) if any(isinstance(v, (ndarray, list, tuple)) for v in x) else x
    if t is dict:
        return {k: host_views(v) for k, v in x.items()}
    return x


def host_result(x):
    """NumPy's plain array x in NumPy's byte order as a numgpu array over its memory, no copy, on a
    host device (cpu: a result NumPy made, its views staying views); None elsewhere (a GPU, a
    dtype numgpu lacks, a subclass, swapped bytes): the caller uploads it or keeps it."""
    if type(x) is _np.ndarray and x.dtype.isnative:
        return _core.host_view(x)
    return None


def _up(x):
    # NumPy scalars too: a 0-d numgpu array stands in for one, as numgpu's own reductions return.
    # Only plain ndarrays: subclasses (masked arrays, matrix) keep their own semantics on the host,
    # and so does data in a non-native byte order ('>f4': its bytes are what the program wants).
    v = host_result(x)
    if v is not None:
        return v
    if isinstance(x, (_np.number, _np.bool_)):
        v = host_result(_np.asarray(x))     # (cpu: a 0-d array of NumPy's memory, no upload)
        if v is not None:
            v._scalar = True                # (NumPy's scalar: x += 1 rebinds, as NumPy's)
            return v
    if (type(x) is _np.ndarray and x.dtype.isnative) or isinstance(x, (_np.number, _np.bool_)):
        fortran = x.ndim >= 2 and x.flags.f_contiguous and not x.flags.c_contiguous
        try:   # (in Fortran order as NumPy's: np.load of such a file, LAPACK's eigenvectors)
            r = _core.asarray(x.T, None, False).T if fortran else _core.asarray(x, None, False)
        except TypeError:  # a dtype numgpu has no device version of (str, object, datetime64): stays NumPy's
            return x
        r._scalar = not isinstance(x, _np.ndarray)   # (NumPy's scalar: x += 1 rebinds, as NumPy's)
        return r
    if isinstance(x, tuple):
        return type(x)(*(_up(v) for v in x)) if hasattr(x, "_fields") else tuple(_up(v) for v in x)
    if isinstance(x, list):
        return [_up(v) for v in x]
    return x


def _up_arrays(x):
    """_up of NumPy's plain arrays only (in tuples and lists too): NumPy's scalars and everything
    else as they are."""
    if type(x) is _np.ndarray:
        return _up(x)
    if type(x) is tuple or type(x) is list:
        return type(x)(_up_arrays(v) for v in x)
    return x


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _outs(kwargs):
    """numgpu arrays given as out= (one array or a tuple): they get NumPy's result copied back."""
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (out,)
    return [o for o in outs if isinstance(o, ndarray)]


def call_numpy(name, func, *args, **kwargs):
    return _call_numpy(name, func, args, kwargs)


def _call_numpy(name, func, args, kwargs, admit=True):
    """call_numpy; admit False (protocol_call): counted, never warned nor an error, and only NumPy's
    plain arrays in the result uploaded (its scalars stay NumPy's, as the object's code gave them)."""
    if admit:
        _admit(name)
    up = _up if admit else _up_arrays
    t0 = time.perf_counter()
    outs = _outs(kwargs) if "out" in kwargs else ()
    hargs, hkwargs = _down(args), _down(kwargs)
    res = func(*hargs, **hkwargs)
    if outs:
        houts = hkwargs["out"] if isinstance(hkwargs["out"], tuple) else (hkwargs["out"],)
        for dev, host in zip(outs, (h for h in houts if isinstance(h, _np.ndarray))):
            dev[...] = host
        res = outs[0] if len(outs) == 1 and isinstance(res, _np.ndarray) else up(res)
    elif "out" in kwargs and any(res is o for o in _as_tuple(kwargs["out"])):
        pass              # the caller's own NumPy out=, as NumPy returns it
    else:
        res = up(res)
    _count(name, t0)
    return res


def _count(name, t0):
    calls[0] += 1
    rec = counts.get(name)
    if rec is None:
        rec = counts[name] = [0, 0.0]
    rec[0] += 1
    rec[1] += time.perf_counter() - t0


def call_numpy_inplace(name, func, target, *args, **kwargs):
    """NumPy's func(target, *args) that changes numgpu array `target` in place (ufunc.at,
    random.shuffle, copyto, ...): run on a host copy, which is then copied back into target.
    Returns what func returns (target where that is the copy itself: nan_to_num(copy=False))."""
    return _call_inplace(name, func, target, args, kwargs)


def _call_inplace(name, func, target, args, kwargs, admit=True):
    if admit:
        _admit(name)
    t0 = time.perf_counter()
    host = target.get()
    res = func(host, *_down(args), **_down(kwargs))
    target[...] = host
    _count(name, t0)
    return target if res is host else (_up if admit else _up_arrays)(res)


_signatures = {}


def _signature(func):
    """inspect's signature of NumPy's func (cached); None where it has none."""
    sig = _signatures.get(func, False)
    if sig is False:
        try:
            sig = inspect.signature(func)
        except (TypeError, ValueError):
            sig = None
        _signatures[func] = sig
    return sig


def inplace_target(name, func, args, kwargs):
    """The call's arguments bound to NumPy's `name` (in INPLACE) where it changes a numgpu array
    given as its first parameter (by position or by name: bound.args[0]); None where it changes
    none (or the arguments do not bind: NumPy's own call raises its error)."""
    sig = _signature(func) if name in INPLACE else None
    if not sig:
        return None
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return None
    target = bound.arguments.get(next(iter(sig.parameters)))
    cond = INPLACE[name]
    if not isinstance(target, ndarray) or (cond and bound.arguments.get(cond[0], not cond[1]) != cond[1]):
        return None
    return bound


def inplace_call(name, func, args, kwargs, admit=True):
    """NumPy's `name` (in INPLACE) called so that it changes a numgpu array given as its first
    parameter (by position or by name): run on a host copy, copied back, and NumPy's result
    returned (the array itself where NumPy returns the copy). None where the call changes none."""
    bound = inplace_target(name, func, args, kwargs)
    if bound is None:
        return None
    return (_call_inplace(name, func, bound.args[0], bound.args[1:], bound.kwargs, admit),)


def _host_call(name, func, args, kwargs, admit=True):
    """NumPy's func(*args, **kwargs) through the fallback (a numgpu array it changes in place too,
    and out arrays given by position). admit False: see protocol_call."""
    done = inplace_call(name, func, args, kwargs, admit)
    if done:
        return done[0]
    args, kwargs = _out_by_name(func, args, kwargs)
    return _call_numpy(name, func, args, kwargs, admit)


def protocol_call(name, func, args, kwargs):
    """NumPy's func(*args, **kwargs) for a call with an argument whose type overrides NumPy's
    protocols (a pandas Series, DataFrame or Index: _core.overrides_numpy): NumPy hands the call to
    that argument's __array_ufunc__/__array_function__ (NEP 13/18) or method (np.sum(s): s.sum()),
    so the answer is what NumPy gives (labels aligned, a Series back). numgpu arrays among the
    arguments go as NumPy's (out= and in-place targets get what NumPy wrote); NumPy's plain arrays
    in the result come back as numgpu's. Counted in the report under `name`, never warned about
    nor an error (NUMGPU_FALLBACK=error): the object's own code answers, as with NumPy."""
    return _host_call(name, func, args, kwargs, admit=False)


def _out_by_name(func, args, kwargs):
    """args and kwargs with an out given by position moved to out= (call_numpy copies NumPy's
    result into numgpu arrays given there)."""
    if isinstance(func, _np.ufunc):
        if len(args) <= func.nin:
            return args, kwargs
        outs = args[func.nin:]
        return args[:func.nin], dict(kwargs, out=outs if len(outs) > 1 else outs[0])
    sig = _signature(func)
    params = list(sig.parameters.values()) if sig else []
    at = next((i for i, p in enumerate(params) if p.name == "out"), None)
    if at is None or len(args) <= at or len(args) > len(params) or \
            any(p.kind not in (p.POSITIONAL_OR_KEYWORD,) for p in params[at:len(args)]):
        return args, kwargs      # (too many arguments: NumPy's own call raises its TypeError)
    return args[:at], dict(kwargs, **{p.name: v for p, v in zip(params[at:], args[at:])})


def _wrap(name, func):
    def f(*args, **kwargs):
        return _host_call(name, func, args, kwargs)
    f.__name__ = f.__qualname__ = name.rsplit(".", 1)[-1]
    f.__doc__ = "NumPy's %s, run on NumPy (numgpu has no device version yet)." % name
    f.__wrapped__ = func
    f._numgpu_host = True          # counted as a fallback, never as a device call
    return f


def wrap(name, value):
    """NumPy's attribute `value` as numgpu serves it: callables (but not classes) through call_numpy;
    a ufunc as a numgpu ufunc whose calls and methods all run NumPy's (ufunc.at changes its array)."""
    if isinstance(value, _np.ufunc):
        from ._ufunc import host
        return host(value)
    if callable(value) and not isinstance(value, type):
        return _wrap(name, value)
    return value


# What makes numgpu's own function hand a call to NumPy's: data numgpu has no device arrays of
# (str, object, datetime64, structured: numgpu.UnsupportedDtypeError) and forms it does not run yet.
UNSUPPORTED = (NotImplementedError, UnsupportedDtypeError)


# NumPy functions whose 0-d results are 0-d arrays (made as arrays, or views); NumPy's others give
# scalars, which the guard marks (x._scalar: += rebinds, as of NumPy's immutable scalars).
ARRAY_MAKERS = frozenset(
    "array asarray asanyarray ascontiguousarray asfortranarray copy zeros ones empty full zeros_like "
    "ones_like empty_like full_like where reshape ravel squeeze expand_dims transpose moveaxis swapaxes "
    "broadcast_to atleast_1d atleast_2d atleast_3d from_dlpack "
    # (NumPy's functions of arrays that hand back a 0-d array for 0-d data: found by calling them)
    "asarray_chkfinite block cov diff i0 imag real isin pad permute_dims polyint real_if_close require "
    "roll trim_zeros resize piecewise select tile tensordot cross broadcast_arrays meshgrid ix_".split())


def guarded(name, f, npf, catch=UNSUPPORTED, rename=None):
    """numgpu's f standing for NumPy's function `name` (npf): a call f raises one of `catch` for
    runs on NumPy's npf through the fallback instead, so `import numgpu as np` never fails where
    NumPy runs; so do calls with arguments f does not take (NumPy's newer keywords). Only a call
    the program made falls back: called by numgpu's own code (its functions calling each other,
    ufunc methods, NumPy's protocols), the error goes on up to that code, so a fallback is NumPy's
    function the program named, with its arguments. Nothing is paid until f raises.
    rename(e, name), where given, turns f's RuntimeErrors into the error raised (numgpu run)."""
    python_f = isinstance(f, types.FunctionType)
    scalars = name.rsplit(".", 1)[-1] not in ARRAY_MAKERS

    def g(*args, **kwargs):
        for a in args:   # (subclass_arg's test inline: plain arguments, the common call, cost a loop)
            if type(a) not in _PLAIN:
                sub = subclass_arg(args, kwargs)
                break
        else:
            sub = _first_subclass(kwargs.values()) if kwargs else None
        if sub is not None and not _called_by_numgpu():
            if not issubclass(sub, _np.ndarray):     # (a pandas Series: NumPy hands it the call)
                return protocol_call(name, npf, args, kwargs)
            _admit(name, "a %s argument keeps NumPy's semantics" % _np_name(sub))
            return _host_call(name, npf, args, kwargs)
        try:
            r = f(*args, **kwargs)
            if scalars and type(r) is ndarray and not r.ndim and r._own()._buffer_refs[0] == 1:
                r._scalar = True     # (a 0-d result of its own, or a view of a temporary: NumPy gives a scalar)
                if numpy_scalars[0] and not _called_by_numgpu():
                    return r._numpy_scalar()     # (config(scalars="numpy"))
            elif scalars and isinstance(r, tuple) and (type(r) is tuple or hasattr(r, "_fields")):
                r = _scalar_parts(r, 3)   # (lstsq's rank, slogdet, unravel_index: the program 3 frames up)
            return r
        except catch as e:
            if _called_by_numgpu():
                raise
            why = str(e)
        except TypeError as e:
            # raised in this frame: arguments f's signature does not take (NumPy's may: ndmin=, like=)
            if not python_f or e.__traceback__.tb_next is not None or _called_by_numgpu():
                raise
            why = str(e)
        except RuntimeError as e:
            if rename is None:
                raise
            raise rename(e, name)
        _admit(name, why)
        return _host_call(name, npf, args, kwargs)
    g.__name__ = g.__qualname__ = name.rsplit(".", 1)[-1]
    g.__doc__ = f.__doc__ or getattr(npf, "__doc__", None)   # (help(): NumPy's text where f has none)
    g.__wrapped__ = f
    WRAPPERS.add(g.__code__)

    def on_error(e, args, kwargs):
        """g's except clauses for the C guard: f raised e; NumPy's function through the fallback,
        or RERAISE (e raised as f raised it)."""
        if isinstance(e, catch):
            if _called_by_numgpu():
                return RERAISE
        elif isinstance(e, TypeError):
            # (raised by the call itself, no frame of f in its traceback: arguments f's signature
            # does not take; NumPy's may: ndmin=, like=)
            if not python_f or e.__traceback__ is not None or _called_by_numgpu():
                return RERAISE
        elif isinstance(e, RuntimeError) and rename is not None:
            raise rename(e, name)
        else:
            return RERAISE
        _admit(name, str(e))
        return _host_call(name, npf, args, kwargs)

    handled = tuple(catch) + (TypeError,) + ((RuntimeError,) if rename is not None else ())
    c = _core.Guard(f, g, on_error, handled, _guard_parts if scalars else None, scalars)
    c.__name__, c.__qualname__, c.__doc__, c.__wrapped__ = g.__name__, g.__qualname__, g.__doc__, f
    c.__module__ = getattr(f, "__module__", None)
    return c


# on_error's answer: raise f's error as it is.
RERAISE = object()


def _guard_parts(r):
    """A C guard's tuple result: its 0-d parts as NumPy gives them (_scalar_parts; the program is
    3 frames up: the guard has no frame)."""
    return _scalar_parts(r, 3) if type(r) is tuple or hasattr(r, "_fields") else r


def subclass_arg(args, kwargs=None):
    """The type of the first argument (or item of a list or tuple argument) that is a subclass of
    NumPy's ndarray with semantics of its own (a masked array, np.matrix; not np.memmap, which is
    plain memory), or whose type overrides NumPy's protocols (__array_ufunc__ or
    __array_function__: a pandas Series, DataFrame, Index; _core.overrides_numpy), else None.
    numgpu's functions would take such an argument as its plain data (dropping a mask, a Series'
    labels): NumPy's function runs instead (protocol_call for the second kind), and gives NumPy's
    answer and type."""
    t = _first_subclass(args)
    return t if t is not None or not kwargs else _first_subclass(kwargs.values())


_PLAIN = frozenset((ndarray, _np.ndarray, int, float, bool, complex, str, type(None), slice))


def _first_subclass(values):
    for a in values:
        t = type(a)
        if t in _PLAIN:
            continue
        if t is list or t is tuple:
            for v in a:
                if type(v) not in _PLAIN and _own_semantics(v):
                    return type(v)
        elif _own_semantics(a):
            return t
    return None


def _own_semantics(a):
    return (isinstance(a, _np.ndarray) and not isinstance(a, _np.memmap)) or _core.overrides_numpy(a)


def _np_name(t):
    return "%s.%s" % (t.__module__.replace("numpy.ma.core", "numpy.ma"), t.__name__)


# Code of the wrappers that stand between a program and numgpu's function (the guards, numgpu
# run's counters): a guard looks through them for its caller.
WRAPPERS = set()
_core.guard_setup(RERAISE, _np.memmap, WRAPPERS)


def _scalar_parts(r, depth):
    """A tuple result with its 0-d parts as NumPy gives them: scalars (marked, or NumPy's under
    config(scalars="numpy") when the program called: `depth` is _called_by_numgpu's)."""
    if not any(type(v) is ndarray and not v.ndim for v in r):
        return r
    to_numpy = numpy_scalars[0] and not _called_by_numgpu(depth)
    parts = []
    for v in r:
        if type(v) is ndarray and not v.ndim:
            v._scalar = True
            if to_numpy:
                v = v._numpy_scalar()
        parts.append(v)
    return type(r)(*parts) if hasattr(r, "_fields") else tuple(parts)


def ufunc_result(r):
    """A ufunc's result without out=: NumPy gives scalars for 0-d results (and 0-d parts of
    frexp's, modf's, divmod's pairs): marked so (+= rebinds), NumPy's own under
    config(scalars="numpy") when the program called."""
    if type(r) is ndarray:
        if r.ndim:
            return r
        r._scalar = True
        return r._numpy_scalar() if numpy_scalars[0] and not _called_by_numgpu(3) else r
    return _scalar_parts(r, 4) if type(r) is tuple else r


def program_result(r):
    """The result r of a numgpu method as its caller gets it: under config(scalars="numpy"), a 0-d
    result standing for NumPy's scalar is NumPy's scalar (read in place on cpu, downloaded from a
    GPU) when the program called (numgpu's own code keeps the device array). Operators and C methods
    do the same in C (ngpy_wrap_result), guarded functions in their guard."""
    if numpy_scalars[0] and type(r) is ndarray and r._scalar and not _called_by_numgpu(3):
        return r._numpy_scalar()
    return r


def program_results(method):
    """method, its result passed through program_result."""
    def m(self, *args, **kwargs):
        return program_result(method(self, *args, **kwargs))
    m.__name__ = m.__qualname__ = method.__name__
    m.__doc__ = method.__doc__
    return m


def _called_by_numgpu(depth=2):
    """True if the guard (or program_result, ufunc_result, _scalar_parts) was called by
    numgpu's own code (its caller's frame, wrappers passed over, is in the package), not by the
    program. depth: that caller's frame, counted from here."""
    try:
        frame = sys._getframe(depth)  # (the guard's caller)
    except ValueError:               # called from C with no Python frame (a thread's start, atexit)
        return False
    while frame is not None and frame.f_code in WRAPPERS:
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.startswith(_PKG_DIR)


def guard_module(namespace, numpy_module_name):
    """Guard (above) every public function in `namespace` (a numgpu module's globals) that stands
    for a function of NumPy's module of that name."""
    npmod = importlib.import_module(numpy_module_name)
    for name, f in list(namespace.items()):
        npf = getattr(npmod, name, None)
        if (name.startswith("_") or not isinstance(f, (types.FunctionType, types.BuiltinFunctionType))
                or not callable(npf) or isinstance(npf, type) or getattr(f, "_numgpu_host", False)):
            continue
        namespace[name] = pickle_name(guarded("%s.%s" % (numpy_module_name, name), f, npf),
                                      namespace["__name__"], name)


def pickle_name(f, module, qualname):
    """f (a wrapper made here) named so that pickle saves it as `module`.`qualname`, a path that
    loads back to f itself (Pool.map(np.sum, ...)); returns f. Objects other than Python
    functions (ufuncs, classes) keep their own names."""
    if isinstance(f, (types.FunctionType, _core.Guard)):
        f.__module__, f.__qualname__ = module, qualname
    return f


_served = {}     # (NumPy's module name, name) -> what submodule_getattr gave: the same object each time


def submodule_getattr(numpy_module_name, name):
    key = (numpy_module_name, name)
    value = _served.get(key, _served)
    if value is not _served:
        return value
    mod = importlib.import_module(numpy_module_name)
    ng_name = numpy_module_name.replace("numpy", "numgpu", 1)
    if name.startswith("__") or not hasattr(mod, name):
        raise AttributeError("module %r has no attribute %r" % (ng_name, name))
    npv = getattr(mod, name)
    value = wrap("%s.%s" % (numpy_module_name, name), npv)
    if value is not npv:
        _served[key] = pickle_name(value, ng_name, name)
    return value


def module_getattr(name):
    if name == "__all__":
        return star_names()
    return submodule_getattr("numpy", name)


def star_names():
    """numgpu's `__all__`, made when `from numgpu import *` (a script's `from numpy import *`)
    first asks for it: NumPy's public names (`r_`, `c_`, `mgrid`, `save`, ... which numgpu serves
    through its __getattr__ and a star import without `__all__` would leave out) and numgpu's own
    public names (`jit`, `asnumpy`, ...), as before."""
    mod = sys.modules["numgpu"]
    names = {n for n in vars(mod) if not n.startswith("_")}
    names.update(n for n in _np.__all__ if hasattr(mod, n))
    mod.__all__ = sorted(names)
    return mod.__all__
