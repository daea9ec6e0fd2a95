#!/usr/bin/env python3
"""Gathering and rearranging: numgpu against NumPy on large inputs (cpu device by default).

For each operation prints numgpu's time, NumPy's and the ratio NumPy / numgpu (> 1: numgpu is
faster). Every result is compared with NumPy's first; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_manip.py            # 4M-element inputs
    PYTHONPATH=python python bench/bench_manip.py --quick    # 1M
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import device_time  # noqa: E402




def host(r):
    if isinstance(r, tuple):
        return tuple(host(v) for v in r)
    return r.get() if isinstance(r, ng.ndarray) else np.asarray(r)


def same(got, exp):
    if isinstance(exp, tuple):
        return all(same(g, e) for g, e in zip(got, exp))
    rtol = 1e-3 if np.asarray(exp).dtype == np.float16 else 1e-9
    return got.shape == np.shape(exp) and np.allclose(got, exp, rtol=rtol, atol=1e-9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = 1 << (20 if args.quick else 22)
    side = int(n ** 0.5)
    rng = np.random.default_rng(0)
    v = rng.standard_normal(n)
    m = rng.standard_normal((side, side))
    mask = rng.random(n) < 0.5
    idx = rng.integers(0, n, n // 4)
    small = rng.standard_normal((side // 4, side // 4))
    b3 = rng.standard_normal((64, 128, 128))
    h = v.astype(np.float16)
    c = v + 1j * rng.standard_normal(n)
    gv, gm, gmask, gidx, gsmall, gb3 = map(ng.asarray, (v, m, mask, idx, small, b3))
    gh, gc = ng.asarray(h), ng.asarray(c)
    cases = [
        ("take (1/4 n indices)", lambda: ng.take(gv, gidx), lambda: np.take(v, idx)),
        ("take mode=wrap", lambda: ng.take(gv, gidx, mode="wrap"), lambda: np.take(v, idx, mode="wrap")),
        ("take float16", lambda: ng.take(gh, gidx), lambda: np.take(h, idx)),
        ("take complex128", lambda: ng.take(gc, gidx), lambda: np.take(c, idx)),
        ("where float16", lambda: ng.where(gmask, gh, 0.5), lambda: np.where(mask, h, np.float16(0.5))),
        ("where complex128", lambda: ng.where(gmask, gc, 1j), lambda: np.where(mask, c, 1j)),
        ("where(cond) complex128", lambda: ng.where(gc.real > 0), lambda: np.where(c.real > 0)),
        ("nonzero (1-d mask)", lambda: ng.nonzero(gmask), lambda: np.nonzero(mask)),
        ("argwhere (matrix)", lambda: ng.argwhere(gm > 0), lambda: np.argwhere(m > 0)),
        ("repeat 2 (axis 0)", lambda: ng.repeat(gm, 2, axis=0), lambda: np.repeat(m, 2, axis=0)),
        ("repeat counts", lambda: ng.repeat(gv[:n // 4], gidx % 4), lambda: np.repeat(v[:n // 4], idx % 4)),
        ("tile (2, 2)", lambda: ng.tile(gm, (2, 2)), lambda: np.tile(m, (2, 2))),
        ("roll 1-d", lambda: ng.roll(gv, 12345), lambda: np.roll(v, 12345)),
        ("roll 2-d both axes", lambda: ng.roll(gm, (3, -5), (0, 1)), lambda: np.roll(m, (3, -5), (0, 1))),
        ("flip + copy", lambda: ng.flip(gm).copy(), lambda: np.flip(m).copy()),
        ("pad constant 8", lambda: ng.pad(gm, 8), lambda: np.pad(m, 8)),
        ("pad reflect 8", lambda: ng.pad(gm, 8, "reflect"), lambda: np.pad(m, 8, "reflect")),
        ("pad wrap 8", lambda: ng.pad(gm, 8, "wrap"), lambda: np.pad(m, 8, "wrap")),
        ("tril", lambda: ng.tril(gm), lambda: np.tril(m)),
        ("trace", lambda: ng.trace(gm), lambda: np.trace(m)),
        ("outer", lambda: ng.outer(gv[:side], gv[:side]), lambda: np.outer(v[:side], v[:side])),
        ("einsum ij,jk->ik", lambda: ng.einsum("ij,jk->ik", gsmall, gsmall),
         lambda: np.einsum("ij,jk->ik", small, small)),
        ("einsum bij,bjk->bik", lambda: ng.einsum("bij,bjk->bik", gb3, gb3),
         lambda: np.einsum("bij,bjk->bik", b3, b3)),
        ("einsum ij->ji copy", lambda: ng.einsum("ij->ji", gm).copy(), lambda: np.einsum("ij->ji", m).copy()),
        ("tensordot axes=1 (3-d)", lambda: ng.tensordot(gb3, gsmall[:128, :128], 1),
         lambda: np.tensordot(b3, small[:128, :128], 1)),
        ("linalg.norm fro", lambda: ng.linalg.norm(gm), lambda: np.linalg.norm(m)),
        ("linalg.norm ord=1 axis=1", lambda: ng.linalg.norm(gm, 1, axis=1), lambda: np.linalg.norm(m, 1, axis=1)),
    ]
    print("device %s, n = %d, matrix %dx%d" % (ng.get_device(), n, side, side))
    print("%-26s %12s %12s %8s" % ("operation", "numgpu ms", "numpy ms", "ratio"))
    bad = False
    for name, f_ng, f_np in cases:
        if not same(host(f_ng()), f_np()):
            print("%-26s MISMATCH" % name)
            bad = True
            continue
        t_ng = device_time(f_ng, args.repeat)
        t_np = device_time(f_np, args.repeat)
        print("%-26s %12.3f %12.3f %8.2f" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
