"""NumPy's array subclasses with semantics of their own (masked arrays, np.matrix) given to numgpu's
functions, ufuncs and operators: NumPy's answer and type, never the subclass's bare data (a mask
dropped); np.memmap stays plain memory, run on the device. Also x.base, and NumPy's conversions numgpu takes
over: str values stored into numeric arrays, np.where's wraparound of Python ints, and the
NumPy-scalar style of 0-d results under `numgpu run`."""
import operator
import warnings

import numpy as np
import pytest

import numgpu as ng
from helpers import fallback_calls


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _masked():
    return np.ma.masked_equal(np.array([1.0, -999.0, 3.0, 7.5, -999.0]), -999.0)


def _same_masked(got, want):
    assert type(got) is type(want)
    assert np.array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    assert np.allclose(np.ma.filled(got, 0), np.ma.filled(want, 0))


@pytest.mark.parametrize("name,args", [
    ("mean", ()), ("sum", ()), ("min", ()), ("std", ()), ("cumsum", ()), ("average", ()),
    ("sqrt", ()), ("abs", ()), ("clip", (0, 2)), ("where", ()),
])
def test_masked_arrays_keep_their_mask(name, args):
    t = _masked()
    if name == "where":
        got, want = ng.where(t > 2, t, 0), np.where(t > 2, t, 0)
        assert np.array_equal(np.asarray(got), np.asarray(want))
        return
    got, want = getattr(ng, name)(t, *args), getattr(np, name)(t, *args)
    if np.ndim(want) == 0:
        assert float(got) == pytest.approx(float(want))   # the mean of the unmasked elements
    else:
        _same_masked(got, want)


def test_operators_with_a_masked_array_are_the_masked_arrays():
    t, a = _masked(), np.arange(5.0)
    g = ng.asarray(a)
    for op in (operator.add, operator.sub, operator.mul, operator.lt, operator.eq):
        _same_masked(op(g, t), op(a, t))
    _same_masked(t + g, t + a)


def test_matrix_stays_a_matrix():
    m = np.matrix([[1, 2], [3, 4]])
    for got, want in [(ng.sum(m, axis=0), np.sum(m, axis=0)), (ng.mean(m, axis=1), np.mean(m, axis=1)),
                      (ng.transpose(m), np.transpose(m)), (ng.ones((2, 2)) @ m, np.ones((2, 2)) @ m),
                      (ng.ones((2, 2)) * m, np.ones((2, 2)) * m), (ng.multiply(m, m), np.multiply(m, m))]:
        assert type(got) is np.matrix and got.shape == want.shape
        assert np.array_equal(got, want)


def test_memmap_is_plain_memory_on_the_device(tmp_path):
    mm = np.memmap(tmp_path / "m.dat", dtype=np.float64, mode="w+", shape=(6,))
    mm[:] = np.arange(6.0)
    before = fallback_calls()
    assert float(ng.sum(mm)) == 15.0
    assert np.array_equal((ng.ones(6) + mm).get(), np.arange(6.0) + 1)
    assert fallback_calls() == before


def test_str_values_stored_by_numpys_conversion():
    x, f = ng.arange(3), ng.zeros(2)
    x[0] = "5"
    f[:] = ["1.5", "2"]
    assert x.tolist() == [5, 1, 2] and f.tolist() == [1.5, 2.0]
    for bad in ("abc", "1.5"):
        with pytest.raises(ValueError) as want:
            np.arange(3)[1] = bad
        with pytest.raises(ValueError, match=str(want.value).replace("(", r"\(").replace(")", r"\)")):
            x[1] = bad
    assert x.tolist() == [5, 1, 2]           # nothing stored by the failed assignments


@pytest.mark.parametrize("dt,v", [(np.uint8, -1), (np.int8, 300), (np.int16, -40000), (np.uint32, 2 ** 40)])
def test_where_wraps_python_ints_as_numpy(dt, v):
    c = np.array([True, False, True])
    x = np.array([1, 2, 3], dtype=dt)
    for args in [(x, v), (v, x), (x[0], v), (v, x[1])]:    # (NumPy's scalars too)
        want = np.where(c, *args)
        got = ng.where(ng.asarray(c), *[ng.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
        assert got.dtype == want.dtype and np.array_equal(got.get(), want)
    with pytest.raises(OverflowError):
        ng.where(ng.asarray(c), ng.asarray(x), 2 ** 64)


def test_scalar_style_prints_only_scalars_as_scalars():
    from numgpu import _protocols
    _protocols.scalar_style(True)
    try:
        a = ng.arange(5.0)
        assert [repr(v) for v in (a[0], a.sum(), ng.mean(a), a.max())] == \
            [repr(v) for v in (np.float64(0.0), np.float64(10.0), np.float64(2.0), np.float64(4.0))]
        assert [repr(v) for v in (ng.array(5), ng.zeros(()), ng.asarray(2.5))] == \
            ["array(5)", "array(0.)", "array(2.5)"]
    finally:
        _protocols.scalar_style(False)


def test_base_is_the_array_owning_the_memory():
    before = fallback_calls()
    a = ng.arange(10)
    v = a[2:7]
    assert a.base is None and v.base is a
    assert v[1:].base is a and v.T.base is a          # NumPy's chain collapses to the owner
    assert a.reshape(2, 5).base is a and a.view(np.uint64).base is a
    assert (a + 1).base is None and a.copy().base is None and a[3].base is None
    b = ng.arange(12.0).reshape(3, 4)                  # the owner stays alive through its view
    assert b.base is not None and b.base.shape == (12,)
    c = b.base
    del c
    w = ng.arange(6.0)[::2]
    assert w.base.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    r = ng.arange(6)
    r.resize((2, 3), refcheck=False)
    assert r.base is None
    assert fallback_calls() == before                 # x.base ran on NumPy before (always None)


def test_ufunc_methods_keep_a_masked_arrays_mask():
    # outer/accumulate/reduce of a masked array: NumPy's method (they took its bare data)
    m = np.ma.masked_array([1.0, 2.0, 30.0], [0, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        o = ng.multiply.outer(m, m)
        a = ng.add.accumulate(m)
        r = ng.add.reduce(m)
    e = np.multiply.outer(m, m)
    assert isinstance(o, np.ma.MaskedArray) and o.mask.tolist() == e.mask.tolist()
    assert isinstance(a, np.ma.MaskedArray) and a.tolist() == np.add.accumulate(m).tolist()
    assert float(r) == float(np.add.reduce(m))          # (NumPy's own answer, whatever it reads)
