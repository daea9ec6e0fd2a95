"""@numgpu.jit against plain Python on random loop functions (tools/jit_difftest.py:
a grammar of what the jit compiles, every array and the result compared), for a
fixed set of seeds, scans in blocks at any size; and the cases it found."""
import math
import os
import sys

import numpy as np
import pytest

from numgpu import jit

from helpers import jit_same, outcome

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import jit_difftest  # noqa: E402


@pytest.mark.parametrize("first", range(0, 120, 20))
def test_random_loops(monkeypatch, first):
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    reports = [r for r in (jit_difftest.check(seed) for seed in range(first, first + 20)) if r]
    assert not reports, "\n\n".join(reports)


# ---- what it found ----

def row_sum_in_else(c, out, M):
    for i in range(len(c) - 1):
        out[i] = out[i + 1] + (c[i] if i > 3 else int(np.sum(M[i + 1])))


def row_sum_in_else_parallel(c, out, M):
    for i in range(len(c)):
        out[i] = c[i] if i > 3 else int(np.sum(M[i]))


def raise_in_else(x, out):
    for i in range(len(x)):
        out[i] = 1.0 if x[i] >= 0 else math.sqrt(x[i])


@pytest.mark.parametrize("fn", [row_sum_in_else, row_sum_in_else_parallel])
def test_else_branch_of_a_conditional_expression(fn):
    """`a if c else b` ran b's row reduction (and b's raise checks) under `c and not c`:
    never (2026-12-05: the sums read 0)."""
    rng = np.random.default_rng(0)
    jit_same(fn, rng.integers(-9, 9, 12).astype(np.int32), rng.integers(-5, 5, 12), rng.integers(-9, 9, (12, 4)))


def test_raise_in_else_branch():
    x = np.linspace(-1.0, 1.0, 101)
    want = outcome(raise_in_else, x, np.zeros(101))
    got = outcome(jit(raise_in_else), x, np.zeros(101))
    assert want[0] is ValueError and got[0] is ValueError
    assert got[1].endswith(want[1])


def log_then_int(out):
    for i in range(len(out)):
        out[i] -= int(math.log(float(i))) % 5


def test_first_raise_of_an_iteration():
    """int(math.log(0.0)): Python stops at the log's ValueError; a parallel iteration went on
    to int(-inf), whose OverflowError (the greater code) won."""
    want = outcome(log_then_int, np.zeros(6, np.int64))
    got = outcome(jit(log_then_int), np.zeros(6, np.int64))
    assert want[0] is ValueError and got[0] is ValueError, (want[:2], got[:2])
    assert got[1].endswith(want[1])


def put(arr, i, v):
    arr[i] = v


def stride_two(a, b, c, iout, k):
    N = len(a)
    for i in range(1, N, 2):
        iout[i] = iout[i - 1] + ((-4 + (k if not (k > i) else i)) + i)
        if ((a[i] + -2) + -4) == ((1 - i) * min(i, i)):
            iout[i] = iout[i - 1] + (((c[i - 1] - i) & 10) + ((k - i) + (a[i] + 6)))
        put(iout, i, ((c[i] * i) if b[i - 1] > b[i] else (a[i] + i)))


def test_stride_two_stores_twice():
    """GCC 12.2 vectorised this loop (step 2, two stores into iout[i], selects over c[i - 1]
    and c[i]) wrongly at -O3 -march=native: such kernels compile without tree-loop-if-convert
    (emit.c, stride2_double_store)."""
    rng = np.random.default_rng(50219)
    jit_same(stride_two, rng.integers(-20, 20, 37), rng.uniform(-5, 5, 37), rng.integers(-9, 9, 37).astype(np.int32),
             np.zeros(37, np.int64), 3)


def stores_thrice(a, b, c, out, iout):
    for i in range(1, len(a) - 1):
        for j in range(2):
            iout[i] += j * c[i + 1]
        iout[i] = 0
        iout[i] = iout[i] + (a[i + 1] & 1)
        out[i] = b[i - 2] + out[i]


@pytest.mark.parametrize("n", [9, 20, 37])
def test_an_element_stored_three_times_in_jammed_lanes(n):
    """GCC 12.2's loop distribution at -O3 lost every store of iout (as if its `= 0` ran
    last) in this loop's kernel; the cpu backend compiles with -fno-tree-loop-distribution
    (seed 211433, 2026-12-05)."""
    rng = np.random.default_rng(n)
    jit_same(stores_thrice, rng.integers(-5, 5, n), rng.random(n), rng.integers(-5, 5, n).astype(np.int32),
             np.zeros(n), np.zeros(n, np.int64))
