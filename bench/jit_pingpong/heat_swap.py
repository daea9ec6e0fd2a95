import numpy as np


def kernel(u, steps, alpha):
    """heat_2d's time steps with the two grids swapped (a ping-pong) instead of copied back:
    the analysis takes u and v as distinct arrays, the launch checks that they are."""
    v = u.copy()
    n, m = u.shape
    for t in range(steps):  # expect: sequential
        for i in range(1, n - 1):  # expect: parallel
            for j in range(1, m - 1):  # expect: parallel
                v[i, j] = u[i, j] + alpha * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - 4.0 * u[i, j])
        u, v = v, u
    return u


def inputs(size, rng):
    n, steps = {"test": (40, 10), "bench": (2_000, 100)}[size]
    return rng.random((n, n)), steps, 0.1
