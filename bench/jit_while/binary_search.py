import numpy as np


def kernel(a, keys, out):
    """np.searchsorted written as a loop: a binary search per key, whose
    loads depend on the step before (cache misses on a large array)."""
    for i in range(keys.shape[0]):  # expect: parallel
        lo = 0
        hi = a.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < keys[i]:
                lo = mid + 1
            else:
                hi = mid
        out[i] = lo


def inputs(size, rng):
    n, k = {"test": (1_000, 2_000), "bench": (10_000_000, 2_000_000)}[size]
    return np.sort(rng.standard_normal(n)), rng.standard_normal(k), np.zeros(k, dtype=np.int64)
