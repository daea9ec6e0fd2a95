"""numgpu's ufuncs: objects like NumPy's, each standing for NumPy's ufunc of the same name.

    add(x, y)    the elementwise op on the device; out= (also positional), where=, dtype= and casting=
                 as NumPy's: the loop's dtypes come from NumPy's own ufunc.resolve_dtypes, the inputs
                 are cast to them on the device, `where` selects between the result and out
    .reduce      numgpu's reductions where the op has one (add: sum, multiply: prod, maximum: max,
                 minimum: min, logical_and: all, logical_or: any; initial= and where= too); any
                 other binary op as a left fold on the device (ng_op_fold: NumPy's order)
    .accumulate  the device scan of any binary op (src/ops/scan.c), in the dtype NumPy gives
    .outer       the op of a with new trailing axes and b, broadcast
    .at          in place on the device (src/ops/index.c ng_index_update: unbuffered, an element
                 indexed twice is updated twice); on a NumPy array, NumPy's own at
    .reduceat    NumPy's (the fallback)

The dtype a reduction or scan gives is NumPy's answer for a one-element array of the same dtype
(cached per dtype): the rules (add and multiply widen small integers, logical ops give bool,
divide of integers gives float64) stay NumPy's. What numgpu does not support (keywords such as
signature=, initial= of ops without a reduction, dtypes it has no kernels for, NumPy arrays as
out=) runs NumPy's ufunc
through the fallback: counted, warned once, and out= arrays and .at's array get NumPy's result.
A ufunc numgpu has no single kernel for (frexp, modf, spacing, ...) is a host ufunc: a call tries
numgpu's function of the name first where there is one (frexp's two device ops, matmul, vecdot,
conj), else falls back.
"""
import operator

import numpy as _np

from . import _core, _fallback, _subclass
from ._core import ndarray

_NO_VALUE = _np._NoValue
_NONE = object()   # no second operand given
# reductions with a numgpu function of their own (pairwise float sums, parallel trees)
_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
               "logical_and": "all", "logical_or": "any"}
# binary ops with no reduction of their own whose value does not depend on the order (reduce
# over several axes one axis at a time)
_ANY_ORDER = frozenset(("fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor"))
_CALL_KEYS = frozenset(("where", "dtype", "casting", "order", "subok"))
_FAST = frozenset((ndarray, int, float, bool))   # operands of __call__'s fast path
_SCALARS = frozenset((int, float, bool, complex, _np.float64, _np.float32, _np.float16, _np.int64, _np.int32,
                      _np.int16, _np.int8, _np.uint64, _np.uint32, _np.uint16, _np.uint8, _np.bool_,
                      _np.complex128, _np.complex64))
_HOST_SCALAR_MATH = _fallback.host_scalar_math


def _ng():
    import numgpu
    return numgpu


def _kind_of(x):
    """What NumPy's resolve_dtypes takes for operand x: a dtype, or int/float/complex for a Python
    number (NEP 50's weak scalars)."""
    if isinstance(x, (ndarray, _np.ndarray, _np.generic)):
        return x.dtype
    if isinstance(x, bool):
        return _np.dtype(bool)
    if isinstance(x, (int, float, complex)):
        return type(x)
    return _np.asarray(x).dtype


def _outs(out):
    """out= as a tuple of arrays, or () (NumPy takes one array or a tuple)."""
    if out is None:
        return ()
    return out if isinstance(out, tuple) else (out,)


def _device_outs(outs):
    """Whether numgpu writes these outs itself: none, or one numgpu array."""
    return len(outs) <= 1 and all(isinstance(o, ndarray) for o in outs)


def _to_out(outs, r):
    """Result r, or r written into the one out array (cast as assignment casts) and that array."""
    if not outs:
        return r
    outs[0][...] = r
    return outs[0]


def _device_array(x):
    """x as a numgpu array; None for data numgpu has no device arrays of (str, object, ...), for
    NumPy's subclasses with semantics of their own (a masked array, np.matrix: NumPy's method
    keeps the mask and the type) and for objects overriding NumPy's protocols (a pandas Series:
    NumPy's method hands it the call)."""
    if isinstance(x, ndarray):
        return x
    if _fallback.subclass_arg((x,)) is not None:
        return None
    try:
        return _core.asarray(x, None, False)
    except _core.UnsupportedDtypeError:
        return None


def check_mask(where):
    """NumPy's rule for a where= mask: it must cast safely to bool (TypeError otherwise)."""
    kind = where.dtype if isinstance(where, (ndarray, _np.ndarray)) else _np.asarray(where).dtype
    if not _np.can_cast(kind, bool):
        raise TypeError("Cannot cast array data from %r to dtype('bool') according to the rule 'safe'" % (kind,))


_SUBCLASSES = _subclass.active   # (a Python subclass of ndarray exists: results may be its instances)


class ufunc(_core.ufunc_base):
    """A NumPy ufunc on numgpu arrays (see the module's doc)."""

    def __init__(self, name, code, np_ufunc, func=None):
        self.__name__ = self.__qualname__ = name
        self.__module__ = "numgpu"
        self._code = code                  # numgpu's op code; None: a host ufunc
        self._np = np_ufunc
        self._func = func                  # a host ufunc's call: numgpu's function first (matmul)
        self._dtypes = {}                  # (method, input dtype, dtype=) -> NumPy's result dtype
        for attr in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"):
            setattr(self, attr, getattr(np_ufunc, attr))
        # the fast call's test: a second operand given is this (None: a host ufunc, never fast)
        self._binary = None if code is None else self.nin == 2
        # the C fast call (_core.ufunc_base: numgpu arrays, one at least 1-d, and Python numbers,
        # no keywords), which hands every other call to _call_py
        self._fast_code, self._fast_nin = (-1, 0) if code is None else (code, self.nin)
        # NumPy's own text (help(np.add), np.info: numpy-100's fifth exercise), after what numgpu does
        self.__doc__ = ("NumPy's %s on numgpu arrays%s.\n\n%s" % (name, "" if code is not None else
                        " (run on NumPy: numgpu has no device version)", np_ufunc.__doc__ or ""))

    def __repr__(self):
        return "<ufunc '%s'>" % self.__name__

    def __reduce__(self):
        # pickled by name, as NumPy's: numgpu.<name>, or the path set where that is another object
        # (numgpu run's np.matmul, a host ufunc: numgpu._run.numpy.matmul)
        return self.__dict__.get("_pickle_path") or self.__name__

    # ---- calls ----------------------------------------------------------------------------------

    def _call_py(self, x1, x2=_NONE, /, *rest, out=None, **kwargs):
        """A call the C fast call (ufunc_base) did not take."""
        if _HOST_SCALAR_MATH[0] and out is None and not rest and not kwargs and type(x1) in _SCALARS and \
                (x2 is _NONE or type(x2) in _SCALARS) and self._code is not None:
            # NumPy's scalars and Python numbers alone, under numgpu run: NumPy's scalar math, as the
            # script's NumPy does it (np.sqrt(x.sum()): a kernel, an upload and a download before)
            return self._np(x1) if x2 is _NONE else self._np(x1, x2)
        if type(x1) is ndarray and out is None and not rest and not kwargs and (x2 is not _NONE) is self._binary \
                and (x2 is _NONE or type(x2) in _FAST):
            # the commonest call, numgpu arrays and Python numbers: the device op straight away (no
            # subclass to look for); anything it does not take goes the whole way below
            try:
                r = _core.ufunc(self._code, x1, None if x2 is _NONE else x2, None)
                return r if type(r) is ndarray and r.ndim else _fallback.ufunc_result(r)
            except (NotImplementedError, TypeError, RuntimeError):
                pass
        r = self._dispatch(x1, x2, *rest, out=out, **kwargs)
        if _SUBCLASSES[0] and out is None:   # (an operand of a Python subclass: the result is one)
            like = _subclass.first_instance((x1, x2))
            if like is not None:
                return _subclass.rewrap(r, like)
        return r if out is not None or (type(r) is ndarray and r.ndim) else _fallback.ufunc_result(r)

    def _dispatch(self, x1, x2=_NONE, /, *rest, out=None, **kwargs):
        try:
            if _fallback.subclass_arg((x1, x2) + rest) is not None:   # a masked array, a Series: NumPy's ufunc
                return self._host("", self._np, *((x1,) + rest if x2 is _NONE else (x1, x2) + rest),
                                  **dict(kwargs, **({} if out is None else {"out": out})))
            if not kwargs and not rest and (x2 is not _NONE) is self._binary:     # the common call
                try:
                    return _core.ufunc(self._code, x1, x2 if self._binary else None, out)
                except (NotImplementedError, TypeError):
                    pass     # (then NumPy's, which raises NumPy's error where there is one)
            return self._call_any((x1,) + rest if x2 is _NONE else (x1, x2) + rest, out, kwargs)
        except RuntimeError as e:   # NUMGPU_STRICT's errors name the function (numpy.add)
            from ._run import name_strict_error
            raise name_strict_error(e, label(self._np))

    def _call_any(self, args, out, kwargs):
        nin = self.nin
        if len(args) == nin + 1 and out is None:   # out given by position
            out, args = args[nin], args[:nin]
        if self._func is not None:
            try:
                return self._func(*args, **dict(kwargs, **({} if out is None else {"out": out})))
            except (NotImplementedError, TypeError):
                pass
        elif self._code is not None and len(args) == nin and not kwargs:
            try:
                return _core.ufunc(self._code, args[0], args[-1] if nin == 2 else None, out)
            except (NotImplementedError, TypeError):
                pass
        elif self._code is not None and len(args) == nin and kwargs.keys() <= _CALL_KEYS:
            r = self._call_with(args, out, **kwargs)
            if r is not None:
                return r
        return self._host("", self._np, *args, **dict(kwargs, **({} if out is None else {"out": out})))

    def _call_with(self, args, out, where=True, dtype=None, casting="same_kind", order="K", subok=True):
        """A call with NumPy's keywords: the loop's dtypes from NumPy, then the device op; None
        where numgpu does not support the call."""
        outs = _outs(out)
        if order not in ("K", "C", "A") or subok is not True or not _device_outs(outs):
            return None
        kinds = tuple(_kind_of(a) for a in args)
        sig = {} if dtype is None else {"signature": (None,) * self.nin + (_np.dtype(dtype),)}
        loop = self._np.resolve_dtypes(kinds + ((outs[0].dtype,) if outs else (None,)), casting=casting, **sig)
        ng = _ng()
        try:
            xs = [ng.asarray(a, dtype=loop[i]) if dtype is not None else a for i, a in enumerate(args)]
            if where is True and outs and dtype is None:
                return _core.ufunc(self._code, xs[0], xs[1] if self.nin == 2 else None, outs[0])
            if where is True:
                r = _core.ufunc(self._code, xs[0], xs[1] if self.nin == 2 else None, None)
            else:   # every element computed: the floating-point errors of the selected ones alone
                with _np.errstate(all="ignore"):
                    r = _core.ufunc(self._code, xs[0], xs[1] if self.nin == 2 else None, None)
                    if r.dtype != loop[-1]:
                        r = r.astype(loop[-1])
        except (NotImplementedError, TypeError):
            return None
        if r.dtype != loop[-1]:
            r = r.astype(loop[-1])
        if where is True:
            return _to_out(outs, r)
        if not outs:  # (no out: NumPy leaves the unselected elements uninitialised)
            res = _to_out(outs, r)
        else:
            check_mask(where)
            res = _core.where(where, r if r.dtype == outs[0].dtype else r.astype(outs[0].dtype), outs[0], outs[0])
        self._selected_errors(xs, where, r.shape)   # (after the write, as NumPy's loop raises after it)
        return res

    def _selected_errors(self, xs, where, shape):
        """NumPy's errstate for the elements where= selects (NumPy's loop computes only those): the
        op again on them alone, its result dropped, when errstate does not ignore everything."""
        if all(m == "ignore" for m in _np.geterr().values()):
            return
        ng = _ng()
        check_mask(where)
        mask = ng.broadcast_to(ng.asarray(where, dtype=bool), shape)
        sel = [ng.broadcast_to(ng.asarray(x), shape)[mask] if isinstance(x, (ndarray, _np.ndarray)) else x
               for x in xs]
        _core.ufunc(self._code, sel[0], sel[1] if self.nin == 2 else None, None)

    def _host(self, method, func, *args, **kwargs):
        """NumPy's ufunc (method) through the fallback; with an operand whose type overrides NumPy's
        __array_ufunc__ (a pandas Series), NumPy's call hands it over (_fallback.protocol_call)."""
        name = label(self._np) + ("." + method if method else "")
        sub = _fallback.subclass_arg(args, kwargs)
        if sub is not None and not issubclass(sub, _np.ndarray):
            return _fallback.protocol_call(name, func, args, kwargs)
        return _fallback.call_numpy(name, func, *args, **kwargs)

    def _result_dtype(self, method, dt, dtype):
        """The dtype NumPy's reduce/accumulate gives for input dtype dt and dtype= (NumPy's own
        answer for one element, which runs no op; its errors are NumPy's)."""
        key = (method, dt, dtype)
        r = self._dtypes.get(key)
        if r is None:
            r = self._dtypes[key] = getattr(self._np, method)(_np.zeros(1, dt), dtype=dtype).dtype
        return r

    # ---- methods --------------------------------------------------------------------------------

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
        kw = {"axis": axis, "dtype": dtype, "out": out, "keepdims": keepdims}
        if initial is not _NO_VALUE:
            kw["initial"] = initial
        if where is not True:
            kw["where"] = where
        outs = _outs(out)
        red = _REDUCTIONS.get(self.__name__)
        # initial= and where= through numgpu's reductions (any and all take where= alone)
        extra = {k: v for k, v in kw.items() if k in ("initial", "where")}
        r = None
        if (self._code is not None and self.nin == 2 and not (extra and red is None)
                and not ("initial" in extra and red in ("any", "all")) and _device_outs(outs)):
            a = _device_array(array)
            if a is not None:
                rdt = self._result_dtype("reduce", a.dtype, None if dtype is None else _np.dtype(dtype))
                try:
                    r = self._reduce(a, axis, rdt, keepdims, **extra)
                except NotImplementedError:
                    pass
        if r is None:    # (NumPy's call outside the except: its errors stand alone)
            return self._host("reduce", self._np.reduce, array, **kw)
        if not outs and type(r) is ndarray and not r.ndim:
            return _fallback.ufunc_result(r)    # (a whole reduction: NumPy's scalar)
        return _to_out(outs, r)

    def _reduce(self, a, axis, rdt, keepdims, **extra):
        ng = _ng()
        red = _REDUCTIONS.get(self.__name__)
        if red is not None:
            f = getattr(ng, red)
            kw = {"dtype": rdt} if red in ("sum", "prod") else {}
            r = f(a, axis=axis, keepdims=keepdims, **kw, **extra)
            return r if r.dtype == rdt else r.astype(rdt)
        # a left fold in NumPy's order (ng_op_fold), over one axis at a time
        if axis is None or isinstance(axis, tuple):
            axes = range(a.ndim) if axis is None else axis
            if len(axes) == 1:
                return self._reduce(a, axes[0], rdt, keepdims)
            if not axes:
                return a.astype(rdt)           # (a new array, as NumPy's)
            if self.__name__ not in _ANY_ORDER:
                raise NotImplementedError      # NumPy's error: the op is not reorderable
            axes = [operator.index(d) % a.ndim if -a.ndim <= d < a.ndim else d for d in axes]
            if len(set(axes)) != len(axes):
                raise NotImplementedError      # NumPy's error: a repeated axis
            axes = sorted(axes)
            r = a
            for d in reversed(axes):           # one axis at a time: any order gives the same value
                r = self._reduce(r, d, rdt, True)
            return r if keepdims else r.reshape(tuple(n for d, n in enumerate(r.shape) if d not in axes))
        axis = operator.index(axis)
        if a.ndim == 0 or not -a.ndim <= axis < a.ndim or a.shape[axis] == 0:
            raise NotImplementedError          # NumPy's errors (no identity, AxisError)
        r = _core.cumulative(self._code, a, axis % a.ndim, rdt, True)
        return r.reshape(a.shape[:axis % a.ndim] + (1,) + a.shape[axis % a.ndim + 1:]) if keepdims else r

    def accumulate(self, array, axis=0, dtype=None, out=None):
        outs = _outs(out)
        r = None
        if self._code is not None and self.nin == 2 and _device_outs(outs):
            a = _device_array(array)
            if a is not None and not (a.ndim == 0 or isinstance(axis, tuple) or axis is None and a.ndim != 1):
                rdt = self._result_dtype("accumulate", a.dtype, None if dtype is None else _np.dtype(dtype))
                try:
                    r = _core.cumulative(self._code, a, 0 if axis is None else operator.index(axis), rdt)
                except (NotImplementedError, TypeError):
                    pass
        if r is None:    # (NumPy's: its result, or its error)
            return self._host("accumulate", self._np.accumulate, array, axis=axis, dtype=dtype, out=out)
        return _to_out(outs, r)

    def outer(self, A, B, /, **kwargs):
        a = b = None
        if self._code is not None and self.nin == 2:
            a, b = _device_array(A), _device_array(B)
        if a is None or b is None:
            return self._host("outer", self._np.outer, A, B, **kwargs)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def at(self, a, indices, b=None, /):
        if not isinstance(a, ndarray):     # a NumPy array: NumPy's own at changes it in place
            return self._np.at(a, _fallback.down(indices), _fallback.down(b))
        if self.nin == 2 and b is None:
            raise ValueError("second operand needed for ufunc")
        if self.nin == 1 and b is not None:
            raise ValueError("second operand provided when ufunc is unary")
        if self._code is not None:
            # (NumPy's at takes the values as an array: a Python number is int64 or float64, not weak)
            kinds = (a.dtype,) + ((_np.asarray(b).dtype if isinstance(b, (int, float, complex)) else _kind_of(b),)
                                  if self.nin == 2 else ())
            loop = self._np.resolve_dtypes(kinds + (None,), casting="unsafe")   # NumPy's errors
            if self.nin == 1 or loop[0] == loop[1]:
                try:
                    return _core.ufunc_at(self._code, a, indices, b, loop[0])
                except (NotImplementedError, TypeError):
                    pass      # (NumPy's at below: its result, or its error)
        args = (indices,) if self.nin == 1 else (indices, b)
        _fallback.call_numpy_inplace(label(self._np) + ".at", self._np.at, a, *args)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        return self._host("reduceat", self._np.reduceat, array, indices, axis=axis, dtype=dtype, out=out)

    # ---- counting (numgpu run's report) ---------------------------------------------------------

    def counted(self, label, count):
        """This ufunc with its calls and methods counted under `label` (numgpu run: count(label, f)
        wraps f)."""
        c = _Counted.__new__(_Counted)
        c.__dict__.update(self.__dict__)
        c._call = count(label, self.__call__)
        for m in ("reduce", "accumulate", "outer", "at", "reduceat"):
            setattr(c, m, count(label + "." + m, getattr(self, m)))
        c._numgpu_counted = True
        return c


class _Counted(ufunc):
    """A ufunc whose calls are counted (ufunc.counted)."""

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)


_fallback.WRAPPERS.add(_Counted.__call__.__code__)   # (the program's call is the one before it)


def make(code, name):
    """numgpu's ufunc for op `code` (numgpu's name; NumPy's ufunc of that name)."""
    return ufunc(name, code, getattr(_np, name))


_hosts = {}   # NumPy's ufunc -> its host ufunc


def host(np_ufunc, func=None):
    """A ufunc numgpu has no kernel for: NumPy's, every call through the fallback (one per ufunc);
    with func (numgpu's function of the name: matmul, vecdot, conj), calls try func first."""
    u = _hosts.get((np_ufunc, func))
    if u is None:
        u = _hosts[(np_ufunc, func)] = ufunc(np_ufunc.__name__, None, np_ufunc, func)
    return u


_labels = {}     # ufunc -> the name reports and errors give it (label)


def label(np_ufunc):
    """The name the report, warnings and errors give ufunc np_ufunc: numpy.<name> for NumPy's,
    else the public module holding it (a library's ufunc on numgpu arrays: scipy.special.erf, which
    was called numpy.erf), found once."""
    lab = _labels.get(np_ufunc)
    if lab is None:
        name = np_ufunc.__name__
        if getattr(_np, name, None) is np_ufunc:
            lab = "numpy." + name
        else:
            import sys
            found = [m for m, mod in list(sys.modules.items()) if mod is not None and getattr(mod, name, None)
                     is np_ufunc and not any(part.startswith("_") for part in m.split("."))]
            lab = "%s.%s" % (min(found, key=lambda m: (len(m), m)), name) if found else name
        _labels[np_ufunc] = lab
    return lab


def of(np_ufunc, ng_value):
    """numgpu's stand-in for NumPy's ufunc: numgpu's ufunc object of that name (np.degrees: its
    rad2deg), else a host ufunc calling numgpu's function of that name where there is one."""
    if isinstance(ng_value, ufunc):
        return ng_value
    return host(np_ufunc, ng_value if callable(ng_value) and not isinstance(ng_value, type) else None)
