"""Reductions against NumPy: sum prod mean var std min max argmin argmax any
all count_nonzero, as functions and methods, over every dtype; axes (None,
int, negative, tuple), keepdims, dtype=, ddof, non-contiguous inputs, axis
errors, empty reductions, NaN handling, accuracy of long float sums, and
hypothesis over shapes and axes."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import numgpu as ng
from helpers import ALL, COMPLEX, FLOATS, INEXACT, INTS, assert_same, data, dtype_id

REDUCERS = ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all", "count_nonzero"]
METHODS = [r for r in REDUCERS if r != "count_nonzero"]   # NumPy has no ndarray.count_nonzero
ARG = ("argmin", "argmax")
SHAPE = (4, 5, 6)


def _rtol(name, dt):
    """Float32 and complex64 reductions: NumPy sums pairwise in single precision, numgpu in double and
    rounds once, so the two can differ by a few float32 ulps of the partial sums."""
    if np.dtype(dt) in (np.float32, np.complex64) and name in ("sum", "prod", "mean", "var", "std"):
        return 2e-5
    return None


def _kind(name, dt):
    return "unit" if name == "prod" and np.dtype(dt).kind in "fc" else ("small" if name == "prod" else "any")


def _np_call(name, a, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # "Mean of empty slice", "Degrees of freedom <= 0"
        r = getattr(np, name)(a, **kw)
    if name == "count_nonzero" and isinstance(r, int):
        r = np.intp(r)  # NumPy gives a Python int for axis=None; numgpu a 0-d intp array
    return r


def check_reduce(name, a, ng_a=None, method=False, rtol=None, atol=0.0, **kw):
    """numgpu.<name>(a, **kw) (or the method) against NumPy; errors must match in type."""
    ng_a = ng.asarray(a) if ng_a is None else ng_a
    try:
        exp = _np_call(name, a, **kw)
    except (AxisError, ValueError, TypeError) as e:
        with pytest.raises(type(e)):
            getattr(ng_a, name)(**kw) if method else getattr(ng, name)(ng_a, **kw)
        return None
    with np.errstate(all="ignore"):
        got = getattr(ng_a, name)(**kw) if method else getattr(ng, name)(ng_a, **kw)
    single = (np.float32, np.complex64)
    if not atol and name in ("sum", "mean") and a.dtype.kind in "fc" and a.size:
        # partial sums round in another order than NumPy's (simd lanes; float32 accumulation on a
        # backend): allow that, absolutely, since a sum can cancel to near zero (complex: each part,
        # bounded by |z|)
        finite = np.abs(a[np.isfinite(a)].astype(np.complex128 if a.dtype.kind == "c" else np.float64))
        wide = a.dtype not in single and kw.get("dtype") not in single
        atol = (1e-14 if wide else 2e-6) * float(finite.sum()) / (a.size if name == "mean" else 1)
    assert_same(got, exp, rtol=rtol if rtol is not None else _rtol(name, a.dtype), atol=atol)
    return got


AXES = [None, 0, 1, 2, -1, -3, (0, 2), (1, 2), (0, 1, 2), (-1, 0), ()]
FEW_AXES = [None, 1]   # every dtype: whole and middle axis (each axis pattern is a kernel of its own)


@pytest.mark.parametrize("name", REDUCERS)
def test_reduce_all_dtypes(name, dtype):
    a = data(dtype, SHAPE, seed=1, kind=_kind(name, dtype))
    for axis in FEW_AXES:
        if name in ARG and isinstance(axis, tuple):
            continue
        check_reduce(name, a, axis=axis)


@pytest.mark.parametrize("name", REDUCERS)
@pytest.mark.parametrize("dt", [np.int32, np.float64, np.float16, np.complex64, np.complex128], ids=dtype_id)
def test_reduce_all_axes(name, dt):
    a = data(dt, SHAPE, seed=1, kind=_kind(name, dt))
    for axis in AXES:
        if name in ARG and isinstance(axis, tuple):
            continue
        check_reduce(name, a, axis=axis)
        if name not in ARG:
            check_reduce(name, a, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", [r for r in REDUCERS if r not in ARG])
@pytest.mark.parametrize("axis", [None, 1], ids=str)
def test_keepdims(name, axis, dtype):
    a = data(dtype, SHAPE, seed=2, kind=_kind(name, dtype))
    check_reduce(name, a, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", ARG)
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_arg_keepdims(name, axis):
    a = data(np.float64, SHAPE, seed=3)
    check_reduce(name, a, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", METHODS)
def test_methods(name, dtype):
    a = data(dtype, SHAPE, seed=4, kind=_kind(name, dtype))
    check_reduce(name, a, method=True)
    check_reduce(name, a, method=True, axis=1)
    check_reduce(name, a, method=True, axis=-2)
    if name not in ARG:
        check_reduce(name, a, method=True, axis=1, keepdims=True)


def test_method_positional_axis():
    a = data(np.int32, (3, 7), seed=4)
    assert_same(ng.asarray(a).sum(1), a.sum(1))
    assert_same(ng.asarray(a).max(0), a.max(0))
    assert_same(ng.asarray(a).argmax(1), a.argmax(1))


def test_result_dtypes_examples():
    for dt, exp in [(np.int8, np.int64), (np.int16, np.int64), (np.uint8, np.uint64), (np.uint32, np.uint64),
                    (np.bool_, np.int64), (np.float32, np.float32), (np.int64, np.int64)]:
        x = ng.asarray(data(dt, (10,)))
        assert x.sum().dtype == exp and ng.sum(x).dtype == np.sum(data(dt, (10,))).dtype
        assert x.prod().dtype == exp
    for dt in INTS + [np.bool_]:
        assert ng.asarray(data(dt, (10,))).mean().dtype == np.float64
        assert ng.asarray(data(dt, (10,))).var().dtype == np.float64
    assert ng.asarray(data(np.float32, (10,))).mean().dtype == np.float32
    assert ng.asarray(data(np.int8, (10,))).max().dtype == np.int8
    assert ng.asarray(data(np.float32, (10,))).argmax().dtype == np.intp


@pytest.mark.parametrize("src", ALL, ids=dtype_id)
@pytest.mark.parametrize("dst", [np.int8, np.uint64, np.float16, np.float32, np.float64, np.complex64,
                                 np.complex128], ids=dtype_id)
def test_sum_dtype_argument(src, dst):
    a = data(src, SHAPE, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)   # complex -> real drops the imaginary part
        check_reduce("sum", a, dtype=dst, axis=1)   # dtype=float16: each element cast to half first
        if src in INEXACT and dst in INEXACT:
            check_reduce("sum", a, dtype=dst)
            check_reduce("sum", a, dtype=dst, axis=(0, 2))
            check_reduce("prod", data(src, SHAPE, seed=5, kind="unit"), dtype=dst, axis=-1)


@pytest.mark.parametrize("src", [np.bool_, np.int8, np.int64, np.uint16, np.float16, np.float32, np.float64,
                                 np.complex64], ids=dtype_id)
@pytest.mark.parametrize("dst", [np.float32, np.float64, np.complex128], ids=dtype_id)
def test_mean_dtype_argument(src, dst):
    a = data(src, SHAPE, seed=6)
    # dtype=float32: NumPy accumulates in float32, numgpu in float64 (then rounds), so allow float32
    # rounding of the partial sums (absolute, since means can cancel to near zero)
    tol = dict(rtol=2e-5, atol=1e-5) if dst == np.float32 else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_reduce("mean", a, dtype=dst, **tol)
        check_reduce("mean", a, dtype=dst, axis=1, **tol)


def test_prod_dtype_argument():
    a = data(np.int8, (12,), kind="small")
    check_reduce("prod", a, dtype=np.int8)
    check_reduce("prod", a, dtype=np.float64)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("ddof", [0, 1, 2])
@pytest.mark.parametrize("dt", [np.int32, np.float16, np.float32, np.float64, np.bool_, np.complex64, np.complex128],
                         ids=dtype_id)
def test_ddof(name, ddof, dt):
    a = data(dt, SHAPE, seed=7)
    check_reduce(name, a, ddof=ddof)
    check_reduce(name, a, ddof=ddof, axis=1)
    check_reduce(name, a, ddof=ddof, axis=(0, 2), keepdims=True)
    check_reduce(name, a, ddof=ddof, method=True, axis=-1)


@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof_at_least_n(name):
    a = data(np.float64, (3, 2), seed=8)
    check_reduce(name, a, ddof=2, axis=1)   # n - ddof == 0: inf/nan like NumPy
    check_reduce(name, a, ddof=3, axis=1)   # negative: NumPy clamps to 0
    check_reduce(name, a, ddof=6)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128], ids=dtype_id)
def test_var_of_complex_with_dtype(name, dt):
    """dtype= with complex input: NumPy's mean is taken in dtype (a real dtype keeps the real parts),
    the deviations stay complex (|x - mean|^2), the result is in dtype."""
    a = data(np.complex64, SHAPE, seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_reduce(name, a, dtype=dt, rtol=2e-5 if dt == np.float32 else None)
        check_reduce(name, a, dtype=dt, axis=(0, 2), rtol=2e-5 if dt == np.float32 else None)


@pytest.mark.parametrize("view", ["contiguous", "transposed", "step"])
def test_float16_rounds_as_numpy(view):
    """NumPy's float16 sum/prod accumulate in float32 along its inner loop (the axis of smallest
    stride) and round to half once per inner loop: once for a reduction along it, after every element
    when it is a kept axis, once per run when reduced axes lie outside it; var/std also round the mean,
    each deviation and its square. numgpu rounds at the same steps: the results are equal bit for bit."""
    make = {"contiguous": lambda x: x, "transposed": lambda x: x.transpose(1, 2, 0), "step": lambda x: x[:, ::2, 1::3]}
    base = data(np.float16, (6, 7, 40), seed=21)
    for name in ("sum", "prod", "mean", "var", "std"):
        b = base if name != "prod" else (base / 8).astype(np.float16)
        x, gx = make[view](b), make[view](ng.asarray(b))   # the view on both sides (same strides)
        for axis in (None, 0, 1, 2, (0, 1), (0, 2), (1, 2)):
            exp = _np_call(name, x, axis=axis)
            got = getattr(ng, name)(gx, axis=axis).get()
            np.testing.assert_array_equal(got, exp, err_msg="%s axis=%s" % (name, axis))


def test_var_numerically_stable():
    a = 1e8 + data(np.float64, (1000,), seed=9)
    check_reduce("var", a, rtol=1e-6)
    check_reduce("std", a, rtol=1e-6)


# ---- non-contiguous inputs ---------------------------------------------------------------

VIEWS = {
    "step": lambda x: x[::2, 1::2],
    "negative": lambda x: x[::-1, :, ::-2],
    "transposed": lambda x: x.transpose(2, 0, 1),
    "swap": lambda x: x.T,
    "middle": lambda x: x[1:3, 1:4, 2],
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmin", "var", "any", "count_nonzero"])
def test_non_contiguous(name, view):
    base = data(np.float64, (6, 7, 8), seed=10)
    v, gv = VIEWS[view](base), VIEWS[view](ng.asarray(base))
    for axis in (None, 0, -1):
        check_reduce(name, v, ng_a=gv, axis=axis)
    if name not in ARG:
        check_reduce(name, v, ng_a=gv, axis=tuple(range(v.ndim))[::2])


@pytest.mark.parametrize("view", list(VIEWS))
def test_non_contiguous_ints(view):
    base = data(np.int16, (6, 7, 8), seed=11)
    v, gv = VIEWS[view](base), VIEWS[view](ng.asarray(base))
    for name in ["sum", "min", "argmax", "all"]:
        check_reduce(name, v, ng_a=gv, axis=1 if v.ndim > 1 else 0)


def test_reduce_of_broadcast_view():
    row = data(np.float64, (5,))
    b = ng.broadcast_to(ng.asarray(row), (4, 5))
    e = np.broadcast_to(row, (4, 5))
    for axis in (None, 0, 1):
        check_reduce("sum", e, ng_a=b, axis=axis)
        check_reduce("max", e, ng_a=b, axis=axis)


# ---- axis errors -------------------------------------------------------------------------

@pytest.mark.parametrize("name", REDUCERS)
@pytest.mark.parametrize("axis", [3, -4, 10], ids=str)
def test_axis_error(name, axis):
    a = data(np.float64, SHAPE)
    with pytest.raises(AxisError):
        getattr(np, name)(a, axis=axis)
    with pytest.raises(AxisError):
        getattr(ng, name)(ng.asarray(a), axis=axis)
    if name != "count_nonzero":
        with pytest.raises(AxisError):
            getattr(ng.asarray(a), name)(axis=axis)


def test_axis_error_message():
    a = data(np.float64, (2, 3))
    with pytest.raises(AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        ng.sum(ng.asarray(a), axis=2)
    with pytest.raises(AxisError, match="axis -3 is out of bounds for array of dimension 2"):
        ng.asarray(a).max(axis=-3)


def test_duplicate_axis():
    a = data(np.float64, SHAPE)
    for axis in [(0, 0), (1, -2)]:
        with pytest.raises(ValueError, match="duplicate value in 'axis'"):
            np.sum(a, axis=axis)
        with pytest.raises(ValueError, match="duplicate value in 'axis'"):
            ng.sum(ng.asarray(a), axis=axis)


def test_arg_reductions_reject_tuple_axis():
    a = data(np.float64, SHAPE)
    with pytest.raises(TypeError):
        np.argmax(a, axis=(0, 1))
    with pytest.raises(TypeError):
        ng.argmax(ng.asarray(a), axis=(0, 1))


def test_zero_d_reductions():
    for dt in (np.int32, np.float64, np.bool_):
        z = np.asarray(data(dt, (1,))[0])
        for name in REDUCERS:
            check_reduce(name, z)
            if name not in ARG:
                check_reduce(name, z, axis=())


@pytest.mark.parametrize("name", ARG)
def test_arg_of_0d_with_axis(name):
    """NumPy accepts axis 0 and -1 for argmin/argmax of a 0-d array (it sees it as 1-d) and returns 0."""
    z = np.asarray(2.5)
    check_reduce(name, z, axis=0)
    check_reduce(name, z, axis=-1)


# ---- empty reductions --------------------------------------------------------------------

@pytest.mark.parametrize("dt", [np.int32, np.float64, np.bool_, np.uint8, np.float16, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("shape,axis", [((0,), None), ((3, 0), None), ((3, 0), 1), ((3, 0), 0), ((0, 4), 0),
                                        ((0, 4), 1), ((2, 0, 3), (0, 2))], ids=str)
@pytest.mark.parametrize("name", REDUCERS)
def test_empty(name, shape, axis, dt):
    if name in ARG and isinstance(axis, tuple):
        return
    check_reduce(name, np.zeros(shape, dtype=dt), axis=axis)


def test_empty_values():
    e = ng.asarray(np.zeros((0,)))
    assert ng.sum(e).item() == 0 and ng.prod(e).item() == 1
    assert ng.any(e).item() is False and ng.all(e).item() is True
    assert np.isnan(ng.mean(e).item())
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        ng.max(e)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum which has no identity"):
        e.min()
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        ng.argmax(e)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        e.argmin()


# ---- NaN ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", INEXACT, ids=dtype_id)
def test_nan_propagation(dt):
    a = data(dt, (5, 6), seed=12)
    a[1, 2] = np.nan
    a[3, 0] = np.nan
    a[4, 5] = np.inf
    a[0, 1] = -np.inf
    if a.dtype.kind == "c":   # NaN and inf in the imaginary part only, and NaN + NaN j
        a[2, 3] = complex(1.0, np.nan)
        a[0, 4] = complex(np.inf, -np.inf)
        a[2, 1] = complex(np.nan, np.nan)
    for name in REDUCERS:
        for axis in (None, 0, 1):
            check_reduce(name, a, axis=axis)


@pytest.mark.parametrize("dt", INEXACT, ids=dtype_id)
def test_argmax_first_nan(dt):
    a = np.array([1.0, 5.0, np.nan, 7.0, np.nan, -1.0], dtype=dt)
    assert ng.argmax(ng.asarray(a)).item() == 2 == np.argmax(a)
    assert ng.argmin(ng.asarray(a)).item() == 2 == np.argmin(a)
    m = np.array([[1.0, np.nan, 3.0, np.nan], [np.nan, 0.0, 2.0, 9.0], [4.0, 4.0, 1.0, 1.0]], dtype=dt)
    for axis in (0, 1, None):
        check_reduce("argmax", m, axis=axis)
        check_reduce("argmin", m, axis=axis)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.int8, np.bool_],
                         ids=dtype_id)
@pytest.mark.parametrize("kind", ["random", "ties", "nan", "all_nan", "constant", "extremes"])
def test_argmax_of_a_large_array(dt, kind):
    """Whole-array argmax/argmin large enough to run in parallel (a ranked reduction: the
    first of equal values, the first NaN), contiguous and strided."""
    rng = np.random.default_rng(11)
    n = 100_003
    inexact = np.issubdtype(dt, np.floating)
    if kind in ("nan", "all_nan") and not inexact:
        pytest.skip("no NaN in %s" % np.dtype(dt).name)
    x = (rng.random(n) * 100).astype(dt) if kind == "random" else rng.integers(0, 3, n).astype(dt)
    if kind == "nan":
        x[rng.integers(1, n, 4)] = np.nan
    elif kind == "all_nan":
        x[:] = np.nan
    elif kind == "constant":
        x[:] = 1
    elif kind == "extremes" and dt != np.bool_:  # the lowest and highest values, where workers start
        info = np.finfo(dt) if inexact else np.iinfo(dt)
        x[:] = info.min
        x[n // 2:] = info.max
        if inexact:
            x[n // 3] = -np.inf
            x[n - 5] = np.inf
    for name in ("argmax", "argmin"):
        for v in (x, x[::-3], x[7:].reshape(4, -1)[:, ::2]):
            assert getattr(ng, name)(ng.asarray(v)).item() == getattr(np, name)(v), (name, v.shape)


@pytest.mark.parametrize("dt", COMPLEX, ids=dtype_id)
def test_complex_order_and_nan(dt):
    """min/max/argmin/argmax of complex: NumPy's lexicographic order (real part, then imaginary), ties
    take the first; a NaN in either part propagates, argmax/argmin give the first NaN."""
    nan = np.nan
    cases = [
        [1 + 5j, 2 - 1j, 2 + 0j, 2 + 0j, -3 + 9j],
        [2 + 0j, complex(1, nan), 3 + 0j],
        [complex(nan, 0), 5 + 0j, complex(1, nan)],
        [4 + 1j, 4 + 1j, 4 - 1j, complex(4, nan)],
        [complex(-np.inf, -np.inf), complex(-np.inf, -5), complex(np.inf, np.inf), complex(np.inf, 2)],
        [1j, -1j, 0j, 0j],
    ]
    for c in cases:
        a = np.array(c, dtype=dt)
        for name in ("min", "max", "argmin", "argmax"):
            check_reduce(name, a)
            check_reduce(name, np.stack([a, a[::-1]]), axis=1)
            check_reduce(name, np.stack([a, a[::-1]], axis=1), axis=0)


@pytest.mark.parametrize("dt", COMPLEX, ids=dtype_id)
def test_complex_truth(dt):
    """any/all/count_nonzero: a complex value is nonzero when either part is."""
    a = np.array([[0j, 1j, 0j], [2 + 0j, 0j, 0j], [0j, 0j, 0j], [-0.0 + 0j, 0 - 0.0j, 1e-300j]], dtype=dt)
    for name in ("any", "all", "count_nonzero"):
        for axis in (None, 0, 1):
            check_reduce(name, a, axis=axis)
    check_reduce("all", np.array([1j, 1, -1j], dtype=dt))


def test_nan_all_nan_and_inf():
    a = np.array([np.nan, np.nan])
    for name in ("min", "max", "sum", "argmax", "argmin"):
        check_reduce(name, a)
    b = np.array([np.inf, -np.inf, 1.0])
    for name in ("sum", "mean", "max", "min", "argmax", "argmin", "prod"):
        check_reduce(name, b)


def test_argmax_ties_take_first():
    a = np.array([[3, 1, 3, 0], [2, 2, 2, 2], [0, 5, 5, 0]], dtype=np.int32)
    for axis in (None, 0, 1):
        check_reduce("argmax", a, axis=axis)
        check_reduce("argmin", a, axis=axis)
    b = np.array([True, False, True])
    check_reduce("argmax", b)
    check_reduce("argmin", b)


def test_min_max_extreme_ints():
    for dt in INTS:
        info = np.iinfo(dt)
        a = np.array([0, info.max, info.min, 1], dtype=dt)
        for name in ("min", "max", "argmin", "argmax", "sum"):
            check_reduce(name, a)


# ---- accuracy of long sums -----------------------------------------------------------------

def test_float32_sum_of_a_million_elements():
    rng = np.random.default_rng(13)
    h = rng.random(10**6, dtype=np.float32)
    got = ng.sum(ng.asarray(h))
    assert got.dtype == np.float32
    exact = np.sum(h.astype(np.float64))
    assert abs(float(got.item()) - exact) <= 1e-5 * abs(exact)
    got = ng.asarray(h).reshape(1000, 1000).sum(axis=1)
    exact = h.astype(np.float64).reshape(1000, 1000).sum(axis=1)
    np.testing.assert_allclose(got.get(), exact, rtol=1e-5)
    m = ng.asarray(h).mean()
    assert abs(float(m.item()) - exact.sum() / 1e6) <= 1e-5 * abs(exact.sum() / 1e6)


def test_float32_sum_of_ones_is_exact():
    # A float32 accumulator would stop at 2**24; numgpu accumulates in float64.
    h = np.ones(2**24 + 1000, dtype=np.float32)
    got = ng.sum(ng.asarray(h)).item()
    assert got == float(np.float32(2**24 + 1000))


def test_float64_sum_of_ten_million():
    rng = np.random.default_rng(14)
    h = rng.standard_normal(10**7) + 0.5
    got = ng.asarray(h).sum().item()
    exp = np.sum(h)
    assert abs(got - exp) <= 1e-10 * abs(exp)
    mean = ng.mean(ng.asarray(h)).item()
    assert abs(mean - np.mean(h)) <= 1e-10 * abs(np.mean(h))


# ---- hypothesis over shapes and axes ----------------------------------------------------------

@st.composite
def shape_and_axis(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5))
    axis = draw(st.one_of(st.none(), hnp.valid_tuple_axes(len(shape), min_size=1),
                          st.integers(-len(shape), len(shape) - 1)))
    return shape, axis


@settings(max_examples=30, deadline=None)
@given(case=shape_and_axis(), keepdims=st.booleans(), seed=st.integers(0, 1000))
def test_hypothesis_sum_max_mean(case, keepdims, seed):
    shape, axis = case
    f = data(np.float64, shape, seed=seed)
    i = data(np.int32, shape, seed=seed)
    check_reduce("sum", f, axis=axis, keepdims=keepdims)
    check_reduce("max", i, axis=axis, keepdims=keepdims)
    check_reduce("mean", i, axis=axis, keepdims=keepdims)


@settings(max_examples=25, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5), data_=st.data())
def test_hypothesis_argmax(shape, data_):
    axis = data_.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    a = data(np.int16, shape, seed=len(shape))
    check_reduce("argmax", a, axis=axis)
    check_reduce("argmin", a, axis=axis)


# Sizes around the GPU tree reduction's shapes: one block (256 threads), one
# block's share (256 * 16 elements), several blocks, and more elements than
# the 1024 blocks' first share (threads then loop); strided and reversed
# views take the same path through their strides. On cpu these run the
# OpenMP loops, on opencl/cuda the block-level kernels.
BLOCK_SIZES = [1, 31, 255, 256, 257, 4095, 4096, 4097, 70001, 4 * 1024 * 1024 + 3]


@pytest.mark.parametrize("n", BLOCK_SIZES)
@pytest.mark.parametrize("dt", ["float64", "float32", "int32", "uint8", "bool", "float16", "complex64", "complex128"])
def test_full_reduction_block_sizes(n, dt):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) * 5
    if dt == "bool":
        a = a > 4.0  # mostly False: any/all both interesting
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal(n)
    if dt == "float16" and n > 70001:
        return  # a float16 sum of millions of elements overflows half precision
    a = a.astype(dt)
    g = ng.asarray(a)
    for name in ("sum", "mean", "min", "max", "any", "all", "count_nonzero", "std"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = getattr(np, name)(a)
        rtol = {"float32": 2e-5, "complex64": 2e-5, "float16": 2e-3}.get(dt, 1e-9)
        # float16: NumPy's pairwise float32 sum and numgpu's tree differ in float32 rounding, which can
        # flip the half rounding of the result; std's squares summed in float32 (see _float16_reference)
        atol = 1e-3 * float(np.abs(a.astype(np.float64)).sum()) / n if dt == "float16" and name != "sum" else 0.0
        if dt == "float16" and name == "sum":
            atol = 1e-6 * float(np.abs(a.astype(np.float64)).sum())
        assert_same(getattr(ng, name)(g), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("view", [np.s_[::3], np.s_[::-1], np.s_[5:-7:2]])
def test_full_reduction_block_strided(view):
    a = np.random.default_rng(1).standard_normal(300001)
    g = ng.asarray(a)
    for name in ("sum", "max", "var"):
        assert_same(getattr(ng, name)(g[view]), getattr(np, name)(a[view]), rtol=1e-9)


@pytest.mark.parametrize("shape", [(3, 1000), (1000, 3), (7, 129), (2, 3, 700)])
@pytest.mark.parametrize("dt", ["float64", "float16", "complex64", "complex128"])
def test_row_and_column_reductions(shape, dt):
    """The plans a GPU takes for rows (a block per row) and columns (a
    thread per column), including a kept axis of 1 and rows of 129 elements."""
    rng = np.random.default_rng(2)
    a = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if dt.startswith("complex") else 0)
    a = a.astype(dt)
    g = ng.asarray(a)
    for axis in range(len(shape)):
        for name in ("sum", "mean", "std", "min", "max", "argmax", "any"):
            if dt == "float16":
                check_reduce(name, a, ng_a=g, axis=axis)
            else:
                rtol = 2e-5 if dt == "complex64" else 1e-9
                assert_same(getattr(ng, name)(g, axis=axis), getattr(np, name)(a, axis=axis), rtol=rtol)


@pytest.mark.parametrize("dt", [np.float64, np.int64], ids=str)
def test_mean_over_leading_axes_bit_for_bit(dt):
    """mean over the leading axes of a C-contiguous array (rows added in order, then one division
    per column, NumPy's add.reduce / n): NumPy's bits exactly."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((300, 257)) * 1e3).astype(dt)
    for axis, x in ((0, a), ((0, 1), a.reshape(10, 30, 257)), (0, a[:, 3:200])):
        got = ng.asnumpy(ng.mean(ng.asarray(x), axis=axis))
        want = np.mean(x, axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", ["f8", "f4", "i8", "i4", "u1", "i2"])
def test_argmax_argmin_in_blocks(dt):
    """argmax/argmin of one axis (cpu: blocks of 256 whose max/min decides whether they are
    searched): the first index of the best, the first NaN, rows and views, NumPy's answers."""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(70000) * 100).astype(dt)
    for arr in (x, x[:69000].reshape(69, 1000), x[:60000].reshape(100, 600)[:, ::3], x[::-2], x[:300].reshape(3, 100)):
        g = ng.asarray(arr)
        for ax in [None] + list(range(-1, arr.ndim)):
            for f in ("argmax", "argmin"):
                assert_same(getattr(ng, f)(g, axis=ax), getattr(np, f)(arr, axis=ax))
    if dt[0] == "f":
        y = x.copy()
        y[[5000, 7000, 60000]] = np.nan
        assert ng.argmax(ng.asarray(y)) == np.argmax(y) == 5000 and ng.argmin(ng.asarray(y)) == 5000
        rows = y[:69000].reshape(69, 1000)
        for f in ("argmax", "argmin"):
            assert_same(getattr(ng, f)(ng.asarray(rows), axis=1), getattr(np, f)(rows, axis=1))
        for fill, f in ((-np.inf, "argmax"), (np.inf, "argmin")):
            assert getattr(ng, f)(ng.asarray(np.full(70000, fill, dt))) == 0
    tied = x.copy()
    tied[[300, 600, 65000]] = x.max() if dt[0] != "u" else 255
    assert ng.argmax(ng.asarray(tied)) == np.argmax(tied)
    lo = np.full(70000, np.iinfo(dt).min if dt[0] in "iu" else -np.inf, dt)
    assert ng.argmax(ng.asarray(lo)) == 0
