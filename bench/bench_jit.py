#!/usr/bin/env python3
"""@numgpu.jit on the loop corpus (../shared/kernels) at its `bench` size:
speedup over plain Python and ratio against Numba's @njit(parallel=True)
with prange on the loops the corpus marks parallel, in one run.

    python bench/bench_jit.py [--only saxpy,dot_reduce] [--python-budget 20] [--dir bench/jit_complex]

Numba is installed from the package index when missing (pip install numba), and SciPy
(Numba's np.linalg needs it).
Plain Python's bench-size time is predicted from its test-size time, scaled by
the growth of the element count or, when it is more than 8 times that, by the
growth of the work, measured as the ratio of serial Numba's (`@njit`, no
prange) bench-size time to its test-size time (loops whose work grows faster
than their data: floyd_warshall's n^3 over n^2 elements, nbody's n^2, the time
steps of heat_2d). Python runs at the bench size when the prediction fits the
budget; otherwise the prediction stands, marked "~" (serial Numba's growth
includes the bench size's memory traffic, a few times slower per element than
the test size's cache-resident data, hence the margin of 8). Every jit result is compared with Python's where
Python ran at the bench size, else with Numba's, before its time counts. Ratios: >1 means numgpu is faster.
numgpu and Numba are timed in turns, best of 5 each (see `interleaved`).
`--dir bench/jit_complex` runs the project's own complex-valued loops (mandelbrot in complex
numbers, a conjugate dot product, a rotation by np.exp(1j * theta)) the same way, and
`--dir bench/jit_peel` loops the analysis proves parallel around one iteration or in mirrored
halves (Gaussian elimination's rows below the pivot, an image flipped in place), and
`--dir bench/jit_uneven` a loop whose iterations cost very different amounts (the upper half of
the Mandelbrot set: dynamic scheduling on cpu), and `--dir bench/jit_helpers` helpers that write
into the arrays passed to them, rows normalised in place through `row = X[i]`, and loops over
arrays with zip and enumerate, and `--dir bench/jit_pyarith` arithmetic of Python numbers that
Python raises on (division by zero: checked in the loop, or before it where the divisor is the
same in every iteration), and `--dir bench/jit_scan` integer scans (a running sum, a
conditional count, a running maximum: in order in Numba; NUMGPU_SCAN=0 runs them in order
here too), and `--dir bench/jit_slices` slices of one axis (a moving average of windows
`np.sum(x[i - w:i + w + 1])`, column means and maxima of `X[:, j]`, a row stencil
`Y[i, 1:-1] = 0.25 * X[i, :-2] + ...`, a 3x3 filter and 2x2 max pooling over windows of
two axes, each row's std and argmax, a softmax of rows through a local `e = np.exp(X[i] - ...)`,
distances `np.linalg.norm(X[i] - Y[j])`), and `--dir bench/jit_random` loops drawing random
numbers (a Monte Carlo pi, random walks to a barrier: a case with its own `agree(ref, got)`
compares statistics, the numbers being other than Python's and Numba's), and
`--dir bench/jit_returns` loops left by a `return`
(all_close's `return False`, the first pair where a matrix differs from its transpose: searches),
and `--dir bench/jit_newarrays` small arrays made in the loop (`a = np.zeros(3)`: an n-body step
in NumPy rows, a projection accumulated in `acc[k]`, a 16-bin and a 256-bin histogram of each
row: arrays of the iteration's own, indexed by the data), and `--dir bench/jit_axis` reductions
along one axis (k-means' assignment `np.argmin(np.sum((C - X[i]) ** 2, axis=1))`, sums along
each axis of a patch).
A case's helper functions are jitted for Numba too (`njit`). Where Numba lacks a NumPy form the
case uses (keepdims=, np.mean's axis=), the case's `numba_kernel` is the same loop as a Numba
user writes it, and Numba runs that. `--dir bench/jit_newaxis`: new axes (`w[:, None] * X[i]`,
pairwise distances `P[i][:, None, :] - P[i][None, :, :]`), keepdims=True (a softmax of each
row of a batch, columns standardised) and np.arange (a polynomial `np.sum(c * x[i] ** np.arange(k))`).
`--dir bench/jit_masks`: boolean masks' selections (each row's mean of its positive elements
through `pos = X[i][X[i] > 0]`, a sum and count within bounds, rows clipped by `r[r < lo] = lo`,
k-means' update `C[k] = X[labels == k].mean(axis=0)`). `--dir bench/jit_gathers`: arrays indexed by
arrays of integers (a sparse matrix times a vector in CSR form, `x[indices[a:b]]`; each node's
largest neighbour, `np.max(v[nbrs[i]])`; groups' mean rows `np.sum(X[members[k]], axis=0)`).
`--dir bench/jit_pingpong`: time steps that swap two grids (`u, v = v, u`) instead of copying one
back (heat_2d's step on a 2-d grid, a 1-d three-point sweep): parallel sweeps in a host loop.
`--dir bench/jit_reductions`: reductions written other ways (a max as `m = x[i] if x[i] > m else m`,
a `changed = True` flag in a loop that also stores, the last index passing a test, Dijkstra's
selection `if not done[i] and dist[i] < best`). `--dir bench/jit_lastvalue`: names read after a
parallel loop (the last element passing a test and its index, the last iteration's value of a loop
that stores, one also used in its iteration, a complex one) and a loop of raise checks without
errors (their cost).
A case with a `vectorised` function (NumPy's
vectorised equivalent) also gets "vs numpy": its time over numgpu's, in the same run.
`--dir bench/jit_compact`: stream compactions (the positive elements into out, the indices above a
threshold, sparse (index, value) pairs into two arrays, rows stored whole: `if t: out[k] = v; k += 1`, scans of k; in
order in Numba; "vs numpy" against x[x > 0] or np.flatnonzero copied into the same arrays).
`--dir bench/jit_frontend2`: loop bodies the front end compiles since the seventh bug hunt (round(v, 2)
of Python floats, np.zeros((L, len(d))) of a dict, a tuple bound to a local, sum() of a generator
expression over a row, enumerate(zip(a, b)) unpacked, a search with a `continue` before its test).
"""
import argparse
import copy
import importlib.util
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import numgpu  # noqa: E402

CORPUS = os.path.join(HERE, "..", "..", "shared", "kernels")


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location("bench_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return name, mod


def numba_version(path, numba):
    """The case's module source with parallel-marked range loops as prange, under njit(parallel=True)."""
    src = open(path).read()
    lines = []
    for line in src.splitlines():
        if re.search(r"#\s*expect:\s*parallel", line) and line.lstrip().startswith("for "):
            line = line.replace("range(", "prange(", 1)
        lines.append(line)
    ns = {"prange": numba.prange}
    exec(compile("\n".join(lines), path, "exec"), ns)
    for name, fn in list(ns.items()):  # the case's helpers jitted too, as a Numba user would
        if name not in ("kernel", "numba_kernel") and getattr(fn, "__module__", None) is None and callable(fn) and \
                getattr(fn, "__code__", None) is not None and fn.__code__.co_filename == path:
            ns[name] = numba.njit(fn)
    return numba.njit(parallel=True)(ns.get("numba_kernel", ns["kernel"]))


def timed(fn, args, repeat=3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        a = copy.deepcopy(args)
        t = time.perf_counter()
        out = fn(*a)
        best = min(best, time.perf_counter() - t)
    return best, out, a


def interleaved(fns, args, repeat=5):
    """Best-of-`repeat` times of several functions on the same inputs, taken in
    turns (A B A B ...) so that drift on a shared machine (another process, the
    CPU's clock, the page cache) falls on each alike: timing one function's runs
    and then the other's let a slow spell land on one side only. Returns
    [(best, out, args)] in the order of `fns`."""
    best = [(float("inf"), None, None) for _ in fns]
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            t, out, a = timed(fn, args, repeat=1)
            if t < best[k][0]:
                best[k] = (t, out, a)
    return best


def work_ratio(mod, numba, bench_args, test_args):
    """How much more work the bench size is than the test size, by serial Numba's times
    (None without Numba, or where Numba cannot compile the case)."""
    if numba is None:
        return None
    try:
        g = numba.njit(getattr(mod, "numba_kernel", mod.kernel))
        g(*copy.deepcopy(test_args))
        t_test = min(timed(g, test_args, repeat=1)[0] for _ in range(5))
        t_bench = timed(g, bench_args, repeat=1)[0]
    except Exception:  # noqa: BLE001 - Numba does not support the case
        return None
    return t_bench / t_test if t_test > 0 else None


def size_of(args):
    return sum(a.size for a in args if isinstance(a, np.ndarray)) or 1


def same(x, y):
    if isinstance(x, np.ndarray):
        return np.allclose(x, y, rtol=1e-6, equal_nan=True)
    if isinstance(x, (tuple, list)):
        return all(same(a, b) for a, b in zip(x, y))
    if isinstance(x, (float, complex, np.inexact)):
        return bool(np.isclose(x, y, rtol=1e-6))
    return x == y


def agree(ref, got):
    """Same result and same final arguments (arrays written in place)."""
    return same(ref[0], got[0]) and all(same(a, b) for a, b in zip(ref[1], got[1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--python-budget", type=float, default=20.0)
    ap.add_argument("--dir", default=CORPUS, help="the corpus folder (default ../shared/kernels)")
    ap.add_argument("--max-gb", type=float, default=3.0,
                    help="skip a case whose bench inputs exceed this (each timing copies them, "
                         "and Numba and Python need their own copies)")
    args = ap.parse_args()
    try:
        import numba
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "numba"], check=False)
        try:
            import numba
        except ImportError:
            numba = None
    try:  # (Numba's np.linalg needs SciPy's BLAS and LAPACK)
        import scipy  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "scipy"], check=False)
    only = set(filter(None, args.only.split(",")))
    paths = sorted(p for p in os.listdir(args.dir) if p.endswith(".py") and p != "run.py")
    print("device %s; numba %s" % (numgpu.get_device(), numba.__version__ if numba else "not installed"))
    print("%-18s %10s %10s %10s %9s %9s %9s" % ("case", "python s", "numgpu s", "numba s", "vs py", "vs numba",
                                                "vs numpy"))
    for p in paths:
        name, mod = load(os.path.join(args.dir, p))
        if only and name not in only:
            continue
        rng = np.random.default_rng(0)
        bench_args = mod.inputs("bench", rng)
        gb = sum(a.nbytes for a in bench_args if isinstance(a, np.ndarray)) / 2**30
        if gb > args.max_gb:
            print("%-18s skipped: bench inputs take %.1f GiB (--max-gb %.1f)" % (name, gb, args.max_gb))
            continue
        f = numgpu.jit(mod.kernel)
        try:
            f(*copy.deepcopy(bench_args))  # compile (first call)
        except Exception as e:  # noqa: BLE001 - report and go on
            print("%-18s numgpu failed: %s" % (name, str(e)[:80]))
            continue
        g = None
        if numba:
            try:
                g = numba_version(os.path.join(args.dir, p), numba)
                g(*copy.deepcopy(bench_args))  # compile
            except Exception:  # noqa: BLE001 - Numba does not support the case
                g = None
        t_nb, ref = None, None
        if g is not None:
            (t_ng, out_ng, args_ng), (t_nb, out_nb, args_nb) = interleaved([f, g], bench_args)
            ref = (out_nb, args_nb)
        else:
            t_ng, out_ng, args_ng = interleaved([f], bench_args)[0]
        vec = getattr(mod, "vectorised", None)  # (NumPy's vectorised form, where the case has one)
        t_np = min(timed(vec, bench_args, repeat=1)[0] for _ in range(5)) if vec else None
        # plain Python: test size first, then bench size if it fits the budget
        test_args = mod.inputs("test", np.random.default_rng(0))
        t_small, _, _ = timed(mod.kernel, test_args, repeat=1)
        scale = size_of(bench_args) / size_of(test_args)
        work = work_ratio(mod, numba, bench_args, test_args)
        if work is not None and work > 8 * scale:  # the work grows faster than the data
            scale = work
        if t_small * scale < args.python_budget:
            t_py, out_py, args_py = timed(mod.kernel, bench_args, repeat=1)
            approx = ""
            ref = (out_py, args_py)  # (Python's answer, where it ran, over Numba's)
        else:
            t_py, approx = t_small * scale, "~"
        # the jit against plain Python at the test size always; at the bench
        # size against Python where it ran, else against Numba. Numba's prange
        # races on scattered `+=` (its docs say so), so a difference from
        # Numba alone is reported as such, not as a numgpu error.
        small_py = mod.inputs("test", np.random.default_rng(0))
        small_ng = copy.deepcopy(small_py)
        check = getattr(mod, "agree", agree)  # (a case of random numbers: its own statistics)
        ok_small = check((mod.kernel(*small_py), small_py), (f(*small_ng), small_ng))
        ok = ref is None or check(ref, (out_ng, args_ng))
        verdict = "" if ok and ok_small else "  MISMATCH" if not ok_small or approx == "" else "  differs from Numba"
        if vec and not same(vec(*copy.deepcopy(small_py)), mod.kernel(*copy.deepcopy(small_py))):
            verdict += "  (vectorised form differs)"
        print("%-18s %9s%1s %10.4f %10s %8.0fx %9s %9s%s" % (
            name, "%.3f" % t_py, approx, t_ng, "%.4f" % t_nb if t_nb else "-", t_py / t_ng,
            "%.2fx" % (t_nb / t_ng) if t_nb else "-", "%.2fx" % (t_np / t_ng) if t_np else "-", verdict))
    loops = numgpu.stats()
    print("kernels compiled %d, launches %d" % (loops["kernels_compiled"], loops["kernel_launches"]))


if __name__ == "__main__":
    main()
