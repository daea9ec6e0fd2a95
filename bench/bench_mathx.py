#!/usr/bin/env python3
"""numgpu/_mathx.py's compositions: numgpu against NumPy on the current device.

Prints, per operation on 10^6 elements (--n to change), numgpu's time, NumPy's (best of --repeat
runs each) and ratio = numpy_time / numgpu_time (> 1: numgpu is faster). Each numgpu result is
compared with NumPy's before it is timed; a mismatch exits 1. polyfit has no row: it needs
linalg.lstsq, which runs on NumPy.

    PYTHONPATH=python python bench/bench_mathx.py [--n 1000000] [--repeat 5]
"""
import argparse
import sys
import warnings

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def host(r):
    if isinstance(r, tuple):
        return tuple(host(x) for x in r)
    return r.get() if hasattr(r, "get") else np.asarray(r)


def same(got, exp):
    if isinstance(exp, tuple):
        return len(got) == len(exp) and all(same(g, e) for g, e in zip(got, exp))
    exp = np.asarray(exp)
    if exp.dtype.kind in "fc":
        return got.shape == exp.shape and np.allclose(got, exp, rtol=1e-9, equal_nan=True)
    return got.shape == exp.shape and np.array_equal(got, exp)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**6)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n) * 10, rng.standard_normal(n)
    v, w = rng.standard_normal((n // 3, 3)), rng.standard_normal((n // 3, 3))
    phase = np.cumsum(rng.standard_normal((n // 1000, 1000)), axis=1)
    e = rng.integers(-60, 60, n).astype(np.int32)
    gx, gy, gv, gw, gp, ge = (ng.asarray(a) for a in (x, y, v, w, phase, e))
    cases = [
        ("cross (n/3 3-vectors)", lambda: ng.cross(gv, gw), lambda: np.cross(v, w)),
        ("unwrap rows (n/1000 x 1000)", lambda: ng.unwrap(gp), lambda: np.unwrap(phase)),
        ("frexp float64 (n)", lambda: ng.frexp(gx), lambda: np.frexp(x)),
        ("ldexp float64 (n)", lambda: ng.ldexp(gx, ge), lambda: np.ldexp(x, e)),
        ("i0 float64 (n)", lambda: ng.i0(gx), lambda: np.i0(x)),
        ("histogram2d 64 x 64 bins (n)", lambda: ng.histogram2d(gx, gy, bins=64),
         lambda: np.histogram2d(x, y, bins=64)),
        ("piecewise 2 pieces (n)", lambda: ng.piecewise(gx, [gx < 0], [lambda t: t * t, lambda t: -t]),
         lambda: np.piecewise(x, [x < 0], [lambda t: t * t, lambda t: -t])),
    ]
    print(f"device {ng.get_device()}, n = {n}")
    print(f"{'operation':34s} {'numgpu ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    bad = 0
    warnings.simplefilter("ignore", RuntimeWarning)
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
