"""While loops in vector lanes on the cpu device, against plain Python bit for
bit: a parallel loop whose body runs a while loop (collatz, an escape-time
fractal, a digit count) runs eight iterations' while loops at once (in vectors of 8, 4 or 2 lanes:
the host's width), each lane
stepping only while its own test holds. The cases cover what the lanes must
get right: lanes that finish at very different steps or at once, sizes
around the lane width, ranges not starting at 0 and counting down, ifs and
nested ifs inside, bools, unsigned and wrapping integers of 4 and 8 bytes, float32 arithmetic, floor division and
modulo of negative numbers by powers of two, NaN in max/min, -0.0, casts,
loads guarded by `and`, `or`, ifs and conditional expressions at the edges of
their arrays, break and continue, and loops that cannot run in lanes (a test
that reads an array, a while inside an if), which must stay
right the plain way."""
import os
import platform
import subprocess
import sys

import numpy as np
import pytest

from helpers import jit_same


def collatz(start, steps, lo, hi, by):
    for i in range(lo, hi, by):
        v = start[i]
        c = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            c += 1
        steps[i] = c


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000])
def test_collatz_around_the_lane_width(n):
    start = np.arange(1, n + 1, dtype=np.int64)
    jit_same(collatz, start, np.zeros(n, np.int64), 0, n, 1)


@pytest.mark.parametrize("lo,hi,by", [(3, 997, 1), (996, -1, -1), (5, 1000, 7), (999, 2, -3), (10, 10, 1)])
def test_collatz_ranges(lo, hi, by):
    rng = np.random.default_rng(lo + hi)
    start = rng.integers(1, 1 << 40, 1000).astype(np.int64)
    start[::5] = 1  # lanes that are done before the first step
    jit_same(collatz, start, np.full(1000, -1, np.int64), lo, hi, by)


def escape(out, x0, x1, y0, y1, max_iter):
    h, w = out.shape
    for py in range(h):
        for px in range(w):
            cr = x0 + (x1 - x0) * px / w
            ci = y0 + (y1 - y0) * py / h
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[py, px] = n


def orbit(zs, cr, ci, max_iter):
    for i in range(zs.shape[0]):
        zr = 0.0
        zi = 0.0
        n = 0
        while n < max_iter and zr * zr + zi * zi <= 4.0:
            zr, zi = zr * zr - zi * zi + cr[i], 2.0 * zr * zi + ci[i]
            n += 1
        zs[i, 0] = zr
        zs[i, 1] = zi


@pytest.mark.parametrize("h,w,dt", [(13, 29, np.int32), (8, 8, np.int64), (1, 7, np.int32), (0, 5, np.int32),
                                    (21, 40, np.float64)])
def test_escape_time(h, w, dt):
    jit_same(escape, np.zeros((h, w), dt), -2.0, 1.0, -1.2, 1.2, 60)


def test_escaped_orbits_bit_for_bit():
    # the last z of each orbit: every lane's float steps, in order, and none
    # after its own test failed
    rng = np.random.default_rng(3)
    n = 203
    cr, ci = rng.uniform(-2, 1, n), rng.uniform(-1.3, 1.3, n)
    want = np.zeros((n, 2))
    orbit(want, cr, ci, 80)
    f = jit_same(orbit, np.zeros((n, 2)), cr, ci, 80)
    got = np.zeros((n, 2))
    f(got, cr, ci, 80)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


def branches(x, out, limit):
    for i in range(x.shape[0]):
        v = x[i]
        k = 0
        big = False
        while k < limit and not big:
            if v > 100:
                v = v // 4
                big = v > 1000
            elif v % 4 == 3:
                v = v * 3 + 5
            else:
                if v < -50:
                    v = -v
                else:
                    v = v + 7
            k += 1
        out[i] = v + k + big


def test_if_elif_else_and_a_bool_flag():
    rng = np.random.default_rng(5)
    x = rng.integers(-200, 5000, 301).astype(np.int64)
    jit_same(branches, x, np.zeros(301, np.int64), 40)


def floor_ops(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        r = 0
        while v < -1 or v > 1:
            r = r * 4 + v % 4
            v = v // 2
        out[i] = r + v


def test_floor_division_and_modulo_of_negative_numbers():
    x = np.arange(-300, 301, dtype=np.int64) * 7919
    jit_same(floor_ops, x, np.zeros(x.shape[0], np.int64))


def lcg(seed, out, rounds):
    for i in range(seed.shape[0]):
        v = seed[i]
        k = 0
        while k < rounds or v % 8 != 0:
            v = v * 6364136223846793005 + 1442695040888963407
            k += 1
        out[i] = v


@pytest.mark.parametrize("dt", [np.uint64, np.int64])
def test_wrapping_integers(dt):
    seed = np.arange(1, 90, dtype=dt) * dt(2654435761)
    jit_same(lcg, seed, np.zeros(89, dt), 5)


def digits(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        n = 0
        while v > 0:
            v = v // 8
            n += 1
        out[i] = n


def test_unsigned_digits():
    x = np.array([0, 1, 7, 8, 9, 2**63, 2**64 - 1, 12345678901234567890] * 5, dtype=np.uint64)
    jit_same(digits, x, np.zeros(x.shape[0], np.int64))


def float_walk(x, out, steps):
    for i in range(x.shape[0]):
        v = x[i]
        lo = v
        hi = v
        s = 0.0
        k = 0
        while k < steps:
            v = v * -0.75 + (k % 4 == 1) - 0.5 * (v > 0)
            lo = min(lo, v)
            hi = max(hi, v)
            s = s + abs(v) + float(k)
            k += 1
        out[i, 0] = lo
        out[i, 1] = hi
        out[i, 2] = s
        out[i, 3] = -v if k > 3 else v


def test_float_min_max_abs_casts():
    x = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 3e300, -5e-324] * 3)
    f = jit_same(float_walk, x, np.zeros((x.shape[0], 4)), 9)
    want, got = np.zeros((x.shape[0], 4)), np.zeros((x.shape[0], 4))
    with np.errstate(all="ignore"):
        float_walk(x, want, 9)
    f(x, got, 9)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


def np_minmax(x, y, out, steps):
    for i in range(x.shape[0]):
        hi = x[i]
        lo = x[i]
        v = y[i]
        k = 0
        while k < steps:
            v = v * 0.5 - 1.0
            hi = np.maximum(hi, v)
            lo = np.minimum(lo, v)
            k += 1
        out[i, 0] = hi
        out[i, 1] = lo


def test_nan_propagating_maximum_and_minimum():
    x = np.array([np.nan, 1.0, -3.0, np.inf, 0.0, -0.0, 2.0, np.nan, 5.0, -np.inf] * 2)
    y = np.array([1.0, np.nan, 2.0, -1.0, np.inf, 3.0, -0.0, 4.0, 0.5, 7.0] * 2)
    jit_same(np_minmax, x, y, np.zeros((x.shape[0], 2)), 6)


def select_and_shapes(x, out, scale):
    for i in range(x.shape[0]):
        v = x[i]
        k = 0
        while k < x.shape[0] and v != 0:
            v = v - 1 if v > 0 else v + 2
            k += 1 if k % 2 == 0 else scale
        out[i] = k * 1000 + v


def test_conditional_expressions_shared_scalars_and_shapes():
    x = np.arange(-20, 21, dtype=np.int64) * 3
    jit_same(select_and_shapes, x, np.zeros(x.shape[0], np.int64), 3)


def escape32(cr, ci, out, max_iter):
    for i in range(cr.shape[0]):
        zr = cr[i] * 0
        zi = ci[i] * 0
        n = 0
        while n < max_iter and zr * zr + zi * zi <= 4:
            zr, zi = zr * zr - zi * zi + cr[i], zr * zi * 2 + ci[i]
            n += 1
        out[i, 0] = zr
        out[i, 1] = n


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_escape_time_in_float32_stays_float32(dt):
    rng = np.random.default_rng(11)
    cr, ci = rng.uniform(-2, 1, 203).astype(dt), rng.uniform(-1.3, 1.3, 203).astype(dt)
    want, got = np.zeros((203, 2), dt), np.zeros((203, 2), dt)
    with np.errstate(all="ignore"):
        escape32(cr, ci, want, 70)
    f = jit_same(escape32, cr, ci, np.zeros((203, 2), dt), 70)
    f(cr, ci, got, 70)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


def int_steps(x, out, limit):
    for i in range(x.shape[0]):
        v = x[i]
        k = 0
        m = v
        while k < limit and v != 1:
            v = v // 2 if v % 2 == 0 else v * 3 + 1
            m = max(m, abs(v))
            k += 1
        out[i, 0] = v
        out[i, 1] = m
        out[i, 2] = k


@pytest.mark.parametrize("dt", [np.int32, np.uint32, np.int64, np.uint64])
def test_4_and_8_byte_integers_wrap_as_numpy(dt):
    info = np.iinfo(dt)
    x = np.array(list(range(1, 60)) + [int(info.max), int(info.max) // 3, int(info.min) + 1 if info.min else 7,
                                       int(info.min) if info.min else 9, 27, 97], dtype=dt)
    jit_same(int_steps, x, np.zeros((x.shape[0], 3), dt), 200)


def casts(x, y, out):
    for i in range(x.shape[0]):
        a = x[i]
        b = y[i]
        k = 0
        while k < 6:
            a = a * 0.5 + b
            b = b - 3 if b > 0 else b + 5
            k += 1
        out[i, 0] = a
        out[i, 1] = b


@pytest.mark.parametrize("fd,idt", [(np.float32, np.int32), (np.float32, np.int64), (np.float64, np.int32),
                                    (np.float32, np.uint32)])
def test_mixed_widths_convert_as_numpy(fd, idt):
    x = np.array([0.0, -0.0, 1.5, np.nan, np.inf, -3.25, 1e30, 7.0, 2.5, -1e-30], dtype=fd)
    y = np.array([1, 0, 5, 9, 2, 100, 3, 4, 7, 8], dtype=idt)
    f = jit_same(casts, x, y, np.zeros((10, 2)))
    want, got = np.zeros((10, 2)), np.zeros((10, 2))
    with np.errstate(all="ignore"):
        casts(x, y, want)
    f(x, y, got)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


def mixed_widths(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        t = 0.0
        while v > 0:
            v = v - 3
            t = t + v / 7
        out[i] = t


@pytest.mark.parametrize("dt", [np.int32, np.float32, np.int64])
def test_4_byte_values_beside_8_byte_ones(dt):
    x = (np.arange(50) * 5 - 30).astype(dt)
    jit_same(mixed_widths, x, np.zeros(50), )


def first_larger(x, first, limit):
    for i in range(first.shape[0]):
        j = i
        while j < limit and x[j] <= x[i]:
            j += 1
        first[i] = j


def search(a, keys, out):
    for i in range(keys.shape[0]):
        lo = 0
        hi = a.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < keys[i]:
                lo = mid + 1
            else:
                hi = mid
        out[i] = lo


@pytest.mark.parametrize("n", [0, 1, 2, 7, 100, 4099])
def test_binary_search_per_key(n):
    rng = np.random.default_rng(n)
    a = np.sort(rng.standard_normal(n))
    keys = np.concatenate([rng.standard_normal(61), a[: min(n, 20)], [-np.inf, np.inf, np.nan]])
    jit_same(search, a, keys, np.full(keys.shape[0], -1, np.int64))


@pytest.mark.parametrize("limit", [0, 1, 57, 100])
def test_scans_stop_at_the_end_of_the_array(limit):
    # (a test that reads the array keeps the loop out of lanes; x[limit] is never read)
    x = np.random.default_rng(limit).standard_normal(limit)
    jit_same(first_larger, x, np.zeros(limit, np.int64), limit)


def walk_grid(grid, wall, out, steps):
    for i in range(out.shape[0]):
        r = i % grid.shape[0]
        c = 0
        k = 0
        total = 0
        hit = False
        while k < steps and not hit:
            if c < grid.shape[1] and wall[r, c]:
                hit = True
            else:
                total += grid[r, c] if c < grid.shape[1] else -1
            c = c + 1 if c < grid.shape[1] else 0
            r = r - 1 if r > -grid.shape[0] else grid.shape[0] - 1
            k += 1
        out[i] = total * 1000 + k


def test_2d_loads_negative_indices_bool_elements_and_guards():
    rng = np.random.default_rng(2)
    grid = rng.integers(-50, 50, (9, 13)).astype(np.int64)
    wall = rng.random((9, 13)) < 0.15
    jit_same(walk_grid, grid, wall, np.zeros(70, np.int64), 40)


def either(x, y, out):
    for i in range(out.shape[0]):
        j = i
        s = 0.0
        while j >= 0:
            if j >= x.shape[0] or x[j] > 0:
                s = s + 1.0
            else:
                s = s + y[j]
            j -= 1
        out[i] = s


def far_guarded(x, out, stride):
    for i in range(out.shape[0]):
        k = 0
        s = 0.0
        while k < 3:
            s = s + (x[i * stride] if i * stride < x.shape[0] else 0.5)
            if i * stride + 1 < x.shape[0] and x[i * stride + 1] > 0:
                s = s * 2.0
            k += 1
        out[i] = s


def test_guarded_loads_are_not_done_ahead():
    # x[i * stride] for i > 0 is gigabytes past the end: a lane may load it only
    # if its own guard holds (loads done once before the loop are unguarded)
    x = np.array([1.5, 2.0, -1.0])
    jit_same(far_guarded, x, np.zeros(16), 10**9)


def test_loads_under_or_and_else():
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(30), rng.standard_normal(30)
    jit_same(either, x, y, np.zeros(45))


def newton_sqrt(x, out, tol):
    for i in range(x.shape[0]):
        g = x[i] * 0.5 + 1.0
        k = 0
        while True:
            h = 0.5 * (g + x[i] / g)
            k += 1
            if abs(h - g) <= tol * h or k >= 60:
                g = h
                break
            g = h
        out[i, 0] = g
        out[i, 1] = k


def test_break_out_of_a_while_true():
    x = np.concatenate([np.linspace(0.0, 1e6, 97), [np.inf, np.nan, 1e300, 5e-324, 2.0, 4.0]])
    f = jit_same(newton_sqrt, x, np.zeros((x.shape[0], 2)), 1e-15)
    want, got = np.zeros((x.shape[0], 2)), np.zeros((x.shape[0], 2))
    with np.errstate(all="ignore"):
        newton_sqrt(x, want, 1e-15)
    f(x, got, 1e-15)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


def newton_for(x, out, tol, maxit):
    for i in range(x.shape[0]):
        g = x[i] * 0.5 + 1.0
        used = maxit
        for it in range(maxit):
            h = 0.5 * (g + x[i] / g)
            if abs(h - g) <= tol * h:
                used = it
                g = h
                break
            g = h
        out[i, 0] = g
        out[i, 1] = used


@pytest.mark.parametrize("maxit", [0, 1, 3, 60])
def test_for_loop_left_by_break(maxit):
    x = np.concatenate([np.linspace(0.0, 1e6, 97), [np.inf, np.nan, 1e300, 5e-324, 2.0, 4.0]])
    f = jit_same(newton_for, x, np.zeros((x.shape[0], 2)), 1e-15, maxit)
    want, got = np.zeros((x.shape[0], 2)), np.zeros((x.shape[0], 2))
    with np.errstate(all="ignore"):
        newton_for(x, want, 1e-15, maxit)
    f(x, got, 1e-15, maxit)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


def countdown(x, out, lo):
    for i in range(x.shape[0]):
        v = x[i]
        s = 0
        for k in range(40, lo, -3):
            if (v + k) % 4 == 0:
                continue
            s = s * 3 + k
            v = v // 2
            if v == 0:
                break
        out[i] = s


@pytest.mark.parametrize("lo", [-5, 0, 39, 50])
def test_for_loop_counting_down_with_continue_and_break(lo):
    x = (np.arange(90, dtype=np.int64) * 7919) % 100003
    jit_same(countdown, x, np.zeros(90, np.int64), lo)


def skip_and_stop(x, out, stop):
    for i in range(x.shape[0]):
        v = x[i]
        s = 0
        k = 0
        while k < 50:
            k += 1
            v = v * 5 + 3
            if v % 4 == 1:
                continue
            s += v % 16
            if s > stop:
                if k % 2 == 0:
                    break
                s -= 7
        out[i] = s * 100 + k


@pytest.mark.parametrize("stop", [0, 40, 200, 10**6])
def test_continue_and_break_in_nested_ifs(stop):
    x = np.arange(-40, 60, dtype=np.int64) * 12345
    jit_same(skip_and_stop, x, np.zeros(x.shape[0], np.int64), stop)


def halve_until(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        k = 0
        while v > 1:
            v = v // 2
            k += 1
            if v % 8 == 5:
                break
        out[i] = v * 100 + k


def test_break_with_a_test_and_lanes_finished_one_by_one():
    x = (2.0 ** np.random.default_rng(8).uniform(0, 60, 203)).astype(np.int64)
    jit_same(halve_until, x, np.zeros(203, np.int64))


def guard_chain(x, out):
    for i in range(out.shape[0]):
        j = i
        n = 0
        while j > 0:
            j -= 1
            if (j + 7 < x.shape[0] and x[j] > 0 and x[j + 1] > 0 and x[j + 2] > 0 and x[j + 3] > 0
                    and x[j + 4] > 0 and x[j + 5] > 0 and x[j + 6] > 0 and x[j + 7] > 0):
                n += 1
        out[i] = n


def test_long_chains_of_guarded_loads():
    # (eight loads, each guarded by the ones before it: the lanes' masks
    # nest too deep for vector lanes, and the loop stays plain)
    x = np.random.default_rng(6).standard_normal(80) + 0.8
    jit_same(guard_chain, x, np.zeros(90, np.int64))


def while_in_if(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        k = 0
        if v > 10:
            while v > 1:
                v = v // 3
                k += 1
        out[i] = k


def test_loops_that_stay_out_of_lanes():
    rng = np.random.default_rng(9)
    x = rng.standard_normal(100)
    xi = rng.integers(0, 10**6, 77).astype(np.int64)
    jit_same(while_in_if, xi, np.zeros(77, np.int64))


def test_loop_report_stays_parallel():
    jit_same(orbit, np.zeros((3, 2)), np.zeros(3), np.zeros(3), 5)
    f = jit_same(collatz, np.arange(1, 100, dtype=np.int64), np.zeros(99, np.int64), 0, 99, 1)
    assert f.loop_report()[0]["kind"] == "parallel"


@pytest.mark.skipif(platform.machine() != "x86_64" or os.environ.get("NUMGPU_LANES_NARROW") == "1" or
                    os.environ.get("NUMGPU_DEVICE", "auto") not in ("auto", "cpu"),
                    reason="x86-64 flags, the cpu device (run in the default pass); (the run inside)")
def test_this_file_with_two_lane_vectors(tmp_path):
    """The lanes run NG_VW at a time, the host's vector width (8 with AVX-512,
    4 with AVX2, 2 otherwise): this file again on the cpu device with AVX2
    turned off, in 2-lane vectors (a compiler wrapper adds -mno-avx2 -mno-avx512f)."""
    cc = os.environ.get("CC", "cc")
    wrapper = tmp_path / "cc"
    wrapper.write_text('#!/bin/sh\nexec %s "$@" -mno-avx2 -mno-avx512f\n' % cc)
    wrapper.chmod(0o755)
    env = dict(os.environ, CC=str(wrapper), NUMGPU_DEVICE="cpu", NUMGPU_LANES_NARROW="1",
               NUMGPU_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("NUMGPU_EMIT_DIR", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__], env=env,
                          capture_output=True, text=True, timeout=900, cwd=os.path.dirname(__file__))
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout
