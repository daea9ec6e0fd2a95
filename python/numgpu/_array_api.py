"""The Array API standard's namespace over numgpu (https://data-apis.org/array-api/).

numgpu itself is the namespace (`x.__array_namespace__()` is the numgpu module), so this
module only adds what NumPy's names do not already give:

- inspection: `__array_api_version__`, `__array_namespace_info__()` (capabilities, devices,
  default dtypes, dtypes), `x.__array_namespace__`, `x.device`, `x.to_device`, `x.mT`;
- data types: `finfo`, `iinfo` (NumPy's objects: its scalars, as NumPy programs expect), `isdtype`, `astype`,
  `can_cast`, `result_type` (NumPy 2's rules, Python scalars weak as in NEP 50);
- creation with the standard's keywords: `device=` everywhere, `copy=` of `asarray`,
  `*_like` keeping the input's device, `zeros`/`ones` defaulting to float64;
- the standard's spellings of NumPy functions (`acos`, `atan2`, `bitwise_left_shift`,
  `concat`, `permute_dims`, ...), and `clip`, `var`/`std` (`correction=`), `vecdot`,
  `matrix_transpose`, `unstack`, `moveaxis`, `broadcast_arrays`, `meshgrid`.

Every function here is glue: the work runs as numgpu's device kernels (the elementwise
functions the standard adds, such as `copysign` or `logaddexp`, are C ops like the others).
`__array_namespace_info__().dtypes()` lists the standard's dtypes, complex64 and complex128
included; float16 arrays work too but, as in NumPy's namespace, are not listed.
"""
import builtins as _builtins
import math as _math
import operator as _operator

import numpy as _np

from . import _axes, _c_order, _core, _fortran_layout, _into, _uploads_as_is, _wants_f
from ._core import ndarray

__array_api_version__ = "2024.12"
_F64 = _np.float64   # the default dtype of zeros, ones, empty

_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

# The standard's dtypes, in its order (numgpu also holds float16, which the standard does not
# have, so NumPy's namespace does not list it either).
_DTYPES = {name: _np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
    "complex64", "complex128")}

_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}


def _ns():
    import numgpu
    return numgpu


def _asarr(x):
    return x if isinstance(x, ndarray) else _ns().asarray(x)


# ---- inspection ----------------------------------------------------------------------

def _array_namespace(self, /, *, api_version=None):
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError("Unrecognized array API version: %r; numgpu supports %s"
                         % (api_version, ", ".join(_API_VERSIONS)))
    return _ns()


def _device_names():
    return [d["name"] for d in _ns().devices()]


class _Info:
    """What `__array_namespace_info__()` returns: the namespace's capabilities, devices and dtypes."""

    __module__ = "numgpu"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}

    def default_device(self):
        return _core.get_device()

    def devices(self):
        return _device_names()

    def default_dtypes(self, *, device=None):
        self._check_device(device)
        return {"real floating": _DTYPES["float64"], "complex floating": _DTYPES["complex128"],
                "integral": _DTYPES["int64"], "indexing": _DTYPES["int64"]}

    def dtypes(self, *, device=None, kind=None):
        self._check_device(device)
        if kind is None:
            return dict(_DTYPES)
        return {name: d for name, d in _DTYPES.items() if isdtype(d, kind)}

    def _check_device(self, device):
        if device is not None and device not in _device_names():
            raise ValueError("unknown device %r; numgpu has %s" % (device, ", ".join(_device_names())))


def __array_namespace_info__():
    return _Info()


def _to_device(self, device, /, *, stream=None):
    if stream is not None:
        raise ValueError("numgpu has no streams: stream must be None")
    return self.to(device)


def _mT(self):
    if self.ndim < 2:
        raise ValueError("x.mT requires an array of at least 2 dimensions, got %d" % self.ndim)
    return self.swapaxes(-1, -2)


ndarray.__array_namespace__ = _array_namespace
ndarray.to_device = _to_device
ndarray.mT = property(_mT, doc="Transpose of the last two axes (the standard's matrix transpose).")
ndarray.clip = lambda self, min=None, max=None, out=None: clip(self, min, max, out)  # (defined below)


# ---- data types -------------------------------------------------------------------------

def _dtype_of(x):
    return x.dtype if isinstance(x, (ndarray, _np.ndarray)) else _np.dtype(x)


class _NumpysInfo(type):
    """finfo/iinfo are NumPy's objects: isinstance(np.finfo(t), numgpu.finfo) holds."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._numpy)


class finfo(metaclass=_NumpysInfo):
    """NumPy's finfo of a floating dtype (or of an array's, numgpu's too): its limits as NumPy's
    scalars of that precision (np.finfo(np.float32).eps prints 1.1920929e-07 and has a dtype;
    Python floats before 2026-12-07, the standard's wording, which NumPy's own namespace does not
    follow either)."""

    __module__ = "numgpu"
    _numpy = _np.finfo

    def __new__(cls, type):
        return _np.finfo(_dtype_of(type))


class iinfo(metaclass=_NumpysInfo):
    """NumPy's iinfo of an integer dtype (or of an array's): min and max as Python ints."""

    __module__ = "numgpu"
    _numpy = _np.iinfo

    def __new__(cls, type):
        return _np.iinfo(_dtype_of(type))


def isdtype(dtype, kind):
    """True if `dtype` is of `kind`: a dtype, a kind name ("integral", "real floating", ...) or a tuple of them."""
    if not isinstance(dtype, _np.dtype):
        if isinstance(dtype, type) and issubclass(dtype, _np.generic):
            dtype = _np.dtype(dtype)
        else:
            raise TypeError("dtype argument must be a NumPy dtype, but it is a %s." % type(dtype))
    if isinstance(kind, tuple):
        return _builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError("kind argument is a string, but %r is not a known kind name." % kind)
        return _KINDS[kind](dtype)
    try:
        return dtype == _np.dtype(kind)
    except TypeError:
        raise TypeError("kind argument must be comprised of NumPy dtypes or strings only, but is a %s."
                        % type(kind)) from None


def astype(x, dtype, /, *, copy=True, device=None):
    """x converted to dtype (on `device` if given); copy=False returns x itself when nothing changes."""
    x = _asarr(x)
    if device is not None and device != x.device:
        x = x.to(device)
        copy = False  # already a new array
    return x.astype(dtype, copy=bool(copy))


def can_cast(from_, to, /):
    """Whether `from_` (a dtype or an array) casts to `to` under the 'safe' rule."""
    return bool(_np.can_cast(_dtype_of(from_), _np.dtype(to)))


def result_type(*arrays_and_dtypes):
    """NumPy 2's result dtype; Python scalars are weak (NEP 50)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    args = [a.dtype if isinstance(a, ndarray) else a for a in arrays_and_dtypes]
    return _np.result_type(*args)


# ---- creation, with the standard's keywords --------------------------------------------------

def asarray(obj, dtype=None, order=None, *, device=None, copy=None):
    """Array from any array-like. copy=None copies only when needed, True always, False never
    (ValueError if a copy would be needed, as NumPy)."""
    if type(obj) is ndarray and dtype is None and copy is None and device is None and order is None \
            and not obj._scalar:
        return obj      # (the common call: the general path's answer)
    _c_order(order)
    if order == "F" or (order in ("A", "K") and _wants_f(order, obj)):
        return _ns().array(obj, dtype, copy=copy, order="F")
    if isinstance(obj, ndarray):
        same = (dtype is None or _np.dtype(dtype) == obj.dtype) and (device is None or device == obj.device)
        if copy is False and not same:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        if device is not None and device != obj.device:
            obj = obj.to(device)
            copy = False
        if obj._scalar:     # a 0-d result standing for NumPy's scalar: a new 0-d array of it
            return _core.asarray(obj, dtype, True)
        if not copy and (dtype is None or _np.dtype(dtype) == obj.dtype):
            return obj if type(obj) is ndarray else obj.view(ndarray)   # (a subclass's: a plain view)
        return obj.astype(obj.dtype if dtype is None else dtype)
    if copy is False and not _uploads_as_is(obj, dtype):
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    # (a new array, as NumPy's is, writable where the host memory was not: copy=True, or order 'C'
    # of host memory in another order)
    fresh = copy is True or (order == "C" and isinstance(obj, _np.ndarray) and not obj.flags.c_contiguous)
    if device is not None:
        with _ns().use(device):
            return _core.asarray(obj, dtype, fresh)
    return _core.asarray(obj, dtype, fresh)


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """NumPy's asanyarray: asarray, a itself when it needs no copy (an instance of a Python
    subclass of numgpu.ndarray too; NumPy's subclasses, masked arrays and matrices, are NumPy's
    function's: the guard)."""
    _c_order(order, like)
    if isinstance(a, ndarray) and type(a) is not ndarray and not copy and order in (None, "K", "A") and \
            device in (None, a.device) and (dtype is None or _np.dtype(dtype) == a.dtype):
        return a
    return asarray(a, dtype, order, device=device, copy=copy)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    if order == "C" and like is None:   # (the common call, straight to C)
        return _core.full(shape, 0, _F64 if dtype is None else dtype, device)
    _c_order(order, like)
    make = lambda s: _core.full(s, 0, _np.float64 if dtype is None else dtype, device)  # noqa: E731
    return _fortran_layout(make, shape) if order == "F" else make(shape)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    if order == "C" and like is None:   # (the common call, straight to C)
        return _core.full(shape, 1, _F64 if dtype is None else dtype, device)
    _c_order(order, like)
    make = lambda s: _core.full(s, 1, _np.float64 if dtype is None else dtype, device)  # noqa: E731
    return _fortran_layout(make, shape) if order == "F" else make(shape)


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    if order == "C" and like is None:   # (the common call, straight to C)
        return _core.empty(shape, _F64 if dtype is None else dtype, device)
    _c_order(order, like)
    make = lambda s: _core.empty(s, _np.float64 if dtype is None else dtype, device)  # noqa: E731
    return _fortran_layout(make, shape) if order == "F" else make(shape)


def _like(x, dtype, order, shape, device, make):
    """NumPy's *_like: x's shape, dtype and device unless given, laid out in Fortran order for
    order='F', and for 'A'/'K' where x is (a transposed array) and a new shape keeps its rank."""
    if type(x) is ndarray and order == "K" and shape is None and x.ndim < 2:   # (the common call)
        return make(x.shape, x.dtype if dtype is None else dtype, x.device if device is None else device)
    _c_order(order)
    x = _asarr(x)
    rank = x.ndim if shape is None else len(shape) if isinstance(shape, (tuple, list)) else 1
    f = order == "F" or (_wants_f(order, x) and rank == x.ndim)
    s, d, dev = (x.shape if shape is None else shape), (x.dtype if dtype is None else dtype), \
        (x.device if device is None else device)
    return _fortran_layout(lambda t: make(t, d, dev), s) if f else make(s, d, dev)


def empty_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(x, dtype, order, shape, device, _core.empty)


def zeros_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(x, dtype, order, shape, device, lambda s, d, dev: _core.full(s, 0, d, dev))


def ones_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(x, dtype, order, shape, device, lambda s, d, dev: _core.full(s, 1, d, dev))


def full_like(x, /, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(x, dtype, order, shape, device, lambda s, d, dev: _core.full(s, fill_value, d, dev))


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    _c_order(order, like)
    M = N if M is None else M
    k = _operator.index(k)
    k = _builtins.max(-N - 1, _builtins.min(M + 1, k))  # a diagonal outside the matrix: all zeros
    if order == "F":   # the transpose of the C-ordered (M, N) identity of diagonal -k
        return _core.eye(M, N, -k, _np.float64 if dtype is None else dtype, device).T
    return _core.eye(N, M, k, _np.float64 if dtype is None else dtype, device)


def meshgrid(*arrays, indexing="xy", sparse=False, copy=True):
    """Coordinate grids from 1-d arrays (a list, as the standard says)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    arrays = [_asarr(a).reshape(-1) for a in arrays]
    n = len(arrays)
    shapes = [(1,) * i + (-1,) + (1,) * (n - i - 1) for i in range(n)]
    if indexing == "xy" and n > 1:
        shapes[0], shapes[1] = (1, -1) + (1,) * (n - 2), (-1, 1) + (1,) * (n - 2)
    out = [a.reshape(s) for a, s in zip(arrays, shapes)]
    if not sparse:
        full = broadcast_shapes(*(o.shape for o in out))
        out = [_core.broadcast_to(o, full) for o in out]
    return [o.copy() for o in out] if copy else out


# ---- the standard's names ---------------------------------------------------------------------

def reshape(x, /, shape=None, order="C", *, newshape=None, copy=None):
    """NumPy 2.1's reshape, with the standard's copy=: True always copies, False raises
    ValueError where the result could not be a view (NumPy's no-copy rule), None: a view when
    the layout allows, else a copy."""
    x = _asarr(x)
    if shape is None:
        shape = newshape
    if copy is False and not _reshape_is_view(x, shape, order):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    r = x.reshape(shape, order=order)
    return r.copy() if copy else r


def _reshape_is_view(x, shape, order="C"):
    # NumPy's rule on a stand-in with x's shape and byte strides over one element (reshape
    # with copy=False never reads the data).
    stand_in = _np.lib.stride_tricks.as_strided(_np.zeros(1, x.dtype), x.shape, x.strides)
    try:
        _np.reshape(stand_in, shape, order=order, copy=False)
        return True
    except ValueError:
        return False


def broadcast_shapes(*shapes):
    return _np.broadcast_shapes(*shapes)


def broadcast_arrays(*arrays):
    arrays = [_asarr(a) for a in arrays]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return [_core.broadcast_to(a, shape) for a in arrays]


def concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return _ns().concatenate(arrays, axis, out, dtype=dtype, casting=casting)


def permute_dims(x, /, axes):
    return _asarr(x).transpose(tuple(axes))


def matrix_transpose(x, /):
    return _mT(_asarr(x))


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        from numpy.exceptions import AxisError
        raise AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim


def moveaxis(x, source, destination, /):
    x = _asarr(x)
    src = [_axis(a, x.ndim) for a in _axes(source)]
    dst = [_axis(a, x.ndim) for a in _axes(destination)]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in `source` or `destination` argument")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(tuple(order))


def unstack(x, /, *, axis=0):
    """Views of x along axis, as a tuple."""
    x = _asarr(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = _axis(axis, x.ndim)
    moved = moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product over `axis` of broadcast x1 and x2, conjugating complex x1 (NumPy's and the
    standard's vecdot), as one batched matrix product of rows by columns: it sums in the promoted
    dtype (float16 in float32, rounded once, as NumPy's loop)."""
    x1, x2 = _asarr(x1), _asarr(x2)
    n1, n2 = x1.ndim, x2.ndim
    if n1 == 0 or n2 == 0:
        raise ValueError("vecdot: both arguments must be at least 1-d")
    if not -_builtins.min(n1, n2) <= axis < 0 and not 0 <= axis < _builtins.min(n1, n2):
        from numpy.exceptions import AxisError
        raise AxisError("axis %d is out of bounds for arrays of dimensions %d and %d" % (axis, n1, n2))
    a1, a2 = (axis if axis < 0 else axis - n1), (axis if axis < 0 else axis - n2)
    if x1.shape[a1] != x2.shape[a2]:
        raise ValueError("vecdot: the contracted axes have different sizes (%d and %d)"
                         % (x1.shape[a1], x2.shape[a2]))
    if x1.dtype.kind == "c":
        x1 = x1.conj()
    rows, cols = moveaxis(x1, a1, -1)[..., None, :], moveaxis(x2, a2, -1)[..., :, None]
    return (rows @ cols)[..., 0, 0]


def clip(x, /, min=None, max=None, out=None, *, a_min=None, a_max=None):
    """x limited to [min, max] (NumPy's clip; also the standard's min=/max= keywords), in one
    pass: minimum(maximum(x, min), max), NaNs propagating, max winning where min > max. A Python
    scalar bound keeps x's dtype; array bounds take part in type promotion, as in NumPy."""
    x = _asarr(x)
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    lo, hi = (None if v is None else _bound(v, x.dtype) for v in (lo, hi))
    if out is not None and not isinstance(out, ndarray):  # a NumPy out=: filled from the result
        out[...] = _core.clip(x, lo, hi)
        return out
    return _core.clip(x, lo, hi, out)


def _bound(v, dtype):
    """A Python int bound outside an integer dtype's range, pulled to the range (NumPy clips,
    it does not raise, there); beside a float dtype, the float it stands for (NumPy's value,
    also past 64 bits)."""
    if isinstance(v, int) and not isinstance(v, bool):
        if dtype.kind in "iu":
            i = _np.iinfo(dtype)
            return _builtins.min(_builtins.max(v, int(i.min)), int(i.max))
        if dtype.kind in "fc" and not -2 ** 63 <= v < 2 ** 64:
            return float(v)
    return v


def _var(x, axis, dtype, keepdims, ddof, correction, root):
    if correction is not None and ddof:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    c = ddof if correction is None else correction
    code = 4 if root else 3  # numgpu's reduction codes of std and var
    if c == int(c):
        return _core.reduce(code, x, axis, dtype, bool(keepdims), int(c))
    # a fractional correction: var_c = var_0 * n / (n - c)
    x = _asarr(x)
    axes = range(x.ndim) if axis is None else _axes(axis)
    n = _math.prod(x.shape[_axis(a, x.ndim)] for a in axes)
    dof = n - c
    if n and dof <= 0:    # (NumPy's own warning; n == 0: the reduction below gives it)
        import warnings
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
    # NumPy divides by max(n - ddof, 0): inf (or nan for a zero sum) when that is 0
    v = _core.reduce(3, x, axis, dtype, bool(keepdims), 0) * (n / dof if dof > 0 else _math.inf)
    return _ns().sqrt(v) if root else v


def _var_on_numpy(name, x, axis, dtype, out, ddof, keepdims, correction, where, mean):
    """var/std with where= or mean=: NumPy's, through the fallback."""
    from ._fallback import call_numpy
    kw = {"where": where} if where is not True else {}
    if mean is not _np._NoValue:
        kw["mean"] = mean
    if correction is not None:
        kw["correction"] = correction
    else:
        kw["ddof"] = ddof
    return call_numpy("numpy." + name, getattr(_np, name), x, axis=axis, dtype=dtype, out=out,
                      keepdims=keepdims, **kw)


def var(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=_np._NoValue,
        correction=None):
    if where is not True or mean is not _np._NoValue:
        return _var_on_numpy("var", x, axis, dtype, out, ddof, keepdims, correction, where, mean)
    r = _var(x, axis, dtype, keepdims, ddof, correction, False)
    return r if out is None else _into(out, r)


def std(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=_np._NoValue,
        correction=None):
    if where is not True or mean is not _np._NoValue:
        return _var_on_numpy("std", x, axis, dtype, out, ddof, keepdims, correction, where, mean)
    r = _var(x, axis, dtype, keepdims, ddof, correction, True)
    return r if out is None else _into(out, r)


def conj(x, /):
    """Complex conjugate (of a real array, a copy; int8 for bool, as NumPy, whose conjugate
    has no bool loop)."""
    return _core.ufunc(_core.op_names().index("conjugate"), _asarr(x), None, None)


def _python_number(x):
    return isinstance(x, (int, float, complex)) and not isinstance(x, _np.generic)


def real(x, /):
    """The real part: a view of a complex array, the array itself otherwise (of a Python
    number, its .real, as NumPy's)."""
    return x.real if _python_number(x) else _asarr(x).real


def imag(x, /):
    """The imaginary part: a view of a complex array, zeros of its dtype otherwise (of a
    Python number, its .imag, as NumPy's)."""
    return x.imag if _python_number(x) else _asarr(x).imag


__all__ = [
    "__array_api_version__", "__array_namespace_info__", "finfo", "iinfo", "isdtype", "astype",
    "can_cast", "result_type", "asarray", "asanyarray", "zeros", "ones", "empty", "empty_like", "zeros_like",
    "ones_like", "full_like", "eye", "meshgrid", "reshape", "broadcast_shapes", "broadcast_arrays", "concat",
    "permute_dims", "matrix_transpose", "moveaxis", "unstack", "vecdot", "clip", "var", "std",
    "conj", "conjugate", "real", "imag",
    # the standard's spellings of NumPy's ufuncs (bound in numgpu/__init__.py, below)
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_left_shift",
    "bitwise_invert", "bitwise_right_shift", "degrees", "radians",
]
conjugate = conj

# The standard's names for ufuncs numgpu/__init__.py makes from _core.op_names() (this module
# is imported at its end, so they exist).
_UFUNC_ALIASES = {
    "acos": "arccos", "asin": "arcsin", "atan": "arctan", "atan2": "arctan2", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "bitwise_left_shift": "left_shift",
    "bitwise_invert": "invert", "bitwise_right_shift": "right_shift", "degrees": "rad2deg",
    "radians": "deg2rad",
}


def _bind_aliases():
    import sys
    pkg = sys.modules[__name__.rpartition(".")[0]]
    g = globals()
    for alias, name in _UFUNC_ALIASES.items():
        g[alias] = getattr(pkg, name)


_bind_aliases()
