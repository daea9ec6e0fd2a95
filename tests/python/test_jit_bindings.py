"""A function called in a compiled loop is the object its name is bound to when
the loop runs, as in Python: a def redefined later in the module (the last one
wins), a name rebound to another function or to an imported one, a def nested
in the function shadowing a module-level def of its name, a builtin shadowed
by a local or a global. The loop compiles the def Python calls, or runs as
Python when the binding is not a def of the source the loop was compiled from;
each launch checks the binding anew. Each case against the plain function."""
import math

import numpy as np

import numgpu


def _ran(f):
    return [r["ran"] for r in f.loop_report()]


def _same(fn, mk):
    want_args, got_args = mk(), mk()
    want = fn(*want_args)
    jf = numgpu.jit(fn)
    got = jf(*got_args)
    assert got == want
    for w, g in zip(want_args, got_args):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
    return jf


# -- a def redefined: the second one is what Python calls
def redef(v):
    return v + 1


def redef(v):  # noqa: F811
    return v * 10


def use_redef(x, out):
    for i in range(len(x)):
        out[i] = redef(x[i])


def test_redefined_def_is_the_last():
    jf = _same(use_redef, lambda: (np.arange(5.0), np.zeros(5)))
    assert _ran(jf)[0].startswith("kernel"), jf.loop_report()


# -- a name rebound to another def
def rebound(v):
    return v + 1


def other(v):
    return v - 1


rebound = other  # noqa: F811


def use_rebound(x, out):
    for i in range(len(x)):
        out[i] = rebound(x[i])


def test_rebound_name():
    jf = _same(use_rebound, lambda: (np.arange(5.0), np.zeros(5)))
    assert "bound to another object" in _ran(jf)[0], jf.loop_report()


# -- a name rebound by an import
def imported(v):
    return v + 1


from math import sqrt as imported  # noqa: E402,F811


def use_imported(x, out):
    for i in range(len(x)):
        out[i] = imported(x[i])


def test_imported_name():
    _same(use_imported, lambda: (np.arange(5.0), np.zeros(5)))


# -- a nested def shadows the module's def of its name
def g(v):
    return v + 1


def nested_shadow(x, out):
    def g(v):
        return v * 10
    for i in range(len(x)):
        out[i] = g(x[i])


def test_nested_def_shadows_module_def():
    jf = _same(nested_shadow, lambda: (np.array([1.0, 2.0]), np.zeros(2)))
    assert _ran(jf)[0].startswith("kernel"), jf.loop_report()


# -- builtins shadowed
def local_max(x, out):
    max = min
    for i in range(len(x)):
        out[i] = max(x[i], 0.0)


def test_local_shadows_builtin():
    _same(local_max, lambda: (np.array([-1.0, 2.0]), np.zeros(2)))


def abs(v):  # noqa: A001 (a global shadowing the builtin)
    return -v


def global_abs(x, out):
    for i in range(len(x)):
        out[i] = abs(x[i])


def test_global_shadows_builtin():
    _same(global_abs, lambda: (np.array([-1.0, 2.0]), np.zeros(2)))


# -- the binding changes between calls: checked at each launch
def step(v):
    return v + 1


def twice(v):
    return v * 2


def use_step(x, out):
    for i in range(len(x)):
        out[i] = step(x[i])


def test_rebinding_between_calls():
    global step
    jf = numgpu.jit(use_step)
    x, out = np.arange(4.0), np.zeros(4)
    jf(x, out)
    np.testing.assert_array_equal(out, x + 1)
    assert _ran(jf)[0].startswith("kernel")
    saved = step
    try:
        step = twice
        jf(x, out)
        np.testing.assert_array_equal(out, x * 2)
        step = math.floor
        jf(x + 0.5, out)
        np.testing.assert_array_equal(out, x)
    finally:
        step = saved
    jf(x, out)
    np.testing.assert_array_equal(out, x + 1)
    assert _ran(jf)[0].startswith("kernel")


# -- a helper's own calls resolve in its scope, and are checked too
def inner(v):
    return v + 1


def outer(v):
    return inner(v) * 3


def use_outer(x, out):
    for i in range(len(x)):
        out[i] = outer(x[i])


def test_helper_of_helper_rebound():
    global inner
    jf = numgpu.jit(use_outer)
    x, out = np.arange(4.0), np.zeros(4)
    jf(x, out)
    np.testing.assert_array_equal(out, (x + 1) * 3)
    assert _ran(jf)[0].startswith("kernel")
    saved = inner
    try:
        inner = twice
        jf(x, out)
        np.testing.assert_array_equal(out, x * 6)
        assert "bound to another object" in _ran(jf)[0]
    finally:
        inner = saved


# -- a helper deleted: Python's NameError
def gone(v):
    return v


def use_gone(x, out):
    for i in range(len(x)):
        out[i] = gone(x[i])


def test_unbound_helper_raises_name_error():
    global gone
    jf = numgpu.jit(use_gone)
    saved = gone
    del gone
    try:
        try:
            jf(np.arange(3.0), np.zeros(3))
        except NameError:
            pass
        else:
            raise AssertionError("no NameError")
    finally:
        gone = saved
