"""NumPy's remaining math helpers on device arrays (cross, unwrap, modf, frexp, spacing, i0,
window functions, histogram2d/dd, piecewise, polynomial arithmetic), as compositions of numgpu's
device ops.

Each function is NumPy's own definition (numpy/_core/numeric.py, numpy/lib/_function_base_impl.py,
_twodim_base_impl.py, _histograms_impl.py, _polynomial_impl.py) op for op over numgpu's ops. The
C ufuncs modf and spacing are built from exact steps (truncation, nextafter), so their results are
NumPy's to the bit; frexp is two device ops (NG_OP_FREXP, NG_OP_FREXP_EXPONENT: the mantissa and
the exponent, read from the bits), ldexp a device ufunc of its own (NG_OP_LDEXP). The data
stays on the device: only shapes, bounds and flags are read back. polyfit is not here: it needs
linalg.lstsq, which runs on NumPy; poly of a square matrix needs eigvals and falls back.
"""
import builtins as _builtins
import collections.abc as _abc
import math as _math
import operator as _operator
import warnings as _warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from . import _core, _small, _ufunc, ndarray
from . import (absolute, all as _all, any as _any, arange, asarray, atleast_1d, atleast_2d, bincount, clip,
               concatenate, convolve, copysign, cos, empty, exp, floor, isfinite, isinf, log2, moveaxis, nextafter,
               ones, remainder, searchsorted, sort, sqrt, square, stack, take, trim_zeros, trunc, where, zeros,
               zeros_like)
from ._sorting import _outer_edges, diff

__all__ = [
    "cross", "unwrap", "modf", "frexp", "spacing", "i0", "hanning", "hamming", "blackman", "bartlett",
    "kaiser", "histogram2d", "histogramdd", "piecewise", "poly", "polyadd", "polysub", "polymul", "polyder",
    "polyint",
]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _stacked(seq):
    """A sequence (of arrays, lists or numbers) as one device array, stacked on the device (asarray
    of a list holding device arrays would download them)."""
    return stack([_arr(s) for s in seq]) if isinstance(seq, (list, tuple)) else _arr(seq)


# ---- vectors and phases -------------------------------------------------------------------------

def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross products of the 2- or 3-vectors along axisa of a and axisb of b (other axes broadcast),
    along axisc of the result; two 2-vectors give the z component alone. NumPy 2 deprecates
    2-vectors (a DeprecationWarning)."""
    if _small.host(a, b):
        return _small.call(_np.cross, a, b, axisa, axisb, axisc, axis)
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = _arr(a), _arr(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, _normalize_axis_index(axisa, a.ndim, msg_prefix="axisa"), -1)
    b = moveaxis(b, _normalize_axis_index(axisb, b.ndim, msg_prefix="axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        _warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                       "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    shape = _np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    if a.shape[-1] == 3 or b.shape[-1] == 3:
        shape += (3,)
        axisc = _normalize_axis_index(axisc, len(shape), msg_prefix="axisc")
    dtype = _np.promote_types(a.dtype, b.dtype)
    cp = empty(shape, dtype)
    a, b = a.astype(dtype), b.astype(dtype)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., -1]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., -1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        cp[...] = a0 * b1
        cp -= a1 * b0
        return cp
    cp0, cp1, cp2 = cp[..., 0], cp[..., 1], cp[..., 2]
    if a.shape[-1] == 2:            # a2 = 0
        cp0[...] = a1 * b2
        cp1[...] = -(a0 * b2)
    elif b.shape[-1] == 2:          # b2 = 0
        cp0[...] = -(a2 * b1)
        cp1[...] = a2 * b0
    else:
        cp0[...] = a1 * b2
        cp0 -= a2 * b1
        cp1[...] = a2 * b0
        cp1 -= a0 * b2
    cp2[...] = a0 * b1
    cp2 -= a1 * b0
    return moveaxis(cp, -1, axisc)


def unwrap(p, discont=None, axis=-1, *, period=2 * _math.pi):
    """p with each jump along axis larger than discont (default period / 2) replaced by its
    complement modulo period: the differences wrapped into [-period/2, period/2], the corrections
    summed along axis."""
    p = _arr(p)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * p.ndim
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = _np.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:     # a jump of exactly period/2 keeps its sign
        ddmod = where((ddmod == interval_low) & (dd > 0), interval_high, ddmod).astype(ddmod.dtype)
    ph_correct = ddmod - dd
    ph_correct = where(absolute(dd) < discont, 0, ph_correct).astype(ph_correct.dtype)
    up = p.astype(dtype)
    up[slice1] = p[slice1] + ph_correct.cumsum(axis)
    return up


# ---- floating-point parts (NumPy's C ufuncs, from exact steps) ---------------------------------------

def _loop(np_ufunc, *args):
    """The dtypes of NumPy's loop for these operands (NumPy's TypeError where it has none)."""
    return np_ufunc.resolve_dtypes(tuple(_ufunc._kind_of(a) for a in args) + (None,) * np_ufunc.nout)


def _into(name, out, results):
    """The results, each written into its out= array where one is given (NumPy's same_kind rule)."""
    outs = () if out is None else out if isinstance(out, tuple) else (out,)
    if not outs:
        return results[0] if len(results) == 1 else results
    if len(outs) != len(results):
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    if not all(o is None or isinstance(o, ndarray) for o in outs):
        raise NotImplementedError("a NumPy array as out=")
    done = []
    for o, r in zip(outs, results):
        if o is not None:
            if not _np.can_cast(r.dtype, o.dtype, "same_kind"):
                raise TypeError("Cannot cast ufunc '%s' output from %r to %r with casting rule 'same_kind'"
                                % (name, r.dtype, o.dtype))
            o[...] = r
        done.append(r if o is None else o)
    return done[0] if len(done) == 1 else tuple(done)


def _modf_call(x, /, out=None):
    """(fractional part, integral part) of x, both with x's sign (inf: (+-0, +-inf))."""
    x = asarray(x, dtype=_loop(_np.modf, x)[0])
    i = trunc(x)
    with _np.errstate(invalid="ignore"):   # (inf - inf at the infinities, replaced: NumPy's modf never warns)
        frac = where(isinf(x), 0, x - i)
    return _into("modf", out, (copysign(frac.astype(x.dtype), x), i))


_FREXP, _FREXP_EXPONENT, _I0 = (_core.op_names().index(_n) for _n in ("frexp", "frexp_exponent", "i0"))


def _frexp_call(x, /, out=None):
    """(mantissa, exponent): x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1 (0, inf and NaN: x
    itself and 0), exponent int32: one kernel (_core.frexp), or with out= (and for 0-d x, whose
    results are scalars) each output one device op, written into its out= array."""
    dt = _loop(_np.frexp, x)[0]
    if not (isinstance(x, ndarray) and x.dtype == dt):
        x = asarray(x, dtype=dt)
    outs = (None, None) if out is None else out if isinstance(out, tuple) else (out,)
    if len(outs) != 2:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    if not all(o is None or isinstance(o, ndarray) for o in outs):
        raise NotImplementedError("a NumPy array as out=")
    for o, want in zip(outs, (dt, _np.dtype(_np.int32))):
        if o is not None and not _np.can_cast(want, o.dtype, "same_kind"):
            raise TypeError("Cannot cast ufunc 'frexp' output from %r to %r with casting rule 'same_kind'"
                            % (want, o.dtype))
    if out is None and x.ndim:
        return _core.frexp(x)            # (both outputs in one kernel: the input read once)
    return (_core.ufunc(_FREXP, x, None, outs[0]), _core.ufunc(_FREXP_EXPONENT, x, None, outs[1]))


def _spacing_call(x, /, out=None):
    """The distance from x to the next float away from zero (NaN for inf; the smallest subnormal
    for +-0). float16: to the next float towards +inf, as NumPy's npy_half_spacing."""
    x = asarray(x, dtype=_loop(_np.spacing, x)[0])
    with _np.errstate(invalid="ignore"):   # (inf - inf at the infinities, replaced by NaN: NumPy's spacing)
        if x.dtype == _np.float16:
            d = nextafter(x, _np.float16(_np.inf)) - x
        else:
            d = where(x == 0, _np.finfo(x.dtype).smallest_subnormal, nextafter(x, copysign(_np.inf, x)) - x)
    return _into("spacing", out, (where(isinf(x), _np.nan, d).astype(x.dtype),))


modf = _ufunc.host(_np.modf, _modf_call)
frexp = _ufunc.host(_np.frexp, _frexp_call)
spacing = _ufunc.host(_np.spacing, _spacing_call)


# ---- Bessel's I0 and the windows ---------------------------------------------------------------------

def i0(x):
    """The modified Bessel function of the first kind, order 0, elementwise: one device op (NG_OP_I0,
    the helper ng_i0_<sfx>: Cephes' Chebyshev series, as NumPy, one for |x| <= 8, one for |x| > 8,
    evaluated in the array's float dtype; integers as float64)."""
    x = _arr(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(float)
    return _core.ufunc(_I0, x, None, None)


def _window(M, f):
    """NumPy's frame of each window: M as a float64 scalar (NumPy's dtype of 0.0 and M), no points
    for M < 1, one 1 for M == 1, else f(M, n) of n = 1-M, 3-M, ..., M-1."""
    M = _np.array([0.0, M])[1]
    if M < 1:
        return empty(0, M.dtype)
    if M == 1:
        return ones(1, M.dtype)
    return f(M, arange(1 - M, M, 2))


def hanning(M):
    """The Hann window of M points: 0.5 + 0.5 cos(pi n / (M - 1))."""
    return _window(M, lambda M, n: 0.5 + 0.5 * cos(_np.pi * n / (M - 1)))


def hamming(M):
    """The Hamming window of M points: 0.54 + 0.46 cos(pi n / (M - 1))."""
    return _window(M, lambda M, n: 0.54 + 0.46 * cos(_np.pi * n / (M - 1)))


def blackman(M):
    """The Blackman window of M points: 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))."""
    return _window(M, lambda M, n: 0.42 + 0.5 * cos(_np.pi * n / (M - 1))
                      + 0.08 * cos(2.0 * _np.pi * n / (M - 1)))


def bartlett(M):
    """The Bartlett (triangular) window of M points: 1 - |n| / (M - 1)."""
    return _window(M, lambda M, n: where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def kaiser(M, beta):
    """The Kaiser window of M points: i0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta),
    alpha = (M - 1) / 2."""
    values = _np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return ones(1, dtype=values.dtype)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - square((n - alpha) / alpha))) / i0(beta)


# ---- multidimensional histograms ---------------------------------------------------------------------

def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """The D-dimensional histogram of N points (an (N, D) array, or D arrays of N coordinates):
    each point's bin along each axis by searchsorted (a point on an axis' last edge in the last
    bin), the flat bin numbers counted by bincount, the outlier bins cut off. Returns (hist,
    edges), edges a list of D arrays."""
    if getattr(sample, "ndim", None) != 2:      # D sequences of N coordinates, not N points
        sample = atleast_2d(_stacked(sample)).T
    sample = _arr(sample)
    N, D = sample.shape
    if weights is not None:
        weights = _arr(weights)
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges, nbin = [], []
    for i in _builtins.range(D):
        if _np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(sample[:, i], range[i])
            try:
                n = _operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(asarray(_np.linspace(smin, smax, n + 1)))   # NumPy's numbers, to the bit
        elif _np.ndim(bins[i]) == 1:
            edges.append(_arr(bins[i]))
            if bool(_any(edges[i][:-1] > edges[i][1:])):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        nbin.append(len(edges[i]) + 1)   # an outlier bin at each end
    xy = zeros(N, _np.intp)
    for i in _builtins.range(D):
        count = searchsorted(edges[i], sample[:, i], side="right")
        count = where(sample[:, i] == edges[i][-1], count - 1, count)   # the last edge: the last bin
        xy = xy * nbin[i] + count
    hist = bincount(xy, weights, minlength=_math.prod(nbin)).reshape(nbin).astype(float, casting="safe")
    hist = hist[D * (slice(1, -1),)]
    if density:
        s = hist.sum()
        for i in _builtins.range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / diff(edges[i]).reshape(shape)
        hist /= s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """The 2-d histogram of the points (x, y): histogramdd's, as (hist, xedges, yedges). bins: one
    int or edge array for both axes, or a pair of them."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N not in {1, 2}:
        bins = [_arr(bins)] * 2
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ---- piecewise ---------------------------------------------------------------------------------

def piecewise(x, condlist, funclist, *args, **kw):
    """x's array with, where each condition holds, its function of the selected elements (or its
    value); one more function than conditions: that function where none holds."""
    x = _arr(x)
    n2 = len(funclist)
    if _np.isscalar(condlist) or getattr(condlist, "ndim", None) == 0 or (x.ndim != 0 and not (
            isinstance(condlist[0], list) or getattr(condlist[0], "ndim", 0) > 0)):
        condlist = [condlist]      # (one condition; an element of a device array is a 0-d array)
    condlist = _stacked(condlist).astype(bool)
    n = len(condlist)
    if n == n2 - 1:
        condelse = ~_any(condlist, axis=0, keepdims=True)
        condlist = concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(condlist, funclist):
        if not isinstance(func, _abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# ---- polynomials (coefficient arrays, highest power first) ------------------------------------------

def _no_poly1d(*ps):
    if any(isinstance(p, _np.poly1d) for p in ps):
        raise NotImplementedError("numpy.poly1d operands (a host object)")


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots: (x - r) multiplied in, one
    convolution each; real where the roots come in conjugate pairs. A square matrix's
    characteristic polynomial needs its eigenvalues: NumPy's (NotImplementedError here)."""
    seq_of_zeros = atleast_1d(seq_of_zeros)
    sh = seq_of_zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        raise NotImplementedError("poly of a matrix (its eigenvalues)")
    if len(sh) != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    seq_of_zeros = seq_of_zeros.astype(_np.mintypecode(seq_of_zeros.dtype.char))
    if len(seq_of_zeros) == 0:
        return 1.0
    dt = seq_of_zeros.dtype
    a = ones((1,), dtype=dt)
    for i in range(len(seq_of_zeros)):
        a = convolve(a, concatenate((ones(1, dt), -seq_of_zeros[i:i + 1])), mode="full")
    if dt.kind == "c":
        roots = seq_of_zeros.astype(complex)
        if bool(_all(sort(roots) == sort(roots.conjugate()))):
            a = a.real.copy()
    return a


def _padded(a1, a2):
    """a1 and a2 as 1-d arrays, the shorter one with leading zeros (of its dtype) to the other's length."""
    a1, a2 = atleast_1d(a1), atleast_1d(a2)
    d = len(a2) - len(a1)
    if d > 0:
        a1 = concatenate((zeros(d, a1.dtype), a1))
    elif d < 0:
        a2 = concatenate((zeros(-d, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (the shorter one padded with leading zeros)."""
    _no_poly1d(a1, a2)
    a1, a2 = _padded(a1, a2)
    return a1 + a2


def polysub(a1, a2):
    """The difference of two polynomials (the shorter one padded with leading zeros)."""
    _no_poly1d(a1, a2)
    a1, a2 = _padded(a1, a2)
    return a1 - a2


def _coeffs(c):
    """NumPy's poly1d(c).coeffs: 1-d, leading zeros trimmed, [0] if nothing is left."""
    c = atleast_1d(c)
    if c.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    c = trim_zeros(c, trim="f")
    return c if len(c) else zeros(1, c.dtype)


def polymul(a1, a2):
    """The product of two polynomials: the convolution of their coefficients."""
    _no_poly1d(a1, a2)
    return convolve(_coeffs(a1), _coeffs(a2))


def polyder(p, m=1):
    """The m-th derivative of polynomial p."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    _no_poly1d(p)
    p = _arr(p)
    n = len(p) - 1
    return p if m == 0 else polyder(p[:-1] * arange(n, 0, -1), m - 1)


def polyint(p, m=1, k=None):
    """The m-th antiderivative of polynomial p, k the integration constants (highest order
    first; one scalar for all)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    _no_poly1d(p)
    k = atleast_1d(zeros(m, float) if k is None else k)
    if len(k) == 1 and m > 1:
        k = k[0] * ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _arr(p)
    for i in range(m):
        p = concatenate((p / arange(len(p), 0, -1), k[i:i + 1]))
    return p
