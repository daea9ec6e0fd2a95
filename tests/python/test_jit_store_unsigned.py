"""A NumPy float stored into an unsigned integer array (F9 of the fourth hunt): NumPy casts it,
on x86-64 through an int64 (an int32 for uint8 and uint16; out of range or NaN the least one)
wrapped to the dtype, into uint64 from 2**63 on through x - 2**63 with the top bit flipped
(1e20 and inf give 0, -1.0 gives 2**64 - 1). C's conversion of an out-of-range float is
undefined (the jit gave UINT64_MAX, GPUs saturate): src/jit/lower.c store_cast computes
NumPy's. A Python float is Python's: a Python int first (OverflowError out of range). Compared
with plain Python + NumPy."""
import warnings

import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

VALUES = np.array([1.5, 1e20, -1.0, -3.7, np.inf, -np.inf, np.nan, 1e19, 2.0 ** 63, 2.0 ** 64, -1e20, 300.7,
                   65537.2, 4294967297.5, -2.0 ** 63, 9.3e18, 0.0, -0.0, 255.9, 2.0 ** 31, -2.0 ** 31 - 1])
UNSIGNED = [np.uint64, np.uint32, np.uint16, np.uint8]


def store(x, out):
    for i in range(len(x)):
        out[i] = x[i]


def store_twice(x, out):
    for i in range(len(x)):
        out[i] = x[i] * 2.0


def add_into(x, out):
    for i in range(len(x)):
        out[i] += x[i]


def store_python(out, v):
    for i in range(len(out)):
        out[i] = v


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NumPy's "invalid value encountered in cast")
        yield


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("src", [np.float64, np.float32, np.float16])
def test_numpy_float_into_unsigned(dt, src):
    x = VALUES.astype(src)
    f = jit_same(store, x, np.zeros(len(x), dt))
    assert [r["kind"] for r in f.loop_report()] == ["parallel"]
    jit_same(store_twice, x, np.zeros(len(x), dt))
    jit_same(add_into, x, np.full(len(x), 7, dt))


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("v", [1e20, -1.0, float("inf"), float("nan"), 3.5])
def test_python_float_into_unsigned(dt, v):
    py, me, _ = python_and_jit(store_python, np.zeros(3, dt), v)
    assert py[0] == me[0]
