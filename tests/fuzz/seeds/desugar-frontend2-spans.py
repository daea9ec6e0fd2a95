import numpy as np


def f(X, x, y, out, d, t):
    for i in range(X.shape[0]):
        if x[i] < 0:
            out[i] = 0.0
            continue
        if x[i] == 1:
            continue
        p = (x[i], 2 * x[i], i)
        a, b, c = p
        out[i] = sum(X[i, j] ** 2 for j in range(X.shape[1]) if X[i, j] > 0) + p[-1] + len(p) + len(d)
        out[i] += max(X[i, j] for j in range(1, X.shape[1], 2)) - min(sum(X[k, j] for k in range(3)) for j in range(4))
        if any(X[i, j] > t for j in range(X.shape[1])) and all(X[i, j] for j in range(2)):
            out[i] = round(float(x[i]), 2) + round(x[i], -1)
    for k, (a, b) in enumerate(zip(x, y), 1):
        out[k - 1] = a * b
    for i in range(len(x)):
        if x[i] < 0:
            continue
        if x[i] > t:
            return i
    return -1
