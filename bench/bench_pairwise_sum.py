#!/usr/bin/env python3
"""float32/float64 sum and mean on the current device against NumPy: whole arrays of 10^3,
10^5 and 10^7 elements, a mean of 10^7, and X.sum(axis=1) of 1000 x 1000 and 10^5 x 10; then
leading axes (X.sum(axis=0), mean(axis=0), std(axis=0), (0, 1) of 3-d) and whole sums of views
that are not one contiguous run (x[::2], x[::-1], X[:, :5], X[::2], X.T, X[:, ::2, :5] over (1, 2)).
On cpu these run NumPy's order (bit for bit: checked before timing; elsewhere within
rounding; a cpu result that is not NumPy's bits is reported). Prints numgpu's best time,
NumPy's, the ratio NumPy time / numgpu time (> 1: numgpu faster) and whether the bits equal.

    python bench/bench_pairwise_sum.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numgpu as ng  # noqa: E402
from _timing import best_time  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    exact = ng.get_device() == "cpu"
    cases = []
    for dt in (np.float64, np.float32):
        for n in (10 ** 3, 10 ** 5, 10 ** 7):
            cases.append((f"sum {n:>8} {dt.__name__}", rng.standard_normal(n).astype(dt), lambda v: v.sum()))
        cases.append((f"mean {10**7:>7} {dt.__name__}", rng.standard_normal(10 ** 7).astype(dt), lambda v: v.mean()))
        for shp in ((1000, 1000), (100000, 10)):
            cases.append((f"sum(axis=1) {shp} {dt.__name__}", rng.standard_normal(shp).astype(dt),
                          lambda v: v.sum(axis=1)))
    for dt in (np.float64, np.float32):
        X = rng.standard_normal((1000, 1000)).astype(dt)
        T = rng.standard_normal((100000, 10)).astype(dt)
        A = rng.standard_normal((100, 100, 100)).astype(dt)
        x = rng.standard_normal(10 ** 7).astype(dt)
        n = dt.__name__
        cases += [(f"sum(axis=0) (1000, 1000) {n}", X, lambda v: v.sum(axis=0)),
                  (f"sum(axis=0) (100000, 10) {n}", T, lambda v: v.sum(axis=0)),
                  (f"mean(axis=0) (100000, 10) {n}", T, lambda v: v.mean(axis=0)),
                  (f"std(axis=0) (100000, 10) {n}", T, lambda v: v.std(axis=0)),
                  (f"sum(axis=(0,1)) 100^3 {n}", A, lambda v: v.sum(axis=(0, 1))),
                  (f"x[::2].sum() 10^7 {n}", x, lambda v: v[::2].sum()),
                  (f"x[::-1].sum() 10^7 {n}", x, lambda v: v[::-1].sum()),
                  (f"X[:, :5].sum() (100000, 10) {n}", T, lambda v: v[:, :5].sum()),
                  (f"X[::2].sum() (1000, 1000) {n}", X, lambda v: v[::2].sum()),
                  (f"X.T.sum() (1000, 1000) {n}", X, lambda v: v.T.sum()),
                  (f"X[:, ::2, :5].sum((1, 2)) 100^3 {n}", A, lambda v: v[:, ::2, :5].sum(axis=(1, 2))),
                  (f"X[:, :500].std() (1000, 1000) {n}", X, lambda v: v[:, :500].std())]
    print(f"{'case':44} {'numgpu us':>10} {'numpy us':>10} {'ratio':>7} bits")
    for name, x, f in cases:
        g = ng.asarray(x)
        r, e = np.asarray(f(g)), f(x)
        tol = 1e-4 if x.dtype == np.float32 else 1e-10
        np.testing.assert_allclose(r, e, rtol=tol, atol=tol)
        same = r.tobytes() == np.asarray(e).tobytes()
        if exact and not same:
            print(f"{name}: not NumPy's bits")
        rep = 200 if x.size <= 10 ** 5 else 20
        tg = best_time(lambda: f(g), rep)
        tn = best_time(lambda: f(x), rep)
        print(f"{name:44} {tg * 1e6:10.1f} {tn * 1e6:10.1f} {tn / tg:7.2f} {'equal' if same else 'differ'}")


if __name__ == "__main__":
    main()
