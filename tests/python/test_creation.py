"""Creation and conversion: asarray/array, zeros/ones/empty/full (and *_like),
arange, linspace, eye, identity; downloads (.get, asnumpy, __array__), Python
conversions (tolist, item, float/int/bool/index), len, iteration, repr/str
and the array attributes. NumPy is the oracle throughout."""
import operator
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, COMPLEX, FLOATS, INTS, assert_same, data, dtype_id


def complex_warnings(fn, *args, **kwargs):
    """fn's result and how many ComplexWarnings it gave (every warning recorded)."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        r = fn(*args, **kwargs)
    return r, sum(issubclass(w.category, np.exceptions.ComplexWarning) for w in got)


# ---- asarray / array from NumPy arrays -----------------------------------------

def _layouts(dt):
    base = data(dt, (6, 8), seed=3)
    return {
        "contiguous": base,
        "strided": base[::2, 1::3],
        "negative": base[::-1, ::-2],
        "transposed": base.T,
        "zero_d": np.asarray(base[2, 3]),
        "empty": base[:0],
        "empty_2": np.zeros((3, 0, 2), dt),
        "one_d": base[1],
    }


@pytest.mark.parametrize("layout", list(_layouts(np.int8)))
def test_asarray_from_numpy(dtype, layout):
    src = _layouts(dtype)[layout]
    keep = src.copy()
    a = ng.asarray(src)
    assert isinstance(a, ng.ndarray)
    assert a.shape == src.shape and a.dtype == src.dtype and a.ndim == src.ndim and a.size == src.size
    assert_same(a, np.asarray(src))
    np.testing.assert_array_equal(src, keep)  # the source is untouched


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_array_copies(dt):
    src = data(dt, (5,), seed=1)
    a = ng.array(src)
    src[0] = src[1]  # changing the host array afterwards does not reach the device copy
    assert_same(a, data(dt, (5,), seed=1))


def test_asarray_dtype_argument():
    src = np.arange(5, dtype=np.int32)
    for dt in ALL:
        assert_same(ng.asarray(src, dtype=dt), np.asarray(src, dtype=dt))
        assert_same(ng.array([1, 2, 3], dtype=dt), np.array([1, 2, 3], dtype=dt))


def test_asarray_of_numgpu_array_is_same_data():
    a = ng.asarray(np.arange(4.0))
    b = ng.asarray(a)
    b[0] = 42.0
    assert a[0].item() == 42.0
    c = ng.array(a)  # array() copies
    c[1] = -1.0
    assert a[1].item() == 1.0


@pytest.mark.parametrize("obj", [
    [1, 2, 3],
    [1.5, 2, 3],
    [True, False],
    [[1, 2], [3, 4], [5, 6]],
    [[1.0], [2.0]],
    [],
    [[], []],
    [1, 2.5, True],
    [2**63 - 1, 0],
    [2**64 - 1],
    [1j, 2],
    [1 + 2j, 3.5, True],
    [[1j], [-2.5 - 0.5j]],
    [complex("nan+infj"), -0j],
    [np.complex64(1 + 1j), np.complex64(2)],
    [np.float16(1.5), np.float16(-2)],
    [np.float16(1.5), 2.5],
    [np.complex64(1j), 2.5],
], ids=repr)
def test_asarray_from_lists(obj):
    assert_same(ng.asarray(obj), np.asarray(obj))
    assert_same(ng.array(obj), np.array(obj))


@pytest.mark.parametrize("obj", [0, 7, -3, 2**40, 1.5, -0.0, float("nan"), float("inf"), True, False,
                                 np.int8(-5), np.uint16(9), np.float32(2.5), 1j, -2.5 + 3j,
                                 complex("inf-nanj"), np.complex64(1 - 2j), np.complex128(3j),
                                 np.float16(2), np.float16(-0.0)], ids=repr)
def test_asarray_from_scalars(obj):
    assert_same(ng.asarray(obj), np.asarray(obj))


def test_asarray_nested_tuples():
    assert_same(ng.asarray(((1, 2), (3, 4))), np.asarray(((1, 2), (3, 4))))


@pytest.mark.parametrize("src", [np.array(["a", "b"]), np.array([b"a"]), np.array([1, None], dtype=object),
                                 np.array(["2024-01-01"], dtype="datetime64[D]"), np.array([1], "timedelta64[s]"),
                                 np.zeros(3, np.longdouble), np.zeros(3, np.clongdouble), np.longdouble(1),
                                 np.zeros(2, dtype="i4,f8")], ids=lambda a: np.asarray(a).dtype.str)
def test_asarray_unsupported_dtype_runs_numpys(src):
    # No device arrays of these dtypes: the C core says so (a TypeError); numgpu.asarray is
    # NumPy's, on the host, through the fallback (tests/python/test_host_dtypes.py: the rest)
    with pytest.raises(ng.UnsupportedDtypeError, match="numgpu does not support"):
        ng._core.asarray(src, None, False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ng._fallback.FallbackWarning)
        got = ng.asarray(src)
    assert type(got) is np.ndarray and got.dtype == np.asarray(src).dtype
    np.testing.assert_array_equal(got, np.asarray(src))


@pytest.mark.parametrize("dt", ["U1", object, "datetime64[s]", np.longdouble, np.clongdouble], ids=str)
def test_unsupported_dtype_argument_runs_numpys(dt):
    prev = ng._fallback.set_mode("error")
    try:
        with pytest.raises(ng._fallback.FallbackError, match="numpy.zeros cannot run on the device here "
                                                             r"\(numgpu does not support dtype"):
            ng.zeros(3, dtype=dt)
        with pytest.raises(ng._fallback.FallbackError, match="numgpu does not support"):
            ng.asarray([1, 2], dtype=dt)
    finally:
        ng._fallback.set_mode(prev)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ng._fallback.FallbackWarning)
        for got, want in ((ng.zeros(3, dtype=dt), np.zeros(3, dtype=dt)),
                          (ng.asarray([1, 2], dtype=dt), np.asarray([1, 2], dtype=dt))):
            assert type(got) is np.ndarray and got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


# ---- constant-filled arrays -----------------------------------------------------

SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("fn", ["zeros", "ones"])
def test_zeros_ones(fn, shape, dtype):
    assert_same(getattr(ng, fn)(shape, dtype=dtype), getattr(np, fn)(shape, dtype=dtype))


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_default_dtype_and_int_shape(fn):
    a = getattr(ng, fn)(4)
    assert a.shape == (4,) and a.dtype == np.float64
    a = getattr(ng, fn)((2, 3))
    assert a.shape == (2, 3) and a.dtype == np.float64


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_empty_shape_only(shape, dtype):
    a = ng.empty(shape, dtype=dtype)
    e = np.empty(shape, dtype=dtype)
    assert isinstance(a, ng.ndarray)
    assert a.shape == e.shape and a.dtype == e.dtype and a.size == e.size and a.nbytes == e.nbytes


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("value", [0, 1, -1, 7, 2.5, -0.5, True, False, float("nan"), float("inf"), 1 + 2j, -0.5j,
                                   complex("nan+1j"), np.complex64(1 - 1j), np.float16(2.5), np.complex128(3)],
                         ids=repr)
def test_full_value_default_dtype(value):
    assert_same(ng.full((2, 3), value), np.full((2, 3), value))
    assert_same(ng.full_like(ng.zeros(4, np.int8), value), np.full_like(np.zeros(4, np.int8), value))


@pytest.mark.parametrize("value", [1.5 + 2j, -3j, 0j, np.complex64(2.5 - 1j)], ids=repr)
def test_full_complex_value_into_every_dtype(value, dtype):
    """A complex fill value into a real dtype: NumPy's unsafe cast (real part; bool: nonzero),
    with one ComplexWarning except into bool (a nonzero test, silent)."""
    exp, nexp = complex_warnings(np.full, (3, 2), value, dtype=dtype)
    got, ngot = complex_warnings(ng.full, (3, 2), value, dtype=dtype)
    assert_same(got, exp)
    assert ngot == nexp == (1 if np.dtype(dtype).kind in "iuf" else 0)
    src = np.zeros(4, dtype)
    exp, nexp = complex_warnings(np.full_like, src, value)
    got, ngot = complex_warnings(ng.full_like, ng.asarray(src), value)
    assert_same(got, exp)
    assert ngot == nexp


@pytest.mark.parametrize("value", [0, 1, 3, True], ids=repr)
def test_full_with_dtype(value, dtype):
    assert_same(ng.full((3, 2), value, dtype=dtype), np.full((3, 2), value, dtype=dtype))


def test_full_float_into_int_dtype():
    assert_same(ng.full((3,), 2.7, dtype=np.int32), np.full((3,), 2.7, dtype=np.int32))
    assert_same(ng.full((3,), -1, dtype=np.float32), np.full((3,), -1, dtype=np.float32))


def test_full_array_fill_value():
    row = np.arange(3, dtype=np.int16)
    assert_same(ng.full((2, 3), ng.asarray(row)), np.full((2, 3), row))


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.complex64, np.bool_, np.float16])
def test_large_zeros_fresh_and_reused_blocks(dtype):
    # on cpu a fresh block of 1 MiB or more is the OS's zeroed pages and zeros() skips its fill; a
    # block the pool hands out again (written before) must still be filled, and -0.0 is not zero
    shape = (700, 800)
    for _ in range(3):
        z = ng.zeros(shape, dtype)
        assert_same(z, np.zeros(shape, dtype))
        z[...] = 1 if dtype != np.bool_ else True   # (its block, written, goes back to the pool)
        del z
        assert_same(ng.zeros_like(ng.empty(shape, dtype)), np.zeros(shape, dtype))
    if np.dtype(dtype).kind in "fc":
        got = ng.full(shape, -0.0, dtype).get()
        assert np.signbit(got.real).all()


@pytest.mark.parametrize("fn", ["zeros_like", "ones_like"])
def test_zeros_ones_like(fn, dtype):
    src = data(dtype, (3, 4))
    assert_same(getattr(ng, fn)(ng.asarray(src)), getattr(np, fn)(src))
    assert_same(getattr(ng, fn)(ng.asarray(src), dtype=np.float32), getattr(np, fn)(src, dtype=np.float32))


def test_full_like_and_empty_like(dtype):
    src = data(dtype, (2, 5))
    assert_same(ng.full_like(ng.asarray(src), 1), np.full_like(src, 1))
    e = ng.empty_like(ng.asarray(src))
    assert e.shape == src.shape and e.dtype == src.dtype
    e = ng.empty_like(ng.asarray(src), dtype=np.int16)
    assert e.shape == src.shape and e.dtype == np.int16


def test_like_of_views():
    src = np.arange(24.0).reshape(4, 6)[::2, ::-3]
    assert_same(ng.zeros_like(ng.asarray(src)), np.zeros_like(src))
    assert_same(ng.full_like(ng.asarray(src), 2.5), np.full_like(src, 2.5))
    assert_same(ng.full_like(ng.asarray(src), 2.5, dtype=np.int8), np.full_like(src, 2.5, dtype=np.int8))


# ---- ranges -----------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    (5,), (0,), (-3,), (2, 9), (9, 2), (1, 10, 3), (10, 1, -3), (10, -10, -1), (-5, 5, 2), (0, 1, 5),
], ids=str)
def test_arange_int(args):
    assert_same(ng.arange(*args), np.arange(*args))


@pytest.mark.parametrize("args", [
    (5.0,), (0.5, 3), (0, 1, 0.1), (1, 0, -0.25), (-2.5, 2.5, 0.5), (0, 10, 3.0), (3, 1.5, -0.5), (0.0, 0.95, 0.1),
], ids=str)
def test_arange_float(args):
    assert_same(ng.arange(*args), np.arange(*args))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int32, np.uint64, np.float16, np.float32, np.float64,
                                np.complex64, np.complex128], ids=dtype_id)
def test_arange_dtype(dt):
    assert_same(ng.arange(0, 20, 3, dtype=dt), np.arange(0, 20, 3, dtype=dt))
    assert_same(ng.arange(5, dtype=dt), np.arange(5, dtype=dt))
    assert_same(ng.arange(0.5, 5, 1.5, dtype=dt), np.arange(0.5, 5, 1.5, dtype=dt))


def test_arange_values_are_numpys_fill():
    """NumPy fills start + i*delta with delta = dtype(start + step) - dtype(start): bit for bit."""
    for args in [(0.5, 3.3, 0.1), (0.1, 7.0, 0.3), (-1.7, 2.2, 0.13), (1e8 + 0.3, 1e8 + 5, 0.7)]:
        np.testing.assert_array_equal(ng.arange(*args).get(), np.arange(*args))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("args", [(0, 3 + 1j), (1j, 3j, 1j), (0, 5 + 5j, 1 + 1j), (1 + 1j, 10 + 5j, 2 + 1j),
                                  (-2 + 3j, 4 + 9j, 0.5 + 0.5j), (np.complex64(1j), 4 + 5j), (0, 6 + 8j, 0.3 + 0.2j),
                                  (3 + 3j,)], ids=str)
@pytest.mark.parametrize("dt", [None, np.complex64, np.complex128], ids=str)
def test_arange_complex(args, dt):
    """Complex arguments: the length is the smaller ceiling of the two parts of (stop - start) / step."""
    exp = np.arange(*args, dtype=dt)
    got = ng.arange(*args, dtype=dt)
    assert_same(got, exp)
    if dt is not np.complex64:
        np.testing.assert_array_equal(got.get(), exp)


def test_ranges_of_0d_array_arguments():
    """0-d arrays as start/stop/step: their dtypes count as NumPy's scalars' do."""
    for args in [(3,), (1.5,), (2j, 5 + 5j), (0, 2.5, np.float32(0.5)), (np.int8(1), 7, 2)]:
        assert_same(ng.arange(*[ng.asarray(v) for v in args]), np.arange(*[np.asarray(v) for v in args]))
    for start, stop in [(0, 1), (1j, 2), (np.float32(0), 1), (np.float16(1), 3)]:
        assert_same(ng.linspace(ng.asarray(start), stop, 5), np.linspace(np.asarray(start), stop, 5))


def test_arange_complex_into_real_dtype_raises():
    for dt in (np.float64, np.int32):
        with pytest.raises(TypeError, match="must be real number, not complex"):
            np.arange(1j, 3, dtype=dt)
        with pytest.raises(TypeError, match="must be real number, not complex"):
            ng.arange(1j, 3, dtype=dt)


def test_arange_zero_step():
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 5, 0)
    with pytest.raises(ZeroDivisionError):
        ng.arange(0, 5, 0)


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("start,stop,num", [(0, 1, 5), (0, 1, 0), (0, 1, 1), (2, -3, 11), (-1, 1, 50), (5, 5, 4),
                                            (0, 10, 2)], ids=str)
def test_linspace(start, stop, num, endpoint):
    assert_same(ng.linspace(start, stop, num, endpoint=endpoint), np.linspace(start, stop, num, endpoint=endpoint))


@pytest.mark.parametrize("args", [(0, 1, 4), (0, 1, 1), (0, 1, 0), (0j, 1 + 1j, 3), (np.float32(0), np.float32(1), 5)],
                         ids=str)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_step_is_numpys_scalar(args, endpoint):
    got = ng.linspace(*args, endpoint=endpoint, retstep=True)[1]
    want = np.linspace(*args, endpoint=endpoint, retstep=True)[1]
    assert type(got) is type(want) and repr(got) == repr(want)


def test_linspace_default_num_and_retstep():
    assert_same(ng.linspace(0, 1), np.linspace(0, 1))
    got, step = ng.linspace(0, 2, 5, retstep=True)
    exp, estep = np.linspace(0, 2, 5, retstep=True)
    assert_same(got, exp)
    assert step == pytest.approx(estep)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.int32, np.int64, np.complex64, np.complex128],
                         ids=dtype_id)
def test_linspace_dtype(dt):
    assert_same(ng.linspace(0, 10, 7, dtype=dt), np.linspace(0, 10, 7, dtype=dt))
    # integers: NumPy floors the values (toward -inf, not toward 0) before the cast
    for args in [(-5, 5, 4), (-3, 3, 4, False), (-1, 0, 3), (2, -9, 5)]:
        if np.dtype(dt).kind == "i":
            assert_same(ng.linspace(*args, dtype=dt), np.linspace(*args, dtype=dt))


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("start,stop,num", [(0, 1 + 1j, 5), (1j, 2, 3), (-1 - 2j, 3 + 7j, 11), (2, 2j, 1), (2, 2j, 0),
                                            (0.1, 0.9 + 0.3j, 17), (np.complex64(1j), 3, 4), (1j, 1j, 3)], ids=str)
def test_linspace_complex(start, stop, num, endpoint):
    """Complex start/stop: complex128, bit for bit NumPy's (its complex step, start + i*step per part)."""
    got, step = ng.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    exp, estep = np.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    assert_same(got, exp)
    if exp.dtype == np.complex128:  # (NumPy computes a complex64 result in complex64, numgpu casts it)
        np.testing.assert_array_equal(got.get(), exp)
    assert (np.isnan(step) and np.isnan(estep)) or step == estep


@pytest.mark.parametrize("dt", [np.complex64, np.float64, np.float16, np.int32], ids=dtype_id)
def test_linspace_complex_with_dtype(dt):
    try:
        exp, nexp = complex_warnings(np.linspace, 1 - 1j, 5 + 3j, 6, dtype=dt)
    except TypeError:   # integer dtypes: NumPy floors first, and floor has no complex loop
        with pytest.raises(TypeError):
            ng.linspace(1 - 1j, 5 + 3j, 6, dtype=dt)
        return
    got, ngot = complex_warnings(ng.linspace, 1 - 1j, 5 + 3j, 6, dtype=dt)
    assert_same(got, exp)
    assert ngot == nexp


def test_linspace_negative_num():
    with pytest.raises(ValueError):
        np.linspace(0, 1, -1)
    with pytest.raises(ValueError):
        ng.linspace(0, 1, -1)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (4, None, 1), (4, None, -2), (3, 5, 0), (5, 3, 0), (3, 5, 2),
                                   (5, 3, -1), (3, 3, 5), (3, 3, -5), (0, None, 0), (1, None, 0), (2, 0, 0)], ids=str)
def test_eye(n, m, k):
    assert_same(ng.eye(n, m, k), np.eye(n, m, k))


def test_eye_dtype(dtype):
    assert_same(ng.eye(3, 4, 1, dtype=dtype), np.eye(3, 4, 1, dtype=dtype))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_identity(n):
    assert_same(ng.identity(n), np.identity(n))
    assert_same(ng.identity(n, dtype=np.int32), np.identity(n, dtype=np.int32))


# ---- downloads ----------------------------------------------------------------------

def test_get_asnumpy_and_array_protocol(dtype):
    src = data(dtype, (3, 4), seed=5)
    a = ng.asarray(src)
    for out in (a.get(), ng.asnumpy(a), np.asarray(a), np.array(a)):
        assert type(out) is np.ndarray
        assert out.dtype == src.dtype and out.shape == src.shape
        np.testing.assert_array_equal(out, src)
    # asnumpy of a non-numgpu value is numpy.asarray
    np.testing.assert_array_equal(ng.asnumpy([1, 2]), np.asarray([1, 2]))


def test_get_of_views():
    src = np.arange(60, dtype=np.int32).reshape(5, 12)
    a = ng.asarray(src)
    for key in [(slice(None, None, 2), slice(1, None, 3)), (slice(None, None, -1),), (1,), (Ellipsis, 3)]:
        assert_same(a[key], src[key])
    np.testing.assert_array_equal(np.asarray(a.T), src.T)
    np.testing.assert_array_equal(ng.asnumpy(a[::-2, ::-5]), src[::-2, ::-5])


def test_array_protocol_dtype_argument():
    a = ng.asarray(np.arange(4, dtype=np.int16))
    out = np.asarray(a, dtype=np.float64)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, np.arange(4.0))


def test_get_returns_a_copy():
    a = ng.asarray(np.arange(4.0))
    h = a.get()
    h[0] = 99.0
    assert a[0].item() == 0.0


# ---- Python conversions ---------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 2), (1, 1, 3)], ids=str)
def test_tolist(dtype, shape):
    src = data(dtype, shape, seed=2)
    got = ng.asarray(src).tolist()
    exp = src.tolist()
    assert got == exp
    # element types too: int, float, bool, like NumPy's
    flat_g, flat_e = np.ravel(np.array(got, dtype=object)), np.ravel(np.array(exp, dtype=object))
    assert [type(v) for v in flat_g] == [type(v) for v in flat_e]


def test_item_size_one(dtype):
    src = data(dtype, (2, 3), seed=4)
    for key in [(slice(None, 1), slice(None, 1)), (1, slice(2, 3)), (0, 0)]:
        one = ng.asarray(src)[key]
        exp = src[key].item()
        got = one.item()
        assert got == exp and type(got) is type(exp)


def test_item_flat_index(dtype):
    """item(i) takes a flat (C-order) index, like NumPy's."""
    src = data(dtype, (2, 3), seed=4)
    a = ng.asarray(src)
    for i in [0, 4, 5, -1, -6]:
        got, exp = a.item(i), src.item(i)
        assert got == exp and type(got) is type(exp)


def test_item_multi_index(dtype):
    src = data(dtype, (2, 3), seed=4)
    a = ng.asarray(src)
    for args in [((1, 2),), (1, 0), (-1, -1)]:
        got, exp = a.item(*args), src.item(*args)
        assert got == exp and type(got) is type(exp)


def test_item_errors():
    src = np.arange(6).reshape(2, 3)
    a = ng.asarray(src)
    with pytest.raises(ValueError, match="can only convert an array of size 1 to a Python scalar"):
        src.item()
    with pytest.raises(ValueError, match="can only convert an array of size 1 to a Python scalar"):
        a.item()
    with pytest.raises(IndexError):
        src.item(6)
    with pytest.raises(IndexError):
        a.item(6)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_scalar_conversions_of_0d(dt):
    src = np.full((), 3 if dt is not np.bool_ else True, dtype=dt)
    a = ng.asarray(src)
    if dt in COMPLEX:  # NumPy 2.4: float() and int() of a complex array are TypeErrors
        for conv in (float, int):
            with pytest.raises(TypeError, match="not 'complex'"):
                conv(src)
            with pytest.raises(TypeError, match="not 'complex'"):
                conv(a)
    else:
        assert float(a) == float(src) and type(float(a)) is float
        assert int(a) == int(src) and type(int(a)) is int
    assert complex(a) == complex(src) and type(complex(a)) is complex
    assert bool(a) is bool(src)
    assert bool(ng.asarray(np.zeros((), dt))) is False


@pytest.mark.parametrize("value", [1 + 2j, -0.5j, 1j * 0, complex("nan+1j"), complex("-inf+0j")], ids=repr)
def test_complex_scalar_conversions(value):
    for dt in COMPLEX:
        src, a = np.asarray(value, dtype=dt), ng.asarray(value, dtype=dt)
        assert repr(complex(a)) == repr(complex(src))
        assert repr(a.item()) == repr(src.item()) and type(a.item()) is complex
        assert bool(a) is bool(src)
        assert repr(a.tolist()) == repr(src.tolist())
    with pytest.raises(TypeError, match="only 0-dimensional arrays"):
        complex(ng.asarray([value]))


@pytest.mark.parametrize("dt", [np.bool_, np.int32, np.float16, np.float64, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("shape", [(1,), (1, 1)], ids=str)
def test_scalar_conversions_of_size_one_nd(dt, shape):
    """NumPy 2.4: bool() of any size-1 array works; float()/int() need 0-d
    (TypeError "only 0-dimensional arrays can be converted to Python scalars")."""
    src = np.full(shape, 3 if dt is not np.bool_ else True, dtype=dt)
    a = ng.asarray(src)
    assert bool(a) is bool(src)
    assert bool(ng.asarray(np.zeros(shape, dt))) is False
    for conv in (float, int, complex):
        try:
            exp = conv(src)
        except TypeError:
            with pytest.raises(TypeError):
                conv(a)
        else:
            assert conv(a) == exp


def test_float_conversion_values():
    assert float(ng.asarray(np.float32(2.5))) == 2.5
    assert int(ng.asarray(-2.7)) == -2
    assert np.isnan(float(ng.asarray(np.nan)))


def test_index_conversion():
    for dt in INTS:
        a = ng.asarray(np.array(3, dtype=dt))
        assert operator.index(a) == 3 and type(operator.index(a)) is int
        assert [10, 11, 12, 13][a] == 13
    for dt in FLOATS + [np.bool_]:
        with pytest.raises(TypeError):
            operator.index(np.array(1, dtype=dt))
        with pytest.raises(TypeError):
            operator.index(ng.asarray(np.array(1, dtype=dt)))
    with pytest.raises(TypeError):
        operator.index(np.array([1], dtype=np.int64))
    with pytest.raises(TypeError):
        operator.index(ng.asarray(np.array([1], dtype=np.int64)))


def test_truth_value_errors():
    a = ng.asarray(np.arange(3))
    with pytest.raises(ValueError, match="truth value of an array with more than one element is ambiguous"):
        bool(a)
    with pytest.raises(ValueError, match="ambiguous"):
        if a:
            pass
    with pytest.raises(ValueError, match="truth value of an empty array is ambiguous"):
        bool(ng.asarray(np.zeros(0)))
    with pytest.raises(ValueError, match="truth value of an empty array is ambiguous"):
        bool(np.zeros(0))


def test_float_int_of_larger_arrays_raise_type_error():
    a = ng.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        float(np.arange(3.0))
    with pytest.raises(TypeError):
        float(a)
    with pytest.raises(TypeError):
        int(a)
    with pytest.raises(TypeError):
        int(ng.asarray(np.zeros((2, 2), np.int32)))
    with pytest.raises(TypeError):
        float(ng.asarray(np.zeros(0)))


# ---- len, iteration --------------------------------------------------------------------

def test_len_and_iteration():
    src = np.arange(12, dtype=np.int16).reshape(3, 4)
    a = ng.asarray(src)
    assert len(a) == 3
    rows = list(a)
    assert len(rows) == 3
    for r, e in zip(rows, src):
        assert_same(r, e)
    assert [x.item() for x in a[1]] == list(src[1])
    assert len(ng.asarray(np.zeros((0, 5)))) == 0
    assert list(ng.asarray(np.zeros((0, 5)))) == []


def test_len_and_iteration_of_0d():
    a = ng.asarray(np.float64(5.0))
    with pytest.raises(TypeError):
        len(np.asarray(5.0))
    with pytest.raises(TypeError):
        len(a)
    with pytest.raises(TypeError):
        iter(np.asarray(5.0))
    with pytest.raises(TypeError):
        list(a)


def test_iteration_of_views():
    src = np.arange(20.0).reshape(4, 5)[::-2, 1::2]
    a = ng.asarray(np.arange(20.0).reshape(4, 5))[::-2, 1::2]
    for r, e in zip(a, src):
        assert_same(r, e)
    assert sum(1 for _ in a) == len(src)


# ---- repr / str ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 2, 2), (3, 0)], ids=str)
def test_repr_str_match_numpy(dtype, shape):
    src = data(dtype, shape, seed=9)
    a = ng.asarray(src)
    assert repr(a) == repr(src)
    assert str(a) == str(src)


def test_repr_special_floats_and_large():
    src = np.array([np.nan, np.inf, -np.inf, -0.0, 1e300, 1e-300])
    assert repr(ng.asarray(src)) == repr(src)
    for dt in (np.complex64, np.complex128, np.float16):
        with np.errstate(all="ignore"):
            v = src.astype(dt) * (1 - 2j if dt != np.float16 else 1)
        assert repr(ng.asarray(v)) == repr(v) and str(ng.asarray(v)) == str(v)
    big = np.arange(2000, dtype=np.float32)
    assert repr(ng.asarray(big)) == repr(big)
    assert str(ng.asarray(big)) == str(big)


# ---- attributes -----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4)], ids=str)
def test_attributes(dtype, shape):
    src = np.zeros(shape, dtype=dtype)
    a = ng.asarray(src)
    assert a.shape == src.shape and type(a.shape) is tuple
    assert a.dtype == src.dtype and isinstance(a.dtype, np.dtype)
    assert a.ndim == src.ndim
    assert a.size == src.size
    assert a.itemsize == src.itemsize
    assert a.nbytes == src.nbytes
    if src.size:  # NumPy 2.4 gives empty arrays all-zero strides; numgpu's are C-order ones (harmless)
        assert a.strides == src.strides
        assert a.T.strides == src.T.strides
    assert a.T.shape == src.T.shape
    assert isinstance(a.device, str) and a.device
    assert a.device == ng.get_device()


def test_strides_of_views():
    src = np.zeros((6, 8), np.int32)
    a = ng.asarray(src)
    for key in [(slice(None, None, 2), slice(1, None, 3)), (slice(None, None, -1), 2), (None, Ellipsis, None)]:
        assert a[key].strides == src[key].strides, key
        assert a[key].shape == src[key].shape
    assert a.transpose().strides == src.transpose().strides
    assert a.reshape(4, 12).strides == src.reshape(4, 12).strides


def test_dtype_constants_are_numpys():
    for name in ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128", "half", "single", "double",
                 "csingle", "cdouble"]:
        assert np.dtype(getattr(ng, name)) == np.dtype(getattr(np, name))
    a = ng.zeros(3, dtype=ng.float32)
    assert a.dtype == np.float32


def test_astype_and_copy(dtype):
    src = data(np.float64, (6,), seed=7) if dtype is not np.bool_ else data(np.int16, (6,))
    a = ng.asarray(src)
    with np.errstate(all="ignore"):
        exp = src.astype(dtype)
    got = a.astype(dtype)
    if np.dtype(dtype).kind == "u" and src.dtype.kind == "f":
        # float -> unsigned of negative values is platform-defined in C and NumPy alike
        exp = np.abs(src).astype(dtype)
        got = ng.asarray(np.abs(src)).astype(dtype)
    assert_same(got, exp)
    c = a.copy()
    c[0] = 1
    assert_same(a, src)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("to", ALL, ids=dtype_id)
def test_astype_every_pair(dtype, to):
    """astype between every pair of dtypes, float16 and complex included, on NumPy's values; a cast
    that drops imaginary parts gives one ComplexWarning per call (not per element), as NumPy's."""
    kind = "nonneg" if np.dtype(to).kind == "u" else "any"  # float -> unsigned of negatives is platform-defined
    src = data(dtype, (4, 5), seed=11, kind=kind)
    if np.dtype(to).kind in "iu" and np.dtype(dtype).kind in "fc":
        src = src / 4  # inside every integer type's range
    if np.dtype(dtype) == np.float16 and np.dtype(to).kind in "iu":
        src = np.abs(src) if np.dtype(to).kind == "u" else src
    with np.errstate(all="ignore"):
        exp, nexp = complex_warnings(src.astype, to)
    got, ngot = complex_warnings(ng.asarray(src).astype, to)
    assert_same(got, exp)
    assert ngot == nexp
    strided = src[::2, ::-2]
    with np.errstate(all="ignore"):
        assert_same(complex_warnings(ng.asarray(src)[::2, ::-2].astype, to)[0], strided.astype(to))


@pytest.mark.parametrize("dt", COMPLEX + [np.float16], ids=dtype_id)
def test_complex_values_into_real_arrays_warn(dt):
    """Setting complex values into a real array: NumPy keeps the real part with one ComplexWarning
    (array or NumPy scalar values), and a Python complex is a TypeError."""
    vals = data(dt, (2, 3), seed=12)
    for target in (np.float64, np.float32, np.int32, np.bool_):
        host, dev = np.zeros((2, 3), target), ng.zeros((2, 3), target)
        _, nexp = complex_warnings(host.__setitem__, Ellipsis, vals)
        _, ngot = complex_warnings(dev.__setitem__, Ellipsis, ng.asarray(vals))
        assert ngot == nexp
        assert_same(dev, host)
        _, nexp = complex_warnings(host.__setitem__, (0, 1), vals[1, 2])
        _, ngot = complex_warnings(dev.__setitem__, (0, 1), vals[1, 2])
        assert ngot == nexp
        _, nexp = complex_warnings(host.fill, vals[0, 0])
        _, ngot = complex_warnings(dev.fill, vals[0, 0])
        assert ngot == nexp
        assert_same(dev, host)
        if dt in COMPLEX:
            for f in (lambda a: a.__setitem__(0, 1j), lambda a: a.fill(2 + 1j), lambda a: a.__setitem__(1, 0j)):
                if target is np.bool_:  # a Python complex into bool is its truth value
                    f(host)
                    f(dev)
                    assert_same(dev, host)
                    continue
                with pytest.raises(TypeError):
                    f(host)
                with pytest.raises(TypeError):
                    f(dev)
    host, dev = np.zeros(3), ng.zeros(3)
    _, nexp = complex_warnings(np.asarray, vals, dtype=np.float64)
    _, ngot = complex_warnings(ng.asarray, ng.asarray(vals), dtype=np.float64)
    assert ngot == nexp


@pytest.mark.parametrize("scalar", [np.complex64(1 - 2j), np.complex128(0.5j), np.float16(2.5), np.float32(1.5)],
                         ids=repr)
def test_numpy_scalars_are_strong_operands(dtype, scalar):
    """A NumPy scalar takes part in promotion with its own dtype (NEP 50), a Python scalar does not."""
    src = data(dtype, (5,), seed=13)
    a = ng.asarray(src)
    for op in ("add", "multiply", "subtract"):
        with np.errstate(all="ignore"):
            exp = getattr(np, op)(src, scalar)
            exp_r = getattr(np, op)(scalar, src)
        assert_same(getattr(ng, op)(a, scalar), exp)
        assert_same(getattr(ng, op)(scalar, a), exp_r)
    with np.errstate(all="ignore"):
        assert_same(a + scalar, src + scalar)
        assert_same(scalar * a, scalar * src)
    assert_same(a + complex(scalar), src + complex(scalar))  # weak: keeps a complex dtype of a's precision


def test_asanyarray_is_asarray():
    # numgpu arrays have no subclasses: asanyarray(x) is x (it ran NumPy's, a download and an upload)
    x = ng.arange(3)
    assert ng.asanyarray(x) is x and ng.asanyarray(x, dtype=np.int64) is x
    assert ng.asanyarray(x, dtype=np.float64).dtype == np.float64
    assert isinstance(ng.asanyarray([1, 2]), ng.ndarray)
    with pytest.raises(ValueError):
        ng.asanyarray(x, dtype=np.float32, copy=False)
