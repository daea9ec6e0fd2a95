"""Arrays a @numgpu.jit function makes itself (`a = np.zeros(n)`) and arrays a return reads stay
on a GPU between the function's loops (python/numgpu/jit.py `_fresh_locals`, `_kept_names`'s
flushes): the device copy is written back before a return that reads it, or at the call's end.
Compared with plain Python on every device; on a device whose memory is not the host's (OpenCL
here), the transfers are counted too."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same

GPU_LIKE = numgpu.get_device() != "cpu"


def smooth_steps(x, steps):
    n = len(x)
    a = np.zeros(n)
    b = np.zeros(n)
    for i in range(n):
        a[i] = x[i]
    for t in range(steps):
        for i in range(1, n - 1):
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3
        for i in range(1, n - 1):
            a[i] = b[i]
    return a[n // 2], a.sum()


def knapsack(w, v, W):
    n = len(w)
    dp = np.zeros((n + 1, W + 1), dtype=np.int64)
    for i in range(1, n + 1):
        for c in range(W + 1):
            dp[i, c] = dp[i - 1, c]
            if w[i - 1] <= c:
                cand = dp[i - 1, c - w[i - 1]] + v[i - 1]
                if cand > dp[i, c]:
                    dp[i, c] = cand
    return dp[n, W]


def read_between(x, steps):
    a = np.zeros(len(x))
    firsts = []
    for t in range(steps):
        for i in range(len(x)):
            a[i] = a[i] + x[i]
        firsts.append(float(a[0]))   # (read between the loops: a is not kept)
    return firsts, a


def view_escapes(x):
    a = np.zeros(len(x))
    for i in range(len(x)):
        a[i] = x[i] * 2
    tail = a[1:]                      # (a view: a is not kept, tail sees the loop below)
    for i in range(len(x)):
        a[i] = a[i] + 1
    return tail.sum()


def param_returned_in_part(u, steps):
    for t in range(steps):
        for i in range(len(u)):
            u[i] = u[i] * 0.5 + 1
    return u[0], u[-1]


def made_in_a_branch(x, flag):
    if flag: a = np.zeros(len(x))   # noqa: E701 (a one-line if: not a kept local)
    else: a = np.ones(len(x))       # noqa: E701
    for i in range(len(x)):
        a[i] += x[i]
    return a[1]


def test_locals_stay_on_the_device():
    x = np.random.default_rng(0).random(5000)
    f = numgpu.jit(smooth_steps)
    want = smooth_steps(x, 7)
    assert f(x, 7) == want
    s0 = numgpu.stats()
    assert f(x, 7) == want
    s1 = numgpu.stats()
    if GPU_LIKE:   # (x once, a and b once each, not 2 per step; launches' small cells beside them)
        array = x.nbytes
        assert s1["upload_bytes"] - s0["upload_bytes"] < 4 * array
        assert s1["download_bytes"] - s0["download_bytes"] < 3 * array


@pytest.mark.parametrize("W", [0, 7, 300])
def test_a_return_reads_the_table(W):
    rng = np.random.default_rng(1)
    jit_same(knapsack, rng.integers(1, 20, 30), rng.integers(1, 50, 30), W)


@pytest.mark.parametrize("f, args", [
    (read_between, (np.arange(6.0), 4)),
    (view_escapes, (np.arange(9.0),)),
    (param_returned_in_part, (np.arange(10.0), 5)),
    (made_in_a_branch, (np.arange(4.0), True)),
    (made_in_a_branch, (np.arange(4.0), False)),
], ids=["read-between", "view-escapes", "param-returned", "branch-true", "branch-false"])
def test_reads_outside_the_loops_see_the_loops_writes(f, args):
    jit_same(f, *args)
