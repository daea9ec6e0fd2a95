"""Bools whose bytes are not 0 or 1: `u8.view(bool)`, `np.frombuffer(data, bool)`, Pillow's mode "1"
images (0/255 bytes). NumPy reads every nonzero byte as True; so must numgpu's kernels (a load of a
bool is its byte != 0): masks select one element per True (a mask's positions were counted by
byte value, and the gather read positions never written: a crash), sums and counts count Trues,
casts give 1. Each case against NumPy's answer on the same bytes."""
import numpy as np
import pytest

import numgpu as ng

BYTES = np.array([0, 2, 255, 1, 0, 128, 0, 8, 3, 0, 0, 64], np.uint8)


def odd_bools():
    """The same bools twice: NumPy's view of the bytes, and numgpu's (its own view of them)."""
    h = BYTES.view(bool)
    g = ng.asarray(BYTES).view(bool)
    assert ng.asnumpy(g.view(np.uint8)).tolist() == BYTES.tolist()     # (the bytes as they are)
    return h, g


def same(got, exp):
    got = ng.asnumpy(got) if isinstance(got, ng.ndarray) else got
    np.testing.assert_array_equal(got, exp)
    assert np.asarray(got).dtype == np.asarray(exp).dtype


def test_masks_select_one_element_per_true():
    h, g = odd_bools()
    x = np.arange(12.0) + 10
    same(ng.asarray(x)[g], x[h])
    X = np.arange(36.0).reshape(12, 3)
    same(ng.asarray(X)[g], X[h])
    y, gy = x.copy(), ng.asarray(x)
    y[h] = -1.0
    gy[g] = -1.0
    same(gy, y)
    same(ng.nonzero(g)[0], np.nonzero(h)[0])
    same(ng.compress(g, ng.asarray(x)), np.compress(h, x))
    same(ng.where(g, ng.asarray(x), 0.0), np.where(h, x, 0.0))


def test_reductions_casts_and_arithmetic_count_trues():
    h, g = odd_bools()
    for f in ("sum", "count_nonzero", "any", "all", "argmax", "mean"):
        same(getattr(ng, f)(g), getattr(np, f)(h))
    same(g.sum(dtype=np.int64), h.sum(dtype=np.int64))
    same(g[1:].sum(), h[1:].sum())                       # (a view: the kernel's reduction)
    same(g.reshape(3, 4).sum(axis=0), h.reshape(3, 4).sum(axis=0))
    for dt in (np.int8, np.int64, np.float32, np.float64, np.uint8):
        same(g.astype(dt), h.astype(dt))
    same(g * 1.5, h * 1.5)
    same(g + 0, h + 0)
    same(ng.cumsum(g), np.cumsum(h))
    same(g & True, h & True)
    same(g == True, h == True)  # noqa: E712
    same(g != False, h != False)  # noqa: E712
    same(ng.logical_and(g, True), np.logical_and(h, True))
    same(ng.logical_xor(g, g), np.logical_xor(h, h))
    same(~g, ~h)

    same(g.astype(np.uint8), h.astype(np.uint8))


def test_jit_loops_read_trues():
    h = np.frombuffer(bytearray([0, 255, 2, 1, 0, 7]), dtype=bool)

    def count(m):
        c = 0
        for i in range(m.shape[0]):
            if m[i]:
                c += 1
        return c

    def total(m):
        s = 0
        for i in range(m.shape[0]):
            s += m[i]
        return s

    assert ng.jit(count)(h) == count(h) == 4
    assert ng.jit(total)(h) == total(h) == 4


def test_pillow_mode_1_masks():
    Image = pytest.importorskip("PIL.Image")
    img = Image.new("RGB", (32, 32))
    img.paste((255, 255, 255), (8, 8, 24, 24))
    mask_np = np.array(img.convert("1"))                 # Pillow's 0/255 bytes
    rgb = np.zeros((32, 32, 3), np.uint8)
    g = ng.asarray(mask_np)
    same(ng.asarray(rgb)[g].shape, rgb[mask_np].shape)
    assert int(g.sum()) == int(mask_np.sum()) == 256
    out, gout = rgb.copy(), ng.asarray(rgb)
    out[mask_np] = [255, 0, 0]
    gout[g] = [255, 0, 0]
    same(gout, out)
