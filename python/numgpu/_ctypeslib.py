"""numpy.ctypeslib as a script sees it under `numgpu run` (the shim's numpy.ctypeslib, _run.py):
NumPy's functions, with the script's numgpu arrays given as the memory they are.

    as_ctypes(x)    NumPy's ctypes array over the memory of a cpu array (writes through it reach x;
                    it keeps x alive); a GPU array has no host memory: BufferError naming x.get()
                    (a ctypes array over a downloaded copy would lose every write, as it did).
    ndpointer(...)  NumPy's argtypes class, whose from_param takes a numgpu array on cpu as NumPy's
                    view of its memory (C functions write into it) and refuses a GPU array
                    (BufferError; NumPy's refused every numgpu array: "argument must be an ndarray").
    as_array(obj)   NumPy's array over a ctypes object's memory: on cpu a numgpu array over that
                    memory, on a GPU NumPy's own (a device copy would not see the C side's writes);
                    a numgpu array given is returned as it is (NumPy's returns its own array).
Everything else in numpy.ctypeslib (load_library, as_ctypes_type, c_intp) is NumPy's own.
"""
import numpy as _np
from numpy import ctypeslib as _nc

from . import _fallback, _methods
from ._core import ndarray

OWN = ("as_ctypes", "ndpointer", "as_array")


def _memory(x, what):
    """NumPy's view of numgpu array x's memory (cpu), or the BufferError of a GPU array."""
    if x.device != "cpu":
        raise _methods._no_host_memory(x, what)
    return _np.asarray(x)


def as_ctypes(obj):
    """NumPy's numpy.ctypeslib.as_ctypes, of a numgpu array's own memory (cpu)."""
    return _nc.as_ctypes(_memory(obj, "as_ctypes(x)") if isinstance(obj, ndarray) else obj)


def as_array(obj, shape=None):
    """NumPy's numpy.ctypeslib.as_array: on cpu a numgpu array over the ctypes memory (no copy)."""
    if isinstance(obj, ndarray):
        return obj
    r = _nc.as_array(obj, shape)
    v = _fallback.host_result(r) if _numgpu_on_host() else None
    return r if v is None else v


def _numgpu_on_host():
    import numgpu
    return numgpu.get_device().startswith("cpu")


_pointer_types = {}     # NumPy's ndpointer class -> ours


def ndpointer(dtype=None, ndim=None, shape=None, flags=None):
    """NumPy's numpy.ctypeslib.ndpointer class, its from_param taking numgpu arrays on cpu (NumPy's
    view of their memory: what C writes reaches the array) and refusing GPU arrays (BufferError)."""
    base = _nc.ndpointer(dtype, ndim, shape, flags)
    cls = _pointer_types.get(base)
    if cls is None:
        def from_param(cls, obj):
            if isinstance(obj, ndarray):
                obj = _memory(obj, "a ctypes argument (ndpointer)")
            return base.from_param.__func__(cls, obj)
        cls = _pointer_types[base] = type(base.__name__, (base,), {"from_param": classmethod(from_param),
                                                                  "__module__": base.__module__})
    return cls
