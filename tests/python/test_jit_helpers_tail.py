"""Helper functions with early returns, called from a compiled loop, against
plain Python. A helper is inlined at its call site; where every return ends
an if-branch (or the body) and at most one branch of each such if falls
through, the code after the if moves into that branch and the helper reads as
plain if/else in the kernel. Other shapes (an if whose two branches both fall
through to more code, after a return nested inside it) keep the general form:
a one-trip block left at each return. Both must give Python's answer, on every
dtype the helper sees, and the loop must still run as a kernel."""
import numpy as np
import pytest

from helpers import jit_same, python_and_jit

rng = np.random.default_rng(17)


def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def bucket(v):
    if v < -1:
        return 0
    elif v < 0:
        return 1
    elif v < 1:
        return 2
    else:
        return 3


def nested(v, t):
    if v > 0:
        if v > t:
            return v - t
        return v * 2
    if v < -t:
        return -t
    return v


def sign_abs(v):
    if v >= 0:
        return v
    else:
        return -v


def scaled(v):
    # the first if has no return: it just falls into the returning one
    if v > 0:
        x = v * 2
    else:
        x = v * 3
    if x > 1:
        return x
    return -x


def both_fall_through(v):
    # an if whose branches both reach `return v + 1`, with a return inside:
    # not inlined as if/else, the general form must still be right
    if v > 0:
        if v > 5:
            return 5
        v = v * 2
    else:
        v = -v
    return v + 1


def smoothstep(e0, e1, x):
    t = clamp((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def put_positive(out, i, v):
    if v < 0:
        return
    out[i] = v


def bump(out, i):
    out[i] += 1  # falls off the end: returns None


def apply_clamp(x, out, lo, hi):
    for i in range(x.shape[0]):
        out[i] = clamp(x[i], lo, hi)


def apply_bucket(x, out):
    for i in range(x.shape[0]):
        out[i] = bucket(x[i])


def apply_nested(x, out, t):
    for i in range(x.shape[0]):
        out[i] = nested(x[i], t) + sign_abs(x[i])


def apply_scaled(x, out):
    for i in range(x.shape[0]):
        out[i] = scaled(x[i]) - both_fall_through(x[i])


def apply_smoothstep(x, out):
    for i in range(x.shape[0]):
        out[i] = smoothstep(-1.0, 1.0, x[i]) + clamp(x[i], -2.0, 2.0)


def apply_effects(x, out, hits):
    for i in range(x.shape[0]):
        put_positive(out, i, x[i])
        bump(hits, i)


def sum_clamped(x, lo, hi):
    s = 0.0
    for i in range(x.shape[0]):
        s += clamp(x[i], lo, hi)
    return s


def values(dtype, n=1001):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(n) * 4).astype(dtype)
    return rng.integers(-9, 10, n).astype(dtype)


def ran_as_kernel(f):
    report = f.loop_report()
    assert all(r["ran"] == "kernel" for r in report), report


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32, np.float64])
def test_sequential_ifs(dtype):
    x = values(dtype)
    ran_as_kernel(jit_same(apply_clamp, x, np.zeros_like(x), -2, 3))


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_elif_chain(dtype):
    x = values(dtype)
    ran_as_kernel(jit_same(apply_bucket, x, np.zeros(x.shape[0], np.int64)))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_nested_returns_and_returns_in_both_branches(dtype):
    x = values(dtype)
    ran_as_kernel(jit_same(apply_nested, x, np.zeros_like(x), 3))


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_code_before_the_returning_if_and_branches_that_both_fall_through(dtype):
    x = values(dtype)
    ran_as_kernel(jit_same(apply_scaled, x, np.zeros_like(x)))


def test_helper_calling_a_helper():
    x = rng.standard_normal(2000) * 3
    f = jit_same(apply_smoothstep, x, np.zeros_like(x))
    ran_as_kernel(f)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_helpers_that_write_arrays_with_a_bare_return_or_none(dtype):
    # a bare return, a helper falling off the end: writes through the helpers'
    # parameters, which the analysis follows to the loop's arrays
    x = values(dtype)
    f = jit_same(apply_effects, x, np.full_like(x, 7), np.zeros(x.shape[0], np.int64))
    ran_as_kernel(f)
    assert f.loop_report()[0]["kind"] == "parallel"


def test_in_a_reduction():
    # halves and quarters: every partial sum is exact, in any order
    x = rng.integers(-40, 40, 5000) / 4.0
    f = jit_same(sum_clamped, x, -2.5, 3.75)
    ran_as_kernel(f)
    assert f.loop_report()[0]["reductions"] == [("s", "+")]


def test_edges_of_the_conditions():
    # values on the thresholds themselves, where < and <= part
    x = np.array([-2, -1, 0, 1, 2, 3, 4, 5, 6, -3], np.int64)
    ran_as_kernel(jit_same(apply_clamp, x, np.zeros_like(x), -1, 5))
    ran_as_kernel(jit_same(apply_bucket, x.astype(np.float64), np.zeros(x.shape[0], np.int64)))
    ran_as_kernel(jit_same(apply_nested, x, np.zeros_like(x), 3))
    ran_as_kernel(jit_same(apply_scaled, x, np.zeros_like(x)))


# ---- helpers returning several values (2026-12-05: `p, q = h(x)` left the loop to Python) ----

def rotate(x, y, c, s):
    return c * x - s * y, s * x + c * y


def quot_rem(a, b):
    if b == 0:
        return 0, a
    return a // b, a % b


def spread(v):
    return v, v * 2, v * 3.5


def uses_tuples(x, y, out, q, r, k, c, s):
    for i in range(len(x)):
        px, py = rotate(x[i], y[i], c, s)
        out[i] = px * py
        q[i], r[i] = quot_rem(i, k - i % 3)
        a, b, d = spread(x[i])
        out[i] += a + b + d


def one_value_of_a_tuple(x, out):
    for i in range(len(x)):
        t = spread(x[i])
        out[i] = t[0]


def too_few_names(x, out):
    for i in range(len(x)):
        a, b = spread(x[i])
        out[i] = a


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32])
def test_helpers_returning_tuples(dt):
    x = (np.linspace(-4, 4, 41) * 3).astype(dt)
    y = (np.linspace(1, 3, 41) * 2).astype(dt)
    f = jit_same(uses_tuples, x, y, np.zeros(41), np.zeros(41, np.int64), np.zeros(41, np.int64), 2, 0.8, 0.6)
    assert [r["ran"] for r in f.loop_report()] == ["kernel"]


@pytest.mark.parametrize("fn", [one_value_of_a_tuple, too_few_names])
def test_what_a_kernel_does_not_take_of_a_returned_tuple_runs_as_python(fn):
    want, got, f = python_and_jit(fn, np.linspace(0, 1, 5), np.zeros(5))
    assert want == got
    assert "not supported" in f.loop_report()[0]["ran"]
