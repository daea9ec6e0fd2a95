"""NumPy's ufuncs of the operators and their kin as scalar functions in @numgpu.jit loops,
`np.add(a[i], b[i])`, `np.floor_divide`, `np.logical_and`, `np.left_shift`, `np.reciprocal`,
`np.signbit` ...: ufunc semantics (np.divide(1.0, 0.0) is inf, np.floor_divide(7, 0) is 0),
NumPy's result dtypes (NEP 50: a Python int the other operand's dtype cannot hold is an
OverflowError) and NumPy's TypeErrors. Before 2026-12-05 each such loop ran as Python.
Against plain Python (NumPy's scalars), on every device."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, module_function, python_and_jit

BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod", "fmod",
          "logaddexp", "logaddexp2", "heaviside", "nextafter", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "maximum", "arctan2"]
UNARY = ["negative", "positive", "reciprocal", "invert", "bitwise_not", "logical_not", "signbit", "degrees",
         "radians"]
DTYPES = [np.int8, np.uint8, np.int64, np.float32, np.float64, np.bool_]
PAIRS = [(d, d) for d in DTYPES] + [(np.int8, np.uint8), (np.uint8, np.int64), (np.int8, np.float32),
                                     (np.float32, np.float64), (np.bool_, np.int8), (np.int64, np.float64),
                                     (np.uint8, np.bool_)]
MATH = {"logaddexp", "logaddexp2", "arctan2"}  # (exp, log1p, atan2: glibc's within 4 ulps, README)


def same_within_ulps(fn, a, b, out):
    """fn's results within a few ulps of the dtype NumPy computes in (the narrower of the
    arguments' float dtypes: a float16 for bytes)."""
    want, got = out.copy(), out.copy()
    with np.errstate(all="ignore"):
        fn(a, b, want)
    f = numgpu.jit(fn)
    f(a, b, got)
    size = min(np.dtype(a.dtype).itemsize, np.dtype(b.dtype).itemsize, out.dtype.itemsize)
    rtol = {1: 4e-3, 2: 4e-3, 4: 5e-7}.get(size, 1e-15)
    np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)
    return f


def values(dt):
    v = np.array([-7, -1, 0, 1, 3, 5, 100, -100, 2, 6])
    if dt is np.bool_:
        return v % 3 == 0
    if np.issubdtype(dt, np.floating):
        f = np.concatenate([v * 0.75, [np.nan, np.inf, -np.inf, -0.0, 0.5]])
        return f.astype(dt)
    return v.astype(dt) if np.issubdtype(dt, np.signedinteger) else (v % 7).astype(dt)


def make(folder, name, call):
    """`for i ...: out[i] = <call>`, from a module of its own in `folder`."""
    return module_function(folder, "uf_" + name, "import numpy as np\n\n\ndef f(a, b, out):\n"
                           "    for i in range(a.shape[0]):\n        out[i] = %s\n" % call, "f")


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufuncs_of_dtype_pairs(name, tmp_path):
    fn = make(tmp_path, name, "np.%s(a[i], b[i])" % name)
    compiled = 0
    for da, db in PAIRS:
        a, b = values(da), np.roll(values(db), 3)
        n = min(len(a), len(b))
        a, b = a[:n], b[:n]
        with np.errstate(all="ignore"):
            try:
                rdt = np.asarray(getattr(np, name)(a[0], b[0])).dtype
            except TypeError:
                rdt = None
        if rdt is None:  # (NumPy's TypeError: the jit's too)
            py, jit, f = python_and_jit(fn, a, b, np.zeros(n))
            assert issubclass(py[0], TypeError) and issubclass(jit[0], TypeError), (name, da, db, py, jit)
            continue
        f = (same_within_ulps if name in MATH else jit_same)(fn, a, b, np.zeros(n, rdt))
        compiled += f.loop_report()[0]["kind"] == "parallel"
    assert compiled > 0


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufuncs_of_an_array_and_a_python_number(name, tmp_path):
    """NEP 50: a Python number takes the array's dtype (a Python float beside an integer:
    float64)."""
    for g in (make(tmp_path, name + "_r", "np.%s(a[i], 3)" % name),
              make(tmp_path, name + "_l", "np.%s(2.5, a[i])" % name)):
        for dt in DTYPES:
            a = values(dt)
            py, jit, f = python_and_jit(g, a, a, np.zeros(len(a), np.float64))
            assert py[0] == jit[0], (name, dt, py, jit)
            if py[0] == "ok":
                (same_within_ulps if name in MATH else jit_same)(g, a, a, np.zeros(len(a), np.float64))


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufuncs_of_every_dtype(name, tmp_path):
    fn = make(tmp_path, "u_" + name, "np.%s(a[i])" % name)
    for dt in DTYPES:
        a = values(dt)
        with np.errstate(all="ignore"):
            try:
                rdt = np.asarray(getattr(np, name)(a[0])).dtype
            except TypeError:
                rdt = None
        if rdt is None:
            py, jit, f = python_and_jit(fn, a, a, np.zeros(len(a)))
            assert issubclass(py[0], TypeError) and issubclass(jit[0], TypeError), (name, dt, py, jit)
            continue
        f = jit_same(fn, a, a, np.zeros(len(a), rdt))
        assert f.loop_report()[0]["kind"] == "parallel"


def test_a_python_int_the_other_dtype_cannot_hold_is_numpys_overflowerror(tmp_path):
    fn = make(tmp_path, "bounds", "np.maximum(a[i], 300) + np.add(b[i], -129)")
    a = np.arange(5, dtype=np.int8)
    py, jit, f = python_and_jit(fn, a, a, np.zeros(5))
    assert py[0] is OverflowError and jit == py, (py, jit)
    jit_same(fn, a.astype(np.int16), a.astype(np.int16), np.zeros(5))


def rounded(x, out):
    for i in range(x.shape[0]):
        out[i, 0] = np.round(x[i])
        out[i, 1] = np.round(x[i], 2)
        out[i, 2] = np.around(x[i], -2)
        out[i, 3] = np.round(x[i] * 10.0, 1) + np.round(2.5) + np.round(3)


def rounded_int(a, out):
    for i in range(a.shape[0]):
        out[i] = np.round(a[i]) + np.round(a[i], 3)


def rounded_int_negative(a, out):
    for i in range(a.shape[0]):
        out[i] = np.round(a[i], -1)  # (an integer to tens: the loop runs as Python)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16])
def test_np_round_to_decimals_as_numpy(dt):
    rng = np.random.default_rng(35)
    x = np.concatenate([rng.uniform(-3000, 3000, 40), [2.675, 0.125, -0.5, 0.5, 1.5, 2.5, 1e300, np.nan, np.inf,
                                                       -0.0]]).astype(dt)
    f = jit_same(rounded, x, np.zeros((len(x), 4), dt))
    assert f.loop_report()[0]["kind"] == "parallel"


def test_np_round_of_integers():
    a = np.arange(-50, 50, 7, dtype=np.int16)
    f = jit_same(rounded_int, a, np.zeros(len(a), np.int16))
    assert f.loop_report()[0]["kind"] == "parallel"
    f = jit_same(rounded_int_negative, a, np.zeros(len(a), np.int16))
    assert f.loop_report()[0]["kind"] == "python"


def isclose_all_ways(a, b, o1, o2, o3):
    for i in range(a.shape[0]):
        o1[i] = np.isclose(a[i], b[i])
        o2[i] = np.isclose(a[i], b[i], rtol=1e-3, equal_nan=True)
        o3[i] = np.isclose(b[i], 3, 0.5, atol=2)


def count_close(a, t):
    n = 0
    for i in range(a.shape[0]):
        if np.isclose(a[i], t, 1e-2, 1e-3):
            n += 1
    return n


def float_powers(a, b, out):
    for i in range(a.shape[0]):
        out[i] = np.float_power(a[i], 2.5) if a[i] > 0 else np.float_power(b[i], -1)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16, np.int32, np.uint8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_isclose_of_numbers_as_numpys(dt):
    # (before 2026-12-05 these ran as Python: "calls np.isclose (not compilable)")
    rng = np.random.default_rng(91)
    a = (rng.standard_normal(300) * 10).astype(dt)
    b = a.copy()
    if np.dtype(dt).kind == "f":
        b[::3] *= dt(1 + 1e-6)
        b[1::5] += dt(0.001)
        b[::7] = np.nan
        a[::14] = np.nan
        a[5] = b[5] = np.inf
        a[6], b[6] = np.inf, -np.inf
        a[8], b[8] = 1.0, np.inf
    elif dt != np.bool_:
        b[::3] += 1
    f = jit_same(isclose_all_ways, a, b, *[np.zeros(300, bool) for _ in range(3)])
    assert f.loop_report()[0]["ran"] == "kernel"
    for t in (3, 3.0, 0.5):
        f = jit_same(count_close, a, t)
        assert f.loop_report()[0]["ran"] == "kernel"


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.uint8], ids=lambda d: np.dtype(d).name)
def test_float_power_in_float64(dt):
    rng = np.random.default_rng(92)
    a = (rng.standard_normal(300) * 10).astype(dt)
    b = (rng.standard_normal(300) * 10).astype(dt)
    want, got = np.zeros(300), np.zeros(300)
    with np.errstate(divide="ignore"):
        float_powers(a, b, want)
    f = numgpu.jit(float_powers)
    f(a, b, got)  # (a Python int exponent with uint8: NumPy's float64 loop, no OverflowError)
    assert f.loop_report()[0]["ran"] == "kernel"
    np.testing.assert_allclose(got, want, rtol=4e-16)  # (pow through the vector math library: an ulp or so)


def test_isclose_arguments_python_refuses(tmp_path):
    src = ("import numpy as np\n\ndef f(a, out):\n    for i in range(a.shape[0]):\n        out[i] = %s\n")
    a = np.linspace(0, 1, 10)
    for call in ("np.isclose(a[i], 0.5, rtol=1e-3, rtol=1e-2)", "np.isclose(a[i], 0.5, 1e-3, rtol=1e-2)",
                 "np.isclose(a[i], 0.5, tol=1)", "np.isclose(a[i])", "np.isclose(a[i], 1j)"):
        try:
            fn = module_function(tmp_path, "isclose_%d" % abs(hash(call)), src % call, "f")
        except SyntaxError:
            continue  # (a keyword twice: Python's own SyntaxError)
        p, j, f = python_and_jit(fn, a, np.zeros(10, bool))
        assert p == j, call
        assert not f.loop_report()[0]["ran"].startswith("kernel") or call.endswith("1j)")


def gcds(a, b, g, l, m):
    for i in range(a.shape[0]):
        g[i] = np.gcd(a[i], b[i])
        l[i] = np.lcm(a[i], b[i])
        m[i] = math.gcd(a[i], b[i], 12) - math.gcd(b[i] // 3) + math.gcd()


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int32, np.int64, np.uint64], ids=lambda d: np.dtype(d).name)
def test_gcd_and_lcm_as_numpys_and_pythons(dt):
    # (before 2026-12-05 these ran as Python: "calls math.gcd (not compilable)")
    rng = np.random.default_rng(93)
    info = np.iinfo(dt)
    a = rng.integers(max(info.min, -1000), min(info.max, 1000), 400, endpoint=True).astype(dt)
    b = rng.integers(max(info.min, -1000), min(info.max, 1000), 400, endpoint=True).astype(dt)
    a[:4] = [0, 0, info.max, info.min]
    b[:4] = [0, 7, info.max, 0 if dt != np.uint64 else 12]  # (int64's least: NumPy's wraps; Python's is 2**63)
    if dt == np.int64:
        a[3] = info.min + 2
    f = jit_same(gcds, a, b, np.zeros(400, dt), np.zeros(400, dt), np.zeros(400, np.int64))
    assert f.loop_report()[0]["ran"] == "kernel"


def test_gcd_errors_as_numpys_and_pythons(tmp_path):
    src = ("import math\nimport numpy as np\n\ndef f(a, out):\n    for i in range(a.shape[0]):\n        out[i] = %s\n")
    for call, arr in (("np.gcd(a[i], 2)", np.arange(5.0)), ("np.gcd(a[i], a[i])", np.ones(5, bool)),
                      ("math.gcd(a[i], 4)", np.arange(5.0)), ("np.gcd(a[i], 300)", np.arange(5, dtype=np.int8)),
                      ("math.gcd(a[i], 0)", np.array([-2**63, 4], np.int64)),
                      ("np.gcd(a[i], -2**63)", np.array([0, 4], np.int64))):
        fn = module_function(tmp_path, "gcd_%d" % abs(hash(call + str(arr.dtype))), src % call, "f")
        p, j, f = python_and_jit(fn, arr, np.zeros(len(arr), np.int64))
        if call.startswith("math.gcd(a[i], 0)"):  # 2**63: a Python int no int64 holds
            assert p[0] is OverflowError and j[0] is OverflowError
            continue
        assert p == j, (call, p, j)
