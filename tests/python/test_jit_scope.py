"""Names in a compiled loop resolve as Python resolves them (LEGB): the
function's locals, then the enclosing functions' cells (a closure), then the
module's globals, then builtins. A closure's free variable is never the
module global of its name, and a cell the enclosing function rebinds later
(nonlocal) is read anew at each call. Each case against the plain function."""
import numpy as np

import numgpu

# module globals that share their names with the closures' free variables below
scale_k = 100.0
scale_out = np.zeros(3)
shift = 7


def make_scale(scale_k, scale_out):
    def scale(x):
        for i in range(len(x)):
            scale_out[i] = x[i] * scale_k
    return scale


def test_closure_shadows_global():
    x = np.arange(3.0)
    want = np.zeros(3)
    make_scale(2.0, want)(x)
    mine = np.zeros(3)
    f = numgpu.jit(make_scale(2.0, mine))
    f(x)
    np.testing.assert_array_equal(mine, want)
    np.testing.assert_array_equal(scale_out, np.zeros(3))  # the global is not written
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


def make_sum(k):
    def total(x):
        s = 0.0
        for i in range(len(x)):
            s += x[i] * k
        return s
    return total


def test_closure_without_global_compiles():
    x = np.arange(5.0)
    f = numgpu.jit(make_sum(3.0))
    assert f(x) == make_sum(3.0)(x)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


def make_counter():
    step = 1

    def add(x):
        for i in range(len(x)):
            x[i] += step + shift

    def set_step(v):
        nonlocal step
        step = v
    return add, set_step


def test_rebound_cell_is_read_at_each_call():
    add, set_step = make_counter()
    f = numgpu.jit(add)
    x = np.zeros(4)
    f(x)
    set_step(10)
    f(x)
    add2, set_step2 = make_counter()
    want = np.zeros(4)
    add2(want)
    set_step2(10)
    add2(want)
    np.testing.assert_array_equal(x, want)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()


def make_late():
    def g(x):
        for i in range(len(x)):
            x[i] = late
    late = 5.0  # bound after g is made: g reads it at its call
    return g


def test_cell_bound_after_def():
    f = numgpu.jit(make_late())
    x = np.zeros(3)
    f(x)
    np.testing.assert_array_equal(x, np.full(3, 5.0))


def make_unbound():
    def g(x):
        for i in range(len(x)):
            x[i] = never
    if False:
        never = 1.0
    return g


def test_empty_cell_raises_nameerror():
    f = numgpu.jit(make_unbound())
    try:
        f(np.zeros(2))
    except NameError as e:
        assert "never" in str(e)
    else:
        raise AssertionError("no NameError")


def read_shift(x):
    for i in range(len(x)):
        x[i] = shift


def test_global_rebound_between_calls():
    global shift
    f = numgpu.jit(read_shift)
    x = np.zeros(2)
    f(x)
    assert x[0] == 7
    shift = 9
    try:
        f(x)
        assert x[0] == 9
    finally:
        shift = 7
