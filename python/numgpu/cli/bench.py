"""`numgpu bench script.py [args]`: a script under plain NumPy and under numgpu on each device, timed.

The script is written with `import numgpu as np` (the drop-in way). Each run is a fresh
process (cli/bench_runner.py):
  - the NumPy baseline puts a stand-in `numgpu` package made of NumPy first on sys.path
    (cli/numpy_shim), so the same script runs on real NumPy;
  - the numgpu runs set NUMGPU_DEVICE to each device in turn.
Scripts written with `import numpy as np` run on NumPy here (bench says so when a numgpu run
launched no kernel): `numgpu run script.py` runs them on the device unchanged.

Times are the script's wall time inside its process, library import excluded, the device
synchronised at the end. Warm-up runs (default 1) fill the kernel disk cache first, so the
medians exclude compiling; their times are shown apart.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_runner.py")
STAT_COLUMNS = (("kernel_launches", "launches"), ("kernels_compiled", "compiled"),
                ("disk_cache_hits", "disk hits"), ("uploads", "uploads"), ("upload_bytes", "up MB"),
                ("downloads", "downloads"), ("download_bytes", "down MB"),
                ("implicit_uploads", "implicit up"), ("implicit_downloads", "implicit down"))


def add_arguments(p):
    p.add_argument("--repeat", type=int, default=3, help="timed runs per library/device (default 3)")
    p.add_argument("--warmup", type=int, default=1,
                   help="untimed runs first, which fill the kernel cache (default 1)")
    p.add_argument("--devices", help="comma-separated numgpu devices, e.g. cpu,opencl "
                                     "(default: every device numgpu.devices() lists)")
    p.add_argument("--no-numpy", action="store_true", help="skip the plain-NumPy baseline")
    p.add_argument("--plot", metavar="PNG", help="also draw the medians as a bar chart (needs matplotlib)")
    p.add_argument("--timeout", type=float, default=600, help="seconds one run may take (default 600)")
    p.add_argument("--show-output", action="store_true", help="print each run's output")
    p.add_argument("script", help="a Python script written with `import numgpu as np` "
                                  "(bench's options go before it; what follows it goes to the script)")
    p.add_argument("args", nargs="...", help="arguments passed to the script")


def default_devices():
    """Every device numgpu opens, cpu first, then opencl, then cuda."""
    import numgpu
    order = {"cpu": 0, "opencl": 1, "cuda": 2}
    return [d["name"] for d in sorted(numgpu.devices(), key=lambda d: order.get(d["kind"], 3))]


def run_once(script, args, mode, device, timeout, tmp):
    """One run in a fresh process: a dict with seconds (None if it failed), stats, output, error."""
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    env["NUMGPU_BENCH_MODE"] = mode
    env["NUMGPU_BENCH_RESULT"] = result_path = os.path.join(tmp, "result.json")
    if device:
        env["NUMGPU_DEVICE"] = device
    if os.path.exists(result_path):
        os.remove(result_path)
    try:
        proc = subprocess.run([sys.executable, RUNNER, script] + list(args), env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": None, "error": "timed out after %g s" % timeout, "output": ""}
    try:
        with open(result_path) as f:
            res = json.load(f)
    except (OSError, ValueError):
        res = {}
    res["output"] = proc.stdout
    if proc.returncode != 0 or res.get("exit") != 0:
        lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
        status = res.get("exit") if isinstance(res.get("exit"), int) and res.get("exit") else proc.returncode
        res["error"] = (lines[-1] if lines and "Traceback" in proc.stderr
                        else "exited with status %d%s" % (status, ": " + lines[-1] if lines else ""))
        res["stderr"] = proc.stderr
        res["seconds"] = None
    return res


def bench(args):
    """Every run; returns the rows: dicts with label, device, times, warmups, stats, output, error."""
    plan = [] if args.no_numpy else [("numpy", None)]
    devices = args.devices.split(",") if args.devices else default_devices()
    plan += [("numgpu", d.strip()) for d in devices if d.strip()]
    total = len(plan) * (args.warmup + args.repeat)
    rows, n = [], 0
    with tempfile.TemporaryDirectory(prefix="numgpu-bench-") as tmp:
        for mode, device in plan:
            row = {"library": mode, "device": device or "host", "times": [], "warmups": [], "stats": None,
                   "output": None, "error": None, "note": None}
            rows.append(row)
            for i in range(args.warmup + args.repeat):
                n += 1
                warm = i < args.warmup
                what = "warm-up %d/%d" % (i + 1, args.warmup) if warm else "run %d/%d" % (i + 1 - args.warmup,
                                                                                       args.repeat)
                res = run_once(args.script, args.args, mode, device, args.timeout, tmp)
                if res.get("seconds") is None:
                    row["error"] = res.get("error")
                    print("[%d/%d] %-6s %-9s %s: FAILED: %s" % (n, total, mode, row["device"], what, row["error"]),
                          file=sys.stderr, flush=True)
                    sys.stderr.write(_tail(res.get("stderr", ""), 15))
                    n += args.warmup + args.repeat - i - 1
                    break
                print("[%d/%d] %-6s %-9s %s: %.3f s" % (n, total, mode, row["device"], what, res["seconds"]),
                      file=sys.stderr, flush=True)
                if args.show_output:
                    sys.stdout.write(res["output"])
                (row["warmups"] if warm else row["times"]).append(res["seconds"])
                row["stats"], row["output"] = res.get("stats"), res["output"]
                if res.get("device"):
                    row["device"] = res["device"]
    return rows


def _tail(text, n):
    lines = text.rstrip().splitlines()[-n:]
    return "".join("    | %s\n" % ln for ln in lines)


def summarise(rows):
    base = next((r for r in rows if r["library"] == "numpy" and r["times"]), None)
    for r in rows:
        r["median"] = statistics.median(r["times"]) if r["times"] else None
        r["speedup"] = (base["median"] / r["median"]) if base and r["median"] else None
        if r["library"] == "numgpu" and r["median"] is not None:
            if base is not None:
                r["same_output"] = r["output"] == base["output"]
            if r["stats"] is not None and r["stats"].get("kernel_launches", 0) == 0:
                r["note"] = ("no numgpu kernel ran: does the script `import numgpu as np`? (a script that "
                             "imports numpy runs on the device with `numgpu run script.py`)")
    return base


def format_table(args, rows, base):
    out = []
    cmd = " ".join([args.script] + list(args.args))
    out.append("numgpu bench: %s" % cmd)
    out.append("median of %d run%s after %d warm-up run%s; script wall time, library import excluded"
               % (args.repeat, "" if args.repeat == 1 else "s", args.warmup, "" if args.warmup == 1 else "s"))
    out.append("")
    head = ("library", "device", "median s", "min s", "first s", "vs NumPy", "output")
    table = [head]
    for r in rows:
        if r["median"] is None:
            table.append((r["library"], r["device"], "FAILED", "", "", "", r["error"] or ""))
            continue
        first = r["warmups"][0] if r["warmups"] else r["times"][0]
        if r is base:
            vs, same = "1.00x", "reference"
        else:
            vs = "%.2fx" % r["speedup"] if r["speedup"] else "-"
            same = "-" if "same_output" not in r else ("same" if r["same_output"] else "DIFFERS")
        table.append((r["library"], r["device"], "%.3f" % r["median"], "%.3f" % min(r["times"]), "%.3f" % first,
                      vs, same))
    w = [max(len(t[i]) for t in table) for i in range(len(head) - 1)]
    for i, t in enumerate(table):
        cells = [t[j].ljust(w[j]) if j < 2 else t[j].rjust(w[j]) for j in range(len(w))]
        out.append("  ".join(cells) + "  " + t[-1])
        if i == 0:
            out.append("-" * (sum(w) + 2 * len(w) + 10))
    out.append("(vs NumPy: NumPy's median / this median, >1 is faster; first s: the first run, which "
               "may compile kernels; output: the script's printed text compared with NumPy's)")

    stat_rows = [r for r in rows if r["library"] == "numgpu" and r["stats"]]
    if stat_rows:
        out.append("")
        out.append("numgpu counters, last run:")
        head = ("device",) + tuple(label for _, label in STAT_COLUMNS)
        table = [head]
        for r in stat_rows:
            s = r["stats"]
            table.append((r["device"],) + tuple(
                "%.1f" % (s.get(k, 0) / 1e6) if k.endswith("_bytes") else str(s.get(k, 0)) for k, _ in STAT_COLUMNS))
        w = [max(len(t[i]) for t in table) for i in range(len(head))]
        for t in table:
            out.append("  ".join(t[0].ljust(w[0]) if j == 0 else t[j].rjust(w[j]) for j in range(len(head))))
    for r in rows:
        if r["note"]:
            out.append("note (%s): %s" % (r["device"], r["note"]))
        if r.get("same_output") is False:
            out.append("note (%s): the printed output differs from NumPy's; rerun with --show-output to compare"
                       % r["device"])
    return "\n".join(out)


def plot(path, args, rows, base):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    done = [r for r in rows if r["median"] is not None]
    labels = ["NumPy" if r["library"] == "numpy" else "numgpu\n%s" % r["device"] for r in done]
    values = [r["median"] for r in done]
    colors = ["#888888" if r["library"] == "numpy" else "#2a7ab9" for r in done]
    fig, ax = plt.subplots(figsize=(max(4.5, 1.6 * len(done) + 2), 4.2), dpi=120)
    bars = ax.bar(labels, values, color=colors)
    for bar, r in zip(bars, done):
        text = "%.3f s" % r["median"]
        if r["speedup"] and r is not base:
            text += "\n%.2fx vs NumPy" % r["speedup"]
        ax.annotate(text, (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom",
                    fontsize=9, xytext=(0, 2), textcoords="offset points")
    ax.set_ylabel("median wall time, s (lower is better)")
    ax.set_ylim(0, max(values) * 1.25 if values else 1)
    title = os.path.basename(args.script) + (" " + " ".join(args.args) if args.args else "")
    ax.set_title("numgpu bench: %s\nmedian of %d run%s per bar" % (title[:70], args.repeat,
                                                                  "" if args.repeat == 1 else "s"), fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run(args):
    if not os.path.isfile(args.script):
        print("numgpu bench: no such script: %s" % args.script, file=sys.stderr)
        return 2
    if args.repeat < 1 or args.warmup < 0:
        print("numgpu bench: --repeat must be >= 1 and --warmup >= 0", file=sys.stderr)
        return 2
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("numgpu bench: --plot needs matplotlib, which is not installed here "
                  "(pip install matplotlib); nothing was run", file=sys.stderr)
            return 2
    rows = bench(args)
    base = summarise(rows)
    print(format_table(args, rows, base))
    if args.plot:
        plot(args.plot, args, rows, base)
        print("plot: %s" % args.plot)
    return 0 if all(r["median"] is not None for r in rows) else 1
