/* Sorting: sort and argsort along an axis (stable, NaNs last, as NumPy).
 *
 * The sort axis is moved last into a fresh C-contiguous (rows, n) copy and
 * every row is sorted in passes, each one parallel kernel. Indices (argsort)
 * travel with the keys; equal keys keep their original order everywhere.
 *
 * GPU targets (no cross-thread cooperation needed, no atomics):
 *   1. block sort: one thread insertion-sorts each block of 16 (argsort
 *      first fills the indices 0..n-1 here);
 *   2. merge passes, run width w = 16, 32, 64, ...: one thread per element;
 *      its place in the merged pair of runs is its rank in its own run plus
 *      its rank in the partner run, found by binary search (left elements
 *      count the partner's strictly smaller keys, right ones the smaller or
 *      equal ones, which keeps the merge stable). Ping-pong buffers.
 * cpu (OpenMP):
 *   1. segment sort: one thread sorts a whole row (when there are at least
 *      8 rows) or a 4096-element segment, in cache: insertion sort of
 *      blocks of 32, then merge passes inside the segment;
 *   2. merge passes over segments: one thread per pair of runs runs the
 *      two-finger merge; once fewer than 16 pairs are left, each pair's
 *      output is cut into chunks whose starting points in both runs are
 *      found by binary search (the merge path), so every thread works. */
#include <string.h>

#include "ops/sort_internal.h"

enum { K_BLOCK, K_SEGMENT, K_MERGE_ELEM, K_MERGE_PAIR, K_MERGE_PATH };

typedef struct SortKey {
    uint8_t tag;      /* 'S' */
    uint8_t kind;     /* K_* */
    int8_t dt;        /* key dtype */
    uint8_t idx;      /* indices travel with the keys */
    uint8_t init_idx; /* block sort: fill indices 0..n-1 first */
} SortKey;

/* NumPy's complex order (npysort's CFLOAT_LT): by real part, then imaginary
 * part, NaNs last, in the order R + Rj < R + nanj < nan + Rj < nan + nanj
 * (values with a NaN imaginary part are ordered by their real part, those
 * with a NaN real part by their imaginary part). Bitwise on 0/1 values: the
 * four cases (a.re < b.re, a.re > b.re, equal or both NaN, one NaN) exclude
 * each other. */
static NgIrRef complex_less(NgIrKernel *k, NgDType dt, NgIrRef a, NgIrRef b)
{
    NgDType rt = ng_dtype_real(dt);
    NgIrRef ar = ng_ir_cast(k, rt, a), ai = ng_ir_imag(k, a), br = ng_ir_cast(k, rt, b), bi = ng_ir_imag(k, b);
    NgIrRef nar = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, ar), nbr = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, br);
    NgIrRef ai_ok = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, ai));
    NgIrRef nbi = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, bi);
    NgIrRef lt = sx_cmp(k, NG_OP_LT, ar, br), gt = sx_cmp(k, NG_OP_GT, ar, br);
    NgIrRef same = sx_cmp(k, NG_OP_BITOR, sx_cmp(k, NG_OP_EQ, ar, br), sx_cmp(k, NG_OP_BITAND, nar, nbr));
    NgIrRef other = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, sx_cmp(k, NG_OP_BITOR, sx_cmp(k, NG_OP_BITOR, lt, gt), same));
    NgIrRef nan_b_only = sx_cmp(k, NG_OP_BITAND, nbi, ai_ok); /* b's imaginary part NaN, a's not */
    NgIrRef r = sx_cmp(k, NG_OP_BITAND, lt, sx_cmp(k, NG_OP_BITOR, ai_ok, nbi));
    r = sx_cmp(k, NG_OP_BITOR, r, sx_cmp(k, NG_OP_BITAND, gt, nan_b_only));
    r = sx_cmp(k, NG_OP_BITOR, r, sx_cmp(k, NG_OP_BITAND, same, sx_cmp(k, NG_OP_BITOR, sx_cmp(k, NG_OP_LT, ai, bi), nan_b_only)));
    return sx_cmp(k, NG_OP_BITOR, r, sx_cmp(k, NG_OP_BITAND, other, nbr));
}

NgIrRef ng_sort_less(NgIrKernel *k, NgDType dt, NgIrRef a, NgIrRef b)
{
    if (ng_dtype_is_complex(dt))
        return complex_less(k, dt, a, b);
    NgIrRef lt = sx_cmp(k, NG_OP_LT, a, b);
    if (!ng_dtype_is_float(dt))
        return lt;
    /* bitwise on 0/1 values, not && / ||: no branches in the merge loops */
    NgIrRef anan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, a), bnan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, b);
    return sx_cmp(k, NG_OP_BITOR, lt, sx_cmp(k, NG_OP_BITAND, bnan, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, anan)));
}

static NgIrRef let(NgIrKernel *k, int *var, NgDType dt, NgIrRef value)
{
    *var = ng_ir_var(k, dt);
    return ng_ir_let(k, *var, value);
}

/* Insertion sort of row R's elements [S, E) of K (and I along):
 * for i in S+1..E: x = K[R,i]; j = i; while j > S and x < K[R,j-1]: shift; K[R,j] = x */
static NgIrRef insertion(NgIrKernel *k, const SortKey *key, int K, int I, NgIrRef R, NgIrRef S, NgIrRef E)
{
    NgDType dt = (NgDType)key->dt;
    NgIrRef one = sx_i(k, 1);
    int i = ng_ir_var(k, NG_INT64), x, xi = -1, j;
    NgIrRef Iv = ng_ir_varref(k, i);
    NgIrRef body[5];
    int nbody = 0;
    body[nbody++] = let(k, &x, dt, sx_load2(k, K, R, Iv));
    if (key->idx)
        body[nbody++] = let(k, &xi, NG_INT64, sx_load2(k, I, R, Iv));
    body[nbody++] = let(k, &j, NG_INT64, Iv);
    NgIrRef J = ng_ir_varref(k, j), J1 = sx_op(k, NG_OP_SUB, J, one);
    NgIrRef shift[4];
    int ns = 0;
    shift[ns++] = ng_ir_if(k, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_sort_less(k, dt, ng_ir_varref(k, x), sx_load2(k, K, R, J1))),
                           ng_ir_jump(k, NG_IR_BREAK), NG_IR_NONE);
    shift[ns++] = sx_store2(k, K, R, J, sx_load2(k, K, R, J1));
    if (key->idx)
        shift[ns++] = sx_store2(k, I, R, J, sx_load2(k, I, R, J1));
    shift[ns++] = ng_ir_assign(k, j, J1);
    body[nbody++] = ng_ir_while(k, sx_cmp(k, NG_OP_GT, J, S), ng_ir_block(k, ns, shift));
    NgIrRef put[2] = {sx_store2(k, K, R, J, ng_ir_varref(k, x)),
                      key->idx ? sx_store2(k, I, R, J, ng_ir_varref(k, xi)) : NG_IR_NONE};
    body[nbody++] = ng_ir_block(k, key->idx ? 2 : 1, put);
    return sx_for(k, i, sx_op(k, NG_OP_ADD, S, one), E, ng_ir_block(k, nbody, body), 0);
}

/* Sequential two-finger merge of row R's runs [Base, Mid) and [Mid, End)
 * of K (I) into the same positions of O (OI), equal keys left first:
 * outputs [O0, O1), starting from left position I0 and right position J0. */
static NgIrRef merge_part(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef R, NgIrRef I0,
                          NgIrRef Mid, NgIrRef J0, NgIrRef End, NgIrRef O0, NgIrRef O1)
{
    NgDType dt = (NgDType)key->dt;
    NgIrRef one = sx_i(k, 1);
    int i, j, o = ng_ir_var(k, NG_INT64);
    NgIrRef s[3];
    s[0] = let(k, &i, NG_INT64, I0);
    s[1] = let(k, &j, NG_INT64, J0);
    NgIrRef Iv = ng_ir_varref(k, i), J = ng_ir_varref(k, j), Ov = ng_ir_varref(k, o);
    /* take the left element unless the right run is exhausted... or its head is smaller */
    NgIrRef take_left = sx_cmp(k, NG_OP_LOGOR, sx_cmp(k, NG_OP_GE, J, End),
                               sx_cmp(k, NG_OP_LOGAND, sx_cmp(k, NG_OP_LT, Iv, Mid),
                                      ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL,
                                                  ng_sort_less(k, dt, sx_load2(k, K, R, J), sx_load2(k, K, R, Iv)))));
    NgIrRef tl[3], tr[3];
    int nl = 0, nr = 0;
    tl[nl++] = sx_store2(k, O, R, Ov, sx_load2(k, K, R, Iv));
    tr[nr++] = sx_store2(k, O, R, Ov, sx_load2(k, K, R, J));
    if (key->idx) {
        tl[nl++] = sx_store2(k, OI, R, Ov, sx_load2(k, I, R, Iv));
        tr[nr++] = sx_store2(k, OI, R, Ov, sx_load2(k, I, R, J));
    }
    tl[nl++] = ng_ir_assign(k, i, sx_op(k, NG_OP_ADD, Iv, one));
    tr[nr++] = ng_ir_assign(k, j, sx_op(k, NG_OP_ADD, J, one));
    s[2] = sx_for(k, o, O0, O1, ng_ir_if(k, take_left, ng_ir_block(k, nl, tl), ng_ir_block(k, nr, tr)), 0);
    return ng_ir_block(k, 3, s);
}

/* The whole merge of [Base, Mid) and [Mid, End). */
static NgIrRef merge(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef R, NgIrRef Base,
                     NgIrRef Mid, NgIrRef End)
{
    return merge_part(k, key, K, I, O, OI, R, Base, Mid, Mid, End, Base, End);
}

/* One merge pass of width W over row R's [S, E): runs of W merged pairwise from K into O. */
static NgIrRef merge_pass(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef R, NgIrRef S,
                          NgIrRef E, NgIrRef W)
{
    int base = ng_ir_var(k, NG_INT64);
    NgIrRef Base = ng_ir_varref(k, base), W2 = sx_op(k, NG_OP_MUL, W, sx_i(k, 2));
    NgIrRef Mid = sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, W), E);
    NgIrRef End = sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, W2), E);
    return ng_ir_for(k, base, S, E, W2, merge(k, key, K, I, O, OI, R, Base, Mid, End), 0);
}

/* The block sort: thread t insertion-sorts block t % nb of row t / nb.
 * Parameters: keys (rows, n), [idx (rows, n)], B. */
static NgIrRef build_block(NgIrKernel *k, const SortKey *key, int K, int I, NgIrRef B)
{
    NgIrRef n = ng_ir_shape(k, K, 1), one = sx_i(k, 1);
    NgIrRef nb = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, B), one), B);
    int t = ng_ir_var(k, NG_INT64), r, s, e, jj;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef st[5];
    int ns = 0;
    st[ns++] = let(k, &r, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, nb));
    st[ns++] = let(k, &s, NG_INT64, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MOD, T, nb), B));
    NgIrRef R = ng_ir_varref(k, r), S = ng_ir_varref(k, s);
    st[ns++] = let(k, &e, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, S, B), n));
    NgIrRef E = ng_ir_varref(k, e);
    if (key->init_idx) {
        jj = ng_ir_var(k, NG_INT64);
        st[ns++] = sx_for(k, jj, S, E, sx_store2(k, I, R, ng_ir_varref(k, jj), ng_ir_varref(k, jj)), 0);
    }
    st[ns++] = insertion(k, key, K, I, R, S, E);
    return sx_for(k, t, sx_i(k, 0), sx_op(k, NG_OP_MUL, ng_ir_shape(k, K, 0), nb), ng_ir_block(k, ns, st),
                  NG_IR_PARALLEL);
}

/* The segment sort (cpu): thread t sorts segment t % ns (length L) of row
 * t / ns entirely: insertion sort of blocks of B, then merge passes inside
 * the segment, two per round (K -> tmp with width w, tmp -> K with 2w), so
 * the result is always back in K. A segment stays in cache throughout.
 * Parameters: keys, [idx], tk, [ti] (all (rows, n)), B, L. */
static NgIrRef build_segment(NgIrKernel *k, const SortKey *key, int K, int I, int TK, int TI, NgIrRef B, NgIrRef L)
{
    NgIrRef n = ng_ir_shape(k, K, 1), one = sx_i(k, 1);
    NgIrRef nseg = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, L), one), L);
    int t = ng_ir_var(k, NG_INT64), r, s, e, jj, bs, w;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef st[6];
    int ns = 0;
    st[ns++] = let(k, &r, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, nseg));
    st[ns++] = let(k, &s, NG_INT64, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MOD, T, nseg), L));
    NgIrRef R = ng_ir_varref(k, r), S = ng_ir_varref(k, s);
    st[ns++] = let(k, &e, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, S, L), n));
    NgIrRef E = ng_ir_varref(k, e);
    if (key->init_idx) {
        jj = ng_ir_var(k, NG_INT64);
        st[ns++] = sx_for(k, jj, S, E, sx_store2(k, I, R, ng_ir_varref(k, jj), ng_ir_varref(k, jj)), 0);
    }
    bs = ng_ir_var(k, NG_INT64);
    NgIrRef Bs = ng_ir_varref(k, bs);
    st[ns++] = ng_ir_for(k, bs, S, E, B, insertion(k, key, K, I, R, Bs, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Bs, B), E)), 0);
    w = ng_ir_var(k, NG_INT64);
    NgIrRef W = ng_ir_varref(k, w), len = sx_op(k, NG_OP_SUB, E, S);
    NgIrRef round[3] = {merge_pass(k, key, K, I, TK, TI, R, S, E, W),
                        merge_pass(k, key, TK, TI, K, I, R, S, E, sx_op(k, NG_OP_MUL, W, sx_i(k, 2))),
                        ng_ir_assign(k, w, sx_op(k, NG_OP_MUL, W, sx_i(k, 4)))};
    NgIrRef passes[2] = {ng_ir_let(k, w, B), ng_ir_while(k, sx_cmp(k, NG_OP_LT, W, len), ng_ir_block(k, 3, round))};
    st[ns++] = ng_ir_block(k, 2, passes);
    return sx_for(k, t, sx_i(k, 0), sx_op(k, NG_OP_MUL, ng_ir_shape(k, K, 0), nseg), ng_ir_block(k, ns, st),
                  NG_IR_PARALLEL);
}

/* One thread per element: its place is found by binary search in the
 * partner run. Parameters: src keys, [src idx], dst keys, [dst idx], w. */
static NgIrRef build_merge_elem(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef w)
{
    NgDType dt = (NgDType)key->dt;
    NgIrRef n = ng_ir_shape(k, K, 1), one = sx_i(k, 1), w2 = sx_op(k, NG_OP_MUL, w, sx_i(k, 2));
    int t = ng_ir_var(k, NG_INT64), r, i, base, mid, end, x, left, lo, hi, m, y;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef s[12];
    int ns = 0;
    s[ns++] = let(k, &r, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, n));
    s[ns++] = let(k, &i, NG_INT64, sx_op(k, NG_OP_MOD, T, n));
    NgIrRef R = ng_ir_varref(k, r), Iv = ng_ir_varref(k, i);
    s[ns++] = let(k, &base, NG_INT64, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_FLOORDIV, Iv, w2), w2));
    NgIrRef Base = ng_ir_varref(k, base);
    s[ns++] = let(k, &mid, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w), n));
    s[ns++] = let(k, &end, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w2), n));
    NgIrRef Mid = ng_ir_varref(k, mid), End = ng_ir_varref(k, end);
    s[ns++] = let(k, &x, dt, sx_load2(k, K, R, Iv));
    s[ns++] = let(k, &left, NG_BOOL, sx_cmp(k, NG_OP_LT, Iv, Mid));
    NgIrRef Left = ng_ir_varref(k, left), X = ng_ir_varref(k, x);
    s[ns++] = let(k, &lo, NG_INT64, ng_ir_select(k, Left, Mid, Base));
    s[ns++] = let(k, &hi, NG_INT64, ng_ir_select(k, Left, End, Mid));
    NgIrRef Lo = ng_ir_varref(k, lo), Hi = ng_ir_varref(k, hi);
    /* left elements: count partner keys < x; right ones: partner keys <= x */
    NgIrRef step[3];
    step[0] = let(k, &m, NG_INT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_INT64, sx_op(k, NG_OP_ADD, Lo, Hi), one));
    NgIrRef M = ng_ir_varref(k, m);
    step[1] = let(k, &y, dt, sx_load2(k, K, R, M));
    NgIrRef Y = ng_ir_varref(k, y);
    NgIrRef go_right = ng_ir_select(k, Left, ng_sort_less(k, dt, Y, X),
                                    ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_sort_less(k, dt, X, Y)));
    step[2] = ng_ir_if(k, go_right, ng_ir_assign(k, lo, sx_op(k, NG_OP_ADD, M, one)), ng_ir_assign(k, hi, M));
    s[ns++] = ng_ir_while(k, sx_cmp(k, NG_OP_LT, Lo, Hi), ng_ir_block(k, 3, step));
    NgIrRef pos = sx_op(k, NG_OP_ADD, sx_op(k, NG_OP_SUB, Iv, Mid), Lo);
    s[ns++] = sx_store2(k, O, R, pos, X);
    if (key->idx)
        s[ns++] = sx_store2(k, OI, R, pos, sx_load2(k, I, R, Iv));
    NgIrRef total = sx_op(k, NG_OP_MUL, ng_ir_shape(k, K, 0), n);
    return sx_for(k, t, sx_i(k, 0), total, ng_ir_block(k, ns, s), NG_IR_PARALLEL);
}

/* One thread per pair of runs: the sequential merge. Same parameters. */
static NgIrRef build_merge_pair(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef w)
{
    NgIrRef n = ng_ir_shape(k, K, 1), one = sx_i(k, 1), w2 = sx_op(k, NG_OP_MUL, w, sx_i(k, 2));
    NgIrRef np = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, w2), one), w2);
    int t = ng_ir_var(k, NG_INT64), r, base, mid, end;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef s[5];
    s[0] = let(k, &r, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, np));
    s[1] = let(k, &base, NG_INT64, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MOD, T, np), w2));
    NgIrRef R = ng_ir_varref(k, r), Base = ng_ir_varref(k, base);
    s[2] = let(k, &mid, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w), n));
    s[3] = let(k, &end, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w2), n));
    s[4] = merge(k, key, K, I, O, OI, R, Base, ng_ir_varref(k, mid), ng_ir_varref(k, end));
    return sx_for(k, t, sx_i(k, 0), sx_op(k, NG_OP_MUL, ng_ir_shape(k, K, 0), np), ng_ir_block(k, 5, s), NG_IR_PARALLEL);
}

/* Merge path (cpu passes with few run pairs left): every run pair's output
 * is cut into chunks of C; thread t finds where its chunk starts in each
 * run (the merge path's co-rank, by binary search: the first m left
 * elements whose last one is <= the right element before the cut... i.e.
 * the count of left elements among the first k outputs) and merges C
 * outputs sequentially, so even the last pass keeps every thread busy.
 * Parameters as the other merges, then w and C. */
static NgIrRef build_merge_path(NgIrKernel *k, const SortKey *key, int K, int I, int O, int OI, NgIrRef w,
                                NgIrRef C)
{
    NgDType dt = (NgDType)key->dt;
    NgIrRef n = ng_ir_shape(k, K, 1), one = sx_i(k, 1), zero = sx_i(k, 0), w2 = sx_op(k, NG_OP_MUL, w, sx_i(k, 2));
    NgIrRef np = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, w2), one), w2);
    NgIrRef nc = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, w2, C), one), C);
    int t = ng_ir_var(k, NG_INT64), r, p, base, mid, end, o0, kk, lo, hi, m;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef s[12], in[6];
    int ns = 0, ni = 0;
    s[ns++] = let(k, &r, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, sx_op(k, NG_OP_MUL, np, nc)));
    s[ns++] = let(k, &p, NG_INT64, sx_op(k, NG_OP_MOD, sx_op(k, NG_OP_FLOORDIV, T, nc), np));
    NgIrRef R = ng_ir_varref(k, r), P = ng_ir_varref(k, p);
    s[ns++] = let(k, &base, NG_INT64, sx_op(k, NG_OP_MUL, P, w2));
    NgIrRef Base = ng_ir_varref(k, base);
    s[ns++] = let(k, &mid, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w), n));
    s[ns++] = let(k, &end, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Base, w2), n));
    NgIrRef Mid = ng_ir_varref(k, mid), End = ng_ir_varref(k, end);
    s[ns++] = let(k, &o0, NG_INT64, sx_op(k, NG_OP_ADD, Base, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MOD, T, nc), C)));
    NgIrRef O0 = ng_ir_varref(k, o0);
    /* k outputs before the cut: lo..hi bound the left elements among them */
    in[ni++] = let(k, &kk, NG_INT64, sx_op(k, NG_OP_SUB, O0, Base));
    NgIrRef KK = ng_ir_varref(k, kk), lenL = sx_op(k, NG_OP_SUB, Mid, Base), lenR = sx_op(k, NG_OP_SUB, End, Mid);
    in[ni++] = let(k, &lo, NG_INT64, sx_op(k, NG_OP_MAXIMUM, zero, sx_op(k, NG_OP_SUB, KK, lenR)));
    in[ni++] = let(k, &hi, NG_INT64, sx_op(k, NG_OP_MINIMUM, KK, lenL));
    NgIrRef Lo = ng_ir_varref(k, lo), Hi = ng_ir_varref(k, hi);
    m = ng_ir_var(k, NG_INT64);
    NgIrRef M = ng_ir_varref(k, m);
    /* take more left elements while L[m] <= R[k-m-1] (left first on ties) */
    NgIrRef lm = sx_load2(k, K, R, sx_op(k, NG_OP_ADD, Base, M));
    NgIrRef rk = sx_load2(k, K, R, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, Mid, KK), sx_op(k, NG_OP_ADD, M, one)));
    NgIrRef step[2] = {ng_ir_let(k, m, ng_ir_binary(k, NG_OP_RSHIFT, NG_INT64, sx_op(k, NG_OP_ADD, Lo, Hi), one)),
                       ng_ir_if(k, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_sort_less(k, dt, rk, lm)),
                                ng_ir_assign(k, lo, sx_op(k, NG_OP_ADD, M, one)), ng_ir_assign(k, hi, M))};
    in[ni++] = ng_ir_while(k, sx_cmp(k, NG_OP_LT, Lo, Hi), ng_ir_block(k, 2, step));
    in[ni++] = merge_part(k, key, K, I, O, OI, R, sx_op(k, NG_OP_ADD, Base, Lo), Mid,
                          sx_op(k, NG_OP_ADD, Mid, sx_op(k, NG_OP_SUB, KK, Lo)), End, O0,
                          sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, O0, C), End));
    s[ns++] = ng_ir_if(k, sx_cmp(k, NG_OP_LT, O0, End), ng_ir_block(k, ni, in), NG_IR_NONE);
    NgIrRef total = sx_op(k, NG_OP_MUL, ng_ir_shape(k, K, 0), sx_op(k, NG_OP_MUL, np, nc));
    return sx_for(k, t, zero, total, ng_ir_block(k, ns, s), NG_IR_PARALLEL);
}

static NgStatus build_sort(const void *ctx, NgIrKernel *k)
{
    const SortKey *key = ctx;
    NgDType dt = (NgDType)key->dt;
    if (key->kind == K_BLOCK) {
        int K = ng_ir_param_array(k, dt, 2, true, true);
        int I = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, true) : -1;
        int B = ng_ir_param_scalar(k, NG_INT64);
        k->body = build_block(k, key, K, I, ng_ir_scalar(k, B));
        return k->status;
    }
    if (key->kind == K_SEGMENT) {
        int K = ng_ir_param_array(k, dt, 2, true, true);
        int I = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, true) : -1;
        int TK = ng_ir_param_array(k, dt, 2, true, true);
        int TI = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, true) : -1;
        NgIrRef B = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
        k->body = build_segment(k, key, K, I, TK, TI, B, ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)));
        return k->status;
    }
    int K = ng_ir_param_array(k, dt, 2, true, false);
    int I = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, false) : -1;
    int O = ng_ir_param_array(k, dt, 2, true, true);
    int OI = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, true) : -1;
    NgIrRef w = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    if (key->kind == K_MERGE_PATH)
        k->body = build_merge_path(k, key, K, I, O, OI, w, ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)));
    else
        k->body = key->kind == K_MERGE_ELEM ? build_merge_elem(k, key, K, I, O, OI, w)
                                            : build_merge_pair(k, key, K, I, O, OI, w);
    return k->status;
}

void ng_sort_kargs2(NgKArg *args, int *na, const NgArray *a, int64_t rows, int64_t n)
{
    int64_t shape[2] = {rows, n}, strides[2] = {n, 1};
    ng_kargs_array(args, na, a, 2, shape, strides);
}

void ng_sort_kargs1(NgKArg *args, int *na, const NgArray *a, int64_t n)
{
    int64_t one = 1;
    ng_kargs_array(args, na, a, 1, &n, &one);
}

static NgStatus launch_sort(NgDevice *dev, SortKey key, const NgArray *const *arrs, int narrs, int64_t rows,
                            int64_t n, const int64_t *scalars, int nscalars, int64_t extent)
{
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, &key, sizeof key, build_sort, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[4 * 6 + 2];
    int na = 0;
    for (int i = 0; i < narrs; i++)
        ng_sort_kargs2(args, &na, arrs[i], rows, n);
    for (int i = 0; i < nscalars; i++)
        args[na++].i = scalars[i];
    return ng_kernel_launch(kern, args, na, extent, rows * n);
}

/* Keys, then indices when present, of two buffer pairs in kernel order. */
static int pair_args(const NgArray **arrs, NgArray *k1, NgArray *i1, NgArray *k2, NgArray *i2)
{
    int n = 0;
    arrs[n++] = k1;
    if (i1)
        arrs[n++] = i1;
    if (k2)
        arrs[n++] = k2;
    if (i2)
        arrs[n++] = i2;
    return n;
}

NgStatus ng_sort_rows(NgArray *keys, NgArray *idx, bool init_idx, int64_t rows, int64_t n)
{
    if (rows == 0 || n == 0)
        return NG_OK;
    bool done;
    NgStatus st = ng_sort_radix(keys, idx, init_idx, rows, n, &done);
    if (st != NG_OK || done)
        return st;
    NgDevice *dev = ng_array_device(keys);
    bool host = dev->be->target->par == NG_PAR_OPENMP;
    int64_t B = host ? 32 : 16;
    SortKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'S';
    key.dt = (int8_t)keys->dtype;
    key.idx = idx != NULL;
    key.init_idx = init_idx && idx;
    const NgArray *arrs[4];
    if (n <= B) {
        key.kind = K_BLOCK;
        return launch_sort(dev, key, arrs, pair_args(arrs, keys, idx, NULL, NULL), rows, n, &B, 1, rows);
    }
    /* the second buffers have the keys' own shape: they may be handed back */
    NgArray tk = {0}, ti = {0};
    if ((st = ng_array_empty(dev, keys->dtype, keys->ndim, keys->shape, &tk)) != NG_OK)
        return st;
    if (idx && (st = ng_array_empty(dev, NG_INT64, idx->ndim, idx->shape, &ti)) != NG_OK) {
        ng_array_release(&tk);
        return st;
    }
    int64_t w;
    if (host) {
        /* cpu: whole rows per thread when there are enough rows to share,
         * else segments of 4096 (in cache), merged by the passes below */
        int64_t L = rows >= 8 ? n : 4096, sc[2] = {B, L};
        key.kind = K_SEGMENT;
        st = launch_sort(dev, key, arrs, pair_args(arrs, keys, idx, &tk, idx ? &ti : NULL), rows, n, sc, 2,
                         rows * ((n + L - 1) / L));
        w = L;
    } else {
        key.kind = K_BLOCK;
        st = launch_sort(dev, key, arrs, pair_args(arrs, keys, idx, NULL, NULL), rows, n, &B, 1, rows * ((n + B - 1) / B));
        w = B;
    }
    /* merge passes, ping-pong between (keys, idx) and (tk, ti) */
    NgArray *src_k = keys, *src_i = idx, *dst_k = &tk, *dst_i = idx ? &ti : NULL;
    key.init_idx = 0;
    for (; w < n && st == NG_OK; w *= 2) {
        int64_t pairs = rows * ((n + 2 * w - 1) / (2 * w));
        if (!host) {
            key.kind = K_MERGE_ELEM;
            st = launch_sort(dev, key, arrs, pair_args(arrs, src_k, src_i, dst_k, dst_i), rows, n, &w, 1, rows * n);
        } else if (pairs >= 16) {
            key.kind = K_MERGE_PAIR;
            st = launch_sort(dev, key, arrs, pair_args(arrs, src_k, src_i, dst_k, dst_i), rows, n, &w, 1, pairs);
        } else {
            /* few pairs: cut each pair's output into chunks so all threads work */
            int64_t C = (rows * n + 15) / 16, sc[2] = {w, 0};
            if (C < 4096)
                C = 4096;
            sc[1] = C;
            key.kind = K_MERGE_PATH;
            st = launch_sort(dev, key, arrs, pair_args(arrs, src_k, src_i, dst_k, dst_i), rows, n, sc, 2,
                             pairs * ((2 * w + C - 1) / C));
        }
        NgArray *t = src_k; src_k = dst_k; dst_k = t;
        t = src_i; src_i = dst_i; dst_i = t;
    }
    if (st == NG_OK && src_k != keys) { /* the result is in the second buffer: hand it over */
        NgArray t = *keys; *keys = tk; tk = t;
        if (idx) {
            t = *idx; *idx = ti; ti = t;
        }
    }
    ng_array_release(&tk);
    ng_array_release(&ti);
    return st;
}

NgStatus ng_sort_axis_last(const NgArray *a, int axis, bool force, NgArray *out, int64_t *rows, int64_t *n)
{
    int perm[NG_MAXDIMS], nd = a->ndim, p = 0;
    for (int d = 0; d < nd; d++)
        if (d != axis)
            perm[p++] = d;
    perm[p] = axis;
    NgArray t;
    NgStatus st = ng_op_transpose(a, perm, &t);
    if (st != NG_OK)
        return st;
    st = ng_op_ascontiguous(&t, force, out);
    ng_array_release(&t);
    *n = nd ? a->shape[axis] : 1;
    *rows = *n ? a->size / *n : 0;
    if (!*n) {
        *rows = 1;
        for (int d = 0; d < nd; d++)
            if (d != axis)
                *rows *= a->shape[d];
    }
    return st;
}

NgStatus ng_sort_axis_back(NgArray *moved, int axis, NgArray *out)
{
    int nd = moved->ndim, inv[NG_MAXDIMS];
    /* moved axis d came from perm[d]: inv[perm[d]] = d */
    for (int d = 0, p = 0; d < nd; d++)
        if (d != axis)
            inv[d] = p++;
    if (nd)
        inv[axis] = nd - 1;
    NgArray t;
    NgStatus st = ng_op_transpose(moved, inv, &t);
    if (st == NG_OK) {
        st = ng_op_ascontiguous(&t, false, out);
        ng_array_release(&t);
    }
    ng_array_release(moved);
    return st;
}

NgStatus ng_sort_read_i64(const NgArray *a, int64_t i, int64_t *v)
{
    NgArray e;
    ng_array_view(a, &e);
    e.offset += (size_t)(i * a->strides[0]);
    e.ndim = 0;
    e.size = 1;
    NgStatus st = ng_array_download(&e, v, NULL);
    ng_array_release(&e);
    return st;
}

NgStatus ng_op_sort(const NgArray *a, int axis, bool argsort, NgArray *out)
{
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    if (!ng_dtype_info(a->dtype)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(a->dtype)->name);
    NgArray keys, idx = {0};
    int64_t rows, n;
    if ((st = ng_sort_axis_last(a, axis, true, &keys, &rows, &n)) != NG_OK)
        return st;
    if (argsort && (st = ng_array_empty(ng_array_device(a), NG_INT64, keys.ndim, keys.shape, &idx)) != NG_OK) {
        ng_array_release(&keys);
        return st;
    }
    st = ng_sort_rows(&keys, argsort ? &idx : NULL, true, rows, n);
    if (st != NG_OK) {
        ng_array_release(&keys);
        ng_array_release(&idx);
        return st;
    }
    if (argsort) {
        ng_array_release(&keys);
        return ng_sort_axis_back(&idx, axis, out);
    }
    return ng_sort_axis_back(&keys, axis, out);
}
