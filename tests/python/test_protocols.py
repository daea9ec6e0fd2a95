"""NumPy's protocols on numgpu arrays: __array_ufunc__, __array_function__, __array__, the
ndarray method fallback (__getattr__), __format__/__round__; NumPy is the oracle."""
import collections
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback, _protocols
from helpers import DEFAULT_RTOL, assert_same, call_both, data

SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4)]
DTYPES = [np.int32, np.int64, np.float32, np.float64]


@pytest.fixture(autouse=True)
def quiet_fallback():
    prev = _fallback.set_mode("silent")
    yield
    _fallback.set_mode(prev)


def both(a):
    return a, ng.asarray(a)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uf", [np.add, np.multiply, np.maximum, np.subtract, np.less, np.arctan2])
def test_binary_ufunc_dispatches(uf, dtype, shape):
    a, x = both(data(dtype, shape, seed=1))
    b, y = both(data(dtype, shape, seed=2))
    launches = ng.stats()["kernel_launches"]
    r = uf(x, y)
    assert isinstance(r, ng.ndarray)
    assert_same(r, uf(a, b))
    assert_same(uf(a, y), uf(a, b))                  # a NumPy array first: still ours
    assert_same(uf(x, 2), uf(a, 2))
    if a.size:
        assert ng.stats()["kernel_launches"] > launches   # ran on the device, not through NumPy


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("uf", [np.sqrt, np.exp, np.negative, np.absolute, np.isnan, np.floor])
def test_unary_ufunc_and_out(uf, dtype):
    a, x = both(np.abs(data(dtype, (3, 5), seed=3)))
    assert_same(uf(x), uf(a))
    ref = uf(a)
    o = ng.empty(ref.shape, ref.dtype)
    r = uf(x, out=o)
    assert r is o
    assert_same(o, ref)
    t = ng.empty(ref.shape, ref.dtype)
    assert uf(x, out=(t,)) is t


@pytest.mark.parametrize("axis", [0, 1, None, -1])
@pytest.mark.parametrize("uf", [np.add, np.multiply, np.maximum, np.minimum])
def test_ufunc_reduce(uf, axis):
    a, x = both(data(np.float64, (4, 6), seed=4))
    assert_same(uf.reduce(x, axis=axis), uf.reduce(a, axis=axis), rtol=1e-12)
    assert_same(uf.reduce(x, axis=axis, keepdims=True), uf.reduce(a, axis=axis, keepdims=True), rtol=1e-12)


def test_ufunc_methods_run_on_the_device_or_on_numpy():
    a, x = both(data(np.float64, (3, 4), seed=5))
    _fallback.reset()
    assert_same(np.add.accumulate(x, axis=1), np.add.accumulate(a, axis=1), rtol=1e-12)
    assert_same(np.maximum.accumulate(x), np.maximum.accumulate(a))
    assert_same(np.subtract.outer(x[0], x[1]), np.subtract.outer(a[0], a[1]))
    assert_same(np.add.reduce(x, initial=10.0), np.add.reduce(a, initial=10.0), rtol=1e-12)
    assert "numpy.subtract.outer" not in _fallback.counts
    assert "numpy.add.accumulate" not in _fallback.counts
    assert "numpy.maximum.accumulate" not in _fallback.counts
    assert "numpy.add.reduce" not in _fallback.counts        # initial= too
    assert_same(np.add.reduceat(x, [0, 2], axis=1), np.add.reduceat(a, [0, 2], axis=1), rtol=1e-12)
    assert _fallback.counts["numpy.add.reduceat"][0] == 1    # NumPy's
    # a ufunc call numgpu does not run (a keyword its matvec lacks): NumPy's, result uploaded
    axes = [(-2, -1), (-1,), (-1,)]
    r = np.matvec(x, x[0], axes=axes)
    assert isinstance(r, ng.ndarray)
    assert_same(r, np.matvec(a, a[0], axes=axes), rtol=1e-12)
    assert "numpy.matvec" in _fallback.counts
    # keyword arguments: NumPy's dtype resolution, the op on the device
    assert_same(np.add(x, x, dtype=np.float32), np.add(a, a, dtype=np.float32))
    assert "numpy.add" not in _fallback.counts


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_array_function_dispatches(dtype, shape):
    a, x = both(data(dtype, shape, seed=6))
    for f, kw in ((np.sum, {}), (np.mean, {}), (np.max, {}), (np.prod, {}), (np.std, {}),
                  (np.transpose, {}), (np.ravel, {})):
        if f in (np.max,) and a.size == 0:
            with pytest.raises(ValueError):
                f(x)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # mean of empty
            assert_same(f(x, **kw), f(a, **kw), rtol=1e-5 if dtype == np.float32 else 1e-12)
    if a.ndim:
        assert_same(np.concatenate([x, x]), np.concatenate([a, a]))
        assert_same(np.concatenate([x, a]), np.concatenate([a, a]))
        assert_same(np.sum(x, axis=0), np.sum(a, axis=0))
        assert_same(np.stack([x, x], axis=-1), np.stack([a, a], axis=-1))


def test_array_function_uses_numgpu_and_falls_back():
    a, x = both(data(np.float64, (3, 4), seed=7))
    _fallback.reset()
    launches = ng.stats()["kernel_launches"]
    r = np.sum(x, axis=1)
    assert isinstance(r, ng.ndarray) and ng.stats()["kernel_launches"] > launches
    assert "numpy.sum" not in _fallback.counts
    r = np.linalg.tensorinv(x[:, :3], 1)        # numgpu has no tensorinv: NumPy's
    assert_same(r, np.linalg.tensorinv(a[:, :3], 1), rtol=1e-12)
    assert _fallback.counts["numpy.linalg.tensorinv"][0] == 1
    assert_same(np.linalg.norm(x), np.linalg.norm(a), rtol=1e-12)
    u, s, vt = np.linalg.svd(x)
    np.testing.assert_allclose(ng.asnumpy(s), np.linalg.svd(a)[1])
    assert np.array_equal(x, a) and np.allclose(x, a)
    # numgpu's function rejects the call (an argument it lacks): NumPy's runs
    assert_same(np.sum(x, where=a > 0), np.sum(a, where=a > 0), rtol=1e-12)


def test_array_function_other_types_not_handled():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"
    x = ng.ones(3)
    assert np.concatenate([x, Other()]) == "other"


def test_array_dunder():
    a, x = both(data(np.float64, (2, 3), seed=8))
    h = np.asarray(x)
    assert type(h) is np.ndarray
    np.testing.assert_array_equal(h, a)
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    c = np.array(x, copy=True)
    c[0, 0] = 99.0
    assert float(x[0, 0]) == a[0, 0]
    np.testing.assert_array_equal(x.__array__(np.int64), a.astype(np.int64))
    np.testing.assert_array_equal(x.__array__(dtype=None, copy=True), a)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (0,)])
def test_method_fallback(shape):
    a, x = both(data(np.float64, shape, seed=9))
    _fallback.reset()
    assert_same(x.argpartition(0), a.argpartition(0))
    assert _fallback.counts["numpy.ndarray.argpartition"][0] == 1
    assert x.flags.c_contiguous == a.flags.c_contiguous
    assert_same(x.clip(-0.5, 0.5), a.clip(-0.5, 0.5))
    assert_same(x.round(2), a.round(2))
    x.partition(0) if x.size else None                # in place: the partitioned data comes back
    a.partition(0) if a.size else None
    assert_same(x, a)
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        x.no_such_thing
    with pytest.raises(AttributeError):
        x.__no_such_dunder__
    assert hasattr(x, "__array_interface__") == (x.device == "cpu")   # (host memory only: GPUs have none)


def test_method_fallback_error_mode():
    _fallback.set_mode("error")
    with pytest.raises(_fallback.FallbackError, match="numpy.ndarray.argpartition"):
        ng.ones(3).argpartition(0)


def test_format_and_round():
    a, x = both(np.array([[1.25, -2.5], [3.0, 4.125]]))
    s, t = a.sum(), x.sum()
    assert f"{t:.3f}" == f"{s:.3f}" and f"{t:>10.2e}" == f"{s:>10.2e}" and format(t) == format(s)
    assert format(x) == format(a)
    with pytest.raises(TypeError):
        format(x, ".2f")
    assert round(t, 1) == round(s, 1) and round(x[0, 0]) == round(a[0, 0])
    with pytest.raises(TypeError):   # as NumPy: round() of an n-d array is an error
        round(x, 1)
    assert "%d %.2f" % (x[1, 1], t) == "%d %.2f" % (a[1, 1], s)


def test_scalar_style():
    x = ng.asarray(np.array([1.5, 2.5]))
    assert repr(x.sum()) == "array(4.)"
    _protocols.scalar_style(True)
    try:
        assert repr(x.sum()) == repr(np.float64(4.0))
        assert repr(x[0]) == repr(np.float64(1.5)) and repr(x) == repr(np.array([1.5, 2.5]))
    finally:
        _protocols.scalar_style(False)
    assert repr(x.sum()) == "array(4.)"


@pytest.mark.parametrize("dt", ["bool", "int8", "uint64", "float16", "float32", "float64", "complex64"])
def test_zero_d_arrays_hash_as_numpys_scalars(dt):
    # Reductions and indexing give 0-d arrays where NumPy gives scalars: dict keys, sets and
    # Counter work as with NumPy's scalars (equal values, equal hashes); n-d arrays are unhashable
    a = np.array([0, 1, 3, 1, 0, 0]).astype(dt)
    x = ng.asarray(a)
    assert hash(x[2]) == hash(a[2]) and hash(x.max()) == hash(a.max())
    assert {x[1]: "a"}[a[1]] == "a" and {a[1]: "a"}[x[3]] == "a"
    assert len({x[i] for i in range(6)}) == len({a[i] for i in range(6)})
    assert collections.Counter(x[i] for i in range(6)).most_common(1)[0][1] == 3
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x[None, 0])


@pytest.mark.parametrize("seq", [[0, 1], (7,), "ab"], ids=repr)
def test_integer_zero_d_arrays_repeat_sequences(seq):
    # [0] * counts.max(): NumPy's integer scalar repeats the list (a 0-d array used to broadcast)
    for dt in ("int64", "uint8", "int32"):
        n = ng.asarray(np.array([3, 1], dt)).max()
        assert seq * n == seq * 3 and n * seq == seq * 3
    m = ng.asarray(np.array(2.0)).max()
    with pytest.raises(TypeError):      # as NumPy's float scalar, but 0-d float arrays broadcast
        "ab" * m
    np.testing.assert_array_equal(([1, 2] * m).get(), [2.0, 4.0])


def test_metadata_functions_need_no_download():
    x = ng.asarray(np.zeros((2, 3)))
    _fallback.reset()
    before = ng.stats()["downloads"]
    assert np.shape(x) == (2, 3) and np.ndim(x) == 2 and np.size(x) == 6 and np.size(x, 1) == 3
    assert ng.stats()["downloads"] == before and not _fallback.counts


def test_host_attributes_are_real_attributes():
    # Served as methods/properties on the type (no __getattr__), so numgpu's own lookups stay fast.
    assert "__getattr__" not in vars(ng.ndarray)
    assert ng.ndarray.sum is vars(ng.ndarray)["sum"] and not hasattr(ng.ndarray.sum, "_numgpu_host")
    assert getattr(ng.ndarray.argpartition, "_numgpu_host", False)
    public = {n for n in dir(np.ndarray) if not n.startswith("_")}
    assert public <= set(dir(ng.ndarray))


# ---- float16 and complex operands ------------------------------------------------------------------

NEW_DTYPES = [np.float16, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", NEW_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("uf", [np.add, np.subtract, np.multiply, np.divide, np.power, np.maximum, np.equal,
                                np.less, np.arctan2, np.floor_divide])
def test_binary_ufunc_dispatches_new_dtypes(uf, dtype):
    """NumPy's ufuncs on float16/complex numgpu arrays: numgpu's result, or NumPy's exception type
    where NumPy has no loop (arctan2 and floor_divide of complex: TypeError)."""
    a, x = both(data(dtype, (3, 4), seed=31, kind="positive"))
    b, y = both(data(dtype, (4,), seed=32, kind="positive"))
    try:
        with np.errstate(all="ignore"):
            exp = uf(a, b)
    except TypeError:
        with pytest.raises(TypeError):
            uf(x, y)
        return
    # NumPy's complex64 power is cpowf, exp(b log a) in float: off by about |b log a| ulps
    rtol = 1e-5 if uf is np.power and dtype is np.complex64 else None
    launches = ng.stats()["kernel_launches"]
    assert_same(uf(x, y), exp, rtol=rtol)
    assert ng.stats()["kernel_launches"] > launches    # on the device, not through NumPy
    call_both(uf, uf, [a, b], [a, y], rtol=rtol)
    call_both(uf, uf, [a, 2], [x, 2], rtol=rtol)
    call_both(uf, uf, [a, 1j], [x, 1j], rtol=rtol)                                   # a weak Python complex
    call_both(uf, uf, [np.complex64(2 - 1j), a], [np.complex64(2 - 1j), x], rtol=rtol)   # a strong NumPy scalar


@pytest.mark.parametrize("dtype", NEW_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("uf", [np.exp, np.sqrt, np.log, np.sin, np.tanh, np.absolute, np.negative, np.conjugate,
                                np.square, np.isnan, np.isfinite, np.reciprocal, np.sign, np.floor])
def test_unary_ufunc_new_dtypes_and_out(uf, dtype):
    a, x = both(data(dtype, (3, 5), seed=33, kind="small"))
    try:
        ref = uf(a)
    except TypeError:      # floor of complex: no loop in NumPy
        with pytest.raises(TypeError):
            uf(x)
        return
    assert_same(uf(x), ref)
    o = ng.empty(ref.shape, ref.dtype)
    assert uf(x, out=o) is o
    assert_same(o, ref)
    assert uf(x, out=(o,)) is o


@pytest.mark.parametrize("dtype,wide", [(np.float16, np.float64), (np.float16, np.float32),
                                        (np.complex64, np.complex128)], ids=str)
@pytest.mark.parametrize("uf", [np.exp, np.sqrt, np.sin])
def test_unary_ufunc_into_a_wider_out(uf, dtype, wide):
    """NumPy picks the loop by the inputs and casts its result into out=."""
    a, x = both(data(dtype, (3, 5), seed=33, kind="small"))
    o = ng.empty(a.shape, wide)
    assert uf(x, out=o) is o
    # the loop's precision is the input's: its values, not out='s, set the tolerance
    assert_same(o, uf(a, out=np.empty(a.shape, wide)), rtol=DEFAULT_RTOL[np.dtype(dtype)])


def test_complex_ufunc_calls_and_out_casting():
    a, x = both(data(np.float64, (2, 3), seed=34))
    assert_same(np.add(x, 1j), np.add(a, 1j))
    assert_same(np.exp(1j * x), np.exp(1j * a))
    assert_same(np.multiply(x, np.complex64(1j)), np.multiply(a, np.complex64(1j)))
    o = ng.empty((2, 3), np.complex128)
    assert np.add(x, 1j, out=o) is o
    assert_same(o, np.add(a, 1j))
    # a complex result into a real out=: NumPy's same_kind rule refuses it
    with pytest.raises(TypeError):
        np.add(a, 1j, out=np.empty((2, 3)))
    with pytest.raises(TypeError):
        np.add(x, 1j, out=ng.empty((2, 3)))
    c, z = both(data(np.complex64, (2, 3), seed=35))
    assert_same(np.add.reduce(z, axis=1), np.add.reduce(c, axis=1), rtol=1e-5)
    assert_same(np.abs(z), np.abs(c))
    assert_same(np.real(z), np.real(c))
    assert_same(np.angle(z), np.angle(c))


@pytest.mark.parametrize("dtype", NEW_DTYPES, ids=lambda d: np.dtype(d).name)
def test_array_dunder_and_buffer_new_dtypes(dtype):
    a, x = both(data(dtype, (2, 3), seed=36))
    h = np.asarray(x)
    assert type(h) is np.ndarray and h.dtype == a.dtype
    np.testing.assert_array_equal(h, a)
    np.testing.assert_array_equal(np.array(x, copy=True), a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), a.astype(np.float64))
    if ng.devices()[-1]["host_visible"] and x.device == "cpu":
        m, e = memoryview(x), memoryview(a)
        assert m.format == e.format and m.itemsize == e.itemsize and m.shape == e.shape
        assert m.format == {"float16": "e", "complex64": "Zf", "complex128": "Zd"}[np.dtype(dtype).name]
        assert m.tobytes() == e.tobytes()
        v = np.asarray(x)          # zero-copy on cpu: writes show through
        v[0, 0] = 7
        assert x[0, 0].item() == 7
        assert_same(ng.asarray(memoryview(a)), a)     # and back: a buffer of these formats uploads


@pytest.mark.parametrize("dtype", NEW_DTYPES, ids=lambda d: np.dtype(d).name)
def test_array_function_new_dtypes(dtype):
    a, x = both(data(dtype, (3, 4), seed=37))
    for f in (np.transpose, np.ravel, np.real, np.imag, np.conj, np.iscomplex, np.isreal):
        assert_same(f(x), f(a))
    assert_same(np.concatenate([x, x]), np.concatenate([a, a]))
    assert_same(np.stack([x, a], axis=1), np.stack([a, a], axis=1))
    assert_same(np.where(x == x, x, 0), np.where(a == a, a, 0))
    assert np.iscomplexobj(x) is np.iscomplexobj(a)
    _fallback.reset()
    r = np.unique(x, axis=0)   # no device version (of axis=): NumPy's, the result uploaded in its dtype
    assert isinstance(r, ng.ndarray)
    assert_same(r, np.unique(a, axis=0))
    assert _fallback.counts["numpy.unique"][0] == 1
    r = x.cumsum() if dtype is not np.float16 else None
    if r is not None:
        assert_same(r, a.cumsum(), rtol=1e-5)


def test_astype_to_a_dtype_without_kernels_gives_numpys_array():
    """x.astype(str) (labels, printing): NumPy's array of strings, through the fallback; numeric
    dtypes stay on the device; NumPy's error for a dtype that is no dtype."""
    a = data(np.int32, (5,), seed=21)
    x = ng.asarray(a)
    _fallback.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        for dt in (str, "U3", object, "datetime64[s]"):
            r = x.astype(dt)
            assert type(r) is np.ndarray
            np.testing.assert_array_equal(r, a.astype(dt))
    assert _fallback.counts["numpy.ndarray.astype"][0] == 4
    assert isinstance(x.astype(np.float16), ng.ndarray)
    with pytest.raises(TypeError):
        x.astype("float33")


# ---- arguments overriding NumPy's protocols (NEP 13/18): pandas-like objects get the call ----

class Labeled:
    """A small pandas-like object: values with labels; its __array_ufunc__ aligns operands by label
    and wraps the result, np.sum(obj) reaches its sum method, as NumPy calls methods of objects."""

    def __init__(self, values, labels):
        self.values, self.labels = np.asarray(values, dtype=float), list(labels)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        order = sorted(self.labels)
        args = [np.array([dict(zip(x.labels, x.values))[k] for k in order]) if isinstance(x, Labeled)
                else (np.asarray(x) if hasattr(x, "__array__") else x) for x in inputs]
        r = getattr(ufunc, method)(*args, **kwargs)
        return Labeled(r, order) if method in ("__call__", "accumulate") else ("reduced", float(r))

    def sum(self, axis=None, dtype=None, out=None, **kwargs):
        return ("Labeled.sum", float(self.values.sum()))

    def __len__(self):
        return len(self.values)

    def __array__(self, dtype=None, copy=None):   # (as pandas': its values, the labels dropped)
        return self.values

    def __eq__(self, other):
        return (isinstance(other, Labeled) and self.labels == other.labels
                and np.array_equal(self.values, other.values, equal_nan=True))

    __hash__ = None


class Functional:
    """An object with __array_function__ alone: NumPy's functions hand it the call."""

    def __array_function__(self, func, types, args, kwargs):
        return ("Functional", func.__name__)

    def __array__(self, dtype=None, copy=None):
        return np.zeros(2)


def _labeled():
    return Labeled([1.0, 4.0, 9.0], "xyz"), Labeled([10.0, 20.0, 30.0], "zyx")


def test_ufuncs_hand_overriding_arguments_the_call():
    a, b = _labeled()
    h = np.array([2.0, 3.0, 5.0])
    for name in ("add", "maximum", "arctan2"):
        assert getattr(ng, name)(a, b) == getattr(np, name)(a, b)
    for name in ("sqrt", "negative", "isnan"):
        assert getattr(ng, name)(a) == getattr(np, name)(a)
    assert ng.add(ng.asarray(h), a) == np.add(h, a)
    assert ng.add.reduce(a) == np.add.reduce(a)
    assert ng.maximum.accumulate(a) == np.maximum.accumulate(a)
    assert np.add(ng.asarray(h), a) == np.add(h, a)          # (NumPy's ufunc, numgpu's array first)


def test_operators_hand_overriding_operands_the_call():
    a, _ = _labeled()
    h = np.array([2.0, 3.0, 5.0])
    x = ng.asarray(h)
    assert x + a == h + a
    assert x * a == h * a
    assert (x > a) == (h > a)
    y, g = x.copy(), h.copy()
    y += a
    g += a
    assert y == g


def test_functions_hand_overriding_arguments_the_call():
    a, _ = _labeled()
    h = np.array([2.0, 3.0, 5.0])
    assert ng.sum(a) == np.sum(a) == ("Labeled.sum", 14.0)
    f = Functional()
    assert ng.concatenate([ng.asarray(h), f]) == np.concatenate([h, f]) == ("Functional", "concatenate")
    assert ng.mean(f) == np.mean(f)


def test_overriding_arguments_are_no_fallbacks():
    """The object's own code answers, as with NumPy: no warning, no error where fallbacks are
    errors, the call counted under NumPy's name; numgpu's plain arguments never go there."""
    a, _ = _labeled()
    prev = _fallback.set_mode("error")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _fallback.counts.pop("numpy.sqrt", None)
            assert ng.sqrt(a) == np.sqrt(a)
            assert ng.sum(a) == np.sum(a)
            assert _fallback.counts["numpy.sqrt"][0] == 1
            x = ng.asarray([1.0, 4.0])
            assert isinstance(ng.sqrt(x), ng.ndarray) and isinstance(ng.sum([x, x], axis=0), ng.ndarray)
    finally:
        _fallback.set_mode(prev)


def test_overrides_numpy():
    assert ng._core.overrides_numpy(Labeled([1.0], "a")) and ng._core.overrides_numpy(Functional())
    for v in (ng.zeros(2), np.zeros(2), np.float64(1.0), 1.5, [1.0], np.ma.masked_array([1.0]), object()):
        assert not ng._core.overrides_numpy(v)

    class Refuses:
        __array_ufunc__ = None
    assert ng._core.overrides_numpy(Refuses())


class _Wraps:
    """A duck array written against numgpu (`import numgpu as np` in its module, or run by numgpu
    run): its __array__ gives numgpu's array."""

    calls = 0

    def __init__(self, v, xp):
        self.v, self.xp = v, xp

    def __array__(self, dtype=None, copy=None):
        _Wraps.calls += 1
        return self.xp.asarray(self.v, dtype=dtype)


class _NeedsDtype:
    def __array__(self, dtype):                 # (a signature NumPy's asarray cannot call: its TypeError)
        return np.arange(3.0)


def test_an_array_protocol_giving_numgpu_arrays():
    # numgpu took an object's __array__ through numpy.asarray, which refuses a numgpu array
    # ("object __array__ method not producing an array")
    v = [[1.0, 2.0], [3.5, -1.0]]
    expected = (np.asarray(_Wraps(v, np)) + 1, np.sum(_Wraps(v, np)), np.mean(_Wraps(v, np), axis=0),
                np.array(_Wraps(v, np), dtype=np.float32))
    w = _Wraps(v, ng)
    got = (ng.asarray(w) + 1, ng.sum(w), ng.mean(w, axis=0), ng.array(w, dtype=np.float32))
    for g, e in zip(got, expected):
        assert_same(g, e)
    _Wraps.calls = 0
    ng.asarray(_Wraps(v, np))                   # (NumPy's array from it: called once, not twice)
    assert _Wraps.calls == 1
    for xp in (np, ng):
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'dtype'"):
            xp.asarray(_NeedsDtype())


def test_a_librarys_ufunc_is_reported_by_its_own_name():
    # (hunt 14 F8) scipy.special.erf on a numgpu array fell back warned and counted as "numpy.erf",
    # a function NumPy has not
    special = pytest.importorskip("scipy.special")
    x = np.linspace(-1, 1, 7)
    _fallback.counts.clear()
    got = special.erf(ng.asarray(x))
    np.testing.assert_array_equal(ng.asnumpy(got), special.erf(x))
    assert "scipy.special.erf" in _fallback.counts and "numpy.erf" not in _fallback.counts


def test_ufuncs_carry_numpys_documentation(capsys):
    # (hunt 14, numpy-100's fifth exercise) np.info(np.add) printed one line of numgpu's; NumPy's
    # text follows it now, and np.info is host work, never warned about
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ng.info(ng.add)
    text = capsys.readouterr().out
    assert text.startswith("NumPy's add on numgpu arrays.") and "Add arguments element-wise." in text
    assert np.add.__doc__ in ng.add.__doc__ and np.sqrt.__doc__ in ng.sqrt.__doc__


def test_fromiter_is_host_work_not_a_warned_fallback():
    # (hunt 14: three corpora's fromiter warned "runs on NumPy"; iterating a Python iterable is the
    # host's work by nature, as loadtxt's) a device array of NumPy's values, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ng.fromiter((i * i for i in range(7)), dtype=np.float32)
    assert isinstance(got, ng.ndarray)
    assert_same(got, np.fromiter((i * i for i in range(7)), dtype=np.float32))
