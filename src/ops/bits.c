/* Bit packing along the last axis: NumPy's packbits and unpackbits (python/numgpu/_bitspoly.py
 * moves the axis last and handles count and the names of the bit orders). Three kernels, each a
 * box over its output:
 *
 *   PACK_ELEMS  out[..., k] = the bits (x != 0) of in[..., 8k .. 8k+7], those past the end 0:
 *               eight loads at clamped indices, any integer or bool dtype, any strides;
 *   PACK_WORDS  the same for 1-byte elements read as uint64 words (a unit-stride, 8-aligned last
 *               axis of a multiple of 8 elements): each byte made 0/1 by a carry-free add, the
 *               eight gathered into the product's top byte by one multiplication;
 *   UNPACK      out[..., 8k .. 8k+7], written as one uint64 word, = the bits of in[..., k]: the
 *               byte copied into every lane by a multiplication, one bit kept per lane, made 0/1.
 *
 * The word kernels take the devices' byte order to be little-endian (the caller checks). */
#include <string.h>

#include "ops/ops_internal.h"

enum { PACK_ELEMS, PACK_WORDS, UNPACK };

typedef struct BitsKey {
    uint8_t tag;       /* 'P' */
    uint8_t mode;      /* PACK_ELEMS, PACK_WORDS or UNPACK */
    int8_t dtype;      /* the input's dtype (uint64 for PACK_WORDS' words) */
    uint8_t ndim;      /* rank of input and output */
    uint8_t in_contig; /* the input's last axis has stride 1 */
    uint8_t little;    /* the first element in the least significant bit */
    uint8_t flat;      /* one parallel loop over every output element (GPU targets; ng_ir_box) */
} BitsKey;

static NgIrRef u64(NgIrKernel *k, uint64_t v) { return ng_ir_const_i(k, NG_UINT64, (int64_t)v); }

static NgIrRef op64(NgIrKernel *k, NgOp op, NgIrRef x, NgIrRef y) { return ng_ir_binary(k, op, NG_UINT64, x, y); }

/* Each byte of the uint64 x as 0x80 where it is nonzero, else 0. */
static NgIrRef nonzero_bytes(NgIrKernel *k, NgIrRef x)
{
    NgIrRef low = u64(k, 0x7f7f7f7f7f7f7f7fULL);
    NgIrRef t = op64(k, NG_OP_ADD, op64(k, NG_OP_BITAND, x, low), low);
    return op64(k, NG_OP_BITAND, op64(k, NG_OP_BITOR, t, x), u64(k, 0x8080808080808080ULL));
}

/* Parameters: out, in (rank ndim each). */
static NgStatus build_bits(const void *ctx, NgIrKernel *k)
{
    const BitsKey *key = ctx;
    int R = key->ndim;
    NgDType dt = (NgDType)key->dtype;
    int out = ng_ir_param_array(k, key->mode == UNPACK ? NG_UINT64 : NG_UINT8, R, true, true);
    int in = ng_ir_param_array(k, dt, R, key->in_contig, false);
    int vars[NG_MAXDIMS];
    NgIrRef idx[NG_MAXDIMS], ext[NG_MAXDIMS];
    ng_ops_index_space(k, out, R, vars, idx, ext);
    NgIrRef value;
    if (key->mode == PACK_ELEMS) {
        NgIrRef n = ng_ir_shape(k, in, R - 1), one = ng_ir_const_i(k, NG_INT64, 1);
        NgIrRef last = ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, one);
        NgIrRef base = ng_ir_binary(k, NG_OP_MUL, NG_INT64, idx[R - 1], ng_ir_const_i(k, NG_INT64, 8));
        NgIrRef at[NG_MAXDIMS];
        memcpy(at, idx, sizeof(NgIrRef) * (size_t)R);
        value = ng_ir_const_i(k, NG_INT32, 0);
        for (int j = 0; j < 8; j++) {
            NgIrRef i = ng_ir_binary(k, NG_OP_ADD, NG_INT64, base, ng_ir_const_i(k, NG_INT64, j));
            at[R - 1] = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, i, last); /* (read in range; masked below) */
            NgIrRef x = ng_ir_load(k, in, R, at);
            NgIrRef set = ng_ir_binary(k, NG_OP_NE, NG_BOOL, x, ng_ir_const_i(k, dt, 0));
            NgIrRef bit = ng_ir_binary(k, NG_OP_BITAND, NG_INT32, ng_ir_cast(k, NG_INT32, set),
                                       ng_ir_cast(k, NG_INT32, ng_ir_binary(k, NG_OP_LT, NG_BOOL, i, n)));
            NgIrRef placed = ng_ir_binary(k, NG_OP_LSHIFT, NG_INT32, bit,
                                          ng_ir_const_i(k, NG_INT32, key->little ? j : 7 - j));
            value = ng_ir_binary(k, NG_OP_BITOR, NG_INT32, value, placed);
        }
    } else if (key->mode == PACK_WORDS) {
        /* (0/1 bytes times the gather constant: byte i's bit lands in the top byte, no carries) */
        NgIrRef bits = op64(k, NG_OP_RSHIFT, nonzero_bytes(k, ng_ir_load(k, in, R, idx)), u64(k, 7));
        NgIrRef gather = u64(k, key->little ? 0x0102040810204080ULL : 0x8040201008040201ULL);
        value = op64(k, NG_OP_RSHIFT, op64(k, NG_OP_MUL, bits, gather), u64(k, 56));
    } else {
        NgIrRef b = ng_ir_cast(k, NG_UINT64, ng_ir_load(k, in, R, idx));
        NgIrRef lanes = op64(k, NG_OP_MUL, b, u64(k, 0x0101010101010101ULL));
        /* lane j (memory order) keeps bit j (little) or bit 7 - j (big) */
        NgIrRef mask = u64(k, key->little ? 0x8040201008040201ULL : 0x0102040810204080ULL);
        value = op64(k, NG_OP_RSHIFT, nonzero_bytes(k, op64(k, NG_OP_BITAND, lanes, mask)), u64(k, 7));
    }
    NgIrRef store = ng_ir_store(k, out, R, idx, ng_ir_cast(k, key->mode == UNPACK ? NG_UINT64 : NG_UINT8, value));
    k->body = ng_ir_box(k, R, vars, ext, store, key->flat);
    return k->status;
}

/* Runs the kernel of `mode` from `in` into `out` (both rank >= 1, out's layout C-contiguous). */
static NgStatus run_bits(int mode, bool little, const NgArray *in, const NgArray *out)
{
    if (out->size == 0)
        return NG_OK;
    int R = in->ndim, item = ng_array_itemsize(in), oitem = ng_array_itemsize(out);
    BitsKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'P';
    key.mode = (uint8_t)mode;
    key.dtype = (int8_t)in->dtype;
    key.ndim = (uint8_t)R;
    key.little = little;
    NgDevice *dev = ng_array_device(in);
    key.flat = dev->be->target->par != NG_PAR_OPENMP && R > 1;
    int64_t istr[NG_MAXDIMS], ostr[NG_MAXDIMS];
    for (int d = 0; d < R; d++) {
        istr[d] = in->strides[d] / item;
        ostr[d] = out->strides[d] / oitem;
    }
    key.in_contig = istr[R - 1] == 1 || in->shape[R - 1] == 1;
    if (in->shape[R - 1] == 1)
        istr[R - 1] = 1;
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, &key, sizeof key, build_bits, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[4 + 4 * NG_MAXDIMS];
    int n = 0;
    ng_kargs_array(args, &n, out, R, out->shape, ostr);
    ng_kargs_array(args, &n, in, R, in->shape, istr);
    return ng_kernel_launch(kern, args, n, key.flat ? out->size : out->shape[0], out->size);
}

/* a viewed with `dt` (itemsize `per` times a's) on its last axis, when the bytes allow it: the
 * last axis unit-stride, 8-aligned, a multiple of `per` long; every other stride a multiple. */
static bool word_view(const NgArray *a, NgDType dt, int per, NgArray *view)
{
    int R = a->ndim, item = ng_array_itemsize(a), wide = item * per;
    if (R == 0 || a->strides[R - 1] != item || a->shape[R - 1] % per != 0 || a->offset % (size_t)wide != 0)
        return false; /* (buffers start aligned to more than 8 bytes) */
    for (int d = 0; d < R - 1; d++)
        if (a->strides[d] % wide != 0)
            return false;
    ng_array_view(a, view);
    view->dtype = dt;
    view->shape[R - 1] /= per;
    view->strides[R - 1] = wide;
    view->size /= per;
    return true;
}

NgStatus ng_op_packbits(const NgArray *a, bool little, NgArray *out)
{
    if (a->ndim < 1)
        return ng_error_set(NG_ERR_INTERNAL, "packbits of a 0-d array");
    if (ng_dtype_is_inexact(a->dtype))
        return ng_error_set(NG_ERR_TYPE, "Expected an input array of integer or boolean data type");
    int R = a->ndim;
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)R);
    shape[R - 1] = (a->shape[R - 1] + 7) / 8;
    NgStatus st = ng_array_empty(ng_array_device(a), NG_UINT8, R, shape, out);
    if (st != NG_OK)
        return st;
    NgArray words;
    if (ng_array_itemsize(a) == 1 && word_view(a, NG_UINT64, 8, &words)) {
        st = run_bits(PACK_WORDS, little, &words, out);
        ng_array_release(&words);
    } else {
        st = run_bits(PACK_ELEMS, little, a, out);
    }
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_unpackbits(const NgArray *a, bool little, NgArray *out)
{
    if (a->ndim < 1 || a->dtype != NG_UINT8)
        return ng_error_set(NG_ERR_TYPE, "Expected an input array of unsigned byte data type");
    int R = a->ndim;
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)R);
    shape[R - 1] *= 8;
    NgStatus st = ng_array_empty(ng_array_device(a), NG_UINT8, R, shape, out);
    if (st != NG_OK)
        return st;
    NgArray words;
    if (!word_view(out, NG_UINT64, 8, &words)) { /* (a new array: contiguous, aligned) */
        ng_array_release(out);
        return ng_error_set(NG_ERR_INTERNAL, "unpackbits: an unaligned new array");
    }
    st = run_bits(UNPACK, little, a, &words);
    ng_array_release(&words);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}
