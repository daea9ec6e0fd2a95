/* Rewrites of a parsed AST before ng_jit_analyze (desugar.c), in place, so
 * the analysis and the lowering see one form; the host plan keeps the
 * original source, so a loop the kernel cannot take still runs as written.
 *   - Loops over arrays as range loops: `for v in x`, `for i, v in
 *     enumerate(x)`, `for p, q in zip(a, b)` and `for k, (p, q) in
 *     enumerate(zip(a, b))` become `for k in
 *     range(len(x)): v = x[k]; ...`.
 *   - Lets, values a loop body makes and uses up, where nothing outside the
 *     body sees them: `w = s[a:b]` (w[i] reads s), `ix = [e for c in w]`
 *     (ix[i] is e of w[i]; the elements are still evaluated where the list
 *     was made) and `a = np.zeros(shape)` stored into, then copied whole by
 *     `X[i] = a` (the stores go into X[i], filled first; NG_JIT_SAME_SHAPE
 *     checks the shape). The FOR whose body changed is marked `lets`, the
 *     loops made `made` (ast.h).
 *   - Returns inside a function's loops as a break out of each loop, the
 *     function returning after the outermost (NG_JIT_RET below).
 */
#ifndef NUMGPU_JIT_DESUGAR_H
#define NUMGPU_JIT_DESUGAR_H

#include <stdlib.h>

#include "jit/ast.h"

/* The call the rewrite of a fresh array leaves where the array was made:
 * __ng_same_shape(X.ndim, k, s0, s1 ...) says that X[i0 ... ik-1] is of
 * shape (s0, s1 ...); where it is not, the loop must run as Python. */
#define NG_JIT_SAME_SHAPE "__ng_same_shape"

/* What the rewrite of a slice let (`w = s[a:b]`) leaves: __ng_window(j, n,
 * len(s)) is w[j]'s index in the window of length n (j + n where negative),
 * an IndexError where it is outside (len(s): s's name, for the words); and
 * __ng_slice_bound(x) is a bound of the slice, an int as Python's slices
 * take it (TypeError for a float or a NumPy bool). */
#define NG_JIT_WINDOW "__ng_window"

/* What the rewrite of sum(), min(), max(), any() or all() of a generator expression over a range
 * leaves (gen_reductions, desugar.c): fn(__ng_item=e) is an element e as fn takes it (sum: e,
 * any/all: its truth), fn(__ng_empty=c) raises fn's ValueError of no element where c holds. The
 * call keeps the builtin's name, whose binding the launch checks. */
#define NG_JIT_GEN_ITEM "__ng_item"
#define NG_JIT_GEN_EMPTY "__ng_empty"
#define NG_JIT_SLICE_BOUND "__ng_slice_bound"

/* Rewrites every such loop of ast (module level, functions, nested loops);
 * NG_ERR_NOMEM when its arena cannot grow (then some loops are rewritten). */
NgStatus ng_jit_desugar(NgJitAst *ast);

/* ng_jit_desugar, but the FOR loops starting at the byte offsets keep[0..nkeep)
 * keep their bodies' lets as written (the host runs such a loop as Python,
 * and then its inner loops may launch on their own: they must be the
 * source's). */
NgStatus ng_jit_desugar_keeping(NgJitAst *ast, const uint32_t *keep, int nkeep);

/* The names of a scan's loops (ng_jit_scan_phases): no Python name starts
 * with them. The host binds the first four. */
#define NG_JIT_SCAN_NB "__ng_nb"       /* the blocks */
#define NG_JIT_SCAN_CHUNK "__ng_ch"    /* iterations per block (the last one may have fewer) */
#define NG_JIT_SCAN_N "__ng_n"         /* the range's trip count (> 0) */
#define NG_JIT_SCAN_PART "__ng_part"   /* a 1-d array of __ng_nb values, of the accumulator's
                                          dtype (the recurrence's array's) */
#define NG_JIT_SCAN_B "__ng_b"         /* the block */
#define NG_JIT_SCAN_LO "__ng_lo"       /* its first iteration (0-based), */
#define NG_JIT_SCAN_HI "__ng_hi"       /* one past its last */
#define NG_JIT_SCAN_ST "__ng_st"       /* the range's start */
#define NG_JIT_SCAN_C "__ng_c"         /* an iteration (0-based) */
#define NG_JIT_SCAN_P "__ng_p"         /* a block's partial result */
#define NG_JIT_SCAN_T "__ng_t"         /* phase 1: a partial result taken out */
#define NG_JIT_SCAN_S "__ng_s"         /* a recurrence's running value */

/* A loop that returns (return_loops, desugar.c) sets NG_JIT_RET to the line
 * of the return that ran, its value into NG_JIT_RET "v<line>" (a tuple's
 * items into NG_JIT_RET "v<line>_<k>"), and breaks; after the loop, the
 * function returns what they hold. The host (jit.py) reads them back. */
#define NG_JIT_RET "__ng_ret"
#define NG_JIT_RET_ITEMS 8  /* items of a tuple returned */
#define NG_JIT_RET_SITES 8  /* returns of one loop */

/* The line of the return whose value `name` holds (NG_JIT_RET "v<line>..."), 0 for any other name. */
static inline int ng_jit_ret_line(const char *name)
{
    const char *p = NG_JIT_RET "v";
    while (*p && *name == *p)
        p++, name++;
    return *p ? 0 : atoi(name);
}

struct NgJitLoopInfo;

/* The three loops that run scan loop `info` (NgJitLoopInfo.scan, a loop of
 * ast) in blocks, made in ast's arena (they share the loop's statements):
 *   0: for __ng_b in range(__ng_nb): each block combines its values into
 *      __ng_part[__ng_b] (parallel: the host launches it so), starting from
 *      the operator's identity (made from s, so of s's type: s - s, s ^ s,
 *      s - s + 1) or, for max min | &, from s itself; the statements that
 *      store into arrays are left out;
 *   1: for __ng_b in range(__ng_nb), in order: __ng_part[__ng_b] becomes
 *      the block's start, s the value after it (the accumulator's value
 *      after the loop: a cell);
 *   2: for __ng_b in range(__ng_nb): s = __ng_part[__ng_b], then the block's
 *      iterations in order, the loop's own body (parallel).
 * An array recurrence a[i] = a[i - step] op e runs the same with __ng_s
 * for a[i - step] (starting from a[<start> - step]; phase 2 stores __ng_s
 * into a[i]). Block b's iterations are [b * __ng_ch, min(__ng_n, (b + 1) *
 * __ng_ch)), the loop variable start + c * step at iteration c. What makes
 * this right (one carried name, the other statements independent, exact
 * integer arithmetic, indices >= 0) is for the analysis and the host to
 * check. NG_ERR_UNSUPPORTED when a part would be too large an expression. */
NgStatus ng_jit_scan_phases(NgJitAst *ast, const struct NgJitLoopInfo *info, NgJitStmt *phase[3]);

#endif
