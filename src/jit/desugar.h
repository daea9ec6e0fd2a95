/* Loops over arrays as range loops (desugar.c): `for v in x`, `for i, v in
 * enumerate(x)` and `for p, q in zip(a, b)` become `for k in range(len(x)):
 * v = x[k]; ...`, in place, so the analysis and the lowering see one form.
 * Run it on a parsed AST before ng_jit_analyze; the host plan keeps the
 * original source, so a loop the kernel cannot take still runs as written.
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

#endif
