"""round(v, n) of a Python float in @numgpu.jit loops stays CPython's exact decimal rounding when
the value is a product or a sum made in the loop (`round(float(x[i]) * c, 3)`): the lowering's
exact product error (Dekker's split) relies on every multiply and add rounding on its own, which
-ffp-contract=off gives the cpu backend's C compiler (GCC was seen to emit vfmsubadd in generated
cpu code, in complex multiplies); each result compared bit for bit with plain Python on many
values, in parallel loops (vectorised), a 2-d nest and a loop in order, on cpu and opencl."""
import math

import numpy as np
import pytest

import numgpu

from helpers import jit_same, device_param


@pytest.fixture(params=["cpu", "opencl"])
def device(request):
    yield from device_param(request)


def scaled(x, out, c, n):
    for i in range(x.shape[0]):
        out[i] = round(float(x[i]) * c, n)
    return out


def affine(x, out, c, d):
    for i in range(x.shape[0]):
        v = float(x[i])
        out[i] = round(v * c + d, 3) + round(v * v - c, 2)
    return out


def grid(X, out, c):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[i, j] = round(float(X[i, j]) * c * (j + 1), 4)
    return out


def running(x, c):
    s = 0.0
    for i in range(x.shape[0]):
        s = round(s * 0.5 + float(x[i]) * c, 3)
    return s


def numpy_scaled(x, out, c):  # (np.float64's round: NumPy's, x * c * 10**n rounded by rint)
    for i in range(x.shape[0]):
        out[i] = round(x[i] * c, 3)
    return out


def values(n, seed):
    """Decimal halves (the ties), their neighbours, and random magnitudes."""
    rng = np.random.default_rng(seed)
    k = rng.integers(-10**7, 10**7, n)
    v = np.concatenate([(k + 0.5) / 1000, np.nextafter((k + 0.5) / 1000, np.inf),
                        rng.standard_normal(n) * 10.0 ** rng.integers(-8, 12, n), rng.random(n)])
    return v


@pytest.mark.parametrize("c", [1.0, 0.1, 1.1, 3.7, 1 / 3, 1e-5, 12345.678])
@pytest.mark.parametrize("n", [0, 2, 3, 7, -2])
def test_product_rounded(device, c, n):
    x = values(20_000 if device == "cpu" else 3_000, 1)
    f = jit_same(scaled, x, np.zeros_like(x), c, n)
    assert [r["kind"] for r in f.loop_report()] == ["parallel"]
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()


@pytest.mark.parametrize("c,d", [(1.1, 0.0005), (0.7, -0.25), (3.3, 1e-9)])
def test_sum_of_products_rounded(device, c, d):
    x = values(20_000 if device == "cpu" else 3_000, 2)
    f = jit_same(affine, x, np.zeros_like(x), c, d)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()


def test_nest_and_in_order(device):
    X = values(2_000, 3).reshape(-1, 40)
    f = jit_same(grid, X, np.zeros_like(X), 0.3)
    assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()
    x = values(3_000, 4)
    g = jit_same(running, x, 1.7)
    assert g.loop_report()[0]["kind"] == "sequential" and g.loop_report()[0]["ran"].startswith("kernel")


def test_numpy_round_of_product(device):
    x = values(5_000, 5)
    x = x[np.abs(x) < 1e200]
    jit_same(numpy_scaled, x, np.zeros_like(x), 1.1)
    assert math.isclose(round(np.float64(2.675) * 1.0, 2), 2.68)  # (NumPy's, not CPython's 2.67)
