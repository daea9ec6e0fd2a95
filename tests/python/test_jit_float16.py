"""@numgpu.jit over float16 arrays: values are halves, every operation rounds
to half as NumPy's float16 scalars do, Python numbers meeting a half become
halves first (NEP 50), and a float16 sum, which rounds after every step, runs
in order. Every case is compared bit for bit with plain Python."""
import math

import numpy as np
import pytest

from helpers import jit_same

N = 50_000


@pytest.fixture
def h():
    return (np.random.default_rng(0).standard_normal(N) * 30).astype(np.float16)


def scale_shift(h, out, a):
    for i in range(h.shape[0]):
        out[i] = h[i] * a + 0.1


def arithmetic(h, out):
    for i in range(h.shape[0]):
        v = h[i] * h[i] - 3
        w = v / (h[i] + 1.5)
        out[i] = w ** 2 - v // 7 + v % 5


def functions(h, out):
    for i in range(h.shape[0]):
        out[i] = np.sqrt(abs(h[i])) + np.exp(h[i] * 0.01) + max(h[i], 0.5) + np.floor(h[i])


def to_wider(h, x, out):
    for i in range(h.shape[0]):
        out[i] = h[i] * x[i] + math.sqrt(abs(h[i]))


def big_int_constant(h, out):
    for i in range(h.shape[0]):
        out[i] = h[i] + 2049  # 2049 is the half 2048


def compare_and_count(h):
    n = 0
    for i in range(h.shape[0]):
        if h[i] * 0.5 > 3.1:
            n += 1
    return n


@pytest.mark.parametrize("a", [1.7, np.float16(1.7), 3])
def test_scale_with_python_and_half_scalars(h, a):
    f = jit_same(scale_shift, h, np.zeros(N, np.float16), a)
    assert f.loop_report()[0]["kind"] == "parallel" and f.loop_report()[0]["ran"] == "kernel"


@pytest.mark.parametrize("out_dtype", [np.float16, np.float32, np.float64])
def test_arithmetic_rounds_like_numpy(h, out_dtype):
    jit_same(arithmetic, h, np.zeros(N, out_dtype))


def test_numpy_and_builtin_functions(h):
    jit_same(functions, h, np.zeros(N, np.float16))


def test_wider_operands_and_math_give_wider_results(h):
    jit_same(to_wider, h, np.random.default_rng(1).standard_normal(N).astype(np.float32), np.zeros(N))


def test_constants_become_halves(h):
    jit_same(big_int_constant, h, np.zeros(N, np.float16))


def test_counting_with_a_half_test(h):
    f = jit_same(compare_and_count, h)
    assert f.loop_report()[0]["reductions"] == [("n", "+")]


def half_sum(h):
    s = np.float16(0)
    for i in range(h.shape[0]):
        s += h[i]
    return s


def weak_start_sum(h):
    s = 0.0  # a Python float meeting a half: the sum is a half
    for i in range(h.shape[0]):
        s = s + h[i] * 0.5
    return s


def running(h, out):
    acc = np.float16(1)
    for i in range(h.shape[0]):
        acc = acc * 0.5 + h[i]
        out[i] = acc
    return acc


@pytest.mark.parametrize("fn", [half_sum, weak_start_sum])
def test_half_sums_run_in_order(h, fn):
    f = jit_same(fn, h[:5000])
    rep = f.loop_report()[0]
    assert rep["ran"].startswith("kernel (one thread"), rep


def test_a_carried_half(h):
    jit_same(running, h[:5000], np.zeros(5000, np.float16))


def argmax_half(h):
    best = h[0]
    k = 0
    for i in range(h.shape[0]):
        if h[i] > best:
            best = h[i]
            k = i
    return k, best


def test_argmax_of_halves(h):
    f = jit_same(argmax_half, h)
    assert f.loop_report()[0]["ran"] == "kernel"


def scatter_half(idx, hist):
    for i in range(idx.shape[0]):
        hist[idx[i]] += 1


def test_scattered_half_updates_run_in_order():
    idx = np.random.default_rng(2).integers(0, 50, 20_000)
    f = jit_same(scatter_half, idx, np.zeros(50, np.float16))  # counts past 2048 stop growing, as in NumPy
    assert f.loop_report()[0]["ran"].startswith("kernel (one thread")
