"""Negative indices in parallel loops, against plain Python. The analysis
proves iterations independent by comparing index expressions (i against
i, 2*i against 2*i + 1, i against n - 1 - i); a negative index wraps onto
the end of its axis, so distinct values may still be one element (a[-1] is
a[n - 1]). Before a parallel loop whose compared indices may be negative,
the kernel checks them at the range's ends (they are linear in the loop
variable): when some is negative and they do not all fit in a window as
long as the axis, no iteration runs and the loop runs in order instead.
Covered: ranges over negative and positive values that touch one element
twice, strided pairs, rotations and reversed copies that wrap but stay
apart (still parallel), a runtime range start, inner loops, an index read
from an array (not checkable: in order), and what the report says."""
import numpy as np
import pytest

import numgpu as ng
from helpers import jit_same


def twice(a, lo, hi):
    for i in range(lo, hi):
        a[i] = a[i] + 1.0


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 100003])
def test_every_element_twice(n):
    # range(-n, n): a[i] and a[i - n] are one element, in two iterations
    a = np.zeros(n)
    f = jit_same(twice, a, -n, n)
    assert f.loop_report()[0]["ran"].startswith("kernel (one thread")
    a = np.zeros(n)
    f(a, -n, n)
    assert (a == 2.0).all()


@pytest.mark.parametrize("lo,hi", [(0, 1000), (5, 900), (-1000, 0), (-600, -1), (3, 3)])
def test_one_sign_stays_parallel(lo, hi):
    a = np.random.default_rng(abs(hi)).standard_normal(1000)
    f = jit_same(twice, a, lo, hi)
    assert f.loop_report()[0]["ran"] == "kernel"


def pairs(a, lo, hi):
    for i in range(lo, hi):
        a[2 * i] = a[2 * i + 1] + 1.0


@pytest.mark.parametrize("n,lo,hi,parallel", [(200001, -75000, 75000, False), (9, -4, 4, False), (21, -5, 5, True),
                                               (200000, -50000, 50000, True)])
def test_strided_pairs_across_zero(n, lo, hi, parallel):
    # indices from 2*lo to 2*hi - 1: within one axis length they wrap apart (21), else in order
    f = jit_same(pairs, np.arange(n, dtype=np.float64), lo, hi)
    assert (f.loop_report()[0]["ran"] == "kernel") == parallel


def rotate(a, b):
    for i in range(a.shape[0]):
        b[i - 1] = a[i] * 2.0


def reversed_copy(x, out):
    for i in range(x.shape[0]):
        out[-1 - i] = x[i]


@pytest.mark.parametrize("n", [1, 2, 10, 5001])
def test_wrapping_within_the_axis_stays_parallel(n):
    x = np.random.default_rng(n).standard_normal(n)
    for fn in (rotate, reversed_copy):
        f = jit_same(fn, x, np.zeros(n))
        assert f.loop_report()[0]["ran"] == "kernel"


def rows(x, out, m):
    n = x.shape[0]
    for i in range(n):
        for j in range(m):
            out[i * m + j] = x[i, j] + 1.0


@pytest.mark.parametrize("m", [0, 1, 6])
def test_flat_rows(m):
    x = np.random.default_rng(m).standard_normal((5, 6))
    jit_same(rows, x, np.zeros(30), m)


def offset_from_array(x, out, off):
    for i in range(x.shape[0]):
        out[off[0] + i] = x[i]


@pytest.mark.parametrize("o", [0, 3, -10])
def test_index_read_from_an_array_runs_in_order(o):
    x = np.arange(10.0)
    f = jit_same(offset_from_array, x, np.zeros(20), np.array([o]))
    assert f.loop_report()[0]["ran"].startswith("kernel (one thread")


def test_prange_is_the_users_word():
    def g(a, lo, hi):
        for i in ng.prange(lo, hi):
            a[i] = a[i] * 3.0

    a = np.arange(10.0)
    f = jit_same(g, a, -5, 5)
    assert f.loop_report()[0]["ran"] == "kernel"


def inner_twice(a, lo, hi):
    n = a.shape[0]
    for i in range(n):
        for j in range(lo, hi):
            a[i, j] = a[i, j] + 1.0


@pytest.mark.parametrize("lo,hi", [(-8, 8), (-3, 3), (0, 8), (-8, 0)])
def test_inner_loop_across_zero(lo, hi):
    # the inner loop is not folded into the parallel one (its indices are not
    # checked there): each row in order, every element of a row twice when
    # the range crosses zero
    a = np.zeros((300, 8))
    f = jit_same(inner_twice, a, lo, hi)
    assert f.loop_report()[0]["kind"] == "parallel"
    assert not f.loop_report()[1]["collapsed"]


def flat_plus(a, b):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            b[i * m + j] = a[i, j]


def test_flat_index_checked_by_the_outer_loop_keeps_the_inner_one_collapsed():
    a = np.random.default_rng(0).standard_normal((20, 7))
    f = jit_same(flat_plus, a, np.zeros(140))
    assert f.loop_report()[1]["collapsed"]
