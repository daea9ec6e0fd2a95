"""Indexing against NumPy: ints, negative ints, slices (steps, negative
steps), Ellipsis, None, integer arrays (1-d, 2-d, negative), boolean masks,
combinations; get and set (scalars, broadcast arrays); basic indexing gives
views, advanced indexing copies; IndexError messages; hypothesis-driven
basic and integer-array indices."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numgpu as ng
from helpers import assert_same, data


def _dev_key(key, as_device=True):
    """The key with NumPy index arrays uploaded (or left as NumPy arrays)."""
    def conv(k):
        return ng.asarray(k) if (as_device and isinstance(k, np.ndarray)) else k
    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


def check_get(h, key, d=None, as_device=True):
    d = ng.asarray(h) if d is None else d
    try:
        exp = h[key]
    except IndexError as e:
        with pytest.raises(IndexError) as g:
            d[_dev_key(key, as_device)]
        assert str(g.value) == str(e)
        return None
    got = d[_dev_key(key, as_device)]
    assert_same(got, exp)
    return got


def check_set(h, key, value, as_device=True):
    d = ng.asarray(h)
    exp = h.copy()
    dv = ng.asarray(value) if isinstance(value, np.ndarray) else value
    try:
        exp[key] = value
    except (IndexError, ValueError) as e:
        with pytest.raises(type(e)):
            d[_dev_key(key, as_device)] = dv
        return
    d[_dev_key(key, as_device)] = dv
    assert_same(d, exp)


H2 = np.arange(42, dtype=np.int32).reshape(6, 7)
H3 = np.arange(60, dtype=np.float64).reshape(3, 4, 5)

BASIC_KEYS = [
    0, 5, -1, -6, (2, 3), (-1, -7), (slice(None),), slice(1, 4), slice(None, None, 2), slice(None, None, -1),
    slice(5, 1, -2), slice(-3, None), slice(10, 20), slice(-100, 100), (slice(None), 2), (slice(1, None), slice(None, None, 3)),
    (slice(None, None, -2), slice(6, 0, -3)), Ellipsis, (Ellipsis, 1), (1, Ellipsis), (None,), (None, 1),
    (slice(None), None, 1), (1, None, slice(2, 5)), (Ellipsis, None), (None, Ellipsis, None), (2, 3, None),
    (), slice(3, 3), (slice(4, 1),),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=repr)
def test_basic_get_2d(key):
    check_get(H2, key)


@pytest.mark.parametrize("key", [
    (1, 2, 3), (Ellipsis, 0, slice(None, None, -1)), (slice(None), slice(1, 3), None, 0), (-1,), (Ellipsis,),
    (0, Ellipsis, 0), (slice(None, None, 2), Ellipsis, slice(None, None, -2)), (None, None, 1, None),
], ids=repr)
def test_basic_get_3d(key):
    check_get(H3, key)


def test_get_all_dtypes(dtype):
    h = data(dtype, (5, 4), seed=1)
    check_get(h, (slice(1, None, 2), -1))
    check_get(h, (3, 2))
    check_get(h, np.array([4, 0, -2]))
    check_get(h, h[:, 0] > h[:, 1]) if dtype is not np.bool_ else check_get(h, h[:, 0])


def test_get_0d_and_numpy_integer_keys():
    h = np.arange(10.0)
    check_get(h, np.int64(3))
    check_get(h, np.uint8(2))
    d = ng.asarray(h)
    assert_same(d[ng.asarray(np.int64(4))], h[4])
    z = np.asarray(3.5)
    check_get(z, ())
    check_get(z, Ellipsis)
    check_get(z, None)


# ---- integer arrays -----------------------------------------------------------------------------

ADV_KEYS = [
    np.array([0, 2, 5]),
    np.array([-1, -6, 3]),
    np.array([[0, 1], [5, 4]]),
    np.array([], dtype=np.intp),
    (np.array([0, 1]), np.array([1, 2])),
    (np.array([[0], [3]]), np.array([1, 2, -1])),
    (slice(1, None), np.array([0, 2])),
    (np.array([0, 2]), slice(None, None, -2)),
    (Ellipsis, np.array([6, 0])),
    (np.array([1, 1, 1]), 2),
    (2, np.array([[0, 1], [2, 3]])),
    (slice(None), None, 1),
    (np.array([3, 1]), None),
]


@pytest.mark.parametrize("key", ADV_KEYS, ids=repr)
@pytest.mark.parametrize("as_device", [True, False], ids=["ng_index", "np_index"])
def test_integer_array_get(key, as_device):
    check_get(H2, key, as_device=as_device)


def test_integer_index_dtypes():
    for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]:
        check_get(H2, np.array([5, 0, 3], dtype=dt))
        check_get(H2, (slice(None), np.array([6, 1], dtype=dt)))


def test_list_indices():
    d = ng.asarray(H2)
    assert_same(d[[0, 2]], H2[[0, 2]])
    assert_same(d[1:, [0, 2]], H2[1:, [0, 2]])
    assert_same(d[[0, 1], [1, 2]], H2[[0, 1], [1, 2]])
    assert_same(d[:, None, 1], H2[:, None, 1])
    assert_same(d[[[0, 1], [2, 3]]], H2[[[0, 1], [2, 3]]])
    assert_same(d[[True, False, True, False, False, True]], H2[[True, False, True, False, False, True]])


@pytest.mark.parametrize("key", [
    (np.array([0, 2]), slice(None), np.array([1, 3])),      # separated advanced indices: their dims go first
    (slice(None), np.array([0, 2]), np.array([1, 3])),      # adjacent: dims stay in place
    (np.array([[0], [2]]), 1, np.array([4, 0, 1])),
    (Ellipsis, np.array([1, 0]), 2),
    (1, slice(None), np.array([0, -1])),
    (np.array([2, 0]), Ellipsis),
], ids=repr)
def test_integer_array_get_3d(key):
    check_get(H3, key)


# ---- boolean masks ----------------------------------------------------------------------------------

def test_mask_same_shape(dtype):
    h = data(dtype, (4, 5), seed=2)
    m = data(np.bool_, (4, 5), seed=3)
    check_get(h, m)
    check_get(h, np.zeros((4, 5), bool))
    check_get(h, np.ones((4, 5), bool))


@pytest.mark.parametrize("key", [
    np.array([True, False, True, True, False, False]),
    (slice(None), np.array([True, False, True, False, True, False, True])),
    (np.array([False, True, False, False, True, True]), slice(None, None, -1)),
    (np.array([True, False, True, False, False, False]), np.array([1, 4])),
    (1, np.array([True] * 7)),
    (Ellipsis, np.array([False] * 7)),
], ids=repr)
def test_mask_on_an_axis(key):
    check_get(H2, key)


def test_mask_3d_partial():
    m = data(np.bool_, (3, 4), seed=4)
    check_get(H3, m)
    check_get(H3, (m, slice(1, 3)))
    m2 = data(np.bool_, (4, 5), seed=5)
    check_get(H3, (slice(None), m2))


def test_mask_from_comparison():
    d = ng.asarray(H2)
    assert_same(d[d > 20], H2[H2 > 20])
    assert_same(d[(d % 3) == 0], H2[(H2 % 3) == 0])


def test_mask_errors():
    for key in [np.array([True, False, True]), np.zeros((6, 6), bool), (slice(None), np.ones(3, bool))]:
        check_get(H2, key)   # NumPy's IndexError, with its message


def test_mask_0d():
    check_get(H2, np.asarray(True))
    check_get(H2, np.asarray(False))


# ---- errors ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [6, -7, 100, (0, 7), (0, -8), (slice(None), 9), (1, 2, 3), (0, 0, 0, 0),
                                 np.array([0, 6]), np.array([-7]), (np.array([0]), np.array([7])),
                                 (Ellipsis, 1, Ellipsis)], ids=repr)
def test_index_errors(key):
    check_get(H2, key)


def test_index_error_messages():
    d = ng.asarray(H2)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        d[6]
    with pytest.raises(IndexError, match="index -8 is out of bounds for axis 1 with size 7"):
        d[0, -8]
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        d[0, 0, 0]
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 6"):
        d[[0, 9]]
    with pytest.raises(IndexError, match="an index can only have a single ellipsis"):
        d[..., 0, ...]


@pytest.mark.parametrize("key", [1.0, (0, 1.5), "a", np.array([1.0, 2.0]), (slice(None), [0.5])], ids=repr)
def test_invalid_index_types(key):
    with pytest.raises(IndexError):
        H2[key]
    with pytest.raises(IndexError):
        ng.asarray(H2)[_dev_key(key)]


def test_index_shape_mismatch():
    check_get(H2, (np.array([0, 1, 2]), np.array([0, 1])))


# ---- views and copies -----------------------------------------------------------------------------------

def test_basic_indexing_returns_views():
    h = H2.copy()
    d = ng.asarray(h)
    v = d[1:4, ::2]
    v[0, 0] = -1
    h[1:4, ::2][0, 0] = -1
    assert_same(d, h)
    row = d[2]
    row[...] = 0
    h[2] = 0
    assert_same(d, h)
    e = d[..., None]
    e[5, 6, 0] = 1000
    h[5, 6] = 1000
    assert_same(d, h)
    # and writes to the base show through the view
    d[1, 0] = 77
    h[1, 0] = 77
    assert_same(v, h[1:4, ::2])


def test_advanced_indexing_copies():
    h = H2.copy()
    d = ng.asarray(h)
    c = d[[1, 2]]
    c[...] = 0
    m = d[d > 5]
    m[...] = 0
    c2 = d[:, [0, 1]]
    c2[0, 0] = 555
    assert_same(d, H2)


# ---- setting --------------------------------------------------------------------------------------------------

SET_CASES = [
    (3, 7),
    ((1, 2), -5),
    (slice(1, 4), 0),
    ((slice(None), 2), np.arange(6, dtype=np.int32)),
    ((slice(None, None, 2), slice(None, None, -3)), 9),
    (slice(None), np.arange(7, dtype=np.int32)),                 # broadcast a row
    ((slice(None), slice(0, 1)), np.arange(6, dtype=np.int32)[:, None]),  # broadcast a column
    (Ellipsis, 1),
    ((None, 1), np.arange(7)),
    (np.array([0, 2, -1]), 3),
    (np.array([0, 2, -1]), np.arange(7, dtype=np.int32)),
    ((np.array([0, 1]), np.array([1, 2])), np.array([100, 200], dtype=np.int32)),
    ((slice(1, None), np.array([0, 2])), -3),
    ((slice(None), np.array([6, 0])), np.arange(12, dtype=np.int32).reshape(6, 2)),
    (H2 > 30, 0),
    (H2 % 2 == 0, np.arange(21, dtype=np.int32)),
    (np.array([True, False, True, False, False, True]), np.arange(7, dtype=np.int32)),
    ((slice(None), np.array([True, False] * 3 + [True])), 8),
    (slice(1, 3), np.arange(3)),                                  # shape mismatch: ValueError
    (np.array([0, 1]), np.zeros((3, 7), np.int32)),               # shape mismatch: ValueError
    (10, 1),                                                      # IndexError
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=repr)
def test_setitem(key, value):
    check_set(H2.copy(), key, value)


def test_setitem_casts_unsafely_like_numpy():
    check_set(H2.copy(), slice(None), 2.7)
    check_set(H2.copy(), 1, np.linspace(-3.5, 3.5, 7))
    check_set(np.zeros(4, np.uint8), slice(None), np.array([1, 255, 256, 3], np.int32))
    check_set(np.zeros(4, np.bool_), slice(1, 3), 5)
    check_set(np.zeros(3), slice(None), True)


def test_setitem_all_dtypes(dtype):
    h = data(dtype, (5, 4), seed=8)
    v = data(dtype, (4,), seed=9)
    check_set(h, 1, v)
    check_set(h, (slice(None), 2), v[0])
    check_set(h, np.array([0, 3]), v)
    check_set(h, h[:, 0] == h[:, 1], v[:1])


def test_setitem_with_lists_and_python_values():
    check_set(H2.copy(), 0, [1, 2, 3, 4, 5, 6, 7])
    check_set(H2.copy(), [0, 2], 1)
    check_set(H2.copy(), (0, slice(None)), np.array([[9] * 7]))  # leading 1-axes of the value broadcast away


def test_setitem_from_a_view_of_itself():
    h = np.arange(10.0)
    d = ng.asarray(h)
    d[1:] = d[:-1]
    h[1:] = h[:-1].copy()
    assert_same(d, h)
    h = np.arange(10.0)
    d = ng.asarray(h)
    d[::-1] = d
    h[::-1] = h.copy()
    assert_same(d, h)


def test_setitem_into_a_view():
    h = H3.copy()
    d = ng.asarray(h)
    v = d[1]
    v[:, ::2] = -1.0
    h[1][:, ::2] = -1.0
    assert_same(d, h)
    v[[0, 3]] = 5.0
    h[1][[0, 3]] = 5.0
    assert_same(d, h)


def test_setitem_broadcast_error():
    d = ng.asarray(H2.copy())
    with pytest.raises(ValueError):
        d[:, 1] = ng.asarray(np.arange(7))


def test_delitem():
    with pytest.raises(ValueError):
        del ng.asarray(H2)[0]


# ---- hypothesis ---------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=5), data_=st.data())
def test_hypothesis_basic_indices(shape, data_):
    h = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = data_.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    check_get(h, key)


@settings(max_examples=30, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), data_=st.data())
def test_hypothesis_basic_set(shape, data_):
    h = np.zeros(shape, dtype=np.float64)
    key = data_.draw(hnp.basic_indices(shape, allow_newaxis=False, allow_ellipsis=True))
    check_set(h, key, 1.5)
    sel = h[key]
    val = np.arange(np.size(sel), dtype=np.float64).reshape(np.shape(sel))
    check_set(h, key, val)


@settings(max_examples=30, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), data_=st.data())
def test_hypothesis_integer_array_indices(shape, data_):
    h = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    key = data_.draw(hnp.integer_array_indices(shape, result_shape=hnp.array_shapes(min_dims=1, max_dims=2,
                                                                                    max_side=4)))
    check_get(h, key)


# ---- float16 and complex values -----------------------------------------------------------------

SCALAR_KEYS = [3, (1, 2), slice(1, 4), (slice(None), 2), Ellipsis, np.array([0, 4, -1]),
               (np.array([0, 1]), np.array([1, 3])), "mask"]


@pytest.mark.parametrize("key", SCALAR_KEYS, ids=repr)
@pytest.mark.parametrize("value", [1 + 2j, -0.5j, complex(np.nan, 1), np.complex64(3 - 1j), np.complex128(2j),
                                   2.5, 7, True, np.float16(1.5), np.float32(-2.25)], ids=repr)
def test_setitem_python_and_numpy_scalars(key, value, dtype):
    # a Python complex into a complex array keeps its imaginary part on every index path (basic,
    # integer arrays, masks); into a real array it is NumPy's TypeError (float()/int() of a
    # complex), into bool its truth
    h = data(dtype, (5, 4), seed=11)
    k = h[:, 0] != h[:, 1] if isinstance(key, str) else key
    exp = h.copy()
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp[k] = value
    except (TypeError, OverflowError) as e:
        with pytest.raises(type(e)):
            d = ng.asarray(h)
            d[_dev_key(k)] = value
        return
    d = ng.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d[_dev_key(k)] = value
    assert_same(d, exp)


@pytest.mark.parametrize("dt", [np.float16, np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_get_set_nan_inf_values(dt):
    # NaN and infinite values (in either part) move through gathers and scatters bit for bit
    h = data(dt, (6, 5), seed=12)
    h.flat[::4] = np.nan
    h.flat[1::7] = -np.inf
    if np.dtype(dt).kind == "c":
        h.flat[2::5] = complex(1, np.nan)
        h.flat[3::6] = complex(-np.inf, 0.5)
    for key in (np.array([5, 0, 2]), (np.array([1, 1]), np.array([4, 0])), np.isnan(h), ~np.isfinite(h[:, 0]),
                (slice(None, None, -1), np.array([3, 1]))):
        got = check_get(h, key)
        bits = np.ascontiguousarray(got.get()).view(np.uint8)
        assert np.array_equal(bits, np.ascontiguousarray(h[key]).view(np.uint8))
    v = data(dt, (3,), seed=13)
    v[1] = np.nan
    check_set(h, (np.array([0, 2, 4]), 1), v)
    check_set(h, np.isnan(h), v[1])
    check_set(h, (slice(None), np.array([0, 4])), ng.asarray(h[:, 1:3]).get())


@pytest.mark.parametrize("dt", [np.uint8, np.int8, np.int16, np.uint32, np.int32, np.int64, np.uint64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("store", ["slice", "fancy", "mask", "tuple", "nested"])
def test_sequence_stores_range_check_python_ints(dt, store):
    # NumPy converts a list for the destination's dtype: an int beyond it raises OverflowError
    # (numgpu converted the list to int64 and cast it: [-1, 256] stored 255, 0). NumPy may have
    # stored the elements before the bad one; numgpu stores nothing then.
    info = np.iinfo(dt)
    for values in ([info.min - 1, 1, 2], [1, info.max + 1, 2], [1, 2, 3], [1.5, 2.0, -0.0]):
        outcomes = []
        for xp in (np, ng):
            b = xp.asarray(np.arange(4, dtype=dt).reshape(2, 2) if store == "nested" else np.arange(4, dtype=dt))
            key = {"slice": slice(0, 3), "fancy": [0, 1, 3], "mask": b != 2, "tuple": slice(1, 4),
                   "nested": slice(None)}[store]
            v = tuple(values) if store == "tuple" else [values[:2], values[1:]] if store == "nested" else values
            try:
                b[key] = v
                outcomes.append(("ok", np.asarray(b.get() if xp is ng else b).tolist()))
            except OverflowError as e:
                outcomes.append((str(e), None))
                if xp is ng:
                    assert b.get().ravel().tolist() == [0, 1, 2, 3], values
        assert outcomes[1] == outcomes[0], values
