/* Reductions: sum prod mean var std min max argmin argmax any all
 * count_nonzero over any set of axes, as kernels.
 *
 * The input is viewed with its kept axes first and reduced axes last, each
 * group collapsed where contiguous. Three loop shapes:
 *   - full reduction (nothing kept): one parallel loop with an OpenMP-style
 *     reduction over the (collapsed) elements; float32 accumulates in float64;
 *   - kept axes contiguous, reduced axes outer (sum(axis=0) of a matrix): the
 *     output is accumulated in place, row by row, in parallel over blocks of
 *     output columns, so memory is read in order;
 *   - otherwise: parallel over output elements, each reducing its own
 *     elements (vectorised where the reduced axis is unit-stride).
 * GPUs (block-level kernels, see NgIrThread) take two-level tree reductions
 * instead where they pay: a full reduction runs as blocks whose threads each
 * combine a grid-stride share, then combine in the block (shuffles / local
 * memory), one partial per block, then one block combines the partials and
 * finishes. On a real GPU (not OpenCL on a CPU) a reduction along
 * unit-stride rows gives each row to a block, and one down columns runs a
 * thread per output column (adjacent threads read adjacent memory).
 * var/std take two kernels: the mean, then the mean squared deviation
 * (|x - mean|^2 for complex input, a real result).
 *
 * Accumulators as NumPy's results need them: float32 sums and means
 * accumulate in float64, complex64 ones in complex128, float16 ones in
 * float32 (NumPy's float16 loops accumulate in float and round once).
 * On a cpu, float32/float64 sums, means, var and std follow NumPy's order
 * in the element dtype instead, bit for bit (numpy_order): a kept innermost
 * axis adds the elements one by one (RedKey.inorder), a reduced innermost
 * run is NumPy's pairwise sum (build_pairwise), runs outside it added in
 * order, and reduced blocks that do not collapse go in NumPy's buffer
 * chunks (run_flat).
 * float16 var/std follow NumPy's _var step by step in half precision: the
 * mean rounded to half, each deviation and its square rounded to half, the
 * sum of squares rounded to half before the division. Complex min/max and
 * argmin/argmax use NumPy's lexicographic order, a NaN in either part
 * propagating (argmax: the first NaN). */
#include <math.h>
#include <string.h>

#include "ops/ops_internal.h"

enum { PLAN_FULL, PLAN_ROWS, PLAN_EACH, PLAN_BLOCKS };

#define RED_MAX_BLOCKS 1024      /* partials a full reduction leaves on a GPU */
#define RED_PER_THREAD 16        /* elements a GPU thread combines before the tree, at least */
#define RED_RANKED_MIN 32768     /* elements from which a GPU argmax runs in parallel (below: one thread) */

/* finish(): what happens to the accumulator before the store */
enum { POST_NONE, POST_DIVIDE, POST_DIVIDE_SQRT };

typedef struct RedKey {
    uint8_t tag;          /* 'R' */
    uint8_t op;           /* NgReduceOp */
    uint8_t plan;         /* PLAN_* */
    int8_t in;            /* input dtype */
    int8_t acc;           /* accumulator dtype */
    int8_t out;           /* output dtype */
    uint8_t nkept, nred;  /* collapsed kept / reduced ranks */
    uint8_t in_contig;    /* input's last (collapsed) axis is unit-stride */
    uint8_t has_mean;     /* var/std: a mean array parameter */
    uint8_t serial;       /* full reduction in one thread (small, on a GPU) */
    uint8_t ranked;       /* argmin/argmax of a whole array as a ranked reduction (parallel):
                             1 on cpu; 2 on a GPU, with a key cell and a lock parameter */
    uint8_t post;         /* POST_*: divide by count (mean/var), then sqrt (std) */
    uint8_t half;         /* float16 var/std steps: round to half, divide in float64 (see finish) */
    uint8_t runs;         /* float16: the innermost `runs` reduced loops are one float32 run (see half_steps) */
    int8_t mdt;           /* var/std: dtype of the mean parameter */
    int8_t ddt;           /* var/std: dtype the deviation x - mean is computed in */
    uint8_t blocked;      /* argmin/argmax of one reduced axis on a cpu: blocks of ARG_BLOCK (see arg_blocks) */
    uint8_t pairwise;     /* float32/float64 sum/mean of one unit-stride reduced axis on a cpu: NumPy's
                             pairwise sum (see pw_row); PW_ROWS: each row (or the whole) in one
                             thread, PW_SPLIT: the whole array's top 2^D subtrees in parallel,
                             PW_FLAT: NumPy's buffer chunks of a flat copy (see run_flat) */
    uint8_t cstride;      /* pairwise: the run's stride (2..4) as a constant, the run passed as
                             unit-stride: position p reads element cstride * p (the compiler's
                             strided vector loads; a run-time stride made gathers: 0.5x NumPy) */
    uint8_t flipped;      /* pairwise: the run is reversed (stride -1), passed forward; position p
                             reads element n - 1 - p (contiguous loads the compiler vectorises) */
    uint8_t inorder;      /* float32/float64 sums on a cpu whose innermost axis in memory is kept:
                             each output adds its elements one by one in memory order, in the
                             element dtype (NumPy's reduction loop adds the rows into the result) */
} RedKey;

enum { PW_ROWS = 1, PW_SPLIT = 2, PW_FLAT = 3 };
enum { PW_BLOCK = 128,       /* NumPy's PW_BLOCKSIZE: a leaf's most elements */
       PW_STACK = 48,        /* the tree's depth, at most (a leaf holds >= 64 elements: n < 2^52) */
       PW_SPLIT_MIN = 65536, /* elements of a subtree run apart (PW_SPLIT), at least (fewer: one
                                thread, 10^5 float64 in 12 us, in less than waking a team costs) */
       PW_SPLIT_MAX = 64 };  /* subtrees run apart, at most */

enum { ARG_BLOCK = 256 };

static NgIrRef identity(NgIrKernel *k, NgReduceOp op, NgDType acc)
{
    if (ng_dtype_is_complex(acc) && (op == NG_RED_MIN || op == NG_RED_MAX)) { /* ends of NumPy's order */
        double end = op == NG_RED_MIN ? INFINITY : -INFINITY;
        return ng_ir_const_c(k, acc, end, end);
    }
    switch (op) {
    case NG_RED_PROD: case NG_RED_ALL: return ng_ir_const_i(k, acc, 1);
    case NG_RED_MIN:
        if (ng_dtype_is_float(acc)) return ng_ir_const_f(k, acc, INFINITY);
        if (acc == NG_BOOL) return ng_ir_const_i(k, acc, 1);
        if (ng_dtype_is_signed(acc)) return ng_ir_const_i(k, acc, (int64_t)((UINT64_C(1) << (ng_dtype_info(acc)->itemsize * 8 - 1)) - 1));
        return ng_ir_const_i(k, acc, ng_dtype_info(acc)->itemsize == 8 ? -1 : (int64_t)((UINT64_C(1) << (ng_dtype_info(acc)->itemsize * 8)) - 1));
    case NG_RED_MAX:
        if (ng_dtype_is_float(acc)) return ng_ir_const_f(k, acc, -INFINITY);
        if (ng_dtype_is_signed(acc)) return ng_ir_const_i(k, acc, ng_dtype_info(acc)->itemsize == 8 ? INT64_MIN : -(INT64_C(1) << (ng_dtype_info(acc)->itemsize * 8 - 1)));
        return ng_ir_const_i(k, acc, 0);
    default: return ng_ir_const_i(k, acc, 0);
    }
}

static NgOp combine_op(NgReduceOp op)
{
    switch (op) {
    case NG_RED_PROD: return NG_OP_MUL;
    case NG_RED_MIN: return NG_OP_MINIMUM;
    case NG_RED_MAX: return NG_OP_MAXIMUM;
    case NG_RED_ANY: return NG_OP_BITOR;
    case NG_RED_ALL: return NG_OP_BITAND;
    default: return NG_OP_ADD;
    }
}

/* The value an element contributes, in the accumulator's dtype. */
static NgIrRef contribution(NgIrKernel *k, const RedKey *key, NgIrRef x, NgIrRef mean)
{
    NgDType acc = (NgDType)key->acc;
    switch ((NgReduceOp)key->op) {
    case NG_RED_ANY: case NG_RED_ALL: return ng_ir_cast(k, NG_BOOL, x);
    case NG_RED_COUNT_NONZERO: return ng_ir_cast(k, acc, ng_ir_cast(k, NG_BOOL, x));
    case NG_RED_VAR: case NG_RED_STD: { /* |x - mean|^2: d * conj(d) has it as its real part */
        NgDType ddt = (NgDType)key->ddt;
        NgIrRef d = ng_ir_binary(k, NG_OP_SUB, ddt, ng_ir_cast(k, ddt, x), ng_ir_cast(k, ddt, mean));
        NgIrRef d2 = ng_dtype_is_complex(ddt) ? ng_ir_unary(k, NG_OP_CONJUGATE, ddt, d) : d;
        return ng_ir_cast(k, acc, ng_ir_binary(k, NG_OP_MUL, ddt, d, d2));
    }
    default: /* dtype=float16 of a wider input: NumPy casts each element to half first */
        if (key->out == NG_FLOAT16 && key->in != NG_FLOAT16)
            x = ng_ir_cast(k, NG_FLOAT16, x);
        return ng_ir_cast(k, acc, x);
    }
}

/* Final value from the accumulator: divide by the count, sqrt, cast.
 * key->half (float16 var/std): the sum is rounded to half, divided in
 * float64 and rounded again, and the sqrt is a half one, as NumPy's _var
 * and _std do (a float16 array divided by an intp count). */
static NgIrRef finish(NgIrKernel *k, const RedKey *key, NgIrRef acc, int count_param)
{
    NgDType adt = (NgDType)key->acc;
    if (key->post != POST_NONE && key->half) {
        NgIrRef n = ng_ir_cast(k, NG_FLOAT64, ng_ir_scalar(k, count_param));
        NgIrRef q = ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT16, acc)), n);
        acc = ng_ir_cast(k, NG_FLOAT16, q);
        if (key->post == POST_DIVIDE_SQRT)
            acc = ng_ir_unary(k, NG_OP_SQRT, NG_FLOAT16, acc);
    } else if (key->post != POST_NONE) {
        NgIrRef n = ng_ir_cast(k, adt, ng_ir_scalar(k, count_param));
        acc = ng_ir_binary(k, NG_OP_TRUEDIV, adt, acc, n);
        if (key->post == POST_DIVIDE_SQRT)
            acc = ng_ir_unary(k, NG_OP_SQRT, adt, acc);
    }
    return ng_ir_cast(k, (NgDType)key->out, acc);
}

static NgIrRef loop(NgIrKernel *k, int var, NgIrRef stop, NgIrRef body, unsigned flags)
{
    return ng_ir_for(k, var, ng_ir_const_i(k, NG_INT64, 0), stop, ng_ir_const_i(k, NG_INT64, 1), body, flags);
}

/* Marks the parallel loop of an argmin/argmax as a ranked reduction of
 * (acc, best): the best value, then the smallest index; a NaN wins. */
static void rank_argbest(NgIrKernel *k, const RedKey *key, NgIrRef loop, int acc, int best, int kcell, int out,
                         int lock)
{
    NgIrRanked rk = {.loop = loop, .op = key->op == NG_RED_ARGMAX ? NG_OP_MAXIMUM : NG_OP_MINIMUM,
                     .nan_wins = true, .nvars = 2, .vars = {acc, best}, .cells = {kcell, out}, .lock = lock};
    ng_ir_reduce_ranked(k, &rk);
}

/* argmax (argmin) of the one reduced axis (loop variable v, element x) in
 * blocks of ARG_BLOCK: a block's max (min) and whether it holds a NaN come
 * from a loop the C compiler vectorises; only a block that changes the
 * answer (a larger value, or a NaN while the best so far, acc, is not one)
 * is searched for the first index of its max (of its first NaN), which
 * becomes the answer (best): the first index of the best still wins. An
 * element-by-element rule ran a select chain, ~5 cycles an element (10^6
 * float64: 1.2 ms, NumPy 0.3). */
static NgIrRef arg_blocks(NgIrKernel *k, const RedKey *key, int in, int v, NgIrRef x, int acc, int best,
                          unsigned flags)
{
    NgDType dt = (NgDType)key->in;
    bool fl = ng_dtype_is_float(dt), is_max = key->op == NG_RED_ARGMAX;
    NgOp cmp = is_max ? NG_OP_GT : NG_OP_LT;
    int vb = ng_ir_var(k, NG_INT64), ve = ng_ir_var(k, NG_INT64), vm = ng_ir_var(k, dt);
    int vn = fl ? ng_ir_var(k, NG_BOOL) : -1;
    NgIrRef b = ng_ir_varref(k, vb), e = ng_ir_varref(k, ve), m = ng_ir_varref(k, vm), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef n = ng_ir_shape(k, in, key->nkept), a = ng_ir_varref(k, acc);
    NgIrRef steps[2] = {ng_ir_assign(k, vm, ng_ir_select(k, ng_ir_binary(k, cmp, NG_BOOL, x, m), x, m)),
                        fl ? ng_ir_assign(k, vn, ng_ir_binary(k, NG_OP_BITOR, NG_BOOL, ng_ir_varref(k, vn),
                                                              ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x)))
                           : NG_IR_NONE};
    NgIrRef scan = ng_ir_for(k, v, b, e, one, ng_ir_block(k, fl ? 2 : 1, steps), 0);
    ng_ir_reduce(k, scan, vm, fl ? (is_max ? NG_OP_FMAX : NG_OP_FMIN) : (is_max ? NG_OP_MAXIMUM : NG_OP_MINIMUM));
    if (fl)
        ng_ir_reduce(k, scan, vn, NG_OP_BITOR);
    NgIrRef beats = ng_ir_binary(k, cmp, NG_BOOL, m, a);
    NgIrRef hit = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, x, m);
    if (fl) {
        beats = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, a)),
                             ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_varref(k, vn), beats));
        hit = ng_ir_select(k, ng_ir_varref(k, vn), ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x), hit);
    }
    NgIrRef take[3] = {ng_ir_assign(k, acc, x), ng_ir_assign(k, best, ng_ir_varref(k, v)), ng_ir_jump(k, NG_IR_BREAK)};
    NgIrRef search = ng_ir_for(k, v, b, e, one, ng_ir_if(k, hit, ng_ir_block(k, 3, take), NG_IR_NONE), 0);
    NgIrRef body[5];
    int nb = 0;
    body[nb++] = ng_ir_let(k, ve, ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64,
                                               ng_ir_binary(k, NG_OP_ADD, NG_INT64, b, ng_ir_const_i(k, NG_INT64, ARG_BLOCK)), n));
    body[nb++] = ng_ir_let(k, vm, identity(k, is_max ? NG_RED_MAX : NG_RED_MIN, dt));
    if (fl)
        body[nb++] = ng_ir_let(k, vn, ng_ir_const_i(k, NG_BOOL, 0));
    body[nb++] = scan;
    body[nb++] = ng_ir_if(k, beats, search, NG_IR_NONE);
    return ng_ir_for(k, vb, ng_ir_const_i(k, NG_INT64, 0), n, ng_ir_const_i(k, NG_INT64, ARG_BLOCK),
                     ng_ir_block(k, nb, body), flags);
}

/* NumPy's pairwise sum (its @TYPE@_pairwise_sum, which the add loop calls
 * once on the whole unit-stride inner loop: a C-contiguous array's every
 * element, or one row), in the element dtype, bit for bit:
 *   n < 8:          0 + x0 + x1 + ... in order;
 *   n <= PW_BLOCK:  eight sums r[j] of x[j], x[j + 8], ... (the first
 *                   n - n % 8 elements), ((r0 + r1) + (r2 + r3)) +
 *                   ((r4 + r5) + (r6 + r7)), then the rest added in order;
 *   otherwise:      the sum of the first n2 = n / 2 - (n / 2) % 8 elements
 *                   plus the sum of the others, each by this rule.
 * The recursion runs as a loop over an explicit stack of nodes (start,
 * length, phase, value). PwRow: where a row's elements are. */
typedef struct PwRow {
    int in, K;    /* K: the run's axis (kept and outer reduced indices before it) */
    NgIrRef *idx; /* K indices, then room for the position */
    NgDType adt;
    const RedKey *key;
    NgIrRef mu;   /* var/std: the row's mean */
} PwRow;

/* The term of position pos: the element (var/std: (x - mean)^2). */
static NgIrRef pw_x(NgIrKernel *k, const PwRow *w, NgIrRef pos)
{
    if (w->key->flipped)
        pos = ng_ir_binary(k, NG_OP_SUB, NG_INT64,
                           ng_ir_binary(k, NG_OP_SUB, NG_INT64, ng_ir_shape(k, w->in, w->K), ng_ir_const_i(k, NG_INT64, 1)),
                           pos);
    if (w->key->cstride)
        pos = ng_ir_binary(k, NG_OP_MUL, NG_INT64, pos, ng_ir_const_i(k, NG_INT64, w->key->cstride));
    w->idx[w->K] = pos;
    return contribution(k, w->key, ng_ir_load(k, w->in, w->K + 1, w->idx), w->mu);
}

static NgIrRef i64(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }

static NgIrRef iop(NgIrKernel *k, NgOp op, NgIrRef a, NgIrRef b) { return ng_ir_binary(k, op, NG_INT64, a, b); }

/* A leaf, elements [b, b + m) with m <= PW_BLOCK, summed into variable v. */
static NgIrRef pw_leaf(NgIrKernel *k, const PwRow *w, NgIrRef b, NgIrRef m, int v)
{
    NgDType adt = w->adt;
    int i = ng_ir_var(k, NG_INT64), e = ng_ir_var(k, NG_INT64), r[8];
    NgIrRef iv = ng_ir_varref(k, i), ev = ng_ir_varref(k, e), end = iop(k, NG_OP_ADD, b, m);
    NgIrRef add_x = ng_ir_assign(k, v, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_varref(k, v), pw_x(k, w, iv)));
    NgIrRef small[2] = {ng_ir_assign(k, v, ng_ir_const_f(k, adt, 0.0)), ng_ir_for(k, i, b, end, i64(k, 1), add_x, 0)};
    NgIrRef big[12], step[8], rr[8];
    int nb = 0;
    for (int j = 0; j < 8; j++) {
        r[j] = ng_ir_var(k, adt);
        big[nb++] = ng_ir_let(k, r[j], pw_x(k, w, iop(k, NG_OP_ADD, b, i64(k, j))));
        rr[j] = ng_ir_varref(k, r[j]);
        step[j] = ng_ir_assign(k, r[j], ng_ir_binary(k, NG_OP_ADD, adt, rr[j], pw_x(k, w, iop(k, NG_OP_ADD, iv, i64(k, j)))));
    }
    big[nb++] = ng_ir_let(k, e, iop(k, NG_OP_SUB, end, iop(k, NG_OP_MOD, m, i64(k, 8))));
    big[nb++] = ng_ir_for(k, i, iop(k, NG_OP_ADD, b, i64(k, 8)), ev, i64(k, 8), ng_ir_block(k, 8, step), 0);
#define PW_ADD(x, y) ng_ir_binary(k, NG_OP_ADD, adt, x, y)
    big[nb++] = ng_ir_assign(k, v, PW_ADD(PW_ADD(PW_ADD(rr[0], rr[1]), PW_ADD(rr[2], rr[3])),
                                          PW_ADD(PW_ADD(rr[4], rr[5]), PW_ADD(rr[6], rr[7]))));
#undef PW_ADD
    big[nb++] = ng_ir_for(k, i, ev, end, i64(k, 1), add_x, 0);
    return ng_ir_if(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, m, i64(k, 8)), ng_ir_block(k, 2, small),
                    ng_ir_block(k, nb, big));
}

/* A node of two leaves (m > PW_BLOCK, its halves l = m / 16 * 8 and m - l
 * both at most PW_BLOCK, so at least 64), summed into v: both leaves' eight
 * sums run in one loop (16 independent chains: twice the adds in flight
 * of one leaf's 8), each in its own order. The second leaf has l or l + 8
 * elements in whole eights, then its m % 8 rest. */
static NgIrRef pw_pair(NgIrKernel *k, const PwRow *w, NgIrRef b, NgIrRef m, int v)
{
    NgDType adt = w->adt;
    int i = ng_ir_var(k, NG_INT64), l = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64), e = ng_ir_var(k, NG_INT64);
    int j = ng_ir_var(k, NG_INT64), q = ng_ir_var(k, adt);
    int ra = ng_ir_var_array(k, adt, 8), rb = ng_ir_var_array(k, adt, 8);
    NgIrRef iv = ng_ir_varref(k, i), lv = ng_ir_varref(k, l), cv = ng_ir_varref(k, c), ev = ng_ir_varref(k, e);
    NgIrRef jv = ng_ir_varref(k, j), one = i64(k, 1), eight = i64(k, 8);
    NgIrRef stmts[12];
    int ns = 0;
    stmts[ns++] = ng_ir_let(k, l, iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, m, i64(k, 16)), eight));
    stmts[ns++] = ng_ir_let(k, c, iop(k, NG_OP_ADD, b, lv)); /* the second leaf's start */
    stmts[ns++] = ng_ir_let(k, ra, ng_ir_const_f(k, adt, 0.0));
    stmts[ns++] = ng_ir_let(k, rb, ng_ir_const_f(k, adt, 0.0));
    /* lanes j of both leaves: ra[j] = x[b + j], then += x[b + 8 + j], ... (i: the first
     * leaf's position; i + l the second's), each lane its own sum: a vector of lanes */
    NgIrRef at_a = iop(k, NG_OP_ADD, iv, jv), at_b = iop(k, NG_OP_ADD, iop(k, NG_OP_ADD, iv, lv), jv);
    NgIrRef lanes[2] = {
        ng_ir_assign_element(k, ra, jv, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_element(k, ra, jv), pw_x(k, w, at_a))),
        ng_ir_assign_element(k, rb, jv, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_element(k, rb, jv), pw_x(k, w, at_b)))};
    NgIrRef inner = ng_ir_for(k, j, i64(k, 0), eight, one, ng_ir_block(k, 2, lanes), NG_IR_SIMD);
    stmts[ns++] = ng_ir_for(k, i, b, cv, eight, inner, 0);
    /* the second leaf's last whole eight, where it has one more */
    NgIrRef rm = iop(k, NG_OP_SUB, m, lv), end = iop(k, NG_OP_ADD, b, m);
    NgIrRef at_c = iop(k, NG_OP_ADD, iop(k, NG_OP_ADD, cv, lv), jv);
    NgIrRef more = ng_ir_for(k, j, i64(k, 0), eight, one,
                             ng_ir_assign_element(k, rb, jv, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_element(k, rb, jv),
                                                                          pw_x(k, w, at_c))), NG_IR_SIMD);
    stmts[ns++] = ng_ir_if(k, ng_ir_binary(k, NG_OP_GE, NG_BOOL, rm, iop(k, NG_OP_ADD, lv, eight)), more, NG_IR_NONE);
    stmts[ns++] = ng_ir_let(k, e, iop(k, NG_OP_SUB, end, iop(k, NG_OP_MOD, rm, eight)));
    NgIrRef rr[16];
    for (int t = 0; t < 16; t++)
        rr[t] = ng_ir_element(k, t < 8 ? ra : rb, i64(k, t % 8));
#define PW_ADD(x, y) ng_ir_binary(k, NG_OP_ADD, adt, x, y)
#define PW_EIGHT(o) PW_ADD(PW_ADD(PW_ADD(rr[o], rr[o + 1]), PW_ADD(rr[o + 2], rr[o + 3])), \
                           PW_ADD(PW_ADD(rr[o + 4], rr[o + 5]), PW_ADD(rr[o + 6], rr[o + 7])))
    stmts[ns++] = ng_ir_let(k, q, PW_EIGHT(8));
    stmts[ns++] = ng_ir_for(k, i, ev, end, one, ng_ir_assign(k, q, PW_ADD(ng_ir_varref(k, q), pw_x(k, w, iv))), 0);
    stmts[ns++] = ng_ir_assign(k, v, PW_ADD(PW_EIGHT(0), ng_ir_varref(k, q)));
#undef PW_EIGHT
#undef PW_ADD
    return ng_ir_block(k, ns, stmts);
}

/* Whether a node of m elements is two leaves (pw_pair). */
static NgIrRef pw_is_pair(NgIrKernel *k, NgIrRef m)
{
    NgIrRef l = iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, m, i64(k, 16)), i64(k, 8));
    return ng_ir_binary(k, NG_OP_LE, NG_BOOL, iop(k, NG_OP_SUB, m, l), i64(k, PW_BLOCK));
}

/* Whether a node of m elements is two pair nodes (pw_quad): its first half
 * (m / 16 * 8, the shorter) is longer than a leaf and its second a pair. */
static NgIrRef pw_is_quad(NgIrKernel *k, NgIrRef m)
{
    NgIrRef l = iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, m, i64(k, 16)), i64(k, 8));
    return ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_GT, NG_BOOL, l, i64(k, PW_BLOCK)),
                        pw_is_pair(k, iop(k, NG_OP_SUB, m, l)));
}

/* A node of two pair nodes (four leaves of 64..128 elements), summed into
 * v as ((L0 + L1) + (L2 + L3)): the four leaves' eight lanes run in one
 * loop over the first leaf's whole eights (the shortest: 32 independent
 * chains, enough to keep a vector unit's adders busy where one leaf's 8 or
 * a pair's 16 wait on each other), then each leaf's further eights (at
 * most two) in its own loop, then each leaf's eight-lane tree and its rest
 * in order, as pw_leaf. Only the last leaf can have a rest (m % 8). */
static NgIrRef pw_quad(NgIrKernel *k, const PwRow *w, NgIrRef b, NgIrRef m, int v)
{
    NgDType adt = w->adt;
    int i = ng_ir_var(k, NG_INT64), j = ng_ir_var(k, NG_INT64), ls[4], ln[4], r[4], q[4];
    NgIrRef iv = ng_ir_varref(k, i), jv = ng_ir_varref(k, j), one = i64(k, 1), eight = i64(k, 8);
    NgIrRef stmts[40];
    int ns = 0;
    int la = ng_ir_var(k, NG_INT64), lb = ng_ir_var(k, NG_INT64);
    NgIrRef lav = ng_ir_varref(k, la), lbv = ng_ir_varref(k, lb);
#define HALF(x) iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, x, i64(k, 16)), eight)
    stmts[ns++] = ng_ir_let(k, la, HALF(m));
    stmts[ns++] = ng_ir_let(k, lb, iop(k, NG_OP_SUB, m, lav));
    for (int t = 0; t < 4; t++) {
        ls[t] = ng_ir_var(k, NG_INT64);
        ln[t] = ng_ir_var(k, NG_INT64);
        r[t] = ng_ir_var_array(k, adt, 8);
        q[t] = ng_ir_var(k, adt);
    }
    NgIrRef hb = iop(k, NG_OP_ADD, b, lav); /* the second pair's start */
    NgIrRef starts[4] = {b, iop(k, NG_OP_ADD, b, HALF(lav)), hb, iop(k, NG_OP_ADD, hb, HALF(lbv))};
    NgIrRef lens[4] = {HALF(lav), iop(k, NG_OP_SUB, lav, HALF(lav)), HALF(lbv), iop(k, NG_OP_SUB, lbv, HALF(lbv))};
#undef HALF
    for (int t = 0; t < 4; t++) {
        stmts[ns++] = ng_ir_let(k, ls[t], starts[t]);
        stmts[ns++] = ng_ir_let(k, ln[t], lens[t]);
        stmts[ns++] = ng_ir_let(k, r[t], ng_ir_const_f(k, adt, 0.0));
    }
    /* the shared loop: i runs over the first leaf's offsets, lanes j of all four */
    NgIrRef lanes[4];
    for (int t = 0; t < 4; t++) {
        NgIrRef at = iop(k, NG_OP_ADD, iop(k, NG_OP_ADD, ng_ir_varref(k, ls[t]), iv), jv);
        lanes[t] = ng_ir_assign_element(k, r[t], jv, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_element(k, r[t], jv),
                                                                  pw_x(k, w, at)));
    }
    NgIrRef inner = ng_ir_for(k, j, i64(k, 0), eight, one, ng_ir_block(k, 4, lanes), NG_IR_SIMD);
    NgIrRef e0 = ng_ir_varref(k, ln[0]); /* (a multiple of 8, the fewest whole eights) */
    stmts[ns++] = ng_ir_for(k, i, i64(k, 0), e0, eight, inner, 0);
    for (int t = 1; t < 4; t++) { /* further whole eights of leaf t, offsets e0 .. */
        NgIrRef lt = ng_ir_varref(k, ln[t]);
        NgIrRef et = iop(k, NG_OP_SUB, lt, iop(k, NG_OP_MOD, lt, eight));
        NgIrRef more = ng_ir_for(k, j, i64(k, 0), eight, one, lanes[t], NG_IR_SIMD);
        stmts[ns++] = ng_ir_for(k, i, e0, et, eight, more, 0);
    }
#define PW_ADD(x, y) ng_ir_binary(k, NG_OP_ADD, adt, x, y)
#define RR(t, n) ng_ir_element(k, r[t], i64(k, n))
    for (int t = 0; t < 4; t++) {
        NgIrRef lt = ng_ir_varref(k, ln[t]), st = ng_ir_varref(k, ls[t]);
        stmts[ns++] = ng_ir_let(k, q[t], PW_ADD(PW_ADD(PW_ADD(RR(t, 0), RR(t, 1)), PW_ADD(RR(t, 2), RR(t, 3))),
                                                PW_ADD(PW_ADD(RR(t, 4), RR(t, 5)), PW_ADD(RR(t, 6), RR(t, 7)))));
        if (t == 3) { /* the rest, in order */
            NgIrRef from = iop(k, NG_OP_ADD, st, iop(k, NG_OP_SUB, lt, iop(k, NG_OP_MOD, lt, eight)));
            stmts[ns++] = ng_ir_for(k, i, from, iop(k, NG_OP_ADD, st, lt), one,
                                    ng_ir_assign(k, q[t], PW_ADD(ng_ir_varref(k, q[t]), pw_x(k, w, iv))), 0);
        }
    }
    stmts[ns++] = ng_ir_assign(k, v, PW_ADD(PW_ADD(ng_ir_varref(k, q[0]), ng_ir_varref(k, q[1])),
                                            PW_ADD(ng_ir_varref(k, q[2]), ng_ir_varref(k, q[3]))));
#undef RR
#undef PW_ADD
    return ng_ir_block(k, ns, stmts);
}

/* The pairwise sum of elements [b0, b0 + m0) into variable res. */
static NgIrRef pw_row(NgIrKernel *k, const PwRow *w, NgIrRef b0, NgIrRef m0, int res)
{
    NgDType adt = w->adt;
    int ss = ng_ir_var_array(k, NG_INT64, PW_STACK), sl = ng_ir_var_array(k, NG_INT64, PW_STACK);
    int ph = ng_ir_var_array(k, NG_INT64, PW_STACK), sv = ng_ir_var_array(k, adt, PW_STACK);
    int sp = ng_ir_var(k, NG_INT64), t = ng_ir_var(k, NG_INT64), m = ng_ir_var(k, NG_INT64);
    int p = ng_ir_var(k, NG_INT64), l = ng_ir_var(k, NG_INT64), v = ng_ir_var(k, adt);
    NgIrRef spv = ng_ir_varref(k, sp), tv = ng_ir_varref(k, t), mv = ng_ir_varref(k, m), pv = ng_ir_varref(k, p);
    NgIrRef lv = ng_ir_varref(k, l), vv = ng_ir_varref(k, v);
    NgIrRef q = iop(k, NG_OP_SUB, spv, i64(k, 1)); /* the parent, once popped */
    NgIrRef leaf = ng_ir_binary(k, NG_OP_LE, NG_BOOL, mv, i64(k, PW_BLOCK));
    /* a node done (a leaf, or phase 4: both halves added): pop it into its parent */
    NgIrRef to_left[2] = {ng_ir_assign_element(k, sv, q, vv), ng_ir_assign_element(k, ph, q, i64(k, 2))};
    NgIrRef to_right[2] = {
        ng_ir_assign_element(k, sv, q, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_element(k, sv, q), vv)),
        ng_ir_assign_element(k, ph, q, i64(k, 4))};
    NgIrRef up = ng_ir_if(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, ng_ir_element(k, ph, q), i64(k, 1)),
                          ng_ir_block(k, 2, to_left), ng_ir_block(k, 2, to_right));
    NgIrRef pair = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, pv, i64(k, 0)),
                                pw_is_pair(k, mv));
    NgIrRef quad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, pv, i64(k, 0)),
                                pw_is_quad(k, mv));
    NgIrRef pop[3] = {
        ng_ir_if(k, leaf, pw_leaf(k, w, ng_ir_element(k, ss, tv), mv, v),
                 ng_ir_if(k, pair, pw_pair(k, w, ng_ir_element(k, ss, tv), mv, v),
                          ng_ir_if(k, quad, pw_quad(k, w, ng_ir_element(k, ss, tv), mv, v),
                                   ng_ir_assign(k, v, ng_ir_element(k, sv, tv))))),
        ng_ir_assign(k, sp, tv),
        ng_ir_if(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, spv, i64(k, 0)), ng_ir_assign(k, res, vv), up)};
    /* phase 0: push the first half (phase 1 while it runs); phase 2: the second (phase 3) */
    NgIrRef first = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, pv, i64(k, 0));
    NgIrRef push[6] = {
        ng_ir_let(k, l, iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, mv, i64(k, 16)), i64(k, 8))),
        ng_ir_assign_element(k, ss, spv, ng_ir_select(k, first, ng_ir_element(k, ss, tv),
                                                      iop(k, NG_OP_ADD, ng_ir_element(k, ss, tv), lv))),
        ng_ir_assign_element(k, sl, spv, ng_ir_select(k, first, lv, iop(k, NG_OP_SUB, mv, lv))),
        ng_ir_assign_element(k, ph, tv, iop(k, NG_OP_ADD, pv, i64(k, 1))),
        ng_ir_assign_element(k, ph, spv, i64(k, 0)),
        ng_ir_assign(k, sp, iop(k, NG_OP_ADD, spv, i64(k, 1)))};
    NgIrRef done = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                                ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, leaf, pair),
                                             quad),
                                ng_ir_binary(k, NG_OP_EQ, NG_BOOL, pv, i64(k, 4)));
    NgIrRef body[4] = {ng_ir_let(k, t, iop(k, NG_OP_SUB, spv, i64(k, 1))), ng_ir_let(k, m, ng_ir_element(k, sl, tv)),
                       ng_ir_let(k, p, ng_ir_element(k, ph, tv)),
                       ng_ir_if(k, done, ng_ir_block(k, 3, pop), ng_ir_block(k, 6, push))};
    NgIrRef tree[9] = {ng_ir_let(k, ss, i64(k, 0)), ng_ir_let(k, sl, i64(k, 0)), ng_ir_let(k, ph, i64(k, 0)),
                       ng_ir_let(k, sv, ng_ir_const_f(k, adt, 0.0)), ng_ir_let(k, v, ng_ir_const_f(k, adt, 0.0)),
                       ng_ir_assign_element(k, ss, i64(k, 0), b0), ng_ir_assign_element(k, sl, i64(k, 0), m0),
                       ng_ir_let(k, sp, i64(k, 1)),
                       ng_ir_while(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, spv, i64(k, 0)), ng_ir_block(k, 4, body))};
    /* a row of one leaf or two skips the stack */
    return ng_ir_if(k, ng_ir_binary(k, NG_OP_LE, NG_BOOL, m0, i64(k, PW_BLOCK)), pw_leaf(k, w, b0, m0, res),
                    ng_ir_if(k, pw_is_pair(k, m0), pw_pair(k, w, b0, m0, res), ng_ir_block(k, 9, tree)));
}

/* key->pairwise: out[kept] = finish(0 + pairwise sum of the row), in
 * parallel over rows (PW_ROWS); with nred - 1 outer reduced axes around the
 * run, out[kept] = finish(((0 + pw(run 0)) + pw(run 1)) + ...), the runs
 * in order (NumPy's reduce loop adds each inner-loop call's pairwise sum to
 * the result). PW_FLAT: a flat contiguous copy in NumPy's iteration order,
 * its blocks of `bsize` elements cut into chunks of `chunk` (the last
 * shorter), ((0 + pw(chunk 0)) + pw(chunk 1)) + ..., as NumPy's buffered
 * iterator hands them to its add loop. Or, for the whole array (PW_SPLIT),
 * the tree's top levels down to part's 2^D nodes (all longer than a leaf,
 * so those levels are a complete binary tree): each node summed in
 * parallel into part[i] (node i found from the root by the bits of i, high
 * to low), then combined in pairs level by level as the tree combines them. */
static NgStatus build_pairwise(const RedKey *key, NgIrKernel *k)
{
    int K = key->nkept, R = key->nred, P = K + R - 1; /* P: the run's axis */
    NgDType adt = (NgDType)key->acc;
    int out = ng_ir_param_array(k, (NgDType)key->out, K, true, true);
    int in = ng_ir_param_array(k, (NgDType)key->in, K + R, key->in_contig, false);
    int mean = key->has_mean ? ng_ir_param_array(k, (NgDType)key->mdt, K, true, false) : -1;
    int count = ng_ir_param_scalar(k, NG_INT64);
    bool split = key->pairwise == PW_SPLIT, flat = key->pairwise == PW_FLAT;
    int bsize = flat ? ng_ir_param_scalar(k, NG_INT64) : -1, chunk = flat ? ng_ir_param_scalar(k, NG_INT64) : -1;
    int part = split || (flat && K == 0) ? ng_ir_param_array(k, adt, 1, true, true) : -1;
    NgIrRef idx[NG_MAXDIMS + 1], at[NG_MAXDIMS];
    int vk[NG_MAXDIMS];
    for (int d = 0; d < P; d++) {
        vk[d] = ng_ir_var(k, NG_INT64);
        idx[d] = ng_ir_varref(k, vk[d]);
        if (d < K)
            at[d] = idx[d];
    }
    PwRow w = {.in = in, .K = P, .idx = idx, .adt = adt, .key = key,
               .mu = mean >= 0 ? ng_ir_load(k, mean, K, at) : NG_IR_NONE};
    int res = ng_ir_var(k, adt), acc = ng_ir_var(k, adt);
    NgIrRef n = ng_ir_shape(k, in, P), zero = ng_ir_const_f(k, adt, 0.0);
    NgIrRef add_res = ng_ir_assign(k, acc, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_varref(k, acc), ng_ir_varref(k, res)));
    if (flat && K == 0) { /* the whole array: chunk c summed into part[c] in parallel, then added in order */
        int c = ng_ir_var(k, NG_INT64), cpb = ng_ir_var(k, NG_INT64), j = ng_ir_var(k, NG_INT64);
        NgIrRef cv = ng_ir_varref(k, c), cpbv = ng_ir_varref(k, cpb), jv = ng_ir_varref(k, j);
        NgIrRef bs = ng_ir_scalar(k, bsize), ch = ng_ir_scalar(k, chunk), nparts = ng_ir_shape(k, part, 0);
        NgIrRef start = iop(k, NG_OP_ADD, iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, cv, cpbv), bs),
                            iop(k, NG_OP_MUL, jv, ch));
        NgIrRef len = iop(k, NG_OP_MINIMUM, ch, iop(k, NG_OP_SUB, bs, iop(k, NG_OP_MUL, jv, ch)));
        NgIrRef pc = cv;
        NgIrRef one_chunk[4] = {ng_ir_let(k, j, iop(k, NG_OP_MOD, cv, cpbv)), ng_ir_let(k, res, zero),
                                pw_row(k, &w, start, len, res), ng_ir_store(k, part, 1, &pc, ng_ir_varref(k, res))};
        NgIrRef add_part = ng_ir_assign(k, acc, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_varref(k, acc),
                                                             ng_ir_load(k, part, 1, &pc)));
        NgIrRef steps[6] = {
            ng_ir_let(k, vk[0], i64(k, 0)), /* (the outer reduced axis, of extent 1 here) */
            ng_ir_let(k, cpb, iop(k, NG_OP_FLOORDIV, iop(k, NG_OP_ADD, bs, iop(k, NG_OP_SUB, ch, i64(k, 1))), ch)),
            ng_ir_for(k, c, i64(k, 0), nparts, i64(k, 1), ng_ir_block(k, 4, one_chunk), NG_IR_PARALLEL),
            ng_ir_let(k, acc, zero), ng_ir_for(k, c, i64(k, 0), nparts, i64(k, 1), add_part, 0),
            ng_ir_store(k, out, 0, idx, finish(k, key, ng_ir_varref(k, acc), count))};
        k->body = ng_ir_block(k, 6, steps);
        return k->status;
    }
    if (!split) {
        NgIrRef runs;
        if (flat) { /* blocks of bsize, cut into chunks: ((acc + pw(chunk 0)) + pw(chunk 1)) + ... */
            int b = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64);
            NgIrRef bv = ng_ir_varref(k, b), cv = ng_ir_varref(k, c), bs = ng_ir_scalar(k, bsize);
            NgIrRef len = iop(k, NG_OP_MINIMUM, ng_ir_scalar(k, chunk), iop(k, NG_OP_SUB, iop(k, NG_OP_ADD, bv, bs), cv));
            NgIrRef one_chunk[2] = {pw_row(k, &w, cv, len, res), add_res};
            NgIrRef chunks = ng_ir_for(k, c, bv, iop(k, NG_OP_ADD, bv, bs), ng_ir_scalar(k, chunk),
                                       ng_ir_block(k, 2, one_chunk), 0);
            runs = ng_ir_for(k, b, i64(k, 0), n, bs, chunks, 0);
        } else {
            NgIrRef one_run[2] = {pw_row(k, &w, i64(k, 0), n, res), add_res};
            runs = ng_ir_block(k, 2, one_run);
        }
        NgIrRef red = runs;
        for (int d = P - 1; d >= K; d--) /* outer reduced axes, in order */
            red = loop(k, vk[d], ng_ir_shape(k, in, d), red, 0);
        NgIrRef steps[4] = {ng_ir_let(k, res, zero), ng_ir_let(k, acc, zero), red,
                            ng_ir_store(k, out, K, idx, finish(k, key, ng_ir_varref(k, acc), count))};
        NgIrRef body = ng_ir_block(k, 4, steps);
        for (int d = K - 1; d >= 0; d--)
            body = loop(k, vk[d], ng_ir_shape(k, out, d), body, d == 0 ? NG_IR_PARALLEL : 0);
        k->body = body;
        return k->status;
    }
    int i = ng_ir_var(k, NG_INT64), s = ng_ir_var(k, NG_INT64), m = ng_ir_var(k, NG_INT64);
    int h = ng_ir_var(k, NG_INT64), l = ng_ir_var(k, NG_INT64), st = ng_ir_var(k, NG_INT64), j = ng_ir_var(k, NG_INT64);
    NgIrRef iv = ng_ir_varref(k, i), sv = ng_ir_varref(k, s), mv = ng_ir_varref(k, m), hv = ng_ir_varref(k, h);
    NgIrRef lv = ng_ir_varref(k, l), stv = ng_ir_varref(k, st), jv = ng_ir_varref(k, j);
    NgIrRef NP = ng_ir_shape(k, part, 0);
    NgIrRef right = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, iop(k, NG_OP_MOD, iop(k, NG_OP_FLOORDIV, iv, hv), i64(k, 2)), i64(k, 1));
    NgIrRef go_right[2] = {ng_ir_assign(k, s, iop(k, NG_OP_ADD, sv, lv)), ng_ir_assign(k, m, iop(k, NG_OP_SUB, mv, lv))};
    NgIrRef descend[3] = {ng_ir_assign(k, h, iop(k, NG_OP_FLOORDIV, hv, i64(k, 2))),
                          ng_ir_let(k, l, iop(k, NG_OP_MUL, iop(k, NG_OP_FLOORDIV, mv, i64(k, 16)), i64(k, 8))),
                          ng_ir_if(k, right, ng_ir_block(k, 2, go_right), ng_ir_assign(k, m, lv))};
    NgIrRef node[6] = {ng_ir_let(k, s, i64(k, 0)), ng_ir_let(k, m, n), ng_ir_let(k, h, NP),
                       ng_ir_while(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, hv, i64(k, 1)), ng_ir_block(k, 3, descend)),
                       ng_ir_let(k, res, zero), NG_IR_NONE};
    NgIrRef pi = iv;
    node[5] = ng_ir_block(k, 2, (NgIrRef[]){pw_row(k, &w, sv, mv, res), ng_ir_store(k, part, 1, &pi, ng_ir_varref(k, res))});
    NgIrRef nodes = ng_ir_for(k, i, i64(k, 0), NP, i64(k, 1), ng_ir_block(k, 6, node), NG_IR_PARALLEL);
    NgIrRef jr = iop(k, NG_OP_ADD, jv, stv);
    NgIrRef pair = ng_ir_store(k, part, 1, &jv, ng_ir_binary(k, NG_OP_ADD, adt, ng_ir_load(k, part, 1, &jv),
                                                            ng_ir_load(k, part, 1, &jr)));
    NgIrRef level[2] = {ng_ir_for(k, j, i64(k, 0), NP, iop(k, NG_OP_MUL, stv, i64(k, 2)), pair, 0),
                        ng_ir_assign(k, st, iop(k, NG_OP_MUL, stv, i64(k, 2)))};
    NgIrRef z = i64(k, 0);
    NgIrRef total = ng_ir_binary(k, NG_OP_ADD, adt, zero, ng_ir_load(k, part, 1, &z));
    NgIrRef steps[4] = {nodes, ng_ir_let(k, st, i64(k, 1)),
                        ng_ir_while(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, stv, NP), ng_ir_block(k, 2, level)),
                        ng_ir_store(k, out, 0, idx, finish(k, key, total, count))};
    k->body = ng_ir_block(k, 4, steps);
    return k->status;
}

/* Block-level plan (GPUs), one reduced axis. nkept == 0: the launch's
 * threads share the n elements (thread t takes t, t + T, t + 2T, ...: adjacent
 * threads read adjacent memory), each block combines its threads' values in
 * a tree and stores one value, out[block]. nkept == 1: block b takes rows b,
 * b + blocks, ...; its threads share each row the same way and the tree's
 * total, finished, is the row's result. */
static NgStatus build_blocks(const RedKey *key, NgIrKernel *k)
{
    NgDType adt = (NgDType)key->acc;
    bool rows = key->nkept == 1;
    int out = ng_ir_param_array(k, (NgDType)key->out, 1, true, true);
    int in = ng_ir_param_array(k, (NgDType)key->in, 1 + rows, key->in_contig, false);
    int mean = key->has_mean ? ng_ir_param_array(k, (NgDType)key->mdt, 1, true, false) : -1;
    int count = ng_ir_param_scalar(k, NG_INT64);
    int acc = ng_ir_var(k, adt), r = ng_ir_var(k, NG_INT64), o = rows ? ng_ir_var(k, NG_INT64) : -1;
    NgOp comb = combine_op((NgReduceOp)key->op);
    NgIrRef lid = ng_ir_thread(k, NG_IR_LOCAL_ID), bid = ng_ir_thread(k, NG_IR_BLOCK_ID);
    NgIrRef bs = ng_ir_thread(k, NG_IR_BLOCK_SIZE), nb = ng_ir_thread(k, NG_IR_NUM_BLOCKS);
    NgIrRef row = rows ? ng_ir_varref(k, o) : ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef idx[2] = {row, ng_ir_varref(k, r)};
    NgIrRef x = ng_ir_load(k, in, 1 + rows, rows ? idx : idx + 1);
    NgIrRef mu = mean >= 0 ? ng_ir_load(k, mean, 1, &row) : NG_IR_NONE;
    NgIrRef start = rows ? lid : ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, bid, bs), lid);
    NgIrRef step = rows ? bs : ng_ir_binary(k, NG_OP_MUL, NG_INT64, nb, bs);
    NgIrRef upd = ng_ir_assign(k, acc, ng_ir_binary(k, comb, adt, ng_ir_varref(k, acc), contribution(k, key, x, mu)));
    NgIrRef first = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, lid, ng_ir_const_i(k, NG_INT64, 0));
    NgIrRef body[4] = {
        ng_ir_let(k, acc, identity(k, (NgReduceOp)key->op, adt)),
        ng_ir_for(k, r, start, ng_ir_shape(k, in, rows), step, upd, 0),
        ng_ir_block_reduce(k, acc, comb),
        ng_ir_if(k, first, ng_ir_store(k, out, 1, rows ? &row : &bid, finish(k, key, ng_ir_varref(k, acc), count)),
                 NG_IR_NONE),
    };
    k->body = ng_ir_block(k, 4, body);
    if (rows) /* the whole block takes the same rows, so it reaches the tree together */
        k->body = ng_ir_for(k, o, bid, ng_ir_shape(k, in, 0), nb, k->body, 0);
    return k->status;
}

static NgStatus build_red(const void *ctx, NgIrKernel *k)
{
    const RedKey *key = ctx;
    if (key->plan == PLAN_BLOCKS)
        return build_blocks(key, k);
    if (key->pairwise)
        return build_pairwise(key, k);
    int K = key->nkept, R = key->nred;
    NgDType adt = (NgDType)key->acc;
    bool arg = key->op == NG_RED_ARGMIN || key->op == NG_RED_ARGMAX;
    int out = ng_ir_param_array(k, (NgDType)key->out, K, true, true);
    int in = ng_ir_param_array(k, (NgDType)key->in, K + R, key->in_contig, false);
    int mean = key->has_mean ? ng_ir_param_array(k, (NgDType)key->mdt, K, true, false) : -1;
    int count = ng_ir_param_scalar(k, NG_INT64);
    int kcell = key->ranked == 2 ? ng_ir_param_array(k, (NgDType)key->in, 0, true, true) : -1;
    int lock = key->ranked == 2 ? ng_ir_param_array(k, NG_INT32, 0, true, true) : -1;
    int vk[NG_MAXDIMS], vr[NG_MAXDIMS];
    NgIrRef idx[NG_MAXDIMS];
    for (int d = 0; d < K + R; d++) {
        int v = ng_ir_var(k, NG_INT64);
        (d < K ? vk : vr)[d < K ? d : d - K] = v;
        idx[d] = ng_ir_varref(k, v);
    }
    NgIrRef x = ng_ir_load(k, in, K + R, idx);
    NgIrRef mu = mean >= 0 ? ng_ir_load(k, mean, K, idx) : NG_IR_NONE;
    NgOp comb = combine_op((NgReduceOp)key->op);

    if (key->plan == PLAN_ROWS) {
        /* for each block of output columns (parallel): init, then add rows in order */
        int jb = ng_ir_var(k, NG_INT64);
        NgIrRef block = ng_ir_const_i(k, NG_INT64, 512);
        NgIrRef nk = ng_ir_shape(k, out, K - 1);
        NgIrRef jend = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64,
                                    ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_varref(k, jb), block), nk);
        NgIrRef cur = ng_ir_load(k, out, K, idx);
        NgIrRef upd = ng_ir_store(k, out, K, idx, ng_ir_binary(k, comb, adt, cur, contribution(k, key, x, mu)));
        NgIrRef init = ng_ir_store(k, out, K, idx, identity(k, (NgReduceOp)key->op, adt));
        NgIrRef one = ng_ir_const_i(k, NG_INT64, 1);
        NgIrRef inner_upd = ng_ir_for(k, vk[K - 1], ng_ir_varref(k, jb), jend, one, upd, 0);
        NgIrRef inner_init = ng_ir_for(k, vk[K - 1], ng_ir_varref(k, jb), jend, one, init, 0);
        for (int d = R - 1; d >= 0; d--)
            inner_upd = loop(k, vr[d], ng_ir_shape(k, in, K + d), inner_upd, 0);
        /* mean: the block's sums divided by the count once they are whole */
        NgIrRef fin = key->post == POST_NONE ? NG_IR_NONE
                      : ng_ir_for(k, vk[K - 1], ng_ir_varref(k, jb), jend, one,
                                  ng_ir_store(k, out, K, idx, finish(k, key, cur, count)), 0);
        NgIrRef steps[3] = {inner_init, inner_upd, fin};
        NgIrRef body = ng_ir_for(k, jb, ng_ir_const_i(k, NG_INT64, 0), nk, block,
                                 ng_ir_block(k, fin == NG_IR_NONE ? 2 : 3, steps), 0);
        for (int d = K - 2; d >= 0; d--)
            body = loop(k, vk[d], ng_ir_shape(k, out, d), body, 0);
        /* the outermost loop of the nest runs in parallel */
        k->nodes[body].flags |= NG_IR_PARALLEL;
        k->body = body;
        return k->status;
    }

    int acc = ng_ir_var(k, arg ? (NgDType)key->in : adt);
    /* argmin/argmax: the index of the best so far; in order, `flat` counts the elements */
    int best = arg ? ng_ir_var(k, NG_INT64) : -1, flat = arg && !key->ranked && !key->blocked ? ng_ir_var(k, NG_INT64) : -1;
    /* key->runs: the innermost `runs` loops sum into a float32 `run`,
     * folded into the half accumulator after them; a float16 accumulator of
     * + or * otherwise rounds after every element, in order (no simd
     * reduction) */
    int run = key->runs ? ng_ir_var(k, NG_FLOAT32) : acc;
    bool in_order = (adt == NG_FLOAT16 && (comb == NG_OP_ADD || comb == NG_OP_MUL)) || key->inorder;
    /* max/min of float32/float64: the larger (smaller) by a plain select, which
     * vectorises, and whether a NaN was seen, apart: NaN at the end if one was
     * (NumPy's answer; the select never takes a NaN, so partials combine as fmax) */
    bool nan_apart = !arg && !key->runs && !in_order && (key->op == NG_RED_MAX || key->op == NG_RED_MIN) &&
                     (adt == NG_FLOAT32 || adt == NG_FLOAT64);
    int nanv = nan_apart ? ng_ir_var(k, NG_BOOL) : -1;
    NgOp acc_comb = !nan_apart ? comb : key->op == NG_RED_MAX ? NG_OP_FMAX : NG_OP_FMIN;
    NgIrRef update;
    if (key->blocked) { /* the whole reduced loop, in blocks */
        unsigned flags = key->plan == PLAN_FULL && key->ranked ? NG_IR_PARALLEL : 0;
        update = arg_blocks(k, key, in, vr[0], x, acc, best, flags);
        if (flags) {
            rank_argbest(k, key, update, acc, best, kcell, out, lock);
        }
    } else if (nan_apart) {
        NgIrRef c = ng_ir_cast(k, adt, contribution(k, key, x, mu)), a = ng_ir_varref(k, acc);
        NgIrRef take = ng_ir_binary(k, key->op == NG_RED_MAX ? NG_OP_GT : NG_OP_LT, NG_BOOL, c, a);
        NgIrRef steps[2] = {ng_ir_assign(k, acc, ng_ir_select(k, take, c, a)),
                            ng_ir_assign(k, nanv, ng_ir_binary(k, NG_OP_BITOR, NG_BOOL, ng_ir_varref(k, nanv),
                                                               ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, c)))};
        update = ng_ir_block(k, 2, steps);
    } else if (arg) {
        /* argmax: take x if x > acc, or x is NaN while acc is not; the first NaN wins */
        NgDType dt = (NgDType)key->in;
        NgIrRef a = ng_ir_varref(k, acc);
        NgOp cmp = key->op == NG_RED_ARGMAX ? NG_OP_GT : NG_OP_LT;
        NgIrRef better = ng_ir_binary(k, cmp, NG_BOOL, x, a);
        if (ng_dtype_is_inexact(dt)) {
            NgIrRef xnan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x), anan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, a);
            better = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, anan),
                                  ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, better, xnan));
        }
        NgIrRef at;
        if (key->ranked) { /* the element's flat index from its indices, in parallel */
            at = ng_ir_varref(k, vr[0]);
            for (int d = 1; d < R; d++)
                at = ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, at,
                                                                     ng_ir_shape(k, in, K + d)),
                                  ng_ir_varref(k, vr[d]));
        } else {
            at = ng_ir_varref(k, flat);
        }
        NgIrRef take[2] = {ng_ir_assign(k, acc, x), ng_ir_assign(k, best, at)};
        update = ng_ir_if(k, better, ng_ir_block(k, 2, take), NG_IR_NONE);
        if (!key->ranked) {
            NgIrRef steps[2] = {update, ng_ir_assign(k, flat, ng_ir_binary(k, NG_OP_ADD, NG_INT64, at,
                                                                           ng_ir_const_i(k, NG_INT64, 1)))};
            update = ng_ir_block(k, 2, steps);
        }
    } else {
        NgDType rdt = key->runs ? NG_FLOAT32 : adt;
        update = ng_ir_assign(k, run, ng_ir_binary(k, comb, rdt, ng_ir_varref(k, run),
                                                   ng_ir_cast(k, rdt, contribution(k, key, x, mu))));
    }
    NgIrRef red = update;
    for (int d = key->blocked ? -1 : R - 1; d >= 0; d--) { /* (blocked: the nest is built) */
        bool outer = d == 0;
        unsigned flags = (outer && key->plan == PLAN_FULL && (!arg || key->ranked) && !key->serial) ? NG_IR_PARALLEL : 0;
        red = loop(k, vr[d], ng_ir_shape(k, in, K + d), red, flags);
        if (outer && key->ranked) {
            rank_argbest(k, key, red, acc, best, kcell, out, lock);
        }
        if (!arg && key->runs && d == R - key->runs) {
            ng_ir_reduce(k, red, run, comb);
            NgIrRef sum = ng_ir_binary(k, comb, NG_FLOAT32, ng_ir_cast(k, NG_FLOAT32, ng_ir_varref(k, acc)),
                                       ng_ir_varref(k, run));
            NgIrRef steps[3] = {ng_ir_let(k, run, identity(k, (NgReduceOp)key->op, NG_FLOAT32)), red,
                                ng_ir_assign(k, acc, ng_ir_cast(k, NG_FLOAT16, sum))};
            red = ng_ir_block(k, 3, steps);
        } else if (!arg && (flags || d == R - 1) && !in_order && !key->runs) {
            ng_ir_reduce(k, red, acc, acc_comb);
            if (nan_apart)
                ng_ir_reduce(k, red, nanv, NG_OP_BITOR);
        }
    }
    NgIrRef total = ng_ir_varref(k, acc);
    if (nan_apart)
        total = ng_ir_select(k, ng_ir_varref(k, nanv), ng_ir_const_f(k, adt, NAN), total);
    NgIrRef result = arg ? ng_ir_varref(k, best) : finish(k, key, total, count);
    NgIrRef init[4];
    int ni = 0;
    if (arg) {
        /* start from the first element so an all-NaN or constant row gives 0 */
        NgIrRef first[NG_MAXDIMS];
        memcpy(first, idx, sizeof(NgIrRef) * (size_t)K);
        for (int d = 0; d < R; d++)
            first[K + d] = ng_ir_const_i(k, NG_INT64, 0);
        init[ni++] = ng_ir_let(k, acc, ng_ir_load(k, in, K + R, first));
        init[ni++] = ng_ir_let(k, best, ng_ir_const_i(k, NG_INT64, 0));
        if (flat >= 0)
            init[ni++] = ng_ir_let(k, flat, ng_ir_const_i(k, NG_INT64, 0));
    } else {
        init[ni++] = ng_ir_let(k, acc, identity(k, (NgReduceOp)key->op, adt));
        if (nan_apart)
            init[ni++] = ng_ir_let(k, nanv, ng_ir_const_i(k, NG_BOOL, 0));
    }
    NgIrRef stmts[7];
    memcpy(stmts, init, sizeof(NgIrRef) * (size_t)ni);
    stmts[ni++] = red;
    if (kcell >= 0) { /* a GPU's ranked reduction combines into the cells at the key's store */
        NgIrRef none[1] = {0};
        stmts[ni++] = ng_ir_store(k, kcell, 0, none, ng_ir_varref(k, acc));
    }
    stmts[ni++] = ng_ir_store(k, out, K, idx, result);
    NgIrRef body = ng_ir_block(k, ni, stmts);
    for (int d = K - 1; d >= 0; d--)
        body = loop(k, vk[d], ng_ir_shape(k, out, d), body, d == 0 ? NG_IR_PARALLEL : 0);
    k->body = body;
    return k->status;
}

/* Default result dtype of a reduction (NumPy's). */
static NgDType result_dtype(NgReduceOp op, NgDType in, NgDType given)
{
    switch (op) {
    case NG_RED_SUM: case NG_RED_PROD:
        if (given != NG_NODTYPE) return given;
        if (in == NG_BOOL || (ng_dtype_is_signed(in) && in != NG_INT64)) return NG_INT64;
        if (ng_dtype_info(in)->kind == NG_KIND_UINT) return NG_UINT64;
        return in;
    case NG_RED_MEAN:
        if (given != NG_NODTYPE) return given;
        return ng_dtype_is_inexact(in) ? in : NG_FLOAT64;
    case NG_RED_VAR: case NG_RED_STD: /* complex input: a real result */
        if (given != NG_NODTYPE) return given;
        return ng_dtype_is_inexact(in) ? ng_dtype_real(in) : NG_FLOAT64;
    case NG_RED_ARGMIN: case NG_RED_ARGMAX: case NG_RED_COUNT_NONZERO: return NG_INT64;
    case NG_RED_ANY: case NG_RED_ALL: return NG_BOOL;
    default: return in;
    }
}

/* The dtype a reduction with result dtype `out` accumulates in. */
static NgDType accumulator(NgReduceOp op, NgDType out)
{
    switch (op) {
    case NG_RED_SUM: /* float32 and complex64 sums stay accurate; float16 as NumPy's loops */
        return out == NG_FLOAT32 ? NG_FLOAT64 : out == NG_COMPLEX64 ? NG_COMPLEX128 : out == NG_FLOAT16 ? NG_FLOAT32 : out;
    case NG_RED_PROD: return out == NG_FLOAT16 ? NG_FLOAT32 : out;
    case NG_RED_MEAN: case NG_RED_VAR: case NG_RED_STD:
        if (out == NG_FLOAT16)
            return NG_FLOAT32;
        return ng_dtype_is_float(out) ? NG_FLOAT64 : ng_dtype_is_complex(out) ? NG_COMPLEX128 : out;
    case NG_RED_ANY: case NG_RED_ALL: return NG_BOOL;
    case NG_RED_COUNT_NONZERO: return NG_INT64;
    default: return out;
    }
}

static const char *red_name(NgReduceOp op)
{
    static const char *names[] = {"sum", "prod", "mean", "var", "std", "minimum", "maximum",
                                  "argmin", "argmax", "any", "all", "count_nonzero"};
    return names[op];
}

static NgStatus run(const NgArray *a, const bool *reduced, RedKey key, const NgArray *out, const NgArray *mean,
                    int64_t count);

/* The reduction a reduce-op's partial results are combined with. */
static NgReduceOp combine_reduction(NgReduceOp op)
{
    switch (op) {
    case NG_RED_PROD: case NG_RED_MIN: case NG_RED_MAX: case NG_RED_ANY: case NG_RED_ALL: return op;
    default: return NG_RED_SUM;
    }
}

/* Launches the block-level kernel for key (plan PLAN_BLOCKS) over `in`
 * (nkept + 1 axes of shape/strides) into `out` viewed as `nout` elements. */
static NgStatus launch_blocks(RedKey key, const NgArray *in, const int64_t *shape, const int64_t *strides,
                              const NgArray *out, int64_t nout, const NgArray *mean, int64_t count, int64_t blocks)
{
    int64_t one = 1, zero = 0;
    key.tag = 'R';
    key.plan = PLAN_BLOCKS;
    key.nred = 1;
    key.in_contig = strides[key.nkept] == 1;
    key.has_mean = mean != NULL;
    key.serial = 0;
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(ng_array_device(in), &key, sizeof key, build_red, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[16];
    int na = 0;
    ng_kargs_array(args, &na, out, 1, &nout, &one);
    ng_kargs_array(args, &na, in, key.nkept + 1, shape, strides);
    if (mean)
        ng_kargs_array(args, &na, mean, 1, key.nkept ? &nout : &one, key.nkept ? &one : &zero);
    args[na++].i = count;
    return ng_kernel_launch_blocks(kern, args, na, blocks, in->size);
}

/* A full reduction on a GPU, as two tree levels: blocks leave one partial
 * each (at most RED_MAX_BLOCKS), then one block combines the partials and
 * finishes. R collapsed reduced axes; when R == 1 the input is n elements
 * `stride` apart. */
static NgStatus run_blocks(const NgArray *a, int R, int64_t n, int64_t stride, RedKey key, const NgArray *out,
                           const NgArray *mean, int64_t count)
{
    NgStatus st;
    NgArray flat;
    if (R > 1) {
        if ((st = ng_op_ascontiguous(a, false, &flat)) != NG_OK)
            return st;
        n = flat.size;
        stride = 1;
    } else {
        ng_array_view(a, &flat);
    }
    int64_t per_block = (int64_t)NG_BLOCK_THREADS * RED_PER_THREAD;
    int64_t blocks = (n + per_block - 1) / per_block;
    if (blocks > RED_MAX_BLOCKS)
        blocks = RED_MAX_BLOCKS;
    key.nkept = 0;
    if (blocks <= 1) { /* one block does it all */
        st = launch_blocks(key, &flat, &n, &stride, out, 1, mean, count, 1);
        ng_array_release(&flat);
        return st;
    }
    NgArray part;
    if ((st = ng_array_empty(ng_array_device(a), (NgDType)key.acc, 1, &blocks, &part)) != NG_OK) {
        ng_array_release(&flat);
        return st;
    }
    RedKey pk = key; /* level 1: the partials, in the accumulator dtype, unfinished */
    pk.out = key.acc;
    pk.post = POST_NONE;
    pk.half = 0;
    st = launch_blocks(pk, &flat, &n, &stride, &part, blocks, mean, count, blocks);
    if (st == NG_OK) { /* level 2: one block combines them */
        RedKey k2 = key;
        int64_t one = 1;
        k2.op = (uint8_t)combine_reduction((NgReduceOp)key.op);
        k2.in = key.acc;
        st = launch_blocks(k2, &part, &blocks, &one, out, 1, NULL, count, 1);
    }
    ng_array_release(&part);
    ng_array_release(&flat);
    return st;
}

/* The cells a GPU's ranked argmin/argmax combines into, set to the start:
 * cells[0] (a's dtype) = a's first element, *out (the rank) = 0, cells[1]
 * (the int32 lock) = 0. */
static NgStatus ranked_cells(const NgArray *a, const NgArray *out, NgArray *cells)
{
    NgDevice *dev = ng_array_device(a);
    NgArray first;
    ng_array_view(a, &first);
    first.ndim = 0;
    first.size = 1;
    NgOperand from = {.array = &first}, zero = {.array = NULL, .scalar = {.kind = NG_KIND_INT}};
    NgStatus st = ng_array_empty(dev, a->dtype, 0, NULL, &cells[0]);
    if (st == NG_OK)
        st = ng_op_assign(&cells[0], &from);
    if (st == NG_OK)
        st = ng_array_empty(dev, NG_INT32, 0, NULL, &cells[1]);
    if (st == NG_OK)
        st = ng_op_assign(&cells[1], &zero);
    if (st == NG_OK)
        st = ng_op_assign(out, &zero);
    ng_array_release(&first);
    return st;
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* NumPy's float16 sums and products accumulate in float32 along the
 * iterator's inner loop and round to half once per call of it. Its
 * iterator runs the axes in memory order (largest |stride| outermost); the
 * inner loop is the innermost block of axes that are all kept or all
 * reduced (a reduced block not contiguous in memory is buffered). So: when
 * the innermost axis is kept, every element is added in half precision, in
 * memory order (returns 1); when it is reduced, the block is one float32 run
 * rounded into the half result, once per position of the reduced axes
 * outside it (returns 2; 0 when there are none: one float32 sum). The
 * reduced axes of `a` are put in memory order in `order` (nred of them),
 * those of the block marked in `block`. */
static int half_steps(const NgArray *a, const bool *reduced, int *order, int *nred, bool *block)
{
    int ax[NG_MAXDIMS], n = 0;
    for (int d = 0; d < a->ndim; d++) /* axes by decreasing |stride| (stable); extent 1 left out */
        if (a->shape[d] != 1) {
            int at = n++;
            while (at > 0 && abs64(a->strides[ax[at - 1]]) < abs64(a->strides[d])) {
                ax[at] = ax[at - 1];
                at--;
            }
            ax[at] = d;
        }
    *nred = 0;
    for (int i = 0; i < n; i++)
        if (reduced[ax[i]])
            order[(*nred)++] = ax[i];
    for (int d = 0; d < a->ndim; d++)
        block[d] = false;
    if (n == 0 || !reduced[ax[n - 1]])
        return n == 0 ? 0 : 1;
    int i = n - 1;
    for (; i >= 0 && reduced[ax[i]]; i--)
        block[ax[i]] = true;
    for (; i >= 0; i--)
        if (reduced[ax[i]])
            return 2;
    return 0;
}

/* float32/float64 sum/mean on a cpu (key.pairwise) whose innermost axis in
 * memory is the reduced run (axis K + R - 1, any stride), the axis outside
 * it kept (or nothing kept and R == 1): NumPy's pairwise sum of each run in
 * the element dtype (float32 too, as NumPy's), the runs of the R - 1 outer
 * reduced axes added in order; its mean that sum divided by the count in
 * the same dtype. */
static NgStatus run_pairwise(const NgArray *a, int K, int R, const int64_t *shape, const int64_t *strides, RedKey key,
                             const NgArray *out, const int64_t *oshape, const int64_t *ostrides, const NgArray *mean,
                             int64_t count)
{
    int64_t n = shape[K + R - 1], parts = 1;
    while (K == 0 && R == 1 && parts < PW_SPLIT_MAX && n / (parts * 2) >= PW_SPLIT_MIN)
        parts *= 2;
    key.tag = 'R';
    key.plan = PLAN_EACH;
    key.acc = key.in;
    key.nkept = (uint8_t)K;
    key.nred = (uint8_t)R;
    key.flipped = strides[K + R - 1] == -1;
    key.cstride = strides[K + R - 1] >= 2 && strides[K + R - 1] <= 4 ? (uint8_t)strides[K + R - 1] : 0;
    key.in_contig = strides[K + R - 1] == 1 || key.flipped || key.cstride;
    key.has_mean = mean != NULL;
    key.pairwise = parts > 1 ? PW_SPLIT : PW_ROWS;
    NgArray fwd = *a; /* (flipped: the same memory from its lowest address, forward) */
    int64_t fstrides[NG_MAXDIMS];
    memcpy(fstrides, strides, sizeof(int64_t) * (size_t)(K + R));
    if (key.flipped) {
        fwd.offset -= (size_t)((n - 1) * ng_dtype_info(a->dtype)->itemsize);
        fstrides[K + R - 1] = 1;
        a = &fwd;
        strides = fstrides;
    } else if (key.cstride) {
        fstrides[K + R - 1] = 1;
        strides = fstrides;
    }
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(ng_array_device(a), &key, sizeof key, build_red, &key, &kern);
    if (st != NG_OK)
        return st;
    NgArray part = {0};
    if (parts > 1 && (st = ng_array_empty(ng_array_device(a), (NgDType)key.acc, 1, &parts, &part)) != NG_OK)
        return st;
    NgKArg args[4 * (2 + 2 * NG_MAXDIMS)];
    int na = 0;
    int64_t one = 1;
    ng_kargs_array(args, &na, out, K, oshape, ostrides);
    ng_kargs_array(args, &na, a, K + R, shape, strides);
    if (mean)
        ng_kargs_array(args, &na, mean, K, oshape, ostrides);
    args[na++].i = count;
    if (parts > 1)
        ng_kargs_array(args, &na, &part, 1, &parts, &one);
    st = ng_kernel_launch(kern, args, na, K ? oshape[0] : parts, a->size);
    if (parts > 1)
        ng_array_release(&part);
    return st;
}

/* The axes of `a` by decreasing |stride| (stable: ties keep their order;
 * extent 1 left out) into ax; returns how many. */
static int memory_order(const NgArray *a, int *ax)
{
    int n = 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != 1) {
            int at = n++;
            while (at > 0 && abs64(a->strides[ax[at - 1]]) < abs64(a->strides[d])) {
                ax[at] = ax[at - 1];
                at--;
            }
            ax[at] = d;
        }
    return n;
}

/* A float32/float64 sum/mean on a cpu whose innermost reduced block (the
 * reduced axes inside every kept one, in memory order) does not collapse
 * to one run: NumPy's buffered iterator (npyiter_find_buffering_setup's
 * cost model, nothing cast) copies the block's elements in iteration order
 * into a buffer and hands the add loop chunks, each summed pairwise and
 * added to the result in order (the block again for each index of the
 * reduced axes outside the kept ones). Going out from the block's innermost
 * axis (inner[0] elements): inner[0] > NPY_BUFSIZE / 2: no buffer, one call
 * per run; otherwise the core grows axis by axis while the size so far is
 * under NPY_BUFSIZE (8192): bsize = the product of the axes taken, core =
 * that of all but the last, and each block of bsize elements is cut into
 * chunks of core * (8192 / core) (one of bsize, if that is at most 8192).
 * The kernel runs that on a copy of `a` laid out (kept axes, outer reduced
 * axes, the block): PW_FLAT. var/std (mean given): NumPy sums the squares
 * of a fresh array in memory order, where the block is one run: the
 * pairwise kernel on the copy. */
static NgStatus run_flat(const NgArray *a, const bool *reduced, const int64_t *inner, int ninner, RedKey key,
                         const NgArray *out, const NgArray *mean, int64_t count)
{
    enum { NPY_BUF = 8192 };
    int64_t bsize = inner[0], chunk = inner[0], block = 1;
    for (int i = 0; i < ninner; i++)
        block *= inner[i];
    if (2 * inner[0] <= NPY_BUF) {
        int64_t size = inner[0], core = 1;
        for (int i = 1; i < ninner; i++) {
            if (i > 1 && size >= NPY_BUF)
                break;
            core = size;
            size *= inner[i];
        }
        bsize = size;
        chunk = size > NPY_BUF ? core * (NPY_BUF / core) : size;
    }
    /* the copy's axes: extent 1, kept (as out's), outer reduced, then the block (memory order) */
    int ax[NG_MAXDIMS], perm[NG_MAXDIMS], np_ = 0, n = memory_order(a, ax), last = n - 1;
    while (last >= 0 && reduced[ax[last]])
        last--;
    int64_t kept = 1;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] == 1)
            perm[np_++] = d;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != 1 && !reduced[d]) {
            perm[np_++] = d;
            kept *= a->shape[d];
        }
    for (int i = 0; i < n; i++)
        if (reduced[ax[i]] && i < last)
            perm[np_++] = ax[i];
    for (int i = last + 1; i < n; i++)
        perm[np_++] = ax[i];
    NgArray view, copy, flat;
    NgStatus st = ng_op_transpose(a, perm, &view);
    if (st != NG_OK)
        return st;
    st = ng_op_ascontiguous(&view, true, &copy);
    ng_array_release(&view);
    if (st != NG_OK)
        return st;
    int K = last >= 0 ? 1 : 0;
    int64_t shape[3] = {kept, a->size / kept / block, block}, strides[3] = {shape[1] * block, block, 1};
    st = ng_op_reshape(&copy, 3, shape, &flat);
    ng_array_release(&copy);
    if (st != NG_OK)
        return st;
    const int64_t *fs = shape + 1 - K, *fst = strides + 1 - K; /* kept (if any), outer reduced, block */
    int64_t ostride = 1;
    if (mean) {
        st = run_pairwise(&flat, K, 2, fs, fst, key, out, shape, &ostride, mean, count);
    } else {
        key.tag = 'R';
        key.plan = PLAN_EACH;
        key.acc = key.in;
        key.nkept = (uint8_t)K;
        key.nred = 2;
        key.in_contig = 1;
        key.has_mean = 0;
        key.pairwise = PW_FLAT;
        const NgKernel *kern;
        NgArray part = {0};
        int64_t nparts = a->size / bsize * ((bsize + chunk - 1) / chunk), one = 1;
        st = ng_kernel_get(ng_array_device(a), &key, sizeof key, build_red, &key, &kern);
        if (st == NG_OK && K == 0) /* the chunks' sums, added in order after */
            st = ng_array_empty(ng_array_device(a), (NgDType)key.acc, 1, &nparts, &part);
        if (st == NG_OK) {
            NgKArg args[16];
            int na = 0;
            ng_kargs_array(args, &na, out, K, shape, &ostride);
            ng_kargs_array(args, &na, &flat, K + 2, fs, fst);
            args[na++].i = count;
            args[na++].i = bsize;
            args[na++].i = chunk;
            if (K == 0)
                ng_kargs_array(args, &na, &part, 1, &nparts, &one);
            st = ng_kernel_launch(kern, args, na, K ? kept : nparts, a->size);
        }
        if (K == 0)
            ng_array_release(&part);
    }
    ng_array_release(&flat);
    return st;
}

/* a viewed with its kept axes first, then its reduced axes (nred of them,
 * in `order`), each group collapsed where contiguous, extent-1 axes dropped:
 * shape/strides (in elements), *K kept and *R reduced. Returns how many of
 * the collapsed reduced axes hold an axis of `block` (the float16 run). */
static int collapse(const NgArray *a, const bool *reduced, const int *order, int nred, const bool *block,
                    int64_t *shape, int64_t *strides, int *K, int *R)
{
    int item = ng_dtype_info(a->dtype)->itemsize;
    /* kept axes (collapsed), then reduced axes (collapsed); extent-1 axes
     * dropped; the collapsed reduced axes of the float32 run counted */
    int inrun = 0;
    *K = *R = 0;
    for (int pass = 0; pass < 2; pass++) {
        int first = pass == 0 ? 0 : *K;
        int n = 0;
        for (int i = 0; i < (pass == 0 ? a->ndim : nred); i++) {
            int d = pass == 0 ? i : order[i];
            if (reduced[d] != (pass == 1) || a->shape[d] == 1)
                continue;
            int at = first + n;
            int64_t s = a->strides[d] / item;
            if (n > 0 && strides[at - 1] == s * a->shape[d]) {
                shape[at - 1] *= a->shape[d];
                strides[at - 1] = s;
                continue;
            }
            shape[at] = a->shape[d];
            strides[at] = s;
            n++;
            inrun += block[d];
        }
        if (pass == 0)
            *K = n;
        else
            *R = n;
    }
    return inrun;
}

/* How a cpu float32/float64 sum over `reduced` follows NumPy's order
 * (NumPy's reduction iterator runs the axes by decreasing |stride|, never
 * flipping a reversed one, and hands its inner loop the innermost
 * (collapsed) axis):
 *   NP_SEQ:  the innermost axis is kept: each output adds its elements one
 *            by one, in memory order (key.inorder);
 *   NP_PW:   the innermost axis is a reduced run and the one outside it kept
 *            (or it is the whole array): pairwise sums of the runs, added in
 *            order (run_pairwise);
 *   NP_FLAT: nothing kept and not one run: buffer chunks (run_flat);
 *   NP_NONE: anything else (reduced axes apart inside a kept one; no reduced
 *            axis of extent > 1): the free-order kernels.
 * `order` gets the reduced axes in memory order; shape/strides/K/R the
 * collapsed view (see collapse). */
enum { NP_NONE, NP_SEQ, NP_PW, NP_FLAT };

static int numpy_order(const NgArray *a, const bool *reduced, int *order, int *nred, int64_t *shape,
                       int64_t *strides, int *K, int *R, int64_t *inner, int *ninner)
{
    int ax[NG_MAXDIMS], n = memory_order(a, ax);
    bool block[NG_MAXDIMS] = {false};
    *nred = 0;
    for (int i = 0; i < n; i++)
        if (reduced[ax[i]])
            order[(*nred)++] = ax[i];
    collapse(a, reduced, order, *nred, block, shape, strides, K, R);
    *ninner = 0;
    if (n == 0 || *R == 0 || a->size == 0)
        return NP_NONE;
    if (!reduced[ax[n - 1]])
        return NP_SEQ;
    int64_t istride[NG_MAXDIMS];
    for (int i = n - 1; i >= 0 && reduced[ax[i]]; i--) { /* the innermost reduced block, collapsed */
        int64_t ext = a->shape[ax[i]], st = a->strides[ax[i]];
        if (*ninner > 0 && inner[*ninner - 1] * istride[*ninner - 1] == st) {
            inner[*ninner - 1] *= ext;
        } else {
            istride[*ninner] = st;
            inner[(*ninner)++] = ext;
        }
    }
    if (*ninner > 1)
        return NP_FLAT;
    return shape[*K + *R - 1] == inner[0] ? NP_PW : NP_NONE; /* (the run apart from the outer reduced axes) */
}

/* Whether a cpu float32/float64 sum of `a` over `reduced` follows NumPy's order (not NP_NONE). */
static bool numpy_exact(const NgArray *a, const bool *reduced)
{
    int64_t shape[NG_MAXDIMS], strides[NG_MAXDIMS];
    int64_t inner[NG_MAXDIMS];
    int order[NG_MAXDIMS], nred, K, R, ninner;
    if (ng_array_device(a)->be->target->par != NG_PAR_OPENMP || (a->dtype != NG_FLOAT32 && a->dtype != NG_FLOAT64))
        return false;
    return numpy_order(a, reduced, order, &nred, shape, strides, &K, &R, inner, &ninner) != NP_NONE;
}

/* Runs one reduction kernel over `a` with `reduced` axes into `out` (fresh, C order). */
static NgStatus run(const NgArray *a, const bool *reduced, RedKey key, const NgArray *out, const NgArray *mean,
                    int64_t count)
{
    int64_t shape[NG_MAXDIMS], strides[NG_MAXDIMS], oshape[NG_MAXDIMS], ostrides[NG_MAXDIMS];
    int K = 0, R = 0;
    /* the reduced axes in order: as given, or (float16 sums) memory order */
    int order[NG_MAXDIMS], nred = 0, mode = 0;
    bool block[NG_MAXDIMS] = {false};
    if (key.out == NG_FLOAT16 && key.acc == NG_FLOAT32 && (key.op == NG_RED_SUM || key.op == NG_RED_PROD || key.half))
        mode = half_steps(a, reduced, order, &nred, block);
    NgDevice *dev = ng_array_device(a);
    bool gpu = dev->be->target->par != NG_PAR_OPENMP;
    /* var/std (float32 ones in float32, see ng_op_reduce): the sum of squared deviations too, as NumPy's _var */
    bool pw_var = (key.op == NG_RED_VAR || key.op == NG_RED_STD) && mean && key.out == key.in &&
                  key.mdt == key.in && key.ddt == key.in && key.acc == key.in;
    int np = NP_NONE, ninner = 0;
    int64_t inner[NG_MAXDIMS];
    if (!gpu && (((key.op == NG_RED_SUM || key.op == NG_RED_MEAN) && !mean) || pw_var) && key.in == key.out &&
        (key.in == NG_FLOAT32 || key.in == NG_FLOAT64)) {
        np = numpy_order(a, reduced, order, &nred, shape, strides, &K, &R, inner, &ninner);
        mode = -1;
    }
    if (np == NP_PW) {
        int64_t ostride = 1;
        for (int d = K - 1; d >= 0; d--) {
            oshape[d] = shape[d];
            ostrides[d] = ostride;
            ostride *= shape[d];
        }
        return run_pairwise(a, K, R, shape, strides, key, out, oshape, ostrides, mean, count);
    }
    if (np == NP_FLAT)
        return run_flat(a, reduced, inner, ninner, key, out, mean, count);
    if (np == NP_SEQ) { /* in the element dtype, in order */
        key.acc = key.in;
        key.inorder = 1;
    }
    if (mode == 0) {
        nred = 0;
        for (int d = 0; d < a->ndim; d++)
            if (reduced[d])
                order[nred++] = d;
    }
    int inrun = collapse(a, reduced, order, nred, block, shape, strides, &K, &R);
    int64_t ostride = 1;
    for (int d = K - 1; d >= 0; d--) {
        oshape[d] = shape[d];
        ostrides[d] = ostride;
        ostride *= shape[d];
    }
    if (R == 0) { /* nothing to reduce over (all reduced axes have extent 1): one fake axis */
        shape[K] = 1;
        strides[K] = 0;
        R = 1;
    }
    bool arg = key.op == NG_RED_ARGMIN || key.op == NG_RED_ARGMAX;
    if (mode == 1) /* (only with kept axes: the innermost one is kept) */
        key.acc = NG_FLOAT16;
    else if (mode == 2 && K > 0) /* (a full reduction stays one float32 sum, in parallel) */
        key.runs = (uint8_t)inrun;
    if (gpu && !arg && dev->be->launch_blocks && key.acc != NG_FLOAT16 && !key.runs) {
        if (K == 0)
            return run_blocks(a, R, shape[0], strides[0], key, out, mean, count);
        /* unit-stride rows long enough to keep a block busy: a block per row
         * (on a real GPU; OpenCL on a CPU runs a row per work-item faster) */
        if (dev->gpu && K == 1 && R == 1 && strides[1] == 1 && shape[1] >= NG_BLOCK_THREADS / 2) {
            key.nkept = 1;
            return launch_blocks(key, a, shape, strides, out, oshape[0], mean, count,
                                 oshape[0] < 65535 ? oshape[0] : 65535);
        }
    }
    key.tag = 'R';
    key.nkept = (uint8_t)K;
    key.nred = (uint8_t)R;
    key.in_contig = strides[K + R - 1] == 1;
    key.has_mean = mean != NULL;
    /* argmin/argmax of everything: in parallel (on a real GPU from
     * RED_RANKED_MIN elements; OpenCL on a CPU runs the strided GPU loop's
     * branchy body slower than one work-item does; complex and float16
     * keys: in order) */
    bool rankable = arg && K == 0 && !ng_dtype_is_complex(a->dtype) && a->dtype != NG_FLOAT16;
    key.ranked = !rankable ? 0 : !gpu ? 1 : dev->gpu && a->size >= RED_RANKED_MIN ? 2 : 0;
    key.serial = K == 0 && gpu && !key.ranked;
    /* argmin/argmax of one axis on a cpu in blocks (arg_blocks), from a block's length on (rows of 10
     * in blocks: 0.17 -> 0.32 ms for 10^4 of them) */
    key.blocked = arg && R == 1 && !gpu && shape[K] >= ARG_BLOCK && a->dtype != NG_BOOL &&
                  a->dtype != NG_FLOAT16 && !ng_dtype_is_complex(a->dtype);
    if (K == 0)
        key.plan = PLAN_FULL;
    else if (!dev->gpu && !arg && (!mean || key.inorder) && !key.half && !key.runs && key.acc == key.out &&
             ((strides[K - 1] == 1 && strides[K + R - 1] != 1) || key.inorder))
        key.plan = PLAN_ROWS; /* (a GPU runs a thread per output column instead: coalesced) */
    else
        key.plan = PLAN_EACH;
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(ng_array_device(a), &key, sizeof key, build_red, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[4 * (2 + 2 * NG_MAXDIMS)];
    int n = 0;
    ng_kargs_array(args, &n, out, K, oshape, ostrides);
    ng_kargs_array(args, &n, a, K + R, shape, strides);
    if (mean)
        ng_kargs_array(args, &n, mean, K, oshape, ostrides);
    args[n++].i = count;
    NgArray cells[2] = {{0}};
    if (key.ranked == 2) /* the start: a[0...0] at rank 0; the lock free */
        st = ranked_cells(a, out, cells);
    for (int i = 0; st == NG_OK && key.ranked == 2 && i < 2; i++)
        ng_kargs_array(args, &n, &cells[i], 0, NULL, NULL);
    int64_t extent = K ? (key.plan == PLAN_ROWS && K == 1 ? (oshape[0] + 511) / 512 : oshape[0]) : shape[0];
    if (st == NG_OK)
        st = ng_kernel_launch(kern, args, n, extent, a->size);
    ng_array_release(&cells[0]);
    ng_array_release(&cells[1]);
    return st;
}

NgStatus ng_op_reduce(NgReduceOp op, const NgArray *a, int naxes, const int *axes, bool keepdims, NgDType dtype,
                      int ddof, NgArray *out)
{
    bool reduced[NG_MAXDIMS] = {false};
    bool arg0d = (op == NG_RED_ARGMIN || op == NG_RED_ARGMAX) && a->ndim == 0 && naxes == 1 &&
                 (axes[0] == 0 || axes[0] == -1); /* NumPy accepts axis 0 / -1 on a 0-d array here */
    bool all = naxes < 0 || arg0d;
    if (all) {
        for (int d = 0; d < a->ndim; d++)
            reduced[d] = true;
    } else {
        for (int i = 0; i < naxes; i++) {
            int ax = axes[i];
            NgStatus st = ng_axis_normalize(&ax, a->ndim);
            if (st != NG_OK)
                return st;
            if (reduced[ax])
                return ng_error_set(NG_ERR_VALUE, "duplicate value in 'axis'");
            reduced[ax] = true;
        }
    }
    bool arg = op == NG_RED_ARGMIN || op == NG_RED_ARGMAX;
    if (arg && !all && naxes > 1)
        return ng_error_set(NG_ERR_TYPE, "'tuple' object cannot be interpreted as an integer");
    if (!ng_dtype_info(a->dtype)->supported || (dtype != NG_NODTYPE && !ng_dtype_info(dtype)->supported))
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet",
                            ng_dtype_info(dtype != NG_NODTYPE ? dtype : a->dtype)->name);
    int64_t oshape[NG_MAXDIMS], count = 1;
    int ond = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!reduced[d])
            oshape[ond++] = a->shape[d];
        else {
            count *= a->shape[d];
            if (keepdims)
                oshape[ond++] = 1;
        }
    }
    if (count == 0 && (op == NG_RED_MIN || op == NG_RED_MAX || arg)) {
        if (arg)
            return ng_error_set(NG_ERR_VALUE, "attempt to get %s of an empty sequence", red_name(op));
        return ng_error_set(NG_ERR_VALUE, "zero-size array to reduction operation %s which has no identity",
                            red_name(op));
    }
    NgDType outdt = result_dtype(op, a->dtype, dtype);
    NgDType acc = accumulator(op, outdt);
    NgDevice *dev = ng_array_device(a);
    NgStatus st = ng_array_empty(dev, outdt, ond, oshape, out);
    if (st != NG_OK)
        return st;
    if (out->size == 0)
        return NG_OK;
    RedKey key;
    memset(&key, 0, sizeof key);
    key.op = (uint8_t)op;
    key.in = (int8_t)a->dtype;
    key.acc = (int8_t)acc;
    key.out = (int8_t)outdt;
    if (op == NG_RED_VAR || op == NG_RED_STD) {
        /* pass 1: the mean, kept axes only, in the accumulator NumPy's
         * mean would have (complex for complex input unless dtype= says
         * otherwise; float16: rounded to half) */
        NgDType macc = accumulator(NG_RED_MEAN, result_dtype(NG_RED_MEAN, a->dtype, dtype));
        bool half = a->dtype == NG_FLOAT16 && outdt == NG_FLOAT16;
        /* float32 var/std that run the pairwise kernel (cpu): in float32 throughout, as NumPy's
         * _var (a float32 mean, deviations, squares and their sum) */
        bool single = a->dtype == NG_FLOAT32 && outdt == NG_FLOAT32 && numpy_exact(a, reduced);
        if (single)
            macc = acc = NG_FLOAT32;
        key.acc = (int8_t)acc;
        NgDType mdt = half ? NG_FLOAT16 : macc;
        NgArray mean;
        int64_t mshape[NG_MAXDIMS];
        int mnd = 0;
        for (int d = 0; d < a->ndim; d++)
            if (!reduced[d])
                mshape[mnd++] = a->shape[d];
        key.half = half;
        key.mdt = (int8_t)mdt;
        key.ddt = (int8_t)(half ? NG_FLOAT16
                           : ng_dtype_is_complex(a->dtype) || ng_dtype_is_complex(macc) ? NG_COMPLEX128 : acc);
        st = ng_array_empty(dev, mdt, mnd, mshape, &mean);
        if (st == NG_OK) {
            RedKey mk = key;
            mk.op = NG_RED_MEAN;
            mk.acc = (int8_t)macc;
            mk.out = (int8_t)mdt;
            mk.post = POST_DIVIDE;
            mk.mdt = mk.ddt = 0;
            st = run(a, reduced, mk, &mean, NULL, count);
            if (st == NG_OK) {
                key.post = op == NG_RED_STD ? POST_DIVIDE_SQRT : POST_DIVIDE;
                st = run(a, reduced, key, out, &mean, count - ddof > 0 ? count - ddof : 0);
            }
            ng_array_release(&mean);
        }
    } else if (count == a->size && ng_reduce_host_bytes(op, a, out, &st)) {
        /* (any/all/count_nonzero read in place on the host, stopping early: anyall.c) */
    } else {
        key.post = op == NG_RED_MEAN ? POST_DIVIDE : POST_NONE;
        st = run(a, reduced, key, out, NULL, count);
    }
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

NgStatus ng_ops_reduce_int(NgReduceOp op, const NgArray *a, int64_t *out)
{
    NgArray m, m64;
    NgStatus st = ng_op_reduce(op, a, -1, NULL, false, NG_NODTYPE, 0, &m);
    if (st != NG_OK)
        return st;
    st = ng_op_astype(&m, NG_INT64, &m64);
    ng_array_release(&m);
    if (st != NG_OK)
        return st;
    st = ng_array_download(&m64, out, NULL);
    ng_array_release(&m64);
    return st;
}
