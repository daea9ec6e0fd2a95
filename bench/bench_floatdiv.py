#!/usr/bin/env python3
"""Float fmax/fmin/maximum/minimum and float floor division, remainder, fmod and divmod on the
current device against NumPy, float32 and float64, by an array and by a scalar.

Data: N(0, 100) values with NaNs and infinities sprinkled in (1 in 1000) for the min/max rows;
a in N(0, 1000), b in +-[0.5, 50) for the division rows (quotients well below 2^52). Each result is
compared with NumPy's first (NaNs in the same places), then both are timed and
ratio = numpy_time / numgpu_time is printed (> 1: numgpu is faster).

    PYTHONPATH=python python bench/bench_floatdiv.py [--n 1000000] [--repeat 10] [--only SUBSTRING ...]
"""
import argparse
import warnings

import numpy as np

import numgpu as ng
from _timing import compare


def cases(n, only):
    rng = np.random.default_rng(0)
    out = []
    for dt in ("float64", "float32"):
        x = (rng.standard_normal(n) * 100).astype(dt)
        y = (rng.standard_normal(n) * 100).astype(dt)
        x[::997] = np.nan
        y[5::1009] = np.nan
        y[7::1013] = np.inf
        a = (rng.standard_normal(n) * 1000).astype(dt)
        b = ((rng.random(n) * 49.5 + 0.5) * np.where(rng.random(n) < 0.5, -1, 1)).astype(dt)
        gx, gy, ga, gb = (ng.asarray(v) for v in (x, y, a, b))
        s = np.dtype(dt).type(7.5)
        rows = []
        for name in ("fmax", "fmin", "maximum", "minimum"):
            f, g = getattr(np, name), getattr(ng, name)
            rows.append((f"{dt} {name}(x, y)", lambda g=g, gx=gx, gy=gy: g(gx, gy), lambda f=f, x=x, y=y: f(x, y)))
            rows.append((f"{dt} {name}(x, 7.5)", lambda g=g, gx=gx, s=s: g(gx, s), lambda f=f, x=x, s=s: f(x, s)))
        rows += [
            (f"{dt} a // b", lambda ga=ga, gb=gb: ga // gb, lambda a=a, b=b: a // b),
            (f"{dt} a % b", lambda ga=ga, gb=gb: ga % gb, lambda a=a, b=b: a % b),
            (f"{dt} fmod(a, b)", lambda ga=ga, gb=gb: ng.fmod(ga, gb), lambda a=a, b=b: np.fmod(a, b)),
            (f"{dt} divmod(a, b)", lambda ga=ga, gb=gb: divmod(ga, gb), lambda a=a, b=b: divmod(a, b)),
            (f"{dt} a // 7.5", lambda ga=ga, s=s: ga // s, lambda a=a, s=s: a // s),
            (f"{dt} a % 7.5", lambda ga=ga, s=s: ga % s, lambda a=a, s=s: a % s),
            (f"{dt} fmod(a, 7.5)", lambda ga=ga, s=s: ng.fmod(ga, s), lambda a=a, s=s: np.fmod(a, s)),
        ]
        out += [r for r in rows if not only or any(o in r[0] for o in only)]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10 ** 6)
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--only", nargs="*", default=[])
    args = p.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)
    return compare(cases(args.n, args.only), args.repeat, f"float min/max and division on {ng.get_device()}, n={args.n}",
                   width=26)


if __name__ == "__main__":
    raise SystemExit(main())
