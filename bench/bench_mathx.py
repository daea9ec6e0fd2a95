#!/usr/bin/env python3
"""numgpu/_mathx.py's compositions: numgpu against NumPy on the current device.

Prints, per operation on 10^6 elements (--n to change), numgpu's time, NumPy's (best of --repeat
runs each) and ratio = numpy_time / numgpu_time (> 1: numgpu is faster). Each numgpu result is
compared with NumPy's before it is timed; a mismatch exits 1. polyfit has no row: it needs
linalg.lstsq, which runs on NumPy.

    PYTHONPATH=python python bench/bench_mathx.py [--n 1000000] [--repeat 5]
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
    x, y = rng.standard_normal(n) * 10, rng.standard_normal(n)
    v, w = rng.standard_normal((n // 3, 3)), rng.standard_normal((n // 3, 3))
    phase = np.cumsum(rng.standard_normal((n // 1000, 1000)), axis=1)
    e = rng.integers(-60, 60, n).astype(np.int32)
    x32, x16 = x.astype(np.float32), (x / 16).astype(np.float16)
    gx, gy, gv, gw, gp, ge, gx32, gx16 = (ng.asarray(a) for a in (x, y, v, w, phase, e, x32, x16))
    cases = [
        ("cross (n/3 3-vectors)", lambda: ng.cross(gv, gw), lambda: np.cross(v, w)),
        ("unwrap rows (n/1000 x 1000)", lambda: ng.unwrap(gp), lambda: np.unwrap(phase)),
        ("frexp float64 (n)", lambda: ng.frexp(gx), lambda: np.frexp(x)),
        ("ldexp float64 (n)", lambda: ng.ldexp(gx, ge), lambda: np.ldexp(x, e)),
        ("frexp float32 (n)", lambda: ng.frexp(gx32), lambda: np.frexp(x32)),
        ("ldexp float32 (n)", lambda: ng.ldexp(gx32, ge), lambda: np.ldexp(x32, e)),
        ("frexp float16 (n)", lambda: ng.frexp(gx16), lambda: np.frexp(x16)),
        ("ldexp float16 (n)", lambda: ng.ldexp(gx16, ge), lambda: np.ldexp(x16, e)),
        ("i0 float64 (n)", lambda: ng.i0(gx), lambda: np.i0(x)),
        ("i0 float32 (n)", lambda: ng.i0(gx32), lambda: np.i0(x32)),
        ("kaiser(4, 2.0)", lambda: ng.kaiser(4, 2.0), lambda: np.kaiser(4, 2.0)),
        ("kaiser(1001, 8.6)", lambda: ng.kaiser(1001, 8.6), lambda: np.kaiser(1001, 8.6)),
        ("histogram2d 64 x 64 bins (n)", lambda: ng.histogram2d(gx, gy, bins=64),
         lambda: np.histogram2d(x, y, bins=64)),
        ("piecewise 2 pieces (n)", lambda: ng.piecewise(gx, [gx < 0], [lambda t: t * t, lambda t: -t]),
         lambda: np.piecewise(x, [x < 0], [lambda t: t * t, lambda t: -t])),
    ]
    warnings.simplefilter("ignore", RuntimeWarning)
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}")


if __name__ == "__main__":
    sys.exit(main())
