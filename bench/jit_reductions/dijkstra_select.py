import math

import numpy as np


def kernel(dist, done):
    """Dijkstra's selection: the nearest vertex not done yet (an argmin under a second
    condition; the first of equal distances)."""
    u = -1
    best = math.inf
    for i in range(dist.shape[0]):  # expect: parallel
        if not done[i] and dist[i] < best:
            best = dist[i]
            u = i
    return u


def numba_kernel(dist, done):
    """The same loop in order: under prange Numba returns the start value (it takes the name
    for a private of each thread, not a reduction)."""
    u = -1
    best = math.inf
    for i in range(dist.shape[0]):
        if not done[i] and dist[i] < best:
            best = dist[i]
            u = i
    return u


def vectorised(dist, done):
    d = np.where(done, np.inf, dist)
    u = int(np.argmin(d))
    return u if d[u] < np.inf else -1


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.random(n), rng.random(n) < 0.5
