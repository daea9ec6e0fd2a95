"""A device array read by host code: the buffer protocol (memoryview, hashlib, file.write, Pillow),
`__array_interface__`, and Python iteration. On cpu the array's own memory, no copy; a GPU array
has neither (NumPy's asarray takes __array__, a download; its copy=False raises there), and its
iteration under numpy scalars downloads once."""
import hashlib

import numpy as np
import pytest

import numgpu as ng


def on_host_device(x):
    return x.device.startswith("cpu")


def test_buffer_and_array_interface():
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = ng.asarray(h)
    if not on_host_device(x):
        pytest.skip("GPU arrays have no buffer (test_gpu_arrays_have_no_buffer)")
    m = memoryview(x)
    assert m.tobytes() == h.tobytes() and m.shape == (4, 6) and m.format == "f"
    assert hashlib.md5(x).hexdigest() == hashlib.md5(h).hexdigest()
    assert bytes(x) == h.tobytes() and bytearray(x) == bytearray(h.tobytes())
    i = x.__array_interface__
    assert i["shape"] == (4, 6) and i["typestr"] == "<f4"
    assert np.array_equal(np.asarray(x), h)
    memoryview(x)[0, 0] = 100.0        # the array's own memory: writes reach it
    assert float(x[0, 0]) == 100.0
    m.release()


def test_gpu_arrays_have_no_buffer():
    x = ng.arange(4.0)
    if on_host_device(x):
        pytest.skip("a cpu array's buffer is its memory")
    with pytest.raises(BufferError, match="no host memory"):
        memoryview(x)
    assert not hasattr(x, "__array_interface__")
    h = np.asarray(x)                  # (__array__: a download, writable, as before)
    h[0] = 5.0
    assert h.flags.writeable and x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_iteration_downloads_once_under_numpy_scalars():
    h = np.linspace(0, 1, 257)
    x = ng.asarray(h)
    prev = ng.config(scalars="numpy")                  # (numgpu run's setting)
    try:
        before = ng.stats()["downloads"]
        items = list(x)
        downloads = ng.stats()["downloads"] - before
        assert all(type(v) is np.float64 for v in items) and items == list(h)
        assert sum(x) == sum(h) and max(x) == max(h)
    finally:
        ng.config(scalars=prev["scalars"])
    if not on_host_device(x):
        assert downloads == 1                       # one copy, not one per element
    X = ng.asarray(h[:256].reshape(16, 16))
    rows = list(X)
    assert len(rows) == 16 and all(isinstance(r, ng.ndarray) and r.shape == (16,) for r in rows)


def test_pillow_reads_a_device_array():
    Image = pytest.importorskip("PIL.Image")
    h = (np.arange(64 * 48 * 3) % 251).astype(np.uint8).reshape(48, 64, 3)
    x = ng.asarray(h)
    if not on_host_device(x):
        pytest.skip("GPU arrays have no buffer: Image.fromarray(x.get())")
    img = Image.fromarray(x)
    assert img.size == (64, 48) and np.array_equal(np.asarray(img), h)


def test_tobytes_and_tofile_on_every_device(tmp_path):
    # host outputs by nature: no fallback warning (they ran NumPy's method through the fallback)
    import warnings
    h = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = ng.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v, hv in ((x, h), (x[:, ::2, 1], h[:, ::2, 1]), (x.T, h.T), (x[..., ::-1], h[..., ::-1])):
            for order in "CFAK":
                assert v.tobytes(order) == hv.tobytes(order), order
            v.tofile(tmp_path / "ng.bin")
            hv.tofile(tmp_path / "np.bin")
            assert (tmp_path / "ng.bin").read_bytes() == (tmp_path / "np.bin").read_bytes()
        with open(tmp_path / "ng.txt", "w") as f:
            x.T.tofile(f, sep=",", format="%d")
        h.T.tofile(tmp_path / "np.txt", sep=",", format="%d")
        assert (tmp_path / "ng.txt").read_text() == (tmp_path / "np.txt").read_text()
    with pytest.raises(ValueError):
        x.tobytes("Q")


def test_pillow_under_numgpu_run(tmp_path):
    # Image.fromarray reads __array_interface__, frombuffer the buffer protocol: a GPU array has
    # neither (AttributeError, TypeError); under numgpu run Pillow's entry points take NumPy's
    pytest.importorskip("PIL.Image")
    from helpers import same_under_numgpu_run
    script = tmp_path / "pil.py"
    script.write_text(
        "import numpy as np\n"
        "from PIL import Image\n"
        "img = Image.new('RGB', (8, 6), (10, 20, 30))\n"
        "a = np.asarray(img).astype(np.float32)\n"
        "b = np.clip(a * 1.5 + 5, 0, 255).astype(np.uint8)\n"
        "out = Image.fromarray(b)\n"
        "print(out.size, out.mode, out.getpixel((0, 0)), out.getpixel((7, 5)))\n"
        "print(Image.fromarray(b[:, :, 0]).getpixel((1, 1)))\n"
        "print(Image.frombytes('L', (8, 6), b[:, :, 1].tobytes()).getpixel((2, 2)))\n"
        "c = np.ascontiguousarray(b[:, :, 2])\n"
        "print(Image.frombuffer('L', (8, 6), c, 'raw', 'L', 0, 1).getpixel((2, 2)))\n"
        "try:\n"
        "    np.asarray(img)[0, 0, 0] = 1\n"
        "except ValueError as e:\n"
        "    print('read-only:', e)\n")
    same_under_numgpu_run(script, "--device", ng.get_device().split(":")[0])


# ---- x.ctypes, x.data, view(type=...), numpy.ctypeslib: the array's own memory (cpu) ----------------

def test_ctypes_and_data_are_the_arrays_memory():
    import ctypes
    x, h = ng.arange(4.0), np.arange(4.0)
    if not on_host_device(x):
        pytest.skip("a GPU array has no host memory (test_ctypes_and_data_refused_on_a_gpu)")
    for a in (x, h):                  # a C library writing into the array through its pointer
        a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))[1] = 42.0
        ctypes.memmove(a[2:].ctypes.data, (ctypes.c_double * 2)(7, 8), 16)
    assert x.tolist() == h.tolist() == [0.0, 42.0, 7.0, 8.0]
    assert x.ctypes.data == x.__array_interface__["data"][0]
    assert x.ctypes.shape[:] == h.ctypes.shape[:] and x.ctypes.strides[:] == h.ctypes.strides[:]
    c = ng.arange(3.0) + 1.0          # its only reference is the ctypes object's: kept alive, as NumPy's
    p = c.ctypes
    del c
    d = (ng.arange(3.0) + 1.0).data   # (the memoryview keeps its array too)
    junk = [ng.zeros(3) + 7.0 for _ in range(50)]
    assert list(p.data_as(ctypes.POINTER(ctypes.c_double))[:3]) == [1.0, 2.0, 3.0] == d.tolist()
    del junk
    y, g = ng.zeros((2, 3), dtype=np.int32), np.zeros((2, 3), dtype=np.int32)
    for a in (y, g):
        m = a.data
        m[1, 2] = 5
        assert (m.format, m.shape, m.strides, m.readonly) == ("i", (2, 3), (12, 4), False)
    assert y.tolist() == g.tolist()
    y.flags.writeable = False         # read-only stays read-only through .data
    g.flags.writeable = False
    for a in (y, g):
        assert a.data.readonly
        with pytest.raises(TypeError, match="read-only"):
            a.data[0, 0] = 1
    assert y[::2, ::2].data.strides == g[::2, ::2].data.strides == (24, 8)


def test_ctypes_and_data_refused_on_a_gpu():
    x = ng.arange(4.0)
    if on_host_device(x):
        pytest.skip("a cpu array's ctypes and data are its memory")
    for attr in ("ctypes", "data"):   # (a copy's pointer would lose what C writes, and dangle)
        with pytest.raises(BufferError, match=r"no host memory.*x\.get\(\)"):
            getattr(x, attr)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_view_as_numpy_subclass_shares_memory():
    x, h = ng.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    if on_host_device(x):
        for a in (x, h):
            m = a.view(type=np.matrix)
            m[0, 0] = 100
            assert type(m) is np.matrix
            r = a.view(np.recarray)
            r[1, 2] = -1
            s = a.view([("p", "f8"), ("q", "f8"), ("r", "f8")])   # a dtype numgpu has no kernels for
            s["q"][0] = 9
        assert x.tolist() == h.tolist() == [[100.0, 9.0, 2.0], [3.0, 4.0, -1.0]]
        x.flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            x.view(type=np.matrix)[0, 0] = 1
        return
    from numgpu import _fallback
    from numgpu._fallback import FallbackWarning
    _fallback._warned.discard("numpy.ndarray.view")     # (warned once a run: another test may have been first)
    with pytest.warns(FallbackWarning, match="writes to it do not reach"):
        m = x.view(type=np.matrix)    # a GPU: a matrix of a host copy, said so
    assert type(m) is np.matrix and m.tolist() == h.tolist()


def test_ctypeslib_as_ctypes_direct_import():
    x = ng.arange(4.0)
    if not on_host_device(x):
        with pytest.raises(AttributeError, match="no host memory"):
            np.ctypeslib.as_ctypes(x)
        return
    c = np.ctypeslib.as_ctypes(x)     # NumPy's, through the array's __array_interface__
    c[0] = 42.0
    assert x.tolist() == [42.0, 1.0, 2.0, 3.0]


CTYPES_SCRIPT = """\
import ctypes
import numpy as np
from numpy.ctypeslib import ndpointer, as_ctypes, as_array
libc = ctypes.CDLL(None)
libc.memset.restype = ctypes.c_void_p
libc.memset.argtypes = [ndpointer(np.uint8, flags="C_CONTIGUOUS"), ctypes.c_int, ctypes.c_size_t]
def step(name, f):
    try:
        print(name, f())
    except (BufferError, ctypes.ArgumentError) as e:   # (ctypes wraps from_param's error)
        print(name, "refused", "no host memory" in str(e) and "x.get()" in str(e))
a = np.zeros(8, dtype=np.uint8)
step("memset", lambda: (libc.memset(a, 7, 4), a.tolist())[1])
b = np.arange(4.0)
def write_as_ctypes():
    cb = as_ctypes(b)
    cb[0] = 42.0
    return b.tolist()
step("as_ctypes", write_as_ctypes)
def write_ctypes():
    b.ctypes.data_as(ctypes.POINTER(ctypes.c_double))[3] = -1.0
    return b.tolist()
step("ctypes", write_ctypes)
def write_data():
    b.data[1] = 5.0
    return b.tolist()
step("data", write_data)
buf = (ctypes.c_double * 3)(1, 2, 3)
v = as_array(buf)
v[1] = 20
print("as_array", list(buf), float(v.sum()))
m = np.arange(6.0).reshape(2, 3)
mv = m.view(type=np.matrix)
print("matrix", type(mv).__name__, (mv * 2).tolist())
r = np.arange(4.0)
r.flags.writeable = False          # read-only stays read-only through ctypeslib
for name, f in (("read-only as_ctypes", lambda: as_ctypes(r)),
                ("read-only ndpointer", lambda: ndpointer(np.float64, flags="WRITEABLE").from_param(r))):
    try:
        f()
        print(name, "accepted")
    except (TypeError, BufferError) as e:
        print(name, type(e).__name__ if isinstance(e, TypeError) else "refused")
"""


def test_ctypes_under_numgpu_run(tmp_path):
    # cpu: writes through ndpointer, as_ctypes, x.ctypes, x.data reach the array, as NumPy's; a GPU:
    # each refused with a BufferError naming x.get() (they handed out a downloaded copy, writes lost)
    import subprocess
    import sys
    from helpers import same_under_numgpu_run
    script = tmp_path / "ctypes_script.py"
    script.write_text(CTYPES_SCRIPT)
    dev = ng.get_device().split(":")[0]
    if dev == "cpu":
        same_under_numgpu_run(script, "--device", dev)
        return
    r = subprocess.run([sys.executable, "-m", "numgpu", "run", "--no-report", "--device", dev, str(script)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:4] == ["memset refused True", "as_ctypes refused True",
                                         "ctypes refused True", "data refused True"]
    assert r.stdout.splitlines()[4:] == ["as_array [1.0, 20.0, 3.0] 24.0",
                                         "matrix matrix [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]",
                                         "read-only as_ctypes refused", "read-only ndpointer refused"]
