/* Dense linear algebra by generated kernels, on every device: LU with
 * partial pivoting (solve, inv, det, slogdet) and Cholesky, for stacks of
 * square matrices of float32, float64, complex64 and complex128.
 *
 * The matrices are first copied into a C-contiguous (B, n, n) work array in
 * the compute dtype (NumPy's: integers and bool in float64; float16 is
 * refused as NumPy refuses it). Factorisations are right-looking, one column
 * per step, all B matrices at once: a host loop over the column k launches
 * a "column" kernel (one thread per matrix: pivot search, row swap, scaling
 * of the column; for Cholesky the square root of the pivot) and an "update"
 * kernel (the trailing submatrix: one work item per row on cpu, so the inner
 * loop vectorises; one per element on devices with their own memory, GPUs
 * and OpenCL, so accesses coalesce). k is a scalar argument, so each kernel
 * compiles once per dtype. Triangular solves
 * are one kernel with a work item per (matrix, right-hand-side column),
 * which makes inv (n columns) parallel. Singular and non-positive-definite
 * matrices are flagged per matrix by the kernels and read back once.
 *
 * Where a device has a vendor LAPACK (cuSOLVER on cuda, the host's on
 * cpu), its GESV, POTRF, GETRF and QR take one matrix, or each matrix of a
 * stack of large ones (vendor_first), a call per matrix (vendor_each). */
#include <string.h>

#include "ops/ops_internal.h"

typedef enum LaKind {
    LA_LU_COL,     /* pivot, swap and scale column k of every matrix */
    LA_LU_UPDATE,  /* A[i, j] -= A[i, k] A[k, j] for i, j > k */
    LA_LU_SOLVE,   /* X = A^-1 X from the LU factors and pivots */
    LA_LU_SOLVE_ROWS, /* the same by rows of X, a block of its columns per work item (cpu, 2+ columns) */
    LA_SLOGDET,    /* sign and log|det| (det = sign exp(log|det|), as NumPy) from the LU factors */
    LA_CHOL_COL,   /* A[k, k] = sqrt(A[k, k]); A[i, k] /= A[k, k] */
    LA_CHOL_UPDATE,/* A[i, j] -= A[i, k] conj(A[j, k]) for k < j <= i */
    LA_LU_FULL,    /* every column of each matrix in one work item (small matrices, large stacks) */
    LA_CHOL_FULL,
    LA_QR_COL,     /* Householder reflector of column j (LAPACK's larfg): v below the diagonal, tau */
    LA_QR_APPLY,   /* H_j^H applied to the columns right of j */
    LA_QR_FULL,    /* every reflector of each matrix in one work item */
    LA_Q_APPLY,    /* X = H_j X for the explicit Q (LAPACK's orgqr), j from the last reflector down */
    LA_Q_FULL,
} LaKind;

typedef struct LaKey {
    uint8_t tag;   /* 'A' */
    uint8_t kind;  /* LaKind */
    int8_t dtype;  /* compute dtype */
    uint8_t gpu;   /* device memory: one work item per element in the update kernels */
    uint8_t det;   /* LA_SLOGDET: also write det */
} LaKey;

static NgIrRef I(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }

/* v bound to a new int64 variable by a statement appended to lets (a work item's matrix and row
 * or column, divided out of its number once: as index expressions they were divided again at
 * every element reached, which took most of small matrices' time) */
static NgIrRef let_index(NgIrKernel *k, NgIrRef *lets, int *nlets, NgIrRef v)
{
    int var = ng_ir_var(k, NG_INT64);
    lets[(*nlets)++] = ng_ir_let(k, var, v);
    return ng_ir_varref(k, var);
}

static NgIrRef at3(NgIrKernel *k, int p, NgIrRef b, NgIrRef i, NgIrRef j)
{
    NgIrRef idx[3] = {b, i, j};
    return ng_ir_load(k, p, 3, idx);
}

static NgIrRef put3(NgIrKernel *k, int p, NgIrRef b, NgIrRef i, NgIrRef j, NgIrRef v)
{
    NgIrRef idx[3] = {b, i, j};
    return ng_ir_store(k, p, 3, idx, v);
}

static NgIrRef bin(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x, NgIrRef y) { return ng_ir_binary(k, op, dt, x, y); }

/* for v in [start, stop) step 1 */
static NgIrRef loop(NgIrKernel *k, int v, NgIrRef start, NgIrRef stop, NgIrRef body, unsigned flags)
{
    return ng_ir_for(k, v, start, stop, I(k, 1), body, flags);
}

/* Swaps element (b, r1, c) and (b, r2, c) of array p through variable t. */
static NgIrRef swap(NgIrKernel *k, int p, int t, NgIrRef b, NgIrRef r1, NgIrRef r2, NgIrRef c)
{
    NgIrRef s[3] = {ng_ir_assign(k, t, at3(k, p, b, r1, c)), put3(k, p, b, r1, c, at3(k, p, b, r2, c)),
                    put3(k, p, b, r2, c, ng_ir_varref(k, t))};
    return ng_ir_block(k, 3, s);
}

/* Work items of an update kernel: rows (b, i) for i in (k, n) on cpu, each
 * sweeping j over [k + 1, jstop(i)); elements (b, i, j) on GPUs. Calls
 * elem(b, i, j) for the statement of one element. */
typedef NgIrRef (*ElemFn)(NgIrKernel *k, int a, NgIrRef kk, NgIrRef b, NgIrRef i, NgIrRef j, NgDType dt);

static NgIrRef update_loops(NgIrKernel *k, const LaKey *key, int a, NgIrRef kk, bool lower, ElemFn elem)
{
    NgDType dt = (NgDType)key->dtype;
    NgIrRef n = ng_ir_shape(k, a, 1), nb = ng_ir_shape(k, a, 0);
    NgIrRef m = bin(k, NG_OP_SUB, NG_INT64, bin(k, NG_OP_SUB, NG_INT64, n, kk), I(k, 1)); /* n - k - 1 */
    NgIrRef k1 = bin(k, NG_OP_ADD, NG_INT64, kk, I(k, 1));
    int vr = ng_ir_var(k, NG_INT64), vj = ng_ir_var(k, NG_INT64);
    NgIrRef r = ng_ir_varref(k, vr), lets[5];
    int nl = 0;
    if (key->gpu) { /* r over B * m * m: b, then i, j in (k, n) */
        NgIrRef mm = bin(k, NG_OP_MUL, NG_INT64, m, m);
        NgIrRef b = let_index(k, lets, &nl, bin(k, NG_OP_FLOORDIV, NG_INT64, r, mm));
        NgIrRef rem = let_index(k, lets, &nl, bin(k, NG_OP_MOD, NG_INT64, r, mm));
        NgIrRef i = let_index(k, lets, &nl, bin(k, NG_OP_ADD, NG_INT64, k1, bin(k, NG_OP_FLOORDIV, NG_INT64, rem, m)));
        NgIrRef j = let_index(k, lets, &nl, bin(k, NG_OP_ADD, NG_INT64, k1, bin(k, NG_OP_MOD, NG_INT64, rem, m)));
        NgIrRef body = elem(k, a, kk, b, i, j, dt);
        if (lower)
            body = ng_ir_if(k, bin(k, NG_OP_LE, NG_BOOL, j, i), body, NG_IR_NONE);
        lets[nl++] = body;
        return loop(k, vr, I(k, 0), bin(k, NG_OP_MUL, NG_INT64, nb, mm), ng_ir_block(k, nl, lets), NG_IR_PARALLEL);
    }
    NgIrRef b = let_index(k, lets, &nl, bin(k, NG_OP_FLOORDIV, NG_INT64, r, m));
    NgIrRef i = let_index(k, lets, &nl, bin(k, NG_OP_ADD, NG_INT64, k1, bin(k, NG_OP_MOD, NG_INT64, r, m)));
    NgIrRef jstop = lower ? bin(k, NG_OP_ADD, NG_INT64, i, I(k, 1)) : n;
    lets[nl++] = loop(k, vj, k1, jstop, elem(k, a, kk, b, i, ng_ir_varref(k, vj), dt), 0);
    return loop(k, vr, I(k, 0), bin(k, NG_OP_MUL, NG_INT64, nb, m), ng_ir_block(k, nl, lets), NG_IR_PARALLEL);
}

/* A[b, i, j] -= A[b, i, k] * A[b, k, j] */
static NgIrRef lu_elem(NgIrKernel *k, int a, NgIrRef kk, NgIrRef b, NgIrRef i, NgIrRef j, NgDType dt)
{
    NgIrRef prod = bin(k, NG_OP_MUL, dt, at3(k, a, b, i, kk), at3(k, a, b, kk, j));
    return put3(k, a, b, i, j, bin(k, NG_OP_SUB, dt, at3(k, a, b, i, j), prod));
}

/* A[b, i, j] -= A[b, i, k] * conj(A[b, j, k]) */
static NgIrRef chol_elem(NgIrKernel *k, int a, NgIrRef kk, NgIrRef b, NgIrRef i, NgIrRef j, NgDType dt)
{
    NgIrRef cj = ng_ir_unary(k, NG_OP_CONJUGATE, dt, at3(k, a, b, j, kk));
    NgIrRef prod = bin(k, NG_OP_MUL, dt, at3(k, a, b, i, kk), cj);
    return put3(k, a, b, i, j, bin(k, NG_OP_SUB, dt, at3(k, a, b, i, j), prod));
}

/* Column k of matrix b: pivot search at and below the diagonal (largest
 * |.|), swap rows k and p, divide the column below the diagonal by the
 * pivot; a zero pivot flags the matrix singular (and nothing is divided). */
static NgIrRef lu_col_stmt(NgIrKernel *k, NgDType dt, int a, int piv, int flag, NgIrRef b, NgIrRef kk)
{
    NgDType rt = ng_dtype_real(dt);
    NgIrRef n = ng_ir_shape(k, a, 1);
    int vi = ng_ir_var(k, NG_INT64), vj = ng_ir_var(k, NG_INT64);
    int vp = ng_ir_var(k, NG_INT64), vbest = ng_ir_var(k, rt), vv = ng_ir_var(k, rt), vt = ng_ir_var(k, dt);
    int vd = ng_ir_var(k, dt);
    NgIrRef i = ng_ir_varref(k, vi), j = ng_ir_varref(k, vj);
    NgIrRef p = ng_ir_varref(k, vp), best = ng_ir_varref(k, vbest), v = ng_ir_varref(k, vv);
    NgIrRef k1 = bin(k, NG_OP_ADD, NG_INT64, kk, I(k, 1));
    NgIrRef take[2] = {ng_ir_assign(k, vp, i), ng_ir_assign(k, vbest, v)};
    NgIrRef search_body[2] = {ng_ir_assign(k, vv, ng_ir_unary(k, NG_OP_ABS, rt, at3(k, a, b, i, kk))),
                              ng_ir_if(k, bin(k, NG_OP_GT, NG_BOOL, v, best), ng_ir_block(k, 2, take), NG_IR_NONE)};
    NgIrRef pidx[2] = {b, kk}, fidx[1] = {b};
    NgIrRef scale = put3(k, a, b, i, kk, bin(k, NG_OP_TRUEDIV, dt, at3(k, a, b, i, kk), ng_ir_varref(k, vd)));
    NgIrRef nonzero[3] = {
        ng_ir_if(k, bin(k, NG_OP_NE, NG_BOOL, p, kk), loop(k, vj, I(k, 0), n, swap(k, a, vt, b, kk, p, j), 0),
                 NG_IR_NONE),
        ng_ir_assign(k, vd, at3(k, a, b, kk, kk)),
        loop(k, vi, k1, n, scale, 0),
    };
    NgIrRef body[8] = {
        ng_ir_let(k, vv, ng_ir_const_f(k, rt, 0)),
        ng_ir_let(k, vt, ng_ir_const_f(k, dt, 0)),
        ng_ir_let(k, vd, ng_ir_const_f(k, dt, 1)),
        ng_ir_let(k, vp, kk),
        ng_ir_let(k, vbest, ng_ir_unary(k, NG_OP_ABS, rt, at3(k, a, b, kk, kk))),
        loop(k, vi, k1, n, ng_ir_block(k, 2, search_body), 0),
        ng_ir_store(k, piv, 2, pidx, p),
        ng_ir_if(k, bin(k, NG_OP_EQ, NG_BOOL, best, ng_ir_const_f(k, rt, 0)),
                 ng_ir_store(k, flag, 1, fidx, ng_ir_const_i(k, NG_INT32, 1)), ng_ir_block(k, 3, nonzero)),
    };
    return ng_ir_block(k, 8, body);
}

/* Column k of matrix b of a Cholesky factorisation: d = re A[b, k, k];
 * d <= 0 flags the matrix (NaN goes on, as in LAPACK, into a NaN factor);
 * else A[b, k, k] = sqrt(d) and the column below it divided by that. */
static NgIrRef chol_col_stmt(NgIrKernel *k, NgDType dt, int a, int flag, NgIrRef b, NgIrRef kk)
{
    NgDType rt = ng_dtype_real(dt);
    int vi = ng_ir_var(k, NG_INT64), vd = ng_ir_var(k, rt);
    NgIrRef i = ng_ir_varref(k, vi), d = ng_ir_varref(k, vd);
    NgIrRef fidx[1] = {b};
    NgIrRef root = ng_ir_cast(k, dt, d);
    NgIrRef scale = put3(k, a, b, i, kk, bin(k, NG_OP_TRUEDIV, dt, at3(k, a, b, i, kk), root));
    NgIrRef ok[3] = {
        ng_ir_assign(k, vd, ng_ir_unary(k, NG_OP_SQRT, rt, d)),
        put3(k, a, b, kk, kk, root),
        loop(k, vi, bin(k, NG_OP_ADD, NG_INT64, kk, I(k, 1)), ng_ir_shape(k, a, 1), scale, 0),
    };
    NgIrRef body[2] = {
        ng_ir_let(k, vd, ng_ir_cast(k, rt, at3(k, a, b, kk, kk))),
        ng_ir_if(k, bin(k, NG_OP_LE, NG_BOOL, d, ng_ir_const_f(k, rt, 0)),
                 ng_ir_store(k, flag, 1, fidx, ng_ir_const_i(k, NG_INT32, 1)), ng_ir_block(k, 3, ok)),
    };
    return ng_ir_block(k, 2, body);
}

/* The trailing update after column k of matrix b, in one work item: rows
 * i > k, each sweeping j over (k, n), or (k, i] for the lower triangle. */
static NgIrRef update_stmt(NgIrKernel *k, NgDType dt, int a, NgIrRef b, NgIrRef kk, bool lower, ElemFn elem)
{
    int vi = ng_ir_var(k, NG_INT64), vj = ng_ir_var(k, NG_INT64);
    NgIrRef i = ng_ir_varref(k, vi), n = ng_ir_shape(k, a, 1), k1 = bin(k, NG_OP_ADD, NG_INT64, kk, I(k, 1));
    NgIrRef jstop = lower ? bin(k, NG_OP_ADD, NG_INT64, i, I(k, 1)) : n;
    return loop(k, vi, k1, n, loop(k, vj, k1, jstop, elem(k, a, kk, b, i, ng_ir_varref(k, vj), dt), 0), 0);
}

/* One step k, all matrices: for b in parallel, column k of b. */
static NgIrRef build_col(NgIrKernel *k, NgDType dt, bool chol)
{
    int a = ng_ir_param_array(k, dt, 3, true, true);
    int piv = chol ? -1 : ng_ir_param_array(k, NG_INT64, 2, true, true);
    int flag = ng_ir_param_array(k, NG_INT32, 1, true, true);
    NgIrRef kk = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int vb = ng_ir_var(k, NG_INT64);
    NgIrRef b = ng_ir_varref(k, vb);
    NgIrRef col = chol ? chol_col_stmt(k, dt, a, flag, b, kk) : lu_col_stmt(k, dt, a, piv, flag, b, kk);
    return loop(k, vb, I(k, 0), ng_ir_shape(k, a, 0), col, NG_IR_PARALLEL);
}

/* The whole factorisation of each matrix in one work item (small matrices,
 * large stacks): for b in parallel, for k: column k, then the update. */
static NgIrRef build_full(NgIrKernel *k, NgDType dt, bool chol)
{
    int a = ng_ir_param_array(k, dt, 3, true, true);
    int piv = chol ? -1 : ng_ir_param_array(k, NG_INT64, 2, true, true);
    int flag = ng_ir_param_array(k, NG_INT32, 1, true, true);
    int vb = ng_ir_var(k, NG_INT64), vk = ng_ir_var(k, NG_INT64);
    NgIrRef b = ng_ir_varref(k, vb), kk = ng_ir_varref(k, vk);
    NgIrRef step[2] = {chol ? chol_col_stmt(k, dt, a, flag, b, kk) : lu_col_stmt(k, dt, a, piv, flag, b, kk),
                       update_stmt(k, dt, a, b, kk, chol, chol ? chol_elem : lu_elem)};
    NgIrRef all = loop(k, vk, I(k, 0), ng_ir_shape(k, a, 1), ng_ir_block(k, 2, step), 0);
    return loop(k, vb, I(k, 0), ng_ir_shape(k, a, 0), all, NG_IR_PARALLEL);
}

/* LA_CHOL_FULL on cpu for real matrices: the right-looking factorisation of build_full on the
 * upper triangle, U = L^T, where the update after column k, U[i, j] -= U[k, i] U[k, j] for
 * k < i <= j, runs along rows (vectors) where the lower one's read a column, a row apart
 * (200 32 x 32 matrices: 1.1 ms, NumPy 0.67). The lower triangle (all NumPy's cholesky reads)
 * is copied to the upper first and the factor back after, the upper zeroed (the kernel gives
 * NumPy's result, no tri() after); each element takes the same operations in the same order as
 * build_full's, so the bits are the same. */
static NgIrRef build_chol_upper(NgIrKernel *k, NgDType dt)
{
    int a = ng_ir_param_array(k, dt, 3, true, true);
    int flag = ng_ir_param_array(k, NG_INT32, 1, true, true);
    int vb = ng_ir_var(k, NG_INT64), vk = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64);
    int vj = ng_ir_var(k, NG_INT64), vd = ng_ir_var(k, dt), vu = ng_ir_var(k, dt);
    NgIrRef b = ng_ir_varref(k, vb), kk = ng_ir_varref(k, vk), i = ng_ir_varref(k, vi), j = ng_ir_varref(k, vj);
    NgIrRef d = ng_ir_varref(k, vd), u = ng_ir_varref(k, vu), n = ng_ir_shape(k, a, 1);
    NgIrRef i1 = bin(k, NG_OP_ADD, NG_INT64, i, I(k, 1)), k1 = bin(k, NG_OP_ADD, NG_INT64, kk, I(k, 1));
    NgIrRef fidx[1] = {b};
    /* U[k, j] /= sqrt(U[k, k]) for j > k; d <= 0 flags the matrix (as chol_col_stmt) */
    NgIrRef scale = loop(k, vj, k1, n, put3(k, a, b, kk, j, bin(k, NG_OP_TRUEDIV, dt, at3(k, a, b, kk, j), d)),
                         NG_IR_SIMD);
    NgIrRef ok[3] = {ng_ir_assign(k, vd, ng_ir_unary(k, NG_OP_SQRT, dt, d)), put3(k, a, b, kk, kk, d), scale};
    NgIrRef update = put3(k, a, b, i, j, bin(k, NG_OP_SUB, dt, at3(k, a, b, i, j),
                                             bin(k, NG_OP_MUL, dt, u, at3(k, a, b, kk, j))));
    NgIrRef row[2] = {ng_ir_assign(k, vu, at3(k, a, b, kk, i)), loop(k, vj, i, n, update, NG_IR_SIMD)};
    NgIrRef step[3] = {
        ng_ir_assign(k, vd, at3(k, a, b, kk, kk)),
        ng_ir_if(k, bin(k, NG_OP_LE, NG_BOOL, d, ng_ir_const_f(k, dt, 0)),
                 ng_ir_store(k, flag, 1, fidx, ng_ir_const_i(k, NG_INT32, 1)), ng_ir_block(k, 3, ok)),
        loop(k, vi, k1, n, ng_ir_block(k, 2, row), 0),
    };
    NgIrRef back[2] = {put3(k, a, b, j, i, at3(k, a, b, i, j)), put3(k, a, b, i, j, ng_ir_const_f(k, dt, 0))};
    NgIrRef body[5] = {
        ng_ir_let(k, vd, ng_ir_const_f(k, dt, 0)),
        ng_ir_let(k, vu, ng_ir_const_f(k, dt, 0)),
        loop(k, vi, I(k, 0), n, loop(k, vj, i1, n, put3(k, a, b, i, j, at3(k, a, b, j, i)), 0), 0),
        loop(k, vk, I(k, 0), n, ng_ir_block(k, 3, step), 0),
        loop(k, vi, I(k, 0), n, loop(k, vj, i1, n, ng_ir_block(k, 2, back), 0), 0),
    };
    return loop(k, vb, I(k, 0), ng_ir_shape(k, a, 0), ng_ir_block(k, 5, body), NG_IR_PARALLEL);
}

/* for (b, c) in parallel: X[b, :, c] = A^-1 X[b, :, c]: the row swaps, then
 * forward substitution with the unit lower factor, then back substitution
 * with the upper one. */
static NgIrRef build_lu_solve(NgIrKernel *k, NgDType dt)
{
    int a = ng_ir_param_array(k, dt, 3, true, false);
    int piv = ng_ir_param_array(k, NG_INT64, 2, true, false);
    int x = ng_ir_param_array(k, dt, 3, true, true);
    NgIrRef n = ng_ir_shape(k, a, 1), nrhs = ng_ir_shape(k, x, 2);
    int vr = ng_ir_var(k, NG_INT64), vk = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64);
    int vq = ng_ir_var(k, NG_INT64), vp = ng_ir_var(k, NG_INT64), vt = ng_ir_var(k, dt), vs = ng_ir_var(k, dt);
    NgIrRef r = ng_ir_varref(k, vr), kk = ng_ir_varref(k, vk), i = ng_ir_varref(k, vi), q = ng_ir_varref(k, vq);
    NgIrRef p = ng_ir_varref(k, vp), s = ng_ir_varref(k, vs);
    NgIrRef body[8];
    int nb = 0;
    NgIrRef b = let_index(k, body, &nb, bin(k, NG_OP_FLOORDIV, NG_INT64, r, nrhs));
    NgIrRef c = let_index(k, body, &nb, bin(k, NG_OP_MOD, NG_INT64, r, nrhs));
    NgIrRef pidx[2] = {b, kk};
    NgIrRef perm[2] = {ng_ir_assign(k, vp, ng_ir_load(k, piv, 2, pidx)),
                       ng_ir_if(k, bin(k, NG_OP_NE, NG_BOOL, p, kk), swap(k, x, vt, b, kk, p, c), NG_IR_NONE)};
    /* s = sum over q in [lo, hi) of A[b, i, q] X[b, q, c], as a reduction */
    NgIrRef term = bin(k, NG_OP_MUL, dt, at3(k, a, b, i, q), at3(k, x, b, q, c));
    NgIrRef fwd_loop = loop(k, vq, I(k, 0), i, ng_ir_assign(k, vs, bin(k, NG_OP_ADD, dt, s, term)), NG_IR_PARALLEL);
    ng_ir_reduce(k, fwd_loop, vs, NG_OP_ADD);
    NgIrRef fwd[3] = {ng_ir_assign(k, vs, ng_ir_const_f(k, dt, 0)), fwd_loop,
                      put3(k, x, b, i, c, bin(k, NG_OP_SUB, dt, at3(k, x, b, i, c), s))};
    NgIrRef back_loop = loop(k, vq, bin(k, NG_OP_ADD, NG_INT64, i, I(k, 1)), n,
                             ng_ir_assign(k, vs, bin(k, NG_OP_ADD, dt, s, term)), NG_IR_PARALLEL);
    ng_ir_reduce(k, back_loop, vs, NG_OP_ADD);
    NgIrRef back[3] = {ng_ir_assign(k, vs, ng_ir_const_f(k, dt, 0)), back_loop,
                       put3(k, x, b, i, c, bin(k, NG_OP_TRUEDIV, dt, bin(k, NG_OP_SUB, dt, at3(k, x, b, i, c), s),
                                              at3(k, a, b, i, i)))};
    body[nb++] = ng_ir_let(k, vt, ng_ir_const_f(k, dt, 0));
    body[nb++] = ng_ir_let(k, vp, I(k, 0));
    body[nb++] = ng_ir_let(k, vs, ng_ir_const_f(k, dt, 0));
    body[nb++] = loop(k, vk, I(k, 0), n, ng_ir_block(k, 2, perm), 0);
    body[nb++] = loop(k, vi, I(k, 0), n, ng_ir_block(k, 3, fwd), 0);
    body[nb++] = ng_ir_for(k, vi, bin(k, NG_OP_SUB, NG_INT64, n, I(k, 1)), I(k, -1), I(k, -1), ng_ir_block(k, 3, back), 0);
    NgIrRef total = bin(k, NG_OP_MUL, NG_INT64, ng_ir_shape(k, x, 0), nrhs);
    return loop(k, vr, I(k, 0), total, ng_ir_block(k, nb, body), NG_IR_PARALLEL);
}

/* Columns of X per work item of LA_LU_SOLVE_ROWS, and the fewest for which a host device takes
 * it: each row operation is then a vector loop over a block of a row, where LA_LU_SOLVE's work
 * item per column reads the column's elements a row apart (inv of 100 32 x 32 matrices: 2.3 ms,
 * was 5.2; 1000 8 x 8 with 4 columns 0.6 ms, was 1.4). For one column (b a vector) LA_LU_SOLVE's dot
 * products along A's rows win. */
#define SOLVE_BLOCK 32
#define SOLVE_ROWS_MIN 2

/* for (b, block of columns [c0, c1)) in parallel: X[b, :, c0:c1] = A^-1 X[b, :, c0:c1] as
 * LAPACK's TRSM: the row swaps, then for each row i of the unit lower factor X[i] -= L[i, q] X[q]
 * for q < i, then from the last row up X[i] = (X[i] - sum of U[i, q] X[q] for q > i) / U[i, i]
 * (row operations over the block, in vectors). */
static NgIrRef build_lu_solve_rows(NgIrKernel *k, NgDType dt)
{
    int a = ng_ir_param_array(k, dt, 3, true, false);
    int piv = ng_ir_param_array(k, NG_INT64, 2, true, false);
    int x = ng_ir_param_array(k, dt, 3, true, true);
    NgIrRef n = ng_ir_shape(k, a, 1), nrhs = ng_ir_shape(k, x, 2);
    NgIrRef nblk = bin(k, NG_OP_FLOORDIV, NG_INT64, bin(k, NG_OP_ADD, NG_INT64, nrhs, I(k, SOLVE_BLOCK - 1)),
                       I(k, SOLVE_BLOCK));
    int vr = ng_ir_var(k, NG_INT64), vk = ng_ir_var(k, NG_INT64), vi = ng_ir_var(k, NG_INT64);
    int vq = ng_ir_var(k, NG_INT64), vc = ng_ir_var(k, NG_INT64), vp = ng_ir_var(k, NG_INT64);
    int vt = ng_ir_var(k, dt), vl = ng_ir_var(k, dt);
    NgIrRef r = ng_ir_varref(k, vr), kk = ng_ir_varref(k, vk), i = ng_ir_varref(k, vi), q = ng_ir_varref(k, vq);
    NgIrRef c = ng_ir_varref(k, vc), p = ng_ir_varref(k, vp), l = ng_ir_varref(k, vl);
    NgIrRef body[10];
    int nb = 0;
    NgIrRef b = let_index(k, body, &nb, bin(k, NG_OP_FLOORDIV, NG_INT64, r, nblk));
    NgIrRef c0 = let_index(k, body, &nb, bin(k, NG_OP_MUL, NG_INT64, bin(k, NG_OP_MOD, NG_INT64, r, nblk),
                                             I(k, SOLVE_BLOCK)));
    NgIrRef c1 = let_index(k, body, &nb, bin(k, NG_OP_MINIMUM, NG_INT64,
                                             bin(k, NG_OP_ADD, NG_INT64, c0, I(k, SOLVE_BLOCK)), nrhs));
    NgIrRef pidx[2] = {b, kk};
    NgIrRef perm[2] = {ng_ir_assign(k, vp, ng_ir_load(k, piv, 2, pidx)),
                       ng_ir_if(k, bin(k, NG_OP_NE, NG_BOOL, p, kk), loop(k, vc, c0, c1, swap(k, x, vt, b, kk, p, c), 0),
                                NG_IR_NONE)};
    /* X[b, i, c] -= l X[b, q, c] for c in the block */
    NgIrRef axpy = loop(k, vc, c0, c1, put3(k, x, b, i, c, bin(k, NG_OP_SUB, dt, at3(k, x, b, i, c),
                                                               bin(k, NG_OP_MUL, dt, l, at3(k, x, b, q, c)))),
                        NG_IR_SIMD);
    NgIrRef row_op[2] = {ng_ir_assign(k, vl, at3(k, a, b, i, q)), axpy};
    NgIrRef fwd = loop(k, vq, I(k, 0), i, ng_ir_block(k, 2, row_op), 0);
    NgIrRef divide = loop(k, vc, c0, c1, put3(k, x, b, i, c, bin(k, NG_OP_TRUEDIV, dt, at3(k, x, b, i, c),
                                                                 ng_ir_varref(k, vt))), NG_IR_SIMD);
    NgIrRef back[3] = {loop(k, vq, bin(k, NG_OP_ADD, NG_INT64, i, I(k, 1)), n, ng_ir_block(k, 2, row_op), 0),
                       ng_ir_assign(k, vt, at3(k, a, b, i, i)), divide};
    body[nb++] = ng_ir_let(k, vt, ng_ir_const_f(k, dt, 0));
    body[nb++] = ng_ir_let(k, vl, ng_ir_const_f(k, dt, 0));
    body[nb++] = ng_ir_let(k, vp, I(k, 0));
    body[nb++] = loop(k, vk, I(k, 0), n, ng_ir_block(k, 2, perm), 0);
    body[nb++] = loop(k, vi, I(k, 0), n, fwd, 0);
    body[nb++] = ng_ir_for(k, vi, bin(k, NG_OP_SUB, NG_INT64, n, I(k, 1)), I(k, -1), I(k, -1), ng_ir_block(k, 3, back), 0);
    NgIrRef total = bin(k, NG_OP_MUL, NG_INT64, ng_ir_shape(k, x, 0), nblk);
    return loop(k, vr, I(k, 0), total, ng_ir_block(k, nb, body), NG_IR_PARALLEL);
}

/* for b in parallel: sign = product of pivot signs (x/|x|, -1 per row swap),
 * logabs = sum of log|x| over the diagonal; det = sign exp(logabs). */
static NgIrRef build_slogdet(NgIrKernel *k, NgDType dt, bool want_det)
{
    NgDType rt = ng_dtype_real(dt);
    int a = ng_ir_param_array(k, dt, 3, true, false);
    int piv = ng_ir_param_array(k, NG_INT64, 2, true, false);
    int sign = ng_ir_param_array(k, dt, 1, true, true);
    int logabs = ng_ir_param_array(k, rt, 1, true, true);
    int det = want_det ? ng_ir_param_array(k, dt, 1, true, true) : -1;
    int vb = ng_ir_var(k, NG_INT64), vk = ng_ir_var(k, NG_INT64), vs = ng_ir_var(k, dt), vl = ng_ir_var(k, rt);
    int vx = ng_ir_var(k, dt), vm = ng_ir_var(k, rt);
    NgIrRef b = ng_ir_varref(k, vb), kk = ng_ir_varref(k, vk), s = ng_ir_varref(k, vs), l = ng_ir_varref(k, vl);
    NgIrRef xv = ng_ir_varref(k, vx), m = ng_ir_varref(k, vm);
    NgIrRef pidx[2] = {b, kk}, bidx[1] = {b};
    NgIrRef zero = ng_ir_const_f(k, dt, 0);
    NgIrRef swapped = bin(k, NG_OP_NE, NG_BOOL, ng_ir_load(k, piv, 2, pidx), kk);
    NgIrRef unit = bin(k, NG_OP_TRUEDIV, dt, xv, ng_ir_cast(k, dt, m));
    NgIrRef step[5] = {
        ng_ir_assign(k, vx, at3(k, a, b, kk, kk)),
        ng_ir_assign(k, vm, ng_ir_unary(k, NG_OP_ABS, rt, xv)),
        ng_ir_assign(k, vs, ng_ir_select(k, swapped, ng_ir_unary(k, NG_OP_NEG, dt, s), s)),
        ng_ir_assign(k, vs, ng_ir_select(k, bin(k, NG_OP_EQ, NG_BOOL, m, ng_ir_const_f(k, rt, 0)), zero,
                                         bin(k, NG_OP_MUL, dt, s, unit))),
        ng_ir_assign(k, vl, bin(k, NG_OP_ADD, rt, l, ng_ir_unary(k, NG_OP_LOG, rt, m))),
    };
    NgIrRef body[8] = {
        ng_ir_let(k, vs, ng_ir_const_f(k, dt, 1)),
        ng_ir_let(k, vl, ng_ir_const_f(k, rt, 0)),
        ng_ir_let(k, vx, zero),
        ng_ir_let(k, vm, ng_ir_const_f(k, rt, 0)),
        loop(k, vk, I(k, 0), ng_ir_shape(k, a, 1), ng_ir_block(k, 5, step), 0),
        ng_ir_store(k, sign, 1, bidx, s),
        ng_ir_store(k, logabs, 1, bidx, l),
        NG_IR_NONE,
    };
    int nb = 7;
    if (want_det)
        body[nb++] = ng_ir_store(k, det, 1, bidx, bin(k, NG_OP_MUL, dt, s, ng_ir_cast(k, dt, ng_ir_unary(k, NG_OP_EXP, rt, l))));
    return loop(k, vb, I(k, 0), ng_ir_shape(k, a, 0), ng_ir_block(k, nb, body), NG_IR_PARALLEL);
}

/* ---- QR by Householder reflectors (LAPACK's geqr2 and org2r conventions) ---- */

/* |z|^2 in z's real dtype. */
static NgIrRef abs2(NgIrKernel *k, NgDType dt, NgIrRef z)
{
    NgDType rt = ng_dtype_real(dt);
    if (!ng_dtype_is_complex(dt))
        return bin(k, NG_OP_MUL, rt, z, z);
    NgIrRef re = ng_ir_cast(k, rt, z), im = ng_ir_imag(k, z);
    return bin(k, NG_OP_ADD, rt, bin(k, NG_OP_MUL, rt, re, re), bin(k, NG_OP_MUL, rt, im, im));
}

static NgIrRef conj_of(NgIrKernel *k, NgDType dt, NgIrRef z)
{
    return ng_dtype_is_complex(dt) ? ng_ir_unary(k, NG_OP_CONJUGATE, dt, z) : z;
}

/* The reflector of column j of matrix b: with alpha = A[j, j] and x the
 * column below it, beta = -sign(re alpha) |(alpha, x)|, tau = (beta -
 * alpha) / beta, x scaled by 1 / (alpha - beta) (v, whose first entry is an
 * implicit 1) and A[j, j] = beta; tau = 0 (no reflection) when x = 0 and
 * alpha is real. */
static NgIrRef qr_col_stmt(NgIrKernel *k, NgDType dt, int a, int tau, NgIrRef b, NgIrRef j)
{
    NgDType rt = ng_dtype_real(dt);
    bool cplx = ng_dtype_is_complex(dt);
    NgIrRef m = ng_ir_shape(k, a, 1), j1 = bin(k, NG_OP_ADD, NG_INT64, j, I(k, 1));
    int vi = ng_ir_var(k, NG_INT64), vx = ng_ir_var(k, rt), vbeta = ng_ir_var(k, rt), vs = ng_ir_var(k, dt);
    NgIrRef i = ng_ir_varref(k, vi), xn2 = ng_ir_varref(k, vx), beta = ng_ir_varref(k, vbeta);
    NgIrRef alpha = at3(k, a, b, j, j), ar = ng_ir_cast(k, rt, alpha);
    NgIrRef ai = cplx ? ng_ir_imag(k, alpha) : ng_ir_const_f(k, rt, 0);
    NgIrRef tidx[2] = {b, j};
    NgIrRef norm = ng_ir_unary(k, NG_OP_SQRT, rt, bin(k, NG_OP_ADD, rt, bin(k, NG_OP_ADD, rt, bin(k, NG_OP_MUL, rt, ar, ar),
                                                                        bin(k, NG_OP_MUL, rt, ai, ai)), xn2));
    NgIrRef t_re = bin(k, NG_OP_TRUEDIV, rt, bin(k, NG_OP_SUB, rt, beta, ar), beta);
    NgIrRef tv = ng_ir_cast(k, dt, t_re);
    if (cplx) { /* tau = ((beta - ar) / beta, -ai / beta) */
        NgIrRef t_im = bin(k, NG_OP_TRUEDIV, rt, ng_ir_unary(k, NG_OP_NEG, rt, ai), beta);
        tv = bin(k, NG_OP_ADD, dt, tv, bin(k, NG_OP_MUL, dt, ng_ir_cast(k, dt, t_im), ng_ir_const_c(k, dt, 0, 1)));
    }
    NgIrRef scale = put3(k, a, b, i, j, bin(k, NG_OP_MUL, dt, at3(k, a, b, i, j), ng_ir_varref(k, vs)));
    NgIrRef reflect[5] = {
        ng_ir_assign(k, vbeta, ng_ir_unary(k, NG_OP_NEG, rt, bin(k, NG_OP_COPYSIGN, rt, norm, ar))),
        ng_ir_store(k, tau, 2, tidx, tv),
        ng_ir_assign(k, vs, bin(k, NG_OP_TRUEDIV, dt, ng_ir_const_f(k, dt, 1),
                                bin(k, NG_OP_SUB, dt, alpha, ng_ir_cast(k, dt, beta)))),
        loop(k, vi, j1, m, scale, 0),
        put3(k, a, b, j, j, ng_ir_cast(k, dt, beta)),
    };
    NgIrRef trivial = bin(k, NG_OP_LOGAND, NG_BOOL, bin(k, NG_OP_EQ, NG_BOOL, xn2, ng_ir_const_f(k, rt, 0)),
                          bin(k, NG_OP_EQ, NG_BOOL, ai, ng_ir_const_f(k, rt, 0)));
    NgIrRef body[6] = {
        ng_ir_let(k, vx, ng_ir_const_f(k, rt, 0)),
        ng_ir_let(k, vbeta, ng_ir_const_f(k, rt, 0)),
        ng_ir_let(k, vs, ng_ir_const_f(k, dt, 0)),
        loop(k, vi, j1, m, ng_ir_assign(k, vx, bin(k, NG_OP_ADD, rt, xn2, abs2(k, dt, at3(k, a, b, i, j)))), 0),
        ng_ir_if(k, trivial, ng_ir_store(k, tau, 2, tidx, ng_ir_const_f(k, dt, 0)), ng_ir_block(k, 5, reflect)),
        NG_IR_NONE,
    };
    return ng_ir_block(k, 5, body);
}

/* Column c of matrix b of array x becomes H c (H^H c with conj): H = I -
 * tau v v^H for reflector j, whose v is column j of array v below the
 * diagonal (and 1 on it). */
static NgIrRef reflect_stmt(NgIrKernel *k, NgDType dt, int v, int tau, int x, NgIrRef b, NgIrRef j, NgIrRef c,
                            bool conj_tau)
{
    NgIrRef m = ng_ir_shape(k, v, 1), j1 = bin(k, NG_OP_ADD, NG_INT64, j, I(k, 1));
    int vi = ng_ir_var(k, NG_INT64), vs = ng_ir_var(k, dt);
    NgIrRef i = ng_ir_varref(k, vi), s = ng_ir_varref(k, vs);
    NgIrRef tidx[2] = {b, j};
    NgIrRef t = ng_ir_load(k, tau, 2, tidx);
    NgIrRef dot = bin(k, NG_OP_ADD, dt, s, bin(k, NG_OP_MUL, dt, conj_of(k, dt, at3(k, v, b, i, j)), at3(k, x, b, i, c)));
    NgIrRef body[6] = {
        ng_ir_let(k, vs, at3(k, x, b, j, c)),
        loop(k, vi, j1, m, ng_ir_assign(k, vs, dot), 0),
        ng_ir_assign(k, vs, bin(k, NG_OP_MUL, dt, s, conj_tau ? conj_of(k, dt, t) : t)),
        put3(k, x, b, j, c, bin(k, NG_OP_SUB, dt, at3(k, x, b, j, c), s)),
        loop(k, vi, j1, m, put3(k, x, b, i, c, bin(k, NG_OP_SUB, dt, at3(k, x, b, i, c),
                                                  bin(k, NG_OP_MUL, dt, at3(k, v, b, i, j), s))), 0),
        NG_IR_NONE,
    };
    return ng_ir_block(k, 5, body);
}

/* The QR kernels: A (B, m, n) written or read, tau (B, k), X (B, m, kq) for
 * Q; the scalar is the step j (COL, APPLY) or k (FULL). */
static NgIrRef build_qr(NgIrKernel *k, NgDType dt, LaKind kind)
{
    bool q = kind == LA_Q_APPLY || kind == LA_Q_FULL;
    int a = ng_ir_param_array(k, dt, 3, true, !q);
    int tau = ng_ir_param_array(k, dt, 2, true, !q && kind != LA_QR_APPLY);
    int x = q ? ng_ir_param_array(k, dt, 3, true, true) : a;
    NgIrRef sc = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef nb = ng_ir_shape(k, a, 0), ncol = ng_ir_shape(k, x, 2);
    int vr = ng_ir_var(k, NG_INT64);
    NgIrRef r = ng_ir_varref(k, vr);
    switch (kind) {
    case LA_QR_COL:
        return loop(k, vr, I(k, 0), nb, qr_col_stmt(k, dt, a, tau, r, sc), NG_IR_PARALLEL);
    case LA_QR_APPLY: { /* work items (b, c) for the columns c > j */
        NgIrRef w = bin(k, NG_OP_SUB, NG_INT64, bin(k, NG_OP_SUB, NG_INT64, ncol, sc), I(k, 1));
        NgIrRef lets[3];
        int nl = 0;
        NgIrRef b = let_index(k, lets, &nl, bin(k, NG_OP_FLOORDIV, NG_INT64, r, w));
        NgIrRef c = let_index(k, lets, &nl, bin(k, NG_OP_ADD, NG_INT64, bin(k, NG_OP_ADD, NG_INT64, sc, I(k, 1)),
                                                bin(k, NG_OP_MOD, NG_INT64, r, w)));
        lets[nl++] = reflect_stmt(k, dt, a, tau, a, b, sc, c, true);
        return loop(k, vr, I(k, 0), bin(k, NG_OP_MUL, NG_INT64, nb, w), ng_ir_block(k, nl, lets), NG_IR_PARALLEL);
    }
    case LA_Q_APPLY: { /* work items (b, c) for every column of X */
        NgIrRef lets[3];
        int nl = 0;
        NgIrRef b = let_index(k, lets, &nl, bin(k, NG_OP_FLOORDIV, NG_INT64, r, ncol));
        NgIrRef c = let_index(k, lets, &nl, bin(k, NG_OP_MOD, NG_INT64, r, ncol));
        lets[nl++] = reflect_stmt(k, dt, a, tau, x, b, sc, c, false);
        return loop(k, vr, I(k, 0), bin(k, NG_OP_MUL, NG_INT64, nb, ncol), ng_ir_block(k, nl, lets), NG_IR_PARALLEL);
    }
    case LA_QR_FULL: { /* for j in [0, k): the reflector, then every column right of it */
        int vj = ng_ir_var(k, NG_INT64), vc = ng_ir_var(k, NG_INT64);
        NgIrRef j = ng_ir_varref(k, vj), c = ng_ir_varref(k, vc);
        NgIrRef step[2] = {qr_col_stmt(k, dt, a, tau, r, j),
                           loop(k, vc, bin(k, NG_OP_ADD, NG_INT64, j, I(k, 1)), ncol,
                                reflect_stmt(k, dt, a, tau, a, r, j, c, true), 0)};
        return loop(k, vr, I(k, 0), nb, loop(k, vj, I(k, 0), sc, ng_ir_block(k, 2, step), 0), NG_IR_PARALLEL);
    }
    default: { /* LA_Q_FULL: for j from k - 1 down to 0, every column of X */
        int vj = ng_ir_var(k, NG_INT64), vc = ng_ir_var(k, NG_INT64);
        NgIrRef j = ng_ir_varref(k, vj), c = ng_ir_varref(k, vc);
        NgIrRef cols = loop(k, vc, I(k, 0), ncol, reflect_stmt(k, dt, a, tau, x, r, j, c, false), 0);
        NgIrRef down = ng_ir_for(k, vj, bin(k, NG_OP_SUB, NG_INT64, sc, I(k, 1)), I(k, -1), I(k, -1), cols, 0);
        return loop(k, vr, I(k, 0), nb, down, NG_IR_PARALLEL);
    }
    }
}

static NgStatus build_la(const void *ctx, NgIrKernel *k)
{
    const LaKey *key = ctx;
    NgDType dt = (NgDType)key->dtype;
    switch ((LaKind)key->kind) {
    case LA_LU_COL: case LA_CHOL_COL: k->body = build_col(k, dt, key->kind == LA_CHOL_COL); break;
    case LA_LU_FULL: case LA_CHOL_FULL:
        k->body = key->kind == LA_CHOL_FULL && !key->gpu && !ng_dtype_is_complex(dt) ? build_chol_upper(k, dt) : build_full(k, dt, key->kind == LA_CHOL_FULL);
        break;
    case LA_LU_SOLVE: k->body = build_lu_solve(k, dt); break;
    case LA_LU_SOLVE_ROWS: k->body = build_lu_solve_rows(k, dt); break;
    case LA_SLOGDET: k->body = build_slogdet(k, dt, key->det); break;
    case LA_QR_COL: case LA_QR_APPLY: case LA_QR_FULL: case LA_Q_APPLY: case LA_Q_FULL:
        k->body = build_qr(k, dt, (LaKind)key->kind);
        break;
    case LA_LU_UPDATE: case LA_CHOL_UPDATE: {
        int a = ng_ir_param_array(k, dt, 3, true, true);
        NgIrRef kk = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
        bool chol = key->kind == LA_CHOL_UPDATE;
        k->body = update_loops(k, key, a, kk, chol, chol ? chol_elem : lu_elem);
        break;
    }
    default:
        return ng_error_set(NG_ERR_INTERNAL, "bad linear algebra kernel kind %d", key->kind);
    }
    return k->status;
}

/* ---- host side ---- */

/* Launches kernel `kind` over the arrays (and k, when k >= 0): `extent`
 * work items doing `work` element operations in all. */
static NgStatus launch(LaKind kind, NgDType dt, bool det, int narr, const NgArray *const *arrs, int64_t kk,
                       int64_t extent, int64_t work)
{
    if (extent <= 0)
        return NG_OK;
    NgDevice *dev = ng_array_device(arrs[0]);
    LaKey key = {'A', (uint8_t)kind, (int8_t)dt, (uint8_t)!ng_device_host_visible(dev), (uint8_t)det};
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, &key, sizeof key, build_la, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[5 * (2 + 2 * 3) + 1];
    int n = 0;
    for (int i = 0; i < narr; i++)
        ng_kargs_array_as_is(args, &n, arrs[i]);
    if (kk >= 0)
        args[n++].i = kk;
    return ng_kernel_launch(kern, args, n, extent, work);
}

/* NumPy's linalg dtype: float32/float64/complex kept, bool and integers in
 * float64, float16 refused. */
static NgStatus compute_dtype(NgDType in, NgDType *out)
{
    if (in == NG_FLOAT16)
        return ng_error_set(NG_ERR_TYPE, "array type float16 is unsupported in linalg");
    *out = (in == NG_FLOAT32 || in == NG_FLOAT64 || ng_dtype_is_complex(in)) ? in : NG_FLOAT64;
    return NG_OK;
}

/* Number of matrices in a stack of shape (..., rows, cols). */
static int64_t batch_of(int ndim, const int64_t *shape)
{
    int64_t nb = 1;
    for (int d = 0; d < ndim - 2; d++)
        nb *= shape[d];
    return nb;
}

/* A C-contiguous copy of `a` broadcast to (bshape..., rows, cols), in dtype
 * dt, viewed as (B, rows, cols). */
static NgStatus work_copy(const NgArray *a, int bnd, const int64_t *bshape, NgDType dt, NgArray *out)
{
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, bshape, sizeof(int64_t) * (size_t)bnd);
    shape[bnd] = a->shape[a->ndim - 2];
    shape[bnd + 1] = a->shape[a->ndim - 1];
    NgArray view, copy;
    NgStatus st = ng_op_broadcast_to(a, bnd + 2, shape, &view);
    if (st != NG_OK)
        return st;
    st = ng_op_astype(&view, dt, &copy);
    ng_array_release(&view);
    if (st != NG_OK)
        return st;
    int64_t s3[3] = {batch_of(bnd + 2, shape), shape[bnd], shape[bnd + 1]};
    st = ng_op_reshape(&copy, 3, s3, out);
    ng_array_release(&copy);
    return st;
}

static NgStatus zeros(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, NgArray *out)
{
    NgScalar zero = {.kind = NG_KIND_INT};
    return ng_op_full(dev, dt, ndim, shape, &zero, out);
}

/* True if any matrix was flagged (one download of B flags). */
static NgStatus any_flag(const NgArray *flag, bool *any)
{
    *any = false;
    if (flag->size == 0)
        return NG_OK;
    int64_t v = 0;
    NgStatus st = ng_ops_reduce_int(NG_RED_MAX, flag, &v);
    *any = v != 0;
    return st;
}

/* Whether a stack of nb n x n matrices on dev is factorised one matrix per
 * work item in one kernel (small matrices, or more matrices than the steps'
 * kernels would have rows), rather than by a pair of kernels per column: a
 * launch costs microseconds, so on cpu one thread doing n^3/3 operations
 * wins up to n ~ 128; a GPU thread is slower, a GPU launch no cheaper. */
static bool whole_matrices(NgDevice *dev, int64_t nb, int64_t n)
{
    return n <= (ng_device_host_visible(dev) ? 128 : 48) || nb >= 16 * n;
}

/* Whether the device's vendor LAPACK (NgBackend.lapack, a call per matrix)
 * is tried before the generated kernels: for one matrix, or a stack of
 * matrices too large for a work item each. */
static bool vendor_first(NgDevice *dev, int64_t nb, int64_t n)
{
    return dev->be->lapack && (nb == 1 || !whole_matrices(dev, nb, n));
}

/* The vendor's op on each matrix of the C-contiguous (nb, rows, cols) work
 * array w, with b's matrices (when b) as its second operand; `second` is
 * the hook's nrhs (GESV's right-hand sides, QR's columns). *info: 1 when
 * any matrix was singular. NG_ERR_UNSUPPORTED (from the first call) where
 * the vendor has no such op. */
static NgStatus vendor_each(int op, const NgArray *w, const NgArray *b, int64_t second, int *info)
{
    NgDevice *dev = ng_array_device(w);
    int64_t nb = w->shape[0], rows = w->shape[1], cols = w->shape[2];
    size_t wstep = (size_t)(rows * cols) * ng_array_itemsize(w), bstep = b ? (size_t)(b->size / nb) * ng_array_itemsize(b) : 0;
    NgStatus st = w->size ? NG_OK : NG_ERR_UNSUPPORTED; /* (LAPACK takes no empty matrix) */
    *info = 0;
    for (int64_t q = 0; q < nb && st == NG_OK; q++) {
        int bad = 0;
        st = dev->be->lapack(dev, op, w->dtype, rows, second, w->buf->data, w->offset + (size_t)q * wstep,
                             b ? b->buf->data : NULL, b ? b->offset + (size_t)q * bstep : 0, &bad);
        *info |= bad;
    }
    return st;
}

/* LU factorisation in place of the (B, n, n) work array lu; piv gets the
 * pivot rows, flag a 1 for each singular matrix. */
static NgStatus lu_factor(NgArray *lu, NgArray *piv, NgArray *flag)
{
    NgDevice *dev = ng_array_device(lu);
    int64_t nb = lu->shape[0], n = lu->shape[1];
    int64_t ps[2] = {nb, n};
    NgStatus st = zeros(dev, NG_INT64, 2, ps, piv);
    if (st != NG_OK)
        return st;
    if ((st = zeros(dev, NG_INT32, 1, &nb, flag)) != NG_OK) {
        ng_array_release(piv);
        return st;
    }
    bool gpu = !ng_device_host_visible(dev); /* device memory: one work item per element */
    if (whole_matrices(dev, nb, n)) {
        const NgArray *arrs[3] = {lu, piv, flag};
        st = launch(LA_LU_FULL, lu->dtype, false, 3, arrs, -1, nb, nb * n * n * n / 3 + 1);
        n = 0;
    }
    for (int64_t k = 0; k < n && st == NG_OK; k++) {
        const NgArray *col[3] = {lu, piv, flag};
        st = launch(LA_LU_COL, lu->dtype, false, 3, col, k, nb, nb * n);
        int64_t m = n - k - 1;
        if (st == NG_OK && m > 0) {
            const NgArray *upd[1] = {lu};
            st = launch(LA_LU_UPDATE, lu->dtype, false, 1, upd, k, gpu ? nb * m * m : nb * m, nb * m * m);
        }
    }
    if (st != NG_OK) {
        ng_array_release(piv);
        ng_array_release(flag);
    }
    return st;
}

/* The broadcast batch shape of a's and (when b) b's stacks, NumPy's error
 * otherwise. */
static NgStatus batch_shape(const NgArray *a, const NgArray *b, int *bnd, int64_t *bshape)
{
    int nds[2] = {a->ndim - 2, b ? b->ndim - 2 : 0};
    const int64_t *shs[2] = {a->shape, b ? b->shape : a->shape};
    return ng_shape_broadcast(b ? 2 : 1, nds, shs, bnd, bshape);
}

/* a is a stack of square matrices; *dt its compute dtype. */
static NgStatus check_square(const NgArray *a, NgDType *dt)
{
    if (a->ndim < 2)
        return ng_error_set(NG_ERR_VALUE, "%d-dimensional array given. Array must be at least two-dimensional",
                            a->ndim);
    if (a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
        return ng_error_set(NG_ERR_VALUE, "Last 2 dimensions of the array must be square");
    return compute_dtype(a->dtype, dt);
}

/* X = A^-1 X for each matrix of the work arrays lu (nb, n, n) and x (nb, n,
 * nrhs) by the vendor's GESV, x replaced by the solution;
 * NG_ERR_UNSUPPORTED where vendor_first declines or the vendor has none. */
static NgStatus vendor_solve(NgArray *lu, NgArray *x, int *info)
{
    NgDevice *dev = ng_array_device(lu);
    int64_t nb = lu->shape[0], n = lu->shape[1], nrhs = x->shape[2];
    if (!vendor_first(dev, nb, n) || !x->size)
        return NG_ERR_UNSUPPORTED;
    static const int swap[3] = {0, 2, 1};
    NgArray view, bt;
    NgStatus st = ng_op_transpose(x, swap, &view); /* GESV's B is column-major: a (nrhs, n) copy */
    if (st != NG_OK)
        return st;
    st = ng_op_astype(&view, view.dtype, &bt);
    ng_array_release(&view);
    if (st == NG_OK && (st = vendor_each(NG_LAPACK_GESV, lu, &bt, nrhs, info)) == NG_OK) {
        NgArray sol;
        if ((st = ng_op_transpose(&bt, swap, &sol)) == NG_OK) {
            ng_array_release(x);
            *x = sol;
        }
    }
    ng_array_release(&bt);
    return st;
}

NgStatus ng_lapack_solve(const NgArray *a, const NgArray *b, NgArray *out, int *info)
{
    *info = 0;
    NgDType dt = NG_FLOAT64;
    NgStatus st = check_square(a, &dt);
    if (st != NG_OK)
        return st;
    if (ng_array_device(b) != ng_array_device(a))
        return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s)",
                            ng_device_name(ng_array_device(a)), ng_device_name(ng_array_device(b)));
    if ((st = compute_dtype(ng_dtype_promote(a->dtype, b->dtype), &dt)) != NG_OK)
        return st;
    int64_t n = a->shape[a->ndim - 1];
    bool vec = b->ndim == 1; /* NumPy 2: b is a vector only when it is 1-d */
    NgArray bm;
    int64_t col[2] = {b->shape[0], 1};
    if (vec)
        st = ng_op_reshape(b, 2, col, &bm);
    else
        ng_array_view(b, &bm);
    if (st != NG_OK)
        return st;
    if (bm.ndim < 2 || bm.shape[bm.ndim - 2] != n) {
        ng_array_release(&bm);
        return ng_error_set(NG_ERR_VALUE, "solve: Input operand 1 has a mismatch in its core dimension 0 (size "
                            "%lld is different from %lld)", (long long)(bm.ndim < 2 ? 0 : bm.shape[bm.ndim - 2]),
                            (long long)n);
    }
    int bnd;
    int64_t bshape[NG_MAXDIMS];
    NgArray lu, x, piv, flag;
    memset(&lu, 0, sizeof lu);
    memset(&x, 0, sizeof x);
    memset(&piv, 0, sizeof piv);
    memset(&flag, 0, sizeof flag);
    if ((st = batch_shape(a, vec ? NULL : &bm, &bnd, bshape)) == NG_OK &&
        (st = work_copy(a, bnd, bshape, dt, &lu)) == NG_OK && (st = work_copy(&bm, bnd, bshape, dt, &x)) == NG_OK &&
        (st = vendor_solve(&lu, &x, info)) == NG_ERR_UNSUPPORTED && (st = lu_factor(&lu, &piv, &flag)) == NG_OK) {
        bool singular;
        st = any_flag(&flag, &singular);
        *info = st == NG_OK && singular;
        if (st == NG_OK && !singular) {
            const NgArray *arrs[3] = {&lu, &piv, &x};
            int64_t nrhs = x.shape[2];
            bool rows = ng_device_host_visible(ng_array_device(&lu)) && nrhs >= SOLVE_ROWS_MIN;
            int64_t items = x.shape[0] * (rows ? (nrhs + SOLVE_BLOCK - 1) / SOLVE_BLOCK : nrhs);
            st = launch(rows ? LA_LU_SOLVE_ROWS : LA_LU_SOLVE, dt, false, 3, arrs, -1, items, x.shape[0] * nrhs * n * n);
        }
    }
    if (st == NG_OK && !*info) { /* back to the stacked shape (a vector b: without its column) */
        int64_t shape[NG_MAXDIMS];
        memcpy(shape, bshape, sizeof(int64_t) * (size_t)bnd);
        shape[bnd] = n;
        shape[bnd + 1] = bm.shape[bm.ndim - 1];
        st = ng_op_reshape(&x, bnd + (vec ? 1 : 2), shape, out);
    }
    ng_array_release(&piv);
    ng_array_release(&flag);
    ng_array_release(&bm);
    ng_array_release(&lu);
    ng_array_release(&x);
    return st;
}

NgStatus ng_lapack_inv(const NgArray *a, NgArray *out, int *info)
{
    NgDType dt = NG_FLOAT64;
    NgStatus st = check_square(a, &dt);
    if (st != NG_OK)
        return st;
    int64_t n = a->shape[a->ndim - 1];
    NgArray eye, eyes;
    if ((st = ng_op_eye(ng_array_device(a), n, n, 0, dt, &eye)) != NG_OK)
        return st;
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    st = ng_op_broadcast_to(&eye, a->ndim, shape, &eyes);
    ng_array_release(&eye);
    if (st != NG_OK)
        return st;
    st = ng_lapack_solve(a, &eyes, out, info);
    ng_array_release(&eyes);
    return st;
}

NgStatus ng_lapack_slogdet(const NgArray *a, NgArray *sign, NgArray *logabs, NgArray *det)
{
    NgDType dt = NG_FLOAT64;
    NgStatus st = check_square(a, &dt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape);
    NgArray lu, piv, flag, s, l, d;
    memset(&piv, 0, sizeof piv);
    memset(&flag, 0, sizeof flag);
    memset(&s, 0, sizeof s);
    memset(&l, 0, sizeof l);
    memset(&d, 0, sizeof d);
    /* the work copy holds A^T in C order, which LAPACK reads as A in its column order: the LU
     * NumPy's det and slogdet take (and so its bits; LU of A^T has the same determinant, not the
     * same rounding: det([[1, 2], [3, 4]]) is -2.0000000000000004 in NumPy's) */
    int perm[NG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        perm[i] = i;
    perm[a->ndim - 2] = a->ndim - 1;
    perm[a->ndim - 1] = a->ndim - 2;
    NgArray at;
    if ((st = ng_op_transpose(a, perm, &at)) != NG_OK)
        return st;
    st = work_copy(&at, bnd, a->shape, dt, &lu);
    ng_array_release(&at);
    if (st != NG_OK)
        return st;
    int64_t n = a->shape[a->ndim - 1], ps[2] = {nb, n};
    int singular; /* (a singular matrix needs no flag: its sign is 0) */
    st = NG_ERR_UNSUPPORTED;
    if (vendor_first(dev, nb, n) && (st = zeros(dev, NG_INT64, 2, ps, &piv)) == NG_OK)
        st = vendor_each(NG_LAPACK_GETRF, &lu, &piv, 0, &singular);
    if (st == NG_ERR_UNSUPPORTED) {
        ng_array_release(&piv);
        st = lu_factor(&lu, &piv, &flag);
    }
    if (st == NG_OK && (st = ng_array_empty(dev, dt, 1, &nb, &s)) == NG_OK &&
        (st = ng_array_empty(dev, ng_dtype_real(dt), 1, &nb, &l)) == NG_OK &&
        (!det || (st = ng_array_empty(dev, dt, 1, &nb, &d)) == NG_OK)) {
        const NgArray *arrs[5] = {&lu, &piv, &s, &l, &d};
        st = launch(LA_SLOGDET, dt, det != NULL, det ? 5 : 4, arrs, -1, nb, nb * lu.shape[1]);
    }
    ng_array_release(&piv);
    ng_array_release(&flag);
    ng_array_release(&lu);
    NgArray *res[3] = {sign, logabs, det}, *tmp[3] = {&s, &l, &d}, shaped[3];
    memset(shaped, 0, sizeof shaped);
    for (int i = 0; i < 3; i++) { /* in the stacks' batch shape */
        if (st == NG_OK && res[i])
            st = ng_op_reshape(tmp[i], bnd, a->shape, &shaped[i]);
        ng_array_release(tmp[i]);
    }
    for (int i = 0; i < 3; i++) {
        if (st == NG_OK && res[i])
            *res[i] = shaped[i];
        else
            ng_array_release(&shaped[i]);
    }
    return st;
}

NgStatus ng_lapack_cholesky(const NgArray *a, NgArray *out, int *info)
{
    *info = 0;
    NgDType dt = NG_FLOAT64;
    NgStatus st = check_square(a, &dt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape), n = a->shape[a->ndim - 1];
    NgArray c, flag;
    if ((st = work_copy(a, bnd, a->shape, dt, &c)) != NG_OK)
        return st;
    if ((st = zeros(dev, NG_INT32, 1, &nb, &flag)) != NG_OK) {
        ng_array_release(&c);
        return st;
    }
    bool gpu = !ng_device_host_visible(dev); /* device memory: one work item per element */
    int vendor_bad = 0; /* the vendor's POTRF per matrix where it takes them, else the kernels */
    bool upper_zeroed = false; /* the kernel left the factor alone in c */
    NgStatus vst = vendor_first(dev, nb, n) ? vendor_each(NG_LAPACK_POTRF, &c, NULL, 0, &vendor_bad)
                                            : NG_ERR_UNSUPPORTED;
    if (vst != NG_ERR_UNSUPPORTED) {
        st = vst;
        n = 0;
    } else if (whole_matrices(dev, nb, n)) {
        const NgArray *arrs[2] = {&c, &flag};
        st = launch(LA_CHOL_FULL, dt, false, 2, arrs, -1, nb, nb * n * n * n / 6 + 1);
        upper_zeroed = !gpu && !ng_dtype_is_complex(dt); /* (build_chol_upper) */
        n = 0;
    }
    for (int64_t k = 0; k < n && st == NG_OK; k++) {
        const NgArray *col[2] = {&c, &flag};
        st = launch(LA_CHOL_COL, dt, false, 2, col, k, nb, nb * n);
        int64_t m = n - k - 1;
        if (st == NG_OK && m > 0) {
            const NgArray *upd[1] = {&c};
            st = launch(LA_CHOL_UPDATE, dt, false, 1, upd, k, gpu ? nb * m * m : nb * m, nb * m * m / 2);
        }
    }
    bool bad = vendor_bad;
    if (st == NG_OK && !bad)
        st = any_flag(&flag, &bad);
    if (st == NG_OK && bad)
        *info = 1;
    if (st == NG_OK && !bad && upper_zeroed) {
        st = ng_op_reshape(&c, a->ndim, a->shape, out);
    } else if (st == NG_OK && !bad) { /* the factor is the lower triangle */
        NgArray low;
        if ((st = ng_op_tri(&c, 0, false, &low)) == NG_OK) {
            st = ng_op_reshape(&low, a->ndim, a->shape, out);
            ng_array_release(&low);
        }
    }
    ng_array_release(&flag);
    ng_array_release(&c);
    return st;
}

NgStatus ng_lapack_qr(const NgArray *a, bool complete, NgArray *q, NgArray *r)
{
    if (a->ndim < 2)
        return ng_error_set(NG_ERR_VALUE, "%d-dimensional array given. Array must be at least two-dimensional",
                            a->ndim);
    NgDType dt = NG_FLOAT64;
    NgStatus st = compute_dtype(a->dtype, &dt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape), m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    int64_t kk = m < n ? m : n, rows = complete ? m : kk, kq = complete ? m : kk;
    int64_t tshape[2] = {nb, kk};
    NgArray w, tau, rr, x;
    memset(&x, 0, sizeof x);
    if ((st = work_copy(a, bnd, a->shape, dt, &w)) != NG_OK)
        return st;
    if ((st = zeros(dev, dt, 2, tshape, &tau)) != NG_OK) {
        ng_array_release(&w);
        return st;
    }
    const NgArray *wt[2] = {&w, &tau};
    int64_t xs[3] = {nb, m, kq};
    bool vendor = false; /* R into w's upper triangle and Q into x by the vendor, a call per matrix */
    if (vendor_first(dev, nb, n) && (!q || (st = ng_array_empty(dev, dt, 3, xs, &x)) == NG_OK)) {
        int op = !q ? NG_LAPACK_QR_R : complete ? NG_LAPACK_QR_COMPLETE : NG_LAPACK_QR_REDUCED, unused;
        st = vendor_each(op, &w, q ? &x : NULL, n, &unused);
        vendor = st == NG_OK;
        if (st == NG_ERR_UNSUPPORTED) {
            st = NG_OK;
            ng_array_release(&x);
        }
    }
    if (st == NG_OK && !vendor && whole_matrices(dev, nb, n)) {
        st = launch(LA_QR_FULL, dt, false, 2, wt, kk, nb, nb * m * n * kk + 1);
    } else if (st == NG_OK && !vendor) {
        for (int64_t j = 0; j < kk && st == NG_OK; j++) {
            st = launch(LA_QR_COL, dt, false, 2, wt, j, nb, nb * (m - j));
            if (st == NG_OK && n - j - 1 > 0)
                st = launch(LA_QR_APPLY, dt, false, 2, wt, j, nb * (n - j - 1), nb * (n - j - 1) * (m - j));
        }
    }
    if (st == NG_OK && q && !vendor) { /* Q = H_0 ... H_{k-1} applied to the first kq columns of the identity */
        NgArray eye, eyes;
        if ((st = ng_op_eye(dev, m, kq, 0, dt, &eye)) == NG_OK) {
            if ((st = ng_op_broadcast_to(&eye, 3, xs, &eyes)) == NG_OK) {
                st = ng_op_astype(&eyes, dt, &x);
                ng_array_release(&eyes);
            }
            ng_array_release(&eye);
        }
        const NgArray *wtx[3] = {&w, &tau, &x};
        if (st == NG_OK && whole_matrices(dev, nb, n))
            st = launch(LA_Q_FULL, dt, false, 3, wtx, kk, nb, nb * m * kq * kk + 1);
        for (int64_t j = kk - 1; !whole_matrices(dev, nb, n) && j >= 0 && st == NG_OK; j--)
            st = launch(LA_Q_APPLY, dt, false, 3, wtx, j, nb * kq, nb * kq * (m - j));
    }
    if (st == NG_OK) { /* R: the upper triangle of the first `rows` rows */
        NgArray top;
        ng_array_view(&w, &top);
        top.shape[1] = rows;
        top.size = nb * rows * n;
        st = ng_op_tri(&top, 0, true, &rr);
        ng_array_release(&top);
    }
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    if (st == NG_OK) {
        shape[bnd] = rows;
        st = ng_op_reshape(&rr, a->ndim, shape, r);
        ng_array_release(&rr);
    }
    if (st == NG_OK && q) {
        shape[bnd] = m;
        shape[bnd + 1] = kq;
        st = ng_op_reshape(&x, a->ndim, shape, q);
        if (st != NG_OK)
            ng_array_release(r);
    }
    ng_array_release(&x);
    ng_array_release(&tau);
    ng_array_release(&w);
    return st;
}

/* ---- eigenvalues, singular values, least squares: the vendor's solvers ---- */

/* NumPy's precisions for these (its _commonType): computed in float64, or
 * complex128 when either input is complex; results in float32/complex64
 * when every input is float32 or complex64, else in double. */
static NgStatus double_dtypes(NgDType a, NgDType b, NgDType *compute, NgDType *result)
{
    if (a == NG_FLOAT16 || b == NG_FLOAT16)
        return ng_error_set(NG_ERR_TYPE, "array type float16 is unsupported in linalg");
    bool cplx = ng_dtype_is_complex(a) || ng_dtype_is_complex(b);
    bool single = (a == NG_FLOAT32 || a == NG_COMPLEX64) && (b == NG_FLOAT32 || b == NG_COMPLEX64);
    *compute = cplx ? NG_COMPLEX128 : NG_FLOAT64;
    *result = cplx ? (single ? NG_COMPLEX64 : NG_COMPLEX128) : (single ? NG_FLOAT32 : NG_FLOAT64);
    return NG_OK;
}

static NgStatus no_solver(NgDevice *dev)
{
    return ng_error_set(NG_ERR_UNSUPPORTED, "%s has no vendor eigenvalue/SVD solver", ng_device_name(dev));
}

/* The vendor's op (NgBackend.decomp) on each matrix of the C-contiguous
 * (nb, ...) work arrays; stops at the first that does not converge
 * (*info = 1). */
static NgStatus decomp_each(int op, NgDType dt, int64_t m, int64_t n, int64_t nrhs, int flags, double rcond, int narr,
                            NgArray *const *arrs, int64_t *rank, int *info)
{
    NgDevice *dev = ng_array_device(arrs[0]);
    int64_t nb = arrs[0]->shape[0];
    void *buf[5] = {NULL};
    size_t off[5] = {0}, step[5] = {0};
    for (int i = 0; i < narr; i++) {
        buf[i] = arrs[i]->buf->data;
        step[i] = nb ? (size_t)(arrs[i]->size / nb) * ng_array_itemsize(arrs[i]) : 0;
    }
    NgStatus st = NG_OK;
    *info = 0;
    for (int64_t q = 0; q < nb && st == NG_OK && !*info; q++) {
        for (int i = 0; i < narr; i++)
            off[i] = arrs[i]->offset + (size_t)q * step[i];
        st = dev->be->decomp(dev, op, dt, m, n, nrhs, flags, rcond, buf, off, rank, info);
    }
    return st;
}

/* *out = tmp in dtype dt and shape (ndim, shape); takes tmp. */
static NgStatus finish(NgArray *tmp, NgDType dt, int ndim, const int64_t *shape, NgArray *out)
{
    NgArray cast;
    NgStatus st = NG_OK;
    if (tmp->dtype != dt) {
        st = ng_op_astype(tmp, dt, &cast);
        ng_array_release(tmp);
        if (st != NG_OK)
            return st;
        *tmp = cast;
    }
    st = ng_op_reshape(tmp, ndim, shape, out);
    ng_array_release(tmp);
    return st;
}

/* (nb, rows, cols) identity matrices in dtype dt: an empty matrix's full
 * U and Vh, as NumPy gives them. */
static NgStatus eyes(NgDevice *dev, int64_t nb, int64_t rows, int64_t cols, NgDType dt, NgArray *out)
{
    NgArray eye, view;
    int64_t shape[3] = {nb, rows, cols};
    NgStatus st = ng_op_eye(dev, rows, cols, 0, dt, &eye);
    if (st != NG_OK)
        return st;
    if ((st = ng_op_broadcast_to(&eye, 3, shape, &view)) == NG_OK) {
        st = ng_op_astype(&view, dt, out);
        ng_array_release(&view);
    }
    ng_array_release(&eye);
    return st;
}

/* What eig checks first: a stack of square matrices, the double dtypes they are computed
 * and returned in, and a device with a decomposition solver (whose hook may still decline it). */
static NgStatus square_decomp(const NgArray *a, NgDType *dt, NgDType *rdt)
{
    NgStatus st = check_square(a, dt);
    if (st != NG_OK || (st = double_dtypes(a->dtype, a->dtype, dt, rdt)) != NG_OK)
        return st;
    return ng_array_device(a)->be->decomp ? NG_OK : no_solver(ng_array_device(a));
}

/* The worst flag of the Jacobi kernels over a stack (0 for none). */
static NgStatus worst_flag(const NgArray *flag, int64_t *worst)
{
    *worst = 0;
    return flag->size ? ng_ops_reduce_int(NG_RED_MAX, flag, worst) : NG_OK;
}

/* Where eigh and svd go. The vendor's solver (decomp) on a host-visible
 * device (the cpu: NumPy's own LAPACK calls, NumPy's bits) and for
 * matrices the Jacobi kernels do not take; else the Jacobi kernels, a work
 * item per matrix (also where the vendor's first call answers
 * NG_ERR_UNSUPPORTED: no such solver there), but for few matrices of at
 * least VENDOR_DECOMP_MIN rows and columns on a GPU (cuSOLVER), where one
 * thread's sweeps, ~min(m, n)^3, cost more than a vendor call per matrix:
 * fewer than 8 (min(m, n) / 64)^3 of them (a guess from the operation
 * counts, not measured on a GPU yet). NG_ERR_UNSUPPORTED (NumPy's fallback)
 * when neither takes them. */
#define VENDOR_DECOMP_MIN 64

static NgStatus decomp_route(NgDevice *dev, NgDType dt, int64_t nb, int64_t m, int64_t n, bool *vendor)
{
    int64_t lo = m < n ? m : n;
    bool jacobi = ng_jacobi_takes(dt, m, n);
    bool few_large = lo >= VENDOR_DECOMP_MIN && nb * VENDOR_DECOMP_MIN * VENDOR_DECOMP_MIN * VENDOR_DECOMP_MIN < 8 * lo * lo * lo;
    *vendor = dev->be->decomp && (ng_device_host_visible(dev) || !jacobi || few_large);
    return *vendor || jacobi ? NG_OK : no_solver(dev);
}

/* After the vendor's first call: NG_ERR_UNSUPPORTED turns to the Jacobi kernels where they take
 * the matrices (*vendor = false). */
static NgStatus vendor_declined(NgStatus st, NgDType dt, int64_t m, int64_t n, bool *vendor)
{
    if (st != NG_ERR_UNSUPPORTED || !ng_jacobi_takes(dt, m, n))
        return st;
    *vendor = false;
    return NG_OK;
}

NgStatus ng_lapack_eigh(const NgArray *a, bool upper, NgArray *w, NgArray *v, int *info)
{
    *info = 0;
    NgDType dt = NG_FLOAT64, rdt = NG_FLOAT64;
    NgStatus st = check_square(a, &dt);
    if (st != NG_OK || (st = double_dtypes(a->dtype, a->dtype, &dt, &rdt)) != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape), n = a->shape[bnd], ws[2] = {nb, n}, vs[3] = {nb, n, n};
    bool vendor;
    if ((st = decomp_route(dev, dt, nb, n, n, &vendor)) != NG_OK)
        return st;
    NgArray wk, wv, vv, flag;
    memset(&vv, 0, sizeof vv);
    memset(&flag, 0, sizeof flag);
    if ((st = work_copy(a, bnd, a->shape, dt, &wk)) != NG_OK)
        return st;
    st = ng_array_empty(dev, ng_dtype_real(dt), 2, ws, &wv);
    NgArray *arrs[2] = {&wk, &wv};
    int flags = (v ? NG_DECOMP_VECTORS : 0) | (upper ? NG_DECOMP_UPPER : 0);
    if (st == NG_OK && nb * n > 0 && vendor)
        st = vendor_declined(decomp_each(NG_DECOMP_EIGH, dt, n, n, 0, flags, 0, 2, arrs, NULL, info), dt, n, n,
                             &vendor);
    if (st == NG_OK && !vendor && (st = zeros(dev, NG_INT32, 1, &nb, &flag)) == NG_OK &&
        (!v || (st = ng_array_empty(dev, dt, 3, vs, &vv)) == NG_OK) && nb * n > 0) {
        int64_t worst = 0; /* (NaN/inf: NaN results, as NumPy's) */
        if ((st = ng_jacobi_eigh(&wk, upper, &wv, v ? &vv : NULL, &flag)) == NG_OK &&
            (st = worst_flag(&flag, &worst)) == NG_OK)
            *info = worst == 3;
    }
    NgArray *vecs = vendor ? &wk : &vv;
    if (st == NG_OK && !*info && (st = finish(&wv, ng_dtype_real(rdt), bnd + 1, a->shape, w)) == NG_OK && v &&
        (st = finish(vecs, rdt, a->ndim, a->shape, v)) != NG_OK)
        ng_array_release(w);
    ng_array_release(&wk);
    ng_array_release(&wv);
    ng_array_release(&vv);
    ng_array_release(&flag);
    return st;
}

NgStatus ng_lapack_svd(const NgArray *a, int mode, NgArray *u, NgArray *s, NgArray *vh, int *info)
{
    *info = 0;
    if (a->ndim < 2)
        return ng_error_set(NG_ERR_VALUE, "%d-dimensional array given. Array must be at least two-dimensional",
                            a->ndim);
    NgDType dt = NG_FLOAT64, rdt = NG_FLOAT64;
    NgStatus st = double_dtypes(a->dtype, a->dtype, &dt, &rdt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape), m = a->shape[bnd], n = a->shape[bnd + 1], k = m < n ? m : n;
    int64_t ku = mode == 2 ? m : k, kv = mode == 2 ? n : k;
    int64_t ss[2] = {nb, k}, us[3] = {nb, m, ku}, vs[3] = {nb, kv, n};
    bool vendor;
    if ((st = decomp_route(dev, dt, nb, m, n, &vendor)) != NG_OK)
        return st;
    NgArray wk, ws, wu, wv, flag;
    memset(&wu, 0, sizeof wu);
    memset(&wv, 0, sizeof wv);
    memset(&flag, 0, sizeof flag);
    if ((st = work_copy(a, bnd, a->shape, dt, &wk)) != NG_OK)
        return st;
    if ((st = ng_array_empty(dev, ng_dtype_real(dt), 2, ss, &ws)) != NG_OK) {
        ng_array_release(&wk);
        return st;
    }
    if (mode && m * n == 0) { /* no call: an empty U or Vh, or the identity */
        if ((st = eyes(dev, nb, m, ku, dt, &wu)) == NG_OK)
            st = eyes(dev, nb, kv, n, dt, &wv);
    } else if (mode && (st = ng_array_empty(dev, dt, 3, us, &wu)) == NG_OK) {
        st = ng_array_empty(dev, dt, 3, vs, &wv);
    }
    NgArray *arrs[4] = {&wk, &ws, &wu, &wv};
    int flags = (mode ? NG_DECOMP_VECTORS : 0) | (mode == 2 ? NG_DECOMP_FULL : 0);
    if (st == NG_OK && nb * m * n > 0 && vendor)
        st = vendor_declined(decomp_each(NG_DECOMP_SVD, dt, m, n, 0, flags, 0, mode ? 4 : 2, arrs, NULL, info), dt, m,
                             n, &vendor);
    if (st == NG_OK && nb * m * n > 0 && !vendor && (st = zeros(dev, NG_INT32, 1, &nb, &flag)) == NG_OK) {
        int64_t worst = 0; /* LAPACK (NumPy): a NaN does not converge, an infinity gives NaN results */
        if ((st = ng_jacobi_svd(&wk, mode == 2, &ws, mode ? &wu : NULL, mode ? &wv : NULL, &flag)) == NG_OK &&
            (st = worst_flag(&flag, &worst)) == NG_OK)
            *info = worst == 3 || worst == 1;
    }
    ng_array_release(&flag);
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)bnd);
    shape[bnd] = k;
    if (st == NG_OK && !*info && (st = finish(&ws, ng_dtype_real(rdt), bnd + 1, shape, s)) == NG_OK && mode) {
        shape[bnd] = m;
        shape[bnd + 1] = ku;
        if ((st = finish(&wu, rdt, bnd + 2, shape, u)) == NG_OK) {
            shape[bnd] = kv;
            shape[bnd + 1] = n;
            if ((st = finish(&wv, rdt, bnd + 2, shape, vh)) != NG_OK)
                ng_array_release(u);
        }
        if (st != NG_OK)
            ng_array_release(s);
    }
    for (int i = 0; i < 4; i++)
        ng_array_release(arrs[i]);
    return st;
}

NgStatus ng_lapack_eig(const NgArray *a, NgArray *w, NgArray *v, int *info)
{
    *info = 0;
    NgDType dt = NG_FLOAT64, rdt = NG_FLOAT64;
    NgStatus st = square_decomp(a, &dt, &rdt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    NgDType cdt = NG_COMPLEX128, crdt = rdt == NG_FLOAT32 || rdt == NG_COMPLEX64 ? NG_COMPLEX64 : NG_COMPLEX128;
    int bnd = a->ndim - 2;
    int64_t nb = batch_of(a->ndim, a->shape), n = a->shape[bnd], ws[2] = {nb, n}, vs[3] = {nb, n, n};
    NgArray wk, ww, wv;
    memset(&ww, 0, sizeof ww);
    memset(&wv, 0, sizeof wv);
    if ((st = work_copy(a, bnd, a->shape, dt, &wk)) != NG_OK)
        return st;
    if ((st = ng_array_empty(dev, cdt, 2, ws, &ww)) == NG_OK && v)
        st = ng_array_empty(dev, cdt, 3, vs, &wv);
    NgArray *arrs[3] = {&wk, &ww, &wv};
    if (st == NG_OK && nb * n > 0)
        st = decomp_each(NG_DECOMP_EIG, dt, n, n, 0, v ? NG_DECOMP_VECTORS : 0, 0, v ? 3 : 2, arrs, NULL, info);
    if (st == NG_OK && !*info && (st = finish(&ww, crdt, bnd + 1, a->shape, w)) == NG_OK && v &&
        (st = finish(&wv, crdt, a->ndim, a->shape, v)) != NG_OK)
        ng_array_release(w);
    for (int i = 0; i < 3; i++)
        ng_array_release(arrs[i]);
    return st;
}

NgStatus ng_lapack_lstsq(const NgArray *a, const NgArray *b, double rcond, NgArray *x, NgArray *resid, int64_t *rank,
                         NgArray *s, int *info)
{
    *info = 0;
    *rank = 0;
    if (a->ndim != 2 || b->ndim != 2)
        return ng_error_set(NG_ERR_VALUE, "%d-dimensional array given. Array must be two-dimensional",
                            a->ndim != 2 ? a->ndim : b->ndim);
    if (a->shape[0] != b->shape[0])
        return ng_error_set(NG_ERR_VALUE, "Incompatible dimensions");
    NgDType dt = NG_FLOAT64, rdt = NG_FLOAT64;
    NgStatus st = double_dtypes(a->dtype, b->dtype, &dt, &rdt);
    if (st != NG_OK)
        return st;
    NgDevice *dev = ng_array_device(a);
    if (ng_array_device(b) != dev)
        return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s)", ng_device_name(dev),
                            ng_device_name(ng_array_device(b)));
    if (!dev->be->decomp)
        return no_solver(dev);
    int64_t m = a->shape[0], n = a->shape[1], nrhs = b->shape[1], k = m < n ? m : n;
    int64_t xs[3] = {1, n, nrhs}, ss[2] = {1, k}, rs[2] = {1, nrhs};
    NgArray wa, wb, wx, ws, wr;
    memset(&wb, 0, sizeof wb);
    memset(&wx, 0, sizeof wx);
    memset(&ws, 0, sizeof ws);
    memset(&wr, 0, sizeof wr);
    if ((st = work_copy(a, 0, a->shape, dt, &wa)) != NG_OK)
        return st;
    NgDType rt = ng_dtype_real(dt);
    if ((st = work_copy(b, 0, b->shape, dt, &wb)) == NG_OK && (st = zeros(dev, dt, 3, xs, &wx)) == NG_OK &&
        (st = ng_array_empty(dev, rt, 2, ss, &ws)) == NG_OK && (st = zeros(dev, rt, 2, rs, &wr)) == NG_OK &&
        m * n * nrhs > 0) {
        NgArray *arrs[5] = {&wa, &wb, &wx, &ws, &wr};
        st = decomp_each(NG_DECOMP_LSTSQ, dt, m, n, nrhs, 0, rcond, 5, arrs, rank, info);
    }
    if (st == NG_OK && !*info && (st = finish(&wx, rdt, 2, xs + 1, x)) == NG_OK) {
        if ((st = finish(&wr, ng_dtype_real(rdt), 1, rs + 1, resid)) == NG_OK &&
            (st = finish(&ws, ng_dtype_real(rdt), 1, ss + 1, s)) != NG_OK)
            ng_array_release(resid);
        if (st != NG_OK)
            ng_array_release(x);
    }
    NgArray *tmp[5] = {&wa, &wb, &wx, &ws, &wr};
    for (int i = 0; i < 5; i++)
        ng_array_release(tmp[i]);
    return st;
}
