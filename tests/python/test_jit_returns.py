"""A return inside a compiled loop (`for ...: if t: return v`): desugar.c makes it a break out of
every loop it is in, the kernel hands back which return ran and its value, and the host returns
it (before 2026-12-05 such loops ran as Python, "return is not supported"). A loop whose body is
`<names>; if t: return v` is a search: the iteration that returns is found in parallel. Against
plain Python (value, type of each item, arrays after), on every device."""
import numpy as np
import pytest

import numgpu
from helpers import case_id, jit_same, module_function


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def all_close(a, b):
    for i in range(a.shape[0]):
        if abs(a[i] - b[i]) > 1e-6 * max(abs(a[i]), abs(b[i])):
            return False
    return True


def first_above(x, t):
    for i in range(len(x)):
        if x[i] > t:
            return i, x[i]
    return -1, x[0]


def last_below(x, t):
    for i in range(len(x) - 1, -1, -1):
        v = x[i] * 2
        if v < t:
            return i
    return None


def asymmetric_pair(A):
    for i in range(A.shape[0]):
        for j in range(i):
            if A[i, j] != A[j, i]:
                return i, j
    return None


def sign_of_first(x):
    for v in x:
        if v < 0:
            return -1
        if v > 0:
            return 1.5
    return 0


def sqrt_until_negative(x):
    for i in range(len(x)):
        if x[i] < 0:
            return
        if x[i] > 1e6:
            return None
        x[i] = np.sqrt(x[i])
    return len(x)


def prefix_sum_until(x, cap):
    s = 0
    for i in range(len(x)):
        if s + x[i] > cap:
            return s, i
        s += x[i]
    return s, -1


def while_search(x, t):
    i = 0
    while i < len(x):
        if x[i] >= t:
            return i
        i += 1
    return -1


def steps_until(x, y, lim):
    for t in range(50):
        for i in range(len(x)):
            y[i] = x[i] * t
        for i in range(len(x)):
            if y[i] > lim:
                return t, i
    return -1, -1


def for_else_inside(A, v):
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            if A[i, j] == v:
                break
        else:
            if i > 2:
                return i
    return -2


def index_in_row(X, i, v):
    for k in range(X.shape[1]):
        if X[i, k] == v:
            return k
    return -1


def find_each(X, vals, out):
    for i in range(X.shape[0]):
        out[i] = index_in_row(X, i, vals[i])


def returns_after_the_loop(x, t):
    for i in range(len(x)):
        if x[i] > t:
            return -i
    return i * 2


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.uint8, np.int64], ids=case_id)
def test_a_search_that_returns_finds_the_same_iteration_and_value(dt):
    rng = np.random.default_rng(70)
    x = (rng.random(300000) * 200).astype(dt)
    for t in (x.max(), x.max() - 1, x[0], x[123456], x[-1] - 1):  # none, a few, the first, inside, near the end
        t = dt(t) if dt != np.float64 else float(t)
        f = jit_same(first_above, x, t)
        assert ran(f) == ["kernel (parallel search, then in order)"]
        assert f.loop_report()[0]["search"]
        assert "returns from inside it (a search" in f.loop_report()[0]["reason"]
        jit_same(last_below, x, 2 * float(t))
    y = x.copy()
    jit_same(all_close, x, y)
    y[250001] += 1
    f = jit_same(all_close, x, y)
    assert ran(f) == ["kernel (parallel search, then in order)"]
    jit_same(all_close, x[:0], y[:0])


def test_a_return_from_a_nested_loop_and_its_tuple():
    rng = np.random.default_rng(71)
    A = rng.random((120, 120))
    A = A + A.T
    f = jit_same(asymmetric_pair, A)
    assert f.loop_report()[0]["search"]
    for i, j in ((7, 3), (119, 0), (60, 59)):
        B = A.copy()
        B[i, j] += 1
        f = jit_same(asymmetric_pair, B)
        assert ran(f)[0] == "kernel (parallel search, then in order)"
    jit_same(asymmetric_pair, A[:0, :0])
    jit_same(asymmetric_pair, A[:1, :1])


def test_returns_of_other_forms():
    rng = np.random.default_rng(72)
    x = rng.standard_normal(1000)
    for k in (0, 1, 500, 999):
        y = x.copy()
        y[:k] = 0
        f = jit_same(sign_of_first, y)  # an int or a float, as the return that ran
        assert ran(f) == ["kernel (one thread)"]
    jit_same(sign_of_first, np.zeros(10))
    x = np.abs(x)
    jit_same(sqrt_until_negative, x)  # no return ran
    x[600] = -1
    f = jit_same(sqrt_until_negative, x)  # None, after writing the first 600
    assert ran(f) == ["kernel (one thread)"]
    x[300] = 1e7
    f = jit_same(sqrt_until_negative, x)  # `return None`, after the first 300
    assert ran(f) == ["kernel (one thread)"]
    for cap in (0, 10, 1e9):
        jit_same(prefix_sum_until, np.arange(100), cap)
    for t in (0.5, 3.0):
        f = jit_same(while_search, x, t)
        assert ran(f) == ["kernel (one thread)"]
    A = np.arange(40).reshape(8, 5) % 7
    for v in (0, 3, 6, 99):
        jit_same(for_else_inside, A, v)
    for t in (0.5, 100.0):
        jit_same(returns_after_the_loop, x, t)


def test_a_return_inside_a_loop_the_host_runs():
    x = np.linspace(0, 1, 500)
    for lim in (0.5, 30.0, 1e9):
        f = jit_same(steps_until, x, np.zeros(500), lim)
        assert "kernel (parallel search, then in order)" in ran(f) or lim > 100


def test_a_helper_whose_loop_returns():
    rng = np.random.default_rng(73)
    X = rng.integers(0, 30, (200, 40))
    vals = rng.integers(0, 40, 200)
    f = jit_same(find_each, X, vals, np.zeros(200, np.int64))
    assert ran(f) == ["kernel"]
    assert f.loop_report()[0]["kind"] == "parallel"


def find_hit(A, m):
    i = j = -1
    for i in range(A.shape[0]):
        hit = False
        for j in range(m - i):  # fewer columns each row: none in the last ones
            if A[i, j] < 0:
                hit = True
                break
        if hit:
            break
    return i, j, hit


def find_row(A, m):
    i = -1
    for i in range(A.shape[0]):
        hit = False
        for j in range(m - i):
            if A[i, j] < 0:
                hit = True
                break
        if hit:
            break
    return i, hit


def running_until(A, t):
    c = 0.0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            c = c * 0.5 + A[i, j]
        if c > t:
            break
    return i  # (c is not read after the loop: only its carrying keeps the loop in order)


def test_a_search_whose_head_is_a_loop():
    rng = np.random.default_rng(75)
    A = rng.random((40, 30))
    B = A.copy()
    B[17, 5] = -1
    for m in (30, 12):
        for fn in (find_hit, find_row):
            f = jit_same(fn, A, m)
            # j, read after, may not be set by the last row (none when m - i <= 0): in order
            assert f.loop_report()[0]["search"] == (fn is find_row)
            jit_same(fn, B, m)
    for t in (1.5, 1.99, 5.0):
        f = jit_same(running_until, A, t)  # c carries over: in order
        assert not f.loop_report()[0]["search"]


def test_what_stays_python(tmp_path):
    src = '''
import numpy as np

def a_row(X):
    for i in range(X.shape[0]):
        if X[i, 0] > 0.5:
            return X[i]
    return None

def nine(x):
    for i in range(len(x)):
        if x[i] > 0.5:
            return i, i, i, i, i, i, i, i, i
    return None

def two_on_a_line(x):
    for i in range(len(x)):
        if x[i] > 0.5: return 1; return 2
    return 0

def a_string(x):
    for i in range(len(x)):
        if x[i] > 0.5:
            return "big"
    return "small"

def gen(x):
    for i in range(len(x)):
        if x[i] > 0.5:
            return
        yield i
'''
    rng = np.random.default_rng(74)
    X = rng.random((30, 3))
    x = X[:, 1].copy()
    for name, arg, why in (("a_row", X, "returning a part of an array from inside a loop"),
                           ("nine", x, "return is not supported"),
                           ("two_on_a_line", x, "return is not supported"),
                           ("a_string", x, "a string")):
        fn = module_function(tmp_path, "ret_" + name, src, name)
        f = jit_same(fn, arg)
        assert why in ran(f)[0], ran(f)
        if name == "a_row":  # the return's line, not a name desugar.c made
            assert ".py:%d: " % (f.loop_report()[0]["line"] + 2) in ran(f)[0]
    fn = module_function(tmp_path, "ret_gen", src, "gen")
    assert list(numgpu.jit(fn)(x)) == list(fn(x))


def test_an_index_error_before_any_return():
    def over(x, t):
        for i in range(len(x) + 1):
            if x[i] > t:
                return i
        return -1
    x = np.arange(10.0)
    with pytest.raises(IndexError):
        over(x, 100.0)
    f = numgpu.jit(over, boundscheck=True)
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        f(x, 100.0)
    assert f(x, 5.0) == over(x, 5.0) == 6


def many(x):
    for i in range(len(x)):
        a0 = x[i]; a1 = x[i] + 1; a2 = x[i] + 2; a3 = x[i] + 3; a4 = x[i] + 4; a5 = x[i] + 5
        a6 = x[i] + 6; a7 = x[i] + 7; a8 = x[i] + 8; a9 = x[i] + 9; b0 = x[i] + 10; b1 = x[i] + 11
        b2 = x[i] + 12; b3 = x[i] + 13; b4 = x[i] + 14; b5 = x[i] + 15; b6 = x[i] + 16; b7 = x[i] + 17
    return a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7


def too_many(x):
    for i in range(len(x)):
        a0 = x[i]; a1 = a0 + 1; a2 = a0 + 2; a3 = a0 + 3; a4 = a0 + 4; a5 = a0 + 5; a6 = a0 + 6
        a7 = a0 + 7; a8 = a0 + 8; a9 = a0 + 9; b0 = a0 + 10; b1 = a0 + 11; b2 = a0 + 12; b3 = a0 + 13
        b4 = a0 + 14; b5 = a0 + 15; b6 = a0 + 16; b7 = a0 + 17; b8 = a0 + 18; b9 = a0 + 19
        c0 = a0 + 20; c1 = a0 + 21; c2 = a0 + 22; c3 = a0 + 23; c4 = a0 + 24; c5 = a0 + 25
        c6 = a0 + 26; c7 = a0 + 27; c8 = a0 + 28; c9 = a0 + 29; d0 = a0 + 30; d1 = a0 + 31; d2 = a0 + 32
    return (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9,
            c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, d0, d1, d2)


def test_every_name_read_after_a_loop_comes_back():
    # 18 names read after the loop: before 2026-12-05 the 17th and 18th were dropped (UnboundLocalError)
    x = np.arange(12.0)
    f = jit_same(many, x)
    assert ran(f) == ["kernel (one thread)"]
    f = jit_same(too_many, x)  # 33: more than a kernel hands back, so Python
    assert ran(f) == ["python: more than 32 names it assigns are read after the loop"]
