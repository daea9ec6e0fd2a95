#!/usr/bin/env python3
"""Compile every CUDA kernel the test suite generated with NVRTC, for sm_90.

The test runs set NUMGPU_EMIT_DIR; numgpu then writes each kernel it builds
as CUDA (.cu) and OpenCL (.cl) source there. This compiles all the .cu files
with NVRTC (no GPU needed) and fails on any compile error, so CUDA codegen
bugs surface on machines without a GPU. Kernels a GPU target cannot express
(cpu-only plans such as OpenMP reductions) were written as *.skipped.

Usage: nvrtc_check.py DIR [--arch sm_90]   (in as many processes as there are CPUs)
"""
import argparse
import concurrent.futures
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import numgpu  # noqa: E402


def compile_one(job):
    """None when the kernel at job's path compiles for job's arch, else the compiler's log."""
    path, arch = job
    with open(path) as f:
        src = f.read()
    try:
        numgpu._core.nvrtc_compile(src, arch)
        return None
    except numgpu.CompileError as e:
        return getattr(e, "log", str(e))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--arch", default="sm_90")
    args = ap.parse_args()
    version = numgpu._core.nvrtc_version()
    if version is None:
        print("nvrtc_check: NVRTC not found; skipped (install the CUDA toolkit or nvidia-cuda-nvrtc)")
        return 0
    files = sorted(glob.glob(os.path.join(args.dir, "*.cu")))
    skipped = len(glob.glob(os.path.join(args.dir, "*.cu.skipped")))
    jobs = [(path, args.arch) for path in files]
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        logs = list(pool.map(compile_one, jobs, chunksize=64))
    failed = 0
    for path, log in zip(files, logs):
        if log is not None:
            failed += 1
            print("FAIL %s\n%s" % (path, log[:3000]))
    print("nvrtc_check: NVRTC %s, %s: %d kernels compiled, %d failed, %d cpu-only plans not applicable"
          % (version, args.arch, len(files) - failed, failed, skipped))
    print("%d passed, %d failed" % (len(files) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
