"""numgpu.fft: NumPy's fft module over numgpu arrays, on the device.

The transforms (fft, ifft, rfft, irfft, hfft, ihfft and their 2-d and n-d
forms) run as kernels built in C (src/ops/fft.c: Stockham passes, Bluestein
for lengths with a prime factor above 13); this module gives them NumPy's
signatures, its norm factors (computed as NumPy computes them, in the
input's real dtype) and its n-d compositions (1-d transforms axis by axis,
in NumPy's order). The sample frequencies (fftfreq, rfftfreq, with the
Array API standard's dtype= and device=) and the shifts (a roll) run on the
device too. Other attributes of numpy.fft go through the fallback.
"""
import warnings

import numpy as _np

from . import _core
from ._fallback import submodule_getattr

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "fft2", "ifft2",
           "rfftn", "irfftn", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_C2C, _R2C, _C2R = 0, 1, 2   # NgFftKind


def _ng():
    import numgpu
    return numgpu


def _asarray(a):
    ng = _ng()
    return a if isinstance(a, ng.ndarray) else ng.asarray(a)


_SWAP_DIRECTION_MAP = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


def _swap_direction(norm):
    try:
        return _SWAP_DIRECTION_MAP[norm]
    except KeyError:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".') from None


def _axis_len(a, axis):
    """a.shape[axis]; an axis out of range is an AxisError (NumPy's IndexError here is its base)."""
    try:
        return a.shape[axis]
    except IndexError:
        raise _np.exceptions.AxisError(axis, a.ndim) from None


def _real_dtype(dt):
    dt = _np.dtype(dt)
    return _np.result_type(_np.empty(0, dt).real.dtype, 1.0)


def _raw_fft(a, n, axis, kind, is_forward, norm, out, conj=False):
    """NumPy's _raw_fft: the checks in its order, its norm factor fct, then the device transform."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if not is_forward:
        norm = _swap_direction(norm)
    real_dtype = _real_dtype(a.dtype)
    if norm is None or norm == "backward":
        fct = 1.0
    elif norm == "ortho":
        fct = float(_np.reciprocal(_np.sqrt(n, dtype=real_dtype)))
    elif norm == "forward":
        fct = float(_np.reciprocal(n, dtype=real_dtype))
    else:
        raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                         '"ortho" or "forward".')
    if out is not None:
        n_out = n // 2 + 1 if kind == _R2C else n
        ax = axis + a.ndim if -a.ndim <= axis < 0 else axis
        shape = getattr(out, "shape", None)
        if shape is not None and 0 <= ax < a.ndim and (len(shape) != a.ndim or shape[ax] != n_out):
            raise ValueError("output array has wrong shape.")
    r = _core.fft(a, axis, n, kind, kind == _C2C and not is_forward, conj, fct)
    if kind == _R2C and n % 2 and r.size:
        # NumPy's real transform gives the zero frequency a zero imaginary part by construction
        # (odd lengths here sum it with rounding: 1e-15, printed as -0j); conj: -0.0, as conj(+0)
        r.imag[(slice(None),) * (axis % r.ndim) + (0,)] = -0.0 if conj else 0.0
    return _put(r, out)


def _put(r, out):
    """r written into out= (NumPy's same_kind casting), or r itself."""
    if out is None:
        return r
    if not _np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc output from dtype('{r.dtype}') to dtype('{out.dtype}') "
                        "with casting rule 'same_kind'")
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(f"output array has wrong shape: {tuple(out.shape)}, expected {tuple(r.shape)}")
    out[...] = r
    return out


def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional n-point discrete Fourier transform along axis."""
    a = _asarray(a)
    if n is None:
        n = _axis_len(a, axis)
    return _raw_fft(a, n, axis, _C2C, True, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform along axis."""
    a = _asarray(a)
    if n is None:
        n = _axis_len(a, axis)
    return _raw_fft(a, n, axis, _C2C, False, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """Discrete Fourier transform of real input: the n//2 + 1 non-negative frequency terms."""
    a = _asarray(a)
    if n is None:
        n = _axis_len(a, axis)
    return _raw_fft(a, n, axis, _R2C, True, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of rfft: n real points (default 2*(m - 1)) from m Hermitian ones."""
    a = _asarray(a)
    if n is None:
        n = (_axis_len(a, axis) - 1) * 2
    return _raw_fft(a, n, axis, _C2R, False, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Discrete Fourier transform of a Hermitian-symmetric signal (real spectrum): irfft of conj(a)."""
    a = _asarray(a)
    if n is None:
        n = (_axis_len(a, axis) - 1) * 2
    new_norm = _swap_direction(norm)
    return _raw_fft(a, n, axis, _C2R, False, new_norm, out, conj=True)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of hfft: conj(rfft(a)) with the norm direction swapped."""
    a = _asarray(a)
    if n is None:
        n = _axis_len(a, axis)
    new_norm = _swap_direction(norm)
    return _raw_fft(a, n, axis, _R2C, True, new_norm, out, conj=True)


def _cook_nd_args(a, s=None, axes=None, invreal=0):
    """NumPy's _cook_nd_args: the lengths and axes of an n-d transform (with its warnings)."""
    if s is None:
        shapeless = True
        if axes is None:
            s = list(a.shape)
        else:
            s = _np.take(a.shape, axes)
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            msg = ("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). "
                   "In a future version of NumPy, this will raise an error and `s[i]` will "
                   "correspond to the size along the transformed axis specified by `axes[i]`. "
                   "To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for "
                   "an array of dimension k.")
            warnings.warn(msg, DeprecationWarning, stacklevel=3)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        msg = ("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 "
               "and will raise an error in a future version of NumPy. To use the default "
               "behaviour of the corresponding 1-D transform, pass the value matching the "
               "default for its `n` parameter. To use the default behaviour for every axis, "
               "the `s` argument can be omitted.")
        warnings.warn(msg, DeprecationWarning, stacklevel=3)
    s = [a.shape[_a] if _s == -1 else _s for _s, _a in zip(s, axes)]
    return s, axes


def _raw_fftnd(a, s, axes, function, norm, out):
    a = _asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    for ii in reversed(range(len(axes))):
        a = function(a, n=s[ii], axis=axes[ii], norm=norm)
    return _put(a, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform (1-d transforms over axes, last first)."""
    return _raw_fftnd(a, s, axes, fft, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional inverse discrete Fourier transform."""
    return _raw_fftnd(a, s, axes, ifft, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional discrete Fourier transform."""
    return _raw_fftnd(a, s, axes, fft, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional inverse discrete Fourier transform."""
    return _raw_fftnd(a, s, axes, ifft, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional transform of real input: rfft over the last axis, then fft over the rest."""
    a = _asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    a = rfft(a, s[-1], axes[-1], norm)
    for ii in range(len(axes) - 2, -1, -1):
        a = fft(a, s[ii], axes[ii], norm)
    return _put(a, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional transform of real input."""
    return rfftn(a, s, axes, norm, out=out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of rfftn: ifft over all axes but the last, then irfft over it."""
    a = _asarray(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=1)
    for ii in range(len(axes) - 1):
        a = ifft(a, s[ii], axes[ii], norm)
    a = irfft(a, s[-1], axes[-1], norm)
    return _put(a, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of rfft2."""
    return irfftn(a, s, axes, norm, out=out)


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
    x = x if isinstance(x, ng.ndarray) else ng.asarray(x)
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
