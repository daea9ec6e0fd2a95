#!/usr/bin/env python3
"""Sorting, scans and counting: numgpu against NumPy on the current device.

Prints, per operation on large inputs (float64 10^6 elements by default,
--n to change), numgpu's time, NumPy's (best of --repeat runs each) and ratio = numpy_time / numgpu_time
(> 1: numgpu is faster). Each numgpu result is compared with NumPy's before
it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_sort.py [--n 1000000] [--repeat 5]
"""
import sys

import numpy as np

import numgpu as ng
from _timing import bench_args, compare  # noqa: E402


def main():
    args = bench_args(__doc__)
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
    edges = np.sort(rng.standard_normal(300)) * 1.5     # (binary searches in the edges)
    gedges = ng.asarray(edges)
    r10, r100 = x.reshape(-1, 10), x.reshape(-1, 100)
    g10, g100 = gx.reshape(-1, 10), gx.reshape(-1, 100)
    cases = [
        ("sort float64 (n)", lambda: ng.sort(gx), lambda: np.sort(x)),
        ("sort rows of 10 (n/10 x 10)", lambda: ng.sort(g10, axis=1), lambda: np.sort(r10, axis=1)),
        ("argsort rows of 100", lambda: ng.argsort(g100, axis=1), lambda: np.argsort(r100, axis=1)),
        ("partition float64 (n) at n/2", lambda: ng.partition(gx, n // 2), lambda: np.partition(x, n // 2)),
        ("unique float64 (n)", lambda: ng.unique(gx), lambda: np.unique(x)),
        ("median axis=1 (n/1000 x 1000)", lambda: ng.median(gm, axis=1), lambda: np.median(m, axis=1)),
        ("sort rows (n/1000 x 1000)", lambda: ng.sort(gm, axis=1), lambda: np.sort(m, axis=1)),
        ("argsort float64 (n), stable", lambda: ng.argsort(gx, kind="stable"), lambda: np.argsort(x, kind="stable")),
        ("sort int64 (n)", lambda: ng.sort(gi), lambda: np.sort(ints)),
        ("sort float32 (n)", lambda: ng.sort(gf4), lambda: np.sort(f4)),
        ("argsort int32 (n), stable", lambda: ng.argsort(gi4, kind="stable"), lambda: np.argsort(i4, kind="stable")),
        ("sort float16 (n)", lambda: ng.sort(gh), lambda: np.sort(h)),
        ("argsort float16 (n), stable", lambda: ng.argsort(gh, kind="stable"), lambda: np.argsort(h, kind="stable")),
        ("sort complex128 (n)", lambda: ng.sort(gc), lambda: np.sort(c)),
        ("argsort complex128 (n), stable", lambda: ng.argsort(gc, kind="stable"), lambda: np.argsort(c, kind="stable")),
        ("unique int64 + counts", lambda: ng.unique(gi, return_counts=True), lambda: np.unique(ints, return_counts=True)),
        ("cumsum float64 (n)", lambda: ng.cumsum(gx), lambda: np.cumsum(x)),
        ("cumsum axis=0 (n/1000 x 1000)", lambda: ng.cumsum(gm, axis=0), lambda: np.cumsum(m, axis=0)),
        ("cumsum float16 (n/10)", lambda: ng.cumsum(ghs), lambda: np.cumsum(hs)),
        ("cumsum complex128 (n)", lambda: ng.cumsum(gc), lambda: np.cumsum(c)),
        ("searchsorted n queries in n/10", lambda: ng.searchsorted(gq, gx), lambda: np.searchsorted(q, x)),
        ("bincount int64", lambda: ng.bincount(gs), lambda: np.bincount(small)),
        ("bincount weighted", lambda: ng.bincount(gs, weights=gx), lambda: np.bincount(small, weights=x)),
        ("histogram 100 bins", lambda: ng.histogram(gx, bins=100), lambda: np.histogram(x, bins=100)),
        ("histogram 300 uneven edges", lambda: ng.histogram(gx, bins=gedges), lambda: np.histogram(x, bins=edges)),
        ("percentile axis=1", lambda: ng.percentile(gm, [5, 50, 95], axis=1),
         lambda: np.percentile(m, [5, 50, 95], axis=1)),
        ("nanmean", lambda: ng.nanmean(gx), lambda: np.nanmean(x)),
        ("round(decimals=2)", lambda: ng.round(gx, 2), lambda: np.round(x, 2)),
    ]
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}")


if __name__ == "__main__":
    sys.exit(main())
