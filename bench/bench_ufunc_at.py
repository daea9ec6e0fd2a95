#!/usr/bin/env python3
"""ufunc methods and keywords: numgpu against NumPy on the current device.

ufunc.at (scatter updates with repeated indices: a histogram's np.add.at, a running
maximum per bin), ufunc.outer, a call with where= and out=, and the left fold of a
non-reorderable op (np.subtract.reduce). Prints numgpu's time, NumPy's (best of
--repeat runs each) and ratio = numpy_time / numgpu_time (> 1: numgpu is faster).
Each numgpu result is compared with NumPy's before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_ufunc_at.py [--n 10000000] [--repeat 5]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**7)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 1000, n)
    vals = rng.standard_normal(n)
    ivals = rng.integers(-5, 5, n)
    a, b = rng.standard_normal(n), rng.integers(-2, 3, n).astype(np.float64)
    side = int(np.sqrt(n / 4))
    u, v = rng.standard_normal(side), rng.standard_normal(side)
    gidx, gvals, givals, ga, gb = (ng.asarray(x) for x in (idx, vals, ivals, a, b))
    gu, gv = ng.asarray(u), ng.asarray(v)
    ghost_out, gout = np.zeros(n), ng.zeros(n)

    def at(mod, name, dt, x, i, w):
        def run():
            h = mod.zeros(1000, dt)
            getattr(mod, name).at(h, i, w)
            return h
        return run

    cases = [
        ("add.at, 1000 bins, float64", at(np, "add", np.float64, None, idx, vals),
         at(ng, "add", np.float64, None, gidx, gvals), 1e-9),
        ("add.at, 1000 bins, int64", at(np, "add", np.int64, None, idx, ivals),
         at(ng, "add", np.int64, None, gidx, givals), 0),
        ("maximum.at, 1000 bins", at(np, "maximum", np.float64, None, idx, vals),
         at(ng, "maximum", np.float64, None, gidx, gvals), 0),
        ("subtract.outer %dx%d" % (side, side), lambda: np.subtract.outer(u, v), lambda: ng.subtract.outer(gu, gv), 0),
        ("divide(a, b, out=, where=b != 0)", lambda: np.divide(a, b, out=ghost_out, where=b != 0),
         lambda: ng.divide(ga, gb, out=gout, where=gb != 0), 0),
        ("subtract.reduce", lambda: np.subtract.reduce(a), lambda: ng.subtract.reduce(ga), 1e-9),
    ]
    print("device %s, n = %d" % (ng.get_device(), n))
    print("%-36s %12s %12s %8s" % ("op", "numgpu s", "numpy s", "ratio"))
    bad = 0
    for name, fnp, fng, rtol in cases:
        exp, got = np.asarray(fnp()), fng()
        got = got.get() if hasattr(got, "get") else np.asarray(got)
        if name.startswith("divide"):        # where b == 0 both keep what out held: compare the rest
            exp, got = exp[b != 0], got[b != 0]
        if not (np.allclose(got, exp, rtol=rtol, atol=0) if rtol else np.array_equal(got, exp)):
            print("MISMATCH in %s" % name)
            bad += 1
            continue
        t_ng, t_np = best_time(fng, args.repeat), best_time(fnp, args.repeat)
        print("%-36s %12.5f %12.5f %8.2f" % (name, t_ng, t_np, t_np / t_ng))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
