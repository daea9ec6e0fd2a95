import numpy as np


def kernel(R, S, out):
    """Each frame's two 3x3 transforms composed (`R[i] @ S[i].T`, two matrices per iteration)."""
    for i in range(R.shape[0]):  # expect: parallel
        out[i] = R[i] @ S[i].T


def inputs(size, rng):
    n = {"test": 100, "bench": 500_000}[size]
    return rng.standard_normal((n, 3, 3)), rng.standard_normal((n, 3, 3)), np.zeros((n, 3, 3))
