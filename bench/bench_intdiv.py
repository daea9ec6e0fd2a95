#!/usr/bin/env python3
"""Integer floor division, modulo, fmod and divmod on cpu against NumPy, for every integer dtype.

By a scalar (NumPy divides by multiplying with libdivide's precomputed reciprocal) and by an
array; the int64/uint64 rows over the dtype's full range (beyond the 2^52 a double holds exactly)
and over small values. Each result is compared with NumPy's first (exactly), then both are timed
and ratio = numpy_time / numgpu_time is printed (> 1: numgpu is faster).

    PYTHONPATH=python python bench/bench_intdiv.py [--n 1000000] [--repeat 15] [--only SUBSTRING]
"""
import argparse

import numpy as np

import numgpu as ng
from _timing import compare

DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def data(dt, n, rng, small):
    info = np.iinfo(dt)
    lo, hi = (max(info.min, -10 ** 6), min(info.max, 10 ** 6)) if small else (info.min, info.max)
    a = rng.integers(lo, hi, n, dtype=dt, endpoint=True)
    b = rng.integers(1, min(info.max, 1000), n, dtype=dt, endpoint=True)
    if info.min < 0:
        b = b * np.where(rng.random(n) < 0.5, -1, 1).astype(dt)
    return a, b


def cases(n, only):
    rng = np.random.default_rng(0)
    out = []
    for dt in DTYPES:
        for small in ([False, True] if dt in ("int64", "uint64") else [False]):
            a, b = data(dt, n, rng, small)
            ga, gb = ng.asarray(a), ng.asarray(b)
            tag = f"{dt}{' small' if small else ''}"
            s = np.dtype(dt).type(7)
            rows = [
                (f"{tag} a // 7", lambda ga=ga: ga // 7, lambda a=a, s=s: a // s),
                (f"{tag} a % 7", lambda ga=ga: ga % 7, lambda a=a, s=s: a % s),
                (f"{tag} fmod(a, 7)", lambda ga=ga: ng.fmod(ga, 7), lambda a=a, s=s: np.fmod(a, s)),
                (f"{tag} divmod(a, 7)", lambda ga=ga: divmod(ga, 7), lambda a=a, s=s: divmod(a, s)),
                (f"{tag} a // b", lambda ga=ga, gb=gb: ga // gb, lambda a=a, b=b: a // b),
                (f"{tag} a % b", lambda ga=ga, gb=gb: ga % gb, lambda a=a, b=b: a % b),
            ]
            out += [r for r in rows if not only or any(o in r[0] for o in only)]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10 ** 6)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--only", nargs="*", default=[])
    args = p.parse_args()
    return compare(cases(args.n, args.only), args.repeat,
                   f"integer division on {ng.device() if hasattr(ng, 'device') else 'numgpu'}, n={args.n}")


if __name__ == "__main__":
    raise SystemExit(main())
