"""The one-pass kernels of clip and nan_to_num, the tiled kernels of transposed copies (and of
every elementwise op whose operands cross each other's rows), and concatenate, against NumPy:
NaN and infinities, empty and 0-d arrays, non-contiguous and broadcast operands, every dtype
class."""
import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, COMPLEX, FLOATS, INTS, assert_same, call_both, case_id, data, views

# ---- clip: one kernel, NumPy's semantics ----------------------------------------------------


def _with_specials(dt, shape, seed=0):
    x = data(dt, shape, seed)
    if np.dtype(dt).kind in "fc":
        flat = x.reshape(-1)
        flat[::7] = np.nan
        flat[1::11] = np.inf
        flat[2::13] = -np.inf
    return x


@pytest.mark.parametrize("dt", ALL, ids=case_id)
def test_clip_every_dtype_and_view(dt):
    x = _with_specials(dt, (37, 41))
    lo, hi = (2, 60) if np.dtype(dt).kind in "ub" else (-5, 7)
    if np.dtype(dt).kind == "b":
        lo, hi = False, True
    for a in views(x):
        call_both(np.clip, ng.clip, [a, lo, hi], [ng.asarray(a), lo, hi])
        call_both(np.clip, ng.clip, [a, None, hi], [ng.asarray(a), None, hi])
        call_both(np.clip, ng.clip, [a, lo, None], [ng.asarray(a), lo, None])
    g = ng.asarray(x)  # device views, not uploads of NumPy's
    for a, v in ((x.T, g.T), (x[::-1, ::3], g[::-1, ::3])):
        assert_same(ng.clip(v, lo, hi), np.clip(a, lo, hi))


@pytest.mark.parametrize("dt", FLOATS, ids=case_id)
def test_clip_nan_in_bounds_and_crossed_bounds(dt):
    x = _with_specials(dt, (50,))
    lo = data(dt, (50,), seed=1)
    hi = data(dt, (50,), seed=2)
    lo[::5] = np.nan
    hi[3::7] = np.nan
    call_both(np.clip, ng.clip, [x, lo, hi])          # a NaN anywhere wins
    call_both(np.clip, ng.clip, [x, np.nan, 1.0], [ng.asarray(x), np.nan, 1.0])
    call_both(np.clip, ng.clip, [x, -1.0, np.nan], [ng.asarray(x), -1.0, np.nan])
    call_both(np.clip, ng.clip, [x, 3.0, -3.0], [ng.asarray(x), 3.0, -3.0])   # lo > hi: hi
    call_both(np.clip, ng.clip, [x, hi, lo])
    call_both(np.clip, ng.clip, [x, -np.inf, np.inf], [ng.asarray(x), -np.inf, np.inf])


@pytest.mark.parametrize("dt", INTS, ids=case_id)
def test_clip_integers_crossed_and_out_of_range_bounds(dt):
    x = data(dt, (6, 9), seed=3)
    call_both(np.clip, ng.clip, [x, 50, 10], [ng.asarray(x), 50, 10])
    info = np.iinfo(dt)
    call_both(np.clip, ng.clip, [x, int(info.min) - 5, int(info.max) + 5],
              [ng.asarray(x), int(info.min) - 5, int(info.max) + 5])
    call_both(np.clip, ng.clip, [x, -2**70, 2**70], [ng.asarray(x), -2**70, 2**70])


def test_clip_broadcast_bounds_and_promotion():
    x = data(np.float32, (4, 5, 6), seed=4)
    lo = data(np.float64, (5, 1), seed=5) - 5
    hi = data(np.int16, (6,), seed=6)
    call_both(np.clip, ng.clip, [x, lo, hi])                        # float64: arrays promote
    call_both(np.clip, ng.clip, [x, lo[None], 1.5])
    call_both(np.clip, ng.clip, [x, 0, np.float64(1.0)], [ng.asarray(x), 0, np.float64(1.0)])  # NumPy scalar: strong
    call_both(np.clip, ng.clip, [x, np.float16(-1), 2], [ng.asarray(x), np.float16(-1), 2])
    i8 = data(np.int8, (30,), seed=7)
    call_both(np.clip, ng.clip, [i8, -2.5, 2.5], [ng.asarray(i8), -2.5, 2.5])  # Python float: float64
    call_both(np.clip, ng.clip, [i8, np.int64(-3), 3], [ng.asarray(i8), np.int64(-3), 3])
    u8 = data(np.uint8, (30,), seed=8)
    call_both(np.clip, ng.clip, [u8, -5, 20], [ng.asarray(u8), -5, 20])
    b = data(np.bool_, (4, 5), seed=9)
    call_both(np.clip, ng.clip, [x, b[:, :, None], 3])                  # a bool array bound
    # the bounds' broadcast shape grows the result (NumPy broadcasts all three)
    v = data(np.float64, (6,), seed=10)
    call_both(np.clip, ng.clip, [v, data(np.float64, (3, 1), seed=11), 4.0],
              [ng.asarray(v), ng.asarray(data(np.float64, (3, 1), seed=11)), 4.0])


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex128], ids=case_id)
def test_clip_out_in_place_and_aliasing(dt):
    x = _with_specials(dt, (8, 9), seed=12)
    exp = np.clip(x, -3, 4)
    g = ng.asarray(x)
    r = ng.clip(g, -3, 4, out=g)                           # in place, the common idiom
    assert r is g
    assert_same(g, exp)
    g = ng.asarray(x)
    out = ng.empty((9, 8), dtype=dt)
    assert ng.clip(g.T, -3, 4, out=out) is out
    assert_same(out, np.clip(x.T, -3, 4))
    g = ng.asarray(x)
    ng.clip(g[:, ::-1], -3, 4, out=g)                     # overlapping, not the same view
    assert_same(g, np.clip(x[:, ::-1], -3, 4))
    host = np.zeros_like(x)
    assert ng.clip(ng.asarray(x), -3, 4, out=host) is host  # a NumPy out=
    np.testing.assert_array_equal(host, exp)
    m = ng.asarray(x)
    assert_same(m.clip(-3, 4), exp)                         # the method, on the device
    assert_same(m.clip(max=4), np.clip(x, None, 4))


def test_clip_out_casting_errors_as_numpy():
    x = data(np.float64, (5,))
    with pytest.raises(TypeError):
        np.clip(x, 0, 1, out=np.zeros(5, np.int64))
    with pytest.raises(TypeError):
        ng.clip(ng.asarray(x), 0, 1, out=ng.zeros(5, dtype=np.int64))
    with pytest.raises(ValueError):
        ng.clip(ng.asarray(x), 0, 1, out=ng.zeros(4))
    with pytest.raises(ValueError):
        ng.clip(ng.asarray(x), ng.zeros(3), 1)


def test_clip_empty_and_0d():
    for shape in ((0,), (3, 0), ()):
        x = data(np.float32, shape, seed=13)
        call_both(np.clip, ng.clip, [x, -1, 1], [ng.asarray(x), -1, 1])
    z = np.array(np.nan)
    assert_same(ng.clip(ng.asarray(z), 0, 1), np.clip(z, 0, 1))
    assert_same(ng.clip(ng.asarray(np.array(5)), 0, 3), np.clip(np.array(5), 0, 3))


# ---- transposed copies: tiled on the cpu device ---------------------------------------------


@pytest.mark.parametrize("dt", ALL, ids=case_id)
@pytest.mark.parametrize("shape", [(33, 65), (64, 64), (100, 31), (130, 257), (1, 40), (40, 1)], ids=str)
def test_transposed_copies(dt, shape):
    x = _with_specials(dt, shape, seed=14)
    g = ng.asarray(x)
    for got, exp in ((g.T.copy(), x.T.copy()), (ng.ascontiguousarray(g.T), np.ascontiguousarray(x.T)),
                     (g.T[::-1].copy(), x.T[::-1].copy()), (g[::2, ::-1].T.copy(), x[::2, ::-1].T.copy()),
                     (ng.array(g.T, order="C"), np.array(x.T, order="C"))):
        assert got.flags.c_contiguous
        assert_same(got, exp)
        np.testing.assert_array_equal(got.get(), exp)      # bit for bit, NaNs included


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.complex64], ids=case_id)
def test_tiled_elementwise_ops_and_stores_across_rows(dt):
    a = data(dt, (70, 90), seed=15)
    b = data(dt, (90, 70), seed=16)
    ga, gb = ng.asarray(a), ng.asarray(b)
    assert_same(ga + gb.T, a + b.T)
    assert_same(ng.maximum(ga.T, gb), np.maximum(a.T, b))
    assert_same(ng.where(ga > 0, ga, gb.T), np.where(a > 0, a, b.T))
    wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64
    assert_same(ga.T.astype(wide), a.T.astype(wide))
    out = ng.zeros((90, 70), dtype=dt)
    out.T[...] = ga                                       # written across its rows
    assert_same(out, a.T)
    sq = data(dt, (64, 64), seed=17)
    g = ng.asarray(sq)
    g[...] = g.T                                          # overlapping: NumPy's copy first
    assert_same(g, sq.T)
    t3 = data(dt, (3, 40, 50), seed=18)
    assert_same(ng.asarray(t3).transpose(0, 2, 1).copy(), t3.transpose(0, 2, 1).copy())
    assert_same(ng.asarray(t3).transpose(2, 0, 1).copy(), t3.transpose(2, 0, 1).copy())


def test_transposed_copy_empty():
    for shape in ((0, 5), (5, 0), (0, 0)):
        x = np.zeros(shape, np.float64)
        assert_same(ng.asarray(x).T.copy(), x.T.copy())


# ---- concatenate ----------------------------------------------------------------------------


@pytest.mark.parametrize("dt", ALL, ids=case_id)
def test_concatenate_axes_and_views(dt):
    a = _with_specials(dt, (20, 30), seed=19)
    b = _with_specials(dt, (20, 30), seed=20)
    ga, gb = ng.asarray(a), ng.asarray(b)
    for axis in (0, 1, -1, None):
        assert_same(ng.concatenate([ga, gb], axis), np.concatenate([a, b], axis))
        assert_same(ng.concatenate([ga.T, gb[::-1].T], axis), np.concatenate([a.T, b[::-1].T], axis))
    for axis in (0, None):
        assert_same(ng.concatenate([ga.T, ga[:, :5].T, gb[::-1, ::2].T], axis),
                    np.concatenate([a.T, a[:, :5].T, b[::-1, ::2].T], axis))
    assert_same(ng.concatenate([ga[:0], gb, ga[:0]]), np.concatenate([a[:0], b, a[:0]]))


def test_concatenate_dtypes_out_and_errors():
    a, b = data(np.int16, (4, 5), seed=21), data(np.float32, (3, 5), seed=22)
    assert_same(ng.concatenate([ng.asarray(a), ng.asarray(b)]), np.concatenate([a, b]))
    assert_same(ng.concatenate([ng.asarray(a), ng.asarray(b)], dtype=np.float64),
                np.concatenate([a, b], dtype=np.float64))
    out = ng.empty((7, 5), dtype=np.float64)
    assert ng.concatenate([ng.asarray(a), ng.asarray(b)], out=out) is out
    assert_same(out, np.concatenate([a, b]).astype(np.float64))
    with pytest.raises(TypeError):
        ng.concatenate([ng.asarray(b), ng.asarray(a)], dtype=np.int16)          # same_kind refuses
    assert_same(ng.concatenate([ng.asarray(b), ng.asarray(a)], dtype=np.int16, casting="unsafe"),
                np.concatenate([b, a], dtype=np.int16, casting="unsafe"))
    out = ng.zeros((7, 5), dtype=np.float32)                # a strided out=, written in place
    assert ng.concatenate([ng.asarray(a).T, ng.asarray(b).T], 1, out=out.T) is not None
    assert_same(out.T, np.concatenate([a.T, b.T], 1).astype(np.float32))
    host = np.zeros((7, 5))
    assert ng.concatenate([ng.asarray(a), ng.asarray(b)], out=host) is host
    np.testing.assert_array_equal(host, np.concatenate([a, b]))
    buf, gbuf = np.arange(10.0), ng.arange(10.0)            # out= overlapping the inputs
    np.concatenate([buf[5:], buf[:5]], out=buf)
    ng.concatenate([gbuf[5:], gbuf[:5]], out=gbuf)
    assert_same(gbuf, buf)
    with pytest.raises(ValueError):
        ng.concatenate([ng.asarray(a), ng.asarray(b)], out=ng.empty((6, 5)))
    with pytest.raises(ValueError):
        ng.concatenate([ng.asarray(a), ng.asarray(b)], 1)
    with pytest.raises(ValueError):
        ng.concatenate([ng.asarray(np.array(1.0)), ng.asarray(np.array(2.0))])


# ---- nan_to_num: one pass -------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOATS + COMPLEX, ids=case_id)
def test_nan_to_num_every_float(dt):
    x = _with_specials(dt, (9, 11), seed=23)
    if np.dtype(dt).kind == "c":
        x.reshape(-1)[3::5] = complex(np.inf, np.nan)
        x.reshape(-1)[4::6] = complex(-1.0, -np.inf)
    for a in views(x):
        call_both(np.nan_to_num, ng.nan_to_num, [a], [ng.asarray(a)])
        call_both(np.nan_to_num, ng.nan_to_num, [a], [ng.asarray(a)],
                  kwargs=dict(nan=-7, posinf=1e300, neginf=np.float32(-3.5)))
    g = ng.asarray(x)
    assert_same(ng.nan_to_num(g.T), np.nan_to_num(x.T))      # a device view


@pytest.mark.parametrize("dt", [np.float32, np.complex128], ids=case_id)
def test_nan_to_num_in_place_and_copies(dt):
    x = _with_specials(dt, (40,), seed=24)
    g = ng.asarray(x)
    r = ng.nan_to_num(g)
    assert r is not g
    assert_same(g, x)                                       # untouched
    r = ng.nan_to_num(g, copy=False)
    assert r is g
    assert_same(g, np.nan_to_num(x))
    g = ng.asarray(x)
    v = g[::3]
    assert ng.nan_to_num(v, copy=False) is v                # in place through a view
    exp = x.copy()
    np.nan_to_num(exp[::3], copy=False)
    assert_same(g, exp)


@pytest.mark.parametrize("dt", INTS + [np.bool_], ids=case_id)
def test_nan_to_num_integers_are_copies(dt):
    x = data(dt, (10,), seed=25)
    g = ng.asarray(x)
    r = ng.nan_to_num(g)
    assert_same(r, np.nan_to_num(x))
    r[0] = 1
    assert_same(g, x)
    assert ng.nan_to_num(g, copy=False) is g


def test_nan_to_num_0d_empty_scalars_and_array_values():
    assert_same(ng.nan_to_num(ng.asarray(np.array(np.nan))), np.nan_to_num(np.array(np.nan)))
    assert_same(ng.nan_to_num(np.float32(-np.inf)), np.nan_to_num(np.float32(-np.inf)))
    e = np.zeros((0, 3))
    assert_same(ng.nan_to_num(ng.asarray(e)), np.nan_to_num(e))
    x = _with_specials(np.float64, (4, 6), seed=26)
    fill = np.arange(6.0)                                  # NumPy's copyto broadcasts array values
    assert_same(ng.nan_to_num(ng.asarray(x), nan=fill), np.nan_to_num(x, nan=fill))
