"""numgpu.fft against numpy.fft: fftfreq/rfftfreq (the standard's dtype= and device=) and
fftshift/ifftshift on the device; the transforms through the NumPy fallback (complex results
stay NumPy arrays: numgpu has no complex dtype yet)."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, assert_same, call_both, data, dtype_id


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 100, 1001])
@pytest.mark.parametrize("d", [1.0, 0.25, 3, 1e-3])
def test_fftfreq_rfftfreq(n, d):
    assert_same(ng.fft.fftfreq(n, d), np.fft.fftfreq(n, d))
    assert_same(ng.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d))
    assert_same(ng.fft.fftfreq(n, d=d), np.fft.fftfreq(n, d=d))
    assert_same(ng.fft.rfftfreq(np.int32(n), d), np.fft.rfftfreq(np.int32(n), d))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_freq_dtype_and_device(dtype):
    for f, nf in ((ng.fft.fftfreq, np.fft.fftfreq), (ng.fft.rfftfreq, np.fft.rfftfreq)):
        r = f(9, 0.5, dtype=dtype)
        assert_same(r, nf(9, 0.5).astype(dtype))
        dev = ng.get_device()
        r = f(6, device=dev)
        assert r.device == dev
        assert_same(r, nf(6))
        assert_same(f(0 + 5, dtype=None), nf(5))


def test_freq_errors():
    for f, nf in ((ng.fft.fftfreq, np.fft.fftfreq), (ng.fft.rfftfreq, np.fft.rfftfreq)):
        for bad in (2.5, "3", None):
            call_both(nf, f, [bad])
        with pytest.raises(ZeroDivisionError):
            nf(0)
        with pytest.raises(ZeroDivisionError):
            f(0)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (8,), (3, 4), (5, 0), (3, 5, 6)], ids=str)
def test_fftshift_ifftshift(dt, shape):
    x = data(dt, shape)
    views = [x] + ([x[..., ::-1]] if x.ndim else [])
    axes_list = [None] + list(range(-x.ndim, x.ndim)) + ([(0, -1)] if x.ndim > 1 else [])
    for v in views:
        for axes in axes_list:
            assert_same(ng.fft.fftshift(ng.asarray(v), axes), np.fft.fftshift(v, axes))
            assert_same(ng.fft.ifftshift(ng.asarray(v), axes=axes), np.fft.ifftshift(v, axes=axes))
    assert_same(ng.fft.fftshift(x.tolist()), np.fft.fftshift(x.tolist()))


def test_fftshift_on_device():
    g = ng.asarray(data(np.float64, (40, 30)))
    before = ng.stats()["download_bytes"]
    assert isinstance(ng.fft.fftshift(g), ng.ndarray)
    assert isinstance(ng.fft.ifftshift(g, axes=1), ng.ndarray)
    assert isinstance(ng.fft.fftfreq(64), ng.ndarray)
    assert ng.stats()["download_bytes"] == before


def test_transforms_through_the_fallback():
    x = data(np.float64, (4, 8))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ng.fft.fft(ng.asarray(x))
        assert isinstance(r, np.ndarray) and r.dtype == np.complex128  # complex: stays NumPy's
        np.testing.assert_allclose(r, np.fft.fft(x))
        np.testing.assert_allclose(ng.fft.fftshift(r, axes=1), np.fft.fftshift(np.fft.fft(x), axes=1))
        back = ng.fft.irfft(ng.fft.rfft(ng.asarray(x)), n=8)
        assert_same(back, np.fft.irfft(np.fft.rfft(x), n=8))
    with pytest.raises(AttributeError):
        ng.fft.no_such_function
    assert "fft" in dir(np.fft) and ng.fft.__name__ == "numgpu.fft"
