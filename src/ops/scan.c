/* Scans: NumPy's ufunc.accumulate of every binary op along an axis
 * (cumsum and cumprod are add's and multiply's), and diff's building block.
 *
 * out[0] is x[0] cast to the accumulator dtype and out[i] = op(out[i-1],
 * x[i]), computed in that dtype, left to right. The accumulator dtype is
 * the caller's (Python asks NumPy); without one it is cumsum's default for
 * add and multiply and a's own dtype for every other op. An op whose loop
 * in that dtype would return another one (a comparison of non-bools)
 * fails as NumPy's does.
 *
 * The scan axis is moved last ((rows, n), C-contiguous), or, for any other
 * axis, scanned in place of its layout by the cols plan (threads take
 * columns and run down the axis). Two plans for the rows:
 *   - rows: one thread per row runs the sequential loop in NumPy's order, so
 *     float results are bit-identical to NumPy's accumulate. Always used on
 *     cpu (NumPy's own loop is sequential too), on GPUs when there are many
 *     rows, and for every op the blocked plan cannot take;
 *   - blocked (GPU targets, few long rows): three passes. Each block of L
 *     elements is reduced by one thread from the op's identity (block
 *     totals), the totals of each row are scanned by the rows plan, then
 *     each block is scanned again from its offset. Regrouping is only right
 *     for an associative op with an identity (blockable): add, multiply,
 *     maximum and minimum (not of complex), and the bitwise and logical ops.
 *     Their integer and bool results, and every maximum and minimum, are
 *     exactly NumPy's; float and complex sums and products are summed in a
 *     different order (block by block), so they match within rounding only.
 *     float16 scans always take the rows plan: NumPy rounds each partial
 *     result to half precision. */
#include <math.h>
#include <string.h>

#include "ops/sort_internal.h"

enum { SC_ROWS, SC_BLOCK_TOTALS, SC_BLOCK_SCAN, SC_COLS };

typedef struct ScanKey {
    uint8_t tag;   /* 'C' */
    uint8_t plan;  /* SC_* */
    uint8_t op;    /* the binary NgOp accumulated */
    int8_t in;     /* input dtype */
    int8_t out;    /* output (= accumulator) dtype */
    uint8_t last;  /* a fold (ufunc.reduce): the accumulator stored once, after the last element */
} ScanKey;

/* Whether the blocked plan may regroup key's op: associative, with an
 * identity to start each block from (see identity). */
static bool blockable(const ScanKey *key)
{
    NgDType dt = (NgDType)key->out;
    /* float16 never: NumPy rounds every partial result to half precision, which a blocked order
     * cannot reproduce (a float16 running sum stalls once its steps round away) */
    if (dt == NG_FLOAT16)
        return false;
    switch ((NgOp)key->op) {
    case NG_OP_ADD: case NG_OP_MUL:
        return true;
    case NG_OP_MAXIMUM: case NG_OP_MINIMUM: /* complex: NumPy's order with NaNs, no plain identity */
        return !ng_dtype_is_complex(dt);
    case NG_OP_BITAND: case NG_OP_BITOR: case NG_OP_BITXOR:
    case NG_OP_LOGAND: case NG_OP_LOGOR: case NG_OP_LOGXOR:
        return true; /* (integers and bools: the only accumulators these have) */
    default:
        return false;
    }
}

/* The identity of a blockable op in dtype dt: op(identity, x) == x for
 * every x. maximum's -inf keeps a NaN (ng_max takes NaN from either side);
 * float sums start from -0.0, the one zero that keeps x == -0.0. */
static NgIrRef identity(NgIrKernel *k, NgOp op, NgDType dt)
{
    int bits = ng_dtype_info(dt)->itemsize * 8;
    bool is_signed = ng_dtype_is_signed(dt);
    switch (op) {
    case NG_OP_MUL: case NG_OP_LOGAND:
        return ng_ir_const_i(k, dt, 1);
    case NG_OP_BITAND: /* all ones */
        return ng_ir_const_i(k, dt, dt == NG_BOOL ? 1 : -1);
    case NG_OP_MAXIMUM: /* the lowest value */
        if (ng_dtype_is_float(dt))
            return ng_ir_const_f(k, dt, -INFINITY);
        return ng_ir_const_i(k, dt, is_signed ? INT64_MIN >> (64 - bits) : 0);
    case NG_OP_MINIMUM: /* the highest value (uint64's is -1 as an int64) */
        if (ng_dtype_is_float(dt))
            return ng_ir_const_f(k, dt, INFINITY);
        if (dt == NG_BOOL)
            return ng_ir_const_i(k, dt, 1);
        return ng_ir_const_i(k, dt, is_signed ? INT64_MAX >> (64 - bits) : (int64_t)(UINT64_MAX >> (64 - bits)));
    case NG_OP_ADD:
        if (ng_dtype_is_float(dt))
            return ng_ir_const_f(k, dt, -0.0);
        return ng_ir_const_i(k, dt, 0);
    default: /* bitor, bitxor, logor, logxor */
        return ng_ir_const_i(k, dt, 0);
    }
}

/* The op applied in the accumulator dtype: NumPy's add and multiply of
 * bools are logical or / and (cumsum with dtype=bool). */
static NgOp scan_op(const ScanKey *key)
{
    if (key->out == NG_BOOL && key->op == NG_OP_ADD)
        return NG_OP_LOGOR;
    if (key->out == NG_BOOL && key->op == NG_OP_MUL)
        return NG_OP_LOGAND;
    return (NgOp)key->op;
}

/* op(prev, x) with x cast to the accumulator dtype (bool inputs are 0/1) */
static NgIrRef next(NgIrKernel *k, const ScanKey *key, NgIrRef prev, NgIrRef x)
{
    NgDType dt = (NgDType)key->out;
    return ng_ir_binary(k, scan_op(key), dt, prev, ng_ir_cast(k, dt, x));
}

/* acc = op(acc, x) */
static NgIrRef combine(NgIrKernel *k, const ScanKey *key, int acc, NgIrRef x)
{
    return ng_ir_assign(k, acc, next(k, key, ng_ir_varref(k, acc), x));
}

/* x cast to the accumulator dtype: the first element of a scan (NumPy
 * starts from it, not from 0 + x, which keeps -0.0) */
static NgIrRef first(NgIrKernel *k, const ScanKey *key, NgIrRef x)
{
    return ng_ir_cast(k, (NgDType)key->out, x);
}

/* SC_COLS: in (outer, n, inner), out (outer, n, inner), W: thread t scans
 * columns [c0, c0 + W) of block t % nbk of slab t / nbk, row after row (the
 * rows are read in memory order; each column's sum is in NumPy's order).
 * A fold's out is (outer, 1, inner): its one row holds the running values. */
static NgStatus build_cols(NgIrKernel *k, const ScanKey *key)
{
    NgDType dt = (NgDType)key->out;
    int in = ng_ir_param_array(k, (NgDType)key->in, 3, true, false);
    int out = ng_ir_param_array(k, dt, 3, true, true);
    NgIrRef W = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef outer = ng_ir_shape(k, in, 0), n = ng_ir_shape(k, in, 1), inner = ng_ir_shape(k, in, 2), one = sx_i(k, 1);
    NgIrRef nbk = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, inner, W), one), W);
    int t = ng_ir_var(k, NG_INT64), o = ng_ir_var(k, NG_INT64), c0 = ng_ir_var(k, NG_INT64), c1 = ng_ir_var(k, NG_INT64);
    int j = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64), c2 = ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, t), O = ng_ir_varref(k, o), C0 = ng_ir_varref(k, c0), C1 = ng_ir_varref(k, c1);
    NgIrRef J = ng_ir_varref(k, j), C = ng_ir_varref(k, c), C2 = ng_ir_varref(k, c2), zero = sx_i(k, 0);
    NgIrRef i0[3] = {O, zero, C2}, ij[3] = {O, J, C}, ip[3] = {O, sx_op(k, NG_OP_SUB, J, one), C};
    NgIrRef i_last[3] = {O, zero, C};
    const NgIrRef *at = key->last ? i_last : ij; /* where the running value is stored */
    NgIrRef step = next(k, key, ng_ir_load(k, out, 3, key->last ? i_last : ip), ng_ir_load(k, in, 3, ij));
    NgIrRef body[5] = {
        ng_ir_let(k, o, sx_op(k, NG_OP_FLOORDIV, T, nbk)),
        ng_ir_let(k, c0, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MOD, T, nbk), W)),
        ng_ir_let(k, c1, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, C0, W), inner)),
        sx_for(k, c2, C0, C1, ng_ir_store(k, out, 3, i0, first(k, key, ng_ir_load(k, in, 3, i0))), 0),
        sx_for(k, j, one, n, sx_for(k, c, C0, C1, ng_ir_store(k, out, 3, at, step), 0), 0),
    };
    k->body = sx_for(k, t, zero, sx_op(k, NG_OP_MUL, outer, nbk), ng_ir_block(k, 5, body), NG_IR_PARALLEL);
    return k->status;
}

/* SC_ROWS: params in (rows, n), out (rows, n) (a fold's: (rows, 1))
 * SC_BLOCK_TOTALS: in (rows, n), totals (rows, nb), L
 * SC_BLOCK_SCAN: in (rows, n), out (rows, n), incl (rows, nb), L */
static NgStatus build_scan(const void *ctx, NgIrKernel *k)
{
    const ScanKey *key = ctx;
    if (key->plan == SC_COLS)
        return build_cols(k, key);
    NgDType dt = (NgDType)key->out;
    int in = ng_ir_param_array(k, (NgDType)key->in, 2, true, false);
    int out = ng_ir_param_array(k, dt, 2, true, true);
    int incl = key->plan == SC_BLOCK_SCAN ? ng_ir_param_array(k, dt, 2, true, false) : -1;
    NgIrRef L = key->plan == SC_ROWS ? NG_IR_NONE : ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef n = ng_ir_shape(k, in, 1), rows = ng_ir_shape(k, in, 0);
    int t = ng_ir_var(k, NG_INT64), j = ng_ir_var(k, NG_INT64), acc = ng_ir_var(k, dt);
    NgIrRef T = ng_ir_varref(k, t), J = ng_ir_varref(k, j), A = ng_ir_varref(k, acc);
    if (key->plan == SC_ROWS) {
        NgIrRef step[2] = {combine(k, key, acc, sx_load2(k, in, T, J)), sx_store2(k, out, T, J, A)};
        NgIrRef body[3] = {ng_ir_let(k, acc, first(k, key, sx_load2(k, in, T, sx_i(k, 0)))),
                           sx_store2(k, out, T, sx_i(k, 0), A),
                           sx_for(k, j, sx_i(k, 1), n, key->last ? step[0] : ng_ir_block(k, 2, step), 0)};
        if (key->last) { /* the running value stored once, at the end */
            NgIrRef store = body[1];
            body[1] = body[2];
            body[2] = store;
        }
        k->body = sx_for(k, t, sx_i(k, 0), rows, ng_ir_block(k, 3, body), NG_IR_PARALLEL);
        return k->status;
    }
    /* thread t: row t / nb, block b = t % nb covering [b*L, min(b*L+L, n)) */
    NgIrRef nb = ng_ir_shape(k, out, 1);
    if (key->plan == SC_BLOCK_SCAN)
        nb = ng_ir_shape(k, incl, 1);
    int r = ng_ir_var(k, NG_INT64), b = ng_ir_var(k, NG_INT64);
    NgIrRef R = ng_ir_varref(k, r), Bv = ng_ir_varref(k, b);
    NgIrRef start = sx_op(k, NG_OP_MUL, Bv, L);
    NgIrRef stop = sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, start, L), n);
    NgIrRef init = identity(k, (NgOp)key->op, dt);
    NgIrRef loopbody;
    if (key->plan == SC_BLOCK_SCAN) {
        NgIrRef prev = sx_load2(k, incl, R, sx_op(k, NG_OP_SUB, Bv, sx_i(k, 1)));
        init = ng_ir_select(k, sx_cmp(k, NG_OP_GT, Bv, sx_i(k, 0)), prev, init);
        NgIrRef step[2] = {combine(k, key, acc, sx_load2(k, in, R, J)), sx_store2(k, out, R, J, A)};
        loopbody = ng_ir_block(k, 2, step);
    } else {
        loopbody = combine(k, key, acc, sx_load2(k, in, R, J));
    }
    NgIrRef body[5] = {ng_ir_let(k, r, sx_op(k, NG_OP_FLOORDIV, T, nb)), ng_ir_let(k, b, sx_op(k, NG_OP_MOD, T, nb)),
                       ng_ir_let(k, acc, init), sx_for(k, j, start, stop, loopbody, 0),
                       key->plan == SC_BLOCK_TOTALS ? sx_store2(k, out, R, Bv, A) : NG_IR_NONE};
    k->body = sx_for(k, t, sx_i(k, 0), sx_op(k, NG_OP_MUL, rows, nb), ng_ir_block(k, key->plan == SC_BLOCK_TOTALS ? 5 : 4, body),
                     NG_IR_PARALLEL);
    return k->status;
}

static NgStatus launch_scan(ScanKey key, const NgArray *const *arrs, const int64_t (*shapes)[2], int narrs,
                            int64_t L, int64_t extent, int64_t work)
{
    const NgKernel *kern;
    key.tag = 'C';
    NgStatus st = ng_kernel_get(ng_array_device(arrs[0]), &key, sizeof key, build_scan, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[3 * 6 + 2];
    int na = 0;
    for (int i = 0; i < narrs; i++)
        ng_sort_kargs2(args, &na, arrs[i], shapes[i][0], shapes[i][1]);
    if (key.plan != SC_ROWS)
        args[na++].i = L;
    return ng_kernel_launch(kern, args, na, extent, work);
}

/* Scans the C-contiguous (rows, n) `in` into `out` (same shape, fresh; a
 * fold's: (rows, 1), the last values; blocked: the block totals folded). */
static NgStatus scan_rows(ScanKey key, const NgArray *in, const NgArray *out, int64_t rows, int64_t n)
{
    NgDevice *dev = ng_array_device(in);
    bool host = dev->be->target->par == NG_PAR_OPENMP;
    if (host || rows >= 4096 || n < 4096 || !blockable(&key)) {
        key.plan = SC_ROWS;
        const NgArray *arrs[2] = {in, out};
        const int64_t shapes[2][2] = {{rows, n}, {rows, key.last ? 1 : n}};
        return launch_scan(key, arrs, shapes, 2, 0, rows, rows * n);
    }
    int64_t L = (n + 1023) / 1024;
    if (L < 64)
        L = 64;
    int64_t nb = (n + L - 1) / L, tshape[2] = {rows, nb};
    NgArray tot, incl;
    memset(&incl, 0, sizeof incl);
    NgStatus st = ng_array_empty(dev, (NgDType)key.out, 2, tshape, &tot);
    if (st != NG_OK)
        return st;
    if (!key.last && (st = ng_array_empty(dev, (NgDType)key.out, 2, tshape, &incl)) != NG_OK) {
        ng_array_release(&tot);
        return st;
    }
    const int64_t shapes[3][2] = {{rows, n}, {rows, nb}, {rows, nb}};
    const NgArray *a1[2] = {in, &tot};
    ScanKey totals = key;
    totals.plan = SC_BLOCK_TOTALS;
    totals.last = 0; /* (the same kernel for a scan and a fold) */
    st = launch_scan(totals, a1, shapes, 2, L, rows * nb, rows * n);
    if (st == NG_OK) {
        ScanKey k2 = key;
        k2.in = key.out;
        st = scan_rows(k2, &tot, key.last ? out : &incl, rows, nb);
    }
    if (st == NG_OK && !key.last) {
        const NgArray *a3[3] = {in, out, &incl};
        const int64_t s3[3][2] = {{rows, n}, {rows, n}, {rows, nb}};
        key.plan = SC_BLOCK_SCAN;
        st = launch_scan(key, a3, s3, 3, L, rows * nb, rows * n);
    }
    ng_array_release(&tot);
    ng_array_release(&incl);
    return st;
}

/* NumPy's accumulator dtype for cumsum/cumprod without dtype=. */
static NgDType scan_dtype(NgDType in)
{
    if (in == NG_BOOL || (ng_dtype_is_signed(in) && in != NG_INT64))
        return NG_INT64;
    if (ng_dtype_info(in)->kind == NG_KIND_UINT)
        return NG_UINT64;
    return in;
}

/* A scan (or fold) along a non-last axis: a is viewed C-contiguous as
 * (outer, n, inner) and scanned in place of its layout, no transposes. A
 * fold's out has a's shape without the axis. */
static NgStatus cumulative_cols(NgOp op, const NgArray *a, int axis, NgDType odt, int64_t inner, bool last,
                                NgArray *out)
{
    NgArray in;
    NgStatus st = ng_op_ascontiguous(a, false, &in);
    if (st != NG_OK)
        return st;
    int64_t oshape[NG_MAXDIMS];
    int ond = 0;
    for (int d = 0; d < a->ndim; d++)
        if (!last || d != axis)
            oshape[ond++] = a->shape[d];
    if ((st = ng_array_empty(ng_array_device(a), odt, ond, oshape, out)) != NG_OK) {
        ng_array_release(&in);
        return st;
    }
    int64_t n = a->shape[axis], outer = n ? a->size / (n * inner) : 0;
    if (a->size) {
        ScanKey key;
        memset(&key, 0, sizeof key);
        key.tag = 'C';
        key.plan = SC_COLS;
        key.op = (uint8_t)op;
        key.in = (int8_t)a->dtype;
        key.out = (int8_t)odt;
        key.last = last;
        const NgKernel *kern;
        st = ng_kernel_get(ng_array_device(a), &key, sizeof key, build_scan, &key, &kern);
        /* cpu: blocks of 256 columns per thread; GPUs: a column per thread (coalesced rows) */
        int64_t W = ng_array_device(a)->be->target->par == NG_PAR_OPENMP ? 256 : 1;
        if (st == NG_OK) {
            int64_t shape[3] = {outer, n, inner}, strides[3] = {n * inner, inner, 1};
            int64_t fshape[3] = {outer, 1, inner}, fstrides[3] = {inner, inner, 1};
            NgKArg args[2 * 8 + 2];
            int na = 0;
            ng_kargs_array(args, &na, &in, 3, shape, strides);
            ng_kargs_array(args, &na, out, 3, last ? fshape : shape, last ? fstrides : strides);
            args[na++].i = W;
            st = ng_kernel_launch(kern, args, na, outer * ((inner + W - 1) / W), a->size);
        }
    }
    ng_array_release(&in);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

/* NumPy's accumulate needs a loop of op that returns its accumulator dtype
 * dt: equal.accumulate of integers has none, subtract of bools is refused. */
static NgStatus check_loop(NgOp op, NgDType dt)
{
    NgDType compute, res;
    NgStatus st = ng_ew_loop_dtypes(op, dt, &compute, &res);
    if (st != NG_OK)
        return st;
    if (compute != dt || res != dt)
        return ng_error_set(NG_ERR_TYPE, "No loop matching the specified signature and casting was found for ufunc %s",
                            ng_op_name(op));
    return NG_OK;
}

/* NumPy refuses integer ** negative integer: the exponents are the
 * elements after the first along the axis (a view of them is checked). */
static NgStatus check_int_exponents(NgOp op, const NgArray *a, int axis, NgDType dt)
{
    if (op != NG_OP_POW || !ng_dtype_is_signed(dt) || a->shape[axis] < 2)
        return NG_OK;
    NgArray rest;
    ng_array_view(a, &rest);
    rest.offset += (size_t)a->strides[axis];
    rest.shape[axis]--;
    rest.size = 1;
    for (int d = 0; d < rest.ndim; d++)
        rest.size *= rest.shape[d];
    NgOperand e = {.array = &rest};
    NgStatus st = ng_check_int_exponent(&e);
    ng_array_release(&rest);
    return st;
}

/* ng_op_cumulative, or (last) ng_op_fold. */
static NgStatus scan(NgOp op, const NgArray *a, int axis, NgDType dtype, bool last, NgArray *out)
{
    if (!ng_op_is_binary(op))
        return ng_error_set(NG_ERR_VALUE, "%s only supported for binary functions", last ? "reduce" : "accumulate");
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    NgDType odt = dtype != NG_NODTYPE ? dtype : op == NG_OP_ADD || op == NG_OP_MUL ? scan_dtype(a->dtype) : a->dtype;
    if (!ng_dtype_info(a->dtype)->supported || !ng_dtype_info(odt)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet",
                            ng_dtype_info(ng_dtype_info(a->dtype)->supported ? odt : a->dtype)->name);
    if ((st = check_loop(op, odt)) != NG_OK || (st = check_int_exponents(op, a, axis, odt)) != NG_OK)
        return st;
    if (last && a->shape[axis] == 0)
        return ng_error_set(NG_ERR_VALUE, "zero-size array to reduction operation %s which has no identity",
                            ng_op_name(op));
    int64_t inner = 1;
    for (int d = axis + 1; d < a->ndim; d++)
        inner *= a->shape[d];
    if (inner > 1)
        return cumulative_cols(op, a, axis, odt, inner, last, out);
    NgArray in, res;
    int64_t rows, n;
    if ((st = ng_sort_axis_last(a, axis, false, &in, &rows, &n)) != NG_OK)
        return st;
    int64_t fold_shape[NG_MAXDIMS]; /* a's shape without the axis: the rows, in order */
    for (int d = 0, i = 0; d < a->ndim; d++)
        if (d != axis)
            fold_shape[i++] = a->shape[d];
    st = last ? ng_array_empty(ng_array_device(a), odt, a->ndim - 1, fold_shape, &res)
              : ng_array_empty(ng_array_device(a), odt, in.ndim, in.shape, &res);
    if (st != NG_OK) {
        ng_array_release(&in);
        return st;
    }
    if (res.size) {
        ScanKey key;
        memset(&key, 0, sizeof key);
        key.op = (uint8_t)op;
        key.in = (int8_t)a->dtype;
        key.out = (int8_t)odt;
        key.last = last;
        st = scan_rows(key, &in, &res, rows, n);
    }
    ng_array_release(&in);
    if (st != NG_OK) {
        ng_array_release(&res);
        return st;
    }
    if (last) {
        *out = res;
        return NG_OK;
    }
    return ng_sort_axis_back(&res, axis, out);
}

NgStatus ng_op_cumulative(NgOp op, const NgArray *a, int axis, NgDType dtype, NgArray *out)
{
    return scan(op, a, axis, dtype, false, out);
}

NgStatus ng_op_fold(NgOp op, const NgArray *a, int axis, NgDType dtype, NgArray *out)
{
    return scan(op, a, axis, dtype, true, out);
}
