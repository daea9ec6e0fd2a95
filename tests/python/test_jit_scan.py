"""@numgpu.jit scans: loops in order whose one carried dependence is a running
combination of integers, `s += x[i]; out[i] = s` (an accumulator) or
`a[i] = a[i - 1] + x[i]` (an array recurrence). They run in three launches
(each block's partial result in parallel, the blocks' starts in order, each block
in order from its start in parallel) where that pays, else in order; either way
the results are Python's. NUMGPU_SCAN=1 makes every scan run in blocks, so these
small cases take that path; each is compared with plain Python."""
import math
import os

import numpy as np
import pytest

import numgpu
from numgpu import jit

from helpers import jit_same, outcome


@pytest.fixture
def blocks(monkeypatch):
    monkeypatch.setenv("NUMGPU_SCAN", "1")


def ran(f):
    return f.loop_report()[0]["ran"]


# ---- array recurrences ----

def prefix_inplace(a):
    for i in range(1, a.shape[0]):
        a[i] += a[i - 1]


def prefix_into(x, out):
    for i in range(1, len(x)):
        out[i] = out[i - 1] + x[i]


def prefix_from_zero(a):
    """i = 0 reads a[-1], the last element, before anything wrote it (as in Python)."""
    for i in range(len(a)):
        a[i] += a[i - 1]


def every_other(a):
    for i in range(2, len(a), 2):
        a[i] = a[i - 2] - a[i] + 1


def suffix(x, out):
    for i in range(len(x) - 2, -1, -1):
        out[i] = x[i] + out[i + 1] - 3


def running_max_array(a, x):
    for i in range(1, len(a)):
        a[i] = max(a[i - 1], x[i])


def running_xor(a):
    for i in range(1, len(a)):
        a[i] ^= a[i - 1]


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.int8, np.uint16, np.uint64])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 63, 64, 65, 1000, 70_001])
def test_prefix_inplace(blocks, dt, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 100, n).astype(dt)  # (int8 and uint16 wrap, as NumPy's do)
    f = jit_same(prefix_inplace, a)
    if n > 1:
        assert "parallel scan" in ran(f), ran(f)


@pytest.mark.parametrize("fn", [prefix_into, prefix_from_zero, every_other, suffix, running_xor])
def test_recurrences(blocks, fn):
    rng = np.random.default_rng(3)
    x = rng.integers(-50, 50, 5003)
    out = rng.integers(-9, 9, 5003)
    f = jit_same(fn, *((x, out) if fn in (prefix_into, suffix) else (out,)))
    assert "parallel scan" in ran(f), ran(f)


def test_recurrence_of_a_narrower_array(blocks):
    """int16 elements plus int16 values: each sum an int16, wrapping as NumPy's."""
    rng = np.random.default_rng(4)
    x = rng.integers(-10000, 10000, 4001).astype(np.int16)
    out = np.zeros(4001, np.int16)
    f = jit_same(prefix_into, x, out)
    assert "parallel scan" in ran(f)


def test_recurrence_stored_out_of_range(blocks):
    """int16 elements plus int64 values: each sum an int64, which NumPy's store into the
    int16 array checks (OverflowError past its range): such a loop runs in order, and
    stops where Python does."""
    x = np.full(4001, 9)
    for out in (np.zeros(4001, np.int16), np.zeros(3000, np.int16)):
        f = jit(prefix_into)
        want = outcome(prefix_into, x[:len(out)], out)
        got = outcome(f, x[:len(out)], out)
        assert want[0] == got[0], (want[:2], got[:2])
        assert want[0] == "ok" or got[1].endswith(want[1]), (want[:2], got[:2])
        np.testing.assert_array_equal(want[2][1], got[2][1])
        assert ran(f) in ("kernel (one thread)", "kernel (raised)"), ran(f)


def test_max_recurrence(blocks):
    rng = np.random.default_rng(5)
    a = rng.integers(-100, 100, 3000).astype(np.int32)
    f = jit_same(running_max_array, a, a[::-1].copy())
    assert "parallel scan" in ran(f)
    # max over a wider dtype would wrap every step before comparing: in order
    f = jit_same(running_max_array, a.astype(np.int8), (a // 2).astype(np.int64))
    assert ran(f) == "kernel (one thread)"


# ---- accumulators ----

def running_sum(x, out):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s
    return s


def exclusive(x, out):
    s = 5
    for i in range(len(x)):
        out[i] = s
        s = s + x[i] - 1
    return s


def count_positive(x, out):
    c = 0
    for i in range(len(x)):
        v = x[i] * 2
        if v > 0:
            c += 1
        out[i] = c + v
    return c


def python_ints(out):
    s = 0
    for i in range(len(out)):
        s += i * 3 - 1
        out[i] = s
    return s


def count_up(out):
    s = 0
    for i in range(len(out)):
        s += 3
        out[i] = s
    return s


def running_max(x, out):
    m = x[0]
    for i in range(len(x)):
        m = max(m, x[i])
        out[i] = m
    return m


def running_min(x, out):
    m = x[-1]
    for i in range(len(x)):
        out[i] = m
        m = min(x[i], m)
    return m


def running_bits(x, out):
    o = 0
    a = 8191
    for i in range(len(x)):
        o |= x[i]
        out[i] = o
    for i in range(len(x)):
        a &= x[i] | 4096
        out[i] += a
    return o, a


def running_product(x, out):
    p = 1
    for i in range(len(x)):
        p *= x[i]
        out[i] = p
    return p


def seen(x, out):
    hit = False
    for i in range(len(x)):
        hit |= x[i] > 40
        out[i] = hit
    return hit


def numpy_scalar_start(x, out):
    s = np.int32(7)
    for i in range(len(x)):
        s += x[i]
        out[i] = s
    return s


@pytest.mark.parametrize("fn", [running_sum, exclusive, count_positive, running_max, running_min, running_bits,
                                running_product, numpy_scalar_start])
@pytest.mark.parametrize("dt", [np.int64, np.int16, np.uint32])
def test_accumulators(blocks, fn, dt):
    rng = np.random.default_rng(6)
    x = rng.integers(1, 60, 7001).astype(dt)
    if fn is running_product:
        x = rng.integers(1, 4, 7001).astype(dt)  # (wraps: the same bits in any order)
    out = np.zeros(7001, np.int64)
    f = jit_same(fn, x, out)
    for r in f.loop_report():
        if fn is count_positive and dt != np.int64:
            # (c + v, a Python int and an int16 or a uint32: NumPy raises where c is out of
            # v's range, a check that keeps the loop in order)
            assert r["ran"] == "kernel (one thread)", r
        else:
            assert "parallel scan" in r["ran"], r


def test_python_int_accumulator_stays_a_python_int(blocks):
    out = np.zeros(20_000, np.int64)
    f = jit_same(python_ints, out)  # (the type of the result is compared too)
    # (a term i * 3 - 1 may be large: each step is checked against 64 bits, in order; a scan's
    # blocks would combine unchecked, test_jit_pyint_overflow.py)
    assert ran(f).startswith("kernel"), ran(f)
    f = jit_same(count_up, out)  # a term below 2**10: the scan stays
    assert "parallel scan" in ran(f)


def test_bool_accumulator(blocks):
    rng = np.random.default_rng(8)
    x = rng.integers(0, 42, 3000)
    f = jit_same(seen, x, np.zeros(3000, np.bool_))
    assert "parallel scan" in ran(f)


# ---- what stays in order ----

def float_sum(x, out):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        out[i] = s
    return s


def with_sqrt(x, out):
    s = 0
    for i in range(len(x)):
        s += x[i]
        out[i] = math.sqrt(s)
    return s


def test_floats_stay_in_order(blocks):
    """A float sum in another order rounds otherwise: the loop runs in order, bit for bit."""
    x = np.random.default_rng(9).standard_normal(5000)
    f = jit_same(float_sum, x, np.zeros(5000))
    assert ran(f) == "kernel (one thread)"


def test_a_raise_stays_in_order(blocks):
    """math.sqrt raises at the first negative sum: in order, Python's exception and arrays."""
    x = np.full(5000, 3, np.int64)
    x[2000] = -10**7
    want = outcome(with_sqrt, x, np.zeros(5000))
    got = outcome(jit(with_sqrt), x, np.zeros(5000))
    assert got[0] == want[0] and got[1].endswith(want[1]), (got[:2], want[:2])
    np.testing.assert_array_equal(got[2][1], want[2][1])
    f = jit(with_sqrt)
    f(np.ones(5000, np.int64), np.zeros(5000))
    assert ran(f) == "kernel (one thread)"


def test_boundscheck_stays_in_order(blocks):
    f = jit(boundscheck=True)(running_sum)
    x = np.arange(3000)
    out = np.zeros(3000, np.int64)
    assert f(x, out) == running_sum(x, np.zeros(3000, np.int64))
    assert ran(f) == "kernel (one thread)"


def test_switched_off(monkeypatch):
    monkeypatch.setenv("NUMGPU_SCAN", "0")
    f = jit_same(prefix_inplace, np.arange(100_000))
    assert ran(f) == "kernel (one thread)"


def test_default_by_size(monkeypatch):
    """Without NUMGPU_SCAN: small loops in order; large ones in blocks on the cpu device
    with 2 cores or more (and on GPUs; not on an OpenCL CPU device)."""
    monkeypatch.delenv("NUMGPU_SCAN", raising=False)
    f = jit_same(prefix_inplace, np.arange(1000))
    assert ran(f) == "kernel (one thread)"
    f = jit_same(prefix_inplace, np.arange(200_000) % 7)
    if numgpu.get_device() == "cpu" and (os.cpu_count() or 1) >= 2:
        assert "parallel scan" in ran(f)


def test_report():
    f = jit(running_sum)
    r = f.loop_report()[0]
    assert r["kind"] == "sequential" and r["scan"]
    assert "a scan" in r["reason"]
    g = jit(float_sum)  # (a scan by its form: the types decide at run time)
    assert g.loop_report()[0]["scan"]
    h = jit(exclusive)
    assert h.loop_report()[0]["scan"]


def two_carried(x, out):
    s = 0
    t = 0
    for i in range(len(x)):
        s += x[i]
        t += s
        out[i] = t
    return s, t


def not_associative(x, out):
    for i in range(1, len(x)):
        out[i] = x[i] - out[i - 1]


@pytest.mark.parametrize("fn", [two_carried, not_associative])
def test_not_scans(blocks, fn):
    x = np.arange(1, 3001)
    f = jit_same(fn, x, np.zeros(3000, np.int64))
    assert not f.loop_report()[0]["scan"]
    assert ran(f) == "kernel (one thread)"
