"""`import numgpu as np` never fails where NumPy runs.

numgpu has no device arrays of str, bytes, object, datetime64, structured or longdouble data:
its functions hand such calls to NumPy's function of the name (the fallback: counted, warned
about once, an error under NUMGPU_FALLBACK=error or NUMGPU_STRICT=1), and the program gets
NumPy's arrays of them. So do calls numgpu runs no device version of (NotImplementedError) and
calls with arguments numgpu's signatures do not take. Pickling and copying numgpu arrays.
"""
import collections
import copy
import pickle
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _fallback.FallbackWarning)
        yield


def host(r):
    return r.get() if isinstance(r, ng.ndarray) else r


def assert_same_result(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same_result(g, w)
        return
    got = host(got)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def dates(m):
    return m.array(["2020-01-01", "2020-02-29"], dtype="datetime64[D]")


# Each case runs with numpy and with numgpu as `m`; the results must be NumPy's.
HOST_DATA = {
    "str array": lambda m: m.array(["a", "bb", "c"]),
    "str compare": lambda m: m.array(["a", "bb"]) == "bb",
    "str sort": lambda m: m.sort(m.array(["b", "a", "c"])),
    "str argsort": lambda m: m.argsort(m.asarray(["b", "a", "c"])),
    "str unique": lambda m: m.unique(m.array(["b", "a", "b"]), return_counts=True),
    "str where": lambda m: m.where(m.array([True, False]), "yes", "no"),
    "str concatenate": lambda m: m.concatenate([m.array(["a"]), m.array(["bc"])]),
    "numbers and strs": lambda m: m.concatenate([m.arange(2), m.array(["b"])]),
    "str stack": lambda m: m.stack([m.array(["a", "b"]), m.array(["c", "d"])], axis=1),
    "str full": lambda m: m.full(2, "ab"),
    "str zeros_like": lambda m: m.zeros_like(m.array(["ab"])),
    "str ones dtype": lambda m: m.ones(2, dtype="U2"),
    "str to float": lambda m: m.array(["1.5", "2"]).astype(float),
    "char.upper": lambda m: m.char.upper(m.array(["ab", "c"])),
    "bytes": lambda m: m.array([b"a", b"bc"]),
    "object": lambda m: m.array([1, "a", None], dtype=object),
    "object empty": lambda m: m.empty(2, dtype=object),
    "object sum": lambda m: m.array([1, 2**70], dtype=object).sum(),
    "structured field": lambda m: m.zeros(2, dtype=[("a", "i4"), ("b", "f8")])["b"],
    "datetime add": lambda m: dates(m) + m.timedelta64(1, "D"),
    "datetime diff": lambda m: m.diff(dates(m)),
    "datetime arange": lambda m: m.arange("2020-01", "2020-04", dtype="datetime64[M]"),
    "datetime arange values": lambda m: m.arange(m.datetime64("2020-01-30"), m.datetime64("2020-02-02")),
    "isnat": lambda m: m.isnat(m.array(["NaT", "2020-01-01"], dtype="datetime64[D]")),
    "longdouble": lambda m: m.array([1, 2], dtype=m.longdouble) * 3,
    "zeros longdouble": lambda m: m.zeros(2, dtype=m.clongdouble),
    "ufunc of strs": lambda m: m.add(m.array(["a", "b"]), "x"),
    "ufunc.reduce of objects": lambda m: m.add.reduce(m.array([1, 2**70], dtype=object)),
    "ufunc.accumulate of objects": lambda m: m.add.accumulate(m.array(["a", "b"], dtype=object)),
    "ufunc.outer of strs": lambda m: m.add.outer(m.array(["a", "b"]), m.array(["c"])),
    "ufunc.reduce of a list": lambda m: m.multiply.reduce([1.5, 2.0, 3.0]),
}


@pytest.mark.parametrize("case", sorted(HOST_DATA))
def test_host_dtypes_give_numpys_results(case):
    f = HOST_DATA[case]
    want = f(np)
    got = f(ng)
    assert_same_result(got, want)
    for g in got if isinstance(got, tuple) else (got,):   # NumPy's arrays: numgpu has no device arrays of them
        if np.asarray(host(g)).dtype.kind not in "biufc" and hasattr(g, "shape"):
            assert type(g) is np.ndarray


def test_random_choice_of_strs_is_numpys_stream():
    np.random.seed(7)
    want = np.random.choice(["a", "b", "c"], 6)
    ng.random.seed(7)
    got = ng.random.choice(["a", "b", "c"], 6)
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, want)


def test_the_fallback_is_the_function_the_program_called():
    # numgpu's unique converts its argument with numgpu's asarray: the call that falls back is
    # the program's unique, with the program's arguments, counted and warned about once as such
    _fallback.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", _fallback.FallbackWarning)
        got = ng.unique(np.array(["b", "a", "b"]))
        ng.unique(np.array(["c"]))
    np.testing.assert_array_equal(got, ["a", "b"])
    assert _fallback.counts.get("numpy.unique", [0])[0] == 2 and "numpy.asarray" not in _fallback.counts
    texts = [str(w.message) for w in caught if issubclass(w.category, _fallback.FallbackWarning)]
    assert len(texts) == 1 and "numpy.unique runs on NumPy (numgpu does not support dtype <U1" in texts[0]


def test_fallback_errors_name_the_reason():
    prev = _fallback.set_mode("error")
    try:
        with pytest.raises(_fallback.FallbackError, match=r"numpy.array cannot run on the device here "
                                                          r"\(numgpu does not support dtype <U1"):
            ng.array(["a"])
        with pytest.raises(_fallback.FallbackError, match="numpy.arange .*arange of datetime64"):
            ng.arange("2020-01", "2020-03", dtype="datetime64[M]")
    finally:
        _fallback.set_mode(prev)
    prev = ng.set_strict(True)
    try:
        with pytest.raises(_fallback.FallbackError, match="NUMGPU_STRICT=1: numpy.zeros cannot run"):
            ng.zeros(2, dtype=object)
    finally:
        ng.set_strict(prev)


def test_unsupported_forms_and_keywords_run_numpys():
    x = np.arange(12.0).reshape(3, 4)
    d = ng.asarray(x)
    # arguments numgpu's signatures do not take: NumPy's function runs them
    assert_same_result(ng.sum(d, axis=1, dtype=np.float32, out=None, keepdims=True), x.sum(1, np.float32, keepdims=True))
    assert_same_result(ng.zeros(3, float, "F"), np.zeros(3, float, "F"))
    assert_same_result(ng.asarray(x, order="F"), x)
    assert_same_result(ng.linspace(d[0], d[1], 3, True, False, None, 0), np.linspace(x[0], x[1], 3))
    assert_same_result(ng.linspace(d[0, :2], d[1, :2], 4, axis=-1), np.linspace(x[0, :2], x[1, :2], 4, axis=-1))
    # ... and those numgpu takes run on the device, no fallback
    _fallback.reset()
    assert_same_result(ng.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3))
    assert ng.array(d, copy=False) is d and ng.array(d, copy=None) is d and ng.array(d) is not d
    assert_same_result(ng.zeros_like(d, np.int32, "K", True, (2, 2)), np.zeros_like(x, np.int32, "K", True, (2, 2)))
    assert_same_result(ng.eye(3, 3, 1, int, "C"), np.eye(3, 3, 1, int, "C"))
    assert_same_result(ng.ones(2, like=d), np.ones(2))
    assert not _fallback.counts
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        ng.array(d, dtype=np.float32, copy=False)


def test_in_place_functions_and_outs_by_position_keep_their_writes():
    # The fallback runs NumPy's on host copies: numgpu arrays it writes (the first argument of
    # put/put_along_axis, an out given by position) get NumPy's values back
    cases = [
        lambda m, a: m.put(a, [0, 2], ["5", "6"]),
        lambda m, a: m.put_along_axis(a, m.asarray([[0], [1]]), ["7"], axis=1),
    ]
    for f in cases:
        h, d = np.zeros((2, 2), np.int64), ng.zeros((2, 2), np.int64)
        f(np, h)
        f(ng, d)
        np.testing.assert_array_equal(d.get(), h)
    for f in (lambda m, o: m.conjugate(m.asarray([1j, 2j]), o), lambda m, o: m.conj(m.asarray([1j, 2j]), o)):
        h, d = np.zeros(2, complex), ng.zeros(2, complex)
        assert f(ng, d) is d
        f(np, h)
        np.testing.assert_array_equal(d.get(), h)
    d = ng.zeros(2)
    ng.vecdot(ng.ones((2, 3)), ng.ones(3), d)
    np.testing.assert_array_equal(d.get(), [3.0, 3.0])
    for h in (np.zeros(3), np.array(["a", "b", "c"])):   # NumPy arrays: NumPy's put changes them
        want = h.copy()
        np.put(want, [1], [h[0]])
        ng.put(h, [1], [h[0]])
        np.testing.assert_array_equal(h, want)


def test_numpy_arrays_taken_without_copy():
    # copy=False of a NumPy array: the upload is the device's copy, not one NumPy would make
    h = np.arange(3.0)
    for f in (lambda: ng.array(h, copy=False), lambda: ng.asarray(h, copy=False)):
        got = f()
        assert type(got) is ng.ndarray
        np.testing.assert_array_equal(got.get(), h)
    with pytest.raises(ValueError, match="avoid copy"):
        ng.asarray(h, dtype=np.float32, copy=False)
    with pytest.raises(ValueError, match="avoid copy"):
        ng.array([1.0, 2.0], copy=False)


def test_errors_stay_errors():
    # Errors NumPy raises too are not fallbacks: numgpu's own error, no NumPy call
    _fallback.reset()
    d = ng.arange(4.0)
    with pytest.raises(ValueError):
        ng.reshape(d, (3,))
    with pytest.raises(np.exceptions.AxisError):
        ng.sum(d, axis=3)
    with pytest.raises(TypeError):
        ng.linspace(0, 1, num="a")          # a TypeError inside numgpu's function: not a fallback
    assert not _fallback.counts
    with pytest.raises(TypeError, match="unexpected keyword"):
        ng.sum(d, nokeyword=1)              # NumPy's function takes it no more than numgpu's
    with pytest.raises(ValueError):
        ng.array([[1, 2], [3]])             # ragged: NumPy's error


DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)], ids=str)
def test_pickle_and_copies_keep_the_data(dt, shape):
    x = (np.arange(int(np.prod(shape))).reshape(shape) * 3 - 4).astype(dt)
    d = ng.asarray(x)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(d, protocol=proto))
        assert type(back) is ng.ndarray and back.dtype == x.dtype and back.shape == x.shape
        np.testing.assert_array_equal(back.get(), x)
    for c in (copy.copy(d), copy.deepcopy(d)):
        assert type(c) is ng.ndarray and c is not d and c.device == d.device
        np.testing.assert_array_equal(c.get(), x)
        if x.size:
            c[...] = 1                     # a copy: the original keeps its values
            np.testing.assert_array_equal(d.get(), x)


def test_pickle_of_views_and_shared_references():
    x = np.arange(24.0).reshape(4, 6)
    d = ng.asarray(x)
    view = d[1::2, ::-2].T
    back = pickle.loads(pickle.dumps(view))
    np.testing.assert_array_equal(back.get(), x[1::2, ::-2].T)
    both = copy.deepcopy({"a": d, "b": [d, view]})
    assert both["a"] is both["b"][0] and both["a"] is not d   # one copy for one array, as deepcopy does
    np.testing.assert_array_equal(both["b"][1].get(), x[1::2, ::-2].T)


@pytest.mark.parametrize("value", [3.0, 7, -1, 2.5, float("nan"), True, 0])
def test_in_is_numpys(value):
    x = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    assert (value in ng.asarray(x)) == (value in x)
    row, other = np.array([3.0, 4.0, 5.0]), np.array([5.0, 4.0, 3.0])
    assert (ng.asarray(row) in ng.asarray(x)) == (row in x)
    assert (other in ng.asarray(x)) == (other in x)
    c = np.array([1 + 2j, 3j])
    assert (3j in ng.asarray(c)) and (2j not in ng.asarray(c))
    assert ("a" in ng.asarray(x)) == ("a" in x)


# ---- elements are copies (NumPy's scalars), operators with host data -----------------------------

def test_elements_are_copies():
    # x[i] and iteration give NumPy scalars (copies): a view would follow later writes to x
    for m in (np, ng):
        a = m.arange(4)
        tmp = a[0]
        a[0] = a[3]
        a[3] = tmp                              # the swap
        assert [int(v) for v in a] == [3, 1, 2, 0]
        x = m.arange(6.0).reshape(2, 3)
        b, row = x[1, 2], x[1]
        x[1, 2] = -1
        assert float(b) == 5.0 and float(row[2]) == -1.0     # (a row stays a view, as NumPy's)
        labels = m.asarray([1, 2, 2, 3])
        counts = collections.Counter(labels)
        labels += 10
        assert counts[2] == 2 and 2 in counts
        v = x[...]                              # (x[...] is a view, also of a 0-d array)
        v[0, 0] = 7
        assert float(x[0, 0]) == 7.0
        z = m.zeros(())
        z[...] = 3
        assert float(z) == 3.0


def test_zero_d_arrays_are_not_iterable():
    z = ng.asarray(np.array(5))
    with pytest.raises(TypeError, match="0-d"):
        iter(z)
    assert not np.iterable(z) and np.iterable(ng.arange(2))
    assert [int(v) for v in ng.arange(3)] == [0, 1, 2]


OPERATOR_CASES = {
    "int + datetime64": lambda m: m.arange(3) + m.datetime64("2020-01-01"),
    "int * timedelta64": lambda m: m.arange(3) * m.timedelta64(1, "h"),
    "dates - array": lambda m: m.array(["2020-01-03"], dtype="datetime64[D]") - m.arange(2),
    "int * objects": lambda m: m.arange(2) * m.array([2**70, 3], dtype=object),
    "int == strs": lambda m: m.arange(2) == m.array(["0", "1"]),
    "float < objects": lambda m: m.arange(2.0) < m.array([1, 1], dtype=object),
}


@pytest.mark.parametrize("case", sorted(OPERATOR_CASES))
def test_operators_with_host_data_are_numpys(case):
    f = OPERATOR_CASES[case]
    want = f(np)
    got = f(ng)
    assert type(got) is np.ndarray or want.dtype.kind in "biufc"   # (numbers come back as device arrays)
    assert_same_result(got, want)


def test_reduction_method_keyword_not_utf8():
    with pytest.raises(TypeError):
        ng.arange(3).sum(**{"\ud800": 1})


def test_matplotlib_takes_numgpu_arrays():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    h = np.sin(np.linspace(0, 6, 50))
    fig, ax = plt.subplots()
    try:
        n_np, bins_np, _ = ax.hist(h, bins=5)
        n_ng, bins_ng, _ = ax.hist(ng.asarray(h), bins=5)   # one dataset of 50 values, not 50 datasets
        np.testing.assert_array_equal(n_ng, n_np)
        np.testing.assert_array_equal(bins_ng, bins_np)
        assert len(ax.bar(ng.arange(3), ng.asarray([1.0, 2.0, 3.0]))) == 3
        line, = ax.plot(ng.asarray(h))
        np.testing.assert_array_equal(line.get_ydata(), h)
    finally:
        plt.close(fig)


def test_computed_scalars_rebind_in_place_operators():
    # NumPy's scalars are immutable: total += x.sum() makes a new total, so a list of running
    # totals keeps each one; 0-d arrays made as arrays, and views, change in place as NumPy's
    for m in (np, ng):
        total, history = 0, []
        for k in range(1, 4):
            total += m.arange(k + 1).sum()
            history.append(total)
        assert [int(v) for v in history] == [1, 4, 10]
        best = m.arange(3.0).max()
        prev = best
        best += 1
        best **= 2
        assert float(prev) == 2.0 and float(best) == 9.0
        i = m.arange(3).sum()
        i += 1.5                       # a scalar: the result's dtype, not a cast into int64
        assert float(i) == 4.5 and i.dtype == np.float64
        z = m.zeros(())
        alias = z
        z += 1
        assert z is alias and float(alias) == 1.0
        x = m.arange(3.0)
        v = x[0:1].reshape(())         # a view: the write reaches x
        v += 5
        assert float(x[0]) == 5.0
        e = m.arange(3.0)[2]
        held = e
        e -= 1                          # an element: a copy, then a new result
        assert float(held) == 2.0 and float(e) == 1.0


RESULTS = {       # 0-d results NumPy gives as scalars, through numgpu's C ops and Python functions
    "matmul": lambda m, x: x[0] @ x[1],
    "dot": lambda m, x: m.dot(x[0], x[1]),
    "method dot": lambda m, x: x[0].dot(x[1]),
    "einsum": lambda m, x: m.einsum("i,i->", x[0], x[1]),
    "det": lambda m, x: m.linalg.det(x[:, :2]),
    "average": lambda m, x: m.average(x[0]),
    "median": lambda m, x: m.median(x),
    "norm": lambda m, x: m.linalg.norm(x),
    "trapezoid (NumPy's, fallback)": lambda m, x: m.trapezoid(x[0]),
    "copy of a sum": lambda m, x: x.sum().copy(),
    "astype of a sum": lambda m, x: x.sum().astype(m.float32),
    "element by a 0-d index": lambda m, x: x[0][x[0].argmax()],
}


@pytest.mark.parametrize("case", sorted(RESULTS))
def test_scalar_results_rebind(case):
    f = RESULTS[case]
    for m in (np, ng):
        x = m.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
        total = f(m, x)
        history = [total]
        total += 1
        history.append(total)
        assert float(history[1]) == float(history[0]) + 1, m.__name__


def test_asarray_of_a_scalar_result_is_a_new_array():
    for m in (np, ng):
        s = m.arange(3.0).sum()
        acc = m.asarray(s)

        def add_into(a, v):
            a += v
        add_into(acc, 1)
        assert float(acc) == 4.0 and float(s) == 3.0
        assert m.array(s, copy=None).ndim == 0


def test_zero_d_integer_indices_are_integers():
    for m in (np, ng):
        a = m.asarray([3.0, 9.0, 4.0])
        out = []
        for i in m.argsort(a):
            v = a[i]
            out.append(v)
            v += 100                       # an element: a new value, a[i] and out keep theirs
        assert [float(v) for v in out] == [3.0, 4.0, 9.0] and float(a[1]) == 9.0
        X = m.arange(4.0).reshape(2, 2)
        r = X[m.arange(2)[1]]              # a row by a 0-d integer: a view, as by an int
        r[0] = 9
        assert float(X[1, 0]) == 9.0
        best = m.asarray([3, 9, 4])[m.asarray([3, 9, 4]).argmax()]
        best += 0.5
        assert float(best) == 9.5


@pytest.mark.parametrize("other", ["a", b"a", ["a", "b", "c"], ("x", 1, None)], ids=repr)
def test_equality_with_what_numgpu_cannot_hold_is_numpys(other):
    h = np.arange(3)
    d = ng.arange(3)
    for op in ("__eq__", "__ne__"):
        want = getattr(h, op)(other)
        got = getattr(d, op)(other)
        assert_same_result(got, want)


def test_matmul_with_host_data():
    got = ng.arange(2) @ np.array([1, 2], dtype=object)
    assert got == np.arange(2) @ np.array([1, 2], dtype=object)


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "uint64"])
def test_stores_into_integers_are_numpys(dt):
    # NumPy's int() of a Python float stored into integers: NaN a ValueError, infinity and values
    # beyond the dtype an OverflowError (they stored garbage), through every kind of index
    for v in (float("nan"), float("inf"), -float("inf"), 1e30, 2.0**70, -1.0 if dt[0] == "u" else -1e20):
        h, d = np.zeros(3, dt), ng.zeros(3, dt)
        for key in (1, slice(0, 2), np.array([True, False, True])):
            try:
                h[key] = v
            except (ValueError, OverflowError) as e:
                with pytest.raises(type(e)):
                    d[ng.asarray(key) if isinstance(key, np.ndarray) else key] = v
            else:
                d[ng.asarray(key) if isinstance(key, np.ndarray) else key] = v
            np.testing.assert_array_equal(d.get(), h)
    h, d = np.zeros(3, dt), ng.zeros(3, dt)
    h[1] = 3.9
    d[1] = 3.9
    np.testing.assert_array_equal(d.get(), h)


def test_empty_list_indices():
    h = np.arange(12.0).reshape(3, 4)
    d = ng.asarray(h)
    for key in ([], (slice(None), []), ([], slice(None))):
        assert_same_result(d[key], h[key])
    d[[]] = 1
    assert_same_result(d, h)


def test_shapes_and_axes_from_arrays():
    # NumPy takes shapes as arrays of ints and axes as 0-d integer arrays (x.argmax(), elements)
    for m in (np, ng):
        k = m.arange(3)[1]
        assert m.zeros(m.asarray([2, 3])).shape == (2, 3)
        assert m.arange(6).reshape(m.asarray([3, 2])).shape == (3, 2)
        assert m.ones((2, 3)).transpose(m.asarray([1, 0])).shape == (3, 2)
        assert m.stack([m.ones(2), m.ones(2)], axis=k).shape == (2, 2)
        assert m.squeeze(m.ones((2, 1)), axis=k).shape == (2,)
        assert m.expand_dims(m.ones(2), k).shape == (2, 1)
        assert m.moveaxis(m.ones((2, 3)), k, 0).shape == (3, 2)
        assert m.ones((2, 3)).sum(axis=k).shape == (2,)
    assert ng.zeros(np.array([2, 3])).shape == (2, 3)


def test_round_of_a_zero_d_result_is_numpys_scalar():
    # round(x.mean(), 3) is NumPy's scalar (float64: a Python float, so json and isinstance work)
    import json
    for m in (np, ng):
        x = m.arange(5.0) / 3
        r = round(x.mean(), 3)
        assert type(r) is np.float64 and json.dumps([r]) == "[0.667]"
        assert type(round(x.mean())) is int


def test_zero_d_arrays_change_in_place():
    # 0-d *arrays* (made as arrays, their copies and casts, views) change in place as NumPy's;
    # only values standing for NumPy's scalars rebind
    def bump(o):
        o += 5
    for m in (np, ng):
        makers = [lambda: m.zeros(()).copy(), lambda: m.zeros(()).astype(m.float32),
                  lambda: m.arange(1.0).reshape(()), lambda: m.zeros(1).squeeze(), lambda: m.zeros(())[...],
                  lambda: m.zeros(()).T, lambda: copy.deepcopy(m.zeros(()))]
        for make in makers:
            a = make()
            bump(a)
            assert float(a) == 5.0, (m.__name__, make)
        x = m.zeros(3)
        w = m.asarray(x[1, ...])          # a view of x: asarray keeps it, writes reach x
        w[...] = 5
        assert float(x[1]) == 5.0
        t = x[2, ...]
        bump(t)
        assert float(x[2]) == 5.0
    h = np.zeros(())
    t = ng.from_dlpack(h) if ng.get_device() == "cpu" else None
    if t is not None:                     # (NumPy's memory, shared on cpu)
        t += 1
        assert float(h) == 1.0


def test_equality_defers_to_objects_that_answer_it():
    x = ng.arange(3.0)
    assert x == pytest.approx([0, 1, 2]) and not (x == pytest.approx([0, 1, 3]))

    class Mine:
        __array_ufunc__ = None

        def __eq__(self, other):
            return "mine"
    assert (x == Mine()) == "mine"


def test_comparing_with_strs_stays_on_the_device():
    _fallback.reset()
    x = ng.arange(4.0)
    prev = ng.set_strict(True)
    try:
        got, ne = x == "a", x != b"a"
        assert type(got) is ng.ndarray and not got.get().any() and ne.get().all()
        s = x.sum()
        assert s not in ("mean", "median") and "a" not in x
    finally:
        ng.set_strict(prev)
    assert not _fallback.counts


def test_axes_as_arrays_and_ranges():
    z = np.zeros((1, 2, 3))
    want = np.moveaxis(z, np.array([0, 1]), np.array([1, 2])).shape
    assert ng.moveaxis(ng.asarray(z), np.array([0, 1]), np.array([1, 2])).shape == want
    assert ng.moveaxis(ng.asarray(z), range(2), [1, 2]).shape == np.moveaxis(z, range(2), [1, 2]).shape
    with pytest.raises(np.exceptions.AxisError):
        ng.linspace(0, 1, 3, axis=5)


def test_stores_of_numpy_scalars_and_into_bools():
    for v in (np.float64("nan"), np.float32("inf"), np.float64(1e30), np.float16("nan")):
        h, d = np.zeros(3, np.int64), ng.zeros(3, np.int64)
        with pytest.raises((ValueError, OverflowError)) as e:
            h[0] = v
        with pytest.raises(e.type):
            d[0] = v
    for v in (0.5, -0.1, 1e-300, float("nan"), float("inf"), 0.0, 256.0):
        h, d = np.zeros(2, bool), ng.zeros(2, bool)
        h[0] = v
        d[0] = v
        h.fill(v) if v == 0.5 else None
        d.fill(v) if v == 0.5 else None
        np.testing.assert_array_equal(d.get(), h)


def test_non_native_byte_order_is_numpys_data():
    # '>f4' data: NumPy's array of those bytes (the fallback); numgpu made native arrays of the values,
    # so tobytes() and view('>u2') gave swapped bytes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z = ng.zeros(2, ">f4")
        z[:] = [1.5, 2.5]
        assert isinstance(z, np.ndarray) and z.dtype == np.dtype(">f4")
        assert z.tobytes() == np.array([1.5, 2.5], ">f4").tobytes()
        b = ng.asarray(np.array([1, 258], np.int16)).astype(">i2")
        assert b.dtype == np.dtype(">i2") and b.tobytes() == b"\x00\x01\x01\x02"
        u = ng.asarray(np.frombuffer(bytes([0, 1, 0, 2]), np.uint8)).view(">u2")
        np.testing.assert_array_equal(np.asarray(u.get() if isinstance(u, ng.ndarray) else u), [1, 2])
    # uploading NumPy's big-endian data keeps its values (a native device array)
    x = ng.asarray(np.array([1.5, -2.0], ">f8"))
    assert isinstance(x, ng.ndarray) and x.dtype == np.float64
    np.testing.assert_array_equal(x.get(), [1.5, -2.0])


def test_pickled_scalar_results_stay_scalars():
    # a 0-d result standing for NumPy's scalar unpickles as one (+= rebinds; a spawned Pool's
    # np.sum results were 0-d arrays that += changed in place); 0-d arrays stay arrays
    s = ng.sum(ng.asarray(np.arange(3.0)))
    r = pickle.loads(pickle.dumps(s))
    assert isinstance(r, ng.ndarray) and r._scalar and float(r) == 3.0
    t = r
    r += 1
    assert r is not t and float(t) == 3.0
    z = pickle.loads(pickle.dumps(ng.zeros(())))
    assert not z._scalar
