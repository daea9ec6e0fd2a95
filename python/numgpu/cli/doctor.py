"""`numgpu doctor`: what devices, drivers and compilers numgpu finds, and whether they work.

Every device kind is opened and checked by running a tiny kernel on it (arange + sum), timed.
Around that: the CUDA driver and NVRTC versions (and whether they fit together), the OpenCL
ICDs, the C compiler and OpenMP that the `cpu` device needs, and the kernel cache. Every
failure carries its reason and a fix. `--json` prints the same as one JSON object.

Exit status: 0 when the device numgpu would use (NUMGPU_DEVICE, else "auto") works, 1 when not.
"""
import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy

import numgpu as ng

KINDS = ("cpu", "opencl", "cuda", "null")

# Fixes for failures whose message carries none of its own, by a piece of the message.
FIXES = (
    ("libcuda.so.1 not found", "install the NVIDIA driver for your GPU (besides it numgpu needs NVRTC only: "
                               "the CUDA toolkit or pip install nvidia-cuda-nvrtc-cu12)"),
    ("driver is too old", "update the NVIDIA driver"),
    ("libnvrtc", "pip install nvidia-cuda-nvrtc-cu12 (or the CUDA toolkit); NVRTC's major version must "
                 "not be newer than the CUDA version the driver supports"),
    ("CUDA_ERROR_NO_DEVICE", "check that the GPU is visible: nvidia-smi, CUDA_VISIBLE_DEVICES, "
                             "container --gpus flags"),
    ("0 CUDA devices", "check that the GPU is visible: nvidia-smi, CUDA_VISIBLE_DEVICES, container --gpus flags"),
    ("CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "NVRTC is newer than the driver: install the nvidia-cuda-nvrtc "
                                           "wheel matching the driver's CUDA version, or update the driver"),
    ("libOpenCL", "apt-get install ocl-icd-libopencl1 and a driver (your GPU vendor's, or pocl-opencl-icd)"),
    ("no OpenCL platform", "install an OpenCL driver: your GPU vendor's, or apt-get install pocl-opencl-icd"),
    ("no devices", "the OpenCL driver lists no device: check the vendor driver installation"),
    ("float64", "use float32 arrays on this device"),
    ("unknown device", "set NUMGPU_DEVICE to auto, cpu, cuda[:N] or opencl[:N] (the devices in the table above)"),
    ("does not exist", "pick one of the devices in the table above"),
    ("compiler", "install a C compiler with OpenMP (apt-get install gcc) or set CC"),
)


def split_fix(message):
    """(reason, fix) from a numgpu error message: the fix is its first "(install ..." or
    "; install ..." part when it has one, else one from FIXES, else None."""
    m = re.search(r"\s*([(;])\s*(?=(?:install|use|set|update|run|pip|apt-get)\b)", message)
    if m:
        fix = message[m.end():].strip()
        if m.group(1) == "(" and fix.endswith(")"):
            fix = fix[:-1]
        return message[:m.start()].strip(" ;"), fix
    for piece, fix in FIXES:
        if piece in message:
            return message, fix
    return message, None


def without_prefix(where, text):
    """The message without a leading "DeviceError: " or "<kind>: ", which repeat `where`."""
    if text.startswith("DeviceError: "):
        text = text[len("DeviceError: "):]
    kind = where.split(":")[0].split("=")[-1]
    return text[len(kind) + 2:] if text.startswith(kind + ": ") else text


def problem(where, message, fix=None):
    reason, own_fix = split_fix(message)
    return {"where": where, "reason": without_prefix(where, reason), "fix": fix or own_fix}


# ---- devices ------------------------------------------------------------------------

def smoke_test(spec):
    """Compile and run tiny kernels on `spec`: None if they work, else the error message.
    Results come back with int()/float(), explicit downloads, so NUMGPU_STRICT=1 does not interfere."""
    try:
        with ng.use(spec):
            total = int(ng.arange(1000).sum())
            if total != 499500:
                return "arange(1000).sum() gave %d, not 499500" % total
            y = float((ng.ones(1000, dtype=ng.float32) * 2).sum())
            if y != 2000.0:
                return "float32 (ones * 2).sum() gave %r, not 2000.0" % y
            ng.synchronize()
    except Exception as exc:  # any failure is a finding to report, not a crash
        return "%s: %s" % (type(exc).__name__, exc)
    return None


def gpu_details(description):
    """Name, compute capability and memory parsed from a CUDA device description
    ("NVIDIA H100 (sm_90, driver 12.4, NVRTC 12.6)")."""
    cc = re.search(r"\bsm_(\d+)(\d)\b", description)
    mem = re.search(r"(\d+(?:\.\d+)?)\s*(GiB|GB|MiB|MB)\b", description)
    return {"gpu_name": description.split(" (")[0],
            "compute_capability": "%s.%s" % cc.groups() if cc else None,
            "memory": " ".join(mem.groups()) if mem else None}


def check_kind(kind):
    """Open every device of `kind` and run the smoke test on each."""
    out = {"found": False, "works": False, "devices": [], "error": None}
    specs = [kind] if kind in ("cpu", "null") else ["%s:%d" % (kind, i) for i in range(16)]
    for spec in specs:
        t0 = time.perf_counter()
        try:
            info = ng._core.device_info(spec)         # opens the device (once per process)
        except (ng.DeviceError, ValueError) as exc:
            if not out["devices"]:
                out["error"] = str(exc)
            break
        dev = {"name": info["name"], "description": info["description"], "gpu": info["gpu"]}
        if kind == "null":
            dev.update(works=None, seconds=None, error=None, note="emits code, runs nothing (for tests)")
        else:
            error = smoke_test(spec)
            dev.update(works=error is None, seconds=round(time.perf_counter() - t0, 4), error=error)
        if kind == "opencl":
            dev["float64"] = "no float64" not in info["description"]
        if kind == "cuda":
            dev.update(gpu_details(info["description"]))
        out["devices"].append(dev)
    out["found"] = bool(out["devices"])
    out["works"] = any(d["works"] for d in out["devices"]) or (kind == "null" and out["found"])
    return out


def version_text(v):
    """12040 -> "12.4" (the CUDA version a driver supports)."""
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


def loaded_library(piece):
    """Path of a shared library loaded into this process whose name contains `piece`."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if piece in os.path.basename(path):
                    return path
    except OSError:
        pass
    return None


def nvrtc_wheel(cuda_major):
    return {11: "nvidia-cuda-nvrtc-cu11", 12: "nvidia-cuda-nvrtc-cu12"}.get(
        cuda_major, '"nvidia-cuda-nvrtc>=%d,<%d"' % (cuda_major, cuda_major + 1))


def cuda_advice(driver_version, nvrtc_version):
    """Whether NVRTC's kernels will load on this driver: (problem or None, note or None).
    driver_version as the driver gives it (12040), nvrtc_version as "13.0" or None."""
    if not driver_version:
        return None, None
    d_major, d_minor = driver_version // 1000, (driver_version % 1000) // 10
    cuda = version_text(driver_version)
    if not nvrtc_version:
        return problem("cuda", "NVRTC (the run-time CUDA compiler numgpu needs) not found",
                       "pip install %s (NVRTC for the driver's CUDA %s)" % (nvrtc_wheel(d_major), cuda)), None
    n_major, n_minor = (int(p) for p in nvrtc_version.split(".")[:2])
    if n_major > d_major:
        trouble = problem("cuda", "the driver supports CUDA %s but NVRTC is %s: the kernels NVRTC builds will "
                          "not load" % (cuda, nvrtc_version),
                          "pip install %s, or update the driver to one for CUDA %d" % (nvrtc_wheel(d_major), n_major))
        return trouble, None
    if n_major == d_major and n_minor > d_minor:
        return None, ("NVRTC %s is newer than the driver's CUDA %s: compiled kernels load (minor version "
                      "compatibility), PTX for GPUs this NVRTC does not know would not; update the driver "
                      "if kernels fail to load" % (nvrtc_version, cuda))
    return None, None


def check_cuda_stack(problems):
    """The driver's version, NVRTC's, and whether they fit together."""
    out = {"driver_version": None, "driver_cuda": None, "driver_error": None,
           "nvrtc_version": ng._core.nvrtc_version(), "nvrtc_path": None, "note": None}
    try:
        out["driver_version"] = ng._core.cuda_driver_version()
        out["driver_cuda"] = version_text(out["driver_version"])
    except ng.DeviceError as exc:
        out["driver_error"] = str(exc)
    if out["nvrtc_version"]:
        out["nvrtc_path"] = loaded_library("libnvrtc")
    trouble, out["note"] = cuda_advice(out["driver_version"], out["nvrtc_version"])
    if trouble:
        problems.append(trouble)
    return out


def opencl_icds():
    """The installed OpenCL drivers (ICD files), where the loader looks for them."""
    where = os.environ.get("OCL_ICD_VENDORS", "/etc/OpenCL/vendors")
    files = sorted(glob.glob(os.path.join(where, "*.icd"))) if os.path.isdir(where) else []
    out = []
    for path in files:
        try:
            with open(path) as f:
                out.append({"file": path, "library": f.read().strip()})
        except OSError:
            out.append({"file": path, "library": None})
    return out


# ---- the C compiler and OpenMP (the cpu device's) --------------------------------------

OPENMP_TEST = r"""
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int n = 0;
#pragma omp parallel
    {
#pragma omp atomic
        n++;
    }
    printf("%d %d\n", n, omp_get_max_threads());
    return 0;
}
"""


def check_compiler(problems):
    cc = os.environ.get("CC") or "cc"
    out = {"cc": cc, "path": shutil.which(cc.split()[0]), "version": None, "openmp": False,
           "openmp_threads": None, "error": None}
    if not out["path"]:
        out["error"] = "C compiler %r not found on PATH" % cc
        problems.append(problem("cpu", out["error"] + " (the cpu device compiles its kernels with it)",
                                "install one (apt-get install gcc) or point CC at one"))
        return out
    try:
        run = subprocess.run(cc.split() + ["--version"], capture_output=True, text=True, timeout=20)
        out["version"] = (run.stdout or run.stderr).strip().splitlines()[0] if (run.stdout or run.stderr) else None
        with tempfile.TemporaryDirectory(prefix="numgpu-doctor-") as tmp:
            src, exe = os.path.join(tmp, "omp.c"), os.path.join(tmp, "omp")
            with open(src, "w") as f:
                f.write(OPENMP_TEST)
            build = subprocess.run(cc.split() + ["-fopenmp", src, "-o", exe], capture_output=True, text=True,
                                   timeout=60)
            if build.returncode != 0:
                out["error"] = "%s -fopenmp failed: %s" % (cc, build.stderr.strip()[-300:])
            else:
                ran = subprocess.run([exe], capture_output=True, text=True, timeout=20)
                parts = ran.stdout.split()
                if ran.returncode == 0 and len(parts) == 2:
                    out["openmp"], out["openmp_threads"] = True, int(parts[1])
                else:
                    out["error"] = "the OpenMP test program failed (exit %d): %s" % (ran.returncode,
                                                                                   ran.stderr.strip()[-300:])
    except (OSError, subprocess.SubprocessError) as exc:
        out["error"] = "running %s failed: %s" % (cc, exc)
    if out["error"]:
        clang = "clang" in (out["version"] or "") or "clang" in cc
        problems.append(problem("cpu", out["error"],
                                "apt-get install libomp-dev (clang's OpenMP)" if clang
                                else "install gcc with OpenMP (apt-get install gcc libgomp1) or set CC"))
    return out


def check_cache():
    path = os.environ.get("NUMGPU_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "numgpu")
    out = {"path": path, "exists": os.path.isdir(path), "writable": None, "files": 0, "bytes": 0,
           "limit": ng._core.cache_limit()}
    if out["exists"]:
        out["writable"] = os.access(path, os.W_OK)
        for root, _, files in os.walk(path):
            for name in files:
                try:
                    out["bytes"] += os.path.getsize(os.path.join(root, name))
                    out["files"] += 1
                except OSError:
                    pass
    else:   # (numgpu would make it at its first kernel: made now, which also tells whether it can be)
        try:
            os.makedirs(path, exist_ok=True)
            out["writable"] = os.access(path, os.W_OK)
        except OSError as e:
            out["writable"], out["error"] = False, e.strerror or str(e)
    return out


# ---- putting it together ----------------------------------------------------------------

def diagnose():
    """Everything doctor reports, as one dict (the --json output)."""
    t0 = time.perf_counter()
    problems = []
    report = {
        "numgpu": {"version": ng.__version__, "path": os.path.dirname(ng.__file__),
                   "python": platform.python_version(), "numpy": numpy.__version__,
                   "platform": platform.platform()},
        "env": {k: v for k, v in sorted(os.environ.items())
                if k.startswith("NUMGPU_") or k in ("CC", "XDG_CACHE_HOME")},
        "devices": {},
    }
    for kind in KINDS:
        report["devices"][kind] = res = check_kind(kind)
        if res["error"] and kind != "null":
            problems.append(problem(kind, res["error"]))
        for d in res["devices"]:
            if d["error"]:
                problems.append(problem(d["name"], d["error"]))
    report["cuda"] = check_cuda_stack(problems)
    report["opencl"] = {"icds": opencl_icds()}
    report["compiler"] = check_compiler(problems)
    found, text = ng._core.cpu_blas()
    report["blas"] = {"found": found, "library": text if found else None, "error": None if found else text}
    if not found and "NUMGPU_BLAS=none" not in text:
        problems.append(problem("cpu", "matrix products and solves run as generated kernels (several times slower "
                                "than an optimised BLAS): " + text,
                                "pip install numpy (its wheels carry OpenBLAS), apt-get install libopenblas0, "
                                "or set NUMGPU_BLAS to a BLAS/LAPACK library"))
    report["cache"] = check_cache()
    if report["cache"]["writable"] is False:
        problems.append(problem("cache", "kernel cache %s cannot be used%s: kernels go to /tmp/numgpu-cache-%d "
                                "(or a new folder per run, compiling every kernel again)"
                                % (report["cache"]["path"], " (%s)" % report["cache"]["error"]
                                   if report["cache"].get("error") else "", os.getuid()),
                                "set NUMGPU_CACHE_DIR to a writable folder"))

    # The device a program gets by default: the exit status depends on it alone.
    spec = os.environ.get("NUMGPU_DEVICE") or "auto"
    sel = {"spec": spec, "from": "NUMGPU_DEVICE" if os.environ.get("NUMGPU_DEVICE") else "default",
           "device": None, "works": False, "error": None}
    try:
        sel["device"] = ng._core.device_info(spec)["name"]
    except (ng.DeviceError, ValueError) as exc:
        sel["error"] = str(exc)
    if sel["device"]:
        known = [d for r in report["devices"].values() for d in r["devices"] if d["name"] == sel["device"]]
        if known and known[0]["works"] is not None:
            sel["works"], sel["error"] = known[0]["works"], known[0]["error"]
        elif sel["device"] == "null":
            sel["works"] = True
        else:
            sel["error"] = smoke_test(spec)
            sel["works"] = sel["error"] is None
    if not sel["works"]:
        problems.insert(0, problem("NUMGPU_DEVICE=%s" % spec if sel["from"] == "NUMGPU_DEVICE" else "auto",
                                   sel["error"]))
    report["selected"] = sel
    report["problems"] = []
    for p in problems:                     # the selected device's failure is often a kind's too
        if all(p["reason"] != q["reason"] for q in report["problems"]):
            report["problems"].append(p)
    report["ok"] = sel["works"]
    report["seconds"] = round(time.perf_counter() - t0, 3)
    return report


def _device_rows(report):
    rows = []
    for kind in KINDS:
        res = report["devices"][kind]
        if not res["devices"]:
            rows.append((kind, "no", "-", "-", without_prefix(kind, split_fix(res["error"] or "not found")[0])))
        for d in res["devices"]:
            detail = d["description"] or d.get("note") or ""
            if kind == "null":
                detail = d["note"]
            elif kind == "opencl":
                detail = "%s; float64 %s%s" % (detail, "yes" if d["float64"] else "NO",
                                               "" if d["gpu"] else "; not a GPU, so auto skips it")
            if d["error"]:
                detail = without_prefix(kind, split_fix(d["error"])[0])
            works = "-" if d["works"] is None else ("yes" if d["works"] else "NO")
            secs = "-" if d["seconds"] is None else "%.2f s" % d["seconds"]
            rows.append((d["name"], "yes", works, secs, detail))
    return rows


def format_report(r):
    lines = ["numgpu %s  (Python %s, NumPy %s)  %s" % (r["numgpu"]["version"], r["numgpu"]["python"],
                                                       r["numgpu"]["numpy"], r["numgpu"]["path"]), ""]
    rows = [("device", "found", "works", "check", "details")] + _device_rows(r)
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    for i, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w[j]) for j, c in enumerate(row[:4])) + "  " + row[4])
        if i == 0:
            lines.append("-" * (sum(w) + 8 + 40))
    lines.append("(check: open the device, compile and run arange(1000).sum() and a float32 sum; "
                 "compiled kernels are cached, so later checks are faster)")
    lines.append("")

    cu = r["cuda"]
    drv = ("%s (supports CUDA %s)" % (cu["driver_version"], cu["driver_cuda"]) if cu["driver_version"]
           else "not found")
    nv = cu["nvrtc_version"] or "not found"
    if cu["nvrtc_path"]:
        nv += " (%s)" % cu["nvrtc_path"]
    lines.append("CUDA driver   %s" % drv)
    lines.append("NVRTC         %s" % nv)
    for d in r["devices"]["cuda"]["devices"]:
        lines.append("  GPU %s: %s, compute capability %s%s" % (d["name"], d["gpu_name"], d["compute_capability"],
                                                                 ", %s" % d["memory"] if d["memory"] else ""))
    if cu.get("note"):
        lines.append("  note: " + cu["note"])
    icds = r["opencl"]["icds"]
    lines.append("OpenCL ICDs   %s" % (", ".join("%s -> %s" % (os.path.basename(i["file"]), i["library"])
                                                 for i in icds) or "none installed"))
    c = r["compiler"]
    lines.append("C compiler    %s -> %s: %s" % (c["cc"], c["path"] or "not found", c["version"] or "-"))
    lines.append("OpenMP        %s" % ("works (%d threads)" % c["openmp_threads"] if c["openmp"] else "NO"))
    b = r["blas"]
    lines.append("BLAS (cpu)    %s" % (b["library"] if b["found"] else "none: " + b["error"]))
    k = r["cache"]
    lines.append("kernel cache  %s (%s)" % (k["path"], "%d files, %.1f MB" % (k["files"], k["bytes"] / 1e6)
                                           if k["exists"] else "cannot be created" if k.get("error") else "empty")
                 + ("" if k["writable"] else ", NOT writable")
                 + "; limit %s per device kind (NUMGPU_CACHE_SIZE; `numgpu cache`)"
                 % ("%.1f GiB" % (k["limit"] / 2 ** 30) if k["limit"] else "none"))
    if r["env"]:
        lines.append("environment   " + " ".join("%s=%s" % kv for kv in r["env"].items()))
    lines.append("")

    s = r["selected"]
    how = "NUMGPU_DEVICE=%s" % s["spec"] if s["from"] == "NUMGPU_DEVICE" else "default device (auto)"
    if s["works"]:
        lines.append("%s -> %s: works" % (how, s["device"]))
    else:
        lines.append("%s -> %s: CANNOT BE USED (doctor exits with status 1)"
                     % (how, s["device"] or "does not open"))
    if r["problems"]:
        lines.append("")
        lines.append("what cannot be used here, why, and the fix:")
        for p in r["problems"]:
            lines.append("  %s: %s" % (p["where"], p["reason"]))
            if p["fix"]:
                lines.append("      fix: %s" % p["fix"])
    lines.append("")
    lines.append("(doctor took %.2f s)" % r["seconds"])
    return "\n".join(lines)


def add_arguments(p):
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args):
    report = diagnose()
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(format_report(report))
    return 0 if report["ok"] else 1
