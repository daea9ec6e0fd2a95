"""NumPy's bit packing (packbits, unpackbits, bitwise_count), the vector-matrix ufuncs matvec and
vecmat, the polynomial helpers polyfit, polydiv and roots, and asarray_chkfinite, rollaxis and
isfortran, as compositions of numgpu's device ops.

Written from NumPy's documented behaviour (results, dtypes, shapes and error types are NumPy's).
packbits and unpackbits are kernels of their own along the last axis (src/ops/bits.c: the axis
moved last here, count applied to the result); the devices are little-endian. (bitwise_count is a
ufunc of its own: NG_OP_BITWISE_COUNT.)

Two pieces run on NumPy through the fallback (counted and warned about as any other): roots needs
the eigenvalues of the companion matrix (numgpu.linalg.eigvals), and polyfit the singular values
of the small R factor of its (deg+1)-column least-squares problem (numgpu.linalg.svd). polyfit's
N-row part (Vandermonde matrix, scaling, Householder QR, residuals) stays on the device: only the
(deg+1) x (deg+1) triangle is read back. Its least-squares solution is NumPy's minimum-norm one
with NumPy's rank cutoff, from a different factorisation: it agrees with NumPy's to rounding, not
to the bit.
"""
import operator as _operator
import warnings as _warnings

import numpy as _np
from numpy.exceptions import AxisError as _AxisError, RankWarning as _RankWarning
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from . import _core, _ufunc, ndarray
from . import (absolute, argmax, asarray, atleast_1d, concatenate, diag, flatnonzero, isfinite, matmul,
               moveaxis, ones, outer, sqrt, vander, where, zeros)
from ._mathx import _into, _loop, _no_poly1d

__all__ = [
    "packbits", "unpackbits", "matvec", "vecmat", "polyfit", "polydiv", "roots",
    "asarray_chkfinite", "rollaxis", "isfortran",
]

_LITTLE = _np.little_endian   # the device's byte order is the host's (x86, the GPUs: little)


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


# ---- packbits / unpackbits ---------------------------------------------------------------------

def _bitorder(bitorder, func, argno, prefixes, msg):
    """True for 'little', False for 'big', with NumPy's errors: a str is required (TypeError), and
    it must begin as one of `prefixes` says (ValueError)."""
    if not isinstance(bitorder, str):
        raise TypeError("%s() argument %d must be str, not %s" % (func, argno, type(bitorder).__name__))
    if "\0" in bitorder:
        raise ValueError("embedded null character")
    if bitorder.startswith(prefixes[0]):
        return False
    if bitorder.startswith(prefixes[1]):
        return True
    raise ValueError(msg)


def _bit_axis(a, axis):
    """a flattened (axis None) or a with `axis` moved last (a 0-d array counts as 1-d), and the
    axis the result puts back; NumPy's TypeError for a non-integer axis, AxisError out of range."""
    if axis is None:
        return a.reshape(-1), 0
    if isinstance(axis, bool) or not isinstance(axis, (int, _np.integer)):
        raise TypeError("an integer is required for the axis")
    if a.ndim == 0:
        a = a.reshape(1)
    axis = _normalize_axis_index(int(axis), a.ndim)
    return moveaxis(a, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    """The elements of an integer or bool array as bits (nonzero: 1), eight to a uint8, along
    axis (None: the flattened array); the last byte padded with zero bits. bitorder 'big' puts
    the first element in the most significant bit, 'little' in the least (NumPy takes any string
    beginning 'big' or 'little')."""
    little = _bitorder(bitorder, "pack", 3, ("big", "little"), "'order' must be either 'little' or 'big'")
    a = _arr(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    b, axis = _bit_axis(a, axis)
    if not _LITTLE:
        raise NotImplementedError("packbits on a big-endian host")
    r = _core.packbits(b, little)
    return r if axis == r.ndim - 1 else moveaxis(r, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 array as 0/1 uint8 elements along axis (None: the flattened array),
    eight per byte; count keeps the first count bits (zeros after the last byte where count is
    larger), a negative count drops -count bits from the end. bitorder as packbits' (NumPy takes
    any string beginning 'b' or 'l')."""
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, _np.integer))):
        raise TypeError("an integer is required for the axis")
    if count is not None:
        if isinstance(count, bool):
            raise TypeError("an integer is required")
        count = _operator.index(count)
        if not -2 ** 63 <= count < 2 ** 63:
            raise OverflowError("Python int too large to convert to C long")
    little = _bitorder(bitorder, "unpack", 4, ("b", "l"), "'order' must begin with 'l' or 'b'")
    a = _arr(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    b, axis = _bit_axis(a, axis)
    lead, total = b.shape[:-1], 8 * b.shape[-1]
    if count is None:
        keep = total
    elif count >= 0:
        keep = count
    elif -count > total:
        raise ValueError("-count larger than number of elements")
    else:
        keep = total + count
    if b.size == 0 or keep == 0:
        return moveaxis(zeros(lead + (keep,), _np.uint8), -1, axis)
    if not _LITTLE:
        raise NotImplementedError("unpackbits on a big-endian host")
    bits = _core.unpackbits(b, little)                 # (lead, total): one kernel, a word per byte
    if keep < total:
        bits = bits[..., :keep]
    elif keep > total:
        full = zeros(lead + (keep,), _np.uint8)
        full[..., :total] = bits
        bits = full
    return bits if axis == bits.ndim - 1 else moveaxis(bits, -1, axis)




# ---- matvec / vecmat (gufuncs) -----------------------------------------------------------------

def _core_dims(name, sig, operand, a, need):
    if a.ndim < need:
        raise ValueError("%s: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                         "signature %s requires %d)" % (name, operand, a.ndim, sig, need))


def _mismatch(name, sig, operand, dim, got, want):
    raise ValueError("%s: Input operand %d has a mismatch in its core dimension %d, with gufunc signature "
                     "%s (size %d is different from %d)" % (name, operand, dim, sig, got, want))


def _vector_operands(uf, x1, x2, nd1, nd2, axis2):
    """x1 and x2 in the dtypes of NumPy's loop of the gufunc uf, and the result's dtype, with
    NumPy's errors: nd1 and nd2 core axes, x1's last axis as long as x2's axis2."""
    name, sig = uf.__name__, uf.signature
    d1, d2, dr = _loop(uf, x1, x2)
    a, b = asarray(x1, dtype=d1), asarray(x2, dtype=d2)
    _core_dims(name, sig, 0, a, nd1)
    _core_dims(name, sig, 1, b, nd2)
    if a.shape[-1] != b.shape[axis2]:
        _mismatch(name, sig, 1, 0, b.shape[axis2], a.shape[-1])
    return a, b, dr


def _matvec_call(x1, x2, /, out=None):
    """Matrix-vector products over the last two axes of x1 and the last of x2, the other axes
    broadcast: sum_j x1[..., i, j] * x2[..., j] (numgpu's matmul)."""
    a, b, dr = _vector_operands(_np.matvec, x1, x2, 2, 1, -1)
    r = matmul(a, b[..., None])[..., 0]
    return _into("matvec", out, (r if r.dtype == dr else r.astype(dr),))


def _vecmat_call(x1, x2, /, out=None):
    """Vector-matrix products over the last axis of x1 and the last two of x2, the other axes
    broadcast: sum_i conj(x1[..., i]) * x2[..., i, j] (numgpu's matmul)."""
    a, b, dr = _vector_operands(_np.vecmat, x1, x2, 1, 2, -2)
    if a.dtype.kind == "c":
        a = a.conj()
    r = matmul(a[..., None, :], b)[..., 0, :]
    return _into("vecmat", out, (r if r.dtype == dr else r.astype(dr),))


matvec = _ufunc.host(_np.matvec, _matvec_call)
vecmat = _ufunc.host(_np.vecmat, _vecmat_call)


# ---- polynomials ---------------------------------------------------------------------------------

def _lstsq(a, b, rcond):
    """NumPy's linalg.lstsq(a, b, rcond) for a 2-d a: (x, residuals, rank, s). Computed in float64
    or complex128 (NumPy's computation type) and returned in NumPy's result dtype: a Householder
    QR of [a | b] on the device, then the minimum-norm solution of the small triangular system
    from its SVD (numgpu.linalg.svd: NumPy's, through the fallback), singular values at or below
    rcond * the largest cut off as NumPy's gelsd does."""
    from . import linalg
    for t in (a, b):
        if t.dtype.kind not in "fc" or t.dtype == _np.float16:
            raise TypeError("array type %s is unsupported in linalg" % t.dtype.name)
    complex_ = a.dtype.kind == "c" or b.dtype.kind == "c"
    rdt = _np.result_type(a.dtype, b.dtype)          # (single stays single)
    work = _np.dtype(complex if complex_ else float)
    real = _np.dtype(rdt.char.lower())
    one = b.ndim == 1
    A = a.astype(work)
    B = (b[:, None] if one else b).astype(work)
    M, N = A.shape
    K = B.shape[1]
    p = min(M, N)
    if K <= N:                       # one factorisation of [A | B]: R's top rows and Q^H B
        R = linalg.qr(concatenate((A, B), axis=1), mode="r")
        c = R[:p, N:]
    else:                            # many right-hand sides: Q^H B by a product
        Q, R = linalg.qr(A)
        c = matmul(Q.conj().T, B)[:p]
    U, s, Vh = linalg.svd(R[:p, :N], full_matrices=False)
    if rcond is None or rcond < 0:
        rcond = _np.finfo(work).eps
    s_host = s.get()
    rank = int((s_host > rcond * s_host[0]).sum()) if p else 0
    inv = where(s > rcond * s_host[0], 1 / s, 0).astype(s.dtype) if p else s
    x = matmul(Vh.conj().T, inv[:, None] * matmul(U.conj().T, c))
    if rank == N and M > N:
        d = B - matmul(A, x)
        res = ((d.real * d.real + d.imag * d.imag) if complex_ else d * d).sum(axis=0)
    else:
        res = zeros(0, work.char.lower())
    if one:
        x = x[:, 0]
    return x.astype(rdt), res.astype(real), rank, s.astype(real)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial of degree deg through (x, y), coefficients highest power
    first (y 2-d: one fit per column), as NumPy's: the Vandermonde matrix (weighted by w), its
    columns scaled to unit norm, rcond defaulting to len(x) * eps, a RankWarning when the scaled
    matrix is rank deficient (not with full=True). full=True: (coefficients, residuals, rank,
    singular values, rcond); cov: also the covariance of the coefficients ('unscaled': without
    the residual factor). See _lstsq for the solve."""
    from . import linalg
    order = int(deg) + 1
    x = _arr(x) + 0.0
    y = _arr(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * _np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = _arr(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]                        # (in place, as NumPy's: same_kind casting)
        rhs *= w[:, None] if rhs.ndim == 2 else w
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = _lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        _warnings.warn("Polyfit may be poorly conditioned", _RankWarning, stacklevel=2)
    if full:
        rc = asarray(rcond) if isinstance(rcond, _np.generic) else rcond
        return c, resids, asarray(_np.int32(rank)), s, rc
    if cov:
        vbase = linalg.inv(matmul(lhs.T, lhs))
        vbase /= outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (len(x) - order)
        return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)
    return c


def polydiv(u, v):
    """Quotient and remainder of polynomial u divided by v (coefficients highest power first):
    NumPy's long division, step by step in its order (multiplying by 1/v[0]), so the same
    numbers; the remainder's leading coefficients within 1e-8 of zero dropped (one kept)."""
    _no_poly1d(u, v)
    u = atleast_1d(u) + 0.0
    v = atleast_1d(v) + 0.0
    if len(u) == 0 or len(v) == 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    dt = _np.result_type(u.dtype, v.dtype)
    m, n = len(u) - 1, len(v) - 1
    scale = 1.0 / v[0:1]                          # (in v's dtype, as NumPy's scalar division)
    q = zeros((max(m - n + 1, 1),), dt)
    r = u.astype(dt)
    for k in range(m - n + 1):
        d = scale * r[k:k + 1]
        q[k:k + 1] = d
        r[k:k + n + 1] -= d * v
    # NumPy's allclose(r[0], 0, rtol=1e-14): |r[0]| <= 1e-8, in float64 (complex: its modulus)
    wide = r.astype(complex if dt.kind == "c" else float)
    keep = ~(absolute(wide) <= 1e-8)
    keep[-1:] = True
    return q, r[int(argmax(keep)):]


def roots(p):
    """The roots of polynomial p (coefficients highest power first): the eigenvalues of its
    companion matrix (numgpu.linalg.eigvals: NumPy's, through the fallback), leading zeros
    dropped, one zero root per trailing zero; an all-zero p has none (float64)."""
    from . import linalg
    if _np.ndim(p) == 0:              # (NumPy's dispatcher iterates p)
        raise TypeError("dispatcher for __array_function__ did not return an iterable")
    p = atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = flatnonzero(p)
    if len(nz) == 0:
        return zeros(0, float)
    first, last = (int(i) for i in nz[[0, -1]].get())
    trailing = len(p) - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(float)
    n = len(p)
    if n > 1:
        comp = diag(ones(n - 2, p.dtype), -1)
        comp[0, :] = -p[1:] / p[0]
        r = _arr(linalg.eigvals(comp))
    else:
        r = zeros(0, float)
    return concatenate((r, zeros(trailing, r.dtype))) if trailing else r


# ---- array checks and axes -------------------------------------------------------------------------

def asarray_chkfinite(a, dtype=None, order=None):
    """asarray(a, dtype, order), with NumPy's ValueError where a float or complex result holds an
    inf or a NaN (one bool read back)."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc" and not bool(isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


def rollaxis(a, axis, start=0):
    """a view of a with `axis` moved to stand before position `start` (the other axes in order);
    start may be n (the end) or negative. A list has no ndim: NumPy's AttributeError."""
    n = a.ndim
    if not isinstance(a, ndarray):
        a = asarray(a)
    axis = _normalize_axis_index(axis, n)
    if start < 0:
        start += n
    if not 0 <= start <= n:
        raise _AxisError("'start' arg requires %d <= start < %d, but %d was passed in" % (-n, n + 1, start))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    rest = [i for i in range(n) if i != axis]
    return a.transpose(rest[:start] + [axis] + rest[start:])


def isfortran(a):
    """True if a is Fortran-contiguous and not also C-contiguous (NumPy's flags.fnc)."""
    return bool(a.flags.fnc)
