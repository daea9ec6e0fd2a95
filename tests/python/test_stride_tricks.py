"""numgpu.lib.stride_tricks: as_strided and sliding_window_view as views of the device memory,
against NumPy's (shapes, strides, values, writes showing through, errors)."""
import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from numgpu.lib.stride_tricks import as_strided, sliding_window_view
from helpers import case_id, data


WINDOWS = [((2, 3), None), ((3, 1, 2), None), (3, 1), (2, -1), (4, 0), ((2, 2), (1, 1)), ((2, 3), (0, 2)),
           (1, 2), (0, 1)]


@pytest.mark.parametrize("window,axis", WINDOWS, ids=case_id)
@pytest.mark.parametrize("dt", [np.float64, np.int32, np.uint8, np.complex64], ids=case_id)
def test_sliding_window_view_is_numpys(window, axis, dt):
    x = data(dt, (4, 5, 6), seed=3)
    for view in (lambda a: a, lambda a: a[:, ::-1, 1::2], lambda a: a.transpose(2, 0, 1)):
        v, g = view(x), view(ng.asarray(x))
        if isinstance(window, tuple) and axis is None and len(window) != v.ndim:
            continue
        want = np.lib.stride_tricks.sliding_window_view(v, window, axis)
        got = sliding_window_view(g, window, axis)
        assert isinstance(got, ng.ndarray) and got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.get(), want)


def test_sliding_windows_follow_writes_and_reduce_on_the_device():
    x = np.cumsum(data(np.float64, (1000,), seed=1))
    g = ng.asarray(x)
    w = sliding_window_view(g, 50)
    g[0] = 1e6                                   # a view: the first window sees it
    x[0] = 1e6
    want = np.lib.stride_tricks.sliding_window_view(x, 50)
    np.testing.assert_allclose(w.mean(axis=-1).get(), want.mean(axis=-1), rtol=1e-12)
    np.testing.assert_array_equal(w.max(axis=-1).get(), want.max(axis=-1))
    # NumPy's own function given a numgpu array (__array_function__): numgpu's view
    r = np.lib.stride_tricks.sliding_window_view(g, 3)
    assert isinstance(r, ng.ndarray) and r.shape == (998, 3)


def test_as_strided_views_write_through():
    s = ng.arange(6)
    v = as_strided(s, (3,), (16,))
    v[1] = 99
    np.testing.assert_array_equal(s.get(), [0, 1, 99, 3, 4, 5])
    n = np.arange(6)
    for shape, strides in [((3, 2), (8, 0)), ((2, 3), (24, 8)), ((3, 3), (8, 8)), ((0, 5), (8, 8)), ((), ())]:
        want = np.lib.stride_tricks.as_strided(n, shape, strides)
        got = as_strided(ng.asarray(n), shape, strides)
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.get(), want)
    r = ng.asarray(n)[::-1]                       # from the first element, negative strides
    np.testing.assert_array_equal(as_strided(r, (3,), (-16,)).get(), [5, 3, 1])
    np.testing.assert_array_equal(as_strided(ng.asarray(n)).get(), n)   # x's own shape and strides


def test_stride_tricks_errors():
    g = ng.asarray(np.arange(12.0))
    with pytest.raises(ValueError, match="outside"):    # NumPy would read past the memory
        as_strided(g, (10**6,), (8,))
    with pytest.raises(ValueError, match="outside"):
        as_strided(g[2:], (3,), (-16,))
    with pytest.raises(ValueError, match="mismatch"):
        as_strided(g, (2, 2), (8,))
    for window, axis in [(13, None), (-1, None), ((2, 2), None), ((2,), (0, 0))]:
        with pytest.raises(ValueError) as want:
            np.lib.stride_tricks.sliding_window_view(np.arange(12.0), window, axis)
        with pytest.raises(ValueError) as got:
            sliding_window_view(g, window, axis)
        assert str(got.value) == str(want.value)
    # strides that split elements: NumPy's (the fallback), of a copy
    with pytest.warns(_fallback.FallbackWarning):
        odd = ng.lib.stride_tricks.as_strided(ng.asarray(np.arange(4, dtype=np.int16)), (2,), (3,))
    assert odd.shape == (2,)


def test_numpy_arrays_get_numpys_functions():
    n = np.arange(6.0)
    v = as_strided(n, (3,), (16,))
    assert type(v) is np.ndarray and np.shares_memory(v, n)
    w = sliding_window_view(n, 2)
    assert type(w) is np.ndarray and not w.flags.writeable
