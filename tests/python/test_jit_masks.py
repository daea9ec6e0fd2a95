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
             (kept, (X, np.zeros(6)), "keepdims")]
    for fn, args, why in cases:
        f = jit_same(fn, *args)
        (kind, ran), = kinds(f)
        assert kind == "python" and why in ran, (fn.__name__, ran)
    # (an array of integers gathers: compiled, tests/python/test_jit_gathers.py)
    assert kinds(jit_same(integer_indices, X, np.array([0, 2, 2]), np.zeros(6))) == [("parallel", "kernel")]
    P = rng.standard_normal((4, 5, 3))  # (a mask of fewer axes selects whole rows: compiled)
    assert kinds(jit_same(rows_of_a_part, P, np.zeros(4))) == [("parallel", "kernel")]


def overflowing(X):
    for i in range(X.shape[0]):
        X[i][X[i] < 0] = 300


def test_a_python_int_out_of_the_dtype_raises_as_numpy():
    X = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    want, got, f = python_and_jit(overflowing, X)
    assert want[0] is OverflowError and got == want


def centres(X, labels, C, counts):
    for k in range(C.shape[0]):
        C[k] = X[labels == k].mean(axis=0)
        counts[k] = len(X[labels == k])


def spreads(X, labels, out):
    for k in range(out.shape[0]):
        out[k] = np.max(X[labels == k], axis=0) - X[labels == k].min(axis=0) + np.sum(X[labels == k], axis=0)


def totals(X, labels, out):
    for k in range(out.shape[0]):
        out[k] = np.sum(X[labels == k]) + np.std(X[labels == k] * 2) + np.argmax(X[labels == k])


def zero_rows(X, labels):
    for i in range(X.shape[0]):
        X[i][labels[i] > 0] = 0


def test_masks_of_fewer_axes_select_whole_rows():
    """X[labels == k] is NumPy's rows of X where the mask holds: k-means' update
    `C[k] = X[labels == k].mean(axis=0)` (each column's sum in order, over their count)."""
    rng = np.random.default_rng(9)
    for dt in (np.float64, np.float32, np.int64):
        X = stack(rng, dt, (300, 4))
        labels = rng.integers(0, 5, 300)
        f = jit_same(centres, X, labels, np.zeros((5, 4)), np.zeros(5, np.int64))
        assert kinds(f) == [("parallel", "kernel")], f.loop_report()
        assert kinds(jit_same(spreads, X, labels, np.zeros((5, 4), X.dtype))) == [("parallel", "kernel")]
        want, got = np.zeros(5), np.zeros(5)
        totals(X, labels, want)
        f = __import__("numgpu").jit(totals)
        f(X, labels, got)  # (sums of more than 128 elements: a few ulps from NumPy's halving)
        assert kinds(f) == [("parallel", "kernel")]
        np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-12)
    P, labels = stack(rng, np.float64, (20, 3, 4)), rng.integers(0, 2, (20, 3))
    assert kinds(jit_same(zero_rows, P, labels)) == [("parallel", "kernel")]


def index_tuples(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, X[i] > 0]) + len(X[i, X[i] < -1])
        X[i, X[i] < 0] = 0


def index_tuples_3d(P, out):
    for i in range(P.shape[0]):
        out[i] = np.mean(P[i, 1, P[i, 1] > 0])
        P[i, 0, P[i, 0] > 0.5] -= 1


def test_masks_after_indices():
    rng = np.random.default_rng(10)
    assert kinds(jit_same(index_tuples, stack(rng, np.float64, (30, 9)), np.zeros(30))) == [("parallel", "kernel")]
    P = np.abs(stack(rng, np.float64, (30, 3, 9))) + 0.1
    assert kinds(jit_same(index_tuples_3d, P, np.zeros(30))) == [("parallel", "kernel")]


def along_second(X, labels, out):
    for k in range(out.shape[0]):
        out[k] = np.sum(np.sum(X[labels == k], axis=1))


def mask_of_more_axes(x, M, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(x[M > i])


def test_selections_of_rows_that_run_as_python():
    rng = np.random.default_rng(11)
    X, labels = rng.standard_normal((40, 3)), np.repeat(np.arange(4), 10)
    f = jit_same(along_second, X, labels, np.zeros(4))
    assert kinds(f)[0][0] == "python" and "another axis than its first" in kinds(f)[0][1]
    want, got, f = python_and_jit(mask_of_more_axes, rng.standard_normal(4), rng.standard_normal((4, 4)), np.zeros(3))
    assert want[0] is IndexError and got == want
    assert kinds(f)[0][0] == "python"


def row_counts(X, labels, counts):
    for k in range(counts.shape[0]):
        counts[k] = len(X[labels == k])


def test_len_of_selected_rows_counts_rows():
    rng = np.random.default_rng(12)
    labels = rng.integers(0, 3, 50)
    assert kinds(jit_same(row_counts, rng.standard_normal((50, 6)), labels, np.zeros(3, np.int64))) == \
        [("parallel", "kernel")]
    f = jit_same(row_counts, np.zeros((50, 0)), labels, np.zeros(3, np.int64))  # (rows of no element)
    (kind, ran), = kinds(f)
    assert kind == "python" and ran.endswith("counts the rows a boolean mask selects, which have no element")


def above_row_means(P, out):
    for i in range(P.shape[0]):
        out[i] = np.mean(P[i][P[i] > P[i].mean(axis=1, keepdims=True)])


def max_above_column_means(P, out):
    for i in range(P.shape[0]):
        out[i] = np.max(P[i][P[i] > P[i].mean(axis=0, keepdims=True)]) + len(P[i][P[i] > P[i].mean(axis=0)])


def test_masks_reading_reductions_along_an_axis():
    """A mask that reads a reduction along an axis made once per row (hoisted into the loops over
    the elements): the selection counted in that loop (a loop of its own would read it before it
    is made). The float sum then goes in order: a few ulps from NumPy's pairwise sum."""
    rng = np.random.default_rng(13)
    P = rng.standard_normal((30, 5, 6))
    want, got = np.zeros(30), np.zeros(30)
    above_row_means(P, want)
    f = __import__("numgpu").jit(above_row_means)
    f(P, got)
    assert kinds(f) == [("parallel", "kernel")]
    np.testing.assert_allclose(got, want, rtol=1e-14)
    assert kinds(jit_same(max_above_column_means, P, np.zeros(30))) == [("parallel", "kernel")]


def small_clipped(X, out):
    for i in range(X.shape[0]):
        a = np.zeros(4)
        for j in range(4):
            a[j] = X[i, j] - 0.5
        a[a < 0] = 0
        out[i] = np.sum(a) + np.sum(a[a > 0.25]) + len(a[a > 0])


def small_grid(X, out):
    for i in range(X.shape[0]):
        g = np.zeros((2, 3))
        for j in range(6):
            g[j // 3, j % 3] = X[i, j]
        g[g > 0.5] *= 2
        g[g < 0.2] = -1
        out[i] = np.max(g) + np.min(g)


def test_masks_over_arrays_made_in_the_loop():
    X = np.random.default_rng(14).random((40, 6))
    assert kinds(jit_same(small_clipped, X, np.zeros(40)))[0] == ("parallel", "kernel")
    assert kinds(jit_same(small_grid, X, np.zeros(40)))[0] == ("parallel", "kernel")


def _count_above(X, thr):
    c = 0
    for i in range(X.shape[0]):
        c += np.count_nonzero(np.abs(X[i]) > thr)
    return c


def _count_and_len(X, thr):
    c = 0
    n = 0
    for i in range(X.shape[0]):
        n += len(X[i][X[i] > thr])
        c = c + np.count_nonzero(X[i] > thr) * 2
    return c, n


def test_count_nonzero_is_numpys_int64():
    # NumPy 2.4's count_nonzero gives np.int64 (Python's running count becomes one); the compiled
    # loop gave a Python int (len() of a selection stays a Python int)
    X = np.random.default_rng(3).standard_normal((40, 9))
    jit_same(_count_above, X, 0.5)
    jit_same(_count_and_len, X, -0.2)
