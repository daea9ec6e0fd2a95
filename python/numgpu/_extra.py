"""NumPy's constructors, set operations, nan-quantiles and small elementwise helpers on device
arrays, as compositions of numgpu's device ops.

Each function is NumPy's own definition (numpy/_core/function_base.py, numpy/lib/_function_base_impl.py,
_arraysetops_impl.py, _nanfunctions_impl.py, _twodim_base_impl.py, _shape_base_impl.py,
_index_tricks_impl.py), op for op over numgpu's ops. The data stays on the device: only counts,
bounds, single indices and flags are read back.
"""
import operator as _operator
import warnings as _warnings
from typing import NamedTuple

import numpy as _np

from . import _ufunc, ndarray
from . import (add, any as _any, arange, argsort, array, asarray, atleast_1d, broadcast_arrays, broadcast_to,
               concatenate, copyto, cumsum, empty, equal, expand_dims, flatnonzero, flip, floor,
               floor_divide, full, greater_equal, invert, isnan, log10, logical_not, maximum, moveaxis,
               multiply, nanmean, nonzero, not_equal, ones, power, remainder, sign, sin, sort, subtract, take,
               take_along_axis, transpose, trunc, unique, where)
from ._sorting import _axis_last, _norm_axis, _with_out, _run_lengths, _run_starts

__all__ = [
    "logspace", "geomspace", "kron", "rot90", "select", "delete", "insert", "cumulative_sum", "cumulative_prod",
    "unique_values", "unique_counts", "unique_inverse", "unique_all", "intersect1d", "union1d", "setdiff1d",
    "setxor1d", "nanpercentile", "nanquantile", "sinc", "fix", "float_power", "bitwise_not", "divmod",
    "atleast_3d", "dstack", "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "indices",
    "diag_indices", "diag_indices_from", "vander", "trim_zeros",
]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _dtype_of(v):
    """What NumPy's result_type takes for v: an array's dtype, a Python number as it is (weak)."""
    if isinstance(v, (ndarray, _np.ndarray, _np.generic)):
        return v.dtype
    return v if type(v) in (int, float, complex, bool) else _np.asarray(v).dtype


def _along(axis, index):
    """The index tuple selecting `index` (a slice or an index array) along `axis`."""
    return (slice(None),) * axis + (index,)


# ---- spaced numbers -------------------------------------------------------------------------

def _linspace(start, stop, num, endpoint, axis):
    """NumPy's linspace of scalar or array ends (numgpu.linspace takes scalar ends only)."""
    num = _operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    dt = _np.result_type(_dtype_of(start), _dtype_of(stop))
    dt = dt if dt.kind in "fc" else _np.dtype(_np.float64)
    delta = subtract(stop, start, dtype=dt)
    y = arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = y / div * delta if bool(_any(step == 0)) else y * step   # (denormal steps, gh-5437)
    else:
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    return moveaxis(y, 0, axis) if axis != 0 else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop): NumPy 2's logspace (array ends and bases, axis=)."""
    if not isinstance(base, (float, int)) and _np.ndim(base):
        ndmax = len(_np.broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (array(a, copy=None, ndmin=ndmax) for a in (start, stop, base))
        base = expand_dims(base, axis=axis)
    y = power(base, _linspace(start, stop, num, endpoint, axis))
    return y if dtype is None else y.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """A geometric sequence from start to stop: logspace of the ends rotated onto the positive real
    axis (negative and complex ends), the ends written exactly, rotated back."""
    start, stop = _arr(start), _arr(stop)
    if bool(_any(start == 0)) or bool(_any(stop == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    dt = _np.result_type(start.dtype, stop.dtype, float(num), _np.zeros((), dtype))
    dtype = dt if dtype is None else _np.dtype(dtype)
    start, stop = start.astype(dt), stop.astype(dt)
    out_sign = sign(start)
    start, stop = start / out_sign, stop / out_sign
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = result * out_sign
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


# ---- products and rearrangements --------------------------------------------------------------

def kron(a, b):
    """The Kronecker product: a's and b's axes interleaved by broadcasting, one multiply, one reshape."""
    b = _arr(b)
    a = array(a, copy=None, ndmin=b.ndim)
    ndb, nda = b.ndim, a.ndim
    nd = max(ndb, nda)
    if nda == 0 or ndb == 0:
        return multiply(a, b)
    as_ = (1,) * max(0, ndb - nda) + a.shape
    bs = (1,) * max(0, nda - ndb) + b.shape
    a_arr = expand_dims(a, axis=tuple(range(ndb - nda)))
    b_arr = expand_dims(b, axis=tuple(range(nda - ndb)))
    a_arr = expand_dims(a_arr, axis=tuple(range(1, nd * 2, 2)))
    b_arr = expand_dims(b_arr, axis=tuple(range(0, nd * 2, 2)))
    return multiply(a_arr, b_arr).reshape(tuple(x * y for x, y in zip(as_, bs)))


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of `axes` (a view: flips and a transpose)."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _arr(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    axes_list = list(range(m.ndim))
    axes_list[axes[0]], axes_list[axes[1]] = axes_list[axes[1]], axes_list[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), axes_list)
    return flip(transpose(m, axes_list), axes[1])


def select(condlist, choicelist, default=0):
    """Elements of the first choice whose condition holds, else `default` (the choices written in
    reverse order, each where its condition holds)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if type(c) in (int, float, complex) else _arr(c) for c in choicelist]
    choices.append(default if type(default) in (int, float, complex) else _arr(default))
    try:
        dtype = _np.result_type(*[_dtype_of(c) for c in choices])
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    conds = broadcast_arrays(*condlist)
    choices = broadcast_arrays(*choices)
    for i, cond in enumerate(conds):
        if cond.dtype.type is not _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = conds[0].shape if choices[0].ndim == 0 else broadcast_arrays(conds[0], choices[0])[0].shape
    result = empty(shape, dtype)
    result[...] = choices[-1]
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        copyto(result, choice, where=cond)
    return result


def _flat_axis(arr, axis):
    """arr and the axis delete/insert work along (axis=None: the flattened array's)."""
    arr = _arr(arr)
    if axis is None:
        return arr.ravel(), 0
    return arr, _norm_axis(axis, arr.ndim)


def delete(arr, obj, axis=None):
    """A new array without the entries `obj` (an int, a slice, integer indices or a boolean mask)
    along axis: the kept entries gathered."""
    arr, axis = _flat_axis(arr, axis)
    n = arr.shape[axis]
    single = isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool)
    if not single and not isinstance(obj, slice):
        given = obj
        obj = _arr(obj)
        if obj.size == 0 and not isinstance(given, (ndarray, _np.ndarray)):
            obj = obj.astype(_np.intp)
        elif obj.size == 1 and obj.dtype.kind in "ui":
            obj, single = obj.item(), True
    if single:
        if obj < -n or obj >= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        obj %= n
        return concatenate((arr[_along(axis, slice(None, obj))], arr[_along(axis, slice(obj + 1, None))]), axis)
    if not isinstance(obj, slice) and obj.dtype == bool:
        if obj.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        keep = logical_not(obj)
    else:
        keep = ones(n, dtype=bool)
        keep[obj,] = False
    return take(arr, flatnonzero(keep), axis=axis)


def insert(arr, obj, values, axis=None):
    """A new array with `values` inserted before the entries `obj` along axis (NumPy's rules: one
    index inserts all of values there, a sequence one value before each index). A list of bools
    as obj is a mask, as NumPy's arrays of bools (NumPy's own call fails on the list)."""
    arr, axis = _flat_axis(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        indices = arange(*obj.indices(n), dtype=_np.intp)
    else:
        indices = array(obj)
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        values = array(values, copy=None, ndmin=arr.ndim, dtype=arr.dtype)
        if indices.ndim == 0:       # (a[:, 0] = values and a[:, [0]] = values broadcast differently)
            values = moveaxis(values, 0, axis)
        shape = arr.shape[:axis] + (values.shape[axis],) + arr.shape[axis + 1:]
        return concatenate((arr[_along(axis, slice(None, index))], broadcast_to(values, shape),
                            arr[_along(axis, slice(index, None))]), axis)
    if indices.size == 0 and not isinstance(obj, (ndarray, _np.ndarray)):
        indices = indices.astype(_np.intp)
    indices = where(indices < 0, indices + n, indices)
    numnew = indices.size
    order = argsort(indices, kind="stable")
    indices[order] = take(indices, order) + arange(numnew)
    newshape = arr.shape[:axis] + (n + numnew,) + arr.shape[axis + 1:]
    old_mask = ones(n + numnew, dtype=bool)
    old_mask[indices] = False
    new = empty(newshape, arr.dtype)
    new[_along(axis, indices)] = values
    new[_along(axis, old_mask)] = arr
    return new


# ---- scans --------------------------------------------------------------------------------------

def _cumulative(x, op, axis, dtype, out, include_initial):
    x = atleast_1d(x)
    if axis is None:
        if x.ndim >= 2:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    if out is not None and include_initial:
        op.accumulate(x, axis=axis, dtype=dtype, out=out[_along(axis % x.ndim, slice(1, None))])
        out[_along(axis % x.ndim, 0)] = op.identity
        return out
    res = op.accumulate(x, axis=axis, dtype=dtype, out=out)
    if include_initial:
        shape = list(x.shape)
        shape[axis] = 1
        res = concatenate([full(shape, op.identity, res.dtype), res], axis=axis)
    return res


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The Array API's cumulative sum: add.accumulate along axis (required for 2-d and up),
    with include_initial a leading 0."""
    return _cumulative(x, add, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The Array API's cumulative product: multiply.accumulate, with include_initial a leading 1."""
    return _cumulative(x, multiply, axis, dtype, out, include_initial)


# ---- unique (the Array API's) and set operations ---------------------------------------------------

class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


def _unique1d(x, index, inverse, counts):
    """NumPy's _unique1d with equal_nan=False (each NaN a value of its own, as the Array API asks):
    a stable sort of the flattened x, the first of each run of equal elements, the run starts."""
    x = _arr(x)
    ar = x.reshape(-1)
    n = ar.size
    perm = argsort(ar, kind="stable") if index or inverse else None
    aux = sort(ar) if perm is None else take(ar, perm)
    mask = _run_starts(aux)
    result = [aux[mask]]
    if index:
        result.append(perm[mask])
    if inverse:
        inv = empty(n, _np.intp)
        inv[perm] = cumsum(mask) - 1
        result.append(inv.reshape(x.shape))
    if counts:
        result.append(_run_lengths(mask))
    return result


def unique_values(x):
    """The distinct values of x, each NaN its own. Sorted (NumPy 2.3+'s order for integer and
    complex data comes from a hash table: the Array API leaves it unspecified)."""
    return _unique1d(x, False, False, False)[0]


def unique_counts(x):
    """(values, counts) of the distinct values of x."""
    return UniqueCountsResult(*_unique1d(x, False, False, True))


def unique_inverse(x):
    """(values, inverse_indices): inverse_indices has x's shape and values[inverse_indices] is x."""
    return UniqueInverseResult(*_unique1d(x, False, True, False))


def unique_all(x):
    """(values, indices of the first occurrences, inverse_indices, counts)."""
    return UniqueAllResult(*_unique1d(x, True, True, True))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays: the unique values of each, sorted together, those equal to
    their successor; with return_indices, where each came from in ar1 and ar2."""
    ar1, ar2 = _arr(ar1), _arr(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ar1.ravel(), ar2.ravel()
    aux = concatenate((ar1, ar2))
    if return_indices:
        aux_sort_indices = argsort(aux, kind="stable")
        aux = take(aux, aux_sort_indices)
    else:
        aux = sort(aux)
    mask = equal(aux[1:], aux[:-1])
    int1d = aux[:-1][mask]
    if not return_indices:
        return int1d
    ar1_indices = aux_sort_indices[:-1][mask]
    ar2_indices = aux_sort_indices[1:][mask] - ar1.size
    if not assume_unique:
        ar1_indices, ar2_indices = take(ind1, ar1_indices), take(ind2, ar2_indices)
    return int1d, ar1_indices, ar2_indices


def union1d(ar1, ar2):
    """The sorted unique values in either array."""
    return unique(concatenate((ar1, ar2), axis=None))


def _in_unique(ar1, ar2, invert):
    """NumPy's _isin of unique arrays by sorting: an element of ar1 is in ar2 where it equals its
    successor in the stable sort of both."""
    ar = concatenate((ar1, ar2), axis=None)
    order = argsort(ar, kind="stable")
    sar = take(ar, order)
    flag = not_equal(sar[1:], sar[:-1]) if invert else equal(sar[1:], sar[:-1])
    ret = empty(ar.shape, bool)
    ret[order] = concatenate((flag, full(min(ar.size, 1), invert, bool)))
    return ret[:ar1.size]


def setdiff1d(ar1, ar2, assume_unique=False):
    """The unique values of ar1 not in ar2 (with assume_unique, ar1's values in its order)."""
    if assume_unique:
        ar1 = _arr(ar1).ravel()
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return ar1[_in_unique(ar1, _arr(ar2), True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays: those equal to neither neighbour in the sort
    of both."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ar1, ar2), axis=None)
    if aux.size == 0:
        return aux
    aux = sort(aux)
    flag = concatenate((ones(1, bool), not_equal(aux[1:], aux[:-1]), ones(1, bool)))
    return aux[flag[1:] & flag[:-1]]


# ---- nan-quantiles ------------------------------------------------------------------------------

def _nanquantile(a, q, axis, method, keepdims, weights, name):
    """NumPy's nanquantile with method='linear': each slice's quantiles among its non-NaN elements.
    NumPy removes the NaNs slice by slice; here one device sort puts them last, the count of the
    others gives each slice's virtual indices ((count - 1) * q and NumPy's bounds, in its dtypes),
    two gathers and NumPy's lerp give the values. An all-NaN slice gives NaN (of a's dtype where it
    is the first slice, as NumPy's apply_along_axis keeps the first slice's dtype)."""
    a = _arr(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    q = _np.asanyarray(q.get() if isinstance(q, ndarray) else q)
    if name == "percentile":
        q = _np.true_divide(q, 100)
    if not _np.all((q >= 0) & (q <= 1)):
        raise ValueError("%s must be in the range [0, %d]" % (("Percentiles", 100) if name == "percentile"
                                                                else ("Quantiles", 1)))
    if weights is not None or method != "linear":
        raise NotImplementedError("nan%s with method=%r%s" % (name, method, "" if weights is None else ", weights"))
    keepdims = keepdims is True
    if a.size == 0:
        return nanmean(a, axis, keepdims=keepdims)
    src, kept = _axis_last(a, axis)
    s = sort(src, axis=-1)
    cnt = src.shape[-1] - isnan(src).sum(axis=-1, keepdims=True) if a.dtype.kind == "f" else \
        full(src.shape[:-1] + (1,), src.shape[-1], _np.intp)
    last = cnt - 1
    vd = _np.result_type(q.dtype, 1)
    vi = last.astype(vd) * asarray(q.reshape(-1), dtype=vd)
    if vd.kind in "iu":
        res = take_along_axis(s, maximum(vi, 0), axis=-1)
    else:
        above, below = vi >= last.astype(vd), vi < 0
        prev, nxt = (where(below, 0, where(above, -1, i)).astype(_np.intp) for i in (floor(vi), floor(vi) + 1))
        gamma = subtract(vi, prev).astype(vd)
        lo = take_along_axis(s, maximum(where(prev == -1, last, prev), 0), axis=-1)
        hi = take_along_axis(s, maximum(where(nxt == -1, last, nxt), 0), axis=-1)
        dt = _np.result_type(a.dtype, 0.0) if weak_q else _np.result_type(a.dtype, vd)
        d = hi - lo
        res = where(gamma >= 0.5, hi - d * (1 - gamma).astype(dt), lo + d * gamma.astype(dt))
    empty_slice = cnt == 0
    if bool(_any(empty_slice)):
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
        res = where(empty_slice, _np.nan, res).astype(a.dtype if bool(empty_slice.reshape(-1)[0]) else res.dtype)
    res = moveaxis(res, -1, 0).reshape(q.shape + (kept if keepdims else src.shape[:-1]))
    return res[()] if res.ndim == 0 else res


@_with_out
def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=_np._NoValue, *,
                weights=None):
    """The q-th quantiles of the non-NaN elements along axis (method='linear'; other methods and
    weights: NumPy's, through the fallback)."""
    return _nanquantile(a, q, axis, method, keepdims, weights, "quantile")


@_with_out
def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=_np._NoValue, *,
                  weights=None):
    """The q-th percentiles of the non-NaN elements along axis (nanquantile of q / 100)."""
    return _nanquantile(a, q, axis, method, keepdims, weights, "percentile")


# ---- elementwise ----------------------------------------------------------------------------------

def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (where pi x is 0 it is replaced by the dtype's epsilon)."""
    x = _arr(x)
    # pi as NumPy's weak scalar becomes: rounded to the result dtype first (numgpu's multiply of a
    # Python float and a float16 array rounds only the product)
    x = multiply(_np.result_type(x.dtype, _np.pi).type(_np.pi), x)
    eps = _np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = where(x, x, eps)
    return sin(y) / y


def fix(x, out=None):
    """Round towards zero (NumPy 2's fix is trunc)."""
    return trunc(x, out=out)


def _float_power(x1, x2, /, out=None, *, dtype=None, casting="same_kind", **kwargs):
    """power in float64 or complex128 (the loop NumPy's float_power picks for the operands)."""
    outs = _ufunc._outs(out)
    sig = {} if dtype is None else {"signature": (None, None, _np.dtype(dtype))}
    loop = _np.float_power.resolve_dtypes((_ufunc._kind_of(x1), _ufunc._kind_of(x2), outs[0].dtype if outs else None),
                                          casting=casting, **sig)
    return power(x1, x2, out=out, dtype=loop[-1], casting=casting, **kwargs)


def _divmod(x1, x2, /, out=None, **kwargs):
    """(floor_divide(x1, x2), remainder(x1, x2)), each on the device."""
    out = (None, None) if out is None else out
    if not isinstance(out, tuple):
        raise TypeError("'out' must be a tuple of arrays")
    if len(out) != 2:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    return floor_divide(x1, x2, out=out[0], **kwargs), remainder(x1, x2, out=out[1], **kwargs)


float_power = _ufunc.host(_np.float_power, _float_power)
divmod = _ufunc.host(_np.divmod, _divmod)
bitwise_not = invert


# ---- shapes ---------------------------------------------------------------------------------------

def atleast_3d(*arys):
    """Each array with at least 3 axes (views): (N,) -> (1, N, 1), (M, N) -> (M, N, 1)."""
    res = []
    for ary in arys:
        ary = _arr(ary)
        if ary.ndim == 0:
            ary = ary.reshape(1, 1, 1)
        elif ary.ndim == 1:
            ary = ary[None, :, None]
        elif ary.ndim == 2:
            ary = ary[:, :, None]
        res.append(ary)
    return res[0] if len(res) == 1 else tuple(res)


def dstack(tup):
    """The arrays joined along the third axis (after atleast_3d)."""
    arrs = atleast_3d(*tup)
    return concatenate(arrs if isinstance(arrs, tuple) else (arrs,), 2)


# ---- index arrays ----------------------------------------------------------------------------------

def _tri(n, m, k):
    """NumPy's tri(n, m, k, dtype=bool): True where column - row <= k. The column offsets are
    NumPy's own integer arange (m values, not data), so a float k truncates as NumPy's does
    (arange(-0.5, 3.5, dtype=int) is all zeros)."""
    m = n if m is None else m
    return greater_equal(arange(n).reshape(-1, 1), asarray(_np.arange(-k, m - k, dtype=_np.intp)))


def tril_indices(n, k=0, m=None):
    """(rows, columns) of the lower triangle of an (n, m) array, diagonal k and below, in C order."""
    return nonzero(_tri(n, m, k))


def triu_indices(n, k=0, m=None):
    """(rows, columns) of the upper triangle of an (n, m) array, diagonal k and above, in C order."""
    return nonzero(logical_not(_tri(n, m, k - 1)))


def tril_indices_from(arr, k=0):
    """tril_indices for the shape of the 2-d array arr."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """triu_indices for the shape of the 2-d array arr."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def indices(dimensions, dtype=int, sparse=False):
    """The grid of indices of an array of shape `dimensions`: one array per axis, stacked (or, with
    sparse, a tuple of broadcastable aranges)."""
    dimensions = tuple(dimensions)
    N = len(dimensions)
    shape = (1,) * N
    res = () if sparse else empty((N,) + dimensions, dtype=dtype)
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dtype).reshape(shape[:i] + (dim,) + shape[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array: one arange, ndim times."""
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for arr, whose axes (at least 2) must all have one length."""
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of x: columns x**(N-1), ..., x, 1 (increasing: 1, x, ...), each a
    running product (multiply.accumulate)."""
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    v = empty((x.shape[0], N), dtype=_np.promote_types(x.dtype, int))
    tmp = v if increasing else v[:, ::-1]
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        tmp[:, 1:] = x[:, None]
        multiply.accumulate(tmp[:, 1:], out=tmp[:, 1:], axis=1)
    return v


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and trailing ('b') zeros along each axis of `axis` (all by
    default): a slice (a view) bounded by the first and last index with a nonzero entry along each
    axis, found by one any-reduction per axis. A list or tuple gives a slice of itself, as NumPy."""
    x = _arr(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = range(x.ndim) if axis is None else \
        [_norm_axis(ax, x.ndim) for ax in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis in `axis` argument")
    src = filt if isinstance(filt, (list, tuple)) else x
    if not axes:
        return src
    nonzero_ = x != 0
    everywhere_zero = not bool(nonzero_.any())
    sl = [slice(None)] * x.ndim
    for ax in axes:
        if everywhere_zero:
            sl[ax] = slice(0, 0)
            continue
        hit = nonzero_.any(axis=tuple(d for d in range(x.ndim) if d != ax)) if x.ndim > 1 else nonzero_
        first = int(hit.argmax()) if "f" in trim else None
        last = x.shape[ax] - int(hit[::-1].argmax()) if "b" in trim else None
        sl[ax] = slice(first, last)
    return src[sl[0]] if len(sl) == 1 else src[tuple(sl)]
