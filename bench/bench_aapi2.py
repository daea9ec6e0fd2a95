#!/usr/bin/env python3
"""The Array API additions of this round, numgpu against NumPy: descending sort/argsort, vecdot in
the input dtype, linalg.cross / vector_norm over an axis tuple / matrix_norm, fft.fftfreq and
fft.fftshift, on the current device (NUMGPU_DEVICE, default cpu).

Prints per operation numgpu's time, NumPy's (the same result computed the way NumPy users write
it) and the ratio numpy_time / numgpu_time (> 1: numgpu is faster). Every numgpu result is
compared with NumPy's first; a mismatch exits 1.

    PYTHONPATH=python .venv/bin/python bench/bench_aapi2.py [--quick]
"""
import argparse
import statistics
import sys
import time

import numpy as np

import numgpu as ng


def median_time(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        if isinstance(r, ng.ndarray):
            ng.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cases(n):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n)
    m = rng.standard_normal((n // 1000, 1000))
    u8 = rng.integers(0, 256, (n // 100, 100), dtype=np.uint8)
    v3 = rng.standard_normal((n // 3, 3))
    w3 = rng.standard_normal((n // 3, 3))
    t = rng.standard_normal((100, n // 10000, 100))

    def desc_np(a, indices):  # the standard's stable descending sort, as array-api-strict writes it
        r = np.flip(np.argsort(np.flip(a, -1), axis=-1, kind="stable") if indices else np.sort(np.flip(a, -1)), -1)
        return a.shape[-1] - 1 - r if indices else r

    return [
        ("sort descending 1-d", lambda g: ng.sort(g[0], descending=True), lambda: desc_np(x, False), [x]),
        ("argsort descending rows", lambda g: ng.argsort(g[0], descending=True), lambda: desc_np(m, True), [m]),
        ("vecdot uint8 rows", lambda g: ng.vecdot(g[0], g[0]), lambda: np.vecdot(u8, u8), [u8]),
        ("linalg.cross n x 3", lambda g: ng.linalg.cross(g[0], g[1]), lambda: np.linalg.cross(v3, w3), [v3, w3]),
        ("vector_norm axis=(0, 2)", lambda g: ng.linalg.vector_norm(g[0], axis=(0, 2)),
         lambda: np.linalg.vector_norm(t, axis=(0, 2)), [t]),
        ("vector_norm ord=1 rows", lambda g: ng.linalg.vector_norm(g[0], axis=1, ord=1),
         lambda: np.linalg.vector_norm(m, axis=1, ord=1), [m]),
        ("matrix_norm fro", lambda g: ng.linalg.matrix_norm(g[0]), lambda: np.linalg.matrix_norm(t), [t]),
        ("fft.fftfreq", lambda g: ng.fft.fftfreq(n, 0.5), lambda: np.fft.fftfreq(n, 0.5), []),
        ("fft.fftshift 2-d", lambda g: ng.fft.fftshift(g[0]), lambda: np.fft.fftshift(m), [m]),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 3 * 10 ** 5 if args.quick else 3 * 10 ** 6
    repeat = 3 if args.quick else 7
    print("numgpu on %s, n = %d" % (ng.get_device(), n))
    print("%-26s %11s %11s %8s" % ("op", "numgpu ms", "numpy ms", "ratio"))
    bad = 0
    for name, f_ng, f_np, host in cases(n):
        dev = [ng.asarray(h) for h in host]
        got, want = f_ng(dev).get(), f_np()
        if got.dtype != want.dtype or not np.allclose(got, want, rtol=1e-10, atol=1e-9):
            print("%-26s MISMATCH" % name)
            bad += 1
            continue
        t_ng = median_time(lambda: f_ng(dev), repeat)
        t_np = median_time(f_np, repeat)
        print("%-26s %11.3f %11.3f %8.2f" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
