"""numgpu.linalg: NumPy's linalg on device arrays.

norm runs on the device (reductions and elementwise ops), except the orders that need singular
values (2, -2, 'nuc' of matrices). solve, inv, det, slogdet, cholesky and qr run on the device for
stacks of float32, float64, complex64 and complex128 matrices (integers and bool in float64, as
NumPy): generated LU, Cholesky and Householder kernels (src/ops/lapack.c), or the device's vendor LAPACK for
one float32/float64 matrix where it has one (cuSOLVER on cuda, loaded at run time). The other
factorisations and solvers (eigh, eigvalsh, svd, lstsq, matrix_rank, pinv, ...) run on NumPy
through the fallback contract: the operands are downloaded, NumPy computes, the results are
uploaded, and the call is counted. A singular or non-positive-definite matrix raises NumPy's
LinAlgError either way. Anything else NumPy's linalg has is found by the module __getattr__.

The Array API standard's linalg extension is here with NumPy 2's signatures (the standard's
keywords plus NumPy's own: qr(mode=), svd(full_matrices=, compute_uv=, hermitian=),
matrix_rank(tol=, rtol=), pinv(rcond=, rtol=), cholesky(upper=)). matrix_norm, vector_norm,
diagonal, trace, outer, tensordot, vecdot, matmul, matrix_transpose and cross (three
elementwise products of the components) run on the device; svdvals on NumPy.
"""
import math as _math

import numpy as _np
from numpy.linalg import LinAlgError

from . import ndarray, float64, sqrt, absolute, power
from ._array_api import asarray
from . import sum as _sum, max as _max, min as _min
from ._fallback import call_numpy, submodule_getattr

__all__ = ["LinAlgError", "norm", "solve", "inv", "det", "slogdet", "cholesky", "qr", "eigh", "eigvalsh",
           "svd", "svdvals", "lstsq", "matrix_rank", "pinv", "matrix_power", "matmul", "matrix_transpose",
           "diagonal", "trace", "outer", "tensordot", "vecdot", "cross", "matrix_norm", "vector_norm"]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _axis(axis, ndim):
    from numpy.exceptions import AxisError
    if not -ndim <= axis < ndim:
        raise AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))
    return axis % ndim


def _abs2(x):
    """|x|^2 elementwise as NumPy's norms compute it: x * x, or (conj(x) * x).real for complex."""
    return (x.conj() * x).real if x.dtype.kind == "c" else x * x


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector and matrix norms as NumPy's, computed on the device (complex x: real results, the
    real dtype of x; float16 rounded at NumPy's steps)."""
    x = _arr(x)
    if x.dtype.kind not in "fc":
        x = x.astype(float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            flat = x.reshape(-1)
            if x.dtype.kind == "c":  # NumPy: re . re + im . im
                re, im = flat.real, flat.imag
                r = sqrt(re @ re + im @ im)
            else:
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
            return _sum((x != 0).astype(x.real.dtype), axis=axis, keepdims=keepdims)
        if ord == 1:
            return _sum(absolute(x), axis=axis, keepdims=keepdims)
        if ord is None or ord == 2:
            return sqrt(_sum(_abs2(x), axis=axis, keepdims=keepdims))
        r = _sum(power(absolute(x), float(ord)), axis=axis, keepdims=keepdims)
        # NumPy raises to reciprocal(ord, dtype=r.dtype): 1/ord rounded to the result's precision
        return power(r, float(_np.reciprocal(float(ord), dtype=r.dtype)))
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
            r = sqrt(_sum(_abs2(x), axis=(row, col)))
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


eigh = _numpy("eigh")
eigvalsh = _numpy("eigvalsh")
lstsq = _numpy("lstsq")
matrix_power = _numpy("matrix_power")


# The factorisations with keywords: NumPy 2's signatures (the Array API standard's, plus NumPy's
# own keywords), computed by NumPy.

try:
    from numpy.linalg._linalg import QRResult as _QRResult
except ImportError:  # NumPy < 2
    from collections import namedtuple as _namedtuple
    _QRResult = _namedtuple("QRResult", ["Q", "R"])


def qr(a, mode="reduced"):
    """NumPy's linalg.qr of (a stack of) matrices: modes 'reduced', 'complete' and 'r' on the
    device (Householder reflectors with LAPACK's conventions, so NumPy's signs); 'raw' (LAPACK's
    own storage) and NumPy's deprecated modes by NumPy."""
    codes = {"reduced": 0, "complete": 1, "r": 2}
    if mode not in codes:
        return _call("qr", _np.linalg.qr, a, mode=mode)
    a = _arr(a)
    if a.ndim < 2:
        raise LinAlgError("%d-dimensional array given. Array must be at least two-dimensional" % a.ndim)
    from . import _core
    r = _core.lapack(5, a, codes[mode])
    return r if mode == "r" else _QRResult(*r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """NumPy's linalg.svd, computed by NumPy."""
    return _call("svd", _np.linalg.svd, a, full_matrices=full_matrices, compute_uv=compute_uv,
                 hermitian=hermitian)


def svdvals(x, /):
    """Singular values of (a stack of) matrices, computed by NumPy."""
    return _call("svdvals", _np.linalg.svdvals, x)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """NumPy's linalg.matrix_rank (tol= or the standard's rtol=), computed by NumPy."""
    return _call("matrix_rank", _np.linalg.matrix_rank, A, tol=tol, hermitian=hermitian, rtol=rtol)


def pinv(a, rcond=None, hermitian=False, *, rtol=_np._NoValue):
    """NumPy's linalg.pinv (rcond= or the standard's rtol=), computed by NumPy."""
    return _call("pinv", _np.linalg.pinv, a, rcond=rcond, hermitian=hermitian, rtol=rtol)


def _square_stack(a):
    """a as a device array of (a stack of) square matrices, with NumPy's LinAlgError otherwise."""
    a = _arr(a)
    if a.ndim < 2:
        raise LinAlgError("%d-dimensional array given. Array must be at least two-dimensional" % a.ndim)
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return a


def _on_device(code, name, nargs):
    """NumPy's linalg.<name> on the device (src/ops/lapack.c, or the vendor LAPACK); calls with
    keywords NumPy's function has and numgpu does not go to NumPy."""
    fallback = _numpy(name)

    def f(a, *args, **kwargs):
        if kwargs or len(args) != nargs - 1:
            return fallback(a, *args, **kwargs)
        from . import _core
        return _core.lapack(code, _square_stack(a), *[_arr(b) for b in args])
    f.__name__ = f.__qualname__ = name
    f.__doc__ = "NumPy's linalg.%s of (a stack of) square matrices, on the device." % name
    return f


solve = _on_device(0, "solve", 2)
inv = _on_device(1, "inv", 1)
_cholesky = _on_device(2, "cholesky", 1)
det = _on_device(3, "det", 1)
_slogdet = _on_device(4, "slogdet", 1)
try:
    from numpy.linalg._linalg import SlogdetResult as _SlogdetResult
except ImportError:  # NumPy < 2
    from collections import namedtuple as _namedtuple
    _SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])


def slogdet(a):
    """Sign and natural log of the absolute determinant of (a stack of) square matrices, on the
    device: NumPy's SlogdetResult(sign, logabsdet)."""
    return _SlogdetResult(*_slogdet(a))


def cholesky(a, /, *, upper=False):
    """Cholesky factor L of a (stack of) symmetric positive-definite matrices (a = L @ L.T);
    upper=True gives U = L.T (a = U.T @ U) (conjugated for complex a: U = L^H). On the device."""
    r = _cholesky(a)
    if not upper:
        return r
    u = r.swapaxes(-1, -2)
    return u.conj() if u.dtype.kind == "c" else u


# ---- the Array API standard's linalg functions, on the device -------------------------------

def _ns():
    import numgpu
    return numgpu


def matmul(x1, x2, /):
    return _ns().matmul(x1, x2)


def matrix_transpose(x, /):
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is %d" % x.ndim)
    return x.swapaxes(-1, -2)


def diagonal(x, /, *, offset=0):
    """The `offset` diagonal of each matrix of x (a view, as NumPy's)."""
    return _ns().diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """Sum of the `offset` diagonal of each matrix of x (NumPy's sum dtypes)."""
    return _ns().trace(x, offset, -2, -1, dtype=dtype)


def outer(x1, x2, /):
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are x1.ndim=%d and x2.ndim=%d."
                         % (x1.ndim, x2.ndim))
    return _ns().outer(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    return _ns().tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    return _ns().vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along `axis` (other axes broadcast), as elementwise
    device ops on the three components."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         "%d and %d dimensional instead." % (x1.shape[axis], x2.shape[axis]))
    ns = _ns()
    a = [ns.moveaxis(x1, axis, -1)[..., i] for i in range(3)]
    b = [ns.moveaxis(x2, axis, -1)[..., i] for i in range(3)]
    c = ns.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]], axis=-1)
    return ns.moveaxis(c, -1, axis)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Norm of each matrix of x (norm over the last two axes)."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm over `axis` (None: all elements; a tuple: those axes as one vector)."""
    from numpy.lib.array_utils import normalize_axis_tuple
    x = _arr(x)
    shape = list(x.shape)
    if axis is None:
        r = norm(x.reshape(-1), ord=ord, axis=0)
        axes = range(x.ndim)
    elif not isinstance(axis, tuple):  # one axis: in place, as NumPy (float16 rounds in memory order)
        r = norm(x, ord=ord, axis=axis)
        axes = normalize_axis_tuple(axis, x.ndim)
    else:
        axes = normalize_axis_tuple(axis, x.ndim)
        # the reduced axes moved to the front and merged into one: one vector norm over axis 0
        rest = [i for i in range(x.ndim) if i not in axes]
        v = x.transpose(tuple(axes) + tuple(rest)).reshape(
            (_math.prod(shape[i] for i in axes),) + tuple(shape[i] for i in rest))
        r = norm(v, ord=ord, axis=0)
    if keepdims:
        for i in axes:
            shape[i] = 1
        r = r.reshape(tuple(shape))
    return r


def __getattr__(name):
    value = submodule_getattr("numpy.linalg", name)
    if not callable(value) or isinstance(value, type):
        return value

    def f(*args, **kwargs):
        return _scalars_up(value(*args, **kwargs))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = value.__doc__
    return f
