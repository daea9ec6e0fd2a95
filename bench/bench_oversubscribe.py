"""Data larger than the GPU's memory: `y = 2 * x + 1` over float32 arrays in device memory and
over arrays in the overflow memory numgpu takes once the device is full (CUDA: managed memory
kept in host memory and mapped for the GPU), as GB/s and the ratio of the two; the result is
checked against NumPy. Fills the device first (blocks of --block-gib it holds until the pool
reports an overflow allocation). On a device without overflow memory (cpu, opencl) it says so.

    NUMGPU_DEVICE=cuda python bench/bench_oversubscribe.py [--mib 1024]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time  # noqa: E402

import numgpu as ng  # noqa: E402


def gbps(x, repeat):
    t = best_time(lambda: 2 * x + 1, repeat)
    return 2 * x.nbytes / t / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=1024, help="size of the arrays timed")
    ap.add_argument("--block-gib", type=float, default=2.0, help="size of the blocks that fill the device")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = ng.get_device()
    if not dev.startswith("cuda"):
        print("%s: no overflow memory (only CUDA has managed memory); nothing to measure" % dev)
        return
    n = args.mib << 18  # float32 elements
    host = np.random.default_rng(0).random(n, dtype=np.float32)
    x = ng.asarray(host)
    fast = gbps(x, args.repeat)
    del x
    hold = []
    for block in (int(args.block_gib * (1 << 30)) // 4, n):  # large blocks, then ones of x's size
        before = ng.stats()["overflow_allocations"]
        while ng.stats()["overflow_allocations"] == before and len(hold) < 1024:
            hold.append(ng.empty(block, dtype=np.float32))
    print("device filled: %d blocks held, %s of them in overflow memory"
          % (len(hold), ng.stats()["overflow_allocations"]))
    before = ng.stats()["overflow_allocations"]
    x = ng.asarray(host)
    in_overflow = ng.stats()["overflow_allocations"] > before
    ok = np.array_equal((2 * x + 1).get(), 2 * host + 1)
    slow = gbps(x, args.repeat)
    print("%-44s %8s %8s" % ("y = 2 * x + 1, float32, %d MiB" % args.mib, "GB/s", "ratio"))
    print("%-44s %8.1f %8s" % ("device memory", fast, "1.00x"))
    print("%-44s %8.1f %7.2fx  %s" % ("overflow memory" if in_overflow else "device memory (no overflow happened)",
                                      slow, slow / fast, "equal to NumPy" if ok else "DIFFERS FROM NUMPY"))
    del x, hold
    print("after freeing: %s in overflow memory" % ng.stats()["overflow_bytes"])


if __name__ == "__main__":
    main()
