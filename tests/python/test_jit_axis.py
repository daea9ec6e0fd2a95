"""NumPy's reductions along one axis inside a compiled loop (np.sum(C - X[i], axis=1),
X[i].max(0), np.linalg.norm(C - X[i], axis=1), np.argmin of such a row), compared against
plain Python running NumPy itself on the same data.

Such a reduction of a part of 2 or more axes is a row of the elementwise expression it
is in (stored whole, reduced again, or named and read whole); each of its elements is a
loop along the axis. Floats along the last axis add in NumPy's pairwise order (bit for
bit up to 128 elements), along another axis in order, as NumPy adds rows of its C-ordered
temporary."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, module_function, parts, python_and_jit, store_each


def nearest_centre(X, C, labels):
    for i in range(X.shape[0]):
        d = np.sum((C - X[i]) ** 2, axis=1)
        labels[i] = np.argmin(d)


def nearest_by_norm(X, C, labels, dist):
    for i in range(X.shape[0]):
        d = np.linalg.norm(C - X[i], axis=1)
        k = np.argmin(d)
        labels[i] = k
        dist[i] = np.min(d)


def varied(rng, shape, dt):
    """Magnitudes over six decades, both signs: sums that round differently in every order."""
    return (rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)).astype(dt)


def test_nearest_centre_of_each_point_compiles_in_parallel():
    rng = np.random.default_rng(1)
    X, C = rng.random((500, 3)), rng.random((9, 3))
    f = jit_same(nearest_centre, X, C, np.zeros(500, np.int64))
    (loop,) = f.loop_report()
    assert loop["kind"] == "parallel" and loop["ran"] == "kernel", loop
    g = jit_same(nearest_by_norm, X, C, np.zeros(500, np.int64), np.zeros(500))
    assert g.loop_report()[0]["kind"] == "parallel"
    labels = np.zeros(500, np.int64)
    numgpu.jit(nearest_centre)(X, C, labels)
    np.testing.assert_array_equal(labels, np.argmin(((X[:, None] - C) ** 2).sum(axis=2), axis=1))


def sums_along(X, first, last):
    for i in range(X.shape[0]):
        first[i] = np.sum(X[i], axis=0)
        last[i] = X[i].sum(-1)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_float_sums_along_an_axis_are_numpys_bit_for_bit(dt):
    rng = np.random.default_rng(2)
    for rows, n in [(1, 1), (3, 7), (5, 8), (9, 9), (17, 16), (33, 31), (8, 65), (40, 100), (3, 127), (2, 128)]:
        X = varied(rng, (4, rows, n), dt)
        jit_same(sums_along, X, np.zeros((4, n), dt), np.zeros((4, rows), dt))


def test_long_sums_along_the_last_axis_are_within_a_few_ulps():
    rng = np.random.default_rng(3)
    X = rng.uniform(0.5, 1.5, (3, 4, 1000))
    want, got = (np.zeros((3, 1000)), np.zeros((3, 4))), (np.zeros((3, 1000)), np.zeros((3, 4)))
    sums_along(X, *want)
    numgpu.jit(sums_along)(X, *got)
    np.testing.assert_array_equal(got[0], want[0])  # (along the first axis: 4 in order)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14, atol=0)


REDUCTIONS = [
    "np.sum(X[i], axis=1)", "np.sum(X[i], 0)", "X[i].sum(axis=-2)", "np.prod(X[i] * 0.5 + 0.75, axis=1)",
    "np.mean(X[i], axis=0)", "X[i].mean(1)", "np.max(X[i], axis=1)", "np.amin(X[i], axis=0)", "X[i].min(-1)",
    "np.argmax(X[i], axis=0)", "X[i].argmin(axis=1)", "np.any(X[i] > 1.0, axis=1)", "np.all(X[i] > -2.0, axis=0)",
    "np.count_nonzero(X[i] > 0, axis=1)", "np.var(X[i], axis=1)", "np.std(X[i], axis=0, ddof=1)",
    "X[i].var(axis=0, ddof=2)", "np.ptp(X[i], axis=1)", "np.nansum(X[i], axis=0)", "np.nanmax(X[i], axis=1)",
    "np.nanmin(X[i], axis=0)", "np.nanmean(X[i], axis=1)", "np.linalg.norm(X[i], axis=1)",
    "np.linalg.norm(X[i], 1, 0)", "np.linalg.norm(X[i], ord=np.inf, axis=1)", "np.linalg.norm(X[i], 3, axis=0)",
    "np.sum(X[i] * X[i], axis=1) - np.mean(X[i], axis=1) + 1.0", "np.sum(np.abs(X[i] - X[0]), axis=0)",
]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.int64])
@pytest.mark.parametrize("j", range(len(REDUCTIONS)))
def test_each_reduction_along_an_axis(tmp_path, j, dt):
    what = REDUCTIONS[j]
    rng = np.random.default_rng(10 + j)
    X = parts(rng, dt)
    if dt in (np.float64, np.float32):
        X[1, 2, 3] = X[3, 0, 0] = np.nan  # (NaNs: NumPy's, and skipped by the nan-functions)
    fn, want = store_each(tmp_path, f"axis{j}", what, X)
    with np.errstate(all="ignore"):
        if "3, axis" in what:  # (NumPy's ** of an array is its SIMD pow, an ulp from the C library's)
            f = numgpu.jit(fn)
            got = np.zeros_like(want)
            f(X, got)
            np.testing.assert_allclose(got, want, rtol=4e-16 if dt != np.float32 else 4e-7)
        else:
            f = jit_same(fn, X, np.zeros_like(want))
    (loop,) = f.loop_report()
    assert loop["kind"] == "parallel" and loop["ran"] == "kernel", loop


def along_the_middle(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=1) * 2


def argmax_along_the_first(X, out):
    for i in range(X.shape[0]):
        out[i] = np.argmax(X[i], axis=0)


def test_parts_of_three_axes():
    rng = np.random.default_rng(4)
    X = rng.integers(-50, 50, (4, 3, 5, 6)).astype(np.int16)
    jit_same(along_the_middle, X, np.zeros((4, 3, 6), np.int64))
    jit_same(argmax_along_the_first, X, np.zeros((4, 5, 6), np.int64))
    Y = varied(rng, (4, 3, 20, 6), np.float64)
    jit_same(along_the_middle, Y, np.zeros((4, 3, 6)))


def float16_sums(X, s, m):
    for i in range(X.shape[0]):
        s[i] = np.sum(X[i], axis=1)
        m[i] = np.mean(X[i], axis=0)


def test_float16_sums_round_as_numpys():
    rng = np.random.default_rng(5)
    X = rng.random((4, 5, 30)).astype(np.float16)
    jit_same(float16_sums, X, np.zeros((4, 5), np.float16), np.zeros((4, 30), np.float16))


def reduced_again(X, top, rowmax):
    for i in range(X.shape[0]):
        top[i] = np.max(np.sum(X[i], axis=0))
        rowmax[i] = np.argmax(X[i].max(axis=1))


def plus_a_row(X, b, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=1) + b


def growing(X, out):
    for i in range(X.shape[0]):
        out[i, :i + 1] = np.sum(X[i, :i + 1], axis=1)


def growing_rows_summed(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, :i + 1], axis=0)


def a_row_of_one_broadcast(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, i:i + 1], axis=1) + np.sum(X[i], axis=1)


def test_rows_reduced_again_broadcast_and_of_slices():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((6, 20, 9))
    jit_same(reduced_again, X, np.zeros(6), np.zeros(6, np.int64))
    jit_same(plus_a_row, X, rng.standard_normal(20), np.zeros((6, 20)))
    jit_same(growing, X, np.zeros((6, 20)))
    jit_same(growing_rows_summed, X, np.zeros((6, 9)))
    f = jit_same(a_row_of_one_broadcast, X, np.zeros((6, 20)))  # (a sum of shape (1,) beside (20,))
    assert f.loop_report()[0]["ran"] == "kernel"


def max_of_empty_rows(X, out):
    for i in range(X.shape[0]):
        out[i] = np.max(X[i, :, :i], axis=1)


def max_along_nothing(X, out):
    for i in range(X.shape[0]):
        out[i, :0] = np.max(X[i, :0], axis=1)


def test_a_max_along_an_empty_axis_raises_numpys_error_where_the_row_has_elements():
    X = np.ones((4, 5, 6))
    want, got, f = python_and_jit(max_of_empty_rows, X, np.zeros((4, 5)))
    assert want[0] is ValueError and got == want
    assert f.loop_report()[0]["ran"] == "kernel (raised)"
    jit_same(max_along_nothing, X, np.zeros((4, 5)))  # (no element to reduce into: no error)


def axis_from_a_variable(X, out, a):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=a)


def axis_out_of_bounds(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=2)


def keepdims(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i], axis=1, keepdims=True)[:, 0]


def a_sum_of_a_row_along_its_axis(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, 0], axis=0) + X[i].max(axis=None)


def an_element_of_the_row(X, out):
    for i in range(X.shape[0]):
        s = np.sum(X[i], axis=0)
        out[i] = s[1]


def test_what_runs_as_python_says_why():
    X = np.arange(60.0).reshape(3, 4, 5)
    f = jit_same(axis_from_a_variable, X, np.zeros((3, 4)), 1)
    assert "axis other than a constant integer" in f.loop_report()[0]["reason"]
    f = jit_same(an_element_of_the_row, X, np.zeros(3))
    assert f.loop_report()[0]["kind"] == "python"
    jit_same(keepdims, X, np.zeros((3, 4)))
    want, got, f = python_and_jit(axis_out_of_bounds, X, np.zeros((3, 4)))
    assert want[0].__name__ == "AxisError" and got == want
    assert "axis its array does not have" in f.loop_report()[0]["reason"]
    f = jit_same(a_sum_of_a_row_along_its_axis, X, np.zeros(3))  # (of a row: a number)
    assert f.loop_report()[0]["ran"] == "kernel"


@pytest.mark.parametrize("axis", [0, 1])
def test_complex_sums_and_norms_along_an_axis(tmp_path, axis):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((4, 5, 6)) + 1j * rng.standard_normal((4, 5, 6))
    src = ("import numpy as np\n\ndef f(X, s, n):\n    for i in range(X.shape[0]):\n"
           f"        s[i] = np.sum(X[i], axis={axis})\n        n[i] = np.linalg.norm(X[i], axis={axis})\n")
    fn = module_function(tmp_path, f"cplx{axis}", src, "f")
    shape = (4, 6 if axis == 0 else 5)
    want = (np.zeros(shape, complex), np.zeros(shape))
    got = (np.zeros(shape, complex), np.zeros(shape))
    fn(X, *want)
    f = numgpu.jit(fn)
    f(X, *got)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-14)  # (NumPy's complex pairs: its own order)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14)
    assert f.loop_report()[0]["ran"] == "kernel"


TUPLES = [
    "np.sum(X[i] ** 2, axis=(0, 1))", "np.max(X[i], axis=(1, 0))", "np.mean(X[i], axis=(-1, -2))", "X[i].sum(axis=(1,))",
    "np.sum(X[i], axis=(0, 1), keepdims=True) + X[i]", "np.sum(X[i, 0], axis=(0,))", "np.std(X[i], axis=(0, 1))",
    "np.linalg.norm(X[i], axis=(0, 1))", "np.linalg.norm(X[i], 'fro', (1, 0))"
]


@pytest.mark.parametrize("j", range(len(TUPLES)))
def test_a_tuple_of_all_axes_or_one(tmp_path, j):
    X = parts(np.random.default_rng(80 + j), np.float64)
    fn, want = store_each(tmp_path, f"tuple{j}", TUPLES[j], X)
    f = numgpu.jit(fn)
    got = np.zeros_like(want)
    f(X, got)
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)  # (several axes' sums: in order, NumPy's pairwise)
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()


@pytest.mark.parametrize("what", ["np.sum(X[i], axis=())", "np.sum(X[i], axis=(0, 0))", "np.linalg.norm(X[i], 1, (0, 1))",
                                  "np.argmax(X[i], axis=(0,))"])
def test_other_tuples_of_axes_run_as_python(tmp_path, what):
    X = parts(np.random.default_rng(90), np.float64)
    fn = module_function(tmp_path, "tuple_other", "import numpy as np\n\ndef f(X, out):\n"
                         f"    for i in range(X.shape[0]):\n        out[i] = {what}\n", "f")
    plain, jitted, f = python_and_jit(fn, X, np.zeros(X.shape))
    assert plain == jitted, (plain, jitted)
    assert f.loop_report()[0]["kind"] == "python", f.loop_report()
