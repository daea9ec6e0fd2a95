"""Python ints never overflow; a compiled loop computes them in 64 bits. Where a
Python int in a compiled loop may leave 64 bits, the kernel checks: a loop that
changed nothing Python sees (no array written, no random draw) then runs as
Python, which gives the exact answer; one that wrote arrays raises
OverflowError naming the line. Checks are left out where bounds prove the
result fits (constants, lengths, range counters, sums and products of those),
and a parallel sum of Python ints stays parallel where its terms are small
(a counter). NumPy integers keep NumPy's wrapping. Each case against the
plain function."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same


def factorial(n):
    p = 1
    for i in range(1, n + 1):
        p *= i
    return p


def sum_from(n, k):
    s = k
    for i in range(n):
        s += i
    return s


def powers(n):
    s = 0
    for i in range(n):
        s += 2 ** i
    return s


def shifts(n):
    s = 0
    for i in range(n):
        s = s + (1 << i)
    return s


def negate(n, k):
    s = 0
    for i in range(n):
        s = -k - i
    return s


def products(x, m):
    s = 0
    for i in range(len(x)):
        s = s + i * m
    return s


@pytest.mark.parametrize("fn, args", [
    (factorial, (25,)), (factorial, (20,)), (factorial, (0,)),
    (sum_from, (10, 2**63 - 5)), (sum_from, (10, -2**63 + 5)), (sum_from, (1000, 3)),
    (powers, (70,)), (powers, (63,)), (powers, (20,)),
    (shifts, (70,)), (shifts, (10,)),
    (negate, (3, 2**63 - 1)), (negate, (3, 5)),
    (products, (np.arange(4), 2**62)), (products, (np.arange(4), 3)),
])
def test_python_int_exact(fn, args):
    jit_same(fn, *args)


def test_initial_value_beyond_64_bits_runs_as_python():
    f = jit_same(sum_from, 10, 2**70)
    assert not f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


def count_positive(x):
    c = 0
    for i in range(len(x)):
        if x[i] > 0:
            c += 1
    return c


def test_counter_stays_parallel():
    f = jit_same(count_positive, np.arange(-50, 200))
    r = f.loop_report()[0]
    assert r["kind"] == "parallel" and r["ran"] == "kernel", r
    jit_same(count_positive, np.arange(-50, 200))


def counter_from(x, c):
    for i in range(len(x)):
        if x[i] > 0:
            c += 1
    return c


def test_counter_near_the_limit():
    jit_same(counter_from, np.arange(5), 2**63 - 2)
    jit_same(counter_from, np.arange(5), 2**62 + 1)


def store_products(x, m):
    for i in range(len(x)):
        x[i] = i * m


def test_written_arrays_raise():
    f = numgpu.jit(store_products)
    x = np.zeros(4, np.int64)
    with pytest.raises(OverflowError, match="exceeded 64 bits"):
        f(x, 2**62)
    jit_same(store_products, np.zeros(4, np.int64), 12345)


def index_arith(x, y):
    n = len(x)
    for i in range(n - 1):
        y[i] = x[i + 1] - x[i] + 2 * i


def test_indices_need_no_check():
    f = jit_same(index_arith, np.arange(10.0), np.zeros(10))
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()


def numpy_wraps(x):
    s = np.int64(2**62)
    for i in range(len(x)):
        s += x[i]
    return s


def test_numpy_integers_still_wrap():
    jit_same(numpy_wraps, np.full(4, 2**62, np.int64))
