#!/usr/bin/env python3
"""Core speed of numgpu against NumPy, in one run.

Prints, for float64 arrays of 10^7 elements (10^6 with --quick):
  a + b, a * b + c, a.sum(), m.sum(axis=0) and m.sum(axis=1) of a matrix,
  and the per-op time of a + b on 1-element arrays (the fixed overhead),
each as numgpu time, NumPy time and ratio = numpy_time / numgpu_time
(> 1: numgpu is faster); then the time `import numgpu` adds over
`import numpy`, and kernel latency: first call (compiles), first call in a new
process with the disk cache warm, and a repeated call (in-process table).

Every numgpu result is compared with NumPy's before it is timed, so the
benchmark cannot measure a wrong operation. It exits 1 on a mismatch.

    python bench/bench_core.py            # 10^7 elements
    python bench/bench_core.py --quick    # 10^6 elements, fewer repeats
    python bench/bench_core.py --errstate ignore   # the elementwise kernels without error checks
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy

try:
    import numgpu as ng
except ImportError as exc:
    sys.exit(f"bench_core: cannot import numgpu ({exc}); run `make bench` from the repo root, "
             "or `make build` and set PYTHONPATH=python")

SYNC = getattr(ng, "synchronize", None)


def sync():
    if SYNC is not None:
        SYNC()


def to_host(r):
    """A numgpu result (array, 0-d array or scalar) as a NumPy value."""
    return r.get() if hasattr(r, "get") else numpy.asarray(r)


def median_time(fn, repeat, warmup=2, inner=1, synced=False):
    """Median seconds of one call of fn over `repeat` timings, after `warmup`
    calls; each timing runs fn `inner` times and divides (for tiny ops, where
    one call is near the clock's resolution). synced: call sync() before the
    clock stops."""
    for _ in range(warmup):
        fn()
    if synced:
        sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        if synced:
            sync()
        times.append((time.perf_counter() - t0) / inner)
    return statistics.median(times)


def device_name():
    if hasattr(ng, "get_device"):
        try:
            return str(ng.get_device())
        except Exception:
            pass
    return "cpu"


# ---- array operations ---------------------------------------------------------

def array_cases(n, repeat):
    """Yields (name, numgpu seconds, numpy seconds, error or None) per case."""
    rng = numpy.random.default_rng(0)
    a, b, c = (rng.standard_normal(n) for _ in range(3))
    rows = 1000
    m = rng.standard_normal((rows, n // rows))
    ta, tb, tc = (numpy.ones(1) * v for v in (1.5, 2.25, 0.0))
    host = dict(a=a, b=b, c=c, m=m, ta=ta, tb=tb)
    dev = {k: ng.asarray(v) for k, v in host.items()}
    shape = f"({rows}, {n // rows})"
    size = f"10^{len(str(n)) - 1}" if str(n).strip("0") == "1" else f"{n:,}"
    cases = [
        (f"a + b  [{size}]", lambda x: x["a"] + x["b"], 1),
        (f"a * b + c  [{size}]", lambda x: x["a"] * x["b"] + x["c"], 1),
        (f"a ** 2  [{size}]", lambda x: x["a"] ** 2, 1),
        (f"(a - b) ** 2 + c ** -1  [{size}]", lambda x: (x["a"] - x["b"]) ** 2 + x["c"] ** -1, 1),
        (f"a.sum()  [{size}]", lambda x: x["a"].sum(), 1),
        (f"m.sum(axis=0)  {shape}", lambda x: x["m"].sum(axis=0), 1),
        (f"m.sum(axis=1)  {shape}", lambda x: x["m"].sum(axis=1), 1),
        ("a + b  [1 element]", lambda x: x["ta"] + x["tb"], 2000),
    ]
    for name, op, inner in cases:
        err = None
        try:
            want = op(host)
            got = to_host(op(dev))
            if numpy.shape(got) != numpy.shape(want):
                err = f"shape {numpy.shape(got)} differs from NumPy's {numpy.shape(want)}"
            elif not numpy.allclose(got, want, rtol=1e-9, atol=1e-9 * abs(want).max()):
                err = "values differ from NumPy's"
        except Exception as exc:  # report and go on with the other cases
            err = f"{type(exc).__name__}: {exc}"
        if err:
            yield name, None, None, err
            continue
        r = max(3, repeat // 2) if inner == 1 else repeat
        t_ng = median_time(lambda: op(dev), r, inner=inner, synced=True)
        t_np = median_time(lambda: op(host), r, inner=inner)
        yield name, t_ng, t_np, None


# ---- import time and kernel latency, in fresh processes ----------------------

def run_python(code, env=None):
    """Runs `python -c code` and returns its stdout (raises on failure)."""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"subprocess failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return out.stdout


def import_times(repeat):
    """(median s of `import numpy`, of `import numgpu`) in fresh interpreters,
    each timed inside the child around the import statement alone."""
    code = ("import time; t = time.perf_counter(); import {m}; "
            "print(time.perf_counter() - t)")
    res = {"numpy": [], "numgpu": []}
    for _ in range(repeat):  # interleaved, so a change in machine load hits both alike
        for mod in res:
            res[mod].append(float(run_python(code.format(m=mod))))
    return statistics.median(res["numpy"]), statistics.median(res["numgpu"])


# One kernel-latency probe: times the first and then repeated `a * b - a`
# (an expression kept apart from the ones the benchmark times, so the first
# call is a real first call) and reports the numgpu counters it moved.
LATENCY_PROBE = r"""
import json, statistics, time, numpy, numgpu as ng
sync = getattr(ng, "synchronize", lambda: None)
a = ng.asarray(numpy.arange(1000.0)); b = ng.asarray(numpy.full(1000, 3.0))
s0 = ng.stats()
t = time.perf_counter(); r = a * b - a; sync(); first = time.perf_counter() - t
s1 = ng.stats()
ok = bool(numpy.allclose(r.get(), numpy.arange(1000.0) * 2.0))
again = []
for _ in range(200):
    t = time.perf_counter(); r = a * b - a; sync(); again.append(time.perf_counter() - t)
s2 = ng.stats()
keys = ("kernels_compiled", "disk_cache_hits", "memory_cache_hits", "kernel_launches")
print(json.dumps(dict(first=first, again=statistics.median(again), ok=ok,
                      first_stats={k: s1[k] - s0[k] for k in keys},
                      again_stats={k: s2[k] - s1[k] for k in keys})))
"""


def kernel_latency():
    """Runs the probe twice with one fresh cache directory: the first process
    compiles, the second loads from disk. Returns both parsed results."""
    with tempfile.TemporaryDirectory(prefix="numgpu-bench-cache-") as cache:
        env = dict(os.environ, NUMGPU_CACHE_DIR=cache)
        cold = json.loads(run_python(LATENCY_PROBE, env).strip().splitlines()[-1])
        warm = json.loads(run_python(LATENCY_PROBE, env).strip().splitlines()[-1])
    return cold, warm


# ---- report ---------------------------------------------------------------------

def fmt_time(s):
    if s >= 1:
        return f"{s:8.3f} s "
    if s >= 1e-3:
        return f"{s * 1e3:8.3f} ms"
    return f"{s * 1e6:8.2f} us"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10^6 elements and fewer repeats")
    ap.add_argument("--size", type=int, help="elements per array (default 10^7; --quick 10^6)")
    ap.add_argument("--repeat", type=int, help="timings per case (median is reported)")
    ap.add_argument("--errstate", choices=("ignore", "warn", "raise"),
                    help="run under numpy.errstate(all=...): 'ignore' runs the kernels without the "
                         "floating-point error checks (NumPy's default, divide/over/invalid 'warn', "
                         "runs them)")
    args = ap.parse_args(argv)
    if args.errstate:
        numpy.seterr(all=args.errstate)
    n = args.size or (10**6 if args.quick else 10**7)
    n = max(1000, n // 1000 * 1000)  # the matrix is 1000 rows
    repeat = args.repeat or (7 if args.quick else 15)

    print(f"numgpu benchmark: device {device_name()}, numpy {numpy.__version__}, "
          f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"float64, {n:,} elements")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load > 0.5:
        print(f"warning: load average {load:.2f}: other work on this machine makes the timings "
              "noisy, and OpenMP kernels suffer most from busy cores")
    print()
    head = f"{'operation':<30} {'numgpu':>11} {'numpy':>11} {'ratio':>7}"
    print(head)
    print("-" * len(head))
    ok = True
    large_ratios, tiny_ratio = [], None
    for name, t_ng, t_np, err in array_cases(n, repeat):
        if err:
            ok = False
            print(f"{name:<30} FAILED: {err}")
            continue
        ratio = t_np / t_ng
        print(f"{name:<30} {fmt_time(t_ng)} {fmt_time(t_np)} {ratio:7.2f}")
        if "1 element" in name:
            tiny_ratio = ratio
        else:
            large_ratios.append((ratio, name))
    print("ratio = numpy time / numgpu time: > 1 means numgpu is faster")
    print()

    try:
        t_np_imp, t_ng_imp = import_times(7)
        print(f"{'import numpy':<30} {fmt_time(t_np_imp)}")
        print(f"{'import numgpu':<30} {fmt_time(t_ng_imp)}  "
              f"({'+' if t_ng_imp >= t_np_imp else '-'}"
              f"{fmt_time(abs(t_ng_imp - t_np_imp)).strip()} over numpy)")
    except Exception as exc:
        ok = False
        print(f"import time: FAILED: {exc}")

    try:
        cold, warm = kernel_latency()
        cs, ws, hs = cold["first_stats"], warm["first_stats"], cold["again_stats"]
        print("kernel latency of `a * b - a` (2 kernels, 1000 float64) with a fresh NUMGPU_CACHE_DIR:")
        print(f"{'kernel: first call, compiles':<30} {fmt_time(cold['first'])}  "
              f"(compiled {cs['kernels_compiled']}, disk hits {cs['disk_cache_hits']})")
        print(f"{'kernel: new process, disk hit':<30} {fmt_time(warm['first'])}  "
              f"(compiled {ws['kernels_compiled']}, disk hits {ws['disk_cache_hits']})")
        print(f"{'kernel: repeated, memory hit':<30} {fmt_time(cold['again'])}  "
              f"(compiled {hs['kernels_compiled']}, memory hits {hs['memory_cache_hits']} "
              f"in 200 calls)")
        if not (cold["ok"] and warm["ok"]):
            ok = False
            print("kernel latency probe: result differs from NumPy's")
        if cs["kernels_compiled"] < 1 or ws["kernels_compiled"] != 0 or ws["disk_cache_hits"] < 1:
            print("note: the counters do not show compile, then disk hit, as expected")
    except Exception as exc:
        ok = False
        print(f"kernel latency: FAILED: {exc}")

    print()
    parts = []
    if large_ratios:
        worst, worst_name = min(large_ratios)
        parts.append(f"large ops: worst ratio {worst:.2f} ({worst_name.split('  ')[0]}), "
                     f"target >= 1: {'met' if worst >= 1 else 'MISSED'}")
    if tiny_ratio is not None:
        parts.append(f"1-element op: {1 / tiny_ratio:.2f}x NumPy's time, target <= 2x: "
                     f"{'met' if 1 / tiny_ratio <= 2 else 'MISSED'}")
    parts.append("results match NumPy" if ok else "SOME CASES FAILED")
    print("summary: " + "; ".join(parts))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
