"""`numgpu run script.py`: an unmodified NumPy script served by numgpu (issue 5).

Pieces, in the order a run uses them:
  config()        the policies: precision (float64 -> float32), fallback mode, strict, report.
  counting        with the report on, numgpu's public functions and ndarray methods are wrapped
                  to count calls and time per function (off otherwise: plain `import numgpu`
                  pays nothing).
  NumpyShim       a module object that stands for `numpy` (and numpy.linalg, numpy.random, ...)
                  in the user's code: numgpu's own function of each name first, NumPy's through
                  the fallback for the rest, NumPy's dtypes, classes and constants as they are.
  the import hook a builtins.__import__ wrapper: `import numpy` (any form) from the user's own
                  files gets the shim; code under sys.prefix / site-packages (matplotlib, pandas,
                  scipy) keeps the real NumPy and gets numpy.ndarrays from ours via __array__.
  report()        the table printed at exit (stderr, so the script's stdout is untouched).
  LineProfiler    --profile: time per line of the script's own files.
"""
import atexit
import builtins
import functools
import os
import sys
import time
import types

_state = {"report": False, "counting": False, "t0": time.perf_counter(), "script": None, "profile": None,
          "precision": "float64"}
device_counts = {}      # name -> [calls, seconds] (only while counting)


# ---- policies -----------------------------------------------------------------------------

def running_script():
    """True under `numgpu run` (a NumPy script, whose pickles must load without numgpu)."""
    return _state["script"] is not None


def config(precision=None, fallback=None, strict=None, report=None, scalars=None):
    """Set numgpu's run policies; returns the previous settings as a dict.

    precision  "float32": float64 data (uploads, fallback results) and float64 dtypes
               (defaults and dtype=float64) become float32; "float64" (default) leaves them.
    fallback   "warn" | "silent" | "error": what a call that runs on NumPy does
               (as NUMGPU_FALLBACK).
    strict     True: implicit transfers and fallbacks are errors (as NUMGPU_STRICT=1).
    report     True: count device calls per function from now on and print the report at exit.
    scalars    "numpy": results NumPy gives as scalars (reductions, `x[i]`, operators on
               scalars) are NumPy's scalars, read in place on cpu, downloaded from a GPU (each
               waits for the device): `isinstance(x.sum(), np.floating)` and
               `json.dumps(x.mean())` as under NumPy (numgpu run's default, NUMGPU_SCALARS=numpy);
               "array" (import numgpu's default): 0-d arrays standing for them, which stay on the
               device (`.get()`, `float()`); on cpu elements `x[i]` are NumPy's scalars either way.
    """
    from . import _core, _fallback
    prev = {"precision": _state["precision"], "fallback": _fallback.get_mode(),
            "strict": bool(_fallback._strict()), "report": _state["report"],
            "scalars": "numpy" if _fallback.numpy_scalars[0] else "array"}
    if scalars is not None:
        if scalars not in ("numpy", "array"):
            raise ValueError("scalars must be 'numpy' or 'array', not %r" % (scalars,))
        _fallback.numpy_scalars[0] = scalars == "numpy"
        _core.set_numpy_scalars(scalars == "numpy", _fallback._PKG_DIR)
    if precision is not None:
        name = getattr(precision, "__name__", precision)
        name = {"float": "float64", "double": "float64", "single": "float32"}.get(name, name)
        _core.set_precision(str(name))
        _state["precision"] = str(name)
    if fallback is not None:
        _fallback.set_mode(fallback)
    if strict is not None:
        _core.set_strict(bool(strict))
    if report is not None:
        if report and not _state["report"]:
            start_counting()
            atexit.register(_report_at_exit)
        _state["report"] = bool(report)
    return prev


# ---- counting device calls ------------------------------------------------------------------

_depth = [0]
_NOT_COUNTED = {"config", "report", "stats", "use", "set_device", "get_device", "is_available", "devices",
                "set_strict", "synchronize", "jit", "prange", "asnumpy", "dtype"}


def _counted(name, f):
    """f, counting calls and time under `name`; nested calls (numgpu calling itself) count once."""
    if getattr(f, "_numgpu_counted", False):
        return f

    fallbacks = _fallback_calls()
    from ._fallback import program_result   # (a 0-d result the program gets: NumPy's scalar, config(scalars=))

    @functools.wraps(f)
    def g(*args, **kwargs):
        if _depth[0]:
            return f(*args, **kwargs)
        _depth[0] += 1
        t0, n0 = time.perf_counter(), fallbacks[0]
        try:
            return program_result(f(*args, **kwargs))
        except RuntimeError as e:
            raise name_strict_error(e, name)
        finally:
            _depth[0] -= 1
            if fallbacks[0] == n0:   # (a call that fell back is counted by the fallback alone)
                rec = device_counts.get(name)
                if rec is None:
                    rec = device_counts[name] = [0, 0.0]
                rec[0] += 1
                rec[1] += time.perf_counter() - t0
    g._numgpu_counted = True
    from ._fallback import WRAPPERS
    WRAPPERS.add(g.__code__)       # (a guard inside looks through it for the program's call)
    return g


def _fallback_calls():
    from ._fallback import calls
    return calls


def name_strict_error(e, name):
    """A NUMGPU_STRICT error naming the function it happened in (other errors unchanged)."""
    msg = str(e)
    if msg.startswith("NUMGPU_STRICT=1: implicit") and " in numpy." not in msg:
        new = RuntimeError(msg.replace("NUMGPU_STRICT=1: implicit", "NUMGPU_STRICT=1: in %s: implicit" % name, 1))
        new.__cause__ = None
        new.__suppress_context__ = True
        return new.with_traceback(e.__traceback__)
    return e


def _countable(name, v):
    return (not name.startswith("_") and name not in _NOT_COUNTED and callable(v)
            and not isinstance(v, type) and not getattr(v, "_numgpu_counted", False)
            and not getattr(v, "_numgpu_host", False))


def start_counting():
    """Wrap numgpu's public functions (and ndarray's methods) to count calls per function."""
    if _state["counting"]:
        return
    import numgpu
    from ._core import ndarray
    _state["counting"] = True
    _state["t0"] = _state["t0"] or time.perf_counter()
    # Rows are named as NumPy names them, so a function's device and fallback calls share a row.
    mods = [(numgpu, "numpy.")] + [(vars(numgpu)[m], "numpy.%s." % m) for m in ("linalg", "fft", "random")
                             if isinstance(vars(numgpu).get(m), types.ModuleType)]
    from ._ufunc import ufunc
    for mod, prefix in mods:
        for name, v in list(vars(mod).items()):
            if isinstance(v, ufunc) and not getattr(v, "_numgpu_counted", False):
                setattr(mod, name, v.counted(prefix + name, _counted))   # numpy.add, numpy.add.reduce, ...
            elif _countable(name, v):
                setattr(mod, name, _counted(prefix + name, v))
    for name, v in list(vars(ndarray).items()):
        if _countable(name, v) and name not in ("get", "to"):
            setattr(ndarray, name, _counted("numpy.ndarray." + name, v))
    from . import _protocols
    _protocols._targets.clear()   # the protocols' cached targets: now the counted ones


# ---- the numpy shim ---------------------------------------------------------------------------

_shims = {}
# What makes numgpu's function hand a call of the script's to NumPy (numgpu run, which takes every
# TypeError: arguments numgpu's signatures do not take yet).
_CATCH = (NotImplementedError, TypeError)


def _shuffle(label, host_shuffle, x, *args, **kwargs):
    """shuffle works in place: a numgpu array gets the shuffled host copy back."""
    from ._core import ndarray
    from ._fallback import call_numpy_inplace
    if not isinstance(x, ndarray):
        return host_shuffle(x, *args, **kwargs)
    call_numpy_inplace(label, host_shuffle, x, *args, **kwargs)


class NumpyShim(types.ModuleType):
    """`numpy` (or numpy.<sub>) as the user's script sees it under `numgpu run`."""

    def __init__(self, np_module, ng_module):
        super().__init__(np_module.__name__, np_module.__doc__)
        self.__dict__["_np"] = np_module
        self.__dict__["_ng"] = ng_module
        self.__dict__["__file__"] = getattr(np_module, "__file__", None)
        self.__dict__["__path__"] = getattr(np_module, "__path__", [])
        if hasattr(np_module, "__all__"):
            self.__dict__["__all__"] = list(np_module.__all__)

    def __getattr__(self, name):
        value = self._resolve(name)
        self.__dict__[name] = value   # later lookups are plain dict hits
        return value

    def __dir__(self):
        return sorted(set(dir(self._np)) | set(self.__dict__))

    def _resolve(self, name):
        import numpy
        from ._fallback import guarded, pickle_name, wrap
        np_mod, ng_mod = self._np, self._ng
        label = "%s.%s" % (np_mod.__name__, name)
        missing = object()
        npv = getattr(np_mod, name, missing)
        ngv = vars(ng_mod).get(name, missing) if ng_mod is not None and not name.startswith("_") else missing
        if npv is missing:
            if name.startswith("__"):
                raise AttributeError("module %r has no attribute %r" % (np_mod.__name__, name))
            sub = "%s.%s" % (np_mod.__name__, name)
            try:  # a submodule numpy has not imported yet (numpy.polynomial.hermite, ...)
                __import__(sub)
                return shim(sub)
            except ImportError:
                raise AttributeError("module %r has no attribute %r" % (np_mod.__name__, name)) from None
        if isinstance(npv, types.ModuleType):
            return shim(npv.__name__) if npv.__name__.startswith("numpy") else npv
        if name == "ndarray" and ngv is not missing:
            return _script_ndarray(ngv)
        if name == "ufunc" and np_mod is numpy:
            return _script_ufunc()
        if name == "nditer" and ngv is not missing:
            return ngv     # (NumPy's iterator over host copies of GPU arrays, written back)
        if np_mod.__name__ == "numpy.random" and name in ("default_rng", "RandomState", "Generator"):
            # numgpu.random's: classes (isinstance(rng, np.random.Generator)), NumPy's streams
            from . import random as ng_random
            return getattr(ng_random, name)
        if np_mod.__name__ == "numpy.random" and name == "shuffle":
            def shuffle(x, *args, **kwargs):
                return _shuffle(label, npv, x, *args, **kwargs)
            return pickle_name(shuffle, __name__, label)
        if isinstance(npv, types.GenericAlias) or type(npv).__module__ == "typing":
            return npv    # type hints: numpy.typing.NDArray (an alias of ndarray[...]), ArrayLike
        if isinstance(npv, numpy.ufunc):   # numgpu's (counted), else NumPy's through the fallback
            from ._ufunc import of
            u = of(npv, None if ngv is missing else ngv)
            if (ng_mod is None or vars(ng_mod).get(u.__name__) is not u) and "_pickle_path" not in u.__dict__:
                u.__module__, u._pickle_path = __name__, label   # (pickle finds it here, not as numgpu.<name>)
            return u
        if isinstance(npv, type) or not callable(npv):
            return npv    # dtypes, classes (finfo, errstate: numgpu's is NumPy's), constants: NumPy's own objects
        # (the functions made here pickle as numgpu._run.numpy.<name>: this very object, Pool.map(np.sum, ...))
        if callable(ngv) and not isinstance(ngv, type):
            return pickle_name(guarded(label, ngv, npv, _CATCH, name_strict_error), __name__, label)
        from ._protocols import METADATA
        if npv in METADATA:   # np.shape(x): x.shape, no download
            return pickle_name(guarded(label, METADATA[npv], npv, _CATCH, name_strict_error), __name__, label)
        f = wrap(label, npv)
        return pickle_name(f, __name__, label) if f is not npv else f


def __getattr__(name):
    """numgpu._run.numpy: the shim of numpy, where the functions a script got from it are found
    again by pickle (saved as numgpu._run.numpy.sum, numgpu._run.numpy.linalg.norm)."""
    if name == "numpy":
        return shim("numpy")
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


_SCRIPT_NDARRAY = []


def _script_ndarray(ng_ndarray):
    """`numpy.ndarray` as a script sees it: numgpu's ndarray (constructor, base class, methods;
    a script's subclasses of it are numgpu's, _subclass.py), of which NumPy's own arrays, those
    numgpu keeps on the host (str, object, datetime64 data, masked arrays), are instances too:
    `isinstance(x, np.ndarray)` holds for every array the script meets, as under NumPy."""
    if not _SCRIPT_NDARRAY:
        import numpy

        class _Meta(type):
            def __instancecheck__(cls, obj):   # (a script's subclass of it: its own instances)
                if "_numgpu_standin" not in cls.__dict__:
                    return type.__instancecheck__(cls, obj)
                return isinstance(obj, (ng_ndarray, numpy.ndarray))

            def __subclasscheck__(cls, sub):
                if "_numgpu_standin" not in cls.__dict__:
                    return type.__subclasscheck__(cls, sub)
                return isinstance(sub, type) and issubclass(sub, (ng_ndarray, numpy.ndarray))

        _SCRIPT_NDARRAY.append(_Meta("ndarray", (ng_ndarray,), {"__module__": "numpy", "__qualname__": "ndarray",
                                                                 "__doc__": ng_ndarray.__doc__, "_numgpu_standin": True}))
    return _SCRIPT_NDARRAY[0]


_SCRIPT_UFUNC = []


def _script_ufunc():
    """`numpy.ufunc` as a script sees it: the type of numgpu's ufuncs (what the script's np.add
    is) and of NumPy's own (those libraries hand it), so `isinstance(f, np.ufunc)` holds for both."""
    if not _SCRIPT_UFUNC:
        import numpy

        from ._ufunc import ufunc

        class _Meta(type):
            def __instancecheck__(cls, obj):
                return isinstance(obj, (ufunc, numpy.ufunc))

            def __subclasscheck__(cls, sub):
                return isinstance(sub, type) and issubclass(sub, (ufunc, numpy.ufunc))

        def __new__(cls, *args, **kwargs):
            raise TypeError("cannot create 'numpy.ufunc' instances")

        _SCRIPT_UFUNC.append(_Meta("ufunc", (), {"__module__": "numpy", "__qualname__": "ufunc",
                                                  "__doc__": numpy.ufunc.__doc__, "__new__": __new__}))
    return _SCRIPT_UFUNC[0]


def shim(np_name):
    """The shim module standing for NumPy's module `np_name` ("numpy", "numpy.linalg", ...)."""
    s = _shims.get(np_name)
    if s is None:
        import importlib

        from ._protocols import _numgpu_module_for
        np_mod = importlib.import_module(np_name)
        s = _shims[np_name] = NumpyShim(np_mod, _numgpu_module_for(np_name))
    return s


# ---- the import hook ----------------------------------------------------------------------------

def _library_roots():
    import sysconfig
    paths = sysconfig.get_paths()
    roots = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.abspath(__file__))}
    try:
        import site
        roots |= set(site.getsitepackages()) | {site.getusersitepackages()}
    except (AttributeError, ImportError):
        pass
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots if r)


_user_cache = {}


def is_user_code(globals_):
    """True for the user's own modules (the script, its neighbours), False for installed libraries."""
    if not globals_:
        return False
    f = globals_.get("__file__")
    if f is None:
        return globals_.get("__name__") == "__main__"
    r = _user_cache.get(f)
    if r is None:
        global _ROOTS
        _ROOTS = _ROOTS or _library_roots()
        path = os.path.realpath(f)
        r = _user_cache[f] = not path.startswith(_ROOTS) and "site-packages" not in path
    return r


_ROOTS = ()
_real_import = builtins.__import__


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name[:5] == "numpy" and (len(name) == 5 or name[5] == ".") and is_user_code(globals):
        _real_import(name, globals, locals, fromlist, level)   # the real modules exist, for the shim
        if fromlist:
            return shim(name)
        return shim("numpy")
    return _real_import(name, globals, locals, fromlist, level)


def install_import_hook():
    global _ROOTS
    _ROOTS = _library_roots()
    builtins.__import__ = _import


def remove_import_hook():
    builtins.__import__ = _real_import


# ---- the report -----------------------------------------------------------------------------------

def _fmt_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1024.0


def report_text():
    """The report as text: wall time, per-function device vs NumPy calls, transfers, kernels."""
    import numgpu
    from . import _fallback
    st = numgpu.stats()
    lines = ["", "numgpu run report" + (" for %s" % _state["script"] if _state["script"] else "")]
    if _state["t0"] is not None:
        lines.append("  wall time        %.3f s" % (time.perf_counter() - _state["t0"]))
    try:
        dev = numgpu.get_device()
        if dev == "cpu":   # where its matrix products and solves ran
            found, text = numgpu._core.cpu_blas()
            dev += " (matrix products and solves: %s)" % (os.path.basename(text) if found else
                                                          "generated kernels; " + text)
        lines.append("  device           %s" % dev)
    except Exception as e:  # noqa: BLE001 (the report must not fail)
        lines.append("  device           unavailable (%s)" % e)
    prec = _state["precision"]
    lines.append("  precision        %s" % ("float32 (float64 data and defaults run as float32)"
                                            if prec == "float32" else "float64 (as NumPy)"))
    names = sorted(set(device_counts) | set(_fallback.counts),
                   key=lambda n: -(device_counts.get(n, [0, 0])[1] + _fallback.counts.get(n, [0, 0])[1]))
    lines.append("  functions        %d on the device, %d on NumPy (fallback)"
                 % (sum(v[0] for v in device_counts.values()), sum(v[0] for v in _fallback.counts.values())))
    if not _state["counting"]:
        lines.append("                   (device calls are counted with numgpu.config(report=True))")
    if names:
        lines.append("    %-34s %8s %10s %8s %10s" % ("function", "device", "time", "numpy", "time"))
        for n in names[:40]:
            d = device_counts.get(n, [0, 0.0])
            h = _fallback.counts.get(n, [0, 0.0])
            lines.append("    %-34s %8d %9.4fs %8d %9.4fs" % (n[:34], d[0], d[1], h[0], h[1]))
        if len(names) > 40:
            lines.append("    ... %d more" % (len(names) - 40))
    lines.append("  transfers        %d uploads (%s), %d downloads (%s)"
                 % (st["uploads"], _fmt_bytes(st["upload_bytes"]), st["downloads"], _fmt_bytes(st["download_bytes"])))
    lines.append("  implicit         %d uploads, %d downloads (NUMGPU_STRICT=1 makes them errors)"
                 % (st["implicit_uploads"], st["implicit_downloads"]))
    lines.append("  kernels          %d launches, %d compiled, %d disk cache hits, %d memory cache hits"
                 % (st["kernel_launches"], st["kernels_compiled"], st["disk_cache_hits"], st["memory_cache_hits"]))
    if st["overflow_allocations"]:
        lines.append("  memory           device memory ran out: %d arrays went to managed host memory (%s there now; "
                     "slower, NUMGPU_OVERSUBSCRIBE=0 raises OutOfMemoryError instead)"
                     % (st["overflow_allocations"], _fmt_bytes(st["overflow_bytes"])))
    prof = _state["profile"]
    if prof is not None:
        lines.extend(prof.text())
    return "\n".join(lines) + "\n"


def report(file=None):
    """Print the run report (to stderr unless `file` is given); see numgpu.config(report=True)."""
    (file or sys.stderr).write(report_text())


def _report_at_exit():
    if _state["report"]:
        try:
            import numgpu
            numgpu.synchronize()
        except Exception:  # noqa: BLE001
            pass
        report()


# ---- --profile: time per line of the user's own code ----------------------------------------------

class LineProfiler:
    """sys.settrace on the user's files only: the time from one line event to the next is charged
    to the earlier line (a call's time to the line that made it, unless the callee is also the
    user's code). The device is synchronised at each line so its work lands on the right line."""

    def __init__(self, files):
        self.files = {os.path.realpath(f) for f in files}
        self.times = {}        # (file, line) -> seconds
        self.hits = {}
        self.last = None
        self.t = 0.0
        self._is_user = {}
        from . import _core
        self._sync = _core.synchronize

    def _user(self, code):
        r = self._is_user.get(code.co_filename)
        if r is None:
            r = self._is_user[code.co_filename] = os.path.realpath(code.co_filename) in self.files
        return r

    def _charge(self):
        now = time.perf_counter()
        if self.last is not None:
            self.times[self.last] = self.times.get(self.last, 0.0) + (now - self.t)
        self.t = now

    def _global(self, frame, event, arg):
        if event == "call" and self._user(frame.f_code):
            return self._local
        return None

    def _local(self, frame, event, arg):
        if event == "line":
            try:
                self._sync()
            except Exception:  # noqa: BLE001
                pass
            self._charge()
            key = (frame.f_code.co_filename, frame.f_lineno)
            self.last = key
            self.hits[key] = self.hits.get(key, 0) + 1
        elif event == "return":
            self._charge()
            back = frame.f_back
            if back is not None and self._user(back.f_code):
                self.last = (back.f_code.co_filename, back.f_lineno)
        return self._local

    def start(self):
        import threading
        self.t = time.perf_counter()
        threading.settrace(self._global)
        sys.settrace(self._global)

    def stop(self):
        sys.settrace(None)
        self._charge()
        self.last = None

    def text(self, top=15):
        import linecache
        total = sum(self.times.values()) or 1.0
        rows = sorted(self.times.items(), key=lambda kv: -kv[1])[:top]
        out = ["  profile          top %d lines of the script by time" % len(rows),
               "    %9s %6s %8s  %s" % ("time", "%", "hits", "line")]
        for (fname, line), sec in rows:
            src = linecache.getline(fname, line).strip()
            out.append("    %8.4fs %5.1f%% %8d  %s:%d  %s" % (sec, 100 * sec / total, self.hits.get((fname, line), 0),
                                                           os.path.basename(fname), line, src[:70]))
        return out


# ---- running a script ---------------------------------------------------------------------------

def run_script(script, args=(), report_on=True, profile=False, precision=None, device=None):
    """Run `script` as __main__ with numpy served by numgpu; returns its exit status."""
    import runpy

    import numgpu
    from . import _protocols
    if device:
        numgpu.set_device(device)
    _state["script"] = os.path.basename(script)
    _state["t0"] = time.perf_counter()
    config(precision=precision, report=report_on, scalars=os.environ.get("NUMGPU_SCALARS") or "numpy")
    _protocols.scalar_style(True)
    install_import_hook()
    sys.argv = [script] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    prof = None
    if profile:
        prof = _state["profile"] = LineProfiler([script])
        prof.start()
        if not report_on:
            atexit.register(lambda: sys.stderr.write("\n".join([""] + prof.text()) + "\n"))
    status = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
    except BaseException as e:  # noqa: BLE001 (the script's error, shown as plain Python shows it)
        _print_script_traceback(e, script)
        status = 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        if prof is not None:
            prof.stop()
        sys.stdout.flush()
    return status


def _print_script_traceback(e, script):
    """The traceback from the script's own first frame on, without numgpu run's frames above it."""
    import traceback
    tb, path = e.__traceback__, os.path.realpath(script)
    while tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename) != path:
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb or e.__traceback__)
