"""Rows stored whole in @numgpu.jit loops, `Y[i] = X[i] * 2`, `Y[i, :] = v`, `Y[i] += X[i]`,
and `X[i, :]` read as `X[i]` (2026-12-05: these loops ran as Python, "slicing an array" or
"a sub-array"). The row's elements are stored in a loop of their own, each row of the value
read at the same element; a NumPy reduction in the value runs once before it; rows of other
lengths are NumPy's broadcast or its ValueError (the loop runs as Python); a value that reads
the stored array otherwise than by whole rows (`X[i] = X[i] / X[i][0]`) runs as Python, which
evaluates it before storing. Against plain Python, on every device."""
import math

import numpy as np
import pytest

from helpers import jit_same, python_and_jit


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def scaled(Y, X, c):
    for i in range(Y.shape[0]):
        Y[i] = X[i] * c + 1


def scaled_slices(Y, X, c):
    for i in range(Y.shape[0]):
        Y[i, :] = X[i, :] * c + np.sum(X[i, :])


def normalised(X):
    for i in range(X.shape[0]):
        X[i] = X[i] / np.sum(X[i])


def accumulated(Y, X):
    for i in range(Y.shape[0]):
        Y[i] += X[i] * 2


def running(Y, X):
    for i in range(1, Y.shape[0]):
        Y[i] = Y[i - 1] + X[i]


def filled(Y, v):
    for i in range(Y.shape[0]):
        Y[i, :] = v


def through_a_view(Y, X):
    for i in range(Y.shape[0]):
        r = Y[i, :]
        r[0] = X[i, 0]
        r[1] = np.max(X[i, :])


def by_first(X):
    for i in range(X.shape[0]):
        X[i] = X[i] / X[i][0]


def copied(Y, X):
    for i in range(Y.shape[0]):
        Y[i] = X[i]


X = np.arange(1.0, 61.0).reshape(12, 5) * 0.37


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int16])
def test_rows_stored_whole(dt):
    f = jit_same(scaled, np.zeros((12, 5), dt), (X * 3).astype(dt), 2)
    assert ran(f) == ["kernel"]
    f = jit_same(scaled_slices, np.zeros((12, 5), dt), (X * 3).astype(dt), 3)
    assert ran(f) == ["kernel"]
    f = jit_same(accumulated, np.ones((12, 5), dt), (X * 3).astype(dt))
    assert ran(f) == ["kernel"]


def test_a_reduction_in_the_value_runs_before_the_row():
    f = jit_same(normalised, X.copy())
    assert ran(f) == ["kernel"]


def test_another_row_of_the_stored_array():
    f = jit_same(running, np.ones((12, 5)), X)
    assert ran(f) == ["kernel (one thread)"]


@pytest.mark.parametrize("dt, v", [(np.float64, 2.5), (np.int64, 2.5), (np.uint8, 300), (np.int32, float("nan")),
                                   (np.float32, 1e40)])
def test_a_python_number_filled_in_as_into_an_element(dt, v):
    want, got, f = python_and_jit(filled, np.zeros((6, 3), dt), v)
    assert want == got
    if want[0] == "ok":
        jit_same(filled, np.zeros((6, 3), dt), v)


def test_writes_through_a_view_of_a_row():
    f = jit_same(through_a_view, np.zeros((12, 5)), X)
    assert ran(f) == ["kernel"]


def test_a_value_reading_the_row_elsewhere_runs_as_python():
    f = jit_same(by_first, X.copy())
    assert "reads otherwise" in ran(f)[0]


def reversed_into(X):
    for i in range(X.shape[0]):
        X[i, ::-1] = X[i] * 2


def column_from_row(X):
    for j in range(X.shape[1]):
        X[:, j] = X[j] + 1


def through_a_reversed_view(X):
    for i in range(X.shape[0]):
        row = X[i]
        row[::-1] = row + 1


def shifted_into(X):
    for i in range(X.shape[0]):
        X[i, 1:] = X[i, 1:] * 2 + 1


def whole_axis(X):
    for i in range(X.shape[0]):
        X[i, :] = X[i] / X[i].sum()


def test_a_part_stored_in_another_order_than_its_value_reads_runs_as_python():
    """(2026-12-05: `X[i, ::-1] = X[i] * 2` compiled, each element read after the store had
    changed it: [0, 4, 2, 0] for NumPy's [6, 4, 2, 0])"""
    for fn in (reversed_into, column_from_row, through_a_reversed_view):
        f = jit_same(fn, np.arange(16.0).reshape(4, 4))
        assert "reads otherwise" in ran(f)[0]
    f = jit_same(shifted_into, np.arange(16.0).reshape(4, 4))  # (the same part, written alike)
    assert ran(f) == ["kernel"]
    f = jit_same(whole_axis, np.arange(1.0, 17.0).reshape(4, 4))  # (X[i, :] is X[i])
    assert ran(f) == ["kernel"]


@pytest.mark.parametrize("m", [1, 2, 5])
def test_rows_of_other_lengths(m):
    want, got, f = python_and_jit(copied, np.zeros((4, 5)), np.arange(4.0 * m).reshape(4, m))
    assert want == got
    assert ran(f) == ["kernel"] if m == 5 else "other lengths" in ran(f)[0]
    if want[0] == "ok":
        jit_same(copied, np.zeros((4, 5)), np.arange(4.0 * m).reshape(4, m))


def test_an_in_place_update_of_another_dtype_raises_as_numpy():
    want, got, f = python_and_jit(accumulated, np.ones((3, 4), np.int64), np.ones((3, 4)) * 0.5)
    assert want == got and want[0].__name__ == "UFuncTypeError"


def checked_value(Y, x):
    for i in range(Y.shape[0]):
        Y[i] = int(x[i] * 3) + X[i % 12] // 2


@pytest.mark.parametrize("bad", [None, np.nan, np.inf])
def test_a_value_with_checks(bad):
    """int() of a float checks for NaN and infinity in the row's loop (2026-12-05: such a
    value made the row's statements append to themselves without end: MemoryError)."""
    x = np.linspace(-2, 2, 12)
    if bad is not None:
        x[7] = bad
    want, got, f = python_and_jit(checked_value, np.zeros((12, 5), np.int64), x)
    assert want[0] == got[0]
    if bad is None:
        jit_same(checked_value, np.zeros((12, 5), np.int64), x)
        assert ran(f) == ["kernel"]


def raising_row_in_order(M, out, k):
    for i in range(1, M.shape[0]):
        M[i] = M[i - 1] + math.sqrt(k - i)
        out[i] = i


def test_a_raise_in_a_row_store_stops_a_loop_in_order():
    want, got, f = python_and_jit(raising_row_in_order, np.ones((10, 4)), np.zeros(10), 5)
    assert want == got and want[0] is ValueError
    M1, o1, M2, o2 = np.ones((10, 4)), np.zeros(10), np.ones((10, 4)), np.zeros(10)
    try:
        raising_row_in_order(M1, o1, 5)
    except ValueError:
        pass
    try:
        f(M2, o2, 5)
    except ValueError:
        pass
    np.testing.assert_array_equal(M2, M1)
    np.testing.assert_array_equal(o2, o1)
