import numpy as np


def kernel(indptr, data, out):
    """The row sums of a CSR sparse matrix: each row the slice of its values
    between two offsets read from indptr (rows of 0 to 60 values)."""
    for r in range(out.shape[0]):  # expect: parallel
        out[r] = np.sum(data[indptr[r]:indptr[r + 1]])


def inputs(size, rng):
    n = {"test": 200, "bench": 400_000}[size]
    indptr = np.concatenate([[0], np.cumsum(rng.integers(0, 61, n))]).astype(np.int64)
    return indptr, rng.standard_normal(int(indptr[-1])), np.zeros(n)
