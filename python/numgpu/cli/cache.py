"""numgpu cache: the compiled-kernel cache on disk, how big it is, and its limit.

Every kernel numgpu compiles is kept on disk (NUMGPU_CACHE_DIR, else $XDG_CACHE_HOME/numgpu,
else ~/.cache/numgpu), a folder per device kind, so the next run loads it instead of compiling it.
Each folder is kept under NUMGPU_CACHE_SIZE (default 4G; 0: no limit): now and then a process that
compiles removes the kernels used longest ago down to 3/4 of it (a kernel loaded from the disk counts
as used). `--trim` does that now, `--clear` removes every kernel (they compile again when used).
"""
import json
import os

from numgpu import _core

KINDS = ("cpu", "opencl", "cuda", "null")


def cache_root():
    """The folder holding a folder per device kind (as the C kernel cache finds it)."""
    return os.environ.get("NUMGPU_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "numgpu")


def size_text(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return ("%d %s" if unit == "B" else "%.1f %s") % (n, unit)
        n /= 1024.0
    return "%.1f TiB" % n


def add_arguments(p):
    what = p.add_mutually_exclusive_group()
    what.add_argument("--trim", action="store_true",
                      help="remove the kernels used longest ago until each device kind's folder is at 3/4 of "
                           "NUMGPU_CACHE_SIZE (where it is over it)")
    what.add_argument("--clear", action="store_true", help="remove every compiled kernel")
    p.add_argument("--device", choices=KINDS, help="only this device kind's folder")
    p.add_argument("--json", action="store_true", help="print what was found (and removed) as JSON")


def run(args):
    root, limit = cache_root(), _core.cache_limit()
    kinds = [args.device] if args.device else [k for k in KINDS if os.path.isdir(os.path.join(root, k))]
    report = {"path": root, "limit": limit, "kinds": {}}
    status = 0
    for kind in kinds:
        path = os.path.join(root, kind)
        if not os.path.isdir(path):
            report["kinds"][kind] = {"bytes": 0, "kernels": 0, "bytes_removed": 0, "kernels_removed": 0}
            continue
        if args.clear:
            lim, target = 0, 0
        elif args.trim and limit:
            lim, target = limit, limit // 4 * 3
        else:            # (only look: nothing is over a limit of 2**64 - 1)
            lim, target = 2 ** 64 - 1, 2 ** 64 - 1
        try:
            report["kinds"][kind] = _core.cache_trim(path, lim, target)
        except _core.DeviceError as e:
            report["kinds"][kind] = {"error": str(e)}
            status = 1
    if args.json:
        print(json.dumps(report, indent=2))
        return status
    print("kernel cache  %s%s" % (root, "  (NUMGPU_CACHE_DIR)" if os.environ.get("NUMGPU_CACHE_DIR") else ""))
    print("limit         %s" % ("%s per device kind (NUMGPU_CACHE_SIZE); the kernels used longest ago go first"
                                % size_text(limit) if limit else "none (NUMGPU_CACHE_SIZE=0)"))
    if not kinds:
        print("  (empty: no kernel compiled yet)")
    for kind, r in report["kinds"].items():
        if "error" in r:
            print("  %-7s %s" % (kind, r["error"]))
            continue
        left = r["bytes"] - r["bytes_removed"]
        line = "  %-7s %7d kernels  %10s" % (kind, r["kernels"] - r["kernels_removed"], size_text(left))
        if r["kernels_removed"]:
            line += "   (removed %d kernels, %s)" % (r["kernels_removed"], size_text(r["bytes_removed"]))
        print(line)
    if args.trim and not limit:
        print("nothing trimmed: NUMGPU_CACHE_SIZE=0 sets no limit")
    return status
