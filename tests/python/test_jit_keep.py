"""@numgpu.jit keeps a NumPy argument on the device between the loops of one
call when the function's own code never touches its elements between them:
uploaded once, written back once (on a device that is not host-visible; on
cpu the loops work on the NumPy memory itself). Every case is compared with
plain Python, including those where Python code reads or writes the array
between loops, a loop that runs as Python, aliasing and an exception."""
import numpy as np
import pytest

import numgpu
from numgpu import _core, jit

COPIES = _core.jit_keeps_arrays()  # the device copies NumPy arguments


def transfers(f, *args):
    before = numgpu.stats()
    out = f(*args)
    after = numgpu.stats()
    return out, after["uploads"] - before["uploads"], after["downloads"] - before["downloads"]


def transfer_bytes(f, *args):
    before = numgpu.stats()
    out = f(*args)
    after = numgpu.stats()
    return out, after["upload_bytes"] - before["upload_bytes"], after["download_bytes"] - before["download_bytes"]


def heat(u, v, steps, alpha):
    n, m = u.shape
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = u[i, j] + alpha * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - 4.0 * u[i, j])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = v[i, j]
    return u


def grid(n=40, m=33):
    return np.random.default_rng(0).random((n, m))


def test_time_steps_upload_once_and_write_back_once():
    u, v = grid(), np.zeros((40, 33))
    pu, pv = u.copy(), v.copy()
    want = heat(pu, pv, 12, 0.1)
    got, up, down = transfer_bytes(jit(heat), u, v, 12, 0.1)
    assert got is u  # the caller's own array, updated in place
    np.testing.assert_allclose(u, pu, rtol=1e-12)
    np.testing.assert_allclose(v, pv, rtol=1e-12)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # the arrays once each way (24 launches); besides them only each launch's check of its store's
    # range (v[i, j] over u's shape): an 8-byte cell checked before the loop, or where a 2-d
    # launch checks it at each store, the 32-byte error array
    arrays = u.nbytes + v.nbytes if COPIES else 0
    assert arrays <= up <= arrays + 32 * 24 and arrays <= down <= arrays + 32 * 24, (up, down)


def read_between(x, y):
    n = len(x)
    for i in range(n):
        x[i] = x[i] * 2.0
    first = x[0] + x[n - 1]  # the function reads x between its loops
    for i in range(n):
        y[i] = x[i] + first
    return first


def write_between(x, y):
    for i in range(x.shape[0]):
        x[i] += 1.0
    x[3] = -5.0  # and writes it
    for i in range(x.shape[0]):
        y[i] = x[i] * 3.0


def python_loop_between(x, y, out):
    for i in range(x.shape[0]):
        x[i] = x[i] + 1.0
    seen = []
    for i in range(x.shape[0]):  # a list: this loop stays Python, on the NumPy array
        seen.append(x[i])
    for i in range(x.shape[0]):
        y[i] = x[i] * 2.0
    out[0] = len(seen)
    return sum(seen)


@pytest.mark.parametrize("fn", [read_between, write_between, python_loop_between])
def test_python_between_loops_sees_and_makes_the_current_values(fn):
    n = 5000
    x, y, out = np.arange(n, dtype=np.float64), np.zeros(n), np.zeros(1)
    args = (x, y, out) if fn is python_loop_between else (x, y)
    plain = [a.copy() for a in args]
    want = fn(*plain)
    got = jit(fn)(*args)
    assert got == want
    for a, p in zip(args, plain):
        np.testing.assert_array_equal(a, p)


def twice(x, y):
    for i in range(x.shape[0]):
        y[i] = x[i] + 1.0
    for i in range(x.shape[0]):
        x[i] = y[i] * 2.0


def stencil(a, b):
    for i in range(1, a.shape[0] - 1):
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]


def test_a_stencil_given_one_numpy_array_twice_runs_as_python():
    """The same NumPy array (or overlapping views of one) as a stencil's input and output: the
    loop's iterations then depend on each other, and the result must be Python's in-place
    sweep. On cpu NumPy arrays are wrapped without a copy, each in a buffer of its own, and the
    launch's overlap check compared buffers: it ran the sweep in parallel (0.02 off)."""
    x = np.random.default_rng(0).random(100000)
    for views in (lambda v: (v, v), lambda v: (v[1:], v[:-1]), lambda v: (v[::2], v[::2])):
        want, got = x.copy(), x.copy()
        stencil(*views(want))
        jit(stencil)(*views(got))
        np.testing.assert_array_equal(got, want)


def test_the_same_array_twice_and_overlapping_views():
    a = np.arange(1000, dtype=np.float64)
    b = a.copy()
    jit(twice)(a, a)  # aliased: each launch on the current values
    twice(b, b)
    np.testing.assert_array_equal(a, b)
    c = np.arange(1001, dtype=np.float64)
    d = c.copy()
    jit(twice)(c[1:], c[:-1])
    twice(d[1:], d[:-1])
    np.testing.assert_array_equal(c, d)


G = np.zeros(100)


def uses_global(x):
    for i in range(x.shape[0]):
        x[i] = i * 1.5
    s = G[10]  # the same array as x, by another name
    for i in range(x.shape[0]):
        x[i] = x[i] + s
    return s


def test_an_argument_that_is_also_a_global():
    G[:] = 0.0
    want = uses_global(G.copy())  # a copy: G[10] stays 0
    G[:] = 0.0
    got = jit(uses_global)(G)
    assert got == 15.0 and want == 0.0  # (Python on G itself reads 15.0)
    G[:] = 0.0
    assert uses_global(G) == got


class Boom(Exception):
    pass


def fails_after_a_loop(x, bad):
    for i in range(x.shape[0]):
        x[i] = x[i] * 10.0
    if bad:
        raise Boom("after the first loop")
    for i in range(x.shape[0]):
        x[i] = 0.0


def test_an_exception_still_writes_back():
    x = np.arange(50, dtype=np.float64)
    with pytest.raises(Boom):
        jit(fails_after_a_loop)(x, True)
    np.testing.assert_array_equal(x, np.arange(50) * 10.0)


def container_arg(x, parts):
    for i in range(x.shape[0]):
        x[i] = x[i] + 1.0
    parts[0][0] = 100.0  # an array reached through a list
    for i in range(x.shape[0]):
        x[i] = x[i] * 2.0


def test_an_array_inside_a_container_argument():
    x = np.zeros(20)
    jit(container_arg)(x, [x])
    y = np.zeros(20)
    container_arg(y, [y])
    np.testing.assert_array_equal(x, y)


def object_between(x, h, y):
    for i in range(x.shape[0]):
        x[i] = x[i] + 1.0
    for i in range(x.shape[0]):  # object: compiled, but it runs as Python when it meets the dtype
        h[i] = x[i] * 0.5
    for i in range(x.shape[0]):
        y[i] = x[i] * 2.0 + h[i].real


def test_a_loop_that_runs_as_python_sees_the_kept_arrays():
    n = 3000
    args = (np.arange(n, dtype=np.float64), np.zeros(n, dtype=object), np.zeros(n))
    plain = [a.copy() for a in args]
    object_between(*plain)
    f = jit(object_between)
    f(*args)
    assert f.loop_report()[1]["kind"] == "python"
    for a, p in zip(args, plain):
        np.testing.assert_array_equal(a, p)


# ---- ways to reach a kept array without naming it (each must see current values) ----

GA = np.zeros(8)
GA_VIEW = GA[:]
GB = np.zeros(8)
GB_VIEW = GB[:]
GK = np.zeros(4)
GD = np.zeros(4)


def view_read_in_a_loop(a, out):
    for i in range(a.shape[0]):
        a[i] = i + 1.0
    for i in range(out.shape[0]):
        out[i] = GA_VIEW[i]  # the same memory as a, by a global view


def view_written_in_a_loop(a):
    for i in range(a.shape[0]):
        a[i] = 1.0
    for i in range(8):
        GB_VIEW[i] = GB_VIEW[i] + 10.0
    for i in range(a.shape[0]):
        a[i] = a[i] + 1.0


def _bump():
    GK[0] += 100.0


def helper_between(a):
    for i in range(a.shape[0]):
        a[i] += 1.0
    _bump()  # writes a through the global
    for i in range(a.shape[0]):
        a[i] += 1.0


def default_alias(a, b=GD):
    for i in range(a.shape[0]):
        a[i] += 1.0
    b[0] = 50.0
    for i in range(a.shape[0]):
        a[i] += 1.0


def eval_between(a):
    for i in range(a.shape[0]):
        a[i] += 1.0
    s = eval("a[0]")
    for i in range(a.shape[0]):
        a[i] += s
    return s


def nested_def_between(a):
    for i in range(a.shape[0]):
        a[i] += 1.0

    def get():
        return a
    get()[0] = 100.0
    for i in range(a.shape[0]):
        a[i] += 1.0


def reshape_between(a):
    for i in range(a.shape[0]):
        a[i] = i
    a.shape = (2, a.shape[0] // 2)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i, j] * 10 + i
    return a


def test_globals_views_helpers_defaults_eval_and_nested_defs():
    GA[:] = 0
    out = np.zeros(8)
    jit(view_read_in_a_loop)(GA, out)
    np.testing.assert_array_equal(out, np.arange(1, 9))
    GB[:] = 0
    jit(view_written_in_a_loop)(GB)
    np.testing.assert_array_equal(GB, np.full(8, 12.0))
    GK[:] = 0
    jit(helper_between)(GK)
    np.testing.assert_array_equal(GK, [102, 2, 2, 2])
    GD[:] = 0
    jit(default_alias)(GD)
    np.testing.assert_array_equal(GD, [51, 2, 2, 2])
    x = np.zeros(3)
    assert jit(eval_between)(x) == 1.0
    np.testing.assert_array_equal(x, [2, 2, 2])
    y = np.zeros(3)
    jit(nested_def_between)(y)
    np.testing.assert_array_equal(y, [101, 2, 2])
    z, w = np.zeros(200_000), np.zeros(200_000)
    np.testing.assert_array_equal(jit(reshape_between)(z), reshape_between(w))


def read_only_first(a, b):
    for i in range(b.shape[0]):
        b[i] = 2.0
    for i in range(a.shape[0]):
        a[i] = 1.0
    for i in range(b.shape[0]):
        b[i] = 3.0


def test_a_read_only_argument_fails_at_its_loop():
    ro, b = np.zeros(3), np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        jit(read_only_first)(ro, b)
    np.testing.assert_array_equal(b, [2, 2, 2])  # the loop before ran, the one after did not


def nine_sums(a):
    s1 = s2 = s3 = s4 = s5 = s6 = s7 = s8 = s9 = 0.0
    for i in range(a.shape[0]):
        s1 += a[i]
        s2 += a[i]
        s3 += a[i]
        s4 += a[i]
        s5 += a[i]
        s6 += a[i]
        s7 += a[i]
        s8 += a[i]
        s9 += a[i] * 2.0
    return s1, s2, s3, s4, s5, s6, s7, s8, s9


def test_more_reductions_than_a_plan_holds_run_in_order():
    x = np.arange(50_000, dtype=np.float64)
    f = jit(nine_sums)
    assert f(x.copy()) == nine_sums(x.copy())
    assert f.loop_report()[0]["ran"] == "kernel (one thread)"


def alias_before(A, n):
    B = A
    for i in range(n - 1):
        A[i] = B[i + 1]


def shifted_alias(A, n):
    B = A[1:]
    for i in range(n - 1):
        B[i] = A[i]


def ping_pong(a, iters):
    b = a.copy()
    for t in range(iters):
        for i in range(1, a.shape[0] - 1):
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
        a, b = b, a
    return a


def test_names_bound_to_one_array_run_as_python_and_a_ping_pong_in_parallel():
    """Names bound to views of one array before a loop: the loop is analysed as parallel and the
    launch, seeing the arrays overlap, runs it as Python (Python's answer). A ping-pong of two
    arrays (a, b = b, a between sweeps) runs its sweep as a parallel kernel - it was a kernel of
    one thread, and when the time loop's own launch fell back, Python (1000x slower)."""
    for f in (alias_before, shifted_alias):
        want, got = np.arange(50.0), np.arange(50.0)
        f(want, 50)
        jf = jit(f)
        jf(got, 50)
        np.testing.assert_array_equal(got, want)
        assert jf.loop_report()[0]["kind"] == "python"          # (as it ran: the arrays overlap)
    x = np.random.default_rng(3).random(5000)
    jf = jit(ping_pong)
    for iters in (1, 2, 5):
        np.testing.assert_array_equal(jf(x.copy(), iters), ping_pong(x.copy(), iters))
    sweep = [r for r in jf.loop_report() if r["line"] == jf.loop_report()[-1]["line"]][0]
    assert sweep["kind"] == "parallel" and sweep["ran"] == "kernel", jf.loop_report()
    g = numgpu.asarray(x)
    np.testing.assert_array_equal(numgpu.asnumpy(jf(g, 3)), ping_pong(x.copy(), 3))
