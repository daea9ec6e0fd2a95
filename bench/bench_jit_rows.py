#!/usr/bin/env python3
"""DP loops whose row loop is independent by rows apart (a row written from the row before
it: 0/1 knapsack, Viterbi, a column recurrence), at short and long rows: @numgpu.jit against
plain Python and, where Numba is installed (it is not installed here), serial @njit, in one
run. Ratios: >1 means numgpu is faster. The row loop runs inside the kernel of the loop
around it (no launch per row); on cpu a row of at least 32768 iterations (512 when each
iteration holds a loop) runs in threads, on CUDA each row over one block of threads (OpenCL:
in one thread).

    python bench/bench_jit_rows.py [--repeat 5] [--only long]
"""
import argparse
import math
import time

import numpy as np

import numgpu

try:
    import numba
except ImportError:  # (not installed in this environment: no Numba column)
    numba = None


def knapsack(w, v, W):
    n = len(w)
    dp = np.zeros((n + 1, W + 1))
    for i in range(1, n + 1):
        for c in range(W + 1):
            dp[i, c] = max(dp[i - 1, c], dp[i - 1, c - w[i - 1]] + v[i - 1]) if c >= w[i - 1] else dp[i - 1, c]
    return dp


def viterbi(logA, logB, logpi, obs):
    K = logA.shape[0]
    T = len(obs)
    V = np.zeros((T, K))
    P = np.zeros((T, K), dtype=np.int64)
    for k in range(K):
        V[0, k] = logpi[k] + logB[k, obs[0]]
    for t in range(1, T):
        for k in range(K):
            best = -math.inf
            arg = 0
            for j in range(K):
                s = V[t - 1, j] + logA[j, k]
                if s > best:
                    best = s
                    arg = j
            V[t, k] = best + logB[k, obs[t]]
            P[t, k] = arg
    return V, P


def column_min(D, a):
    n, m = D.shape
    for i in range(1, n):
        for j in range(1, m):
            D[i, j] = min(D[i - 1, j] + a[j], D[i - 1, j - 1] + 1.0)
    return D


def cases(rng):
    def knap(n, W):
        return (rng.integers(1, 100, n), rng.random(n), W)

    def vit(K, T):
        return (np.log(rng.dirichlet(np.ones(K), K)), np.log(rng.dirichlet(np.ones(5), K)),
                np.log(np.ones(K) / K), rng.integers(0, 5, T))

    def col(n, m):
        return (rng.random((n, m)), rng.random(m))

    return [
        ("knapsack n=1000 W=1000 (short rows)", knapsack, knap(1000, 1000), None),
        ("knapsack n=20 W=100000 (long rows)", knapsack, knap(20, 100000), None),
        ("viterbi K=8 T=3000 (short rows)", viterbi, vit(8, 3000), None),
        ("viterbi K=600 T=8 (long rows)", viterbi, vit(600, 8), None),
        ("column recurrence 1000x1000", column_min, col(1000, 1000), 0),
        ("column recurrence 10x200000 (long rows)", column_min, col(10, 200000), 0),
    ]


def best(fn, args, fresh, repeat):
    times = []
    out = None
    for _ in range(repeat):
        a = tuple(x.copy() if i == fresh else x for i, x in enumerate(args))
        t0 = time.perf_counter()
        out = fn(*a)
        times.append(time.perf_counter() - t0)
    return min(times), out


def same(x, y):
    if isinstance(x, tuple):
        return all(same(a, b) for a, b in zip(x, y))
    return np.array_equal(np.asarray(x), np.asarray(y))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="", help="cases whose name holds this text")
    opt = ap.parse_args()
    rng = np.random.default_rng(0)
    print("%-42s %10s %10s %9s %10s %9s  %s" % ("case", "jit s", "python s", "py/jit", "numba s", "nb/jit", "row loop"))
    for name, fn, args, fresh in cases(rng):
        if opt.only not in name:
            continue
        jf = numgpu.jit(fn)
        best(jf, args, fresh, 1)  # (compiles)
        tj, got = best(jf, args, fresh, opt.repeat)
        rows = [r for r in jf.loop_report() if r.get("rows")]
        how = "rows (%s)" % rows[0]["ran"] if rows else "no rows loop"
        tp = float("nan")
        t0 = time.perf_counter()
        want = fn(*tuple(x.copy() if i == fresh else x for i, x in enumerate(args)))
        tp = time.perf_counter() - t0
        if not same(got, want):
            raise SystemExit("%s: jit and Python differ" % name)
        tn = float("nan")
        if numba is not None:
            nf = numba.njit(fn)
            best(nf, args, fresh, 1)
            tn, _ = best(nf, args, fresh, opt.repeat)
        print("%-42s %10.4f %10.4f %9.1f %10.4f %9.2f  %s" % (name, tj, tp, tp / tj, tn, tn / tj, how))


if __name__ == "__main__":
    main()
