import math

import numpy as np


def kernel(x, out):
    """Operations Python raises on (math.log of a value <= 0, int() of a NaN, 1.0 / a Python int
    of 0): each checked in the loop, the first failing iteration's error recorded (none fails
    here: the cost of the checks on the path without errors). Numba runs it under prange,
    checking nothing."""
    for i in range(x.shape[0]):  # expect: parallel
        out[i] = math.log(x[i]) + 1.0 / (int(x[i] * 4.0) + 1)


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.random(n) + 0.5, np.zeros(n)
