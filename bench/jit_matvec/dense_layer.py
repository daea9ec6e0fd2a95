import numpy as np


def kernel(W, b, X, out):
    """A dense layer per sample, written with NumPy's matrix product of a weight matrix and a row
    (`W @ X[i]`: a loop over the row's elements inside the loop over W's rows), its tanh and the
    squared norm of the result."""
    for i in range(X.shape[0]):  # expect: parallel
        h = np.tanh(W @ X[i] + b)
        out[i] = np.sum(h * h)


def inputs(size, rng):
    n = {"test": 100, "bench": 200_000}[size]
    return (rng.standard_normal((16, 16)) * 0.25, rng.standard_normal(16), rng.standard_normal((n, 16)),
            np.zeros(n))
