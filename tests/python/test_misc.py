"""Runtime behaviour around the ops: numgpu.stats() counters (launches, cache
hits, transfers, no leaks), the kernel compile path (missing compiler,
NUMGPU_SHOW_KERNELS, the disk cache), the null device, device selection
errors, and the current-device API; NumPy's helpers for complex numbers (angle,
iscomplex, isreal, iscomplexobj, real_if_close, sort_complex, real/imag/conj)
against NumPy on every dtype."""
import gc
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, COMPLEX, assert_same, data, dtype_id

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One op (and the stats) in a fresh interpreter; prints a JSON line.
STATS_SCRIPT = """
import json, numpy as np, numgpu as ng
a = ng.asarray(np.arange(10.0, dtype=np.float64))
b = (a * 3.0 + 1.0).sum()
print(json.dumps({"value": float(b.get()), "stats": ng.stats()}))
"""


def run_python(code, env_updates, timeout=180):
    """Runs `code` in a new interpreter with numgpu importable; returns CompletedProcess."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "python") + os.pathsep + env.get("PYTHONPATH", "")
    for k, v in env_updates.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def last_json(proc):
    assert proc.returncode == 0, "subprocess failed:\n" + proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- stats -------------------------------------------------------------------------------------

def test_stats_keys():
    s = ng.stats()
    for key in ["kernel_launches", "kernels_compiled", "disk_cache_hits", "memory_cache_hits", "uploads",
                "upload_bytes", "downloads", "download_bytes", "bytes_in_use", "buffers_in_use",
                "overflow_bytes", "overflow_allocations"]:
        assert key in s and isinstance(s[key], int) and s[key] >= 0, key


def test_kernel_launch_is_counted():
    a = ng.asarray(np.arange(100.0))
    s0 = ng.stats()
    b = a + 1.0
    s1 = ng.stats()
    assert s1["kernel_launches"] >= s0["kernel_launches"] + 1
    del b


def test_second_identical_op_is_a_memory_cache_hit():
    a = ng.asarray(np.arange(50, dtype=np.int16))
    b = ng.asarray(np.arange(50, dtype=np.int16))
    r = ng.bitwise_xor(a, b)        # first time: compiled or loaded from disk
    s0 = ng.stats()
    r = ng.bitwise_xor(a, b)
    s1 = ng.stats()
    assert s1["memory_cache_hits"] >= s0["memory_cache_hits"] + 1
    assert s1["kernels_compiled"] == s0["kernels_compiled"]
    assert s1["disk_cache_hits"] == s0["disk_cache_hits"]
    # another shape of the same rank and layout reuses the kernel too
    c = ng.asarray(np.arange(7, dtype=np.int16))
    s2 = ng.stats()
    ng.bitwise_xor(c, c)
    s3 = ng.stats()
    assert s3["kernels_compiled"] == s2["kernels_compiled"]
    assert s3["memory_cache_hits"] >= s2["memory_cache_hits"] + 1
    del r


def test_transfers_are_counted():
    h = np.arange(32, dtype=np.float32)
    s0 = ng.stats()
    a = ng.asarray(h)
    s1 = ng.stats()
    assert s1["uploads"] == s0["uploads"] + 1
    assert s1["upload_bytes"] == s0["upload_bytes"] + h.nbytes
    a.get()
    s2 = ng.stats()
    assert s2["downloads"] == s1["downloads"] + 1
    assert s2["download_bytes"] == s1["download_bytes"] + h.nbytes


def test_no_leak_after_deleting_arrays():
    gc.collect()
    s0 = ng.stats()
    h = np.arange(3000.0).reshape(30, 100)
    a = ng.asarray(h)
    b = (a * 2.0 + a.T.T)[::2]
    c = b.sum(axis=1)
    d = a[[1, 2, 3]]
    e = ng.concatenate([a, a])
    f = a @ a.T
    mid = ng.stats()
    assert mid["bytes_in_use"] > s0["bytes_in_use"]
    assert mid["buffers_in_use"] > s0["buffers_in_use"]
    del a, b, c, d, e, f
    gc.collect()
    s1 = ng.stats()
    assert s1["bytes_in_use"] == s0["bytes_in_use"]
    assert s1["buffers_in_use"] == s0["buffers_in_use"]


def test_views_keep_one_buffer():
    gc.collect()
    s0 = ng.stats()
    a = ng.asarray(np.zeros((10, 10)))
    views = [a[1:], a.T, a.reshape(100), a[::2, ::3], a[None]]
    s1 = ng.stats()
    assert s1["buffers_in_use"] == s0["buffers_in_use"] + 1
    del a
    gc.collect()
    assert ng.stats()["buffers_in_use"] == s0["buffers_in_use"] + 1   # the views hold it
    del views
    gc.collect()
    assert ng.stats()["buffers_in_use"] == s0["buffers_in_use"]


# ---- compiling kernels (subprocesses with their own cache directory) ------------------------------

def test_missing_compiler_raises_device_error_naming_the_fix(tmp_path):
    """cpu device: no C compiler -> numgpu.DeviceError that says what to do."""
    code = """
    import numpy as np, numgpu as ng
    try:
        ng.asarray(np.arange(5.0)) + 1.0
    except ng.DeviceError as e:
        print("DeviceError:", e)
    else:
        print("no error")
    """
    p = run_python(code, {"CC": "/nonexistent/cc", "NUMGPU_CACHE_DIR": str(tmp_path), "NUMGPU_DEVICE": "cpu"})
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith("DeviceError:"), out + p.stderr
    assert "/nonexistent/cc" in out
    assert "CC" in out and ("install" in out or "set" in out), out


def test_show_kernels_prints_source(tmp_path):
    p = run_python(STATS_SCRIPT, {"NUMGPU_SHOW_KERNELS": "1", "NUMGPU_CACHE_DIR": str(tmp_path)})
    r = last_json(p)
    assert r["value"] == pytest.approx(145.0)
    assert "numgpu: kernel" in p.stderr
    assert "#include" in p.stderr or "__kernel" in p.stderr or "extern" in p.stderr, p.stderr[:2000]
    quiet = run_python(STATS_SCRIPT, {"NUMGPU_SHOW_KERNELS": None, "NUMGPU_CACHE_DIR": str(tmp_path)})
    assert "numgpu: kernel" not in quiet.stderr


def test_disk_cache_between_processes(tmp_path):
    first = last_json(run_python(STATS_SCRIPT, {"NUMGPU_CACHE_DIR": str(tmp_path)}))
    assert first["value"] == pytest.approx(145.0)
    assert first["stats"]["kernels_compiled"] > 0
    assert any(tmp_path.iterdir()), "nothing written to the cache directory"
    second = last_json(run_python(STATS_SCRIPT, {"NUMGPU_CACHE_DIR": str(tmp_path)}))
    assert second["value"] == pytest.approx(145.0)
    assert second["stats"]["kernels_compiled"] == 0
    assert second["stats"]["disk_cache_hits"] > 0
    assert second["stats"]["disk_cache_hits"] >= first["stats"]["kernels_compiled"]


def test_corrupt_disk_cache_is_recompiled(tmp_path):
    last_json(run_python(STATS_SCRIPT, {"NUMGPU_CACHE_DIR": str(tmp_path)}))
    n = 0
    for root, _, files in os.walk(tmp_path):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "r+b") as fh:
                size = os.path.getsize(path)
                if size:
                    fh.seek(size // 2)
                    fh.write(b"\xde\xad\xbe\xef")
                    n += 1
    assert n
    r = last_json(run_python(STATS_SCRIPT, {"NUMGPU_CACHE_DIR": str(tmp_path)}))
    assert r["value"] == pytest.approx(145.0)
    assert r["stats"]["kernels_compiled"] > 0


def fake_kernels(folder, n, size, age_s, start=0):
    """n kernels' files as the disk cache names them ("%016x.so" and its ".sum"), `size` bytes
    each, last used age_s seconds ago (the later ones a minute apart, more recently)."""
    folder.mkdir(parents=True, exist_ok=True)
    now = time.time()
    names = []
    for i in range(start, start + n):
        for ext, nbytes in (("so", size), ("sum", 17)):
            path = folder / ("%016x.%s" % (0xabc000 + i, ext))
            path.write_bytes(b"k" * nbytes)
            os.utime(path, (now - age_s + 60 * (i - start), now - age_s + 60 * (i - start)))
            names.append(path.name)
    return names


def folder_bytes(folder):
    return sum(os.stat(p).st_blocks * 512 for p in folder.iterdir())


def test_cache_trim_removes_the_kernels_used_longest_ago(tmp_path):
    folder = tmp_path / "cpu"
    fake_kernels(folder, 10, 64 * 1024, age_s=7200)
    stale = folder / ("%016x.4242.abc.tmp.so.c" % 0xdead)       # a crashed compile's, 2 hours old
    stale.write_text("x")
    os.utime(stale, (time.time() - 7200,) * 2)
    busy = folder / ("%016x.4243.abd.tmp.so" % 0xbeef)          # another process compiling now
    busy.write_text("x")
    (folder / "notes.txt").write_text("not a kernel")
    total = folder_bytes(folder) - 3 * os.stat(busy).st_blocks * 512
    r = ng._core.cache_trim(str(folder), 2 ** 40, 0)             # under the limit: only looked at
    assert r["kernels"] == 10 and r["kernels_removed"] == 0 and r["bytes"] >= 10 * 64 * 1024
    limit = 6 * 68 * 1024
    r = ng._core.cache_trim(str(folder), limit, limit // 2)
    left = sorted(p.name for p in folder.iterdir())
    kernels_left = [n for n in left if n.endswith(".so") and ".tmp" not in n]
    assert r["kernels_removed"] == 10 - len(kernels_left) and len(kernels_left) < 10
    # the most recently used stay, each with its checksum; the oldest went with theirs
    assert kernels_left == ["%016x.so" % (0xabc000 + i) for i in range(10 - len(kernels_left), 10)]
    assert all(n[:-3] + ".sum" in left for n in kernels_left) and len([n for n in left if n.endswith(".sum")]) == len(kernels_left)
    assert folder_bytes(folder) <= limit // 2 + 2 * 4096 and total > limit
    assert "notes.txt" in left and busy.name in left and stale.name not in left
    r = ng._core.cache_trim(str(folder), 0, 0)                  # (numgpu cache --clear)
    assert sorted(p.name for p in folder.iterdir()) == sorted(["notes.txt", busy.name])
    with pytest.raises(ng.DeviceError, match="cannot read the kernel cache directory"):
        ng._core.cache_trim(str(tmp_path / "missing"), 0, 0)


def test_disk_cache_hits_renew_a_kernel_and_compiles_keep_the_limit(tmp_path):
    env = {"NUMGPU_CACHE_DIR": str(tmp_path), "NUMGPU_DEVICE": "cpu"}
    last_json(run_python(STATS_SCRIPT, env))
    folder = tmp_path / "cpu"
    sums = [p for p in folder.iterdir() if p.name.endswith(".sum")]
    assert sums
    for p in sums:
        os.utime(p, (time.time() - 86400,) * 2)
    r = last_json(run_python(STATS_SCRIPT, env))
    assert r["stats"]["disk_cache_hits"] > 0 and r["stats"]["kernels_compiled"] == 0
    assert max(os.stat(p).st_mtime for p in sums) > time.time() - 600     # loaded: used now
    # A process that compiles keeps the folder under NUMGPU_CACHE_SIZE (on a thread of its own):
    # old kernels go first. (.trimmed: when the folder was last looked at; gone, it looks now.)
    old = fake_kernels(folder, 8, 256 * 1024, age_s=30 * 86400)
    (folder / ".trimmed").unlink(missing_ok=True)
    code = """
    import json, os, time, numpy as np, numgpu as ng
    a = ng.asarray(np.arange(7, dtype=np.int16))
    print(int((a * 5 - 2).max()))
    folder, old = %r, %r
    for _ in range(200):
        if not any(os.path.exists(os.path.join(folder, n)) for n in old[:8]):
            break
        time.sleep(0.1)
    print(json.dumps(sorted(os.listdir(folder))))
    """ % (str(folder), old)
    p = run_python(code, dict(env, NUMGPU_CACHE_SIZE="1M"))
    left = last_json(p)
    assert p.stdout.splitlines()[0] == "28"
    assert not any(n in left for n in old[:8])          # the oldest fake kernels went
    assert any(n.endswith(".sum") for n in left)        # the kernels just compiled stayed
    assert ".trimmed" in left


def test_numgpu_cache_size_that_is_not_a_size_is_said():
    p = run_python("import numgpu as ng; print(ng._core.cache_limit())", {"NUMGPU_CACHE_SIZE": "lots"})
    assert p.returncode == 0 and p.stdout.strip() == str(4 << 30)
    assert "NUMGPU_CACHE_SIZE=lots is not a size" in p.stderr
    for text, value in (("0", 0), ("512M", 512 << 20), ("1.5GiB", 3 << 29), ("2048", 2048), ("1T", 1 << 40)):
        p = run_python("import numgpu as ng; print(ng._core.cache_limit())", {"NUMGPU_CACHE_SIZE": text})
        assert p.stdout.strip() == str(value), (text, p.stdout, p.stderr)


# ---- the null device ---------------------------------------------------------------------------------

def test_null_device_runs_nothing_but_generates_c():
    code = """
    import json, numpy as np, numgpu as ng
    a = ng.asarray(np.arange(100.0))
    b = ng.sin(a) * 2 + a
    c = b.sum(axis=0)
    d = a.reshape(10, 10) @ a.reshape(10, 10)
    e = a[a > 3.0]
    src = ng._core.last_kernel_source()
    b.get(); c.get(); d.get()
    print(json.dumps({"device": ng.get_device(), "adevice": a.device, "shape": list(d.shape),
                      "launches": ng.stats()["kernel_launches"], "src": src}))
    """
    p = run_python(code, {"NUMGPU_DEVICE": "null"})
    r = last_json(p)
    assert r["device"].startswith("null") and r["adevice"].startswith("null")
    assert r["shape"] == [10, 10]
    assert "#pragma omp parallel for" in r["src"]


# ---- device selection ------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["bogus", "cpu:7", "cuda:x"])
def test_bad_device_value_names_it(spec):
    code = """
    import numgpu as ng
    try:
        ng.zeros(3) + 1
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
    else:
        print("no error")
    """
    p = run_python(code, {"NUMGPU_DEVICE": spec})
    msg = (p.stdout + p.stderr).strip()
    assert "no error" not in msg
    assert spec in msg, msg
    assert "Error" in msg


def test_default_device():
    a = ng.asarray(np.arange(3.0))
    assert a.device == ng.get_device()
    want = os.environ.get("NUMGPU_DEVICE")
    if want and want != "auto":
        assert ng.get_device().split(":")[0] == want.split(":")[0]


def test_cpu_device_selection():
    """Device test: the cpu device is always present."""
    prev = ng.get_device()
    with ng.use("cpu"):
        assert ng.get_device() == "cpu"
        a = ng.ones(4)
        assert a.device == "cpu"
        assert_same(a + 1, np.ones(4) + 1)
    assert ng.get_device() == prev
    z = ng.zeros(3, device="cpu")
    assert z.device == "cpu"
    assert any(d["kind"] == "cpu" for d in ng.devices())
    assert ng.is_available("cpu")


def test_set_device_bad_spec():
    with pytest.raises((ValueError, ng.DeviceError), match="bogus"):
        ng.set_device("bogus")
    with pytest.raises((ValueError, ng.DeviceError), match="bogus"):
        ng.zeros(3, device="bogus")


@pytest.mark.skipif(not ng.is_available("opencl"), reason="no OpenCL platform")
def test_exit_right_after_a_launch_waits_for_the_device(tmp_path):
    # PoCL compiles a kernel in its own thread at the first launch; a process that
    # exits before that thread finished used to crash in LLVM's destructors
    # (about one run in four with PoCL's kernel cache off)
    code = "import numgpu; numgpu.set_device('opencl'); x = numgpu.arange(7) * 3\n"
    env = dict(os.environ, POCL_KERNEL_CACHE="0", NUMGPU_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(sys.path))
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE) for _ in range(6)]
    codes = [(p.wait(), p.stderr.read().decode()[-300:]) for p in procs]
    assert all(rc == 0 for rc, _ in codes), codes


# ---- NumPy's helpers for complex numbers ------------------------------------------------


def _with_specials(dt):
    x = data(dt, (3, 4), seed=21)
    if np.dtype(dt).kind == "c":  # zeros of both signs, infinities and NaN in either part
        x.flat[:6] = [0j, complex(-0.0, 0.0), complex(0.0, -0.0), complex(np.inf, 1), complex(1, -np.inf),
                      complex(np.nan, 0)]
        x.flat[6] = x.flat[7].real  # a complex value with imaginary part 0
    elif np.dtype(dt).kind == "f":
        x.flat[:4] = [0.0, -0.0, np.inf, np.nan]
    return x


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_angle(dt):
    x = _with_specials(dt)
    g = ng.asarray(x)
    with np.errstate(all="ignore"):
        assert_same(ng.angle(g), np.angle(x))
        assert_same(ng.angle(g, deg=True), np.angle(x, deg=True))
        assert_same(np.angle(g), np.angle(x))            # NumPy's function on a numgpu array: ours
        assert_same(ng.angle(g[::-2, 1::2]), np.angle(x[::-2, 1::2]))


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_iscomplex_isreal_real_imag_conj(dt):
    x = _with_specials(dt)
    g = ng.asarray(x)
    for name in ("iscomplex", "isreal", "real", "imag", "conj", "conjugate"):
        assert_same(getattr(ng, name)(g), getattr(np, name)(x))
        assert_same(getattr(np, name)(g), getattr(np, name)(x))
        assert_same(getattr(ng, name)(g.T), getattr(np, name)(x.T))
    for name in ("iscomplexobj", "isrealobj"):
        assert getattr(ng, name)(g) is getattr(np, name)(x)
        assert getattr(np, name)(g) is getattr(np, name)(x)
        assert getattr(ng, name)(x.tolist()) is getattr(np, name)(x.tolist())
    assert_same(g.conj(), x.conj())
    assert_same(g.conjugate(), x.conjugate())
    assert (g.conj() is g) is (x.conj() is x)  # a real array's method returns the array itself


def test_complex_helpers_of_python_numbers():
    for v in (3, 2.5, 1j, -1 - 2j, True):
        for name in ("real", "imag"):
            assert_same(getattr(ng, name)(v), getattr(np, name)(v))
        assert ng.iscomplexobj(v) is np.iscomplexobj(v)
        assert_same(ng.angle(v), np.angle(v))
        assert_same(ng.iscomplex(v), np.iscomplex(v))
        assert_same(ng.isreal(v), np.isreal(v))
    assert_same(ng.angle([1, 2j, -1]), np.angle([1, 2j, -1]))


@pytest.mark.parametrize("dt", COMPLEX, ids=dtype_id)
def test_real_if_close(dt):
    eps = float(np.finfo(dt).eps)
    for imag, tol in [(0.0, 100), (10 * eps, 100), (1000 * eps, 100), (1e-3, 1e-2), (1e-3, 1e-4), (0.5, 1)]:
        x = (np.arange(6) + 1j * imag).astype(dt)
        got, exp = ng.real_if_close(ng.asarray(x), tol=tol), np.real_if_close(x, tol=tol)
        assert_same(got, exp)
    x = np.arange(4.0)
    assert_same(ng.real_if_close(ng.asarray(x)), np.real_if_close(x))


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_sort_complex(dt):
    x = _with_specials(dt)
    if np.dtype(dt).kind in "fc":
        # NaN left out: where NaNs go in a complex sort is the sort family's (numgpu.sort)
        x[np.isnan(x)] = 7
    if np.dtype(dt).kind == "c":
        x.flat[8:12] = [complex(1, 2), complex(1, -1), complex(1, np.inf), complex(-np.inf, -1)]
    g = ng.asarray(x)
    assert_same(ng.sort_complex(g), np.sort_complex(x))
    assert_same(np.sort_complex(g), np.sort_complex(x))
    assert_same(ng.sort_complex(g.ravel()), np.sort_complex(x.ravel()))


def test_part_setters_and_views():
    x = data(np.complex128, (3, 4), seed=22)
    g = ng.asarray(x)
    g.real = 5.0
    x.real = 5.0
    g.imag[1] = ng.arange(4.0)
    x.imag[1] = np.arange(4.0)
    assert_same(g, x)
    r = g.real
    r[0, 0] = -1
    x.real[0, 0] = -1
    assert_same(g, x)
    f = ng.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        np.arange(3.0).imag = 1
    with pytest.raises(TypeError):
        f.imag = 1


def _forked_child_work(q):
    x = ng.asarray(np.arange(160000.0).reshape(400, 400)[:, ::-1])
    q.put(bool(float((x * 2).sum()) == 2 * float(np.arange(160000.0).sum()))
          and np.array_equal(ng.sort(x, axis=1).get(), np.sort(x.get(), axis=1)))


@pytest.mark.skipif(not hasattr(os, "fork") or ng.get_device() != "cpu",
                    reason="fork() is POSIX's; GPU runtimes (CUDA, PoCL) do not survive it: use spawn there")
def test_a_forked_child_runs_kernels():
    # GNU OpenMP's threads do not survive fork(): a child's first parallel kernel waited for them
    # forever (a multiprocessing worker on Linux hung); it runs its kernels in one thread now
    import multiprocessing
    x = ng.asarray(np.ones((400, 400)))
    float((x + 1).sum())                      # the parent's kernels start the OpenMP threads
    ng.sort(x, axis=1)
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_forked_child_work, args=(q,))
    p.start()
    p.join(120)
    if p.is_alive():
        p.kill()
        pytest.fail("the forked child hung")
    assert p.exitcode == 0 and q.get(timeout=5) is True


def _forked_child_on_gpu(x, q):
    try:
        float((x * 2).sum())
        q.put("ran")
    except ng.DeviceError as e:
        q.put(str(e))
    # the child's own arrays go to cpu (a multiprocessing worker's work runs: it raised before)
    q.put((ng.get_device(), float((ng.asarray(np.arange(10.0)) * 2).sum())))
    ng.set_device("cpu")                      # the cure the error names, in the child itself
    q.put(float((ng.asarray(np.arange(10.0)) * 3).sum()))


@pytest.mark.skipif(not hasattr(os, "fork") or ng.get_device() in ("cpu", "null"),
                    reason="the cpu device survives fork() (test_a_forked_child_runs_kernels)")
def test_a_forked_child_on_a_gpu_device_gets_an_error_not_a_hang():
    # OpenCL and CUDA drivers do not survive fork(): PoCL's child hung at its first kernel
    import multiprocessing
    x = ng.asarray(np.ones((400, 400)))
    float((x + 1).sum())
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_forked_child_on_gpu, args=(x, q))
    p.start()
    p.join(120)
    if p.is_alive():
        p.kill()
        pytest.fail("the forked child hung")
    assert p.exitcode == 0
    msg = q.get(timeout=5)
    assert "fork" in msg and "spawn" in msg and ng.get_device() in msg, msg
    assert q.get(timeout=5) == ("cpu", 90.0)
    assert q.get(timeout=5) == 135.0
    assert float((x + 1).sum()) == 320000.0   # the parent's device is untouched
