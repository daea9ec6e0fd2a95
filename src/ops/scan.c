/* Scans: cumsum and cumprod along an axis, and diff's building block.
 *
 * The scan axis is moved last ((rows, n), C-contiguous). Two plans:
 *   - rows: one thread per row runs the sequential loop, accumulating in
 *     the output dtype in NumPy's order, so float results are bit-identical
 *     to NumPy's add.accumulate / multiply.accumulate. Always used on cpu
 *     (NumPy's own loop is sequential too) and on GPUs when there are many
 *     rows;
 *   - blocked (GPU targets, few long rows): three passes. Each block of L
 *     elements is reduced by one thread (block totals), the totals of each
 *     row are scanned by the rows plan, then each block is scanned again
 *     from its offset. Integers give exactly NumPy's results; floats are
 *     summed in a different order (block by block), so they match within
 *     rounding only. */
#include <string.h>

#include "ops/sort_internal.h"

enum { SC_ROWS, SC_BLOCK_TOTALS, SC_BLOCK_SCAN };

typedef struct ScanKey {
    uint8_t tag;   /* 'C' */
    uint8_t plan;  /* SC_* */
    uint8_t op;    /* NG_OP_ADD or NG_OP_MUL */
    int8_t in;     /* input dtype */
    int8_t out;    /* output (= accumulator) dtype */
} ScanKey;

static NgIrRef identity(NgIrKernel *k, NgOp op, NgDType dt)
{
    return ng_dtype_is_float(dt) ? ng_ir_const_f(k, dt, op == NG_OP_MUL ? 1.0 : 0.0)
                                 : ng_ir_const_i(k, dt, op == NG_OP_MUL ? 1 : 0);
}

/* acc = acc op x, with x cast to the accumulator dtype (bool inputs are 0/1) */
static NgIrRef combine(NgIrKernel *k, const ScanKey *key, int acc, NgIrRef x)
{
    NgDType dt = (NgDType)key->out;
    if (dt == NG_BOOL) /* cumsum/cumprod with dtype=bool: logical or / and */
        return ng_ir_assign(k, acc, ng_ir_binary(k, key->op == NG_OP_ADD ? NG_OP_LOGOR : NG_OP_LOGAND, NG_BOOL,
                                                 ng_ir_varref(k, acc), ng_ir_cast(k, NG_BOOL, x)));
    return ng_ir_assign(k, acc, ng_ir_binary(k, (NgOp)key->op, dt, ng_ir_varref(k, acc), ng_ir_cast(k, dt, x)));
}

/* SC_ROWS: params in (rows, n), out (rows, n), [offset (rows, 1) unused]
 * SC_BLOCK_TOTALS: in (rows, n), totals (rows, nb), L
 * SC_BLOCK_SCAN: in (rows, n), out (rows, n), incl (rows, nb), L */
static NgStatus build_scan(const void *ctx, NgIrKernel *k)
{
    const ScanKey *key = ctx;
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
        NgIrRef body[2] = {ng_ir_let(k, acc, identity(k, (NgOp)key->op, dt)),
                           sx_for(k, j, sx_i(k, 0), n, ng_ir_block(k, 2, step), 0)};
        k->body = sx_for(k, t, sx_i(k, 0), rows, ng_ir_block(k, 2, body), NG_IR_PARALLEL);
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

/* Scans the C-contiguous (rows, n) `in` into `out` (same shape, fresh). */
static NgStatus scan_rows(ScanKey key, const NgArray *in, const NgArray *out, int64_t rows, int64_t n)
{
    NgDevice *dev = ng_array_device(in);
    bool host = dev->be->target->par == NG_PAR_OPENMP;
    if (host || rows >= 4096 || n < 4096) {
        key.plan = SC_ROWS;
        const NgArray *arrs[2] = {in, out};
        const int64_t shapes[2][2] = {{rows, n}, {rows, n}};
        return launch_scan(key, arrs, shapes, 2, 0, rows, rows * n);
    }
    int64_t L = (n + 1023) / 1024;
    if (L < 64)
        L = 64;
    int64_t nb = (n + L - 1) / L, tshape[2] = {rows, nb};
    NgArray tot, incl;
    NgStatus st = ng_array_empty(dev, (NgDType)key.out, 2, tshape, &tot);
    if (st != NG_OK)
        return st;
    if ((st = ng_array_empty(dev, (NgDType)key.out, 2, tshape, &incl)) != NG_OK) {
        ng_array_release(&tot);
        return st;
    }
    const int64_t shapes[3][2] = {{rows, n}, {rows, nb}, {rows, nb}};
    const NgArray *a1[2] = {in, &tot};
    key.plan = SC_BLOCK_TOTALS;
    st = launch_scan(key, a1, shapes, 2, L, rows * nb, rows * n);
    if (st == NG_OK) {
        ScanKey k2 = key;
        k2.in = key.out;
        st = scan_rows(k2, &tot, &incl, rows, nb);
    }
    if (st == NG_OK) {
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

NgStatus ng_op_cumulative(NgOp op, const NgArray *a, int axis, NgDType dtype, NgArray *out)
{
    if (op != NG_OP_ADD && op != NG_OP_MUL)
        return ng_error_set(NG_ERR_INTERNAL, "cumulative %s", ng_op_name(op));
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    NgDType odt = dtype == NG_NODTYPE ? scan_dtype(a->dtype) : dtype;
    if (!ng_dtype_info(a->dtype)->supported || !ng_dtype_info(odt)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet",
                            ng_dtype_info(ng_dtype_info(a->dtype)->supported ? odt : a->dtype)->name);
    NgArray in, res;
    int64_t rows, n;
    if ((st = ng_sort_axis_last(a, axis, false, &in, &rows, &n)) != NG_OK)
        return st;
    if ((st = ng_array_empty(ng_array_device(a), odt, in.ndim, in.shape, &res)) != NG_OK) {
        ng_array_release(&in);
        return st;
    }
    if (res.size) {
        ScanKey key;
        memset(&key, 0, sizeof key);
        key.op = (uint8_t)op;
        key.in = (int8_t)a->dtype;
        key.out = (int8_t)odt;
        st = scan_rows(key, &in, &res, rows, n);
    }
    ng_array_release(&in);
    if (st != NG_OK) {
        ng_array_release(&res);
        return st;
    }
    return ng_sort_axis_back(&res, axis, out);
}
