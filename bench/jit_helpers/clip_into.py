import numpy as np


def clip_into(out, i, v, lo, hi):
    """A helper that writes into the array it is given, returning early."""
    if v < lo:
        out[i] = lo
        return
    if v > hi:
        out[i] = hi
        return
    out[i] = v


def kernel(x, out):
    for i in range(x.shape[0]):  # expect: parallel
        clip_into(out, i, x[i] * 1.5, -1.0, 1.0)


def inputs(size, rng):
    n = {"test": 10_000, "bench": 20_000_000}[size]
    return rng.standard_normal(n), np.zeros(n)
