import numpy as np


def kernel(data, indices, indptr, x, y):
    """y = A @ x of a sparse matrix A in CSR form, as NumPy writes it: each row's values times x
    at its columns, `x[indices[a:b]]` (an array indexed by an array of integers)."""
    for i in range(y.shape[0]):  # expect: parallel
        a, b = indptr[i], indptr[i + 1]
        y[i] = np.dot(data[a:b], x[indices[a:b]])


def inputs(size, rng):
    n, per = {"test": (300, 20), "bench": (200_000, 64)}[size]
    counts = rng.integers(per // 2, per + 1, n)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    indices = rng.integers(0, n, indptr[-1])
    return [rng.standard_normal(indptr[-1]), indices, indptr, rng.standard_normal(n), np.zeros(n)]


def agree(ref, got):
    """(np.dot adds in its BLAS's order, numgpu in order.)"""
    return np.allclose(ref[1][4], got[1][4], rtol=1e-10, atol=1e-12)
