"""numgpu.linalg's eigen- and singular value functions and their compositions against numpy.linalg:
eigh, eigvalsh, eig, eigvals, svd, svdvals, lstsq (NumPy's own LAPACK calls through the device's
vendor library: on cpu the same bits as NumPy), pinv, matrix_rank, cond, norm(ord=2/-2/'nuc'),
matrix_power and multi_dot (device matmuls).

Eigenvalues and singular values are compared to rounding; eigenvectors and singular vectors
through reconstructions (A V = V w, U S Vh = A) and absolute values, never raw signs.

Nothing may fall back to NumPy, except on devices without a vendor solver (opencl; cuda), where
the functions in VENDOR_ONLY (eig, eigvals, lstsq) are NumPy's through the fallback, by design (the
module docstring of numgpu.linalg and the README's status table list them); eigh and svd run there
as generated Jacobi kernels (test_linalg_gpu_decomp.py tests them further).
"""
import numpy as np
import pytest

import numgpu as ng
from helpers import case_id, fallback_calls

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12, np.dtype(np.complex64): 2e-5,
       np.dtype(np.complex128): 1e-12}
VENDOR_ONLY = {"numpy.linalg." + f for f in ("eig", "eigvals", "lstsq")}


def _vendor():
    return ng.asarray([0.0]).device == "cpu"


@pytest.fixture(autouse=True)
def device_only():
    """No fallback at all on cpu; elsewhere only the VENDOR_ONLY functions (listed, not hidden)."""
    before = fallback_calls()
    yield
    after = fallback_calls()
    fell = {k for k in after if after[k] != before.get(k, 0)}
    assert not (fell if _vendor() else fell - VENDOR_ONLY), "fell back to NumPy: %s" % sorted(fell)


def mats(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return np.asarray(x, dtype=dt)


def herm(dt, shape, seed=0):
    x = mats(dt, shape, seed)
    return np.asarray(x + np.conj(np.swapaxes(x, -1, -2)), dtype=dt)


def values(got, exp, tol=None):
    """Same type, shape and dtype as NumPy's, values within tol of the largest magnitude."""
    assert isinstance(got, ng.ndarray), type(got)
    g, e = got.get(), np.asarray(exp)
    assert g.shape == e.shape, (g.shape, e.shape)
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    fin = np.isfinite(e)
    np.testing.assert_array_equal(g[~fin], e[~fin])  # inf and NaN where NumPy has them
    g, e = g[fin], e[fin]
    if e.size:
        scale = max(float(np.max(np.abs(e))), 1.0)
        tol = tol or TOL.get(e.dtype, 1e-12)
        assert np.max(np.abs(g - e)) <= tol * scale, np.max(np.abs(g - e)) / scale


def rtol_of(dt):
    return TOL[np.result_type(dt, np.float32) if np.dtype(dt).kind in "fc" else np.dtype(np.float64)]


# ---- eigh / eigvalsh ----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES + [np.int64], ids=case_id)
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4), (1, 1)], ids=case_id)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dt, shape, uplo):
    a = herm(dt, shape) if dt != np.int64 else np.random.default_rng(1).integers(-5, 5, shape)
    if dt == np.int64:
        a = a + np.swapaxes(a, -1, -2)
    w, v = ng.linalg.eigh(ng.asarray(a), UPLO=uplo)
    we, ve = np.linalg.eigh(a, UPLO=uplo)
    tol = rtol_of(dt) * 10
    values(w, we, tol)
    values(ng.linalg.eigvalsh(ng.asarray(a), UPLO=uplo), we, tol)
    assert v.dtype == ve.dtype and v.shape == ve.shape
    full = np.asarray(a, dtype=ve.dtype)
    vg = v.get()
    # A V = V w for the Hermitian matrix NumPy reads from the triangle (here a itself)
    np.testing.assert_allclose(full @ vg, vg * w.get()[..., None, :], atol=tol * 30 * max(np.abs(we).max(), 1))
    np.testing.assert_allclose(np.abs(vg), np.abs(ve), atol=tol * 1e3)


def test_eigh_reads_one_triangle_and_keeps_results_on_the_device():
    a = herm(np.float64, (4, 4))
    lower = np.tril(a) + np.triu(np.full((4, 4), 99.0), 1)
    upper = np.triu(a) + np.tril(np.full((4, 4), -99.0), -1)
    values(ng.linalg.eigvalsh(ng.asarray(lower)), np.linalg.eigvalsh(a))
    values(ng.linalg.eigvalsh(ng.asarray(upper), UPLO="u"), np.linalg.eigvalsh(a))
    r = ng.linalg.eigh(ng.asarray(a))
    assert type(r).__name__ == "EighResult" and isinstance(r.eigenvectors, ng.ndarray)
    with pytest.raises(ValueError):
        ng.linalg.eigh(ng.asarray(a), UPLO="X")


# ---- svd / svdvals -------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 3, 5), (5, 5), (1, 3)], ids=case_id)
@pytest.mark.parametrize("full", [True, False])
def test_svd(dt, shape, full):
    a = mats(dt, shape)
    u, s, vh = ng.linalg.svd(ng.asarray(a), full_matrices=full)
    ue, se, vhe = np.linalg.svd(a, full_matrices=full)
    tol = rtol_of(dt) * 10
    values(s, se, tol)
    values(ng.linalg.svd(ng.asarray(a), compute_uv=False), se, tol)
    values(ng.linalg.svdvals(ng.asarray(a)), se, tol)
    k = min(shape[-2:])
    for g, e in ((u, ue), (vh, vhe)):
        assert g.shape == e.shape and g.dtype == e.dtype
        # the vectors of the singular values up to a sign or phase; the completion of a full U or
        # Vh is any orthonormal one (the Jacobi kernels' differs from LAPACK's)
        gg = g.get()
        np.testing.assert_allclose(np.abs(gg[..., :k] if g is u else gg[..., :k, :]),
                                   np.abs(e[..., :k] if g is u else e[..., :k, :]), atol=tol * 1e3)
        eye = np.eye(gg.shape[-1] if g is u else gg.shape[-2])
        gram = np.conj(np.swapaxes(gg, -1, -2)) @ gg if g is u else gg @ np.conj(np.swapaxes(gg, -1, -2))
        np.testing.assert_allclose(gram, np.broadcast_to(eye, gram.shape), atol=tol * 10)
    ug, vg = u.get()[..., :, :k], vh.get()[..., :k, :]
    np.testing.assert_allclose((ug * s.get()[..., None, :]) @ vg, a, atol=tol * 100)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 0), (0, 2, 2)], ids=case_id)
def test_empty(shape):
    a = np.zeros(shape)
    for full in (True, False):
        for g, e in zip(ng.linalg.svd(ng.asarray(a), full_matrices=full), np.linalg.svd(a, full_matrices=full)):
            values(g, e)
    values(ng.linalg.svdvals(ng.asarray(a)), np.linalg.svdvals(a))
    values(ng.linalg.pinv(ng.asarray(a)), np.linalg.pinv(a))
    values(ng.linalg.matrix_rank(ng.asarray(a)), np.linalg.matrix_rank(a))
    if shape[-1] == shape[-2]:
        for f in ("eigh", "eig"):
            for g, e in zip(getattr(ng.linalg, f)(ng.asarray(a)), getattr(np.linalg, f)(a)):
                values(g, e)
        values(ng.linalg.eigvalsh(ng.asarray(a)), np.linalg.eigvalsh(a))
        values(ng.linalg.eigvals(ng.asarray(a)), np.linalg.eigvals(a))


def test_svd_hermitian():
    a = herm(np.float64, (2, 4, 4))
    u, s, vh = ng.linalg.svd(ng.asarray(a), hermitian=True)
    values(s, np.linalg.svd(a, hermitian=True)[1])
    np.testing.assert_allclose((u.get() * s.get()[..., None, :]) @ vh.get(), a, atol=1e-12)
    values(ng.linalg.svd(ng.asarray(a), compute_uv=False, hermitian=True), np.linalg.svd(a, compute_uv=False,
                                                                                          hermitian=True))


# ---- eig / eigvals -------------------------------------------------------------------------------

def _sorted(w):
    return np.sort_complex(np.asarray(w, dtype=np.complex128))


@pytest.mark.parametrize("dt", DTYPES + [np.int32], ids=case_id)
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4)], ids=case_id)
def test_eig(dt, shape):
    a = mats(dt, shape) if dt != np.int32 else np.random.default_rng(2).integers(-5, 5, shape).astype(dt)
    w, v = ng.linalg.eig(ng.asarray(a))
    we, ve = np.linalg.eig(a)
    assert w.dtype == we.dtype and v.dtype == ve.dtype and w.shape == we.shape and v.shape == ve.shape
    tol = rtol_of(dt) * 10
    scale = max(np.abs(we).max(), 1)
    np.testing.assert_allclose(_sorted(w.get()), _sorted(we), atol=tol * 10 * scale)
    vg = v.get()
    np.testing.assert_allclose(a @ vg, vg * w.get()[..., None, :], atol=tol * 100 * scale)
    np.testing.assert_allclose(np.linalg.norm(vg, axis=-2), 1, atol=tol * 100)
    we2 = np.linalg.eigvals(a)
    w2 = ng.linalg.eigvals(ng.asarray(a))
    assert w2.dtype == we2.dtype
    np.testing.assert_allclose(_sorted(w2.get()), _sorted(we2), atol=tol * 10 * scale)


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=case_id)
def test_eig_real_spectrum_gives_real_results(dt):
    a = herm(dt, (2, 4, 4))  # symmetric: real eigenvalues
    w, v = ng.linalg.eig(ng.asarray(a))
    we, ve = np.linalg.eig(a)
    assert w.dtype == we.dtype == np.dtype(dt) and v.dtype == ve.dtype
    np.testing.assert_allclose(np.sort(w.get()), np.sort(we), atol=rtol_of(dt) * 100)
    assert ng.linalg.eigvals(ng.asarray(a)).dtype == np.linalg.eigvals(a).dtype
    rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype=dt)  # +-i
    assert ng.linalg.eigvals(ng.asarray(rot)).dtype == np.linalg.eigvals(rot).dtype


# ---- lstsq ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES + [np.int64], ids=case_id)
@pytest.mark.parametrize("mn", [(6, 3), (3, 6), (4, 4)], ids=case_id)
@pytest.mark.parametrize("nrhs", [None, 1, 3, 0])
def test_lstsq(dt, mn, nrhs):
    m, n = mn
    a = mats(dt, mn) if dt != np.int64 else np.random.default_rng(3).integers(-5, 5, mn)
    b = mats(dt, (m,) if nrhs is None else (m, nrhs), seed=4)
    got = ng.linalg.lstsq(ng.asarray(a), ng.asarray(b))
    exp = np.linalg.lstsq(a, b)
    tol = rtol_of(np.result_type(a, b)) * 100
    values(got[0], exp[0], tol)
    values(got[1], exp[1], tol)
    values(got[2], exp[2])
    values(got[3], exp[3], tol)


def test_lstsq_rank_deficient_rcond_and_empty():
    a = np.ones((5, 3))
    a[:, 1] = np.arange(5)
    a[:, 2] = a[:, 0] + a[:, 1]  # rank 2: no residuals
    b = np.arange(10.0).reshape(5, 2)
    for rcond in (None, 1e-3, 0.5):
        for g, e in zip(ng.linalg.lstsq(ng.asarray(a), ng.asarray(b), rcond=rcond), np.linalg.lstsq(a, b, rcond)):
            values(g, e, 1e-10)
    for sa, sb in [((0, 3), (0, 2)), ((3, 0), (3, 2)), ((3, 0), (3,)), ((0, 0), (0,))]:
        for g, e in zip(ng.linalg.lstsq(ng.asarray(np.ones(sa)), ng.asarray(np.ones(sb))),
                        np.linalg.lstsq(np.ones(sa), np.ones(sb))):
            values(g, e)


# ---- compositions: pinv, matrix_rank, cond, norm ---------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES, ids=case_id)
@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 3, 3)], ids=case_id)
def test_pinv_rank_cond_norm(dt, shape):
    a = mats(dt, shape)
    tol = rtol_of(dt) * 100
    values(ng.linalg.pinv(ng.asarray(a)), np.linalg.pinv(a), tol)
    values(ng.linalg.pinv(ng.asarray(a), rtol=None), np.linalg.pinv(a, rtol=None), tol)
    values(ng.linalg.pinv(ng.asarray(a), rcond=0.5), np.linalg.pinv(a, rcond=0.5), tol)
    values(ng.linalg.matrix_rank(ng.asarray(a)), np.linalg.matrix_rank(a))
    values(ng.linalg.matrix_rank(ng.asarray(a), tol=1.0), np.linalg.matrix_rank(a, tol=1.0))
    values(ng.linalg.matrix_rank(ng.asarray(a), rtol=0.3), np.linalg.matrix_rank(a, rtol=0.3))
    for p in (None, 2, -2):
        values(ng.linalg.cond(ng.asarray(a), p), np.linalg.cond(a, p), tol)
    for ord in (2, -2, "nuc"):
        values(ng.linalg.norm(ng.asarray(a), ord, axis=(-2, -1)), np.linalg.norm(a, ord, axis=(-2, -1)), tol)
        values(ng.linalg.matrix_norm(ng.asarray(a), ord=ord, keepdims=True),
               np.linalg.matrix_norm(a, ord=ord, keepdims=True), tol)
    if a.ndim == 2:
        values(ng.linalg.norm(ng.asarray(a), 2), np.linalg.norm(a, 2), tol)
        values(ng.linalg.norm(ng.asarray(a), "nuc", axis=(1, 0)), np.linalg.norm(a, "nuc", axis=(1, 0)), tol)


def test_rank_deficient_and_singular():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    values(ng.linalg.matrix_rank(ng.asarray(a)), np.linalg.matrix_rank(a))
    values(ng.linalg.pinv(ng.asarray(a)), np.linalg.pinv(a))
    stack = np.stack([a, np.eye(2)])
    for p in (1, np.inf, "fro"):
        values(ng.linalg.cond(ng.asarray(stack), p), np.linalg.cond(stack, p))
    assert ng.linalg.matrix_rank(ng.asarray(np.zeros(3))) == np.linalg.matrix_rank(np.zeros(3))
    assert ng.linalg.matrix_rank(ng.asarray(np.ones(3))) == np.linalg.matrix_rank(np.ones(3))


# ---- matrix_power / multi_dot (device matmuls everywhere) ---------------------------------------

@pytest.mark.parametrize("dt", [np.int64, np.int8, np.float32, np.float64, np.complex128], ids=case_id)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 13])
def test_matrix_power(dt, n):
    a = np.random.default_rng(5).integers(-3, 4, (2, 4, 4)).astype(dt)
    got, exp = ng.linalg.matrix_power(ng.asarray(a), n), np.linalg.matrix_power(a, n)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    if np.dtype(dt).kind in "iu":
        np.testing.assert_array_equal(got.get(), exp)  # wrapping as NumPy's
    else:
        np.testing.assert_allclose(got.get(), exp, rtol=1e-5)


@pytest.mark.parametrize("dt", [np.float64, np.complex64], ids=case_id)
def test_matrix_power_negative(dt):
    a = mats(dt, (3, 3)) + 3 * np.eye(3, dtype=dt)
    values(ng.linalg.matrix_power(ng.asarray(a), -3), np.linalg.matrix_power(a, -3), rtol_of(dt) * 100)


def test_matrix_power_errors():
    for bad, n in [(np.ones(3), 2), (np.ones((2, 3)), 2), (np.eye(2), 1.5)]:
        with pytest.raises(Exception) as want:
            np.linalg.matrix_power(bad, n)
        with pytest.raises(type(want.value)):
            ng.linalg.matrix_power(ng.asarray(bad), n)
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.matrix_power(ng.asarray(np.zeros((2, 2))), -1)


@pytest.mark.parametrize("shapes", [[(10, 100), (100, 5), (5, 50)], [(3, 10), (10, 100), (100, 5), (5, 50)],
                                    [(10,), (10, 4), (4, 7), (7,)], [(10,), (10, 4), (4, 7)],
                                    [(4, 10), (10, 4), (4, 7), (7, 2), (2,)]], ids=str)
def test_multi_dot(shapes):
    rng = np.random.default_rng(6)
    arrays = [rng.standard_normal(s) for s in shapes]
    values(ng.linalg.multi_dot([ng.asarray(x) for x in arrays]), np.linalg.multi_dot(arrays))


def test_multi_dot_errors():
    with pytest.raises(ValueError):
        ng.linalg.multi_dot([ng.asarray(np.ones((2, 2)))])
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.multi_dot([ng.asarray(np.ones((2, 2, 2)))] * 3)


# ---- NumPy's errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,arg", [
    ("eigh", np.ones(3)), ("eigh", np.ones((2, 3))), ("eigvalsh", np.ones((2, 3))), ("eig", np.ones((2, 3))),
    ("eigvals", np.ones(3)), ("svd", np.ones(3)), ("svdvals", np.ones(3)), ("eig", np.array([[1, np.nan], [0, 1]])),
    ("eigvals", np.array([[np.inf, 0], [0, 1]])), ("eigh", np.ones((2, 2), np.float16)),
    ("svd", np.ones((2, 2), np.float16)), ("cond", np.ones((0, 2))), ("cond", np.ones((2, 3))),
], ids=case_id)
def test_errors(name, arg):
    kw = {"p": 1} if name == "cond" and arg.size else {}
    with pytest.raises(Exception) as want:
        getattr(np.linalg, name)(arg, **kw)
    with pytest.raises(type(want.value)):
        getattr(ng.linalg, name)(ng.asarray(arg), **kw)


def test_lstsq_errors():
    for a, b in [(np.ones((3, 2)), np.ones(4)), (np.ones((2, 3, 2)), np.ones((2, 3)))]:
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.lstsq(a, b)
        with pytest.raises(np.linalg.LinAlgError):
            ng.linalg.lstsq(ng.asarray(a), ng.asarray(b))


def test_nan_svd_raises_as_numpy():
    a = np.full((3, 3), np.nan)
    try:
        exp = np.linalg.svd(a)
    except np.linalg.LinAlgError:
        with pytest.raises(np.linalg.LinAlgError):
            ng.linalg.svd(ng.asarray(a))
    else:
        got = ng.linalg.svd(ng.asarray(a))
        assert np.isnan(got[1].get()).all() == np.isnan(exp[1]).all()
