import numpy as np


def kernel(a):
    """Gaussian elimination without pivoting: the rows below the pivot row k
    are independent of each other, and only row k (never one of them) is
    read by all; numgpu runs the row loop around i = k (empty here), Numba
    with prange."""
    n = a.shape[0]
    for k in range(n):  # expect: sequential
        for i in range(k + 1, n):  # expect: parallel
            f = a[i, k] / a[k, k]
            for j in range(k, n):
                a[i, j] = a[i, j] - f * a[k, j]


def inputs(size, rng):
    n = {"test": 60, "bench": 1_000}[size]
    return (rng.standard_normal((n, n)) + n * np.eye(n),)
