#!/usr/bin/env python3
"""ufunc.accumulate of maximum and subtract: numgpu against NumPy on the current device.

Prints, per case (float64: 10^7 elements and a 1000 x 10000 array along
either axis by default; --n and --rows to change), numgpu's time, NumPy's
(best of --repeat runs each) and ratio = numpy_time / numgpu_time (> 1:
numgpu is faster). numgpu runs numgpu._core.cumulative with the op's code.
Each numgpu result is compared with NumPy's before it is timed (exactly:
maximum is exact everywhere, subtract runs in NumPy's order); a mismatch
exits 1.

    PYTHONPATH=python python bench/bench_accumulate.py [--n 10000000] [--rows 1000] [--repeat 5]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from numgpu import _core
from _timing import best_time  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**7)
    p.add_argument("--rows", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(args.n)
    m = rng.standard_normal((args.rows, args.n // args.rows))
    gx, gm = ng.asarray(x), ng.asarray(m)
    code = {name: _core.op_names().index(name) for name in ("maximum", "subtract")}
    cases = []
    for name in ("maximum", "subtract"):
        ufunc = getattr(np, name)
        cases += [
            (f"{name}.accumulate (n)", lambda c=code[name]: _core.cumulative(c, gx, 0, None),
             lambda u=ufunc: u.accumulate(x)),
            (f"{name}.accumulate axis=0 ({m.shape[0]} x {m.shape[1]})",
             lambda c=code[name]: _core.cumulative(c, gm, 0, None), lambda u=ufunc: u.accumulate(m, axis=0)),
            (f"{name}.accumulate axis=1 ({m.shape[0]} x {m.shape[1]})",
             lambda c=code[name]: _core.cumulative(c, gm, 1, None), lambda u=ufunc: u.accumulate(m, axis=1)),
        ]
    print(f"device {ng.get_device()}, n = {args.n}")
    print(f"{'operation':44s} {'numgpu ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    bad = 0
    for name, fg, fn in cases:
        if not np.array_equal(fg().get(), fn(), equal_nan=True):
            print(f"{name:44s} MISMATCH with NumPy")
            bad += 1
            continue
        tg, tn = best_time(fg, args.repeat), best_time(fn, args.repeat)
        print(f"{name:44s} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {tn / tg:7.2f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
