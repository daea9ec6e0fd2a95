import numpy as np


def kernel(X, Y, D):
    """Distances between the rows of X and those of Y: np.linalg.norm of a difference of rows."""
    for i in range(X.shape[0]):  # expect: parallel
        for j in range(Y.shape[0]):
            D[i, j] = np.linalg.norm(X[i] - Y[j])


def inputs(size, rng):
    n, m, k = {"test": (60, 50, 3), "bench": (2000, 1000, 3)}[size]
    return rng.standard_normal((n, k)), rng.standard_normal((m, k)), np.zeros((n, m))
