"""Integer floor division, modulo, fmod and divmod against NumPy, bit for bit.

On cpu a divisor the loop does not change (a scalar operand) is divided by through its precomputed
reciprocal (ng_divprep in src/emit/targets.c: a multiply-high and shifts, signs by masks), and an
array divisor through the double quotient or an integer division: every dtype, every sign, the
dtype's ends (INT_MIN // -1 wraps, as NumPy's does), zero divisors (0, and NumPy's RuntimeWarning),
powers of two and their neighbours (the reciprocal's shift changes there), over arrays small
enough for the kernel's one-thread loop and large enough for its thread team (two copies of the
loop), by Python ints and NumPy scalars of the same and of other dtypes (promotion).
"""
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import INTS, assert_same, dtype_id, jit_same

SIZES = [3000, 40000]  # under and over NG_PAR_MIN_WORK (32768): the serial loop and the parallel one


def divisors(dt):
    """Edge divisors of dtype dt: zero, +-1, small ones, the ends, 2^k and its neighbours."""
    info = np.iinfo(dt)
    cand = [0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 100, -100, 127, 255, 1000, info.min, info.min + 1, info.max,
            info.max - 1]
    for k in range(1, np.dtype(dt).itemsize * 8):
        cand += [2**k, 2**k - 1, 2**k + 1, -(2**k), -(2**k) + 1, -(2**k) - 1, 3 * 2**k]
    return sorted({v for v in cand if info.min <= v <= info.max})


def dividends(dt, n, seed):
    """The edge values (each divisor too), then random values over the whole range and near zero."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(seed)
    edge = np.array(divisors(dt), dtype=dt)
    m = (n - edge.size) // 2
    return np.concatenate([edge, rng.integers(info.min, info.max, m, dtype=dt, endpoint=True),
                           rng.integers(max(info.min, -300), min(info.max, 300), n - edge.size - m, dtype=dt,
                                        endpoint=True)])


def same_with_warnings(got_fn, exp_fn):
    """got_fn() equals exp_fn() (NumPy's), and raises the same RuntimeWarnings."""
    with warnings.catch_warnings(record=True) as we:
        warnings.simplefilter("always")
        exp = exp_fn()
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got = got_fn()
        ng.synchronize()  # (an asynchronous device warns when its flags come back)
    assert_same(got, exp)
    assert sorted({str(w.message) for w in wg}) == sorted({str(w.message) for w in we})


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_by_every_edge_scalar(dt, n):
    a = dividends(dt, n, seed=n)
    ga = ng.asarray(a)
    for s in divisors(dt):
        sv = np.dtype(dt).type(s)
        same_with_warnings(lambda: ga // s, lambda: a // sv)
        same_with_warnings(lambda: ga % s, lambda: a % sv)
        same_with_warnings(lambda: ng.fmod(ga, sv), lambda: np.fmod(a, sv))
        with np.errstate(all="ignore"):
            assert_same(divmod(ga, s), divmod(a, sv))
            assert_same(ng.floor_divide(ga, sv), np.floor_divide(a, sv))
            assert_same(ng.remainder(ga, sv), np.remainder(a, sv))


@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_division_by_zero_warns_once_and_gives_zero(dt):
    a = dividends(dt, 40000, seed=3)
    for op in ["floor_divide", "remainder", "fmod"]:
        with pytest.warns(RuntimeWarning, match="divide by zero"):
            r = getattr(ng, op)(ng.asarray(a), 0)
            ng.synchronize()
        assert not r.get().any()
    if np.iinfo(dt).min < 0:
        with pytest.warns(RuntimeWarning, match="overflow"):
            q = ng.asarray(a) // -1
            ng.synchronize()
        with np.errstate(over="ignore"):
            assert_same(q, a // np.dtype(dt).type(-1))


@pytest.mark.parametrize("x, s", [
    (np.arange(-50, 50, dtype=np.int8), np.int16(-300)),      # int16
    (np.arange(250, dtype=np.uint8), np.int8(-7)),              # int16
    (np.arange(-2**15, 2**15, 7, dtype=np.int16), np.uint16(9)),  # int32
    (np.arange(0, 2**32 - 1, 4093, dtype=np.uint32), np.int32(-13)),  # int64
    (np.arange(-10**6, 10**6, 3, dtype=np.int32), np.int64(2**40 + 1)),  # int64
    (np.arange(2**64 - 3000, 2**64 - 1, dtype=np.uint64), 2**63 + 11),  # uint64, a Python int
    (np.arange(2**64 - 3000, 2**64 - 1, dtype=np.uint64), np.uint64(2**64 - 1)),
    (np.arange(-3000, 3000, dtype=np.int64), 2**62),
], ids=lambda v: str(getattr(v, "dtype", type(v).__name__)))
def test_mixed_scalar_types(x, s):
    gx = ng.asarray(x)
    assert_same(gx // s, x // s)
    assert_same(gx % s, x % s)
    assert_same(ng.fmod(gx, s), np.fmod(x, s))
    assert_same(divmod(gx, s), divmod(x, s))


def test_python_int_out_of_the_dtype_is_refused_as_numpy_does():
    x = np.arange(10, dtype=np.int8)
    with pytest.raises(OverflowError):
        x // 300
    with pytest.raises(OverflowError):
        ng.asarray(x) // 300


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_by_arrays_of_random_signs(dt, n):
    """An array divisor: signs at random (the remainder's sign fix a mask, not a branch)."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(7)
    a = dividends(dt, n, seed=11)
    for b in [rng.integers(info.min, info.max, n, dtype=dt, endpoint=True),
              rng.integers(max(info.min, -20), 21, n, dtype=dt)]:
        with np.errstate(all="ignore"):
            for op in ["floor_divide", "remainder", "fmod"]:
                assert_same(getattr(ng, op)(ng.asarray(a), ng.asarray(b)), getattr(np, op)(a, b))


@pytest.mark.parametrize("k", [7, -7, 1, -1, 2**31 + 5, -(2**40) - 3, 2**62])
def test_jit_loop_by_a_scalar_argument(k):
    def f(x, k, out):
        for i in range(x.shape[0]):
            out[i] = x[i] // k + x[i] % k
        return out

    x = dividends(np.int64, 5000, seed=5)
    jit_same(f, x, k, np.zeros_like(x))
