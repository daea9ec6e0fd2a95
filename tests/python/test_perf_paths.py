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
