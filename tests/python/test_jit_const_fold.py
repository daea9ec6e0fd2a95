"""An int expression of literals inside a loop (2 ** 64, 10 ** 20 // 10 ** 10,
2 ** 63 - 1) is Python's exact int: the lowering folds it, and where the value
needs more than 64 bits the loop stays Python (loop_report says why). Each case
against the plain function."""
import numpy as np
import pytest

from helpers import jit_same


def assign_big(x):
    s = 0
    for i in range(len(x)):
        s = 2 ** 64
    return s


def divide_by_big(x, out):
    for i in range(len(x)):
        out[i] = x[i] / 10 ** 20


def float_times_big(x, out):
    for i in range(len(x)):
        out[i] = x[i] + 2 ** 70 * 0.5


def shifted_big(x):
    s = 0.0
    for i in range(len(x)):
        s += (1 << 64) * 1.0
    return s


def difference_of_big(x):
    s = 0
    for i in range(len(x)):
        s = 3 ** 41 - 3 ** 40
    return s


def big_then_small(x):
    s = 0
    for i in range(len(x)):
        s += 10 ** 20 // 10 ** 10 + (2 ** 63 - 1) % 1000 + (-2) ** 63 // 2 ** 62
    return s


def end_fits(x, out):
    for i in range(len(x)):
        out[i] = 2 ** 63 - 1 + x[i] * 0 - (-2 ** 63 + 1)


@pytest.mark.parametrize("fn", [assign_big, shifted_big, difference_of_big])
def test_beyond_64_bits_stays_python(fn):
    f = jit_same(fn, np.arange(3.0))
    report = f.loop_report()[0]
    assert report["kind"] == "python" and "64 bits" in report["reason"], report


@pytest.mark.parametrize("fn", [divide_by_big, float_times_big])
def test_beyond_64_bits_in_float_arithmetic(fn):
    jit_same(fn, np.arange(3.0), np.zeros(3))


def test_folded_within_64_bits_compiles():
    f = jit_same(big_then_small, np.arange(3.0))
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    with np.errstate(over="ignore"):
        f = jit_same(end_fits, np.arange(3), np.zeros(3, np.int64))
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()
