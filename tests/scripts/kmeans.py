"""k-means clustering (Lloyd's algorithm) on synthetic blobs."""
import numpy as np

rng = np.random.default_rng(0)
k, n_per, dims = 3, 200, 2
centers_true = np.array([[0.0, 0.0], [5.0, 5.0], [-5.0, 4.0]])
points = np.concatenate([c + rng.normal(size=(n_per, dims)) for c in centers_true])

centroids = points[rng.choice(len(points), k, replace=False)].copy()
for it in range(10):
    d2 = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    assign = d2.argmin(axis=1)
    new = np.stack([points[assign == j].mean(axis=0) for j in range(k)])
    shift = np.sqrt(((new - centroids) ** 2).sum())
    centroids = new
    print("iter", it, "shift %.6f" % shift)
    if shift < 1e-9:
        break

inertia = d2.min(axis=1).sum()
print("centroids")
print(np.round(centroids, 4))
print("sizes", [int((assign == j).sum()) for j in range(k)])
print("inertia", round(float(inertia), 4))
