import numpy as np


def kernel(x, out):
    """Stream compaction: the positive elements, in order, into out; their count returned
    (a compaction: a scan of k; in order in Numba)."""
    k = 0
    for i in range(x.shape[0]):  # expect: sequential
        if x[i] > 0:
            out[k] = x[i]
            k += 1
    return k


def vectorised(x, out):
    sel = x[x > 0]  # (NumPy's compaction, then the copy into out the loop makes)
    out[:sel.size] = sel
    return sel.size


def inputs(size, rng):
    n = {"test": 10_000, "bench": 10_000_000}[size]
    return rng.standard_normal(n), np.zeros(n)
