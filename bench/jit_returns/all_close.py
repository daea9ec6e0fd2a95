import numpy as np


def kernel(a, b, rtol):
    """Whether two arrays agree within a relative tolerance, the loop left by
    `return False` at the first pair that does not (here the last one: the
    whole arrays are read). A search: the first such pair is found in
    parallel."""
    for i in range(a.shape[0]):
        if abs(a[i] - b[i]) > rtol * max(abs(a[i]), abs(b[i])):
            return False
    return True


def inputs(size, rng):
    n = {"test": 10_000, "bench": 20_000_000}[size]
    a = rng.standard_normal(n)
    b = a * (1 + 1e-9)
    b[-3] += 1.0
    return a, b, 1e-6
