"""Compiled loops raise where Python does: math.* domain and range errors
(ValueError, OverflowError) and int() of NaN or an infinity. The kernel
records what the first failing operation would raise and the host raises it
after the launch, naming the line; NumPy's own functions (np.sqrt of a
negative number: NaN) do not raise, as in NumPy. Each case is compared with
plain Python: the same exception type, or the same result."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, module_function, outcome, python_and_jit


def apply(fn_name, tmp_path):
    """`for i ...: out[i] = math.<fn_name>(x[i])`, from a module of its own."""
    return module_function(tmp_path, "loop_" + fn_name, "import math\n\n\ndef loop(x, out):\n"
                           "    for i in range(x.shape[0]):\n        out[i] = math.%s(x[i])\n" % fn_name, "loop")


def sqrt_loop(x, out):
    for i in range(x.shape[0]):  # parallel
        out[i] = math.sqrt(x[i])


def log_sum(x):
    s = 0.0
    for i in range(x.shape[0]):  # parallel reduce(+:s)
        s += math.log(x[i])
    return s


def exp_prefix(x, out):
    for i in range(1, x.shape[0]):  # sequential
        out[i] = out[i - 1] + math.exp(x[i])


def to_int(x, out):
    for i in range(x.shape[0]):
        out[i] = int(x[i]) + math.floor(x[i])


def gamma_of(x, out):
    for i in range(x.shape[0]):
        out[i] = math.gamma(x[i]) + math.lgamma(x[i])


def powers(x, y, out):
    for i in range(x.shape[0]):
        out[i] = math.pow(x[i], y[i]) + math.fmod(x[i], y[i])


def guarded(x, out):
    for i in range(x.shape[0]):
        if x[i] >= 0:
            out[i] = math.sqrt(x[i])  # never reached for the negative ones
        else:
            out[i] = -1.0


def numpy_sqrt(x, out):
    for i in range(x.shape[0]):
        out[i] = np.sqrt(x[i])  # NumPy's: NaN, no exception


def safe_root(v):
    return math.sqrt(v)


def through_a_helper(x, out):
    for i in range(x.shape[0]):
        out[i] = safe_root(x[i])




def same_outcome(fn, *args):
    want = outcome(fn, *args)
    f = numgpu.jit(fn)
    got = outcome(f, *args)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        for g, w in zip(got[2], want[2]):  # (gamma, lgamma: CPython's own, a few ulps from libm's)
            np.testing.assert_allclose(g, w, rtol=1e-14, atol=0)
    else:  # Python's words, and the line
        assert want[1] in got[1] and ".py:" in got[1], (got, want)
    assert f.loop_report()[0]["ran"].startswith("kernel"), f.loop_report()
    return got


def test_a_negative_square_root_raises_at_any_place_in_a_parallel_loop():
    rng = np.random.default_rng(41)
    x = rng.uniform(0.0, 4.0, 100_001)
    same_outcome(sqrt_loop, x, np.zeros_like(x))
    for at in (0, 77, 50_000, 100_000):
        y = x.copy()
        y[at] = -1e-300
        got = same_outcome(sqrt_loop, y, np.zeros_like(y))
        assert "math domain error" in got[1]


def test_domain_and_range_errors_in_reductions_and_sequential_loops():
    x = np.array([1.0, 2.0, 0.5, 3.0])
    same_outcome(log_sum, x)
    same_outcome(log_sum, np.array([1.0, 0.0, 2.0]))   # log(0): ValueError
    same_outcome(log_sum, np.array([1.0, -2.0]))       # log(-2): ValueError
    same_outcome(exp_prefix, np.array([0.0, 1.0, 2.0]), np.zeros(3))
    same_outcome(exp_prefix, np.array([0.0, 1.0, 800.0, 1.0]), np.zeros(4))  # OverflowError


@pytest.mark.parametrize("name,bad", [
    ("acos", 2.0), ("asin", -1.5), ("acosh", 0.5), ("atanh", 1.0), ("log1p", -1.0), ("log2", 0.0),
    ("log10", -1.0), ("sin", np.inf), ("cos", -np.inf), ("tan", np.inf), ("exp2", 2000.0),
    ("expm1", 1000.0), ("cosh", 1000.0), ("sinh", -1000.0),
])
def test_each_function_raises_as_python_and_otherwise_computes(name, bad, tmp_path):
    loop = apply(name, tmp_path)
    x = np.array([0.5, 0.25, 0.75])
    same_outcome(loop, x, np.zeros(3))
    same_outcome(loop, np.array([0.5, bad, 0.25]), np.zeros(3))


@pytest.mark.parametrize("name", ["tanh", "atan", "asinh", "erf", "erfc", "fabs", "cbrt", "degrees"])
def test_functions_that_never_raise(name, tmp_path):
    x = np.array([0.5, np.inf, -np.inf, np.nan, 1e308])
    same_outcome(apply(name, tmp_path), x, np.zeros(5))


def test_int_of_nan_and_infinity():
    same_outcome(to_int, np.array([1.5, -2.5, 7.0]), np.zeros(3, np.int64))
    same_outcome(to_int, np.array([1.5, np.nan]), np.zeros(2, np.int64))
    same_outcome(to_int, np.array([np.inf, 1.0]), np.zeros(2, np.int64))


def test_gamma_poles_are_domain_errors_and_its_overflow_a_range_error():
    same_outcome(gamma_of, np.array([0.5, 3.0, -1.5]), np.zeros(3))
    same_outcome(gamma_of, np.array([2.0, 0.0]), np.zeros(2))    # gamma(0): ValueError
    same_outcome(gamma_of, np.array([2.0, -3.0]), np.zeros(2))   # a negative integer: ValueError
    same_outcome(gamma_of, np.array([200.0]), np.zeros(1))       # OverflowError


def test_pow_and_fmod():
    same_outcome(powers, np.array([2.0, 3.0]), np.array([3.0, 0.5]), np.zeros(2))
    same_outcome(powers, np.array([0.0]), np.array([-1.0]), np.zeros(1))    # pow(0, -1): ValueError
    same_outcome(powers, np.array([-1.0]), np.array([0.5]), np.zeros(1))    # pow(-1, 0.5): ValueError
    same_outcome(powers, np.array([1e300]), np.array([2.0]), np.zeros(1))   # OverflowError
    same_outcome(powers, np.array([1.0]), np.array([0.0]), np.zeros(1))     # fmod(1, 0): ValueError


def test_only_operations_that_run_raise_and_numpy_functions_never_do():
    x = np.array([4.0, -1.0, 9.0, -3.0])
    jit_same(guarded, x, np.zeros(4))
    jit_same(numpy_sqrt, x, np.zeros(4))
    same_outcome(through_a_helper, x, np.zeros(4))


def softened_norms(pos, out):
    for i in range(pos.shape[0]):  # parallel
        dx = pos[i, 0] - pos[0, 0]
        dy = pos[i, 1] - pos[0, 1]
        r2 = dx * dx + dy * dy + 1e-3
        out[i] = 1.0 / (r2 * math.sqrt(r2))


def shifted_roots(x, c, out):
    for i in range(x.shape[0]):  # parallel
        d = x[i] - c
        r = d * d - 0.5  # may be below 0: checked
        out[i] = math.sqrt(r)


def falling(x, out):
    for i in range(x.shape[0]):
        y = x[i] * x[i]
        for k in range(2):  # y * y - 1.0: its bound falls from 0.0 to none
            y = y * y - 1.0
        out[i] = math.sqrt(y)


def chain(x, out):
    for i in range(x.shape[0]):  # locals bounding each other, last to first
        a = 0.0
        for k in range(2):
            a = b1 if k else 1.0
            b1 = b2 if k else 1.0
            b2 = b3 if k else 1.0
            b3 = b4 if k else 1.0
            b4 = b5 if k else 1.0
            b5 = b6 if k else 1.0
            b6 = b7 if k else 1.0
            b7 = b8 if k else 1.0
            b8 = b9 if k else 1.0
            b9 = b10 if k else 1.0
            b10 = x[i] - 3.0
        out[i] = math.sqrt(a) + math.sqrt(b9)


def test_a_sum_of_squares_through_locals_needs_no_check_and_others_keep_theirs():
    rng = np.random.default_rng(3)
    pos = rng.standard_normal((300, 2))
    jit_same(softened_norms, pos, np.zeros(300))
    src = numgpu._core.last_kernel_source()
    assert "sqrt(" in src and "< ((double)0" not in src  # (no domain check left)
    x = rng.standard_normal(200)
    jit_same(shifted_roots, x, 10.0, np.zeros(200))  # (every d * d - 0.5 above 0)
    with pytest.raises(ValueError, match="math domain error"):  # (some below)
        numgpu.jit(shifted_roots)(x, 0.0, np.zeros(200))
    with pytest.raises(ValueError):
        shifted_roots(x, 0.0, np.zeros(200))
    for fn in (falling, chain):  # (the passes settle: the bounds fall to none)
        jit_same(fn, np.full(50, 4.0), np.zeros(50))
        with pytest.raises(ValueError, match="math domain error"):
            numgpu.jit(fn)(np.full(50, 1.0), np.zeros(50))
        assert numgpu.jit(fn).loop_report()[0]["kind"] != "python"


def running_roots(x, out):
    acc = 0.0
    for i in range(x.shape[0]):  # in order: acc carries over
        acc = acc + math.sqrt(x[i])
        out[i] = acc


def running_lookup(text, d, out):
    acc = 0
    for i in range(len(text)):  # in order
        acc = acc + d[text[i]]
        out[i] = acc


def nested_rows(X, out):
    t = 0.0
    for i in range(X.shape[0]):  # in order: t carries over
        for j in range(X.shape[1]):
            t = t + math.log(X[i, j])
            out[i, j] = t
        out[i, 0] = -t


def checked_root(v):
    if v > 100.0:
        return 10.0
    return math.sqrt(v)


def through_helper(x, out):
    acc = 0.0
    for i in range(x.shape[0]):  # in order
        acc = acc + checked_root(x[i])
        out[i] = acc


def halving(x, out):
    acc = 0.0
    for i in range(x.shape[0]):  # in order
        v = x[i]
        while v > 1.0:
            v = v / 2.0
            acc = acc + math.log(v - 1.5)
        out[i] = acc


def gathered_sums(x, idx, out):
    acc = 0.0
    for i in range(idx.shape[0]):  # in order
        acc = acc + x[idx[i]]
        out[i] = acc


def fails_the_same(fn, *args, boundscheck=False):
    """fn under @numgpu.jit against plain fn, on copies: the same exception
    (type, Python's words at the end of numgpu's) and the arrays as Python's
    loop leaves them when it raises: nothing after the failing operation ran."""
    plain = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(Exception) as want:
        fn(*plain)
    f = numgpu.jit(fn, boundscheck=boundscheck)
    with pytest.raises(Exception) as got:
        f(*mine)
    assert type(got.value) is type(want.value)
    assert str(got.value).endswith(str(want.value)), (got.value, want.value)
    for p, m in zip(plain, mine):
        if isinstance(p, np.ndarray):
            np.testing.assert_array_equal(m, p)
    assert f.loop_report()[0]["kind"] == "sequential" and f.loop_report()[0]["ran"].startswith("kernel")


def test_a_loop_in_order_stops_where_python_raises():
    x = np.array([1.0, 4.0, -1.0, 9.0, -4.0, 16.0])
    fails_the_same(running_roots, x, np.zeros(6))
    fails_the_same(through_helper, x, np.zeros(6))
    fails_the_same(running_lookup, "abcxyzq" * 20, {"a": 1, "b": 2, "c": 3}, np.zeros(140, dtype=np.int64))
    X = np.ones((4, 5)) * 2.0
    X[2, 3] = -1.0
    X[3, 1] = 0.0
    fails_the_same(nested_rows, X, np.zeros((4, 5)))
    fails_the_same(halving, np.array([8.0, 0.5, 3.0, 40.0]), np.zeros(4))
    fails_the_same(gathered_sums, np.arange(5.0), np.array([0, 1, 7, 2, 9, 3]), np.zeros(6), boundscheck=True)


def scaled_parts(x, lo, hi, v, out):
    for i in range(out.shape[0]):  # each row's part scaled by the log of v[i]
        out[i, lo[i]:hi[i]] = x[i, lo[i]:hi[i]] * math.log(v[i])


def part_sums(x, lo, hi, v, out):
    for i in range(out.shape[0]):
        out[i] = np.sum(x[i, lo[i]:hi[i]] / math.sqrt(v[i]))


def guarded_in_the_part(x, d, out):
    for i in range(out.shape[0]):
        out[i, :] = x[i, :] * (1 // d[i] if d[i] else 0) + x[i, :]


def test_a_number_in_an_expression_of_rows_raises_where_the_rows_are_empty():
    """Python computes math.log(v[i]) before NumPy's product, so a row whose part is empty
    raises as the others do (jit_difftest seed 960301: the kernel raised only where the part
    had elements)."""
    x = np.arange(24.0).reshape(4, 6)
    lo = np.array([0, 2, 3, 1])
    hi = np.array([3, 5, 3, 4])  # row 2's part is empty
    jit_same(scaled_parts, x, lo, hi, np.array([1.0, 2.0, 3.0, 4.0]), np.zeros((4, 6)))
    jit_same(part_sums, x, lo, hi, np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(4))
    for v in ([1.0, 2.0, -1.0, 4.0], [1.0, -2.0, 3.0, 4.0]):
        for fn, out in ((scaled_parts, np.zeros((4, 6))), (part_sums, np.zeros(4))):
            want, got, f = python_and_jit(fn, x, lo, hi, np.array(v), out)
            assert want[0] is ValueError and got == want, (fn.__name__, v, got, want)
    # a number under a condition inside the expression is computed only where it holds
    jit_same(guarded_in_the_part, x, np.array([2, 0, -3, 0]), np.zeros((4, 6)))
