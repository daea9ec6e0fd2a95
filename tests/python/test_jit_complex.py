"""@numgpu.jit over complex values: complex64/complex128 arrays, Python complex
numbers and 1j literals (NEP 50: a Python complex meeting a complex64 stays
complex64, meeting a float32 makes complex64), complex(re, im), .real/.imag/
.conjugate(), abs(), np.conj, NumPy's and cmath's complex functions, NumPy's
lexicographic order of complex scalars, complex sums in parallel and complex
atomic adds. What the kernel does not lower (math.* and int()/float() of
NumPy complex scalars, which NumPy answers with a ComplexWarning; //, %, ~ and
ordering two Python complex numbers, which raise) leaves the loop to Python.
Every case is compared with plain Python: arithmetic bit for bit, |z| and the
transcendental functions to a few ulps (a GPU has its own)."""
import cmath
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

N = 20_000


def data(dtype=np.complex128, n=N, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


def ran_kernel(f, i=0, kind="parallel"):
    r = f.loop_report()[i]
    assert r["kind"] == kind and r["ran"] == "kernel", r


def arithmetic(z, w, out):
    for i in range(z.shape[0]):
        a = z[i] * w[i] - 2.5j
        b = a / (w[i] + 1) + z[i] ** 2
        out[i] = b - a * 0.5 + 3


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_arithmetic_matches_python_bit_for_bit(dt):
    f = jit_same(arithmetic, data(dt), data(dt, seed=1), np.zeros(N, dt))
    ran_kernel(f)


def mixed(x, z, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 1j + z[i] * x[i] - 0.25


@pytest.mark.parametrize("xdt,zdt,odt", [(np.float32, np.complex64, np.complex64),
                                         (np.float64, np.complex64, np.complex128),
                                         (np.int32, np.complex128, np.complex128),
                                         (np.float32, np.complex128, np.complex64)])
def test_mixing_real_and_complex_follows_numpy_promotion(xdt, zdt, odt):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(N) * 10).astype(xdt)
    f = jit_same(mixed, x, data(zdt), np.zeros(N, odt))
    ran_kernel(f)


def parts(z, re, im, mag, cj):
    for i in range(z.shape[0]):
        re[i] = z[i].real + z[i].imag
        im[i] = (z[i] * 2).imag
        mag[i] = abs(z[i]) + np.abs(z[i] - 1)
        cj[i] = z[i].conjugate() + np.conj(z[i]) * 1j + z[i].conj()


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_real_imag_abs_conjugate(dt):
    rdt = np.float32 if dt == np.complex64 else np.float64
    z = data(dt)
    want = [np.zeros(N, rdt), np.zeros(N, rdt), np.zeros(N, rdt), np.zeros(N, dt)]
    got = [a.copy() for a in want]
    parts(z, *want)
    f = numgpu.jit(parts)
    f(z, *got)
    ran_kernel(f)
    for g, w in zip(got[:2] + got[3:], want[:2] + want[3:]):
        np.testing.assert_array_equal(g, w)
    # |z| is hypot: NumPy's scalar and the C library's (vector) hypot may differ by a few ulp
    np.testing.assert_allclose(got[2], want[2], rtol=5e-7 if dt == np.complex64 else 1e-15)


def real_parts_of_reals(x, out):
    for i in range(x.shape[0]):
        v = x[i] * 2
        out[i] = v.real - v.imag + v.conjugate() + (3).real + (2.5).imag


def test_real_and_imag_of_real_values():
    f = jit_same(real_parts_of_reals, np.arange(100, dtype=np.float64), np.zeros(100))
    ran_kernel(f)


def functions(z, out):
    for i in range(z.shape[0]):
        out[i] = np.exp(z[i] * 0.3) + np.sqrt(z[i]) + np.log(z[i] + 2) + np.sin(z[i]) * np.cos(z[i])


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_numpy_functions_of_complex_values(dt):
    z = data(dt)
    out = np.zeros(N, dt)
    want = np.zeros(N, dt)
    functions(z, want)
    f = numgpu.jit(functions)
    f(z, out)
    ran_kernel(f)
    tol = 1e-5 if dt == np.complex64 else 1e-13
    np.testing.assert_allclose(out, want, rtol=tol, atol=tol)


def mandelbrot(out, x0, dx, y0, dy, max_iter):
    h, w = out.shape
    for py in range(h):
        for px in range(w):
            c = x0 + dx * px + (y0 + dy * py) * 1j
            z = 0j
            n = 0
            while n < max_iter and abs(z) <= 2.0:
                z = z * z + c
                n += 1
            out[py, px] = n


def test_mandelbrot_with_complex_numbers():
    f = jit_same(mandelbrot, np.zeros((60, 80), np.int32), -2.0, 3.0 / 80, -1.2, 2.4 / 60, 60)
    ran_kernel(f)


def scale(z, out, c):
    for i in range(z.shape[0]):
        out[i] = z[i] * c + c.real


@pytest.mark.parametrize("c", [1.5 - 2j, np.complex64(0.5 + 1j), np.complex128(-1 + 0.25j), 2.0, 3])
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_scalar_arguments(dt, c):
    z = data(dt)
    want, got = np.zeros(N, dt), np.zeros(N, dt)
    scale(z, want, c)
    f = numgpu.jit(scale)
    f(z, got, c)
    ran_kernel(f)
    # (NumPy multiplies a complex64 by a Python complex in its ufunc loop, with fused
    # multiply-adds where the CPU has them; its scalar loop and numgpu round each product)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6 if dt == np.complex64 else 1e-15)


def complex_sum(z):
    s = 0j
    for i in range(z.shape[0]):
        s += z[i] * z[i].conjugate() + z[i]
    return s


def test_a_complex_sum_runs_in_parallel():
    z = data(np.complex128, 100_000).round(3)  # (sums of short binary fractions: exact in any order)
    z = (np.round(z.real * 8) / 8 + 1j * np.round(z.imag * 8) / 8).astype(np.complex128)
    f = jit_same(complex_sum, z)
    r = f.loop_report()[0]
    assert r["kind"] == "parallel" and ("s", "+") in r["reductions"], r


def complex_sum_from_int(z):
    s = 0
    for i in range(z.shape[0]):
        s += z[i]
    return s


def test_an_int_accumulator_becomes_complex():
    z = (np.arange(1000) * (1 + 2j) / 4).astype(np.complex64)
    f = jit_same(complex_sum_from_int, z)
    ran_kernel(f)


def complex_product(z):
    p = 1 + 0j
    for i in range(z.shape[0]):
        p *= z[i]
    return p


def test_a_complex_product_runs_in_order():
    z = np.exp(1j * np.linspace(0, 1, 64)).astype(np.complex128)
    f = jit_same(complex_product, z)
    assert f.loop_report()[0]["ran"].startswith("kernel (one thread")


def scatter(idx, z, h):
    for i in range(idx.shape[0]):
        h[idx[i]] += z[i]


def test_complex_atomic_add():
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 16, N)
    z = (rng.integers(-8, 8, N) + 1j * rng.integers(-8, 8, N)).astype(np.complex128)  # exact sums
    f = jit_same(scatter, idx, z, np.zeros(16, np.complex128))
    assert f.loop_report()[0]["atomic"]


def truth_and_equality(z, w, out):
    for i in range(z.shape[0]):
        if z[i] == w[i]:
            out[i] = 1
        elif z[i] != 0 and not (z[i] - 1j):
            out[i] = 2
        elif z[i]:
            out[i] = 3


def test_truth_and_equality():
    z = np.array([1j, 0, 2 + 0j, 1j, 0j, 3 - 1j] * 100, np.complex128)
    w = np.array([1j, 1, 2, 0, 0, 3 + 1j] * 100, np.complex128)
    f = jit_same(truth_and_equality, z, w, np.zeros(600, np.int64))
    ran_kernel(f)


def last_value(z):
    acc = 0j
    for i in range(z.shape[0]):
        acc = acc * 0.5 + z[i]
    return acc


def test_a_sequential_complex_recurrence():
    f = jit_same(last_value, data(np.complex128, 500))
    assert f.loop_report()[0]["kind"] == "sequential"


def powers(z, w, out):
    for i in range(z.shape[0]):
        out[i] = z[i] ** 2 + z[i] ** 0.5 + z[i] ** w[i]


def test_powers():
    z, w = data(np.complex128), data(np.complex128, seed=4) * 0.3
    out, want = np.zeros(N, np.complex128), np.zeros(N, np.complex128)
    powers(z, w, want)
    f = numgpu.jit(powers)
    f(z, w, out)
    ran_kernel(f)
    np.testing.assert_allclose(out, want, rtol=1e-12)


def ordered(z, w, out):
    for i in range(z.shape[0]):
        out[i] = 0.0
        if z[i] < w[i]:
            out[i] = 1.0
        if z[i] >= 1j:
            out[i] += 2.0
        out[i] += 4.0 if max(z[i], w[i]) == w[i] else 0.0


def test_numpy_complex_scalars_order_lexicographically():
    v = np.array([0, 1, -1, 1j, -1j, 1 + 1j, np.nan, 1j * np.nan, np.inf, 2 - 1j])
    z, w = np.repeat(v, 10), np.tile(v, 10)
    f = jit_same(ordered, z, w, np.zeros(100))
    ran_kernel(f)


# ---- what the compiled loop leaves to Python: NumPy's complex scalars convert to
# float/int with a ComplexWarning; `//` raises; Python complex numbers do not order ----

def math_of_complex(z, out):
    for i in range(z.shape[0]):
        out[i] = math.sqrt(abs(z[i].real)) + math.floor(z[i])


def int_of_complex(z, out):
    for i in range(z.shape[0]):
        out[i] = int(z[i]) + float(z[i])


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("fn", [math_of_complex, int_of_complex])
def test_what_the_loop_leaves_to_python_gives_python_results(fn):
    f = jit_same(fn, np.array([1 + 1j, 2j, -3 + 0j, 0.5 - 1j], np.complex128), np.zeros(4))
    assert not f.loop_report()[0]["ran"].startswith("kernel")


def floor_division(z, out):
    for i in range(z.shape[0]):
        out[i] = z[i] // 2


def test_floor_division_of_complex_raises_as_python_does():
    z, out = np.array([1 + 1j, 2j], np.complex128), np.zeros(2, np.complex128)
    with pytest.raises(TypeError) as plain:
        floor_division(z.copy(), out.copy())
    f = numgpu.jit(floor_division)
    with pytest.raises(TypeError) as mine:
        f(z, out)
    assert str(mine.value) == str(plain.value)


def python_complex_order(out, a, b):
    for i in range(out.shape[0]):
        out[i] = 1.0 if a < b else 0.0


def test_ordering_python_complex_numbers_raises_as_python_does():
    with pytest.raises(TypeError) as plain:
        python_complex_order(np.zeros(3), 1j, 2j)
    with pytest.raises(TypeError) as mine:
        numgpu.jit(python_complex_order)(np.zeros(3), 1j, 2j)
    assert str(mine.value) == str(plain.value)


def cmath_calls(z, x, out, ph):
    for i in range(z.shape[0]):
        out[i] = (cmath.exp(z[i] * 0.5) + cmath.sqrt(z[i]) + cmath.log(z[i] + 3) * cmath.sin(x[i])
                  + cmath.cos(z[i]) - cmath.tanh(z[i]) + cmath.asin(z[i] * 0.1) + cmath.pi)
        ph[i] = cmath.phase(z[i]) + (1.0 if cmath.isfinite(z[i] / x[i]) else 0.0)


def test_cmath_functions():
    z, x = data(np.complex128, 2000), np.random.default_rng(5).uniform(-2, 2, 2000)
    want = [np.zeros(2000, np.complex128), np.zeros(2000)]
    got = [a.copy() for a in want]
    cmath_calls(z, x, *want)
    f = numgpu.jit(cmath_calls)
    f(z, x, *got)
    ran_kernel(f)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-13)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14)  # (a GPU's atan2 may differ in the last bit)


def cmath_two_argument_log(z, out):
    for i in range(z.shape[0]):
        out[i] = cmath.log(z[i], 2)


def test_the_two_argument_cmath_log_stays_python_and_is_right():
    f = jit_same(cmath_two_argument_log, data(np.complex128, 50), np.zeros(50, np.complex128))
    assert not f.loop_report()[0]["ran"].startswith("kernel")


def complex_division_by_zero(z, w, out):
    for i in range(z.shape[0]):
        out[i] = z[i] / w[i]


def test_division_by_zero_gives_numpy_values():
    z = np.array([1 + 1j, 0j, -2 + 0j, 1j, np.nan + 0j], np.complex128)
    w = np.array([0j, 0j, 0j, 1 + 1j, 1j], np.complex128)
    f = jit_same(complex_division_by_zero, z, w, np.zeros(5, np.complex128))
    ran_kernel(f)


def construct(x, y, out):
    for i in range(x.shape[0]):
        out[i] = complex(x[i], y[i]) * 2 + complex(x[i]) + complex(3, -1)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_the_complex_constructor(dt):
    x = np.array([1.5, -0.0, 0.0, np.inf, -np.inf, np.nan, 2, -7] * 50).astype(dt) if dt != np.int64 \
        else np.arange(-200, 200, dtype=dt)
    y = np.roll(x, 3)
    f = jit_same(construct, x, y, np.zeros(x.shape[0], np.complex128))
    ran_kernel(f)


def parts_of_constructed(x, y, re, im):
    for i in range(x.shape[0]):
        z = complex(x[i], y[i])
        re[i] = z.real
        im[i] = z.imag


def test_the_constructor_keeps_signed_zeros_and_infinities():
    v = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1.0])
    x, y = np.repeat(v, 6), np.tile(v, 6)
    re, im = np.zeros(36), np.zeros(36)
    f = numgpu.jit(parts_of_constructed)
    f(x, y, re, im)
    ran_kernel(f)
    np.testing.assert_array_equal(re, x)
    np.testing.assert_array_equal(np.signbit(re), np.signbit(x))
    np.testing.assert_array_equal(im, y)
    np.testing.assert_array_equal(np.signbit(im), np.signbit(y))


def negated_literals(z, out):
    for i in range(z.shape[0]):
        w = -2.5j + z[i] * -1j - (-z[i])
        out[i] = w.real * 10 + (-w).imag + (-(3 + 0j)).imag


def test_negated_complex_literals_and_values():
    f = jit_same(negated_literals, data(np.complex128, 500), np.zeros(500))
    ran_kernel(f)


def signed_zero_parts(out):
    for i in range(out.shape[0]):
        out[i] = math.copysign(1.0, (-1j).real) + math.copysign(2.0, (-(1 + 0j)).imag)


def test_negated_literals_have_python_signed_zeros():
    jit_same(signed_zero_parts, np.zeros(4))


def inverted(z, out):
    for i in range(z.shape[0]):
        out[i] = ~z[i]


def test_invert_of_complex_raises_as_python_does():
    z = np.array([1j], np.complex128)
    with pytest.raises(TypeError) as plain:
        inverted(z.copy(), np.zeros(1, np.complex128))
    with pytest.raises(TypeError) as mine:
        numgpu.jit(inverted)(z, np.zeros(1, np.complex128))
    assert str(mine.value) == str(plain.value)


def complex_argmax(z):
    best = z[0]
    k = 0
    for i in range(z.shape[0]):
        if z[i] > best:
            best = z[i]
            k = i
    return best, k


def complex_running_max(z):
    m = z[0]
    for i in range(z.shape[0]):
        m = max(m, z[i])
    return m


@pytest.mark.parametrize("fn", [complex_argmax, complex_running_max])
def test_complex_maxima_run_in_order_and_match_python(fn):
    z = data(np.complex128, 50_000)
    z[[100, 40_000]] = 9 + 1j  # a tie: the first one wins
    f = jit_same(fn, z)
    assert f.loop_report()[0]["ran"].startswith("kernel (one thread")


def numpy_parts(z, x, re, im):
    for i in range(z.shape[0]):
        re[i] = np.real(z[i]) + np.real(x[i]) + np.real(2 + 3j)
        im[i] = np.imag(z[i]) * 2 + np.imag(x[i]) + np.imag(True)


def test_np_real_and_np_imag_of_scalars():
    z, x = data(np.complex64, 500), np.arange(500, dtype=np.float64)
    f = jit_same(numpy_parts, z, x, np.zeros(500), np.zeros(500))
    ran_kernel(f)


def through_a_real_view(z, out):
    v = np.real(z)  # a view of z's real parts
    for i in range(1, z.shape[0]):
        z[i] = z[i] + v[i - 1]
        out[i] = v[i]


def test_np_real_of_an_array_is_a_view_the_analysis_sees():
    z = np.arange(64, dtype=np.complex128) * (1 + 1j)
    f = jit_same(through_a_real_view, z, np.zeros(64))
    assert f.loop_report()[0]["kind"] != "parallel"


def python_complex_by_float64(x, out):
    w = 0j
    for i in range(len(x)):
        w = complex(1.0, 2.0) / x[i] + 1j ** x[i]
        out[i] = w * x[i]
    return w


def zero_to_the_power(x, out, c):
    for i in range(len(x)):
        out[i] = c ** x[i]


def test_a_python_complex_with_a_numpy_float64_is_python_arithmetic():
    """np.float64 is a Python float, so complex(1, 2) / x[i] is Python's complex division
    (ZeroDivisionError at 0.0, a Python complex), where complex / np.float32 is NumPy's
    (found by tools/jit_difftest.py, 2026-12-05: the kernel gave inf)."""
    x = np.linspace(-1, 1, 10)
    f = jit_same(python_complex_by_float64, x, np.zeros(10, complex))
    assert f.loop_report()[0]["ran"].startswith("kernel")  # (in order: w is read after the loop)
    x = np.linspace(-1, 1, 9)  # (0.0 at 4)
    want, got, _ = python_and_jit(python_complex_by_float64, x, np.zeros(9, complex))
    assert want == got == (ZeroDivisionError, "complex division by zero")
    want, got, _ = python_and_jit(python_complex_by_float64, x.astype(np.float32), np.zeros(9, complex))
    assert want == got == ("ok", "")


@pytest.mark.parametrize("c", [0j, 1j, complex(2, -1)])
def test_python_complex_zero_to_a_negative_power_raises(c):
    x = np.array([2.0, 0.5, -1.0, 3.0])
    want, got, _ = python_and_jit(zero_to_the_power, x, np.zeros(4, complex), c)
    assert want == got
    assert (want[0] is ZeroDivisionError) == (c == 0)
