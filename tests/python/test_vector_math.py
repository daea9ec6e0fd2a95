"""The cpu device's math functions, against Python's math module element by
element. Kernels on cpu let the C compiler call glibc's vector math library
(libmvec) for sin, exp, log, pow, ... in vectorised loops: results within a
few units in the last place of the correctly rounded value, as NumPy's own
SIMD functions are. NUMGPU_VECTOR_MATH=0 keeps the scalar libm, whose results
are the ones Python's math module gives, bit for bit (hypot, which CPython
computes its own way, within one). Both runs happen in
fresh processes on the cpu device with caches of their own (the setting is
part of the compiled kernel's key)."""
import json
import os
import platform
import subprocess
import sys

import pytest

# (cpu only: run in the default pass; the suite's second pass on another device would repeat it)
pytestmark = pytest.mark.skipif(os.environ.get("NUMGPU_DEVICE", "auto") not in ("auto", "cpu"),
                                reason="a cpu-device test, run in the default pass")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# name -> (expression of t in [0.05, 0.95) as the call's argument(s), for the jitted loop and for math)
CALLS = {
    "sin": "math.sin(t * 40.0 - 20.0)", "cos": "math.cos(t * 40.0 - 20.0)", "tan": "math.tan(t * 3.0 - 1.5)",
    "asin": "math.asin(t * 2.0 - 1.0)", "acos": "math.acos(t * 2.0 - 1.0)", "atan": "math.atan(t * 20.0 - 10.0)",
    "sinh": "math.sinh(t * 10.0 - 5.0)", "cosh": "math.cosh(t * 10.0 - 5.0)", "tanh": "math.tanh(t * 6.0 - 3.0)",
    "asinh": "math.asinh(t * 20.0 - 10.0)", "acosh": "math.acosh(1.0 + t * 20.0)",
    "atanh": "math.atanh(t * 2.0 - 1.0)", "exp": "math.exp(t * 40.0 - 20.0)", "exp2": "math.exp2(t * 40.0 - 20.0)",
    "expm1": "math.expm1(t * 4.0 - 2.0)", "log": "math.log(t * 100.0)", "log2": "math.log2(t * 100.0)",
    "log10": "math.log10(t * 100.0)", "log1p": "math.log1p(t * 10.0 - 0.5)", "cbrt": "math.cbrt(t * 20.0 - 10.0)",
    "erf": "math.erf(t * 6.0 - 3.0)", "erfc": "math.erfc(t * 6.0 - 3.0)", "pow": "math.pow(t * 3.0, t * 8.0 - 4.0)",
    "atan2": "math.atan2(t - 0.5, 0.6 - t)", "hypot": "math.hypot(t * 10.0, 3.0 - t)",
}
if sys.version_info < (3, 11):  # math.exp2 and math.cbrt came with Python 3.11
    CALLS.pop("exp2"), CALLS.pop("cbrt")

SCRIPT = """
import json, math, sys
import numpy as np
import numgpu

%s

calls = %r
x = np.random.default_rng(3).uniform(0.05, 0.95, 20000)
worst = {}
for name in calls:
    out = np.zeros_like(x)
    f = numgpu.jit(globals()["k_" + name])
    f(x, out)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    want = np.array([eval(calls[name], {"math": math, "t": float(t)}) for t in x])
    worst[name] = float((np.abs(out - want) / np.spacing(np.abs(want))).max())
print(json.dumps(worst))
"""

# one loop per function, out[i] = f(x[i]): the C compiler vectorises each (and calls libmvec)
KERNEL = "def k_%s(x, out):\n    for i in range(x.shape[0]):\n        t = x[i]\n        out[i] = %s\n"


def run_script(tmp_path, source, vector_math):
    """source run as a script in a fresh process on the cpu device, with a cache of its own and
    the vector math on or off: the JSON its last line prints."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "script.py"
    script.write_text(source)
    env = dict(os.environ, NUMGPU_DEVICE="cpu", NUMGPU_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(REPO, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMGPU_VECTOR_MATH", None)
    if not vector_math:
        env["NUMGPU_VECTOR_MATH"] = "0"
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def worst_ulps(tmp_path, vector_math):
    kernels = "\n".join(KERNEL % (name, call) for name, call in CALLS.items())
    return run_script(tmp_path, SCRIPT % (kernels, CALLS), vector_math)


def libmvec_expected():
    """True where the prologue declares the vector variants: x86-64 with glibc 2.35 or later."""
    lib, version = platform.libc_ver()
    return platform.machine() == "x86_64" and lib == "glibc" and tuple(map(int, version.split(".")[:2])) >= (2, 35)


def test_vector_math_within_four_ulps(tmp_path):
    worst = worst_ulps(tmp_path, True)
    assert set(worst) == set(CALLS)
    assert max(worst.values()) <= 4.0, worst
    if libmvec_expected():  # (the vector variants were called: not every result is the scalar one)
        assert sum(1 for name, u in worst.items() if u > 0 and name != "hypot") >= 5, worst


def test_scalar_math_is_pythons(tmp_path):
    worst = worst_ulps(tmp_path, False)
    # (CPython computes hypot itself, not with C's hypot: within an ulp of it)
    assert worst == {name: 1.0 if name == "hypot" and worst[name] == 1.0 else 0.0 for name in CALLS}, worst



SUMS = """
import json, math
import numpy as np
import numgpu

def sums(X, out):
    for i in range(X.shape[0]):
        out[i] = np.sum(np.exp(X[i] * 0.5)) + np.sum(np.sin(X[i]) + 2.0)

worst, differ = 0.0, 0
rng = np.random.default_rng(5)
for n in (7, 8, 9, 16, 37, 100):
    X = rng.uniform(-4.0, 4.0, (50, n))
    out = np.zeros(50)
    f = numgpu.jit(sums)
    f(X, out)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    for i in range(50):  # (NumPy's pairwise order of Python's math values)
        want = np.sum(np.array([math.exp(v * 0.5) for v in X[i]])) + np.sum(np.array([math.sin(v) + 2.0 for v in X[i]]))
        worst = max(worst, abs(out[i] - want) / np.spacing(want))
        differ += out[i] != want
print(json.dumps([worst, int(differ)]))
"""


def test_sums_of_math_of_rows(tmp_path):
    """np.sum(np.exp(X[i])): each block of 8 elements made in a loop of its own, which the C
    compiler's vector math takes 8 at a time, then added in NumPy's pairwise order: within a few
    ulps of the scalar values' sum; with NUMGPU_VECTOR_MATH=0, those values' sum exactly."""
    worst, differ = run_script(tmp_path / "vector", SUMS, True)
    assert worst <= 8.0, worst
    if libmvec_expected():
        assert differ > 0, "no sum took the vector math"
    assert run_script(tmp_path / "scalar", SUMS, False) == [0.0, 0], "scalar sums differ"


POWERS = """
import ctypes, json
import numpy as np
import numgpu

libm = ctypes.CDLL("libm.so.6")
libm.pow.restype, libm.pow.argtypes = ctypes.c_double, (ctypes.c_double, ctypes.c_double)
libm.powf.restype, libm.powf.argtypes = ctypes.c_float, (ctypes.c_float, ctypes.c_float)

def powers(x, e, out):
    for i in range(x.shape[0]):
        out[i] = x[i] ** e[i]

def polynomial(c, x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(c * x[i] ** np.arange(c.shape[0]))

def ulps(got, want):
    if np.isnan(want) or np.isnan(got):
        return 0.0 if np.isnan(want) and np.isnan(got) else float("inf")
    if got == want:
        return 0.0 if np.signbit(got) == np.signbit(want) else float("inf")
    return float(abs(got - want) / np.spacing(abs(want).astype(want.dtype)))

specials = [-0.0, 0.0, -1.0, 1.0, -np.inf, np.inf, np.nan, -2.5, 0.75, -0.75, 1e-300, -1e300]
exps = [0, 1, -1, 2, 3, -3, 7, 8, 2 ** 53 + 1, -(2 ** 53 + 1), 2 ** 60 + 1, 2 ** 53 - 1]
worst, differ = {}, {}
rng = np.random.default_rng(3)
cases = [(np.float64, np.int64, exps), (np.float64, np.int32, [e for e in exps if abs(e) < 2 ** 31]),
         (np.float64, np.int8, [0, 1, -1, 3, -3, 7, 127]), (np.float64, np.uint64, [0, 1, 3, 2 ** 64 - 1, 2 ** 53 + 1]),
         (np.float32, np.int8, [0, 1, -1, 3, -3, 7, 127]), (np.float32, np.int16, [0, 1, 5, -5, 255, 32767])]
for xdt, edt, es in cases:
    with np.errstate(over="ignore"):  # (-1e300 as a float32: -inf)
        x = np.array([a for a in specials for _ in es] + list(rng.uniform(-1.5, 1.5, 300)), xdt)
    e = np.array([b for _ in specials for b in es] + [es[j] for j in rng.integers(0, len(es), 300)], edt)
    out = np.zeros(x.size, np.result_type(x, e))
    f = numgpu.jit(powers)
    with np.errstate(all="ignore"):
        f(x, e, out)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    one = libm.powf if out.dtype == np.float32 else libm.pow
    want = np.array([one(float(a), float(out.dtype.type(b))) for a, b in zip(x, e)], out.dtype)
    u = [ulps(g, w) for g, w in zip(out, want)]
    key = "%s**%s" % (np.dtype(xdt).name, np.dtype(edt).name)
    worst[key] = max(u)
    differ[key] = sum(1 for v in u if v)
for k in (7, 8, 9, 16, 37):
    c, x = rng.standard_normal(k), rng.uniform(-1.0, 1.0, 200)
    out = np.zeros(200)
    f = numgpu.jit(polynomial)
    f(c, x, out)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    terms = [c * np.array([libm.pow(v, float(j)) for j in range(k)]) for v in x]
    want = np.array([np.sum(t) for t in terms])  # (NumPy's pairwise order)
    scale = np.array([np.sum(np.abs(t)) for t in terms])  # (ulps of the terms' size: the sum cancels)
    worst["polynomial%d" % k] = max(abs(out - want) / np.spacing(scale))
    differ["polynomial%d" % k] = int((out != want).sum())
print(json.dumps([worst, differ]))
"""


def test_powers_of_negative_bases(tmp_path):
    """A float ** an integer is computed as |x| ** n with x's sign where n is odd, as pow itself
    does (so glibc's vector pow takes it in its lanes): the C library's pow bit for bit with
    NUMGPU_VECTOR_MATH=0, signed zeros, infinities and NaN too, an odd int beyond 2**53 (float32:
    2**24) taken as the even float it rounds to; with the vector math, within 4 ulps (a zero's,
    an infinity's sign or a NaN wrong: infinitely many), the sums of powers within 8."""
    worst, differ = run_script(tmp_path / "scalar", POWERS, False)
    assert max(worst.values()) == 0.0 and max(differ.values()) == 0, (worst, differ)
    worst, differ = run_script(tmp_path / "vector", POWERS, True)
    assert all(w <= (8.0 if k.startswith("polynomial") else 4.0) for k, w in worst.items()), worst
    if libmvec_expected():
        assert differ["polynomial16"] > 0, "no power took the vector math"
