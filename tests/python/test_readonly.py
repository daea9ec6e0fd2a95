"""Read-only arrays (flags.writeable False) as NumPy's: which results are read-only, which writes
raise ValueError, and that a refused write changes nothing. Each case runs the same code on NumPy
and on numgpu and compares the outcome."""
import numpy as np
import pytest

import numgpu as ng
from numgpu.lib import stride_tricks as ng_st


def outcome(f):
    """('ok', value) or (exception class, message) of calling f."""
    try:
        r = f()
    except Exception as e:          # noqa: BLE001 (the class is what is compared)
        return type(e), str(e)
    if hasattr(r, "get"):
        r = r.get()
    return "ok", (r.tolist() if isinstance(r, np.ndarray) else r)


def frozen(xp, n=6):
    a = xp.arange(float(n))
    a.flags.writeable = False
    return a


# (results whose flags.writeable NumPy and numgpu must agree on)
RESULTS = {
    "broadcast_to": lambda xp: xp.broadcast_to(xp.arange(4.0), (3, 4)),
    "broadcast_to[0]": lambda xp: xp.broadcast_to(xp.arange(4.0), (3, 4))[0],
    "broadcast_to.T": lambda xp: xp.broadcast_to(xp.arange(4.0), (3, 4)).T,
    "diagonal": lambda xp: xp.diagonal(xp.ones((3, 3))),
    "method diagonal": lambda xp: xp.ones((3, 3)).diagonal(),
    "diag of 2-d": lambda xp: xp.diag(xp.ones((3, 3))),
    "diag of 1-d": lambda xp: xp.diag(xp.ones(3)),
    "view of frozen": lambda xp: frozen(xp)[1:],
    "T of frozen": lambda xp: frozen(xp).reshape(2, 3).T,
    "reshape of frozen": lambda xp: frozen(xp).reshape(3, 2),
    "ravel of frozen": lambda xp: frozen(xp).ravel(),
    "view(dtype) of frozen": lambda xp: frozen(xp).view(xp.int64),
    "real of frozen": lambda xp: frozen(xp).real,
    "flip of frozen": lambda xp: xp.flip(frozen(xp)),
    "asarray of frozen": lambda xp: xp.asarray(frozen(xp)),
    "copy of frozen": lambda xp: frozen(xp).copy(),
    "astype of frozen": lambda xp: frozen(xp).astype(xp.int32),
    "gather of frozen": lambda xp: frozen(xp)[[0, 2]],
    "mask of frozen": lambda xp: frozen(xp)[frozen(xp) > 2],
    "negative of frozen": lambda xp: -frozen(xp),
    "flatten of frozen": lambda xp: frozen(xp).flatten(),
    # a NumPy array (host memory) given to numgpu: its asarray is read-only where NumPy's is
    "asarray of a read-only NumPy array": lambda xp: xp.asarray(frozen(np)),
    "asarray(copy=True) of it": lambda xp: xp.asarray(frozen(np), copy=True),
    "asarray(dtype) of it": lambda xp: xp.asarray(frozen(np), dtype=np.float32),
    "asarray(order='F') of it": lambda xp: xp.asarray(frozen(np).reshape(2, 3), order="F"),
    "asarray(order='F') of its transpose": lambda xp: xp.asarray(frozen(np).reshape(2, 3).T, order="F"),
    "asarray(order='C') of its transpose": lambda xp: xp.asarray(frozen(np).reshape(2, 3).T, order="C"),
    "array of it": lambda xp: xp.array(frozen(np)),
    "array(copy=None) of it": lambda xp: xp.array(frozen(np), copy=None),
    "asanyarray of it": lambda xp: xp.asanyarray(frozen(np)),
    "ascontiguousarray of it": lambda xp: xp.ascontiguousarray(frozen(np)),
    "asarray of a view of it": lambda xp: xp.asarray(frozen(np)[::2]),
    "asarray of bytes": lambda xp: xp.asarray(np.frombuffer(b"abcdefgh", np.uint8)),
    "asarray of a NumPy scalar": lambda xp: xp.asarray(np.float64(2.5)),
    "asarray of a list": lambda xp: xp.asarray([1.0, 2.0]),
    "asarray of a broadcast view": lambda xp: xp.asarray(np.broadcast_to(np.arange(3.0), (2, 3))),
    "asarray of an __array_interface__ on bytes": lambda xp: xp.asarray(_BytesInterface()),
}


class _BytesInterface:
    """An object exporting immutable bytes by NumPy's array interface, as a Pillow image does."""

    def __init__(self):
        self.__array_interface__ = {"shape": (2, 4), "typestr": "|u1", "data": bytes(range(8)), "version": 3}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_which_results_are_read_only(name):
    assert RESULTS[name](ng).flags.writeable == RESULTS[name](np).flags.writeable


def _window(xp, **kw):
    st = ng_st if xp is ng else np.lib.stride_tricks
    return st.sliding_window_view(xp.arange(6.0), 3, **kw)


def _strided(xp, **kw):
    st = ng_st if xp is ng else np.lib.stride_tricks
    return st.as_strided(xp.arange(6.0), (3,), (16,), **kw)


@pytest.mark.parametrize("make,kw", [(_window, {}), (_window, {"writeable": True}), (_strided, {}),
                                     (_strided, {"writeable": False})])
def test_stride_tricks_views(make, kw):
    v, ref = make(ng, **kw), make(np, **kw)
    assert v.flags.writeable == ref.flags.writeable
    assert outcome(lambda: v.__setitem__(0, 9.0)) == outcome(lambda: ref.__setitem__(0, 9.0))


# (writes into a read-only array: the same error as NumPy's, nothing changed)
WRITES = {
    "setitem int": lambda a, xp: a.__setitem__(0, 5),
    "setitem slice": lambda a, xp: a.__setitem__(slice(1, 3), 5),
    "setitem ellipsis": lambda a, xp: a.__setitem__(Ellipsis, 5),
    "setitem fancy": lambda a, xp: a.__setitem__([0, 1], 5),
    "setitem mask": lambda a, xp: a.__setitem__(a > 2, 5),
    "setitem view": lambda a, xp: a[2:].__setitem__(0, 5),
    "iadd": lambda a, xp: a.__iadd__(1),
    "imul array": lambda a, xp: a.__imul__(xp.ones(6)),
    "ipow": lambda a, xp: a.__ipow__(2),
    "ufunc out": lambda a, xp: xp.add(a, 1, out=a),
    "ufunc out tuple": lambda a, xp: xp.sqrt(xp.ones(6), out=(a,)),
    "divmod out": lambda a, xp: xp.divmod(xp.ones(6), 2, out=(a, xp.zeros(6))),
    "fill": lambda a, xp: a.fill(0),
    "sort": lambda a, xp: a.sort(),
    "copyto": lambda a, xp: xp.copyto(a, 1),
    "put": lambda a, xp: a.put(0, 1),
    "flat": lambda a, xp: a.flat.__setitem__(0, 1),
    "real set": lambda a, xp: setattr(a, "real", 1),
    "re-enable a view": lambda a, xp: setattr(a[1:].flags, "writeable", True),
    "partition": lambda a, xp: a.partition(2),
    "byteswap in place": lambda a, xp: a.byteswap(inplace=True),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_writes_into_read_only_arrays(name):
    a, ref = frozen(ng), frozen(np)
    got, want = outcome(lambda: WRITES[name](a, ng)), outcome(lambda: WRITES[name](ref, np))
    assert got == want
    assert a.get().tolist() == ref.tolist() == list(range(6))


@pytest.mark.parametrize("call", [
    lambda a, xp: xp.sum(xp.ones((2, 6)), axis=0, out=a),
    lambda a, xp: xp.cumsum(xp.ones(6), out=a),
    lambda a, xp: xp.clip(xp.ones(6), 0, 1, out=a),
    lambda a, xp: xp.matmul(xp.ones((6, 2)), xp.ones(2), out=a),
    lambda a, xp: xp.fill_diagonal(a.reshape(2, 3), 1),
    lambda a, xp: xp.random.shuffle(a),
])
def test_other_writes_refused(call):
    a = frozen(ng)
    with pytest.raises(ValueError, match="read-only"):
        call(a, ng)
    assert a.get().tolist() == list(range(6))


def test_views_made_before_stay_writeable_and_owner_may_be_reenabled():
    for xp in (np, ng):
        a = xp.arange(4.0)
        early = a[1:]
        a.flags.writeable = False
        assert early.flags.writeable
        early[0] = 7.0                  # NumPy's too: the earlier view writes
        late = a[1:]
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
            late.flags.writeable = True
        a.flags.writeable = True
        a[0] = 5.0
        assert (a.get() if xp is ng else a).tolist() == [5.0, 7.0, 2.0, 3.0]


def test_setflags_and_flag_keys():
    a = ng.arange(3.0)
    a.setflags(write=False)
    assert a.flags["WRITEABLE"] is False and a.flags["W"] is False
    with pytest.raises(ValueError):
        a[0] = 1
    a.flags["W"] = True
    a[0] = 1
    assert a.get().tolist() == [1.0, 1.0, 2.0]


def test_numpy_sees_read_only_memory():
    a = frozen(ng)
    if a.device != "cpu":
        pytest.skip("zero-copy NumPy views exist for host memory (cpu) only")
    v = np.asarray(a)
    assert not v.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        v[0] = 1


def _column_update(A):
    c = A[:, 1]
    for i in range(len(c)):
        c[i] += 1000


def _every_other(A):
    v = A.T[::2]
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            v[i, j] = i * 10 + j


def test_jit_refuses_to_write_read_only_arrays():
    @ng.jit
    def double(x, y):
        for i in range(x.shape[0]):
            y[i] = x[i] * 2

    def double_py(x, y):
        for i in range(x.shape[0]):
            y[i] = x[i] * 2

    x = ng.arange(5.0)
    for y in (frozen(ng, 5), frozen(np, 5)):
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            double(x, y)
        assert (y.get() if hasattr(y, "get") else y).tolist() == list(range(5))
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        double_py(np.arange(5.0), frozen(np, 5))
    out = ng.zeros(5)
    double(frozen(ng, 5), out)          # reading a read-only array is fine
    assert out.get().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    # strided NumPy views that are writable: written (a GPU asked NumPy for a C-contiguous
    # writable buffer, which a strided view refuses, and took that for read-only: hunt 13),
    # views the function makes of its argument too
    for f in (_column_update, _every_other):
        a, b = np.zeros((4, 3)), np.zeros((4, 3))
        f(a)
        ng.jit(f)(b)
        assert b.tolist() == a.tolist()
    for make in (lambda: np.zeros((5, 3))[:, 1], lambda: np.zeros(10)[::2], lambda: np.zeros(5)[::-1],
                 lambda: np.zeros((3, 5)).T[:, 0]):
        y, want = make(), make()
        double(x, y)
        double_py(np.arange(5.0), want)
        assert y.tolist() == want.tolist()
        ro = make()
        ro.flags.writeable = False
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            double(x, ro)


def test_ufunc_at_writes_as_numpy_does():
    """NumPy 2.4's ufunc.at does not check the flag: it writes into a read-only array."""
    a, ref = frozen(ng), frozen(np)
    assert outcome(lambda: ng.add.at(a, [0, 0], 1)) == outcome(lambda: np.add.at(ref, [0, 0], 1))
    assert a.get().tolist() == ref.tolist()
