"""numgpu run and the libraries that tell arrays by NumPy's type: the script's numgpu arrays become
NumPy's at their entry points.

pandas tells a boolean mask, positions or group keys from labels by `isinstance(key, np.ndarray)`;
a numgpu array is none, so `df[mask]`, `s[mask]`, `df.loc[mask, "a"]` took a mask as labels
(KeyError), `df.iloc[mask]` as positions 0 and 1 (wrong rows, no error), `df.groupby(keys)` called
the array, and `pd.factorize`/`pd.unique` refused it. Pillow's `Image.fromarray` reads
`__array_interface__` and `frombuffer`/`frombytes` the buffer protocol, which an array in a GPU's
memory has neither of (an AttributeError, a TypeError). Under `numgpu run`, at the script's first
import of such a library (HOOKS), its `install` wraps the library's public entry points: a numgpu
array among their arguments (or in a tuple or list argument: `df.loc[mask, "a"]`,
`groupby([k1, k2])`) is handed over as NumPy's (`numpy.asarray`: a view of a cpu array's memory, a
copy from a GPU), and the library answers as with NumPy. Nothing else of the library changes; a
call without a numgpu array pays one look at its arguments' types, in C.

pandas' entry points (PANDAS): the item methods of DataFrame and Series and of their
`.loc`/`.iloc`/`.at`/`.iat` indexers, `groupby`, `set_index`, and `pandas.factorize`/`pandas.unique`.
Pillow's (PILLOW): `PIL.Image.fromarray`, `frombuffer` and `frombytes`.
"""
from . import _core

# pandas' classes (by their public names) and the methods that take keys, masks or group keys
PANDAS = {"DataFrame": ("__getitem__", "__setitem__", "groupby", "set_index"),
         "Series": ("__getitem__", "__setitem__", "groupby")}
INDEXERS = ("loc", "iloc", "at", "iat")     # their classes' __getitem__ and __setitem__
FUNCTIONS = ("factorize", "unique")


def takes_numpy(f):
    """f (pandas' function or method) with numgpu arrays among its arguments (also items of tuple and
    list arguments) as NumPy's: a C wrapper (_core.Guard with arrays=True, src/pymod/guard.c) that
    binds as a method and adds no Python frame (pandas' warnings name the script's line)."""
    g = _core.Guard(f, f, _reraise, (), None, False, True)
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(g, attr, getattr(f, attr, None))
    g.__wrapped__ = f
    g._numgpu_takes_numpy = True
    return g


def _reraise(e, args, kwargs):
    """The Guard's on_error, never asked: it catches no exception class, pandas' errors go on up."""
    raise e


def _wrap(owner, name):
    f = getattr(owner, name, None)
    if f is not None and not getattr(f, "_numgpu_takes_numpy", False):
        setattr(owner, name, takes_numpy(f))


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


# a library's top-level package -> the function wrapping its entry points, at the script's first import
HOOKS = {"pandas": install_pandas, "PIL": install_pillow}
