"""NumPy behaviours scripts rely on under `numgpu run` and `import numgpu as np`, compared with
NumPy on every device the machine has (cpu, and PoCL's opencl where installed): np.nditer
(writes, order), pickled functions, isinstance(f, np.ufunc), where(c, x, None), astype(None),
NumPy's own RuntimeWarnings, unique of complex NaNs."""
import pickle
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import same_under_numgpu_run
from numgpu import _run

DEVICES = ["cpu"] + (["opencl"] if ng.is_available("opencl") else [])


@pytest.fixture(params=DEVICES)
def device(request):
    with ng.use(request.param):
        yield request.param


def up(a):
    return ng.asarray(a)


def same(x, expected):
    got = x.get() if isinstance(x, ng.ndarray) else np.asarray(x)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.asarray(expected).dtype


# ---- np.nditer --------------------------------------------------------------------------------

def test_nditer_readwrite_with(device):
    b, nb = up(np.arange(4.0)), np.arange(4.0)
    for arr, mod in ((b, ng), (nb, np)):
        with mod.nditer(arr, op_flags=["readwrite"]) as it:
            for x in it:
                x[...] = x ** 2
    same(b, nb)


def test_nditer_writes_without_context_manager(device):
    b, nb = up(np.arange(6.0).reshape(2, 3)), np.arange(6.0).reshape(2, 3)
    for arr, mod in ((b, ng), (nb, np)):
        for x in mod.nditer(arr, op_flags=["readwrite"]):
            x[...] = 2 * x + 1
    same(b, nb)


def test_nditer_external_loop_and_close(device):
    a, na = up(np.zeros((3, 4))), np.zeros((3, 4))
    for arr, mod in ((a, ng), (na, np)):
        it = mod.nditer(arr, flags=["external_loop"], op_flags=["writeonly"])
        for chunk in it:
            chunk[...] = np.arange(chunk.size)
        it.close()
    same(a, na)


def test_nditer_multi_index_iternext(device):
    a, na = up(np.zeros((2, 3), np.int64)), np.zeros((2, 3), np.int64)
    for arr, mod in ((a, ng), (na, np)):
        it = mod.nditer(arr, flags=["multi_index"], op_flags=["writeonly"])
        with it:
            while not it.finished:
                it[0] = it.multi_index[1] - 10 * it.multi_index[0]
                it.iternext()
    same(a, na)


def test_nditer_order_k_follows_memory(device):
    base = np.arange(24).reshape(2, 3, 4)
    views = [lambda a: a.T, lambda a: a[:, ::-1], lambda a: a.transpose(1, 0, 2)[::-1, :, ::2],
             lambda a: a[0], lambda a: a[1:, 1, ::-2]]
    a = up(base)
    for v in views:
        for order in ("K", "C", "F", "A"):
            got = [int(x) for x in ng.nditer(v(a), order=order)]
            assert got == [int(x) for x in np.nditer(v(base), order=order)], (order, got)
    b = ng.broadcast_to(up(np.arange(3)), (2, 3))
    assert [int(x) for x in ng.nditer(b.T)] == [int(x) for x in np.nditer(np.broadcast_to(np.arange(3), (2, 3)).T)]


def test_nditer_several_operands_and_allocate(device):
    x, y = up(np.arange(6.0).reshape(2, 3)), up(np.arange(3.0))
    out = up(np.zeros((2, 3)))
    it = ng.nditer([x, y, out], [], [["readonly"], ["readonly"], ["writeonly"]])
    with it:
        for a, b, c in it:
            c[...] = a * b + 1
        got = it.operands[2]          # (the numgpu array itself on a GPU; NumPy's view of it on cpu)
        np.testing.assert_array_equal(np.asarray(got), np.arange(6.0).reshape(2, 3) * np.arange(3.0) + 1)
    same(out, np.arange(6.0).reshape(2, 3) * np.arange(3.0) + 1)
    it = ng.nditer([x, None])           # NumPy's docs: the output allocated by the iterator
    with it:
        for a, c in it:
            c[...] = a * 2
        res = it.operands[1]
    np.testing.assert_array_equal(np.asarray(res), np.arange(6.0).reshape(2, 3) * 2)


def test_nditer_buffered_cast_written_back(device):
    a = up(np.arange(4, dtype=np.float32))
    with ng.nditer(a, flags=["buffered"], op_flags=["readwrite"], op_dtypes=[np.float64],
                   casting="same_kind") as it:
        for x in it:
            x[...] = x / 2
    same(a, np.arange(4, dtype=np.float32) / 2)


def test_nditer_writes_through_strided_views_and_numpy_operands(device):
    a, na = up(np.arange(12.0).reshape(3, 4)), np.arange(12.0).reshape(3, 4)
    for arr, mod in ((a, ng), (na, np)):
        k = 0
        for x in mod.nditer(arr.T[::-1, 1:], op_flags=["readwrite"]):
            x[...] = x * 10 + k
            k += 1
    same(a, na)
    b, nb = up(np.zeros((2, 3), np.complex64)), np.zeros((2, 3), np.complex64)
    for arr, mod in ((b, ng), (nb, np)):
        with mod.nditer([arr, np.arange(3)], op_flags=[["writeonly"], ["readonly"]]) as it:
            for y, z in it:
                y[...] = z + 1j
    same(b, nb)


def test_nditer_break_and_later_writes(device):
    a, na = up(np.arange(6.0)), np.arange(6.0)
    for arr, mod in ((a, ng), (na, np)):
        for x in mod.nditer(arr, op_flags=["readwrite"]):   # (the iterator dropped at the break)
            if x > 3:
                break
            x[...] = -x
    same(a, na)
    b, nb = up(np.arange(4, dtype=np.float32)), np.arange(4, dtype=np.float32)
    for arr, mod in ((b, ng), (nb, np)):
        with mod.nditer(arr, flags=["buffered"], op_flags=["readwrite"], op_dtypes=[np.float64],
                        casting="same_kind") as it:
            for x in it:
                x[...] = x * 3
        arr[0] = 7                 # (after the iterator closed: its copies never come back over it)
        del it
    same(b, nb)


def test_nditer_read_only_operands(device):
    b = ng.broadcast_to(up(np.arange(3.0)), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        ng.nditer(b, op_flags=["readwrite"])
    assert isinstance(ng.nditer(up(np.arange(3.0))), ng.nditer)
    assert isinstance(ng.nditer(np.arange(3.0)), np.nditer)     # (NumPy's own iterator for host data)


def test_nditer_in_numgpu_run(tmp_path, device):
    script = tmp_path / "it.py"
    script.write_text(
        "import numpy as np\n"
        "b = np.arange(4.0)\n"
        "with np.nditer(b, op_flags=['readwrite']) as it:\n"
        "    for x in it:\n"
        "        x[...] = x ** 2\n"
        "a = np.arange(6).reshape(2, 3)\n"
        "print(b, [int(x) for x in np.nditer(a.T)], isinstance(np.nditer(a), np.nditer))\n")
    same_under_numgpu_run(script, "--device", device)


# ---- pickled functions (Pool.map(np.sum, ...)) ------------------------------------------------

def _loads_same(f):
    g = pickle.loads(pickle.dumps(f))
    assert g is f, (f, g)
    return g


def test_functions_pickle_as_themselves_import_numgpu(device):
    x = up(np.arange(4.0))
    for f, expected in ((ng.sum, 6.0), (ng.linalg.norm, np.linalg.norm(np.arange(4.0))), (ng.fft.fft, None),
                        (ng.random.normal, None), (ng.sqrt, None), (ng.polyfit, None),
                        (ng.linalg.matrix_rank, None), (ng.lib.stride_tricks.as_strided, None)):
        g = _loads_same(f)
        if expected is not None:
            assert float(g(x)) == pytest.approx(expected)
    for name in dir(ng):
        f = getattr(ng, name)
        if not name.startswith("_") and callable(f) and not isinstance(f, type):
            _loads_same(f)


def test_functions_pickle_as_themselves_numgpu_run():
    npx = _run.shim("numpy")
    for f in (npx.sum, npx.linalg.norm, npx.sqrt, npx.matmul, npx.conj, npx.shape, npx.polyfit, npx.fft.rfft,
              npx.random.normal, npx.random.shuffle, npx.add, npx.add.reduce):
        _loads_same(f) if not hasattr(f, "__self__") else pickle.loads(pickle.dumps(f))
    assert float(pickle.loads(pickle.dumps(npx.sum))(up(np.arange(4.0)))) == 6.0


# ---- isinstance(f, np.ufunc) under numgpu run -----------------------------------------------------

def test_script_ufunc_type():
    npx = _run.shim("numpy")
    for f in (npx.add, npx.sqrt, npx.matmul, npx.conj, np.add, np.sqrt, ng.add, npx.spacing):
        assert isinstance(f, npx.ufunc), f
        assert issubclass(type(f), npx.ufunc)
    for f in (npx.sum, np.sum, len, None):
        assert not isinstance(f, npx.ufunc)
    with pytest.raises(TypeError, match="cannot create 'numpy.ufunc' instances"):
        npx.ufunc()
    assert npx.ufunc.__name__ == "ufunc" and npx.ufunc.__module__ == "numpy"


def test_run_script_pickle_pool_and_ufunc(tmp_path, device):
    script = tmp_path / "pool.py"
    script.write_text(
        "import numpy as np, pickle, multiprocessing\n"
        "if __name__ == '__main__':\n"
        "    for f in (np.sum, np.linalg.norm, np.sqrt):\n"
        "        print(pickle.loads(pickle.dumps(f))(np.arange(4.0)))\n"
        "    print(isinstance(np.add, np.ufunc), isinstance(np.sqrt, np.ufunc), isinstance(np.sum, np.ufunc))\n"
        "    with multiprocessing.get_context(%r).Pool(2) as p:\n"
        "        print([float(v) for v in p.map(np.sum, [np.arange(3.0), np.arange(5.0)])])\n"
        % ("fork" if device == "cpu" else "spawn"))     # (GPU drivers do not survive fork: spawn)
    same_under_numgpu_run(script, "--device", device)


def test_run_script_pool_with_the_default_start_method(tmp_path, device):
    # fork() on Linux before Python 3.14: a worker forked from a script using a GPU could make no
    # array (the GPU's driver does not survive fork); its own arrays go to cpu now
    script = tmp_path / "pool_default.py"
    script.write_text(
        "import numpy as np\n"
        "from multiprocessing import Pool\n"
        "def work(seed):\n"
        "    x = np.random.default_rng(seed).random(1000)\n"
        "    return round(float(np.sum(x * x) / np.mean(x)), 9)\n"
        "if __name__ == '__main__':\n"
        "    print(np.arange(1e5).sum())\n"
        "    with Pool(2) as p:\n"
        "        print(p.map(work, range(4)))\n")
    same_under_numgpu_run(script, "--device", device)


# ---- where(c, x, None), astype(None) ---------------------------------------------------------------

def test_where_with_none_is_numpys_object_array(device):
    a, na = up(np.arange(4.0)), np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ng._fallback.FallbackWarning)
        for x, y in ((a, None), (None, a), (None, None)):
            got = ng.where(a > 1, x, y)
            nx, ny = (na if v is a else None for v in (x, y))
            expected = np.where(na > 1, nx, ny)
            assert got.dtype == object and got.tolist() == expected.tolist()
        got = np.where(a > 1, a, None)        # (through NumPy's protocol)
        assert got.dtype == object and got.tolist() == np.where(na > 1, na, None).tolist()
    with pytest.raises(ValueError, match="either both or neither of x and y should be given"):
        ng.where(a > 1, a)
    same(ng.where(a > 1, a, 0.5), np.where(na > 1, na, 0.5))
    for got, expected in zip(ng.where(a > 1), np.where(na > 1)):
        same(got, expected)


def test_astype_and_view_none_are_float64(device):
    x, nx = up(np.arange(3)), np.arange(3)
    same(x.astype(None), nx.astype(None))
    same(x.astype(dtype=None), nx.astype(dtype=None))
    same(x.view(None), nx.view(None))               # (NumPy: None is float64, the same bytes)
    same(x.view(dtype=None), nx.view(dtype=None))
    same(x.view(), nx.view())
    same(ng.array([1, 2], dtype=None), np.array([1, 2], dtype=None))
    same(ng.zeros(2, dtype=None), np.zeros(2, dtype=None))


# ---- NumPy's own RuntimeWarnings (not errstate's) --------------------------------------------------

def _own_warnings(f):
    """f()'s value and the RuntimeWarnings NumPy's Python code gives (errstate's left out)."""
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            r = f()
    r = r.get() if isinstance(r, ng.ndarray) else np.asarray(r)
    texts = [str(w.message) for w in rec if issubclass(w.category, RuntimeWarning)
             and "encountered" not in str(w.message) or "All-NaN" in str(w.message)]
    return r, texts


WARNING_CASES = [
    ("mean", lambda m, a: m.mean(a), [[]]),
    ("mean_method", lambda m, a: a.mean(), [[]]),
    ("mean_axis0", lambda m, a: m.mean(a, axis=0), np.zeros((0, 3))),
    ("mean_axis1", lambda m, a: m.mean(a, axis=1), np.zeros((0, 3))),
    ("mean_int", lambda m, a: m.mean(a), np.array([], dtype=np.int64)),
    ("mean_where", lambda m, a: m.mean(a, axis=1, where=m.asarray([[True, False], [False, False]])), np.ones((2, 2))),
    ("mean_where_some", lambda m, a: m.mean(a, axis=0, where=m.asarray([[True, False], [True, True]])), np.ones((2, 2))),
    ("mean_fine", lambda m, a: m.mean(a), np.arange(3.0)),
    ("std_ddof1", lambda m, a: m.std(a, ddof=1), [1.0]),
    ("var_ddof1", lambda m, a: m.var(a, ddof=1), [1.0]),
    ("var_method", lambda m, a: a.var(ddof=1), [1.0]),
    ("std_method_axis", lambda m, a: a.std(axis=1, ddof=2), np.arange(4.0).reshape(2, 2)),
    ("var_empty_axis0", lambda m, a: m.var(a, axis=0), np.zeros((0, 3))),
    ("var_fine", lambda m, a: m.var(a, ddof=1), np.arange(3.0)),
    ("var_correction", lambda m, a: m.var(a, correction=2.5), [1.0, 2.0]),
    ("var_complex", lambda m, a: m.var(a, ddof=1), np.array([1j])),
    ("nanmean_all_nan", lambda m, a: m.nanmean(a), [np.nan, np.nan]),
    ("nanmean_axis", lambda m, a: m.nanmean(a, axis=1), [[1.0, np.nan], [np.nan, np.nan]]),
    ("nanvar_all_nan", lambda m, a: m.nanvar(a), [np.nan, np.nan]),
    ("nanstd_ddof", lambda m, a: m.nanstd(a, ddof=1), [1.0, np.nan]),
    ("nanmin_all_nan", lambda m, a: m.nanmin(a), [np.nan, np.nan]),
    ("average_empty", lambda m, a: m.average(a), [[]]),
    ("nanmean_fine", lambda m, a: m.nanmean(a), [1.0, np.nan]),
]


@pytest.mark.parametrize("case", WARNING_CASES, ids=[c[0] for c in WARNING_CASES])
def test_numpys_own_runtime_warnings(device, case):
    _, f, data = case
    data = np.asarray(data, dtype=float) if isinstance(data, list) else data
    expected, expected_warnings = _own_warnings(lambda: f(np, data))
    got, got_warnings = _own_warnings(lambda: f(ng, up(data)))
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert sorted(set(got_warnings)) == sorted(set(expected_warnings))


def test_runtime_warnings_as_errors(device):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="Mean of empty slice"):
            up(np.zeros(0)).mean()
        with pytest.raises(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
            ng.std(up(np.ones(2)), ddof=2)


# ---- unique of complex NaNs ---------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    [complex(np.nan, np.nan), complex(np.nan, 0)], [complex(np.nan, 0), complex(np.nan, np.nan)],
    [complex(1, np.nan), complex(np.nan, 0), 2], [complex(np.nan, 1), complex(1, np.nan), complex(np.nan, 0), 5j],
    [complex(np.nan, 2), complex(np.nan, 1)], [1 + 2j, 3j, 1 + 2j], [complex(0, np.nan)]])
def test_unique_complex_nans(device, data):
    a = np.array(data, dtype=complex)
    got, expected = ng.unique(up(a)).get(), np.unique(a)
    np.testing.assert_array_equal(got.view(np.float64), expected.view(np.float64))   # (NaN parts compared too)
    for flags in ((True, False, False), (False, True, False), (False, False, True), (True, True, True)):
        got, expected = ng.unique(up(a), *flags), np.unique(a, *flags)
        np.testing.assert_array_equal(got[0].get().view(np.float64), expected[0].view(np.float64))
        for g, e in zip(got[1:], expected[1:]):
            same(g, e)
