#!/usr/bin/env python3
"""Reductions on the current device (NUMGPU_DEVICE) against NumPy on the host:
a full sum / max / std / argmax / argmin of 10^7 float64 (and a float32 sum), and a row sum
(axis=1), column sum and mean (axis=0) and each row's argmax (a classifier's predictions) of a
1000 x 10^4 float64 matrix. Prints
numgpu's time, NumPy's and the ratio NumPy time / numgpu time (>1: numgpu
faster). Every result is checked against NumPy first.

    NUMGPU_DEVICE=opencl python bench/bench_reduce_device.py
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import numgpu as ng  # noqa: E402


def best(fn, repeat=5):
    fn()
    ng.synchronize()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ng.synchronize()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    rng = np.random.default_rng(0)
    x = rng.random(10**7)
    x32 = x.astype(np.float32)
    m = rng.random((1000, 10**4))
    gx, gx32, gm = ng.asarray(x), ng.asarray(x32), ng.asarray(m)
    rows = [
        ("sum 1e7 float64", lambda: gx.sum(), lambda: x.sum()),
        ("sum 1e7 float32", lambda: gx32.sum(), lambda: x32.sum()),
        ("max 1e7 float64", lambda: gx.max(), lambda: x.max()),
        ("std 1e7 float64", lambda: gx.std(), lambda: x.std()),
        ("argmax 1e7 float64", lambda: gx.argmax(), lambda: x.argmax()),
        ("argmin 1e7 float64", lambda: gx.argmin(), lambda: x.argmin()),
        ("sum(axis=1) 1000x1e4", lambda: gm.sum(axis=1), lambda: m.sum(axis=1)),
        ("sum(axis=0) 1000x1e4", lambda: gm.sum(axis=0), lambda: m.sum(axis=0)),
        ("mean(axis=0) 1000x1e4", lambda: gm.mean(axis=0), lambda: m.mean(axis=0)),
        ("argmax(axis=1) 1000x1e4", lambda: gm.argmax(axis=1), lambda: m.argmax(axis=1)),
    ]
    print(f"device: {ng.asarray(x[:1]).device}")
    print("| operation | numgpu | NumPy | ratio |")
    print("| --- | --- | --- | --- |")
    for name, g, n in rows:
        np.testing.assert_allclose(ng.asnumpy(g()) if hasattr(ng, "asnumpy") else np.asarray(g()), n(), rtol=1e-5)
        tg, tn = best(g), best(n)
        print(f"| {name} | {tg * 1e3:.2f} ms | {tn * 1e3:.2f} ms | {tn / tg:.2f} |")


if __name__ == "__main__":
    main()
