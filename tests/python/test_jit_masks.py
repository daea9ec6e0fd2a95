"""Boolean masks in a compiled loop body: whole reductions of a mask's selection
(np.sum(x[i][x[i] > 0]), np.mean, np.max, len(...), Python's sum/max/min, the methods) and
stores into one (r[r < 0] = 0, X[i][X[i] < 0] += 1), compared against plain Python running
NumPy itself on the same data.

x[m] is NumPy's row of the elements of x where m holds, in C order: a whole reduction of it
(or of it made elementwise with numbers: x[m] ** 2, np.abs(x[m])) reads x's elements where m
holds, a float sum in NumPy's pairwise order (bit for bit up to 128 selected elements). A store
x[m] = v of a number v stores it where m holds. Masks of another shape than their array, and
selections combined with other rows, run as Python."""
import numpy as np
import pytest

from helpers import jit_same, python_and_jit, store_each


def kinds(f):
    return [(r["kind"], r.get("ran")) for r in f.loop_report()]


REDUCTIONS = [
    "np.sum(X[i][X[i] > 0])", "np.mean(X[i][X[i] > 0])", "np.max(X[i][X[i] < 5])", "np.min(X[i][X[i] > -5])",
    "X[i][X[i] != 0].prod()", "np.count_nonzero(X[i][X[i] > 1] - 2)", "len(X[i][X[i] > 0])",
    "np.sum(X[i][X[i] > X[i].mean()] ** 2)", "np.argmax(X[i][X[i] < 3])", "np.std(X[i][X[i] > -2])",
    "np.any(X[i][X[i] > 0] > 4)", "sum(X[i][X[i] > 0])", "max(X[i][X[i] < 3])", "np.sum(np.abs(X[i][X[i] < 0]))",
    "np.sum(X[i][(X[i] > -3) & (X[i] < 3)])", "np.sum(X[0][X[0] > X[i].flat[0]])", "X[i][X[i] > 0].sum()",
    "X[i][X[i] > 0].mean()", "np.sum(X[i][X[i] > 0], axis=0)", "np.var(X[i][X[i] > 0], ddof=1)",
    "np.nansum(X[i][X[i] > 0])", "np.ptp(X[i][X[i] > -4])", "np.argmin(X[i][X[i] > -4])",
    "np.all(X[i][X[i] > 0] > 1)", "min(X[i][X[i] > -3])", "np.sum(X[i][~(X[i] > 1)] * 2 + 1)",
]


def stack(rng, dt, shape):
    kind = np.dtype(dt).kind
    return (rng.standard_normal(shape) * 3 if kind == "f" else rng.integers(-9, 9, shape)).astype(dt)


@pytest.mark.parametrize("shape", [(9, 7), (9, 6, 7), (5, 40)], ids=["rows", "parts", "long"])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8])
@pytest.mark.parametrize("j", range(len(REDUCTIONS)))
def test_each_reduction_of_a_selection(tmp_path, j, dt, shape):
    what = REDUCTIONS[j].replace(".flat[0]", "[0]" if len(shape) == 2 else "[0, 0]")
    X = stack(np.random.default_rng(j), dt, shape)
    fn, want = store_each(tmp_path, f"masked{j}", what, X)
    f = jit_same(fn, X, np.zeros_like(want))  # (bit for bit: NumPy's order)
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def norms(X, out):
    for i in range(X.shape[0]):
        out[i] = np.linalg.norm(X[i][X[i] > 0])


def long_sums(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][X[i] > -1.0])


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_norms_and_sums_of_many_elements_within_ulps(dt):
    """np.linalg.norm of a vector is NumPy's dot (its BLAS's order), and beyond 128 elements
    NumPy's pairwise sum splits the row in halves: a few ulps apart there."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 700)).astype(dt)
    for fn in (norms, long_sums):
        want, got = np.zeros(30, dt), np.zeros(30, dt)
        fn(X, want)
        f = __import__("numgpu").jit(fn)
        f(X, got)
        assert kinds(f) == [("parallel", "kernel")]
        np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-13)


def positive_mean(X, out):
    for i in range(X.shape[0]):
        pos = X[i][X[i] > 0]
        if len(pos) > 0:
            out[i] = pos.mean()
        else:
            out[i] = np.nan


def empty_sums(X, out, counts):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][X[i] > 100]) + np.mean(X[i][X[i] > 0])
        counts[i] = len(X[i][X[i] > 100])


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
def test_named_and_empty_selections():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((40, 9))
    X[3] = -1.0  # (no positive element: its branch)
    assert kinds(jit_same(positive_mean, X, np.zeros(40))) == [("parallel", "kernel")]
    # (the sum of none is 0, a mean of none NaN: NumPy's, which also warns)
    f = jit_same(empty_sums, X, np.zeros(40), np.zeros(40, np.int64))
    assert kinds(f) == [("parallel", "kernel")]


def max_of(X, out):
    for i in range(X.shape[0]):
        out[i] = np.max(X[i][X[i] > 0])


def py_max_of(X, out):
    for i in range(X.shape[0]):
        out[i] = max(X[i][X[i] > 0])


def argmin_of(X, out):
    for i in range(X.shape[0]):
        out[i] = np.argmin(X[i][X[i] > 0])


def test_max_of_no_element_raises_as_numpy():
    X = np.abs(np.random.default_rng(5).standard_normal((6, 5)))
    X[4] = -X[4]
    for fn in (max_of, py_max_of, argmin_of):
        want, got, f = python_and_jit(fn, X, np.zeros(6))
        assert want[0] is ValueError and got == want, (got, want)
        assert kinds(f) == [("parallel", "kernel (raised)")]


def other_mask(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][Y[i] > 0])


def test_masks_of_another_shape_raise_as_numpy():
    rng = np.random.default_rng(6)
    X, Y = rng.standard_normal((5, 7)), rng.standard_normal((5, 6))
    want, got, f = python_and_jit(other_mask, X, Y, np.zeros(5))
    assert want[0] is IndexError and got == want
    (kind, ran), = kinds(f)
    assert kind == "python" and ran.endswith("combines rows of other lengths (which NumPy broadcasts, or raises on)")
    Y = rng.standard_normal((5, 7))  # (of the same shape: compiled)
    assert kinds(jit_same(other_mask, X, Y, np.zeros(5))) == [("parallel", "kernel")]


def clip_negatives(X):
    for i in range(X.shape[0]):
        r = X[i]
        r[r < 0] = 0


def shift_negatives(X):
    for i in range(X.shape[0]):
        X[i][X[i] < 0] += 1


def cap_above_mean(X):
    for i in range(X.shape[0]):
        X[i][X[i] > X[i].mean()] = X[i].min()


def scale_small(X):
    for i in range(X.shape[0]):
        X[i][(X[i] > -2) & (X[i] < 2)] *= 3


def mark_zeros(X, Y):
    for i in range(X.shape[0]):
        X[i][Y[i] == 0] = 7


def decrement(x, out):
    for k in range(4):
        x[x > k] -= 1
        out[k] = np.sum(x)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8, np.uint8])
@pytest.mark.parametrize("shape", [(12, 9), (6, 5, 7)], ids=["rows", "parts"])
def test_stores_into_a_selection(dt, shape):
    rng = np.random.default_rng(7)
    X = stack(rng, dt, shape) if np.dtype(dt).kind != "u" else rng.integers(0, 9, shape).astype(dt)
    for fn in (clip_negatives, shift_negatives, cap_above_mean, scale_small):
        assert kinds(jit_same(fn, X)) == [("parallel", "kernel")], fn.__name__
    Y = rng.integers(0, 3, shape)
    assert kinds(jit_same(mark_zeros, X, Y)) == [("parallel", "kernel")]
    x = X.reshape(-1)[:20].copy()
    assert kinds(jit_same(decrement, x, np.zeros(4, x.dtype)))[0] == ("sequential", "kernel (one thread)")


def selection_times_row(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][X[i] > 0] * Y[i])


def selection_stored(X, out):
    for i in range(X.shape[0]):
        out[i, :3] = X[i][X[i] > 0][:3]


def rows_into_selection(X, Y):
    for i in range(X.shape[0]):
        X[i][X[i] > 0] = Y[i][X[i] > 0]


def mask_reads_changed(X):
    for i in range(X.shape[0]):
        X[i][X[i] > X[i][0]] = 0.0


def rows_of_a_part(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][X[i, :, 0] > 0])


def integer_indices(X, idx, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][idx])


def kept(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i][X[i] > 0], keepdims=True)[0]


def test_what_runs_as_python():
    rng = np.random.default_rng(8)
    X, Y = rng.standard_normal((6, 7)), rng.standard_normal((6, 7))
    X[:, 0] = 1.0  # (3 positive at least, and X[i][0] not the greatest)
    X[:, 1] = 2.0
    X[:, 2] = 0.5
    cases = [(selection_times_row, (np.abs(X) + 0.1, Y, np.zeros(6)), "boolean mask's selection"),
             (selection_stored, (X, np.zeros((6, 3))), "indexing a boolean mask's selection"),
             (rows_into_selection, (X, Y), "storing an array into a boolean mask's selection"),
             (mask_reads_changed, (X,), "reads otherwise"),
             (integer_indices, (X, np.array([0, 2, 2]), np.zeros(6)), "array of integers"),
             (kept, (X, np.zeros(6)), "keepdims")]
    for fn, args, why in cases:
        f = jit_same(fn, *args)
        (kind, ran), = kinds(f)
        assert kind == "python" and why in ran, (fn.__name__, ran)
    P = rng.standard_normal((4, 5, 3))
    f = jit_same(rows_of_a_part, P, np.zeros(4))
    assert kinds(f)[0][0] == "python" and "fewer" not in kinds(f)[0][1] and "axes" in kinds(f)[0][1]


def overflowing(X):
    for i in range(X.shape[0]):
        X[i][X[i] < 0] = 300


def test_a_python_int_out_of_the_dtype_raises_as_numpy():
    X = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    want, got, f = python_and_jit(overflowing, X)
    assert want[0] is OverflowError and got == want
