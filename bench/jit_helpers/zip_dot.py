import numpy as np


def kernel(a, b, w):
    """Loops over arrays: zip for a weighted dot product, enumerate for an update."""
    s = 0.0
    for p, q in zip(a, b):  # expect: parallel reduce(+:s)
        s += p * q
    for i, v in enumerate(w):  # expect: parallel
        w[i] = v * s + i
    return s


def inputs(size, rng):
    n = {"test": 10_000, "bench": 20_000_000}[size]
    return rng.integers(-8, 9, n).astype(np.float64), rng.integers(-8, 9, n).astype(np.float64), np.zeros(n)
