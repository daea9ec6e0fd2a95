#!/usr/bin/env python3
"""Per-call overhead of numgpu against NumPy on small arrays, in one run.

What a program of many small operations pays on every call: the Python glue (the guard of each
public function, a ufunc object's call), argument conversion in src/pymod, the kernel cache
lookup and the launch. Arrays of 10 float64 elements (--n), so the element work is nothing; each
row prints numgpu's and NumPy's best time per call in microseconds and ratio = numpy / numgpu
(> 1: numgpu is faster). Every result is compared with NumPy's first (exit 1 on a mismatch).

    python bench/bench_small.py            # 10 elements
    python bench/bench_small.py --n 1000
"""
import argparse
import sys
import timeit

import numpy as np

import numgpu as ng


def best_us(fn, rounds, number):
    """fn's best time per call (microseconds) over `rounds` timings of `number` calls: on a shared
    machine the best round is the op's own cost."""
    fn()
    return min(timeit.timeit(fn, number=number) / number for _ in range(rounds)) * 1e6


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--number", type=int, default=2000)
    args = p.parse_args()
    n = args.n
    na, nb = np.arange(n, dtype=float), np.linspace(1.0, 2.0, n)
    a, b = ng.asarray(na), ng.asarray(nb)
    cases = [
        ("a + b", lambda: a + b, lambda: na + nb),
        ("a * 2.0", lambda: a * 2.0, lambda: na * 2.0),
        ("np.add(a, b)", lambda: ng.add(a, b), lambda: np.add(na, nb)),
        ("np.sqrt(a)", lambda: ng.sqrt(a), lambda: np.sqrt(na)),
        ("np.zeros(3)", lambda: ng.zeros(3), lambda: np.zeros(3)),
        ("np.empty(3)", lambda: ng.empty(3), lambda: np.empty(3)),
        ("np.ones((2, 3), int32)", lambda: ng.ones((2, 3), np.int32), lambda: np.ones((2, 3), np.int32)),
        ("np.concatenate([a, b])", lambda: ng.concatenate([a, b]), lambda: np.concatenate([na, nb])),
        ("np.where(a > 3, a, b)", lambda: ng.where(a > 3, a, b), lambda: np.where(na > 3, na, nb)),
        ("a.sum()", lambda: a.sum(), lambda: na.sum()),
        ("a.copy()", lambda: a.copy(), lambda: na.copy()),
        ("a[2:5]", lambda: a[2:5], lambda: na[2:5]),
        ("np.array([1.0, 2.0, 3.0])", lambda: ng.array(lst), lambda: np.array(lst)),
        ("np.asarray(a)", lambda: ng.asarray(a), lambda: np.asarray(na)),
        ("np.zeros_like(a)", lambda: ng.zeros_like(a), lambda: np.zeros_like(na)),
        ("np.stack([a, b])", lambda: ng.stack([a, b]), lambda: np.stack([na, nb])),
        ("a.tolist()", lambda: a.tolist(), lambda: na.tolist()),
        ("np.cumsum(a)", lambda: ng.cumsum(a), lambda: np.cumsum(na)),
        ("np.round(a, 2)", lambda: ng.round(a, 2), lambda: np.round(na, 2)),
        ("np.sort(b[::-1])", lambda: ng.sort(b[::-1]), lambda: np.sort(nb[::-1])),
        ("np.argsort(b[::-1])", lambda: ng.argsort(b[::-1]), lambda: np.argsort(nb[::-1])),
        ("np.unique(a)", lambda: ng.unique(a), lambda: np.unique(na)),
        ("np.interp(2.5, a, b)", lambda: ng.interp(2.5, a, b), lambda: np.interp(2.5, na, nb)),
        ("np.einsum('i,i->', a, b)", lambda: ng.einsum("i,i->", a, b), lambda: np.einsum("i,i->", na, nb)),
        ("np.searchsorted(a, 2.5)", lambda: ng.searchsorted(a, 2.5), lambda: np.searchsorted(na, 2.5)),
        ("np.percentile(a, 75)", lambda: ng.percentile(a, 75), lambda: np.percentile(na, 75)),
        ("np.random.rand(10)", lambda: ng.random.rand(n), lambda: np.random.rand(n)),
        ("rng.random(10)", lambda: rg.random(n), lambda: rn.random(n)),
    ]
    lst = [1.0, 2.0, 3.0]
    rg, rn = ng.random.default_rng(0), np.random.default_rng(0)
    print(f"numgpu per-call overhead: device {ng.get_device() if hasattr(ng, 'get_device') else 'default'}, "
          f"float64, {n} elements, best of {args.rounds} x {args.number} calls")
    print(f"{'operation':26s} {'numgpu us':>10s} {'numpy us':>10s} {'ratio':>7s}")
    bad = 0
    for name, fg, fn in cases:
        got, exp = fg(), fn()
        got = got.get() if hasattr(got, "get") else np.asarray(got)
        draws = "rand" in name or "random" in name      # (streams advanced by timing: shapes compared)
        if got.shape != np.shape(exp) or not (draws or np.allclose(got, exp)):
            print(f"{name:26s} MISMATCH with NumPy")
            bad += 1
            continue
        tg, tn = best_us(fg, args.rounds, args.number), best_us(fn, args.rounds, args.number)
        print(f"{name:26s} {tg:10.3f} {tn:10.3f} {tn / tg:7.2f}")
    print("ratio = numpy time / numgpu time: > 1 means numgpu is faster")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
