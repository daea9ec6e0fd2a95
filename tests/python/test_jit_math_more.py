"""More of the math module compiles (src/jit/lower.c math_call): math.remainder (CPython's exact
m_remainder), math.isclose with rel_tol/abs_tol (ValueError of a negative tolerance),
math.nextafter, math.ldexp, math.log(x, base), math.isqrt, math.hypot of 3 or more
coordinates (CPython's vector_norm, bit for bit), `m, e = math.frexp(x)` and
`f, i = math.modf(x)`. Compared with plain Python on real data and special values (each
result's value and type, or the exception's type), with the loop report's kind."""
import math

import numpy as np
import pytest

import numgpu
from helpers import jit_same, python_and_jit

rng = np.random.default_rng(5)

SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, 1e-310, -1e-310, 5e-324, 1e308, -1e308, 7.0, 1e16,
                    np.inf, -np.inf, np.nan, 3.0, 0.1, 123456.789])


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def floats(dt, n=60):
    x = rng.normal(size=n) * 10.0 ** rng.integers(-5, 6, n)
    return x.astype(dt)


def remainders(x, y, out):
    for i in range(len(x)):
        out[i] = math.remainder(x[i], y[i])


def nexts(x, y, out):
    for i in range(len(x)):
        out[i] = math.nextafter(x[i], y[i])


def ldexps(x, n, out):
    for i in range(len(x)):
        out[i] = math.ldexp(x[i], int(n[i]))


def ldexp_numpy_int(x, n, out):
    for i in range(len(x)):
        out[i] = math.ldexp(x[i], n[i])  # (a NumPy integer: Python's TypeError)


def logs(x, b, out):
    for i in range(len(x)):
        out[i] = math.log(x[i], b)


def closes(x, y, out, r, a):
    for i in range(len(x)):
        out[i] = math.isclose(x[i], y[i], rel_tol=r, abs_tol=a)


def closes_default(x, y, out):
    for i in range(len(x)):
        out[i] = math.isclose(x[i], y[i])


def isqrts(n, out):
    for i in range(len(n)):
        out[i] = math.isqrt(n[i])


def hypots(x, y, z, out):
    for i in range(len(x)):
        out[i] = math.hypot(x[i], y[i], z[i])


def hypot4(x, y, out):
    for i in range(len(x)):
        out[i] = math.hypot(x[i], y[i], 1.5, x[i] * y[i])


def frexps(x, m, e):
    for i in range(len(x)):
        a, b = math.frexp(x[i])
        m[i] = a
        e[i] = b


def modfs(x, f, p):
    for i in range(len(x)):
        a, b = math.modf(x[i])
        f[i] = a
        p[i] = b


def scalar_types(x):
    t = 0
    for i in range(len(x)):
        m, e = math.frexp(x[i])
        f, w = math.modf(x[i])
        t += e + math.isqrt(i)  # (Python ints)
        if math.isclose(m, f):
            t += 1
    return t


def same_bits(a, b):
    return np.array_equal(np.asarray(a).view(np.int64), np.asarray(b).view(np.int64)) or \
        np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_remainder(dt):
    x = floats(np.float64)
    y = floats(np.float64)
    y[::7] = 0.7
    if dt is np.int64:
        x, y = rng.integers(-50, 50, 60), rng.integers(1, 9, 60)
    else:
        x, y = x.astype(dt), y.astype(dt)
    assert kinds(jit_same(remainders, x, y, np.zeros(60))) == ["parallel"]
    # halfway cases (the ties go to even), infinities as y, NaNs
    x = np.array([5.0, 7.0, -5.0, 1.5, 2.5, 3.0, -0.0, np.nan, 1.0, 4.0, 1e300])
    y = np.array([2.0, 2.0, 2.0, 1.0, 1.0, np.inf, 1.0, 1.0, np.nan, -np.inf, 1e-300])
    jit_same(remainders, x, y, np.zeros(len(x)))


@pytest.mark.parametrize("x, y", [(np.inf, 1.0), (1.0, 0.0), (-np.inf, np.inf), (0.0, 0.0)])
def test_remainder_domain(x, y):
    py, me, _ = python_and_jit(remainders, np.array([1.0, x]), np.array([3.0, y]), np.zeros(2))
    assert py[0] is ValueError and me == py


def test_nextafter_and_ldexp():
    x = np.concatenate([SPECIAL, floats(np.float64)])
    y = np.concatenate([SPECIAL[::-1], floats(np.float64)])
    assert kinds(jit_same(nexts, x, y, np.zeros(len(x)))) == ["parallel"]
    jit_same(nexts, x.astype(np.float32), y, np.zeros(len(x)))
    fin = np.where(np.abs(x) < 1e300, x, 1.0)
    n = rng.integers(-1100, 60, len(x))
    assert kinds(jit_same(ldexps, fin, n, np.zeros(len(x)))) == ["parallel"]
    jit_same(ldexps, SPECIAL, np.full(len(SPECIAL), -1074), np.zeros(len(SPECIAL)))
    jit_same(ldexps, np.array([np.inf, np.nan, 0.0]), np.array([5000, 5000, 5000]), np.zeros(3))
    py, me, _ = python_and_jit(ldexps, np.array([1.0, 1e300]), np.array([1, 100]), np.zeros(2))
    assert py[0] is OverflowError and me == py
    py, me, _ = python_and_jit(ldexp_numpy_int, np.array([1.0, 2.0]), np.array([1, 100]), np.zeros(2))
    assert py[0] is TypeError and me[0] is TypeError


@pytest.mark.parametrize("base", [2, 10.0, 0.5, np.e, 3, np.float32(7.0)])
def test_log_base(base):
    x = np.abs(floats(np.float64)) + 1e-300
    x[:3] = [1.0, np.inf, np.nan]
    assert kinds(jit_same(logs, x, base, np.zeros(len(x)))) == ["parallel"]
    jit_same(logs, np.arange(1, 40), base, np.zeros(39))


@pytest.mark.parametrize("x, base, exc", [(0.0, 2.0, ValueError), (-1.0, 2.0, ValueError), (2.0, 0.0, ValueError),
                                          (2.0, -3.0, ValueError), (2.0, 1.0, ZeroDivisionError),
                                          (0, 10, ValueError)])
def test_log_base_errors(x, base, exc):
    py, me, _ = python_and_jit(logs, np.array([4.0, x]), base, np.zeros(2))
    assert py[0] is exc and me == py


@pytest.mark.parametrize("r, a", [(1e-9, 0.0), (1e-3, 0.0), (0.0, 1e-2), (0.5, 0.5), (0.0, 0.0), (np.nan, 0.0)])
def test_isclose(r, a):
    x = floats(np.float64)
    y = x * (1 + rng.choice([0.0, 1e-10, 1e-4, 1e-2, 1.0], len(x))) + rng.choice([0.0, 1e-3], len(x))
    x[:6] = [np.inf, np.inf, np.nan, 0.0, -0.0, 1e-300]
    y[:6] = [np.inf, -np.inf, np.nan, -0.0, 1e-3, 0.0]
    assert kinds(jit_same(closes, x, y, np.zeros(len(x), bool), r, a)) == ["parallel"]
    jit_same(closes_default, x, y, np.zeros(len(x), bool))
    jit_same(closes_default, x.astype(np.float32), y, np.zeros(len(x)))


@pytest.mark.parametrize("r, a", [(-1e-9, 0.0), (0.0, -1.0), (-0.1, -0.1)])
def test_isclose_negative_tolerance(r, a):
    py, me, _ = python_and_jit(closes, np.ones(3), np.ones(3), np.zeros(3, bool), r, a)
    assert py[0] is ValueError and me == py


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint8, np.uint64, np.bool_])
def test_isqrt(dt):
    info = np.iinfo(dt) if dt is not np.bool_ else None
    hi = 2 ** 62 if dt in (np.int64, np.uint64) else (int(info.max) if info else 1)
    n = rng.integers(0, hi, 200, dtype=np.int64, endpoint=True).astype(dt)
    if dt is np.bool_:  # (a NumPy bool has no __index__: Python's TypeError, as the jit's)
        py, me, _ = python_and_jit(isqrts, n, np.zeros(len(n), np.int64))
        assert py[0] is TypeError and me[0] is TypeError
        return
    if dt in (np.int64, np.uint64):  # squares and their neighbours, the top of int64
        s = rng.integers(0, 3037000499, 50)
        n[:150] = np.concatenate([s * s, s * s - 1, s * s + 1])[:150].clip(0).astype(dt)
        n[150:153] = [2 ** 63 - 1, 2 ** 62, 0]
    assert kinds(jit_same(isqrts, n, np.zeros(len(n), np.int64))) == ["parallel"]


def test_isqrt_negative():
    py, me, _ = python_and_jit(isqrts, np.array([4, -1]), np.zeros(2, np.int64))
    assert py[0] is ValueError and me == py


@pytest.mark.parametrize("scale", [1.0, 1e-160, 1e160, 1e-310, 1e-308, 3e-308, 1e-320, 1e300])
def test_hypot_three_or_more(scale):
    n = 500
    x, y, z = (rng.normal(size=n) * scale for _ in range(3))
    z[::5] = 0.0
    assert kinds(jit_same(hypots, x, y, z, np.zeros(n))) == ["parallel"]
    jit_same(hypot4, x, y, np.zeros(n))
    jit_same(hypots, x.astype(np.float32), y, z, np.zeros(n))


def test_hypot_special():
    x = np.array([np.inf, np.nan, np.nan, 0.0, -0.0, 5e-324, 1e308, 3.0])
    y = np.array([np.nan, np.inf, 1.0, 0.0, 0.0, 5e-324, 1e308, 4.0])
    z = np.array([1.0, 2.0, 3.0, -0.0, 0.0, 0.0, 1e308, 12.0])
    jit_same(hypots, x, y, z, np.zeros(len(x)))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_frexp_modf(dt):
    x = np.concatenate([SPECIAL, floats(np.float64)])
    if dt is np.int64:
        x = rng.integers(-10 ** 6, 10 ** 6, 50)
    else:
        x = x.astype(dt)
    assert kinds(jit_same(frexps, x, np.zeros(len(x)), np.zeros(len(x), np.int64))) == ["parallel"]
    assert kinds(jit_same(modfs, x, np.zeros(len(x)), np.zeros(len(x)))) == ["parallel"]
    f1, p1 = np.zeros(len(x)), np.zeros(len(x))
    modfs(x, f1, p1)
    f2, p2 = np.zeros(len(x)), np.zeros(len(x))
    numgpu.jit(modfs)(x, f2, p2)
    assert same_bits(f1, f2) and same_bits(p1, p2)  # (signed zeros)


def test_python_int_results():
    x = np.concatenate([SPECIAL[np.isfinite(SPECIAL)], floats(np.float64)])
    jit_same(scalar_types, x)


def log_of_ratio(x, b, out):
    for i in range(len(x)):
        out[i] = math.log(x[i], 1 / int(b[i]))


def close_of_ratio(x, b, out):
    for i in range(len(x)):
        out[i] = math.isclose(x[i], 1 / int(b[i]), rel_tol=-1.0)


def test_arguments_before_their_errors():
    # (Python evaluates every argument first: the ZeroDivisionError of the base or of the second
    # operand comes before log's domain error and isclose's negative tolerance)
    x = np.array([2.0, 0.0])
    b = np.array([2, 0])
    py, me, _ = python_and_jit(log_of_ratio, x, b, np.zeros(2))
    assert py[0] is ZeroDivisionError and me == py
    py, me, _ = python_and_jit(close_of_ratio, x, b, np.zeros(2, bool))
    assert py[0] is ValueError and me == py  # (the first iteration's tolerance error)
    py, me, _ = python_and_jit(close_of_ratio, x[::-1].copy(), b[::-1].copy(), np.zeros(2, bool))
    assert py[0] is ZeroDivisionError and me == py
