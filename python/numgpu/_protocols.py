"""NumPy's protocols on numgpu.ndarray (issue 5), set on the heap type from Python.

    __array_ufunc__      np.add(x, y), np.sqrt(x, out=o), np.add.reduce(x), np.maximum.accumulate(x)
                         with a numgpu array among the operands run numgpu's function of the same
                         name (reduce/accumulate through numgpu's reductions and scans); whatever
                         numgpu lacks falls back to NumPy (numgpu._fallback, counted and warned).
    __array_function__   np.sum(x), np.concatenate([x, y]), np.linalg.norm(x): numgpu's function of
                         the same name in the matching module, else the fallback.
    library callers      an installed library's code (scipy, matplotlib: _run.is_user_code) calling a
                         NumPy function or ufunc on numgpu arrays gets NumPy's own function run on
                         host arrays (views of a cpu array's memory, copies from a GPU) and NumPy's
                         result: libraries keep NumPy, and their compiled code takes only NumPy's
                         arrays (scipy's L-BFGS-B, least_squares with a jac, as_strided views).
    host attributes      ndarray methods and attributes numgpu lacks (x.getfield(), x.tofile(), ...) are set
                         on the type as methods/properties that run NumPy's through the fallback; the
                         methods numgpu has keep their normal (specialised) lookup and cost nothing extra.
                         Those handing out the array's memory are not a copy's: x.ctypes and x.data
                         (numgpu._methods: the memory of a cpu array, BufferError on a GPU) and
                         view(type=...) (_view: NumPy's view of a cpu array's memory).
    __format__, __round__  as NumPy's (a 0-d array formats like its scalar).
`__array__` (dtype=, copy=, NumPy 2 style) is in C (src/pymod/ndarray.c); pickling, copies, `in`,
flat, flags and resize in numgpu._methods.

0-d arrays stand in for the NumPy scalars a program gets from a reduction or an index: they hash
as their value (dict keys, sets, Counter), n-d arrays are unhashable as NumPy's; an integer one
times a list or tuple repeats it (C: ndarray.c). scalar_style(True), used by `numgpu run`, also
makes them print like them: repr like np.float64(1.5).
"""
import sys
import threading

import numpy as _np

from . import _fallback, _methods, _ufunc
from ._core import UnsupportedDtypeError, ndarray

# Methods that change the array in place (byteswap where inplace=True): the fallback copies
# NumPy's result back.
_INPLACE_METHODS = {"sort", "partition", "put", "itemset", "setfield", "byteswap"}


def _changes_in_place(name, args, kwargs):
    if name == "byteswap":
        return bool(kwargs.get("inplace", args[0] if args else False))
    return name in _INPLACE_METHODS

_local = threading.local()     # functions being dispatched now (guards against a loop back into us)


def _numgpu():
    import numgpu
    return numgpu


def _own(module, name):
    """numgpu's own function `name` in `module` (never the NumPy fallback its __getattr__ would give)."""
    f = vars(module).get(name) if module is not None else None
    return f if callable(f) and not isinstance(f, type) else None


_FALL_BACK = object()


def _try(f, args, kwargs):
    """numgpu's f(*args, **kwargs); _FALL_BACK where numgpu does not support the call (None is a
    result: copyto and put return it)."""
    try:
        return f(*args, **kwargs)
    except (NotImplementedError, TypeError):
        return _FALL_BACK


def ufunc_dispatch(ufunc, method, *inputs, **kwargs):
    """NumPy ufunc `ufunc`'s `method` ("__call__", "reduce", "at", ...) on operands including numgpu
    arrays: numgpu's ufunc of that name (numgpu._ufunc: the device where it can, else NumPy's
    through the fallback, .at's array updated in place either way)."""
    f = _ufunc.of(ufunc, vars(_numgpu()).get(ufunc.__name__))
    return (f if method == "__call__" else getattr(f, method))(*inputs, **kwargs)


def _library_caller():
    """Whether the code that called NumPy's function or ufunc (two frames up: the protocol method's
    caller is NumPy's dispatch, in C) is an installed library's (scipy, matplotlib, the standard
    library: _run.is_user_code), not the program's nor numgpu's own."""
    try:
        g = sys._getframe(2).f_globals
    except ValueError:
        return False
    f = g.get("__file__")
    if f is None or f.startswith(_fallback._PKG_DIR):
        return False
    global _is_user_code
    if _is_user_code is None:    # (imported once: an import statement per call cost ~1 us of a 2 us draw)
        from ._run import is_user_code as _is_user_code
    return not _is_user_code(g)


_is_user_code = None


def _numpy_call(func, args, kwargs, inplace=None):
    """NumPy's func on host arrays (_fallback.host_views) for a library: NumPy's result as it is. A
    numgpu array NumPy writes (out=, or `inplace`, ufunc.at's operand) gets what was written where
    it was a copy (a GPU's), and stands where NumPy returns its host array."""
    hargs, hkwargs = _fallback.host_views(args), _fallback.host_views(kwargs)
    res = func(*hargs, **hkwargs)
    out = kwargs.get("out")
    written = [(d, h) for d, h in zip(out if isinstance(out, tuple) else (out,),
                                      hkwargs["out"] if isinstance(out, tuple) else (hkwargs.get("out"),))
               if isinstance(d, ndarray)]
    if inplace is not None and isinstance(args[inplace], ndarray):
        written.append((args[inplace], hargs[inplace]))
    for dev, host in written:
        if not dev.device.startswith("cpu"):   # (on cpu NumPy wrote the array's own memory)
            dev[...] = host
        if res is host:
            res = dev
        elif isinstance(res, tuple):
            res = tuple(dev if r is host else r for r in res)
    return res


def _library_function(func, args, kwargs):
    """A library's call of NumPy's function func (_numpy_call): an out array given by position
    taken as out=, and the first argument of the functions that change it in place
    (_fallback.INPLACE: copyto, put, putmask, place, fill_diagonal, nan_to_num(copy=False)) gets
    NumPy's writes where it was a copy."""
    name = "%s.%s" % (getattr(func, "__module__", None) or "numpy", func.__name__)
    args, kwargs = _fallback._out_by_name(func, args, kwargs)
    bound = _fallback.inplace_target(name, func, args, kwargs)
    if bound is None:
        return _numpy_call(func, args, kwargs)
    return _numpy_call(func, bound.args, bound.kwargs, 0)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if _library_caller():
        return _numpy_call(ufunc if method == "__call__" else getattr(ufunc, method), inputs, kwargs,
                           0 if method == "at" else None)
    try:
        return ufunc_dispatch(ufunc, method, *inputs, **kwargs)
    except RuntimeError as e:
        from ._run import name_strict_error
        from ._ufunc import label
        raise name_strict_error(e, label(ufunc))


def _numgpu_module_for(np_module_name):
    """numgpu's module that mirrors NumPy's `np_module_name` ("numpy", "numpy.linalg"), or None."""
    ng = _numgpu()
    if np_module_name == "numpy":
        return ng
    if np_module_name == "numpy.linalg":
        return getattr(ng, "linalg", None)
    if np_module_name == "numpy.fft":
        return vars(ng).get("fft")
    if np_module_name in ("numpy.lib", "numpy.lib.stride_tricks", "numpy.lib.array_utils"):
        from . import lib
        return lib if np_module_name == "numpy.lib" else getattr(lib, np_module_name.rsplit(".", 1)[1])
    return None


_targets = {}    # NumPy function -> numgpu's function of that name (or None): looked up once


def _shape(a):
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def _ndim(a):
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def _size(a, axis=None):
    if not isinstance(a, ndarray):
        return _np.size(a, axis)
    return a.size if axis is None else a.shape[axis]


# NumPy functions that only read an array's metadata: answered without a download.
METADATA = {_np.shape: _shape, _np.ndim: _ndim, _np.size: _size}


def _target(func):
    f = _targets.get(func, _targets)
    if f is _targets:
        module = getattr(func, "__module__", None) or "numpy"
        f = _targets[func] = METADATA.get(func) or _own(_numgpu_module_for(module), func.__name__)
    return f


def _array_function(self, func, types, args, kwargs):
    for t in types:
        if t is not ndarray and not issubclass(t, (ndarray, _np.ndarray)):
            return NotImplemented
    if _library_caller():
        return _library_function(func, args, kwargs)
    f = _target(func)
    sub = _fallback.subclass_arg(tuple(args), kwargs)    # (a masked array, a pandas Series: NumPy's)
    if f is not None and sub is None:
        active = getattr(_local, "active", None)
        if active is None:
            active = _local.active = set()
        if func not in active:   # numgpu's function calling NumPy's on our arrays would loop back here
            active.add(func)
            try:
                res = _try(f, args, kwargs)
            except RuntimeError as e:
                from ._run import name_strict_error
                raise name_strict_error(e, "%s.%s" % (func.__module__, func.__name__))
            finally:
                active.discard(func)
            if res is not _FALL_BACK and res is not NotImplemented:
                return res
    name = "%s.%s" % (getattr(func, "__module__", None) or "numpy", func.__name__)
    if sub is not None and not issubclass(sub, _np.ndarray):   # (NumPy's function hands it to the Series)
        return _fallback.protocol_call(name, func, args, kwargs)
    done = _fallback.inplace_call(name, func, args, kwargs)   # np.putmask(x, ...): x changes
    return done[0] if done else _fallback.call_numpy(name, func, *args, **kwargs)


def _host_method(name):
    """ndarray method `name` that numgpu lacks: NumPy's, on a downloaded copy (the result uploaded;
    in-place methods copy their result back)."""
    label = "numpy.ndarray.%s" % name
    unbound = getattr(_np.ndarray, name)

    def method(self, *args, **kwargs):
        if _changes_in_place(name, args, kwargs):
            host = self.get()
            host.flags.writeable = self._writeable()       # (a read-only array: NumPy's own error)
            res = _fallback.call_numpy(label, getattr(host, name), *args, **kwargs)
            self[...] = host
            return self if name == "byteswap" else res     # (byteswap(inplace=True) returns the array)
        return _fallback.call_numpy(label, unbound, self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = "NumPy's ndarray.%s, run on NumPy (numgpu has no device version yet)." % name
    method._numgpu_host = True     # counted as a fallback, never as a device call
    return method


def _host_property(name):
    """ndarray attribute `name` that numgpu lacks (flags, real, base, ...): NumPy's, of a downloaded copy."""
    label = "numpy.ndarray.%s" % name
    return property(lambda self: _fallback.call_numpy(label, lambda h: getattr(h, name), self),
                    doc="NumPy's ndarray.%s, of a host copy (numgpu has no device version yet)." % name)


def _install_host_attributes():
    """Every public attribute of numpy.ndarray that numgpu.ndarray lacks, served by NumPy.
    Real methods and properties on the type (not __getattr__), so lookups of numgpu's own
    attributes keep CPython's fast, specialised path; what is already there (C methods, or
    Python ones other modules set later, which replace these) stays."""
    for name in dir(_np.ndarray):
        if name.startswith("_") or hasattr(ndarray, name):
            continue
        attr = getattr(_np.ndarray, name)
        setattr(ndarray, name, _host_method(name) if callable(attr) else _host_property(name))


def _host_value(self):
    """The numpy value standing for self: a scalar for 0-d arrays, else the ndarray."""
    h = self.get()
    return h[()] if h.ndim == 0 else h


def _format(self, spec):
    if self.ndim == 0:
        return format(self.get()[()], spec)
    if spec:
        raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
    return str(self)


def _round(self, ndigits=None):
    """round(x, n): of a 0-d array NumPy's scalar itself (a float64 is a Python float: json,
    isinstance(v, float)), as the value round() gives is read on the host anyway."""
    r = round(_host_value(self), ndigits)
    return r if self.ndim == 0 else _fallback._up(r)


_c_repr = ndarray.__repr__


def _scalar_repr(self):
    """A 0-d result standing for a NumPy scalar (x[i], x.sum(): x._scalar) prints as NumPy's
    scalar; a 0-d array made as one (np.array(5), np.zeros(())) as NumPy's 0-d array."""
    return repr(self.get()[()]) if self.ndim == 0 and self._scalar else _c_repr(self)


def _scalar_hash(self):
    if self.ndim == 0:
        return hash(self.get()[()])
    raise TypeError("unhashable type: 'numpy.ndarray'")


_device_astype = ndarray.astype


def _astype(self, dtype, *args, **kwargs):
    """x.astype(dtype): on the device; to a dtype numgpu has no kernels for (str, object,
    datetime64), NumPy's array of it on the host, through the fallback. dtype None is NumPy's
    default, float64."""
    if dtype is None:
        dtype = _np.float64
    casting = kwargs.get("casting", args[1] if len(args) > 1 else "unsafe")
    if casting != "unsafe":
        if casting not in ("no", "equiv", "safe", "same_kind"):   # ('same_value' checks values: NumPy's)
            return _fallback.call_numpy("numpy.ndarray.astype", _np.ndarray.astype, self, dtype, *args, **kwargs)
        to = _np.dtype(dtype)
        if not _np.can_cast(self.dtype, to, casting):
            raise TypeError("Cannot cast array data from %r to %r according to the rule %r" % (self.dtype, to, casting))
    try:
        return _device_astype(self, dtype, *args, **kwargs)
    except TypeError as e:
        if "does not support dtype" not in str(e):
            raise
    return _fallback.call_numpy("numpy.ndarray.astype", _np.ndarray.astype, self, dtype, *args, **kwargs)


_device_view = ndarray.view


def _view(self, *args, **kwargs):
    """x.view(dtype): the same device memory as another dtype (NumPy's rules). As another array
    type (np.matrix, np.recarray), a dtype numgpu has no kernels for, or from memory not aligned to
    the new itemsize: NumPy's view, on the cpu device of the array's own memory (writes through it
    reach x, and it keeps x alive, as NumPy's views do; a plain result a numgpu array over that
    memory); on a GPU of a host copy, through the fallback, warned as such (its writes stay in the
    copy). dtype None given is NumPy's default, float64 (x.view() keeps x's dtype)."""
    if args and args[0] is None:
        args = (_np.float64,) + args[1:]
    elif kwargs.get("dtype", 0) is None:
        kwargs["dtype"] = _np.float64
    try:
        return _device_view(self, *args, **kwargs)
    except (NotImplementedError, UnsupportedDtypeError):
        pass
    if self.device == "cpu":
        v = _np.asarray(self).view(*args, **kwargs)
        r = _fallback.host_result(v)
        return v if r is None else r
    _fallback._admit("numpy.ndarray.view", "a view of a host copy of an array on %s: writes to it do not "
                     "reach the array; x.get().view(...) says so in the program" % self.device)
    return _fallback.call_numpy("numpy.ndarray.view", _np.ndarray.view, self, *args, **kwargs)


_device_copy = ndarray.copy


def _copy(self, order="C"):
    """x.copy(order): a C-ordered copy, or for 'F' (and 'A'/'K' of a transposed array) the
    C-ordered copy of the transpose, transposed: Fortran order, as NumPy's."""
    if order == "C":   # (the common call: nothing to decide)
        return _device_copy(self)
    from . import _c_order, _wants_f
    _c_order(order)
    return _device_copy(self.T).T._own() if _wants_f(order, self) else _device_copy(self)


def install():
    """The protocols on numgpu.ndarray (done once by `import numgpu`)."""
    ndarray.view = _view
    ndarray.copy = _copy
    ndarray.__array_ufunc__ = _array_ufunc
    ndarray.__array_function__ = _array_function
    ndarray.astype = _astype
    _install_host_attributes()
    ndarray.__format__ = _format
    ndarray.__round__ = _round
    ndarray.__hash__ = _scalar_hash
    _methods.install()


def scalar_style(on=True):
    """Make 0-d arrays print like NumPy scalars (`numgpu run`), or undo it."""
    ndarray.__repr__ = _scalar_repr if on else _c_repr
