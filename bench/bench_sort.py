#!/usr/bin/env python3
"""Sorting, scans and counting: numgpu against NumPy on the current device.

Prints, per operation on large inputs (float64 10^6 elements by default,
--n to change), numgpu's time, NumPy's (best of --repeat runs each) and ratio = numpy_time / numgpu_time
(> 1: numgpu is faster). Each numgpu result is compared with NumPy's before
it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_sort.py [--n 1000000] [--repeat 5]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def host(r):
    return tuple(host(x) for x in r) if isinstance(r, tuple) else (r.get() if hasattr(r, "get") else np.asarray(r))


def same(got, exp):
    if isinstance(exp, tuple):
        return all(same(g, e) for g, e in zip(got, exp))
    exp = np.asarray(exp)
    if exp.dtype.kind in "fc":
        rtol = 1e-3 if exp.dtype == np.float16 else 1e-9
        return got.shape == exp.shape and np.allclose(got, exp, rtol=rtol, equal_nan=True)
    return got.shape == exp.shape and np.array_equal(got, exp)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**6)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n)
    m = rng.standard_normal((n // 1000, 1000))
    ints = rng.integers(0, 1000, n)
    small = rng.integers(0, 100, n)
    q = np.sort(rng.standard_normal(n // 10))
    h = x.astype(np.float16)   # many ties: 10^6 values in 2^16 bit patterns
    hs = (x[: n // 10] * 0.1).astype(np.float16)   # a float16 running sum that stays in range
    c = x + 1j * rng.standard_normal(n)
    f4, i4 = x.astype(np.float32), rng.integers(-2**31, 2**31 - 1, n, dtype=np.int32)
    gf4, gi4 = ng.asarray(f4), ng.asarray(i4)
    gx, gm, gi, gs, gq = (ng.asarray(v) for v in (x, m, ints, small, q))
    gh, ghs, gc = ng.asarray(h), ng.asarray(hs), ng.asarray(c)
    cases = [
        ("sort float64 (n)", lambda: ng.sort(gx), lambda: np.sort(x)),
        ("sort rows (n/1000 x 1000)", lambda: ng.sort(gm, axis=1), lambda: np.sort(m, axis=1)),
        ("argsort float64 (n)", lambda: ng.argsort(gx), lambda: np.argsort(x, kind="stable")),
        ("sort int64 (n)", lambda: ng.sort(gi), lambda: np.sort(ints)),
        ("sort float32 (n)", lambda: ng.sort(gf4), lambda: np.sort(f4)),
        ("argsort int32 (n)", lambda: ng.argsort(gi4), lambda: np.argsort(i4, kind="stable")),
        ("sort float16 (n)", lambda: ng.sort(gh), lambda: np.sort(h)),
        ("argsort float16 (n)", lambda: ng.argsort(gh), lambda: np.argsort(h, kind="stable")),
        ("sort complex128 (n)", lambda: ng.sort(gc), lambda: np.sort(c)),
        ("argsort complex128 (n)", lambda: ng.argsort(gc), lambda: np.argsort(c, kind="stable")),
        ("unique int64 + counts", lambda: ng.unique(gi, return_counts=True), lambda: np.unique(ints, return_counts=True)),
        ("cumsum float64 (n)", lambda: ng.cumsum(gx), lambda: np.cumsum(x)),
        ("cumsum axis=0 (n/1000 x 1000)", lambda: ng.cumsum(gm, axis=0), lambda: np.cumsum(m, axis=0)),
        ("cumsum float16 (n/10)", lambda: ng.cumsum(ghs), lambda: np.cumsum(hs)),
        ("cumsum complex128 (n)", lambda: ng.cumsum(gc), lambda: np.cumsum(c)),
        ("searchsorted n queries in n/10", lambda: ng.searchsorted(gq, gx), lambda: np.searchsorted(q, x)),
        ("bincount int64", lambda: ng.bincount(gs), lambda: np.bincount(small)),
        ("bincount weighted", lambda: ng.bincount(gs, weights=gx), lambda: np.bincount(small, weights=x)),
        ("histogram 100 bins", lambda: ng.histogram(gx, bins=100), lambda: np.histogram(x, bins=100)),
        ("percentile axis=1", lambda: ng.percentile(gm, [5, 50, 95], axis=1),
         lambda: np.percentile(m, [5, 50, 95], axis=1)),
        ("nanmean", lambda: ng.nanmean(gx), lambda: np.nanmean(x)),
        ("round(decimals=2)", lambda: ng.round(gx, 2), lambda: np.round(x, 2)),
    ]
    print(f"device {ng.get_device()}, n = {n}")
    print(f"{'operation':34s} {'numgpu ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    bad = 0
    for name, fg, fn in cases:
        if not same(host(fg()), fn()):
            print(f"{name:34s} MISMATCH with NumPy")
            bad += 1
            continue
        tg, tn = best_time(fg, args.repeat), best_time(fn, args.repeat)
        print(f"{name:34s} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {tn / tg:7.2f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
