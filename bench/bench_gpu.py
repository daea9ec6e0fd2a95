#!/usr/bin/env python3
"""GPU benchmarks: numgpu on its default device vs CuPy, side by side.

Rows: a device copy (the bandwidth the elementwise rows are measured
against), elementwise add, a three-op expression, sum, sum(axis=0), matmul,
the seed's vectorised one-hot, and the same kinds of work in complex128 and
float16 (a*b, exp, sum, matmul) plus a batched solve (numgpu's generated LU
kernels, CuPy's cuSOLVER). Each is reported as achieved GB/s (or
TFLOP/s for matmul) and as the ratio numgpu/CuPy throughput (>1: numgpu
faster). Every numgpu result is checked against NumPy first, so a wrong
kernel cannot post a good time. Runs on any numgpu device; CuPy columns are
left empty where CuPy is not installed (or no CUDA GPU is present).

    NUMGPU_DEVICE=cuda python bench/bench_gpu.py [--quick]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import numgpu as ng  # noqa: E402

try:
    import cupy as cp
    cp.cuda.runtime.getDeviceCount()
except Exception:  # no CuPy, or no GPU for it
    cp = None


def timeit(fn, sync, repeat):
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 10**7 if args.quick else 10**8
    mm = 1024 if args.quick else 4096
    repeat = 5 if args.quick else 10
    rng = np.random.default_rng(0)
    x, y, z = (rng.random(n) for _ in range(3))
    A, B = rng.random((mm, mm)), rng.random((mm, mm))
    codes = rng.integers(0, 394, (n // 300, 30))
    rows, cols = 1000, n // 1000
    nc = n // 4                                      # complex128 elements (16 bytes each)
    zx = rng.standard_normal(nc) + 1j * rng.standard_normal(nc)
    zy = rng.standard_normal(nc) + 1j * rng.standard_normal(nc)
    mc = mm // 2
    ZA = rng.standard_normal((mc, mc)) + 1j * rng.standard_normal((mc, mc))
    hx, hy = x.astype(np.float16), y.astype(np.float16)
    nb, ms = 20000, 8                                # a stack of small systems
    S = rng.standard_normal((nb, ms, ms)) + 4 * np.eye(ms)
    v = rng.standard_normal((nb, ms, 1))

    ng_sync = ng.synchronize
    a, b, c = ng.asarray(x), ng.asarray(y), ng.asarray(z)
    gA, gB, gcodes = ng.asarray(A), ng.asarray(B), ng.asarray(codes)
    eye = ng.eye(394, dtype=np.float32)
    m = a.reshape(rows, cols)
    za, zb, gZA = ng.asarray(zx), ng.asarray(zy), ng.asarray(ZA)
    ha, hb = ng.asarray(hx), ng.asarray(hy)
    gS, gv = ng.asarray(S), ng.asarray(v)
    cases = [
        # name, numgpu fn, cupy fn factory, bytes or flops, unit, check
        ("copy", lambda: a.copy(), lambda X: (lambda: X[0].copy()), 2 * 8 * n, "GB/s", lambda r: np.array_equal(r, x)),
        ("add", lambda: a + b, lambda X: (lambda: X[0] + X[1]), 3 * 8 * n, "GB/s", lambda r: np.allclose(r, x + y)),
        ("a*b+c", lambda: a * b + c, lambda X: (lambda: X[0] * X[1] + X[2]), 6 * 8 * n, "GB/s",
         lambda r: np.allclose(r, x * y + z)),
        ("sum", lambda: a.sum(), lambda X: (lambda: X[0].sum()), 8 * n, "GB/s", lambda r: np.isclose(r, x.sum())),
        ("argmax", lambda: a.argmax(), lambda X: (lambda: X[0].argmax()), 8 * n, "GB/s",
         lambda r: int(r) == int(np.argmax(x))),
        ("sum(axis=0)", lambda: m.sum(axis=0), lambda X: (lambda: X[0].reshape(rows, cols).sum(axis=0)), 8 * n,
         "GB/s", lambda r: np.allclose(r, x.reshape(rows, cols).sum(axis=0))),
        ("matmul", lambda: gA @ gB, lambda X: (lambda: X[3] @ X[4]), 2 * mm**3, "TFLOP/s",
         lambda r: np.allclose(r, A @ B)),
        ("one-hot", lambda: eye[gcodes], lambda X: (lambda: X[5][X[6]]), codes.size * 394 * 4, "GB/s",
         lambda r: np.array_equal(r, np.eye(394, dtype=np.float32)[codes])),
        ("c128 a*b", lambda: za * zb, lambda X: (lambda: X[7] * X[8]), 3 * 16 * nc, "GB/s",
         lambda r: np.allclose(r, zx * zy)),
        ("c128 exp", lambda: ng.exp(za), lambda X: (lambda: cp.exp(X[7])), 2 * 16 * nc, "GB/s",
         lambda r: np.allclose(r, np.exp(zx))),
        ("c128 sum", lambda: za.sum(), lambda X: (lambda: X[7].sum()), 16 * nc, "GB/s",
         lambda r: np.isclose(r, zx.sum())),
        ("c128 matmul", lambda: gZA @ gZA, lambda X: (lambda: X[9] @ X[9]), 8 * mc**3, "TFLOP/s",
         lambda r: np.allclose(r, ZA @ ZA)),
        ("f16 a+b", lambda: ha + hb, lambda X: (lambda: X[10] + X[11]), 3 * 2 * n, "GB/s",
         lambda r: np.array_equal(r, hx + hy)),
        ("solve 20000x8x8", lambda: ng.linalg.solve(gS, gv), lambda X: (lambda: cp.linalg.solve(X[12], X[13])),
         nb * (2 * ms**3 // 3 + 2 * ms * ms), "TFLOP/s", lambda r: np.allclose(r, np.linalg.solve(S, v))),
    ]
    cu = None
    if cp is not None:
        cu = [cp.asarray(v) for v in (x, y, z, A, B)] + [cp.eye(394, dtype=cp.float32), cp.asarray(codes)]
        cu += [cp.asarray(t) for t in (zx, zy, ZA, hx, hy, S, v)]
        cp_sync = cp.cuda.Device().synchronize
    print("device: %s (%s)" % (ng.get_device(), ng._core.device_info(None)["description"]))
    print("%-12s %12s %12s %10s  %s" % ("op", "numgpu", "cupy", "ratio", "unit"))
    for name, f, cf, work, unit, check in cases:
        ok = check(f().get())
        t = timeit(f, ng_sync, repeat)
        scale = 1e12 if unit == "TFLOP/s" else 1e9
        rate = work / t / scale
        crate = None
        if cu is not None:
            ct = timeit(cf(cu), cp_sync, repeat)
            crate = work / ct / scale
        print("%-12s %12.2f %12s %10s  %s%s" % (
            name, rate, "%.2f" % crate if crate else "-", "%.2fx" % (rate / crate) if crate else "-", unit,
            "" if ok else "   WRONG RESULT"))


if __name__ == "__main__":
    main()
