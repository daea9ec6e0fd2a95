/* Elementwise operations: the engine that turns "one output element from
 * the same position of each input" into a kernel, NumPy's type resolution
 * for every ufunc, and the ops built on the engine (binary, unary, where,
 * astype, assignment, fill, ranges, eye).
 *
 * The engine broadcasts the inputs to the output's shape (stride 0 along
 * broadcast axes), drops axes of extent 1 and merges axes that are
 * contiguous in every operand, so most calls become a 1-d loop whose
 * innermost stride is 1 and vectorises. The kernel's cache key is the
 * resulting descriptor (op, dtypes, rank, which operands are unit-stride). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops_internal.h"

/* ---- operands ---- */

NgDevice *ng_ops_device(int n, const NgOperand *ops)
{
    for (int i = 0; i < n; i++)
        if (ops[i].array)
            return ng_array_device(ops[i].array);
    return NULL;
}

NgStatus ng_ops_same_device(int n, const NgOperand *ops)
{
    NgDevice *dev = ng_ops_device(n, ops);
    for (int i = 0; i < n; i++)
        if (ops[i].array && ng_array_device(ops[i].array) != dev)
            return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s); move one with "
                                "x.to(device)", ng_device_name(dev), ng_device_name(ng_array_device(ops[i].array)));
    return NG_OK;
}

NgStatus ng_ew_broadcast(int n, const NgOperand *ops, int *ndim, int64_t *shape)
{
    int ndims[EW_MAXIN + 1];
    const int64_t *shapes[EW_MAXIN + 1];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (ops[i].array) {
            ndims[m] = ops[i].array->ndim;
            shapes[m++] = ops[i].array->shape;
        }
    return ng_shape_broadcast(m, ndims, shapes, ndim, shape);
}

NgStatus ng_scalar_check(const NgScalar *s, NgDType dt)
{
    if (s->kind != NG_KIND_INT || !ng_dtype_is_int(dt))
        return NG_OK;
    int bits = ng_dtype_info(dt)->itemsize * 8;
    bool ok;
    if (ng_dtype_is_signed(dt))
        ok = !s->big && (bits == 64 || (s->v.i >= -(INT64_C(1) << (bits - 1)) && s->v.i < (INT64_C(1) << (bits - 1))));
    else /* (big: in [2**63, 2**64), which uint64 alone holds) */
        ok = s->big ? bits == 64 : s->v.i >= 0 && (bits == 64 || s->v.i < (INT64_C(1) << bits));
    if (ok)
        return NG_OK;
    if (s->big && dt != NG_UINT32) /* NumPy converts through C's long (uint32, uint64: unsigned long long) */
        return ng_error_set(NG_ERR_OVERFLOW, "Python int too large to convert to C long");
    if (s->big)
        return ng_error_set(NG_ERR_OVERFLOW, "Python integer %llu out of bounds for %s",
                            (unsigned long long)s->v.u, ng_dtype_info(dt)->name);
    return ng_error_set(NG_ERR_OVERFLOW, "Python integer %lld out of bounds for %s", (long long)s->v.i,
                        ng_dtype_info(dt)->name);
}

void ng_scalar_kargs(const NgScalar *s, NgDType dt, NgKArg *args, int *n)
{
    if (ng_dtype_is_complex(dt)) { /* two slots: real, imaginary */
        NgScalar re = *s;
        if (re.kind == NG_KIND_COMPLEX)
            re.kind = NG_KIND_FLOAT;
        args[(*n)++] = ng_scalar_karg(&re, NG_FLOAT64);
        args[(*n)++].f = s->kind == NG_KIND_COMPLEX ? s->im : 0.0;
        return;
    }
    args[(*n)++] = ng_scalar_karg(s, dt);
}

/* x rounded to the nearest float16 value (ties to even; beyond 65520 an
 * infinity), as a double: NumPy casts a Python float to float16 before an
 * op of float16 arrays uses it, and the kernels would only round it to
 * float. */
static double round_to_half(double x)
{
    if (!isfinite(x) || x == 0)
        return x;
    int e;
    frexp(x, &e);                            /* |x| = m 2^e, 0.5 <= m < 1 */
    double q = ldexp(1.0, e - 11 > -24 ? e - 11 : -24); /* the spacing of halves near x (subnormal: 2^-24) */
    double r = nearbyint(x / q) * q;
    return fabs(r) >= 65520.0 ? copysign(INFINITY, x) : r;
}

NgKArg ng_scalar_karg(const NgScalar *s, NgDType dt)
{
    NgKArg a;
    if (ng_dtype_is_float(dt)) {
        a.f = s->kind >= NG_KIND_FLOAT ? s->v.f : s->big ? (double)s->v.u : (double)s->v.i;
        if (dt == NG_FLOAT16)
            a.f = round_to_half(a.f);
    } else if (s->kind >= NG_KIND_FLOAT) {
        a.i = isfinite(s->v.f) ? (int64_t)s->v.f : 0;
    } else {
        a.i = s->v.i;
    }
    return a;
}

/* ---- the engine ---- */

typedef struct EwPlan {
    EwKey key;
    int ndim;                              /* collapsed rank */
    int64_t shape[NG_MAXDIMS];             /* collapsed shape */
    int64_t strides[EW_MAXIN + 1][NG_MAXDIMS]; /* element strides: [0] output, [1+i] input i */
} EwPlan;

/* The dtype op gives computing in dtype c (before a cast into out=): bool for
 * comparisons and predicates, the real dtype for the absolute value of a
 * complex, c itself otherwise. */
NgDType ng_op_result_of(NgOp op, NgDType c)
{
    switch (op) {
    case NG_OP_EQ: case NG_OP_NE: case NG_OP_LT: case NG_OP_LE: case NG_OP_GT: case NG_OP_GE:
    case NG_OP_LOGAND: case NG_OP_LOGOR: case NG_OP_LOGXOR: case NG_OP_LOGNOT:
    case NG_OP_ISNAN: case NG_OP_ISINF: case NG_OP_ISFINITE: case NG_OP_SIGNBIT:
        return NG_BOOL;
    case NG_OP_ABS:
        return ng_dtype_real(c);
    case NG_OP_BITWISE_COUNT:
        return NG_UINT8;
    case NG_OP_FREXP_EXPONENT:
        return NG_INT32;
    default:
        return c;
    }
}

/* The 2-d loops over vars[0] < ext[0], vars[1] < ext[1] in tile x tile tiles, the rows
 * of tiles parallel: a tile's rows of every operand (`tile` of an array read across its rows,
 * as many cache lines) stay in cache while it is done, where the plain loops fetch a line of
 * that array for each element and find it evicted by the time the next row needs it. */
static NgIrRef tiles(NgIrKernel *k, int nd, const int *vars, const NgIrRef *ext, NgIrRef body, int64_t tile)
{
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef side = ng_ir_const_i(k, NG_INT64, tile);
    int t[2] = {ng_ir_var(k, NG_INT64), ng_ir_var(k, NG_INT64)};
    int a = nd - 2; /* the tiled pair: the last two axes; any before them loop outside, the first in parallel */
    /* (rows of at most 4 tiles in one tile: no narrow last tile) */
    NgIrRef wide = ng_ir_select(k, ng_ir_binary(k, NG_OP_LE, NG_BOOL, ext[a + 1], ng_ir_const_i(k, NG_INT64, 4 * tile)),
                                ext[a + 1], side);
    for (int d = 1; d >= 0; d--) { /* the loops inside a tile, the last axis innermost */
        NgIrRef from = ng_ir_varref(k, t[d]);
        NgIrRef to = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_INT64, from, d ? wide : side), ext[a + d]);
        body = ng_ir_for(k, vars[a + d], from, to, one, body, 0);
    }
    body = ng_ir_for(k, t[1], zero, ext[a + 1], wide, body, 0);
    body = ng_ir_for(k, t[0], zero, ext[a], side, body, nd == 2 ? NG_IR_PARALLEL : 0);
    for (int d = a - 1; d >= 0; d--)
        body = ng_ir_for(k, vars[d], zero, ext[d], one, body, d == 0 ? NG_IR_PARALLEL : 0);
    return body;
}

/* The side of the cpu target's tiles for the kernel of `key`, by its widest element: EW_TILE
 * (32) for 8 bytes, 64 for 4, 128 for 1 or 2, so a tile's row spans a few cache lines (32 int8s
 * fill half of one; 1000x1000 transposed copies, minima of 15 runs on the loaded machine: int8
 * 0.84 -> 0.37 ms, int16 1.1-1.4 -> 0.41-0.45, float32 0.86-0.96 -> 0.60-0.64, NumPy 0.54, 0.59,
 * 0.72). */
static int64_t cpu_tile(const EwKey *key)
{
    int widest = ng_dtype_info((NgDType)key->out)->itemsize;
    for (int i = 0; i < key->nin; i++)
        if (!key->in_scalar[i] && ng_dtype_info((NgDType)key->in_dtype[i])->itemsize > widest)
            widest = ng_dtype_info((NgDType)key->in_dtype[i])->itemsize;
    return widest <= 2 ? 4 * EW_TILE : widest == 4 ? 2 * EW_TILE : EW_TILE;
}

/* The 2-d box vars[0] < ext[0], vars[1] < ext[1] as one flat parallel loop (GPU targets) whose
 * points go tile by tile: point t is row (t % EW_TILE^2) / EW_TILE, column t % EW_TILE of tile
 * t / EW_TILE^2 (tiles in row order; points past the box's edge do nothing). A block of threads
 * then covers a few whole rows of one tile, so each memory sector it fetches of an array read
 * across its rows serves the tile's next rows from the L1 cache, where plain row order touches
 * that sector again only a whole output row later. The loop's trips: flat_tile_trips. */
static NgIrRef flat_tiles(NgIrKernel *k, const int *vars, const NgIrRef *ext, NgIrRef body)
{
    NgIrRef side = ng_ir_const_i(k, NG_INT64, EW_TILE);
    NgIrRef area = ng_ir_const_i(k, NG_INT64, EW_TILE * EW_TILE), zero = ng_ir_const_i(k, NG_INT64, 0);
    int t = ng_ir_var(k, NG_INT64);
    NgIrRef tv = ng_ir_varref(k, t);
    /* tiles per row of tiles, ceil(ext[1] / EW_TILE); operands >= 0, so C's division is the floor */
    NgIrRef across = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_INT64, ext[1],
                                  ng_ir_const_i(k, NG_INT64, EW_TILE - 1)), side);
    NgIrRef tile = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, tv, area);
    NgIrRef in = ng_ir_binary(k, NG_OP_MOD, NG_INT64, tv, area);
    NgIrRef trow = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, tile, across); /* (the one run-time division) */
    NgIrRef tcol = ng_ir_binary(k, NG_OP_SUB, NG_INT64, tile, ng_ir_binary(k, NG_OP_MUL, NG_INT64, trow, across));
    NgIrRef row = ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, trow, side),
                               ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, in, side));
    NgIrRef col = ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, tcol, side),
                               ng_ir_binary(k, NG_OP_MOD, NG_INT64, in, side));
    NgIrRef inside = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, ng_ir_varref(k, vars[0]), ext[0]),
                                  ng_ir_binary(k, NG_OP_LT, NG_BOOL, ng_ir_varref(k, vars[1]), ext[1]));
    NgIrRef stmts[3] = {ng_ir_let(k, vars[0], row), ng_ir_let(k, vars[1], col), ng_ir_if(k, inside, body, NG_IR_NONE)};
    NgIrRef total = ng_ir_binary(k, NG_OP_MUL, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, across, area),
                                 ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_INT64, ext[0],
                                              ng_ir_const_i(k, NG_INT64, EW_TILE - 1)), side));
    return ng_ir_for(k, t, zero, total, ng_ir_const_i(k, NG_INT64, 1), ng_ir_block(k, 3, stmts), NG_IR_PARALLEL);
}

/* Trips of flat_tiles' loop over an n0 x n1 box: whole tiles. */
static int64_t flat_tile_trips(int64_t n0, int64_t n1)
{
    return (n0 + EW_TILE - 1) / EW_TILE * ((n1 + EW_TILE - 1) / EW_TILE) * EW_TILE * EW_TILE;
}

/* ---- floating-point errors (NumPy's errstate), judged from values ---- */

/* The NG_FPE_* categories op computing in dtype c can raise in NumPy (its
 * IEEE flags, or the integer loops' explicit checks); 0 for ops that never
 * do (comparisons, max/min, rounding, ...) and for complex loops (not
 * judged yet). */
static unsigned op_fpe(NgOp op, NgDType c)
{
    const unsigned DOI = NG_FPE_DIVIDE | NG_FPE_OVERFLOW | NG_FPE_INVALID;
    if (ng_dtype_is_int(c) || c == NG_BOOL) {
        switch (op) {
        case NG_OP_FLOORDIV: return ng_dtype_is_signed(c) ? NG_FPE_DIVIDE | NG_FPE_OVERFLOW : NG_FPE_DIVIDE;
        case NG_OP_MOD: case NG_OP_FMOD: return NG_FPE_DIVIDE;
        case NG_OP_RECIPROCAL: return NG_FPE_DIVIDE | NG_FPE_INVALID;
        default: return 0;
        }
    }
    if (!ng_dtype_is_float(c))
        return 0;
    switch (op) {
    case NG_OP_ADD: case NG_OP_SUB: case NG_OP_MUL: case NG_OP_SQUARE: case NG_OP_LDEXP:
    case NG_OP_EXP: case NG_OP_EXP2: case NG_OP_EXPM1: case NG_OP_SINH: case NG_OP_COSH:
    case NG_OP_I0: /* (NumPy's i0 warns of exp's overflow, and of inf / inf at the infinities) */
        return NG_FPE_OVERFLOW | NG_FPE_INVALID;
    case NG_OP_TRUEDIV: case NG_OP_FLOORDIV: case NG_OP_POW: case NG_OP_RECIPROCAL:
        return DOI;
    case NG_OP_LOG: case NG_OP_LOG2: case NG_OP_LOG10: case NG_OP_LOG1P: case NG_OP_ARCTANH:
        return NG_FPE_DIVIDE | NG_FPE_INVALID;
    case NG_OP_MOD: case NG_OP_FMOD: case NG_OP_SQRT: case NG_OP_ARCSIN: case NG_OP_ARCCOS:
    case NG_OP_ARCCOSH: case NG_OP_SIN: case NG_OP_COS: case NG_OP_TAN:
        return NG_FPE_INVALID;
    default:
        return 0;
    }
}

/* The categories a cast from dtype f to dtype t can raise: a finite float
 * turned infinite by a narrower float dtype (or an integer too large for
 * float16): overflow; a NaN, infinity or out-of-range float cast to an
 * integer: invalid. */
static unsigned cast_fpe(NgDType f, NgDType t)
{
    if (f == t || t == NG_BOOL || ng_dtype_is_complex(f) || ng_dtype_is_complex(t))
        return 0;
    if (ng_dtype_is_float(f) && ng_dtype_is_int(t))
        return NG_FPE_INVALID;
    if (ng_dtype_is_float(t) && ng_dtype_info(t)->itemsize < ng_dtype_info(f)->itemsize)
        return ng_dtype_is_float(f) || t == NG_FLOAT16 ? NG_FPE_OVERFLOW : 0;
    if (t == NG_FLOAT16 && ng_dtype_is_int(f) && ng_dtype_info(f)->itemsize >= 2)
        return NG_FPE_OVERFLOW; /* (65520 and up round to infinity) */
    return 0;
}

/* Whether expression x reads an array element. */
static bool loads(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_LOAD)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (loads(k, ng_ir_kid(k, x, i)))
            return true;
    return false;
}

/* The flags' `and` and `or`, the side that reads an element first: every load of an elementwise
 * kernel is in bounds, and the emitter evaluates a right side that loads nothing more eagerly
 * (`&`, no branch). A short-circuit on a left side without loads (a scalar operand's test,
 * `s == 0 && ...`) is a branch on a loop invariant: GCC unswitched the loop on it and left the
 * copies scalar (float `a / 7.0` ran at 0.18x NumPy's speed until 2026-12-07). */
static NgIrRef b_logic(NgIrKernel *k, NgOp op, NgIrRef a, NgIrRef b)
{
    bool swap = !loads(k, a) && loads(k, b);
    return ng_ir_binary(k, op, NG_BOOL, swap ? b : a, swap ? a : b);
}
static NgIrRef b_and(NgIrKernel *k, NgIrRef a, NgIrRef b) { return b_logic(k, NG_OP_LOGAND, a, b); }
static NgIrRef b_or(NgIrKernel *k, NgIrRef a, NgIrRef b) { return b_logic(k, NG_OP_LOGOR, a, b); }
static NgIrRef b_not(NgIrKernel *k, NgIrRef a) { return ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, a); }
static NgIrRef is_nan(NgIrKernel *k, NgIrRef x) { return ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x); }
static NgIrRef is_inf(NgIrKernel *k, NgIrRef x) { return ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, x); }
static NgIrRef is_finite(NgIrKernel *k, NgIrRef x) { return ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, x); }
static NgIrRef cmp(NgIrKernel *k, NgOp op, NgIrRef x, double v)
{
    NgDType t = (NgDType)ng_ir_node(k, x)->dtype;
    return ng_ir_binary(k, op, NG_BOOL, x, ng_dtype_is_float(t) ? ng_ir_const_f(k, t, v) : ng_ir_const_i(k, t, (int64_t)v));
}
/* `bit` as an int32 where cond holds, else 0 */
static NgIrRef fpe_bit(NgIrKernel *k, NgIrRef cond, unsigned bit)
{
    return ng_ir_select(k, cond, ng_ir_const_i(k, NG_INT32, bit), ng_ir_const_i(k, NG_INT32, 0));
}
static NgIrRef bits_or(NgIrKernel *k, NgIrRef a, NgIrRef b)
{
    return a == NG_IR_NONE ? b : ng_ir_binary(k, NG_OP_BITOR, NG_INT32, a, b);
}

/* The NG_FPE_* bits (an int32 expression, within `cats`) of r = op(x[, y])
 * computed in dtype c, judged from the values as NumPy's loops flag them:
 * - divide: an exact infinity from finite operands, per op (a finite
 *   nonzero / 0 or // 0, log(0), log1p(-1), arctanh(+-1), reciprocal(0),
 *   0 ** negative), and integer // 0, % 0, fmod(, 0);
 * - overflow: an infinity from finite operands that is not a divide; signed
 *   integer MIN // -1;
 * - invalid: a NaN from operands that are not NaN (0/0, inf - inf, sqrt(-1),
 *   sin(inf), x % 0); integer reciprocal(0); float // overflowing to an
 *   infinity (NumPy's rounding step subtracts inf - inf). */
static NgIrRef fpe_bits(NgIrKernel *k, NgOp op, NgDType c, unsigned cats, NgIrRef x, NgIrRef y, NgIrRef r)
{
    NgIrRef bits = NG_IR_NONE;
    if (!ng_dtype_is_float(c)) { /* integer loops */
        NgIrRef zero = cmp(k, NG_OP_EQ, op == NG_OP_RECIPROCAL ? x : y, 0);
        unsigned div = op == NG_OP_RECIPROCAL ? NG_FPE_DIVIDE | NG_FPE_INVALID : NG_FPE_DIVIDE;
        bits = fpe_bit(k, zero, div & cats);
        if (op == NG_OP_FLOORDIV && ng_dtype_is_signed(c) && (cats & NG_FPE_OVERFLOW)) {
            int bitsz = ng_dtype_info(c)->itemsize * 8;
            int64_t min = bitsz == 64 ? INT64_MIN : -(INT64_C(1) << (bitsz - 1));
            NgIrRef ovf = b_and(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, x, ng_ir_const_i(k, c, min)), cmp(k, NG_OP_EQ, y, -1));
            bits = bits_or(k, bits, fpe_bit(k, ovf, NG_FPE_OVERFLOW));
        }
        return bits;
    }
    bool two = y != NG_IR_NONE && op != NG_OP_LDEXP; /* (ldexp's int exponent is always finite, never NaN) */
    NgIrRef div = NG_IR_NONE;
    switch (op) {
    case NG_OP_TRUEDIV: case NG_OP_FLOORDIV:
        div = b_and(k, cmp(k, NG_OP_EQ, y, 0), b_and(k, is_finite(k, x), cmp(k, NG_OP_NE, x, 0)));
        break;
    case NG_OP_POW: div = b_and(k, cmp(k, NG_OP_EQ, x, 0), cmp(k, NG_OP_LT, y, 0)); break;
    case NG_OP_RECIPROCAL: case NG_OP_LOG: case NG_OP_LOG2: case NG_OP_LOG10: div = cmp(k, NG_OP_EQ, x, 0); break;
    case NG_OP_LOG1P: div = cmp(k, NG_OP_EQ, x, -1); break;
    case NG_OP_ARCTANH: div = cmp(k, NG_OP_EQ, ng_ir_unary(k, NG_OP_ABS, c, x), 1); break;
    default: break;
    }
    if (div != NG_IR_NONE && (cats & NG_FPE_DIVIDE))
        bits = fpe_bit(k, div, NG_FPE_DIVIDE);
    if (cats & NG_FPE_OVERFLOW) {
        NgIrRef ovf = b_and(k, is_inf(k, r), is_finite(k, x));
        if (two)
            ovf = b_and(k, ovf, is_finite(k, y));
        if (div != NG_IR_NONE)
            ovf = b_and(k, ovf, b_not(k, div));
        bits = bits_or(k, bits, fpe_bit(k, ovf, NG_FPE_OVERFLOW));
    }
    if (cats & NG_FPE_INVALID) {
        NgIrRef inv = b_and(k, is_nan(k, r), b_not(k, two ? b_or(k, is_nan(k, x), is_nan(k, y)) : is_nan(k, x)));
        if (op == NG_OP_FLOORDIV) /* npy_divmod's quotient overflowed: its `div - floor(div)` is inf - inf */
            inv = b_or(k, inv, b_and(k, b_and(k, is_inf(k, r), b_and(k, is_finite(k, x), is_finite(k, y))), cmp(k, NG_OP_NE, y, 0)));
        bits = bits_or(k, bits, fpe_bit(k, inv, NG_FPE_INVALID));
    }
    return bits;
}

/* The bits of value v (dtype f) cast to dtype t, the cast's result `cast`
 * (cats from cast_fpe). Float to integer follows the x86-64 conversions
 * NumPy's casts compile to: to 1- to 4-byte integers through int32, to
 * int64 and uint32 through int64, to uint64 through int64 below 2^63 and
 * by subtracting 2^63 above, invalid where that conversion is out of range
 * (-1.0 to uint8 wraps without a flag, 1e10 to int16 is flagged). */
static NgIrRef cast_bits(NgIrKernel *k, NgDType f, NgDType t, NgIrRef v, NgIrRef cast)
{
    if (ng_dtype_is_int(t)) {
        NgIrRef d = ng_ir_cast(k, NG_FLOAT64, v);
        int size = ng_dtype_info(t)->itemsize;
        double lo = size <= 4 && t != NG_UINT32 ? -2147483649.0 : -9223372036854775808.0;
        double hi = size <= 4 && t != NG_UINT32 ? 2147483648.0 : t == NG_UINT64 ? 18446744073709551616.0
                                                                            : 9223372036854775808.0;
        NgIrRef inrange = b_and(k, ng_ir_binary(k, lo == -2147483649.0 ? NG_OP_GT : NG_OP_GE, NG_BOOL, d,
                                                ng_ir_const_f(k, NG_FLOAT64, lo)),
                                cmp(k, NG_OP_LT, d, hi));
        return fpe_bit(k, b_not(k, inrange), NG_FPE_INVALID);
    }
    NgIrRef ovf = is_inf(k, cast);
    if (ng_dtype_is_float(f))
        ovf = b_and(k, ovf, is_finite(k, v));
    return fpe_bit(k, ovf, NG_FPE_OVERFLOW);
}

/* IR: nested loops over the output, outermost parallel; the body stores the
 * op of the loaded (or scalar) inputs, computed in the op's own dtype and
 * then cast to the output's (out= may be wider: NumPy rounds the loop's
 * result, a float16 one to half, before the cast). */
static NgStatus build_ew(const void *ctx, NgIrKernel *k)
{
    const EwKey *key = ctx;
    int nd = key->ndim;
    NgDType compute = (NgDType)key->compute, outdt = (NgDType)key->out;
    int out = ng_ir_param_array(k, outdt, nd, key->out_contig, true);
    int par[EW_MAXIN];
    for (int i = 0; i < key->nin; i++)
        par[i] = key->in_scalar[i] ? ng_ir_param_scalar(k, (NgDType)key->in_dtype[i])
                                   : ng_ir_param_array(k, (NgDType)key->in_dtype[i], nd, key->in_contig[i], false);
    int vars[NG_MAXDIMS];
    NgIrRef idx[NG_MAXDIMS];
    for (int d = 0; d < nd; d++) {
        vars[d] = ng_ir_var(k, NG_INT64);
        idx[d] = ng_ir_varref(k, vars[d]);
    }
    NgIrRef in[EW_MAXIN];
    for (int i = 0; i < key->nin; i++)
        in[i] = key->in_scalar[i] ? ng_ir_scalar(k, par[i]) : ng_ir_load(k, par[i], nd, idx);
    NgIrRef value, x = NG_IR_NONE, y = NG_IR_NONE;
    switch ((EwKind)key->kind) {
    case EW_UNARY:
        x = ng_ir_cast(k, compute, in[0]);
        value = ng_ir_unary(k, (NgOp)key->op, ng_op_result_of((NgOp)key->op, compute), x);
        break;
    case EW_BINARY:
        x = ng_ir_cast(k, compute, in[0]);
        y = ng_ir_cast(k, key->op == NG_OP_LDEXP ? NG_INT64 : compute, in[1]); /* (ldexp's exponent) */
        value = ng_ir_binary(k, (NgOp)key->op, ng_op_result_of((NgOp)key->op, compute), x, y);
        break;
    case EW_WHERE:
        value = ng_ir_select(k, ng_ir_cast(k, NG_BOOL, in[0]), ng_ir_cast(k, outdt, in[1]), ng_ir_cast(k, outdt, in[2]));
        break;
    case EW_CLIP: { /* NumPy's clip loop: the maximum's, then the minimum's NaN propagation */
        int at = 1;
        value = ng_ir_cast(k, compute, in[0]);
        if (key->op & EW_CLIP_LO)
            value = ng_ir_binary(k, NG_OP_MAXIMUM, compute, value, ng_ir_cast(k, compute, in[at++]));
        if (key->op & EW_CLIP_HI)
            value = ng_ir_binary(k, NG_OP_MINIMUM, compute, value, ng_ir_cast(k, compute, in[at]));
        break;
    }
    case EW_COPY:
        value = in[0];
        break;
    case EW_NAN_TO_NUM: {
        NgIrRef v = ng_ir_cast(k, compute, in[0]);
        NgIrRef inf = ng_ir_select(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, v, ng_ir_const_f(k, compute, 0.0)),
                                   ng_ir_cast(k, compute, in[2]), ng_ir_cast(k, compute, in[3]));
        value = ng_ir_select(k, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, v), ng_ir_cast(k, compute, in[1]),
                             ng_ir_select(k, ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, v), inf, v));
        break;
    }
    case EW_RANGE: {
        /* flat index from the (at most 1-d) loop; value computed in `compute` */
        NgIrRef i = ng_ir_cast(k, compute, nd ? idx[0] : ng_ir_const_i(k, NG_INT64, 0));
        value = ng_ir_binary(k, NG_OP_ADD, compute, in[0], ng_ir_binary(k, NG_OP_MUL, compute, i, in[1]));
        if (key->nin > 2) { /* linspace: the last element is exactly `stop` */
            NgIrRef last = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, idx[0],
                                        ng_ir_binary(k, NG_OP_SUB, NG_INT64, ng_ir_shape(k, out, 0), ng_ir_const_i(k, NG_INT64, 1)));
            value = ng_ir_select(k, last, in[2], value);
        }
        break;
    }
    case EW_ROUND: { /* NumPy's three ufunc calls, each result in the array's dtype, in one pass */
        bool mul = key->op == NG_OP_MUL;
        x = ng_ir_cast(k, compute, in[0]);
        NgIrRef f = ng_ir_cast(k, compute, in[1]);
        NgIrRef r = ng_ir_unary(k, NG_OP_RINT, compute, ng_ir_binary(k, mul ? NG_OP_MUL : NG_OP_TRUEDIV, compute, x, f));
        value = ng_ir_binary(k, mul ? NG_OP_TRUEDIV : NG_OP_MUL, compute, r, f);
        break;
    }
    case EW_EYE: {
        NgIrRef diff = ng_ir_binary(k, NG_OP_SUB, NG_INT64, idx[1], idx[0]);
        value = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, diff, in[0]);
        break;
    }
    default:
        return ng_error_set(NG_ERR_INTERNAL, "bad elementwise kind %d", key->kind);
    }
    NgIrRef ext[NG_MAXDIMS];
    for (int d = 0; d < nd; d++)
        ext[d] = ng_ir_shape(k, out, d);
    NgIrRef stored = ng_ir_cast(k, outdt, value), body = ng_ir_store(k, out, nd, idx, stored);
    bool tiled = key->tiled && (nd == 2 || (nd > 2 && !key->flat));
    if (!key->fpe) {
        k->body = !tiled ? ng_ir_box(k, nd, vars, ext, body, key->flat)
                  : key->flat ? flat_tiles(k, vars, ext, body) : tiles(k, nd, vars, ext, body, cpu_tile(key));
        return k->status;
    }
    /* the flag word: each element's bits ORed into a reduction variable over the
     * box, stored into the rank-0 int32 parameter after it (on GPUs an atomic OR
     * per block into a word the launch zeroed) */
    int flag = ng_ir_param_array(k, NG_INT32, 0, false, true), vf = ng_ir_var(k, NG_INT32);
    NgDType vt = (NgDType)ng_ir_node(k, value)->dtype;
    int vr = ng_ir_var(k, vt); /* (the value once: the emitters would write its expression at each use) */
    NgIrRef let = ng_ir_let(k, vr, value);
    value = ng_ir_varref(k, vr);
    stored = ng_ir_cast(k, outdt, value);
    body = ng_ir_store(k, out, nd, idx, stored);
    NgIrRef bits = NG_IR_NONE;
    unsigned opc = key->kind == EW_UNARY || key->kind == EW_BINARY ? op_fpe((NgOp)key->op, compute) & key->fpe : 0;
    if (opc)
        bits = fpe_bits(k, (NgOp)key->op, compute, opc, x, y, value);
    if (key->kind == EW_ROUND && (key->fpe & NG_FPE_OVERFLOW)) /* (with a finite power of ten, only a multiply
                                                                * can overflow, and inf stays inf) */
        bits = fpe_bit(k, b_and(k, is_inf(k, value), is_finite(k, x)), NG_FPE_OVERFLOW);
    if (cast_fpe(vt, outdt) & key->fpe)
        bits = bits_or(k, bits, cast_bits(k, vt, outdt, value, stored));
    NgIrRef fv = ng_ir_varref(k, vf);
    /* (the bits before the store: in place, the store overwrites the operands they read) */
    NgIrRef each[3] = {let, ng_ir_assign(k, vf, ng_ir_binary(k, NG_OP_BITOR, NG_INT32, fv, bits)), body};
    NgIrRef each_block = ng_ir_block(k, 3, each);
    NgIrRef box = !tiled ? ng_ir_box(k, nd, vars, ext, each_block, key->flat)
                  : key->flat ? flat_tiles(k, vars, ext, each_block) : tiles(k, nd, vars, ext, each_block, cpu_tile(key));
    if (nd > 0)
        ng_ir_reduce(k, box, vf, NG_OP_BITOR);
    NgIrRef stmts[3] = {ng_ir_let(k, vf, ng_ir_const_i(k, NG_INT32, 0)), box, ng_ir_store(k, flag, 0, NULL, fv)};
    k->body = ng_ir_block(k, 3, stmts);
    return k->status;
}

/* The categories (within the thread's check mask) the kernel of `key` must
 * judge: the op's own and its result's cast into the output's dtype. */
static unsigned kernel_fpe(const EwKey *key)
{
    unsigned mask = ng_fpe_mask();
    if (!mask)
        return 0;
    NgDType compute = (NgDType)key->compute, outdt = (NgDType)key->out, vt = compute;
    unsigned cats = 0;
    switch ((EwKind)key->kind) {
    case EW_UNARY: case EW_BINARY:
        cats = op_fpe((NgOp)key->op, compute);
        vt = ng_op_result_of((NgOp)key->op, compute);
        break;
    case EW_COPY:
        vt = (NgDType)key->in_dtype[0];
        break;
    case EW_ROUND:
        cats = NG_FPE_OVERFLOW;
        break;
    default:
        return 0;
    }
    return (cats | cast_fpe(vt, outdt)) & mask;
}

/* Element strides of array a viewed at the output's (broadcast) shape. */
static void broadcast_strides(const NgArray *a, int ndim, int64_t *out)
{
    int off = ndim - a->ndim, item = ng_dtype_info(a->dtype)->itemsize;
    for (int d = 0; d < ndim; d++) {
        int ad = d - off;
        out[d] = (ad < 0 || a->shape[ad] == 1) ? 0 : a->strides[ad] / item;
    }
}

/* Drops extent-1 axes and merges axes contiguous in every operand. */
static void collapse(EwPlan *p, int nops, const int64_t *shape, int ndim)
{
    int nd = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 1)
            continue;
        bool merge = nd > 0;
        for (int o = 0; o < nops && merge; o++)
            merge = p->strides[o][nd - 1] == p->strides[o][d] * shape[d];
        if (merge) {
            p->shape[nd - 1] *= shape[d];
            for (int o = 0; o < nops; o++)
                p->strides[o][nd - 1] = p->strides[o][d];
            continue;
        }
        p->shape[nd] = shape[d];
        for (int o = 0; o < nops; o++)
            p->strides[o][nd] = p->strides[o][d];
        nd++;
    }
    p->ndim = nd;
}

/* Whether the collapsed 2-d loops of plan p (axis 1 inner) cross the rows of one of its nops
 * operands (stride 0 for scalars) while running along another's: one steps further along axis 1
 * than along axis 0, another no further (a transposed copy, either way round), and both axes are
 * long enough for tiles to pay. */
static bool across_rows(const EwPlan *p, int nops)
{
    int a = p->ndim - 2; /* (the last two axes of a plan of any rank) */
    if (p->shape[a] < EW_TILE || p->shape[a + 1] < EW_TILE)
        return false;
    bool across = false, along = false;
    for (int o = 0; o < nops; o++) {
        int64_t s0 = p->strides[o][a] < 0 ? -p->strides[o][a] : p->strides[o][a];
        int64_t s1 = p->strides[o][a + 1] < 0 ? -p->strides[o][a + 1] : p->strides[o][a + 1];
        if (s0 == 0 || s1 == 0)
            continue;
        across = across || s1 > s0;
        along = along || s1 <= s0;
    }
    return across && along;
}

/* The axis (before the last) along which an operand of plan p steps least, where another
 * operand steps least along the last axis: a permuted copy's (x.transpose(1, 2, 0).copy()) pair of
 * axes to tile; -1 when there is none. */
static int tile_axis(const EwPlan *p, int nops)
{
    int last = p->ndim - 1, axis = -1;
    bool along = false;
    for (int o = 0; o < nops; o++) {
        int best = -1;
        int64_t bs = 0;
        for (int d = 0; d <= last; d++) {
            int64_t sd = p->strides[o][d] < 0 ? -p->strides[o][d] : p->strides[o][d];
            if (sd != 0 && (best < 0 || sd < bs)) {
                best = d;
                bs = sd;
            }
        }
        if (best == last)
            along = true;
        else if (best >= 0 && axis < 0)
            axis = best;
    }
    return along ? axis : -1;
}

/* Moves axis `from` of plan p to just before the last (the loops' order only: each point still
 * reads and writes its own elements). */
static void move_to_tile(EwPlan *p, int nops, int from)
{
    int to = p->ndim - 2;
    for (int o = 0; o < nops; o++) {
        int64_t s = p->strides[o][from];
        memmove(&p->strides[o][from], &p->strides[o][from + 1], sizeof(int64_t) * (size_t)(to - from));
        p->strides[o][to] = s;
    }
    int64_t n = p->shape[from];
    memmove(&p->shape[from], &p->shape[from + 1], sizeof(int64_t) * (size_t)(to - from));
    p->shape[to] = n;
}

NgStatus ng_ew_run(EwKind kind, NgOp op, NgDType compute, const NgArray *out, int nin, const EwInput *in)
{
    if (out->size == 0)
        return NG_OK;
    EwPlan p;
    memset(&p, 0, sizeof p);
    int nd = out->ndim;
    const NgArray *ops[EW_MAXIN + 1] = {out};
    for (int i = 0; i < nin; i++)
        ops[1 + i] = in[i].array;
    for (int o = 0; o <= nin; o++) {
        if (ops[o])
            broadcast_strides(ops[o], nd, p.strides[o]);
        else
            memset(p.strides[o], 0, sizeof p.strides[o]);
    }
    if (kind == EW_EYE || kind == EW_RANGE) { /* the index is meaningful: keep the axes */
        p.ndim = nd;
        memcpy(p.shape, out->shape, sizeof(int64_t) * (size_t)nd);
    } else {
        collapse(&p, nin + 1, out->shape, nd);
    }
    EwKey *key = &p.key;
    key->tag = 'E';
    key->kind = (uint8_t)kind;
    key->op = (uint8_t)op;
    key->compute = (int8_t)compute;
    key->out = (int8_t)out->dtype;
    key->nin = (uint8_t)nin;
    key->ndim = (uint8_t)p.ndim;
    key->out_contig = p.ndim > 0 && p.strides[0][p.ndim - 1] == 1;
    for (int i = 0; i < nin; i++) {
        key->in_dtype[i] = (int8_t)in[i].dtype;
        key->in_scalar[i] = in[i].array == NULL;
        key->in_contig[i] = in[i].array && p.ndim > 0 && p.strides[1 + i][p.ndim - 1] == 1;
    }
    NgDevice *dev = ng_array_device(out);
    key->flat = dev->be->target->par != NG_PAR_OPENMP && p.ndim > 1; /* see ng_ir_box */
    if (p.ndim > 2 && !key->flat && kind != EW_RANGE && kind != EW_EYE) { /* cpu: a permuted copy of 3-d and up */
        int ax = tile_axis(&p, nin + 1);
        if (ax >= 0) {
            EwPlan moved = p;
            move_to_tile(&moved, nin + 1, ax);
            if (across_rows(&moved, nin + 1)) {
                p = moved;
                key->tiled = 1;
            }
        }
    } else {
        key->tiled = p.ndim == 2 && kind != EW_RANGE && kind != EW_EYE && across_rows(&p, nin + 1);
    }
    key->fpe = (uint8_t)kernel_fpe(key);
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, key, sizeof *key, build_ew, key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[2 + 2 * NG_MAXDIMS + EW_MAXIN * (2 + 2 * NG_MAXDIMS) + 2];
    int n = 0;
    ng_kargs_array(args, &n, out, p.ndim, p.shape, p.strides[0]);
    for (int i = 0; i < nin; i++) {
        if (in[i].array)
            ng_kargs_array(args, &n, in[i].array, p.ndim, p.shape, p.strides[1 + i]);
        else
            ng_scalar_kargs(&in[i].scalar, in[i].dtype, args, &n);
    }
    int64_t extent = !key->tiled ? (key->flat ? out->size : p.ndim ? p.shape[0] : 1)
                     : key->flat ? flat_tile_trips(p.shape[0], p.shape[1])
                     : p.ndim > 2 ? p.shape[0] : (p.shape[0] + cpu_tile(key) - 1) / cpu_tile(key);
    if (!key->fpe)
        return ng_kernel_launch(kern, args, n, extent, out->size);
    /* the flag word: a zeroed int32 the kernel ORs its elements' bits into, read
     * back after the launch (on a GPU a 4-byte download, which waits for it) */
    NgArray flag;
    int32_t word = 0;
    const char *name = ng_fpe_name(kind == EW_COPY ? "cast" : kind == EW_ROUND ? "multiply" : ng_op_name(op));
    if (ng_device_host_visible(dev)) { /* (host memory, a synchronous launch: a word of our own) */
        args[n++].p = &word;
        args[n++].i = 0;
        st = ng_kernel_launch(kern, args, n, extent, out->size);
        if (st == NG_OK)
            ng_fpe_record((unsigned)word & key->fpe, name);
        return st;
    }
    if (ng_fpe_deferrable(dev)) { /* (a GPU, and every category only warns: read at the next download) */
        if ((st = ng_fpe_defer(dev, key->fpe, name, &flag)) != NG_OK)
            return st;
        ng_kargs_array(args, &n, &flag, 0, NULL, NULL);
        st = ng_kernel_launch(kern, args, n, extent, out->size);
        ng_array_release(&flag);
        return st;
    }
    if ((st = ng_array_empty(dev, NG_INT32, 0, NULL, &flag)) != NG_OK)
        return st;
    st = ng_array_upload(&flag, &word, NULL);
    ng_kargs_array(args, &n, &flag, 0, NULL, NULL);
    if (st == NG_OK)
        st = ng_kernel_launch(kern, args, n, extent, out->size);
    if (st == NG_OK)
        st = ng_array_download(&flag, &word, NULL);
    ng_array_release(&flag);
    if (st == NG_OK)
        ng_fpe_record((unsigned)word & key->fpe, name);
    return st;
}

/* ---- type resolution (NumPy 2's loops) ---- */

static NgDType default_of_kind(NgKind k)
{
    return k == NG_KIND_BOOL ? NG_BOOL : k == NG_KIND_FLOAT ? NG_FLOAT64 : k == NG_KIND_COMPLEX ? NG_COMPLEX128
                                                                                               : NG_INT64;
}

/* Common dtype of operands: arrays are strong, Python scalars weak. */
static NgDType common_dtype(int n, const NgOperand *ops)
{
    NgDType t = NG_NODTYPE;
    for (int i = 0; i < n; i++)
        if (ops[i].array)
            t = t == NG_NODTYPE ? ops[i].array->dtype : ng_dtype_promote(t, ops[i].array->dtype);
    if (t == NG_NODTYPE) { /* only scalars: their default dtypes */
        for (int i = 0; i < n; i++) {
            NgDType d = default_of_kind(ops[i].scalar.kind);
            t = t == NG_NODTYPE ? d : ng_dtype_promote(t, d);
        }
        return t;
    }
    for (int i = 0; i < n; i++)
        if (!ops[i].array)
            t = ng_dtype_promote_weak(t, ops[i].scalar.kind);
    return t;
}

/* Float (or complex) dtype NumPy's math loops use for an input dtype: the
 * narrowest float that holds it (float16 for bool and 1-byte integers). */
static NgDType float_loop(NgDType t)
{
    if (ng_dtype_is_inexact(t))
        return t;
    int size = ng_dtype_info(t)->itemsize;
    return size == 1 ? NG_FLOAT16 : size == 2 ? NG_FLOAT32 : NG_FLOAT64;
}

static NgStatus unsupported(NgOp op, int n, const NgOperand *ops)
{
    char types[128] = "";
    for (int i = 0; i < n; i++) {
        const char *name = ops[i].array ? ng_dtype_info(ops[i].array->dtype)->name
                           : ops[i].scalar.kind == NG_KIND_FLOAT ? "float" : ops[i].scalar.kind == NG_KIND_BOOL ? "bool"
                           : ops[i].scalar.kind == NG_KIND_COMPLEX ? "complex" : "int";
        size_t at = strlen(types);
        snprintf(types + at, sizeof types - at, "%s%s", i ? ", " : "", name);
    }
    return ng_error_set(NG_ERR_TYPE, "ufunc '%s' not supported for the input types (%s), and the inputs "
                        "could not be safely coerced to any supported types according to the casting rule ''safe''",
                        ng_op_name(op), types);
}

/* ldexp's loops (NumPy's ei, fi, di, el, fl, dl -> the float): the mantissa's own float loop,
 * the exponent any integer that casts safely to int64; no promotion between the two. A Python
 * bool mantissa, or an int one beside an array exponent, is weak: float16's loop, the first. */
static NgStatus resolve_ldexp(const NgOperand *ops, NgDType *compute, NgDType *out)
{
    NgKind mk = ops[0].scalar.kind;
    NgDType m = ops[0].array ? ops[0].array->dtype
                : mk == NG_KIND_BOOL || (mk == NG_KIND_INT && ops[1].array) ? NG_FLOAT16 : default_of_kind(mk);
    NgKind ek = ops[1].array ? ng_dtype_info(ops[1].array->dtype)->kind : ops[1].scalar.kind;
    if (ng_dtype_is_complex(m) || ek == NG_KIND_FLOAT || ek == NG_KIND_COMPLEX ||
        (ops[1].array && ops[1].array->dtype == NG_UINT64))
        return unsupported(NG_OP_LDEXP, 2, ops);
    *compute = *out = float_loop(m);
    return NG_OK;
}

/* Resolves compute and output dtypes of op over n operands. */
static NgStatus resolve(NgOp op, int n, const NgOperand *ops, NgDType *compute, NgDType *out)
{
    if (op == NG_OP_LDEXP)
        return resolve_ldexp(ops, compute, out);
    NgDType c = common_dtype(n, ops);
    if (!ng_dtype_info(c)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(c)->name);
    bool isbool = c == NG_BOOL, isfloat = ng_dtype_is_inexact(c), iscomplex = ng_dtype_is_complex(c);
    *compute = *out = c;
    if (iscomplex) { /* the ufuncs with complex loops */
        switch (op) {
        case NG_OP_FLOOR: case NG_OP_CEIL: case NG_OP_TRUNC: case NG_OP_FLOORDIV: case NG_OP_MOD:
        case NG_OP_FMOD: case NG_OP_ARCTAN2: case NG_OP_HYPOT: case NG_OP_COPYSIGN: case NG_OP_NEXTAFTER:
        case NG_OP_LOGADDEXP: case NG_OP_LOGADDEXP2: case NG_OP_HEAVISIDE: case NG_OP_SIGNBIT: case NG_OP_CBRT:
        case NG_OP_GCD: case NG_OP_LCM: case NG_OP_BITWISE_COUNT: case NG_OP_FREXP: case NG_OP_FREXP_EXPONENT:
        case NG_OP_DEG2RAD: case NG_OP_RAD2DEG: case NG_OP_FABS: case NG_OP_ERF: case NG_OP_ERFC:
        case NG_OP_GAMMA: case NG_OP_LGAMMA: case NG_OP_I0:
            return unsupported(op, n, ops);
        case NG_OP_ABS:
            *out = ng_dtype_real(c);
            return NG_OK;
        default:
            break;
        }
    }
    switch (op) {
    case NG_OP_ADD: case NG_OP_MUL: case NG_OP_MAXIMUM: case NG_OP_MINIMUM: case NG_OP_FMAX: case NG_OP_FMIN:
    case NG_OP_ABS: case NG_OP_FLOOR: case NG_OP_CEIL: case NG_OP_TRUNC: case NG_OP_COPY:
        return NG_OK;
    case NG_OP_CONJUGATE: /* no bool loop: bool goes through int8 */
        if (isbool)
            *compute = *out = NG_INT8;
        return NG_OK;
    case NG_OP_SUB:
        if (isbool)
            return ng_error_set(NG_ERR_TYPE, "numpy boolean subtract, the `-` operator, is not supported, "
                                "use the bitwise_xor, the `^` operator, or the logical_xor function instead.");
        return NG_OK;
    case NG_OP_NEG: case NG_OP_POS:
        if (isbool)
            return ng_error_set(NG_ERR_TYPE, "The numpy boolean %s, the `%s` operator, is not supported, use the "
                                "`~` operator or the logical_not function instead.",
                                op == NG_OP_NEG ? "negative" : "positive", op == NG_OP_NEG ? "-" : "+");
        return NG_OK;
    case NG_OP_SIGN:
        return isbool ? unsupported(op, n, ops) : NG_OK;
    case NG_OP_FLOORDIV: case NG_OP_MOD: case NG_OP_POW: case NG_OP_SQUARE: case NG_OP_FMOD:
    case NG_OP_RECIPROCAL:
        if (isbool)
            *compute = *out = NG_INT8;
        return NG_OK;
    case NG_OP_BITAND: case NG_OP_BITOR: case NG_OP_BITXOR: case NG_OP_INVERT:
        return isfloat ? unsupported(op, n, ops) : NG_OK;
    case NG_OP_GCD: case NG_OP_LCM: /* (no bool loop, and no cast of two bools to int8 either) */
        return isfloat || isbool ? unsupported(op, n, ops) : NG_OK;
    case NG_OP_BITWISE_COUNT: /* integer loops only (bool through int8), each giving uint8 */
        if (isfloat)
            return unsupported(op, n, ops);
        *compute = isbool ? NG_INT8 : c;
        *out = NG_UINT8;
        return NG_OK;
    case NG_OP_LSHIFT: case NG_OP_RSHIFT:
        if (isfloat)
            return unsupported(op, n, ops);
        if (isbool)
            *compute = *out = NG_INT8;
        return NG_OK;
    case NG_OP_TRUEDIV:
        *compute = *out = isfloat ? c : NG_FLOAT64;
        return NG_OK;
    case NG_OP_ARCTAN2: case NG_OP_HYPOT:
        *compute = *out = float_loop(c);
        return NG_OK;
    case NG_OP_LOGAND: case NG_OP_LOGOR: case NG_OP_LOGXOR: case NG_OP_LOGNOT:
    case NG_OP_EQ: case NG_OP_NE: case NG_OP_LT: case NG_OP_LE: case NG_OP_GT: case NG_OP_GE:
    case NG_OP_ISNAN: case NG_OP_ISINF: case NG_OP_ISFINITE:
        *out = NG_BOOL;
        return NG_OK;
    case NG_OP_FREXP_EXPONENT: /* float loops only, the exponent an int32 */
        *compute = float_loop(c);
        *out = NG_INT32;
        return NG_OK;
    case NG_OP_SIGNBIT: /* NumPy's loops are float only: integers go through the float loop */
        *compute = float_loop(c);
        *out = NG_BOOL;
        return NG_OK;
    default: /* float math: exp, log, sqrt, trig, rint */
        *compute = *out = float_loop(c);
        return NG_OK;
    }
}

NgStatus ng_op_result_dtype(NgOp op, const NgOperand *a, const NgOperand *b, NgDType *out)
{
    NgOperand ops[2] = {*a, b ? *b : *a};
    NgDType compute;
    return resolve(op, b ? 2 : 1, ops, &compute, out);
}

NgStatus ng_ew_loop_dtypes(NgOp op, NgDType dt, NgDType *compute, NgDType *out)
{
    NgArray x; /* resolve reads only an array operand's dtype */
    memset(&x, 0, sizeof x);
    x.dtype = dt;
    NgOperand ops[2] = {{.array = &x}, {.array = &x}};
    return resolve(op, ng_op_is_binary(op) ? 2 : 1, ops, compute, out);
}

static bool is_compare(NgOp op) { return op >= NG_OP_EQ && op <= NG_OP_GE; }

/* Makes the engine input for an operand at compute dtype; copies an input
 * that overlaps the destination without being the same view. */
static NgStatus make_input(const NgOperand *o, NgOp op, NgDType compute, const NgArray *dest, EwInput *in,
                           NgArray *tmp)
{
    memset(in, 0, sizeof *in);
    if (!o->array) {
        NgStatus st = is_compare(op) ? NG_OK : ng_scalar_check(&o->scalar, compute);
        if (st != NG_OK)
            return st;
        in->scalar = o->scalar;
        in->dtype = compute;
        return NG_OK;
    }
    in->array = o->array;
    in->dtype = o->array->dtype;
    if (dest && ng_array_may_overlap(dest, o->array) &&
        !(dest->offset == o->array->offset && dest->ndim == o->array->ndim &&
          memcmp(dest->strides, o->array->strides, sizeof(int64_t) * (size_t)dest->ndim) == 0)) {
        NgStatus st = ng_op_astype(o->array, o->array->dtype, tmp);
        if (st != NG_OK)
            return st;
        in->array = tmp;
    }
    return NG_OK;
}

/* NumPy's 'same_kind' beyond the safe casts: to a kind no lower in bool < unsigned < signed <
 * float < complex (uint8 -> int8 goes, int8 -> uint8 and float -> int do not). */
static bool same_kind(NgDType from, NgDType to)
{
    static const int rank[] = {[NG_KIND_BOOL] = 0, [NG_KIND_UINT] = 1, [NG_KIND_INT] = 2, [NG_KIND_FLOAT] = 3,
                               [NG_KIND_COMPLEX] = 4};
    return rank[ng_dtype_info(from)->kind] <= rank[ng_dtype_info(to)->kind];
}

/* Checks `dest` can receive a result of shape/dtype, or allocates *out. */
static NgStatus prepare_out(NgDevice *dev, const NgArray *dest, NgDType dt, int ndim, const int64_t *shape,
                            const char *what, NgArray *out)
{
    if (!dest)
        return ng_array_empty(dev, dt, ndim, shape, out);
    int nds[2] = {dest->ndim, ndim};
    const int64_t *shs[2] = {dest->shape, shape};
    int bnd;
    int64_t bsh[NG_MAXDIMS];
    NgStatus st = ng_shape_broadcast(2, nds, shs, &bnd, bsh);
    if (st != NG_OK || bnd != dest->ndim || memcmp(bsh, dest->shape, sizeof(int64_t) * (size_t)bnd) != 0) {
        char a[160], b[160];
        return ng_error_set(NG_ERR_VALUE, "non-broadcastable output operand with shape %s doesn't match the "
                            "broadcast shape %s", ng_shape_format(dest->ndim, dest->shape, a, sizeof a),
                            ng_shape_format(ndim, shape, b, sizeof b));
    }
    if (dt != dest->dtype && !ng_dtype_can_cast_safe(dt, dest->dtype) && !same_kind(dt, dest->dtype))
        return ng_error_set(NG_ERR_TYPE, "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with "
                            "casting rule 'same_kind'", what, ng_dtype_info(dt)->name, ng_dtype_info(dest->dtype)->name);
    ng_array_view(dest, out);
    return NG_OK;
}

/* NumPy refuses integer ** negative integer; an array exponent is checked
 * with a min reduction (one small download). */
NgStatus ng_check_int_exponent(const NgOperand *e)
{
    bool negative = false;
    if (!e->array) {
        negative = e->scalar.kind == NG_KIND_INT && !e->scalar.big && e->scalar.v.i < 0;
    } else if (ng_dtype_is_signed(e->array->dtype) && e->array->size > 0) {
        int64_t v = 0;
        NgStatus st = ng_ops_reduce_int(NG_RED_MIN, e->array, &v);
        if (st != NG_OK)
            return st;
        negative = v < 0;
    }
    return negative ? ng_error_set(NG_ERR_VALUE, "Integers to negative integer powers are not allowed.") : NG_OK;
}

/* x ** 2, x ** -1 and x ** 1 of a real float array x by a scalar: x * x, 1 / x and x, the values
 * C's pow gives there and NumPy's results (a vector pow is within 4 ulp of them, and ~30x slower
 * than a multiplication); of an integer array x ** 2 and x ** 1 (NumPy's wrapping products; the
 * power loop is ~8x slower). NG_OP_POW where no such op stands for the call. */
static NgOp pow_as_exact_op(EwKind kind, NgOp op, int n, const NgOperand *ops, NgDType compute)
{
    bool ints = ng_dtype_is_int(compute);
    if (kind != EW_BINARY || op != NG_OP_POW || n != 2 || !(ng_dtype_is_float(compute) || ints) ||
        !ops[0].array || ops[0].array->dtype != compute)
        return NG_OP_POW;
    double v = 0.0;
    const NgArray *b = ops[1].array;
    if (!b) {
        const NgScalar *e = &ops[1].scalar;
        v = e->kind == NG_KIND_FLOAT && !e->big ? e->v.f : e->kind == NG_KIND_INT && !e->big ? (double)e->v.i : 0.0;
    } else if (b->ndim == 0 && (b->dtype == NG_FLOAT64 || b->dtype == NG_FLOAT32 || b->dtype == NG_INT64 ||
                                 b->dtype == NG_INT32)) { /* np.float64(2): read in place, or its 8 bytes downloaded */
        unsigned char bytes[8];
        const void *p = bytes;
        if (ng_device_host_visible(ng_array_device(b)))
            p = ng_array_data(b);
        else if (ng_array_download(b, bytes, NULL) != NG_OK)
            return NG_OP_POW; /* (the power kernel meets the same error and reports it) */
        switch (b->dtype) {
        case NG_FLOAT64: v = *(const double *)p; break;
        case NG_FLOAT32: v = *(const float *)p; break;
        case NG_INT64: v = (double)*(const int64_t *)p; break;
        case NG_INT32: v = *(const int32_t *)p; break;
        default: break;
        }
    }
    return v == 2.0 ? NG_OP_SQUARE : v == -1.0 && !ints ? NG_OP_RECIPROCAL : v == 1.0 ? NG_OP_COPY : NG_OP_POW;
}

/* kind EW_CLIP: op is NG_OP_MAXIMUM (its type resolution and names) and clip_bounds the key's
 * EW_CLIP_LO / EW_CLIP_HI bits. */
static NgStatus run_op(EwKind kind, NgOp op, int n, const NgOperand *ops, const NgArray *dest, NgArray *out,
                       int clip_bounds)
{
    NgStatus st = ng_ops_same_device(n, ops);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_ops_device(n, ops);
    if (!dev && dest)
        dev = ng_array_device(dest);
    if (!dev && (st = ng_device_default(&dev)) != NG_OK)
        return st;
    NgDType compute, outdt;
    if (kind == EW_WHERE) {
        compute = outdt = common_dtype(2, ops + 1);
        if (!ng_dtype_info(outdt)->supported)
            return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(outdt)->name);
    } else if ((st = resolve(op, n, ops, &compute, &outdt)) != NG_OK) {
        return st;
    }
    /* a Python int beyond 64 bits is a float with arrays of floats (NumPy's conversion: 2**70 + x,
     * x / factorial(25)), NumPy's OverflowError with integers and bools */
    bool float_array = false;
    for (int i = 0; i < n; i++)
        float_array |= ops[i].array && (ng_dtype_is_float(ops[i].array->dtype) || ng_dtype_is_complex(ops[i].array->dtype));
    for (int i = 0; i < n; i++)
        if (!ops[i].array && ops[i].scalar.kind == NG_KIND_FLOAT && ops[i].scalar.big && !is_compare(op) &&
            !float_array)
            return ng_error_set(NG_ERR_OVERFLOW, "Python int too large to convert to C long");
    if (op == NG_OP_POW && ng_dtype_is_int(compute) && (st = ng_check_int_exponent(&ops[1])) != NG_OK)
        return st;
    NgOp exact = pow_as_exact_op(kind, op, n, ops, compute);
    if (exact != NG_OP_POW)
        return run_op(EW_UNARY, exact, 1, ops, dest, out, 0);
    if (is_compare(op)) { /* a Python int out of the array's range compares exactly in a wider type */
        for (int i = 0; i < n; i++)
            if (!ops[i].array && ng_scalar_check(&ops[i].scalar, compute) != NG_OK)
                compute = ops[i].scalar.big || ng_dtype_info(compute)->kind == NG_KIND_UINT ? NG_FLOAT64 : NG_INT64;
    }
    int ndim;
    int64_t shape[NG_MAXDIMS];
    if ((st = ng_ew_broadcast(n, ops, &ndim, shape)) != NG_OK)
        return st;
    if ((st = prepare_out(dev, dest, outdt, ndim, shape, kind == EW_CLIP ? "clip" : ng_op_name(op), out)) != NG_OK)
        return st;
    EwInput in[EW_MAXIN];
    NgArray tmps[EW_MAXIN];
    memset(tmps, 0, sizeof tmps);
    for (int i = 0; i < n && st == NG_OK; i++) {
        /* (a Python int as ldexp's exponent: NumPy's int32 loop, OverflowError beyond it) */
        NgDType want = kind == EW_WHERE ? (i == 0 ? NG_BOOL : outdt) : op == NG_OP_LDEXP && i == 1 ? NG_INT32 : compute;
        st = make_input(&ops[i], op, want, dest, &in[i], &tmps[i]);
    }
    if (st == NG_OK)
        st = ng_ew_run(kind, kind == EW_CLIP ? (NgOp)clip_bounds : op, compute, out, n, in);
    for (int i = 0; i < n; i++)
        ng_array_release(&tmps[i]);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_binary(NgOp op, const NgOperand *a, const NgOperand *b, const NgArray *dest, NgArray *out)
{
    if (!ng_op_is_binary(op))
        return ng_error_set(NG_ERR_INTERNAL, "%s is not a binary op", ng_op_name(op));
    NgOperand ops[2] = {*a, *b};
    return run_op(EW_BINARY, op, 2, ops, dest, out, 0);
}

NgStatus ng_op_unary(NgOp op, const NgOperand *a, const NgArray *dest, NgArray *out)
{
    if (ng_op_is_binary(op))
        return ng_error_set(NG_ERR_INTERNAL, "%s is not a unary op", ng_op_name(op));
    return run_op(EW_UNARY, op, 1, a, dest, out, 0);
}

NgStatus ng_op_where(const NgOperand *cond, const NgOperand *x, const NgOperand *y, const NgArray *dest,
                     NgArray *out)
{
    NgOperand ops[3] = {*cond, *x, *y};
    return run_op(EW_WHERE, NG_OP_COPY, 3, ops, dest, out, 0);
}

NgStatus ng_op_clip(const NgOperand *a, const NgOperand *lo, const NgOperand *hi, const NgArray *dest,
                    NgArray *out)
{
    NgOperand ops[3] = {*a};
    int n = 1, bounds = 0;
    if (lo) {
        ops[n++] = *lo;
        bounds |= EW_CLIP_LO;
    }
    if (hi) {
        ops[n++] = *hi;
        bounds |= EW_CLIP_HI;
    }
    return run_op(EW_CLIP, NG_OP_MAXIMUM, n, ops, dest, out, bounds);
}

NgStatus ng_op_nan_to_num(const NgArray *a, double nan, double posinf, double neginf, const NgArray *dest,
                          NgArray *out)
{
    if (!ng_dtype_is_float(a->dtype))
        return ng_error_set(NG_ERR_TYPE, "nan_to_num: a real float array is needed, not %s",
                            ng_dtype_info(a->dtype)->name);
    NgOperand src = {a, {0}};
    NgStatus st = prepare_out(ng_array_device(a), dest, a->dtype, a->ndim, a->shape, "nan_to_num", out);
    if (st != NG_OK)
        return st;
    EwInput in[4];
    NgArray tmp = {0};
    memset(in, 0, sizeof in);
    st = make_input(&src, NG_OP_COPY, a->dtype, dest, &in[0], &tmp);
    double v[3] = {nan, posinf, neginf};
    for (int i = 0; i < 3; i++) {
        in[1 + i].scalar.kind = NG_KIND_FLOAT;
        in[1 + i].scalar.v.f = v[i];
        in[1 + i].dtype = a->dtype;
    }
    if (st == NG_OK)
        st = ng_ew_run(EW_NAN_TO_NUM, NG_OP_COPY, a->dtype, out, 4, in);
    ng_array_release(&tmp);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

/* NumPy's power_of_ten (multiarray/calculation.c): a table to 1e8, then
 * repeated multiplication by 10 (not pow: beyond 1e22 the two differ). */
static double power_of_ten(int n)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    if (n < 9)
        return p10[n];
    double r = 1e9;
    while (n-- > 9 && isfinite(r))
        r *= 10.0;
    return r;
}

NgStatus ng_op_round(const NgArray *a, int decimals, NgArray *out)
{
    if (!ng_dtype_is_float(a->dtype))
        return ng_error_set(NG_ERR_TYPE, "round: a real float array is needed, not %s", ng_dtype_info(a->dtype)->name);
    NgOperand src = {a, {0}};
    if (decimals == 0) /* (NumPy: rint alone) */
        return ng_op_unary(NG_OP_RINT, &src, NULL, out);
    bool mul = decimals > 0;
    NgOperand f = {NULL, {0}};
    f.scalar.kind = NG_KIND_FLOAT;
    f.scalar.v.f = power_of_ten(mul ? decimals : decimals == INT_MIN ? INT_MAX : -decimals);
    double fd = ng_scalar_karg(&f.scalar, a->dtype).f; /* (the power of ten in a's dtype) */
    if (a->dtype == NG_FLOAT32)
        fd = (float)fd;
    NgStatus st;
    if (!isfinite(fd)) { /* NumPy's three calls one by one (x * inf is NaN at 0, an invalid) */
        if ((st = ng_op_binary(mul ? NG_OP_MUL : NG_OP_TRUEDIV, &src, &f, NULL, out)) != NG_OK)
            return st;
        NgOperand r = {out, {0}};
        NgArray tmp;
        if ((st = ng_op_unary(NG_OP_RINT, &r, out, &tmp)) == NG_OK) {
            ng_array_release(&tmp);
            st = ng_op_binary(mul ? NG_OP_TRUEDIV : NG_OP_MUL, &r, &f, out, &tmp);
            if (st == NG_OK)
                ng_array_release(&tmp);
        }
        if (st != NG_OK)
            ng_array_release(out);
        return st;
    }
    if ((st = ng_array_empty(ng_array_device(a), a->dtype, a->ndim, a->shape, out)) != NG_OK)
        return st;
    EwInput in[2];
    memset(in, 0, sizeof in);
    in[0].array = a;
    in[0].dtype = a->dtype;
    in[1].scalar = f.scalar;
    in[1].dtype = a->dtype;
    st = ng_ew_run(EW_ROUND, mul ? NG_OP_MUL : NG_OP_TRUEDIV, a->dtype, out, 2, in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

bool ng_ew_host_copy(const NgArray *dst, const NgArray *src)
{
    size_t bytes = (size_t)src->size * (size_t)ng_dtype_info(src->dtype)->itemsize;
    if (bytes > EW_HOST_COPY || bytes == 0 || !ng_array_is_c_contiguous(dst) || !ng_array_is_c_contiguous(src))
        return false;
    const char *s = ng_array_data(src), *d = ng_array_data(dst);
    if (s < d + bytes && d < s + bytes) /* (overlapping memory: the kernel's business) */
        return false;
    return ng_array_copy_on_host(dst, src) == NG_OK; /* (it takes a host device, one dtype and shape) */
}

NgStatus ng_op_astype(const NgArray *a, NgDType dt, NgArray *out)
{
    NgStatus st = ng_array_empty(ng_array_device(a), dt, a->ndim, a->shape, out);
    if (st != NG_OK)
        return st;
    if (ng_ew_host_copy(out, a)) /* (a copy of the same dtype: x.copy()) */
        return NG_OK;
    EwInput in = {a, {0}, a->dtype};
    st = ng_ew_run(EW_COPY, NG_OP_COPY, dt, out, 1, &in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_assign(const NgArray *dst, const NgOperand *src)
{
    NgArray tmp, res;
    memset(&tmp, 0, sizeof tmp);
    EwInput in;
    NgStatus st;
    if (src->array) {
        if (ng_array_device(src->array) != ng_array_device(dst))
            return ng_error_set(NG_ERR_VALUE, "cannot assign an array on %s into one on %s",
                                ng_device_name(ng_array_device(src->array)), ng_device_name(ng_array_device(dst)));
        int ndim;
        int64_t shape[NG_MAXDIMS];
        if ((st = ng_ew_broadcast(1, src, &ndim, shape)) != NG_OK)
            return st;
        int nds[2] = {dst->ndim, src->array->ndim};
        const int64_t *shs[2] = {dst->shape, src->array->shape};
        st = ng_shape_broadcast(2, nds, shs, &ndim, shape);
        if (st != NG_OK || ndim != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * (size_t)ndim) != 0) {
            char a[160], b[160];
            return ng_error_set(NG_ERR_VALUE, "could not broadcast input array from shape %s into shape %s",
                                ng_shape_format(src->array->ndim, src->array->shape, a, sizeof a),
                                ng_shape_format(dst->ndim, dst->shape, b, sizeof b));
        }
    } else if (src->scalar.kind == NG_KIND_INT && (st = ng_scalar_check(&src->scalar, dst->dtype)) != NG_OK) {
        return st;
    } else if (src->scalar.kind == NG_KIND_COMPLEX && dst->dtype == NG_BOOL) { /* NumPy: its truth */
        NgOperand t = {NULL, {.kind = NG_KIND_BOOL, .v.i = src->scalar.v.f != 0 || src->scalar.im != 0}};
        return ng_op_assign(dst, &t);
    } else if (src->scalar.kind == NG_KIND_COMPLEX && !ng_dtype_is_complex(dst->dtype)) {
        return ng_error_set(NG_ERR_TYPE, ng_dtype_is_float(dst->dtype)
                            ? "float() argument must be a string or a real number, not 'complex'"
                            : "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
    }
    if ((st = make_input(src, NG_OP_COPY, dst->dtype, dst, &in, &tmp)) != NG_OK)
        return st;
    if (!src->array)
        in.dtype = dst->dtype;
    st = ng_ew_run(EW_COPY, NG_OP_COPY, dst->dtype, dst, 1, &in);
    ng_array_release(&tmp);
    (void)res;
    return st;
}

/* ---- creation ---- */

/* The bytes of value as an element of dt, where C's conversion is the kernel's and exact or
 * rounded as NumPy's: a bool or an int into an integer dtype it fits or exactly into
 * float32/float64, a float into float32/float64. False for the rest (float16, complex, floats into integers). */
static bool plain_element(NgDType dt, const NgScalar *value, unsigned char *elem)
{
    bool integral = (value->kind == NG_KIND_INT || value->kind == NG_KIND_BOOL) && !value->big;
    int64_t i = value->v.i;
    switch (dt) {
#define PUT(T, ok, v) \
    do { \
        if (!(ok)) \
            return false; \
        T x = (T)(v); \
        memcpy(elem, &x, sizeof x); \
        return true; \
    } while (0)
    case NG_BOOL: PUT(uint8_t, integral && (i == 0 || i == 1), i);
    case NG_INT8: PUT(int8_t, integral && i >= INT8_MIN && i <= INT8_MAX, i);
    case NG_INT16: PUT(int16_t, integral && i >= INT16_MIN && i <= INT16_MAX, i);
    case NG_INT32: PUT(int32_t, integral && i >= INT32_MIN && i <= INT32_MAX, i);
    case NG_INT64: PUT(int64_t, integral, i);
    case NG_UINT8: PUT(uint8_t, integral && i >= 0 && i <= UINT8_MAX, i);
    case NG_UINT16: PUT(uint16_t, integral && i >= 0 && i <= UINT16_MAX, i);
    case NG_UINT32: PUT(uint32_t, integral && i >= 0 && i <= UINT32_MAX, i);
    case NG_UINT64: PUT(uint64_t, integral && i >= 0, i);
    case NG_FLOAT32: PUT(float, (integral && llabs(i) <= (1 << 24)) || value->kind == NG_KIND_FLOAT,
                         integral ? (double)i : value->v.f);
    case NG_FLOAT64: PUT(double, (integral && llabs(i) <= (1LL << 53)) || value->kind == NG_KIND_FLOAT,
                         integral ? (double)i : value->v.f);
#undef PUT
    default:
        return false;
    }
}

NgStatus ng_op_full(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, const NgScalar *value, NgArray *out)
{
    bool zeroed;
    NgStatus st = ng_array_empty_zeroed(dev, dt, ndim, shape, out, &zeroed);
    if (st != NG_OK)
        return st;
    /* (up to EW_HOST_COPY bytes on a host device, of a value whose element is plain, as NumPy's
     * fill, no kernel) */
    unsigned char elem[16];
    bool zero = value->kind == NG_KIND_FLOAT || value->kind == NG_KIND_COMPLEX
                    ? value->v.f == 0.0 && !signbit(value->v.f) && (value->kind == NG_KIND_FLOAT ||
                                                                    (value->im == 0.0 && !signbit(value->im)))
                    : value->v.i == 0 && !value->big;
    if (zero && zeroed) /* (fresh pages: NumPy's calloc, zeroed by the OS where first touched) */
        return NG_OK;
    if ((size_t)out->size * (size_t)ng_dtype_info(dt)->itemsize <= EW_HOST_COPY &&
        (zero || plain_element(dt, value, elem)) && ng_array_fill_on_host(out, zero ? NULL : elem) == NG_OK)
        return NG_OK;
    EwInput in = {NULL, *value, dt};
    st = ng_ew_run(EW_COPY, NG_OP_COPY, dt, out, 1, &in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

static NgStatus run_range(NgDevice *dev, NgDType dt, int64_t n, double start, double step, const double *stop,
                          NgArray *out)
{
    NgStatus st = ng_array_empty(dev, dt, 1, &n, out);
    if (st != NG_OK)
        return st;
    NgDType compute = ng_dtype_is_inexact(dt) || stop ? NG_FLOAT64 : NG_INT64;
    EwInput in[3];
    memset(in, 0, sizeof in);
    in[0].dtype = in[1].dtype = in[2].dtype = compute;
    in[0].scalar.kind = in[1].scalar.kind = in[2].scalar.kind = compute == NG_FLOAT64 ? NG_KIND_FLOAT : NG_KIND_INT;
    if (compute == NG_FLOAT64) {
        in[0].scalar.v.f = start;
        in[1].scalar.v.f = step;
        in[2].scalar.v.f = stop ? *stop : 0;
    } else {
        in[0].scalar.v.i = (int64_t)start;
        in[1].scalar.v.i = (int64_t)step;
    }
    st = ng_ew_run(EW_RANGE, NG_OP_COPY, compute, out, stop ? 3 : 2, in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_arange(NgDevice *dev, double start, double step, int64_t n, NgDType dt, NgArray *out)
{
    return run_range(dev, dt, n < 0 ? 0 : n, start, step, NULL, out);
}

NgStatus ng_op_linspace(NgDevice *dev, double start, double stop, int64_t n, bool endpoint, NgDType dt,
                        NgArray *out)
{
    if (n < 0)
        return ng_error_set(NG_ERR_VALUE, "Number of samples, %lld, must be non-negative.", (long long)n);
    int64_t div = endpoint ? n - 1 : n;
    double step = div > 0 ? (stop - start) / (double)div : 0;
    return run_range(dev, dt, n, start, step, endpoint && n > 1 ? &stop : NULL, out);
}

NgStatus ng_op_eye(NgDevice *dev, int64_t n, int64_t m, int64_t k, NgDType dt, NgArray *out)
{
    int64_t shape[2] = {n, m};
    NgStatus st = ng_array_empty(dev, dt, 2, shape, out);
    if (st != NG_OK)
        return st;
    EwInput in = {NULL, {.kind = NG_KIND_INT, .v.i = k}, NG_INT64};
    st = ng_ew_run(EW_EYE, NG_OP_COPY, NG_INT64, out, 1, &in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_to_device(const NgArray *a, NgDevice *dev, NgArray *out)
{
    NgArray src;
    NgStatus st = ng_op_ascontiguous(a, false, &src);
    if (st != NG_OK)
        return st;
    st = ng_array_empty(dev, a->dtype, a->ndim, a->shape, out);
    if (st == NG_OK) {
        size_t nbytes = (size_t)a->size * (size_t)ng_dtype_info(a->dtype)->itemsize;
        char *stage = ng_array_device(&src)->be->host_visible ? ng_array_data(&src) : ng_malloc(nbytes ? nbytes : 1);
        if (!stage) {
            st = ng_error_set(NG_ERR_NOMEM, "out of host memory staging a copy between devices");
        } else {
            if (stage != ng_array_data(&src))
                st = ng_array_download(&src, stage, NULL);
            if (st == NG_OK)
                st = ng_array_upload(out, stage, NULL);
            if (stage != ng_array_data(&src))
                ng_free(stage);
        }
        if (st != NG_OK)
            ng_array_release(out);
    }
    ng_array_release(&src);
    return st;
}
