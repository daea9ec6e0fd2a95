import numpy as np


def kernel(X, Y):
    """A softmax of each row of X: a local naming an array computed from the row (e), read
    whole twice, and a reduction of the row inside it."""
    for i in range(X.shape[0]):  # expect: parallel
        e = np.exp(X[i] - np.max(X[i]))
        Y[i] = e / np.sum(e)


def inputs(size, rng):
    n, m = {"test": (200, 30), "bench": (100_000, 64)}[size]
    X = rng.standard_normal((n, m))
    return X, np.zeros_like(X)
