"""Float floor_divide, remainder, fmod, divmod, fmax and fmin against NumPy, bit for bit: the
cpu kernels compute fmod through a rounded quotient and one fma (ng_ffmod in src/emit/targets.c)
and fmax/fmin through selects, so every pair of special values (signed zeros, subnormals, the
largest floats, infinities, NaN, quotients next to an integer and past 2^52) and random values of
wide-ranging magnitudes must give NumPy's bits, signs of zero included (NaN: in the same places),
float32 and float64, arrays by arrays, by scalars and non-contiguous, with NumPy's warnings (an
infinite float // quotient is also NumPy's 'invalid': its rounding step takes inf - inf)."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import dtype_id

DIVOPS = ["floor_divide", "remainder", "fmod"]


def _specials(dt):
    f = np.finfo(dt)
    v = [0.0, 1.0, 0.5, 1.5, 2.0, 3.0, 7.5, 10.0, 0.1, 1 / 3, 2.0 ** 20, 2.0 ** (f.nmant - 1), 2.0 ** f.nmant,
         2.0 ** (f.nmant + 1) + 2, float(f.max), float(f.tiny), float(f.smallest_subnormal), 3 * float(f.smallest_subnormal),
         float(np.nextafter(dt(1), dt(2))), float(np.nextafter(dt(1), dt(0))), float(np.nextafter(dt(3), dt(0))),
         1e30 if dt == np.float32 else 1e300, np.inf, np.nan]
    v = np.array(v, dtype=dt)
    return np.concatenate([v, -v])


def _pairs(dt):
    s = _specials(dt)
    a, b = np.meshgrid(s, s, indexing="ij")
    return a.ravel(), b.ravel()


def _random(dt, n, seed):
    """Values with exponents over +-40 (float32: +-20), so quotients fall on both sides of 2^52
    (2^23); and a's next to integer multiples of b (quotients within an ulp of an integer)."""
    rng = np.random.default_rng(seed)
    span = 20 if dt == np.float32 else 40
    a = (rng.random(n) + 0.5) * 2.0 ** rng.integers(-span, span, n) * rng.choice([-1, 1], n)
    b = (rng.random(n) + 0.5) * 2.0 ** rng.integers(-span, span, n) * rng.choice([-1, 1], n)
    a, b = a.astype(dt), b.astype(dt)
    k = rng.integers(1, 1000, n // 4).astype(dt)
    near = (k * b[: n // 4]).astype(dt)
    a[: n // 4] = np.where(rng.random(n // 4) < 0.5, np.nextafter(near, dt(0)), np.nextafter(near, dt(np.inf)))
    a[n // 4: n // 2] = (k * b[n // 4: n // 2]).astype(dt)   # exact multiples: zero remainders
    return a, b


def _same_bits(got, exp):
    got = got.get() if isinstance(got, ng.ndarray) else np.asarray(got)
    exp = np.asarray(exp)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    nan = np.isnan(exp)
    assert np.array_equal(np.isnan(got), nan), "NaN placement differs"
    ui = np.uint32 if exp.dtype == np.float32 else np.uint64
    bad = (got.view(ui) != exp.view(ui)) & ~nan
    assert not bad.any(), "first mismatches (got, numpy): %r" % list(zip(got[bad][:5], exp[bad][:5]))


def _run_both(fn_np, fn_ng, *args, warns=True):
    """Both results, the RuntimeWarning messages of each compared (warns)."""
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        exp = fn_np(*args)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got = fn_ng(*(ng.asarray(x) if isinstance(x, np.ndarray) else x for x in args))
        ng.synchronize()   # (a GPU's warnings come with the next sync)
    msgs = lambda w: sorted({str(x.message) for x in w if issubclass(x.category, RuntimeWarning)})   # noqa: E731
    if warns:
        assert msgs(wg) == msgs(wn)
    return got, exp


@pytest.mark.parametrize("op", DIVOPS)
@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_special_pairs(op, dt):
    a, b = _pairs(dt)
    got, exp = _run_both(getattr(np, op), getattr(ng, op), a, b)
    _same_bits(got, exp)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_divmod_special_and_random(dt):
    for a, b in (_pairs(dt), _random(dt, 20000, 1)):
        # (numgpu's divmod is floor_divide and remainder: its warnings name those, NumPy's divmod)
        got, exp = _run_both(np.divmod, ng.divmod, a, b, warns=False)
        _same_bits(got[0], exp[0])
        _same_bits(got[1], exp[1])


@pytest.mark.parametrize("op", DIVOPS)
@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_random_wide_range(op, dt):
    a, b = _random(dt, 60000, 2)
    got, exp = _run_both(getattr(np, op), getattr(ng, op), a, b)
    _same_bits(got, exp)
    # non-contiguous views, reversed
    got, exp = _run_both(lambda x, y: getattr(np, op)(x[::-3], y[1::3]), lambda x, y: getattr(ng, op)(x[::-3], y[1::3]),
                         a, b)
    _same_bits(got, exp)


@pytest.mark.parametrize("op", DIVOPS)
@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
@pytest.mark.parametrize("s", [7.5, -0.1, 1e-30, 3.0, -0.0, 0.0, np.inf, np.nan], ids=str)
def test_by_scalar(op, dt, s):
    a, _ = _random(dt, 5000, 3)
    a = np.concatenate([a, _specials(dt)])
    got, exp = _run_both(lambda x: getattr(np, op)(x, s), lambda x: getattr(ng, op)(x, s), a)
    _same_bits(got, exp)
    sd = dt(s)   # a NumPy scalar of the dtype, as the divisor and as the dividend
    got, exp = _run_both(lambda x: getattr(np, op)(x, sd), lambda x: getattr(ng, op)(x, sd), a)
    _same_bits(got, exp)
    got, exp = _run_both(lambda x: getattr(np, op)(sd, x), lambda x: getattr(ng, op)(sd, x), a)
    _same_bits(got, exp)


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_operators_and_empty(dt):
    a, b = _random(dt, 3000, 4)
    for f in (lambda x, y: x // y, lambda x, y: x % y, lambda x, y: x // 2.5, lambda x, y: -7.25 % y):
        got, exp = _run_both(f, f, a, b)
        _same_bits(got, exp)
    e = np.zeros(0, dt)
    for op in DIVOPS + ["fmax", "fmin"]:
        got, exp = _run_both(getattr(np, op), getattr(ng, op), e, e)
        _same_bits(got, exp)


@pytest.mark.parametrize("op", ["fmax", "fmin", "maximum", "minimum"])
@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_fmax_fmin(op, dt):
    a, b = _pairs(dt)
    f, g = getattr(np, op), getattr(ng, op)
    got, exp = _run_both(f, g, a, b)
    _same_bits(got, exp)   # signed zeros too: b where a == b, as NumPy's array loops (maximum and
    # minimum gave a there before 2026-12-08: maximum(0.0, -0.0) was 0.0, NumPy's -0.0)
    rng = np.random.default_rng(5)
    x = rng.standard_normal(40000).astype(dt)
    y = rng.standard_normal(40000).astype(dt)
    x[::7] = np.nan
    y[3::11] = np.nan
    y[5::13] = -np.inf
    got, exp = _run_both(f, g, x, y)
    _same_bits(got, exp)
    for s in (0.5, np.nan, -np.inf):
        got, exp = _run_both(lambda u: f(u, s), lambda u: g(u, s), x)
        _same_bits(got, exp)
    got, exp = _run_both(lambda u, v: f(u[::-2], v[1::2]), lambda u, v: g(u[::-2], v[1::2]), x, y)
    _same_bits(got, exp)
