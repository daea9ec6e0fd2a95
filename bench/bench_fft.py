#!/usr/bin/env python3
"""numgpu.fft against numpy.fft (pocketfft) on the current device.

Prints, per transform, numgpu's time, NumPy's (best of --repeat runs each) and
ratio = numpy_time / numgpu_time (> 1: numgpu is faster). Each numgpu result is
compared with NumPy's first (relative to the largest |value|: 1e-10 double,
1e-4 single); a mismatch exits 1. --quick uses sizes that run in a few seconds.
Real input: 1-d rfft/irfft of 1024, 16384 and 2^20 points, batches of rows
(float64, float32, hfft/ihfft), rfft2/irfft2 of 256^2 to 2048^2.

    PYTHONPATH=python python bench/bench_fft.py [--quick] [--repeat 5]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def same(got, exp):
    got = got.get()
    if got.shape != exp.shape or got.dtype != exp.dtype:
        return False
    tol = 1e-10 if exp.dtype in (np.complex128, np.float64) else 1e-4
    scale = np.max(np.abs(exp)) if exp.size else 1.0
    return exp.size == 0 or np.max(np.abs(got - exp)) <= tol * scale


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller sizes")
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    big, rows, side = (2 ** 16, 100, 256) if args.quick else (2 ** 20, 1000, 1024)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(big) + 1j * rng.standard_normal(big)
    b = rng.standard_normal((rows, 1000)) + 1j * rng.standard_normal((rows, 1000))
    r = rng.standard_normal(big)
    rb = rng.standard_normal((rows, 1000))
    m = rng.standard_normal((side, side)) + 1j * rng.standard_normal((side, side))
    p17 = rng.standard_normal((rows, 1009)) + 1j * rng.standard_normal((rows, 1009))
    m5 = rng.standard_normal((512, 512)) + 1j * rng.standard_normal((512, 512))
    mr = m.real.copy()
    mh = np.fft.rfft2(mr)
    x64, b64 = x.astype(np.complex64), b.astype(np.complex64)
    rh = np.fft.rfft(r)
    r1k, r16k = r[:1024].copy(), r[:16384].copy()
    h1k, h16k = np.fft.rfft(r1k), np.fft.rfft(r16k)
    rb32 = rb.astype(np.float32)
    g = {k: ng.asarray(v)
         for k, v in dict(x=x, b=b, r=r, rb=rb, m=m, m5=m5, mr=mr, mh=mh, p17=p17, x64=x64, b64=b64, rh=rh,
                          r1k=r1k, r16k=r16k, h1k=h1k, h16k=h16k, rb32=rb32).items()}
    sq = {}  # real 2-d inputs and their rfft2 for the sides below
    for s in (512,) if args.quick else (256, 512, 2048):  # besides `side`
        sq[s] = rng.standard_normal((s, s))
        sq[s] = (sq[s], np.fft.rfft2(sq[s]), ng.asarray(sq[s]), ng.asarray(np.fft.rfft2(sq[s])))
    cases = [
        (f"fft complex128 2^{big.bit_length() - 1}", lambda: ng.fft.fft(g["x"]), lambda: np.fft.fft(x)),
        (f"ifft complex128 2^{big.bit_length() - 1}", lambda: ng.fft.ifft(g["x"]), lambda: np.fft.ifft(x)),
        (f"fft complex128 {rows} x 1000", lambda: ng.fft.fft(g["b"]), lambda: np.fft.fft(b)),
        (f"fft complex128 {rows} x 1000 axis=0", lambda: ng.fft.fft(g["b"], axis=0), lambda: np.fft.fft(b, axis=0)),
        (f"fft complex128 {rows} x 1009 (Bluestein)", lambda: ng.fft.fft(g["p17"]), lambda: np.fft.fft(p17)),
        (f"rfft float64 2^{big.bit_length() - 1}", lambda: ng.fft.rfft(g["r"]), lambda: np.fft.rfft(r)),
        (f"rfft float64 {rows} x 1000", lambda: ng.fft.rfft(g["rb"]), lambda: np.fft.rfft(rb)),
        (f"irfft float64 {rows} x 1000", lambda: ng.fft.irfft(g["b"][:, :501], 1000),
         lambda: np.fft.irfft(b[:, :501], 1000)),
        (f"irfft float64 2^{big.bit_length() - 1}", lambda: ng.fft.irfft(g["rh"], big), lambda: np.fft.irfft(rh, big)),
        ("rfft float64 1024", lambda: ng.fft.rfft(g["r1k"]), lambda: np.fft.rfft(r1k)),
        ("irfft float64 1024", lambda: ng.fft.irfft(g["h1k"]), lambda: np.fft.irfft(h1k)),
        ("rfft float64 16384", lambda: ng.fft.rfft(g["r16k"]), lambda: np.fft.rfft(r16k)),
        ("irfft float64 16384", lambda: ng.fft.irfft(g["h16k"]), lambda: np.fft.irfft(h16k)),
        (f"rfft float32 {rows} x 1000", lambda: ng.fft.rfft(g["rb32"]), lambda: np.fft.rfft(rb32)),
        (f"ihfft float64 {rows} x 1000", lambda: ng.fft.ihfft(g["rb"]), lambda: np.fft.ihfft(rb)),
        (f"hfft float64 {rows} x 1000", lambda: ng.fft.hfft(g["b"][:, :501], 1000),
         lambda: np.fft.hfft(b[:, :501], 1000)),
        (f"fft2 complex128 {side} x {side}", lambda: ng.fft.fft2(g["m"]), lambda: np.fft.fft2(m)),
        ("fft2 complex128 512 x 512", lambda: ng.fft.fft2(g["m5"]), lambda: np.fft.fft2(m5)),
        (f"rfft2 float64 {side} x {side}", lambda: ng.fft.rfft2(g["mr"]), lambda: np.fft.rfft2(mr)),
        (f"irfft2 float64 {side} x {side}", lambda: ng.fft.irfft2(g["mh"], (side, side)),
         lambda: np.fft.irfft2(mh, (side, side))),
    ]
    for s, (a2, h2, ga2, gh2) in sq.items():
        cases += [
            (f"rfft2 float64 {s} x {s}", lambda ga2=ga2: ng.fft.rfft2(ga2), lambda a2=a2: np.fft.rfft2(a2)),
            (f"irfft2 float64 {s} x {s}", lambda gh2=gh2, s=s: ng.fft.irfft2(gh2, (s, s)),
             lambda h2=h2, s=s: np.fft.irfft2(h2, (s, s))),
        ]
    cases += [
        (f"fft complex64 2^{big.bit_length() - 1}", lambda: ng.fft.fft(g["x64"]), lambda: np.fft.fft(x64)),
        (f"fft complex64 {rows} x 1000", lambda: ng.fft.fft(g["b64"]), lambda: np.fft.fft(b64)),
    ]
    print(f"device {ng.get_device()}")
    print(f"{'transform':40s} {'numgpu ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    bad = 0
    for name, fg, fn in cases:
        if not same(fg(), fn()):
            print(f"{name:40s} MISMATCH with NumPy")
            bad += 1
            continue
        tg, tn = best_time(fg, args.repeat), best_time(fn, args.repeat)
        print(f"{name:40s} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {tn / tg:7.2f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
