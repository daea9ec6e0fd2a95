import numpy as np


def kernel(x, t, out):
    """The indices of the elements above t, in order (np.flatnonzero(x > t) into out; a
    compaction of the loop variable)."""
    k = 0
    for i in range(x.shape[0]):  # expect: sequential
        if x[i] > t:
            out[k] = i
            k += 1
    return k


def vectorised(x, t, out):
    idx = np.flatnonzero(x > t)
    out[:idx.size] = idx
    return idx.size


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.standard_normal(n), 0.5, np.zeros(n, dtype=np.int64)
