"""NumPy reductions of a row inside a compiled loop (np.sum, np.mean, np.dot,
np.prod, np.max, np.min, np.any, np.all of X[i] and of expressions of rows),
compared against plain Python running NumPy itself on the same data.

np.sum and np.mean of a float row add in NumPy's pairwise order, so rows of
up to 128 elements give NumPy's result bit for bit; longer rows keep its eight
partial sums but not its recursive split, and are compared to a few ulps."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, module_function, outcome


def row_sums(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i])


def row_means(X, out):
    for i in range(X.shape[0]):
        out[i] = np.mean(X[i])


def row_norms(X, out):
    for i in range(X.shape[0]):
        row = X[i]
        out[i] = np.sqrt(np.sum(row * row))


def row_dots(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = np.dot(X[i], Y[i])


def row_extremes(X, hi, lo):
    for i in range(X.shape[0]):
        hi[i] = np.max(np.abs(X[i]))
        lo[i] = np.min(X[i])


def row_products(X, out):
    for i in range(X.shape[0]):
        out[i] = np.prod(X[i])


def row_any_all(X, out):
    for i in range(X.shape[0]):
        out[i] = 2 * np.any(X[i] > 1.5) + np.all(X[i] > -1.5)


def sum_of_a_shifted_row(X, m, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(np.abs(X[i] - m[i]) * 0.5)  # (NumPy's exp is not libm's: exact ops only)


def varied(rng, rows, n, dt):
    """Rows of magnitudes spread over six decades, of both signs: sums that
    round differently in every order."""
    return (rng.standard_normal((rows, n)) * 10.0 ** rng.uniform(-3, 3, (rows, n))).astype(dt)


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_row_sums_follow_numpys_pairwise_order(dt):
    rng = np.random.default_rng(5)
    for n in list(range(0, 20)) + [23, 31, 32, 33, 64, 65, 100, 127, 128]:
        X = varied(rng, 40, n, dt)
        jit_same(row_sums, X, np.zeros(40, dt))
        jit_same(row_means, X, np.zeros(40, dt))
        jit_same(row_norms, X, np.zeros(40, dt))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_long_row_sums_are_within_a_few_ulps(dt):
    rng = np.random.default_rng(6)
    for n in (129, 300, 1000, 4099):
        X = rng.uniform(0.5, 1.5, (20, n)).astype(dt)  # (no cancellation: ulps of the sum)
        want, got = np.zeros(20, dt), np.zeros(20, dt)
        row_sums(X, want)
        numgpu.jit(row_sums)(X, got)
        np.testing.assert_allclose(got, want, rtol=8 * np.finfo(dt).eps * np.log2(n), atol=0)


def test_row_sums_of_special_values():
    X = np.array([[np.nan, 1.0] + [0.0] * 10,
                  [np.inf, -np.inf] + [1.0] * 10,
                  [np.inf] + [1.0] * 11,
                  [-0.0] * 12,
                  [-0.0] * 3 + [0.0] * 9,
                  [1e308] * 12])
    jit_same(row_sums, X, np.zeros(len(X)))
    jit_same(row_sums, X[:, :5], np.zeros(len(X)))


def test_row_sum_of_an_expression_and_of_a_strided_view():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((30, 90))
    jit_same(sum_of_a_shifted_row, X, X.max(axis=1), np.zeros(30))
    jit_same(row_sums, X[:, ::3], np.zeros(30))  # rows of stride 3
    jit_same(row_sums, X.T.copy()[:, :30].T, np.zeros(30))  # rows along the first axis


def test_integer_row_sums_are_exact():
    rng = np.random.default_rng(8)
    for dt in (np.int64, np.int32, np.uint8, np.bool_):
        X = rng.integers(0, 200, (25, 77)).astype(dt)
        jit_same(row_sums, X, np.zeros(25, np.int64))


def test_other_row_reductions():
    rng = np.random.default_rng(9)
    X = rng.standard_normal((50, 37))
    X[3, 5] = np.nan
    jit_same(row_extremes, X, np.zeros(50), np.zeros(50))
    jit_same(row_products, rng.uniform(0.5, 1.5, (50, 37)), np.zeros(50))
    jit_same(row_any_all, X, np.zeros(50, np.int64))
    Y = rng.standard_normal((50, 37))
    want, got = np.zeros(50), np.zeros(50)
    row_dots(X, Y, want)
    numgpu.jit(row_dots)(X, Y, got)  # (NumPy's dot is BLAS's: its own order)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_row_reductions_run_compiled_in_parallel():
    f = numgpu.jit(row_norms)
    f(np.ones((4, 9)), np.zeros(4))
    (loop,) = f.loop_report()
    assert loop["kind"] == "parallel", loop


def row_max_min(X, hi, lo):
    for i in range(X.shape[0]):
        hi[i] = np.max(X[i])
        lo[i] = np.min(X[i] * 2.0)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_row_max_and_min_find_nan_and_the_extreme_at_every_place(dt):
    # np.max/np.min of a row run in simd lanes (omp simd with the NaN-aware
    # max): a NaN or the extreme in any lane or in the tail must still win
    rng = np.random.default_rng(10)
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 67):
        X = rng.uniform(-1.0, 1.0, (3 * n, n)).astype(dt)
        for j in range(n):
            X[j, j] = np.nan           # a NaN at every place
            X[n + j, j] = 5.0          # the max at every place
            X[2 * n + j, j] = -np.inf  # the min at every place
        jit_same(row_max_min, X, np.zeros(3 * n, dt), np.zeros(3 * n, dt))


def abs_max(x):
    m = 0.0
    for i in range(x.shape[0]):
        m = max(m, abs(x[i]))
    return m


def test_python_max_reduction_in_simd_lanes_skips_nan_as_python_does():
    # Python's max(m, v) keeps m when v is NaN (NaN > m is false); the loop's
    # threads and simd lanes each start at m and are combined after
    rng = np.random.default_rng(11)
    x = rng.standard_normal(100_003)
    x[::7] = np.nan
    x[54_321] = -9.5
    f = jit_same(abs_max, x)
    assert f.loop_report()[0]["reductions"] == [("m", "max")]
    assert numgpu.jit(abs_max)(np.full(1000, np.nan)) == 0.0  # (Python: the float 0.0, never replaced)


def python_max_min(M, out):
    for i in range(M.shape[0]):
        out[i] = max(M[i]) - min(M[i] * 2.0)


def test_python_max_of_a_row_keeps_what_no_later_element_beats():
    """Python's max(row) is not np.max: a NaN neither beats nor is beaten, so it wins only
    where it comes first (2026-12-05: the kernel gave NaN for every row holding one)."""
    M = np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, 1.0], [2.0, 5.0, np.nan], [4.0, -1.0, 0.5]])
    f = jit_same(python_max_min, M, np.zeros(4))
    assert [r["ran"] for r in f.loop_report()] == ["kernel"]
    rng = np.random.default_rng(3)
    M = rng.standard_normal((50, 21))
    M[rng.random((50, 21)) < 0.1] = np.nan
    jit_same(python_max_min, M, np.zeros(50))


def test_python_max_of_an_empty_row_raises_as_python():
    M = np.zeros((3, 0))
    with pytest.raises(ValueError) as want:
        python_max_min(M, np.zeros(3))
    f = numgpu.jit(python_max_min)
    with pytest.raises(ValueError) as got:
        f(M, np.zeros(3))
    assert str(got.value) == str(want.value)
    assert "empty row" in f.loop_report()[0]["ran"]


def python_sums(M, out, flags):
    for i in range(M.shape[0]):
        out[i] = sum(M[i]) + sum(M[i] * 2)
        flags[i] = any(M[i]) + all(M[i] > 0) * 2


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int8, np.uint16, np.bool_])
def test_python_sum_any_all_of_rows(dt):
    """Python's sum(row) adds in order in the elements' dtype (an int8 sum wraps, a float sum
    rounds as Python's, not NumPy's pairwise sum); any()/all() are Python bools (2026-12-05:
    the analysis refused these builtins, so such loops ran as Python)."""
    rng = np.random.default_rng(5)
    M = (rng.standard_normal((30, 37)) * 60).astype(dt)
    out = np.zeros(30, dt if np.dtype(dt).kind == "f" else np.int64)
    with np.errstate(over="ignore"):
        f = jit_same(python_sums, M, out, np.zeros(30, np.int64))
    assert [r["ran"] for r in f.loop_report()] == ["kernel"]


def products(X, Y, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i] * Y[i]) + np.dot(X[i], Y[i])


@pytest.mark.parametrize("m", [4, 1, 1000])
def test_rows_of_other_lengths_are_numpy_broadcast_or_its_error(m):
    """2026-12-05: np.sum(X[i] * Y[i]) with rows of other lengths read past the shorter row
    (NaN, or worse); NumPy broadcasts a length 1 or raises ValueError: the loop now runs as
    Python there."""
    X, Y = np.ones((3, 4)), np.arange(3.0 * m).reshape(3, m)
    want = outcome(products, X, Y, np.zeros(3))
    f = numgpu.jit(products)
    got = outcome(f, X, Y, np.zeros(3))
    assert want[0] == got[0]
    if want[0] == "ok":
        np.testing.assert_array_equal(got[2][2], want[2][2])
    assert f.loop_report()[0]["ran"] == "kernel" if m == 4 else "other lengths" in f.loop_report()[0]["ran"]


def raising_sum_in_order(M, out, k):
    for i in range(1, M.shape[0]):
        out[i] = out[i - 1] + np.sum(M[i] * math.sqrt(k - i))


def test_a_raise_in_a_row_reduction_stops_a_loop_in_order():
    """2026-12-05: the raise left the reduction's loop but not the loop around it, whose later
    iterations still ran (and stored): Python's arrays stop at the failing iteration."""
    M = np.ones((10, 4))
    want = outcome(raising_sum_in_order, M, np.zeros(10), 5)
    got = outcome(numgpu.jit(raising_sum_in_order), M, np.zeros(10), 5)
    assert want[0] is ValueError and got[0] is ValueError
    np.testing.assert_array_equal(got[2][1], want[2][1])


def guarded_row_max(X, out):
    for r in range(out.shape[0]):
        if r > 0 and np.max(X[r]) > 0.5:
            out[r] = 1.0


def test_a_row_max_under_a_guard_in_lanes_compiles():
    """(2026-12-05: the loop ran in jammed lanes and the row's simd max named `v3` in its
    reduction clause where each lane's copy is `v3_0` ...: the C compiler refused the kernel.)"""
    rng = np.random.default_rng(11)
    f = jit_same(guarded_row_max, rng.random((20, 6)), np.zeros(20))
    assert [r["ran"] for r in f.loop_report()] == ["kernel"]


def nan_reductions(X, a, b, c, d):
    for i in range(X.shape[0]):
        a[i] = np.nanmax(X[i])
        b[i] = np.nanmin(X[i, 1:] * 2)
        c[i] = np.nanmean(X[i])
        d[i] = np.ptp(X[i])


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:All-NaN slice")
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16, np.int8, np.int64, np.uint8, np.uint64],
                         ids=lambda d: np.dtype(d).name)
def test_nanmax_nanmin_nanmean_and_ptp_of_rows(dt):
    # (before 2026-12-05 these ran as Python: "calls np.nanmax (not compilable)")
    rng = np.random.default_rng(81)
    X = (rng.standard_normal((30, 9)) * 50).astype(dt) if dt not in (np.uint8, np.uint64) else \
        rng.integers(0, 250, (30, 9)).astype(dt)
    if np.dtype(dt).kind == "f":
        X[rng.random(X.shape) < 0.3] = np.nan
        X[3] = np.nan  # all NaN: NaN (NumPy also warns)
        X[4, 1:] = np.nan
        X[5, :] = [np.inf, -np.inf, np.nan, 0, -0.0, 1, 2, 3, np.nan]
    wide = X.dtype if np.dtype(dt).kind == "f" else np.float64
    with np.errstate(all="ignore"):
        f = jit_same(nan_reductions, X, np.zeros(30, X.dtype), np.zeros(30, X.dtype), np.zeros(30, wide),
                     np.zeros(30, X.dtype))
    assert f.loop_report()[0]["ran"] == "kernel"


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
def test_nan_reductions_of_empty_rows_and_what_stays_python(tmp_path):
    E = np.zeros((3, 0))
    src = ("import numpy as np\n\ndef f(X, out):\n    for i in range(X.shape[0]):\n        out[i] = %s\n")
    for call, err in (("np.nanmax(X[i])", "fmax"), ("np.nanmin(X[i])", "fmin"), ("np.ptp(X[i])", "maximum")):
        fn = module_function(tmp_path, "nanred_%s" % err, src % call, "f")
        p = outcome(fn, E, np.zeros(3))
        j = outcome(numgpu.jit(fn), E, np.zeros(3))
        assert p[0] is ValueError and j[0] is ValueError
        assert ("reduction operation %s which has no identity" % err) in p[1] and p[1] in j[1]
    fn = module_function(tmp_path, "nanred_mean", src % "np.nanmean(X[i])", "f")
    with np.errstate(all="ignore"):
        f = jit_same(fn, E, np.ones(3))  # NaN
    B = np.ones((3, 4), bool)
    fn = module_function(tmp_path, "nanred_bool", src % "np.ptp(X[i])", "f")
    for g in (fn, numgpu.jit(fn)):  # (NumPy's, from Python)
        with pytest.raises(TypeError, match="boolean subtract"):
            g(B, np.zeros(3))
    Z = np.ones((3, 4), complex)
    fn = module_function(tmp_path, "nanred_complex", src % "np.nanmean(X[i]).real", "f")
    f = jit_same(fn, Z, np.zeros(3))
    assert "complex" in f.loop_report()[0]["ran"]
