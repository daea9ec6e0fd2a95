"""The cpu device's loop orders for @numgpu.jit kernels, against plain Python
bit for bit: a parallel loop whose body runs a sequential loop (a dot product
or a polynomial per element) runs eight iterations side by side in lanes, and
two nested parallel loops run in 32 x 32 tiles (transposes, and in lanes
inside each tile, matmul-like nests). Sizes around the lane and tile widths,
ranges not starting at 0, views, several dtypes, branches and loops inside."""
import numpy as np
import pytest

from helpers import jit_same


def horner(coef, x, out):
    for i in range(len(x)):
        acc = 0.0
        for k in range(len(coef)):
            acc = acc * x[i] + coef[k]
        out[i] = acc


def matmul(A, B, C):
    n, m = C.shape
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for k in range(A.shape[1]):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


def conv(img, w, out):
    oh, ow = out.shape
    for i in range(oh):
        for j in range(ow):
            s = 0.0
            for di in range(w.shape[0]):
                for dj in range(w.shape[1]):
                    s += img[i + di, j + dj] * w[di, dj]
            out[i, j] = s


def branchy(x, out, lo, hi):
    for i in range(lo, hi):
        acc = x[i]
        hits = 0
        for k in range(5):
            if acc > 0.5:
                acc = acc * 0.5 - k
                hits += 1
            else:
                acc = acc * acc + 0.25
        if hits > 2:
            t = 0
            for k in range(hits):
                t += k
            out[i] = acc + t
        else:
            out[i] = -acc


def lane_dependent_range(n, out):
    for i in range(len(out)):  # (each iteration's loop has its own length: no lanes)
        s = 0
        for k in range(n[i]):
            s += k * k
        out[i] = s


def int_chain(x, out):
    for i in range(len(x)):
        h = x[i]
        for k in range(7):
            h = (h * 31 + k) % 1000003
        out[i] = h


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 100, 1001])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_a_polynomial_per_element_in_lanes(n, dt):
    rng = np.random.default_rng(n)
    coef = rng.standard_normal(9).astype(dt)
    x = rng.uniform(-1, 1, n).astype(dt)
    f = jit_same(horner, coef, x, np.zeros(n, dt))
    assert f.loop_report()[0]["kind"] == "parallel"
    jit_same(horner, coef, x[::3].copy(), np.zeros(len(x[::3]), dt))
    jit_same(horner, coef[:0], x, np.zeros(n, dt))  # (no coefficients: the loop inside runs 0 times)


@pytest.mark.parametrize("shape", [(1, 1, 1), (7, 5, 9), (33, 40, 31), (64, 17, 65), (5, 0, 3), (0, 4, 4)])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.complex128])
def test_matmul_loops_in_tiles_and_lanes(shape, dt):
    n, p, m = shape
    rng = np.random.default_rng(sum(shape))
    A = (rng.standard_normal((n, p)) * 4).astype(dt)
    B = (rng.standard_normal((p, m)) * 4).astype(dt)
    zero = np.zeros((n, m), dt)
    f = jit_same(matmul, A, B, zero)
    assert [loop["kind"] for loop in f.loop_report()] == ["parallel", "parallel", "sequential"]
    if n > 2 and m > 2:
        jit_same(matmul, A[1:], B[:, ::2], np.zeros((n - 1, len(range(0, m, 2))), dt))  # views


def test_convolution_in_tiles_and_lanes():
    rng = np.random.default_rng(3)
    for h, k in ((50, 5), (41, 3), (9, 9), (12, 1)):
        img = rng.random((h, h + 3))
        jit_same(conv, img, rng.random((k, k)), np.zeros((h - k + 1, h + 3 - k + 1)))


@pytest.mark.parametrize("lo,hi", [(0, 300), (3, 300), (5, 12), (290, 300)])
def test_branches_and_loops_inside_lanes(lo, hi):
    rng = np.random.default_rng(hi - lo)
    jit_same(branchy, rng.uniform(0, 3, 300), np.zeros(300), lo, hi)


def test_loops_whose_length_differs_per_iteration():
    rng = np.random.default_rng(4)
    n = rng.integers(0, 40, 101)
    jit_same(lane_dependent_range, n, np.zeros(101, np.int64))


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint32])
def test_integer_chains_in_lanes(dt):
    rng = np.random.default_rng(5)
    jit_same(int_chain, rng.integers(0, 1000, 77).astype(dt), np.zeros(77, np.int64))


def transpose_into(A, B, lo, hi):
    n, m = A.shape
    for i in range(lo, hi):
        for j in range(m):
            B[j, i - lo] = A[i, j] * 2 + i


def symmetrize(A, S):
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            S[i, j] = 0.5 * (A[i, j] + A[j, i])


def transpose_stepped(A, B):
    n, m = A.shape
    for i in range(0, n, 2):
        for j in range(m):
            B[j, i] = A[i, j]


@pytest.mark.parametrize("shape", [(70, 75), (32, 32), (1, 100), (100, 1), (33, 65), (0, 5), (5, 0)])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16])
def test_transposing_loops_give_python_results(shape, dt):
    # (on cpu two nested parallel loops that write across rows run in 32 x 32 tiles)
    rng = np.random.default_rng(11)
    A = rng.integers(-50, 50, shape).astype(dt)
    n, m = shape
    f = jit_same(transpose_into, A, np.zeros((m, n), dt), 0, n)
    assert [loop["kind"] for loop in f.loop_report()] == ["parallel", "parallel"]
    if n > 3:
        jit_same(transpose_into, A, np.zeros((m, n - 3), dt), 2, n - 1)  # a range not starting at 0
    jit_same(transpose_stepped, A, np.zeros((m, n), dt))
    if n == m:
        jit_same(symmetrize, A, np.zeros(shape, dt))


def test_transposing_loops_over_views():
    rng = np.random.default_rng(12)
    A = rng.standard_normal((90, 120))
    jit_same(transpose_into, A[::2, 3:], np.zeros((117, 45)), 0, 45)
    jit_same(transpose_into, A.T, np.zeros((90, 120)), 0, 120)
    B = np.zeros((200, 100))
    jit_same(transpose_into, A[:50, :80], B[::2, 1::2], 0, 50)
