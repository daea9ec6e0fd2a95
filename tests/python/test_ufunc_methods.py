"""numgpu's ufuncs as ufunc objects: .at, .reduce, .accumulate, .outer, .reduceat and the call's
keywords (where=, dtype=, casting=), each against NumPy's own ufunc on the same data."""
import pickle
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import assert_same, data

ON_CPU = ng.get_device().startswith("cpu")


def host_at(name, a, idx, b=None):
    """NumPy's at on a copy of host array a."""
    r = a.copy()
    args = (idx,) if b is None else (idx, b)
    getattr(np, name).at(r, *args)
    return r


def check_at(name, a, idx, b=None, exact=None):
    """numgpu's at on a device copy of a equals NumPy's: exactly where the update runs in NumPy's
    order (cpu, integers, max/min), else within rounding (a GPU's atomics add in any order)."""
    want = host_at(name, a, idx, b)
    x = ng.asarray(a)
    nb = ng.asarray(b) if isinstance(b, np.ndarray) else b
    nidx = tuple(ng.asarray(i) if isinstance(i, np.ndarray) else i for i in idx) if isinstance(idx, tuple) \
        else (ng.asarray(idx) if isinstance(idx, np.ndarray) else idx)
    assert getattr(ng, name).at(x, nidx, *(() if b is None else (nb,))) is None
    got = x.get()
    assert got.dtype == want.dtype
    if exact is None:
        exact = ON_CPU or want.dtype.kind in "biu" or name in ("maximum", "minimum")
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12 if want.dtype in (np.float64, np.complex128) else 1e-5)


def same_outcome(ours, numpys, rtol=None):
    """numgpu's call gives NumPy's result, or raises the type of error NumPy raises."""
    try:
        want = numpys()
    except Exception as e:  # noqa: BLE001 (any NumPy error: ours must be of its type)
        with pytest.raises(type(e)):
            ours()
        return
    assert_same(ours(), want, rtol=rtol)


# ---- ufunc objects --------------------------------------------------------------------------------

def test_ufuncs_are_ufunc_objects_like_numpys():
    for name in ("add", "subtract", "sqrt", "maximum", "logical_not", "greater_equal", "ldexp"):
        u, npu = getattr(ng, name), getattr(np, name)
        assert isinstance(u, ng.ufunc)
        assert repr(u) == repr(npu) == "<ufunc '%s'>" % name
        assert (u.nin, u.nout, u.nargs, u.identity, u.__name__) == (npu.nin, npu.nout, npu.nargs, npu.identity, name)
        assert pickle.loads(pickle.dumps(u)) is u
    assert ng.abs is ng.absolute and ng.true_divide is ng.divide


# ---- at -------------------------------------------------------------------------------------------

AT_CASES = [
    ("add", np.float64), ("add", np.float32), ("add", np.int64), ("add", np.int8), ("add", np.uint16),
    ("add", np.complex128), ("add", np.float16), ("add", np.bool_),
    ("subtract", np.float64), ("subtract", np.int32), ("subtract", np.uint8), ("subtract", np.complex64),
    ("multiply", np.float64), ("multiply", np.int16),
    ("maximum", np.float64), ("maximum", np.int64), ("minimum", np.float32), ("minimum", np.uint32),
    ("bitwise_and", np.int64), ("bitwise_or", np.uint8), ("bitwise_xor", np.int16), ("bitwise_or", np.bool_),
    ("divide", np.float64), ("floor_divide", np.int32), ("remainder", np.int64), ("power", np.float64),
    ("fmax", np.float64), ("logical_and", np.bool_), ("arctan2", np.float32), ("hypot", np.float64),
]


MATH = ("power", "arctan2", "hypot")


@pytest.mark.parametrize("name,dt", AT_CASES, ids=lambda v: getattr(v, "__name__", v))
def test_at_updates_each_selected_element_as_often_as_it_is_selected(name, dt):
    rng = np.random.default_rng(5)
    kind = "nonzero" if name in ("divide", "floor_divide", "remainder") else "any"
    a = data(dt, (40,), seed=1, kind="positive" if name == "power" else kind)
    idx = rng.integers(-40, 40, 3000)          # negative indices count from the end, as NumPy's
    b = data(dt, (3000,), seed=2, kind="nonzero" if kind == "nonzero" else "unit" if name == "power" else "any")
    if name == "multiply":
        b = (np.abs(b) % 2 + 1).astype(dt) if np.dtype(dt).kind in "iu" else np.asarray(1 + b / 1000, dtype=dt)
    if np.dtype(dt).kind == "f" and name not in MATH:   # NaN updates (max and fmax treat them apart)
        b[::97] = np.nan
    exact = False if name in MATH else None  # the device's math functions: within a few ulps
    check_at(name, a, idx, b, exact)
    check_at(name, a, idx, b[7], exact)              # a scalar value
    if np.dtype(dt).kind != "b":
        check_at(name, a, idx, b[7].item(), exact)   # a Python number


def test_at_of_unary_ufuncs_applies_them_once_per_selection():
    a = data(np.float64, (10,), seed=3)
    idx = np.array([0, 0, 1, 3, 3, 3, -1])
    for name in ("negative", "square", "sqrt", "absolute", "floor", "reciprocal"):
        check_at(name, np.abs(a) if name == "sqrt" else a, idx)
    check_at("invert", data(np.int32, (10,), seed=3), idx)
    check_at("logical_not", data(np.bool_, (10,), seed=3), idx)


@pytest.mark.parametrize("index", [
    (slice(None), np.array([0, 0, 2])),
    (np.array([1, 1, 0]), np.array([2, 2, 3])),
    np.array([[0, 1], [1, 1]]),
    (Ellipsis, np.array([3, 3])),
    (1, np.array([0, 0, 0])),
    np.array([True, False, True]),
    (np.array([True, False, True]), slice(1, 3)),
    (slice(None, None, 2), 1),
    0,
    slice(None),
    (1, 2),
], ids=lambda v: repr(v).replace(" ", ""))
def test_at_with_every_kind_of_index(index):
    a = data(np.float64, (3, 4), seed=4)
    sel_shape = a[index].shape
    check_at("add", a, index, np.asarray(data(np.float64, sel_shape, seed=5)) if sel_shape else 2.5)
    check_at("add", a, index, 1.0)
    if len(sel_shape) >= 1:                   # a value broadcast along the selection
        check_at("multiply", a, index, data(np.float64, sel_shape[-1:], seed=6), exact=True)


def test_at_on_views_and_with_values_of_the_array_itself():
    base = data(np.int64, (6, 5), seed=7)
    x = ng.asarray(base)
    ng.add.at(x.T, np.array([0, 0, 4]), 10)
    want = base.copy()
    np.add.at(want.T, np.array([0, 0, 4]), 10)
    np.testing.assert_array_equal(x.get(), want)
    x = ng.asarray(base)
    ng.add.at(x[::2, 1:], (np.array([2, 2]), np.array([0, 3])), 7)
    want = base.copy()
    np.add.at(want[::2, 1:], (np.array([2, 2]), np.array([0, 3])), 7)
    np.testing.assert_array_equal(x.get(), want)
    x = ng.asarray(base[0])                   # the values read from the array being updated
    ng.add.at(x, np.array([0, 1, 1, 2, 3]), x)
    want = base[0].copy()
    np.add.at(want, np.array([0, 1, 1, 2, 3]), want.copy())
    np.testing.assert_array_equal(x.get(), want)


def test_at_computes_in_numpys_loop_dtype_and_casts_back():
    check_at("add", np.array([2, 2]), np.array([0]), -0.5)          # 2 + -0.5 in float64, then int: 1
    check_at("add", np.array([100, 0], np.int8), np.array([0, 1]), 300)   # 300 cast to int8 first (44)
    check_at("add", np.array([100], np.int8), np.array([0]), np.array([-200], np.int16))
    a = np.array([1.0, 1.0], np.float32)                        # float64 sums rounded once to float32
    check_at("add", a, np.array([0]), np.array([2.0 ** -24]))
    check_at("add", a, np.array([1]), np.array([2.0 ** -24 + 2.0 ** -40]))
    check_at("add", np.zeros(3), np.array([0, 2]), np.array([1 + 2j, 3j]).real)
    check_at("less", np.ones(4), np.array([0, 0, 3]), 2)            # a comparison's bool, cast to float


def test_at_reports_numpys_errors_and_leaves_the_array_as_it_was():
    base = np.arange(5.0)
    x = ng.asarray(base)
    cases = [
        (IndexError, lambda: ng.add.at(x, np.array([0, 5]), 1.0)),
        (IndexError, lambda: ng.add.at(x, np.array([0, -6]), 1.0)),
        (IndexError, lambda: ng.add.at(x, np.array([0.5]), 1.0)),
        (ValueError, lambda: ng.add.at(x, np.array([0, 1]), np.ones(3))),
        (ValueError, lambda: ng.add.at(x, np.array([0, 1]))),
        (ValueError, lambda: ng.negative.at(x, np.array([0, 1]), 1.0)),
        (TypeError, lambda: ng.subtract.at(ng.asarray(np.ones(3, bool)), np.array([0]), True)),
        (TypeError, lambda: ng.bitwise_and.at(x, np.array([0]), 1.5)),
        (ValueError, lambda: ng.power.at(ng.asarray(np.arange(3)), np.array([0]), -1)),
    ]
    for exc, f in cases:
        with pytest.raises(exc):
            f()
        np.testing.assert_array_equal(x.get(), base)


def test_at_of_a_numpy_array_is_numpys_own():
    a = np.zeros(4)
    ng.add.at(a, ng.asarray(np.array([1, 1, 3])), ng.asarray(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(a, [0, 3, 0, 3])


def test_numpys_at_on_a_numgpu_array_updates_it():
    """np.add.at(x, ...) with a numgpu x comes to numgpu (__array_ufunc__): x itself changes (its
    update used to be made on a downloaded copy and lost)."""
    x = ng.zeros(5)
    np.add.at(x, np.array([0, 1, 1, 3]), 1.0)
    np.testing.assert_array_equal(x.get(), [1, 2, 0, 1, 0])
    y = ng.asarray(np.arange(4.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        np.ldexp.at(y, np.array([1, 1]), 1)       # no device ldexp: NumPy's, copied back
    np.testing.assert_array_equal(y.get(), [0, 4, 2, 3])


# ---- reduce ---------------------------------------------------------------------------------------

REDUCE_CASES = [
    ("add", np.float64), ("add", np.int8), ("add", np.bool_), ("add", np.float32), ("multiply", np.int16),
    ("maximum", np.float64), ("minimum", np.uint8), ("logical_and", np.int64), ("logical_or", np.float64),
    ("subtract", np.float64), ("subtract", np.int32), ("divide", np.float64), ("bitwise_xor", np.int64),
    ("bitwise_or", np.uint16), ("fmax", np.float64), ("fmin", np.float32), ("hypot", np.float64),
]


@pytest.mark.parametrize("name,dt", REDUCE_CASES, ids=lambda v: getattr(v, "__name__", v))
def test_reduce_gives_numpys_values_and_dtype(name, dt):
    a = data(dt, (4, 5, 6), seed=8, kind="nonzero" if name == "divide" else "any")
    if np.dtype(dt).kind == "f":
        a[1, 2, 3] = np.nan
    npu, u = getattr(np, name), getattr(ng, name)
    x = ng.asarray(a)
    rtol = 1e-5 if np.dtype(dt) == np.float32 else 1e-12
    for kw in ({}, {"axis": 1}, {"axis": -1, "keepdims": True}, {"axis": None}, {"axis": None, "keepdims": True},
               {"axis": 2, "dtype": np.float64}):
        if name in ("logical_and", "logical_or", "bitwise_xor", "bitwise_or") and "dtype" in kw:
            continue
        same_outcome(lambda: u.reduce(x, **kw), lambda: npu.reduce(a, **kw), rtol=rtol)
    same_outcome(lambda: u.reduce(x[0, 0], axis=None), lambda: npu.reduce(a[0, 0], axis=None), rtol=rtol)
    if name in ("add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "bitwise_xor", "bitwise_or",
                "fmax", "fmin"):
        assert_same(u.reduce(x, axis=(0, 2)), npu.reduce(a, axis=(0, 2)), rtol=rtol)
        assert_same(u.reduce(x, axis=(-1, 0), keepdims=True), npu.reduce(a, axis=(-1, 0), keepdims=True), rtol=rtol)


def test_reduce_with_out_initial_and_numpys_errors():
    a = data(np.float64, (3, 4), seed=9)
    x = ng.asarray(a)
    out = ng.zeros(4)
    assert ng.add.reduce(x, out=out) is out
    np.testing.assert_allclose(out.get(), np.add.reduce(a))
    assert_same(ng.maximum.reduce(ng.zeros((0, 3)), axis=0, initial=1.0),
                np.maximum.reduce(np.zeros((0, 3)), axis=0, initial=1.0))
    assert_same(ng.add.reduce(x, axis=1, initial=5.0), np.add.reduce(a, axis=1, initial=5.0))
    with pytest.raises(ValueError):
        ng.maximum.reduce(ng.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError):
        ng.subtract.reduce(ng.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError):
        ng.subtract.reduce(x, axis=(0, 1))
    with pytest.raises(ValueError):
        ng.sqrt.reduce(x)
    with pytest.raises(TypeError):
        ng.subtract.reduce(ng.asarray(np.ones(3, bool)))


# ---- accumulate -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name,dt", [
    ("add", np.int8), ("add", np.bool_), ("add", np.float64), ("multiply", np.uint8), ("maximum", np.int8),
    ("maximum", np.float64), ("minimum", np.float32), ("logical_and", np.int64), ("logical_or", np.bool_),
    ("subtract", np.float64), ("divide", np.int64), ("bitwise_xor", np.uint32), ("fmin", np.float64),
], ids=lambda v: getattr(v, "__name__", v))
def test_accumulate_gives_numpys_values_and_dtype(name, dt):
    a = data(dt, (5, 7), seed=10, kind="nonzero" if name == "divide" else "any")
    if np.dtype(dt).kind == "f":
        a[2, 3] = np.nan
    npu, u = getattr(np, name), getattr(ng, name)
    x = ng.asarray(a)
    for kw in ({}, {"axis": 1}, {"axis": -1}, {"axis": 0, "dtype": np.float64}):
        if name in ("logical_and", "logical_or", "bitwise_xor") and "dtype" in kw:
            continue
        assert_same(u.accumulate(x, **kw), npu.accumulate(a, **kw))
    out = ng.zeros(a.shape, np.float64)
    if name not in ("logical_and", "logical_or", "bitwise_xor"):
        assert u.accumulate(x, axis=1, out=out) is out
        assert_same(out, npu.accumulate(a, axis=1, out=np.zeros(a.shape)))


def test_accumulate_errors_are_numpys():
    with pytest.raises(TypeError):
        ng.subtract.accumulate(ng.asarray(np.ones(3, bool)))
    with pytest.raises(ValueError):
        ng.sqrt.accumulate(ng.arange(3.0))
    with pytest.raises(np.exceptions.AxisError):
        ng.add.accumulate(ng.zeros((2, 3)), axis=2)


# ---- outer ----------------------------------------------------------------------------------------

def test_outer_is_the_op_over_every_pair():
    a, b = data(np.float64, (3,), seed=11), data(np.int32, (2, 4), seed=12)
    for name in ("add", "subtract", "multiply", "less", "maximum", "power", "arctan2"):
        assert_same(getattr(ng, name).outer(ng.asarray(a), ng.asarray(b)), getattr(np, name).outer(a, b))
    assert_same(ng.multiply.outer(np.arange(3), [1, 2]), np.multiply.outer(np.arange(3), [1, 2]))
    assert_same(ng.add.outer(2, 3), np.add.outer(2, 3))
    assert_same(ng.add.outer(ng.asarray(a), ng.asarray(b), dtype=np.float32), np.add.outer(a, b, dtype=np.float32))
    with pytest.raises(ValueError):
        ng.sqrt.outer(ng.asarray(a), ng.asarray(a))


def test_reduceat_is_numpys():
    a = data(np.float64, (8,), seed=13)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        assert_same(ng.add.reduceat(ng.asarray(a), [0, 4, 6]), np.add.reduceat(a, [0, 4, 6]))


# ---- the call's keywords --------------------------------------------------------------------------

def test_where_keeps_out_where_false():
    num, den = data(np.float64, (6,), seed=14), np.array([1.0, 0.0, 2.0, 0.0, -1.0, 4.0])
    want = np.divide(num, den, out=np.full(6, -7.0), where=den != 0)
    out = ng.asarray(np.full(6, -7.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # nothing falls back
        r = ng.divide(ng.asarray(num), ng.asarray(den), out=out, where=ng.asarray(den) != 0)
    assert r is out
    np.testing.assert_array_equal(out.get(), want)
    r = ng.sqrt(ng.asarray(num), where=ng.asarray(num) > 0)      # no out: the selected elements
    sel = num > 0
    np.testing.assert_allclose(r.get()[sel], np.sqrt(num[sel]))
    r = ng.add(ng.asarray(num), 1.0, out=(ng.zeros(6),), where=np.array([True, False] * 3))
    np.testing.assert_array_equal(r.get(), np.add(num, 1.0, out=np.zeros(6), where=np.array([True, False] * 3)))


def test_dtype_and_casting_resolve_as_numpy():
    a, b = data(np.int32, (5,), seed=15), data(np.int32, (5,), seed=16, kind="nonzero")
    x, y = ng.asarray(a), ng.asarray(b)
    for name, kw in [("add", {"dtype": np.float32}), ("multiply", {"dtype": np.int8, "casting": "unsafe"}),
                     ("divide", {"dtype": np.float32}), ("less", {"dtype": bool}),
                     ("floor_divide", {"dtype": np.float64}), ("add", {"casting": "no"})]:
        assert_same(getattr(ng, name)(x, y, **kw), getattr(np, name)(a, b, **kw), rtol=1e-6)
    with pytest.raises(TypeError):                       # float64 -> int8 is not same_kind
        ng.add(ng.asarray(a * 0.5), y, dtype=np.int8)
    with pytest.raises(TypeError):
        ng.add(ng.asarray(a * 0.5), 1.0, out=ng.zeros(5, np.int64))
    with pytest.raises(TypeError):
        ng.add(x, ng.asarray(a * 0.5), casting="no")


def test_out_by_position_and_numpy_out_arrays():
    a = data(np.float64, (5,), seed=17)
    out = ng.zeros(5)
    assert ng.add(ng.asarray(a), 1.0, out) is out
    np.testing.assert_array_equal(out.get(), a + 1.0)
    host_out = np.zeros(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        r = ng.multiply(ng.asarray(a), 2.0, out=host_out)      # NumPy's out: written by NumPy
    assert r is host_out
    np.testing.assert_array_equal(host_out, a * 2.0)


# ---- found in review (stop 43) ----------------------------------------------------------------------

def test_numpys_ufuncs_on_numgpu_arrays_run_numgpus_function_of_the_name():
    """np.matmul, np.vecdot, np.conj, np.degrees, np.radians (numgpu has functions or other ufunc
    objects of those names) and every NumPy ufunc numgpu names: run on the device, no fallback."""
    x = ng.asarray(data(np.float64, (4, 4), seed=30))
    _fallback.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", _fallback.FallbackWarning)
        assert_same(np.matmul(x, x), np.matmul(x.get(), x.get()))
        assert_same(np.vecdot(x, x), np.vecdot(x.get(), x.get()))
        for name in ("conj", "conjugate", "degrees", "radians", "deg2rad", "rad2deg"):
            assert_same(getattr(np, name)(x), getattr(np, name)(x.get()))
        for name in dir(np):
            u = getattr(np, name)
            if isinstance(u, np.ufunc) and u.nin == 1 and u.nout == 1 and callable(vars(ng).get(name)) and \
                    name not in ("isnat", "invert", "bitwise_not", "bitwise_invert", "bitwise_count"):
                with np.errstate(all="ignore"):
                    want = u(x.get())
                assert_same(u(x), want, rtol=1e-12, check_dtype=True)
    assert not _fallback.counts


def test_reduce_and_accumulate_into_an_out_of_another_dtype_compute_in_the_inputs():
    x = np.array([[1.5, 2.5], [4.5, 1.0]])
    o = ng.zeros(2, np.int64)
    ng.add.reduce(ng.asarray(x), axis=0, out=o)
    np.testing.assert_array_equal(o.get(), np.add.reduce(x, axis=0, out=np.zeros(2, np.int64)))
    o = ng.zeros((2, 2), np.int64)
    ng.add.accumulate(ng.asarray(x), axis=1, out=o)
    np.testing.assert_array_equal(o.get(), np.add.accumulate(x, axis=1, out=np.zeros((2, 2), np.int64)))


def test_at_takes_python_numbers_as_numpy_does():
    """NumPy's at makes its values an array: a Python int is int64, not a weak scalar."""
    check_at("minimum", np.zeros(3, np.int8), np.array([0]), -200)
    check_at("add", np.ones(1, np.float32), np.array([0]), 2.0 ** -24 + 2.0 ** -50)
    with pytest.raises(TypeError):
        ng.bitwise_or.at(ng.ones(1, np.uint64), np.array([0]), 2)


def test_at_of_a_broadcast_view_updates_in_order():
    """A view with a zero stride selects one element many times: the updates must not race."""
    b = ng.broadcast_to(ng.zeros(1), (100000,))
    ng.add.at(b, slice(None), 1.0)
    assert float(b[0]) == 100000.0


def test_where_into_an_out_of_another_kind_and_where_must_be_bool():
    x, m = np.array([1.5, 6.5, 3.5, 6.5]), np.array([True, False, True, False])
    o = ng.asarray(np.full(4, 7, np.int64))
    ng.add(ng.asarray(x), 1, out=o, where=ng.asarray(m), casting="unsafe")
    np.testing.assert_array_equal(o.get(), np.add(x, 1, out=np.full(4, 7, np.int64), where=m, casting="unsafe"))
    with pytest.raises(TypeError):
        ng.add(ng.asarray(x), 1, out=ng.zeros(4), where=ng.asarray(np.array([1, 0, 1, 0])))


def test_reduce_over_no_axes_or_a_repeated_axis():
    x = ng.asarray(np.arange(6).reshape(2, 3))
    r = ng.bitwise_xor.reduce(x, axis=())
    r[0, 0] = 99                                   # a new array, as NumPy's
    assert int(x[0, 0]) == 0
    assert ng.logical_xor.reduce(x, axis=()).dtype == np.logical_xor.reduce(x.get(), axis=()).dtype
    with pytest.raises(ValueError):
        ng.fmax.reduce(x, axis=(0, 0))


def test_power_of_integers_takes_a_negative_first_base():
    x = np.array([-2, 2, 3])
    assert_same(ng.power.accumulate(ng.asarray(x)), np.power.accumulate(x))
    assert_same(ng.power.reduce(ng.asarray(x)), np.power.reduce(x))
    with pytest.raises(ValueError):
        ng.power.accumulate(ng.asarray(np.array([2, -2, 3])))


def test_reduce_with_initial_and_where_runs_on_the_device():
    a = data(np.float64, (3, 4), seed=31)
    m = data(np.bool_, (3, 4), seed=32)
    _fallback.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", _fallback.FallbackWarning)
        for name, kw in [("add", {"axis": 1, "initial": 5.0}), ("maximum", {"axis": 0, "where": m, "initial": -1.0}),
                         ("multiply", {"axis": None, "where": m}), ("logical_or", {"axis": 0, "where": m}),
                         ("minimum", {"axis": (0, 1), "initial": 0.5, "keepdims": True})]:
            assert_same(getattr(ng, name).reduce(ng.asarray(a), **kw), getattr(np, name).reduce(a, **kw))
    assert not _fallback.counts
