import numpy as np


def kernel(x, idx, val):
    """A dense vector to sparse (index, value) pairs: two arrays stored at k, the small
    values dropped (a compaction)."""
    k = 0
    for i in range(x.shape[0]):  # expect: sequential
        if abs(x[i]) > 1.5:
            idx[k] = i
            val[k] = x[i]
            k += 1
    return k


def vectorised(x, idx, val):
    nz = np.flatnonzero(np.abs(x) > 1.5)
    idx[:nz.size] = nz
    val[:nz.size] = x[nz]
    return nz.size


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.standard_normal(n), np.zeros(n, dtype=np.int64), np.zeros(n)
