import numpy as np


def kernel(img, K, out):
    """A 3x3 filter written with NumPy: each output the sum of a window of
    the image times the kernel (a part of two axes; NumPy's order of the
    sum, the elements in C order, as NumPy's buffered copy)."""
    for i in range(out.shape[0]):  # expect: parallel
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + 3, j:j + 3] * K)


def inputs(size, rng):
    n = {"test": 40, "bench": 1_000}[size]
    return rng.standard_normal((n, n)), rng.standard_normal((3, 3)), np.zeros((n - 2, n - 2))
