"""Locals naming an array a loop body computes from rows, `e = np.exp(X[i] - m)`, `d = X[i] - C[c]`,
`mask = X[i] > 0`, read whole afterwards in NumPy's elementwise operations and reductions
(`Y[i] = e / np.sum(e)`, `np.sum(d * d)`): each read computes the expression where it is read
(before 2026-12-05 such loops ran as Python, "'X[i]' ... a sub-array"). A local read after the
loop, read by element, assigned twice, or whose operands change before it is read runs as
Python. Against plain Python, on every device."""
import numpy as np
import pytest

import numgpu
from helpers import case_id, jit_same, python_and_jit


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def softmax(X, Y):
    for i in range(X.shape[0]):
        m = np.max(X[i])
        e = np.exp(X[i] - m)
        Y[i] = e / np.sum(e)


def softmax_in_place(X):
    for i in range(X.shape[0]):
        e = np.exp(X[i] - X[i].max())
        X[i] = e / e.sum()


def nearest(X, C, lab, dist):
    for i in range(X.shape[0]):
        best = 0
        bd = np.inf
        for c in range(C.shape[0]):
            d = X[i] - C[c]
            s = np.sum(d * d)
            if s < bd:
                bd = s
                best = c
        lab[i] = best
        dist[i] = bd


def chained(X, out):
    for i in range(X.shape[0]):
        row = X[i]
        a = row * 2 + 1
        b = np.sqrt(abs(a)) - a
        mask = b > 0
        out[i, 0] = np.sum(b)
        out[i, 1] = np.count_nonzero(mask)
        out[i, 2] = np.max(np.where(mask, b, -a))
        out[i, 3] = (a * b).mean()


def window_lets(x, y):
    for i in range(1, x.shape[0] - 1):
        w = x[i - 1:i + 2] * 0.5
        y[i] = np.sum(w) + np.max(w)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=case_id)
def test_softmax_rows(dt):
    rng = np.random.default_rng(51)
    X = (rng.standard_normal((9, 17)) * 3).astype(dt)
    rtol = 1e-6 if dt == np.float32 else 1e-14  # (exp through the C library's vector math: a few ulps)
    for fn, args in ((softmax, (X, np.zeros_like(X))), (softmax_in_place, (X,))):
        want = [a.copy() for a in args]
        fn(*want)
        got = [a.copy() for a in args]
        f = numgpu.jit(fn)
        f(*got)
        assert ran(f) == ["kernel"]
        np.testing.assert_allclose(got[-1], want[-1], rtol=rtol)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32], ids=case_id)
def test_a_difference_of_rows_in_a_nested_loop(dt):
    rng = np.random.default_rng(52)
    X = (rng.standard_normal((40, 3)) * 5).astype(dt)
    C = (rng.standard_normal((6, 3)) * 5).astype(dt)
    f = jit_same(nearest, X, C, np.zeros(40, np.int64), np.zeros(40, np.sum(X[0] * X[0]).dtype))
    assert ran(f)[0] == "kernel"


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8], ids=case_id)
def test_lets_of_lets_views_masks_and_windows(dt):
    rng = np.random.default_rng(53)
    X = (rng.standard_normal((7, 6)) * 4).astype(dt)
    want_dt = (np.sqrt(abs(X[0] * 2 + 1)) - X[0]).dtype
    f = jit_same(chained, X, np.zeros((7, 4), want_dt))
    assert ran(f) == ["kernel"]
    f = jit_same(window_lets, X[:, 0].astype(np.float64).copy(), np.zeros(7))
    assert ran(f) == ["kernel"]


def read_after(X, out):
    for i in range(X.shape[0]):
        e = X[i] * 2
        out[i] = np.sum(e)
    return e


def by_element(X, out):
    for i in range(X.shape[0]):
        e = X[i] * 2
        out[i] = e[0] + np.sum(e)


def changed_before(X, out):
    for i in range(X.shape[0]):
        e = X[i] * 2
        X[i, 0] = 100.0
        out[i] = np.sum(e)


def changed_scalar(X, out):
    for i in range(X.shape[0]):
        m = 1.0
        e = X[i] * m
        m = 5.0
        out[i] = np.sum(e) + m


def assigned_twice(X, out):
    for i in range(X.shape[0]):
        e = X[i] * 2
        e = e + 1
        out[i] = np.sum(e)


def reversed_store(X):
    for i in range(X.shape[0]):
        e = X[i, ::-1] * 1.0
        X[i] = e


def written_in_a_loop_reading_it(X, out):
    for i in range(X.shape[0]):
        e = X[i] * 2
        s = 0.0
        for j in range(X.shape[1]):
            s += np.sum(e)
            X[i, j] = 0.0
        out[i] = s


def test_what_runs_as_python():
    X = np.arange(24.0).reshape(4, 6)
    for fn in (read_after, by_element, assigned_twice, written_in_a_loop_reading_it):
        f = jit_same(fn, X, np.zeros(4))
        assert ran(f)[0] != "kernel", fn.__name__
    for fn in (changed_before, changed_scalar):  # (the loop runs, as Python or a kernel, with Python's values)
        jit_same(fn, X, np.zeros(4))
    f = jit_same(reversed_store, X)
    assert "reads otherwise" in ran(f)[0]


def mismatched(X, Y, out):
    for i in range(X.shape[0]):
        e = X[i] + Y[i]
        out[i] = 1.0
        out[i] += np.sum(e)


def unused(X, Y, out):
    for i in range(X.shape[0]):
        e = X[i] + Y[i]
        out[i] = np.sum(e) if i < 0 else 0.0


def test_numpys_broadcast_error_where_the_array_is_made():
    X, Y = np.ones((3, 4)), np.ones((3, 5))
    for fn in (mismatched, unused):
        py, jit, f = python_and_jit(fn, X, Y, np.zeros(3))
        assert py[0] is ValueError and jit == py, fn.__name__
    jit_same(mismatched, X, np.ones((3, 1)), np.zeros(3))  # (a length 1 broadcasts)


def centred(X, out):
    for i in range(X.shape[0]):
        out[i, 0] = np.sum(X[i] - np.max(X[i]))
        out[i, 1] = np.max(np.abs(X[i] - X[i].mean()))
        out[i, 2] = np.sum((X[i] - np.min(X[i])) * X[i])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64], ids=case_id)
def test_a_reduction_inside_another_is_computed_once_before_it(dt):
    """(before 2026-12-05: "a NumPy reduction inside another", the loop ran as Python)"""
    rng = np.random.default_rng(54)
    X = (rng.standard_normal((8, 7)) * 6).astype(dt)
    rt = np.sum(X[0] - np.max(X[0]) + X[0].mean()).dtype
    f = jit_same(centred, X, np.zeros((8, 3), rt))
    assert ran(f) == ["kernel"]


def half_reductions(H, out):
    for i in range(H.shape[0]):
        out[i, 0] = np.sum(H[i])
        out[i, 1] = np.mean(H[i])
        out[i, 2] = H[i, ::2].prod()
        out[i, 3] = np.sum(H[i] * H[i])
        out[i, 4] = np.nansum(H[i] * 3)


@pytest.mark.parametrize("n", [3, 8, 13, 40, 128])
def test_float16_sums_means_and_products_round_once_as_numpys(n):
    """NumPy sums (pairwise) and multiplies float16 values as float32s and rounds once (2026-12-05:
    the loop rounded to float16 at every step, up to 0.125 apart on sums of about 100)."""
    rng = np.random.default_rng(55)
    H = (rng.standard_normal((6, n)) * 30).astype(np.float16)
    H[:, ::5] = 1.5
    f = jit_same(half_reductions, H, np.zeros((6, 5), np.float16))
    assert ran(f) == ["kernel"]
