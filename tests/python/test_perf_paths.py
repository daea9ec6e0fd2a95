"""The specialised fast paths against NumPy, bit for bit: isin (a byte table over the test values'
range for integers, a branch-free binary search in the sorted test values otherwise), interp (one
kernel: search and NumPy's interpolation formula per element), round (one pass: multiply, rint,
divide, each rounded in the array's dtype) and copies of permuted views (tiled). Sizes reach past
the kernels' serial thresholds so the parallel loops run too."""
import numpy as np
import pytest

import numgpu as ng
from helpers import both, no_fallback  # noqa: F401 (no_fallback: an autouse fixture)

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def same_bits(got, exp):
    """numgpu's result equals NumPy's: shape, dtype and every bit (NaN payloads aside, -0.0 kept)."""
    assert isinstance(got, ng.ndarray), type(got)
    g = ng.asnumpy(got)
    assert g.shape == exp.shape and g.dtype == exp.dtype, (g.shape, g.dtype, exp.shape, exp.dtype)
    if exp.dtype.kind in "fc":
        np.testing.assert_array_equal(np.isnan(g), np.isnan(exp))
        ok = ~np.isnan(exp)
        np.testing.assert_array_equal(g[ok], exp[ok])
        np.testing.assert_array_equal(np.signbit(g.real[ok]), np.signbit(exp.real[ok]))
    else:
        np.testing.assert_array_equal(g, exp)


# ---- isin ------------------------------------------------------------------------------------

@pytest.mark.parametrize("edt", INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("tdt", [np.int8, np.uint8, np.int64, np.uint64, np.bool_], ids=lambda d: np.dtype(d).name)
def test_isin_table_mixed_ints(edt, tdt):
    rng = np.random.default_rng(1)
    info = np.iinfo(edt) if edt != np.bool_ else None
    if info is None:
        e = rng.integers(0, 2, 70000).astype(bool)
    else:
        e = rng.integers(max(info.min, -300), min(info.max, 300), 70000, endpoint=True).astype(edt)
        e[:4] = [info.min, info.max, 0, 1]
    t = (rng.integers(0, 2, 9).astype(bool) if tdt == np.bool_
         else rng.integers(max(np.iinfo(tdt).min, -60), min(np.iinfo(tdt).max, 60), 9, endpoint=True).astype(tdt))
    for kw in ({}, {"invert": True}, {"kind": "table"}, {"kind": "sort"}):
        try:
            exp = np.isin(e, t, **kw)
        except Exception as err:  # (the range beyond test's dtype with kind='table')
            with pytest.raises(type(err)):
                ng.isin(ng.asarray(e), ng.asarray(t), **kw)
            continue
        same_bits(ng.isin(ng.asarray(e), ng.asarray(t), **kw), exp)


def test_isin_extreme_64bit_values():
    big = np.array([2**64 - 1, 2**63, 2**63 - 1, 0, 5], np.uint64)
    neg = np.array([-1, -(2**63), 2**63 - 1, 0, 5, -5], np.int64)
    for e, t in ((neg, big), (big, neg), (neg, big[2:]), (big, neg[2:5]), (big, big[:2]), (neg, neg[:2]),
                 (neg, np.array([-(2**63), -(2**63) + 3], np.int64)), (big, np.array([2**64 - 3, 2**64 - 1], np.uint64))):
        for kw in ({}, {"invert": True}):
            same_bits(ng.isin(ng.asarray(e), ng.asarray(t), **kw), np.isin(e, t, **kw))


def test_isin_wide_range_and_large_inputs():
    rng = np.random.default_rng(2)
    e = rng.integers(-10**12, 10**12, 300001)
    t = np.concatenate([e[::1000], rng.integers(-10**12, 10**12, 50)])     # wide range: the sorted path
    same_bits(ng.isin(ng.asarray(e), ng.asarray(t)), np.isin(e, t))
    same_bits(ng.isin(ng.asarray(e), ng.asarray(t), invert=True), np.isin(e, t, invert=True))
    i = rng.integers(0, 1000, (600, 500))                                      # the benchmark's case, 2-d
    same_bits(ng.isin(ng.asarray(i), ng.asarray(i[0, :50])), np.isin(i, i[0, :50]))
    same_bits(ng.isin(ng.asarray(i)[::2, ::-3], ng.asarray(i)[:7, :7]), np.isin(i[::2, ::-3], i[:7, :7]))
    with pytest.raises(RuntimeError, match="exceed the maximum integer"):
        ng.isin(ng.asarray(np.array([1], np.int8)), ng.asarray(np.array([-100, 100], np.int8)), kind="table")


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_isin_floats(dt):
    rng = np.random.default_rng(3)
    e = np.round(rng.standard_normal(50000) * 4).astype(dt)
    e[:8] = [np.nan, 0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, 2.5]
    for t in (e[::997], np.array([np.nan, -0.0, np.inf], dt), np.array([3.0], dt), e[8:20][::-1],
              np.array([1, 2, 3], np.int64), np.array([0.5, np.nan, np.nan], np.float64)):
        for kw in ({}, {"invert": True}):
            same_bits(ng.isin(ng.asarray(e), ng.asarray(t), **kw), np.isin(e, t, **kw))


def test_isin_bad_kinds():
    both("isin", np.array([1, 2]), np.array([1]), kind="hash")
    both("isin", np.array([1.0, 2.0]), np.array([1.0]), kind="table")
    both("isin", np.array([1, 2]), np.array([1.0]), kind="table")


# ---- searchsorted (the search loop isin, interp, histogram and bincount share) ------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 50, 2047, 2048, 2049, 4097, 300001])
def test_searchsorted_sizes_around_the_branchy_steps(n):
    rng = np.random.default_rng(n)
    a = np.sort(rng.integers(0, 50000, n))
    v = rng.integers(-5, 50005, 30000)
    for q in (v, np.sort(v)):                         # random and sorted queries
        for side in ("left", "right"):
            same_bits(ng.searchsorted(ng.asarray(a), ng.asarray(q), side=side), np.searchsorted(a, q, side=side))
    b = rng.permutation(a)
    order = np.argsort(b, kind="stable")
    same_bits(ng.searchsorted(ng.asarray(b), ng.asarray(v), sorter=ng.asarray(order)), np.searchsorted(b, v, sorter=order))
    f = np.sort(rng.standard_normal(n))
    if n > 3:
        f[-2:] = np.nan
        f[1] = -np.inf
    x = np.concatenate([rng.standard_normal(5000), [np.nan, np.inf, -np.inf, 0.0, -0.0]])
    same_bits(ng.searchsorted(ng.asarray(f), ng.asarray(x)), np.searchsorted(f, x))
    same_bits(ng.isin(ng.asarray(x), ng.asarray(f)), np.isin(x, f))


# ---- round -----------------------------------------------------------------------------------

def _round_data(dt, n=50001):
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n),
                        [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375,
                         1.005, 2.675, -1.005, 1e300, -1e300, 1.7e308, 5e-324, 123456789.987654321, 65504.0,
                         65519.0, 1e-5, 3.4e38, -3.4e38, 1e-45]])
    with np.errstate(over="ignore"):
        return x.astype(dt)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 4, 5, 7, 10, 15, 22, 23, 25, 30, 38, 39, 45, 200, 308, 309, 400,
                                      -1, -2, -3, -5, -10, -22, -25, -38, -39, -300, -308, -309, -400])
def test_round_bits(dt, decimals):
    x = _round_data(dt)
    with np.errstate(all="ignore"):
        exp = np.round(x, decimals)
        same_bits(ng.round(ng.asarray(x), decimals), exp)
        same_bits(ng.asarray(x).round(decimals), exp)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128, np.int8, np.uint16, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_round_views_dtypes_empty(dt):
    rng = np.random.default_rng(5)
    # (integers kept where rounding them to tens stays in range: beyond, the float -> uint16 cast of
    # 65540 wraps to 4 on cpu as NumPy's, and saturates on PoCL: a cast matter, not round's)
    x = np.abs(rng.standard_normal((300, 200)) * 20).astype(dt) if np.dtype(dt).kind in "iu" else \
        (rng.standard_normal((300, 200)) * 1000).astype(dt) if np.dtype(dt).kind != "c" else \
        (rng.standard_normal((300, 200)) * 1000 + 1j * rng.standard_normal((300, 200))).astype(dt)
    d = ng.asarray(x)
    for decimals in (2, -1, 0):
        for g, h in ((d, x), (d.T, x.T), (d[::-3, ::2], x[::-3, ::2]), (d[5], x[5]), (d[0, 0], x[0, 0])):
            same_bits(ng.round(g, decimals), np.asarray(np.round(h, decimals)))
    same_bits(ng.round(ng.asarray(x[:0]), 2), np.round(x[:0], 2))


def test_round_overflow_warns_as_numpy():
    x = np.array([1e300, 2.0, np.inf, np.nan], np.float64)
    for arr, dec in ((x, 10), (np.array([3e38, 1.0], np.float32), 2),
                     (np.array([700.0, 1.0], np.float16), 2), (np.array([1.7e308, 1.0]), -308)):
        with np.errstate(over="raise"):
            with pytest.raises(FloatingPointError, match="overflow encountered in multiply"):
                np.round(arr, dec)
            with pytest.raises(FloatingPointError, match="overflow encountered in multiply"):
                ng.round(ng.asarray(arr), dec)
    with np.errstate(over="raise"):   # inf and NaN in, nothing to report
        same_bits(ng.round(ng.asarray(np.array([np.inf, np.nan, 1.25])), 1), np.round(np.array([np.inf, np.nan, 1.25]), 1))
    with np.errstate(invalid="raise", over="ignore"):   # an infinite power of ten: NumPy's 0 * inf
        with pytest.raises(FloatingPointError):
            np.round(np.array([0.0, 1.0], np.float32), 40)
        with pytest.raises(FloatingPointError):
            ng.round(ng.asarray(np.array([0.0, 1.0], np.float32)), 40)


# ---- interp ----------------------------------------------------------------------------------

def test_interp_bits_large():
    rng = np.random.default_rng(6)
    for m in (1, 2, 3, 5, 100, 4097):
        xp = np.sort(rng.uniform(-5, 5, m))
        fp = rng.standard_normal(m) * 1e3
        x = np.concatenate([rng.uniform(-6, 6, 120001), xp, [np.nan, np.inf, -np.inf, -0.0, 0.0]])
        for kw in ({}, {"left": -7.5}, {"right": np.inf}, {"left": np.nan, "right": -0.0}):
            same_bits(ng.interp(ng.asarray(x), ng.asarray(xp), ng.asarray(fp), **kw), np.interp(x, xp, fp, **kw))
        same_bits(ng.interp(ng.asarray(x)[::-3], ng.asarray(xp), ng.asarray(fp)), np.interp(x[::-3], xp, fp))


def test_interp_bits_special_samples():
    x = np.linspace(-1.0, 7.0, 20001)
    cases = [([0.0, 0.0, 1.0, 1.0, 2.0, 5.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]),       # repeated samples
             ([0.0, 1.0, 2.0, 3.0, 6.0], [0.0, np.inf, 1.0, -np.inf, -np.inf]),              # infinite values
             ([0.0, 1.0, 2.0, 3.0, 6.0], [1.0, 1e308, -1e308, 2.0, 2.0]),                     # overflowing slopes
             ([0.0, 1.0, 2.0, 3.0, 6.0], [1.0, np.nan, 3.0, 3.0, 4.0]),                       # NaN values
             ([-np.inf, 0.0, 1.0, np.inf], [1.0, 2.0, 3.0, 4.0]),                             # infinite samples
             ([2.0], [3.0])]
    for xp, fp in cases:
        xp, fp = np.array(xp), np.array(fp)
        with np.errstate(all="ignore"):
            exp = np.interp(x, xp, fp)
        same_bits(ng.interp(ng.asarray(x), ng.asarray(xp), ng.asarray(fp)), exp)
    x32 = np.linspace(-1, 3, 1001).astype(np.float32).reshape(7, 11, 13)                         # float32 x, 3-d
    same_bits(ng.interp(ng.asarray(x32), ng.asarray(np.array([0, 1, 2], np.int32)), ng.asarray(np.array([1.0, -2.0, 4.0]))),
              np.interp(x32, np.array([0, 1, 2], np.int32), np.array([1.0, -2.0, 4.0])))


# ---- copies of permuted views ------------------------------------------------------------------

@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.int16, np.float32, np.float64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_permuted_copies(dt):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((37, 70, 45)) * 100).astype(dt)
    d = ng.asarray(x)
    for axes in ((0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        same_bits(d.transpose(axes).copy(), x.transpose(axes).copy())
        same_bits(ng.ascontiguousarray(d.transpose(axes)[::-1, :, 3:]), np.ascontiguousarray(x.transpose(axes)[::-1, :, 3:]))
        to = np.complex64 if x.dtype.kind == "c" else np.float64                               # a cast on the way
        same_bits(d.transpose(axes).astype(to), x.transpose(axes).astype(to))
    m = (rng.standard_normal((1000, 333)) * 100).astype(dt)
    same_bits(ng.asarray(m).T.copy(), m.T.copy())
    for rows in (33, 100, 127, 128, 129, 257, 500, 512, 513):   # out rows of one tile, or of several
        w = (rng.standard_normal((rows, 700)) * 100).astype(dt)
        same_bits(ng.asarray(w).T.copy(), w.T.copy())
        same_bits(ng.asarray(w)[:, ::-2].T.copy(), w[:, ::-2].T.copy())
    y = (rng.standard_normal((3, 4, 40, 50)) * 100).astype(dt)                               # 4-d, batch axes
    for axes in ((0, 1, 3, 2), (3, 2, 1, 0), (2, 0, 3, 1), (1, 3, 0, 2)):
        same_bits(ng.asarray(y).transpose(axes).copy(), y.transpose(axes).copy())
    out = ng.zeros((45, 37, 70), dt)                                                          # written across its rows
    out.transpose(1, 2, 0)[...] = d
    same_bits(out, np.ascontiguousarray(x.transpose(2, 0, 1)))
    same_bits(d.transpose(2, 0, 1) + d.transpose(2, 0, 1).copy(), x.transpose(2, 0, 1) + x.transpose(2, 0, 1))
