"""An error a kernel raises as Python would (an index out of range under boundscheck, an int
// 0 or % 0, a math domain or range error, a float ** beyond float64, a missing dict key, an int
too big for a NumPy integer)
has plain Python's traceback: its last frame is the function's own, at the line that raised
(not the loop's `for` line), with the caret under the operation that raised; an error inside a
helper the kernel inlined shows the helper's call in the loop, then the helper's frame at its
line. Each case is run as plain Python and compiled, and the frames compared."""
import math
import traceback

import numpy as np
import pytest

import numgpu


def index_read(x, out):
    for i in range(x.shape[0]):
        v = x[i + 1]
        out[i] = v * 2


def floor_div(a, out):
    for i in range(a.shape[0]):
        t = a[i] + 1
        out[i] = t + 10 // int(a[i])


def modulo(a, out):
    for i in range(a.shape[0]):
        out[i] = 7 % int(a[i])


def domain(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = math.log(x[i])
    return s


def nested(x, out):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = x[i, j] * 2
            out[i, j] += 1 // int(x[i, j])


def lookup(s, d, out):
    for i in range(len(s)):
        out[i] = d[s[i]]


def root(v):
    w = v + 0.0
    return math.sqrt(w)


def through_root(v):
    return root(v) + 1.0


def helper(x, out):
    for i in range(x.shape[0]):
        out[i] = 2.0 * through_root(x[i])


def into_uint8(x, out):
    for i in range(x.shape[0]):
        out[i] = 250 + int(x[i])  # OverflowError of the store (NumPy's), not of int()


def exp_range(x, out):
    for i in range(x.shape[0]):
        out[i] = 1.0 + math.exp(x[i])


def power_range(x, out):
    for i in range(x.shape[0]):
        out[i] = 1.0 + float(x[i]) ** 400.0  # OverflowError of **, not of float()


def local_helper(x, out):
    def halve_root(v):
        return math.sqrt(v) / 2
    for i in range(x.shape[0]):
        out[i] = halve_root(x[i])


def in_order(x):
    for i in range(1, x.shape[0]):  # sequential: one thread
        x[i] = int(x[i - 1]) + 7 // int(x[i])


def frames(fn, *args):
    """(the exception's type, [(function, line, caret's columns)] of the frames of this test's
    file, those of fn's call on): fn called on copies of the arrays."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        fn(*args)
    except Exception as exc:
        tb = traceback.extract_tb(exc.__traceback__)
        return type(exc), [(f.name, f.lineno, f.colno, f.end_colno) for f in tb if f.filename == __file__][1:]
    raise AssertionError("no exception")


def same_frames(fn, *args, **jit_options):
    want = frames(fn, *args)
    f = numgpu.jit(fn, **jit_options)
    got = frames(f, *args)
    assert got == want, (got, want)
    assert f.loop_report()[0]["ran"] == "kernel (raised)", f.loop_report()  # (by the kernel, not Python)
    return f


CASES = [
    (index_read, (np.arange(5.0), np.zeros(5)), {"boundscheck": True}),
    (floor_div, (np.array([1, 2, 0, 3]), np.zeros(4, dtype=np.int64)), {}),
    (modulo, (np.array([1, 2, 0, 3]), np.zeros(4, dtype=np.int64)), {}),
    (domain, (np.array([1.0, 2.0, -1.0]), np.zeros(3)), {}),
    (nested, (np.array([[1, 2], [0, 3]]), np.zeros((2, 2), dtype=np.int64)), {}),
    (lookup, ("abz", {"a": 1, "b": 2}, np.zeros(3, dtype=np.int64)), {}),
    (helper, (np.array([1.0, -1.0]), np.zeros(2)), {}),
    (in_order, (np.array([1, 2, 0, 3]),), {}),
    (local_helper, (np.array([1.0, -1.0]), np.zeros(2)), {}),
    (into_uint8, (np.array([1.0, 10.0]), np.zeros(2, dtype=np.uint8)), {}),
    (exp_range, (np.array([1.0, 1000.0]), np.zeros(2)), {}),
    (power_range, (np.array([1.0, 10.0]), np.zeros(2)), {}),
]


@pytest.mark.parametrize("fn, args, options", CASES, ids=[c[0].__name__ for c in CASES])
def test_traceback_points_at_the_line_that_raised(fn, args, options):
    same_frames(fn, *args, **options)


def test_the_message_still_names_the_line():
    f = numgpu.jit(floor_div)
    with pytest.raises(ZeroDivisionError, match=r"test_jit_tracebacks.py:%d: " % (floor_div.__code__.co_firstlineno + 3)):
        f(np.array([1, 0]), np.zeros(2, dtype=np.int64))


def test_a_loop_run_as_python_keeps_python_traceback():
    """A loop left to Python (its `raise`) raises from the host plan's copy of the loop."""
    def checked(x, out):
        for i in range(x.shape[0]):
            if x[i] < 0:
                raise ValueError("negative")
            out[i] = x[i]
    want = frames(checked, np.array([1.0, -1.0]), np.zeros(2))
    got = frames(numgpu.jit(checked), np.array([1.0, -1.0]), np.zeros(2))
    assert got == want


def test_a_nested_function_keeps_its_columns():
    """A function defined inside another is compiled from its own, dedented, source: the
    traceback's caret still stands under the operation, in the file's columns."""
    def inner(a, out):
        for i in range(a.shape[0]):
            out[i] = a[i] + 10 // int(a[i])
    same_frames(inner, np.array([3, 0, 1]), np.zeros(3, dtype=np.int64))


def test_caught_inside_the_function():
    """A kernel's error the function catches itself leaves no trace: a later error of the
    function's own code keeps its own traceback."""
    def catches(a, out):
        try:
            for i in range(a.shape[0]):
                out[i] = 10 // int(a[i])
        except ZeroDivisionError:
            pass
        return out[0] + undefined_name  # noqa: F821
    assert frames(numgpu.jit(catches), np.array([1, 0]), np.zeros(2, dtype=np.int64)) == \
        frames(catches, np.array([1, 0]), np.zeros(2, dtype=np.int64))


@pytest.mark.skipif(not numgpu.is_available("opencl"), reason="no OpenCL device")
def test_on_opencl():
    with numgpu.use("opencl"):
        f = same_frames(floor_div, np.array([1, 2, 0, 3]), np.zeros(4, dtype=np.int64))
        same_frames(index_read, np.arange(5.0), np.zeros(5), boundscheck=True)
    assert f.loop_report()[0]["kind"] == "parallel"
