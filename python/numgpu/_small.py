"""Small calls of numgpu's composite functions on the cpu device: NumPy's own code.

Some of numgpu's functions are NumPy's definitions written over device operations (interp,
einsum, unique, ...): on small arrays such a call costs a launch per step, 10-70 us where NumPy's
C takes 1-5. On the cpu device an array's memory is host memory, so a call whose arrays are small
(at most SMALL elements together, _core.host_small) runs NumPy's own function on views of that
memory, and its result is NumPy's array viewed in place (_fallback._up): no copy either way, as the
cpu device's sorts and matrix products run NumPy's SIMD sorts and BLAS on the same memory. NumPy's
answer, errors and warnings, bit for bit. Larger calls, and every call on a GPU, run the device
operations; a function does the test itself at its top:

    if _small.host(x, xp, fp):
        return _small.call(_np.interp, x, xp, fp, left, right, period)
"""
import os as _os

from . import _core, _fallback

# Elements (all of a call's arrays together) up to which NumPy's function runs on cpu: where the
# device's launches (about 1-3 us each, several per function) cost more than NumPy's whole call.
# NUMGPU_SMALL sets it (0: never; the test suite runs the device operations so, and tests this
# path on its own, tests/python/test_small_calls.py).
try:
    SMALL = int(_os.environ.get("NUMGPU_SMALL", "4096") or 0)
except ValueError:
    import sys as _sys
    print("numgpu: NUMGPU_SMALL=%s is not a number of elements; it stays 4096" % _os.environ["NUMGPU_SMALL"],
          file=_sys.stderr)
    SMALL = 4096


def host(*args):
    """Whether the call of these arguments (arrays, lists of arrays or numbers, scalars) is small
    and in host memory: see the module's doc."""
    return SMALL > 0 and _core.host_small(args, SMALL)


def call(npf, *args, **kwargs):
    """NumPy's npf on views of the numgpu arrays among args and kwargs (and in lists of them);
    array results as numgpu arrays over NumPy's memory, NumPy's scalars as 0-d arrays standing
    for them."""
    return _core.small_call(npf, args, kwargs, _fallback._up)     # (in C: host_views, the call, _up)
