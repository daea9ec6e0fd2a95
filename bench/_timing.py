"""The one timing loop of the benchmarks in bench/.

device_time(fn, repeat) calls fn twice to warm up (the first call compiles
its kernels), then `repeat` times, waiting for the device after each call,
and returns the median in seconds (stat=min for the best run: on a shared
machine the best run is the op's own cost); best_time(fn, repeat) is that.
compare(cases, repeat, header) is the NumPy-versus-numgpu table most benchmarks print.
"""
import statistics
import time

import numpy as np

import numgpu as ng


def device_time(fn, repeat, stat=statistics.median, keep=None):
    """stat of fn's times over `repeat` calls (after two warm-up calls), the device synchronised
    after each; `keep`: a list the results are appended to (held alive: the pool hands none back)."""
    fn()
    fn()
    ng.synchronize()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        ng.synchronize()
        times.append(time.perf_counter() - t0)
        if keep is not None:
            keep.append(r)
        del r
    return stat(times)


def best_time(fn, repeat):
    """device_time's best run: on a shared machine the best run is the op's own cost."""
    return device_time(fn, repeat, stat=min)


def host(r):
    """A result (or a tuple of them) as NumPy arrays."""
    if isinstance(r, tuple):
        return tuple(host(x) for x in r)
    return r.get() if hasattr(r, "get") else np.asarray(r)


def same(got, exp, rtol=1e-9, atol=0.0):
    """got (host arrays) equals NumPy's exp: exactly for integers and bools, within rtol/atol for
    floats (float16: 1e-3, float32 at least 2e-6), NaNs in the same places; tuples element by element."""
    if isinstance(exp, tuple):
        return len(got) == len(exp) and all(same(g, e, rtol, atol) for g, e in zip(got, exp))
    exp = np.asarray(exp)
    if exp.dtype.kind in "fc":
        rtol = 1e-3 if exp.dtype == np.float16 else max(rtol, 2e-6) if exp.dtype in (np.float32, np.complex64) \
            else rtol   # (float32: a libm's few ulps)
        return got.shape == exp.shape and np.allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)
    return got.shape == exp.shape and np.array_equal(got, exp)


def compare(cases, repeat, header, rtol=1e-9, atol=0.0, width=34):
    """The benchmarks' table: for each (name, numgpu fn, numpy fn), the results compared (a
    mismatch is reported and not timed), then numgpu's and NumPy's best times and
    ratio = numpy / numgpu. Returns 1 if any result mismatched, else 0."""
    print(header)
    print(f"{'operation':{width}s} {'numgpu ms':>10s} {'numpy ms':>10s} {'ratio':>7s}")
    bad = 0
    for name, fg, fn in cases:
        if not same(host(fg()), fn(), rtol, atol):
            print(f"{name:{width}s} MISMATCH with NumPy")
            bad += 1
            continue
        tg, tn = best_time(fg, repeat), best_time(fn, repeat)
        print(f"{name:{width}s} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {tn / tg:7.2f}")
    return 1 if bad else 0


def bench_args(doc, n=10**6, repeat=5):
    """The command line of a benchmark of the table above: --n (elements) and --repeat."""
    import argparse
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--n", type=int, default=n)
    p.add_argument("--repeat", type=int, default=repeat)
    return p.parse_args()
