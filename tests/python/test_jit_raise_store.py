"""A parallel loop's iteration that raises stores nothing from the failing operation on (F10 of
the fourth hunt: `out[i] = 1 / int(x[i])` stored inf at the failing i, `out[i] = int(nan)`
INT64_MIN): src/jit/lower.c guarded. The exception is Python's; the elements of iterations
before the failing one are Python's; the failing element keeps its value; iterations after it
(which Python never runs) may have stored theirs, as the guide says. Compared with plain
Python."""
import math

import numpy as np
import pytest

import numgpu

rng = np.random.default_rng(23)


def inverse(x, out):
    for i in range(len(x)):
        out[i] = 1 / int(x[i])


def truncated(x, out):
    for i in range(len(x)):
        out[i] = int(x[i])


def roots(x, out, y):
    for i in range(len(x)):
        y[i] = x[i] * 2.0  # (before the failing operation: stored, as Python)
        out[i] = math.sqrt(x[i])


def logs(x, out):
    for i in range(len(x)):
        out[i] = math.log(x[i]) + 1.0


def run(fn, *args):
    arrays = [a.copy() for a in args]
    try:
        fn(*arrays)
        return None, arrays
    except (ValueError, ZeroDivisionError, OverflowError) as e:
        return type(e), arrays


@pytest.mark.parametrize("fn, bad, dt", [(inverse, 0.0, np.float64), (truncated, np.nan, np.int64),
                                         (truncated, np.inf, np.int32), (roots, -1.0, np.float64),
                                         (logs, 0.0, np.float32), (logs, -2.0, np.float64)])
@pytest.mark.parametrize("at", [0, 7, 99])
def test_failing_iteration_stores_nothing(fn, bad, dt, at):
    x = rng.random(100) * 10 + 1
    x[at] = bad
    args = (x, np.full(100, 5, dt)) + ((np.zeros(100),) if fn is roots else ())
    want_exc, want = run(fn, *args)
    f = numgpu.jit(fn)
    got_exc, got = run(f, *args)
    assert got_exc is want_exc is not None
    assert [r["kind"] for r in f.loop_report()][0] == "parallel"
    out = got[1]
    assert out[at] == 5  # (the failing element: never stored)
    np.testing.assert_array_equal(out[:at], want[1][:at])  # (the iterations before it: Python's)
    if fn is roots:
        np.testing.assert_array_equal(got[2][:at + 1], want[2][:at + 1])  # (y stored before the raise)
