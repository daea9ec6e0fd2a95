"""@numgpu.jit stream compactions: a loop in order whose one carried name k counts the
stores made at index k, `if x[i] > 0: out[k] = x[i]; k += 1`. k only grows, by int
literals > 0, and each iteration stores at [k, k + its increment) only, so no two
iterations store into one element: the loop runs as a scan of k (each block's count in
parallel, the blocks' starts in order, each block storing from its start in parallel)
where that pays, else in order; either way the results are Python's. NUMGPU_SCAN=1
makes every scan run in blocks, so small cases take that path; each is compared with
the undecorated function, on the cpu device and on OpenCL (PoCL)."""
import os

import numpy as np
import pytest

import numgpu

from helpers import jit_same, python_and_jit, device_param


@pytest.fixture(params=["cpu", "opencl"])
def device(request):
    yield from device_param(request)


@pytest.fixture(params=["1", "default"])
def policy(request, monkeypatch):
    """NUMGPU_SCAN=1 (every compaction in blocks) or the default (where it pays)."""
    if request.param == "1":
        monkeypatch.setenv("NUMGPU_SCAN", "1")
    else:
        monkeypatch.delenv("NUMGPU_SCAN", raising=False)
    return request.param


def report(f):
    return f.loop_report()[0]


def assert_compaction(f, n, policy, device):
    r = report(f)
    assert r["kind"] == "sequential" and r["scan"] and r["compact"], r
    assert "a compaction" in r["reason"], r["reason"]
    blocks = "parallel scan" in r["ran"]
    if policy == "1":
        assert blocks == (n >= 1), r["ran"]
    elif device == "opencl":  # (an OpenCL CPU device: never in blocks)
        assert not blocks, r["ran"]
    else:
        assert blocks == (n >= 65536 and (os.cpu_count() or 1) >= 2), r["ran"]


# ---- the forms that run as compactions ----

def positives(x, out):
    k = 0
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
    return k


def where_index(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = i
            k += 1
    return k


def two_arrays(x, idx, val):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            idx[k] = i
            val[k] = x[i] * 2
            k += 1
    return k


def every_one(x, out):
    k = 0
    for i in range(len(x)):
        out[k] = x[i] * 3 + 1
        k += 1
    return k


def two_kinds(x, out):
    """An elif stores two elements and steps 2: [k, k + 2) each."""
    k = 0
    for i in range(len(x)):
        if x[i] > 0.5:
            out[k] = x[i]
            k += 1
        elif x[i] < -0.5:
            out[k] = x[i]
            out[k + 1] = i
            k += 2
    return k


def if_else(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
        else:
            out[k] = -i
            out[k + 2] = i
            k += 3
    return k


def rows(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k, 0] = x[i]
            out[k, 1] = i
            out[k, 2] = x[i] * x[i]
            k += 1
    return k


def count_after(x, out):
    """k read after the loop, not returned as itself."""
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
    top = 0.0
    for j in range(k):
        top = max(top, out[j])
    return k * 10 + 1, top


def from_start(x, out, k):
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
    return k


def with_others(x, out, flag, y):
    """Stores at i beside the ones at k, a name made in the branch, k read as a value."""
    k = 0
    for i in range(len(x)):
        y[i] = x[i] * 2
        if x[i] > 0:
            v = x[i] - 1
            out[k] = v + k
            flag[i] = k
            k += 1
    return k


def continue_first(x, out):
    """A continue before the stores: the front end makes it `if not x[i] <= 0: ...` (in a
    module's first loop too, since 2026-12-07: it gave that rewrite up there)."""
    k = 0
    for i in range(len(x)):
        if x[i] <= 0:
            continue
        out[k] = x[i]
        k += 1
    return k


def strided(x, out):
    k = 0
    for i in range(len(x) - 1, -1, -2):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
    return k


def kinds(n, rng, dt):
    if dt == np.bool_:
        return rng.random(n) > 0.5
    if np.issubdtype(dt, np.integer):
        return rng.integers(-100, 100, n).astype(dt)
    return rng.standard_normal(n).astype(dt)


SIZES = [0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4095, 4096, 4097, 70_001]


@pytest.mark.parametrize("n", SIZES)
def test_positives(device, policy, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    f = jit_same(positives, x, np.zeros(n))
    assert_compaction(f, n, policy, device)


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.int8, np.uint16, np.float32, np.bool_])
@pytest.mark.parametrize("n", [0, 1, 65, 5003])
def test_dtypes(device, policy, dt, n):
    rng = np.random.default_rng(7)
    x = kinds(n, rng, dt)
    f = jit_same(positives, x, np.zeros(n, dt))
    assert_compaction(f, n, policy, device)
    jit_same(where_index, x, np.full(n, -1, np.int64))


@pytest.mark.parametrize("fill", ["all", "none", "half", "last", "first"])
@pytest.mark.parametrize("n", [1, 64, 65, 3000])
def test_all_none(device, policy, fill, n):
    x = {"all": np.ones(n), "none": -np.ones(n), "half": np.tile([1.0, -1.0], n)[:n],
         "last": np.r_[-np.ones(n - 1), 1.0], "first": np.r_[1.0, -np.ones(n - 1)]}[fill]
    f = jit_same(positives, x, np.zeros(n))
    assert_compaction(f, n, policy, device)


@pytest.mark.parametrize("n", [0, 1, 100, 4097])
def test_forms(device, policy, n):
    rng = np.random.default_rng(n + 1)
    x = rng.standard_normal(n)
    for fn, args in [
        (where_index, (x, np.zeros(n, np.int64))),
        (two_arrays, (x, np.zeros(n, np.int64), np.zeros(n))),
        (every_one, (x, np.zeros(n))),
        (two_kinds, (x, np.zeros(2 * n))),
        (if_else, (x, np.zeros(3 * n))),
        (rows, (x, np.zeros((n, 3)))),
        (count_after, (x, np.zeros(n))),
        (with_others, (x, np.zeros(n), np.zeros(n, np.int64), np.zeros(n))),
        (strided, (x, np.zeros(n))),
        (continue_first, (x, np.zeros(n))),
    ]:
        f = jit_same(fn, *args)
        assert_compaction(f, n, policy, device)


def rows_whole(X, out):
    k = 0
    for i in range(X.shape[0]):
        if X[i, 0] > 0:
            out[k] = X[i] * 2
            k += 1
    return k


def rows_sliced(X, out):
    k = 0
    for i in range(X.shape[0]):
        if X[i, 0] > 0:
            out[k, :] = X[i, :]
            k += 1
    return k


@pytest.mark.parametrize("fn", [rows_whole, rows_sliced])
@pytest.mark.parametrize("n", [0, 1, 300])
def test_rows_stored_whole(device, policy, fn, n):
    """Rows stored whole at k: a compaction by the analysis, in blocks since 2026-12-07: the
    lowering checks the rows' lengths before the loop (its NG_JIT_PYTHON cell), so a part whose
    check fails ran no iteration, and the loop then runs in order (as Python, which raises
    NumPy's ValueError); before, any scan with such a check ran in order."""
    X = np.random.default_rng(n).standard_normal((n, 4))
    f = jit_same(fn, X, np.zeros((n, 4)))
    assert_compaction(f, n, policy, device)
    for m in (1, 5):  # (rows of other lengths: NumPy's ValueError, after the stores before)
        py, jit, g = python_and_jit(fn, X, np.zeros((n, m)))
        assert jit == py, (m, py, jit)
        if n and X[:, 0].max() > 0:
            assert py[0] is ValueError
            assert report(g)["ran"].startswith("python") and "rows of other lengths" in report(g)["ran"]
    if n:
        k = fn(X, np.zeros((n, 4)))
        py, jit, g = python_and_jit(fn, X, np.zeros((k // 2, 4)))  # (too short: IndexError at k // 2)
        assert (py[0] is IndexError or k == 0) and jit == py, (py, jit)


@pytest.mark.parametrize("start", [0, 3, 100])
def test_start(device, policy, start):
    x = np.random.default_rng(2).standard_normal(500)
    f = jit_same(from_start, x, np.zeros(700), start)
    assert_compaction(f, 500, policy, device)


def test_numpy_start(device, monkeypatch):
    """k a NumPy int64 comes back one; an int32 k (it could wrap) runs in order."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.random.default_rng(2).standard_normal(500)
    f = jit_same(from_start, x, np.zeros(700), np.int64(3))
    assert "parallel scan" in report(f)["ran"], report(f)["ran"]
    f = jit_same(from_start, x, np.zeros(700), np.int32(3))
    assert report(f)["compact"] and "parallel scan" not in report(f)["ran"], report(f)["ran"]


def test_negative_start_runs_in_order(device, monkeypatch):
    """k = -5: the stores index from the end (Python wraps them), where two iterations could
    store into one element: the host runs the loop in order."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.random.default_rng(3).standard_normal(300)
    f = jit_same(from_start, x, np.zeros(400), -5)
    assert "parallel scan" not in report(f)["ran"]


def test_out_too_short_raises(device, monkeypatch):
    """Python raises IndexError at the first k past the end, after every store before it; the
    stores at k grow, so the blocks store exactly those too."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.abs(np.random.default_rng(4).standard_normal(1000)) + 0.5
    plain, mine = np.zeros(600), np.zeros(600)
    with pytest.raises(IndexError):
        positives(x, plain)
    f = numgpu.jit(positives)
    with pytest.raises(IndexError):
        f(x, mine)
    np.testing.assert_array_equal(mine, plain)


def test_boundscheck_runs_in_order(device, monkeypatch):
    """boundscheck=True: in order (as every scan), IndexError after the same stores."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.abs(np.random.default_rng(4).standard_normal(1000)) + 0.5
    f = numgpu.jit(boundscheck=True)(positives)
    assert f(x, np.zeros(1000)) == 1000
    assert "parallel scan" not in report(f)["ran"]
    plain, mine = np.zeros(600), np.zeros(600)
    with pytest.raises(IndexError):
        positives(x, plain)
    with pytest.raises(IndexError):
        f(x, mine)
    np.testing.assert_array_equal(mine, plain)


def test_two_arrays_one_short(device, monkeypatch):
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.abs(np.random.default_rng(5).standard_normal(400)) + 0.5
    for g in (two_arrays, numgpu.jit(two_arrays)):
        with pytest.raises(IndexError):
            g(x, np.zeros(400, np.int64), np.zeros(250))


# ---- the forms that stay in order ----

def decreasing(x, out):
    k = len(out) - 1
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k -= 1
    return k


def variable_step(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = i
            k += x[i]
    return k


def read_back(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i] + out[0]
            k += 1
    return k


def doubled(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[2 * k] = x[i]
            k += 1
    return k


def after_increment(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            k += 1
            out[k] = x[i]
    return k


def store_always(x, out):
    """The classic write-then-advance: out[k] is written again until k moves on."""
    k = 0
    for i in range(len(x)):
        out[k] = x[i]
        if x[i] > 0:
            k += 1
    return k


def past_increment(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k + 1] = x[i]
            k += 1
    return k


def stored_elsewhere(x, out):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
        out[i] = 0.0
    return k


def branch_without_step(x, out, other):
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            out[k] = x[i]
            k += 1
        else:
            other[i] = 1.0
    return k


def reads_a_store_of_its_iteration(x, y, out):
    """(hunt 10) the test reads an element the iteration stored: the counting pass, which leaves
    the stores out, would read it unstored (it counted nothing)."""
    k = 0
    for i in range(len(x)):
        y[i] = x[i] * 2 - 1
        if y[i] > 0:
            out[k] = y[i]
            k += 1
    return k


def name_of_a_store(x, y, out):
    k = 0
    for i in range(len(x)):
        y[i] = x[i] * 2 - 1
        v = y[i] * 3
        if v > 0:
            out[k] = x[i]
            k += 1
    return k


def test_shared_memory_runs_as_python(monkeypatch):
    """out a view of x: the launch finds them overlapping and runs the loop as Python (in
    blocks, a later block's stores could land where an earlier one still reads)."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.random.default_rng(9).standard_normal(3000)
    a, b = x.copy(), x.copy()
    f = numgpu.jit(positives)
    assert f(b[1:], b[:-1]) == positives(a[1:], a[:-1])
    np.testing.assert_array_equal(a, b)
    assert report(f)["ran"].startswith("python: arrays"), report(f)["ran"]


@pytest.mark.parametrize("fn,make", [
    (decreasing, lambda x: (x, np.zeros(len(x)))),
    (variable_step, lambda x: ((np.abs(x) * 3).astype(np.int64) % 3, np.zeros(3 * len(x), np.int64))),
    (read_back, lambda x: (x, np.zeros(len(x)))),
    (doubled, lambda x: (x, np.zeros(2 * len(x)))),
    (after_increment, lambda x: (x, np.zeros(len(x) + 1))),
    (store_always, lambda x: (x, np.zeros(len(x) + 1))),
    (past_increment, lambda x: (x, np.zeros(len(x) + 1))),
    (stored_elsewhere, lambda x: (x, np.zeros(len(x)))),
    (branch_without_step, lambda x: (x, np.zeros(len(x)), np.zeros(len(x)))),
    (reads_a_store_of_its_iteration, lambda x: (x, np.zeros(len(x)), np.zeros(len(x)))),
    (name_of_a_store, lambda x: (x, np.zeros(len(x)), np.zeros(len(x)))),
])
def test_stays_in_order(device, monkeypatch, fn, make):
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    x = np.random.default_rng(6).standard_normal(700)
    f = jit_same(fn, *make(x))
    r = report(f)
    assert r["kind"] == "sequential" and not r["scan"] and not r["compact"], r
    assert "carries over" in r["reason"], r["reason"]
    assert "parallel scan" not in r["ran"], r["ran"]


def test_explain_says_compaction(capsys):
    f = numgpu.jit(positives)
    x = np.random.default_rng(8).standard_normal(10)
    f(x, np.zeros(10))
    assert report(f)["compact"] and not numgpu.jit(store_always).loop_report()[0]["compact"]
    f.explain()
    text = capsys.readouterr().out
    assert "sequential (a scan: a compaction): " in text, text
    assert "a compaction: k counts the stores at index k" in text, text


@pytest.mark.parametrize("fn", [positives, two_kinds, if_else, every_one, strided])
def test_out_too_short_message(device, monkeypatch, fn):
    """The IndexError names the first failing iteration's index, as Python's (each block of
    the last part records its own first failure, the host raises the first block's: before
    2026-12-07 the block that wrote last won, 'index 50015' where Python says 50000)."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    rng = np.random.default_rng(6)
    for n, part in ((1000, 0.6), (70_001, 0.3), (70_001, 0.0), (5000, -1), (5000, 0.9999)):
        x = rng.standard_normal(n)
        if fn is positives or fn is every_one:
            x = np.abs(x) + 0.5
        room = fn(x, np.zeros(3 * n))  # (the stores' end: [0, room) with room to spare)
        m = 1 if part < 0 else int(room * part)
        py, jit, f = python_and_jit(fn, x, np.zeros(m))
        assert py[0] is IndexError and jit == py, (n, m, py, jit)
        assert report(f)["ran"] == "kernel (raised)", report(f)["ran"]
    f(x, np.zeros(3 * n))  # (the same loop with room: in blocks)
    assert "parallel scan" in report(f)["ran"], report(f)["ran"]
    X = rng.standard_normal(3000)
    py, jit, f = python_and_jit(rows, X, np.zeros((900, 3)))
    assert py[0] is IndexError and jit == py, (py, jit)
    for m in (100, 1400):
        py, jit, f = python_and_jit(two_arrays, np.abs(X) + 0.5, np.zeros(3000, np.int64), np.zeros(m))
        assert py[0] is IndexError and jit == py, (m, py, jit)
