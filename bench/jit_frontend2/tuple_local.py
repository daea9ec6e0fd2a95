import numpy as np


def kernel(x, out):
    """A tuple bound to a local, unpacked and indexed."""
    for i in range(x.shape[0]):  # expect: parallel
        t = (x[i], 2 * x[i])
        a, b = t
        out[i] = a * b + t[0]


def inputs(size, rng):
    n = {"test": 10_000, "bench": 2_000_000}[size]
    return rng.random(n), np.zeros(n)
