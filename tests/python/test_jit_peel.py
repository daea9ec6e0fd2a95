"""Loops run around one iteration (the analysis' `peel`), against plain Python:
in `for i: D[i, j] = min(D[i, j], D[i, k] + D[k, j])` only iteration i = k
writes the row the others read, so the iterations before it run in
parallel, then it, then those after it; an inner loop run in order is split
the same way (j = k) so each part's reads stay put. The cases cover what
the split must get right: the peeled iteration changing what the later
ones read (negative weights on Floyd-Warshall's diagonal), a peel point
before, after or between the range's iterations, or off its step, a
negative index that wraps, offsets, other dtypes, boundscheck, and what the
report says."""
import numpy as np
import pytest

import numgpu as ng
from helpers import jit_same


def floyd(D):
    n = D.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if D[i, k] + D[k, j] < D[i, j]:
                    D[i, j] = D[i, k] + D[k, j]


@pytest.mark.parametrize("n", [1, 2, 3, 17, 64, 130])
def test_floyd_warshall(n):
    rng = np.random.default_rng(n)
    D = rng.integers(1, 100, (n, n)).astype(np.float64)
    np.fill_diagonal(D, 0.0)
    jit_same(floyd, D)


@pytest.mark.parametrize("n", [5, 40, 97])
def test_floyd_warshall_negative_cycles(n):
    # a negative diagonal: iteration i = k changes row k, which the
    # iterations after it must see and those before it must not
    rng = np.random.default_rng(n + 1)
    D = rng.standard_normal((n, n))
    D[np.arange(n), np.arange(n)] = -rng.random(n)
    jit_same(floyd, D)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32])
def test_floyd_warshall_dtypes(dtype):
    rng = np.random.default_rng(7)
    D = rng.integers(-3, 50, (45, 45)).astype(dtype)
    jit_same(floyd, D)


def test_floyd_report():
    f = ng.jit(floyd)
    kinds = [(r["kind"], r["peel"]) for r in f.loop_report()]
    assert kinds == [("sequential", None), ("parallel", "i = k"), ("sequential", "j = k")]
    D = np.zeros((3, 3))
    f(D)
    assert f.loop_report()[1]["ran"].startswith("kernel (in three parts")


def scale_all(a, k, n):
    for i in range(n):
        a[i] = a[i] * 0.5 + a[k] * 2.0


def scale_from_3(a, k, n):
    for i in range(3, n):
        a[i] = a[i] * 0.5 + a[k] * 2.0


def scale_by_3(a, k, n):
    for i in range(1, n, 3):
        a[i] = a[i] * 0.5 + a[k] * 2.0


def scale_by_2(a, k, n):
    for i in range(2, n, 2):
        a[i] = a[i] * 0.5 + a[k] * 2.0


@pytest.mark.parametrize("fn", [scale_all, scale_from_3, scale_by_3, scale_by_2])
@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 50, 51, 98, 99, 150, -1, -150, -199])
@pytest.mark.parametrize("n", [0, 1, 100])
def test_one_dimension(fn, k, n):
    # the peel point inside, at either end of, before, after or between the iterations
    a = np.random.default_rng(abs(k) + n).standard_normal(200)
    f = jit_same(fn, a, k, n)
    assert f.loop_report()[0]["kind"] == "parallel"


def test_step_known_at_run_time_stays_in_order():
    a = np.random.default_rng(1).standard_normal(50)
    f = jit_same(lambda_free_step, a, 7, 1)
    assert f.loop_report()[0]["kind"] == "sequential"


def lambda_free_step(a, k, by):
    for i in range(0, a.shape[0], by):
        a[i] = a[i] + a[k]


def shifted(a, k, n):
    for i in range(n):
        a[i + 2] = a[k] + a[i + 2] * 3


@pytest.mark.parametrize("k", [0, 1, 2, 5, 11, -1, -12])
def test_offset(k):
    a = np.arange(12, dtype=np.int64)
    f = jit_same(shifted, a, k, 10)
    assert f.loop_report()[0]["peel"] == "i = k - 2"


def two_axes(a, k):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            a[i, j] = a[k, j] - a[i, k] * 0.25


@pytest.mark.parametrize("k", [0, 3, 9, -2])
def test_two_axes(k):
    a = np.random.default_rng(k + 5).standard_normal((10, 10))
    jit_same(two_axes, a, k)


def inner_split_in_order(a, k, steps):
    n = a.shape[0]
    for t in range(steps):
        for i in range(n):
            a[i] = a[i] + a[k] * 0.5


@pytest.mark.parametrize("k", [0, 4, 20, -1])
def test_split_loop_in_order(k):
    # innermost in a sequential nest: one thread, in three parts
    a = np.random.default_rng(3).standard_normal(21)
    f = jit_same(inner_split_in_order, a, k, 5)
    r = f.loop_report()
    assert [x["kind"] for x in r] == ["sequential", "sequential"]
    assert r[1]["peel"] == "i = k"


def test_boundscheck_still_reports():
    def g(a, k):
        for i in range(a.shape[0]):
            a[i] = a[k] + 1.0

    f = ng.jit(g, boundscheck=True)
    with pytest.raises(IndexError, match="out of bounds"):
        f(np.zeros(8), 8)
    a = np.arange(8.0)
    b = a.copy()
    g(a, 3)
    f(b, 3)
    np.testing.assert_array_equal(a, b)


def test_float_index_stays_an_error():
    def g(a, k):
        for i in range(a.shape[0]):
            a[i] = a[k] + 1.0

    with pytest.raises(IndexError):
        g(np.zeros(4), 1.0)
    with pytest.raises(Exception):
        ng.jit(g)(np.zeros(4), 1.0)


def not_one_point(a, k, m):
    for i in range(a.shape[0]):
        a[i] = a[k] + a[m]


def test_two_points_stay_in_order():
    a = np.arange(30.0)
    f = jit_same(not_one_point, a, 4, 20)
    assert f.loop_report()[0]["kind"] == "sequential"
    assert f.loop_report()[0]["peel"] is None


# Mirrored halves: a*v + P and -a*v + Q meet only when two iterations sum to
# a*(Q - P), which range(n // 2) never reaches: a reversal runs in parallel.

def reverse(a):
    n = a.shape[0]
    for i in range(n // 2):
        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 16, 17, 1000, 100001])
def test_reverse(n):
    a = np.random.default_rng(n).standard_normal(n)
    f = jit_same(reverse, a)
    assert f.loop_report()[0]["kind"] == "parallel"


def flip_rows(a):
    n, m = a.shape
    for i in range(n // 2):
        for j in range(m):
            a[i, j], a[n - 1 - i, j] = a[n - 1 - i, j], a[i, j]


@pytest.mark.parametrize("shape", [(1, 3), (6, 5), (7, 4), (129, 33)])
def test_flip_rows(shape):
    a = np.random.default_rng(shape[0]).integers(-99, 99, shape).astype(np.int32)
    jit_same(flip_rows, a)


def reverse_tail(a, m):
    for i in range(m // 2):
        a[i + 1], a[m - i] = a[m - i], a[i + 1]


@pytest.mark.parametrize("m", [0, 1, 2, 9, 10, 99])
def test_reverse_with_offsets(m):
    a = np.arange(100, dtype=np.int64)
    f = jit_same(reverse_tail, a, m)
    assert f.loop_report()[0]["kind"] == "parallel"


def reverse_too_far(a):
    n = a.shape[0]
    for i in range(n // 2 + 1):
        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]


@pytest.mark.parametrize("n", [4, 5, 64])
def test_reverse_past_the_middle_stays_in_order(n):
    # for even n the last iteration swaps back what the one before swapped
    a = np.arange(n, dtype=np.float64)
    f = jit_same(reverse_too_far, a)
    assert f.loop_report()[0]["kind"] == "sequential"


# A start known only at run time: Gaussian elimination's rows below the pivot
# (the peeled row k is never one of them), and a start whose indices would
# wrap (checked before the loop: then in order).

def eliminate(a):
    n = a.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            f = a[i, k] / a[k, k]
            for j in range(k, n):
                a[i, j] = a[i, j] - f * a[k, j]


@pytest.mark.parametrize("n", [1, 2, 5, 33, 120])
def test_gaussian_elimination(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)) + n * np.eye(n)
    f = jit_same(eliminate, a)
    r = f.loop_report()
    assert (r[1]["kind"], r[1]["peel"]) == ("parallel", "i = k")


def scale_from(a, k, lo):
    for i in range(lo, a.shape[0]):
        a[i] = a[i] * 0.5 + a[k]


@pytest.mark.parametrize("lo,k", [(0, 3), (5, 3), (5, 9), (-4, 2), (-4, -1), (-10, 0)])
def test_runtime_start(lo, k):
    a = np.random.default_rng(lo + 20).standard_normal(10)
    f = jit_same(scale_from, a, k, lo)
    ran = f.loop_report()[0]["ran"]
    # a negative start wraps onto the end, where a second iteration would meet the others
    assert ran.startswith("kernel (one thread") == (lo < 0), ran


# Several arrays meeting at the same iteration (a[i] -= a[k]; b[i] -= b[k]: forward elimination
# updating the right-hand side): one peel serves them where k cannot be negative by its form (an
# outer range counting up); they ran in order before, a launch per row (67x slower: hunt 13).
def eliminate_with_rhs(A, b):
    n = len(b)
    for k in range(n):
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            for j in range(k, n):
                A[i, j] -= f * A[k, j]
            b[i] -= f * b[k]


def two_arrays_all_rows(a, b, c):
    n = a.shape[0]
    for k in range(n):
        for i in range(n):
            a[i] = a[i] * 0.5 + a[k]
            b[i, 1] = b[i, 1] - b[k, 1] * 0.25
            c[i] += c[k] * 0.125


def two_arrays_param_k(a, b, k):
    for i in range(a.shape[0]):       # (k may be negative: each array wraps it by its own length)
        a[i] -= a[k]
        b[i] -= b[k]


@pytest.mark.parametrize("n", [1, 2, 5, 40])
def test_several_arrays_meet_at_one_iteration(n):
    rng = np.random.default_rng(n)
    A = rng.random((n, n)) + n * np.eye(n)
    f = jit_same(eliminate_with_rhs, A, rng.random(n))
    assert [r["kind"] for r in f.loop_report()][:2] == ["sequential", "parallel"]
    assert f.loop_report()[1]["peel"] == "i = k"
    jit_same(two_arrays_all_rows, rng.random(n), rng.random((n, 3)), rng.random(n))


@pytest.mark.parametrize("k", [0, 3, -1, -4])
def test_several_arrays_with_a_maybe_negative_index_stay_right(k):
    a, b = np.arange(6.0), np.arange(9.0)        # (other lengths: -1 is a[5] but b[8])
    jit_same(two_arrays_param_k, a, b, k)
