#!/usr/bin/env python3
"""The fixed cost of one @numgpu.jit call: a function whose loop has 16
elements, called many times, against the same function in plain Python and
under Numba's @njit (its dispatch). Microseconds per call; ratios > 1 mean
numgpu is faster.

    python bench/bench_jit_call.py [--n 16] [--calls 5000]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import numgpu  # noqa: E402


def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


def per_call(fn, args, calls):
    fn(*args)
    best = float("inf")
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.perf_counter() - t) / calls)
    return best * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--calls", type=int, default=5000)
    a = ap.parse_args()
    x = np.random.default_rng(0).standard_normal(a.n)
    args = (x, x.copy())
    jitted = numgpu.jit(dot)
    assert np.isclose(jitted(*args), dot(*args))
    t_ng = per_call(jitted, args, a.calls)
    t_py = per_call(dot, args, a.calls)
    print("device %s, %d elements per call" % (numgpu.get_device(), a.n))
    print("%-8s %10.2f us" % ("numgpu", t_ng))
    print("%-8s %10.2f us   numgpu %.2fx" % ("python", t_py, t_py / t_ng))
    try:
        import numba
        nb = numba.njit(dot)
        t_nb = per_call(nb, args, a.calls)
        print("%-8s %10.2f us   numgpu %.2fx" % ("numba", t_nb, t_nb / t_ng))
    except ImportError:
        print("numba    not installed")


if __name__ == "__main__":
    main()
