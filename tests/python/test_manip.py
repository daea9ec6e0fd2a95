"""Gathering and rearranging against NumPy: take put take_along_axis put_along_axis nonzero
argwhere flatnonzero where(cond) repeat tile roll flip pad meshgrid tril triu trace diag diagonal
clip outer einsum dot tensordot inner vdot, on every dtype (float16 and complex included), empty
and 0-d arrays, non-contiguous views and negative strides."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import numgpu as ng
from helpers import ALL, COMPLEX, NUMERIC, assert_same, call_both, data, case_id


def views(x):
    """x itself, a transposed view, a reversed (negative-stride) view and a strided slice, as
    (numpy, numgpu) pairs made from the same data."""
    g = ng.asarray(x)
    out = [(x, g)]
    if x.ndim >= 2:
        out.append((x.T, g.T))
    if x.ndim >= 1:
        out.append((x[::-1], g[::-1]))
        out.append((x[..., ::2], g[..., ::2]))
    return out


SHAPES = [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 4)]


# ---- take / put ----

@pytest.mark.parametrize("dtype", ALL, ids=case_id)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_modes(dtype, mode):
    x = data(dtype, (4, 5))
    idx = np.array([[0, 2], [-1, 1]]) if mode == "raise" else np.array([[0, 7], [-6, 12]])
    for axis in (None, 0, 1, -1):
        for a, g in views(x):
            assert_same(ng.take(g, ng.asarray(idx), axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode))


def test_take_errors_and_shapes():
    x = np.arange(12).reshape(3, 4)
    g = ng.asarray(x)
    call_both(np.take, ng.take, [x, np.array([5])], kwargs={"axis": 0})
    with pytest.raises(IndexError, match="out of bounds"):
        ng.take(g, [3], axis=0)
    with pytest.raises(np.exceptions.AxisError):
        ng.take(g, [0], axis=2)
    with pytest.raises(TypeError):
        ng.take(g, np.array([0.5]))
    with pytest.raises(IndexError):
        ng.take(ng.zeros((0, 3)), [0], axis=0, mode="wrap")
    assert_same(ng.take(g, 5), np.take(x, 5))
    assert_same(ng.take(g, np.zeros((0,), int), axis=1), np.take(x, np.zeros((0,), int), axis=1))
    assert_same(g.take([1, 2], axis=1), x.take([1, 2], axis=1))
    assert_same(ng.take(g, []), np.take(x, []))
    assert_same(ng.repeat(ng.zeros(0), []), np.repeat(np.zeros(0), []))
    assert_same(ng.take(ng.asarray(np.float32(3.5)), [0, 0]), np.take(np.float32(3.5), [0, 0]))


@pytest.mark.parametrize("dtype", NUMERIC + COMPLEX, ids=case_id)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(dtype, mode):
    x = data(dtype, (3, 4))
    ind = [0, 5, -1] if mode == "raise" else [0, 13, -20]
    vals = data(dtype, (2,), seed=3)
    a, g = x.copy(), ng.asarray(x)
    np.put(a, ind, vals, mode=mode)
    ng.put(g, ind, ng.asarray(vals), mode=mode)
    assert_same(g, a)
    # a non-contiguous target: writes go through the view
    a, g = x.copy(), ng.asarray(x)
    av, gv = a[:, ::2], g[:, ::2]
    np.put(av, [1, -2], 9)
    gv.put([1, -2], 9)
    assert_same(g, a)


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_take_put_along_axis(dtype):
    x = data(dtype, (4, 5, 3))
    rng = np.random.default_rng(4)
    for axis in (0, 1, -1):
        n = x.shape[axis]
        shape = list(x.shape)
        shape[axis] = 6
        idx = rng.integers(-n, n, shape)
        for a, g in views(x)[:1] + views(x)[2:3]:   # x and its reversed view: the shape of idx
            assert_same(ng.take_along_axis(g, ng.asarray(idx), axis), np.take_along_axis(a, idx, axis))
        idx1 = np.argsort(x, axis=axis, kind="stable")   # distinct targets: no write order question
        vals = data(dtype, idx1.shape, seed=6)
        a, g = x.copy(), ng.asarray(x)
        np.put_along_axis(a, idx1, vals, axis)
        ng.put_along_axis(g, ng.asarray(idx1), ng.asarray(vals), axis)
        assert_same(g, a)
        np.put_along_axis(a, idx1[:1] if axis == 0 else idx1, vals.flat[0], axis)   # a scalar broadcasts
        ng.put_along_axis(g, ng.asarray(idx1[:1] if axis == 0 else idx1), vals.flat[0], axis)
        assert_same(g, a)
    flat = np.array([3, 0, -1])
    assert_same(ng.take_along_axis(ng.asarray(x), ng.asarray(flat), None), np.take_along_axis(x, flat, None))
    a, g = x.copy(), ng.asarray(x)
    np.put_along_axis(a, flat, x.flat[5], None)
    ng.put_along_axis(g, flat, x.flat[5], None)
    assert_same(g, a)


def test_take_along_axis_errors():
    x = np.arange(6.0).reshape(2, 3)
    for args in ((np.array([[0.0]]), 1), (np.array([0]), 1), (np.array([[0]]), None), (np.array([[0]]), 2)):
        call_both(np.take_along_axis, ng.take_along_axis, [x, *args])
    h, want = x.copy(), x.copy()       # a NumPy array: NumPy's put_along_axis changes it in place
    ng.put_along_axis(h, np.array([[0]]), -1.0, 1)
    np.put_along_axis(want, np.array([[0]]), -1.0, 1)
    assert h.tolist() == want.tolist() and h.tolist() != x.tolist()


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_put_complex_values(dtype):
    # Python complex values into a real array: NumPy's TypeError (float()/int() of a complex);
    # a complex array is cast (real part), bool takes the truth
    for v in (1 + 2j, [1 + 2j, -3j], np.array([1 + 2j, 0.5j]), np.complex64(2 - 1j)):
        a = data(dtype, (3, 4))
        g = ng.asarray(a)
        try:
            np.put(a, [0, 5], v)
        except TypeError as e:
            with pytest.raises(TypeError, match=str(e).split("(")[0]):
                ng.put(g, [0, 5], ng.asarray(v) if isinstance(v, np.ndarray) else v)
            continue
        ng.put(g, [0, 5], ng.asarray(v) if isinstance(v, np.ndarray) else v)
        assert_same(g, a)


def test_put_errors():
    g = ng.zeros(5)
    with pytest.raises(IndexError):
        ng.put(g, [5], 1.0)
    with pytest.raises(IndexError):
        ng.put(g[::2], [3], 1.0)
    h = np.zeros(3)                    # a NumPy array: NumPy's put changes it in place
    ng.put(h, [0], 1)
    assert h.tolist() == [1.0, 0.0, 0.0]
    ng.put(g, [], [1.0])
    assert_same(g, np.zeros(5))
    for ind in (np.array([1], np.uint64), np.array([], np.uint64), np.array([1.0])):   # no safe cast to intp
        with pytest.raises(TypeError, match="according to the rule 'safe'"):
            np.put(np.zeros(5), ind, 1.0)
        with pytest.raises(TypeError, match="according to the rule 'safe'"):
            ng.put(g, ng.asarray(ind), 1.0)
    assert_same(g, np.zeros(5))
    ng.put(g, np.array([4], np.uint32), 2.0)      # (smaller unsigned ones cast safely)
    assert g.tolist() == [0.0, 0.0, 0.0, 0.0, 2.0]


# ---- nonzero / argwhere / flatnonzero / where(cond) ----

@pytest.mark.parametrize("dtype", ALL, ids=case_id)
@pytest.mark.parametrize("shape", [(0,), (9,), (3, 4), (2, 0, 3), (2, 3, 5)], ids=case_id)
def test_nonzero(dtype, shape):
    x = data(dtype, shape, kind="unit")
    for a, g in views(x):
        assert_same(ng.nonzero(g), np.nonzero(a))
        assert_same(g.nonzero(), a.nonzero())
        assert_same(ng.argwhere(g), np.argwhere(a))
        assert_same(ng.flatnonzero(g), np.flatnonzero(a))
        assert_same(ng.where(g), np.where(a))


def test_nonzero_large_and_nan():
    rng = np.random.default_rng(5)
    x = rng.random(300_001) < 0.3
    assert_same(ng.nonzero(ng.asarray(x)), np.nonzero(x))
    y = np.array([0.0, np.nan, -0.0, 1.0, np.inf])
    assert_same(ng.nonzero(ng.asarray(y)), np.nonzero(y))
    z = np.zeros((1000, 300))
    z[999, 299] = 1
    assert_same(ng.argwhere(ng.asarray(z)), np.argwhere(z))


@pytest.mark.parametrize("dtype", COMPLEX, ids=case_id)
def test_nonzero_complex(dtype):
    # a complex value is nonzero when either part is (NaN parts count as nonzero)
    x = np.array([[0, 1j, 0], [-0.0 + 0j, complex(np.nan, 0), 2], [complex(0, -0.0), complex(0, np.nan), 0]], dtype)
    for a, g in views(x):
        assert_same(ng.nonzero(g), np.nonzero(a))
        assert_same(ng.argwhere(g), np.argwhere(a))
        assert_same(ng.flatnonzero(g), np.flatnonzero(a))
        assert_same(ng.where(g), np.where(a))
        assert_same(ng.where(g, g, 1 + 2j), np.where(a, a, 1 + 2j))
        assert_same(ng.where(g.real > 0, 2.5, g), np.where(a.real > 0, 2.5, a))


def test_nonzero_0d():
    with pytest.raises(ValueError):
        ng.nonzero(ng.asarray(3))
    for v in (0, 3):
        assert_same(ng.argwhere(ng.asarray(v)), np.argwhere(v))
        assert_same(ng.flatnonzero(ng.asarray(v)), np.flatnonzero(v))


def test_where_three_args_still_works():
    c = np.array([True, False, True])
    assert_same(ng.where(ng.asarray(c), 1.0, ng.asarray(np.arange(3))), np.where(c, 1.0, np.arange(3)))
    with pytest.raises(ValueError):
        ng.where(ng.asarray(c), 1.0)


# ---- repeat / tile / roll / flip ----

@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_repeat(dtype):
    x = data(dtype, (3, 4))
    for a, g in views(x):
        for axis in (None, 0, 1, -1):
            for reps in (0, 1, 3, [2]):
                assert_same(ng.repeat(g, reps, axis=axis), np.repeat(a, reps, axis=axis))
        assert_same(ng.repeat(g, [1, 0, 2, 3][:a.shape[1]], axis=1), np.repeat(a, [1, 0, 2, 3][:a.shape[1]], axis=1))
        assert_same(ng.repeat(g, ng.asarray(np.arange(a.shape[0])), axis=0), np.repeat(a, np.arange(a.shape[0]), axis=0))
        assert_same(g.repeat(2), a.repeat(2))


def test_repeat_edges():
    call_both(np.repeat, ng.repeat, [np.arange(3), [1, 2]])
    call_both(np.repeat, ng.repeat, [np.arange(3), -1])
    call_both(np.repeat, ng.repeat, [np.arange(3), np.array([1, -1, 2])])
    with pytest.raises(np.exceptions.AxisError):
        ng.repeat(ng.arange(3), 2, axis=1)
    assert_same(ng.repeat(ng.asarray(5.0), 3), np.repeat(5.0, 3))
    assert_same(ng.repeat(ng.zeros((0, 2)), 3, axis=0), np.repeat(np.zeros((0, 2)), 3, axis=0))
    big = np.random.default_rng(0).integers(0, 4, 20000)
    assert_same(ng.repeat(ng.arange(20000), ng.asarray(big)), np.repeat(np.arange(20000), big))


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.lists(st.integers(0, 3), min_size=0, max_size=4))
def test_tile(shape, reps):
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    for a, g in views(x):
        assert_same(ng.tile(g, reps), np.tile(a, reps))
        assert_same(ng.tile(g, 2), np.tile(a, 2))


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_roll_dtypes(dtype):
    x = data(dtype, (4, 5))
    for a, g in views(x):
        for shift, axis in [(2, None), (-7, None), (1, 0), (-3, 1), ((1, 2), (0, 1)), ((1, 1), (1, 1)),
                            (3, (0, 1)), ((2, -1), 1)]:
            assert_same(ng.roll(g, shift, axis), np.roll(a, shift, axis))


@given(st.lists(st.integers(0, 5), min_size=1, max_size=3), st.integers(-20, 20), st.integers(-3, 2))
def test_roll_hypothesis(shape, shift, axis):
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    call_both(np.roll, ng.roll, [x, shift], kwargs={"axis": axis if axis < len(shape) and axis >= -len(shape) else None})


def test_roll_errors_and_large():
    with pytest.raises(ValueError):
        ng.roll(ng.zeros((2, 2)), (1, 2, 3), (0, 1))
    with pytest.raises(np.exceptions.AxisError):
        ng.roll(ng.zeros((2, 2)), 1, 2)
    x = np.random.default_rng(0).random(100_003)
    assert_same(ng.roll(ng.asarray(x), 12345), np.roll(x, 12345))
    assert_same(ng.roll(ng.asarray(5), 1), np.roll(5, 1))


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_flip(dtype):
    x = data(dtype, (2, 3, 4))
    for a, g in views(x):
        for axis in (None, 0, 1, -1, (0, 2), ()):
            assert_same(ng.flip(g, axis), np.flip(a, axis))
        assert_same(ng.fliplr(g), np.fliplr(a))
        assert_same(ng.flipud(g), np.flipud(a))
    with pytest.raises(ValueError):
        ng.fliplr(ng.zeros(3))
    with pytest.raises(ValueError):
        ng.flipud(ng.asarray(1.0))
    with pytest.raises(np.exceptions.AxisError):
        ng.flip(ng.zeros(3), 1)
    g = ng.asarray(x)
    v = ng.flip(g, 0)
    v[0, 0, 0] = 1  # a view: writes reach the base
    assert g[1, 0, 0].item() == 1


# ---- pad ----

PAD_WIDTHS = [0, 2, (1, 3), ((0, 1), (2, 0)), ((3, 3),), [[1, 2], [7, 5]]]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("width", PAD_WIDTHS, ids=case_id)
def test_pad_modes(mode, width):
    x = data(np.float64, (3, 4))
    for a, g in views(x):
        assert_same(ng.pad(g, width, mode=mode), np.pad(a, width, mode=mode))


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_pad_dtypes(dtype):
    x = data(dtype, (4, 3))
    for mode in ("constant", "reflect", "wrap", "edge", "symmetric"):
        assert_same(ng.pad(ng.asarray(x), ((2, 1), (1, 4)), mode=mode), np.pad(x, ((2, 1), (1, 4)), mode=mode))
    assert_same(ng.pad(ng.asarray(x), 1, constant_values=1), np.pad(x, 1, constant_values=1))
    if np.dtype(dtype).kind in "fc":
        assert_same(ng.pad(ng.asarray(x), 2, constant_values=((1.5, -2.25), (np.nan, 3))),
                    np.pad(x, 2, constant_values=((1.5, -2.25), (np.nan, 3))))
    if np.dtype(dtype).kind == "c":   # complex fill values, one per side
        cv = ((1 + 2j, -0.5j), (3, complex(np.inf, -1)))
        assert_same(ng.pad(ng.asarray(x), ((1, 2), (2, 1)), constant_values=cv),
                    np.pad(x, ((1, 2), (2, 1)), constant_values=cv))


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.integers(0, 9), st.integers(0, 9),
       st.sampled_from(["edge", "reflect", "symmetric", "wrap", "constant"]))
def test_pad_hypothesis(shape, lo, hi, mode):
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) * 3 - 5
    assert_same(ng.pad(ng.asarray(x), (lo, hi), mode=mode), np.pad(x, (lo, hi), mode=mode))


def test_pad_constant_values_and_edges():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    g = ng.asarray(x)
    cv = ((1, 2), (3, 4))
    assert_same(ng.pad(g, 2, constant_values=cv), np.pad(x, 2, constant_values=cv))
    assert_same(ng.pad(g, 1, constant_values=2.7), np.pad(x, 1, constant_values=2.7))
    assert_same(ng.pad(ng.asarray(np.arange(3.0)), (2, 3), "reflect"), np.pad(np.arange(3.0), (2, 3), "reflect"))
    assert_same(ng.pad(ng.asarray(np.ones(1)), 4, "reflect"), np.pad(np.ones(1), 4, "reflect"))
    assert_same(ng.pad(ng.zeros((0, 2)), 1), np.pad(np.zeros((0, 2)), 1))
    assert_same(ng.pad(ng.asarray(7.0), 3), np.pad(7.0, 3))
    call_both(np.pad, ng.pad, [np.zeros((0, 2)), 1], kwargs={"mode": "edge"})
    call_both(np.pad, ng.pad, [x, -1])
    call_both(np.pad, ng.pad, [x, 1.5])
    call_both(np.pad, ng.pad, [x, ((1, 2), (3, 4), (5, 6))])
    # modes numgpu does not have on the device run on NumPy, same results
    for mode in ("linear_ramp", "maximum", "mean", "minimum"):
        assert_same(ng.pad(g, 2, mode=mode), np.pad(x, 2, mode=mode))
    assert_same(ng.pad(g.astype(np.float64), 2, mode="reflect", reflect_type="odd"),
                np.pad(x.astype(np.float64), 2, mode="reflect", reflect_type="odd"))


# ---- meshgrid / tril / triu / trace / diag / diagonal ----

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    xs = [np.arange(3.0, dtype=np.float16), np.arange(4, dtype=np.int32) + 1j, np.linspace(0, 1, 2)]
    for n in range(0, 4):
        got = ng.meshgrid(*[ng.asarray(v) for v in xs[:n]], indexing=indexing, sparse=sparse)
        exp = np.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        assert_same(list(got), list(exp))
    with pytest.raises(ValueError):
        ng.meshgrid(ng.arange(3), indexing="yx")


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
def test_tril_triu(dtype, k):
    for shape in [(4, 5), (3, 3, 2), (0, 3), (5,)]:
        x = data(dtype, shape, kind="nonzero")
        for a, g in views(x):
            assert_same(ng.tril(g, k), np.tril(a, k))
            assert_same(ng.triu(g, k=k), np.triu(a, k=k))


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_trace_diagonal(dtype):
    x = data(dtype, (4, 5, 3))
    for a, g in views(x):
        for off in (-2, 0, 1, 7):
            for ax1, ax2 in ((0, 1), (1, 0), (0, -1), (2, 1)):
                assert_same(ng.diagonal(g, off, ax1, ax2), np.diagonal(a, off, ax1, ax2))
                assert_same(ng.trace(g, off, ax1, ax2), np.trace(a, off, ax1, ax2))
        assert_same(g.trace(dtype=np.float64), a.trace(dtype=np.float64))
        assert_same(g.diagonal(1), a.diagonal(1))
    call_both(np.diagonal, ng.diagonal, [np.zeros(3)])
    call_both(np.diagonal, ng.diagonal, [np.zeros((3, 3)), 0, 1, 1])
    with pytest.raises(np.exceptions.AxisError):
        ng.trace(ng.zeros((2, 2)), axis1=3)


@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_diag(dtype):
    v = data(dtype, (4,))
    m = data(dtype, (3, 5))
    for k in (-2, 0, 3):
        assert_same(ng.diag(ng.asarray(v), k), np.diag(v, k))
        for a, g in views(m):
            assert_same(ng.diag(g, k), np.diag(a, k))
    with pytest.raises(ValueError):
        ng.diag(ng.zeros((2, 2, 2)))


# ---- clip ----

@pytest.mark.parametrize("dtype", ALL, ids=case_id)
def test_clip(dtype):
    # NumPy 2 clips complex in its lexicographic order (maximum, then minimum), NaNs propagate
    x = data(dtype, (5, 6))
    if np.dtype(dtype).kind in "fc":
        x.flat[::7] = np.nan
    if np.dtype(dtype).kind == "c":
        x.flat[3::7] = complex(1, np.nan)
        x.flat[4::9] = complex(-0.5, 3)
    lo, hi = (-1, 1) if np.dtype(dtype).kind != "u" else (1, 50)
    for a, g in views(x):
        call_both(np.clip, ng.clip, [a, lo, hi], [g, lo, hi])
        if np.dtype(dtype).kind == "c":
            call_both(np.clip, ng.clip, [a, -1 - 1j, 1 + 0.5j], [g, -1 - 1j, 1 + 0.5j])
            b = data(dtype, a.shape, seed=3)
            call_both(np.clip, ng.clip, [a, b, None], [g, ng.asarray(b), None])


# ---- products ----

@pytest.mark.parametrize("dtype", NUMERIC + [np.bool_], ids=case_id)
def test_outer(dtype):
    a, b = data(dtype, (3,)), data(dtype, (2, 2), seed=1)
    assert_same(ng.outer(ng.asarray(a), ng.asarray(b)), np.outer(a, b))
    assert_same(ng.outer(ng.asarray(a), 2), np.outer(a, 2))
    assert_same(ng.outer(ng.zeros(0), ng.ones(3)), np.outer(np.zeros(0), np.ones(3)))


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->ji", [(3, 4)]),
    ("i,i->", [(6,), (6,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij->...ji", [(2, 3, 4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ba,ca", [(3, 4), (5, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("iij->ji", [(3, 3, 2)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("...ij,...jk->...ik", [(1, 3, 4), (2, 4, 5)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 5, 4)]),
    ("i...->...", [(3, 2, 2)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ab,ab,ab->", [(2, 3), (2, 3), (2, 3)]),
    (",i->i", [(), (3,)]),
]


@pytest.mark.parametrize("subs,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32], ids=case_id)
def test_einsum(subs, shapes, dtype):
    ops = [data(dtype, s, seed=i, kind="small") for i, s in enumerate(shapes)]
    got = ng.einsum(subs, *[ng.asarray(o) for o in ops])
    exp = np.einsum(subs, *ops)
    assert_same(got, exp, rtol=1e-5 if dtype == np.float32 else None)


def test_einsum_errors_and_options():
    a = np.arange(12.0).reshape(3, 4)
    g = ng.asarray(a)
    for subs, ops in [("ij,jk->ik", [a, a]), ("ij->ik", [a]), ("ijk->i", [a]), ("ij,jk", [a]),
                      ("i1->i", [a]), ("ij->ii", [a])]:
        with pytest.raises(ValueError):
            np.einsum(subs, *ops)
        with pytest.raises(ValueError):
            ng.einsum(subs, *[ng.asarray(o) for o in ops])
    kw = {"dtype": np.float32, "casting": "same_kind"}
    assert_same(ng.einsum("ij->i", g, **kw), np.einsum("ij->i", a, **kw))
    call_both(np.einsum, ng.einsum, ["ij->i", a], kwargs={"dtype": np.float32})
    assert_same(ng.einsum("ij,j", g, ng.asarray(np.arange(4))), np.einsum("ij,j", a, np.arange(4)))
    assert_same(ng.einsum(g, [0, 1], [1]), np.einsum(a, [0, 1], [1]))  # sublist form: on NumPy
    x = np.arange(6, dtype=np.int8).reshape(2, 3) * 40
    assert_same(ng.einsum("ij,kj->ik", ng.asarray(x), ng.asarray(x)), np.einsum("ij,kj->ik", x, x))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int16], ids=case_id)
def test_dot_nd(dtype):
    for sa, sb in [((2, 3, 4), (4, 5)), ((2, 3, 4), (5, 4, 2)), ((3,), (2, 3, 4)), ((2, 3, 4), (4,)),
                   ((3, 4), (2, 4, 5)), ((), (2, 3, 4)), ((2, 2, 3), ())]:
        a, b = data(dtype, sa, kind="small"), data(dtype, sb, seed=1, kind="small")
        assert_same(ng.dot(ng.asarray(a), ng.asarray(b)), np.dot(a, b), rtol=1e-5)
        assert_same(ng.asarray(a).dot(ng.asarray(b)) if a.ndim else ng.dot(a, ng.asarray(b)), np.dot(a, b), rtol=1e-5)
    call_both(np.dot, ng.dot, [np.ones((2, 3, 4)), np.ones((3, 5))])


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [1]), (-1, 0)], ids=case_id)
def test_tensordot(axes):
    a = data(np.float64, (3, 4, 5))
    b = data(np.float64, (4, 3, 5) if axes in (([1, 0], [0, 1]),) else (5, 4, 2) if axes in (([2], [1]), (-1, 0))
             else (4, 5, 2) if axes == 2 else (5, 2, 3), seed=2)
    if axes == ([2], [1]):
        b = data(np.float64, (2, 5, 3), seed=2)
    assert_same(ng.tensordot(ng.asarray(a), ng.asarray(b), axes), np.tensordot(a, b, axes))


def test_tensordot_errors():
    call_both(np.tensordot, ng.tensordot, [np.ones((2, 3)), np.ones((2, 3))], kwargs={"axes": 1})
    call_both(np.tensordot, ng.tensordot, [np.ones((2, 3)), np.ones((3, 2))], kwargs={"axes": ([0, 1], [0])})


def test_inner_vdot():
    for sa, sb in [((4,), (4,)), ((2, 4), (3, 4)), ((2, 3, 4), (4,)), ((), (3,))]:
        a, b = data(np.float64, sa), data(np.float64, sb, seed=1)
        assert_same(ng.inner(ng.asarray(a), ng.asarray(b)), np.inner(a, b))
    a, b = data(np.int32, (2, 3)), data(np.int32, (3, 2), seed=1)
    assert_same(ng.vdot(ng.asarray(a), ng.asarray(b)), np.vdot(a, b))
    call_both(np.inner, ng.inner, [np.ones(3), np.ones(4)])
    call_both(np.vdot, ng.vdot, [np.ones(3), np.ones(4)])


def test_stays_on_device():
    """The device ops here move no element data to the host (nonzero downloads only chunk counts)."""
    g = ng.asarray(np.arange(24.0).reshape(4, 6))
    before = ng.stats()["download_bytes"]
    for r in (ng.roll(g, 3, 1), ng.tile(g, 2), ng.repeat(g, 2, 0), ng.pad(g, 2, "reflect"), ng.tril(g),
              ng.flip(g), ng.einsum("ij,kj->ik", g, g), ng.trace(g), ng.outer(g[0], g[1])):
        assert isinstance(r, ng.ndarray)
    assert ng.stats()["download_bytes"] == before


def test_highest_rank():
    """32-d arrays (NG_MAXDIMS): the gather and compaction kernels take one scalar per axis."""
    x = np.arange(2 ** 10).reshape((1,) * 22 + (2,) * 10)
    g = ng.asarray(x)
    w = [(0, 0)] * 22 + [(1, 1)] * 10
    assert_same(ng.roll(g, 1, -1), np.roll(x, 1, -1))
    assert_same(ng.pad(g, w, "reflect"), np.pad(x, w, "reflect"))
    assert_same(ng.tril(g), np.tril(x))
    assert_same(ng.argwhere(g), np.argwhere(x))
    assert_same(ng.repeat(g, 3, axis=5), np.repeat(x, 3, axis=5))
    assert_same(ng.tile(g, 2), np.tile(x, 2))


@pytest.mark.parametrize("subs", ["ij,jk->ik", "ij->i", "ii", "i,i->", "bij,bjk->bik"])
def test_einsum_bool_and_mixed(subs):
    shapes = {"ij,jk->ik": [(3, 4), (4, 2)], "ij->i": [(3, 4)], "ii": [(3, 3)], "i,i->": [(5,), (5,)],
              "bij,bjk->bik": [(2, 3, 4), (2, 4, 2)]}[subs]
    ops = [data(np.bool_, s, seed=i) for i, s in enumerate(shapes)]
    assert_same(ng.einsum(subs, *[ng.asarray(o) for o in ops]), np.einsum(subs, *ops))
    mixed = [o.astype(np.int32 if i == 0 else np.float32) for i, o in enumerate(ops)]
    assert_same(ng.einsum(subs, *[ng.asarray(o) for o in mixed]), np.einsum(subs, *mixed))


def test_copyto_from_a_list():
    # NumPy converts a sequence to its array first (its dtype cast-checked); numgpu took it for a scalar
    for src in ([1, 2, 3], [1.5, 2, 3], (True, False, True), [[1], [2], [3]], [1j, 2, 3]):
        for casting in ("same_kind", "safe"):
            want, got = np.zeros(3), ng.zeros(3)
            try:
                np.copyto(want, src, casting=casting)
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)):
                    ng.copyto(got, src, casting=casting)
                continue
            ng.copyto(got, src, casting=casting)
            assert_same(got, want)
