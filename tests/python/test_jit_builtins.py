"""round() and pow() in @numgpu.jit loops against plain Python (the lowering had them, the
analysis refused them until 2026-12-05: such loops ran as Python), and the Python ints of
NumPy scalars: int()/round()/math.floor() of a uint64 from 2**63 on, which a kernel's
64-bit int cannot hold (OverflowError, numgpu's words), and math.trunc() of a NumPy scalar
other than a float64 or round() of a NumPy bool (Python's TypeError: the loop runs as Python)."""
import math

import numpy as np
import pytest

from numgpu import jit

from helpers import jit_same, python_and_jit


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def both(fn, *args):
    """The exception types (or "ok") of Python's fn and of jit(fn), and the jitted function."""
    want, got, f = python_and_jit(fn, *args)
    return want[0], got[0], f


def rounded(out, x):
    for i in range(len(out)):
        out[i] = round(x[i]) + round(x[i] * 0.5)


def powered(out, x, k):
    for i in range(len(out)):
        out[i] = pow(x[i], k) + pow(2.0, x[i])


def truncated(out, x):
    for i in range(len(out)):
        out[i] = math.trunc(x[i])


def floored(out, x):
    for i in range(len(out)):
        out[i] = math.floor(x[i]) + int(x[i]) + round(x[i])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int8, np.uint64, np.int64])
def test_round_ties_to_even(dt):
    x = (np.arange(-40, 40) * 0.5).astype(dt) if dt in (np.float64, np.float32) else np.arange(60).astype(dt)
    f = jit_same(rounded, np.zeros(len(x), np.int64), x)
    assert ran(f) == ["kernel"]


@pytest.mark.parametrize("bad, exc", [(np.nan, ValueError), (np.inf, OverflowError)])
def test_round_of_nan_and_infinity_raises(bad, exc):
    x = np.linspace(-3, 3, 30)
    x[17] = bad
    want, got, _ = both(rounded, np.zeros(30, np.int64), x)
    assert want is exc and got is exc


@pytest.mark.parametrize("k", [2, 3, 0, -1])
def test_pow(k):
    x = np.linspace(-2, 2, 41)
    want, got = np.zeros(41), np.zeros(41)
    powered(want, x, k)
    f = jit(powered)
    f(got, x, k)
    np.testing.assert_allclose(got, want, rtol=1e-15 * 4)  # (glibc's vector pow: within 4 ulp, README)
    assert ran(f) == ["kernel"]
    want, got, _ = both(powered, np.zeros(41), x.astype(np.int64), k)  # (int ** -1: NumPy's ValueError)
    assert want == got


@pytest.mark.parametrize("dt", [np.float32, np.int64, np.bool_])
def test_trunc_of_a_numpy_scalar_other_than_float64_is_a_type_error(dt):
    want, got, f = both(truncated, np.zeros(5, np.int64), np.ones(5, dt))
    assert want is TypeError and got is TypeError
    jit_same(truncated, np.zeros(5, np.int64), np.linspace(-3, 3, 5))


def test_round_of_a_numpy_bool_is_a_type_error():
    want, got, f = both(rounded, np.zeros(5, np.int64), np.ones(5, np.bool_))
    assert want is TypeError and got is TypeError


def test_python_int_of_a_large_uint64_raises():
    x = np.arange(20, dtype=np.uint64) * 12345
    jit_same(floored, np.zeros(20, np.int64), x)
    x[11] = 2 ** 64 - 3
    want, got, f = both(floored, np.zeros(20, np.int64), x)
    assert want is OverflowError and got is OverflowError  # (Python's: the store; the kernel's: the int)
    assert ran(f) == ["kernel (raised)"]


def chosen(out, w, k):
    for i in range(len(out)):
        out[i] = int(min(k, w[i])) + int(w[i] if i % 3 else k - i)


@pytest.mark.parametrize("k", [-1, -7, 5])
def test_python_int_of_a_choice_between_a_python_int_and_a_uint64(k):
    """min(-1, w[i]) is the Python int -1 (the kernel keeps it as a uint64's bits): int() of it
    is -1; where the uint64 is chosen and past 2**63, OverflowError."""
    w = np.arange(30, dtype=np.uint64) * 7
    f = jit_same(chosen, np.zeros(30, np.int64), w, k)
    assert ran(f) == ["kernel"]
    w[4] = 2 ** 64 - 3  # (in Python a big int, too big to store)
    want, got, f = both(chosen, np.zeros(30, np.int64), w, k)
    assert want is OverflowError and got is OverflowError


def chosen_from_int_of_a_local(out, M, u):
    for i in range(len(out)):
        s = 0
        for j in range(M.shape[1]):
            s += M[i, j]
        out[i] = int(min(u[i], int(s))) + int(max(rowsum(M, i), u[i]))


def rowsum(X, i):
    s = 0
    for j in range(X.shape[1]):
        s += X[i, j]
    return int(s)


def test_a_python_int_made_by_int_of_a_local_or_returned_by_a_helper_against_a_uint64():
    """int(s) of a NumPy int local, and a helper's `return int(s)`, are Python ints: min() of one
    and a uint64 is the Python int where it is smaller, negative too (2026-12-05: the kernel
    took them for NumPy int64s, chose in uint64 and raised OverflowError, or, through further
    arithmetic, gave other numbers)."""
    M = np.array([[-3, 1], [4, 5], [1, 1], [-9, 2], [0, -1]])
    u = np.array([5, 7, 0, 3, 2], np.uint64)
    f = jit_same(chosen_from_int_of_a_local, np.zeros(5, np.int64), M, u)
    assert ran(f)[0] == "kernel"  # (the inner loop is part of the outer one's kernel)


def cells(out, q, r, ncols, x):
    for k in range(len(out)):
        row, col = divmod(k, ncols)
        q[k], r[k] = divmod(x[k], 2.5)
        out[k] = row * 100 + col


def divmod_of_python_floats(out, t):
    for k in range(len(out)):
        a, b = divmod(float(k) - 3.5, t)
        out[k] = a + b


def divmod_whole(out):
    for k in range(len(out)):
        t = divmod(k, 3)
        out[k] = t[0]


@pytest.mark.parametrize("ncols", [1, 3, -4])
def test_divmod(ncols):
    x = np.linspace(-9, 9, 37)
    f = jit_same(cells, np.zeros(37, np.int64), np.zeros(37), np.zeros(37), ncols, x)
    assert ran(f) == ["kernel"]
    jit_same(cells, np.zeros(37, np.int64), np.zeros(37), np.zeros(37), ncols, x.astype(np.float32))


@pytest.mark.parametrize("t", [2.0, -1.5, 0.0])
def test_divmod_by_a_python_float_that_may_be_zero(t):
    want, got, f = python_and_jit(divmod_of_python_floats, np.zeros(10), t)
    assert want == got
    assert (want[0] is ZeroDivisionError) == (t == 0.0)


def test_divmod_by_zero_ints_and_divmod_used_whole():
    want, got, f = python_and_jit(cells, np.zeros(5, np.int64), np.zeros(5), np.zeros(5), 0, np.ones(5))
    assert want == got and want[0] is ZeroDivisionError
    want, got, f = python_and_jit(divmod_whole, np.zeros(5, np.int64))
    assert want == got == ("ok", "")
    assert "divmod" in ran(f)[0]


def chosen_of_three(out, w, u, k):
    for i in range(len(out)):
        out[i] = int(min(k, w[i], abs(u[i])))


@pytest.mark.parametrize("k", [-1, 3, 100])
def test_a_choice_compared_again(k):
    """min(k, w[i], u[i]): Python compares the chosen object (-1, a Python int) with u[i]; the
    kernel's choice holds -1 as a uint64's bits, which compared as 2**64 - 1 (jit_difftest seed
    240736, 2026-12-05): such a comparison leaves the loop to Python."""
    w = np.arange(20, dtype=np.uint64) * 3
    u = (np.arange(20) * 7 % 50).astype(np.uint8)
    f = jit_same(chosen_of_three, np.zeros(20, np.int64), w, u, k)
    assert "chosen between a Python int and a NumPy uint64" in ran(f)[0]


def argmin_from_a_big_int(u, s):
    at = -1
    for i in range(u.shape[0]):
        if u[i] < s:
            s = u[i]
            at = i
    return s, at


def test_a_python_int_the_loops_type_cannot_hold_runs_as_python():
    """s starts as a Python int and becomes u's uint8: the kernel types s as a uint8 for the
    whole loop, and 1000 is none (2026-12-05: NumPy's OverflowError from the cell; found by
    jit_difftest seed 370178). The loop runs as Python, which compares 1000 with a uint8."""
    u = np.array([7, 3, 9, 3], np.uint8)
    f = jit_same(argmin_from_a_big_int, u, 1000)
    assert f.loop_report()[0]["ran"].startswith("python: 's' holds a Python int")
    f = jit_same(argmin_from_a_big_int, u, 200)
    assert f.loop_report()[0]["ran"] == "kernel"


def float_functions_of_ints(a, b, out):
    for i in range(a.shape[0]):
        out[i, 0] = np.sqrt(a[i]) * 1000
        out[i, 1] = np.arctan2(a[i], b[i]) * 1000
        out[i, 2] = np.log1p(a[i]) * 1000
        out[i, 3] = np.hypot(a[i], b[i]) * 1000


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.bool_])
def test_float_functions_of_bytes_compute_in_float16_as_numpys(dt):
    """NumPy's float functions of bools and 8-bit ints give float16 (of 16-bit ints float32):
    np.sqrt(np.int8(2)) is 1.414 to float16's 11 bits (before 2026-12-05, float32's here)."""
    a = (np.arange(1, 40) % (2 if dt is np.bool_ else 100)).astype(dt)
    b = (np.arange(39) % (2 if dt is np.bool_ else 7)).astype(dt)
    jit_same(float_functions_of_ints, a, b, np.zeros((39, 4)))
