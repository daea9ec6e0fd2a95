"""Findings of the eighth @numgpu.jit bug hunt (stop 51), each compared with plain Python.

F0: a range() with a start or step inside enumerate() or zip() gave the counter (0, 1, ...) as
its elements instead of the range's values (desugar.c's seq_of took every range as one from 0
by 1). F1: DP rows between barriers in one work-group lost their stores on PoCL (below)."""
import copy

import numpy as np
import pytest

import numgpu


def run_both(f, *args):
    want_args, got_args = copy.deepcopy(args), copy.deepcopy(args)
    want = f(*want_args)
    got = numgpu.jit(f)(*got_args)
    return want, got, want_args, got_args


def enum_range_start(out):
    for k, q in enumerate(range(5, 100)):
        if k < out.shape[0]:
            out[k] = q


def enum_range_step_start(out, s):
    for k, q in enumerate(range(1, 40, 3), s):
        if k - s < out.shape[0]:
            out[k - s] = q * 2


def enum_zip_range(a, out):
    for k, (p, q) in enumerate(zip(a, range(5, 100))):
        out[k] = p * q


def zip_range_array(a, out):
    for p, q in zip(range(3, 40), a):
        out[p - 3] = q * p


def zip_array_range_down(a, out):
    for p, q in zip(a, range(100, 0, -1)):
        out[100 - q] = p + q


def zip_two_ranges(out):
    for p, q in zip(range(4), range(10, 20)):
        out[p] = q


def enum_range_reduce(n):
    s = 0
    for k, q in enumerate(range(7, n, 2)):
        s += k * q
    return s


@pytest.mark.parametrize("case", ["enum_range_start", "enum_range_step_start", "enum_zip_range",
                                  "zip_range_array", "zip_array_range_down", "zip_two_ranges"])
def test_ranges_inside_enumerate_and_zip_keep_their_start_and_step(case):
    a = np.arange(1.0, 7.0)
    args = {"enum_range_start": (np.zeros(6),), "enum_range_step_start": (np.zeros(8), 3),
            "enum_zip_range": (a, np.zeros(6)), "zip_range_array": (a, np.zeros(6)),
            "zip_array_range_down": (a, np.zeros(6)), "zip_two_ranges": (np.zeros(4),)}[case]
    f = globals()[case]
    want, got, want_args, got_args = run_both(f, *args)
    for w, g in zip(want_args, got_args):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
    assert numgpu.jit(f).loop_report()[0]["kind"] != "python"


def test_range_with_start_inside_enumerate_in_a_reduction():
    for n in (7, 8, 50, 1001):
        want, got, _, _ = run_both(enum_range_reduce, n)
        assert got == want and type(got) is type(want)


# F1: a DP by rows with a store before the row, a store after it reading the array and a sum
# beside gave 0.0 for 1149.0 on PoCL when the row ran over one work-group with barriers
# (PoCL's compiler; the OpenCL target now runs such rows in one thread).
def knapsack_total(w, v, W, best_at):
    n = len(w)
    dp = np.zeros((n + 1, W + 1))
    total = 0.0
    for i in range(1, n + 1):
        dp[i, 0] = 0.0
        for c in range(1, W + 1):
            dp[i, c] = max(dp[i - 1, c], dp[i - 1, c - w[i - 1]] + v[i - 1]) if c >= w[i - 1] else dp[i - 1, c]
        best_at[i - 1] = dp[i, W]
        total += dp[i, W]
    return total, dp


def rows_around(dp, out):
    s = 0.0
    for i in range(1, dp.shape[0]):
        dp[i, 0] = dp[i - 1, 1] + 1.0
        for c in range(1, dp.shape[1]):
            dp[i, c] = dp[i - 1, c - 1] + 1.0
        out[i] = dp[i, 0]
        s += dp[i, 1]
    return s


@pytest.mark.parametrize("W", [6, 60, 255, 300])
def test_rows_with_stores_around_them_and_a_sum(W):
    rng = np.random.default_rng(W)
    w = rng.integers(1, 10, 12)
    v = rng.integers(1, 100, 12).astype(float)
    want, got, want_args, got_args = run_both(knapsack_total, w, v, W, np.zeros(12))
    assert got[0] == want[0]
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got_args[3], want_args[3])
    for ncol in (50, 600):
        want, got, want_args, got_args = run_both(rows_around, np.zeros((5, ncol)), np.zeros(5))
        assert got == want
        np.testing.assert_array_equal(got_args[0], want_args[0])
        np.testing.assert_array_equal(got_args[1], want_args[1])
