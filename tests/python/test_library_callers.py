"""An installed library's code (scipy, matplotlib: _run.is_user_code says it is not the program's)
calling NumPy's functions and ufuncs on numgpu arrays gets NumPy's own function run on host arrays
and NumPy's result (python/numgpu/_protocols.py): libraries keep NumPy, and their compiled code
takes only NumPy's arrays. Writes through out= and ufunc.at reach the numgpu arrays on every device.
The program's own code keeps numgpu's functions."""
import importlib.util

import numpy as np
import pytest

import numgpu as ng
from numgpu import _protocols, _run

LIB = '''
import numpy as np

def calls(x, o):
    a = np.atleast_1d(x)                 # a dispatched function
    e = np.exp(x)                        # a ufunc
    s = np.sum(x)
    c = np.concatenate([x, x])
    np.add(x, 1.0, out=o)                # out= of a ufunc: o gets it
    np.multiply.at(o, [0, 0], 2.0)       # ufunc.at on a numgpu array: in place, twice
    m = np.mean(x, keepdims=True)
    return a, e, s, c, m


def in_place(d, src, o):
    np.copyto(d, src)                    # NumPy's functions that change their first argument
    np.put(d, [0], 7.0)
    r = np.cumsum(src, 0, None, o)       # an out given by position: o gets it, and is returned
    return r
'''


@pytest.fixture
def library(tmp_path, monkeypatch):
    path = tmp_path / "fakelib.py"
    path.write_text(LIB)
    spec = importlib.util.spec_from_file_location("fakelib", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    user = _run.is_user_code
    patched = lambda g: False if g is vars(mod) else user(g)   # noqa: E731
    monkeypatch.setattr(_run, "is_user_code", patched)
    # (_protocols keeps the function it imported at its first library call: an earlier test's)
    monkeypatch.setattr(_protocols, "_is_user_code", patched)
    return mod


def test_a_library_gets_numpys_arrays(library):
    h = np.array([0.5, 1.0, 2.0])
    x, o = ng.asarray(h), ng.zeros(3)
    a, e, s, c, m = library.calls(x, o)
    for r in (a, e, c, m):
        assert type(r) is np.ndarray
    assert isinstance(s, np.floating) and s == h.sum()
    np.testing.assert_array_equal(a, h)
    np.testing.assert_array_equal(e, np.exp(h))
    np.testing.assert_array_equal(c, np.concatenate([h, h]))
    np.testing.assert_array_equal(m, [h.mean()])
    exp = h + 1.0
    exp[0] *= 4.0
    assert type(o) is ng.ndarray and ng.asnumpy(o).tolist() == exp.tolist()   # (the writes reached o)


def test_a_librarys_in_place_calls_reach_numgpu_arrays(library):
    d, o = ng.zeros(4), ng.zeros(4)
    src = ng.asarray(np.array([1.0, 2.0, 3.0, 4.0]))
    r = library.in_place(d, src, o)
    assert ng.asnumpy(d).tolist() == [7.0, 2.0, 3.0, 4.0]
    assert r is o and ng.asnumpy(o).tolist() == [1.0, 3.0, 6.0, 10.0]


def test_the_program_keeps_numgpus_functions():
    x = ng.asarray(np.array([0.5, 1.0, 2.0]))
    assert type(np.atleast_1d(x)) is ng.ndarray and type(np.exp(x)) is ng.ndarray


def test_scipy_minimize_with_a_numgpu_gradient():
    # scipy's L-BFGS-B passes np.atleast_1d(jac(x)) to its compiled code, which takes only NumPy's arrays
    optimize = pytest.importorskip("scipy.optimize")
    target = ng.asarray(np.array([1.0, -2.0, 3.0]))

    def f(v):
        d = ng.asarray(v) - target
        return float((d * d).sum())

    def jac(v):
        return 2.0 * (ng.asarray(v) - target)

    r = optimize.minimize(f, np.zeros(3), jac=jac, method="L-BFGS-B")
    np.testing.assert_allclose(r.x, [1.0, -2.0, 3.0], atol=1e-5)


def test_to_numpy_gives_numpys_array():
    h = np.arange(12.0).reshape(4, 3)
    x = ng.asarray(h)
    t = x.to_numpy()
    assert type(t) is np.ndarray and t.tolist() == h.tolist()
    assert x.to_numpy(dtype=np.float32).dtype == np.float32


def test_matplotlib_takes_a_2d_arrays_columns_as_datasets():
    # matplotlib's hist/boxplot unpack pandas-like objects with to_numpy(), then take an array's
    # columns as datasets (it took a numgpu array's rows as lists: 100 histograms for 3 columns)
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    data = ng.asarray(np.random.default_rng(0).normal(size=(100, 3)))
    fig, ax = plt.subplots()
    counts, edges, patches = ax.hist(data, bins=5)
    assert len(patches) == 3 and np.asarray(counts).shape == (3, 5)
    box = ax.boxplot(data)
    assert len(box["boxes"]) == 3
    plt.close(fig)


def test_scipy_sparse_and_numgpu_arrays_in_operators():
    # scipy's sparse matrices know only NumPy's arrays (isinstance(x, np.ndarray)): an operator of
    # one and a numgpu array runs as NumPy's would, with NumPy's array of ours
    sparse = pytest.importorskip("scipy.sparse")
    h = np.arange(9.0).reshape(3, 3) + 1.0
    A, S = ng.asarray(h), sparse.identity(3, format="csr")
    for got, exp in ((A + S, h + S), (S + A, S + h), (A - S, h - S), (S - A, S - h), (A * S, h * S)):
        assert type(got) is type(exp)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(exp))
    eq = A == S
    assert type(eq) is type(h == S) and np.asarray(eq).tolist() == np.asarray(h == S).tolist()


class Deferring:
    """An object of higher __array_priority__ that knows numgpu's arrays: its reflected method is
    asked first."""
    __array_priority__ = 50

    def __radd__(self, other):
        return ("radd", type(other))


def test_a_deferring_object_that_knows_numgpu_arrays_is_asked_first():
    assert ng.zeros(2) + Deferring() == ("radd", ng.ndarray)


def test_array_protocol_copy_false():
    # NumPy 2's __array__(copy=False): NumPy's array of the same memory (cpu), else ValueError
    # (a GPU's array, or a cast), never a silent copy whose writes are lost
    x = ng.asarray(np.array([1.0, 2.0, 3.0]))
    if x.device.startswith("cpu"):
        h = np.asarray(x, copy=False)
        h[0] = 5.0
        assert x.tolist() == [5.0, 2.0, 3.0]
    else:
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            np.asarray(x, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        x.to_numpy(dtype=np.float32, copy=False)
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    assert np.asarray(x, dtype=np.float64).tolist() == x.tolist()
