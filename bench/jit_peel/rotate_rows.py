import numpy as np


def kernel(a):
    """An image flipped upside down in place: row i swaps with row n - 1 - i
    (proven parallel: over range(n // 2) no two iterations meet)."""
    n, m = a.shape
    for i in range(n // 2):  # expect: parallel
        for j in range(m):
            a[i, j], a[n - 1 - i, j] = a[n - 1 - i, j], a[i, j]


def inputs(size, rng):
    r, c = {"test": (51, 20), "bench": (6_001, 4_000)}[size]
    return (rng.standard_normal((r, c)),)
