"""The values a compiled loop hands back to Python and the ones it starts
from: a scalar the loop assigns comes back as Python's own loop leaves it (a
NumPy scalar of the array's dtype, or a Python int/float/bool/complex), for
every dtype, whatever it was bound to before the loop; an array is taken by
its buffer's dtype (a byte-swapped one as a copy in the host's order,
written back in its own). Every case
is compared with plain Python, value and type, over several calls (the
second and later calls reuse what the first one found)."""
import numpy as np
import pytest

import numgpu
from numgpu import _core, jit

ORDERED = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64"]


def largest(x):
    best = x[0]
    for i in range(1, x.shape[0]):
        if x[i] > best:
            best = x[i]
    return best


def total(x):
    s = x[0]
    for i in range(1, x.shape[0]):
        s += x[i]
    return s


def count_above(x, t):
    c = 0
    for i in range(x.shape[0]):
        if x[i] > t:
            c += 1
    return c


def any_above(x, t):
    found = False
    for i in range(x.shape[0]):
        if x[i] > t:
            found = True
    return found


def float_sum_from(x, start):
    s = start
    for i in range(x.shape[0]):
        s = s + 0.5 * i
    return s


def complex_walk(n, start):
    z = start
    for i in range(n):
        z = z + 1j
    return z


def int_into_float(x):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def same(got, want):
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, (float, complex, np.inexact)):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        assert got == want


def data(dtype, n=50):
    rng = np.random.default_rng(7)
    if dtype == "bool":
        return rng.random(n) > 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 9, n).astype(dtype)
    return (rng.random(n) * 4).astype(dtype)


@pytest.mark.parametrize("dtype", ORDERED)
def test_a_numpy_scalar_comes_back_of_its_dtype(dtype):
    f = jit(largest)
    for n in (50, 7, 50):
        x = data(dtype, n)
        same(f(x), largest(x))


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint32", "float32", "float64", "complex64", "complex128"])
def test_a_sum_from_an_element_keeps_the_dtype(dtype):
    f = jit(total)
    x = data(dtype) if "complex" not in dtype else (data("float64") + 1j * data("float64")[::-1]).astype(dtype)
    for _ in range(3):
        same(f(x), total(x))


def test_python_numbers_come_back_as_python_numbers():
    x = data("float64")
    c, a = jit(count_above), jit(any_above)
    for t in (1.0, 2.5, 10.0):
        same(c(x, t), count_above(x, t))
        same(a(x, t), any_above(x, t))


@pytest.mark.parametrize("start", [0, 7, -3, 2.5, -0.0, 1e300, True])
def test_a_loop_starts_from_the_value_bound_before_it(start):
    x = data("float64", 9)
    f = jit(float_sum_from)
    for _ in range(2):
        same(f(x, start), float_sum_from(x, start))


def test_a_complex_loop_starts_from_a_python_complex():
    f = jit(complex_walk)
    for start in (0j, 1.5 - 2j, complex(-0.0, 3.0)):
        same(f(12, start), complex_walk(12, start))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_an_int_start_takes_the_arrays_dtype(dtype):
    f = jit(int_into_float)
    x = data(dtype)
    for _ in range(2):
        same(f(x), int_into_float(x))


def test_a_byte_swapped_array_is_read_in_the_hosts_order():
    x = data("float64").astype(">f8")
    f = jit(largest)
    same(f(x), largest(x))
    assert f.loop_report()[0]["ran"] == "kernel"  # (a copy in the host's order)


def test_dtype_objects_are_read_the_same_every_time():
    # numgpu remembers NumPy's dtype objects it has met: the same answers each time
    for _ in range(3):
        for name in ORDERED + ["complex64", "complex128"]:
            a = numgpu.zeros(3, dtype=np.dtype(name))
            assert a.dtype == np.dtype(name)
        with pytest.raises(TypeError, match="does not support dtype"):
            numgpu._core.full(3, 0, np.dtype("datetime64[s]"), None)
        assert numgpu.asarray(np.arange(3, dtype=">i4")).dtype == np.dtype("int32")


def test_many_calls_hand_back_the_same_values():
    f = jit(largest)
    x = data("float32", 16)
    want = largest(x)
    for _ in range(200):
        same(f(x), want)
    assert _core is not None


def scale_into(x, a):
    for i in range(x.shape[0]):
        x[i] = x[i] * a
    return x


def test_a_byte_swapped_array_a_loop_writes_keeps_its_byte_order():
    f = jit(scale_into)
    for dtype in (">f8", ">i4", "<f8"):
        x = np.arange(7).astype(dtype)
        want = scale_into(x.copy(), 3)
        got = f(x, 3)
        assert got is x and x.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(x, want)


def test_under_the_float32_policy_a_written_float64_argument_comes_back_float64():
    f = jit(scale_into)
    prev = numgpu.config(precision="float32")
    try:
        x = np.linspace(0.0, 1.0, 9)
        want = scale_into(x.copy(), 0.5)
        f(x, 0.5)
    finally:
        numgpu.config(**prev)
    assert x.dtype == np.float64
    np.testing.assert_allclose(x, want, rtol=1e-6)  # (computed in float32)


def set_corner(X, n):
    for i in range(n):
        X[i, 0] = 1.0
    return X


def shape_in_a_branch(x, flag):
    s = 0
    for i in range(x.shape[0]):
        if flag and i == 3:
            s += x.shape[2]
        s += 1
    return s


def big_literal(x):
    s = 0
    for i in range(x.shape[0]):
        s = s + 1180591620717411303424
    return s


def test_an_index_the_array_has_not_raises_only_where_python_does():
    f = jit(set_corner)
    out = f(np.zeros(3), 0)  # no iteration: Python never reads the line
    np.testing.assert_array_equal(out, np.zeros(3))
    with pytest.raises(IndexError) as mine:
        f(np.zeros(3), 2)
    with pytest.raises(IndexError) as python:
        set_corner(np.zeros(3), 2)
    assert str(mine.value) == str(python.value)
    g = jit(shape_in_a_branch)
    assert g(np.zeros(6), False) == shape_in_a_branch(np.zeros(6), False)
    with pytest.raises(IndexError, match="tuple index out of range"):
        g(np.zeros(6), True)


def test_an_int_literal_beyond_64_bits_gives_pythons_int():
    f = jit(big_literal)
    x = np.zeros(5)
    assert f(x) == big_literal(x) == 5 * 2**70
