"""Heat diffusion on a 2-d grid with a 5-point stencil (Jacobi iterations)."""
import numpy as np

n = 64
u = np.zeros((n, n))
u[n // 4: n // 2, n // 4: n // 2] = 100.0
alpha = 0.2
for step in range(50):
    lap = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * lap
    if step % 10 == 0:
        print("step %d total heat %.6f max %.6f" % (step, u.sum(), u.max()))

print("final mean", u.mean())
print("centre", u[n // 3, n // 3])
print("corner row", u[0, :4])
row = u[n // 3]
print("row profile", np.round(row[10:20], 3))
print("cells above 1.0:", np.count_nonzero(u > 1.0))
