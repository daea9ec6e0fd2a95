#!/usr/bin/env python3
"""What checking reads' indices costs @numgpu.jit loops: each case of the loop corpus
(../shared/kernels, or --dir) at its bench size under boundscheck=False (reads unchecked, the
speed before reads were checked by default), the default (reads checked: before the loop where
the index is affine in the ranges' counters, else where it runs) and boundscheck=True (every
index where it runs), timed in turns in one run (bench_jit.interleaved, best of --repeat).

    python bench/bench_jit_bounds.py [--only saxpy,histogram] [--dir bench/jit_gathers] [--repeat 5]

Ratios are times over boundscheck=False's: 1.00 costs nothing, above 1 slower."""
import argparse
import copy
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_jit import CORPUS, agree, interleaved, load  # noqa: E402
import numgpu  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--dir", default=CORPUS)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", default="bench", help="the inputs' size: bench or test")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    paths = sorted(p for p in os.listdir(args.dir) if p.endswith(".py") and p != "run.py")
    print("device %s" % numgpu.get_device())
    print("%-18s %10s %10s %10s %8s %8s" % ("case", "False s", "default s", "True s", "default", "True"))
    ratios = []
    for p in paths:
        name, mod = load(os.path.join(args.dir, p))
        if only and name not in only:
            continue
        data = mod.inputs(args.size, np.random.default_rng(0))
        fns = [numgpu.jit(mod.kernel, boundscheck=False), numgpu.jit(mod.kernel),
               numgpu.jit(mod.kernel, boundscheck=True)]
        try:
            for f in fns:
                f(*copy.deepcopy(data))  # compile (first call)
        except Exception as e:  # noqa: BLE001 - report and go on
            print("%-18s failed: %s" % (name, str(e)[:80]))
            continue
        (t0, o0, a0), (t1, o1, a1), (t2, o2, a2) = interleaved(fns, data, repeat=args.repeat)
        check = getattr(mod, "agree", agree)
        verdict = "" if check((o0, a0), (o1, a1)) and check((o0, a0), (o2, a2)) else "  MISMATCH"
        ratios.append((t1 / t0, t2 / t0))
        print("%-18s %10.5f %10.5f %10.5f %7.2fx %7.2fx%s" % (name, t0, t1, t2, t1 / t0, t2 / t0, verdict))
    if ratios:
        g = np.exp(np.mean(np.log(np.array(ratios)), axis=0))
        print("geometric mean: default %.3fx, True %.3fx (of boundscheck=False's time)" % (g[0], g[1]))


if __name__ == "__main__":
    main()
