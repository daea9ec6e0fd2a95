import numpy as np


def kernel(text, d, L, X):
    """The README's seed loop with np.zeros((L, len(d))): one-hot windows of a text through a dict."""
    for i in range(X.shape[0]):  # expect: parallel
        w = text[i * L:(i + 1) * L]
        ix = [d[c] for c in w]
        a = np.zeros((L, len(d)))
        for t in range(L):
            a[t, ix[t]] = 1.0
        X[i] = a


def inputs(size, rng):
    n = {"test": 3_000, "bench": 300_000}[size]
    text = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz .,"), n))
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    return text, d, 30, np.zeros((n // 30, 30, len(d)), np.float32)
