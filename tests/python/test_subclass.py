"""Python subclasses of numgpu.ndarray (python/numgpu/_subclass.py): NumPy's ndarray subclass
patterns (the NumPy guide's InfoArray, a unit-carrying array, a plain subclass) written once and run
with NumPy and with numgpu as `np`, side by side: the same types, attributes and values."""
import copy
import pickle
import textwrap

import numpy
import pytest

import numgpu
from helpers import no_fallback, same_under_numgpu_run, to_numpy  # noqa: F401


def classes(np):
    """The subclasses, made with `np` as the module (NumPy or numgpu)."""

    class InfoArray(np.ndarray):
        def __new__(cls, input_array, info=None):
            obj = np.asarray(input_array).view(cls)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            if obj is None:
                return
            self.info = getattr(obj, "info", None)

    class Explicit(np.ndarray):   # the explicit constructor: super().__new__(cls, shape, ...)
        def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None, info=None):
            obj = super().__new__(cls, shape, dtype, buffer, offset, strides, order)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            self.seen = "none" if obj is None else type(obj).__name__
            self.info = getattr(obj, "info", None)

    class Meters(np.ndarray):     # a method of its own, an operator of its own
        def to_km(self):
            return self / 1000

        def __add__(self, other):
            if isinstance(other, Meters) or not isinstance(other, np.ndarray):
                return np.ndarray.__add__(self, other)
            raise TypeError("adding a plain array to Meters")

    class Plain(np.ndarray):
        pass

    return InfoArray, Explicit, Meters, Plain


def kind(r):
    """What a result is: its type's name, its info, its values (rounded: PoCL's exp is 1 ulp off)."""
    if isinstance(r, tuple):
        return tuple(kind(v) for v in r)
    if type(r) is numgpu.ndarray and r.ndim == 0:   # (an element on a GPU: a 0-d array standing for it)
        r = to_numpy(r)[()]
    name = type(r).__name__
    h = to_numpy(r) if hasattr(r, "shape") else None
    values = r if h is None else (numpy.round(h, 12) if h.dtype.kind == "f" else h).tolist()
    if name == "ndarray" or not hasattr(r, "shape"):
        return name, None, values
    return name, getattr(r, "info", "<none>"), values


EXPRESSIONS = [
    "a", "a[0]", "a[:, 1:]", "a[a > 2]", "a[0, 1]", "a.T", "a + 1", "1 + a", "a * a", "-a", "abs(a)", "a ** 2",
    "a // 2", "a % 4", "divmod(a, 4)", "a > 2", "a == a", "a @ a.T", "a.dot(a.T)", "np.sqrt(a)", "np.add(a, 1)",
    "np.maximum(a, 2)", "np.exp(a)", "a.sum(axis=0)", "a.mean(axis=1)", "np.sum(a, axis=1)",
    "np.mean(a, axis=0)", "a.max(axis=0)", "a.cumsum()", "np.cumsum(a)", "a.reshape(-1)", "np.reshape(a, (3, 2))",
    "a.ravel()", "a.flatten()", "a.copy()", "a.astype(np.int32)", "a.transpose()", "np.transpose(a)",
    "a.clip(1, 4)", "np.clip(a, 1, 4)", "a.round()", "np.round(a)", "a.real", "a.squeeze()", "a.swapaxes(0, 1)",
    "np.zeros_like(a)", "np.ones_like(a)", "np.full_like(a, 7)", "np.concatenate([a, a])", "np.stack([a, a])",
    "np.where(a > 1, a, 0)", "np.asarray(a)", "np.asanyarray(a)", "np.array(a)", "a.tolist()",
    "copy.copy(a)", "copy.deepcopy(a)", "a.view(np.ndarray)", "a.view(Plain)",
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_results_keep_the_subclass_as_numpys(expr):
    got = []
    for np in (numpy, numgpu):
        InfoArray, Explicit, Meters, Plain = classes(np)
        a = InfoArray(np.arange(6.0).reshape(2, 3), info="metres")
        got.append(kind(eval(expr, {"np": np, "a": a, "copy": copy, "Plain": Plain})))
    assert got[1] == got[0]


def test_full_reductions_are_0d_instances():
    for np in (numpy, numgpu):
        InfoArray = classes(np)[0]
        s = InfoArray(np.arange(4.0), info="i").sum()
        assert type(s).__name__ == "InfoArray" and s.info == "i" and float(s) == 6.0 and s.ndim == 0


def test_explicit_constructor_and_finalize_argument():
    for np in (numpy, numgpu):
        Explicit = classes(np)[1]
        e = Explicit((2, 3), info="built")
        assert type(e) is Explicit and e.shape == (2, 3) and e.info == "built" and e.seen == "none"
        e[...] = 5
        v = e[1:]
        assert type(v) is Explicit and v.info == "built" and v.seen == "Explicit"
        assert to_numpy(v).tolist() == [[5.0, 5.0, 5.0]]
        b = Explicit((2,), np.int32, buffer=bytearray(8))
        assert b.dtype == numpy.int32 and to_numpy(b).tolist() == [0, 0]


def test_methods_and_operators_the_subclass_defines_are_its_own():
    for np in (numpy, numgpu):
        Meters = classes(np)[2]
        m = np.arange(3000.0, 6000.0, 1000.0).view(Meters)
        km = m.to_km()
        assert type(km) is Meters and to_numpy(km).tolist() == [3.0, 4.0, 5.0]
        assert type(m + m) is Meters and to_numpy(m + 1).tolist() == [3001.0, 4001.0, 5001.0]
        with pytest.raises(TypeError, match="adding a plain array"):
            m + np.zeros(3)
        assert type(np.zeros(3) + m) is Meters     # (its __radd__, inherited: the subclass's result)


def test_isinstance_and_views_share_memory():
    for np in (numpy, numgpu):
        InfoArray, _, Meters, Plain = classes(np)
        x = np.arange(4.0)
        p = x.view(Plain)
        assert isinstance(p, np.ndarray) and isinstance(p, Plain) and not isinstance(x, Plain)
        assert not isinstance(p, Meters) and issubclass(Plain, np.ndarray)
        p[1] = 9                                  # a view: writes reach x
        assert float(x[1]) == 9.0
        assert type(p.view(np.ndarray)) is type(x)


def test_repr_names_the_subclass():
    for np in (numpy, numgpu):
        InfoArray = classes(np)[0]
        a = InfoArray(np.arange(6.0).reshape(2, 3))
        assert repr(a) == "InfoArray([[0., 1., 2.],\n           [3., 4., 5.]])"
        assert str(a) == "[[0. 1. 2.]\n [3. 4. 5.]]"


class Pickled(numgpu.ndarray):   # (pickle finds classes by name: one at module level)
    def __array_finalize__(self, obj):
        self.seen = obj is None


def test_pickles_keep_the_subclass():
    p = numgpu.arange(4.0).view(Pickled)
    p.tag = "not pickled, as NumPy's"
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is Pickled and q.seen and not hasattr(q, "tag")
    assert to_numpy(q).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_read_only_views_stay_read_only():
    x = numgpu.arange(3.0)
    x.flags.writeable = False
    p = x.view(classes(numgpu)[3])
    with pytest.raises(ValueError, match="read-only"):
        p[0] = 1


def test_plain_arrays_are_unchanged():
    classes(numgpu)          # (a subclass exists: plain results stay plain)
    x = numgpu.arange(4.0)
    for r in (x + 1, numgpu.sqrt(x), x.sum(axis=0), numgpu.sum(x), x[1:], x.T, numgpu.zeros_like(x)):
        assert type(r) is numgpu.ndarray


def test_jit_takes_subclass_instances():
    Plain = classes(numgpu)[3]

    @numgpu.jit
    def double(x, out):
        for i in range(len(x)):
            out[i] = 2 * x[i]
    x = numgpu.arange(5.0).view(Plain)
    out = numgpu.zeros(5).view(Plain)
    double(x, out)
    assert to_numpy(out).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_a_script_with_a_subclass_under_numgpu_run(tmp_path):
    script = tmp_path / "sub.py"
    script.write_text(textwrap.dedent('''
        import numpy as np

        class InfoArray(np.ndarray):
            def __new__(cls, input_array, info=None):
                obj = np.asarray(input_array).view(cls)
                obj.info = info
                return obj

            def __array_finalize__(self, obj):
                if obj is None:
                    return
                self.info = getattr(obj, "info", None)

        class Grid(np.ndarray):
            def __new__(cls, n):
                return super().__new__(cls, (n, n))

        a = InfoArray(np.linspace(0, 1, 6).reshape(2, 3), info="probe 7")
        b = np.sqrt(a * 2 + 1)[:, ::-1]
        print(type(b).__name__, b.info, b.round(4).tolist(), b.sum(axis=1).info)
        print(repr(a), isinstance(np.zeros(2), InfoArray), isinstance(a, np.ndarray))
        g = Grid(3)
        g[...] = 0
        g[1, 1] = 4
        print(type(g).__name__, g.sum(), type(np.asarray(g)).__name__)
    '''))
    same_under_numgpu_run(script)
