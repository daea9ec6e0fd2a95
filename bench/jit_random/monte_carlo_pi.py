import numpy as np


def kernel(n):
    """pi from random points in the unit square: two draws per iteration and a
    conditional count (a + reduction)."""
    inside = 0
    for i in range(n):  # expect: parallel
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def inputs(size, rng):
    return [{"test": 20_000, "bench": 50_000_000}[size]]


def agree(ref, got):
    """Random numbers: the estimates agree within five standard errors (sd of 4 * a
    Bernoulli(pi / 4) mean: 1.64 / sqrt(n))."""
    n = ref[1][0]
    return abs(ref[0] - got[0]) < 5 * 1.65 / np.sqrt(n) * np.sqrt(2)
