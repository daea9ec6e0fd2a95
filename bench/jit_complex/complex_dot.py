import numpy as np


def kernel(z, w):
    s = 0j
    for i in range(z.shape[0]):  # expect: parallel
        s += z[i] * w[i].conjugate()
    return s


def inputs(size, rng):
    n = {"test": 3_000, "bench": 10_000_000}[size]
    return ((rng.standard_normal(n) + 1j * rng.standard_normal(n)),
            (rng.standard_normal(n) + 1j * rng.standard_normal(n)))
