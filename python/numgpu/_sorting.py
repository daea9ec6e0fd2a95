"""Sorting, searching, scans, histograms and nan-reductions (C kernels in src/ops/sort.c, scan.c, search.c).

The kernels live in C; this module only gives them NumPy's signatures:
keywords and defaults, axis=None as "flatten first", argument checks that
need Python objects, and the compositions NumPy itself writes in Python
(diff, round, the nan-reductions, histogram's bin edges).
"""
import builtins as _builtins
import functools as _functools
import inspect as _inspect
import math as _math
import operator as _operator
import os as _os
import warnings as _warnings

import numpy as _np

from . import _core, _fallback, _small
from ._core import ndarray

__all__ = [
    "sort", "argsort", "unique", "cumsum", "cumprod", "diff", "searchsorted", "bincount",
    "histogram", "histogram_bin_edges", "percentile", "quantile", "median", "nanmedian",
    "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "nanargmin", "nanargmax",
    "nancumsum", "nancumprod", "round", "around", "sort_complex", "partition", "argpartition", "lexsort",
]

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _with_out(f):
    """Gives f NumPy's out= parameter: the result is computed, then written
    into `out` on the device (cast as NumPy's assignment does)."""
    sig = _inspect.signature(f)
    at = list(sig.parameters).index("out")

    @_functools.wraps(f)
    def g(*args, **kwargs):
        if len(args) <= at and "out" not in kwargs:    # (no out: f's own call, no binding paid)
            return f(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        out = bound.arguments.pop("out", None)
        res = f(*bound.args, **bound.kwargs)
        if out is None:
            return res
        if not isinstance(out, (ndarray, _np.ndarray)):
            raise TypeError("output must be an array")
        out[...] = res.get() if isinstance(out, _np.ndarray) and isinstance(res, ndarray) else res
        return out      # (a NumPy array too, as NumPy's functions take one: the values downloaded)
    return g


def _on_numpy(name, func, *args, **kwargs):
    """An option numgpu has no kernel for yet: NumPy runs it (counted and
    warned by the fallback); NumPy scalars come back as 0-d arrays."""
    from ._fallback import call_numpy
    res = call_numpy(name, func, *args, **kwargs)
    return _ng().asarray(res) if isinstance(res, _np.generic) else res


def _ng():
    import numgpu
    return numgpu


def _arr(a):
    return a if isinstance(a, ndarray) else _ng().asarray(a)


def _check_kind(kind):
    if kind not in _KINDS:
        raise ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '%s')" % kind)


def _index(x, what):
    try:
        return _operator.index(x)
    except TypeError:
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(x).__name__) from None


# ---- sorting ---------------------------------------------------------------------

def _sort(a, axis, kind, order, descending, indices, stable=None):
    _check_kind(kind)
    if kind is not None and stable is not None:
        raise ValueError("`kind` and `stable` parameters can't be provided at the same time. Use only one of them.")
    a = _arr(a)      # (a structured array: numgpu.UnsupportedDtypeError, NumPy's sort by fields)
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is None:
        a, axis = a.ravel(), -1
    axis = _index(axis, "axis")
    if not descending and kind in (None, "quicksort") and not stable and _on_host(a, _host_sorts()[indices]):
        return _host_sort(a, axis, indices)
    if not descending:
        return _core.sort(a, axis, indices)
    # The standard's descending=True, stable: the device's stable ascending sort of the array
    # flipped along axis, flipped back. Equal elements then keep their original order (as
    # array-api-strict does it); NaNs come first. Indices into the flipped array map back as n-1-i.
    if a.ndim == 0:
        return _core.sort(a, axis, indices)
    flip = _ng().flip
    r = flip(_core.sort(flip(a, axis=axis), axis, indices), axis=axis)
    if indices:
        n = a.shape[axis % a.ndim]
        r = (n - 1) - r
    return r


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """Sorted copy along `axis`, NaNs last: the device's stable sort (radix sort on cpu, merge sort
    elsewhere); on cpu, where NumPy's own quicksort is faster (_host_sorts), NumPy's (NumPy's
    exact result, unstable as it is). The standard's descending=True gives the reverse order,
    equal elements still in their original order."""
    if not descending and _small.host(a):
        return _small.call(_np.sort, a, axis, kind, order, stable=stable)
    return _sort(a, axis, kind, order, descending, False, stable)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """Indices that sort `a` along `axis`: stable (also with descending=True), except on cpu
    with the default kind where NumPy's own argsort is faster (see sort)."""
    if not descending and _small.host(a):
        return _small.call(_np.argsort, a, axis, kind, order, stable=stable)
    return _sort(a, axis, kind, order, descending, True, stable)


# ---- NumPy's own sorts on the cpu device ---------------------------------------------
# The cpu device's memory is host memory: NumPy's sort runs on a zero-copy view of it, as the
# cpu device's matrix products run the BLAS NumPy's wheel brings. It does so for the sorts in
# which NumPy beats the device's kernels: its SIMD quicksorts (x86-simd-sort, Highway's vqsort:
# 2.5-20x the device's radix and merge sorts on 2 cores), its introsort of complex numbers
# (3x the merge sort) and its introselect (partition: O(n) where the device sorts). Only for
# unstable requests (NumPy's default kind): the stable sorts stay the device's.

def _host_sorts():
    """(sort dtypes, argsort dtypes) run by NumPy on cpu. Sorts: 32- and 64-bit numbers (SIMD on
    every CPU NumPy has a sort for), 16-bit integers with AVX512_ICL, float16 with AVX512_SPR, and
    complex numbers. Argsorts: complex, and 32- and 64-bit numbers with AVX-512 (AVX2 has no SIMD
    argsort; the device's parallel radix sort is as fast)."""
    global _HOST_SORTS
    if _HOST_SORTS is None:
        try:
            from numpy._core._multiarray_umath import __cpu_features__ as f
        except ImportError:
            f = {}
        wide = set("iIlLqQfdFD") | ({"h", "H"} if f.get("AVX512_ICL") else set()) | (
            {"e"} if f.get("AVX512_SPR") else set())
        _HOST_SORTS = (wide, set("FD") | (set("iIlLqQfd") if f.get("AVX512_SKX") else set()))
    return _HOST_SORTS


_HOST_SORTS = None
_POOL = None


def _on_host(a, chars):
    return a.dtype.char in chars and a.ndim > 0 and a.size > 1 and a.device.startswith("cpu")


def _host_threads():
    """The threads the cpu device's kernels use (OMP_NUM_THREADS, else the CPUs this process may run on)."""
    try:
        n = int(_os.environ.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        n = len(_os.sched_getaffinity(0)) if hasattr(_os, "sched_getaffinity") else (_os.cpu_count() or 1)
    return _builtins.max(n, 1)


def _in_parts(work, shape, axis):
    """work(index) over parts of an axis other than `axis`, in threads where the array is big
    enough to share (NumPy releases the GIL while it sorts)."""
    global _POOL
    if _math.prod(shape) < 1 << 16:     # (too small to share: the common call costs no more)
        work(Ellipsis)
        return
    split = 0 if axis != 0 else 1
    threads = _builtins.min(_host_threads(), shape[split] if split < len(shape) else 1)
    if threads < 2:
        work(Ellipsis)
        return
    if _POOL is None or _POOL[0] != _os.getpid():   # (a forked child has none of the parent's threads)
        import concurrent.futures
        _POOL = (_os.getpid(), concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="numgpu-sort"))
    cuts = [shape[split] * t // threads for t in builtins_range(threads + 1)]
    parts = [(slice(None),) * split + (slice(lo, hi),) for lo, hi in zip(cuts, cuts[1:])]
    for f in [_POOL[1].submit(work, p) for p in parts]:
        f.result()


def _numpy_parts(a, axis, indices, arg, inplace, r=None):
    """NumPy's work along axis of the cpu array a, part by part (_in_parts), on zero-copy views:
    with indices, a fresh int64 array of arg(part) (an argsort, an argpartition); else r (a copy
    of a where none is given) changed in place by inplace(part) (a sort, a partition)."""
    if indices:
        src, r = _np.asarray(a), _ng().empty(a.shape, _np.int64)
        dst = _np.asarray(r)

        def work(part):
            dst[part] = arg(src[part])
    else:
        r = a.copy(order="K") if r is None else r
        dst = _np.asarray(r)

        def work(part):
            inplace(dst[part])
    _in_parts(work, a.shape, axis)
    return r


def _host_sort(a, axis, indices):
    """NumPy's sort (or argsort) along axis of the cpu array a: NumPy's result, bit for bit."""
    axis = _norm_axis(axis, a.ndim)
    return _numpy_parts(a, axis, indices, lambda v: _np.argsort(v, axis=axis), lambda v: v.sort(axis=axis))


def sort_complex(a):
    """Sorted copy along the last axis, as complex (NumPy's rule: complex64 for the 8- and 16-bit
    integers, complex128 for every other real dtype)."""
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    return b.astype(_np.complex64 if b.dtype.char in "bhBH" else _np.complex128)


def _kth(kth, a, axis):
    """NumPy's checks of partition's kth (an int or a sequence of ints, each in range)."""
    ks = _np.asarray(kth.get() if isinstance(kth, ndarray) else kth)
    if ks.dtype.kind not in "iu" or ks.ndim > 1:
        raise TypeError("Partition index must be integer")
    n = a.shape[axis] if a.ndim else 1
    for k in ks.ravel().tolist():
        if not -n <= k < n:
            raise ValueError("kth(=%d) out of bounds (%d)" % (k + n if k < 0 else k, n))


def _partition(a, kth, axis, kind, order, indices):
    if kind != "introselect":
        raise ValueError("Unknown selectkind: %r" % (kind,))
    a = _arr(a)
    if axis is None:
        a, axis = a.ravel(), -1
    axis = _norm_axis(axis, a.ndim) if a.ndim else axis
    _kth(kth, a, axis)
    if order is None and _on_host(a, _np.typecodes["All"]):
        return _host_partition(a, kth, axis, indices)
    return _sort(a, axis, None, order, False, indices, True)


def _host_partition(a, kth, axis, indices):
    """NumPy's partition (argpartition) of the cpu array a: its introselect, O(n) per row."""
    kth = kth.get() if isinstance(kth, ndarray) else kth
    return _numpy_parts(a, axis, indices, lambda v: _np.argpartition(v, kth, axis=axis),
                        lambda v: v.partition(kth, axis=axis))


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A partitioned copy: every kth element in its sorted place, no larger element before it and
    no smaller one after. On cpu NumPy's own introselect (NumPy's result); elsewhere the stable
    sort along axis (NumPy leaves the order inside the parts unspecified; there it is sorted)."""
    return _partition(a, kth, axis, kind, order, False)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` (NumPy's on cpu, else those of the stable sort; see partition)."""
    return _partition(a, kth, axis, kind, order, True)


def lexsort(keys, axis=-1):
    """Indices that sort by the last key, then the one before, ...: one stable device argsort per
    key, each of the keys gathered in the order found so far (least significant key first)."""
    if isinstance(keys, (tuple, list)):
        if not keys:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        ks = [_arr(k) for k in keys]
    else:
        keys = _arr(keys)
        ks = [keys[i] for i in builtins_range(keys.shape[0])] if keys.ndim >= 2 else []
    if not ks or ks[0].ndim == 0:   # scalar keys: NumPy's odd case, on NumPy
        return _on_numpy("numpy.lexsort", _np.lexsort, keys, axis)
    if any(k.shape != ks[0].shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    ng = _ng()
    idx = argsort(ks[0], axis=axis, kind="stable")
    ax = _norm_axis(axis, ks[0].ndim)
    for k in ks[1:]:
        idx = ng.take_along_axis(idx, argsort(ng.take_along_axis(k, idx, ax), axis=ax, kind="stable"), ax)
    return idx


def _m_sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """In-place sort along `axis` (on cpu where NumPy's sort is the faster one, NumPy's in self's memory)."""
    if not self._writeable():
        raise ValueError("sort array is read-only")
    if kind in (None, "quicksort") and not stable and order is None and _on_host(self, _host_sorts()[False]):
        _check_kind(kind)
        axis = _norm_axis(_index(axis, "axis"), self.ndim)
        _numpy_parts(self, axis, False, None, lambda v: v.sort(axis=axis), self)
        return
    self[...] = sort(self, axis, kind, order, stable=stable)


def _m_argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    return argsort(self, axis, kind, order, stable=stable)


# ---- unique ----------------------------------------------------------------------

def _host_unique(ar, counts):
    """unique (values, and counts) of the 1-d cpu array ar of real numbers: NumPy's sort of it (_host_sort), then
    on the device the first element of each run of equal ones; the NaNs, sorted last, one value
    (the first of them, as NumPy's equal_nan=True)."""
    ng = _ng()
    aux = _host_sort(ar, 0, False)
    mask = _run_starts(aux)
    if aux.dtype.kind == "f":
        mask[aux.size - int(ng.count_nonzero(ng.isnan(aux))) + 1:] = False
    vals = aux[mask]
    return (vals, _run_lengths(mask)) if counts else vals


def _run_starts(aux):
    """True at the first element of each run of equal elements of the sorted 1-d aux (each NaN
    a run of its own)."""
    ng = _ng()
    mask = ng.empty(aux.size, bool)
    mask[:1] = True
    ng.not_equal(aux[1:], aux[:-1], out=mask[1:])
    return mask


def _run_lengths(mask):
    """The lengths of the runs whose starts `mask` (_run_starts') marks."""
    ng = _ng()
    return ng.diff(ng.concatenate((ng.flatnonzero(mask), ng.full(1, mask.size, _np.intp))))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """Sorted unique elements of the flattened array, as NumPy 2."""
    if _small.host(ar):
        return _small.call(_np.unique, ar, return_index, return_inverse, return_counts, axis, equal_nan=equal_nan,
                           sorted=sorted)
    if axis is not None or not equal_nan:
        return _on_numpy("numpy.unique", _np.unique, ar, return_index, return_inverse, return_counts, axis,
                          equal_nan=equal_nan)
    ar = _arr(ar)
    if not (return_index or return_inverse) and ar.dtype.kind != "c" and _on_host(ar, _host_sorts()[False]):
        return _host_unique(ar.reshape(-1), return_counts)
    vals, idx, inv, cnt = _core.unique(ar, bool(return_index), bool(return_inverse), bool(return_counts))
    extra = tuple(x for x in (idx, inv, cnt) if x is not None)
    if not extra and ar.dtype.kind == "c" and vals.size and _complex_nan_first_seen():
        last = vals[-1:]
        if bool(_ng().isnan(last)[0]):     # (the NaNs sort last: one kept, the first in the input)
            flat = ar.reshape(-1)
            vals[-1] = flat[int(_ng().argmax(_ng().isnan(flat)))]
    return (vals,) + extra if extra else vals


_nan_first_seen = []


def _complex_nan_first_seen():
    """Whether NumPy's unique of complex data, asked for values only, keeps the first NaN of the
    input (NumPy >= 2.3 finds them by hashing: [nan+nanj, nan+0j] -> [nan+nanj]) rather than the
    first in sorted order (its sort, and its calls with return_index/inverse/counts: nan+0j)."""
    if not _nan_first_seen:
        nan = float("nan")
        r = _np.unique(_np.array([complex(nan, nan), complex(nan, 0.0)]))
        _nan_first_seen.append(bool(_np.isnan(r[0].imag)))
    return _nan_first_seen[0]


# ---- scans -----------------------------------------------------------------------

_ADD, _MULTIPLY = _core.op_names().index("add"), _core.op_names().index("multiply")


def _cumulative(op, a, axis, dtype):
    a = _arr(a)
    if axis is None:
        return _core.cumulative(op, a.ravel(), 0, dtype)
    return _core.cumulative(op, a, _index(axis, "axis"), dtype)


@_with_out
def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum (NumPy's order: bit-identical on cpu)."""
    return _cumulative(_ADD, a, axis, dtype)


@_with_out
def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product (NumPy's order: bit-identical on cpu)."""
    return _cumulative(_MULTIPLY, a, axis, dtype)


@_with_out
def nancumsum(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    return cumsum(_replace_nan(a, 0), axis, dtype, out)


@_with_out
def nancumprod(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    return cumprod(_replace_nan(a, 1), axis, dtype, out)


def _norm_axis(axis, ndim):
    axis = _index(axis, "axis")
    if not -ndim <= axis < ndim:
        from numpy.exceptions import AxisError
        raise AxisError(axis, ndim)
    return axis % ndim


def diff(a, n=1, axis=-1, prepend=_np._NoValue, append=_np._NoValue):
    """n-th discrete difference along `axis` (NumPy's own composition of slices)."""
    ng = _ng()
    if n == 0:
        return _arr(a)
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _arr(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _norm_axis(axis, a.ndim)
    parts = []
    for v, at_end in ((prepend, False), (append, True)):
        if v is _np._NoValue:
            continue
        v = _arr(v)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = ng.broadcast_to(v, tuple(shape))
        parts.append((v, at_end))
    if parts:
        before = [v for v, e in parts if not e]
        after = [v for v, e in parts if e]
        a = ng.concatenate(before + [a] + after, axis=axis)
    lo = [slice(None)] * a.ndim
    hi = [slice(None)] * a.ndim
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    lo, hi = tuple(lo), tuple(hi)
    op = ng.not_equal if a.dtype == _np.bool_ else ng.subtract
    for _ in range(n):
        a = op(a[hi], a[lo])
    return a


# ---- searching and counting ---------------------------------------------------------

def searchsorted(a, v, side="left", sorter=None):
    """Insertion points of v in the sorted 1-d a (binary search per element)."""
    if _small.host(a, v, sorter):
        return _small.call(_np.searchsorted, a, v, side, sorter)
    if side not in ("left", "right"):
        if isinstance(side, str) and side[:1].lower() in ("l", "r"):
            side = "left" if side[:1].lower() == "l" else "right"
        else:
            raise ValueError("side must be 'left' or 'right' (got %r)" % (side,))
    a = _arr(a)
    scalar = not isinstance(v, ndarray) and _np.ndim(v) == 0
    if scalar and isinstance(v, (bool, int, float, complex)):
        # NumPy compares in the common type of a and of v as an array (not NEP 50's weak scalar):
        # a Python float against float16/float32 data is compared in float64 (0.1 is not float16(0.1))
        strong = type(v) in (float, complex) or (type(v) is int and a.dtype.kind in "fc")
        dt = _np.result_type(a.dtype, _np.asarray(v).dtype if strong else v)
        if type(v) is int and dt.kind in "iu" and not _np.iinfo(dt).min <= v <= _np.iinfo(dt).max:
            # NumPy compares a Python int beyond a's integers by its value: a wider type holds it
            dt = _np.result_type(a.dtype, _np.min_scalar_type(v))
            dt = dt if dt.kind in "iu" else _np.dtype(_np.float64)
        v = _ng().asarray(_np.asarray(v, dtype=dt))
    res = _core.searchsorted(a, _arr(v), side == "right", sorter)
    if scalar:   # NumPy's scalar (a 0-d array of its own standing for it)
        res = res.reshape(())._own()
        res._scalar = True
    return res


def _m_searchsorted(self, v, side="left", sorter=None):
    return searchsorted(self, v, side, sorter)


def bincount(x, weights=None, minlength=0):
    """Counts of each non-negative integer (sorted-run plan, no atomics on GPUs)."""
    x = _arr(x)
    if x.dtype.kind == "f" and x.size == 0:
        x = x.astype(_np.int64)
    w = None if weights is None else _arr(weights)
    if minlength is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    return _core.bincount(x, w, _index(minlength, "minlength"))


def _host_scalar(r):
    """NumPy's scalar of a result NumPy gives as a scalar: a 0-d device array's, or r itself
    (config(scalars="numpy") gives NumPy's already on cpu)."""
    return r.get()[()] if isinstance(r, ndarray) else r


def _outer_edges(a, range):
    """NumPy's _get_outer_edges; autodetected edges stay NumPy scalars of a's dtype."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError("supplied range of [%s, %s] is not finite" % (first, last))
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = _host_scalar(a.min()), _host_scalar(a.max())
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError("autodetected range of [%s, %s] is not finite" % (first, last))
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _bin_edges(a, bins, range):
    """(edges, uniform (first, last, n) or None), as NumPy's _get_bin_edges.
    Equal-width edges are computed by NumPy's own linspace (bins + 1 numbers,
    so they match NumPy's to the bit) and uploaded."""
    ng = _ng()
    if isinstance(bins, str):   # estimator names ('auto', 'fd', ...): NumPy's own edges
        return _arr(_np.histogram_bin_edges(a.get(), bins, range)), None
    if _np.ndim(bins) == 0:
        try:
            n = _operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
        bin_type = _np.result_type(first, last, a.dtype)
        if _np.issubdtype(bin_type, _np.integer):
            bin_type = _np.result_type(bin_type, float)
        edges = ng.asarray(_np.linspace(first, last, n + 1, endpoint=True, dtype=bin_type))
        return edges, (first, last, n)
    edges = _arr(bins)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if edges.size > 1 and bool((edges[1:] < edges[:-1]).any()):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges, None


def _bools_as_numbers(a):
    """a bool array as uint8 (NumPy's median, histogram and their edges read bools as 0 and 1;
    numgpu's kernels subtract, which bools refuse); other arrays as they are."""
    return a.astype(_np.uint8) if a.dtype.kind == "b" else a


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = _bools_as_numbers(_arr(a))
    if a.dtype.kind == "c":
        return _on_numpy("numpy.histogram_bin_edges", _np.histogram_bin_edges, a, bins, range, weights)
    return _bin_edges(a.ravel(), bins, range)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or weight sums) per bin, and the bin edges, as NumPy."""
    a = _bools_as_numbers(_arr(a))
    if a.dtype.kind == "c" or (isinstance(bins, ndarray) and bins.dtype.kind == "c"):
        # complex data: NumPy's edges are complex and its bin numbers come from complex divisions
        # and lexicographic comparisons (with a ComplexWarning); not a device kernel yet
        return _on_numpy("numpy.histogram", _np.histogram, a, bins, range, density=density, weights=weights)
    w = None if weights is None else _arr(weights)
    if w is not None and w.shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    edges, uniform = _bin_edges(a.ravel(), bins, range)
    if uniform is not None:
        first, last, _ = uniform
        denom = _np.subtract(last, first, dtype=_np.result_type(last, first))   # NumPy's _unsigned_subtract
    else:
        first, last = edges[0].item(), edges[-1].item()
        denom = last - first
    n = _core.histogram(a.ravel(), edges, uniform is not None, float(first), float(last), float(denom),
                        None if w is None else w.ravel())
    if w is not None and w.dtype != n.dtype:
        n = n.astype(w.dtype)
    if density:
        db = _ng().diff(edges).astype(_np.float64)
        return n / db / n.sum(), edges
    return n, edges


# ---- quantiles ---------------------------------------------------------------------

def _quantile(a, q, axis, keepdims, method, weak_q, name):
    ng = _ng()
    a = _arr(a)
    qh = _np.asarray(q.get() if isinstance(q, ndarray) else q)
    if qh.dtype.kind in "biu" and qh.size:
        return _quantile_ends(a, qh, axis, keepdims)
    if a.dtype == _np.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    # NumPy's result dtype: a Python float q takes a float array's dtype, else q's dtype promotes
    dt = a.dtype if a.dtype.kind == "f" and weak_q else _np.result_type(a.dtype, qh.dtype)
    qh = qh.astype(_np.float64)
    if axis is None:
        src, ax = a.ravel(), 0
        kept = (1,) * a.ndim
    else:
        if isinstance(axis, tuple):
            axes = sorted(_norm_axis(x, a.ndim) for x in axis)
            if len(axes) == 1:
                axis = axes[0]
            else:
                rest = [d for d in builtins_range(a.ndim) if d not in axes]
                src = a.transpose(rest + axes)
                src = src.reshape(tuple(a.shape[d] for d in rest) + (-1,))
                ax = src.ndim - 1
                kept = tuple(1 if d in axes else a.shape[d] for d in builtins_range(a.ndim))
                res = _quantile_rows(src, ax, qh.ravel(), dt)
                return _quantile_shape(res, qh, src, ax, kept, keepdims)
        ax = _norm_axis(axis, a.ndim)
        src = a
        kept = tuple(1 if d == ax else a.shape[d] for d in builtins_range(a.ndim))
    res = _quantile_rows(src, ax, qh.ravel(), dt)
    return _quantile_shape(res, qh, src, ax, kept, keepdims)


def _quantile_rows(src, ax, q, dt):
    """The linear quantiles along ax (the C kernel). On cpu, where NumPy's introselect beats a
    sort, src is first partitioned by NumPy (_host_partition) at the places the kernel reads:
    each q's two neighbours, (n - 1) * q floored and the next, and the last place, where a NaN
    sorts; the kernel then reads them without sorting."""
    n = src.shape[ax] if src.ndim else 1
    if n < 2 or src.dtype.kind not in "iuf" or not _on_host(src, _host_sorts()[False]):
        return _core.quantile(src, ax, q, dt)
    lo = _np.clip(_np.floor((n - 1) * q), 0, n - 1).astype(_np.intp)
    kth = sorted(set(lo.tolist()) | set(_np.minimum(lo + 1, n - 1).tolist()) | {n - 1})
    return _core.quantile(_host_partition(src, kth, ax, False), ax, q, dt, True)


builtins_range = _builtins.range


def _quantile_ends(a, qh, axis, keepdims):
    """Quantiles at integer q (0 or 1, checked by the caller): the minimum or maximum along axis,
    in a's dtype, as NumPy gives them."""
    ng = _ng()
    ends = [(ng.min if v == 0 else ng.max)(a, axis=axis, keepdims=keepdims) for v in qh.ravel().tolist()]
    res = ng.stack(ends)
    res = res.reshape(qh.shape + res.shape[1:])
    return res[()] if res.ndim == 0 else res


def _quantile_shape(res, qh, src, ax, kept, keepdims):
    rest = tuple(s for d, s in enumerate(src.shape) if d != ax)
    shape = qh.shape + (kept if keepdims else rest)
    res = res.reshape(shape)
    if res.ndim == 0:
        return res[()]
    return res


def _real_only(a):
    kind = a.dtype.kind if isinstance(a, ndarray) else _np.asarray(a).dtype.kind
    if kind == "c":
        raise TypeError("a must be an array of real numbers")


@_with_out
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None, interpolation=None):
    """q-th quantiles (linear method): a device sort, then one interpolation kernel."""
    if interpolation is None and _small.host(a, q, weights):
        return _small.call(_np.quantile, a, q, axis, None, overwrite_input, method, keepdims, weights=weights)
    if weights is not None or method != "linear":
        return _on_numpy("numpy.quantile", _np.quantile, a, q, axis, method=method, keepdims=keepdims,
                          weights=weights)
    _real_only(a)
    weak_q = type(q) in (int, float)
    qh = _np.asanyarray(q.get() if isinstance(q, ndarray) else q)
    if not (qh.size == 0 or (_np.all(qh >= 0) and _np.all(qh <= 1))):
        raise ValueError("Quantiles must be in the range [0, 1]")
    return _quantile(a, qh, axis, keepdims, method, weak_q, "quantile")


@_with_out
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None, interpolation=None):
    """q-th percentiles (linear method)."""
    if interpolation is None and _small.host(a, q, weights):
        return _small.call(_np.percentile, a, q, axis, None, overwrite_input, method, keepdims, weights=weights)
    if weights is not None or method != "linear":
        return _on_numpy("numpy.percentile", _np.percentile, a, q, axis, method=method, keepdims=keepdims,
                          weights=weights)
    _real_only(a)
    weak_q = type(q) in (int, float)
    qh = _np.true_divide(_np.asanyarray(q.get() if isinstance(q, ndarray) else q), 100)
    if not (qh.size == 0 or (_np.all(qh >= 0) and _np.all(qh <= 1))):
        raise ValueError("Percentiles must be in the range [0, 100]")
    return _quantile(a, qh, axis, keepdims, method, weak_q, "percentile")


@_with_out
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    a = _bools_as_numbers(_arr(a))
    if a.size == 0:   # NumPy's mean of an empty slice: NaNs and its RuntimeWarning, nothing to compute
        return _on_numpy("numpy.median", _np.median, a, axis=axis, keepdims=keepdims)
    if a.dtype.kind == "c":
        return _median_complex(a, axis, keepdims)
    return _quantile(a, _np.asarray(0.5), axis, keepdims, "linear", True, "median")


def _axis_last(a, axis):
    """a with the reduced axes (None: all; an int or a tuple) merged into one last axis, and the shape
    keepdims=True gives."""
    if axis is None:
        return a.reshape(-1), (1,) * a.ndim
    axes = sorted({_norm_axis(x, a.ndim) for x in (axis if isinstance(axis, tuple) else (axis,))})
    rest = [d for d in builtins_range(a.ndim) if d not in axes]
    kept = tuple(1 if d in axes else a.shape[d] for d in builtins_range(a.ndim))
    src = a.transpose(rest + axes).reshape(tuple(a.shape[d] for d in rest) + (-1,))
    return src, kept


def _median_complex(a, axis, keepdims):
    """NumPy's _median for complex: the mean of the middle one or two elements in sort order (a
    complex division by the count, as np.mean), or the largest element when it is a NaN."""
    ng = _ng()
    src, kept = _axis_last(a, axis)
    n = src.shape[-1]
    if n == 0:
        return _on_numpy("numpy.median", _np.median, a, axis=axis, keepdims=keepdims)
    s = sort(src, axis=-1)
    mid = s[..., n // 2 - 1] + s[..., n // 2] if n % 2 == 0 else s[..., n // 2]
    res = ng.divide(mid, 2 - n % 2)
    last = s[..., -1]
    res = ng.where(ng.isnan(last), last, res)
    return res.reshape(kept) if keepdims else res


@_with_out
def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median of the non-NaN elements on the device: a sort (NaNs last), the count of non-NaN
    elements per slice, the middle one or two of them gathered (take_along_axis) and averaged as
    NumPy's masked median ((low + high) / 2). All-NaN slices give NaN with NumPy's warning."""
    ng = _ng()
    a = _arr(a)
    if a.dtype.kind not in "fc":
        return median(a, axis=axis, keepdims=keepdims)
    if a.size == 0:
        return _on_numpy("numpy.nanmedian", _np.nanmedian, a, axis=axis, keepdims=keepdims)
    src, kept = _axis_last(a, axis)
    n = src.shape[-1]
    s = sort(src, axis=-1)
    cnt = ng.sum(ng.logical_not(ng.isnan(src)), axis=-1, keepdims=True)
    hi = cnt // 2
    lo = ng.where(cnt % 2 == 1, hi, hi - 1)
    pick = ng.take_along_axis(s, ng.concatenate([ng.maximum(lo, 0), hi], axis=-1), axis=-1)
    res = ng.divide(pick[..., 0] + pick[..., 1], 2)
    if res.dtype != a.dtype:
        res = res.astype(a.dtype)
    empty = (cnt == 0).reshape(res.shape)
    if bool(ng.any(empty)):
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        # NumPy: the slice's last element (1-d slices and long ones), else NaN (its masked median)
        fill = src[..., -1] if (axis is None or a.ndim == 1 or n >= 600) else _np.nan
        res = ng.where(empty, fill, res)
        if res.dtype != a.dtype:
            res = res.astype(a.dtype)
    return res.reshape(kept) if keepdims else res


# ---- nan-reductions (NumPy's own compositions) ----------------------------------------

def _replace_nan(a, value):
    a = _arr(a)
    if a.dtype.kind not in "fc":
        return a
    ng = _ng()
    return ng.where(ng.isnan(a), value, a)


def _isinexact(a):
    return a.dtype.kind in "fc"


@_with_out
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=_np._NoValue):
    return _ng().sum(_replace_nan(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)


@_with_out
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=_np._NoValue):
    return _ng().prod(_replace_nan(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)


def _nan_minmax(a, axis, keepdims, which):
    """NumPy's fmin/fmax reduction: NaNs are skipped; an all-NaN slice gives its first element (a
    NaN) and a warning. The NaNs are replaced by a value no other element passes: +-inf, or
    +-(inf + infj) in complex's lexicographic order."""
    ng = _ng()
    a = _arr(a)
    red = ng.min if which == "min" else ng.max
    if not _isinexact(a):
        return red(a, axis=axis, keepdims=keepdims)
    fill = _np.inf if which == "min" else -_np.inf
    if a.dtype.kind == "c":
        fill = complex(fill, fill)
    mask = ng.isnan(a)
    res = red(ng.where(mask, fill, a), axis=axis, keepdims=keepdims)
    allnan = ng.all(mask, axis=axis, keepdims=keepdims)
    if bool(ng.any(allnan)):
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        first = _first_along(a, axis, keepdims)
        res = ng.where(allnan, first, res)
        res = res.astype(a.dtype) if res.dtype != a.dtype else res
    return res


def _first_along(a, axis, keepdims):
    """The first element of each slice along axis (None: of the whole array), shaped as a reduction."""
    ng = _ng()
    if axis is None:
        f = a.reshape(-1)[0]
        return f.reshape((1,) * a.ndim) if keepdims else f
    src, kept = _axis_last(a, axis)
    f = src[..., 0]
    return f.reshape(kept) if keepdims else f


@_with_out
def nanmin(a, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=_np._NoValue):
    return _nan_minmax(a, axis, keepdims, "min")


@_with_out
def nanmax(a, axis=None, out=None, keepdims=False, initial=_np._NoValue, where=_np._NoValue):
    return _nan_minmax(a, axis, keepdims, "max")


def _nan_arg(a, axis, keepdims, which):
    """NumPy's nanargmin/nanargmax: NaNs replaced by +-inf (inf + 0j for complex), then argmin/argmax."""
    ng = _ng()
    a = _arr(a)
    red = ng.argmin if which == "min" else ng.argmax
    if not _isinexact(a):
        return red(a, axis=axis, keepdims=keepdims)
    mask = ng.isnan(a)
    if a.size and bool(ng.any(ng.all(mask, axis=axis))):
        raise ValueError("All-NaN slice encountered")
    return red(ng.where(mask, _np.inf if which == "min" else -_np.inf, a), axis=axis, keepdims=keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    r = _nan_arg(a, axis, keepdims, "min")
    return r if out is None else _ng()._into(out, r)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    r = _nan_arg(a, axis, keepdims, "max")
    return r if out is None else _ng()._into(out, r)


def _count(mask, axis, keepdims):
    ng = _ng()
    return ng.sum(ng.logical_not(mask), axis=axis, keepdims=keepdims)


@_with_out
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=_np._NoValue):
    ng = _ng()
    a = _arr(a)
    if not _isinexact(a):
        return ng.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    mask = ng.isnan(a)
    cnt = _count(mask, axis, keepdims)
    tot = ng.sum(ng.where(mask, 0, a), axis=axis, dtype=dtype, keepdims=keepdims)
    if bool(ng.any(cnt == 0)):
        _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    with _np.errstate(invalid="ignore", divide="ignore"):   # (0/0 of an all-NaN slice: NumPy's _divide_by_count)
        res = ng.divide(tot, cnt)
    return res.astype(tot.dtype) if res.dtype != tot.dtype else res


@_with_out
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_np._NoValue, mean=_np._NoValue,
           correction=_np._NoValue):
    """NumPy's nanvar: deviations from the nan-mean, squared (times the conjugate for complex, whose
    variance is real), summed and divided by the non-NaN count - ddof; NaN where that is <= 0."""
    ng = _ng()
    a = _arr(a)
    if not _isinexact(a):
        return ng.var(a, axis=axis, dtype=dtype, keepdims=keepdims, ddof=ddof)
    mask = ng.isnan(a)
    arr = ng.where(mask, 0, a)
    cnt = _count(mask, axis, True)
    tot = ng.sum(arr, axis=axis, dtype=dtype, keepdims=True)
    with _np.errstate(invalid="ignore", divide="ignore"):   # (NumPy's _divide_by_count)
        avg = ng.divide(tot, cnt).astype(tot.dtype)   # NumPy divides in place: the sum's dtype stays
    dev = ng.subtract(arr, avg)
    if dev.dtype != arr.dtype:   # NumPy subtracts into arr (casting='unsafe')
        dev = dev.astype(arr.dtype)
    dev = ng.where(mask, 0, dev)
    sqr = ng.multiply(dev, ng.conjugate(dev)).real if dev.dtype.kind == "c" else ng.multiply(dev, dev)
    sqr = ng.sum(sqr, axis=axis, dtype=dtype, keepdims=keepdims)
    cnt = _count(mask, axis, keepdims)
    dof = ng.subtract(cnt, ddof)
    with _np.errstate(invalid="ignore", divide="ignore"):   # (NumPy's _divide_by_count)
        res = ng.divide(sqr, dof)
    res = res.astype(sqr.dtype) if res.dtype != sqr.dtype else res
    isbad = dof <= 0
    if bool(ng.any(isbad)):
        _warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=2)
        res = ng.where(isbad, _np.nan, res)
        res = res.astype(sqr.dtype) if res.dtype != sqr.dtype else res
    return res


@_with_out
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_np._NoValue, mean=_np._NoValue,
           correction=_np._NoValue):
    v = nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    return _ng().sqrt(v)


# ---- rounding ------------------------------------------------------------------------

@_with_out
def round(a, decimals=0, out=None):
    """Round half to even at `decimals` (NumPy's multiply / rint / divide)."""
    ng = _ng()
    a = _arr(a)
    decimals = _index(decimals, "decimals")
    if a.dtype.kind == "b":   # (NumPy's loop for bools: float16, at 0 decimals only)
        if decimals:   # NumPy's own UFuncTypeError: its float64 multiply/divide cannot be cast to bool
            _np.round(_np.zeros(1, bool), decimals)
        a = a.astype(_np.float16)
    if a.dtype.kind == "c":   # NumPy rounds the real and imaginary parts (views) one by one
        res = ng.empty(a.shape, a.dtype)
        res.real[...] = round(a.real, decimals)
        res.imag[...] = round(a.imag, decimals)
        return res
    if a.dtype.kind in "biu":
        if decimals >= 0:
            return a.copy()
        f = 10.0 ** -decimals
        return ng.multiply(ng.rint(ng.divide(a, f)), f).astype(a.dtype)
    if -2**31 < decimals < 2**31:   # (NumPy's C int)
        return _core.round(a, decimals)   # one pass: multiply, rint, divide in the dtype
    if decimals >= 0:
        f = 10.0 ** decimals
        return ng.divide(ng.rint(ng.multiply(a, f)), f)
    f = 10.0 ** -decimals
    return ng.multiply(ng.rint(ng.divide(a, f)), f)


around = round


def _m_round(self, decimals=0, out=None):
    return round(self, decimals, out=out)


def _m_cumsum(self, axis=None, dtype=None, out=None):
    return cumsum(self, axis, dtype, out=out)


def _m_cumprod(self, axis=None, dtype=None, out=None):
    return cumprod(self, axis, dtype, out=out)


ndarray.sort = _m_sort
ndarray.argsort = _m_argsort
ndarray.cumsum = _m_cumsum
ndarray.cumprod = _m_cumprod
ndarray.round = _fallback.program_results(_m_round)
ndarray.searchsorted = _fallback.program_results(_m_searchsorted)
