/* Eigenvalues of symmetric/Hermitian matrices and singular value
 * decompositions by generated Jacobi kernels, for stacks of matrices on
 * every device (src/ops/lapack.c calls these where the device has no vendor
 * solver that takes the stack).
 *
 * One work item per matrix does the whole decomposition, so a stack of B
 * small matrices is one launch of B work items:
 * - eigh: cyclic Jacobi (row by row over the pairs p < q). A rotation in
 *   the (p, q) plane, a unitary one for complex Hermitian matrices (the
 *   phase of a_pq moved into column q first), zeroes a_pq; the eigenvectors
 *   are the product of the rotations. Ascending eigenvalues.
 * - svd: one-sided Jacobi (Hestenes). Rotations of column pairs of the
 *   (rows >= cols) work matrix until every pair is orthogonal; the column
 *   norms are the singular values (sorted descending), the normalised
 *   columns the left vectors, the product of the rotations the right ones.
 *   A wide matrix is decomposed as A^H, read through transposed accessors;
 *   left vectors missing (full_matrices, or zero singular values) are
 *   completed by Gram-Schmidt against the unit vectors.
 * A pair is rotated while it is not yet orthogonal to working precision
 * (|a_pq| > tol sqrt(|a_pp a_qq|); svd: |a_p^H a_q| > tol |a_p| |a_q|, tol =
 * eps sqrt(n)), the criterion that keeps small eigen- and singular values
 * relatively accurate. Sweeps repeat until one rotates nothing, at most MAX_SWEEPS;
 * a matrix still rotating then is flagged (NumPy's "did not converge").
 * Each matrix is first scaled by its largest |element| (results scaled
 * back), so squares neither overflow nor underflow; one with a NaN or an
 * infinity is flagged and its results are NaN, as LAPACK gives them. */
#include <math.h>

#include "ops/ops_internal.h"

#define MAX_SWEEPS 60
#define JACOBI_MAX_WORK (256 * 256 * 256) /* largest min(m, n)^2 max(m, n): one work item's sweep */

typedef struct JacKey {
    uint8_t tag;     /* 'J' */
    uint8_t svd;     /* 0 eigh, 1 svd */
    int8_t dtype;    /* compute dtype (float or complex) */
    uint8_t vectors; /* eigenvectors / U and Vh too */
    uint8_t upper;   /* eigh: from the upper triangle */
    uint8_t wide;    /* svd: the work array is A (m < n), decomposed as A^H */
    uint8_t full;    /* svd: full_matrices */
} JacKey;

/* A matrix of a stack as the kernel sees it: param p, element (i, j) at
 * [b, i, j], or (trans) conjugated at [b, j, i]. */
typedef struct Mat {
    int p;
    bool trans;
} Mat;

typedef struct Jb {
    NgIrKernel *k;
    NgDType dt, rt; /* compute dtype, its real dtype */
    bool cplx;
    NgIrRef b;      /* the matrix */
} Jb;

static NgIrRef I(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }
static NgIrRef R(const Jb *j, double v) { return ng_ir_const_f(j->k, j->rt, v); }
static NgIrRef bin(const Jb *j, NgOp op, NgDType dt, NgIrRef x, NgIrRef y) { return ng_ir_binary(j->k, op, dt, x, y); }
static NgIrRef ref(const Jb *j, int v) { return ng_ir_varref(j->k, v); }
static NgIrRef set(const Jb *j, int v, NgIrRef x) { return ng_ir_assign(j->k, v, x); }

static NgIrRef conj_of(const Jb *j, NgIrRef z)
{
    return j->cplx ? ng_ir_unary(j->k, NG_OP_CONJUGATE, j->dt, z) : z;
}

static NgIrRef get(const Jb *j, Mat m, NgIrRef r, NgIrRef c)
{
    NgIrRef idx[3] = {j->b, m.trans ? c : r, m.trans ? r : c};
    NgIrRef v = ng_ir_load(j->k, m.p, 3, idx);
    return m.trans ? conj_of(j, v) : v;
}

static NgIrRef put(const Jb *j, Mat m, NgIrRef r, NgIrRef c, NgIrRef v)
{
    NgIrRef idx[3] = {j->b, m.trans ? c : r, m.trans ? r : c};
    return ng_ir_store(j->k, m.p, 3, idx, m.trans ? conj_of(j, v) : v);
}

/* for v in [start, stop) */
static NgIrRef loop(const Jb *j, int v, NgIrRef start, NgIrRef stop, NgIrRef body)
{
    return ng_ir_for(j->k, v, start, stop, I(j->k, 1), body, 0);
}

static NgIrRef blk(const Jb *j, int n, const NgIrRef *s) { return ng_ir_block(j->k, n, s); }

static NgIrRef when(const Jb *j, NgIrRef c, NgIrRef then) { return ng_ir_if(j->k, c, then, NG_IR_NONE); }

/* |z|^2 in the real dtype. */
static NgIrRef abs2(const Jb *j, NgIrRef z)
{
    if (!j->cplx)
        return bin(j, NG_OP_MUL, j->rt, z, z);
    NgIrRef re = ng_ir_cast(j->k, j->rt, z), im = ng_ir_imag(j->k, z);
    return bin(j, NG_OP_ADD, j->rt, bin(j, NG_OP_MUL, j->rt, re, re), bin(j, NG_OP_MUL, j->rt, im, im));
}

static NgIrRef to_dt(const Jb *j, NgIrRef x) { return ng_ir_cast(j->k, j->dt, x); }

static double eps_of(NgDType rt) { return rt == NG_FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16; }
static double tiny_of(NgDType rt) { return rt == NG_FLOAT32 ? 1e-35 : 1e-290; }

/* eps sqrt(n): how far from orthogonal a pair may stay (LAPACK's gesvj's; at eps itself the
 * rounding of a rotation can keep a pair of nearly dependent columns just above it for ever). */
static NgIrRef tolerance(const Jb *j, NgIrRef n)
{
    return bin(j, NG_OP_MUL, j->rt, R(j, eps_of(j->rt)), ng_ir_unary(j->k, NG_OP_SQRT, j->rt, ng_ir_cast(j->k, j->rt, n)));
}

/* c_a x + c_b y, the coefficients in variables coef[a] and coef[b]. */
static NgIrRef combine(const Jb *j, const int *coef, int a, int b, NgIrRef x, NgIrRef y)
{
    return bin(j, NG_OP_ADD, j->dt, bin(j, NG_OP_MUL, j->dt, ref(j, coef[a]), x),
               bin(j, NG_OP_MUL, j->dt, ref(j, coef[b]), y));
}

/* The rotation of rows or columns p and q of m (n of them): x_p, x_q =
 * c11 x_p + c12 x_q, c21 x_p + c22 x_q (coefficients in variables). */
static NgIrRef rotate(const Jb *j, Mat m, bool rows, NgIrRef p, NgIrRef q, NgIrRef n, const int *coef, int vr, int vx,
                      int vy)
{
    NgIrRef r = ref(j, vr), x = ref(j, vx), y = ref(j, vy);
    NgIrRef np = combine(j, coef, 0, 1, x, y), nq = combine(j, coef, 2, 3, x, y);
    NgIrRef s[4] = {
        set(j, vx, rows ? get(j, m, p, r) : get(j, m, r, p)),
        set(j, vy, rows ? get(j, m, q, r) : get(j, m, r, q)),
        rows ? put(j, m, p, r, np) : put(j, m, r, p, np),
        rows ? put(j, m, q, r, nq) : put(j, m, r, q, nq),
    };
    return loop(j, vr, I(j->k, 0), n, blk(j, 4, s));
}

/* The two-sided rotation U^H A U of Hermitian A (n x n) in the plane (p, q), U's columns p and
 * q being c11 e_p + c21 e_q and c12 e_p + c22 e_q: columns p and q rotated and rows p and q
 * their conjugates, which keeps A exactly Hermitian and reads each element once. (Rows p and q
 * themselves come out wrong: the caller sets the 2 x 2 block after.) */
static NgIrRef rotate_hermitian(const Jb *j, Mat m, NgIrRef p, NgIrRef q, NgIrRef n, const int *coef, int vr, int vx,
                                int vy)
{
    NgIrRef r = ref(j, vr), x = ref(j, vx), y = ref(j, vy);
    NgIrRef np = combine(j, coef, 0, 1, x, y), nq = combine(j, coef, 2, 3, x, y);
    NgIrRef s[6] = {
        set(j, vx, get(j, m, r, p)),
        set(j, vy, get(j, m, r, q)),
        put(j, m, r, p, np),
        put(j, m, r, q, nq),
        put(j, m, p, r, conj_of(j, get(j, m, r, p))),
        put(j, m, q, r, conj_of(j, get(j, m, r, q))),
    };
    return loop(j, vr, I(j->k, 0), n, blk(j, 6, s));
}

/* Swaps columns p and q of m (n rows). */
static NgIrRef swap_cols(const Jb *j, Mat m, NgIrRef p, NgIrRef q, NgIrRef n, int vr, int vt)
{
    NgIrRef r = ref(j, vr);
    NgIrRef s[3] = {set(j, vt, get(j, m, r, p)), put(j, m, r, p, get(j, m, r, q)), put(j, m, r, q, ref(j, vt))};
    return loop(j, vr, I(j->k, 0), n, blk(j, 3, s));
}

/* t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2)) (the smaller root of t^2 + 2 zeta t = 1), c = 1 /
 * sqrt(1 + t^2), s = t c; then the coefficient variables for a rotation of columns (c, -s conj(e);
 * s, c conj(e)), e = phase (the off-diagonal entry or inner product over its modulus: its sign for
 * real matrices). */
static NgIrRef rotation(const Jb *j, NgIrRef zeta, int vt, int vc, int vs, int vph, const int *cols)
{
    NgDType rt = j->rt, dt = j->dt;
    NgIrRef az = ng_ir_unary(j->k, NG_OP_ABS, rt, zeta);
    NgIrRef root = ng_ir_unary(j->k, NG_OP_SQRT, rt, bin(j, NG_OP_ADD, rt, R(j, 1), bin(j, NG_OP_MUL, rt, zeta, zeta)));
    NgIrRef t = ref(j, vt), c = to_dt(j, ref(j, vc)), s = to_dt(j, ref(j, vs));
    NgIrRef e = ref(j, vph), ec = conj_of(j, e);
    NgIrRef negs = ng_ir_unary(j->k, NG_OP_NEG, dt, s);
    NgIrRef st[7] = {
        set(j, vt, bin(j, NG_OP_TRUEDIV, rt, bin(j, NG_OP_COPYSIGN, rt, R(j, 1), zeta), bin(j, NG_OP_ADD, rt, az, root))),
        set(j, vc, bin(j, NG_OP_TRUEDIV, rt, R(j, 1),
                       ng_ir_unary(j->k, NG_OP_SQRT, rt, bin(j, NG_OP_ADD, rt, R(j, 1), bin(j, NG_OP_MUL, rt, t, t))))),
        set(j, vs, bin(j, NG_OP_MUL, rt, t, ref(j, vc))),
        set(j, cols[0], c),
        set(j, cols[1], bin(j, NG_OP_MUL, dt, negs, ec)),
        set(j, cols[2], s),
        set(j, cols[3], bin(j, NG_OP_MUL, dt, c, ec)),
    };
    return blk(j, 7, st);
}

/* Fills the first `len` entries of row b of the (B, len) real array p with NaN. */
static NgIrRef nan_row(const Jb *j, int p, NgIrRef len, int vi)
{
    NgIrRef idx[2] = {j->b, ref(j, vi)};
    return loop(j, vi, I(j->k, 0), len, ng_ir_store(j->k, p, 2, idx, R(j, NAN)));
}

static NgIrRef nan_mat(const Jb *j, Mat m, NgIrRef rows, NgIrRef cols, int vi, int vk)
{
    NgIrRef nan = j->cplx ? ng_ir_const_c(j->k, j->dt, NAN, NAN) : R(j, NAN);
    return loop(j, vi, I(j->k, 0), rows, loop(j, vk, I(j->k, 0), cols, put(j, m, ref(j, vi), ref(j, vk), nan)));
}

/* Column or element scan: v = |x|; nan |= v != v; amax = max(amax, v). */
static NgIrRef scan_elem(const Jb *j, NgIrRef x, int vv, int vnan, int vmax)
{
    NgIrRef v = ref(j, vv);
    NgIrRef s[3] = {
        set(j, vv, ng_ir_unary(j->k, NG_OP_ABS, j->rt, x)),
        when(j, bin(j, NG_OP_NE, NG_BOOL, v, v), set(j, vnan, ng_ir_const_i(j->k, NG_INT32, 1))),
        when(j, bin(j, NG_OP_GT, NG_BOOL, v, ref(j, vmax)), set(j, vmax, v)),
    };
    return blk(j, 3, s);
}

/* Variables every decomposition kernel declares. */
typedef struct JVars {
    int i, k, r, p, q, sweep;           /* int64 counters */
    int best;                           /* int64: selection sort's pick */
    int nan, rotated;                   /* int32 */
    int amax, v, g, t, c, s, zeta, al, be; /* real */
    int x, y, ph, tmp, dot;             /* compute dtype */
    int cc[4];                          /* the rotation's coefficients (for columns) */
} JVars;

static int declare(const Jb *j, JVars *v, NgIrRef *lets)
{
    NgIrKernel *k = j->k;
    int n = 0;
    int *ints[] = {&v->i, &v->k, &v->r, &v->p, &v->q, &v->sweep, &v->best};
    for (size_t a = 0; a < sizeof ints / sizeof *ints; a++) {
        *ints[a] = ng_ir_var(k, NG_INT64);
        lets[n++] = ng_ir_let(k, *ints[a], I(k, 0));
    }
    int *i32[] = {&v->nan, &v->rotated};
    for (size_t a = 0; a < sizeof i32 / sizeof *i32; a++) {
        *i32[a] = ng_ir_var(k, NG_INT32);
        lets[n++] = ng_ir_let(k, *i32[a], ng_ir_const_i(k, NG_INT32, 0));
    }
    int *reals[] = {&v->amax, &v->v, &v->g, &v->t, &v->c, &v->s, &v->zeta, &v->al, &v->be};
    for (size_t a = 0; a < sizeof reals / sizeof *reals; a++) {
        *reals[a] = ng_ir_var(k, j->rt);
        lets[n++] = ng_ir_let(k, *reals[a], R(j, 0));
    }
    int *cs[] = {&v->x, &v->y, &v->ph, &v->tmp, &v->dot, &v->cc[0], &v->cc[1], &v->cc[2], &v->cc[3]};
    for (size_t a = 0; a < sizeof cs / sizeof *cs; a++) {
        *cs[a] = ng_ir_var(k, j->dt);
        lets[n++] = ng_ir_let(k, *cs[a], ng_ir_const_f(k, j->dt, 0));
    }
    return n;
}

/* Multiplies every element of m (rows x cols) by 1 / amax when amax > 0. */
static NgIrRef scale_down(const Jb *j, const JVars *v, Mat m, NgIrRef rows, NgIrRef cols)
{
    NgIrRef i = ref(j, v->i), kk = ref(j, v->k);
    NgIrRef f = to_dt(j, bin(j, NG_OP_TRUEDIV, j->rt, R(j, 1), ref(j, v->amax)));
    NgIrRef body = put(j, m, i, kk, bin(j, NG_OP_MUL, j->dt, get(j, m, i, kk), f));
    return when(j, bin(j, NG_OP_GT, NG_BOOL, ref(j, v->amax), R(j, 0)),
                loop(j, v->i, I(j->k, 0), rows, loop(j, v->k, I(j->k, 0), cols, body)));
}

/* Sweeps of `pair` (the work for pair (p, q)) over p < q < n until one rotates nothing; flags the
 * matrix (3) when MAX_SWEEPS did not get there. */
static NgIrRef sweeps(const Jb *j, const JVars *v, NgIrRef n, NgIrRef pair, int flag)
{
    NgIrKernel *k = j->k;
    NgIrRef one = ng_ir_const_i(k, NG_INT32, 1), zero = ng_ir_const_i(k, NG_INT32, 0);
    NgIrRef pairs = loop(j, v->p, I(k, 0), n, loop(j, v->q, bin(j, NG_OP_ADD, NG_INT64, ref(j, v->p), I(k, 1)), n, pair));
    NgIrRef sweep[2] = {set(j, v->rotated, zero), pairs};
    NgIrRef fidx[1] = {j->b};
    NgIrRef s[3] = {
        set(j, v->rotated, one),
        loop(j, v->sweep, I(k, 0), I(k, MAX_SWEEPS), when(j, bin(j, NG_OP_NE, NG_BOOL, ref(j, v->rotated), zero),
                                                              blk(j, 2, sweep))),
        when(j, bin(j, NG_OP_NE, NG_BOOL, ref(j, v->rotated), zero),
             ng_ir_store(k, flag, 1, fidx, ng_ir_const_i(k, NG_INT32, 3))),
    };
    return blk(j, 3, s);
}

/* After the scan: flag 1 for a NaN, 2 for an infinity (and no NaN). */
static NgIrRef flag_bad(const Jb *j, const JVars *v, int flag)
{
    NgIrKernel *k = j->k;
    NgIrRef fidx[1] = {j->b};
    NgIrRef isinf = bin(j, NG_OP_EQ, NG_BOOL, ref(j, v->amax), R(j, INFINITY));
    NgIrRef code = ng_ir_select(k, bin(j, NG_OP_NE, NG_BOOL, ref(j, v->nan), ng_ir_const_i(k, NG_INT32, 0)),
                                ng_ir_const_i(k, NG_INT32, 1), ng_ir_const_i(k, NG_INT32, 2));
    NgIrRef s[2] = {ng_ir_store(k, flag, 1, fidx, ng_ir_const_i(k, NG_INT32, 0)),
                    when(j, bin(j, NG_OP_LOGOR, NG_BOOL,
                                bin(j, NG_OP_NE, NG_BOOL, ref(j, v->nan), ng_ir_const_i(k, NG_INT32, 0)), isinf),
                         ng_ir_store(k, flag, 1, fidx, code))};
    return blk(j, 2, s);
}

static NgIrRef bad_input(const Jb *j, const JVars *v)
{
    NgIrRef isinf = bin(j, NG_OP_EQ, NG_BOOL, ref(j, v->amax), R(j, INFINITY));
    return bin(j, NG_OP_LOGOR, NG_BOOL, bin(j, NG_OP_NE, NG_BOOL, ref(j, v->nan), ng_ir_const_i(j->k, NG_INT32, 0)),
               isinf);
}

/* ---- eigh: A (B, n, n), W (B, n), [V (B, n, n)], flag (B) ---- */

static NgIrRef build_eigh(NgIrKernel *k, const JacKey *key)
{
    Jb jb = {k, (NgDType)key->dtype, ng_dtype_real((NgDType)key->dtype), ng_dtype_is_complex((NgDType)key->dtype), 0};
    Jb *j = &jb;
    NgDType dt = j->dt, rt = j->rt;
    int a = ng_ir_param_array(k, dt, 3, true, true);
    int w = ng_ir_param_array(k, rt, 2, true, true);
    int vp = key->vectors ? ng_ir_param_array(k, dt, 3, true, true) : -1;
    int flag = ng_ir_param_array(k, NG_INT32, 1, true, true);
    int vb = ng_ir_var(k, NG_INT64);
    j->b = ng_ir_varref(k, vb);
    NgIrRef lets[40];
    JVars v;
    int nl = declare(j, &v, lets);
    Mat A = {a, false}, V = {vp, false};
    NgIrRef n = ng_ir_shape(k, a, 1), i = ref(j, v.i), kk = ref(j, v.k), p = ref(j, v.p), q = ref(j, v.q);
    NgIrRef zero_dt = ng_ir_const_f(k, dt, 0);

    /* the Hermitian matrix from one triangle (a real diagonal), its largest |element| */
    NgIrRef x = ref(j, v.x);
    NgIrRef src = key->upper ? conj_of(j, get(j, A, kk, i)) : get(j, A, i, kk);
    NgIrRef herm[4] = {
        set(j, v.x, src),
        when(j, bin(j, NG_OP_EQ, NG_BOOL, i, kk), set(j, v.x, to_dt(j, ng_ir_cast(k, rt, x)))),
        put(j, A, i, kk, x),
        put(j, A, kk, i, conj_of(j, x)),
    };
    NgIrRef scan[2] = {blk(j, 4, herm), scan_elem(j, x, v.v, v.nan, v.amax)};
    NgIrRef symmetrize = loop(j, v.i, I(k, 0), n, loop(j, v.k, I(k, 0), bin(j, NG_OP_ADD, NG_INT64, i, I(k, 1)),
                                                       blk(j, 2, scan)));

    /* the rotation of pair (p, q) */
    NgIrRef app = ng_ir_cast(k, rt, get(j, A, p, p)), aqq = ng_ir_cast(k, rt, get(j, A, q, q));
    NgIrRef g = ref(j, v.g), t = ref(j, v.t);
    NgIrRef thr = bin(j, NG_OP_MUL, rt, tolerance(j, n),
                      bin(j, NG_OP_MUL, rt, ng_ir_unary(k, NG_OP_SQRT, rt, ng_ir_unary(k, NG_OP_ABS, rt, app)),
                          ng_ir_unary(k, NG_OP_SQRT, rt, ng_ir_unary(k, NG_OP_ABS, rt, aqq))));
    NgIrRef go = bin(j, NG_OP_LOGAND, NG_BOOL, bin(j, NG_OP_GT, NG_BOOL, g, thr),
                     bin(j, NG_OP_GT, NG_BOOL, g, R(j, tiny_of(rt))));
    NgIrRef zeta = bin(j, NG_OP_TRUEDIV, rt, bin(j, NG_OP_SUB, rt, aqq, app), bin(j, NG_OP_MUL, rt, R(j, 2), g));
    NgIrRef tg = bin(j, NG_OP_MUL, rt, t, g);
    NgIrRef rot[10];
    int nr = 0;
    rot[nr++] = set(j, v.ph, bin(j, NG_OP_TRUEDIV, dt, get(j, A, p, q), to_dt(j, g)));
    rot[nr++] = set(j, v.al, app);
    rot[nr++] = set(j, v.be, aqq);
    rot[nr++] = rotation(j, zeta, v.t, v.c, v.s, v.ph, v.cc);
    rot[nr++] = rotate_hermitian(j, A, p, q, n, v.cc, v.r, v.x, v.y);
    NgIrRef fix[5] = {
        put(j, A, p, p, to_dt(j, bin(j, NG_OP_SUB, rt, ref(j, v.al), tg))),
        put(j, A, q, q, to_dt(j, bin(j, NG_OP_ADD, rt, ref(j, v.be), tg))),
        put(j, A, p, q, zero_dt),
        put(j, A, q, p, zero_dt),
        set(j, v.rotated, ng_ir_const_i(k, NG_INT32, 1)),
    };
    rot[nr++] = blk(j, 5, fix);
    if (key->vectors)
        rot[nr++] = rotate(j, V, false, p, q, n, v.cc, v.r, v.x, v.y);
    NgIrRef pair[2] = {set(j, v.g, ng_ir_unary(k, NG_OP_ABS, rt, get(j, A, p, q))), when(j, go, blk(j, nr, rot))};

    /* eigenvalues (scaled back), sorted ascending with their vectors */
    NgIrRef widx_i[2] = {j->b, i}, widx_k[2] = {j->b, kk}, widx_b[2] = {j->b, ref(j, v.best)};
    NgIrRef wi = ng_ir_load(k, w, 2, widx_i), wk = ng_ir_load(k, w, 2, widx_k), wb = ng_ir_load(k, w, 2, widx_b);
    NgIrRef amax1 = ng_ir_select(k, bin(j, NG_OP_GT, NG_BOOL, ref(j, v.amax), R(j, 0)), ref(j, v.amax), R(j, 1));
    NgIrRef wval = bin(j, NG_OP_MUL, rt, ng_ir_cast(k, rt, get(j, A, i, i)), amax1);
    NgIrRef store_w = loop(j, v.i, I(k, 0), n, ng_ir_store(k, w, 2, widx_i, wval));
    NgIrRef swap_w[3] = {set(j, v.v, wi), ng_ir_store(k, w, 2, widx_i, wb), ng_ir_store(k, w, 2, widx_b, ref(j, v.v))};
    NgIrRef pick[3] = {
        set(j, v.best, i),
        loop(j, v.k, bin(j, NG_OP_ADD, NG_INT64, i, I(k, 1)), n,
             when(j, bin(j, NG_OP_LT, NG_BOOL, wk, wb), set(j, v.best, kk))),
        when(j, bin(j, NG_OP_NE, NG_BOOL, ref(j, v.best), i),
             key->vectors ? blk(j, 2, (NgIrRef[]){blk(j, 3, swap_w), swap_cols(j, V, i, ref(j, v.best), n, v.r, v.tmp)})
                          : blk(j, 3, swap_w)),
    };
    NgIrRef sort = loop(j, v.i, I(k, 0), n, blk(j, 3, pick));

    NgIrRef one_at = to_dt(j, ng_ir_select(k, bin(j, NG_OP_EQ, NG_BOOL, i, kk), R(j, 1), R(j, 0)));
    NgIrRef eye = key->vectors ? loop(j, v.i, I(k, 0), n, loop(j, v.k, I(k, 0), n, put(j, V, i, kk, one_at)))
                               : NG_IR_NONE; /* (V's param exists only with vectors) */
    NgIrRef good[5] = {scale_down(j, &v, A, n, n), key->vectors ? eye : NG_IR_NONE,
                       sweeps(j, &v, n, blk(j, 2, pair), flag), store_w, sort};
    NgIrRef bad[2] = {nan_row(j, w, n, v.i), key->vectors ? nan_mat(j, V, n, n, v.i, v.k) : NG_IR_NONE};
    NgIrRef good_b = key->vectors ? blk(j, 5, good) : blk(j, 4, (NgIrRef[]){good[0], good[2], good[3], good[4]});
    lets[nl++] = symmetrize;
    lets[nl++] = flag_bad(j, &v, flag);
    lets[nl++] = ng_ir_if(k, bad_input(j, &v), key->vectors ? blk(j, 2, bad) : bad[0], good_b);
    return ng_ir_for(k, vb, I(k, 0), ng_ir_shape(k, a, 0), I(k, 1), blk(j, nl, lets), NG_IR_PARALLEL);
}

/* ---- svd: A (B, m, n), S (B, k), [U, Vh], flag (B) ----
 * The work matrix W (rows x cols, rows >= cols) is A, or A^H (wide). W = L diag(s) Rh with L the
 * left vectors (rows x kl) and R (cols x cols): tall, U = L and Vh = R^H; wide, U = R and Vh = L^H. */

static NgIrRef build_svd(NgIrKernel *k, const JacKey *key)
{
    Jb jb = {k, (NgDType)key->dtype, ng_dtype_real((NgDType)key->dtype), ng_dtype_is_complex((NgDType)key->dtype), 0};
    Jb *j = &jb;
    NgDType dt = j->dt, rt = j->rt;
    bool vec = key->vectors, wide = key->wide;
    int a = ng_ir_param_array(k, dt, 3, true, true);
    int sp = ng_ir_param_array(k, rt, 2, true, true);
    int up = vec ? ng_ir_param_array(k, dt, 3, true, true) : -1;
    int vhp = vec ? ng_ir_param_array(k, dt, 3, true, true) : -1;
    int flag = ng_ir_param_array(k, NG_INT32, 1, true, true);
    int vb = ng_ir_var(k, NG_INT64);
    j->b = ng_ir_varref(k, vb);
    NgIrRef lets[48];
    JVars v;
    int nl = declare(j, &v, lets);
    Mat W = {a, wide};
    Mat L = wide ? (Mat){vhp, true} : (Mat){up, false};
    Mat Rm = wide ? (Mat){up, false} : (Mat){vhp, true};
    NgIrRef rows = ng_ir_shape(k, a, wide ? 2 : 1), cols = ng_ir_shape(k, a, wide ? 1 : 2);
    NgIrRef kl = vec ? (wide ? ng_ir_shape(k, vhp, 1) : ng_ir_shape(k, up, 2)) : cols;
    NgIrRef i = ref(j, v.i), kk = ref(j, v.k), p = ref(j, v.p), q = ref(j, v.q), r = ref(j, v.r);
    NgIrRef zero_dt = ng_ir_const_f(k, dt, 0), one32 = ng_ir_const_i(k, NG_INT32, 1);

    NgIrRef scan = loop(j, v.i, I(k, 0), rows, loop(j, v.k, I(k, 0), cols,
                                                    scan_elem(j, get(j, W, i, kk), v.v, v.nan, v.amax)));

    /* the rotation of column pair (p, q) */
    NgIrRef al = ref(j, v.al), be = ref(j, v.be), g = ref(j, v.g);
    NgIrRef prods[3] = {
        set(j, v.al, bin(j, NG_OP_ADD, rt, al, abs2(j, get(j, W, r, p)))),
        set(j, v.be, bin(j, NG_OP_ADD, rt, be, abs2(j, get(j, W, r, q)))),
        set(j, v.dot, bin(j, NG_OP_ADD, dt, ref(j, v.dot), bin(j, NG_OP_MUL, dt, conj_of(j, get(j, W, r, p)),
                                                              get(j, W, r, q)))),
    };
    NgIrRef thr = bin(j, NG_OP_MUL, rt, tolerance(j, rows),
                      bin(j, NG_OP_MUL, rt, ng_ir_unary(k, NG_OP_SQRT, rt, al), ng_ir_unary(k, NG_OP_SQRT, rt, be)));
    /* (a column of squared norm below tiny, relative to the largest element, counts as 0: one
     * parallel to another would otherwise only shrink by eps a sweep, down into denormals) */
    NgIrRef go = bin(j, NG_OP_LOGAND, NG_BOOL, bin(j, NG_OP_GT, NG_BOOL, g, thr),
                     bin(j, NG_OP_GT, NG_BOOL, bin(j, NG_OP_MINIMUM, rt, al, be), R(j, tiny_of(rt))));
    NgIrRef zeta = bin(j, NG_OP_TRUEDIV, rt, bin(j, NG_OP_SUB, rt, be, al), bin(j, NG_OP_MUL, rt, R(j, 2), g));
    NgIrRef rot[5];
    int nr = 0;
    rot[nr++] = set(j, v.ph, bin(j, NG_OP_TRUEDIV, dt, ref(j, v.dot), to_dt(j, g)));
    rot[nr++] = rotation(j, zeta, v.t, v.c, v.s, v.ph, v.cc);
    rot[nr++] = rotate(j, W, false, p, q, rows, v.cc, v.r, v.x, v.y);
    rot[nr++] = set(j, v.rotated, one32);
    if (vec)
        rot[nr++] = rotate(j, Rm, false, p, q, cols, v.cc, v.r, v.x, v.y);
    NgIrRef pair[6] = {
        set(j, v.al, R(j, 0)), set(j, v.be, R(j, 0)), set(j, v.dot, zero_dt),
        loop(j, v.r, I(k, 0), rows, blk(j, 3, prods)),
        set(j, v.g, ng_ir_unary(k, NG_OP_ABS, rt, ref(j, v.dot))),
        when(j, go, blk(j, nr, rot)),
    };

    /* singular values: the column norms, sorted descending with the columns of W and R */
    NgIrRef sidx_i[2] = {j->b, i}, sidx_k[2] = {j->b, kk}, sidx_b[2] = {j->b, ref(j, v.best)};
    NgIrRef si = ng_ir_load(k, sp, 2, sidx_i), sk = ng_ir_load(k, sp, 2, sidx_k), sb = ng_ir_load(k, sp, 2, sidx_b);
    NgIrRef norms[3] = {
        set(j, v.al, R(j, 0)),
        loop(j, v.r, I(k, 0), rows, set(j, v.al, bin(j, NG_OP_ADD, rt, al, abs2(j, get(j, W, r, i))))),
        ng_ir_store(k, sp, 2, sidx_i, ng_ir_unary(k, NG_OP_SQRT, rt, al)),
    };
    NgIrRef swap_s[3] = {set(j, v.v, si), ng_ir_store(k, sp, 2, sidx_i, sb), ng_ir_store(k, sp, 2, sidx_b, ref(j, v.v))};
    NgIrRef swaps[3] = {blk(j, 3, swap_s), swap_cols(j, W, i, ref(j, v.best), rows, v.r, v.tmp),
                        vec ? swap_cols(j, Rm, i, ref(j, v.best), cols, v.r, v.tmp) : NG_IR_NONE};
    NgIrRef pick[3] = {
        set(j, v.best, i),
        loop(j, v.k, bin(j, NG_OP_ADD, NG_INT64, i, I(k, 1)), cols,
             when(j, bin(j, NG_OP_GT, NG_BOOL, sk, sb), set(j, v.best, kk))),
        when(j, bin(j, NG_OP_NE, NG_BOOL, ref(j, v.best), i), blk(j, vec ? 3 : 2, swaps)),
    };
    NgIrRef amax1 = ng_ir_select(k, bin(j, NG_OP_GT, NG_BOOL, ref(j, v.amax), R(j, 0)), ref(j, v.amax), R(j, 1));

    NgIrRef write_l = NG_IR_NONE, complete = NG_IR_NONE, eye = NG_IR_NONE; /* (L's, R's params: vectors only) */
    if (vec) {
        /* L: the normalised columns (zero where s_j is 0, and past cols), then those completed */
        /* (the select's operands are both evaluated: s is read at a clamped column) */
        NgIrRef kc = ng_ir_select(k, bin(j, NG_OP_LT, NG_BOOL, kk, cols), kk, I(k, 0));
        NgIrRef sidx_kc[2] = {j->b, kc};
        NgIrRef skc = ng_ir_load(k, sp, 2, sidx_kc);
        NgIrRef has_c = bin(j, NG_OP_LOGAND, NG_BOOL, bin(j, NG_OP_LT, NG_BOOL, kk, cols),
                            bin(j, NG_OP_GT, NG_BOOL, skc, R(j, sqrt(tiny_of(rt)))));
        NgIrRef lval_c = ng_ir_select(k, has_c, bin(j, NG_OP_TRUEDIV, dt, get(j, W, i, kc), to_dt(j, skc)), zero_dt);
        write_l = loop(j, v.k, I(k, 0), kl, loop(j, v.i, I(k, 0), rows, put(j, L, i, kk, lval_c)));
        /* completing column kk: for unit vectors e_p in turn until one keeps more than 1 / (2 rows) of
         * its squared length: column kk = e_p, minus its projections on the other columns, twice,
         * normalised */
        NgIrRef lq = get(j, L, r, q);
        NgIrRef proj_dot = set(j, v.dot, bin(j, NG_OP_ADD, dt, ref(j, v.dot),
                                             bin(j, NG_OP_MUL, dt, conj_of(j, lq), get(j, L, r, kk))));
        NgIrRef proj_sub = put(j, L, r, kk, bin(j, NG_OP_SUB, dt, get(j, L, r, kk),
                                                bin(j, NG_OP_MUL, dt, ref(j, v.dot), lq)));
        NgIrRef proj_one[2] = {set(j, v.dot, zero_dt), loop(j, v.r, I(k, 0), rows, proj_dot)};
        NgIrRef proj_body[2] = {blk(j, 2, proj_one), loop(j, v.r, I(k, 0), rows, proj_sub)};
        NgIrRef project = loop(j, v.q, I(k, 0), kl, when(j, bin(j, NG_OP_NE, NG_BOOL, q, kk), blk(j, 2, proj_body)));
        NgIrRef nrm2[2] = {set(j, v.al, R(j, 0)),
                           loop(j, v.r, I(k, 0), rows, set(j, v.al, bin(j, NG_OP_ADD, rt, al, abs2(j, get(j, L, r, kk)))))};
        NgIrRef accept[2] = {
            loop(j, v.r, I(k, 0), rows, put(j, L, r, kk, bin(j, NG_OP_TRUEDIV, dt, get(j, L, r, kk),
                                                              to_dt(j, ng_ir_unary(k, NG_OP_SQRT, rt, al))))),
            set(j, v.nan, ng_ir_const_i(k, NG_INT32, 0)),
        };
        NgIrRef half = bin(j, NG_OP_TRUEDIV, rt, R(j, 0.5), ng_ir_cast(k, rt, rows));
        NgIrRef try_e[5] = {
            loop(j, v.r, I(k, 0), rows, put(j, L, r, kk, to_dt(j, ng_ir_select(k, bin(j, NG_OP_EQ, NG_BOOL, r, p),
                                                                               R(j, 1), R(j, 0))))),
            project, project, blk(j, 2, nrm2),
            ng_ir_if(k, bin(j, NG_OP_GT, NG_BOOL, al, half), blk(j, 2, accept),
                     loop(j, v.r, I(k, 0), rows, put(j, L, r, kk, zero_dt))),
        };
        /* (nan is free by now: 1 while column kk still wants a vector) */
        NgIrRef complete_col[2] = {
            set(j, v.nan, one32),
            loop(j, v.p, I(k, 0), rows, when(j, bin(j, NG_OP_NE, NG_BOOL, ref(j, v.nan), ng_ir_const_i(k, NG_INT32, 0)),
                                             blk(j, 5, try_e))),
        };
        NgIrRef wants = bin(j, NG_OP_EQ, NG_BOOL, ng_ir_cast(k, NG_INT32, has_c), ng_ir_const_i(k, NG_INT32, 0));
        complete = loop(j, v.k, I(k, 0), kl, when(j, wants, blk(j, 2, complete_col)));

        NgIrRef one_at = to_dt(j, ng_ir_select(k, bin(j, NG_OP_EQ, NG_BOOL, i, kk), R(j, 1), R(j, 0)));
        eye = loop(j, v.i, I(k, 0), cols, loop(j, v.k, I(k, 0), cols, put(j, Rm, i, kk, one_at)));
    }
    NgIrRef good[8];
    int ng = 0;
    good[ng++] = scale_down(j, &v, W, rows, cols);
    if (vec)
        good[ng++] = eye;
    good[ng++] = sweeps(j, &v, cols, blk(j, 6, pair), flag);
    good[ng++] = loop(j, v.i, I(k, 0), cols, blk(j, 3, norms));
    good[ng++] = loop(j, v.i, I(k, 0), cols, blk(j, 3, pick));
    if (vec) {
        good[ng++] = write_l;
        good[ng++] = complete;
    }
    good[ng++] = loop(j, v.i, I(k, 0), cols, ng_ir_store(k, sp, 2, sidx_i, bin(j, NG_OP_MUL, rt, si, amax1)));
    NgIrRef bad[3] = {nan_row(j, sp, cols, v.i), NG_IR_NONE, NG_IR_NONE};
    if (vec) {
        bad[1] = nan_mat(j, L, rows, kl, v.i, v.k);
        bad[2] = nan_mat(j, Rm, cols, cols, v.i, v.k);
    }
    lets[nl++] = scan;
    lets[nl++] = flag_bad(j, &v, flag);
    lets[nl++] = ng_ir_if(k, bad_input(j, &v), blk(j, vec ? 3 : 1, bad), blk(j, ng, good));
    return ng_ir_for(k, vb, I(k, 0), ng_ir_shape(k, a, 0), I(k, 1), blk(j, nl, lets), NG_IR_PARALLEL);
}

static NgStatus build_jacobi(const void *ctx, NgIrKernel *k)
{
    const JacKey *key = ctx;
    k->body = key->svd ? build_svd(k, key) : build_eigh(k, key);
    return k->status;
}

static NgStatus launch(const JacKey *key, int narr, const NgArray *const *arrs, int64_t work)
{
    int64_t nb = arrs[0]->shape[0];
    if (nb <= 0)
        return NG_OK;
    NgDevice *dev = ng_array_device(arrs[0]);
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, key, sizeof *key, build_jacobi, key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[5 * (2 + 2 * 3)];
    int n = 0;
    for (int i = 0; i < narr; i++)
        ng_kargs_array_as_is(args, &n, arrs[i]);
    return ng_kernel_launch(kern, args, n, nb, work);
}

bool ng_jacobi_takes(NgDType dt, int64_t m, int64_t n)
{
    int64_t lo = m < n ? m : n, hi = m < n ? n : m;
    return (dt == NG_FLOAT32 || dt == NG_FLOAT64 || dt == NG_COMPLEX64 || dt == NG_COMPLEX128) &&
           lo * lo * hi <= JACOBI_MAX_WORK;
}

NgStatus ng_jacobi_eigh(NgArray *a, bool upper, NgArray *w, NgArray *v, NgArray *flag)
{
    JacKey key = {'J', 0, (int8_t)a->dtype, (uint8_t)(v != NULL), (uint8_t)upper, 0, 0};
    const NgArray *arrs[4] = {a, w, v ? v : flag, flag};
    int64_t n = a->shape[1];
    return launch(&key, v ? 4 : 3, arrs, a->shape[0] * n * n * n * 8 + 1);
}

NgStatus ng_jacobi_svd(NgArray *a, bool full, NgArray *s, NgArray *u, NgArray *vh, NgArray *flag)
{
    int64_t m = a->shape[1], n = a->shape[2];
    JacKey key = {'J', 1, (int8_t)a->dtype, (uint8_t)(u != NULL), 0, (uint8_t)(m < n), (uint8_t)full};
    const NgArray *arrs[5] = {a, s, u ? u : flag, vh ? vh : flag, flag};
    int64_t lo = m < n ? m : n, hi = m < n ? n : m;
    return launch(&key, u ? 5 : 3, arrs, a->shape[0] * lo * lo * hi * 8 + 1);
}
