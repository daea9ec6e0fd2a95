"""Small arrays a compiled loop makes in its body (`a = np.zeros(3)`, np.ones, np.empty,
np.full): private to the iteration (a variable per element where constants index it, else an
array of the iteration's own), so an n-body step or a per-row histogram stays one parallel
kernel (before 2026-12-04 such loops ran as Python, "calls np.zeros (not compilable)").
Against plain Python on every device: results, arrays after, the loop's verdict; what stays
Python still gives Python's results."""
import numpy as np
import pytest

import numgpu
from helpers import case_id, jit_same, python_and_jit


def name_of(v):
    return getattr(v, "__name__", None) or case_id(v)


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def nbody(p, v, m, dt):
    n = p.shape[0]
    for i in range(n):
        a = np.zeros(3)
        for j in range(n):
            if i != j:
                d = p[j] - p[i]
                r = np.sqrt(np.sum(d * d)) + 1e-3
                a += m[j] * d / r**3
        v[i] += a * dt


def row_histogram(X, out):
    for i in range(X.shape[0]):
        h = np.zeros(4, dtype=np.int64)
        for j in range(X.shape[1]):
            h[X[i, j] % 4] += 1
        out[i] = h


def fixed_slots(x, y, out):
    for i in range(x.shape[0]):
        a = np.ones(3)
        a[0] = x[i]
        a[-1] = y[i]
        out[i] = np.sum(a) / len(a) + a.shape[0] + a.size


def filled(x, out):
    for i in range(x.shape[0]):
        a = np.full(2, 7)
        b = np.full(3, 2.5, dtype=np.float32)
        c = np.full((2,), True)
        a[1] += x[i]
        out[i] = a[0] * a[1] + b[i % 3] + c[0] + c.sum()


def scaled_max(X, out):
    for i in range(X.shape[0]):
        a = np.empty(3, np.float32)
        for k in range(3):
            a[k] = X[i, k] * 2
        out[i] = np.max(a) - a[-1] + a.min()


def project(X, W, out):
    for i in range(X.shape[0]):
        acc = np.zeros(4, dtype=X.dtype)
        for j in range(X.shape[1]):
            for k in range(4):
                acc[k] += X[i, j] * W[j, k]
        out[i] = acc


def norms(X, out):
    for i in range(X.shape[0]):
        a = np.zeros(3)
        a[:] = X[i] * 2
        a -= 1.0
        t = 0.0
        for v in a:
            t += v
        out[i] = np.dot(a, a) + t + np.linalg.norm(a)


def running(X, out):
    a = 0.0
    for i in range(X.shape[0]):  # (in order: out[i] reads out[i - 1])
        b = np.zeros(3)
        b += X[i]
        out[i] = out[i - 1] + b[0] * b[1] - b[2] + a


def tuple_stores(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(2, np.int32)
        a[0], a[1] = x[i], 2 * x[i]
        out[i] = a[0] - a[1]


def reset_each_row(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            a = np.zeros(2)
            a[j % 2] = X[i, j]
            out[i, j] = a[0] - a[1]


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=case_id)
def test_nbody_step_is_one_parallel_kernel(dt):
    rng = np.random.default_rng(1)
    p = rng.standard_normal((60, 3)).astype(dt)
    m = rng.random(60).astype(dt)
    v0 = rng.standard_normal((60, 3)).astype(dt)
    want, got = v0.copy(), v0.copy()
    nbody(p, want, m, 0.01)
    f = numgpu.jit(nbody)
    f(p, got, m, 0.01)
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()
    np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-12, atol=1e-6)


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint8, np.int16], ids=case_id)
def test_histogram_per_row(dt):
    X = np.random.default_rng(2).integers(0, 50, (40, 17)).astype(dt)
    f = jit_same(row_histogram, X, np.zeros((40, 4), np.int64))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel"


@pytest.mark.parametrize("fn", [fixed_slots, filled, scaled_max, norms, tuple_stores], ids=name_of)
def test_small_arrays_in_the_body(fn):
    rng = np.random.default_rng(3)
    if fn is scaled_max:
        args = (rng.standard_normal((30, 3)).astype(np.float32), np.zeros(30, np.float32))
    elif fn is norms:
        args = (rng.integers(-5, 5, (30, 3)).astype(np.float64), np.zeros(30))
    elif fn is tuple_stores:
        args = (rng.integers(-1000, 1000, 30), np.zeros(30, np.int64))
    elif fn is filled:
        args = (rng.integers(-9, 9, 30), np.zeros(30))
    else:
        args = (rng.integers(-9, 9, 30).astype(np.float64), rng.standard_normal(30), np.zeros(30))
    f = jit_same(fn, *args)
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64], ids=case_id)
def test_accumulate_into_a_small_array(dt):
    rng = np.random.default_rng(4)
    X = rng.integers(-4, 4, (25, 6)).astype(dt)
    W = rng.integers(-3, 3, (6, 4)).astype(dt)
    f = jit_same(project, X, W, np.zeros((25, 4), dt))
    assert kinds(f)[0] == "parallel"


def test_in_a_loop_that_runs_in_order_and_in_an_inner_loop():
    X = np.random.default_rng(5).integers(-3, 3, (20, 3)).astype(np.float64)
    f = jit_same(running, X, np.zeros(20))
    assert kinds(f)[0] == "sequential" and ran(f)[0] == "kernel (one thread)"
    f = jit_same(reset_each_row, X, np.zeros((20, 3)))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel"


def out_of_range(x, k, out):
    for i in range(x.shape[0]):
        a = np.zeros(3)
        a[k] = x[i]
        out[i] = a[0]


def test_index_out_of_range_is_numpys_index_error():
    x = np.arange(5.0)
    for k in (1, -3):
        jit_same(out_of_range, x, k, np.zeros(5))
    f = numgpu.jit(boundscheck=True)(out_of_range)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        f(x, 3, np.zeros(5))
    py, mine, _ = python_and_jit(out_of_range, x, -4, np.zeros(5))
    assert py[0] is IndexError


def sized_by_argument(x, n, out):
    for i in range(x.shape[0]):
        a = np.zeros(n)
        a[0] = x[i]
        out[i] = a.sum()


def read_after(x):
    for i in range(x.shape[0]):
        a = np.zeros(2)
        a[0] = x[i]
    return a


def aliased(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(2)
        b = a
        b[0] = x[i]
        out[i] = a[0]


def made_in_a_branch(x, out):
    for i in range(x.shape[0]):
        if x[i] > 0:
            a = np.zeros(2)
        a[0] = x[i]
        out[i] = a[0]


def two_lengths(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(2)
        if x[i] > 0:
            a = np.zeros(3)
        out[i] = len(a)


def wrong_kind(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(2, dtype=np.int8)
        a += 1.5
        out[i] = a[0]


@pytest.mark.parametrize("fn,why", [
    (sized_by_argument, "made with 'n' = 300 (only shapes of 1 to 256 elements"),
    (read_after, "read after the loop"),
    (aliased, "used other than indexed"),
    (made_in_a_branch, "before it is"),  # (used before it is made; may read a before it is bound)
    (two_lengths, "made with two shapes"),
], ids=name_of)
def test_what_stays_python_gives_pythons_results(fn, why):
    x = np.array([1.0, -2.0, 3.0, 4.0])
    args = (x, 300, np.zeros(4)) if fn is sized_by_argument else (x,) if fn is read_after else (x, np.zeros(4))
    if fn is made_in_a_branch:
        x[:] = [1.0, 2.0, 3.0, 4.0]  # (Python: a is made before it is read)
    f = jit_same(fn, *args)
    assert f.loop_report()[0]["kind"] == "python" or why in ran(f)[0], f.loop_report()
    assert why in f.loop_report()[0]["reason"] + ran(f)[0], f.loop_report()


def test_an_in_place_update_of_another_kind_raises_numpys_error():
    py, mine, f = python_and_jit(wrong_kind, np.arange(3.0), np.zeros(3))
    assert py[0] is not None and py == mine, (py, mine)


def int8_updates(x, k, out):
    for i in range(x.shape[0]):
        a = np.full(2, 100, dtype=np.int8)
        a[1] = -100
        a[k] += x[i]
        out[i] = a[0] + a[1]


def float_into_ints(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(3, dtype=np.int16)
        a[i % 3] = x[i]
        a[:] = x[i] * 0.5
        out[i] = a.sum()


@pytest.mark.parametrize("k", [0, 1, -1], ids=case_id)
@pytest.mark.parametrize("x", [[1.0, 27.0, 2.5], [100.0, 0.0, 1.0], [np.nan, 1.0, 0.0]], ids=case_id)
def test_element_stores_check_as_numpys_setitem(k, x):
    # a[k] += v stores a float64 into int8: NumPy's OverflowError/ValueError for the element
    # stored (only that one: a[0] = 100 + 100.0 would be out of range, a[1] = -100 + 100.0 not)
    py, mine, f = python_and_jit(int8_updates, np.array(x), k, np.zeros(3))
    assert py == mine, (py, mine)
    py, mine, f = python_and_jit(float_into_ints, np.array(x) * 1000, np.zeros(3))
    assert py == mine, (py, mine)


# ---- small arrays indexed by values from the data: one array of the iteration's own ----


def weighted_bins(X, w, out):
    for i in range(X.shape[0]):
        h = np.zeros(8, dtype=w.dtype)
        for j in range(X.shape[1]):
            h[X[i, j] & 7] += w[j]
        out[i] = h


def wide_histogram(X, out, peaks):
    for i in range(X.shape[0]):
        h = np.zeros(200, np.int64)
        for j in range(X.shape[1]):
            h[X[i, j] % 200] += 1
        out[i] = h.max()
        best = 0
        for b in range(200):
            if h[b] > h[best]:
                best = b
        peaks[i] = best


def from_the_end(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(4)
        a[-1 - (x[i] & 3)] = x[i]
        a[x[i] % 4] -= 0.5
        out[i] = a[0] - 2 * a[1] + 3 * a[2] - 4 * a[3] + np.sum(a * a)


def digit_counts(x, out):
    for i in range(x.shape[0]):
        c = np.zeros(10, np.int64)
        v = x[i]
        while v > 0:
            c[v % 10] += 1
            v //= 10
        out[i] = c


def per_window_mode(X, out):
    for i in range(X.shape[0]):
        for t in range(X.shape[1] // 4):
            h = np.zeros(4, np.int32)  # (made again for each window)
            for j in range(4):
                h[X[i, 4 * t + j] % 4] += 1
            out[i, t] = h.max() * 10 + h[X[i, 4 * t] % 4]


def seen_and_sums(x, out):
    for i in range(x.shape[0]):
        seen = np.zeros(8, dtype=bool)
        z = np.zeros(4, dtype=complex)
        for k in range(i % 7 + 1):
            seen[(x[i] * k) & 7] = True
            z[k % 4] += x[i] * 1j - k
        out[i] = seen.sum() + np.dot(z, z).real + len(seen)


def in_order(X, out):
    for i in range(X.shape[0]):  # (in order: out[i] reads out[i - 1])
        h = np.zeros(5)
        for j in range(X.shape[1]):
            h[X[i, j] % 5] = h[X[i, j] % 5] * 0.5 + X[i, j]  # (in order too)
        out[i] = out[i - 1] + h[0] - h[4]


@pytest.mark.parametrize("dt", [np.int64, np.float64, np.float32, np.uint8, np.int16], ids=case_id)
def test_bins_indexed_by_the_data(dt):
    rng = np.random.default_rng(7)
    X = rng.integers(0, 1000, (50, 33))
    w = rng.integers(0, 9, 33).astype(dt)
    f = jit_same(weighted_bins, X, w, np.zeros((50, 8), dt))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


@pytest.mark.parametrize("fn", [wide_histogram, from_the_end, digit_counts, per_window_mode, seen_and_sums],
                         ids=name_of)
def test_array_indexed_by_the_data_in_the_body(fn):
    rng = np.random.default_rng(8)
    if fn is wide_histogram:
        args = (rng.integers(0, 10**6, (30, 301)), np.zeros(30, np.int64), np.zeros(30, np.int64))
    elif fn is digit_counts:
        args = (rng.integers(0, 10**12, 40), np.zeros((40, 10), np.int64))
    elif fn is per_window_mode:
        args = (rng.integers(-50, 50, (12, 23)), np.zeros((12, 5), np.int64))
    elif fn is seen_and_sums:
        args = (rng.integers(-100, 100, 30), np.zeros(30))
    else:
        args = (rng.integers(-100, 100, 40), np.zeros(40))
    f = jit_same(fn, *args)
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


def test_array_indexed_by_the_data_in_a_loop_that_runs_in_order():
    X = np.random.default_rng(9).integers(-9, 9, (20, 11))
    f = jit_same(in_order, X, np.zeros(20))
    assert kinds(f)[0] == "sequential" and ran(f)[0] == "kernel (one thread)", f.loop_report()


def data_out_of_range(x, out):
    for i in range(x.shape[0]):
        a = np.full(3, 5.0)
        a[x[i]] = 1.0  # (an index out of range stores nothing, reads what is there)
        out[i] = a[0] + a[1] + a[2]


def test_an_index_from_the_data_out_of_range():
    x = np.array([0, 2, 1, -3, -1])
    jit_same(data_out_of_range, x, np.zeros(5))
    for bad in (3, -4, 1000):
        y = np.append(x, bad)
        for f in (numgpu.jit(boundscheck=True)(data_out_of_range), numgpu.jit(data_out_of_range)):
            with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 with size 3"):
                f(y, np.zeros(6))
        out = np.zeros(6)
        numgpu.jit(boundscheck=False)(data_out_of_range)(y, out)  # (no check: no crash, the other elements kept)
        assert (out[:5] == 11.0).all() and out[5] in (15.0, 11.0), out


# ---- small arrays of more than one axis (np.zeros((3, 3))): elements in row-major order ----


def covariances(P, out):
    for i in range(P.shape[0]):
        C = np.zeros((3, 3))
        for j in range(P.shape[1]):
            for a in range(3):
                for b in range(3):
                    C[a, b] += P[i, j, a] * P[i, j, b]
        out[i] = C


def pair_histogram(X, Y, out):
    for i in range(X.shape[0]):
        h = np.zeros((4, 5), dtype=out.dtype)
        for j in range(X.shape[1]):
            h[X[i, j] & 3, Y[i, j] % 5] += 1
        out[i] = h


def rows_and_columns(X, out):
    for i in range(X.shape[0]):
        m = np.zeros((2, 3))
        m[0] = X[i, :3]
        m[1, :] = X[i, 3:6] * 2
        m[:, 1] += 10
        m[1][2] -= m[0][0]
        out[i] = np.sum(m) + m[1].max() - np.sum(m[:, 2]) + m[-1, -2]


def cube(x, out):
    for i in range(x.shape[0]):
        T = np.full((2, 3, 2), 1.5)
        T[1] *= x[i]
        T[:, 2, :] += 2
        T[0, 0, 1] = 7
        out[i] = np.sum(T) + T[1, 2, 1] + T[1][0][1] * 10


def over_rows(X, out):
    for i in range(X.shape[0]):
        R = np.zeros((3, 2))
        R[:, 0] = X[i, :3]
        R[:, 1] = X[i, 3:]
        s = 0.0
        for r in R:
            s += r[0] * r[1]
        q = R[1]
        out[i] = s + np.sum(q) + np.dot(R[0], R[2]) + R[2][:].sum()


def through_a_part(X, out):
    for i in range(X.shape[0]):
        R = np.ones((2, 3))
        r = R[1]
        r[0] = X[i, 0]
        R[1, 2] = X[i, 1]  # (seen through r, as through NumPy's view)
        out[i] = np.sum(r) * 10 + R[1, 0]


def shape_facts(x, out):
    for i in range(x.shape[0]):
        R = np.ones((2, 5), dtype=np.int32)
        R *= x[i]
        n, m = R.shape
        out[i] = np.sum(R) + n * 10 + m * 100 + R.size * 1000 + R.ndim * 10000 + len(R) + R.shape[-1]


def broadcast_into(X, out):
    for i in range(X.shape[0]):
        R = np.zeros((2, 3))
        R[:] = X[i, :3]
        R[:, 0] = X[i, 3:5]
        R += X[i, 5]
        out[i] = np.sum(R * R[1])


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=case_id)
def test_a_small_matrix_per_row(dt):
    P = np.random.default_rng(10).integers(-8, 8, (30, 7, 3)).astype(dt)
    f = jit_same(covariances, P, np.zeros((30, 3, 3), dt))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.float64], ids=case_id)
def test_a_two_axis_histogram_indexed_by_the_data(dt):
    rng = np.random.default_rng(11)
    X, Y = rng.integers(-50, 50, (40, 23)), rng.integers(-50, 50, (40, 23))
    f = jit_same(pair_histogram, X, Y, np.zeros((40, 4, 5), dt))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


@pytest.mark.parametrize("fn", [rows_and_columns, cube, over_rows, through_a_part, shape_facts, broadcast_into],
                         ids=name_of)
def test_parts_of_a_small_array_of_several_axes(fn):
    rng = np.random.default_rng(12)
    if fn in (cube, shape_facts):
        args = (rng.integers(-9, 9, 30), np.zeros(30, np.int64 if fn is shape_facts else np.float64))
    else:
        args = (rng.integers(-9, 9, (30, 6)).astype(np.float64), np.zeros(30))
    f = jit_same(fn, *args)
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


def two_axis_bins(X, Y, out):
    for i in range(X.shape[0]):
        h = np.zeros((4, 4), dtype=np.int64)
        for j in range(X.shape[1]):
            h[X[i, j], Y[i, j]] += 1
        out[i] = h[1, 2] * 100 + h[3, -1] * 7 + h[0, 0]


def test_an_index_from_the_data_out_of_range_on_either_axis():
    rng = np.random.default_rng(13)
    X, Y = rng.integers(-4, 4, (20, 9)), rng.integers(-4, 4, (20, 9))
    jit_same(two_axis_bins, X, Y, np.zeros(20, np.int64))  # (negative ones from the end)
    for axis, (x, y) in enumerate([(4, 0), (0, -5)]):
        X2, Y2 = X.copy(), Y.copy()
        X2[7, 3], Y2[7, 3] = x, y
        bad = x if axis == 0 else y
        for f in (numgpu.jit(boundscheck=True)(two_axis_bins), numgpu.jit(two_axis_bins)):
            with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis {axis} with size 4"):
                f(X2, Y2, np.zeros(20, np.int64))
        out = np.zeros(20, np.int64)
        numgpu.jit(boundscheck=False)(two_axis_bins)(X2, Y2, out)  # (no check: no crash, the other rows right)
        want = np.zeros(20, np.int64)
        two_axis_bins(X[:7], Y[:7], want)
        np.testing.assert_array_equal(out[:7], want[:7])


def too_many_indices(x, out):
    for i in range(x.shape[0]):
        R = np.zeros((2, 2))
        out[i] = R[0, 0, 0] + x[i]


def stepped_slice(x, out):
    for i in range(x.shape[0]):
        R = np.zeros((2, 3))
        R[0, ::2] = x[i]
        out[i] = R[0, 2]


def slice_indexed_again(x, out):
    for i in range(x.shape[0]):
        R = np.zeros((2, 3))
        R[1] = x[i]
        out[i] = np.sum(R[:][1])


def too_long_a_row(X, out):
    for i in range(X.shape[0]):
        R = np.zeros((2, 3))
        R[0] = X[i, :4]
        out[i] = R[0, 1]


def too_big(x, out):
    for i in range(x.shape[0]):
        R = np.zeros((16, 17))
        R[0, 0] = x[i]
        out[i] = R[0, 0]


@pytest.mark.parametrize("fn,why", [
    (too_many_indices, "more indices than the axes of 'R'"),
    (stepped_slice, "a slice other than `:` of 'R'"),
    (slice_indexed_again, "a slice indexed again"),
    (too_long_a_row, "combines rows of other lengths"),
    (too_big, "whose shape is not written as lengths"),
], ids=lambda v: v if isinstance(v, str) else v.__name__)
def test_what_stays_python_of_several_axes(fn, why):
    x = np.arange(6.0).reshape(1, 6).repeat(3, 0) if fn is too_long_a_row else np.arange(3.0)
    py, mine, f = python_and_jit(fn, x, np.zeros(3))
    assert mine == py
    assert kinds(f)[0] == "python" or why in ran(f)[0], f.loop_report()
    assert why in (f.loop_report()[0]["reason"] or "") + ran(f)[0], f.loop_report()


# ---- loops over range(c) whose counter indexes a small array's variables: unrolled ----


def counters_after(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(3)
        k = -1
        for k in range(3):
            acc[k] += X[i, k]
        m = -5
        for m in range(0):
            acc[m] = 1.0
        out[i] = acc[0] + acc[2] * 10 + k * 100 + m * 1000


def stepping_down(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(6)
        for k in range(5, 0, -2):
            acc[k] = X[i, k] * k
        out[i] = np.sum(acc) + acc[1]


def windows_in_the_body(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(4)
        for k in range(4):
            acc[k] = np.sum(X[i, k:k + 3])
        out[i] = acc[0] + acc[3] * 3


def past_the_cap(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros((16, 16))
        for a in range(16):
            for b in range(16):
                acc[a, b] = X[i, a] * X[i, b]
        out[i] = np.sum(acc) + acc[3, 5]


def with_a_break_inside(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(4)
        for k in range(4):
            if X[i, k] > 3:
                break
            acc[k] = X[i, k]
        out[i] = np.sum(acc)


def an_empty_range(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(3)
        k = 7
        for k in range(5, 3):
            acc[k] = X[i, k]
        for k in range(1, 3):
            acc[k] = X[i, k]
        out[i] = np.sum(acc) + k


@pytest.mark.parametrize("fn", [counters_after, stepping_down, windows_in_the_body, past_the_cap,
                                with_a_break_inside, an_empty_range], ids=name_of)
def test_loops_indexing_a_small_array(fn):
    X = np.random.default_rng(14).integers(-5, 6, (40, 16)).astype(np.float64)
    f = jit_same(fn, X, np.zeros(40))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", f.loop_report()


def divides(X, out):
    for i in range(X.shape[0]):
        acc = np.zeros(3, dtype=np.int64)
        for k in range(3):
            acc[k] = 12 // int(X[i, k])
        out[i] = acc[0] + acc[1] + acc[2]


def divides_in_order(X, out):
    t = 0
    for i in range(X.shape[0]):
        acc = np.zeros(3, dtype=np.int64)
        for k in range(3):
            acc[k] = t + 12 // int(X[i, k])
            t += 1
        out[i] = acc[0] + acc[1] + acc[2] + t


@pytest.mark.parametrize("fn", [divides, divides_in_order], ids=name_of)
def test_a_raise_in_an_unrolled_loop(fn):
    X = np.random.default_rng(15).integers(1, 6, (40, 3))
    jit_same(fn, X, np.zeros(40, np.int64))
    X[9, 1] = 0
    X[20, 0] = 0
    want, got = np.zeros(40, np.int64), np.zeros(40, np.int64)
    with pytest.raises(ZeroDivisionError):
        fn(X, want)
    with pytest.raises(ZeroDivisionError):
        numgpu.jit(fn)(X, got)
    if fn is divides_in_order:  # (in order: what Python wrote before it raised, and nothing after)
        np.testing.assert_array_equal(got, want)


# ---- a small array's length from a name: the kernel is made for its value ----


def binned(X, nb, out):
    for i in range(X.shape[0]):
        h = np.zeros(nb, dtype=np.int64)
        for j in range(X.shape[1]):
            h[X[i, j] % nb] += 1
        out[i] = h.max() * 1000 + h[0]


def scratch_row(X, out):
    m = X.shape[1]
    for i in range(X.shape[0]):
        t = np.empty(m)
        t[:] = X[i] * 2
        out[i] = np.sum(t * t)


def gram(X, r, c, out):
    for i in range(X.shape[0]):
        G = np.zeros((r, c))
        for a in range(r):
            for b in range(c):
                G[a, b] = X[i, a] * X[i, b]
        out[i] = np.sum(G) + G[r - 1, c - 1]


def grows(x, n, out):
    for i in range(x.shape[0]):
        n = n + 1
        h = np.zeros(n)
        out[i] = len(h)


def test_a_length_from_an_argument():
    X = np.random.default_rng(16).integers(0, 1000, (30, 40))
    for nb in (7, 16, 256, 7):  # (a kernel per value; the first one's again)
        f = jit_same(binned, X, nb, np.zeros(30, np.int64))
        assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", (nb, f.loop_report())
    f = jit_same(binned, X, 257, np.zeros(30, np.int64))
    assert "made with 'nb' = 257" in ran(f)[0], f.loop_report()
    f = jit_same(binned, X, np.int32(5), np.zeros(30, np.int64))  # (a NumPy int: its value)
    assert ran(f)[0] == "kernel", f.loop_report()


def test_a_length_from_a_shape_named_before_the_loop():
    rng = np.random.default_rng(17)
    f = jit_same(scratch_row, rng.standard_normal((30, 9)), np.zeros(30))
    assert ran(f)[0] == "kernel", f.loop_report()
    f = jit_same(scratch_row, rng.standard_normal((30, 300)), np.zeros(30))  # (too long: Python)
    assert "made with 'm' = 300" in ran(f)[0], f.loop_report()
    for r, c in ((3, 4), (1, 1), (2, 6)):
        f = jit_same(gram, rng.standard_normal((30, 6)), r, c, np.zeros(30))
        assert ran(f)[0] == "kernel", f.loop_report()


def test_a_length_the_loop_changes_stays_python():
    f = jit_same(grows, np.arange(5.0), 2, np.zeros(5))
    assert "that is not an int bound before the loop" in ran(f)[0], f.loop_report()
    py, mine, f = python_and_jit(binned, np.ones((3, 4), np.int64), 0, np.zeros(3, np.int64))
    assert mine == py  # (np.zeros(0): NumPy's IndexError reading h[0]; the loop ran as Python)


# ---- lengths written as expressions of names, x.shape[k] and len(x) ----


def running_sums(X, out):
    for i in range(X.shape[0]):
        t = np.zeros(X.shape[1] + 1)
        for j in range(X.shape[1]):
            t[j + 1] = t[j] + X[i, j]
        out[i] = t[-1] + len(t)


def halves(X, y, out):
    for i in range(len(X)):
        H = np.empty((X.shape[-1] // 2, len(y) % 3 + 1), dtype=X.dtype)
        H[:] = X[i, 0]
        H[0, -1] = y[0]
        out[i] = H.sum() + H.shape[0] * 10 + H.shape[1] * 100


def shifted(X, n, out):
    for i in range(X.shape[0]):
        t = np.zeros(n - 3)
        t[0] = X[i, 0]
        out[i] = t[0] + t.size


def divided(X, n, out):
    for i in range(X.shape[0]):
        t = np.ones(X.shape[1] // n - -1)
        out[i] = np.sum(t) * X[i, 0]


def letters(s, X, out):
    for i in range(X.shape[0]):
        c = np.zeros(len(s), dtype=np.int64)
        for j in range(len(s)):
            c[j] = ord(s[j]) + X[i]
        out[i] = c.max()


def test_a_length_from_an_expression_of_shapes_and_names():
    rng = np.random.default_rng(18)
    for shape in ((30, 9), (30, 1), (20, 255)):
        f = jit_same(running_sums, rng.standard_normal(shape), np.zeros(shape[0]))
        assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", (shape, f.loop_report())
    f = jit_same(running_sums, rng.standard_normal((5, 300)), np.zeros(5))  # (too long: Python)
    assert "made with 'X.shape[1] + 1' = 301" in ran(f)[0], f.loop_report()
    for shape, m in (((6, 8), 2), ((6, 5), 4), ((6, 8), 3), ((4, 3), 1)):  # (a kernel per shape)
        f = jit_same(halves, rng.standard_normal(shape), np.arange(1.0, m + 1.0), np.zeros(shape[0]))
        assert ran(f)[0] == "kernel", (shape, m, f.loop_report())
    f = jit_same(letters, "numgpu", np.arange(7), np.zeros(7, np.int64))
    assert ran(f)[0] == "kernel", f.loop_report()


def test_a_length_python_cannot_make_fails_as_python():
    X = np.arange(12.0).reshape(3, 4)
    for n in (5, 4, 3, 2):  # np.zeros(2), np.zeros(1), np.zeros(0) (t[0]: IndexError), np.zeros(-1) (ValueError)
        py, mine, f = python_and_jit(shifted, X, n, np.zeros(3))
        assert mine == py, (n, mine, py)
        assert (ran(f)[0] == "kernel") == (n > 3), (n, f.loop_report())
    for n in (2, 5, 0, -1):  # X.shape[1] // n + 1: 3, 1, ZeroDivisionError, -3 (ValueError)
        py, mine, f = python_and_jit(divided, X, n, np.zeros(3))
        assert mine == py, (n, mine, py)
    assert "that divides by zero" in divided_reason(X), "the reason names the division"


def divided_reason(X):
    f = numgpu.jit(divided)
    with pytest.raises(ZeroDivisionError):
        f(X, 0, np.zeros(3))
    return ran(f)[0]


# ---- copies of parts and arrays like them: x.copy(), np.copy(x), np.zeros_like(x) ... ----


def changed_copy(X, out):
    for i in range(X.shape[0]):
        r = X[i].copy()
        r[0] = 5
        out[i] = np.sum(r) + X[i, 0]


def copies_three_ways(X, out):
    for i in range(X.shape[0]):
        a = np.copy(X[i])
        b = X[i, :].copy()
        c = X[:, i % X.shape[1]].copy()
        a += b
        out[i] = a.max() + c[-1] + len(c)


def likes(X, out):
    for i in range(X.shape[0]):
        z = np.zeros_like(X[i])
        o = np.ones_like(X[i])
        e = np.empty_like(X[i])
        f = np.full_like(X[i], 2.5)
        g = np.full_like(X[i], 2.5, dtype=np.float32)
        e[:] = X[i] * 2
        z[1] = X[i, 0]
        out[i] = z.sum() + o.sum() * 10 + e[-1] + f[0] * 100 + g[0] * 1000


def matrix_copies(X, out):
    for i in range(X.shape[0]):
        P = X[i].copy()
        P[0, 0] += 1
        Q = np.zeros_like(P)
        for a in range(3):
            for b in range(3):
                Q[a, b] = P[b, a]
        out[i] = np.sum(P * Q) + Q[2, 0]


def view_copy(X, out):
    for i in range(X.shape[0]):
        r = X[i]
        t = r.copy()
        t *= 2
        out[i] = t.sum() + r[0]


def copy_of_a_small_array(x, out):
    for i in range(x.shape[0]):
        a = np.zeros(3)
        a[0] = x[i]
        b = a.copy()
        b[1] = 7
        out[i] = a.sum() * 10 + b.sum()


def kept_before_the_write(X, out):
    for i in range(X.shape[0]):
        t = X[i].copy()
        X[i, 0] = 99
        out[i] = t[0] + X[i, 0]


def running_rows(X):
    for i in range(1, X.shape[0]):
        t = X[i - 1].copy()
        X[i] += t


def test_copies_of_parts():
    rng = np.random.default_rng(19)
    for dt in (np.float64, np.float32, np.int32, np.int64):
        X = (rng.standard_normal((20, 6)) * 10).astype(dt)
        for fn in (changed_copy, copies_three_ways, view_copy, kept_before_the_write):
            f = jit_same(fn, X, np.zeros(20, dt))
            assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel", (fn.__name__, dt, f.loop_report())
        f = jit_same(running_rows, X)
        assert kinds(f)[0] == "sequential" and ran(f)[0].startswith("kernel"), (dt, f.loop_report())
    f = jit_same(likes, rng.standard_normal((20, 6)), np.zeros(20))
    assert ran(f)[0] == "kernel", f.loop_report()
    f = jit_same(likes, rng.integers(-9, 9, (20, 6)), np.zeros(20))  # (full_like of ints: 2.5 is 2)
    assert ran(f)[0] == "kernel", f.loop_report()
    f = jit_same(matrix_copies, rng.standard_normal((20, 3, 3)), np.zeros(20))
    assert ran(f)[0] == "kernel", f.loop_report()
    f = jit_same(copy_of_a_small_array, rng.standard_normal(20), np.zeros(20))
    assert ran(f)[0] == "kernel", f.loop_report()


def bounded_copy(X, out):
    for i in range(X.shape[0]):
        t = X[i, 1:].copy()
        out[i] = t[0]


def element_like(X, out):
    for i in range(X.shape[0]):
        t = np.zeros_like(X[i, 0])
        out[i] = t + X[i, 0]


def copied_elsewhere(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i].copy()[0]


@pytest.mark.parametrize("fn,why", [
    (bounded_copy, "other than on an array or a part of one"),
    (element_like, "of 0 axes (only 1 to 4 compile)"),
    (copied_elsewhere, "other than as `name = X[i].copy(...)`"),
], ids=lambda v: v if isinstance(v, str) else v.__name__)
def test_copies_that_stay_python(fn, why):
    X = np.arange(12.0).reshape(3, 4)
    py, mine, f = python_and_jit(fn, X, np.zeros(3))
    assert mine == py
    assert why in (f.loop_report()[0]["reason"] or "") + ran(f)[0], f.loop_report()


def test_a_copy_of_a_long_row_runs_as_python():
    f = jit_same(changed_copy, np.ones((4, 300)), np.zeros(4))
    assert "like 'X[i]', of 300 elements (only 1 to 256 compile)" in ran(f)[0], f.loop_report()
    f = jit_same(changed_copy, np.ones((4, 30)), np.zeros(4))  # (another shape: a kernel of its own)
    assert ran(f)[0] == "kernel", f.loop_report()
