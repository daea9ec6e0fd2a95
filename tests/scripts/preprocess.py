"""Data preprocessing: standardise columns, fill missing values, clip outliers, one-hot a label."""
import sys

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
rng = np.random.default_rng(7)
X = rng.normal(loc=[1.0, -2.0, 10.0], scale=[0.5, 3.0, 2.0], size=(n, 3))
X[::17, 1] = np.nan                                  # missing values
labels = rng.integers(0, 4, size=n)

col_mean = np.nanmean(X, axis=0)
filled = np.where(np.isnan(X), col_mean, X)
mu = filled.mean(axis=0)
sigma = filled.std(axis=0)
Z = (filled - mu) / sigma
Z = np.clip(Z, -3, 3)
onehot = (labels[:, None] == np.arange(4)).astype(np.float64)

print("rows", len(X), "missing", int(np.isnan(X).sum()))
print("column means", np.round(col_mean, 6))
print("standardised mean", np.round(Z.mean(axis=0), 6), "std", np.round(Z.std(axis=0), 6))
print("clipped", int((np.abs(Z) >= 3).sum()))
print("label counts", onehot.sum(axis=0))
print(f"max |z| = {np.abs(Z).max():.6f}")
features = np.hstack([Z, onehot])
print("features", features.shape, features.dtype)
print("first row", np.round(features[0], 6))
