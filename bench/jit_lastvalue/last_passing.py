import numpy as np


def kernel(x, t):
    """The value and place of the last element that passes a test: an argmax on the iteration
    number (the greatest iteration that assigned wins, carrying v and j)."""
    v = -1.0
    j = -1
    for i in range(x.shape[0]):  # expect: parallel (explain: reduce(last:v), reduce(last:j))
        if x[i] > t:
            v = x[i] * 2.0
            j = i
    return v, j


def numba_kernel(x, t):
    """The same loop in order: under prange Numba's v and j are privates of each thread (their
    values before the loop come back)."""
    v = -1.0
    j = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            v = x[i] * 2.0
            j = i
    return v, j


def vectorised(x, t):
    idx = np.flatnonzero(x > t)
    return (float(x[idx[-1]] * 2.0), int(idx[-1])) if idx.size else (-1.0, -1)


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    x = rng.standard_normal(n)
    x[n // 3] = 10.0  # the last one well before the end
    return x, 5.0
