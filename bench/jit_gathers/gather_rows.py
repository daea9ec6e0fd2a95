import numpy as np


def kernel(X, members, out):
    """Each group's mean point, its members' rows gathered by index (`X[members[k]]`) and
    reduced along their first axis."""
    for k in range(out.shape[0]):  # expect: parallel
        out[k] = np.sum(X[members[k]], axis=0) / members.shape[1]


def inputs(size, rng):
    n, k = {"test": (1000, 50), "bench": (1_000_000, 20_000)}[size]
    return [rng.standard_normal((n, 16)), rng.integers(0, n, (k, 64)), np.zeros((k, 16))]
