"""numgpu/_indexx.py against NumPy: unravel_index, ravel_multi_index, ix_, the in-place writers
(fill_diagonal, putmask, place), extract, compress, choose, resize, block, fromfunction,
apply_along_axis, apply_over_axes, diagflat, tri, mask_indices, asfortranarray and require.
Every dtype NumPy takes, views (transposed, negative strides), empty inputs, keywords, NumPy
arrays changed in place, and NumPy's errors; every test also checks that nothing fell back to NumPy.
"""
import numpy as np
import pytest

import numgpu as ng
from numgpu import _fallback
from helpers import (  # noqa: F401 (no_fallback: an autouse fixture)
    ALL, assert_same, both, call_both, data, dtype_id, INTS, no_fallback, on_device, raises_as_numpy,
    views
)

INDEX_DTYPES = [np.bool_] + INTS


def in_place(name, base, *args, view=lambda x: x, **kwargs):
    """NumPy's `name` on view(base) against numgpu's on view(a device copy of base): None returned,
    the whole of each base the same afterwards; or NumPy's exception type where it raises."""
    want = base.copy()
    got = ng.asarray(base)
    try:
        getattr(np, name)(view(want), *args, **kwargs)
    except Exception as e:  # noqa: BLE001 (NumPy's error is the expected one)
        with pytest.raises(type(e)):
            getattr(ng, name)(view(got), *[on_device(a) for a in args], **kwargs)
        return
    assert getattr(ng, name)(view(got), *[on_device(a) for a in args], **kwargs) is None
    assert_same(got, want)


def into(name, out, *args, **kwargs):
    """numgpu's `name` with out= a device copy of `out` against NumPy's with out=out: out itself
    returned, holding NumPy's values; or NumPy's exception type where it raises."""
    got = ng.asarray(out)
    try:
        want = getattr(np, name)(*args, out=out, **kwargs)
    except Exception as e:  # noqa: BLE001 (NumPy's error is the expected one)
        with pytest.raises(type(e)):
            getattr(ng, name)(*[on_device(a) for a in args], out=got, **kwargs)
        return
    assert getattr(ng, name)(*[on_device(a) for a in args], out=got, **kwargs) is got
    assert_same(got, want)


# ---- unravel_index, ravel_multi_index ---------------------------------------------------------

@pytest.mark.parametrize("dt", INDEX_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("order", ["C", "F", "c", None])
def test_unravel_index(dt, order):
    idx = np.random.default_rng(1).integers(0, 2 if dt == np.bool_ else 60, (4, 6)).astype(dt)
    for v in views(idx):
        both("unravel_index", v, (3, 4, 5), order=order)
    both("unravel_index", idx[:0], (3, 4, 5), order=order)
    both("unravel_index", dt(1), (3, 4), order=order)
    both("unravel_index", idx, 60, order=order)


def test_unravel_index_forms():
    both("unravel_index", 7, (2, 3, 2))
    both("unravel_index", [0, 5, 11], [2, 3, 2])
    both("unravel_index", 0, ())
    both("unravel_index", [True, False], (2, 3))
    both("unravel_index", 2**40, (2**21, 2**21))
    both("unravel_index", np.array([3], np.uint64), (np.int8(2), 3))


def test_unravel_index_errors():
    raises_as_numpy("unravel_index", 6, (2, 3), match="index 6 is out of bounds for array with size 6")
    raises_as_numpy("unravel_index", [0, 5, -1, 7], (2, 3), match="index -1 is out of bounds for array with size 6")
    raises_as_numpy("unravel_index", 1, (), match="index 1 is out of bounds for array with size 1")
    raises_as_numpy("unravel_index", [1.0], (2, 3), match="only int indices permitted")
    raises_as_numpy("unravel_index", np.array([], float), (2, 3), match="only int indices permitted")
    raises_as_numpy("unravel_index", [], (2, 3), match="inferred as float")
    raises_as_numpy("unravel_index", 3, (2, 3), order="A", match="only 'C' or 'F' order")
    raises_as_numpy("unravel_index", 3, (2, 3), order="X", match="order must be one of")
    raises_as_numpy("unravel_index", 3, (2, 3), order=1, match="order must be str")
    raises_as_numpy("unravel_index", 3, (2**40, 2**40), match="dimensions are too large")
    raises_as_numpy("unravel_index", 3, (2.0, 3))


@pytest.mark.parametrize("dt", INDEX_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_multi_index(dt, order):
    rng = np.random.default_rng(2)
    hi = 2 if dt == np.bool_ else 3
    rows, cols = (rng.integers(0, hi, (4, 5)).astype(dt) for _ in range(2))
    for r, c in zip(views(rows), views(cols)):
        both("ravel_multi_index", (r, c), (3, 4), order=order)
    both("ravel_multi_index", (rows[:, :1], cols[:1]), (3, 4), order=order)      # broadcast
    both("ravel_multi_index", (rows[:0], cols[:0]), (3, 4), order=order)
    both("ravel_multi_index", (dt(1), dt(1)), (3, 4), order=order)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("clip", "wrap"), ["wrap", "raise"]])
def test_ravel_multi_index_modes(mode):
    rows = np.array([-7, -1, 0, 2, 3, 9])
    cols = np.array([0, 1, 2, 3, 1, 0])
    both("ravel_multi_index", (rows, cols), (3, 4), mode=mode)
    both("ravel_multi_index", (rows.clip(0, 2), cols), (3, 4), mode=mode)
    both("ravel_multi_index", (rows[::-1], cols[::-2].repeat(2)), (3, 4), mode=mode, order="F")


def test_ravel_multi_index_forms():
    both("ravel_multi_index", np.array([[1, 0], [2, 1]]), (2, 3))
    both("ravel_multi_index", [[1, 0], [2, 1]], (2, 3))
    both("ravel_multi_index", [1, 2], (2, 3))
    both("ravel_multi_index", ([1], [2]), [np.int16(2), 3])
    both("ravel_multi_index", (), ())
    both("ravel_multi_index", ([4],), 5)
    both("ravel_multi_index", (np.array([], np.intp), np.array([], np.intp)), (0, 3))
    both("ravel_multi_index", (np.array([1], np.uint64), [2]), (2, 3))
    both("ravel_multi_index", ([2**20], [2**20]), (2**21, 2**21))


def test_ravel_multi_index_errors():
    raises_as_numpy("ravel_multi_index", ([1],), (2, 3), match="must be a sequence of length 2")
    raises_as_numpy("ravel_multi_index", ([2], [2]), (2, 3), match="invalid entry in coordinates array")
    raises_as_numpy("ravel_multi_index", ([0, -1], [2, 0]), (2, 3), match="invalid entry in coordinates array")
    raises_as_numpy("ravel_multi_index", ([1], [3]), (2, 3), mode=("wrap", "raise"), match="invalid entry")
    raises_as_numpy("ravel_multi_index", ([1.0], [2]), (2, 3), match="only int indices permitted")
    raises_as_numpy("ravel_multi_index", ([], []), (2, 3), match="inferred as float")
    raises_as_numpy("ravel_multi_index", ([1], [2]), (2, 3), mode="x", match="clipmode must be one of")
    raises_as_numpy("ravel_multi_index", ([1], [2]), (2, 3), mode=("clip",), match="wrong length")
    raises_as_numpy("ravel_multi_index", ([1], [2]), (2, 3), order="A", match="only 'C' or 'F' order")
    for mode in ("raise", "wrap", "clip"):
        raises_as_numpy("ravel_multi_index", ([0], [0]), (0, 3), mode=mode, match="shape has zero entries")
    raises_as_numpy("ravel_multi_index", ([0], [0]), (2**40, 2**40), match="invalid dims")
    raises_as_numpy("ravel_multi_index", ([0, 1], [0, 1, 2]), (2, 3))
    raises_as_numpy("ravel_multi_index", ([1], [2]), (2.0, 3))


def test_ravel_unravel_round_trip_and_new_arrays():
    flat = ng.arange(60)
    assert_same(ng.ravel_multi_index(ng.unravel_index(flat, (3, 4, 5)), (3, 4, 5)), np.arange(60))
    for r in (ng.unravel_index(flat, 60)[0], ng.ravel_multi_index((flat,), 60)):
        r[0] = 99                                        # a new array, never the caller's
        assert int(flat[0]) == 0


# ---- ix_ --------------------------------------------------------------------------------------

def test_ix():
    both("ix_", [1, 2], [True, False, True])
    both("ix_", np.array([2, 0, 1], np.int8), np.array([3, 1])[::-1], [0])
    both("ix_", [], [1.0])
    both("ix_", np.array([], float))
    both("ix_", np.array([True, False]), np.array([False, False]))
    both("ix_")
    a = ng.arange(5)
    rows, = ng.ix_(a)
    assert ng.shares_memory(rows, a)                   # a view, as NumPy's of its arrays
    x = np.arange(20).reshape(4, 5)
    assert_same(ng.asarray(x)[ng.ix_([0, 3], [1, 2, 4])], x[np.ix_([0, 3], [1, 2, 4])])
    raises_as_numpy("ix_", [[1]], match="Cross index must be 1 dimensional")
    raises_as_numpy("ix_", 3, match="Cross index must be 1 dimensional")


# ---- fill_diagonal, putmask, place -----------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_fill_diagonal(dt):
    val = data(dt, (3,), seed=3)
    for shape, wrap in [((4, 4), False), ((7, 3), False), ((7, 3), True), ((3, 5), True), ((3, 3, 3), False),
                        ((2, 2, 2, 2), True), ((0, 0), False), ((1, 4), False)]:
        base = data(dt, shape, seed=4)
        for view in (lambda x: x, lambda x: x.T, lambda x: x[::-1], lambda x: x[..., ::-1]):
            in_place("fill_diagonal", base, val, view=view, wrap=wrap)
            in_place("fill_diagonal", base, val[0], view=view, wrap=wrap)
            in_place("fill_diagonal", base, val[:1].tolist(), view=view, wrap=wrap)


def test_fill_diagonal_values_and_errors():
    base = np.zeros((5, 5), np.int8)
    in_place("fill_diagonal", base, 2.7)
    in_place("fill_diagonal", base, np.array([2.7, 1000.0]))      # arrays cast as NumPy casts
    in_place("fill_diagonal", base, [])
    in_place("fill_diagonal", base, 1000)                            # OverflowError
    in_place("fill_diagonal", np.zeros((3, 3)), 1j)                  # TypeError
    in_place("fill_diagonal", np.zeros(3), 0)                        # ValueError: 1-d
    in_place("fill_diagonal", np.zeros((2, 3, 2)), 0)                # ValueError: unequal axes
    in_place("fill_diagonal", np.zeros((6, 4)), np.arange(10.0), wrap=True)
    with pytest.raises(AttributeError):
        ng.fill_diagonal([[1, 2], [3, 4]], 0)


def test_in_place_on_numpy_arrays():
    """A NumPy array given to an in-place function is changed in place (by NumPy's own function)."""
    a, b = np.zeros((3, 3)), np.zeros((3, 3))
    ng.fill_diagonal(a, ng.asarray([1.0, 2.0]))
    np.fill_diagonal(b, [1.0, 2.0])
    np.testing.assert_array_equal(a, b)
    a, b = np.arange(6), np.arange(6)
    ng.putmask(a, ng.asarray(a > 2), ng.asarray([10, 20]))
    np.putmask(b, b > 2, [10, 20])
    np.testing.assert_array_equal(a, b)
    a, b = np.arange(6), np.arange(6)
    ng.place(a, a > 2, ng.asarray([10, 20]))
    np.place(b, b > 2, [10, 20])
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_putmask(dt):
    base = data(dt, (4, 5), seed=5)
    mask = data(np.bool_, (4, 5), seed=6)
    vals = data(dt, (3,), seed=7)
    for view in (lambda x: x, lambda x: x.T, lambda x: x[::-1], lambda x: x[:, ::-2]):
        m = view(mask)
        in_place("putmask", base, m, vals, view=view)
        in_place("putmask", base, m, vals[0], view=view)
        in_place("putmask", base, m.T, vals[:1], view=view)            # the mask's shape may differ
        in_place("putmask", base, m.astype(np.int8), data(dt, m.shape, seed=8), view=view)
    in_place("putmask", base[:0], mask[:0], vals)


def test_putmask_values_and_errors():
    base = np.arange(6)
    in_place("putmask", base, base % 2, [1.5, 2])                     # a list: converted
    in_place("putmask", base, [0.5, 0, 2, 0, 0, 1], np.int8(3))      # a float mask: nonzero
    in_place("putmask", base, base > 2, [])                           # nothing written
    in_place("putmask", base, base > 2, np.array([1.5]))              # TypeError: not a safe cast
    in_place("putmask", base.astype(np.uint8), base > 2, np.array([-1]))
    in_place("putmask", base.astype(np.int8), base > 2, 1000)         # OverflowError
    in_place("putmask", base.astype(float), base > 2, [1 + 1j])       # TypeError
    in_place("putmask", base, [1, 0], 5)                              # ValueError: sizes
    in_place("putmask", base, True, 5)
    with pytest.raises(TypeError, match="putmask: first argument must be an array"):
        ng.putmask([1, 2], [1, 0], 5)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_place(dt):
    base = data(dt, (4, 5), seed=9)
    mask = data(np.bool_, (4, 5), seed=10)
    vals = data(dt, (3,), seed=11)
    for view in (lambda x: x, lambda x: x.T, lambda x: x[::-1], lambda x: x[:, ::-2]):
        m = view(mask)
        in_place("place", base, m, vals, view=view)
        in_place("place", base, m.astype(np.uint8), vals[0], view=view)
        in_place("place", base, m.T, data(dt, (30,), seed=12), view=view)
    in_place("place", base[:0], mask[:0], vals)


def test_place_values_and_errors():
    base = np.arange(6)
    in_place("place", base, base % 2, [1.5, 2])
    in_place("place", base, np.zeros(6, bool), [])                     # nothing to insert
    in_place("place", base, base > 2, [])                              # ValueError: empty
    in_place("place", base, base > 2, np.array([1.5]))                 # TypeError
    in_place("place", base.astype(np.int8), base > 2, 1000)            # OverflowError
    in_place("place", base, [1, 0], 5)                                 # ValueError: sizes
    with pytest.raises(TypeError):
        ng.place([1, 2], [1, 0], 5)


# ---- extract, compress, choose --------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_extract_compress(dt):
    x = data(dt, (4, 6), seed=13)
    for v in views(x):
        cond = data(np.bool_, v.shape, seed=14)
        both("extract", cond, v)
        both("extract", cond.astype(dt), v)
        both("compress", cond[0].astype(np.int8), v, axis=-1)
        both("compress", cond[:, 0], v, axis=0)
        both("compress", cond.ravel(), v)
        both("compress", cond[0, :2], v, axis=1)                        # shorter than the axis
    both("extract", x[:0] > 0, x[:0])
    both("compress", [], x)
    both("compress", [False] * 6, x, axis=1)


def test_extract_compress_forms_and_errors():
    both("extract", [[1, 0], [1, 1]], [1, 2, 3, 4, 5])
    both("extract", 1, 5)
    both("extract", [1, 0, 1], [1, 2])                                  # IndexError
    both("compress", [1, 1], 5)                                         # IndexError
    both("compress", [1, 0, 1], [1, 2])                                 # IndexError
    both("compress", [[1]], [1, 2])                                     # ValueError: not 1-d
    both("compress", 1, [1, 2])
    both("compress", [1, 0], [[1, 2, 3], [4, 5, 6]], axis=2)            # AxisError
    both("compress", [1.5, 0, 1], [1, 2, 3])
    for a in (np.array([1.5, 2, 3]), np.array([1, 2, 3])):
        for out in (np.zeros(2, np.int64), np.zeros(2), np.zeros(2, np.int8), np.zeros(3), np.zeros((1, 2))):
            into("compress", out, [1, 0, 1], a)
    into("compress", np.zeros((2, 2)), [1, 0, 1], np.arange(6.0).reshape(2, 3), axis=1)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_choose(dt):
    rng = np.random.default_rng(15)
    choices = [data(dt, (4, 5), seed=s) for s in range(3)]
    idx = rng.integers(0, 3, (4, 5))
    for v in views(idx):
        both("choose", v, [c.T if v.shape != c.shape else c for c in choices])
    both("choose", idx[0], [choices[0], choices[1][0], choices[2][:1]])      # broadcast together
    both("choose", idx, np.stack(choices))
    both("choose", idx[:0], [c[:0] for c in choices])
    both("choose", 1, [choices[0][0], choices[1][0]])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose_modes(mode):
    choices = [np.arange(6) * 10 + k for k in range(3)]
    both("choose", [0, 1, 2, 0, 1, 2], choices, mode=mode)
    both("choose", [-4, -1, 3, 5, 7, 2], choices, mode=mode)
    both("choose", np.array([0, 1, 2, 2, 1, 0], np.uint8), choices, mode=mode)
    both("choose", [True, False] * 3, choices[:2], mode=mode)


def test_choose_dtypes_out_and_errors():
    i8 = np.array([1, 2], np.int8)
    both("choose", [0, 1], [i8, 300])                  # a Python int wraps into the choices' dtype
    both("choose", [0, 1], [i8, 3.5])
    both("choose", [0, 1], [[1, 2], [3, 4 + 1j]])
    both("choose", [0, 1], [5, 6])
    both("choose", [0.0, 1], [[1, 2], [3, 4]])          # TypeError: not a safe cast
    both("choose", np.array([0, 1], np.uint64), [[1, 2], [3, 4]])
    both("choose", [], [[1, 2]])
    both("choose", [0, 1], [])                          # ValueError: no choices
    both("choose", [0, 1, 0], [[1, 2], [3, 4]])         # ValueError: shapes
    both("choose", [0, 1], [[1, 2], [3, 4]], mode="x")
    raises_as_numpy("choose", [0, 2], [[1, 2], [3, 4]], match="invalid entry in choice array")
    raises_as_numpy("choose", [0, 1], 5)
    for out in (np.zeros(2), np.zeros(2, np.int8), np.zeros(3), np.zeros((1, 2))):
        into("choose", out, [0, 1], [[1.5, 2], [3, 4]])
        into("choose", out, [0, 1], [[1.5, 2], [3, 4]], mode="wrap")
    with pytest.raises(TypeError, match="output must be an array"):
        ng.choose([0, 1], [[1, 2], [3, 4]], out=[0.0, 0.0])


@pytest.mark.parametrize("name, args", [("take", ([1.5, 2.5, 3.5], [2, 0])),
                                        ("compress", ([1, 0, 1], [1.5, 2.5, 3.5])),
                                        ("choose", ([0, 1], [[1.5, 2], [3, 4]]))])
def test_out_may_be_a_numpy_array(name, args):
    # NumPy's take/compress/choose write into a NumPy out= array (returned); numgpu's refused it
    # while its cumsum and reductions took one
    for out in (np.zeros(2), np.zeros(2, np.int64), np.zeros(3), np.zeros((2, 1))):
        want, got = out.copy(), out.copy()
        try:
            r_np = getattr(np, name)(*args, out=want)
        except Exception as e:  # noqa: BLE001 (NumPy's error is the expected one)
            with pytest.raises(type(e)):
                getattr(ng, name)(*[on_device(a) for a in args], out=got)
            np.testing.assert_array_equal(got, out)   # nothing written
            continue
        assert r_np is want
        assert getattr(ng, name)(*[on_device(a) for a in args], out=got) is got
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_compress_choose_methods():
    x = np.arange(12).reshape(3, 4)
    assert_same(ng.asarray(x).compress([0, 1, 1], axis=0), x.compress([0, 1, 1], axis=0))
    assert_same(ng.asarray(x % 3).choose([x, -x, 2 * x]), (x % 3).choose([x, -x, 2 * x]))
    assert_same(ng.asarray([0, 5]).choose([[1, 2], [3, 4]], mode="clip"), np.array([0, 5]).choose([[1, 2], [3, 4]],
                                                                                                   mode="clip"))


# ---- resize, block ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_resize(dt):
    x = data(dt, (3, 4), seed=16)
    for v in views(x):
        for shape in [(2, 4), 7, (5, 5), (12,), (3, 0), 0, (), np.int8(30)]:
            both("resize", v, shape)
    both("resize", x[:0], (2, 3))
    both("resize", x[0, 0], 3)


def test_resize_errors():
    both("resize", [1, 2, 3], -1)
    both("resize", [1, 2, 3], (2, -1))
    both("resize", [], (2,))
    both("resize", [1, 2], 2.0)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_block(dt):
    a, b, c, d = data(dt, (2, 2), seed=17), data(dt, (2, 3), seed=18), data(dt, (1, 5), seed=19), data(dt, (3,))
    both("block", [[a, b], [c]])
    both("block", [[a.T, b[::-1]], [c[:, ::-1]]])
    both("block", [d, d[::-1], a[0]])
    both("block", [[[a]], [[a.T]]])
    both("block", a)
    both("block", [[d], [d]])
    both("block", [[a, b[:, :0]], [a[:0], b[:0, :0]]])
    both("block", [a[0, 0], a[1]])


def test_block_forms_and_errors():
    both("block", 5)
    both("block", [1, 2.5])
    both("block", [[1, 2], [3, 4]])
    both("block", [[np.zeros((2, 2))], [np.ones((3, 2), np.float32)]])
    raises_as_numpy("block", [], match=r"List at arrays cannot be empty")
    raises_as_numpy("block", [[1], []], match=r"List at arrays\[1\] cannot be empty")
    raises_as_numpy("block", (), match="arrays is a tuple")
    raises_as_numpy("block", [(1, 2)], match=r"arrays\[0\] is a tuple")
    raises_as_numpy("block", [[1, 2], 3], match=r"First element was at depth 2, but there is an element at depth 1 "
                                                r"\(arrays\[1\]\)")
    raises_as_numpy("block", [[1, []], [2]], match=r"depth 3 \(arrays\[0\]\[1\]\)")
    raises_as_numpy("block", [[1, 2], [3]])
    raises_as_numpy("block", [np.zeros((2, 2)), np.ones((3, 2))])
    x = ng.arange(3)
    assert not ng.shares_memory(ng.block(x), x)          # a copy, as NumPy's


# ---- fromfunction, apply_along_axis, apply_over_axes --------------------------------------------

def test_fromfunction():
    seen = []

    def f(i, j, scale=1):
        seen.extend([type(i), type(j)])
        return (i * 10 + j) * scale

    assert_same(ng.fromfunction(f, (3, 4)), np.fromfunction(f, (3, 4)))
    assert_same(ng.fromfunction(f, (3, 4), dtype=int, scale=2), np.fromfunction(f, (3, 4), dtype=int, scale=2))
    assert_same(ng.fromfunction(f, (0, 4), dtype=np.int8), np.fromfunction(f, (0, 4), dtype=np.int8))
    assert ng.ndarray in seen
    assert ng.fromfunction(lambda i: 7, (3,)) == 7
    assert_same(ng.fromfunction(lambda i, j, k: i + j * k, (2, 3, 4), dtype=np.float32),
                np.fromfunction(lambda i, j, k: i + j * k, (2, 3, 4), dtype=np.float32))


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_apply_along_axis(dt):
    x = data(dt, (3, 4, 5), seed=20)
    for v in (x, x.transpose(2, 0, 1), x[::-1, :, ::-2]):
        for axis in (0, 1, -1):
            both("apply_along_axis", lambda s: s[::-1], axis, v)               # 1-d result
            both("apply_along_axis", lambda s: s[0], axis, v)                  # 0-d result
            both("apply_along_axis", lambda s: s[:2, None] * s[None, :3], axis, v)   # 2-d result
    both("apply_along_axis", lambda s, k, m=0: s[:k] + m, 1, x, 2, m=dt(1))


def test_apply_along_axis_sees_numgpu_arrays_and_errors():
    seen = []

    def f(s):
        seen.append(type(s))
        return s.sum()

    both("apply_along_axis", f, 1, np.arange(12.0).reshape(3, 4))
    assert set(seen) >= {ng.ndarray}
    both("apply_along_axis", np.sum, 0, np.zeros((0, 3)))
    both("apply_along_axis", lambda s: s * 2, 0, [1, 2])
    both("apply_along_axis", np.sum, 1, np.zeros((0, 3)))              # ValueError: no slices
    both("apply_along_axis", np.sum, 2, np.zeros((2, 3)))              # AxisError
    both("apply_along_axis", np.sum, 0, 5)


def test_apply_over_axes():
    x = data(np.float64, (2, 3, 4), seed=21)
    for v in (x, x.T, x[::-1]):
        for axes in (0, [0, 2], (-1, 1), []):
            both("apply_over_axes", np.sum, v, axes)
            both("apply_over_axes", np.mean, v, axes)
    both("apply_over_axes", lambda a, ax: a[0], x, 1)                  # keeps ndim
    raises_as_numpy("apply_over_axes", lambda a, ax: a[0, 0], x, 1, match="not returning an array of the correct")
    with pytest.raises(AttributeError):                                  # (NumPy's own: a list has no ndim)
        ng.apply_over_axes(ng.sum, [[1, 2]], 0)


# ---- diagflat, tri, mask_indices -------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_diagflat_tri(dt):
    v = data(dt, (2, 3), seed=22)
    for x in views(v):
        for k in (0, 2, -3):
            both("diagflat", x, k)
    both("diagflat", v[0, 0])
    both("diagflat", v[:0])
    for args in [(3,), (2, 4, -1), (4, 2, 1), (0,), (-1,), (3, None, 5)]:
        both("tri", *args, dtype=dt)
    both("tri", 3, k=-1)


def test_diagflat_tri_errors():
    both("diagflat", [1, 2], 1.0)
    both("tri", 3, 2.0)


def test_mask_indices():
    for n, k in [(3, 0), (4, 1), (4, -2), (0, 0)]:
        for np_f, ng_f in [(np.triu, np.triu), (np.tril, ng.tril)]:
            assert_same(ng.mask_indices(n, ng_f, k), np.mask_indices(n, np_f, k))


# ---- asfortranarray, require ----------------------------------------------------------------------

@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_asfortranarray(dt):
    x = data(dt, (3, 4, 2), seed=23)
    for v in views(x) + [x[0, 0, 0], x[:0]]:
        got = ng.asfortranarray(ng.asarray(v))
        assert_same(got, np.asfortranarray(v))
        assert got.flags.f_contiguous
    got = ng.asfortranarray(ng.asarray(x), dtype=np.complex128)
    assert_same(got, np.asfortranarray(x, dtype=np.complex128))
    f = ng.asfortranarray(ng.asarray(x))
    assert ng.asfortranarray(f) is f
    assert_same(ng.asfortranarray([1, 2]), np.asfortranarray([1, 2]))


@pytest.mark.parametrize("req", [None, "C", "F", "A", "W", "O", "E", ["C", "O"], ["F", "OWNDATA"], "CAW", "fa",
                                 ["ALIGNED", "writeable", "E"], "AO"])
def test_require(req):
    x = data(np.float64, (3, 4), seed=24)
    gx = ng.asarray(x)
    for view in (lambda a: a, lambda a: a.T, lambda a: a[::-1], lambda a: a[..., ::-2], lambda a: a[1:],
                 lambda a: a[0, 0]):
        v, src = view(x), view(gx)
        want, got = np.require(v, requirements=req), ng.require(src, requirements=req)
        assert_same(got, want)
        for flag in ("C", "F", "O"):
            assert got.flags[flag] == want.flags[flag], (flag, req)
        assert (got is src) == (want is v)
    assert_same(ng.require(gx, np.float32, "F"), np.require(x, np.float32, "F"))
    assert_same(ng.require(5, requirements="F"), np.require(5, requirements="F"))
    assert_same(ng.require([[1, 2]], requirements="FO"), np.require([[1, 2]], requirements="FO"))


def test_require_errors():
    raises_as_numpy("require", [1, 2], requirements="X")
    raises_as_numpy("require", [1, 2], requirements=["C", "F"], match='Cannot specify both "C" and "F" order')
    raises_as_numpy("require", [1, 2], requirements="cf")
