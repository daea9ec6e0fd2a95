"""A stand-in `numgpu` made of NumPy: the plain-NumPy baseline of `numgpu bench`.

`numgpu bench` puts this folder first on sys.path for its NumPy runs, so a script written
with `import numgpu as np` runs on real NumPy, unchanged. Only the names a portable script
needs beyond NumPy's own are added (asnumpy, synchronize, stats, use, ...). Portable
scripts call `np.asnumpy(x)` rather than `x.get()`, which NumPy arrays lack.
"""
import contextlib as _contextlib

import numpy as _np
from numpy import *  # noqa: F401,F403

__version__ = "numpy-" + _np.__version__
BASELINE = True           # lets a script tell it is running as the NumPy baseline


class DeviceError(RuntimeError):
    pass


class OutOfMemoryError(MemoryError):
    pass


def asnumpy(a):
    return _np.asarray(a)


def synchronize():
    pass


def stats():
    return {}


def get_device():
    return "numpy"


def set_device(spec):
    return "numpy"


def use(spec):
    return _contextlib.nullcontext()


def is_available(kind):
    return kind == "cpu"


def devices():
    return []


def set_strict(flag=True):
    return False
