"""A range() whose bounds read a name the loop itself assigns (its own loop
variable after an earlier loop over it, `for i in range(i)`, or a name its
body rebinds) is evaluated once, before the loop, from the values the names
have there, as Python does. Each case against the plain function."""
import numpy as np
import pytest

import numgpu


def _same(fn, mk):
    a, b = mk(), mk()
    want = fn(*a)
    jf = numgpu.jit(fn)
    got = jf(*b)
    assert got == want
    for w, g in zip(a, b):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
    for r in jf.loop_report():
        assert r["ran"].startswith("kernel") or r["ran"] == "not reached yet", jf.loop_report()
    return jf


def own_variable(x, out):
    for i in range(len(x)):
        out[i] = x[i]
    for i in range(i):
        out[i] += 1


def own_variable_down(x, out):
    for i in range(len(x)):
        out[i] = x[i]
    for i in range(i, 0, -1):
        out[i] += i
    return i


def rebinds_bound(x, out, n):
    for i in range(n):
        n = i * 2
        out[i] = n
    return n


def inner_own_variable(x, out):
    for i in range(len(x)):
        j = i
        for j in range(j):
            out[i] += 1.0


@pytest.mark.parametrize("fn", [own_variable, own_variable_down, inner_own_variable])
def test_range_of_own_variable(fn):
    _same(fn, lambda: (np.arange(6.0), np.zeros(6)))


def test_range_of_name_the_body_rebinds():
    _same(rebinds_bound, lambda: (np.arange(6.0), np.zeros(6), 5))
