"""The Array API namespace (python/numgpu/_array_api.py) and the elementwise ops added for it,
checked against NumPy 2 (which implements the same standard)."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import numgpu as ng
from helpers import ALL, COMPLEX, FLOATS, INTS, NUMERIC, assert_same, call_both, case_id, data

NEW_BINARY = ["copysign", "nextafter", "logaddexp", "logaddexp2", "fmod", "heaviside"]
NEW_UNARY = ["arcsinh", "arccosh", "arctanh", "signbit", "cbrt", "exp2", "reciprocal", "deg2rad",
             "rad2deg", "fabs"]
SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e300, -1e-300, np.inf, -np.inf, np.nan])


def special(values, dt):
    """The special values in dt (1e300 becomes inf in float32)."""
    with np.errstate(over="ignore"):
        return np.asarray(values).astype(dt)


def expected_of(np_func, *args):
    """NumPy's result (float16 for the 1-byte inputs NumPy computes in float16, as numgpu)."""
    with np.errstate(all="ignore"):
        return np_func(*args)


def check_op(name, *args):
    """numgpu's `name` on the uploaded args against NumPy's; the same exception type where NumPy
    raises (TypeError: no complex loop for copysign, fmod, ...)."""
    call_both(getattr(np, name), getattr(ng, name), list(args))


def assert_signs(got, exp):
    """Same sign bits, zeros included; a NaN's sign means nothing (it differs between C
    libraries), so NaNs are left out."""
    got = got.get()
    if exp.dtype.kind == "f":
        keep = ~np.isnan(exp)
        np.testing.assert_array_equal(np.signbit(got[keep]), np.signbit(exp[keep]))


def upload(a):
    return ng.asarray(a)


# ---- the new elementwise ops -----------------------------------------------------------


@pytest.mark.parametrize("name", NEW_BINARY)
@pytest.mark.parametrize("dt", ALL, ids=case_id)
def test_new_binary_ops_all_dtypes(name, dt):
    a, b = data(dt, (3, 5), seed=1, kind="any"), data(dt, (3, 5), seed=2, kind="nonzero")
    if name == "fmod" and np.dtype(dt).kind in "iu":
        b[0, 0] = 0  # integer fmod by zero is 0, as NumPy
    check_op(name, a, b)


@pytest.mark.parametrize("name", NEW_UNARY)
@pytest.mark.parametrize("dt", ALL, ids=case_id)
def test_new_unary_ops_all_dtypes(name, dt):
    kind = {"arccosh": "positive", "arctanh": "unit", "reciprocal": "nonzero", "exp2": "small"}.get(name, "any")
    a = data(dt, (4, 6), seed=3, kind=kind)
    if name == "arctanh" and np.dtype(dt).kind in "fc":
        a = a * 0.99
    check_op(name, a)


@pytest.mark.parametrize("name,dt", [
    pytest.param(n, d, id="%s-%s" % (np.dtype(d).name, n)) for n in NEW_BINARY for d in FLOATS])
def test_new_binary_ops_special_values(name, dt):
    a = special(np.repeat(SPECIAL, SPECIAL.size), dt)
    b = special(np.tile(SPECIAL, SPECIAL.size), dt)
    exp = expected_of(getattr(np, name), a, b)
    with np.errstate(all="ignore"):   # (the errstate of NumPy's expected_of)
        got = getattr(ng, name)(upload(a), upload(b))
    assert_same(got, exp)
    assert_signs(got, exp)  # the sign of zeros matters for copysign, nextafter and heaviside


@pytest.mark.parametrize("name", NEW_UNARY)
@pytest.mark.parametrize("dt", FLOATS, ids=case_id)
def test_new_unary_ops_special_values(name, dt):
    a = special(np.concatenate([SPECIAL, [1.5, 0.999, -0.999]]), dt)
    exp = expected_of(getattr(np, name), a)
    with np.errstate(all="ignore"):   # (the errstate of NumPy's expected_of)
        got = getattr(ng, name)(upload(a))
    assert_same(got, exp)
    assert_signs(got, exp)


@pytest.mark.parametrize("dt", INTS, ids=case_id)
def test_integer_reciprocal_and_fmod_edges(dt):
    info = np.iinfo(dt)
    a = np.array([0, 1, 2, info.max, info.min, 7], dtype=dt)
    b = np.array([3, 0, -1 if info.min < 0 else 1, 2, -1 if info.min < 0 else 3, -2 if info.min < 0 else 2], dtype=dt)
    assert_same(expected_of(ng.fmod, upload(a), upload(b)), expected_of(np.fmod, a, b))
    # reciprocal of 0 is whatever NumPy's cast of inf gives on x86: compare the rest exactly
    got, exp = expected_of(ng.reciprocal, upload(a)).get(), expected_of(np.reciprocal, a)
    np.testing.assert_array_equal(got[1:], exp[1:])
    assert got.dtype == exp.dtype


@pytest.mark.parametrize("name", ["copysign", "logaddexp", "fmod", "nextafter"])
def test_new_binary_ops_views_broadcast_and_scalars(name):
    base = data(np.float64, (6, 8), seed=4)
    a = base[::-2, 1::3]                     # negative and non-unit strides
    b = data(np.float64, (3,), seed=5, kind="nonzero")
    for x, y in [(a, b), (a, 2.5), (-1.5, a), (a[:0], b), (np.float64(3.0), np.float64(-2.0))]:
        gx = upload(x) if isinstance(x, np.ndarray) else x
        gy = upload(y) if isinstance(y, np.ndarray) else y
        if not isinstance(gx, ng.ndarray) and not isinstance(gy, ng.ndarray):
            gx = upload(np.asarray(x))
            x = np.asarray(x)
        assert_same(getattr(ng, name)(gx, gy), expected_of(getattr(np, name), x, y))


def test_new_ops_weak_scalar_promotion():
    a = data(np.float32, (5,), seed=6)
    for name in ("copysign", "logaddexp", "heaviside"):
        assert getattr(ng, name)(upload(a), 2.0).dtype == np.float32
        assert getattr(ng, name)(upload(a), np.float64(2.0)).dtype == np.float64
    assert ng.fmod(upload(np.arange(5, dtype=np.int16)), 3).dtype == np.int16
    with pytest.raises(OverflowError):
        ng.fmod(upload(np.arange(5, dtype=np.int8)), 1000)


def test_new_ops_out_argument():
    a = data(np.float64, (4, 4), seed=7)
    out = ng.empty((4, 4))
    r = ng.cbrt(upload(a), out=out)
    assert r is out or r.shape == out.shape
    assert_same(out, np.cbrt(a))


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=5),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)))
def test_hypothesis_unary(a):
    for name in ("arcsinh", "cbrt", "exp2", "signbit", "fabs", "deg2rad"):
        assert_same(expected_of(getattr(ng, name), upload(a)), expected_of(getattr(np, name), a))


@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4), st.data())
def test_hypothesis_binary_broadcast(shapes, draw):
    s1, s2 = shapes.input_shapes
    fl = st.floats(allow_nan=True, allow_infinity=True, width=32)
    a = draw.draw(hnp.arrays(np.float32, s1, elements=fl))
    b = draw.draw(hnp.arrays(np.float32, s2, elements=fl))
    for name in ("copysign", "logaddexp2", "nextafter", "heaviside"):
        assert_same(getattr(ng, name)(upload(a), upload(b)), expected_of(getattr(np, name), a, b))


# ---- the standard's spellings -------------------------------------------------------------

ALIASES = {"acos": np.arccos, "asin": np.arcsin, "atan": np.arctan, "acosh": np.arccosh,
           "asinh": np.arcsinh, "atanh": np.arctanh, "bitwise_invert": np.invert,
           "degrees": np.degrees, "radians": np.radians}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_standard_unary_spellings(name):
    dt = np.int32 if name == "bitwise_invert" else np.float64
    a = data(dt, (9,), seed=8, kind="positive" if name == "acosh" else "unit")
    assert_same(getattr(ng, name)(upload(a)), expected_of(ALIASES[name], a))


def test_standard_binary_spellings():
    a, b = data(np.int16, (7,), seed=9), data(np.int16, (7,), seed=10, kind="shift")
    assert_same(ng.bitwise_left_shift(upload(a), upload(b)), np.left_shift(a, b))
    assert_same(ng.bitwise_right_shift(upload(a), upload(b)), np.right_shift(a, b))
    x, y = data(np.float32, (7,), seed=11), data(np.float32, (7,), seed=12)
    assert_same(ng.atan2(upload(x), upload(y)), np.atan2(x, y))
    assert_same(ng.pow(upload(x), 2), np.pow(x, 2))


# ---- the namespace ---------------------------------------------------------------------------

def test_namespace():
    x = ng.ones(3)
    assert x.__array_namespace__() is ng
    assert x.__array_namespace__(api_version="2023.12") is ng
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2019.01")
    assert ng.__array_api_version__ == "2024.12"


def test_namespace_info():
    info = ng.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 32
    devices = info.devices()
    assert "cpu" in devices and info.default_device() in devices
    defaults = info.default_dtypes()
    assert defaults["real floating"] == np.float64 and defaults["integral"] == np.int64
    assert defaults["indexing"] == np.int64 and defaults["complex floating"] == np.complex128
    assert defaults == np.__array_namespace_info__().default_dtypes()
    # the standard's dtypes, as NumPy's namespace lists them (float16 is not one of them)
    npinfo = np.__array_namespace_info__()
    assert info.dtypes() == npinfo.dtypes()
    assert set(info.dtypes()) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64", "float32", "float64", "complex64", "complex128"}
    for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
                 "numeric", ("bool", "real floating"), ("complex floating", "integral")):
        assert info.dtypes(kind=kind) == npinfo.dtypes(kind=kind), kind
    assert set(info.dtypes(kind="complex floating")) == {"complex64", "complex128"}
    for d in info.dtypes(kind="numeric").values():
        assert ng.empty(1, dtype=d, device="cpu").dtype == d
        assert ng.zeros(2, dtype=d).dtype == d
    with pytest.raises(ValueError):
        info.dtypes(device="nowhere")


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=case_id)
def test_finfo(dt):
    """NumPy's finfo (its scalars: np.finfo(np.float32).eps prints as NumPy's and has a dtype;
    Python floats before); of a complex dtype, its real part's limits (float32 for complex64)."""
    f, e = ng.finfo(dt), np.finfo(dt)
    for attr in ("eps", "max", "min", "smallest_normal", "resolution", "tiny", "precision"):
        assert type(getattr(f, attr)) is type(getattr(e, attr)) and repr(getattr(f, attr)) == repr(getattr(e, attr))
    assert repr(f) == repr(e) and str(f) == str(e) and isinstance(f, ng.finfo) and isinstance(e, ng.finfo)
    assert f.bits == e.bits and f.dtype == e.dtype
    assert f.dtype == np.dtype(dt).type(0).real.dtype
    assert ng.finfo(ng.ones(2, dtype=dt)).bits == e.bits
    with pytest.raises(ValueError):
        ng.finfo(np.int32)


@pytest.mark.parametrize("dt", INTS, ids=case_id)
def test_iinfo(dt):
    i, e = ng.iinfo(dt), np.iinfo(dt)
    assert (i.bits, i.min, i.max, i.dtype) == (e.bits, e.min, e.max, e.dtype)
    assert type(i.min) is int and type(i.max) is int and repr(i) == repr(e) and isinstance(e, ng.iinfo)
    assert ng.iinfo(ng.zeros(1, dtype=dt)).max == e.max
    with pytest.raises(ValueError):
        ng.iinfo(np.float32)


KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("bool", "integral"), np.float32, (np.int8, "real floating")]


@pytest.mark.parametrize("kind", KINDS, ids=case_id)
def test_isdtype(kind):
    for dt in ALL + [np.complex128]:
        assert ng.isdtype(np.dtype(dt), kind) == np.isdtype(np.dtype(dt), kind), dt


def test_isdtype_errors():
    with pytest.raises(TypeError):
        ng.isdtype(1, "bool")
    with pytest.raises(ValueError):
        ng.isdtype(np.dtype(np.int8), "integer")
    with pytest.raises(TypeError):
        ng.isdtype(np.dtype(np.int8), 3)


def test_can_cast_and_result_type():
    for a in ALL:
        for b in ALL:
            assert ng.can_cast(a, b) == np.can_cast(a, b), (a, b)
            assert ng.result_type(a, b) == np.result_type(a, b), (a, b)
            assert ng.result_type(ng.zeros(1, a), ng.zeros(1, b)) == np.result_type(np.zeros(1, a), np.zeros(1, b))
        for scalar in (1, 1.0, 1j, True):   # Python scalars are weak (NEP 50)
            assert ng.result_type(ng.zeros(1, a), scalar) == np.result_type(np.zeros(1, a), scalar), (a, scalar)
            assert (ng.asarray(np.zeros(1, a)) + scalar).dtype == np.result_type(np.zeros(1, a), scalar)
    x = ng.zeros(2, dtype=np.int8)
    assert ng.can_cast(x, np.int16) and not ng.can_cast(x, np.uint8)
    assert ng.result_type(x, 1) == np.int8                     # Python scalars are weak
    assert ng.result_type(x, 1.0) == np.float64
    assert ng.result_type(ng.zeros(2, dtype=np.float32), 2.0, np.int8) == np.float32
    with pytest.raises(ValueError):
        ng.result_type()


@pytest.mark.parametrize("to", ALL, ids=case_id)
def test_astype_every_dtype(dtype, to):
    a = data(dtype, (3, 4), seed=13, kind="nonneg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert_same(ng.astype(upload(a), to), np.astype(a, to))
        x = upload(a)
        r = ng.astype(x, to, copy=False)
        assert (r is x) == (np.dtype(to) == a.dtype)


def test_astype():
    a = data(np.float64, (3, 4), seed=13)
    x = upload(a)
    assert_same(ng.astype(x, np.int32), a.astype(np.int32))
    assert ng.astype(x, np.float64, copy=False) is x
    y = ng.astype(x, np.float64)
    assert y is not x
    y[0, 0] = 100.0
    assert x[0, 0].item() == a[0, 0]
    z = ng.astype(x, np.float32, device="opencl:0" if "opencl:0" in ng.__array_namespace_info__().devices()
                  else "cpu")
    assert_same(z, a.astype(np.float32))


# ---- creation -----------------------------------------------------------------------------------

def test_asarray_copy_semantics():
    x = ng.arange(5)
    assert ng.asarray(x) is x and ng.asarray(x, copy=False) is x
    y = ng.asarray(x, copy=True)
    y[0] = 7
    assert x[0].item() == 0
    with pytest.raises(ValueError, match="copy"):
        ng.asarray(x, dtype=np.float32, copy=False)
    with pytest.raises(ValueError, match="copy"):
        ng.asarray([1, 2, 3], copy=False)
    assert_same(ng.asarray([1.5, 2], dtype=np.float32), np.asarray([1.5, 2], dtype=np.float32))
    assert ng.asarray([1, 2], device="cpu").device == "cpu"


def test_creation_defaults_and_devices():
    assert ng.zeros(()).dtype == np.float64 and ng.ones((2,), dtype=None).dtype == np.float64
    assert ng.empty(3).dtype == np.float64
    x = ng.arange(6, dtype=np.int16).reshape(2, 3)
    for f, v in ((ng.zeros_like, 0), (ng.ones_like, 1)):
        r = f(x)
        assert (r.shape, r.dtype, r.device) == (x.shape, x.dtype, x.device)
        assert_same(r, np.full((2, 3), v, np.int16))
    assert_same(ng.full_like(x, 3, dtype=np.float32), np.full((2, 3), 3, np.float32))
    assert ng.empty_like(x, shape=(4,)).shape == (4,)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 4, 1), (4, 3, -2), (3, 3, 2 ** 70), (2, 5, -(2 ** 65)),
                                   (0, None, 5)])
def test_eye(n, m, k):
    assert_same(ng.eye(n, m, k=k), np.eye(n, m, k=max(-1000, min(1000, k))))


def test_meshgrid():
    a, b, c = np.arange(3.0), np.arange(4), np.arange(2.0)
    for indexing in ("xy", "ij"):
        for sparse in (False, True):
            got = ng.meshgrid(upload(a), upload(b), upload(c), indexing=indexing, sparse=sparse)
            exp = np.meshgrid(a, b, c, indexing=indexing, sparse=sparse)
            assert isinstance(got, list)
            assert_same(got, list(exp))
    assert ng.meshgrid() == []
    with pytest.raises(ValueError):
        ng.meshgrid(upload(a), indexing="yx")


# ---- array object ----------------------------------------------------------------------------------

def test_array_attributes():
    a = data(np.float32, (2, 3, 4), seed=14)
    x = upload(a)
    assert_same(x.mT, np.matrix_transpose(a))
    assert_same(ng.matrix_transpose(x), np.matrix_transpose(a))
    with pytest.raises(ValueError):
        upload(a[0, 0]).mT
    assert x.device == "cpu" or x.device.startswith(("opencl", "cuda"))
    assert x.to_device(x.device) is x
    assert_same(x.to_device("cpu"), a)
    with pytest.raises(ValueError):
        x.to_device("cpu", stream=1)


def test_python_scalar_conversions():
    assert complex(ng.asarray(2.5)) == 2.5 + 0j and type(complex(ng.asarray(3))) is complex
    with pytest.raises(TypeError):
        complex(ng.ones(2))
    assert int(ng.asarray(-3.7)) == -3 and float(ng.asarray(7, dtype=np.int8)) == 7.0
    with pytest.raises(OverflowError):
        int(ng.asarray(np.inf))
    with pytest.raises(ValueError):
        int(ng.asarray(np.nan))
    assert [0, 1, 2][ng.asarray(2)] == 2
    with pytest.raises(TypeError):
        [0, 1][ng.asarray(1.0)]
    assert bool(ng.asarray(0.5)) is True and bool(ng.asarray(0)) is False


# ---- manipulation and linear algebra --------------------------------------------------------------

def test_permute_dims_moveaxis_unstack():
    a = data(np.int32, (2, 3, 4), seed=15)
    x = upload(a)
    assert_same(ng.permute_dims(x, (2, 0, 1)), np.permute_dims(a, (2, 0, 1)))
    for src, dst in [(0, -1), (-1, 0), ((0, 1), (2, 0)), ([0, 2], [1, 0])]:
        call_both(np.moveaxis, ng.moveaxis, [a, src, dst], [x, src, dst])
    for src, dst in [(3, 0), ((0, 0), (1, 2)), ((0, 1), (1,))]:
        with pytest.raises((ValueError, np.exceptions.AxisError)):
            ng.moveaxis(x, src, dst)
    for axis in (0, 1, -1):
        assert_same(ng.unstack(x, axis=axis), np.unstack(a, axis=axis))
    with pytest.raises(ValueError):
        ng.unstack(ng.asarray(1.0))


@pytest.mark.parametrize("s1,s2,axis", [((5,), (5,), -1), ((3, 4), (4,), -1), ((2, 3, 4), (3, 4), -2),
                                         ((4, 1), (1, 4, 3), 0), ((0, 3), (3,), -1)])
def test_vecdot(s1, s2, axis):
    for dt in (np.float32, np.int64):
        a, b = data(dt, s1, seed=16), data(dt, s2, seed=17)
        call_both(np.vecdot, ng.vecdot, [a, b], kwargs={"axis": axis})


@pytest.mark.parametrize("dt", ALL, ids=case_id)
def test_vecdot_keeps_the_input_dtype(dt):
    # NumPy's vecdot sums in the promoted input dtype (uint8 stays uint8, wrapping), unlike sum
    a, b = data(dt, (3, 40), seed=20), data(dt, (40,), seed=21)
    call_both(np.vecdot, ng.vecdot, [a, b])
    call_both(np.vecdot, ng.vecdot, [a[:, ::-2], b[::2]])
    call_both(np.vecdot, ng.vecdot, [a[:, :0], b[:0]])
    call_both(np.vecdot, ng.vecdot, [a.T, b[:3]], kwargs={"axis": 0})


def test_vecdot_mixed_dtypes():
    for d1, d2 in ((np.uint8, np.int8), (np.int16, np.uint8), (np.int32, np.float32), (np.bool_, np.uint8)):
        a, b = data(d1, (2, 5), seed=22), data(d2, (5,), seed=23)
        call_both(np.vecdot, ng.vecdot, [a, b])


def test_vecdot_errors():
    with pytest.raises(ValueError):
        ng.vecdot(ng.ones(3), ng.ones(4))
    with pytest.raises(np.exceptions.AxisError):
        ng.vecdot(ng.ones((3, 3)), ng.ones(3), axis=-2)


def test_concat_and_broadcast_arrays():
    a, b = data(np.int8, (2, 3), seed=18), data(np.int16, (1, 3), seed=19)
    assert_same(ng.concat([upload(a), upload(b)]), np.concat([a, b]))
    assert_same(ng.concat([upload(a), upload(b)], axis=None), np.concat([a, b], axis=None))
    got = ng.broadcast_arrays(upload(a), upload(b), upload(np.float32(2)))
    assert isinstance(got, list)
    assert_same(got, list(np.broadcast_arrays(a, b, np.float32(2))))
    with pytest.raises(ValueError):
        ng.broadcast_arrays(ng.ones(3), ng.ones(4))


@pytest.mark.parametrize("dt", NUMERIC, ids=case_id)
def test_clip(dt):
    a = data(dt, (4, 5), seed=20)
    x = upload(a)
    lo, hi = data(dt, (5,), seed=21, kind="small"), data(dt, (4, 1), seed=22, kind="small") + 3
    call_both(np.clip, ng.clip, [a, 1, 4], [x, 1, 4])
    call_both(np.clip, ng.clip, [a, lo, hi], [x, upload(lo), upload(hi)])
    assert_same(ng.clip(x, min=2), np.clip(a, min=2))
    assert_same(ng.clip(x, max=upload(hi)), np.clip(a, max=hi))
    assert_same(ng.clip(x), np.clip(a))
    if np.dtype(dt).kind in "iu":   # a Python int bound outside the dtype: NumPy clips to the range
        assert_same(ng.clip(x, 0, 100000), np.clip(a, 0, 100000))


def test_clip_nan_and_out():
    a = np.array([np.nan, -1.0, 0.5, 3.0])
    assert_same(ng.clip(upload(a), 0.0, 1.0), np.clip(a, 0.0, 1.0))
    out = ng.empty(4)
    assert ng.clip(upload(a), 0.0, 1.0, out=out) is out
    assert_same(out, np.clip(a, 0.0, 1.0))


@pytest.mark.parametrize("corr", [0, 1, 0.5, 2.5, 5])
@pytest.mark.parametrize("axis", [None, 0, (0, 1), ()])
def test_var_std_correction(corr, axis):
    a = data(np.float64, (3, 4), seed=23)
    for ngf, npf in ((ng.var, np.var), (ng.std, np.std)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = npf(a, axis=axis, ddof=corr, keepdims=True)
        assert_same(ngf(upload(a), axis=axis, correction=corr, keepdims=True), exp)
    assert_same(ng.var(upload(a), None, None, None, 1), np.var(a, None, None, None, 1))  # NumPy's order
    with pytest.raises(ValueError):
        ng.std(upload(a), ddof=1, correction=1)


def test_reshape_copy():
    a = np.arange(12.0).reshape(3, 4)
    x = upload(a)
    assert_same(ng.reshape(x, (4, 3), copy=False), a.reshape(4, 3))
    with pytest.raises(ValueError, match="copy"):
        ng.reshape(x.T, (12,), copy=False)
    assert_same(ng.reshape(x.T, (12,)), a.T.reshape(12))
    y = ng.reshape(x, (12,), copy=True)
    y[0] = 99.0
    assert x[0, 0].item() == 0.0
    assert_same(ng.reshape(x, newshape=(2, 6)), a.reshape(2, 6))
    # the method takes NumPy 2.1's copy= too (a TypeError before), the shape as one or several ints
    for xp, v in ((np, a), (ng, x)):
        assert v.reshape(4, 3, copy=False).shape == (4, 3) and v.reshape((2, 6), copy=None, order="C").shape == (2, 6)
        c = v.reshape(12, copy=True)
        c[0] = 7.0
        assert float(v[0, 0]) == 0.0
        with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping"):
            v.T.reshape(-1, copy=False)
    assert_same(x.T.reshape((2, 6), order="F", copy=False), a.T.reshape((2, 6), order="F", copy=False))


def test_real_imag_conj_on_real_dtypes():
    a = data(np.float32, (4,), seed=24)
    x = upload(a)
    assert_same(ng.real(x), np.real(a))
    assert_same(ng.imag(x), np.imag(a))
    assert_same(ng.conj(x), np.conj(a))
    b = data(np.bool_, (4,), seed=25)
    assert_same(ng.conj(upload(b)), np.conj(b))


def test_complex_in_the_namespace():
    x = ng.asarray([1 + 2j, -3j])
    assert x.dtype == np.complex128 and ng.isdtype(x.dtype, "complex floating")
    assert ng.isdtype(x.dtype, "numeric") and not ng.isdtype(x.dtype, "real floating")
    assert ng.isdtype(np.dtype(np.float16), "real floating")
    assert math.isfinite(ng.finfo(x).eps) and ng.finfo(x).dtype == np.float64
    assert ng.result_type(x, np.float32) == np.complex128
    assert ng.result_type(ng.zeros(1, np.float32), 1j) == np.complex64
    assert ng.can_cast(np.float32, np.complex64) and not ng.can_cast(np.complex64, np.float64)
    assert_same(ng.astype(x, np.complex64), np.astype(np.asarray([1 + 2j, -3j]), np.complex64))
