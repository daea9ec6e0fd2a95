"""Arrays indexed by arrays of integers in a compiled loop body (`np.sum(x[idx])`,
`np.max(v[nbrs[i]])`, `np.dot(data[a:b], x[indices[a:b]])`, `Y[i] = X[nbrs[i]] * 2`),
compared against plain Python running NumPy on the same data.

x[idx] is NumPy's array of x's elements (or rows) at idx's, a negative index counted from the
end: read in an elementwise expression or a reduction, it is read in place (no array is made),
idx's axis where the index is. Under boundscheck an index out of range raises NumPy's
IndexError. A store `x[idx] = v` puts v's elements at idx's places in order. In-place updates
(x[idx] += 1, where NumPy adds once at a repeated index), a value reading the array stored
into, two arrays of integers in one subscript, and an integer apart from the array
(X[i, :, idx], whose axes NumPy puts first) run as Python."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, module_function, parts, python_and_jit


def kinds(f):
    return [(r["kind"], r.get("ran")) for r in f.loop_report()]


GATHERS = [
    "np.sum(x[I[i]])", "np.max(x[I[i]])", "np.mean(x[I[i]] * 2 - 1)", "np.argmin(x[I[i]])", "x[I[i]].sum()",
    "np.sum(x[I[i]] * x[I[i] + 1])", "np.sum(x[I[i]] * x[I[i]])", "np.sum(x[1 + I[i]] > 0)", "len(x[I[i]])",
    "np.min(np.abs(x[I[i]] - x[i]))", "np.sum(x[I[0]] * x[I[i]])", "np.sum(x[I[i]][x[I[i]] > 0])",
    "max(x[I[i]])", "np.std(x[I[i]])",
]


@pytest.mark.parametrize("idt", [np.int64, np.int32, np.uint8, np.int8])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("j", range(len(GATHERS)))
def test_each_reduction_of_a_gather(tmp_path, j, dt, idt):
    rng = np.random.default_rng(j)
    x = parts(rng, dt, (41,))
    lo = 0 if np.dtype(idt).kind == "u" else -40
    I = rng.integers(lo, 40, (9, 12)).astype(idt)  # (negative indices: from the end, as NumPy)
    what = GATHERS[j]
    with np.errstate(all="ignore"):
        want = np.stack([np.asarray(eval(what, {"np": np, "x": x, "I": I, "i": i})) for i in range(9)])
    src = f"import numpy as np\n\ndef f(x, I, out):\n    for i in range(I.shape[0]):\n        out[i] = {what}\n"
    fn = module_function(tmp_path, f"gather{j}", src, "f")
    f = jit_same(fn, x, I, np.zeros_like(want))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def gathered_rows(X, idx, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(X[idx[i]], axis=0) + X[idx[i], 1:].max() + np.sum(X[:, idx[i]] * X[i, idx[i]], axis=1)


def stored_rows(Y, X, nbrs):
    for i in range(Y.shape[0]):
        Y[i] = X[nbrs[i]] * 2 + X[i]


@pytest.mark.parametrize("dt", [np.float64, np.int64])
def test_rows_and_columns_gathered(dt):
    rng = np.random.default_rng(2)
    X = parts(rng, dt, (12, 12))
    idx = rng.integers(-12, 12, (12, 5))
    assert kinds(jit_same(gathered_rows, X, idx, np.zeros((12, 12), dt))) == [("parallel", "kernel")]
    Y, x = np.zeros((30, 5), dt), parts(rng, dt, (30,))
    assert kinds(jit_same(stored_rows, Y, x, rng.integers(0, 30, (30, 5)))) == [("parallel", "kernel")]


def spmv(data, indices, indptr, x, y):
    for i in range(y.shape[0]):
        a, b = indptr[i], indptr[i + 1]
        y[i] = np.dot(data[a:b], x[indices[a:b]])


def csr(rng, n, m, per):
    counts = rng.integers(0, per, n)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = np.concatenate([np.sort(rng.choice(m, c, replace=False)) for c in counts]).astype(np.int64)
    return rng.standard_normal(indptr[-1]), indices, indptr


def test_sparse_matrix_times_a_vector():
    """y = A @ x of A in CSR form, a row's dot product of its values and x at its columns: each
    sum in order, within a few ulps of NumPy's dot (its BLAS's order)."""
    rng = np.random.default_rng(4)
    data, indices, indptr = csr(rng, 200, 150, 40)
    x = rng.standard_normal(150)
    want, got = np.zeros(200), np.zeros(200)
    spmv(data, indices, indptr, x, want)
    f = numgpu.jit(spmv)
    f(data, indices, indptr, x, got)
    dense = np.zeros((200, 150))
    for i in range(200):
        dense[i, indices[indptr[i]:indptr[i + 1]]] = data[indptr[i]:indptr[i + 1]]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got, dense @ x, rtol=1e-12, atol=1e-12)
    assert kinds(f) == [("parallel", "kernel")]


def neighbour_max(v, nbrs, out):
    for i in range(out.shape[0]):
        out[i] = np.max(v[nbrs[i]]) - v[i]


def test_an_index_out_of_range_under_boundscheck():
    """Without boundscheck an index out of range is not checked (as x[j] of a number j); with
    it, NumPy's IndexError naming the index, the axis and its length."""
    rng = np.random.default_rng(6)
    v, nbrs = rng.standard_normal(20), rng.integers(-20, 20, (20, 4))
    f = numgpu.jit(neighbour_max, boundscheck=True)
    for bad in (20, -21):
        nbrs[7, 2] = bad
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 with size 20"):
            f(v, nbrs, np.zeros(20))
    nbrs[7, 2] = -20
    assert kinds(jit_same(neighbour_max, v, nbrs, np.zeros(20))) == [("parallel", "kernel")]


def scatter(x, idx, out):
    for i in range(out.shape[0]):
        x[idx] += 1


def one_hot(Y, idx):
    for i in range(Y.shape[0]):
        Y[i][idx[i]] = 1


def put_values(Y, idx, v):
    for i in range(Y.shape[0]):
        Y[i, idx[i]] = v[i] * 2 - 1


def put_columns(P, idx, V):
    for i in range(P.shape[0]):
        P[i][:, idx[i]] = V[i]


def put_all(x, idx, v):
    for i in range(v.shape[0]):
        x[idx] = v[i]


def doubled(x, idx):
    for i in range(3):
        x[idx] = x[idx] * 2


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.bool_])
def test_stores_into_a_gather(dt):
    """x[idx] = v stores v's elements at idx's places in order (an index idx repeats: the last
    one's, as NumPy); a number, a row, a part of two axes; negative indices from the end."""
    rng = np.random.default_rng(11)
    idx = rng.integers(-6, 6, (5, 4))
    idx[:, 3] = idx[:, 0]  # (repeated: the later value stays)
    assert kinds(jit_same(one_hot, np.zeros((5, 6), dt), idx)) == [("parallel", "kernel")]
    v = parts(rng, np.float64, (5, 4))
    if dt != np.bool_:
        assert kinds(jit_same(put_values, np.zeros((5, 6), dt), idx, v.astype(dt))) == [("parallel", "kernel")]
    P, V = np.zeros((3, 4, 5), dt), parts(rng, np.float64, (3, 4, 2)).astype(dt)
    assert kinds(jit_same(put_columns, P, rng.integers(0, 5, (3, 2)), V)) == [("parallel", "kernel")]
    f = jit_same(put_all, np.zeros(6, dt), np.array([1, 3, 1]), v[:, 0].astype(dt))
    assert kinds(f) == [("sequential", "kernel (one thread)")]  # (each iteration writes the same places)
    f = jit_same(doubled, np.ones(6, dt), np.array([1, 3, 1]))
    (loop,) = f.loop_report()
    assert loop["kind"] == "python" and "a value that reads it" in loop["reason"], loop


def test_a_store_out_of_range_under_boundscheck():
    idx = np.array([[0, 1], [2, 6]])
    f = numgpu.jit(one_hot, boundscheck=True)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 1 with size 6"):
        f(np.zeros((2, 6)), idx)


def pairs(X, a, b, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(X[a, b])


def apart(P, idx, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(P[i, :, idx])


def chained(x, idx, out):
    for i in range(out.shape[0]):
        out[i] = x[idx][i]


def floats(x, w, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(x[w])


def test_what_runs_as_python():
    rng = np.random.default_rng(8)
    x, idx = rng.standard_normal(10), np.array([1, 1, 3])
    cases = [
        (scatter, (x, idx, np.zeros(2)), "an in-place update of an array indexed by an array of integers"),
        (pairs, (rng.standard_normal((5, 5)), idx, idx, np.zeros(2)), "two or more arrays of integers"),
        (apart, (rng.standard_normal((3, 4, 5)), idx, np.zeros(3)), "an integer apart"),
        (chained, (x, idx, np.zeros(3)), "indexed by an array of integers (x[idx][0])"),
    ]
    for fn, args, why in cases:
        f = jit_same(fn, *args)
        (loop,) = f.loop_report()
        assert loop["kind"] == "python" and why in loop["reason"], loop
    want, got, f = python_and_jit(floats, x, np.array([1.0, 2.0]), np.zeros(2))
    assert want[0] is IndexError and got == want, (got, want)


def gather_in_kmeans(X, C, members, out):
    for k in range(C.shape[0]):
        out[k] = np.sum(X[members[k]], axis=0) / members.shape[1]


def test_rows_gathered_along_the_first_axis():
    """Rows gathered then reduced along the first axis, wider than a block of columns."""
    rng = np.random.default_rng(9)
    X = rng.standard_normal((100, 45))
    members = rng.integers(-100, 100, (6, 30))
    assert kinds(jit_same(gather_in_kmeans, X, np.zeros((6, 45)), members, np.zeros((6, 45)))) == [
        ("parallel", "kernel")]


def small_gathered(x, idx, out):
    for i in range(out.shape[0]):
        a = np.zeros(5)
        a[2] = x[i, 0]
        a[4] = x[i, 1]
        out[i] = np.max(a[idx[i]]) + np.sum(a[idx[i]] * 2)


def small_rows_gathered(x, idx, out):
    for i in range(out.shape[0]):
        C = np.zeros((3, 4))
        C[1] = x[i]
        out[i] = np.sum(C[idx], axis=0)


def test_arrays_made_in_the_loop():
    """A small array the loop makes, of one axis, indexed by an array of integers: compiled;
    of more axes (its rows gathered), as Python."""
    rng = np.random.default_rng(10)
    x = rng.standard_normal((6, 4))
    assert kinds(jit_same(small_gathered, x, rng.integers(-5, 5, (6, 3)), np.zeros(6))) == [("parallel", "kernel")]
    f = jit_same(small_rows_gathered, x, np.array([1, 2, -1, 1]), np.zeros((6, 4)))
    (loop,) = f.loop_report()
    assert loop["kind"] == "python" and "indexing by an array of integers" in loop["reason"], loop
