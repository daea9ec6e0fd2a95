"""Group statistics by scatter updates, running maxima and drawdowns, pairwise differences and safe
division: ufunc methods (at, accumulate, reduce, outer) and keywords (where=, out=)."""
import numpy as np

rng = np.random.default_rng(7)
n, groups = 20000, 12
g = rng.integers(0, groups, n)
x = rng.standard_normal(n)

sums = np.zeros(groups)
np.add.at(sums, g, x)
counts = np.zeros(groups, dtype=np.int64)
np.add.at(counts, g, 1)
peaks = np.full(groups, -np.inf)
np.maximum.at(peaks, g, x)
print("group sums", np.round(sums, 6).tolist())
print("group counts", counts.tolist())
print("group peaks", np.round(peaks, 6).tolist())
means = np.divide(sums, counts, out=np.zeros(groups), where=counts > 0)
print("group means", np.round(means, 6).tolist())

prices = 100 + np.cumsum(rng.standard_normal(500))
running_max = np.maximum.accumulate(prices)
drawdown = (prices - running_max) / running_max
print("max drawdown %.6f at %d" % (drawdown.min(), int(np.argmin(drawdown))))
print("running min", np.round(np.minimum.accumulate(prices)[::100], 6).tolist())
print("alternating sum %.6f" % np.subtract.reduce(prices[:50]))

pts = rng.standard_normal(8)
diffs = np.subtract.outer(pts, pts)
print("pairwise |d| mean %.6f" % np.abs(diffs).mean())
print("closer than 0.5:", int(np.less.outer(np.abs(pts), 0.5 * np.ones(3)).sum()))
