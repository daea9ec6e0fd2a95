/* Indexing: a[index] and a[index] = value, with NumPy's rules.
 *
 * An index is first applied as far as basic indexing goes: integers drop
 * their axis, slices (Python's rules: wrap, clamp, step) restride it, None
 * inserts an axis of extent 1 and `...` stands for the axes nobody named.
 * That is pure view arithmetic over a's buffer (offset, shape, strides).
 *
 * Advanced indices (integer arrays, boolean masks) keep their axes whole in
 * that view and become "entries": an integer array indexing one axis, the
 * flat positions of a mask's true elements indexing the mask's axes, or
 * (once any array is present, as NumPy does) an integer treated as a 0-d
 * index. The entries broadcast together; their broadcast dims replace them
 * in place when they are adjacent, else go first (NumPy's placement rule).
 * Then one kernel gathers (a[idx]: a copy) or scatters (a[idx] = v):
 *
 *     res[o...] = view[e0(o), ..., o_k, ...]       view[...] = value[o...]
 *
 * Integer arrays are checked against their axis (min and max, downloaded)
 * before any kernel runs, so a bad index is an IndexError, never a wild
 * read. A mask becomes positions in two parallel passes: count the true
 * elements of each chunk, then (after a prefix sum of the few chunk counts
 * on the host) write each chunk's positions at its offset. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "ops/ops_internal.h"

/* ---- the plan: a view plus advanced entries ---- */

enum { ENT_ARRAY, ENT_POS, ENT_SCALAR };

typedef struct Entry {
    int kind;            /* ENT_ARRAY: integer array; ENT_POS: mask positions; ENT_SCALAR */
    int axis;            /* first axis of the view it indexes */
    int naxes;           /* axes of the view it covers (ENT_POS of an n-d mask: n) */
    int src_axis;        /* the axis of the indexed array (for messages) */
    int item;            /* position in the index list (adjacency is decided there) */
    const NgArray *arr;  /* ARRAY: the index array; POS: 1-d int64 positions */
    int64_t value;       /* SCALAR: the index, already wrapped and checked */
} Entry;

typedef struct Plan {
    NgArray view;              /* a with the basic indices applied (a reference) */
    bool advanced;             /* any entries */
    bool scalar_array;         /* a 0-d integer array was an index: NumPy returns a copy */
    int nent;
    Entry ent[NG_MAXDIMS];
    int nowned;
    int bnd;                   /* broadcast rank of the entries */
    int64_t bshape[NG_MAXDIMS];
    int first;                 /* where the broadcast dims sit in the result */
    int rnd;                   /* result rank and shape */
    int64_t rshape[NG_MAXDIMS];
    NgArray owned[NG_MAXDIMS]; /* arrays made here (mask positions); last: plan_index clears what comes
                                * before it only (all of it, 18 KB, was a fifth of an element read's time) */
} Plan;

static void plan_free(Plan *p)
{
    ng_array_release(&p->view);
    for (int i = 0; i < p->nowned; i++)
        ng_array_release(&p->owned[i]);
    p->nowned = 0;
}

/* Value of a 0-d (or one-element) integer or bool array, downloaded. */
static NgStatus read_int(const NgArray *a, int64_t *v)
{
    union {
        uint8_t b[8];
        int8_t i8; int16_t i16; int32_t i32; int64_t i64;
        uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
    } u;
    memset(&u, 0, sizeof u);
    NgStatus st = ng_array_download(a, u.b, NULL);
    if (st != NG_OK)
        return st;
    switch (a->dtype) {
    case NG_BOOL: case NG_UINT8: *v = u.u8; break;
    case NG_INT8: *v = u.i8; break;
    case NG_INT16: *v = u.i16; break;
    case NG_INT32: *v = u.i32; break;
    case NG_INT64: *v = u.i64; break;
    case NG_UINT16: *v = u.u16; break;
    case NG_UINT32: *v = u.u32; break;
    case NG_UINT64: *v = (int64_t)u.u64; break; /* NumPy casts to intp: 2**64-1 is -1 */
    default: return ng_error_set(NG_ERR_INTERNAL, "read_int of a %s array", ng_dtype_info(a->dtype)->name);
    }
    return NG_OK;
}

/* A shape as NumPy's indexing messages write it: "(2,3)", "(5,)". */
static char *shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "(");
    for (int d = 0; d < ndim && at < len; d++)
        at += (size_t)snprintf(buf + at, len - at, "%lld%s", (long long)shape[d], ndim == 1 || d < ndim - 1 ? "," : "");
    if (at < len)
        snprintf(buf + at, len - at, ")");
    return buf;
}

static NgStatus out_of_bounds(int64_t i, int axis, int64_t n)
{
    return ng_error_set(NG_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld", (long long)i, axis,
                        (long long)n);
}

/* Python's slice.indices(n): start, step and length of the selection. */
static NgStatus slice_resolve(const NgIndex *ix, int64_t n, int64_t *start, int64_t *step, int64_t *len)
{
    int64_t st = ix->has_step ? ix->step : 1;
    if (st == 0)
        return ng_error_set(NG_ERR_VALUE, "slice step cannot be zero");
    if (st < -INT64_MAX)
        st = -INT64_MAX;
    int64_t lo, hi;
    if (!ix->has_start) {
        lo = st < 0 ? n - 1 : 0;
    } else {
        lo = ix->start;
        if (lo < 0) {
            lo += n;
            if (lo < 0)
                lo = st < 0 ? -1 : 0;
        } else if (lo >= n) {
            lo = st < 0 ? n - 1 : n;
        }
    }
    if (!ix->has_stop) {
        hi = st < 0 ? -1 : n;
    } else {
        hi = ix->stop;
        if (hi < 0) {
            hi += n;
            if (hi < 0)
                hi = st < 0 ? -1 : 0;
        } else if (hi >= n) {
            hi = st < 0 ? n - 1 : n;
        }
    }
    int64_t count = 0;
    if (st < 0) {
        if (hi < lo)
            count = (lo - hi - 1) / (-st) + 1;
    } else if (lo < hi) {
        count = (hi - lo - 1) / st + 1;
    }
    *start = lo;
    *step = st;
    *len = count;
    return NG_OK;
}

static NgStatus check_device(const NgArray *a, const NgArray *idx)
{
    if (ng_array_device(idx) != ng_array_device(a))
        return ng_error_set(NG_ERR_VALUE, "index array is on %s but the indexed array is on %s",
                            ng_device_name(ng_array_device(idx)), ng_device_name(ng_array_device(a)));
    return NG_OK;
}

/* ---- mask -> positions ---- */

typedef struct MaskKey {
    uint8_t tag;   /* 'k': count per chunk; 'K': write positions */
} MaskKey;

/* count: counts[c] = number of true mask[i] in chunk c.
 * write: positions of chunk c's true elements from offsets[c] on. */
static NgStatus build_mask(const void *ctx, NgIrKernel *k)
{
    const MaskKey *key = ctx;
    bool write = key->tag == 'K';
    int out = ng_ir_param_array(k, NG_INT64, 1, true, true);
    int mask = ng_ir_param_array(k, NG_BOOL, 1, true, false);
    int offs = write ? ng_ir_param_array(k, NG_INT64, 1, true, false) : -1;
    int chunk = ng_ir_param_scalar(k, NG_INT64);
    int vc = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64), vn = ng_ir_var(k, NG_INT64);
    NgIrRef c = ng_ir_varref(k, vc), i = ng_ir_varref(k, vi), acc = ng_ir_varref(k, vn);
    NgIrRef one = ng_ir_const_i(k, NG_INT64, 1), zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef lo = ng_ir_binary(k, NG_OP_MUL, NG_INT64, c, ng_ir_scalar(k, chunk));
    NgIrRef hi = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_INT64, lo, ng_ir_scalar(k, chunk)),
                              ng_ir_shape(k, mask, 0));
    NgIrRef m = ng_ir_load(k, mask, 1, &i);
    NgIrRef stmts[3];
    if (write) {
        NgIrRef steps[2] = {ng_ir_store(k, out, 1, &acc, i), ng_ir_assign(k, vn, ng_ir_binary(k, NG_OP_ADD, NG_INT64, acc, one))};
        NgIrRef inner = ng_ir_for(k, vi, lo, hi, one, ng_ir_if(k, m, ng_ir_block(k, 2, steps), NG_IR_NONE), 0);
        stmts[0] = ng_ir_let(k, vn, ng_ir_load(k, offs, 1, &c));
        stmts[1] = inner;
        k->body = ng_ir_for(k, vc, zero, ng_ir_shape(k, offs, 0), one, ng_ir_block(k, 2, stmts), NG_IR_PARALLEL);
    } else {
        NgIrRef upd = ng_ir_assign(k, vn, ng_ir_binary(k, NG_OP_ADD, NG_INT64, acc, ng_ir_cast(k, NG_INT64, m)));
        NgIrRef inner = ng_ir_for(k, vi, lo, hi, one, upd, 0);
        ng_ir_reduce(k, inner, vn, NG_OP_ADD);
        stmts[0] = ng_ir_let(k, vn, zero);
        stmts[1] = inner;
        stmts[2] = ng_ir_store(k, out, 1, &c, acc);
        k->body = ng_ir_for(k, vc, zero, ng_ir_shape(k, out, 0), one, ng_ir_block(k, 3, stmts), NG_IR_PARALLEL);
    }
    return k->status;
}

/* Flat (C-order) positions of mask's true elements: a new 1-d int64 array. */
static NgStatus mask_positions(const NgArray *mask_in, NgArray *pos)
{
    NgDevice *dev = ng_array_device(mask_in);
    NgArray mask, counts;
    memset(&counts, 0, sizeof counts);
    memset(pos, 0, sizeof *pos);
    NgStatus st = ng_op_ascontiguous(mask_in, false, &mask);
    if (st != NG_OK)
        return st;
    int64_t total = mask.size;
    int64_t chunk = (total + 255) / 256;
    if (chunk < 8192)
        chunk = 8192;
    int64_t nchunks = (total + chunk - 1) / chunk;
    int64_t *host = NULL;
    int64_t one_strides[1] = {1};
    if (nchunks == 0) {
        int64_t zero = 0;
        st = ng_array_empty(dev, NG_INT64, 1, &zero, pos);
        goto done;
    }
    host = ng_malloc(sizeof(int64_t) * (size_t)nchunks);
    if (!host) {
        st = ng_error_set(NG_ERR_NOMEM, "out of host memory for mask counts");
        goto done;
    }
    if ((st = ng_array_empty(dev, NG_INT64, 1, &nchunks, &counts)) != NG_OK)
        goto done;
    const NgKernel *kern;
    MaskKey key = {'k'};
    if ((st = ng_kernel_get(dev, &key, sizeof key, build_mask, &key, &kern)) != NG_OK)
        goto done;
    NgKArg args[16];
    int n = 0;
    ng_kargs_array(args, &n, &counts, 1, &nchunks, one_strides);
    ng_kargs_array(args, &n, &mask, 1, &total, one_strides);
    args[n++].i = chunk;
    if ((st = ng_kernel_launch(kern, args, n, nchunks, total)) != NG_OK)
        goto done;
    if ((st = ng_array_download(&counts, host, NULL)) != NG_OK)
        goto done;
    int64_t found = 0;
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t cnt = host[c];
        host[c] = found;
        found += cnt;
    }
    if ((st = ng_array_empty(dev, NG_INT64, 1, &found, pos)) != NG_OK)
        goto done;
    if (found == 0)
        goto done;
    if ((st = ng_array_upload(&counts, host, NULL)) != NG_OK) /* now the offsets */
        goto done;
    key.tag = 'K';
    if ((st = ng_kernel_get(dev, &key, sizeof key, build_mask, &key, &kern)) != NG_OK)
        goto done;
    n = 0;
    ng_kargs_array(args, &n, pos, 1, &found, one_strides);
    ng_kargs_array(args, &n, &mask, 1, &total, one_strides);
    ng_kargs_array(args, &n, &counts, 1, &nchunks, one_strides);
    args[n++].i = chunk;
    st = ng_kernel_launch(kern, args, n, nchunks, total);
done:
    if (st != NG_OK)
        ng_array_release(pos);
    ng_free(host);
    ng_array_release(&counts);
    ng_array_release(&mask);
    return st;
}

/* ---- building the plan ---- */

/* The error for the first (C order) value of idx outside [-n, n), as
 * NumPy names it; only called once some value is known to be bad. */
static NgStatus first_bad(const NgArray *idx, int axis, int64_t n)
{
    NgArray c;
    NgStatus st = ng_op_astype(idx, NG_INT64, &c);
    if (st != NG_OK)
        return st;
    int64_t *host = ng_malloc(sizeof(int64_t) * (size_t)c.size);
    if (!host) {
        ng_array_release(&c);
        return ng_error_set(NG_ERR_NOMEM, "out of host memory");
    }
    st = ng_array_download(&c, host, NULL);
    if (st == NG_OK) {
        st = ng_error_set(NG_ERR_INTERNAL, "index out of bounds for axis %d, but none found", axis);
        for (int64_t i = 0; i < c.size; i++) {
            int64_t x = host[i];
            if (x < -n || x >= n) {
                st = out_of_bounds(x, axis, n);
                break;
            }
        }
    }
    ng_free(host);
    ng_array_release(&c);
    return st;
}

typedef struct RangeKey {
    uint8_t tag;   /* 'r' */
    int8_t dtype;  /* index dtype */
} RangeKey;

/* out[0] = min, out[1] = max of a 1-d contiguous integer array as int64,
 * in one parallel pass. */
static NgStatus build_range(const void *ctx, NgIrKernel *k)
{
    const RangeKey *key = ctx;
    NgDType acc = NG_INT64;
    int out = ng_ir_param_array(k, acc, 1, true, true);
    int idx = ng_ir_param_array(k, (NgDType)key->dtype, 1, true, false);
    int vi = ng_ir_var(k, NG_INT64), vlo = ng_ir_var(k, acc), vhi = ng_ir_var(k, acc);
    NgIrRef i = ng_ir_varref(k, vi), lo = ng_ir_varref(k, vlo), hi = ng_ir_varref(k, vhi);
    NgIrRef x = ng_ir_cast(k, acc, ng_ir_load(k, idx, 1, &i));
    NgIrRef upd[2] = {ng_ir_assign(k, vlo, ng_ir_binary(k, NG_OP_MINIMUM, acc, lo, x)),
                      ng_ir_assign(k, vhi, ng_ir_binary(k, NG_OP_MAXIMUM, acc, hi, x))};
    NgIrRef loop = ng_ir_for(k, vi, ng_ir_const_i(k, NG_INT64, 0), ng_ir_shape(k, idx, 0), ng_ir_const_i(k, NG_INT64, 1),
                             ng_ir_block(k, 2, upd), NG_IR_PARALLEL);
    ng_ir_reduce(k, loop, vlo, NG_OP_MINIMUM);
    ng_ir_reduce(k, loop, vhi, NG_OP_MAXIMUM);
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef stmts[5] = {
        ng_ir_let(k, vlo, ng_ir_const_i(k, acc, INT64_MAX)),
        ng_ir_let(k, vhi, ng_ir_const_i(k, acc, INT64_MIN)),
        loop,
        ng_ir_store(k, out, 1, &zero, lo),
        ng_ir_store(k, out, 1, &one, hi),
    };
    k->body = ng_ir_block(k, 5, stmts);
    return k->status;
}

/* Checks every value of integer array idx lies in [-n, n): min and max in
 * one kernel and one download; the first bad value is looked up only when
 * there is one. */
static NgStatus check_range(const NgArray *idx, int axis, int64_t n)
{
    if (idx->size == 0)
        return NG_OK;
    NgDevice *dev = ng_array_device(idx);
    NgArray c, r;
    memset(&r, 0, sizeof r);
    NgStatus st = ng_op_ascontiguous(idx, false, &c);
    if (st != NG_OK)
        return st;
    RangeKey key = {'r', (int8_t)idx->dtype};
    int64_t two = 2, one_stride = 1, total = c.size;
    int64_t v[2];
    const NgKernel *kern;
    if (dev->be->target->par != NG_PAR_OPENMP) {
        /* no one-kernel parallel min/max on GPUs: two reductions (multi-pass there) */
        for (int i = 0; i < 2 && st == NG_OK; i++)
            st = ng_ops_reduce_int(i ? NG_RED_MAX : NG_RED_MIN, &c, &v[i]);
        if (st == NG_OK && (v[1] >= n || v[0] < -n))
            st = first_bad(idx, axis, n);
        goto done;
    }
    if ((st = ng_array_empty(dev, NG_INT64, 1, &two, &r)) != NG_OK ||
        (st = ng_kernel_get(dev, &key, sizeof key, build_range, &key, &kern)) != NG_OK)
        goto done;
    NgKArg args[8];
    int na = 0;
    ng_kargs_array(args, &na, &r, 1, &two, &one_stride);
    ng_kargs_array(args, &na, &c, 1, &total, &one_stride);
    if ((st = ng_kernel_launch(kern, args, na, total, total)) != NG_OK ||
        (st = ng_array_download(&r, v, NULL)) != NG_OK)
        goto done;
    if (v[1] >= n || v[0] < -n)
        st = first_bad(idx, axis, n);
done:
    ng_array_release(&r);
    ng_array_release(&c);
    return st;
}

/* Appends an axis to the plan's view. */
static NgStatus push_axis(NgArray *v, int64_t extent, int64_t stride)
{
    if (v->ndim >= NG_MAXDIMS)
        return ng_error_set(NG_ERR_INDEX, "number of dimensions must be within [0, %d], but is %d", NG_MAXDIMS,
                            v->ndim + 1);
    v->shape[v->ndim] = extent;
    v->strides[v->ndim] = stride;
    v->ndim++;
    return NG_OK;
}

/* Merges view axes [axis, axis+naxes) into one when their strides allow:
 * then mask positions index the merged axis directly. */
static void merge_group(Plan *p, int e)
{
    Entry *en = &p->ent[e];
    NgArray *v = &p->view;
    int a0 = en->axis, k = en->naxes;
    if (k < 2)
        return;
    int64_t extent = 1, stride = 0, expect = 0;
    bool have = false;
    for (int d = a0 + k - 1; d >= a0; d--) {
        if (v->shape[d] == 1)
            continue;
        if (!have) {
            stride = v->strides[d];
            have = true;
        } else if (v->strides[d] != expect) {
            return;
        }
        expect = v->strides[d] * v->shape[d];
        extent *= v->shape[d];
    }
    v->shape[a0] = extent;
    v->strides[a0] = stride;
    memmove(&v->shape[a0 + 1], &v->shape[a0 + k], sizeof(int64_t) * (size_t)(v->ndim - a0 - k));
    memmove(&v->strides[a0 + 1], &v->strides[a0 + k], sizeof(int64_t) * (size_t)(v->ndim - a0 - k));
    v->ndim -= k - 1;
    en->naxes = 1;
    for (int j = e + 1; j < p->nent; j++)
        p->ent[j].axis -= k - 1;
}

/* Applies the basic part of the index to a and collects the advanced entries;
 * for advanced indexing also the broadcast and result shapes. */
static NgStatus plan_index(const NgArray *a, int n, const NgIndex *index, Plan *p)
{
    memset(p, 0, offsetof(Plan, owned)); /* (owned[i] is written before it is read, i < nowned) */
    ng_array_view(a, &p->view);
    NgArray *v = &p->view;
    NgStatus st = NG_OK;
    int consumed = 0, nell = 0;
    bool adv = false;
    for (int i = 0; i < n; i++) {
        const NgIndex *ix = &index[i];
        switch (ix->kind) {
        case NG_IDX_INT: case NG_IDX_SLICE: consumed++; break;
        case NG_IDX_NEWAXIS: break;
        case NG_IDX_ELLIPSIS:
            if (++nell > 1)
                return ng_error_set(NG_ERR_INDEX, "an index can only have a single ellipsis ('...')");
            break;
        case NG_IDX_ARRAY:
            if (!ng_dtype_is_int(ix->array->dtype))
                return ng_error_set(NG_ERR_INDEX, "arrays used as indices must be of integer (or boolean) type");
            if ((st = check_device(a, ix->array)) != NG_OK)
                return st;
            consumed++;
            adv = adv || ix->array->ndim > 0;
            break;
        case NG_IDX_MASK:
            if (ix->array->dtype != NG_BOOL)
                return ng_error_set(NG_ERR_INDEX, "arrays used as indices must be of integer (or boolean) type");
            if ((st = check_device(a, ix->array)) != NG_OK)
                return st;
            consumed += ix->array->ndim;
            adv = true;
            break;
        default:
            return ng_error_set(NG_ERR_INTERNAL, "bad index kind %d", (int)ix->kind);
        }
    }
    if (consumed > a->ndim)
        return ng_error_set(NG_ERR_INDEX, "too many indices for array: array is %d-dimensional, but %d were indexed",
                            a->ndim, consumed);
    /* mask shapes first (NumPy checks them before any integer) */
    for (int i = 0, ax = 0; i < n; i++) {
        const NgIndex *ix = &index[i];
        if (ix->kind == NG_IDX_ELLIPSIS)
            ax += a->ndim - consumed;
        else if (ix->kind == NG_IDX_INT || ix->kind == NG_IDX_SLICE || ix->kind == NG_IDX_ARRAY)
            ax++;
        if (ix->kind != NG_IDX_MASK)
            continue;
        const NgArray *m = ix->array;
        for (int d = 0; d < m->ndim; d++, ax++)
            if (m->shape[d] != a->shape[ax] && m->shape[d] != 0) /* NumPy lets an empty mask axis pass */
                return ng_error_set(NG_ERR_INDEX, "boolean index did not match indexed array along axis %d; "
                                    "size of axis is %lld but size of corresponding boolean axis is %lld",
                                    ax, (long long)a->shape[ax], (long long)m->shape[d]);
    }
    int64_t offset = (int64_t)a->offset; /* bytes */
    int ax = 0;                           /* next axis of a */
    v->ndim = 0;
    for (int i = 0; i < n; i++) {
        const NgIndex *ix = &index[i];
        switch (ix->kind) {
        case NG_IDX_ARRAY:
            if (ix->array->ndim > 0) {
                Entry *e = &p->ent[p->nent++];
                e->item = i;
                e->kind = ENT_ARRAY;
                e->axis = v->ndim;
                e->naxes = 1;
                e->src_axis = ax;
                e->arr = ix->array;
                if ((st = push_axis(v, a->shape[ax], a->strides[ax])) != NG_OK)
                    return st;
                ax++;
                break;
            }
            /* a 0-d integer array is an integer */
            p->scalar_array = true;
            /* fall through */
        case NG_IDX_INT: {
            int64_t val = ix->i, extent = a->shape[ax];
            if (ix->kind == NG_IDX_ARRAY && (st = read_int(ix->array, &val)) != NG_OK)
                return st;
            int64_t w = val < 0 ? val + extent : val;
            if (w < 0 || w >= extent)
                return out_of_bounds(val, ax, extent);
            if (adv) { /* with arrays present, an integer is a 0-d advanced index */
                Entry *e = &p->ent[p->nent++];
                e->item = i;
                e->kind = ENT_SCALAR;
                e->axis = v->ndim;
                e->naxes = 1;
                e->src_axis = ax;
                e->value = w;
                if ((st = push_axis(v, extent, a->strides[ax])) != NG_OK)
                    return st;
            } else {
                offset += w * a->strides[ax];
            }
            ax++;
            break;
        }
        case NG_IDX_SLICE: {
            int64_t start = 0, step = 1, len = 0;
            if ((st = slice_resolve(ix, a->shape[ax], &start, &step, &len)) != NG_OK)
                return st;
            if (len > 0)
                offset += start * a->strides[ax];
            if ((st = push_axis(v, len, a->strides[ax] * step)) != NG_OK)
                return st;
            ax++;
            break;
        }
        case NG_IDX_NEWAXIS:
            if ((st = push_axis(v, 1, 0)) != NG_OK)
                return st;
            break;
        case NG_IDX_ELLIPSIS:
            for (int k = 0; k < a->ndim - consumed; k++, ax++)
                if ((st = push_axis(v, a->shape[ax], a->strides[ax])) != NG_OK)
                    return st;
            break;
        case NG_IDX_MASK: {
            const NgArray *m = ix->array;
            Entry *e = &p->ent[p->nent++];
            e->item = i;
            e->kind = ENT_POS;
            e->axis = v->ndim;
            e->src_axis = ax;
            NgArray *pos = &p->owned[p->nowned];
            if (m->ndim == 0) { /* a[True]: a new axis of extent 1 indexed by [0] (or by [] for False) */
                int64_t val, cnt;
                if ((st = read_int(m, &val)) != NG_OK)
                    return st;
                cnt = val != 0;
                NgScalar zero = {.kind = NG_KIND_INT};
                if ((st = ng_op_full(ng_array_device(a), NG_INT64, 1, &cnt, &zero, pos)) != NG_OK)
                    return st;
                e->naxes = 1;
                if ((st = push_axis(v, 1, 0)) != NG_OK) {
                    ng_array_release(pos);
                    return st;
                }
            } else {
                if ((st = mask_positions(m, pos)) != NG_OK)
                    return st;
                e->naxes = m->ndim;
                for (int d = 0; d < m->ndim; d++, ax++)
                    if ((st = push_axis(v, a->shape[ax], a->strides[ax])) != NG_OK) {
                        ng_array_release(pos);
                        return st;
                    }
            }
            p->nowned++;
            e->arr = pos;
            break;
        }
        }
    }
    for (; ax < a->ndim; ax++) /* axes nobody named */
        if ((st = push_axis(v, a->shape[ax], a->strides[ax])) != NG_OK)
            return st;
    v->offset = (size_t)offset;
    v->size = 1;
    for (int d = 0; d < v->ndim; d++)
        v->size *= v->shape[d];
    p->advanced = adv;
    if (!adv)
        return NG_OK;

    /* broadcast of the entries (integers are 0-d) */
    int ndims[NG_MAXDIMS];
    const int64_t *shapes[NG_MAXDIMS];
    int m = 0;
    for (int e = 0; e < p->nent; e++)
        if (p->ent[e].kind != ENT_SCALAR) {
            ndims[m] = p->ent[e].arr->ndim;
            shapes[m++] = p->ent[e].arr->shape;
        }
    if (ng_shape_broadcast(m, ndims, shapes, &p->bnd, p->bshape) != NG_OK) {
        char msg[1024] = "", one[160];
        for (int e = 0; e < p->nent; e++) {
            if (p->ent[e].kind == ENT_SCALAR)
                continue;
            const NgArray *x = p->ent[e].arr;
            for (int r = 0; r < p->ent[e].naxes; r++) { /* NumPy names a mask's positions once per axis */
                size_t at = strlen(msg);
                snprintf(msg + at, sizeof msg - at, "%s ", shape_str(x->ndim, x->shape, one, sizeof one));
            }
        }
        return ng_error_set(NG_ERR_INDEX, "shape mismatch: indexing arrays could not be broadcast together with "
                            "shapes %s", msg);
    }
    int64_t bsize = 1; /* NumPy checks no index when the broadcast selects nothing */
    for (int d = 0; d < p->bnd; d++)
        bsize *= p->bshape[d];
    for (int e = 0; e < p->nent && bsize > 0; e++)
        if (p->ent[e].kind == ENT_ARRAY &&
            (st = check_range(p->ent[e].arr, p->ent[e].src_axis, v->shape[p->ent[e].axis])) != NG_OK)
            return st;
    for (int e = 0; e < p->nent; e++)
        if (p->ent[e].kind == ENT_POS)
            merge_group(p, e);
    /* adjacent: no other index between them, not even None or an empty `...` */
    bool adjacent = true;
    for (int e = 1; e < p->nent; e++)
        adjacent = adjacent && p->ent[e].item == p->ent[e - 1].item + 1;
    int lo = p->ent[0].axis;
    /* result: [view axes before] + broadcast + [view axes after], or broadcast + all plain axes */
    int64_t plain[NG_MAXDIMS];
    int nplain = 0, nbefore = 0;
    int e = 0;
    for (int d = 0; d < v->ndim;) {
        if (e < p->nent && p->ent[e].axis == d) {
            d += p->ent[e].naxes;
            e++;
            continue;
        }
        if (d < lo)
            nbefore++;
        plain[nplain++] = v->shape[d];
        d++;
    }
    if (!adjacent)
        nbefore = 0;
    int rnd = nplain + p->bnd;
    if (rnd > NG_MAXDIMS)
        return ng_error_set(NG_ERR_INDEX, "number of dimensions must be within [0, %d], but is %d", NG_MAXDIMS, rnd);
    p->first = nbefore;
    memcpy(p->rshape, plain, sizeof(int64_t) * (size_t)nbefore);
    memcpy(p->rshape + nbefore, p->bshape, sizeof(int64_t) * (size_t)p->bnd);
    memcpy(p->rshape + nbefore + p->bnd, plain + nbefore, sizeof(int64_t) * (size_t)(nplain - nbefore));
    p->rnd = rnd;
    return NG_OK;
}

/* ---- the gather / scatter kernel ---- */

typedef struct IdxKey {
    uint8_t tag;                 /* 'x' gather, 'X' scatter, 'U' update (ufunc.at) */
    int8_t dtype;                /* element dtype of the view */
    int8_t vdtype;               /* scatter: value dtype */
    uint8_t vscalar;             /* scatter: the value is a kernel scalar */
    uint8_t vnd;                 /* rank of the view */
    uint8_t rnd;                 /* rank of the result (the selection) */
    uint8_t bnd;                 /* rank of the broadcast entries */
    uint8_t first;               /* where the broadcast dims sit in the result */
    uint8_t nent;                /* entries */
    uint8_t view_contig;         /* view's last axis is unit-stride */
    uint8_t res_contig;          /* result (gather) / value (scatter) last axis unit-stride */
    uint8_t flat;                /* one parallel loop over every result element (GPU targets) */
    uint8_t kind[NG_MAXDIMS];    /* ENT_* per entry */
    uint8_t axis[NG_MAXDIMS];    /* first view axis per entry */
    uint8_t naxes[NG_MAXDIMS];   /* view axes per entry */
    int8_t idtype[NG_MAXDIMS];   /* index array dtype */
    uint8_t icontig[NG_MAXDIMS]; /* index array's last (broadcast) axis unit-stride */
    uint8_t upd;                 /* update: UPD_* */
    uint8_t op;                  /* update: the NgOp */
    int8_t compute;              /* update: the dtype the op computes in */
    uint8_t unary;               /* update: the op takes no value */
} IdxKey;

/* How an update's kernel runs (update_mode): in parallel where no element can be selected
 * twice; by atomic read-modify-writes where the op allows any order (GPU targets; cpu integer
 * sums); else one element after another in the selection's order (NumPy's), on one thread. */
enum { UPD_PARALLEL = 1, UPD_ATOMIC, UPD_SERIAL };

/* One update of ufunc.at: view[vidx] = op(view[vidx], val) computed in the key's dtype and
 * cast back (NumPy's unsafe cast); an atomic one where the key says so (x - v as x + -v, the
 * same value for every x and v, signed zeros too). */
static NgIrRef update_element(NgIrKernel *k, const IdxKey *key, int view, const NgIrRef *vidx, NgIrRef val)
{
    NgDType dt = (NgDType)key->dtype, c = (NgDType)key->compute;
    NgOp op = (NgOp)key->op;
    if (key->upd == UPD_ATOMIC) {
        NgIrRef v = ng_ir_cast(k, dt, val);
        if (op == NG_OP_SUB)
            v = ng_ir_unary(k, NG_OP_NEG, dt, v);
        return ng_ir_atomic(k, op == NG_OP_SUB ? NG_OP_ADD : op, view, key->vnd, vidx, v);
    }
    NgIrRef x = ng_ir_cast(k, c, ng_ir_load(k, view, key->vnd, vidx));
    NgDType rdt = ng_op_result_of(op, c);
    NgIrRef r = key->unary ? ng_ir_unary(k, op, rdt, x) : ng_ir_binary(k, op, rdt, x, ng_ir_cast(k, c, val));
    return ng_ir_store(k, view, key->vnd, vidx, ng_ir_cast(k, dt, r));
}

/* Loops over the result (extents are scalars; flat on GPU targets, see
 * ng_ir_box: a thread per outer index would walk a whole block of the result
 * alone, 11820 elements each in eye[codes]); the body moves one element
 * between the view and the result/value. */
static NgStatus build_idx(const void *ctx, NgIrKernel *k)
{
    const IdxKey *key = ctx;
    bool scatter = key->tag != 'x', update = key->tag == 'U';
    NgDType dt = (NgDType)key->dtype;
    int R = key->rnd;
    int res = -1;
    if (scatter && !key->unary)
        res = key->vscalar ? ng_ir_param_scalar(k, (NgDType)key->vdtype)
                           : ng_ir_param_array(k, (NgDType)key->vdtype, R, key->res_contig, false);
    else if (!scatter)
        res = ng_ir_param_array(k, dt, R, key->res_contig, true);
    int view = ng_ir_param_array(k, dt, key->vnd, key->view_contig, scatter);
    int par[NG_MAXDIMS];
    for (int e = 0; e < key->nent; e++)
        par[e] = key->kind[e] == ENT_SCALAR ? ng_ir_param_scalar(k, NG_INT64)
                                            : ng_ir_param_array(k, (NgDType)key->idtype[e], key->bnd, key->icontig[e], false);
    int ext[NG_MAXDIMS], vars[NG_MAXDIMS];
    NgIrRef o[NG_MAXDIMS];
    for (int d = 0; d < R; d++) {
        ext[d] = ng_ir_param_scalar(k, NG_INT64);
        vars[d] = ng_ir_var(k, NG_INT64);
        o[d] = ng_ir_varref(k, vars[d]);
    }
    NgIrRef vidx[NG_MAXDIMS];
    bool taken[NG_MAXDIMS] = {false};
    const NgIrRef *b = o + key->first;
    for (int e = 0; e < key->nent; e++) {
        int a0 = key->axis[e], na = key->naxes[e];
        NgIrRef raw = key->kind[e] == ENT_SCALAR ? ng_ir_scalar(k, par[e])
                                                 : ng_ir_cast(k, NG_INT64, ng_ir_load(k, par[e], key->bnd, b));
        NgDType idt = (NgDType)key->idtype[e];
        if (key->kind[e] == ENT_ARRAY && (ng_dtype_is_signed(idt) || idt == NG_UINT64)) { /* uint64: as intp */
            NgIrRef neg = ng_ir_binary(k, NG_OP_LT, NG_BOOL, raw, ng_ir_const_i(k, NG_INT64, 0));
            raw = ng_ir_select(k, neg, ng_ir_binary(k, NG_OP_ADD, NG_INT64, raw, ng_ir_shape(k, view, a0)), raw);
        }
        /* unravel a flat position over the axes it covers (C order) */
        for (int d = a0 + na - 1; d > a0; d--) {
            NgIrRef n = ng_ir_shape(k, view, d);
            vidx[d] = ng_ir_binary(k, NG_OP_MOD, NG_INT64, raw, n);
            raw = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, raw, n);
            taken[d] = true;
        }
        vidx[a0] = raw;
        taken[a0] = true;
    }
    int r = 0;
    for (int d = 0; d < key->vnd; d++) {
        if (taken[d])
            continue;
        if (r == key->first)
            r += key->bnd;
        vidx[d] = o[r++];
    }
    NgIrRef body, val = NG_IR_NONE;
    if (res >= 0)
        val = key->vscalar ? ng_ir_scalar(k, res) : ng_ir_load(k, res, R, o);
    if (update)
        body = update_element(k, key, view, vidx, val);
    else if (scatter)
        body = ng_ir_store(k, view, key->vnd, vidx, ng_ir_cast(k, dt, val));
    else
        body = ng_ir_store(k, res, R, o, ng_ir_load(k, view, key->vnd, vidx));
    NgIrRef extent[NG_MAXDIMS];
    for (int d = 0; d < R; d++)
        extent[d] = ng_ir_scalar(k, ext[d]);
    if (key->upd == UPD_SERIAL) { /* the selection's order, on one thread */
        NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
        for (int d = R - 1; d >= 0; d--)
            body = ng_ir_for(k, vars[d], zero, extent[d], one, body, 0);
    } else {
        body = ng_ir_box(k, R, vars, extent, body, key->flat);
    }
    k->body = body;
    return k->status;
}

/* Element strides of array x broadcast (right-aligned) to rank nd. */
static void bstrides(const NgArray *x, int nd, int64_t *out)
{
    int off = nd - x->ndim, item = ng_array_itemsize(x);
    for (int d = 0; d < nd; d++) {
        int xd = d - off;
        out[d] = (xd < 0 || x->shape[xd] == 1) ? 0 : x->strides[xd] / item;
    }
}

/* An update's op (ufunc.at): NULL for a plain gather or scatter. */
typedef struct Update {
    NgOp op;
    NgDType compute;  /* the dtype the op computes in (NumPy's loop) */
    bool unary;       /* the op takes no value */
} Update;

/* How update u of plan p's selection runs on dev (UPD_*). On cpu only integer sums go in
 * parallel (any order gives NumPy's value; the emitter adds into a private copy per thread
 * where the array is small, a histogram's bins); floats keep NumPy's order there, bit for bit. */
static uint8_t update_mode(const Plan *p, const Update *u, const NgDevice *dev)
{
    bool repeats = p->advanced; /* an element selected twice: by an index array, or a broadcast axis */
    for (int d = 0; d < p->view.ndim; d++)
        repeats = repeats || (p->view.shape[d] > 1 && p->view.strides[d] == 0);
    if (!repeats)
        return UPD_PARALLEL;
    NgDType dt = p->view.dtype;
    if (dev->be->target->par == NG_PAR_OPENMP)
        return ng_dtype_is_int(dt) && u->compute == dt && (u->op == NG_OP_ADD || u->op == NG_OP_SUB)
               ? UPD_ATOMIC : UPD_SERIAL;
    bool any_order = u->op == NG_OP_ADD || u->op == NG_OP_SUB || u->op == NG_OP_MUL || u->op == NG_OP_MAXIMUM ||
                     u->op == NG_OP_MINIMUM || u->op == NG_OP_BITAND || u->op == NG_OP_BITOR || u->op == NG_OP_BITXOR;
    bool atomic = any_order && !u->unary && u->compute == dt &&
                  dt != NG_BOOL && dt != NG_FLOAT16 && (!ng_dtype_is_complex(dt) || u->op == NG_OP_ADD || u->op == NG_OP_SUB);
    return atomic ? UPD_ATOMIC : UPD_SERIAL;
}

/* Runs the gather (res: fresh result array), the scatter (value: array
 * broadcastable to the result shape, or scalar) or, with u, the update of
 * plan p. */
static NgStatus run_idx(const Plan *p, const NgArray *res, const NgArray *value, const NgScalar *scalar,
                        NgDType sdtype, const Update *u)
{
    int64_t rsize = 1;
    for (int d = 0; d < p->rnd; d++)
        rsize *= p->rshape[d];
    if (rsize == 0)
        return NG_OK;
    const NgArray *v = &p->view;
    int item = ng_array_itemsize(v);
    bool scatter = res == NULL;
    IdxKey key;
    memset(&key, 0, sizeof key);
    key.tag = u ? 'U' : scatter ? 'X' : 'x';
    key.dtype = (int8_t)v->dtype;
    key.vnd = (uint8_t)v->ndim;
    key.rnd = (uint8_t)p->rnd;
    key.bnd = (uint8_t)p->bnd;
    key.first = (uint8_t)p->first;
    key.nent = (uint8_t)p->nent;
    int64_t vstr[NG_MAXDIMS], rstr[NG_MAXDIMS], istr[NG_MAXDIMS][NG_MAXDIMS];
    for (int d = 0; d < v->ndim; d++)
        vstr[d] = v->strides[d] / item;
    key.view_contig = v->ndim > 0 && vstr[v->ndim - 1] == 1;
    const NgArray *rarr = scatter ? value : res;
    if (rarr) {
        bstrides(rarr, p->rnd, rstr);
        key.res_contig = p->rnd > 0 && rstr[p->rnd - 1] == 1;
    }
    if (scatter) {
        key.vscalar = value == NULL;
        key.vdtype = (int8_t)(value ? value->dtype : sdtype);
    }
    for (int e = 0; e < p->nent; e++) {
        const Entry *en = &p->ent[e];
        key.kind[e] = (uint8_t)en->kind;
        key.axis[e] = (uint8_t)en->axis;
        key.naxes[e] = (uint8_t)en->naxes;
        if (en->kind != ENT_SCALAR) {
            key.idtype[e] = (int8_t)en->arr->dtype;
            bstrides(en->arr, p->bnd, istr[e]);
            key.icontig[e] = p->bnd > 0 && istr[e][p->bnd - 1] == 1;
        }
    }
    NgDevice *dev = ng_array_device(v);
    key.flat = dev->be->target->par != NG_PAR_OPENMP && p->rnd > 1;
    if (u) {
        key.upd = update_mode(p, u, dev);
        key.op = (uint8_t)u->op;
        key.compute = (int8_t)u->compute;
        key.unary = u->unary;
    }
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, &key, sizeof key, build_idx, &key, &kern);
    if (st != NG_OK)
        return st;
    size_t cap = (size_t)(2 + 2 * NG_MAXDIMS) * (size_t)(p->nent + 2) + NG_MAXDIMS + 1;
    NgKArg *args = ng_malloc(sizeof *args * cap);
    if (!args)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory for kernel arguments");
    int n = 0;
    if (rarr)
        ng_kargs_array(args, &n, rarr, p->rnd, p->rshape, rstr);
    else if (scalar)
        ng_scalar_kargs(scalar, sdtype, args, &n);
    ng_kargs_array(args, &n, v, v->ndim, v->shape, vstr);
    for (int e = 0; e < p->nent; e++) {
        if (p->ent[e].kind == ENT_SCALAR)
            args[n++].i = p->ent[e].value;
        else
            ng_kargs_array(args, &n, p->ent[e].arr, p->bnd, p->bshape, istr[e]);
    }
    for (int d = 0; d < p->rnd; d++)
        args[n++].i = p->rshape[d];
    st = ng_kernel_launch(kern, args, n, key.flat ? rsize : p->rnd ? p->rshape[0] : 1, rsize);
    ng_free(args);
    return st;
}

/* ---- the API ---- */

NgStatus ng_index_get(const NgArray *a, int n, const NgIndex *index, NgArray *out)
{
    Plan p;
    NgStatus st = plan_index(a, n, index, &p);
    if (st == NG_OK && !p.advanced && p.scalar_array) {
        st = ng_op_astype(&p.view, p.view.dtype, out);
    } else if (st == NG_OK && !p.advanced) {
        *out = p.view; /* the plan's reference becomes the caller's */
        memset(&p.view, 0, sizeof p.view);
    } else if (st == NG_OK) {
        st = ng_array_empty(ng_array_device(a), a->dtype, p.rnd, p.rshape, out);
        if (st == NG_OK && (st = run_idx(&p, out, NULL, NULL, NG_NODTYPE, NULL)) != NG_OK)
            ng_array_release(out);
    }
    plan_free(&p);
    return st;
}

/* Drops leading extent-1 axes of value beyond rank nd (NumPy allows
 * a[0] = ones((1, 3)) for a of shape (2, 3)). */
static void strip_leading(const NgArray *value, int nd, NgArray *out)
{
    ng_array_view(value, out);
    int drop = 0;
    while (out->ndim - drop > nd && out->shape[drop] == 1)
        drop++;
    if (drop) {
        memmove(out->shape, out->shape + drop, sizeof(int64_t) * (size_t)(out->ndim - drop));
        memmove(out->strides, out->strides + drop, sizeof(int64_t) * (size_t)(out->ndim - drop));
        out->ndim -= drop;
    }
}

/* True if x broadcasts to exactly (nd, shape). */
static bool fits(const NgArray *x, int nd, const int64_t *shape)
{
    if (x->ndim > nd)
        return false;
    for (int d = 0; d < x->ndim; d++) {
        int64_t e = x->shape[x->ndim - 1 - d];
        if (e != 1 && e != shape[nd - 1 - d])
            return false;
    }
    return true;
}

/* The kernel dtype that carries a Python scalar's value. */
static NgDType scalar_dtype(const NgScalar *s)
{
    return s->kind == NG_KIND_COMPLEX ? NG_COMPLEX128 : s->kind == NG_KIND_FLOAT ? NG_FLOAT64
           : s->kind == NG_KIND_BOOL ? NG_BOOL : s->big ? NG_UINT64 : NG_INT64;
}

/* Runs plan p's scatter (u: NULL) or update of array `value`, broadcast to the selection (else
 * NumPy's ValueError for the call), read from a copy where it overlaps the view. */
static NgStatus scatter_array(const Plan *p, const NgArray *value, const Update *u)
{
    NgArray val, tmp;
    memset(&tmp, 0, sizeof tmp);
    strip_leading(value, p->rnd, &val);
    NgStatus st;
    if (!fits(&val, p->rnd, p->rshape)) {
        char s1[160], s2[160];
        st = u ? ng_error_set(NG_ERR_VALUE, "array is not broadcastable to correct shape")
               : ng_error_set(NG_ERR_VALUE, "shape mismatch: value array of shape %s could not be broadcast to "
                              "indexing result of shape %s", shape_str(value->ndim, value->shape, s1, sizeof s1),
                              shape_str(p->rnd, p->rshape, s2, sizeof s2));
    } else if (ng_array_may_overlap(&p->view, &val)) { /* a[idx] = a[...]: read a copy */
        if ((st = ng_op_astype(&val, val.dtype, &tmp)) == NG_OK)
            st = run_idx(p, NULL, &tmp, NULL, NG_NODTYPE, u);
    } else {
        st = run_idx(p, NULL, &val, NULL, NG_NODTYPE, u);
    }
    ng_array_release(&tmp);
    ng_array_release(&val);
    return st;
}

NgStatus ng_index_set(const NgArray *a, int n, const NgIndex *index, const NgOperand *value)
{
    Plan p;
    NgArray val;
    memset(&val, 0, sizeof val);
    NgStatus st = plan_index(a, n, index, &p);
    if (st != NG_OK)
        goto done;
    if (value->array && ng_array_device(value->array) != ng_array_device(a)) {
        st = ng_error_set(NG_ERR_VALUE, "cannot assign an array on %s into one on %s",
                          ng_device_name(ng_array_device(value->array)), ng_device_name(ng_array_device(a)));
        goto done;
    }
    if (!p.advanced) {
        if (value->array) {
            strip_leading(value->array, p.view.ndim, &val);
            if (!fits(&val, p.view.ndim, p.view.shape)) {
                char s1[160], s2[160];
                st = ng_error_set(NG_ERR_VALUE, "could not broadcast input array from shape %s into shape %s",
                                  shape_str(value->array->ndim, value->array->shape, s1, sizeof s1),
                                  shape_str(p.view.ndim, p.view.shape, s2, sizeof s2));
                goto done;
            }
            NgOperand op = {&val, {0}};
            st = ng_op_assign(&p.view, &op);
        } else {
            st = ng_op_assign(&p.view, value);
        }
        goto done;
    }
    if (!value->array) {
        NgScalar s = value->scalar;
        if (s.kind == NG_KIND_INT && (st = ng_scalar_check(&s, a->dtype)) != NG_OK)
            goto done;
        if (s.kind == NG_KIND_COMPLEX && a->dtype == NG_BOOL) /* NumPy: its truth */
            s = (NgScalar){.kind = NG_KIND_BOOL, .v.i = s.v.f != 0 || s.im != 0};
        if (s.kind == NG_KIND_COMPLEX && !ng_dtype_is_complex(a->dtype)) {
            /* NumPy converts the Python complex with float() / int(); a bool takes its truth */
            st = ng_error_set(NG_ERR_TYPE, ng_dtype_is_float(a->dtype)
                              ? "float() argument must be a string or a real number, not 'complex'"
                              : "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
            goto done;
        }
        st = run_idx(&p, NULL, NULL, &s, scalar_dtype(&s), NULL);
        goto done;
    }
    st = scatter_array(&p, value->array, NULL);
done:
    ng_array_release(&val);
    plan_free(&p);
    return st;
}

NgStatus ng_index_update(const NgArray *a, int n, const NgIndex *index, NgOp op, NgDType compute,
                         const NgOperand *value)
{
    bool unary = !ng_op_is_binary(op);
    if (op < 0 || op >= NG_NOPS || op == NG_OP_COPY || unary != (value == NULL))
        return ng_error_set(NG_ERR_INTERNAL, "update with op %d and %s value", (int)op, value ? "a" : "no");
    if (!ng_dtype_info(a->dtype)->supported || !ng_dtype_info(compute)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet",
                            ng_dtype_info(ng_dtype_info(a->dtype)->supported ? compute : a->dtype)->name);
    if (value && value->array && ng_array_device(value->array) != ng_array_device(a))
        return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s); move one with x.to(device)",
                            ng_device_name(ng_array_device(a)), ng_device_name(ng_array_device(value->array)));
    if (op == NG_OP_POW && ng_dtype_is_int(compute)) {
        NgStatus st = ng_check_int_exponent(value);
        if (st != NG_OK)
            return st;
    }
    Plan p;
    NgStatus st = plan_index(a, n, index, &p);
    if (st == NG_OK) {
        if (!p.advanced) { /* the view is the selection */
            p.rnd = p.view.ndim;
            memcpy(p.rshape, p.view.shape, sizeof(int64_t) * (size_t)p.rnd);
            p.first = p.bnd = 0;
        }
        Update u = {op, compute, unary};
        if (!value)
            st = run_idx(&p, NULL, NULL, NULL, NG_NODTYPE, &u);
        else if (!value->array)
            st = run_idx(&p, NULL, NULL, &value->scalar, scalar_dtype(&value->scalar), &u);
        else
            st = scatter_array(&p, value->array, &u);
    }
    plan_free(&p);
    return st;
}
