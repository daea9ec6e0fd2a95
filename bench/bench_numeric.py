#!/usr/bin/env python3
"""NumPy's numerical helpers (interp, digitize, isin, cov, corrcoef, convolve, correlate,
trapezoid, gradient, polyval, ediff1d): numgpu against NumPy on the current device.

Prints, per operation at a size typical for it (10^6 elements by default, --n to change),
numgpu's time, NumPy's (best of --repeat runs each) and ratio = numpy_time / numgpu_time
(> 1: numgpu is faster). Each numgpu result is compared with NumPy's before it is timed;
a mismatch exits 1.

    PYTHONPATH=python python bench/bench_numeric.py [--n 1000000] [--repeat 5]
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
    xp = np.sort(rng.uniform(-4, 4, n // 100))
    fp = np.sin(xp)
    fc = fp + 1j * np.cos(xp)
    bins = np.linspace(-3, 3, 101)
    ints = rng.integers(0, 10 * n, n)
    tests = rng.integers(0, 10 * n, n // 100)
    m = rng.standard_normal((100, n // 100))
    k16, k1000 = rng.standard_normal(16), rng.standard_normal(1000)
    t = np.cumsum(rng.uniform(0.5, 1.5, n))
    grid = x.reshape(1000, -1)
    coef = rng.standard_normal(11)
    g = {name: ng.asarray(v) for name, v in dict(x=x, xp=xp, fp=fp, fc=fc, bins=bins, ints=ints, tests=tests, m=m,
                                                 k16=k16, k1000=k1000, t=t, grid=grid, coef=coef).items()}
    cases = [
        ("interp n in n/100 samples", lambda: ng.interp(g["x"], g["xp"], g["fp"]), lambda: np.interp(x, xp, fp)),
        ("interp complex fp", lambda: ng.interp(g["x"], g["xp"], g["fc"]), lambda: np.interp(x, xp, fc)),
        ("digitize n in 100 bins", lambda: ng.digitize(g["x"], g["bins"]), lambda: np.digitize(x, bins)),
        ("isin int64 n in n/100", lambda: ng.isin(g["ints"], g["tests"]), lambda: np.isin(ints, tests)),
        ("cov 100 x n/100", lambda: ng.cov(g["m"]), lambda: np.cov(m)),
        ("corrcoef 100 x n/100", lambda: ng.corrcoef(g["m"]), lambda: np.corrcoef(m)),
        ("convolve n with 16 (slices)", lambda: ng.convolve(g["x"], g["k16"]), lambda: np.convolve(x, k16)),
        ("correlate n with 16 'same'", lambda: ng.correlate(g["x"], g["k16"], "same"),
         lambda: np.correlate(x, k16, "same")),
        ("convolve n with 1000 (FFT)", lambda: ng.convolve(g["x"], g["k1000"]), lambda: np.convolve(x, k1000)),
        ("trapezoid n, x=", lambda: ng.trapezoid(g["x"], g["t"]), lambda: np.trapezoid(x, t)),
        ("gradient 1000 x n/1000 order 2", lambda: ng.gradient(g["grid"], edge_order=2),
         lambda: np.gradient(grid, edge_order=2)),
        ("polyval degree 10 at n", lambda: ng.polyval(g["coef"], g["x"]), lambda: np.polyval(coef, x)),
        ("ediff1d n, to_begin", lambda: ng.ediff1d(g["x"], to_begin=0.0), lambda: np.ediff1d(x, to_begin=0.0)),
    ]
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}", atol=1e-09)


if __name__ == "__main__":
    sys.exit(main())
