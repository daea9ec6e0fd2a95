import numpy as np


def kernel(img, out):
    """2x2 max pooling: the largest of each 2x2 block of the image."""
    for i in range(out.shape[0]):  # expect: parallel
        for j in range(out.shape[1]):
            out[i, j] = np.max(img[2 * i:2 * i + 2, 2 * j:2 * j + 2])


def inputs(size, rng):
    n = {"test": 40, "bench": 4_000}[size]
    return rng.standard_normal((n, n)), np.zeros((n // 2, n // 2))
