"""Small calls of composite functions on the cpu device run NumPy's own function on views of the
arrays' memory (python/numgpu/_small.py): NumPy's answers, types and errors, no kernel launched;
larger calls, and every call on another device, run the device operations. (The rest of the suite
runs with NUMGPU_SMALL=0, the device operations for every size: conftest.py.)"""
import numpy as np
import pytest

import numgpu as ng
from numgpu import _core, _small

ON_HOST = _core.host_small((), 1)      # (the current device is in host memory: cpu)


@pytest.fixture(autouse=True)
def small_calls(monkeypatch):
    monkeypatch.setattr(_small, "SMALL", 4096)


def launches():
    return ng.stats()["kernel_launches"]


def same(got, exp):
    """got (numgpu's) is NumPy's exp: values, dtype, shape; tuples item by item; NumPy scalars as
    0-d numgpu arrays standing for them."""
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e)
        return
    assert isinstance(got, ng.ndarray), type(got)
    if isinstance(exp, np.generic):
        assert got.ndim == 0 and got._scalar
    h = ng.asnumpy(got)
    assert h.dtype == np.asarray(exp).dtype and h.shape == np.shape(exp)
    if ON_HOST:
        np.testing.assert_array_equal(h, exp)      # NumPy's own function: its bits
    else:                                          # the device's operations: their rounding
        np.testing.assert_allclose(h, exp, rtol=1e-5 if h.dtype in (np.float32, np.complex64) else 1e-12)


def check(fn, *args, **kwargs):
    """fn's numgpu call on numgpu arrays for args' NumPy arrays is NumPy's, with no kernel launched
    on cpu; returns numgpu's result."""
    ng_args = [ng.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    before = launches()
    got = getattr(ng, fn)(*ng_args, **kwargs)
    if ON_HOST:
        assert launches() == before, "%s of a small call launched kernels" % fn
    same(got, getattr(np, fn)(*args, **kwargs))
    return got


def test_interp(rng):
    xp = np.sort(rng.uniform(0, 10, 20))
    fp = rng.normal(size=20)
    x = rng.uniform(-1, 11, 50)
    check("interp", x, xp, fp)
    check("interp", x, xp, fp, left=-5.0, right=7.0)
    check("interp", x, xp, fp + 1j * fp)
    check("interp", x, xp, fp, period=3.0)
    check("interp", 2.5, xp, fp)                          # a scalar: NumPy's float64 scalar
    check("interp", x.astype(np.float32), xp.astype(np.float32), fp.astype(np.float32))
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        ng.interp(ng.asarray(x), ng.asarray(xp), ng.asarray(fp[:5]))


def test_einsum(rng):
    a, b = rng.normal(size=(4, 5)), rng.normal(size=(5, 3))
    v = rng.normal(size=5)
    check("einsum", "ij,jk->ik", a, b)
    check("einsum", "i,i->", v, v)                        # a scalar
    check("einsum", "ij->j", a)
    check("einsum", "ii->i", rng.normal(size=(4, 4)))
    check("einsum", "ij,j", a, v)
    check("einsum", "...j,j->...", a, v)
    check("einsum", "ij,jk->ik", a.astype(np.float32), b.astype(np.float32))
    check("einsum", "ij,jk->ik", (a * 10).astype(np.int64), (b * 10).astype(np.int64), dtype=np.float64)
    with pytest.raises(ValueError):
        ng.einsum("ij,jk->ik", ng.asarray(a), ng.asarray(a))


def test_unique(rng):
    x = rng.integers(0, 8, 40)
    check("unique", x)
    check("unique", x, return_counts=True)
    check("unique", x, return_index=True, return_inverse=True, return_counts=True)
    check("unique", np.array([1.0, np.nan, 2.0, np.nan]))
    check("unique", np.array([1.0, np.nan, 2.0, np.nan]), equal_nan=False)
    check("unique", x.reshape(8, 5), axis=0)
    check("unique", np.array([], dtype=np.int32))


def test_sort_and_argsort(rng):
    x = rng.normal(size=(6, 7))
    for axis in (0, 1, -1, None):
        check("sort", x, axis=axis)
        check("argsort", x, axis=axis)
    check("sort", np.array([3, 1, 2], dtype=np.int8))
    check("sort", x, kind="stable")
    check("argsort", x, stable=True)
    check("sort", np.array([np.nan, 1.0, -np.inf, 0.0]))
    with pytest.raises(ValueError):
        ng.sort(ng.asarray(x), kind="bogus")
    d = ng.sort(ng.asarray(x), descending=True)        # (the standard's keyword: the device's sort)
    np.testing.assert_array_equal(ng.asnumpy(d), -np.sort(-x))


def test_searchsorted_cross_quantiles(rng):
    a = np.sort(rng.normal(size=30))
    v = rng.normal(size=10)
    check("searchsorted", a, v)
    check("searchsorted", a, v, side="right")
    check("searchsorted", a, 0.25)
    check("cross", rng.normal(size=(4, 3)), rng.normal(size=(4, 3)))
    check("cross", rng.normal(size=3), rng.normal(size=3))
    x = rng.normal(size=(5, 8))
    check("quantile", x, 0.3)
    check("quantile", x, [0.1, 0.9], axis=1, keepdims=True)
    check("percentile", x, 75)
    check("percentile", x, [10, 50], axis=0, method="nearest")
    with pytest.raises(ValueError, match="Percentiles must be in the range"):
        ng.percentile(ng.asarray(x), 120)


def test_results_are_numgpu_arrays_of_their_own():
    x = ng.asarray(np.array([3.0, 1.0, 2.0]))
    s = ng.sort(x)
    s[0] = 100.0                                        # a new array: x unchanged
    assert x.tolist() == [3.0, 1.0, 2.0] and s.device == x.device
    r = ng.asarray(np.array([3.0, 1.0, 2.0]))
    r.flags.writeable = False
    assert ng.sort(r).tolist() == [1.0, 2.0, 3.0]        # (a read-only argument is read)


def test_large_calls_and_other_devices_run_the_device_operations(rng):
    x = ng.asarray(rng.normal(size=5000))                # over SMALL elements
    before = launches()
    got = ng.unique(x)
    assert launches() > before
    np.testing.assert_array_equal(ng.asnumpy(got), np.unique(ng.asnumpy(x)))
    assert not _core.host_small((x,), 4096)
    assert _core.host_small((ng.zeros(4096), 1.0, None, "ij", np.float32), 4097) == ON_HOST
    assert not _core.host_small(([[1.0]],), 4096)        # nested lists: not counted here
    assert not _core.host_small((object(),), 4096)


def test_numgpu_small_zero_turns_it_off(monkeypatch):
    monkeypatch.setattr(_small, "SMALL", 0)
    assert not _small.host(ng.zeros(3))
    x = ng.asarray(np.array([3.0, 1.0, 2.0, 1.0]))
    assert ng.unique(x).tolist() == [1.0, 2.0, 3.0]


def test_small_call_passes_numpy_views_of_every_array():
    # _core.small_call (_small.call in C): numgpu arrays at the top, inside lists and tuples
    # (nested too) and in keywords reach NumPy's function as NumPy arrays; other objects as they
    # are; a plain result a numgpu array (over NumPy's memory where the device is the host's),
    # anything else as `up` makes it.
    a, b = ng.asarray(np.array([1.0, 2.0])), ng.asarray(np.array([[3.0], [4.0]]))
    seen = []

    def probe(*args, **kwargs):
        seen.append((args, kwargs))
        return np.array([5, 6], dtype=np.int16)

    marker = object()
    r = _core.small_call(probe, (a, [a, (b, 7)], marker, "s"), {"w": b, "n": None}, _fallback_up())
    (args, kwargs), = seen
    assert type(args[0]) is np.ndarray and args[0].tolist() == [1.0, 2.0]
    assert type(args[1]) is list and type(args[1][0]) is np.ndarray and type(args[1][1]) is tuple
    assert type(args[1][1][0]) is np.ndarray and args[1][1][0].tolist() == [[3.0], [4.0]]
    assert args[1][1][1] == 7 and args[2] is marker and args[3] == "s"
    assert type(kwargs["w"]) is np.ndarray and kwargs["n"] is None
    assert isinstance(r, ng.ndarray) and r.dtype == np.int16 and r.tolist() == [5, 6]
    plain = [1.0, 2.0]
    _core.small_call(lambda v: seen.append(v), (plain,), {}, _fallback_up())
    assert seen[-1] is plain                       # nothing to convert: the same list
    s = _core.small_call(np.sum, (a,), {}, _fallback_up())
    assert isinstance(s, ng.ndarray) and s.ndim == 0 and s._scalar and float(s) == 3.0
    big = _core.small_call(lambda v: np.array([1, 2], dtype=">i4"), (a,), {}, _fallback_up())
    assert type(big) is np.ndarray and big.dtype == np.dtype(">i4")    # swapped bytes: NumPy's
    with pytest.raises(ZeroDivisionError):
        _core.small_call(lambda v: 1 / 0, (a,), {}, _fallback_up())


def _fallback_up():
    from numgpu import _fallback
    return _fallback._up
