import numpy as np


def kernel(x, t):
    """The last index whose value passes a test: a max reduction of the index (-1 when none)."""
    last = -1
    for i in range(x.shape[0]):  # expect: parallel
        if x[i] > t:
            last = i
    return last


def numba_kernel(x, t):
    """The same loop in order: under prange Numba returns the start value (it takes the name
    for a private of each thread, not a reduction)."""
    last = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            last = i
    return last


def vectorised(x, t):
    idx = np.flatnonzero(x > t)
    return int(idx[-1]) if idx.size else -1


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    x = rng.standard_normal(n)
    x[n // 3] = 10.0  # the last one well before the end
    return x, 5.0
