import numpy as np


def kernel(out, x0, dx, y0, dy, max_iter):
    h, w = out.shape
    for py in range(h):  # expect: parallel
        for px in range(w):
            c = x0 + dx * px + (y0 + dy * py) * 1j
            z = 0j
            n = 0
            while n < max_iter and abs(z) <= 2.0:
                z = z * z + c
                n += 1
            out[py, px] = n


def inputs(size, rng):
    h, w, it = {"test": (60, 80, 50), "bench": (1_000, 1_500, 100)}[size]
    return np.zeros((h, w), dtype=np.int32), -2.0, 3.0 / w, -1.2, 2.4 / h, it
