"""@numgpu.jit search loops: `for i in range(...): <assignments>; if test: ...; break`.
The iteration that breaks is found in parallel, then the loop runs in order from
it; every case is compared with plain Python, the loop variable and the names
the loop assigns included, and loops that only look like searches stay in order."""
import numpy as np
import pytest

from numgpu import jit

from helpers import jit_same


def first_above(x, t):
    pos = -1
    for i in range(x.shape[0]):
        if x[i] > t:
            pos = i
            break
    return pos


def last_below(x, t):
    """Backwards, with assignments before the test and names read after the loop."""
    pos = -1
    i = -7
    for i in range(len(x) - 1, -1, -2):
        v = x[i] * 2.0
        w = v + 1.0
        if w < t:
            pos = i
            break
    return pos, i, w


def first_row_with_sum(a, t):
    hit = -1
    for r in range(1, a.shape[0], 3):
        s = np.sum(a[r])
        if s > t and a[r, 0] != 0:
            hit = r
            a[r, 0] = -a[r, 0]  # the branch may write: it runs once, in order
            break
    return hit


def first_equal(codes, c):
    where = len(codes)
    for i in range(len(codes)):
        if codes[i] == c:
            where = i
            break
    return where


@pytest.fixture
def x():
    rng = np.random.default_rng(7)
    return rng.uniform(0.0, 1.0, 200_000)


def is_search(f):
    (loop,) = f.loop_report()
    return loop["search"] and loop["ran"] == "kernel (parallel search, then in order)"


@pytest.mark.parametrize("at", [0, 1, 99_999, 199_998, 199_999, None])
def test_first_above_at_every_place(x, at):
    if at is not None:
        x[at] = 5.0
        x[-1] = 6.0  # a later hit must not win
        if at == 199_999:
            x[-1] = 5.0
    f = jit_same(first_above, x, 2.0)
    assert is_search(f)


def test_first_of_many_hits(x):
    x[[123, 50_000, 123_456, 150_000]] = 3.0
    assert is_search(jit_same(first_above, x, 2.0))


def test_backwards_with_step_assignments_and_live_out_names(x):
    for t in [-0.5, 1.001, 1.5, 2.0, 3.5]:
        f = jit_same(last_below, x, t)
        assert is_search(f)


def test_empty_and_one_element_ranges():
    for n in [0, 1, 2, 3]:
        jit_same(first_above, np.full(n, 3.0), 2.0)
        jit_same(first_above, np.full(n, 1.0), 2.0)
        if n:  # (Python itself fails to return w otherwise)
            jit_same(last_below, np.full(n, -3.0), 0.0)
            jit_same(last_below, np.full(n, 3.0), 0.0)


def test_nan_never_passes_the_test(x):
    x[:1000] = np.nan
    x[5000] = 9.0
    assert is_search(jit_same(first_above, x, 2.0))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float32])
def test_integer_and_float32_elements(dtype):
    codes = (np.arange(300_000) % 200).astype(dtype)
    codes[:150_000] = 1
    for c in [0, 1, 199, 250]:
        assert is_search(jit_same(first_equal, codes, dtype(c)))


def test_row_reductions_in_the_test_and_a_writing_branch():
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (3000, 40)).astype(np.float64)
    for t in [20.0, 25.0, 1000.0]:
        jit_same(first_row_with_sum, a, t)


def first_from_the_end(x, t):
    pos = 0
    for i in range(-len(x), len(x) // 2):  # negative indices first: they wrap
        if x[i] > t:
            pos = i
            break
    return pos


@pytest.mark.parametrize("at", [0, 5, 100_000, 199_999, 50_000, None])
def test_search_over_negative_indices(x, at):
    """The found iteration may be negative: the first hit is still the least index."""
    if at is not None:
        x[at] = 5.0
        x[at // 2 + 3] = 6.0  # (a hit at an index that comes later in the range, or earlier)
    assert is_search(jit_same(first_from_the_end, x, 4.0))


def sentinel(x):
    for i in range(10 ** 12):  # the range runs past x: only the hit keeps Python in bounds
        if x[i] == 7.0:
            break
    return i


@pytest.mark.parametrize("at", [4321, 150_000, 199_000])
def test_range_past_the_array(x, at):
    """Chunks of the range are searched in order; one that reads past x leaves the loop in order."""
    x[at] = 7.0
    f = jit_same(sentinel, x)
    (loop,) = f.loop_report()
    assert loop["search"]
    assert loop["ran"] == ("kernel (one thread)" if at == 199_000 else "kernel (parallel search, then in order)")


def carried(x):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i]
        if s > 30.0:
            break
    return s, i


def effect_before_test(x, out):
    for i in range(len(x)):
        out[i] = x[i]
        if x[i] > 0.99:
            break


def continue_in_branch(x):
    n = 0
    for i in range(len(x)):
        if x[i] > 0.5:
            if x[i] < 0.9:
                continue
            n = i
            break
    return n


def for_else(x):
    for i in range(len(x)):
        if x[i] > 0.999:
            break
    else:
        i = -1
    return i


def helper(v):
    return v * 3.0


def calls_helper(x):
    k = -1
    for i in range(len(x)):
        if helper(x[i]) > 2.99:
            k = i
            break
    return k


@pytest.mark.parametrize("fn", [carried, continue_in_branch, calls_helper])
def test_lookalikes_are_not_searches(x, fn):
    f = jit_same(fn, x)
    assert not any(r["search"] for r in f.loop_report())


def test_for_else_is_a_search(x):
    # (the else block follows the loop where no break ran, desugar.c else_loops: the flag it
    # tests is set by the breaking iteration only, so the loop is a search)
    f = jit_same(for_else, x)
    assert f.loop_report()[0]["search"]
    jit_same(for_else, -x)


def test_a_write_before_the_test_is_not_a_search(x):
    f = jit_same(effect_before_test, x, np.zeros_like(x))
    assert not f.loop_report()[0]["search"]


def search_in_parallel_loop(a, out):
    for r in range(a.shape[0]):
        out[r] = -1
        for j in range(a.shape[1]):
            if a[r, j] > 0.9:
                out[r] = j
                break


def test_inner_search_runs_in_each_thread_of_its_parallel_loop():
    rng = np.random.default_rng(5)
    a = rng.uniform(0, 1, (500, 300))
    f = jit_same(search_in_parallel_loop, a, np.zeros(500, np.int64))
    outer, inner = f.loop_report()
    assert outer["kind"] == "parallel" and not inner["search"]


def test_explain_names_the_search(x, capsys):
    f = jit(first_above)
    f(x, 0.5)
    f.explain()
    assert "a search" in capsys.readouterr().out


def row_then_break(M, out, c):
    for i in range(len(out)):
        if c[i] > 5:
            break
        r = M[i]
        r[0] = c[i] * 2
        out[i] = int(np.sum(r * r))
    return 0


def row_read_after(M, out, c):
    for i in range(len(out)):
        if c[i] > 5:
            break
        r = M[i]
        out[i] = r[1]
    return r[0]


def test_a_row_in_a_loop_with_break():
    """r = M[i] in a loop left by break: compiled (in order) where nothing reads r after the
    loop (2026-12-05: the loop ran as Python, 'live-out name r'), Python where something does."""
    c = np.array([1, 4, 2, 0, 3, 7, 1, 1])
    M = np.arange(24).reshape(8, 3)
    f = jit_same(row_then_break, M, np.zeros(8, np.int64), c)
    assert [r["ran"] for r in f.loop_report()] == ["kernel (one thread)"]
    f = jit_same(row_read_after, M, np.zeros(8, np.int64), c)
    assert "read after the loop" in f.loop_report()[0]["ran"]


def raises_past_the_hit(x, d, t):
    for i in range(x.shape[0]):
        q = 7 // (i - d)  # (i == d: ZeroDivisionError, if the loop gets there)
        if x[i] + q > t:
            break
    return i


@pytest.mark.parametrize("d", [5000, 10, 0], ids=["after", "before", "first"])
def test_an_error_past_the_hit_is_not_raised(d):
    # the parallel phase computes iterations Python never runs: one that raises there
    # (i == d) counts only where Python reaches it, before the hit
    x = np.arange(200_000) % 97
    x[1000] = 10**9
    fn = jit(raises_past_the_hit)
    if d == 5000:
        assert fn(x.copy(), d, 10**6) == raises_past_the_hit(x, d, 10**6) == 1000
    else:
        with pytest.raises(ZeroDivisionError):
            raises_past_the_hit(x, d, 10**6)
        with pytest.raises(ZeroDivisionError, match="division or modulo by zero"):
            fn(x.copy(), d, 10**6)
    # (an iteration that raised in the parallel phase sends the whole loop in order)
    assert fn.loop_report()[0]["search"] and not is_search(fn)
