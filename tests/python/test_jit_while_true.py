"""`while True:` loops in compiled loops, against plain Python: the body runs once at least, up to
its first statement that may leave the iteration (a break, continue or return, also inside an
if), so a name assigned there is bound after the loop. Such a loop inside a parallel loop ran the
whole outer loop as Python ("it may read nx before it is bound": hunt 13), then in one thread;
names assigned only after a possible exit stay unsure (the loop runs as Python where they are read
after it, which raises Python's error where Python does)."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same


def newton_sqrt(a, out):
    for i in range(len(a)):
        x = a[i] if a[i] > 1 else 1.0
        while True:
            nx = 0.5 * (x + a[i] / x)
            if abs(nx - x) < 1e-12 * nx:
                break
            x = nx
        out[i] = nx


def first_power_above(a, out, steps):
    for i in range(len(a)):
        p = 1
        k = 0
        while True:
            p *= 2
            k += 1
            last = p
            if p > a[i]:
                break
        out[i] = last
        steps[i] = k


def assigned_after_the_exit(a, out):
    for i in range(len(a)):
        while True:
            if a[i] > 0:
                break
            t = 1.0
            break
        out[i] = t          # unbound where a[i] > 0: Python's UnboundLocalError


def nested_loop_inside(a, out):
    for i in range(a.shape[0]):
        while True:
            s = 0.0
            for j in range(a.shape[1]):
                s += a[i, j]
                if s > 100:
                    break       # (the inner for's break: the while goes on to its test)
            if s >= 0:
                break
            a[i, 0] += 1.0
        out[i] = s


def test_newton_parallel_and_exact():
    a = np.random.default_rng(7).random(20000) * 1e6
    jit_same(newton_sqrt, a, np.zeros_like(a))
    f = numgpu.jit(newton_sqrt)
    f(a, np.zeros_like(a))
    outer = f.loop_report()[0]
    assert outer["kind"] == "parallel" and outer["ran"] == "kernel", outer


def test_names_before_the_first_exit():
    a = np.random.default_rng(1).integers(1, 10**9, 5000)
    jit_same(first_power_above, a, np.zeros_like(a), np.zeros_like(a))


def test_names_after_an_exit_stay_unsure():
    a = np.array([-1.0, -2.0, -3.0])
    jit_same(assigned_after_the_exit, a, np.zeros(3))
    b = np.array([2.0, -1.0])
    with pytest.raises(UnboundLocalError):
        assigned_after_the_exit(b, np.zeros(2))
    with pytest.raises(UnboundLocalError):
        numgpu.jit(assigned_after_the_exit)(b, np.zeros(2))


def test_a_nested_loops_break_is_its_own():
    a = np.random.default_rng(2).standard_normal((300, 20))
    a[::7] -= 3.0
    jit_same(nested_loop_inside, a, np.zeros(300))
