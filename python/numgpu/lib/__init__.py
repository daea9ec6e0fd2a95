"""numgpu.lib: the parts of numpy.lib numgpu runs on the device (stride_tricks); the rest is
NumPy's, through the fallback (array_utils: NumPy's, byte_bounds of numgpu arrays' own memory)."""
from . import array_utils, stride_tricks  # noqa: F401
from .._fallback import submodule_getattr


def __getattr__(name):
    return submodule_getattr("numpy.lib", name)
