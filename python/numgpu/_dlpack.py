"""DLPack: ndarray.__dlpack__ / __dlpack_device__ and numgpu.from_dlpack.

The capsules themselves are made and read in C (src/pymod/dlpack.c); this
module is the protocol's logic: which device, whether to copy, streams.
Device types are DLPack's: kDLCPU = 1, kDLCUDA = 2, kDLOpenCL = 4.

Zero-copy where the devices match: a numgpu array on `cpu` and a NumPy
array share memory both ways; a numgpu array on `cuda:N` and a CuPy, PyTorch
or JAX tensor on the same GPU share device memory. Otherwise a copy is made
when copy= allows it (None or True), else BufferError, as the Array API
standard says.
"""
from . import _core
from ._core import ndarray

__all__ = ["from_dlpack"]

kDLCPU, kDLCUDA, kDLOpenCL = 1, 2, 4
_FLAG_READ_ONLY, _FLAG_IS_COPIED = 1, 2
_KINDS = {kDLCPU: "cpu", kDLCUDA: "cuda", kDLOpenCL: "opencl"}


def _spec(dl_device):
    """numgpu device spec ("cpu", "cuda:1") of a DLPack (type, id) pair."""
    kind, index = int(dl_device[0]), int(dl_device[1])
    if kind not in _KINDS:
        raise BufferError("numgpu has no device for DLPack device type %d" % kind)
    return "cpu" if kind == kDLCPU else "%s:%d" % (_KINDS[kind], index)


def _dl_device(spec):
    """DLPack (type, id) of a numgpu device spec or name."""
    kind, _, index = str(spec).partition(":")
    for k, name in _KINDS.items():
        if name == kind:
            return (k, int(index or 0))
    raise BufferError("DLPack has no device type for numgpu device %r" % (spec,))


def __dlpack_device__(self):
    """(device type, device id) as DLPack names them: (1, 0) for cpu, (2, N) for cuda:N, (4, N) for opencl:N."""
    return _core.dlpack_device(self)


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """Exports the array as a DLPack capsule ("dltensor_versioned" when
    max_version >= (1, 0), else the legacy "dltensor")."""
    here = _core.dlpack_device(self)
    x, copied = self, False
    if dl_device is not None and tuple(dl_device) != here:
        if copy is False:
            raise BufferError("array is on %s; DLPack device %s asked for with copy=False"
                              % (self.device, tuple(dl_device)))
        x, copied = self.to(_spec(dl_device)), True
        here = tuple(dl_device)
    elif copy:
        x, copied = self.copy(), True
    if here[0] == kDLCPU:
        if stream is not None:
            raise ValueError("stream must be None for arrays on the cpu device, got %r" % (stream,))
    elif stream != -1:
        # Our work is queued on the device's default stream: finishing it
        # makes the data ready for any consumer stream.
        _core.synchronize(x.device)
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _core.dlpack_export(x, versioned, copied)


def from_dlpack(x, /, *, device=None, copy=None):
    """numgpu array from any DLPack producer (NumPy, CuPy, PyTorch, JAX, numgpu).

    Zero-copy when the producer's memory is on a numgpu device (host memory
    -> cpu, a CUDA GPU -> cuda:N) and device= is None or that device; a copy
    when copy=True, or when device= names another device (unless copy=False:
    then BufferError). A read-only tensor gives a read-only array, as NumPy's.
    """
    if not hasattr(x, "__dlpack__"):
        raise TypeError("from_dlpack: %s does not support the DLPack protocol (no __dlpack__ method)"
                        % type(x).__name__)
    src = tuple(x.__dlpack_device__()) if hasattr(x, "__dlpack_device__") else None
    want = None if device is None else _dl_device(device)
    kwargs = {"max_version": (1, 0), "copy": copy}
    if src is not None and src[0] == kDLCUDA:
        kwargs["stream"] = 1  # numgpu's CUDA work runs on the legacy default stream
    if want is not None and want != src and want[0] == kDLCPU:
        kwargs["dl_device"] = want  # the producer can copy to host memory itself
    try:
        cap = x.__dlpack__(**kwargs)
    except TypeError:  # a producer from before DLPack 1.0's keywords
        if copy is True:
            raise BufferError("from_dlpack(copy=True): the producer does not support copy=") from None
        cap = x.__dlpack__(stream=kwargs["stream"]) if "stream" in kwargs else x.__dlpack__()
    arr, flags = _core.dlpack_import(cap)
    copied = bool(flags & _FLAG_IS_COPIED)
    if want is not None and _dl_device(arr.device) != want:
        if copy is False:
            raise BufferError("from_dlpack: tensor is on %s, device=%r asked for with copy=False"
                              % (arr.device, device))
        arr, copied = arr.to(_spec(want)), True
    if copy and not copied:
        arr = arr.copy()
    elif flags & _FLAG_READ_ONLY and not copied:
        arr._writeable(False)
    return arr


ndarray.__dlpack__ = __dlpack__
ndarray.__dlpack_device__ = __dlpack_device__
