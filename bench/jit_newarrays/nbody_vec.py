import numpy as np


def kernel(p, v, m, dt):
    """An n-body velocity step written with NumPy rows: each body's acceleration accumulated in
    a small array made in the loop (`a = np.zeros(3)`), the pair's difference a row expression.
    numgpu keeps `a` in three variables of each thread; Numba allocates it per iteration."""
    n = p.shape[0]
    for i in range(n):  # expect: parallel
        a = np.zeros(3)
        for j in range(n):  # expect: sequential
            if i != j:
                d = p[j] - p[i]
                r = np.sqrt(np.sum(d * d)) + 1e-3
                a += m[j] * d / r**3
        v[i] += a * dt


def inputs(size, rng):
    n = {"test": 200, "bench": 6_000}[size]
    return rng.standard_normal((n, 3)), np.zeros((n, 3)), rng.random(n) + 0.1, 0.01
