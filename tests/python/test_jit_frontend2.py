"""Loop bodies the jit's front end compiles since the seventh bug hunt's P02, each against plain
Python on the same data, with the loop's kind checked (a test fails where the loop stays Python):

- round(v, n) with an int n: of a Python float as CPython rounds (the exact decimal value, ties to
  even), of a NumPy float as NumPy's scalar round, of an int itself.
"""
import math
import os

import numpy as np
import pytest

from numgpu import jit

DEVICE = os.environ.get("NUMGPU_DEVICE", "cpu")


def same_floats(p, j):
    """Equal elementwise, NaN equal to NaN, the sign of a zero counted."""
    p, j = np.asarray(p), np.asarray(j)
    return p.dtype == j.dtype and np.array_equal(p, j, equal_nan=True) and \
        np.array_equal(np.signbit(p), np.signbit(j))


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


# ---- round(v, n) ------------------------------------------------------------------------------

def round_floats(x, out, n):
    for i in range(len(x)):
        v = float(x[i])  # (a Python float: CPython's exact decimal rounding)
        out[i] = round(v, n)
    return out


def round_two(x, out):
    for i in range(len(x)):
        out[i] = round(x[i] * 1.0 + 0.0, 2) + round(float(x[i]), 2)
    return out


def round_numpy(x, out):
    for i in range(len(x)):
        out[i] = round(x[i], 2)  # (np.float64's round: NumPy's, 2.675 -> 2.68)
    return out


def round_ints(a, out):
    for i in range(len(a)):
        out[i] = round(int(a[i]), 3) + round(a[i], 1)
    return out


def round_data():
    rng = np.random.default_rng(0)
    v = [2.675, 0.125, 1.005, 0.285, -2.675, -0.125, 2.5, 3.5, -0.5, 0.5, 1.5, 0.045, 1e300, -1e-300, 5e-324,
         0.0, -0.0, math.nan, math.inf, -math.inf, 123456.785, 9007199254740993.0, 4503599627370497.5,
         1234567.5, 12345678912345.675, 1.7976931348623157e308]
    v += [k / 8 for k in range(-100, 100)] + [k / 1000 for k in range(-3000, 3000)] + [k * 50.0 for k in range(-200, 200)]
    v += list(rng.standard_normal(5000) * 10.0 ** rng.integers(-30, 30, 5000))
    v += list(np.round(rng.random(5000) * 1000, 3)) + list(np.round(rng.random(5000), 5) + 0.000005)
    return np.array(v)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 15, 17, 22, -1, -2, -3, -5, -15, -22, 400, -400])
def test_round_python_float_matches_cpython(n):
    x = round_data()
    if n < -300:
        x = x[np.abs(x) < 1e300]  # (CPython's OverflowError of round(1.8e308, -305) aside)
    f = jit(round_floats)
    got = f(x, np.zeros_like(x), n)
    assert same_floats(round_floats(x, np.zeros_like(x), n), got)
    assert kinds(f) == ["parallel"], f.loop_report()
    assert got[0] == round(2.675, n) if abs(n) < 300 else True


@pytest.mark.parametrize("n", [23, -23, 100])
def test_round_python_float_beyond_22_digits_runs_as_python(n):
    x = round_data()[:500]
    f = jit(round_floats)
    assert same_floats(round_floats(x, np.zeros_like(x), n), f(x, np.zeros_like(x), n))
    rep = f.loop_report()[0]
    assert "22 digits" in rep["ran"], rep


def test_round_constant_digits_and_numpy_scalars():
    x = round_data()
    x = x[np.abs(x) < 1e300]
    for fn in (round_two, round_numpy):
        f = jit(fn)
        assert same_floats(fn(x, np.zeros_like(x)), f(x, np.zeros_like(x)))
        assert kinds(f) == ["parallel"], f.loop_report()
    # the two roundings differ: NumPy's scalar round multiplies by 100 first
    y = np.array([2.675])
    assert jit(round_numpy)(y, np.zeros(1))[0] == round(np.float64(2.675), 2) == 2.68
    assert jit(round_floats)(y, np.zeros(1), 2)[0] == round(2.675, 2) == 2.67
    x32 = x.astype(np.float32)
    f = jit(round_numpy)
    assert same_floats(round_numpy(x32, np.zeros_like(x32)), f(x32, np.zeros_like(x32)))


def round_int_1(a, out):
    for i in range(len(a)):
        out[i] = round(int(a[i]), -1)
    return out


def round_int_3(a, out):
    for i in range(len(a)):
        out[i] = round(int(a[i]), -3)
    return out


def round_int_18(a, out):
    for i in range(len(a)):
        out[i] = round(int(a[i]), -18)
    return out


@pytest.mark.parametrize("fn", [round_int_1, round_int_3, round_int_18])
def test_round_python_int_to_negative_digits(fn):
    n = int(fn.__name__.split("_")[-1]) * -1
    rng = np.random.default_rng(13)
    a = np.concatenate([rng.integers(-10**18, 10**18, 5000), rng.integers(-5000, 5000, 5000),
                        np.array([1250, 1350, -1250, -1350, 5, 15, 25, -5, -15, 0, 2**62, -2**62, 2**63 - 1,
                                  -2**63 + 7, 10**18 // 2, -(10**18 // 2), 3 * 10**18 // 2])])
    a = a[[abs(round(int(v), n)) < 2**63 for v in a]]  # (beyond int64: the jit's OverflowError)
    f = jit(fn)
    np.testing.assert_array_equal(fn(a, np.zeros_like(a)), f(a, np.zeros_like(a)))
    assert kinds(f) == ["parallel"], f.loop_report()
    big = np.array([2**63 - 1])  # (n -1, -3: beyond int64, which Python's store refuses too)
    if abs(round(2**63 - 1, n)) >= 2**63:
        with pytest.raises(OverflowError):
            fn(big, np.zeros_like(big))
        with pytest.raises(OverflowError):
            f(big, np.zeros_like(big))
    else:
        np.testing.assert_array_equal(fn(big, np.zeros_like(big)), f(big, np.zeros_like(big)))


def test_round_ints():
    a = np.random.default_rng(1).integers(-10**12, 10**12, 10_000)
    f = jit(round_ints)
    np.testing.assert_array_equal(round_ints(a, np.zeros_like(a)), f(a, np.zeros_like(a)))
    assert kinds(f) == ["parallel"], f.loop_report()


# ---- len(d) of a dict argument ------------------------------------------------------------------

def onehot(text, d, L, X):
    for i in range(X.shape[0]):
        w = text[i * L:(i + 1) * L]
        ix = [d[c] for c in w]
        a = np.zeros((L, len(d)))
        for t in range(L):
            a[t, ix[t]] = 1.0
        X[i] = a
    return X


def dict_len_in_body(d, x, out):
    for i in range(len(x)):
        out[i] = x[i] * len(d) + d[i % 3]
    return out


def test_len_of_dict_sizes_a_small_array():
    rng = np.random.default_rng(0)
    chars = list("abcdefghijklmnopqrstuvwxyz .,")
    text = "".join(rng.choice(chars, 3000))
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    n = len(text) // 30
    f = jit(onehot)
    got = f(text, d, 30, np.zeros((n, 30, len(d))))
    np.testing.assert_array_equal(onehot(text, d, 30, np.zeros((n, 30, len(d)))), got)
    assert kinds(f)[0] == "parallel", f.loop_report()
    # a dict of another length: a kernel made for it
    d2 = dict(d)
    d2["#"] = len(d2)
    got = f(text, d2, 30, np.zeros((n, 30, len(d2))))
    np.testing.assert_array_equal(onehot(text, d2, 30, np.zeros((n, 30, len(d2)))), got)
    assert kinds(f)[0] == "parallel", f.loop_report()


def test_len_of_dict_in_the_body():
    x = np.random.default_rng(2).random(1000)
    f = jit(dict_len_in_body)
    for d in ({0: 5, 1: 7, 2: 9}, {0: 1, 1: 2, 2: 3, 3: 4, 10: 0}):
        np.testing.assert_array_equal(dict_len_in_body(d, x, np.zeros(1000)), f(d, x, np.zeros(1000)))
        assert kinds(f) == ["parallel"], f.loop_report()


def test_sparse_str_keys_reason_says_str():
    text = "abc\U0001F600" * 40
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    f = jit(onehot)
    n = len(text) // 8
    got = f(text, d, 8, np.zeros((n, 8, len(d))))
    np.testing.assert_array_equal(onehot(text, d, 8, np.zeros((n, 8, len(d)))), got)
    why = f.loop_report()[0]["ran"]
    assert "str keys are spread too thinly" in why and "int keys" not in why, why


# ---- a tuple bound to a local -------------------------------------------------------------------

def tuple_local(x, out):
    for i in range(len(x)):
        t = (x[i], 2 * x[i], i)
        a, b, c = t
        out[i] = a + b + t[0] * t[-1] + len(t) + c
    return out


def tuple_swapped(x, y, out):
    for i in range(len(x)):
        t = (x[i], y[i])
        if x[i] > y[i]:
            t = (t[1], t[0])  # (the items evaluated before either is bound)
        lo, hi = t
        out[i] = hi - lo
    return out


def tuple_2d(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            p = (X[i, j], -X[i, j])
            [u, v] = p
            out[i, j] = u * 3 + v + p[1]
    return out


def tuple_read_after(x, out):
    t = (0.0, 0.0)
    for i in range(len(x)):
        t = (x[i], 1.0)
        out[i] = t[0]
    return t


def test_tuple_local_unpacked_and_indexed():
    rng = np.random.default_rng(3)
    x, y = rng.random(5000), rng.random(5000)
    for fn, args in ((tuple_local, (x,)), (tuple_swapped, (x, y))):
        f = jit(fn)
        np.testing.assert_array_equal(fn(*args, np.zeros(5000)), f(*args, np.zeros(5000)))
        assert kinds(f) == ["parallel"], f.loop_report()
    X = rng.standard_normal((60, 70))
    f = jit(tuple_2d)
    np.testing.assert_array_equal(tuple_2d(X, np.zeros_like(X)), f(X, np.zeros_like(X)))
    assert kinds(f)[0] == "parallel", f.loop_report()


def test_tuple_read_after_the_loop_stays_python():
    x = np.random.default_rng(4).random(100)
    f = jit(tuple_read_after)
    o1, o2 = np.zeros(100), np.zeros(100)
    assert tuple_read_after(x, o1) == f(x, o2)
    np.testing.assert_array_equal(o1, o2)
    assert kinds(f) == ["python"], f.loop_report()


# ---- sum/min/max/any/all of a generator expression over a range ----------------------------------

def gen_row_sum(X, out):
    for i in range(X.shape[0]):
        out[i] = sum(X[i, j] ** 2 for j in range(X.shape[1]))
    return out


def gen_dot(X, y, out):
    for i in range(X.shape[0]):
        s = sum(X[i, j] * y[j] for j in range(len(y)))
        out[i] = s
    return out


def gen_int_sums(k, out):
    for i in range(len(out)):
        out[i] = sum(j * j + i for j in range(k)) + sum((j for j in range(i % 7)), 100)
    return out


def gen_filtered(X, out):
    for i in range(X.shape[0]):
        out[i] = sum(X[i, j] for j in range(0, X.shape[1], 2) if X[i, j] > 0.5)
    return out


def gen_any_all(X, out):
    for i in range(X.shape[0]):
        a = any(X[i, j] > 0.99 for j in range(X.shape[1]))
        b = all(X[i, j] > 0.01 for j in range(X.shape[1]))
        out[i] = a + 2 * b
    return out


def gen_min_max(X, out):
    for i in range(X.shape[0]):
        out[i] = max(X[i, j] for j in range(X.shape[1])) - min(X[i, j] for j in range(1, X.shape[1], 3))
    return out


def gen_max_empty(X, out, m):
    for i in range(X.shape[0]):
        out[i] = max(X[i, j] for j in range(m))
    return out


def gen_nested(X, out):
    for i in range(X.shape[0]):
        out[i] = sum(sum(X[i, j] * X[k, j] for k in range(3)) for j in range(X.shape[1]))
    return out


def gen_in_test(X, out):
    for i in range(X.shape[0]):
        if sum(X[i, j] for j in range(X.shape[1])) > X.shape[1] / 2:
            out[i] = 1.0
    return out


def gen_python_floats(n, out):
    for i in range(len(out)):
        out[i] = sum(j * 0.1 for j in range(n))
    return out


def gen_short_circuit(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i, 0] > 2 and sum(X[i, j] for j in range(X.shape[1]))
    return out


@pytest.mark.parametrize("fn", [gen_row_sum, gen_filtered, gen_any_all, gen_min_max, gen_nested, gen_in_test])
def test_generator_reductions_compile(fn):
    X = np.random.default_rng(5).random((300, 31))
    f = jit(fn)
    assert same_floats(fn(X, np.zeros(300)), f(X, np.zeros(300)))
    assert kinds(f)[0] in ("parallel", "parallel (outer)"), f.loop_report()
    assert kinds(f)[0] != "python"


def test_generator_dot_and_int_sums():
    rng = np.random.default_rng(6)
    X, y = rng.random((200, 40)), rng.random(40)
    f = jit(gen_dot)
    assert same_floats(gen_dot(X, y, np.zeros(200)), f(X, y, np.zeros(200)))
    assert "python" not in kinds(f), f.loop_report()
    f = jit(gen_int_sums)
    o = np.zeros(500, dtype=np.int64)
    np.testing.assert_array_equal(gen_int_sums(13, o.copy()), f(13, o.copy()))
    np.testing.assert_array_equal(gen_int_sums(0, o.copy()), f(0, o.copy()))
    assert "python" not in kinds(f), f.loop_report()


def test_generator_max_of_nothing_raises_as_python():
    X = np.random.default_rng(7).random((50, 5))
    f = jit(gen_max_empty)
    assert same_floats(gen_max_empty(X, np.zeros(50), 4), f(X, np.zeros(50), 4))
    assert "python" not in kinds(f), f.loop_report()
    with pytest.raises(ValueError) as e_py:
        gen_max_empty(X, np.zeros(50), 0)
    with pytest.raises(ValueError) as e_jit:
        f(X, np.zeros(50), 0)
    assert str(e_py.value) == str(e_jit.value)


def test_generator_left_to_python():
    X = np.random.default_rng(8).random((50, 5)) * 3
    f = jit(gen_python_floats)  # (Python 3.12's sum of floats is compensated)
    assert same_floats(gen_python_floats(11, np.zeros(40)), f(11, np.zeros(40)))
    assert "compensated" in f.loop_report()[0]["ran"], f.loop_report()
    f = jit(gen_short_circuit)  # (evaluated only where X[i, 0] > 2)
    assert same_floats(gen_short_circuit(X, np.zeros(50)), f(X, np.zeros(50)))
    assert kinds(f) == ["python"], f.loop_report()


def gen_max_some_empty(X, out):
    for i in range(X.shape[0]):
        out[i] = max(X[i, j] for j in range(i % 3))
    return out


def test_generator_max_of_nothing_in_some_iterations():
    X = np.random.default_rng(9).random((30, 5))
    f = jit(gen_max_some_empty)
    with pytest.raises(ValueError) as e_py:
        gen_max_some_empty(X, np.zeros(30))
    with pytest.raises(ValueError) as e_jit:
        f(X, np.zeros(30))
    assert str(e_py.value) in str(e_jit.value), (str(e_py.value), str(e_jit.value))


# ---- for k, (a, b) in enumerate(zip(xs, ys)) ----------------------------------------------------

def enum_zip(a, b, out):
    for i, (p, q) in enumerate(zip(a, b)):
        out[i] = p * q + i
    return out


def enum_zip_start(a, b, c, out):
    for k, [p, q, r] in enumerate(zip(a, b[::-1], c[2:]), 3):
        out[k - 3] = p - q * r + k
    return out


def test_enumerate_zip_unpacked():
    rng = np.random.default_rng(10)
    a, b, c = rng.random(1000), rng.random(1000), rng.random(990)
    f = jit(enum_zip)
    np.testing.assert_array_equal(enum_zip(a, b, np.zeros(1000)), f(a, b, np.zeros(1000)))
    assert kinds(f) == ["parallel"], f.loop_report()
    f = jit(enum_zip_start)
    np.testing.assert_array_equal(enum_zip_start(a, b, c, np.zeros(1000)), f(a, b, c, np.zeros(1000)))
    assert kinds(f) == ["parallel"], f.loop_report()


# ---- a continue before a search's test ----------------------------------------------------------

def search_with_continue(x, t):
    for i in range(len(x)):
        if x[i] < 0:
            continue
        if x[i] > t:
            return i
    return -1


def break_with_continues(x, t):
    r = -1
    for i in range(len(x)):
        if x[i] < 0:
            continue
        if x[i] == 5.0:
            continue
        if x[i] > t:
            r = i
            break
    return r


def continue_then_store(x, out):
    for i in range(len(x)):
        if x[i] < 0:
            out[i] = -1.0
            continue
        out[i] = math.sqrt(x[i])
    return out


@pytest.mark.parametrize("at", [0, 1, 777, 99_998, None])
def test_continue_before_the_test_is_a_parallel_search(at):
    x = np.random.default_rng(11).standard_normal(100_000)
    x[::7] = -20.0
    if at is not None:
        x[at] = 30.0
        x[at + 1] = -40.0
    for fn in (search_with_continue, break_with_continues):
        f = jit(fn)
        assert fn(x, 9.0) == f(x, 9.0)
        rep = f.loop_report()[0]
        assert "parallel search" in rep["ran"] and "one thread" not in rep["ran"], rep


def test_continue_after_stores():
    x = np.random.default_rng(12).standard_normal(10_000)
    f = jit(continue_then_store)
    np.testing.assert_array_equal(continue_then_store(x, np.zeros_like(x)), f(x, np.zeros_like(x)))
    assert kinds(f) == ["parallel"], f.loop_report()
