"""Helpers that write into their parameters' arrays, called from compiled loops.

The analysis reads a helper's body at each call with its parameters as the
call's arguments, so the loop sees what the helper writes (and reads) in the
caller's arrays: a helper writing out[i] for the loop's own i leaves the loop
parallel, one writing a[i + 1] while the loop reads a[i] makes it sequential.
Every case is compared with plain Python on the same data."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same

rng = np.random.default_rng(21)


def put(out, i, v):
    out[i] = v


def put_twice(out, i, v):
    put(out, i, v * 2)  # a helper calling a writing helper


def scale_row(X, i, f):
    for j in range(X.shape[1]):  # the helper's own loop: j is its own
        X[i, j] = X[i, j] * f


def bump(h, k):
    h[k] += 1


def swap(a, i, j):
    t = a[i]
    a[i] = a[j]
    a[j] = t


def shift(a, i):
    a[i] = a[i - 1]


def clip_into(out, i, v, lo, hi):
    if v < lo:
        out[i] = lo
        return
    if v > hi:
        out[i] = hi
        return
    out[i] = v


def fill_row(row, v):
    for j in range(row.shape[0]):
        row[j] = v + j


def tripled(x, out):
    for i in range(x.shape[0]):
        put(out, i, x[i] * 3)


def doubled_through_two_helpers(x, out):
    for i in range(x.shape[0]):
        put_twice(out, i, x[i])


def scale_rows(X):
    for i in range(X.shape[0]):
        scale_row(X, i, 0.5 + i)


def histogram(idx, h):
    for i in range(idx.shape[0]):
        bump(h, idx[i])


def reverse(a):
    n = a.shape[0]
    for i in range(n // 2):
        swap(a, i, n - 1 - i)


def running_copy(a):
    for i in range(1, a.shape[0]):
        shift(a, i)


def clipped(x, out):
    for i in range(x.shape[0]):
        clip_into(out, i, x[i], -1.0, 1.0)


def fill_rows(X):
    for i in range(X.shape[0]):
        row = X[i]
        fill_row(row, i * 10.0)  # a row of X passed on


def kinds(f):
    return [(r["kind"], r["ran"]) for r in f.loop_report()]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_a_helper_writing_the_loops_element_runs_in_parallel(dtype):
    x = (rng.standard_normal(5001) * 10).astype(dtype)
    assert kinds(jit_same(tripled, x, np.zeros_like(x))) == [("parallel", "kernel")]
    assert kinds(jit_same(doubled_through_two_helpers, x, np.zeros_like(x))) == [("parallel", "kernel")]
    assert kinds(jit_same(clipped, x.astype(np.float64), np.zeros(x.shape[0]))) == [("parallel", "kernel")]


def test_a_helper_with_its_own_loop_over_a_row():
    X = rng.standard_normal((300, 17))
    assert kinds(jit_same(scale_rows, X)) == [("parallel", "kernel")]
    assert kinds(jit_same(fill_rows, np.zeros((40, 9)))) == [("parallel", "kernel")]


def test_scattered_increments_through_a_helper_are_atomic():
    idx = rng.integers(0, 37, 20_000)
    f = jit_same(histogram, idx, np.zeros(37))
    (loop,) = f.loop_report()
    assert loop["kind"] == "parallel" and loop["atomic"], loop


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000, 1001])
def test_mirrored_swaps_through_a_helper(n):
    f = jit_same(reverse, np.arange(n, dtype=np.float64))
    assert kinds(f) == [("parallel", "kernel")]


def test_a_helper_carrying_a_dependence_keeps_the_loop_in_order():
    f = jit_same(running_copy, rng.standard_normal(500))
    (loop,) = f.loop_report()
    assert loop["kind"] == "sequential" and "(in helper shift)" in loop["reason"], loop


def to_global(i):
    TABLE[i] = 0.0


TABLE = np.zeros(10)


def writes_a_global(n):
    for i in range(n):
        to_global(i)


def test_a_helper_writing_an_array_that_is_not_its_parameter_stays_python():
    f = jit_same(writes_a_global, 10)
    (loop,) = f.loop_report()
    assert loop["kind"] == "python" and "not one of its parameters" in loop["reason"], loop


def rows_in_place(X):
    for i in range(X.shape[0]):
        row = X[i]  # row[j] is X[i, j]: the only assignment of row, at the top of the body
        for j in range(X.shape[1]):
            row[j] = row[j] * 2 + i


def rows_from_the_previous(X):
    for i in range(1, X.shape[0]):
        row = X[i]
        prev = X[i - 1]
        for j in range(X.shape[1]):
            row[j] = prev[j] + 1


def row_chosen_by_data(K, H):
    for i in range(K.shape[0]):
        row = H[K[i, 0]]
        row[K[i, 1]] += 1.0


def test_writes_through_a_row_view_are_writes_of_its_array():
    X = rng.standard_normal((200, 11))
    assert kinds(jit_same(rows_in_place, X))[0] == ("parallel", "kernel")
    f = jit_same(rows_from_the_previous, X)
    assert f.loop_report()[0]["kind"] == "sequential", f.loop_report()
    f = jit_same(row_chosen_by_data, rng.integers(0, 5, (3000, 2)), np.zeros((5, 5)))
    assert f.loop_report()[0]["kind"] == "sequential", f.loop_report()


def clamp(v, lo=0.0, hi=1.0):
    return lo if v < lo else hi if v > hi else v


def put_scaled(out, i, v, *, scale=1.0):
    out[i] = v * scale


def with_keywords(x, out, o2):
    for i in range(x.shape[0]):
        out[i] = clamp(x[i], hi=0.5) + clamp(x[i], lo=-1.0, hi=2.0) + clamp(v=x[i])
        put_scaled(o2, i, x[i], scale=3.0)


def keywords_in_any_order(x, out):
    for i in range(x.shape[0]):
        put_scaled(v=x[i] * 2, i=i, out=out)


def unknown_keyword(x, out):
    for i in range(x.shape[0]):
        out[i] = clamp(x[i], z=1)


def test_helpers_called_with_keyword_arguments_and_defaults():
    x = rng.standard_normal(3001) * 2
    f = jit_same(with_keywords, x, np.zeros_like(x), np.zeros_like(x))
    assert kinds(f) == [("parallel", "kernel")]
    assert kinds(jit_same(keywords_in_any_order, x, np.zeros_like(x))) == [("parallel", "kernel")]


def test_a_call_python_would_refuse_stays_python_and_raises_as_python():
    x = rng.standard_normal(10)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        unknown_keyword(x, np.zeros(10))
    f = numgpu.jit(unknown_keyword)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        f(x, np.zeros(10))
    assert "got an unexpected keyword argument 'z'" in f.loop_report()[0]["reason"]


def put_pair(p, i, a, b):
    j = 2 * i      # the helper's own names, assigned once before any read:
    k = j + 1      # p[j] and p[k] are p[2 * i] and p[2 * i + 1]
    p[j] = a
    p[k] = b


def put_next(p, i, v):
    k = i + 1
    p[k] = p[i] + v  # p[i + 1] from p[i]: carried from one iteration to the next


def put_moved(p, i, v):
    k = i
    k = k + 1        # assigned twice: not a let (what it holds is not known)
    p[k] = v


def interleave(a, b, out):
    for i in range(a.shape[0]):
        put_pair(out, i, a[i], b[i])


def running(x, out):
    for i in range(x.shape[0] - 1):
        put_next(out, i, x[i])


def moved(x, out):
    for i in range(x.shape[0] - 1):
        put_moved(out, i, x[i])


def test_a_helpers_own_index_names_assigned_once_are_proven():
    a, b = rng.standard_normal(3001), rng.standard_normal(3001)
    assert kinds(jit_same(interleave, a, b, np.zeros(6002))) == [("parallel", "kernel")]
    f = jit_same(running, rng.standard_normal(400), np.zeros(400))
    assert f.loop_report()[0]["kind"] == "sequential", f.loop_report()
    f = jit_same(moved, rng.standard_normal(400), np.zeros(400))
    assert f.loop_report()[0]["kind"] == "sequential", f.loop_report()
