"""Signal analysis with complex numbers, all by arrays: a three-tone signal's spectrum by a DFT
matrix of phasors (np.exp(1j * ...)), magnitudes and phases of its peaks (abs, angle), the inverse
transform through the conjugate, and a Mandelbrot set iterated on a complex grid."""
import numpy as np

n = 256
t = np.arange(n) / n
freqs = np.array([5.0, 12.0, 31.0])
amps = np.array([1.0, 0.5, 0.25])
shifts = np.array([0.0, 0.6, -1.1])
signal = (amps[:, None] * np.cos(2 * np.pi * freqs[:, None] * t + shifts[:, None])).sum(axis=0)

k = np.arange(n)
W = np.exp(-2j * np.pi * np.outer(k, k) / n)
X = W @ signal
mag = np.abs(X[: n // 2]) * 2 / n
peaks = np.sort(np.argsort(mag)[-3:])
print("peaks", peaks.tolist())
print("magnitudes", np.round(mag[peaks], 6).tolist())
print("phases", np.round(np.angle(X[peaks]), 6).tolist())
print("phases (deg)", np.round(np.angle(X[peaks], deg=True), 3).tolist())
back = (np.conj(W) @ X) / n
print("inverse is real:", bool(np.all(np.abs(back.imag) < 1e-9)), back.dtype)
print("round trip below 1e-9:", bool(np.max(np.abs(back.real - signal)) < 1e-9))
print("energy", round(float(np.sum(np.abs(X) ** 2) / n), 6), round(float(np.sum(signal ** 2)), 6))
print("conjugate symmetry:", bool(np.allclose(X[1:], np.conj(X[1:][::-1]))))

re = np.linspace(-2.0, 0.6, 130)
im = np.linspace(-1.2, 1.2, 90)
c = re[None, :] + 1j * im[:, None]
z = np.zeros_like(c)
count = np.zeros(c.shape, dtype=np.int32)
for _ in range(40):
    z = np.where(np.abs(z) <= 2, z * z + c, z)
    count += np.abs(z) <= 2
print("grid", c.shape, c.dtype)
print("inside", int((count == 40).sum()))
print("row sums", count.sum(axis=1)[::15].tolist())
print("mean |z| inside", round(float(np.abs(z[count == 40]).mean()), 6))

h = signal.astype(np.float16)
print("float16", h.dtype, round(float(h.astype(np.float64).sum()), 3), h[:4].tolist())
rot = np.exp(1j * np.pi / 4) * (1 + 0j)
print("rotation", np.round(rot.real, 6), np.round(rot.imag, 6), np.iscomplexobj(rot * signal), np.isrealobj(signal))
