"""interp, digitize, isin, cov, corrcoef, convolve, correlate, trapezoid, gradient, polyval and
ediff1d (python/numgpu/_numeric.py) against NumPy: dtypes, views, empty inputs, NaN/inf,
keywords and error paths; none of them may fall back to NumPy."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import (  # noqa: F401 (no_fallback: an autouse fixture)
    ALL, assert_same, both, call_both, COMPLEX, data, FLOATS, INTS, no_fallback
)

REAL = INTS + [np.float32, np.float64]


def test_fallback_check_can_fail():
    """The fixture's counter moves when something does fall back (so it can catch one)."""
    before = dict(_fallback.counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _fallback.call_numpy("numpy.sinc", np.sinc, ng.asarray([1.0]))
    assert dict(_fallback.counts) != before
    _fallback.counts.clear()
    _fallback.counts.update(before)


# ---- interp -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", REAL + [np.bool_, np.float16], ids=lambda d: np.dtype(d).name)
def test_interp_dtypes(dt):
    xp = np.array([0, 2, 3, 6, 6, 11])                            # (sorted in every dtype)
    fp = data(dt, 6, seed=1)
    x = np.concatenate([np.linspace(-2, 13, 41), xp.astype(float)]).astype(dt if dt != np.bool_ else float)
    both("interp", x, xp.astype(dt) if dt != np.bool_ else xp, fp)
    both("interp", x, xp, fp, left=-1.5, right=7)


def test_interp_complex_and_special_values():
    xp = np.array([0.0, 1.0, 2.0, 3.0, 5.0])
    fp = np.array([1 + 2j, np.inf, 3 - 1j, 3 - 1j, np.nan + 1j])
    x = np.array([-1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, np.nan, np.inf, -np.inf])
    both("interp", x, xp, fp)
    both("interp", x, xp, fp, left=9j, right=-1)
    both("interp", x, xp, fp.astype(np.complex64))
    fr = np.array([0.0, np.inf, 1.0, -np.inf, -np.inf])      # inf slopes: the retry from the right end
    both("interp", x, xp, fr)
    both("interp", x[::-1], xp, np.array([1.0, 1e308, -1e308, 2.0, 2.0]))     # overflowing slopes


def test_interp_shapes_views_period():
    rng = np.random.default_rng(3)
    xp = np.sort(rng.uniform(-10, 10, 30))
    fp = rng.standard_normal(30)
    x = rng.uniform(-12, 12, (4, 5, 3))
    both("interp", x, xp, fp)
    both("interp", x.transpose(2, 0, 1), xp, fp)
    both("interp", x[:, ::-2], xp, fp)
    both("interp", 2.5, xp, fp)
    both("interp", np.array(2.5), xp, fp)
    both("interp", np.array([]), xp, fp)
    both("interp", [1.0, 2.0, 3.0], [2.0], [5.0])                # one sample point
    both("interp", [1.0, 2.0, 3.0], [2.0], [5.0], left=0, right=1)
    both("interp", x, xp, fp + 1j * fp[::-1])
    for period in (360, -360.0, 7.5):
        both("interp", np.array([-180.0, -5, 0, 5, 175, 185, 359, 360, 725]), [-170.0, -10, 5, 170, 190],
             [1.0, 2, 3, 4, 5], period=period)
    both("interp", [0.5, 3.3], [0.0, 1.0, 2.0], [1j, 2, 3 + 1j], period=3)


def test_interp_errors():
    xp, fp = np.array([0.0, 1.0]), np.array([1.0, 2.0])
    both("interp", np.array([1 + 1j]), xp, fp)                    # TypeError
    both("interp", 0.5, xp, fp, left=1j)
    both("interp", 0.5, np.array([]), np.array([]))               # ValueError (empty)
    both("interp", 0.5, xp, np.array([1.0, 2.0, 3.0]))
    both("interp", 0.5, np.ones((2, 2)), np.ones(4))
    both("interp", 0.5, xp, np.ones((1, 2)))
    both("interp", 0.5, xp, fp, period=0)
    both("interp", 0.5, np.ones((2, 2)), np.ones(4), period=1)
    both("interp", 0.5, xp, np.ones(3), period=1)
    with pytest.raises(ValueError, match="sample points is empty"):
        ng.interp(0.5, [], [])


# ---- digitize ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", REAL + [np.float16, np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("right", [False, True])
def test_digitize(dt, right):
    x = data(dt, (3, 11), seed=2)
    bins = np.unique(data(dt, 6, seed=3))
    both("digitize", x, bins, right=right)
    both("digitize", x.T, bins[::-1], right=right)                # decreasing bins, transposed x
    both("digitize", x, np.repeat(bins, 2), right=right)          # repeated edges


def test_digitize_special():
    x = np.array([-np.inf, -1.0, 0.0, 0.5, 1.0, 2.0, np.nan, np.inf])
    for bins in ([0.0, 1.0], [1.0, 0.0], [1.0, 1.0, 1.0], [], [0.5], [1.0, np.nan], [np.nan, 1.0],
                 [np.nan, np.nan, 2.0, 1.0], [0, 0, 1, 2], [2, 2, 1, 0]):
        for right in (False, True):
            both("digitize", x, np.array(bins, dtype=float), right=right)
    both("digitize", 0.5, np.array([0.0, 1.0]))                  # 0-d x
    both("digitize", np.array([], dtype=np.int32), np.array([1, 2]))
    both("digitize", [3, 1, 4], [1, 2, 3])


def test_digitize_errors():
    both("digitize", np.array([1.0]), np.array([2.0, 1.0, 3.0]))  # not monotonic
    both("digitize", np.array([1.0]), np.array([0.0, np.nan, 1.0]))
    both("digitize", np.array([1j]), np.array([1.0, 2.0]))          # complex x
    both("digitize", np.array([1.0]), np.array([1j, 2.0]))          # complex bins
    both("digitize", np.array([1.0]), np.array([[1.0, 2.0]]))
    both("digitize", np.array([1.0]), np.array(5.0))
    with pytest.raises(ValueError, match="monotonically"):
        ng.digitize([1.0], [3.0, 1.0, 2.0])


# ---- isin ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=lambda d: np.dtype(d).name)
def test_isin_dtypes(dt):
    e = data(dt, (4, 6), seed=4, kind="small")
    t = data(dt, 5, seed=5, kind="small")
    for kw in ({}, {"invert": True}, {"assume_unique": True}, {"kind": "sort"}):
        both("isin", e, t, **kw)
    both("isin", e.T[::-1], t[::-1])
    if np.dtype(dt).kind in "biu":
        both("isin", e, t, kind="table")
        both("isin", e, t, kind="table", invert=True)


def test_isin_special():
    e = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, 1.5, 2.0])
    both("isin", e, np.array([np.nan, 0.0, np.inf, 2]))
    both("isin", e, np.array([-0.0, -np.inf]), invert=True)
    both("isin", e.astype(complex) + 1j, np.array([np.nan + 1j, 2 + 1j, 2]))
    both("isin", np.array([1, 2, 3]), np.array([1.5, 2.0]))          # mixed dtypes
    both("isin", np.array([1, 2, 3], np.uint8), np.array([-1, 3], np.int8))
    both("isin", np.array([1, 2, 3]), np.array([], dtype=np.int64))
    both("isin", np.array([1, 2, 3]), np.array([]), invert=True)
    both("isin", np.array([], dtype=float), np.array([1.0]))
    both("isin", np.zeros((0, 3)), np.array([1.0]))
    both("isin", np.array(2), np.array([1, 2]))                      # 0-d element
    both("isin", [1, 5], [[5, 6], [7, 8]])                           # lists, 2-d test elements
    both("isin", 3, 3)


def test_isin_errors():
    both("isin", np.array([1, 2]), np.array([1]), kind="hash")
    both("isin", np.array([1.0, 2.0]), np.array([1.0]), kind="table")
    both("isin", np.array([1, 2]), np.array([1.0]), kind="table")


# ---- cov and corrcoef -----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", REAL + [np.bool_, np.float16] + COMPLEX, ids=lambda d: np.dtype(d).name)
def test_cov_corrcoef_dtypes(dt):
    m = data(dt, (3, 9), seed=6)
    with np.errstate(all="ignore"):
        both("cov", m, rtol=1e-5 if dt in (np.float16, np.float32, np.complex64) else 1e-10)
        both("corrcoef", m, rtol=1e-4 if dt in (np.float16, np.float32, np.complex64) else 1e-10, atol=1e-12)


def test_cov_keywords():
    rng = np.random.default_rng(7)
    m = rng.standard_normal((4, 12))
    y = rng.standard_normal((2, 12))
    fw = rng.integers(0, 4, 12)
    aw = rng.uniform(0.1, 2, 12)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"ddof": 3}, {"fweights": fw},
               {"aweights": aw}, {"fweights": fw, "aweights": aw}, {"fweights": fw, "aweights": aw, "ddof": 0},
               {"fweights": fw, "ddof": 2}, {"dtype": np.float32}, {"dtype": np.complex128}):
        both("cov", m, rtol=1e-6 if kw.get("dtype") == np.float32 else 1e-10, **kw)
    both("cov", m, y)
    both("cov", m.T, y.T, rowvar=False)
    both("cov", m[::-1, ::2])
    both("cov", m[0], m[1])                                          # 1-d: 2x2
    both("cov", m[0])                                                # one variable: 0-d
    both("cov", m.T[:, :1], rowvar=False)
    both("cov", m + 1j * m[::-1], y, aweights=aw)
    both("cov", [[1, 2, 3], [2, 4, 7]])
    both("cov", np.zeros((0, 4)))
    both("corrcoef", m, y)
    both("corrcoef", m.T, rowvar=False)
    both("corrcoef", m[0], m[1], dtype=np.float32, rtol=1e-5)
    both("corrcoef", m[0])                                           # 0-d: c / c
    both("corrcoef", m + 1j * m[::-1], rtol=1e-10, atol=1e-12)
    both("corrcoef", np.array([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0], [np.nan, 1.0, 2.0]]))
    both("corrcoef", np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0000001]]))    # clipped to 1


def test_cov_degrees_of_freedom():
    m = np.array([[1.0, 2.0], [3.0, 5.0]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = ng.cov(m, ddof=5)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(got, np.cov(m, ddof=5))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = ng.cov(m, aweights=[1.0, 1.0], ddof=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(got, np.cov(m, aweights=[1.0, 1.0], ddof=4))


@pytest.mark.parametrize("make", [lambda xp: xp.cov(xp.asarray([1.0])), lambda xp: xp.cov(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), ddof=2),
                                  lambda xp: xp.cov(xp.asarray([[1.0, 2.0], [3.0, 5.0]]), ddof=3)])
def test_cov_degrees_of_freedom_warnings_as_numpys(make):
    # NumPy's c *= np.true_divide(1, fact) with fact 0: "divide by zero encountered in divide" (numgpu had none)
    seen = []
    for xp in (np, ng):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = np.asarray(make(xp).get() if xp is ng else make(xp))   # (a GPU's warnings come with the download)
        seen.append(([str(x.message) for x in w if x.category is RuntimeWarning], np.isnan(r).tolist()))
    assert seen[1] == seen[0]
    with np.errstate(divide="raise"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            make(ng)


def test_cov_errors():
    m = np.ones((2, 3))
    both("cov", np.ones((2, 2, 2)))
    both("cov", m, np.ones((2, 2, 2)))
    both("cov", m, ddof=1.5)
    both("cov", m, fweights=np.array([1.5, 1, 1]))
    both("cov", m, fweights=np.array([-1, 1, 1]))
    both("cov", m, aweights=np.array([-1.0, 1, 1]))
    both("cov", m, np.ones((2, 4)))
    for kw in ({"fweights": np.ones((3, 1))}, {"fweights": np.ones(4)}, {"aweights": np.ones((3, 1))},
               {"aweights": np.ones(2)}):
        with pytest.raises(RuntimeError):
            np.cov(m, **kw)
        with pytest.raises(RuntimeError):
            ng.cov(ng.asarray(m), **{k: ng.asarray(v) for k, v in kw.items()})
    both("corrcoef", np.ones((2, 2, 2)))


# ---- convolve and correlate --------------------------------------------------------------------

MODES = ["full", "same", "valid"]


@pytest.mark.parametrize("dt", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", MODES)
def test_convolve_correlate_dtypes(dt, mode):
    a, v = data(dt, 13, seed=8, kind="small"), data(dt, 4, seed=9, kind="small")
    rtol = 2e-3 if dt == np.float16 else 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    for f in ("convolve", "correlate"):
        both(f, a, v, mode=mode, rtol=rtol, atol=1e-12)
        both(f, v, a, mode=mode, rtol=rtol, atol=1e-12)              # swapped: shorter first
        both(f, a[::-2], v[::-1], mode=mode, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n2", [1, 2, 5, 6, 40, 128, 129, 300])
def test_convolve_correlate_lengths(mode, n2):
    """Second operands of up to 128 by the direct sum (_core.correlate), longer ones by FFT:
    NumPy's values within rounding (integers exactly)."""
    rng = np.random.default_rng(n2)
    a = rng.standard_normal(1000)
    v = rng.standard_normal(n2)
    c = v + 1j * rng.standard_normal(n2)
    i, j = rng.integers(-50, 50, 1000), rng.integers(-50, 50, n2)
    for f in ("convolve", "correlate"):
        both(f, a, v, mode=mode, rtol=1e-9, atol=1e-9)
        both(f, v, a, mode=mode, rtol=1e-9, atol=1e-9)
        both(f, a, c, mode=mode, rtol=1e-9, atol=1e-9)
        both(f, c, a.astype(np.complex64), mode=mode, rtol=1e-9, atol=1e-9)
        both(f, i, j, mode=mode)
        both(f, i.astype(np.int8), j.astype(np.int8), mode=mode)     # wraps as NumPy's
        both(f, a.astype(np.float32), v.astype(np.float32), mode=mode, rtol=1e-4, atol=1e-4)
        both(f, i > 0, j > 0, mode=mode)


def test_convolve_huge_integers_stay_exact():
    a = np.array([2 ** 40, 3, -2 ** 41] * 30, dtype=np.int64)
    v = np.arange(1, 60, dtype=np.int64)
    both("convolve", a, v)
    both("correlate", a, v, mode="same")


def test_convolve_correlate_special():
    both("convolve", np.array([1.0, np.inf, 2.0]), np.array([1.0, 0.0]))
    both("correlate", np.array([1.0, np.nan, 2.0, 3.0]), np.array([1.0, 2.0]), mode="full")
    both("convolve", 3, [1, 2])
    both("correlate", [1 + 1j, 2], [1j], mode=1)
    both("convolve", [1.0, 2.0], [3.0], mode=0)
    both("convolve", [1.0, 2.0, 3.0], [0.0, 1.0, 0.5, 0.25], mode="same")
    both("correlate", [1.0, 2.0, 3.0], [0.0, 1.0, 0.5, 0.25], mode="same")


def test_convolve_correlate_errors():
    for f in ("convolve", "correlate"):
        both(f, np.array([]), np.array([1.0]))
        both(f, np.array([1.0]), np.array([]))
        both(f, np.ones((2, 2)), np.ones(2))
        both(f, np.ones(3), np.ones(2), mode="x")
        both(f, np.ones(3), np.ones(2), mode=3)
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        ng.correlate([], [1.0])


# ---- trapezoid ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=lambda d: np.dtype(d).name)
def test_trapezoid_dtypes(dt):
    y = data(dt, (4, 7), seed=10)
    x = np.sort(data(np.float64, 7, seed=11))
    rtol = 2e-3 if dt == np.float16 else 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    both("trapezoid", y, rtol=rtol)
    both("trapezoid", y, x, rtol=rtol)
    both("trapezoid", y.T, dx=0.5, axis=0, rtol=rtol)


def test_trapezoid_keywords():
    rng = np.random.default_rng(12)
    y = rng.standard_normal((3, 5, 6))
    x = np.cumsum(rng.uniform(0.1, 1, (3, 5, 6)), axis=1)
    both("trapezoid", y, x, axis=1)
    both("trapezoid", y, x[0, :, 0], axis=1)
    both("trapezoid", y[:, ::-1], dx=np.float32(0.25), axis=-2)
    both("trapezoid", y, axis=0)
    both("trapezoid", [1, 2, 3], [0, 1, 3])
    both("trapezoid", [np.nan, 1.0, np.inf])
    both("trapezoid", np.zeros((2, 0)))
    both("trapezoid", np.zeros(1))
    both("trapezoid", y, axis=3)                                     # AxisError (an IndexError)
    both("trapezoid", y, x[0], axis=1)                               # shapes that do not broadcast
    with pytest.raises(IndexError):
        ng.trapezoid(3.0)


# ---- gradient ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", INTS + FLOATS + COMPLEX, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes(dt, edge_order):
    f = data(dt, (5, 6), seed=13)
    rtol = 2e-3 if dt == np.float16 else 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    both("gradient", f, edge_order=edge_order, rtol=rtol)
    both("gradient", f.T[::-1], 2.0, edge_order=edge_order, rtol=rtol)
    both("gradient", f[0], edge_order=edge_order, rtol=rtol)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_spacing(edge_order):
    rng = np.random.default_rng(14)
    f = rng.standard_normal((6, 7, 4))
    x = np.cumsum(rng.uniform(0.1, 1, 7))
    both("gradient", f, 0.5, x, 2, edge_order=edge_order)
    both("gradient", f, x, axis=1, edge_order=edge_order)
    both("gradient", f, np.arange(7), axis=-2, edge_order=edge_order)      # integer coordinates
    both("gradient", f, np.arange(0, 14, 2.0), 3.0, axis=(1, 2), edge_order=edge_order)
    both("gradient", f, np.float32(0.5), axis=0, edge_order=edge_order)
    both("gradient", f.astype(np.float32), x, axis=1, edge_order=edge_order, rtol=1e-5)
    both("gradient", f.astype(np.float32), np.float32(2.0), edge_order=edge_order, rtol=1e-5)
    both("gradient", np.array([1.0, np.nan, 4.0, np.inf, 2.0]), edge_order=edge_order)
    both("gradient", [1, 4, 9, 16], [0.0, 1.0, 1.5, 3.0], edge_order=edge_order)


def test_gradient_errors_and_edges():
    f = np.ones((3, 4))
    both("gradient", f, 1.0, 2.0, 3.0)                               # TypeError: wrong count
    both("gradient", f, np.ones((3, 1)), 1.0)
    both("gradient", f, np.ones(4), 1.0)
    both("gradient", f, edge_order=3)
    both("gradient", np.ones(2), edge_order=2)
    both("gradient", np.ones((1, 3)))
    both("gradient", np.array([True, False, True]))                  # bool subtract: TypeError
    both("gradient", f, axis=2)
    assert ng.gradient(ng.asarray(3.0)) == () == np.gradient(3.0)


# ---- polyval -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", REAL + FLOATS[:1] + COMPLEX, ids=lambda d: np.dtype(d).name)
def test_polyval_dtypes(dt):
    p = data(dt, 4, seed=15, kind="small")
    x = data(dt, (3, 5), seed=16, kind="small")
    rtol = 2e-3 if dt == np.float16 else 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    both("polyval", p, x, rtol=rtol)
    both("polyval", p[::-1], x.T, rtol=rtol)
    both("polyval", p, np.float64(1.5), rtol=rtol)


def test_polyval_special():
    both("polyval", [1, 2, 3], [0.5, np.nan, np.inf])
    both("polyval", [1.0, -2.0], 2)
    both("polyval", np.array([], dtype=float), np.array([1.0, 2.0]))
    both("polyval", [2, 3], np.array([], dtype=np.int32))
    both("polyval", np.array([1.0, 2.0], np.float32), np.array([1, 2], np.int16), rtol=1e-6)
    both("polyval", np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 2.0]))
    both("polyval", np.array(3.0), np.array([1.0]))                 # TypeError: 0-d p


# ---- ediff1d -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", INTS + FLOATS + COMPLEX, ids=lambda d: np.dtype(d).name)
def test_ediff1d_dtypes(dt):
    a = data(dt, (3, 4), seed=17)
    both("ediff1d", a)
    both("ediff1d", a.T[::-1])
    both("ediff1d", a, to_begin=0)
    both("ediff1d", a, to_end=[1, 2], to_begin=np.array([[5]], dtype=dt))
    both("ediff1d", a, to_end=np.arange(3, dtype=dt))


def test_ediff1d_special_and_errors():
    both("ediff1d", np.array([1.0, np.inf, np.inf, np.nan]))
    both("ediff1d", np.array([]), to_begin=1.0, to_end=[2.0, 3.0])
    both("ediff1d", np.array([5.0]), to_end=1.0)
    both("ediff1d", 5.0)
    both("ediff1d", np.array([1, 2, 4]), to_begin=0.5)               # TypeError: float into int
    both("ediff1d", np.array([1, 2, 4]), to_end=np.array([1j]))
    both("ediff1d", np.array([1.0, 2.0]), to_end=1j)
    both("ediff1d", np.array([True, False]))                         # bool subtract: TypeError
    both("ediff1d", np.array([1, 2], np.uint8), to_end=np.array([-1], np.int8))


def test_interp_of_repeated_samples_warns_nothing():
    # (hunt 10 F10) NumPy's C loop reports no division by zero for repeated samples' slopes
    xp, fp = np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 2.0, 3.0, 4.0])
    x = np.linspace(-1.0, 2.0, 5000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            got = ng.interp(ng.asarray(x), ng.asarray(xp), ng.asarray(fp))
    np.testing.assert_array_equal(ng.asnumpy(got), np.interp(x, xp, fp))
