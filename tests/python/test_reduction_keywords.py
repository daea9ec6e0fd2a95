"""NumPy's reduction keywords on numgpu's functions: initial= (sum, prod, min, max), where= (those,
mean, any, all; var/std through NumPy), NumPy's positional order (max(a, axis, out, keepdims)),
each against NumPy on the same data: the same values and dtype, or the same type of error."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import assert_same

CASES = [
    "np.sum(a, where=m)", "np.sum(a, axis=0, where=m, initial=10)", "np.max(a, where=m)",
    "np.max(a, axis=0, where=m, initial=-1)", "np.mean(a, where=m)", "np.mean(a, axis=0, where=m)",
    "np.any(a > 2, where=m)", "np.all(a > 2, axis=1, where=m)", "np.prod(a + 1, where=m)",
    "np.min(z, axis=0, initial=5)", "np.sum(z, initial=5)", "np.max(i64, initial=10)", "np.max(nan, initial=0)",
    "np.sum(i8, initial=300)", "np.max(i8, initial=300)", "np.max(i8, initial=3.5)", "np.min(i8, initial=-2.5)",
    "np.sum(a, where=row)", "np.max(a, 0, None, True)", "np.any(a, 1, None, True)",
    "np.amax(a, axis=1, keepdims=True, initial=4)", "np.amin(a, axis=1, initial=4)", "np.mean(i8, where=i8 > 0)",
    "np.mean(f32, axis=1, where=m)", "np.min(a, axis=(0, 1), where=m, initial=100, keepdims=True)",
    "np.sum(a, where=big)", "np.max(z, axis=0)", "np.prod(i8, initial=2, dtype=np.int16)",
    "np.sum(b, where=m)", "np.sum(b, initial=2)", "np.max(b, initial=False)", "np.all(a, where=m, keepdims=True)",
    "np.mean(a, axis=(0, 1), where=m, dtype=np.float32)", "np.sum(c, initial=1j, where=m)",
]


def env(mod):
    a = np.arange(6.0).reshape(2, 3)
    m = np.array([[True, False, True], [False, False, True]])
    arrays = dict(a=a, m=m, i8=np.arange(3, dtype=np.int8), i64=np.arange(3), z=np.zeros((0, 3)),
                  nan=np.array([1.0, np.nan]), row=np.array([True, False, True]), f32=a.astype(np.float32),
                  big=np.ones((3, 2, 3), bool), b=a > 2, c=a + 1j * a[::-1])
    if mod is ng:
        arrays = {k: ng.asarray(v) for k, v in arrays.items()}
    return dict(arrays, np=mod)


@pytest.mark.parametrize("expr", CASES)
def test_reduction_keywords_as_numpy(expr):
    try:
        want = eval(expr, env(np))
    except Exception as e:  # noqa: BLE001 (ours must raise the same type)
        with pytest.raises(type(e)):
            eval(expr, env(ng))
        return
    _fallback.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", _fallback.FallbackWarning)   # all on the device
        got = eval(expr, env(ng))
    assert_same(got, want, rtol=1e-6 if "f32" in expr or "float32" in expr else 1e-12)


def test_var_std_with_where_are_numpys():
    a = np.arange(6.0).reshape(2, 3)
    m = np.array([[True, False, True], [False, False, True]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f in ("var", "std"):
            assert_same(getattr(ng, f)(ng.asarray(a), axis=0, where=m), getattr(np, f)(a, axis=0, where=m))
            assert_same(getattr(ng, f)(ng.asarray(a), where=m, ddof=1), getattr(np, f)(a, where=m, ddof=1))


def test_zero_d_reductions_take_axis_0_as_numpy():
    # (hunt 10 F11) NumPy's ufunc.reduce takes an int axis 0 or -1 of a 0-d array as all of it
    for dt in (np.float64, np.int8, np.bool_):
        h = np.array(3, dtype=dt)
        g = ng.asarray(h)
        for f in (lambda m, x: m.add.reduce(x), lambda m, x: m.sum(x, axis=0), lambda m, x: m.max(x, axis=-1),
                  lambda m, x: m.argmax(x, axis=0), lambda m, x: m.multiply.reduce(x, axis=0)):
            got, exp = f(ng, g), f(np, h)
            assert ng.asnumpy(got).dtype == np.asarray(exp).dtype and ng.asnumpy(got) == exp
        for f in (lambda m, x: m.mean(x, axis=0), lambda m, x: m.sum(x, axis=(0,)), lambda m, x: m.sum(x, axis=1)):
            with pytest.raises(np.exceptions.AxisError):
                f(np, h)
            with pytest.raises(np.exceptions.AxisError):
                f(ng, g)
