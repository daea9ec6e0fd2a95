"""math.* and NumPy's scalar functions inside compiled loops, against plain
Python on the same values: each function over a domain where it is defined,
on float64 and float32 arrays (and int64, which NumPy and math take to
float64). Results within 4 units in the last place of Python's (8 for gamma and lgamma, which
CPython computes its own way; the bound
NumPy's own SIMD functions and the OpenCL and CUDA math libraries keep),
integers exactly, in the dtype plain Python gives (math.* returns a Python
float; np.* keeps float32 as float32). The kernels are written to a module
of their own so that @numgpu.jit can read their source."""
import importlib.util
import math

import numpy as np
import pytest

import numgpu as ng

# name -> (low, high) of the argument
DOMAINS = {
    "sqrt": (0.0, 100.0), "cbrt": (-10.0, 10.0), "exp": (-20.0, 20.0), "exp2": (-20.0, 20.0),
    "expm1": (-2.0, 2.0), "erf": (-3.0, 3.0), "erfc": (-3.0, 6.0), "log": (0.01, 100.0),
    "log2": (0.01, 100.0), "log10": (0.01, 100.0),
    "log1p": (-0.5, 10.0), "sin": (-20.0, 20.0), "cos": (-20.0, 20.0), "tan": (-1.5, 1.5),
    "asin": (-1.0, 1.0), "acos": (-1.0, 1.0), "atan": (-10.0, 10.0), "sinh": (-5.0, 5.0),
    "cosh": (-5.0, 5.0), "tanh": (-3.0, 3.0), "asinh": (-10.0, 10.0), "acosh": (1.0, 20.0),
    "atanh": (-0.99, 0.99), "fabs": (-5.0, 5.0), "degrees": (-7.0, 7.0), "radians": (-400.0, 400.0),
    "floor": (-5.0, 5.0), "ceil": (-5.0, 5.0), "trunc": (-5.0, 5.0), "gamma": (0.05, 20.0),
    "lgamma": (0.05, 100.0),
}
MATH_ONLY = ("erf", "erfc", "gamma", "lgamma")  # (NumPy has no such functions)
NP_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
            "atanh": "arctanh", "degrees": "rad2deg", "radians": "deg2rad"}
MATH_FNS = sorted(DOMAINS)
NP_FNS = sorted(NP_NAMES.get(n, n) for n in DOMAINS if n not in MATH_ONLY) + ["rint", "square", "sign", "abs"]
NP_DOMAIN = {NP_NAMES.get(n, n): d for n, d in DOMAINS.items() if n not in MATH_ONLY}
NP_DOMAIN.update(rint=(-5.0, 5.0), square=(-100.0, 100.0), sign=(-2.0, 2.0), abs=(-5.0, 5.0))
MATH2 = {"pow": ((0.01, 3.0), (-4.0, 4.0)), "atan2": ((-1.0, 1.0), (-1.0, 1.0)),
         "hypot": ((-10.0, 10.0), (-10.0, 10.0)), "fmod": ((-20.0, 20.0), (0.5, 3.0)),
         "copysign": ((-5.0, 5.0), (-1.0, 1.0))}
NP2 = {"power": MATH2["pow"], "arctan2": MATH2["atan2"], "hypot": MATH2["hypot"],
       "maximum": ((-1.0, 1.0), (-1.0, 1.0)), "minimum": ((-1.0, 1.0), (-1.0, 1.0)),
       "copysign": MATH2["copysign"]}

SOURCE = "import math\nimport numpy as np\n\n"
for _n in MATH_FNS:
    SOURCE += "def math_%s(x, out):\n    for i in range(x.shape[0]):\n        out[i] = math.%s(x[i])\n\n" % (_n, _n)
for _n in NP_FNS:
    SOURCE += "def np_%s(x, out):\n    for i in range(x.shape[0]):\n        out[i] = np.%s(x[i])\n\n" % (_n, _n)
SOURCE += "def math_factorial(x, out):\n    for i in range(x.shape[0]):\n        out[i] = math.factorial(x[i])\n\n"
for _n in MATH2:
    SOURCE += "def math_%s(x, y, out):\n    for i in range(x.shape[0]):\n        out[i] = math.%s(x[i], y[i])\n\n" \
        % (_n, _n)
for _n in NP2:
    SOURCE += "def np_%s(x, y, out):\n    for i in range(x.shape[0]):\n        out[i] = np.%s(x[i], y[i])\n\n" \
        % (_n, _n)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("jit_math") / "math_kernels.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("math_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def args_in(domain, dtype, n, seed):
    lo, hi = domain
    if np.dtype(dtype).kind == "i":
        return np.random.default_rng(seed).integers(math.ceil(lo), math.floor(hi) + 1, n).astype(dtype)
    x = np.random.default_rng(seed).uniform(lo, hi, n).astype(dtype)
    x[:2] = lo, hi  # the ends themselves (acos(1), sqrt(0), ...)
    return x


# CPython computes gamma and lgamma its own way, not with C's tgamma and lgamma: (ulps, and the
# least magnitude they are counted at: lgamma's zeros at 1 and 2 leave an absolute error there)
TOLERANCE = {"math_gamma": (8, 0.0), "math_lgamma": (8, 1.0)}


def check(fn, *args):
    """fn jitted against fn in plain Python: out's values within 4 ulp, computed in
    the same dtype (a float32 result stored into float64 is still a float32's)."""
    out = np.zeros(args[0].shape[0])
    want = out.copy()
    with np.errstate(all="ignore"):
        fn(*args, want)
    f = ng.jit(fn)
    f(*args, out)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    assert np.array_equal(np.isnan(out), np.isnan(want))
    ok = ~np.isnan(want)
    if fn.__name__ != "math_gamma" and np.array_equal(want, np.round(want)) and all(a.dtype.kind == "i" for a in args):
        np.testing.assert_array_equal(out, want)
        return
    single = any(a.dtype == np.float32 for a in args) and fn.__name__.startswith("np_")
    ulps, least = TOLERANCE.get(fn.__name__, (4, 0.0))
    ulp = np.spacing(np.maximum(np.abs(want[ok]), least).astype(np.float32 if single else np.float64))
    err = np.abs(out[ok] - want[ok])
    bad = err > ulps * ulp.astype(np.float64)
    assert not bad.any(), (fn.__name__, args[0][ok][bad][:5], out[ok][bad][:5], want[ok][bad][:5])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", MATH_FNS)
def test_math_unary(kernels, name, dtype):
    if np.dtype(dtype).kind == "i" and name in ("asin", "acos", "atanh", "log1p"):
        pytest.skip("few integers in the domain")
    if name == "trunc" and dtype != np.float64:
        pytest.skip("plain Python raises: NumPy's float32 and int64 have no __trunc__")
    check(getattr(kernels, "math_" + name), args_in(DOMAINS[name], dtype, 3001, 1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NP_FNS)
def test_numpy_unary(kernels, name, dtype):
    if np.dtype(dtype).kind == "i" and name in ("arcsin", "arccos", "arctanh", "log1p"):
        pytest.skip("few integers in the domain")
    check(getattr(kernels, "np_" + name), args_in(NP_DOMAIN[name], dtype, 3001, 2))


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(MATH2))
def test_math_binary(kernels, name, dtype):
    dx, dy = MATH2[name]
    check(getattr(kernels, "math_" + name), args_in(dx, dtype, 3001, 3), args_in(dy, dtype, 3001, 4))


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(NP2))
def test_numpy_binary(kernels, name, dtype):
    dx, dy = NP2[name]
    check(getattr(kernels, "np_" + name), args_in(dx, dtype, 3001, 5), args_in(dy, dtype, 3001, 6))


def test_math_it_does_not_compile_stays_python_and_says_so(kernels):
    x = np.arange(10)
    out = np.zeros(10)
    f = ng.jit(kernels.math_factorial)
    f(x, out)
    np.testing.assert_array_equal(out, [math.factorial(v) for v in x])
    r = f.loop_report()[0]
    assert r["kind"] == "python" and "math.factorial" in r["reason"], r
