"""Loops over a range or an array taken backwards or in part compile (src/jit/desugar.c
seq_of): `reversed(range(a, b, s))`, `range(...)[p:q:t]`, `x[::-1]`, `x[p:q:t]`,
`reversed(x)`, `enumerate(x[2:])`, `zip(x[::-1], y)`, `for d in A.shape`: each becomes a
range loop with Python's slice.indices() bounds, so every element, its order and the names
left after the loop are Python's. Compared with plain Python on real data, with the loop
report's kind (parallel where the iterations are independent, sequential where a value
carries)."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

rng = np.random.default_rng(7)
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8]


def data(n, dt):
    if np.issubdtype(dt, np.integer):
        return rng.integers(0, 100, n).astype(dt)
    return rng.normal(size=n).astype(dt)


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


# ---- reversed(range(...)) and slices of a range ----

def rev_range(x, out, a, b):
    for i in reversed(range(a, b)):
        out[i] = x[i] * 2


def rev_range_step(x, out, a, b):
    for i in reversed(range(a, b, 3)):
        out[i] = x[i] + 1


def rev_range_down(x, out, a, b):
    for i in reversed(range(b - 1, a, -2)):
        out[i] = x[i] - 1


def range_rev_slice(x, out):
    for i in range(len(x))[::-1]:
        out[i] = x[i] * 3


def range_part(x, out, p, q):
    for i in range(len(x))[p:q]:
        out[i] = x[i] + 5


def range_part_step(x, out, p, q):
    for i in range(1, len(x), 2)[p:q:-1]:
        out[i] = x[i] + 7


def range_part_none(x, out, q):
    for i in range(len(x))[None:q:2]:
        out[i] = x[i] + 7


def nested_forms(x, out):
    for i in reversed(range(len(x))[1::3]):
        out[i] = x[i] + 9


def last_index(x, a, b):
    i = -99
    for i in reversed(range(a, b, 2)):  # (i live after the loop: sequential)
        x[i] += 1
    return i


def horner_backwards(c, t):
    s = 0.0
    for k in reversed(range(len(c))):
        s = s * t + c[k]
    return s


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("a, b", [(0, 11), (2, 11), (3, 4), (5, 5), (7, 2), (-3, 6), (0, 0)])
def test_reversed_range(dt, a, b):
    x = data(11, dt)
    for fn in (rev_range, rev_range_step, rev_range_down):
        lo = max(a, 0)  # (negative indices wrap in Python too)
        f = jit_same(fn, x, np.zeros(11, dt), lo, b)
        assert kinds(f) == ["parallel"]
    assert kinds(jit_same(last_index, x, max(a, 0), b)) == ["sequential"]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 9])
def test_range_reversed_by_slice(dt, n):
    x = data(n, dt)
    assert kinds(jit_same(range_rev_slice, x, np.zeros(n, dt))) == ["parallel"]
    assert kinds(jit_same(nested_forms, x, np.zeros(n, dt))) == ["parallel"]
    assert kinds(jit_same(range_part_none, x, np.zeros(n, dt), -1)) == ["parallel"]


BOUNDS = [0, 1, 3, -1, -4, 20, -20, None]


@pytest.mark.parametrize("p", BOUNDS)
@pytest.mark.parametrize("q", BOUNDS)
def test_range_parts(p, q):
    x = data(10, np.float64)
    # (a bound that is None at run time, a name the kernel cannot type: the loop runs as Python)
    want = ["python"] if p is None or q is None else ["parallel"]
    assert kinds(jit_same(range_part, x, np.zeros(10), p, q)) == want
    assert kinds(jit_same(range_part_step, x, np.zeros(10), p, q)) == want


def test_range_part_bound_types():
    x = data(10, np.float64)
    jit_same(range_part, x, np.zeros(10), np.int64(2), np.int32(-2))
    jit_same(range_part, x, np.zeros(10), True, 4)
    py, me, _ = python_and_jit(range_part, x, np.zeros(10), 1.5, 4)
    assert py[0] is TypeError and me[0] is TypeError


def test_horner_backwards_sequential():
    c = rng.normal(size=12)
    f = jit_same(horner_backwards, c, 0.7)
    assert kinds(f) == ["sequential"]
    jit_same(horner_backwards, c[:0], 0.7)


# ---- arrays taken backwards or in part ----

def arr_rev_sum(x):
    s = 0.0
    for v in x[::-1]:
        s = s * 0.5 + v
    return s


def arr_reversed(x):
    s = 0
    k = 0
    for v in reversed(x):
        s += v * k
        k += 1
    return s


def arr_part(x, p, q):
    s = 0.0
    v = -1.0
    for v in x[p:q:2]:
        s = s * 0.25 + v
    return s, v


def arr_part_back(x, p, q):
    s = 0.0
    for v in x[p:q:-3]:
        s = s * 0.25 + v
    return s


def arr_tail(x):
    t = 0
    for v in x[2:]:  # (a count: a parallel float sum may round otherwise than Python's order)
        if v > 0.5:
            t += 1
    return t


def rows_back(X, out):
    k = 0
    for row in X[::-1]:
        s = 0.0
        for v in row[1::2]:
            s += v
        out[k] = s
        k += 1


def enum_part(x, out):
    for i, v in enumerate(x[2:]):
        out[i] = v * 2


def enum_back(x, out, s):
    for i, v in enumerate(x[::-1], s):
        out[i - s] = v + i


def zip_back(x, y, out):
    k = 0
    for p, q in zip(x[::-1], y[1:]):
        out[k] = p - q
        k += 1
    return k


def reverse_in_place(x):
    for i, v in enumerate(x[::-1]):  # reads what earlier iterations wrote: sequential
        x[i] = v


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 10])
def test_array_backwards(dt, n):
    x = data(n, dt)
    assert kinds(jit_same(arr_rev_sum, x)) == ["sequential"]
    jit_same(arr_reversed, x)
    jit_same(arr_tail, x)
    out = np.zeros(n, dt)
    assert kinds(jit_same(enum_part, x, out)) == ["parallel"]
    assert kinds(jit_same(enum_back, x, out, 3)) == ["parallel"]
    jit_same(zip_back, x, data(n, dt), out)
    f = jit_same(reverse_in_place, x)
    assert kinds(f) == ["sequential"]


@pytest.mark.parametrize("p", BOUNDS)
@pytest.mark.parametrize("q", [0, 2, -1, -30, 30, None])
def test_array_parts(p, q):
    x = data(9, np.float64)
    jit_same(arr_part, x, p, q)
    jit_same(arr_part_back, x, p, q)


@pytest.mark.parametrize("dt", [np.float64, np.int32])
def test_rows_backwards(dt):
    X = data(35, dt).reshape(7, 5)
    jit_same(rows_back, X, np.zeros(7))


def test_list_runs_as_python():
    assert jit_same(arr_tail, [1, 2, 3, 4]) is not None


# ---- the shape tuple ----

def shape_prod(A):
    p = 1
    for d in A.shape:
        p *= d
    return p


def shape_axes(A, out):
    for i, d in enumerate(A.shape):
        out[i] = d * 10 + i


def shape_back(A):
    s = 0
    for d in reversed(A.shape):
        s = s * 100 + d
    return s


def shape_at(A, k):
    t = 0
    for i in range(3):
        t += A.shape[k]
    return t


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (1, 0, 2), (2, 1, 3, 2)])
def test_shape_tuple(shape):
    A = np.zeros(shape)
    assert kinds(jit_same(shape_prod, A)) == ["parallel"]
    jit_same(shape_axes, A, np.zeros(4, np.int64))
    jit_same(shape_back, A)
    for k in range(-len(shape), len(shape)):
        jit_same(shape_at, A, k)
    py, me, _ = python_and_jit(shape_at, A, len(shape))
    assert py[0] is IndexError and me[0] is IndexError
