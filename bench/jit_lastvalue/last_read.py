import math

import numpy as np


def kernel(x, out):
    """A value made in the iteration, used there and read after the loop (the last one's)."""
    t = 0.0
    for i in range(x.shape[0]):  # expect: parallel (explain: reduce(last:t))
        t = math.sqrt(x[i] * x[i] + 1.0)
        out[i] = t * 0.5 + x[i]
    return t


def numba_kernel(x, out):
    """The same loop in order (under prange t is a private of each thread)."""
    t = 0.0
    for i in range(x.shape[0]):
        t = math.sqrt(x[i] * x[i] + 1.0)
        out[i] = t * 0.5 + x[i]
    return t


def vectorised(x, out):
    t = np.sqrt(x * x + 1.0)
    np.add(t * 0.5, x, out=out)
    return float(t[-1]) if x.size else 0.0


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.standard_normal(n), np.zeros(n)
