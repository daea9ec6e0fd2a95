import math

import numpy as np


def normalize(row):
    """Scales a row to unit length in place: a helper with a loop of its own."""
    s = 0.0
    for j in range(row.shape[0]):
        s += row[j] * row[j]
    if s > 0.0:
        f = 1.0 / math.sqrt(s)
        for j in range(row.shape[0]):
            row[j] = row[j] * f


def kernel(X):
    for i in range(X.shape[0]):  # expect: parallel
        row = X[i]
        normalize(row)


def inputs(size, rng):
    r, c = {"test": (200, 16), "bench": (1_000_000, 32)}[size]
    return (rng.standard_normal((r, c)),)
