"""numgpu/_bitspoly.py against NumPy: packbits/unpackbits (every integer dtype, axes, bit orders,
counts, views, empty and 0-d inputs), bitwise_count (bit for bit, the extremes of each dtype),
matvec/vecmat, polydiv (bit for bit), polyfit and roots, asarray_chkfinite, rollaxis and
isfortran; NumPy's errors. Every test also checks that nothing fell back to NumPy, except the
test_fallback_* ones: polyfit's small SVD and roots' eigenvalues run on NumPy (those alone).
"""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import (  # noqa: F401 (no_fallback: an autouse fixture)
    both, data, dtype_id, fallback_calls, BOOL, COMPLEX, FLOATS, INTS, no_fallback,
    raises_as_numpy, to_numpy, views
)

ORDERS = ["big", "little"]


def exact(got, want):
    """The same type, dtype, shape and values (NaN where NumPy has NaN)."""
    assert isinstance(got, ng.ndarray)
    g, w = to_numpy(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    np.testing.assert_array_equal(g, w)


def bit_data(dtype, shape, seed=0):
    """Zeros, ones and other nonzero values (negatives where signed) of dtype."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    x = rng.integers(-3, 4, shape) if dt.kind == "i" else rng.integers(0, 4, shape) * 85
    return np.where(rng.random(shape) < 0.4, 0, x).astype(dt)


# ---- packbits ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", BOOL + INTS, ids=dtype_id)
@pytest.mark.parametrize("bitorder", ORDERS)
def test_packbits_dtypes_axes(dtype, bitorder):
    a = bit_data(dtype, (3, 13), seed=1)
    for axis in (None, 0, 1, -1, -2):
        exact(ng.packbits(ng.asarray(a), axis=axis, bitorder=bitorder), np.packbits(a, axis=axis, bitorder=bitorder))


@pytest.mark.parametrize("shape", [(16,), (8, 3), (2, 3, 24), (5, 7, 9), (1,), (9,)])
@pytest.mark.parametrize("bitorder", ORDERS)
def test_packbits_shapes(shape, bitorder):
    a = bit_data(np.bool_, shape, seed=2)
    for axis in [None] + list(range(-len(shape), len(shape))):
        exact(ng.packbits(ng.asarray(a), axis=axis, bitorder=bitorder), np.packbits(a, axis=axis, bitorder=bitorder))


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32], ids=dtype_id)
def test_packbits_views(dtype):
    a = bit_data(dtype, (6, 17), seed=3)
    g = ng.asarray(a)
    for gv, v in zip(views(g), views(a)):
        for axis in (None, 0, -1):
            exact(ng.packbits(gv, axis=axis), np.packbits(v, axis=axis))
    # bool views whose start is not 8-byte aligned, of a length that is a multiple of 8
    b = bit_data(np.bool_, (41,), seed=4)
    gb = ng.asarray(b)
    for s in (slice(1, 33), slice(3, 19), slice(8, 40)):
        exact(ng.packbits(gb[s], bitorder="little"), np.packbits(b[s], bitorder="little"))


def test_packbits_values_nonzero_is_one():
    a = np.array([-1, 256, 0, 3, -128, 0, 0, 1, 7], np.int64)
    exact(ng.packbits(ng.asarray(a)), np.packbits(a))
    u = np.array([255, 0, 2, 0, 0, 0, 0, 128], np.uint64) << np.uint64(56)
    exact(ng.packbits(ng.asarray(u)), np.packbits(u))


def test_packbits_empty_and_0d():
    for a in (np.zeros((0, 3), bool), np.zeros((3, 0), np.uint8), np.zeros(0, np.int16)):
        for axis in [None] + list(range(a.ndim)):
            exact(ng.packbits(ng.asarray(a), axis=axis), np.packbits(a, axis=axis))
    for v in (np.array(5), np.array(0, np.uint8), np.array(True)):
        for axis in (None, 0, -1):
            exact(ng.packbits(ng.asarray(v), axis=axis), np.packbits(v, axis=axis))
    exact(ng.packbits([1, 0, 1, 1]), np.packbits([1, 0, 1, 1]))
    exact(ng.packbits(True), np.packbits(True))


def test_packbits_bitorder_prefixes():
    a = bit_data(np.bool_, (11,), seed=5)
    for order in ("bigx", "littlee"):
        exact(ng.packbits(ng.asarray(a), bitorder=order), np.packbits(a, bitorder=order))


def test_packbits_errors():
    raises_as_numpy("packbits", np.ones(3), match="integer or boolean")
    raises_as_numpy("packbits", np.ones(3, np.complex64))
    raises_as_numpy("packbits", [])                                         # float64
    raises_as_numpy("packbits", np.ones(3, np.int8), bitorder="b", match="'order' must be")
    raises_as_numpy("packbits", np.ones(3, np.int8), bitorder="L")
    raises_as_numpy("packbits", np.ones(3, np.int8), bitorder="")
    raises_as_numpy("packbits", np.ones(3, np.int8), bitorder=None, match="must be str")
    raises_as_numpy("packbits", np.ones(3, np.int8), bitorder=1)
    raises_as_numpy("packbits", np.ones(3), bitorder="x")                   # the order checked first
    raises_as_numpy("packbits", np.ones((2, 3), np.int8), axis=2)
    raises_as_numpy("packbits", np.ones((2, 3), np.int8), axis=-3)
    raises_as_numpy("packbits", np.ones(3, np.int8), axis=1.0)
    raises_as_numpy("packbits", np.ones(3, np.int8), axis=True)
    raises_as_numpy("packbits", np.array(1), axis=1)
    raises_as_numpy("packbits", np.ones(3), axis=4)                         # the dtype before the axis


@pytest.mark.parametrize("bitorder", ORDERS)
def test_packbits_word_kernel_every_byte(bitorder):
    """The word kernel (1-byte elements, a unit-stride 8-aligned last axis, a multiple of 8 long)
    against the element kernel's cases: every byte value, bool views of them, rows, broadcasts."""
    u = np.random.default_rng(9).permutation(np.repeat(np.arange(256, dtype=np.uint8), 8)).reshape(16, 128)
    u[:, ::3] = 0
    g = ng.asarray(u)
    for axis in (None, 0, 1):
        exact(ng.packbits(g, axis=axis, bitorder=bitorder), np.packbits(u, axis=axis, bitorder=bitorder))
        exact(ng.packbits(g.view(np.int8), axis=axis, bitorder=bitorder),
              np.packbits(u.view(np.int8), axis=axis, bitorder=bitorder))
    b = u != 0
    gb = ng.asarray(b)
    for v, gv in ((b, gb), (b[:, 8:], gb[:, 8:]), (b[::2, 16:], gb[::2, 16:]), (b[:, 1:121], gb[:, 1:121])):
        exact(ng.packbits(gv, axis=-1, bitorder=bitorder), np.packbits(v, axis=-1, bitorder=bitorder))
    row = b[3]
    exact(ng.packbits(ng.broadcast_to(gb[3], (5, 128)), axis=1, bitorder=bitorder),
          np.packbits(np.broadcast_to(row, (5, 128)), axis=1, bitorder=bitorder))


# ---- unpackbits ----------------------------------------------------------------------------------

def _unpack_cases(u, axis):
    total = 8 * (u.size if axis is None else (u.reshape(1) if u.ndim == 0 else u).shape[axis])
    return [None, 0, 1, 5, 8, total, total + 3, total + 9, -1, -5, -8, -total]


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (1, 1)])
@pytest.mark.parametrize("bitorder", ORDERS)
def test_unpackbits_axes_counts(shape, bitorder):
    u = np.random.default_rng(6).integers(0, 256, shape).astype(np.uint8)
    g = ng.asarray(u)
    for axis in [None] + list(range(-len(shape), len(shape))):
        for count in _unpack_cases(u, axis):
            exact(ng.unpackbits(g, axis=axis, count=count, bitorder=bitorder),
                  np.unpackbits(u, axis=axis, count=count, bitorder=bitorder))


def test_unpackbits_views_and_special():
    u = np.random.default_rng(7).integers(0, 256, (5, 6)).astype(np.uint8)
    u[0] = [0, 255, 1, 128, 127, 254]
    g = ng.asarray(u)
    for gv, v in zip(views(g), views(u)):
        for axis in (None, 0, 1):
            exact(ng.unpackbits(gv, axis=axis), np.unpackbits(v, axis=axis))
            exact(ng.unpackbits(gv, axis=axis, bitorder="little", count=-3),
                  np.unpackbits(v, axis=axis, bitorder="little", count=-3))
    exact(ng.unpackbits(g[1:, 1:][::2]), np.unpackbits(u[1:, 1:][::2]))


def test_unpackbits_empty_0d_and_count_types():
    for a in (np.zeros((0, 3), np.uint8), np.zeros((2, 0), np.uint8), np.zeros(0, np.uint8)):
        for axis in [None] + list(range(a.ndim)):
            for count in (None, 0):
                exact(ng.unpackbits(ng.asarray(a), axis=axis, count=count), np.unpackbits(a, axis=axis, count=count))
    # count past the end of an empty array: zeros (NumPy 2.4 leaves that memory uninitialised)
    exact(ng.unpackbits(ng.zeros((0, 3), np.uint8), count=3), np.zeros(3, np.uint8))
    exact(ng.unpackbits(ng.zeros((2, 0), np.uint8), axis=1, count=3), np.zeros((2, 3), np.uint8))
    z = np.array(7, np.uint8)
    for axis in (None, 0, -1):
        exact(ng.unpackbits(ng.asarray(z), axis=axis), np.unpackbits(z, axis=axis))
    u = np.arange(3, dtype=np.uint8)
    for count in (np.int64(5), np.uint64(3), np.int8(-2)):
        exact(ng.unpackbits(ng.asarray(u), count=count), np.unpackbits(u, count=count))
    for order in ("b", "l", "lx", "bigger"):
        exact(ng.unpackbits(ng.asarray(u), bitorder=order), np.unpackbits(u, bitorder=order))
    exact(ng.unpackbits(ng.asarray(u), axis=np.int64(0)), np.unpackbits(u, axis=np.int64(0)))


def test_unpackbits_errors():
    u = np.arange(3, dtype=np.uint8)
    raises_as_numpy("unpackbits", u.astype(np.int8), match="unsigned byte")
    raises_as_numpy("unpackbits", u.astype(np.uint16))
    raises_as_numpy("unpackbits", u.astype(bool))
    raises_as_numpy("unpackbits", [1, 2])
    raises_as_numpy("unpackbits", u, count=-25, match="-count larger")
    raises_as_numpy("unpackbits", np.zeros((2, 0), np.uint8), axis=1, count=-1)
    raises_as_numpy("unpackbits", u, count=True)
    raises_as_numpy("unpackbits", u, count=2.0)
    raises_as_numpy("unpackbits", u, count="3")
    raises_as_numpy("unpackbits", u, count=2 ** 70)
    raises_as_numpy("unpackbits", u, count=-2 ** 70)
    raises_as_numpy("unpackbits", u, bitorder="x", match="must begin with")
    raises_as_numpy("unpackbits", u, bitorder="B")
    raises_as_numpy("unpackbits", u, bitorder=None)
    raises_as_numpy("unpackbits", u, bitorder=b"big")
    raises_as_numpy("unpackbits", u, count=-30, bitorder="x")              # the order checked first
    raises_as_numpy("unpackbits", u, axis=1)
    raises_as_numpy("unpackbits", u, axis=1, count=-30)                     # the axis before the count
    raises_as_numpy("unpackbits", u, axis=True)
    raises_as_numpy("unpackbits", u, axis=1.0)
    raises_as_numpy("unpackbits", np.ones(3), axis=4)


@pytest.mark.parametrize("bitorder", ORDERS)
def test_unpackbits_every_byte_rows_and_broadcasts(bitorder):
    u = np.random.default_rng(10).permutation(np.repeat(np.arange(256, dtype=np.uint8), 3)).reshape(24, 32)
    g = ng.asarray(u)
    for axis in (None, 0, 1):
        exact(ng.unpackbits(g, axis=axis, bitorder=bitorder), np.unpackbits(u, axis=axis, bitorder=bitorder))
    exact(ng.unpackbits(ng.broadcast_to(g[5], (3, 32)), axis=1, bitorder=bitorder),
          np.unpackbits(np.broadcast_to(u[5], (3, 32)), axis=1, bitorder=bitorder))
    exact(ng.unpackbits(g[::-2, 1::3], axis=0, count=-5, bitorder=bitorder),
          np.unpackbits(u[::-2, 1::3], axis=0, count=-5, bitorder=bitorder))


@pytest.mark.parametrize("bitorder", ORDERS)
def test_pack_unpack_round_trip(bitorder):
    a = bit_data(np.bool_, (4, 21), seed=8)
    g = ng.asarray(a)
    for axis in (0, 1):
        p = ng.packbits(g, axis=axis, bitorder=bitorder)
        back = ng.unpackbits(p, axis=axis, count=a.shape[axis], bitorder=bitorder)
        exact(back, a.astype(np.uint8))


# ---- bitwise_count -------------------------------------------------------------------------------

def _extremes(dt):
    info = np.iinfo(dt)
    v = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1]
    if dt.kind == "i":
        v += [-1, -2, -3, -7, info.min // 2 + 1]
    return np.concatenate([np.array(v, dt), np.random.default_rng(9).integers(info.min, info.max, 40, dt,
                                                                               endpoint=True)])


@pytest.mark.parametrize("dtype", INTS, ids=dtype_id)
def test_bitwise_count_dtypes(dtype):
    x = _extremes(np.dtype(dtype))
    exact(ng.bitwise_count(ng.asarray(x)), np.bitwise_count(x))
    y = x[:48].reshape(4, 12)
    g = ng.asarray(y)
    for gv, v in zip(views(g), views(y)):
        exact(ng.bitwise_count(gv), np.bitwise_count(v))
    exact(ng.bitwise_count(g[0, 0, ...]), np.bitwise_count(y[0, 0, ...]))    # 0-d


def test_bitwise_count_bool_scalars_empty_and_out():
    b = np.array([True, False, True])
    exact(ng.bitwise_count(ng.asarray(b)), np.bitwise_count(b))
    for v in (5, -5, 0, 2 ** 62, -2 ** 63, np.int8(-128), np.uint64(2 ** 64 - 1), True):
        exact(ng.bitwise_count(v), np.asarray(np.bitwise_count(v), dtype=np.uint8))
    exact(ng.bitwise_count(ng.zeros((0, 3), np.int32)), np.bitwise_count(np.zeros((0, 3), np.int32)))
    exact(ng.bitwise_count([1, 2, 3]), np.bitwise_count([1, 2, 3]))
    x = np.arange(-8, 8, dtype=np.int16)
    out = ng.zeros(16, np.int32)
    r = ng.bitwise_count(ng.asarray(x), out=out)
    assert r is out
    exact(out, np.bitwise_count(x).astype(np.int32))
    out8 = ng.zeros(16, np.uint8)
    ng.bitwise_count(ng.asarray(x), out8)                                   # out by position
    exact(out8, np.bitwise_count(x))
    out = ng.zeros(16, np.int8)                                             # uint8 -> int8: same_kind
    ng.bitwise_count(ng.asarray(x), out=out)
    exact(out, np.bitwise_count(x).astype(np.int8))
    with pytest.raises(TypeError), warnings.catch_warnings():              # (NumPy's error, by NumPy)
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        ng.bitwise_count(ng.asarray(x), out=ng.zeros(16, bool))             # uint8 -> bool: not same_kind


def test_bitwise_count_through_numpy_and_ufunc():
    x = np.arange(-20, 20, dtype=np.int64)
    g = ng.asarray(x)
    exact(np.bitwise_count(g), np.bitwise_count(x))                         # NumPy's protocol
    assert type(ng.bitwise_count).__name__ == "ufunc" and ng.bitwise_count._code is not None   # (a device op)
    assert ng.bitwise_count.__name__ == "bitwise_count" and ng.bitwise_count.nin == 1


def test_bitwise_count_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        for bad in (np.ones(3), np.ones(3, np.complex64), np.ones(3, np.float16)):
            with pytest.raises(TypeError):
                np.bitwise_count(bad)
            with pytest.raises(TypeError):
                ng.bitwise_count(ng.asarray(bad))


# ---- matvec / vecmat -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", BOOL + INTS + FLOATS + COMPLEX, ids=dtype_id)
def test_matvec_vecmat_dtypes(dtype):
    a, b = data(dtype, (3, 4, 5), seed=1), data(dtype, (3, 5), seed=2)
    c, d = data(dtype, (3, 4), seed=3), data(dtype, (4, 5), seed=4)
    tol = {"rtol": 2e-3, "atol": 0.5} if np.dtype(dtype) == np.float16 else {}
    both("matvec", a, b, **tol)
    both("vecmat", c, d, **tol)
    both("vecmat", b, a.transpose(0, 2, 1), **tol)


def test_matvec_vecmat_broadcast_views_empty():
    rng = np.random.default_rng(10)
    a = rng.standard_normal((2, 1, 4, 3))
    b = rng.standard_normal((5, 3))
    both("matvec", a, b)
    both("matvec", a[..., ::-1, :], b[::2])
    both("matvec", a.swapaxes(-1, -2).swapaxes(-1, -2), b[:, ::-1])
    both("matvec", np.ones((4, 3)), [1, 2, 3])
    both("matvec", np.ones((0, 4, 3)), np.ones(3))
    both("matvec", np.ones((4, 0)), np.ones(0))
    both("vecmat", b, a.swapaxes(-1, -2))
    both("vecmat", [1j, 2, 3 - 1j], a[0, 0].T.astype(complex))
    both("vecmat", np.ones(0), np.ones((0, 3)))
    both("vecmat", rng.standard_normal((2, 4)), rng.standard_normal((4, 3)).astype(np.float32))
    both("matvec", rng.integers(0, 9, (3, 4)), rng.standard_normal(4).astype(np.float32))


def test_matvec_vecmat_out_and_errors():
    a, b = np.arange(12.).reshape(3, 4), np.arange(4.)
    out = ng.zeros(3)
    assert ng.matvec(ng.asarray(a), ng.asarray(b), out=out) is out
    exact(out, np.matvec(a, b))
    out = ng.zeros(4, np.complex128)
    assert ng.vecmat(ng.asarray(np.arange(3.)), ng.asarray(a), out=out) is out
    exact(out, np.vecmat(np.arange(3.), a).astype(complex))
    for name, x, y in [("matvec", a, np.ones(3)), ("matvec", np.ones(4), b), ("matvec", a, np.float64(1)),
                       ("matvec", np.ones((2, 3, 4)), np.ones((3, 4))), ("vecmat", np.ones(4), a),
                       ("vecmat", np.ones(3), np.ones(3)), ("vecmat", np.ones((2, 3)), np.ones((3, 3, 4)))]:
        raises_as_numpy(name, x, y)
    with pytest.raises(TypeError):
        np.matvec(a, b, out=np.zeros(3, np.int64))
    with pytest.raises(TypeError), warnings.catch_warnings():              # (NumPy's error, by NumPy)
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        ng.matvec(ng.asarray(a), ng.asarray(b), out=ng.zeros(3, np.int64))   # float64 -> int64


# ---- polydiv (bit for bit) -----------------------------------------------------------------------

POLYDIV_CASES = [
    ([3.0, 5, 2], [2.0, 1]),
    ([1, 2, 3, 4, 5], [1, 1]),
    ([1.0, -3, 3, -1], [1.0, -1]),                 # exact division: remainder trimmed to [0]
    ([1, 0, 0, 0, 0, 1e-9], [1.0, 0, 1]),
    ([2.0], [4.0, 1, 1]),                          # deg u < deg v: q = [0]
    ([3], [7]),
    ([1 + 2j, 3, 4j], [1, 1j]),
    ([0.1, 0.7, 0.3, 1.9, -2.2, 5.5, 0.01], [0.3, -0.2, 1.7]),
]


@pytest.mark.parametrize("case", range(len(POLYDIV_CASES)))
def test_polydiv(case):
    u, v = POLYDIV_CASES[case]
    q, r = ng.polydiv(ng.asarray(np.array(u)), ng.asarray(np.array(v)))
    wq, wr = np.polydiv(u, v)
    exact(q, wq)
    exact(r, wr)
    q, r = ng.polydiv(u, v)                        # lists
    exact(q, wq)
    exact(r, wr)


def test_polydiv_dtypes_and_scalars():
    rng = np.random.default_rng(11)
    for du, dv in [(np.float32, np.float32), (np.float32, np.float64), (np.float64, np.float32),
                   (np.int32, np.float32), (np.complex64, np.float32), (np.int8, np.int64), (bool, np.float16)]:
        u = (rng.standard_normal(9) * 4).astype(du)
        v = (rng.standard_normal(4) * 2 + 3).astype(dv)
        q, r = ng.polydiv(ng.asarray(u), ng.asarray(v))
        wq, wr = np.polydiv(u, v)
        exact(q, wq)
        exact(r, wr)
    for u, v in [(np.float64(3.0), [2.0, 1.0]), (5.0, 2.0), ([1.0, 2.0], np.float32(4))]:
        q, r = ng.polydiv(u, v)
        wq, wr = np.polydiv(u, v)
        exact(q, wq)
        exact(r, wr)
    g = ng.asarray(np.arange(12.0))
    q, r = ng.polydiv(g[::-2], g[1:4])             # views
    wq, wr = np.polydiv(np.arange(12.0)[::-2], np.arange(12.0)[1:4])
    exact(q, wq)
    exact(r, wr)


def test_polydiv_errors():
    raises_as_numpy("polydiv", np.array([]), np.array([1.0]))
    raises_as_numpy("polydiv", np.array([1.0]), np.array([]))


# ---- polyfit and roots: one piece each on NumPy ---------------------------------------------------

def _only(names, before):
    """The fallbacks since `before`: only these functions."""
    now = fallback_calls()
    new = {k for k, v in now.items() if v != before.get(k, 0)}
    assert new <= set(names), new


def _fit_same(got, want, rtol=1e-8, atol=1e-10):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, (np.ndarray, np.generic)):
            assert isinstance(g, ng.ndarray) and g.dtype == w.dtype and g.shape == np.shape(w), (g, w)
            np.testing.assert_allclose(to_numpy(g), w, rtol=rtol, atol=atol * max(1.0, np.abs(w).max(initial=0)))
        else:
            assert g == w


@pytest.mark.filterwarnings("ignore::numgpu._fallback.FallbackWarning")
def test_fallback_polyfit():
    before = fallback_calls()
    rng = np.random.default_rng(12)
    x = np.linspace(-2, 3, 40)
    y = 0.5 * x ** 3 - x + 2 + rng.standard_normal(40) * 0.1
    Y = np.stack([y, np.cos(x), x], axis=1)
    w = rng.uniform(0.5, 2, 40)
    gx, gy, gY, gw = (ng.asarray(a) for a in (x, y, Y, w))
    for deg in (0, 1, 3, 5):
        _fit_same(ng.polyfit(gx, gy, deg), np.polyfit(x, y, deg))
        _fit_same(ng.polyfit(gx, gY, deg), np.polyfit(x, Y, deg))
    for kw in (dict(full=True), dict(cov=True), dict(cov="unscaled"), dict(w=w), dict(w=w, cov=True),
               dict(rcond=1e-3, full=True)):
        gkw = {k: (gw if k == "w" else v) for k, v in kw.items()}
        _fit_same(ng.polyfit(gx, gy, 3, **gkw), np.polyfit(x, y, 3, **kw))
        _fit_same(ng.polyfit(gx, gY, 2, **gkw), np.polyfit(x, Y, 2, **kw))
    # dtypes: float32 (rcond a float32), ints, complex, lists, a view
    _fit_same(ng.polyfit(gx.astype(np.float32), gy.astype(np.float32), 2, full=True),
              np.polyfit(x.astype(np.float32), y.astype(np.float32), 2, full=True), rtol=1e-6)
    xi, yi = np.arange(10), np.arange(10) ** 2
    _fit_same(ng.polyfit(ng.asarray(xi), ng.asarray(yi), 2), np.polyfit(xi, yi, 2))
    xc = x + 0.3j * x
    _fit_same(ng.polyfit(ng.asarray(xc), gy, 2, full=True), np.polyfit(xc, y, 2, full=True))
    _fit_same(ng.polyfit(list(x), list(y), 1), np.polyfit(list(x), list(y), 1))
    _fit_same(ng.polyfit(gx[::-2], gy[1::2], 2), np.polyfit(x[::-2], y[1::2], 2))
    # rank deficient: NumPy's minimum-norm solution and its warning
    with pytest.warns(np.exceptions.RankWarning):
        got = ng.polyfit(ng.asarray(np.arange(3.0)), ng.asarray(np.arange(3.0)), 5)
    with pytest.warns(np.exceptions.RankWarning):
        want = np.polyfit(np.arange(3.0), np.arange(3.0), 5)
    _fit_same(got, want, atol=1e-12)
    _fit_same(ng.polyfit(ng.asarray(np.arange(3.0)), ng.asarray(np.arange(3.0)), 5, full=True),
              np.polyfit(np.arange(3.0), np.arange(3.0), 5, full=True), atol=1e-12)
    raises_as_numpy("polyfit", np.arange(3.0), np.arange(3.0), 2, cov=True, match="exceed order")
    _only({"numpy.linalg.svd"}, before)


def test_polyfit_errors():
    x = np.arange(5.0)
    raises_as_numpy("polyfit", x, x, -1, match="deg >= 0")
    raises_as_numpy("polyfit", x.reshape(5, 1), x, 1, match="1D vector for x")
    raises_as_numpy("polyfit", np.ones(0), np.ones(0), 1, match="non-empty")
    raises_as_numpy("polyfit", x, np.ones((5, 1, 1)), 1, match="1D or 2D")
    raises_as_numpy("polyfit", x, np.ones(4), 1, match="same length")
    raises_as_numpy("polyfit", x, x, 1, w=np.ones((5, 1)), match="1-d array for weights")
    raises_as_numpy("polyfit", x, x, 1, w=np.ones(4), match="same length")
    for f, v in ((np.polyfit, x), (ng.polyfit, ng.asarray(x))):            # complex weights, real lhs
        with pytest.raises(TypeError):
            f(v, v, 1, w=np.ones(5) * 1j)
    raises_as_numpy("polyfit", x.astype(np.float16), x.astype(np.float16), 1)  # float16: not in linalg


def _sorted(r):
    r = np.asarray(r)
    return r[np.lexsort((r.imag, r.real))] if r.dtype.kind == "c" else np.sort(r)


@pytest.mark.filterwarnings("ignore::numgpu._fallback.FallbackWarning")
def test_fallback_roots():
    before = fallback_calls()
    for p in ([1, -3, 2], [0, 0, 1, -6, 11, -6, 0, 0], [1, 0, 1], [2.0, 0, 0], [0, 5], [3], [0, 0, 0],
              [1 + 1j, 2, -1j], np.array([1, -10, 35, -50, 24], np.float32), np.array([1, 2], np.int8),
              [True, True]):
        a = np.asarray(p)
        got, want = ng.roots(ng.asarray(a)), np.roots(a)
        assert isinstance(got, ng.ndarray) and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(_sorted(to_numpy(got)), _sorted(want), rtol=1e-6, atol=1e-6)
    got = ng.roots([1, -3, 2])
    np.testing.assert_allclose(_sorted(to_numpy(got)), [1, 2])
    _only({"numpy.linalg.eigvals"}, before)
    raises_as_numpy("roots", np.ones((2, 2)), match="rank-1")
    raises_as_numpy("roots", np.float64(5))
    raises_as_numpy("roots", 5)


# ---- asarray_chkfinite, rollaxis, isfortran ------------------------------------------------------

def test_asarray_chkfinite():
    for a in (np.arange(6.0).reshape(2, 3), np.arange(4), np.array([1 + 2j]), np.zeros(0), [1.0, 2.0],
              np.ones(3, np.float16), np.array(True)):
        both("asarray_chkfinite", a)
    both("asarray_chkfinite", [1, 2], dtype=np.float32)
    g = ng.arange(4.0)
    assert ng.asarray_chkfinite(g) is g
    for bad in (np.array([1.0, np.inf]), np.array([np.nan]), np.array([1 + 1j * np.inf]), [1.0, -np.inf]):
        raises_as_numpy("asarray_chkfinite", bad, match="infs or NaNs")
    with pytest.raises(ValueError):
        ng.asarray_chkfinite(ng.asarray([1.0, np.nan])[::-1])


def test_rollaxis():
    a = data(np.int32, (2, 3, 4, 5), seed=13)
    for axis in range(-4, 4):
        for start in range(-4, 5):
            both("rollaxis", a, axis, start)
    both("rollaxis", a[::-1, :, ::2], 3, np.int64(1))
    g = ng.asarray(np.zeros((2, 3)))
    v = ng.rollaxis(g, 1)
    v[0, 1] = 7.0                                    # a view: writes reach g
    assert to_numpy(g)[1, 0] == 7.0
    assert ng.rollaxis(g, 0).shape == (2, 3)
    raises_as_numpy("rollaxis", a, 4)
    raises_as_numpy("rollaxis", a, 0, 5, match="'start' arg requires")
    raises_as_numpy("rollaxis", a, 0, -5)
    with pytest.raises(AttributeError):
        ng.rollaxis([[1, 2]], 1)


def test_isfortran():
    a = np.arange(12.0).reshape(3, 4)
    for x in (a, a.T, np.asfortranarray(a), a[:, ::2], np.ones(3), np.ones((1, 3)), np.ones((3, 1)).T, np.float64(1)):
        g = ng.array(x, order="K") if isinstance(x, np.ndarray) else ng.asarray(x)
        assert ng.isfortran(g) is np.isfortran(np.array(x, order="K")), x
    g = ng.asarray(a)
    assert ng.isfortran(g.T) is True and ng.isfortran(g) is False
    assert ng.isfortran(ng.array(a, order="F")) is True
    assert ng.isfortran(a.T) is True                 # a NumPy array: its own flags
    with pytest.raises(AttributeError):
        ng.isfortran([1, 2])
