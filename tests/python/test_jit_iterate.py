"""Loops over arrays: `for v in x`, `for i, v in enumerate(x)` and `for p, q
in zip(a, b)` compile as range loops over the arrays' first axis (src/jit/
desugar.c), with the names they assign as Python leaves them; over anything
else (a list, a generator) they run as written. Compared with plain Python."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same

rng = np.random.default_rng(31)


def total(x):
    s = 0.0
    for v in x:
        s += v * v
    return s


def last_seen(x, v):
    for v in x:  # the loop name keeps the last element
        pass
    return v


def indexed(x, out):
    for i, v in enumerate(x):
        out[i] = v * i


def indexed_from(x, out, k):
    for i, v in enumerate(x, k):
        out[i - k] = v + i


def paired(a, b, out):
    n = 0
    for p, q in zip(a, b):  # as long as the shorter one
        out[n] = p * q
        n += 1
    return n


def tripled(a, b, c):
    s = 0
    for p, q, r in zip(a, b, c):
        s += p * q - r
    return s


def row_norms(X, out):
    for i, row in enumerate(X):  # rows of a matrix
        s = 0.0
        for v in row:
            s += v * v
        out[i] = s


def nested(X, out):
    for i in range(X.shape[0]):
        for j, v in enumerate(X[i]):
            out[i, j] = v * 2 + j


def rebinds(x, y):
    s = 0.0
    for v in x:
        s += v
        x = y  # Python iterates over the first x still
    return s


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_for_over_an_array(dtype):
    x = rng.integers(-20, 21, 10_001).astype(dtype)  # (sums exact in any order)
    f = jit_same(total, x)
    assert kinds(f) == ["parallel"] and f.loop_report()[0]["reductions"] == [("s", "+")]
    assert f.loop_report()[0]["ran"] == "kernel"
    jit_same(last_seen, x, dtype(-1))
    jit_same(last_seen, x[:0], dtype(-1))  # no element: the name keeps its value


def test_enumerate_with_and_without_a_start():
    x = rng.integers(-20, 21, 5000).astype(np.float64)
    f = jit_same(indexed, x, np.zeros_like(x))
    assert kinds(f) == ["parallel"] and f.loop_report()[0]["ran"] == "kernel"
    for k in (0, 3, -2):
        f = jit_same(indexed_from, x, np.zeros_like(x), k)
        assert kinds(f) == ["parallel"] and f.loop_report()[0]["ran"] == "kernel"


def test_zip_stops_at_the_shorter_array():
    a, b = rng.standard_normal(3000), rng.standard_normal(2500)
    f = jit_same(paired, a, b, np.zeros(3000))
    assert f.loop_report()[0]["ran"] == "kernel (one thread)"  # (n carries over: in order)
    jit_same(paired, b, a, np.zeros(3000))
    ints = rng.integers(-9, 9, (3, 4000))
    f = jit_same(tripled, *ints)
    assert kinds(f) == ["parallel"]


def test_rows_of_a_matrix_and_an_inner_enumerate():
    X = rng.integers(-20, 21, (300, 13)).astype(np.float64)
    f = jit_same(row_norms, X, np.zeros(300))
    assert kinds(f)[0] == "parallel" and f.loop_report()[0]["ran"] == "kernel"
    f = jit_same(nested, X, np.zeros_like(X))
    assert kinds(f)[0] == "parallel" and f.loop_report()[0]["ran"] == "kernel"


def test_other_iterables_run_as_python():
    assert numgpu.jit(total)([1.0, 2.0, 3.0]) == 14.0  # a list: the loop runs as written
    f = numgpu.jit(total)
    assert f(np.arange(4.0)) == 14.0 and f((1.0, 2.0)) == 5.0
    f = jit_same(rebinds, np.arange(5.0), np.arange(100.0))  # the iterable is rebound in the body
    (loop,) = f.loop_report()
    assert loop["kind"] == "python" and "iterates over x" in loop["reason"], loop


def last_positive(x):
    for i in range(x.shape[0]):
        if x[i] > 0:
            last = x[i]  # assigned only when some element is positive
    return last


def test_a_name_the_loop_never_assigns_stays_unbound():
    # the kernel says which names it assigned: the others stay unbound, as in Python
    for fn, x in [(last_seen_unbound, np.zeros(0)), (last_positive, -np.ones(50)), (last_positive, np.zeros(0))]:
        with pytest.raises(UnboundLocalError):
            fn(x)
        f = numgpu.jit(fn)
        with pytest.raises(UnboundLocalError):
            f(x)
        assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    jit_same(last_positive, rng.standard_normal(50))
    jit_same(last_seen_unbound, np.arange(3.0))


def last_seen_unbound(x):
    for v in x:
        pass
    return v


def sum_tail(X, out):
    for i in range(X.shape[0]):
        s = 0.0
        for v in X[i, 1:]:
            s += v
        out[i] = s


def last_greater_before(x, out):
    for i in range(1, len(x)):
        best = -1
        for k, v in enumerate(x[:i]):
            if v > x[i]:
                best = k
        out[i] = best


def lagged_dot(X, Y, out, lag):
    for i in range(X.shape[0]):
        s = 0.0
        for p, q in zip(X[i, lag:], Y[i, :-lag]):
            s += p * q
        out[i] = s


def add_into_the_head(X):
    for i in range(X.shape[0]):
        for v in X[i, 1:]:
            X[i, 0] += v  # (the slice reads X's elements anew: Python's view does too)


def every_other(X, out):
    for i in range(X.shape[0]):
        s = 0.0
        for v in X[i, ::2]:
            s += v
        out[i] = s


def moved_bound(X, out):
    for i in range(X.shape[0]):
        n = 1
        for v in X[i, n:]:
            n += 1
            out[i] += v * n


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8])
def test_loops_over_slices_inside_a_loop(dtype):
    X = (rng.random((60, 7)) * 50).astype(dtype)
    Y = (rng.random((60, 7)) * 50).astype(dtype)
    for fn, args in ((sum_tail, (X, np.zeros(60))), (last_greater_before, (X[:, 0].copy(), np.zeros(60, np.int64))),
                     (lagged_dot, (X, Y, np.zeros(60), 2)), (lagged_dot, (X, Y, np.zeros(60), 9)),
                     (add_into_the_head, (X,))):
        f = jit_same(fn, *args)
        assert [r["ran"] for r in f.loop_report()][0] == "kernel", fn.__name__  # (before 2026-12-05: Python)


def test_loops_over_slices_that_stay_python():
    X = rng.random((20, 7))
    f = jit_same(every_other, X, np.zeros(20))  # a step: no slice let
    assert not f.loop_report()[0]["ran"].startswith("kernel")
    f = jit_same(moved_bound, X, np.zeros(20))  # n changes after the slice is made
    assert not f.loop_report()[0]["ran"].startswith("kernel")
