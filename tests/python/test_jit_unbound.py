"""A name a loop reads before anything bound it raises Python's
UnboundLocalError (NameError for a global), never a stale or garbage value:
bound in one branch only, only in an inner loop that may run no iteration, a
loop variable read after a loop of no iteration. Where the name was bound
before the loop (or by an earlier iteration), its value carries, as in
Python. Each case against the plain function."""
import numpy as np
import pytest

import numgpu


def _outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 (the type is compared)
        return ("exc", type(e))


def _same(fn, mk):
    a, b = mk(), mk()
    want = _outcome(fn, a)
    jf = numgpu.jit(fn)
    got = _outcome(jf, b)
    assert got == want
    for w, g in zip(a, b):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
    return jf, want


def one_branch(x, out):
    for i in range(len(x)):
        if x[i] > 0:
            v = x[i] * 2
        out[i] = v


def one_branch_index(x, out):
    for i in range(len(x)):
        if x[i] > 0:
            k = i
        out[k] = 1.0


def one_branch_before(x, out):
    v = -5.0
    for i in range(len(x)):
        if x[i] > 0:
            v = x[i] * 2
        out[i] = v


def inner_only(x, m, out):
    for i in range(len(x)):
        for j in range(m[i]):
            t = x[i] * j
        out[i] = t


def inner_only_before(x, m, out):
    t = -1.0
    for i in range(len(x)):
        for j in range(m[i]):
            t = x[i] * j
        out[i] = t


def loop_var_after(x, out):
    for i in range(len(x)):
        for j in range(i):
            pass
        out[i] = j


def walrus_in_or(x, out):
    for i in range(len(x)):
        if x[i] > 0 or (w := x[i] * 3) > 0:
            pass
        out[i] = w


def sum_unbound(x):
    for i in range(len(x)):
        s += x[i]  # noqa: F821
    return s


@pytest.mark.parametrize("x", [[-1.0, 1.0], [1.0, -1.0, 2.0], [2.0, 3.0]])
def test_one_branch(x):
    _same(one_branch, lambda: (np.array(x), np.zeros(len(x))))
    _same(one_branch_index, lambda: (np.array(x), np.zeros(len(x))))


def test_one_branch_raises_before_any_store():
    jf, want = _same(one_branch, lambda: (np.array([-1.0, 1.0]), np.zeros(2)))
    assert want == ("exc", UnboundLocalError)


def test_bound_before_carries():
    jf, _ = _same(one_branch_before, lambda: (np.array([-1.0, 1.0, -2.0, 3.0]), np.zeros(4)))
    assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


@pytest.mark.parametrize("m", [[1, 0, 2, 0, 3], [0, 0, 2, 0, 3], [0, 0, 0, 0, 0]])
def test_inner_loop_only(m):
    _same(inner_only, lambda: (np.arange(5.0), np.array(m), np.zeros(5)))
    jf, _ = _same(inner_only_before, lambda: (np.arange(5.0), np.array(m), np.zeros(5)))
    assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


def test_loop_variable_of_empty_loop():
    jf, want = _same(loop_var_after, lambda: (np.arange(4.0), np.zeros(4)))
    assert want == ("exc", UnboundLocalError)


def test_walrus_in_short_circuit():
    _same(walrus_in_or, lambda: (np.array([-1.0, 1.0]), np.zeros(2)))
    _same(walrus_in_or, lambda: (np.array([1.0, -1.0]), np.zeros(2)))


def test_augmented_unbound():
    _same(sum_unbound, lambda: (np.arange(3.0),))
