#!/usr/bin/env python3
"""Which cpu elementwise loops GCC leaves scalar, and which it unswitches.

Runs each ufunc of a list on arrays of each dtype (array with array, array with a scalar,
unary), keeps the C source of every kernel it compiles, then compiles each source again with the
cpu backend's flags and -fopt-info-loop-optimized/-fopt-info-vec-missed and prints, per kernel,
the loops of the kernel's own body that GCC unswitched ("Unswitching loop on condition": a
branch on a loop invariant, which split an OpenMP simd loop carrying the error flags into copies
that stayed scalar: integer `// 3`, float `a / 7.0`) and the loops it did not vectorise.

    PYTHONPATH=python python tools/cpu_vec_sweep.py [--dtypes int32,float32] [--ops add,true_divide]
                                                    [--out /tmp/ngsweep]

Loops that stay scalar by nature (a libm call: fmod, nextafter; gcd, lcm, integer power; the
64-bit idiv fallback of an array divisor) are listed too: compare with NumPy's loop before
calling one a regression.
"""
import argparse
import os
import re
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import numgpu as ng

BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power", "maximum",
          "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign", "nextafter", "logaddexp", "logaddexp2",
          "heaviside", "gcd", "lcm", "left_shift", "right_shift", "bitwise_and", "bitwise_or", "bitwise_xor",
          "logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less", "greater_equal"]
UNARY = ["negative", "absolute", "sign", "sqrt", "square", "reciprocal", "exp", "exp2", "expm1", "log", "log2",
         "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit", "invert",
         "logical_not", "cbrt", "deg2rad", "rad2deg", "fabs", "spacing", "bitwise_count"]
DTYPES = ["int8", "uint8", "int16", "int32", "int64", "uint64", "float32", "float64"]
FLAGS = ["-O3", "-march=native", "-ffp-contract=off", "-fno-trapping-math", "-fno-math-errno", "-fopenmp",
         "-std=gnu11", "-fno-tree-loop-distribution", "-fPIC", "-S", "-o", os.devnull,
         "-fopt-info-loop-optimized", "-fopt-info-vec-missed"]


def generate(out, ops, unary, dtypes):
    """Each case's kernel source as out/<op>__<dtype>__<form>.c (forms: aa, as, a)."""
    warnings.simplefilter("ignore")
    os.makedirs(out, exist_ok=True)

    def keep(tag, fn):
        before = ng._core.last_kernel_source()
        try:
            fn()
        except Exception:  # (an op the dtype has no loop for: NumPy refuses it too)
            return
        src = ng._core.last_kernel_source()
        if src and src != before:
            with open(os.path.join(out, tag + ".c"), "w") as f:
                f.write(src)

    for dt in dtypes:
        n = 4096
        a, b = np.arange(1, n + 1).astype(dt), (np.arange(n) % 7 + 1).astype(dt)
        ga, gb = ng.asarray(a), ng.asarray(b)
        s = 3.0 if np.dtype(dt).kind == "f" else 3
        for op in ops:
            f = getattr(ng, op, None)
            if f is not None:
                keep(f"{op}__{dt}__aa", lambda: f(ga, gb).get())
                keep(f"{op}__{dt}__as", lambda: f(ga, s).get())
        for op in unary:
            f = getattr(ng, op, None)
            if f is not None:
                keep(f"{op}__{dt}__a", lambda: f(ga).get())


def inspect(path):
    """(case, unswitch conditions, loop lines GCC did not vectorise) of one kernel source."""
    src = open(path).read().splitlines()
    start = next((i for i, line in enumerate(src) if line.startswith("void ngk_")), 0) + 1
    r = subprocess.run([os.environ.get("CC", "gcc")] + FLAGS + [path], capture_output=True, text=True)
    unswitch, missed = set(), set()
    for line in r.stderr.splitlines():
        m = re.match(r".*\.c:(\d+):\d+: (optimized|missed): (.*)", line)
        if not m or int(m.group(1)) <= start:
            continue
        if "Unswitching loop" in m.group(3):
            unswitch.add(re.sub(r"_\d+", "", m.group(3).split("condition: ")[-1]))
        elif m.group(3).startswith("couldn't vectorize loop"):
            missed.add(int(m.group(1)))
    return os.path.basename(path)[:-2], sorted(unswitch), sorted(missed)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--ops", default=None, help="comma-separated ufuncs (default: a broad list)")
    p.add_argument("--out", default="/tmp/ngsweep")
    args = p.parse_args()
    ops = args.ops.split(",") if args.ops else BINARY
    unary = [o for o in ops if o in UNARY] if args.ops else UNARY
    generate(args.out, [o for o in ops if o not in UNARY], unary, args.dtypes.split(","))
    paths = sorted(os.path.join(args.out, f) for f in os.listdir(args.out) if f.endswith(".c"))
    with ThreadPoolExecutor(2) as ex:
        rows = list(ex.map(inspect, paths))
    flagged = [r for r in rows if r[1] or r[2]]
    for case, unswitch, missed in flagged:
        print(f"{case:40s} unswitched on: {', '.join(unswitch) or '-':40s} not vectorised (lines): {missed or '-'}")
    print(f"{len(rows)} kernels, {len(flagged)} flagged", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
