/* Correlation of two 1-d arrays by a direct sum, one work item per output:
 * out[i] = sum over k of a[i + start + k] * v[k], k in order. Every window
 * lies inside a: the caller (numgpu.correlate / convolve) pads a with
 * zeros (NumPy's padding), chooses start and the length from the mode,
 * reverses or conjugates v as NumPy does, and takes the FFT for long
 * operands. With the same bounds for every output, neighbouring outputs
 * run in vector lanes, each its own sum. Operands are read in the compute
 * dtype dt. */
#include <string.h>

#include "ops/sort_internal.h"

typedef struct CorrKey {
    uint8_t tag;  /* 'C' */
    int8_t a, v;  /* operand dtypes */
    int8_t dt;    /* compute and output dtype */
} CorrKey;

/* params: a (1-d), v (1-d), out (1-d, written), scalar start */
static NgStatus build_correlate(const void *ctx, NgIrKernel *k)
{
    const CorrKey *key = ctx;
    NgDType dt = (NgDType)key->dt;
    int a = ng_ir_param_array(k, (NgDType)key->a, 1, false, false), v = ng_ir_param_array(k, (NgDType)key->v, 1, false, false);
    int out = ng_ir_param_array(k, dt, 1, true, true);
    NgIrRef start = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int i = ng_ir_var(k, NG_INT64), kk = ng_ir_var(k, NG_INT64), acc = ng_ir_var(k, dt), at = ng_ir_var(k, NG_INT64);
    NgIrRef At = ng_ir_varref(k, at), K = ng_ir_varref(k, kk), zero = sx_i(k, 0);
    NgIrRef term = ng_ir_binary(k, NG_OP_MUL, dt, ng_ir_cast(k, dt, sx_load1(k, a, sx_op(k, NG_OP_ADD, At, K))),
                                ng_ir_cast(k, dt, sx_load1(k, v, K)));
    NgIrRef body[4] = {ng_ir_let(k, at, sx_op(k, NG_OP_ADD, ng_ir_varref(k, i), start)),
                       ng_ir_let(k, acc, ng_ir_cast(k, dt, zero)),
                       sx_for(k, kk, zero, ng_ir_shape(k, v, 0), ng_ir_assign(k, acc, ng_ir_binary(k, NG_OP_ADD, dt, ng_ir_varref(k, acc), term)), 0),
                       sx_store1(k, out, ng_ir_varref(k, i), ng_ir_varref(k, acc))};
    k->body = sx_for(k, i, zero, ng_ir_shape(k, out, 0), ng_ir_block(k, 4, body), NG_IR_PARALLEL);
    k->lanes = true; /* neighbouring outputs in vector lanes, each its own sum in k order */
    return k->status;
}

static void karg_vec(NgKArg *args, int *na, const NgArray *a)
{
    int64_t s = a->strides[0] / ng_array_itemsize(a), n = a->shape[0];
    ng_kargs_array(args, na, a, 1, &n, &s);
}

NgStatus ng_op_correlate(const NgArray *a, const NgArray *v, int64_t start, int64_t len, NgDType dt, NgArray *out)
{
    if (a->ndim != 1 || v->ndim != 1)
        return ng_error_set(NG_ERR_VALUE, "correlate: both operands must be 1-d");
    if (len < 0 || (len > 0 && (start < 0 || start + len - 1 + v->shape[0] > a->shape[0])))
        return ng_error_set(NG_ERR_VALUE, "correlate: %lld outputs from %lld do not fit %lld elements", (long long)len,
                            (long long)start, (long long)a->shape[0]);
    if (dt == NG_BOOL || !ng_dtype_info(dt)->supported || ng_array_device(a) != ng_array_device(v))
        return ng_error_set(NG_ERR_TYPE, "correlate: operands of %s and %s in %s are not supported",
                            ng_dtype_info(a->dtype)->name, ng_dtype_info(v->dtype)->name, ng_dtype_info(dt)->name);
    NgDevice *dev = ng_array_device(a);
    NgStatus st = ng_array_empty(dev, dt, 1, &len, out);
    if (st != NG_OK || len == 0)
        return st;
    CorrKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'C';
    key.a = (int8_t)a->dtype;
    key.v = (int8_t)v->dtype;
    key.dt = (int8_t)dt;
    const NgKernel *kern;
    NgKArg args[3 * 6 + 1];
    int na = 0;
    karg_vec(args, &na, a);
    karg_vec(args, &na, v);
    karg_vec(args, &na, out);
    args[na++].i = start;
    if ((st = ng_kernel_get(dev, &key, sizeof key, build_correlate, &key, &kern)) == NG_OK)
        st = ng_kernel_launch(kern, args, na, len, len * v->shape[0]);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}
