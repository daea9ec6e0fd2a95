"""np.arange in the elementwise expressions of rows a compiled loop body makes (X[i] *
np.arange(m), np.sum(x[i] ** np.arange(4)), w = np.arange(1, m + 1) then np.dot(X[i], w)),
compared against plain Python running NumPy itself on the same data.

np.arange(...) there is a row: its arguments are computed once before the expression, its
length is NumPy's (max(ceil((stop - start) / step), 0)), its dtype NumPy's (float64 where an
argument is a float or a uint64, else int64), a float one's elements as NumPy fills them."""
import numpy as np
import pytest

from helpers import jit_same, python_and_jit, store_each


def kinds(f):
    return [(r["kind"], r.get("ran")) for r in f.loop_report()]


FORMS = [
    "X[i] * np.arange(X.shape[1])", "np.sum(X[i] * np.arange(1, X.shape[1] + 1))",
    "np.max(np.arange(X.shape[1], 0, -1) - X[i])", "np.arange(2, 2 + 3 * X.shape[1], 3) + X[i]",
    "X[i] + np.arange(0.0, X.shape[1])", "X[i] * np.arange(0.5, X.shape[1] / 2 + 0.25, 0.5)",
    "np.sum(np.arange(i) * 2)", "np.sum(np.arange(i, 0, -2))", "np.sum(np.arange(-i, 7, 3))",
    "np.sum(np.arange(i * 0.1, 2.5, 0.1))", "np.max(np.arange(X[i, 0], X[i, 0] + 2.5, 0.1))",
    "np.argmax(X[i] * (np.arange(X.shape[1]) % 2))", "np.sum(np.arange(np.uint64(3), 9))",
    "X[i] // 1 * np.arange(1, 2)",
]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8])
@pytest.mark.parametrize("j", range(len(FORMS)))
def test_each_arange_form(tmp_path, j, dt):
    what = FORMS[j]
    rng = np.random.default_rng(60 + j)
    X = (rng.standard_normal((9, 7)) * 4).astype(dt) if np.dtype(dt).kind == "f" else rng.integers(-9, 9, (9, 7))
    X = X.astype(dt)
    fn, want = store_each(tmp_path, f"arange{j}", what, X)
    f = jit_same(fn, X, np.zeros_like(want))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def weighted_mean(X, out):
    for i in range(X.shape[0]):
        w = np.arange(1, X.shape[1] + 1)
        out[i] = np.sum(X[i] * w) / np.sum(w)


def polynomial(c, x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(c * x[i] ** np.arange(c.shape[0]))


def test_arange_named_and_as_powers():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 12))
    assert kinds(jit_same(weighted_mean, X, np.zeros(50))) == [("parallel", "kernel")]
    c, x = rng.integers(-5, 5, 6), rng.integers(-3, 4, 40)
    assert kinds(jit_same(polynomial, c, x, np.zeros(40, np.int64))) == [("parallel", "kernel")]


def float_steps(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(np.arange(x[i], x[i] + 3.0, 0.1) * 1.5)


def test_float_ranges_are_numpys_bit_for_bit():
    """Their lengths (ceil of a float quotient) and elements (start, start + step, then start +
    k * ((start + step) - start)) are NumPy's, so the sums are too (fewer than 128 elements)."""
    rng = np.random.default_rng(2)
    x = rng.uniform(-10, 10, 200)
    jit_same(float_steps, x, np.zeros(200))


def arange_of(a, b, c, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(np.arange(a[i], b[i], c[i]))


def test_numpys_errors():
    z = np.zeros(3)
    for a, b, c in [([0, 0, 0], [5, 5, 5], [1, 0, 1]), ([0.0, 0, 0], [5.0, 5, 5], [1.0, 0.0, 1.0]),
                    ([0.0, 0, 0], [1.0, np.inf, 1], [1.0, 1.0, 1.0]), ([0.0, 0, 0], [1.0, np.nan, 1], [1.0, 1.0, 1.0])]:
        args = [np.array(a), np.array(b), np.array(c)]
        plain, jitted, f = python_and_jit(arange_of, *args, z)
        assert plain[0] == jitted[0] and plain[1] in jitted[1], (a, b, c, plain, jitted)  # (arange: ...)
        assert plain[0] in (ZeroDivisionError, ValueError)


def arange_number(x, out):
    for i in range(x.shape[0]):
        out[i] = np.arange(3)[1] + x[i]


def arange_dtype(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sum(np.arange(3, dtype=np.float32) + x[i])


def test_what_runs_as_python():
    x = np.arange(5.0)
    for fn in (arange_number, arange_dtype):
        f = jit_same(fn, x, np.zeros(5))
        assert kinds(f)[0][0] == "python", f.loop_report()
