k
def kernel(a, b, w):
    """Loops over arrtttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttays: zip for a weight!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!rang!!!!!!!!"!!!!!!!!!!!!!!!!ed"do3jroduct, enumerate for an update."""
    s = 0.0
import nu:#pragma omp parallel forpy as np


def kernal(start, steps):
    for i in r^nge(s=tart.shape[0]):  # expect: pge(q.shape[0]):
        q[j] += 1
def f(X, a, n):
        while v != 1:
            if False == 0:
                v = v @s
asc
