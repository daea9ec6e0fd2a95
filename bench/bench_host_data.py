#!/usr/bin/env python3
"""What `import numgpu as np` costs where numgpu hands a call to NumPy, and what its guard costs.

Data numgpu has no device arrays of (str, datetime64, object) stays NumPy's, and numgpu's
functions given it run NumPy's (the fallback): the first rows time such calls through numgpu
against NumPy's own call (ratio = numpy_time / numgpu_time: 1.0 means the detour is free).
Then small device calls through numgpu's public function (one guard frame) against the same
function unguarded (ratio = unguarded / guarded), and Python loops over a numgpu array's
elements against the same loops over the NumPy array (ratio = numpy_time / numgpu_time). Each result is compared
with NumPy's (or the unguarded one's) before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_host_data.py [--n 1000000] [--repeat 7]
"""
import argparse
import sys
import timeit
import warnings

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def per_call(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**6)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    warnings.simplefilter("ignore", ng._fallback.FallbackWarning)
    rng = np.random.default_rng(0)
    words = np.array(["w%05d" % i for i in rng.integers(0, 50000, args.n)])
    days = np.datetime64("2020-01-01") + rng.integers(0, 3650, args.n).astype("timedelta64[D]")
    objs = np.array(list(rng.integers(0, 100, args.n // 10)), dtype=object)

    host_cases = [
        ("sort, %d strs" % args.n, lambda m: m.sort(words)),
        ("unique, %d strs" % args.n, lambda m: m.unique(words)),
        ("where, %d strs" % args.n, lambda m: m.where(words > "w25000", words, "-")),
        ("diff, %d datetime64" % args.n, lambda m: m.diff(days)),
        ("array of %d objects" % objs.size, lambda m: m.array(objs)),
    ]
    print("device %s" % ng.get_device())
    print("%-34s %12s %12s %8s" % ("host data through numgpu", "numgpu s", "numpy s", "ratio"))
    bad = 0
    for name, f in host_cases:
        got, want = f(ng), f(np)
        if type(got) is not np.ndarray or not np.array_equal(got, want):
            print("MISMATCH in %s" % name)
            bad += 1
            continue
        t_ng, t_np = best_time(lambda: f(ng), args.repeat), best_time(lambda: f(np), args.repeat)
        print("%-34s %12.5f %12.5f %8.2f" % (name, t_ng, t_np, t_np / t_ng))

    x = ng.arange(16.0)
    m = ng.arange(16) > 3
    guard_cases = [
        ("sum(x)", "sum", (x,)),
        ("reshape(x, (4, 4))", "reshape", (x, (4, 4))),
        ("where(m, x, 0.0)", "where", (m, x, 0.0)),
        ("zeros(16)", "zeros", (16,)),
        ("asarray(x)", "asarray", (x,)),
    ]
    print("%-34s %12s %12s %8s" % ("one call (16 elements)", "guarded us", "bare us", "ratio"))
    for name, fname, a in guard_cases:
        guarded = vars(ng)[fname]
        bare = guarded.__wrapped__
        if not np.array_equal(ng.asnumpy(guarded(*a)), ng.asnumpy(bare(*a))):
            print("MISMATCH in %s" % name)
            bad += 1
            continue
        t_g, t_b = per_call(lambda: guarded(*a), 20000), per_call(lambda: bare(*a), 20000)
        print("%-34s %12.3f %12.3f %8.2f" % (name, t_g * 1e6, t_b * 1e6, t_b / t_g))

    # Python loops over a numgpu array's elements (a drawdown, and a running sum by index): on cpu
    # the elements are NumPy's scalars, so the loop's arithmetic is NumPy's scalar arithmetic.
    prices = rng.random(20000) + 1.0

    def drawdown(a):
        peak, worst = a[0], 0.0
        for p in a:
            if p > peak:
                peak = p
            d = (peak - p) / peak
            if d > worst:
                worst = d
        return float(worst)

    def running(a):
        s = 0.0
        for i in range(len(a)):
            s += a[i]
        return float(s)

    def smooth(a):     # element stores: a[i] = NumPy scalar arithmetic (host_store in ndarray.c)
        a = a.copy()
        for i in range(1, len(a)):
            a[i] = a[i - 1] * 0.9 + a[i]
        return float(a[-1])

    def small(a):      # small arrays made in a loop (creation's fixed cost: dtype lookups, the guard)
        s = 0.0
        for i in range(0, 2000):
            z = xp_of(a).zeros(3)
            z[0] = a[i]
            s += float(xp_of(a).arange(3)[2] + z.sum())
        return s

    def xp_of(a):
        return ng if isinstance(a, ng.ndarray) else np

    print("%-34s %12s %12s %8s" % ("Python loop over 20000 elements", "numgpu s", "numpy s", "ratio"))
    for name, f in (("for p in x: drawdown", drawdown), ("for i in range(n): s += x[i]", running),
                    ("a[i] = a[i - 1] * 0.9 + a[i]", smooth), ("np.zeros(3), np.arange(3) x2000", small)):
        g = ng.asarray(prices)
        if f(g) != f(prices):
            print("MISMATCH in %s" % name)
            bad += 1
            continue
        t_ng, t_np = best_time(lambda: f(g), 3), best_time(lambda: f(prices), 3)
        print("%-34s %12.5f %12.5f %8.2f" % (name, t_ng, t_np, t_np / t_ng))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
