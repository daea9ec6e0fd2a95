/* Matrix products: NumPy's matmul (the `@` operator).
 *
 * Operands of rank 1 are promoted (a vector on the left is a 1 x k row, on
 * the right a k x 1 column) and those axes dropped from the result; leading
 * axes are batch axes and broadcast. The product is computed in the result
 * dtype (promotion of the two; float32 accumulates in float32 and integers
 * wrap, as NumPy; bool is "or of ands"; complex in complex arithmetic),
 * except float16, which NumPy accumulates in float32 over k in order and
 * rounds once: the kernel computes a float32 result (the products of halves
 * are exact in float32), cast to float16 at the end.
 *
 * The kernel runs in parallel over blocks of ROWS consecutive rows of one
 * batch entry. For each block and each strip of up to COLS output columns
 * it clears the strip, then for every p adds A[i, p] * B[p, strip] into
 * each of the ROWS output rows: the B row segment is loaded once for ROWS
 * rows, the output strip stays in L1, and the innermost loop is a unit-
 * stride axpy over j that the C compiler vectorises. B is made unit-stride
 * along j first when it is not (a cheap O(k*m) copy). With m == 1 (matrix
 * @ vector) each row is instead one dot product accumulated in a variable
 * (a vectorised reduction); of float32 in chunks of DOT_CHUNK terms whose
 * sums are added in float64 (one long float32 sum loses four digits where
 * NumPy's BLAS keeps them), in float32 on a device without float64.
 *
 * A float32 product of matrices over more than GEMM_CHUNK terms runs the kernel on
 * chunks of k, their products added in float64 (run_chunked).
 *
 * Float and complex products first go to the backend's vendor BLAS where it
 * has one (vendor_gemm: cuBLAS, the host's BLAS on cpu); the kernel below
 * runs the rest. It is a plain blocked loop nest, not a tuned BLAS: well ahead of
 * NumPy's own non-BLAS loops (integer matmul, ~2.5x on 500x500 int64) but
 * behind OpenBLAS/MKL for floats (~3x slower at 1000x1000 float64 on two
 * cores, ~8x for float32), partly because kernels are built without
 * -march flags (SSE2 only, no FMA). */
#include <stdio.h>
#include <string.h>

#include "ops/ops_internal.h"

#define ROWS 4   /* output rows per parallel work item */
#define COLS 256 /* output columns per strip */
#define SMALL_GEMM 4096 /* n*m*k below which a stack of products on the cpu stays with the kernel */
#define SMALL_GEMV_STACK 1024 /* ... unless they are matrix-vector products, this many or fewer */
#define DOT_CHUNK 1024 /* terms of a float32 dot summed in float32 before the float64 total */
#define GEMM_CHUNK 4096 /* terms of a float32 product of matrices made by one kernel launch (run_chunked) */

typedef struct MatKey {
    uint8_t tag;      /* 'M' */
    int8_t adt, bdt;  /* operand dtypes */
    int8_t cdt;       /* result (and compute) dtype */
    uint8_t nb;       /* batch rank */
    uint8_t a_contig; /* A's last axis unit-stride */
    uint8_t dot;      /* m == 1: one dot product per row (matrix @ vector) */
    uint8_t wide;     /* dot of float32 in chunks, their sums added in float64 (1) or float32 (2) */
} MatKey;

static NgIrRef cst(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }

static NgIrRef add(NgIrKernel *k, NgIrRef x, NgIrRef y) { return ng_ir_binary(k, NG_OP_ADD, NG_INT64, x, y); }

/* Parameters: C (nb+2, written), A (nb+2), B (nb+2, unit-stride along j),
 * all with batch axes first; scalar: number of row blocks per batch entry. */
/* m == 1: parallel over rows r (batch-major), each a dot product of A's row
 * with B's column, accumulated in a variable (a vectorised reduction). */
static NgStatus build_dot(const MatKey *key, NgIrKernel *k)
{
    int nb = key->nb, nd = nb + 2;
    NgDType cdt = (NgDType)key->cdt;
    int C = ng_ir_param_array(k, cdt, nd, true, true);
    int A = ng_ir_param_array(k, (NgDType)key->adt, nd, key->a_contig, false);
    int B = ng_ir_param_array(k, (NgDType)key->bdt, nd, true, false);
    int vr = ng_ir_var(k, NG_INT64), vt = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64);
    int vp = ng_ir_var(k, NG_INT64), vacc = ng_ir_var(k, cdt);
    NgDType tdt = key->wide == 2 ? NG_FLOAT32 : NG_FLOAT64;
    int vpb = ng_ir_var(k, NG_INT64), vtot = ng_ir_var(k, tdt); /* (wide: chunks, their total) */
    int vbat[NG_MAXDIMS];
    for (int d = 0; d < nb; d++)
        vbat[d] = ng_ir_var(k, NG_INT64);
    NgIrRef zero = cst(k, 0), one = cst(k, 1);
    NgIrRef r = ng_ir_varref(k, vr), t = ng_ir_varref(k, vt), i = ng_ir_varref(k, vi), p = ng_ir_varref(k, vp);
    NgIrRef acc = ng_ir_varref(k, vacc);
    NgIrRef n = ng_ir_shape(k, C, nb);
    NgIrRef pre[NG_MAXDIMS + 8];
    int npre = 0;
    pre[npre++] = ng_ir_let(k, vi, ng_ir_binary(k, NG_OP_MOD, NG_INT64, r, n));
    pre[npre++] = ng_ir_let(k, vt, ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, r, n));
    for (int d = nb - 1; d >= 0; d--) {
        NgIrRef ext = ng_ir_shape(k, C, d);
        pre[npre++] = ng_ir_let(k, vbat[d], d == 0 ? t : ng_ir_binary(k, NG_OP_MOD, NG_INT64, t, ext));
        if (d > 0)
            pre[npre++] = ng_ir_assign(k, vt, ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, t, ext));
    }
    NgIrRef ix[NG_MAXDIMS + 2];
    for (int d = 0; d < nb; d++)
        ix[d] = ng_ir_varref(k, vbat[d]);
    ix[nb] = i;
    ix[nb + 1] = p;
    NgIrRef x = ng_ir_cast(k, cdt, ng_ir_load(k, A, nd, ix));
    ix[nb] = p;
    ix[nb + 1] = zero;
    NgIrRef y = ng_ir_cast(k, cdt, ng_ir_load(k, B, nd, ix));
    NgIrRef czero = ng_dtype_is_float(cdt) ? ng_ir_const_f(k, cdt, 0.0) : ng_ir_const_i(k, cdt, 0);
    NgIrRef upd = ng_ir_assign(k, vacc, ng_ir_binary(k, NG_OP_ADD, cdt, acc, ng_ir_binary(k, NG_OP_MUL, cdt, x, y)));
    NgIrRef kk = ng_ir_shape(k, A, nb + 1);
    ix[nb] = i;
    ix[nb + 1] = zero;
    if (!key->wide) {
        pre[npre++] = ng_ir_let(k, vacc, czero);
        NgIrRef red = ng_ir_for(k, vp, zero, kk, one, upd, 0);
        ng_ir_reduce(k, red, vacc, NG_OP_ADD);
        pre[npre++] = red;
        pre[npre++] = ng_ir_store(k, C, nd, ix, acc);
    } else {
        /* chunks of DOT_CHUNK terms summed in float32 (vectorised), their sums in float64 (or float32) */
        NgIrRef pb = ng_ir_varref(k, vpb), tot = ng_ir_varref(k, vtot);
        NgIrRef end = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, add(k, pb, cst(k, DOT_CHUNK)), kk);
        NgIrRef red = ng_ir_for(k, vp, pb, end, one, upd, 0);
        ng_ir_reduce(k, red, vacc, NG_OP_ADD);
        NgIrRef chunk[3] = {ng_ir_let(k, vacc, czero), red,
                            ng_ir_assign(k, vtot, ng_ir_binary(k, NG_OP_ADD, tdt, tot, ng_ir_cast(k, tdt, acc)))};
        pre[npre++] = ng_ir_let(k, vtot, ng_ir_const_f(k, tdt, 0.0));
        pre[npre++] = ng_ir_for(k, vpb, zero, kk, cst(k, DOT_CHUNK), ng_ir_block(k, 3, chunk), 0);
        pre[npre++] = ng_ir_store(k, C, nd, ix, ng_ir_cast(k, cdt, tot));
    }
    NgIrRef nrows = n;
    for (int d = 0; d < nb; d++)
        nrows = ng_ir_binary(k, NG_OP_MUL, NG_INT64, nrows, ng_ir_shape(k, C, d));
    k->body = ng_ir_for(k, vr, zero, nrows, one, ng_ir_block(k, npre, pre), NG_IR_PARALLEL);
    return k->status;
}

static NgStatus build_matmul(const void *ctx, NgIrKernel *k)
{
    const MatKey *key = ctx;
    if (key->dot)
        return build_dot(key, k);
    int nb = key->nb, nd = nb + 2;
    NgDType cdt = (NgDType)key->cdt;
    int C = ng_ir_param_array(k, cdt, nd, true, true);
    int A = ng_ir_param_array(k, (NgDType)key->adt, nd, key->a_contig, false);
    int B = ng_ir_param_array(k, (NgDType)key->bdt, nd, true, false);
    int nblk = ng_ir_param_scalar(k, NG_INT64);
    int vr = ng_ir_var(k, NG_INT64), vt = ng_ir_var(k, NG_INT64), vi0 = ng_ir_var(k, NG_INT64);
    int vrows = ng_ir_var(k, NG_INT64), vjb = ng_ir_var(k, NG_INT64), vjend = ng_ir_var(k, NG_INT64);
    int vp = ng_ir_var(k, NG_INT64), vj = ng_ir_var(k, NG_INT64), vq = ng_ir_var(k, NG_INT64);
    int vbat[NG_MAXDIMS], va[ROWS];
    for (int d = 0; d < nb; d++)
        vbat[d] = ng_ir_var(k, NG_INT64);
    for (int q = 0; q < ROWS; q++)
        va[q] = ng_ir_var(k, cdt);
    int vag = ng_ir_var(k, cdt);
    NgIrRef zero = cst(k, 0), one = cst(k, 1);
    NgIrRef r = ng_ir_varref(k, vr), t = ng_ir_varref(k, vt), i0 = ng_ir_varref(k, vi0);
    NgIrRef rows = ng_ir_varref(k, vrows), jb = ng_ir_varref(k, vjb), jend = ng_ir_varref(k, vjend);
    NgIrRef p = ng_ir_varref(k, vp), j = ng_ir_varref(k, vj), q = ng_ir_varref(k, vq);
    NgIrRef n = ng_ir_shape(k, C, nb), m = ng_ir_shape(k, C, nb + 1), kk = ng_ir_shape(k, A, nb + 1);

    NgIrRef pre[NG_MAXDIMS + 8];
    int npre = 0;
    /* block r -> batch index (unravelled, C order) and first row i0 */
    NgIrRef nblkr = ng_ir_scalar(k, nblk);
    pre[npre++] = ng_ir_let(k, vi0, ng_ir_binary(k, NG_OP_MUL, NG_INT64, ng_ir_binary(k, NG_OP_MOD, NG_INT64, r, nblkr),
                                                 cst(k, ROWS)));
    pre[npre++] = ng_ir_let(k, vt, ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, r, nblkr));
    for (int d = nb - 1; d >= 0; d--) {
        NgIrRef ext = ng_ir_shape(k, C, d);
        pre[npre++] = ng_ir_let(k, vbat[d], d == 0 ? t : ng_ir_binary(k, NG_OP_MOD, NG_INT64, t, ext));
        if (d > 0)
            pre[npre++] = ng_ir_assign(k, vt, ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, t, ext));
    }
    pre[npre++] = ng_ir_let(k, vrows, ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, cst(k, ROWS),
                                                   ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, i0)));

    /* index helpers: X[batch..., row, col] */
    NgIrRef ix[NG_MAXDIMS + 2];
    for (int d = 0; d < nb; d++)
        ix[d] = ng_ir_varref(k, vbat[d]);
#define AT(arr, row, col) (ix[nb] = (row), ix[nb + 1] = (col), ng_ir_load(k, (arr), nd, ix))
#define PUT(arr, row, col, val) (ix[nb] = (row), ix[nb + 1] = (col), ng_ir_store(k, (arr), nd, ix, (val)))

    /* fast path: ROWS full rows */
    NgIrRef bpj = ng_ir_cast(k, cdt, AT(B, p, j));
    NgIrRef upd[ROWS], lets[ROWS + 1];
    for (int qq = 0; qq < ROWS; qq++) {
        NgIrRef row = add(k, i0, cst(k, qq));
        NgIrRef prod = ng_ir_binary(k, NG_OP_MUL, cdt, ng_ir_varref(k, va[qq]), bpj);
        NgIrRef cur = AT(C, row, j);
        upd[qq] = PUT(C, row, j, ng_ir_binary(k, NG_OP_ADD, cdt, cur, prod));
        lets[qq] = ng_ir_let(k, va[qq], ng_ir_cast(k, cdt, AT(A, row, p)));
    }
    lets[ROWS] = ng_ir_for(k, vj, jb, jend, one, ng_ir_block(k, ROWS, upd), 0);
    NgIrRef full = ng_ir_for(k, vp, zero, kk, one, ng_ir_block(k, ROWS + 1, lets), 0);

    /* general path: rows < ROWS (the last block of a batch entry) */
    NgIrRef rowq = add(k, i0, q);
    NgIrRef gprod = ng_ir_binary(k, NG_OP_MUL, cdt, ng_ir_varref(k, vag), bpj);
    NgIrRef gupd = PUT(C, rowq, j, ng_ir_binary(k, NG_OP_ADD, cdt, AT(C, rowq, j), gprod));
    NgIrRef gsteps[2] = {ng_ir_let(k, vag, ng_ir_cast(k, cdt, AT(A, rowq, p))),
                         ng_ir_for(k, vj, jb, jend, one, gupd, 0)};
    NgIrRef part = ng_ir_for(k, vq, zero, rows, one,
                             ng_ir_for(k, vp, zero, kk, one, ng_ir_block(k, 2, gsteps), 0), 0);

    /* clear the strip of all block rows */
    NgIrRef czero = ng_dtype_is_float(cdt) ? ng_ir_const_f(k, cdt, 0.0) : ng_ir_const_i(k, cdt, 0);
    NgIrRef clear = ng_ir_for(k, vq, zero, rows, one,
                              ng_ir_for(k, vj, jb, jend, one, PUT(C, rowq, j, czero), 0), 0);
    NgIrRef isfull = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, rows, cst(k, ROWS));
    NgIrRef strip[3] = {
        ng_ir_let(k, vjend, ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, add(k, jb, cst(k, COLS)), m)),
        clear,
        ng_ir_if(k, isfull, full, part),
    };
    pre[npre++] = ng_ir_for(k, vjb, zero, m, cst(k, COLS), ng_ir_block(k, 3, strip), 0);
#undef AT
#undef PUT
    NgIrRef nrows = nblkr;
    for (int d = 0; d < nb; d++)
        nrows = ng_ir_binary(k, NG_OP_MUL, NG_INT64, nrows, ng_ir_shape(k, C, d));
    k->body = ng_ir_for(k, vr, zero, nrows, one, ng_ir_block(k, npre, pre), NG_IR_PARALLEL);
    return k->status;
}

/* Element strides of x (core axes last) broadcast to batch rank nb + 2. */
static void mm_strides(const NgArray *x, int nb, int64_t *out)
{
    int item = ng_array_itemsize(x), off = nb + 2 - x->ndim;
    for (int d = 0; d < nb + 2; d++) {
        int xd = d - off;
        out[d] = (xd < 0 || x->shape[xd] == 1) ? 0 : x->strides[xd] / item;
    }
}

/* A copy of *x in dtype dt, C-contiguous, replacing the view (*x) and kept
 * in *keep for release. */
static NgStatus gemm_copy(const NgArray **x, NgDType dt, NgArray *keep)
{
    NgStatus st = ng_op_astype(*x, dt, keep);
    if (st == NG_OK)
        *x = keep;
    return st;
}

/* x (rows x cols, batch axes first, element strides str) as the vendor gemm
 * takes a matrix operand: batch strides not negative, and unit-stride rows
 * (or one column) with a row stride of at least the row length (or one row);
 * `t`: stored transposed instead, unit-stride columns with a column stride
 * of at least the column length (X.T of a row-major X). */
static bool gemm_layout(const int64_t *str, int nb, int64_t rows, int64_t cols, bool t)
{
    for (int d = 0; d < nb; d++)
        if (str[d] < 0)
            return false;
    if (t)
        return rows > 1 && cols > 1 && str[nb] == 1 && str[nb + 1] >= rows;
    return (cols == 1 || str[nb + 1] == 1) && (rows == 1 || str[nb] >= cols);
}

/* One try of vendor_gemm's product; operands stored transposed are passed as
 * they are when allow_trans (*used_trans says whether one was), else
 * copied. */
static NgStatus gemm_try(NgDType cdt, const NgArray *a_in, const NgArray *b_in, const NgArray *out, int nb,
                         const int64_t *shape, bool allow_trans, bool *used_trans)
{
    NgDevice *dev = ng_array_device(a_in);
    int64_t n = shape[nb], m = shape[nb + 1], k = a_in->shape[a_in->ndim - 1];
    int64_t batch = 1, inner = -1;
    for (int d = 0; d < nb; d++) {
        batch *= shape[d];
        if (shape[d] > 1)
            inner = d;
    }
    const NgArray *a = a_in, *b = b_in;
    NgArray ac, bcopy;
    memset(&ac, 0, sizeof ac);
    memset(&bcopy, 0, sizeof bcopy);
    NgStatus st = NG_OK;
    int trans = 0;
    int64_t astr[NG_MAXDIMS + 2], bstr[NG_MAXDIMS + 2], cstr[NG_MAXDIMS + 2];
    for (int i = 0; i < 2 && st == NG_OK; i++) {
        const NgArray **x = i ? &b : &a;
        int64_t rows = i ? k : n, cols = i ? m : k, other = i ? n : m, *str = i ? bstr : astr;
        mm_strides(*x, nb, str);
        if ((*x)->dtype == cdt && gemm_layout(str, nb, rows, cols, false))
            continue;
        if ((*x)->dtype == cdt && allow_trans && gemm_layout(str, nb, rows, cols, true))
            trans |= i ? NG_GEMM_TRANS_B : NG_GEMM_TRANS_A;
        else if (other > 1 && other < 4) /* a copy costing more than a quarter of the product (a matrix times
                                            * a vector copies: NumPy casts for its gemv too, and so gets its bits) */
            st = NG_ERR_UNSUPPORTED;
        else if ((st = gemm_copy(x, cdt, i ? &bcopy : &ac)) == NG_OK)
            mm_strides(*x, nb, str);
    }
    *used_trans = trans != 0;
    int64_t s = 1;
    for (int d = nb + 1; d >= 0; d--) { /* out is C-contiguous */
        cstr[d] = s;
        s *= d == nb ? n : d == nb + 1 ? m : shape[d];
    }
    /* leading dimensions: a stored-transposed operand's is its column stride; a vector's its length
     * (BLAS asks at least that), or for B of one column its increment */
    int64_t lda = (trans & NG_GEMM_TRANS_A) ? astr[nb + 1] : n == 1 ? k : astr[nb];
    int64_t ldb = (trans & NG_GEMM_TRANS_B) ? bstr[nb + 1] : k == 1 ? (m == 1 ? 1 : m) : bstr[nb];
    size_t item = ng_dtype_info(cdt)->itemsize;
    int64_t idx[NG_MAXDIMS];
    memset(idx, 0, sizeof idx);
    for (int64_t q = 0; st == NG_OK && q < batch; q += inner < 0 ? 1 : shape[inner]) {
        int64_t ao = 0, bo = 0, co = 0; /* element offsets of this run of the inner batch axis */
        for (int d = 0; d < nb; d++) {
            ao += idx[d] * astr[d];
            bo += idx[d] * bstr[d];
            co += idx[d] * cstr[d];
        }
        int64_t run = inner < 0 ? 1 : shape[inner];
        st = dev->be->gemm(dev, cdt, trans, run, n, m, k, a->buf->data, a->offset + (size_t)ao * item, lda,
                           inner < 0 ? 0 : astr[inner], b->buf->data, b->offset + (size_t)bo * item, ldb,
                           inner < 0 ? 0 : bstr[inner], out->buf->data, out->offset + (size_t)co * item, m,
                           inner < 0 ? 0 : cstr[inner]);
        for (int d = nb - 1; d >= 0; d--) { /* the next index of the outer batch axes */
            if (d == inner)
                continue;
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
    ng_array_release(&ac);
    ng_array_release(&bcopy);
    return st;
}

/* The product through the backend's vendor BLAS (NgBackend.gemm):
 * NG_ERR_UNSUPPORTED where it has none or the product does not suit it, and
 * the caller runs the generated kernel. a is (batch..., n, k), b (batch...,
 * k, m) (promoted vectors included), out the (batch..., n?, m?) result,
 * shape[0..nb] the broadcast batch shape then n, m. An operand stored
 * transposed (X.T @ X) is passed as it is (a backend refusing that gets a
 * copy); one in another dtype or layout (broadcast, reversed, a float32 @
 * float64 product) is copied where the copy costs at most a quarter of the
 * product; the hook's one batch axis is the last of extent above 1, the
 * others are a loop here. On a device whose memory is the host's (cpu), a
 * stack of small matrices stays with the generated kernel, which runs the
 * whole stack in parallel where a BLAS call per matrix does not. */
static NgStatus vendor_gemm(NgDType cdt, const NgArray *a, const NgArray *b, const NgArray *out, int nb,
                            const int64_t *shape)
{
    NgDevice *dev = ng_array_device(a);
    int64_t n = shape[nb], m = shape[nb + 1], k = a->shape[a->ndim - 1], batch = 1;
    for (int d = 0; d < nb; d++)
        batch *= shape[d];
    /* (a stack of up to SMALL_GEMV_STACK matrix-vector products takes NumPy's own calls, a gemv
     * each, and so its bits, which a truncating cast of the result would show) */
    bool gemv_stack = (m == 1 || n == 1) && batch <= SMALL_GEMV_STACK;
    if (!dev->be->gemm || (cdt != NG_FLOAT32 && cdt != NG_FLOAT64 && cdt != NG_COMPLEX64 && cdt != NG_COMPLEX128) ||
        k == 0 || (ng_device_host_visible(dev) && batch > 1 && n * m * k < SMALL_GEMM && !gemv_stack))
        return NG_ERR_UNSUPPORTED;
    bool used_trans;
    NgStatus st = gemm_try(cdt, a, b, out, nb, shape, true, &used_trans);
    if (st == NG_ERR_UNSUPPORTED && used_trans)
        st = gemm_try(cdt, a, b, out, nb, shape, false, &used_trans);
    return st;
}

/* The generated kernel: out (C-contiguous, shape[0..nb+1]) = a @ bp (bp unit-stride along j
 * where m > 1), computed in acc (the result dtype, or float32 for float16's). */
static NgStatus run_kernel(const NgArray *a, const NgArray *bp, const NgArray *out, int nb, const int64_t *shape,
                           NgDType cdt, NgDType acc)
{
    NgStatus st;
    int64_t n = shape[nb], m = shape[nb + 1], k = a->shape[a->ndim - 1];
    int64_t cstr[NG_MAXDIMS + 2], astr[NG_MAXDIMS + 2], bstr[NG_MAXDIMS + 2], ashape[NG_MAXDIMS + 2],
        bshape[NG_MAXDIMS + 2];
    int64_t s = 1;
    for (int d = nb + 1; d >= 0; d--) {
        cstr[d] = shape[d] == 1 ? 0 : s;
        s *= shape[d];
    }
    cstr[nb + 1] = 1;
    mm_strides(a, nb, astr);
    mm_strides(bp, nb, bstr);
    bstr[nb + 1] = 1; /* unit-stride (or extent 1) by construction */
    memcpy(ashape, shape, sizeof(int64_t) * (size_t)nb);
    memcpy(bshape, shape, sizeof(int64_t) * (size_t)nb);
    ashape[nb] = n;
    ashape[nb + 1] = k;
    bshape[nb] = k;
    bshape[nb + 1] = m;
    MatKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'M';
    key.adt = (int8_t)a->dtype;
    key.bdt = (int8_t)bp->dtype;
    key.cdt = (int8_t)acc;
    key.nb = (uint8_t)nb;
    key.a_contig = astr[nb + 1] == 1;
    key.dot = m == 1;
    /* (a float32 dot summed in float32 drifts: 1e-4 relative at 10^6 terms, where NumPy's BLAS
     * gives 3e-8; chunks summed in float32 lanes, their sums in float64, cost nothing measurable;
     * on a device without float64 the chunks' sums in float32, still two orders better) */
    if (key.dot && acc == NG_FLOAT32 && cdt == NG_FLOAT32)
        key.wide = ng_device_has_float64(ng_array_device(a)) ? 1 : 2;
    const NgKernel *kern;
    if ((st = ng_kernel_get(ng_array_device(a), &key, sizeof key, build_matmul, &key, &kern)) != NG_OK)
        return st;
    NgKArg args[3 * (2 + 2 * (NG_MAXDIMS + 2)) + 1];
    int na = 0;
    ng_kargs_array(args, &na, out, nb + 2, shape, cstr);
    ng_kargs_array(args, &na, a, nb + 2, ashape, astr);
    ng_kargs_array(args, &na, bp, nb + 2, bshape, bstr);
    int64_t nblk = (n + ROWS - 1) / ROWS, batch = 1;
    for (int d = 0; d < nb; d++)
        batch *= shape[d];
    if (!key.dot)
        args[na++].i = nblk;
    int64_t work = batch * n * m * (k > 0 ? k : 1);
    st = ng_kernel_launch(kern, args, na, key.dot ? batch * n : batch * nblk, work);
    return st;
}

/* float32 products of matrices over a long k (X.T @ X of many samples): the kernel adds each
 * product into the output in order, which drifts (1.7e-4 relative at 10^6 terms, where NumPy's
 * BLAS, adding blocks of k, gives 1.4e-6); k is cut into chunks of GEMM_CHUNK, each chunk's
 * product made by the kernel and added into a float64 total (float32 on a device without
 * float64), cast into out at the end. */
static NgStatus run_chunked(const NgArray *a, const NgArray *bp, const NgArray *out, int nb, const int64_t *shape)
{
    NgDevice *dev = ng_array_device(a);
    NgDType tdt = ng_device_has_float64(dev) ? NG_FLOAT64 : NG_FLOAT32;
    int64_t k = a->shape[a->ndim - 1];
    NgArray part, total;
    memset(&total, 0, sizeof total);
    NgStatus st = ng_array_empty(dev, NG_FLOAT32, out->ndim, out->shape, &part);
    if (st == NG_OK)
        st = ng_array_empty(dev, tdt, out->ndim, out->shape, &total);
    for (int64_t p0 = 0; p0 < k && st == NG_OK; p0 += GEMM_CHUNK) {
        NgArray ac, bcv; /* (views of the chunk: k's axis cut) */
        ng_array_view(a, &ac);
        ng_array_view(bp, &bcv);
        int64_t len = k - p0 < GEMM_CHUNK ? k - p0 : GEMM_CHUNK;
        ac.offset += (size_t)(p0 * ac.strides[ac.ndim - 1]);
        ac.shape[ac.ndim - 1] = len;
        bcv.offset += (size_t)(p0 * bcv.strides[bcv.ndim - 2]);
        bcv.shape[bcv.ndim - 2] = len;
        ac.size = ac.size / k * len;
        bcv.size = bcv.size / k * len;
        st = run_kernel(&ac, &bcv, &part, nb, shape, NG_FLOAT32, NG_FLOAT32);
        NgOperand x = {&total, {0}}, y = {&part, {0}};
        NgArray sum;
        if (st == NG_OK && !p0)
            st = ng_op_assign(&total, &y);
        else if (st == NG_OK && (st = ng_op_binary(NG_OP_ADD, &x, &y, &total, &sum)) == NG_OK)
            ng_array_release(&sum);
        ng_array_release(&ac);
        ng_array_release(&bcv);
    }
    if (st == NG_OK) {
        NgOperand t = {&total, {0}};
        st = ng_op_assign(out, &t);
    }
    ng_array_release(&part);
    ng_array_release(&total);
    return st;
}

NgStatus ng_op_matmul(const NgArray *a_in, const NgArray *b_in, NgArray *out)
{
    static const char *sig = "(n?,k),(k,m?)->(n?,m?)";
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 2; i++) {
        const NgArray *x = i ? b_in : a_in;
        if (x->ndim == 0)
            return ng_error_set(NG_ERR_VALUE, "matmul: Input operand %d does not have enough dimensions (has 0, "
                                "gufunc core with signature %s requires 1)", i, sig);
    }
    if (ng_array_device(a_in) != ng_array_device(b_in))
        return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s); move one with x.to(device)",
                            ng_device_name(ng_array_device(a_in)), ng_device_name(ng_array_device(b_in)));
    NgDType cdt = ng_dtype_promote(a_in->dtype, b_in->dtype);
    NgDType acc = cdt == NG_FLOAT16 ? NG_FLOAT32 : cdt; /* the kernel's result dtype */
    if (!ng_dtype_info(cdt)->supported || !ng_dtype_info(a_in->dtype)->supported ||
        !ng_dtype_info(b_in->dtype)->supported)
        return ng_error_set(NG_ERR_TYPE, "matmul: dtype %s is not supported yet", ng_dtype_info(cdt)->name);

    /* promote 1-d operands to matrices (views) */
    NgArray a, b, bc;
    memset(&bc, 0, sizeof bc);
    ng_array_view(a_in, &a);
    ng_array_view(b_in, &b);
    bool avec = a.ndim == 1, bvec = b.ndim == 1;
    if (avec) {
        a.shape[1] = a.shape[0];
        a.strides[1] = a.strides[0];
        a.shape[0] = 1;
        a.strides[0] = 0;
        a.ndim = 2;
    }
    if (bvec) {
        b.shape[1] = 1;
        b.strides[1] = ng_array_itemsize(&b);
        b.ndim = 2;
    }
    NgStatus st = NG_OK;
    int64_t n = a.shape[a.ndim - 2], k = a.shape[a.ndim - 1], k2 = b.shape[b.ndim - 2], m = b.shape[b.ndim - 1];
    if (k != k2) {
        st = ng_error_set(NG_ERR_VALUE, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                          "signature %s (size %lld is different from %lld)", sig, (long long)k2, (long long)k);
        goto done;
    }
    int nds[2] = {a.ndim - 2, b.ndim - 2};
    const int64_t *shs[2] = {a.shape, b.shape};
    int nb;
    int64_t shape[NG_MAXDIMS + 2];
    if (ng_shape_broadcast(2, nds, shs, &nb, shape) != NG_OK) {
        char sa[2][400], sr[2][400];
        for (int i = 0; i < 2; i++) {
            const NgArray *x = i ? b_in : a_in;
            size_t at = 0, ar = 0;
            for (int d = 0; d < x->ndim; d++)
                at += (size_t)snprintf(sa[i] + at, sizeof sa[i] - at, "%s%lld", d ? "," : "(", (long long)x->shape[d]);
            snprintf(sa[i] + at, sizeof sa[i] - at, ")");
            for (int d = 0; d < x->ndim - 2; d++)
                ar += (size_t)snprintf(sr[i] + ar, sizeof sr[i] - ar, "%s%lld", d ? "," : "(", (long long)x->shape[d]);
            snprintf(sr[i] + ar, sizeof sr[i] - ar, "%snewaxis,newaxis)", x->ndim > 2 ? "," : "(");
        }
        st = ng_error_set(NG_ERR_VALUE, "operands could not be broadcast together with remapped shapes "
                          "[original->remapped]: %s->%s %s->%s  and requested shape (%lld,%lld)", sa[0], sr[0],
                          sa[1], sr[1], (long long)n, (long long)m);
        goto done;
    }
    if (nb + 2 > NG_MAXDIMS) {
        st = ng_error_set(NG_ERR_VALUE, "matmul: too many dimensions");
        goto done;
    }
    /* result shape: batch + (n unless a was a vector) + (m unless b was) */
    int64_t oshape[NG_MAXDIMS];
    int ond = nb;
    memcpy(oshape, shape, sizeof(int64_t) * (size_t)nb);
    if (!avec)
        oshape[ond++] = n;
    if (!bvec)
        oshape[ond++] = m;
    if ((st = ng_array_empty(ng_array_device(a_in), acc, ond, oshape, out)) != NG_OK)
        goto done;
    if (out->size == 0)
        goto done;
    shape[nb] = n;
    shape[nb + 1] = m;
    /* the vendor BLAS where the backend has one (cuBLAS; the host's BLAS on cpu) */
    if ((st = vendor_gemm(cdt, &a, &b, out, nb, shape)) != NG_ERR_UNSUPPORTED)
        goto done;
    st = NG_OK;
    /* B unit-stride along j (a transposed B would make the inner loop a gather) */
    const NgArray *bp = &b;
    if (m > 1 && b.strides[b.ndim - 1] != ng_array_itemsize(&b)) {
        if ((st = ng_op_ascontiguous(&b, true, &bc)) != NG_OK)
            goto done;
        bp = &bc;
    }
    st = cdt == NG_FLOAT32 && m > 1 && k > GEMM_CHUNK ? run_chunked(&a, bp, out, nb, shape)
                                                      : run_kernel(&a, bp, out, nb, shape, cdt, acc);
done:
    if (st == NG_OK && acc != cdt) { /* float16: round the float32 result once */
        NgArray r;
        if ((st = ng_op_astype(out, cdt, &r)) == NG_OK) {
            ng_array_release(out);
            *out = r;
        }
    }
    if (st != NG_OK)
        ng_array_release(out);
    ng_array_release(&bc);
    ng_array_release(&a);
    ng_array_release(&b);
    return st;
}
