"""DLPack: ndarray.__dlpack__ / __dlpack_device__ and numgpu.from_dlpack.

NumPy is the other side: on the cpu device a NumPy array and a numgpu array
exchanged through DLPack share memory (writes through one show in the
other); on other devices the exchange copies when allowed and raises
BufferError when not. PyTorch is used too where it is installed.
"""
import gc
import re
import sys

import numpy as np
import pytest

import helpers
import numgpu as ng

ON_CPU = ng.get_device() == "cpu"
cpu_only = pytest.mark.skipif(not ON_CPU, reason="zero-copy sharing with NumPy needs the cpu device")
has_opencl = pytest.mark.skipif(not ng.is_available("opencl"), reason="needs an OpenCL device")


def capsule_name(cap):
    return re.search(r'capsule object "([^"]*)"', repr(cap)).group(1)


def views(a):
    """a and some views of it: strided, offset, negative strides, transposed, 0-d, empty."""
    yield a
    yield a[::2]
    yield a[1:, ::-1]
    yield a.T
    yield a[2, 1:]
    yield a[0, 0, ...]  # a 0-d view
    yield a[:0]


# ---- NumPy -> numgpu ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", helpers.ALL, ids=helpers.dtype_id)
def test_from_numpy_every_dtype_and_layout(dtype):
    base = helpers.data(dtype, (4, 5))
    for v in views(base):
        v = np.asarray(v)
        x = ng.from_dlpack(v)
        assert isinstance(x, ng.ndarray) and x.device == "cpu"
        assert x.shape == v.shape and x.dtype == v.dtype
        np.testing.assert_array_equal(x.get(), v)


def test_from_numpy_is_zero_copy():
    a = np.arange(12.0).reshape(3, 4)
    x = ng.from_dlpack(a[:, 1::2])
    a[0, 1] = 100.0
    assert x.get()[0, 0] == 100.0
    x[2, 1] = -5.0  # a numgpu write lands in NumPy's memory
    assert a[2, 3] == -5.0


def test_producer_deleted_first_numpy():
    a = np.arange(1000, dtype=np.int32)
    x = ng.from_dlpack(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(x.get(), np.arange(1000, dtype=np.int32))
    ref = sys.getrefcount
    b = np.arange(10.0)
    before = ref(b)
    y = ng.from_dlpack(b)
    assert ref(b) > before  # the tensor keeps NumPy's array alive...
    del y
    gc.collect()
    assert ref(b) == before  # ...until our last view goes


def test_copy_and_device_arguments():
    a = np.arange(6.0)
    x = ng.from_dlpack(a, copy=True)
    a[0] = 9.0
    assert x.get()[0] == 0.0
    y = ng.from_dlpack(a, device="cpu", copy=False)
    a[1] = 7.0
    assert y.get()[1] == 7.0


def test_read_only_tensors_stay_read_only():
    a = np.arange(5.0)
    a.flags.writeable = False
    ref = np.from_dlpack(a)
    for kw in ({}, {"copy": False}):
        x = ng.from_dlpack(a, **kw)
        np.testing.assert_array_equal(x.get(), a)
        assert x.flags.writeable == ref.flags.writeable == False
        with pytest.raises(ValueError, match="read-only"):
            x[0] = 3.0
        with pytest.raises(ValueError, match="read-only"):
            x += 1
    assert a[0] == 0.0
    y = ng.from_dlpack(a, copy=True)     # a copy of its own: writeable
    y[0] = 3.0
    assert a[0] == 0.0 and y.get()[0] == 3.0
    ro = ng.arange(4.0)
    ro.flags.writeable = False
    if ro.device == "cpu":
        back = np.from_dlpack(ro)        # numgpu's export says read-only (cpu: NumPy views it)
        assert not back.flags.writeable


def test_from_dlpack_errors():
    with pytest.raises(TypeError, match="DLPack"):
        ng.from_dlpack([1, 2, 3])
    cap = np.arange(3).__dlpack__()
    ng_arr = ng.asarray(np.arange(3))
    with pytest.raises(TypeError, match="capsule"):
        ng._core.dlpack_import(ng_arr)
    ng._core.dlpack_import(cap)
    assert capsule_name(cap) == "used_dltensor"
    with pytest.raises(BufferError, match="consumed"):
        ng._core.dlpack_import(cap)


# ---- numgpu -> NumPy and back ------------------------------------------------------------------


def test_dlpack_device():
    x = ng.arange(3)
    kind, _, idx = x.device.partition(":")
    assert x.__dlpack_device__() == ({"cpu": 1, "cuda": 2, "opencl": 4}[kind], int(idx or 0))


def test_capsule_names_and_versions():
    x = ng.arange(4.0)
    assert capsule_name(x.__dlpack__()) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(x.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(x.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"


def test_unconsumed_capsules_release_the_buffer():
    gc.collect()
    before = ng.stats()["buffers_in_use"]
    x = ng.arange(100.0)
    caps = [x.__dlpack__(), x.__dlpack__(max_version=(1, 0))]
    del x
    gc.collect()
    assert ng.stats()["buffers_in_use"] == before + 1  # the capsules hold it
    del caps
    gc.collect()
    assert ng.stats()["buffers_in_use"] == before


@cpu_only
@pytest.mark.parametrize("dtype", helpers.ALL, ids=helpers.dtype_id)
def test_numpy_from_numgpu_every_dtype_and_layout(dtype):
    base = helpers.data(dtype, (4, 5))
    for v in views(base):
        v = np.asarray(v)
        x = view_like(ng.asarray(base), base, v)
        a = np.from_dlpack(x)
        assert a.dtype == v.dtype and a.shape == v.shape
        np.testing.assert_array_equal(a, v)


def view_like(x, base, v):
    """The numgpu view of x that v is of base (same index expression)."""
    for expr in (lambda t: t, lambda t: t[::2], lambda t: t[1:, ::-1], lambda t: t.T, lambda t: t[2, 1:],
                 lambda t: t[0, 0, ...], lambda t: t[:0]):
        w = np.asarray(expr(base))
        if w.shape == v.shape and w.strides == v.strides and np.array_equal(w, v):
            return expr(x)
    raise AssertionError("no view")


@cpu_only
def test_numpy_view_writes_through_both_ways():
    x = ng.zeros((3, 4))
    a = np.from_dlpack(x[1:, ::2])
    a[0, 1] = 5.0
    assert x.get()[1, 2] == 5.0
    x[2, 0] = 7.0
    assert a[1, 0] == 7.0


@cpu_only
def test_producer_deleted_first_numgpu():
    x = ng.arange(50.0)
    a = np.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(a, np.arange(50.0))
    b = np.from_dlpack(ng.arange(5, dtype=np.int8)[::-1])  # a temporary producer
    gc.collect()
    assert b.tolist() == [4, 3, 2, 1, 0]


@cpu_only
def test_round_trip_numgpu_numpy_numgpu():
    x = ng.arange(10.0)
    y = ng.from_dlpack(np.from_dlpack(x))
    y[3] = -1.0
    assert x.get()[3] == -1.0
    z = ng.from_dlpack(x[::3])  # numgpu -> numgpu shares the buffer
    z[1] = 42.0
    assert x.get()[3] == 42.0


def test_copy_true_gives_separate_memory():
    x = ng.arange(4.0)
    y = ng.from_dlpack(x, copy=True)
    y[0] = 9.0
    assert x.get()[0] == 0.0
    a = np.from_dlpack(x, copy=True) if ON_CPU else np.from_dlpack(x, device="cpu")
    a[1] = 9.0
    assert x.get()[1] == 1.0


def test_cpu_stream_must_be_none():
    if not ON_CPU:
        pytest.skip("cpu device only")
    with pytest.raises(ValueError, match="stream"):
        ng.arange(3).__dlpack__(stream=1)


# ---- other devices: copies or BufferError ------------------------------------------------------


@has_opencl
def test_opencl_arrays():
    with ng.use("opencl"):
        x = ng.arange(12.0).reshape(3, 4)[:, 1:]
    assert x.__dlpack_device__() == (4, int(x.device.partition(":")[2] or 0))
    with pytest.raises((BufferError, RuntimeError), match="[Uu]nsupported device"):
        np.from_dlpack(x)  # NumPy cannot read an OpenCL buffer (its error type is RuntimeError)
    with pytest.raises(BufferError, match="copy=False"):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    a = np.from_dlpack(x, device="cpu")  # asked for host memory: a copy
    np.testing.assert_array_equal(a, np.arange(12.0).reshape(3, 4)[:, 1:])
    y = ng.from_dlpack(x)  # numgpu's own capsule: shared on opencl
    assert y.device == x.device
    y[0, 0] = -3.0
    assert x.get()[0, 0] == -3.0
    z = ng.from_dlpack(x, device="cpu")
    assert z.device == "cpu"
    np.testing.assert_array_equal(z.get(), x.get())
    w = ng.from_dlpack(np.arange(3.0), device=x.device)  # host tensor onto opencl: a copy
    assert w.device == x.device and w.get().tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(BufferError, match="copy=False"):
        ng.from_dlpack(np.arange(3.0), device=x.device, copy=False)


# ---- PyTorch, where installed ------------------------------------------------------------------


def test_torch_cpu_round_trip():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = ng.from_dlpack(t)
    assert x.device == "cpu"
    t[0, 0] = 5.0
    assert x.get()[0, 0] == 5.0
    if ON_CPU:
        u = torch.from_dlpack(x)
        u[1, 1] = -1.0
        assert x.get()[1, 1] == -1.0


# ---- the dtype field, as NumPy writes it ---------------------------------------------------------


def _capsule_dtype(cap, versioned):
    """(code, bits, lanes) of the DLTensor in a capsule, read with ctypes (the capsule stays unconsumed)."""
    import ctypes

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                    ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16)]

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    p = get(cap, b"dltensor_versioned" if versioned else b"dltensor")
    # DLManagedTensorVersioned: version (2 x uint32), manager_ctx, deleter, flags (uint64), then the tensor
    offset = 8 + 2 * ctypes.sizeof(ctypes.c_void_p) + 8 if versioned else 0
    t = DLTensor.from_address(p + offset)
    return t.code, t.bits, t.lanes


@cpu_only
@pytest.mark.parametrize("dtype", helpers.ALL, ids=helpers.dtype_id)
def test_capsule_dtype_codes_are_numpys(dtype):
    """kDLBool/Int/UInt/Float/Complex and the bit widths as NumPy exports them: float16 is
    (kDLFloat, 16), complex64 and complex128 are (kDLComplex, 64) and (kDLComplex, 128)."""
    a = helpers.data(dtype, (3,))
    x = ng.asarray(a)
    for versioned in (False, True):
        kw = {"max_version": (1, 0)} if versioned else {}
        got, exp = _capsule_dtype(x.__dlpack__(**kw), versioned), _capsule_dtype(a.__dlpack__(**kw), versioned)
        assert got == exp
    expected = {"float16": (2, 16, 1), "complex64": (5, 64, 1), "complex128": (5, 128, 1)}
    if np.dtype(dtype).name in expected:
        assert _capsule_dtype(x.__dlpack__(), False) == expected[np.dtype(dtype).name]


@pytest.mark.parametrize("dtype", [np.float16, np.complex64, np.complex128], ids=helpers.dtype_id)
def test_new_dtypes_round_trip_through_numpy(dtype):
    a = helpers.data(dtype, (4, 6), seed=3)
    x = ng.from_dlpack(a[::2, ::-3])
    assert x.dtype == a.dtype
    helpers.assert_same(x, a[::2, ::-3])
    if ON_CPU:
        b = np.from_dlpack(ng.asarray(a)[1:, ::2])
        np.testing.assert_array_equal(b, a[1:, ::2])
        assert b.dtype == a.dtype
    else:
        np.testing.assert_array_equal(np.from_dlpack(ng.asarray(a), device="cpu"), a)
