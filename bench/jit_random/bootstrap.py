import numpy as np


def kernel(x, means):
    """Bootstrap: the mean of each resample of x drawn with replacement, a random index per
    element (np.random.randint) and a gather, a resample per iteration."""
    n = x.shape[0]
    for b in range(means.shape[0]):  # expect: parallel
        s = 0.0
        for k in range(n):
            s += x[np.random.randint(n)]
        means[b] = s / n


def inputs(size, rng):
    n, resamples = {"test": (500, 400), "bench": (10_000, 5_000)}[size]
    return [rng.standard_normal(n), np.zeros(resamples)]


def agree(ref, got):
    """Random numbers: the resample means centre on x's mean with x's standard error (both runs
    within five of their own standard errors), and spread as that standard error does."""
    x = ref[1][0]
    se = x.std() / np.sqrt(x.size)
    ok = True
    for means in (ref[1][1], got[1][1]):
        ok = ok and abs(means.mean() - x.mean()) < 5 * se / np.sqrt(means.size)
        ok = ok and abs(means.std() / se - 1.0) < 0.1
    return ok
