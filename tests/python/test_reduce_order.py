"""float32/float64 sum, mean, var and std beyond one contiguous run, against NumPy: on the cpu
device bit for bit (np.array_equal on the bytes), elsewhere within rounding.

NumPy's order, which the cpu kernels reproduce (and which test_numpy_order_* checks against
NumPy itself, so a NumPy that changes it fails here first):
  - the reduction iterator runs the axes by decreasing |stride| (reversed axes are not flipped);
  - innermost axis kept (X.sum(axis=0) of a C array): each result adds its elements one by one,
    in that order, in the element dtype, from 0;
  - innermost axis reduced, the next one kept: 0 + the pairwise sum of each run, runs in order;
  - nothing kept and not one strided run (X[:, :5].sum(), X[::2].sum()): the elements in iteration
    order, in blocks cut into chunks (the buffered iterator's 8192-element buffer), each chunk
    summed pairwise and added in order (chunks() below);
  - var/std: the mean by that sum, then the squares of (x - mean), a fresh array in the input's
    memory order, summed the same way."""
import numpy as np
import pytest

import numgpu as ng
from helpers import numpy_pairwise_tree

EXACT = ng.get_device() == "cpu"
FLOATS = [np.float32, np.float64]


def check(got, want):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if EXACT:
        assert got.tobytes() == want.tobytes(), (got, want)
    else:
        tol = 2e-4 if want.dtype == np.float32 else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def pairwise(x):
    """NumPy's pairwise sum of a 1-d array (its @TYPE@_pairwise_sum), in x's dtype."""
    return numpy_pairwise_tree(x, -0.0)


def chunks(v):
    """The lengths NumPy's buffered iterator hands its add loop for a whole reduction of view v
    (no cast): the collapsed axes by decreasing |stride|; an innermost run longer than 4096: one
    call per run; else the core grows outwards while under 8192 elements and each block is cut
    into chunks of core * (8192 // core)."""
    ax = sorted([d for d in range(v.ndim) if v.shape[d] != 1], key=lambda d: -abs(v.strides[d]))
    dims = []  # (extent, stride), innermost first, collapsed
    for d in reversed(ax):
        if dims and dims[-1][0] * dims[-1][1] == v.strides[d]:
            dims[-1] = (dims[-1][0] * v.shape[d], dims[-1][1])
        else:
            dims.append((v.shape[d], v.strides[d]))
    n = [e for e, _ in dims]
    total = int(np.prod(n))
    if len(n) <= 1:
        return [total]
    if n[0] > 4096:
        return [n[0]] * (total // n[0])
    size, core = n[0], 1
    for i in range(1, len(n)):
        if i > 1 and size >= 8192:
            break
        core, size = size, size * n[i]
    c = core * (8192 // core) if size > 8192 else size
    return ([c] * (size // c) + ([size % c] if size % c else [])) * (total // size)


def iteration_order(v):
    perm = sorted(range(v.ndim), key=lambda d: -abs(v.strides[d]))
    return np.ascontiguousarray(v.transpose(perm)).ravel()


def data(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.random(shape) * 2 + 0.25).astype(dt)  # positive: rounding errors pile up, orders differ


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_numpy_order_leading_axis(dt):
    """NumPy's X.sum(axis=0) adds the rows one by one (not pairwise, not in float64); a Fortran
    array's sum(axis=0) is pairwise down each column; (0, 1) of a 3-d array adds rows in C order."""
    X = data((301, 9), dt)
    rows = np.zeros(9, dt)
    for r in X:
        rows = rows + r
    assert X.sum(0).tobytes() == rows.tobytes()
    if dt == np.float32:
        assert not np.array_equal(X.sum(0), X.astype(np.float64).sum(0).astype(dt))
        assert not np.array_equal(X.sum(0), np.array([dt(0) + pairwise(c) for c in X.T], dt))
    F = np.asfortranarray(X)
    assert F.sum(0).tobytes() == np.array([dt(dt(0) + pairwise(F[:, j])) for j in range(9)], dt).tobytes()
    A = data((13, 17, 9), dt, 1)
    rows = np.zeros(9, dt)
    for r in A.reshape(-1, 9):
        rows = rows + r
    assert A.sum((0, 1)).tobytes() == rows.tobytes()
    want = np.zeros(17, dt)
    for i in range(13):
        want = want + np.array([pairwise(A[i, j]) for j in range(17)], dt)
    assert A.sum((0, 2)).tobytes() == want.tobytes()


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,index", [((3000, 40), np.s_[:, :5]), ((1500, 40), np.s_[::2]), ((3, 9000), np.s_[:, :8193]),
                                         ((40, 30, 20), np.s_[::2, :, :5]), ((6, 20000), np.s_[:, ::2]),
                                         ((100001,), np.s_[::-3]), ((50, 301), np.s_[:, ::-1])],
                         ids=lambda v: str(v).replace(" ", ""))
def test_numpy_order_whole_views(dt, shape, index):
    """NumPy's whole sum of a non-contiguous view: chunks of the iteration order, pairwise each."""
    v = data(shape, dt, 2)[index]
    flat, acc, at = iteration_order(v), dt(0), 0
    for c in chunks(v):
        acc = dt(acc + pairwise(flat[at:at + c]))
        at += c
    assert at == v.size
    assert acc.tobytes() == v.sum().tobytes()


def test_numpy_chunks_examples():
    X = np.zeros((3000, 40))
    assert chunks(X[:, :5]) == [8190, 6810]
    assert chunks(X[::2]) == [8160] * 7 + [60000 - 8160 * 7]
    assert chunks(np.zeros((3, 9000))[:, :8193]) == [8193] * 3
    assert chunks(np.zeros((6, 20000))[:, ::2]) == [60000]  # one strided run


VIEWS = [  # (shape, index, axes)
    ((301, 9), np.s_[:], [0, (0,), None, 1]),
    ((1000, 33), np.s_[:, :5], [None, 0, 1]),
    ((999, 40), np.s_[::2], [None, 0, 1]),
    ((20, 30, 9), np.s_[:], [(0, 1), 0, 1, (0, 2), (1, 2)]),
    ((7, 9, 11, 5), np.s_[:], [(0, 2), (1, 3), (0, 1, 2), (0, 1, 3)]),
    ((200003,), np.s_[::3], [None]),
    ((100001,), np.s_[::-1], [None]),
    ((3000, 41), np.s_[:, 3:], [None, 0, 1]),
    ((10, 12000), np.s_[:, :9000], [None, 0, 1]),
    ((40, 30, 20), np.s_[:, :, :5], [None, 0, (0, 1), (0, 2), 2]),
    ((40, 30, 20), np.s_[:, ::2, :5], [(1, 2), (0, 1, 2)]),  # a block of two reduced axes in each result
    ((9, 300, 40), np.s_[:, :, :30], [(1, 2), (0, 2)]),  # blocks of 9000: chunks of 8190
    ((257, 129), np.s_[::-1, 1:], [None, 0, 1]),
    ((300, 1001), np.s_[:, ::-1], [None, 1, 0]),  # reversed runs (read forward by the kernel)
    ((200001,), np.s_[::-1], [None]),
    ((130, 1030), np.s_[:, 1::4], [None, 1, 0]),  # strides 2..4: a constant stride in the kernel
    ((300001,), np.s_[5::2], [None]),
]


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,index,axes", VIEWS, ids=lambda v: str(v).replace(" ", ""))
def test_views_as_numpy(dt, shape, index, axes):
    X = data(shape, dt, 3)
    v, g = X[index], ng.asarray(X)[index]
    for ax in axes:
        for f in ("sum", "mean", "var", "std"):
            check(getattr(g, f)(axis=ax), getattr(v, f)(axis=ax))
    check(g.sum(axis=axes[0], keepdims=True), v.sum(axis=axes[0], keepdims=True))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_transposed_and_fortran(dt):
    X = data((61, 47), dt, 4)
    g = ng.asarray(X)
    for ax in (None, 0, 1):
        check(g.T.sum(axis=ax), X.T.sum(axis=ax))
        check(g.T.mean(axis=ax), X.T.mean(axis=ax))
        check(g.T.std(axis=ax), X.T.std(axis=ax))
    F = np.asfortranarray(data((33, 20, 7), dt, 5))
    gf = ng.asfortranarray(ng.asarray(F))  # (asarray gives C order)
    assert gf.strides == F.strides
    for ax in (None, 0, 1, 2, (0, 1), (1, 2), (0, 2)):
        check(gf.sum(axis=ax), F.sum(axis=ax))
        check(gf.var(axis=ax), F.var(axis=ax))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_standardise_columns(dt):
    """(X - X.mean(0)) / X.std(0): per-column statistics as NumPy's."""
    X = data((5003, 13), dt, 6) * 100
    g = ng.asarray(X)
    check(g.mean(0), X.mean(0))
    check(g.std(0), X.std(0))
    check(g.var(0, ddof=1), X.var(0, ddof=1))
    check((g - g.mean(0)) / g.std(0), (X - X.mean(0)) / X.std(0))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_awkward_lengths_axis0(dt):
    for rows in (1, 2, 7, 8, 9, 127, 128, 129, 1000):
        for cols in (1, 3, 8, 511, 512, 513, 1025):
            X = data((rows, cols), dt, rows * cols)
            g = ng.asarray(X)
            check(g.sum(0), X.sum(0))
            check(g.mean(0), X.mean(0))
            check(g[:, ::2].sum(0), X[:, ::2].sum(0))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_special_values(dt):
    """Negative zeros (0 + -0.0 is 0.0), infinities and NaN through the in-order and chunked paths."""
    X = np.full((9, 4), -0.0, dt)
    X[3, 1] = np.inf
    X[5, 2] = np.nan
    X[:, 3] = [np.inf, -np.inf] + [1.0] * 7
    g = ng.asarray(X)
    for ax in (0, 1, None):
        check(g.sum(axis=ax), X.sum(axis=ax))
    Y = np.full((500, 20), -0.0, dt)
    check(ng.asarray(Y)[:, :5].sum(), Y[:, :5].sum())
    check(ng.asarray(Y).sum(0), Y.sum(0))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_random_views(dt):
    """Random shapes, slices (steps 2 and -1, trimmed ends), transposes and axis sets."""
    import itertools
    rng = np.random.default_rng(11 if dt == np.float32 else 12)
    done = 0
    while done < 60:
        nd = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.integers(1, 25, nd) ** rng.integers(1, 3, nd))
        if np.prod(shape) > 400000:
            continue
        X = data(shape, dt, done)
        index = tuple(slice(None, None, int(rng.choice([1, 2, -1]))) if rng.random() < 0.5
                      else slice(0, max(1, n - int(rng.integers(0, 3)))) for n in shape)
        v, g = X[index], ng.asarray(X)[index]
        if rng.random() < 0.3:
            perm = tuple(int(p) for p in rng.permutation(v.ndim))
            v, g = v.transpose(perm), g.transpose(perm)
        if v.size == 0:
            continue
        sets = [None] + [c for r in range(1, v.ndim + 1) for c in itertools.combinations(range(v.ndim), r)]
        ax = sets[int(rng.integers(len(sets)))]
        for f in ("sum", "mean", "var"):
            check(getattr(g, f)(axis=ax), getattr(v, f)(axis=ax))
        done += 1
