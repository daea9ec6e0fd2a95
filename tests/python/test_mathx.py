"""numgpu/_mathx.py against NumPy: cross, unwrap, modf/frexp/ldexp/spacing (bit for bit: subnormals,
overflow, signed zeros, inf and NaN), i0 and the windows, histogram2d/histogramdd, piecewise and the
polynomial helpers. Every dtype NumPy takes, views, empty and 0-d inputs, keywords and NumPy's
errors; every test also checks that nothing fell back to NumPy.
"""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import (  # noqa: F401 (no_fallback: an autouse fixture)
    assert_same, both, call_both, data, dtype_id, fallback_calls, FLOATS, INTS, no_fallback, on_device,
    raises_as_numpy, to_numpy, views
)

REAL = INTS + FLOATS


def bits(got, want):
    """The same dtype, shape and bits (NaN payloads aside)."""
    g, w = np.ascontiguousarray(to_numpy(got)), np.ascontiguousarray(want)
    assert isinstance(got, ng.ndarray) and g.dtype == w.dtype and g.shape == w.shape, (g, w)
    same = (g.view(np.uint8).reshape(g.shape + (-1,)) == w.view(np.uint8).reshape(w.shape + (-1,))).all(-1)
    assert (same | (np.isnan(g) & np.isnan(w) if w.dtype.kind == "f" else same)).all(), (g[~same], w[~same])


def special(dt):
    """Every kind of float of dtype dt: zeros, subnormals, the extremes, inf, NaN, powers of two and
    their neighbours, random values."""
    info = np.finfo(dt)
    tiny, sub, big = info.tiny, info.smallest_subnormal, info.max
    v = [0.0, 1.0, 0.5, 0.75, 2.0, 3.0, 1.5, tiny, sub, sub * 3, tiny / 2, tiny * 0.75, big, big / 2,
         np.inf, np.nan, np.nextafter(dt(1), dt(0)), np.nextafter(dt(1), dt(2)), np.nextafter(tiny, dt(0))]
    v = np.array(v, dt)
    return np.concatenate([v, -v, data(dt, (40,), seed=3), np.array([-0.0], dt)])


# ---- cross ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL + [np.complex128], ids=dtype_id)
def test_cross_3d_dtypes(dtype):
    a, b = data(dtype, (5, 3), seed=1), data(dtype, (5, 3), seed=2)
    both("cross", a, b)
    both("cross", a, b[0])
    both("cross", a.T, b, axisa=0)


def test_cross_axes_and_broadcasting():
    a, b = data(np.float64, (3, 4, 2), seed=1), data(np.float64, (4, 1, 3), seed=2)
    both("cross", np.moveaxis(a, 0, -1), b)
    both("cross", a, b, axisa=0, axisb=-1, axisc=1)
    both("cross", a[::-1], b[..., ::-1], axisa=0, axisc=0)
    c = data(np.float32, (3, 4, 3), seed=5)
    both("cross", c, c[::-1], axis=0)
    both("cross", np.zeros((0, 3)), np.ones(3))
    both("cross", [1, 2, 3], [4.0, 5, 6])


@pytest.mark.parametrize("shapes", [((5, 2), (5, 2)), ((2,), (2,)), ((5, 2), (3,)), ((3,), (4, 2))])
def test_cross_2d_vectors_deprecated(shapes):
    a, b = data(np.int64, shapes[0], seed=1), data(np.int64, shapes[1], seed=2)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        got = ng.cross(ng.asarray(a), ng.asarray(b))
    with pytest.warns(DeprecationWarning):
        assert_same(got, np.cross(a, b))


def test_cross_errors():
    raises_as_numpy("cross", np.ones(4), np.ones(3), match="incompatible dimensions")
    raises_as_numpy("cross", np.float64(1), np.ones(3), match="zero dimension")
    raises_as_numpy("cross", np.ones(3), np.ones(3), axisa=1, match="axisa")
    raises_as_numpy("cross", np.ones(3), np.ones(3), axisb=-2, match="axisb")
    raises_as_numpy("cross", np.ones(3), np.ones(3), axisc=1, match="axisc")
    raises_as_numpy("cross", np.ones((2, 3)), np.ones((3, 3)))
    raises_as_numpy("cross", np.ones(3, bool), np.ones(3, bool))       # boolean subtract
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        raises_as_numpy("cross", np.ones(2, bool), np.ones(3, bool))   # boolean negative


# ---- unwrap --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL, ids=dtype_id)
def test_unwrap_dtypes(dtype):
    p = data(dtype, (4, 30), seed=7)
    both("unwrap", p)
    both("unwrap", p, axis=0)
    both("unwrap", p, period=6)
    both("unwrap", p, discont=4.0, period=7.5)


def test_unwrap_views_and_edges():
    p = np.cumsum(data(np.float64, (6, 50), seed=8), axis=1)
    for v in views(p):
        both("unwrap", v)
    both("unwrap", np.array([0, np.pi, 0, -np.pi, 0, 2 * np.pi]))      # jumps of exactly period / 2
    both("unwrap", np.array([0, 4, 8, 2, 0, -4], np.int64), period=8)  # integer period, ambiguous boundary
    both("unwrap", np.array([0, 4, 8, 2, 0, -4], np.int32), period=9)
    both("unwrap", np.array([1.0, np.nan, 7.0, np.inf, 2.0]))
    both("unwrap", np.zeros((3, 0)))
    both("unwrap", np.zeros(1))
    both("unwrap", [0.0, 5.0, 10.0], discont=1.0)
    raises_as_numpy("unwrap", np.ones((2, 3)), axis=2)
    raises_as_numpy("unwrap", np.float64(1.0))


# ---- modf, frexp, ldexp, spacing: bit for bit ---------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_modf_frexp_spacing_bits(dtype):
    x = special(dtype)
    for name in ("modf", "frexp", "spacing"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(x)
        got = getattr(ng, name)(ng.asarray(x))
        for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
            bits(g, w)


@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_ldexp_bits(dtype):
    x = special(dtype)
    info = np.finfo(dtype)
    span = info.maxexp - info.minexp + info.nmant + 3
    for n in (np.arange(-span, span + 1, dtype=np.int32), np.array([0, 1, -1, 2**30, -2**30], np.int64)):
        xs, ns = np.broadcast_arrays(x[:, None], n[None, :])
        with np.errstate(all="ignore"):
            want = np.ldexp(xs, ns)
            got = ng.ldexp(ng.asarray(x)[:, None], ng.asarray(n)[None, :])
        bits(got, want)
    with np.errstate(all="ignore"):
        bits(ng.ldexp(ng.asarray(x), 3), np.ldexp(x, 3))
        bits(ng.ldexp(ng.asarray(x), -info.nmant), np.ldexp(x, -info.nmant))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64], ids=dtype_id)
def test_integer_inputs_take_numpys_loops(dtype):
    x = data(dtype, (3, 5), seed=4)
    for name in ("modf", "frexp", "spacing"):
        both(name, x, rtol=0)
    both("ldexp", x, data(np.int32, (5,), seed=5, kind="small"), rtol=0)


def test_ufuncfallback_calls():
    x = data(np.float64, (4, 5), seed=9)
    for v in views(x):
        bits(ng.modf(ng.asarray(v))[0], np.modf(v)[0])
        bits(ng.frexp(ng.asarray(v))[1], np.frexp(v)[1])
    assert_same(ng.modf(2.5), np.modf(2.5))
    assert_same(ng.frexp(np.float32(-6.0)), np.frexp(np.float32(-6.0)))
    assert_same(ng.ldexp(3.0, 4), np.ldexp(3.0, 4))
    assert_same(ng.ldexp([1.5, 2.0], np.int64(-3)), np.ldexp([1.5, 2.0], np.int64(-3)))
    assert_same(ng.spacing(np.zeros(0, np.float32)), np.spacing(np.zeros(0, np.float32)))
    m, e = ng.empty(x.shape), ng.empty(x.shape, np.int32)
    r = ng.frexp(ng.asarray(x), out=(m, e))
    assert r[0] is m and r[1] is e
    bits(m, np.frexp(x)[0])
    o = ng.empty(x.shape)
    assert ng.ldexp(ng.asarray(x), 2, o) is o
    bits(o, np.ldexp(x, 2))
    f, i = ng.modf(ng.asarray(x), out=(None, ng.empty(x.shape)))
    bits(i, np.modf(x)[1])
    assert ng.spacing(ng.asarray(x), out=ng.empty(x.shape, np.float32)).dtype == np.float32


def test_ufunc_errors():
    """(A ufunc's TypeError is NumPy's own: the call goes to NumPy, which raises it, nothing counted.)"""
    for name, args in (("modf", (np.ones(3, complex),)), ("frexp", (np.ones(3, complex),)),
                       ("ldexp", (np.ones(3), np.ones(3))), ("ldexp", (np.ones(3), np.ones(3, np.uint64))),
                       ("spacing", (np.ones(3, complex),))):
        raises_as_numpy(name, *args)
    raises_as_numpy("frexp", np.ones(3), out=(ng.empty(3, np.int32), ng.empty(3, np.int32)))
    raises_as_numpy("modf", np.ones(3), out=(ng.empty(3),))
    raises_as_numpy("ldexp", np.ones(3), np.ones(4, np.int32))


def test_fallback_ufunc_keywords():
    """A keyword a host ufunc's call lacks (where=) runs NumPy's ufunc, counted; ldexp, a device
    ufunc, takes where= on the device."""
    before = _fallback.counts.get("numpy.spacing", [0])[0]
    x = data(np.float64, (5,), seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        r = ng.spacing(ng.asarray(x), where=ng.asarray(x > 0), out=ng.zeros(5))
    assert_same(r, np.spacing(x, where=x > 0, out=np.zeros(5)))
    assert _fallback.counts["numpy.spacing"][0] == before + 1
    r = ng.ldexp(ng.asarray(x), 2, where=ng.asarray(x > 0), out=ng.zeros(5))
    assert_same(r, np.ldexp(x, 2, where=x > 0, out=np.zeros(5)))


def test_frexp_and_ldexp_are_device_ops():
    assert ng.ldexp._code is not None and ng.ldexp.nin == 2      # NG_OP_LDEXP
    assert ng.frexp.nout == 2 and repr(ng.frexp) == "<ufunc 'frexp'>"
    assert not hasattr(ng, "frexp_exponent")
    x = ng.asarray(data(np.float64, (3, 4), seed=1))
    ng.frexp(x)
    before = ng.stats()["kernel_launches"]
    ng.frexp(x)
    assert ng.stats()["kernel_launches"] == before + 1                  # both outputs, one kernel


@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_ldexp_exponent_dtypes_and_extremes(dtype):
    """Every integer exponent dtype NumPy takes (bool, int8 ... int64, uint8 ... uint32), exponents
    beyond int32 (NumPy clamps them to int's range), and Python ints on either side."""
    x = special(dtype)
    big = np.array([2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**40, -2**40, 2**62, -2**63, 0, 5, -5], np.int64)
    for n in [big] + [np.array([0, 1, 3, 100, 126], t) for t in (np.bool_, np.int8, np.uint8, np.int16,
                                                                 np.uint16, np.int32, np.uint32)]:
        xs, ns = np.broadcast_arrays(x[:, None], n[None, :])
        with np.errstate(all="ignore"):
            want = np.ldexp(xs, ns)
            got = ng.ldexp(ng.asarray(x)[:, None], ng.asarray(n)[None, :])
        bits(got, want)
    with np.errstate(all="ignore"):
        for k in (0, 1, -1, 2**31 - 1, -2**31, True):
            bits(ng.ldexp(ng.asarray(x), k), np.ldexp(x, k))
        for k in (2**31, -2**31 - 1, 2**40, -2**63):      # (a Python int: NumPy's int32 loop)
            raises_as_numpy("ldexp", x, k, match="out of bounds for int32")
        n = np.array([-2000, -150, -30, 0, 30, 150, 2000], np.int32)
        bits(ng.ldexp(dtype(0.75), ng.asarray(n)), np.ldexp(dtype(0.75), n))
        bits(ng.ldexp(ng.asarray(x)[::-3], ng.asarray(np.arange(len(x), dtype=np.int16))[::-3] - 20),
             np.ldexp(x[::-3], np.arange(len(x), dtype=np.int16)[::-3] - 20))


def test_ldexp_loops_and_errors_are_numpys():
    """ldexp's loops: the mantissa's float loop, never promoted with the exponent's dtype; a float,
    complex or uint64 exponent and a complex mantissa are NumPy's TypeError."""
    for mdt in [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint64, np.float16, np.float32]:
        for edt in [np.bool_, np.int8, np.int64, np.uint32]:
            m, e = data(mdt, (7,), seed=1, kind="small"), data(edt, (7,), seed=2, kind="small")
            bits(ng.ldexp(ng.asarray(m), ng.asarray(e)), np.ldexp(m, e))
    # Python scalars are weak: a bool mantissa, or an int one beside an array, takes float16's loop
    e = np.array([-3, 0, 4], np.int32)
    for m in (True, 3, 2.5, np.float16(2), np.int8(3), np.int64(5)):
        for k in (e, e.astype(np.int8), True, 2, np.int32(2), np.int64(2)):
            want = np.asarray(np.ldexp(m, k))
            got = ng.ldexp(m, ng.asarray(k) if isinstance(k, np.ndarray) else k)
            bits(got if isinstance(got, ng.ndarray) else ng.asarray(got), want)
    x = data(np.float32, (4,), seed=3)
    bits(ng.ldexp(ng.asarray(x), 3), np.ldexp(x, 3))                   # (a weak int keeps float32)
    bits(ng.ldexp(ng.asarray(x), np.int64(3)), np.ldexp(x, np.int64(3)))
    for args in [(x, 1.5), (x, np.ones(4)), (x, np.ones(4, np.float16)), (x, np.ones(4, np.uint64)),
                 (x, 1j), (x.astype(np.complex64), 2), (x, np.ones(4, np.complex64))]:
        raises_as_numpy("ldexp", *args)
    o = ng.zeros(4, np.float64)
    assert ng.ldexp(ng.asarray(x), 2, out=o) is o
    bits(o, np.ldexp(x, 2).astype(np.float64))
    raises_as_numpy("ldexp", x, 2, out=ng.zeros(4, np.int32))


@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_frexp_every_exponent_and_out(dtype):
    """Every binade (each power of two, its neighbours, subnormals), views, and out= arrays of
    wider dtypes (NumPy's same_kind)."""
    info = np.finfo(dtype)
    p = np.ldexp(dtype(1), np.arange(info.minexp - info.nmant, info.maxexp, dtype=np.int32))
    x = np.concatenate([p, np.nextafter(p, dtype(0)), np.nextafter(p, dtype(np.inf)), -p * dtype(0.75)])
    got = ng.frexp(ng.asarray(x))
    for g, w in zip(got, np.frexp(x)):
        bits(g, w)
    for v in views(x.reshape(4, -1)):
        for g, w in zip(ng.frexp(ng.asarray(v)), np.frexp(v)):
            bits(g, w)
    m, e = ng.zeros(x.shape, np.float64), ng.zeros(x.shape, np.int64)
    r = ng.frexp(ng.asarray(x), m, e) if False else ng.frexp(ng.asarray(x), out=(m, e))
    assert r[0] is m and r[1] is e
    wm, we = np.frexp(x)
    bits(m, wm.astype(np.float64))
    bits(e, we.astype(np.int64))


# ---- i0 and windows -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL, ids=dtype_id)
def test_i0(dtype):
    x = data(dtype, (3, 40), seed=2)
    # exp and sqrt come from another libm (a few ulps)
    both("i0", x, rtol={np.float16: 2e-3, np.float32: 2e-6}.get(dtype, 2e-15))
    both("i0", np.linspace(-30, 30, 241).astype(np.float64 if dtype not in FLOATS else dtype),
         rtol={np.float16: 2e-3, np.float32: 2e-6}.get(dtype, 2e-15))


def test_i0_edges():
    both("i0", np.array([0.0, 8.0, -8.0, np.nextafter(8, 9), np.inf, -np.inf, np.nan, 700.0, 720.0]), rtol=2e-15)
    both("i0", 3.0, rtol=2e-15)
    both("i0", np.zeros((2, 0)))
    both("i0", data(np.float64, (4, 6), seed=1).T, rtol=2e-15)
    raises_as_numpy("i0", np.ones(2, complex), match="complex")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_i0_one_kernel(dtype):
    # one device op over any layout (it was ~180 ops, each a launch): a transposed view and a
    # reversed one, values through both series, the float16 overflow of NumPy's exp (|x| > 11.1)
    x = (data(np.float64, (6, 50), seed=3) * 12).astype(dtype)
    for v in (x.T, x[::-1, ::-3]):
        g = on_device(v)
        before = ng.stats()["kernel_launches"]
        got = ng.i0(g)
        assert ng.stats()["kernel_launches"] - before == 1
        assert_same(got, np.i0(v), rtol={np.float16: 2e-3, np.float32: 2e-6}.get(dtype, 2e-15))


def test_i0_integers_and_warnings():
    both("i0", np.arange(-20, 21, dtype=np.int32), rtol=2e-15)
    both("i0", np.array([True, False]), rtol=2e-15)
    # NumPy warns of exp's overflow and of inf / inf; i0(0) warns of nothing (the op-by-op version
    # divided by 0 for the unused branch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(ng.i0(on_device(np.array([0.0, 1.0, 8.0]))), np.i0(np.array([0.0, 1.0, 8.0])), rtol=2e-15)
    with pytest.warns(RuntimeWarning, match="overflow"):
        to_numpy(ng.i0(on_device(np.array([720.0]))))   # (a GPU's warnings come with the download)
    with pytest.warns(RuntimeWarning, match="invalid"):
        to_numpy(ng.i0(on_device(np.array([np.inf]))))


@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("M", [-3, 0, 1, 2, 3, 10, 51, 256, 5.5, np.int32(12), True])
def test_windows(name, M):
    both(name, M, rtol=4e-16, atol=4e-16)     # cos from another libm


@pytest.mark.parametrize("M,beta", [(1, 5.0), (0, 3.0), (-2, 1.0), (2, 0.0), (12, 14), (51, 8.6), (200, 0.5),
                                    (7.5, 2.0)])
def test_kaiser(M, beta):
    both("kaiser", M, beta, rtol=1e-14, atol=1e-300)


def test_window_errors():
    raises_as_numpy("hanning", "a")
    raises_as_numpy("kaiser", 1j, 2.0)


# ---- histogram2d, histogramdd -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.float16], ids=dtype_id)
def test_histogram2d(dtype):
    x, y = data(dtype, (500,), seed=1), data(dtype, (500,), seed=2)
    w = data(np.float64, (500,), seed=3, kind="positive")
    both("histogram2d", x, y)
    both("histogram2d", x, y, bins=(7, 3))
    both("histogram2d", x, y, bins=5, range=[[-10, 10], [0, 5]], density=True, rtol=1e-12)
    both("histogram2d", x, y, bins=[np.array([-20, 0, 3, 50]), 4], weights=w, rtol=1e-12)
    both("histogram2d", x, y, bins=np.linspace(-30, 30, 9), weights=np.arange(500), rtol=1e-12)


def test_histogramdd():
    s = data(np.float64, (300, 3), seed=4)
    both("histogramdd", s)
    both("histogramdd", s, bins=(2, 3, 4), density=True, rtol=1e-12)
    both("histogramdd", s.T[::-1].T, bins=[np.array([-50.0, 0, 50]), 3, np.array([-5, 0, 5, 10])])
    both("histogramdd", [s[:, 0], s[:, 1]], bins=4, range=[(-5, 5), None])
    both("histogramdd", s[:, 0], bins=6)
    both("histogramdd", np.zeros((0, 2)), bins=3)
    both("histogramdd", np.array([[1.0, 1.0], [1.0, 1.0]]), bins=2)      # empty range: +-0.5
    both("histogramdd", np.array([[0.0, 0], [1, 1], [2, 2], [np.nan, 1]]), bins=2, range=[(0, 2), (0, 2)])
    both("histogramdd", s, weights=np.ones(300, np.int32), bins=3)


def test_histogram_errors():
    x = data(np.float64, (20,), seed=1)
    raises_as_numpy("histogram2d", x, x[:-1], match="same length")
    raises_as_numpy("histogram2d", x, x, bins=[6, 5, 4, 3], match="monotonically")
    raises_as_numpy("histogram2d", x, x, bins=0, match="must be positive")
    raises_as_numpy("histogram2d", x, x, bins=2.5, match="must be an integer")
    raises_as_numpy("histogram2d", x, x, bins=[np.ones((2, 2)), 2], match="scalar or 1d")
    raises_as_numpy("histogram2d", x, x, range=[(1, 0), (0, 1)], match="larger than min")
    raises_as_numpy("histogram2d", x, x, range=[(0, np.inf), (0, 1)], match="not finite")
    raises_as_numpy("histogram2d", np.array([1.0, np.inf]), np.ones(2), match="not finite")
    raises_as_numpy("histogramdd", np.ones((4, 2)), bins=[2, 3, 4], match="dimension of bins")
    raises_as_numpy("histogramdd", np.ones((4, 2)), range=[(0, 1)], match="one entry per dimension")
    raises_as_numpy("histogramdd", np.ones((4, 2)), weights=np.ones(3))
    raises_as_numpy("histogramdd", np.ones((4, 2)), weights=np.ones(4, complex))


# ---- piecewise ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL, ids=dtype_id)
def test_piecewise(dtype):
    x = data(dtype, (4, 6), seed=6)
    mid = x.dtype.type(3)
    for v in views(x):
        want = np.piecewise(v, [v < mid, v > mid * 2], [lambda t: t * 2, lambda t: t - 1, 7])
        g = ng.asarray(v)
        assert_same(ng.piecewise(g, [g < mid, g > mid * 2], [lambda t: t * 2, lambda t: t - 1, 7]), want)
    r = x[1]
    assert_same(ng.piecewise(ng.asarray(r), ng.asarray(r) > mid, [lambda t: -t, 1]),
                np.piecewise(r, r > mid, [lambda t: -t, 1]))


def test_piecewise_forms():
    x = np.linspace(-2.5, 2.5, 6)
    g = ng.asarray(x)
    assert_same(ng.piecewise(g, [[True, False] * 3], [lambda t, k: t * k], 3),
                np.piecewise(x, [[True, False] * 3], [lambda t, k: t * k], 3))
    assert_same(ng.piecewise(g, [g < 0, g >= 0], [lambda t, k=1: t - k, 0.5], k=2),
                np.piecewise(x, [x < 0, x >= 0], [lambda t, k=1: t - k, 0.5], k=2))
    assert_same(ng.piecewise(g, [g > 10], [lambda t: t * 0]), np.piecewise(x, [x > 10], [lambda t: t * 0]))
    s = ng.asarray(-2.5)
    assert_same(ng.piecewise(s, s > 0, [lambda t: t, lambda t: -t]),
                np.piecewise(np.float64(-2.5), np.float64(-2.5) > 0, [lambda t: t, lambda t: -t]))
    assert_same(ng.piecewise(ng.zeros(0), [ng.zeros(0, bool)], [1.0]), np.piecewise(np.zeros(0), [np.zeros(0, bool)],
                                                                                      [1.0]))
    raises_as_numpy("piecewise", x, [x < 0, x > 1], [1], match="either 2 or 3 functions")
    raises_as_numpy("piecewise", x, [x[:3] < 0], [1])


# ---- polynomials -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL + [np.complex128], ids=dtype_id)
def test_polyadd_polysub(dtype):
    a, b = data(dtype, (5,), seed=1), data(dtype, (3,), seed=2)
    for name in ("polyadd", "polysub"):
        both(name, a, b)
        both(name, b, a)
        both(name, a, a[::-1])
        both(name, 2, b)
        both(name, [], a)


@pytest.mark.parametrize("dtype", REAL + [np.complex128], ids=dtype_id)
def test_polymul(dtype):
    a, b = data(dtype, (6,), seed=1), data(dtype, (4,), seed=2)
    tol = 1e-12 if np.dtype(dtype).kind in "fc" else None     # NumPy's convolve: BLAS dot products
    if np.dtype(dtype) in (np.float32, np.float16):
        tol = 2e-3 if dtype == np.float16 else 1e-5
    both("polymul", a, b, rtol=tol, atol=1e-6 if tol else 0)
    both("polymul", np.concatenate([np.zeros(2, dtype), b]), a[::-1], rtol=tol, atol=1e-6 if tol else 0)
    both("polymul", np.zeros(3, dtype), a)
    both("polymul", 3, [1, 2])
    raises_as_numpy("polymul", np.ones((2, 2)), [1, 2], match="1d only")


@pytest.mark.parametrize("dtype", REAL + [np.complex128, np.bool_], ids=dtype_id)
def test_polyder_polyint(dtype):
    p = data(dtype, (6,), seed=3)
    for m in (0, 1, 2, 7):
        both("polyder", p, m=m)
        both("polyint", p, m=m)
    both("polyint", p, 2, k=[1, 2])
    both("polyint", p, 3, k=5)
    both("polyint", p[::-2], 1, k=np.array([2 + 1j]))
    both("polyder", [], 1)
    both("polyint", [], 2)
    raises_as_numpy("polyder", p, -1, match="positive")
    raises_as_numpy("polyint", p, -1, match="positive")
    raises_as_numpy("polyint", p, 3, k=[1, 2], match="length 1 or >m")
    raises_as_numpy("polyder", np.float64(2), 1)
    raises_as_numpy("polyint", np.float64(2), 1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128, np.complex64, np.float16],
                         ids=dtype_id)
def test_poly(dtype):
    r = data(dtype, (6,), seed=4)
    rtol = {np.float32: 1e-5, np.complex64: 1e-5, np.float16: 1e-3}.get(dtype, 1e-12)
    both("poly", r, rtol=rtol)
    both("poly", r[::-1][:3], rtol=rtol)
    both("poly", np.array([1 + 2j, 3, 1 - 2j]), rtol=1e-12)       # conjugate pairs: real coefficients
    both("poly", np.zeros(0, dtype))
    raises_as_numpy("poly", np.ones((2, 3)), match="1d or non-empty square")
    raises_as_numpy("poly", np.ones((2, 2, 2)))


def test_fallback_poly_of_a_matrix():
    """poly of a square matrix needs eigvals: NumPy's, counted."""
    a = data(np.float64, (3, 3), seed=1)
    before = _fallback.counts.get("numpy.poly", [0])[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        assert_same(ng.poly(ng.asarray(a)), np.poly(a), rtol=1e-12)
        assert ng.polyder(np.poly1d([1, 2, 3])) == np.poly1d([2, 2])
    assert _fallback.counts["numpy.poly"][0] == before + 1 and _fallback.counts["numpy.polyder"][0] >= 1
