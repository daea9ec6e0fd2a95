"""@numgpu.jit loops whose result is the value of one iteration, each compared with plain Python
on real data, types of the results included, on cpu and opencl:
an argmin/argmax pair by `<=`/`>=` where no element passes (the start's own object stays),
a name assigned in the loop and read after it (the last iteration's value, or the last that
passed a test: an argmax pair on the iteration number), and the first iteration's error
where several iterations of a parallel loop fail in different ways."""
import numpy as np
import pytest

import numgpu

import math

from helpers import jit_same, python_and_jit, device_param

N = 100_003  # over the parallel threshold, odd so that threads' shares differ


@pytest.fixture(params=["cpu", "opencl"])
def device(request):
    yield from device_param(request)


def kinds(f):
    return [d["kind"] for d in f.loop_report()]


# ---- 1. argmin/argmax pairs by <= and >= (hunt 8, F2) ----

def argmax_ge(x, best, u):
    for i in range(x.shape[0]):
        if x[i] >= best:
            best = x[i]
            u = i
    return u, best


def argmin_le(x, best, u):
    for i in range(x.shape[0]):
        if x[i] <= best:
            best = x[i]
            u = i
    return u, best


def argmin_le_back(x, best, u):
    for i in range(x.shape[0] - 1, -1, -2):
        if x[i] <= best:
            best = x[i]
            u = i
    return u, best


def argmin_lt(x, best, u):
    for i in range(x.shape[0]):
        if x[i] < best:
            best = x[i]
            u = i
    return u, best


def dijkstra_le(dist, done):
    best = 1e300
    u = -1
    for i in range(dist.shape[0]):
        if not done[i] and dist[i] <= best:
            best = dist[i]
            u = i
    return u, best


@pytest.mark.parametrize("fn", [argmax_ge, argmin_le, argmin_le_back, argmin_lt])
@pytest.mark.parametrize("start", [1e300, -1e300, 2.0, np.float64(2.0), 2])
@pytest.mark.parametrize("u", [-1, -1.0])
def test_argpair_ties_keep_start(fn, start, u, device):
    rng = np.random.default_rng(5)
    n = N if device == "cpu" else 5_001
    for x in (np.zeros(0), np.full(n, np.inf), np.full(n, -np.inf), np.full(n, 2.0),
              rng.integers(0, 5, n).astype(float)):
        f = jit_same(fn, x, start, u)
    assert kinds(f) == ["parallel" if type(u) is int else "python"]  # (u = i of a float u: Python's)


def test_dijkstra_le_nothing_passes(device):
    d = np.full(50, np.inf)
    done = np.zeros(50, bool)
    f = jit_same(dijkstra_le, d, done)
    assert f(d, done) == (-1, 1e300) and type(f(d, done)[1]) is float
    d[7] = 1e300
    jit_same(dijkstra_le, d, done)


# ---- 2. a name assigned in the loop and read after it: the last assigning iteration's value ----

def last_uncond(x, out):
    t = 0.0
    for i in range(x.shape[0]):
        out[i] = x[i] + 1
        t = x[i] * 2
    return t


def last_uncond_py(x):
    t = None
    for i in range(x.shape[0]):
        t = i * 3 + 1.5
    return t


def last_cond(x):
    t = -1.0
    j = -1
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            t = x[i]
            j = i
    return t, j


def last_cond_unbound(x):
    for i in range(x.shape[0]):
        if x[i] > 0.9:
            t = x[i] - 1
    return t


def last_cond_back(x, step):
    t = 7
    for i in range(x.shape[0] - 1, -1, step):
        if x[i] < 0.2:
            t = x[i] * 3
    return t


def last_cond_int(a):
    t = 0
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
        if a[i] % 7 == 3:
            t = a[i] + i
    return t, s


def last_cond_pyint(x):
    t = -5
    for i in range(2, x.shape[0]):
        if x[i] > x[i - 1]:
            t = i * i
    return t


def last_nested(X):
    t = -1.0
    bi = -1
    bj = -1
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if X[i, j] > 0.7:
                t = X[i, j]
                bi = i
                bj = j
    return t, bi, bj


def last_rows(X, out):
    for i in range(X.shape[0]):
        t = -1.0
        for j in range(X.shape[1]):
            if X[i, j] < 0.3:
                t = X[i, j]
        out[i] = t
    return out


def last_else(x):
    t = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            pass
        else:
            t = x[i]
    return t


def last_bool(x):
    b = None
    for i in range(x.shape[0]):
        b = x[i] > 0.5
    return b


def last_mixed(x):
    t = 0
    for i in range(x.shape[0]):
        if x[i] > 0.9:
            t = 1.5 * i
    return t


def last_int32(a):
    t = np.int32(7)
    for i in range(a.shape[0]):
        if a[i] > 3:
            t = a[i]
    return t


def last_complex(z):
    t = 0j
    for i in range(z.shape[0]):
        if z[i].real > 0.5:
            t = z[i] * 2
    return t


def argmax_complex(z, w):
    best = -1.0
    for i in range(z.shape[0]):
        if abs(z[i]) > best:
            best = abs(z[i])
            w = z[i] * 1j
    return best, w


def last_complex_both(z, out):
    t = 0j
    u = np.complex64(1 + 1j)
    for i in range(z.shape[0]):
        out[i] = z[i].imag
        if z[i].imag < 0.3:
            t = z[i] + i
            u = np.complex64(z[i]) * 2
    return t, u


@pytest.fixture(params=[0, 1, 5, N])
def size(request):
    return request.param


def test_last_unconditional(size, device):
    x = np.random.default_rng(size).random(size)
    f = jit_same(last_uncond, x, np.zeros_like(x))
    g = jit_same(last_uncond_py, x)
    if size > 1:
        assert kinds(f) == ["parallel"] and kinds(g) == ["parallel"]


def test_last_conditional(size, device):
    rng = np.random.default_rng(size + 1)
    x = rng.random(size)
    f = jit_same(last_cond, x)
    jit_same(last_cond, np.zeros(size))  # (none passes: the values before the loop, their objects)
    if size > 1:
        assert kinds(f) == ["parallel"]
    for step in (-1, -2, -7):
        jit_same(last_cond_back, x, step)
        jit_same(last_cond_back, np.ones(size), step)
    a = rng.integers(0, 100, size)
    jit_same(last_cond_int, a)
    jit_same(last_cond_pyint, x)
    jit_same(last_cond_pyint, np.zeros(size))


def test_last_unbound(device):
    x = np.random.default_rng(3).random(N)
    f = jit_same(last_cond_unbound, x)
    assert kinds(f) == ["parallel"]
    with pytest.raises(UnboundLocalError):
        f(np.zeros(N))
    with pytest.raises(UnboundLocalError):
        last_cond_unbound(np.zeros(N))


def test_last_2d(device):
    rng = np.random.default_rng(4)
    for shape in ((0, 3), (1, 1), (317, 211), (5, 0)):
        X = rng.random(shape)
        f = jit_same(last_nested, X)
        jit_same(last_nested, np.zeros(shape))
        jit_same(last_rows, X, np.zeros(shape[0]))
    assert kinds(f) == ["parallel", "parallel"]  # (collapsed)
    assert f.loop_report()[0]["reductions"] == [("t", "last"), ("bi", "last"), ("bj", "last")]


def test_last_else_branch(device):
    x = np.random.default_rng(6).random(N)
    f = jit_same(last_else, x)
    assert kinds(f) == ["parallel"]


# ---- 3. several iterations fail: the first one's error, whatever its kind (hunt 8, F3) ----

def recip_int(x, out):
    for i in range(x.shape[0]):
        out[i] = 1.0 / int(x[i])


def recip_int_back(x, out):
    for i in range(x.shape[0] - 1, -1, -1):
        out[i] = 1.0 / int(x[i])


def sqrt_then_div(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i]) + 1.0 / int(x[i] + 0.5)


def to_int(x, out):
    for i in range(x.shape[0]):
        out[i] = int(x[i])


def grid(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[i, j] = 1.0 / int(X[i, j])


def test_first_error_repro(device):
    x = np.array([np.nan, 1.0, 1.0, 0.0])
    py, jit, f = python_and_jit(recip_int, x, np.zeros(4))
    assert py[0] is ValueError and jit == py
    py, jit, f = python_and_jit(to_int, np.array([1.0, np.nan, 1e300]), np.zeros(3, np.int64))
    assert py[0] is ValueError and jit == py
    py, jit, f = python_and_jit(to_int, np.array([1.0, 1e300, np.nan]), np.zeros(3, np.int64))
    assert py[0] is OverflowError and jit[0] is py[0]  # (in numgpu's words: an int64 overflows)


@pytest.mark.parametrize("fn", [recip_int, recip_int_back, sqrt_then_div])
def test_first_error_random(fn, device):
    rng = np.random.default_rng(11)
    n = N if device == "cpu" else 20_001
    for trial in range(6):
        x = rng.random(n) * 10 + 1
        for bad in (np.nan, 0.0, -4.0, np.inf):
            x[rng.integers(0, n, 2)] = bad  # (each kind twice, anywhere)
        py, jit, f = python_and_jit(fn, x, np.zeros(n))
        assert py[0] is not None and jit == py, (trial, py, jit)
    assert kinds(f) == ["parallel"]
    x = rng.random(n) + 1  # (the no-error path)
    py, jit, f = python_and_jit(fn, x, np.zeros(n))
    assert jit == py == ("ok", "")


def test_first_error_2d(device):
    rng = np.random.default_rng(12)
    for trial in range(4):
        X = rng.random((301, 67)) * 5 + 1
        X[rng.integers(0, 301), rng.integers(0, 67)] = 0.0
        X[rng.integers(0, 301), rng.integers(0, 67)] = np.nan
        py, jit, f = python_and_jit(grid, X, np.zeros(X.shape))
        assert jit == py, (trial, py, jit)


def test_last_types(size, device):
    rng = np.random.default_rng(size + 7)
    x = rng.random(size)
    for fn, args in ((last_bool, (x,)), (last_mixed, (x,)), (last_mixed, (np.zeros(size),)),
                     (last_int32, (rng.integers(0, 6, size).astype(np.int32),)),
                     (last_int32, (np.zeros(size, np.int32),)), (last_complex, (x + 1j * x[::-1],)),
                     (last_complex, (np.zeros(size, complex),))):
        f = jit_same(fn, *args)
        if size > 1:
            assert kinds(f) == ["parallel"], fn
            ran = f.loop_report()[0]["ran"]
            assert ran.startswith("kernel") and "one thread" not in ran, ran


def test_complex_companions(size, device):
    """Complex values carried by an argmax pair or as the last iteration's (in parallel: their
    cells written part by part on GPUs), complex64 and complex128, None or a Python complex before."""
    rng = np.random.default_rng(size + 9)
    z = rng.random(size) + 1j * rng.random(size)
    for w in (None, 2j, np.complex64(3)):
        f = jit_same(argmax_complex, z, w)
        jit_same(argmax_complex, z.astype(np.complex64), w)
    g = jit_same(last_complex_both, z, np.zeros(size))
    jit_same(last_complex_both, np.ones(size) + 1j, np.zeros(size))  # (none passes)
    if size > 1:
        for h in (f, g):
            assert kinds(h) == ["parallel"]
            ran = h.loop_report()[0]["ran"]
            assert ran.startswith("kernel") and "one thread" not in ran, ran


# ---- 4. a last value also read in its own iteration, after it is assigned (2026-12-07) ----

def read_uncond(x, y):
    t = 0.0
    for i in range(x.shape[0]):
        t = x[i] * 2
        y[i] = t + 1
    return t


def read_chain(x, y):
    t = -1.0
    u = 0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            t = x[i] * 2
            u = int(t * 10) + i
            y[i] = t - u
    return t, u


def read_inner(x, out):
    t = 0
    for i in range(x.shape[0]):
        t = int(x[i] * 100)
        for j in range(out.shape[1]):
            out[i, j] = t * j + i
    return t


def read_complex(z, y):
    w = None
    for i in range(z.shape[0]):
        w = z[i] * (1 - 2j)
        y[i] = w.real * w.imag
    return w


def read_nested(X, out):
    t = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            t = X[i, j] + i
            out[i, j] = t * t
    return t


def read_before(x, y):  # (the previous iteration's t: a carried dependence, in order)
    t = 0.5
    for i in range(x.shape[0]):
        y[i] = t
        t = x[i] * 2
    return t


def read_outside_if(x, y):  # (t read where this iteration may not have assigned it: in order)
    t = 0.5
    for i in range(x.shape[0]):
        if x[i] > 0.3:
            t = x[i]
        y[i] = t
    return t


def read_in_comprehension(x, y):  # (a comprehension's own scope: left as written)
    t = 0.0
    for i in range(x.shape[0]):
        t = x[i]
        y[i] = sum([t for _ in range(2)])
    return t


def test_last_read_in_iteration(size, device, capsys):
    rng = np.random.default_rng(size + 13)
    x = rng.random(size)
    f = jit_same(read_uncond, x, np.zeros(size))
    g = jit_same(read_chain, x, np.zeros(size))
    jit_same(read_chain, np.zeros(size), np.zeros(size))  # (none passes: the starting objects)
    h = jit_same(read_inner, x, np.zeros((size, 3), np.int64))
    c = jit_same(read_complex, x + 1j * x[::-1], np.zeros(size))
    X = rng.random((size // 50 + 1, 53))
    m = jit_same(read_nested, X, np.zeros(X.shape))
    if size > 1:
        for fn in (f, g, h, c):
            assert kinds(fn)[0] == "parallel", fn
            ran = fn.loop_report()[0]["ran"]
            assert ran.startswith("kernel") and "one thread" not in ran, ran
        assert f.loop_report()[0]["reductions"] == [("t", "last")]
        assert sorted(g.loop_report()[0]["reductions"]) == [("t", "last"), ("u", "last")]
        assert kinds(m) == ["parallel", "parallel"]
        f.explain()
        assert "parallel reduce(last:t)" in capsys.readouterr().out


def test_last_read_stays_in_order(size, device):
    x = np.random.default_rng(size + 14).random(size)
    for fn in (read_before, read_outside_if):
        f = jit_same(fn, x, np.zeros(size))
        if size > 1:
            assert kinds(f) == ["sequential"], fn
    jit_same(read_in_comprehension, x, np.zeros(size))


def read_raises(x, y):
    t = 0.0
    for i in range(x.shape[0]):
        u = x[i] + 1
        t = math.sqrt(x[i])
        y[i] = t + u
    return t, u


def test_last_read_raises_at_its_line(device):
    """A value of the run that raises (renamed: __ng_lvN_t = math.sqrt(x[i])) raises at its own
    line, the first failing iteration's error, after the loop ran as a kernel."""
    x = np.ones(N)
    f = jit_same(read_raises, x, np.zeros(N))
    assert kinds(f) == ["parallel"] and f.loop_report()[0]["ran"] == "kernel"
    x[70_000], x[90_000] = -1.0, -2.0
    lines = []
    for g in (read_raises, f):
        with pytest.raises(ValueError, match="math domain error") as info:
            g(x, np.zeros(N))
        lines.append(info.traceback[-1].lineno)
    assert lines[0] == lines[1]


def reused_temp(x, y):
    """t reused by the next loop, which assigns it before reading it, then rebound: nothing to
    carry from either loop (a ranked reduction would cost them their vector lanes)."""
    for i in range(x.shape[0]):
        t = x[i] * 2
        y[i] = t
    for i in range(x.shape[0]):
        t = x[i] + 1
        y[i] += t * t
    t = 0.5
    return y, t


def reused_then_read(x, y):
    """... but read after the second loop: which may run no iteration, so the first loop's t
    may be the one read: both carry it."""
    for i in range(x.shape[0]):
        t = x[i] * 2
        y[i] = t
    for i in range(x.shape[0] // 2):
        t = x[i] + 1
        y[i] += t * t
    return t


def closure_reads(x, y):
    g = lambda: t  # noqa: E731  (reads t whenever it is called: after the loop)
    for i in range(x.shape[0]):
        t = x[i] * 2
        y[i] = t
    return g()


def test_last_value_only_where_read_after(device):
    x = np.random.default_rng(21).random(N)
    f = jit_same(reused_temp, x, np.zeros(N))
    rep = f.loop_report()
    assert [r["kind"] for r in rep] == ["parallel", "parallel"]
    assert rep[0]["reductions"] == [] and rep[1]["reductions"] == [], rep
    for n in (N, 1):
        f = jit_same(reused_then_read, x[:n], np.zeros(n))
    assert [r["reductions"] for r in f.loop_report()] == [[("t", "last")], [("t", "last")]]
    g = jit_same(closure_reads, x, np.zeros(N))
    assert g.loop_report()[0]["reductions"] == [("t", "last")]
