"""numgpu.lib.array_utils: NumPy's, with byte_bounds reading a numgpu array's own memory (the
fallback's download would give a copy's addresses: `byte_bounds(V)[0] - byte_bounds(Z)[0]` of a
view V of Z was any number)."""
import numpy as _np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple  # noqa: F401 (NumPy's: ints only)

from .. import ndarray
from .._fallback import submodule_getattr


def byte_bounds(a):
    """The (low, high) byte addresses a's elements span, as NumPy's. On cpu the array's own
    memory; device memory has no host addresses: there the bounds are offsets from one made-up
    base, so differences between arrays of one buffer (a view and its base) are NumPy's."""
    if not isinstance(a, ndarray):
        return _np.lib.array_utils.byte_bounds(a)
    if a.device.startswith("cpu"):
        return _np.lib.array_utils.byte_bounds(_np.asarray(a))   # (a zero-copy view of its memory)
    from .. import _Layout
    return _np.lib.array_utils.byte_bounds(_np.asarray(_Layout(a)))


def __getattr__(name):
    return submodule_getattr("numpy.lib.array_utils", name)
