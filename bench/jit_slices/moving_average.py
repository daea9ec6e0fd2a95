import numpy as np


def kernel(x, out, w):
    """A centred moving average: each output a NumPy sum of a window of x
    (a slice), the windows overlapping; the loop is parallel."""
    for i in range(w, x.shape[0] - w):  # expect: parallel
        out[i] = np.sum(x[i - w:i + w + 1]) / (2 * w + 1)


def inputs(size, rng):
    n = {"test": 1_000, "bench": 2_000_000}[size]
    return rng.standard_normal(n), np.zeros(n), 8
