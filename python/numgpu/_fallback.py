"""NumPy fallback for what numgpu does not implement (issue 5).

The contract the other modules use (numgpu.linalg, numgpu.random, ...):

    call_numpy(name, func, *args, **kwargs)
        runs NumPy's `func` with every numgpu array in args/kwargs (also
        inside lists, tuples and dicts) downloaded, and returns the result
        with every numpy.ndarray in it uploaded to the current device.
        `name` ("numpy.linalg.svd") is what reports and warnings call it.
    submodule_getattr(numpy_module_name, name)
        for a module's __getattr__: NumPy's attribute `name` of the module,
        wrapped with call_numpy when it is callable; AttributeError if NumPy
        has none.
"""
import importlib

import numpy as _np


def _down(x):
    from . import ndarray
    if isinstance(x, ndarray):
        return x.get()
    if isinstance(x, (list, tuple)):
        return type(x)(_down(v) for v in x)
    if isinstance(x, dict):
        return {k: _down(v) for k, v in x.items()}
    return x


def _up(x):
    from . import asarray
    if isinstance(x, _np.ndarray):
        return asarray(x)
    if isinstance(x, tuple):
        return type(x)(*(_up(v) for v in x)) if hasattr(x, "_fields") else tuple(_up(v) for v in x)
    if isinstance(x, list):
        return [_up(v) for v in x]
    return x


def call_numpy(name, func, *args, **kwargs):
    return _up(func(*_down(args), **_down(kwargs)))


def _wrap(name, func):
    def f(*args, **kwargs):
        return call_numpy(name, func, *args, **kwargs)
    f.__name__ = f.__qualname__ = name.rsplit(".", 1)[-1]
    f.__doc__ = "NumPy's %s, run on NumPy (numgpu has no device version yet)." % name
    return f


def submodule_getattr(numpy_module_name, name):
    mod = importlib.import_module(numpy_module_name)
    if name.startswith("__") or not hasattr(mod, name):
        raise AttributeError("module %r has no attribute %r" % (numpy_module_name.replace("numpy", "numgpu", 1), name))
    value = getattr(mod, name)
    if callable(value) and not isinstance(value, type):
        return _wrap("%s.%s" % (numpy_module_name, name), value)
    return value


def module_getattr(name):
    return submodule_getattr("numpy", name)
