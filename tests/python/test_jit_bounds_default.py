"""A read's index is checked by default in a compiled loop, as a store's: an index out of range
raises NumPy's IndexError (the line, the index, the axis and its length), never reads outside the
array. Where the index is affine in the counters of the ranges around it (`x[i + 1]` over
`range(n)`) it is checked once before the loop (out of range: the loop runs as Python, which
raises where it gets there); otherwise where it runs (`while x[j] < v`, `x[idx[i]]`).
boundscheck=True checks every index where it runs; boundscheck=False leaves reads unchecked.
Each case against plain Python on copies of the same data, on cpu and opencl."""
import numpy as np
import pytest

import numgpu

from helpers import device_param, jit_same


@pytest.fixture(params=["cpu", "opencl"])
def device(request):
    yield from device_param(request)


def line_of(fn, text):
    """The file line of fn's first source line holding `text`."""
    import inspect
    src, first = inspect.getsourcelines(fn)
    return first + next(k for k, s in enumerate(src) if text in s)


def same_failure(fn, *args, boundscheck=None):
    """fn under @numgpu.jit against plain fn on copies: both raise IndexError in NumPy's words;
    the jit's message (when it names a line) names fn's line. Returns (the jit's message, the
    plain copies, the jit's copies)."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(IndexError) as want:
        fn(*plain)
    f = numgpu.jit(fn) if boundscheck is None else numgpu.jit(fn, boundscheck=boundscheck)
    with pytest.raises(IndexError) as got:
        f(*mine)
    assert str(got.value).endswith(str(want.value)), (got.value, want.value)
    return str(got.value), plain, mine


def search_each(x, v, out):
    for i in range(len(out)):
        j = 0
        while x[j] < v[i]:
            j += 1
        out[i] = j


def search_running(x, v, out):
    total = 0
    for i in range(len(out)):
        j = 0
        while x[j] < v[i]:
            j += 1
        total += j
        out[i] = total
    return total


def test_while_search_past_the_end(device):
    x = np.arange(10.0)
    jit_same(search_each, x, np.array([2.5, 5.0, 9.0, -1.0]), np.zeros(4, dtype=np.int64))
    jit_same(search_running, x, np.array([2.5, 5.0, 9.0]), np.zeros(3, dtype=np.int64))
    line = line_of(search_each, "while x[j]")
    for fn in (search_each, search_running):
        msg, plain, mine = same_failure(fn, x, np.array([2.5, 50.0, 3.0]), np.zeros(3, dtype=np.int64))
        assert f":{line_of(fn, 'while x[j]')}: index 10 is out of bounds for axis 0 with size 10" in msg
        if fn is search_running:  # (in order: the stores before it, nothing after)
            np.testing.assert_array_equal(mine[2], plain[2])
    assert line > 0


def gather(x, idx, y):
    for i in range(len(y)):
        y[i] = x[idx[i]] * 2


def gather_running(x, idx, y):
    acc = 0.0
    for i in range(len(y)):
        acc = acc + x[idx[i]]
        y[i] = acc


@pytest.mark.parametrize("fn", [gather, gather_running])
def test_gather_with_a_bad_index(device, fn):
    x = np.arange(10.0) + 0.5
    jit_same(fn, x, np.array([1, -2, 3, 0, -10, 9]), np.zeros(6))  # (negative: from the end)
    line = line_of(fn, "x[idx[i]]")
    for bad in (30, 10, -11):
        idx = np.array([1, 2, bad, 0, 4, 5])
        msg, plain, mine = same_failure(fn, x, idx, np.zeros(6))
        assert f":{line}: index {bad} is out of bounds for axis 0 with size 10" in msg
        if fn is gather_running:
            np.testing.assert_array_equal(mine[2], plain[2])


def shifted(x, y):
    for i in range(len(y)):
        y[i] = x[i + 1] - x[i]


def stencil(x, y):
    n = len(x)
    for i in range(1, n - 1):
        y[i] = x[i - 1] + x[i + 1] - 2 * x[i]


def test_affine_reads_checked_before_the_loop(device):
    x = np.arange(12.0) ** 2
    f = jit_same(shifted, x, np.zeros(11))
    assert f.loop_report()[0]["ran"].startswith("kernel")
    msg, plain, mine = same_failure(shifted, x, np.zeros(12))  # (x[12]: the loop runs as Python)
    np.testing.assert_array_equal(mine[1], plain[1])
    f = jit_same(stencil, x, np.zeros(12))
    assert f.loop_report()[0]["ran"].startswith("kernel")
    jit_same(stencil, x[:2], np.zeros(2))


def rows_2d(X, k, out):
    for i in range(X.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = X[i, j + k] + X[i - 1, j]


def rows_gathered(X, idx, out):
    for i in range(out.shape[0]):
        for j in range(X.shape[1]):
            out[i, j] = X[idx[i], j] * 2


def test_two_axes(device):
    X = np.arange(30.0).reshape(5, 6)
    jit_same(rows_2d, X, 1, np.zeros((5, 5)))
    jit_same(rows_2d, X, -6, np.zeros((5, 6)))  # (-6: from the end, as Python)
    msg, _, _ = same_failure(rows_2d, X, 2, np.zeros((5, 5)))
    assert "index 6 is out of bounds for axis 1 with size 6" in msg
    jit_same(rows_gathered, X, np.array([4, 0, -5, 2]), np.zeros((4, 6)))
    msg, _, _ = same_failure(rows_gathered, X, np.array([4, 0, 5, 2]), np.zeros((4, 6)))
    assert f":{line_of(rows_gathered, 'X[idx[i], j]')}: index 5 is out of bounds for axis 0 with size 5" in msg


def gathered_sums(x, I, out):
    for i in range(I.shape[0]):
        out[i] = np.sum(x[I[i]]) + np.max(x[I[i]] * 2)


def test_reductions_of_gathers(device):
    """In NumPy's pairwise order (the checks taken element by element in it), IndexError out of range."""
    rng = np.random.default_rng(5)
    x, I = rng.standard_normal(41), rng.integers(-41, 41, (9, 30))
    jit_same(gathered_sums, x, I, np.zeros(9))
    I[4, 17] = 41
    msg, _, _ = same_failure(gathered_sums, x, I, np.zeros(9))
    assert f":{line_of(gathered_sums, 'np.sum(x[I[i]])')}: index 41 is out of bounds for axis 0 with size 41" in msg


def through_a_view(X, idx, out):
    for i in range(out.shape[0]):
        row = X[idx[i]]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        out[i] = s


def row_sums(X, idx, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(X[idx[i]]) + X[idx[i]].max()


def test_views_and_reductions_of_rows(device):
    X = np.arange(20.0).reshape(4, 5)
    for fn in (through_a_view, row_sums):
        jit_same(fn, X, np.array([3, -1, 0, -4, 2]), np.zeros(5))
        msg, _, _ = same_failure(fn, X, np.array([3, 1, 4, 0, 2]), np.zeros(5))
        assert "index 4 is out of bounds for axis 0 with size 4" in msg
    assert f":{line_of(through_a_view, 'row = X')}:" in same_failure(through_a_view, X, np.array([0, -5]),
                                                                      np.zeros(2))[0]


def guarded(x, idx, out):
    n = len(x)
    for i in range(len(out)):
        j = idx[i]
        if j < n and x[j] > 0:
            out[i] = x[j]
        else:
            out[i] = -1.0


def test_guarded_reads_run_where_python_reads(device):
    x = np.arange(-3.0, 5.0)
    jit_same(guarded, x, np.array([0, 7, 8, 100, 5, -2]), np.zeros(6))
    msg, _, _ = same_failure(guarded, x, np.array([0, 7, -9, 5]), np.zeros(4))
    assert "index -9 is out of bounds for axis 0 with size 8" in msg


def test_boundscheck_true_and_false(device):
    x = np.arange(10.0)
    v, idx = np.array([2.5, 5.0, 9.0]), np.array([1, -2, 3, 0, 9, 5])
    for bc in (True, False):
        want, got = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        search_each(x, v, want)
        numgpu.jit(search_each, boundscheck=bc)(x, v, got)
        np.testing.assert_array_equal(got, want)
        want, got = np.zeros(6), np.zeros(6)
        gather(x, idx, want)
        numgpu.jit(gather, boundscheck=bc)(x, idx, got)
        np.testing.assert_array_equal(got, want)
    msg, _, _ = same_failure(gather, x, np.array([1, 12]), np.zeros(2), boundscheck=True)
    assert "index 12 is out of bounds" in msg
    # boundscheck=False: stores stay checked
    same_failure(spread, x, np.zeros(10), boundscheck=False)


def spread(x, y):
    for i in range(len(x)):
        y[i + 1] = x[i]


def running_lookup(x, idx, out):
    s = 0
    for i in range(len(out)):
        s += x[idx[i]]
        out[i] = s


def test_scan_reads(device, monkeypatch):
    """A running total (a scan, run in parallel blocks) whose read is out of range: the loop in
    order, IndexError after Python's stores."""
    monkeypatch.setenv("NUMGPU_SCAN", "1")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 9, 500)
    idx = rng.integers(-500, 500, 3000)
    jit_same(running_lookup, x, idx, np.zeros(3000, dtype=np.int64))
    idx[2100] = 500
    msg, plain, mine = same_failure(running_lookup, x, idx, np.zeros(3000, dtype=np.int64))
    assert "index 500 is out of bounds for axis 0 with size 500" in msg
    np.testing.assert_array_equal(mine[2], plain[2])
