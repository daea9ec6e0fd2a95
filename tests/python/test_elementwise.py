"""Elementwise ufuncs and operators against NumPy: every ufunc over every
dtype, a mixed-dtype promotion matrix, NEP 50 weak Python scalars, operators
(reflected and in-place), broadcasting (hypothesis), non-contiguous inputs,
0-d and empty arrays, and special values (NaN, signed zero, division by
zero, overflow, shifts past the bit width), for every dtype including
float16 and complex.
"""
import operator
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numgpu as ng
from numgpu import _fallback
from helpers import ALL, FLOATS, INTS, NUMERIC, SINTS, assert_same, assert_values, case_id, data, dtype_id

N = 37  # one length for all 1-d tests, so kernels are shared between tests

# name -> data kind for each operand (see helpers.data)
BINARY = {
    "add": ("any", "any"),
    "subtract": ("any", "any"),
    "multiply": ("any", "any"),
    "true_divide": ("any", "nonzero"),
    "divide": ("any", "nonzero"),
    "floor_divide": ("any", "nonzero"),
    "remainder": ("any", "nonzero"),
    "mod": ("any", "nonzero"),
    "power": ("any", "small"),
    "maximum": ("any", "any"),
    "minimum": ("any", "any"),
    "fmax": ("any", "any"),
    "fmin": ("any", "any"),
    "arctan2": ("any", "any"),
    "hypot": ("any", "any"),
    "bitwise_and": ("any", "any"),
    "bitwise_or": ("any", "any"),
    "bitwise_xor": ("any", "any"),
    "left_shift": ("any", "shift"),
    "right_shift": ("any", "shift"),
    "logical_and": ("any", "any"),
    "logical_or": ("any", "any"),
    "logical_xor": ("any", "any"),
    "equal": ("any", "any"),
    "not_equal": ("any", "any"),
    "less": ("any", "any"),
    "less_equal": ("any", "any"),
    "greater": ("any", "any"),
    "greater_equal": ("any", "any"),
    "gcd": ("any", "any"),
    "lcm": ("any", "any"),
}

UNARY = {
    "negative": "any",
    "positive": "any",
    "absolute": "any",
    "invert": "any",
    "logical_not": "any",
    "sign": "any",
    "exp": "any",
    "expm1": "any",
    "log": "positive",
    "log1p": "nonneg",
    "log2": "positive",
    "log10": "positive",
    "sqrt": "nonneg",
    "square": "any",
    "sin": "any",
    "cos": "any",
    "tan": "any",
    "arcsin": "unit",
    "arccos": "unit",
    "arctan": "any",
    "sinh": "any",
    "cosh": "any",
    "tanh": "any",
    "floor": "any",
    "ceil": "any",
    "trunc": "any",
    "rint": "any",
    "isnan": "any",
    "isinf": "any",
    "isfinite": "any",
    "conjugate": "any",
    "reciprocal": "nonzero",
    "exp2": "any",
    "arcsinh": "any",
    "arccosh": "positive",
    "arctanh": "unit",
}


def _dev(x):
    return ng.asarray(x) if isinstance(x, np.ndarray) else x


def check_ufunc(name, *args, rtol=None, atol=0.0, ng_args=None):
    """numgpu.<name>(*args) against numpy.<name>(*args): same dtype and values,
    or TypeError where NumPy raises one. Returns numgpu's result (or None)."""
    npf, ngf = getattr(np, name), getattr(ng, name)
    if ng_args is None:
        ng_args = [_dev(a) for a in args]
    try:
        with np.errstate(all="ignore"):
            exp = npf(*args)
    except TypeError:
        with pytest.raises(TypeError):
            ngf(*ng_args)
        return None
    got = ngf(*ng_args)
    assert_same(got, exp, rtol=rtol, atol=atol)
    return got


# ---- every ufunc, every dtype ----------------------------------------------------------

@pytest.mark.parametrize("name", list(BINARY))
def test_binary_ufunc_all_dtypes(name, dtype):
    ka, kb = BINARY[name]
    a = data(dtype, (N,), seed=1, kind=ka)
    b = data(dtype, (N,), seed=2, kind=kb)
    # NumPy's complex64 power is cpowf: exp(b log a) in float, off by about |b log a| ulps
    check_ufunc(name, a, b, rtol=1e-5 if name == "power" and dtype == np.complex64 else None)


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_ufunc_all_dtypes(name, dtype):
    a = data(dtype, (N,), seed=3, kind=UNARY[name])
    check_ufunc(name, a)


@pytest.mark.parametrize("name", ["sqrt", "exp", "sin", "arctan2", "log", "hypot", "rint", "tanh"])
@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint8], ids=dtype_id)
def test_small_ints_compute_in_float16(name, dt):
    """NumPy's math loops take bool and 1-byte integers to float16, and so does numgpu."""
    kind = "positive" if name in ("log", "sqrt") else "any"
    args = [data(dt, (N,), seed=s, kind=kind) for s in range(getattr(np, name).nin)]
    with np.errstate(all="ignore"):
        exp = getattr(np, name)(*args)
    assert exp.dtype == np.float16
    assert_same(getattr(ng, name)(*[ng.asarray(a) for a in args]), exp)


def test_aliases_are_numpys():
    for alias, name in [("divide", "true_divide"), ("mod", "remainder"), ("abs", "absolute")]:
        x = data(np.float64, (N,), kind="nonzero")
        assert_same(getattr(ng, alias)(ng.asarray(x), ng.asarray(x)) if getattr(np, alias).nin == 2
                    else getattr(ng, alias)(ng.asarray(x)),
                    getattr(np, name)(x, x) if getattr(np, name).nin == 2 else getattr(np, name)(x))


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert"])
@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_type_errors_on_floats(name, dt):
    x = data(dt, (5,))
    args = (x,) * getattr(np, name).nin
    with pytest.raises(TypeError):
        getattr(np, name)(*args)
    with pytest.raises(TypeError):
        getattr(ng, name)(*[ng.asarray(a) for a in args])


def test_type_errors_on_bools():
    b = data(np.bool_, (5,))
    for f in [np.subtract, np.negative, np.sign]:
        args = (b,) * f.nin
        with pytest.raises(TypeError):
            f(*args)
        with pytest.raises(TypeError):
            getattr(ng, f.__name__)(*[ng.asarray(a) for a in args])
    with pytest.raises(TypeError):
        ng.asarray(b) - ng.asarray(b)
    with pytest.raises(TypeError):
        -ng.asarray(b)


def test_ufunc_type_error_is_numpy_like():
    x = ng.asarray(data(np.float64, (5,)))
    with pytest.raises(TypeError, match="bitwise_and"):
        np.bitwise_and(x.get(), x.get())
    with pytest.raises(TypeError):
        x & x


# ---- mixed dtypes: the promotion matrix ------------------------------------------------

@pytest.mark.parametrize("name", ["add", "multiply", "less", "true_divide"])
@pytest.mark.parametrize("dt1", ALL, ids=dtype_id)
def test_promotion_matrix(name, dt1):
    a = data(dt1, (N,), seed=4, kind="any")
    for dt2 in ALL:
        b = data(dt2, (N,), seed=5, kind="nonzero" if name == "true_divide" else "any")
        check_ufunc(name, a, b)


@pytest.mark.parametrize("dt1,dt2,expected", [
    (np.int64, np.uint64, np.float64),
    (np.int8, np.uint8, np.int16),
    (np.uint32, np.int32, np.int64),
    (np.int16, np.float32, np.float32),
    (np.int32, np.float32, np.float64),
    (np.uint8, np.float32, np.float32),
    (np.bool_, np.int8, np.int8),
    (np.bool_, np.float32, np.float32),
    (np.float32, np.float64, np.float64),
], ids=case_id)
def test_promotion_examples(dt1, dt2, expected):
    a, b = data(dt1, (N,), seed=1), data(dt2, (N,), seed=2)
    r = ng.asarray(a) + ng.asarray(b)
    assert r.dtype == expected
    assert_same(r, a + b)


# ---- NEP 50: Python scalars are weak -------------------------------------------------------

@pytest.mark.parametrize("dt,scalar,op", [
    (np.uint8, 1, "add"),
    (np.uint8, 255, "add"),
    (np.int8, 1.0, "add"),
    (np.int8, -128, "add"),
    (np.int16, 2.5, "multiply"),
    (np.uint64, 1.5, "add"),
    (np.float32, 2.0, "multiply"),
    (np.float32, 1e30, "multiply"),
    (np.float64, 3, "add"),
    (np.bool_, 1, "add"),
    (np.bool_, 1.5, "add"),
    (np.bool_, True, "add"),
    (np.int32, True, "add"),
    (np.uint8, 3, "floor_divide"),
    (np.uint8, 3, "remainder"),
    (np.int8, 2, "power"),
    (np.uint16, 7, "bitwise_and"),
    (np.int8, 2, "left_shift"),
    (np.int32, 2, "true_divide"),
    (np.float32, 2, "true_divide"),
    (np.uint8, 100, "maximum"),
    (np.float32, 0.5, "arctan2"),
    (np.uint32, 2**32 - 1, "add"),
    (np.int64, 2**63 - 1, "add"),
    (np.uint64, 2**64 - 1, "add"),
], ids=case_id)
def test_weak_python_scalars(dt, scalar, op):
    a = data(dt, (N,), seed=6, kind="small" if op in ("power", "left_shift") else "any")
    check_ufunc(op, a, scalar)
    check_ufunc(op, scalar, a)


@pytest.mark.parametrize("scalar", [np.pi, 0.1, -2.718281828, 1e-8, 3e-5, 65519.0, 65520.0, 1e6, 2049.0, 2051.0],
                         ids=str)
def test_python_floats_round_to_float16_first(scalar):
    """A Python float meeting float16 arrays is cast to float16 before the op, as NumPy casts it
    (pi is 3.140625, 0.1 is 0.0999755859375, 1e-8 is 0, 65520 is inf, 2049 is 2048 and 2051 is
    2052), in arithmetic, comparisons and the two-operand functions alike."""
    x = np.array([0.0999755859375, 0.3, 1.7, -5.0, 3.140625, 2048.0, 6e-8, 60000.0], np.float16)
    for op in ("multiply", "add", "subtract", "true_divide", "less", "equal", "greater_equal", "maximum", "fmin",
               "arctan2", "copysign"):
        with np.errstate(all="ignore"):
            check_ufunc(op, x, scalar)
            check_ufunc(op, scalar, x)


@pytest.mark.parametrize("dt,scalar", [(np.uint8, 300), (np.uint8, -1), (np.int8, 128), (np.int8, -129),
                                       (np.int16, 2**15), (np.uint32, 2**32), (np.int64, 2**63),
                                       (np.uint64, -1), (np.uint64, 2**64)], ids=case_id)
def test_out_of_range_python_int_raises_overflow(dt, scalar):
    a = data(dt, (5,))
    with pytest.raises(OverflowError):
        np.add(a, scalar)
    with pytest.raises(OverflowError):
        ng.asarray(a) + scalar
    with pytest.raises(OverflowError):
        scalar + ng.asarray(a)
    with pytest.raises(OverflowError):
        ng.multiply(ng.asarray(a), scalar)


@pytest.mark.parametrize("dt,scalar", [(np.uint8, 300), (np.uint8, -1), (np.int8, 1000), (np.int8, -129),
                                       (np.uint64, -5), (np.int64, 2**64), (np.uint16, 70000)], ids=case_id)
@pytest.mark.parametrize("op", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
def test_comparisons_with_out_of_range_ints(dt, scalar, op):
    a = data(dt, (N,), seed=7)
    check_ufunc(op, a, scalar)
    check_ufunc(op, scalar, a)


def test_numpy_scalars_are_strong():
    a = data(np.int8, (N,))
    for s in [np.int64(3), np.float32(1.5), np.uint8(2), np.float64(0.25), np.int16(-3)]:
        check_ufunc("add", a, s)
        check_ufunc("multiply", s, a)
    f = data(np.float32, (N,))
    check_ufunc("add", f, np.float64(1.0))


def test_scalar_scalar_ufunc():
    check_ufunc("add", np.asarray(2, np.int8), 3)
    check_ufunc("add", np.asarray(2.5, np.float32), 3)
    check_ufunc("multiply", np.asarray(True), np.asarray(False))


# ---- operators --------------------------------------------------------------------------------

BINOPS = {
    "+": (operator.add, "any", "any"),
    "-": (operator.sub, "any", "any"),
    "*": (operator.mul, "any", "any"),
    "/": (operator.truediv, "any", "nonzero"),
    "//": (operator.floordiv, "any", "nonzero"),
    "%": (operator.mod, "any", "nonzero"),
    "**": (operator.pow, "any", "small"),
    "&": (operator.and_, "any", "any"),
    "|": (operator.or_, "any", "any"),
    "^": (operator.xor, "any", "any"),
    "<<": (operator.lshift, "any", "shift"),
    ">>": (operator.rshift, "any", "shift"),
    "<": (operator.lt, "any", "any"),
    "<=": (operator.le, "any", "any"),
    ">": (operator.gt, "any", "any"),
    ">=": (operator.ge, "any", "any"),
    "==": (operator.eq, "any", "any"),
    "!=": (operator.ne, "any", "any"),
}


def check_op(f, a, b):
    """f(a, b) with numgpu operands (arrays uploaded) against NumPy."""
    da, db = _dev(a), _dev(b)
    try:
        with np.errstate(all="ignore"):
            exp = f(a, b)
    except TypeError:
        with pytest.raises(TypeError):
            f(da, db)
        return
    assert_same(f(da, db), exp)


@pytest.mark.parametrize("sym", list(BINOPS))
@pytest.mark.parametrize("dt", [np.bool_, np.int32, np.uint8, np.float64, np.float32], ids=dtype_id)
def test_binary_operators(sym, dt):
    f, ka, kb = BINOPS[sym]
    a = data(dt, (N,), seed=8, kind=ka)
    b = data(dt, (N,), seed=9, kind=kb)
    check_op(f, a, b)


@pytest.mark.parametrize("sym", list(BINOPS))
@pytest.mark.parametrize("dt", [np.int32, np.float64, np.uint8], ids=dtype_id)
def test_binary_operators_with_python_scalars(sym, dt):
    f, ka, kb = BINOPS[sym]
    a = data(dt, (N,), seed=10, kind="positive" if sym in ("/", "//", "%", "**", "<<", ">>") else "any")
    if sym in ("<<", ">>"):
        a = data(dt, (N,), seed=10, kind="shift") if dt is not np.float64 else a
    scalars = [2, True] + ([1.5] if sym not in ("&", "|", "^", "<<", ">>") else [])
    for s in scalars:
        check_op(f, a, s)   # array op scalar
        check_op(f, s, a)   # reflected: scalar op array


def test_matmul_operator_and_reflected_numpy():
    a = data(np.float64, (3, 4))
    b = data(np.float64, (4, 2), seed=1)
    assert_same(ng.asarray(a) @ ng.asarray(b), a @ b)
    # a NumPy array on the left defers to numgpu's reflected operators
    r = a + ng.asarray(a)
    assert isinstance(r, ng.ndarray)
    assert_same(r, a + a)
    r = b.T @ ng.asarray(a.T)
    assert_same(r, b.T @ a.T)


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_unary_operators(dt):
    a = data(dt, (N,), seed=11)
    for f in (operator.neg, operator.pos, operator.invert, abs):
        try:
            exp = f(a)
        except TypeError:
            with pytest.raises(TypeError):
                f(ng.asarray(a))
            continue
        assert_same(f(ng.asarray(a)), exp)


def test_divmod():
    a = data(np.int32, (N,), seed=1)
    b = data(np.int32, (N,), seed=2, kind="nonzero")
    q, r = divmod(ng.asarray(a), ng.asarray(b))
    eq, er = divmod(a, b)
    assert_same(q, eq)
    assert_same(r, er)


def test_comparison_with_none():
    a = data(np.float64, (5,))
    assert_same(ng.asarray(a) == None, a == None)  # noqa: E711
    assert_same(ng.asarray(a) != None, a != None)  # noqa: E711


INPLACE = {
    "+=": (operator.iadd, "any"),
    "-=": (operator.isub, "any"),
    "*=": (operator.imul, "any"),
    "/=": (operator.itruediv, "nonzero"),
    "//=": (operator.ifloordiv, "nonzero"),
    "%=": (operator.imod, "nonzero"),
    "**=": (operator.ipow, "small"),
    "&=": (operator.iand, "any"),
    "|=": (operator.ior, "any"),
    "^=": (operator.ixor, "any"),
    "<<=": (operator.ilshift, "shift"),
    ">>=": (operator.irshift, "shift"),
}


@pytest.mark.parametrize("sym", list(INPLACE))
@pytest.mark.parametrize("dt", [np.int16, np.float64], ids=dtype_id)
def test_inplace_operators_modify_array_and_views(sym, dt):
    f, kb = INPLACE[sym]
    base = data(dt, (4, N), seed=12)
    b = data(dt, (4, N), seed=13, kind=kb)
    a = ng.asarray(base)
    view = a[1:3]          # a basic-indexing view of `a`
    ident = id(a)
    try:
        with np.errstate(all="ignore"):
            exp = f(base.copy(), b)
    except TypeError:
        with pytest.raises(TypeError):
            f(a, ng.asarray(b))
        assert_same(a, base)  # unchanged
        return
    a2 = f(a, ng.asarray(b))
    assert id(a2) == ident  # same object, modified in place
    assert_same(a, exp)
    assert_same(view, exp[1:3])


def test_inplace_on_a_view_reaches_the_base():
    base = np.arange(20.0).reshape(4, 5)
    a = ng.asarray(base)
    v = a[::2, 1:]
    v += 100
    base[::2, 1:] += 100
    assert_same(a, base)
    t = a.T
    t *= 2
    base.T[...] *= 2
    assert_same(a, base)


def test_inplace_with_python_scalars_and_broadcast():
    base = data(np.int32, (3, 4))
    a = ng.asarray(base)
    a += 5
    a *= ng.asarray(np.arange(4, dtype=np.int32))
    a -= True
    base += 5
    base *= np.arange(4, dtype=np.int32)
    base -= True
    assert_same(a, base)


@pytest.mark.parametrize("dt", INTS + [np.bool_], ids=dtype_id)
def test_inplace_int_plus_float_raises(dt):
    a = ng.asarray(data(dt, (5,)))
    with pytest.raises(TypeError):
        x = data(dt, (5,))
        x += 1.5
    before = a.get()
    with pytest.raises(TypeError):
        a += 1.5
    assert_same(a, before)
    with pytest.raises(TypeError):
        a += ng.asarray(np.ones(5))
    with pytest.raises(TypeError):
        a /= 2


def test_inplace_uint8_overflowing_scalar():
    a = ng.asarray(np.arange(5, dtype=np.uint8))
    with pytest.raises(OverflowError):
        a += 300


def test_inplace_output_cannot_broadcast():
    a = ng.asarray(np.zeros(4))
    b = ng.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError):
        x = np.zeros(4)
        x += np.ones((3, 4))
    with pytest.raises(ValueError):
        a += b


def test_inplace_down_cast_within_kind():
    a = data(np.int8, (N,))
    b = data(np.int32, (N,), seed=1)
    x = ng.asarray(a)
    x += ng.asarray(b)   # same_kind: int32 -> int8 is allowed
    a += b
    assert_same(x, a)
    f = data(np.float32, (N,))
    y = ng.asarray(f)
    y *= ng.asarray(data(np.float64, (N,), seed=1))
    f *= data(np.float64, (N,), seed=1)
    assert_same(y, f)


# ---- NumPy's exception classes for a missing loop or output cast ---------------------------------

_ERR_DTYPES = [np.bool_, np.int8, np.uint8, np.int64, np.uint64, np.float16, np.float32, np.float64,
               np.complex64, np.complex128]
_ERR_SCALARS = [True, 3, 1.5, 1j]
_ERR_BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
               operator.pow, operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift,
               operator.lt, operator.eq, divmod]
_ERR_INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
                operator.imod, operator.ipow, operator.iand, operator.ior, operator.ixor, operator.ilshift,
                operator.irshift]


def _raised(f, args):
    try:
        with np.errstate(all="ignore"):
            f(*args)
    except Exception as e:      # noqa: BLE001 (the exception is the result)
        return e
    return None


def _same_error(f, args):
    """1 when NumPy raises for args (then numgpu, on device copies of the arrays, raises the same
    class with the same message), else 0."""
    want = _raised(f, [a.copy() if isinstance(a, np.ndarray) else a for a in args])
    if want is None:
        return 0
    got = _raised(f, [ng.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
    assert type(got) is type(want) and str(got) == str(want), (f, args, want, got)
    return 1


def test_operator_type_errors_are_numpys_classes():
    """Operators on device arrays raise NumPy's own exception: UFuncTypeError's subclasses
    (_UFuncOutputCastingError for an in-place result that does not cast back, bool += int8;
    _UFuncNoLoopError for +bool) or the plain TypeError of NumPy's legacy type resolution
    (float & int, float << 1, -bool), with NumPy's message."""
    arrays = [np.ones(3, d) for d in _ERR_DTYPES]
    n = 0
    for f in _ERR_BINARY + _ERR_INPLACE:
        for a in arrays:
            for b in arrays + _ERR_SCALARS:
                n += _same_error(f, (a, b))
            if f in _ERR_BINARY:
                for s in _ERR_SCALARS:
                    n += _same_error(f, (s, a))
    for f in (operator.neg, operator.pos, operator.invert, abs):
        for a in arrays:
            n += _same_error(f, (a,))
    assert n > 400
    UFuncTypeError = np._core._exceptions.UFuncTypeError        # (NumPy 2 names it nowhere public)
    with pytest.raises(UFuncTypeError, match="Cannot cast ufunc 'add' output"):
        g = ng.ones(3, np.int64)
        g += 1.5
    with pytest.raises(UFuncTypeError, match="did not contain a loop"):
        +ng.ones(3, bool)


def test_ufunc_type_errors_are_numpys_classes():
    """ng.<ufunc>(...) on device arrays with no loop raises NumPy's class and message."""
    f, i, b = np.ones(3), np.arange(3), np.ones(3, bool)
    cases = [(ng.bitwise_and, np.bitwise_and, (1.5, i)), (ng.left_shift, np.left_shift, (f, 1)),
             (ng.gcd, np.gcd, (f, f)), (ng.gcd, np.gcd, (f, 1)), (ng.positive, np.positive, (b,)),
             (ng.invert, np.invert, (f,)), (ng.subtract, np.subtract, (b, b)),
             (ng.remainder, np.remainder, (1j, f)), (ng.ldexp, np.ldexp, (f, f)),
             (ng.bitwise_count, np.bitwise_count, (f,)), (ng.arctan2, np.arctan2, (f.astype(complex), f))]
    for ours, theirs, args in cases:
        want = _raised(theirs, args)
        got = _raised(ours, [ng.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
        assert type(got) is type(want) and str(got) == str(want), (theirs, args, want, got)
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
        ng.add(ng.asarray(f), 1, out=ng.zeros(3, np.int64))


# ---- out= -------------------------------------------------------------------------------------

def test_out_argument():
    a, b = data(np.float64, (N,), seed=1), data(np.float64, (N,), seed=2)
    out = ng.empty((N,), dtype=np.float64)
    r = ng.add(ng.asarray(a), ng.asarray(b), out=out)
    assert r is out
    assert_same(out, a + b)
    r = ng.sqrt(ng.asarray(np.abs(a)), out=out)
    assert r is out
    assert_same(out, np.sqrt(np.abs(a)))
    big = ng.zeros((2, N))
    ng.multiply(ng.asarray(a), 2.0, out=big[1])
    exp = np.zeros((2, N))
    np.multiply(a, 2.0, out=exp[1])
    assert_same(big, exp)


def test_out_argument_casting_error():
    a = data(np.float64, (N,))
    with pytest.raises(TypeError):
        np.add(a, a, out=np.empty(N, np.int32))
    with pytest.raises(TypeError):
        ng.add(ng.asarray(a), ng.asarray(a), out=ng.empty((N,), dtype=np.int32))



def test_out_argument_same_kind_is_numpys():
    # NumPy's 'same_kind' goes up bool < unsigned < signed < float < complex: uint8 -> int8 is
    # allowed (it raised here before), int8 -> uint8 and float -> int are not
    dts = [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64, np.float16, np.float32,
           np.float64, np.complex64]
    for a in dts:
        for b in dts:
            x = np.ones(3, a)
            f = "logical_not" if a is np.bool_ else "positive"
            try:
                want = getattr(np, f)(x, out=np.zeros(3, b))
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(ng, f)(ng.asarray(x), out=ng.zeros(3, b))
                continue
            assert_same(getattr(ng, f)(ng.asarray(x), out=ng.zeros(3, b)), want)


# ---- broadcasting ----------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, min_side=0, max_side=3),
       seed=st.integers(0, 2**16))
def test_broadcasting_hypothesis(shapes, seed):
    sa, sb = shapes.input_shapes
    a = data(np.float64, sa, seed=seed)
    b = data(np.int32, sb, seed=seed + 1)
    got = ng.asarray(a) + ng.asarray(b)
    assert got.shape == shapes.result_shape
    assert_same(got, a + b)
    assert_same(ng.less(ng.asarray(b), ng.asarray(a)), np.less(b, a))


@settings(max_examples=25, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3),
       seed=st.integers(0, 2**16))
def test_where_broadcasting_hypothesis(shapes, seed):
    sc, sx, sy = shapes.input_shapes
    c = data(np.bool_, sc, seed=seed)
    x = data(np.int16, sx, seed=seed + 1)
    y = data(np.float32, sy, seed=seed + 2)
    assert_same(ng.where(ng.asarray(c), ng.asarray(x), ng.asarray(y)), np.where(c, x, y))


BAD_PAIRS = [((3,), (4,)), ((2, 3), (3, 2)), ((5, 1, 3), (4, 2)), ((0,), (2,))]


@pytest.mark.parametrize("sa,sb", BAD_PAIRS, ids=str)
def test_broadcast_error(sa, sb):
    """ValueError whose message names both shapes (as "(2, 3)" or NumPy's "(2,3)")."""
    a, b = np.zeros(sa), np.zeros(sb)
    with pytest.raises(ValueError, match="could not be broadcast"):
        a + b
    for f in (operator.add, operator.lt, ng.maximum):
        with pytest.raises(ValueError, match="could not be broadcast") as g:
            f(ng.asarray(a), ng.asarray(b))
        msg = str(g.value).replace(" ", "")
        for s in (sa, sb):
            assert "(" + ",".join(str(v) for v in s) + ("," if len(s) == 1 else "") + ")" in msg, str(g.value)


@pytest.mark.parametrize("sa,sb", BAD_PAIRS, ids=str)
def test_broadcast_error_message_is_numpys(sa, sb):
    a, b = np.zeros(sa), np.zeros(sb)
    with pytest.raises(ValueError) as e:
        a + b
    with pytest.raises(ValueError) as g:
        ng.asarray(a) + ng.asarray(b)
    assert str(g.value).strip() == str(e.value).strip()


def _views(base):
    return {
        "step": base[::2, 1::3],
        "negative": base[::-1, ::-2],
        "transposed": base.T[:5, :4],
        "column": base[:, 2],
        "broadcast_row": base[1:2, :],
    }


@pytest.mark.parametrize("view", list(_views(np.zeros((8, 12)))))
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "less", "floor_divide"])
def test_non_contiguous_binary(name, view):
    base_a = data(np.float64, (8, 12), seed=14)
    base_b = data(np.int32, (8, 12), seed=15, kind="nonzero")
    va, vb = _views(base_a)[view], _views(base_b)[view]
    ga, gb = _views(ng.asarray(base_a))[view], _views(ng.asarray(base_b))[view]
    check_ufunc(name, va, vb, ng_args=[ga, gb])
    check_ufunc(name, va, vb[::-1], ng_args=[ga, gb[::-1]])


@pytest.mark.parametrize("view", list(_views(np.zeros((8, 12)))))
@pytest.mark.parametrize("name", ["sqrt", "negative", "absolute", "isnan"])
def test_non_contiguous_unary(name, view):
    base = data(np.float32, (8, 12), seed=16, kind="positive")
    check_ufunc(name, _views(base)[view], ng_args=[_views(ng.asarray(base))[view]])


def test_mixed_layouts_transposed_plus_contiguous():
    a = data(np.float64, (6, 7), seed=1)
    b = data(np.float64, (7, 6), seed=2)
    assert_same(ng.asarray(a) + ng.asarray(b).T, a + b.T)
    assert_same(ng.asarray(a).T * ng.asarray(b)[::-1], a.T * b[::-1])


@pytest.mark.parametrize("name", ["add", "less", "maximum", "true_divide"])
def test_zero_d_and_empty(name):
    z = np.asarray(3.5)
    zi = np.asarray(2, dtype=np.int16)
    e = np.zeros((0,))
    e2 = np.zeros((3, 0), np.int32)
    v = data(np.float64, (4,), kind="nonzero")
    check_ufunc(name, z, zi)
    check_ufunc(name, z, v)
    check_ufunc(name, v, zi)
    check_ufunc(name, e, z)
    check_ufunc(name, e2, e)
    check_ufunc(name, e2, np.zeros((1, 0)))
    check_ufunc("sqrt", z)
    check_ufunc("negative", e2)


# ---- special values ---------------------------------------------------------------------------------

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e-310, 1e308, -7.0])


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_special_values(name, dt):
    with np.errstate(all="ignore"):
        x = SPECIAL.astype(dt)
    check_ufunc(name, x)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
                                  "power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
                                  "less", "equal", "not_equal", "greater_equal", "logical_and", "logical_xor"])
def test_binary_special_values(name, dt):
    with np.errstate(all="ignore"):
        x = SPECIAL.astype(dt)
    a = np.repeat(x, len(x))   # every pair of special values
    b = np.tile(x, len(x))
    check_ufunc(name, a, b)


def test_nan_propagation_max_min():
    a = np.array([np.nan, 1.0, np.nan, 3.0, -np.inf])
    b = np.array([2.0, np.nan, np.nan, 1.0, np.nan])
    for name in ["maximum", "minimum", "fmax", "fmin"]:
        got = check_ufunc(name, a, b)
        exp = getattr(np, name)(a, b)
        np.testing.assert_array_equal(np.isnan(got.get()), np.isnan(exp))
    assert np.isnan(ng.maximum(ng.asarray(a), ng.asarray(b)).get()[:3]).all()
    assert not np.isnan(ng.fmax(ng.asarray(a), ng.asarray(b)).get()[:2]).any()


def test_signed_zero():
    a = np.array([0.0, -0.0, 0.0, -0.0])
    b = np.array([-0.0, 0.0, 0.0, -0.0])
    for name in ["add", "multiply", "subtract", "negative", "absolute", "sqrt", "floor", "trunc", "rint"]:
        args = (a, b) if getattr(np, name).nin == 2 else (a,)
        got = check_ufunc(name, *args)
        exp = getattr(np, name)(*args)
        np.testing.assert_array_equal(np.signbit(got.get()), np.signbit(exp), err_msg=name)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_sign_of_signed_zero(dt):
    """NumPy: sign(-0.0) is +0.0 (no sign bit)."""
    x = np.array([0.0, -0.0], dtype=dt)
    got = check_ufunc("sign", x)
    np.testing.assert_array_equal(np.signbit(got.get()), np.signbit(np.sign(x)))


def test_rint_rounds_half_to_even():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5000001, 2.4999999])
    for dt in FLOATS:
        check_ufunc("rint", x.astype(dt))


@pytest.mark.parametrize("dt", SINTS + FLOATS, ids=dtype_id)
def test_floor_divide_and_remainder_signs(dt):
    """Python semantics: floor division rounds down, the remainder takes the divisor's sign."""
    a = np.array([7, -7, 7, -7, 6, -6, 0, 1, -1, 5], dtype=dt)
    b = np.array([2, 2, -2, -2, 3, -3, 5, -3, 3, -5], dtype=dt)
    q = check_ufunc("floor_divide", a, b)
    r = check_ufunc("remainder", a, b)
    assert_values(q.get() * b + r.get(), a)
    assert (np.sign(r.get()) * np.sign(b) >= 0).all()
    assert_same(ng.asarray(a) // ng.asarray(b), a // b)
    assert_same(ng.asarray(a) % ng.asarray(b), a % b)
    assert_same(ng.asarray(a) // -3, a // -3)
    assert_same(-7 % ng.asarray(b), -7 % b)


@pytest.mark.parametrize("dt", [np.int64, np.uint64], ids=dtype_id)
def test_64bit_division_at_the_32bit_boundary(dt):
    """64-bit division takes a 32-bit path when both operands fit: operands either side of the edge."""
    edge = [1, 3, 7, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3, 2**62 + 5]
    if np.issubdtype(dt, np.signedinteger):
        edge += [-v for v in edge] + [-2**31 - 1, -2**63 + 1]
    else:
        edge += [2**64 - 1, 2**63, 2**63 - 1]
    v = np.array(edge, dtype=dt)
    a, b = (x.ravel() for x in np.meshgrid(v, v))
    for name in ["floor_divide", "remainder", "fmod"]:
        check_ufunc(name, a, b)


@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_gcd_and_lcm_of_edge_values(dt):
    """np.gcd and np.lcm of every pair of a grid: zeros, signs, the dtype's ends (|int64's least|
    is 2**63, back to itself), powers of two, and numbers either side of 32 bits (the helper's
    32-bit path), lcm wrapping where NumPy's does."""
    info = np.iinfo(dt)
    grid = [0, 1, 2, 3, 6, 12, 18, 35, 64, 97, 100, 127, info.max, info.max - 1, info.min]
    grid += [2**31 - 1, 2**31, 2**32 - 5, 2**32, 3 * 2**33, 2**40 + 3, 6 * (2**40 + 3), 2**62, 2**62 + 5]
    if info.min < 0:
        grid += [-1, -6, -12, -64, -(2**31), -(3 * 2**33), info.min + 1]
    else:
        grid += [2**63 + 7, 2**64 - 2]
    v = np.unique(np.array([g for g in grid if info.min <= g <= info.max], dtype=dt))
    a, b = (x.ravel() for x in np.meshgrid(v, v))
    check_ufunc("gcd", a, b)
    check_ufunc("lcm", a, b)


def test_gcd_and_lcm_mixed_and_refused():
    rng = np.random.default_rng(5)
    a, b = rng.integers(-10**9, 10**9, 500), rng.integers(1, 10**6, 500).astype(np.uint32)
    check_ufunc("gcd", a, b)
    check_ufunc("lcm", a.astype(np.int32), b.astype(np.int16))
    check_ufunc("gcd", np.arange(-6, 7, dtype=np.int8), np.arange(13, dtype=np.uint8))  # int16
    check_ufunc("gcd", np.arange(12), 18)  # a weak Python int
    check_ufunc("lcm", np.array([True, False, True]), 4)  # bool with an int: int64
    for x, y in [(np.arange(5.0), np.arange(5)), (np.ones(3, bool), np.ones(3, bool)),
                 (np.arange(3, dtype=np.uint64), np.arange(3)), (np.ones(2, np.complex64), 2)]:
        with pytest.raises(TypeError):
            np.gcd(x, y)
        with pytest.raises(TypeError, match="gcd"):
            ng.gcd(*[_dev(v) for v in (x, y)])
    # NumPy's own np.gcd of device arrays runs numgpu's (a fallback would raise here)
    prev = _fallback.set_mode("error")
    try:
        x = ng.asarray(np.array([12, 18, -27]))
        assert np.gcd(x, 6).get().tolist() == [6, 6, 3]
        assert np.lcm(x, ng.asarray(np.array([8, 4, 6]))).get().tolist() == [24, 36, 54]
    finally:
        _fallback.set_mode(prev)


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_float_floor_divide_remainder_fractions(dt):
    a = np.array([5.5, -5.5, 5.5, -5.5, 1e-3, -1e-3, 7.0, -0.0], dtype=dt)
    b = np.array([2.0, 2.0, -2.0, -2.0, 0.5, 0.5, 0.1, 3.0], dtype=dt)
    check_ufunc("floor_divide", a, b)
    check_ufunc("remainder", a, b)


@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_integer_division_by_zero_is_zero(dt):
    a = data(dt, (N,), seed=17)
    z = np.zeros(N, dtype=dt)
    for name in ["floor_divide", "remainder"]:
        got = check_ufunc(name, a, z)
        assert (got.get() == 0).all()
    with np.errstate(all="ignore"):
        assert_same(ng.asarray(a) // 0, np.floor_divide(a, 0))
        assert_same(ng.asarray(a) % 0, np.remainder(a, 0))
        assert_same(ng.asarray(a) / ng.asarray(z), a / z)  # float64: inf, -inf, nan


@pytest.mark.parametrize("dt", FLOATS, ids=dtype_id)
def test_float_division_by_zero(dt):
    a = np.array([1.0, -1.0, 0.0, np.nan, np.inf], dtype=dt)
    z = np.array([0.0, 0.0, 0.0, 0.0, -0.0], dtype=dt)
    for name in ["true_divide", "floor_divide", "remainder"]:
        check_ufunc(name, a, z)


@pytest.mark.parametrize("dt", SINTS, ids=dtype_id)
def test_int_min_divided_by_minus_one(dt):
    m = np.iinfo(dt).min
    a = np.array([m, m, m + 1], dtype=dt)
    b = np.array([-1, 1, -1], dtype=dt)
    check_ufunc("floor_divide", a, b)
    check_ufunc("remainder", a, b)
    check_ufunc("absolute", a)
    check_ufunc("negative", a)


@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_integer_overflow_wraps(dt):
    info = np.iinfo(dt)
    a = np.array([info.max, info.min, info.max, info.min, info.max // 2 + 1], dtype=dt)
    b = np.array([1, 1, info.max, info.max, 3], dtype=dt)
    for name in ["add", "subtract", "multiply", "square", "power"]:
        args = (a, b) if getattr(np, name).nin == 2 else (a,)
        if name == "power":
            args = (a, np.array([2, 3, 2, 5, 7], dtype=dt))
        check_ufunc(name, *args)


def test_int8_wrap_example():
    a = ng.asarray(np.array([127], np.int8))
    r = a + 1
    assert r.dtype == np.int8 and r.get()[0] == -128
    r = ng.asarray(np.array([0], np.uint8)) - 1
    assert r.dtype == np.uint8 and r.get()[0] == 255


@pytest.mark.parametrize("dt", INTS, ids=dtype_id)
def test_shifts_by_bit_width_and_more(dt):
    bits = np.dtype(dt).itemsize * 8
    info = np.iinfo(dt)
    a = np.array([1, info.max, info.min, 5, 3, info.max, 1, 7], dtype=dt)
    s = np.array([bits, bits, bits, bits + 1, bits - 1, 0, min(2 * bits, info.max), min(100, info.max)], dtype=dt)
    check_ufunc("left_shift", a, s)
    check_ufunc("right_shift", a, s)
    if np.dtype(dt).kind == "i":
        neg = np.array([-1, -100, info.min, -5], dtype=dt)
        sh = np.array([bits, bits - 1, bits + 3, 1], dtype=dt)
        check_ufunc("right_shift", neg, sh)
        check_ufunc("left_shift", neg, sh)


def test_integer_power_negative_exponent_raises():
    a = np.array([2, 3], np.int32)
    b = np.array([-1, 2], np.int32)
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(a, b)
    with pytest.raises(ValueError, match="negative integer powers"):
        ng.power(ng.asarray(a), ng.asarray(b))


def test_power_special_ints():
    a = np.array([0, 1, -1, 2, -2, 0], np.int64)
    b = np.array([0, 100, 101, 62, 63, 5], np.int64)
    check_ufunc("power", a, b)


@pytest.mark.parametrize("dt", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int64], ids=dtype_id)
def test_unsigned_and_signed_abs_negative(dt):
    a = data(dt, (N,), seed=18)
    check_ufunc("negative", a)
    check_ufunc("absolute", a)
    check_ufunc("sign", a)
    check_ufunc("invert", a)


# ---- clip and where --------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", NUMERIC, ids=dtype_id)
def test_clip(dt):
    a = data(dt, (N,), seed=19)
    lo, hi = (10, 50)
    assert_same(ng.clip(ng.asarray(a), lo, hi), np.clip(a, lo, hi))
    assert_same(ng.clip(ng.asarray(a), None, hi), np.clip(a, None, hi))
    assert_same(ng.clip(ng.asarray(a), lo, None), np.clip(a, lo, None))
    lo_a = data(dt, (N,), seed=20)
    assert_same(ng.clip(ng.asarray(a), ng.asarray(lo_a), hi), np.clip(a, lo_a, hi))


def test_clip_float_and_nan():
    a = np.array([np.nan, -5.0, 0.5, 5.0, np.inf])
    assert_same(ng.clip(ng.asarray(a), -1.0, 1.0), np.clip(a, -1.0, 1.0))
    assert_same(ng.clip(ng.asarray(a.astype(np.float32)), 0, 1), np.clip(a.astype(np.float32), 0, 1))
    m = data(np.float64, (3, 4))
    assert_same(ng.clip(ng.asarray(m), np.zeros(4) - 1, 2.0), np.clip(m, np.zeros(4) - 1, 2.0))


def test_clip_promotion_and_errors():
    a = data(np.int8, (N,))
    assert_same(ng.clip(ng.asarray(a), -2.5, 2.5), np.clip(a, -2.5, 2.5))
    # NumPy 2.1+ (and the Array API standard): no bounds is a copy, not a ValueError
    assert_same(ng.clip(ng.asarray(a), None, None), np.clip(a, None, None))


@pytest.mark.parametrize("dt", ALL, ids=dtype_id)
def test_where_all_dtypes(dt):
    c = data(np.bool_, (N,), seed=21)
    x = data(dt, (N,), seed=22)
    y = data(dt, (N,), seed=23)
    assert_same(ng.where(ng.asarray(c), ng.asarray(x), ng.asarray(y)), np.where(c, x, y))
    # condition of another dtype: nonzero means true
    ci = data(dt, (N,), seed=24)
    assert_same(ng.where(ng.asarray(ci), ng.asarray(x), 0), np.where(ci, x, 0))


def test_where_scalars_and_promotion():
    c = data(np.bool_, (3, 4), seed=1)
    x = data(np.int8, (3, 4))
    assert_same(ng.where(ng.asarray(c), ng.asarray(x), 1.5), np.where(c, x, 1.5))
    assert_same(ng.where(ng.asarray(c), 1, 0), np.where(c, 1, 0))
    assert_same(ng.where(ng.asarray(c), 2.0, ng.asarray(x)), np.where(c, 2.0, x))
    assert_same(ng.where(ng.asarray(c), ng.asarray(x), ng.asarray(x.astype(np.uint8))),
                np.where(c, x, x.astype(np.uint8)))
    with pytest.raises(ValueError):
        ng.where(ng.asarray(c), ng.asarray(x))


# ---- complex special values: the C library's (Annex G) on cpu, the helpers' own on GPUs ----

COMPLEX_MATH = ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos",
                "arctan", "arcsinh", "arccosh", "arctanh", "absolute", "sign", "reciprocal", "square"]


@pytest.mark.parametrize("name", COMPLEX_MATH)
@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=dtype_id)
def test_complex_special_values(name, dt):
    """Zeros, ones, infinities and NaNs in every combination of real and imaginary parts."""
    parts = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -0.5, np.inf, -np.inf, np.nan])
    z = np.empty(parts.size ** 2, dt)
    z.real = np.repeat(parts, parts.size)  # parts set one by one: 1j * inf would make NaNs
    z.imag = np.tile(parts, parts.size)
    with np.errstate(all="ignore"):
        exp = getattr(np, name)(z)
    got = getattr(ng, name)(ng.asarray(z))
    rtol = 2e-6 if dt == np.complex64 else 1e-12
    assert_same(got, exp, rtol=rtol, atol=1e-300)


def _cplx(re, im):
    z = np.empty(re.shape, np.complex128)   # (x + 1j * y warns on infinities)
    z.real, z.imag = re, im
    return z


def test_isclose_and_allclose_on_the_device():
    """isclose/allclose: NumPy's formula on the device (no fallback, no download but allclose's one
    bool): NaN and infinities, equal_nan, rtol/atol, broadcasting, integers, complex, scalars."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(500)
    y = x + rng.standard_normal(500) * 1e-6
    x[[3, 4]], y[[3, 9]] = np.nan, np.nan
    x[5], y[5], x[6], y[6], x[7], y[7] = np.inf, np.inf, np.inf, -np.inf, 1.0, np.inf
    cases = [(x, y), (x, y[:1]), (x.reshape(20, 25), y[:25]), (x.astype(np.float32), y),
             (np.arange(10), np.arange(10) + (np.arange(10) % 3 == 0)), (_cplx(x, y), _cplx(y, x)), (x, 0.5)]
    for a, b in cases:
        ga = ng.asarray(a)
        gb = ng.asarray(b) if isinstance(b, np.ndarray) else b
        for kw in ({}, {"equal_nan": True}, {"rtol": 0, "atol": 1e-5}, {"rtol": 1e-3}):
            assert_same(ng.isclose(ga, gb, **kw), np.isclose(a, b, **kw))
            assert ng.allclose(ga, gb, **kw) is np.allclose(a, b, **kw)
    assert ng.allclose(ng.asarray(x[10:]), x[10:]) is True
    before = sum(c[0] for c in _fallback.counts.values())   # on the device: no fallback
    ng.allclose(ng.asarray(x), ng.asarray(y), equal_nan=True)
    ng.isclose(ng.asarray(x), ng.asarray(y))
    assert sum(c[0] for c in _fallback.counts.values()) == before


def test_small_helpers_on_the_device():
    """copy, array_equal, ptp, column_stack, append, isposinf, isneginf: NumPy's definitions over
    device ops (they used to fall back), against NumPy."""
    rng = np.random.default_rng(4)
    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -0.0, -2.5])
    m = rng.integers(-5, 5, (4, 6))
    before = sum(c[0] for c in _fallback.counts.values())
    for f in ("isposinf", "isneginf"):
        for v in (x, m, x.astype(np.float32), x.reshape(7, 1)):
            assert_same(getattr(ng, f)(ng.asarray(v)), getattr(np, f)(v))
        out = ng.zeros(7, dtype=bool)
        assert getattr(ng, f)(ng.asarray(x), out=out) is out
        assert_same(out, getattr(np, f)(x))
        with pytest.raises(TypeError):
            getattr(ng, f)(ng.asarray(x.astype(complex)))
    for a, b, kw in ((x, x, {}), (x, x, {"equal_nan": True}), (x, x[::-1], {"equal_nan": True}), (m, m, {}),
                     (m, m[:3], {}), (m, m.astype(float), {}), (x[:2], [1.0, np.nan], {"equal_nan": True})):
        assert ng.array_equal(ng.asarray(a), b, **kw) is np.array_equal(a, b, **kw)
    for axis in (None, 0, 1, -1):
        for keep in (False, True):
            assert_same(ng.ptp(ng.asarray(m), axis=axis, keepdims=keep), np.ptp(m, axis=axis, keepdims=keep))
    assert_same(ng.ptp(ng.asarray(x[[0, 2, 6]])), np.ptp(x[[0, 2, 6]]))
    cols = (np.arange(4), m[:, :2], np.arange(4.0))
    assert_same(ng.column_stack([ng.asarray(c) for c in cols]), np.column_stack(cols))
    for args in ((m, [[1, 2, 3, 4, 5, 6]]), (m, m[:1], 0), (np.arange(3), 7), (m, m[:, :2], 1)):
        assert_same(ng.append(ng.asarray(args[0]), *args[1:]), np.append(*args))
    g = ng.asarray(m)
    c = ng.copy(g)
    c[0, 0] = 99
    assert int(g[0, 0]) == m[0, 0] and int(c[0, 0]) == 99   # a copy, not a view
    assert_same(ng.copy([1, 2, 3]), np.copy([1, 2, 3]))
    assert sum(c[0] for c in _fallback.counts.values()) == before
    assert ng.array_equal(["a", "b"], ["a", "b"]) is True     # str data: NumPy's, through the guard
    assert list(ng.append(np.array(["a"]), ["b"])) == ["a", "b"]


def test_splits_are_views_as_numpys():
    """array_split, split, hsplit, vsplit, dsplit: NumPy's pieces (views), its errors."""
    a = np.arange(2 * 7 * 4).reshape(2, 7, 4)
    g = ng.asarray(a)
    before = sum(c[0] for c in _fallback.counts.values())
    for f, args in (("array_split", (3,)), ("array_split", (3, 1)), ("array_split", ([2, 5], 1)),
                    ("array_split", ([-2, 9, 1], 1)), ("array_split", (7, 1)), ("split", (2,)), ("split", (7, 1)),
                    ("split", ([1, 3], 2)), ("hsplit", (7,)), ("hsplit", ([3],)), ("vsplit", (2,)), ("dsplit", (2,)),
                    ("array_split", (9, 1))):
        got, want = getattr(ng, f)(g, *args), getattr(np, f)(a, *args)
        assert len(got) == len(want), (f, args)
        for x, y in zip(got, want):
            assert_same(x, y)
    flat = ng.asarray(np.arange(10))
    for x, y in zip(ng.hsplit(flat, 5), np.hsplit(np.arange(10), 5)):
        assert_same(x, y)
    piece = ng.split(g, 2)[1]
    piece[0, 0, 0] = -1          # a view: the write reaches g
    assert int(g[1, 0, 0]) == -1
    assert sum(c[0] for c in _fallback.counts.values()) == before
    for f, x, args in (("split", a, (3, 1)), ("array_split", a, (0,)), ("vsplit", np.arange(4), (2,)),
                       ("dsplit", a[0], (2,)), ("hsplit", np.array(3), (1,))):
        with pytest.raises(ValueError) as want:
            getattr(np, f)(x, *args)
        with pytest.raises(ValueError) as got:
            getattr(ng, f)(ng.asarray(x), *args)
        assert str(got.value) == str(want.value)


def test_average_as_numpys():
    """average: unweighted and weighted, axes (tuples too), keepdims, returned, integer data in
    float64, 1-d weights along an axis, and NumPy's errors."""
    rng = np.random.default_rng(6)
    a = rng.standard_normal((4, 5, 3))
    i = rng.integers(0, 9, (4, 5))
    w = rng.random((4, 5, 3))
    before = sum(c[0] for c in _fallback.counts.values())
    cases = [((a,), {}), ((a,), {"axis": 1}), ((a,), {"axis": (0, 2), "keepdims": True}), ((a,), {"weights": w}),
             ((a,), {"axis": 1, "weights": w[0, :, 0]}), ((a,), {"axis": (2, 0), "weights": w[:, 0, :].T}),
             ((i,), {"axis": 0, "weights": i[:, 0] + 1}), ((i,), {}), ((a,), {"axis": -1, "weights": w, "returned": True}),
             ((a,), {"returned": True}), ((a,), {"axis": 0, "returned": True}), ((a.astype(np.float32),), {"axis": 1})]
    for args, kw in cases:
        gkw = {k: ng.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        got, want = ng.average(*[ng.asarray(x) for x in args], **gkw), np.average(*args, **kw)
        if kw.get("returned"):
            assert_same(got[0], want[0], rtol=1e-12)
            assert_same(got[1], want[1], rtol=1e-12)
        else:
            assert_same(got, want, rtol=1e-12 if want.dtype == np.float64 else 1e-6)
    assert sum(c[0] for c in _fallback.counts.values()) == before
    for kw, err in (({"weights": w[0]}, TypeError), ({"axis": 1, "weights": w[0]}, ValueError),
                    ({"weights": np.zeros_like(a)}, ZeroDivisionError)):
        with pytest.raises(err):
            np.average(a, **kw)
        with pytest.raises(err):
            ng.average(ng.asarray(a), **{k: ng.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})


def test_ascontiguousarray_and_array_order_c():
    """ascontiguousarray: a C-contiguous array (a copy of a transposed or strided view, the array
    itself when it is one), at least 1-d, dtype= casts; array(order='C') of a view likewise, and
    copy=False of one NumPy's ValueError."""
    m = np.arange(12.0).reshape(3, 4)
    g = ng.asarray(m)
    for v, gv in ((m.T, g.T), (m[:, ::2], g[:, ::2]), (m, g), (np.float64(2.5), 2.5)):
        got, want = ng.ascontiguousarray(gv), np.ascontiguousarray(v)
        assert_same(got, want)
        assert got.flags.c_contiguous
    assert ng.ascontiguousarray(g) is g
    assert_same(ng.ascontiguousarray(g.T, dtype=np.float32), np.ascontiguousarray(m.T, dtype=np.float32))
    assert ng.array(g.T, order="C").flags.c_contiguous and ng.array(g.T, copy=None, order="C").flags.c_contiguous
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        ng.array(g.T, copy=False, order="C")
    assert ng.array(g, copy=False, order="C") is g


def test_nan_to_num_on_the_device():
    """nan_to_num: NumPy's values (both parts of complex data, nan/posinf/neginf given or the
    dtype's extremes), integers unchanged, in place with copy=False (a NumPy array stays NumPy's
    and changes), no fallback."""
    x = np.array([1.0, np.nan, np.inf, -np.inf, -0.0, 2.5])
    c = x.astype(np.complex128)
    c.imag = [np.nan, 1, -np.inf, 2, np.inf, 0]
    before = sum(n[0] for n in _fallback.counts.values())
    for v in (x, x.astype(np.float32), c, c.astype(np.complex64), np.arange(4), x.reshape(2, 3)):
        for kw in ({}, {"nan": -1.0, "posinf": 7.0}, {"neginf": -3.0}):
            assert_same(ng.nan_to_num(ng.asarray(v), **kw), np.nan_to_num(v, **kw))
    g = ng.asarray(x)
    assert ng.nan_to_num(g, copy=False) is g
    assert_same(g, np.nan_to_num(x))
    assert sum(n[0] for n in _fallback.counts.values()) == before
    h = x.copy()
    ng.nan_to_num(h, copy=False)
    np.testing.assert_array_equal(h, np.nan_to_num(x))


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128], ids=str)
def test_powers_numpy_takes_exactly(dt):
    # x ** 2, x ** -1, x ** 1 are x * x, 1 / x, x (C's pow gives those values; numgpu's vector pow
    # was within 4 ulp of them, 30x slower); `x ** 0.5` is NumPy's operator's sqrt
    x = (np.random.default_rng(5).normal(size=1000) * 100).astype(dt)
    if dt in (np.float16, np.float32, np.float64):
        x[:6] = [-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-30 if dt != np.float16 else 1e-7]
    g = ng.asarray(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exps = [2, 2.0, -1, 1, 1.0, 0.5] if dt in (np.complex64, np.complex128) else \
            [2, 2.0, -1, -1.0, 1, 1.0, 0.5] + ([np.float64(2), np.int64(-1)] if dt == np.float64 else [])
        for e in exps:
            if np.iscomplexobj(x) and e in (-1,):
                continue
            want = x ** e
            got = g ** e
            assert got.dtype == want.dtype and np.array_equal(got.get(), want, equal_nan=True), e
            if e != 0.5 and not np.iscomplexobj(x):
                assert np.array_equal(ng.power(g, e).get(), np.power(x, e), equal_nan=True), e
        y = g.copy()
        y **= 2
        assert np.array_equal(y.get(), x ** 2, equal_nan=True)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64], ids=str)
def test_integer_squares_wrap_as_numpys(dt):
    # x ** 2 and x ** 1 of integers: NumPy's wrapping products (the power loop, 8x slower before)
    x = np.random.default_rng(6).integers(-300, 300, 2000).astype(dt)
    g = ng.asarray(x)
    for e in (2, 1, np.int64(2), 3, 0):
        assert_same(g ** e, x ** e)
        assert_same(ng.power(g, e), np.power(x, e))
    y = g.copy()
    y **= 2
    assert_same(y, x ** 2)
