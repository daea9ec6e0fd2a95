"""Inner loops in two versions: where every slice of a constant width in the loop
(`img[2 * i:2 * i + 2, 2 * j:2 * j + 2]`, `x[i, j - 1:j + 2]`) lies inside its axis in
every iteration (checked before the loop, at its first and last iteration), a copy of the
loop whose windows take their bounds as written and their widths as constants (loops the
C compiler unrolls and vectorises across); elsewhere the loop as before, clamping each
window as Python's slices do. Both versions against plain Python, on every device: shapes
whose windows all lie inside, and shapes, ranges and steps that reach past an end."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit


def max_pool(img, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.max(img[2 * i:2 * i + 2, 2 * j:2 * j + 2])


def box_filter(img, K, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + 3, j:j + 3] * K)


def row_windows(x, out, lo, hi):
    for i in range(x.shape[0]):
        for j in range(lo, hi):
            out[i, j] = np.min(x[i, j - 1:j + 2]) + np.mean(x[i, j:j + 4])


def backwards(x, out):
    for i in range(x.shape[0]):
        for j in range(x.shape[1] - 3, -1, -2):
            out[i, j] = np.max(x[i, j:j + 3]) - out[i, j + 1]


def local_start(x, out):
    for i in range(x.shape[0]):
        for j in range(out.shape[1]):
            k = 2 * j + i % 2
            out[i, j] = np.max(x[i, k:k + 2])


def guarded(x, out):
    for i in range(x.shape[0]):
        for j in range(out.shape[1]):
            if x[i, j] > 0:
                out[i, j] = np.sum(x[i, j:j + 2])


def upsample(img, up):
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            up[2 * i:2 * i + 2, 2 * j:2 * j + 2] = img[i, j]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16])
def test_pooling_inside_and_past_the_ends(dt):
    rng = np.random.default_rng(21)
    img = (rng.standard_normal((13, 17)) * 50).astype(dt)
    for shape in ((6, 8), (7, 8), (6, 9), (7, 9), (1, 1), (0, 4), (3, 0)):
        jit_same(max_pool, img, np.zeros(shape, dt))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_pooling_nans_anywhere_in_a_window(dt):
    """The fast version's float max is NaN-aware as NumPy's (ng_maxv): a NaN anywhere wins."""
    rng = np.random.default_rng(22)
    img = rng.standard_normal((16, 16)).astype(dt)
    for at in ((0, 0), (0, 1), (1, 0), (1, 1), (6, 7), (15, 15)):
        nan = img.copy()
        nan[at] = np.nan
        jit_same(max_pool, nan, np.zeros((8, 8), dt))
    img[::3, ::2] = np.nan
    jit_same(max_pool, img, np.zeros((8, 8), dt))
    img = np.full((8, 8), -np.inf, dt)
    img[3, 4] = 0.0
    jit_same(max_pool, img, np.zeros((4, 4), dt))


def test_box_filter_with_kernels_of_every_shape():
    rng = np.random.default_rng(23)
    img = rng.standard_normal((12, 14))
    for kshape in ((3, 3), (1, 3), (3, 1), (1, 1)):
        jit_same(box_filter, img, rng.standard_normal(kshape), np.zeros((10, 12)))
    py, jit, f = python_and_jit(box_filter, img, rng.standard_normal((2, 2)), np.zeros((10, 12)))
    assert py[0] is ValueError and jit[0] is ValueError  # (K's 2 beside the windows' 3: NumPy's error)
    for past in ((11, 12), (10, 13)):  # (a window cut short at the last row or column: NumPy's error)
        py, jit, f = python_and_jit(box_filter, img, rng.standard_normal((3, 3)), np.zeros(past))
        assert py[0] is ValueError and jit[0] is ValueError
        jit_same(box_filter, img, rng.standard_normal((1, 1)), np.zeros(past))


def test_windows_from_ranges_that_start_before_the_axis_or_end_past_it():
    rng = np.random.default_rng(24)
    x = rng.standard_normal((5, 12))
    for lo, hi in ((1, 9), (0, 9), (1, 10), (2, 3), (1, 12), (5, 5), (-3, 4), (-9, -2)):
        py, jit, f = python_and_jit(row_windows, x, np.zeros((5, 12)), lo, hi)
        assert py[0] == jit[0], (lo, hi, py, jit)  # (np.min of an empty window: NumPy's ValueError)
        if py[0] == "ok":
            jit_same(row_windows, x, np.zeros((5, 12)), lo, hi)


def test_steps_backwards_locals_guards_and_stores():
    rng = np.random.default_rng(25)
    for n in (9, 10, 3):
        jit_same(backwards, rng.standard_normal((4, n)), rng.standard_normal((4, n)))
    x = rng.standard_normal((6, 11))
    jit_same(local_start, x, np.zeros((6, 5)))
    jit_same(local_start, x[:, :10], np.zeros((6, 5)))  # (k + 2 past the end: a short window)
    py, jit, f = python_and_jit(local_start, x, np.zeros((6, 6)))  # (an empty one: NumPy's ValueError)
    assert py[0] is ValueError and jit[0] is ValueError
    jit_same(guarded, x, np.zeros((6, 10)))
    jit_same(guarded, x, np.zeros((6, 11)))
    img = rng.standard_normal((4, 5))
    jit_same(upsample, img, np.zeros((8, 10)))
    jit_same(upsample, img, np.zeros((7, 9)))  # (the last row and column cut short)

