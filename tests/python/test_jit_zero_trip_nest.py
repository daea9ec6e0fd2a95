"""Loops of no iteration inside a nest, and while loops that never run: Python's
names keep their bindings (an int sum's 0 stays a Python int, a name assigned
only in the body stays unbound). The kernel checks the trips of a parallel
nest's perfectly nested rectangular loops before it runs, and a name the loop
hands back in another type than it had comes back only where the loop assigned
it. Each case against the plain function."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same


def nest_sum(x):
    s = 0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            s += x[i, j]
    return s


def nest3_sum(x):
    s = 0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            for k in range(x.shape[2]):
                s += x[i, j, k]
    return s


def nest_last(x):
    t = -1
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            t = x[i, j] * 2
    return t


def triangle_last(x):
    t = 5
    for i in range(len(x)):
        for j in range(i):
            t = x[j]
    return t


def while_sum(x):
    s = 0
    k = 0
    while k < len(x):
        s += x[k]
        k += 1
    return s


def while_last(x):
    s = 0
    k = 0
    while k < len(x):
        s = x[k] * 2
        k += 1
    return s, k


def while_unbound(x):
    k = 0
    while k < len(x):
        t = x[k]
        k += 1
    return t


def nest_unbound(x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            t = x[i, j] * 2
    return t


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (2, 3)])
def test_nest_of_no_inner_iteration(dtype, shape):
    x = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    f = jit_same(nest_sum, x)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    jit_same(nest_last, x)


@pytest.mark.parametrize("shape", [(2, 3, 0), (2, 0, 3), (2, 2, 2)])
def test_three_deep(shape):
    jit_same(nest3_sum, np.ones(shape, np.int64))


@pytest.mark.parametrize("n", [0, 1, 2, 4])
def test_triangle(n):
    jit_same(triangle_last, np.arange(float(n)))


@pytest.mark.parametrize("fn", [while_sum, while_last])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_while_that_never_runs(fn, dtype):
    jit_same(fn, np.zeros(0, dtype))
    jit_same(fn, np.arange(4, dtype=dtype))


@pytest.mark.parametrize("fn,x", [(while_unbound, np.zeros(0)), (nest_unbound, np.zeros((3, 0)))])
def test_name_stays_unbound(fn, x):
    with pytest.raises(UnboundLocalError):
        fn(x.copy())
    with pytest.raises(UnboundLocalError):
        numgpu.jit(fn)(x.copy())
