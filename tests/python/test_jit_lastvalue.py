"""@numgpu.jit loops whose result is the value of one iteration, each compared with plain Python
on real data, types of the results included, on cpu and opencl:
an argmin/argmax pair by `<=`/`>=` where no element passes (the start's own object stays),
a name assigned in the loop and read after it (the last iteration's value, or the last that
passed a test: an argmax pair on the iteration number), and the first iteration's error
where several iterations of a parallel loop fail in different ways."""
import numpy as np
import pytest

import numgpu

from helpers import jit_same

N = 100_003  # over the parallel threshold, odd so that threads' shares differ


@pytest.fixture(params=["cpu", "opencl"])
def device(request, monkeypatch):
    if request.param == "opencl":
        try:
            numgpu.zeros(1, device="opencl")
        except Exception as exc:  # (no OpenCL platform here)
            pytest.skip("no opencl device: %s" % exc)
        monkeypatch.setenv("NUMGPU_DEVICE", "opencl")
    return request.param


def kinds(f):
    return [d["kind"] for d in f.loop_report()]


# ---- 1. argmin/argmax pairs by <= and >= (hunt 8, F2) ----

def argmax_ge(x, best, u):
    for i in range(x.shape[0]):
        if x[i] >= best:
            best = x[i]
            u = i
    return u, best


def argmin_le(x, best, u):
    for i in range(x.shape[0]):
        if x[i] <= best:
            best = x[i]
            u = i
    return u, best


def argmin_le_back(x, best, u):
    for i in range(x.shape[0] - 1, -1, -2):
        if x[i] <= best:
            best = x[i]
            u = i
    return u, best


def argmin_lt(x, best, u):
    for i in range(x.shape[0]):
        if x[i] < best:
            best = x[i]
            u = i
    return u, best


def dijkstra_le(dist, done):
    best = 1e300
    u = -1
    for i in range(dist.shape[0]):
        if not done[i] and dist[i] <= best:
            best = dist[i]
            u = i
    return u, best


@pytest.mark.parametrize("fn", [argmax_ge, argmin_le, argmin_le_back, argmin_lt])
@pytest.mark.parametrize("start", [1e300, -1e300, 2.0, np.float64(2.0), 2])
@pytest.mark.parametrize("u", [-1, -1.0])
def test_argpair_ties_keep_start(fn, start, u, device):
    rng = np.random.default_rng(5)
    n = N if device == "cpu" else 5_001
    for x in (np.zeros(0), np.full(n, np.inf), np.full(n, -np.inf), np.full(n, 2.0),
              rng.integers(0, 5, n).astype(float)):
        f = jit_same(fn, x, start, u)
    assert kinds(f) == ["parallel" if type(u) is int else "python"]  # (u = i of a float u: Python's)


def test_dijkstra_le_nothing_passes(device):
    d = np.full(50, np.inf)
    done = np.zeros(50, bool)
    f = jit_same(dijkstra_le, d, done)
    assert f(d, done) == (-1, 1e300) and type(f(d, done)[1]) is float
    d[7] = 1e300
    jit_same(dijkstra_le, d, done)
