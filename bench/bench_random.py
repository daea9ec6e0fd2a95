#!/usr/bin/env python3
"""numgpu's device Philox generator against NumPy's default_rng (PCG64).

For 10^7 values (10^6 with --quick) on the current device (NUMGPU_DEVICE,
cpu by default): random float64/float32, standard_normal, standard_exponential,
integers, permutation, and choice with probabilities; each as numgpu time,
NumPy time and ratio = numpy_time / numgpu_time (> 1: numgpu is faster).
Also the NumPy-stream path (numgpu.random.default_rng: NumPy draws, then an
upload) for random().

Each result is sanity-checked (range and mean) before it is timed.

    PYTHONPATH=python python bench/bench_random.py [--quick]
"""
import argparse
import sys

import numpy

import numgpu as ng
from _timing import device_time  # noqa: E402




def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^6 values, fewer repeats")
    args = ap.parse_args()
    n = 10 ** 6 if args.quick else 10 ** 7
    repeat = 3 if args.quick else 5
    dev = ng.random.device_rng(1)
    host = numpy.random.default_rng(1)
    p = numpy.full(100, 0.01)
    cases = [
        ("random float64", lambda: dev.random(n), lambda: host.random(n), (0.0, 1.0, 0.5)),
        ("random float32", lambda: dev.random(n, dtype=numpy.float32),
         lambda: host.random(n, dtype=numpy.float32), (0.0, 1.0, 0.5)),
        ("standard_normal float64", lambda: dev.standard_normal(n), lambda: host.standard_normal(n),
         (-10, 10, 0.0)),
        ("standard_normal float32", lambda: dev.standard_normal(n, dtype=numpy.float32),
         lambda: host.standard_normal(n, dtype=numpy.float32), (-10, 10, 0.0)),
        ("standard_exponential", lambda: dev.standard_exponential(n), lambda: host.standard_exponential(n),
         (0, 50, 1.0)),
        ("integers [0, 1000)", lambda: dev.integers(0, 1000, n), lambda: host.integers(0, 1000, n),
         (0, 999, 499.5)),
        ("permutation", lambda: dev.permutation(n), lambda: host.permutation(n), (0, n - 1, (n - 1) / 2)),
        ("choice with p (100)", lambda: dev.choice(100, n, p=p), lambda: host.choice(100, n, p=p),
         (0, 99, 49.5)),
    ]
    np_stream = ng.random.default_rng(1)
    print("numgpu.random on %s, %d values (ratio = NumPy time / numgpu time)" % (ng.get_device(), n))
    print("%-26s %12s %12s %8s" % ("operation", "numgpu (ms)", "NumPy (ms)", "ratio"))
    bad = False
    for name, f_ng, f_np, (lo, hi, mean) in cases:
        r = f_ng().get().astype(numpy.float64)
        ok = r.min() >= lo and r.max() <= hi and abs(r.mean() - mean) < 0.01 * max(1.0, abs(hi - lo))
        if not ok:
            print("%-26s WRONG RESULT (min %g max %g mean %g)" % (name, r.min(), r.max(), r.mean()))
            bad = True
            continue
        t_ng, t_np = device_time(f_ng, repeat), device_time(f_np, repeat)
        print("%-26s %12.2f %12.2f %8.2f" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    t_ng, t_np = device_time(lambda: np_stream.random(n), repeat), device_time(lambda: host.random(n), repeat)
    print("%-26s %12.2f %12.2f %8.2f" % ("default_rng().random", t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
