"""A loop whose range has no iteration has no effect in Python: every name keeps
its binding (an int sum's 0 stays a Python int, a name assigned only in the
body stays unbound, the loop variable keeps its old value). The kernel checks
the outer trip count before it runs and the launch then changes no name. A
range() step of 0 raises Python's ValueError before any iteration. Each case
against the plain function."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same


def int_sum(x):
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


def float_sum(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


def last_value(x):
    t = -1
    for i in range(len(x)):
        t = x[i] * 2
    return t


def loop_variable(x):
    i = 99
    for i in range(len(x)):
        x[i] = i
    return i


def nested(x):
    s = 0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            s += x[i, j]
    return s


def search(x):
    k = -1
    for i in range(len(x)):
        if x[i] > 2:
            k = i
            break
    return k


@pytest.mark.parametrize("fn", [int_sum, float_sum, last_value, loop_variable, search])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64])
def test_no_iteration(fn, dtype):
    f = jit_same(fn, np.zeros(0, dtype))
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    jit_same(fn, np.arange(5, dtype=dtype))


def test_nested_outer_empty():
    jit_same(nested, np.zeros((0, 3), np.int32))
    jit_same(nested, np.arange(6, dtype=np.int32).reshape(2, 3))


def unbound_after(x):
    for i in range(len(x)):
        t = x[i] * 2
    return t


def test_name_stays_unbound():
    f = numgpu.jit(unbound_after)
    with pytest.raises(UnboundLocalError):
        f(np.zeros(0))
    with pytest.raises(UnboundLocalError):
        unbound_after(np.zeros(0))
    assert f(np.arange(3.0)) == unbound_after(np.arange(3.0))


def stepped(x, k):
    s = 0
    for i in range(0, len(x), k):
        s += x[i]
    return s


def stepped_store(x, k):
    for i in range(0, len(x), k):
        x[i] = 1.0


@pytest.mark.parametrize("fn", [stepped, stepped_store])
def test_step_zero_raises(fn):
    f = numgpu.jit(fn)
    with pytest.raises(ValueError, match="must not be zero"):
        fn(np.arange(5), 0)
    with pytest.raises(ValueError, match="must not be zero"):
        f(np.arange(5), 0)
    jit_same(fn, np.arange(7.0), 2)
    jit_same(fn, np.arange(7.0), -1)
