import numpy as np


def kernel(X, C, labels):
    """k-means' assignment step: each point's nearest centre, from the squared distances to all
    of them along an axis (np.sum(..., axis=1)) and np.argmin of that row."""
    for i in range(X.shape[0]):  # expect: parallel
        d = np.sum((C - X[i]) ** 2, axis=1)
        labels[i] = np.argmin(d)


def inputs(size, rng):
    n, k = {"test": (2_000, 8), "bench": (1_000_000, 16)}[size]
    return [rng.random((n, 3)), rng.random((k, 3)), np.zeros(n, np.int64)]
