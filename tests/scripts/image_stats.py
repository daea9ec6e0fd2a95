"""Image statistics: a synthetic RGB image, per-channel stats, histogram, gradients, thresholding."""
import numpy as np

h, w = 48, 64
yy, xx = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
r = (xx / (w - 1) * 255).astype(np.uint8)
g = (yy / (h - 1) * 255).astype(np.uint8)
b = ((np.sin(xx / 5.0) * np.cos(yy / 7.0) + 1) * 127.5).astype(np.uint8)
img = np.stack([r, g, b], axis=-1)
print("image", img.shape, img.dtype)

for c, name in enumerate("RGB"):
    ch = img[..., c].astype(np.float64)
    print(name, "mean %.4f std %.4f min %d max %d" % (ch.mean(), ch.std(), ch.min(), ch.max()))

gray = img.astype(np.float32) @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
print("gray", gray.dtype, "mean", round(float(gray.mean()), 3))
hist, edges = np.histogram(gray, bins=8, range=(0, 255))
print("histogram", hist.tolist())
gx = np.abs(np.diff(gray, axis=1)).mean()
gy = np.abs(np.diff(gray, axis=0)).mean()
print("mean gradient x %.4f y %.4f" % (gx, gy))
mask = gray > gray.mean()
print("bright fraction", mask.mean())
print("bright bbox rows", np.nonzero(mask.any(axis=1))[0][[0, -1]])
print("percentiles", np.percentile(gray, [10, 50, 90]))
