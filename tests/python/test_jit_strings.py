"""Strings, dicts, list comprehensions and fresh arrays in compiled loops.

A str argument reaches the kernel as its code points and a dict of
1-character str (or int) keys to ints as a table; an element of a str is a
1-character str that compares (==, <, `in 'aeiou'`), looks up a dict and
gives ord(). In a loop body, `s = text[a:b]`, `ix = [d[c] for c in s]` and
`A = np.zeros(shape)` copied whole into `X[i] = A` are rewritten (desugar.c)
into reads of the text and writes into X, so the seed's one-hot loop runs as
one parallel kernel. Each case is compared with plain Python, the arrays
afterwards included; where the rewrite's conditions fail, or Python would
raise, the result is still Python's."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same

TEXT = "the quick brown fox jumps over the lazy dog, \u00e9t\u00e9 \u4e2d\u6587!"


def kinds(f):
    return [r["kind"] for r in f.loop_report()]


def ran(f):
    return [r["ran"] for r in f.loop_report()]


# ---- str and dict arguments ----

def classify(text, out):
    for i in range(len(text)):
        c = text[i]
        if c in "aeiou":
            out[i] = 1
        elif c == " " or c == ",":
            out[i] = 2
        elif "a" <= c <= "z":
            out[i] = 3
        else:
            out[i] = ord(c)


def test_str_elements_compare_and_ord():
    f = jit_same(classify, TEXT, np.zeros(len(TEXT), np.int64))
    assert kinds(f) == ["parallel"] and ran(f) == ["kernel"]


def count_char(text, ch):
    n = 0
    for c in text:
        if c == ch:
            n += 1
    return n


def test_count_over_a_str_is_a_reduction():
    f = numgpu.jit(count_char)
    assert f(TEXT * 50, "o") == count_char(TEXT * 50, "o")
    assert f.loop_report()[0]["kind"] == "parallel"
    assert f.loop_report()[0]["reductions"] == [("n", "+")]
    # a str argument compared with elements is a str of one character: other lengths run as Python
    assert f(TEXT, "") == count_char(TEXT, "") == 0


def lookup(text, d, out):
    for i in range(len(text)):
        out[i] = d[text[i]] * 2 + 1


def test_dict_lookup_by_char():
    d = {c: i for i, c in enumerate(sorted(set(TEXT)))}
    f = jit_same(lookup, TEXT, d, np.zeros(len(TEXT), np.int64))
    assert ran(f) == ["kernel"]


def test_missing_key_raises_keyerror_naming_the_key_and_line():
    d = {c: i for i, c in enumerate(sorted(set(TEXT)))}
    f = numgpu.jit(lookup)
    with pytest.raises(KeyError) as e:
        f(TEXT + "Q", d, np.zeros(len(TEXT) + 1, np.int64))
    assert e.value.args == ("Q",)
    line = lookup.__code__.co_firstlineno + 2
    assert any(":%d: in a compiled loop" % line in n for n in e.value.__notes__)


def by_int(keys, d, out):
    for i in range(len(keys)):
        k = keys[i]
        out[i] = d[k] if k in d else -1


def test_dict_of_int_keys_and_membership():
    d = {-3: 30, 0: 7, 5: 50, 9: 90}
    keys = np.array([-3, 0, 1, 5, 9, 10, -4, 5])
    f = jit_same(by_int, keys, d, np.zeros(len(keys), np.int64))
    assert ran(f) == ["kernel"]
    with pytest.raises(KeyError) as e:
        numgpu.jit(lookup)(np.array([0, 12]), d, np.zeros(2, np.int64))
    assert e.value.args == (12,)


@pytest.mark.parametrize("keys, d, why", [
    ("a", {"a": 1.5, "b": 2.0}, "values are not all ints"),
    ("a", {"ab": 1, "a": 2}, "keys are not all 1-character strs or all ints"),
    (np.array([2]), {"a": 1, 2: 3}, "keys are not all 1-character strs or all ints"),
    (np.array([0]), {0: 1, 10 ** 9: 2}, "spread too thinly"),
    ("a", {"a": True}, "values are not all ints"),
])
def test_dicts_a_table_cannot_hold_run_as_python(keys, d, why):
    def first(keys, d, out):
        for i in range(len(keys)):
            out[i] = d[keys[i]]
    f = numgpu.jit(first)
    out, want = np.zeros(1), np.zeros(1)
    f(keys, d, out)
    first(keys, d, want)
    np.testing.assert_array_equal(out, want)
    assert f.loop_report()[0]["kind"] == "python" and why in f.loop_report()[0]["reason"]


def upper_in_place(text, out):
    for i in range(len(text)):
        out[i] = text[i] + "x"


def store_char(text, out):
    for i in range(len(text)):
        out[i] = text[i]


def mutate(d, out):
    for i in range(3):
        d["a"] = i
        out[i] = 1


@pytest.mark.parametrize("fn, args", [
    (upper_in_place, ("abc", np.zeros(3))),
    (store_char, ("123", np.zeros(3))),
    (mutate, ({"a": 1}, np.zeros(3))),
])
def test_what_python_would_refuse_or_do_otherwise_runs_as_python(fn, args):
    """str + str, a str stored into a float array (NumPy parses "1" as 1.0),
    a dict changed in the loop: the loop runs as Python, with Python's result
    or exception."""
    def run(g):
        a = [x.copy() if isinstance(x, np.ndarray) else dict(x) if isinstance(x, dict) else x for x in args]
        try:
            g(*a)
            return "ok", a
        except Exception as e:
            return type(e), a
    f = numgpu.jit(fn)
    got, want = run(f), run(fn)
    assert got[0] == want[0]
    for g, w in zip(got[1], want[1]):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
        else:
            assert g == w
    assert f.loop_report()[0]["kind"] == "python"


# ---- slices, list comprehensions, fresh arrays (desugar.c) ----

def windows(text, d, L, out):
    for i in range(out.shape[0]):
        w = text[i * L:(i + 1) * L]
        codes = [d[c] for c in w]
        s = 0
        for j in range(len(codes)):
            s += codes[j] * (j + 1)
        out[i] = s + len(w)


def test_slice_and_comprehension_in_the_body():
    text = TEXT * 7
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    L = 5
    # the last windows run past the text's end: slices clamp, as Python's do
    f = jit_same(windows, text, d, L, np.zeros(len(text) // L + 3, np.int64))
    assert kinds(f)[0] == "parallel" and ran(f)[0] == "kernel"


def windows_in_order(text, d, L, out, hist):
    """windows, but in order (a scattered store): one kernel in one thread"""
    for i in range(out.shape[0]):
        w = text[i * L:(i + 1) * L]
        codes = [d[c] for c in w]
        s = 0
        for j in range(len(codes)):
            s += codes[j] * (j + 1)
        out[i] = s + len(w)
        hist[s % len(hist)] = i


def test_slice_and_comprehension_in_a_loop_in_order():
    """2026-12-05: such a loop ran as Python (its comprehension's variable came back as a
    live-out name, and the inner loop made it a host loop that kept the body as written)."""
    text = TEXT * 7
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    f = jit_same(windows_in_order, text, d, 5, np.zeros(len(text) // 5 + 3, np.int64), np.zeros(13, np.int64))
    assert kinds(f)[0] == "sequential" and ran(f)[0] == "kernel (one thread)"


def slices(text, lo, hi, out):
    for i in range(out.shape[0]):
        a = text[lo:hi]
        b = text[:hi]
        c = text[lo:]
        d = text[:]
        out[i, 0] = len(a) * 1000 + (ord(a[i % len(a)]) + ord(a[-1]) if len(a) else 0)
        out[i, 1] = len(b) * 1000 + (ord(b[i % len(b)]) + ord(b[-1]) if len(b) else 0)
        out[i, 2] = len(c) * 1000 + (ord(c[i % len(c)]) + ord(c[-1]) if len(c) else 0)
        out[i, 3] = len(d) * 1000 + ord(d[-i - 1])


@pytest.mark.parametrize("lo, hi", [(-5, 9), (0, -3), (3, 2), (-100, 100), (2, -1), (7, 7), (-3, -1)])
def test_slice_bounds_as_python(lo, hi):
    f = jit_same(slices, "abcdefghij", lo, hi, np.zeros((4, 4), np.int64))
    assert ran(f) == ["kernel"]


def every_key(text, d, out):
    for i in range(out.shape[0]):
        w = text[i:i + 3]
        codes = [d[c] for c in w]
        out[i] = codes[0]


def test_comprehension_raises_for_elements_never_read():
    """Python builds the whole list: a missing key in its third element
    raises KeyError though only codes[0] is read."""
    d = {"a": 1, "b": 2}
    with pytest.raises(KeyError) as want:
        every_key("abxab", d, np.zeros(2, np.int64))
    with pytest.raises(KeyError) as got:
        numgpu.jit(every_key)("abxab", d, np.zeros(2, np.int64))
    assert got.value.args == want.value.args == ("x",)


def onehot(text, d, L, X):
    V = X.shape[2]
    for i in range(X.shape[0]):
        s = text[i * L:(i + 1) * L]
        ix = [d[c] for c in s]
        a = np.zeros((L, V))
        for j in range(L):
            a[j][ix[j]] = 1.0
        X[i] = a


def onehot_data(L, n, dtype=np.float64, fill=7):
    text = (TEXT * (n * L // len(TEXT) + 2))[:n * L + 1]
    d = {c: i for i, c in enumerate(sorted(set(text)))}
    return text, d, L, np.full((n, L, len(d)), fill, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_seed_onehot_one_kernel(dtype):
    """The part X[i] is filled with zeros first (it held 7s), then the ones."""
    f = jit_same(onehot, *onehot_data(6, 40, dtype))
    assert kinds(f) == ["parallel", "sequential"] and ran(f)[0] == "kernel"


def test_fresh_array_of_another_shape_runs_as_python():
    """X[i] = a broadcasts a (L, V) array into X[i] when shapes allow, or
    raises: the kernel checks the shape first and leaves that to Python."""
    text, d, L, X = onehot_data(6, 10)
    wide = np.zeros((10, 1, X.shape[2]))  # (6, V) into (1, V): NumPy raises
    with pytest.raises(ValueError):
        onehot(text, d, L, wide.copy())
    f = numgpu.jit(onehot)
    with pytest.raises(ValueError):
        f(text, d, L, wide.copy())
    assert "another shape" in f.loop_report()[0]["ran"]


def ones_int(X, n):
    for i in range(X.shape[0]):
        a = np.ones(n, dtype=np.int8)
        a[i % n] = (i * 40) % 200 - 100  # (int8 in the fresh array, then copied into float64)
        X[i] = a


def test_np_ones_with_a_dtype():
    f = jit_same(ones_int, np.zeros((9, 4)), 4)
    assert ran(f) == ["kernel"]


def used_after(X, n):
    for i in range(X.shape[0]):
        a = np.zeros(n)
        a[0] = i
        X[i] = a
    return a[0]


def read_before_copy(X, n):
    for i in range(X.shape[0]):
        a = np.zeros(n)
        a[0] = i
        a[1] = a[0] + 1
        X[i] = a


def early_continue(X, n):
    for i in range(X.shape[0]):
        a = np.zeros(n)
        if i == 2:
            continue
        a[0] = i
        X[i] = a


@pytest.mark.parametrize("fn", [used_after, read_before_copy, early_continue])
def test_fresh_arrays_not_rewritten_stay_right(fn):
    """The array used after the loop, read before its copy, or the copy
    skipped by `continue`: no rewrite; the loop runs as Python, or (not read
    after it) as a small array of the iteration's own, the kernel made for
    n's value."""
    f = jit_same(fn, np.full((5, 3), 9.0), 3)
    if fn is used_after:
        assert f.loop_report()[0]["kind"] == "python"
    else:
        assert f.loop_report()[0]["ran"] == "kernel", f.loop_report()


def slice_after(text, out):
    for i in range(out.shape[0]):
        w = text[i:i + 2]
        out[i] = ord(w[0])
    return w


def test_slice_read_after_the_loop_is_not_rewritten():
    jit_same(slice_after, "abcdef", np.zeros(3, np.int64))


def inner_fill(X, n):
    for i in range(X.shape[0]):
        print(end="")  # (the outer loop stays Python)
        a = np.zeros(n)
        for j in range(n):
            a[j] = i + j
        X[i] = a


def test_a_loop_run_as_python_keeps_its_body_as_written():
    """The outer loop stays Python (print): its body is compiled as written,
    not rewritten, so the inner loop stores into `a` and launches on its own
    (had it been compiled from the rewrite, it would fill X[i] before
    Python copies the zeros of a into it)."""
    f = jit_same(inner_fill, np.full((4, 3), 9.0), 3)
    assert kinds(f) == ["python", "parallel"] and ran(f)[1] == "kernel"


def host_steps(X, n):
    acc = 0.0
    for t in range(X.shape[0]):
        a = np.zeros(n)
        for j in range(n):
            a[j] = acc + j
        acc = acc * 0.5 + a[n - 1]
        X[t] = a


def test_a_carried_loop_keeps_its_fresh_array_and_launches_its_inner_loop():
    """The outer loop carries acc: rewritten, it would run in one thread
    (its np.zeros gone) or stay Python; it is left as written, and the inner
    loop into `a` launches on its own each step."""
    f = jit_same(host_steps, np.zeros((6, 40000)), 40000)
    assert kinds(f)[1] == "parallel" and ran(f)[1] == "kernel"
