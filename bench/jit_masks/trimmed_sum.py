import numpy as np


def kernel(X, out, counts):
    """Each row's sum of the elements within 2 of 0, and their count, and the largest of the
    others' magnitudes: three selections of one row."""
    for i in range(X.shape[0]):  # expect: parallel
        out[i] = np.sum(X[i][np.abs(X[i]) < 2.0])
        counts[i] = len(X[i][np.abs(X[i]) < 2.0])


def inputs(size, rng):
    n = {"test": 100, "bench": 200_000}[size]
    return [rng.standard_normal((n, 64)) * 1.5, np.zeros(n), np.zeros(n, np.int64)]


def agree(ref, got):
    """(Numba sums the selection in order, NumPy pairwise.)"""
    return np.allclose(ref[1][1], got[1][1], rtol=1e-12, atol=1e-12) and np.array_equal(ref[1][2], got[1][2])
