"""How @numgpu.jit functions are called and what they may reach (python/numgpu/jit.py): methods,
recursion, lambdas, the errors of a bad call, and arrays reached through an object between loops
(which keep a NumPy argument from staying on the device). Compared with plain Python."""
import types

import numpy as np
import pytest

import numgpu
from helpers import jit_same


@numgpu.jit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@numgpu.jit
def tree_sum(x, lo, hi):
    if hi - lo <= 8:
        s = 0.0
        for i in range(lo, hi):
            s += x[i]
        return s
    mid = (lo + hi) // 2
    return tree_sum(x, lo, mid) + tree_sum(x, mid, hi)


def test_recursion_reads_the_function_global():
    # (the host plan bound the function's own name to an empty cell: NameError)
    assert fib(15) == 610
    x = np.random.default_rng(0).random(100)
    assert abs(tree_sum(x, 0, 100) - x.sum()) < 1e-12


class Rod:
    def __init__(self, k):
        self.k = k

    @numgpu.jit
    def step(self, u, out):
        k = self.k
        for i in range(1, len(u) - 1):
            out[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1])
        return out


def test_methods_bind_self():
    u = np.random.default_rng(1).random(50)
    want = Rod.step.__wrapped__(Rod(0.25), u, np.zeros(50))
    got = Rod(0.25).step(u, np.zeros(50))
    np.testing.assert_array_equal(got, want)
    assert Rod.step.loop_report()[0]["kind"] == "parallel"


def test_a_lambda_runs_as_python_without_a_warning(recwarn):
    f = numgpu.jit(lambda v: v * 2 + 1)
    assert f(3) == 7 and f(np.arange(3)).tolist() == [1, 3, 5]
    assert not [w for w in recwarn if "numgpu" in str(w.message)]
    assert f.loop_report() == []


def scale(x, out):
    for i in range(len(x)):
        out[i] = 2 * x[i]


def test_a_bad_call_says_what_python_says():
    with pytest.raises(TypeError) as plain:
        scale(np.ones(3))
    with pytest.raises(TypeError) as jitted:
        numgpu.jit(scale)(np.ones(3))
    assert str(jitted.value) == str(plain.value)   # ("scale() missing ...", no inner scope's name)


state = types.SimpleNamespace(u=None)
cfg = {"dt": 0.5}


def relax(u, steps, energy):
    n = len(u)
    for t in range(steps):
        for i in range(n):
            u[i] = u[i] * cfg["dt"] + 1.0
        energy[t] = np.sum(state.u)   # (the same array, reached through an object)
    return u


def test_arrays_reached_through_an_object_between_loops():
    # a NumPy argument only loops touch stays on a GPU between them; code between the loops
    # reading it through an attribute read stale host memory (energies all 0 on OpenCL)
    for f in (relax, numgpu.jit(relax)):
        u = np.zeros(1000)
        state.u = u
        e = np.zeros(5)
        f(u, 5, e)
        if f is relax:
            want_e, want_u = e.copy(), u.copy()
    np.testing.assert_array_equal(e, want_e)
    np.testing.assert_array_equal(u, want_u)
    assert want_e.tolist() == [1000.0, 1500.0, 1750.0, 1875.0, 1937.5]


def test_plain_configs_still_keep_arrays():
    jit_same(relax_plain, np.zeros(300), 4, np.zeros(4))


def relax_plain(u, steps, energy):
    for t in range(steps):
        for i in range(len(u)):
            u[i] = u[i] * cfg["dt"] + 1.0
        energy[t] = t * 2
    return u


@numgpu.jit
def sq(v):
    return v * v


@numgpu.jit(boundscheck=True)
def cube(v):
    return v * v * v


def powers(x, out):
    for i in range(len(x)):
        out[i] = sq(x[i]) + cube(x[i])
    return out


def test_jit_helpers_are_inlined():
    # a loop calling another @numgpu.jit function ran as Python ("is decorated (not inlined)")
    x = np.random.default_rng(2).random(1000)
    f = jit_same(powers, x, np.zeros(1000))
    assert f.loop_report()[0]["kind"] == "parallel" and f.loop_report()[0]["ran"] == "kernel"
