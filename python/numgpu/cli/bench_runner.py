"""Runs one script for `numgpu bench`, in its own process; not imported by the package.

    python bench_runner.py script.py [args...]

with NUMGPU_BENCH_MODE=numpy|numgpu and NUMGPU_BENCH_RESULT=<json file>. In numpy mode
the NumPy stand-in (numpy_shim/numgpu) is put first on sys.path, so `import numgpu as np`
gets NumPy. The library is imported before the clock starts; the script runs as
__main__ (as `python script.py` would run it); the clock stops after numgpu.synchronize().
An atexit hook, installed before the script runs and so run after the script's own hooks,
writes the time, the device and numgpu.stats() to the result file.
"""
import atexit
import json
import os
import runpy
import sys
import time
import traceback


def main():
    mode = os.environ["NUMGPU_BENCH_MODE"]
    result_path = os.environ["NUMGPU_BENCH_RESULT"]
    script = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    # As `python script.py`: the script's folder, not this one, first on sys.path.
    sys.path[0] = os.path.dirname(script)
    if mode == "numpy":
        sys.path.insert(0, os.path.join(here, "numpy_shim"))
    import numgpu
    import numpy  # noqa: F401  (imported by both libraries: not part of the timing)

    result = {"mode": mode, "seconds": None, "exit": None}

    def report():
        if mode == "numgpu":
            try:
                result["device"] = str(numgpu.get_device())
            except Exception as exc:  # the device never opened: the error is the finding
                result["device_error"] = str(exc)
            result["stats"] = numgpu.stats()
        with open(result_path, "w") as f:
            json.dump(result, f)

    atexit.register(report)
    sys.argv = [script] + sys.argv[2:]
    t0 = time.perf_counter()
    try:
        runpy.run_path(script, run_name="__main__")
        numgpu.synchronize()
        result["exit"] = 0
    except SystemExit as exc:
        numgpu.synchronize()
        code = exc.code
        result["exit"] = code if isinstance(code, int) else (0 if code is None else 1)
        if not isinstance(code, (int, type(None))):
            print(code, file=sys.stderr)
    except BaseException as exc:  # the script's own error: its traceback, without this runner's frames
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
        result["exit"] = 1
    finally:
        result["seconds"] = time.perf_counter() - t0
    return result["exit"]


if __name__ == "__main__":
    sys.exit(main())
