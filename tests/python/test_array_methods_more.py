"""ndarray methods NumPy programs use beyond arithmetic, against NumPy: writes through x.flat,
resize and byteswap in place (they used to change a downloaded copy and lose it), flags from the
strides, and reduction methods with all of NumPy's arguments (initial=, where=, out and ddof by
position: the second positional of max/min/argmax/any/all is out, and ddof of var/std came in
as keepdims)."""
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


def both(a):
    return a.copy(), ng.asarray(a)


def same(d, h):
    got = d.get() if isinstance(d, ng.ndarray) else np.asarray(d)
    assert got.dtype == np.asarray(h).dtype and got.shape == np.shape(h)
    np.testing.assert_array_equal(got, h)


LAYOUTS = {
    "c": lambda a: a,
    "transposed": lambda a: a.T,
    "strided": lambda a: a[:, ::2],
    "reversed": lambda a: a[::-1],
}
FLAT_WRITES = [
    (2, 99), (-1, 5), (slice(1, 7, 2), [7, 8, 9]), (slice(None), 3), ([0, 5, 5], [1, 2, 3]),
    (slice(4, None), [1, 2]),         # fewer values than elements: NumPy's flatiter repeats them
    (np.array([True, False] * 6), -4),
]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("key,value", FLAT_WRITES, ids=repr)
def test_flat_writes_reach_the_array(layout, key, value):
    h, d = both(np.arange(24.0).reshape(4, 6))
    hv, dv = LAYOUTS[layout](h), LAYOUTS[layout](d)
    if isinstance(key, np.ndarray) and key.size != hv.size:
        key = np.resize(key, hv.size)
    hv.flat[key] = value
    dv.flat[ng.asarray(key) if isinstance(key, np.ndarray) else key] = value
    same(d, h)                        # through the view into its base
    same(dv.flat[key if not isinstance(key, np.ndarray) else ng.asarray(key)], hv.flat[key])


def test_flat_reads_are_copies_and_writes_follow_numpy():
    h, d = both(np.arange(6.0))
    s, hs = d.flat[1:3], h.flat[1:3]
    s[0] = 99                         # a copy, as NumPy's (a view would change the array)
    hs[0] = 99
    same(d, h)
    with pytest.raises(ValueError, match="read-only"):
        ng.broadcast_to(ng.arange(3.0), (2, 3)).flat[0] = 9   # NumPy's broadcast views are read-only
    for value in (np.ones((3, 2)), [[1, 2], [3, 4], [5, 6]], [], 7):
        h, d = both(np.zeros((2, 3)))
        h.flat = value
        d.flat = value
        same(d, h)
    h, d = both(np.arange(4.0))
    h.flat[1:3] = []
    d.flat[1:3] = []
    same(d, h)
    it, hit = d.flat, h.flat
    assert float(next(it)) == float(next(hit)) and float(next(it)) == float(next(hit))
    assert it.index == hit.index == 2 and it.coords == hit.coords
    same(d.flat == 2.0, h.flat == 2.0)


def test_flat_reads_and_sets():
    h, d = both(np.arange(12).reshape(3, 4))
    assert len(d.flat) == 12 and [int(v) for v in d.T.flat] == list(h.T.flat)
    same(d.T.flat[5], h.T.flat[5])
    same(np.asarray(d.T.flat), np.asarray(h.T.flat))
    same(d.flat.copy(), h.flat.copy())
    assert d.flat.base is d
    d.flat = [1, 2, 3]
    h.flat = [1, 2, 3]
    same(d, h)


@pytest.mark.parametrize("shape,new", [((6,), (2, 4)), ((6,), 3), ((2, 3), (3, 3)), ((4,), (0,)),
                                       ((0,), (2, 2)), ((3, 2), (6,))], ids=str)
def test_resize_in_place(shape, new):
    h, d = both(np.arange(1, 1 + int(np.prod(shape)), dtype=np.int32).reshape(shape))
    assert d.resize(new) is None
    h.resize(new)
    same(d, h)
    d2, h2 = ng.asarray(np.arange(6.0)), np.arange(6.0)
    d2.resize(2, 2)                   # the shape as separate ints too
    h2.resize(2, 2)
    same(d2, h2)


def test_resize_refuses_what_numpy_refuses():
    d = ng.arange(6.0)
    view = d[1:]
    with pytest.raises(ValueError, match="referenced"):
        d.resize(8)                   # another array shares the buffer
    same(d, np.arange(6.0))
    d.resize(8, refcheck=False)       # then it is allowed; the view keeps the old data
    same(d, np.r_[np.arange(6.0), 0, 0])
    same(view, np.arange(1.0, 6.0))
    with pytest.raises(ValueError, match="single-segment"):
        ng.arange(12).reshape(3, 4).T.resize(12, refcheck=False)
    with pytest.raises(ValueError, match="negative"):
        ng.arange(3).resize(-1)
    # a view: NumPy refuses another size whatever refcheck ("does not own its data"; numgpu resized
    # it into memory of its own, detached from its base), and reshapes it in place at the same size
    for xp in (np, ng):
        base = xp.arange(6)
        c = base.reshape(2, 3)
        with pytest.raises(ValueError, match="cannot resize this array: it does not own its data"):
            c.resize((2, 2), refcheck=False)
        c.resize((3, 2))
        c[0, 0] = 100
        assert c.shape == (3, 2) and c.base is base and np.asarray(base).tolist() == [100, 1, 2, 3, 4, 5]
        with pytest.raises(ValueError, match="by another object in this way.\nUse the np.resize function to get"):
            base.resize(7)
    if ng.get_device() == "cpu":      # a NumPy array on numgpu's memory: resizing would free it
        e = ng.arange(4)
        host = np.asarray(e)
        with pytest.raises(ValueError, match="NumPy array"):
            e.resize(8, refcheck=False)
        assert host.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("layout", sorted(LAYOUTS) + ["newaxis", "empty", "column"])
def test_flags_from_the_strides(layout):
    h, d = both(np.arange(24.0).reshape(4, 6))
    pick = dict(LAYOUTS, newaxis=lambda a: a[None, :, None], empty=lambda a: a[:0], column=lambda a: a[:, :1])
    hv, dv = pick[layout](h), pick[layout](d)
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "C", "F", "FNC", "FORC", "ALIGNED"):
        assert dv.flags[key] == hv.flags[key], key
    assert dv.flags.c_contiguous == hv.flags.c_contiguous and dv.flags.f_contiguous == hv.flags.f_contiguous
    assert dv.flags.writeable
    with pytest.raises(KeyError):
        dv.flags["NOPE"]


def test_flag_keys_are_numpys():
    d, h = ng.arange(3), np.arange(3)
    for key in ("c_contiguous", "c", "Writeable"):
        with pytest.raises(KeyError):
            h.flags[key]
        with pytest.raises(KeyError):
            d.flags[key]
    assert str(d.flags) == str(h.flags)


def test_writeable_flag_is_enforced():
    d = ng.arange(3)
    d.flags.writeable = False
    assert not d.flags.writeable and not d.flags["W"]
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        d[0] = 5
    d.setflags(write=True)
    d[0] = 5
    assert d.get().tolist() == [5, 1, 2]
    with pytest.raises(AttributeError):
        d.flags.c_contiguous = False


@pytest.mark.parametrize("dt", ["int16", "uint32", "float32", "float64", "complex64"])
def test_byteswap_in_place(dt):
    h, d = both(np.arange(1, 7).astype(dt))
    same(d.byteswap(), h.byteswap())
    same(d, h)                        # (not in place: unchanged)
    assert d.byteswap(inplace=True) is d
    h.byteswap(inplace=True)
    same(d, h)


A = np.array([[3.0, -1.0, 2.0, 7.0], [0.5, 4.0, -2.0, 1.0], [6.0, 6.0, -3.0, 0.0]])
METHOD_CALLS = [
    ("sum", (), {"where": A > 0}), ("sum", (1,), {"initial": 10.0}), ("prod", (0,), {"where": A > 0}),
    ("mean", (), {"where": A > 1}), ("max", (), {"initial": 100.0}), ("min", (1,), {"where": A > 0, "initial": 9.0}),
    ("max", (0, None, True), {}), ("min", (1, None, False), {}), ("argmax", (1, None), {}),
    ("argmin", (0, None), {"keepdims": True}), ("any", (0, None), {"keepdims": True}), ("all", (None, None), {}),
    ("var", (0, None, None, 1), {}), ("std", (1, None, None, 1, True), {}), ("std", (), {"ddof": 2}),
    ("var", (None,), {"where": A > 0}), ("sum", (0, np.float32), {}), ("mean", (1,), {"keepdims": True}),
]


@pytest.mark.parametrize("name,args,kwargs", METHOD_CALLS, ids=lambda v: repr(v)[:40])
def test_reduction_methods_take_numpys_arguments(name, args, kwargs):
    d = ng.asarray(A)
    dkw = {k: ng.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    got, want = getattr(d, name)(*args, **dkw), getattr(A, name)(*args, **kwargs)
    got = got.get()
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_reduction_methods_positional_out():
    d = ng.asarray(A)
    o = ng.zeros(4)
    assert d.max(0, o) is o
    same(o, A.max(0))
    io = ng.zeros(3, dtype=np.int64)
    assert d.argmax(1, io) is io
    same(io, A.argmax(1))
    with pytest.raises(TypeError, match="unexpected keyword"):
        d.sum(nokeyword=1)
