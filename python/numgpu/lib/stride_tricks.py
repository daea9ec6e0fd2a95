"""numpy.lib.stride_tricks on the device: views of a numgpu array's memory with other shapes and
strides (no copy, so writes to the array show through, as in NumPy). NumPy's arrays get NumPy's
own functions."""
import operator as _operator

import numpy as _np

from .. import _core
from .._core import ndarray
from .._fallback import submodule_getattr

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """NumPy's as_strided: a view of x's memory, from its first element, with `shape` and byte
    `strides` (x's own where None). Unlike NumPy's, a view reaching outside x's memory block is a
    ValueError rather than a read of whatever lies there. writeable=False makes it read-only (a
    view of a read-only x is read-only either way)."""
    if not isinstance(x, ndarray):
        return _np.lib.stride_tricks.as_strided(x, shape, strides, subok, writeable)
    shape = x.shape if shape is None else tuple(_operator.index(n) for n in shape)
    strides = x.strides if strides is None else tuple(_operator.index(s) for s in strides)
    return _view(_core.as_strided(x, shape, strides), writeable)


def _view(v, writeable):
    if not writeable:
        v._writeable(False)
    return v


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's sliding_window_view: every window of `window_shape` along `axis` (all axes where
    None) as a view, the windows' axes last; NumPy's errors for bad windows. Read-only unless
    writeable=True (windows overlap: a write shows in several)."""
    if not isinstance(x, ndarray):
        return _np.lib.stride_tricks.sliding_window_view(x, window_shape, axis, subok=subok, writeable=writeable)
    window = tuple(window_shape) if _np.iterable(window_shape) else (window_shape,)
    window = tuple(_operator.index(w) for w in window)
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window) != x.ndim:
            raise ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`; "
                             "got %d window_shape elements and `x.ndim` is %d." % (len(window), x.ndim))
        axes = tuple(range(x.ndim))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window) != len(axes):
            raise ValueError("Must provide matching length window_shape and axis; got %d window_shape elements "
                             "and %d axes elements." % (len(window), len(axes)))
    shape = list(x.shape)
    for ax, w in zip(axes, window):
        if shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    return _view(_core.as_strided(x, tuple(shape) + window, x.strides + tuple(x.strides[ax] for ax in axes)), writeable)


def __getattr__(name):
    return submodule_getattr("numpy.lib.stride_tricks", name)
