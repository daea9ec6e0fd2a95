"""`python -m numgpu <command>` and the `numgpu` console script.

    numgpu doctor [--json]            what devices, drivers and compilers are found; what works
    numgpu bench script.py [args]     the script under NumPy and under numgpu on each device, timed
    numgpu demo                       the seed example: char-level one-hot, loop vs vectorised
    numgpu run script.py [args]       an unmodified NumPy script on the device, with a report at exit
    numgpu run -m module [args]       the same for a module (as python -m), `numgpu run -` for stdin
    numgpu cache [--trim|--clear]     the compiled-kernel cache on disk: size, limit; trim or clear it
"""
import argparse
import os
import sys


def add_run_arguments(p):
    p.add_argument("--report", dest="report", action="store_true", default=True,
                   help="print the run report to stderr at exit (default)")
    p.add_argument("--no-report", dest="report", action="store_false", help="no report")
    p.add_argument("--profile", action="store_true", help="add time per line of the script to the report")
    p.add_argument("--precision", choices=("float32", "float64"),
                   help="float32: run float64 data and defaults as float32 (results then differ from NumPy's)")
    p.add_argument("--device", help="the device: cpu, opencl, opencl:N, cuda, cuda:N (default: NUMGPU_DEVICE or auto)")
    p.add_argument("--fallback", choices=("warn", "silent", "error"),
                   help="what a NumPy function numgpu lacks does (default: NUMGPU_FALLBACK or warn)")
    p.add_argument("--json", metavar="PATH",
                   help="also write the report as JSON to PATH (as NUMGPU_REPORT=PATH; '-': to stderr in place "
                        "of the text)")
    p.add_argument("-m", dest="module", nargs=argparse.REMAINDER, metavar="module [args]",
                   help="-m module [args]: run a module as `python -m module` does (the rest of the line is its arguments)")
    p.add_argument("script", nargs="?", help="a Python script written for NumPy, or - to read it from stdin "
                                             "(run's options go before it)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")


def run_command(args):
    from numgpu import _run
    if args.fallback:
        from numgpu import _fallback
        _fallback.set_mode(args.fallback)
    module = None
    if args.module is not None:
        if not args.module:
            print("numgpu run: -m needs a module name: numgpu run [options] -m module [args]", file=sys.stderr)
            return 2
        module, args.args = args.module[0], args.module[1:]
        try:
            _run.find_module(module)
        except ValueError as e:
            print("numgpu run: -m %s: %s" % (module, e), file=sys.stderr)
            return 2
    elif args.script is None:
        print("numgpu run: give the script to run: numgpu run [options] script.py [args] "
              "(or -m module, or - for stdin)", file=sys.stderr)
        return 2
    elif args.script != "-" and not os.path.isfile(args.script):
        print("numgpu run: %s: %s" % (args.script, "a folder, not a script" if os.path.isdir(args.script)
                                      else "no such script"), file=sys.stderr)
        return 2
    import numgpu
    try:   # (the device opened before the script starts: a bad one stops here, not at its first array)
        numgpu.set_device(args.device) if args.device else numgpu.get_device()
    except (numgpu.DeviceError, ValueError) as e:
        print("numgpu run: cannot use the device: %s" % e, file=sys.stderr)
        return 2
    if str(numgpu.get_device()).startswith("null"):
        print("numgpu run: the null device runs no kernel (arrays read as zeros): kernels are generated, "
              "none runs", file=sys.stderr)
    if args.json:
        os.environ["NUMGPU_REPORT"] = args.json
    return _run.run_script(args.script, args.args, report_on=args.report or bool(args.json), profile=args.profile,
                           precision=args.precision, device=args.device, module=module)


def main(argv=None):
    from numgpu.cli import bench, cache, demo, doctor

    ap = argparse.ArgumentParser(prog="numgpu", description=__doc__.split("\n\n")[0],
                                 epilog="`numgpu <command> --help` for a command's options")
    sub = ap.add_subparsers(dest="command", metavar="command")
    commands = {}
    for name, module, text in (("doctor", doctor, "check devices, drivers and compilers"),
                               ("bench", bench, "time a script under NumPy and numgpu"),
                               ("demo", demo, "the char-level one-hot demo: loop vs vectorised"),
                               ("cache", cache, "the compiled-kernel cache on disk: its size and limit")):
        p = sub.add_parser(name, help=text, description=module.__doc__.split("\n\n")[0])
        module.add_arguments(p)
        commands[name] = module.run
    p = sub.add_parser("run", help="run an unmodified NumPy script on the device",
                       description="Run a NumPy script unchanged: `import numpy` is served by numgpu, "
                                   "what numgpu lacks falls back to NumPy, and a report says what ran where.")
    add_run_arguments(p)
    commands["run"] = run_command

    args = ap.parse_args(argv)
    if not args.command:
        ap.print_help()
        return 2
    try:
        return commands[args.command](args)
    except KeyboardInterrupt:
        print("numgpu %s: interrupted" % args.command, file=sys.stderr)
        return 130
    except BrokenPipeError:  # `numgpu doctor | head`: stop quietly
        sys.stdout = open(os.devnull, "w")
        return 1


if __name__ == "__main__":
    sys.exit(main())
