import numpy as np


def kernel(X, out):
    """The rows whose first element is positive, stored whole in order (a compaction of rows:
    in blocks since 2026-12-07; in order in Numba)."""
    k = 0
    for i in range(X.shape[0]):  # expect: sequential
        if X[i, 0] > 0:
            out[k] = X[i]
            k += 1
    return k


def vectorised(X, out):
    sel = X[X[:, 0] > 0]
    out[:sel.shape[0]] = sel
    return sel.shape[0]


def inputs(size, rng):
    n = {"test": 10_000, "bench": 2_000_000}[size]
    return rng.standard_normal((n, 8)), np.zeros((n, 8))
