#!/usr/bin/env python3
"""The elementwise ops added for the Array API standard, numgpu against NumPy.

Prints, per op, on float64 arrays of 10^7 elements (10^6 with --quick) on the current device
(NUMGPU_DEVICE, default cpu), and for np.gcd and np.lcm on int64 arrays: numgpu's time, NumPy's
and the ratio numpy_time / numgpu_time (> 1: numgpu is faster). Every numgpu result is compared
with NumPy's first; a mismatch exits 1.

    PYTHONPATH=python .venv/bin/python bench/bench_array_api.py [--quick] [--dtype float32]
"""
import argparse
import sys

import numpy

import numgpu as ng
from _timing import device_time  # noqa: E402

UNARY = ["arcsinh", "arccosh", "arctanh", "cbrt", "exp2", "reciprocal", "signbit", "deg2rad", "fabs"]
BINARY = ["copysign", "nextafter", "logaddexp", "logaddexp2", "fmod", "heaviside"]
INT_BINARY = ["gcd", "lcm"]  # (on int64 arrays of 1 to 10^9: the binary gcd against NumPy's Euclid)




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dtype", default="float64")
    args = ap.parse_args()
    n = 10 ** 6 if args.quick else 10 ** 7
    repeat = 3 if args.quick else 7
    rng = numpy.random.default_rng(0)
    dt = numpy.dtype(args.dtype)
    inputs = {
        "any": (rng.standard_normal(n) * 4).astype(dt),
        "ge1": (1 + rng.random(n) * 10).astype(dt),
        "unit": (rng.uniform(-0.99, 0.99, n)).astype(dt),
        "other": (rng.standard_normal(n) * 4 + 0.5).astype(dt),
    }
    dev = {k: ng.asarray(v) for k, v in inputs.items()}
    print("numgpu %s on %s, %s, n = %d" % (ng.__version__, ng.get_device(), dt, n))
    print("%-12s %12s %12s %8s" % ("op", "numgpu ms", "numpy ms", "ratio"))
    bad = 0
    for name in UNARY + BINARY:
        key = {"arccosh": "ge1", "arctanh": "unit"}.get(name, "any")
        np_args = (inputs[key], inputs["other"]) if name in BINARY else (inputs[key],)
        ng_args = (dev[key], dev["other"]) if name in BINARY else (dev[key],)
        f_ng, f_np = getattr(ng, name), getattr(numpy, name)
        with numpy.errstate(all="ignore"):
            exp = f_np(*np_args)
        got = f_ng(*ng_args).get()
        if not numpy.allclose(got, exp, rtol=1e-5 if dt == numpy.float32 else 1e-12, equal_nan=True):
            print("%-12s MISMATCH with NumPy" % name)
            bad += 1
            continue
        t_ng = device_time(lambda: f_ng(*ng_args), repeat)
        with numpy.errstate(all="ignore"):
            t_np = device_time(lambda: f_np(*np_args), repeat)
        print("%-12s %12.2f %12.2f %8.2f" % (name, t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    ia, ib = rng.integers(1, 10 ** 9, n), rng.integers(1, 10 ** 9, n)
    da, db = ng.asarray(ia), ng.asarray(ib)
    for name in INT_BINARY:
        f_ng, f_np = getattr(ng, name), getattr(numpy, name)
        if not numpy.array_equal(f_ng(da, db).get(), f_np(ia, ib)):
            print("%-12s MISMATCH with NumPy" % name)
            bad += 1
            continue
        t_ng = device_time(lambda: f_ng(da, db), repeat)
        t_np = device_time(lambda: f_np(ia, ib), repeat)
        print("%-12s %12.2f %12.2f %8.2f" % (name + " i64", t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
