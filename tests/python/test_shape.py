"""Shape operations against NumPy: reshape (with -1 and its errors), ravel,
flatten, transpose (with axes), swapaxes, expand_dims, squeeze, broadcast_to,
concatenate, stack, vstack, hstack, .T; views share memory with their base,
and reshaping non-contiguous arrays gives the right values."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import numgpu as ng
from helpers import assert_same, case_id, data


def both(src):
    return src, ng.asarray(src)


# ---- reshape -----------------------------------------------------------------------------

@pytest.mark.parametrize("new", [(24,), (2, 12), (4, -1), (-1, 3), (2, 3, 4), (2, -1, 2), (1, 24, 1), (-1,),
                                 (3, 2, 2, 2), (24, 1)], ids=str)
def test_reshape(new):
    h, d = both(np.arange(24, dtype=np.int32).reshape(4, 6))
    assert_same(d.reshape(new), h.reshape(new))
    assert_same(d.reshape(*new), h.reshape(*new))
    assert_same(ng.reshape(d, new), np.reshape(h, new))


def test_reshape_all_dtypes(dtype):
    h, d = both(data(dtype, (3, 4)))
    assert_same(d.reshape(2, 6), h.reshape(2, 6))
    assert_same(d.reshape(-1), h.reshape(-1))


def test_reshape_0d_and_empty():
    h, d = both(np.asarray(5.0))
    assert_same(d.reshape(1), h.reshape(1))
    assert_same(d.reshape(()), h.reshape(()))
    assert_same(d.reshape(1, 1, 1), h.reshape(1, 1, 1))
    assert_same(ng.asarray(np.ones((1, 1))).reshape(()), np.ones((1, 1)).reshape(()))
    h, d = both(np.zeros((0, 3)))
    assert_same(d.reshape(3, 0), h.reshape(3, 0))
    assert_same(d.reshape(0, 3, 1), h.reshape(0, 3, 1))
    assert_same(d.reshape(-1), h.reshape(-1))


@pytest.mark.parametrize("new", [(5, 5), (7,), (-1, 5), (25, -1)], ids=str)
def test_reshape_errors(new):
    h, d = both(np.arange(24.0))
    with pytest.raises(ValueError) as e:
        h.reshape(new)
    with pytest.raises(ValueError) as g:
        d.reshape(new)
    assert "cannot reshape array of size 24 into shape" in str(g.value)
    if -1 not in new:  # NumPy spells an unknown dimension oddly ("(5)", "(25,newaxis)"); not worth copying
        assert str(g.value) == str(e.value)


def test_reshape_two_unknowns():
    h, d = both(np.arange(24.0))
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        h.reshape(-1, -1)
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        d.reshape(-1, -1)


VIEWS = {
    "transposed": lambda x: x.T,
    "step": lambda x: x[::2, 1::2],
    "negative": lambda x: x[::-1, ::-1],
    "column": lambda x: x[:, 3],
    "sub": lambda x: x[1:5, 2:8],
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_reshape_non_contiguous(view):
    base = data(np.float64, (6, 10), seed=1)
    h, d = VIEWS[view](base), VIEWS[view](ng.asarray(base))
    assert_same(d.reshape(-1), h.reshape(-1))
    assert_same(d.ravel(), h.ravel())
    assert_same(d.flatten(), h.flatten())
    if h.size % 2 == 0:
        assert_same(d.reshape(2, -1), h.reshape(2, -1))
        assert_same(d.reshape(-1, 2).T, h.reshape(-1, 2).T)


def test_shape_setter():
    h, d = both(np.arange(12.0))
    d.shape = (3, 4)
    h.shape = (3, 4)
    assert_same(d, h)
    t = ng.asarray(np.arange(12.0).reshape(3, 4)).T
    with pytest.raises(AttributeError):
        t.shape = (12,)


# ---- ravel / flatten / transpose / swapaxes ------------------------------------------------

def test_ravel_flatten(dtype):
    h, d = both(data(dtype, (2, 3, 4)))
    assert_same(d.ravel(), h.ravel())
    assert_same(ng.ravel(d), np.ravel(h))
    assert_same(d.flatten(), h.flatten())
    f = d.flatten()
    f[0] = f[1]
    assert_same(d, h)  # flatten copies


@pytest.mark.parametrize("axes", [None, (0, 1, 2), (2, 1, 0), (1, 0, 2), (0, 2, 1), (-1, 0, 1), (2, 0, 1)], ids=str)
def test_transpose(axes):
    h, d = both(data(np.int32, (2, 3, 4)))
    assert_same(d.transpose(axes), h.transpose(axes))
    assert_same(ng.transpose(d, axes), np.transpose(h, axes))
    if axes is not None:
        assert_same(d.transpose(*axes), h.transpose(*axes))
    assert d.transpose(axes).strides == h.transpose(axes).strides


def test_transpose_errors():
    h, d = both(data(np.int32, (2, 3, 4)))
    with pytest.raises(ValueError, match="axes don't match array"):
        h.transpose(0, 1)
    with pytest.raises(ValueError, match="axes don't match array"):
        d.transpose(0, 1)
    with pytest.raises(ValueError):
        h.transpose(0, 0, 1)
    with pytest.raises(ValueError):
        d.transpose(0, 0, 1)
    with pytest.raises(AxisError):
        h.transpose(0, 1, 3)
    with pytest.raises(AxisError):
        d.transpose(0, 1, 3)


def test_T(dtype):
    for shape in [(), (5,), (3, 4), (2, 3, 4)]:
        h, d = both(data(dtype, shape))
        assert_same(d.T, h.T)


@pytest.mark.parametrize("a1,a2", [(0, 1), (0, 2), (-1, 0), (1, 1), (2, -2)], ids=str)
def test_swapaxes(a1, a2):
    h, d = both(data(np.float32, (2, 3, 4)))
    assert_same(d.swapaxes(a1, a2), h.swapaxes(a1, a2))
    assert_same(ng.swapaxes(d, a1, a2), np.swapaxes(h, a1, a2))


def test_swapaxes_error():
    h, d = both(data(np.float32, (2, 3)))
    with pytest.raises(AxisError):
        h.swapaxes(0, 2)
    with pytest.raises(AxisError):
        d.swapaxes(0, 2)


# ---- expand_dims / squeeze / broadcast_to ------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 1), (0, -1), (1, 3)], ids=str)
def test_expand_dims(axis):
    h, d = both(data(np.int8, (2, 3)))
    assert_same(ng.expand_dims(d, axis), np.expand_dims(h, axis))


def test_expand_dims_errors():
    h, d = both(data(np.int8, (2, 3)))
    for axis in [3, -4]:
        with pytest.raises(AxisError):
            np.expand_dims(h, axis)
        with pytest.raises(AxisError):
            ng.expand_dims(d, axis)
    for axis in [(0, 0), (1, -3)]:  # the same axis twice
        with pytest.raises(ValueError, match="repeated axis"):
            np.expand_dims(h, axis)
        with pytest.raises(ValueError, match="repeated axis"):
            ng.expand_dims(d, axis)


@pytest.mark.parametrize("axis", [None, 0, 2, -1, (0, 2), (0, 2, 4)], ids=str)
def test_squeeze(axis):
    h, d = both(data(np.float64, (1, 3, 1, 4, 1)))
    assert_same(ng.squeeze(d, axis), np.squeeze(h, axis))
    assert_same(d.squeeze(axis), h.squeeze(axis))


def test_squeeze_errors_and_edge_cases():
    h, d = both(data(np.float64, (1, 3, 1)))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        h.squeeze(1)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        d.squeeze(1)
    with pytest.raises(AxisError):
        d.squeeze(3)
    assert_same(ng.squeeze(ng.asarray(np.ones((1, 1)))), np.squeeze(np.ones((1, 1))))
    assert_same(ng.squeeze(ng.asarray(np.asarray(2.0))), np.squeeze(np.asarray(2.0)))


@pytest.mark.parametrize("src,shape", [((3,), (4, 3)), ((1,), (5,)), ((), (2, 3)), ((2, 1), (2, 4)),
                                       ((2, 1, 3), (4, 2, 5, 3)), ((3,), (3,)), ((1, 3), (0, 3))], ids=str)
def test_broadcast_to(src, shape, dtype):
    h, d = both(data(dtype, src, seed=2))
    got = ng.broadcast_to(d, shape)
    exp = np.broadcast_to(h, shape)
    assert_same(got, exp)
    assert got.strides == exp.strides or exp.size == 0


def test_broadcast_to_errors():
    h, d = both(data(np.float64, (3,)))
    for shape in [(4,), (2, 4), (1,)]:
        with pytest.raises(ValueError):
            np.broadcast_to(h, shape)
        with pytest.raises(ValueError):
            ng.broadcast_to(d, shape)


def test_broadcast_to_is_a_view():
    h = np.arange(3.0)
    d = ng.asarray(h)
    b = ng.broadcast_to(d, (4, 3))
    d[1] = 50.0
    assert (b.get()[:, 1] == 50.0).all()
    assert_same(b.sum(axis=0), np.broadcast_to(np.array([0.0, 50.0, 2.0]), (4, 3)).sum(axis=0))


# ---- joins --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1, None], ids=str)
def test_concatenate(axis, dtype):
    a = data(dtype, (2, 3), seed=1)
    b = data(dtype, (2, 3), seed=2)
    c = data(dtype, (2, 3), seed=3)
    assert_same(ng.concatenate([ng.asarray(a), ng.asarray(b), ng.asarray(c)], axis=axis),
                np.concatenate([a, b, c], axis=axis))


def test_concatenate_shapes_and_views():
    a = data(np.float64, (2, 3), seed=1)
    b = data(np.float64, (4, 3), seed=2)
    assert_same(ng.concatenate((ng.asarray(a), ng.asarray(b))), np.concatenate((a, b)))
    c = data(np.float64, (2, 5), seed=3)
    assert_same(ng.concatenate([ng.asarray(a), ng.asarray(c)], axis=1), np.concatenate([a, c], axis=1))
    big = data(np.float64, (6, 8), seed=4)
    va, vb = big[::2, ::-3], big[1::2, 1::3]
    assert_same(ng.concatenate([ng.asarray(big)[::2, ::-3], ng.asarray(big)[1::2, 1::3]], axis=0),
                np.concatenate([va, vb], axis=0))
    assert_same(ng.concatenate([ng.asarray(a)]), np.concatenate([a]))
    assert_same(ng.concatenate([ng.asarray(np.zeros((0, 3))), ng.asarray(a)]),
                np.concatenate([np.zeros((0, 3)), a]))
    assert_same(ng.concatenate([ng.asarray(np.arange(3)), ng.asarray(np.arange(2))]),
                np.concatenate([np.arange(3), np.arange(2)]))


@pytest.mark.parametrize("d1,d2", [(np.int8, np.uint8), (np.int32, np.float32), (np.bool_, np.int16),
                                   (np.float32, np.float64), (np.int64, np.uint64), (np.float16, np.int8),
                                   (np.float16, np.int16), (np.float16, np.complex64), (np.float32, np.complex64),
                                   (np.float64, np.complex64), (np.int64, np.complex64),
                                   (np.complex64, np.complex128), (np.bool_, np.complex128)], ids=case_id)
def test_concatenate_promotes(d1, d2):
    a, b = data(d1, (3,)), data(d2, (2,))
    assert_same(ng.concatenate([ng.asarray(a), ng.asarray(b)]), np.concatenate([a, b]))
    assert_same(ng.concatenate([ng.asarray(a), b]), np.concatenate([a, b]))


def test_concatenate_many_parts_of_every_kind():
    """Hundreds of parts, numgpu arrays (views too) between NumPy arrays and lists, each in its
    place (numgpu's are read where they are, the others converted: two lists kept apart)."""
    rng = np.random.default_rng(7)
    parts = [rng.standard_normal((int(rng.integers(0, 4)), 3)) for _ in range(300)]
    mixed, want = [], []
    for k, p in enumerate(parts):
        want.append(p)
        mixed.append(ng.asarray(p) if k % 3 == 0 else p if k % 3 == 1 else p.tolist() if len(p) else p)
    mixed[5] = ng.asarray(np.concatenate([parts[5], parts[5]]))[::2]
    want[5] = np.concatenate([parts[5], parts[5]])[::2]
    assert_same(ng.concatenate(mixed), np.concatenate(want))
    assert_same(ng.concatenate(mixed, axis=None), np.concatenate(want, axis=None))
    with pytest.raises(ValueError):
        ng.concatenate(mixed + [np.zeros((2, 4))])


def test_concatenate_python_scalars_promote_weakly():
    """NumPy 2 promotes Python scalars among the arrays weakly: an int16 array and 3 stay int16,
    a float joins an integer array as float64, a complex a float32 one as complex64."""
    a16, f32 = np.array([1, 2], np.int16), np.array([1.5], np.float32)
    for arrays in ((a16, 3), (a16, 2.5), (f32, 1j), (f32, 2), (3, a16), (True, a16)):
        want = np.concatenate(arrays, axis=None)
        got = ng.concatenate([ng.asarray(x) if isinstance(x, np.ndarray) else x for x in arrays], axis=None)
        assert_same(got, want)


def test_atleast_nd_of_several_arrays():
    for f in ("atleast_1d", "atleast_2d", "atleast_3d"):
        want = getattr(np, f)(5, [1, 2], np.ones((2, 3)))
        got = getattr(ng, f)(5, ng.asarray([1, 2]), ng.ones((2, 3)))
        assert isinstance(got, tuple) and len(got) == 3
        for g, w in zip(got, want):
            assert_same(g, w)
        assert_same(getattr(ng, f)(ng.asarray(7.0)), getattr(np, f)(7.0))


def test_concatenate_errors():
    a, b = np.zeros((2, 3)), np.zeros((2, 4))
    with pytest.raises(ValueError):
        np.concatenate([a, b])
    with pytest.raises(ValueError):
        ng.concatenate([ng.asarray(a), ng.asarray(b)])
    with pytest.raises(ValueError):
        ng.concatenate([ng.asarray(a), ng.asarray(np.zeros(3))])
    with pytest.raises(AxisError):
        ng.concatenate([ng.asarray(a), ng.asarray(a)], axis=2)
    with pytest.raises(ValueError):
        np.concatenate([])
    with pytest.raises(ValueError):
        ng.concatenate([])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3], ids=str)
def test_stack(axis):
    arrs = [data(np.int16, (3, 4), seed=s) for s in range(3)]
    assert_same(ng.stack([ng.asarray(x) for x in arrs], axis=axis), np.stack(arrs, axis=axis))


def test_stack_errors_and_dtypes(dtype):
    a, b = data(dtype, (2,), seed=1), data(dtype, (2,), seed=2)
    assert_same(ng.stack([ng.asarray(a), ng.asarray(b)]), np.stack([a, b]))
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        ng.stack([ng.asarray(a), ng.asarray(np.zeros(3, dtype))])
    with pytest.raises(ValueError, match="need at least one array to stack"):
        ng.stack([])
    with pytest.raises(AxisError):
        ng.stack([ng.asarray(a)], axis=2)


@pytest.mark.parametrize("shapes", [[(3,), (3,)], [(2, 3), (1, 3)], [(), ()], [(3,), (2, 3)]], ids=str)
def test_vstack(shapes):
    arrs = [data(np.float32, s, seed=i) for i, s in enumerate(shapes)]
    assert_same(ng.vstack([ng.asarray(x) for x in arrs]), np.vstack(arrs))


@pytest.mark.parametrize("shapes", [[(3,), (2,)], [(2, 3), (2, 1)], [(), ()], [(2, 2, 1), (2, 1, 1)]], ids=str)
def test_hstack(shapes):
    arrs = [data(np.int64, s, seed=i) for i, s in enumerate(shapes)]
    assert_same(ng.hstack([ng.asarray(x) for x in arrs]), np.hstack(arrs))


# ---- views share memory -----------------------------------------------------------------------------

def test_reshape_view_writes_reach_base():
    h = np.arange(12.0)
    d = ng.asarray(h)
    v = d.reshape(3, 4)
    v[1, 2] = -1.0
    h.reshape(3, 4)[1, 2] = -1.0
    assert_same(d, h)
    v += 1
    h.reshape(3, 4)[...] += 1
    assert_same(d, h)


def test_transpose_view_writes_reach_base():
    h = np.arange(12).reshape(3, 4)
    d = ng.asarray(h)
    t = d.T
    t[0, 2] = 100
    h.T[0, 2] = 100
    assert_same(d, h)
    s = d.swapaxes(0, 1)
    s[3] = 7
    h.swapaxes(0, 1)[3] = 7
    assert_same(d, h)
    r = d.ravel()
    r[0] = -5
    h.ravel()[0] = -5
    assert_same(d, h)
    e = ng.expand_dims(d, 0)
    e[0, 0, 0] = 42
    h[0, 0] = 42
    assert_same(d, h)
    assert_same(e, h[None])


def test_views_keep_base_alive():
    d = ng.asarray(np.arange(6.0))
    v = d.reshape(2, 3).T
    del d
    assert_same(v, np.arange(6.0).reshape(2, 3).T)


def test_reshape_of_non_contiguous_is_a_copy():
    h = np.arange(12.0).reshape(3, 4)
    d = ng.asarray(h)
    r = d.T.reshape(12)
    exp = h.T.reshape(12)
    r[0] = 99.0   # NumPy: a copy, the base does not change
    assert_same(d, h)
    exp[0] = 99.0
    assert_same(r, exp)


# ---- hypothesis ---------------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=4, max_side=4), data_=st.data())
def test_hypothesis_transpose_reshape(shape, data_):
    h = data(np.int32, shape, seed=len(shape))
    d = ng.asarray(h)
    perm = data_.draw(st.permutations(range(len(shape))))
    ht, dt = h.transpose(perm), d.transpose(perm)
    assert_same(dt, ht)
    assert_same(dt.reshape(-1), ht.reshape(-1))
    if h.size:
        first = data_.draw(st.sampled_from([k for k in range(1, h.size + 1) if h.size % k == 0]))
        assert_same(dt.reshape(first, -1), ht.reshape(first, -1))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_flatten_reshape_in_every_order(order):
    a = np.arange(60.0).reshape(3, 4, 5)
    x = ng.asarray(a)
    views = [(x, a), (x.T, a.T), (x[:, ::2], a[:, ::2]), (x.T[::2], a.T[::2]), (x[1:, :, 1:4], a[1:, :, 1:4])]
    for v, h in views:
        assert_same(v.ravel(order), h.ravel(order))
        assert_same(v.flatten(order), h.flatten(order))
        assert_same(ng.ravel(v, order=order), np.ravel(h, order=order))
        if order != "K":
            assert_same(v.reshape((h.size // 2, 2), order=order), h.reshape((h.size // 2, 2), order=order))
            assert_same(ng.reshape(v, (-1, h.shape[0]), order=order), np.reshape(h, (-1, h.shape[0]), order=order))
    flat = x.ravel(order)                      # a view where NumPy's is one: writes show through
    if order in ("C", "A", "K"):
        flat[0] = -1.0
        assert x.get()[0, 0, 0] == -1.0
    with pytest.raises(ValueError):
        x.reshape(60, order="K")
    with pytest.raises(ValueError):
        x.ravel("Z")


def test_shape_size_ndim_read_no_data():
    """shape, size and ndim of device arrays are their own (nothing downloaded, nothing counted as
    a fallback); other inputs are NumPy's."""
    before = dict(ng._fallback.counts)
    x = ng.ones((3, 4, 5))
    assert ng.shape(x) == (3, 4, 5) and ng.size(x) == 60 and ng.ndim(x) == 3
    assert ng.size(x, 1) == 4 and ng.size(x, -1) == 5 and ng.size(x, (0, 2)) == 15
    assert ng.shape([[1, 2]]) == (1, 2) and ng.size(7) == 1 and ng.ndim([1]) == 1
    assert dict(ng._fallback.counts) == before
    with pytest.raises(AxisError):
        ng.size(x, 3)


def test_shares_memory_of_views():
    """shares_memory and may_share_memory answer as NumPy's on the same layouts: views of one
    buffer (interleaved slices share none; overlapping ones do), other buffers never; on cpu a
    numgpu array made zero-copy from a NumPy array shares its memory."""
    h = np.arange(24.0).reshape(4, 6)
    x = ng.asarray(h.copy())
    pairs = [(lambda a: a, lambda a: a[1:]), (lambda a: a[::2], lambda a: a[1::2]), (lambda a: a[:, :3], lambda a: a[:, 3:]),
             (lambda a: a.T, lambda a: a[2]), (lambda a: a[:, ::-1], lambda a: a[0, :1]), (lambda a: a[0], lambda a: a[3]),
             (lambda a: a.reshape(-1)[5:7], lambda a: a[1, :])]
    for f, g in pairs:
        for name in ("shares_memory", "may_share_memory"):
            assert getattr(ng, name)(f(x), g(x)) == getattr(np, name)(f(h), g(h)), (name, f(h).shape, g(h).shape)
    assert not ng.shares_memory(x, ng.asarray(h.copy())) and not ng.may_share_memory(x, x.copy())
    assert ng.shares_memory(h, h[1:]) and not ng.shares_memory(h, h.copy())
    if ng.get_device().startswith("cpu"):
        z = ng.asarray(h)
        assert ng.shares_memory(z, h) == np.shares_memory(np.asarray(z), h)


def test_view_reinterprets_device_memory():
    """x.view(dtype) is the same device memory read as dtype, as NumPy's: the same shape for the
    same itemsize, the contiguous last axis resized otherwise; writes through the view change x
    (the fallback gave a host copy: writes were lost). NumPy's errors for 0-d arrays and
    non-contiguous or indivisible last axes."""
    before = dict(ng._fallback.counts)
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    for dt in (np.int32, np.uint32, np.float32, np.uint8, np.int16, np.float64, np.complex64, np.int64):
        assert_same(ng.asarray(h).view(dt), h.view(dt))
        assert_same(ng.asarray(h)[::2].view(dt), h[::2].view(dt))
    c = np.array([1 + 2j, -3.5 - 4j])
    assert_same(ng.asarray(c).view(np.float64), c.view(np.float64))
    assert_same(ng.asarray(np.array([0, 1, 2], np.uint8)).view(np.bool_), np.array([0, 1, 2], np.uint8).view(np.bool_))
    x = ng.asarray(h.copy())
    bits = x.view(np.uint32)
    bits[0, 0] = 0x3F800000          # 1.0f
    bits[1] ^= 0x80000000            # flip the sign bits of row 1
    want = h.copy()
    want[0, 0] = 1.0
    want[1] = -want[1]
    assert_same(x, want)
    assert_same(x.view(), want)
    assert dict(ng._fallback.counts) == before
    for bad in (lambda a: a[0, 0].view(np.float64), lambda a: a[:, ::2].view(np.float64),
                lambda a: a[:, :3].view(np.float64)):
        with pytest.raises(ValueError) as want_err:
            bad(h)
        with pytest.raises(ValueError) as got_err:
            bad(ng.asarray(h))
        assert str(got_err.value) == str(want_err.value)


def test_view_falls_back_where_the_device_cannot():
    """Memory not aligned to the new itemsize, and views as another array type: NumPy's view, on cpu
    of the array's own memory (writes reach it; no fallback), on a GPU of a host copy, counted as a
    fallback."""
    import warnings
    before = ng._fallback.counts.get("numpy.ndarray.view", [0])[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = np.arange(9, dtype=np.int8)
        x = ng.asarray(b)
        v = x[1:].view(np.int32)      # (cpu: NumPy's view where numgpu cannot view unaligned memory)
        if x.device.startswith("cpu"):
            assert v.dtype == np.int32 and v.tolist() == b[1:].view(np.int32).tolist()
        else:
            assert_same(v, b[1:].view(np.int32))
        m = ng.ones((2, 2))
        mv = m.view(np.matrix)
        assert type(mv) is np.matrix
    if x.device.startswith("cpu"):
        v[0] = -1
        mv[1, 1] = 5
        assert x[1:5].tolist() == [-1] * 4 and m.tolist() == [[1.0, 1.0], [1.0, 5.0]]
        assert ng._fallback.counts.get("numpy.ndarray.view", [0])[0] == before
    else:
        assert ng._fallback.counts["numpy.ndarray.view"][0] >= before + 2


def test_fortran_order_as_numpys():
    """order='F' (and 'A'/'K' of a transposed array) lays the result out in Fortran order as NumPy
    does, on the device: creation functions, array/asarray, copies and *_like (they fell back, or
    gave C order silently). Ufunc results stay C-ordered (values as NumPy's)."""
    h = np.arange(6.0).reshape(2, 3)
    cases = [lambda m, a: m.zeros((2, 3), order="F"), lambda m, a: m.ones(4, order="F"),
             lambda m, a: m.full((2, 3), 7, order="F"), lambda m, a: m.eye(3, 4, 1, order="F"),
             lambda m, a: m.eye(4, 3, -2, order="F"), lambda m, a: m.array(a, order="F"),
             lambda m, a: m.asarray(a, order="F"), lambda m, a: a.copy(order="F"), lambda m, a: a.T.copy(order="K"),
             lambda m, a: a.T.copy(order="A"), lambda m, a: a.T.copy(), lambda m, a: m.zeros_like(a.T),
             lambda m, a: m.ones_like(a, order="F"), lambda m, a: m.full_like(a.T, 2, shape=(3, 3)),
             lambda m, a: m.copy(a.T), lambda m, a: m.array(a.T, order="K"), lambda m, a: m.array(a.T, order="C"),
             lambda m, a: m.asfortranarray(a), lambda m, a: m.array([[1, 2], [3, 4]], order="F", ndmin=3),
             lambda m, a: m.array(a.T, copy=None), lambda m, a: m.empty((2, 3, 4), order="F").shape]
    before = dict(ng._fallback.counts)
    for f in cases:
        want, got = f(np, h), f(ng, ng.asarray(h))
        if isinstance(want, tuple):
            assert got == want
            continue
        assert_same(got, want)
        for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
            assert got.flags[flag] == want.flags[flag], (flag, want.shape)
    assert ng.empty((2, 3, 4), order="F").flags["F_CONTIGUOUS"]
    assert dict(ng._fallback.counts) == before
    with pytest.raises(ValueError):
        ng.array(ng.asarray(h), order="F", copy=False)


def test_view_of_empty_arrays():
    """Views of empty arrays as another itemsize keep NumPy's shapes (an empty last axis too)."""
    for shape in ((3, 0), (0, 4), (0,)):
        h = np.zeros(shape, np.float64)
        for dt in (np.int32, np.int64, np.uint8):
            assert_same(ng.asarray(h).view(dt), h.view(dt))
