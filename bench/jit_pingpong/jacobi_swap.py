import numpy as np


def kernel(a, steps):
    """A 1-d three-point smoothing sweep repeated with the arrays swapped between sweeps."""
    b = a.copy()
    for t in range(steps):  # expect: sequential
        for i in range(1, a.shape[0] - 1):  # expect: parallel
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
        a, b = b, a
    return a


def inputs(size, rng):
    n, steps = {"test": (1_000, 10), "bench": (2_000_000, 50)}[size]
    return rng.random(n), steps
