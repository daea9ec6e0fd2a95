"""A matrix times a row inside a compiled loop (`W @ X[i]`, `X[i] @ W`, `np.dot(R[i], p)`,
`np.matmul`): a row, each element a sum over the matrix's other axis, in the loop over the
row's elements; two matrices (`A[i] @ B[i]`, `W.T @ A[i]`): a part of two axes. Compared with plain Python: integers exactly, floats within a few ulps (NumPy's
BLAS sums in its own order)."""
import numpy as np
import pytest

import numgpu
from helpers import python_and_jit


def close_same(fn, *args, rtol=1e-12):
    """fn under @numgpu.jit against plain fn, on copies: every array argument afterwards (exactly for
    integers, within rtol for floats). Returns the jitted function."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fn(*plain)
    f = numgpu.jit(fn)
    f(*mine)
    for p, m in zip(plain, mine):
        if isinstance(p, np.ndarray):
            assert m.dtype == p.dtype
            if p.dtype.kind in "iub":
                np.testing.assert_array_equal(m, p)
            else:
                np.testing.assert_allclose(m, p, rtol=rtol, atol=rtol)
    return f


def ran(f):
    return [loop["ran"] for loop in f.loop_report()]


def matrix_rows(W, X, out):
    for i in range(X.shape[0]):
        out[i] = W @ X[i]


def rows_matrix(W, X, out):
    for i in range(X.shape[0]):
        out[i] = X[i] @ W


def dense_layer(W, b, X, out):
    for i in range(X.shape[0]):
        h = np.tanh(np.dot(W, X[i]) + b)
        out[i] = np.sum(h * h) + np.max(h)


def turned(R, P, out):
    for i in range(P.shape[0]):
        out[i] = R[i] @ P[i] + 1


def through_a_view(R, P, out):
    for i in range(P.shape[0]):
        Ri = R[i]
        out[i, :] = np.matmul(Ri, P[i]) - P[i]


def summed(W, X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(W @ X[i]) + np.sum(X[i] @ W * 2)


def transposed(W, X, out):
    for i in range(X.shape[0]):
        out[i] = W.T @ X[i] + np.dot(X[i], W.T) * 2


def transposed_element(W, out):
    for i in range(out.shape[0]):
        out[i] = W.T[0, i]


def partial_rows(W, x, start, out):
    for i in range(start.shape[0]):
        out[i] = W @ x[start[i]:start[i] + 3]


CASES = [
    (np.float64, 1e-12), (np.float32, 1e-5), (np.int64, 0), (np.int32, 0), (np.complex128, 1e-12),
]


@pytest.mark.parametrize("dt,rtol", CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_a_matrix_times_rows(dt, rtol):
    rng = np.random.default_rng(30)

    def arr(*shape):
        x = rng.standard_normal(shape) * 4
        if np.dtype(dt).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return x.astype(dt)

    W, X = arr(5, 7), arr(40, 7)
    for fn, args in ((matrix_rows, (W, X, np.zeros((40, 5), dt))),
                     (transposed, (arr(7, 7), X, np.zeros((40, 7), dt))),
                     (rows_matrix, (arr(7, 5), X, np.zeros((40, 5), dt))),
                     (turned, (arr(40, 3, 3), arr(40, 3), np.zeros((40, 3), dt))),
                     (through_a_view, (arr(40, 3, 3), arr(40, 3), np.zeros((40, 3), dt))),
                     (summed, (arr(7, 7), arr(40, 7), np.zeros(40, dt)))):
        f = close_same(fn, *args, rtol=rtol)
        assert f.loop_report()[0]["kind"] == "parallel" and ran(f)[0] == "kernel", (fn.__name__, f.loop_report())


def test_a_dense_layer_named_and_read_twice():
    rng = np.random.default_rng(31)
    W, b, X = rng.standard_normal((6, 9)), rng.standard_normal(6), rng.standard_normal((50, 9))
    f = close_same(dense_layer, W, b, X, np.zeros(50))
    assert ran(f)[0] == "kernel", f.loop_report()
    f = close_same(dense_layer, W.astype(np.float32), b.astype(np.float32), X.astype(np.float32),
                   np.zeros(50, np.float32), rtol=1e-5)
    assert ran(f)[0] == "kernel", f.loop_report()


def test_lengths_that_do_not_match_raise_numpys_valueerror():
    rng = np.random.default_rng(32)
    W = rng.standard_normal((4, 3))
    # every row of another length: the kernel knows before it starts, the loop runs as Python
    want, got, f = python_and_jit(matrix_rows, W, rng.standard_normal((10, 5)), np.zeros((10, 4)))
    assert want[0] is ValueError and got == want, (got, want)
    # a slice that comes up short at the end: found in the kernel
    x = rng.standard_normal(12)
    for start in ([0, 4, 10], [0, 11, 2]):
        want, got, f = python_and_jit(partial_rows, W, x, np.array(start), np.zeros((3, 4)))
        assert want[0] is ValueError and got[0] is ValueError, (start, got, want)
    f = close_same(partial_rows, W, x, np.array([0, 4, 9, 1]), np.zeros((4, 4)))
    assert ran(f)[0] == "kernel", f.loop_report()


def two_matrices(W, V, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(W @ V) + i


def products(A, B, C):
    for i in range(A.shape[0]):
        C[i] = A[i] @ B[i]


def products_turned(A, B, C, D):
    for i in range(A.shape[0]):
        C[i] = np.dot(A[i].T, A[i]) + 1
        D[i] = np.matmul(A[i], B[i].T)


def gram_named(A, W, out, cols):
    for i in range(A.shape[0]):
        P = A[i] @ W
        out[i] = np.max(P * P)
        cols[i] = np.sum(P, axis=0)


def chained(A, out):
    for i in range(A.shape[0]):
        out[i] = A[i] @ A[i] @ A[i]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.int64, np.complex128])
def test_two_matrices(dt):
    rng = np.random.default_rng(33)
    A = (rng.standard_normal((20, 3, 4)) * 4).astype(dt)
    B = (rng.standard_normal((20, 5, 4)) * 4).astype(dt)
    rtol = 1e-5 if dt == np.float32 else 1e-12
    f = close_same(products, A, B.transpose(0, 2, 1).copy(), np.zeros((20, 3, 5), dt), rtol=rtol)
    assert ran(f) == ["kernel"] and f.loop_report()[0]["kind"] == "parallel", f.loop_report()
    f = close_same(products_turned, A, B, np.zeros((20, 4, 4), dt), np.zeros((20, 3, 5), dt), rtol=rtol)
    assert ran(f) == ["kernel"], f.loop_report()
    W = (rng.standard_normal((4, 6)) * 4).astype(dt)
    if dt != np.complex128:  # (np.max of complex values runs as Python)
        f = close_same(gram_named, A, W, np.zeros(20, dt), np.zeros((20, 6), dt), rtol=rtol)
        assert ran(f) == ["kernel"], f.loop_report()
    f = close_same(two_matrices, W, W.T.copy(), np.zeros(5, dt), rtol=rtol)
    assert ran(f) == ["kernel"], f.loop_report()


def test_two_matrices_that_do_not_fit_raise_numpys_valueerror():
    rng = np.random.default_rng(34)
    A = rng.standard_normal((5, 3, 4))
    want, got, f = python_and_jit(products, A, rng.standard_normal((5, 3, 5)), np.zeros((5, 3, 5)))
    assert want[0] is ValueError and got == want, (got, want)
    assert "rows of other lengths" in ran(f)[0], f.loop_report()


def small_ints(W, X, out):
    for i in range(X.shape[0]):
        out[i] = W @ X[i]


def test_what_stays_python():
    W = np.arange(9.0).reshape(3, 3)
    A = np.arange(36.0).reshape(4, 3, 3)
    f = close_same(chained, A, np.zeros((4, 3, 3)))  # (a product of a product: Python)
    assert "a matrix and other than a row" in ran(f)[0], f.loop_report()
    want, got = np.zeros(3), np.zeros(3)
    transposed_element(W, want)
    f = numgpu.jit(transposed_element)
    f(W, got)
    np.testing.assert_array_equal(got, want)
    assert "subscripting 'W.T'" in ran(f)[0], f.loop_report()
    Wi = np.arange(9, dtype=np.int8).reshape(3, 3)
    Xi = np.arange(12, dtype=np.int8).reshape(4, 3)
    want, got = np.zeros((4, 3), np.int8), np.zeros((4, 3), np.int8)
    small_ints(Wi, Xi, want)
    f = numgpu.jit(small_ints)
    f(Wi, Xi, got)
    np.testing.assert_array_equal(got, want)
    assert "numbers of fewer than 4 bytes" in ran(f)[0], f.loop_report()
