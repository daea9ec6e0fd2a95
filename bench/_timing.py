"""The one timing loop of the benchmarks in bench/.

device_time(fn, repeat) calls fn twice to warm up (the first call compiles
its kernels), then `repeat` times, waiting for the device after each call,
and returns the median in seconds (stat=min for the best run: on a shared
machine the best run is the op's own cost); best_time(fn, repeat) is that.
"""
import statistics
import time

import numgpu as ng


def device_time(fn, repeat, stat=statistics.median):
    fn()
    fn()
    ng.synchronize()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        ng.synchronize()
        times.append(time.perf_counter() - t0)
        del r
    return stat(times)


def best_time(fn, repeat):
    """device_time's best run: on a shared machine the best run is the op's own cost."""
    return device_time(fn, repeat, stat=min)
