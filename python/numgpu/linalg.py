"""numgpu.linalg: NumPy's linalg on device arrays.

What runs where (cpu: the cpu device; other: opencl and cuda):

- norm (every order; 2, -2 and 'nuc' of matrices from svdvals), matrix_power (repeated squaring by
  matmul, n < 0 through inv, integers stay integers), multi_dot (NumPy's cheapest chain order),
  matrix_transpose, diagonal, trace, outer, tensordot, vecdot, matmul, cross, matrix_norm,
  vector_norm: device ops on every device.
- solve, inv, det, slogdet, cholesky, qr (modes 'reduced', 'complete', 'r'): stacks of float32,
  float64, complex64 and complex128 matrices (integers and bool in float64, as NumPy) on every
  device: generated LU, Cholesky and Householder kernels (src/ops/lapack.c), or the device's
  vendor LAPACK for one float32/float64 matrix where it has one (the host's on cpu, cuSOLVER on
  cuda, loaded at run time).
- eigh, eigvalsh (syevd/heevd), svd, svdvals (gesdd), eig, eigvals (geev), lstsq (gelsd): on cpu,
  NumPy's own LAPACK calls through the host library NumPy brings (NgBackend.decomp), a call per
  matrix of a stack, computed in float64/complex128 and returned in the input's precision exactly
  as NumPy does (so NumPy's bits, its eigenvalue order, eig's real results for a real spectrum,
  lstsq's residual rules and its LinAlgError where LAPACK fails).
  On opencl and cuda, eigh/eigvalsh and svd/svdvals of every dtype run on the device as generated
  Jacobi kernels (src/ops/jacobi.c: cyclic Jacobi, one-sided Jacobi), a work item per matrix of
  a stack, also computed in double and returned in the input's precision (eigenvalues ascending,
  singular values descending; vectors' signs and phases, and the completion of a full U/Vh, are
  not LAPACK's), for matrices up to min(m, n)^2 max(m, n) = 256^3; on cuda a few float32/float64
  matrices of 64+ rows and columns (and larger ones) go to cuSOLVER's syevd/gesvd, a call per
  matrix, where the library has them. eig, eigvals, lstsq, and eigh/svd past those sizes, run on NumPy there
  through the fallback contract (operands downloaded, NumPy computes, results uploaded, the call
  counted).
- pinv, matrix_rank, cond (p None/2/-2 from svdvals; other p from norm and inv), and svd(
  hermitian=True) (from eigh): compositions of the above, on the device where svd/eigh are, with
  NumPy 2's tolerances (pinv rcond 1e-15 or rtol; matrix_rank max(M, N) * eps * s_max).
- qr(mode='raw') and anything else NumPy's linalg has (found by the module __getattr__): NumPy.

A singular, non-positive-definite or non-converging matrix raises NumPy's LinAlgError either way.
The Array API standard's linalg extension is here with NumPy 2's signatures (the standard's
keywords plus NumPy's own: qr(mode=), svd(full_matrices=, compute_uv=, hermitian=),
matrix_rank(tol=, rtol=), pinv(rcond=, rtol=), cholesky(upper=)).
"""
import math as _math

import numpy as _np
from numpy.linalg import LinAlgError

from . import ndarray, float64, sqrt, absolute, power
from ._array_api import asarray
from . import sum as _sum, max as _max, min as _min
from ._fallback import call_numpy, submodule_getattr

__all__ = ["LinAlgError", "norm", "solve", "inv", "det", "slogdet", "cholesky", "qr", "eigh", "eigvalsh",
           "svd", "svdvals", "lstsq", "matrix_rank", "pinv", "matrix_power", "multi_dot", "eig", "eigvals", "cond", "matmul", "matrix_transpose",
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
            return _arr(r).reshape((1,) * nd) if keepdims else r  # (r: NumPy's scalar under scalars="numpy")
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
        if ord in (2, -2, "nuc"):  # singular values of each matrix (svdvals on the device)
            s = svdvals(_ns().moveaxis(x, (row, col), (-2, -1)))
            r = _max(s, axis=-1) if ord == 2 else _min(s, axis=-1) if ord == -2 else _sum(s, axis=-1)
        elif ord in (1, -1):
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
            r = _arr(r).reshape(shape)
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


def matrix_power(a, n):
    """NumPy's linalg.matrix_power of (a stack of) square matrices on the device: repeated squaring
    by matmul (integer matrices stay integer, wrapping as NumPy's); n < 0 through inv; n == 0 the
    identity in a's dtype."""
    import operator
    a = _square_stack(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    ns = _ns()
    if n == 0:
        return ns.broadcast_to(ns.eye(a.shape[-2], dtype=a.dtype), a.shape).copy()
    if n < 0:
        a, n = inv(a), -n
    if n == 1:
        return a
    if n == 2:
        return ns.matmul(a, a)
    if n == 3:
        return ns.matmul(ns.matmul(a, a), a)
    z = result = None  # a^(2^i) for the bits of n, low to high, as NumPy multiplies them
    while n > 0:
        z = a if z is None else ns.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else ns.matmul(result, z)
    return result


def _chain_order(shapes):
    """NumPy's optimal parenthesisation of a chain of matrix products (Cormen 15.2): s[i][j] is
    where A_i..A_j splits; the same costs and ties as NumPy's _multi_dot_matrix_chain_order."""
    n = len(shapes)
    p = [r for r, _ in shapes] + [shapes[-1][1]]
    m = [[0.0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = _math.inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + float(p[i] * p[k + 1] * p[j + 1])
                if q < m[i][j]:
                    m[i][j], s[i][j] = q, k
    return s


def multi_dot(arrays, *, out=None):
    """NumPy's linalg.multi_dot on the device: the products in NumPy's cheapest order (a 1-D first
    array is a row, a 1-D last one a column, and the result loses those axes as NumPy's)."""
    ns = _ns()
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return ns.dot(arrays[0], arrays[1], out=out)
    arrays = [_arr(a) for a in arrays]
    nd_first, nd_last = arrays[0].ndim, arrays[-1].ndim
    if nd_first == 1:
        arrays[0] = arrays[0].reshape(1, -1)
    if nd_last == 1:
        arrays[-1] = arrays[-1].reshape(-1, 1)
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError("%d-dimensional array given. Array must be two-dimensional" % a.ndim)
    dot = ns.dot
    if n == 3:
        (a0, a1b0), (b1c0, c1) = arrays[0].shape, arrays[2].shape
        if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
            result = dot(dot(arrays[0], arrays[1]), arrays[2], out=out)
        else:
            result = dot(arrays[0], dot(arrays[1], arrays[2]), out=out)
    else:
        order = _chain_order([a.shape for a in arrays])

        def chain(i, j, out=None):
            if i == j:
                return arrays[i]
            return dot(chain(i, order[i][j]), chain(order[i][j] + 1, j), out=out)
        result = chain(0, n - 1, out=out)
    if nd_first == 1 and nd_last == 1:
        return result.reshape(())   # (a 0-d array: numgpu's stand-in for NumPy's scalar)
    if nd_first == 1 or nd_last == 1:
        return result.ravel()
    return result


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


try:
    from numpy.linalg._linalg import EighResult as _EighResult, EigResult as _EigResult, SVDResult as _SVDResult
except ImportError:  # NumPy < 2
    from collections import namedtuple as _namedtuple
    _EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
    _EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
    _SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])


def _decomp(name, numpy_args, op, a, arg, *rest):
    """The op on the device (_core.decomp: the vendor LAPACK, or for eigh/svd the Jacobi kernels);
    where the device has neither for it (eig, lstsq on opencl/cuda; matrices past the kernels'
    size), NumPy's linalg.<name>(*numpy_args) through the fallback (counted)."""
    from . import _core
    try:
        return _core.decomp(op, a, arg, *rest)
    except NotImplementedError:
        return _call(name, getattr(_np.linalg, name), *numpy_args)


def _uplo(UPLO):
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return 2 if UPLO == "U" else 0


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of (a stack of) real symmetric or complex
    Hermitian matrices, from the lower (UPLO='L') or upper triangle: LAPACK's syevd/heevd per
    matrix on the cpu device; the Jacobi kernels (or cuSOLVER for one large matrix) elsewhere."""
    a = _square_stack(a)
    r = _decomp("eigh", (a, UPLO), 0, a, 1 | _uplo(UPLO))
    return r if isinstance(r, _EighResult) else _EighResult(*r)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of (a stack of) symmetric/Hermitian matrices (syevd/heevd, as eigh)."""
    a = _square_stack(a)
    return _decomp("eigvalsh", (a, UPLO), 0, a, _uplo(UPLO))


def _finite(a):
    if a.size and not bool(_ns().isfinite(a).all()):
        raise LinAlgError("Array must not contain infs or NaNs")


def _real_if_real(a, w, v=None):
    """NumPy's rule for eig of a real matrix: real results when every eigenvalue is real."""
    if a.dtype.kind == "c" or (w.size and bool((w.imag != 0).any())):
        return w, v
    return w.real.copy(), (None if v is None else v.real.copy())


def eig(a):
    """Eigenvalues and right eigenvectors (unit columns) of (a stack of) square matrices: LAPACK's
    geev per matrix on the cpu device (NumPy's fallback elsewhere); complex results, real (the
    input's precision) when a is real and every eigenvalue is real, as NumPy's."""
    a = _square_stack(a)
    _finite(a)
    r = _decomp("eig", (a,), 2, a, 1)
    if isinstance(r, _EigResult):
        return r
    return _EigResult(*_real_if_real(a, *r))


def eigvals(a):
    """Eigenvalues of (a stack of) square matrices (geev, as eig)."""
    a = _square_stack(a)
    _finite(a)
    w = _decomp("eigvals", (a,), 2, a, 0)
    return w if w.dtype.kind != "c" else _real_if_real(a, w)[0]


def _stack2d(a):
    a = _arr(a)
    if a.ndim < 2:
        raise LinAlgError("%d-dimensional array given. Array must be at least two-dimensional" % a.ndim)
    return a


def _svd_hermitian(a, compute_uv):
    """NumPy's svd(hermitian=True): from eigh, singular values |w| sorted descending, their signs
    moved into Vh."""
    ns = _ns()
    if not compute_uv:
        s = absolute(eigvalsh(a))
        return ns.sort(s, axis=-1)[..., ::-1]
    s, u = eigh(a)
    sgn = ns.copysign(ns.asarray(1.0, dtype=s.dtype), s)
    s = absolute(s)
    sidx = ns.argsort(s, axis=-1)[..., ::-1]
    sgn = ns.take_along_axis(sgn, sidx, axis=-1)
    s = ns.take_along_axis(s, sidx, axis=-1)
    u = ns.take_along_axis(u, sidx[..., None, :], axis=-1)
    vt = (u * sgn[..., None, :]).swapaxes(-1, -2).conj()
    return _SVDResult(u, s, vt)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """NumPy's linalg.svd of (a stack of) matrices: LAPACK's gesdd per matrix on the cpu device
    (jobz 'A', 'S' or 'N' as NumPy asks it), the one-sided Jacobi kernels (or cuSOLVER's gesvd for
    one large matrix) elsewhere; hermitian=True through eigh, as NumPy's."""
    a = _arr(a)
    if hermitian:
        return _svd_hermitian(a, compute_uv)
    a = _stack2d(a)
    if not compute_uv:
        return _decomp("svd", (a, full_matrices, False), 1, a, 0)
    r = _decomp("svd", (a, full_matrices, True), 1, a, 2 if full_matrices else 1)
    return r if isinstance(r, _SVDResult) else _SVDResult(*r)


def svdvals(x, /):
    """Singular values of (a stack of) matrices, descending (gesdd without vectors, as svd)."""
    x = _stack2d(x)
    return _decomp("svdvals", (x,), 1, x, 0)


def _eps(dtype):
    return float(_np.finfo(dtype).eps)


def lstsq(a, b, rcond=None):
    """NumPy's linalg.lstsq: (x, residuals, rank, s) of one matrix a and b (a vector or a matrix of
    right-hand sides) by LAPACK's gelsd on the cpu device, NumPy's fallback elsewhere; residuals
    only when m > n and a has full rank, rcond=None is eps * max(m, n) as NumPy's."""
    a, b = _arr(a), _arr(b)
    ns = _ns()
    is_1d = b.ndim == 1
    if is_1d:
        b = b[:, None]
    for x in (a, b):
        if x.ndim != 2:
            raise LinAlgError("%d-dimensional array given. Array must be two-dimensional" % x.ndim)
    m, n = a.shape
    m2, n_rhs = b.shape
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = _eps(_np.float64) * max(n, m)
    bb = ns.zeros((m, 1), dtype=b.dtype) if n_rhs == 0 else b
    from . import _core
    try:
        x, resids, rank, s = _core.decomp(3, a, bb, float(rcond))
    except NotImplementedError:
        return _call("lstsq", _np.linalg.lstsq, a, b[:, 0] if is_1d else b, rcond)
    if m * n == 0 and m > n:  # gelsd is not called: |b|^2 per column (NumPy's residuals of x = 0)
        resids = _sum(_abs2(bb), axis=0).astype(resids.dtype)
    if n_rhs == 0:
        x, resids = x[:, :0], resids[:0]
    if is_1d:
        x = x[:, 0]
    if rank != n or m <= n:
        resids = ns.empty((0,), dtype=resids.dtype)
    return x, resids, asarray(_np.int32(rank)), s


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """NumPy's linalg.matrix_rank: singular values above tol (default: the largest times rtol,
    rtol's default max(M, N) * eps) counted, from svdvals on the device."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    ns = _ns()
    A = _arr(A)
    if A.ndim < 2:
        return int(not bool((A == 0).all()))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _eps(S.dtype)
        else:
            rtol = _arr(rtol)[..., None]
        tol = _max(S, axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = _arr(tol)[..., None]
    return ns.count_nonzero(S > tol, axis=-1)


def pinv(a, rcond=None, hermitian=False, *, rtol=_np._NoValue):
    """NumPy's linalg.pinv: V diag(1/s) U^H from the reduced svd on the device, singular values at
    or below rcond times the largest dropped (rcond's default 1e-15; rtol=None: max(M, N) * eps)."""
    ns = _ns()
    a = _arr(a)
    if rcond is None:
        if rtol is _np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _eps(a.dtype)
        else:
            rcond = rtol
    elif rtol is not _np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    rcond = _arr(rcond)
    if a.ndim >= 2 and 0 in a.shape[-2:]:
        m, n = a.shape[-2:]
        return ns.empty(a.shape[:-2] + (n, m), dtype=a.dtype)
    u, s, vt = svd(a.conj(), full_matrices=False, hermitian=hermitian)
    cutoff = rcond[..., None] * _max(s, axis=-1, keepdims=True)
    large = s > cutoff
    s = ns.where(large, 1 / ns.where(large, s, 1), 0).astype(s.dtype)
    return ns.matmul(vt.swapaxes(-1, -2), s[..., None] * u.swapaxes(-1, -2))


def cond(x, p=None):
    """NumPy's linalg.cond: s_max / s_min from svdvals on the device (p None, 2, -2), or
    norm(x, p) * norm(inv(x), p) (singular matrices: inf) for the other orders; NaN results
    become inf unless x holds a NaN, as NumPy's."""
    ns = _ns()
    x = _arr(x)
    if x.ndim >= 2 and 0 in x.shape[-2:]:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        with _np.errstate(all="ignore"):
            r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        x = _square_stack(x)
        try:
            invx = inv(x)
        except LinAlgError:  # NumPy's inv with errors ignored: NaN for a singular matrix, so inf
            invx = ns.stack([_inv_or_nan(m) for m in x.reshape((-1,) + x.shape[-2:])]).reshape(x.shape)
        r = norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))
    nan_mask = ns.isnan(r)
    if bool(nan_mask.any()):
        nan_mask &= ~ns.isnan(x).any(axis=(-2, -1))
        r = ns.where(nan_mask, _np.inf, r).astype(r.dtype)
    return r


def _inv_or_nan(m):
    try:
        return inv(m)
    except LinAlgError:
        return _ns().full(m.shape, _np.nan, dtype=m.dtype if m.dtype.kind in "fc" else _np.float64)


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


_served = {}    # name -> the function __getattr__ gave for it (the same each time: pickle finds it)


def __getattr__(name):
    f = _served.get(name)
    if f is not None:
        return f
    value = submodule_getattr("numpy.linalg", name)
    if not callable(value) or isinstance(value, type):
        return value

    def f(*args, **kwargs):
        return _scalars_up(value(*args, **kwargs))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = value.__doc__
    _served[name] = f
    return f
