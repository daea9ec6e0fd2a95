import numpy as np


def kernel(X, lo, hi):
    """Each row's elements outside [lo, hi] set to the bounds: stores into boolean masks'
    selections, in place."""
    for i in range(X.shape[0]):  # expect: parallel
        r = X[i]
        r[r < lo] = lo
        r[r > hi] = hi


def inputs(size, rng):
    n = {"test": 100, "bench": 200_000}[size]
    return [rng.standard_normal((n, 64)), -1.5, 1.5]
