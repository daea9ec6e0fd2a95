"""eigh/eigvalsh and svd/svdvals on every device, and what is composed of them (pinv, matrix_rank,
cond, norm 2/-2/'nuc'): the host's LAPACK on cpu, the generated Jacobi kernels (src/ops/jacobi.c)
on opencl and cuda. Nothing may fall back to NumPy on any device.

Eigenvectors and singular vectors are unique only up to signs/phases (and within repeated values
not at all), so they are checked by invariants: A V = V diag(w) and V^H V = I; U diag(s) Vh = A and
U, Vh orthonormal (a full U or Vh too). Eigen- and singular values are compared with NumPy's.
"""
import numpy as np
import pytest

import numgpu as ng
from helpers import case_id, no_fallback  # noqa: F401  (autouse: no call may fall back to NumPy)

REAL = [np.float32, np.float64]
ALL = REAL + [np.complex64, np.complex128]


def eps(dt):
    return float(np.finfo(np.dtype(dt)).eps)


def rand(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def herm(dt, shape, seed=0):
    x = rand(dt, shape, seed)
    return (x + np.conj(np.swapaxes(x, -1, -2))).astype(dt)


def ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


def close(got, want, tol, what=""):
    scale = max(float(np.max(np.abs(want), initial=0)), 1e-300)
    err = float(np.max(np.abs(got - want), initial=0))
    assert err <= tol * max(scale, 1.0), "%s: error %g, tolerance %g" % (what, err, tol * max(scale, 1.0))


def check_eigh(a, uplo="L"):
    """eigh/eigvalsh of a against NumPy's (a Hermitian, as both read it)."""
    dt = a.dtype
    w, v = ng.linalg.eigh(ng.asarray(a), UPLO=uplo)
    we = np.linalg.eigvalsh(a, UPLO=uplo)
    assert isinstance(w, ng.ndarray) and isinstance(v, ng.ndarray)
    assert w.dtype == we.dtype and w.shape == we.shape and v.shape == a.shape and v.dtype == a.dtype
    wg, vg = w.get(), v.get()
    n = a.shape[-1]
    tol = 50 * n * eps(dt)
    norm = max(np.abs(we).max(initial=0), 1e-300)
    close(wg, we, tol, "eigenvalues")
    assert np.all(np.diff(wg, axis=-1) >= 0), "not ascending"
    full = a.astype(np.complex128 if dt.kind == "c" else np.float64)
    tri = np.tril(full) if uplo == "L" else np.triu(full)  # the Hermitian matrix NumPy reads
    full = tri + ct(tri) - np.real(np.diagonal(tri, 0, -2, -1))[..., None] * np.eye(n)
    close(full @ vg, vg * wg[..., None, :], tol * norm / max(norm, 1), "A V = V w")
    close(ct(vg) @ vg, np.broadcast_to(np.eye(n), a.shape), tol, "V^H V = I")
    wv = ng.linalg.eigvalsh(ng.asarray(a), UPLO=uplo)
    assert wv.dtype == we.dtype
    close(wv.get(), we, tol, "eigvalsh")


def check_svd(a):
    """svd (full and reduced), svd(compute_uv=False) and svdvals of a against NumPy's."""
    dt = a.dtype
    m, n = a.shape[-2:]
    k = min(m, n)
    se = np.linalg.svd(a, compute_uv=False)
    tol = 50 * max(m, n) * eps(dt)
    for full in (True, False):
        u, s, vh = ng.linalg.svd(ng.asarray(a), full_matrices=full)
        ue, _, vhe = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (ue.shape, se.shape, vhe.shape)
        assert (u.dtype, s.dtype, vh.dtype) == (ue.dtype, se.dtype, vhe.dtype)
        ug, sg, vg = u.get(), s.get(), vh.get()
        close(sg, se, tol, "singular values")
        assert np.all(np.diff(sg, axis=-1) <= 0), "not descending"
        close((ug[..., :k] * sg[..., None, :]) @ vg[..., :k, :], a, tol, "U S Vh = A")
        close(ct(ug) @ ug, np.broadcast_to(np.eye(ug.shape[-1]), ug.shape[:-2] + (ug.shape[-1],) * 2), tol, "U^H U")
        close(vg @ ct(vg), np.broadcast_to(np.eye(vg.shape[-2]), vg.shape[:-2] + (vg.shape[-2],) * 2), tol, "Vh Vh^H")
    for got in (ng.linalg.svd(ng.asarray(a), compute_uv=False), ng.linalg.svdvals(ng.asarray(a))):
        assert got.dtype == se.dtype and got.shape == se.shape
        close(got.get(), se, tol, "svdvals")


@pytest.mark.parametrize("dt", ALL, ids=case_id)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (32, 32), (3, 4, 4), (2, 3, 6, 6), (40, 3, 3)], ids=case_id)
def test_eigh(dt, shape):
    check_eigh(herm(dt, shape))


@pytest.mark.parametrize("dt", REAL + [np.complex128], ids=case_id)
def test_eigh_upper_triangle(dt):
    a = herm(dt, (6, 6))
    junk = np.tril(np.full((6, 6), 77.0), -1).astype(dt)
    check_eigh(np.triu(a) + junk, uplo="U")
    check_eigh(np.tril(a) + junk.T, uplo="L")


@pytest.mark.parametrize("dt", REAL, ids=case_id)
def test_eigh_degenerate(dt):
    q, _ = np.linalg.qr(np.random.default_rng(1).standard_normal((7, 7)))
    repeated = (q * np.array([1, 1, 2, 2, 2, -3, 0.0])) @ q.T  # repeated and zero eigenvalues
    x = np.random.default_rng(2).standard_normal((7, 2))
    low_rank = x @ x.T  # rank 2
    for a in (np.eye(5), np.zeros((4, 4)), np.ones((6, 6)), repeated, low_rank, np.diag([3.0, -1, 2, 2])):
        check_eigh(a.astype(dt))


@pytest.mark.parametrize("scale", [1e150, 1e-150, 1e30])
def test_eigh_svd_scaled(scale):
    """Entries near overflow or underflow (each matrix is scaled by its largest entry)."""
    a = herm(np.float64, (5, 5), 3) * scale
    check_eigh(a)
    check_svd(rand(np.float64, (6, 4), 4) * scale)


@pytest.mark.parametrize("dt", ALL, ids=case_id)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (32, 32), (100, 60), (60, 100), (1, 7), (7, 1),
                                   (3, 7, 4), (2, 2, 4, 7), (50, 3, 2)], ids=case_id)
def test_svd(dt, shape):
    check_svd(rand(dt, shape))


@pytest.mark.parametrize("dt", REAL + [np.complex128], ids=case_id)
def test_svd_rank_deficient(dt):
    rng = np.random.default_rng(5)
    x, y = rand(dt, (8, 2), 6), rand(dt, (2, 5), 7)
    cases = [x @ y, (x @ y).T.copy(), np.zeros((4, 3), dt), np.ones((3, 6), dt), np.eye(4, dtype=dt),
             np.diag([2.0, 2.0, 1.0, 0.0]).astype(dt),
             np.stack([x @ y, rng.standard_normal((8, 5)).astype(dt)])]
    for a in cases:
        check_svd(a)


def test_integer_and_bool_inputs_in_double():
    a = np.array([[2, 1], [1, 3]])
    check_eigh(a.astype(np.float64))
    w = ng.linalg.eigvalsh(ng.asarray(a))
    assert w.dtype == np.float64
    close(w.get(), np.linalg.eigvalsh(a), 1e-14)
    s = ng.linalg.svdvals(ng.asarray(np.array([[True, False], [True, True]])))
    assert s.dtype == np.float64


def test_empty_and_zero_stacks():
    for shape in [(0, 3, 3), (0, 0), (2, 0, 0)]:
        w, v = ng.linalg.eigh(ng.asarray(np.zeros(shape)))
        we, ve = np.linalg.eigh(np.zeros(shape))
        assert w.shape == we.shape and v.shape == ve.shape
    for shape in [(0, 3, 2), (0, 2, 3), (3, 0), (0, 3)]:
        for full in (True, False):
            for g, e in zip(ng.linalg.svd(ng.asarray(np.zeros(shape)), full_matrices=full),
                            np.linalg.svd(np.zeros(shape), full_matrices=full)):
                assert g.shape == e.shape
                np.testing.assert_array_equal(g.get(), e)


def test_non_finite():
    """NaN or inf: eigh gives NaN; svd and svdvals raise NumPy's LinAlgError where NumPy's LAPACK
    does (a NaN) and give NaN where it does (an infinity)."""
    for bad in (np.nan, np.inf):
        a = np.array([[1.0, bad], [bad, 2.0]])
        assert np.isnan(ng.linalg.eigvalsh(ng.asarray(a)).get()).all()
        w, v = ng.linalg.eigh(ng.asarray(a))
        assert np.isnan(w.get()).all() and np.isnan(v.get()).all()
        for f in (lambda x: x.svd(a if x is np.linalg else ng.asarray(a)),
                  lambda x: x.svdvals(a if x is np.linalg else ng.asarray(a))):
            try:
                want = f(np.linalg)
            except np.linalg.LinAlgError:
                with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
                    f(ng.linalg)
            else:
                got = f(ng.linalg)
                for g, e in zip(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple) else [want]):
                    assert np.isnan(g.get()).all() and np.isnan(e).all()
    # one bad matrix of a stack leaves the others' values alone (eigh)
    stack = np.stack([np.diag([1.0, 2.0]), np.full((2, 2), np.nan)])
    w = ng.linalg.eigvalsh(ng.asarray(stack)).get()
    np.testing.assert_allclose(w[0], [1, 2])
    assert np.isnan(w[1]).all()


@pytest.mark.parametrize("name,arg", [("eigh", np.ones(3)), ("eigh", np.ones((2, 3))), ("eigvalsh", np.ones((3, 2))),
                                      ("svd", np.ones(4)), ("svdvals", np.ones(2)),
                                      ("eigh", np.ones((2, 2), np.float16)), ("svdvals", np.ones((2, 2), np.float16))],
                         ids=case_id)
def test_errors_as_numpy(name, arg):
    with pytest.raises(Exception) as want:
        getattr(np.linalg, name)(arg)
    with pytest.raises(type(want.value)):
        getattr(ng.linalg, name)(ng.asarray(arg))


@pytest.mark.parametrize("dt", ALL, ids=case_id)
@pytest.mark.parametrize("shape", [(5, 5), (100, 60), (60, 100), (4, 3, 3)], ids=case_id)
def test_compositions(dt, shape):
    a = rand(dt, shape, 8)
    tol = 200 * max(shape[-2:]) * eps(dt)
    close(ng.linalg.pinv(ng.asarray(a)).get(), np.linalg.pinv(a), tol * 10, "pinv")
    assert np.array_equal(ng.linalg.matrix_rank(ng.asarray(a)).get(), np.linalg.matrix_rank(a))
    for p in (None, 2, -2):
        close(ng.linalg.cond(ng.asarray(a), p).get(), np.linalg.cond(a, p), tol * 10, "cond %s" % p)
    for ord in (2, -2, "nuc"):
        close(ng.linalg.norm(ng.asarray(a), ord, axis=(-2, -1)).get(), np.linalg.norm(a, ord, axis=(-2, -1)), tol,
              "norm %s" % ord)
    if a.shape[-1] == a.shape[-2]:
        h = a + ct(a)
        close(ng.linalg.svd(ng.asarray(h), compute_uv=False, hermitian=True).get(),
              np.linalg.svd(h, compute_uv=False, hermitian=True), tol, "svd hermitian")


def test_rank_of_deficient_matrices():
    x = np.random.default_rng(9).standard_normal((30, 3))
    for a in (x @ x.T, np.zeros((5, 7)), np.ones((6, 4)), np.stack([x @ x.T, np.eye(30)])):
        assert np.array_equal(ng.linalg.matrix_rank(ng.asarray(a)).get(), np.linalg.matrix_rank(a))
        close(ng.linalg.pinv(ng.asarray(a)).get(), np.linalg.pinv(a), 1e-10, "pinv")


def test_fallback_past_the_kernels_size():
    """A matrix past the Jacobi kernels' size (min(m, n)^2 max(m, n) > 256^3) is NumPy's through
    the fallback, counted, on a device without a vendor solver (opencl, the cpu without a host
    LAPACK: NUMGPU_BLAS=none); the cpu's LAPACK takes it."""
    from helpers import fallback_calls
    a = herm(np.float64, (260, 260), 10)
    before = sum(fallback_calls().values())
    close(ng.linalg.eigvalsh(ng.asarray(a)).get(), np.linalg.eigvalsh(a), 1e-11, "eigvalsh 260")
    fell = sum(fallback_calls().values()) - before
    device = str(ng.asarray([0.0]).device)
    if device.startswith("opencl"):
        assert fell == 1
    elif device.startswith("cpu"):
        assert fell == (0 if ng._core.cpu_blas()[0] else 1)
