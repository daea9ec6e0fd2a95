"""Findings of the seventh jit bug hunt, each compared with plain Python on the same data:

- J01: `m = max(x[i], m)` (the running value not max's first argument) of floats runs in order:
  Python's max keeps its first argument unless a later one is greater, so after a NaN the next
  element replaces it, and of -0.0 and 0.0 the later one stays.
- J05: a store out of range raises Python's IndexError (also without boundscheck), never writes
  outside the array; affine indices are checked before the loop (the loop then runs as Python),
  others where they run.
- P02: `for d in (-1, 0, 1):` (a tuple written in the loop) compiles as `range(-1, 2)`.
- M03: the reasons of a loop that returns, of a view sharing an argument's memory.
"""
import inspect
import math
import os

import numpy as np
import pytest

import numgpu
from numgpu import jit

N = 100_000
DEVICE = os.environ.get("NUMGPU_DEVICE", "cpu")


def same(p, j):
    """Equal as Python compares results, NaN equal to NaN and the sign of a zero counted."""
    if isinstance(p, float) or isinstance(p, np.floating):
        if math.isnan(p):
            return math.isnan(j)
        return p == j and math.copysign(1.0, p) == math.copysign(1.0, j)
    return p == j


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, l in enumerate(lines) if text in l)


# ---- J01: max/min with the running value not first ------------------------------------------

def v_max_late(x):
    m = -1e300
    for i in range(len(x)):
        m = max(x[i], m)
    return m


def v_min_late(x):
    m = 1e300
    for i in range(len(x)):
        m = min(x[i], m)
    return m


def v_max_late3(x):
    m = -1e300
    for i in range(len(x)):
        m = max(0.5 * x[i], x[i], m)
    return m


def v_max_middle(x):
    m = -1e300
    for i in range(len(x)):
        m = max(x[i], m, 0.5 * x[i])
    return m


def v_max_first(x):
    m = -1e300
    for i in range(len(x)):
        m = max(m, x[i])
    return m


def v_max_first3(x):
    m = -1e300
    for i in range(len(x)):
        m = max(m, x[i], 0.0)
    return m


def v_min_first(x):
    m = 1e300
    for i in range(len(x)):
        m = min(m, x[i])
    return m


def v_if_greater(x):
    m = -math.inf
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
    return m


def v_if_ge(x):
    m = -math.inf
    for v in x:
        if v >= m:
            m = v
    return m


def v_np_maximum(x):
    m = -1e300
    for i in range(len(x)):
        m = np.maximum(m, x[i])
    return m


def v_np_fmax_late(x):
    m = -1e300
    for i in range(len(x)):
        m = np.fmax(x[i], m)
    return m


def v_np_maximum_late(x):
    m = -1e300
    for i in range(len(x)):
        m = np.maximum(x[i], m)
    return m


def v_ifexp(x):
    m = x[0]
    for i in range(len(x)):
        m = x[i] if x[i] > m else m
    return m


def v_int_late(a):
    m = -(1 << 40)
    for i in range(len(a)):
        m = max(a[i], m)
    return m


MAXES = [v_max_late, v_min_late, v_max_late3, v_max_middle, v_max_first, v_max_first3, v_min_first,
         v_if_greater, v_if_ge, v_np_maximum, v_np_fmax_late, v_np_maximum_late, v_ifexp]
NAN_AT = [(), (0,), (10,), (N // 2,), (N - 1,), (100, 500), (60_000, 99_990), (0, N - 1)]


def data(nan_at):
    x = np.random.default_rng(len(nan_at) + sum(nan_at)).standard_normal(N)
    x[10] = 10.0
    x[70_000] = 2.0
    for k in nan_at:
        x[k] = np.nan
    return x


@pytest.mark.parametrize("fn", MAXES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("nan_at", NAN_AT, ids=str)
def test_max_min_with_nans_as_python(fn, nan_at):
    x = data(nan_at)
    f = jit(fn)
    p, j = fn(x.copy()), f(x.copy())
    assert same(p, j), (p, j)


def test_late_running_value_of_floats_runs_in_one_thread():
    x = np.ones(N)
    x[10], x[60_000], x[70_000] = 10.0, np.nan, 2.0
    f = jit(v_max_late)
    assert f(x) == v_max_late(x) == 2.0
    assert "one thread" in f.loop_report()[0]["ran"]
    assert "not the first argument" in f.loop_report()[0]["ran"]


def test_numpy_maximum_either_way_round_stays_parallel():
    x = data((60_000,))
    for fn in (v_np_maximum_late, v_np_fmax_late):
        f = jit(fn)
        assert same(f(x), fn(x))
        assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()


def test_late_running_value_of_ints_stays_parallel():
    a = np.random.default_rng(3).integers(-10**9, 10**9, N)
    f = jit(v_int_late)
    assert f(a) == v_int_late(a)
    assert f.loop_report()[0]["ran"] == "kernel"


# ---- J05: stores out of range ----------------------------------------------------------------

def scale(x, out, a=2.0):
    for i in range(len(x)):
        out[i] = x[i] * a
    return out


def shifted(x, out, k):
    for i in range(len(x)):
        out[i + k] = x[i]
    return out


def guarded_shift(x, out, k):
    for i in range(len(x)):
        if i + k < len(out):
            out[i + k] = x[i]
    return out


def conditional_store(x, out, k):
    for i in range(len(x)):
        if x[i] > 0.9:
            out[i + k] = x[i]
    return out


def scatter_add(idx, out):
    for i in range(len(idx)):
        out[idx[i]] += 1
    return out


def grid(a, out):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            out[i, j + 1] = a[i, j] * 0.5
    return out


def scan_past_the_end(x):
    for i in range(1, len(x) + 1):
        x[i] = x[i - 1] + 1
    return x


def row_view_store(X, k):
    for i in range(X.shape[0]):
        row = X[i + k]
        for j in range(X.shape[1]):
            row[j] = j
    return X


def outcome(fn, *args):
    """What the call gives, or the exception's type and message (IndexError without the location
    the kernel's adds in front)."""
    try:
        r = fn(*args)
        return "ok", r.copy() if isinstance(r, np.ndarray) else r
    except IndexError as e:
        return "IndexError", str(e).split(": ", 1)[-1] if str(e).startswith("/") else str(e)


def check_store(fn, *args, exact_message=True):
    p_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    j_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    p = outcome(fn, *p_args)
    f = jit(fn)
    j = outcome(f, *j_args)
    assert p[0] == j[0], (p, j)
    if p[0] == "ok":
        np.testing.assert_array_equal(p[1], j[1])
        for a, b in zip(p_args, j_args):
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b)
    elif exact_message:
        assert p[1] == j[1], (p, j)
    return f


def test_output_shorter_than_input_raises_index_error():
    x = np.ones(5)
    f = check_store(scale, x, np.zeros(3))
    assert "stores at an index out of range" in f.loop_report()[0]["ran"]
    check_store(scale, np.arange(40_000.0), np.zeros(39_999))


@pytest.mark.parametrize("k", [-3, -1000, -1001, 0, 1, 5])
def test_shifted_store(k):
    check_store(shifted, np.random.default_rng(0).random(1000), np.zeros(1000), k)


@pytest.mark.parametrize("k", [0, 5, 1000])
def test_guarded_and_conditional_stores(k):
    x = np.random.default_rng(1).random(50_000)
    f = check_store(guarded_shift, x, np.zeros(50_000), k)
    assert f.loop_report()[0]["ran"] == "kernel"  # (the guard is not checked before the loop)
    # the first x[i] > 0.9 past the end is where Python stops, in order
    check_store(conditional_store, x, np.zeros(50_000), k, exact_message=False)


def test_scatter_out_of_range():
    idx = np.random.default_rng(2).integers(0, 100, 50_000)
    check_store(scatter_add, idx, np.zeros(100, np.int64))
    idx[30_000] = 100
    check_store(scatter_add, idx, np.zeros(100, np.int64), exact_message=False)
    idx[30_000] = -101
    check_store(scatter_add, idx, np.zeros(100, np.int64), exact_message=False)
    idx[30_000] = -100  # (counts from the end, as Python's)
    check_store(scatter_add, idx, np.zeros(100, np.int64))


def test_two_dimensional_store():
    a = np.random.default_rng(3).random((200, 300))
    check_store(grid, a, np.zeros((200, 301)))
    check_store(grid, a, np.zeros((200, 300)))


def test_scan_writing_past_the_end():
    check_store(scan_past_the_end, np.zeros(100_000, np.int64))
    # (a scan whose range stays inside: still a scan, still right)
    def prefix(x):
        for i in range(1, len(x)):
            x[i] = x[i - 1] + x[i]
        return x
    check_store(prefix, np.random.default_rng(4).integers(0, 10, 100_000))


def test_store_through_a_row_view():
    check_store(row_view_store, np.zeros((40, 30)), 0)
    check_store(row_view_store, np.zeros((40, 30)), 1, exact_message=False)


def test_the_process_survives_many_bad_calls():
    f = jit(shifted)
    for _ in range(200):
        with pytest.raises(IndexError):
            f(np.ones(1000), np.zeros(1000), 7)
    junk = [np.zeros(3) for _ in range(10_000)]
    assert len(junk) == 10_000


# ---- P02: a loop over a tuple written in place -----------------------------------------------

def life(grid):
    n, m = grid.shape
    new = np.zeros_like(grid)
    for i in range(n):
        for j in range(m):
            cnt = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di != 0 or dj != 0:
                        cnt += grid[(i + di) % n, (j + dj) % m]
            if cnt == 3 or (cnt == 2 and grid[i, j] == 1):
                new[i, j] = 1
    return new


def tuple_forms(x):
    s = 0.0
    for i in range(4, len(x) - 4):
        for a in (3,):
            s += x[i + a]
        for b in (2, -2):
            s += 2 * x[i + b]
        for c in (4, 1, -2, -5):
            s += 3 * x[i + c // 2]
        for d in ():
            s += x[d]
    return s


def uneven_tuple(x):
    s = 0.0
    for i in range(len(x) - 5):
        for d in (0, 1, 5):
            s += x[i + d]
    return s


def test_game_of_life_over_a_literal_tuple():
    g = (np.random.default_rng(5).random((60, 70)) < 0.3).astype(np.int64)
    f = jit(life)
    np.testing.assert_array_equal(f(g), life(g))
    kinds = [r["kind"] for r in f.loop_report()]
    assert "python" not in kinds, f.loop_report()


def test_tuple_forms():
    x = np.random.default_rng(6).random(5000)
    f = jit(tuple_forms)
    assert f(x) == pytest.approx(tuple_forms(x), rel=1e-12)
    assert all(r["kind"] != "python" for r in f.loop_report()), f.loop_report()


def test_uneven_tuple_still_runs_as_python_and_right():
    x = np.random.default_rng(7).random(500)
    f = jit(uneven_tuple)
    assert f(x) == uneven_tuple(x)


# ---- M03: reasons ----------------------------------------------------------------------------

def search_by_row_sum(X, t):
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j]
        if s > t:
            return i, s
    return -1, 0.0


def rounds(x, out):
    for i in range(len(x)):
        out[i] = round(x[i], 2)


def shifted_view(x):
    y = x[1:]
    for i in range(len(y)):
        y[i] = x[i] * 2
    return x


def test_returning_loop_reason_says_it_returns():
    X = np.random.default_rng(8).random((300, 50))
    f = jit(search_by_row_sum)
    assert f(X, 1e9) == search_by_row_sum(X, 1e9)
    assert f(X, 26.0) == search_by_row_sum(X, 26.0)
    outer = f.loop_report()[0]
    assert "returns from inside it" in outer["reason"], outer
    assert "break" not in outer["reason"], outer


def test_round_with_digits_reason():
    x = np.random.default_rng(9).random(100) * 10
    out_p, out_j = np.zeros(100), np.zeros(100)
    rounds(x, out_p)
    f = jit(rounds)
    f(x, out_j)
    np.testing.assert_array_equal(out_p, out_j)
    rep = f.loop_report()[0]  # (compiles since test_jit_frontend2: NumPy's scalar round)
    assert rep["kind"] == "parallel", rep


def test_view_sharing_memory_reason_names_the_arrays():
    x = np.arange(10.0)
    f = jit(shifted_view)
    np.testing.assert_array_equal(f(x.copy()), shifted_view(x.copy()))
    why = f.loop_report()[0]["ran"]
    assert "arrays" in why and "share memory" in why and "two array arguments" not in why, why
    assert "x" in why and "y" in why, why


# ---- P02: the hand-written argmax ------------------------------------------------------------

def hand_argmax(x):
    bi = 0
    for i in range(len(x)):
        if x[i] > x[bi]:
            bi = i
    return bi


def hand_argmax_ge(x):
    bi = 0
    for i in range(len(x)):
        if x[i] >= x[bi]:
            bi = i
    return bi


def hand_argmin(x):
    bi = 0
    for i in range(len(x)):
        if x[bi] > x[i]:
            bi = i
    return bi


def hand_argmin_le(x):
    bi = len(x) - 1
    for i in range(len(x)):
        if x[i] <= x[bi]:
            bi = i
    return bi


def hand_argmax_abs(x):
    bi = 0
    for i in range(1, len(x)):
        if abs(x[i] - 0.5) > abs(x[bi] - 0.5):
            bi = i
    return bi


def hand_argmax_rows(X, out):
    for r in range(X.shape[0]):
        bi = 0
        for j in range(X.shape[1]):
            if X[r, j] > X[r, bi]:
                bi = j
        out[r] = bi
    return out


def hand_argmax_reads_it(x, out):
    bi = 0
    for i in range(len(x)):
        if x[i] > x[bi]:
            bi = i
        out[i] = bi
    return bi


HAND = [hand_argmax, hand_argmax_ge, hand_argmin, hand_argmin_le, hand_argmax_abs]


@pytest.mark.parametrize("fn", HAND, ids=lambda f: f.__name__)
@pytest.mark.parametrize("nan_at", [(), (0,), (1,), (N // 2,), (N - 1,), (100, 70_000)], ids=str)
def test_hand_argmax_as_python(fn, nan_at):
    x = np.random.default_rng(11).integers(0, 40, N).astype(np.float64)  # (ties everywhere)
    for k in nan_at:
        x[k] = np.nan
    f = jit(fn)
    assert f(x) == fn(x)
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()


@pytest.mark.parametrize("fn", HAND, ids=lambda f: f.__name__)
def test_hand_argmax_ints_and_small(fn):
    a = np.random.default_rng(12).integers(-5, 5, 50_001)
    assert jit(fn)(a) == fn(a)
    for n in (1, 2, 3):
        x = np.random.default_rng(n).random(n)
        assert jit(fn)(x) == fn(x)


def test_hand_argmax_of_an_empty_array_runs_as_python():
    for fn in (hand_argmax, hand_argmin):
        f = jit(fn)
        assert f(np.zeros(0)) == fn(np.zeros(0)) == 0


def test_hand_argmax_per_row_and_when_read():
    X = np.random.default_rng(13).integers(0, 9, (300, 200)).astype(np.float64)
    f = jit(hand_argmax_rows)
    np.testing.assert_array_equal(f(X, np.zeros(300, np.int64)), hand_argmax_rows(X, np.zeros(300, np.int64)))
    x = np.random.default_rng(14).random(5000)
    op, oj = np.zeros(5000, np.int64), np.zeros(5000, np.int64)
    g = jit(hand_argmax_reads_it)
    assert g(x, oj) == hand_argmax_reads_it(x, op)
    np.testing.assert_array_equal(op, oj)


# ---- J03: the sign of a zero a parallel max or min ends at -----------------------------------

def zmax(x, m):
    for i in range(len(x)):
        m = max(m, x[i])
    return m


def zmin(x, m):
    for i in range(len(x)):
        m = min(m, x[i])
    return m


def zmax_if(x, m):
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
    return m


def zmin_if(x, m):
    for i in range(len(x)):
        if m > x[i]:
            m = x[i]
    return m


def zmax_ge(x, m):
    for i in range(len(x)):
        if x[i] >= m:
            m = x[i]
    return m


def zmax_np(x, m):
    for i in range(len(x)):
        m = np.maximum(m, x[i])
    return m


def signed_zeros(first_negative, n=N, neg_tail=False):
    x = np.zeros(n)
    x[1::2] = -0.0
    if first_negative:
        x = -x
    if neg_tail:  # (values below the zeros too: for min, the zeros are then not the result)
        x[::7] = -1.0
    return x


@pytest.mark.parametrize("fn", [zmax, zmin, zmax_if, zmin_if, zmax_ge], ids=lambda f: f.__name__)
@pytest.mark.parametrize("first_negative", [False, True])
@pytest.mark.parametrize("start", [-math.inf, math.inf, 0.0, -0.0, -5.0])
def test_signed_zero_as_python(fn, first_negative, start):
    x = signed_zeros(first_negative)
    p, j = fn(x, start), jit(fn)(x, start)
    assert same(p, j), (p, j)


def test_signed_zero_costs_a_rerun_only_at_a_zero():
    x = np.random.default_rng(15).random(N)
    f = jit(zmax)
    assert f(x, -math.inf) == zmax(x, -math.inf)
    assert f.loop_report()[0]["ran"] == "kernel"
    y = signed_zeros(True)
    assert same(f(y, -math.inf), zmax(y, -math.inf))
    assert "ended at a zero" in f.loop_report()[0]["ran"], f.loop_report()


def continue_guard(x, out, k):
    for i in range(len(x)):
        if i + k >= len(out):
            continue
        out[i + k] = x[i]
    return out


@pytest.mark.parametrize("k", [0, 3, 2000])
def test_a_store_after_continue_is_checked_where_it_runs(k):
    x = np.random.default_rng(16).random(50_000)
    f = check_store(continue_guard, x, np.zeros(50_000), k)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
