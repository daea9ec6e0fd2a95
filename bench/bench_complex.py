#!/usr/bin/env python3
"""complex128 and float16: numgpu against NumPy (cpu device by default).

Rows per dtype: a full sum, a column sum (sum(axis=0) of a matrix), a*b+c (elementwise), abs,
exp, and a matrix product (complex128 512x512; float16 256x256). Each prints numgpu's time,
NumPy's and the ratio NumPy / numgpu (> 1: numgpu is faster). Every result is compared with
NumPy's first; a mismatch exits 1. Timings on a shared machine are noisy: read the ratios.

    PYTHONPATH=python python bench/bench_complex.py            # 2M-element vectors
    PYTHONPATH=python python bench/bench_complex.py --quick    # 256K, 128x128 matrices
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import device_time  # noqa: E402


def close(got, exp, dtype):
    """Results agree: float16 to a few half ulps of the largest value (NumPy's float16 sums round in
    other places), complex128 to 1e-9 of it (BLAS and the device sum in other orders)."""
    got, exp = np.asarray(got), np.asarray(exp)
    if got.shape != exp.shape or got.dtype != exp.dtype:
        return False
    scale = float(np.max(np.abs(exp.astype(np.complex128)))) if exp.size else 0.0
    tol = (4e-3 if dtype == np.float16 else 1e-9) * max(scale, 1.0)
    return bool(np.all(np.abs(got.astype(np.complex128) - exp.astype(np.complex128)) <= tol))


def cases(dtype, n, side, rng):
    if dtype == np.complex128:
        make = lambda *s: rng.standard_normal(s) + 1j * rng.standard_normal(s)  # noqa: E731
    else:
        make = lambda *s: rng.uniform(-1, 1, s)  # noqa: E731  (|x| <= 1: exp and sums stay finite in half)
    v, w, u = (np.asarray(make(n), dtype) for _ in range(3))
    m = np.asarray(make(n // 256, 256), dtype)
    a, b = np.asarray(make(side, side), dtype), np.asarray(make(side, side), dtype)
    gv, gw, gu, gm, ga, gb = map(ng.asarray, (v, w, u, m, a, b))
    return [
        ("sum", lambda: ng.sum(gv), lambda: np.sum(v)),
        ("sum(axis=0)", lambda: ng.sum(gm, axis=0), lambda: np.sum(m, axis=0)),
        ("a*b+c", lambda: gv * gw + gu, lambda: v * w + u),
        ("abs", lambda: ng.abs(gv), lambda: np.abs(v)),
        ("exp", lambda: ng.exp(gv), lambda: np.exp(v)),
        ("matmul %dx%d" % (side, side), lambda: ga @ gb, lambda: a @ b),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = 1 << (18 if args.quick else 21)
    rng = np.random.default_rng(0)
    print("device %s, n = %d" % (ng.get_device(), n))
    print("%-11s %-18s %12s %12s %8s" % ("dtype", "operation", "numgpu ms", "numpy ms", "ratio"))
    bad = False
    for dtype, side in ((np.complex128, 128 if args.quick else 512), (np.float16, 128 if args.quick else 256)):
        for name, f_ng, f_np in cases(dtype, n, side, rng):
            with np.errstate(all="ignore"):
                ok = close(f_ng().get(), f_np(), dtype)
            if not ok:
                print("%-11s %-18s MISMATCH" % (np.dtype(dtype).name, name))
                bad = True
                continue
            t_ng = device_time(f_ng, args.repeat)
            t_np = device_time(f_np, args.repeat)
            print("%-11s %-18s %12.3f %12.3f %8.2f" % (np.dtype(dtype).name, name, t_ng * 1e3, t_np * 1e3,
                                                       t_np / t_ng))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
