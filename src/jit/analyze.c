/* Dependence analysis of the jit: classifies every loop of a function as
 * parallel, sequential or python (analyze.h; DESIGN.md, "@numgpu.jit").
 *
 * It runs after parsing (parse.c) and before lowering (lower.c), on the AST
 * alone: no types yet. The passes, in order:
 *   1. collect the loops of the function in source order, with their parents;
 *   2. liveness over the whole function (backward, with fixpoints at loops),
 *      which gives the names read after each loop;
 *   3. each loop on its own: compilable at all (calls, syntax, helpers)?
 *      then its scalars (private, reduction, or carried) and the arrays it
 *      writes (a dependence test per pair of accesses, position by position:
 *      affine subscripts in the loop variable, GCD test, a bounded `i*L + j`
 *      test; scattered `h[e] += v` updates become atomics);
 *   4. the verdicts, outermost first: a loop inside a parallel loop runs in
 *      one thread of it (sequential) unless perfectly nested, then collapsed.
 * Every doubt ends in the safe direction: not parallel, with the reason.
 *
 * Working memory is one arena freed at the end; the result has its own. An
 * allocation failure anywhere longjmps back to ng_jit_analyze, which frees
 * both and returns NG_ERR_NOMEM.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jit/analyze.h"
#include "jit/desugar.h"

/* ---- context ---- */

/* A function of the same source that a loop may call (and the lowering inline). */
typedef struct Helper {
    const NgJitStmt *def;
    int state;            /* 0 not looked at, 1 being checked, 2 inlinable, 3 not */
    const char *why;      /* state 3: what it does that the jit cannot compile */
    uint64_t *globals;    /* state 2: names it or its helpers read without assigning them */
    uint64_t *stores;     /* names it assigns (its locals, and parameters it rebinds) */
    uint64_t wparams;     /* bit j: it writes into the array of its parameter j (itself or
                             through a helper it calls), `p[i] = v` */
    int nlets;            /* state 2: its own names assigned once, at its top level, before
                             any read of them (`k = i + 1`), and their values (find_lets) */
    const int *let_ids;
    const NgJitExpr *const *let_vals;
} Helper;

/* A variable of a subscript polynomial, classified for the loop under test. */
enum { CLS_IND, CLS_INV, CLS_FREE };

typedef struct Atom {
    int cls;              /* CLS_IND: the loop variable; CLS_INV: the same value in every
                             iteration; CLS_FREE: may differ within or between iterations */
    int name_id;          /* a NAME atom; -1 for an expression */
    const NgJitExpr *e;   /* the expression of an invariant non-NAME atom */
} Atom;

/* Per-loop working data, beside the NgJitLoopInfo of the result. */
typedef struct LoopData {
    uint64_t *live_out;   /* names read after the loop ends */
    uint64_t *assigned;   /* names assigned in the body */
    uint64_t *written;    /* arrays written through subscripts in the body */
    bool python;          /* not compilable */
    bool ok;              /* may run parallel on its own: independent, or asserted */
    int64_t step;         /* range step when a literal, else 0 */
    const char *peel_why; /* peel: the first conflict the peeled iteration resolves */
    bool wraps_nonneg;    /* every index its proofs compared is >= 0 by its form alone */
    const char *unscanned;/* scan: the reason it gives as a loop in order */
    bool rows;            /* independent, and some proof was rows apart (pos_independent) */
    bool rows_unwrapped;  /* rows: every index its proofs compared is >= 0 by its form (rows_nonneg) */
    uint64_t *fresh;      /* arrays made afresh in each iteration (fresh_arrays) */
} LoopData;

/* One subscript use of an array the loop writes, or a use of the whole array. */
typedef struct Access {
    const NgJitExpr *e;   /* the outermost SUBSCRIPT of A[...][...], or the NAME */
    int root;             /* name_id of the array */
    bool write;           /* assigned (also read, when aug) */
    bool aug;             /* target of an augmented assignment with `op` */
    NgJitOp op;
    const NgJitExpr **pos;/* index expression per position; NULL for a slice */
    const NgJitExpr **slc;/* per position: the slice there (of the last subscript), or NULL */
    int npos;             /* -1: the whole array, or positions not known */
    const char *via;      /* the helper whose body makes it (its own names in e), or NULL */
} Access;

/* `t = value` somewhere in the function, where value may be (a view of) the
 * arrays in `from`: then t and those names may share memory. */
typedef struct Bind {
    int target;           /* name_id bound */
    uint64_t *from;       /* names the value may refer to */
} Bind;

typedef struct Ctx {
    const NgJitAst *ast;
    const NgJitStmt *func;
    NgJitLoops *res;      /* the result (its arena holds what outlives the call) */
    NgJitArena tmp;       /* working memory */
    jmp_buf oom;          /* where an allocation failure goes */
    int nw;               /* 64-bit words of a name set */
    LoopData *ld;         /* per loop, beside res->items */
    Helper *helpers;
    int nhelpers;
    Helper *checking;     /* the helper whose body is being checked (pass 3), NULL in a loop's */
    int why_line;         /* the line of the innermost expression or statement check_* found not
                             compilable (0: none yet), which the loop's reason names */
    int opaque;           /* a name id past the AST's: a helper's own variable in a subscript
                             of the caller's array (substitute), a value that may be anything */
    bool opaque_wrap;     /* an index the loop's proof needs unwrapped reads an opaque name */
    bool rows_used;       /* a proof of the loop's was rows apart (pos_independent) */
    const uint64_t *skip; /* arrays analyze_arrays leaves out (a compaction's, scan_compaction) */
    int nskipped;         /* accesses it left out so (a helper's too) */
    const NgJitExpr **view; /* per name, for the loop under analysis: the value of `row = X[i]`
                               when that is the only assignment of row in its body, at its top
                               level (then row[j] is X[i][j]); else NULL */
    uint64_t *always_live;/* names to treat as read at every point (globals, closures) */

    /* the loop under analysis (pass 3) */
    int cur;
    Atom *atoms;
    int natoms, atoms_cap;
    Access *acc;
    int nacc, acc_cap;

    struct Bind *binds;   /* every name binding of the function that may make an alias */
    int nbinds, binds_cap;
} Ctx;

static void *xalloc(Ctx *c, NgJitArena *a, size_t n)
{
    void *p = ng_jit_arena_alloc(a, n);
    if (!p)
        longjmp(c->oom, 1);
    return p;
}

/* Grows an arena array of `size`-byte items to hold one more. */
static void *grow(Ctx *c, void *items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return items;
    int ncap = *cap ? *cap * 2 : 16;
    void *p = xalloc(c, &c->tmp, (size_t)ncap * size);
    if (n)
        memcpy(p, items, (size_t)n * size);
    *cap = ncap;
    return p;
}

/* printf into the result arena. */
__attribute__((format(printf, 2, 3))) static const char *fmt(Ctx *c, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = xalloc(c, &c->res->arena, (size_t)n + 1);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* The source text of an expression, runs of white space made one space, cut
 * after about 60 bytes with "...". */
static const char *text(Ctx *c, const NgJitExpr *e)
{
    enum { MAX = 60 };
    const char *p = c->ast->src + e->outer.off, *end = c->ast->src + e->outer.end_off;
    char *s = xalloc(c, &c->res->arena, MAX + 8);
    size_t n = 0;
    bool space = false;
    for (; p < end; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
            (*p == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r'))) {
            space = n > 0;
            continue;
        }
        if (n >= MAX && ((unsigned char)*p & 0xC0) != 0x80) {
            memcpy(s + n, "...", 4);
            return s;
        }
        if (space)
            s[n++] = ' ';
        space = false;
        s[n++] = *p;
    }
    s[n] = 0;
    return s;
}

static const char *name_of(Ctx *c, int id) { return c->ast->names[id]; }

/* ---- name sets: one bit per name_id ---- */

static uint64_t *set_new(Ctx *c) { return xalloc(c, &c->tmp, (size_t)c->nw * sizeof(uint64_t)); }

static uint64_t *set_dup(Ctx *c, const uint64_t *s)
{
    uint64_t *d = set_new(c);
    memcpy(d, s, (size_t)c->nw * sizeof *d);
    return d;
}

static void set_add(uint64_t *s, int i) { s[i >> 6] |= (uint64_t)1 << (i & 63); }
static void set_del(uint64_t *s, int i) { s[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static bool set_has(const uint64_t *s, int i) { return (s[i >> 6] >> (i & 63)) & 1; }

static void set_copy(Ctx *c, uint64_t *d, const uint64_t *s) { memcpy(d, s, (size_t)c->nw * sizeof *d); }

static void set_or(Ctx *c, uint64_t *d, const uint64_t *s)
{
    for (int i = 0; i < c->nw; i++)
        d[i] |= s[i];
}

static void set_and(Ctx *c, uint64_t *d, const uint64_t *s)
{
    for (int i = 0; i < c->nw; i++)
        d[i] &= s[i];
}

static bool set_eq(Ctx *c, const uint64_t *a, const uint64_t *b)
{
    return memcmp(a, b, (size_t)c->nw * sizeof *a) == 0;
}

/* ---- walking expressions ---- */

typedef void (*ExprFn)(Ctx *c, const NgJitExpr *e, void *arg);

/* Calls fn on each direct child of e. */
static void each_child(Ctx *c, const NgJitExpr *e, ExprFn fn, void *arg)
{
    if (e->lhs)
        fn(c, e->lhs, arg);
    if (e->rhs)
        fn(c, e->rhs, arg);
    if (e->cond)
        fn(c, e->cond, arg);
    for (int i = 0; i < e->nitems; i++)
        fn(c, e->items[i], arg);
    switch (e->kind) {
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            if (e->keys[i])
                fn(c, e->keys[i], arg);
        break;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            fn(c, e->keywords[i].value, arg);
        break;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
        for (int i = 0; i < e->ngens; i++) {
            fn(c, e->gens[i].target, arg);
            fn(c, e->gens[i].iter, arg);
            for (int k = 0; k < e->gens[i].nifs; k++)
                fn(c, e->gens[i].ifs[k], arg);
        }
        break;
    case NG_JIT_E_LAMBDA:
        for (int i = 0; i < e->params->n; i++)
            if (e->params->items[i].dflt)
                fn(c, e->params->items[i].dflt, arg);
        break;
    default:
        break;
    }
}

/* Adds every name e reads to the set `arg`. */
static void loads_into(Ctx *c, const NgJitExpr *e, void *set)
{
    if (e->kind == NG_JIT_E_NAME && e->ctx == NG_JIT_LOAD)
        set_add(set, e->name_id);
    each_child(c, e, loads_into, set);
}

/* Adds every name a walrus in e assigns to the set `arg`. */
static void walrus_into(Ctx *c, const NgJitExpr *e, void *set)
{
    if (e->kind == NG_JIT_E_NAMED && e->lhs->kind == NG_JIT_E_NAME)
        set_add(set, e->lhs->name_id);
    each_child(c, e, walrus_into, set);
}

typedef struct Count {
    int id;   /* the name */
    int n;    /* uses found */
} Count;

static void count_loads(Ctx *c, const NgJitExpr *e, void *arg)
{
    Count *k = arg;
    if (e->kind == NG_JIT_E_NAME && e->ctx == NG_JIT_LOAD && e->name_id == k->id)
        k->n++;
    each_child(c, e, count_loads, arg);
}

static void count_mentions(Ctx *c, const NgJitExpr *e, void *arg)
{
    Count *k = arg;
    if (e->kind == NG_JIT_E_NAME && e->name_id == k->id)
        k->n++;
    each_child(c, e, count_mentions, arg);
}

static bool mentions(Ctx *c, const NgJitExpr *e, int id)
{
    Count k = {id, 0};
    if (e)
        count_mentions(c, e, &k);
    return k.n > 0;
}


/* ---- walking statements ---- */

/* Calls fn on each expression of s itself (not of its blocks). */
static void stmt_exprs(Ctx *c, const NgJitStmt *s, ExprFn fn, void *arg)
{
    if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
        return;
    if (s->target)
        fn(c, s->target, arg);
    if (s->value)
        fn(c, s->value, arg);
    if (s->test)
        fn(c, s->test, arg);
    for (int i = 0; i < s->ntargets; i++)
        fn(c, s->targets[i], arg);
}

/* Calls fn on every expression of a block and the blocks in it. */
static void block_exprs(Ctx *c, NgJitBlock b, ExprFn fn, void *arg)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        stmt_exprs(c, s, fn, arg);
        if (s->kind != NG_JIT_S_DEF) {
            block_exprs(c, s->body, fn, arg);
            block_exprs(c, s->orelse, fn, arg);
        }
    }
}

/* Names assigned by an assignment target. */
static void target_names(const NgJitExpr *t, uint64_t *set)
{
    switch (t->kind) {
    case NG_JIT_E_NAME:
        set_add(set, t->name_id);
        break;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            target_names(t->items[i], set);
        break;
    case NG_JIT_E_STARRED:
        target_names(t->lhs, set);
        break;
    default:
        break;
    }
}

/* Names a statement itself assigns (not its blocks), walrus included. */
static void stmt_stores(Ctx *c, const NgJitStmt *s, uint64_t *set)
{
    switch (s->kind) {
    case NG_JIT_S_ASSIGN:
        for (int i = 0; i < s->ntargets; i++)
            target_names(s->targets[i], set);
        break;
    case NG_JIT_S_AUGASSIGN: case NG_JIT_S_ANNASSIGN: case NG_JIT_S_FOR:
        target_names(s->target, set);
        break;
    case NG_JIT_S_DEF:
        set_add(set, s->name_id);
        return;
    case NG_JIT_S_OTHER:
        for (int i = 0; i < s->nnames; i++)
            set_add(set, s->name_ids[i]);
        return;
    default:
        break;
    }
    stmt_exprs(c, s, walrus_into, set);
}

static void block_stores(Ctx *c, NgJitBlock b, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        stmt_stores(c, b.stmts[i], set);
        if (b.stmts[i]->kind != NG_JIT_S_DEF) {
            block_stores(c, b.stmts[i]->body, set);
            block_stores(c, b.stmts[i]->orelse, set);
        }
    }
}

/* The array a subscript chain A[...][...] starts from: its NAME, or NULL. */
static const NgJitExpr *subscript_root(const NgJitExpr *e)
{
    while (e->kind == NG_JIT_E_SUBSCRIPT)
        e = e->lhs;
    return e->kind == NG_JIT_E_NAME ? e : NULL;
}

/* Arrays written through subscript targets in t. */
static void target_arrays(const NgJitExpr *t, uint64_t *set)
{
    switch (t->kind) {
    case NG_JIT_E_SUBSCRIPT: {
        const NgJitExpr *r = subscript_root(t);
        if (r)
            set_add(set, r->name_id);
        break;
    }
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            target_arrays(t->items[i], set);
        break;
    case NG_JIT_E_STARRED:
        target_arrays(t->lhs, set);
        break;
    default:
        break;
    }
}

static void block_writes(NgJitBlock b, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        for (int k = 0; k < s->ntargets; k++)
            target_arrays(s->targets[k], set);
        if (s->target)
            target_arrays(s->target, set);
        if (s->kind != NG_JIT_S_DEF) {
            block_writes(s->body, set);
            block_writes(s->orelse, set);
        }
    }
}

/* A `break` of this loop (not of a loop inside it). */
static bool has_break(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_BREAK)
            return true;
        if (s->kind == NG_JIT_S_IF && (has_break(s->body) || has_break(s->orelse)))
            return true;
        if ((s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) && has_break(s->orelse))
            return true;
    }
    return false;
}

bool ng_jit_while_true(const NgJitStmt *s)
{
    return s->kind == NG_JIT_S_WHILE && s->test && s->test->kind == NG_JIT_E_CONST && s->test->cval == NG_JIT_C_TRUE;
}

/* The first RAISE statement of b, its blocks' included, or NULL. */
static const NgJitStmt *block_raise(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i], *r;
        if (s->kind == NG_JIT_S_RAISE)
            return s;
        if (s->kind != NG_JIT_S_DEF && ((r = block_raise(s->body)) || (r = block_raise(s->orelse))))
            return r;
    }
    return NULL;
}

bool ng_jit_may_leave(const NgJitStmt *s)
{
    switch (s->kind) {
    case NG_JIT_S_BREAK: case NG_JIT_S_CONTINUE: case NG_JIT_S_RETURN: case NG_JIT_S_OTHER: case NG_JIT_S_RAISE:
        return true;
    case NG_JIT_S_IF:
        for (int i = 0; i < s->body.n; i++)
            if (ng_jit_may_leave(s->body.stmts[i]))
                return true;
        for (int i = 0; i < s->orelse.n; i++)
            if (ng_jit_may_leave(s->orelse.stmts[i]))
                return true;
        return false;
    case NG_JIT_S_FOR: case NG_JIT_S_WHILE:
        return s->returns;
    default:
        return false;
    }
}

/* ---- what compiles ---- */

static bool in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static const char *const builtin_fns[] = {"range", "len", "abs", "min", "max", "int", "float", "bool", "complex", "ord",
                                            "round", "pow", "sum", "any", "all", "divmod", NG_JIT_SAME_SHAPE,
                                            NG_JIT_WINDOW, NG_JIT_SLICE_BOUND, NULL};
static const char *const math_fns[] = {
    "sqrt", "cbrt", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor",
    "ceil", "trunc", "fabs", "pow", "hypot", "copysign", "fmod", "isnan", "isinf", "isfinite",
    "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "gcd", "remainder", "nextafter", "ldexp", "isclose",
    "isqrt", "frexp", "modf", "prod", NULL};
static const char *const cmath_fns[] = {
    "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "tanh", "asinh", "acosh", "atanh", "phase", "isnan", "isinf", "isfinite", NULL};
static const char *const np_scalar_fns[] = {
    "isclose", "float_power", "gcd", "lcm",
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "abs", "absolute", "fabs", "floor", "ceil", "trunc", "rint", "sign", "square",
    "minimum", "maximum", "fmin", "fmax", "power", "hypot", "isnan", "isinf", "isfinite", "where",
    "clip", "deg2rad", "rad2deg", "copysign", "float16", "float32", "float64", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128",
    "conjugate", "conj", "real", "imag", "degrees", "radians", "negative", "positive", "reciprocal", "invert",
    "bitwise_not", "logical_not", "signbit", "fmod", "add", "subtract", "multiply", "divide", "true_divide",
    "floor_divide", "remainder", "mod", "logaddexp", "logaddexp2", "heaviside", "nextafter", "logical_and",
    "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "round",
    "around", NULL};
static const char *const np_binary_fns[] = {
    "float_power", "gcd", "lcm",
    "arctan2", "minimum", "maximum", "fmin", "fmax", "power", "hypot", "copysign", "fmod", "add", "subtract",
    "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod", "logaddexp", "logaddexp2", "heaviside",
    "nextafter", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
    "right_shift", NULL};
static const char *const np_ternary_fns[] = {"where", "clip", NULL};
static const char *const np_reduce_fns[] = {"sum", "max", "min", "dot", "matmul", "prod", "mean", "amax", "amin", "any",
                                             "all", "argmax", "argmin", "var", "std", "count_nonzero", "nansum",
                                             "nanmax", "nanmin", "nanmean", "ptp", NULL};
static const char *const module_consts[] = {"pi", "e", "tau", "inf", "nan", "infj", "nanj", NULL};
static const char *const scalar_methods[] = {"conjugate", "conj", "item", NULL};
/* An array's reductions as methods: x.sum() is np.sum(x), x.dot(y) np.dot(x, y). */
static const char *const array_methods[] = {"sum", "max", "min", "mean", "prod", "any", "all", "dot", "argmax",
                                            "argmin", "var", "std", NULL};
static const char *const part_attrs[] = {"real", "imag", NULL}; /* of a scalar value */
/* NumPy's functions making a small array (ng_jit_new_array), and its name for each ('z'eros ...). */
static const char *const new_fns[] = {"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
                                      "full_like", "copy", NULL};
/* Python builtins, named as such when a loop calls them. */
static const char *const python_builtins[] = {
    "print", "input", "open", "sorted", "reversed", "list", "dict", "set", "tuple", "str", "repr",
    "enumerate", "zip", "map", "filter", "isinstance", "type", "id",
    "iter", "next", "getattr", "setattr", "hasattr", "format", "ord", "chr",
    "hash", "sorted", "locals", "globals", "vars", "eval", "exec", "super", "object", NULL};

/* The random numbers a loop may draw (ng_jit_random_fn): module random's (and a random.Random's),
 * np.random's (and a RandomState's), a Generator's. */
#define R_NONE {NULL, NULL}, {0, 0}
static const NgJitRandomFn random_fns[] = {
    {"random", NG_JIT_RNG_PY, NG_JIT_DRAW_UNIFORM, 0, R_NONE, false},
    {"uniform", NG_JIT_RNG_PY, NG_JIT_DRAW_UNIFORM, 2, {"a", "b"}, {NAN, NAN}, false},
    {"gauss", NG_JIT_RNG_PY, NG_JIT_DRAW_NORMAL, 2, {"mu", "sigma"}, {0, 1}, false},
    {"normalvariate", NG_JIT_RNG_PY, NG_JIT_DRAW_NORMAL, 2, {"mu", "sigma"}, {0, 1}, false},
    {"randint", NG_JIT_RNG_PY, NG_JIT_DRAW_INT, 2, {"a", "b"}, {NAN, NAN}, true},
    {"randrange", NG_JIT_RNG_PY, NG_JIT_DRAW_INT, 2, {"start", "stop"}, {NAN, INFINITY}, false},
    {"expovariate", NG_JIT_RNG_PY, NG_JIT_DRAW_EXP, 1, {"lambd", NULL}, {1, 0}, false},
    {"random", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_UNIFORM, 0, R_NONE, false},
    {"rand", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_UNIFORM, 0, R_NONE, false},
    {"random_sample", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_UNIFORM, 0, R_NONE, false},
    {"randn", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_NORMAL, 0, R_NONE, false},
    {"standard_normal", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_NORMAL, 0, R_NONE, false},
    {"uniform", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_UNIFORM, 2, {"low", "high"}, {0, 1}, false},
    {"normal", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_NORMAL, 2, {"loc", "scale"}, {0, 1}, false},
    {"randint", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_INT, 2, {"low", "high"}, {NAN, INFINITY}, false},
    {"exponential", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_EXP, 1, {"scale", NULL}, {1, 0}, false},
    {"standard_exponential", NG_JIT_RNG_NUMPY, NG_JIT_DRAW_EXP, 0, R_NONE, false},
    {"random", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_UNIFORM, 0, R_NONE, false},
    {"standard_normal", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_NORMAL, 0, R_NONE, false},
    {"uniform", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_UNIFORM, 2, {"low", "high"}, {0, 1}, false},
    {"normal", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_NORMAL, 2, {"loc", "scale"}, {0, 1}, false},
    {"integers", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_INT, 2, {"low", "high"}, {NAN, INFINITY}, false},
    {"exponential", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_EXP, 1, {"scale", NULL}, {1, 0}, false},
    {"standard_exponential", NG_JIT_RNG_GENERATOR, NG_JIT_DRAW_EXP, 0, R_NONE, false},
};
#undef R_NONE

static bool is_module(const NgJitExpr *e, const char *a, const char *b)
{
    return e->kind == NG_JIT_E_NAME && (strcmp(e->name, a) == 0 || (b && strcmp(e->name, b) == 0));
}

/* e names one of the modules a loop may use (np, numpy, math, cmath). */
static bool is_known_module(const NgJitExpr *e)
{
    return is_module(e, "math", "cmath") || is_module(e, "np", "numpy");
}

const char *ng_jit_bind_args(const NgJitExpr *call, const NgJitParams *ps, const char *fname, const NgJitExpr **out,
                             char *why, size_t why_size)
{
    int npos = 0; /* parameters that take positional arguments */
    for (int j = 0; j < ps->n; j++) {
        out[j] = NULL;
        NgJitParamKind k = ps->items[j].kind;
        if (k == NG_JIT_P_VARARGS || k == NG_JIT_P_VARKW) {
            snprintf(why, why_size, "%s() takes *args or **kwargs", fname);
            return why;
        }
        npos += k == NG_JIT_P_POSONLY || k == NG_JIT_P_NORMAL;
    }
    for (int i = 0; i < call->nitems; i++)
        if (call->items[i]->kind == NG_JIT_E_STARRED) {
            snprintf(why, why_size, "%s() is given a starred argument", fname);
            return why;
        }
    if (call->nitems > npos) {
        snprintf(why, why_size, "%s() takes %d positional argument%s but %d were given", fname, npos,
                 npos == 1 ? "" : "s", call->nitems);
        return why;
    }
    for (int i = 0; i < call->nitems; i++)
        out[i] = call->items[i];
    for (int k = 0; k < call->nkeywords; k++) {
        const NgJitKeyword *kw = &call->keywords[k];
        if (!kw->name) {
            snprintf(why, why_size, "%s() is given **arguments", fname);
            return why;
        }
        int j = 0;
        while (j < ps->n && !(ps->items[j].name_id == kw->name_id && ps->items[j].kind != NG_JIT_P_POSONLY))
            j++;
        if (j == ps->n) {
            snprintf(why, why_size, "%s() got an unexpected keyword argument '%s'", fname, kw->name);
            return why;
        }
        if (out[j]) {
            snprintf(why, why_size, "%s() got multiple values for argument '%s'", fname, kw->name);
            return why;
        }
        out[j] = kw->value;
    }
    for (int j = 0; j < ps->n; j++) {
        if (!out[j])
            out[j] = ps->items[j].dflt;
        if (!out[j]) {
            snprintf(why, why_size, "%s() missing required argument: '%s'", fname, ps->items[j].name);
            return why;
        }
    }
    return NULL;
}

const NgJitRandomFn *ng_jit_random_fn(const NgJitExpr *call, NgJitRng rng)
{
    for (size_t i = 0; i < sizeof random_fns / sizeof *random_fns; i++)
        if (random_fns[i].rng == rng && strcmp(random_fns[i].name, call->lhs->name) == 0)
            return &random_fns[i];
    return NULL;
}

/* np.random.<fn> (numpy.random's), or <name>.<fn> of a name other than NumPy's, math's, cmath's. */
static bool random_receiver(const NgJitExpr *f)
{
    if (f->kind != NG_JIT_E_ATTR)
        return false;
    const NgJitExpr *r = f->lhs;
    return (r->kind == NG_JIT_E_NAME && !is_known_module(r)) ||
           (r->kind == NG_JIT_E_ATTR && strcmp(r->name, "random") == 0 && is_module(r->lhs, "np", "numpy"));
}

bool ng_jit_random_call(const NgJitExpr *call)
{
    const NgJitExpr *f = call->lhs;
    if (!random_receiver(f))
        return false;
    int most = -1; /* the most parameters a function of that name takes (integers' endpoint= is one more) */
    for (size_t i = 0; i < sizeof random_fns / sizeof *random_fns; i++)
        if (strcmp(random_fns[i].name, f->name) == 0 && random_fns[i].nparams > most)
            most = random_fns[i].nparams;
    return most >= 0 && call->nitems <= most && call->nitems + call->nkeywords <= most + (strcmp(f->name, "integers") == 0);
}

NgJitCallKind ng_jit_call_kind(const NgJitExpr *call)
{
    const NgJitExpr *f = call->lhs;
    if (f->kind == NG_JIT_E_NAME) {
        if (in_list(f->name, builtin_fns))
            return NG_JIT_CALL_BUILTIN;
        if (strcmp(f->name, "prange") == 0)
            return NG_JIT_CALL_PRANGE;
        return NG_JIT_CALL_HELPER;
    }
    if (f->kind != NG_JIT_E_ATTR)
        return NG_JIT_CALL_OTHER;
    if ((is_module(f->lhs, "math", NULL) && in_list(f->name, math_fns)) ||
        (is_module(f->lhs, "cmath", NULL) && in_list(f->name, cmath_fns)))
        return NG_JIT_CALL_MATH;
    if (is_module(f->lhs, "np", "numpy")) {
        if (in_list(f->name, new_fns))
            return NG_JIT_CALL_NP_NEW;
        /* as many positional arguments as inputs: one more would be `out` */
        if (strcmp(f->name, "isclose") == 0) /* (a, b[, rtol[, atol[, equal_nan]]]) */
            return call->nitems >= 2 && call->nitems <= 5 ? NG_JIT_CALL_NP_SCALAR : NG_JIT_CALL_OTHER;
        if (strcmp(f->name, "arange") == 0) /* ([start, ]stop[, step]): a row, of the elementwise expression
                                               it is in */
            return call->nitems >= 1 && call->nitems <= 3 ? NG_JIT_CALL_NP_SCALAR : NG_JIT_CALL_OTHER;
        if (in_list(f->name, np_scalar_fns)) {
            int nin = in_list(f->name, np_binary_fns) ? 2 : in_list(f->name, np_ternary_fns) ? 3 : 1;
            bool rounding = strcmp(f->name, "round") == 0 || strcmp(f->name, "around") == 0; /* (decimals) */
            return call->nitems == nin || (rounding && call->nitems == 2) ? NG_JIT_CALL_NP_SCALAR : NG_JIT_CALL_OTHER;
        }
        if (in_list(f->name, np_reduce_fns)) { /* (np.sum(x, axis)) */
            bool dot = strcmp(f->name, "dot") == 0 || strcmp(f->name, "matmul") == 0;
            return call->nitems == 1 + dot || (!dot && call->nitems == 2) ? NG_JIT_CALL_NP_REDUCE : NG_JIT_CALL_OTHER;
        }
    }
    if (f->lhs->kind == NG_JIT_E_ATTR && strcmp(f->lhs->name, "linalg") == 0 && is_module(f->lhs->lhs, "np", "numpy") &&
        strcmp(f->name, "norm") == 0) /* np.linalg.norm(x[, ord[, axis]]) */
        return call->nitems >= 1 && call->nitems <= 3 ? NG_JIT_CALL_NP_REDUCE : NG_JIT_CALL_OTHER;
    if (ng_jit_random_call(call)) /* (size= is one argument more) */
        return NG_JIT_CALL_RANDOM;
    if (is_module(f->lhs, "numgpu", "ng") && strcmp(f->name, "prange") == 0)
        return NG_JIT_CALL_PRANGE;
    if (!is_known_module(f->lhs) && in_list(f->name, scalar_methods) && call->nitems == 0)
        return NG_JIT_CALL_METHOD;
    if (!is_known_module(f->lhs) && strcmp(f->name, "copy") == 0) /* x.copy(): a small array */
        return NG_JIT_CALL_NP_NEW;
    if (!is_known_module(f->lhs) && in_list(f->name, array_methods) && /* (x.sum(axis), x.dot(y)) */
        (strcmp(f->name, "dot") == 0 ? call->nitems == 1 : call->nitems <= 1))
        return NG_JIT_CALL_METHOD;
    return NG_JIT_CALL_OTHER;
}

/* Whether NumPy function or method `name` makes an array like another (np.zeros_like, a copy). */
static bool like_fn(const char *name) { return strcmp(name, "copy") == 0 || strstr(name, "_like"); }

/* The NAME a part of an array is of (x, x[i], x[i, :], x[i][j]: indices and whole axes `:`),
 * else NULL. */
static const NgJitExpr *like_root(const NgJitExpr *e)
{
    for (; e->kind == NG_JIT_E_SUBSCRIPT; e = e->lhs) {
        int m = ng_jit_index_count(e->rhs);
        for (int i = 0; i < m; i++) {
            const NgJitExpr *x = e->rhs->kind == NG_JIT_E_TUPLE ? e->rhs->items[i] : e->rhs;
            if (x->kind == NG_JIT_E_STARRED || x->kind == NG_JIT_E_CONST ||
                (x->kind == NG_JIT_E_SLICE && (x->lhs || x->rhs || x->cond)))
                return NULL;
        }
    }
    return e->kind == NG_JIT_E_NAME ? e : NULL;
}

bool ng_jit_new_array(const NgJitExpr *e, NgJitNewArray *out)
{
    memset(out, 0, sizeof *out);
    if (e->kind != NG_JIT_E_CALL || ng_jit_call_kind(e) != NG_JIT_CALL_NP_NEW)
        return false;
    const char *name = e->lhs->name;
    out->fn = strcmp(name, "copy") == 0 ? 'c' : name[0];
    if (like_fn(name)) { /* x.copy(), np.copy(x), np.zeros_like(x) ... */
        bool method = !is_module(e->lhs->lhs, "np", "numpy");
        int nin = method ? 0 : out->fn == 'f' ? 2 : 1;
        if (e->nitems < nin || e->nitems > nin + (out->fn != 'c') || e->nkeywords > (out->fn != 'c') ||
            (e->nkeywords && (e->nitems > nin || !e->keywords[0].name || strcmp(e->keywords[0].name, "dtype") != 0)))
            return false;
        for (int i = 0; i < e->nitems; i++)
            if (e->items[i]->kind == NG_JIT_E_STARRED)
                return false;
        out->like = method ? e->lhs->lhs : e->items[0];
        out->fill = out->fn == 'f' ? e->items[1] : NULL;
        out->dtype = e->nkeywords ? e->keywords[0].value : e->nitems > nin ? e->items[nin] : NULL;
        return like_root(out->like) != NULL;
    }
    int nin = out->fn == 'f' ? 2 : 1; /* (the length, np.full's value) */
    if (e->nitems < nin || e->nitems > nin + 1 || e->nkeywords > 1 || (e->nkeywords && e->nitems > nin))
        return false;
    for (int i = 0; i < e->nitems; i++)
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return false;
    if (e->nkeywords && (!e->keywords[0].name || strcmp(e->keywords[0].name, "dtype") != 0))
        return false;
    out->dtype = e->nkeywords ? e->keywords[0].value : e->nitems > nin ? e->items[nin] : NULL;
    out->fill = out->fn == 'f' ? e->items[1] : NULL;
    const NgJitExpr *sh = e->items[0];
    int nd = sh->kind == NG_JIT_E_TUPLE ? sh->nitems : 1;
    int64_t size = 1;
    bool named = false;
    for (int d = 0; d < nd && nd <= NG_JIT_MAX_NEW_RANK; d++) {
        const NgJitExpr *n = sh->kind == NG_JIT_E_TUPLE ? sh->items[d] : sh;
        if (n->kind != NG_JIT_E_INT && ng_jit_length_expr(n)) {
            out->named[d] = n;
            named = true;
            continue;
        }
        if (n->kind != NG_JIT_E_INT || n->big || n->ival < 1 || n->ival > NG_JIT_MAX_NEW)
            return true;
        out->shape[d] = (int64_t)n->ival;
        size *= (int64_t)n->ival; /* (at most 256 ** 4) */
    }
    if (nd >= 1 && nd <= NG_JIT_MAX_NEW_RANK) {
        out->ndim = nd;
        out->n = !named && size <= NG_JIT_MAX_NEW ? size : 0;
    }
    return true;
}

const NgJitExpr *ng_jit_measured(const NgJitExpr *e, int64_t *axis)
{
    *axis = 0;
    if (e->kind == NG_JIT_E_SUBSCRIPT && e->lhs->kind == NG_JIT_E_ATTR && strcmp(e->lhs->name, "shape") == 0 &&
        e->lhs->lhs->kind == NG_JIT_E_NAME) {
        bool neg = e->rhs->kind == NG_JIT_E_UNARY && e->rhs->op == NG_JIT_OP_NEG;
        const NgJitExpr *k = neg ? e->rhs->lhs : e->rhs;
        if (k->kind != NG_JIT_E_INT || k->big) /* (x.shape[1], x.shape[-1]) */
            return NULL;
        *axis = k->ival > (uint64_t)NG_MAXDIMS ? NG_MAXDIMS : (int64_t)k->ival;
        *axis = neg ? -*axis : *axis;
        return e->lhs->lhs;
    }
    if (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_BUILTIN && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && !e->nkeywords && e->items[0]->kind == NG_JIT_E_NAME)
        return e->items[0];
    return NULL;
}

bool ng_jit_length_expr(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_INT:
        return !e->big;
    case NG_JIT_E_NAME:
        return true;
    case NG_JIT_E_UNARY:
        return (e->op == NG_JIT_OP_NEG || e->op == NG_JIT_OP_POS) && ng_jit_length_expr(e->lhs);
    case NG_JIT_E_BINARY:
        return (e->op == NG_JIT_OP_ADD || e->op == NG_JIT_OP_SUB || e->op == NG_JIT_OP_MUL ||
                e->op == NG_JIT_OP_FLOORDIV || e->op == NG_JIT_OP_MOD) &&
               ng_jit_length_expr(e->lhs) && ng_jit_length_expr(e->rhs);
    default: {
        int64_t axis;
        return ng_jit_measured(e, &axis) != NULL;
    }
    }
}

/* Whether e, a length expression, reads `name` (as a number, or as x of x.shape[k] and len(x)). */
static bool length_reads(const NgJitExpr *e, const char *name)
{
    int64_t axis;
    const NgJitExpr *x = ng_jit_measured(e, &axis);
    if (x)
        return strcmp(x->name, name) == 0;
    if (e->kind == NG_JIT_E_NAME)
        return strcmp(e->name, name) == 0;
    if (e->kind == NG_JIT_E_UNARY || e->kind == NG_JIT_E_BINARY)
        return length_reads(e->lhs, name) || (e->kind == NG_JIT_E_BINARY && length_reads(e->rhs, name));
    return false;
}

/* Whether a statement of b assigns `local` a part of array `name` (r = X[i]). */
static bool part_of(NgJitBlock b, const char *local, const char *name)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME &&
            strcmp(s->targets[0]->name, local) == 0 && s->value->kind == NG_JIT_E_SUBSCRIPT) {
            const NgJitExpr *r = s->value;
            while (r->kind == NG_JIT_E_SUBSCRIPT)
                r = r->lhs;
            if (r->kind == NG_JIT_E_NAME && strcmp(r->name, name) == 0)
                return true;
        }
        if (s->kind != NG_JIT_S_DEF && (part_of(s->body, local, name) || part_of(s->orelse, local, name)))
            return true;
    }
    return false;
}

static bool sizes_in(NgJitBlock b, NgJitBlock whole, const char *name)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        NgJitNewArray na;
        if (s->kind == NG_JIT_S_ASSIGN && s->value && ng_jit_new_array(s->value, &na)) {
            for (int d = 0; d < na.ndim; d++)
                if (na.named[d] && length_reads(na.named[d], name))
                    return true;
            const NgJitExpr *r = na.like ? like_root(na.like) : NULL; /* (a part of it, or of a local naming one) */
            if (r && (strcmp(r->name, name) == 0 || part_of(whole, r->name, name)))
                return true;
        }
        if (s->kind != NG_JIT_S_DEF && (sizes_in(s->body, whole, name) || sizes_in(s->orelse, whole, name)))
            return true;
    }
    return false;
}

bool ng_jit_sizes_array(const NgJitStmt *loop, const char *name)
{
    return sizes_in(loop->body, loop->body, name);
}

static bool len_in_block(NgJitBlock b, const char *name);

static bool len_in_expr(const NgJitExpr *e, const char *name)
{
    if (!e)
        return false;
    switch (e->kind) {
    case NG_JIT_E_NAME: case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG: case NG_JIT_E_CONST:
    case NG_JIT_E_STR: case NG_JIT_E_LAMBDA:
        return false;
    case NG_JIT_E_CALL:
        if (e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 && e->nitems == 1 &&
            e->items[0]->kind == NG_JIT_E_NAME && strcmp(e->items[0]->name, name) == 0)
            return true;
        for (int i = 0; i < e->nkeywords; i++)
            if (len_in_expr(e->keywords[i].value, name))
                return true;
        break;
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            if (len_in_expr(e->keys[i], name))
                return true;
        break;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
        for (int i = 0; i < e->ngens; i++)
            if (len_in_expr(e->gens[i].iter, name) || len_in_expr(e->gens[i].target, name))
                return true;
        for (int i = 0; i < e->ngens; i++)
            for (int j = 0; j < e->gens[i].nifs; j++)
                if (len_in_expr(e->gens[i].ifs[j], name))
                    return true;
        break;
    default:
        break;
    }
    if (len_in_expr(e->lhs, name) || len_in_expr(e->rhs, name) || len_in_expr(e->cond, name))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (len_in_expr(e->items[i], name))
            return true;
    return false;
}

static bool len_in_block(NgJitBlock b, const char *name)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue;
        if (len_in_expr(s->target, name) || len_in_expr(s->value, name) || len_in_expr(s->test, name))
            return true;
        for (int t = 0; t < s->ntargets; t++)
            if (len_in_expr(s->targets[t], name))
                return true;
        if (len_in_block(s->body, name) || len_in_block(s->orelse, name))
            return true;
    }
    return false;
}

bool ng_jit_takes_len(const NgJitStmt *loop, const char *name)
{
    return len_in_block(loop->body, name) || len_in_expr(loop->test, name);
}

/* A `for` iterable the jit compiles: range(...) or prange(...) with 1 to 3
 * positional arguments. */
static bool range_like(const NgJitExpr *it)
{
    if (it->kind != NG_JIT_E_CALL || it->nkeywords || it->nitems < 1 || it->nitems > 3)
        return false;
    for (int i = 0; i < it->nitems; i++)
        if (it->items[i]->kind == NG_JIT_E_STARRED)
            return false;
    NgJitCallKind k = ng_jit_call_kind(it);
    return k == NG_JIT_CALL_PRANGE || (k == NG_JIT_CALL_BUILTIN && strcmp(it->lhs->name, "range") == 0);
}

static Helper *find_helper(Ctx *c, int name_id)
{
    const NgJitStmt *d = name_id >= 0 && name_id < c->ast->nnames
                         ? ng_jit_helper_def(c->ast, c->func, c->ast->names[name_id]) : NULL;
    for (int i = 0; d && i < c->nhelpers; i++)
        if (c->helpers[i].def == d)
            return &c->helpers[i];
    return NULL;
}

static const char *check_block(Ctx *c, NgJitBlock b, bool helper);
static const char *check_expr(Ctx *c, const NgJitExpr *e);

static const char *python_what(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_LISTCOMP: return "a list comprehension";
    case NG_JIT_E_SETCOMP: return "a set comprehension";
    case NG_JIT_E_DICTCOMP: return "a dict comprehension";
    case NG_JIT_E_GENEXP: return "a generator expression";
    case NG_JIT_E_DICT: return "a dict";
    case NG_JIT_E_SET: return "a set";
    case NG_JIT_E_LAMBDA: return "a lambda";
    case NG_JIT_E_STR: return "an f-string";
    case NG_JIT_E_AWAIT: return "await";
    case NG_JIT_E_YIELD: case NG_JIT_E_YIELD_FROM: return "yield";
    default: return "syntax the jit leaves to Python";
    }
}

/* What to write instead of expression e that the jit leaves to Python (python_what's), in
 * parentheses, or "(not compilable)". */
static const char *python_fix(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_GENEXP: case NG_JIT_E_SETCOMP:
        return "(write a NumPy expression of the row, np.sum(x[i] * 2), or an inner loop)";
    case NG_JIT_E_DICT: case NG_JIT_E_DICTCOMP: case NG_JIT_E_SET:
        return "(make it before the loop and pass it in: a compiled loop reads dicts of ints)";
    case NG_JIT_E_STR:
        return "(strings are built by Python: make them after the loop, from an array of the numbers)";
    case NG_JIT_E_YIELD: case NG_JIT_E_YIELD_FROM:
        return "(a generator's loops run as Python)";
    default:
        return "(not compilable)";
    }
}

static const char *const grow_methods[] = {"append", "extend", "insert", "pop", "remove", "add", "update",
                                           "setdefault", "discard", "clear", "popitem", NULL};
static const char *const str_builtins[] = {"str", "repr", "format", "ascii", "chr", NULL};

/* " (what to do instead)" for a call of f that the jit leaves to Python (a builtin it lacks, a
 * method of an object, a module's function it does not have), or " (not compilable)". */
static const char *call_fix(const NgJitExpr *f)
{
    const NgJitExpr *root = f;
    while (root->kind == NG_JIT_E_ATTR)
        root = root->lhs;
    bool module = root != f && root->kind == NG_JIT_E_NAME &&
                  (is_known_module(root) || strcmp(root->name, "random") == 0);
    if (f->kind == NG_JIT_E_NAME && strcmp(f->name, "print") == 0)
        return " (printing is Python's: store the values in an array made before the loop and print them after it)";
    if (f->kind == NG_JIT_E_NAME && in_list(f->name, str_builtins))
        return " (strings are built by Python: make them after the loop, from an array of the numbers)";
    if (f->kind == NG_JIT_E_NAME)
        return " (a builtin a compiled loop does not call: call it before or after the loop)";
    if (module)
        return " (compiled loops do not have it in this form: call it before or after the loop, on whole arrays)";
    if (f->kind == NG_JIT_E_ATTR && in_list(f->name, grow_methods))
        return " (a list, set or dict that changes is Python's: store into a NumPy array made before the loop, "
               "out[k] = v, instead)";
    if (f->kind == NG_JIT_E_ATTR)
        return " (a method compiled loops do not have: they call the functions of their own file, math's, cmath's, "
               "random's and NumPy's, and arrays' reductions, x.sum(), x.max(), ...; call it before or after the "
               "loop, or make it a function of this file taking the numbers or arrays it reads)";
    return " (not compilable)";
}

/* Whether helper h can be inlined; fills h->why and h->globals. */
static bool helper_ok(Ctx *c, Helper *h);

static void helper_globals_into(Ctx *c, const NgJitExpr *e, void *set)
{
    if (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_HELPER) {
        Helper *h = find_helper(c, e->lhs->name_id);
        if (h && h->state == 2)
            set_or(c, set, h->globals);
    }
    each_child(c, e, helper_globals_into, set);
}

/* The position of name_id among h's parameters, or -1. */
static int param_index(const Helper *h, int name_id)
{
    for (int i = 0; i < h->def->params->n; i++)
        if (h->def->params->items[i].name_id == name_id)
            return i;
    return -1;
}

/* Why helper h may not write into the array `root` (in `what`), or NULL
 * (then h->wparams has its bit): only the arrays of its own parameters, so
 * that a loop calling it knows what it writes, through the arguments. */
static const char *param_write(Ctx *c, Helper *h, const NgJitExpr *root, const NgJitExpr *what)
{
    int j = root ? param_index(h, root->name_id) : -1;
    if (j < 0)
        return fmt(c, "writes into %s, which is not one of its parameters (not inlined)", text(c, what));
    if (j >= 64)
        return fmt(c, "writes into %s, its parameter number %d (not inlined)", text(c, what), j + 1);
    if (set_has(h->stores, root->name_id))
        return fmt(c, "writes into %s, a parameter it also assigns (not inlined)", text(c, what));
    h->wparams |= (uint64_t)1 << j;
    return NULL;
}

/* Whether call e (a NumPy reduction, or one as a method) compiles with keyword argument kw:
 * a reduction's axis= (not a product's), np.var's and np.std's ddof=, np.linalg.norm's ord=
 * and axis=; a random number's parameters (low=, scale=). */
static bool known_keyword(const NgJitExpr *e, const char *kw)
{
    NgJitCallKind k = ng_jit_call_kind(e);
    const char *fn = e->lhs->kind == NG_JIT_E_ATTR ? e->lhs->name : "";
    if (k == NG_JIT_CALL_BUILTIN && e->nitems == 0 && e->nkeywords == 1) /* (desugar.c's gen_reductions) */
        return strcmp(kw, NG_JIT_GEN_ITEM) == 0 || strcmp(kw, NG_JIT_GEN_EMPTY) == 0;
    if (k == NG_JIT_CALL_RANDOM) { /* (the parameters of any generator's function of that name) */
        for (NgJitRng g = 0; g < NG_JIT_RNGS; g++) {
            const NgJitRandomFn *rf = ng_jit_random_fn(e, g);
            for (int j = 0; rf && j < rf->nparams; j++)
                if (strcmp(kw, rf->params[j]) == 0)
                    return true;
        }
        return strcmp(fn, "integers") == 0 && strcmp(kw, "endpoint") == 0;
    }
    if (k == NG_JIT_CALL_NP_SCALAR && strcmp(fn, "isclose") == 0)
        return strcmp(kw, "rtol") == 0 || strcmp(kw, "atol") == 0 || strcmp(kw, "equal_nan") == 0;
    if (k == NG_JIT_CALL_MATH && strcmp(fn, "isclose") == 0 && is_module(e->lhs->lhs, "math", "math"))
        return strcmp(kw, "rel_tol") == 0 || strcmp(kw, "abs_tol") == 0;
    if (k == NG_JIT_CALL_MATH && strcmp(fn, "prod") == 0 && is_module(e->lhs->lhs, "math", "math"))
        return strcmp(kw, "start") == 0;
    if (k != NG_JIT_CALL_NP_REDUCE && k != NG_JIT_CALL_METHOD)
        return false;
    if (strcmp(fn, "norm") == 0)
        return (strcmp(kw, "ord") == 0 && e->nitems == 1) || (strcmp(kw, "axis") == 0 && e->nitems <= 2) ||
               strcmp(kw, "keepdims") == 0;
    if (strcmp(fn, "dot") == 0 || strcmp(fn, "matmul") == 0)
        return false;
    if (strcmp(kw, "keepdims") == 0)
        return in_list(fn, np_reduce_fns);
    if (strcmp(kw, "axis") == 0) /* (given once: np.sum(x, axis) or np.sum(x, axis=axis)) */
        return in_list(fn, np_reduce_fns) && e->nitems == (k == NG_JIT_CALL_METHOD ? 0 : 1);
    return (strcmp(fn, "var") == 0 || strcmp(fn, "std") == 0) && strcmp(kw, "ddof") == 0;
}

static const char *check_call(Ctx *c, const NgJitExpr *e)
{
    const NgJitExpr *f = e->lhs;
    NgJitCallKind k = ng_jit_call_kind(e);
    if (k == NG_JIT_CALL_NP_NEW)
        return fmt(c, "calls %s other than as `name = %s(%s)` in a loop's body (not compilable)", text(c, f),
                   text(c, f), like_fn(f->name) ? "..." : "n");
    if (k == NG_JIT_CALL_OTHER && f->kind == NG_JIT_E_ATTR && is_module(f->lhs, "np", "numpy") &&
        (in_list(f->name, np_scalar_fns) || in_list(f->name, np_reduce_fns)))
        return fmt(c, "calls %s with %d arguments (not compilable)", text(c, f), e->nitems);
    if (k == NG_JIT_CALL_OTHER)
        return fmt(c, "calls %s%s", text(c, f), call_fix(f));
    for (int i = 0; i < e->nkeywords && k != NG_JIT_CALL_HELPER; i++) {
        const char *kw = e->keywords[i].name;
        if (!kw || !known_keyword(e, kw))
            return fmt(c, "calls %s with keyword arguments (not compilable)", text(c, f));
        const char *r = check_expr(c, e->keywords[i].value);
        if (r)
            return r;
    }
    for (int i = 0; i < e->nitems; i++)
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return fmt(c, "calls %s with *arguments (not compilable)", text(c, f));
    if (k == NG_JIT_CALL_PRANGE)
        return fmt(c, "calls %s outside a for statement (not compilable)", text(c, f));
    if (k == NG_JIT_CALL_METHOD) { /* (the receiver; x.dot(y)'s argument below) */
        const char *r = check_expr(c, f->lhs);
        if (r)
            return r;
    }
    if (k == NG_JIT_CALL_HELPER) {
        Helper *h = find_helper(c, f->name_id);
        if (!h) {
            if (in_list(f->name, python_builtins))
                return fmt(c, "calls %s%s", f->name, call_fix(f));
            if (c->func && c->func->name && strcmp(f->name, c->func->name) == 0)
                return fmt(c, "calls %s, the function itself (not compilable)", f->name);
            return fmt(c, "calls %s, which is not a function defined in this file (a compiled loop inlines only "
                          "the functions of its own file: define it there, or call it outside the loop)", f->name);
        }
        if (h->state == 1)
            return fmt(c, "calls helper %s recursively (not compilable)", f->name);
        if (!helper_ok(c, h))
            return fmt(c, "calls helper %s, which %s", f->name, h->why);
        const NgJitParams *ps = h->def->params;
        const NgJitExpr **args = xalloc(c, &c->tmp, (size_t)(ps->n + 1) * sizeof *args);
        char why[200];
        if (ng_jit_bind_args(e, ps, f->name, args, why, sizeof why))
            return fmt(c, "calls helper %s, but %s (left to Python)", f->name, why);
        for (int j = 0; j < ps->n && j < 64; j++) {
            if (!(h->wparams >> j & 1))
                continue;
            if (args[j] == ps->items[j].dflt)
                return fmt(c, "calls helper %s without its argument %s, an array it writes (not compilable)",
                           f->name, ps->items[j].name);
            const NgJitExpr *root = subscript_root(args[j]);
            if (!root)
                return fmt(c, "passes %s to helper %s, which writes into it (not compilable)",
                           text(c, args[j]), f->name);
            const char *r = c->checking ? param_write(c, c->checking, root, args[j]) : NULL;
            if (r)
                return r;
        }
        for (int i = 0; i < e->nkeywords; i++) {
            const char *r = check_expr(c, e->keywords[i].value);
            if (r)
                return r;
        }
    }
    for (int i = 0; i < e->nitems; i++) {
        const char *r = check_expr(c, e->items[i]);
        if (r)
            return r;
    }
    return NULL;
}

static void check_kid(Ctx *c, const NgJitExpr *e, void *arg)
{
    const char **r = arg;
    if (!*r)
        *r = check_expr(c, e);
}

static const char *check_expr_kind(Ctx *c, const NgJitExpr *e);

/* Why e does not compile, or NULL; the first time, the line of e into c->why_line (the
 * innermost expression that does not compile is the first to say so). */
static const char *check_expr(Ctx *c, const NgJitExpr *e)
{
    const char *r = check_expr_kind(c, e);
    if (r && !c->why_line)
        c->why_line = e->span.line;
    return r;
}

static const char *check_expr_kind(Ctx *c, const NgJitExpr *e)
{
    if (!e)
        return NULL;
    switch (e->kind) {
    case NG_JIT_E_CALL:
        return check_call(c, e);
    case NG_JIT_E_ATTR:
        if (strcmp(e->name, "shape") == 0 || strcmp(e->name, "size") == 0 || strcmp(e->name, "ndim") == 0)
            return check_expr(c, e->lhs);
        if (is_known_module(e->lhs) && in_list(e->name, module_consts))
            return NULL;
        if (is_module(e->lhs, "np", "numpy") && strcmp(e->name, "newaxis") == 0)
            return NULL; /* (an index: x[:, np.newaxis]; elsewhere the lowering says no) */
        if (in_list(e->name, part_attrs) && !is_known_module(e->lhs))
            return check_expr(c, e->lhs); /* (of an array, not a scalar: the lowering says so) */
        if (strcmp(e->name, "T") == 0 && !is_known_module(e->lhs))
            return check_expr(c, e->lhs); /* (a matrix's transpose in a product: W.T @ x[i]) */
        if (e->lhs->kind == NG_JIT_E_NAME && !is_known_module(e->lhs) && !is_module(e->lhs, "random", NULL))
            return fmt(c, "uses %s, an attribute (a compiled loop reads no object's attributes but an array's "
                       "shape, size, ndim and T: name it before the loop, %s = %s, and read the name)",
                       text(c, e), e->name, text(c, e));
        return fmt(c, "uses %s (not compilable)", text(c, e));
    case NG_JIT_E_LIST:
        return fmt(c, "uses a list, %s (name each item instead, a, b = ..., or store into an array made before "
                   "the loop)", text(c, e));
    case NG_JIT_E_STARRED:
        return fmt(c, "uses *unpacking, %s (not compilable)", text(c, e));
    case NG_JIT_E_COMPARE:
        for (int i = 0; i + 1 < e->nitems; i++) /* (but `c in 'aeiou'`, `key in d`: the lowering's) */
            if ((e->ops[i] == NG_JIT_OP_IN || e->ops[i] == NG_JIT_OP_NOT_IN) &&
                !(e->nitems == 2 && (e->items[1]->kind == NG_JIT_E_NAME ||
                                     (e->items[1]->kind == NG_JIT_E_STR && e->items[1]->str))))
                return fmt(c, "uses `%s`, %s (not compilable)", ng_jit_op_name(e->ops[i]), text(c, e));
        break;
    default:
        break;
    }
    const char *r = NULL;
    each_child(c, e, check_kid, &r);
    if (!r && e->python)
        r = fmt(c, "uses %s, %s %s", python_what(e), text(c, e), python_fix(e));
    return r;
}

/* Why an assignment target does not compile, or NULL. */
static const char *check_target(Ctx *c, const NgJitExpr *t, bool helper)
{
    switch (t->kind) {
    case NG_JIT_E_NAME:
        return NULL;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++) {
            const char *r = check_target(c, t->items[i], helper);
            if (r)
                return r;
        }
        return NULL;
    case NG_JIT_E_SUBSCRIPT:
        if (!subscript_root(t))
            return fmt(c, "assigns %s (not compilable)", text(c, t));
        if (helper) {
            const char *r = param_write(c, c->checking, subscript_root(t), t);
            if (r)
                return r;
        }
        for (const NgJitExpr *e = t; e->kind == NG_JIT_E_SUBSCRIPT; e = e->lhs) {
            const char *r = check_expr(c, e->rhs);
            if (r)
                return r;
        }
        return NULL;
    default:
        return fmt(c, "assigns %s (not compilable)", text(c, t));
    }
}

/* Why a for statement's own parts (not its body) do not compile, or NULL. */
static const char *check_for_head(Ctx *c, const NgJitStmt *s)
{
    if (!range_like(s->test))
        return fmt(c, "iterates over %s (only range() and prange() loops, and loops over arrays, enumerate() or zip() of them, compile)", text(c, s->test));
    if (s->target->kind != NG_JIT_E_NAME)
        return fmt(c, "assigns %s as its loop variable (not compilable)", text(c, s->target));
    for (int i = 0; i < s->test->nitems; i++) {
        const char *r = check_expr(c, s->test->items[i]);
        if (r)
            return r;
    }
    return NULL;
}

/* Why `a = np.zeros(...)` (call e) does not compile, or NULL. */
static const char *check_new(Ctx *c, const NgJitExpr *e)
{
    NgJitNewArray na;
    const char *r;
    bool made = ng_jit_new_array(e, &na);
    if (!made && na.like)
        return fmt(c, "calls %s other than on an array or a part of one (x[i], x[:, j]: indices and whole "
                   "axes) (not compilable)", text(c, e->lhs));
    if (!made && like_fn(e->lhs->name))
        return fmt(c, "calls %s with arguments other than (%s) (not compilable)", text(c, e->lhs),
                   !is_module(e->lhs->lhs, "np", "numpy") ? "" : na.fn == 'c' ? "x" : na.fn == 'f' ? "x, value[, dtype]"
                                                                                       : "x[, dtype]");
    if (!made)
        return fmt(c, "calls %s with arguments other than (n%s[, dtype]) (not compilable)", text(c, e->lhs),
                   na.fn == 'f' ? ", value" : "");
    bool named = na.like != NULL;
    for (int d = 0; d < na.ndim; d++)
        named = named || na.named[d];
    if (na.like && (r = check_expr(c, na.like)))
        return r;
    if (!na.n && !named)
        return fmt(c, "makes an array, %s, whose shape is not written as lengths (up to %d of them: numbers, ints "
                   "bound before the loop, x.shape[k], len(x), and + - * // %% of them) of 1 to %d elements in all "
                   "(not compilable)", text(c, e), NG_JIT_MAX_NEW_RANK, NG_JIT_MAX_NEW);
    const NgJitExpr *t = na.dtype;
    if (t && !(t->kind == NG_JIT_E_STR || t->kind == NG_JIT_E_NAME ||
               (t->kind == NG_JIT_E_ATTR && is_module(t->lhs, "np", "numpy")) ||
               (t->kind == NG_JIT_E_ATTR && strcmp(t->name, "dtype") == 0 && t->lhs->kind == NG_JIT_E_NAME)))
        return fmt(c, "makes an array of dtype %s (only np.<dtype>, a builtin type, a string or x.dtype compile)",
                   text(c, t));
    return check_expr(c, na.fill);
}

static const char *check_stmt_kind(Ctx *c, const NgJitStmt *s, bool helper);

/* Why s does not compile, or NULL; `helper` for a helper's body (which may not write arrays).
 * The first time, s's line into c->why_line, unless an expression of it said so first. */
static const char *check_stmt(Ctx *c, const NgJitStmt *s, bool helper)
{
    const char *r = check_stmt_kind(c, s, helper);
    if (r && !c->why_line)
        c->why_line = s->span.line;
    return r;
}

static const char *check_stmt_kind(Ctx *c, const NgJitStmt *s, bool helper)
{
    const char *r = NULL;
    switch (s->kind) {
    case NG_JIT_S_OTHER: {
        static const char *const fixes[][2] = {
            {"try", "a compiled loop catches no exception: test for the case with an if, `if d != 0:`"},
            {"raise", "a compiled loop's raise names a builtin exception class with a constant message or "
                      "none, `raise ValueError(\"...\")`; other forms are left to Python"},
            {"assert", "a compiled assert's message is a constant str or none, `assert c, \"...\"`; other "
                       "messages are left to Python"},
            {"with", "enter it outside the loop"},
            {"del", "delete after the loop"},
            {"import", "import at the top of the file"},
            {"from", "import at the top of the file"},
            {"global", "pass the value in, and return it or store it into an array"},
            {"nonlocal", "pass the value in, and return it or store it into an array"},
        };
        for (size_t k = 0; k < sizeof fixes / sizeof *fixes; k++)
            if (strcmp(s->what, fixes[k][0]) == 0)
                return fmt(c, "contains a `%s` statement (%s)", s->what, fixes[k][1]);
        return fmt(c, "contains a `%s` statement (left to Python)", s->what);
    }
    case NG_JIT_S_RAISE: {
        /* the builtin exception classes a compiled raise names (the host raises the class the name is
         * bound to then, as Python's statement does) */
        static const char *const classes[] = {
            "Exception", "ArithmeticError", "AssertionError", "FloatingPointError", "IndexError", "KeyError",
            "LookupError", "NotImplementedError", "OverflowError", "RuntimeError", "StopIteration", "TypeError",
            "ValueError", "ZeroDivisionError", NULL};
        if (helper)
            return fmt(c, "raises %s in a helper (left to Python: raise in the loop body)", s->name);
        if (!in_list(s->name, classes))
            return fmt(c, "raises %s (left to Python: a compiled loop raises builtin exception classes, ValueError, "
                       "RuntimeError ..., with a constant message or none)", s->name);
        return check_expr(c, s->test);
    }
    case NG_JIT_S_DEF:
        return fmt(c, "defines function %s (define it before the loop, or in the file: a function called in "
                   "the loop is inlined)", s->name);
    case NG_JIT_S_EXPR: case NG_JIT_S_RETURN:
        return check_expr(c, s->value);
    case NG_JIT_S_ASSIGN:
        if (s->value->kind == NG_JIT_E_CALL && ng_jit_call_kind(s->value) == NG_JIT_CALL_NP_NEW &&
            s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME && !helper)
            return check_new(c, s->value);
        if ((r = check_expr(c, s->value)))
            return r;
        for (int i = 0; i < s->ntargets && !r; i++)
            r = check_target(c, s->targets[i], helper);
        return r;
    case NG_JIT_S_AUGASSIGN:
        if (s->op == NG_JIT_OP_MATMUL)
            return "uses @= (not compilable)";
        if (s->target->kind != NG_JIT_E_NAME && s->target->kind != NG_JIT_E_SUBSCRIPT)
            return fmt(c, "assigns %s (not compilable)", text(c, s->target));
        if ((r = check_target(c, s->target, helper)))
            return r;
        return check_expr(c, s->value);
    case NG_JIT_S_ANNASSIGN:
        if (s->target->kind != NG_JIT_E_NAME)
            return fmt(c, "assigns %s (not compilable)", text(c, s->target));
        return check_expr(c, s->value);
    case NG_JIT_S_FOR:
        if ((r = check_for_head(c, s)))
            return r;
        break;
    case NG_JIT_S_WHILE: case NG_JIT_S_IF:
        if ((r = check_expr(c, s->test)))
            return r;
        break;
    default:
        return NULL;
    }
    if ((r = check_block(c, s->body, helper)))
        return r;
    return check_block(c, s->orelse, helper);
}

static const char *check_block(Ctx *c, NgJitBlock b, bool helper)
{
    for (int i = 0; i < b.n; i++) {
        const char *r = check_stmt(c, b.stmts[i], helper);
        if (r)
            return r;
    }
    return NULL;
}

/* h's lets: names other than its parameters that one top-level statement
 * `k = value` assigns, no other statement assigns, and nothing reads
 * before it (nor value itself). Wherever the helper reads k, k is value
 * (its names as they were then: substitute makes any name the helper
 * assigns opaque), so `k = i + 1; p[k] = v` is proven as p[i + 1] = v. */
static void find_lets(Ctx *c, Helper *h)
{
    NgJitBlock b = h->def->body;
    int *ids = xalloc(c, &c->tmp, (size_t)(b.n + 1) * sizeof *ids);
    const NgJitExpr **vals = xalloc(c, &c->tmp, (size_t)(b.n + 1) * sizeof *vals);
    h->nlets = 0;
    for (int j = 0; j < b.n; j++) {
        const NgJitStmt *s = b.stmts[j];
        if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1 || s->targets[0]->kind != NG_JIT_E_NAME ||
            param_index(h, s->targets[0]->name_id) >= 0)
            continue;
        int id = s->targets[0]->name_id;
        uint64_t *seen = set_new(c);
        block_exprs(c, (NgJitBlock){b.stmts, j}, loads_into, seen);
        loads_into(c, s->value, seen);
        block_stores(c, (NgJitBlock){b.stmts, j}, seen);
        block_stores(c, (NgJitBlock){b.stmts + j + 1, b.n - j - 1}, seen);
        walrus_into(c, s->value, seen);
        if (set_has(seen, id))
            continue;
        ids[h->nlets] = id;
        vals[h->nlets++] = s->value;
    }
    h->let_ids = ids;
    h->let_vals = vals;
}

/* The value of let `name_id` of h (find_lets), or NULL. */
static const NgJitExpr *let_of(const Helper *h, int name_id)
{
    for (int i = 0; i < h->nlets; i++)
        if (h->let_ids[i] == name_id)
            return h->let_vals[i];
    return NULL;
}

bool ng_jit_inlinable_def(const NgJitStmt *d)
{
    if (d->is_generator || d->ndecorators > 1)
        return false;
    if (!d->ndecorators)
        return true;
    const NgJitExpr *e = d->decorators[0];
    if (e->kind == NG_JIT_E_CALL)
        e = e->lhs;
    return (e->kind == NG_JIT_E_NAME && strcmp(e->name, "jit") == 0) ||
           (e->kind == NG_JIT_E_ATTR && strcmp(e->name, "jit") == 0 && e->lhs && e->lhs->kind == NG_JIT_E_NAME);
}

static bool helper_ok(Ctx *c, Helper *h)
{
    if (h->state >= 2)
        return h->state == 2;
    const NgJitStmt *d = h->def;
    h->state = 1;
    const char *why = NULL;
    if (d->is_generator)
        why = "is a generator (not compilable)";
    else if (!ng_jit_inlinable_def(d))
        why = "is decorated (not inlined)";
    for (int i = 0; !why && i < d->params->n; i++)
        if (d->params->items[i].kind == NG_JIT_P_VARARGS || d->params->items[i].kind == NG_JIT_P_VARKW)
            why = "takes *args or **kwargs (not inlined)";
    h->stores = set_new(c);
    block_stores(c, d->body, h->stores);
    if (!why) {
        Helper *outer = c->checking;
        int line = c->why_line; /* (the loop's reason names the line of the call, not the helper's) */
        c->checking = h;
        why = check_block(c, d->body, true);
        c->checking = outer;
        c->why_line = line;
    }
    h->state = why ? 3 : 2;
    h->why = why;
    if (!why) {
        /* what it reads that is neither a parameter nor its own local */
        uint64_t *own = set_dup(c, h->stores);
        for (int i = 0; i < d->params->n; i++)
            set_add(own, d->params->items[i].name_id);
        h->globals = set_new(c);
        block_exprs(c, d->body, loads_into, h->globals);
        for (int i = 0; i < c->nw; i++)
            h->globals[i] &= ~own[i];
        block_exprs(c, d->body, helper_globals_into, h->globals);
        find_lets(c, h);
    }
    return !why;
}

/* ---- pass 1: the loops ---- */

static int count_loops(NgJitBlock b)
{
    int n = 0;
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue;
        n += (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) + count_loops(s->body) +
             count_loops(s->orelse);
    }
    return n;
}

/* Appends the loops of b in source order. Loops of a loop's else block run
 * after it, so their parent is the loop's parent. */
static void collect_loops(Ctx *c, NgJitBlock b, int parent, int depth)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue;
        if (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) {
            int k = c->res->n++;
            NgJitLoopInfo *L = &c->res->items[k];
            L->stmt = s;
            L->line = s->span.line;
            L->parent = parent;
            L->depth = depth;
            L->var_id = -1;
            c->ld[k].live_out = set_new(c);
            collect_loops(c, s->body, k, depth + 1);
            collect_loops(c, s->orelse, parent, depth);
        } else {
            collect_loops(c, s->body, parent, depth);
            collect_loops(c, s->orelse, parent, depth);
        }
    }
}

static int loop_index(Ctx *c, const NgJitStmt *s)
{
    for (int i = 0; i < c->res->n; i++)
        if (c->res->items[i].stmt == s)
            return i;
    return -1;
}

/* ---- pass 2: liveness ---- */

/* Where break and continue go: the names live there. */
typedef struct Jumps {
    const uint64_t *brk, *cont;
} Jumps;

static void live_block(Ctx *c, NgJitBlock b, uint64_t *live, const Jumps *j);

/* An assignment to target t, backwards: kills the names, reads the subscripts. */
static void live_target(Ctx *c, const NgJitExpr *t, uint64_t *live)
{
    switch (t->kind) {
    case NG_JIT_E_NAME:
        set_del(live, t->name_id);
        break;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = t->nitems - 1; i >= 0; i--)
            live_target(c, t->items[i], live);
        break;
    case NG_JIT_E_STARRED:
        live_target(c, t->lhs, live);
        break;
    default:
        loads_into(c, t, live);
        break;
    }
}

/* live: the names live after s on entry, before s on return. */
static void live_stmt(Ctx *c, const NgJitStmt *s, uint64_t *live, const Jumps *j)
{
    switch (s->kind) {
    case NG_JIT_S_EXPR:
        loads_into(c, s->value, live);
        break;
    case NG_JIT_S_ASSIGN:
        for (int i = s->ntargets - 1; i >= 0; i--)
            live_target(c, s->targets[i], live);
        loads_into(c, s->value, live);
        break;
    case NG_JIT_S_AUGASSIGN:
        if (s->target->kind == NG_JIT_E_NAME)
            set_add(live, s->target->name_id);
        loads_into(c, s->target, live);
        loads_into(c, s->value, live);
        break;
    case NG_JIT_S_ANNASSIGN:
        if (s->value) {
            live_target(c, s->target, live);
            loads_into(c, s->value, live);
        }
        break;
    case NG_JIT_S_IF: {
        uint64_t *other = set_dup(c, live);
        live_block(c, s->body, live, j);
        live_block(c, s->orelse, other, j);
        set_or(c, live, other);
        loads_into(c, s->test, live);
        break;
    }
    case NG_JIT_S_FOR: case NG_JIT_S_WHILE: {
        bool is_for = s->kind == NG_JIT_S_FOR;
        uint64_t *out = set_dup(c, live);
        uint64_t *else_in = set_dup(c, live);
        live_block(c, s->orelse, else_in, j);
        uint64_t *head = set_dup(c, else_in); /* live where the loop decides to go on */
        if (!is_for)
            loads_into(c, s->test, head);
        for (;;) {
            uint64_t *b = set_dup(c, head);
            Jumps jj = {out, head};
            live_block(c, s->body, b, &jj);
            if (is_for)
                live_target(c, s->target, b);
            else
                loads_into(c, s->test, b);
            set_or(c, b, else_in);
            if (set_eq(c, b, head))
                break;
            head = b;
        }
        int k = loop_index(c, s);
        if (k >= 0) {
            set_copy(c, c->ld[k].live_out, else_in);
            set_or(c, c->ld[k].live_out, out);
        }
        set_copy(c, live, head);
        if (is_for)
            loads_into(c, s->test, live);
        break;
    }
    case NG_JIT_S_BREAK:
        if (j)
            set_copy(c, live, j->brk);
        break;
    case NG_JIT_S_CONTINUE:
        if (j)
            set_copy(c, live, j->cont);
        break;
    case NG_JIT_S_RETURN:
        set_copy(c, live, c->always_live);
        if (s->value)
            loads_into(c, s->value, live);
        break;
    case NG_JIT_S_DEF:
        for (int i = 0; i < s->ndecorators; i++)
            loads_into(c, s->decorators[i], live);
        for (int i = 0; i < s->params->n; i++)
            if (s->params->items[i].dflt)
                loads_into(c, s->params->items[i].dflt, live);
        break;
    case NG_JIT_S_OTHER:
        for (int i = 0; i < s->nnames; i++)
            set_add(live, s->name_ids[i]);
        break;
    case NG_JIT_S_RAISE: /* (a raise leaves the function; an assert, where its test fails) */
        if (!s->test) {
            set_copy(c, live, c->always_live);
            break;
        }
        set_or(c, live, c->always_live);
        loads_into(c, s->test, live);
        break;
    default:
        break;
    }
}

static void live_block(Ctx *c, NgJitBlock b, uint64_t *live, const Jumps *j)
{
    for (int i = b.n - 1; i >= 0; i--)
        live_stmt(c, b.stmts[i], live, j);
}

/* Lambdas read their free names whenever they are called: live everywhere. */
static void lambda_loads(Ctx *c, const NgJitExpr *e, void *set)
{
    if (e->kind != NG_JIT_E_LAMBDA) {
        each_child(c, e, lambda_loads, set);
        return;
    }
    uint64_t *names = set_new(c);
    loads_into(c, e, names);
    for (int i = 0; i < e->params->n; i++)
        set_del(names, e->params->items[i].name_id);
    set_or(c, set, names);
}

typedef struct Always {
    uint64_t *set;
    bool all;             /* locals(), vars(), eval() or exec() is called */
} Always;

static void dynamic_calls(Ctx *c, const NgJitExpr *e, void *arg)
{
    Always *a = arg;
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME &&
        (strcmp(e->lhs->name, "locals") == 0 || strcmp(e->lhs->name, "vars") == 0 ||
         strcmp(e->lhs->name, "eval") == 0 || strcmp(e->lhs->name, "exec") == 0))
        a->all = true;
    each_child(c, e, dynamic_calls, arg);
}

/* Names of `global` or `nonlocal` statements (`what`) anywhere in b. */
static void declared(NgJitBlock b, const char *what, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER && strcmp(s->what, what) == 0)
            for (int k = 0; k < s->nnames; k++)
                set_add(set, s->name_ids[k]);
        declared(s->body, what, set);
        declared(s->orelse, what, set);
    }
}

/* Every name read anywhere in b: expressions, python statements, nested defs. */
static void all_loads(Ctx *c, NgJitBlock b, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        for (int k = 0; k < s->nnames; k++)
            set_add(set, s->name_ids[k]);
        stmt_exprs(c, s, loads_into, set);
        all_loads(c, s->body, set);
        all_loads(c, s->orelse, set);
    }
}

/* Names that are read at unknown times: declared global or nonlocal, read by
 * nested functions or lambdas (closures), or everything when the function
 * looks at its own locals. */
static void always_live(Ctx *c, NgJitBlock b, Always *a)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER) {
            if (strcmp(s->what, "global") == 0 || strcmp(s->what, "nonlocal") == 0)
                for (int k = 0; k < s->nnames; k++)
                    set_add(a->set, s->name_ids[k]);
            continue;
        }
        if (s->kind == NG_JIT_S_DEF) {
            /* its free names: what it reads but neither assigns nor takes, or declares nonlocal */
            uint64_t *names = set_new(c), *own = set_new(c), *nonlocal = set_new(c);
            all_loads(c, s->body, names);
            block_stores(c, s->body, own);
            for (int k = 0; k < s->params->n; k++)
                set_add(own, s->params->items[k].name_id);
            declared(s->body, "nonlocal", nonlocal);
            for (int k = 0; k < c->nw; k++)
                a->set[k] |= (names[k] & ~own[k]) | nonlocal[k];
            continue;
        }
        stmt_exprs(c, s, lambda_loads, a->set);
        stmt_exprs(c, s, dynamic_calls, a);
        always_live(c, s->body, a);
        always_live(c, s->orelse, a);
    }
}

/* ---- pass 3a: scalars written before read (definite assignment) ---- */

/* Names surely assigned on every path so far; `dead` after break, continue
 * or return (no path reaches here). */
typedef struct Du {
    uint64_t *def;
    bool dead;
} Du;

typedef struct DuArg {
    const Du *d;
    uint64_t *exposed;  /* names read where they may not be assigned yet */
} DuArg;

static void du_loads(Ctx *c, const NgJitExpr *e, void *arg)
{
    DuArg *a = arg;
    if (e->kind == NG_JIT_E_NAME && e->ctx == NG_JIT_LOAD && !a->d->dead && !set_has(a->d->def, e->name_id))
        set_add(a->exposed, e->name_id);
    each_child(c, e, du_loads, arg);
}

static void du_target(Ctx *c, const NgJitExpr *t, Du *d, uint64_t *exposed)
{
    DuArg a = {d, exposed};
    switch (t->kind) {
    case NG_JIT_E_NAME:
        set_add(d->def, t->name_id);
        break;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            du_target(c, t->items[i], d, exposed);
        break;
    case NG_JIT_E_STARRED:
        du_target(c, t->lhs, d, exposed);
        break;
    default:
        du_loads(c, t, &a);
        break;
    }
}

static Du du_copy(Ctx *c, const Du *d)
{
    Du r = {set_dup(c, d->def), d->dead};
    return r;
}

/* a = the paths of a or of b. */
static void du_meet(Ctx *c, Du *a, const Du *b)
{
    if (b->dead)
        return;
    if (a->dead)
        set_copy(c, a->def, b->def);
    else
        set_and(c, a->def, b->def);
    a->dead = false;
}

static void du_block(Ctx *c, NgJitBlock b, Du *d, uint64_t *exposed);

static void du_stmt(Ctx *c, const NgJitStmt *s, Du *d, uint64_t *exposed)
{
    DuArg a = {d, exposed};
    switch (s->kind) {
    case NG_JIT_S_EXPR: case NG_JIT_S_RETURN:
        if (s->value)
            du_loads(c, s->value, &a);
        d->dead |= s->kind == NG_JIT_S_RETURN;
        break;
    case NG_JIT_S_ASSIGN:
        du_loads(c, s->value, &a);
        for (int i = 0; i < s->ntargets; i++)
            du_target(c, s->targets[i], d, exposed);
        break;
    case NG_JIT_S_AUGASSIGN:
        if (s->target->kind == NG_JIT_E_NAME) {
            if (!d->dead && !set_has(d->def, s->target->name_id))
                set_add(exposed, s->target->name_id);
        } else {
            du_loads(c, s->target, &a);
        }
        du_loads(c, s->value, &a);
        du_target(c, s->target, d, exposed);
        break;
    case NG_JIT_S_ANNASSIGN:
        if (s->value) {
            du_loads(c, s->value, &a);
            du_target(c, s->target, d, exposed);
        }
        break;
    case NG_JIT_S_IF: {
        du_loads(c, s->test, &a);
        Du then = du_copy(c, d);
        du_block(c, s->body, &then, exposed);
        du_block(c, s->orelse, d, exposed);
        du_meet(c, d, &then);
        break;
    }
    case NG_JIT_S_FOR: case NG_JIT_S_WHILE: {
        du_loads(c, s->test, &a);
        if (ng_jit_while_true(s)) {
            /* the body runs once at least up to its first statement that may leave the iteration,
             * and only a break ends the loop: what that part assigns is sure after it */
            int i = 0;
            while (i < s->body.n && !ng_jit_may_leave(s->body.stmts[i]))
                du_stmt(c, s->body.stmts[i++], d, exposed);
            Du rest = du_copy(c, d);
            du_block(c, (NgJitBlock){s->body.stmts + i, s->body.n - i}, &rest, exposed);
            break;
        }
        /* the body may run zero times: what it assigns is not sure after it */
        Du body = du_copy(c, d);
        if (s->kind == NG_JIT_S_FOR)
            du_target(c, s->target, &body, exposed);
        du_block(c, s->body, &body, exposed);
        Du after = du_copy(c, d);
        du_block(c, s->orelse, &after, exposed);
        if (!has_break(s->body))
            *d = after;
        break;
    }
    case NG_JIT_S_BREAK: case NG_JIT_S_CONTINUE:
        d->dead = true;
        break;
    case NG_JIT_S_RAISE: /* (an assert goes on where its test holds) */
        if (s->test)
            du_loads(c, s->test, &a);
        d->dead = d->dead || !s->test;
        break;
    default:
        break;
    }
}

static void du_block(Ctx *c, NgJitBlock b, Du *d, uint64_t *exposed)
{
    for (int i = 0; i < b.n; i++)
        du_stmt(c, b.stmts[i], d, exposed);
}

/* ---- pass 3b: reductions ---- */

enum { RED_NONE = -1 };

/* Finds name `id` among the terms of a chain of `op` (and its inverse `inv`,
 * which flips the sign; NG_JIT_OP_NONE when there is none). */
typedef struct Chain {
    int id;
    const NgJitExpr *leaf; /* when not NULL: the leaf is an expression equal to it, not id */
    NgJitOp op, inv;
    int found;   /* times id stands as a term with a + sign */
    bool bad;    /* id with a - sign, or inside a term */
} Chain;

typedef struct Leaf {
    const NgJitExpr *leaf;
    bool found;
} Leaf;

static void find_leaf(Ctx *c, const NgJitExpr *e, void *arg)
{
    Leaf *l = arg;
    if (ng_jit_expr_equal(e, l->leaf))
        l->found = true;
    else
        each_child(c, e, find_leaf, arg);
}

/* Whether e is the chain's leaf, or holds it. */
static bool is_leaf(const NgJitExpr *e, int id, const NgJitExpr *leaf)
{
    return leaf ? ng_jit_expr_equal(e, leaf) : e->kind == NG_JIT_E_NAME && e->name_id == id;
}

static bool holds_leaf(Ctx *c, const NgJitExpr *e, int id, const NgJitExpr *leaf)
{
    if (!leaf)
        return mentions(c, e, id);
    Leaf l = {leaf, false};
    find_leaf(c, e, &l);
    return l.found;
}

static void chain_find(Ctx *c, const NgJitExpr *e, Chain *ch, int sign)
{
    if (e->kind == NG_JIT_E_BINARY && (e->op == ch->op || (ch->inv && e->op == ch->inv))) {
        chain_find(c, e->lhs, ch, sign);
        chain_find(c, e->rhs, ch, e->op == ch->op ? sign : -sign);
    } else if (is_leaf(e, ch->id, ch->leaf)) {
        if (sign > 0)
            ch->found++;
        else
            ch->bad = true;
    } else if (holds_leaf(c, e, ch->id, ch->leaf)) {
        ch->bad = true;
    }
}

static int combine_op(Ctx *c, const NgJitExpr *v, int id, const NgJitExpr *leaf);

/* The reduction `id = v` performs, or RED_NONE. */
static int assign_red(Ctx *c, const NgJitExpr *v, int id) { return combine_op(c, v, id, NULL); }

/* How v combines a leaf (name id, or an expression equal to `leaf`) with
 * the rest of it: the operator of a chain `x + e1 - e2`, `x * e`, `x | e`
 * ... or of max/min(x, e ...) in which the leaf stands once, as a term with a
 * + sign, and nowhere else; RED_NONE otherwise. */
static int combine_op(Ctx *c, const NgJitExpr *v, int id, const NgJitExpr *leaf)
{
    static const struct {
        NgJitOp op, inv;
        NgJitRedOp red;
    } chains[] = {
        {NG_JIT_OP_ADD, NG_JIT_OP_SUB, NG_JIT_RED_ADD}, {NG_JIT_OP_MUL, NG_JIT_OP_NONE, NG_JIT_RED_MUL},
        {NG_JIT_OP_BITOR, NG_JIT_OP_NONE, NG_JIT_RED_OR}, {NG_JIT_OP_BITAND, NG_JIT_OP_NONE, NG_JIT_RED_AND},
        {NG_JIT_OP_BITXOR, NG_JIT_OP_NONE, NG_JIT_RED_XOR},
    };
    if (v->kind == NG_JIT_E_BINARY) {
        for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
            if (v->op != chains[i].op && (!chains[i].inv || v->op != chains[i].inv))
                continue;
            Chain ch = {id, leaf, chains[i].op, chains[i].inv, 0, false};
            chain_find(c, v, &ch, 1);
            return ch.found == 1 && !ch.bad ? (int)chains[i].red : RED_NONE;
        }
        return RED_NONE;
    }
    if (v->kind != NG_JIT_E_CALL || v->nkeywords || v->nitems < 2)
        return RED_NONE;
    const NgJitExpr *f = v->lhs;
    int red = RED_NONE;
    if (f->kind == NG_JIT_E_NAME && strcmp(f->name, "max") == 0)
        red = NG_JIT_RED_MAX;
    else if (f->kind == NG_JIT_E_NAME && strcmp(f->name, "min") == 0)
        red = NG_JIT_RED_MIN;
    else if (f->kind == NG_JIT_E_ATTR && is_module(f->lhs, "np", "numpy") && v->nitems == 2)
        red = strcmp(f->name, "maximum") == 0 || strcmp(f->name, "fmax") == 0   ? NG_JIT_RED_MAX
              : strcmp(f->name, "minimum") == 0 || strcmp(f->name, "fmin") == 0 ? NG_JIT_RED_MIN
                                                                                  : RED_NONE;
    if (red == RED_NONE)
        return RED_NONE;
    int found = 0;
    for (int i = 0; i < v->nitems; i++) {
        const NgJitExpr *x = v->items[i];
        if (is_leaf(x, id, leaf))
            found++;
        else if (x->kind == NG_JIT_E_STARRED || holds_leaf(c, x, id, leaf))
            return RED_NONE;
    }
    return found == 1 ? red : RED_NONE;
}

typedef struct Varying {
    const NgJitAst *ast;   /* NULL: any helper call counts */
    const NgJitStmt *func;
    int depth;
    bool found;
} Varying;

/* Sets arg's found when e draws a random number, also in a helper it calls (8 deep; any helper
 * call without the AST): two evaluations of it (the compared e and the assigned e of
 * `if e > s: s = e`) may differ. */
static void varying_into(Ctx *c, const NgJitExpr *e, void *arg)
{
    Varying *v = arg;
    NgJitCallKind k = e->kind == NG_JIT_E_CALL ? ng_jit_call_kind(e) : NG_JIT_CALL_OTHER;
    if (k == NG_JIT_CALL_RANDOM) {
        v->found = true;
    } else if (k == NG_JIT_CALL_HELPER) {
        const NgJitStmt *d = v->ast && e->lhs->kind == NG_JIT_E_NAME ? ng_jit_helper_def(v->ast, v->func, e->lhs->name)
                                                                     : NULL;
        if (!d || v->depth >= 8) {
            v->found = true;
        } else {
            v->depth++;
            block_exprs(c, d->body, varying_into, arg);
            v->depth--;
        }
    }
    each_child(c, e, varying_into, arg);
}

static bool varying(Ctx *c, const NgJitExpr *e)
{
    Varying v = {c ? c->ast : NULL, c ? c->func : NULL, 0, false};
    varying_into(c, e, &v);
    return v.found;
}

/* The comparison seen from the other side: `a < b` is `b > a`. */
static NgJitOp flipped(NgJitOp op)
{
    return op == NG_JIT_OP_LT ? NG_JIT_OP_GT : op == NG_JIT_OP_GT ? NG_JIT_OP_LT
           : op == NG_JIT_OP_LE ? NG_JIT_OP_GE : op == NG_JIT_OP_GE ? NG_JIT_OP_LE : op;
}

/* `if e > s: s = e` (max) or `if e < s: s = e` (min), either way round, no else. */
static int if_red(Ctx *c, const NgJitStmt *s, int id)
{
    if (s->kind != NG_JIT_S_IF || s->orelse.n || s->body.n != 1)
        return RED_NONE;
    const NgJitStmt *a = s->body.stmts[0];
    const NgJitExpr *t = s->test;
    if (a->kind != NG_JIT_S_ASSIGN || a->ntargets != 1 || a->targets[0]->kind != NG_JIT_E_NAME ||
        a->targets[0]->name_id != id || mentions(c, a->value, id) || t->kind != NG_JIT_E_COMPARE ||
        t->nitems != 2)
        return RED_NONE;
    NgJitOp op = t->ops[0];
    const NgJitExpr *l = t->items[0], *r = t->items[1];
    if (varying(c, a->value))
        return RED_NONE;
    if (r->kind == NG_JIT_E_NAME && r->name_id == id && ng_jit_expr_equal(l, a->value)) {
        /* e OP s */
    } else if (l->kind == NG_JIT_E_NAME && l->name_id == id && ng_jit_expr_equal(r, a->value)) {
        op = flipped(op);
    } else {
        return RED_NONE;
    }
    if (op == NG_JIT_OP_GT || op == NG_JIT_OP_GE)
        return NG_JIT_RED_MAX;
    if (op == NG_JIT_OP_LT || op == NG_JIT_OP_LE)
        return NG_JIT_RED_MIN;
    return RED_NONE;
}

/* `s = e if e > s else s` (or `s < e`; `<` for min): `if e > s: s = e` as an expression,
 * *last for `>=` or `<=` (of equal values the later stays). `s = s if s > e else e` chooses e
 * where the test fails: s = e unless s > e, Python's max(e, s) (`s = s if s < e else e`:
 * min(e, s)), *late (an e that is NaN is taken, so with floats the order decides) and *last
 * where an equal e is taken (a strict test). RED_NONE for other forms. */
static int ifexp_red(Ctx *c, const NgJitExpr *v, int id, bool *late, bool *last)
{
    if (v->kind != NG_JIT_E_IFEXP || v->cond->kind != NG_JIT_E_COMPARE || v->cond->nitems != 2)
        return RED_NONE;
    const NgJitExpr *l = v->cond->items[0], *r = v->cond->items[1], *e;
    NgJitOp op = v->cond->ops[0];
    if (is_leaf(r, id, NULL) && !mentions(c, l, id)) {
        e = l; /* e OP s */
    } else if (is_leaf(l, id, NULL) && !mentions(c, r, id)) {
        e = r;
        op = flipped(op);
    } else {
        return RED_NONE;
    }
    bool strict = op == NG_JIT_OP_GT || op == NG_JIT_OP_LT, up = op == NG_JIT_OP_GT || op == NG_JIT_OP_GE;
    if ((!strict && op != NG_JIT_OP_GE && op != NG_JIT_OP_LE) || varying(c, e))
        return RED_NONE;
    if (ng_jit_expr_equal(v->lhs, e) && is_leaf(v->rhs, id, NULL)) { /* e where e OP s */
        *late = false;
        *last = !strict;
        return up ? NG_JIT_RED_MAX : NG_JIT_RED_MIN;
    }
    if (is_leaf(v->lhs, id, NULL) && ng_jit_expr_equal(v->rhs, e)) { /* e where not (e OP s) */
        *late = true;
        *last = strict;
        return up ? NG_JIT_RED_MIN : NG_JIT_RED_MAX;
    }
    return RED_NONE;
}

typedef struct Red {
    int id;
    int op;         /* the operator so far, RED_NONE before the first update */
    int updates;    /* statements that update id */
    int loads;      /* reads of id that those updates account for */
    bool bad;       /* id assigned some other way, or two operators */
    bool late;      /* a max/min call whose first argument is not id (NgJitReduction.late) */
    bool last;      /* `if e >= id: id = e` (NgJitReduction.ties_last) */
} Red;

static void red_update(Red *r, int op)
{
    if (op == RED_NONE || (r->updates && op != r->op))
        r->bad = true;
    r->op = op;
    r->updates++;
}

static void red_block(Ctx *c, NgJitBlock b, Red *r)
{
    for (int i = 0; i < b.n && !r->bad; i++) {
        const NgJitStmt *s = b.stmts[i];
        int op = if_red(c, s, r->id);
        if (op != RED_NONE) {
            red_update(r, op);
            r->loads++;
            r->last = r->last || s->test->ops[0] == NG_JIT_OP_GE || s->test->ops[0] == NG_JIT_OP_LE;
            continue;
        }
        uint64_t *st = set_new(c);
        bool late = false, last = false;
        stmt_stores(c, s, st);
        if (set_has(st, r->id)) {
            if (s->kind == NG_JIT_S_AUGASSIGN && s->target->kind == NG_JIT_E_NAME && !mentions(c, s->value, r->id)) {
                switch (s->op) {
                case NG_JIT_OP_ADD: case NG_JIT_OP_SUB: op = NG_JIT_RED_ADD; break;
                case NG_JIT_OP_MUL: op = NG_JIT_RED_MUL; break;
                case NG_JIT_OP_BITOR: op = NG_JIT_RED_OR; break;
                case NG_JIT_OP_BITAND: op = NG_JIT_RED_AND; break;
                case NG_JIT_OP_BITXOR: op = NG_JIT_RED_XOR; break;
                default: op = RED_NONE; break;
                }
                red_update(r, op);
            } else if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 &&
                       s->targets[0]->kind == NG_JIT_E_NAME && s->targets[0]->name_id == r->id &&
                       (op = ifexp_red(c, s->value, r->id, &late, &last)) != RED_NONE) {
                red_update(r, op); /* (the test and the choice read it) */
                r->late = r->late || late;
                r->last = r->last || last;
                r->loads += 2;
            } else if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 &&
                       s->targets[0]->kind == NG_JIT_E_NAME && s->targets[0]->name_id == r->id) {
                red_update(r, assign_red(c, s->value, r->id));
                /* (Python's max/min: np.maximum and np.fmax treat a NaN alike either way round) */
                r->late = r->late || (s->value->kind == NG_JIT_E_CALL && s->value->lhs->kind == NG_JIT_E_NAME &&
                                      s->value->nitems >= 1 && !is_leaf(s->value->items[0], r->id, NULL));
                r->loads++;
            } else {
                r->bad = true;
            }
        }
        red_block(c, s->body, r);
        red_block(c, s->orelse, r);
    }
}

/* The reduction operator of scalar id in the body, or RED_NONE when id is
 * assigned otherwise or read other than by its updates. */
static int reduction_of(Ctx *c, NgJitBlock body, int id, bool *late, bool *last)
{
    Red r = {id, RED_NONE, 0, 0, false, false, false};
    red_block(c, body, &r);
    if (r.bad || !r.updates)
        return RED_NONE;
    *late = r.late;
    *last = r.last;
    Count k = {id, 0};
    block_exprs(c, body, count_loads, &k);
    return k.n == r.loads ? r.op : RED_NONE;
}

/* A literal constant: a number (negated or not), True, False. */
static bool literal_const(const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_UNARY && (e->op == NG_JIT_OP_NEG || e->op == NG_JIT_OP_POS))
        e = e->lhs;
    return (e->kind == NG_JIT_E_INT && !e->big) || e->kind == NG_JIT_E_FLOAT ||
           (e->kind == NG_JIT_E_CONST && (e->cval == NG_JIT_C_TRUE || e->cval == NG_JIT_C_FALSE));
}

/* The loop variable v, v + k, k + v or v - k (k an int literal): it grows with the iteration
 * for a positive step. */
static bool var_plus(const NgJitExpr *e, int var)
{
    if (e->kind == NG_JIT_E_NAME)
        return e->name_id == var;
    if (e->kind != NG_JIT_E_BINARY || (e->op != NG_JIT_OP_ADD && e->op != NG_JIT_OP_SUB))
        return false;
    const NgJitExpr *a = e->lhs, *b = e->rhs;
    if (e->op == NG_JIT_OP_ADD && a->kind == NG_JIT_E_INT)
        a = e->rhs, b = e->lhs;
    return a->kind == NG_JIT_E_NAME && a->name_id == var && b->kind == NG_JIT_E_INT && !b->big;
}

typedef struct Last {
    int id;
    const NgJitExpr *value; /* what every assignment gives */
    bool bad;
} Last;

static void last_block(Ctx *c, NgJitBlock b, Last *l)
{
    for (int i = 0; i < b.n && !l->bad; i++) {
        const NgJitStmt *s = b.stmts[i];
        uint64_t *st = set_new(c);
        stmt_stores(c, s, st);
        if (set_has(st, l->id)) {
            const NgJitExpr *v = s->value;
            if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1 || s->targets[0]->kind != NG_JIT_E_NAME ||
                s->targets[0]->name_id != l->id || (l->value && !ng_jit_expr_equal(v, l->value))) {
                l->bad = true;
                return;
            }
            l->value = v;
        }
        if (s->kind != NG_JIT_S_DEF) {
            last_block(c, s->body, l);
            last_block(c, s->orelse, l);
        }
    }
}

/* `t = v` (every assignment of t in the body the same, t not read in it): after the loop t
 * holds the value of the last iteration that assigned it, or its value before where none
 * did. That is a reduction of the values the iterations assign (NgJitReduction.fresh) when v
 * is a constant (True: |, False: &, else max; all the same anyway) or the loop variable plus a
 * constant, which grows with the iterations for a literal step > 0 (max), falls for one < 0
 * (min); RED_NONE otherwise. */
static int last_of(Ctx *c, NgJitBlock body, int id, int var, int64_t step)
{
    Last l = {id, NULL, false};
    last_block(c, body, &l);
    Count k = {id, 0};
    block_exprs(c, body, count_loads, &k);
    if (l.bad || !l.value || k.n)
        return RED_NONE;
    const NgJitExpr *v = l.value;
    if (v->kind == NG_JIT_E_CONST)
        return v->cval == NG_JIT_C_TRUE ? NG_JIT_RED_OR : NG_JIT_RED_AND;
    if (literal_const(v))
        return NG_JIT_RED_MAX;
    if (var >= 0 && step != 0 && var_plus(v, var))
        return step > 0 ? NG_JIT_RED_MAX : NG_JIT_RED_MIN;
    return RED_NONE;
}

/* ---- pass 3b': ranked reductions (argmax) ---- */

/* `if e OP key: key = e; n1 = v1; ...`, either way round, no else: the body
 * assigns distinct names, one of them the key from the compared expression,
 * and neither e nor any value reads a name the body assigns. *key and *op
 * (e OP key: > >= < <=) when it is one. */
static bool ranked_if(Ctx *c, const NgJitStmt *s, int *key, NgJitOp *op)
{
    if (s->kind != NG_JIT_S_IF || s->orelse.n || s->body.n < 2)
        return false;
    /* `if c and e OP key:` (either side of `and`): the iterations where c fails take no part */
    const NgJitExpr *test = s->test, *also = NULL;
    if (test->kind == NG_JIT_E_BOOLOP && test->op == NG_JIT_OP_AND) {
        bool l = test->lhs->kind == NG_JIT_E_COMPARE && test->lhs->nitems == 2;
        bool r = test->rhs->kind == NG_JIT_E_COMPARE && test->rhs->nitems == 2;
        if (r)
            test = test->rhs, also = s->test->lhs;
        else if (l)
            test = test->lhs, also = s->test->rhs;
        if (l && r) { /* (the one whose side is a name the body assigns) */
            const NgJitExpr *x = s->test->lhs;
            for (int i = 0; i < s->body.n; i++) {
                const NgJitExpr *t = s->body.stmts[i]->kind == NG_JIT_S_ASSIGN && s->body.stmts[i]->ntargets == 1
                                         ? s->body.stmts[i]->targets[0] : NULL;
                if (t && t->kind == NG_JIT_E_NAME && ((x->items[0]->kind == NG_JIT_E_NAME &&
                                                       x->items[0]->name_id == t->name_id) ||
                                                      (x->items[1]->kind == NG_JIT_E_NAME &&
                                                       x->items[1]->name_id == t->name_id)))
                    test = x, also = s->test->rhs;
            }
        }
    }
    if (test->kind != NG_JIT_E_COMPARE || test->nitems != 2)
        return false;
    uint64_t *tg = set_new(c), *reads = set_new(c);
    if (also) {
        loads_into(c, also, reads);
        walrus_into(c, also, reads);
    }
    for (int i = 0; i < s->body.n; i++) {
        const NgJitStmt *a = s->body.stmts[i];
        if (a->kind != NG_JIT_S_ASSIGN || a->ntargets != 1 || a->targets[0]->kind != NG_JIT_E_NAME ||
            set_has(tg, a->targets[0]->name_id))
            return false;
        set_add(tg, a->targets[0]->name_id);
        loads_into(c, a->value, reads);
        walrus_into(c, a->value, reads);
    }
    NgJitOp o = test->ops[0];
    const NgJitExpr *l = test->items[0], *r = test->items[1], *e;
    if (r->kind == NG_JIT_E_NAME && set_has(tg, r->name_id)) {
        *key = r->name_id, e = l;
    } else if (l->kind == NG_JIT_E_NAME && set_has(tg, l->name_id)) {
        *key = l->name_id, e = r;
        o = flipped(o);
    } else {
        return false;
    }
    if ((o != NG_JIT_OP_GT && o != NG_JIT_OP_GE && o != NG_JIT_OP_LT && o != NG_JIT_OP_LE) || varying(c, e))
        return false;
    loads_into(c, e, reads);
    walrus_into(c, e, reads);
    for (int i = 0; i < s->body.n; i++) {
        const NgJitStmt *a = s->body.stmts[i];
        if (a->targets[0]->name_id == *key && !ng_jit_expr_equal(a->value, e))
            return false;
    }
    set_and(c, reads, tg);
    for (int k = 0; k < c->nw; k++)
        if (reads[k])
            return false;
    *op = o;
    return true;
}

/* The ranked ifs in b (not in nested defs): how many, and the first. */
static void find_ranked(Ctx *c, NgJitBlock b, const NgJitStmt **first, int *key, NgJitOp *op, int *n)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        int k;
        NgJitOp o;
        if (ranked_if(c, s, &k, &o)) {
            if ((*n)++ == 0)
                *first = s, *key = k, *op = o;
            continue;
        }
        if (s->kind != NG_JIT_S_DEF) {
            find_ranked(c, s->body, first, key, op, n);
            find_ranked(c, s->orelse, first, key, op, n);
        }
    }
}

/* Names the statements of b assign, but for the body of `skip`. */
static void stores_except(Ctx *c, NgJitBlock b, const NgJitStmt *skip, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        stmt_stores(c, s, set);
        if (s != skip && s->kind != NG_JIT_S_DEF) {
            stores_except(c, s->body, skip, set);
            stores_except(c, s->orelse, skip, set);
        }
    }
}

/* The body's one argmax-style update, `if e > best: best = e; k = i; ...`,
 * whose names the rest of the body neither assigns nor reads (best only in
 * its test): *key, *op (e OP best), and the names it assigns into `names`;
 * false when there is none (or more than one). Run in order, it leaves the
 * best e (the largest for > >=, the smallest for < <=) with the values of
 * its iteration: the first such iteration for a strict test, the last
 * otherwise; a pair reduction over (e, iteration) gives the same. */
static bool ranked_group(Ctx *c, NgJitBlock body, int *key, NgJitOp *op, uint64_t *names)
{
    const NgJitStmt *s = NULL;
    int n = 0;
    find_ranked(c, body, &s, key, op, &n);
    if (n != 1)
        return false;
    uint64_t *other = set_new(c);
    stores_except(c, body, s, other);
    for (int i = 0; i < s->body.n; i++) {
        int id = s->body.stmts[i]->targets[0]->name_id;
        Count k = {id, 0};
        block_exprs(c, body, count_loads, &k);
        if (set_has(other, id) || k.n != (id == *key))
            return false;
        set_add(names, id);
    }
    return true;
}

/* ---- pass 3c: the accesses to written arrays ---- */

/* e with the view at its root (Ctx.view) replaced by the view's value: row[j]
 * is X[i][j], row is X[i] (a copy, in the result's arena); e itself when its
 * root is no view. */
static const NgJitExpr *through_view(Ctx *c, const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_NAME)
        return c->view && c->view[e->name_id] ? c->view[e->name_id] : e;
    if (e->kind != NG_JIT_E_SUBSCRIPT)
        return e;
    const NgJitExpr *lhs = through_view(c, e->lhs);
    if (lhs == e->lhs)
        return e;
    NgJitExpr *x = xalloc(c, &c->res->arena, sizeof *x);
    *x = *e;
    x->lhs = (NgJitExpr *)lhs;
    return x;
}

/* The array a subscript rooted at NAME r is of: a view's array, or r's. */
static int array_of(Ctx *c, const NgJitExpr *r)
{
    return subscript_root(through_view(c, r))->name_id;
}

static void add_access(Ctx *c, const NgJitExpr *e, int root, bool write, bool aug, NgJitOp op)
{
    const NgJitExpr *v = through_view(c, e);
    if (v != e) /* (an access through row = X[i] is one of X) */
        e = v, root = subscript_root(v)->name_id;
    c->acc = grow(c, c->acc, c->nacc, &c->acc_cap, sizeof *c->acc);
    Access *a = &c->acc[c->nacc++];
    *a = (Access){e, root, write, aug, op, NULL, NULL, -1, NULL};
    if (e->kind != NG_JIT_E_SUBSCRIPT)
        return;
    /* A[i][j] is A[i, j]: positions run from the innermost subscript out; a
     * slice is a position only in the last one (A[1:][j] shifts j) */
    int nlev = 0, npos = 0;
    for (const NgJitExpr *x = e; x->kind == NG_JIT_E_SUBSCRIPT; x = x->lhs) {
        nlev++;
        npos += ng_jit_index_count(x->rhs);
    }
    const NgJitExpr **pos = xalloc(c, &c->tmp, (size_t)(npos + 1) * sizeof *pos);
    const NgJitExpr **slc = xalloc(c, &c->tmp, (size_t)(npos + 1) * sizeof *slc);
    int at = npos, lev = 0;
    for (const NgJitExpr *x = e; x->kind == NG_JIT_E_SUBSCRIPT; x = x->lhs, lev++) {
        int n = ng_jit_index_count(x->rhs);
        NgJitExpr *const *items = x->rhs->kind == NG_JIT_E_TUPLE ? x->rhs->items : &x->rhs;
        at -= n;
        for (int i = 0; i < n; i++) {
            const NgJitExpr *it = items[i];
            /* None (np.newaxis), ..., *idx, or a slice then more indices: positions unknown */
            if (it->kind == NG_JIT_E_STARRED || it->kind == NG_JIT_E_CONST ||
                (it->kind == NG_JIT_E_ATTR && strcmp(it->name, "newaxis") == 0) ||
                (it->kind == NG_JIT_E_SLICE && lev > 0))
                return;
            pos[at + i] = it->kind == NG_JIT_E_SLICE ? NULL : it;
            slc[at + i] = it->kind == NG_JIT_E_SLICE ? it : NULL;
        }
    }
    a->pos = pos;
    a->slc = slc;
    a->npos = npos;
}

/* Whether e reads what an array is rather than its elements: x.shape,
 * x.size, x.ndim, x.dtype (np.zeros(3, x.dtype)), len(x). */
static bool of_the_array(const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_ATTR)
        return e->lhs->kind == NG_JIT_E_NAME &&
               (strcmp(e->name, "shape") == 0 || strcmp(e->name, "size") == 0 || strcmp(e->name, "ndim") == 0 ||
                strcmp(e->name, "dtype") == 0);
    return e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
           e->nitems == 1 && e->items[0]->kind == NG_JIT_E_NAME;
}

/* The argument expression per parameter of helper h at `call` (defaults
 * for those not given), or NULL when they do not bind (check_call said so). */
static const NgJitExpr **call_args(Ctx *c, const NgJitExpr *call, const Helper *h)
{
    const NgJitExpr **args = xalloc(c, &c->tmp, (size_t)(h->def->params->n + 1) * sizeof *args);
    char why[200];
    return ng_jit_bind_args(call, h->def->params, h->def->name, args, why, sizeof why) ? NULL : args;
}

/* A helper inlined at a call: per parameter, the argument expression in the
 * caller's names (NULL where it is not known in them: a helper's own local
 * passed on to a helper it calls), and the array it is of in the caller (the
 * NAME of the argument's root, known even when the expression is not; NULL
 * for an argument that is no caller's array). */
typedef struct Inline {
    const Helper *h;
    const NgJitExpr **args, **roots;
    int nargs;
} Inline;

static void acc_helper_call(Ctx *c, const NgJitExpr *call, const Inline *outer);
static void acc_expr(Ctx *c, const NgJitExpr *e, void *arg);
static void acc_block(Ctx *c, NgJitBlock b, const Inline *m);

/* The argument of the parameter that NAME e is in m's helper, or NULL (also
 * for a parameter the helper assigns: its value there is not the argument). */
static const NgJitExpr *arg_of(const Inline *m, const NgJitExpr *e)
{
    if (e->kind != NG_JIT_E_NAME || set_has(m->h->stores, e->name_id))
        return NULL;
    int j = param_index(m->h, e->name_id);
    return j >= 0 && j < m->nargs ? m->args[j] : NULL;
}

/* The caller's array that subscript or NAME e of m's helper is of, or NULL. */
static const NgJitExpr *root_of(const Inline *m, const NgJitExpr *e)
{
    const NgJitExpr *r = subscript_root(e);
    int j = r ? param_index(m->h, r->name_id) : -1;
    return j >= 0 && j < m->nargs ? m->roots[j] : NULL;
}

/* Expression e of m's helper in the caller's names: its parameters replaced
 * by their arguments, its lets by their values (find_lets), every other name
 * (its own variables, globals: the caller may have names alike) by the
 * opaque name (a copy, in the result's
 * arena: wrap checks keep it); NULL if it has a part other than arithmetic,
 * comparisons, subscripts and builtin calls. */
static const NgJitExpr *substitute(Ctx *c, const NgJitExpr *e, const Inline *m)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: {
        const NgJitExpr *a = arg_of(m, e), *v = a ? NULL : let_of(m->h, e->name_id);
        if (a)
            return a;
        if (v) /* (a let's value reads only lets before it: this ends) */
            return substitute(c, v, m);
        NgJitExpr *x = xalloc(c, &c->res->arena, sizeof *x);
        *x = *e;
        x->name_id = c->opaque;
        x->name = "?";
        return x;
    }
    case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_CONST:
        return e;
    case NG_JIT_E_UNARY: case NG_JIT_E_BINARY: case NG_JIT_E_COMPARE: case NG_JIT_E_IFEXP:
    case NG_JIT_E_SUBSCRIPT: case NG_JIT_E_TUPLE: case NG_JIT_E_SLICE: case NG_JIT_E_ATTR:
    case NG_JIT_E_CALL:
        break;
    default:
        return NULL;
    }
    if (e->kind == NG_JIT_E_CALL && (e->nkeywords || e->lhs->kind != NG_JIT_E_NAME ||
                                     !in_list(e->lhs->name, builtin_fns)))
        return NULL;
    NgJitExpr *x = xalloc(c, &c->res->arena, sizeof *x);
    *x = *e;
    if (e->kind != NG_JIT_E_CALL && e->lhs && !(x->lhs = (NgJitExpr *)substitute(c, e->lhs, m)))
        return NULL;
    if (e->rhs && !(x->rhs = (NgJitExpr *)substitute(c, e->rhs, m)))
        return NULL;
    if (e->cond && !(x->cond = (NgJitExpr *)substitute(c, e->cond, m)))
        return NULL;
    if (e->nitems) {
        x->items = xalloc(c, &c->res->arena, (size_t)e->nitems * sizeof *x->items);
        for (int i = 0; i < e->nitems; i++)
            if (!(x->items[i] = (NgJitExpr *)substitute(c, e->items[i], m)))
                return NULL;
    }
    return x;
}

/* An access of m's helper, e (a subscript of parameter p's array, or p
 * itself), to the caller's array at `root`: with the caller's indices, or
 * as a use of the whole array when they are not known in its names. */
static void helper_access(Ctx *c, const NgJitExpr *e, const NgJitExpr *root, bool write, bool aug, NgJitOp op,
                          const Inline *m)
{
    const NgJitExpr *x = e->kind == NG_JIT_E_SUBSCRIPT ? substitute(c, e, m) : NULL;
    add_access(c, x ? x : root, root->name_id, write, aug, op);
    c->acc[c->nacc - 1].via = m->h->def->name;
}

/* The accesses of a helper call to the arrays the loop writes, the helper's
 * body read with its parameters as the call's arguments; `outer`: the helper
 * the call is in (NULL: the loop body itself). Arguments that are not the
 * loop's written arrays are read as ever. */
static void acc_helper_call(Ctx *c, const NgJitExpr *call, const Inline *outer)
{
    const uint64_t *w = c->ld[c->cur].written;
    Helper *h = find_helper(c, call->lhs->name_id);
    if (!h || h->state != 2) {
        each_child(c, call, acc_expr, (void *)outer);
        return;
    }
    const NgJitParams *ps = h->def->params;
    const NgJitExpr **given = call_args(c, call, h);
    if (!given) {
        each_child(c, call, acc_expr, (void *)outer);
        return;
    }
    Inline m = {h, xalloc(c, &c->tmp, (size_t)(ps->n + 1) * sizeof *m.args),
                xalloc(c, &c->tmp, (size_t)(ps->n + 1) * sizeof *m.roots), ps->n};
    for (int i = 0; i < ps->n; i++) {
        const NgJitExpr *a = given[i];
        if (a == ps->items[i].dflt) { /* (in the def's scope: a literal, else an unknown value) */
            m.args[i] = a->kind == NG_JIT_E_INT || a->kind == NG_JIT_E_FLOAT || a->kind == NG_JIT_E_CONST ? a : NULL;
            m.roots[i] = NULL;
            continue;
        }
        m.args[i] = outer ? substitute(c, a, outer) : through_view(c, a);
        m.roots[i] = outer ? root_of(outer, a) : subscript_root(a) ? subscript_root(through_view(c, a)) : NULL;
        const NgJitExpr *root = m.roots[i];
        if (a->kind == NG_JIT_E_NAME && root && set_has(w, root->name_id))
            continue; /* an array the loop writes, passed whole: its uses are the helper's */
        acc_expr(c, a, (void *)outer);
    }
    acc_block(c, h->def->body, &m);
}

/* Adds the accesses expression e makes to the arrays the loop writes. arg:
 * NULL in the loop's body, else the Inline of the helper whose body e is
 * in (its names then the helper's: subscripts of its parameters are the
 * caller's arrays, at the arguments, helper_access). */
static void acc_expr(Ctx *c, const NgJitExpr *e, void *arg)
{
    const Inline *m = arg;
    const uint64_t *w = c->ld[c->cur].written;
    switch (e->kind) {
    case NG_JIT_E_SUBSCRIPT: case NG_JIT_E_NAME: {
        if (e->kind == NG_JIT_E_NAME && e->ctx != NG_JIT_LOAD)
            return;
        const NgJitExpr *r = subscript_root(e), *root = m ? root_of(m, e) : NULL;
        int id = m ? (root ? root->name_id : -1) : r ? array_of(c, r) : -1; /* the caller's array */
        bool wr = id >= 0 && set_has(w, id);
        if (wr && m)
            helper_access(c, e, root, false, false, NG_JIT_OP_NONE, m);
        else if (wr)
            add_access(c, e, r->name_id, false, false, NG_JIT_OP_NONE);
        if (e->kind == NG_JIT_E_SUBSCRIPT && (m ? r && param_index(m->h, r->name_id) >= 0 : wr)) {
            for (const NgJitExpr *x = e; x->kind == NG_JIT_E_SUBSCRIPT; x = x->lhs)
                acc_expr(c, x->rhs, arg);
            return; /* (the array itself is no whole-array use) */
        }
        break;
    }
    case NG_JIT_E_ATTR: case NG_JIT_E_CALL:
        if (of_the_array(e))
            return; /* not an element */
        if (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_HELPER) {
            Helper *h = find_helper(c, e->lhs->name_id);
            for (int i = 0; !m && h && h->state == 2 && i < c->ast->nnames; i++) /* (nested ones' too) */
                if (set_has(h->globals, i) && set_has(w, i))
                    add_access(c, e, i, false, false, NG_JIT_OP_NONE);
            acc_helper_call(c, e, m);
            return;
        }
        break;
    default:
        break;
    }
    each_child(c, e, acc_expr, arg);
}

static void acc_target(Ctx *c, const NgJitExpr *t, bool aug, NgJitOp op, const Inline *m)
{
    switch (t->kind) {
    case NG_JIT_E_SUBSCRIPT: {
        const NgJitExpr *root = m ? root_of(m, t) : NULL;
        if (!m)
            add_access(c, t, subscript_root(t)->name_id, true, aug, op);
        else if (root) /* (the check makes every array a helper writes its parameter's) */
            helper_access(c, t, root, true, aug, op, m);
        for (const NgJitExpr *x = t; x->kind == NG_JIT_E_SUBSCRIPT; x = x->lhs)
            acc_expr(c, x->rhs, (void *)m);
        break;
    }
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            acc_target(c, t->items[i], aug, op, m);
        break;
    case NG_JIT_E_STARRED:
        acc_target(c, t->lhs, aug, op, m);
        break;
    default:
        break;
    }
}

int ng_jit_cond_store(const NgJitStmt *s, const NgJitExpr **target, const NgJitExpr **value)
{
    const NgJitExpr *t, *e, *v;
    int red;
    if (s->kind == NG_JIT_S_IF) {
        if (s->orelse.n || s->body.n != 1 || s->test->kind != NG_JIT_E_COMPARE || s->test->nitems != 2)
            return -1;
        const NgJitStmt *a = s->body.stmts[0];
        if (a->kind != NG_JIT_S_ASSIGN || a->ntargets != 1)
            return -1;
        t = a->targets[0], v = a->value;
        NgJitOp op = s->test->ops[0];
        if (ng_jit_expr_equal(s->test->items[1], t)) {
            e = s->test->items[0]; /* e OP t */
        } else if (ng_jit_expr_equal(s->test->items[0], t)) {
            e = s->test->items[1];
            op = flipped(op);
        } else {
            return -1;
        }
        if (!ng_jit_expr_equal(e, v) || (op != NG_JIT_OP_GT && op != NG_JIT_OP_LT))
            return -1;
        red = op == NG_JIT_OP_GT ? NG_JIT_RED_MAX : NG_JIT_RED_MIN;
    } else if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1) {
        t = s->targets[0];
        const NgJitExpr *f = s->value;
        if (f->kind != NG_JIT_E_CALL || f->nkeywords || f->nitems != 2 || f->lhs->kind != NG_JIT_E_NAME ||
            (strcmp(f->lhs->name, "max") != 0 && strcmp(f->lhs->name, "min") != 0) ||
            !ng_jit_expr_equal(f->items[0], t))
            return -1;
        v = f->items[1];
        red = f->lhs->name[1] == 'a' ? NG_JIT_RED_MAX : NG_JIT_RED_MIN;
    } else {
        return -1;
    }
    const NgJitExpr *root = subscript_root(t);
    if (t->kind != NG_JIT_E_SUBSCRIPT || !root || v->kind == NG_JIT_E_STARRED || varying(NULL, v) || varying(NULL, t))
        return -1;
    Count k = {root->name_id, 0};
    count_mentions(NULL, t, &k);
    count_mentions(NULL, v, &k);
    if (k.n != 1)
        return -1;
    *target = t;
    *value = v;
    return red;
}

/* The accesses of block b: the loop's body (m NULL) or a helper's. */
static void acc_block(Ctx *c, NgJitBlock b, const Inline *m)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        const NgJitExpr *ct, *cv;
        int cred = m ? -1 : ng_jit_cond_store(s, &ct, &cv);
        if (cred >= 0 && c->view && c->view[subscript_root(ct)->name_id])
            cred = -1; /* (through a view: as written) */
        if (cred >= 0) { /* one update of the element (the atomic check below): its read in the test is it */
            add_access(c, ct, subscript_root(ct)->name_id, true, true,
                       cred == NG_JIT_RED_MAX ? NG_JIT_OP_GT : NG_JIT_OP_LT);
            acc_expr(c, cv, NULL);
            for (const NgJitExpr *x = ct; x->kind == NG_JIT_E_SUBSCRIPT; x = x->lhs)
                acc_expr(c, x->rhs, NULL);
            continue;
        }
        if (s->value)
            acc_expr(c, s->value, (void *)m);
        if (s->test)
            acc_expr(c, s->test, (void *)m);
        for (int k = 0; k < s->ntargets; k++)
            acc_target(c, s->targets[k], false, NG_JIT_OP_NONE, m);
        if (s->target)
            acc_target(c, s->target, s->kind == NG_JIT_S_AUGASSIGN, s->op, m);
        acc_block(c, s->body, m);
        acc_block(c, s->orelse, m);
    }
}

/* ---- pass 3d: subscripts as polynomials, and the dependence test ---- */

/* The atom of expression e for the loop under analysis: NAMEs by name, other
 * invariant expressions by their text; a variant expression is a new atom. */
static int atom_of(Ctx *c, const NgJitExpr *e)
{
    const LoopData *d = &c->ld[c->cur];
    int var = c->res->items[c->cur].var_id;
    Atom a = {CLS_INV, -1, NULL};
    if (e->kind == NG_JIT_E_NAME) {
        for (int i = 0; i < c->natoms; i++)
            if (c->atoms[i].name_id == e->name_id)
                return i;
        a.name_id = e->name_id;
        a.cls = e->name_id == var ? CLS_IND
                : set_has(d->assigned, e->name_id) || set_has(d->written, e->name_id) ||
                  e->name_id == c->opaque ? CLS_FREE : CLS_INV;
    } else {
        uint64_t *names = set_new(c);
        loads_into(c, e, names);
        walrus_into(c, e, names);
        bool variant = set_has(names, var) || set_has(names, c->opaque);
        for (int i = 0; i < c->nw && !variant; i++)
            variant = (names[i] & (d->assigned[i] | d->written[i])) != 0;
        if (variant) {
            a.cls = CLS_FREE;
        } else {
            for (int i = 0; i < c->natoms; i++)
                if (c->atoms[i].e && ng_jit_expr_equal(c->atoms[i].e, e))
                    return i;
            a.e = e;
        }
    }
    c->atoms = grow(c, c->atoms, c->natoms, &c->atoms_cap, sizeof *c->atoms);
    c->atoms[c->natoms] = a;
    return c->natoms++;
}

enum { MAXT = 8 };

/* k * atom a, times atom b when b >= 0 (then a <= b). */
typedef struct Term {
    int64_t k;
    int a, b;
} Term;

/* c + the sum of the terms, in order of (a, b), none with k == 0. */
typedef struct Poly {
    int64_t c;
    int n;
    Term t[MAXT];
} Poly;

static bool term_add(Poly *p, int64_t k, int a, int b)
{
    if (b >= 0 && a > b) {
        int x = a;
        a = b;
        b = x;
    }
    int i = 0;
    while (i < p->n && (p->t[i].a < a || (p->t[i].a == a && p->t[i].b < b)))
        i++;
    if (i < p->n && p->t[i].a == a && p->t[i].b == b) {
        if (__builtin_add_overflow(p->t[i].k, k, &p->t[i].k))
            return false;
        if (p->t[i].k == 0) {
            memmove(&p->t[i], &p->t[i + 1], (size_t)(p->n - i - 1) * sizeof p->t[0]);
            p->n--;
        }
        return true;
    }
    if (k == 0)
        return true;
    if (p->n == MAXT)
        return false;
    memmove(&p->t[i + 1], &p->t[i], (size_t)(p->n - i) * sizeof p->t[0]);
    p->t[i] = (Term){k, a, b};
    p->n++;
    return true;
}

/* d += sign * s */
static bool poly_add(Poly *d, const Poly *s, int sign)
{
    int64_t c;
    if (sign > 0 ? __builtin_add_overflow(d->c, s->c, &c) : __builtin_sub_overflow(d->c, s->c, &c))
        return false;
    d->c = c;
    for (int i = 0; i < s->n; i++) {
        if (sign < 0 && s->t[i].k == INT64_MIN)
            return false;
        if (!term_add(d, sign > 0 ? s->t[i].k : -s->t[i].k, s->t[i].a, s->t[i].b))
            return false;
    }
    return true;
}

/* d = x * y, when of degree at most 2. */
static bool poly_mul(Poly *d, const Poly *x, const Poly *y)
{
    int64_t k;
    memset(d, 0, sizeof *d);
    if (__builtin_mul_overflow(x->c, y->c, &d->c))
        return false;
    for (int i = 0; i < x->n; i++)
        if (__builtin_mul_overflow(x->t[i].k, y->c, &k) || !term_add(d, k, x->t[i].a, x->t[i].b))
            return false;
    for (int i = 0; i < y->n; i++)
        if (__builtin_mul_overflow(y->t[i].k, x->c, &k) || !term_add(d, k, y->t[i].a, y->t[i].b))
            return false;
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < y->n; j++) {
            if (x->t[i].b >= 0 || y->t[j].b >= 0)
                return false;
            if (__builtin_mul_overflow(x->t[i].k, y->t[j].k, &k) || !term_add(d, k, x->t[i].a, y->t[j].a))
                return false;
        }
    return true;
}

/* e as a polynomial of degree <= 2 in atoms (+, -, * of integers and names);
 * what is not one is an atom itself. */
static void poly_of(Ctx *c, const NgJitExpr *e, Poly *p)
{
    Poly x, y;
    memset(p, 0, sizeof *p);
    switch (e->kind) {
    case NG_JIT_E_INT:
        if (!e->big && e->ival <= INT64_MAX) {
            p->c = (int64_t)e->ival;
            return;
        }
        break;
    case NG_JIT_E_UNARY:
        if (e->op == NG_JIT_OP_POS || e->op == NG_JIT_OP_NEG) {
            poly_of(c, e->lhs, &x);
            if (e->op == NG_JIT_OP_POS) {
                *p = x;
                return;
            }
            if (poly_add(p, &x, -1))
                return;
        }
        break;
    case NG_JIT_E_BINARY:
        if (e->op == NG_JIT_OP_ADD || e->op == NG_JIT_OP_SUB || e->op == NG_JIT_OP_MUL) {
            poly_of(c, e->lhs, &x);
            poly_of(c, e->rhs, &y);
            if (e->op == NG_JIT_OP_MUL ? poly_mul(p, &x, &y)
                                       : poly_add(&x, &y, e->op == NG_JIT_OP_ADD ? 1 : -1)) {
                if (e->op != NG_JIT_OP_MUL)
                    *p = x;
                return;
            }
        }
        break;
    default:
        break;
    }
    memset(p, 0, sizeof *p);
    p->n = 1;
    p->t[0] = (Term){1, atom_of(c, e), -1};
}

static bool poly_equal(const Poly *x, const Poly *y)
{
    if (x->c != y->c || x->n != y->n)
        return false;
    for (int i = 0; i < x->n; i++)
        if (x->t[i].k != y->t[i].k || x->t[i].a != y->t[i].a || x->t[i].b != y->t[i].b)
            return false;
    return true;
}

/* How a polynomial depends on the loop variable v. */
typedef struct Split {
    int64_t a;    /* coefficient of v */
    int sym;      /* terms v * S, S invariant */
    int nfree;    /* terms with a free atom and no v */
    bool bad;     /* v * v or v * free */
} Split;

static int cls(Ctx *c, int atom) { return atom < 0 ? -1 : c->atoms[atom].cls; }

static void split(Ctx *c, const Poly *p, Split *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < p->n; i++) {
        int x = cls(c, p->t[i].a), y = cls(c, p->t[i].b);
        if (y < 0) {
            if (x == CLS_IND)
                s->a = p->t[i].k;
            else if (x == CLS_FREE)
                s->nfree++;
        } else if (x == CLS_IND || y == CLS_IND) {
            if (x == CLS_INV || y == CLS_INV)
                s->sym++;
            else
                s->bad = true;
        } else if (x == CLS_FREE || y == CLS_FREE) {
            s->nfree++;
        }
    }
}

/* True when the terms of x and y over invariant atoms only are the same. */
static bool inv_equal(Ctx *c, const Poly *x, const Poly *y)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < x->n && (cls(c, x->t[i].a) != CLS_INV || (x->t[i].b >= 0 && cls(c, x->t[i].b) != CLS_INV)))
            i++;
        while (j < y->n && (cls(c, y->t[j].a) != CLS_INV || (y->t[j].b >= 0 && cls(c, y->t[j].b) != CLS_INV)))
            j++;
        if (i == x->n || j == y->n)
            return i == x->n && j == y->n;
        if (x->t[i].k != y->t[j].k || x->t[i].a != y->t[j].a || x->t[i].b != y->t[j].b)
            return false;
        i++, j++;
    }
}

/* True when it: range(S), range(start, S) or range(start, S, step) with
 * constants start >= 0, step > 0: values in [0, S). */
static bool range_below(Ctx *c, const NgJitExpr *it, int atom)
{
    Poly p;
    int n = it->nitems;
    for (int i = 0; n > 1 && i < n; i++) {
        if (i == 1)
            continue;
        poly_of(c, it->items[i], &p);
        if (p.n || p.c < (i == 2))
            return false;
    }
    poly_of(c, it->items[n == 1 ? 0 : 1], &p);
    return p.c == 0 && p.n == 1 && p.t[0].k == 1 && p.t[0].a == atom && p.t[0].b < 0;
}

/* Whether range call `it` gives only values the caller's rule allows (range_below, tile_range). */
typedef bool (*RangeRule)(Ctx *c, const NgJitExpr *it, int atom);

/* True when every assignment of name f in b is a for loop over a range the
 * rule allows (range_below: range(S)). */
static bool bounded_block(Ctx *c, NgJitBlock b, int f, int atom, RangeRule rule)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_FOR && s->target->kind == NG_JIT_E_NAME && s->target->name_id == f) {
            if (!range_like(s->test) || !rule(c, s->test, atom))
                return false;
            uint64_t *w = set_new(c);
            walrus_into(c, s->test, w);
            if (set_has(w, f))
                return false;
        } else {
            uint64_t *st = set_new(c);
            stmt_stores(c, s, st);
            if (set_has(st, f))
                return false;
        }
        if (!bounded_block(c, s->body, f, atom, rule) || !bounded_block(c, s->orelse, f, atom, rule))
            return false;
    }
    return true;
}

/* The same polynomial v*S*k + f + invariant terms, f a name that only loops
 * over range(S): different v give different values (|f1 - f2| < S). */
static bool bounded(Ctx *c, const Poly *w, const Poly *r)
{
    if (!poly_equal(w, r))
        return false;
    int sym = -1, f = -1;
    for (int i = 0; i < w->n; i++) {
        const Term *t = &w->t[i];
        int x = cls(c, t->a), y = cls(c, t->b);
        if (y < 0) {
            if (x == CLS_IND)
                return false;
            if (x == CLS_FREE) {
                if (f >= 0 || t->k != 1 || c->atoms[t->a].name_id < 0) /* (+f: v*S is its least value) */
                    return false;
                f = t->a;
            }
        } else if (x == CLS_IND || y == CLS_IND) {
            if (sym >= 0 || !(x == CLS_INV || y == CLS_INV))
                return false;
            sym = x == CLS_INV ? t->a : t->b;
        } else if (x == CLS_FREE || y == CLS_FREE) {
            return false;
        }
    }
    if (sym < 0 || f < 0)
        return false;
    return bounded_block(c, c->res->items[c->cur].stmt->body, c->atoms[f].name_id, sym, range_below);
}

/* True when it is range(v + c0, v + c0 + T) or range(v + c0, min(v + c0 + T, E)) (min's
 * arguments either way round; a literal step > 0 allowed), v the variable of the loop under
 * analysis, `for v in range(s0, S, T)` with literals s0, c0 >= 0 and T invariant: the tiles of
 * `for ii in range(0, n, T): for i in range(ii, min(ii + T, n))`. Its values lie in
 * [v + c0, v + c0 + T), which different v (T apart) never share, and are >= 0 (no wrap onto
 * another tile); with T <= 0 there are none. (`atom`: unused, the rule's signature.) */
static bool tile_range(Ctx *c, const NgJitExpr *it, int atom)
{
    (void)atom;
    const NgJitExpr *outer = c->res->items[c->cur].stmt->test;
    int v = c->res->items[c->cur].var_id;
    if (it->nitems < 2 || outer->nitems != 3 || set_has(c->ld[c->cur].assigned, v))
        return false;
    Poly s0, t, lo, hi, step;
    poly_of(c, outer->items[0], &s0);
    poly_of(c, outer->items[2], &t);
    poly_of(c, it->items[0], &lo);
    if (it->nitems == 3) {
        poly_of(c, it->items[2], &step);
        if (step.n || step.c <= 0)
            return false;
    }
    if (s0.n || s0.c < 0 || lo.n != 1 || lo.c < 0 || lo.t[0].k != 1 || lo.t[0].b >= 0 || cls(c, lo.t[0].a) != CLS_IND)
        return false;
    for (int i = 0; i < t.n; i++)
        if (cls(c, t.t[i].a) != CLS_INV || (t.t[i].b >= 0 && cls(c, t.t[i].b) != CLS_INV))
            return false;
    const NgJitExpr *stop = it->items[1];
    bool is_min = stop->kind == NG_JIT_E_CALL && !stop->nkeywords && stop->nitems == 2 &&
                  ng_jit_call_kind(stop) == NG_JIT_CALL_BUILTIN && strcmp(stop->lhs->name, "min") == 0;
    for (int k = 0; k < (is_min ? 2 : 1); k++) { /* stop - start == T: the tile's end, or min's bound of it */
        poly_of(c, is_min ? stop->items[k] : stop, &hi);
        if (poly_add(&hi, &lo, -1) && poly_equal(&hi, &t))
            return true;
    }
    return false;
}

/* The same polynomial f + c (c >= 0) in a write and another access, where f is a name that
 * only loops over the tile ranges of the loop under analysis (tile_range): different
 * iterations never touch the same element. */
static bool tiled(Ctx *c, const Poly *w, const Poly *r)
{
    if (!poly_equal(w, r) || w->n != 1 || w->c < 0 || w->t[0].k != 1 || w->t[0].b >= 0 ||
        cls(c, w->t[0].a) != CLS_FREE || c->atoms[w->t[0].a].name_id < 0)
        return false;
    return bounded_block(c, c->res->items[c->cur].stmt->body, c->atoms[w->t[0].a].name_id, -1, tile_range);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t mag(int64_t x) { return x < 0 ? -(uint64_t)x : (uint64_t)x; }

/* p without its terms in the loop variable. */
static Poly invariant_part(Ctx *c, const Poly *p)
{
    Poly q = {p->c, 0, {{0}}};
    for (int i = 0; i < p->n; i++)
        if (cls(c, p->t[i].a) != CLS_IND && (p->t[i].b < 0 || cls(c, p->t[i].b) != CLS_IND))
            q.t[q.n++] = p->t[i];
    return q;
}

/* Indices a*v + P and -a*v + Q (a = 1 or -1, P and Q invariant) meet when
 * v1 + v2 = D = a*(Q - P). True when no two iterations sum to D: the loop is
 * `for v in range(..., S[, step > 0])`, so v1 + v2 <= 2S - 2, and either
 * S = E // 2 with D + 1 - E a constant >= 0 (2S <= E <= D + 1), or
 * D + 2 - 2S a constant > 0. The two halves of a reversal:
 * `for i in range(n // 2): a[i], a[n - 1 - i] = a[n - 1 - i], a[i]`. */
static bool mirrored(Ctx *c, const Poly *w, const Poly *r, int64_t a)
{
    const NgJitStmt *loop = c->res->items[c->cur].stmt;
    const NgJitExpr *it = loop->test;
    if (c->ld[c->cur].step <= 0 || (a != 1 && a != -1) || it->nitems < 1 || it->nitems > 3)
        return false;
    const NgJitExpr *stop = it->items[it->nitems == 1 ? 0 : 1];
    Poly p = invariant_part(c, w), q = invariant_part(c, r), d = {0}, e;
    if (!poly_add(&d, a > 0 ? &q : &p, 1) || !poly_add(&d, a > 0 ? &p : &q, -1)) /* D = a*(Q - P) */
        return false;
    bool half = stop->kind == NG_JIT_E_BINARY && stop->op == NG_JIT_OP_FLOORDIV && stop->rhs->kind == NG_JIT_E_INT &&
                !stop->rhs->big && stop->rhs->ival == 2;
    poly_of(c, half ? stop->lhs : stop, &e);
    for (int i = 0; i < e.n; i++)
        if (cls(c, e.t[i].a) != CLS_INV || (e.t[i].b >= 0 && cls(c, e.t[i].b) != CLS_INV))
            return false;
    /* D + 1 - E, or D + 2 - 2S */
    if (__builtin_add_overflow(d.c, half ? 1 : 2, &d.c) || !poly_add(&d, &e, -1) || (!half && !poly_add(&d, &e, -1)))
        return false;
    return d.n == 0 && (half ? d.c >= 0 : d.c > 0);
}

/* True when index polynomial p is >= 0 by its form: a constant plus positive
 * multiples of the variables of the loop under analysis and of loops around it
 * that count up from a literal start >= 0 and that no statement in them assigns
 * (i - 1 in `for i in range(1, n): for c in ...`). */
static bool rows_nonneg(Ctx *c, const Poly *p)
{
    int64_t least = p->c;
    for (int i = 0; i < p->n; i++) {
        int a = p->t[i].a, id = a >= 0 ? c->atoms[a].name_id : -1;
        int up = a >= 0 && cls(c, a) == CLS_IND ? c->cur : c->res->items[c->cur].parent;
        if (p->t[i].b >= 0 || p->t[i].k <= 0 || id < 0 || cls(c, a) == CLS_FREE)
            return false;
        while (up >= 0 && c->res->items[up].var_id != id)
            up = c->res->items[up].parent;
        if (up < 0 || c->res->items[up].stmt->kind != NG_JIT_S_FOR || !range_like(c->res->items[up].stmt->test) ||
            c->ld[up].step <= 0 || set_has(c->ld[up].assigned, id))
            return false;
        const NgJitExpr *it = c->res->items[up].stmt->test, *start = it->nitems > 1 ? it->items[0] : NULL;
        int64_t s0 = 0, add;
        if (start) {
            if (start->kind != NG_JIT_E_INT || start->big || start->ival > (uint64_t)INT64_MAX)
                return false;
            s0 = (int64_t)start->ival;
        }
        if (__builtin_mul_overflow(p->t[i].k, s0, &add) || __builtin_add_overflow(least, add, &least))
            return false;
    }
    return least >= 0;
}

/* The dependence test at one position: true when index expressions we (of a
 * write) and re (of another access) differ in any two different iterations.
 * Else, when they meet at a known distance, *dist = k_w - k_r in iterations. */
static bool pos_independent(Ctx *c, const NgJitExpr *we, const NgJitExpr *re, bool *has_dist, int64_t *dist)
{
    if (!we || !re)
        return false;
    Poly w, r;
    Split sw, sr;
    poly_of(c, we, &w);
    poly_of(c, re, &r);
    split(c, &w, &sw);
    split(c, &r, &sr);
    if (sw.bad || sr.bad)
        return false;
    if (sw.sym || sr.sym)
        return bounded(c, &w, &r);
    if (sw.nfree || sr.nfree)
        return tiled(c, &w, &r);
    if (sw.a == -sr.a && sw.a != 0 && mirrored(c, &w, &r, sw.a))
        return true;
    if (!inv_equal(c, &w, &r))
        return false;
    int64_t a = sw.a, b = sr.a, delta;
    if (__builtin_sub_overflow(r.c, w.c, &delta))
        return false;
    if (a == 0 && b == 0) {
        /* rows apart: P + cw and P + cr over names the loop does not change (dp[i, c] and
         * dp[i - 1, c - w[i]] in the c loop) are the same in every iteration and never equal
         * when cw != cr; not negative by their form in the loops around (else the one could
         * wrap onto the other: dp[i - 1] at i = 0 is the last row) */
        if (delta == 0 || !rows_nonneg(c, &w) || !rows_nonneg(c, &r))
            return false;
        c->rows_used = true;
        return true;
    }
    if (a == b) {
        /* a*(v1 - v2) = delta, v1 - v2 a multiple of the step */
        int64_t step = c->ld[c->cur].step, m = a;
        if (delta == 0)
            return true;
        if (step && __builtin_mul_overflow(a, step, &m))
            return false;
        if (mag(delta) % mag(m) != 0)
            return true;
        if (step && !(m == -1 && delta == INT64_MIN)) {
            *has_dist = true;
            *dist = delta / m;
        }
        return false;
    }
    /* a*v1 - b*v2 = delta has integer solutions only when gcd(a, b) divides delta */
    return mag(delta) % gcd(mag(a), mag(b)) != 0;
}

/* Position e of an access (its index) or its slice sl, a[lo:hi], as the
 * elements [lo, lo + *width) it touches: *lo the polynomial of lo, *width a
 * constant (an index: 1; a slice whose end is its start plus a constant: that
 * constant, 0 or less for none). False for another slice (a step, an open end,
 * a width that varies). */
static bool interval_of(Ctx *c, const NgJitExpr *e, const NgJitExpr *sl, Poly *lo, int64_t *width)
{
    if (e) {
        poly_of(c, e, lo);
        *width = 1;
        return true;
    }
    if (!sl || sl->cond || !sl->lhs || !sl->rhs)
        return false;
    Poly hi;
    poly_of(c, sl->lhs, lo);
    poly_of(c, sl->rhs, &hi);
    if (!poly_add(&hi, lo, -1) || hi.n != 0)
        return false;
    *width = hi.c;
    return true;
}

/* The dependence test at a position where an access has a slice (y[i:i + 4],
 * y[4 * i:4 * i + 4]): true when the elements the two touch are apart in any
 * two different iterations. Both are intervals [a*v + P + c, ... + width) with
 * one a and one invariant P (an index: width 1); iterations step*m apart (m not
 * 0) shift one by a*step*m against the other, so they are apart when
 * |a*step| is at least the width of the one ahead plus their offset. Python
 * clamps a slice into the axis, which only shrinks it, once its bounds are not
 * negative: the caller has them checked before the loop (add_wrap, strict). */
static bool slices_apart(Ctx *c, const Access *w, const Access *r, int p)
{
    Poly lw, lr;
    int64_t ww, wr;
    if ((!w->slc[p] && !r->slc[p]) || !interval_of(c, w->pos[p], w->slc[p], &lw, &ww) ||
        !interval_of(c, r->pos[p], r->slc[p], &lr, &wr))
        return false;
    if (ww <= 0 || wr <= 0) /* (an empty slice touches nothing) */
        return true;
    Split sw, sr;
    split(c, &lw, &sw);
    split(c, &lr, &sr);
    if (sw.bad || sr.bad || sw.sym || sr.sym || sw.nfree || sr.nfree || sw.a != sr.a || sw.a == 0 ||
        !inv_equal(c, &lw, &lr))
        return false;
    int64_t step = c->ld[c->cur].step ? c->ld[c->cur].step : 1, g, d, need_w, need_r;
    if (__builtin_mul_overflow(sw.a, step, &g) || g == INT64_MIN || __builtin_sub_overflow(lw.c, lr.c, &d) ||
        __builtin_sub_overflow(wr, d, &need_r) || __builtin_add_overflow(ww, d, &need_w))
        return false;
    g = g < 0 ? -g : g;
    return g >= need_r && g >= need_w;
}

/* True when accesses w (a write) and r touch different elements in any two
 * different iterations: some position proves it (*slices: by slices_apart). */
static bool independent(Ctx *c, const Access *w, const Access *r, bool *has_dist, int64_t *dist, int *at,
                        bool *slices)
{
    *has_dist = false;
    *slices = false;
    if (w->npos < 0 || r->npos < 0)
        return false;
    int n = w->npos < r->npos ? w->npos : r->npos, rows_at = -1;
    bool rows = c->rows_used;
    for (int p = 0; p < n; p++) {
        bool hd = false;
        int64_t d = 0;
        c->rows_used = false;
        if (pos_independent(c, w->pos[p], r->pos[p], &hd, &d)) {
            if (c->rows_used) { /* (rows apart only where no other position proves it) */
                rows_at = rows_at < 0 ? p : rows_at;
                continue;
            }
            c->rows_used = rows;
            *at = p;
            return true;
        }
        if (slices_apart(c, w, r, p)) {
            c->rows_used = rows;
            *at = p;
            *slices = true;
            return true;
        }
        if (hd && !*has_dist) {
            *has_dist = true;
            *dist = d;
        }
    }
    c->rows_used = rows || rows_at >= 0;
    if (rows_at >= 0) {
        *at = rows_at;
        *has_dist = false;
        return true;
    }
    return false;
}

/* The one iteration v0 of a range loop whose accesses alone meet those of
 * other iterations (NgJitLoopInfo.peel): v0 = P, a polynomial in names the
 * loop does not assign, found where one access's index on some axis is
 * v + off (off >= 0) and the other's an invariant expression `at` with
 * P = at - off: there they meet only when the first access is iteration
 * v0's. */
typedef struct Peel {
    bool found;
    Poly p;               /* at - off */
    const NgJitExpr *at;  /* the invariant index (its first occurrence) */
    const NgJitExpr *v;   /* the index v + off it meets there (its first occurrence) */
    int64_t off;
    int root, axis;       /* the array and axis `at` indexes (negative values wrap there) */
    const char *why;      /* the first conflict it resolves, in words */
    int nmore;            /* other arrays (or axes) meeting at the same iteration (a[i] -= a[k];
                             b[i] -= b[k]), where `at` is >= 0 by its form: their counters' */
    struct { const NgJitExpr *v; int root, axis; } more[8]; /* indexes, for the wrap checks */
} Peel;

/* True when e's polynomial is v + off with off >= 0 (*off). */
static bool counter_plus(Ctx *c, const Poly *e, int64_t *off)
{
    if (e->n != 1 || e->t[0].k != 1 || e->t[0].b >= 0 || cls(c, e->t[0].a) != CLS_IND || e->c < 0)
        return false;
    *off = e->c;
    return true;
}

/* True when every atom of e is a name the loop does not change. */
static bool names_only(Ctx *c, const Poly *e)
{
    for (int i = 0; i < e->n; i++)
        for (int k = 0; k < 2; k++) {
            int a = k ? e->t[i].b : e->t[i].a;
            if (a >= 0 && (cls(c, a) != CLS_INV || c->atoms[a].name_id < 0))
                return false;
        }
    return true;
}

/* True when accesses w and r (not independent) meet only when one of them
 * is iteration pk->p's, on the same array axis as the pairs before
 * (which set *pk when it was not yet found). */
static bool peel_pair(Ctx *c, const Access *w, const Access *r, Peel *pk)
{
    int n = w->npos < r->npos ? w->npos : r->npos;
    for (int pos = 0; pos < n; pos++)
        for (int side = 0; side < 2; side++) {
            const NgJitExpr *ve = side ? r->pos[pos] : w->pos[pos], *ie = side ? w->pos[pos] : r->pos[pos];
            Poly v, at;
            int64_t off;
            if (!ve || !ie)
                continue;
            poly_of(c, ve, &v);
            poly_of(c, ie, &at);
            if (!counter_plus(c, &v, &off) || !names_only(c, &at) || __builtin_sub_overflow(at.c, off, &at.c))
                continue;
            if (!pk->found) {
                *pk = (Peel){true, at, ie, ve, off, w->root, pos, NULL, 0, {{0}}};
                return true;
            }
            if (pk->root == w->root && pk->axis == pos && poly_equal(&pk->p, &at))
                return true;
            /* the same iteration on another array or axis: one peel serves both where the index
             * `at` cannot be negative (a negative one wraps by each array's own length) */
            Poly atv;
            poly_of(c, ie, &atv);
            if (poly_equal(&pk->p, &at) && pk->nmore < 8 && rows_nonneg(c, &atv)) {
                for (int m = 0; m < pk->nmore; m++)
                    if (pk->more[m].root == w->root && pk->more[m].axis == pos)
                        return true;
                pk->more[pk->nmore].v = ve;
                pk->more[pk->nmore].root = w->root;
                pk->more[pk->nmore++].axis = pos;
                return true;
            }
        }
    return false;
}

/* Adds index e of axis `axis` of array `root` to the loop's wrap checks
 * (NgJitLoopInfo.wraps), once; `strict` when it must be >= 0 itself (else
 * when it names a loop variable of a range inside). */
static void add_wrap(Ctx *c, NgJitLoopInfo *L, const NgJitExpr *e, int root, int axis, bool strict)
{
    if (mentions(c, e, c->opaque)) { /* (the kernel could not evaluate it before the loop) */
        c->opaque_wrap = true;
        return;
    }
    Poly p;
    poly_of(c, e, &p);
    for (int i = 0; i < p.n; i++)
        strict = strict || cls(c, p.t[i].a) == CLS_FREE || (p.t[i].b >= 0 && cls(c, p.t[i].b) == CLS_FREE);
    for (int i = 0; i < L->nwraps; i++)
        if (L->wraps[i].array == root && L->wraps[i].axis == axis && ng_jit_expr_equal(L->wraps[i].e, e)) {
            L->wraps[i].strict = L->wraps[i].strict || strict;
            return;
        }
    if (L->nwraps == 0 || (L->nwraps >= 8 && (L->nwraps & (L->nwraps - 1)) == 0)) { /* room for 8, then doubled */
        NgJitIndexUse *v = xalloc(c, &c->res->arena, (size_t)(L->nwraps ? 2 * L->nwraps : 8) * sizeof *v);
        if (L->nwraps)
            memcpy(v, L->wraps, (size_t)L->nwraps * sizeof *v);
        L->wraps = v;
    }
    L->wraps[L->nwraps++] = (NgJitIndexUse){e, root, axis, strict};
}

static const char *conflict_words(Ctx *c, const Access *w, const Access *r, bool hd, int64_t d);

/* Why accesses w and r make the loop sequential, in words (an access a helper
 * makes is named in its own words, and the helper said). */
static const char *conflict_reason(Ctx *c, const Access *w, const Access *r, bool hd, int64_t d)
{
    const char *why = conflict_words(c, w, r, hd, d);
    const char *a = w->via ? w->via : r->via, *b = w->via && r->via && strcmp(w->via, r->via) ? r->via : NULL;
    if (!a)
        return why;
    return b ? fmt(c, "%s (in helpers %s and %s)", why, a, b) : fmt(c, "%s (in helper %s)", why, a);
}

static const char *conflict_words(Ctx *c, const Access *w, const Access *r, bool hd, int64_t d)
{
    const char *W = text(c, w->e);
    if (r->e->kind == NG_JIT_E_CALL)
        return fmt(c, "writes %s and calls helper %s, which reads %s", W, text(c, r->e->lhs), name_of(c, r->root));
    if (r->e->kind == NG_JIT_E_NAME)
        return fmt(c, "writes %s and uses the whole array %s", W, name_of(c, r->root));
    if (w == r || ng_jit_expr_equal(w->e, r->e))
        return fmt(c, "writes %s, which may be the same element in different iterations", W);
    const char *R = text(c, r->e);
    long long n = d < 0 ? -(long long)d : (long long)d;
    if (r->write) {
        if (hd)
            return fmt(c, "writes %s and %s, the same element %lld iteration%s apart", W, R, n, n == 1 ? "" : "s");
        return fmt(c, "writes %s and %s, which may be the same element in different iterations", W, R);
    }
    if (!hd)
        return fmt(c, "writes %s, read as %s, possibly in another iteration", W, R);
    if (d == -1)
        return fmt(c, "writes %s, read as %s in the next iteration", W, R);
    if (d == 1)
        return fmt(c, "writes %s, read as %s in the previous iteration", W, R);
    return fmt(c, "writes %s, read as %s %lld iterations %s", W, R, n, d < 0 ? "later" : "earlier");
}

/* ---- pass 3e: names that may be views of a written array ---- */

static const char *const fresh_methods[] = {
    "copy", "astype", "sum", "max", "min", "mean", "prod", "dot", "tolist", "item", "any", "all",
    "argmax", "argmin", "std", "var", NULL};
static const char *const view_np_fns[] = {
    "asarray", "asanyarray", "ascontiguousarray", "reshape", "ravel", "transpose", "squeeze",
    "expand_dims", "broadcast_to", "atleast_1d", "atleast_2d", "atleast_3d", "diagonal",
    "swapaxes", "moveaxis", "real", "imag", "flip", "fliplr", "flipud", "rot90", "split",
    "array_split", "hsplit", "vsplit", "frombuffer", NULL};
static const char *const scalar_attrs[] = {"shape", "size", "ndim", "dtype", "itemsize", "nbytes", NULL};

/* Adds the names whose arrays the value of e may be, or be a view of: not
 * those only used for arithmetic (a new array), shapes, or copies. */
static void alias_sources(Ctx *c, const NgJitExpr *e, void *set)
{
    switch (e->kind) {
    case NG_JIT_E_NAME:
        if (e->ctx == NG_JIT_LOAD)
            set_add(set, e->name_id);
        return;
    case NG_JIT_E_SUBSCRIPT: case NG_JIT_E_STARRED:
        alias_sources(c, e->lhs, set);
        return;
    case NG_JIT_E_ATTR:
        if (!in_list(e->name, scalar_attrs))
            alias_sources(c, e->lhs, set);
        return;
    case NG_JIT_E_NAMED:
        alias_sources(c, e->rhs, set);
        return;
    case NG_JIT_E_IFEXP:
        alias_sources(c, e->lhs, set);
        alias_sources(c, e->rhs, set);
        return;
    case NG_JIT_E_BOOLOP: case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        each_child(c, e, alias_sources, set);
        return;
    case NG_JIT_E_CALL: {
        const NgJitExpr *f = e->lhs;
        NgJitCallKind k = ng_jit_call_kind(e);
        bool part = f->kind == NG_JIT_E_ATTR && in_list(f->name, part_attrs); /* np.real(a): a view of a */
        if (k == NG_JIT_CALL_BUILTIN || k == NG_JIT_CALL_MATH || (k == NG_JIT_CALL_NP_SCALAR && !part) ||
            k == NG_JIT_CALL_NP_REDUCE || k == NG_JIT_CALL_METHOD)
            return;
        if (f->kind == NG_JIT_E_ATTR && is_module(f->lhs, "np", "numpy") && !in_list(f->name, view_np_fns))
            return; /* numpy functions return new arrays, but for these views */
        if (f->kind == NG_JIT_E_ATTR && in_list(f->name, fresh_methods))
            return;
        each_child(c, e, alias_sources, set); /* anything else may return its arguments */
        return;
    }
    default:
        return; /* arithmetic, comparisons, literals: new values */
    }
}

static void add_bind(Ctx *c, const NgJitExpr *target, const uint64_t *from)
{
    uint64_t *names = set_new(c);
    target_names(target, names);
    for (int i = 0; i < c->ast->nnames; i++) {
        if (!set_has(names, i))
            continue;
        c->binds = grow(c, c->binds, c->nbinds, &c->binds_cap, sizeof *c->binds);
        c->binds[c->nbinds++] = (Bind){i, (uint64_t *)from};
    }
}

static void walrus_binds(Ctx *c, const NgJitExpr *e, void *arg)
{
    if (e->kind == NG_JIT_E_NAMED) {
        uint64_t *from = set_new(c);
        alias_sources(c, e->rhs, from);
        add_bind(c, e->lhs, from);
    }
    each_child(c, e, walrus_binds, arg);
}

/* Records the bindings of every statement in b (not in nested functions). */
static void collect_binds(Ctx *c, NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue;
        uint64_t *from = set_new(c);
        if (s->kind == NG_JIT_S_ASSIGN || (s->kind == NG_JIT_S_ANNASSIGN && s->value)) {
            alias_sources(c, s->value, from);
            for (int k = 0; k < s->ntargets; k++)
                add_bind(c, s->targets[k], from);
            if (s->kind == NG_JIT_S_ANNASSIGN)
                add_bind(c, s->target, from);
        } else if (s->kind == NG_JIT_S_FOR) {
            alias_sources(c, s->test, from);
            add_bind(c, s->target, from);
        }
        stmt_exprs(c, s, walrus_binds, NULL);
        collect_binds(c, s->body);
        collect_binds(c, s->orelse);
    }
}

/* ---- pass 3: one loop on its own ---- */

/* Sorted name list of a set, in the result arena. */
static const char **name_list(Ctx *c, const uint64_t *set, int *n)
{
    int k = 0;
    for (int i = 0; i < c->ast->nnames; i++)
        k += set_has(set, i);
    const char **v = k ? xalloc(c, &c->res->arena, (size_t)k * sizeof *v) : NULL;
    *n = 0;
    for (int i = 0; i < c->ast->nnames; i++)
        if (set_has(set, i))
            v[(*n)++] = name_of(c, i);
    return v;
}

/* Names that augmented assignments in b update. */
static void aug_names(NgJitBlock b, uint64_t *set)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_AUGASSIGN && s->target->kind == NG_JIT_E_NAME)
            set_add(set, s->target->name_id);
        aug_names(s->body, set);
        aug_names(s->orelse, set);
    }
}

/* Of the scalars loop li updates in place (`t += e`), those that may hold an
 * array: a parameter, or bound somewhere to what may be one. */
static void assumed_scalars(Ctx *c, int li)
{
    NgJitLoopInfo *L = &c->res->items[li];
    uint64_t *aug = set_new(c), *maybe = set_new(c);
    aug_names(L->stmt->body, aug);
    for (int i = 0; i < c->func->params->n; i++)
        set_add(maybe, c->func->params->items[i].name_id);
    for (int i = 0; i < c->nbinds; i++)
        for (int k = 0; k < c->nw; k++)
            if (c->binds[i].from[k]) {
                set_add(maybe, c->binds[i].target);
                break;
            }
    set_and(c, aug, maybe);
    L->scalars = name_list(c, aug, &L->nscalars);
}

/* The scalars of loop li: private, reduction, or the reason it is sequential;
 * *carried: the name behind that reason when it is the only one, else -1. */
static const char *analyze_scalars(Ctx *c, int li, int *carried)
{
    NgJitLoopInfo *L = &c->res->items[li];
    LoopData *d = &c->ld[li];
    NgJitBlock body = L->stmt->body;
    uint64_t *exposed = set_new(c);
    Du du = {set_new(c), false};
    set_add(du.def, L->var_id);
    du_block(c, body, &du, exposed);

    uint64_t *priv = set_new(c), *group = set_new(c), *fresh = set_new(c);
    int nred = 0, key = -1;
    NgJitOp kop = NG_JIT_OP_NONE;
    if (!ranked_group(c, body, &key, &kop, group) || set_has(group, L->var_id))
        key = -1;
    bool kmax = kop == NG_JIT_OP_GT || kop == NG_JIT_OP_GE;
    int *red_op = xalloc(c, &c->tmp, (size_t)c->ast->nnames * sizeof *red_op);
    bool *late = xalloc(c, &c->tmp, (size_t)c->ast->nnames * sizeof *late);
    bool *last = xalloc(c, &c->tmp, (size_t)c->ast->nnames * sizeof *last);
    const char *why = NULL;
    int nbad = 0;
    *carried = -1;
    for (int id = 0; id < c->ast->nnames; id++) {
        red_op[id] = RED_NONE;
        late[id] = last[id] = false;
        if (!set_has(d->assigned, id) || id == L->var_id)
            continue;
        bool ex = set_has(exposed, id), live = set_has(d->live_out, id);
        if (!ex && !live) {
            set_add(priv, id);
            continue;
        }
        if (key >= 0 && set_has(group, id)) { /* the key and the names that go with it */
            red_op[id] = id == key ? (kmax ? NG_JIT_RED_MAX : NG_JIT_RED_MIN) : kmax ? NG_JIT_RED_ARGMAX
                                                                                      : NG_JIT_RED_ARGMIN;
            nred++;
            continue;
        }
        red_op[id] = reduction_of(c, body, id, &late[id], &last[id]);
        if (red_op[id] != RED_NONE) {
            nred++;
            continue;
        }
        if (!ex && (red_op[id] = last_of(c, body, id, L->var_id, d->step)) != RED_NONE) {
            set_add(fresh, id);
            nred++;
            continue;
        }
        if (!why)
            why = ex ? fmt(c, "reads %s before assigning it, so it carries over from one iteration to the next",
                           name_of(c, id))
                     : fmt(c, "assigns %s, which is read after the loop", name_of(c, id));
        *carried = nbad++ ? -1 : id;
    }
    L->privates = name_list(c, priv, &L->nprivates);
    if (nred) {
        L->reductions = xalloc(c, &c->res->arena, (size_t)nred * sizeof *L->reductions);
        for (int id = 0; id < c->ast->nnames; id++)
            if (red_op[id] != RED_NONE)
                L->reductions[L->nreductions++] = (NgJitReduction){name_of(c, id), id, (NgJitRedOp)red_op[id],
                                                                   key >= 0 && set_has(group, id), late[id],
                                                                   last[id], set_has(fresh, id)};
        L->ranked_last = key >= 0 && (kop == NG_JIT_OP_GE || kop == NG_JIT_OP_LE);
    }
    return why;
}

/* The arrays loop li writes: the dependence test over every pair of accesses.
 * Conflicts that all meet in one iteration (peel_pair) are left in *pk,
 * the first one's reason in pk->why, and NULL returned. */
static const char *analyze_arrays(Ctx *c, int li, Peel *pk)
{
    NgJitLoopInfo *L = &c->res->items[li];
    LoopData *d = &c->ld[li];
    c->nacc = 0;
    c->natoms = 0;
    acc_block(c, L->stmt->body, NULL);
    int kept = 0;
    for (int i = 0; i < c->nacc; i++) /* (an iteration's own arrays: no dependence) */
        if (c->skip && set_has(c->skip, c->acc[i].root))
            c->nskipped++;
        else if (!set_has(d->fresh, c->acc[i].root))
            c->acc[kept++] = c->acc[i];
    c->nacc = kept;
    for (int i = 0; i < c->nacc; i++) {
        const Access *a = &c->acc[i];
        if (a->write && set_has(d->assigned, a->root))
            return fmt(c, "writes %s through %s, which the loop assigns (the array it refers to is not known)",
                       text(c, a->e), name_of(c, a->root));
    }
    /* (two names the function bound to views of one array before the loop are told apart at
     * the launch: it checks that the loop's arrays do not overlap, and runs the loop as Python
     * where they do; a ping-pong of two arrays, `a, b = b, a`, stays parallel) */
    uint64_t *atomic = set_new(c);
    L->nwraps = 0;
    c->opaque_wrap = false;
    c->rows_used = false;
    for (int i = 0; i < c->nacc; i++) {
        const Access *w = &c->acc[i];
        if (!w->write || set_has(atomic, w->root))
            continue;
        /* the pair with itself last: a conflict with another access says more */
        for (int jj = 0; jj < c->nacc; jj++) {
            int j = jj == c->nacc - 1 ? i : jj < i ? jj : jj + 1;
            const Access *r = &c->acc[j];
            bool hd = false;
            int64_t dist = 0;
            int at = -1;
            bool slices;
            if (r->root != w->root || (r->write && j < i))
                continue;
            if (independent(c, w, r, &hd, &dist, &at, &slices)) { /* (proven for indices that do not wrap) */
                for (int side = 0; side < 2; side++) {
                    const Access *x = side ? r : w;
                    if (x->pos[at])
                        add_wrap(c, L, x->pos[at], w->root, at, slices);
                    else { /* (a slice's bounds: not negative, so not wrapped) */
                        add_wrap(c, L, x->slc[at]->lhs, w->root, at, true);
                        add_wrap(c, L, x->slc[at]->rhs, w->root, at, true);
                    }
                }
                continue;
            }
            /* atomic: the array is only updated by `a[...] += v` (or -=), read nowhere else; or
             * only by `if v > a[...]: a[...] = v` (ng_jit_cond_store: an atomic max; < min),
             * which reads the element once more */
            int updates = 0, compares = 0;
            bool only = true;
            for (int k = 0; k < c->nacc; k++) {
                const Access *x = &c->acc[k];
                if (x->root != w->root)
                    continue;
                updates++;
                bool cmp = x->aug && (x->op == NG_JIT_OP_GT || x->op == NG_JIT_OP_LT);
                compares += cmp;
                only &= x->aug && (x->op == NG_JIT_OP_ADD || x->op == NG_JIT_OP_SUB || (cmp && x->op == w->op)) &&
                        x->npos >= 0;
            }
            Count loads = {w->root, 0};
            block_exprs(c, L->stmt->body, count_loads, &loads);
            if (only && (compares == 0 || compares == updates) && loads.n == updates + compares) {
                set_add(atomic, w->root);
                break;
            }
            if (peel_pair(c, w, r, pk)) {
                if (!pk->why)
                    pk->why = conflict_reason(c, w, r, hd, dist);
                continue;
            }
            return conflict_reason(c, w, r, hd, dist);
        }
    }
    if (c->opaque_wrap)
        return "calls a helper that indexes an array the loop writes with a variable of its own, "
               "which the loop cannot check for negative values";
    L->atomics = name_list(c, atomic, &L->natomics);
    L->atomic = L->natomics > 0;
    return NULL;
}

/* Sets *(bool *)arg when e calls a helper function (which may write arrays). */
static void helper_calls(Ctx *c, const NgJitExpr *e, void *arg)
{
    if (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_HELPER)
        *(bool *)arg = true;
    each_child(c, e, helper_calls, arg);
}

static bool has_continue(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_CONTINUE ||
            (s->kind == NG_JIT_S_IF && (has_continue(s->body) || has_continue(s->orelse))))
            return true;
    }
    return false;
}

/* Whether e calls no helper (which may write arrays) and assigns no name
 * with a walrus: it can be evaluated again, or for an iteration that never
 * runs (a search's find kernel, a scan's parts). */
static bool pure_expr(Ctx *c, const NgJitExpr *e)
{
    bool helper = false;
    helper_calls(c, e, &helper);
    uint64_t *w = set_new(c);
    walrus_into(c, e, w);
    for (int i = 0; i < c->nw && !helper; i++)
        helper = w[i] != 0;
    return !helper;
}

/* Sets *(bool *)arg when e is not a pure_expr. */
static void impure_into(Ctx *c, const NgJitExpr *e, void *arg)
{
    if (!pure_expr(c, e))
        *(bool *)arg = true;
}

/* Whether block b's statements, ahead of a search's `if`, are of its form:
 * assignments to names (`x = e`, `x += e`), and ifs and loops of such
 * statements (breaks and continues only of those loops); nothing writes an
 * array, calls a helper or assigns with a walrus. */
static bool search_head(Ctx *c, NgJitBlock b, bool in_loop)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        switch (s->kind) {
        case NG_JIT_S_ASSIGN:
            for (int k = 0; k < s->ntargets; k++)
                if (s->targets[k]->kind != NG_JIT_E_NAME)
                    return false;
            break;
        case NG_JIT_S_AUGASSIGN:
            if (s->target->kind != NG_JIT_E_NAME)
                return false;
            break;
        case NG_JIT_S_IF:
            if (!search_head(c, s->body, in_loop) || !search_head(c, s->orelse, in_loop))
                return false;
            break;
        case NG_JIT_S_FOR: case NG_JIT_S_WHILE:
            if ((s->kind == NG_JIT_S_FOR && s->target->kind != NG_JIT_E_NAME) || !search_head(c, s->body, true) ||
                !search_head(c, s->orelse, in_loop))
                return false;
            break;
        case NG_JIT_S_BREAK: case NG_JIT_S_CONTINUE:
            if (!in_loop)
                return false;
            break;
        case NG_JIT_S_PASS:
            break;
        default:
            return false;
        }
        bool impure = false;
        stmt_exprs(c, s, impure_into, &impure);
        if (impure)
            return false;
    }
    return true;
}

/* A search (NgJitLoopInfo.search): a range loop with a literal step whose
 * body is `<head>; if <test>: <anything>; break`, nothing after the `if`,
 * where the head (search_head: assignments to names, ifs and loops of them)
 * and the test write no array and call no helper, and
 *   - nothing is carried from one iteration to the next: no name the head
 *     assigns is read where it may not be assigned yet in the iteration
 *     (du_block);
 *   - every name the head assigns that is read after the loop is surely
 *     assigned by it (in the iteration that runs, whatever ran before), or
 *     is the value of a return desugar.c rewrote (NG_JIT_RET "v..."), which
 *     is read only from the iteration whose return ran.
 * Every iteration before the one that breaks then has no effect the host can
 * see (its names are set again by the iteration that runs), so that
 * iteration can be found in parallel. */
static bool search_shape(Ctx *c, int li)
{
    const NgJitLoopInfo *L = &c->res->items[li];
    const NgJitStmt *s = L->stmt;
    NgJitBlock b = s->body;
    if (s->orelse.n || c->ld[li].step == 0 || b.n == 0)
        return false;
    const NgJitStmt *hit = b.stmts[b.n - 1];
    if (hit->kind != NG_JIT_S_IF || hit->orelse.n || hit->body.n == 0 ||
        hit->body.stmts[hit->body.n - 1]->kind != NG_JIT_S_BREAK || has_continue(hit->body))
        return false;
    NgJitBlock head = {b.stmts, b.n - 1};
    if (!search_head(c, head, false) || !pure_expr(c, hit->test))
        return false;
    uint64_t *sets = set_new(c), *exposed = set_new(c);
    block_stores(c, head, sets);
    Du du = {set_new(c), false};
    set_add(du.def, L->var_id);
    du_block(c, head, &du, exposed);
    DuArg at_test = {&du, exposed};
    du_loads(c, hit->test, &at_test);
    if (set_has(sets, L->var_id))
        return false;
    for (int id = 0; id < c->ast->nnames; id++) {
        if (!set_has(sets, id))
            continue;
        if (set_has(exposed, id))
            return false;
        if (set_has(c->ld[li].live_out, id) && !set_has(du.def, id) && !ng_jit_ret_line(name_of(c, id)))
            return false;
    }
    return true;
}

/* ---- scans ---- */

/* The operator of a scalar update `s op= e` or `s = <chain of s>` (e not
 * reading s, op + - * | & ^ or max/min), RED_NONE for anything else. */
static int update_op(Ctx *c, const NgJitStmt *a, int id)
{
    if (a->kind == NG_JIT_S_AUGASSIGN && a->target->kind == NG_JIT_E_NAME && a->target->name_id == id &&
        !mentions(c, a->value, id) && pure_expr(c, a->value)) {
        switch (a->op) {
        case NG_JIT_OP_ADD: case NG_JIT_OP_SUB: return NG_JIT_RED_ADD;
        case NG_JIT_OP_MUL: return NG_JIT_RED_MUL;
        case NG_JIT_OP_BITOR: return NG_JIT_RED_OR;
        case NG_JIT_OP_BITAND: return NG_JIT_RED_AND;
        case NG_JIT_OP_BITXOR: return NG_JIT_RED_XOR;
        default: return RED_NONE;
        }
    }
    if (a->kind == NG_JIT_S_ASSIGN && a->ntargets == 1 && a->targets[0]->kind == NG_JIT_E_NAME &&
        a->targets[0]->name_id == id && pure_expr(c, a->value))
        return assign_red(c, a->value, id);
    return RED_NONE;
}

/* Whether every expression of the range loop's iterable (its bounds) can be
 * evaluated again: the host reads the trip count before a scan. */
static bool scan_range(Ctx *c, const NgJitStmt *s)
{
    const NgJitExpr *it = s->test;
    if (it->kind != NG_JIT_E_CALL || it->lhs->kind != NG_JIT_E_NAME || strcmp(it->lhs->name, "range") != 0 ||
        it->nkeywords || it->nitems < 1 || it->nitems > 3)
        return false;
    for (int i = 0; i < it->nitems; i++)
        if (it->items[i]->kind == NG_JIT_E_STARRED || !pure_expr(c, it->items[i]))
            return false;
    return true;
}

/* The index of the one statement at the top level of b that assigns name id; -1 where none or
 * several do. */
static int only_update(Ctx *c, NgJitBlock b, int id)
{
    int u = -1;
    for (int i = 0; i < b.n; i++) {
        uint64_t *st = set_new(c);
        block_stores(c, (NgJitBlock){&b.stmts[i], 1}, st);
        if (set_has(st, id)) {
            if (u >= 0)
                return -1;
            u = i;
        }
    }
    return u;
}

/* Loop li as a scan of accumulator s (NgJitLoopInfo.scan): s, the one name
 * it carries from an iteration to the next, is updated once, by a statement
 * at the top level of the body: `s op= e`, `s = s op e ...` (op + - * | & ^),
 * `s = max(s, e)` or `min`, or one of them under an `if t:` without else, e
 * and t not reading s. The statements before it assign names, not reading
 * s, or store into arrays (the partial results leave those out); they and
 * the update read no array the loop writes and call no helper. */
static bool scan_accumulator(Ctx *c, int li, int id)
{
    NgJitLoopInfo *L = &c->res->items[li];
    NgJitBlock b = L->stmt->body;
    int u = only_update(c, b, id);
    if (u < 0)
        return false;
    const NgJitStmt *upd = b.stmts[u];
    if (upd->kind == NG_JIT_S_IF &&
        (upd->orelse.n || upd->body.n != 1 || mentions(c, upd->test, id) || !pure_expr(c, upd->test)))
        return false;
    int op = update_op(c, upd->kind == NG_JIT_S_IF ? upd->body.stmts[0] : upd, id);
    if (op == RED_NONE)
        return false;
    uint64_t *reads = set_new(c);
    for (int i = 0; i <= u; i++) { /* what the partial results evaluate */
        const NgJitStmt *p = b.stmts[i];
        if (i < u && p->kind == NG_JIT_S_ASSIGN && p->ntargets == 1 && p->targets[0]->kind == NG_JIT_E_SUBSCRIPT)
            continue; /* (a store: left out of them) */
        if (i < u && (p->kind != NG_JIT_S_ASSIGN || p->ntargets != 1 || p->targets[0]->kind != NG_JIT_E_NAME ||
                      p->targets[0]->name_id == L->var_id || mentions(c, p->value, id) || !pure_expr(c, p->value)))
            return false;
        stmt_exprs(c, p, loads_into, reads);
        block_exprs(c, p->body, loads_into, reads);
    }
    for (int w = 0; w < c->nw; w++)
        if (reads[w] & c->ld[li].written[w])
            return false;
    L->scan = true;
    L->scan_op = (NgJitRedOp)op;
    L->scan_var = id;
    L->scan_update = upd;
    L->scan_prev = NULL;
    return true;
}

typedef struct Prev {
    int array, var;
    int64_t step;
    const NgJitExpr *found; /* the first a[var - step] */
} Prev;

/* Finds in e a read a[i - step] of the array by the loop variable. */
static void find_prev(Ctx *c, const NgJitExpr *e, void *arg)
{
    Prev *pv = arg;
    if (pv->found)
        return;
    if (e->kind == NG_JIT_E_SUBSCRIPT && e->lhs->kind == NG_JIT_E_NAME && e->lhs->name_id == pv->array) {
        Poly p;
        poly_of(c, e->rhs, &p);
        if (p.n == 1 && p.t[0].k == 1 && p.t[0].b < 0 && cls(c, p.t[0].a) == CLS_IND && p.c == -pv->step) {
            pv->found = e;
            return;
        }
    }
    each_child(c, e, find_prev, arg);
}

typedef struct Only {
    int array;
    const NgJitExpr *ok[2]; /* the reads of it allowed */
    bool bad;
} Only;

/* Sets bad where e mentions the array other than as one of the reads allowed. */
static void only_reads(Ctx *c, const NgJitExpr *e, void *arg)
{
    Only *o = arg;
    if (ng_jit_expr_equal(e, o->ok[0]) || ng_jit_expr_equal(e, o->ok[1]))
        return;
    if (e->kind == NG_JIT_E_NAME && e->name_id == o->array)
        o->bad = true;
    else
        each_child(c, e, only_reads, arg);
}

/* Loop li as a scan of an array recurrence (NgJitLoopInfo.scan): its body
 * is one statement, `a[i] = a[i - step] op e` (op + - * | & ^ with a[i -
 * step] a term with a + sign, or max/min(a[i - step], e)) or `a[i] op=
 * a[i - step]` (op + * | & ^; or `op= a[i - step] op e`), i the loop
 * variable, a a name, e reading a only as a[i] and calling no helper. */
static bool scan_recurrence(Ctx *c, int li)
{
    NgJitLoopInfo *L = &c->res->items[li];
    NgJitBlock b = L->stmt->body;
    if (b.n != 1)
        return false;
    const NgJitStmt *s = b.stmts[0];
    const NgJitExpr *t = s->kind == NG_JIT_S_AUGASSIGN ? s->target
                         : s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 ? s->targets[0] : NULL;
    if (!t || t->kind != NG_JIT_E_SUBSCRIPT || t->lhs->kind != NG_JIT_E_NAME || t->rhs->kind != NG_JIT_E_NAME ||
        t->rhs->name_id != L->var_id || c->view[t->lhs->name_id] || !pure_expr(c, s->value))
        return false;
    Prev pv = {t->lhs->name_id, L->var_id, c->ld[li].step, NULL};
    find_prev(c, s->value, &pv);
    if (!pv.found)
        return false;
    int op = combine_op(c, s->value, -1, pv.found);
    if (s->kind == NG_JIT_S_AUGASSIGN) { /* a[i] op= (a[i - step] op e), the same op */
        int aug = s->op == NG_JIT_OP_ADD ? NG_JIT_RED_ADD : s->op == NG_JIT_OP_MUL ? NG_JIT_RED_MUL
                  : s->op == NG_JIT_OP_BITOR ? NG_JIT_RED_OR : s->op == NG_JIT_OP_BITAND ? NG_JIT_RED_AND
                  : s->op == NG_JIT_OP_BITXOR ? NG_JIT_RED_XOR : RED_NONE;
        op = s->value == pv.found || op == aug ? aug : RED_NONE;
    }
    Only o = {pv.array, {pv.found, t}, false};
    only_reads(c, s->value, &o);
    if (o.bad || op == RED_NONE || op == NG_JIT_RED_ARGMAX || op == NG_JIT_RED_ARGMIN)
        return false;
    L->scan = true;
    L->scan_op = (NgJitRedOp)op;
    L->scan_var = -1;
    L->scan_update = s;
    L->scan_prev = pv.found;
    return true;
}

/* Whether loop li can run around the iteration pk found (NgJitLoopInfo.peel):
 * not asserted (then nothing is peeled), no reductions, a literal step > 0.
 * Sets the loop's peel fields when it can, and adds the counter's index
 * v + off to its wrap checks, strict: a negative one would wrap onto another
 * element of the axis, and a second iteration would meet the others. */
static bool peel_ok(Ctx *c, int li, const Peel *pk)
{
    NgJitLoopInfo *L = &c->res->items[li];
    if (L->asserted || L->nreductions || c->ld[li].step <= 0)
        return false;
    add_wrap(c, L, pk->v, pk->root, pk->axis, true);
    for (int m = 0; m < pk->nmore; m++)
        add_wrap(c, L, pk->more[m].v, pk->more[m].root, pk->more[m].axis, true);
    L->peel = true;
    L->peel_at = pk->at;
    L->peel_off = pk->off;
    L->peel_array = pk->root;
    L->peel_axis = pk->axis;
    const char *at = text(c, pk->at);
    if (pk->off)
        at = fmt(c, pk->at->kind == NG_JIT_E_NAME ? "%s - %lld" : "(%s) - %lld", at, (long long)pk->off);
    L->peel_text = fmt(c, "%s = %s", name_of(c, L->var_id), at);
    return true;
}

/* Whether index e of loop li is >= 0 by its form: k*v + f... + c with k >= 0,
 * the range from a constant start >= 0 up (where k > 0: a literal step > 0),
 * each f a loop variable of a range inside (never below 0, by `bounded` or
 * `tiled`), and c with k*start at least 0. */
static bool nonneg_form(Ctx *c, int li, const NgJitExpr *e)
{
    const NgJitExpr *it = c->res->items[li].stmt->test;
    Poly p, start = {0};
    if (it->nitems > 1)
        poly_of(c, it->items[0], &start);
    poly_of(c, e, &p);
    if (start.n || start.c < 0)
        return false;
    int64_t least = p.c;
    for (int i = 0; i < p.n; i++) {
        int x = cls(c, p.t[i].a);
        if (p.t[i].b >= 0 || p.t[i].k < 0 || x == CLS_INV)
            return false;
        if (x == CLS_IND && (c->ld[li].step <= 0 || __builtin_add_overflow(least, p.t[i].k * start.c, &least)))
            return false;
    }
    return least >= 0;
}

/* Whether loop p (-1: none), when it runs in parallel, checks that e is >= 0
 * in every iteration: e is one of its wrap checks naming a loop variable of
 * a range inside it (the check then requires all of them >= 0, not a window). */
static bool checked_nonneg(Ctx *c, int p, const NgJitExpr *e)
{
    if (p < 0 || c->res->items[p].asserted)
        return false;
    const NgJitLoopInfo *P = &c->res->items[p];
    for (int i = 0; i < P->nwraps; i++)
        if (P->wraps[i].strict && ng_jit_expr_equal(P->wraps[i].e, e))
            return true;
    return false;
}

/* Ctx.view for a loop body: per name, the value of `v = X[...]` when that is
 * a top-level statement of the body and the only one that assigns v, X a
 * name the body does not assign, or an array it makes afresh (`fresh`; nor
 * is v the loop variable). */
static const NgJitExpr **find_views(Ctx *c, NgJitBlock body, int var, const uint64_t *assigned, const uint64_t *fresh)
{
    const NgJitExpr **view = xalloc(c, &c->tmp, (size_t)(c->ast->nnames + 1) * sizeof *view);
    memset(view, 0, (size_t)(c->ast->nnames + 1) * sizeof *view);
    uint64_t *once = set_new(c), *more = set_new(c);
    for (int i = 0; i < body.n; i++) { /* names assigned by one top-level statement, or more */
        uint64_t *st = set_new(c);
        block_stores(c, (NgJitBlock){&body.stmts[i], 1}, st);
        for (int k = 0; k < c->nw; k++) {
            more[k] |= once[k] & st[k];
            once[k] |= st[k];
        }
    }
    for (int i = 0; i < body.n; i++) {
        const NgJitStmt *s = body.stmts[i];
        if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1 || s->targets[0]->kind != NG_JIT_E_NAME ||
            s->value->kind != NG_JIT_E_SUBSCRIPT)
            continue;
        int v = s->targets[0]->name_id;
        const NgJitExpr *root = subscript_root(s->value);
        uint64_t *own = set_new(c); /* (a walrus in the value assigning v) */
        stmt_exprs(c, s, walrus_into, own);
        if (root && v != var && root->name_id != v &&
            (!set_has(assigned, root->name_id) || set_has(fresh, root->name_id)) && !set_has(more, v) &&
            !set_has(own, v))
            view[v] = s->value;
    }
    return view;
}

/* Whether s is `a = np.zeros(...)` (np.ones, np.empty, np.full) of a NAME a. */
static bool new_array_stmt(const NgJitStmt *s)
{
    return s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME &&
           s->value->kind == NG_JIT_E_CALL && ng_jit_call_kind(s->value) == NG_JIT_CALL_NP_NEW;
}

/* Whether the statements of b (and their blocks) bind name `id` only by `id = np.zeros(...)`
 * (an update in place, id += v, is no binding). */
static bool binds_only_new(Ctx *c, NgJitBlock b, int id)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        uint64_t *st = set_new(c);
        if (new_array_stmt(s)) {
            if (s->targets[0]->name_id == id) /* (its arguments: a = np.full(3, a[0]) reads a) */
                loads_into(c, s->value, st);
        } else if (!(s->kind == NG_JIT_S_AUGASSIGN && s->target->kind == NG_JIT_E_NAME))
            stmt_stores(c, s, st);
        if (set_has(st, id) || !binds_only_new(c, s->body, id) || !binds_only_new(c, s->orelse, id))
            return false;
    }
    return true;
}

static int mentions_in(Ctx *c, NgJitBlock b, int id)
{
    Count k = {id, 0};
    block_exprs(c, b, count_mentions, &k);
    return k.n;
}

/* Adds to `fresh` the arrays made in block b (of loop body `body`, b itself or a block in it):
 * `a = np.zeros(...)` a statement of b, every mention of a in the body after it in b (so each
 * run of b makes a before reading it), a bound in the body only so. */
static void fresh_in(Ctx *c, NgJitBlock body, NgJitBlock b, uint64_t *fresh)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        int id = new_array_stmt(s) ? s->targets[0]->name_id : -1;
        if (id >= 0 && !set_has(fresh, id) && mentions_in(c, (NgJitBlock){&b.stmts[i], 1}, id) == 1 &&
            mentions_in(c, (NgJitBlock){b.stmts + i, b.n - i}, id) == mentions_in(c, body, id) &&
            binds_only_new(c, body, id))
            set_add(fresh, id);
        if (s->kind != NG_JIT_S_DEF) {
            fresh_in(c, body, s->body, fresh);
            fresh_in(c, body, s->orelse, fresh);
        }
    }
}

/* The arrays a loop body makes afresh in each iteration (fresh_in): what the iteration writes
 * into them is its own (no dependence between iterations). */
static uint64_t *fresh_arrays(Ctx *c, NgJitBlock body)
{
    uint64_t *fresh = set_new(c);
    fresh_in(c, body, body, fresh);
    return fresh;
}

/* Adds to `set` the arrays the helper calls in e write into: the roots of
 * the arguments of the parameters they write (Helper.wparams). */
static void helper_writes_into(Ctx *c, const NgJitExpr *e, void *set)
{
    if (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_HELPER) {
        const Helper *h = find_helper(c, e->lhs->name_id);
        const NgJitExpr **args = h && h->state == 2 ? call_args(c, e, h) : NULL;
        for (int j = 0; args && j < h->def->params->n && j < 64; j++) {
            const NgJitExpr *root = (h->wparams >> j & 1) ? subscript_root(args[j]) : NULL;
            if (root)
                set_add(set, root->name_id);
        }
    }
    each_child(c, e, helper_writes_into, set);
}

/* ---- compactions ---- */

/* A compaction's stores at its accumulator k (scan_compaction). */
typedef struct Compact {
    int k, var;          /* the accumulator, the loop variable */
    uint64_t *arrays;    /* the arrays stored at k */
    int *nstores;        /* per name: its stores at k */
    const NgJitExpr *bad_index; /* set: a subscript whose index reads k, not a store at k */
} Compact;

/* The literal c > 0 of `k += c` (an int literal, at most 2**20), else 0. */
static int64_t k_increment(const NgJitStmt *s, int k)
{
    if (s->kind != NG_JIT_S_AUGASSIGN || s->op != NG_JIT_OP_ADD || s->target->kind != NG_JIT_E_NAME ||
        s->target->name_id != k || s->value->kind != NG_JIT_E_INT || s->value->big || s->value->ival < 1 ||
        s->value->ival > ((uint64_t)1 << 20))
        return 0;
    return (int64_t)s->value->ival;
}

/* Whether index e is k or k + c, c an int literal with 0 <= c < inc, by its form. */
static bool k_plus(const NgJitExpr *e, int k, int64_t inc)
{
    if (e->kind == NG_JIT_E_NAME)
        return e->name_id == k;
    if (e->kind != NG_JIT_E_BINARY || e->op != NG_JIT_OP_ADD)
        return false;
    const NgJitExpr *n = e->lhs->kind == NG_JIT_E_NAME ? e->lhs : e->rhs, *l = n == e->lhs ? e->rhs : e->lhs;
    return n->kind == NG_JIT_E_NAME && n->name_id == k && l->kind == NG_JIT_E_INT && !l->big &&
           l->ival < (uint64_t)inc;
}

/* Sets cp->bad_index at a subscript of e whose index reads k. */
static void k_subscripts(Ctx *c, const NgJitExpr *e, void *arg)
{
    Compact *cp = arg;
    if (e->kind == NG_JIT_E_SUBSCRIPT && mentions(c, e->rhs, cp->k) && !cp->bad_index)
        cp->bad_index = e;
    each_child(c, e, k_subscripts, arg);
}

/* Whether s is a store `a[k + c, ...] = e` (a a name, 0 <= c < inc, the other indices and e not
 * indexing by k, e calling no helper): then a is one of the compaction's arrays. */
static bool k_store(Ctx *c, const NgJitStmt *s, int64_t inc, Compact *cp)
{
    if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1 || s->targets[0]->kind != NG_JIT_E_SUBSCRIPT)
        return false;
    const NgJitExpr *t = s->targets[0], *ix = t->rhs;
    if (t->lhs->kind != NG_JIT_E_NAME || !mentions(c, ix, cp->k) || !pure_expr(c, s->value))
        return false;
    int n = ix->kind == NG_JIT_E_TUPLE ? ix->nitems : 1;
    const NgJitExpr *const *items = ix->kind == NG_JIT_E_TUPLE ? (const NgJitExpr *const *)ix->items : &ix;
    if (n < 1 || !k_plus(items[0], cp->k, inc))
        return false;
    for (int i = 1; i < n; i++)
        if (mentions(c, items[i], cp->k) || !pure_expr(c, items[i]))
            return false;
    k_subscripts(c, s->value, cp);
    set_add(cp->arrays, t->lhs->name_id);
    cp->nstores[t->lhs->name_id]++;
    return !cp->bad_index;
}

/* Whether statement s, ahead of k's increment by inc (0: ahead of a conditional one), is of a
 * compaction's form: a name assigned (not k nor the loop variable, from a value calling no helper),
 * a store at k (k_store, only where inc > 0), or another store whose index does not read k. */
static bool compact_stmt(Ctx *c, const NgJitStmt *s, int64_t inc, Compact *cp)
{
    if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1)
        return false;
    const NgJitExpr *t = s->targets[0];
    if (t->kind == NG_JIT_E_NAME)
        return t->name_id != cp->k && t->name_id != cp->var && pure_expr(c, s->value) &&
               (k_subscripts(c, s->value, cp), !cp->bad_index);
    if (t->kind != NG_JIT_E_SUBSCRIPT)
        return false;
    if (mentions(c, t->rhs, cp->k))
        return inc > 0 && k_store(c, s, inc, cp);
    k_subscripts(c, t, cp);
    k_subscripts(c, s->value, cp);
    return !cp->bad_index;
}

/* Whether block b is a branch of a compaction's update: statements of compact_stmt's form, the
 * last `k += c` (c > 0 literal), the stores at k before it at k + c' with c' < c. */
static bool compact_branch(Ctx *c, NgJitBlock b, Compact *cp)
{
    int64_t inc = b.n ? k_increment(b.stmts[b.n - 1], cp->k) : 0;
    if (!inc)
        return false;
    for (int i = 0; i + 1 < b.n; i++)
        if (!compact_stmt(c, b.stmts[i], inc, cp))
            return false;
    return true;
}

/* Whether u, an `if t: ...` (elif ..., else ...), is a compaction's update: each branch a
 * compact_branch, its tests not reading k and calling no helper. */
static bool compact_if(Ctx *c, const NgJitStmt *u, Compact *cp)
{
    if (u->kind != NG_JIT_S_IF || mentions(c, u->test, cp->k) || !pure_expr(c, u->test) ||
        !compact_branch(c, u->body, cp))
        return false;
    if (!u->orelse.n)
        return true;
    if (u->orelse.n == 1 && u->orelse.stmts[0]->kind == NG_JIT_S_IF)
        return compact_if(c, u->orelse.stmts[0], cp);
    return compact_branch(c, u->orelse, cp);
}

/* Loop li as a compaction (a scan whose accumulator indexes stores; NgJitLoopInfo.scan_compact):
 * k, the one name it carries, is increased only by literals > 0, once per iteration at most, by
 * the body's top-level statement u: `k += c`, or `if t: ...` whose branches (elif, else) each
 * end with `k += c`; every subscript whose index reads k is a store `a[k + c', ...] = e` (c' < c)
 * ahead of that increment in its branch (or ahead of u, at the top level, for an unconditional
 * u). In each iteration the stores land in [k, k + c), where k only grows: no two iterations store
 * into one element, given k >= 0 at the start (the host checks: a negative k would wrap). The
 * arrays stored at k (plain names, not views, not assigned in the loop) are mentioned nowhere
 * else in the body: the other accesses must be independent without them (analyze_arrays again,
 * skipping them). The other statements before u assign names not reading k, or store (not at k);
 * the ones after u index nothing by k. */
static bool scan_compaction(Ctx *c, int li, int k)
{
    NgJitLoopInfo *L = &c->res->items[li];
    LoopData *d = &c->ld[li];
    NgJitBlock b = L->stmt->body;
    Compact cp = {k, L->var_id, set_new(c), xalloc(c, &c->tmp, (size_t)c->ast->nnames * sizeof(int)), NULL};
    memset(cp.nstores, 0, (size_t)c->ast->nnames * sizeof(int));
    int u = only_update(c, b, k);
    if (u < 0)
        return false;
    int64_t inc = k_increment(b.stmts[u], k);
    if (!inc && !compact_if(c, b.stmts[u], &cp))
        return false;
    for (int i = 0; i < u; i++) {
        const NgJitStmt *p = b.stmts[i];
        if (!compact_stmt(c, p, inc, &cp) ||
            (p->targets[0]->kind == NG_JIT_E_NAME && mentions(c, p->value, k)))
            return false;
    }
    /* the counting pass (phase 0) evaluates the names assigned before the update and the update's
     * tests, without the stores: none of them may read an array the loop writes (y[i] = ...; if
     * y[i] > 0: ... counted nothing, reading y before its store) */
    uint64_t *reads = set_new(c);
    for (int i = 0; i < u; i++)
        if (b.stmts[i]->targets[0]->kind == NG_JIT_E_NAME)
            stmt_exprs(c, b.stmts[i], loads_into, reads);
    for (const NgJitStmt *q = b.stmts[u]; q && q->kind == NG_JIT_S_IF;
         q = q->orelse.n == 1 && q->orelse.stmts[0]->kind == NG_JIT_S_IF ? q->orelse.stmts[0] : NULL)
        stmt_exprs(c, q, loads_into, reads);
    for (int w = 0; w < c->nw; w++)
        if (reads[w] & d->written[w])
            return false;
    for (int i = u + 1; i < b.n; i++) {
        block_exprs(c, (NgJitBlock){&b.stmts[i], 1}, k_subscripts, &cp);
        if (cp.bad_index)
            return false;
    }
    bool any = false;
    for (int id = 0; id < c->ast->nnames; id++) {
        if (!set_has(cp.arrays, id))
            continue;
        any = true;
        if (c->view[id] || set_has(d->fresh, id) || set_has(d->assigned, id) ||
            mentions_in(c, b, id) != cp.nstores[id])
            return false;
    }
    if (!any) /* (no store at k: a scan, or not one) */
        return false;
    /* the other arrays: independent without the ones stored at k */
    Peel pk = {0};
    int nstores = 0;
    for (int id = 0; id < c->ast->nnames; id++)
        nstores += cp.nstores[id];
    c->skip = cp.arrays;
    c->nskipped = 0;
    const char *arr = analyze_arrays(c, li, &pk);
    c->skip = NULL;
    if (arr || pk.found || L->natomics || c->nskipped != nstores) /* (a helper's access to them too) */
        return false;
    for (int i = 0; i < L->nwraps; i++)
        if (!nonneg_form(c, li, L->wraps[i].e) && !checked_nonneg(c, L->parent, L->wraps[i].e))
            return false;
    L->scan = true;
    L->scan_compact = true;
    L->scan_op = NG_JIT_RED_ADD;
    L->scan_var = k;
    L->scan_update = b.stmts[u];
    L->scan_prev = NULL;
    return true;
}

static void analyze_loop(Ctx *c, int li)
{
    NgJitLoopInfo *L = &c->res->items[li];
    LoopData *d = &c->ld[li];
    const NgJitStmt *s = L->stmt;
    const char *why;
    c->cur = li;
    L->live = name_list(c, d->live_out, &L->nlive);
    L->live_known = true;
    c->why_line = 0;
    if (s->kind == NG_JIT_S_FOR)
        why = check_for_head(c, s);
    else
        why = check_expr(c, s->test);
    if (!why)
        why = check_block(c, s->body, false);
    if (why) {
        d->python = true;
        L->reason = fmt(c, "line %d %s", c->why_line ? c->why_line : s->span.line, why);
        return;
    }
    if (s->kind == NG_JIT_S_WHILE) {
        L->reason = ng_jit_block_returns(s->body) ? "contains return" : "while loop (its iterations run in order)";
        return;
    }
    L->var_id = s->target->name_id;
    L->asserted = ng_jit_call_kind(s->test) == NG_JIT_CALL_PRANGE;
    d->assigned = set_new(c);
    d->written = set_new(c);
    block_stores(c, s->body, d->assigned);
    block_writes(s->body, d->written);
    block_exprs(c, s->body, helper_writes_into, d->written);
    d->fresh = fresh_arrays(c, s->body);
    c->view = find_views(c, s->body, L->var_id, d->assigned, d->fresh);
    for (int id = 0; id < c->ast->nnames; id++)
        if (c->view[id] && set_has(d->written, id)) { /* row[j] = v writes X */
            set_del(d->written, id);
            set_add(d->written, subscript_root(c->view[id])->name_id);
        }
    for (int id = 0; id < c->ast->nnames; id++)
        if (set_has(d->fresh, id))
            set_del(d->written, id);
    d->step = 1;
    if (s->test->nitems == 3) {
        Poly p;
        c->natoms = 0;
        poly_of(c, s->test->items[2], &p);
        d->step = p.n == 0 ? p.c : 0;
    }
    if (ng_jit_block_returns(s->body)) {
        L->reason = "contains return";
        return;
    }
    if (has_break(s->body)) {
        L->search = search_shape(c, li);
        L->search_step = d->step;
        if (s->returns)
            L->reason = L->search ? "returns from inside it (a search: the iteration that returns is found in "
                                    "parallel, then runs in order)"
                                  : "returns from inside it";
        else
            L->reason = L->search ? "contains break (a search: the iteration that breaks is found in parallel, "
                                    "then runs in order)"
                                  : "contains break";
        return;
    }
    /* a raise or assert where the loop writes arrays: in order, which stops where Python's does
     * (in parallel the other iterations' writes would stay); else, nothing Python sees but the
     * exception, in parallel, the first failing iteration's raised */
    const NgJitStmt *raise = block_raise(s->body);
    bool writes = false;
    for (int id = 0; id < c->ast->nnames && raise && !writes; id++)
        writes = set_has(d->written, id);
    if (raise && writes)
        why = fmt(c, "raises (line %d) and writes arrays: in order, to stop where Python's loop does",
                  raise->span.line);
    else if (set_has(d->assigned, L->var_id))
        why = fmt(c, "assigns its loop variable %s in the body", name_of(c, L->var_id));
    else if (set_has(d->live_out, L->var_id))
        why = fmt(c, "its loop variable %s is read after the loop", name_of(c, L->var_id));
    if (!why) { /* range(i) after a loop over i: the kernel evaluates the range where the loop's
                   own (private) names are not declared yet; in order they carry in */
        uint64_t *reads = set_new(c);
        loads_into(c, s->test, reads);
        for (int id = 0; id < c->ast->nnames && !why; id++)
            if (set_has(reads, id) && (id == L->var_id || set_has(d->assigned, id)))
                why = fmt(c, "its range reads %s, which the loop assigns", name_of(c, id));
    }
    int carried;
    const char *scal = analyze_scalars(c, li, &carried);
    Peel pk = {0};
    const char *arr = analyze_arrays(c, li, &pk);
    if (!arr && pk.found && !peel_ok(c, li, &pk))
        arr = pk.why;
    d->peel_why = pk.why;
    assumed_scalars(c, li);
    d->wraps_nonneg = true;
    for (int i = 0; i < L->nwraps && d->wraps_nonneg; i++)
        d->wraps_nonneg = nonneg_form(c, li, L->wraps[i].e) || checked_nonneg(c, L->parent, L->wraps[i].e);
    L->reason = why ? why : scal ? scal : arr;
    L->independent = L->reason == NULL && !L->peel;
    d->ok = (L->reason == NULL || L->asserted) && !(raise && writes);
    d->rows = L->reason == NULL && !L->asserted && c->rows_used;
    d->rows_unwrapped = true;
    for (int i = 0; i < L->nwraps && d->rows && d->rows_unwrapped; i++) { /* (nothing checks a row's) */
        Poly p;
        poly_of(c, L->wraps[i].e, &p);
        d->rows_unwrapped = rows_nonneg(c, &p);
    }
    if (L->reason)
        L->peel = false;
    /* in order, but for one running combination (exact in integers: the lowering checks) */
    if (L->reason && !L->asserted && !why && d->step != 0 && !pk.found && !L->natomics && !L->nreductions &&
        scan_range(c, s) &&
        ((scal && !arr && carried >= 0 && d->wraps_nonneg && scan_accumulator(c, li, carried)) ||
         (!scal && arr && scan_recurrence(c, li)) ||
         (scal && arr && carried >= 0 && scan_compaction(c, li, carried)))) {
        L->scan_step = d->step;
        d->unscanned = L->reason;
        if (L->scan_compact)
            L->reason = fmt(c, "%s (a compaction: %s counts the stores at index %s, which never meet; blocks of "
                               "iterations run in parallel, each from the count of the blocks before it)",
                            L->reason, name_of(c, carried), name_of(c, carried));
        else
            L->reason = fmt(c, "%s (a scan: blocks of iterations run in parallel, from the %s of the blocks before them)",
                            L->reason, L->scan_op == NG_JIT_RED_ADD ? "sums" : "combined values");
    }
}

/* ---- pass 4: verdicts, outermost loops first ---- */

/* Loop li is the whole body of its parent p, over a range that does not
 * change within p: one more dimension of p's launch. */
static bool collapsible(Ctx *c, int p, int li)
{
    const NgJitStmt *ps = c->res->items[p].stmt, *s = c->res->items[li].stmt;
    if (ps->body.n != 1 || ps->body.stmts[0] != s || s->orelse.n)
        return false;
    uint64_t *names = set_new(c);
    loads_into(c, s->test, names);
    walrus_into(c, s->test, names);
    if (set_has(names, c->res->items[p].var_id))
        return false;
    for (int i = 0; i < c->nw; i++)
        if (names[i] & (c->ld[p].assigned[i] | c->ld[p].written[i]))
            return false;
    return true;
}

static void not_search(NgJitLoopInfo *L)
{
    L->search = false;
    L->reason = L->stmt->returns ? "returns from inside it" : "contains break";
}

static void not_scan(Ctx *c, int li)
{
    if (c->res->items[li].scan) {
        c->res->items[li].scan = false;
        c->res->items[li].scan_compact = false;
        c->res->items[li].reason = c->ld[li].unscanned;
    }
}

/* 1 + the loop around loop li marked `rows` (decided before it), else 0. */
static int in_rows(Ctx *c, int li)
{
    for (int p = c->res->items[li].parent; p >= 0; p = c->res->items[p].parent)
        if (c->res->items[p].rows)
            return p + 1;
    return 0;
}

static void decide(Ctx *c)
{
    NgJitLoopInfo *items = c->res->items;
    for (int li = 0; li < c->res->n; li++) {
        NgJitLoopInfo *L = &items[li];
        const LoopData *d = &c->ld[li];
        int outer = L->parent;
        while (outer >= 0 && items[outer].kind != NG_JIT_LOOP_PARALLEL)
            outer = items[outer].parent;
        if (d->python) {
            L->kind = NG_JIT_LOOP_PYTHON;
        } else if (outer >= 0) {
            /* (a collapsed loop's iterations are not checked for indices that wrap: none may) */
            if (outer == L->parent && d->ok && !L->peel && !items[outer].peel && (d->wraps_nonneg || L->asserted) &&
                collapsible(c, outer, li)) {
                L->kind = NG_JIT_LOOP_PARALLEL;
                L->collapsed = true;
            } else {
                L->kind = NG_JIT_LOOP_SEQUENTIAL;
                if (!L->reason)
                    L->reason = L->peel ? fmt(c, "runs in one thread of the parallel loop at line %d, in three parts "
                                                 "around %s", items[outer].line, L->peel_text)
                                        : fmt(c, "runs in one thread of the parallel loop at line %d", items[outer].line);
            }
        } else if (L->peel && L->depth > 0 && count_loops(L->stmt->body) == 0) {
            /* a launch per outer iteration would do too little work: in order, in three parts */
            L->kind = NG_JIT_LOOP_SEQUENTIAL;
            L->reason = fmt(c, "%s; in order, in three parts around %s (a launch per iteration of the loops around "
                               "it would do too little work)", d->peel_why, L->peel_text);
        } else if (in_rows(c, li)) {
            /* (a row's iterations may run at once, each in one thread: what is inside runs in it) */
            L->kind = NG_JIT_LOOP_SEQUENTIAL;
            if (!L->reason)
                L->reason = fmt(c, "runs in order in each iteration of the row loop at line %d", items[in_rows(c, li) - 1].line);
        } else if (d->rows && L->parent >= 0 && items[L->parent].kind == NG_JIT_LOOP_SEQUENTIAL) {
            /* rows apart inside a loop in order (a DP's row from the row before): the nest stays
             * one kernel, in which each row's iterations may run at once (`rows`), where a launch
             * per row would cost more than a short row's work */
            L->kind = NG_JIT_LOOP_SEQUENTIAL;
            L->rows = L->nreductions == 0 && L->natomics == 0 && L->nscalars == 0 && d->rows_unwrapped;
            L->reason = L->rows ? fmt(c, "a row of the loop at line %d: its iterations are independent (the rows it "
                                         "writes and reads never meet), run in the kernel of that loop, in parallel "
                                         "where that pays (cpu: a long row; GPUs: one block of threads)", items[L->parent].line)
                                : fmt(c, "a row of the loop at line %d: independent but for its reductions, atomic updates "
                                         "or indices that may be negative, it runs in order in the kernel of that loop",
                                      items[L->parent].line);
        } else {
            L->kind = d->ok ? NG_JIT_LOOP_PARALLEL : NG_JIT_LOOP_SEQUENTIAL;
        }
        bool inside = outer >= 0 || in_rows(c, li);
        if (L->search && (L->kind != NG_JIT_LOOP_SEQUENTIAL || inside))
            not_search(L); /* only a loop the host launches runs as a search */
        if (L->kind != NG_JIT_LOOP_SEQUENTIAL || inside)
            not_scan(c, li); /* ... or as a scan */
        if (L->kind != NG_JIT_LOOP_PARALLEL) {
            /* no iterations to combine: the lowering needs neither */
            L->nreductions = L->natomics = L->nscalars = 0;
            L->atomic = false;
        }
    }
    for (int li = 0; li < c->res->n; li++) /* (not for a loop desugar made: a comprehension's
                                                check, a few elements, is no launch's worth) */
        if (items[li].kind == NG_JIT_LOOP_PARALLEL && !items[li].stmt->made)
            for (int p = items[li].parent; p >= 0; p = items[p].parent)
                if (items[p].kind != NG_JIT_LOOP_PARALLEL && !items[p].stmt->lets) {
                    /* (a body desugar.c rewrote runs whole in one kernel: as a host loop it would
                     * keep its lets as written, which run as Python) */
                    items[p].host = true;
                    if (items[p].search)
                        not_search(&items[p]);
                    not_scan(c, p);
                }
    for (int li = 0; li < c->res->n; li++) /* (a row of a host loop: launched per row anyway) */
        if (items[li].rows && items[items[li].parent].host) {
            items[li].kind = NG_JIT_LOOP_PARALLEL;
            items[li].rows = false;
            items[li].reason = NULL;
            for (int in = li + 1; in < c->res->n; in++) /* (its loops: in one thread of it) */
                for (int p = items[in].parent; p >= 0; p = items[p].parent)
                    if (p == li) {
                        items[in].reason = fmt(c, "runs in one thread of the parallel loop at line %d", items[li].line);
                        break;
                    }
        }
}

/* ---- entry points ---- */

static void run(Ctx *c)
{
    const NgJitAst *ast = c->ast;
    c->nw = (ast->nnames + 63) / 64 + 1;
    c->opaque = ast->nnames; /* (the sets have room for it) */
    /* helpers: module-level defs and defs nested in the function */
    int nh = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < 2; k++) {
            NgJitBlock b = k == 0 ? ast->body : c->func->body;
            for (int i = 0; i < b.n; i++) {
                const NgJitStmt *s = b.stmts[i];
                if (s->kind != NG_JIT_S_DEF || s == c->func)
                    continue;
                if (pass == 1)
                    c->helpers[nh] = (Helper){s, 0, NULL, NULL, NULL, 0, 0, NULL, NULL};
                nh++;
            }
        }
        if (pass == 0) {
            c->helpers = xalloc(c, &c->tmp, (size_t)(nh + 1) * sizeof *c->helpers);
            nh = 0;
        }
    }
    c->nhelpers = nh;

    int n = count_loops(c->func->body);
    c->res->items = xalloc(c, &c->res->arena, (size_t)(n + 1) * sizeof *c->res->items);
    c->ld = xalloc(c, &c->tmp, (size_t)(n + 1) * sizeof *c->ld);
    collect_loops(c, c->func->body, -1, 0);

    Always a = {set_new(c), false};
    always_live(c, c->func->body, &a);
    if (a.all)
        memset(a.set, 0xff, (size_t)c->nw * sizeof *a.set);
    c->always_live = a.set;
    collect_binds(c, c->func->body);
    uint64_t *live = set_dup(c, a.set);
    live_block(c, c->func->body, live, NULL);

    for (int li = 0; li < c->res->n; li++)
        analyze_loop(c, li);
    decide(c);
}

NgStatus ng_jit_analyze(const NgJitAst *ast, const NgJitStmt *func, NgJitLoops **out)
{
    *out = NULL;
    if (!ast || !func || func->kind != NG_JIT_S_DEF)
        return ng_error_set(NG_ERR_VALUE, "ng_jit_analyze: expected a function definition");
    NgJitLoops *res = ng_calloc(1, sizeof *res);
    Ctx *c = ng_calloc(1, sizeof *c);
    if (!res || !c) {
        ng_free(res);
        ng_free(c);
        return ng_error_set(NG_ERR_NOMEM, "out of memory analysing the loops of %s", func->name);
    }
    ng_jit_arena_init(&res->arena);
    ng_jit_arena_init(&c->tmp);
    c->ast = ast;
    c->func = func;
    c->res = res;
    res->func = func;
    NgStatus st = NG_OK;
    if (setjmp(c->oom) == 0)
        run(c);
    else
        st = ng_error_set(NG_ERR_NOMEM, "out of memory analysing the loops of %s", func->name);
    ng_jit_arena_free(&c->tmp);
    ng_free(c);
    if (st != NG_OK) {
        ng_jit_loops_free(res);
        return st;
    }
    *out = res;
    return NG_OK;
}

/* The last DEF named `name` among b's statements, or NULL. */
static const NgJitStmt *last_def(NgJitBlock b, const char *name)
{
    for (int i = b.n - 1; i >= 0; i--)
        if (b.stmts[i]->kind == NG_JIT_S_DEF && strcmp(b.stmts[i]->name, name) == 0)
            return b.stmts[i];
    return NULL;
}

const NgJitStmt *ng_jit_helper_def(const NgJitAst *ast, const NgJitStmt *func, const char *name)
{
    const NgJitStmt *d = func && func->kind == NG_JIT_S_DEF ? last_def(func->body, name) : NULL;
    return d ? d : last_def(ast->body, name);
}

void ng_jit_loops_free(NgJitLoops *loops)
{
    if (!loops)
        return;
    ng_jit_arena_free(&loops->arena);
    ng_free(loops);
}

bool ng_jit_loop_reads_after(const NgJitLoopInfo *loop, const char *name)
{
    for (int i = 0; i < loop->nlive; i++)
        if (loop->live[i] && strcmp(loop->live[i], name) == 0)
            return true;
    return !loop->live_known;
}

const char *ng_jit_loop_kind_name(NgJitLoopKind kind)
{
    switch (kind) {
    case NG_JIT_LOOP_PARALLEL: return "parallel";
    case NG_JIT_LOOP_SEQUENTIAL: return "sequential";
    case NG_JIT_LOOP_PYTHON: return "python";
    }
    return "?";
}

const char *ng_jit_red_op_name(NgJitRedOp op)
{
    static const char *const names[] = {"+", "*", "max", "min", "|", "&", "^", "argmax", "argmin"};
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

void ng_jit_loops_print(const NgJitLoops *loops, NgStr *out)
{
    for (int i = 0; i < loops->n; i++) {
        const NgJitLoopInfo *L = &loops->items[i];
        ng_str_catf(out, "%*sline %d: %s", 2 * L->depth, "", L->line, ng_jit_loop_kind_name(L->kind));
        for (int k = 0; k < L->nreductions; k++)
            ng_str_catf(out, " reduce(%s:%s)", ng_jit_red_op_name(L->reductions[k].op), L->reductions[k].name);
        for (int k = 0; k < L->natomics; k++)
            ng_str_catf(out, " atomic(%s)", L->atomics[k]);
        if (L->collapsed)
            ng_str_cat(out, " collapsed");
        if (L->asserted)
            ng_str_cat(out, L->independent ? " asserted (also proven)" : " asserted, not proven");
        if (L->host)
            ng_str_cat(out, " host");
        if (L->search)
            ng_str_cat(out, " search");
        if (L->scan)
            ng_str_catf(out, " scan(%s)%s", ng_jit_red_op_name(L->scan_op), L->scan_compact ? " compact" : "");
        if (L->peel && L->kind == NG_JIT_LOOP_PARALLEL)
            ng_str_catf(out, " around %s", L->peel_text);
        for (int k = 0; k < L->nscalars; k++)
            ng_str_catf(out, " scalar(%s)", L->scalars[k]);
        if (L->reason)
            ng_str_catf(out, ": %s", L->reason);
        ng_str_cat(out, "\n");
    }
}
