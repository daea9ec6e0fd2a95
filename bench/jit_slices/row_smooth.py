import numpy as np


def kernel(X, Y):
    """Each row smoothed by a three-point stencil written with slices,
    stored through a slice of the output's row."""
    for i in range(X.shape[0]):  # expect: parallel
        Y[i, 1:-1] = 0.25 * X[i, :-2] + 0.5 * X[i, 1:-1] + 0.25 * X[i, 2:]


def inputs(size, rng):
    n, m = {"test": (50, 60), "bench": (2_000, 4_000)}[size]
    return rng.standard_normal((n, m)), np.zeros((n, m))
