"""Matrix products against NumPy: @, matmul and dot for 2-d x 2-d, 1-d
operands, batched and broadcast batches, int and float dtypes, non-contiguous
operands, and the shape-mismatch ValueError."""
import operator

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, FLOATS, assert_same, case_id, data, dtype_id


def _rtol(dt):
    return 1e-5 if np.dtype(dt) == np.float32 else None


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


@pytest.mark.parametrize("fn", list(FNS))
@pytest.mark.parametrize("sa,sb", [
    ((3, 4), (4, 5)), ((1, 1), (1, 1)), ((5, 1), (1, 6)), ((1, 7), (7, 1)), ((17, 33), (33, 9)), ((64, 65), (65, 63)),
    ((4,), (4, 3)), ((3, 4), (4,)), ((6,), (6,)),
    ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((1, 2, 3), (4, 1, 3, 2)),
    ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 0, 3), (3, 2)),
], ids=str)
def test_matmul_shapes(fn, sa, sb):
    a, b = _data(np.float64, sa, 1), _data(np.float64, sb, 2)
    check(*FNS[fn], a, b)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_matmul_dtypes(dt):
    a, b = _data(dt, (5, 6), 3), _data(dt, (6, 4), 4)
    check(operator.matmul, operator.matmul, a, b)
    check(np.matmul, ng.matmul, a[0], b)
    check(np.matmul, ng.matmul, a, b[:, 0])
    check(np.matmul, ng.matmul, a[0], b[:, 0])


@pytest.mark.parametrize("d1,d2", [(np.int8, np.float32), (np.int32, np.int64), (np.uint8, np.int8),
                                   (np.float32, np.float64), (np.bool_, np.int16), (np.int64, np.uint64)],
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
    A, B = data(np.float64, sa, seed=9), data(np.float64, sb, seed=10)
    assert_same(fa(ng.asarray(A)) @ fb(ng.asarray(B)), fa(A) @ fb(B))
    Ai, Bi = data(np.int32, sa, seed=9, kind="small"), data(np.int32, sb, seed=10, kind="small")
    assert_same(ng.matmul(fa(ng.asarray(Ai)), fb(ng.asarray(Bi))), np.matmul(fa(Ai), fb(Bi)))


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
@pytest.mark.parametrize("dt", [np.int32, np.float64, np.float32], ids=dtype_id)
def test_dot(sa, sb, dt):
    a, b = _data(dt, sa, 13), _data(dt, sb, 14)
    check(np.dot, ng.dot, a, b)
    if sa and sb:
        got = ng.asarray(a).dot(ng.asarray(b))
        assert_same(got, a.dot(b), rtol=_rtol(dt))


def test_dot_mismatch():
    with pytest.raises(ValueError):
        ng.dot(ng.asarray(np.ones((3, 4))), ng.asarray(np.ones((3, 4))))


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_matmul_special_values(dt):
    a = np.array([[1.0, np.nan], [np.inf, 0.0]], dtype=dt)
    b = np.array([[1.0, 2.0], [0.0, 1.0]], dtype=dt)
    with np.errstate(all="ignore"):
        check(operator.matmul, operator.matmul, a, b)
