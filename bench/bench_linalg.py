#!/usr/bin/env python3
"""Linear algebra on the device against numpy.linalg (LAPACK) on the current device: one large
matrix goes to the device's vendor LAPACK where it has one (the host's on cpu, found as NumPy's
own; cuSOLVER on cuda for solve/inv/cholesky), stacks of small matrices to the generated LU,
Cholesky and Householder QR kernels (src/ops/lapack.c), which run the whole stack in parallel.
The eigen- and singular value solvers and lstsq (NumPy's own LAPACK calls through the device's
vendor library, a call per matrix: the host's on cpu, cuSOLVER's syevd/gesvd for one large
float64 matrix on cuda), their compositions (pinv) and the matmul compositions (matrix_power,
multi_dot) are timed on one --m x --m matrix and a stack of --small 4x4 matrices; eigh, eigvalsh,
svd, svdvals and pinv also on stacks of --small 8x8 and 8x6 and --small/10 32x32 matrices, which
opencl and cuda run as generated Jacobi kernels, a work item per matrix (src/ops/jacobi.c; eig,
lstsq and matrices past the kernels' size are NumPy's fallback there); eigen- and singular
vectors are checked through their values (signs differ either way).

Prints, per operation, numgpu's time, NumPy's (best of --repeat runs each) and
ratio = numpy_time / numgpu_time (> 1: numgpu is faster): one large matrix (--n) and a stack
of many small ones (--batch 3x3 and 8x8 matrices, where NumPy's per-matrix loop dominates).
Each numgpu result is compared with NumPy's before it is timed; a mismatch exits 1.

    PYTHONPATH=python python bench/bench_linalg.py [--n 256] [--batch 100000] [--m 512] [--small 1000]
                                                   [--repeat 3] [--quick]
"""
import argparse
import sys

import numpy as np

import numgpu as ng
from _timing import best_time  # noqa: E402


def host(r):
    return tuple(host(x) for x in r) if isinstance(r, tuple) else (r.get() if hasattr(r, "get") else np.asarray(r))


def well_conditioned(shape, dtype, rng):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return (a + 2 * np.sqrt(shape[-1]) * np.eye(shape[-1])).astype(dtype)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--batch", type=int, default=100_000)
    p.add_argument("--m", type=int, default=512, help="the decompositions' matrix size")
    p.add_argument("--small", type=int, default=1000, help="the decompositions' stack of 4x4 matrices")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="n=64, batch=10000, m=128, small=1000")
    args = p.parse_args()
    if args.quick:
        args.n, args.batch, args.m = 64, 10_000, 128
    rng = np.random.default_rng(0)
    cases = []
    for dt in (np.float64, np.complex128):
        name = np.dtype(dt).name
        a = well_conditioned((args.n, args.n), dt, rng)
        b = well_conditioned((args.n, 1), dt, rng)[:, 0]
        h = a @ np.conj(a.T) + np.eye(args.n)
        cases += [("solve %s n=%d" % (name, args.n), np.linalg.solve, (a, b), ng.linalg.solve),
                  ("inv %s n=%d" % (name, args.n), np.linalg.inv, (a,), ng.linalg.inv),
                  ("det %s n=%d" % (name, args.n), np.linalg.det, (a,), ng.linalg.det),
                  ("cholesky %s n=%d" % (name, args.n), np.linalg.cholesky, (h,), ng.linalg.cholesky),
                  ("qr (R) %s n=%d" % (name, args.n), lambda x: np.linalg.qr(x, mode="r"), (a,),
                   lambda x: ng.linalg.qr(x, mode="r"))]
    for m in (3, 8):
        s = well_conditioned((args.batch, m, m), np.float64, rng)
        v = rng.standard_normal((args.batch, m, 1))
        cases += [("solve %d x %dx%d float64" % (args.batch, m, m), np.linalg.solve, (s, v), ng.linalg.solve),
                  ("inv %d x %dx%d float64" % (args.batch, m, m), np.linalg.inv, (s,), ng.linalg.inv),
                  ("det %d x %dx%d float64" % (args.batch, m, m), np.linalg.det, (s,), ng.linalg.det)]
    cases = [c + (lambda r: r,) for c in cases]

    def first(r):  # eigen- and singular values: the comparable part of a decomposition
        return r[0] if isinstance(r, tuple) and len(r) == 2 else r[1] if isinstance(r, tuple) else r

    def sort(r):  # eig's values in a fixed order
        return np.sort_complex(np.asarray(first(r), dtype=complex))
    big = rng.standard_normal((args.m, args.m))
    sym = big + big.T
    tall = rng.standard_normal((2 * args.m, args.m))
    rhs = rng.standard_normal(2 * args.m)
    st = rng.standard_normal((args.small, 4, 4))
    sst = st + st.swapaxes(-1, -2)
    chain = [rng.standard_normal(s) for s in ((args.m, 8), (8, args.m), (args.m, args.m), (args.m, 4))]
    s8 = rng.standard_normal((args.small, 8, 8))
    h8 = s8 + s8.swapaxes(-1, -2)
    r86 = rng.standard_normal((args.small, 8, 6))
    mid = max(args.small // 10, 1)
    s32 = rng.standard_normal((mid, 32, 32))
    h32 = s32 + s32.swapaxes(-1, -2)
    for label, npf, np_args, ngf, pick in [
            ("eigh %dx%d" % (args.m, args.m), np.linalg.eigh, (sym,), ng.linalg.eigh, first),
            ("eigh %d x 4x4" % args.small, np.linalg.eigh, (sst,), ng.linalg.eigh, first),
            ("eigvalsh %dx%d" % (args.m, args.m), np.linalg.eigvalsh, (sym,), ng.linalg.eigvalsh, first),
            ("svd %dx%d" % (args.m, args.m), np.linalg.svd, (big,), ng.linalg.svd, first),
            ("svd %d x 4x4" % args.small, np.linalg.svd, (st,), ng.linalg.svd, first),
            ("svdvals %dx%d" % (args.m, args.m), np.linalg.svdvals, (big,), ng.linalg.svdvals, first),
            ("eigh %d x 8x8" % args.small, np.linalg.eigh, (h8,), ng.linalg.eigh, first),
            ("eigvalsh %d x 8x8" % args.small, np.linalg.eigvalsh, (h8,), ng.linalg.eigvalsh, first),
            ("eigh %d x 32x32" % mid, np.linalg.eigh, (h32,), ng.linalg.eigh, first),
            ("svd %d x 8x6" % args.small, np.linalg.svd, (r86,), ng.linalg.svd, first),
            ("svd(full=False) %d x 8x6" % args.small, lambda x: np.linalg.svd(x, full_matrices=False), (r86,),
             lambda x: ng.linalg.svd(x, full_matrices=False), first),
            ("svdvals %d x 8x8" % args.small, np.linalg.svdvals, (s8,), ng.linalg.svdvals, first),
            ("svd %d x 32x32" % mid, np.linalg.svd, (s32,), ng.linalg.svd, first),
            ("pinv %d x 8x6" % args.small, np.linalg.pinv, (r86,), ng.linalg.pinv, first),
            ("eig %dx%d" % (args.m, args.m), np.linalg.eig, (big,), ng.linalg.eig, sort),
            ("eig %d x 4x4" % args.small, np.linalg.eig, (st,), ng.linalg.eig, lambda r: np.sort(np.abs(r[0]))),
            ("lstsq %dx%d" % (2 * args.m, args.m), np.linalg.lstsq, (tall, rhs), ng.linalg.lstsq,
             lambda r: r[0]),
            ("pinv %dx%d" % (2 * args.m, args.m), np.linalg.pinv, (tall,), ng.linalg.pinv, first),
            ("matrix_rank %dx%d" % (args.m, args.m), np.linalg.matrix_rank, (big,), ng.linalg.matrix_rank, first),
            ("norm(2) %dx%d" % (args.m, args.m), lambda x: np.linalg.norm(x, 2), (big,),
             lambda x: ng.linalg.norm(x, 2), first),
            ("matrix_power(., 10) %dx%d" % (args.m, args.m), lambda x: np.linalg.matrix_power(x, 10),
             (big / args.m ** 0.5,), lambda x: ng.linalg.matrix_power(x, 10), first),
            ("matrix_power(., 5) %d x 4x4" % args.small, lambda x: np.linalg.matrix_power(x, 5), (st,),
             lambda x: ng.linalg.matrix_power(x, 5), first),
            ("multi_dot 4 arrays m=%d" % args.m, lambda *a: np.linalg.multi_dot(a), tuple(chain),
             lambda *a: ng.linalg.multi_dot(a), first)]:
        cases.append((label, npf, np_args, ngf, pick))
    print("numgpu.linalg vs numpy.linalg on %s (best of %d)" % (ng.get_device(), args.repeat))
    print("%-34s %12s %12s %8s" % ("op", "numgpu ms", "numpy ms", "ratio"))
    bad = False
    for label, npf, np_args, ngf, pick in cases:
        dev_args = [ng.asarray(x) for x in np_args]
        exp = np.asarray(pick(npf(*np_args)))
        got = np.asarray(pick(host(ngf(*dev_args))))
        scale = max(np.max(np.abs(exp)), 1e-300)
        if got.shape != np.shape(exp) or np.max(np.abs(got - exp)) > 1e-8 * scale:
            print("%-34s MISMATCH (max error %.3g of %.3g)" % (label, np.max(np.abs(got - exp)), scale))
            bad = True
            continue
        t_ng = best_time(lambda: ngf(*dev_args), args.repeat)
        t_np = best_time(lambda: npf(*np_args), args.repeat)
        print("%-34s %12.3f %12.3f %8.2f" % (label, t_ng * 1e3, t_np * 1e3, t_np / t_ng))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
