"""Slices of one axis in @numgpu.jit loops: `np.sum(x[i - 1:i + 2])`, `np.max(X[i, 1:3])`,
`np.sum(X[:, j])`, `np.dot(X[i, :k], y[:k])`, `len(x[a:b])`, and rows stored through a slice
(`y[a:b] = ...`, `X[:, j] = v`). Before 2026-12-05 each of these loops ran as Python
("slicing an array"). A slice's window (first index, length) is Python's, clamped at the
array's ends, computed once before the loop over its elements; rows of lengths that vary
broadcast a length 1 or raise NumPy's ValueError. Against plain Python, on every device."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit


def kinds(f):
    return [(r["kind"], r["ran"]) for r in f.loop_report()]


def moving_sum(x, out, k):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i - k:i + k + 1])


def moving_mean(x, out):
    for i in range(1, x.shape[0] - 1):
        out[i] = np.mean(x[i - 1:i + 2])


def moving_max(x, out):
    for i in range(x.shape[0] - 2):
        out[i] = np.max(x[i:i + 3]) - np.min(x[i:i + 3])


def column_sums(X, out):
    for j in range(X.shape[1]):
        out[j] = np.sum(X[:, j])


def column_stats(X, mean, top):
    for j in range(X.shape[1]):
        mean[j] = np.mean(X[:, j])
        top[j] = np.max(X[:, j])


def partial_rows(X, out, a, b):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, a:b])


def open_ended(X, out, a):
    for i in range(X.shape[0]):
        out[i] = np.sum(X[i, a:]) + 10 * np.sum(X[i, :a])


def stepped(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i::2]) + 10 * np.sum(x[i:0:-1]) + 100 * np.sum(x[-1:i:-3]) + 1000 * np.sum(x[::-1])


def stepped_columns(X, out):
    for j in range(X.shape[1]):
        out[j] = np.sum(X[::2, j]) - np.sum(X[-1::-3, j])


def sliced_dot(X, y, out, k):
    for i in range(X.shape[0]):
        out[i] = np.dot(X[i, :k], y[:k])


def dot_of_windows(x, y, out):
    for i in range(x.shape[0]):
        out[i] = np.dot(x[i:i + 2] * y[i % 3:i % 3 + 1], y[i:i + 2])


def test_dot_of_windows_broadcasts_inside_a_side_not_between():
    x, y = np.arange(1.0, 6.0), np.arange(10.0, 16.0)
    f = jit_same(dot_of_windows, x, y[:5].copy(), np.zeros(5))  # (y's one broadcast on x's side)
    assert kinds(f) == [("parallel", "kernel")]
    py, jit, f = python_and_jit(dot_of_windows, x, y, np.zeros(5))  # (at i = 4: lengths 1 and 2)
    assert py[0] is ValueError and jit[0] is ValueError
    assert kinds(f) == [("parallel", "kernel (raised)")]


def lengths(X, x, out, a, b):
    for i in range(X.shape[0]):
        out[i] = len(x[a:b]) + 10 * len(X[:, i % 2]) + 100 * len(x[i::3]) + 1000 * len(X[i:])


def moving_int(u, out):
    for i in range(u.shape[0]):
        out[i] = np.sum(u[i:i + 4])


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_moving_windows_are_pythons_at_both_ends(dt):
    rng = np.random.default_rng(1)
    for n in (1, 2, 5, 9, 40):
        x = rng.standard_normal(n).astype(dt)
        for k in (0, 1, 2, 4):
            jit_same(moving_sum, x, np.zeros(n, dt), k)  # (x[-2:3] at i = 0: empty, as Python)
        jit_same(moving_mean, x, np.zeros(n, dt))
        jit_same(moving_max, x, np.zeros(n, dt))
    f = jit_same(moving_sum, x, np.zeros(40, dt), 3)
    assert kinds(f) == [("parallel", "kernel")]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.uint8, np.bool_])
def test_columns(dt):
    rng = np.random.default_rng(2)
    for shape in ((7, 5), (1, 3), (130, 4)):  # (130: NumPy's pairwise sum splits, within an ulp)
        X = (rng.standard_normal(shape) * 10).astype(dt)
        if shape[0] <= 128 or not np.issubdtype(dt, np.floating):
            jit_same(column_sums, X, np.zeros(shape[1], np.float64))
        acc = np.float64 if dt == np.bool_ else dt
        if dt != np.bool_ and (shape[0] <= 128 or not np.issubdtype(dt, np.floating)):
            jit_same(column_stats, X, np.zeros(shape[1]), np.zeros(shape[1], acc))
    f = numgpu.jit(column_sums)
    f(X, np.zeros(4))
    assert kinds(f) == [("parallel", "kernel")]


def test_partial_rows_take_pythons_bounds():
    X = np.random.default_rng(3).standard_normal((6, 7))
    for a, b in ((1, 3), (0, 7), (-3, -1), (5, 2), (-100, 100), (3, 3), (-7, 1), (6, 99)):
        jit_same(partial_rows, X, np.zeros(6), a, b)
    for a in (0, 2, -2, 7, -9):
        jit_same(open_ended, X, np.zeros(6), a)
    jit_same(partial_rows, X, np.zeros(6), np.int32(-4), np.uint8(6))


def test_steps_forward_and_backward():
    rng = np.random.default_rng(4)
    for n in (1, 6, 11):
        jit_same(stepped, rng.standard_normal(n), np.zeros(n))
    jit_same(stepped_columns, rng.standard_normal((10, 3)), np.zeros(3))


def test_integer_windows_sum_in_numpys_accumulator():
    u = np.arange(250, 256, dtype=np.uint8)
    jit_same(moving_int, u, np.zeros(6, np.uint64))
    jit_same(moving_int, np.array([120, 100, -128, 7], np.int8), np.zeros(4, np.int64))


def test_dot_of_slices_and_numpys_errors():
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((4, 5)), rng.standard_normal(9)
    for k in (0, 3, 5):
        want, got = np.zeros(4), np.zeros(4)
        sliced_dot(X, y, want, k)
        numgpu.jit(sliced_dot)(X, y, got, k)
        np.testing.assert_allclose(got, want, rtol=1e-12)  # (NumPy's dot is BLAS's order)
    for k in (7, -1, -4):  # rows of other lengths: NumPy's ValueError (the loop runs as Python)
        py, jit, f = python_and_jit(sliced_dot, X, y, np.zeros(4), k)
        assert py[0] is ValueError and jit == py


def test_len_of_slices():
    X, x = np.zeros((5, 3)), np.zeros(8)
    for a, b in ((1, 6), (-3, 100), (6, 2)):
        jit_same(lengths, X, x, np.zeros(5, np.int64), a, b)


def broadcast_window(x, w, out, c):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i:i + 3] * w[c + i % 2:c + 1 + i % 2 * 2])


def with_length_one_array(x, w, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i:i + 3] * w)


def test_rows_of_varying_lengths_broadcast_or_raise_numpys_error():
    x = np.arange(1.0, 9.0)
    # w's slice is of length 1 (broadcast) or 2 (NumPy's ValueError once x's window is 3 long)
    py, jit, f = python_and_jit(broadcast_window, x, np.arange(10.0, 20.0), np.zeros(8), 0)
    assert py[0] is ValueError and jit[0] is ValueError
    assert kinds(f) == [("parallel", "kernel (raised)")]
    for c in (-1, 8, 9):  # (lengths 1 or 0 with x's 3, 2, 1, 0 at the end: ValueError or not)
        py, jit, f = python_and_jit(broadcast_window, x, np.arange(10.0, 20.0), np.zeros(8), c)
        assert jit[0] == py[0], c
    jit_same(broadcast_window, x[:1].copy(), np.arange(10.0, 13.0), np.zeros(1), 0)
    # an array of length 1 beside slices: NumPy broadcasts it (the loop runs as Python)
    jit_same(with_length_one_array, x, np.array([2.0]), np.zeros(8))
    py, jit, f = python_and_jit(with_length_one_array, x, np.array([2.0, 3.0, 4.0]), np.zeros(8))
    assert py[0] is ValueError and jit[0] is ValueError


def numpy_max_of_window(x, out):
    for i in range(x.shape[0]):
        out[i] = np.max(x[i:4])


def python_max_of_window(x, out):
    for i in range(x.shape[0]):
        out[i] = max(x[i:4]) + min(x[i - 1:i + 1])


def sum_of_window(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i:4]) + np.prod(x[i:4]) + np.any(x[i:4] > 0)


def test_extremes_of_an_empty_window_raise_as_numpy_and_python():
    x = np.array([3.0, -1.0, 2.0, 5.0, 4.0, 0.5])
    py, jit, f = python_and_jit(numpy_max_of_window, x, np.zeros(6))
    assert py == (ValueError, "zero-size array to reduction operation maximum which has no identity")
    assert jit == py and kinds(f) == [("parallel", "kernel (raised)")]
    jit_same(numpy_max_of_window, x[:4].copy(), np.zeros(4))
    py, jit, f = python_and_jit(python_max_of_window, x, np.zeros(6))
    assert py[0] is ValueError and jit == py  # (Python's own words: max() of an empty sequence)
    jit_same(sum_of_window, x, np.zeros(6))  # (the identities)


def strided_store(x, y):
    for i in range(0, x.shape[0] - 3, 4):
        y[i:i + 4] = x[i:i + 4] * 2.0


def column_store(X, v):
    for j in range(X.shape[1]):
        X[:, j] = v * j + X[:, j]


def part_store(X, a, b):
    for i in range(X.shape[0]):
        X[i, a:b] = i
        X[i, a:b] += np.sum(X[i])


def every_other(X):
    for i in range(X.shape[0]):
        X[i, ::2] = X[i, 1::2]  # (the value reads X otherwise: NumPy evaluates it first)


def store_broadcast(y, w, c):
    for i in range(y.shape[0] - 2):
        y[i:i + 3] = w[c:c + 1] * i


def test_rows_stored_through_slices():
    rng = np.random.default_rng(6)
    x = rng.standard_normal(14)
    f = jit_same(strided_store, x, np.zeros(14))
    assert kinds(f) == [("parallel", "kernel")]  # (4 apart, 4 wide: never one element)
    f = jit_same(column_store, rng.standard_normal((5, 4)), np.arange(5.0))
    assert kinds(f) == [("parallel", "kernel")]
    for a, b in ((1, 3), (-2, 100), (4, 1), (0, 0)):
        jit_same(part_store, rng.standard_normal((3, 6)), a, b)
    jit_same(every_other, rng.standard_normal((3, 8)))
    for c in (0, 2, 5):  # w[5:6] is empty: NumPy's ValueError
        py, jit, f = python_and_jit(store_broadcast, np.zeros(6), np.arange(5.0), c)
        assert jit[0] == py[0], c
        if c < 5:
            jit_same(store_broadcast, np.zeros(6), np.arange(5.0), c)
    py, jit, f = python_and_jit(column_store, np.zeros((5, 4)), np.arange(4.0))  # (v: 4 rows for 5)
    assert py[0] is ValueError and jit[0] is ValueError


def float_bound(x, out, a):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[a:])


def zero_step(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i::0])


def slice_of_slice(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(x[i:][1:])


def chunk_overlap(x, y):
    for i in range(0, x.shape[0] - 4, 2):
        y[i:i + 4] = y[i:i + 4] + x[i]


def chunk_then_next(x, y):
    for i in range(0, x.shape[0] - 4, 4):
        y[i:i + 4] = x[i:i + 4] + 1.0
        y[i + 4] = -1.0  # (the next chunk's first element: iteration i + 4 writes it too)


def chunk_offset(x, y, k):
    for i in range(0, x.shape[0], 4):
        y[i - k:i - k + 4] = x[i] + 1.0


def test_stores_through_slices_apart_are_parallel():
    """A slice stored in each iteration is parallel where the analysis proves no two
    iterations' slices meet: y[a*i + P:a*i + P + w] with the range's step times a at least w
    (and at least the gap to another access), the bounds checked not negative before the
    loop (then it runs in order: Python wraps a negative bound)."""
    x = np.arange(1.0, 22.0)
    f = jit_same(chunk_overlap, x, np.zeros(21))
    assert kinds(f) == [("sequential", "kernel (one thread)")]  # (4 wide, 2 apart)
    f = jit_same(chunk_then_next, x, np.zeros(21))
    assert kinds(f)[0][0] == "sequential"
    f = jit_same(chunk_offset, x, np.zeros(21), 0)
    assert kinds(f) == [("parallel", "kernel")]
    f = jit_same(chunk_offset, x, np.zeros(21), 3)  # (i - 3 at i = 0: y[-3:1], empty in Python)
    assert kinds(f)[0][1].startswith("kernel (one thread")


def test_slices_python_refuses_and_what_stays_python():
    x = np.arange(5.0)
    py, jit, f = python_and_jit(float_bound, x, np.zeros(5), 1.5)
    assert py[0] is TypeError and jit == py
    py, jit, f = python_and_jit(zero_step, x, np.zeros(5))
    assert py == (ValueError, "slice step cannot be zero") and jit == py
    f = jit_same(slice_of_slice, x, np.zeros(5))
    assert kinds(f)[0][0] == "python" and "indexing a slice" in f.loop_report()[0]["reason"]


def checked(x, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(x[i - 1:i + 2]) + x[i + 1]


def test_windows_under_boundscheck():
    x = np.arange(6.0)
    f = numgpu.jit(boundscheck=True)(checked)
    out = np.zeros(6)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        f(x, out)
    want, got = np.zeros(5), np.zeros(5)
    numgpu.jit(boundscheck=True)(checked)(np.arange(7.0), got)
    checked(np.arange(7.0), want)
    np.testing.assert_array_equal(got, want)


def named_window(x, out):
    for i in range(1, x.shape[0] - 1):
        w = x[i - 1:i + 2]
        out[i] = np.sum(w) * len(w) + np.max(w) + w[0] + np.dot(w, w)


def named_window_stored(x, out):
    for i in range(2, x.shape[0]):
        w = x[i - 2:i]
        out[i - 2:i] = w * 2.0 + out[i - 2:i]


def named_window_returned(x):
    w = x
    for i in range(1, x.shape[0]):
        w = x[i - 1:i + 1]
    return w


def named_row_part(X, T, out):
    for i in range(X.shape[0]):
        w = X[i, 1:]
        v = T[i, 1, 2:]
        out[i] = np.sum(w) + w[0] * len(w) + w[-1] + np.max(v) + v[1]


def test_a_slice_named_in_the_loop_is_read_whole_too():
    rng = np.random.default_rng(8)
    f = jit_same(named_row_part, rng.standard_normal((5, 6)), rng.standard_normal((5, 3, 6)), np.zeros(5))
    assert kinds(f) == [("parallel", "kernel")]
    x = np.random.default_rng(7).standard_normal(9)
    f = jit_same(named_window, x, np.zeros(9))
    assert kinds(f) == [("parallel", "kernel")]
    f = jit_same(named_window_stored, x, np.zeros(9))
    assert kinds(f)[0][1].startswith("kernel")
    f = numgpu.jit(named_window_returned)  # (the view itself is Python's)
    got = f(x)
    np.testing.assert_array_equal(got, x[-2:])
    assert kinds(f)[0][0] == "python"


def window_element(x, out, j):
    for i in range(x.shape[0]):
        w = x[i:i + 3]
        out[i] = w[j] + len(w)


def text_element(txt, out, j):
    for i in range(len(out)):
        w = txt[i:i + 2]
        out[i] = ord(w[j])


def tuple_element(sh, out, j):
    for i in range(out.shape[0]):
        w = sh[1:]
        out[i] = w[j] * i


def bool_bound(x, m, out):
    for i in range(x.shape[0]):
        w = x[:m[i]]
        out[i] = len(w)


def test_an_index_outside_a_named_slice_raises_indexerror():
    """w[j] of `w = x[a:b]` reads x[a + j] only inside the window (2026-12-05: it read
    past the window's end, into x or beyond it); outside, Python's IndexError."""
    x = np.arange(1.0, 7.0)
    for j in (1, 2, -2, -3):  # (x[5:8] has 1 element)
        py, jit, f = python_and_jit(window_element, x, np.zeros(6), j)
        assert py[0] is IndexError and jit[0] is IndexError, j
    for j in (0, -1):
        jit_same(window_element, x, np.zeros(6), j)
    py, jit, f = python_and_jit(text_element, "abcd", np.zeros(4, np.int64), 1)  # ("d" at i = 3)
    assert py == (IndexError, "string index out of range") and jit == py
    jit_same(text_element, "abcd", np.zeros(3, np.int64), -1)
    py, jit, f = python_and_jit(tuple_element, (4, 5, 6), np.zeros(3, np.int64), 2)
    assert py == (IndexError, "tuple index out of range") and jit == py
    jit_same(tuple_element, (4, 5, 6), np.zeros(3, np.int64), -2)


def test_a_numpy_bool_slice_bound_is_pythons_typeerror():
    m = np.array([True, False, True])
    py, jit, f = python_and_jit(bool_bound, np.arange(3.0), m, np.zeros(3))
    assert py[0] is TypeError and jit == py


# ---- parts of several axes: windows of an image, planes of a 3-d array ----

def box_filter(img, K, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + K.shape[0], j:j + K.shape[1]] * K)


def max_pool(img, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.max(img[2 * i:2 * i + 2, 2 * j:2 * j + 2])


def window_sums(img, out, h, w):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + h, j:j + w])


def plane_stats(T, mean, top, any_neg):
    for i in range(T.shape[0]):
        mean[i] = np.mean(T[i])
        top[i] = np.max(np.abs(T[i]))
        any_neg[i] = np.any(T[i, 1:, :2] < 0)


def plane_update(T, A):
    for i in range(T.shape[0]):
        T[i] = A * i + T[i]


def block_fill(img, v):
    for i in range(0, img.shape[0] - 1, 2):
        img[i:i + 2, 1:3] = i
        img[i:i + 2, 3:] += v


def rows_times_column(img, w, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(img[i:i + 3, :] * w)  # (w: one length per row: NumPy's last axis)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_image_windows_sum_in_numpys_order(dt):
    """NumPy sums a part of several axes as its buffered copy: one row of its elements in C
    order; up to 128 elements that order exactly (bit for bit here), beyond within ulps."""
    rng = np.random.default_rng(9)
    img = (rng.standard_normal((20, 24)) * 10.0 ** rng.uniform(-3, 3, (20, 24))).astype(dt)
    for kh, kw in ((3, 3), (1, 5), (5, 1), (4, 4), (3, 9)):
        K = rng.standard_normal((kh, kw)).astype(dt)
        f = jit_same(box_filter, img, K, np.zeros((20 - kh + 1, 24 - kw + 1), dt))
    assert kinds(f)[0] == ("parallel", "kernel")
    for h, w in ((2, 2), (3, 8), (8, 9), (11, 11)):
        jit_same(window_sums, img, np.zeros((5, 6), dt), h, w)
    want, got = np.zeros((2, 2), dt), np.zeros((2, 2), dt)
    window_sums(img, want, 15, 20)  # (300 elements: NumPy splits the row)
    numgpu.jit(window_sums)(img, got, 15, 20)
    np.testing.assert_allclose(got, want, rtol=1e-12 if dt == np.float64 else 1e-5)


def test_pooling_and_planes():
    rng = np.random.default_rng(10)
    img = rng.standard_normal((9, 11))
    jit_same(max_pool, img, np.zeros((4, 5)))
    jit_same(max_pool, rng.integers(-50, 50, (8, 8)).astype(np.int16), np.zeros((4, 4), np.int16))
    T = rng.standard_normal((5, 3, 4))
    jit_same(plane_stats, T, np.zeros(5), np.zeros(5), np.zeros(5, bool))
    f = jit_same(plane_update, T, rng.standard_normal((3, 4)))
    assert kinds(f) == [("parallel", "kernel")]
    jit_same(plane_update, T, rng.standard_normal(4))  # (a row broadcast over each plane)
    py, jit, f = python_and_jit(plane_update, T, rng.standard_normal((2, 4)))
    assert py[0] is ValueError and jit[0] is ValueError
    jit_same(block_fill, rng.standard_normal((7, 6)), rng.standard_normal(3))
    jit_same(rows_times_column, rng.standard_normal((8, 4)), rng.standard_normal(4), np.zeros(6))


def matrix_dot(X, out):
    for i in range(out.shape[0]):
        out[i] = np.dot(X, X[i])


def python_max_of_plane(T, out):
    for i in range(T.shape[0]):
        out[i] = max(T[i])


def test_what_parts_of_several_axes_leave_to_python():
    X = np.arange(4.0).reshape(2, 2)
    f = numgpu.jit(matrix_dot)
    with pytest.raises(ValueError):  # (np.dot(X, X[i]) is a row: NumPy's error storing it into an element)
        f(X, np.zeros(2))
    assert kinds(f)[0][0] == "python" and "a product of a matrix and a row" in f.loop_report()[0]["reason"]
    py, jit, f = python_and_jit(python_max_of_plane, np.arange(8.0).reshape(2, 2, 2), np.zeros(2))
    assert py[0] is ValueError and jit == py  # (Python's max of rows: an array's truth)


def segment_sums(indptr, data, out):
    for r in range(out.shape[0]):
        out[r] = np.sum(data[indptr[r]:indptr[r + 1]])


def segment_max_guarded(indptr, data, out):
    for r in range(out.shape[0]):
        if indptr[r + 1] > indptr[r] and np.max(data[indptr[r]:indptr[r + 1]]) > 0.5:
            out[r] = 1.0


def test_segments_given_by_offsets():
    """Row sums of a CSR matrix: each row a slice between two offsets read from an array."""
    rng = np.random.default_rng(12)
    counts = rng.integers(0, 140, 60)  # (empty rows, and rows past 128: within an ulp there)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    data = rng.standard_normal(int(indptr[-1]))
    want, got = np.zeros(60), np.zeros(60)
    segment_sums(indptr, data, want)
    f = numgpu.jit(segment_sums)
    f(indptr, data, got)
    short = counts <= 128
    np.testing.assert_array_equal(got[short], want[short])
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert kinds(f) == [("parallel", "kernel")]
    jit_same(segment_max_guarded, indptr, data, np.zeros(60))
