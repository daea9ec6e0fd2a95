import numpy as np


def kernel(z, theta, out):
    for i in range(z.shape[0]):  # expect: parallel
        r = z[i] * np.exp(1j * theta[i])
        out[i] = r.real * abs(r) + r.imag
    return out


def inputs(size, rng):
    n = {"test": 3_000, "bench": 5_000_000}[size]
    return ((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64),
            rng.uniform(0, 6.28, n).astype(np.float32), np.zeros(n, dtype=np.float32))
