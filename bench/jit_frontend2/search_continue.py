import numpy as np


def kernel(x, t):
    """A search with a `continue` before its test: found in parallel."""
    for i in range(x.shape[0]):
        if x[i] < 0:
            continue
        if x[i] > t:
            return i
    return -1


def inputs(size, rng):
    n = {"test": 10_000, "bench": 4_000_000}[size]
    x = rng.standard_normal(n)
    x[n - n // 20] = 10.0
    return x, 9.0
