import numpy as np


def kernel(X, w, out):
    """Each batch's rows weighted and summed: `w[:, None] * X[i]`, a new axis broadcast over the
    columns, then a sum along the rows."""
    for i in range(X.shape[0]):  # expect: parallel
        out[i] = np.sum(w[:, None] * X[i], axis=0)


def numba_kernel(X, w, out):
    """(Numba 0.68's parallel=True fails on the NumPy form, a SystemError: its rows as loops.)"""
    for i in range(X.shape[0]):  # expect: parallel
        for c in range(X.shape[2]):
            s = 0.0
            for r in range(X.shape[1]):
                s += w[r] * X[i, r, c]
            out[i, c] = s


def inputs(size, rng):
    n = {"test": 100, "bench": 50_000}[size]
    return [rng.standard_normal((n, 16, 32)), rng.standard_normal(16), np.zeros((n, 32))]
