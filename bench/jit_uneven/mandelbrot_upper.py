import numpy as np


def kernel(out, x0, x1, y0, y1, max_iter):
    """The upper half of the set, rows from the real axis up: the first rows
    (mostly inside the set) cost the full max_iter per pixel, the last almost
    nothing, so equal blocks of rows per thread leave one thread most of it."""
    h, w = out.shape
    for py in range(h):  # expect: parallel
        for px in range(w):
            cr = x0 + (x1 - x0) * px / w
            ci = y0 + (y1 - y0) * py / h
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[py, px] = n


def inputs(size, rng):
    h, w, it = {"test": (30, 80, 50), "bench": (1_000, 3_000, 200)}[size]
    return np.zeros((h, w), dtype=np.int32), -2.0, 1.0, 0.0, 1.2, it
