import numpy as np


def kernel(X, labels, C):
    """k-means' update: each centre the mean of the points labelled with it, through a mask of
    one axis selecting whole rows (`X[labels == k]`)."""
    for k in range(C.shape[0]):  # expect: parallel
        C[k] = X[labels == k].mean(axis=0)


def numba_kernel(X, labels, C):
    """(Numba's mean takes no axis: the columns as a Numba user writes them.)"""
    for k in range(C.shape[0]):  # expect: parallel
        members = X[labels == k]
        for c in range(X.shape[1]):
            C[k, c] = members[:, c].mean()


def inputs(size, rng):
    n = {"test": 1000, "bench": 1_000_000}[size]
    return [rng.standard_normal((n, 8)), rng.integers(0, 16, n), np.zeros((16, 8))]


def agree(ref, got):
    """(Numba sums each column pairwise, NumPy along the axis in order.)"""
    return np.allclose(ref[1][2], got[1][2], rtol=1e-10, atol=1e-12)
