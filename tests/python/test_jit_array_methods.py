"""An array's reductions as methods in @numgpu.jit loops, `X[i].sum()`, `row.max()`,
`x[i - 1:i + 2].mean()`, `(X[i] > 0).any()`, `X[i].dot(y)`: NumPy's functions of the array
(before 2026-12-05 each such loop ran as Python, "calls X[i].sum"), and `np.any`, `np.all`,
`np.amax`, `np.amin` of rows, which the analysis now lets compile too. Against plain Python,
on every device."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit


def kinds(f):
    return [(r["kind"], r["ran"]) for r in f.loop_report()]


def row_methods(X, out):
    for i in range(X.shape[0]):
        out[i, 0] = X[i].sum()
        out[i, 1] = X[i].max() - X[i].min()
        out[i, 2] = X[i].mean()
        out[i, 3] = X[i, 1:3].prod()
        out[i, 4] = (X[i] > X[i, 0]).any() + 2 * (X[i] >= 0).all()


def view_methods(X, y, out):
    for i in range(X.shape[0]):
        row = X[i]
        out[i] = row.dot(y) + (row * 2).sum() + row[1:].max()


def window_methods(img, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = img[i:i + 2, j:j + 3].max() + img[i, j:j + 2].mean()


def normalise(X):
    for i in range(X.shape[0]):
        X[i] = X[i] / X[i].sum()


def numpy_functions(X, out):
    for i in range(X.shape[0]):
        out[i] = np.any(X[i] > 0.5) + 2 * np.all(X[i] > 0.1) + np.amax(X[i]) - np.amin(X[i, ::2])


def empty_max(X, out, a):
    for i in range(X.shape[0]):
        out[i] = X[i, a:].max()


def scalar_method(X, out):
    for i in range(X.shape[0]):
        v = X[i, 0]
        out[i] = v.sum()  # (a NumPy scalar's method: the loop runs as Python)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int8, np.int64, np.uint16])
def test_methods_of_rows_slices_and_expressions(dt):
    rng = np.random.default_rng(31)
    X = (rng.standard_normal((7, 5)) * 4).astype(dt)
    f = jit_same(row_methods, X, np.zeros((7, 5)))
    assert kinds(f) == [("parallel", "kernel")]
    B = X > 0
    py, jit, f = python_and_jit(row_methods, B, np.zeros((7, 5)))  # (bool - bool: NumPy's TypeError)
    assert py[0] is TypeError and jit[0] is TypeError
    jit_same(bool_methods, B, np.zeros((7, 3)))


def bool_methods(B, out):
    for i in range(B.shape[0]):
        out[i, 0] = B[i].sum() + B[i, 1:].max()
        out[i, 1] = B[i].any() + 2 * B[i].all() + 4 * B[i].min()
        out[i, 2] = B[i].mean() + B[i].prod()


def test_methods_of_views_windows_and_in_place():
    rng = np.random.default_rng(32)
    X = rng.standard_normal((6, 4))
    f = jit_same(view_methods, X, rng.standard_normal(4), np.zeros(6))
    assert kinds(f) == [("parallel", "kernel")]
    img = rng.standard_normal((9, 10))
    jit_same(window_methods, img, np.zeros((8, 8)))
    jit_same(window_methods, img, np.zeros((8, 9)))  # (windows cut short at the last column)
    f = jit_same(normalise, rng.uniform(1, 2, (5, 3)))
    assert kinds(f) == [("parallel", "kernel")]


def test_numpys_any_all_amax_amin_of_rows():
    rng = np.random.default_rng(33)
    f = jit_same(numpy_functions, rng.uniform(0, 1, (8, 5)), np.zeros(8))
    assert kinds(f) == [("parallel", "kernel")]


def test_an_empty_rows_max_and_a_scalars_method():
    X = np.arange(12.0).reshape(3, 4)
    py, jit, f = python_and_jit(empty_max, X, np.zeros(3), 4)
    assert py[0] is ValueError and jit == py
    jit_same(empty_max, X, np.zeros(3), 2)
    f = jit_same(scalar_method, X, np.zeros(3))
    assert kinds(f)[0][0] == "python"


def arg_extremes(X, out):
    for i in range(X.shape[0]):
        out[i, 0] = np.argmax(X[i])
        out[i, 1] = X[i].argmin()
        out[i, 2] = np.argmax(X[i, 1:-1]) + 10 * np.argmin(X[i, ::-2])
        out[i, 3] = np.argmax(X[i] * X[i, 0])


def arg_of_windows(img, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.argmax(img[i:i + 2, j:j + 3]) + 100 * img[i:i + 3, j].argmin()


def empty_argmax(X, out, a):
    for i in range(X.shape[0]):
        out[i] = np.argmax(X[i, a:])


def late_empty_argmin(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i, i:].argmin()


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16, np.uint8, np.bool_])
def test_argmax_argmin_first_best_in_c_order(dt):
    """NumPy's argmax/argmin: the first place of the best element (of a NaN, the first NaN),
    counted in C order over a part of several axes."""
    rng = np.random.default_rng(34)
    X = rng.integers(0, 4, (9, 7)).astype(dt)  # (ties everywhere)
    f = jit_same(arg_extremes, X, np.zeros((9, 4), np.int64))
    assert kinds(f) == [("parallel", "kernel")]
    img = rng.integers(0, 3, (8, 9)).astype(dt)
    jit_same(arg_of_windows, img, np.zeros((6, 6), np.int64))
    jit_same(arg_of_windows, img, np.zeros((7, 7), np.int64))  # (windows cut short at the ends)
    if dt in (np.float64, np.float32):
        X = rng.standard_normal((9, 7)).astype(dt)
        X[1, 3] = X[2, 0] = X[2, 5] = X[3, 6] = X[4, 2] = X[4, 4] = np.nan
        X[5] = np.nan
        X[6, :3] = -np.inf
        X[7, 4:] = np.inf
        jit_same(arg_extremes, X, np.zeros((9, 4), np.int64))


def test_argmax_of_an_empty_row_raises_numpys_error():
    X = np.arange(12.0).reshape(3, 4)
    py, jit, f = python_and_jit(empty_argmax, X, np.zeros(3, np.int64), 4)
    assert py[0] is ValueError and jit == py, (py, jit)
    jit_same(empty_argmax, X, np.zeros(3, np.int64), 3)
    X = np.arange(20.0).reshape(5, 4)  # (row 4's X[4, 4:] is empty: raised in the kernel)
    py, jit, f = python_and_jit(late_empty_argmin, X, np.zeros(5, np.int64))
    assert py[0] is ValueError and jit == py, (py, jit)
    assert kinds(f) == [("parallel", "kernel (raised)")]


def spreads(X, out):
    for i in range(X.shape[0]):
        out[i, 0] = np.var(X[i])
        out[i, 1] = X[i].std()
        out[i, 2] = np.std(X[i, 1:4] * 2)
        out[i, 3] = np.var(X[i:i + 2, :3])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16, np.uint8, np.bool_])
def test_var_and_std_as_numpys(dt):
    """NumPy's two passes: the mean, then the mean of the squared distances from it (in the
    mean's dtype: float64 for integers and bools); std its square root."""
    rng = np.random.default_rng(36)
    X = (rng.standard_normal((9, 7)) * 30 + 5).astype(dt)
    f = jit_same(spreads, X, np.zeros((9, 4), np.float64 if dt is not np.float32 else np.float32))
    assert kinds(f) == [("parallel", "kernel")]


def standardise(X):
    for i in range(X.shape[0]):
        X[i] = (X[i] - X[i].mean()) / X[i].std()


def test_rows_standardised_in_place():
    """The row's mean and std computed once before the row is stored (NumPy evaluates the value
    first)."""
    rng = np.random.default_rng(37)
    f = jit_same(standardise, rng.standard_normal((12, 6)) * 5 + 3)
    assert kinds(f) == [("parallel", "kernel")]
    jit_same(standardise, rng.standard_normal((12, 6)).astype(np.float32))


def nonzeros(X, out):
    for i in range(X.shape[0]):
        n = np.count_nonzero(X[i])
        out[i] = n + np.count_nonzero(X[i, 1:] > 0.5) * 100 + np.count_nonzero(X[i:i + 2, ::2]) * 10000
        if n > 3:  # (a Python int)
            out[i] += 0.5


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.bool_, np.complex128])
def test_count_nonzero_of_rows_and_parts(dt):
    rng = np.random.default_rng(38)
    X = (rng.integers(0, 3, (9, 7)) * rng.random((9, 7))).astype(dt)
    f = jit_same(nonzeros, X, np.zeros(9))
    assert kinds(f) == [("parallel", "kernel")]


def items(a, out):
    for i in range(a.shape[0]):
        v = a[i].item()  # (a Python number: Python's arithmetic after)
        out[i] = v * 3 + (v > 0)


def nan_sums(X, out):
    for i in range(X.shape[0]):
        out[i] = np.nansum(X[i]) + 10 * np.nansum(X[i, ::2] * 2)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int8, np.uint32, np.bool_])
def test_item_and_nansum(dt):
    rng = np.random.default_rng(39)
    a = (rng.standard_normal(20) * 50).astype(dt)
    f = jit_same(items, a, np.zeros(20))
    assert kinds(f) == [("parallel", "kernel")]
    X = (rng.standard_normal((6, 11)) * 9).astype(dt)
    if np.issubdtype(dt, np.floating):
        X[::2, 1::3] = np.nan
        X[5] = np.nan
    f = jit_same(nan_sums, X, np.zeros(6, np.float64 if dt is not np.float32 else np.float32))
    assert kinds(f) == [("parallel", "kernel")]
