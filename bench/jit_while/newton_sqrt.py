import numpy as np


def kernel(x, out, tol):
    """Square roots by Newton's method, each element until its step is below
    the tolerance: a `while True` left by a `break`."""
    for i in range(x.shape[0]):  # expect: parallel
        g = x[i] * 0.5 + 1.0
        k = 0
        while True:
            h = 0.5 * (g + x[i] / g)
            k += 1
            if abs(h - g) <= tol * h or k >= 60:
                g = h
                break
            g = h
        out[i] = g


def inputs(size, rng):
    n = {"test": 2_000, "bench": 5_000_000}[size]
    return rng.uniform(0.0, 1e6, n), np.zeros(n), 1e-15
