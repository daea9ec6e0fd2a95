"""NumPy's index tricks and in-place selection helpers on device arrays (unravel_index,
ravel_multi_index, ix_, fill_diagonal, putmask, place, extract, compress, choose, resize, block, ...),
as compositions of numgpu's device ops.

Each function is NumPy's own definition (numpy/lib/_index_tricks_impl.py, _function_base_impl.py,
_shape_base_impl.py, _twodim_base_impl.py, numpy/_core/fromnumeric.py, numeric.py, shape_base.py,
_asarray.py, and the C loops of compiled_base.c and item_selection.c) written op for op over
numgpu's ops. The data stays on the device: only a count, an any() flag or a single bad index
(for the error message) is read back. The in-place functions change a numgpu array on the device;
given NumPy's own array (or a list) they are NumPy's functions, which change it (or raise) there.
"""
import itertools as _itertools
import operator as _operator

import numpy as _np

from . import _core, ndarray
from . import (arange, argmax, array, asarray, broadcast_arrays, clip, concatenate,
               copyto, count_nonzero, diag, empty, expand_dims, flatnonzero, indices, nonzero, ones, put, take,
               tile, transpose, zeros_like)
from ._extra import _dtype_of, _tri
from ._fallback import down as _down
from ._manip import _into, _mode
from ._sorting import _norm_axis

__all__ = [
    "unravel_index", "ravel_multi_index", "ix_", "fill_diagonal", "putmask", "place", "extract", "compress",
    "choose", "resize", "block", "fromfunction", "apply_along_axis", "apply_over_axes", "diagflat", "tri",
    "mask_indices", "asfortranarray", "require", "frombuffer",
]

_INTP_MAX = _np.iinfo(_np.intp).max
_RAISE, _WRAP = _mode("raise"), _mode("wrap")


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _int_indices(x):
    """NumPy's astype_anyint: x as an integer (or bool) array, cast to intp; its TypeErrors for
    other data and for an empty list (which NumPy would make float64)."""
    given = x
    x = _arr(x)
    if x.dtype.kind not in "biu":
        if x.size == 0 and not isinstance(given, (ndarray, _np.ndarray)):
            raise TypeError("indices must be integral: the provided empty sequence was inferred as float. "
                            "Wrap it with 'np.array(indices, dtype=np.intp)'")
        raise TypeError("only int indices permitted")
    return x.astype(_np.intp, copy=False)


def _dims(shape):
    """A shape argument (an int or a sequence of ints) as a tuple (NumPy's PyArray_IntpConverter)."""
    try:
        return (_operator.index(shape),)
    except TypeError:
        return tuple(_operator.index(d) for d in shape)


def _order(order):
    """'C' or 'F' from NumPy's order argument; its errors for the others."""
    if order is None:
        return "C"
    if not isinstance(order, str):
        raise TypeError("order must be str, not %s" % type(order).__name__)
    if order.upper() in ("C", "F"):
        return order.upper()
    if order.upper() in ("A", "K"):
        raise ValueError("only 'C' or 'F' order is permitted")
    raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))


def _outside(c, n):
    """Whether an entry of the integer array c lies outside [0, n): its min and max read back."""
    return c.size > 0 and (int(c.min()) < 0 or int(c.max()) >= n)


def _into_range(c, n, mode, what):
    """The integer array c brought into [0, n) by mode: wrapped, clipped, or (raise) checked, with
    NumPy's ValueError naming `what` where an entry lies outside."""
    if mode == _RAISE:
        if _outside(c, n):
            raise ValueError("invalid entry in %s" % what)
        return c
    return c % n if mode == _WRAP else clip(c, 0, n - 1)


def _values(v, dtype):
    """NumPy's PyArray_FromAny(v, dtype) without forcecast: arrays cast when 'safe' (NumPy's
    TypeError otherwise); Python numbers and lists converted to dtype as NumPy converts them."""
    if isinstance(v, (ndarray, _np.ndarray)):
        if not _np.can_cast(v.dtype, dtype, "safe"):
            raise TypeError("Cannot cast array data from %r to %r according to the rule 'safe'" % (v.dtype, dtype))
        return _arr(v).astype(dtype, copy=False)
    return asarray(v, dtype=dtype)


# ---- flat positions and coordinates ---------------------------------------------------------

def unravel_index(indices, shape, order="C"):
    """The coordinates in an array of `shape` of the flat positions `indices`: one intp array per
    axis, each the remainder of the position by that axis's length, the quotient going on to the
    next axis (from the last axis: C order; from the first: F); the quotient left is the
    outermost coordinate."""
    dims = _dims(shape)
    size = 1
    for d in dims:
        size *= d
    if abs(size) > _INTP_MAX:
        raise ValueError("dimensions are too large; arrays and shapes with a total size greater than 'intp' are not "
                         "supported.")
    idx = _int_indices(indices)
    order = _order(order)
    if _outside(idx, size):
        bad = ((idx < 0) | (idx >= size)).reshape(-1)
        raise ValueError("index %d is out of bounds for array with size %d"
                         % (int(idx.reshape(-1)[int(argmax(bad))]), size))
    if not dims:
        return ()
    coords = []
    for d in (dims[:0:-1] if order == "C" else dims[:-1]):
        coords.append(idx % d)
        idx = idx // d
    coords.append(idx if len(dims) > 1 else idx.copy())   # (never the caller's own array)
    return tuple(coords[::-1] if order == "C" else coords)


def _clipmodes(mode, n):
    """One take/put clip mode per axis, from one mode or a sequence of them."""
    if isinstance(mode, (list, tuple)):
        if len(mode) != n:
            raise ValueError("list of clipmodes has wrong length (%d instead of %d)" % (len(mode), n))
        return [_mode(m) for m in mode]
    return [_mode(mode)] * n


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat positions in an array of shape `dims` of the coordinates `multi_index` (one integer
    array per axis, broadcast together): each coordinate checked ('raise'), wrapped or clipped to
    its axis as its mode says, times the axis's stride, summed."""
    dims = _dims(dims)
    modes = _clipmodes(mode, len(dims))
    order = _order(order)
    strides, s = [0] * len(dims), 1
    for i in (range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))):
        strides[i] = s
        s *= dims[i]
        if abs(s) > _INTP_MAX:
            raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length %d" % len(dims))
    coords = broadcast_arrays(*[_int_indices(multi_index[i]) for i in range(len(dims))])
    if coords and coords[0].size and 0 in dims:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    raveled = asarray(0, dtype=_np.intp)
    for i, (c, d, m, stride) in enumerate(zip(coords, dims, modes, strides)):
        c = _into_range(c, d, m, "coordinates array")
        raveled = c * stride if i == 0 else raveled + c * stride
    return raveled


def ix_(*args):
    """An open mesh from 1-d sequences: the k-th (booleans: their True positions) reshaped to lie
    along axis k of len(args) axes (views of the numgpu arrays given)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, (ndarray, _np.ndarray)):
            new = asarray(new)
            if new.size == 0:   # (empty lists are float: index arrays need ints)
                new = new.astype(_np.intp)
        new = _arr(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == bool:
            new, = nonzero(new)
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


# ---- writing in place -----------------------------------------------------------------------

def fill_diagonal(a, val, wrap=False):
    """val written on the main diagonal of a (2-d, or all axes of one length), in place: NumPy's
    a.flat[:end:step] = val, val cast to a's dtype and repeated as needed. A tall 2-d matrix's
    diagonal stops at its last column, or, with wrap, starts again in column 0 after a row left
    out."""
    if not isinstance(a, ndarray):
        return _np.fill_diagonal(a, _down(val), wrap)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = sum(a.shape[0] ** i for i in range(a.ndim))
    count = len(range(*slice(None, end, step).indices(a.size)))
    v = _arr(val).astype(a.dtype) if isinstance(val, (ndarray, _np.ndarray)) else asarray(val, dtype=a.dtype)
    if v.size == 0 or count == 0:
        return None
    v = v.reshape(()) if v.size == 1 else resize(v, count)   # (one value: the assignment broadcasts it)
    if a.flags.c_contiguous:
        a.reshape(-1)[:end:step] = v
    else:
        put(a, arange(0, a.size if end is None else min(end, a.size), step), v)
    return None


def putmask(a, mask, values):
    """a.flat[i] = values.flat[i % values.size] where mask.flat[i], in place: values repeated over
    a's shape, written where the mask (any dtype, a's size) is nonzero."""
    if not isinstance(a, ndarray):
        return _np.putmask(a, _down(mask), _down(values))
    mask = _arr(mask)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    v = _values(values, a.dtype)
    if v.size == 0:
        return None
    copyto(a, resize(v, a.shape), where=mask.reshape(a.shape).astype(bool, copy=False))
    return None


def place(arr, mask, vals):
    """arr's elements where mask is nonzero replaced, in place and in C order, by vals' first ones
    (vals repeated as needed)."""
    if not isinstance(arr, ndarray):
        return _np.place(arr, _down(mask), _down(vals))
    mask = _arr(mask)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    v = _values(vals, arr.dtype)
    mask = mask.reshape(arr.shape).astype(bool, copy=False)
    count = int(count_nonzero(mask))
    if count == 0:
        return None
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[mask] = resize(v, count)
    return None


# ---- selecting ------------------------------------------------------------------------------

def extract(condition, arr):
    """The elements of the flattened arr where the flattened condition is nonzero."""
    return take(_arr(arr).reshape(-1), flatnonzero(condition))


def compress(condition, a, axis=None, out=None):
    """The slices of a along axis (None: the flattened elements) where the 1-d condition is
    nonzero: a gather of condition's nonzero positions (which must lie inside the axis)."""
    condition = _arr(condition)
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return _into(out, take(a, flatnonzero(condition), axis=axis), "take")


def choose(a, choices, out=None, mode="raise"):
    """choices[a[I]][I] at each position I of a and the choices broadcast together: the first
    choice, then each other written where a selects it. mode: an entry of a outside
    [0, len(choices)) raises ValueError ('raise'), wraps around ('wrap') or is clipped ('clip')."""
    m = _mode(mode)
    a = _arr(a)
    if not _np.can_cast(a.dtype, _np.intp, "safe"):
        raise TypeError("Cannot cast array data from %r to %r according to the rule 'safe'"
                        % (a.dtype, _np.dtype(_np.intp)))
    choices = list(choices)
    if not choices:
        raise ValueError("0-length sequence.")
    dt = _np.result_type(*[_dtype_of(c) for c in choices])
    a, *choices = broadcast_arrays(a, *[_arr(c).astype(dt, copy=False) for c in choices])
    n = len(choices)
    a = _into_range(a, n, m, "choice array")
    r = empty(a.shape, dt)
    r[...] = choices[0]
    for k in range(1, n):
        copyto(r, choices[k], where=a == k)
    return _into(out, r, "choose")


# ---- making arrays --------------------------------------------------------------------------

def resize(a, new_shape):
    """A new array of new_shape filled with a's flattened elements, repeated as needed (zeros
    where a is empty)."""
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (new_shape,)
    a = _arr(a).reshape(-1)
    new_size = 1
    for dim_length in new_shape:
        new_size *= dim_length
        if dim_length < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return zeros_like(a, shape=new_shape)
    repeats = -(-new_size // a.size)
    return tile(a, repeats)[:new_size].reshape(new_shape)


def _block_format_index(index):
    """'arrays[1][0]': where in block's nested lists an element is."""
    return "arrays" + "".join("[{}]".format(i) for i in index if i is not None)


def _block_check_depths_match(arrays, parent_index=()):
    """NumPy's: (index of the first innermost element, the largest ndim of the elements); every
    element must be equally deep in the nested lists, none a tuple, no list empty."""
    if type(arrays) is tuple:
        raise TypeError("{} is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                        "implicit conversion from tuple to ndarray.".format(_block_format_index(parent_index)))
    if type(arrays) is list and len(arrays) > 0:
        idxs_ndims = (_block_check_depths_match(arr, parent_index + (i,)) for i, arr in enumerate(arrays))
        first_index, max_arr_ndim = next(idxs_ndims)
        for index, ndim in idxs_ndims:
            max_arr_ndim = max(max_arr_ndim, ndim)
            if len(index) != len(first_index):
                raise ValueError("List depths are mismatched. First element was at depth {}, but there is an element "
                                 "at depth {} ({})".format(len(first_index), len(index), _block_format_index(index)))
            if index[-1] is None:   # (an empty list at the bottom)
                first_index = index
        return first_index, max_arr_ndim
    if type(arrays) is list:
        return parent_index + (None,), 0
    return parent_index, arrays.ndim if isinstance(arrays, ndarray) else _np.ndim(arrays)


def _block(arrays, max_depth, result_ndim, depth=0):
    """The nested lists joined from the innermost out: the innermost along the last axis."""
    if depth < max_depth:
        arrs = [_block(arr, max_depth, result_ndim, depth + 1) for arr in arrays]
        return concatenate(arrs, axis=-(max_depth - depth))
    return array(arrays, ndmin=result_ndim, copy=None)


def block(arrays):
    """An array assembled from nested lists of blocks: the innermost lists joined along the last
    axis, the next along the second-to-last, and so on (NumPy's concatenation path)."""
    bottom_index, arr_ndim = _block_check_depths_match(arrays)
    list_ndim = len(bottom_index)
    if bottom_index and bottom_index[-1] is None:
        raise ValueError("List at {} cannot be empty".format(_block_format_index(bottom_index)))
    result = _block(arrays, list_ndim, max(arr_ndim, list_ndim))
    return result.copy() if list_ndim == 0 else result


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices(shape, dtype), **kwargs): one call, with one device index array per axis.
    (like= is accepted as NumPy's: the arrays made are numgpu's.)"""
    return function(*indices(shape, dtype=dtype), **kwargs)


def host_memory_view(h):
    """NumPy's array h over memory someone else owns (a bytearray, shared memory, an mmap) as an
    array that shares it, as NumPy's does: on cpu a numgpu array viewing that memory, no copy
    (read-only where the memory is); on a GPU, which cannot view host memory, h itself (NumPy's
    host data: numgpu's functions upload it when given it)."""
    v = _core.host_view(h)
    return h if v is None else v


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """NumPy's frombuffer: an array over the buffer's own memory, so that writes reach it (a
    bytes object gives a read-only array), through host_memory_view."""
    return host_memory_view(_np.frombuffer(buffer, dtype, count, offset))


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d(slice, *args, **kwargs) for each 1-d slice of arr along axis (NumPy's Python loop; the
    slices are numgpu views), the results stacked where the axis was."""
    arr = _arr(arr)
    nd = arr.ndim
    axis = _norm_axis(axis, nd)
    in_dims = list(range(nd))
    inarr_view = transpose(arr, in_dims[:axis] + in_dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in _itertools.product(*map(range, inarr_view.shape[:-1])))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _arr(func1d(inarr_view[ind0], *args, **kwargs))
    buff = zeros_like(res, shape=inarr_view.shape[:-1] + res.shape)
    buff_dims = list(range(buff.ndim))
    buff_permute = (buff_dims[0:axis] + buff_dims[buff.ndim - res.ndim:buff.ndim]
                    + buff_dims[axis:buff.ndim - res.ndim])
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _arr(func1d(inarr_view[ind], *args, **kwargs))
    return transpose(buff, buff_permute)


def apply_over_axes(func, a, axes):
    """func(a, axis) for each axis in turn, each result (its axis put back where it was reduced
    away) the next call's input."""
    val = _arr(a)
    N = a.ndim    # (a's own, as NumPy's: a list has none)
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


def diagflat(v, k=0):
    """A 2-d array with the flattened v on its k-th diagonal, zeros elsewhere."""
    return diag(_arr(v).reshape(-1), k)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """An N x M (M: N) array with ones at and below the k-th diagonal, zeros above.
    (like= is accepted as NumPy's.)"""
    return _tri(N, M, k).astype(dtype, copy=False)


def mask_indices(n, mask_func, k=0):
    """(rows, columns) where mask_func(ones((n, n), int), k) is nonzero (mask_func: triu, tril, ...)."""
    a = mask_func(ones((n, n), int), k)
    return nonzero(a != 0)


# ---- layouts ---------------------------------------------------------------------------------

def asfortranarray(a, dtype=None, *, like=None):
    """a (at least 1-d) laid out in Fortran order: itself where it already is (and of dtype), else
    a copy. (like= is accepted as NumPy's.)"""
    return array(a, dtype=dtype, copy=None, order="F", ndmin=1)


_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
          "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
          "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an array of dtype meeting the flags in `requirements` (C or F order, aligned,
    writeable, owning its data; E: a base-class array, which every numgpu array is): a itself
    where it does, else a copy in the order asked for. (like= is accepted as NumPy's.)"""
    if not requirements:
        return asarray(a, dtype=dtype)
    requirements = {_FLAGS[x.upper()] for x in requirements} - {"E"}
    if requirements >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    arr = asarray(a, dtype=dtype)
    if "C" in requirements:
        arr = array(arr, copy=None, order="C")
    elif "F" in requirements:
        arr = array(arr, copy=None, order="F")
    for prop in requirements - {"C", "F"}:
        if not arr.flags[prop]:
            fortran = "F" in requirements or ("C" not in requirements and arr.flags.f_contiguous)
            return arr.copy(order="F" if fortran else "C")
    return arr


# ---- ndarray methods ------------------------------------------------------------------------

ndarray.compress = lambda self, condition, axis=None, out=None: compress(condition, self, axis, out)
ndarray.choose = lambda self, choices, out=None, mode="raise": choose(self, choices, out, mode)
