"""numgpu.fft against numpy.fft: every transform (fft, ifft, rfft, irfft, hfft, ihfft and the
2-d / n-d forms) on the device, over lengths that take every pass radix and Bluestein, every
axis, norm, n crop/pad and input dtype; fftfreq/rfftfreq (the standard's dtype= and device=)
and fftshift/ifftshift.

Values are compared relative to the largest |value| of NumPy's result (an FFT's rounding error
is spread over all outputs, so small outputs carry the big ones' absolute error): 1e-12 in
double precision, 1e-5 in single (pocketfft and numgpu round differently; both are ~1e-7), and
float16 outputs (irfft/hfft of float16 input, computed in float32 by both) one half ulp of the
largest value, as the final rounding to float16 may go either way."""
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import ALL, COMPLEX, assert_same, call_both, data, dtype_id

LENGTHS = [1, 2, 3, 5, 7, 8, 16, 17, 30, 64, 97, 128, 1000]
NORMS = [None, "backward", "ortho", "forward"]
TRANSFORMS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
ND = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2"]
RTOL = {np.dtype(np.complex128): 1e-12, np.dtype(np.float64): 1e-12,
        np.dtype(np.complex64): 1e-5, np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-3}


def check(got, exp):
    """got (a numgpu array) equals NumPy's exp: type, shape, dtype, values relative to max |exp|."""
    assert isinstance(got, ng.ndarray), type(got)
    g = got.get()
    assert g.shape == exp.shape, (g.shape, exp.shape)
    assert g.dtype == exp.dtype, (g.dtype, exp.dtype)
    if exp.size == 0:
        return
    scale = float(np.max(np.abs(exp.astype(np.complex128))))
    err = float(np.max(np.abs(g.astype(np.complex128) - exp.astype(np.complex128))))
    assert err <= RTOL[exp.dtype] * max(scale, 1e-300), "max error %g of max |value| %g" % (err, scale)


def both(name, x, *args, **kwargs):
    """numpy.fft.<name> on x and numgpu.fft.<name> on its device copy, compared."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        exp = getattr(np.fft, name)(x, *args, **kwargs)
        got = getattr(ng.fft, name)(ng.asarray(x), *args, **kwargs)
    check(got, exp)
    return got


def signal(dt, shape, seed=0):
    """Reproducible test input; complex parts ~N(0, 10) (data()'s recipe)."""
    return data(dt, shape, seed)


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


@pytest.mark.parametrize("dt", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("n", LENGTHS)
def test_fft_ifft_lengths(dt, n):
    x = signal(dt, (n,), seed=n)
    for norm in NORMS:
        both("fft", x, norm=norm)
        both("ifft", x, norm=norm)
    back = ng.fft.ifft(ng.fft.fft(ng.asarray(x)))
    check(back, x.astype(dt))  # the round trip


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("n", LENGTHS)
def test_real_transforms_lengths(dt, n):
    x = signal(dt, (n,), seed=n)
    for norm in NORMS:
        both("rfft", x, norm=norm)
        both("ihfft", x, norm=norm)
        spec = np.fft.rfft(x)
        for m in {None, n} if n > 1 else {n}:  # n=1 -> default irfft length 2*(1-1) = 0 is an error
            both("irfft", spec, m, norm=norm)
            both("hfft", spec, m, norm=norm)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_every_input_dtype(dt):
    x = signal(dt, (3, 12), seed=3)
    for name in TRANSFORMS:
        for n in (None, 7):
            if name in ("rfft", "ihfft") and np.dtype(dt).kind == "c":
                call_both(getattr(np.fft, name), getattr(ng.fft, name), [x], kwargs={"n": n})
            else:
                both(name, x, n)
    both("fft2", x)
    both("irfftn", x, axes=(0,))


@pytest.mark.parametrize("dt", [np.complex128, np.complex64, np.float64], ids=dtype_id)
@pytest.mark.parametrize("shape", [(5, 8), (4, 3, 7), (2, 17, 3), (30, 1, 2)], ids=str)
def test_axes_and_n(dt, shape):
    x = signal(dt, shape, seed=len(shape))
    for axis in range(-len(shape), len(shape)):
        L = shape[axis]
        for n in (None, 1, max(1, L - 2), L + 3, 2 * L + 1):
            for name in TRANSFORMS:
                if name in ("rfft", "ihfft") and np.dtype(dt).kind == "c":
                    continue
                if n is None and name in ("irfft", "hfft") and L == 1:
                    continue  # 2*(1-1) = 0 points: the error case (test_errors)
                both(name, x, n, axis, "ortho" if axis % 2 else None)


def test_strided_and_transposed_inputs():
    x = signal(np.complex128, (6, 20, 5), seed=9)
    g = ng.asarray(x)
    for view, nview in ((g[:, ::3, :], x[:, ::3, :]), (g.T, x.T), (g[::-1, 2:, 1], x[::-1, 2:, 1])):
        for axis in range(view.ndim):
            check(ng.fft.fft(view, axis=axis), np.fft.fft(nview, axis=axis))
            check(ng.fft.irfft(view, axis=axis, n=9), np.fft.irfft(nview, axis=axis, n=9))
        check(ng.fft.rfft(view.real, axis=0), np.fft.rfft(nview.real, axis=0))
    assert_same(g, x)  # the input is never written


@pytest.mark.parametrize("n", [2048, 4096 * 3, 5 ** 5, 7 * 11 * 13, 1009, 2 ** 14 + 1])
def test_long_lengths(n):
    for dt in (np.complex128, np.complex64):
        x = signal(dt, (n,), seed=n)
        both("fft", x)
        both("ifft", x, norm="ortho")
    both("rfft", signal(np.float64, (3, n), seed=1), axis=1)
    both("fft", signal(np.complex128, (n, 3), seed=2), axis=0)


@pytest.mark.parametrize("shape,axis", [((100, 1000), -1), ((64, 1155), 1), ((32, 2184), -1), ((1000, 70), 0),
                                        ((40, 1009), 1), ((5, 16384), 1), ((3, 20000), -1), ((3, 512, 40), 1),
                                        ((256, 256), 0), ((259, 256), 1), ((6, 4096, 3), -2), ((4, 8192), 0),
                                        ((130, 143), 1)], ids=str)
def test_batched_rows(shape, axis):
    """Batches big enough for the cpu's one-kernel-per-length plan (every radix, columns, Bluestein;
    blocks of columns or rows through scratch arrays, a last block short)."""
    for dt in (np.complex128, np.complex64):
        x = signal(dt, shape, seed=shape[0])
        both("fft", x, axis=axis)
        both("ifft", x, axis=axis, norm="forward")
    r = signal(np.float64, shape, seed=7)
    both("rfft", r, axis=axis)
    both("irfft", r, axis=axis)


@pytest.mark.parametrize("shape", [(64, 512), (67, 1000), (9, 4096), (16, 2048), (2, 16384), (4096, 8), (8192, 4),
                                   (130, 250)], ids=str)
def test_real_rows_split_and_pack(shape):
    """Rows of real transforms whose split (rfft, ihfft) or pack (irfft, hfft) runs in the kernel
    of the half-length passes on cpu (blocks of rows, a last block short, or a row per thread;
    one pass to six), with every norm and both precisions; irfft of a longer spectrum (cropped),
    a shorter one (zero-padded) and of float16 (output float16), rfft zero-padded and of integers
    too."""
    rows, n = shape
    for dt in (np.float64, np.float32):
        x = signal(dt, shape, seed=n)
        spec = np.fft.rfft(x).astype(np.complex128 if dt == np.float64 else np.complex64)
        for norm in NORMS:
            both("rfft", x, norm=norm)
            both("ihfft", x, norm=norm)
            both("irfft", spec, n, norm=norm)
            both("hfft", spec, n, norm=norm)
        both("irfft", np.concatenate([spec, spec[:, :5]], axis=1), n)
        both("irfft", spec[:, : n // 2 - 1], n)
        both("hfft", spec[:, : n // 2 - 1], n, norm="ortho")
    both("irfft", signal(np.float16, (rows, n // 2 + 1), seed=1), n)
    x = signal(np.float64, shape, seed=2)
    both("rfft", x, n + 8, norm="ortho")  # zero-padded, and an integer input: packed first
    both("rfft", (x * 100).astype(np.int32))


@pytest.mark.parametrize("name", ND)
def test_nd_transforms(name):
    x = signal(np.complex128, (6, 8, 5), seed=4)
    if name.startswith("rfft"):
        x = x.real.copy()
    two = name.endswith("2")
    for kw in [{}, {"axes": (0, 2)}, {"axes": (-1, 0)}, {"s": (4, 9), "axes": (1, 0)},
               {"s": (3, 5), "axes": (0, 1)}, {"norm": "ortho"}, {"norm": "forward", "axes": (2, 1)},
               {"s": (7, -1), "axes": (0, 2)}] + ([] if two else [{"axes": (1,)}, {"s": (2, 3, 4), "axes": (0, 1, 2)}]):
        both(name, x, **kw)
    x32 = x.astype(np.float32 if x.dtype.kind == "f" else np.complex64)
    both(name, x32)
    if not two:
        with warnings.catch_warnings():  # s without axes: NumPy 2's DeprecationWarning, same result
            warnings.simplefilter("error", DeprecationWarning)
            with pytest.raises(DeprecationWarning):
                getattr(ng.fft, name)(ng.asarray(x), s=(4, 4))
    both(name, x, s=(4, 4))


def test_errors():
    g = ng.asarray(signal(np.complex128, (4, 5)))
    for name in TRANSFORMS:
        f = getattr(ng.fft, name)
        x = g.real if name in ("rfft", "ihfft") else g
        for n in (0, -3):
            with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(%d\) specified\." % n):
                f(x, n=n)
        with pytest.raises(ValueError, match="Invalid norm value bad; should be"):
            f(x, norm="bad")
        for axis in (2, -3):
            with pytest.raises(np.exceptions.AxisError):
                f(x, axis=axis)
            with pytest.raises(np.exceptions.AxisError):
                f(x, n=4, axis=axis)
        with pytest.raises(TypeError):
            f(x, n=2.5)
    with pytest.raises(ValueError, match="Invalid number of FFT data points \\(0\\) specified"):
        ng.fft.irfft(g[:, :1])  # default n = 2*(1-1)
    with pytest.raises(np.exceptions.AxisError):
        ng.fft.fft(ng.asarray(np.float64(3.0)), n=2)
    with pytest.raises(TypeError, match="rfft_n_even"):
        ng.fft.rfft(g, n=4)
    with pytest.raises(TypeError, match="rfft_n_odd"):
        ng.fft.ihfft(g, n=3)
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        ng.fft.fftn(g, s=(2, 3), axes=(0,))
    for name in ND:  # NumPy raises the same types
        x = signal(np.float64, (4, 5))
        call_both(getattr(np.fft, name), getattr(ng.fft, name), [x], kwargs={"axes": (0, 5)})
        call_both(getattr(np.fft, name), getattr(ng.fft, name), [x], kwargs={"s": (0, 2), "axes": (0, 1)})


def test_empty_and_zero_length():
    for shape, axis, n in (((0, 4), -1, None), ((3, 0), 0, None), ((2, 0), 0, 3)):
        x = np.zeros(shape)
        for name in ("fft", "rfft", "irfft", "ihfft"):
            both(name, x, n, axis)
    # zero points padded to n: NumPy 2.4 returns uninitialised memory here (its copy loop
    # skips the padding of an empty axis), so the oracle is NumPy on the padded zeros
    for shape, n in (((3, 0), 4), ((0,), 5)):
        g = ng.asarray(np.zeros(shape))
        check(ng.fft.fft(ng.asarray(np.zeros(shape[::-1])), n, axis=0),
              np.fft.fft(np.zeros((n,) + shape[-2::-1]), axis=0))
        padded = np.zeros(shape[:-1] + (n,))
        check(ng.fft.fft(g, n), np.fft.fft(padded))
        check(ng.fft.rfft(g, n), np.fft.rfft(padded))
        check(ng.fft.irfft(g, n), np.fft.irfft(np.zeros(shape[:-1] + (n // 2 + 1,)), n))


def test_out():
    x = signal(np.complex128, (3, 8))
    out = ng.empty((3, 8), dtype=np.complex128)
    r = ng.fft.fft(ng.asarray(x), out=out)
    assert r is out
    check(out, np.fft.fft(x))
    out2 = ng.empty((3, 8), dtype=np.complex128)
    assert ng.fft.fftn(ng.asarray(x), out=out2) is out2
    check(out2, np.fft.fftn(x))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        ng.fft.fft(ng.asarray(x), out=ng.empty((3, 7), dtype=np.complex128))
    with pytest.raises(TypeError):
        ng.fft.fft(ng.asarray(x), out=ng.empty((3, 8), dtype=np.float64))


def test_stays_on_device_and_plans_are_cached():
    g = ng.asarray(signal(np.complex128, (16, 97), seed=5))
    ng.fft.fft(g)  # builds the plans of 97 (Bluestein) and 256 and compiles the kernels
    before = ng.stats()
    r = ng.fft.fft(g)
    r2 = ng.fft.irfft(ng.fft.rfft(g.real, axis=0), n=16, axis=0)
    after = ng.stats()
    assert isinstance(r, ng.ndarray) and r.dtype == np.complex128 and r.device == g.device
    assert isinstance(r2, ng.ndarray) and r2.dtype == np.float64
    assert after["download_bytes"] == before["download_bytes"]
    assert after["implicit_downloads"] == before["implicit_downloads"]
    r = ng.fft.fft(g)
    again = ng.stats()
    assert again["uploads"] == after["uploads"]  # no plan rebuilt: no twiddle or chirp uploads
    assert again["kernels_compiled"] == after["kernels_compiled"]
    with pytest.raises(AttributeError):
        ng.fft.no_such_function
    assert ng.fft.__name__ == "numgpu.fft"
    assert set(np.fft.__all__) <= set(ng.fft.__all__)


def test_numpy_functions_dispatch_to_the_device():
    g = ng.asarray(signal(np.complex64, (4, 30)))
    r = np.fft.fft(g, axis=0)
    assert isinstance(r, ng.ndarray)
    check(r, np.fft.fft(g.get(), axis=0))
    check(np.fft.fftshift(np.fft.fft2(g)), np.fft.fftshift(np.fft.fft2(g.get())))


@pytest.mark.parametrize("n", [5, 37, 101, 64])
@pytest.mark.parametrize("name", ["rfft", "ihfft"])
def test_real_transforms_zero_frequency_imaginary_part_is_zero(n, name):
    # NumPy's real transforms give the zero frequency an imaginary part of exactly 0 (-0.0 for
    # ihfft's conj); numgpu's odd lengths summed it with rounding (1e-15: printed -0j)
    for shape, axis in (((3, n), -1), ((n, 3), 0)):
        x = np.random.default_rng(n).standard_normal(shape)
        e = getattr(np.fft, name)(x, axis=axis)
        g = getattr(ng.fft, name)(ng.asarray(x), axis=axis).get()
        dc_e, dc_g = np.take(e, 0, axis=axis).imag, np.take(g, 0, axis=axis).imag
        assert np.all(dc_g == 0) and np.array_equal(np.signbit(dc_g), np.signbit(dc_e))
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)
