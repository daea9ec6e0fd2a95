"""New axes (x[:, None], x[np.newaxis]) and keepdims=True in the elementwise expressions of
rows a compiled loop body makes (stored whole, reduced, named), compared against plain
Python running NumPy itself on the same data.

A new axis is of length 1: NumPy broadcasts it to the other rows' length there. So is each
axis a reduction with keepdims=True reduces. A reduction along an axis whose value the
innermost loop over the expression's elements does not change (X[i].max(axis=-1,
keepdims=True) in X[i] - ...) is computed once per element of the loops outside it, before
that loop. Also here: stores whose value reads the stored array inside such a reduction or
a matrix product run as Python (NumPy evaluates the value first)."""
import numpy as np
import pytest

import numgpu
from helpers import case_id, jit_same, module_function, parts, python_and_jit, store_each


def kinds(f):
    return [(r["kind"], r.get("ran")) for r in f.loop_report()]


def weighted_rows(X, w, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(w[:, None] * X[i], axis=0)


def outer(x, y, out):
    for i in range(x.shape[0]):
        out[i] = x[i][:, None] * y[i][None, :]


def pairwise(P, out):
    for i in range(P.shape[0]):
        d = P[i][:, None, :] - P[i][None, :, :]
        out[i] = np.sqrt(np.sum(d * d, axis=-1))


def spread(x, y, out):
    for i in range(x.shape[0]):
        out[i] = np.max(np.abs(x[i, :, np.newaxis] - y[i]))


def test_new_axes_broadcast_as_numpys():
    rng = np.random.default_rng(1)
    X, w = rng.standard_normal((20, 6, 5)), rng.standard_normal(6)
    f = jit_same(weighted_rows, X, w, np.zeros((20, 5)))
    assert kinds(f) == [("parallel", "kernel")]
    x, y = rng.standard_normal((20, 4)), rng.standard_normal((20, 7))
    assert kinds(jit_same(outer, x, y, np.zeros((20, 4, 7)))) == [("parallel", "kernel")]
    assert kinds(jit_same(spread, x, y, np.zeros(20))) == [("parallel", "kernel")]
    P = rng.standard_normal((10, 8, 3))
    got, want = np.zeros((10, 8, 8)), np.zeros((10, 8, 8))
    pairwise(P, want)
    f = numgpu.jit(pairwise)
    f(P, got)
    assert kinds(f) == [("parallel", "kernel")]
    np.testing.assert_array_equal(got, want)  # (3 in order: NumPy's pairwise sum of fewer than 8)


NEW_AXES = [
    "np.sum(x[i][:, None] * x[i][None, :])", "np.sum(x[i, :, None] - x[i])", "np.max(x[i][None] + x[i, ::-1, None])",
    "np.sum(x[i, :4, None, None] * x[i, None, :4, None] * x[i, None, None, :4])", "np.mean(x[None, i] * 2.0)",
    "np.sum(x[i][:, np.newaxis] > x[i][np.newaxis, :])", "np.min(x[i][:, None] - x[i][None, :] * 2)",
    "np.argmax(np.sum(x[i][:, None] * x[i], axis=0))", "np.sum(np.max(x[i][:, None] - x[i], axis=1) * x[i])",
]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.int8], ids=case_id)
@pytest.mark.parametrize("j", range(len(NEW_AXES)))
def test_each_new_axis_form(tmp_path, j, dt):
    what = NEW_AXES[j]
    rng = np.random.default_rng(20 + j)
    x = (rng.standard_normal((6, 7)) * 4).astype(dt) if dt in (np.float64, np.float32) else rng.integers(-5, 5, (6, 7))
    x = x.astype(dt)
    src = f"import numpy as np\n\ndef f(x, out):\n    for i in range(x.shape[0]):\n        out[i] = {what}\n"
    fn = module_function(tmp_path, f"newaxis{j}", src, "f")
    want_dt = np.asarray(eval(what, {"np": np, "x": x, "i": 0})).dtype
    f = jit_same(fn, x, np.zeros(6, want_dt))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


KEEPDIMS = [
    "X[i] - X[i].mean(axis=1, keepdims=True)", "X[i] - np.mean(X[i], axis=0, keepdims=True)",
    "X[i] / np.max(np.abs(X[i]), axis=-1, keepdims=True)", "X[i] * np.sum(X[i], keepdims=True)",
    "(X[i] - np.min(X[i], 1, keepdims=True)) / (np.ptp(X[i], axis=1, keepdims=True) + 1)",
    "np.argmax(X[i], axis=1, keepdims=True) + X[i]", "X[i] / np.linalg.norm(X[i], axis=0, keepdims=True)",
    "(X[i] - X[i].mean(0, keepdims=True)) / (np.std(X[i], axis=0, keepdims=True, ddof=1) + 1)",
    "X[i] - np.var(X[i], axis=1, keepdims=True)", "X[i].sum(axis=1, keepdims=False) + X[i][:, 0]",
    "np.nanmean(X[i], axis=1, keepdims=True) * X[i]", "np.count_nonzero(X[i] > 0, axis=0, keepdims=True) + X[i]",
    "np.sum(X[i] - X[i].mean(axis=1, keepdims=True), axis=0)", "np.max(X[i] * X[i].sum(axis=0, keepdims=True), axis=1)",
    "np.max(X[i] - X[i].mean(axis=1, keepdims=True))", "np.argmin(X[i] * X[i].max(axis=0, keepdims=True))",
    "X[i] - X[i].max(axis=1, keepdims=True) + X[i].min(axis=0, keepdims=True)",
]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int16], ids=case_id)
@pytest.mark.parametrize("j", range(len(KEEPDIMS)))
def test_each_keepdims_form(tmp_path, j, dt):
    what = KEEPDIMS[j]
    rng = np.random.default_rng(40 + j)
    X = parts(rng, dt)
    fn, want = store_each(tmp_path, f"keepdims{j}", what, X)
    f = jit_same(fn, X, np.zeros_like(want))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def middle_axis(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i] - X[i].max(axis=1, keepdims=True) * np.sum(X[i], axis=(0), keepdims=True)


def test_kept_axes_of_parts_of_three_axes():
    rng = np.random.default_rng(5)
    X = rng.integers(-20, 20, (4, 3, 5, 6)).astype(np.int32)
    f = jit_same(middle_axis, X, np.zeros((4, 3, 5, 6), np.int32))
    assert kinds(f) == [("parallel", "kernel")]
    jit_same(middle_axis, X.astype(np.float64), np.zeros((4, 3, 5, 6)))


def softmax_rows(X, out):
    for i in range(X.shape[0]):
        e = np.exp(X[i] - X[i].max(axis=-1, keepdims=True))
        out[i] = e / e.sum(axis=-1, keepdims=True)


def kept_shape(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=1, keepdims=True)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=case_id)
def test_softmax_of_each_row_of_each_batch(dt):
    rng = np.random.default_rng(2)
    for rows, n in [(1, 1), (3, 5), (4, 8), (2, 31), (3, 130)]:
        X = (rng.standard_normal((6, rows, n)) * 5).astype(dt)
        got, want = np.zeros_like(X), np.zeros_like(X)
        softmax_rows(X, want)
        f = numgpu.jit(softmax_rows)
        f(X, got)
        assert kinds(f) == [("parallel", "kernel")]
        # (np.exp is the C library's in the kernel, NumPy's SIMD one an ulp away; the rest is NumPy's order)
        np.testing.assert_allclose(got, want, rtol=2e-15 if dt == np.float64 else 1e-6, atol=0)
        np.testing.assert_allclose(got.sum(axis=-1), 1.0, rtol=1e-5)


def test_a_kept_axis_stores_into_a_part_of_length_1():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 4, 6))
    jit_same(kept_shape, X, np.zeros((5, 4, 1)))
    jit_same(kept_shape, X, np.zeros((5, 4, 3)))  # (a length 1 broadcast into the part)


def kept_max(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i] - X[i].max(axis=1, keepdims=True)


def test_kept_axes_of_an_empty_part_are_numpys():
    X = np.zeros((3, 0, 4))
    jit_same(kept_shape, X, np.zeros((3, 0, 1)))
    jit_same(kept_max, X, np.zeros((3, 0, 4)))
    Y = np.zeros((3, 4, 0))  # (max along an empty axis of a part with elements: NumPy's ValueError)
    plain, jitted, _ = python_and_jit(kept_max, Y, np.zeros((3, 4, 0)))
    assert plain == jitted and plain[0] is ValueError, (plain, jitted)


def keepdims_variable(X, out, kd):
    for i in range(X.shape[0]):
        out[i] = X[i].sum(axis=1, keepdims=kd)


def keepdims_number(X, out):
    for i in range(X.shape[0]):
        s = np.sum(X[i], keepdims=True)
        out[i, 0, 0] = s[0, 0]


def store_into_new_axis(x):
    for i in range(x.shape[0]):
        x[i, None] = 1.0


def new_axis_of_str(s, out):
    for i in range(len(s)):
        out[i] = s[None] == 'a'


def test_what_runs_as_python_and_says_why():
    X = np.arange(24.0).reshape(2, 3, 4)
    f = jit_same(keepdims_variable, X, np.zeros((2, 3)), False)
    assert f.loop_report()[0]["kind"] == "python" and "keepdims=" in f.loop_report()[0]["reason"]
    f = jit_same(keepdims_number, X, np.zeros_like(X))
    assert f.loop_report()[0]["kind"] == "python" and "keepdims=True" in f.loop_report()[0]["reason"]
    f = jit_same(store_into_new_axis, np.zeros((3, 2)))
    assert f.loop_report()[0]["kind"] == "python" and "new axis" in f.loop_report()[0]["reason"]
    plain, jitted, f = python_and_jit(new_axis_of_str, "abc", np.zeros(3, bool))
    assert plain == jitted and plain[0] is TypeError, (plain, jitted)


def in_place_along(X):
    for i in range(X.shape[0]):
        X[i] = X[i] - X[i].mean(axis=0)


def in_place_kept(X):
    for i in range(X.shape[0]):
        X[i] -= X[i].mean(axis=1, keepdims=True)


def in_place_product(x, W):
    for i in range(x.shape[0]):
        x[i] = W @ x[i]


def in_place_matrices(A, B):
    for i in range(A.shape[0]):
        A[i] = A[i] @ B[i]


def loop_array_element(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(3)
        a[:] = x[i]
        a[:] = a[0] + a
        out[i] = a


def loop_array_along(x, out):
    for i in range(x.shape[0]):
        a = np.zeros((3, 3))
        a[:] = x[i]
        a[:] = a - a.mean(axis=0)
        out[i] = a


def loop_array_whole(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(3)
        a[:] = x[i]
        a[:] = a / np.sum(a) + a
        out[i] = a


def test_stores_whose_value_reads_what_they_change_are_numpys():
    """NumPy evaluates the value before it stores any of it: where the loop over the stored
    elements would read elements it has changed, the loop runs as Python."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 4, 3))
    for fn, args in [(in_place_along, (X,)), (in_place_kept, (X,)),
                     (in_place_product, (X[:, 0].copy(), rng.standard_normal((3, 3)))),
                     (in_place_matrices, (rng.standard_normal((6, 3, 3)), rng.standard_normal((6, 3, 3)))),
                     (loop_array_element, (X[:, 0].copy(), np.zeros((6, 3)))),
                     (loop_array_along, (X[:, :3].copy(), np.zeros((6, 3, 3))))]:
        with np.errstate(all="ignore"):
            f = jit_same(fn, *args)
        assert f.loop_report()[0]["kind"] == "python", (fn.__name__, f.loop_report())
        assert "reads" in f.loop_report()[0]["reason"], f.loop_report()
    f = jit_same(loop_array_whole, X[:, 0] + 5.0, np.zeros((6, 3)))  # (its sum made before the loop)
    assert kinds(f) == [("parallel", "kernel")]
