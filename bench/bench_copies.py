#!/usr/bin/env python3
"""Copy-shaped operations against NumPy: clip, transposed copies, concatenate, nan_to_num.

For sizes 10^5, 10^6 and 10^7 elements (--sizes to choose) and float32, float64 and int64 data,
prints numgpu's time, NumPy's and the ratio NumPy / numgpu (> 1: numgpu is faster):
  np.clip(x, lo, hi) with scalar bounds, and with array bounds (broadcast rows),
  x.T.copy() and np.ascontiguousarray(x.T) of a square matrix,
  np.concatenate of two matrices along axis 0 and along axis 1,
  np.nan_to_num of float data with NaNs and infinities in it (a float case only).
Every result is compared with NumPy's before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_copies.py
    PYTHONPATH=python python bench/bench_copies.py --sizes 1e6 --repeat 9
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numgpu as ng  # noqa: E402
from _timing import compare  # noqa: E402


def cases(n, dtype):
    rng = np.random.default_rng(0)
    side = int(round(n ** 0.5))
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(n).astype(dtype)
        m = rng.standard_normal((side, side)).astype(dtype)
        lo, hi = -0.5, 0.5
        brow = np.linspace(-1, 0, side).astype(dtype)
    else:
        x = rng.integers(-1000, 1000, n).astype(dtype)
        m = rng.integers(-1000, 1000, (side, side)).astype(dtype)
        lo, hi = -300, 300
        brow = np.arange(side, dtype=dtype) - side
    gx, gm, gbrow = ng.asarray(x), ng.asarray(m), ng.asarray(brow)
    mm = m.reshape(side, side)
    gmm = ng.asarray(mm)
    t = np.dtype(dtype).name
    out = [
        ("clip %s scalar bounds" % t, lambda: ng.clip(gx, lo, hi), lambda: np.clip(x, lo, hi)),
        ("clip %s array lo (rows)" % t, lambda: ng.clip(gm, gbrow, hi), lambda: np.clip(m, brow, hi)),
        ("x.T.copy() %s" % t, lambda: gm.T.copy(), lambda: m.T.copy()),
        ("ascontiguousarray(x.T) %s" % t, lambda: ng.ascontiguousarray(gm.T), lambda: np.ascontiguousarray(m.T)),
        ("concatenate axis 0 %s" % t, lambda: ng.concatenate([gm, gmm]), lambda: np.concatenate([m, mm])),
        ("concatenate axis 1 %s" % t, lambda: ng.concatenate([gm, gmm], 1),
         lambda: np.concatenate([m, mm], 1)),
    ]
    if np.dtype(dtype).kind == "f":
        y = x.copy()
        y[::7] = np.nan
        y[1::11] = np.inf
        y[2::13] = -np.inf
        gy = ng.asarray(y)
        out.append(("nan_to_num %s" % t, lambda: ng.nan_to_num(gy), lambda: np.nan_to_num(y)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e5,1e6,1e7")
    ap.add_argument("--dtypes", default="float32,float64,int64")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("-k", default="", help="only the cases whose name contains this")
    args = ap.parse_args()
    bad = 0
    for n in (int(float(s)) for s in args.sizes.split(",")):
        for dt in args.dtypes.split(","):
            cs = [c for c in cases(n, dt) if args.k in c[0]]
            bad |= compare(cs, args.repeat, "\ndevice %s, n = %d" % (ng.get_device(), n), width=34)
    return bad


if __name__ == "__main__":
    sys.exit(main())
