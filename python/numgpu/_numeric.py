"""NumPy's numerical helpers on device arrays (interpolation, binning, membership, covariance,
convolution, integration, differences, polynomials), as compositions of numgpu's device ops.

Each function is NumPy's own definition (numpy/lib/_function_base_impl.py, _arraysetops_impl.py,
_polynomial_impl.py, numpy/_core/numeric.py, and the C loops of compiled_base.c and multiarray's
correlate) written op for op over numgpu's ops; the data stays on the device, and only a
monotonicity flag, a bound or a length is read back where NumPy's control flow needs one.
"""
import warnings as _warnings

import numpy as _np

from . import _core, _manip, _small
from . import (absolute, argmax, argsort, asarray, clip, concatenate, conjugate, diag, empty, fft, isnan,
               ndarray, rint, searchsorted, sqrt, take, where, zeros)
from . import all as _all, any as _any, array as _array, max as _max, sum as _sum
from ._sorting import diff

__all__ = ["interp", "digitize", "isin", "cov", "corrcoef", "convolve", "correlate", "trapezoid", "gradient",
           "polyval", "ediff1d"]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _gather(a, index):
    """a[index] for indices known to be in range (no bounds check, so no read back)."""
    return take(a, index, mode="clip")


def _as_float64(a, ndim=None):
    """NumPy's PyArray_ContiguousFromAny(a, NPY_DOUBLE, ndim, ndim): a safe cast to float64, with
    its errors for complex data and for the wrong number of dimensions."""
    a = _arr(a)
    if ndim is not None and a.ndim != ndim:
        raise ValueError("object too deep for desired array" if a.ndim > ndim
                         else "object of too small depth for desired array")
    if a.dtype.kind == "c":
        raise TypeError("Cannot cast array data from %r to dtype('float64') according to the rule 'safe'"
                        % a.dtype)
    return a.astype(_np.float64, copy=False)


# ---- interpolation and binning -------------------------------------------------------------

def _interp_part(x, x0, x1, y0, y1, slope):
    """compiled_base.c's interpolation between (x0, y0) and (x1, y1): from the left sample, then
    from the right one where that gives NaN, then y0 where both do and y0 == y1."""
    res = slope * (x - x0) + y0
    res = where(isnan(res), slope * (x - x1) + y1, res)
    return where(isnan(res) & (y0 == y1), y0, res)


def interp(x, xp, fp, left=None, right=None, period=None):
    """NumPy's one-dimensional linear interpolation, its C loop's formula element for element (real
    fp: one kernel, ng_op_interp; complex fp: as below, op for op):
    fp[j] where x equals xp[j], slope*(x - xp[j]) + fp[j] between samples (retried from the right
    end where NaN), left/right outside, NaN for NaN. The interval is searchsorted's (the last of
    equal samples), where NumPy's search starts from the previous element's interval; complex
    slopes are always (dy.real * inv_dx, dy.imag * inv_dx), NumPy's form when len(xp) <= len(x)."""
    if _small.host(x, xp, fp, left, right, period):
        return _small.call(_np.interp, x, xp, fp, left, right, period)
    fp = _arr(fp)
    dtype = _np.complex128 if fp.dtype.kind == "c" else _np.float64
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp, fp = _as_float64(x), _as_float64(xp), fp.astype(dtype)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x, xp = x % period, xp % period
        order = argsort(xp, kind="stable")
        xp, fp = _gather(xp, order), _gather(fp, order)
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    x, xp = _as_float64(x), _as_float64(xp, 1)
    if fp.ndim != 1:
        raise ValueError("object too deep for desired array" if fp.ndim > 1
                         else "object of too small depth for desired array")
    fp = fp.astype(dtype, copy=False)
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    scalar = complex if dtype == _np.complex128 else float
    if dtype == _np.float64:   # one kernel: the search and the C loop's formula per element
        return _core.interp(x, xp, fp, None if left is None else float(left), None if right is None else float(right))
    first, last = fp[0:1].reshape(()), fp[n - 1:].reshape(())
    lval = first if left is None else scalar(left)
    rval = last if right is None else scalar(right)
    if n == 1:
        res = where(x < xp, lval, where(x > xp, rval, fp))
    else:
        j = searchsorted(xp, x, side="right") - 1
        jc = clip(j, 0, n - 2)
        x0, x1, y0, y1 = _gather(xp, jc), _gather(xp, jc + 1), _gather(fp, jc), _gather(fp, jc + 1)
        with _np.errstate(divide="ignore", invalid="ignore"):   # (NumPy's C loop reports none: repeated
            if dtype == _np.float64:                            # samples' slopes are replaced below)
                res = _interp_part(x, x0, x1, y0, y1, (y1 - y0) / (x1 - x0))
            else:
                inv_dx = 1.0 / (x1 - x0)
                res = empty(x.shape, dtype)
                for part, p0, p1 in ((res.real, y0.real, y1.real), (res.imag, y0.imag, y1.imag)):
                    part[...] = _interp_part(x, x0, x1, p0, p1, (p1 - p0) * inv_dx)
        res = where(x == x0, y0, res)
        res = where(j == n - 1, last, res)
        res = where(x < xp[0:1].reshape(()), lval, where(x > xp[n - 1:].reshape(()), rval, res))
    return where(isnan(x), x, res).astype(dtype, copy=False)


def _monotonicity(bins):
    """compiled_base.c's check_array_monotonic of bins as float64: 1 increasing (or all equal,
    or empty), -1 decreasing, 0 neither; the direction is set by the first value that differs
    from bins[0] (NaN included). One flag is read back."""
    b = _as_float64(bins, 1)
    if b.shape[0] < 2:
        return 1
    changed = b != b[0:1]
    up = b[0:1] < _gather(b, argmax(changed).reshape(1))
    flag = where(~_any(changed), 1, where(up, where(_any(b[:-1] > b[1:]), 0, 1),
                                           where(_any(b[:-1] < b[1:]), 0, -1)))
    return int(flag[0])


def digitize(x, bins, right=False):
    """Indices of the bins (increasing or decreasing) each value of x falls in, by searchsorted."""
    x, bins = _arr(x), _arr(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return len(bins) - searchsorted(bins[::-1], x, side=side)
    return searchsorted(bins, x, side=side)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Elementwise: element is in test_elements (NaN never is), of element's shape, in one C op
    (ng_op_isin): integer and bool inputs through a byte table over test_elements' range, as
    NumPy's 'table' kind (when NumPy's bounds allow, or asked for), anything else by a binary
    search in test_elements sorted; assume_unique changes nothing."""
    if kind not in (None, "sort", "table"):
        raise ValueError("Invalid kind: '{0}'. Please use None, 'sort' or 'table'.".format(kind))
    element, test = _arr(element), _arr(test_elements)
    return _core.isin(element, test, bool(invert), {None: 0, "sort": 1, "table": 2}[kind])


# ---- covariance ------------------------------------------------------------------------------

def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """The covariance matrix of the rows (variables) of m (and y), NumPy's estimate with its
    frequency and analytic weights; the weights' checks read one bool each."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _arr(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _arr(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(m.dtype, _np.float64) if y is None else _np.result_type(m.dtype, y.dtype,
                                                                                          _np.float64)
    X = _array(m, ndmin=2, dtype=dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return zeros((0, 0))
    if y is not None:
        y = _array(y, copy=None, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        fweights = asarray(fweights, dtype=_np.float64)
        if not bool(_all(fweights == rint(fweights))):
            raise TypeError("fweights must be integer")
        if fweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool(_any(fweights < 0)):
            raise ValueError("fweights cannot be negative")
        w = fweights
    if aweights is not None:
        aweights = asarray(aweights, dtype=_np.float64)
        if aweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool(_any(aweights < 0)):
            raise ValueError("aweights cannot be negative")
        w = aweights if w is None else w * aweights
    from . import average
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _sum(w * aweights) / w_sum
    if fact <= 0:
        _warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = (X - avg[:, None]).astype(X.dtype, copy=False)     # (NumPy's X -= avg)
    X_T = X.T if w is None else (X * w).T
    c = X @ X_T.conj()
    inv = 1 / fact if isinstance(fact, ndarray) else _np.true_divide(1, fact)   # (NumPy's: 1/0 warns, errstate)
    c = (c * inv).astype(c.dtype, copy=False)               # (NumPy's c *= 1 / fact)
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov normalised by the standard deviations, the real
    and imaginary parts clipped to [-1, 1] (NaN kept)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    stddev = sqrt(diag(c).real)
    c = c / stddev[:, None] / stddev[None, :]
    if c.dtype.kind != "c":
        return clip(c, -1, 1)
    c.real[...] = clip(c.real, -1, 1)
    c.imag[...] = clip(c.imag, -1, 1)
    return c


# ---- convolution -----------------------------------------------------------------------------

_MODES = {"valid": 0, "same": 1, "full": 2, 0: 0, 1: 1, 2: 2}
_DIRECT_MAX = 128   # a shorter operand: the direct sum (_core.correlate); longer: FFT (the direct sum is slower from ~200 on cpu)


def _mode(mode):
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError("mode must be one of 'valid', 'same', or 'full' (got %r)" % (mode,)) from None


def _operands(a, v):
    """array(a, ndmin=1), array(v, ndmin=1) as multiarray's correlate takes them: 1-d only."""
    a, v = _array(a, copy=None, ndmin=1), _array(v, copy=None, ndmin=1)
    if a.ndim > 1 or v.ndim > 1:
        raise ValueError("object too deep for desired array")
    return a, v


def _fft_exact(a, v, dtype):
    """An FFT gives the exact sum where the data are integers (bools) and every partial sum is
    well inside float64's integers: max|a| * sum|v| <= 2**40 (one bound read back)."""
    if dtype.kind not in "biu":
        return True
    a, v = a.astype(_np.float64), v.astype(_np.float64)
    return float(_max(absolute(a)) * _sum(absolute(v))) <= 2.0 ** 40


def _correlate_core(ap1, ap2, mode, dtype):
    """multiarray's _pyarray_correlate: out[i] = sum_n ap1[i + start + n - (len(ap2) - 1)] * ap2[n]
    for len(ap1) >= len(ap2), over the window of `mode` ('valid', 'same' with n//2 on the left,
    'full'), in `dtype` (float16 summed in float32, bools as NumPy's OR of ANDs)."""
    n1, n2 = ap1.shape[0], ap2.shape[0]
    start, length = ((n2 - 1, n1 - n2 + 1), (n2 - 1 - n2 // 2, n1), (0, n1 + n2 - 1))[mode]
    acc = _np.dtype(_np.float32 if dtype == _np.float16 else _np.int64 if dtype == _np.bool_ else dtype)
    if n2 <= _DIRECT_MAX or not _fft_exact(ap1, ap2, dtype):
        out = _core.correlate(_manip.pad(ap1, n2 - 1), ap2, start, length, acc)   # (zeros either side)
    else:
        size = 1 << (n1 + n2 - 2).bit_length()
        if dtype.kind == "c":
            full = fft.ifft(fft.fft(ap1.astype(_np.complex128), size) * fft.fft(ap2[::-1].astype(_np.complex128), size))
        else:
            full = fft.irfft(fft.rfft(ap1.astype(_np.float64), size) * fft.rfft(ap2[::-1].astype(_np.float64), size),
                             size)
        out = full[start:start + length]
        if dtype.kind in "biu":
            out = rint(out).astype(_np.int64)
    return out != 0 if dtype == _np.bool_ else out.astype(dtype, copy=False)


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-d sequences (NumPy's: the longer one first, the
    other reversed, correlated without conjugation)."""
    a, v = _operands(a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return _correlate_core(a, v[::-1], _mode(mode), _np.result_type(a.dtype, v.dtype))


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-d sequences, sum_n a[n + k] * conj(v[n]) (NumPy's correlate2:
    the shorter operand second, the result reversed where that swapped them)."""
    a, v = _operands(a, v)
    mode = _mode(mode)
    dtype = _np.result_type(a.dtype, v.dtype)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    if v.dtype.kind == "c":
        v = conjugate(v)
    if a.shape[0] < v.shape[0]:
        return _correlate_core(v, a, mode, dtype)[::-1]
    return _correlate_core(a, v, mode, dtype)


# ---- integration, differences, polynomials -----------------------------------------------------

def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along axis by the trapezoidal rule, at sample points x or spacing dx."""
    y = _arr(y)
    if x is None:
        d = dx
    else:
        x = _arr(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    slice1 = [slice(None)] * y.ndim
    slice2 = [slice(None)] * y.ndim
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    return (d * (y[tuple(slice1)] + y[tuple(slice2)]) / 2.0).sum(axis)


def _spacings(f, axes, varargs):
    """gradient's spacing per axis: a scalar, or the differences of 1-d coordinates (one scalar
    where they are uniform: one bool read back)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and _np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        if _np.ndim(distances) == 0:
            continue
        distances = _arr(distances)
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(distances) != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if distances.dtype.kind in "iu":
            distances = distances.astype(_np.float64)
        diffx = diff(distances)
        if bool(_all(diffx == diffx[0:1])):
            diffx = diffx[0]
        dx[i] = diffx
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of f by second-order central differences inside and first- or second-order
    one-sided differences at the ends, per axis (a tuple of arrays for several axes)."""
    f = _arr(f)
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, N)
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = empty(f.shape, otype)
        uniform = _np.ndim(ax_dx) == 0

        def at(i):
            s = [slice(None)] * N
            s[ax] = i
            return tuple(s)

        if uniform:
            out[at(slice(1, -1))] = (f[at(slice(2, None))] - f[at(slice(None, -2))]) / (2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[at(slice(1, -1))] = a * f[at(slice(None, -2))] + b * f[at(slice(1, -1))] + c * f[at(slice(2, None))]
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[at(0)] = (f[at(1)] - f[at(0)]) / dx_0
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[at(-1)] = (f[at(-1)] - f[at(-2)]) / dx_n
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[at(0)] = a * f[at(0)] + b * f[at(1)] + c * f[at(2)]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(-1)] = a * f[at(-3)] + b * f[at(-2)] + c * f[at(-1)]
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's rule."""
    p = _arr(p)
    x = _arr(x)
    y = zeros(x.shape, x.dtype)
    for pv in p:
        y = y * x + pv
    return y


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ary, with to_begin and to_end
    (cast to ary's dtype under 'same_kind', NumPy's TypeError else) around them."""
    ary = _arr(ary).ravel()
    if to_begin is None and to_end is None:
        return ary[1:] - ary[:-1]
    parts = []
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            continue
        extra = _arr(extra)
        if not _np.can_cast(extra.dtype, ary.dtype, casting="same_kind"):
            raise TypeError("dtype of `%s` must be compatible with input `ary` under the `same_kind` rule." % name)
        parts.append(extra.ravel().astype(ary.dtype, copy=False))
    middle = (ary[1:] - ary[:-1]).astype(ary.dtype, copy=False)
    if to_begin is None:
        return concatenate((middle, parts[0]))
    return concatenate([parts[0], middle] + parts[1:])
