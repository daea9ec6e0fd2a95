import numpy as np


def kernel(X, out):
    """Each row's mean of its positive elements (0 where it has none): a boolean mask's
    selection, named, counted with len() and reduced whole."""
    for i in range(X.shape[0]):  # expect: parallel
        pos = X[i][X[i] > 0]
        if len(pos) > 0:
            out[i] = pos.mean()
        else:
            out[i] = 0.0


def inputs(size, rng):
    n = {"test": 100, "bench": 200_000}[size]
    return [rng.standard_normal((n, 64)), np.zeros(n)]


def agree(ref, got):
    """(Numba sums the selection in order, NumPy pairwise.)"""
    return np.allclose(ref[1][1], got[1][1], rtol=1e-12, atol=1e-14)
