"""A Python int compared with a Python float in a compiled loop compares the
exact values, as Python does (not in float64, where an int beyond 2**53
rounds: 2**53 + 1 == 2.0**53 would hold). Every operator, both orders, ints
near 2**53, 2**62 and -2**63, floats integral or not, beyond int64, infinite
and NaN, against the plain function."""
import math

import numpy as np
import pytest

import numgpu


def counts(n0, f):
    c = np.zeros(12, np.int64)
    for i in range(n0, n0 + 4):
        c[0] += i == f
        c[1] += i != f
        c[2] += i < f
        c[3] += i <= f
        c[4] += i > f
        c[5] += i >= f
        c[6] += f == i
        c[7] += f != i
        c[8] += f < i
        c[9] += f <= i
        c[10] += f > i
        c[11] += f >= i
    return c


def from_array(x, f, out):
    for i in range(len(x)):
        v = int(x[i])
        out[i] = (v == f) + 2 * (v < f) + 4 * (v > f) + 8 * (f <= v)


def chained(x, lo, hi):
    c = 0
    for i in range(len(x)):
        if lo <= int(x[i]) < hi:
            c += 1
    return c


INTS = [0, 3, -5, 2**53 - 2, 2**53, -2**53 - 3, 2**62, 2**63 - 8, -2**63, -2**63 + 2]
FLOATS = [0.0, -0.0, 2.5, -5.5, 2.0**53, 2.0**53 + 2, -2.0**53 - 4, 2.0**62, 2.0**63, -2.0**63, 1e300,
          -1e300, math.inf, -math.inf, math.nan, 4.5e15 + 0.5]


@pytest.mark.parametrize("n0", INTS)
def test_counter_against_float(n0):
    jf = numgpu.jit(counts)
    for f in FLOATS:
        if n0 + 4 > 2**63 - 1:
            continue
        np.testing.assert_array_equal(jf(n0, f), counts(n0, f), err_msg="%r %r" % (n0, f))
    if abs(n0) < 2**61:  # (beyond, the launch runs the loop as Python: MAG_PARAM)
        assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


def test_array_ints_against_float():
    x = np.array([2**53, 2**53 + 1, 2**53 + 2, -2**63, 2**63 - 1, 5, -7, 2**62 + 1], np.int64)
    jf = numgpu.jit(from_array)
    for f in FLOATS:
        want, got = np.zeros(len(x)), np.zeros(len(x))
        from_array(x, f, want)
        jf(x, f, got)
        np.testing.assert_array_equal(got, want, err_msg=repr(f))
    assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


def literals(x, out):
    for i in range(len(x)):
        v = int(x[i])
        out[i] = ((v < 2.5) + 2 * (v <= -2.5) + 4 * (v > 3.0) + 8 * (v >= -3.5) + 16 * (v == 4.0) +
                  32 * (v != 4.5) + 64 * (2.5 < v) + 128 * (9007199254740994.0 == v) + 256 * (-0.0 >= v))


def test_literals():
    x = np.array([-4, -3, -2, 0, 2, 3, 4, 5, 2**53, 2**53 + 1, 2**53 + 2, -2**63], np.int64)
    want, got = np.zeros(len(x)), np.zeros(len(x))
    literals(x, want)
    jf = numgpu.jit(literals)
    jf(x, got)
    np.testing.assert_array_equal(got, want)
    assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


def test_chained():
    x = np.array([2**53, 2**53 + 1, 2**53 + 2, 2**53 + 3], np.int64)
    jf = numgpu.jit(chained)
    for lo, hi in [(2.0**53, 2.0**53 + 2), (2.0**53 + 0.5, 2.0**53 + 4), (-math.inf, math.nan)]:
        assert jf(x, lo, hi) == chained(x, lo, hi), (lo, hi)
