import numpy as np


def kernel(flags, label):
    """Connected-run labelling of a 0/1 signal: each element gets the number
    of runs of ones begun at or before it (a conditional count, exclusive of
    nothing, read in the same iteration)."""
    runs = 0
    for i in range(1, flags.shape[0]):  # expect: sequential
        if flags[i] == 1 and flags[i - 1] == 0:
            runs += 1
        label[i] = runs * flags[i]
    return runs


def inputs(size, rng):
    n = {"test": 10_000, "bench": 20_000_000}[size]
    return (rng.random(n) < 0.3).astype(np.int64), np.zeros(n, dtype=np.int64)
