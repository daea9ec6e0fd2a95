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
    report     True: count calls per function and operator from now on and print the report at exit
               (NUMGPU_REPORT=path: also as JSON in that file; "-": JSON to stderr, no text).
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
    # (a ufunc of NumPy scalars and Python numbers alone is NumPy's scalar math: no kernel)
    _fallback.host_scalar_math[0] = _fallback.numpy_scalars[0] and _state["precision"] == "float64"
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


# ---- counting calls ---------------------------------------------------------------------------

# One row per function, method, operator or jit function the program called (only while counting):
# name -> a _core.Row (src/pymod/report.c: C numbers the Counted wrappers add to), whose list() is
#         [device calls, device seconds, host calls, host seconds, uploads, upload bytes, downloads,
#          download bytes, kernel launches, kernels compiled, implicit uploads, implicit downloads,
#          kernels loaded from the disk cache, where the first upload was made ("file:line" of the
#          program's line)].
# Host calls are numpy.random's streams (NumPy draws, the result is uploaded); fallbacks to NumPy
# are counted by _fallback.counts. The transfers and kernels are those made during the row's calls.
rows = {}
D_CALLS, D_TIME, H_CALLS, H_TIME, UP, UP_BYTES, DOWN, DOWN_BYTES, LAUNCHES, COMPILED, I_UP, I_DOWN, LOADED, WHERE = \
    range(14)
_sync = [False]     # counted calls on a GPU wait for their kernels (report_setup: unless NUMGPU_REPORT_ASYNC=1)
_NOT_COUNTED = {"config", "report", "stats", "use", "set_device", "get_device", "is_available", "devices",
                "set_strict", "synchronize", "jit", "prange", "asnumpy", "dtype"}


def _row(name):
    row = rows.get(name)
    if row is None:
        from ._core import Row
        row = rows[name] = Row()
    return row


def _first_upload(row):
    """Records on `row` where its first upload was made: 'file:line' of the program's innermost
    frame (the script's own code), called by the Counted wrapper that saw it."""
    frame = sys._getframe(1)
    while frame is not None and not is_user_code(frame.f_globals):
        frame = frame.f_back
    if frame is not None:
        row.where = "%s:%d" % (os.path.basename(frame.f_code.co_filename), frame.f_lineno)


def _counted(name, f, kind="device", program_only=False, row_of=None):
    """f, counting calls, time, transfers and kernels on the row `name` (a numgpu._core.Counted:
    src/pymod/report.c); nested calls (numgpu calling itself) count once, in the outer call.
    kind "device": a call is the device's unless it fell back to NumPy (_fallback.counts times
    those: the row gets their transfers); "host": NumPy's random streams (drawn on the host,
    uploaded); "fallback": NumPy's function through the fallback. program_only: calls made by
    numgpu's own code are not counted (operators, which its Python code uses). row_of(args): the
    row from the positional arguments (indexing)."""
    if getattr(f, "_numgpu_counted", False):
        return f
    from ._core import Counted
    g = functools.update_wrapper(Counted(f, name, _row(name) if row_of is None else row_of, kind, program_only), f)
    g._numgpu_counted = True
    return g


# The operators of ndarray, counted under the name of the operation and of NumPy's ufunc that does
# the same (a reflected operator, 2 * a, counts as a * b).
_BINARY = (("add", "+", "add"), ("sub", "-", "subtract"), ("mul", "*", "multiply"), ("truediv", "/", "divide"),
           ("floordiv", "//", "floor_divide"), ("mod", "%", "remainder"), ("pow", "**", "power"),
           ("lshift", "<<", "left_shift"), ("rshift", ">>", "right_shift"), ("and", "&", "bitwise_and"),
           ("or", "|", "bitwise_or"), ("xor", "^", "bitwise_xor"), ("matmul", "@", "matmul"))
_COMPARE = (("lt", "<", "less"), ("le", "<=", "less_equal"), ("gt", ">", "greater"), ("ge", ">=", "greater_equal"),
            ("eq", "==", "equal"), ("ne", "!=", "not_equal"))
_UNARY = (("neg", "-a", "negative"), ("pos", "+a", "positive"), ("abs", "abs(a)", "absolute"),
          ("invert", "~a", "invert"))


def operator_rows():
    """{ndarray's special method: the row its calls count under}: "a * b (multiply)",
    "a *= b (multiply, in place)", "-a (negative)", "a < b (less)", "divmod(a, b)"."""
    out = {}
    for entry in _BINARY:
        short, sym, ufunc = entry[0], entry[1], entry[-1]
        out["__%s__" % short] = out["__r%s__" % short] = "a %s b (%s)" % (sym, ufunc)
        out["__i%s__" % short] = "a %s= b (%s, in place)" % (sym, ufunc)
    for short, sym, ufunc in _COMPARE:
        out["__%s__" % short] = "a %s b (%s)" % (sym, ufunc)
    for short, sym, ufunc in _UNARY:
        out["__%s__" % short] = "%s (%s)" % (sym, ufunc)
    out["__divmod__"] = out["__rdivmod__"] = "divmod(a, b)"
    return out


def index_kind(key):
    """How `a[key]` indexes: "basic" (ints, slices, ..., None: a view or an element, no kernel),
    "bool mask" or "int array" (a gather: a kernel and a new array), as NumPy's rules tell them."""
    if isinstance(key, tuple):
        kinds = {index_kind(k) for k in key}
        return "bool mask" if "bool mask" in kinds else "int array" if "int array" in kinds else "basic"
    dt = getattr(key, "dtype", None)
    if dt is not None and getattr(key, "ndim", 0) > 0:
        return "bool mask" if dt == bool else "int array"
    if isinstance(key, list):
        return "bool mask" if key and all(type(k) is bool for k in key) else "int array"
    if dt is not None and dt == bool:   # a 0-d bool: a mask too
        return "bool mask"
    return "basic"


def _counted_operator(name, f, index=None):
    """ndarray's special method f counted on the row `name` (index "get"/"set": a[key] and
    a[key] = v, the row named by index_kind). Called by the program only: numgpu's own code
    using operators (printing, its Python functions) is not counted apart."""
    if index is None:
        return _counted(name, f, "device", True)
    form = "a[%s]" if index == "get" else "a[%s] = v"
    by_kind = {}

    def row_of(args):
        kind = index_kind(args[1])
        row = by_kind.get(kind)
        if row is None:
            row = by_kind[kind] = _row(form % kind)
        return row
    from ._core import Counted     # (basic keys, ints and slices, find their row in C)
    g = functools.update_wrapper(Counted(f, name, row_of, "device", True, _row(form % "basic")), f)
    g._numgpu_counted = True
    return g


def _count_operators(ndarray):
    for special, name in operator_rows().items():
        f = vars(ndarray).get(special)
        if f is not None and not getattr(f, "_numgpu_counted", False):
            setattr(ndarray, special, _counted_operator(name, f))
    for special, index in (("__getitem__", "get"), ("__setitem__", "set")):
        f = vars(ndarray)[special]
        if not getattr(f, "_numgpu_counted", False):
            setattr(ndarray, special, _counted_operator(special, f, index))


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
    """Wrap numgpu's public functions, ndarray's methods and operators, numpy.random's streams and
    jit functions to count calls per function (nothing is wrapped until this is called)."""
    if _state["counting"]:
        return
    import numgpu
    from . import _core
    from . import random as ng_random
    from .jit import JitFunction
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
                kind = "host" if mod is ng_random and ng_random._draws_on_host(v) else "device"
                setattr(mod, name, _counted(prefix + name, v, kind))
    for name, v in list(vars(ndarray).items()):
        if _countable(name, v) and name not in ("get", "to"):
            setattr(ndarray, name, _counted("numpy.ndarray." + name, v))
    _count_operators(ndarray)
    ng_random._count_calls(_counted)
    JitFunction.__call__ = _counted_jit(JitFunction.__call__)
    # (a GPU runs kernels asynchronously: each counted call waits for its own, so that its time is
    # its own and not the next call's that waits; the cpu device's calls return when done)
    _sync[0] = _core.report_setup(_fallback_calls(), _first_upload, name_strict_error)
    from . import _protocols
    _protocols._targets.clear()   # the protocols' cached targets: now the counted ones


_jit_functions = []     # the jit functions the program called (for their loops in the report)


def _counted_jit(call):
    """JitFunction.__call__ counted under "jit <name>"; the report lists how its loops ran."""
    counted = {}

    def __call__(self, *args, **kwargs):
        g = counted.get(self)
        if g is None:
            g = counted[self] = _counted("jit %s" % self.__qualname__, functools.partial(call, self))
            _jit_functions.append(self)
        return g(*args, **kwargs)
    __call__._numgpu_counted = True
    return __call__


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
        if np_mod.__name__ == "numpy.random" and ngv is missing and not name.startswith("_"):
            from . import random as ng_random   # (the legacy streams: NumPy's draws, no fallback's work)
            ngv = vars(ng_random).get(name, missing)
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
        if np_mod.__name__ == "numpy.ctypeslib" and name in ("as_ctypes", "ndpointer", "as_array"):
            from . import _ctypeslib    # (a numgpu array's own memory, not a downloaded copy's)
            return getattr(_ctypeslib, name)
        if isinstance(npv, type) or not callable(npv):
            return npv    # dtypes, classes (finfo, errstate: numgpu's is NumPy's), constants: NumPy's own objects
        # (the functions made here pickle as numgpu._run.numpy.<name>: this very object, Pool.map(np.sum, ...))
        if callable(ngv) and not isinstance(ngv, type):
            return pickle_name(guarded(label, ngv, npv, _CATCH, name_strict_error), __name__, label)
        from ._protocols import METADATA
        if npv in METADATA:   # np.shape(x): x.shape, no download
            return pickle_name(guarded(label, METADATA[npv], npv, _CATCH, name_strict_error), __name__, label)
        f = wrap(label, npv)
        if f is npv:
            return f
        f = pickle_name(f, __name__, label)
        if _state["counting"] and isinstance(f, types.FunctionType):
            f = _counted(label, f, "fallback")   # (its transfers on the row of its fallbacks; pickled by f's name)
        return f


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
_user_roots = []     # the program's own files wherever they are (numgpu run -m: the module's package)


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
        r = _user_cache[f] = (path.startswith(tuple(_user_roots)) or not path.startswith(_ROOTS)
                              and "site-packages" not in path)
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


def report_data():
    """What the report says, as a dict (numgpu run --json writes it): the run, one entry per row
    (function, method, operator, jit function) with its device and host calls, and the totals."""
    import numgpu
    from . import _fallback
    from . import random as ng_random
    st = numgpu.stats()
    data = {"script": _state["script"], "wall_time": None if _state["t0"] is None else time.perf_counter() - _state["t0"],
            "precision": _state["precision"], "counting": _state["counting"]}
    try:
        data["device"] = dev = numgpu.get_device()
        if dev == "cpu":   # where its matrix products and solves ran
            found, text = numgpu._core.cpu_blas()
            data["cpu_blas"] = os.path.basename(text) if found else "generated kernels; " + text
    except Exception as e:  # noqa: BLE001 (the report must not fail)
        data["device"] = None
        data["device_error"] = str(e)
    data["synchronised_calls"] = _sync[0] and data["device"] is not None and not data["device"].startswith(("cpu", "null"))
    entries = []
    for name in set(rows) | set(_fallback.counts):
        r = rows[name].list() if name in rows else [0, 0.0, 0, 0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None]
        fb = _fallback.counts.get(name, (0, 0.0))
        if not (r[D_CALLS] or r[H_CALLS] or fb[0] or any(r[UP:WHERE])):
            continue          # (a row made when its function was wrapped, never called)
        draws = (r[H_CALLS], r[H_TIME])
        if fb[0] and name.startswith("numpy.random.") and ng_random._draws_on_host(
                vars(ng_random).get(name[len("numpy.random."):])):
            draws, fb = (draws[0] + fb[0], draws[1] + fb[1]), (0, 0.0)   # (np.random.rand: NumPy's stream, not a fallback)
        entries.append({
            "name": name, "device_calls": r[D_CALLS], "device_time": r[D_TIME],
            "host_draws": draws[0], "host_draw_time": draws[1],
            "fallback_calls": fb[0], "fallback_time": fb[1],
            "uploads": r[UP], "upload_bytes": r[UP_BYTES], "downloads": r[DOWN], "download_bytes": r[DOWN_BYTES],
            "implicit_uploads": r[I_UP], "implicit_downloads": r[I_DOWN],
            "kernel_launches": r[LAUNCHES], "kernels_compiled": r[COMPILED], "kernels_loaded": r[LOADED],
            "first_upload_at": r[WHERE]})
    entries.sort(key=lambda e: (-(e["device_time"] + e["host_draw_time"] + e["fallback_time"]), e["name"]))
    data["calls"] = entries
    data["totals"] = dict(st)
    counted = {k: sum(e[k] for e in entries) for k in ("uploads", "upload_bytes", "downloads", "download_bytes",
                                                       "implicit_uploads", "implicit_downloads")}
    data["outside_calls"] = {k: st[k] - v for k, v in counted.items()} if _state["counting"] else None
    data["jit"] = [{"name": f.__qualname__, "file": os.path.basename(f._fn.__code__.co_filename),
                    "loops": _loops(f)} for f in _jit_functions]
    for j in data["jit"]:   # (a jit function's calls are the device's; how many of its loops ran as Python)
        for e in entries:
            if e["name"] == "jit " + j["name"]:
                e["jit_loops"] = len(j["loops"])
                e["jit_loops_python"] = sum(1 for lp in j["loops"] if _loop_ran(lp).startswith("Python"))
    return data


def _loops(f):
    """f.loop_report(), or none (the report must not fail)."""
    try:
        return f.loop_report()
    except Exception:  # noqa: BLE001
        return []


def _loop_ran(loop):
    """How a jit loop (a loop_report() entry) ran: "kernel ...", "Python (why)", or "not reached"."""
    ran = loop["ran"]
    if ran.startswith("kernel"):
        return ran
    if ran.startswith("python: "):   # (loop_report's "python: <why>")
        return "Python (%s)" % ran[len("python: "):]
    return "not reached"


def _transfers(n, nbytes):
    return "%d (%s)" % (n, _fmt_bytes(nbytes)) if n else ""


def report_text(data=None):
    """The report as text: wall time, per-function device vs NumPy calls with the transfers and
    kernels each made, where uploads came from, transfers outside the counted calls, kernels."""
    data = data or report_data()
    st = data["totals"]
    lines = ["", "numgpu run report" + (" for %s" % data["script"] if data["script"] else "")]
    if data["wall_time"] is not None:
        lines.append("  wall time        %.3f s" % data["wall_time"])
    dev = data["device"]
    if dev is None:
        lines.append("  device           unavailable (%s)" % data["device_error"])
    else:
        lines.append("  device           %s" % (dev + (" (matrix products and solves: %s)" % data["cpu_blas"]
                                                          if "cpu_blas" in data else "")))
    lines.append("  precision        %s" % ("float32 (float64 data and defaults run as float32)"
                                            if data["precision"] == "float32" else "float64 (as NumPy)"))
    entries = data["calls"]
    n_dev = sum(e["device_calls"] for e in entries)
    n_draw = sum(e["host_draws"] for e in entries)
    n_fb = sum(e["fallback_calls"] for e in entries)
    gpu = dev is not None and not dev.startswith(("cpu", "null"))   # (cpu: NumPy's draws are used where they are)
    lines.append("  calls            %d on the device, %d on NumPy (fallback)%s"
                 % (n_dev, n_fb, ", %d calls of NumPy's random streams on the host (seeding, draws: %s)"
                    % (n_draw, "uploaded" if gpu else "used in place") if n_draw else ""))
    if not data["counting"]:
        lines.append("                   (device calls are counted with numgpu.config(report=True))")
    elif data["wall_time"] is not None:
        t_dev = sum(e["device_time"] for e in entries)
        t_host = sum(e["host_draw_time"] + e["fallback_time"] for e in entries)
        lines.append("  time             %.3f s in device calls, %.3f s in NumPy on the host, %.3f s elsewhere "
                     "(the script's own Python, imports, printing)"
                     % (t_dev, t_host, max(0.0, data["wall_time"] - t_dev - t_host)))
    if entries:
        shown = entries[:40]
        names = [e["name"] + (" *" if e["host_draws"] else "")
                 + (" (%d of %d loops as Python)" % (e["jit_loops_python"], e["jit_loops"])
                    if e.get("jit_loops_python") else "") for e in shown]
        w = max(len("function / operator"), max(len(n) for n in names))
        lines.append(("    %-*s %8s %10s %8s %10s %8s  %-13s %-13s" % (w, "function / operator", "device", "time",
                                                                  "numpy", "time", "kernels", "uploads",
                                                                  "downloads")).rstrip())
        for name, e in zip(names, shown):
            kern = ("%d" % e["kernel_launches"] + ("+%dc" % e["kernels_compiled"] if e["kernels_compiled"] else "")
                    + ("+%dl" % e["kernels_loaded"] if e["kernels_loaded"] else ""))
            lines.append(("    %-*s %8d %9.4fs %8d %9.4fs %8s  %-13s %-13s" % (
                w, name, e["device_calls"], e["device_time"], e["host_draws"] + e["fallback_calls"],
                e["host_draw_time"] + e["fallback_time"], kern, _transfers(e["uploads"], e["upload_bytes"]),
                _transfers(e["downloads"], e["download_bytes"]))).rstrip())
        if len(entries) > 40:
            lines.append("    ... %d more" % (len(entries) - 40))
        lines.append("    (device: calls run by numgpu on the device; numpy: on the host by NumPy; kernels: launches,")
        lines.append("     +Nc compiled and +Nl loaded from the disk cache in the call, whose time includes that%s)"
                     % (("; times include\n     each call's kernels: it waits for them (NUMGPU_REPORT_ASYNC=1: it "
                         "does not)" if data["synchronised_calls"] else
                         ";\n     times are the host's: the kernels run on after the call, a call that waits (a "
                         "download) shows\n     the time of the kernels before it") if gpu else ""))
        if n_draw:
            lines.append("    * NumPy's random stream (NumPy's numbers): drawn by NumPy on the host, then %s;\n"
                         "      numgpu.random.device_rng(seed) draws on the device (other numbers)"
                         % ("uploaded" if gpu else "used in place"))
    lines.append("  transfers        %d uploads (%s), %d downloads (%s)%s"
                 % (st["uploads"], _fmt_bytes(st["upload_bytes"]), st["downloads"], _fmt_bytes(st["download_bytes"]),
                    " (on cpu: copies between NumPy's memory and numgpu's)"
                    if dev == "cpu" and (st["uploads"] or st["downloads"]) else ""))
    sources = sorted((e for e in entries if e["uploads"]), key=lambda e: -e["upload_bytes"])
    for i, e in enumerate(sources[:5]):
        lines.append("  %-16s %s (%s%s) by %s%s" % ("uploads from" if i == 0 else "", e["uploads"],
                                                    _fmt_bytes(e["upload_bytes"]),
                                                    ", %d implicit" % e["implicit_uploads"] if e["implicit_uploads"]
                                                    else "", e["name"],
                                                    " at %s" % e["first_upload_at"] if e["first_upload_at"] else ""))
    out = data["outside_calls"]
    if out and (out["uploads"] or out["downloads"]):
        lines.append("  outside calls    %d uploads (%s), %d downloads (%s): the program reading arrays (print, "
                     "float(), if, for), NumPy or libraries given them"
                     % (out["uploads"], _fmt_bytes(out["upload_bytes"]), out["downloads"],
                        _fmt_bytes(out["download_bytes"])))
    lines.append("  implicit         %d uploads, %d downloads of the transfers (NUMGPU_STRICT=1 makes them errors)"
                 % (st["implicit_uploads"], st["implicit_downloads"]))
    lines.append("  kernels          %d launches; %d kernels compiled in this run, %d loaded from the disk cache, "
                 "%d memory cache hits (a kernel used again)"
                 % (st["kernel_launches"], st["kernels_compiled"], st["disk_cache_hits"], st["memory_cache_hits"]))
    for j in data["jit"]:
        for loop in j["loops"]:
            lines.append("  jit %-12s loop at %s:%d: %s" % (j["name"], j["file"], loop["line"], _loop_ran(loop)))
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


def write_json(path, data=None):
    """The report as JSON (report_data) written to `path` ("-": stderr)."""
    import json
    text = json.dumps(data or report_data(), indent=1, default=str) + "\n"
    if path == "-":
        sys.stderr.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


def _report_at_exit():
    if _state["report"]:
        try:
            import numgpu
            numgpu.synchronize()
        except Exception:  # noqa: BLE001
            pass
        path = os.environ.get("NUMGPU_REPORT")
        data = report_data()
        if path != "-":
            sys.stderr.write(report_text(data))
        if path:
            try:
                write_json(path, data)
            except OSError as e:
                sys.stderr.write("numgpu run: cannot write the report to %s: %s\n" % (path, e))


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

def find_module(name):
    """The spec of module `name` as `python -m name` runs it (a package: its __main__), or a
    ValueError saying why it cannot run (no such module, a package without __main__)."""
    import importlib.util
    cwd = os.getcwd()
    added = cwd not in sys.path and "" not in sys.path   # (python -m looks in the current folder first)
    if added:
        sys.path.insert(0, cwd)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as e:   # (a parent package missing or failing to import, a relative name)
        raise ValueError("no module named %r (%s)" % (name, e)) from None
    finally:
        if added:
            sys.path.remove(cwd)
    if spec is None:
        raise ValueError("no module named %r" % name)
    if spec.submodule_search_locations is not None:   # a package: its __main__ runs
        try:
            return find_module(name + ".__main__")
        except ValueError:
            raise ValueError("no module named %r: %r is a package and cannot be directly executed"
                             % (name + ".__main__", name)) from None
    if spec.loader is None:
        raise ValueError("no code to run for module %r" % name)
    return spec


def run_script(script, args=(), report_on=True, profile=False, precision=None, device=None, module=None):
    """Run `script` as __main__ with numpy served by numgpu, as `python script.py args` would
    ("-": the program read from stdin, as `python -`); with module="pkg.mod", that module as
    `python -m pkg.mod args` would (its package's files are the program's own code).
    Returns the exit status."""
    import runpy

    import numgpu
    from . import _protocols
    spec = find_module(module) if module else None   # (raises ValueError before anything runs)
    if device:
        numgpu.set_device(device)
    if spec is not None:
        origin = os.path.realpath(spec.origin)
        _user_roots.append(os.path.join(os.path.dirname(origin), "")
                           if "." in spec.name else origin)   # (its package's folder, or the module's file)
        path, argv0, name, path0 = origin, origin, module, os.getcwd()
    elif script == "-":
        path, argv0, name, path0 = "<stdin>", "-", "<stdin>", ""
    else:
        path, argv0, name, path0 = script, script, os.path.basename(script), os.path.dirname(os.path.abspath(script))
    _state["script"] = name
    _state["t0"] = time.perf_counter()
    config(precision=precision, report=report_on, scalars=os.environ.get("NUMGPU_SCALARS") or "numpy")
    _protocols.scalar_style(True)
    install_import_hook()
    sys.argv = [argv0] + list(args)
    sys.path.insert(0, path0)
    prof = None
    if profile:
        prof = _state["profile"] = LineProfiler([path])
        prof.start()
        if not report_on:
            atexit.register(lambda: sys.stderr.write("\n".join([""] + prof.text()) + "\n"))
    status = 0
    try:
        if spec is not None:
            runpy.run_module(spec.name, run_name="__main__", alter_sys=True)
        elif script == "-":
            import linecache
            source = sys.stdin.read()
            # (its lines for tracebacks, --profile and @numgpu.jit, which reads a function's source)
            linecache.cache["<stdin>"] = (len(source), None, source.splitlines(True), "<stdin>")
            code = compile(source, "<stdin>", "exec")
            main = types.ModuleType("__main__")
            main.__file__ = "<stdin>"
            main.__builtins__ = builtins
            sys.modules["__main__"] = main
            exec(code, vars(main))
        else:
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
    except BaseException as e:  # noqa: BLE001 (the script's error, shown as plain Python shows it)
        _print_script_traceback(e, path)
        status = 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        if prof is not None:
            prof.stop()
        sys.stdout.flush()
    return status


def _print_script_traceback(e, script):
    """The traceback from the script's own first frame on, without numgpu run's frames above it."""
    import traceback
    tb, path = e.__traceback__, os.path.realpath(script)   # ("<stdin>": the realpath of it, as co_filename's)
    while tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename) != path:
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb or e.__traceback__)
