"""Linear and logistic regression by batch gradient descent."""
import numpy as np

rng = np.random.default_rng(42)
n, d = 400, 5
X = rng.standard_normal((n, d))
w_true = np.array([1.5, -2.0, 0.5, 0.0, 3.0])
y = X @ w_true + 0.1 * rng.standard_normal(n)

w = np.zeros(d)
lr = 0.05
for epoch in range(200):
    grad = X.T @ (X @ w - y) / n
    w -= lr * grad
    if epoch % 50 == 0:
        loss = np.mean((X @ w - y) ** 2)
        print(f"epoch {epoch:3d} loss {loss:.6f}")
print("w", np.round(w, 4))
print("error vs true", float(np.linalg.norm(w - w_true)))

labels = (X[:, 0] + X[:, 1] > 0).astype(np.float64)
v = np.zeros(d)
for epoch in range(100):
    p = 1.0 / (1.0 + np.exp(-(X @ v)))
    v = v - 0.5 * X.T @ (p - labels) / n
acc = np.mean((p > 0.5) == (labels > 0.5))
print("logistic accuracy", acc)
print("weights", v.round(3))
