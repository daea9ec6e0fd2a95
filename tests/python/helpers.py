"""Shared helpers of the numgpu test suite: NumPy is the oracle.

assert_same(ng_result, np_result) checks a numgpu result against NumPy's for
the same inputs: type, shape, dtype and values. jit_same(fn, *args) checks
@numgpu.jit(fn) against plain Python's fn on copies of the same arguments. data(dtype, shape, ...) makes
reproducible inputs for every dtype, kept inside a domain where the test needs
one (positive, unit interval, small, nonzero).
"""
import importlib.util
import os

import numpy as np
import pytest

import numgpu as ng

BOOL = [np.bool_]
SINTS = [np.int8, np.int16, np.int32, np.int64]
UINTS = [np.uint8, np.uint16, np.uint32, np.uint64]
INTS = SINTS + UINTS
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
INEXACT = FLOATS + COMPLEX
NUMERIC = INTS + FLOATS
ALL = BOOL + INTS + FLOATS + COMPLEX

DEFAULT_RTOL = {np.dtype(np.float32): 1e-6, np.dtype(np.float64): 1e-12, np.dtype(np.float16): 1e-3,
                np.dtype(np.complex64): 1e-6, np.dtype(np.complex128): 1e-12}
# float16 results also get an absolute tolerance of about one subnormal step (2**-24):
# a float computed by another libm may round to the neighbouring half there.
FLOAT16_ATOL = 1.2e-7


def dtype_id(dt):
    return np.dtype(dt).name


def to_numpy(x):
    """numpy.ndarray of a numgpu array (a download), anything else as it is."""
    if isinstance(x, ng.ndarray):
        r = x.get()
        assert isinstance(r, np.ndarray), "get() returned %r" % type(r)
        return r
    return x


def assert_same(ng_result, np_result, rtol=None, atol=0.0, check_dtype=True):
    """Asserts numgpu's result equals NumPy's.

    NumPy arrays and NumPy scalars must come back as numgpu.ndarray (a 0-d
    array stands in for a NumPy scalar), or for a NumPy scalar NumPy's scalar
    itself (an element x[i] on a device in host memory: cpu); Python scalars and tuples/lists are
    compared element by element. Same shape and dtype; ints and bools exactly,
    floats with rtol (1e-6 float32, 1e-12 float64 by default) and NaN in the
    same places.
    """
    if isinstance(np_result, (tuple, list)) and not isinstance(ng_result, ng.ndarray):
        assert isinstance(ng_result, (tuple, list)), "expected a sequence, got %r" % type(ng_result)
        assert len(ng_result) == len(np_result)
        for g, e in zip(ng_result, np_result):
            assert_same(g, e, rtol=rtol, atol=atol, check_dtype=check_dtype)
        return
    if isinstance(np_result, np.generic) and isinstance(ng_result, np.generic):
        assert type(ng_result) is type(np_result), "type %s, NumPy %s" % (type(ng_result), type(np_result))
        assert_values(np.asarray(ng_result), np.asarray(np_result), rtol=rtol, atol=atol)
        return
    if isinstance(np_result, (np.ndarray, np.generic)):
        assert isinstance(ng_result, ng.ndarray), \
            "expected numgpu.ndarray, got %s (%r)" % (type(ng_result).__name__, ng_result)
        got = to_numpy(ng_result)
        exp = np.asarray(np_result)
        assert got.shape == exp.shape, "shape %s, NumPy %s" % (got.shape, exp.shape)
        assert ng_result.shape == exp.shape
        if check_dtype:
            assert got.dtype == exp.dtype, "dtype %s, NumPy %s" % (got.dtype, exp.dtype)
            assert ng_result.dtype == exp.dtype
        assert_values(got, exp, rtol=rtol, atol=atol)
        return
    # A Python scalar (or None) from NumPy: numgpu must give an equal one.
    assert not isinstance(ng_result, ng.ndarray), "expected a Python %s, got an array" % type(np_result).__name__
    assert type(ng_result) is type(np_result), "type %s, NumPy %s" % (type(ng_result), type(np_result))
    if isinstance(np_result, float) and np.isnan(np_result):
        assert np.isnan(ng_result)
    else:
        assert ng_result == np_result


def assert_values(got, exp, rtol=None, atol=0.0):
    """Values of two host arrays of one shape: exact for ints/bools, else close."""
    got = np.asarray(got)
    exp = np.asarray(exp)
    assert got.shape == exp.shape, "shape %s, expected %s" % (got.shape, exp.shape)
    if exp.dtype.kind in "biu" and got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, exp)
        return
    if rtol is None:
        dt = exp.dtype if exp.dtype.kind in "fc" else got.dtype
        rtol = DEFAULT_RTOL.get(np.dtype(dt), 1e-12)
    if np.float16 in (exp.dtype, got.dtype):
        atol = max(atol, FLOAT16_ATOL)
    if got.size:
        np.testing.assert_array_equal(np.isnan(got), np.isnan(exp), err_msg="NaN positions differ")
    np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)


def data(dtype, shape=(7,), seed=0, kind="any"):
    """Reproducible test data of `dtype` and `shape`.

    kind: "any" (ints in a modest range with negatives where signed, floats
    ~N(0, 10)), "positive" (> 0), "nonneg" (>= 0), "nonzero", "unit" (|x| <= 1,
    floats; ints in {-1, 0, 1} / {0, 1}), "small" (ints 0..4 / floats 0..4),
    "shift" (0 .. bits-1). Complex: real and imaginary parts each drawn as for
    the float of half the size (the imaginary part in "unit" for "positive").
    """
    dt = np.dtype(dtype)
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    if dt.kind == "c":  # both parts from the real recipe ("positive": positive real parts)
        part = np.float32 if dt == np.complex64 else np.float64
        re = data(part, shape, seed, kind)
        im = data(part, shape, seed + 1000, "unit" if kind in ("positive", "nonneg") else kind)
        return np.asarray(re + 1j * im, dtype=dt)
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        if kind in ("positive", "nonzero"):
            return np.ones(shape, dt)
        return np.asarray(rng.random(shape) < 0.5)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        signed = dt.kind == "i"
        lo, hi = {
            "any": (-100 if signed else 0, 100 if signed else 200),
            "positive": (1, 100),
            "nonneg": (0, 100),
            "nonzero": (-100 if signed else 1, 100),
            "unit": (-1 if signed else 0, 2),
            "small": (0, 5),
            "shift": (0, dt.itemsize * 8),
        }[kind]
        lo, hi = max(lo, info.min), min(hi, int(info.max) + 1)
        x = rng.integers(lo, hi, size=shape, dtype=dt)
        x = np.asarray(x)
        if kind == "nonzero":
            x[x == 0] = 1
        return x
    if kind == "any":
        x = rng.standard_normal(shape) * 10
    elif kind in ("positive", "nonzero"):
        x = rng.uniform(0.1, 20, shape) * (rng.choice([-1, 1], shape) if kind == "nonzero" else 1)
    elif kind == "nonneg":
        x = rng.uniform(0, 20, shape)
    elif kind == "unit":
        x = rng.uniform(-1, 1, shape)
    elif kind == "small":
        x = rng.uniform(0, 4, shape)
    elif kind == "shift":
        x = rng.uniform(0, 8, shape)
    else:
        raise ValueError(kind)
    return np.asarray(x, dtype=dt)


def call_both(np_func, ng_func, np_args, ng_args=None, kwargs=None, rtol=None, atol=0.0):
    """Runs np_func on host inputs and ng_func on device copies; asserts the
    same result, or the same exception type when NumPy raises TypeError,
    ValueError, OverflowError or an AxisError/IndexError."""
    kwargs = kwargs or {}
    if ng_args is None:
        ng_args = [ng.asarray(a) if isinstance(a, np.ndarray) else a for a in np_args]
    try:
        with np.errstate(all="ignore"):
            expected = np_func(*np_args, **kwargs)
    except (TypeError, ValueError, OverflowError, IndexError) as e:
        with pytest.raises(type(e) if type(e).__module__ == "builtins" else _builtin_base(e)):
            with np.errstate(all="ignore"):
                ng_func(*ng_args, **kwargs)
        return None
    with np.errstate(all="ignore"):   # (the errstate NumPy's result was computed under)
        got = ng_func(*ng_args, **kwargs)
    assert_same(got, expected, rtol=rtol, atol=atol)
    return got


def _builtin_base(e):
    for t in type(e).__mro__:
        if t.__module__ == "builtins":
            return t
    return Exception


def case_id(v):
    """pytest id for one parameter value: dtype names instead of class reprs."""
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    if isinstance(v, np.dtype):
        return v.name
    return repr(v) if not isinstance(v, str) else v


def _same_value(g, w):
    if isinstance(w, tuple):
        return isinstance(g, tuple) and len(g) == len(w) and all(_same_value(a, b) for a, b in zip(g, w))
    if isinstance(w, np.ndarray):
        return np.array_equal(np.asarray(g), w, equal_nan=w.dtype.kind in "fc")
    return g == w or (g != g and w != w)  # (NaN where Python gives NaN)


def jit_same(fn, *args):
    """@numgpu.jit(fn) against plain fn on copies of args: the result's type (each
    item's, for a tuple) and value (NaN equal to NaN), and every array argument
    afterwards (in-place writes), dtype included. Returns the jitted function."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    f = ng.jit(fn)
    with np.errstate(all="ignore"):
        want = fn(*plain)
        got = f(*mine)
    assert type(got) is type(want), (got, want)
    if isinstance(want, tuple):
        assert [type(g) for g in got] == [type(w) for w in want], (got, want)
    assert _same_value(got, want), (got, want)
    for p, m in zip(plain, mine):
        if isinstance(p, np.ndarray):
            assert m.dtype == p.dtype
            np.testing.assert_array_equal(m, p)
    return f


def outcome(fn, *args):
    """fn(*args) on copies of the arrays: ("ok", result, args), or, where it raises
    what Python raises in arithmetic (ValueError, OverflowError, ZeroDivisionError),
    (its type, its words, args)."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with np.errstate(all="ignore"):
            return ("ok", fn(*args), args)
    except (ValueError, OverflowError, ZeroDivisionError) as e:
        return (type(e), str(e), args)


def python_and_jit(fn, *args):
    """fn and @numgpu.jit(fn) each on copies of args: ("ok", "") or (exception type, its words
    without the file and line the jit names) for each, and the jitted function."""
    out = []
    f = ng.jit(fn)
    for g in (fn, f):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        try:
            with np.errstate(all="ignore"):
                g(*copies)
            out.append(("ok", ""))
        except (IndexError, ValueError, TypeError, OverflowError, ZeroDivisionError) as e:
            out.append((type(e), str(e).split(".py:")[-1].split(": ", 1)[-1]))
    return out[0], out[1], f


def module_function(folder, module, source, name):
    """Function `name` of `source` written as module `module` in `folder` and imported (numgpu.jit
    reads a function's source from its file)."""
    path = os.path.join(str(folder), module + ".py")
    with open(path, "w") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(module, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def store_each(folder, module, what, X):
    """`def f(X, out): for i in range(X.shape[0]): out[i] = <what>` written as module `module` in
    `folder` and imported, and NumPy's own `what` for each i, stacked (what out should hold)."""
    with np.errstate(all="ignore"):
        want = np.stack([eval(what, {"np": np, "X": X, "i": i}) for i in range(X.shape[0])])
    src = f"import numpy as np\n\ndef f(X, out):\n    for i in range(X.shape[0]):\n        out[i] = {what}\n"
    return module_function(folder, module, src, "f"), want


def parts(rng, dt, shape=(5, 6, 7)):
    """A stack of parts in dtype dt: floats around 0 of spread 3, integers in [-9, 9)."""
    kind = np.dtype(dt).kind
    return (rng.standard_normal(shape) * 3 if kind == "f" else rng.integers(-9, 9, shape)).astype(dt)


# ---- NumPy's functions composed of device ops (test_numeric_funcs, test_extra_funcs, test_mathx,
# test_indexx): each test also proves that nothing fell back to NumPy -------------------------------

def fallback_calls():
    """Calls per function that ran on NumPy through the fallback so far."""
    from numgpu import _fallback
    return {name: rec[0] for name, rec in _fallback.counts.items()}


@pytest.fixture(autouse=True)
def no_fallback(request):
    """Autouse in the modules that import it: a test may not fall back to NumPy (tests named
    test_fallback* check their own counts)."""
    before = fallback_calls()
    yield
    if not request.node.name.startswith("test_fallback"):
        assert fallback_calls() == before, "fell back to NumPy"


def on_device(v):
    """NumPy arrays (also inside lists and tuples, nested) as numgpu arrays."""
    if isinstance(v, np.ndarray):
        return ng.asarray(v)
    if isinstance(v, (list, tuple)) and any(isinstance(x, (np.ndarray, list, tuple)) for x in v):
        return type(v)(on_device(x) for x in v)
    return v


def both(name, *args, rtol=None, atol=0.0, **kwargs):
    """numgpu's `name` against NumPy's on the same arguments (arrays uploaded): the same result, or
    NumPy's exception type where it raises."""
    return call_both(getattr(np, name), getattr(ng, name), list(args), [on_device(a) for a in args], kwargs,
                     rtol=rtol, atol=atol)


def raises_as_numpy(name, *args, match=None, **kwargs):
    """numgpu raises the exception NumPy raises for these arguments (its message where given)."""
    with pytest.raises(Exception) as want:
        getattr(np, name)(*args, **kwargs)
    with pytest.raises(type(want.value), match=match) as got:
        getattr(ng, name)(*[on_device(a) for a in args], **kwargs)
    return got.value


def views(x):
    """x and views of it: transposed, reversed, every other element reversed."""
    return [x, x.T, x[::-1], x[..., ::-2]]


def same_under_numgpu_run(script, *options):
    """Runs the script file with plain Python (NumPy) and under `python -m numgpu run --no-report
    *options`: both must succeed and print the same."""
    import subprocess
    import sys
    plain = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    served = subprocess.run([sys.executable, "-m", "numgpu", "run", "--no-report", *options, str(script)],
                            capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stderr
    assert served.returncode == 0, served.stderr
    assert served.stdout == plain.stdout


def numpy_pairwise_tree(x, start):
    """NumPy's pairwise sum of 1-d x in x's dtype (its @TYPE@_pairwise_sum), a run of fewer than 8
    elements summed from `start` (NumPy's add loop starts a reduction's runs from -0.0, its
    pairwise_sum's short runs from 0 where the caller adds to 0)."""
    T = x.dtype.type

    def pw(lo, n):
        if n < 8:
            r = T(start)
            for i in range(lo, lo + n):
                r = T(r + x[i])
            return r
        if n <= 128:
            r = [x[lo + j] for j in range(8)]
            i = 8
            while i < n - n % 8:
                r = [T(r[j] + x[lo + i + j]) for j in range(8)]
                i += 8
            res = T(T(T(r[0] + r[1]) + T(r[2] + r[3])) + T(T(r[4] + r[5]) + T(r[6] + r[7])))
            for i in range(i, n):
                res = T(res + x[lo + i])
            return res
        n2 = n // 2
        n2 -= n2 % 8
        return T(pw(lo, n2) + pw(lo + n2, n - n2))

    return pw(0, len(x))


def device_param(request):
    """A fixture body for params=["cpu", "opencl"]: the device the jit launches on, set for the test
    (NUMGPU_DEVICE is read once, at a process's first array: set_device, so both run in one process;
    opencl skipped where no platform opens). Yields the device name."""
    import os
    import pytest
    import numgpu
    if request.param == "opencl":
        try:
            numgpu.zeros(1, device="opencl")
        except Exception as exc:  # (no OpenCL platform here)
            pytest.skip("no opencl device: %s" % exc)
    prev = numgpu.set_device(request.param)
    yield request.param
    numgpu.set_device(prev or os.environ.get("NUMGPU_DEVICE") or "auto")
