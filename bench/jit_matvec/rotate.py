import numpy as np


def kernel(R, P, out):
    """Each point turned by its own 3x3 rotation (`R[i] @ P[i]`, R of shape (n, 3, 3)) and moved."""
    for i in range(P.shape[0]):  # expect: parallel
        out[i] = R[i] @ P[i] + 1.0


def inputs(size, rng):
    n = {"test": 100, "bench": 1_000_000}[size]
    return rng.standard_normal((n, 3, 3)), rng.standard_normal((n, 3)), np.zeros((n, 3))
