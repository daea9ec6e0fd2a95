"""pow(a, b, m) of Python ints compiles (src/jit/lower.c pow_mod) where b and m are the same in
the whole loop: square and multiply modulo |m|, the result of m's sign, as CPython's. A
modulus from 2**32 on or a negative exponent (a modular inverse) runs the loop as Python;
m == 0 is Python's ValueError; NumPy integers Python's TypeError. Compared with plain Python."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

rng = np.random.default_rng(17)


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def powmods(a, out, b, m):
    for i in range(len(a)):
        out[i] = pow(int(a[i]), b, m)


def powmod_total(a, b, m):
    t = 0
    for i in range(len(a)):
        t += pow(int(a[i]), b, m) * (i + 1)
    return t


def powmod_const(a, out):
    for i in range(len(a)):
        out[i] = pow(int(a[i]), 65537, 1000003)


def powmod_numpy(a, out):
    for i in range(len(a)):
        out[i] = pow(a[i], 3, 7)  # (a NumPy integer: Python's TypeError)


@pytest.mark.parametrize("b", [0, 1, 2, 5, 63, 1000, 2 ** 40 + 3, 2 ** 63 - 1])
@pytest.mark.parametrize("m", [1, -1, 2, 7, -7, 1000000007, -1000003, 2 ** 32 - 1, -(2 ** 32 - 1)])
def test_pow_mod(b, m):
    a = rng.integers(-10 ** 12, 10 ** 12, 40)
    a[:4] = [0, 1, -1, m]
    f = jit_same(powmods, a, np.zeros(40, np.int64), b, m)
    assert kinds(f) == ["parallel"]
    jit_same(powmod_total, a, b, m)


def test_pow_mod_constants():
    a = rng.integers(0, 2 ** 62, 100)
    assert kinds(jit_same(powmod_const, a, np.zeros(100, np.int64))) == ["parallel"]


@pytest.mark.parametrize("b, m", [(-1, 7), (-3, 1000003), (5, 2 ** 32), (5, -(2 ** 40)), (3, 2 ** 62 + 1)])
def test_runs_as_python(b, m):
    a = rng.choice([1, 3, 5], 20)  # (invertible modulo every modulus here)
    f = jit_same(powmods, a, np.zeros(20, np.int64), b, m)
    assert kinds(f) == ["python"]


def test_errors():
    a = np.array([3, 4])
    py, me, _ = python_and_jit(powmods, a, np.zeros(2, np.int64), 2, 0)
    assert py[0] is ValueError and me == py
    py, me, _ = python_and_jit(powmods, np.array([2, 4]), np.zeros(2, np.int64), -1, 8)  # (no inverse)
    assert py[0] is ValueError and me[0] is ValueError
    py, me, _ = python_and_jit(powmod_numpy, a, np.zeros(2, np.int64))
    assert py[0] is TypeError and me[0] is TypeError
