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
