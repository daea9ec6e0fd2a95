import numpy as np


def kernel(X, out):
    """sum() of a generator expression over a row: an inner loop in Python's order."""
    for i in range(X.shape[0]):  # expect: parallel
        out[i] = sum(X[i, j] ** 2 for j in range(X.shape[1]))


def inputs(size, rng):
    n = {"test": 500, "bench": 100_000}[size]
    return rng.random((n, 30)), np.zeros(n)
