import numpy as np


def kernel(P, nbr, out):
    """The 3x3 covariance of each point's offsets to its neighbours in a small matrix made in
    the loop (`C = np.zeros((3, 3))`, indexed by counters of range(3): one register per
    element), then its trace and determinant."""
    for i in range(P.shape[0]):  # expect: parallel
        C = np.zeros((3, 3))
        for k in range(nbr.shape[1]):  # expect: sequential
            j = nbr[i, k]
            for a in range(3):  # expect: sequential
                for b in range(3):  # expect: sequential
                    C[a, b] += (P[j, a] - P[i, a]) * (P[j, b] - P[i, b])
        out[i, 0] = C[0, 0] + C[1, 1] + C[2, 2]
        out[i, 1] = (C[0, 0] * (C[1, 1] * C[2, 2] - C[1, 2] * C[2, 1])
                     - C[0, 1] * (C[1, 0] * C[2, 2] - C[1, 2] * C[2, 0])
                     + C[0, 2] * (C[1, 0] * C[2, 1] - C[1, 1] * C[2, 0]))


def inputs(size, rng):
    n = {"test": 100, "bench": 200_000}[size]
    return rng.standard_normal((n, 3)), rng.integers(0, n, (n, 16)), np.zeros((n, 2))
