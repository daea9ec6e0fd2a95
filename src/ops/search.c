/* Searching and counting on top of the sort engine: searchsorted, unique,
 * bincount, histogram's bin numbers and quantile's interpolation.
 *
 *   searchsorted  one thread per query: binary search (through `sorter`
 *                 when given) in NumPy's order, NaNs last;
 *   unique        sort (argsort when indices or the inverse are asked for),
 *                 flag the first element of each run of equal values (NaNs
 *                 count as equal, as NumPy 2's equal_nan=True), an inclusive
 *                 scan of the flags numbers the groups, one scatter writes
 *                 values / first positions / the inverse, and one more kernel
 *                 turns first positions into indices and counts;
 *   bincount      GPU targets refuse atomics, so the general plan sorts the
 *                 values (argsort with weights) and gives each bin a thread
 *                 that finds its run by binary search and adds its weights
 *                 in their original order (NumPy's order: bit-identical
 *                 sums); on cpu, unweighted counts use atomic increments;
 *   histogram     each value's bin: NumPy's formula for equal bins, else
 *                 a search of the edges bounded by a cell table
 *                 (build_hist_table, hist_bin); counted per chunk by the
 *                 same kernel, or (weights; GPUs' sorted plan) a bin number
 *                 per value, -1 outside, then bincount;
 *   quantile      sort along the axis, then one thread per (q, row) picks
 *                 the two neighbours and interpolates as NumPy's _lerp. */
#include <string.h>

#include "ops/sort_internal.h"

enum { Q_SEARCH, Q_UFLAG, Q_USCATTER, Q_UFINISH, Q_BIN_CHUNK, Q_BIN_SUM, Q_BIN_SORTED, Q_HIST, Q_HIST_TABLE, Q_QUANT, Q_ISIN_MARK,
       Q_ISIN_TABLE, Q_ISIN_SORT, Q_INTERP };

typedef struct SearchKey {
    uint8_t tag;    /* 'Q' */
    uint8_t kind;   /* Q_* */
    int8_t a, b, c; /* dtypes (kind-specific: data, values/weights, compute) */
    int8_t d;       /* another dtype (sorter) or NG_NODTYPE */
    uint8_t flag;   /* SEARCH: right; USCATTER: inverse; UFINISH: index; HIST: uniform; ISIN_*: invert;
                     * INTERP: left given */
    uint8_t flag2;  /* UFINISH: counts; BIN_SORTED: weights; HIST: counts per chunk; ISIN_*: values must be >= 0 as int64;
                     * INTERP: right given */
    uint8_t contig; /* first parameter unit-stride */
} SearchKey;

static NgIrRef mkvar(NgIrKernel *k, int *var, NgDType dt, NgIrRef value)
{
    *var = ng_ir_var(k, dt);
    return ng_ir_let(k, *var, value);
}

/* lo = first position p in [lo, hi) where go_right(p) is false (hi when
 * none), for a predicate monotone over the positions. `m` is a variable for
 * the probed position; go_right is an expression over m's value. hi
 * becomes the length still open, halved the same number of times for every
 * query. While it exceeds BSEARCH_BRANCHY the step is a branch (over a long
 * array the probes miss the cache, and a predicted branch lets the next
 * probes start early: sorted queries, NumPy's favourite, predict well);
 * below, each step moves lo by a mask, no branch, so random queries cost no
 * mispredictions in the last (cached) steps: searchsorted of 10^6 random
 * values in 50 took 26 ms branchy, 13 ms so. hi is left at 0 or 1. */
#define BSEARCH_BRANCHY 2048

/* All ones (int64 -1) where cond holds, else 0: lo + (half & mask) keeps a
 * search's step arithmetic, where C compilers turn a select whose condition
 * loads into a branch. */
static NgIrRef mask_of(NgIrKernel *k, NgIrRef cond)
{
    return ng_ir_unary(k, NG_OP_NEG, NG_INT64, ng_ir_cast(k, NG_INT64, cond));
}

static NgIrRef bsearch_loop(NgIrKernel *k, int lo, int hi, int m, NgIrRef go_right)
{
    NgIrRef Lo = ng_ir_varref(k, lo), Hi = ng_ir_varref(k, hi), one = sx_i(k, 1);
    NgIrRef half = ng_ir_binary(k, NG_OP_RSHIFT, NG_INT64, Hi, one);
    NgIrRef jump[3] = {ng_ir_assign(k, m, sx_op(k, NG_OP_ADD, Lo, half)), ng_ir_if(k, go_right, ng_ir_assign(k, lo, ng_ir_varref(k, m)), NG_IR_NONE),
                       ng_ir_assign(k, hi, sx_op(k, NG_OP_SUB, Hi, half))};
    NgIrRef step[3] = {ng_ir_assign(k, m, sx_op(k, NG_OP_ADD, Lo, half)),
                       ng_ir_assign(k, lo, sx_op(k, NG_OP_ADD, Lo, sx_op(k, NG_OP_BITAND, half, mask_of(k, go_right)))),
                       ng_ir_assign(k, hi, sx_op(k, NG_OP_SUB, Hi, half))};
    NgIrRef last[2] = {ng_ir_assign(k, m, Lo), ng_ir_assign(k, lo, sx_op(k, NG_OP_ADD, Lo, ng_ir_cast(k, NG_INT64, go_right)))};
    NgIrRef all[4] = {ng_ir_assign(k, hi, sx_op(k, NG_OP_SUB, Hi, Lo)),
                      ng_ir_while(k, sx_cmp(k, NG_OP_GT, Hi, sx_i(k, BSEARCH_BRANCHY)), ng_ir_block(k, 3, jump)),
                      ng_ir_while(k, sx_cmp(k, NG_OP_GT, Hi, one), ng_ir_block(k, 3, step)),
                      ng_ir_if(k, sx_cmp(k, NG_OP_GT, Hi, sx_i(k, 0)), ng_ir_block(k, 2, last), NG_IR_NONE)};
    return ng_ir_block(k, 4, all);
}

/* params: a (1-d), [sorter (1-d)], v (1-d contig), out (1-d int64) */
static void build_search(NgIrKernel *k, const SearchKey *key)
{
    NgDType ct = (NgDType)key->c;
    int a = ng_ir_param_array(k, (NgDType)key->a, 1, key->contig, false);
    int so = key->d != NG_NODTYPE ? ng_ir_param_array(k, (NgDType)key->d, 1, false, false) : -1;
    int v = ng_ir_param_array(k, (NgDType)key->b, 1, true, false);
    int out = ng_ir_param_array(k, NG_INT64, 1, true, true);
    int q = ng_ir_var(k, NG_INT64), x, lo, hi, m;
    NgIrRef Q = ng_ir_varref(k, q);
    NgIrRef s[5];
    s[0] = mkvar(k, &x, ct, ng_ir_cast(k, ct, sx_load1(k, v, Q)));
    s[1] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    s[2] = mkvar(k, &hi, NG_INT64, ng_ir_shape(k, a, 0));
    s[3] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    NgIrRef M = ng_ir_varref(k, m), X = ng_ir_varref(k, x);
    NgIrRef at = so >= 0 ? ng_ir_cast(k, NG_INT64, sx_load1(k, so, M)) : M;
    NgIrRef y = ng_ir_cast(k, ct, sx_load1(k, a, at));
    NgIrRef right = key->flag ? ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_sort_less(k, ct, X, y))
                              : ng_sort_less(k, ct, y, X);
    NgIrRef body[3] = {s[0], s[1], s[2]};
    NgIrRef all[6] = {body[0], body[1], body[2], s[3], bsearch_loop(k, lo, hi, m, right),
                      sx_store1(k, out, Q, ng_ir_varref(k, lo))};
    k->body = sx_for(k, q, sx_i(k, 0), ng_ir_shape(k, v, 0), ng_ir_block(k, 6, all), NG_IR_PARALLEL);
}

/* first(i): i == 0 or s[i] differs from s[i-1] (NaNs equal) */
static NgIrRef first_of_run(NgIrKernel *k, NgDType dt, int s, NgIrRef I)
{
    NgIrRef x = sx_load1(k, s, I), p = sx_load1(k, s, sx_op(k, NG_OP_SUB, I, sx_i(k, 1)));
    NgIrRef same = sx_cmp(k, NG_OP_EQ, x, p);
    if (ng_dtype_is_inexact(dt)) /* complex: a NaN in either part (NumPy's equal_nan) */
        same = sx_cmp(k, NG_OP_LOGOR, same, sx_cmp(k, NG_OP_LOGAND, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x),
                                                   ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, p)));
    return sx_cmp(k, NG_OP_LOGOR, sx_cmp(k, NG_OP_EQ, I, sx_i(k, 0)), ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, same));
}

/* UFLAG: s (1-d), g (1-d int64): g[i] = first(i) */
static void build_uflag(NgIrKernel *k, const SearchKey *key)
{
    int s = ng_ir_param_array(k, (NgDType)key->a, 1, true, false);
    int g = ng_ir_param_array(k, NG_INT64, 1, true, true);
    int i = ng_ir_var(k, NG_INT64);
    NgIrRef I = ng_ir_varref(k, i);
    k->body = sx_for(k, i, sx_i(k, 0), ng_ir_shape(k, s, 0),
                     sx_store1(k, g, I, ng_ir_cast(k, NG_INT64, first_of_run(k, (NgDType)key->a, s, I))), NG_IR_PARALLEL);
}

/* USCATTER: s, gid, vals, start, [perm, inv]: at each run's first element
 * vals[g] = s[i], start[g] = i; inv[perm[i]] = gid[i] - 1 everywhere */
static void build_uscatter(NgIrKernel *k, const SearchKey *key)
{
    NgDType dt = (NgDType)key->a;
    int s = ng_ir_param_array(k, dt, 1, true, false);
    int gid = ng_ir_param_array(k, NG_INT64, 1, true, false);
    int vals = ng_ir_param_array(k, dt, 1, true, true);
    int start = ng_ir_param_array(k, NG_INT64, 1, true, true);
    int perm = key->flag ? ng_ir_param_array(k, NG_INT64, 1, true, false) : -1;
    int inv = key->flag ? ng_ir_param_array(k, NG_INT64, 1, true, true) : -1;
    int i = ng_ir_var(k, NG_INT64);
    NgIrRef I = ng_ir_varref(k, i), one = sx_i(k, 1);
    NgIrRef G = sx_op(k, NG_OP_SUB, sx_load1(k, gid, I), one);
    NgIrRef firsts[2] = {sx_store1(k, vals, G, sx_load1(k, s, I)), sx_store1(k, start, G, I)};
    NgIrRef body[2] = {ng_ir_if(k, first_of_run(k, dt, s, I), ng_ir_block(k, 2, firsts), NG_IR_NONE),
                       key->flag ? sx_store1(k, inv, sx_load1(k, perm, I), G) : NG_IR_NONE};
    k->body = sx_for(k, i, sx_i(k, 0), ng_ir_shape(k, s, 0), ng_ir_block(k, key->flag ? 2 : 1, body), NG_IR_PARALLEL);
}

/* UFINISH: start, [perm, index], [counts], N: index[g] = perm[start[g]],
 * counts[g] = start[g+1] - start[g] (N for the last) */
static void build_ufinish(NgIrKernel *k, const SearchKey *key)
{
    int start = ng_ir_param_array(k, NG_INT64, 1, true, false);
    int perm = key->flag ? ng_ir_param_array(k, NG_INT64, 1, true, false) : -1;
    int index = key->flag ? ng_ir_param_array(k, NG_INT64, 1, true, true) : -1;
    int counts = key->flag2 ? ng_ir_param_array(k, NG_INT64, 1, true, true) : -1;
    NgIrRef N = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int g = ng_ir_var(k, NG_INT64);
    NgIrRef G = ng_ir_varref(k, g), G1 = sx_op(k, NG_OP_ADD, G, sx_i(k, 1)), nu = ng_ir_shape(k, start, 0);
    NgIrRef body[2];
    int nb = 0;
    if (key->flag)
        body[nb++] = sx_store1(k, index, G, sx_load1(k, perm, sx_load1(k, start, G)));
    if (key->flag2) {
        NgIrRef next = ng_ir_select(k, sx_cmp(k, NG_OP_LT, G1, nu), sx_load1(k, start, sx_op(k, NG_OP_MINIMUM, G1, sx_op(k, NG_OP_SUB, nu, sx_i(k, 1)))), N);
        body[nb++] = sx_store1(k, counts, G, sx_op(k, NG_OP_SUB, next, sx_load1(k, start, G)));
    }
    k->body = sx_for(k, g, sx_i(k, 0), nu, ng_ir_block(k, nb, body), NG_IR_PARALLEL);
}

/* BIN_CHUNK: x (1-d, int dtype a), [w (1-d, dtype b)], part (T, nbins):
 * thread c counts (or sums the weights of) chunk c of x, in order, into
 * row c of part; negative values are skipped. No atomics. */
static void build_bin_chunk(NgIrKernel *k, const SearchKey *key)
{
    NgDType odt = key->flag2 ? NG_FLOAT64 : NG_INT64;
    int x = ng_ir_param_array(k, (NgDType)key->a, 1, key->contig, false);
    int w = key->flag2 ? ng_ir_param_array(k, (NgDType)key->b, 1, false, false) : -1;
    int part = ng_ir_param_array(k, odt, 2, true, true);
    NgIrRef T = ng_ir_shape(k, part, 0), nb = ng_ir_shape(k, part, 1), n = ng_ir_shape(k, x, 0), one = sx_i(k, 1);
    NgIrRef chunk = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, T), one), T);
    int c = ng_ir_var(k, NG_INT64), b = ng_ir_var(k, NG_INT64), i = ng_ir_var(k, NG_INT64), v, lo, hi;
    NgIrRef C = ng_ir_varref(k, c), I = ng_ir_varref(k, i);
    /* the chunk's bounds once (a bound left in the loop test keeps its division in the loop) */
    NgIrRef bounds[2] = {mkvar(k, &lo, NG_INT64, sx_op(k, NG_OP_MUL, C, chunk)), NG_IR_NONE};
    bounds[1] = mkvar(k, &hi, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, ng_ir_varref(k, lo), chunk), n));
    NgIrRef zero = key->flag2 ? ng_ir_const_f(k, NG_FLOAT64, 0.0) : sx_i(k, 0);
    NgIrRef add = key->flag2 ? ng_ir_cast(k, NG_FLOAT64, sx_load1(k, w, I)) : one;
    NgIrRef step[2];
    step[0] = mkvar(k, &v, NG_INT64, ng_ir_cast(k, NG_INT64, sx_load1(k, x, I)));
    NgIrRef V = ng_ir_varref(k, v);
    step[1] = ng_ir_if(k, sx_cmp(k, NG_OP_GE, V, sx_i(k, 0)),
                       sx_store2(k, part, C, V, ng_ir_binary(k, NG_OP_ADD, odt, sx_load2(k, part, C, V), add)), NG_IR_NONE);
    NgIrRef body[4] = {bounds[0], bounds[1], sx_for(k, b, sx_i(k, 0), nb, sx_store2(k, part, C, ng_ir_varref(k, b), zero), 0),
                       sx_for(k, i, ng_ir_varref(k, lo), ng_ir_varref(k, hi), ng_ir_block(k, 2, step), 0)};
    k->body = sx_for(k, c, sx_i(k, 0), T, ng_ir_block(k, 4, body), NG_IR_PARALLEL);
}

/* BIN_SUM: part (T, nbins), out (nbins): out[b] = sum over chunks, in order */
static void build_bin_sum(NgIrKernel *k, const SearchKey *key)
{
    NgDType odt = key->flag2 ? NG_FLOAT64 : NG_INT64;
    int part = ng_ir_param_array(k, odt, 2, true, false);
    int out = ng_ir_param_array(k, odt, 1, true, true);
    int b = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64), acc = ng_ir_var(k, odt);
    NgIrRef B = ng_ir_varref(k, b);
    NgIrRef body[3] = {ng_ir_let(k, acc, key->flag2 ? ng_ir_const_f(k, NG_FLOAT64, 0.0) : sx_i(k, 0)),
                       sx_for(k, c, sx_i(k, 0), ng_ir_shape(k, part, 0),
                              ng_ir_assign(k, acc, ng_ir_binary(k, NG_OP_ADD, odt, ng_ir_varref(k, acc),
                                                                sx_load2(k, part, ng_ir_varref(k, c), B))), 0),
                       sx_store1(k, out, B, ng_ir_varref(k, acc))};
    k->body = sx_for(k, b, sx_i(k, 0), ng_ir_shape(k, out, 0), ng_ir_block(k, 3, body), NG_IR_PARALLEL);
}

/* BIN_SORTED: xs (1-d int64 sorted), [perm (int64), w (1-d, dtype b)], out
 * (int64 or float64): bin b's run [lo, hi) by binary search, then its count
 * or the sum of its weights in original order. */
static void build_bin_sorted(NgIrKernel *k, const SearchKey *key)
{
    int xs = ng_ir_param_array(k, NG_INT64, 1, true, false);
    int perm = key->flag2 ? ng_ir_param_array(k, NG_INT64, 1, true, false) : -1;
    int w = key->flag2 ? ng_ir_param_array(k, (NgDType)key->b, 1, false, false) : -1;
    NgDType odt = key->flag2 ? NG_FLOAT64 : NG_INT64;
    int out = ng_ir_param_array(k, odt, 1, true, true);
    int b = ng_ir_var(k, NG_INT64), lo, hi, m, first, acc, j;
    NgIrRef B = ng_ir_varref(k, b), n = ng_ir_shape(k, xs, 0);
    NgIrRef s[10];
    int ns = 0;
    s[ns++] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    s[ns++] = mkvar(k, &hi, NG_INT64, n);
    s[ns++] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    NgIrRef M = ng_ir_varref(k, m), Lo = ng_ir_varref(k, lo);
    s[ns++] = bsearch_loop(k, lo, hi, m, sx_cmp(k, NG_OP_LT, sx_load1(k, xs, M), B));
    s[ns++] = mkvar(k, &first, NG_INT64, Lo);
    s[ns++] = ng_ir_assign(k, hi, n);
    s[ns++] = bsearch_loop(k, lo, hi, m, sx_cmp(k, NG_OP_LE, sx_load1(k, xs, M), B));
    NgIrRef First = ng_ir_varref(k, first);
    if (key->flag2) {
        s[ns++] = mkvar(k, &acc, NG_FLOAT64, ng_ir_const_f(k, NG_FLOAT64, 0.0));
        j = ng_ir_var(k, NG_INT64);
        NgIrRef wv = ng_ir_cast(k, NG_FLOAT64, sx_load1(k, w, sx_load1(k, perm, ng_ir_varref(k, j))));
        s[ns++] = sx_for(k, j, First, Lo, ng_ir_assign(k, acc, ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64, ng_ir_varref(k, acc), wv)), 0);
        s[ns++] = sx_store1(k, out, B, ng_ir_varref(k, acc));
    } else {
        s[ns++] = sx_store1(k, out, B, sx_op(k, NG_OP_SUB, Lo, First));
    }
    k->body = sx_for(k, b, sx_i(k, 0), ng_ir_shape(k, out, 0), ng_ir_block(k, ns, s), NG_IR_PARALLEL);
}

/* The dtype a histogram's cell arithmetic is done in: the compute dtype, float32 for float16. */
static NgDType cell_dtype(NgDType ct) { return ct == NG_FLOAT16 ? NG_FLOAT32 : ct; }

/* HIST_TABLE: edges (1-d, dtype b), table (1-d int64, M + 1), scalars first,
 * width (dtype cell_dtype(c)): table[c] = the bin of first + c * width,
 * the last edge <= it clamped to [0, nbins - 1] (as build_hist's search). A
 * hint only: build_hist checks every bin it reads from the table against the
 * edges, so rounding here costs speed, never a wrong count. */
static void build_hist_table(NgIrKernel *k, const SearchKey *key)
{
    NgDType ct = (NgDType)key->c, cd = cell_dtype(ct);
    int e = ng_ir_param_array(k, (NgDType)key->b, 1, false, false);
    int table = ng_ir_param_array(k, NG_INT64, 1, true, true);
    NgIrRef first = ng_ir_scalar(k, ng_ir_param_scalar(k, cd)), width = ng_ir_scalar(k, ng_ir_param_scalar(k, cd));
    int c = ng_ir_var(k, NG_INT64), x, lo, hi, m;
    NgIrRef C = ng_ir_varref(k, c), nb = sx_op(k, NG_OP_SUB, ng_ir_shape(k, e, 0), sx_i(k, 1));
    NgIrRef at = ng_ir_binary(k, NG_OP_ADD, cd, first, ng_ir_binary(k, NG_OP_MUL, cd, ng_ir_cast(k, cd, C), width));
    NgIrRef s[6];
    s[0] = mkvar(k, &x, ct, ng_ir_cast(k, ct, at));
    s[1] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    s[2] = mkvar(k, &hi, NG_INT64, ng_ir_shape(k, e, 0));
    s[3] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    s[4] = bsearch_loop(k, lo, hi, m, sx_cmp(k, NG_OP_LE, ng_ir_cast(k, ct, sx_load1(k, e, ng_ir_varref(k, m))), ng_ir_varref(k, x)));
    NgIrRef bin = sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_SUB, ng_ir_varref(k, lo), sx_i(k, 1)), sx_op(k, NG_OP_SUB, nb, sx_i(k, 1)));
    s[5] = sx_store1(k, table, C, sx_op(k, NG_OP_MAXIMUM, bin, sx_i(k, 0)));
    k->body = sx_for(k, c, sx_i(k, 0), ng_ir_shape(k, table, 0), ng_ir_block(k, 6, s), NG_IR_PARALLEL);
}

/* The parameters of a histogram bin kernel after its data. */
typedef struct HistParams {
    int e, table;                 /* edges; the cell table (non-uniform) or -1 */
    NgIrRef first, last, denom;   /* dtype c */
    NgIrRef inv;                  /* cells per unit (cell dtype; non-uniform) */
} HistParams;

/* Statements setting the int64 variable idx (-1 on entry) to the bin of X
 * (dtype c): NumPy's formula nudged by the edges for equal bins; otherwise
 * the last edge <= X (clamped to the last bin: X == the last edge counts
 * there), found through the cell table: X's cell (one multiply) bounds the
 * search to the edges of that cell, and the bin found is checked against
 * its two edges, with a search of all edges where the cell arithmetic's
 * rounding put it in a neighbouring cell (so the bins are the plain
 * search's, whatever the rounding: 300 uneven edges took 9 probes per
 * value, the cell 0 to 2). Nothing for X outside [first, last] or NaN. */
static NgIrRef hist_bin(NgIrKernel *k, const SearchKey *key, const HistParams *hp, int idx, NgIrRef X)
{
    NgDType ct = (NgDType)key->c, cd = cell_dtype(ct);
    int e = hp->e;
    NgIrRef Idx = ng_ir_varref(k, idx), one = sx_i(k, 1);
    NgIrRef nb = sx_op(k, NG_OP_SUB, ng_ir_shape(k, e, 0), one), nb1 = sx_op(k, NG_OP_SUB, nb, one);
    NgIrRef edge = ng_ir_cast(k, ct, sx_load1(k, e, Idx));
    NgIrRef edge1 = ng_ir_cast(k, ct, sx_load1(k, e, sx_op(k, NG_OP_ADD, Idx, one)));
    NgIrRef inside = sx_cmp(k, NG_OP_LOGAND, sx_cmp(k, NG_OP_GE, X, hp->first), sx_cmp(k, NG_OP_LE, X, hp->last));
    NgIrRef in[8];
    int ni = 0, lo, hi, m, cell;
    if (key->flag) {
        /* NumPy: ((x - first) / denom * nbins) truncated, then nudged by the edges */
        NgIrRef f = ng_ir_binary(k, NG_OP_MUL, ct, ng_ir_binary(k, NG_OP_TRUEDIV, ct, ng_ir_binary(k, NG_OP_SUB, ct, X, hp->first), hp->denom),
                                 ng_ir_cast(k, ct, nb));
        in[ni++] = ng_ir_assign(k, idx, ng_ir_cast(k, NG_INT64, f));
        in[ni++] = ng_ir_if(k, sx_cmp(k, NG_OP_GE, Idx, nb), ng_ir_assign(k, idx, nb1), NG_IR_NONE);
        in[ni++] = ng_ir_if(k, sx_cmp(k, NG_OP_LT, X, edge), ng_ir_assign(k, idx, sx_op(k, NG_OP_SUB, Idx, one)), NG_IR_NONE);
        in[ni++] = ng_ir_if(k, sx_cmp(k, NG_OP_LOGAND, sx_cmp(k, NG_OP_NE, Idx, nb1), sx_cmp(k, NG_OP_GE, X, edge1)),
                            ng_ir_assign(k, idx, sx_op(k, NG_OP_ADD, Idx, one)), NG_IR_NONE);
        return ng_ir_if(k, inside, ng_ir_block(k, ni, in), NG_IR_NONE);
    }
    NgIrRef go_right;
    in[ni++] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    in[ni++] = mkvar(k, &hi, NG_INT64, sx_i(k, 0));
    in[ni++] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    go_right = sx_cmp(k, NG_OP_LE, ng_ir_cast(k, ct, sx_load1(k, e, ng_ir_varref(k, m))), X);
    /* the cell: (X - first) * inv, NaN or past the last cell (X == last, rounding) to the last */
    NgIrRef M = sx_op(k, NG_OP_SUB, ng_ir_shape(k, hp->table, 0), one);
    NgIrRef f = ng_ir_binary(k, NG_OP_MUL, cd, ng_ir_binary(k, NG_OP_SUB, cd, ng_ir_cast(k, cd, X), ng_ir_cast(k, cd, hp->first)), hp->inv);
    NgIrRef fc = ng_ir_select(k, sx_cmp(k, NG_OP_LT, f, ng_ir_cast(k, cd, M)), f, ng_ir_cast(k, cd, sx_op(k, NG_OP_SUB, M, one)));
    in[ni++] = mkvar(k, &cell, NG_INT64, ng_ir_cast(k, NG_INT64, fc));
    NgIrRef Cell = ng_ir_varref(k, cell);
    /* the edges inside the cell: (table[cell], table[cell + 1]] */
    NgIrRef bounds[2] = {ng_ir_assign(k, lo, sx_op(k, NG_OP_ADD, sx_load1(k, hp->table, Cell), one)),
                         ng_ir_assign(k, hi, sx_op(k, NG_OP_ADD, sx_load1(k, hp->table, sx_op(k, NG_OP_ADD, Cell, one)), one))};
    in[ni++] = ng_ir_block(k, 2, bounds);
    in[ni++] = bsearch_loop(k, lo, hi, m, go_right);
    in[ni++] = ng_ir_assign(k, idx, sx_op(k, NG_OP_MAXIMUM, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_SUB, ng_ir_varref(k, lo), one), nb1),
                                          sx_i(k, 0)));
    /* checked: edge <= X < edge1 (or the last bin); else the search of all edges */
    NgIrRef ok = sx_cmp(k, NG_OP_LOGAND, sx_cmp(k, NG_OP_LE, edge, X),
                        sx_cmp(k, NG_OP_LOGOR, sx_cmp(k, NG_OP_EQ, Idx, nb1), sx_cmp(k, NG_OP_LT, X, edge1)));
    NgIrRef full[3] = {ng_ir_assign(k, lo, sx_i(k, 0)), ng_ir_assign(k, hi, ng_ir_shape(k, e, 0)), NG_IR_NONE};
    NgIrRef redo[3] = {ng_ir_block(k, 2, full), bsearch_loop(k, lo, hi, m, go_right),
                       ng_ir_assign(k, idx, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_SUB, ng_ir_varref(k, lo), one), nb1))};
    in[ni++] = ng_ir_if(k, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ok), ng_ir_block(k, 3, redo), NG_IR_NONE);
    return ng_ir_if(k, inside, ng_ir_block(k, ni, in), NG_IR_NONE);
}

/* HIST: a (1-d contig, dtype a), edges (1-d, dtype b), [table (1-d int64,
 * non-uniform)], then out (1-d int64, the bin of each element, -1 outside)
 * or, flag2, part (T, nbins int64: chunk c's counts in row c, as BIN_CHUNK's:
 * no atomics, no per-element bin array); scalars first, last, denom (dtype
 * c), [inv (cell dtype, non-uniform)]. */
static void build_hist(NgIrKernel *k, const SearchKey *key)
{
    NgDType ct = (NgDType)key->c;
    HistParams hp;
    int a = ng_ir_param_array(k, (NgDType)key->a, 1, true, false);
    hp.e = ng_ir_param_array(k, (NgDType)key->b, 1, false, false);
    hp.table = key->flag ? -1 : ng_ir_param_array(k, NG_INT64, 1, true, false);
    int out = ng_ir_param_array(k, NG_INT64, key->flag2 ? 2 : 1, true, true);
    hp.first = ng_ir_scalar(k, ng_ir_param_scalar(k, ct));
    hp.last = ng_ir_scalar(k, ng_ir_param_scalar(k, ct));
    hp.denom = ng_ir_scalar(k, ng_ir_param_scalar(k, ct));
    hp.inv = key->flag ? NG_IR_NONE : ng_ir_scalar(k, ng_ir_param_scalar(k, cell_dtype(ct)));
    int i = ng_ir_var(k, NG_INT64), x, idx;
    NgIrRef I = ng_ir_varref(k, i);
    NgIrRef s[4];
    s[0] = mkvar(k, &x, ct, ng_ir_cast(k, ct, sx_load1(k, a, I)));
    s[1] = mkvar(k, &idx, NG_INT64, sx_i(k, -1));
    s[2] = hist_bin(k, key, &hp, idx, ng_ir_varref(k, x));
    NgIrRef Idx = ng_ir_varref(k, idx);
    if (!key->flag2) {
        s[3] = sx_store1(k, out, I, Idx);
        k->body = sx_for(k, i, sx_i(k, 0), ng_ir_shape(k, a, 0), ng_ir_block(k, 4, s), NG_IR_PARALLEL);
        return;
    }
    /* chunk c of the values counted into row c, as build_bin_chunk */
    NgIrRef T = ng_ir_shape(k, out, 0), nbins = ng_ir_shape(k, out, 1), n = ng_ir_shape(k, a, 0), one = sx_i(k, 1);
    NgIrRef chunk = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, n, T), one), T);
    int c = ng_ir_var(k, NG_INT64), b = ng_ir_var(k, NG_INT64), lo, hi;
    NgIrRef C = ng_ir_varref(k, c);
    s[3] = ng_ir_if(k, sx_cmp(k, NG_OP_GE, Idx, sx_i(k, 0)),
                    sx_store2(k, out, C, Idx, sx_op(k, NG_OP_ADD, sx_load2(k, out, C, Idx), one)), NG_IR_NONE);
    NgIrRef body[4] = {mkvar(k, &lo, NG_INT64, sx_op(k, NG_OP_MUL, C, chunk)), NG_IR_NONE,
                       sx_for(k, b, sx_i(k, 0), nbins, sx_store2(k, out, C, ng_ir_varref(k, b), sx_i(k, 0)), 0), NG_IR_NONE};
    body[1] = mkvar(k, &hi, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, ng_ir_varref(k, lo), chunk), n));
    body[3] = sx_for(k, i, ng_ir_varref(k, lo), ng_ir_varref(k, hi), ng_ir_block(k, 4, s), 0);
    k->body = sx_for(k, c, sx_i(k, 0), T, ng_ir_block(k, 4, body), NG_IR_PARALLEL);
}

/* QUANT: sorted (rows, n) dtype a, q (1-d float64), out (nq, rows) dtype c */
static void build_quant(NgIrKernel *k, const SearchKey *key)
{
    NgDType ct = (NgDType)key->c;
    int s = ng_ir_param_array(k, (NgDType)key->a, 2, true, false);
    int q = ng_ir_param_array(k, NG_FLOAT64, 1, false, false);
    int out = ng_ir_param_array(k, ct, 2, true, true);
    NgIrRef rows = ng_ir_shape(k, s, 0), n = ng_ir_shape(k, s, 1), one = sx_i(k, 1);
    int t = ng_ir_var(k, NG_INT64), qi, r, vi, lo, hi, g, a, b, d, res;
    NgIrRef T = ng_ir_varref(k, t);
    NgIrRef st[12];
    int ns = 0;
    st[ns++] = mkvar(k, &qi, NG_INT64, sx_op(k, NG_OP_FLOORDIV, T, rows));
    st[ns++] = mkvar(k, &r, NG_INT64, sx_op(k, NG_OP_MOD, T, rows));
    NgIrRef R = ng_ir_varref(k, r), QI = ng_ir_varref(k, qi), n1 = sx_op(k, NG_OP_SUB, n, one);
    st[ns++] = mkvar(k, &vi, NG_FLOAT64, ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, n1), sx_load1(k, q, QI)));
    NgIrRef VI = ng_ir_varref(k, vi);
    NgIrRef fl = ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, VI);
    st[ns++] = mkvar(k, &lo, NG_INT64, sx_op(k, NG_OP_MAXIMUM, sx_op(k, NG_OP_MINIMUM, ng_ir_cast(k, NG_INT64, fl), n1), sx_i(k, 0)));
    NgIrRef Lo = ng_ir_varref(k, lo);
    st[ns++] = mkvar(k, &hi, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Lo, one), n1));
    st[ns++] = mkvar(k, &g, ct, ng_ir_cast(k, ct, ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, VI, ng_ir_cast(k, NG_FLOAT64, Lo))));
    NgDType in = (NgDType)key->a;
    NgIrRef ain = sx_load2(k, s, R, Lo), bin = sx_load2(k, s, R, ng_ir_varref(k, hi));
    st[ns++] = mkvar(k, &a, ct, ng_ir_cast(k, ct, ain));
    st[ns++] = mkvar(k, &b, ct, ng_ir_cast(k, ct, bin));
    NgIrRef A = ng_ir_varref(k, a), Bv = ng_ir_varref(k, b), G = ng_ir_varref(k, g);
    /* NumPy's b - a is taken in the input dtype (sorted: b >= a), the rest in ct */
    NgIrRef diff = in == NG_BOOL ? ng_ir_binary(k, NG_OP_SUB, ct, Bv, A) : ng_ir_cast(k, ct, ng_ir_binary(k, NG_OP_SUB, in, bin, ain));
    st[ns++] = mkvar(k, &d, ct, diff);
    NgIrRef D = ng_ir_varref(k, d);
    NgIrRef low = ng_ir_binary(k, NG_OP_ADD, ct, A, ng_ir_binary(k, NG_OP_MUL, ct, D, G));
    NgIrRef high = ng_ir_binary(k, NG_OP_SUB, ct, Bv,
                                ng_ir_binary(k, NG_OP_MUL, ct, D, ng_ir_binary(k, NG_OP_SUB, ct, ng_ir_const_f(k, ct, 1.0), G)));
    st[ns++] = mkvar(k, &res, ct, ng_ir_select(k, sx_cmp(k, NG_OP_GE, G, ng_ir_const_f(k, ct, 0.5)), high, low));
    /* a NaN anywhere in the row sorts last and makes the result NaN */
    NgIrRef lastv = ng_ir_cast(k, ct, sx_load2(k, s, R, n1));
    NgIrRef Res = ng_ir_varref(k, res);
    if (ng_dtype_is_float((NgDType)key->a))
        Res = ng_ir_select(k, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, lastv), lastv, Res);
    st[ns++] = sx_store2(k, out, QI, R, Res);
    k->body = sx_for(k, t, sx_i(k, 0), sx_op(k, NG_OP_MUL, ng_ir_shape(k, q, 0), rows), ng_ir_block(k, ns, st), NG_IR_PARALLEL);
}

/* ISIN_MARK: t (1-d, int dtype a), table (1-d uint8), scalar lo (int64):
 * table[t[j] - lo] = 1 (equal values store the same byte). */
static void build_isin_mark(NgIrKernel *k, const SearchKey *key)
{
    int t = ng_ir_param_array(k, (NgDType)key->a, 1, key->contig, false);
    int table = ng_ir_param_array(k, NG_UINT8, 1, true, true);
    NgIrRef lo = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int j = ng_ir_var(k, NG_INT64);
    NgIrRef at = sx_op(k, NG_OP_SUB, ng_ir_cast(k, NG_INT64, sx_load1(k, t, ng_ir_varref(k, j))), lo);
    k->body = sx_for(k, j, sx_i(k, 0), ng_ir_shape(k, t, 0), sx_store1(k, table, at, ng_ir_const_i(k, NG_UINT8, 1)),
                     NG_IR_PARALLEL);
}

/* ISIN_TABLE: v (1-d contig, int dtype a), table (1-d uint8), out (1-d
 * bool), scalars lo, range (int64): out[q] = table[v[q] - lo] where v[q] -
 * lo, as an unsigned 64-bit difference, is at most range (the values of
 * the table's [lo, lo + range] and nothing else, since the difference is
 * a bijection of 64-bit patterns), xor invert. flag2: a value must also be
 * >= 0 as int64 (signed values against an unsigned table, uint64 values
 * against a signed one: the two readings of a pattern differ there). */
static void build_isin_table(NgIrKernel *k, const SearchKey *key)
{
    int v = ng_ir_param_array(k, (NgDType)key->a, 1, true, false);
    int table = ng_ir_param_array(k, NG_UINT8, 1, true, false);
    int out = ng_ir_param_array(k, NG_BOOL, 1, true, true);
    NgIrRef lo = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef range = ng_ir_cast(k, NG_UINT64, ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)));
    int q = ng_ir_var(k, NG_INT64), x, d, ok;
    NgIrRef Q = ng_ir_varref(k, q);
    NgIrRef st[4];
    st[0] = mkvar(k, &x, NG_INT64, ng_ir_cast(k, NG_INT64, sx_load1(k, v, Q)));
    NgIrRef X = ng_ir_varref(k, x);
    st[1] = mkvar(k, &d, NG_INT64, sx_op(k, NG_OP_SUB, X, lo));
    NgIrRef D = ng_ir_varref(k, d);
    NgIrRef inside = sx_cmp(k, NG_OP_LE, ng_ir_cast(k, NG_UINT64, D), range);
    if (key->flag2)
        inside = sx_cmp(k, NG_OP_LOGAND, inside, sx_cmp(k, NG_OP_GE, X, sx_i(k, 0)));
    st[2] = mkvar(k, &ok, NG_BOOL, inside);
    NgIrRef Ok = ng_ir_varref(k, ok);
    /* (the load at 0 outside the table's range: a select, no branch) */
    NgIrRef mark = sx_load1(k, table, ng_ir_select(k, Ok, D, sx_i(k, 0)));
    NgIrRef found = sx_cmp(k, NG_OP_LOGAND, Ok, sx_cmp(k, NG_OP_NE, mark, ng_ir_const_i(k, NG_UINT8, 0)));
    if (key->flag)
        found = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, found);
    st[3] = sx_store1(k, out, Q, found);
    k->body = sx_for(k, q, sx_i(k, 0), ng_ir_shape(k, v, 0), ng_ir_block(k, 4, st), NG_IR_PARALLEL);
}

/* ISIN_SORT: v (1-d contig, dtype a), s (1-d contig sorted, dtype c, not
 * empty), out (1-d bool): v[q] (as c) equals s at its lower bound (NaN
 * never does), xor invert. flag2 (uint64 against signed integers, c the
 * 64-bit integer dtype of s): only values >= 0 as int64 can be found. */
static void build_isin_sort(NgIrKernel *k, const SearchKey *key)
{
    NgDType ct = (NgDType)key->c;
    int v = ng_ir_param_array(k, (NgDType)key->a, 1, true, false);
    int sp = ng_ir_param_array(k, ct, 1, true, false);
    int out = ng_ir_param_array(k, NG_BOOL, 1, true, true);
    int q = ng_ir_var(k, NG_INT64), x, lo, hi, m;
    NgIrRef Q = ng_ir_varref(k, q), n = ng_ir_shape(k, sp, 0);
    NgIrRef st[6];
    st[0] = mkvar(k, &x, ct, ng_ir_cast(k, ct, sx_load1(k, v, Q)));
    st[1] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    st[2] = mkvar(k, &hi, NG_INT64, n);
    st[3] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    NgIrRef X = ng_ir_varref(k, x), Lo = ng_ir_varref(k, lo);
    /* (real values: a plain <, NaNs sort last and compare false, so they count as not less, and a
     * NaN x finds position 0 and is not equal there; the NaN-aware order costs 2x per step) */
    NgIrRef probe = sx_load1(k, sp, ng_ir_varref(k, m));
    st[4] = bsearch_loop(k, lo, hi, m, ng_dtype_is_complex(ct) ? ng_sort_less(k, ct, probe, X) : sx_cmp(k, NG_OP_LT, probe, X));
    NgIrRef at = sx_op(k, NG_OP_MINIMUM, Lo, sx_op(k, NG_OP_SUB, n, sx_i(k, 1)));
    NgIrRef found = sx_cmp(k, NG_OP_LOGAND, sx_cmp(k, NG_OP_LT, Lo, n), sx_cmp(k, NG_OP_EQ, sx_load1(k, sp, at), X));
    if (key->flag2)
        found = sx_cmp(k, NG_OP_LOGAND, found, sx_cmp(k, NG_OP_GE, ng_ir_cast(k, NG_INT64, sx_load1(k, v, Q)), sx_i(k, 0)));
    if (key->flag)
        found = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, found);
    st[5] = sx_store1(k, out, Q, found);
    k->body = sx_for(k, q, sx_i(k, 0), ng_ir_shape(k, v, 0), ng_ir_block(k, 6, st), NG_IR_PARALLEL);
}

/* INTERP: x (1-d contig), xp, fp (1-d contig, not empty), out (1-d), all
 * float64, scalars left, right (used where flag / flag2): NumPy's
 * compiled_base.c loop per element. j = the last sample <= x (the last of
 * equal ones); x > xp[-1]: right, x < xp[0]: left (fp's ends when not
 * given), j the last sample or xp[j] == x: fp[j], else slope * (x - xp[j])
 * + fp[j], from the right end where that is NaN, and fp[j] where that is
 * NaN too and fp[j] == fp[j+1]; NaN x stays (one sample: fp[0], as NumPy's
 * loop for one sample). Loads use j clamped to
 * [0, n-2] (and j+1 to n-1), so every select reads inside the arrays. */
static void build_interp(NgIrKernel *k, const SearchKey *key)
{
    const NgDType F = NG_FLOAT64;
    int x = ng_ir_param_array(k, F, 1, true, false);
    int xp = ng_ir_param_array(k, F, 1, true, false);
    int fp = ng_ir_param_array(k, F, 1, true, false);
    int out = ng_ir_param_array(k, F, 1, true, true);
    NgIrRef left = ng_ir_scalar(k, ng_ir_param_scalar(k, F)), right = ng_ir_scalar(k, ng_ir_param_scalar(k, F));
    int q = ng_ir_var(k, NG_INT64), xv, lo, hi, m, j, j1, x0, y0, y1, slope, res;
    NgIrRef Q = ng_ir_varref(k, q), n = ng_ir_shape(k, xp, 0), one = sx_i(k, 1);
    NgIrRef n1 = sx_op(k, NG_OP_SUB, n, one);
    NgIrRef st[16];
    int ns = 0;
    st[ns++] = mkvar(k, &xv, F, sx_load1(k, x, Q));
    NgIrRef X = ng_ir_varref(k, xv);
    st[ns++] = mkvar(k, &lo, NG_INT64, sx_i(k, 0));
    st[ns++] = mkvar(k, &hi, NG_INT64, n);
    st[ns++] = mkvar(k, &m, NG_INT64, sx_i(k, 0));
    st[ns++] = bsearch_loop(k, lo, hi, m, sx_cmp(k, NG_OP_LE, sx_load1(k, xp, ng_ir_varref(k, m)), X));
    NgIrRef J = sx_op(k, NG_OP_SUB, ng_ir_varref(k, lo), one); /* the last sample <= x, -1 when none */
    st[ns++] = mkvar(k, &j, NG_INT64, sx_op(k, NG_OP_MAXIMUM, sx_op(k, NG_OP_MINIMUM, J, sx_op(k, NG_OP_SUB, n, sx_i(k, 2))),
                                            sx_i(k, 0)));
    NgIrRef Jc = ng_ir_varref(k, j);
    st[ns++] = mkvar(k, &j1, NG_INT64, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, Jc, one), n1));
    NgIrRef J1 = ng_ir_varref(k, j1);
    st[ns++] = mkvar(k, &x0, F, sx_load1(k, xp, Jc));
    st[ns++] = mkvar(k, &y0, F, sx_load1(k, fp, Jc));
    st[ns++] = mkvar(k, &y1, F, sx_load1(k, fp, J1));
    NgIrRef X0 = ng_ir_varref(k, x0), Y0 = ng_ir_varref(k, y0), Y1 = ng_ir_varref(k, y1), X1 = sx_load1(k, xp, J1);
    st[ns++] = mkvar(k, &slope, F, ng_ir_binary(k, NG_OP_TRUEDIV, F, ng_ir_binary(k, NG_OP_SUB, F, Y1, Y0),
                                                ng_ir_binary(k, NG_OP_SUB, F, X1, X0)));
    NgIrRef S = ng_ir_varref(k, slope);
    st[ns++] = mkvar(k, &res, F, ng_ir_binary(k, NG_OP_ADD, F, ng_ir_binary(k, NG_OP_MUL, F, S, ng_ir_binary(k, NG_OP_SUB, F, X, X0)), Y0));
    NgIrRef R = ng_ir_varref(k, res);
    NgIrRef from_right = ng_ir_binary(k, NG_OP_ADD, F, ng_ir_binary(k, NG_OP_MUL, F, S, ng_ir_binary(k, NG_OP_SUB, F, X, X1)), Y1);
    NgIrRef retry[2] = {ng_ir_assign(k, res, from_right),
                        ng_ir_if(k, sx_cmp(k, NG_OP_LOGAND, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, R), sx_cmp(k, NG_OP_EQ, Y0, Y1)),
                                 ng_ir_assign(k, res, Y0), NG_IR_NONE)};
    st[ns++] = ng_ir_if(k, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, R), ng_ir_block(k, 2, retry), NG_IR_NONE);
    NgIrRef lval = key->flag ? left : sx_load1(k, fp, sx_i(k, 0));
    NgIrRef rval = key->flag2 ? right : sx_load1(k, fp, n1);
    NgIrRef v = ng_ir_select(k, sx_cmp(k, NG_OP_EQ, X0, X), Y0, R);
    v = ng_ir_select(k, sx_cmp(k, NG_OP_EQ, J, n1), sx_load1(k, fp, n1), v);
    v = ng_ir_select(k, sx_cmp(k, NG_OP_LT, X, sx_load1(k, xp, sx_i(k, 0))), lval, v);
    v = ng_ir_select(k, sx_cmp(k, NG_OP_GT, X, sx_load1(k, xp, n1)), rval, v);
    /* (one sample: NumPy's loop without the NaN check, fp[0] for NaN) */
    v = ng_ir_select(k, sx_cmp(k, NG_OP_LOGAND, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, X), sx_cmp(k, NG_OP_GT, n, one)), X, v);
    st[ns++] = sx_store1(k, out, Q, v);
    k->body = sx_for(k, q, sx_i(k, 0), ng_ir_shape(k, x, 0), ng_ir_block(k, ns, st), NG_IR_PARALLEL);
}

static NgStatus build_search_kernel(const void *ctx, NgIrKernel *k)
{
    const SearchKey *key = ctx;
    switch (key->kind) {
    case Q_SEARCH: build_search(k, key); break;
    case Q_UFLAG: build_uflag(k, key); break;
    case Q_USCATTER: build_uscatter(k, key); break;
    case Q_UFINISH: build_ufinish(k, key); break;
    case Q_BIN_CHUNK: build_bin_chunk(k, key); break;
    case Q_BIN_SUM: build_bin_sum(k, key); break;
    case Q_BIN_SORTED: build_bin_sorted(k, key); break;
    case Q_HIST: build_hist(k, key); break;
    case Q_HIST_TABLE: build_hist_table(k, key); break;
    case Q_QUANT: build_quant(k, key); break;
    case Q_ISIN_MARK: build_isin_mark(k, key); break;
    case Q_ISIN_TABLE: build_isin_table(k, key); break;
    case Q_ISIN_SORT: build_isin_sort(k, key); break;
    case Q_INTERP: build_interp(k, key); break;
    }
    return k->status;
}

static SearchKey skey(int kind)
{
    SearchKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'Q';
    key.kind = (uint8_t)kind;
    key.d = NG_NODTYPE;
    return key;
}

static NgStatus launch(NgDevice *dev, const SearchKey *key, const NgKArg *args, int na, int64_t extent, int64_t work)
{
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, key, sizeof *key, build_search_kernel, key, &kern);
    return st == NG_OK ? ng_kernel_launch(kern, args, na, extent, work) : st;
}

/* Appends a 1-d array of any stride. */
static void karg_vec(NgKArg *args, int *na, const NgArray *a)
{
    int64_t s = a->ndim ? a->strides[0] / ng_array_itemsize(a) : 0, n = a->ndim ? a->shape[0] : 1;
    ng_kargs_array(args, na, a, 1, &n, &s);
}

/* Min and max of an integer array (downloaded), for range checks. */
static NgStatus int_range(const NgArray *a, int64_t *lo, int64_t *hi)
{
    NgArray r;
    NgStatus st = ng_op_reduce(NG_RED_MIN, a, -1, NULL, false, NG_NODTYPE, 0, &r);
    if (st != NG_OK)
        return st;
    NgArray r64;
    st = ng_op_astype(&r, NG_INT64, &r64);
    ng_array_release(&r);
    if (st != NG_OK)
        return st;
    st = ng_array_download(&r64, lo, NULL);
    ng_array_release(&r64);
    if (st != NG_OK || !hi)
        return st;
    if ((st = ng_op_reduce(NG_RED_MAX, a, -1, NULL, false, NG_NODTYPE, 0, &r)) != NG_OK)
        return st;
    st = ng_op_astype(&r, NG_INT64, &r64);
    ng_array_release(&r);
    if (st == NG_OK) {
        st = ng_array_download(&r64, hi, NULL);
        ng_array_release(&r64);
    }
    return st;
}

NgStatus ng_op_searchsorted(const NgArray *a, const NgArray *v, bool right, const NgArray *sorter, NgArray *out)
{
    if (a->ndim != 1)
        return ng_error_set(NG_ERR_VALUE, a->ndim ? "object too deep for desired array"
                                                  : "object of too small depth for desired array");
    NgDType ct = ng_dtype_promote(a->dtype, v->dtype);
    if (ct == NG_NODTYPE || !ng_dtype_info(ct)->supported)
        return ng_error_set(NG_ERR_TYPE, "searchsorted: no common dtype for %s and %s",
                            ng_dtype_info(a->dtype)->name, ng_dtype_info(v->dtype)->name);
    NgStatus st;
    if (sorter) {
        if (!ng_dtype_is_int(sorter->dtype))
            return ng_error_set(NG_ERR_TYPE, "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                                ng_dtype_info(sorter->dtype)->name);
        if (sorter->ndim != 1 || sorter->size != a->size)
            return ng_error_set(NG_ERR_VALUE, "sorter.size must equal a.size");
        int64_t lo, hi;
        if (sorter->size && (st = int_range(sorter, &lo, &hi)) != NG_OK)
            return st;
        if (sorter->size && (lo < 0 || hi >= a->size || (sorter->dtype == NG_UINT64 && lo < 0)))
            return ng_error_set(NG_ERR_VALUE, "Sorter index out of range.");
    }
    NgArray vc;
    if ((st = ng_op_ascontiguous(v, false, &vc)) != NG_OK)
        return st;
    if ((st = ng_array_empty(ng_array_device(a), NG_INT64, v->ndim, v->shape, out)) != NG_OK) {
        ng_array_release(&vc);
        return st;
    }
    if (v->size) {
        SearchKey key = skey(Q_SEARCH);
        key.a = (int8_t)a->dtype;
        key.b = (int8_t)v->dtype;
        key.c = (int8_t)ct;
        key.d = sorter ? (int8_t)sorter->dtype : NG_NODTYPE;
        key.flag = right;
        key.contig = a->strides[0] == ng_array_itemsize(a);
        NgKArg args[4 * 4];
        int na = 0;
        karg_vec(args, &na, a);
        if (sorter)
            karg_vec(args, &na, sorter);
        ng_sort_kargs1(args, &na, &vc, v->size);
        ng_sort_kargs1(args, &na, out, v->size);
        st = launch(ng_array_device(a), &key, args, na, v->size, v->size);
    }
    ng_array_release(&vc);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

/* A new 1-d int64 array of n elements on dev. */
static NgStatus new_i64(NgDevice *dev, int64_t n, NgArray *out)
{
    return ng_array_empty(dev, NG_INT64, 1, &n, out);
}

NgStatus ng_op_unique(const NgArray *a, NgArray *values, NgArray *index, NgArray *inverse, NgArray *counts)
{
    if (!ng_dtype_info(a->dtype)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(a->dtype)->name);
    NgDevice *dev = ng_array_device(a);
    int64_t N = a->size, nu = 0;
    memset(values, 0, sizeof *values);
    if (inverse)
        memset(inverse, 0, sizeof *inverse);
    bool want_perm = index || inverse;
    NgArray s = {0}, perm = {0}, gid = {0}, start = {0}, g1 = {0};
    NgStatus st = ng_op_ascontiguous(a, true, &s);
    if (st == NG_OK && want_perm)
        st = new_i64(dev, N, &perm);
    if (st == NG_OK)
        st = ng_sort_rows(&s, want_perm ? &perm : NULL, true, N ? 1 : 0, N);
    if (st == NG_OK && N) {
        /* flags of first elements, then their inclusive scan numbers the groups */
        SearchKey key = skey(Q_UFLAG);
        key.a = (int8_t)a->dtype;
        NgKArg args[6 * 4 + 1];
        int na = 0;
        if ((st = new_i64(dev, N, &g1)) == NG_OK) {
            ng_sort_kargs1(args, &na, &s, N);
            ng_sort_kargs1(args, &na, &g1, N);
            st = launch(dev, &key, args, na, N, N);
        }
        if (st == NG_OK)
            st = ng_op_cumulative(NG_OP_ADD, &g1, 0, NG_INT64, &gid);
        if (st == NG_OK)
            st = ng_sort_read_i64(&gid, N - 1, &nu);
    }
    if (st == NG_OK)
        st = ng_array_empty(dev, a->dtype, 1, &nu, values);
    if (st == NG_OK && (st = new_i64(dev, nu, &start)) == NG_OK && inverse) {
        st = ng_array_empty(dev, NG_INT64, a->ndim, a->shape, inverse);
    }
    if (st == NG_OK && N) {
        SearchKey key = skey(Q_USCATTER);
        key.a = (int8_t)a->dtype;
        key.flag = inverse != NULL;
        NgKArg args[6 * 4 + 1];
        int na = 0;
        ng_sort_kargs1(args, &na, &s, N);
        ng_sort_kargs1(args, &na, &gid, N);
        ng_sort_kargs1(args, &na, values, nu);
        ng_sort_kargs1(args, &na, &start, nu);
        if (inverse) {
            ng_sort_kargs1(args, &na, &perm, N);
            ng_sort_kargs1(args, &na, inverse, N);
        }
        st = launch(dev, &key, args, na, N, N);
    }
    bool got_index = false, got_counts = false;
    if (st == NG_OK && index)
        got_index = (st = new_i64(dev, nu, index)) == NG_OK;
    if (st == NG_OK && counts)
        got_counts = (st = new_i64(dev, nu, counts)) == NG_OK;
    if (st == NG_OK && nu && (index || counts)) {
        SearchKey key = skey(Q_UFINISH);
        key.flag = index != NULL;
        key.flag2 = counts != NULL;
        NgKArg args[6 * 4 + 1];
        int na = 0;
        ng_sort_kargs1(args, &na, &start, nu);
        if (index) {
            ng_sort_kargs1(args, &na, &perm, N);
            ng_sort_kargs1(args, &na, index, nu);
        }
        if (counts)
            ng_sort_kargs1(args, &na, counts, nu);
        args[na++].i = N;
        st = launch(dev, &key, args, na, nu, nu);
    }
    ng_array_release(&s);
    ng_array_release(&perm);
    ng_array_release(&gid);
    ng_array_release(&g1);
    ng_array_release(&start);
    if (st != NG_OK) {
        if (values->buf)
            ng_array_release(values);
        if (inverse && inverse->buf)
            ng_array_release(inverse);
        if (got_index)
            ng_array_release(index);
        if (got_counts)
            ng_array_release(counts);
    }
    return st;
}

/* Counts (weights NULL) or weight sums of the values of the 1-d integer
 * array x over bins 0..nbins-1 into a fresh out; negative values are skipped. */
/* How many chunks the chunked bincount plan uses (0: use the sorted plan).
 * cpu: weights in one chunk (NumPy's order, exact sums), counts in up to
 * 16; GPUs: enough chunks to fill the device while the partial table
 * (chunks x bins) stays within a few times the input. */
static int64_t bin_chunks(NgDevice *dev, int64_t n, int64_t nbins, bool weights)
{
    if (dev->be->target->par == NG_PAR_OPENMP) {
        int64_t T = weights ? 1 : (n + 32767) / 32768;
        if (T > 16)
            T = 16;
        while (T > 1 && T * nbins > 4 * n + 65536)
            T /= 2;
        return T < 1 ? 1 : T;
    }
    int64_t T = (n + 511) / 512;
    if (T > 8192)
        T = 8192;
    while (T > 1 && T * nbins > 8 * n + (1 << 20))
        T /= 2;
    return T >= 64 || T * 512 >= n ? T : 0;
}

static NgStatus bincount_run(const NgArray *x, const NgArray *weights, int64_t nbins, NgArray *out)
{
    NgDevice *dev = ng_array_device(x);
    NgDType odt = weights ? NG_FLOAT64 : NG_INT64;
    NgStatus st;
    int64_t T = bin_chunks(dev, x->size, nbins, weights != NULL);
    if (T > 0 || !x->size) {
        NgScalar zero = {.kind = NG_KIND_INT, .v.i = 0};
        if (!x->size || !nbins)
            return ng_op_full(dev, odt, 1, &nbins, &zero, out);
        NgArray part = {0};
        if ((st = ng_array_empty(dev, odt, 1, &nbins, out)) != NG_OK)
            return st;
        int64_t pshape[2] = {T, nbins};
        if (T > 1 && (st = ng_array_empty(dev, odt, 2, pshape, &part)) != NG_OK) {
            ng_array_release(out);
            return st;
        }
        SearchKey key = skey(Q_BIN_CHUNK);
        key.a = (int8_t)x->dtype;
        key.b = weights ? (int8_t)weights->dtype : 0;
        key.flag2 = weights != NULL;
        key.contig = x->strides[0] == ng_array_itemsize(x);
        NgKArg args[3 * 6];
        int na = 0;
        karg_vec(args, &na, x);
        if (weights)
            karg_vec(args, &na, weights);
        ng_sort_kargs2(args, &na, T > 1 ? &part : out, T, nbins);   /* one chunk: straight into out */
        st = launch(dev, &key, args, na, T, x->size + T * nbins);
        if (st == NG_OK && T > 1) {
            key.kind = Q_BIN_SUM;
            na = 0;
            ng_sort_kargs2(args, &na, &part, T, nbins);
            ng_sort_kargs1(args, &na, out, nbins);
            st = launch(dev, &key, args, na, nbins, T * nbins);
        }
        ng_array_release(&part);
        if (st != NG_OK)
            ng_array_release(out);
        return st;
    }
    if ((st = ng_array_empty(dev, weights ? NG_FLOAT64 : NG_INT64, 1, &nbins, out)) != NG_OK || !nbins)
        return st;
    NgArray xs = {0}, perm = {0};
    int64_t n = x->size;
    st = ng_op_astype(x, NG_INT64, &xs);
    if (st == NG_OK && weights)
        st = new_i64(dev, n, &perm);
    if (st == NG_OK)
        st = ng_sort_rows(&xs, weights ? &perm : NULL, true, n ? 1 : 0, n);
    if (st == NG_OK) {
        SearchKey key = skey(Q_BIN_SORTED);
        key.flag2 = weights != NULL;
        key.b = weights ? (int8_t)weights->dtype : 0;
        NgKArg args[4 * 4];
        int na = 0;
        ng_sort_kargs1(args, &na, &xs, n);
        if (weights) {
            ng_sort_kargs1(args, &na, &perm, n);
            karg_vec(args, &na, weights);
        }
        ng_sort_kargs1(args, &na, out, nbins);
        st = launch(dev, &key, args, na, nbins, n + nbins);
    }
    ng_array_release(&xs);
    ng_array_release(&perm);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_op_bincount(const NgArray *x, const NgArray *weights, int64_t minlength, NgArray *out)
{
    if (x->ndim != 1)
        return ng_error_set(NG_ERR_VALUE, x->ndim ? "object too deep for desired array"
                                                  : "object of too small depth for desired array");
    if (x->dtype == NG_UINT64) { /* NumPy casts it to intp: values past INT64_MAX turn negative */
        NgArray t;
        NgStatus st = ng_op_astype(x, NG_INT64, &t);
        if (st != NG_OK)
            return st;
        st = ng_op_bincount(&t, weights, minlength, out);
        ng_array_release(&t);
        return st;
    }
    if (x->dtype != NG_BOOL && !ng_dtype_is_int(x->dtype))
        return ng_error_set(NG_ERR_TYPE, "Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                            ng_dtype_info(x->dtype)->name);
    if (minlength < 0)
        return ng_error_set(NG_ERR_VALUE, "'minlength' must not be negative");
    if (weights && (weights->ndim != 1 || weights->shape[0] != x->shape[0]))
        return ng_error_set(NG_ERR_VALUE, "The weights and list don't have the same length.");
    if (weights && ng_dtype_is_complex(weights->dtype)) /* NumPy casts the weights to float64, 'safe' */
        return ng_error_set(NG_ERR_TYPE, "Cannot cast array data from dtype('%s') to dtype('float64') according to the rule 'safe'",
                            ng_dtype_info(weights->dtype)->name);
    int64_t lo = 0, hi = -1;
    NgStatus st;
    if (x->size && (st = int_range(x, &lo, &hi)) != NG_OK)
        return st;
    if (lo < 0)
        return ng_error_set(NG_ERR_VALUE, "'list' argument must have no negative elements");
    int64_t nbins = hi + 1 > minlength ? hi + 1 : minlength;
    return bincount_run(x, weights, nbins, out);
}

/* The cells of a non-uniform histogram's table: a few per bin (most cells
 * then hold at most one edge), within a table that stays in cache. */
static int64_t hist_cells(int64_t nbins)
{
    int64_t m = 4 * nbins;
    return m < 16 ? 16 : m > (1 << 18) ? (1 << 18) : m;
}

/* The cell table of edges over [first, last] (build_hist_table) into a fresh
 * int64 array of M + 1 entries; *inv the cells per unit. */
static NgStatus hist_table(NgDevice *dev, const NgArray *edges, NgDType ct, double first, double last, NgArray *table,
                           double *inv)
{
    int64_t M = hist_cells(edges->size - 1);
    double width = (last - first) / (double)M;
    *inv = (double)M / (last - first);
    NgStatus st = new_i64(dev, M + 1, table);
    if (st != NG_OK)
        return st;
    SearchKey key = skey(Q_HIST_TABLE);
    key.b = (int8_t)edges->dtype;
    key.c = (int8_t)ct;
    NgKArg args[2 * 4 + 2];
    int na = 0;
    karg_vec(args, &na, edges);
    ng_sort_kargs1(args, &na, table, M + 1);
    args[na++].f = first;
    args[na++].f = width;
    if ((st = launch(dev, &key, args, na, M + 1, (M + 1) * 16)) != NG_OK)
        ng_array_release(table);
    return st;
}

/* Counts of the values per bin (weights NULL: counted per chunk by the bin
 * kernel itself, where bin_chunks gives a chunked plan) or the sums of their
 * weights (a bin number per value, then bincount). */
NgStatus ng_op_histogram(const NgArray *a, const NgArray *edges, bool uniform, double first, double last,
                         double denom, const NgArray *weights, NgArray *out)
{
    if (edges->ndim != 1 || edges->size < 2)
        return ng_error_set(NG_ERR_VALUE, "`bins` must be 1d, when an array");
    if (!ng_dtype_info(a->dtype)->supported || !ng_dtype_info(edges->dtype)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(a->dtype)->name);
    if (weights && (weights->size != a->size))
        return ng_error_set(NG_ERR_VALUE, "weights should have the same shape as a.");
    NgDevice *dev = ng_array_device(a);
    NgDType ct = uniform ? edges->dtype : ng_dtype_promote(a->dtype, edges->dtype);
    if (!ng_dtype_is_float(ct))
        ct = NG_FLOAT64;
    int64_t n = a->size, nbins = edges->size - 1;
    int64_t T = weights || !n ? 0 : bin_chunks(dev, n, nbins, false);
    NgArray ac = {0}, idx = {0}, wc = {0}, table = {0}, part = {0};
    double inv = 0;
    NgStatus st = ng_op_ascontiguous(a, false, &ac);
    if (st == NG_OK && n && !uniform)
        st = hist_table(dev, edges, ct, first, last, &table, &inv);
    if (st == NG_OK && T > 0) { /* counts straight from the values: (T, nbins) partial counts */
        int64_t pshape[2] = {T, nbins};
        st = ng_array_empty(dev, NG_INT64, 1, &nbins, out);
        if (st == NG_OK && T > 1 && (st = ng_array_empty(dev, NG_INT64, 2, pshape, &part)) != NG_OK)
            ng_array_release(out);
    } else if (st == NG_OK) {
        st = new_i64(dev, n, &idx);
    }
    if (st == NG_OK && weights)
        st = ng_op_ascontiguous(weights, false, &wc);
    if (st == NG_OK && n) {
        SearchKey key = skey(Q_HIST);
        key.a = (int8_t)a->dtype;
        key.b = (int8_t)edges->dtype;
        key.c = (int8_t)ct;
        key.flag = uniform;
        key.flag2 = T > 0;
        NgKArg args[4 * 4 + 4];
        int na = 0;
        ng_sort_kargs1(args, &na, &ac, n);
        karg_vec(args, &na, edges);
        if (!uniform)
            ng_sort_kargs1(args, &na, &table, table.size);
        if (T > 0)
            ng_sort_kargs2(args, &na, T > 1 ? &part : out, T, nbins);   /* one chunk: straight into out */
        else
            ng_sort_kargs1(args, &na, &idx, n);
        args[na++].f = first;
        args[na++].f = last;
        args[na++].f = denom;
        if (!uniform)
            args[na++].f = inv;
        st = launch(dev, &key, args, na, T > 0 ? T : n, n + T * nbins);
        if (st == NG_OK && T > 1) {
            SearchKey sum = skey(Q_BIN_SUM);
            na = 0;
            ng_sort_kargs2(args, &na, &part, T, nbins);
            ng_sort_kargs1(args, &na, out, nbins);
            st = launch(dev, &sum, args, na, nbins, T * nbins);
        }
        if (st != NG_OK && T > 0)
            ng_array_release(out);
    }
    if (st == NG_OK && T == 0) {
        NgArray w1 = {0};
        if (weights) { /* a 1-d view of the contiguous weights */
            ng_array_view(&wc, &w1);
            w1.ndim = 1;
            w1.shape[0] = n;
            w1.strides[0] = ng_array_itemsize(&wc);
        }
        st = bincount_run(&idx, weights ? &w1 : NULL, nbins, out);
        ng_array_release(&w1);
    }
    ng_array_release(&ac);
    ng_array_release(&idx);
    ng_array_release(&wc);
    ng_array_release(&table);
    ng_array_release(&part);
    return st;
}

NgStatus ng_op_quantile(const NgArray *a, int axis, const NgArray *q, NgDType dt, bool arranged, NgArray *out)
{
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    if (!ng_dtype_is_float(dt) || q->dtype != NG_FLOAT64 || q->ndim != 1)
        return ng_error_set(NG_ERR_INTERNAL, "quantile: float result and 1-d float64 q expected");
    if (a->shape[axis] == 0)
        return ng_error_set(NG_ERR_INDEX, "index -1 is out of bounds for axis %d with size 0", axis);
    NgArray s;
    int64_t rows, n;
    if ((st = ng_sort_axis_last(a, axis, true, &s, &rows, &n)) != NG_OK)
        return st;
    if (!arranged)
        st = ng_sort_rows(&s, NULL, false, rows, n);
    int64_t oshape[NG_MAXDIMS];
    oshape[0] = q->shape[0];
    for (int d = 0; d < s.ndim - 1; d++)
        oshape[d + 1] = s.shape[d];
    if (st == NG_OK)
        st = ng_array_empty(ng_array_device(a), dt, s.ndim, oshape, out);
    if (st == NG_OK && rows && q->shape[0]) {
        SearchKey key = skey(Q_QUANT);
        key.a = (int8_t)a->dtype;
        key.c = (int8_t)dt;
        NgKArg args[3 * 6];
        int na = 0;
        ng_sort_kargs2(args, &na, &s, rows, n);
        karg_vec(args, &na, q);
        ng_sort_kargs2(args, &na, out, q->shape[0], rows);
        if ((st = launch(ng_array_device(a), &key, args, na, q->shape[0] * rows, q->shape[0] * rows)) != NG_OK)
            ng_array_release(out);
    }
    ng_array_release(&s);
    return st;
}

/* ---- isin ---- */

/* The minimum or maximum of a non-empty integer or bool array as a 64-bit
 * pattern: sign-extended for signed dtypes, zero-extended otherwise. */
static NgStatus int_extreme(NgReduceOp op, const NgArray *a, int64_t *v)
{
    NgArray r;
    NgStatus st = ng_op_reduce(op, a, -1, NULL, false, NG_NODTYPE, 0, &r);
    if (st != NG_OK)
        return st;
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16; uint32_t u32; } u;
    u.i64 = 0;
    st = ng_array_download(&r, &u, NULL);
    ng_array_release(&r);
    if (st != NG_OK)
        return st;
    bool sgn = ng_dtype_is_signed(a->dtype);
    switch (ng_array_itemsize(a)) {
    case 1: *v = sgn ? u.i8 : u.u8; break;
    case 2: *v = sgn ? u.i16 : u.u16; break;
    case 4: *v = sgn ? u.i32 : (int64_t)u.u32; break;
    default: *v = u.i64; break;
    }
    return NG_OK;
}

/* The largest value of integer dtype dt (bool as uint8), as uint64. */
static uint64_t int_max(NgDType dt)
{
    int bits = ng_dtype_info(dt)->itemsize * 8;
    if (ng_dtype_is_signed(dt))
        return (UINT64_C(1) << (bits - 1)) - 1;
    return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* isin through a table of the test values' range: marks, then one lookup
 * per element. *used is false (nothing done) where the range is too wide:
 * beyond test's dtype (NumPy's overflow check: RuntimeError when the table
 * was asked for) or, unless asked for, beyond NumPy's memory bound. */
static NgStatus isin_table(const NgArray *v, const NgArray *test, bool invert, int kind, NgArray *out, bool *used)
{
    NgDevice *dev = ng_array_device(v);
    int64_t lo, hi;
    NgStatus st = int_extreme(NG_RED_MIN, test, &lo);
    if (st == NG_OK)
        st = int_extreme(NG_RED_MAX, test, &hi);
    if (st != NG_OK)
        return st;
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    *used = false;
    if (range > int_max(test->dtype)) {
        if (kind == NG_ISIN_TABLE)
            return ng_error_set(NG_ERR_INTERNAL, "You have specified kind='table', but the range of values in `ar2` or "
                                "`ar1` exceed the maximum integer of the datatype. Please set `kind` to None or 'sort'.");
        return NG_OK;
    }
    /* NumPy's bound: the table at most 6x the two inputs (a small table always pays) */
    uint64_t bound = 6 * ((uint64_t)v->size + (uint64_t)test->size);
    if (kind != NG_ISIN_TABLE && range > bound && range >= (1u << 16))
        return NG_OK;
    if (range >= (uint64_t)INT64_MAX)
        return ng_error_set(NG_ERR_NOMEM, "isin: a table of %llu + 1 entries does not fit in memory",
                            (unsigned long long)range);
    int64_t tn = (int64_t)range + 1;
    NgScalar zero;
    memset(&zero, 0, sizeof zero);
    zero.kind = NG_KIND_INT;
    NgArray table = {0};
    if ((st = ng_op_full(dev, NG_UINT8, 1, &tn, &zero, &table)) != NG_OK)
        return st;
    SearchKey key = skey(Q_ISIN_MARK);
    key.a = (int8_t)test->dtype;
    key.contig = test->strides[0] == ng_array_itemsize(test);
    NgKArg args[3 * 4 + 2];
    int na = 0;
    karg_vec(args, &na, test);
    ng_sort_kargs1(args, &na, &table, tn);
    args[na++].i = lo;
    st = launch(dev, &key, args, na, test->size, test->size);
    if (st == NG_OK) {
        key = skey(Q_ISIN_TABLE);
        key.a = (int8_t)v->dtype;
        key.flag = invert;
        bool vs = ng_dtype_is_signed(v->dtype), ts = ng_dtype_is_signed(test->dtype);
        key.flag2 = (vs && !ts) || (v->dtype == NG_UINT64 && ts);
        na = 0;
        ng_sort_kargs1(args, &na, v, v->size);
        ng_sort_kargs1(args, &na, &table, tn);
        ng_sort_kargs1(args, &na, out, v->size);
        args[na++].i = lo;
        args[na++].i = (int64_t)range;
        st = launch(dev, &key, args, na, v->size, v->size);
    }
    ng_array_release(&table);
    *used = st == NG_OK;
    return st;
}

NgStatus ng_op_isin(const NgArray *element, const NgArray *test, bool invert, int kind, NgArray *out)
{
    if (kind != NG_ISIN_AUTO && kind != NG_ISIN_SORT && kind != NG_ISIN_TABLE)
        return ng_error_set(NG_ERR_VALUE, "isin: bad kind %d", kind);
    bool ints = (ng_dtype_is_int(element->dtype) || element->dtype == NG_BOOL) &&
                (ng_dtype_is_int(test->dtype) || test->dtype == NG_BOOL);
    if (kind == NG_ISIN_TABLE && !ints)
        return ng_error_set(NG_ERR_VALUE, "The 'table' method is only supported for boolean or integer arrays. "
                            "Please select 'sort' or None for kind.");
    NgDType ct = ng_dtype_promote(element->dtype, test->dtype);
    if (ct == NG_NODTYPE || !ng_dtype_info(ct)->supported)
        return ng_error_set(NG_ERR_TYPE, "isin: no common dtype for %s and %s", ng_dtype_info(element->dtype)->name,
                            ng_dtype_info(test->dtype)->name);
    /* uint64 with signed integers: exact, as NumPy's == (its loop for a short test), not in
     * float64: only values that are >= 0 in both dtypes can be equal, compared in test's */
    bool mixed = ints && ng_dtype_is_float(ct);
    if (mixed)
        ct = ng_dtype_is_signed(test->dtype) ? NG_INT64 : NG_UINT64;
    NgDevice *dev = ng_array_device(element);
    int64_t n = element->size, flat = test->size;
    NgArray v = {0}, t = {0}, s = {0}, vflat, tflat;
    NgStatus st = ng_array_empty(dev, NG_BOOL, element->ndim, element->shape, out);
    if (st != NG_OK)
        return st;
    if (n == 0)
        return NG_OK;
    if (flat == 0) { /* nothing to find */
        NgScalar fill;
        memset(&fill, 0, sizeof fill);
        fill.kind = NG_KIND_BOOL;
        fill.v.i = invert;
        ng_array_release(out);
        return ng_op_full(dev, NG_BOOL, element->ndim, element->shape, &fill, out);
    }
    /* 1-d views of contiguous copies (none when already contiguous) */
    if ((st = ng_op_ascontiguous(element, false, &v)) == NG_OK && (st = ng_op_reshape(&v, 1, &n, &vflat)) == NG_OK) {
        ng_array_release(&v);
        v = vflat;
    }
    if (st == NG_OK && (st = ng_op_ascontiguous(test, false, &t)) == NG_OK &&
        (st = ng_op_reshape(&t, 1, &flat, &tflat)) == NG_OK) {
        ng_array_release(&t);
        t = tflat;
    }
    bool done = false;
    NgArray o1;
    if (st == NG_OK)
        st = ng_op_reshape(out, 1, &n, &o1);
    if (st == NG_OK) {
        if (ints && kind != NG_ISIN_SORT)
            st = isin_table(&v, &t, invert, kind, &o1, &done);
        if (st == NG_OK && !done) { /* the test values sorted, then a binary search per element */
            NgArray tc;
            if ((st = ng_op_astype(&t, ct, &tc)) == NG_OK) {
                st = ng_op_ascontiguous(&tc, true, &s);
                ng_array_release(&tc);
            }
            if (st == NG_OK)
                st = ng_sort_rows(&s, NULL, false, 1, flat);
            if (st == NG_OK) {
                SearchKey key = skey(Q_ISIN_SORT);
                key.a = (int8_t)v.dtype;
                key.c = (int8_t)ct;
                key.flag = invert;
                key.flag2 = mixed;
                NgKArg args[3 * 4];
                int na = 0;
                ng_sort_kargs1(args, &na, &v, n);
                ng_sort_kargs1(args, &na, &s, flat);
                ng_sort_kargs1(args, &na, &o1, n);
                st = launch(dev, &key, args, na, n, n);
            }
        }
        ng_array_release(&o1);
    }
    ng_array_release(&v);
    ng_array_release(&t);
    ng_array_release(&s);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

/* ---- interp ---- */

NgStatus ng_op_interp(const NgArray *x, const NgArray *xp, const NgArray *fp, const double *left, const double *right,
                      NgArray *out)
{
    if (x->dtype != NG_FLOAT64 || xp->dtype != NG_FLOAT64 || fp->dtype != NG_FLOAT64)
        return ng_error_set(NG_ERR_TYPE, "interp: float64 arrays are needed, not %s, %s, %s", ng_dtype_info(x->dtype)->name,
                            ng_dtype_info(xp->dtype)->name, ng_dtype_info(fp->dtype)->name);
    if (xp->ndim != 1 || fp->ndim != 1)
        return ng_error_set(NG_ERR_VALUE, "interp: xp and fp must be 1-d");
    if (xp->size == 0)
        return ng_error_set(NG_ERR_VALUE, "array of sample points is empty");
    if (fp->size != xp->size)
        return ng_error_set(NG_ERR_VALUE, "fp and xp are not of the same length.");
    NgDevice *dev = ng_array_device(x);
    int64_t n = x->size, np_ = xp->size;
    NgArray xc = {0}, xpc = {0}, fpc = {0};
    NgStatus st = ng_array_empty(dev, NG_FLOAT64, x->ndim, x->shape, out);
    if (st != NG_OK || n == 0)
        return st;
    if ((st = ng_op_ascontiguous(x, false, &xc)) == NG_OK && (st = ng_op_ascontiguous(xp, false, &xpc)) == NG_OK)
        st = ng_op_ascontiguous(fp, false, &fpc);
    if (st == NG_OK) {
        SearchKey key = skey(Q_INTERP);
        key.flag = left != NULL;
        key.flag2 = right != NULL;
        NgKArg args[4 * 4 + 2];
        int na = 0;
        ng_sort_kargs1(args, &na, &xc, n);
        ng_sort_kargs1(args, &na, &xpc, np_);
        ng_sort_kargs1(args, &na, &fpc, np_);
        ng_sort_kargs1(args, &na, out, n);
        args[na++].f = left ? *left : 0.0;
        args[na++].f = right ? *right : 0.0;
        st = launch(dev, &key, args, na, n, n);
    }
    ng_array_release(&xc);
    ng_array_release(&xpc);
    ng_array_release(&fpc);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}
