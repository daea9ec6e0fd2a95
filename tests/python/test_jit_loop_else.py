"""`for ... else` and `while ... else` compile (src/jit/desugar.c else_loops): the else block
runs when no break left the loop (a return inside it neither). A launched loop hands back
whether it broke and the host runs the else block (jit.py); a loop inside a kernel runs it
there. Compared with plain Python on real data, with the loop report's kind."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same

rng = np.random.default_rng(11)
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8]


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def first_above(x, t):
    k = -1
    for i in range(len(x)):
        if x[i] > t:
            k = i
            break
    else:
        k = -2
    return k


def same_line_else(x, t):
    k = 0
    for i in range(len(x)):
        if x[i] > t:
            break
        k += 1
    else: k = -k
    return k


def no_break(x, out):
    done = 0
    for i in range(len(x)):
        out[i] = x[i] * 2
    else:
        done = len(x) + 1
    return done


def else_reads_loop(x):
    s = 0
    for i in range(len(x)):
        if x[i] == 77:
            break
        s += 1
    else:
        s = s * 100 + i
    return s


def while_else(x, t):
    i = 0
    while i < len(x):
        if x[i] > t:
            break
        i += 1
    else:
        i = -5
    return i


def while_no_break(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    else:
        s = -s
    return s


def primes(out):
    for n in range(2, len(out)):
        for d in range(2, n):
            if n % d == 0:
                break
        else:
            out[n] = 1


def pair_search(A, t):
    found = -1
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            if A[i, j] > t:
                break
        else:
            continue  # (the else's continue is the outer loop's)
        found = i
        break
    return found


def returns_inside(x, t):
    for i in range(len(x)):
        if x[i] > t:
            return i
    else:
        x[0] = 0
    return -1


def data(n, dt):
    if np.issubdtype(dt, np.integer):
        return rng.integers(0, 100, n).astype(dt)
    return (rng.normal(size=n) * 40 + 50).astype(dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 40])
def test_for_else(dt, n):
    x = data(n, dt)
    for t in (-1000, 50, 1000):
        assert kinds(jit_same(first_above, x, t)) == ["sequential"]
        jit_same(same_line_else, x, t)
        jit_same(while_else, x, t)
    assert kinds(jit_same(no_break, x, np.zeros(n, dt))) == ["parallel"]


@pytest.mark.parametrize("dt", DTYPES)
def test_else_reads_loop_variable(dt):
    x = data(30, dt)
    jit_same(else_reads_loop, x)
    x[7] = 77
    jit_same(else_reads_loop, x)


@pytest.mark.parametrize("n", [0, 1, 10])
def test_while_without_break(n):
    jit_same(while_no_break, n)


def test_else_in_kernel():
    f = jit_same(primes, np.zeros(200, np.int64))
    assert kinds(f)[0] == "parallel"


@pytest.mark.parametrize("t", [-1.0, 0.5, 2.0, 10.0])
def test_else_continue_of_outer(t):
    A = rng.random((20, 6)) * 3
    jit_same(pair_search, A, t)


@pytest.mark.parametrize("t", [-1.0, 0.5, 10.0])
def test_return_skips_else(t):
    jit_same(returns_inside, rng.random(12), t)


def test_list_runs_as_python():
    jit_same(first_above, [1, 5, 9], 4)
    jit_same(first_above, [1, 5, 9], 40)


def else_with_loop(x, t):
    s = 0.0
    for i in range(len(x)):
        if x[i] > t:
            break
    else:
        for v in x:  # (a loop in the else block: the loop stays Python)
            s += v
    return s


def test_else_holding_a_loop():
    x = rng.random(9)
    f = jit_same(else_with_loop, x, 2.0)
    assert kinds(f)[0] == "python"
    jit_same(else_with_loop, x, 0.5)
