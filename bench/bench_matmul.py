#!/usr/bin/env python3
"""Matrix products on the current device against NumPy (its BLAS): square products of every
float dtype, X.T @ X, matrix @ vector, vector @ matrix, a dot, stacks of small and of mid-sized
matrices, a 4-d batch (attention's scores), and one step of a small MLP (products, bias, ReLU,
softmax, a gradient product: the BLAS's threads and numgpu's kernels taking turns on the cores).

On cpu the products go to the host's BLAS (`numgpu doctor` names it; NumPy's own OpenBLAS from
its wheels) where they suit it, else to the generated kernel; `--generated` adds a column with
the BLAS turned off (NUMGPU_BLAS=none, in a child process): the generated kernel alone. Ratio =
numpy_time / numgpu_time (> 1: numgpu is faster). Each result is compared with NumPy's first
(within k eps |a| @ |b|); a mismatch exits 1.

    PYTHONPATH=python python bench/bench_matmul.py [--repeat 5] [--quick] [--generated]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def rand(rng, shape, dt):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def mlp(lib, x, w1, b1, w2):
    h = lib.maximum(x @ w1 + b1, 0)
    o = h @ w2
    o = o - o.max(axis=1, keepdims=True)
    p = lib.exp(o)
    p /= p.sum(axis=1, keepdims=True)
    return h.T @ p


def cases(quick):
    rng = np.random.default_rng(0)
    big = 512 if quick else 1024
    out = []
    for dt in (np.float64, np.float32, np.complex128):
        n = big if dt != np.complex128 else big // 2
        a, b = rand(rng, (n, n), dt), rand(rng, (n, n), dt)
        out.append(("%s %dx%d @ %dx%d" % (np.dtype(dt).name, n, n, n, n), lambda lib, a, b: a @ b, (a, b)))
    a = rand(rng, (256, 256), np.float64)
    out.append(("float64 256x256 @ 256x256", lambda lib, a, b: a @ b, (a, a)))
    x = rand(rng, (4 * big, 256), np.float64)
    out.append(("float64 X.T @ X, X %dx256" % (4 * big), lambda lib, a, b: a.T @ b, (x, x), (x.T, x)))
    m, v, w = rand(rng, (4 * big, 2 * big), np.float32), rand(rng, (2 * big,), np.float32), \
        rand(rng, (4 * big,), np.float32)
    out.append(("float32 matrix @ vector %dx%d" % m.shape, lambda lib, m, v: m @ v, (m, v)))
    out.append(("float32 vector @ matrix %dx%d" % m.shape, lambda lib, w, m: w @ m, (w, m)))
    d = rand(rng, (10**6,), np.float64)
    out.append(("float64 dot of 10^6", lambda lib, a, b: a @ b, (d, d)))
    for shape in [(10000, 3, 3), (1000, 16, 16), (100, 64, 64)]:
        s = rand(rng, shape, np.float64)
        out.append(("float64 stack %dx%dx%d" % shape, lambda lib, a, b: a @ b, (s, s)))
    q, k = rand(rng, (4, 8, 128, 64), np.float32), rand(rng, (4, 8, 64, 128), np.float32)
    out.append(("float32 (4,8,128,64) @ (4,8,64,128)", lambda lib, q, k: q @ k, (q, k)))
    xb = rand(rng, (512, 256), np.float32)
    w1, b1, w2 = rand(rng, (256, 256), np.float32) * 0.05, np.zeros(256, np.float32), rand(rng, (256, 10), np.float32)
    out.append(("float32 MLP step (512x256, 256x256, 256x10)", mlp, (xb, w1, b1, w2)))
    return out


def check(got, want, pair):
    """got within k eps (|a| @ |b|) of NumPy's a @ b, pair = (a, b) (None for the MLP, products of
    products: compared relatively)."""
    got = ng.asnumpy(got)
    if got.shape != want.shape:
        return False
    if pair is None:
        return bool(np.allclose(got, want, rtol=1e-3, atol=1e-3 * np.abs(want).max()))
    a, b = pair
    bound = (a.shape[-1] + 2) * np.finfo(want.dtype).eps * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    return bool(np.all(np.abs(got.astype(np.complex128) - want) <= bound + 1e-300))


def measure(quick, repeat, only_numgpu=False):
    rows = []
    for case in cases(quick):
        label, fn, args = case[:3]
        pair = case[3] if len(case) > 3 else args if len(args) == 2 else None
        dev = [ng.asarray(x) for x in args]
        want = fn(np, *args)
        ok = check(fn(ng, *dev), want, pair)
        t_ng = best_time(lambda: fn(ng, *dev), repeat) if ok else None
        t_np = None if only_numgpu else best_time(lambda: fn(np, *args), repeat)
        rows.append((label, ok, t_ng, t_np))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--quick", action="store_true", help="512 instead of 1024")
    p.add_argument("--generated", action="store_true", help="also time the generated kernel (NUMGPU_BLAS=none)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps([(r[0], r[2]) for r in measure(args.quick, args.repeat, only_numgpu=True)]))
        return 0
    found, text = ng._core.cpu_blas()
    print("numgpu matmul vs NumPy on %s (best of %d); cpu BLAS: %s" % (ng.get_device(), args.repeat, text))
    gen = {}
    if args.generated:
        env = dict(os.environ, NUMGPU_BLAS="none", PYTHONPATH=os.pathsep.join(sys.path))
        child = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat)]
                               + (["--quick"] if args.quick else []), env=env, capture_output=True, text=True)
        if child.returncode != 0:
            print(child.stderr)
            return 1
        gen = dict(json.loads(child.stdout.strip().splitlines()[-1]))
    print("%-46s %11s %11s %7s%s" % ("product", "numgpu ms", "numpy ms", "ratio",
                                     "  %14s %7s" % ("generated ms", "ratio") if gen else ""))
    bad = False
    for label, ok, t_ng, t_np in measure(args.quick, args.repeat):
        if not ok:
            print("%-46s MISMATCH" % label)
            bad = True
            continue
        extra = ""
        if gen:
            t_gen = gen.get(label)
            extra = "  %14.3f %7.2f" % (t_gen * 1e3, t_np / t_gen) if t_gen else "  %14s" % "mismatch"
        print("%-46s %11.3f %11.3f %7.2f%s" % (label, t_ng * 1e3, t_np * 1e3, t_np / t_ng, extra))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
