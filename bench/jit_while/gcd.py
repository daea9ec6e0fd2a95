import numpy as np


def kernel(a, b, out):
    """Greatest common divisors, np.gcd of two numbers per element: a loop
    inside (the binary gcd's, as Numba's), its trip count varying with the numbers."""
    for i in range(a.shape[0]):  # expect: parallel
        out[i] = np.gcd(a[i], b[i])


def inputs(size, rng):
    n = {"test": 5_000, "bench": 5_000_000}[size]
    return rng.integers(1, 10**9, n), rng.integers(1, 10**9, n), np.zeros(n, dtype=np.int64)
