import numpy as np


def kernel(text, starts, lengths):
    """The length of the word that starts at each offset: a while loop over characters."""
    for w in range(starts.shape[0]):  # expect: parallel
        k = starts[w]
        n = 0
        while k < len(text) and text[k] != " ":
            k += 1
            n += 1
        lengths[w] = n


def inputs(size, rng):
    n = {"test": 2_000, "bench": 2_000_000}[size]
    words = rng.integers(1, 12, n)
    text = " ".join("x" * int(k) for k in words)
    starts = np.concatenate([[0], np.cumsum(words[:-1] + 1)]).astype(np.int64)
    return text, starts, np.zeros(n, np.int64)
