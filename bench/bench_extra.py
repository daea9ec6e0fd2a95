#!/usr/bin/env python3
"""numgpu/_extra.py's compositions: numgpu against NumPy on the current device.

Prints, per operation on 10^6 elements (--n to change), numgpu's time, NumPy's (best of --repeat
runs each) and ratio = numpy_time / numgpu_time (> 1: numgpu is faster). Each numgpu result is
compared with NumPy's before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_extra.py [--n 1000000] [--repeat 5]
"""
import sys
import warnings

import numpy as np

import numgpu as ng
from _timing import bench_args, compare  # noqa: E402


def main():
    args = bench_args(__doc__)
    n = args.n
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n)
    xn = np.where(rng.random(n) < 0.1, np.nan, x)
    m = xn.reshape(n // 1000, 1000)
    a, b = rng.integers(0, n, n), rng.integers(0, n, n // 2)
    k1, k2 = rng.standard_normal((100, 100)), rng.standard_normal((10, n // 10**5))
    idx = rng.integers(0, n, 1000)
    gx, gxn, gm, ga, gb = (ng.asarray(v) for v in (x, xn, m, a, b))
    gk1, gk2, gidx = ng.asarray(k1), ng.asarray(k2), ng.asarray(idx)
    cases = [
        ("nanpercentile (n, 10% NaN)", lambda: ng.nanpercentile(gxn, [5, 50, 95]),
         lambda: np.nanpercentile(xn, [5, 50, 95])),
        ("nanquantile rows (n/1000 x 1000)", lambda: ng.nanquantile(gm, 0.3, axis=1),
         lambda: np.nanquantile(m, 0.3, axis=1)),
        ("unique_all int64 (n)", lambda: tuple(ng.unique_all(ga)),
         lambda: np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)),
        ("unique_counts float64 (n)", lambda: tuple(ng.unique_counts(gxn)), lambda: tuple(np.unique_counts(xn))),
        ("unique_values float64 (n)", lambda: ng.unique_values(gx), lambda: np.unique_values(x)),
        ("intersect1d int64 (n, n/2)", lambda: ng.intersect1d(ga, gb), lambda: np.intersect1d(a, b)),
        ("intersect1d return_indices", lambda: ng.intersect1d(ga, gb, return_indices=True),
         lambda: np.intersect1d(a, b, return_indices=True)),
        ("union1d int64 (n, n/2)", lambda: ng.union1d(ga, gb), lambda: np.union1d(a, b)),
        ("setdiff1d int64 (n, n/2)", lambda: ng.setdiff1d(ga, gb), lambda: np.setdiff1d(a, b)),
        ("setxor1d int64 (n, n/2)", lambda: ng.setxor1d(ga, gb), lambda: np.setxor1d(a, b)),
        ("kron (100 x 100, 10 x n/10^5)", lambda: ng.kron(gk1, gk2), lambda: np.kron(k1, k2)),
        ("geomspace (n)", lambda: ng.geomspace(1, 1e6, n), lambda: np.geomspace(1, 1e6, n)),
        ("geomspace complex (n)", lambda: ng.geomspace(1j, 1e6 + 1j, n), lambda: np.geomspace(1j, 1e6 + 1j, n)),
        ("delete 1000 indices (n)", lambda: ng.delete(gx, gidx), lambda: np.delete(x, idx)),
        ("delete slice (n)", lambda: ng.delete(gx, slice(None, None, 3)), lambda: np.delete(x, slice(None, None, 3))),
        ("insert 1000 values (n)", lambda: ng.insert(gx, gidx, 1.5), lambda: np.insert(x, idx, 1.5)),
        ("insert one index (n)", lambda: ng.insert(gx, n // 2, [1.0, 2.0]), lambda: np.insert(x, n // 2, [1.0, 2.0])),
        ("cumulative_sum include_initial", lambda: ng.cumulative_sum(gx, include_initial=True),
         lambda: np.cumulative_sum(x, include_initial=True)),
    ]
    warnings.simplefilter("ignore", RuntimeWarning)
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}")


if __name__ == "__main__":
    sys.exit(main())
