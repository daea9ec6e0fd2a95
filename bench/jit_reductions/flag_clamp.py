import numpy as np


def kernel(G):
    """Negative entries clamped to 0, and whether any was: the flag is an or-reduction."""
    changed = False
    for i in range(G.shape[0]):  # expect: parallel
        for j in range(G.shape[1]):
            if G[i, j] < 0:
                G[i, j] = 0
                changed = True
    return changed


def numba_kernel(G):
    """The same loop in order: under prange Numba returns the start value (it takes the name
    for a private of each thread, not a reduction)."""
    changed = False
    for i in range(G.shape[0]):
        for j in range(G.shape[1]):
            if G[i, j] < 0:
                G[i, j] = 0
                changed = True
    return changed


def vectorised(G):
    neg = G < 0
    G[neg] = 0
    return bool(neg.any())


def inputs(size, rng):
    shape = {"test": (100, 100), "bench": (2500, 4000)}[size]
    return (rng.standard_normal(shape),)
