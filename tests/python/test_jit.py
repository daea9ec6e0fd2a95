"""@numgpu.jit: loop functions compared against plain Python on the same
inputs, the loop report (parallel / sequential / python with reasons), and
loops that must fall back to Python without changing results."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same
from numgpu import jit, prange


def run_both(fn, *args):
    """Runs fn as plain Python and through @jit on copies of args; returns both results and arg copies."""
    plain_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    jit_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    expected = fn(*plain_args)
    got = jit(fn)(*jit_args)
    return expected, got, plain_args, jit_args


def check(fn, *args, rtol=1e-12):
    expected, got, plain_args, jit_args = run_both(fn, *args)
    if isinstance(expected, float):
        assert got == pytest.approx(expected, rel=rtol)
    else:
        assert got == expected
    for p, j in zip(plain_args, jit_args):
        if isinstance(p, np.ndarray):
            np.testing.assert_allclose(j, p, rtol=rtol)
            assert j.dtype == p.dtype


def scale_add(a, x, y):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]


def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def running_max(x):
    m = -math.inf
    for i in range(x.shape[0]):
        if x[i] > m:
            m = x[i]
    return m


def prefix_sum(a):
    for i in range(1, a.shape[0]):
        a[i] = a[i] + a[i - 1]


def grid(out):
    n, m = out.shape
    for i in range(n):
        for j in range(m):
            out[i, j] = (i * m + j) % 7 - 3


def python_semantics(a, b, out):
    for i in range(a.shape[0]):
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        out[i, 2] = -a[i] // 3


def collatz_steps(n0, out):
    for k in range(out.shape[0]):
        n = n0 + k
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        out[k] = steps


def histogram(x, bins, counts):
    for i in range(x.shape[0]):
        b = int(x[i] * bins)
        if b >= bins:
            b = bins - 1
        counts[b] += 1


def reverse_steps(a, out):
    for i in range(a.shape[0] - 1, -1, -1):
        out[a.shape[0] - 1 - i] = a[i] * 2


def float32_keep(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 0.5 + 1.0


def asserted(a, out):
    for i in prange(a.shape[0]):
        out[i] = a[i] + 1


def with_print(a):
    total = 0
    for i in range(a.shape[0]):
        print(end="")
        total += a[i]
    return total


rng = np.random.default_rng(7)


def test_scale_add_parallel():
    check(scale_add, 2.5, rng.random(1000), rng.random(1000))
    f = jit(scale_add)
    f(2.0, rng.random(10), rng.random(10))
    (loop,) = f.loop_report()
    assert loop["kind"] == "parallel" and loop["reductions"] == [] and not loop["atomic"]
    assert loop["ran"].startswith("kernel")


def test_dot_reduction():
    check(dot, rng.random(5000), rng.random(5000), rtol=1e-9)
    f = jit(dot)
    f(np.ones(3), np.ones(3))
    assert f.loop_report()[0]["reductions"] == [("s", "+")]


def test_conditional_max_reduction():
    check(running_max, rng.standard_normal(3000))
    f = jit(running_max)
    f(np.ones(3))
    assert f.loop_report()[0]["reductions"] == [("m", "max")]


def test_prefix_sum_stays_sequential_and_correct():
    check(prefix_sum, np.arange(1000, dtype=np.int64))
    f = jit(prefix_sum)
    f(np.arange(5))
    (loop,) = f.loop_report()
    assert loop["kind"] == "sequential"
    assert "a[i - 1]" in loop["reason"]


def test_nested_grid_and_int_semantics():
    check(grid, np.zeros((13, 17), dtype=np.int64))
    a = rng.integers(-50, 50, 400)
    b = rng.integers(1, 9, 400) * rng.choice([-1, 1], 400)
    check(python_semantics, a, b, np.zeros((400, 3), dtype=np.int64))


def test_while_loop_collatz():
    check(collatz_steps, 1, np.zeros(200, dtype=np.int64))


def test_histogram_atomic():
    check(histogram, rng.random(20000), 16, np.zeros(16, dtype=np.int64))
    f = jit(histogram)
    f(rng.random(10), 4, np.zeros(4, dtype=np.int64))
    assert f.loop_report()[0]["atomic"]


def histogram_checked(x, h):
    for i in range(x.shape[0]):
        h[int(math.sqrt(x[i]))] += 1


def histogram_rows(x, h, out):
    for i in range(x.shape[0]):
        s = 0
        for j in range(x.shape[1]):
            h[x[i, j]] += 1
            s += x[i, j]
        out[i] = s


def test_histogram_with_a_checked_operation_loses_no_update():
    """math.sqrt's check is a max reduction of the loop: that must not make
    the C loop `omp simd`, whose lanes would add into one bin at once (the
    per-thread copies of a small histogram are plain adds). Large enough to
    take that path."""
    check(histogram_checked, rng.integers(0, 100, 2_000_000).astype(np.float64), np.zeros(10, dtype=np.int64))
    check(histogram_rows, rng.integers(0, 8, (1500, 1500)), np.zeros(8, dtype=np.int64),
          np.zeros(1500, dtype=np.int64))


def long_chains(x, out):
    for i in range(x.shape[0]):
        c = x[i]
        a = c == 1 or c == 5 or c == 9 or c == 12 or c == 40
        b = c != 2 and c != 3 and c != 7 and c != 41
        out[i] = a + 2 * b


def test_chains_of_four_or_more_compares():
    """A chain of four or more eager `or`/`and` operands is emitted as a sum
    (gcc would make `|` of compares a bit test it cannot vectorise): the
    same truth values."""
    check(long_chains, rng.integers(0, 45, 5000), np.zeros(5000, dtype=np.int64))


def test_negative_step_and_float32():
    check(reverse_steps, rng.random(101), np.zeros(101))
    x = rng.random(100).astype(np.float32)
    expected, got, p, j = run_both(float32_keep, x, np.zeros(100, np.float32))
    np.testing.assert_allclose(j[1], p[1], rtol=1e-6)


def test_prange_is_asserted():
    check(asserted, np.arange(50), np.zeros(50, dtype=np.int64))
    f = jit(asserted)
    f(np.arange(3), np.zeros(3, dtype=np.int64))
    assert f.loop_report()[0]["asserted"]


def test_uncompilable_loop_runs_as_python():
    a = np.arange(10)
    f = jit(with_print)
    assert f(a) == with_print(a)
    (loop,) = f.loop_report()
    assert loop["kind"] == "python" and "print" in loop["reason"]


def test_list_argument_falls_back_to_python():
    f = jit(dot)
    assert f([1.0, 2.0], [3.0, 4.0]) == 11.0
    assert f.loop_report()[0]["kind"] == "python"


def test_numgpu_arrays_stay_on_device():
    x = numgpu.asarray(rng.random(100))
    y = numgpu.zeros(100)
    jit(scale_add)(3.0, x, y)
    np.testing.assert_allclose(y.get(), 3.0 * x.get())


def test_explain_prints_lines(capsys):
    f = jit(prefix_sum)
    f(np.arange(4))
    f.explain()
    out = capsys.readouterr().out
    assert "sequential" in out and "for i in range(1, a.shape[0])" in out


def test_function_without_source_runs_as_python():
    ns = {}
    exec("def g(a):\n    s = 0\n    for i in range(len(a)):\n        s += a[i]\n    return s\n", ns)
    with pytest.warns(RuntimeWarning, match="source of g is not available"):
        f = jit(ns["g"])
        assert f(np.arange(5)) == 10
        f.explain()      # prints what it knows (it raised OSError from inspect)


def count_rising(x):
    n = x.shape[0]
    count = 0
    for i in range(n):
        j = i + 1
        if j < n and x[j] > x[i]:  # x[j] is guarded by j < n: must stay short-circuit
            count += 1
    return count


def count_between(x, lo, hi):
    count = 0
    for i in range(x.shape[0]):
        if lo <= x[i] and x[i] < hi:  # both sides read x[i]: evaluated without a branch
            count += 1
    return count


def test_and_with_guarded_and_unguarded_right_sides():
    # which `and` short-circuits is checked on the emitted text in tests/c/test_emit.c
    x = rng.standard_normal(5000)
    check(count_rising, x)
    check(count_between, x, -0.5, 0.25)
    check(count_between, np.array([0.0, np.nan, 0.1, 1.0]), 0.0, 0.5)


def row_reductions(a, b):
    total = 0
    prod = 1
    top = a[0, 0]
    low = a[0, 0]
    bits = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            total += a[i, j]
            prod *= b[i, j]
            top = max(top, a[i, j])
            low = min(low, a[i, j])
            bits |= b[i, j]
    return total, prod, top, low, bits


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint16])
def test_reductions_over_inner_loops(dtype):
    a = rng.integers(-100 if np.dtype(dtype).kind == "i" else 0, 100, (70, 90)).astype(dtype)
    b = rng.integers(1, 3, (70, 90)).astype(dtype)
    with np.errstate(over="ignore"):  # small dtypes wrap, in Python on NumPy scalars as in the kernel
        expected = row_reductions(a, b)
    got = jit(row_reductions)(a, b)
    assert [int(v) for v in got] == [int(v) for v in expected]


def float_row_reductions(a):
    total = 0.0
    top = -math.inf
    low = math.inf
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            total += a[i, j]
            if a[i, j] > top:
                top = a[i, j]
            low = min(low, a[i, j])
    return total, top, low


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_reductions_over_inner_loops(dtype):
    a = rng.standard_normal((300, 301)).astype(dtype)
    expected = float_row_reductions(a)
    got = jit(float_row_reductions)(a)
    assert got[0] == pytest.approx(expected[0], rel=1e-4 if dtype == np.float32 else 1e-9)
    assert got[1:] == expected[1:]
    a[5, 7] = np.nan  # Python's min() and `>` skip it; the sum becomes nan
    expected = float_row_reductions(a)
    got = jit(float_row_reductions)(a)
    assert math.isnan(got[0]) and got[1:] == expected[1:]


def weighted_histogram(values, weights, counts):
    for i in range(values.shape[0]):
        counts[values[i]] += weights[i]


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float64, np.float32])
def test_scattered_adds_large_enough_for_private_copies(dtype):
    # enough work that the cpu plan gives each thread its own copy of counts
    values = rng.integers(-50, 50, 200_000).astype(np.int32)  # negative: Python's wrap-around
    weights = rng.integers(0, 5, values.shape[0]).astype(dtype)
    counts = np.zeros((50, 3), dtype)[:, 1]  # strided target
    jit(weighted_histogram)(values, weights, counts)
    expected = np.zeros(50, np.float64)
    np.add.at(expected, values, weights)
    np.testing.assert_allclose(counts, expected)
    f = jit(weighted_histogram)
    f(values[:10], weights[:10], np.zeros(50, dtype))
    assert f.loop_report()[0]["atomic"]


def floyd(D):
    n = D.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if D[i, k] + D[k, j] < D[i, j]:  # the store becomes a select on cpu
                    D[i, j] = D[i, k] + D[k, j]


def clamp_rows(a, hi):
    for i in range(a.shape[0]):
        for j in range(1, a.shape[1]):
            if a[i, j] > hi:
                a[i, j] = hi + a[i, j - 1] * 0.0  # reads a neighbour: j - 1 >= 0 needs no wrap


def test_conditional_stores_and_shifted_indices():
    D = rng.integers(1, 100, (60, 60)).astype(np.float64)
    np.fill_diagonal(D, 0.0)
    check(floyd, D)
    check(clamp_rows, rng.standard_normal((40, 33)), 0.5)
    check(clamp_rows, rng.standard_normal((40, 33))[:, ::-2], 0.5)


def two_sweeps(u, v, steps):
    n, m = u.shape
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = v[i, j]


def test_a_loop_after_a_parallel_loop_with_the_same_names_is_compiled():
    """The first nest's i and j are dead after it (parallel: not handed back): the second nest
    must still see them as unbound, not as None, or it would run as Python on the first step."""
    rng = np.random.default_rng(5)
    u = rng.random((30, 40))
    check(two_sweeps, u, u.copy(), 3)
    f = jit(two_sweeps)
    f(u.copy(), u.copy(), 1)
    ran = [r["ran"] for r in f.loop_report() if r["kind"] == "parallel" and not r["collapsed"]]
    assert ran == ["kernel", "kernel"], f.loop_report()


def by_powers_of_two(a, q, r):
    for i in range(a.shape[0]):
        q[i] = a[i] // 4
        r[i] = a[i] % 8 - a[i] % 1


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_floor_division_by_a_power_of_two_keeps_python_signs(dt):
    """// and % by a constant 2^k compile to a shift and a mask: still floor semantics for negatives."""
    info = np.iinfo(dt)
    a = np.arange(max(info.min, -300), min(info.max, 300) + 1, dtype=np.int64).astype(dt)
    check(by_powers_of_two, a, np.zeros_like(a), np.zeros_like(a))


def by_constants(a, q, r):
    for i in range(a.shape[0]):
        q[i] = a[i] // 3 + a[i] // 100 - a[i] // 127
        r[i] = a[i] % 7 + a[i] % 100 - a[i] % 127


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_floor_division_by_a_positive_constant_keeps_python_signs(dt):
    """// and % by a positive constant are C's / and % with the sign fixed (ng_fdivp, ng_modp):
    Python's floors for negatives, the extremes of each dtype too (NumPy's results, the
    arithmetic wrapping as NumPy's)."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(1)
    ends = np.array([info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 99, 100, 126, 127], dtype=object)
    a = np.concatenate([ends.astype(dt), rng.integers(info.min, info.max, 3000, dtype=dt, endpoint=True)])
    q, r = np.zeros_like(a), np.zeros_like(a)
    f = jit(by_constants)
    with np.errstate(over="ignore"):
        f(a, q, r)
        by_constants(a, want_q := np.zeros_like(a), want_r := np.zeros_like(a))
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    np.testing.assert_array_equal(q, want_q)
    np.testing.assert_array_equal(r, want_r)


def doubled(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 2


@pytest.mark.parametrize("dt", [">f8", ">i4", "<f8", "=i8"])
def test_byte_swapped_numpy_arrays_give_python_results(dt):
    # (a non-native array is never wrapped as native memory: the kernel reads a copy in the
    # host's order, and one it writes is converted back to its own order)
    x = np.arange(50).astype(dt)
    f = jit_same(doubled, x, np.zeros(50))
    assert f.loop_report()[0]["ran"].startswith("kernel")
    f = jit_same(doubled, x, np.zeros(50, dtype=dt))
    assert f.loop_report()[0]["ran"].startswith("kernel")


def uneven_steps(start, steps, lo, hi, by):
    for i in range(lo, hi, by):
        v = start[i]
        c = 0
        while v > 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            c += 1
        steps[i] = c


@pytest.mark.parametrize("lo,hi,by", [(0, 40_000, 1), (39_999, -1, -1), (5, 40_000, 7), (39_000, 3, -13),
                                      (0, 300, 1), (10, 10, 1)])
def test_loops_with_uneven_iterations_share_work_dynamically(lo, hi, by):
    # (an outer loop holding a while loop is handed out in chunks of a 256th of its range on cpu)
    start = np.arange(40_000, dtype=np.int64)[::-1].copy()
    start[:2000] = 7  # cheap iterations at one end
    f = jit_same(uneven_steps, start, np.zeros(40_000, np.int64), lo, hi, by)
    assert f.loop_report()[0]["kind"] == "parallel"

