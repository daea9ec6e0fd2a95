import math

import numpy as np


def kernel(x, out):
    """A loop that stores and leaves the last iteration's value in t."""
    t = 0.0
    for i in range(x.shape[0]):  # expect: parallel (explain: reduce(last:t))
        out[i] = math.sqrt(x[i] * x[i] + 1.0)
        t = x[i] * 3.0
    return t


def numba_kernel(x, out):
    """The same loop in order (under prange t is a private of each thread)."""
    t = 0.0
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i] * x[i] + 1.0)
        t = x[i] * 3.0
    return t


def vectorised(x, out):
    np.sqrt(x * x + 1.0, out=out)
    return float(x[-1] * 3.0) if x.size else 0.0


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.standard_normal(n), np.zeros(n)
