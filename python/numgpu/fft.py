"""numgpu.fft: NumPy's fft module over numgpu arrays.

The sample frequencies (fftfreq, rfftfreq, with the Array API standard's dtype= and device=)
and the shifts (fftshift, ifftshift: a roll) run on the device. The transforms themselves
(fft, ifft, rfft, fftn, ...) run on NumPy through the fallback contract (numgpu.__getattr__ of
this module): their results are complex, a dtype numgpu arrays cannot hold yet, so they come
back as NumPy arrays.
"""
import numpy as _np

from ._fallback import call_numpy, submodule_getattr

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _ng():
    import numgpu
    return numgpu


def _check_n(n):
    if not isinstance(n, (int, _np.integer)) or isinstance(n, (bool, _np.bool_)):
        raise ValueError("n should be an integer")
    return int(n)


def _freq(ints, n, d, dtype):
    r = ints * (1.0 / (n * d))  # float64, as NumPy computes it
    return r if dtype is None else r.astype(dtype)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of an n-point DFT with sample spacing d: [0, 1, ..., -(n//2), ..., -1] / (n*d)."""
    n = _check_n(n)
    ng = _ng()
    half = (n - 1) // 2 + 1
    ints = ng.concatenate([ng.arange(0, half, dtype=ng.int64, device=device),
                           ng.arange(-(n // 2), 0, dtype=ng.int64, device=device)])
    return _freq(ints, n, d, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of rfft's n-point output: [0, 1, ..., n//2] / (n*d)."""
    n = _check_n(n)
    ng = _ng()
    return _freq(ng.arange(0, n // 2 + 1, dtype=ng.int64, device=device), n, d, dtype)


def _shift(name, x, axes, sign):
    ng = _ng()
    try:
        x = x if isinstance(x, ng.ndarray) else ng.asarray(x)
    except TypeError:  # complex (an fft result): NumPy shifts it on the host
        return call_numpy("numpy.fft." + name, getattr(_np.fft, name), x, axes)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, _np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return ng.roll(x, shift, axes)


def fftshift(x, /, axes=None):
    """x with the zero-frequency term moved to the centre (a roll by n//2 along each axis)."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x, /, axes=None):
    """fftshift's inverse (a roll by -(n//2) along each axis)."""
    return _shift("ifftshift", x, axes, -1)


def __getattr__(name):
    return submodule_getattr("numpy.fft", name)
