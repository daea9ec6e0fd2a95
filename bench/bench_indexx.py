#!/usr/bin/env python3
"""numgpu/_indexx.py's compositions: numgpu against NumPy on the current device.

Prints, per operation on 10^6 elements (--n to change), numgpu's time, NumPy's (best of --repeat
runs each) and ratio = numpy_time / numgpu_time (> 1: numgpu is faster). Each numgpu result is
compared with NumPy's before it is timed; a mismatch exits 1. The in-place functions (putmask,
fill_diagonal) write the same values on every run.

    PYTHONPATH=python python bench/bench_indexx.py [--n 1000000] [--repeat 5]
"""
import sys

import numpy as np

import numgpu as ng
from _timing import bench_args, compare  # noqa: E402


def in_place(f, a, *args):
    """f(a, *args), then a (the in-place functions return None)."""
    f(a, *args)
    return a


def main():
    args = bench_args(__doc__)
    n = args.n
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n)
    m = x.reshape(n // 1000, 1000)
    cube = (100, 100, n // 10**4)
    flat = rng.integers(0, n, n)
    coords = np.unravel_index(flat, cube)
    cond = rng.random(n) < 0.5
    rows = rng.random(n // 1000) < 0.5
    pick = rng.integers(0, 3, n)
    choices = [x, -x, 2 * x]
    v = rng.standard_normal(1000)
    sq = rng.standard_normal((1000, 1000))
    tall = rng.standard_normal((3000, 300))
    slabs = rng.standard_normal((100, n // 100))
    gx, gm, gflat, gcond, grows, gpick, gv, gsq, gtall, gslabs = (
        ng.asarray(a) for a in (x, m, flat, cond, rows, pick, v, sq, tall, slabs))
    gcoords, gchoices = tuple(ng.asarray(c) for c in coords), [ng.asarray(c) for c in choices]
    px, gpx = x.copy(), ng.asarray(x)
    centre = lambda r: r - r.mean()          # noqa: E731
    cases = [
        ("unravel_index (n, 3 axes)", lambda: ng.unravel_index(gflat, cube), lambda: np.unravel_index(flat, cube)),
        ("unravel_index order=F", lambda: ng.unravel_index(gflat, cube, order="F"),
         lambda: np.unravel_index(flat, cube, order="F")),
        ("ravel_multi_index (n, 3 axes)", lambda: ng.ravel_multi_index(gcoords, cube),
         lambda: np.ravel_multi_index(coords, cube)),
        ("ravel_multi_index mode=wrap", lambda: ng.ravel_multi_index(gcoords, cube, mode="wrap"),
         lambda: np.ravel_multi_index(coords, cube, mode="wrap")),
        ("compress (n, half kept)", lambda: ng.compress(gcond, gx), lambda: np.compress(cond, x)),
        ("compress rows (n/1000 x 1000)", lambda: ng.compress(grows, gm, axis=0), lambda: np.compress(rows, m, axis=0)),
        ("extract (n, half kept)", lambda: ng.extract(gcond, gx), lambda: np.extract(cond, x)),
        ("choose 3 choices (n)", lambda: ng.choose(gpick, gchoices), lambda: np.choose(pick, choices)),
        ("choose mode=clip", lambda: ng.choose(gpick, gchoices, mode="clip"),
         lambda: np.choose(pick, choices, mode="clip")),
        ("putmask 1000 values (n)", lambda: in_place(ng.putmask, gpx, gcond, gv),
         lambda: in_place(np.putmask, px, cond, v)),
        ("fill_diagonal (1000 x 1000)", lambda: in_place(ng.fill_diagonal, gsq, gv),
         lambda: in_place(np.fill_diagonal, sq, v)),
        ("fill_diagonal wrap (3000 x 300)", lambda: in_place(ng.fill_diagonal, gtall, 2.5, True),
         lambda: in_place(np.fill_diagonal, tall, 2.5, True)),
        ("fill_diagonal transposed", lambda: in_place(ng.fill_diagonal, gtall.T, gv),
         lambda: in_place(np.fill_diagonal, tall.T, v)),
        ("apply_along_axis (100 x n/100)", lambda: ng.apply_along_axis(centre, 1, gslabs),
         lambda: np.apply_along_axis(centre, 1, slabs)),
        ("apply_along_axis sum (n/1000 rows)", lambda: ng.apply_along_axis(np.sum, 1, gm),
         lambda: np.apply_along_axis(np.sum, 1, m)),
    ]
    return compare(cases, args.repeat, f"device {ng.get_device()}, n = {n}", width=36)


if __name__ == "__main__":
    sys.exit(main())
