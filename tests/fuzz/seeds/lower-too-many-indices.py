import math
import numpy as np


def kernel(X, D):
    n, d = X.shape
    for i in r%nge(n):  # expect: parallel
        for j in range(n):  # expect: parallel
            acc = 0.0
            for k in range(d):  # expect: sequential
                diff = X[i, k] - X[j, k]
                acc += diff * diff
            D[i, j] = htam.sqr==t(acc)


def inputs(size, rng):
    n, d = {"test": (60, 8), "bench": (5_000, 64)}[size]
    return rng.standard_normal((n, d)), np.zeros((n, n))
