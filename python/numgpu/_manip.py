"""Gathering, scattering and rearranging: take, put, take/put_along_axis, nonzero, repeat, tile,
roll, flip, pad, tril, triu, trace, outer, einsum, and dot/tensordot/inner/vdot for any rank
(src/ops/manip.c).

Thin glue: NumPy's signatures and argument normalisation. The kernels are in C (the index-map
gather, the nonzero compaction); the rest are compositions of device ops: views (flip,
diagonal), broadcasting multiplies, reductions and matmul (outer, einsum, tensordot).
"""
import operator as _operator

import numpy as _np

from . import _core, _fallback, _small, ndarray, broadcast_to
from ._core import UnsupportedDtypeError
from ._array_api import asarray, zeros
from ._methods import contiguous
from . import sum as _sum

__all__ = ["take", "put", "take_along_axis", "put_along_axis", "nonzero", "argwhere", "flatnonzero", "where",
           "repeat", "tile", "roll", "flip", "fliplr", "flipud", "pad", "meshgrid", "tril", "triu", "trace", "diag",
           "diagonal", "outer", "einsum", "dot", "tensordot", "inner", "vdot", "copyto"]


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _index_arr(x):
    """An index argument as a device array; an empty Python list is an empty intp array (NumPy's rule)."""
    if isinstance(x, ndarray):
        return x
    x = _np.asarray(x)
    if x.size == 0 and x.dtype.kind == "f":
        x = x.astype(_np.intp)
    return asarray(x)


def _axis_error(axis, ndim):
    from numpy.exceptions import AxisError
    return AxisError("axis %d is out of bounds for array of dimension %d" % (axis, ndim))


def _norm_axis(axis, ndim):
    axis = _operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _axis_error(axis, ndim)
    return axis % ndim


def _ints(x):
    """An int or a sequence of ints as a tuple."""
    if isinstance(x, ndarray):
        x = x.get()
    if _np.ndim(x) == 0:
        return (_operator.index(x),)
    return tuple(_operator.index(v) for v in _np.asarray(x).ravel().tolist())


_MODES = {"raise": 0, "wrap": 1, "clip": 2}


def _mode(mode):
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got %r)" % (mode,)) from None


# ---- gathering and scattering -------------------------------------------------------

def _into(out, r, name):
    """r written into `out` under NumPy's rules for `name`'s out= (take, compress,
    choose): the result's shape exactly; a NumPy array too, as NumPy's functions take one."""
    if out is None:
        return r
    if not isinstance(out, (ndarray, _np.ndarray)):
        raise TypeError("output must be an array, not %s" % type(out).__name__)
    if out.shape != r.shape:
        if name == "choose":
            raise TypeError("choose: invalid shape for output array.")
        raise ValueError("output array does not match result of ndarray.take")
    if name == "take" and not _np.can_cast(out.dtype, r.dtype, "safe"):
        raise TypeError("Cannot cast array data from %r to %r according to the rule 'safe'" % (out.dtype, r.dtype))
    out[...] = r.get() if isinstance(out, _np.ndarray) else r   # (a NumPy out: the values downloaded)
    return out


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (None: of the flattened array)."""
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    else:
        _norm_axis(axis, a.ndim)
    return _into(out, _core.take(a, _index_arr(indices), axis, _mode(mode)), "take")


def copyto(dst, src, casting="same_kind", where=True):
    """NumPy's copyto: src (broadcast) written into dst where `where` holds, cast under `casting`
    (NumPy's TypeError otherwise). A NumPy dst is NumPy's own copyto."""
    if not isinstance(dst, ndarray):
        from ._fallback import down
        return _np.copyto(dst, down(src), casting=casting, where=down(where))
    if not isinstance(src, (ndarray, _np.ndarray, _np.generic)) and _np.ndim(src):
        src = _np.asarray(src)   # a list or tuple: NumPy's array of it, its dtype cast-checked
    if isinstance(src, (ndarray, _np.ndarray)):
        if not _np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError("Cannot cast array data from %r to %r according to the rule %r"
                            % (src.dtype, dst.dtype, casting))
    else:   # a scalar: NumPy's own rules for it (a Python int's value, 0.1 into float32 'safe' ...)
        _np.copyto(_np.empty((), dst.dtype), src, casting=casting)
    if where is True:
        dst[...] = src
        return
    from ._ufunc import check_mask
    check_mask(where)
    src = _arr(src)
    _core.where(where, src if src.dtype == dst.dtype else src.astype(dst.dtype), dst, dst)


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, v repeated as needed; duplicate indices: one of the writes wins."""
    if not isinstance(a, ndarray):   # a NumPy array: NumPy's put changes it (the fallback)
        raise NotImplementedError("put into a %s" % type(a).__name__)
    if not a._writeable():
        raise ValueError("put: output array is read-only")
    if (a.dtype.kind in "iuf" and not isinstance(v, (ndarray, _np.ndarray, _np.generic))
            and _np.asarray(v).dtype.kind == "c"):
        # NumPy converts Python complex values with float() / int() (arrays are cast, with a warning)
        raise TypeError("float() argument must be a string or a real number, not 'complex'" if a.dtype.kind == "f"
                        else "int() argument must be a string, a bytes-like object or a real number, not 'complex'")
    ind = _index_arr(ind).reshape(-1)
    v = _arr(v).reshape(-1)
    if ind.dtype == _np.uint64 or ind.dtype.kind not in "iu":
        # (NumPy's safe cast to intp: uint64 has none, empty or not)
        raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'"
                        % ind.dtype)
    if ind.size == 0 or v.size == 0:
        return None
    if v.size != ind.size:
        v = _core.take(v, _arange(ind.size), 0, 1)
    if a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    m = _mode(mode)
    if m:
        ind = _core.take(_arange(a.size), ind, 0, m)  # wrapped or clipped flat positions
    if _is_c_contiguous(a):
        flat = a.reshape(-1)
        flat[ind] = v
        return None
    lo, hi = int(ind.min()), int(ind.max())
    if lo < -a.size or hi >= a.size:
        raise IndexError("index %d is out of bounds for axis 0 with size %d" % (hi if hi >= a.size else lo, a.size))
    ind = ind % a.size
    coords = []
    for n in reversed(a.shape):
        coords.append(ind % n)
        ind = ind // n
    a[tuple(reversed(coords))] = v
    return None


def _along_axis_index(arr, indices, axis):
    """NumPy's _make_along_axis_idx: the advanced index that pairs each entry of `indices` with
    its own position along every other axis."""
    from . import arange
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ones = (1,) * indices.ndim
    return tuple(indices if d == axis else arange(n).reshape(ones[:d] + (-1,) + ones[d + 1:])
                 for d, n in enumerate(arr.shape))


def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` along `axis` (None: of the flattened array): one gather."""
    arr, indices = _arr(arr), _index_arr(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr, axis = arr.reshape(-1), 0
    else:
        axis = _norm_axis(axis, arr.ndim)
    return arr[_along_axis_index(arr, indices, axis)]


def put_along_axis(arr, indices, values, axis):
    """arr[...] at `indices` along `axis` = values (broadcast), in place: one scatter."""
    if not isinstance(arr, ndarray):   # a NumPy array: NumPy's put_along_axis changes it (the fallback)
        raise NotImplementedError("put_along_axis into a %s" % type(arr).__name__)
    indices = _index_arr(indices)
    if axis is None:   # arr.flat[indices] = values
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        if indices.dtype.kind not in "iu":
            raise IndexError("`indices` must be an integer array")
        put(arr, indices, broadcast_to(_arr(values), indices.shape))
        return
    arr[_along_axis_index(arr, indices, _norm_axis(axis, arr.ndim))] = values


def _arange(n):
    from . import arange
    return arange(n)


def _is_c_contiguous(a):
    return contiguous(a.shape, a.strides, a.itemsize)


def nonzero(a):
    """Tuple of index arrays, one per axis, of the nonzero elements (C order)."""
    a = _arr(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                         "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use "
                         "`arr[cond]`.")
    coords = _core.nonzero(a)
    return tuple(coords[d] for d in range(a.ndim))


def argwhere(a):
    """(count, ndim) array of the coordinates of the nonzero elements."""
    a = _arr(a)
    if a.ndim == 0:
        return _core.nonzero(a.reshape(1)).T[:, :0]
    return _core.nonzero(a).T


def flatnonzero(a):
    return _core.nonzero(_arr(a).reshape(-1))[0]


_NOT_GIVEN = object()


def where(condition, x=_NOT_GIVEN, y=_NOT_GIVEN):
    """where(cond, x, y) elementwise; where(cond) is nonzero(cond). None as x or y is a value, as
    NumPy's: an object array, NumPy's (UnsupportedDtypeError: the guard runs NumPy's where)."""
    if x is _NOT_GIVEN and y is _NOT_GIVEN:
        return nonzero(condition)
    if x is _NOT_GIVEN or y is _NOT_GIVEN:
        raise ValueError("either both or neither of x and y should be given")
    if x is None or y is None:
        raise UnsupportedDtypeError("numgpu has no object arrays (where with None)")
    return _core.where(condition, _wrap_int(x, y), _wrap_int(y, x))


def _wrap_int(v, other):
    """NumPy's where casts a Python int beside an integer array to the array's dtype with C's
    wraparound (np.where(c, x_uint8, -1) gives 255 where NumPy's operators raise OverflowError);
    an int beyond int64 is NumPy's OverflowError."""
    if (type(v) is not int or not isinstance(other, (ndarray, _np.ndarray, _np.integer))
            or other.dtype.kind not in "iu"):
        return v
    info = _np.iinfo(other.dtype)
    if info.min <= v <= info.max:
        return v
    if not -2 ** 63 <= v < 2 ** 63:
        raise OverflowError("Python int too large to convert to C long")
    bits = 8 * other.dtype.itemsize
    v &= (1 << bits) - 1
    return v - (1 << bits) if info.min < 0 and v >> (bits - 1) else v


# ---- rearranging ----------------------------------------------------------------------

def repeat(a, repeats, axis=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    else:
        axis = _norm_axis(axis, a.ndim)
    if isinstance(repeats, (int, _np.integer)) and not isinstance(repeats, (bool, _np.bool_)):
        repeats = int(repeats)
    else:
        repeats = _index_arr(repeats)
    return _core.repeat(a, repeats, axis)


def tile(A, reps):
    return _core.tile(_arr(A), _ints(reps))


def roll(a, shift, axis=None):
    a = _arr(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    shifts, axes = _ints(shift), _ints(axis)
    if _np.ndim(shift) > 1 or _np.ndim(axis) > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                         "arg 0 with shape (%d,) and arg 1 with shape (%d,)." % (len(shifts), len(axes)))
    for ax in axes:
        _norm_axis(ax, a.ndim)
    return _core.roll(a, shifts, axes)


def flip(m, axis=None):
    m = _arr(m)
    return _core.flip(m, None if axis is None else _ints(axis))


def fliplr(m):
    m = _arr(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _core.flip(m, (1,))


def flipud(m):
    m = _arr(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _core.flip(m, (0,))


_PAD = {"constant": 0, "edge": 1, "reflect": 2, "symmetric": 3, "wrap": 4}


def _pairs(x, ndim, as_index):
    """NumPy's pad._as_pairs: ((before, after),) * ndim from a scalar, a pair or per-axis pairs."""
    if isinstance(x, ndarray):
        x = x.get()
    arr = _np.asarray(x)
    if as_index:
        if arr.dtype.kind not in "iu" and arr.size:
            if arr.dtype.kind == "f" and _np.all(arr == _np.round(arr)):
                arr = arr.round().astype(_np.intp)
            else:
                raise TypeError("`pad_width` must be of integral type.")
        if arr.size and arr.min() < 0:
            raise ValueError("index can't contain negative values")
    return _np.broadcast_to(arr, (ndim, 2)).tolist()


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad. constant/edge/reflect/symmetric/wrap run on the device; the other modes (and
    reflect_type='odd') run on NumPy."""
    a = _arr(array)
    code = _PAD.get(mode) if isinstance(mode, str) else None
    allowed = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}
    if code is None or set(kwargs) - allowed.get(mode, set()) or kwargs.get("reflect_type", "even") != "even":
        from ._fallback import call_numpy
        return call_numpy("numpy.pad", _np.pad, a, pad_width, mode, **kwargs)
    widths = _pairs(pad_width, a.ndim, True)
    before = [int(w[0]) for w in widths]
    after = [int(w[1]) for w in widths]
    values = None
    if code == 0:
        values = [v for pair in _pairs(kwargs.get("constant_values", 0), a.ndim, False) for v in pair]
    return _core.pad(a, before, after, code, values)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    s0 = (1,) * nd
    out = [_arr(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and nd > 1:
        out[0] = out[0].reshape((1, -1) + s0[2:])
        out[1] = out[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        shape = _np.broadcast_shapes(*(o.shape for o in out))
        out = [broadcast_to(o, shape) for o in out]
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)


def _tri(m, k, upper):
    m = _arr(m)
    if m.ndim == 1:
        m = broadcast_to(m, (m.shape[0],) * 2)
    elif m.ndim == 0:
        raise ValueError("tril/triu requires an array of at least one dimension")
    return _core.tri(m, _operator.index(k), upper)


def tril(m, k=0):
    return _tri(m, k, False)


def triu(m, k=0):
    return _tri(m, k, True)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's diagonal: a read-only view."""
    r = _core.diagonal(_arr(a), _operator.index(offset), _operator.index(axis1), _operator.index(axis2))
    r._writeable(False)
    return r


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    r = _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
    if out is not None:
        out[...] = r
        return out
    return r


def diag(v, k=0):
    v = _arr(v)
    k = _operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        res = zeros((n, n), v.dtype)
        _core.diagonal(res, k, 0, 1)[...] = v
        return res
    if v.ndim == 2:
        return diagonal(v, k, 0, 1)
    raise ValueError("Input must be 1- or 2-d.")


# ---- products ----------------------------------------------------------------------------

def outer(a, b, out=None):
    r = _arr(a).reshape(-1, 1) * _arr(b).reshape(1, -1)
    if out is not None:
        out[...] = r
        return out
    return r


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def tensordot(a, b, axes=2):
    """Sum over the given axes of a and b, as one matrix product of the reshaped operands."""
    a, b = _arr(a), _arr(b)
    try:
        iter(axes)
    except TypeError:
        n = _operator.index(axes)
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError("shape-mismatch for sum")
    else:
        axes_a, axes_b = axes
        axes_a = list(axes_a) if isinstance(axes_a, (list, tuple)) else [axes_a]
        axes_b = list(axes_b) if isinstance(axes_b, (list, tuple)) else [axes_b]
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [_norm_axis(x, a.ndim) for x in axes_a]
    axes_b = [_norm_axis(x, b.ndim) for x in axes_b]
    for x, y in zip(axes_a, axes_b):
        if a.shape[x] != b.shape[y]:
            raise ValueError("shape-mismatch for sum")
    free_a = [d for d in range(a.ndim) if d not in axes_a]
    free_b = [d for d in range(b.ndim) if d not in axes_b]
    k = _prod(a.shape[d] for d in axes_a)
    at = a.transpose(free_a + axes_a).reshape(_prod(a.shape[d] for d in free_a), k)
    bt = b.transpose(axes_b + free_b).reshape(k, _prod(b.shape[d] for d in free_b))
    return (at @ bt).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])


def dot(a, b, out=None):
    """NumPy's dot: a product for scalars, matmul up to 2-d, else a sum over a's last and b's
    second-to-last axis."""
    a, b = _arr(a), _arr(b)
    if a.ndim and b.ndim and a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        shapes = ["(%s)" % ",".join(map(str, s)) if len(s) != 1 else "(%d,)" % s[0] for s in (a.shape, b.shape)]
        raise ValueError("shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)" % (
            shapes[0], shapes[1], a.shape[-1], a.ndim - 1, b.shape[-2 if b.ndim > 1 else 0],
            b.ndim - 2 if b.ndim > 1 else 0))
    if a.ndim == 0 or b.ndim == 0:
        r = a * b
    elif a.ndim <= 2 and b.ndim <= 2:
        r = a @ b
    else:
        r = tensordot(a, b, ([a.ndim - 1], [b.ndim - 2 if b.ndim > 1 else 0]))
    if out is not None:
        out[...] = r
        return out
    return r


def inner(a, b):
    a, b = _arr(a), _arr(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)" % (
            a.shape, b.shape, a.shape[-1], a.ndim - 1, b.shape[-1], b.ndim - 1))
    return tensordot(a, b, ([a.ndim - 1], [b.ndim - 1]))


def vdot(a, b):
    """Dot product of the flattened operands, the first conjugated when complex."""
    a, b = _arr(a).reshape(-1), _arr(b).reshape(-1)
    if a.size != b.size:
        raise ValueError("cannot reshape array of size %d into shape (%d,)" % (b.size, a.size))
    return (a.conj() if a.dtype.kind == "c" else a) @ b


# ---- einsum ---------------------------------------------------------------------------------

def _einsum_parse(subscripts, operands):
    """Per-operand label lists and the output labels, '...' expanded into private labels."""
    s = subscripts.replace(" ", "")
    if "->" in s:
        ins, outs = s.split("->", 1)
        explicit = True
    else:
        ins, outs, explicit = s, "", False
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts "
                         "string" if len(operands) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the subscripts "
                         "string")
    nell = 0
    labels = []
    for i, (t, op) in enumerate(zip(terms, operands)):
        if "..." in t:
            pre, post = t.split("...", 1)
            ne = op.ndim - len(pre) - len(post)
            if ne < 0:
                raise ValueError("einstein sum subscripts string contains too many subscripts for operand %d" % i)
            nell = max(nell, ne)
            labels.append((list(pre), ne, list(post)))
        else:
            if len(t) != op.ndim:
                raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' "
                                 "ellipsis provided to broadcast the extra dimensions." if op.ndim > len(t) else
                                 "einstein sum subscripts string contains too many subscripts for operand %d" % i)
            labels.append((list(t), None, []))
        for c in t.replace("...", ""):
            if not c.isalpha():
                raise ValueError("invalid subscript '%s' in einstein sum subscripts string, subscripts must be "
                                 "letters" % c)
    ell = ["\x00%d" % d for d in range(nell)]  # private labels of the broadcast dims, right-aligned
    full = [pre + (ell[nell - ne:] if ne is not None else []) + post for pre, ne, post in labels]
    if explicit:
        if "..." in outs:
            pre, post = outs.split("...", 1)
            out = list(pre) + ell + list(post)
        else:
            out = list(outs)
            if nell and any(ne for _, ne, _ in labels):
                raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                                 "ellipsis provided to broadcast the extra dimensions.")
        for c in out:
            if not any(c in f for f in full):
                raise ValueError("einstein sum subscripts string included output subscript '%s' which never "
                                 "appeared in an input" % c)
        if len(set(out)) != len(out):
            raise ValueError("einstein sum subscripts string includes output subscript multiple times")
    else:
        counts = {}
        for f in full:
            for c in f:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, n in counts.items() if n == 1 and not c.startswith("\x00"))
    return full, out


def _take_diagonals(op, labels):
    """Repeated labels of one operand ('ii') become one axis: the diagonal (a view)."""
    while len(set(labels)) != len(labels):
        for i, c in enumerate(labels):
            j = labels.index(c, i + 1) if labels.count(c) > 1 else -1
            if j > 0:
                if op.shape[i] != op.shape[j]:
                    raise ValueError("dimensions in operand for collapsing index '%s' don't match (%d != %d)"
                                     % (c, op.shape[i], op.shape[j]))
                op = _core.diagonal(op, 0, i, j)
                labels = [x for k, x in enumerate(labels) if k not in (i, j)] + [c]
                break
    return op, labels


def _sum_out(op, labels, keep, dt):
    """Sums the axes whose labels are not in keep."""
    axes = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not axes:
        return op, labels
    return _sum(op, axis=axes, dtype=dt), [c for c in labels if c in keep]


def _contract(a, la, b, lb, keep, dt):
    """Product of two labelled operands summed over the shared labels not in keep: one batched matmul."""
    sizes = {}
    for op, ls in ((a, la), (b, lb)):
        for c, n in zip(ls, op.shape):
            if c in sizes and n != sizes[c] and 1 not in (n, sizes[c]):
                raise ValueError("operands could not be broadcast together with remapped shapes")
            if c not in sizes or sizes[c] == 1:
                sizes[c] = n
    batch = [c for c in la if c in lb and c in keep]
    con = [c for c in la if c in lb and c not in keep]
    ao = [c for c in la if c not in lb]
    bo = [c for c in lb if c not in la]
    at = broadcast_to(a.transpose([la.index(c) for c in batch + ao + con]),
                      [sizes[c] if c in batch + con else a.shape[la.index(c)] for c in batch + ao + con])
    bt = broadcast_to(b.transpose([lb.index(c) for c in batch + con + bo]),
                      [sizes[c] if c in batch + con else b.shape[lb.index(c)] for c in batch + con + bo])
    nb = _prod(sizes[c] for c in batch)
    m, k, n = _prod(sizes[c] for c in ao), _prod(sizes[c] for c in con), _prod(sizes[c] for c in bo)
    r = at.reshape(nb, m, k) @ bt.reshape(nb, k, n)
    if r.dtype != dt:
        r = r.astype(dt)
    return r.reshape([sizes[c] for c in batch + ao + bo]), batch + ao + bo


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation as diagonals (views), sums, transposes and batched matrix products,
    contracting the operands left to right."""
    if operands and isinstance(operands[0], str) and out is None and _small.host(*operands[1:]):
        return _small.call(_np.einsum, *operands, dtype=dtype, order=order, casting=casting, optimize=optimize)
    if not operands or not isinstance(operands[0], str):
        from ._fallback import call_numpy
        return call_numpy("numpy.einsum", _np.einsum, *operands, out=out, dtype=dtype, order=order,
                          casting=casting, optimize=optimize)
    ops = [_arr(o) for o in operands[1:]]
    labels, out_labels = _einsum_parse(operands[0], ops)
    dt = _np.dtype(dtype) if dtype is not None else _np.result_type(*[o.dtype for o in ops])
    for i, o in enumerate(ops):
        if not _np.can_cast(o.dtype, dt, casting):
            raise TypeError("Iterator operand %d dtype could not be cast from dtype('%s') to dtype('%s') according "
                            "to the rule '%s'" % (i, o.dtype, dt, casting))
    ops = [o if o.dtype == dt else o.astype(dt) for o in ops]
    ops_l = [_take_diagonals(o, list(ls)) for o, ls in zip(ops, labels)]
    for i in range(len(ops_l)):  # labels only one operand has and the output lacks: sum them first
        others = set(out_labels).union(*[set(ls) for j, (_, ls) in enumerate(ops_l) if j != i])
        ops_l[i] = _sum_out(ops_l[i][0], ops_l[i][1], others, dt)
    a, la = ops_l[0]
    for i in range(1, len(ops_l)):
        b, lb = ops_l[i]
        keep = set(out_labels).union(*[set(ls) for _, ls in ops_l[i + 1:]])
        a, la = _contract(a, la, b, lb, keep, dt)
    a, la = _sum_out(a, la, set(out_labels), dt)
    r = a.transpose([la.index(c) for c in out_labels]) if la else a
    if r.dtype != dt:
        r = r.astype(dt)
    if out is not None:
        out[...] = r
        return out
    return r


# ---- ndarray methods ------------------------------------------------------------------

def _method(f):
    def method(self, *args, **kwargs):
        return f(self, *args, **kwargs)
    method.__name__ = f.__name__
    method.__doc__ = f.__doc__
    return _fallback.program_results(method)


ndarray.take = _method(take)
ndarray.put = _method(put)
ndarray.nonzero = _method(nonzero)
ndarray.repeat = _method(repeat)
ndarray.diagonal = _method(diagonal)
ndarray.trace = _method(trace)
ndarray.dot = _method(dot)
