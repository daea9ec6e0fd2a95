"""Differences from NumPy found by running real scripts under numgpu (2026-12-07 hunt): memory
shared with a buffer, libraries reading host memory, type hints, Python ints beyond 64 bits, and
element stores (values, errors). Each compares with NumPy on the same data."""
import math
import textwrap
import warnings
from typing import Any

import numpy as np
import pytest

import numgpu as ng
from helpers import same_under_numgpu_run

HOST = ng.asarray([0]).device == "cpu"


# ---- memory shared with a buffer: writes reach it, as NumPy's views ----

def test_frombuffer_shares_a_bytearray():
    buf = bytearray(16)
    h = ng.frombuffer(buf, dtype=np.int32)
    h[0] = 7
    h[1:3] = [1, 2]
    assert bytes(buf[:12]) == np.array([7, 1, 2], np.int32).tobytes()
    buf[12:16] = np.int32(9).tobytes()
    assert int(h[3]) == 9
    assert h.flags.writeable


def test_frombuffer_of_bytes_is_read_only():
    r = ng.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8)
    ref = np.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8)
    assert r.flags.writeable == ref.flags.writeable == False
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 9
    assert (r.get() if hasattr(r, "get") else r).tolist() == [1, 2, 3, 4]


@pytest.mark.parametrize("dtype,count,offset", [(np.float64, -1, 0), (np.int16, 3, 2), (np.uint8, 5, 1),
                                                (np.complex64, -1, 0)])
def test_frombuffer_values_and_arguments(dtype, count, offset):
    raw = bytearray(np.arange(32, dtype=np.uint8).tobytes())
    got, want = ng.frombuffer(raw, dtype, count, offset), np.frombuffer(raw, dtype, count, offset)
    g = got.get() if hasattr(got, "get") else got
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_array_equal(g, want)


def test_frombuffer_errors_are_numpys():
    for args in [(b"abc", np.int32), (b"abcd", np.int32, 2), (b"abcd", np.int8, -1, 9)]:
        with pytest.raises(ValueError) as want:
            np.frombuffer(*args)
        with pytest.raises(ValueError) as got:
            ng.frombuffer(*args)
        assert str(got.value) == str(want.value)


SHARED = """
import numpy as np
from multiprocessing import shared_memory
shm = shared_memory.SharedMemory(create=True, size=32)
try:
    a = np.ndarray((4,), dtype=np.int64, buffer=shm.buf)
    a[:] = [1, 2, 3, 4]
    b = np.ndarray((2,), dtype=np.int64, buffer=shm.buf, offset=16)
    b[0] += 10
    print(np.ndarray((4,), dtype=np.int64, buffer=shm.buf).tolist(), bytes(shm.buf[:8]).hex(), type(a).__name__)
    raw = bytearray(8)
    h = np.frombuffer(raw, dtype=np.int32)
    h[0] = 7
    print(bytes(raw[:4]).hex(), h.flags.writeable, np.frombuffer(b"ab", np.uint8).flags.writeable)
finally:
    del a, b
    shm.close()
    shm.unlink()
"""


def test_shared_memory_idiom_under_numgpu_run(tmp_path):
    script = tmp_path / "shared.py"
    script.write_text(SHARED)
    same_under_numgpu_run(script)


# ---- host memory for other libraries ----

def test_array_interface_on_host_memory():
    x = ng.arange(12, dtype=np.uint8).reshape(3, 4)
    if not HOST:
        assert not hasattr(x, "__array_interface__")
        return
    want = np.arange(12, dtype=np.uint8).reshape(3, 4)
    ai = x.__array_interface__
    assert ai["shape"] == (3, 4) and ai["typestr"] == want.__array_interface__["typestr"]
    back = np.asarray(_Interface(ai, x))
    np.testing.assert_array_equal(back, want)
    back[0, 0] = 99                  # the same memory
    assert int(x[0, 0]) == 99


class _Interface:
    """An object exposing only __array_interface__ (as Pillow reads it), keeping its owner alive."""

    def __init__(self, ai, owner):
        self.__array_interface__ = ai
        self.owner = owner


def test_pillow_fromarray():
    Image = pytest.importorskip("PIL.Image")
    x = ng.zeros((4, 6, 3), dtype=np.uint8)
    if not HOST:
        pytest.skip("Pillow reads __array_interface__ only: host memory (cpu)")
    x[1, 2] = [10, 20, 30]
    im = Image.fromarray(x)
    assert im.size == (6, 4) and im.mode == "RGB" and im.getpixel((2, 1)) == (10, 20, 30)


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_bytes_of_an_array(dtype):
    h = (np.arange(6) % 3).astype(dtype).reshape(2, 3)
    for view in (lambda a: a, lambda a: a.T, lambda a: a[:, ::2]):
        assert bytes(view(ng.asarray(h))) == bytes(view(h))


# ---- type hints ----

def test_ndarray_subscripted_in_type_hints():
    alias = ng.ndarray[Any, np.dtype[np.float64]]
    assert alias.__origin__ is ng.ndarray

    def f(x: ng.ndarray[Any, np.dtype[np.float64]]) -> ng.ndarray:
        return x * 2
    assert f(ng.ones(2)).get().tolist() == [2.0, 2.0]


def test_numpy_typing_under_numgpu_run(tmp_path):
    script = tmp_path / "hints.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import numpy.typing as npt
        from typing import Any
        def f(x: npt.NDArray[np.float64], y: npt.ArrayLike, z: np.ndarray[Any, np.dtype[np.int64]]) -> npt.NDArray[np.float64]:
            return x * 2
        print(f(np.ones(3), 1, np.zeros(2, int)).tolist(), f.__annotations__["x"])
    """))
    same_under_numgpu_run(script)


# ---- Python ints beyond 64 bits: floats with float arrays, NumPy's OverflowError otherwise ----

BIG = [
    lambda xp: xp.ones(2) + 2**70,
    lambda xp: 2**70 - xp.ones(2),
    lambda xp: xp.asarray([2.0, 5.0]) ** 25 / math.factorial(25),
    lambda xp: xp.ones(2, np.float32) * 2**100,
    lambda xp: xp.ones(2, np.float32) + 2**200,
    lambda xp: xp.ones(2, np.float16) + 2**70,
    lambda xp: xp.ones(2, complex) + 2**70,
    lambda xp: xp.maximum(xp.ones(2), 2**70),
    lambda xp: xp.ones(2) // 2**70,
    lambda xp: xp.ones(2) - (-2**70),
    lambda xp: xp.ones(2) / math.factorial(171),
    lambda xp: xp.ones(2, int) + 2**70,
    lambda xp: xp.ones(2, bool) + 2**70,
    lambda xp: xp.ones(2, np.uint8) * 2**70,
    lambda xp: xp.ones(2, np.int8) + 2**63,
    lambda xp: xp.ones(2, np.uint32) + 2**63,
    lambda xp: xp.full(2, 2**63, np.uint16),
]


def _outcome(f, xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = f(xp)
        except Exception as e:        # noqa: BLE001 (the class and message are compared)
            return type(e), str(e)
    r = r.get() if hasattr(r, "get") else r
    return r.dtype, r.tolist()


@pytest.mark.parametrize("i", range(len(BIG)))
def test_python_ints_beyond_64_bits(i):
    assert _outcome(BIG[i], ng) == _outcome(BIG[i], np)


# ---- element stores: NumPy's values and errors, every dtype ----

STORED = [True, False, 0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**32, 2**53, 2**53 + 1, 2**63 - 1, 2**63,
          -2**63, -2**63 - 1, 2**64, 2**70, 1.5, -0.0, float("inf"), 1e300, 3.4e38, 3.5e38, 1e-320, 0.1,
          np.float32(1.25), np.float64(2.5), np.float16(0.1), np.int8(-5), np.uint64(2**64 - 1),
          np.int64(-2**63), np.bool_(True), np.uint8(200), np.int32(7), np.int16(5)]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def _store(a, key, v):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            a[key] = v
        except Exception as e:        # noqa: BLE001
            return type(e), str(e)
    return None


@pytest.mark.parametrize("dtype", DTYPES)
def test_element_stores_match_numpy(dtype):
    for v in STORED:
        for key in [(1, 2), (-1, 0), (slice(None), 1)]:
            want, got = np.zeros((2, 3), dtype), ng.zeros((2, 3), dtype)
            e_want, e_got = _store(want, key, v), _store(got, key, v)
            assert e_got == e_want, (dtype, v, key)
            g = got.get()
            assert g.tobytes() == want.tobytes() or np.array_equal(g, want, equal_nan=True), (dtype, v, key, g, want)


def test_element_stores_then_reads_in_a_python_loop():
    def smooth(a, b):
        for i in range(1, len(a)):
            a[i] = a[i - 1] * 0.9 + b[i]
            a[i] += np.float64(0.5)
        return a
    want = smooth(np.zeros(200), np.arange(200.0))
    got = smooth(ng.zeros(200), ng.arange(200.0))
    assert got.get().tolist() == want.tolist()


# ---- operators with objects numgpu has no arrays of: NumPy's ufunc, or NumPy's deferral ----

class _Dual:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __rmul__(self, o):
        return _Dual(self.a * o, self.b * o)

    def __eq__(self, o):
        return isinstance(o, _Dual) and (self.a, self.b) == (o.a, o.b)


class _Overrides:
    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        return "overridden %s" % ufunc.__name__


class _Defers:
    __array_ufunc__ = None

    def __radd__(self, o):
        return "deferred"


class _Priority:
    __array_priority__ = 10.1

    def __radd__(self, o):
        return "by priority"


@pytest.mark.parametrize("name,f", [
    ("fraction", lambda x: x * __import__("fractions").Fraction(1, 3)),
    ("fraction reflected", lambda x: __import__("fractions").Fraction(1, 3) + x),
    ("decimal", lambda x: __import__("decimal").Decimal(2) - x.astype(int)),
    ("object's __rmul__", lambda x: x * _Dual(2, 1)),
    ("__array_ufunc__", lambda x: x + _Overrides()),
    ("__array_ufunc__ = None", lambda x: x + _Defers()),
    ("__array_priority__", lambda x: x + _Priority()),
    ("None", lambda x: x + None),
    ("str", lambda x: x * "a"),
])
def test_operators_with_foreign_objects(name, f):
    def outcome(x):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                r = f(x)
            except TypeError as e:
                return TypeError, str(e)
        r = r.get() if hasattr(r, "get") else r
        return (r.dtype, r.tolist()) if isinstance(r, np.ndarray) else r
    assert outcome(ng.asarray([1.0, 2.0])) == outcome(np.array([1.0, 2.0]))


# ---- Fortran order kept across the host boundary, as NumPy's copies (order='K') keep it ----

def test_get_keeps_fortran_order():
    h = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    for x in (ng.asarray(h, order="F"), ng.arange(12.0).reshape(4, 3).T):
        g = x.get()
        want = np.asarray(x.get())
        assert g.flags.f_contiguous and not g.flags.c_contiguous
        np.testing.assert_array_equal(g, want)
    c = ng.arange(12.0).reshape(3, 4).get()
    assert c.flags.c_contiguous


def test_save_and_load_of_fortran_arrays_under_numgpu_run(tmp_path):
    script = tmp_path / "fsave.py"
    script.write_text(textwrap.dedent("""
        import io
        import numpy as np
        a = np.asfortranarray(np.arange(6.0).reshape(2, 3))
        f = io.BytesIO(); np.save(f, a); f.seek(0); b = np.load(f)
        print(b.flags['F_CONTIGUOUS'], b.flags['C_CONTIGUOUS'], np.array_equal(a, b), f.getvalue()[10:60])
        print((b * 2).tolist(), b.T.flags['C_CONTIGUOUS'])
    """))
    same_under_numgpu_run(script)


# ---- NumPy's exceptions and messages ----

@pytest.mark.parametrize("f", [
    lambda xp: xp.ones(2) < "a",
    lambda xp: xp.ones(2) >= b"a",
    lambda xp: xp.ones(2) < None,
    lambda xp: xp.ones((2, 3)).dot(xp.ones((2, 3))),
    lambda xp: xp.dot(xp.ones(3), xp.ones(4)),
    lambda xp: xp.dot(xp.ones((2, 3, 4)), xp.ones((3, 5))),
    lambda xp: xp.swapaxes(xp.ones((2, 2)), 0, 2),
    lambda xp: xp.ones((2, 2)).swapaxes(-3, 1),
])
def test_errors_are_numpys(f):
    def err(xp):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                f(xp)
            except Exception as e:      # noqa: BLE001
                return type(e), str(e)
        return None
    assert err(ng) == err(np) != None
