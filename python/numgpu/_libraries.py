"""numgpu and the libraries that tell arrays by NumPy's type: the program's numgpu arrays become
NumPy's at their entry points.

pandas tells a boolean mask, positions or group keys from labels by `isinstance(key, np.ndarray)`;
a numgpu array is none, so `df[mask]`, `s[mask]`, `df.loc[mask, "a"]` took a mask as labels
(KeyError), `df.iloc[mask]` as positions 0 and 1 (wrong rows, no error), `df.groupby(keys)` called
the array, and `pd.factorize`/`pd.unique` refused it. Pillow's `Image.fromarray` reads
`__array_interface__` and `frombuffer`/`frombytes` the buffer protocol, which an array in a GPU's
memory has neither of (an AttributeError, a TypeError). Once numgpu is imported (`import numgpu as
np`, `numgpu run`), at the first import of such a library (HOOKS; by the program or by another
library, or at numgpu's import where it came first), `install` wraps its public entry points: a
numgpu array among their arguments (or in a tuple or list argument: `df.loc[mask, "a"]`,
`groupby([k1, k2])`) is handed over as NumPy's (`numpy.asarray`: a view of a cpu array's memory, a
copy from a GPU), and the library answers as with NumPy. Nothing else of the library changes; a
call without a numgpu array pays one look at its arguments' types, in C.

pandas' entry points (PANDAS): the item methods of DataFrame and Series and of their
`.loc`/`.iloc`/`.at`/`.iat` indexers, `groupby`, `set_index`, and `pandas.factorize`/`pandas.unique`.
Pillow's (PILLOW): `PIL.Image.fromarray`, `frombuffer` and `frombytes`.
"""
import sys

from . import _core

# pandas' classes (by their public names) and the methods that take keys, masks or group keys
PANDAS = {"DataFrame": ("__getitem__", "__setitem__", "groupby", "set_index"),
         "Series": ("__getitem__", "__setitem__", "groupby")}
INDEXERS = ("loc", "iloc", "at", "iat")     # their classes' __getitem__ and __setitem__
FUNCTIONS = ("factorize", "unique")


def takes_numpy(f, outputs=None, module=None):
    """f (pandas' function or method) with numgpu arrays among its arguments (also items of tuple and
    list arguments) as NumPy's: a C wrapper (_core.Guard with arrays=True, src/pymod/guard.c) that
    binds as a method and adds no Python frame (pandas' warnings name the script's line). `outputs`
    ({parameter name: position, -1 where keyword-only}): f's output parameters, whose numgpu arrays
    get what f wrote (a GPU's download copied back) and stand where f returns them. `module`: the
    module's name where the wrapper is set, which pickle then finds it under (f's own module holds
    f, not the wrapper: pickle refused `pickle.dumps(ndimage.gaussian_filter)`)."""
    g = _core.Guard(f, f, _reraise, (), None, False, True, outputs)
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(g, attr, getattr(f, attr, None))
    if module is not None:
        g.__module__ = module
    g.__wrapped__ = f
    g._numgpu_takes_numpy = True
    return g


def _reraise(e, args, kwargs):
    """The Guard's on_error, never asked: it catches no exception class, pandas' errors go on up."""
    raise e


def _wrap(owner, name):
    import types
    f = getattr(owner, name, None)
    if f is not None and not getattr(f, "_numgpu_takes_numpy", False):
        setattr(owner, name, takes_numpy(f, module=owner.__name__ if isinstance(owner, types.ModuleType) else None))


def install_pandas(pd):
    """Wrap pandas module `pd`'s entry points (PANDAS, INDEXERS, FUNCTIONS; once, names pandas
    lacks skipped)."""
    if getattr(pd, "_numgpu_takes_numpy", False):
        return
    for cls_name, names in PANDAS.items():
        cls = getattr(pd, cls_name, None)
        for name in names if cls is not None else ():
            _wrap(cls, name)
    frame = pd.DataFrame({"a": [0]})
    for obj in (frame, frame["a"]):
        for prop in INDEXERS:
            indexer = type(getattr(obj, prop, None))
            if indexer is not type(None):
                _wrap(indexer, "__getitem__")
                _wrap(indexer, "__setitem__")
    for name in FUNCTIONS:
        _wrap(pd, name)
    pd._numgpu_takes_numpy = True


PILLOW = ("fromarray", "frombuffer", "frombytes")      # PIL.Image's functions taking array data


def install_pillow(pil):
    """Wrap Pillow's PIL.Image functions taking array data (PILLOW; once; `pil` the PIL package)."""
    import importlib
    image = importlib.import_module(pil.__name__ + ".Image")
    for name in PILLOW:
        _wrap(image, name)


# scipy's modules with functions writing into arrays the caller gives (ndimage's `output=`, its distance
# transforms' `distances=`/`indices=`, spatial.distance's cdist/pdist `out=`; scipy.signal's filter
# designs take `output="sos"`, a str the wrapper passes through), and those parameters' names
SCIPY = ("scipy.ndimage", "scipy.signal", "scipy.spatial.distance")
OUTPUTS = ("output", "out", "distances", "indices")


def output_parameters(f):
    """{name: position, or -1 where keyword-only} of f's parameters named in OUTPUTS; {} for none
    (or no signature)."""
    import inspect
    try:
        params = inspect.signature(f).parameters
    except (TypeError, ValueError):
        return {}
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return {name: (i if p.kind in positional else -1)
            for i, (name, p) in enumerate(params.items()) if name in OUTPUTS}


def wrap_outputs(module):
    """Wrap each public Python function of `module` that has an output parameter (output_parameters),
    found by its signature; once (a wrapped function is left as it is)."""
    import types
    for name in getattr(module, "__all__", None) or dir(module):
        f = getattr(module, name, None)
        if name.startswith("_") or not isinstance(f, types.FunctionType):
            continue
        outputs = output_parameters(f)
        if outputs:
            setattr(module, name, takes_numpy(f, outputs, module.__name__))


class _WhenImported:
    """A sys.meta_path finder that calls then(module) for the modules named, as each is imported
    (pandas when the program imports it; scipy loads its submodules when first used: `import scipy`
    then `scipy.ndimage.label(...)`); it finds nothing itself, gives the spec the other finders
    give, and leaves sys.meta_path once all are done."""

    def __init__(self, names, then):
        self.names = set(names)
        self.then = then

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.names:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None) if finder is not self else None
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        run = getattr(loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module):      # (on the loader of this module only: its own instance)
            run(module)
            del loader.exec_module
            self.names.discard(fullname)
            self.then(module)
            if not self.names and self in sys.meta_path:
                sys.meta_path.remove(self)
        loader.exec_module = exec_module
        return spec


def install_scipy(scipy):
    """Wrap the functions of scipy's SCIPY modules that write into output arrays: those imported
    now, and the others as they are imported (_WhenImported)."""
    later = []
    for name in SCIPY:
        module = sys.modules.get(name)
        if module is not None:
            wrap_outputs(module)
        else:
            later.append(name)
    if later:
        sys.meta_path.insert(0, _WhenImported(later, wrap_outputs))


# a library's top-level package -> the function wrapping its entry points, once it is imported
HOOKS = {"pandas": install_pandas, "PIL": install_pillow, "scipy": install_scipy}
_installed = set()


def install(module):
    """HOOKS' function for `module` (a top-level package), once; where it fails (a version numgpu
    does not know) a warning, and the program runs on."""
    top = module.__name__
    if top in _installed:
        return
    _installed.add(top)
    try:
        HOOKS[top](module)
    except Exception as e:  # noqa: BLE001
        import warnings
        warnings.warn("numgpu: %s's entry points not wrapped for numgpu arrays (%s: %s)"
                      % (top, type(e).__name__, e), RuntimeWarning, stacklevel=2)


def install_all():
    """At `import numgpu` (with `numgpu run` too): each library of HOOKS wrapped now where the
    program has imported it, else when it is imported, by whoever imports it."""
    later = [top for top in HOOKS if top not in sys.modules]
    for top in HOOKS:
        if top in sys.modules:
            install(sys.modules[top])
    if later:
        sys.meta_path.insert(0, _WhenImported(later, install))
