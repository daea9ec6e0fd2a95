"""A name Python rebinds to a value of another type holds each value with its
own type: `prev = 0.0`, then `prev = x[i]` of an int64 x, is an np.int64 (past
2**53 exactly), and max(m, x[i]) is the chosen object itself. The jit compiles
such a loop only where the kernel's one type per name gives Python's values and
types; elsewhere the loop stays Python, with the reason in loop_report. Each
case against the plain function."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same

BIG = np.array([2**53 + 1, 3, 2**60 + 7, 2**53 + 5], np.int64)


def carried_prev(x, out):
    prev = 0.0
    for i in range(len(x)):
        out[i] = x[i] - prev
        prev = x[i]
    return prev


def max_builtin(x):
    m = -math.inf
    for i in range(len(x)):
        m = max(m, x[i])
    return m


def max_if(x):
    m = -math.inf
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
    return m


def last_only(x):
    prev = 0.0
    for i in range(len(x)):
        prev = x[i]
    return prev


def int_to_bool(x):
    b = 0
    for i in range(len(x)):
        b = x[i] > 0
    return b


def cond_int_to_float(x):
    s = 0
    for i in range(len(x)):
        if x[i] > 100:
            s = x[i]
    return s


def bool_to_int(x):
    b = False
    for i in range(len(x)):
        b = x[i]
    return b


@pytest.mark.parametrize("fn", [max_builtin, max_if, last_only])
def test_float_then_int64(fn):
    f = jit_same(fn, BIG.copy())
    jit_same(fn, np.arange(-5, 5))
    report = f.loop_report()[0]
    assert report["kind"] == "python" and ("'m'" in report["reason"] or "'prev'" in report["reason"]), report


def test_carried_float_then_int64():
    jit_same(carried_prev, BIG.copy(), np.zeros(4, np.int64))
    jit_same(carried_prev, np.arange(10.0), np.zeros(10))


def test_int_then_bool():
    jit_same(int_to_bool, np.arange(-3, 3))


def test_never_assigned_keeps_type():
    """s = 0 and s = x[i] only under an if no element passes: Python's int 0 stays."""
    f = jit_same(cond_int_to_float, np.arange(5.0))
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    jit_same(cond_int_to_float, np.arange(95.0, 105.0))


def test_same_types_still_compile():
    jit_same(bool_to_int, BIG.copy())
    f = jit_same(max_builtin, np.arange(5.0))
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()
    f = jit_same(max_builtin, np.arange(5, dtype=np.float32) / 3)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


# max()/min() of two NumPy values of different dtypes is the chosen object:
# arithmetic on it is the chosen dtype's (int8 wraps).

def max_mixed_times(a, b, out):
    for i in range(len(a)):
        out[i] = max(a[i], b[i]) * 2


def max_mixed_name(a, b):
    m = 0
    for i in range(len(a)):
        m = max(a[i], b[i])
    return m


def max_mixed_store(a, b, out):
    for i in range(len(a)):
        out[i] = max(a[i], b[i])


def ternary_mixed(x):
    s = 0
    for i in range(len(x)):
        s += 1 if x[i] > 0 else 0.5
    return s


A8 = np.array([100, -5, 120, 7], np.int8)
B64 = np.array([3, 2**40, -9, 5], np.int64)


def test_max_mixed_int_dtypes():
    with np.errstate(over="ignore"):
        jit_same(max_mixed_times, A8.copy(), B64.copy(), np.zeros(4, np.int64))
        jit_same(max_mixed_name, A8.copy(), B64.copy())
        jit_same(max_mixed_name, B64.copy(), A8.copy())


def test_max_mixed_store_compiles():
    f = jit_same(max_mixed_store, A8.copy(), B64.copy(), np.zeros(4, np.int64))
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()


def test_ternary_int_or_float():
    jit_same(ternary_mixed, np.arange(1.0, 6.0))
    jit_same(ternary_mixed, np.arange(-3.0, 3.0))


# A name the loop may leave as it was (an update under an if, max() that keeps
# its first argument): Python's object stays, in its own type.

def cond_sum(x):
    s = 0
    for i in range(len(x)):
        if x[i] > 100:
            s += x[i]
    return s


def argmax_from_zero(x):
    best = 0
    k = -1
    for i in range(len(x)):
        if x[i] > best:
            best = x[i]
            k = i
    return best, k


def min_from_ten(x):
    m = 10
    for i in range(len(x)):
        m = min(m, x[i])
    return m


def running_max(x, out):
    s = 0
    for i in range(len(x)):
        s = max(s, x[i])
        out[i] = s
    return s


def triangle_sum(x):
    s = 0
    for i in range(len(x)):
        for j in range(i):
            s += x[j]
    return s


@pytest.mark.parametrize("x", [np.arange(5.0), np.arange(95.0, 105.0), -np.arange(1.0, 4.0), np.arange(1.0),
                               np.arange(20.0, 30.0), np.arange(5, dtype=np.int32), np.arange(100000.0) - 5])
@pytest.mark.parametrize("fn", [cond_sum, argmax_from_zero, min_from_ten, triangle_sum])
def test_reduction_that_may_keep_its_object(fn, x):
    if fn is triangle_sum:
        x = x[:50]
    f = jit_same(fn, x)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


@pytest.mark.parametrize("n", [0, 1, 3, 100000])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64])
def test_running_max_from_zero(n, dtype):
    x = (np.arange(n) % 7).astype(dtype)
    jit_same(running_max, x, np.zeros(n, dtype))
    jit_same(running_max, x[::-1].copy() * 0, np.zeros(n, dtype))
