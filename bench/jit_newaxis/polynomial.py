import numpy as np


def kernel(c, x, out):
    """A polynomial at each point as NumPy writes it: `np.sum(c * x[i] ** np.arange(k))`, the
    powers a row np.arange makes (no array is made here)."""
    for i in range(x.shape[0]):  # expect: parallel
        out[i] = np.sum(c * x[i] ** np.arange(c.shape[0]))


def inputs(size, rng):
    n = {"test": 1000, "bench": 2_000_000}[size]
    return [rng.standard_normal(8), rng.uniform(-1, 1, n), np.zeros(n)]


def agree(ref, got):
    """(x ** k: NumPy's SIMD pow against the C library's, an ulp apart.)"""
    return all(np.allclose(a, b, rtol=1e-12, atol=1e-14) for a, b in zip(ref[1], got[1]))
