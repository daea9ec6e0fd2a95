#!/usr/bin/env python3
"""The operations where numgpu on cpu trailed NumPy (2026-12-07): NumPy's random streams, large
zeros/ones/full, float16 sign operations, rfft2, one QR, stacks of Cholesky and inv, integer
division by scalars and arrays, any/all/count_nonzero of masks; isin with a short test list,
interp, round(x, decimals) and copies of transposed and permuted views (the sweep of 2026-12-07).

Each numgpu result is compared with NumPy's first (exact for random streams, zeros, ones and the
float16 bit operations; within rounding for the rest); then each side is timed --repeat times
and the median is printed (the machine may be shared: the median of many runs is steadier than
one), with ratio = numpy_time / numgpu_time (> 1: numgpu is faster).

"zeros (fresh memory)" keeps every result alive, so each call gets new memory (NumPy's calloc
and numgpu's fresh blocks: the OS's zeroed pages, no fill); "zeros (pool block)" drops each
result, so numgpu's pool hands the same block out again and it is filled (NumPy: calloc again).

    PYTHONPATH=python python bench/bench_cpu_gaps.py [--repeat 21] [--only SUBSTRING ...]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import device_time, host, same  # noqa: E402


def median_time(fn, repeat, keep=None):
    return device_time(fn, repeat, keep=keep)


def spd(nb, n, seed):
    x = np.random.default_rng(seed).standard_normal((nb, n, n))
    return x @ x.transpose(0, 2, 1) + n * np.eye(n)


def cases():
    n = 10 ** 6
    h16 = np.random.default_rng(0).standard_normal(n).astype(np.float16)
    g16 = ng.asarray(h16)
    img = np.random.default_rng(1).standard_normal((512, 512))
    sq = np.random.default_rng(2).standard_normal((100, 100))
    s16, s32 = spd(200, 16, 3), spd(200, 32, 3)
    gen = np.random.default_rng(4).standard_normal((100, 32, 32))
    g = {k: ng.asarray(v) for k, v in dict(img=img, sq=sq, s16=s16, s32=s32, gen=gen).items()}
    rng_ng, rng_np = ng.random.default_rng(5), np.random.default_rng(5)
    big = (4000, 4000)
    r = np.random.default_rng(6)
    hi64 = r.integers(-10 ** 6, 10 ** 6, n)
    hi32, hb64 = hi64.astype(np.int32), r.integers(1, 50, n)
    hmask, hzero = r.random(n) > 0.5, np.zeros(n, bool)
    gi32, gi64, gb64, gmask, gzero = (ng.asarray(v) for v in (hi32, hi64, hb64, hmask, hzero))
    hk = r.integers(0, 1000, n)
    hx, hy = r.random(n), r.random(n)
    hxp, hfp = np.sort(hy[:100]), hy[:100]
    hM, hT = r.random((1000, 1000)), r.random((100, 100, 100))
    gk, gx, gxp, gfp, gM, gT = (ng.asarray(v) for v in (hk, hx, hxp, hfp, hM, hT))
    gx32, hx32 = gx.astype(np.float32), hx.astype(np.float32)
    gM32, hM32 = gM.astype(np.float32), hM.astype(np.float32)
    return [
        # isin of a short list (a byte table), interp (one kernel), round (one pass), permuted copies (tiled)
        ("isin(int64 10^6, 50 of them)", lambda: ng.isin(gk, gk[:50]), lambda: np.isin(hk, hk[:50]), True, False),
        ("isin(float64 10^6, 50 of them)", lambda: ng.isin(gx, gx[:50]), lambda: np.isin(hx, hx[:50]), True, False),
        ("interp(10^6, 100 samples)", lambda: ng.interp(gx, gxp, gfp), lambda: np.interp(hx, hxp, hfp), True, False),
        ("round(float64 10^6, 2)", lambda: ng.round(gx, 2), lambda: np.round(hx, 2), True, False),
        ("round(float32 10^6, 3)", lambda: ng.round(gx32, 3), lambda: np.round(hx32, 3), True, False),
        ("M.T.copy() 1000x1000 float64", lambda: gM.T.copy(), lambda: hM.T.copy(), True, False),
        ("M.T.copy() 1000x1000 float32", lambda: gM32.T.copy(), lambda: hM32.T.copy(), True, False),
        ("T.transpose(1,2,0).copy() 100^3", lambda: gT.transpose(1, 2, 0).copy(), lambda: hT.transpose(1, 2, 0).copy(),
         True, False),
        ("T.transpose(2,0,1).copy() 100^3", lambda: gT.transpose(2, 0, 1).copy(), lambda: hT.transpose(2, 0, 1).copy(),
         True, False),
        # name, numgpu fn, numpy fn, exact, keep results alive
        ("default_rng(s).random(10^6)", lambda: ng.random.default_rng(5).random(n),
         lambda: np.random.default_rng(5).random(n), True, False),
        ("rng.random(10^6)", lambda: rng_ng.random(n), lambda: rng_np.random(n), False, False),
        ("rng.standard_normal(10^6)", lambda: rng_ng.standard_normal(n), lambda: rng_np.standard_normal(n), False, False),
        ("rng.integers(0, 1000, 10^6)", lambda: rng_ng.integers(0, 1000, n), lambda: rng_np.integers(0, 1000, n),
         False, False),
        ("random.random(10^6) (legacy)", lambda: ng.random.random(n), lambda: np.random.random(n), False, False),
        ("zeros 2000x2000 (fresh memory)", lambda: ng.zeros((2000, 2000)), lambda: np.zeros((2000, 2000)), True, True),
        ("zeros 4000x4000 (pool block)", lambda: ng.zeros(big), lambda: np.zeros(big), True, False),
        ("ones 4000x4000", lambda: ng.ones(big), lambda: np.ones(big), True, False),
        ("full 4000x4000", lambda: ng.full(big, 2.5), lambda: np.full(big, 2.5), True, False),
        ("abs float16 10^6", lambda: ng.abs(g16), lambda: np.abs(h16), True, False),
        ("negative float16 10^6", lambda: ng.negative(g16), lambda: np.negative(h16), True, False),
        ("copysign float16 10^6", lambda: ng.copysign(g16, -g16), lambda: np.copysign(h16, -h16), True, False),
        ("fft.rfft2 512x512", lambda: ng.fft.rfft2(g["img"]), lambda: np.fft.rfft2(img), False, False),
        ("fft.fft2 512x512", lambda: ng.fft.fft2(g["img"]), lambda: np.fft.fft2(img), False, False),
        ("linalg.qr 100x100", lambda: ng.linalg.qr(g["sq"])[1], lambda: np.linalg.qr(sq)[1], False, False),
        ("linalg.cholesky 200x16x16", lambda: ng.linalg.cholesky(g["s16"]), lambda: np.linalg.cholesky(s16),
         False, False),
        ("linalg.cholesky 200x32x32", lambda: ng.linalg.cholesky(g["s32"]), lambda: np.linalg.cholesky(s32),
         False, False),
        ("linalg.inv 100x32x32", lambda: ng.linalg.inv(g["gen"]), lambda: np.linalg.inv(gen), False, False),
        # integer division by a scalar and by an array (double division where exact: int32 vectorises)
        ("int32 // 3 10^6", lambda: gi32 // 3, lambda: hi32 // 3, True, False),
        ("int32 % 7 10^6", lambda: gi32 % 7, lambda: hi32 % 7, True, False),
        ("int64 // 3 10^6", lambda: gi64 // 3, lambda: hi64 // 3, True, False),
        ("int64 % b (array) 10^6", lambda: gi64 % gb64, lambda: hi64 % hb64, True, False),
        # any/all/count_nonzero read in place, stopping where NumPy's loops stop
        ("any(mask) 10^6, early True", lambda: ng.any(gmask), lambda: np.any(hmask), True, False),
        ("any(zeros) 10^6", lambda: ng.any(gzero), lambda: np.any(hzero), True, False),
        ("count_nonzero(mask) 10^6", lambda: ng.count_nonzero(gmask), lambda: np.asarray(np.count_nonzero(hmask)), True, False),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--only", nargs="*", default=[], help="run the rows whose name contains one of these")
    args = ap.parse_args()
    print("numgpu on %s against NumPy %s; median of %d runs; ratio = numpy / numgpu"
          % (ng.get_device(), np.__version__, args.repeat))
    print("%-32s %10s %10s %7s" % ("operation", "numgpu ms", "numpy ms", "ratio"))
    bad = 0
    for name, f_ng, f_np, exact, keep in cases():
        if args.only and not any(s in name for s in args.only):
            continue
        got, exp = host(f_ng()), f_np()
        if exact and "rng." not in name and "legacy" not in name:
            ok = got.dtype == exp.dtype and np.asarray(got).tobytes() == np.asarray(exp).tobytes()
        elif "random" in name or "rng." in name:
            ok = got.shape == exp.shape and got.dtype == exp.dtype   # (streams advanced differently)
        else:
            ok = same(got, exp, rtol=1e-7, atol=1e-9)
        if not ok:
            print("%-32s MISMATCH with NumPy" % name)
            bad += 1
            continue
        kept = [] if keep else None
        t_ng = median_time(f_ng, args.repeat, kept)
        kept_np = [] if keep else None
        del kept
        t_np = median_time(f_np, args.repeat, kept_np)
        del kept_np
        print("%-32s %10.3f %10.3f %7.2f" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
