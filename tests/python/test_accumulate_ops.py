"""ufunc.accumulate of every binary op on the device (numgpu._core.cumulative,
src/ops/scan.c) against NumPy's getattr(np, name).accumulate: the ops, the
dtypes each allows, short and long rows (long ones take the blocked plan on
GPU targets where the op allows it), every axis of 2-d and 3-d arrays, empty
axes and non-contiguous device views, and NumPy's errors.

The accumulator dtype is passed as the Python caller passes it: the one
NumPy's accumulate gives, or None where that is the C default (cumsum's for
add and multiply, the input's own for every other op)."""
import numpy as np
import pytest

import numgpu as ng
from helpers import to_numpy
from numgpu import _core

NAMES = _core.op_names()
CODE = {name: NAMES.index(name) for name in NAMES}
ON_CPU = ng.get_device() == "cpu"

SINTS = [np.int8, np.int32, np.int64]
UINTS = [np.uint8, np.uint64]
INTS = SINTS + UINTS
REALS = [np.float32, np.float64]

# (shape, axis): 1-d rows of 1, 7, 5000 and 20000 elements, (3, 5000) along both axes, every
# axis of (4, 5, 6), and empty axes
SHAPES = [((1,), 0), ((7,), 0), ((5000,), 0), ((20000,), 0), ((3, 5000), 1), ((3, 5000), 0),
          ((4, 5, 6), 0), ((4, 5, 6), 1), ((4, 5, 6), 2), ((4, 5, 6), -1), ((0,), 0), ((3, 0), 1), ((0, 4), 0)]
SHORT = [s for s in SHAPES if np.prod(s[0]) < 5000]


def _c_default(name, dt):
    """The accumulator dtype ng_op_cumulative takes for dtype=None."""
    dt = np.dtype(dt)
    if name not in ("add", "multiply"):
        return dt
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return np.dtype(np.int64)
    if dt.kind == "u":
        return np.dtype(np.uint64)
    return dt


def _expected(name, x, axis, dtype):
    with np.errstate(all="ignore"):
        return getattr(np, name).accumulate(x, axis=axis, dtype=dtype)


def _run(name, a, axis, dtype, exp_dtype, in_dtype):
    """_core.cumulative on device array a, dtype passed as the Python caller would."""
    if dtype is None and exp_dtype != _c_default(name, in_dtype):
        dtype = exp_dtype
    return to_numpy(_core.cumulative(CODE[name], a, axis, dtype))


# The zero a tie of 0.0 and -0.0 gives is NumPy's SIMD loops' choice (the second operand for
# float32/float64, the first for float16; np.maximum(0.0, -0.0) is -0.0): numgpu's maximum keeps
# the first, as its elementwise np.maximum does. Values and NaNs are compared, not zero signs.
TIES = ("maximum", "minimum", "fmax", "fmin")


def _compare(got, exp, rtol, signs=True):
    assert got.shape == exp.shape, "shape %s, NumPy %s" % (got.shape, exp.shape)
    assert got.dtype == exp.dtype, "dtype %s, NumPy %s" % (got.dtype, exp.dtype)
    if rtol == 0 or exp.dtype.kind in "biu":
        assert np.array_equal(got, exp, equal_nan=exp.dtype.kind in "fc"), _first_diff(got, exp)
        if exp.dtype.kind == "f" and signs:   # -0.0 against 0.0 too
            keep = ~np.isnan(exp)
            assert np.array_equal(np.signbit(got[keep]), np.signbit(exp[keep])), "signs of zeros differ"
        return
    if got.size:
        np.testing.assert_array_equal(np.isnan(got), np.isnan(exp), err_msg="NaN positions differ")
    np.testing.assert_allclose(got, exp, rtol=rtol, atol=0, equal_nan=True)


def _first_diff(got, exp):
    bad = ~((got == exp) | ((got != got) & (exp != exp)))
    if not bad.any():
        return "values equal (signs or NaNs differ)"
    i = np.unravel_index(np.argmax(bad), bad.shape)
    return "first difference at %s: %r, NumPy %r (%d differ)" % (i, got[i], exp[i], bad.sum())


def check(name, x, axis, dtype=None, rtol=0):
    """accumulate of host x along axis: contiguous, and on non-contiguous device views (every
    other element of the last axis, the transpose)."""
    exp = _expected(name, x, axis, dtype)
    signs = name not in TIES
    _compare(_run(name, ng.asarray(x), axis, dtype, exp.dtype, x.dtype), exp, rtol, signs)
    if x.ndim and x.shape[-1] > 1 and x.size <= 20000:
        a = ng.asarray(x)
        _compare(_run(name, a[..., ::2], axis, dtype, exp.dtype, x.dtype), _expected(name, x[..., ::2], axis, dtype),
                 rtol, signs)
        if x.ndim > 1:
            _compare(_run(name, a.T, axis, dtype, exp.dtype, x.dtype), _expected(name, x.T, axis, dtype), rtol, signs)


# ---- data ------------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def ints(dt, shape, seed=0, kind="any"):
    """Integers: "any" modest values (negatives where signed) with the dtype's extremes mixed in;
    "nonzero"; "nonneg" (0..4)."""
    dt = np.dtype(dt)
    info = np.iinfo(dt)
    r = _rng(seed)
    if kind == "nonneg":
        return r.integers(0, 5, shape).astype(dt)
    lo = -100 if dt.kind == "i" else 0
    x = r.integers(lo, 100, shape).astype(dt)
    if kind == "nonzero":
        x[x == 0] = 3
        return x
    f = x.reshape(-1)
    f[3::97] = info.max
    f[5::89] = info.min
    return x


def bools(shape, seed=0, p=0.5):
    return _rng(seed).random(shape) < p


def floats(dt, shape, seed=0, lo=-10.0, hi=10.0, specials=False):
    """Uniform floats in [lo, hi); with specials, NaNs (none in the first row of a 2-d array,
    one late in a long row), infinities and signed zeros."""
    r = _rng(seed)
    x = r.uniform(lo, hi, shape).astype(dt)
    if specials and x.size:
        f = x.reshape(-1)
        f[1::13] = 0.0
        f[2::17] = -0.0
        f[4::29] = np.inf
        f[6::31] = -np.inf
        if x.ndim == 1:
            f[(3 * x.size) // 4] = np.nan
        else:
            rows = x.reshape(-1, x.shape[-1])
            for i in range(1, rows.shape[0]):   # row 0 without NaNs
                rows[i, (i * 37) % x.shape[-1]] = np.nan
    return x


def complexes(shape, seed=0, lo=-10.0, hi=10.0):
    r = _rng(seed)
    return (r.uniform(lo, hi, shape) + 1j * r.uniform(lo, hi, shape)).astype(np.complex128)


def _tol(dt, product=False):
    """0 (exact) on cpu where NumPy's order and IEEE ops give bit-identical results, else the
    rounding tolerance of a blocked (regrouped) float sum or product. A float32 product of 20000
    factors carries about sqrt(20000) roundings of 6e-8 in either order (NumPy's own is that far
    from the exact product): 1e-4 there."""
    if ON_CPU:
        return 0
    if np.dtype(dt) == np.float32:
        return 1e-4 if product else 1e-5
    return 1e-12


ULPS = {np.dtype(np.float32): 1e-6, np.dtype(np.float64): 1e-14}


# ---- exact everywhere: integers, bools, max/min, bitwise, logical -----------------------

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin",
                                  "bitwise_and", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integers(name, dt):
    for i, (shape, axis) in enumerate(SHAPES):
        check(name, ints(dt, shape, seed=i), axis)
    if name in ("add", "multiply"):   # an explicit accumulator dtype, wider and narrower
        check(name, ints(dt, (3, 5000)), 1, dtype=np.int64)
        check(name, ints(dt, (20000,)), 0, dtype=np.int8)


@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_division(name, dt):
    for i, (shape, axis) in enumerate(SHAPES):
        check(name, ints(dt, shape, seed=i, kind="nonzero"), axis)


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_power(dt):
    for i, (shape, axis) in enumerate(SHAPES):
        check("power", ints(dt, shape, seed=i, kind="nonneg"), axis)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "bitwise_and",
                                  "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor",
                                  "equal", "not_equal"])
def test_bools(name):
    for i, (shape, axis) in enumerate(SHAPES):
        for p in (0.5, 0.999, 0.001):   # long runs: the blocked plan's totals matter
            check(name, bools(shape, seed=i, p=p), axis)
    if name in ("add", "multiply"):   # bool accumulator: logical or / and
        check(name, bools((20000,), p=0.0001), 0, dtype=np.bool_)
        check(name, bools((3, 5000), p=0.9999), 1, dtype=np.bool_)


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dt", [np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_logical_of_numbers(name, dt):
    # NumPy accumulates these in bool: the caller passes dtype=bool, the input is cast
    x = ints(np.int32, (3, 5000), kind="nonneg").astype(dt)
    check(name, x, 1)
    check(name, x, 0)


@pytest.mark.parametrize("name,dt", [(name, dt) for name in TIES for dt in REALS] + [("maximum", np.float16)],
                         ids=lambda v: v if isinstance(v, str) else np.dtype(v).name)
def test_float_max_min(name, dt):
    for i, (shape, axis) in enumerate(SHAPES):
        check(name, floats(dt, shape, seed=i, specials=True), axis)
    x = floats(dt, (20000,), seed=99)   # no specials: the running value is the row's maximum so far
    check(name, x, 0)
    x[0] = np.nan   # a NaN first: maximum keeps it, fmax drops it
    check(name, x, 0)


def test_complex_max_min():
    for name in ("maximum", "minimum"):
        for i, (shape, axis) in enumerate(SHAPES):
            x = complexes(shape, seed=i)
            if x.size > 10:   # ties of the real part: the imaginary part decides (NumPy's order)
                x.reshape(-1)[::3] = x.reshape(-1)[::3].imag * 1j + 2.0
            check(name, x, axis)


# ---- floats: NumPy's order on cpu (bit-identical), blocked sums within rounding --------

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
@pytest.mark.parametrize("dt", REALS, ids=lambda d: np.dtype(d).name)
def test_float_arithmetic(name, dt):
    # positive data (no cancellation: a regrouped sum stays within rtol); products and quotients
    # of values near 1 neither overflow nor underflow over 20000 steps
    lo, hi = (0.1, 20.0) if name in ("add", "subtract") else (0.9, 1.1)
    rtol = _tol(dt, product=name in ("multiply", "divide"))
    for i, (shape, axis) in enumerate(SHAPES):
        check(name, floats(dt, shape, seed=i, lo=lo, hi=hi), axis, rtol=rtol)
    # NaNs, infinities and signed zeros: -0.0 first stays -0.0
    for i, (shape, axis) in enumerate(SHORT):
        check(name, floats(dt, shape, seed=i, specials=True), axis, rtol=rtol)


def test_float_add_wider_accumulator():
    x = floats(np.float32, (3, 5000), lo=0.1, hi=1.0)
    check("add", x, 1, dtype=np.float64, rtol=_tol(np.float64))
    check("multiply", x[:, :50], 1, dtype=np.float64, rtol=_tol(np.float64))
    check("divide", ints(np.int32, (3, 5000), kind="nonzero"), 1)   # NumPy accumulates in float64


def test_float16_add():
    # NumPy rounds each partial sum to half precision: the rows plan on every device, exact
    for i, (shape, axis) in enumerate(SHAPES):
        check("add", floats(np.float16, shape, seed=i, lo=0.0, hi=1.0), axis)
    check("add", np.full((2, 20000), 0.1, np.float16), 1)   # the running sum stalls at 256


@pytest.mark.parametrize("name", ["add", "subtract", "multiply"])
def test_complex_arithmetic(name):
    for i, (shape, axis) in enumerate(SHAPES):
        if name == "multiply":   # unit-modulus factors: no overflow; NumPy's complex products
            x = np.exp(1j * _rng(i).uniform(-1, 1, shape))   # are rounded its own way (rtol everywhere)
            check(name, x, axis, rtol=1e-12)
        else:
            check(name, complexes(shape, seed=i), axis, rtol=_tol(np.complex128))


@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
@pytest.mark.parametrize("dt", REALS, ids=lambda d: np.dtype(d).name)
def test_float_division(name, dt):
    for i, (shape, axis) in enumerate(SHAPES):
        x = floats(dt, shape, seed=i, lo=0.5, hi=4.0) * np.where(_rng(i).random(shape) < 0.5, -1, 1).astype(dt)
        check(name, x, axis, rtol=_tol(dt))


# ---- transcendental ops: within a few ulps ----------------------------------------------

@pytest.mark.parametrize("name", ["arctan2", "hypot", "logaddexp", "power", "copysign"])
@pytest.mark.parametrize("dt", REALS, ids=lambda d: np.dtype(d).name)
def test_float_math(name, dt):
    for i, (shape, axis) in enumerate(SHAPES):
        if name == "power":   # bases 1..100 to exponents below 1: acc ** x shrinks the error of acc
            x = floats(dt, shape, seed=i, lo=0.5, hi=1.0)   # (above 1 it would grow at every step)
            np.moveaxis(x, axis, 0)[:1] *= 100
        elif name == "arctan2":   # |x| >= 0.5: atan2(acc, x) no steeper than 1 / |x|
            x = floats(dt, shape, seed=i, lo=0.5, hi=5.0) * np.where(_rng(i).random(shape) < 0.5, -1, 1).astype(dt)
        elif name == "logaddexp":   # x >= 1: the running value never nears 0, where an ulp of the
            x = floats(dt, shape, seed=i, lo=1.0, hi=10.0)   # operands would be a large relative error
        else:
            x = floats(dt, shape, seed=i)
        check(name, x, axis, rtol=0 if name == "copysign" else ULPS[np.dtype(dt)])
    check(name, floats(dt, (3, 7), specials=True), 1, rtol=0 if name == "copysign" else ULPS[np.dtype(dt)])


# ---- errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "greater_equal"])
@pytest.mark.parametrize("dt", [np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_comparison_of_numbers_raises(name, dt):
    x = np.arange(5, dtype=dt)
    # (NumPy's own message depends on which loops its process has resolved before: "No loop
    # matching ..." or "... did not contain a loop with signature matching types ...")
    with pytest.raises(TypeError):
        getattr(np, name).accumulate(x)
    with pytest.raises(TypeError, match="No loop matching the specified signature and casting was found for ufunc "
                                        + name):
        _core.cumulative(CODE[name], ng.asarray(x), 0, None)


def test_no_loop_raises():
    with pytest.raises(TypeError, match="boolean subtract"):
        _core.cumulative(CODE["subtract"], ng.asarray(np.ones(3, bool)), 0, None)
    with pytest.raises(TypeError):   # NumPy accumulates int divide in float64: int64 has no loop
        _core.cumulative(CODE["divide"], ng.asarray(np.arange(1, 4)), 0, None)
    with pytest.raises(TypeError):
        _core.cumulative(CODE["bitwise_and"], ng.asarray(np.ones(3)), 0, None)


@pytest.mark.parametrize("dt", SINTS, ids=lambda d: np.dtype(d).name)
def test_integer_power_negative_raises(dt):
    x = np.array([2, 3, -1, 2], dtype=dt)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        np.power.accumulate(x)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        _core.cumulative(CODE["power"], ng.asarray(x), 0, None)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        _core.cumulative(CODE["power"], ng.asarray(x.reshape(2, 2)), 0, None)
    # a negative first element along the axis is a base, not an exponent: NumPy takes it
    m = x.reshape(2, 2)
    np.testing.assert_array_equal(_core.cumulative(CODE["power"], ng.asarray(m), 1, None).get(),
                                  np.power.accumulate(m, axis=1))
    # float exponents are fine
    check("power", x.astype(np.float64), 0)


def test_bad_op_codes():
    x = ng.asarray(np.arange(4.0))
    for code in (-1, len(NAMES), 1000):
        with pytest.raises(ValueError, match="bad op code"):
            _core.cumulative(code, x, 0, None)
    with pytest.raises(ValueError, match="accumulate only supported for binary functions"):
        np.sin.accumulate(np.arange(4.0))
    for name in ("sin", "negative", "absolute", "conjugate"):
        with pytest.raises(ValueError, match="accumulate only supported for binary functions"):
            _core.cumulative(CODE[name], x, 0, None)


def test_axis_error():
    from numpy.exceptions import AxisError
    with pytest.raises(AxisError):
        _core.cumulative(CODE["maximum"], ng.asarray(np.ones((2, 3))), 2, None)


def test_cumsum_cumprod_still_default():
    # numgpu.cumsum / cumprod go through the same entry with add's and multiply's codes
    x = ints(np.int8, (3, 7))
    assert to_numpy(ng.cumsum(ng.asarray(x), axis=1)).dtype == np.cumsum(x, axis=1).dtype
    assert np.array_equal(to_numpy(ng.cumsum(ng.asarray(x), axis=1)), np.cumsum(x, axis=1))
    assert np.array_equal(to_numpy(ng.cumprod(ng.asarray(x), axis=0)), np.cumprod(x, axis=0))
