/* frexp in one pass: the mantissa and the exponent of each element of a float array, both stored
 * by one kernel (the elementwise engine writes one output; NumPy's frexp ufunc has two, and run
 * as two ops it reads its input twice). The values are the ops NG_OP_FREXP and
 * NG_OP_FREXP_EXPONENT, so the two paths agree to the bit. */
#include <string.h>

#include "ops/ops_internal.h"

typedef struct FrexpKey {
    uint8_t tag;       /* 'F' */
    int8_t dtype;      /* the input's float dtype (the mantissa's) */
    uint8_t ndim;      /* rank of input and outputs */
    uint8_t in_contig; /* the input's last axis has stride 1 */
    uint8_t flat;      /* one parallel loop over every element (GPU targets; ng_ir_box) */
} FrexpKey;

/* Parameters: mantissa, exponent (int32), input. */
static NgStatus build_frexp(const void *ctx, NgIrKernel *k)
{
    const FrexpKey *key = ctx;
    NgDType dt = (NgDType)key->dtype;
    int R = key->ndim;
    int m = ng_ir_param_array(k, dt, R, true, true), e = ng_ir_param_array(k, NG_INT32, R, true, true);
    int in = ng_ir_param_array(k, dt, R, key->in_contig, false);
    int vars[NG_MAXDIMS];
    NgIrRef idx[NG_MAXDIMS], ext[NG_MAXDIMS];
    ng_ops_index_space(k, m, R, vars, idx, ext);
    NgIrRef x = ng_ir_load(k, in, R, idx);
    NgIrRef both[2] = {
        ng_ir_store(k, m, R, idx, ng_ir_unary(k, NG_OP_FREXP, dt, x)),
        ng_ir_store(k, e, R, idx, ng_ir_unary(k, NG_OP_FREXP_EXPONENT, NG_INT32, x)),
    };
    k->body = ng_ir_box(k, R, vars, ext, ng_ir_block(k, 2, both), key->flat);
    return k->status;
}

NgStatus ng_op_frexp(const NgArray *a, NgArray *mantissa, NgArray *exponent)
{
    if (!ng_dtype_is_float(a->dtype))
        return ng_error_set(NG_ERR_TYPE, "frexp of dtype %s: a float array is needed", ng_dtype_info(a->dtype)->name);
    NgDevice *dev = ng_array_device(a);
    memset(exponent, 0, sizeof *exponent);
    NgStatus st = ng_array_empty(dev, a->dtype, a->ndim, a->shape, mantissa);
    if (st != NG_OK)
        return st;
    if ((st = ng_array_empty(dev, NG_INT32, a->ndim, a->shape, exponent)) != NG_OK || a->size == 0)
        goto done;
    /* a 0-d array as one element of rank 1 */
    int R = a->ndim ? a->ndim : 1, item = ng_array_itemsize(a);
    int64_t shape[NG_MAXDIMS] = {1}, istr[NG_MAXDIMS] = {1}, mstr[NG_MAXDIMS] = {1}, estr[NG_MAXDIMS] = {1};
    for (int d = 0; d < a->ndim; d++) {
        shape[d] = a->shape[d];
        istr[d] = a->strides[d] / item;
        mstr[d] = mantissa->strides[d] / item;
        estr[d] = exponent->strides[d] / 4;
    }
    if (shape[R - 1] == 1)
        istr[R - 1] = 1;
    FrexpKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'F';
    key.dtype = (int8_t)a->dtype;
    key.ndim = (uint8_t)R;
    key.in_contig = istr[R - 1] == 1;
    key.flat = dev->be->target->par != NG_PAR_OPENMP && R > 1;
    const NgKernel *kern;
    if ((st = ng_kernel_get(dev, &key, sizeof key, build_frexp, &key, &kern)) != NG_OK)
        goto done;
    NgKArg args[6 + 6 * NG_MAXDIMS];
    int n = 0;
    ng_kargs_array(args, &n, mantissa, R, shape, mstr);
    ng_kargs_array(args, &n, exponent, R, shape, estr);
    ng_kargs_array(args, &n, a, R, shape, istr);
    st = ng_kernel_launch(kern, args, n, key.flat ? a->size : shape[0], a->size);
done:
    if (st != NG_OK) {
        ng_array_release(mantissa);
        ng_array_release(exponent);
    }
    return st;
}
