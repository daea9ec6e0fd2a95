"""@numgpu.jit argmax-style updates: `if e > best: best = e; k = i; ...` runs as a
parallel pair reduction over (e, iteration). Every case is compared with plain
Python: the best value, the names assigned with it (the first iteration among
equal values for a strict test, the last for >= / <=), NaN, the starting value
winning, ties across threads; look-alikes must stay in order."""
import numpy as np
import pytest

from numgpu import jit

from helpers import jit_same

N = 100_003  # over the parallel threshold, odd so that threads' shares differ


def argmax_gt(x):
    best = x[0]
    k = 0
    for i in range(1, x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
    return k, best


def argmax_ge(x):
    best = x[0]
    k = 0
    for i in range(x.shape[0]):
        if x[i] >= best:
            best = x[i]
            k = i
    return k, best


def argmin_reversed(x):
    """`best > e`: the key on the left; the smallest wins, the first of equals."""
    best = x[0]
    k = -1
    for i in range(x.shape[0]):
        if best > x[i]:
            best = x[i]
            k = i
    return k, best


def argmin_le(x):
    best = x[0]
    k = -1
    for i in range(len(x)):
        if x[i] <= best:
            best = x[i]
            k = i
    return k, best


def argmax_from(x, start):
    best = start
    k = -5
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
    return k, best


def argmax_from_ge(x, start):
    best = start
    k = -5
    for i in range(x.shape[0]):
        if x[i] >= best:
            best = x[i]
            k = i
    return k, best


def argmax_backwards(x):
    best = x[-1]
    k = -1
    for i in range(x.shape[0] - 1, -1, -3):
        if x[i] > best:
            best = x[i]
            k = i
    return k, best


def argmax_steps(x, lo, step):
    best = x[lo]
    k = lo
    for i in range(lo, x.shape[0], step):
        if x[i] > best:
            best = x[i]
            k = i
    return k, best


def argmax_2d(a):
    best = a[0, 0]
    bi = 0
    bj = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > best:
                best = a[i, j]
                bi = i
                bj = j
    return bi, bj, best


def argmax_row_inner(a):
    """The update inside an inner loop that runs in order in each thread."""
    best = a[0, 0]
    bi = 0
    bj = 0
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
            if a[i, j] >= best:
                best = a[i, j]
                bi = i
                bj = j
    return bi, bj, best


def several_names_and_a_sum(x, y):
    best = -1.0
    k = 0
    twice = 0.0
    other = 0
    total = 0.0
    for i in range(x.shape[0]):
        v = x[i] * y[i]
        total += v
        if v > best:
            other = i * 3 - 1
            best = v
            twice = v * 2.0
            k = i
    return k, best, twice, other, total


def dead_companion(x):
    """k is not read after the loop: private, so best alone is ranked."""
    best = x[0]
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i  # noqa: F841
    return best


def score_and_index(x):
    best = -np.inf
    at = -1
    for i in range(x.shape[0]):
        if (x[i] - 0.5) ** 2 < best * -1.0 or best == -np.inf:
            pass
        if abs(x[i] - 0.25) > best:
            best = abs(x[i] - 0.25)
            at = i
    return at, best


@pytest.fixture
def ties():
    """Few distinct values: the largest and smallest occur thousands of times."""
    return np.random.default_rng(5).integers(0, 7, N).astype(np.float64)


@pytest.mark.parametrize("fn", [argmax_gt, argmax_ge, argmin_reversed, argmin_le])
def test_ties_go_to_the_first_or_last_iteration(ties, fn):
    f = jit_same(fn, ties)
    assert f.loop_report()[0]["kind"] == "parallel"


@pytest.mark.parametrize("fn", [argmax_gt, argmax_ge, argmin_reversed, argmin_le])
def test_random_values(fn):
    jit_same(fn, np.random.default_rng(1).standard_normal(N))


@pytest.mark.parametrize("at", [0, 1, 2, N // 2, N - 2, N - 1])
def test_the_maximum_at_every_place(at):
    x = np.random.default_rng(2).random(N)
    x[at] = 2.0
    jit_same(argmax_gt, x)
    jit_same(argmax_ge, x)


@pytest.mark.parametrize("start", [10.0, 6.0, -1.0, np.nan])
def test_the_start_wins_or_ties(ties, start):
    """10 beats everything; 6 ties the maximum (> keeps the start, >= takes the last 6).
    (A NumPy start: a Python float start that no element beats stays a Python
    float in Python, where the compiled loop's best has the elements' type.)"""
    jit_same(argmax_from, ties, np.float64(start))
    jit_same(argmax_from_ge, ties, np.float64(start))


def test_nan_elements_are_never_taken():
    x = np.random.default_rng(3).random(N)
    x[::7] = np.nan
    jit_same(argmax_gt, x)
    jit_same(argmax_ge, x)
    jit_same(argmin_le, x)
    x[0] = np.nan  # a NaN start: no comparison holds, nothing changes
    jit_same(argmax_gt, x)


def test_negative_and_odd_steps(ties):
    jit_same(argmax_backwards, ties)
    jit_same(argmax_steps, ties, 5, 3)
    jit_same(argmax_steps, ties, 1, 1)


@pytest.mark.parametrize("n", [1, 2, 3, 10])
def test_short_ranges(n):
    x = np.random.default_rng(n).integers(0, 3, n).astype(np.float64)
    jit_same(argmax_gt, x)
    jit_same(argmax_ge, x)
    jit_same(argmin_le, x)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float32, np.int16])
def test_element_dtypes(dtype):
    x = np.random.default_rng(4).integers(0, 100, N).astype(dtype)
    jit_same(argmax_gt, x)
    jit_same(argmin_le, x)


def test_two_dimensional_nest():
    a = np.random.default_rng(6).integers(0, 50, (301, 257)).astype(np.float64)
    f = jit_same(argmax_2d, a)
    assert f.loop_report()[0]["kind"] == "parallel"
    jit_same(argmax_2d, np.full((40, 900), 3.0))  # every element ties: the first
    jit_same(argmax_row_inner, a)


def test_several_names_and_another_reduction():
    rng = np.random.default_rng(7)  # (small integers: the parallel sum is exact)
    x, y = rng.integers(0, 40, N).astype(np.float64), rng.integers(0, 40, N).astype(np.float64)
    f = jit_same(several_names_and_a_sum, x, y)
    rep = f.loop_report()[0]
    assert rep["kind"] == "parallel"
    assert dict(rep["reductions"]) == {"best": "max", "k": "argmax", "twice": "argmax", "other": "argmax",
                                       "total": "+"}


def test_dead_companion_and_computed_keys():
    x = np.random.default_rng(8).random(N)
    jit_same(dead_companion, x)
    jit_same(score_and_index, x)


def test_int_keys_at_their_extremes():
    """The workers start from the key's identity (the lowest int64): an element
    equal to it must still lose to the start and win with >=."""
    x = np.full(N, np.iinfo(np.int64).min, dtype=np.int64)
    x[N // 3] = 5
    jit_same(argmax_gt, x)
    x[N // 3] = np.iinfo(np.int64).min
    jit_same(argmax_gt, x)
    jit_same(argmax_ge, x)
    jit_same(argmax_from_ge, x, np.iinfo(np.int64).min)


def read_elsewhere(x, y):
    best = x[0]
    k = 0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
        y[i] = k  # the running index: in order
    return k


def key_assigned_twice(x):
    best = x[0]
    k = 0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
        if x[i] < -3.0:
            best = 0.0
    return k, best


def value_reads_the_key(x):
    best = x[0]
    k = 0.0
    for i in range(x.shape[0]):
        if x[i] > best:
            k = best
            best = x[i]
    return k, best


def with_else(x):
    best = x[0]
    k = 0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
        else:
            k = k
    return k, best


def two_updates(x):
    best = x[0]
    k = 0
    lo = x[0]
    j = 0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            k = i
        if x[i] < lo:
            lo = x[i]
            j = i
    return k, best, j, lo


@pytest.mark.parametrize("fn", [key_assigned_twice, value_reads_the_key, with_else, two_updates])
def test_lookalikes_stay_in_order(fn):
    x = np.random.default_rng(9).standard_normal(20_000)
    f = jit_same(fn, x)
    assert f.loop_report()[0]["kind"] == "sequential"


def test_running_index_stays_in_order():
    x = np.random.default_rng(10).standard_normal(20_000)
    f = jit_same(read_elsewhere, x, np.zeros(20_000, dtype=np.int64))
    assert f.loop_report()[0]["kind"] == "sequential"


def test_explain_names_the_pair(capsys):
    f = jit(argmax_gt)
    f(np.arange(50_000.0))
    f.explain()
    out = capsys.readouterr().out
    assert "parallel reduce(max:best, argmax:k)" in out
