"""@numgpu.jit reductions written in other common ways, each compared with plain Python on
real data (NaN, signed zeros and ties included) and checked to run in parallel:
a max/min by a conditional expression (`m = x[i] if x[i] > m else m`), a flag set under a
condition in a loop that also stores (`changed = True`), the last iteration that passes a
test (`if x[i] > t: last = i`), an argmin under a second condition (Dijkstra's
`if not done[i] and dist[i] < best: best = dist[i]; u = i`), and a max or min into an element by
comparison (the column maximum `if X[i, j] > out[j]: out[j] = X[i, j]`: an atomic update)."""
import math

import numpy as np
import pytest

import numgpu as ng

from helpers import jit_same

N = 100_003  # over the parallel threshold, odd so that threads' shares differ


def kinds(f):
    """The loops' kinds, "parallel" only where the loop also ran as a parallel kernel."""
    out = []
    for d in f.loop_report():
        ran = d["ran"] or ""
        out.append(d["kind"] if d["kind"] != "parallel" or ran.startswith("kernel") and "one thread" not in ran
                   else "parallel, but ran: " + ran)
    return out


# ---- 1. max/min by a conditional expression ----

def tern_max(x):
    m = -math.inf
    for i in range(len(x)):
        m = x[i] if x[i] > m else m
    return m


def tern_max_ge(x):
    m = -math.inf
    for i in range(len(x)):
        m = x[i] if x[i] >= m else m
    return m


def tern_max_reversed(x):
    m = -math.inf
    for i in range(len(x)):
        m = x[i] if m < x[i] else m
    return m


def tern_min(x):
    m = math.inf
    for i in range(len(x)):
        m = x[i] if x[i] < m else m
    return m


def tern_min_le_from(x, m):
    for i in range(len(x)):
        m = x[i] if m >= x[i] else m
    return m


def tern_keep_first(x):
    """m = m if m > x[i] else x[i]: x[i] unless m > x[i], Python's max(x[i], m)."""
    m = -math.inf
    for i in range(len(x)):
        m = m if m > x[i] else x[i]
    return m


def tern_int_max(x):
    m = 0
    for i in range(len(x)):
        m = m if m > x[i] else x[i]
    return m


def tern_int_min(x):
    m = x[0]
    for i in range(len(x)):
        m = x[i] if x[i] <= m else m
    return m


def tern_with_store(x, y):
    m = -1.0
    for i in range(len(x)):
        y[i] = x[i] * 2.0
        m = y[i] if y[i] > m else m
    return m


TERN_PAR = [tern_max, tern_max_ge, tern_max_reversed, tern_min, tern_with_store]


@pytest.mark.parametrize("fn", TERN_PAR)
def test_ternary_max_min_is_parallel(fn):
    x = np.random.default_rng(1).standard_normal(N)
    args = (x, np.zeros(N)) if fn is tern_with_store else (x,)
    f = jit_same(fn, *args)
    assert kinds(f) == ["parallel"]


@pytest.mark.parametrize("fn", TERN_PAR)
def test_ternary_nan_and_signed_zero(fn):
    rng = np.random.default_rng(2)
    x = rng.standard_normal(N)
    x[rng.integers(0, N, 50)] = np.nan
    x[0] = np.nan
    args = (x, np.zeros(N)) if fn is tern_with_store else (x,)
    jit_same(fn, *args)
    z = np.where(rng.random(N) < 0.5, 0.0, -0.0)  # only zeros: which one stays is Python's first/last
    args = (z, np.zeros(N)) if fn is tern_with_store else (z,)
    jit_same(fn, *args)


@pytest.mark.parametrize("start", [0.5, 10.0, -10.0, np.nan])
def test_ternary_min_from_a_start(start):
    x = np.random.default_rng(3).standard_normal(N)
    f = jit_same(tern_min_le_from, x, np.float64(start))
    assert kinds(f) == ["parallel"]


def test_ternary_keeping_the_first_runs_in_order_for_floats():
    """max(x[i], m): after a NaN the next value replaces it; only the loop in order gives that."""
    x = np.random.default_rng(4).standard_normal(N)
    x[::997] = np.nan
    jit_same(tern_keep_first, x)
    jit_same(tern_keep_first, np.where(np.arange(N) % 3 == 0, 0.0, -0.0))


@pytest.mark.parametrize("fn", [tern_int_max, tern_int_min])
def test_ternary_ints_parallel(fn):
    x = np.random.default_rng(5).integers(-10**9, 10**9, N)
    f = jit_same(fn, x)
    assert kinds(f) == ["parallel"]


# ---- 4. argmin under another condition (Dijkstra's selection) ----

def nearest_unvisited(dist, done):
    u = -1
    best = math.inf
    for i in range(len(dist)):
        if not done[i] and dist[i] < best:
            best = dist[i]
            u = i
    return u, best


def nearest_unvisited_after(dist, done):
    u = -1
    best = math.inf
    for i in range(len(dist)):
        if dist[i] <= best and done[i] == 0:
            best = dist[i]
            u = i
    return u, best


def argmax_masked(x, lo):
    k = -1
    bv = -math.inf
    for i in range(len(x)):
        if x[i] > lo and x[i] > bv:
            bv = x[i]
            k = i
    return k, bv


@pytest.mark.parametrize("fn", [nearest_unvisited, nearest_unvisited_after])
def test_dijkstra_selection(fn):
    rng = np.random.default_rng(6)
    dist = rng.integers(0, 50, N).astype(np.float64)  # many ties: the first (<) or last (<=) i
    done = rng.random(N) < 0.5
    dist[rng.integers(0, N, 30)] = np.nan
    f = jit_same(fn, dist, done)
    assert kinds(f) == ["parallel"]
    jit_same(fn, dist, np.ones(N, dtype=bool))  # none left: u stays -1
    d2 = dist.copy()
    d2[N - 1] = -1.0  # the best at the last place
    jit_same(fn, d2, done & (np.arange(N) != N - 1))
    jit_same(fn, d2, np.zeros(N, dtype=bool))


def test_masked_argmax():
    x = np.random.default_rng(7).standard_normal(N)
    f = jit_same(argmax_masked, x, 0.5)
    assert kinds(f) == ["parallel"]
    jit_same(argmax_masked, x, 100.0)


def dijkstra(W, src):
    """The whole algorithm: the selection loop runs in parallel inside the host's loop."""
    n = W.shape[0]
    dist = np.full(n, np.inf)
    done = np.zeros(n, dtype=np.bool_)
    dist[src] = 0.0
    for _ in range(n):
        u = -1
        best = math.inf
        for i in range(n):
            if not done[i] and dist[i] < best:
                best = dist[i]
                u = i
        if u < 0:
            break
        done[u] = True
        for v in range(n):
            if W[u, v] > 0 and dist[u] + W[u, v] < dist[v]:
                dist[v] = dist[u] + W[u, v]
    return dist


def test_dijkstra_whole():
    rng = np.random.default_rng(8)
    n = 300
    W = np.where(rng.random((n, n)) < 0.05, rng.integers(1, 20, (n, n)), 0).astype(np.float64)
    jit_same(dijkstra, W, 0)


# ---- 2. a flag set under a condition in a loop that also stores ----

def clamp_flag_1d(g):
    changed = False
    for i in range(len(g)):
        if g[i] < 0:
            g[i] = 0
            changed = True
    return changed


def clamp_flag_2d(G):
    n, m = G.shape
    changed = False
    for i in range(n):
        for j in range(m):
            if G[i, j] < 0:
                G[i, j] = 0
                changed = True
    return changed


def all_small(x, out):
    ok = True
    for i in range(len(x)):
        out[i] = x[i] * 2
        if x[i] > 0.999:
            ok = False
    return ok


def found_int(x, out, start):
    found = start
    for i in range(len(x)):
        out[i] = x[i] + 1
        if x[i] > 0.99:
            found = 1
    return found


def flag_float(x, out):
    hit = -2.5
    for i in range(len(x)):
        out[i] = x[i]
        if x[i] < 0.001:
            hit = 0.0
    return hit


@pytest.mark.parametrize("fn", [clamp_flag_1d, clamp_flag_2d])
def test_flag_with_stores(fn):
    rng = np.random.default_rng(10)
    G = rng.standard_normal((300, 401))
    g = G if fn is clamp_flag_2d else G.ravel().copy()
    f = jit_same(fn, g)
    assert kinds(f)[0] == "parallel"
    jit_same(fn, np.abs(g))  # nothing negative: stays False
    z = np.abs(g)
    z.flat[-1] = -1.0  # only the last
    jit_same(fn, z)


def test_flag_false_and_int_and_float():
    rng = np.random.default_rng(11)
    x = rng.random(N)
    for fn, args in [(all_small, (x, np.zeros(N))), (flag_float, (x, np.zeros(N)))]:
        f = jit_same(fn, *args)
        assert kinds(f) == ["parallel"]
        jit_same(fn, x * 0.5 + 0.1, np.zeros(N))  # no iteration assigns it
    for start in [0, 5, -7, 1]:
        f = jit_same(found_int, x, np.zeros(N), start)
        assert kinds(f) == ["parallel"]
        jit_same(found_int, x * 0.5, np.zeros(N), start)


def test_flag_keeps_its_object_where_no_iteration_assigns():
    """A NumPy bool before the loop stays that object (and type) when nothing sets the flag."""
    x = np.random.default_rng(12).random(N)
    def flag_np(x, out):
        hit = np.bool_(False)
        for i in range(len(x)):
            out[i] = x[i]
            if x[i] > 2.0:
                hit = True
        return hit
    jit_same(flag_np, x, np.zeros(N))
    jit_same(flag_np, x * 3.0, np.zeros(N))


# ---- 3. the last iteration that passes a test ----

def last_positive(x):
    last = -1
    for i in range(len(x)):
        if x[i] > 0:
            last = i
    return last


def last_from(x, last):
    for i in range(len(x)):
        if x[i] > 0.9:
            last = i
    return last


def last_backwards(x):
    last = -1
    for i in range(len(x) - 1, -1, -2):
        if x[i] > 0.9:
            last = i
    return last


def last_plus_one(x, out):
    end = 0
    for i in range(len(x)):
        out[i] = x[i] * 0.5
        if x[i] != 0:
            end = i + 1
    return end


def last_in_2d(X):
    row = -1
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if X[i, j] > 3.5:
                row = i
    return row


@pytest.mark.parametrize("fn", [last_positive, last_backwards])
def test_last_index(fn):
    rng = np.random.default_rng(13)
    x = rng.standard_normal(N)
    f = jit_same(fn, x)
    assert kinds(f) == ["parallel"]
    jit_same(fn, -np.abs(x))  # none: stays -1
    y = -np.abs(x)
    y[0] = 1.0  # only the first
    jit_same(fn, y)
    y = -np.abs(x)
    y[-1] = 1.0
    y[-2] = 1.0
    jit_same(fn, y)


@pytest.mark.parametrize("start", [-1, 10 * N, 5, -(2**62)])
def test_last_keeps_a_start_beyond_every_index(start):
    """A start larger than every i stays only when no iteration assigns: not max(start, i)."""
    x = np.random.default_rng(14).random(N)
    f = jit_same(last_from, x, start)
    assert kinds(f) == ["parallel"]
    jit_same(last_from, x * 0.5, start)


def test_last_plus_one_and_2d():
    rng = np.random.default_rng(15)
    x = np.where(rng.random(N) < 0.3, 0.0, rng.random(N))
    f = jit_same(last_plus_one, x, np.zeros(N))
    assert kinds(f) == ["parallel"]
    x[-5:] = 0.0
    jit_same(last_plus_one, x, np.zeros(N))
    X = rng.standard_normal((400, 300))
    f = jit_same(last_in_2d, X)
    assert kinds(f)[0] == "parallel"
    jit_same(last_in_2d, X * 0.1)


def last_value_read_after(x, y):
    """t = x[i] * 2.0 read after the loop and in its iteration: parallel since 2026-12-07 (in
    order before), the iteration's reads through a name of its own, the last one's value after."""
    t = 0.0
    for i in range(len(x)):
        t = x[i] * 2.0
        y[i] = t + 1.0
    return t


def last_two_values(x):
    """last = i in one place, last = i + 1 in another: which comes last is not the largest."""
    last = -1
    for i in range(len(x)):
        if x[i] > 0.5:
            last = i + 1
        if x[i] > 0.8:
            last = i
    return last


def found_unbound(x):
    for i in range(len(x)):
        if x[i] > 0.5:
            found = i
    return found


def test_last_index_not_bound_before():
    """Bound only in the loop: parallel; where no iteration assigns it Python's name stays unbound."""
    x = np.random.default_rng(17).random(N)
    f = jit_same(found_unbound, x)
    assert kinds(f) == ["parallel"]
    f = ng.jit(found_unbound)
    with pytest.raises(UnboundLocalError):
        found_unbound(x * 0.1)
    with pytest.raises(UnboundLocalError):
        f(x * 0.1)


def test_look_alikes_stay_in_order():
    x = np.random.default_rng(16).random(N)
    f = jit_same(last_value_read_after, x, np.zeros(N))
    assert kinds(f) == ["parallel"] and f.loop_report()[0]["reductions"] == [("t", "last")]
    f = jit_same(last_two_values, x)
    assert kinds(f) == ["sequential"]


# ---- 5. a max or min into an element: atomic ----

def col_max(X):
    n, m = X.shape
    out = np.full(m, -np.inf)
    for i in range(n):
        for j in range(m):
            if X[i, j] > out[j]:
                out[j] = X[i, j]
    return out


def col_min_into(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if out[j] > X[i, j]:
                out[j] = X[i, j]
    return out


def col_max_call(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[j] = max(out[j], X[i, j])
    return out


def bin_max(x, b, out):
    """Scattered: each bin's largest value (bins from the data)."""
    for i in range(len(x)):
        if x[i] > out[b[i]]:
            out[b[i]] = x[i]
    return out


def int_col_min(X, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[j] = min(out[j], X[i, j])
    return out


def test_column_max_is_atomic():
    rng = np.random.default_rng(20)
    X = rng.standard_normal((2000, 64))
    f = jit_same(col_max, X)
    assert kinds(f)[0] == "parallel"
    f = jit_same(col_min_into, X, np.full(64, np.inf))
    assert kinds(f)[0] == "parallel"
    f = jit_same(col_max_call, X, np.zeros(64))
    assert kinds(f)[0] == "parallel"
    f = jit_same(int_col_min, rng.integers(-10**12, 10**12, (3000, 7)), np.zeros(7, dtype=np.int64))
    assert kinds(f)[0] == "parallel"
    x = rng.standard_normal(N)
    f = jit_same(bin_max, x, rng.integers(0, 50, N), np.full(50, -np.inf))
    assert kinds(f) == ["parallel"]


def test_column_max_nan_as_python():
    """A NaN in X never replaces (X > out is false), a NaN already in out stays."""
    rng = np.random.default_rng(21)
    X = rng.standard_normal((2000, 64))
    X[rng.integers(0, 2000, 300), rng.integers(0, 64, 300)] = np.nan
    X[:, 5] = np.nan  # a whole column: stays at the start
    start = np.zeros(64)
    start[[3, 9]] = np.nan
    for fn in (col_min_into, col_max_call):
        f = jit_same(fn, X, start)
        assert kinds(f)[0] == "parallel"
    jit_same(col_max, X)
