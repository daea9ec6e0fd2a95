"""numgpu.linalg: NumPy's linalg on device arrays.

norm runs on the device (reductions and elementwise ops), except the orders that need singular
values (2, -2, 'nuc' of matrices). solve, inv and cholesky of one square float32/float64 matrix
run on the device's vendor LAPACK where it has one (cuSOLVER on cuda, loaded at run time); every
other case, and the other factorisations and solvers (det, slogdet, qr, eigh, eigvalsh, svd,
lstsq, matrix_rank, pinv, ...), run on NumPy through the fallback contract: the operands are
downloaded, NumPy computes, the results are uploaded, and the call is counted. NumPy's
LinAlgError (a singular matrix, a non-positive-definite one) propagates unchanged. Anything else
NumPy's linalg has is found by the module __getattr__.
"""
import numpy as _np
from numpy.linalg import LinAlgError

from . import ndarray, asarray, float64, sqrt, absolute, power
from . import sum as _sum, max as _max, min as _min
from ._fallback import call_numpy, submodule_getattr

__all__ = ["LinAlgError", "norm", "solve", "inv", "det", "slogdet", "cholesky", "qr", "eigh", "eigvalsh",
           "svd", "lstsq", "matrix_rank", "pinv", "matrix_power"]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _axis(axis, ndim):
    from numpy.exceptions import AxisError
    if not -ndim <= axis < ndim:
        raise AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector and matrix norms as NumPy's, computed on the device."""
    x = _arr(x)
    if x.dtype.kind not in "fc":
        x = x.astype(float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            flat = x.reshape(-1)
            r = sqrt(flat @ flat)  # one pass, no temporary: matmul's dot-product kernel
            return r.reshape((1,) * nd) if keepdims else r
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError("Invalid norm order '%s' for vectors" % ord)
        if ord == _np.inf:
            return _max(absolute(x), axis=axis, keepdims=keepdims)
        if ord == -_np.inf:
            return _min(absolute(x), axis=axis, keepdims=keepdims)
        if ord == 0:
            return _sum((x != 0).astype(x.dtype), axis=axis, keepdims=keepdims)
        if ord == 1:
            return _sum(absolute(x), axis=axis, keepdims=keepdims)
        if ord is None or ord == 2:
            return sqrt(_sum(x * x, axis=axis, keepdims=keepdims))
        ord = float(ord)
        return power(_sum(power(absolute(x), ord), axis=axis, keepdims=keepdims), 1.0 / ord)
    if len(axis) == 2:
        row, col = _axis(axis[0], nd), _axis(axis[1], nd)
        if row == col:
            raise ValueError("Duplicate axes given.")
        if ord in (2, -2, "nuc"):  # singular values: NumPy's SVD
            return _call("norm", _np.linalg.norm, x, ord, axis, keepdims)
        if ord in (1, -1):
            red = _max if ord == 1 else _min
            r = red(_sum(absolute(x), axis=row), axis=col - 1 if col > row else col)
        elif ord in (_np.inf, -_np.inf):
            red = _max if ord == _np.inf else _min
            r = red(_sum(absolute(x), axis=col), axis=row - 1 if row > col else row)
        elif ord in (None, "fro", "f"):
            r = sqrt(_sum(x * x, axis=(row, col)))
        else:
            raise ValueError("Invalid norm order for matrices.")
        if keepdims:
            shape = list(x.shape)
            shape[row] = shape[col] = 1
            r = r.reshape(shape)
        return r
    raise ValueError("Improper number of dimensions to norm.")


def _scalars_up(r):
    """NumPy scalars in a result as 0-d device arrays (numgpu's stand-in for them)."""
    if isinstance(r, _np.generic):
        return asarray(r)
    if isinstance(r, tuple):
        vals = [_scalars_up(v) for v in r]
        return type(r)(*vals) if hasattr(r, "_fields") else tuple(vals)
    return r


def _call(name, func, *args, **kwargs):
    return _scalars_up(call_numpy("numpy.linalg." + name, func, *args, **kwargs))


def _numpy(name):
    func = getattr(_np.linalg, name)

    def f(*args, **kwargs):
        return _call(name, func, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = "NumPy's linalg.%s, computed by NumPy (operands downloaded, results uploaded)." % name
    return f


det = _numpy("det")
slogdet = _numpy("slogdet")
qr = _numpy("qr")
eigh = _numpy("eigh")
eigvalsh = _numpy("eigvalsh")
svd = _numpy("svd")
lstsq = _numpy("lstsq")
matrix_rank = _numpy("matrix_rank")
pinv = _numpy("pinv")
matrix_power = _numpy("matrix_power")


def _device_first(code, name):
    """A function that runs on the device's vendor LAPACK (cuSOLVER on cuda) when the device has one
    and the operands suit it (one square float32/float64 matrix), else on NumPy."""
    fallback = _numpy(name)

    def f(a, *args, **kwargs):
        if not kwargs and len(args) <= 1:
            from . import _core
            r = _core.linalg(code, a, *args)
            if r is not None:
                return r
        return fallback(a, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = fallback.__doc__.replace("computed by NumPy", "on the device's vendor LAPACK where present, "
                                         "else computed by NumPy")
    return f


solve = _device_first(0, "solve")
inv = _device_first(1, "inv")
cholesky = _device_first(2, "cholesky")


def __getattr__(name):
    value = submodule_getattr("numpy.linalg", name)
    if not callable(value) or isinstance(value, type):
        return value

    def f(*args, **kwargs):
        return _scalars_up(value(*args, **kwargs))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = value.__doc__
    return f
