import numpy as np


def kernel(x, out):
    """The sum of each number's base-16 digits: a while loop whose trip count
    varies with the number."""
    for i in range(x.shape[0]):  # expect: parallel
        v = x[i]
        s = 0
        while v > 0:
            s += v % 16
            v = v // 16
        out[i] = s


def inputs(size, rng):
    n = {"test": 5_000, "bench": 10_000_000}[size]
    return rng.integers(0, 2**62, n, dtype=np.int64) >> rng.integers(0, 62, n), np.zeros(n, dtype=np.int64)
