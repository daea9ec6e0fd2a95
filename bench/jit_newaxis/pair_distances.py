import numpy as np


def kernel(P, out):
    """The distances between each group's points: `P[i][:, None, :] - P[i][None, :, :]`, its
    squares summed along the last axis."""
    for i in range(P.shape[0]):  # expect: parallel
        d = P[i][:, None, :] - P[i][None, :, :]
        out[i] = np.sqrt(np.sum(d * d, axis=-1))


def numba_kernel(P, out):
    """(Numba 0.68's parallel=True fails on the NumPy form, a SystemError: the pairs as loops.)"""
    for i in range(P.shape[0]):  # expect: parallel
        for a in range(P.shape[1]):
            for b in range(P.shape[1]):
                s = 0.0
                for k in range(P.shape[2]):
                    d = P[i, a, k] - P[i, b, k]
                    s += d * d
                out[i, a, b] = np.sqrt(s)


def inputs(size, rng):
    n = {"test": 100, "bench": 20_000}[size]
    return [rng.standard_normal((n, 24, 3)), np.zeros((n, 24, 24))]
