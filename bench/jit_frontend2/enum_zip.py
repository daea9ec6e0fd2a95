import numpy as np


def kernel(a, b, out):
    """for i, (p, q) in enumerate(zip(a, b))."""
    for i, (p, q) in enumerate(zip(a, b)):  # expect: parallel
        out[i] = p * q + i


def inputs(size, rng):
    n = {"test": 10_000, "bench": 2_000_000}[size]
    return rng.random(n), rng.random(n), np.zeros(n)
