#!/usr/bin/env python3
"""K-means clustering on generated data, written as a NumPy program.

The only change from a NumPy script is the import line: `import numgpu as np`
makes every array operation below run on the numgpu device (matmul for the
distances, argmin, a one-hot matrix for the centroid update). The random data
is made on the host with NumPy's generator and uploaded once; the result comes
back once at the end with np.asnumpy.

    python examples/kmeans.py                         # 200000 points, 16 dims, 8 clusters
    NUMGPU_DEVICE=opencl python examples/kmeans.py --points 50000
    numgpu bench examples/kmeans.py --points 50000    # vs plain NumPy, on every device

It prints the cluster sizes and the within-cluster sum of squares, rounded, so
that runs on NumPy and on each device print the same text.
"""
import argparse

import numpy  # host side: the generated data only

import numgpu as np


def make_blobs(n, dims, k, dtype, seed):
    """n points around k well-separated centres: a host (NumPy) array."""
    rng = numpy.random.default_rng(seed)
    centres = rng.uniform(-10, 10, size=(k, dims))
    labels = rng.integers(0, k, size=n)
    return (centres[labels] + rng.normal(0, 1, size=(n, dims))).astype(dtype)


def farthest_points(X, k):
    """k rows of X, each the farthest from those picked before: a deterministic start."""
    picked = [0]
    dmin = ((X - X[0]) ** 2).sum(axis=1)
    for _ in range(k - 1):
        i = int(np.asnumpy(dmin.argmax()))      # one scalar back to the host per pick
        picked.append(i)
        dmin = np.minimum(dmin, ((X - X[i]) ** 2).sum(axis=1))
    return np.stack([X[i] for i in picked])


def distances(X, x2, C):
    """Squared distances |x|^2 - 2 x.c + |c|^2, (n, k)."""
    return x2 - 2.0 * (X @ C.T) + (C * C).sum(axis=1)[None, :]


def kmeans(X, k, iters):
    """Lloyd's algorithm, vectorised: returns (centroids, labels, sum of squared distances)."""
    C = farthest_points(X, k)
    ks = np.arange(k)
    x2 = (X * X).sum(axis=1)[:, None]           # |x|^2, (n, 1)
    for _ in range(iters):
        labels = distances(X, x2, C).argmin(axis=1)
        onehot = (labels[:, None] == ks[None, :]).astype(X.dtype)   # (n, k)
        counts = onehot.sum(axis=0)
        C = (onehot.T @ X) / np.maximum(counts, 1)[:, None]
    d = distances(X, x2, C)
    return C, d.argmin(axis=1), d.min(axis=1).sum()


def main():
    ap = argparse.ArgumentParser(description="k-means on generated data (NumPy-style, on numgpu)")
    ap.add_argument("--points", type=int, default=200_000)
    ap.add_argument("--dims", type=int, default=16)
    ap.add_argument("--clusters", type=int, default=8)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    X = np.asarray(make_blobs(args.points, args.dims, args.clusters, args.dtype, args.seed))  # upload once
    C, labels, inertia = kmeans(X, args.clusters, args.iters)

    sizes = sorted(int(c) for c in np.asnumpy((labels[:, None] == np.arange(args.clusters)[None, :]).sum(axis=0)))
    print(f"k-means: {args.points} points, {args.dims} dims, {args.clusters} clusters, {args.iters} iterations")
    print("cluster sizes:", sizes)
    print(f"within-cluster sum of squares per point: {float(inertia) / args.points:.3f}")


if __name__ == "__main__":
    main()
