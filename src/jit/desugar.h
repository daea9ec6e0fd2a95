/* Rewrites of a parsed AST before ng_jit_analyze (desugar.c), in place, so
 * the analysis and the lowering see one form; the host plan keeps the
 * original source, so a loop the kernel cannot take still runs as written.
 *   - Loops over arrays as range loops: `for v in x`, `for i, v in
 *     enumerate(x)` and `for p, q in zip(a, b)` become `for k in
 *     range(len(x)): v = x[k]; ...`.
 *   - Lets, values a loop body makes and uses up, where nothing outside the
 *     body sees them: `w = s[a:b]` (w[i] reads s), `ix = [e for c in w]`
 *     (ix[i] is e of w[i]; the elements are still evaluated where the list
 *     was made) and `a = np.zeros(shape)` stored into, then copied whole by
 *     `X[i] = a` (the stores go into X[i], filled first; NG_JIT_SAME_SHAPE
 *     checks the shape). The FOR whose body changed is marked `lets`, the
 *     loops made `made` (ast.h).
 */
#ifndef NUMGPU_JIT_DESUGAR_H
#define NUMGPU_JIT_DESUGAR_H

#include "jit/ast.h"

/* The call the rewrite of a fresh array leaves where the array was made:
 * __ng_same_shape(X.ndim, k, s0, s1 ...) says that X[i0 ... ik-1] is of
 * shape (s0, s1 ...); where it is not, the loop must run as Python. */
#define NG_JIT_SAME_SHAPE "__ng_same_shape"

/* Rewrites every such loop of ast (module level, functions, nested loops);
 * NG_ERR_NOMEM when its arena cannot grow (then some loops are rewritten). */
NgStatus ng_jit_desugar(NgJitAst *ast);

/* ng_jit_desugar, but the FOR loops starting at the byte offsets keep[0..nkeep)
 * keep their bodies' lets as written (the host runs such a loop as Python,
 * and then its inner loops may launch on their own: they must be the
 * source's). */
NgStatus ng_jit_desugar_keeping(NgJitAst *ast, const uint32_t *keep, int nkeep);

#endif
