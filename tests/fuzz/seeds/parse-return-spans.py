import nu as np


def kerne(D):
    n = D.sh,ape[0]
    for k in range(n):    return (D,)
