"""Matrix products against NumPy: @, matmul and dot for 2-d x 2-d, 1-d
operands, batched and broadcast batches, every dtype (float16 accumulates in
float32 and rounds once, as NumPy; complex in complex arithmetic),
non-contiguous operands, and the shape-mismatch ValueError; the products
built on matmul (dot, vdot, inner, outer, tensordot, einsum, trace, vecdot)
over float16 and complex."""
import operator

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, COMPLEX, INEXACT, assert_same, case_id, data, dtype_id


def _rtol(dt):
    # single precision: NumPy's BLAS sums in another order (complex64: cgemm)
    return 1e-5 if np.dtype(dt) in (np.float32, np.complex64) else None


def _data(dt, shape, seed):
    # small ints so integer products never depend on overflow; floats ~N(0, 10)
    return data(dt, shape, seed=seed, kind="small" if np.dtype(dt).kind in "iub" else "any")


def check(fn_np, fn_ng, a, b, rtol=None):
    try:
        exp = fn_np(a, b)
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e)):
            fn_ng(ng.asarray(a), ng.asarray(b))
        return
    got = fn_ng(ng.asarray(a), ng.asarray(b))
    assert_same(got, exp, rtol=rtol if rtol is not None else _rtol(exp.dtype if hasattr(exp, "dtype") else a.dtype))


FNS = {"@": (operator.matmul, operator.matmul), "matmul": (np.matmul, ng.matmul)}


@pytest.mark.parametrize("dt", [np.float64, np.float16, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("fn", list(FNS))
@pytest.mark.parametrize("sa,sb", [
    ((3, 4), (4, 5)), ((1, 1), (1, 1)), ((5, 1), (1, 6)), ((1, 7), (7, 1)), ((17, 33), (33, 9)), ((64, 65), (65, 63)),
    ((4,), (4, 3)), ((3, 4), (4,)), ((6,), (6,)),
    ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((1, 2, 3), (4, 1, 3, 2)),
    ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 0, 3), (3, 2)),
], ids=str)
def test_matmul_shapes(fn, sa, sb, dt):
    a, b = _data(dt, sa, 1), _data(dt, sb, 2)
    check(*FNS[fn], a, b)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_matmul_dtypes(dt):
    a, b = _data(dt, (5, 6), 3), _data(dt, (6, 4), 4)
    check(operator.matmul, operator.matmul, a, b)
    check(np.matmul, ng.matmul, a[0], b)
    check(np.matmul, ng.matmul, a, b[:, 0])
    check(np.matmul, ng.matmul, a[0], b[:, 0])


@pytest.mark.parametrize("d1,d2", [(np.int8, np.float32), (np.int32, np.int64), (np.uint8, np.int8),
                                   (np.float32, np.float64), (np.bool_, np.int16), (np.int64, np.uint64),
                                   (np.float16, np.float32), (np.int8, np.float16), (np.bool_, np.float16),
                                   (np.float16, np.complex64), (np.complex64, np.float64),
                                   (np.complex64, np.complex128), (np.int16, np.complex64), (np.bool_, np.complex128)],
                         ids=case_id)
def test_matmul_mixed_dtypes(d1, d2):
    a, b = _data(d1, (3, 4), 5), _data(d2, (4, 2), 6)
    check(operator.matmul, operator.matmul, a, b)


def test_integer_matmul_wraps_like_numpy():
    a = data(np.int8, (4, 8), seed=7)   # products overflow int8: both wrap
    b = data(np.int8, (8, 3), seed=8)
    check(operator.matmul, operator.matmul, a, b)


VIEWS = {  # (left view, right view, left base shape, right base shape)
    "transposed": (lambda x: x.T, lambda x: x.T, (8, 10), (10, 8)),
    "step": (lambda x: x[::2, ::2], lambda x: x[::2, ::2], (8, 10), (10, 8)),
    "negative": (lambda x: x[::-1, ::-1], lambda x: x[::-1, ::-1], (8, 10), (10, 8)),
    "left_only": (lambda x: x[1:, ::-1].T, lambda x: x, (5, 7), (4, 3)),
    "batch_swapped": (lambda x: x.swapaxes(1, 2), lambda x: x.swapaxes(1, 2), (2, 4, 10), (2, 5, 4)),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_matmul_non_contiguous(view):
    fa, fb, sa, sb = VIEWS[view]
    for dt in (np.float64, np.float16, np.complex128):
        A, B = data(dt, sa, seed=9), data(dt, sb, seed=10)
        assert_same(fa(ng.asarray(A)) @ fb(ng.asarray(B)), fa(A) @ fb(B))
    Ai, Bi = data(np.int32, sa, seed=9, kind="small"), data(np.int32, sb, seed=10, kind="small")
    assert_same(ng.matmul(fa(ng.asarray(Ai)), fb(ng.asarray(Bi))), np.matmul(fa(Ai), fb(Bi)))


def test_matmul_float16_rounds_once():
    """NumPy's float16 matmul sums the (exact) float32 products over k in order and rounds once:
    numgpu's result is the same bit for bit, also where a float16 accumulator would differ."""
    a = data(np.float16, (33, 300), seed=11)
    b = data(np.float16, (300, 17), seed=12)
    exp = a @ b
    np.testing.assert_array_equal((ng.asarray(a) @ ng.asarray(b)).get(), exp)
    np.testing.assert_array_equal((ng.asarray(a) @ ng.asarray(b[:, 3])).get(), a @ b[:, 3])
    assert np.array_equal(exp, (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16))


@pytest.mark.parametrize("dt", COMPLEX, ids=dtype_id)
def test_matmul_complex_accuracy(dt):
    a = data(dt, (40, 200), seed=11)
    b = data(dt, (200, 30), seed=12)
    got = (ng.asarray(a) @ ng.asarray(b)).get()
    exact = a.astype(np.complex256 if hasattr(np, "complex256") else np.complex128) @ b
    tol = 1e-5 if dt == np.complex64 else 1e-13
    np.testing.assert_allclose(got, exact, rtol=tol, atol=tol * np.abs(exact).max())


def test_matmul_float32_accuracy():
    a = data(np.float32, (64, 300), seed=11)
    b = data(np.float32, (300, 40), seed=12)
    got = (ng.asarray(a) @ ng.asarray(b)).get()
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, exact, rtol=1e-4, atol=1e-3 * np.abs(exact).max())


@pytest.mark.parametrize("sa,sb", [((3, 4), (5, 6)), ((4,), (5,)), ((3, 4), (3,)), ((2, 3, 4), (3, 4, 5)),
                                   ((2, 3, 4), (3, 4, 2))], ids=str)
def test_matmul_shape_mismatch(sa, sb):
    a, b = np.ones(sa), np.ones(sb)
    with pytest.raises(ValueError):
        a @ b
    with pytest.raises(ValueError):
        ng.asarray(a) @ ng.asarray(b)
    with pytest.raises(ValueError):
        ng.matmul(ng.asarray(a), ng.asarray(b))


def test_matmul_0d_operands_raise():
    with pytest.raises(ValueError):
        np.matmul(np.ones(3), np.float64(2.0))
    with pytest.raises(ValueError):
        ng.matmul(ng.asarray(np.ones(3)), ng.asarray(np.asarray(2.0)))


def test_matmul_with_numpy_operand():
    a, b = data(np.float64, (3, 4)), data(np.float64, (4, 2), seed=1)
    assert_same(ng.asarray(a) @ b, a @ b)
    assert_same(a @ ng.asarray(b), a @ b)


@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 5)), ((4,), (4, 3)), ((3, 4), (4,)), ((6,), (6,)), ((), (3,)),
                                   ((2, 3), ())], ids=str)
@pytest.mark.parametrize("dt", [np.int32, np.float64, np.float32, np.float16, np.complex64, np.complex128],
                         ids=dtype_id)
def test_dot(sa, sb, dt):
    a, b = _data(dt, sa, 13), _data(dt, sb, 14)
    check(np.dot, ng.dot, a, b)
    if sa and sb:
        got = ng.asarray(a).dot(ng.asarray(b))
        assert_same(got, a.dot(b), rtol=_rtol(dt))


def test_dot_mismatch():
    with pytest.raises(ValueError):
        ng.dot(ng.asarray(np.ones((3, 4))), ng.asarray(np.ones((3, 4))))


@pytest.mark.parametrize("dt", INEXACT, ids=dtype_id)
def test_matmul_special_values(dt):
    a = np.array([[1.0, np.nan], [np.inf, 0.0]], dtype=dt)
    b = np.array([[1.0, 2.0], [0.0, 1.0]], dtype=dt)
    with np.errstate(all="ignore"):
        check(operator.matmul, operator.matmul, a, b)
        if np.dtype(dt).kind == "c":   # NaN and inf in imaginary parts
            a[0, 0] = complex(1.0, np.nan)
            b[1, 0] = complex(0.0, np.inf)
            b[0, 1] = 2j
            check(operator.matmul, operator.matmul, a, b)


# ---- products built on matmul, over float16 and complex ------------------------------------------

PRODUCT_DTYPES = [np.float16, np.complex64, np.complex128, np.float64, np.int32]


def _both(fn_np, fn_ng, *ops, rtol=None, atol=0.0):
    exp = fn_np(*ops)
    got = fn_ng(*[ng.asarray(o) if isinstance(o, np.ndarray) else o for o in ops])
    dt = np.asarray(exp).dtype
    assert_same(got, exp, rtol=rtol if rtol is not None else _rtol(dt), atol=atol)


@pytest.mark.parametrize("dt", PRODUCT_DTYPES, ids=dtype_id)
def test_vdot_conjugates_first(dt):
    a, b = _data(dt, (3, 4), 1), _data(dt, (4, 3), 2)
    _both(np.vdot, ng.vdot, a, b)
    _both(np.vdot, ng.vdot, a[0], a[0])        # |a|^2: real-valued for complex
    _both(np.vdot, ng.vdot, a.T, b)            # flattened in C order of the view
    _both(np.vdot, ng.vdot, a[0], b[:, 0].astype(np.complex128))


@pytest.mark.parametrize("dt", PRODUCT_DTYPES, ids=dtype_id)
def test_inner_outer_tensordot_trace(dt):
    a, b, c = _data(dt, (2, 3, 4), 1), _data(dt, (3, 4), 2), _data(dt, (4, 5), 3)
    _both(np.inner, ng.inner, a, b)
    _both(np.inner, ng.inner, b[0], b[1])
    _both(np.outer, ng.outer, b[0], c[:, 1])
    _both(np.outer, ng.outer, b, c)
    _both(lambda x, y: np.tensordot(x, y, 1), lambda x, y: ng.tensordot(x, y, 1), a, c)
    _both(lambda x, y: np.tensordot(x, y, ([1, 2], [0, 1])), lambda x, y: ng.tensordot(x, y, ([1, 2], [0, 1])), a, b)
    _both(np.dot, ng.dot, a, c)
    _both(np.trace, ng.trace, b)
    _both(lambda x: np.trace(x, 1), lambda x: ng.trace(x, 1), b)
    _both(lambda x: np.trace(x, 0, 1, 2), lambda x: ng.trace(x, 0, 1, 2), a)


@pytest.mark.parametrize("dt", PRODUCT_DTYPES, ids=dtype_id)
def test_vecdot(dt):
    """np.vecdot / the standard's vecdot conjugate complex x1; float16 sums in float32 (NumPy's loop)."""
    a, b = _data(dt, (3, 5), 1), _data(dt, (5,), 2)
    for f_np, f_ng in ((np.vecdot, ng.vecdot), (np.linalg.vecdot, ng.linalg.vecdot)):
        _both(f_np, f_ng, a, b)
        _both(f_np, f_ng, a, a)
        _both(lambda x, y: f_np(x, y, axis=0), lambda x, y: f_ng(x, y, axis=0), a, a[:, :1])
        _both(f_np, f_ng, _data(dt, (2, 1, 4), 4), _data(dt, (3, 4), 5))


EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ii", [(4, 4)]), ("i,i->", [(6,), (6,)]), ("ij->j", [(3, 4)]),
          ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,j->ij", [(3,), (4,)]), ("ij,ij->i", [(3, 4), (3, 4)]),
          ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("...i,...i->...", [(2, 3, 4), (3, 4)])]


@pytest.mark.parametrize("subs,shapes", EINSUM, ids=[c[0] for c in EINSUM])
@pytest.mark.parametrize("dt", [np.float16, np.complex64, np.complex128], ids=dtype_id)
def test_einsum(subs, shapes, dt):
    ops = [_data(dt, s, i) for i, s in enumerate(shapes)]
    exp = np.einsum(subs, *ops)
    atol = 0.0
    if dt == np.float16:
        # NumPy's einsum (optimize=False) rounds each term into its half output element; numgpu
        # contracts by matmul (float32 sums rounded once, intermediates rounded to half). Bound: half
        # an ulp of the running sum per term, relative to the sum of the terms' magnitudes.
        mags = np.einsum(subs, *[np.abs(o).astype(np.float64) for o in ops])
        terms = np.einsum(subs, *[np.ones(o.shape) for o in ops])
        atol = 2.0 ** -11 * float(np.max(mags)) * (float(np.max(terms)) + 1)
    assert_same(ng.einsum(subs, *[ng.asarray(o) for o in ops]), exp, rtol=_rtol(dt), atol=atol)


def test_float32_dot_keeps_its_digits():
    # A long float32 dot summed in order in float32 lost four digits (1.4e-5 relative at 10^6
    # terms); NumPy's BLAS keeps them: chunks in float32, their sums in float64 (the host's BLAS or
    # the kernel on the cpu, the kernel on OpenCL since 2026-12-07: it summed in order, cuBLAS)
    x = np.arange(10**6, dtype=np.float32) / 7
    exact = float(x.astype(np.float64) @ x.astype(np.float64))
    got = ng.asarray(x) @ ng.asarray(x)
    assert got.dtype == np.float32
    assert abs(float(got) - exact) / exact < 1e-6
    A = np.random.default_rng(0).standard_normal((64, 100_000)).astype(np.float32)
    v = np.random.default_rng(1).standard_normal(100_000).astype(np.float32)
    want = A.astype(np.float64) @ v.astype(np.float64)
    err = np.abs((ng.asarray(A) @ ng.asarray(v)).get() - want).max() / np.abs(want).max()
    assert err < 1e-5


@pytest.mark.parametrize("shape", [(300_000, 4), (9000, 3)])
def test_float32_products_over_long_inner_axes_keep_their_digits(shape):
    # X.T @ X of many samples: OpenCL's kernel added the 10^5 products into each output in order
    # (1.7e-4 relative at 10^6 terms); in chunks of 4096 added in float64 since 2026-12-07
    X = np.abs(np.random.default_rng(2).standard_normal(shape)).astype(np.float32)
    exact = X.T.astype(np.float64) @ X.astype(np.float64)
    got = ng.asarray(X).T @ ng.asarray(X)
    assert got.dtype == np.float32
    assert np.abs(got.get() / exact - 1).max() < 3e-6
    B = np.random.default_rng(3).random((shape[0], 5)).astype(np.float32)   # (a batch of two too)
    S = np.stack([X.T, X.T[::-1]])
    want = S.astype(np.float64) @ B.astype(np.float64)
    assert np.abs((ng.asarray(S) @ ng.asarray(B)).get() / want - 1).max() < 3e-6
