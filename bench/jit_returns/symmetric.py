import numpy as np


def kernel(A):
    """The first (i, j) where a matrix differs from its transpose, (-1, -1) when
    it is symmetric (here it is: every pair is read), by a return from the
    inner of two loops. A search over the rows, each row's columns in order."""
    for i in range(A.shape[0]):
        for j in range(i):
            if A[i, j] != A[j, i]:
                return i, j
    return -1, -1


def inputs(size, rng):
    n = {"test": 200, "bench": 6_000}[size]
    A = rng.standard_normal((n, n))
    return (A + A.T,)
