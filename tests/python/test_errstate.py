"""NumPy's floating-point error modes (np.errstate, np.seterr) on numgpu arrays.

Each case runs the same op on NumPy's arrays and on numgpu's and compares what NumPy's errstate
makes of it: under 'raise' the same exception class and message, under 'warn' the same
RuntimeWarnings in the same order (pointing at this file, the caller's line), under 'ignore' none,
and the same values. Underflow is not judged by numgpu (NumPy's default ignores it): no case here
underflows. The device is whatever NUMGPU_DEVICE selects (cpu, opencl on PoCL).
"""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import numgpu as ng

I64MIN = np.iinfo(np.int64).min

# (id, op(xp, *arrays), arrays): op gets NumPy or numgpu as xp and the arrays already on xp.
CASES = [
    # divide
    ("divide-by-zero", lambda xp, a: a / 0, [np.array([1.0, -2.0, 0.5])]),
    ("divide-0/0", lambda xp, a: a / 0, [np.array([0.0, 1.0])]),
    ("divide-inf/0", lambda xp, a: a / 0, [np.array([np.inf, np.nan])]),
    ("divide-inf/inf", lambda xp, a, b: a / b, [np.array([np.inf, 1.0]), np.array([np.inf, 2.0])]),
    ("divide-overflow", lambda xp, a: a / 1e-10, [np.array([1e308, 1.0])]),
    ("divide-3cats", lambda xp, a, b: a / b, [np.array([1.0, 0.0, 1e308]), np.array([0.0, 0.0, 1e-10])]),
    ("true_divide-f32", lambda xp, a, b: xp.true_divide(a, b),
     [np.array([1, 0, 3], np.float32), np.array([0, 0, 1], np.float32)]),
    ("divide-f16", lambda xp, a, b: xp.divide(a, b),
     [np.array([1, 0, 60000], np.float16), np.array([0, 0, 0.5], np.float16)]),
    ("divide-int", lambda xp, a: a / 0, [np.array([1, 2, 0])]),
    ("floor_divide-by-zero", lambda xp, a: a // 0, [np.array([1.0, -3.0])]),
    ("floor_divide-0//0", lambda xp, a: a // 0, [np.array([0.0, 1.0])]),
    ("floor_divide-inf//1", lambda xp, a: a // 1.0, [np.array([np.inf, 2.0])]),
    ("floor_divide-int", lambda xp, a: a // 0, [np.array([1, 2])]),
    ("floor_divide-int8", lambda xp, a, b: a // b, [np.array([1, 5], np.int8), np.array([0, 2], np.int8)]),
    ("floor_divide-uint16", lambda xp, a, b: xp.floor_divide(a, b),
     [np.array([1, 5], np.uint16), np.array([0, 2], np.uint16)]),
    ("floor_divide-bool", lambda xp, a, b: a // b, [np.array([True, True]), np.array([False, True])]),
    ("floor_divide-min//-1", lambda xp, a: a // -1, [np.array([I64MIN, 4])]),
    ("floor_divide-min//-1-i32", lambda xp, a, b: a // b,
     [np.array([np.iinfo(np.int32).min], np.int32), np.array([-1], np.int32)]),
    ("remainder-by-zero", lambda xp, a: a % 0, [np.array([1.0, 0.0])]),
    ("remainder-inf", lambda xp, a: a % 1.0, [np.array([np.inf, 3.5])]),
    ("remainder-int", lambda xp, a: a % 0, [np.array([1, 2])]),
    ("remainder-min%-1", lambda xp, a: a % -1, [np.array([I64MIN])]),
    ("fmod-by-zero", lambda xp, a: xp.fmod(a, 0.0), [np.array([1.0, 2.0])]),
    ("fmod-int", lambda xp, a: xp.fmod(a, 0), [np.array([1, 2], np.int32)]),
    ("power-0**neg", lambda xp, a: xp.power(a, -1.5), [np.array([0.0, 2.0])]),
    ("power-0**-inf", lambda xp, a: xp.power(a, -np.inf), [np.array([0.0, 2.0])]),
    ("power-overflow", lambda xp, a: a ** 400.0, [np.array([10.0, 1.0])]),
    ("power-invalid", lambda xp, a: a ** (1 / 3), [np.array([-8.0, 8.0])]),
    ("power-f32", lambda xp, a, b: a ** b, [np.array([0, 1e10, -2], np.float32), np.array([-1, 5, 0.5], np.float32)]),
    ("power-square-op", lambda xp, a: a ** 2, [np.array([1e200, 2.0])]),
    ("power-square-func", lambda xp, a: xp.power(a, 2), [np.array([1e200, 2.0])]),
    ("power-reciprocal-op", lambda xp, a: a ** -1, [np.array([0.0, 2.0])]),
    ("power-sqrt-op", lambda xp, a: a ** 0.5, [np.array([-1.0, 4.0])]),
    ("power-int-by-float", lambda xp, a: a ** -1.0, [np.array([0, 2])]),
    ("reciprocal", lambda xp, a: xp.reciprocal(a), [np.array([0.0, 2.0])]),
    ("reciprocal-f16", lambda xp, a: xp.reciprocal(a), [np.array([0.0, 2.0], np.float16)]),
    ("reciprocal-int", lambda xp, a: xp.reciprocal(a), [np.array([0, 1], np.int32)]),
    # logs and the inverse functions
    ("log-0", lambda xp, a: xp.log(a), [np.array([0.0, 1.0])]),
    ("log-neg", lambda xp, a: xp.log(a), [np.array([-1.0, 1.0])]),
    ("log-both", lambda xp, a: xp.log(a), [np.array([-1.0, 0.0, np.nan, np.inf])]),
    ("log2-0", lambda xp, a: xp.log2(a), [np.array([0.0, 4.0], np.float32)]),
    ("log10-0", lambda xp, a: xp.log10(a), [np.array([0.0, -4.0])]),
    ("log1p--1", lambda xp, a: xp.log1p(a), [np.array([-1.0, -2.0, 3.0])]),
    ("log-int8", lambda xp, a: xp.log(a), [np.array([0, 3], np.int8)]),
    ("log-int64", lambda xp, a: xp.log(a), [np.array([0, -3])]),
    ("sqrt-neg", lambda xp, a: xp.sqrt(a), [np.array([-1.0, 4.0, -np.inf])]),
    ("sqrt-f16", lambda xp, a: xp.sqrt(a), [np.array([-1.0, 4.0], np.float16)]),
    ("arcsin-2", lambda xp, a: xp.arcsin(a), [np.array([2.0, 0.5])]),
    ("arccos-2", lambda xp, a: xp.arccos(a), [np.array([-2.0, 0.5], np.float32)]),
    ("arccosh-0.5", lambda xp, a: xp.arccosh(a), [np.array([0.5, 2.0])]),
    ("arctanh-1", lambda xp, a: xp.arctanh(a), [np.array([1.0, -1.0, 0.5])]),
    ("arctanh-2", lambda xp, a: xp.arctanh(a), [np.array([2.0, 0.5])]),
    ("sin-inf", lambda xp, a: xp.sin(a), [np.array([np.inf, 1.0])]),
    ("cos-inf", lambda xp, a: xp.cos(a), [np.array([-np.inf, 1.0])]),
    ("tan-inf", lambda xp, a: xp.tan(a), [np.array([np.inf, 1.0])]),
    # overflow
    ("exp", lambda xp, a: xp.exp(a), [np.array([1000.0, 1.0, np.inf])]),
    ("exp-f32", lambda xp, a: xp.exp(a), [np.array([100.0, 1.0], np.float32)]),
    ("exp-int8", lambda xp, a: xp.exp(a), [np.array([12, 1], np.int8)]),
    ("exp2", lambda xp, a: xp.exp2(a), [np.array([2000.0, 1.0])]),
    ("expm1", lambda xp, a: xp.expm1(a), [np.array([1000.0, 1.0])]),
    ("sinh", lambda xp, a: xp.sinh(a), [np.array([1000.0, 1.0])]),
    ("cosh", lambda xp, a: xp.cosh(a), [np.array([-1000.0, 1.0])]),
    ("multiply", lambda xp, a: a * 1e200, [np.array([1e200, 1.0])]),
    ("multiply-0*inf", lambda xp, a, b: a * b, [np.array([0.0, 1e200]), np.array([np.inf, 1e200])]),
    ("multiply-f16", lambda xp, a, b: a * b, [np.array([300, 2], np.float16), np.array([300, 2], np.float16)]),
    ("multiply-f32", lambda xp, a, b: xp.multiply(a, b),
     [np.array([1e30, 2], np.float32), np.array([1e30, 2], np.float32)]),
    ("add", lambda xp, a: a + 1e308, [np.array([1e308, 1.0])]),
    ("add-inf-inf", lambda xp, a, b: a + b, [np.array([np.inf, 1.0]), np.array([-np.inf, 1.0])]),
    ("subtract", lambda xp, a: a - 1e308, [np.array([-1e308, 1.0])]),
    ("subtract-inf-inf", lambda xp, a: a - np.inf, [np.array([np.inf, 1.0])]),
    ("square", lambda xp, a: xp.square(a), [np.array([1e200, 2.0])]),
    ("ldexp", lambda xp, a: xp.ldexp(a, 2000), [np.array([1.0, 0.0])]),
    ("out-cast-named-by-op", lambda xp, a: xp.add(a, 1e300, out=xp.zeros(2, np.float32)), [np.array([1e300, 1.0])]),
    ("inplace-divide", lambda xp, a: a.__itruediv__(0.0), [np.array([1.0, 0.0])]),
    # casts
    ("cast-f64-f32", lambda xp, a: a.astype(np.float32), [np.array([1e300, 1.0, np.inf])]),
    ("cast-f64-f16", lambda xp, a: a.astype(np.float16), [np.array([1e5, 1.0])]),
    ("cast-f32-f16", lambda xp, a: a.astype(np.float16), [np.array([1e5, 1.0], np.float32)]),
    ("cast-i64-f16", lambda xp, a: a.astype(np.float16), [np.array([100000, 1])]),
    ("cast-nan-int", lambda xp, a: a.astype(np.int64), [np.array([np.nan, 1.0])]),
    ("cast-inf-int32", lambda xp, a: a.astype(np.int32), [np.array([np.inf, 1.0])]),
    ("cast-big-int64", lambda xp, a: a.astype(np.int64), [np.array([1e20, 1.0])]),
    ("cast-big-int32", lambda xp, a: a.astype(np.int32), [np.array([1e10, 1.0])]),
    ("cast-big-int16", lambda xp, a: a.astype(np.int16), [np.array([3e9, 1.0])]),
    ("cast-wraps-int8", lambda xp, a: a.astype(np.int8), [np.array([1000.0, -1.0])]),
    ("cast-neg-uint8", lambda xp, a: a.astype(np.uint8), [np.array([-1.0, 1.0])]),
    ("cast-uint32", lambda xp, a: a.astype(np.uint32), [np.array([3e9, -3e9])]),
    ("cast-uint64-ok", lambda xp, a: a.astype(np.uint64), [np.array([1e19, -1.0])]),
    ("cast-uint64-big", lambda xp, a: a.astype(np.uint64), [np.array([2e19, 1.0])]),
    ("cast-uint64-neg", lambda xp, a: a.astype(np.uint64), [np.array([-1e19, 1.0])]),
    ("cast-f32-int32", lambda xp, a: a.astype(np.int32), [np.array([3e9, 1.0], np.float32)]),
    ("cast-f16-int8", lambda xp, a: a.astype(np.int8), [np.array([np.inf, 1.0], np.float16)]),
    ("cast-nan-bool", lambda xp, a: a.astype(bool), [np.array([np.nan, 1.0])]),
    ("cast-assign", lambda xp, a: _assign(xp, a), [np.array([np.nan, 1.0])]),
    # never flagged
    ("compare-nan", lambda xp, a: a < 1.0, [np.array([np.nan, 1.0])]),
    ("maximum-nan", lambda xp, a: xp.maximum(a, 1.0), [np.array([np.nan, 1.0])]),
    ("arctan2-0-0", lambda xp, a: xp.arctan2(a, 0.0), [np.array([0.0, 1.0])]),
    ("hypot-big", lambda xp, a: xp.hypot(a, 1e308), [np.array([1e308, 1.0])]),
    ("add-int-wraps", lambda xp, a: a + 1, [np.array([np.iinfo(np.int64).max])]),
    ("nan-in-nan-out", lambda xp, a: xp.sqrt(a) + a / 0.5, [np.array([np.nan, 1.0])]),
]


def _assign(xp, a):
    r = xp.zeros(2, np.int64)
    r[:] = a
    return r


def run_case(xp, op, arrays, mode):
    """(result as NumPy or None, exception as (type, text) or None, warnings as [(category, text, file)])"""
    args = [xp.asarray(a.copy()) for a in arrays]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with np.errstate(all=mode, under="ignore"):
            try:
                r = op(xp, *args)
                err = None
            except Exception as e:
                r, err = None, (type(e), str(e))
            if r is not None and xp is ng:
                r = r.get()   # (on a GPU, where 'warn' reads the flag words: the warnings come here)
    got = [(w.category, str(w.message), os.path.basename(w.filename)) for w in seen]
    return r, err, got


# casts whose values C leaves undefined (x86's conversion and NumPy's differ there)
UNDEFINED_VALUES = {"cast-uint64-big"}


def same_values(case, got, want):
    assert got.dtype == want.dtype
    if case[0] in UNDEFINED_VALUES:
        return
    if np.issubdtype(want.dtype, np.inexact):   # (math functions: within an ulp or two of NumPy's)
        rtol = {2: 1e-3, 4: 1e-6}.get(want.dtype.itemsize, 1e-15)
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_raise(case):
    _, op, arrays = case
    _, np_err, _ = run_case(np, op, arrays, "raise")
    _, ng_err, _ = run_case(ng, op, arrays, "raise")
    assert ng_err == np_err


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_warn(case):
    _, op, arrays = case
    np_r, np_err, np_warn = run_case(np, op, arrays, "warn")
    ng_r, ng_err, ng_warn = run_case(ng, op, arrays, "warn")
    assert np_err is None and ng_err is None
    # the same warnings in the same order, each at the caller's line (this file), as NumPy's
    assert ng_warn == np_warn
    same_values(case, ng_r, np_r)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_ignore(case):
    _, op, arrays = case
    np_r, _, np_warn = run_case(np, op, arrays, "ignore")
    ng_r, ng_err, ng_warn = run_case(ng, op, arrays, "ignore")
    assert ng_err is None and ng_warn == [] and np_warn == []
    same_values(case, ng_r, np_r)


def test_default_modes_warn_as_numpy():
    """NumPy's defaults (divide, over, invalid 'warn') apply with no errstate at all."""
    assert np.geterr()["divide"] == "warn"
    a = ng.asarray(np.array([1.0, 0.0]))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        (a / 0).get()
    assert [(w.category, str(w.message)) for w in rec] == [(RuntimeWarning, "divide by zero encountered in divide"),
                                                           (RuntimeWarning, "invalid value encountered in divide")]
    assert rec[0].filename == __file__


def test_gpu_warnings_come_by_the_next_read():
    """On cpu a warning comes from the op's line; on a device outside host memory, where every
    checked category only warns, from the next download or sync (the flag words are read then),
    each still named by its op. 'raise' always comes from the op's line."""
    host = ng.get_device() == "cpu"
    a = ng.asarray(np.array([1.0, 0.0, -1.0]))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        r = ng.log(a)
        s = ng.sqrt(a)
        at_ops = [str(w.message) for w in rec]
        ng.synchronize()
        at_sync = [str(w.message) for w in rec]
        r.get(), s.get()
    everything = ["divide by zero encountered in log", "invalid value encountered in log",
                  "invalid value encountered in sqrt"]
    assert at_ops == (everything if host else [])
    assert at_sync == everything and len(rec) == 3
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        float((a / 0)[0])     # (an element read: NumPy's scalar downloaded)
    assert [str(w.message) for w in rec] == ["divide by zero encountered in divide",
                                              "invalid value encountered in divide"]
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
            ng.log(a)


def test_where_judges_the_selected_elements():
    """NumPy's loop computes only where= selects: 0/0 left out is no error, one selected is."""
    num, den = np.array([1.0, 0.0, 2.0, 0.0]), np.array([1.0, 0.0, 2.0, 0.0])
    outs = []
    for xp in (np, ng):
        out = xp.asarray(np.full(4, -7.0))
        with np.errstate(all="raise"):
            xp.divide(xp.asarray(num), xp.asarray(den), out=out, where=xp.asarray(den) != 0)
            with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
                xp.divide(xp.asarray(num), xp.asarray(den), out=out, where=np.array([False, True, False, False]))
        outs.append(out.get() if xp is ng else out)
    np.testing.assert_array_equal(outs[1], outs[0])   # (written, then raised)


def test_one_category_raises_the_others_warn():
    a, b = ng.asarray(np.array([1.0, 0.0])), np.array([1.0, 0.0])
    with np.errstate(divide="warn", invalid="raise"):
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
            with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
                a / 0
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
            with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
                b / 0


def test_numgpu_names_are_numpys_state():
    assert ng.errstate is np.errstate
    old = ng.seterr(divide="raise")
    try:
        assert np.geterr()["divide"] == "raise" and ng.geterr() == np.geterr()
        with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
            ng.log(ng.zeros(3))
    finally:
        np.seterr(**old)
    with ng.errstate(divide="ignore"):
        assert np.geterr()["divide"] == "ignore"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ng.log(ng.zeros(3))


def test_call_and_log_modes():
    calls = []
    a, b = ng.asarray(np.array([1.0, 0.0, 1e308])), ng.asarray(np.array([0.0, 0.0, 1e-10]))
    with np.errstate(all="call", under="ignore", call=lambda kind, flags: calls.append((kind, flags))):
        a / b
        np_calls = list(calls)
        calls.clear()
        a.get() / b.get()
    assert np_calls == calls == [("divide by zero", 11), ("overflow", 11), ("invalid value", 11)]

    class Log:
        def __init__(self):
            self.lines = []

        def write(self, s):
            self.lines.append(s)
    ng_log, np_log = Log(), Log()
    with np.errstate(all="log", under="ignore", call=ng_log):
        ng.sqrt(ng.asarray(np.array([-1.0])))
    with np.errstate(all="log", under="ignore", call=np_log):
        np.sqrt(np.array([-1.0]))
    assert ng_log.lines == np_log.lines == ["Warning: invalid value encountered in sqrt\n"]
    for xp in (ng, np):
        with np.errstate(all="call", call=None):
            with pytest.raises(NameError) as ng_e:
                xp.asarray(np.array([1.0])) / 0
        assert "python callback specified for divide by zero" in str(ng_e.value)


def test_print_mode(capfd):
    with np.errstate(all="print", under="ignore"):
        ng.log(ng.zeros(2))
    assert capfd.readouterr().err == "Warning: divide by zero encountered in log\n"


def test_raise_keeps_inplace_semantics():
    """NumPy writes the result, then raises: an in-place op has changed its array."""
    a, b = ng.asarray(np.array([1.0, 2.0])), np.array([1.0, 2.0])
    with np.errstate(divide="raise"):
        for x in (a, b):
            with pytest.raises(FloatingPointError):
                x /= 0
    np.testing.assert_array_equal(a.get(), b)


SAMPLE = [
    lambda xp, a, b: a + b, lambda xp, a, b: a - b, lambda xp, a, b: a * b, lambda xp, a, b: a / b,
    lambda xp, a, b: a // b, lambda xp, a, b: a % b, lambda xp, a, b: a ** b, lambda xp, a, b: xp.fmod(a, b),
    lambda xp, a, b: xp.log(a), lambda xp, a, b: xp.log2(b), lambda xp, a, b: xp.log10(a), lambda xp, a, b: xp.log1p(a),
    lambda xp, a, b: xp.sqrt(a), lambda xp, a, b: xp.exp(a), lambda xp, a, b: xp.exp2(b), lambda xp, a, b: xp.expm1(a),
    lambda xp, a, b: xp.sinh(a), lambda xp, a, b: xp.cosh(a), lambda xp, a, b: xp.sin(a), lambda xp, a, b: xp.tan(a),
    lambda xp, a, b: xp.arcsin(a / 4), lambda xp, a, b: xp.arccos(a / 4), lambda xp, a, b: xp.arctanh(a / 4),
    lambda xp, a, b: xp.arccosh(a + 1), lambda xp, a, b: xp.reciprocal(a), lambda xp, a, b: xp.square(b),
    lambda xp, a, b: a ** 2, lambda xp, a, b: a ** -1, lambda xp, a, b: a ** 0.5, lambda xp, a, b: xp.ldexp(a, 3),
    lambda xp, a, b: a.astype(np.float16), lambda xp, a, b: (a * 100).astype(np.int8),
    lambda xp, a, b: (a * 100).astype(np.uint64), lambda xp, a, b: a.astype(np.float32),
]


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.int8, np.int32, np.uint16, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_no_spurious_warnings(dt):
    """Ordinary finite data (positive, away from the edges) under warnings-as-errors: nothing."""
    rng = np.random.default_rng(7)
    a_np = rng.uniform(1.0, 3.5, size=(37, 5)).astype(dt)
    b_np = rng.uniform(1.0, 3.5, size=(5,)).astype(dt)
    a, b = ng.asarray(a_np), ng.asarray(b_np)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise", under="ignore"):
            for i, f in enumerate(SAMPLE):
                try:
                    want = f(np, a_np, b_np)
                except (TypeError, ValueError, OverflowError):
                    continue          # (no loop for this dtype, or int ** -1: NumPy refuses it too)
                got = f(ng, a, b)
                assert got.dtype == want.dtype, i
                # a view with a broadcast operand and a strided one: the nested (rank-2) kernels
                f(ng, a[:, ::2], b[::2])


def test_numgpu_run_script(tmp_path):
    script = tmp_path / "fpe_script.py"
    script.write_text(
        "import numpy as np\n"
        "np.seterr(all='raise')\n"
        "x = np.linspace(0.0, 1.0, 5)\n"
        "try:\n"
        "    y = 1.0 / x\n"
        "    print('no error')\n"
        "except FloatingPointError as e:\n"
        "    print('caught:', e)\n"
        "with np.errstate(divide='ignore'):\n"
        "    print('inf' if np.isinf((1.0 / x)[0]) else 'finite')\n"
        "print(type(x).__module__.split('.')[0])\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(ng.__file__)),
                                                      env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-m", "numgpu", "run", str(script)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["caught: divide by zero encountered in divide", "inf", "numgpu"]


# Reductions: NumPy's "overflow encountered in reduce" (an infinity from finite terms) and
# "invalid value encountered in reduce" (a NaN from terms that are not NaN: inf - inf, 0 * inf),
# judged from the values after a float sum, prod or mean (src/pymod/fpe.c ngpy_reduce_fpe).
REDUCE_CASES = [
    ("sum-overflow", lambda xp, a: xp.sum(a), [np.array([1e308, 1e308, 1.0])]),
    ("sum-inf-inf", lambda xp, a: a.sum(), [np.array([np.inf, -np.inf])]),
    ("sum-inf-in", lambda xp, a: a.sum(), [np.array([np.inf, 1.0])]),
    ("sum-nan-in", lambda xp, a: a.sum(), [np.array([np.nan, 1.0])]),
    ("sum-f32", lambda xp, a: a.sum(), [np.array([3e38, 3e38], np.float32)]),
    ("sum-f16", lambda xp, a: a.sum(), [np.array([60000, 60000], np.float16)]),
    ("sum-axis", lambda xp, a: a.sum(axis=0), [np.array([[1e308, 1.0], [1e308, 2.0]])]),
    ("mean-overflow", lambda xp, a: a.mean(), [np.array([1e308, 1e308])]),
    ("prod-overflow", lambda xp, a: xp.prod(a), [np.array([1e200, 1e200])]),
    ("prod-0*inf", lambda xp, a: a.prod(), [np.array([0.0, np.inf])]),
    ("add-reduce", lambda xp, a: xp.add.reduce(a), [np.array([1e308, 1e308])]),
    ("sum-finite", lambda xp, a: a.sum(axis=1), [np.arange(12.0).reshape(3, 4)]),
    ("sum-int", lambda xp, a: a.sum(), [np.array([2**62, 2**62])]),
]


@pytest.mark.parametrize("case", REDUCE_CASES, ids=[c[0] for c in REDUCE_CASES])
def test_reductions_raise(case):
    _, op, arrays = case
    assert run_case(ng, op, arrays, "raise")[1] == run_case(np, op, arrays, "raise")[1]


@pytest.mark.skipif(ng.get_device() != "cpu", reason="on GPUs a reduction's warnings are not judged (a wait each)")
@pytest.mark.parametrize("case", REDUCE_CASES, ids=[c[0] for c in REDUCE_CASES])
def test_reductions_warn_and_ignore(case):
    _, op, arrays = case
    for mode in ("warn", "ignore"):
        np_r, _, np_warn = run_case(np, op, arrays, mode)
        ng_r, ng_err, ng_warn = run_case(ng, op, arrays, mode)
        # (NumPy's warning points into its own fromnumeric.py/_methods.py; numgpu's at the caller)
        assert ng_err is None and [w[:2] for w in ng_warn] == [w[:2] for w in np_warn]
        assert all(w[2] == "test_errstate.py" for w in ng_warn)
        same_values(case, np.asarray(ng_r), np.asarray(np_r))


# The mean of nothing, and var/std of nothing or of ddof or fewer elements: NumPy's own
# RuntimeWarning, then the division by the count judged as NumPy's: "invalid value" (0/0) or
# "divide by zero" (a positive sum of squares), in "scalar divide" where the result is a float64
# or complex128 scalar, else in "divide" (not "in reduce": NumPy's sums of nothing are 0).
DEGENERATE = [
    ("mean", lambda a: a.mean(), 0), ("mean-keepdims", lambda a: a.mean(keepdims=True), 0),
    ("mean-axis", lambda a: a.reshape(0, 2).mean(axis=0), 0), ("mean-f32", lambda a: a.mean(dtype=np.float32), 0),
    ("var", lambda a: a.var(), 0), ("var-axis", lambda a: a.reshape(0, 2).var(axis=0), 0),
    ("var-ddof-equal", lambda a: a.var(ddof=1), 1), ("var-ddof-apart", lambda a: a.var(ddof=2), 2),
    ("var-ddof-more", lambda a: a.var(ddof=5), 2), ("std-ddof", lambda a: a.std(ddof=2), 2),
    ("var-ddof-keepdims", lambda a: a.var(ddof=2, keepdims=True), 2),
    ("var-rows", lambda a: a.reshape(1, -1).var(axis=1, ddof=2), 2),
]


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int32, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", DEGENERATE, ids=[c[0] for c in DEGENERATE])
def test_degenerate_mean_var_divide(case, dt):
    _, op, n = case
    data = np.array([1, 3][:n], dt)
    for mode in ("warn", "raise"):
        if mode == "warn" and ng.get_device() != "cpu" and n:
            continue    # (on GPUs a reduction's values are judged only where a category raises)
        got = []
        for xp in (np, ng):
            with warnings.catch_warnings(record=True) as w, xp.errstate(all=mode):
                warnings.simplefilter("always")
                try:
                    r = op(xp.asarray(data))
                    res = np.asarray(r.get() if hasattr(r, "get") else r)
                except FloatingPointError as e:
                    res = "raised: %s" % e
            got.append((res if isinstance(res, str) else (res.shape, res.dtype, np.isnan(res).tolist()),
                        [str(x.message) for x in w if x.category is RuntimeWarning]))
        assert got[1] == got[0], mode


# A Python float cast to float32/float16/complex64 that becomes an infinity: NumPy's "overflow
# encountered in cast" (numgpu stored or computed inf silently)
CAST_CASES = [
    ("setitem", lambda xp: _set(xp.zeros(2, np.float32), 0, 1e300)),
    ("setitem-f16", lambda xp: _set(xp.zeros(2, np.float16), 1, 70000.0)),
    ("setitem-c64", lambda xp: _set(xp.zeros(2, np.complex64), 0, 1e300j)),
    ("add", lambda xp: xp.ones(3, np.float32) + 1e40),
    ("radd", lambda xp: 1e40 + xp.ones(3, np.float32)),
    ("mul-ufunc", lambda xp: xp.multiply(xp.ones(3, np.float16), 1e5)),
    ("iadd", lambda xp: _iadd(xp.ones(3, np.float32), -1e39)),
    ("full", lambda xp: xp.full(2, 1e300, dtype=np.float32)),
    ("fits", lambda xp: xp.ones(3, np.float32) + 3e38),
    ("f16-fits", lambda xp: xp.ones(3, np.float16) + 65519.0),
    ("inf-scalar", lambda xp: xp.ones(3, np.float32) + float("inf")),
    ("f64-array", lambda xp: xp.ones(3) + 1e300),
    ("full-nan-int", lambda xp: xp.full(3, np.nan, dtype=np.int64)),      # (numgpu stored 0, silently)
    ("full-big-int32", lambda xp: xp.full(2, -1e30, dtype=np.int32)),
    ("full-inf-uint8", lambda xp: xp.full(2, np.inf, dtype=np.uint8)),
]


def _set(a, i, v):
    a[i] = v
    return a


def _iadd(a, v):
    a += v
    return a


@pytest.mark.parametrize("case", CAST_CASES, ids=[c[0] for c in CAST_CASES])
def test_python_float_cast_overflow(case):
    _, op = case
    for mode in ("raise", "warn", "ignore"):
        seen = []
        for xp in (np, ng):
            with warnings.catch_warnings(record=True) as w, np.errstate(all=mode):
                warnings.simplefilter("always")
                try:
                    r = op(xp)
                    res = np.asarray(r.get() if xp is ng else r).tolist()
                except FloatingPointError as e:
                    res = "raised: %s" % e
            seen.append((res, [str(x.message) for x in w if x.category is RuntimeWarning]))
        assert seen[1] == seen[0], mode
