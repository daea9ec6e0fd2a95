"""numgpu run's report says what ran where: operators counted as rows (a * b (multiply),
a[bool mask], a += b, ...), NumPy's random streams as host draws that are uploaded (not device
calls), the transfers and kernels of each row with the line of its first upload, jit functions
and their loops, names never cut, the JSON report (--json, NUMGPU_REPORT), and `numgpu run -m
module` / `numgpu run -` as Python's own -m and - behave.

Each script runs in a fresh interpreter under `numgpu run` on every device present; the counts
are checked against what the script does (how many times each line runs), its output against
plain Python's."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import numgpu as ng

DEVICES = ["cpu"] + (["opencl"] if ng.is_available("opencl") else [])
PYTHONPATH = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(ng.__file__)),
                                         os.environ.get("PYTHONPATH")) if p)


def python(args, env=None, cwd=None, stdin=None):
    full = dict(os.environ, PYTHONPATH=PYTHONPATH)
    for k in ("NUMGPU_STRICT", "NUMGPU_FALLBACK", "NUMGPU_REPORT"):
        full.pop(k, None)
    full.update(env or {})
    return subprocess.run([sys.executable] + list(args), env=full, cwd=cwd, capture_output=True, text=True,
                          timeout=300, input=stdin)


def report(tmp_path, source, device="cpu", name="prog.py", options=()):
    """Runs `source` under numgpu run with --json; returns (process, the JSON report, its rows by
    name). Its output must be plain Python's."""
    script = tmp_path / name
    script.write_text(source)
    out = tmp_path / "report.json"
    plain = python([str(script)])
    proc = python(["-m", "numgpu", "run", "--json", str(out), *options, str(script)],
                  env={"NUMGPU_DEVICE": device})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == plain.stdout, (proc.stdout, plain.stdout)
    data = json.loads(out.read_text())
    return proc, data, {e["name"]: e for e in data["calls"]}


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


OPERATORS = """\
import numpy as np
a = np.arange(12.0)
b = np.ones(12)
for i in range(7):
    c = a * b
c = 2 * a
d = a * 2 + 1
m = a > 5
e = a[m]
f = a[np.array([0, 3, 5])]
g = a[2:8]
h = a[3]
a[m] = 0.0
a[0:2] = 7.0
a += 1
n = -a
lt = a < b
x = np.ones((4, 3)); y = np.ones((4, 2))
z = x.T @ y
q, r = divmod(a, 3)
print(c.sum(), d[:3], e, f, g, h, a, n[:2], lt.sum(), z, q[:3], r[:3])
"""


def test_operators_are_rows(tmp_path, device):
    proc, data, rows = report(tmp_path, OPERATORS, device)
    calls = {n: e["device_calls"] for n, e in rows.items() if e["device_calls"]}
    assert calls.pop("a * b (multiply)") == 7 + 1 + 1          # the loop's 7, 2 * a, a * 2
    assert calls.pop("a + b (add)") == 1
    assert calls.pop("a += b (add, in place)") == 1
    assert calls.pop("a > b (greater)") == 1 and calls.pop("a < b (less)") == 1
    assert calls.pop("a[bool mask]") == 1 and calls.pop("a[int array]") == 1
    assert calls.pop("a[bool mask] = v") == 1 and calls.pop("a[basic] = v") == 1
    assert calls.pop("-a (negative)") == 1
    assert calls.pop("a @ b (matmul)") == 1
    assert calls.pop("divmod(a, b)") == 1
    assert calls.pop("numpy.ndarray.sum") == 2 and calls.pop("numpy.arange") == 1
    assert calls.pop("numpy.ones") == 3 and calls.pop("numpy.array") == 1
    # a[2:8], a[3], q[:3], r[:3], n[:2], d[:3] (x.T is an attribute; printing arrays is numgpu's own code: not counted)
    assert calls.pop("a[basic]") == 6
    assert calls == {}, calls
    # Each operator that computes launched its kernels inside its own row.
    assert rows["a * b (multiply)"]["kernel_launches"] >= 9
    assert rows["a[basic]"]["kernel_launches"] == 0              # views and elements: no kernel
    text = proc.stderr
    assert re.search(r"\n    a \* b \(multiply\) +9 +[\d.]+s +0 +[\d.]+s", text)
    # the wall time split: in device calls (the rows' device times), in NumPy, elsewhere
    m = re.search(r"time +([\d.]+) s in device calls, ([\d.]+) s in NumPy on the host, ([\d.]+) s elsewhere", text)
    assert m and abs(float(m.group(1)) - sum(e["device_time"] for e in data["calls"])) < 2e-3
    assert float(m.group(1)) + float(m.group(2)) + float(m.group(3)) <= data["wall_time"] + 2e-3
    # every transfer is a row's or outside the counted calls
    for k in ("uploads", "upload_bytes", "downloads", "download_bytes"):
        assert sum(e[k] for e in data["calls"]) + data["outside_calls"][k] == data["totals"][k], k
    assert data["synchronised_calls"] == (device != "cpu")


def test_operator_counting_is_off_without_the_report(tmp_path):
    # Plain `import numgpu`: ndarray's operators are its C slots; the report wraps them at the
    # type (numgpu._core.Counted) only once it is on, and the results stay right.
    code = ("import numgpu as ng\nt = vars(ng.ndarray)\n"
            "print(type(t['__mul__']).__name__, type(t['__getitem__']).__name__)\n"
            "ng.config(report=True)\nt = vars(ng.ndarray)\n"
            "print(type(t['__mul__']).__name__, type(t['__getitem__']).__name__, type(t['__iadd__']).__name__)\n"
            "a = ng.arange(4.0)\nb = a * 3\nb += 1\nprint((-b)[1:3].tolist(), (a < 2).tolist(), (2 ** a)[3].item())\n")
    proc = python(["-c", code], env={"NUMGPU_REPORT": str(tmp_path / "r.json")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["wrapper_descriptor wrapper_descriptor", "Counted Counted Counted",
                                        "[-4.0, -7.0] [True, True, False, False] 8.0"]
    rows = {e["name"]: e for e in json.loads((tmp_path / "r.json").read_text())["calls"]}
    assert rows["a ** b (power)"]["device_calls"] == 1 and rows["a += b (add, in place)"]["device_calls"] == 1


def test_random_streams_are_host_draws(tmp_path, device):
    src = ("import numpy as np\n"
           "rng = np.random.default_rng(0)\n"
           "a = rng.random(100000)\n"
           "b = rng.standard_exponential(size=(10, 10))\n"
           "np.random.seed(1)\n"
           "c = np.random.rand(50)\n"
           "print('%.6f %.6f %.6f' % (a.sum(), b.sum(), c.sum()))\n")
    proc, data, rows = report(tmp_path, src, device)
    for name, draws, nbytes, line in (("numpy.random.Generator.random", 1, 800000, 3),
                                      ("numpy.random.Generator.standard_exponential", 1, 800, 4),
                                      ("numpy.random.rand", 1, 400, 6)):
        e = rows[name]
        if device == "cpu":   # (NumPy's draws used where they are: nothing copied)
            assert (e["device_calls"], e["host_draws"], e["uploads"], e["upload_bytes"]) == (0, draws, 0, 0), e
            continue
        assert (e["device_calls"], e["host_draws"], e["uploads"], e["upload_bytes"]) == (0, draws, 1, nbytes), e
        assert e["first_upload_at"] == "prog.py:%d" % line
    assert rows["numpy.random.default_rng"]["device_calls"] == 0
    assert rows["numpy.random.default_rng"]["host_draws"] == 1
    assert rows["numpy.random.seed"]["device_calls"] == 0
    text = proc.stderr
    assert "calls of NumPy's random streams on the host (seeding, draws: %s)" % ("used in place" if device == "cpu" else "uploaded") in text
    assert re.search(r"\n    numpy\.random\.Generator\.random \* +0 +[\d.]+s +1 ", text)
    if device != "cpu":
        assert re.search(r"uploads from +1 \(781\.2 KB\) by numpy\.random\.Generator\.random at prog\.py:3", text)
    # (names are never cut: the column is as wide as the longest)
    header = next(line for line in text.splitlines() if "function / operator" in line)
    row = next(line for line in text.splitlines() if "numpy.random.Generator.standard_exponential *" in line)
    assert header.index(" device") + len(" device") == re.search(r"\* +0", row).end()


def test_device_generator_is_the_devices(tmp_path, device):
    src = ("import numgpu\n"
           "rng = numgpu.random.device_rng(5)\n"
           "a = rng.random(1000)\n"
           "b = rng.normal(size=10)\n"
           "print(a.shape, b.shape)\n")
    proc, data, rows = report(tmp_path, src, device)
    e = rows["numgpu.random.Generator(Philox).random"]
    assert e["device_calls"] == 1 and e["host_draws"] == 0 and e["uploads"] == 0 and e["kernel_launches"] >= 1
    assert rows["numgpu.random.Generator(Philox).normal"]["device_calls"] == 1
    assert "NumPy's random streams" not in proc.stderr


def test_nested_calls_count_once(tmp_path):
    # numgpu's own Python code (cov, median) uses functions and operators: one row, one call.
    src = ("import numpy as np\nx = np.arange(20.0).reshape(4, 5)\n"
           "print(np.cov(x)[0, 0], np.median(x))\n")
    proc, data, rows = report(tmp_path, src)
    called = {n: e["device_calls"] for n, e in rows.items() if e["device_calls"]}
    assert called == {"numpy.arange": 1, "numpy.ndarray.reshape": 1, "numpy.cov": 1, "numpy.median": 1,
                      "a[basic]": 1}, called


def test_transfers_outside_and_implicit(tmp_path, device):
    # A host NumPy array given to an operator is an implicit upload of that operator's row (on a GPU);
    # printing an array (a download) and NumPy reading a GPU array (an implicit one) are
    # transfers outside the counted calls.
    code = ("import numpy, numgpu as ng\nng.config(report=True)\n"
            "a = ng.ones(1000)\nh = numpy.ones(1000)\n"
            "b = a + h\n"
            "c = numpy.asarray(b)\n"
            "print(b)\n")
    path = tmp_path / "r.json"
    proc = python(["-c", code], env={"NUMGPU_REPORT": str(path), "NUMGPU_DEVICE": device})
    assert proc.returncode == 0, proc.stderr
    data = json.loads(path.read_text())
    add = {e["name"]: e for e in data["calls"]}["a + b (add)"]
    # (cpu: the NumPy operand is read in place, as NumPy reads numgpu's arrays there: no transfer)
    assert (add["uploads"], add["upload_bytes"], add["implicit_uploads"]) == ((0, 0, 0) if device == "cpu" else (1, 8000, 1))
    out = data["outside_calls"]
    assert out["downloads"] == data["totals"]["downloads"] >= 1 + (device != "cpu")
    assert out["implicit_downloads"] == (device != "cpu")     # (cpu: NumPy reads the array in place)
    assert "outside calls" in proc.stderr and "implicit         %d uploads" % (device != "cpu") in proc.stderr


def test_strict_error_names_the_operator():
    code = ("import numpy, numgpu as ng\nng.config(report=True, strict=True)\n"
            "a = ng.ones(3)\ntry:\n    a * numpy.ones(3)\nexcept RuntimeError as e:\n    print(e)\n")
    proc = python(["-c", code])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("NUMGPU_STRICT=1: in a * b (multiply): implicit upload"), proc.stdout


def test_jit_functions_and_their_loops(tmp_path, device):
    src = ("import numpy as np\nimport numgpu\n\n"
           "@numgpu.jit\n"
           "def smooth(x, out):\n"
           "    for i in range(1, x.shape[0] - 1):\n"
           "        out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0\n"
           "    return out\n\n"
           "x = np.arange(100.0)\nout = np.zeros(100)\n"
           "for k in range(3):\n    smooth(x, out)\n"
           "print(out[1:4])\n")
    proc, data, rows = report(tmp_path, src, device)
    assert rows["jit smooth"]["device_calls"] == 3 and rows["jit smooth"]["kernel_launches"] >= 3
    (j,) = data["jit"]
    assert j["name"] == "smooth" and [(lp["line"], lp["ran"]) for lp in j["loops"]] == [(6, "kernel")]
    assert re.search(r"jit smooth +loop at prog\.py:6: kernel", proc.stderr)
    assert rows["jit smooth"]["jit_loops_python"] == 0 and "loops as Python" not in proc.stderr


def test_jit_loops_that_ran_as_python(tmp_path):
    src = ("import numpy as np\nimport numgpu\n\n"
           "@numgpu.jit\n"
           "def f(x):\n"
           "    out = []\n"
           "    for i in range(x.shape[0]):\n"
           "        out.append(float(x[i]) * 2)\n"
           "    t = 0.0\n"
           "    for i in range(x.shape[0]):\n"
           "        t += x[i]\n"
           "    return out, float(t)\n\n"
           "print(f(np.arange(5.0)))\n")
    proc, data, rows = report(tmp_path, src)
    assert (rows["jit f"]["jit_loops"], rows["jit f"]["jit_loops_python"]) == (2, 1)
    assert re.search(r"\n    jit f \(1 of 2 loops as Python\) +1 ", proc.stderr)
    assert re.search(r"jit f +loop at prog\.py:7: Python \(line 8 calls out\.append", proc.stderr)
    assert re.search(r"jit f +loop at prog\.py:10: kernel", proc.stderr)


def test_functions_pickle_with_the_report_on(tmp_path):
    # (the counting wrappers pickle by name, as the functions they wrap)
    src = ("import pickle\nimport numpy as np\n"
           "for f in (np.sum, np.random.default_rng, np.linalg.norm, np.add, np.mean):\n"
           "    print(pickle.loads(pickle.dumps(f)) is f)\n"
           "print(pickle.loads(pickle.dumps(np.random.rand)).__name__)\n")
    proc, data, rows = report(tmp_path, src)     # (prints what plain Python prints)
    assert proc.stdout == "True\n" * 5 + "rand\n"


# ---- numgpu run -m module, numgpu run - ---------------------------------------------------------

SHOW = ("import os, sys\nimport numpy as np\n"
        "print(__name__, [os.path.basename(a) for a in sys.argv], type(np.zeros(2)).__module__, np.arange(3) * 2)\n")


def test_run_module(tmp_path):
    pkg = tmp_path / "pkgm"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text(SHOW + "from . import helper\nprint(type(helper.V).__module__)\n")
    (pkg / "helper.py").write_text("import numpy\nV = numpy.ones(2)\n")
    (tmp_path / "modm.py").write_text(SHOW + "print(sys.path[0] == os.getcwd())\n")
    proc = python(["-m", "numgpu", "run", "-m", "pkgm", "x", "--y"], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    # (as python -m: argv[0] the module's file, its package's modules served numgpu's numpy too)
    assert proc.stdout.splitlines() == ["__main__ ['__main__.py', 'x', '--y'] numgpu [0 2 4]", "numgpu"]
    assert "numgpu run report for pkgm" in proc.stderr
    proc = python(["-m", "numgpu", "run", "--no-report", "-m", "modm", "-q"], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["__main__ ['modm.py', '-q'] numgpu [0 2 4]", "True"]
    plain = python(["-m", "modm", "-q"], cwd=str(tmp_path))
    assert plain.stdout.splitlines()[0] == "__main__ ['modm.py', '-q'] numpy [0 2 4]"


def test_run_module_errors(tmp_path):
    (tmp_path / "nomain").mkdir()
    (tmp_path / "nomain" / "__init__.py").write_text("")
    for args, message in ((["-m", "no_such_module_xyz"], "numgpu run: -m no_such_module_xyz: no module named "
                                                         "'no_such_module_xyz'"),
                          (["-m", "no_such_pkg_xyz.sub"], "no module named 'no_such_pkg_xyz.sub'"),
                          (["-m", "nomain"], "'nomain' is a package and cannot be directly executed"),
                          (["-m"], "-m needs a module name")):
        proc = python(["-m", "numgpu", "run"] + args, cwd=str(tmp_path))
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_run_stdin(tmp_path):
    src = SHOW + "print(__file__, sys.path[0] == '')\nraise SystemExit(4)\n"
    proc = python(["-m", "numgpu", "run", "-", "a", "b"], stdin=src, cwd=str(tmp_path))
    plain = python(["-", "a", "b"], stdin=src, cwd=str(tmp_path))
    assert proc.returncode == plain.returncode == 4, proc.stderr
    assert proc.stdout == plain.stdout.replace("numpy [0 2 4]", "numgpu [0 2 4]")
    assert proc.stdout.splitlines()[0] == "__main__ ['-', 'a', 'b'] numgpu [0 2 4]"
    assert "numgpu run report for <stdin>" in proc.stderr
    proc = python(["-m", "numgpu", "run", "--no-report", "-"], stdin="import numpy as np\nnp.ones(2) + np.ones(3)\n")
    assert proc.returncode == 1 and 'File "<stdin>", line 2' in proc.stderr and "ValueError" in proc.stderr
    assert "np.ones(2) + np.ones(3)" in proc.stderr       # (the line shown: its source is kept)
    # @numgpu.jit reads a function's source: one read from stdin compiles too
    jit_src = ("import numpy as np\nimport numgpu\n@numgpu.jit\ndef f(x):\n    for i in range(x.shape[0]):\n"
               "        x[i] = x[i] * 2\n    return x\nprint(f(np.ones(4)))\n")
    proc = python(["-m", "numgpu", "run", "-"], stdin=jit_src)
    assert proc.returncode == 0 and proc.stdout == "[2. 2. 2. 2.]\n", proc.stderr
    assert "loop at <stdin>:5: kernel" in proc.stderr


def test_json_report_to_stderr(tmp_path):
    script = tmp_path / "j.py"
    script.write_text("import numpy as np\nprint(np.arange(5).sum())\n")
    proc = python(["-m", "numgpu", "run", "--json", "-", str(script)])
    assert proc.returncode == 0 and proc.stdout == "10\n"
    data = json.loads(proc.stderr)           # (JSON in place of the text)
    rows = {e["name"]: e for e in data["calls"]}
    assert data["script"] == "j.py" and rows["numpy.arange"]["device_calls"] == 1
    assert data["totals"]["kernel_launches"] >= 1
    proc = python(["-m", "numgpu", "run", str(script)], env={"NUMGPU_REPORT": str(tmp_path / "no" / "r.json")})
    assert proc.returncode == 0 and "cannot write the report to" in proc.stderr


def test_index_kind():
    from numgpu import _run
    a = ng.arange(4)
    for key, kind in ((1, "basic"), (slice(1, 3), "basic"), ((Ellipsis, None), "basic"), (np.int64(2), "basic"),
                      (a > 1, "bool mask"), (np.array([True, False, True, True]), "bool mask"),
                      ([True, False, True, True], "bool mask"), (np.array(True), "bool mask"),
                      (ng.asarray(np.array([0, 2])), "int array"), ([0, 2], "int array"),
                      ((slice(None), np.array([1])), "int array"), ((np.array([1]), a > 0), "bool mask")):
        assert _run.index_kind(key) == kind, key


@pytest.mark.skipif("opencl" not in DEVICES, reason="no OpenCL device (PoCL)")
def test_gpu_calls_wait_for_their_kernels_unless_async(tmp_path):
    src = "import numpy as np\nprint(float((np.ones(1000) * 2).sum()))\n"
    for env, waits in (({}, True), ({"NUMGPU_REPORT_ASYNC": "1"}, False)):
        script = tmp_path / "w.py"
        script.write_text(src)
        proc = python(["-m", "numgpu", "run", "--json", "-", str(script)], env=dict(env, NUMGPU_DEVICE="opencl"))
        assert proc.returncode == 0 and proc.stdout == "2000.0\n", proc.stderr
        assert json.loads(proc.stderr)["synchronised_calls"] is waits
    proc = python(["-m", "numgpu", "run", str(script)], env={"NUMGPU_DEVICE": "opencl"})
    assert "times include\n     each call's kernels" in proc.stderr


def test_counted_wrapper_checks_its_arguments():
    from numgpu._core import Counted, Row
    with pytest.raises(ValueError, match="kind must be 'device', 'host' or 'fallback', not 'gpu'"):
        Counted(len, "x", Row(), kind="gpu")
    with pytest.raises(TypeError, match="a callable, a str and a Row"):
        Counted(len, "x", 5)
    with pytest.raises(TypeError, match="a callable, a str and a Row"):
        Counted(5, "x", Row())
    with pytest.raises(TypeError, match="a callable, a str and a Row"):
        Counted(len, "x", [0] * 14)                 # (rows are Rows: C numbers, no list)
    bad = Counted(len, "x", lambda args: [0] * 14)  # a row_of must give a Row
    with pytest.raises(TypeError, match="a row is a numgpu._core.Row"):
        bad([1])
    row = Row()
    c = Counted(len, "x", row)
    assert c([1, 2, 3]) == 3 and c("ab") == 2
    got = row.list()
    assert got[0] == 2 and got[1] > 0 and got[2:] == [0, 0.0] + [0] * 9 + [None]
    with pytest.raises(TypeError):      # (the call's own error, counted too)
        c(5)
    assert row.list()[0] == 3
    host = Row()
    h = Counted(len, "x", host, kind="host")
    assert h("abc") == 3 and host.list()[:3] == [0, 0.0, 1]
    row.where = "s.py:3"
    assert row.list()[-1] == "s.py:3" and row.where == "s.py:3"
    with pytest.raises(TypeError, match="Row.where is a str or None"):
        row.where = 5
