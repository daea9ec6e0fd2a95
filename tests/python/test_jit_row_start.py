"""sum(row, start) and math.prod(row[, start=s]) compile (src/jit/lower.c python_reduce_from):
start, then each element in order, in NEP 50's types (a Python start takes the row's dtype,
a NumPy one promotes). Of an empty row Python's result is the start itself, of its own type:
where the rows' length is the same in the whole loop such a loop runs as Python (the loop
report says so); a Python int start beyond a narrow row's integers stays Python (NumPy's
OverflowError). Compared with plain Python, value and type, with the loop report's kind."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

rng = np.random.default_rng(3)
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8, np.int8, np.bool_]


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def data(shape, dt):
    if dt is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.integer):
        return rng.integers(0, 4, shape).astype(dt)
    return (rng.normal(size=shape) * 3).astype(dt)


def sums_from(A, out, s):
    for i in range(A.shape[0]):
        out[i] = sum(A[i], s)


def prods(A, out):
    for i in range(A.shape[0]):
        out[i] = math.prod(A[i])


def prods_from(A, out, s):
    for i in range(A.shape[0]):
        out[i] = math.prod(A[i], start=s)


def last_sum(A, s):
    r = None
    for i in range(A.shape[0]):
        r = sum(A[i], s)
    return r


def last_prod(A):
    r = None
    for i in range(A.shape[0]):
        r = math.prod(A[i])
    return r


def window_prod(x, out, w):
    for i in range(len(x) - w):
        out[i] = math.prod(x[i:i + w])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("start", [0, 5, 1.5, -2.25, np.float32(0.5), np.int16(3)])
def test_sum_start(dt, start):
    A = data((9, 13), dt)
    f = jit_same(sums_from, A, np.zeros(9), start)
    assert kinds(f) == ["parallel"]
    jit_same(last_sum, A, start)  # (the result's type: NEP 50's)


@pytest.mark.parametrize("dt", DTYPES)
def test_prod(dt):
    A = data((7, 11), dt)
    assert kinds(jit_same(prods, A, np.zeros(7))) == ["parallel"]
    jit_same(last_prod, A)
    for s in (2, 0.5, np.float64(-1.5)):
        jit_same(prods_from, A, np.zeros(7), s)


def test_prod_wraps_as_numpy():
    A = np.full((3, 40), 7, np.int64)  # 7**40 wraps in int64, as NumPy's scalars do
    with np.errstate(over="ignore"):
        jit_same(last_prod, A)
    A = np.full((3, 9), 9, np.int8)
    with np.errstate(over="ignore"):
        jit_same(last_prod, A)


def test_empty_rows_run_as_python():
    A = np.zeros((4, 0))
    f = jit_same(last_sum, A, 1.5)  # (Python's 1.5, a float, not an np.float64)
    assert kinds(f) == ["python"]
    jit_same(last_prod, A)
    jit_same(last_sum, np.zeros((0, 3)), 2)


def test_start_out_of_range():
    A = data((3, 4), np.int8)
    py, me, _ = python_and_jit(last_sum, A, 1000)
    assert py[0] is OverflowError and me[0] is OverflowError


def test_varying_length_stays_python():
    x = rng.random(30)
    f = jit_same(window_prod, x, np.zeros(30), 4)
    assert kinds(f) == ["python"]
