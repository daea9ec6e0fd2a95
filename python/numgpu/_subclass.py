"""Python subclasses of numgpu.ndarray: `class Info(np.ndarray)`, as NumPy's ndarray subclasses.

A subclass's instances are numgpu arrays (device data) whose results keep the subclass, as
NumPy's do: `x.view(Info)`, `Info(shape)` (or `super().__new__(cls, shape, ...)`: numgpu.ndarray's
constructor is NumPy's, `_new`) make one, its
`__array_finalize__(obj)` is called with the array it came from (None from the constructor),
and the results of its operators, indexing, methods (reshape, T, sum(axis=...), astype ...),
numgpu's ufuncs (np.sqrt(x), np.add(x, 1)) and the functions NumPy routes through methods
(np.sum, np.transpose, np.clip, np.zeros_like ...) are instances of it, finalized from their input.

How: operators and indexing (C, pymod/ndarray.c) hand their result to `rewrap` where an operand's
type is not numgpu.ndarray (`ngpy_keep_subclass`: a pointer test for numgpu's own arrays), so
`np.ndarray.__add__(self, other)` in a subclass's own operator keeps it too; `rewrap` views the
result as the subclass (`_core.subclass_view`, C: the same memory, then `__array_finalize__`).
`ndarray.__init_subclass__` (run when the user's class is made) gives the subclass wrappers of the
inherited methods and properties (reshape, sum, T ...) that do the same; ufuncs and the module's
method-like functions (wrapped when the first subclass is made) do it once any subclass exists
(`active`), so plain numgpu arrays pay one flag test in a ufunc call. A method the subclass defines itself is left alone.

As NumPy's: functions making new arrays from several (concatenate, stack, where) and asarray give
plain arrays, asanyarray the instance; an element x[i, j] is a scalar, a full reduction x.sum() a 0-d
instance (a NumPy scalar under `numgpu run`, whose reductions give NumPy's scalars). Unlike NumPy's:
`__array_wrap__`/`__array_priority__` of the subclass are not consulted (its `__array_finalize__` is).
"""
import functools

from . import _core
from ._core import ndarray

active = [False]   # a subclass of numgpu.ndarray exists (set by __init_subclass__)

# methods whose numgpu results become the subclass's (operators and indexing do it in C:
# ngpy_keep_subclass, calling rewrap)
_METHODS = tuple(
    "__copy__ __deepcopy__ reshape transpose ravel flatten copy astype squeeze swapaxes sum prod mean "
    "std var min max cumsum cumprod round clip conj conjugate repeat take diagonal compress dot argsort "
    "all any trace ptp".split())
_PROPERTIES = ("T", "mT", "real", "imag")
# module functions NumPy computes through the array's methods or with subok=True
FUNCTIONS = tuple(
    "sum prod mean std var min max amin amax cumsum cumprod transpose reshape ravel round around "
    "clip squeeze swapaxes diagonal repeat take real imag zeros_like ones_like empty_like full_like".split())


def _standin(t):
    return "_numgpu_standin" in t.__dict__


def _instance(a):
    """a is an instance of a Python subclass of numgpu.ndarray (not numgpu run's stand-in)."""
    t = type(a)
    return t is not ndarray and isinstance(a, ndarray) and not _standin(t)


def rewrap(r, like):
    """r, a result of an operation on `like`: where like is an instance of a subclass and r a plain
    numgpu array, r's memory as that subclass, finalized from like; a tuple of them each;
    anything else as it is."""
    if not _instance(like):
        return r
    if type(r) is ndarray:
        return _core.subclass_view(r, type(like), like)
    if type(r) is tuple:
        return tuple(rewrap(v, like) for v in r)
    return r


def first_instance(args):
    """The first argument that is an instance of a subclass (None when none is)."""
    return next((a for a in args if _instance(a)), None)


def _keeping(f):
    @functools.wraps(f)
    def m(self, *args, **kwargs):
        return rewrap(f(self, *args, **kwargs), self)
    return m


def _keeping_property(p):
    setter = getattr(p, "__set__", None)
    return property(lambda self: rewrap(p.__get__(self, type(self)), self),
                    (lambda self, v: setter(self, v)) if setter else None, doc=getattr(p, "__doc__", None))


def rebuild(cls, f, args):
    """Unpickling an instance of a subclass: numgpu's array, as the subclass (finalized from None,
    as NumPy's unpickling; attributes the instance had are not pickled, as NumPy's)."""
    return _core.subclass_view(f(*args), cls, None)


def _reduce_ex(self, protocol):
    f, args = ndarray.__reduce_ex__(self, protocol)[:2]
    return rebuild, (type(self), f, args)


def _repr(self):
    """NumPy's repr of a subclass instance: its class's name where 'array' stands."""
    s = ndarray.__repr__(self)
    if not s.startswith("array("):
        return s
    name = type(self).__name__
    return name + "(" + s[6:].replace("\n      ", "\n" + " " * (len(name) + 1))


def _new(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None): NumPy's
    constructor (new_array); for a subclass (`Info(shape)`, `super().__new__(cls, shape)`) that
    array as an instance of it, finalized from None, as NumPy's explicit constructor."""
    r = new_array(shape, dtype, buffer, offset, strides, order)
    if cls is ndarray or _standin(cls):
        return r
    if not isinstance(r, ndarray):   # (a GPU device's view of host memory is NumPy's array: a copy)
        r = __import__("numgpu").asarray(r)
    return _core.subclass_view(r, cls, None)


def new_array(shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """ndarray(shape, dtype): an uninitialised numgpu array; with buffer=, an array over the buffer's
    memory that writes reach, as NumPy's (shared memory, an mmap: `_indexx.host_memory_view`; a GPU
    array's buffer is downloaded first, a copy)."""
    import numpy

    import numgpu
    from ._indexx import host_memory_view
    if buffer is None and strides is None and not offset:
        return numgpu.empty(shape, dtype, order=order or "C")
    if isinstance(buffer, ndarray) and buffer.device != "cpu":
        buffer = buffer.get()  # a GPU array has no host memory to view: NumPy's view is of a copy
        return numgpu.asarray(numpy.ndarray(shape, dtype, buffer, offset, strides, order))
    return host_memory_view(numpy.ndarray(shape, dtype, buffer, offset, strides, order))


def _init_subclass(cls, **kwargs):
    """Made for each Python subclass of numgpu.ndarray: the inherited operators, methods and
    properties on it keep results in the subclass (what it defines itself it keeps)."""
    super(ndarray, cls).__init_subclass__(**kwargs)
    if _standin(cls):
        return
    if not active[0]:
        active[0] = True
        _keep_in_functions()
    own = set()
    for k in cls.__mro__:
        if k is ndarray or _standin(k):
            break
        own.update(k.__dict__)
    for name in _METHODS:
        if name not in own and hasattr(ndarray, name):
            setattr(cls, name, _keeping(getattr(ndarray, name)))
    for name in _PROPERTIES:
        if name not in own and hasattr(ndarray, name):
            setattr(cls, name, _keeping_property(ndarray.__dict__[name]))
    if "__repr__" not in own:
        cls.__repr__ = _repr
    if "__reduce_ex__" not in own and "__reduce__" not in own:
        cls.__reduce_ex__ = _reduce_ex


def _array_finalize(self, obj):
    """NumPy's hook, called on a new instance of a subclass with the array it came from (None from
    the constructor): numgpu.ndarray's does nothing; a subclass's copies its attributes."""


def _keeping_function(f):
    @functools.wraps(f)
    def g(a, *args, **kwargs):
        r = f(a, *args, **kwargs)
        if active[0] and kwargs.get("subok", True) and kwargs.get("out") is None:
            return rewrap(r, a)
        return r
    return g


def _keep_in_functions():
    """numgpu's method-like functions (FUNCTIONS) wrapped to keep subclasses, once the first
    subclass is made (a plain `import numgpu` pays nothing); the shims of `numgpu run` forget
    what they had looked up of them."""
    import numgpu

    from . import _fallback, _run
    from ._ufunc import ufunc
    ns = vars(numgpu)
    for name in FUNCTIONS:
        f = ns.get(name)
        if callable(f) and not isinstance(f, (type, ufunc)):
            g = ns[name] = _fallback.pickle_name(_keeping_function(f), "numgpu", name)
            _fallback.WRAPPERS.add(g.__code__)   # (the guard inside looks through it for the program's call)
            for shim in _run._shims.values():
                shim.__dict__.pop(name, None)


def install():
    """The hooks on numgpu.ndarray (done once by `import numgpu`)."""
    _core.set_subclass_hook(rewrap)
    ndarray.__new__ = staticmethod(_new)
    ndarray.__init_subclass__ = classmethod(_init_subclass)
    ndarray.__array_finalize__ = _array_finalize
