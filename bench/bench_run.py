#!/usr/bin/env python3
"""Benchmarks for `numgpu run`, the NumPy protocols and the fallback, on the current device
(NUMGPU_DEVICE, default cpu).

    PYTHONPATH=python python bench/bench_run.py [--n 4000000] [--repeat 5] [--no-scripts]

Prints, per operation, numgpu's time, NumPy's and the ratio NumPy/numgpu (>1: numgpu faster):
  1. NumPy's own functions called with numgpu arrays (through __array_ufunc__ /
     __array_function__) on large arrays, vs the same call on numpy arrays;
  2. the fallback (a function numgpu lacks: download, NumPy, upload) vs NumPy directly;
  3. complex128 and float16 arrays through the same doors: NumPy's ufuncs, the complex helpers
     (np.angle), creation (full, linspace with complex values), astype, the fallback;
  4. dispatch overhead on tiny arrays: np.add(x, y) through the protocol vs numgpu.add(x, y);
  5. each script in tests/scripts: wall time under plain Python vs `numgpu run --no-report`
     (fresh processes, kernel disk cache warm);
  6. the report's cost: a loop of 10^5 small operators (a * b, a + 1, a[2:5], -a, a < b on 10
     elements) under `numgpu run --no-report` and `numgpu run` (each operator counted), per
     operation, beside plain NumPy (--report-only: this part alone).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import numgpu as ng
from _timing import device_time  # noqa: E402
from numgpu import _fallback

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))




def row(name, t_ng, t_np):
    print("%-36s %12.3f ms %12.3f ms %8.2fx" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng if t_ng else float("inf")))


def header(title):
    print("\n%s\n%-36s %15s %15s %9s" % (title, "operation", "numgpu", "numpy", "ratio"))


def bench_protocols(n, repeat):
    rng = np.random.default_rng(0)
    a, b = rng.random(n), rng.random(n)
    m = rng.random((n // 1000, 1000))
    x, y, xm = ng.asarray(a), ng.asarray(b), ng.asarray(m)
    print("\nNumPy functions on numgpu arrays (n=%d); 'direct' is numgpu's own call, without the protocol"
          "\n%-36s %15s %15s %15s %9s" % (n, "operation", "numgpu", "direct", "numpy", "ratio"))
    cases = [
        ("np.add(x, y)", lambda: np.add(x, y), lambda: ng.add(x, y), lambda: np.add(a, b)),
        ("np.sqrt(x)", lambda: np.sqrt(x), lambda: ng.sqrt(x), lambda: np.sqrt(a)),
        ("np.multiply(x, y, out=x)", lambda: np.multiply(x, y, out=x), lambda: ng.multiply(x, y, out=x),
         lambda: np.multiply(a, b, out=a)),
        ("np.add.reduce(x)", lambda: np.add.reduce(x), lambda: ng.sum(x, axis=0), lambda: np.add.reduce(a)),
        ("np.sum(m, axis=1)", lambda: np.sum(xm, axis=1), lambda: ng.sum(xm, axis=1), lambda: np.sum(m, axis=1)),
        ("np.mean(x)", lambda: np.mean(x), lambda: ng.mean(x), lambda: np.mean(a)),
        ("np.concatenate([x, y])", lambda: np.concatenate([x, y]), lambda: ng.concatenate([x, y]),
         lambda: np.concatenate([a, b])),
        ("np.maximum(x, 0.5)", lambda: np.maximum(x, 0.5), lambda: ng.maximum(x, 0.5), lambda: np.maximum(a, 0.5)),
    ]
    for name, f_ng, f_direct, f_np in cases:
        t_ng, t_d, t_np = device_time(f_ng, repeat), device_time(f_direct, repeat), device_time(f_np, repeat)
        print("%-36s %12.3f ms %12.3f ms %12.3f ms %8.2fx" % (name, t_ng * 1e3, t_d * 1e3, t_np * 1e3, t_np / t_ng))
    header("fallback: functions numgpu lacks (download, NumPy, upload)")
    prev = _fallback.set_mode("silent")
    for name, f_ng, f_np in [
        ("np.median(x)", lambda: np.median(x), lambda: np.median(a)),
        ("np.diff(x)", lambda: np.diff(x), lambda: np.diff(a)),
        ("x.cumprod() (method)", lambda: x.cumprod(), lambda: a.cumprod()),
    ]:
        row(name, device_time(f_ng, repeat), device_time(f_np, repeat))
    _fallback.set_mode(prev)


def bench_complex(n, repeat):
    rng = np.random.default_rng(1)
    c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    h = rng.random(n).astype(np.float16)
    z, zh = ng.asarray(c), ng.asarray(h)
    header("complex128 and float16 (n=%d)" % n)
    prev = _fallback.set_mode("silent")
    for name, f_ng, f_np in [
        ("np.exp(z)", lambda: np.exp(z), lambda: np.exp(c)),
        ("np.abs(z)", lambda: np.abs(z), lambda: np.abs(c)),
        ("np.angle(z)", lambda: np.angle(z), lambda: np.angle(c)),
        ("np.multiply(z, 1j)", lambda: np.multiply(z, 1j), lambda: np.multiply(c, 1j)),
        ("z.conj()", lambda: z.conj(), lambda: c.conj()),
        ("z.astype(complex64)", lambda: z.astype(np.complex64), lambda: c.astype(np.complex64)),
        ("numgpu.full(n, 1+2j)", lambda: ng.full(n, 1 + 2j), lambda: np.full(n, 1 + 2j)),
        ("linspace(0, 1+1j, n)", lambda: ng.linspace(0, 1 + 1j, n), lambda: np.linspace(0, 1 + 1j, n)),
        ("np.sqrt(h) (float16)", lambda: np.sqrt(zh), lambda: np.sqrt(h)),
        ("h.astype(float32)", lambda: zh.astype(np.float32), lambda: h.astype(np.float32)),
        ("np.diff(z) (fallback)", lambda: np.diff(z), lambda: np.diff(c)),
    ]:
        row(name, device_time(f_ng, repeat), device_time(f_np, repeat))
    _fallback.set_mode(prev)


def bench_overhead(repeat):
    x, y = ng.ones(8), ng.ones(8)
    k = 2000

    def loop(f):
        def g():
            for _ in range(k):
                f()
        return g
    print("\ndispatch overhead per call, tiny arrays\n%-36s %15s %15s" % ("operation", "via protocol", "numgpu direct"))
    for name, f_proto, f_direct in [
        ("np.add(x, y) vs numgpu.add", lambda: np.add(x, y), lambda: ng.add(x, y)),
        ("np.sum(x) vs numgpu.sum", lambda: np.sum(x), lambda: ng.sum(x)),
    ]:
        t_p, t_d = device_time(loop(f_proto), repeat) / k, device_time(loop(f_direct), repeat) / k
        print("%-36s %12.1f us %12.1f us" % (name, t_p * 1e6, t_d * 1e6))


def bench_scripts(repeat):
    scripts_dir = os.path.join(REPO, "tests", "scripts")
    env = dict(os.environ, NUMGPU_FALLBACK="silent")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(REPO, "python"), env.get("PYTHONPATH")) if p)
    print("\nscripts (wall time of a fresh process, import included; kernel cache warm)")
    print("%-36s %15s %15s %9s" % ("script", "numgpu run", "python", "ratio"))
    for s in sorted(f for f in os.listdir(scripts_dir) if f.endswith(".py")):
        path = os.path.join(scripts_dir, s)

        def once(cmd):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True)
            return time.perf_counter() - t0
        once([sys.executable, "-m", "numgpu", "run", "--no-report", path])   # warm the disk cache
        t_ng = statistics.median(once([sys.executable, "-m", "numgpu", "run", "--no-report", path])
                                 for _ in range(repeat))
        t_np = statistics.median(once([sys.executable, path]) for _ in range(repeat))
        print("%-36s %12.3f s  %12.3f s  %8.2fx" % (s, t_ng, t_np, t_np / t_ng))


REPORT_LOOP = """\
import sys, time
import numpy as np
a = np.ones(10); b = np.ones(10)
best = [float("inf")] * 2
for _ in range(int(sys.argv[1])):
    t = time.perf_counter()
    for i in range(100000):
        c = a * b
    t1 = time.perf_counter()
    for i in range(20000):
        c = a + 1; d = a[2:5]; e = -a; f = a < b; g = a * b
    t2 = time.perf_counter()
    best = [min(best[0], (t1 - t) / 1e5), min(best[1], (t2 - t1) / 1e5)]
print(best[0], best[1])
"""


def bench_report(repeat):
    """Per operation, the best of `repeat` loops of 10^5 (fresh processes, the device of NUMGPU_DEVICE)."""
    import tempfile
    env = dict(os.environ, NUMGPU_FALLBACK="silent")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(REPO, "python"), env.get("PYTHONPATH")) if p)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(REPORT_LOOP)
    try:
        def per_op(cmd):
            out = subprocess.run(cmd + [f.name, str(repeat)], env=env, capture_output=True, text=True, check=True)
            return [float(v) for v in out.stdout.split()]
        plain = per_op([sys.executable])
        off = per_op([sys.executable, "-m", "numgpu", "run", "--no-report"])
        on = per_op([sys.executable, "-m", "numgpu", "run"])
    finally:
        os.unlink(f.name)
    print("\nthe report's cost: 10^5 operators on 10 elements, per operation (best of %d loops)" % repeat)
    print("%-36s %12s %12s %12s %9s %9s" % ("loop", "no report", "report", "numpy", "on/off", "on-off"))
    for i, name in enumerate(("c = a * b", "a + 1, a[2:5], -a, a < b, a * b")):
        print("%-36s %9.2f us %9.2f us %9.2f us %8.2fx %6.2f us" % (name, off[i] * 1e6, on[i] * 1e6, plain[i] * 1e6,
                                                                  on[i] / off[i], (on[i] - off[i]) * 1e6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-scripts", action="store_true")
    ap.add_argument("--report-only", action="store_true", help="only the report's cost (part 6)")
    args = ap.parse_args()
    print("device:", ng.get_device())
    if args.report_only:
        bench_report(args.repeat)
        return
    bench_protocols(args.n, args.repeat)
    bench_complex(args.n // 4, args.repeat)
    bench_overhead(args.repeat)
    if not args.no_scripts:
        bench_scripts(max(1, args.repeat // 2))
    bench_report(args.repeat)


if __name__ == "__main__":
    main()
