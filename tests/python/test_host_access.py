"""A device array read by host code: the buffer protocol (memoryview, hashlib, file.write, Pillow),
`__array_interface__`, and Python iteration. On cpu the array's own memory, no copy; on a GPU a
host copy made once (read-only: writes into a copy would be lost)."""
import hashlib

import numpy as np
import pytest

import numgpu as ng


def on_host_device(x):
    return x.device.startswith("cpu")


def test_buffer_and_array_interface():
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = ng.asarray(h)
    m = memoryview(x)
    assert m.tobytes() == h.tobytes() and m.shape == (4, 6) and m.format == "f"
    assert hashlib.md5(x).hexdigest() == hashlib.md5(h).hexdigest()
    assert bytes(x) == h.tobytes() and bytearray(x) == bytearray(h.tobytes())
    i = x.__array_interface__
    assert i["shape"] == (4, 6) and i["typestr"] == "<f4"
    assert np.array_equal(np.asarray(x), h)
    if on_host_device(x):          # the array's own memory: writes reach it
        assert not m.readonly
        m.release()
        memoryview(x)[0, 0] = 100.0
        assert float(x[0, 0]) == 100.0
    else:                          # a copy: np.asarray's as before (writes stay in the copy)
        m.release()
        h2 = np.asarray(x)
        assert h2.flags.writeable
        h2[0, 0] = 100.0
        assert float(x[0, 0]) == 0.0


def test_no_writable_buffer_of_a_gpu_array():
    x = ng.arange(4.0)
    if on_host_device(x):
        pytest.skip("a cpu array's buffer is its memory")
    import io
    with pytest.raises(TypeError, match="read-write"):  # (a writable request: the BufferError, as TypeError)
        io.BytesIO(b"\0" * 32).readinto(x)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]



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
    img = Image.fromarray(ng.asarray(h))
    assert img.size == (64, 48) and np.array_equal(np.asarray(img), h)
