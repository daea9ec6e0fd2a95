"""The `numgpu` command line (python -m numgpu): doctor, bench, demo, run.

Each command runs in a fresh interpreter, as a user would run it; small sizes keep the file
well under a minute. Device-dependent expectations follow what this machine has: cuda is
expected absent only where no NVIDIA driver loads, opencl working only where it opens.
"""
import json
import os
import subprocess
import sys

import pytest

import numgpu as ng
from numgpu.cli import doctor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KMEANS = os.path.join(REPO, "examples", "kmeans.py")
SMALL_KMEANS = [KMEANS, "--points", "2000", "--dims", "4", "--clusters", "3", "--iters", "3"]


def has_cuda_driver():
    try:
        ng._core.cuda_driver_version()
        return True
    except ng.DeviceError:
        return False


def numgpu_cli(*args, env=None, timeout=120):
    """`python -m numgpu ARGS` with numgpu importable; returns the CompletedProcess."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(os.path.dirname(ng.__file__)), full_env.get("PYTHONPATH")) if p)
    for key, value in (env or {}).items():
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    return subprocess.run([sys.executable, "-m", "numgpu"] + list(args), env=full_env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def doctor_json():
    proc = numgpu_cli("doctor", "--json", env={"NUMGPU_DEVICE": "cpu"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


# ---- doctor --------------------------------------------------------------------------

def test_doctor_json_keys(doctor_json):
    for key in ("numgpu", "devices", "cuda", "opencl", "compiler", "cache", "selected", "problems", "ok"):
        assert key in doctor_json
    assert set(doctor_json["devices"]) == {"cpu", "opencl", "cuda", "null"}
    for p in doctor_json["problems"]:
        assert p["reason"] and "fix" in p


def test_doctor_cpu_works(doctor_json):
    cpu = doctor_json["devices"]["cpu"]
    assert cpu["found"] and cpu["works"]
    assert cpu["devices"][0]["seconds"] >= 0
    assert doctor_json["compiler"]["path"] and doctor_json["compiler"]["openmp"]
    assert doctor_json["selected"] == {"spec": "cpu", "from": "NUMGPU_DEVICE", "device": "cpu", "works": True,
                                       "error": None}


def test_doctor_opencl(doctor_json):
    ocl = doctor_json["devices"]["opencl"]
    if ng.is_available("opencl"):
        assert ocl["found"] and ocl["works"], ocl
        assert all("float64" in d for d in ocl["devices"])
    else:
        assert not ocl["found"] and ocl["error"]


def test_doctor_cuda(doctor_json):
    cu = doctor_json["devices"]["cuda"]
    if has_cuda_driver():
        pytest.skip("an NVIDIA driver is installed here")
    assert not cu["found"] and not cu["works"]
    assert "libcuda" in cu["error"]
    assert doctor_json["cuda"]["driver_version"] is None and doctor_json["cuda"]["driver_error"]
    problem = [p for p in doctor_json["problems"] if p["where"] == "cuda"][0]
    assert "NVIDIA driver" in problem["fix"]


def test_doctor_exit_status():
    if not has_cuda_driver():
        proc = numgpu_cli("doctor", env={"NUMGPU_DEVICE": "cuda"})
        assert proc.returncode == 1
        assert "NUMGPU_DEVICE=cuda" in proc.stdout and "CANNOT BE USED" in proc.stdout
    proc = numgpu_cli("doctor", env={"NUMGPU_DEVICE": "cpu"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "device" in proc.stdout and "cpu" in proc.stdout and "NUMGPU_DEVICE=cpu -> cpu: works" in proc.stdout
    proc = numgpu_cli("doctor", env={"NUMGPU_DEVICE": "bogus"})
    assert proc.returncode == 1 and "unknown device" in proc.stdout


def test_doctor_fix_text():
    assert doctor.split_fix("libcuda.so.1 not found: no NVIDIA driver is installed (install the NVIDIA driver "
                            "for your GPU; numgpu needs no CUDA toolkit)") == (
        "libcuda.so.1 not found: no NVIDIA driver is installed",
        "install the NVIDIA driver for your GPU; numgpu needs no CUDA toolkit")
    message = "cpu: no C compiler found (tried 'x': No such file); install one (apt-get install gcc)"
    assert doctor.split_fix(message) == ("cpu: no C compiler found (tried 'x': No such file)",
                                         "install one (apt-get install gcc)")
    assert doctor.version_text(12040) == "12.4"


def test_doctor_cuda_version_advice():
    trouble, note = doctor.cuda_advice(12040, "13.0")
    assert "supports CUDA 12.4 but NVRTC is 13.0" in trouble["reason"]
    assert "nvidia-cuda-nvrtc-cu12" in trouble["fix"] and "update the driver" in trouble["fix"]
    trouble, note = doctor.cuda_advice(12040, "12.6")
    assert trouble is None and "newer" in note
    trouble, _ = doctor.cuda_advice(12040, None)
    assert "nvidia-cuda-nvrtc-cu12" in trouble["fix"]
    assert doctor.cuda_advice(12080, "12.4") == (None, None)
    assert doctor.cuda_advice(None, "13.0") == (None, None)


# ---- bench ---------------------------------------------------------------------------

def test_bench_table():
    proc = numgpu_cli("bench", "--repeat", "1", "--warmup", "0", "--devices", "cpu", *SMALL_KMEANS)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert any(ln.startswith("numpy ") and "reference" in ln for ln in lines), proc.stdout
    assert any(ln.startswith("numgpu ") and " cpu " in ln and ln.rstrip().endswith("same") for ln in lines)
    assert "launches" in proc.stdout and "uploads" in proc.stdout      # the stats table
    assert "run 1/1" in proc.stderr                                    # one progress line per run


def test_bench_failure_is_reported(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("import numgpu as np\nraise ValueError('boom')\n")
    proc = numgpu_cli("bench", "--repeat", "1", "--warmup", "0", "--devices", "cpu", str(script))
    assert proc.returncode == 1
    assert "FAILED" in proc.stdout and "ValueError: boom" in proc.stdout


def test_bench_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "bench.png"
    proc = numgpu_cli("bench", "--repeat", "1", "--warmup", "0", "--devices", "cpu", "--plot", str(png),
                      *SMALL_KMEANS)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_plot_without_matplotlib(tmp_path):
    fake = tmp_path / "matplotlib"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    proc = numgpu_cli("bench", "--plot", str(tmp_path / "x.png"), KMEANS,
                      env={"PYTHONPATH": os.pathsep.join([str(tmp_path), os.path.dirname(os.path.dirname(
                          ng.__file__))])})
    assert proc.returncode == 2
    assert "matplotlib" in proc.stderr and not (tmp_path / "x.png").exists()


# ---- demo and run ----------------------------------------------------------------------

def test_demo_small():
    proc = numgpu_cli("demo", "--chars", "3000", "--repeat", "1", "--loop-seqs", "20", "--device", "cpu")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for row in ("(a) Python loop", "(b) same loop, @numgpu.jit", "(c) vectorised, numgpu", "(d) vectorised, NumPy"):
        assert row in out
    assert "equal to (a); str, dict and np.zeros, loop ran parallel" in out  # the seed's own loop compiled
    assert "equal to (d)" in out and "result: all outputs equal" in out


def test_demo_chunks_when_over_budget():
    proc = numgpu_cli("demo", "--chars", "3000", "--repeat", "1", "--loop-seqs", "5", "--device", "cpu",
                      "--dtype", "uint8", "--max-bytes", "100000")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "does not fit" in proc.stdout and "chunks of" in proc.stdout
    assert "result: all outputs equal" in proc.stdout


def test_run_help_and_missing_script():
    proc = numgpu_cli("run", "--help")
    assert proc.returncode == 0 and "--precision" in proc.stdout and "--profile" in proc.stdout
    proc = numgpu_cli("run", "no_such_script.py")
    assert proc.returncode == 2 and "no such script" in proc.stderr


def test_run_command_line_errors(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("import numpy as np\nprint(np.arange(3).sum())\n")
    cases = [((), "give the script to run"), ((str(tmp_path),), "a folder, not a script"),
             (("nothere.py",), "no such script"), (("--device", "bogus", str(script)), "cannot use the device"),
             (("--device", "cuda:9", str(script)), "cannot use the device")]
    for args, text in cases:
        proc = numgpu_cli("run", *args)
        assert proc.returncode == 2 and text in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
    proc = numgpu_cli("run", "--no-report", str(script), env={"NUMGPU_DEVICE": "bogus"})
    assert proc.returncode == 2 and "cannot use the device" in proc.stderr and proc.stdout == ""
    proc = numgpu_cli("run", "--no-report", "--device", "null", str(script))
    assert proc.returncode == 0 and "null device runs no kernel" in proc.stderr


def test_an_unusable_kernel_cache_is_said_and_a_lasting_one_used(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = "import numgpu as np; print(float((np.arange(4.0) * 3 + 1).sum()))"
    full_env = dict(os.environ, NUMGPU_CACHE_DIR=str(blocker / "cache"), NUMGPU_DEVICE="cpu")
    runs = [subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0 and r.stdout.strip() == "22.0", r.stderr
        assert "cannot be used" in r.stderr and "numgpu-cache-" in r.stderr
    proc = numgpu_cli("doctor", env={"NUMGPU_CACHE_DIR": str(blocker / "cache"), "NUMGPU_DEVICE": "cpu"})
    assert "cannot be created" in proc.stdout and "NUMGPU_CACHE_DIR" in proc.stdout


def test_cc_with_arguments_is_split_as_make_splits_it(tmp_path):
    code = "import numgpu as np; print(float((np.arange(4.0) * 5).sum()))"
    full_env = dict(os.environ, CC="gcc -O2", NUMGPU_CACHE_DIR=str(tmp_path), NUMGPU_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "30.0", r.stderr


def test_bench_says_a_script_exited_with_a_status(tmp_path):
    script = tmp_path / "b.py"
    script.write_text("import numgpu as np\nprint(np.arange(3).sum())\nraise SystemExit(7)\n")
    proc = numgpu_cli("bench", "--repeat", "1", "--warmup", "0", "--devices", "cpu", str(script), timeout=300)
    assert "exited with status 7" in proc.stdout


# ---- cache ---------------------------------------------------------------------------------

def test_cache_shows_trims_and_clears(tmp_path):
    folder = tmp_path / "cpu"
    folder.mkdir()
    for i in range(6):   # kernels of 200 KiB, used a day apart (the first longest ago)
        for ext, size in (("so", 200 * 1024), ("sum", 17)):
            p = folder / ("%016x.%s" % (0x51 + i, ext))
            p.write_bytes(b"k" * size)
            os.utime(p, (1.7e9 + 86400 * i,) * 2)
    env = {"NUMGPU_CACHE_DIR": str(tmp_path), "NUMGPU_CACHE_SIZE": "600K"}
    shown = numgpu_cli("cache", env=env)
    assert shown.returncode == 0, shown.stderr
    assert str(tmp_path) in shown.stdout and "600.0 KiB per device kind" in shown.stdout
    assert "cpu" in shown.stdout and "6 kernels" in shown.stdout
    trim = numgpu_cli("cache", "--trim", "--json", env=env)
    r = json.loads(trim.stdout)["kinds"]["cpu"]
    assert r["kernels"] == 6 and r["kernels_removed"] == 4      # down to 3/4 of 600 KiB: two stay
    assert sorted(p.name for p in folder.iterdir()) == ["%016x.%s" % (k, e) for k in (0x55, 0x56) for e in ("so", "sum")]
    cleared = numgpu_cli("cache", "--clear", "--device", "cpu", env=env)
    assert cleared.returncode == 0 and "removed 2 kernels" in cleared.stdout and not any(folder.iterdir())
    none = numgpu_cli("cache", env={"NUMGPU_CACHE_DIR": str(tmp_path / "new"), "NUMGPU_CACHE_SIZE": "0"})
    assert none.returncode == 0 and "no kernel compiled yet" in none.stdout and "none (NUMGPU_CACHE_SIZE=0)" in none.stdout
