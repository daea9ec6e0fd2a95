"""Cache-blocked ("tiled") loop nests, against plain Python: `for ii in range(0, n, T):
for i in range(ii, min(ii + T, n))` visits each i in exactly one tile, so the tile loops
are parallel where the loops they stand for would be (hunt 13 F-perf3: they ran as
Python, launching the inner loops once per tile). The cases cover transposes, tiled
matrix products (the k tiles stay in order: they add into the same C), tile widths that
do not divide n, a step of the tile loop other than the tile's width, a tile starting off
by a constant, neighbouring tiles that read each other's elements (in order), T <= 0 (no
iterations) and what the report says."""
import numpy as np
import pytest

import numgpu as ng
from helpers import jit_same


def transpose_tiled(A, B, T):
    n, m = A.shape
    for ii in range(0, n, T):
        for jj in range(0, m, T):
            for i in range(ii, min(ii + T, n)):
                for j in range(jj, min(m, jj + T)):
                    B[j, i] = A[i, j]


def matmul_tiled(A, B, C, T):
    n, p = A.shape
    m = B.shape[1]
    for ii in range(0, n, T):
        for jj in range(0, m, T):
            for kk in range(0, p, T):
                for i in range(ii, min(ii + T, n)):
                    for j in range(jj, min(jj + T, m)):
                        s = C[i, j]
                        for k in range(kk, min(kk + T, p)):
                            s += A[i, k] * B[k, j]
                        C[i, j] = s


def scale_tiles(x, T):
    for ii in range(0, len(x), T):
        for i in range(ii, ii + T):          # (no min: the last tile's stores past the end raise)
            x[i] = 2 * x[i] + 1


def offset_tiles(x, y, T):
    for ii in range(0, len(x) - 2, T):
        for i in range(ii + 1, min(ii + 1 + T, len(x) - 1)):
            y[i] = x[i - 1] + x[i] + x[i + 1]


def neighbour_tiles(x, T):
    for ii in range(0, len(x) - 1, T):
        for i in range(ii, min(ii + T, len(x) - 1)):
            x[i] = x[i] + x[i + 1]           # reads the next element, the next tile's at its end


def wide_steps(x, T, S):
    for ii in range(0, len(x), S):           # tiles T wide, S apart: they overlap where T > S
        for i in range(ii, min(ii + T, len(x))):
            x[i] += 1


@pytest.mark.parametrize("n, m, T", [(64, 64, 16), (70, 45, 16), (5, 3, 8), (33, 1, 4), (1, 1, 1)])
def test_transpose(n, m, T):
    A = np.random.default_rng(n).random((n, m))
    f = jit_same(transpose_tiled, A, np.zeros((m, n)), T)
    kinds = [r["kind"] for r in f.loop_report()]
    assert kinds == ["parallel", "parallel", "sequential", "sequential"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("n, T", [(40, 8), (37, 16)])
def test_matmul(dtype, n, T):
    rng = np.random.default_rng(n)
    A = rng.integers(-5, 5, (n, n + 3)).astype(dtype)
    B = rng.integers(-5, 5, (n + 3, n - 1)).astype(dtype)
    f = jit_same(matmul_tiled, A, B, np.ones((n, n - 1), dtype), T)
    kinds = [r["kind"] for r in f.loop_report()]
    assert kinds[:3] == ["parallel", "parallel", "sequential"]   # the k tiles add into one C[i, j]


@pytest.mark.parametrize("n, T", [(64, 8), (10, 3), (12, 4)])
def test_tile_without_min(n, T):
    x = np.arange(n, dtype=np.float64)
    if n % T == 0:
        f = jit_same(scale_tiles, x, T)
        assert f.loop_report()[0]["kind"] == "parallel"
        return
    g = ng.jit(scale_tiles)           # the last tile runs past the end: Python's IndexError,
    want, got = x.copy(), x.copy()   # after the stores Python made before it
    with pytest.raises(IndexError):
        scale_tiles(want, T)
    with pytest.raises(IndexError):
        g(got, T)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n, T", [(50, 7), (3, 5), (2, 1)])
def test_tiles_off_by_a_constant(n, T):
    x = np.random.default_rng(n).random(n)
    f = jit_same(offset_tiles, x, np.zeros(n), T)
    assert f.loop_report()[0]["kind"] == "parallel"


@pytest.mark.parametrize("n, T", [(50, 7), (64, 8)])
def test_neighbouring_tiles_stay_in_order(n, T):
    f = jit_same(neighbour_tiles, np.arange(n, dtype=np.float64), T)
    assert f.loop_report()[0]["kind"] == "sequential"


@pytest.mark.parametrize("T, S", [(4, 4), (8, 4), (4, 8), (3, 2)])
def test_tile_loop_steps_other_than_the_width(T, S):
    f = jit_same(wide_steps, np.zeros(30), T, S)
    assert f.loop_report()[0]["kind"] == "sequential"   # (S is not the tile's width T: not proven)


@pytest.mark.parametrize("T", [0, -3])
def test_no_tiles(T):
    A = np.random.default_rng(0).random((6, 5))
    if T == 0:   # range()'s step 0: Python's ValueError
        with pytest.raises(ValueError):
            ng.jit(transpose_tiled)(A, np.zeros((5, 6)), T)
        return
    jit_same(transpose_tiled, A, np.zeros((5, 6)), T)
