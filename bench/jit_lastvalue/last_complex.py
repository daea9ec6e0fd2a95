import numpy as np


def kernel(z, out):
    """The last element of small magnitude, a complex value carried as the last iteration's."""
    w = 0j
    for i in range(z.shape[0]):  # expect: parallel (explain: reduce(last:w))
        out[i] = abs(z[i])
        if z[i].real * z[i].real + z[i].imag * z[i].imag < 0.01:
            w = z[i] * 2
    return w


def numba_kernel(z, out):
    """The same loop in order (under prange w is a private of each thread)."""
    w = 0j
    for i in range(z.shape[0]):
        out[i] = abs(z[i])
        if z[i].real * z[i].real + z[i].imag * z[i].imag < 0.01:
            w = z[i] * 2
    return w


def vectorised(z, out):
    np.abs(z, out=out)
    hit = np.flatnonzero(z.real * z.real + z.imag * z.imag < 0.01)
    return z[hit[-1]] * 2 if hit.size else 0j


def inputs(size, rng):
    n = {"test": 10_000, "bench": 5_000_000}[size]
    return rng.standard_normal(n) + 1j * rng.standard_normal(n), np.zeros(n)
