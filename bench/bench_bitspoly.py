#!/usr/bin/env python3
"""numgpu/_bitspoly.py's compositions: numgpu against NumPy on the current device.

Prints, per operation, numgpu's time, NumPy's (best of --repeat runs each) and ratio =
numpy_time / numgpu_time (> 1: numgpu is faster). Bit operations on 10^7 elements (--n to
change), matvec/vecmat on a stack of 10^4 64 x 64 matrices, polyfit of 10^6 points (its 4 x 4
SVD runs on NumPy), polydiv and roots of small polynomials (roots' eigenvalues run on NumPy).
Each numgpu result is compared with NumPy's before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_bitspoly.py [--n 10000000] [--repeat 5]
"""
import sys
import warnings

import numpy as np

import numgpu as ng
from _timing import bench_args, compare  # noqa: E402


def main():
    args = bench_args(__doc__, n=10**7)
    n = args.n
    rng = np.random.default_rng(0)
    b = rng.random(n) < 0.5
    i8 = rng.integers(-3, 3, n).astype(np.int8)
    u8 = rng.integers(0, 256, n // 8).astype(np.uint8)
    i64 = rng.integers(-2**62, 2**62, n // 8)
    u8b = rng.integers(0, 256, n).astype(np.uint8)
    m, v = rng.standard_normal((10**4, 64, 64)), rng.standard_normal((10**4, 64))
    x = np.linspace(-1, 2, 10**6)
    y = 0.5 * x ** 3 - x + 2 + rng.standard_normal(10**6) * 0.1
    pu, pv = rng.standard_normal(200), rng.standard_normal(20)
    pr = rng.standard_normal(31)
    f = rng.standard_normal(n // 10)
    gb, gi8, gu8, gi64, gu8b, gm, gv, gx, gy, gpu, gpv, gpr, gf = (
        ng.asarray(a) for a in (b, i8, u8, i64, u8b, m, v, x, y, pu, pv, pr, f))
    cases = [
        ("packbits bool (n)", lambda: ng.packbits(gb), lambda: np.packbits(b)),
        ("packbits int8 little (n)", lambda: ng.packbits(gi8, bitorder="little"),
         lambda: np.packbits(i8, bitorder="little")),
        ("packbits bool 2-d axis=0 (n)", lambda: ng.packbits(gb.reshape(-1, 1000), axis=0),
         lambda: np.packbits(b.reshape(-1, 1000), axis=0)),
        ("unpackbits (n bits)", lambda: ng.unpackbits(gu8), lambda: np.unpackbits(u8)),
        ("unpackbits count=-3 little (n bits)", lambda: ng.unpackbits(gu8, count=-3, bitorder="little"),
         lambda: np.unpackbits(u8, count=-3, bitorder="little")),
        ("bitwise_count int64 (n/8)", lambda: ng.bitwise_count(gi64), lambda: np.bitwise_count(i64)),
        ("bitwise_count uint8 (n)", lambda: ng.bitwise_count(gu8b), lambda: np.bitwise_count(u8b)),
        ("matvec 1e4 x 64x64", lambda: ng.matvec(gm, gv), lambda: np.matvec(m, v)),
        ("vecmat 1e4 x 64x64", lambda: ng.vecmat(gv, gm), lambda: np.vecmat(v, m)),
        ("polyfit deg 3 (1e6 points)", lambda: ng.polyfit(gx, gy, 3), lambda: np.polyfit(x, y, 3)),
        ("polydiv deg 199 / 19", lambda: ng.polydiv(gpu, gpv), lambda: np.polydiv(pu, pv)),
        ("roots deg 30", lambda: ng.roots(gpr), lambda: np.roots(pr)),
        ("asarray_chkfinite (n/10)", lambda: ng.asarray_chkfinite(gf), lambda: np.asarray_chkfinite(f)),
    ]
    warnings.simplefilter("ignore", RuntimeWarning)
    warnings.simplefilter("ignore", ng._fallback.FallbackWarning)
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}", width=38)


if __name__ == "__main__":
    sys.exit(main())
