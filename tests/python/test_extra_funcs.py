"""numgpu/_extra.py against NumPy: logspace/geomspace, kron, rot90, select, delete/insert, the Array
API's cumulative and unique functions, the set operations, nanquantile/nanpercentile, sinc, fix,
float_power, bitwise_not, divmod, atleast_3d/dstack, the index-array makers, vander and trim_zeros.
Every dtype NumPy takes, views (transposed, negative strides), empty and 0-d inputs, NaN and inf,
keywords and NumPy's errors; every test also checks that nothing fell back to NumPy.
"""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import (  # noqa: F401 (no_fallback: an autouse fixture)
    ALL, assert_same, both, call_both, data, dtype_id, fallback_calls, FLOATS, INTS, no_fallback,
    NUMERIC, on_device, raises_as_numpy, views
)

REAL = INTS + FLOATS


# ---- logspace, geomspace ------------------------------------------------------------------------

@pytest.mark.parametrize("ends", [(0, 3), (2.0, 3.0), (-1, 1), (np.float32(1), 2), (1, np.float16(2)),
                                  (1j, 2 + 1j), ([0, 1], [2, 3]), (np.array([[0.], [1.]]), [2, 3, 4])])
@pytest.mark.parametrize("num, endpoint", [(5, True), (4, False), (1, True), (0, True), (1, False)])
def test_logspace(ends, num, endpoint):
    for kw in ({}, {"base": 2}, {"base": np.float32(3.0)}, {"dtype": np.float32}, {"axis": -1}):
        both("logspace", *ends, num, endpoint, **kw)


def test_logspace_base_arrays_and_errors():
    both("logspace", [0, 1], [2, 3], 3, base=[2.0, 3.0], axis=-1)
    both("logspace", 0, 3, 4, base=np.array([2.0, 10.0]), axis=1)
    both("logspace", [[0], [1]], 2, 5, base=[2, 10, 3], axis=1)
    both("logspace", 0, 1, 4, base=np.array([2, 3], np.int8))
    raises_as_numpy("logspace", 0, 1, -1, match="must be non-negative")
    raises_as_numpy("logspace", 0, 1, 3, axis=1)
    raises_as_numpy("logspace", [0, 1], [2, 3, 4])
    raises_as_numpy("logspace", 0, 1, 2.5)


@pytest.mark.parametrize("ends", [(1, 1000), (1000, 1), (-1000, -1), (1j, 1000j), (-1 + 0j, 1 + 0j), (2, 3 + 4j),
                                  (np.float32(1), np.float32(100)), (np.int8(3), 50), (1e-300, 1e300),
                                  ([1, 2], [10, 20]), ([-1, 2j], [[4], [-8]]), (np.float16(1), 4)])
@pytest.mark.parametrize("num, endpoint", [(7, True), (4, False), (1, True), (0, False)])
def test_geomspace(ends, num, endpoint):
    for kw in ({}, {"dtype": np.complex64}, {"axis": -1}):
        both("geomspace", *ends, num, endpoint, **kw)


def test_geomspace_dtypes_and_errors():
    both("geomspace", 1, 256, 9, dtype=int)
    both("geomspace", 1, 256, 9, dtype=np.float32)
    both("geomspace", np.array([1., 2.]), np.array([8., 4.]), 3, axis=1)
    both("geomspace", [[1, 2], [3, 4]], 100, 5, axis=2)
    for ends in ((0, 10), (1, 0), ([1, 0], 5), (np.array([1.0, 2.0]), np.array([3.0, 0.0]))):
        raises_as_numpy("geomspace", *ends, match="cannot include zero")
    raises_as_numpy("geomspace", 1, 10, -2)
    raises_as_numpy("geomspace", 1, 10, 3, axis=2)


# ---- kron, rot90, select --------------------------------------------------------------------------

@pytest.mark.parametrize("da", ALL, ids=dtype_id)
def test_kron_dtypes(da):
    a = data(da, (2, 3))
    for b in (data(np.int8, (3, 2), seed=1), data(np.float32, (2,), seed=2), data(np.complex64, (1, 2, 2), seed=3),
              data(np.bool_, (2, 2), seed=4)):
        both("kron", a, b)
        both("kron", b, a)


def test_kron_shapes_views_and_scalars():
    x = data(np.float64, (3, 4))
    for v in views(x):
        both("kron", v, x[:2, :2].T)
        both("kron", x[::-1, 1], v)
    both("kron", 3, x)
    both("kron", x, np.float32(2))
    both("kron", 2.0, 3)
    both("kron", np.zeros((0, 3)), x)
    both("kron", [1, 2], [[1], [2]])
    both("kron", data(np.int16, (2, 1, 3)), data(np.int64, (4,)))


@pytest.mark.parametrize("dt", [np.bool_, np.int32, np.float32, np.complex128], ids=dtype_id)
def test_rot90(dt):
    x = data(dt, (3, 4, 2))
    for v in (x, x.transpose(1, 0, 2), x[::-1, :, ::-1], x[:, :0]):
        for k in range(-5, 6):
            for axes in ((0, 1), (1, 0), (1, 2), (-1, 0), (2, -3)):
                both("rot90", v, k, axes)
    both("rot90", x[0].tolist())


def test_rot90_is_a_view_and_errors():
    x = np.arange(12.0).reshape(3, 4)
    g = ng.asarray(x)
    for k in range(4):
        r = ng.rot90(g, k)
        r[0, 0] = -1 - k          # the write reaches g, as NumPy's view reaches x
        np.rot90(x, k)[0, 0] = -1 - k
    assert_same(g, x)
    for args in ((x, 1, (0,)), (x, 1, (0, 1, 2)), (x, 1, (1, 1)), (x, 1, (0, -2)), (x, 1, (0, 2)),
                 (x, 1, (-3, 1)), (np.arange(3), 1)):
        raises_as_numpy("rot90", *args)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_select_dtypes(dt):
    x = data(dt, (4, 5))
    c1, c2 = data(np.bool_, (4, 5), seed=1), data(np.bool_, (5,), seed=2)
    for default in (0, 1.5, 2j, np.float32(7), np.array([1, 2, 3, 4, 5], np.int8)):
        np_res = np.select([c1, c2], [x, x[::-1]], default)
        assert_same(ng.select([ng.asarray(c1), ng.asarray(c2)], [ng.asarray(x), ng.asarray(x[::-1])], default), np_res)


def test_select_broadcasting_scalars_and_errors():
    x = np.arange(10.0)
    both("select", [x < 3, x > 5], [x, x ** 2], 42)
    both("select", [x < 3, x > 5], [1, 2.5])
    both("select", [np.array(True), x > 5], [x.reshape(2, 5), 7], -1)
    both("select", [(x > 2).reshape(10, 1), x < 8], [x, 3j])
    both("select", [x[:0] > 1], [x[:0]])
    both("select", [[True, False], [False, True]], [[1, 2], [3, 4]], 0)
    raises_as_numpy("select", [x > 1], [x, x], match="same length")
    raises_as_numpy("select", [], [], match="empty condition list")
    raises_as_numpy("select", [x, x > 1], [x, x], match="invalid entry 0 in condlist")
    raises_as_numpy("select", [x > 1, x.astype(int)], [x, x], match="invalid entry 1")
    raises_as_numpy("select", [x > 1], [x.reshape(2, 5)])


# ---- delete, insert --------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_delete(dt):
    x = data(dt, (4, 6))
    for v in (x, x.T, x[::-1, ::-2]):
        for obj in (0, -1, 2, np.int8(1), slice(None, None, 2), slice(3, 0, -1), slice(1, 4), slice(5, 1),
                    [0, 2], [-1, 0, 0], np.array([3]), np.array([], int), [], [True, False, True, False],
                    np.array([True] * 4), np.array([[0, 1], [1, 2]])):
            for axis in (None, 0, -1):
                both("delete", v, obj, axis)


def test_delete_errors_and_scalars():
    x = np.arange(12).reshape(3, 4)
    both("delete", 5, [], None)
    both("delete", [1, 2, 3], 1)
    both("delete", x, np.array([1], np.uint8), 1)
    for obj, axis in ((3, 0), (-4, 0), (12, None), ([0, 5], 0), ([True, False], 0),
                      (np.array([[True] * 4] * 3), 1), ([1.0], 0), (np.array([0.5, 1]), 1), (0, 2), (0, -3)):
        raises_as_numpy("delete", x, obj, axis)
    e = raises_as_numpy("delete", x, 3, 0)
    assert str(e) == "index 3 is out of bounds for axis 0 with size 3"


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_insert(dt):
    x = data(dt, (3, 4))
    vals = data(dt, (3,), seed=1)
    for v in (x, x.T[:3], x[::-1, ::-1]):
        for obj, values, axis in ((1, vals[0], None), (0, vals, 0), (4, vals, 1), (-1, vals[:1], 1), ([1], vals, 1),
                                  (np.array([2]), vals[:1], 1), ([0, 2, 2], vals, 1), ([-1, 0], vals[:2], 0),
                                  (slice(None, None, 2), vals[:1], 1), (slice(0, 3), vals, 0), ([], vals[:0], 1),
                                  (np.array([True, False, True]), vals[:2], 0), (2, [[1], [2], [3]], 1), (1, 7, 0)):
            both("insert", v, obj, values, axis)


def test_insert_casts_and_errors():
    x = np.arange(6).reshape(2, 3)
    both("insert", x, 1, 2.7, 1)                    # values cast to x's dtype
    both("insert", x.astype(np.float32), [0, 3], np.array([1.5, 2.5]), 1)
    both("insert", np.arange(4.0), 2, [9, 8, 7])
    both("insert", 5.0, 0, 1)
    both("insert", [1, 2, 3], [3, 0], [8, 9])
    for obj, values, axis in ((4, 1, 1), (-4, 1, 1), (7, 1, None), ([0, 9], 1, 1), (np.array([[0, 1]]), 1, 1),
                              (np.array([[True, False]]), 1, 0), (1, [1, 2, 3], 1), ([0, 1], [1, 2, 3], 1), (0, 1, 2),
                              ([0.5, 1], 1, 1), (0.5, 1, 1)):
        raises_as_numpy("insert", x, obj, values, axis)


# ---- cumulative_sum, cumulative_prod -------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(dt, name):
    x = data(dt, (3, 5), kind="unit" if name == "cumulative_prod" else "any")
    for v in (x, x.T, x[::-1, ::-2]):
        for axis in (0, 1, -1):
            for initial in (False, True):
                both(name, v, axis=axis, include_initial=initial)
        both(name, v[0], include_initial=True)
        both(name, v[:, 0], dtype=np.float64)
    both(name, x[0, 0])
    both(name, x[0, 0], include_initial=True)
    both(name, x[:0], axis=0, include_initial=True)
    both(name, x[:, :0], axis=1)


def test_cumulative_out_and_errors():
    x = np.arange(1, 7).reshape(2, 3)
    for name in ("cumulative_sum", "cumulative_prod"):
        for initial, shape in ((False, (2, 3)), (True, (2, 4))):
            out = ng.zeros(shape, np.int64)
            assert getattr(ng, name)(ng.asarray(x), axis=1, out=out, include_initial=initial) is out
            assert_same(out, getattr(np, name)(x, axis=1, include_initial=initial))
        raises_as_numpy(name, x, match="axis`` argument is required")
        raises_as_numpy(name, x, axis=2)
        raises_as_numpy(name, np.arange(3), axis=-2)


# ---- unique_* ------------------------------------------------------------------------------------

def _unique_reference(x):
    """NumPy's unique_all, values sorted as numgpu's (NumPy's unique with equal_nan=False)."""
    return np.unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_unique_functions(dt):
    x = data(dt, (4, 9), kind="small")
    x[1] = x[0]
    if np.dtype(dt).kind in "fc":
        x[2, ::3] = np.nan
        x[3, 1] = np.inf
        x[3, 2] = -np.inf
        if np.dtype(dt).kind == "c":
            x[3, 4] = complex(1, np.nan)
    for v in (x, x.T, x[::-1, ::-2], x[:0], x[1, 1]):
        values, indices, inverse, counts = _unique_reference(v)
        g = ng.asarray(v)
        r = ng.unique_all(g)
        assert type(r).__name__ == "UniqueAllResult" and r._fields == ("values", "indices", "inverse_indices", "counts")
        assert_same(tuple(r), (values, indices, inverse.reshape(v.shape), counts))
        assert_same(tuple(ng.unique_counts(g)), tuple(np.unique_counts(v)))
        # NumPy's unsorted NaNs (a quicksort without return_index) may map to either NaN slot
        got, want = ng.unique_inverse(g), np.unique_inverse(v)
        assert_same(got.values, want.values)
        real = ~np.isnan(v)
        assert_same(got.inverse_indices[ng.asarray(real)], want.inverse_indices[real])
        assert_same(got.values[got.inverse_indices], v)
        assert_same(ng.unique_values(g), values)
        assert_same(ng.unique_values(g), np.sort(np.unique_values(v)))
    assert ng.unique_inverse(ng.asarray(x)).inverse_indices.shape == x.shape


def test_unique_from_lists_and_scalars():
    assert_same(ng.unique_values([3, 1, 3, np.nan, np.nan]), np.unique([3, 1, 3, np.nan, np.nan], equal_nan=False))
    assert_same(tuple(ng.unique_all(3.5)), tuple(np.unique_all(3.5)))
    assert_same(tuple(ng.unique_counts([True, False, True])), tuple(np.unique_counts([True, False, True])))


# ---- set operations --------------------------------------------------------------------------------

def _sets(dt):
    a = data(dt, (30,), kind="small")
    b = data(dt, (20,), seed=5, kind="small")
    if np.dtype(dt).kind in "fc":
        a[::7] = np.nan
        b[::5] = np.nan
        a[3] = np.inf
    return [(a, b), (a.reshape(5, 6).T, b[::-1]), (a, b[:0]), (a[:0], b), (a[:1], b[:1])]


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_set_operations(dt):
    for a, b in _sets(dt):
        for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
            both(name, a, b)
        both("intersect1d", a, b, return_indices=True)
        ua, ub = np.unique(a), np.unique(b)
        for name in ("intersect1d", "setdiff1d", "setxor1d"):
            both(name, ua, ub, assume_unique=True)
            both(name, ua[::-1], ub, assume_unique=True)
        both("intersect1d", ua[::-1], ub, assume_unique=True, return_indices=True)


def test_set_operations_mixed_inputs():
    a = np.array([5, 1, 3, 3, 7], np.int16)
    b = np.array([3.0, 7.5, 1.0, np.nan])
    for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        both(name, a, b)
        both(name, b, a)
        both(name, [1, 2, 2], [2, 3])
        both(name, a, np.int16(3))
        both(name, [[1, 2], [5, 3]], np.array([[3, 9]], np.uint8))
    both("intersect1d", a, 3)
    both("setdiff1d", a, 3)
    both("intersect1d", a, b, return_indices=True)
    both("intersect1d", [True, False], [True], return_indices=True)


# ---- nanquantile, nanpercentile ---------------------------------------------------------------------

def _with_nans(x, seed=0):
    x = x.copy()
    rng = np.random.default_rng(seed)
    x[rng.random(x.shape) < 0.3] = np.nan
    return x


@pytest.mark.parametrize("dt", REAL, ids=dtype_id)
@pytest.mark.parametrize("name", ["nanquantile", "nanpercentile"])
def test_nanquantile(dt, name):
    x = data(dt, (5, 7))
    if np.dtype(dt).kind == "f":
        x = _with_nans(x)
        x[0, 1], x[2, 3] = np.inf, -np.inf
    scale = 100 if name == "nanpercentile" else 1
    for v in (x, x.T, x[::-1, ::-2]):
        for q in (0.5, 0, 1, [0.1, 0.5, 1.0], np.array([[0.25], [0.75]]), np.array([0.3, 0.9], np.float32),
                  [0, 1], np.float32(0.4)):
            q = np.multiply(q, scale) if not isinstance(q, (int, float)) else q * scale
            for axis in (None, 0, 1, -1, (0, 1)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    both(name, v, q, axis=axis)
                    both(name, v, q, axis=axis, keepdims=True)


def test_nanquantile_all_nan_slices():
    x = np.array([[np.nan, np.nan, np.nan], [1.0, np.nan, 3.0], [np.nan, 5.0, np.nan]], np.float32)
    for v, axis in ((x, 1), (x, 0), (x[::-1], 1), (x[1:], 1), (x[:, :1], None), (x[0], None), (x[0], 0),
                    (x.T, 0), (x.T, 1), (x[:, [1, 0, 2]], 0)):
        for q in (0.5, [0.2, 0.8], np.array([0.5], np.float32)):
            with warnings.catch_warnings(record=True) as want_warned:
                warnings.simplefilter("always")
                want = np.nanquantile(v, q, axis=axis)
            with warnings.catch_warnings(record=True) as got_warned:
                warnings.simplefilter("always")
                got = ng.nanquantile(ng.asarray(v), q, axis=axis)
            assert_same(got, want)
            assert bool(got_warned) == bool(want_warned)
            assert all("All-NaN slice encountered" in str(w.message) for w in got_warned + want_warned)


def test_nanquantile_out_empty_and_errors():
    x = _with_nans(data(np.float64, (4, 6)))
    out = ng.zeros((2, 6))
    assert ng.nanpercentile(ng.asarray(x), [25, 75], axis=0, out=out) is out
    assert_same(out, np.nanpercentile(x, [25, 75], axis=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        both("nanquantile", x[:0], 0.5)
        both("nanquantile", x[:0], 0.5, axis=0)
    both("nanquantile", [1, np.nan, 3], 0.5)
    both("nanpercentile", 4.0, 50)
    raises_as_numpy("nanquantile", x, 1.5, match="Quantiles must be in the range")
    raises_as_numpy("nanquantile", x, [0.5, -0.1], match="Quantiles must be in the range")
    raises_as_numpy("nanpercentile", x, 101, match="Percentiles must be in the range")
    raises_as_numpy("nanpercentile", x, np.nan)
    raises_as_numpy("nanquantile", x.astype(complex), 0.5, match="real numbers")
    raises_as_numpy("nanquantile", x, 0.5, axis=2)


def test_fallback_of_other_quantile_methods():
    """method='lower' (and weights) are NumPy's: the call falls back, counted."""
    x = _with_nans(data(np.float64, (4, 6)))
    prev = _fallback.set_mode("silent")
    try:
        before = fallback_calls().get("numpy.nanquantile", 0)
        assert_same(ng.nanquantile(ng.asarray(x), 0.3, method="lower"), np.nanquantile(x, 0.3, method="lower"))
        assert fallback_calls()["numpy.nanquantile"] == before + 1
    finally:
        _fallback.set_mode(prev)


# ---- sinc, fix, float_power, bitwise_not, divmod ------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_sinc_and_fix(dt):
    x = data(dt, (6, 5), kind="unit" if np.dtype(dt).kind == "f" else "any")
    if np.dtype(dt).kind in "fc":
        x.flat[:6] = [0, np.nan, np.inf, -np.inf, -0.0, 0.5]
    for v in (x, x.T, x[::-1, ::-2], x[:0], x[0, 0]):
        both("sinc", v, rtol=1e-3 if dt == np.float16 else 1e-5 if np.dtype(dt).itemsize <= 8 else None)
        both("fix", v)
    both("sinc", 0.5)
    both("fix", -2.5)


def test_fix_out():
    x = np.array([-2.7, -0.5, 0.5, 2.7])
    out = ng.zeros(4)
    assert ng.fix(ng.asarray(x), out=out) is out
    assert_same(out, np.fix(x))


@pytest.mark.parametrize("da", ALL, ids=dtype_id)
def test_float_power(da):
    a = data(da, (4, 5), kind="positive")
    for b in (data(np.int8, (5,), kind="small"), data(np.float32, (4, 1), kind="unit"), 2, -1.5, 0.5j,
              data(np.complex64, (5,), kind="unit")):
        both("float_power", a, b)
        both("float_power", a.T, b if np.ndim(b) != 2 else b.T)


def test_float_power_keywords_and_errors():
    a, b = np.array([1, 2, 4]), np.array([-1, 2, 3])
    both("float_power", a, b)
    both("float_power", 2, 3)
    out = ng.full(3, -1.0)
    assert ng.float_power(ng.asarray(a), ng.asarray(b), out=out, where=ng.asarray(b > 0)) is out
    assert_same(out, np.float_power(a, b, out=np.full(3, -1.0), where=b > 0))
    both("float_power", a, b, dtype=np.complex128)
    assert isinstance(ng.float_power, ng.ufunc) and ng.float_power.nout == 1
    out = ng.zeros(3, np.float32)
    assert ng.float_power(ng.asarray(a), ng.asarray(b), out=out) is out
    assert_same(out, np.float_power(a, b, out=np.zeros(3, np.float32)))
    raises_as_numpy("float_power", a, b, out=ng.zeros(3, np.int64))


def test_type_errors_of_float_power_and_divmod_are_numpys():
    """A TypeError of float_power's or divmod's device call (no loop for the dtypes) hands the call
    to NumPy's ufunc, as every numgpu ufunc standing in for a host one does: NumPy's own error
    (a failed fallback counts no call)."""
    prev = _fallback.set_mode("silent")
    try:
        raises_as_numpy("float_power", np.arange(3), 2, dtype=np.float32, match="No loop matching")
        raises_as_numpy("divmod", np.array([1 + 1j]), 2)
    finally:
        _fallback.set_mode(prev)


@pytest.mark.parametrize("dt", [np.bool_] + INTS, ids=dtype_id)
def test_bitwise_not(dt):
    x = data(dt, (4, 6))
    assert ng.bitwise_not is ng.invert
    for v in (x, x.T, x[::-1], x[:0], x[0, 0]):
        both("bitwise_not", v)


def test_bitwise_not_rejects_floats():
    raises_as_numpy("bitwise_not", np.array([1.0, 2.0]))


@pytest.mark.parametrize("dt", NUMERIC, ids=dtype_id)
def test_divmod(dt):
    x = data(dt, (4, 6))
    y = data(dt, (6,), seed=2, kind="nonzero")
    for v in (x, x[::-1], x[:, ::-2]):
        both("divmod", v, y[: v.shape[-1]])
        both("divmod", v, 7)
        both("divmod", 100, y)
    if np.dtype(dt).kind == "f":
        z = np.array([1.0, -1.0, np.inf, np.nan, 0.0, -0.0], dt)
        with np.errstate(all="ignore"):
            both("divmod", z, np.array([0.0, np.inf, 2.0, 1.0, -3.0, 0.0], dt))
    elif np.dtype(dt).kind in "iu":
        with np.errstate(all="ignore"):
            both("divmod", x, np.zeros(6, dt))


def test_divmod_out_and_errors():
    x, y = np.array([7, -7, 9]), np.array([2, 2, -4])
    q, r = ng.zeros(3, np.int64), ng.zeros(3, np.int64)
    got = ng.divmod(ng.asarray(x), ng.asarray(y), out=(q, r))
    assert got[0] is q and got[1] is r
    assert_same(got, np.divmod(x, y))
    assert isinstance(ng.divmod, ng.ufunc) and ng.divmod.nout == 2
    raises_as_numpy("divmod", x, y, out=(np.zeros(3, np.int64),), match="one entry per ufunc output")
    raises_as_numpy("divmod", x, np.array([1.0, 2.0]))


# ---- atleast_3d, dstack --------------------------------------------------------------------------

@pytest.mark.parametrize("dt", [np.bool_, np.uint8, np.float32, np.complex128], ids=dtype_id)
def test_atleast_3d_and_dstack(dt):
    x = data(dt, (3, 4))
    for v in (x[0, 0], x[0], x, x.T, x[::-1, ::-2], x.reshape(3, 2, 2), x[:0]):
        both("atleast_3d", v)
    both("atleast_3d", x, x[0], 5)
    both("atleast_3d")
    for tup in ((x, x), (x[0], x[1]), (x[:, :1], x[:, 1:3].T.T), (x.reshape(3, 4, 1), x), (3, 4), (x,)):
        both("dstack", tup)
    raises_as_numpy("dstack", (x, x[:2]))
    raises_as_numpy("dstack", ())


def test_atleast_3d_views():
    x = np.arange(6.0).reshape(2, 3)
    g = ng.asarray(x)
    for v, w in ((ng.atleast_3d(g), np.atleast_3d(x)), (ng.atleast_3d(g[0]), np.atleast_3d(x[0])),
                 (ng.atleast_3d(g.T), np.atleast_3d(x.T))):
        v[0, 1, 0] = -7
        w[0, 1, 0] = -7
    assert_same(g, x)


# ---- index arrays, vander, trim_zeros --------------------------------------------------------------------

def test_tri_indices():
    for n, k, m in ((4, 0, None), (4, 1, None), (4, -2, None), (3, 0, 5), (5, 2, 2), (3, 10, None), (3, -10, 4),
                    (0, 0, None), (1, 0, 0)):
        both("tril_indices", n, k, m)
        both("triu_indices", n, k, m)
    x = np.arange(20.0).reshape(4, 5)
    g = ng.asarray(x)
    for k in (-1, 0, 2):
        for name in ("tril_indices_from", "triu_indices_from"):
            both(name, x, k)
            assert_same(g[getattr(ng, name)(g, k)], x[getattr(np, name)(x, k)])
        raises_as_numpy("tril_indices_from", np.arange(3), k)
        raises_as_numpy("triu_indices_from", np.zeros((2, 2, 2)), k)


def test_indices_and_diag_indices():
    for dims in ((2, 3), (4,), (2, 0, 3), (), (1, 2, 3)):
        for dt in (int, np.int8, np.float32, np.uint16):
            both("indices", dims, dt)
            both("indices", dims, dt, sparse=True)
    both("indices", [3, 2])
    raises_as_numpy("indices", 3)
    for n, nd in ((3, 2), (4, 3), (0, 2), (1, 1)):
        both("diag_indices", n, nd)
    x = np.arange(27).reshape(3, 3, 3)
    both("diag_indices_from", x)
    assert_same(ng.asarray(x)[ng.diag_indices_from(ng.asarray(x))], x[np.diag_indices_from(x)])
    raises_as_numpy("diag_indices_from", np.arange(3), match="at least 2-d")
    raises_as_numpy("diag_indices_from", np.zeros((2, 3)), match="equal length")


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_vander(dt):
    x = data(dt, (5,), kind="small")
    for v in (x, x[::-2], x[:0]):
        for N in (None, 0, 1, 3, 6):
            for increasing in (False, True):
                both("vander", v, N, increasing)
    both("vander", [1, 2, 3])
    raises_as_numpy("vander", x.reshape(5, 1), match="one-dimensional")
    raises_as_numpy("vander", x[0])


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_trim_zeros(dt):
    x = np.zeros((5, 6), dt)
    x[1:4, 2] = data(dt, (3,), kind="nonzero")
    x[2, 4] = data(dt, (1,), kind="nonzero")[0]
    if np.dtype(dt).kind in "fc":
        x[3, 1] = np.nan           # (NaN is not zero)
    for v in (x, x.T, x[::-1, ::-1], x[0], x[:, 2], np.zeros((3, 2), dt), x[:0]):
        for trim in ("fb", "f", "b", "BF"):
            for axis in (None, 0, -1, (0, 1), ()) if v.ndim == 2 else (None, 0):
                both("trim_zeros", v, trim, axis)


def test_trim_zeros_views_lists_and_errors():
    x = np.array([0, 0, 3, 0, 4, 0])
    g = ng.asarray(x)
    r = ng.trim_zeros(g)
    r[0] = 9              # a view
    assert int(g[2]) == 9
    got = ng.trim_zeros([0, 0, 1, 2, 0])
    assert got == np.trim_zeros([0, 0, 1, 2, 0]) and type(got) is list
    assert_same(ng.trim_zeros(np.array(5)), np.trim_zeros(np.array(5)))
    raises_as_numpy("trim_zeros", x, "fx", match="unexpected character")
    raises_as_numpy("trim_zeros", x.reshape(2, 3), "fb", 2)
    raises_as_numpy("trim_zeros", x.reshape(2, 3), "fb", (0, 0))
    raises_as_numpy("trim_zeros", [[0, 1], [0, 0]])


@pytest.mark.parametrize("k", [-1.5, -0.5, 0.5, 1.5, 2.7, -3, 2])
def test_triangles_of_float_k_as_numpys(k):
    """A float k reaches NumPy's integer arange (arange(-0.5, 3.5, dtype=int) is all zeros), so
    tri, tril_indices and triu_indices follow its truncation exactly."""
    assert_same(ng.tri(4, 5, k=k), np.tri(4, 5, k=k))
    for name in ("tril_indices", "triu_indices"):
        for got, want in zip(getattr(ng, name)(4, k=k, m=6), getattr(np, name)(4, k=k, m=6)):
            assert_same(got, want)
