"""Matrix products and solves through the device's vendor BLAS (the host's BLAS/LAPACK on cpu,
src/backend/cpu/blas.c; cuBLAS/cuSOLVER on cuda), against NumPy: the layouts the vendor path
takes as they are (row-major, promoted vectors), the ones it copies first (transposed, broadcast
and reversed operands, mixed dtypes), the ones it leaves to the generated kernel (stacks of small
matrices on cpu, a transposed matrix times a vector), batches of several axes (permuted, reversed,
broadcast), and NUMGPU_BLAS choosing the library or turning it off. Every device runs these (on
others they check the generated kernels on the same layouts)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import numgpu as ng
from helpers import assert_same, dtype_id

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def _eps(dt):
    return np.finfo(np.dtype(dt)).eps if np.dtype(dt).kind in "fc" else 0.0  # integers: exact


def _rand(shape, dt, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _check(a, b, ga=None, gb=None, dt=None):
    """a @ b of NumPy arrays against ga @ gb (numgpu views of the same data; a and b uploaded by
    default), within a dot product's rounding bound: (k + 2) eps (|a| @ |b|) elementwise (the 2: a
    complex product's own rounding)."""
    want = a @ b
    got = (ng.asarray(a) if ga is None else ga) @ (ng.asarray(b) if gb is None else gb)
    assert got.shape == want.shape and got.dtype == want.dtype
    bound = (a.shape[-1] + 2) * _eps(dt or want.dtype) * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    err = np.abs(ng.asnumpy(got).astype(np.complex128) - want)
    assert np.all(err <= bound + 1e-300), np.max(err - bound)


def test_the_cpu_device_finds_numpys_blas():
    """On cpu with NumPy's wheels (which carry OpenBLAS), the cpu device uses that BLAS."""
    found, text = ng._core.cpu_blas()
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    has_openblas = os.path.isdir(libs) and any("openblas" in f for f in os.listdir(libs))
    if has_openblas and not os.environ.get("NUMGPU_BLAS"):
        assert found and "openblas" in text, text
    assert isinstance(text, str) and text


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("sa,sb", [
    ((64, 48), (48, 80)), ((1, 48), (48, 80)), ((64, 48), (48, 1)), ((64, 1), (1, 80)), ((300, 257), (257, 129)),
    ((48,), (48, 80)), ((64, 48), (48,)), ((48,), (48,)), ((1,), (1,)), ((5, 300), (300, 7)),
], ids=str)
def test_row_major_products(dt, sa, sb):
    _check(_rand(sa, dt, 1), _rand(sb, dt, 2), dt=dt)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_transposed_reversed_and_broadcast_operands(dt):
    x = _rand((90, 70), dt, 3)
    gx = ng.asarray(x)
    _check(x.T, x, gx.T, gx)                       # X.T @ X: A copied row-major
    _check(x, x.T, gx, gx.T)                       # X @ X.T: B made unit-stride
    _check(x.T, x[:, ::-1], gx.T, gx[:, ::-1])
    _check(x[::-1], x.T[:, ::2], gx[::-1], gx.T[:, ::2])  # reversed rows: a negative row stride
    row = _rand((70,), dt, 4)
    _check(np.broadcast_to(row, (90, 70)), x.T, ng.broadcast_to(ng.asarray(row), (90, 70)), gx.T)  # rows of stride 0
    v = _rand((140,), dt, 5)
    _check(x, v[::2], gx, ng.asarray(v)[::2])      # a vector of increment 2
    _check(x, v[:70][::-1], gx, ng.asarray(v)[:70][::-1])
    _check(v[::-1][:90], x, ng.asarray(v)[::-1][:90], gx)
    _check(x.T, v[:90], gx.T, ng.asarray(v)[:90])  # transposed matrix times a vector: the generated kernel


def test_mixed_dtypes_and_integers():
    a, b = _rand((60, 50), np.float32, 6), _rand((50, 40), np.float64, 7)
    _check(a, b)
    _check(b.T, a.T)
    _check(a.astype(np.complex64), b)
    i = np.arange(50 * 40).reshape(50, 40) % 7 - 3
    _check(a, i)
    _check(i.T, i)                                 # integers: never the BLAS, NumPy's wrapping sums
    _check(a[0], b)


@pytest.mark.parametrize("dt", [np.float64, np.complex64], ids=dtype_id)
def test_batches(dt):
    a, b = _rand((3, 4, 20, 30), dt, 8), _rand((3, 4, 30, 25), dt, 9)
    ga, gb = ng.asarray(a), ng.asarray(b)
    _check(a, b, ga, gb, dt)                                        # two batch axes
    _check(a, b[0], ga, gb[0], dt)                                  # b broadcast over the first
    _check(a[:, :1], b, ga[:, :1], gb, dt)                          # a of extent 1 on the second
    _check(a.transpose(1, 0, 2, 3), b.transpose(1, 0, 2, 3), ga.transpose(1, 0, 2, 3), gb.transpose(1, 0, 2, 3), dt)
    _check(a[::-1, :, :, :], b[:, ::-1], ga[::-1], gb[:, ::-1], dt)  # reversed batch axes
    _check(a[:, 2], b[:, 2].transpose(0, 2, 1).transpose(0, 2, 1), ga[:, 2], gb[:, 2], dt)
    _check(a.transpose(0, 1, 3, 2), a, ga.transpose(0, 1, 3, 2), ga, dt)  # transposed matrices in a stack
    v = _rand((30,), dt, 10)
    _check(a, v, ga, ng.asarray(v), dt)                             # a stack times a vector
    _check(v, b, ng.asarray(v), gb, dt)


def test_small_and_large_stacks():
    for shape in [(5000, 3, 3), (200, 16, 16), (20, 64, 64)]:
        a, b = _rand(shape, np.float64, 11), _rand(shape, np.float64, 12)
        _check(a, b)


def test_products_built_on_matmul():
    a, b = _rand((40, 30), np.float64, 13), _rand((30, 20), np.float64, 14)
    assert_same(ng.dot(ng.asarray(a), ng.asarray(b)), np.dot(a, b), rtol=1e-12)
    assert_same(ng.tensordot(ng.asarray(a), ng.asarray(b), axes=1), np.tensordot(a, b, axes=1), rtol=1e-12)
    assert_same(ng.einsum("ij,jk->ik", ng.asarray(a), ng.asarray(b)), np.einsum("ij,jk->ik", a, b), rtol=1e-12)
    out = ng.zeros((40, 20))
    r = ng.matmul(ng.asarray(a), ng.asarray(b), out=out)
    assert r is out
    assert_same(out, a @ b, rtol=1e-12)


def test_nan_and_inf_propagate():
    a, b = _rand((20, 10), np.float64, 15), _rand((10, 30), np.float64, 16)
    a[3, 4] = np.nan
    b[2, 7] = np.inf
    got, want = ng.asnumpy(ng.asarray(a) @ ng.asarray(b)), a @ b
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))


def test_empty_inner_dimension():
    a, b = np.zeros((4, 0)), np.zeros((0, 5))
    assert_same(ng.asarray(a) @ ng.asarray(b), a @ b)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_one_matrix_solves(dt):
    n = 120
    a = _rand((n, n), dt, 17) + n * np.eye(n, dtype=dt)
    b = _rand((n, 3), dt, 22)
    rtol = 1e-4 if dt in (np.float32, np.complex64) else 1e-10
    assert_same(ng.linalg.solve(ng.asarray(a), ng.asarray(b)), np.linalg.solve(a, b), rtol=rtol, atol=rtol)
    assert_same(ng.linalg.solve(ng.asarray(a), ng.asarray(b[:, 0])), np.linalg.solve(a, b[:, 0]), rtol=rtol,
                atol=rtol)
    assert_same(ng.linalg.inv(ng.asarray(a)), np.linalg.inv(a), rtol=rtol, atol=rtol)
    spd = a @ a.conj().T  # Hermitian positive definite
    assert_same(ng.linalg.cholesky(ng.asarray(spd)), np.linalg.cholesky(spd), rtol=rtol * 10, atol=rtol * 10)
    low = np.tril(spd) + np.triu(np.full_like(spd, 1e30), 1)  # only the lower triangle is read, as NumPy
    assert_same(ng.linalg.cholesky(ng.asarray(low)), np.linalg.cholesky(low), rtol=rtol * 10, atol=rtol * 10)
    sing = a.copy()
    sing[:, 5] = 0
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.solve(ng.asarray(sing), ng.asarray(b))
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.cholesky(ng.asarray(-spd))


def _run(env_value, code):
    env = dict(os.environ, NUMGPU_BLAS=env_value, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


CHECK = """
import numpy as np, numgpu as ng
ng.use(%r).__enter__()
rng = np.random.default_rng(0)
a, b = rng.standard_normal((70, 60)), rng.standard_normal((60, 50))
np.testing.assert_allclose(ng.asnumpy(ng.asarray(a) @ ng.asarray(b)), a @ b, rtol=1e-12, atol=1e-12)
np.testing.assert_allclose(ng.asnumpy(ng.asarray(a.T) @ ng.asarray(a)), a.T @ a, rtol=1e-12, atol=1e-12)
m = a[:60] + 60 * np.eye(60)
np.testing.assert_allclose(ng.asnumpy(ng.linalg.inv(ng.asarray(m))), np.linalg.inv(m), rtol=1e-10)
print(ng._core.cpu_blas())
"""


def test_numgpu_blas_none_runs_the_generated_kernels():
    out = _run("none", CHECK % ng.get_device())
    assert "(False, 'turned off by NUMGPU_BLAS=none')" in out


def test_numgpu_blas_names_a_library_that_is_not_there():
    out = _run("/nonexistent/libopenblas.so", CHECK % ng.get_device())
    assert "False" in out and "/nonexistent/libopenblas.so cannot be loaded" in out


def test_determinants_of_one_matrix_are_numpys_bits():
    """One matrix's det/slogdet on cpu: NumPy's own LAPACK call on the same (column-major) matrix,
    so the same bits: an integer matrix NumPy finds singular (det exactly 0) is singular here too,
    and det([[1, 2], [3, 4]]) is NumPy's -2.0000000000000004."""
    if ng.asarray([0]).device != "cpu" or not ng._core.cpu_blas()[0]:
        pytest.skip("the host's LAPACK on the cpu device")
    rng = np.random.default_rng(7)
    cases = [np.array([[1, 2], [3, 4.0]]), np.array([[3.0, 3, 2], [5, 5, -3], [-4, -4, 3]])]
    cases += [rng.integers(-5, 6, (n, n)).astype(float) for n in (2, 3, 4, 5, 8) for _ in range(40)]
    cases += [_rand((4, 4), dt, 3) for dt in (np.float64, np.complex128)]   # (float32: within an ulp)
    for a in cases:
        assert ng.linalg.det(ng.asarray(a)).get().tobytes() == np.asarray(np.linalg.det(a)).tobytes(), a
        s, l = ng.linalg.slogdet(ng.asarray(a))
        ws, wl = np.linalg.slogdet(a)
        assert (s.get().tobytes(), l.get().tobytes()) == (np.asarray(ws).tobytes(), np.asarray(wl).tobytes()), a


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_determinants_of_one_large_matrix_and_a_stack(dt):
    """det/slogdet: the vendor's LU (of A as NumPy's, column-major) per matrix, for one matrix and for
    stacks of matrices too large for a work item each; a singular one has sign 0, as NumPy."""
    n = 150
    one = _rand((n, n), dt, 18) / np.sqrt(n)
    stack = _rand((3, n, n), dt, 19) / np.sqrt(n)
    stack[1, :, 7] = 0  # singular
    tol = 1e-3 if np.dtype(dt) in (np.float32, np.complex64) else 1e-9
    for x in (one, stack, one[::-1].T):
        gx = ng.asarray(np.ascontiguousarray(x))
        sign, logabs = ng.linalg.slogdet(gx)
        want_sign, want_log = np.linalg.slogdet(x)
        assert_same(sign, want_sign, rtol=tol, atol=tol)
        assert_same(logabs, want_log, rtol=tol, atol=tol)
        assert_same(ng.linalg.det(gx), np.linalg.det(x), rtol=tol * 10, atol=0)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("shape", [(150, 150), (200, 90), (90, 200), (2, 160, 140)], ids=str)
def test_qr_of_large_matrices(dt, shape):
    """qr: the vendor's geqrf and orgqr/ungqr, with NumPy's (LAPACK's) signs, in every mode."""
    a = _rand(shape, dt, 20)
    ga = ng.asarray(a)
    tol = 1e-3 if np.dtype(dt) in (np.float32, np.complex64) else 1e-9
    for mode in ("reduced", "complete"):
        q, r = ng.linalg.qr(ga, mode=mode)
        wq, wr = np.linalg.qr(a, mode=mode)
        assert_same(q, wq, rtol=tol, atol=tol)
        assert_same(r, wr, rtol=tol, atol=tol * np.abs(wr).max())
    assert_same(ng.linalg.qr(ga, mode="r"), np.linalg.qr(a, mode="r"), rtol=tol, atol=tol * np.abs(a).max() * 10)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_solves_of_a_stack_of_large_matrices(dt):
    """solve/inv/cholesky of a stack of matrices above 128 x 128: the vendor's GESV/POTRF per matrix;
    one singular (or not positive definite) matrix in the stack raises LinAlgError, as NumPy."""
    n = 140
    a = _rand((2, n, n), dt, 21) + n * np.eye(n, dtype=dt)
    b = _rand((2, n, 4), dt, 23)
    rtol = 1e-4 if dt in (np.float32, np.complex64) else 1e-10
    ga, gb = ng.asarray(a), ng.asarray(b)
    assert_same(ng.linalg.solve(ga, gb), np.linalg.solve(a, b), rtol=rtol, atol=rtol)
    assert_same(ng.linalg.solve(ga, gb[0]), np.linalg.solve(a, b[0]), rtol=rtol, atol=rtol)
    assert_same(ng.linalg.inv(ga), np.linalg.inv(a), rtol=rtol, atol=rtol)
    spd = a @ a.conj().transpose(0, 2, 1)
    assert_same(ng.linalg.cholesky(ng.asarray(spd)), np.linalg.cholesky(spd), rtol=rtol * 10, atol=rtol * 10)
    sing = a.copy()
    sing[1, 3] = 0
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.solve(ng.asarray(sing), gb)
    spd[1] = -spd[1]
    with pytest.raises(np.linalg.LinAlgError):
        ng.linalg.cholesky(ng.asarray(spd))


def test_matrix_vector_stacks_are_numpys_calls():
    """On cpu with NumPy's BLAS, matrix-vector products take NumPy's own calls (a gemv per matrix
    of a stack of up to 1024, operands of other dtypes cast first, as NumPy casts), so the bits
    are NumPy's; a truncating cast of the result shows any difference (uint8 pixels times float
    weights, then astype(uint8), was one gray level off in 2 pixels of 16384)."""
    rng = np.random.default_rng(2)
    rng.normal(0, 0.01, size=(250, 20))
    img = rng.integers(0, 256, (128, 128, 3), dtype=np.uint8)
    w = np.array([0.299, 0.587, 0.114])
    x = rng.standard_normal((4, 5, 6, 7))
    v = rng.standard_normal(7)
    cases = [(img, w), (x, v), (x[:, ::2], v), (x.astype(np.float32), v.astype(np.float32)),
             (v[:6].astype(np.float32), x.astype(np.float32)), (x[0, 0].astype(np.int16), v)]
    exact = ng.get_device().startswith("cpu") and ng._core.cpu_blas()[0]
    for a, b in cases:
        got, want = ng.asnumpy(ng.asarray(a) @ ng.asarray(b)), a @ b
        if exact:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    if exact:
        np.testing.assert_array_equal(ng.asnumpy((ng.asarray(img) @ ng.asarray(w)).astype(np.uint8)),
                                      (img @ w).astype(np.uint8))
