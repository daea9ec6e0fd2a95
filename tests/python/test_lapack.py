"""numgpu.linalg's device factorisations (src/ops/lapack.c: LU with partial pivoting and
Cholesky as generated kernels) against numpy.linalg: solve, inv, det, slogdet, cholesky for
stacks of float32, float64, complex64 and complex128 matrices (integers and bool in float64),
broadcasting, vector right-hand sides, empty stacks, and NumPy's errors.

Values are compared relative to the largest magnitude of NumPy's result: LU with partial
pivoting and LAPACK's blocked LU round differently, by a few ulps times the condition number.
"""
import numpy as np
import pytest

import numgpu as ng
from helpers import case_id

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.dtype(np.float32): 2e-4, np.dtype(np.float64): 1e-10, np.dtype(np.complex64): 2e-4,
       np.dtype(np.complex128): 1e-10}


def mats(dt, shape, seed=0):
    """Well-conditioned test matrices: random plus a multiple of the identity."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    n = shape[-1]
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        x = x + 2 * np.sqrt(n) * np.eye(n)
    return np.asarray(x, dtype=dt)


def hpd(dt, shape, seed=0):
    """Hermitian positive-definite matrices."""
    a = mats(dt, shape, seed)
    return np.asarray(a @ np.conj(np.swapaxes(a, -1, -2)) + np.eye(shape[-1]), dtype=dt)


def close(got, exp, dt=None):
    assert isinstance(got, ng.ndarray)
    g, e = got.get(), np.asarray(exp)
    assert g.shape == e.shape, (g.shape, e.shape)
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    if e.size == 0:
        return
    scale = max(np.max(np.abs(e)), 1e-300)
    tol = TOL[np.dtype(dt or e.dtype)]
    assert np.max(np.abs(g - e)) <= tol * scale, np.max(np.abs(g - e)) / scale


@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
@pytest.mark.parametrize("n", [1, 2, 5, 33])
def test_solve_inv_det(dt, n):
    a = mats(dt, (n, n), seed=n)
    b = mats(dt, (n, 3), seed=n + 1)
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b[:, 0])), np.linalg.solve(a, b[:, 0]))
    close(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a))
    close(ng.linalg.det(ng.asarray(a)), np.linalg.det(a))
    sign, logabs = ng.linalg.slogdet(ng.asarray(a))
    es, el = np.linalg.slogdet(a)
    close(sign, es)
    close(logabs, el, dt)


@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
def test_stacks_and_broadcasting(dt):
    a = mats(dt, (2, 3, 4, 4), seed=3)
    b = mats(dt, (3, 4, 2), seed=4)                 # batch (3,) broadcasts against (2, 3)
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    v = mats(dt, (4,), seed=5)                      # one vector for every matrix
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(v)), np.linalg.solve(a, v))
    close(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a))
    close(ng.linalg.det(ng.asarray(a)), np.linalg.det(a))
    r = ng.linalg.slogdet(ng.asarray(a))
    e = np.linalg.slogdet(a)
    close(r.sign, e.sign)
    close(r.logabsdet, e.logabsdet, dt)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.int64, np.uint32], ids=case_id)
def test_integer_inputs_compute_in_float64(dt):
    a = (np.arange(9).reshape(3, 3) % 4 + 2 * np.eye(3, dtype=int)).astype(dt)
    if dt == np.bool_:
        a = np.eye(3, dtype=bool) | np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], bool)
    b = np.arange(3).astype(dt)
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    close(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a))
    close(ng.linalg.det(ng.asarray(a)), np.linalg.det(a))


def test_mixed_dtypes_promote():
    a, b = mats(np.float32, (3, 3)), mats(np.float64, (3,))
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    c = mats(np.complex64, (3,))
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(c)), np.linalg.solve(a, c))


@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (3, 17, 17)])
def test_cholesky(dt, shape):
    h = hpd(dt, shape, seed=7)
    close(ng.linalg.cholesky(ng.asarray(h)), np.linalg.cholesky(h))
    close(ng.linalg.cholesky(ng.asarray(h), upper=True), np.linalg.cholesky(h, upper=True))


def test_cholesky_reads_the_lower_triangle_only():
    h = hpd(np.float64, (5, 5), seed=8)
    junk = h + np.triu(np.full((5, 5), 7.0), 1)     # the strict upper triangle is ignored, as LAPACK
    close(ng.linalg.cholesky(ng.asarray(junk)), np.linalg.cholesky(h))


def test_pivoting_is_needed():
    a = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]])   # a zero leading pivot
    b = np.array([1.0, 2.0, 3.0])
    close(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    close(ng.linalg.det(ng.asarray(a)), np.linalg.det(a))
    assert float(ng.linalg.slogdet(ng.asarray(a)).sign) == float(np.linalg.slogdet(a).sign)


def test_singular_matrices():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    z = np.zeros((2, 2))
    for a in (s, z):
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            np.linalg.solve(a, np.ones(2))
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            ng.linalg.solve(ng.asarray(a), ng.asarray(np.ones(2)))
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            ng.linalg.inv(ng.asarray(a))
    assert float(ng.linalg.det(ng.asarray(z))) == np.linalg.det(z) == 0.0
    r = ng.linalg.slogdet(ng.asarray(z))
    assert float(r.sign) == 0.0 and float(r.logabsdet) == -np.inf
    stack = np.stack([np.eye(2), s])                # one singular matrix in a stack fails the call
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.inv(ng.asarray(stack))


def test_not_positive_definite():
    for a in (np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([[-1.0, 0.0], [0.0, 1.0]])):
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.cholesky(a)
        with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
            ng.linalg.cholesky(ng.asarray(a))
    for a in (np.array([[np.nan, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.0], [0.0, np.nan]])):
        got, exp = ng.linalg.cholesky(ng.asarray(a)).get(), np.linalg.cholesky(a)   # NaN goes through
        np.testing.assert_array_equal(got, exp)


def test_shape_and_dtype_errors():
    for f in (ng.linalg.inv, ng.linalg.det, ng.linalg.slogdet, ng.linalg.cholesky):
        with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions"):
            f(ng.asarray(np.ones((2, 3))))
        with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
            f(ng.asarray(np.ones(3)))
        with pytest.raises(TypeError, match="float16"):
            f(ng.asarray(np.eye(2, dtype=np.float16)))
    with pytest.raises(ValueError):
        np.linalg.solve(np.eye(2), np.ones(3))
    with pytest.raises(ValueError):
        ng.linalg.solve(ng.asarray(np.eye(2)), ng.asarray(np.ones(3)))


def test_empty():
    close(ng.linalg.det(ng.asarray(np.zeros((0, 0)))), np.linalg.det(np.zeros((0, 0))))
    close(ng.linalg.det(ng.asarray(np.zeros((2, 0, 0)))), np.linalg.det(np.zeros((2, 0, 0))))
    close(ng.linalg.inv(ng.asarray(np.zeros((0, 3, 3)))), np.linalg.inv(np.zeros((0, 3, 3))))
    close(ng.linalg.solve(ng.asarray(np.zeros((0, 0))), ng.asarray(np.zeros((0, 2)))),
          np.linalg.solve(np.zeros((0, 0)), np.zeros((0, 2))))


def test_numpy_inputs_and_results_stay_on_the_device():
    a = mats(np.float64, (4, 4))
    x = ng.linalg.solve(a, np.ones(4))              # NumPy operands are uploaded
    assert isinstance(x, ng.ndarray)
    close(x, np.linalg.solve(a, np.ones(4)))
    assert np.linalg.det(ng.asarray(a)).shape == ()  # NumPy's function dispatches to numgpu's


@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
@pytest.mark.parametrize("shape", [(1, 1), (5, 3), (3, 5), (6, 6), (2, 4, 3), (3, 2, 5), (64, 64)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dt, shape, mode):
    """NumPy's Q and R themselves (LAPACK's reflector signs), not just some factorisation."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dt)
    got, exp = ng.linalg.qr(ng.asarray(a), mode=mode), np.linalg.qr(a, mode=mode)
    if mode == "r":
        close(got, exp)
        return
    assert type(got).__name__ == "QRResult"
    close(got.Q, exp.Q)
    close(got.R, exp.R)


def test_qr_special_inputs():
    for a in (np.zeros((3, 2)), np.eye(3), np.diag([-2.0, 3.0, -4.0]), np.zeros((0, 3)), np.zeros((3, 0)),
              np.array([[0.0, 1.0], [0.0, 1.0]])):   # zero columns, empty
        for mode in ("reduced", "complete"):
            got, exp = ng.linalg.qr(ng.asarray(a), mode=mode), np.linalg.qr(a, mode=mode)
            close(got.Q, exp.Q)
            close(got.R, exp.R)
    a = np.arange(12.0).reshape(4, 3)   # rank 2: Q's last column is any unit vector orthogonal to the rest
    q, r = (x.get() for x in ng.linalg.qr(ng.asarray(a)))
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(r, np.triu(r))
    q, r = ng.linalg.qr(ng.asarray(np.arange(6).reshape(3, 2)))        # integers in float64
    assert q.dtype == r.dtype == np.float64
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.qr(ng.asarray(np.ones(3)))
    with pytest.raises(TypeError, match="float16"):
        ng.linalg.qr(ng.asarray(np.eye(2, dtype=np.float16)))
    raw = ng.linalg.qr(ng.asarray(np.eye(2)), mode="raw")                # LAPACK's storage: NumPy's
    np.testing.assert_allclose(raw[0].get(), np.linalg.qr(np.eye(2), mode="raw")[0])
