import numpy as np


def kernel(X, mean, peak):
    """Per column of X, its mean and its largest magnitude: reductions of
    the column X[:, j] (a slice with a stride of a row)."""
    for j in range(X.shape[1]):  # expect: parallel
        mean[j] = np.mean(X[:, j])
        peak[j] = np.max(np.abs(X[:, j]))


def inputs(size, rng):
    n, m = {"test": (300, 40), "bench": (3_000, 2_000)}[size]
    return rng.standard_normal((n, m)), np.zeros(m), np.zeros(m)
