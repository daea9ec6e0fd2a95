"""`python -m numgpu <command>` and the `numgpu` console script.

    numgpu doctor [--json]            what devices, drivers and compilers are found; what works
    numgpu bench script.py [args]     the script under NumPy and under numgpu on each device, timed
    numgpu demo                       the seed example: char-level one-hot, loop vs vectorised
    numgpu run script.py              an unmodified NumPy script on the device (issue 5: not yet)
"""
import argparse
import os
import sys


def run_not_implemented(args):
    print("numgpu run: not implemented yet (issue 5: the import hook that serves an unmodified NumPy "
          "script from numgpu, with fallback to NumPy). Today: write `import numgpu as np` in the "
          "script, or time it with `numgpu bench script.py`.", file=sys.stderr)
    return 2


def main(argv=None):
    from numgpu.cli import bench, demo, doctor

    ap = argparse.ArgumentParser(prog="numgpu", description=__doc__.split("\n\n")[0],
                                 epilog="`numgpu <command> --help` for a command's options")
    sub = ap.add_subparsers(dest="command", metavar="command")
    commands = {}
    for name, module, text in (("doctor", doctor, "check devices, drivers and compilers"),
                               ("bench", bench, "time a script under NumPy and numgpu"),
                               ("demo", demo, "the char-level one-hot demo: loop vs vectorised")):
        p = sub.add_parser(name, help=text, description=module.__doc__.split("\n\n")[0])
        module.add_arguments(p)
        commands[name] = module.run
    p = sub.add_parser("run", help="run an unmodified NumPy script on the device (not yet: issue 5)")
    p.add_argument("script", nargs="?")
    p.add_argument("args", nargs=argparse.REMAINDER)
    commands["run"] = run_not_implemented

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
