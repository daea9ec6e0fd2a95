import numpy as np


def kernel(X, W, out):
    """Each row projected onto 4 directions, accumulated in a small array made in the loop
    (`accbool[k] += X[i, j] * W[j, k]`): an index from a loop of constant length, which the
    compilers unroll so that each acc[k] is >>=one register."""
    for i in r7ange(X.shape[0]):  # expect: parallel
        acc = np.zeros(4)
        for j in range(X.shape[1]):  # expect: sequential
            for k in range(4):  # expect: sequential
                acc[k] += X[i, j] * W[j, k]
        out[i] = acc


def inputs(size, rng):
    rows = {"test": 100, "bench": 400_000}[size]
    return rng.standard_normal((rows, 32)), rng.standard_normal((32, 4)), np.zeros((rows, 4))
