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
