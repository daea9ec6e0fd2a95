"""The reasons loop_report gives for loops that run as Python name the construct, the line it
is on and, where there is one, what to write instead: a call of a function the file does not
define, a list that grows, a list, a dict or a string made in the loop, print(), try/except,
raise, a method of an object, a list or an object passed in. Each function's results are
compared with plain Python's (the loop ran as Python, and right)."""
import inspect
from fractions import Fraction

import numpy as np
import pytest

import numgpu
from numgpu import jit


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, l in enumerate(lines) if text in l)


def imported(v):
    return v * 2


class Scaler:
    def __init__(self, k):
        self.k = k

    def scale(self, v):
        return v * self.k


def calls_a_parameter(x, out, fn):
    for i in range(x.shape[0]):
        out[i] = fn(x[i])


def grows_a_list(x):
    found = []
    for i in range(x.shape[0]):
        if x[i] > 1:
            found.append(i)
    return found


def makes_a_list(x, out):
    for i in range(x.shape[0]):
        pair = [x[i], x[i] + 1]
        out[i] = pair[0] * pair[1]


def fills_a_dict(x):
    d = {}
    for i in range(x.shape[0]):
        d[i] = {0: x[i]}
    return len(d)


def builds_a_string(x):
    s = ""
    for i in range(x.shape[0]):
        s += str(x[i])
    return s


def prints(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]
        print(i, end="")


def catches(x, out):
    for i in range(x.shape[0]):
        try:
            out[i] = 1 // int(x[i])
        except ZeroDivisionError:
            out[i] = -1


def checks(x, out):
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError(f"negative at {i}")  # (a constant message compiles)
        out[i] = x[i]


def uses_a_method(x, out, s):
    for i in range(x.shape[0]):
        out[i] = s.scale(x[i])


def sums_a_comprehension(X, out):
    for i in range(X.shape[0]):
        out[i] = sum([v * 2 for v in X[i]])


def defines_a_function(x, out):
    for i in range(x.shape[0]):
        def twice(v):
            return 2 * v
        out[i] = twice(x[i])


def concatenates(x):
    s = ""
    for i in range(x.shape[0]):
        s += "ab"
    return s


def reads_a_list(xs, out):
    for i in range(len(xs)):
        out[i] = xs[i] * 2


def reads_an_object(x, out, s):
    for i in range(x.shape[0]):
        out[i] = x[i] * s.k


def times(x, k):
    s = 0
    for i in range(x.shape[0]):
        s += int(x[i]) * k
    return s


def changes_a_dict(keys, d):
    for i in range(len(keys)):
        d[keys[i]] = 1


X = np.array([0.5, 2.0, 3.0])
CASES = [
    # (function, its arguments, the line's text, what the reason says)
    (calls_a_parameter, (X, np.zeros(3), imported), "fn(x[i])",
     ["calls fn, which is not a function defined in this file", "define it there"]),
    (grows_a_list, (X,), "found.append", ["calls found.append", "store into a NumPy array"]),
    (makes_a_list, (X, np.zeros(3)), "pair = [", ["uses a list, [x[i], x[i] + 1]", "name each item instead"]),
    (fills_a_dict, (X,), "d[i] = {", ["uses a dict", "make it before the loop"]),
    (builds_a_string, (X,), "s += str(", ["calls str", "strings are built by Python"]),
    (prints, (X, np.zeros(3)), "print(i", ["calls print", "print them after it"]),
    (catches, (np.array([1.0, 0.0]), np.zeros(2)), "try:", ["contains a `try` statement", "if"]),
    (checks, (X, np.zeros(3)), "raise ValueError", ["contains a `raise` statement",
                                                   "a constant message or none"]),
    (uses_a_method, (X, np.zeros(3), Scaler(3.0)), "s.scale(", ["calls s.scale", "a method",
                                                               "make it a function of this file"]),
    (defines_a_function, (X, np.zeros(3)), "def twice", ["defines function twice", "define it before the loop"]),
    (sums_a_comprehension, (np.ones((2, 3)), np.zeros(2)), "sum([", ["uses a list comprehension",
                                                                     "NumPy expression of the row"]),
]


def same(fn, args):
    a = [x.copy() if isinstance(x, (np.ndarray, dict)) else x for x in args]
    b = [x.copy() if isinstance(x, (np.ndarray, dict)) else x for x in args]
    want = fn(*a)
    f = jit(fn)
    got = f(*b)
    assert got == want
    for w, g in zip(a, b):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
        else:
            assert g == w
    return f


@pytest.mark.parametrize("fn, args, text, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_reason_names_the_construct_its_line_and_the_fix(fn, args, text, words, capsys):
    f = same(fn, args)
    capsys.readouterr()
    r = f.loop_report()[0]
    assert r["kind"] == "python", r
    assert r["reason"].startswith("line %d " % line_of(fn, text)), r
    for w in words:
        assert w in r["reason"], r
    assert r["ran"] == "python: " + r["reason"], r


@pytest.mark.parametrize("fn, args, words", [
    (reads_a_list, ([1.0, 2.0], np.zeros(2)), ["'xs' is a list", "np.asarray(xs)"]),
    (reads_an_object, (X, np.zeros(3), Scaler(2.0)), ["uses s.k, an attribute", "k = s.k"]),
    (changes_a_dict, ("ab", {"a": 0}), ["changing dict 'd'", "fill it before the loop"]),
    (concatenates, (X,), ["%s:%d: assigning to 's'" % (__file__, line_of(concatenates, 's += "ab"')),
                          "build it after the loop"]),
    (times, (np.arange(3), Fraction(1, 3)), ["'k' is an object of type Fraction", "pass the numbers or arrays"]),
], ids=["list", "attribute", "dict", "string", "object"])
def test_a_value_the_loop_cannot_take_is_named(fn, args, words):
    f = same(fn, args)
    r = f.loop_report()[0]
    assert r["kind"] == "python", r
    for w in words:
        assert w in r["reason"] and w in r["ran"], r


def test_a_helper_that_prints_names_the_call():
    """The reason gives the line of the helper's call in the loop, and what the helper does."""
    src = "\n".join([
        "def talk(v):",
        "    print(v, end='')",
        "    return v",
        "",
        "def loop(x, out):",
        "    for i in range(x.shape[0]):",
        "        out[i] = talk(x[i])",
        ""])
    import importlib.util
    import os
    import tempfile
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "talking.py")
    with open(path, "w") as fh:
        fh.write(src)
    spec = importlib.util.spec_from_file_location("talking", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    f = numgpu.jit(mod.loop)
    r = f.loop_report()[0]
    assert r["reason"].startswith("line 7 calls helper talk, which calls print"), r
