"""More of what compiled loops raise, each compared with plain Python: the exception's type,
words and arguments (a KeyError's key, its type too), and the arrays as each leaves them.

- a parallel loop whose iterations miss several int keys of a dict raises the first failing
  iteration's KeyError, with Python's key: np.int64(9) read from an int64 array, 9 from range();
- `2 ** -i` of Python ints is Python's float (it raised ValueError in the kernel);
- `raise E("words")` and `assert c, "words"` in a loop body compile: the host raises what
  Python would, at the first failing iteration;
- builtin max()/min() of a bool row is NumPy's bool, as Python's loop over a NumPy row gives.

PYTEST_DONT_REWRITE: the loops' own asserts are compared with Python's, which pytest's rewriting
would change."""
import numpy as np
import pytest

import numgpu


def key_sum(x, d):
    s = 0
    for i in range(len(x)):  # parallel reduce(+:s)
        s += d[x[i]]
    return s


def key_store(x, d, out):
    for i in range(len(x)):  # parallel
        out[i] = d[x[i]] * 2


def counter_keys(n, d, off):
    s = 0
    for i in range(n):
        s += d[i * 7 + off]
    return s


def same_raise(fn, *args, **jit):
    """fn under @numgpu.jit against plain fn on copies: the same exception type, Python's words
    at the end of numgpu's, the same args (values and types); returns both exceptions and the
    copies of args each left."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(Exception) as want:
        fn(*plain)
    f = numgpu.jit(fn, **jit)
    with pytest.raises(Exception) as got:
        f(*mine)
    assert type(got.value) is type(want.value), (got.value, want.value)
    if isinstance(want.value, KeyError):
        assert got.value.args == want.value.args
        assert [type(a) for a in got.value.args] == [type(a) for a in want.value.args], got.value.args
    else:
        assert str(got.value).endswith(str(want.value)), (got.value, want.value)
    return want.value, got.value, plain, mine, f


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint16, np.int16])
@pytest.mark.parametrize("keys", [[5, 3, 12345, 1001, 7777, 2], [0, 1009, 1001, 4000], [9, 1009, 1025, 2],
                                  [1, 2] * 3000 + [1016, 1000, 1017]])
def test_the_first_missing_int_key_of_a_parallel_loop_with_pythons_type(dt, keys):
    d = {i: i for i in range(1000)}
    x = np.array(keys, dtype=dt)
    same_raise(key_sum, x, d)
    same_raise(key_store, x, d, np.zeros(len(x), np.int64))


@pytest.mark.parametrize("off", [1000, 1001, 993, -1, -100000])
def test_a_missing_key_from_range_is_a_python_int(off):
    same_raise(counter_keys, 40, {i: i for i in range(1000)}, off)


def bounded_store(x, o):
    for i in range(len(x)):  # parallel
        o[i] = x[i] * 1000


@pytest.mark.parametrize("vals", [[1, 400, 3, 70000], [0] * 50000 + [400, 70000], [5, -700, 90000, -3]])
def test_int_bounds_name_the_first_failing_iterations_int(vals):
    same_raise(bounded_store, np.array(vals), np.zeros(len(vals), np.int16))


def halves(n):
    s = 0.0
    for i in range(n):
        s += 2 ** -i
    return s


def mixed_powers(n, k):
    s = 0.0
    for i in range(1, n):
        s += i ** -1 + 10 ** -i
        s = s + 3 ** (k - i) * 0.5
        s = 0.25 * s + 7 ** (i - 2)
    return s


def signed_powers(n):
    s = 0.0
    for i in range(n):
        s += (i - 3) ** (1 - i)
    return s


def powers_into(out):
    for i in range(out.shape[0]):
        out[i] += 10 ** (2 - i)




@pytest.mark.parametrize("fn,args", [(halves, (10,)), (halves, (70,)), (mixed_powers, (10, 5)),
                                     (mixed_powers, (20, 12)), (signed_powers, (3,)), (powers_into, (np.zeros(9),))])
def test_an_int_to_a_negative_int_power_is_pythons_float(fn, args):
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    f = numgpu.jit(fn)
    want, got = fn(*plain), f(*mine)
    # (C's pow, Python's, on cpu; an OpenCL or CUDA pow is within 4 ulp of it, as the math functions)
    assert type(got) is type(want), (got, want)
    np.testing.assert_array_max_ulp(np.float64(got), np.float64(want), 4)
    for p, m in zip(plain, mine):
        if isinstance(p, np.ndarray):
            np.testing.assert_array_max_ulp(m, p, 4)
    assert all(r["ran"].startswith("kernel") for r in f.loop_report()), f.loop_report()


def test_zero_to_a_negative_power_and_an_int_result_still_raise_as_python():
    same_raise(signed_powers, 8)  # (0 ** -3: ZeroDivisionError)


def bool_row_extremes(B):
    r = q = None
    for i in range(B.shape[0]):
        r = max(B[i])
        q = min(B[i])
    return r, q


def bool_tuple_max(t, n):
    r = None
    for i in range(n):
        r = max(t)
    return r


def test_max_and_min_of_a_bool_row_are_numpys_bools_and_of_a_tuple_pythons():
    B = np.array([[True, False], [False, False], [True, True]])
    for rows in (B, B[:2]):
        want, got = bool_row_extremes(rows), numgpu.jit(bool_row_extremes)(rows)
        assert got == want and [type(g) for g in got] == [type(w) for w in want] == [np.bool_, np.bool_], (got, want)
    want, got = bool_tuple_max((True, False), 2), numgpu.jit(bool_tuple_max)((True, False), 2)
    assert got is want is True


def nest_over_a_divisor(x, out, w):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i] = out[i] + j / w + x[i, j]


def test_a_loop_inside_one_that_ran_as_python_says_so(capsys):
    f = numgpu.jit(nest_over_a_divisor)
    x = np.ones((3, 4))
    with pytest.raises(ZeroDivisionError):
        f(x, np.zeros(3), 0)
    inner = f.loop_report()[1]
    assert inner["kind"] == "python" and inner["reason"].startswith("inside the loop at line"), inner
    f.explain()
    text = capsys.readouterr().out
    assert "runs in one thread" not in text and "which ran as Python" in text, text
    f(x, np.zeros(3), 2)  # (compiled again: the inner loop is part of the outer one's kernel)
    assert f.loop_report()[1]["ran"].startswith("kernel (part of"), f.loop_report()


def check_nonneg_sum(x):
    s = 0.0
    for i in range(len(x)):  # parallel: nothing but the exception is seen
        if x[i] < 0:
            raise ValueError("negative value")
        s += x[i]
    return s


def two_checks(x):
    s = 0.0
    for i in range(len(x)):
        if x[i] > 100.0:
            raise RuntimeError("too large: caf\u00e9\n")
        assert x[i] >= 0, "must be non-negative"
        s += x[i]
    return s


def roots_checked(x, out):
    for i in range(len(x)):  # writes out: in order, stopping where Python's does
        assert x[i] >= 0, "must be non-negative"
        out[i] = x[i] * 0.5


def bare_assert_count(x):
    c = 0
    for i in range(len(x)):
        assert x[i] != 3
        c += 1
    return c


def running_limit(x, out):
    for i in range(1, len(x)):
        out[i] = out[i - 1] + x[i]
        if out[i] > 10:
            raise RuntimeError


def nested_check(X):
    s = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if X[i, j] > 5:
                raise IndexError("too big")
            s += X[i, j]
    return s


def while_check(x):
    i = 0
    t = 0.0
    while i < len(x):
        if x[i] < 0:
            raise ZeroDivisionError("stop")
        t += x[i]
        i += 1
    return t


def formatted_message(x):
    s = 0.0
    for i in range(len(x)):
        assert x[i] >= 0, f"bad {i}"
        s += x[i]
    return s


class MyError(Exception):
    pass


def own_class(x):
    s = 0.0
    for i in range(len(x)):
        if x[i] < 0:
            raise MyError("mine")
        s += x[i]
    return s


def same_or_raise(fn, *args):
    """fn and @numgpu.jit(fn) on copies of args: the same result, or the same exception with the
    same args and the arrays as Python's loop leaves them; returns the jitted function."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    f = numgpu.jit(fn)
    try:
        want = ("ok", fn(*plain))
    except Exception as e:  # (Python's own exception: each is compared)
        want = (type(e), e.args)
    try:
        got = ("ok", f(*mine))
    except Exception as e:
        got = (type(e), e.args)
    assert got == want, (got, want)
    for p, m in zip(plain, mine):
        if isinstance(p, np.ndarray):
            np.testing.assert_array_equal(m, p)
    return f


def test_raise_and_assert_statements_compile_and_raise_as_python():
    x = np.array([1.0, 2.0, -1.0, 4.0, -5.0])
    for fn, args in [(check_nonneg_sum, (x,)), (check_nonneg_sum, (abs(x),)), (two_checks, (x,)),
                     (two_checks, (x * 60,)), (two_checks, (abs(x),)), (roots_checked, (x, np.zeros(5))),
                     (roots_checked, (abs(x), np.zeros(5))), (bare_assert_count, (np.arange(6),)),
                     (bare_assert_count, (np.arange(3),)), (running_limit, (np.arange(8.0), np.zeros(8))),
                     (nested_check, (np.arange(12.0).reshape(3, 4),)),
                     (nested_check, (np.arange(12.0).reshape(4, 3) % 5,)), (while_check, (x,)),
                     (while_check, (abs(x),))]:
        f = same_or_raise(fn, *args)
        assert all(r["ran"].startswith("kernel") for r in f.loop_report()), (fn, f.loop_report())
    f = numgpu.jit(roots_checked)
    assert f.loop_report()[0]["kind"] == "sequential" and "raises" in f.loop_report()[0]["reason"]
    assert numgpu.jit(check_nonneg_sum).loop_report()[0]["kind"] == "parallel"


@pytest.mark.parametrize("first", [3, 40000, 99998])
def test_a_parallel_loop_raises_its_first_failing_iterations_statement(first):
    x = np.ones(100000)
    x[first] = 500.0        # RuntimeError there
    x[first + 1] = -1.0     # AssertionError after it
    x[(first + 7) % 100000] = -1.0
    f = same_or_raise(two_checks, x)
    assert f.loop_report()[0]["kind"] == "parallel"
    x[first] = -2.0
    same_or_raise(two_checks, x)


def test_other_raises_and_messages_run_as_python_and_say_why():
    x = np.array([1.0, -1.0])
    for fn in (formatted_message, own_class):
        f = same_or_raise(fn, x)
        r = f.loop_report()[0]
        assert r["kind"] == "python", r
    assert "MyError" in numgpu.jit(own_class).loop_report()[0]["reason"]


def test_the_class_is_the_one_the_name_is_bound_to(tmp_path):
    from helpers import module_function
    src = ("class ValueError(Exception):\n    pass\n\n\ndef f(x):\n    s = 0.0\n    for i in range(len(x)):\n"
           "        if x[i] < 0:\n            raise ValueError('shadowed')\n        s += x[i]\n    return s\n")
    fn = module_function(tmp_path, "shadowed_value_error", src, "f")
    with pytest.raises(Exception) as got:
        numgpu.jit(fn)(np.array([1.0, -1.0]))
    assert type(got.value).__module__ == "shadowed_value_error" and got.value.args == ("shadowed",)


def test_a_missing_key_beyond_the_code_runs_as_python_where_the_loop_changed_nothing():
    d = {i: i for i in range(1000)}
    x = np.array([5, 2 ** 40, 1001], dtype=np.int64)
    want, got, _, _, f = same_raise(key_sum, x, d)  # (Python's key, np.int64(2**40))
    assert "beyond" in f.loop_report()[0]["ran"], f.loop_report()
    with pytest.raises(KeyError) as e:  # (an array written: the kernel's, which does not tell it)
        numgpu.jit(key_store)(x, d, np.zeros(3, np.int64))
    assert e.value.args == ("a key the dict does not have",)
