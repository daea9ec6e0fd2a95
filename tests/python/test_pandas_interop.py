"""numgpu with pandas, compared with NumPy + pandas on the same data.

- Arguments whose type overrides NumPy's protocols (a Series, DataFrame or Index: __array_ufunc__)
  get NumPy's function, ufunc or ufunc method, which hands the call to them (NEP 13/18): labels are
  aligned and the result is pandas' (python/numgpu/_fallback.py protocol_call, the C guard's
  ngpy_overrides_numpy). Operators with a numgpu array on one side do the same.
- pandas' constructors get new memory from a numgpu array (the buffer protocol gives pandas' code a
  copy, src/pymod/ndarray.c getbuffer), as NumPy + pandas 3 copy an np.ndarray: writes through the
  Series do not reach the array, nor the array's writes an Index. The program's own np.asarray and
  other libraries keep their zero-copy views on cpu.
- Under `numgpu run`, the script's numgpu arrays given to pandas' indexing, groupby, set_index,
  factorize and unique are handed over as NumPy's (python/numgpu/_libraries.py): masks select rows,
  keys group, as with NumPy.
"""
import importlib.util
import warnings

import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import same_under_numgpu_run

pd = pytest.importorskip("pandas")
tm = pytest.importorskip("pandas.testing")

HOST = ng.asarray([0.0]).device.startswith("cpu")


def same(got, want):
    """got (numgpu's call) is want (NumPy's) in type, labels and values."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got, want)
    elif isinstance(want, pd.Series):
        tm.assert_series_equal(got, want)
    elif isinstance(want, pd.Index):
        tm.assert_index_equal(got, want)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.fixture
def frames():
    rng = np.random.default_rng(7)
    a = pd.Series(rng.normal(size=6), index=list("uvwxyz"))
    b = pd.Series(rng.normal(size=6), index=list("zyxwvu"))
    df = pd.DataFrame({"p": rng.normal(size=5), "q": rng.uniform(1, 3, size=5)}, index=list("abcde"))
    df.iloc[1, 0] = np.nan
    df.iloc[3, 1] = np.nan
    return a, b, df


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "arctan2", "minimum", "hypot"])
def test_binary_ufuncs_align_labels(frames, name):
    a, b, _ = frames
    same(getattr(ng, name)(a, b), getattr(np, name)(a, b))
    same(getattr(ng, name)(a, 0.5), getattr(np, name)(a, 0.5))


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "abs", "negative", "isnan", "floor", "sign"])
def test_unary_ufuncs_give_pandas_objects(frames, name):
    a, _, df = frames
    with np.errstate(all="ignore"):
        same(getattr(ng, name)(a), getattr(np, name)(a))
        same(getattr(ng, name)(df), getattr(np, name)(df))
        same(getattr(ng, name)(df.index.to_series().str.len()), getattr(np, name)(df.index.to_series().str.len()))


def test_isnan_of_a_frame_sums_per_column(frames):
    _, _, df = frames
    same(ng.isnan(df).sum(), np.isnan(df).sum())
    assert ng.isnan(df).sum().tolist() == [1, 1]


@pytest.mark.parametrize("call", [
    lambda m, a, df: m.sum(df, axis=0),
    lambda m, a, df: m.mean(a),
    lambda m, a, df: m.std(a),
    lambda m, a, df: m.round(a, 2),
    lambda m, a, df: m.clip(a, -0.5, 0.5),
    lambda m, a, df: m.cumsum(a),
    lambda m, a, df: m.where(a > 0, a, 0.0),
    lambda m, a, df: m.concatenate([a, a]),
    lambda m, a, df: m.add.reduce(a),
    lambda m, a, df: m.maximum.accumulate(a),
    lambda m, a, df: m.sort(a),
    lambda m, a, df: m.nanmax(df, axis=0),
], ids=["sum", "mean", "std", "round", "clip", "cumsum", "where", "concatenate", "add.reduce",
        "maximum.accumulate", "sort", "nanmax"])
def test_functions_with_pandas_arguments(frames, call):
    a, _, df = frames
    want = call(np, a, df)
    got = call(ng, a, df)
    if isinstance(want, np.ndarray):          # (NumPy's plain array: numgpu's, the same values)
        assert isinstance(got, ng.ndarray)
        np.testing.assert_array_equal(got.get(), want)
    elif isinstance(want, np.generic):        # (a pandas reduction: NumPy's scalar, as pandas gave it)
        assert type(got) is type(want) and got == want
    else:
        same(got, want)


def test_out_and_numgpu_operands(frames):
    a, b, _ = frames
    x = ng.asarray(np.arange(6.0))
    same(ng.add(x, a), np.add(np.arange(6.0), a))
    o, h = ng.zeros(6), np.zeros(6)
    same(ng.multiply(a, 2.0, out=o), np.multiply(a, 2.0, out=h))
    np.testing.assert_array_equal(o.get(), h)


@pytest.mark.parametrize("op", [
    lambda x, s: x + s, lambda x, s: x * s, lambda x, s: x > s, lambda x, s: x == s,
    lambda x, s: s - x, lambda x, s: x ** s, lambda x, s: x // s,
], ids=["add", "mul", "gt", "eq", "rsub", "pow", "floordiv"])
def test_operators_with_a_series(op):
    s = pd.Series([1.0, 2.0, 3.0], index=["a", "b", "c"])
    h = np.array([10.0, 20.0, 30.0])
    same(op(ng.asarray(h), s), op(h, s))


def test_operators_with_a_frame_and_in_place():
    df = pd.DataFrame({"x": [1.0, 2.0], "y": [3.0, 4.0]})
    h = np.array([1.0, 10.0])
    same(ng.asarray(h) * df, h * df)
    s = pd.Series([1.0, 2.0, 3.0])
    x, y = ng.asarray([10.0, 20.0, 30.0]), np.array([10.0, 20.0, 30.0])
    x += s
    y += s
    same(x, y)


def test_pandas_objects_are_no_fallbacks():
    """The object's own code answers, as with NumPy: no FallbackWarning, and no error where
    fallbacks are errors; the call is counted under NumPy's name."""
    s = pd.Series([1.0, 4.0, 9.0])
    prev = _fallback.set_mode("error")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _fallback.counts.pop("numpy.sqrt", None)
            same(ng.sqrt(s), np.sqrt(s))
            same(ng.cumsum(s), np.cumsum(s))
            assert _fallback.counts["numpy.sqrt"][0] == 1
    finally:
        _fallback.set_mode(prev)


def test_plain_arguments_stay_on_numgpu():
    x = ng.asarray([1.0, 4.0])
    prev = _fallback.set_mode("error")      # (a NumPy call would raise)
    try:
        assert isinstance(ng.sqrt(x), ng.ndarray) and isinstance(ng.sum([x, x], axis=0), ng.ndarray)
    finally:
        _fallback.set_mode(prev)


# ---- pandas' constructors: memory of their own -------------------------------------------------

def test_series_of_an_array_does_not_alias_it():
    h = np.array([1.0, -2.0, 3.0, -4.0])
    x = ng.asarray(h)
    s, t = pd.Series(x), pd.Series(h.copy())
    s[s < 0] = 0
    t[t < 0] = 0
    np.testing.assert_array_equal(x.get(), h)
    same(s, t)
    x[1] = 55.0
    assert s.iloc[1] == 0.0


@pytest.mark.parametrize("make", [pd.Index, pd.Series, pd.array, lambda v: pd.DataFrame({"c": v}),
                                  lambda v: pd.DataFrame(v.reshape(2, 2))],
                         ids=["Index", "Series", "array", "DataFrame dict", "DataFrame 2d"])
def test_constructors_copy(make):
    x = ng.arange(4.0)
    made = make(x)
    want = make(np.arange(4.0))
    x[1] = 99.0
    x[2] = -1.0
    same(made, want)


def test_index_of_an_array_stays_as_made():
    y = ng.arange(4.0)
    i = pd.Index(y)
    y[1] = 99.0
    assert i[1] == 1.0 and i.get_loc(1.0) == 1


def test_program_and_libraries_keep_views(tmp_path):
    """np.asarray(x) in the program, and in a library that is not pandas, is a view on cpu (a copy
    from a GPU): writes reach x where memory is shared."""
    x = ng.arange(3.0)
    np.asarray(x)[0] = 7.0
    path = tmp_path / "someviewlib.py"
    path.write_text("import numpy as np\n\ndef view(x):\n    return np.asarray(x)\n")
    spec = importlib.util.spec_from_file_location("someviewlib", path)
    lib = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lib)
    lib.view(x)[1] = 8.0
    assert x.get().tolist() == ([7.0, 8.0, 2.0] if HOST else [0.0, 1.0, 2.0])


def test_masks_from_pandas_results_select_rows(frames):
    _, _, df = frames
    want = df[np.abs(df["p"]) > 0.5]
    same(df[ng.abs(df["p"]) > 0.5], want)
    same(df.loc[ng.isnan(df["q"]), "p"], df.loc[np.isnan(df["q"]), "p"])


SCRIPT = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
df = pd.DataFrame({"a": rng.normal(size=8), "b": rng.uniform(1, 2, size=8)}, index=list("abcdefgh"))
s = pd.Series([1.0, 2.0, 3.0], index=list("xyz"))
t = pd.Series([10.0, 20.0, 30.0], index=list("zyx"))
print(np.add(s, t).tolist(), type(np.sqrt(s)).__name__)
print(np.log(df).round(6).to_dict())
print(np.isnan(df).sum().tolist(), np.sum(df, axis=0).round(6).tolist())
print(df[np.abs(df["a"]) > 0.5].shape, type(df["a"].to_numpy() + s.iloc[0]).__name__)
x = np.array([1.0, -2.0, 3.0, -4.0])
ser = pd.Series(x)
ser[ser < 0] = 0
idx = pd.Index(x)
x[0] = 100.0
print(x.tolist(), ser.tolist(), idx.tolist())
a = np.arange(3.0)
print(type(a + s.reset_index(drop=True)).__name__, (a * s.reset_index(drop=True)).tolist())
# the script's own arrays as pandas' masks, positions and group keys (numgpu._libraries)
m = np.asarray(df["a"]) > 0
k = np.arange(8) % 3
print(df[m].shape, df["a"][m].round(6).tolist(), df.loc[m, "b"].round(6).tolist(), df.iloc[m].shape)
print(df.iloc[np.array([0, 2])].index.tolist(), df["a"].iloc[np.arange(3)].round(6).tolist())
print(df.groupby(k)["a"].sum().round(6).tolist(), df["b"].groupby(k).mean().round(6).tolist(),
      df.groupby([k, k % 2])["a"].count().tolist(), df.set_index(k).index.tolist())
print(pd.factorize(k)[0].tolist(), pd.unique(k).tolist(), df.at[df.index[1], "a"].round(6))
d2 = df.copy()
d2.loc[m, "a"] = 0.0
d2[np.asarray(d2["b"]) > 1.5] = -1.0
d2["c"] = np.arange(8.0)
print(d2.round(6).values.tolist())
'''


class _Keys:
    def method(self, key, *rest, by=None):
        warnings.warn("from the library", UserWarning, stacklevel=2)
        return key, rest, by


def test_takes_numpy_hands_numgpu_arrays_over_as_numpys():
    """numgpu._libraries's wrapper (a C Guard with arrays=True): numgpu arrays among the arguments
    (and items of tuples and lists) become NumPy's; other arguments pass as they are; it binds as
    a method and adds no frame (a library's warning names the caller's line)."""
    from numgpu import _libraries

    class Keys(_Keys):
        pass
    Keys.method = _libraries.takes_numpy(_Keys.method)
    x, h = ng.arange(3.0), np.arange(3.0)
    obj = Keys()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        key, rest, by = obj.method(x, (x, "a"), [x, 1], by=x)
    assert caught[0].filename == __file__
    assert type(key) is np.ndarray and np.array_equal(key, h)
    assert type(rest[0][0]) is np.ndarray and rest[0][1] == "a" and type(rest[1][0]) is np.ndarray
    assert type(by) is np.ndarray
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert obj.method("label", 3)[:2] == ("label", (3,))
    assert Keys.method.__wrapped__ is _Keys.method and Keys.method.__name__ == "method"


def test_a_pandas_script_under_numgpu_run(tmp_path):
    path = tmp_path / "pandas_script.py"
    path.write_text(SCRIPT)
    same_under_numgpu_run(path)


@pytest.mark.parametrize("first", ["numgpu", "pandas"])
def test_the_pandas_script_with_import_numgpu_as_np(tmp_path, first):
    # (hunt 14 F3) with `import numgpu as np` pandas got the script's numgpu arrays bare:
    # `df.groupby(keys)` called the array (TypeError), `df.iloc[mask]` picked rows 0 and 1 (no
    # error); pandas is wrapped at its import once numgpu is imported, or at numgpu's import
    import subprocess
    import sys
    plain = tmp_path / "plain.py"
    plain.write_text(SCRIPT)
    head = "import pandas as pd\nimport numgpu as np\n" if first == "pandas" else "import numgpu as np\n"
    served = tmp_path / "served.py"
    served.write_text(head + SCRIPT.replace("import numpy as np\n", ""))
    want = subprocess.run([sys.executable, str(plain)], capture_output=True, text=True, timeout=300)
    got = subprocess.run([sys.executable, str(served)], capture_output=True, text=True, timeout=300)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout == want.stdout
