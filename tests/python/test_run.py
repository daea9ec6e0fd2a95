"""`python -m numgpu run`: unmodified NumPy scripts served by numgpu, the fallback, the report,
the precision policy.

The scripts in tests/scripts are plain NumPy programs. Each runs under plain Python and under
`numgpu run` (a fresh interpreter each) on every device present; their printed outputs must be
the same, numbers within rounding (the device sums in another order).
"""
import inspect
import os
import pickle
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback, _run, _subclass

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS_DIR = os.path.join(REPO, "tests", "scripts")
SCRIPTS = sorted(f for f in os.listdir(SCRIPTS_DIR) if f.endswith(".py"))
DEVICES = ["cpu"] + (["opencl"] if ng.is_available("opencl") else [])
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


def python(args, env=None, cwd=None, timeout=300):
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(ng.__file__)),
                                                     full.get("PYTHONPATH")) if p)
    full.pop("NUMGPU_STRICT", None)
    full.pop("NUMGPU_FALLBACK", None)
    full.update(env or {})
    return subprocess.run([sys.executable] + list(args), env=full, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def run(*args, env=None, cwd=None):
    return python(["-m", "numgpu", "run"] + list(args), env=env, cwd=cwd)


def same_output(plain, served, rtol=1e-5, atol=1e-6):
    """The two outputs' text equal with whitespace ignored, their numbers within rounding;
    returns the first difference as text, or None."""
    p_lines, s_lines = plain.splitlines(), served.splitlines()
    if len(p_lines) != len(s_lines):
        return "%d lines vs %d lines" % (len(p_lines), len(s_lines))
    for a, b in zip(p_lines, s_lines):
        ta, tb = NUMBER.split(a), NUMBER.split(b)
        na, nb = NUMBER.findall(a), NUMBER.findall(b)
        if ["".join(t.split()) for t in ta] != ["".join(t.split()) for t in tb] or len(na) != len(nb):
            return "text differs:\n  %s\n  %s" % (a, b)
        for x, y in zip(na, nb):
            fx, fy = float(x), float(y)
            if not (np.isnan(fx) and np.isnan(fy)) and abs(fx - fy) > atol + rtol * abs(fx):
                return "number differs: %s vs %s in\n  %s\n  %s" % (x, y, a, b)
    return None


def test_same_output_can_fail():
    assert same_output("a 1.0 [2 3]", "a 1.0000001 [2  3]") is None
    assert same_output("a 1.0", "a 1.1") is not None
    assert same_output("a 1.0", "b 1.0") is not None
    assert same_output("x\ny", "x") is not None


# ---- the scripts, plain vs served ----------------------------------------------------------------

@pytest.fixture(scope="module")
def plain_outputs():
    out = {}
    for s in SCRIPTS:
        proc = python([os.path.join(SCRIPTS_DIR, s)])
        assert proc.returncode == 0, proc.stderr
        out[s] = proc.stdout
    return out


def test_at_least_five_scripts():
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("script", SCRIPTS)
def test_script_output_matches_numpy(script, device, plain_outputs):
    proc = run(os.path.join(SCRIPTS_DIR, script), env={"NUMGPU_DEVICE": device})
    assert proc.returncode == 0, proc.stderr[-3000:]
    diff = same_output(plain_outputs[script], proc.stdout)
    assert diff is None, diff
    assert "numgpu run report" in proc.stderr
    assert "device           %s" % device in proc.stderr
    if device == "cpu":   # the report names where matrix products and solves ran
        assert re.search(r"device +cpu \(matrix products and solves: (\S*blas\S*|generated kernels; )", proc.stderr)
    # The work ran on the device: device calls and kernel launches were counted.
    launches = int(re.search(r"kernels\s+(\d+) launches", proc.stderr).group(1))
    on_device = int(re.search(r"calls\s+(\d+) on the device", proc.stderr).group(1))
    assert launches > 0 and on_device > 0


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("script", SCRIPTS)
def test_script_output_matches_numpy_imported(script, device, plain_outputs, tmp_path):
    # The same programs with `import numgpu as np` in place of `import numpy as np` (drop-in
    # arrays, no import hook): the same output, and nothing NumPy runs fails
    src = open(os.path.join(SCRIPTS_DIR, script)).read()
    assert "import numpy as np\n" in src
    path = write(tmp_path, script, src.replace("import numpy as np\n", "import numgpu as np\n"))
    proc = python([path], env={"NUMGPU_DEVICE": device})
    assert proc.returncode == 0, proc.stderr[-3000:]
    diff = same_output(plain_outputs[script], proc.stdout)
    assert diff is None, diff


# ---- the command -----------------------------------------------------------------------------------

def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_argv_main_and_script_dir(tmp_path):
    write(tmp_path, "helper_mod.py", "import numpy\nVALUE = numpy.arange(3)\n")
    script = write(tmp_path, "main.py",
                   "import sys\nimport numpy as np\nimport helper_mod\n"
                   "print(__name__, sys.argv[1:], type(np.zeros(2)).__module__)\n"
                   "print(type(helper_mod.VALUE).__module__, helper_mod.VALUE * 2)\n")
    proc = run("--no-report", script, "a", "--b", cwd=str(tmp_path / ".."))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["__main__ ['a', '--b'] numgpu", "numgpu [0 2 4]"]
    assert "numgpu run report" not in proc.stderr


def test_import_forms(tmp_path):
    script = write(tmp_path, "forms.py", """
import numpy
import numpy as np
import numpy.linalg
import numpy.linalg as la
from numpy import sqrt, float32, pi, ndarray, linalg
from numpy.linalg import norm
from numpy.random import default_rng
from numpy import *
x = np.arange(4.0)
print(type(x).__module__, type(numpy.ones(1)).__module__, isinstance(x, ndarray))
print(sqrt(x), float32, round(pi, 3), norm(x), la.norm(x) == numpy.linalg.norm(x), linalg.norm(x))
print(type(zeros(2)).__module__, type(default_rng(0).random(2)).__module__, np.__name__, newaxis)
print(np.finfo(np.float32).eps, np.iinfo(np.int8).max, np.dtype("float32"), np.float64(2.5) * 2)
""")
    proc = run("--no-report", script)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "numgpu numgpu True"
    assert lines[1].startswith("[0.         1.         1.41421356 1.73205081] <class 'numpy.float32'> 3.142 3.74165738")
    assert lines[2] == "numgpu numgpu numpy None"
    assert lines[3] == "%s 127 float32 5.0" % np.finfo(np.float32).eps


def test_fft_runs_on_the_device(tmp_path):
    """numpy.fft under `numgpu run` is numgpu.fft (it ran on NumPy: the shim had no module for it)."""
    script = write(tmp_path, "ffts.py", """
import numpy as np
from numpy.fft import rfftfreq
from numpy import fft
t = np.linspace(0, 1, 1000)
spec = np.abs(np.fft.rfft(np.sin(2 * np.pi * 50 * t)))
print(rfftfreq(t.size, t[1] - t[0])[np.argmax(spec)], type(fft.fft(t)).__module__)
""")
    proc = run(script)
    assert proc.returncode == 0, proc.stderr
    t = np.linspace(0, 1, 1000)
    want = np.fft.rfftfreq(t.size, t[1] - t[0])[np.argmax(np.abs(np.fft.rfft(np.sin(2 * np.pi * 50 * t))))]
    assert proc.stdout.split() == [str(want), "numgpu"]
    for name in ("rfft", "rfftfreq", "fft"):
        row = re.search(r"numpy\.fft\.%s\s+(\d+)\s+[\d.]+s\s+(\d+)" % name, proc.stderr)
        assert row and row.groups() == ("1", "0"), (name, proc.stderr)


def test_libraries_keep_real_numpy(tmp_path):
    pytest.importorskip("matplotlib")
    script = write(tmp_path, "lib.py", """
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.colors as mc
x = np.linspace(0.0, 10.0, 5)
normed = mc.Normalize(0, 10)(x)
print(type(mc.np).__name__, type(normed).__module__.split(".")[0], np.asarray(normed).tolist())
""")
    proc = run("--no-report", script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["module", "numpy", "[0.0,", "0.25,", "0.5,", "0.75,", "1.0]"]


def test_print_like_numpy(tmp_path):
    script = write(tmp_path, "show.py", """
import numpy as np
a = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
s = a.sum()
print(a); print(repr(a)); print(s, repr(s), repr(a[1, 2]), [a.max(), a.min()])
print(f"{s:.3f} {a[0, 1]:>8.2f}", "%.2f %d" % (s, a.argmax()), float(s), int(a[1, 1]), bool(a.any()))
print(len(a), [v for v in a[0]], {a[0, 0]: 1}, round(s, 1), str(a[0]))
print(np.array([1, 2, 3]), np.array([True, False]), np.array(["a", "b"]), np.int32(5))
""")
    plain = python([script])
    served = run("--no-report", script)
    assert plain.returncode == 0 and served.returncode == 0, served.stderr
    assert served.stdout == plain.stdout


def test_exit_status_and_errors(tmp_path):
    script = write(tmp_path, "ex.py", "import sys\nimport numpy as np\nprint(np.ones(2).sum())\nsys.exit(3)\n")
    proc = run(script)
    assert proc.returncode == 3 and proc.stdout == "2.0\n"
    assert "numgpu run report" in proc.stderr                 # the report still comes at exit
    bad = write(tmp_path, "bad.py", "import numpy as np\nnp.ones(2) + np.ones(3)\n")
    proc = run("--no-report", bad)
    assert proc.returncode == 1 and "ValueError" in proc.stderr
    proc = run(str(tmp_path / "missing.py"))
    assert proc.returncode == 2 and "no such script" in proc.stderr


FALLBACK_SCRIPT = ("import numpy as np\nx = np.arange(4).reshape(2, 2)\n"
                   "print(np.linalg.tensorinv(x, 1), np.linalg.tensorinv(x, ind=1))\n")


def test_report_content(tmp_path):
    script = write(tmp_path, "rep.py", FALLBACK_SCRIPT + "y = np.asarray([1.0, 2.0]) + 1\nprint(y.sum())\n")
    proc = run(script)
    assert proc.returncode == 0, proc.stderr
    err = proc.stderr
    assert err.count("numpy.linalg.tensorinv runs on NumPy") == 1             # warned once for two calls
    for needle in ("numgpu run report for rep.py", "wall time", "precision        float64",
                   "transfers", "implicit", "kernels", "compiled", "disk cache", "memory cache hits"):
        assert needle in err, needle
    row = re.search(r"numpy\.linalg\.tensorinv\s+(\d+)\s+[\d.]+s\s+(\d+)", err)
    assert row and row.groups() == ("0", "2")
    row = re.search(r"numpy\.arange\s+(\d+)\s+[\d.]+s\s+(\d+)", err)
    assert row and row.groups() == ("1", "0")
    assert re.search(r"calls\s+\d+ on the device, 2 on NumPy", err)


def test_profile(tmp_path):
    script = write(tmp_path, "prof.py", "import numpy as np\nx = np.ones(1000)\n"
                                        "for i in range(3):\n    x = x * 2.0  # hot line\nprint(float(x[0]))\n")
    proc = run("--profile", script)
    assert proc.returncode == 0 and proc.stdout == "8.0\n", proc.stderr
    assert "profile" in proc.stderr
    assert re.search(r"prof\.py:4\s+x = x \* 2\.0  # hot line", proc.stderr)
    hits = re.search(r"(\d+)\s+prof\.py:4", proc.stderr)
    assert hits and hits.group(1) == "3"


def test_fallback_error_mode_and_strict(tmp_path):
    script = write(tmp_path, "fb.py", FALLBACK_SCRIPT)
    proc = run("--no-report", script, env={"NUMGPU_FALLBACK": "error"})
    assert proc.returncode != 0 and "FallbackError" in proc.stderr and "numpy.linalg.tensorinv" in proc.stderr
    proc = run("--no-report", "--fallback", "silent", script)
    assert proc.returncode == 0 and "runs on NumPy" not in proc.stderr
    proc = run("--no-report", script, env={"NUMGPU_STRICT": "1"})
    assert proc.returncode != 0 and "NUMGPU_STRICT=1" in proc.stderr and "numpy.linalg.tensorinv" in proc.stderr
    # __import__ called without globals is not the user's import statement: the real NumPy, whose
    # array meeting a numgpu one is an implicit upload, an error under strict.
    implicit = write(tmp_path, "imp.py", "import numpy as np\nx = np.ones(3) + __import__('numpy').ones(3)\n")
    proc = run("--no-report", implicit, env={"NUMGPU_STRICT": "1"})
    assert proc.returncode != 0 and "NUMGPU_STRICT=1: implicit upload" in proc.stderr
    proc = run(implicit)      # (cpu: NumPy's array read in place, no transfer; a GPU: an upload)
    n = 0 if ng.get_device().startswith("cpu") else 1
    assert proc.returncode == 0 and re.search(r"implicit\s+%d uploads" % n, proc.stderr), proc.stderr


def test_precision_float32_quantiles(tmp_path):
    # (hunt 10 F15) q uploaded as float32 under the policy: the kernel reads q in float64
    script = write(tmp_path, "q32.py", "import numpy as np\nprint(repr(np.median(np.arange(5.))), "
                                       "repr(np.quantile(np.arange(5000.), 0.5)), np.percentile(np.arange(5000.), [50]).dtype)\n")
    proc = run("--no-report", "--precision", "float32", script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "np.float32(2.0) np.float32(2499.5) float32\n", proc.stdout


def test_precision_float32(tmp_path):
    script = write(tmp_path, "prec.py", "import numpy as np\nx = np.zeros(3)\ny = np.asarray([1.5, 2.5])\n"
                                        "z = np.linspace(0, 1, 4)\nw = np.arange(3) * 0.5\n"
                                        "print(x.dtype, y.dtype, z.dtype, np.ones(2, dtype=np.float64).dtype,"
                                        " y.astype(np.float64).dtype, np.arange(3).dtype, (y * 2).sum())\n")
    proc = run("--precision", "float32", script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "float32 float32 float32 float32 float32 int64 8.0\n"
    assert "precision        float32" in proc.stderr
    proc = run("--no-report", script)
    assert proc.stdout == "float64 float64 float64 float64 float64 int64 8.0\n"


def test_float16_and_complex_data_are_numgpus(tmp_path):
    """float16 and complex arrays made, converted or returned by a fallback in the script are
    numgpu arrays, their ufuncs run on the device, and the report counts those calls."""
    script = write(tmp_path, "cplx.py", """
import numpy as np
z = np.exp(1j * np.linspace(0, np.pi, 5))
h = np.asarray([1.5, -2.0], dtype=np.float16)
c = np.array([1 + 2j, 3 - 1j], dtype=np.complex64)
g = np.linalg.tensorinv(np.diag(z), 1)   # no device version: NumPy's, its complex result uploaded
w = np.sqrt(h.astype(np.complex64)) + c
print(type(z).__module__, z.dtype, type(h).__module__, h.dtype, type(c).__module__, c.dtype)
print(type(g).__module__, g.dtype, type(w).__module__, w.dtype)
print(np.round(np.abs(z).sum(), 6), np.round(np.angle(z[-1]), 6), h * 2, np.conj(c))
print(repr(c.sum()), repr(h[0]), repr(c[1]), repr(h.max()), repr(c[0] * 1j))
""")
    proc = run(script)
    assert proc.returncode == 0, proc.stderr
    plain = python([script])
    assert plain.returncode == 0, plain.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "numgpu complex128 numgpu float16 numgpu complex64"
    assert lines[1] == "numgpu complex128 numgpu complex64"
    assert plain.stdout.splitlines()[0] == "numpy complex128 numpy float16 numpy complex64"
    assert lines[2:] == plain.stdout.splitlines()[2:]    # repr of 0-d results as NumPy's scalars
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r"^\s+(numpy\.\S+)\s+(\d+)\s+\S+\s+(\d+)", proc.stderr, re.M)}
    assert rows["numpy.exp"] == (1, 0) and rows["numpy.sqrt"] == (1, 0) and rows["numpy.angle"] == (1, 0)
    assert rows["numpy.linalg.tensorinv"] == (0, 1)
    proc = run("--precision", "float32", "--no-report", script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "numgpu complex64 numgpu float16 numgpu complex64"


def test_precision_config_in_process():
    prev = ng.config(precision="float32")
    try:
        assert ng.zeros(2).dtype == np.float32
        assert ng.asarray(np.ones(3)).dtype == np.float32
        assert ng.full(2, 1.5).dtype == np.float32
        assert ng.asarray(np.ones(3, np.int32)).dtype == np.int32
        assert ng.asarray(np.ones(3, np.complex128)).dtype == np.complex64
        assert ng.full(2, 1j).dtype == np.complex64 and ng.zeros(2, np.complex128).dtype == np.complex64
        assert ng.linspace(0, 1j, 3).dtype == np.complex64 and ng.arange(0, 3 + 3j).dtype == np.complex64
        assert ng.asarray(np.ones(3, np.float16)).dtype == np.float16
        assert ng.config()["precision"] == "float32"
    finally:
        ng.config(precision=prev["precision"])
    assert ng.zeros(2).dtype == np.float64
    with pytest.raises(ValueError, match="precision"):
        ng.config(precision="float16")


# ---- the fallback, in process ----------------------------------------------------------------------

@pytest.fixture
def fresh_fallback():
    prev = _fallback.set_mode("warn")
    _fallback.reset()
    yield
    _fallback.set_mode(prev)
    _fallback.reset()


def test_fallback_counts_and_warns_once(fresh_fallback):
    x = ng.asarray(np.array([[1, 1], [0, 1]]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r1 = ng.linalg.tensorinv(x, 1)
        r2 = ng.linalg.tensorinv(r1, 1)
    assert isinstance(r1, ng.ndarray) and r1.tolist() == [[1, -1], [0, 1]] and r2.tolist() == [[1, 1], [0, 1]]
    assert [str(m.message).split(" runs")[0] for m in w] == ["numgpu: numpy.linalg.tensorinv"]
    assert issubclass(w[0].category, _fallback.FallbackWarning)
    assert _fallback.counts["numpy.linalg.tensorinv"][0] == 2


def test_fallback_modes(fresh_fallback):
    x = ng.asarray(np.array([[1, 1], [0, 1]]))
    _fallback.set_mode("silent")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ng.linalg.tensorinv(x, 1).tolist() == [[1, -1], [0, 1]]
    _fallback.set_mode("error")
    with pytest.raises(_fallback.FallbackError, match="numpy.linalg.tensorinv"):
        ng.linalg.tensorinv(x, 1)
    with pytest.raises(ValueError, match="fallback mode"):
        _fallback.set_mode("loud")
    assert ng.config(fallback="silent")["fallback"] == "error"
    assert _fallback.get_mode() == "silent"
    strict = ng.set_strict(False)
    try:
        assert ng.config()["strict"] is False
        assert ng.config(strict=True)["strict"] is False and ng.config()["strict"] is True
    finally:
        ng.set_strict(strict)


def test_fallback_strict_names_function(fresh_fallback):
    prev = ng.set_strict(True)
    try:
        with pytest.raises(RuntimeError, match="NUMGPU_STRICT=1.*numpy.linalg.tensorinv"):
            ng.linalg.tensorinv(ng.asarray(np.eye(2)), 1)
        with pytest.raises(RuntimeError, match="NUMGPU_STRICT=1"):
            ng.ones(2) + np.ones(2)           # an implicit upload
    finally:
        ng.set_strict(prev)


def test_fallback_results_and_passthrough(fresh_fallback):
    _fallback.set_mode("silent")
    a = np.array([[4.0, 1.0], [2.0, 3.0]])
    x = ng.asarray(a)
    u, s, vt = _fallback.call_numpy("numpy.linalg.svd", np.linalg.svd, x)   # a namedtuple of arrays
    assert isinstance(s, ng.ndarray)
    np.testing.assert_allclose(ng.asnumpy(s), np.linalg.svd(a)[1])
    assert ng.array_repr(x) == np.array_repr(a)      # non-array results come back as they are
    names = _fallback.call_numpy("numpy.char.upper", np.char.upper, np.array(["a", "b"]))
    assert isinstance(names, np.ndarray) and names.tolist() == ["A", "B"]   # str: no device dtype, stays NumPy's
    z = _fallback.call_numpy("numpy.fft.fft", np.fft.fft, x[0])              # complex results: numgpu's
    assert isinstance(z, ng.ndarray) and z.dtype == np.complex128
    np.testing.assert_allclose(z.get(), np.fft.fft(a[0]))
    h = _fallback.call_numpy("numpy.unwrap", np.unwrap, ng.asarray(np.array([1, 4, 2], np.float16)))
    assert isinstance(h, ng.ndarray) and h.dtype == np.float16 and h.tolist() == [1.0, 4.0, 2.0]
    d = _fallback.call_numpy("numpy.datetime_as_string", np.arange, "2024-01", "2024-03", dtype="datetime64[M]")
    assert isinstance(d, np.ndarray)   # datetime64: no device dtype, stays NumPy's
    o = ng.zeros(2)
    r = _fallback.call_numpy("numpy.negative", np.negative, ng.asarray(np.array([1.0, 2.0])), out=o)
    assert r is o and o.tolist() == [-1.0, -2.0]
    assert _fallback.counts["numpy.linalg.svd"][0] == 1


def test_plain_import_costs_nothing():
    # Without the report on, numgpu's functions are its own objects: no counting wrapper, only the
    # guard that hands what numgpu cannot run to NumPy (in C, no frame; nothing else paid until it raises).
    if not _run._state["counting"] and not _subclass.active[0]:   # (a subclass made: sum keeps it)
        assert not getattr(ng.sum, "_numgpu_counted", False)
        assert ng.sum is vars(ng)["sum"] and isinstance(ng.sum, ng._core.Guard)
        assert "__wrapped__" not in vars(ng.sum.__wrapped__)


def test_help_has_text_for_every_function_and_method():
    # help(np.sum), help(x.argsort): numgpu's own docstring, or NumPy's where it has none (75
    # functions and 12 methods had no text before; the guard hides the wrapped function's).
    for mod in (ng, ng.linalg, ng.fft, ng.random):
        for name in dir(mod):
            v = getattr(mod, name)
            if name.startswith("_") or isinstance(v, type) or not callable(v):
                continue
            if name in ("call_numpy", "submodule_getattr"):   # (numgpu's own plumbing)
                continue
            assert v.__doc__, "%s.%s" % (mod.__name__, name)
    assert ng.sum.__doc__ == np.sum.__doc__ and ng.concatenate.__doc__ == np.concatenate.__doc__
    for name in dir(ng.ndarray):
        if not name.startswith("_") and hasattr(np.ndarray, name):
            assert getattr(ng.ndarray, name).__doc__, name


def test_the_c_guard_is_the_python_guard():
    # _fallback.guarded's C wrapper: the same answers as its Python function (kept for NumPy's
    # subclasses), named, pickled, bound and introspected as a function.
    def f(a, b=1):
        if b == 2:
            raise TypeError("raised inside f")
        if b == 3:
            raise NotImplementedError("a form f lacks")
        return ng.asarray(a) * b

    def npf(a, b=1, c=0):
        return np.asarray(a) * b + c

    g = _fallback.guarded("numpy.guard_probe", f, npf)
    assert isinstance(g, ng._core.Guard) and g.__name__ == "guard_probe" and g.__wrapped__ is f
    assert repr(g).startswith("<function guard_probe at ")
    x = np.arange(3.0)
    assert isinstance(g(x), ng.ndarray) and g(x).tolist() == [0.0, 1.0, 2.0]
    with pytest.warns(_fallback.FallbackWarning, match="guard_probe"):
        r = g(x, c=5)            # a keyword f's signature lacks (NumPy's has it): NumPy's function
    assert r.tolist() == [5.0, 6.0, 7.0]
    with pytest.raises(TypeError, match="raised inside f"):
        g(x, b=2)                # a TypeError of f's own body is the program's error
    assert ng.asnumpy(g(x, b=3)).tolist() == [0.0, 3.0, 6.0]   # unsupported: NumPy's
    assert pickle.loads(pickle.dumps(ng.zeros)) is ng.zeros
    assert str(inspect.signature(ng.zeros)).startswith("(shape, dtype=None")

    class Holder:
        total = ng.sum           # a class attribute binds as a method, as a function does
    assert float(Holder.total(ng.arange(4.0))) == 6.0 and Holder().total.__self__.__class__ is Holder
    s = ng.sum(ng.arange(3.0))
    assert s._scalar and s.ndim == 0          # a 0-d result stands for NumPy's scalar
    s0 = s
    s += 1
    assert s is not s0 and float(s) == 4.0    # += rebinds, as NumPy's immutable scalars
    sign, logdet = ng.linalg.slogdet(ng.eye(2))
    assert sign._scalar and logdet._scalar    # a tuple's 0-d parts too
    assert not ng.zeros(())._scalar           # an array maker's 0-d array is an array
    m = np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    with pytest.warns(_fallback.FallbackWarning, match="MaskedArray"):
        assert float(ng.sum(m)) == 4.0        # NumPy's subclasses: NumPy's function


def test_shim_random_streams_are_numpys():
    rnd = _run.shim("numpy.random")
    rng = rnd.default_rng(123)
    got = rng.normal(size=5)
    assert isinstance(got, ng.ndarray)
    np.testing.assert_array_equal(ng.asnumpy(got), np.random.default_rng(123).normal(size=5))
    rnd.seed(5)
    a = rnd.rand(3)
    np.random.seed(5)
    np.testing.assert_array_equal(ng.asnumpy(a), np.random.rand(3))
    x = ng.asarray(np.arange(10))
    rnd.default_rng(1).shuffle(x)
    h = np.arange(10)
    np.random.default_rng(1).shuffle(h)
    assert x.tolist() == h.tolist()


def test_shim_ufunc_methods(fresh_fallback):
    _fallback.set_mode("silent")
    npx = _run.shim("numpy")
    x = ng.asarray(np.array([[1.0, 5.0], [3.0, 2.0]]))
    a = x.get()
    assert npx.add.reduce(x).tolist() == np.add.reduce(a).tolist()
    assert npx.maximum.accumulate(x, axis=1).tolist() == np.maximum.accumulate(a, axis=1).tolist()
    assert npx.subtract.outer(x[0], x[1]).tolist() == np.subtract.outer(a[0], a[1]).tolist()
    assert npx.add.nin == 2 and npx.sqrt.nin == 1
    assert npx.where(x > 2).__class__ is tuple        # numgpu lacks 1-arg where: NumPy's runs
    assert [v.tolist() for v in npx.where(x > 2)] == [v.tolist() for v in np.where(a > 2)]


def test_is_user_code():
    assert not _run.is_user_code(vars(np))
    assert not _run.is_user_code({"__file__": warnings.__file__, "__name__": "warnings"})
    assert _run.is_user_code({"__file__": os.path.join(SCRIPTS_DIR, "kmeans.py"), "__name__": "__main__"})
    assert _run.is_user_code({"__name__": "__main__"})
    assert not _run.is_user_code(None)


def test_report_in_process():
    import io
    buf = io.StringIO()
    ng.report(file=buf)
    text = buf.getvalue()
    assert "numgpu run report" in text and "transfers" in text and "kernels" in text


def test_shim_metadata_and_host_utilities(fresh_fallback):
    npx = _run.shim("numpy")
    assert npx.shape([1, 2]) == (2,) and npx.shape(ng.ones((3, 1))) == (3, 1) and npx.ndim(5) == 0
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        opts = npx.get_printoptions()
    assert isinstance(opts, dict) and not w            # host utilities: counted, not warned
    assert _fallback.counts["numpy.get_printoptions"][0] == 1


def test_strict_implicit_transfer_names_function(tmp_path):
    script = write(tmp_path, "st.py", "import numpy as np\nh = __import__('numpy').ones(3)\n"
                                      "print(np.add(h, np.ones(3)))\n")
    proc = run("--no-report", script, env={"NUMGPU_STRICT": "1"})
    assert proc.returncode == 1
    assert "NUMGPU_STRICT=1: in numpy.add: implicit upload of a numpy.ndarray" in proc.stderr
    prev = ng.set_strict(True)
    try:
        with pytest.raises(RuntimeError, match="in numpy.multiply: implicit upload"):
            np.multiply(np.ones(2), ng.ones(2))
    finally:
        ng.set_strict(prev)


def test_script_traceback_is_the_scripts(tmp_path):
    script = write(tmp_path, "tb.py", "import numpy as np\n\ndef f(a):\n    return a + np.ones(4)\n\nf(np.ones(3))\n")
    proc = run("--no-report", script)
    assert proc.returncode == 1
    err = proc.stderr
    assert err.startswith("Traceback (most recent call last):\n  File \"%s\", line 6" % script), err
    assert "runpy" not in err and "_run.py" not in err
    assert err.rstrip().endswith("ValueError: operands could not be broadcast together with shapes (3,) (4,)")


@pytest.mark.parametrize("device", DEVICES)
def test_device_option(tmp_path, device):
    script = write(tmp_path, "dev.py", "import numpy as np\nprint(np.arange(3).device)\n")
    proc = run("--no-report", "--device", device, script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().split(":")[0] == device


def test_profile_without_report(tmp_path):
    script = write(tmp_path, "p2.py", "import numpy as np\nx = np.ones(10)\nprint(float(x.sum()))\n")
    proc = run("--no-report", "--profile", script)
    assert proc.returncode == 0 and proc.stdout == "10.0\n"
    assert "numgpu run report" not in proc.stderr and re.search(r"p2\.py:3\s+print", proc.stderr)


def test_warning_points_at_users_line(fresh_fallback):
    x = ng.asarray(np.array([[1.0, 5.0], [3.0, 2.0]]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ng.linalg.tensorinv(x, 1)
        np.add.reduceat(x, [0, 1])             # through __array_ufunc__
        x.argpartition(0)                      # a host method
    assert len(w) == 3 and {m.filename for m in w} == {__file__}


def test_results_numpy_gives_as_scalars_are_numpys_scalars_under_run(tmp_path):
    """Under numgpu run, reductions, products, elements and operators of scalars give NumPy's
    scalars (read in place on cpu, downloaded from a GPU), so isinstance checks and json.dumps
    work as under NumPy (a 0-d array made json.dumps raise TypeError); arrays made as arrays stay
    arrays."""
    script = write(tmp_path, "scal.py", """
import json
import numpy as np
x = np.arange(10.0); i = np.arange(5)
print(type(x.sum()).__name__, isinstance(x.mean(), np.floating), json.dumps({"m": x.mean(), "n": int(i.sum())}))
print(type(np.sum(x)).__name__, type(x.max()).__name__, type(x @ x).__name__, type(np.median(x)).__name__,
      type(np.linalg.norm(x)).__name__, type(np.dot(x, x)).__name__, type(x.std()).__name__)
print(type(i.sum()).__name__, type(np.argmax(i)).__name__, type(i[0] * 2).__name__, type(x.sum() + 1).__name__)
r = x.sum(); r += 1; print(r, x.sum(), isinstance(x.sum(), np.ndarray), np.ndim(x.sum()))
print(type(np.array(3.0)).__name__, type(np.zeros(())).__name__, type(np.float64(2) * x).__name__)
print(x.sum() / 3, x.mean() > 4, [v for v in np.unique(i)][:2])
m = x.reshape(2, 5)
print(type(x.dot(x)).__name__, type(m[:, :2].trace()).__name__, type(x.searchsorted(3.5)).__name__,
      type(np.linalg.norm(m)).__name__, np.linalg.norm(m, keepdims=True).shape, type(np.histogram(x)[1][0]).__name__)
a = np.array(4.0)   # ufuncs of 0-d data, their pairs, reduce; tuples of scalars
print([type(r).__name__ for r in (np.sqrt(a), np.add(a, 1), np.frexp(a)[0], np.frexp(a)[1], np.modf(a)[0],
                                  np.divmod(a, 3)[1], np.isnan(a), np.add.reduce(x), np.sqrt(np.float64(2.0)))])
sol = np.linalg.lstsq(m.T, np.arange(5.0), rcond=None)
sd = np.linalg.slogdet(np.array([[1.0, 2.0], [3.0, 4.0]]))
print(type(sol[2]).__name__, sd.sign, type(sd.logabsdet).__name__, np.unravel_index(5, (2, 3)))
print(type(np.pad(a, 1)).__name__, type(np.roll(a, 1)).__name__, np.broadcast_arrays(a, a)[0].ndim)
""")
    plain = python([script]).stdout
    for report in ("--no-report", "--report"):   # (the report wraps every call to count it)
        proc = run(report, script)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == plain, report
    # numgpu's own style stays available: NUMGPU_SCALARS=array keeps 0-d arrays
    proc = run("--no-report", script, env={"NUMGPU_SCALARS": "array"})
    assert proc.returncode != 0 and "not JSON serializable" in proc.stderr


def test_random_generators_and_pickles_are_numpys_under_run(tmp_path):
    """Under numgpu run np.random.Generator/RandomState are classes (isinstance, a Generator as a
    seed), and pickles of arrays, results and generators are NumPy's own: they load where numgpu
    is not installed (no 'numgpu' in the bytes)."""
    script = write(tmp_path, "rngpk.py", """
import pickle
import numpy as np
rng = np.random.default_rng(0)
print(isinstance(rng, np.random.Generator), np.random.default_rng(rng) is rng,
      isinstance(np.random.RandomState(1), np.random.RandomState))
def pick(seed=None):
    g = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return g.integers(0, 100, 4)
print(pick(5), pick(np.random.default_rng(5)), rng.normal(size=2))
x = np.arange(6.0).reshape(2, 3)
blob = pickle.dumps({"x": x, "s": x.sum(), "m": x.mean(axis=0), "rng": rng})
print(b"numgpu" in blob)
d = pickle.loads(blob)
print(d["x"], d["s"], d["m"], d["rng"].integers(0, 100, 3))
""")
    proc = run("--no-report", script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == python([script]).stdout


def test_stride_tricks_are_views_under_run(tmp_path):
    """np.lib.stride_tricks under numgpu run: device views (they were NumPy's of a downloaded copy,
    uploaded again: writes did not show through, and a window view of 400k samples took 1.5 GB)."""
    script = write(tmp_path, "strides.py", """
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
s = np.arange(6); v = np.lib.stride_tricks.as_strided(s, (3,), (16,)); v[1] = 99; print(s)
x = np.arange(5.); W = sliding_window_view(x, 3); x[0] = 100; print(W[0], W.strides, W.shape)
print(sliding_window_view(np.arange(12).reshape(3, 4), (2, 2)).sum(axis=(-1, -2)))
""")
    proc = run(script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == python([script]).stdout
    assert "0 on NumPy (fallback)" in proc.stderr


def test_every_array_is_an_ndarray_under_run(tmp_path):
    """Under numgpu run np.ndarray is numgpu's (constructor, methods), and NumPy's arrays numgpu
    keeps on the host (str, object, masked) are ndarrays too, as under NumPy."""
    script = write(tmp_path, "isinst.py", """
import numpy as np
a = np.arange(3.0); s = np.array(['a', 'b']); o = np.array([1, None]); t = np.ma.masked_equal(a, 1.0)
print(isinstance(a, np.ndarray), isinstance(s, np.ndarray), isinstance(o, np.ndarray), isinstance(t, np.ndarray),
      isinstance(3.0, np.ndarray), isinstance(a[0], np.ndarray))
print(issubclass(type(a), np.ndarray), issubclass(type(s), np.ndarray), issubclass(int, np.ndarray))
b = np.ndarray((2, 2)); print(b.shape, b.dtype, type(b).__name__, np.ndarray.__name__)
c = np.ndarray((3,), dtype=np.int32, buffer=np.arange(3, dtype=np.int32)); print(c.tolist(), c.dtype)
print(np.ndarray.sum(a), np.ndarray.tolist(a))
""")
    proc = run("--no-report", script)
    assert proc.returncode == 0, proc.stderr
    plain = python([script])
    assert proc.stdout == plain.stdout


def test_scalar_math_is_numpys_under_run():
    # np.sqrt(x.sum()) of a NumPy scalar under numgpu run (NumPy's scalars) ran a kernel, uploading
    # the scalar and downloading the result (37 us a call, NumPy 1 us): now NumPy's own scalar math
    prev = ng.config(scalars="numpy")
    try:
        s = np.float64(1002.0)
        before = ng.stats()["kernel_launches"]
        cases = [(ng.sqrt, (s,)), (ng.exp, (np.float32(2.5),)), (ng.add, (s, 1)), (ng.power, (np.int64(3), 40)),
                 (ng.arctan2, (1.0, np.float64(-2.0))), (ng.negative, (np.uint8(5),)), (ng.isnan, (np.nan,))]
        for f, args in cases:
            got, want = f(*args), getattr(np, f.__name__)(*args)
            assert type(got) is type(want) and (got == want or (got != got and want != want))
        assert ng.stats()["kernel_launches"] == before
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
            ng.log(np.float64(0.0))
        ng.config(precision="float32")    # (the precision policy's float32: still the device's)
        assert ng.sqrt(np.float64(4.0)).dtype == np.float32
    finally:
        ng.config(**{k: prev[k] for k in ("scalars", "precision")})
    assert not _fallback.host_scalar_math[0] or prev["scalars"] == "numpy"
