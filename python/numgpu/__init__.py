"""numgpu: NumPy-compatible arrays whose data lives on a device.

    import numgpu as np
    x = np.asarray(numpy_array)      # upload
    y = (x * 2 + 1).sum(axis=0)      # runs as generated kernels on the device
    y.get()                          # numpy.ndarray

Everything here is thin glue: NumPy-shaped signatures over the C core in
numgpu._core, where the arrays, operations and kernels live.
"""
import builtins as _builtins
import math as _math
import operator as _operator
import os as _os
import types as _types

import numpy as _np

from . import _core
from ._core import CompileError, DeviceError, OutOfMemoryError, UnsupportedDtypeError, ndarray

__version__ = "0.1.0"

# NumPy's protocols (__array_ufunc__, __array_function__, method fallback):
# np.add(x, y) and np.sum(x) with numgpu arrays run here; a + numpy array stays on the device.
from . import _protocols  # noqa: E402
from . import _ufunc  # noqa: E402
from ._ufunc import ufunc  # noqa: E402,F401
_protocols.install()
ndarray.__array_priority__ = 100

# dtypes are NumPy's own objects, so dtype=np.float32 and dtype=numgpu.float32 agree.
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
half, single, double = _np.float16, _np.float32, _np.float64
csingle, cdouble, complex_ = _np.complex64, _np.complex128, _np.complex128
intp, float_, int_ = _np.intp, _np.float64, _np.int64
dtype = _np.dtype
pi, e, inf, nan, newaxis = _math.pi, _math.e, _math.inf, _math.nan, None

# NumPy's floating-point error modes are NumPy's own state, read by the binding at every op on
# numgpu arrays (src/pymod/fpe.c): numgpu.errstate and numpy.errstate are one and the same.
errstate = _np.errstate
seterr, geterr, seterrcall, geterrcall = _np.seterr, _np.geterr, _np.seterrcall, _np.geterrcall

stats = _core.stats
get_device = _core.get_device
synchronize = _core.synchronize


def _find_nvrtc():
    """Point the C core at NVRTC from the nvidia-cuda-nvrtc wheel when one is installed."""
    import importlib.util
    import os
    if os.environ.get("NUMGPU_NVRTC_PATH"):
        return
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for sub in ("cuda_nvrtc/lib", "cu13/lib", "cu12/lib"):
            lib = os.path.join(root, sub)
            if os.path.isdir(lib) and any(f.startswith("libnvrtc.so") for f in os.listdir(lib)):
                os.environ["NUMGPU_NVRTC_PATH"] = lib
                return


_find_nvrtc()


def set_device(spec):
    """Make `spec` ("auto", "cpu", "cuda", "cuda:1", "opencl", "opencl:0") the device new arrays go to.
    Returns the previous device's name."""
    return _core.set_device(spec)


class use:
    """Context manager (and plain call) selecting the device for new arrays:

        with numgpu.use("opencl"):
            x = numgpu.ones(10)      # on opencl
    """

    def __init__(self, spec):
        self._prev = _core.set_device(spec)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._prev is not None:
            _core.set_device(self._prev)
        return False


def is_available(kind):
    """True if a device of this kind ("cuda", "opencl", "cpu") can be opened."""
    try:
        _core.device_info(kind)
        return True
    except (DeviceError, ValueError):
        return False


def devices():
    """Every device that opens, as dicts: name, kind, description, gpu, host_visible."""
    found = []
    for kind in ("cuda", "opencl"):
        i = 0
        while True:
            try:
                found.append(_core.device_info("%s:%d" % (kind, i)))
            except (DeviceError, ValueError):
                break
            i += 1
    found.append(_core.device_info("cpu"))
    return found


def set_strict(flag=True):
    """Make implicit host<->device transfers errors (as NUMGPU_STRICT=1); returns the previous setting."""
    return _core.set_strict(flag)


# ---- creation --------------------------------------------------------------

def _c_order(order, like=None):
    """NumPy's order= and like= of creation functions: 'C', 'F', 'A', 'K' (None: 'K'); another
    order= (NumPy's ValueError) or a like= of another library: NumPy's (fallback)."""
    if order not in ("C", "F", "K", "A", None):
        raise NotImplementedError("order=%r" % (order,))
    if like is not None and not isinstance(like, ndarray):
        raise NotImplementedError("like= of a %s" % type(like).__name__)


def _wants_f(order, a=None):
    """Whether order= lays the result out in Fortran order: 'F', or 'A' / 'K' of an array that is
    Fortran- and not C-contiguous (a transposed one)."""
    if order == "F":
        return True
    if order not in ("A", "K") or not isinstance(a, (ndarray, _np.ndarray)) or a.ndim < 2:
        return False            # (1-d: Fortran-contiguous only when C-contiguous too)
    from ._methods import contiguous
    shape, strides, size = a.shape, a.strides, a.itemsize
    return contiguous(shape, strides, size, True) and not contiguous(shape, strides, size)


def _fortran_layout(make, shape):
    """make(shape) laid out in Fortran order: the C-ordered array of the reversed shape, transposed."""
    shape = (shape,) if isinstance(shape, (int, _np.integer)) else tuple(shape)
    return make(shape[::-1]).T._own()


def _uploads_as_is(obj, dtype):
    """A NumPy array or scalar that copy=False takes without a copy NumPy would make (the upload
    is the device's own copy of the data): a numgpu array of its dtype."""
    return isinstance(obj, (_np.ndarray, _np.generic)) and (dtype is None or _np.dtype(dtype) == obj.dtype)


_LISTS = (list, tuple)


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    """NumPy's array: a copy unless copy=False or None allows none (a numgpu array of that dtype);
    ndmin leading axes of length 1 added as needed. order='F' (or 'A'/'K' of a transposed array):
    the C-ordered array of the transpose, transposed."""
    if type(object) in _LISTS and copy is True and ndmin == 0 and like is None and order in ("K", "C"):
        return _core.asarray(object, dtype, True)     # (the common call: the general path's answer)
    _c_order(order, like)
    if _wants_f(order, object):
        if isinstance(object, ndarray) and object.flags.f_contiguous and copy is not True and not object._scalar \
                and (dtype is None or _np.dtype(dtype) == object.dtype):
            a = object
        else:
            src = object if isinstance(object, (ndarray, _np.ndarray)) else _np.asarray(object)
            fresh = copy is None and not src.flags.f_contiguous    # (NumPy copies it: writable)
            a = array(src.T, dtype, copy=True if fresh else copy, order="C").T._own()
        return a.reshape((1,) * (ndmin - a.ndim) + a.shape) if a.ndim < ndmin else a
    same = isinstance(object, ndarray) and (dtype is None or _np.dtype(dtype) == object.dtype)
    reorder = isinstance(object, (ndarray, _np.ndarray)) and order == "C" and not object.flags.c_contiguous  # (a transposed view)
    if copy is False and (reorder or not same and not _uploads_as_is(object, dtype)):
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    a = object if same and copy is not True and not reorder and not object._scalar \
        else _core.asarray(object, dtype, copy is True or reorder)
    if a.ndim < ndmin:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def asnumpy(a):
    """numpy.ndarray copy of a numgpu array (or numpy.asarray of anything else)."""
    return a.get() if isinstance(a, ndarray) else _np.asarray(a)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    _c_order(order, like)
    if order == "F":
        return _fortran_layout(lambda s: _core.full(s, fill_value, dtype, device), shape)
    return _core.full(shape, fill_value, dtype, device)


def _kind(v):
    """NumPy's kind letter of a scalar argument: Python's, NumPy's, or a 0-d array."""
    dt = getattr(v, "dtype", None)
    if isinstance(dt, _np.dtype):
        return dt.kind
    if isinstance(v, (int, float, complex)):
        return "c" if isinstance(v, complex) else "f" if isinstance(v, float) else "i"
    return _np.asarray(v).dtype.kind   # a str ("U"), a datetime ("M"), ...


def _is_complex(v):
    return _kind(v) == "c"


def _complex_range(n, first, step, dtype, device):
    """n values first + i*step of a complex dtype, each part an arange of its own on the device
    (NumPy's complex fill computes the parts apart too)."""
    out = _core.empty(n, dtype, device)
    out.real[...] = _core.arange(first.real, n, step.real, float64, device)
    out.imag[...] = _core.arange(first.imag, n, step.imag, float64, device)
    return out


def arange(start, stop=None, step=None, dtype=None, device=None):
    """NumPy's arange: the length from Python arithmetic on the arguments ((stop - start) / step;
    for complex arguments the smaller of the ceilings of its two parts), the values start + i*delta
    with delta = dtype(start + step) - dtype(start), as NumPy's fill computes them."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None and type(start) is int and type(stop) is int and type(step) is int and step and \
            -2**53 < start < 2**53 and -2**53 < step < 2**53:
        # (Python ints, the common case: int64 values start + i*step, as the general path below)
        n = _builtins.max(0, _math.ceil((stop - start) / step))
        return _core.arange(float(start), n, float(step), int64, device)
    args = (start, stop, step)
    kinds = [_kind(v) for v in args]
    cplx = "c" in kinds
    if dtype is None:
        ints = _builtins.all(k in "biu" for k in kinds)
        dtype = int64 if ints else complex128 if cplx else float64
    dt = _np.dtype(dtype)
    if dt.kind not in "biufc" or not set(kinds) <= set("biufc"):   # dates, strs: NumPy's (fallback)
        raise UnsupportedDtypeError("numgpu does not support arange of %s yet" % (
            dt if dt.kind not in "biufc" else " and ".join(sorted({type(v).__name__ for v, k in zip(args, kinds)
                                                                    if k not in "biufc"}))))
    if cplx and dt.kind != "c":
        raise TypeError("must be real number, not complex")
    if step == 0:
        raise ZeroDivisionError("division by zero")
    q = (stop - start) / step
    if cplx:
        q = complex(q)
        n = _builtins.min(_math.ceil(q.real), _math.ceil(q.imag))
    else:
        n = _math.ceil(q)
    n = _builtins.max(0, n)
    if dt.kind == "b":
        return _core.arange(float(start), n, float(step), dtype, device)
    first = dt.type(start)
    second = dt.type(start + step) if n > 1 else first
    if dt.kind == "c":
        first, second = complex(first), complex(second)
        return _complex_range(n, first, complex(second.real - first.real, second.imag - first.imag), dtype,
                              device)
    if dt.kind in "iu":
        return _core.arange(float(int(first)), n, float(int(second) - int(first)), dtype, device)
    return _core.arange(float(first), n, float(second) - float(first), dtype, device)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """NumPy's linspace; complex start/stop give complex128 (then dtype), each part start + i*step
    with NumPy's complex step (delta / div) and the last value stop when endpoint. Arrays of
    starts and stops (and so axis=): NumPy's (fallback)."""
    if _np.ndim(start) or _np.ndim(stop):
        raise NotImplementedError("linspace of arrays of starts and stops")
    _norm_axis(_operator.index(axis), 1)     # (of scalar ends the result is 1-d: 0 or -1)
    num = _operator.index(num)
    div = (num - 1) if endpoint else num
    if dtype is None:  # NumPy's: the arguments' result type (NumPy scalars strong), at least inexact
        dtype = _np.result_type(start, stop)
        dtype = dtype if dtype.kind in "fc" else float64
    if not (_is_complex(start) or _is_complex(stop)):
        if _np.dtype(dtype).kind in "iub":   # NumPy floors the float values before the integer cast
            out = floor(_core.linspace(float(start), float(stop), num, bool(endpoint), float64, device))  # noqa: F821
            out = out.astype(dtype, copy=False)
        else:
            out = _core.linspace(float(start), float(stop), num, bool(endpoint), dtype, device)
        step = (stop - start) / div if div > 0 else _math.nan
    else:
        if num < 0:
            raise ValueError("Number of samples, %d, must be non-negative." % num)
        s, e = complex(start), complex(stop)
        step = complex(_np.complex128(e - s) / div) if div > 0 else _math.nan  # NumPy's complex division
        out = _complex_range(num, s, step if div > 0 else 0j, complex128, device)
        if endpoint and num > 1:
            out[-1] = e
        if _np.issubdtype(dtype, _np.integer):
            out = floor(out)  # noqa: F821 (NumPy floors before an integer cast: TypeError for complex)
        out = out.astype(dtype, copy=False)
    if retstep:   # (NumPy's step: a NumPy scalar, or a Python nan with no step to take)
        return out, step if div <= 0 else _np.result_type(start, stop, float(num)).type(step)
    return out


def identity(n, dtype=float64, device=None):
    return eye(n, dtype=dtype, device=device)


# ---- ufuncs ------------------------------------------------------------------

for _code, _name in enumerate(_core.op_names()):
    # (math.erf in compiled loops: NumPy has no such ufunc; frexp's two ops make one ufunc in _mathx,
    # i0 is a function there)
    if _name not in ("copy", "erf", "erfc", "gamma", "lgamma", "frexp", "frexp_exponent", "i0"):
        globals()[_name] = _ufunc.make(_code, _name)
del _code, _name

true_divide = divide  # noqa: F821 (defined in the loop above)
mod = remainder  # noqa: F821
abs = absolute  # noqa: F821
pow = power  # noqa: F821
conj = conjugate  # noqa: F821


# ---- reductions ----------------------------------------------------------------

_RED = {name: i for i, name in enumerate(
    ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all", "count_nonzero"])}


def _into(out, r):
    """out= as NumPy's: result r written into `out` (of r's shape; cast as assignment casts, which
    is NumPy's unsafe cast), and `out` returned. A NumPy array as out gets the values downloaded.
    (A tuple is refused, as NumPy's functions refuse it; ufuncs' callers unwrap theirs.)"""
    if not isinstance(out, (ndarray, _np.ndarray)):
        raise TypeError("output must be an array, not %s" % type(out).__name__)
    if out.shape != r.shape:
        raise ValueError("output array has shape %s, but the result has shape %s" % (out.shape, r.shape))
    out[...] = r.get() if isinstance(out, _np.ndarray) else r
    return out


def _reduced_shape(a, axis, keepdims):
    """The shape reducing `a` over `axis` gives, and how many elements each result reduces."""
    axes = range(a.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    axes = {_operator.index(d) % a.ndim if a.ndim else d for d in axes}
    shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape) if keepdims or d not in axes)
    return shape, _math.prod(a.shape[d] for d in axes)


def _reduce(name, a, axis, dtype, out, keepdims, initial=_np._NoValue, where=True):
    """NumPy's reduction `name` with initial= and where= (elements where `where` is False replaced
    by the op's identity, or by `initial` for min/max, which need one: NumPy's ValueError else)."""
    code = _RED[name]
    if where is not True or initial is not _np._NoValue:
        a = _arr(a)
        # NumPy casts initial to the result's dtype: a's for min/max (sum/prod: below, the sum's)
        init = None if initial is _np._NoValue else _np.array(initial, dtype=a.dtype).item() \
            if name in ("max", "min") else initial
        if where is not True:
            fill = {"sum": 0, "prod": 1, "mean": 0, "any": False, "all": True}.get(name, init)
            fill = None if fill is None else _np.array(fill, dtype=a.dtype).item()   # (a weak scalar of a's dtype)
            if fill is None:
                raise ValueError("reduction operation '%s' does not have an identity, so to use a where mask "
                                 "one has to specify 'initial'" % {"max": "maximum", "min": "minimum"}[name])
            mask = broadcast_to(_arr(where), a.shape)
            a = _core.where(mask, a, fill)
            if name == "mean":    # the selected elements' sum over their count
                kind = dtype if dtype is not None else _np.float64 if a.dtype.kind in "biu" else a.dtype
                total = _core.reduce(_RED["sum"], a, axis, kind, bool(keepdims), 0)
                count = _core.reduce(_RED["count_nonzero"], mask, axis, None, bool(keepdims), 0)
                if _builtins.bool((count == 0).any()):   # (NumPy's own warning, as the C reduction gives it)
                    import warnings
                    warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
                r = (total / count).astype(total.dtype)
                return r if out is None else _into(out, r)
        shape, n = _reduced_shape(a, axis, keepdims)
        if init is not None and n == 0 and name in ("max", "min"):
            r = full(shape, init, dtype=a.dtype)
        else:
            r = _core.reduce(code, a, axis, dtype, bool(keepdims), 0)
            if init is not None:
                op = {"sum": add, "prod": multiply, "max": maximum, "min": minimum}[name]  # noqa: F821
                r = op(r, _np.array(init, dtype=r.dtype).item())
    else:
        r = _core.reduce(code, a, axis, dtype, bool(keepdims), 0)
    return r if out is None else _into(out, r)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    return _reduce("sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    return _reduce("prod", a, axis, dtype, out, keepdims, initial, where)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _reduce("mean", a, axis, dtype, out, keepdims, where=where)


def max(a, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    return _reduce("max", a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
    return _reduce("min", a, axis, None, out, keepdims, initial, where)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    return _reduce("any", a, axis, None, out, keepdims, where=where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    return _reduce("all", a, axis, None, out, keepdims, where=where)


amax, amin = max, min


def _index_out(out, r):
    """argmin/argmax's out=: NumPy takes only an array of its index dtype."""
    if out is None:
        return r
    if not isinstance(out, (ndarray, _np.ndarray)):
        raise TypeError("output must be an array")
    if out.dtype != r.dtype:
        raise TypeError("Cannot cast array data from %r to %r according to the rule 'safe'" % (r.dtype, out.dtype))
    return _into(out, r)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _index_out(out, _core.reduce(_RED["argmin"], a, axis, None, bool(keepdims), 0))


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _index_out(out, _core.reduce(_RED["argmax"], a, axis, None, bool(keepdims), 0))


def count_nonzero(a, axis=None, keepdims=False):
    return _core.reduce(_RED["count_nonzero"], a, axis, None, bool(keepdims), 0)


# ---- shapes ----------------------------------------------------------------------

def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def ravel(a, order="C"):
    return _arr(a).ravel(order)


def transpose(a, axes=None):
    return _arr(a).transpose(axes)


def swapaxes(a, axis1, axis2):
    return _arr(a).swapaxes(axis1, axis2)


def _norm_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        from numpy.exceptions import AxisError
        raise AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim


def _axes(axis):
    """An axis argument as a tuple: one integer (a Python int, NumPy's, or a 0-d integer array
    such as x.argmax(): NumPy's operator.index), else the items of a sequence of them."""
    if isinstance(axis, (tuple, list)):
        return tuple(axis)
    try:
        return (_operator.index(axis),)
    except TypeError:
        return tuple(axis)      # (an array of axes, a range)


def expand_dims(a, axis):
    a = _arr(a)
    axes = _axes(axis)
    nd = a.ndim + len(axes)
    axes = sorted(_norm_axis(x, nd) for x in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    shape = list(a.shape)
    for x in axes:
        shape.insert(x, 1)
    return a.reshape(shape)


def squeeze(a, axis=None):
    a = _arr(a)
    if axis is None:
        return a.reshape([s for s in a.shape if s != 1])
    axes = {_norm_axis(x, a.ndim) for x in _axes(axis)}
    for x in axes:
        if a.shape[x] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return a.reshape([s for i, s in enumerate(a.shape) if i not in axes])


ndarray.squeeze = squeeze


def broadcast_to(a, shape):
    """NumPy's broadcast_to: a read-only view (its elements repeat: a write would reach them all)."""
    r = _core.broadcast_to(a, shape)
    r._writeable(False)
    return r


def _check_casts(arrays, dtype, casting):
    """concatenate's dtype= and out=: every array castable to dtype under `casting` (NumPy's
    TypeError else); the casts themselves happen as each array is copied into its place."""
    dtype = _np.dtype(dtype)
    for a in arrays:
        if not _np.can_cast(a.dtype, dtype, casting):
            raise TypeError("Cannot cast array data from %r to %r according to the rule %r" % (a.dtype, dtype, casting))
    return dtype


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    if out is None and dtype is None and casting == "same_kind" and type(axis) is int and \
            type(arrays) in (list, tuple):
        for a in arrays:
            if type(a) is not ndarray:
                break
        else:   # (numgpu arrays and nothing else to decide: the common call, straight to C)
            return _core.concatenate(arrays, axis)
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of %s" % ", ".join(repr(c) for c in _CASTINGS))
    if out is not None and not isinstance(out, (ndarray, _np.ndarray)):
        raise TypeError("out must be an array, not %s" % type(out).__name__)
    arrays = list(arrays)
    if dtype is None and out is None and _builtins.any(type(a) in (int, float, complex, bool) for a in arrays):
        # NumPy 2 promotes Python scalars weakly here too: (int16 array, 3) stays int16
        dtype = _np.result_type(*[a if type(a) in (int, float, complex, bool) else _arr(a).dtype for a in arrays])
    to = None
    if dtype is not None or out is not None or casting != "same_kind":
        # each array cast straight to the dtype the result takes (NumPy: no common dtype on the way)
        arrays = [_arr(a) for a in arrays]
        to = dtype if dtype is not None else out.dtype if out is not None else \
            _np.result_type(*[a.dtype for a in arrays]) if arrays else None
        if to is not None:
            to = _check_casts(arrays, to, casting)
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    if isinstance(out, ndarray):
        return _core.concatenate(arrays, axis, to, out)  # (written in place: no result to copy)
    r = _core.concatenate(arrays, axis, to)
    return r if out is None else _into(out, r)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    if len({a.shape for a in arrays}) != 1:
        raise ValueError("all input arrays must have the same shape")
    axis = _norm_axis(axis, arrays[0].ndim + 1)
    s = arrays[0].shape
    shape = s[:axis] + (1,) + s[axis:]     # (each array with a new axis of length 1 there)
    return concatenate([a.reshape(shape) for a in arrays], axis, out, dtype=dtype, casting=casting)


def _each(arys, view):
    """NumPy's atleast_Nd shape: view(a) of one array, a tuple for several."""
    res = tuple(view(_arr(a)) for a in arys)
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys):
    return _each(arys, lambda a: a.reshape(1) if a.ndim == 0 else a)


def atleast_2d(*arys):
    return _each(arys, lambda a: a.reshape(1, -1) if a.ndim == 1 else a.reshape(1, 1) if a.ndim == 0 else a)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def hstack(tup):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1)


# ---- products --------------------------------------------------------------------

def matmul(a, b, out=None):
    if isinstance(out, tuple) and len(out) == 1:   # (a ufunc's out: a one-array tuple too)
        out = out[0]
    r = _arr(a) @ _arr(b)
    if out is not None and not _np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError("Cannot cast ufunc 'matmul' output from %r to %r with casting rule 'same_kind'"
                        % (r.dtype, out.dtype))
    return r if out is None else _into(out, r)


# ---- loops --------------------------------------------------------------------

from .jit import jit, prange  # noqa: E402

# ---- breadth: each family lives in its own module --------------------------------

from ._sorting import *  # noqa: E402,F401,F403
from ._manip import *  # noqa: E402,F401,F403
from . import fft, lib, linalg, random  # noqa: E402,F401
from ._array_api import *  # noqa: E402,F401,F403
from ._numeric import *  # noqa: E402,F401,F403
from ._extra import *  # noqa: E402,F401,F403
from ._indexx import *  # noqa: E402,F401,F403
from ._mathx import *  # noqa: E402,F401,F403
from ._bitspoly import *  # noqa: E402,F401,F403
from ._run import config, report  # noqa: E402,F401
if _os.environ.get("NUMGPU_SCALARS"):
    config(scalars=_os.environ["NUMGPU_SCALARS"])
from ._fallback import module_getattr as __getattr__  # noqa: E402,F401
from ._dlpack import from_dlpack  # noqa: E402,F401
from ._nditer import nditer  # noqa: E402,F401

# ---- complex numbers ------------------------------------------------------------------
# NumPy's helpers for complex data (numpy/lib/_type_check_impl.py), each made of device ops;
# only real_if_close reads one bool back. Defined after the family imports: sort_complex
# here replaces _sorting's (which kept real dtypes).


def angle(z, deg=False):
    """The argument of z, arctan2(z.imag, z.real) (arctan2(0, z) for real z), in degrees if deg."""
    z = _arr(z)
    a = arctan2(z.imag, z.real) if z.dtype.kind == "c" else arctan2(0, z)  # noqa: F821
    if deg:
        a *= 180 / pi
    return a


def iscomplex(x):
    """Elementwise: the imaginary part is nonzero (all False for a real dtype)."""
    x = _arr(x)
    return x.imag != 0 if x.dtype.kind == "c" else zeros(x.shape, bool_)


def isreal(x):
    """Elementwise: the imaginary part is zero (all True for a real dtype; of a Python number,
    a Python bool, as NumPy's imag(x) == 0)."""
    if isinstance(x, (int, float, complex)) and not isinstance(x, _np.generic):
        return x.imag == 0
    x = _arr(x)
    return x.imag == 0 if x.dtype.kind == "c" else ones(x.shape, bool_)


def _dtype_only(x):
    """x's dtype, from its dtype attribute or NumPy's conversion on the host (no upload)."""
    dt = getattr(x, "dtype", None)
    return dt if isinstance(dt, _np.dtype) else _np.asarray(x).dtype


def iscomplexobj(x):
    """True if x has a complex dtype (its values are not looked at)."""
    return _dtype_only(x).kind == "c"


def isrealobj(x):
    """True unless x has a complex dtype."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """a.real when every imaginary part is below tol (in machine epsilons when tol > 1), else a."""
    a = _arr(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    return a.real if bool(all(absolute(a.imag) < tol)) else a  # noqa: F821


# ---- small helpers from device ops ------------------------------------------------------
# NumPy's own definitions (numpy/_core/numeric.py, fromnumeric.py, shape_base.py,
# lib/_function_base_impl.py, lib/_ufunclike_impl.py) over numgpu's ops: these used to fall back
# (arguments downloaded, NumPy called, the result uploaded, a warning).


def shape(a):
    """The shape of a (an array's own, with no copy of its data)."""
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def size(a, axis=None):
    """The number of elements of a, or along axis (an int or a tuple of them)."""
    if not isinstance(a, ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    axes = axis if isinstance(axis, tuple) else (axis,)
    return _math.prod(a.shape[_norm_axis(x, a.ndim)] for x in axes)


def ndim(a):
    """The number of axes of a."""
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


class _Layout:
    """An array's layout, with its memory at a made-up address, for NumPy's overlap solver: it
    reads shapes, strides and addresses and never the memory."""
    _BASE = 1 << 44

    def __init__(self, a):
        self.__array_interface__ = {"data": (self._BASE + a._memory[1], True), "shape": a.shape,
                                    "strides": a.strides, "typestr": a.dtype.str, "version": 3}


def _overlap(solve, a, b, max_work):
    """NumPy's solve (shares_memory or may_share_memory) of a and b. On cpu, device arrays are host
    memory (zero-copy arrays of one NumPy array share it): NumPy's own answer on their views.
    Elsewhere two device arrays share memory only within one buffer, where NumPy solves their
    layouts at a made-up address, and never a NumPy array's."""
    dev = [x.device for x in (a, b) if isinstance(x, ndarray)]
    if dev and _builtins.all(d.startswith("cpu") for d in dev):   # host memory: NumPy's answer on zero-copy views
        a, b = (_np.asarray(x) if isinstance(x, ndarray) else x for x in (a, b))
    elif len(dev) == 2:
        if a._memory[0] != b._memory[0]:
            return False
        return solve(_np.asarray(_Layout(a)), _np.asarray(_Layout(b)), max_work=max_work)
    elif dev:
        return False
    return solve(a, b, max_work=max_work)


def shares_memory(a, b, max_work=None):
    """Whether a and b share memory: NumPy's exact answer, with no copy of either."""
    return _overlap(_np.shares_memory, a, b, max_work)


def may_share_memory(a, b, max_work=None):
    """Whether a and b might share memory (NumPy's bounds check)."""
    return _overlap(_np.may_share_memory, a, b, max_work)


def copy(a, order="K", subok=False):
    """A new array with a's data (NumPy's copy)."""
    return array(a, order=order, subok=subok, copy=True)


def ascontiguousarray(a, dtype=None, *, like=None):
    """a as a C-contiguous array of at least one dimension (no copy when it is one already)."""
    return array(a, dtype, copy=None, order="C", ndmin=1, like=like)


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have one shape and equal elements (NaNs equal with equal_nan), a Python bool."""
    try:
        a1, a2 = _arr(a1), _arr(a2)
    except UnsupportedDtypeError:   # str, object, datetime data: NumPy's array_equal, by the guard
        raise
    except Exception:  # noqa: BLE001 (NumPy's answer for what does not convert)
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        return _builtins.bool(all(a1 == a2))
    a1nan, a2nan = isnan(a1), isnan(a2)  # noqa: F821
    if not _builtins.bool(all(a1nan == a2nan)):
        return False
    return _builtins.bool(all(where(a1nan, True, a1 == a2)))  # noqa: F821


def ptp(a, axis=None, out=None, keepdims=False):
    """max - min along axis (NumPy's peak to peak)."""
    r = subtract(max(a, axis, None, keepdims), min(a, axis, None, keepdims))  # noqa: F821
    return r if out is None else _into(out, r)


def column_stack(tup):
    """1-d arrays as columns (2-d ones as they are), joined along axis 1."""
    arrays = []
    for v in tup:
        arr = _arr(v)
        arrays.append(arr.reshape(-1, 1) if arr.ndim < 2 else arr)
    return concatenate(arrays, 1)


def append(arr, values, axis=None):
    """arr with values appended (both flattened when axis is None)."""
    arr = _arr(arr)
    if axis is None:
        arr = arr.ravel() if arr.ndim != 1 else arr
        values = ravel(values)
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


def array_split(ary, indices_or_sections, axis=0):
    """Views of ary cut along axis at the given indices, or into that many nearly equal parts."""
    ary = _arr(ary)
    total = ary.shape[axis]
    try:
        sections = len(indices_or_sections) + 1
        div = [0] + list(indices_or_sections) + [total]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        div = [0]
        for size in extras * [each + 1] + (sections - extras) * [each]:
            div.append(div[-1] + size)
    moved = swapaxes(ary, axis, 0)
    return [swapaxes(moved[div[i]:div[i + 1]], axis, 0) for i in range(sections)]


def split(ary, indices_or_sections, axis=0):
    """array_split, where a number of sections must divide the axis evenly."""
    try:
        len(indices_or_sections)
    except TypeError:
        if _arr(ary).shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def _split_along(ary, indices_or_sections, least, axis, name):
    ary = _arr(ary)
    if ary.ndim < least:
        raise ValueError("%s only works on arrays of %d or more dimensions" % (name, least))
    return split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 of a 1-d array)."""
    ary = _arr(ary)
    return _split_along(ary, indices_or_sections, 1, 1 if ary.ndim > 1 else 0, "hsplit")


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array of 2 or more dimensions."""
    return _split_along(ary, indices_or_sections, 2, 0, "vsplit")


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array of 3 or more dimensions."""
    return _split_along(ary, indices_or_sections, 3, 2, "dsplit")


def average(a, axis=None, weights=None, returned=False, *, keepdims=_np._NoValue):
    """The (weighted) mean along axis, NumPy's average: integer data in float64, weights summing
    to zero a ZeroDivisionError; with returned, (average, sum of weights)."""
    a = _arr(a)
    if axis is not None:
        axis = tuple(_norm_axis(ax, a.ndim) for ax in _axes(axis))
    kw = {} if keepdims is _np._NoValue else {"keepdims": keepdims}
    if weights is None:
        avg = a.mean(axis, **kw)
        scl = full(avg.shape, a.size / _builtins.max(avg.size, 1), dtype=avg.dtype)
    else:
        wgt = _arr(weights)
        kinds = (a.dtype, wgt.dtype, "f8") if a.dtype.kind in "biu" else (a.dtype, wgt.dtype)
        result_dtype = _np.result_type(*kinds)
        if a.shape != wgt.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if wgt.shape != tuple(a.shape[ax] for ax in axis):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            wgt = wgt.transpose(tuple(_np.argsort(axis)))
            wgt = wgt.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
        scl = wgt.sum(axis=axis, dtype=result_dtype, **kw)
        if _builtins.bool(any(scl == 0.0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = multiply(a, wgt, dtype=result_dtype).sum(axis, **kw) / scl  # noqa: F821
    if not returned:
        return avg
    if scl.shape != avg.shape:
        scl = broadcast_to(scl, avg.shape).copy()
    return avg, scl


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, infinities to `posinf`/`neginf` (the dtype's largest finite values by
    default), in both parts of complex data; a copy unless copy=False (then in place). One pass
    over the data (one per part of complex data) where the three values are real numbers."""
    if copy is False and isinstance(x, (_np.ndarray, _np.generic)):
        return _np.nan_to_num(x, copy=False, nan=nan, posinf=posinf, neginf=neginf)  # (the caller's own array)
    if not _builtins.all(v is None or isinstance(v, (int, float, _np.integer, _np.floating)) for v in
                         (nan, posinf, neginf)):
        return _nan_to_num_masks(x, copy, nan, posinf, neginf)  # (array or complex values: NumPy's copyto)
    a = array(x, copy=None if copy else False)
    if a.dtype.kind not in "fc":
        if copy and a is x:
            a = a.copy()
        return a[()] if a.ndim == 0 else a
    info = _np.finfo(a.real.dtype)
    vals = (float(nan), float(info.max if posinf is None else posinf), float(info.min if neginf is None else neginf))
    if a.dtype.kind == "f":
        r = _core.nan_to_num(a, *vals) if copy else _core.nan_to_num(a, *vals, a)
    else:
        r = empty_like(a) if copy else a  # noqa: F821
        for part in ("real", "imag"):
            _core.nan_to_num(getattr(a, part), *vals, getattr(r, part))
    return r[()] if r.ndim == 0 else r


def _nan_to_num_masks(x, copy, nan, posinf, neginf):
    """nan_to_num by NumPy's own steps (masks, then copyto), for values NumPy's copyto takes
    that are not real numbers (arrays broadcast against x)."""
    x = array(x, copy=copy)
    if x.dtype.kind not in "fc":
        return x[()] if x.ndim == 0 else x
    info = _np.finfo(x.real.dtype)
    maxf = info.max if posinf is None else posinf
    minf = info.min if neginf is None else neginf
    for d in ((x.real, x.imag) if x.dtype.kind == "c" else (x,)):
        bad_nan, bad_pos, bad_neg = isnan(d), isposinf(d), isneginf(d)  # noqa: F821
        copyto(d, nan, where=bad_nan)  # noqa: F821
        copyto(d, maxf, where=bad_pos)  # noqa: F821
        copyto(d, minf, where=bad_neg)  # noqa: F821
    return x[()] if x.ndim == 0 else x


def _inf_sign(x, negative, out):
    x = _arr(x)
    if x.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    sign = signbit(x) if negative else logical_not(signbit(x))  # noqa: F821
    return logical_and(isinf(x), sign, out=out)  # noqa: F821


def isposinf(x, out=None):
    """Elementwise: x is +inf."""
    return _inf_sign(x, False, out)


def isneginf(x, out=None):
    """Elementwise: x is -inf."""
    return _inf_sign(x, True, out)


# ---- closeness ---------------------------------------------------------------------------
# NumPy's isclose/allclose (numpy/_core/numeric.py), its formula op for op, on the device: an
# iterative loop's `while not np.allclose(x_new, x)` used to fall back, which downloads both
# arrays every iteration on a GPU (a copy on cpu: 2.2x NumPy's time at 10^6 elements).


def _close_operand(v):
    return v if isinstance(v, (int, float, complex)) and not isinstance(v, _np.generic) else _arr(v)


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """|a - b| <= atol + rtol |b| where b is finite, or a == b; NaNs equal with equal_nan."""
    x, y, atol, rtol = (_close_operand(v) for v in (a, b, atol, rtol))
    if isinstance(y, ndarray):   # (timedelta64 data has no device arrays: NumPy's isclose, by the guard)
        y = y.astype(_np.result_type(y.dtype, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    with _np.errstate(invalid="ignore"):   # (inf - inf, as NumPy's isclose)
        result = (less_equal(absolute(x - y), atol + rtol * absolute(y)) & isfinite(y)) | (x == y)  # noqa: F821
    if equal_nan:
        result = result | (isnan(x) & isnan(y))  # noqa: F821
    if not isinstance(result, ndarray):
        return result
    return result[()] if result.ndim == 0 else result


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """True when every element of a is close to b's (isclose), as a Python bool."""
    return _builtins.bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


# ---- never failing where NumPy runs -----------------------------------------------------
# Last, over everything above: a call numgpu cannot run (str, object or datetime64 data, which
# have no device arrays; a form raising NotImplementedError) runs NumPy's function of the name
# through the fallback, counted and warned about, as `numgpu run` does.
from ._fallback import guard_module as _guard_module  # noqa: E402
from ._subclass import install as _install_subclasses  # noqa: E402

_install_subclasses()

# pandas, Pillow and scipy given numgpu arrays where they test for NumPy's: wrapped at their import
from ._libraries import install_all as _install_libraries  # noqa: E402

_install_libraries()

_guard_module(globals(), "numpy")
_guard_module(vars(linalg), "numpy.linalg")
_guard_module(vars(fft), "numpy.fft")
_guard_module(vars(random), "numpy.random")
_guard_module(vars(lib.stride_tricks), "numpy.lib.stride_tricks")

# help(x.argsort): NumPy's text for the methods numgpu added without one of their own.
for _name, _v in list(vars(ndarray).items()):
    if isinstance(_v, _types.FunctionType) and _v.__doc__ is None and hasattr(_np.ndarray, _name):
        _v.__doc__ = getattr(_np.ndarray, _name).__doc__
del _name, _v
