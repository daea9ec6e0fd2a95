"""Functions that change their arguments in place (copyto, place, putmask, fill_diagonal,
nan_to_num(copy=False)) and out= of reductions and matmul: the numgpu array itself gets NumPy's
values, whether numgpu runs the function or NumPy does through the fallback (where it used to
change a downloaded copy and lose it)."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import data


def quiet():
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter("ignore", _fallback.FallbackWarning)
    return w


def both_ways(func_name, a, *args, **kwargs):
    """Runs NumPy's function on a host copy and numgpu's (or its fallback) on a device copy of a;
    returns (host array, device array downloaded, NumPy's result, numgpu's result)."""
    h, x = a.copy(), ng.asarray(a)
    want = getattr(np, func_name)(h, *args, **kwargs)
    w = quiet()
    try:
        got = getattr(ng, func_name)(x, *args, **kwargs)
    finally:
        w.__exit__(None, None, None)
    return h, x.get(), want, got, x


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.bool_, np.complex128])
def test_copyto_writes_into_the_device_array(dt):
    a = data(dt, (3, 4), seed=1)
    src = data(dt, (4,), seed=2)
    where = data(np.bool_, (3, 4), seed=3)
    for args, kw in [((src,), {}), ((ng.asarray(src),), {}), ((src,), {"where": where}),
                     ((ng.asarray(src),), {"where": ng.asarray(where)}), ((src[0].item(),), {})]:
        h, got, want, r, x = both_ways("copyto", a, *args, **kw)
        assert r is None and want is None
        np.testing.assert_array_equal(got, h)
    assert "numpy.copyto" not in _fallback.counts          # on the device


def test_copyto_casting_errors_are_numpys_and_change_nothing():
    a = np.zeros(3, np.int64)
    x = ng.asarray(a)
    for src, kw in [(np.array([1.5, 2, 3]), {}), (1.5, {}), (np.ones(3, np.int64), {"casting": "no"})]:
        with pytest.raises(TypeError):
            np.copyto(a.copy(), src, **kw) if kw.get("casting") != "no" else np.copyto(a.copy(), 1.0, casting="no")
        with pytest.raises(TypeError):
            ng.copyto(x, src, **kw) if kw.get("casting") != "no" else ng.copyto(x, 1.0, casting="no")
    ng.copyto(x, np.array([1.5, 2.5, -3.5]), casting="unsafe")
    np.testing.assert_array_equal(x.get(), np.array([1, 2, -3]))
    with pytest.raises(ValueError):
        ng.copyto(x, np.ones((2, 3), np.int64))
    h = np.zeros(3)                                           # a NumPy destination: NumPy's copyto
    ng.copyto(h, ng.asarray(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(h, [1, 2, 3])


def test_place_putmask_fill_diagonal_change_the_device_array():
    a = data(np.float64, (4, 5), seed=4)
    mask = a > 0
    for name, args, kw in [("place", (mask, [7.0, 8.0, 9.0]), {}), ("putmask", (mask, [1.0, 2.0]), {}),
                           ("putmask", (ng.asarray(mask), -1.0), {}), ("fill_diagonal", (5.0,), {}),
                           ("fill_diagonal", ([1.0, 2.0],), {"wrap": True})]:
        h, got, want, r, _ = both_ways(name, a, *(np.asarray(v.get()) if isinstance(v, ng.ndarray) and name == "place"
                                                    else v for v in args), **kw)
        assert r is None
        np.testing.assert_array_equal(got, h)
    tall = data(np.int32, (7, 3), seed=5)
    h, got, _, _, _ = both_ways("fill_diagonal", tall, 9, wrap=True)
    np.testing.assert_array_equal(got, h)


def test_nan_to_num_in_place_only_when_asked():
    a = np.array([1.0, np.nan, np.inf, -np.inf])
    for args, kw in [((), {"copy": False}), ((False,), {}), ((), {"copy": False, "nan": 5.0, "posinf": 1e3})]:
        h, got, want, r, x = both_ways("nan_to_num", a, *args, **kw)
        np.testing.assert_array_equal(got, h)
        assert want is h and r is x                           # the array itself, as NumPy returns it
    h, got, want, r, x = both_ways("nan_to_num", a)
    np.testing.assert_array_equal(got, a)                     # a copy: the input kept
    np.testing.assert_array_equal(r.get(), want)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all"])
def test_reductions_write_into_out(name):
    a = data(np.float64, (3, 4), seed=6, kind="positive")
    want = getattr(np, name)(a, axis=0)
    out = ng.zeros(4, want.dtype)
    r = getattr(ng, name)(ng.asarray(a), axis=0, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-12)
    host_out = np.zeros(4, want.dtype)
    assert getattr(ng, name)(ng.asarray(a), axis=0, out=host_out) is host_out
    np.testing.assert_allclose(host_out, want, rtol=1e-12)
    with pytest.raises(ValueError):
        getattr(ng, name)(ng.asarray(a), axis=0, out=ng.zeros(3, want.dtype))
    method_out = ng.zeros(4, want.dtype)                      # the array's method too
    assert getattr(ng.asarray(a), name)(axis=0, out=method_out) is method_out
    np.testing.assert_allclose(method_out.get(), want, rtol=1e-12)
    with pytest.raises(ValueError):
        getattr(ng.asarray(a), name)(axis=0, out=ng.zeros((1, 4), want.dtype))


def test_reduction_out_casts_as_numpy():
    a = data(np.float64, (5,), seed=7) * 1.5
    out = ng.zeros((), np.int64)
    ng.sum(ng.asarray(a), out=out)
    np.testing.assert_array_equal(out.get(), np.sum(a, out=np.zeros((), np.int64)))
    small = np.array([100, 100], np.int8)
    out8 = ng.zeros((), np.int8)
    ng.sum(ng.asarray(small), out=out8)
    np.testing.assert_array_equal(out8.get(), np.sum(small, out=np.zeros((), np.int8)))


def test_matmul_writes_into_out():
    a, b = data(np.float64, (3, 4), seed=8), data(np.float64, (4, 2), seed=9)
    out = ng.zeros((3, 2))
    assert ng.matmul(ng.asarray(a), ng.asarray(b), out=out) is out
    np.testing.assert_allclose(out.get(), a @ b, rtol=1e-12)
    with pytest.raises(ValueError):
        ng.matmul(ng.asarray(a), ng.asarray(b), out=ng.zeros((3, 3)))


def test_numpys_functions_returning_none_run_once_on_the_device():
    """np.put(x, ...) / np.copyto(x, ...) on a numgpu x come to numgpu's (__array_function__); their
    None is their result, not a reason to run NumPy's on a downloaded copy as well."""
    _fallback.reset()
    x = ng.zeros(4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.put(x, [0, 2], [5.0, 6.0]) is None
        assert np.copyto(x[1:2], 7.0) is None
        assert np.put_along_axis(x, np.array([3]), 8.0, axis=0) is None
    np.testing.assert_array_equal(x.get(), [5, 7, 6, 8])
    assert not _fallback.counts


def test_every_out_parameter_is_written():
    """argmin/argmax/nanargmin/nanargmax, concatenate/stack/concat take NumPy's out= (and dtype=,
    casting= where NumPy has them); out= used to be refused or, for the nan variants, ignored."""
    a = data(np.float64, (3, 4), seed=10)
    a[1, 2] = np.nan
    x = ng.asarray(a)
    for name in ("argmin", "argmax", "nanargmin", "nanargmax"):
        out = ng.zeros(4, np.int64)
        assert getattr(ng, name)(x, 0, out) is out
        np.testing.assert_array_equal(out.get(), getattr(np, name)(a, 0))
    b = data(np.int32, (3, 4), seed=11)
    for name in ("concatenate", "concat"):
        out = ng.zeros((6, 4))
        assert getattr(ng, name)([x, ng.asarray(b)], 0, out) is out
        np.testing.assert_array_equal(out.get(), np.concatenate([a, b]), strict=False)
        got = getattr(ng, name)([x, ng.asarray(b)], axis=None, dtype=np.float32)
        want = np.concatenate([a, b], axis=None, dtype=np.float32)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
        with pytest.raises(TypeError):
            getattr(ng, name)([x, ng.asarray(b)], dtype=np.int32)
        with pytest.raises(TypeError):
            getattr(ng, name)([x], out=ng.zeros((3, 4), np.int64))
    out = ng.zeros((3, 2, 4))
    assert ng.stack([x, x], 1, out) is out
    np.testing.assert_array_equal(out.get(), np.stack([a, a], 1))
    assert ng.stack([ng.asarray(b)] * 2, dtype=np.float64).dtype == np.float64


def test_numpys_in_place_functions_change_the_numgpu_array():
    """np.putmask(x, ...), np.place(arr=x, ...), np.nan_to_num(x, copy=False) with a numgpu x come
    through __array_function__: x itself gets NumPy's values (by position or by name)."""
    a = np.arange(5.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        x = ng.asarray(a)
        np.putmask(x, x > 2, 0.0)
        np.testing.assert_array_equal(x.get(), np.where(a > 2, 0.0, a))
        x = ng.asarray(a)
        np.place(arr=x, mask=x.get() > 2, vals=[9.0])
        np.testing.assert_array_equal(x.get(), np.where(a > 2, 9.0, a))
        x = ng.asarray(np.array([np.nan, 1.0, np.inf]))
        assert np.nan_to_num(x, copy=False) is x
        np.testing.assert_array_equal(x.get(), np.nan_to_num(np.array([np.nan, 1.0, np.inf])))
        x = ng.zeros((3, 3))
        np.fill_diagonal(x, 2.0)
        np.testing.assert_array_equal(x.get(), np.eye(3) * 2)


def test_casting_rules_of_copyto_concatenate_matmul_argmax_out():
    with pytest.raises(TypeError):
        ng.concatenate([ng.zeros(1, np.int8), ng.zeros(1, np.int16)], casting="no")
    with pytest.raises(ValueError):
        ng.concatenate([ng.zeros(1)], casting="bogus")
    big = ng.concatenate([ng.asarray(np.array([2 ** 53 + 1])), ng.asarray(np.ones(1, np.float16))],
                         out=ng.zeros(2, np.int64), casting="unsafe")
    np.testing.assert_array_equal(big.get(), [2 ** 53 + 1, 1])   # straight to int64, not through float
    i8 = ng.zeros(2, np.int8)
    ng.copyto(i8, 5, casting="safe")                              # a Python int's value fits
    np.testing.assert_array_equal(i8.get(), [5, 5])
    ng.copyto(ng.zeros(2, np.float32), 0.1, casting="safe")
    with pytest.raises(OverflowError):
        ng.copyto(ng.zeros(2, np.uint8), -1)
    with pytest.raises(TypeError):
        ng.copyto(ng.zeros(2), 1.0, where=[1, 0])
    with pytest.raises(TypeError):
        ng.matmul(ng.ones((2, 2)), ng.ones((2, 2)), out=ng.zeros((2, 2), np.int64))
    with pytest.raises(TypeError):
        ng.argmax(ng.ones(3), out=ng.zeros((), np.float64))


def test_ravel_of_a_non_contiguous_array_is_a_copy():
    for order in ("C", "F"):
        x = ng.arange(6)[::-1]
        x.ravel(order)[...] = -1
        np.testing.assert_array_equal(x.get(), np.arange(6)[::-1])
    x = ng.arange(6)
    x.ravel()[0] = 9                                              # contiguous: a view, as NumPy's
    assert int(x[0]) == 9


def test_functions_refuse_a_tuple_out_as_numpy():
    a, o = ng.ones((2, 3)), ng.zeros(3)
    for f in (lambda: ng.sum(a, axis=0, out=(o,)), lambda: a.sum(axis=0, out=(o,)),
              lambda: ng.argmax(a, axis=0, out=(ng.zeros(3, np.int64),)),
              lambda: ng.concatenate([a], out=(ng.zeros((2, 3)),))):
        with pytest.raises(TypeError):
            f()
    out = ng.zeros((2, 2))
    assert ng.matmul(a, a.T, out=(out,)) is out           # a ufunc: NumPy takes a one-array tuple
