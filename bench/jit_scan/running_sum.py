import numpy as np


def kernel(x, out):
    """A running sum into another array, the total returned: an accumulator
    scan (in order in Numba)."""
    s = 0
    for i in range(x.shape[0]):  # expect: sequential
        s += x[i]
        out[i] = s
    return s


def inputs(size, rng):
    n = {"test": 10_000, "bench": 20_000_000}[size]
    return rng.integers(-1000, 1000, n), np.zeros(n, dtype=np.int64)
