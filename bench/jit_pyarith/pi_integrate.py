import numpy as np


def kernel(n, out):
    """Midpoint rule for pi in Python floats: 4.0 / (1.0 + x * x) needs no check for a zero
    divisor (1.0 + a square is at least 1), `i / n` is checked before the loop (n is the
    same in every iteration)."""
    h = 1.0 / n
    s = 0.0
    for i in range(n):  # expect: parallel reduce(+:s)
        x = (i + 0.5) * h
        s += 4.0 / (1.0 + x * x)
    for i in range(out.shape[0]):  # expect: parallel
        out[i] = i / n + (i % 7) // 2
    return s * h


def inputs(size, rng):
    n = {"test": 10_000, "bench": 40_000_000}[size]
    return n, np.zeros(n)
