"""any, all and count_nonzero of whole arrays of bools and integers: on cpu read in place without
a kernel, stopping where NumPy's loops stop (src/ops/anyall.c); elsewhere, and for views, axes and
floats, the reduction kernel. Every case against NumPy's answer and dtype."""
import numpy as np
import pytest

import numgpu as ng

SIZES = [0, 1, 7, 8, 15, 16, 17, 4079, 4080, 4081, 4095, 4096, 4097, 8193, 100003]
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.uint64]


def fills(n, dt, rng):
    """Arrays of n elements where any/all/count_nonzero answer differently: all zero, all nonzero,
    one nonzero first, in the middle, last; one zero last; random; large values."""
    out = {"zeros": np.zeros(n, dt), "ones": np.ones(n, dt), "random": (rng.random(n) > 0.4).astype(dt)}
    for where in (0, n // 2, n - 1):
        if n:
            h = np.zeros(n, dt)
            h[where] = 1
            out["one at %d" % where] = h
    if n:
        h = np.ones(n, dt)
        h[-1] = 0
        out["zero last"] = h
    if dt != np.bool_:
        info = np.iinfo(dt)
        out["high bits"] = np.where(rng.random(n) > 0.5, info.max, info.min if info.min else 0).astype(dt)
        out["a byte of several"] = np.full(n, 256 if info.bits > 8 else info.max, dtype=dt) * (rng.random(n) > 0.9)
    return out


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_whole_arrays_match_numpy(dt):
    rng = np.random.default_rng(1)
    for n in SIZES:
        for name, h in fills(n, dt, rng).items():
            g = ng.asarray(h)
            for f in ("any", "all", "count_nonzero"):
                exp, got = getattr(np, f)(h), getattr(ng, f)(g)
                assert got == exp and np.asarray(got).dtype == np.asarray(exp).dtype, (n, name, f, got, exp)
            assert bool(g.any()) == h.any() and bool(g.all()) == h.all()


def test_shapes_views_axes_and_floats():
    rng = np.random.default_rng(2)
    h = (rng.random((40, 130)) > 0.97).astype(np.uint8)
    g = ng.asarray(h)
    for view in (lambda x: x, lambda x: x[:, ::2], lambda x: x.T, lambda x: x[5:9], lambda x: x[::-1]):
        for f in ("any", "all", "count_nonzero"):
            assert getattr(ng, f)(view(g)) == getattr(np, f)(view(h)), f
            for axis in (0, 1, (0, 1)):
                np.testing.assert_array_equal(ng.asnumpy(getattr(ng, f)(view(g), axis=axis)),
                                              getattr(np, f)(view(h), axis=axis))
    assert ng.any(ng.asarray(np.array([0.0, -0.0]))) == np.any(np.array([0.0, -0.0]))       # -0.0 is zero
    assert ng.all(ng.asarray(np.array([1.0, np.nan]))) == np.all(np.array([1.0, np.nan]))
    assert ng.count_nonzero(ng.asarray(np.array([-0.0, 2.0, 0.0]))) == 1
    e = np.zeros((3, 0), bool)
    assert ng.any(ng.asarray(e)) == np.any(e) and ng.all(ng.asarray(e)) == np.all(e)
    np.testing.assert_array_equal(ng.asnumpy(ng.any(ng.asarray(h), keepdims=True)), np.any(h, keepdims=True))
    out = ng.zeros((), bool)
    assert ng.any(ng.asarray(h), out=out) is out and bool(out) == h.any()


def test_a_condition_in_a_loop():
    # `while not np.all(done)` and `if np.any(x > t)`: answers change as the loop writes the array
    done = ng.zeros(1000, bool)
    steps = 0
    while not ng.all(done):
        done[steps * 100:(steps + 1) * 100] = True
        steps += 1
        assert ng.count_nonzero(done) == min(1000, steps * 100)
    assert steps == 10 and ng.any(done)
