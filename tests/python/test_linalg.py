"""numgpu.linalg against numpy.linalg: norm on the device (vector and matrix orders, axis,
keepdims; complex input gives the real dtype), the solvers and factorisations through the NumPy
fallback (complex too; float16 raises NumPy's TypeError), LinAlgError unchanged; every function over
float16 and complex."""
import numpy as np
import pytest

import numgpu as ng
from helpers import COMPLEX, FLOATS, INEXACT, INTS, assert_same, call_both, data, case_id


def _rt(dtype, single=1e-5, double=1e-10):
    """rtol: single precision (float32, complex64), double; None (helpers' default) for float16."""
    dt = np.dtype(dtype)
    return None if dt == np.float16 else single if dt in (np.float32, np.complex64) else double


VECTOR_ORDS = [None, 2, 1, 0, np.inf, -np.inf, 3, 0.5, -1]
MATRIX_ORDS = [None, "fro", 1, -1, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", INEXACT + [np.int64, np.int8, np.bool_], ids=case_id)
@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=case_id)
def test_vector_norm(dtype, ord):
    x = data(dtype, (4, 6), kind="nonzero")
    rtol = _rt(dtype, double=1e-12)
    for axis in (0, 1, -1):
        for keepdims in (False, True):
            assert_same(ng.linalg.norm(ng.asarray(x), ord, axis, keepdims), np.linalg.norm(x, ord, axis, keepdims),
                        rtol=rtol)
    v = x[1]
    assert_same(ng.linalg.norm(ng.asarray(v), ord), np.linalg.norm(v, ord), rtol=rtol)
    assert_same(ng.linalg.norm(ng.asarray(x)[:, ::-2], ord, 1), np.linalg.norm(x[:, ::-2], ord, 1), rtol=rtol)


@pytest.mark.parametrize("dtype", INEXACT + INTS[:2], ids=case_id)
@pytest.mark.parametrize("ord", MATRIX_ORDS + [2, -2, "nuc"], ids=case_id)
def test_matrix_norm(dtype, ord):
    x = data(dtype, (2, 4, 5))
    rtol = _rt(dtype)
    for axis in ((1, 2), (2, 1), (0, 2), (-1, 0)):
        for keepdims in (False, True):   # (float16 with 2, -2, nuc: NumPy's SVD raises TypeError)
            call_both(np.linalg.norm, ng.linalg.norm, [x, ord, axis, keepdims], rtol=rtol)
    m = x[0]
    call_both(np.linalg.norm, ng.linalg.norm, [m, ord], rtol=rtol)
    call_both(np.linalg.norm, ng.linalg.norm, [m.T.copy(), ord], ng_args=[ng.asarray(m).T, ord],
              kwargs={"keepdims": True}, rtol=rtol)


def test_norm_whole_array_and_errors():
    x = data(np.float64, (2, 3, 4))
    assert_same(ng.linalg.norm(ng.asarray(x)), np.linalg.norm(x))
    assert_same(ng.linalg.norm(ng.asarray(x), keepdims=True), np.linalg.norm(x, keepdims=True))
    assert_same(ng.linalg.norm(ng.zeros((0,))), np.linalg.norm(np.zeros((0,))))
    for args in [(x, "fro"), (x[0], "abc"), (x[0, 0], "fro"), (x[0], 3), (x, None, (0, 0)), (x, None, (0, 1, 2)),
                 (x, None, 1.5)]:
        call_both(np.linalg.norm, ng.linalg.norm, list(args))


def test_norm_on_device():
    g = ng.asarray(data(np.float64, (50, 40)))
    before = ng.stats()["download_bytes"]
    for ord in (None, 1, np.inf, "fro"):
        assert isinstance(ng.linalg.norm(g, ord), ng.ndarray)
    assert isinstance(ng.linalg.norm(g, 3, axis=1), ng.ndarray)
    assert ng.stats()["download_bytes"] == before


def spd(n, seed=0, dtype=np.float64):
    """A symmetric (Hermitian, for a complex dtype) positive-definite n x n matrix."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    return (a @ a.conj().T + n * np.eye(n)).astype(dtype)


def test_float16_solvers_raise_as_numpy():
    """NumPy's linalg has no float16 loops: TypeError, from numgpu too."""
    a, b = spd(4, dtype=np.float16), data(np.float16, (4, 2))
    for name, args in [("solve", (a, b)), ("inv", (a,)), ("cholesky", (a,)), ("det", (a,)), ("qr", (a,)),
                       ("eigh", (a,)), ("svd", (a,)), ("pinv", (a,)), ("lstsq", (a, b))]:
        call_both(getattr(np.linalg, name), getattr(ng.linalg, name), list(args))


@pytest.mark.parametrize("dtype", [np.float32, np.float64] + COMPLEX, ids=case_id)
def test_solvers(dtype):
    rtol = _rt(dtype, single=1e-4)
    a = spd(5, dtype=dtype)
    b = data(dtype, (5, 2))
    g, gb = ng.asarray(a), ng.asarray(b)
    assert_same(ng.linalg.solve(g, gb), np.linalg.solve(a, b), rtol=rtol)
    assert_same(ng.linalg.inv(g), np.linalg.inv(a), rtol=rtol)
    assert_same(ng.linalg.cholesky(g), np.linalg.cholesky(a), rtol=rtol)
    assert_same(ng.linalg.pinv(g), np.linalg.pinv(a), rtol=rtol, atol=1e-6)
    assert_same(ng.linalg.eigh(g).eigenvalues, np.linalg.eigh(a).eigenvalues, rtol=rtol)
    assert_same(ng.linalg.eigvalsh(g), np.linalg.eigvalsh(a), rtol=rtol)
    assert_same(ng.linalg.svd(g, compute_uv=False), np.linalg.svd(a, compute_uv=False), rtol=rtol)
    q, r = ng.linalg.qr(g)
    assert_same(q @ r, a, rtol=rtol, atol=1e-4)
    assert_same(ng.linalg.det(g), np.linalg.det(a), rtol=rtol)
    sign, logdet = ng.linalg.slogdet(g)
    esign, elogdet = np.linalg.slogdet(a)
    assert_same(sign, esign)
    assert_same(logdet, elogdet, rtol=rtol)
    x, res, rank, sv = ng.linalg.lstsq(g, gb, rcond=None)
    ex, eres, erank, esv = np.linalg.lstsq(a, b, rcond=None)
    assert_same(x, ex, rtol=rtol, atol=1e-6)
    assert rank == erank
    assert_same(ng.linalg.matrix_rank(g), np.linalg.matrix_rank(a))
    assert_same(ng.linalg.matrix_power(g, 3), np.linalg.matrix_power(a, 3), rtol=rtol)


def test_batched_solve_and_inv():
    a = np.stack([spd(3, s) for s in range(4)])
    b = data(np.float64, (4, 3, 1))
    assert_same(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b))
    assert_same(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a))
    assert_same(ng.linalg.det(ng.asarray(a)), np.linalg.det(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64] + COMPLEX, ids=case_id)
@pytest.mark.parametrize("n, nrhs", [(12, 2), (9, 9), (20, 40), (33, 70)])
def test_batched_solve_and_inv_by_row_blocks(dtype, n, nrhs):
    # general matrices (row swaps) with many right-hand sides: on cpu the solve runs by blocks of
    # 32 columns of X (the last block partial), inv with n of them
    rng = np.random.default_rng(n)
    a = rng.standard_normal((6, n, n)) + (1j * rng.standard_normal((6, n, n)) if np.dtype(dtype).kind == "c" else 0)
    a = a.astype(dtype)
    b = data(dtype, (6, n, nrhs), seed=nrhs)
    rtol = _rt(dtype, single=2e-3)
    assert_same(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b), rtol=rtol, atol=rtol)
    assert_same(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a), rtol=rtol, atol=rtol)
    a[2, :, 3] = 0   # singular: NumPy's error for the stack
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(a)
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.inv(ng.asarray(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64] + COMPLEX, ids=case_id)
@pytest.mark.parametrize("nb, n", [(300, 3), (40, 16), (9, 33)])
def test_cholesky_stacks(dtype, nb, n):
    # stacks factorised a matrix per work item (on cpu, real ones on the upper triangle, which
    # NumPy never reads: garbage there must not matter), then one not positive definite
    rng = np.random.default_rng(nb)
    x = rng.standard_normal((nb, n, n)) + (1j * rng.standard_normal((nb, n, n)) if np.dtype(dtype).kind == "c" else 0)
    a = (x @ np.conj(x.transpose(0, 2, 1)) + n * np.eye(n)).astype(dtype)
    a[:, 0, n - 1] = 1e6
    rtol = _rt(dtype, single=1e-4)
    assert_same(ng.linalg.cholesky(ng.asarray(a)), np.linalg.cholesky(a), rtol=rtol, atol=rtol)
    a[nb // 2, n - 1, n - 1] = -1
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(a)
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.cholesky(ng.asarray(a))


def test_linalg_errors_propagate():
    sing = ng.zeros((3, 3))
    for f, args in [(ng.linalg.inv, (sing,)), (ng.linalg.solve, (sing, ng.ones(3))),
                    (ng.linalg.cholesky, (ng.asarray(-np.eye(2)),))]:
        with pytest.raises(np.linalg.LinAlgError):
            f(*args)
    assert ng.linalg.LinAlgError is np.linalg.LinAlgError
    call_both(np.linalg.inv, ng.linalg.inv, [np.ones((2, 3))])
    call_both(np.linalg.solve, ng.linalg.solve, [np.eye(3), np.ones(4)])


def test_module_getattr():
    a = spd(3)
    # eigvals may be complex (NumPy 2.5 returns complex128 even for a symmetric matrix):
    # complex results stay NumPy arrays, so compare values whatever the type
    np.testing.assert_allclose(ng.asnumpy(ng.linalg.eigvals(ng.asarray(a))), np.linalg.eigvals(a), rtol=1e-10)
    assert_same(ng.linalg.cond(ng.asarray(a)), np.linalg.cond(a), rtol=1e-10)
    with pytest.raises(AttributeError):
        ng.linalg.no_such_function


def test_vendor_lapack_is_numpys_own_call_on_cpu():
    """On cpu with the host's LAPACK (NumPy's own OpenBLAS), solve and inv of one float64 matrix
    are NumPy's own GESV call on the same layout, so the bits match NumPy's; without it (NUMGPU_BLAS
    =none, OpenCL) the generated kernels answer within rounding. Operands the vendor path does not
    take (integers, mixed dtypes, a stack of small matrices) still give NumPy's answers."""
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((60, 60)) + 8 * np.eye(60), rng.standard_normal((60, 2))
    got_x, got_inv = ng.linalg.solve(ng.asarray(a), ng.asarray(b)), ng.linalg.inv(ng.asarray(a))
    if ng.get_device().startswith("cpu") and ng._core.cpu_blas()[0]:
        np.testing.assert_array_equal(ng.asnumpy(got_x), np.linalg.solve(a, b))
        np.testing.assert_array_equal(ng.asnumpy(got_inv), np.linalg.inv(a))
    assert_same(got_x, np.linalg.solve(a, b), rtol=1e-10, atol=1e-13)
    assert_same(got_inv, np.linalg.inv(a), rtol=1e-10, atol=1e-13)
    ai = np.array([[3, 1], [1, 2]])
    call_both(np.linalg.solve, ng.linalg.solve, [ai, np.ones(2, dtype=np.float32)], rtol=1e-6)
    call_both(np.linalg.cholesky, ng.linalg.cholesky, [ai], rtol=1e-12)
    call_both(np.linalg.solve, ng.linalg.solve, [np.stack([spd(3)] * 2), np.ones((2, 3, 1))], rtol=1e-12)
    with pytest.raises(TypeError):
        ng.linalg.solve(ng.asarray(a))


# ---- the Array API standard's linalg extension (NumPy 2's numpy.linalg functions) ------------

def _both(name, *args, prec=(None, 0.0), **kwargs):
    """numpy.linalg.<name> and numgpu.linalg.<name> on the same operands (prec: rtol, atol)."""
    call_both(getattr(np.linalg, name), getattr(ng.linalg, name), list(args), kwargs=kwargs, rtol=prec[0], atol=prec[1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64] + COMPLEX, ids=case_id)
def test_cholesky_upper(dtype):
    rtol = _rt(dtype, single=1e-4)
    a = spd(5, dtype=dtype)
    batch = np.stack([spd(3, s, dtype) for s in range(3)])
    for m in (a, batch, a[::-1, ::-1]):
        for upper in (False, True):
            _both("cholesky", m, upper=upper, prec=(rtol, 1e-6))
    u = ng.linalg.cholesky(ng.asarray(a), upper=True)
    assert_same(u.conj().T @ u, a, rtol=rtol, atol=1e-5 if rtol > 1e-6 else 1e-12)
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.cholesky(ng.asarray(-np.eye(2)), upper=True)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 4, 4), (0, 3)], ids=str)
def test_factorisation_keywords(shape):
    a = data(np.float64, shape, seed=5)
    g = ng.asarray(a)
    for mode in ("reduced", "complete"):
        q, r = ng.linalg.qr(g, mode=mode)
        eq, er = np.linalg.qr(a, mode=mode)
        assert q.shape == eq.shape and r.shape == er.shape
        assert_same(q @ r, a, atol=1e-10)
    _both("qr", a, mode="r", prec=(1e-10, 1e-10))
    for full in (True, False):
        u, s, vh = ng.linalg.svd(g, full_matrices=full)
        eu, es, evh = np.linalg.svd(a, full_matrices=full)
        assert u.shape == eu.shape and vh.shape == evh.shape
        assert_same(s, es, rtol=1e-10)
    _both("svd", a, compute_uv=False, prec=(1e-10, 0.0))
    _both("svdvals", a, prec=(1e-10, 0.0))
    if a.size:
        for kw in ({}, {"rtol": 0.5}, {"tol": 1.0}, {"hermitian": False}):
            _both("matrix_rank", a, **kw)
        for kw in ({}, {"rtol": 0.5}, {"rtol": None}, {"rcond": 0.3}):
            _both("pinv", a, prec=(1e-8, 1e-10), **kw)
    with pytest.raises(ValueError):
        ng.linalg.qr(g, mode="bogus")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int16, np.uint8,
                                   np.bool_], ids=case_id)
def test_standard_matrix_functions(dtype):
    a = data(dtype, (2, 4, 5), seed=8)
    b = data(dtype, (5, 3), seed=9)
    # single precision sums of products: the device's summation order differs from NumPy's BLAS
    prec = (1e-5, 1e-2) if dtype in (np.float32, np.complex64) else (None, 0.0)
    for off in (0, 1, -2, 7):
        _both("diagonal", a, offset=off)
        _both("diagonal", a[:, ::-1, ::2], offset=off)
        _both("trace", a, offset=off, prec=prec)
    _both("trace", a, dtype=np.float64, prec=prec)
    _both("matmul", a, b, prec=prec)
    _both("matrix_transpose", a)
    _both("matrix_transpose", a[0, ::-1])
    _both("outer", a[0, 0], b[:, 1], prec=prec)
    _both("tensordot", a, b, axes=1, prec=prec)
    _both("tensordot", a, a, axes=([1, 2], [1, 2]), prec=prec)
    _both("vecdot", a, b.T[0], axis=-1, prec=prec)
    for bad in [("diagonal", a[0, 0]), ("trace", a[0, 0]), ("matrix_transpose", a[0, 0]), ("outer", a, b),
                ("matmul", a, b.T)]:
        _both(*bad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64], ids=case_id)
def test_cross(dtype):
    rtol = 1e-5 if dtype == np.float32 else None
    a = data(dtype, (4, 3), seed=10)
    b = data(dtype, (3,), seed=11)
    c = data(dtype, (2, 3, 5), seed=12)
    _both("cross", a, b, prec=(rtol, 0.0))
    _both("cross", a[::-1], a[:, ::-1], prec=(rtol, 0.0))
    _both("cross", a.T, a[::-1].T, axis=0, prec=(rtol, 0.0))
    _both("cross", c, c, axis=0)               # size 2 along axis 0: ValueError
    _both("cross", c, c[:, :, ::-1], axis=1, prec=(rtol, 0.0))
    _both("cross", c, c[0], axis=-2, prec=(rtol, 0.0))
    _both("cross", a[:0], b, prec=(rtol, 0.0))
    _both("cross", a[:, :2], b[:2])          # 2-vectors: ValueError, as NumPy
    _both("cross", np.ones(3, bool), np.ones(3, bool))  # bool subtract: TypeError
    g = ng.asarray(a)
    before = ng.stats()["download_bytes"]
    assert isinstance(ng.linalg.cross(g, g[::-1]), ng.ndarray)
    assert ng.stats()["download_bytes"] == before  # on the device


@pytest.mark.parametrize("dtype", INEXACT + [np.int32, np.bool_], ids=case_id)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf], ids=case_id)
def test_matrix_norm_standard(dtype, ord):
    rtol = _rt(dtype)
    a = data(dtype, (3, 4, 5), seed=13)
    # (the smallest singular value of a singular matrix, -2's, is rounding noise of the size of the
    # largest times eps: LAPACK's and the Jacobi kernels' differ there)
    atol = rtol if ord == -2 else 0.0
    for m in (a, a[:, ::-1, ::2], a[0]):
        for keepdims in (False, True):
            _both("matrix_norm", m, ord=ord, keepdims=keepdims, prec=(rtol, atol))
    _both("matrix_norm", a[0, 0], ord=ord)   # a vector: AxisError, as NumPy
    _both("matrix_norm", a, ord="bogus")


@pytest.mark.parametrize("dtype", INEXACT + [np.int16, np.uint8], ids=case_id)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), (2, 0), (), (0, 1, 2), (1,)], ids=case_id)
def test_vector_norm_standard(dtype, axis):
    rtol = _rt(dtype)
    a = data(dtype, (3, 4, 5), seed=14, kind="nonzero")
    for ord in (2, 1, 0, np.inf, -np.inf, 3, -1, 0.5):
        for keepdims in (False, True):
            _both("vector_norm", a, axis=axis, ord=ord, keepdims=keepdims, prec=(rtol, 0.0))
    _both("vector_norm", a[::-1, :, ::2], axis=axis, prec=(rtol, 0.0))
    _both("vector_norm", np.zeros((0, 4, 5), dtype), axis=axis, prec=(rtol, 0.0))


def test_vector_norm_errors_and_device():
    a = data(np.float64, (3, 4))
    _both("vector_norm", a, axis=(0, 0))
    _both("vector_norm", a, axis=2)
    _both("vector_norm", a, ord="fro")
    _both("vector_norm", np.float64(3.5))
    g = ng.asarray(data(np.float64, (30, 40)))
    before = ng.stats()["download_bytes"]
    for f in (lambda: ng.linalg.vector_norm(g, axis=(0, 1)), lambda: ng.linalg.matrix_norm(g, ord=1),
              lambda: ng.linalg.trace(g), lambda: ng.linalg.diagonal(g, offset=2)):
        assert isinstance(f(), ng.ndarray)
    assert ng.stats()["download_bytes"] == before


def test_standard_signatures():
    import inspect
    for name in ("cholesky", "cross", "diagonal", "matrix_norm", "matrix_rank", "pinv", "qr", "svd", "svdvals",
                 "tensordot", "trace", "vecdot", "vector_norm", "matrix_transpose", "outer", "matmul"):
        ours = inspect.signature(getattr(ng.linalg, name)).parameters
        # NumPy 2's own keywords (which include the standard's) are all accepted, under the same names
        for p in inspect.signature(getattr(np.linalg, name)).parameters.values():
            if p.kind != p.POSITIONAL_ONLY:
                assert p.name in ours, (name, p.name)
