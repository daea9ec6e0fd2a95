import numpy as np


def kernel(steps, barrier, out):
    """Random walks of normal steps: how long each takes to leave [-barrier, barrier]
    (at most `steps`), a walk per iteration, its inner loop in order with a break."""
    for i in range(out.shape[0]):  # expect: parallel
        x = 0.0
        t = 0
        while t < steps and abs(x) < barrier:
            x += np.random.standard_normal()
            t += 1
        out[i] = t


def inputs(size, rng):
    n = {"test": 4_000, "bench": 400_000}[size]
    return [1000, 10.0, np.zeros(n, np.int64)]


def agree(ref, got):
    """Random numbers: the mean exit times agree within five standard errors (the
    exit time of a walk from [-b, b] has mean about b^2 and sd about b^2 * 0.82)."""
    a, b = ref[1][2], got[1][2]
    return abs(a.mean() - b.mean()) < 5 * 0.82 * ref[1][1] ** 2 * np.sqrt(2.0 / a.size)
