"""Tuples bound before an @numgpu.jit loop (a shape, a stencil's offsets, weights), read in
the loop: their items are Python numbers (NEP 50's weak types), an index out of range
raises IndexError, unpacking into another number of names raises ValueError, and what a
tuple cannot be in a kernel (assigned into, used whole, of mixed types) leaves the loop to
Python. Found by tools/jit_difftest.py (2026-12-05: such loops all ran as Python). And
int() of a uint64 from 2**63 on, which a kernel's 64-bit int cannot hold."""
import numpy as np
import pytest

from helpers import jit_same, python_and_jit


def ran(f):
    return [r["ran"] for r in f.loop_report()]


def shape_items(out, sh):
    for i in range(len(out)):
        out[i] = sh[1] * i + sh[-1] * len(sh) - sh[0]


def by_index(out, w, k):
    for i in range(len(out)):
        out[i] = w[i % len(w)] * 2 + w[k]


def items_loop(out, w):
    for i in range(len(out)):
        s = 0
        for v in w:
            s += v * i
        out[i] = s


def unpacked(out, sh):
    for i in range(len(out)):
        n, m = sh
        out[i] = n * i + m


@pytest.mark.parametrize("sh", [(7, 4), (3, 5, 2), (-2, 9)])
def test_int_items(sh):
    f = jit_same(shape_items, np.zeros(50), sh)
    assert ran(f) == ["kernel"]


@pytest.mark.parametrize("w", [(1, -2, 3), (0.5, 1.5, -2.25, 8.0), (True, False), (1 + 2j, -0.5j)])
@pytest.mark.parametrize("k", [0, -1])
def test_items_of_each_type(w, k):
    out = np.zeros(40, np.complex128 if isinstance(w[0], complex) else np.float64)
    f = jit_same(by_index, out, w, k)
    assert ran(f) == ["kernel"]
    jit_same(items_loop, out, w)


def test_unpacking():
    f = jit_same(unpacked, np.zeros(30, np.int64), (3, 11))
    assert ran(f) == ["kernel"]


def test_unpacking_another_length_raises_as_python():
    want, got, f = python_and_jit(unpacked, np.zeros(30, np.int64), (3, 11, 2))
    assert want == got == (ValueError, "too many values to unpack (expected 2)")
    assert "unpacks a tuple into another number of names" in ran(f)[0]
    want, got, f = python_and_jit(unpacked, np.zeros(30, np.int64), (3,))
    assert want == got and want[0] is ValueError


def narrow(u, sh):
    for i in range(len(u)):
        u[i] = u[i] + sh[0]


def test_items_are_python_ints_under_nep50():
    """u[i] + sh[0] over a uint8 u is a uint8 (wrapping), not an int64: the item is a Python int."""
    u = np.arange(200, 250, dtype=np.uint8)
    jit_same(narrow, u, (100, 1))
    want, got, _ = python_and_jit(narrow, u, (300, 1))
    assert want == got == (OverflowError, "Python integer 300 out of bounds for uint8")


@pytest.mark.parametrize("k", [2, -3, 3, -4, 10])
def test_an_index_out_of_range_raises_index_error(k):
    """k out of range: the same in every iteration, so the loop runs as Python and raises there."""
    want, got, f = python_and_jit(by_index, np.zeros(20), (1, 2, 3), k)
    assert want == got
    assert (want[0] is IndexError) == (k >= 3 or k < -3)


def late_index(out, w):
    for i in range(len(out)):
        if i > 15:
            out[i] = w[i]


def test_an_index_out_of_range_in_some_iterations():
    want, got, f = python_and_jit(late_index, np.zeros(20), (1, 2, 3))
    assert want == got == (IndexError, "tuple index out of range")
    assert ran(f) == ["kernel (raised)"]


def assign_item(out, w):
    for i in range(len(out)):
        w[0] = i


def whole(out, w):
    for i in range(len(out)):
        out[i] = w


@pytest.mark.parametrize("fn, exc", [(assign_item, TypeError), (whole, ValueError)])
def test_what_a_kernel_cannot_do_runs_as_python(fn, exc):
    want, got, f = python_and_jit(fn, np.zeros(5), (1, 2))
    assert want == got and want[0] is exc
    assert ran(f)[0].startswith(("/", "tests")) or "not supported" in ran(f)[0]


@pytest.mark.parametrize("w", [(1, 2.5), (), (1, "a"), (2 ** 70, 1)])
def test_tuples_a_kernel_cannot_take_run_as_python(w):
    want, got, f = python_and_jit(by_index, np.zeros(10), w, 0)
    assert want == got
    assert "tuple" in ran(f)[0]


def uint_to_int(out, w):
    for i in range(len(out)):
        out[i] = int(w[i]) % 1000


def test_int_of_a_large_uint64_raises_rather_than_wrap():
    """Python's int(w[i]) of a uint64 from 2**63 on is a big int; a kernel's Python ints are
    int64: OverflowError in numgpu's words, not a negative number (README)."""
    w = np.arange(10, dtype=np.uint64) * 1000 + 7
    jit_same(uint_to_int, np.zeros(10, np.int64), w)
    w[7] = 2 ** 63 + 5
    want, got, f = python_and_jit(uint_to_int, np.zeros(10, np.int64), w)
    assert want == ("ok", "") and got[0] is OverflowError
    assert "int() of a uint64 from 2**63 on" in got[1]


step = (1, "two")  # (a global of the name a loop below assigns: never the loop's value)


def inner_counter_named_like_a_global(x, out):
    for i in range(x.shape[0]):
        s = 0.0
        for step in range(3):
            s += x[i] * step
        out[i] = s


def test_a_local_assigned_in_the_loop_is_not_the_global_of_its_name():
    """(2026-12-05: the loop's free names were looked up in the globals when not yet bound, so
    `step`, a local the inner loop assigns, was the tuple above, and the loop ran as Python.)"""
    f = jit_same(inner_counter_named_like_a_global, np.arange(5.0), np.zeros(5))
    assert [r["ran"] for r in f.loop_report()][0] == "kernel"
