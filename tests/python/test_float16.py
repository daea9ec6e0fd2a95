"""float16 conversions against NumPy, bit for bit: every half widened to float32 and float64,
and float32/float64 values narrowed to half with round-to-nearest-even (random bit patterns,
every half, the halfway points between neighbouring halves and their neighbours, subnormals,
overflow to infinity). A double is narrowed directly, never through float32 (which would round
twice). NaN stays NaN (its payload bits are not compared: hardware conversions quiet it).
"""
import numpy as np
import pytest

import numgpu as ng

HALVES = np.arange(65536, dtype=np.uint16).view(np.float16)


def same_halves(got, exp):
    assert got.dtype == exp.dtype == np.float16
    nan = np.isnan(exp)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.uint16)[~nan], exp.view(np.uint16)[~nan])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_every_half_widens_exactly(dt):
    got, exp = ng.asarray(HALVES).astype(dt).get(), HALVES.astype(dt)
    np.testing.assert_array_equal(got, exp)


def neighbourhood(dt):
    """Every half and the midpoints between neighbours, with the values just above and below."""
    with np.errstate(all="ignore"):
        h = HALVES[np.isfinite(HALVES)].astype(np.float64)
        h = np.sort(h)
        mid = (h[:-1] + h[1:]) / 2
        x = np.concatenate([h, mid, [65520.0, 65519.99, -65520.0, 2.0**-25, 2.0**-24 * 1.5, 1e-30, 1e30]])
        x = x.astype(dt)
        return np.concatenate([x, np.nextafter(x, dt(np.inf)), np.nextafter(x, dt(-np.inf)),
                               np.array([np.inf, -np.inf, np.nan], dt)])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_narrowing_rounds_as_numpy(dt):
    x = neighbourhood(dt)
    with np.errstate(all="ignore"):
        same_halves(ng.asarray(x).astype(np.float16).get(), x.astype(np.float16))


def test_narrowing_random_bit_patterns():
    rng = np.random.default_rng(0)
    f = rng.integers(0, 2**32, 1_000_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    d = rng.standard_normal(1_000_000) * np.exp(rng.uniform(-25, 13, 1_000_000))
    with np.errstate(all="ignore"):
        same_halves(ng.asarray(f).astype(np.float16).get(), f.astype(np.float16))
        same_halves(ng.asarray(d).astype(np.float16).get(), d.astype(np.float16))


def test_arithmetic_rounds_after_every_op():
    """a * b + c in float16 rounds a * b to half first (NumPy's float16 loops), unlike one
    float32 expression rounded once."""
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(4097).astype(np.float16) for _ in range(3))
    ga, gb, gc = ng.asarray(a), ng.asarray(b), ng.asarray(c)
    same_halves((ga * gb + gc).get(), a * b + c)
    same_halves((ga / gb - gc).get(), a / b - c)
    same_halves(((ga + 1.5) * 3).get(), (a + 1.5) * 3)       # weak Python floats stay float16


def test_sign_ops_of_every_half_on_the_bits():
    # abs, negative and copysign of float16 elements: NumPy's loops work on the bits, and so
    # do numgpu's kernels, NaN payloads (signaling ones too) included; contiguous, strided,
    # in place, and a value computed first (converted: NaN payloads not compared)
    h = HALVES
    g = ng.asarray(h)
    other = np.roll(h, 12345)
    go = ng.asarray(other)
    for name in ("abs", "negative"):
        got, exp = getattr(ng, name)(g).get(), getattr(np, name)(h)
        np.testing.assert_array_equal(got.view(np.uint16), exp.view(np.uint16))
        got = getattr(ng, name)(g[::-3]).get()
        np.testing.assert_array_equal(got.view(np.uint16), getattr(np, name)(h[::-3]).view(np.uint16))
    np.testing.assert_array_equal(ng.copysign(g, go).get().view(np.uint16), np.copysign(h, other).view(np.uint16))
    np.testing.assert_array_equal(abs(-g).get().view(np.uint16), abs(-h).view(np.uint16))
    inplace = ng.asarray(h)
    ng.negative(inplace, out=inplace)
    np.testing.assert_array_equal(inplace.get().view(np.uint16), (-h).view(np.uint16))
    with np.errstate(all="ignore"):
        same_halves(ng.abs(g * 2).get(), np.abs(h * 2))
        same_halves(ng.copysign(g, go + 1).get(), np.copysign(h, other + 1))
