"""NumPy 2's rules where a Python int meets a NumPy integer (NEP 50) and where a number
is stored into an integer array, in @numgpu.jit loops against plain Python (found by
tools/jit_difftest.py, 2026-12-05): an operand or a store out of the dtype's range raises
OverflowError, a NaN stored raises ValueError, comparisons compare values, and a
conditional expression or min/max keeps the value of the Python int it chooses."""
import math
import re
import warnings

import numpy as np
import pytest

from numgpu import jit

from helpers import jit_same, outcome


def words(msg):
    """An exception's words without the line the jit names, and without the int in NumPy's
    'Python integer 300 out of bounds for int8' (a parallel loop tells the greatest such
    int of its iterations, or none beyond 2**32; Python the first's: README)."""
    msg = re.sub(r"Python integer -?\d+ out of", "Python integer out of", msg)
    msg = msg.replace("Python int too large to convert to C long", "Python integer out of bounds for int64")
    return msg.split(".py:")[-1].split(": ", 1)[-1]


def outcome_of(fn, *args):
    """helpers.outcome, TypeError too."""
    try:
        return outcome(fn, *args)
    except TypeError as e:
        return (TypeError, str(e), args)


def same_outcome(fn, *args):
    """fn and jit(fn) raise the same exception with the same words (words()), or both
    return alike with the same arrays."""
    want = outcome_of(fn, *args)
    f = jit(fn)
    got = outcome_of(f, *args)
    assert want[0] == got[0], (want[:2], got[:2])
    if want[0] == "ok":
        jit_same(fn, *args)
    else:
        assert words(got[1]) == words(want[1]), (want[1], got[1])
    return f, want, got


def add_python_int(u, k):
    for i in range(len(u)):
        u[i] = u[i] + k * i


def store_python_int(u, k):
    for i in range(len(u)):
        u[i] = k - i


def store_numpy_int(e, a):
    for i in range(len(e)):
        e[i] = a[i] * 20


def store_float(e, b):
    for i in range(len(e)):
        e[i] = b[i] * 40.0


def augmented(e, a):
    for i in range(len(e)):
        e[i] += a[i]


def make_uint8(u, k):
    for i in range(len(u)):
        u[i] = np.uint8(k * i)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.uint64])
@pytest.mark.parametrize("k", [1, 3, 30, -1, 5000, 2**40])
def test_python_int_operand(dt, k):
    """np.uint8(3) + 300 raises OverflowError ('Python integer 300 out of bounds for uint8');
    within range the sum wraps as NumPy's."""
    u = (np.arange(40) % 7).astype(dt)
    same_outcome(add_python_int, u, k)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint32, np.uint64])
@pytest.mark.parametrize("k", [5, 100, 130, 300, 2**33])
def test_python_int_stored(dt, k):
    same_outcome(store_python_int, np.zeros(40, dt), k)


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.uint8, np.uint16])
@pytest.mark.parametrize("scale", [1, 5, 40, 2000, 10**9])
def test_numpy_int_stored(dt, scale):
    """A NumPy int stored into a signed array out of its range raises (NumPy converts it
    through a Python int); into an unsigned one it wraps."""
    a = (np.arange(-20, 20) * scale).astype(np.int64)
    same_outcome(store_numpy_int, np.zeros(40, dt), a)


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("special", [None, np.nan, np.inf, 1e30])
def test_float_stored(dt, special):
    """NaN: ValueError; an infinity or a value beyond the dtype: OverflowError (a float
    stored into an unsigned array wraps as NumPy's cast, as long as it is finite and fits
    int64: left out here, C leaves it undefined)."""
    b = np.linspace(-3, 3, 40)
    if special is not None:
        b[17] = special
    if dt == np.uint8:
        b = np.abs(b) if special is None else b
        if special is not None and special != np.nan and not np.isnan(special):
            pytest.skip("a float out of an unsigned range: C's cast")
    same_outcome(store_float, np.zeros(40, dt), b)


@pytest.mark.parametrize("dt", [np.int8, np.int16])
def test_augmented_store(dt):
    same_outcome(augmented, np.arange(40).astype(dt), np.arange(40) * 7)


@pytest.mark.parametrize("k", [1, 6, 9])
def test_numpy_constructor(k):
    """np.uint8(300) raises, np.uint8(255) does not."""
    same_outcome(make_uint8, np.zeros(40, np.uint8), k)


def compare_out_of_range(u, e, out):
    for i in range(len(u)):
        out[i] = (u[i] < i - 20) + 2 * (e[i] > 200 - i) + 4 * (u[i] == 256 + i) + 8 * (np.uint64(i) > i - 25)


def test_comparisons_compare_values():
    """np.uint8(3) < -1 is False: the int is not cast to uint8 (253) first."""
    u = (np.arange(40) * 7).astype(np.uint8)
    e = (np.arange(40) * 5 - 100).astype(np.int8)
    jit_same(compare_out_of_range, u, e, np.zeros(40, np.int64))


def choose(u, b, g, out, out2, fout):
    for i in range(len(u)):
        out[i] = -3 if b[i] > 0 else u[i]
        out2[i] = min(u[i], i - 20)
        fout[i] = min(math.tanh(b[i] * 0.1), g[i]) - float(i)


def test_chosen_python_number_keeps_its_value():
    """`-3 if c else u[i]` is -3, not 253 (uint8); min(0.1-ish Python float, float32) keeps
    the Python float's digits (float64), where NumPy's promotion would round to float32."""
    u = np.arange(10, 50, dtype=np.uint8)
    b = np.linspace(-5, 5, 40)
    g = np.full(40, 2.5, np.float32)
    jit_same(choose, u, b, g, np.zeros(40, np.int64), np.zeros(40, np.int64), np.zeros(40))


def escape_counts(out, max_iter):
    h, w = out.shape
    for py in range(h):
        for px in range(w):
            cr = -2.0 + 3.0 * px / w
            ci = -1.2 + 2.4 * py / h
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[py, px] = n


@pytest.mark.parametrize("max_iter, dt", [(60, np.int32), (60, np.int8), (200, np.int8), (300, np.uint8)])
def test_store_check_in_lanes(max_iter, dt):
    """The store's range check is a raise code, a max over the iterations: the C emitter
    runs the nest in tiles of jammed lanes anyway (each lane's copy of the code combined
    after its group), so mandelbrot keeps its lanes; a count beyond int8 raises, from
    lanes too."""
    same_outcome(escape_counts, np.zeros((24, 40), dt), max_iter)


def collatz_sqrt(start, out, shift):
    for i in range(len(start)):
        v = start[i]
        c = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            c += 1
        out[i] = math.sqrt(c - shift) + c


@pytest.mark.parametrize("shift", [0, 5, 120])
def test_raise_from_jammed_lanes(shift):
    """A parallel loop with a while loop (jammed: 16 lanes, two vectors) and a raise check
    (a max reduction of raise codes, each lane's copy combined after its group): with no
    raise the values are Python's; a negative sqrt in any lane raises Python's ValueError."""
    start = np.arange(1, 3001)
    if shift == 0:
        jit_same(collatz_sqrt, start, np.zeros(3000), shift)
        return
    want = outcome(collatz_sqrt, start, np.zeros(3000), shift)
    got = outcome(jit(collatz_sqrt), start, np.zeros(3000), shift)
    assert want[0] is ValueError and got[0] is ValueError, (want[:2], got[:2])
    assert got[1].endswith(want[1])


def store_python_complex(a, out):
    for i in range(len(a)):
        if a[i] > 2:
            out[i] = complex(a[i], 1.0)


def store_numpy_complex(a, out):
    for i in range(len(a)):
        out[i] = a[i] * np.complex128(1j) + a[i]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8, np.bool_, np.complex64])
def test_complex_stored(dt):
    """A Python complex stored into an array of real numbers: TypeError (the loop runs as
    Python, which raises where it gets there); a NumPy complex: its real part (NumPy's
    ComplexWarning)."""
    a = np.arange(5.0)
    same_outcome(store_python_complex, a, np.zeros(5, dt))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NumPy's ComplexWarning)
        same_outcome(store_numpy_complex, a, np.zeros(5, dt))


def wrapped_uint64(w, iout):
    for i in range(len(w)):
        iout[i] = w[i] - (i % 3)


def test_uint64_past_int64_stored():
    """w[i] - 2 of a uint64 1 wraps to 2**64 - 1, which NumPy's store into an int64 array
    refuses (OverflowError, 'Python int too large to convert to C long'; found by
    jit_difftest: the kernel stored -1). (A name that holds a negative Python int and, in
    another branch, a uint64 is a uint64 in the kernel: its store raises the same, where
    Python stores the int: README's one type per name.)"""
    w = np.arange(20, dtype=np.uint64)
    same_outcome(wrapped_uint64, w, np.zeros(20, np.int64))
    same_outcome(wrapped_uint64, w + np.uint64(5), np.zeros(20, np.int64))
