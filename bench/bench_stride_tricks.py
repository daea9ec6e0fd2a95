"""numgpu.lib.stride_tricks against NumPy's: rolling windows as views (a moving average, a rolling
max, a 2-d box sum) and an as_strided frame split, each ratio = NumPy time / numgpu time on the
current device (NUMGPU_DEVICE). Before these were device views they ran NumPy's on a downloaded
copy and uploaded the windows: (n - w + 1) * w elements.

    PYTHONPATH=python python bench/bench_stride_tricks.py [--n 1000000] [--repeat 5]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import bench_args, compare  # noqa: E402

import numgpu as ng  # noqa: E402
from numgpu.lib.stride_tricks import as_strided, sliding_window_view  # noqa: E402


def main():
    args = bench_args(__doc__)
    n = args.n
    x = np.cumsum(np.random.default_rng(0).normal(size=n))
    g = ng.asarray(x)
    side = int(n ** 0.5)
    img, gimg = x[:side * side].reshape(side, side), g[:side * side].reshape(side, side)
    swv = np.lib.stride_tricks.sliding_window_view
    frames = (n - 256) // 128
    cases = [
        ("moving average, window 50", lambda: sliding_window_view(g, 50).mean(axis=-1),
         lambda: swv(x, 50).mean(axis=-1)),
        ("rolling max, window 20", lambda: sliding_window_view(g, 20).max(axis=-1),
         lambda: swv(x, 20).max(axis=-1)),
        ("3x3 box sum of %dx%d" % (side, side), lambda: sliding_window_view(gimg, (3, 3)).sum(axis=(-2, -1)),
         lambda: swv(img, (3, 3)).sum(axis=(-2, -1))),
        ("as_strided frames 256/128, energy", lambda: (as_strided(g, (frames, 256), (1024, 8)) ** 2).sum(axis=1),
         lambda: (np.lib.stride_tricks.as_strided(x, (frames, 256), (1024, 8)) ** 2).sum(axis=1)),
    ]
    sys.exit(compare(cases, args.repeat, "stride tricks, %d float64 on %s" % (n, ng.get_device()), rtol=1e-9))


if __name__ == "__main__":
    main()
