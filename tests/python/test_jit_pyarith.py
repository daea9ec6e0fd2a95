"""Arithmetic of Python numbers in compiled loops raises where Python does:
ZeroDivisionError for `/ // %` by zero and for 0.0 ** a negative number,
OverflowError for a float power beyond float64; and where Python's result
has another type (a negative float ** a fractional one is complex, an int **
a negative int a float) the loop never gives a wrong value. Where the
operands are the same in every iteration (`i / k`, k a number the loop does
not assign), the kernel checks them before it runs anything and the loop
runs as Python instead: Python's own exception, at the iteration it comes,
or Python's own value. Where they change from one iteration to the next
(`1.0 / (i - 3)`) the kernel records the first failure and the host raises
after the launch, naming the line. NumPy values (array elements) keep
NumPy's answers (inf, nan, 0) and never raise, as in NumPy; a NumPy integer
** a negative integer raises NumPy's ValueError. Each case is compared with
plain Python."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, outcome




def same_outcome(fn, *args, ran="kernel", words=True):
    """numgpu.jit(fn) against fn: the same value and arrays, or the same
    exception with Python's words and (raised by a kernel) the line. `ran`:
    how the loop must have run ("kernel", or "python": checked before it)."""
    want = outcome(fn, *args)
    f = numgpu.jit(fn)
    got = outcome(f, *args)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert type(got[1]) is type(want[1]), (got, want)  # (pow within a few ulps on PoCL)
        if want[1] is not None:
            assert got[1] == pytest.approx(want[1], rel=1e-14, nan_ok=True), (got, want)
        for g, w in zip(got[2], want[2]):
            if isinstance(w, np.ndarray):
                np.testing.assert_array_equal(g, w)
    elif words:
        assert want[1] in got[1], (got, want)
    if want[0] != "ok" and ran == "python":  # Python ran it: its writes before the exception too
        for g, w in zip(got[2], want[2]):
            if isinstance(w, np.ndarray):
                np.testing.assert_array_equal(g, w)
    report = f.loop_report()[0]["ran"]
    assert report.startswith(ran) if ran == "kernel" else not report.startswith("kernel"), f.loop_report()
    return got, f


def int_div_by(n, k):
    s = 0
    for i in range(n):  # parallel reduce(+:s)
        s += i // k + i % k
    return s


def int_div_moving(n):
    s = 0
    for i in range(n):
        s += 100 // (i - 3)
    return s


def float_div_by(out, k):
    for i in range(out.shape[0]):  # parallel
        out[i] = i / k


def float_div_moving(out):
    for i in range(out.shape[0]):
        out[i] = 1.0 / (i - 3)


def float_floor_mod(n, k):
    s = 0.0
    for i in range(n):
        s += (i + 0.5) // k + (i + 0.5) % k
    return s


def complex_div(n, z):
    s = 0j
    for i in range(n):
        s += (i + 1j) / z
    return s


def div_in_branch(n, k):
    s = 0.0
    for i in range(n):
        if k != 0:
            s += i / k
        else:
            s += i
    return s


def counted_from_one(n):
    s = 0.0
    for i in range(1, n):
        s += 1.0 / i + 7 // i
    return s


def writes_then_divides(out, k):
    for i in range(out.shape[0]):
        out[i] = 1.0
        out[i] = 10 // k + i


def writes_then_divides_moving(out, k):
    for i in range(out.shape[0]):
        out[i] = 1.0
        out[i] = 10 // (k - i)


def numpy_values(x, out, k):
    for i in range(x.shape[0]):
        out[i] = x[i] / k + k / x[i]


def numpy_ints(x, out, k):
    for i in range(x.shape[0]):
        out[i] = x[i] // k + x[i] % k


def while_div(n, k):
    s = 0.0
    i = 0
    while i < n:
        s += i / k
        i += 1
    return s


def zero_power(n, e):
    s = 0.0
    for i in range(n):
        s += (i - 2.0) ** e
    return s


def root_of(n, c):
    s = 0.0
    for i in range(n):
        s += c ** 0.5 + i
    return s


def root_moving(n, c):
    s = 0.0
    for i in range(n):
        s += (i - c) ** 0.5
    return s


def int_power(n, e):
    s = 0
    for i in range(1, n):
        s += i ** e
    return s


def int_power_moving(n):
    s = 0
    for i in range(n):
        s += 2 ** (i - 2)
    return s


def float_power_overflow(n, b):
    s = 0.0
    for i in range(n):
        s += b ** (i * 100.0)
    return s


def square_overflow(n, b):
    s = 0.0
    for i in range(n):
        v = b * (i + 1)
        s += v ** 2
    return s


def numpy_int_power(x, out, e):
    for i in range(x.shape[0]):
        out[i] = x[i] ** e


def test_integer_division_and_modulo_by_a_zero_python_int():
    same_outcome(int_div_by, 100, 7)
    same_outcome(int_div_by, 100, -7)
    got, _ = same_outcome(int_div_by, 100, 0, ran="python")  # Python's own ZeroDivisionError
    assert got[0] is ZeroDivisionError
    same_outcome(int_div_by, 0, 0, ran="python")  # no iteration: Python's 0 (checked before the loop)
    got, _ = same_outcome(int_div_moving, 10)  # 100 // 0 at i == 3: from the kernel, naming the line
    assert got[0] is ZeroDivisionError and ".py:" in got[1]
    same_outcome(int_div_moving, 3)  # never reaches i == 3


def test_float_division_by_zero_python_numbers():
    got, f = same_outcome(float_div_by, np.zeros(50), 0, ran="python")
    assert got[0] is ZeroDivisionError
    assert "ZeroDivisionError" in f.loop_report()[0]["ran"]
    same_outcome(float_div_by, np.zeros(50), 0.0, ran="python")
    same_outcome(float_div_by, np.zeros(50), 4)
    same_outcome(float_div_by, np.zeros(0), 0, ran="python")
    got, _ = same_outcome(float_div_moving, np.zeros(9))
    assert got[0] is ZeroDivisionError and "float division by zero" in got[1] and ".py:" in got[1]
    same_outcome(float_div_moving, np.zeros(3))


def test_float_floor_division_and_modulo_and_complex_division():
    same_outcome(float_floor_mod, 20, 0.75)
    same_outcome(float_floor_mod, 20, -2.5)
    same_outcome(float_floor_mod, 20, 0.0, ran="python")
    same_outcome(float_floor_mod, 20, 0, ran="python")
    same_outcome(complex_div, 5, 2 - 1j)
    got, _ = same_outcome(complex_div, 5, 0j, ran="python")
    assert got[0] is ZeroDivisionError


def test_a_zero_divisor_in_a_branch_never_taken_gives_pythons_value():
    same_outcome(div_in_branch, 30, 3)
    same_outcome(div_in_branch, 30, 0, ran="python")  # (checked before the loop: the loop runs as Python)


def test_counters_from_one_need_no_check():
    jit_same(counted_from_one, 1000)


def test_python_raises_after_the_iterations_before_and_arrays_show_them():
    # Python writes out[0] = 1.0, then raises: the loop runs as Python, so the same here
    got, _ = same_outcome(writes_then_divides, np.zeros(10), 0, ran="python")
    assert got[0] is ZeroDivisionError
    same_outcome(writes_then_divides, np.zeros(10), 3)
    # 10 // 0 at i == 5, in the kernel: the exception after it ran (the other iterations too)
    got, _ = same_outcome(writes_then_divides_moving, np.zeros(10), 5)
    assert got[0] is ZeroDivisionError
    same_outcome(writes_then_divides_moving, np.zeros(5), 5)


def test_numpy_values_keep_numpys_answers():
    x = np.array([1.0, 0.0, -2.0, 4.0])
    jit_same(numpy_values, x, np.zeros(4), 0)   # inf and nan, as NumPy
    jit_same(numpy_values, x, np.zeros(4), 0.0)
    jit_same(numpy_ints, np.array([5, -3, 0, 8]), np.zeros(4, np.int64), 0)  # 0, as NumPy


def test_a_while_loop_dividing_by_a_zero_python_number():
    same_outcome(while_div, 10, 4)
    same_outcome(while_div, 10, 0, ran="python")
    same_outcome(while_div, 0, 0, ran="python")


def test_zero_to_a_negative_power():
    same_outcome(zero_power, 5, 2.0)
    same_outcome(zero_power, 5, 3)
    got, _ = same_outcome(zero_power, 5, -1.0)  # (i - 2.0) == 0.0 at i == 2
    assert got[0] is ZeroDivisionError and "negative power" in got[1]
    same_outcome(zero_power, 2, -1.0)


def test_a_negative_float_to_a_fractional_power():
    # the same in every iteration: the loop runs as Python, whose value is complex
    _, f = same_outcome(root_of, 3, -8.0, ran="python")
    same_outcome(root_of, 3, 8.0)
    # from one iteration to the next: a clear ValueError rather than NumPy's nan
    same_outcome(root_moving, 5, -1.0)
    f = numgpu.jit(root_moving)
    with pytest.raises(ValueError, match="complex number in Python"):
        f(5, 2.5)
    assert isinstance(root_moving(5, 2.5), complex)


def test_integer_powers_follow_python():
    same_outcome(int_power, 6, 3)
    same_outcome(int_power, 6, 0)
    got, _ = same_outcome(int_power, 6, -1, ran="python")  # floats in Python: the loop runs as Python
    assert got[0] == "ok" and isinstance(got[1], float)
    f = numgpu.jit(int_power_moving)
    with pytest.raises(ValueError, match="float in Python"):
        f(5)  # 2 ** -2 is 0.25 in Python: never an int here
    same_outcome(int_power_moving, 0)


def test_float_power_overflow():
    same_outcome(float_power_overflow, 3, 1.5)
    got, _ = same_outcome(float_power_overflow, 5, 10.0)  # 10.0 ** 400.0: OverflowError
    assert got[0] is OverflowError
    same_outcome(square_overflow, 4, 1e100)
    got, _ = same_outcome(square_overflow, 4, 1e200)
    assert got[0] is OverflowError


def test_numpy_integers_to_negative_powers():
    x = np.array([1, 2, 3], np.int64)
    same_outcome(numpy_int_power, x, np.zeros(3, np.int64), 2)
    got, _ = same_outcome(numpy_int_power, x, np.zeros(3, np.int64), -1, ran="python")
    assert got[0] is ValueError


def shift_by(n, k):
    s = 0
    for i in range(n):
        s += (i << k) + (i >> k)
    return s


def shift_moving(n):
    s = 0
    for i in range(n):
        s += 1 << (i - 3)
    return s


def test_a_shift_by_a_negative_count():
    same_outcome(shift_by, 50, 3)
    got, _ = same_outcome(shift_by, 50, -1, ran="python")
    assert got[0] is ValueError
    got, _ = same_outcome(shift_moving, 10)
    assert got[0] is ValueError and "negative shift count" in got[1]
    same_outcome(shift_moving, 0)


def sqrt_of(out, c):
    for i in range(out.shape[0]):
        out[i] = 1.0
        out[i] = math.sqrt(c) + i


def sqrt_guarded(out, c):
    for i in range(out.shape[0]):
        if c >= 0:
            out[i] = math.sqrt(c)
        else:
            out[i] = -1.0


def test_math_errors_the_same_in_every_iteration_run_the_loop_as_python():
    same_outcome(sqrt_of, np.zeros(20), 4.0)
    got, f = same_outcome(sqrt_of, np.zeros(20), -1.0, ran="python")  # out[0] = 1.0, then Python raises
    assert got[0] is ValueError and "ValueError" in f.loop_report()[0]["ran"]
    same_outcome(sqrt_guarded, np.zeros(20), -1.0, ran="python")  # never taken: Python's values
    same_outcome(sqrt_guarded, np.zeros(20), 9.0)


def midpoint_pi(n):
    h = 1.0 / n
    s = 0.0
    for i in range(n):
        x = (i + 0.5) * h
        s += 4.0 / (1.0 + x * x)  # >= 1: no check needed
    return s * h


def over_square(n, c):
    s = 0.0
    for i in range(n):
        x = i - c
        s += 1.0 / (x * x)  # 0 where i == c: Python raises
    return s


def test_divisors_bounded_away_from_zero_and_squares_that_reach_it():
    f = numgpu.jit(midpoint_pi)
    assert f(100_000) == pytest.approx(midpoint_pi(100_000), rel=1e-12)
    same_outcome(over_square, 10, 0.5)
    got, _ = same_outcome(over_square, 10, 4)
    assert got[0] is ZeroDivisionError


def first_over(x, k):
    pos = -1
    for i in range(x.shape[0]):  # a search
        if i / k > 3:
            pos = i
            break
    return pos


def test_a_search_dividing_by_a_zero_python_number_says_why_it_ran_as_python():
    same_outcome(first_over, np.zeros(100), 2)
    got, f = same_outcome(first_over, np.zeros(100), 0, ran="python")
    assert got[0] is ZeroDivisionError
    assert f.loop_report()[0]["search"] and "ZeroDivisionError" in f.loop_report()[0]["ran"], f.loop_report()
