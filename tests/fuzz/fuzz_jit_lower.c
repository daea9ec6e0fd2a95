/* libFuzzer target for the jit back half: arbitrary bytes parsed, desugared
 * and analysed as fuzz_jit_parse does, then every loop a launch would lower
 * (not Python's, not collapsed into or inside another launch) lowered to the
 * IR for free variables of types drawn from the input (arrays of several
 * dtypes and ranks, Python and NumPy scalars, str and dict tables, the math
 * modules), under the analysis' plan and in order, with and without bounds
 * checks, as a search's two kernels where the analysis found one, as a
 * scan's three loops (ng_jit_scan_phases) where it found one; each
 * kernel lowered is emitted for the C, CUDA and OpenCL targets. Lowering
 * may refuse (unsupported, type, value: with a message); nothing may crash,
 * hang or leak. Built and run by tools/fuzz_jit.sh. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "emit/emit.h"
#include "jit/analyze.h"
#include "jit/ast.h"
#include "jit/desugar.h"
#include "jit/lower.h"

static void check(int ok)
{
    if (!ok)
        __builtin_trap();
}

/* The type of free variable `name`, drawn by `pick`. */
static NgJitVarType type_for(const char *name, uint64_t pick)
{
    NgJitVarType t;
    memset(&t, 0, sizeof t);
    t.name = name;
    if (!strcmp(name, "np") || !strcmp(name, "numpy") || !strcmp(name, "numgpu")) {
        t.module = NG_JIT_MOD_NUMPY;
        return t;
    }
    if (!strcmp(name, "math") || !strcmp(name, "cmath")) {
        t.module = name[0] == 'm' ? NG_JIT_MOD_MATH : NG_JIT_MOD_CMATH;
        return t;
    }
    static const struct { bool array; NgDType dt; int ndim; bool numpy; NgJitSeq seq; } kinds[] = {
        {true, NG_FLOAT64, 1, false, NG_JIT_SEQ_ARRAY},   {true, NG_FLOAT64, 2, false, NG_JIT_SEQ_ARRAY},
        {true, NG_INT64, 1, false, NG_JIT_SEQ_ARRAY},     {true, NG_INT32, 2, false, NG_JIT_SEQ_ARRAY},
        {true, NG_FLOAT32, 1, false, NG_JIT_SEQ_ARRAY},   {true, NG_BOOL, 1, false, NG_JIT_SEQ_ARRAY},
        {true, NG_COMPLEX128, 1, false, NG_JIT_SEQ_ARRAY}, {true, NG_FLOAT16, 1, false, NG_JIT_SEQ_ARRAY},
        {true, NG_FLOAT64, 3, false, NG_JIT_SEQ_ARRAY},   {true, NG_UINT8, 1, false, NG_JIT_SEQ_STR},
        {true, NG_INT64, 1, false, NG_JIT_SEQ_DICT_CHR},  {true, NG_INT64, 1, false, NG_JIT_SEQ_DICT_INT},
        {true, NG_FLOAT64, 0, false, NG_JIT_SEQ_ARRAY},   {false, NG_INT64, 0, false, NG_JIT_SEQ_ARRAY},
        {false, NG_FLOAT64, 0, false, NG_JIT_SEQ_ARRAY},  {false, NG_BOOL, 0, false, NG_JIT_SEQ_ARRAY},
        {false, NG_COMPLEX128, 0, false, NG_JIT_SEQ_ARRAY}, {false, NG_INT32, 0, true, NG_JIT_SEQ_ARRAY},
        {false, NG_FLOAT32, 0, true, NG_JIT_SEQ_ARRAY},   {false, NG_UINT64, 0, true, NG_JIT_SEQ_ARRAY},
    };
    uint64_t h = ng_hash64(name, strlen(name), pick);
    int k = (int)(h % (sizeof kinds / sizeof *kinds));
    t.is_array = kinds[k].array;
    t.dtype = kinds[k].dt;
    t.ndim = kinds[k].ndim;
    t.numpy_scalar = kinds[k].numpy;
    t.seq = kinds[k].seq;
    t.inner_contig = t.is_array && t.ndim > 0 && ((h >> 20) & 3) != 0;
    return t;
}

/* Lowers `loop` for vars under plan; emits what it lowered for every target. */
static void lower_one(const NgJitAst *ast, const NgJitStmt *loop, const NgJitVarType *vars, int nvars,
                      const NgJitLoopPlan *plan)
{
    NgStr key;
    ng_str_init(&key);
    check(ng_jit_lower_key(ast, loop, vars, nvars, plan, &key) == NG_OK);
    ng_str_free(&key);
    NgIrKernel k;
    ng_ir_init(&k, "ngjit");
    NgJitLowered info;
    NgStatus st = ng_jit_lower(ast, loop, vars, nvars, plan, &k, &info);
    if (st != NG_OK) {
        /* (the statuses the launch turns into "runs as Python"; an internal error is a bug) */
        check(st == NG_ERR_UNSUPPORTED || st == NG_ERR_TYPE || st == NG_ERR_VALUE || st == NG_ERR_INDEX ||
              st == NG_ERR_OVERFLOW || st == NG_ERR_NOMEM);
        check(ng_error_message()[0] != 0);
        ng_ir_free(&k);
        return;
    }
    check(info.nargs >= 0 && info.nargs <= NG_JIT_MAX_ARGS);
    static const NgTarget *const targets[] = {&ng_target_c, &ng_target_cuda, &ng_target_opencl};
    for (int t = 0; t < 3; t++) {
        NgStr src;
        ng_str_init(&src);
        st = ng_emit(&k, targets[t], &src);
        /* (a target without a type the kernel uses, or a kernel beyond its limits, refuses) */
        check(st == NG_OK || st == NG_ERR_UNSUPPORTED || st == NG_ERR_TYPE || st == NG_ERR_VALUE);
        check(st != NG_OK || (!src.failed && src.len > 0));
        ng_str_free(&src);
    }
    ng_ir_free(&k);
}

/* True if loop i is a launch point (jit.py's _launch_points). */
static bool launch_point(const NgJitLoops *loops, int i, const bool *point)
{
    const NgJitLoopInfo *l = &loops->items[i];
    if (l->kind == NG_JIT_LOOP_PYTHON || l->collapsed || l->host || l->stmt->made)
        return false;
    for (int p = l->parent; p >= 0; p = loops->items[p].parent)
        if (point[p] || loops->items[p].stmt->lets)
            return false;
    return true;
}

/* A scan's three loops (ng_jit_scan_phases), lowered as the launch would:
 * the loop's values and the four the host binds (the partial results an
 * integer array of a drawn dtype). */
static void lower_scan(NgJitAst *ast, const NgJitLoops *loops, const NgJitLoopInfo *info, NgJitVarType *vars,
                       int nvars, uint64_t pick)
{
    NgJitStmt *ph[3];
    NgStatus st = ng_jit_scan_phases(ast, info, ph);
    check(st == NG_OK || st == NG_ERR_UNSUPPORTED || st == NG_ERR_NOMEM);
    if (st != NG_OK || nvars > 60)
        return;
    static const char *const ints[] = {NG_JIT_SCAN_NB, NG_JIT_SCAN_CHUNK, NG_JIT_SCAN_N};
    for (int i = 0; i < 3; i++)
        vars[nvars++] = (NgJitVarType){.name = ints[i], .dtype = NG_INT64};
    vars[nvars++] = (NgJitVarType){.name = NG_JIT_SCAN_PART, .is_array = true, .ndim = 1, .inner_contig = true,
                                   .dtype = (NgDType)(NG_INT8 + (int)((pick >> 13) % 8))};
    for (int k = 0; k < 3; k++) {
        NgJitLoopPlan plan;
        memset(&plan, 0, sizeof plan);
        plan.parallel = k != 1;
        plan.scan = 1 + k;
        plan.loops = loops;
        lower_one(ast, ph[k], vars, nvars, &plan);
    }
}

static void lower_loops(NgJitAst *ast, const NgJitLoops *loops, uint64_t pick)
{
    bool point[256] = {false};
    for (int i = 0; i < loops->n && i < 256; i++) {
        point[i] = launch_point(loops, i, point);
        if (!point[i])
            continue;
        const NgJitLoopInfo *info = &loops->items[i];
        const char **names = NULL;
        int n = 0;
        check(ng_jit_loop_names(ast, info->stmt, &names, &n) == NG_OK);
        NgJitVarType vars[64];
        int nvars = 0;
        for (int v = 0; v < n && nvars < 64; v++) /* (a name drawn as a builtin stays unbound, as in a launch) */
            if ((ng_hash64(names[v], strlen(names[v]), pick ^ 0x5bd1e995) & 15) != 0)
                vars[nvars++] = type_for(names[v], pick);
        NgJitLoopPlan plan;
        ng_jit_plan(loops, info, &plan);
        plan.boundscheck = (pick >> 7) & 1;
        if (plan.parallel && i + 1 < loops->n && loops->items[i + 1].parent == i && loops->items[i + 1].collapsed)
            plan.inner_parallel = (pick >> 9) & 1;
        if (!plan.parallel) /* (cpu's plans in order: rows of the nest in threads) */
            plan.rows = (pick >> 10) & 1;
        if (info->search) {
            NgJitLoopPlan find = plan;
            find.parallel = true;
            find.search = 1;
            find.search_step = info->search_step;
            find.boundscheck = true;
            lower_one(ast, info->stmt, vars, nvars, &find);
            plan.search = 2;
            plan.search_step = info->search_step;
        }
        lower_one(ast, info->stmt, vars, nvars, &plan);
        NgJitLoopPlan seq;
        memset(&seq, 0, sizeof seq);
        seq.loops = loops;
        seq.boundscheck = !plan.boundscheck;
        if (plan.parallel) /* (the launch's fallback: in order) */
            lower_one(ast, info->stmt, vars, nvars, &seq);
        if (info->scan)
            lower_scan(ast, loops, info, vars, nvars, pick);
        ng_free(names);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NgJitAst *ast;
    NgJitError err;
    memset(&err, 0, sizeof err);
    if (ng_jit_parse((const char *)data, size, "fuzz.py", &ast, &err) != NG_OK)
        return 0;
    check(ng_jit_desugar(ast) == NG_OK);
    uint64_t pick = ng_hash64(data, size, 0);
    for (int i = 0; i < ast->body.n; i++) {
        const NgJitStmt *f = ast->body.stmts[i];
        NgJitLoops *loops;
        if (f->kind != NG_JIT_S_DEF)
            continue;
        check(ng_jit_analyze(ast, f, &loops) == NG_OK);
        lower_loops(ast, loops, pick);
        ng_jit_loops_free(loops);
    }
    ng_jit_ast_free(ast);
    return 0;
}
