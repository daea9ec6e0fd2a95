"""`x.dtype = d` as NumPy's: x itself viewed as d in place (hunt 14 F11: an AttributeError, "not
writable", and the lesson's next cells ran on the wrong array), NumPy's errors where its view
would refuse, views of a base writing into it."""
import numpy as np
import pytest

import numgpu as ng
from helpers import assert_same


def assigned(mod, x, dt):
    try:
        x.dtype = dt
    except Exception as e:  # noqa: BLE001 (compared with NumPy's)
        return type(e), str(e)
    return x


@pytest.mark.parametrize("src, dt", [
    (np.array([1, 2, 3, 4], np.uint8), "<i2"),
    (np.arange(6.0).reshape(2, 3), np.int64),
    (np.arange(12, dtype=np.int32).reshape(3, 4), np.float32),
    (np.arange(8, dtype=np.int16).reshape(2, 4), np.int64),
    (np.arange(6, dtype=np.int64), np.uint8),
    (np.arange(6, dtype=np.int8)[::2], np.int16),          # NumPy's ValueError: last axis not contiguous
    (np.arange(3, dtype=np.int8), np.int16),               # NumPy's ValueError: size not a divisor
    (np.arange(4.0), np.complex128),
])
def test_assigning_a_dtype_views_in_place(src, dt):
    want = assigned(np, src.copy() if src.base is None else src.base.copy()[::2], dt)
    got = assigned(ng, ng.asarray(src) if src.base is None else ng.asarray(src.base)[::2], dt)
    if isinstance(want, tuple):
        assert got == want
    else:
        assert_same(got, want)


def test_a_view_assigned_a_dtype_writes_into_its_base():
    z, h = ng.zeros(4, np.int32), np.zeros(4, np.int32)
    for x in (z, h):
        v = x[1:3]
        v.dtype = np.float32
        v[0] = 1.5
    np.testing.assert_array_equal(ng.asnumpy(z), h)


def test_deleting_the_dtype_is_numpys_error():
    with pytest.raises(AttributeError, match="Cannot delete array dtype"):
        del ng.zeros(3).dtype
