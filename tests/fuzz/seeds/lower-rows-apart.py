import numpy as np
import math


def knap(w, v, W, dp):
    n = len(w)
    for i in range(1, n + 1):
        for c in range(W + 1):
            if c >= w[i - 1]:
                dp[i, c] = max(dp[i - 1, c], dp[i - 1, c - w[i - 1]] + v[i - 1])
            else:
                dp[i, c] = dp[i - 1, c]


def viterbi(logA, V, P, T, K):
    for t in range(1, T):
        for k in range(K):
            best = -math.inf
            arg = 0
            for j in range(K):
                s = V[t - 1, j] + logA[j, k]
                if s > best:
                    best = s
                    arg = j
            V[t, k] = best
            P[t, k] = arg


def cols(D, a, n, m):
    for i in range(1, n):
        for j in range(1, m):
            D[i, j] = min(D[i - 1, j] + a[j], D[i - 1, j - 1] + 1.0)
