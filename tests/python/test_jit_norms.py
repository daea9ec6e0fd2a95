"""np.linalg.norm of rows and parts (every vector ord, 'fro' and None of a part of two axes),
np.var/np.std with ddof=, `a @ b` of two rows, np.dot's result dtypes (an int8 dot wraps, a
bool one is a bool, a float16 one sums in float32) and np.clip of numbers in @numgpu.jit loops
(before 2026-12-05 a loop using norm, ddof=, @ or clip ran as Python; np.dot of small
integers, bools and float16 gave NumPy's sum's dtype instead of the dot's). Against plain
Python, on every device."""
import numpy as np
import pytest

import numgpu
from helpers import case_id, jit_same, python_and_jit

pytestmark = pytest.mark.filterwarnings("ignore:Degrees of freedom")


def kinds(f):
    return [(r["kind"], r["ran"]) for r in f.loop_report()]


ORDS = [None, 1, 2, np.inf, -np.inf, 0, 3, 0.5, -1, -2.5]


def vector_norms(X, out):
    for i in range(X.shape[0]):
        out[i, 0] = np.linalg.norm(X[i])
        out[i, 1] = np.linalg.norm(X[i], 1)
        out[i, 2] = np.linalg.norm(X[i], ord=2)
        out[i, 3] = np.linalg.norm(X[i], np.inf)
        out[i, 4] = np.linalg.norm(X[i], ord=-np.inf)
        out[i, 5] = np.linalg.norm(X[i], 0)
        out[i, 6] = np.linalg.norm(X[i], 3)
        out[i, 7] = np.linalg.norm(X[i], 0.5)
        out[i, 8] = np.linalg.norm(X[i], -1)
        out[i, 9] = np.linalg.norm(X[i], ord=-2.5)


def close(got, want, dt):
    """NumPy's norms go through its BLAS dot and its SIMD abs and power: a few ulps apart."""
    rtol = 2e-6 if np.dtype(dt) in (np.float32, np.complex64) else 1e-13
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.uint8, np.bool_, np.complex128, np.complex64],
                         ids=case_id)
def test_every_vector_norm_of_rows(dt):
    rng = np.random.default_rng(41)
    X = rng.standard_normal((9, 13)) * 3
    if np.dtype(dt).kind == "c":
        X = X + 1j * rng.standard_normal((9, 13))
    X = X.astype(dt) if dt is not np.bool_ else X > 0
    X[2, 5] = 0
    X[4] = 0  # (a row of zeros: -inf's min 0, negative orders inf ** -1 = 0)
    rt = np.linalg.norm(X[0]).dtype
    want = np.zeros((9, 10), rt)
    with np.errstate(all="ignore"):
        vector_norms(X, want)
    got = np.zeros((9, 10), rt)
    f = numgpu.jit(vector_norms)
    f(X, got)
    assert kinds(f) == [("parallel", "kernel")]
    close(got, want, rt)
    assert np.array_equal(got[4], want[4])


def norm_value(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.linalg.norm(x[i:]) + np.linalg.norm(x[:i], np.inf)
    return s


def norm_of_expression(X, Y, out):
    for i in range(X.shape[0]):
        for j in range(Y.shape[0]):
            out[i, j] = np.linalg.norm(X[i] - Y[j])


def normalise_rows(X):
    for i in range(X.shape[0]):
        X[i] /= np.linalg.norm(X[i])


def test_norms_of_slices_expressions_and_in_place():
    rng = np.random.default_rng(42)
    x = rng.standard_normal(20)
    f = numgpu.jit(norm_value)  # (x[:0]'s inf norm: 0, abs(x).max(initial=0))
    close(f(x), norm_value(x), np.float64)
    assert kinds(f)[0][1] == "kernel"
    X, Y = rng.standard_normal((7, 5)), rng.standard_normal((6, 5))
    want = np.zeros((7, 6))
    norm_of_expression(X, Y, want)
    got = np.zeros((7, 6))
    f = numgpu.jit(norm_of_expression)
    f(X, Y, got)
    assert kinds(f)[0] == ("parallel", "kernel")
    close(got, want, np.float64)
    A, B = X.copy(), X.copy()
    normalise_rows(A)
    f = numgpu.jit(normalise_rows)
    f(B)
    close(B, A, np.float64)
    assert kinds(f) == [("parallel", "kernel")]


def matrix_norms(A, out):
    for i in range(A.shape[0] - 2):
        for j in range(A.shape[1] - 2):
            out[i, j] = np.linalg.norm(A[i:i + 3, j:j + 3]) + np.linalg.norm(A[i:i + 2, j:j + 3], 'fro')


def matrix_one_norm(A, out):
    for i in range(A.shape[0] - 2):
        out[i] = np.linalg.norm(A[i:i + 2], 1)  # (a matrix norm: max column sum; runs as Python)


def cube_norm(A, out):
    for i in range(A.shape[0] - 1):
        out[i] = np.linalg.norm(A[i:i + 2])  # (ord None of 3 axes: all the elements')


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16], ids=case_id)
def test_norms_of_parts_of_several_axes(dt):
    rng = np.random.default_rng(43)
    A = (rng.standard_normal((8, 9)) * 4).astype(dt)
    rt = np.linalg.norm(A[:2]).dtype
    want, got = np.zeros((6, 7), rt), np.zeros((6, 7), rt)
    matrix_norms(A, want)
    f = numgpu.jit(matrix_norms)
    f(A, got)
    assert kinds(f)[0] == ("parallel", "kernel")
    close(got, want, rt)
    f = jit_same(matrix_one_norm, A, np.zeros(6, rt))
    assert kinds(f)[0][0] == "python" and "matrix norm" in f.loop_report()[0]["reason"]
    C = (rng.standard_normal((5, 3, 4)) * 4).astype(dt)
    want, got = np.zeros(4, rt), np.zeros(4, rt)
    cube_norm(C, want)
    f = numgpu.jit(cube_norm)
    f(C, got)
    assert kinds(f) == [("parallel", "kernel")]
    close(got, want, rt)


def empty_min_norm(X, out, a):
    for i in range(X.shape[0]):
        out[i] = np.linalg.norm(X[i, a:], -np.inf)


def vector_fro(X, out):
    for i in range(X.shape[0]):
        out[i] = np.linalg.norm(X[i], 'fro')


def ord_of_a_variable(X, out, p):
    for i in range(X.shape[0]):
        out[i] = np.linalg.norm(X[i], p)


def half_norm(X, out):
    for i in range(X.shape[0]):
        out[i] = np.linalg.norm(X[i])


def test_norms_errors_and_what_runs_as_python():
    X = np.arange(12.0).reshape(3, 4)
    py, jit, f = python_and_jit(empty_min_norm, X, np.zeros(3), 4)  # (NumPy's ValueError of an empty min)
    assert py[0] is ValueError and jit == py
    jit_same(empty_min_norm, X, np.zeros(3), 1)
    py, jit, f = python_and_jit(vector_fro, X, np.zeros(3))  # ("Invalid norm order 'fro' for vectors")
    assert py[0] is ValueError and jit == py
    f = jit_same(ord_of_a_variable, X, np.zeros(3), 3)
    assert kinds(f)[0][0] == "python" and "constant" in f.loop_report()[0]["reason"]
    f = jit_same(half_norm, X.astype(np.float16), np.zeros(3, np.float16))
    assert kinds(f)[0][0] == "python"


def spreads(X, out, d):
    for i in range(X.shape[0]):
        out[i, 0] = np.std(X[i], ddof=1)
        out[i, 1] = np.var(X[i], ddof=d)
        out[i, 2] = X[i].std(ddof=d)
        out[i, 3] = X[i, 1:].var(ddof=0)
        out[i, 4] = np.std(X[i, :2], ddof=d)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.uint8, np.bool_], ids=case_id)
@pytest.mark.parametrize("d", [0, 1, 2, 2.5, 5])  # (2, 5: n - ddof 0 or less for some: inf and nan, as NumPy)
def test_var_and_std_with_ddof(dt, d):
    rng = np.random.default_rng(44)
    X = (rng.standard_normal((6, 4)) * 3)
    X = X.astype(dt) if dt is not np.bool_ else X > 0
    rt = np.var(X[0]).dtype
    f = jit_same(spreads, X, np.zeros((6, 5), rt), d)
    assert kinds(f) == [("parallel", "kernel")]


def spread_of_unknown_keyword(X, out):
    for i in range(X.shape[0]):
        out[i] = np.std(X[i], ddof=1, where=X[i] > 2)


def test_other_keywords_run_as_python():
    X = np.arange(12.0).reshape(3, 4)
    f = jit_same(spread_of_unknown_keyword, X, np.zeros(3))
    assert kinds(f)[0][0] == "python"


def matmul_rows(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = X[i] @ Y[i] + Y[i, :3] @ X[i, 1:]


def dots(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = np.dot(X[i], Y[i]) // 3 + X[i].dot(Y[-1 - i])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int8, np.uint8, np.int32, np.bool_, np.float16,
                                np.complex128], ids=case_id)
def test_matmul_and_dot_of_rows_in_numpys_dtypes(dt):
    rng = np.random.default_rng(45)
    X, Y = (rng.standard_normal((2, 6, 4)) * 20)
    if np.dtype(dt).kind == "c":
        X, Y = X + 1j * Y, Y - 1j * X
    X, Y = (X.astype(dt), Y.astype(dt)) if dt is not np.bool_ else (X > 0, Y > 0)
    rt = (X[0] @ Y[0]).dtype
    if np.dtype(dt).kind in "iub":  # (exact: an int8 dot wraps, a bool one is a bool)
        f = jit_same(matmul_rows, X, Y, np.zeros(6, rt))
        assert kinds(f) == [("parallel", "kernel")]
        if dt is not np.bool_:
            jit_same(dots, X, Y, np.zeros(6, rt))
        return
    want, got = np.zeros(6, rt), np.zeros(6, rt)
    with np.errstate(all="ignore"):
        matmul_rows(X, Y, want)
    f = numgpu.jit(matmul_rows)
    f(X, Y, got)
    assert kinds(f) == [("parallel", "kernel")]
    if dt is np.float16:  # (NumPy's: the products summed in float32, in order, rounded once)
        assert np.array_equal(got, want)
    else:
        close(got, want, dt)


def dot_with_a_number(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(np.dot(X[i], 2.0))


def matmul_of_numbers(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i, 0] @ X[i, 1]


def test_dot_with_a_number_and_matmul_of_numbers():
    X = np.arange(12.0).reshape(3, 4)
    f = jit_same(dot_with_a_number, X, np.zeros(3))  # (NumPy's is an array: the loop runs as Python)
    assert kinds(f)[0][0] == "python"
    py, jit, f = python_and_jit(matmul_of_numbers, X, np.zeros(3))
    assert py[0] is TypeError and jit == py


def clips(x, lo, hi, y):
    for i in range(x.shape[0]):
        y[i] = np.clip(x[i], lo, hi)


def clip_wide(x, y):
    for i in range(x.shape[0]):
        y[i] = np.clip(x[i], -300, 300) + np.clip(x[i], 0, 3.5)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16, np.int8, np.uint8, np.int64, np.uint64, np.bool_],
                         ids=case_id)
def test_clip_of_numbers(dt):
    x = np.array([-0.0, 0.0, 0.5, 2, np.nan, -5, 7, 1]) if np.dtype(dt).kind == "f" else np.arange(-4, 4)
    x = x.astype(dt) if dt is not np.bool_ else x > 0
    bounds = [(0, 1), (0.0, 1.0), (-0.0, 0.0), (3, 1), (1, 3)]
    if np.dtype(dt).kind == "f":
        bounds += [(np.nan, 1.0), (0.0, np.nan), (dt(0.25), dt(0.75))]
    for lo, hi in bounds:
        rt = np.clip(x[0], lo, hi).dtype
        f = jit_same(clips, x, lo, hi, np.zeros(len(x), rt))
        assert kinds(f) == [("parallel", "kernel")], (lo, hi)
    rt = (np.clip(x[0], -300, 300) + np.clip(x[0], 0, 3.5)).dtype
    jit_same(clip_wide, x, np.zeros(len(x), rt))  # (NumPy 2: an int bound past the dtype is its end)


def test_clip_of_complex_runs_as_python():
    x = np.array([1 + 1j, -2 + 0.5j, 0.5 - 3j])
    f = jit_same(clips, x, 0, 1, np.zeros(3, complex))
    assert kinds(f)[0][0] == "python"
