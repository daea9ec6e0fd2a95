import math

import numpy as np


def kernel(x):
    """A running maximum written as a conditional expression: a max reduction."""
    m = -math.inf
    for i in range(x.shape[0]):  # expect: parallel
        m = x[i] if x[i] > m else m
    return m


def numba_kernel(x):
    """The same loop in order: under prange Numba returns the start value (it takes the name
    for a private of each thread, not a reduction)."""
    m = -math.inf
    for i in range(x.shape[0]):
        m = x[i] if x[i] > m else m
    return m


def vectorised(x):
    return np.max(x)


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return (rng.standard_normal(n),)
