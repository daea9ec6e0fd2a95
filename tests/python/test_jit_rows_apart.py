"""Rows apart: a DP loop over a row that writes row i and reads rows i - 1 (or i + 1) of
the same array, inside a loop over i run in order, has independent iterations (rows that
never meet). The nest stays one kernel; on cpu a long row runs in threads. Compared against
plain Python on real data, with the loop_report kinds."""
import math


import numpy as np
import pytest

import numgpu
from helpers import device_param


def knapsack(w, v, W):
    n = len(w)
    dp = np.zeros((n + 1, W + 1))
    for i in range(1, n + 1):
        for c in range(W + 1):
            if c >= w[i - 1]:
                dp[i, c] = max(dp[i - 1, c], dp[i - 1, c - w[i - 1]] + v[i - 1])
            else:
                dp[i, c] = dp[i - 1, c]
    return dp


def knapsack_expr(w, v, W):
    n = len(w)
    dp = np.zeros((n + 1, W + 1))
    for i in range(1, n + 1):
        for c in range(W + 1):
            dp[i, c] = max(dp[i - 1, c], dp[i - 1, c - w[i - 1]] + v[i - 1]) if c >= w[i - 1] else dp[i - 1, c]
    return dp


def around_rows(dp, tot):
    n, m = dp.shape
    for i in range(1, n):
        dp[i, 0] = i * 0.5
        for c in range(1, m):
            dp[i, c] = dp[i - 1, c - 1] + dp[i - 1, c] * 0.25
        tot[0] += dp[i, m - 1]
        tot[1] = tot[0] * 2.0 + dp[i, 0]
    return dp, tot


def rows_of_host_loop(dp, out):
    n, m = dp.shape
    for i in range(1, n):
        for c in range(1, m):
            dp[i, c] = dp[i - 1, c - 1] + 1.0
        for c in range(m):
            out[c] += dp[i, c]
    return dp, out


def viterbi(logA, logB, logpi, obs):
    K = logA.shape[0]
    T = len(obs)
    V = np.zeros((T, K))
    P = np.zeros((T, K), dtype=np.int64)
    for k in range(K):
        V[0, k] = logpi[k] + logB[k, obs[0]]
    for t in range(1, T):
        for k in range(K):
            best = -math.inf
            arg = 0
            for j in range(K):
                s = V[t - 1, j] + logA[j, k]
                if s > best:
                    best = s
                    arg = j
            V[t, k] = best + logB[k, obs[t]]
            P[t, k] = arg
    return V, P


def column_min(D, a):
    n, m = D.shape
    for i in range(1, n):
        for j in range(1, m):
            D[i, j] = min(D[i - 1, j] + a[j], D[i - 1, j - 1] + 1.0)
    return D


def lcs(x, y):
    n, m = len(x), len(y)
    L = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if x[i - 1] == y[j - 1]:
                L[i, j] = L[i - 1, j - 1] + 1
            else:
                L[i, j] = max(L[i - 1, j], L[i, j - 1])
    return L


def next_row(dp):
    n, m = dp.shape
    for i in range(n - 1):
        for c in range(m - 1):
            dp[i, c] = dp[i + 1, c + 1] * 0.5 + dp[i, c]
    return dp


def wraps(dp):
    n, m = dp.shape
    for i in range(n):
        for c in range(1, m):
            dp[i, c] = dp[i - 1, c - 1] + 1.0
    return dp


def moves_i(dp):
    n, m = dp.shape
    for i in range(1, n):
        for c in range(1, m):
            dp[i, c] = dp[i - 1, c - 1] + 1.0
            i = i  # noqa: PLW0127 (assigns i in the row: rows may meet)
    return dp


def report(f):
    return {r["line"] - f._fn.__code__.co_firstlineno: r for r in f.loop_report()}


def kinds(f):
    return [(r["kind"], r["rows"]) for r in f.loop_report()]


@pytest.fixture(params=["cpu", "opencl"])
def device(request):
    yield from device_param(request)


@pytest.mark.parametrize("n,W", [(40, 300), (6, 40000)])
def test_knapsack(n, W, device):
    rng = np.random.default_rng(n)
    w = rng.integers(1, 50, n)
    v = rng.random(n)
    f = numgpu.jit(knapsack)
    got = f(w, v, W)
    assert np.array_equal(got, knapsack(w, v, W))
    assert kinds(f) == [("sequential", False), ("sequential", True)]
    assert "never meet" in f.loop_report()[1]["reason"]
    assert f.loop_report()[1]["ran"].startswith("kernel (part of line")


@pytest.mark.parametrize("n,W", [(40, 300), (6, 40000)])
def test_knapsack_expression(n, W, device):
    rng = np.random.default_rng(n + 1)
    w = rng.integers(1, 50, n)
    v = rng.random(n)
    f = numgpu.jit(knapsack_expr)
    assert np.array_equal(f(w, v, W), knapsack_expr(w, v, W))
    assert kinds(f) == [("sequential", False), ("sequential", True)]


@pytest.mark.parametrize("shape", [(12, 40), (4, 40000)])
def test_stores_around_rows(shape, device):
    """Statements around the row (a store before it, a read-modify-write after it) run once
    per row, in order with the row's iterations."""
    rng = np.random.default_rng(7)
    dp = rng.random(shape)
    tot = np.zeros(2)
    f = numgpu.jit(around_rows)
    got = f(dp.copy(), tot.copy())
    want = around_rows(dp.copy(), tot.copy())
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert kinds(f) == [("sequential", False), ("sequential", True)]


def test_row_of_host_loop_is_parallel(device):
    """A row beside a parallel loop: the loop around them launches both per row, the row
    parallel."""
    rng = np.random.default_rng(8)
    dp = rng.random((9, 50))
    out = np.zeros(50)
    f = numgpu.jit(rows_of_host_loop)
    got = f(dp.copy(), out.copy())
    want = rows_of_host_loop(dp.copy(), out.copy())
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert [r["kind"] for r in f.loop_report()] == ["sequential", "parallel", "parallel"]


@pytest.mark.parametrize("K,T", [(8, 300), (60, 40), (600, 4)])
def test_viterbi(K, T, device):
    rng = np.random.default_rng(K)
    logA = np.log(rng.dirichlet(np.ones(K), K))
    logB = np.log(rng.dirichlet(np.ones(5), K))
    logpi = np.log(np.ones(K) / K)
    obs = rng.integers(0, 5, T)
    f = numgpu.jit(viterbi)
    V, P = f(logA, logB, logpi, obs)
    V0, P0 = viterbi(logA, logB, logpi, obs)
    assert np.array_equal(V, V0) and np.array_equal(P, P0)
    ks = kinds(f)
    assert ks[1:] == [("sequential", False), ("sequential", True), ("sequential", False)]
    assert "row loop" in f.loop_report()[3]["reason"]


@pytest.mark.parametrize("shape", [(30, 50), (5, 70000)])
def test_column_recurrence(shape, device):
    rng = np.random.default_rng(3)
    D = rng.random(shape)
    a = rng.random(shape[1])
    f = numgpu.jit(column_min)
    got = f(D.copy(), a)
    assert np.array_equal(got, column_min(D.copy(), a))
    assert kinds(f) == [("sequential", False), ("sequential", True)]


def test_lcs_stays_sequential(device):
    rng = np.random.default_rng(4)
    x = rng.integers(0, 4, 60)
    y = rng.integers(0, 4, 80)
    f = numgpu.jit(lcs)
    assert np.array_equal(f(x, y), lcs(x, y))
    ks = kinds(f)
    assert ks == [("sequential", False), ("sequential", False)]
    assert "L[i, j - 1]" in f.loop_report()[1]["reason"]


def test_next_row_written_later(device):
    rng = np.random.default_rng(5)
    dp = rng.random((20, 33))
    f = numgpu.jit(next_row)
    assert np.array_equal(f(dp.copy()), next_row(dp.copy()))
    assert kinds(f)[1] == ("sequential", True)


def test_negative_row_wraps_stays_sequential(device):
    dp = np.arange(12.0).reshape(4, 3)
    f = numgpu.jit(wraps)
    got = f(dp.copy())
    assert np.array_equal(got, wraps(dp.copy()))   # dp[-1] at i = 0: the last row, as Python
    assert kinds(f)[1] == ("sequential", False)
    one = np.arange(3.0).reshape(1, 3)             # one row: dp[0] and dp[-1] are the same
    assert np.array_equal(f(one.copy()), wraps(one.copy()))


def test_row_index_assigned_in_row_stays_sequential(device):
    dp = np.random.default_rng(6).random((10, 7))
    f = numgpu.jit(moves_i)
    assert np.array_equal(f(dp.copy()), moves_i(dp.copy()))
    assert kinds(f)[1] == ("sequential", False)


def row_from_minus_three(dp, m):
    n = dp.shape[0]
    for i in range(1, n):
        for c in range(-3, m):
            dp[i, c] = dp[i - 1, c - 1] * 0.5 + c
    return dp


def test_row_with_negative_columns_stays_in_order(device):
    """c from -3 wraps onto the row's end: iterations c = -1 and c = m - 1 write one element
    when m is the row's length, so the row runs in order (Python's last write wins)."""
    dp = np.random.default_rng(9).random((6, 10))
    f = numgpu.jit(row_from_minus_three)
    for m in (10, 7):
        assert np.array_equal(f(dp.copy(), m), row_from_minus_three(dp.copy(), m))
    assert kinds(f)[1] == ("sequential", False)


def same_column(dp):
    n, m = dp.shape
    for i in range(1, n):
        for c in range(m):
            dp[i, c] = dp[i - 1, c] + 1.0
    return dp


def test_row_proven_by_its_column_keeps_its_plan(device):
    """dp[i, c] from dp[i - 1, c]: the column alone proves the row parallel (no rows apart
    needed), so it stays a parallel loop launched per row, as before."""
    dp = np.random.default_rng(10).random((7, 20))
    f = numgpu.jit(same_column)
    assert np.array_equal(f(dp.copy()), same_column(dp.copy()))
    assert kinds(f) == [("sequential", False), ("parallel", False)]
