/* Gathering and rearranging: flip, diagonal (views); roll, tile, repeat,
 * pad, tril/triu (one "index-map gather" kernel); nonzero and repeat with
 * per-element counts (a chunked count + compaction); take (mode raise,
 * wrap, clip) over the indexing gather of src/ops/index.c.
 *
 * The index-map gather writes every element of its output from one element
 * of its input, each output axis mapped to an input axis on its own:
 *
 *     out[o0, ..., oR] = in[m0(o0), ..., mR(oR)]
 *
 * with m_d one of: identity, (o - b) mod n (roll, tile, pad "wrap"), clamp
 * (pad "edge"), mirrored with or without the edge (pad "reflect" and
 * "symmetric", periodic so any pad width works), o / b (repeat by a
 * constant). tril/triu are the identity map with a select on the last two
 * indices. NumPy pads axis by axis over the whole padded array, so the
 * non-constant modes really are separable per axis, as this kernel assumes.
 *
 * The gather runs in parallel over (outer index, chunk of the last axis):
 * the outer axes are unravelled once per work item, and the last axis is a
 * plain loop, so a 1-d roll still spreads over many work items.
 *
 * nonzero and repeat(counts) are "weighted compactions": each input
 * position i has a weight w(i) (1 if x[i] != 0; the count c[i]) and owns
 * w(i) consecutive output slots. A first kernel sums the weights of each
 * chunk in parallel; the host turns the few chunk sums into offsets; a
 * second kernel fills each chunk's slots from its offset on. */
#include <string.h>

#include "ops/ops_internal.h"

/* ---- the index-map gather ---- */

enum { TRI_NONE, TRI_LOWER, TRI_UPPER };

typedef struct MapKey {
    uint8_t tag;               /* 'G' */
    int8_t dtype;              /* element dtype */
    uint8_t ndim;              /* rank of input and output */
    uint8_t in_contig;         /* input's last axis unit-stride */
    uint8_t tri;               /* TRI_*: keep the lower/upper triangle of the last two axes */
    uint8_t map[NG_MAXDIMS];   /* NgMapKind per axis */
} MapKey;

static NgIrRef i64(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }

static NgIrRef bin(NgIrKernel *k, NgOp op, NgIrRef x, NgIrRef y)
{
    return ng_ir_binary(k, op, op >= NG_OP_EQ && op <= NG_OP_GE ? NG_BOOL : NG_INT64, x, y);
}

/* The map's formula, valid for any o. */
static NgIrRef map_formula(NgIrKernel *k, NgMapKind kind, NgIrRef o, NgIrRef b, NgIrRef n)
{
    NgIrRef j = bin(k, NG_OP_SUB, o, b);
    switch (kind) {
    case NG_MAP_ID: return o;
    case NG_MAP_WRAP: return bin(k, NG_OP_MOD, j, n);
    case NG_MAP_EDGE:
        return bin(k, NG_OP_MINIMUM, bin(k, NG_OP_MAXIMUM, j, i64(k, 0)), bin(k, NG_OP_SUB, n, i64(k, 1)));
    case NG_MAP_REFLECT: { /* period 2n-2 (1 when n == 1: everything maps to 0) */
        NgIrRef p = bin(k, NG_OP_MAXIMUM, bin(k, NG_OP_SUB, bin(k, NG_OP_ADD, n, n), i64(k, 2)), i64(k, 1));
        NgIrRef m = bin(k, NG_OP_MOD, j, p);
        return ng_ir_select(k, bin(k, NG_OP_LT, m, n), m, bin(k, NG_OP_SUB, p, m));
    }
    case NG_MAP_SYMMETRIC: { /* period 2n, the edge repeated */
        NgIrRef p = bin(k, NG_OP_ADD, n, n);
        NgIrRef m = bin(k, NG_OP_MOD, j, p);
        return ng_ir_select(k, bin(k, NG_OP_LT, m, n), m, bin(k, NG_OP_SUB, bin(k, NG_OP_SUB, p, i64(k, 1)), m));
    }
    case NG_MAP_DIV: return bin(k, NG_OP_FLOORDIV, o, b);
    }
    return o;
}

/* The input index of output index o along an axis of input extent n. */
static NgIrRef map_index(NgIrKernel *k, NgMapKind kind, NgIrRef o, NgIrRef b, NgIrRef n)
{
    if (kind != NG_MAP_EDGE && kind != NG_MAP_REFLECT && kind != NG_MAP_SYMMETRIC)
        return map_formula(k, kind, o, b, n);
    /* padding: inside the original extent the index is just o - b (a
     * well-predicted branch; the division-heavy formula only at the edges) */
    NgIrRef j = bin(k, NG_OP_SUB, o, b);
    NgIrRef inside = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, bin(k, NG_OP_GE, j, i64(k, 0)), bin(k, NG_OP_LT, j, n));
    return ng_ir_select(k, inside, j, map_formula(k, kind, o, b, n));
}

/* A new int64 variable bound to value (appended to stmts). */
static NgIrRef bind(NgIrKernel *k, NgIrRef value, NgIrRef *stmts, int *ns)
{
    int v = ng_ir_var(k, NG_INT64);
    stmts[(*ns)++] = ng_ir_let(k, v, value);
    return ng_ir_varref(k, v);
}

/* Parameters: out, in, b[ndim] (map operands), chunk (last-axis run per
 * work item), items (work items), k (tri only).
 *
 * Per work item: the outer output indices and their input indices are
 * bound once; along the last axis, WRAP copies runs of consecutive input
 * elements, DIV steps its input index (no division per element either
 * way), the other maps use the formula. */
static NgStatus build_map(const void *ctx, NgIrKernel *k)
{
    const MapKey *key = ctx;
    NgDType dt = (NgDType)key->dtype;
    int R = key->ndim;
    NgMapKind lastmap = (NgMapKind)key->map[R - 1];
    int out = ng_ir_param_array(k, dt, R, true, true);
    int in = ng_ir_param_array(k, dt, R, key->in_contig, false);
    int b[NG_MAXDIMS];
    for (int d = 0; d < R; d++)
        b[d] = ng_ir_param_scalar(k, NG_INT64);
    int chunk = ng_ir_param_scalar(k, NG_INT64), items = ng_ir_param_scalar(k, NG_INT64);
    int kk = key->tri ? ng_ir_param_scalar(k, NG_INT64) : -1;
    int vt = ng_ir_var(k, NG_INT64), vj = ng_ir_var(k, NG_INT64);
    NgIrRef t = ng_ir_varref(k, vt), j = ng_ir_varref(k, vj), one = i64(k, 1), zero = i64(k, 0);
    NgIrRef last = ng_ir_shape(k, out, R - 1), n_last = ng_ir_shape(k, in, R - 1), bl = ng_ir_scalar(k, b[R - 1]);
    NgIrRef ch = ng_ir_scalar(k, chunk);
    NgIrRef stmts[3 * NG_MAXDIMS + 10]; /* 3 binds per outer axis, 4 per item, last-axis setup, the loop */
    int ns = 0;
    /* work item t: chunk t % nch of the last axis of outer row t / nch */
    NgIrRef nch = bind(k, bin(k, NG_OP_FLOORDIV, bin(k, NG_OP_ADD, last, bin(k, NG_OP_SUB, ch, one)), ch), stmts, &ns);
    NgIrRef q = bind(k, bin(k, NG_OP_FLOORDIV, t, nch), stmts, &ns);
    NgIrRef lo = bind(k, bin(k, NG_OP_MUL, bin(k, NG_OP_MOD, t, nch), ch), stmts, &ns);
    NgIrRef hi = bind(k, bin(k, NG_OP_MINIMUM, bin(k, NG_OP_ADD, lo, ch), last), stmts, &ns);
    NgIrRef o[NG_MAXDIMS], src[NG_MAXDIMS];
    for (int d = R - 2; d >= 0; d--) {
        NgIrRef n = ng_ir_shape(k, out, d);
        o[d] = bind(k, d ? bin(k, NG_OP_MOD, q, n) : q, stmts, &ns);
        if (d)
            q = bind(k, bin(k, NG_OP_FLOORDIV, q, n), stmts, &ns);
    }
    for (int d = 0; d < R - 1; d++)
        src[d] = bind(k, map_index(k, (NgMapKind)key->map[d], o[d], ng_ir_scalar(k, b[d]), ng_ir_shape(k, in, d)),
                      stmts, &ns);
    o[R - 1] = j;
    NgIrRef step[3];
    int nstep = 0;
    int vs = ng_ir_var(k, NG_INT64), vj0 = ng_ir_var(k, NG_INT64), vseg = ng_ir_var(k, NG_INT64);
    NgIrRef s = ng_ir_varref(k, vs), j0 = ng_ir_varref(k, vj0), seg = ng_ir_varref(k, vseg);
    if (lastmap == NG_MAP_WRAP) { /* runs of consecutive input elements, s advancing with j */
        src[R - 1] = bin(k, NG_OP_ADD, s, bin(k, NG_OP_SUB, j, j0));
    } else if (lastmap == NG_MAP_DIV) {
        src[R - 1] = s;
        NgIrRef s1 = bin(k, NG_OP_ADD, s, one);
        int vr = ng_ir_var(k, NG_INT64); /* r counts the copies of element s made so far */
        NgIrRef r = ng_ir_varref(k, vr), r1 = bin(k, NG_OP_ADD, r, one), full = bin(k, NG_OP_EQ, r1, bl);
        stmts[ns++] = ng_ir_let(k, vr, bin(k, NG_OP_MOD, lo, bl));
        step[nstep++] = ng_ir_assign(k, vs, ng_ir_select(k, full, s1, s));
        step[nstep++] = ng_ir_assign(k, vr, ng_ir_select(k, full, zero, r1));
    } else {
        src[R - 1] = map_index(k, lastmap, j, bl, n_last);
    }
    if (lastmap == NG_MAP_WRAP || lastmap == NG_MAP_DIV)
        stmts[ns++] = ng_ir_let(k, vs, map_index(k, lastmap, lo, bl, n_last));
    NgIrRef val = ng_ir_load(k, in, R, src);
    if (key->tri) { /* j - i <= k keeps the lower triangle; j - i >= k the upper one */
        NgIrRef diff = bin(k, NG_OP_SUB, o[R - 1], o[R - 2]);
        NgIrRef keep = bin(k, key->tri == TRI_LOWER ? NG_OP_LE : NG_OP_GE, diff, ng_ir_scalar(k, kk));
        val = ng_ir_select(k, keep, val, ng_ir_const_i(k, dt, 0));
    }
    NgIrRef body[4] = {ng_ir_store(k, out, R, o, val)};
    memcpy(body + 1, step, sizeof(NgIrRef) * (size_t)nstep);
    if (lastmap == NG_MAP_WRAP) {
        /* while j0 < hi: copy the run up to the input's end (an affine,
         * vectorisable loop), then continue from input index 0 */
        NgIrRef run[4] = {
            ng_ir_assign(k, vseg, bin(k, NG_OP_MINIMUM, bin(k, NG_OP_SUB, hi, j0), bin(k, NG_OP_SUB, n_last, s))),
            ng_ir_for(k, vj, j0, bin(k, NG_OP_ADD, j0, seg), one, body[0], 0),
            ng_ir_assign(k, vj0, bin(k, NG_OP_ADD, j0, seg)),
            ng_ir_assign(k, vs, zero),
        };
        stmts[ns++] = ng_ir_let(k, vj0, lo);
        stmts[ns++] = ng_ir_let(k, vseg, zero);
        stmts[ns++] = ng_ir_while(k, bin(k, NG_OP_LT, j0, hi), ng_ir_block(k, 4, run));
    } else {
        stmts[ns++] = ng_ir_for(k, vj, lo, hi, one, ng_ir_block(k, 1 + nstep, body), 0);
    }
    k->body = ng_ir_for(k, vt, zero, ng_ir_scalar(k, items), one, ng_ir_block(k, ns, stmts), NG_IR_PARALLEL);
    return k->status;
}

/* out (allocated, same rank as a) = the gather of a under maps/b. */
static NgStatus run_map(const NgArray *a, const NgArray *out, const NgMapKind *maps, const int64_t *b, int tri,
                        int64_t kdiag)
{
    if (out->size == 0)
        return NG_OK;
    NgArray a1, o1;
    const NgArray *src = a, *dst = out;
    NgMapKind m1 = NG_MAP_ID;
    int64_t b1 = 0;
    if (a->ndim == 0) { /* a 0-d copy: view both as one element */
        ng_array_view(a, &a1);
        ng_array_view(out, &o1);
        a1.ndim = o1.ndim = 1;
        a1.shape[0] = o1.shape[0] = 1;
        a1.strides[0] = o1.strides[0] = ng_array_itemsize(a);
        src = &a1, dst = &o1, maps = &m1, b = &b1;
    }
    int R = src->ndim, item = ng_array_itemsize(src);
    MapKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'G';
    key.dtype = (int8_t)src->dtype;
    key.ndim = (uint8_t)R;
    key.tri = (uint8_t)tri;
    int64_t istr[NG_MAXDIMS], ostr[NG_MAXDIMS];
    for (int d = 0; d < R; d++) {
        istr[d] = src->strides[d] / item;
        ostr[d] = dst->strides[d] / item;
        key.map[d] = (uint8_t)maps[d];
    }
    key.in_contig = istr[R - 1] == 1;
    int64_t outer = dst->size / dst->shape[R - 1], last = dst->shape[R - 1];
    /* enough work items for a GPU's threads; on the CPU, enough for its
     * threads and otherwise long runs along the last axis */
    int64_t want = ng_array_device(src)->be->target->par == NG_PAR_OPENMP ? 256 : 65536;
    int64_t nch = (want + outer - 1) / outer;
    if (nch > (last + 255) / 256)
        nch = (last + 255) / 256;
    if (nch < 1)
        nch = 1;
    int64_t chunk = (last + nch - 1) / nch;
    nch = (last + chunk - 1) / chunk;
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(ng_array_device(src), &key, sizeof key, build_map, &key, &kern);
    if (st == NG_OK) {
        NgKArg args[5 * NG_MAXDIMS + 16]; /* two arrays (2 + 2 per axis), b per axis, 3 scalars */
        int n = 0;
        ng_kargs_array(args, &n, dst, R, dst->shape, ostr);
        ng_kargs_array(args, &n, src, R, src->shape, istr);
        for (int d = 0; d < R; d++)
            args[n++].i = b[d];
        args[n++].i = chunk;
        args[n++].i = outer * nch;
        if (tri)
            args[n++].i = kdiag;
        st = ng_kernel_launch(kern, args, n, outer * nch, dst->size);
    }
    if (src == &a1) {
        ng_array_release(&a1);
        ng_array_release(&o1);
    }
    return st;
}

NgStatus ng_op_gather_map(const NgArray *a, int ndim, const int64_t *shape, const NgMapKind *maps,
                          const int64_t *b, NgArray *out)
{
    if (ndim != a->ndim)
        return ng_error_set(NG_ERR_INTERNAL, "gather_map: rank %d for an array of rank %d", ndim, a->ndim);
    NgStatus st = ng_array_empty(ng_array_device(a), a->dtype, ndim, shape, out);
    if (st == NG_OK && (st = run_map(a, out, maps, b, TRI_NONE, 0)) != NG_OK)
        ng_array_release(out);
    return st;
}

/* ---- views ---- */

NgStatus ng_op_flip(const NgArray *a, int naxes, const int *axes, NgArray *out)
{
    bool flip[NG_MAXDIMS] = {false};
    for (int i = 0; i < (naxes < 0 ? a->ndim : naxes); i++) {
        int ax = naxes < 0 ? i : axes[i];
        NgStatus st = ng_axis_normalize(&ax, a->ndim);
        if (st != NG_OK)
            return st;
        if (flip[ax])
            return ng_error_set(NG_ERR_VALUE, "repeated axis");
        flip[ax] = true;
    }
    ng_array_view(a, out);
    for (int d = 0; d < a->ndim; d++)
        if (flip[d] && a->shape[d] > 1) {
            out->offset = (size_t)((int64_t)out->offset + (a->shape[d] - 1) * a->strides[d]);
            out->strides[d] = -a->strides[d];
        }
    return NG_OK;
}

NgStatus ng_op_diagonal(const NgArray *a, int64_t offset, int axis1, int axis2, NgArray *out)
{
    if (a->ndim < 2)
        return ng_error_set(NG_ERR_VALUE, "diag requires an array of at least two dimensions");
    NgStatus st;
    if ((st = ng_axis_normalize(&axis1, a->ndim)) != NG_OK || (st = ng_axis_normalize(&axis2, a->ndim)) != NG_OK)
        return st;
    if (axis1 == axis2)
        return ng_error_set(NG_ERR_VALUE, "axis1 and axis2 cannot be the same");
    int64_t n1 = a->shape[axis1], n2 = a->shape[axis2], len, start;
    if (offset >= 0) {
        len = n2 - offset < n1 ? n2 - offset : n1;
        start = offset * a->strides[axis2];
    } else {
        len = n1 + offset < n2 ? n1 + offset : n2;
        start = -offset * a->strides[axis1];
    }
    if (len <= 0) {
        len = 0;
        start = 0;
    }
    NgArray v;
    ng_array_view(a, &v);
    int nd = 0;
    for (int d = 0; d < a->ndim; d++)
        if (d != axis1 && d != axis2) {
            v.shape[nd] = a->shape[d];
            v.strides[nd++] = a->strides[d];
        }
    v.shape[nd] = len;
    v.strides[nd++] = a->strides[axis1] + a->strides[axis2];
    v.ndim = nd;
    v.offset = (size_t)((int64_t)v.offset + start);
    v.size = 1;
    for (int d = 0; d < nd; d++)
        v.size *= v.shape[d];
    *out = v;
    return NG_OK;
}

/* ---- gathers through the map kernel ---- */

NgStatus ng_op_roll(const NgArray *a, int naxes, const int *axes, const int64_t *shifts, NgArray *out)
{
    NgMapKind maps[NG_MAXDIMS];
    int64_t b[NG_MAXDIMS] = {0};
    for (int d = 0; d < a->ndim; d++)
        maps[d] = NG_MAP_ID;
    for (int i = 0; i < naxes; i++) { /* shifts of a repeated axis add up, as NumPy's */
        int ax = axes[i];
        NgStatus st = ng_axis_normalize(&ax, a->ndim);
        if (st != NG_OK)
            return st;
        maps[ax] = NG_MAP_WRAP;
        if (a->shape[ax] > 0)
            b[ax] = ((b[ax] + shifts[i] % a->shape[ax]) % a->shape[ax] + a->shape[ax]) % a->shape[ax];
    }
    return ng_op_gather_map(a, a->ndim, a->shape, maps, b, out);
}

NgStatus ng_op_tile(const NgArray *a, int nreps, const int64_t *reps, NgArray *out)
{
    int nd = nreps > a->ndim ? nreps : a->ndim;
    if (nd > NG_MAXDIMS)
        return ng_error_set(NG_ERR_VALUE, "maximum supported dimension for an ndarray is %d, found %d", NG_MAXDIMS, nd);
    int64_t ashape[NG_MAXDIMS], shape[NG_MAXDIMS], b[NG_MAXDIMS] = {0};
    NgMapKind maps[NG_MAXDIMS];
    for (int d = 0; d < nd; d++) { /* a and reps both right-aligned, padded with 1s */
        int ad = d - (nd - a->ndim), rd = d - (nd - nreps);
        int64_t r = rd >= 0 ? reps[rd] : 1;
        if (r < 0)
            return ng_error_set(NG_ERR_VALUE, "negative dimensions are not allowed");
        ashape[d] = ad >= 0 ? a->shape[ad] : 1;
        shape[d] = ashape[d] * r;
        maps[d] = NG_MAP_WRAP;
    }
    NgArray v;
    NgStatus st = ng_op_reshape(a, nd, ashape, &v);
    if (st != NG_OK)
        return st;
    st = ng_op_gather_map(&v, nd, shape, maps, b, out);
    ng_array_release(&v);
    return st;
}

NgStatus ng_op_tri(const NgArray *a, int64_t k, bool upper, NgArray *out)
{
    if (a->ndim < 2)
        return ng_error_set(NG_ERR_VALUE, "input array must be at least 2-d");
    NgMapKind maps[NG_MAXDIMS];
    int64_t b[NG_MAXDIMS] = {0};
    for (int d = 0; d < a->ndim; d++)
        maps[d] = NG_MAP_ID;
    NgStatus st = ng_array_empty(ng_array_device(a), a->dtype, a->ndim, a->shape, out);
    /* lower keeps j - i <= k; upper keeps j - i >= k */
    if (st == NG_OK && (st = run_map(a, out, maps, b, upper ? TRI_UPPER : TRI_LOWER, k)) != NG_OK)
        ng_array_release(out);
    return st;
}

/* Constant padding: NumPy copies a into the middle, then fills each axis's
 * two slabs (the whole extent of every other axis) in axis order, so a
 * later axis's value wins in the corners. */
static NgStatus pad_constant(const NgArray *a, const int64_t *width, const NgScalar *values, NgArray *out)
{
    int nd = a->ndim;
    int64_t shape[NG_MAXDIMS] = {0};
    for (int d = 0; d < nd; d++)
        shape[d] = a->shape[d] + width[2 * d] + width[2 * d + 1];
    NgStatus st = ng_array_empty(ng_array_device(a), a->dtype, nd, shape, out);
    if (st != NG_OK)
        return st;
    NgArray part;
    ng_array_view(out, &part);
    for (int d = 0; d < nd; d++) {
        part.offset += (size_t)(width[2 * d] * out->strides[d]);
        part.shape[d] = a->shape[d];
    }
    part.size = a->size;
    NgOperand src = {a, {0}};
    st = ng_op_assign(&part, &src);
    ng_array_release(&part);
    for (int d = 0; d < nd && st == NG_OK; d++)
        for (int side = 0; side < 2 && st == NG_OK; side++) {
            int64_t w = width[2 * d + side];
            if (w == 0)
                continue;
            ng_array_view(out, &part);
            if (side)
                part.offset += (size_t)((shape[d] - w) * out->strides[d]);
            part.shape[d] = w;
            part.size = out->size / shape[d] * w;
            NgOperand v = {NULL, values[2 * d + side]};
            st = ng_op_assign(&part, &v);
            ng_array_release(&part);
        }
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_pad(const NgArray *a, const int64_t *width, NgPadMode mode, const NgScalar *values, NgArray *out)
{
    int nd = a->ndim;
    for (int d = 0; d < 2 * nd; d++)
        if (width[d] < 0)
            return ng_error_set(NG_ERR_VALUE, "index can't contain negative values");
    if (mode == NG_PAD_CONSTANT || nd == 0)
        return nd == 0 ? ng_op_astype(a, a->dtype, out) : pad_constant(a, width, values, out);
    int64_t shape[NG_MAXDIMS] = {0}, b[NG_MAXDIMS] = {0};
    NgMapKind maps[NG_MAXDIMS] = {NG_MAP_ID};
    static const NgMapKind kinds[] = {[NG_PAD_EDGE] = NG_MAP_EDGE, [NG_PAD_REFLECT] = NG_MAP_REFLECT,
                                      [NG_PAD_SYMMETRIC] = NG_MAP_SYMMETRIC, [NG_PAD_WRAP] = NG_MAP_WRAP};
    for (int d = 0; d < nd; d++) {
        if (a->shape[d] == 0 && (width[2 * d] || width[2 * d + 1]))
            return ng_error_set(NG_ERR_VALUE, "can't extend empty axis %d using modes other than 'constant' or "
                                "'empty'", d);
        shape[d] = a->shape[d] + width[2 * d] + width[2 * d + 1];
        b[d] = width[2 * d];
        maps[d] = kinds[mode];
    }
    return ng_op_gather_map(a, nd, shape, maps, b, out);
}

/* ---- weighted compaction: nonzero and repeat(counts) ---- */

enum { W_NONZERO, W_COUNTS };

typedef struct CompKey {
    uint8_t tag;      /* 'c' sum of weights per chunk; 'C' fill the slots */
    uint8_t weight;   /* W_NONZERO: x != 0; W_COUNTS: x */
    int8_t dtype;     /* input dtype */
    uint8_t ndim;     /* W_NONZERO fill: rank to unravel into */
} CompKey;

/* Parameters, count: sums[nchunks], in, chunk.
 * fill: out (nonzero: (ndim, total); counts: (total,)), in, offsets[nchunks + 1], chunk,
 * shape[ndim] (nonzero). One work item per chunk. */
static NgStatus build_comp(const void *ctx, NgIrKernel *k)
{
    const CompKey *key = ctx;
    bool fill = key->tag == 'C';
    NgDType dt = (NgDType)key->dtype;
    int R = key->weight == W_NONZERO ? 2 : 1;
    int out = ng_ir_param_array(k, NG_INT64, fill ? R : 1, true, true);
    int in = ng_ir_param_array(k, dt, 1, true, false);
    int offs = fill ? ng_ir_param_array(k, NG_INT64, 1, true, false) : -1;
    int chunk = ng_ir_param_scalar(k, NG_INT64);
    int shp[NG_MAXDIMS];
    for (int d = 0; fill && key->weight == W_NONZERO && d < key->ndim; d++)
        shp[d] = ng_ir_param_scalar(k, NG_INT64);
    int vc = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64), vn = ng_ir_var(k, NG_INT64);
    NgIrRef c = ng_ir_varref(k, vc), i = ng_ir_varref(k, vi), acc = ng_ir_varref(k, vn);
    NgIrRef one = i64(k, 1), zero = i64(k, 0);
    NgIrRef lo = bin(k, NG_OP_MUL, c, ng_ir_scalar(k, chunk));
    NgIrRef hi = bin(k, NG_OP_MINIMUM, bin(k, NG_OP_ADD, lo, ng_ir_scalar(k, chunk)), ng_ir_shape(k, in, 0));
    NgIrRef x = ng_ir_load(k, in, 1, &i);
    NgIrRef w = key->weight == W_NONZERO ? ng_ir_binary(k, NG_OP_NE, NG_BOOL, x, ng_ir_const_i(k, dt, 0))
                                         : ng_ir_cast(k, NG_INT64, x);
    /* fill: offsets has one more entry than there are chunks (the total) */
    NgIrRef stmts[3], inner, nchunks = fill ? bin(k, NG_OP_SUB, ng_ir_shape(k, offs, 0), one) : ng_ir_shape(k, out, 0);
    if (!fill) {
        inner = ng_ir_for(k, vi, lo, hi, one, ng_ir_assign(k, vn, bin(k, NG_OP_ADD, acc, ng_ir_cast(k, NG_INT64, w))), 0);
        ng_ir_reduce(k, inner, vn, NG_OP_ADD);
        stmts[0] = ng_ir_let(k, vn, zero);
        stmts[1] = inner;
        stmts[2] = ng_ir_store(k, out, 1, &c, acc);
        k->body = ng_ir_for(k, vc, zero, nchunks, one, ng_ir_block(k, 3, stmts), NG_IR_PARALLEL);
        return k->status;
    }
    NgIrRef body;
    if (key->weight == W_NONZERO) { /* out[d, acc] = coordinate d of flat position i */
        NgIrRef steps[NG_MAXDIMS + 1], q = i;
        for (int d = key->ndim - 1; d >= 0; d--) {
            NgIrRef n = ng_ir_scalar(k, shp[d]);
            NgIrRef at[2] = {i64(k, d), acc};
            steps[d] = ng_ir_store(k, out, 2, at, d ? bin(k, NG_OP_MOD, q, n) : q);
            q = bin(k, NG_OP_FLOORDIV, q, n);
        }
        if (key->ndim == 1) {
            /* branch-free on the data: store i at acc whenever a true element
             * is still to come in this chunk (acc < its end), advance acc by
             * w; a slot written for a false element is overwritten by the
             * next true one. The remaining branch is predictable. */
            NgIrRef c1 = bin(k, NG_OP_ADD, c, one);
            NgIrRef steps1[2] = {ng_ir_if(k, bin(k, NG_OP_LT, acc, ng_ir_load(k, offs, 1, &c1)), steps[0], NG_IR_NONE),
                                 ng_ir_assign(k, vn, bin(k, NG_OP_ADD, acc, ng_ir_cast(k, NG_INT64, w)))};
            body = ng_ir_block(k, 2, steps1);
        } else {
            steps[key->ndim] = ng_ir_assign(k, vn, bin(k, NG_OP_ADD, acc, one));
            body = ng_ir_if(k, w, ng_ir_block(k, key->ndim + 1, steps), NG_IR_NONE);
        }
    } else { /* slots acc .. acc + x[i] hold i */
        int vr = ng_ir_var(k, NG_INT64);
        NgIrRef r = ng_ir_varref(k, vr), at = bin(k, NG_OP_ADD, acc, r);
        NgIrRef steps[2] = {ng_ir_for(k, vr, zero, w, one, ng_ir_store(k, out, 1, &at, i), 0),
                            ng_ir_assign(k, vn, bin(k, NG_OP_ADD, acc, w))};
        body = ng_ir_block(k, 2, steps);
    }
    inner = ng_ir_for(k, vi, lo, hi, one, body, 0);
    stmts[0] = ng_ir_let(k, vn, ng_ir_load(k, offs, 1, &c));
    stmts[1] = inner;
    k->body = ng_ir_for(k, vc, zero, nchunks, one, ng_ir_block(k, 2, stmts), NG_IR_PARALLEL);
    return k->status;
}

/* Runs the compaction of contiguous 1-d `flat` with weight kind `weight`;
 * nonzero unravels positions over (ndim, shape). *out: (ndim, total) or
 * (total,) int64. */
static NgStatus compact(const NgArray *flat, int weight, int ndim, const int64_t *shape, NgArray *out)
{
    NgDevice *dev = ng_array_device(flat);
    int64_t total = flat->size, one = 1;
    /* chunks: a few per CPU thread; on a GPU, one per thread of a modest grid
     * (the host prefix sum over their counts stays small either way) */
    bool cpu = dev->be->target->par == NG_PAR_OPENMP;
    int64_t chunk = (total + (cpu ? 1023 : 32767)) / (cpu ? 1024 : 32768);
    if (chunk < (cpu ? 4096 : 64))
        chunk = cpu ? 4096 : 64;
    int64_t nchunks = (total + chunk - 1) / chunk;
    NgArray sums;
    memset(&sums, 0, sizeof sums);
    memset(out, 0, sizeof *out);
    int64_t *host = ng_malloc(sizeof(int64_t) * (size_t)(nchunks + 1));
    if (!host)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory for chunk counts");
    CompKey key = {'c', (uint8_t)weight, (int8_t)flat->dtype, (uint8_t)(weight == W_NONZERO ? ndim : 0)};
    const NgKernel *kern;
    NgKArg args[2 * NG_MAXDIMS + 24];
    int n = 0;
    int64_t found = 0;
    NgStatus st = NG_OK;
    if (nchunks > 0) {
        int64_t nsums = nchunks + 1; /* counts, then offsets and the total */
        if ((st = ng_array_empty(dev, NG_INT64, 1, &nsums, &sums)) != NG_OK ||
            (st = ng_kernel_get(dev, &key, sizeof key, build_comp, &key, &kern)) != NG_OK)
            goto done;
        ng_kargs_array(args, &n, &sums, 1, &nchunks, &one);
        ng_kargs_array(args, &n, flat, 1, &total, &one);
        args[n++].i = chunk;
        if ((st = ng_kernel_launch(kern, args, n, nchunks, total)) != NG_OK ||
            (st = ng_array_download(&sums, host, NULL)) != NG_OK)
            goto done;
        for (int64_t c = 0; c < nchunks; c++) { /* exclusive prefix sum of the few chunk sums */
            int64_t s = host[c];
            host[c] = found;
            found += s;
        }
        host[nchunks] = found;
    }
    int64_t oshape[2] = {ndim, found};
    bool nz = weight == W_NONZERO;
    if ((st = ng_array_empty(dev, NG_INT64, nz ? 2 : 1, nz ? oshape : &found, out)) != NG_OK)
        goto done;
    if (found == 0 || (nz && ndim == 0))
        goto done;
    if ((st = ng_array_upload(&sums, host, NULL)) != NG_OK)
        goto done;
    key.tag = 'C';
    if ((st = ng_kernel_get(dev, &key, sizeof key, build_comp, &key, &kern)) != NG_OK)
        goto done;
    n = 0;
    int64_t ostr[2] = {found, 1};
    ng_kargs_array(args, &n, out, nz ? 2 : 1, nz ? oshape : &found, nz ? ostr : &one);
    ng_kargs_array(args, &n, flat, 1, &total, &one);
    int64_t noffs = nchunks + 1;
    ng_kargs_array(args, &n, &sums, 1, &noffs, &one);
    args[n++].i = chunk;
    for (int d = 0; nz && d < ndim; d++)
        args[n++].i = shape[d];
    st = ng_kernel_launch(kern, args, n, nchunks, total);
done:
    if (st != NG_OK)
        ng_array_release(out);
    ng_free(host);
    ng_array_release(&sums);
    return st;
}

NgStatus ng_op_nonzero(const NgArray *a, NgArray *out)
{
    NgArray flat;
    int64_t size = a->size;
    NgStatus st = ng_op_reshape(a, 1, &size, &flat); /* a view when a is contiguous */
    if (st != NG_OK)
        return st;
    if (!ng_array_is_c_contiguous(&flat)) {
        NgArray c;
        st = ng_op_ascontiguous(&flat, true, &c);
        ng_array_release(&flat);
        if (st != NG_OK)
            return st;
        flat = c;
    }
    st = compact(&flat, W_NONZERO, a->ndim, a->shape, out);
    ng_array_release(&flat);
    return st;
}

/* Smallest value of integer array x (x non-empty), downloaded. */
static NgStatus min_value(const NgArray *x, int64_t *v) { return ng_ops_reduce_int(NG_RED_MIN, x, v); }

/* One NgIndex list selecting `idx` along `axis` of a rank-nd array. */
static void along_axis(int nd, int axis, const NgArray *idx, NgIndex *items)
{
    memset(items, 0, sizeof(NgIndex) * (size_t)nd);
    for (int d = 0; d < nd; d++)
        items[d].kind = NG_IDX_SLICE;
    items[axis].kind = NG_IDX_ARRAY;
    items[axis].array = idx;
}

NgStatus ng_op_repeat(const NgArray *a, const NgArray *counts, int64_t count, int axis, NgArray *out)
{
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    int64_t n = a->shape[axis];
    if (counts && counts->size == 1) { /* one count for every element */
        NgArray c64;
        if ((st = ng_op_astype(counts, NG_INT64, &c64)) != NG_OK)
            return st;
        st = ng_array_download(&c64, &count, NULL);
        ng_array_release(&c64);
        if (st != NG_OK)
            return st;
        counts = NULL;
    }
    if (!counts) {
        if (count < 0)
            return ng_error_set(NG_ERR_VALUE, "repeats may not contain negative values.");
        NgMapKind maps[NG_MAXDIMS];
        int64_t b[NG_MAXDIMS] = {0}, shape[NG_MAXDIMS];
        for (int d = 0; d < a->ndim; d++) {
            maps[d] = d == axis ? NG_MAP_DIV : NG_MAP_ID;
            b[d] = d == axis ? (count ? count : 1) : 0;
            shape[d] = d == axis ? n * count : a->shape[d];
        }
        return ng_op_gather_map(a, a->ndim, shape, maps, b, out);
    }
    if (counts->ndim != 1 || counts->size != n) {
        char x[64], y[64];
        return ng_error_set(NG_ERR_VALUE, "operands could not be broadcast together with shape %s %s",
                            ng_shape_format(1, &n, x, sizeof x), ng_shape_format(counts->ndim, counts->shape, y, sizeof y));
    }
    int64_t lo = 0;
    if (n > 0 && (st = min_value(counts, &lo)) != NG_OK)
        return st;
    if (lo < 0)
        return ng_error_set(NG_ERR_VALUE, "repeats may not contain negative values.");
    NgArray c, idx;
    if ((st = ng_op_ascontiguous(counts, false, &c)) != NG_OK)
        return st;
    st = compact(&c, W_COUNTS, 0, NULL, &idx);
    ng_array_release(&c);
    if (st != NG_OK)
        return st;
    NgIndex items[NG_MAXDIMS];
    along_axis(a->ndim, axis, &idx, items);
    st = ng_index_get(a, a->ndim, items, out);
    ng_array_release(&idx);
    return st;
}

NgStatus ng_op_take(const NgArray *a, const NgArray *idx, int axis, NgTakeMode mode, NgArray *out)
{
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    if (!ng_dtype_is_int(idx->dtype))
        return ng_error_set(NG_ERR_TYPE, "Cannot cast array data from dtype('%s') to dtype('int64') according to "
                            "the rule 'safe'", ng_dtype_info(idx->dtype)->name);
    int64_t n = a->shape[axis];
    NgArray fixed;
    memset(&fixed, 0, sizeof fixed);
    const NgArray *use = idx;
    if (mode != NG_TAKE_RAISE && idx->size > 0) {
        if (n == 0)
            return ng_error_set(NG_ERR_INDEX, "cannot do a non-empty take from an empty axes.");
        NgArray i64a;
        if ((st = ng_op_astype(idx, NG_INT64, &i64a)) != NG_OK)
            return st;
        NgOperand x = {&i64a, {0}};
        if (mode == NG_TAKE_WRAP) {
            NgOperand m = {NULL, {.kind = NG_KIND_INT, .v.i = n}};
            st = ng_op_binary(NG_OP_MOD, &x, &m, &i64a, &fixed);
        } else {
            NgOperand z = {NULL, {.kind = NG_KIND_INT, .v.i = 0}}, hi = {NULL, {.kind = NG_KIND_INT, .v.i = n - 1}};
            NgArray t;
            if ((st = ng_op_binary(NG_OP_MAXIMUM, &x, &z, &i64a, &t)) == NG_OK) {
                NgOperand tx = {&t, {0}};
                st = ng_op_binary(NG_OP_MINIMUM, &tx, &hi, &t, &fixed);
                ng_array_release(&t);
            }
        }
        ng_array_release(&i64a);
        if (st != NG_OK)
            return st;
        use = &fixed;
    }
    NgIndex items[NG_MAXDIMS];
    along_axis(a->ndim, axis, use, items);
    st = ng_index_get(a, a->ndim, items, out);
    ng_array_release(&fixed);
    return st;
}
