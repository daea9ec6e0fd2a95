/* Loops over arrays written as range loops (desugar.h).
 *
 *     for v in x:                 for k in range(len(x)):     (k: a name of its own)
 *         body                        v = x[k]
 *                                     body
 *     for i, v in enumerate(x):   for i in range(len(x)):
 *                                     v = x[i]
 *     for i, v in enumerate(x, s): for i in range(s, s + len(x)):
 *                                     v = x[i - s]
 *     for p, q in zip(a, b):      for k in range(min(len(a), len(b))):
 *                                     p = a[k]
 *                                     q = b[k]
 *
 * Python reads x[k] anew at each step of iterating a NumPy array, so the
 * forms agree for arrays; for anything else (a list, a generator) the kernel
 * lowering refuses the loop at run time and the host runs the original
 * source. The rewrite is made only where the iterable (a name, or a
 * subscript of one by names and integers) reads no name the loop assigns,
 * since Python evaluates it once, before the loop.
 *
 * Also here, as they build statements the same way: the lets of a loop
 * body (rewrite_lets), and the three loops that run a scan in blocks
 * (ng_jit_scan_phases), made beside the AST at a scan's first launch.
 */
#include <stdio.h>
#include <string.h>

#include "jit/analyze.h"
#include "jit/desugar.h"

/* Bytes of new nodes one rewrite may make: a let's element copied into
 * each of its uses, nested uses into each other (w[w[w[0]]]), can grow
 * without bound; past this the rewrite is given up. */
#define REWRITE_BUDGET ((size_t)4 << 20)

/* An in-place change a let's rewrite made, kept so that a rewrite that goes
 * over a cap (an expression taller than NG_JIT_MAX_DEPTH, more than
 * REWRITE_BUDGET) can be undone: the loop then keeps that let as written. */
typedef struct Change {
    NgJitExpr **expr, *old_expr;  /* a child slot and what it held */
    NgJitStmt **stmt, *old_stmt;  /* a block's statement slot and what it held */
    NgJitBlock *block, old_block; /* a block given new statements, and its old ones */
} Change;

typedef struct Rewriter {
    NgJitAst *ast;
    NgJitBlock scope; /* the body of the function being rewritten (the module's, outside any) */
    const uint32_t *keep; /* loops (their span.off) whose bodies keep their lets */
    int nkeep;
    int nloops; /* rewritten so far: their counters are __ng_k1, __ng_k2 ... */
    int depth;  /* loops around the statement under way (in its def) */
    size_t budget; /* bytes the rewrite under way may still allocate */
    bool over;  /* the rewrite under way went over a cap: it is given up */
    Change *log; /* the let rewrite under way's changes, oldest first */
    int nlog, caplog;
    NgStatus st;
} Rewriter;

static void *alloc(Rewriter *R, size_t n)
{
    if (R->st != NG_OK || R->over)
        return NULL;
    if (n > R->budget) {
        R->over = true; /* (not an error: the rewrite is given up) */
        return NULL;
    }
    R->budget -= n;
    void *p = ng_jit_arena_alloc(&R->ast->arena, n);
    if (!p)
        R->st = ng_error_set(NG_ERR_NOMEM, "out of memory rewriting the loops of %s", R->ast->filename);
    else
        memset(p, 0, n);
    return p;
}

/* A new entry of the change log (NULL, with R->st set, when it cannot grow). */
static Change *logged(Rewriter *R)
{
    if (R->st != NG_OK)
        return NULL;
    if (R->nlog == R->caplog) {
        int cap = R->caplog ? 2 * R->caplog : 64;
        Change *log = ng_realloc(R->log, (size_t)cap * sizeof *log);
        if (!log) {
            R->st = ng_error_set(NG_ERR_NOMEM, "out of memory rewriting the loops of %s", R->ast->filename);
            return NULL;
        }
        R->log = log;
        R->caplog = cap;
    }
    Change *c = &R->log[R->nlog++];
    memset(c, 0, sizeof *c);
    return c;
}

/* *slot = v, logged. */
static void set_expr(Rewriter *R, NgJitExpr **slot, NgJitExpr *v)
{
    Change *c = logged(R);
    if (c) {
        c->expr = slot, c->old_expr = *slot;
        *slot = v;
    }
}

static void set_stmt(Rewriter *R, NgJitStmt **slot, NgJitStmt *v)
{
    Change *c = logged(R);
    if (c) {
        c->stmt = slot, c->old_stmt = *slot;
        *slot = v;
    }
}

static void set_block(Rewriter *R, NgJitBlock *b, NgJitBlock v)
{
    Change *c = logged(R);
    if (c) {
        c->block = b, c->old_block = *b;
        *b = v;
    }
}

/* Undoes the logged changes from the mark'th on, newest first. */
static void undo(Rewriter *R, int mark)
{
    for (int i = R->nlog - 1; i >= mark; i--) {
        Change *c = &R->log[i];
        if (c->expr)
            *c->expr = c->old_expr;
        if (c->stmt)
            *c->stmt = c->old_stmt;
        if (c->block)
            *c->block = c->old_block;
    }
    R->nlog = mark;
}

/* Sets the heights of e and of everything under it from the leaves up (as
 * the parser's seal does); returns e's. */
static int reheight(NgJitExpr *e)
{
    if (!e)
        return 0;
    int h = 0;
#define KID(k) do { int kh_ = reheight(k); h = kh_ > h ? kh_ : h; } while (0)
    KID(e->lhs);
    KID(e->rhs);
    KID(e->cond);
    for (int i = 0; i < e->nitems; i++)
        KID(e->items[i]);
    switch (e->kind) {
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            KID(e->keys[i]);
        break;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            KID(e->keywords[i].value);
        break;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
        for (int i = 0; i < e->ngens; i++) {
            KID(e->gens[i].target);
            KID(e->gens[i].iter);
            for (int k = 0; k < e->gens[i].nifs; k++)
                KID(e->gens[i].ifs[k]);
        }
        break;
    case NG_JIT_E_LAMBDA:
        for (int i = 0; i < e->params->n; i++) {
            KID(e->params->items[i].dflt);
            KID(e->params->items[i].annotation);
        }
        break;
    default:
        break;
    }
#undef KID
    return e->height = h + 1;
}

/* reheight of every expression of block b; returns the tallest. */
static int reheight_block(NgJitBlock b)
{
    int h = 0;
    for (int i = 0; i < b.n; i++) {
        NgJitStmt *s = b.stmts[i];
        NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++) {
            int kh = reheight(parts[k]);
            h = kh > h ? kh : h;
        }
        for (int k = 0; k < s->ntargets; k++) {
            int kh = reheight(s->targets[k]);
            h = kh > h ? kh : h;
        }
        int kh = reheight_block(s->body), oh = reheight_block(s->orelse);
        h = kh > h ? kh : h;
        h = oh > h ? oh : h;
    }
    return h;
}

/* The id of name s, added to the AST's names when it is new. */
static int name_id(Rewriter *R, const char *s)
{
    NgJitAst *ast = R->ast;
    for (int i = 0; i < ast->nnames; i++)
        if (strcmp(ast->names[i], s) == 0)
            return i;
    const char **names = alloc(R, (size_t)(ast->nnames + 1) * sizeof *names);
    char *copy = alloc(R, strlen(s) + 1);
    if (!names || !copy)
        return -1;
    memcpy(names, ast->names, (size_t)ast->nnames * sizeof *names);
    memcpy(copy, s, strlen(s) + 1);
    names[ast->nnames] = copy;
    ast->names = names; /* (the old array stays in the arena) */
    return ast->nnames++;
}

static NgJitExpr *node(Rewriter *R, NgJitExprKind kind, NgJitSpan span)
{
    NgJitExpr *e = alloc(R, sizeof *e);
    if (e) {
        e->kind = kind;
        e->span = e->outer = span;
        e->height = 1;
    }
    return e;
}

static NgJitExpr *name(Rewriter *R, const char *s, NgJitCtx ctx, NgJitSpan span)
{
    int id = name_id(R, s);
    NgJitExpr *e = id >= 0 ? node(R, NG_JIT_E_NAME, span) : NULL;
    if (e) {
        e->ctx = ctx;
        e->name = R->ast->names[id];
        e->name_id = id;
    }
    return e;
}

/* A copy of expression e in LOAD context (the iterable, used more than once). */
static NgJitExpr *load_copy(Rewriter *R, const NgJitExpr *e)
{
    NgJitExpr *c = alloc(R, sizeof *c);
    if (!c)
        return NULL;
    *c = *e;
    c->ctx = NG_JIT_LOAD;
    if (e->lhs && !(c->lhs = load_copy(R, e->lhs)))
        return NULL;
    if (e->rhs && !(c->rhs = load_copy(R, e->rhs)))
        return NULL;
    if (e->nitems) {
        c->items = alloc(R, (size_t)e->nitems * sizeof *c->items);
        for (int i = 0; c->items && i < e->nitems; i++)
            if (!(c->items[i] = load_copy(R, e->items[i])))
                return NULL;
    }
    return c;
}

static NgJitExpr *call(Rewriter *R, const char *fn, NgJitExpr **args, int nargs, NgJitSpan span)
{
    NgJitExpr *e = node(R, NG_JIT_E_CALL, span), *f = name(R, fn, NG_JIT_LOAD, span);
    NgJitExpr **items = alloc(R, (size_t)nargs * sizeof *items);
    if (!e || !f || !items)
        return NULL;
    e->lhs = f;
    e->items = items;
    e->nitems = nargs;
    for (int i = 0; i < nargs; i++) {
        if (!args[i])
            return NULL;
        items[i] = args[i];
        e->height = e->height > args[i]->height + 1 ? e->height : args[i]->height + 1;
    }
    return e;
}

static NgJitExpr *binary(Rewriter *R, NgJitOp op, NgJitExpr *a, NgJitExpr *b, NgJitSpan span)
{
    NgJitExpr *e = node(R, NG_JIT_E_BINARY, span);
    if (!e || !a || !b)
        return NULL;
    e->op = op;
    e->lhs = a;
    e->rhs = b;
    e->height = (a->height > b->height ? a->height : b->height) + 1;
    return e;
}

static NgJitExpr *subscript(Rewriter *R, const NgJitExpr *base, NgJitExpr *index, NgJitSpan span)
{
    NgJitExpr *e = node(R, NG_JIT_E_SUBSCRIPT, span), *b = load_copy(R, base);
    if (!e || !b || !index)
        return NULL;
    e->lhs = b;
    e->rhs = index;
    e->height = (b->height > index->height ? b->height : index->height) + 1;
    return e;
}

static NgJitStmt *assign(Rewriter *R, const NgJitExpr *target, NgJitExpr *value, NgJitSpan span)
{
    NgJitStmt *s = alloc(R, sizeof *s);
    NgJitExpr **t = alloc(R, sizeof *t);
    NgJitExpr *tc = load_copy(R, target);
    if (!s || !t || !tc || !value)
        return NULL;
    tc->ctx = NG_JIT_STORE;
    s->kind = NG_JIT_S_ASSIGN;
    s->span = span;
    s->targets = t;
    t[0] = tc;
    s->ntargets = 1;
    s->value = value;
    return s;
}

/* Whether the iterable e is a name, or a subscript of one by names and
 * integers (x, X[i], X[i, 2]). */
static bool plain_iterable(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: case NG_JIT_E_INT:
        return true;
    case NG_JIT_E_SUBSCRIPT:
        return e->lhs->kind != NG_JIT_E_INT && plain_iterable(e->lhs) && plain_iterable(e->rhs);
    case NG_JIT_E_TUPLE:
        for (int i = 0; i < e->nitems; i++)
            if (!plain_iterable(e->items[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/* Whether e reads a name of `stored` (a name set: one flag per name id). */
static bool reads_any(const NgJitExpr *e, const bool *stored, int n)
{
    if (e->kind == NG_JIT_E_NAME)
        return e->name_id < n && stored[e->name_id];
    if ((e->lhs && reads_any(e->lhs, stored, n)) || (e->rhs && reads_any(e->rhs, stored, n)))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (reads_any(e->items[i], stored, n))
            return true;
    return false;
}

static void mark_target(const NgJitExpr *t, bool *stored, int n)
{
    if (t->kind == NG_JIT_E_NAME && t->name_id < n)
        stored[t->name_id] = true;
    else if (t->kind == NG_JIT_E_TUPLE || t->kind == NG_JIT_E_LIST)
        for (int i = 0; i < t->nitems; i++)
            mark_target(t->items[i], stored, n);
    else if (t->kind == NG_JIT_E_STARRED)
        mark_target(t->lhs, stored, n);
}

static void mark_walrus(const NgJitExpr *e, bool *stored, int n)
{
    if (e->kind == NG_JIT_E_NAMED)
        mark_target(e->lhs, stored, n);
    if (e->lhs)
        mark_walrus(e->lhs, stored, n);
    if (e->rhs)
        mark_walrus(e->rhs, stored, n);
    if (e->cond)
        mark_walrus(e->cond, stored, n);
    for (int i = 0; i < e->nitems; i++)
        mark_walrus(e->items[i], stored, n);
}

/* Marks every name block b assigns (nested defs: their own names too, which
 * only makes the rewrite rarer). */
static void mark_stores(NgJitBlock b, bool *stored, int n)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER) {
            for (int k = 0; k < s->nnames; k++)
                if (s->name_ids[k] < n)
                    stored[s->name_ids[k]] = true;
            continue;
        }
        if (s->kind == NG_JIT_S_DEF && s->name_id < n)
            stored[s->name_id] = true;
        for (int k = 0; k < s->ntargets; k++)
            mark_target(s->targets[k], stored, n);
        if (s->target)
            mark_target(s->target, stored, n);
        const NgJitExpr *parts[3] = {s->value, s->test, s->target};
        for (int k = 0; k < 3; k++)
            if (parts[k])
                mark_walrus(parts[k], stored, n);
        mark_stores(s->body, stored, n);
        mark_stores(s->orelse, stored, n);
    }
}

static bool is_call_of(const NgJitExpr *e, const char *fn)
{
    return e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, fn) == 0 &&
           e->nkeywords == 0;
}

static bool all_names(const NgJitExpr *t, int n)
{
    if (t->kind != NG_JIT_E_TUPLE && t->kind != NG_JIT_E_LIST)
        return false;
    if (t->nitems != n)
        return false;
    for (int i = 0; i < n; i++)
        if (t->items[i]->kind != NG_JIT_E_NAME)
            return false;
    return true;
}

/* ---- ranges and slices of them, reversed (a sequence's start, step, length) ---- */

static bool pure_expr(const NgJitExpr *e);
static NgJitExpr *copy_with(Rewriter *R, const NgJitExpr *e, int id, const NgJitExpr *with);
static NgJitExpr *int_lit(Rewriter *R, int64_t v, NgJitSpan span);
static NgJitExpr *compare(Rewriter *R, NgJitOp op, NgJitExpr *a, NgJitExpr *b, NgJitSpan span);
static NgJitExpr *ifexp(Rewriter *R, NgJitExpr *c, NgJitExpr *x, NgJitExpr *y, NgJitSpan span);
static NgJitExpr *bound_of(Rewriter *R, const NgJitExpr *x, NgJitSpan sp);


/* A sequence of `len` elements: start + c * step for c in range(len) (base NULL: a range),
 * or base[start + c * step] (an array, or a shape tuple x.shape). start and len are fresh
 * expressions, copied where used again. */
typedef struct Seq {
    const NgJitExpr *base;
    NgJitExpr *start, *len;
    int64_t step;
    bool plain; /* base itself, whole: the loop over it as before */
} Seq;

static NgJitExpr *dup(Rewriter *R, const NgJitExpr *e) { return e ? copy_with(R, e, -1, NULL) : NULL; }

/* The int literal e is (`3`, `-3`) in *v. */
static bool int_literal(const NgJitExpr *e, int64_t *v)
{
    if (e && e->kind == NG_JIT_E_UNARY && e->op == NG_JIT_OP_NEG && e->lhs->kind == NG_JIT_E_INT && !e->lhs->big &&
        e->lhs->ival <= (uint64_t)INT64_MAX) {
        *v = -(int64_t)e->lhs->ival;
        return true;
    }
    if (e && e->kind == NG_JIT_E_INT && !e->big && e->ival <= (uint64_t)INT64_MAX) {
        *v = (int64_t)e->ival;
        return true;
    }
    return false;
}

static bool is_none(const NgJitExpr *e) { return !e || (e->kind == NG_JIT_E_CONST && e->cval == NG_JIT_C_NONE); }

/* a + b, a - b, a * b without the terms a literal 0 or 1 makes idle. */
static NgJitExpr *plus(Rewriter *R, NgJitExpr *a, NgJitExpr *b, NgJitSpan sp)
{
    int64_t v;
    if (a && int_literal(a, &v) && v == 0)
        return b;
    if (b && int_literal(b, &v) && v == 0)
        return a;
    return binary(R, NG_JIT_OP_ADD, a, b, sp);
}

static NgJitExpr *times(Rewriter *R, NgJitExpr *a, int64_t m, NgJitSpan sp)
{
    if (m == 1)
        return a;
    if (m == -1)
        return a ? binary(R, NG_JIT_OP_SUB, int_lit(R, 0, sp), a, sp) : NULL;
    return binary(R, NG_JIT_OP_MUL, a, int_lit(R, m, sp), sp);
}

static NgJitExpr *fn2(Rewriter *R, const char *fn, NgJitExpr *a, NgJitExpr *b, NgJitSpan sp)
{
    return call(R, fn, (NgJitExpr *[]){a, b}, 2, sp);
}

/* Slice bound x of a sequence of n elements as slice.indices() makes it: x < 0 counts from
 * the end, then clamped to [lo, n + hi_off] (lo 0, hi_off 0 for a step > 0; -1, -1 for one < 0). */
static NgJitExpr *slice_index(Rewriter *R, const NgJitExpr *x, const NgJitExpr *n, int64_t lo, NgJitSpan sp)
{
    int64_t v;
    NgJitExpr *top = lo < 0 ? binary(R, NG_JIT_OP_SUB, dup(R, n), int_lit(R, 1, sp), sp) : dup(R, n);
    if (int_literal(x, &v))
        return v < 0 ? fn2(R, "max", plus(R, int_lit(R, v, sp), dup(R, n), sp), int_lit(R, lo, sp), sp)
                     : fn2(R, "min", int_lit(R, v, sp), top, sp);
    NgJitExpr *neg = compare(R, NG_JIT_OP_LT, bound_of(R, x, sp), int_lit(R, 0, sp), sp);
    return ifexp(R, neg, fn2(R, "max", binary(R, NG_JIT_OP_ADD, bound_of(R, x, sp), dup(R, n), sp), int_lit(R, lo, sp), sp),
                 fn2(R, "min", bound_of(R, x, sp), top, sp), sp);
}

/* max((hi - lo + t - 1) // t, 0), for t < 0 max((lo - hi - t - 1) // -t, 0): the length of
 * range(lo, hi, t). */
static NgJitExpr *range_len(Rewriter *R, NgJitExpr *lo, NgJitExpr *hi, int64_t t, NgJitSpan sp)
{
    NgJitExpr *d = t > 0 ? binary(R, NG_JIT_OP_SUB, hi, lo, sp) : binary(R, NG_JIT_OP_SUB, lo, hi, sp);
    int64_t m = t > 0 ? t : -t;
    if (m != 1)
        d = binary(R, NG_JIT_OP_FLOORDIV, plus(R, d, int_lit(R, m - 1, sp), sp), int_lit(R, m, sp), sp);
    return fn2(R, "max", d, int_lit(R, 0, sp), sp);
}

/* q = seq[p0:p1:t] (t a literal, not 0): range slicing's rule (range.__getitem__). */
static bool slice_seq(Rewriter *R, const Seq *q0, const NgJitExpr *p0, const NgJitExpr *p1, int64_t t, Seq *q,
                      NgJitSpan sp)
{
    if (t == 0 || t == INT64_MIN || (q0->step > 0 ? q0->step > INT64_MAX / (t > 0 ? t : -t)
                                                  : q0->step < -INT64_MAX / (t > 0 ? t : -t)))
        return false;
    const NgJitExpr *n = q0->len;
    NgJitExpr *lo, *hi;
    if (t > 0) {
        lo = is_none(p0) ? int_lit(R, 0, sp) : slice_index(R, p0, n, 0, sp);
        hi = is_none(p1) ? dup(R, n) : slice_index(R, p1, n, 0, sp);
    } else {
        lo = is_none(p0) ? binary(R, NG_JIT_OP_SUB, dup(R, n), int_lit(R, 1, sp), sp) : slice_index(R, p0, n, -1, sp);
        hi = is_none(p1) ? int_lit(R, -1, sp) : slice_index(R, p1, n, -1, sp);
    }
    q->base = q0->base;
    q->plain = false;
    q->step = q0->step * t;
    q->start = plus(R, dup(R, q0->start), times(R, lo, q0->step, sp), sp);
    q->len = range_len(R, dup(R, lo), hi, t, sp);
    return q->start && q->len && R->st == NG_OK && !R->over;
}

/* Whether e is x.shape of an array name (or subscript) x. */
static bool shape_tuple(const NgJitExpr *e)
{
    return e->kind == NG_JIT_E_ATTR && strcmp(e->name, "shape") == 0 && plain_iterable(e->lhs) &&
           e->lhs->kind != NG_JIT_E_INT;
}

/* The sequence iterable e is: range(...) with a literal step, x (an array or a name for one),
 * x.shape, and those sliced with a literal step or reversed. */
static bool seq_of(Rewriter *R, const NgJitExpr *e, Seq *q, int depth)
{
    NgJitSpan sp = e->span;
    int64_t t = 1;
    if (depth > 4 || R->st != NG_OK || R->over)
        return false;
    if (is_call_of(e, "range") && e->nitems >= 1 && e->nitems <= 3) {
        if (e->nitems == 3 && (!int_literal(e->items[2], &t) || t == 0 || t == INT64_MIN))
            return false;
        for (int i = 0; i < e->nitems; i++)
            if (!pure_expr(e->items[i]))
                return false;
        NgJitExpr *a = e->nitems == 1 ? int_lit(R, 0, sp) : dup(R, e->items[0]);
        NgJitExpr *b = dup(R, e->items[e->nitems == 1 ? 0 : 1]);
        int64_t a0;   /* (plain: its elements are the counter itself only from 0 by 1: enumerate(range(5, n))'s
                       * were 0, 1, ... before 2026-12-07) */
        bool from0 = int_literal(a, &a0) && a0 == 0 && t == 1;
        *q = (Seq){NULL, a, range_len(R, dup(R, a), b, t, sp), t, from0};
        return q->start && q->len;
    }
    if ((e->kind == NG_JIT_E_SUBSCRIPT && e->lhs->kind != NG_JIT_E_INT && plain_iterable(e) &&
         !(e->rhs->kind == NG_JIT_E_TUPLE && e->rhs->nitems == 0)) ||
        e->kind == NG_JIT_E_NAME || shape_tuple(e)) {
        *q = (Seq){e, int_lit(R, 0, sp), call(R, "len", (NgJitExpr *[]){dup(R, e)}, 1, sp), 1, true};
        return q->start && q->len;
    }
    Seq inner;
    if (is_call_of(e, "reversed") && e->nitems == 1)
        return seq_of(R, e->items[0], &inner, depth + 1) && slice_seq(R, &inner, NULL, NULL, -1, q, sp);
    if (e->kind == NG_JIT_E_SUBSCRIPT && e->rhs->kind == NG_JIT_E_SLICE) {
        const NgJitExpr *sl = e->rhs;
        if ((!is_none(sl->cond) && !int_literal(sl->cond, &t)) || !pure_expr(sl->lhs) || !pure_expr(sl->rhs))
            return false;
        return seq_of(R, e->lhs, &inner, depth + 1) && slice_seq(R, &inner, sl->lhs, sl->rhs, t, q, sp);
    }
    return false;
}

/* The element at counter c of sequence q (c consumed). */
static NgJitExpr *seq_elem(Rewriter *R, const Seq *q, NgJitExpr *c, NgJitSpan sp)
{
    NgJitExpr *at = q->plain ? c : plus(R, dup(R, q->start), times(R, c, q->step, sp), sp);
    return q->base ? subscript(R, q->base, at, sp) : at;
}

/* range(start, start + len * step, step) of q: its elements' indices (or values). */
static NgJitExpr *seq_range(Rewriter *R, const Seq *q, NgJitSpan sp)
{
    NgJitExpr *stop = plus(R, dup(R, q->start), times(R, dup(R, q->len), q->step, sp), sp);
    if (q->step == 1)
        return call(R, "range", (NgJitExpr *[]){dup(R, q->start), stop}, 2, sp);
    return call(R, "range", (NgJitExpr *[]){dup(R, q->start), stop, int_lit(R, q->step, sp)}, 3, sp);
}

/* `for v in <seq>` over a range or an array sliced or reversed (reversed(range(n)),
 * range(n)[::-1], x[::-1], reversed(x), x[1:], x.shape[::-1]):
 *
 *     for v in range(start, stop, step)        (a range's)
 *     for k in range(start, stop, step):       (an array's indices)
 *         v = x[k]
 *
 * also enumerate's and zip's iterables (`for i, v in enumerate(x[2:])`): their element at
 * counter c is x[start + c * step]. Python evaluates the iterable once, and a range or
 * a slice's bounds once: each bound must be pure and read no name the loop assigns (checked
 * by the caller over the whole iterable). Returns whether s was rewritten. */
static bool rewrite_seq(Rewriter *R, NgJitStmt *s)
{
    const NgJitExpr *it = s->test, *t = s->target;
    Seq q;
    if (t->kind != NG_JIT_E_NAME || is_call_of(it, "range") || is_call_of(it, "enumerate") || is_call_of(it, "zip") ||
        !seq_of(R, it, &q, 0) || q.plain)
        return false;
    NgJitSpan sp = it->span;
    if (!q.base) {
        NgJitExpr *range = seq_range(R, &q, sp);
        if (!range || R->st != NG_OK || R->over || range->height > NG_JIT_MAX_DEPTH)
            return false;
        s->test = range;
        return true;
    }
    char k[32];
    snprintf(k, sizeof k, "__ng_k%d", ++R->nloops);
    NgJitExpr *range = seq_range(R, &q, sp), *var = name(R, k, NG_JIT_STORE, t->span);
    NgJitExpr *elem = subscript(R, q.base, name(R, k, NG_JIT_LOAD, sp), q.base->span);
    NgJitStmt **stmts = alloc(R, (size_t)(1 + s->body.n) * sizeof *stmts);
    if (!range || !var || !elem || !stmts || range->height > NG_JIT_MAX_DEPTH || elem->height > NG_JIT_MAX_DEPTH ||
        !(stmts[0] = assign(R, t, elem, t->span)) || R->st != NG_OK || R->over)
        return false;
    memcpy(stmts + 1, s->body.stmts, (size_t)s->body.n * sizeof *stmts);
    s->target = var;
    s->test = range;
    s->body = (NgJitBlock){stmts, 1 + s->body.n};
    return true;
}

/* Whether e is an iterable enumerate() or zip() takes here: an array (or a name of one), or
 * one sliced or reversed, a range (seq_of). */
static bool seq_ok(const NgJitExpr *e)
{
    if (plain_iterable(e))
        return e->kind != NG_JIT_E_INT;
    return shape_tuple(e) || is_call_of(e, "range") || is_call_of(e, "reversed") ||
           (e->kind == NG_JIT_E_SUBSCRIPT && e->rhs->kind == NG_JIT_E_SLICE);
}

/* `for v in (-1, 0, 1)`: a tuple written of whole numbers in arithmetic progression (one or
 * none too) is the range of the same values, `for v in range(-1, 2)`. Returns whether s was
 * rewritten. (A tuple bound to a name first is an array argument: the loop over it compiles.) */
static bool rewrite_literal_tuple(Rewriter *R, NgJitStmt *s)
{
    const NgJitExpr *it = s->test;
    if (s->target->kind != NG_JIT_E_NAME || it->kind != NG_JIT_E_TUPLE || it->nitems > 4096)
        return false;
    int64_t v[2] = {0, 1}, step = 1;
    for (int i = 0; i < it->nitems; i++) {
        int64_t x;
        if (!int_literal(it->items[i], &x) || x < -((int64_t)1 << 40) || x > ((int64_t)1 << 40))
            return false;
        if (i < 2)
            v[i] = x;
        if (i == 1)
            step = x - v[0];
        if (i >= 1 && (step == 0 || x != v[0] + step * i))
            return false;
    }
    NgJitSpan sp = it->span;
    R->budget = REWRITE_BUDGET;
    R->over = false;
    NgJitExpr *args[3] = {int_lit(R, it->nitems ? v[0] : 0, sp),
                          int_lit(R, it->nitems ? v[0] + step * it->nitems : 0, sp), int_lit(R, step, sp)};
    NgJitExpr *range = call(R, "range", args, step == 1 ? 2 : 3, sp);
    if (!args[0] || !args[1] || !args[2] || !range || R->st != NG_OK || R->over)
        return false;
    s->test = range;
    return true;
}

/* Rewrites FOR statement s when it iterates over arrays in one of the forms above. */
static void rewrite(Rewriter *R, NgJitStmt *s)
{
    const NgJitExpr *it = s->test, *t = s->target;
    if (rewrite_literal_tuple(R, s))
        return;
    const NgJitExpr *seqs[8];
    const NgJitExpr *vals[8]; /* the targets the elements go to */
    int nseq = 0;
    bool other = false; /* a range or an array sliced or reversed, the loop's own iterable */
    const NgJitExpr *index = NULL, *start = NULL; /* enumerate's index target and start */
    if (t->kind == NG_JIT_E_NAME && ((plain_iterable(it) && it->kind != NG_JIT_E_INT) || shape_tuple(it))) {
        seqs[0] = it, vals[0] = t, nseq = 1;
    } else if (is_call_of(it, "enumerate") && (it->nitems == 1 || it->nitems == 2) && all_names(t, 2) &&
               seq_ok(it->items[0]) &&
               (it->nitems == 1 || it->items[1]->kind == NG_JIT_E_NAME || it->items[1]->kind == NG_JIT_E_INT)) {
        index = t->items[0], seqs[0] = it->items[0], vals[0] = t->items[1], nseq = 1;
        start = it->nitems == 2 ? it->items[1] : NULL;
    } else if (is_call_of(it, "enumerate") && (it->nitems == 1 || it->nitems == 2) &&
               (t->kind == NG_JIT_E_TUPLE || t->kind == NG_JIT_E_LIST) && t->nitems == 2 &&
               t->items[0]->kind == NG_JIT_E_NAME && is_call_of(it->items[0], "zip") && it->items[0]->nitems >= 1 &&
               it->items[0]->nitems <= 8 && all_names(t->items[1], it->items[0]->nitems) &&
               (it->nitems == 1 || it->items[1]->kind == NG_JIT_E_NAME || it->items[1]->kind == NG_JIT_E_INT)) {
        /* for k, (p, q) in enumerate(zip(a, b)): zip's, with enumerate's index */
        const NgJitExpr *z = it->items[0];
        for (int i = 0; i < z->nitems; i++) {
            if (!seq_ok(z->items[i]))
                return;
            seqs[i] = z->items[i], vals[i] = t->items[1]->items[i];
        }
        nseq = z->nitems;
        index = t->items[0];
        start = it->nitems == 2 ? it->items[1] : NULL;
    } else if (is_call_of(it, "zip") && it->nitems >= 1 && it->nitems <= 8 && all_names(t, it->nitems)) {
        for (int i = 0; i < it->nitems; i++) {
            if (!seq_ok(it->items[i]))
                return;
            seqs[i] = it->items[i], vals[i] = t->items[i];
        }
        nseq = it->nitems;
    } else if (t->kind == NG_JIT_E_NAME && !is_call_of(it, "range") && !is_call_of(it, "prange") &&
               (is_call_of(it, "reversed") ||
                (it->kind == NG_JIT_E_SUBSCRIPT && it->rhs->kind == NG_JIT_E_SLICE))) {
        other = true;
    } else {
        return;
    }
    R->budget = REWRITE_BUDGET;
    R->over = false;
    /* Python evaluates the iterable once: it may read no name the loop assigns */
    int n = R->ast->nnames;
    bool *stored = alloc(R, (size_t)(n + 1) * sizeof *stored);
    if (!stored)
        return;
    mark_stores(s->body, stored, n);
    mark_target(t, stored, n);
    if (reads_any(it, stored, n))
        return;
    if (other) {
        rewrite_seq(R, s);
        return;
    }
    for (int i = 0; i < nseq; i++)
        for (int j = 0; j < i; j++)
            if (vals[i]->name_id == vals[j]->name_id)
                return; /* (zip into one name twice: Python's last wins; left alone) */
    for (int i = 0; i < nseq && index; i++)
        if (index->name_id == vals[i]->name_id)
            return;
    Seq qs[8];
    for (int i = 0; i < nseq; i++)
        if (!seq_of(R, seqs[i], &qs[i], 0))
            return;
    NgJitSpan sp = it->span;
    char counter[32];
    snprintf(counter, sizeof counter, "__ng_k%d", ++R->nloops);
    const char *k = index ? index->name : counter; /* enumerate's index is the loop variable */
    NgJitExpr *stop = NULL;
    for (int i = 0; i < nseq; i++) {
        NgJitExpr *len = qs[i].len;
        stop = i == 0 ? len : call(R, "min", (NgJitExpr *[]){stop, len}, 2, sp);
    }
    NgJitExpr *range = start ? call(R, "range", (NgJitExpr *[]){load_copy(R, start), binary(R, NG_JIT_OP_ADD,
                                                                 load_copy(R, start), stop, sp)}, 2, sp)
                             : call(R, "range", &stop, 1, sp);
    NgJitExpr *var = name(R, k, NG_JIT_STORE, t->span);
    NgJitStmt **stmts = alloc(R, (size_t)(nseq + s->body.n) * sizeof *stmts);
    if (!range || !var || !stmts)
        return;
    int at = 0;
    if (range->height > NG_JIT_MAX_DEPTH)
        return; /* (len(X[0][0]...) of a subscript nearly as tall as the cap) */
    for (int i = 0; i < nseq; i++) { /* v = x[k], or x[i - s] */
        NgJitExpr *at_k = name(R, k, NG_JIT_LOAD, sp);
        NgJitExpr *c = start ? binary(R, NG_JIT_OP_SUB, at_k, load_copy(R, start), sp) : at_k;
        NgJitExpr *elem = seq_elem(R, &qs[i], c, seqs[i]->span);
        if (!elem || !(stmts[at++] = assign(R, vals[i], elem, vals[i]->span)) || elem->height > NG_JIT_MAX_DEPTH)
            return;
    }
    memcpy(stmts + at, s->body.stmts, (size_t)s->body.n * sizeof *stmts);
    if (R->st != NG_OK || R->over)
        return;
    s->target = var;
    s->test = range;
    s->body = (NgJitBlock){stmts, nseq + s->body.n};
}

/* ---- values a loop body makes and uses up (rewrite_lets) ---- */

/* Calls fn on every NAME node of e, every child included. */
typedef void (*NameVisit)(const NgJitExpr *name, void *ctx);

static void visit_names(const NgJitExpr *e, NameVisit fn, void *ctx)
{
    if (!e)
        return;
    if (e->kind == NG_JIT_E_NAME) {
        fn(e, ctx);
        return;
    }
    visit_names(e->lhs, fn, ctx);
    visit_names(e->rhs, fn, ctx);
    visit_names(e->cond, fn, ctx);
    for (int i = 0; i < e->nitems; i++) /* (an f-string's items: the names its fields read) */
        visit_names(e->items[i], fn, ctx);
    switch (e->kind) {
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            visit_names(e->keys[i], fn, ctx);
        break;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            visit_names(e->keywords[i].value, fn, ctx);
        break;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
        for (int g = 0; g < e->ngens; g++) {
            visit_names(e->gens[g].target, fn, ctx);
            visit_names(e->gens[g].iter, fn, ctx);
            for (int i = 0; i < e->gens[g].nifs; i++)
                visit_names(e->gens[g].ifs[i], fn, ctx);
        }
        break;
    case NG_JIT_E_LAMBDA:
        for (int i = 0; e->params && i < e->params->n; i++)
            visit_names(e->params->items[i].dflt, fn, ctx);
        break;
    default:
        break;
    }
}

typedef struct Count {
    int id;
    int n;
} Count;

static void count_one(const NgJitExpr *name, void *ctx)
{
    Count *c = ctx;
    c->n += name->name_id == c->id;
}

static int count_block(NgJitBlock b, int id);

/* Mentions of name `id` in statement s (nested blocks, defs, statements
 * left to Python included). */
static int count_stmt(const NgJitStmt *s, int id)
{
    Count c = {id, 0};
    if (s->kind == NG_JIT_S_OTHER) {
        for (int k = 0; k < s->nnames; k++)
            c.n += s->name_ids[k] == id;
        return c.n;
    }
    const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
    for (int k = 0; k < 4; k++)
        visit_names(parts[k], count_one, &c);
    for (int k = 0; k < s->ntargets; k++)
        visit_names(s->targets[k], count_one, &c);
    if (s->kind == NG_JIT_S_DEF) {
        c.n += s->name_id == id;
        for (int k = 0; k < s->ndecorators; k++)
            visit_names(s->decorators[k], count_one, &c);
        for (int k = 0; s->params && k < s->params->n; k++) {
            c.n += s->params->items[k].name_id == id;
            visit_names(s->params->items[k].dflt, count_one, &c);
            visit_names(s->params->items[k].annotation, count_one, &c);
        }
    }
    return c.n + count_block(s->body, id) + count_block(s->orelse, id);
}

static int count_block(NgJitBlock b, int id)
{
    int n = 0;
    for (int i = 0; i < b.n; i++)
        n += count_stmt(b.stmts[i], id);
    return n;
}

/* Whether e is a name `id` (a NAME node). */
static bool is_name(const NgJitExpr *e, int id) { return e && e->kind == NG_JIT_E_NAME && e->name_id == id; }

/* Whether e has no effect but its value (and what Python raises): names,
 * literals, operators, subscripts, attributes, and calls of builtins and of
 * math/np functions without keywords. */
static bool pure_expr(const NgJitExpr *e)
{
    static const char *const fns[] = {"len", "abs", "min", "max", "int", "float", "bool", "ord", "round", NULL};
    if (!e)
        return true;
    switch (e->kind) {
    case NG_JIT_E_NAME: case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG: case NG_JIT_E_CONST:
        return true;
    case NG_JIT_E_STR:
        return e->str != NULL && !(e->str_flags & NG_JIT_STR_FSTRING);
    case NG_JIT_E_CALL: {
        const NgJitExpr *f = e->lhs;
        bool known = false;
        if (f->kind == NG_JIT_E_NAME)
            for (int i = 0; fns[i]; i++)
                known = known || strcmp(f->name, fns[i]) == 0;
        if (f->kind == NG_JIT_E_ATTR && f->lhs->kind == NG_JIT_E_NAME)
            known = strcmp(f->lhs->name, "math") == 0 || strcmp(f->lhs->name, "np") == 0 ||
                    strcmp(f->lhs->name, "numpy") == 0;
        if (!known || e->nkeywords)
            return false;
        for (int i = 0; i < e->nitems; i++)
            if (!pure_expr(e->items[i]))
                return false;
        return true;
    }
    case NG_JIT_E_UNARY: case NG_JIT_E_BINARY: case NG_JIT_E_BOOLOP: case NG_JIT_E_COMPARE:
    case NG_JIT_E_IFEXP: case NG_JIT_E_SUBSCRIPT: case NG_JIT_E_ATTR: case NG_JIT_E_TUPLE: case NG_JIT_E_SLICE:
        if (!pure_expr(e->lhs) || !pure_expr(e->rhs) || !pure_expr(e->cond))
            return false;
        for (int i = 0; i < e->nitems; i++)
            if (!pure_expr(e->items[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/* A deep copy of pure expression e in LOAD context, each NAME `id` in it
 * replaced by a copy of `with` (id -1: none). */
/* A copy of e (in LOAD context) with `with` (copied) in place of the
 * name id and of the node `at` (either may be -1 / NULL). */
static NgJitExpr *copy_sub(Rewriter *R, const NgJitExpr *e, int id, const NgJitExpr *at, const NgJitExpr *with)
{
    if (!e || R->over)
        return NULL;
    if (is_name(e, id) || e == at)
        return copy_sub(R, with, -1, NULL, NULL);
    NgJitExpr *c = alloc(R, sizeof *c);
    if (!c)
        return NULL;
    *c = *e;
    c->ctx = NG_JIT_LOAD;
    if ((e->lhs && !(c->lhs = copy_sub(R, e->lhs, id, at, with))) ||
        (e->rhs && !(c->rhs = copy_sub(R, e->rhs, id, at, with))) ||
        (e->cond && !(c->cond = copy_sub(R, e->cond, id, at, with))))
        return NULL;
    if (e->nitems && e->kind != NG_JIT_E_STR) {
        c->items = alloc(R, (size_t)e->nitems * sizeof *c->items);
        for (int i = 0; c->items && i < e->nitems; i++)
            if (!(c->items[i] = copy_sub(R, e->items[i], id, at, with)))
                return NULL;
        if (!c->items)
            return NULL;
    }
    int h = 0;
    const NgJitExpr *kids[3] = {c->lhs, c->rhs, c->cond};
    for (int k = 0; k < 3; k++)
        h = kids[k] && kids[k]->height > h ? kids[k]->height : h;
    for (int i = 0; e->kind != NG_JIT_E_STR && i < c->nitems; i++)
        h = c->items[i]->height > h ? c->items[i]->height : h;
    c->height = h + 1;
    R->over = R->over || c->height > NG_JIT_MAX_DEPTH; /* (so copies of copies stop here) */
    return c;
}

static NgJitExpr *copy_with(Rewriter *R, const NgJitExpr *e, int id, const NgJitExpr *with)
{
    return copy_sub(R, e, id, NULL, with);
}

static NgJitExpr *int_lit(Rewriter *R, int64_t v, NgJitSpan span)
{
    NgJitExpr *e = node(R, v < 0 ? NG_JIT_E_UNARY : NG_JIT_E_INT, span);
    if (e && v < 0) {
        e->op = NG_JIT_OP_NEG;
        e->lhs = int_lit(R, -v, span);
        e->height = 2;
        return e->lhs ? e : NULL;
    }
    if (e)
        e->ival = (uint64_t)v;
    return e;
}

static NgJitExpr *compare(Rewriter *R, NgJitOp op, NgJitExpr *a, NgJitExpr *b, NgJitSpan span)
{
    NgJitExpr *e = node(R, NG_JIT_E_COMPARE, span);
    NgJitExpr **items = alloc(R, 2 * sizeof *items);
    NgJitOp *ops = alloc(R, sizeof *ops);
    if (!e || !items || !ops || !a || !b)
        return NULL;
    items[0] = a, items[1] = b, ops[0] = op;
    e->items = items;
    e->nitems = 2;
    e->ops = ops;
    e->height = (a->height > b->height ? a->height : b->height) + 1;
    return e;
}

/* x if c else y */
static NgJitExpr *ifexp(Rewriter *R, NgJitExpr *c, NgJitExpr *x, NgJitExpr *y, NgJitSpan span)
{
    NgJitExpr *e = node(R, NG_JIT_E_IFEXP, span);
    if (!e || !c || !x || !y)
        return NULL;
    e->cond = c, e->lhs = x, e->rhs = y;
    int h = c->height > x->height ? c->height : x->height;
    e->height = (h > y->height ? h : y->height) + 1;
    return e;
}

/* A new statement of `kind` whose block is body[0..n) (NULL if one is NULL). */
static NgJitStmt *with_body(Rewriter *R, NgJitStmtKind kind, NgJitStmt **body, int n, NgJitSpan span)
{
    NgJitStmt *s = alloc(R, sizeof *s);
    NgJitStmt **stmts = alloc(R, (size_t)n * sizeof *stmts);
    if (!s || !stmts)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!(stmts[i] = body[i]))
            return NULL;
    s->kind = kind;
    s->span = span;
    s->body = (NgJitBlock){stmts, n};
    return s;
}

/* for var in range(args...): body[0..n) (a loop the source has not: `made`). */
static NgJitStmt *loop_over(Rewriter *R, const char *var, NgJitExpr **args, int nargs, NgJitStmt **body, int n,
                            NgJitSpan span)
{
    NgJitStmt *s = with_body(R, NG_JIT_S_FOR, body, n, span);
    NgJitExpr *v = name(R, var, NG_JIT_STORE, span), *range = call(R, "range", args, nargs, span);
    if (!s || !v || !range)
        return NULL;
    s->made = true;
    s->target = v;
    s->test = range;
    R->ast->nloops++;
    return s;
}

static NgJitStmt *for_range(Rewriter *R, const char *var, NgJitExpr *stop, NgJitStmt *body, NgJitSpan span)
{
    return loop_over(R, var, &stop, 1, &body, 1, span);
}

static NgJitStmt *expr_stmt(Rewriter *R, NgJitExpr *value, NgJitSpan span)
{
    NgJitStmt *s = alloc(R, sizeof *s);
    if (!s || !value)
        return NULL;
    s->kind = NG_JIT_S_EXPR;
    s->span = span;
    s->value = value;
    return s;
}

/* How a let's uses are rewritten: `name[i]` and `len(name)`. */
typedef struct Let {
    int id;                  /* the name */
    const NgJitExpr *elt;    /* a comprehension's element, `var` in it standing for iter[i] */
    int var;
    const NgJitExpr *iter;
    const NgJitExpr *base;   /* a slice's: base[lo + i], where i wraps on n */
    const char *lo, *n;
    bool tuple_ok;           /* name[i, j] too (a slice: base[lo + i, j]) */
} Let;

/* Whether every mention of the let in e is name[i] (one index, no slice,
 * read) or len(name), or, of a slice's, name read whole. */
static bool uses_ok(const NgJitExpr *e, const Let *t)
{
    if (!e)
        return true;
    if (e->kind == NG_JIT_E_SUBSCRIPT && is_name(e->lhs, t->id)) {
        const NgJitExpr *ix = e->rhs;
        if (e->ctx != NG_JIT_LOAD || ix->kind == NG_JIT_E_SLICE)
            return false;
        if (ix->kind == NG_JIT_E_TUPLE) {
            if (!t->tuple_ok || ix->nitems == 0)
                return false;
            for (int i = 0; i < ix->nitems; i++)
                if (ix->items[i]->kind == NG_JIT_E_SLICE && i == 0)
                    return false;
        }
        return uses_ok(ix, t);
    }
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && !e->nkeywords && is_name(e->items[0], t->id))
        return true;
    if (is_name(e, t->id)) /* (a slice's used whole: base[lo:lo + n]) */
        return t->base && e->ctx == NG_JIT_LOAD;
    Count c = {t->id, 0};
    switch (e->kind) {
    case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP:
    case NG_JIT_E_GENEXP: case NG_JIT_E_LAMBDA: case NG_JIT_E_STR:
        visit_names(e, count_one, &c);
        return c.n == 0;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            if (!uses_ok(e->keywords[i].value, t))
                return false;
        break;
    default:
        break;
    }
    if (!uses_ok(e->lhs, t) || !uses_ok(e->rhs, t) || !uses_ok(e->cond, t))
        return false;
    for (int i = 0; i < e->nitems; i++)
        if (!uses_ok(e->items[i], t))
            return false;
    return true;
}

static bool uses_ok_block(NgJitBlock b, const Let *t);

static bool uses_ok_stmt(const NgJitStmt *s, const Let *t)
{
    if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
        return count_stmt(s, t->id) == 0;
    const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
    for (int k = 0; k < 4; k++)
        if (!uses_ok(parts[k], t))
            return false;
    for (int k = 0; k < s->ntargets; k++)
        if (!uses_ok(s->targets[k], t))
            return false;
    return uses_ok_block(s->body, t) && uses_ok_block(s->orelse, t);
}

static bool uses_ok_block(NgJitBlock b, const Let *t)
{
    for (int i = 0; i < b.n; i++)
        if (!uses_ok_stmt(b.stmts[i], t))
            return false;
    return true;
}

/* name[i] as the let reads it (see Let). */
static NgJitExpr *let_element(Rewriter *R, const Let *t, const NgJitExpr *sub)
{
    NgJitSpan sp = sub->span;
    const NgJitExpr *ix = sub->rhs;
    bool tuple = ix->kind == NG_JIT_E_TUPLE;
    const NgJitExpr *i = tuple ? ix->items[0] : ix;
    if (t->elt) { /* elt with var := iter[i] */
        NgJitExpr *at = subscript(R, t->iter, copy_with(R, i, -1, NULL), sp);
        return at ? copy_with(R, t->elt, t->var, at) : NULL;
    }
    /* base[lo + __ng_window(i, n, len(base))]: i wrapped, IndexError outside the window */
    NgJitExpr *wrapped = call(R, NG_JIT_WINDOW, (NgJitExpr *[]){copy_with(R, i, -1, NULL), name(R, t->n, NG_JIT_LOAD, sp),
                                                                call(R, "len", (NgJitExpr *[]){copy_with(R, t->base, -1, NULL)},
                                                                     1, sp)}, 3, sp);
    NgJitExpr *first = binary(R, NG_JIT_OP_ADD, name(R, t->lo, NG_JIT_LOAD, sp), wrapped, sp);
    if (!tuple)
        return subscript(R, t->base, first, sp);
    NgJitExpr *tup = copy_with(R, ix, -1, NULL);
    if (!tup || !first)
        return NULL;
    tup->items[0] = first;
    tup->height = first->height + 1 > tup->height ? first->height + 1 : tup->height;
    return subscript(R, t->base, tup, sp);
}

/* Rewrites the let's uses in *slot (see uses_ok). */
static void let_uses(Rewriter *R, NgJitExpr **slot, const Let *t)
{
    NgJitExpr *e = *slot;
    if (!e || R->st != NG_OK)
        return;
    if (e->kind == NG_JIT_E_SUBSCRIPT && is_name(e->lhs, t->id)) {
        let_uses(R, &e->rhs, t);
        NgJitExpr *r = let_element(R, t, e);
        if (r) {
            r->parenthesized = e->parenthesized;
            set_expr(R, slot, r);
        }
        return;
    }
    if (t->base && is_name(e, t->id)) { /* np.sum(w): np.sum(base[lo:lo + n]) */
        NgJitSpan sp = e->span;
        NgJitExpr *sl = node(R, NG_JIT_E_SLICE, sp);
        if (sl) {
            sl->lhs = name(R, t->lo, NG_JIT_LOAD, sp);
            sl->rhs = binary(R, NG_JIT_OP_ADD, name(R, t->lo, NG_JIT_LOAD, sp), name(R, t->n, NG_JIT_LOAD, sp), sp);
            sl->height = 3;
        }
        NgJitExpr *r = sl && sl->lhs && sl->rhs ? subscript(R, t->base, sl, sp) : NULL;
        if (r)
            set_expr(R, slot, r);
        return;
    }
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && is_name(e->items[0], t->id)) {
        NgJitExpr *r = t->elt ? call(R, "len", (NgJitExpr *[]){copy_with(R, t->iter, -1, NULL)}, 1, e->span)
                              : name(R, t->n, NG_JIT_LOAD, e->span);
        if (r)
            set_expr(R, slot, r);
        return;
    }
    let_uses(R, &e->lhs, t);
    let_uses(R, &e->rhs, t);
    let_uses(R, &e->cond, t);
    for (int i = 0; e->kind != NG_JIT_E_STR && i < e->nitems; i++)
        let_uses(R, &e->items[i], t);
    if (e->kind == NG_JIT_E_CALL)
        for (int i = 0; i < e->nkeywords; i++)
            let_uses(R, &e->keywords[i].value, t);
}

static void let_uses_block(Rewriter *R, NgJitBlock b, const Let *t)
{
    for (int i = 0; i < b.n; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
            continue;
        let_uses(R, &s->target, t);
        let_uses(R, &s->value, t);
        let_uses(R, &s->test, t);
        for (int k = 0; k < s->ntargets; k++)
            let_uses(R, &s->targets[k], t);
        let_uses_block(R, s->body, t);
        let_uses_block(R, s->orelse, t);
    }
}

typedef struct Reads {
    const bool *stored;
    int n, except;
    bool hit;
} Reads;

static void read_one(const NgJitExpr *name, void *ctx)
{
    Reads *r = ctx;
    r->hit = r->hit || (name->name_id < r->n && name->name_id != r->except && r->stored[name->name_id]);
}

/* Whether e reads a name (but `except`) that the statements `rest` assign. */
static bool reads_stored(Rewriter *R, const NgJitExpr *e, NgJitBlock rest, int except)
{
    int n = R->ast->nnames;
    bool *stored = alloc(R, (size_t)(n + 1) * sizeof *stored);
    if (!stored)
        return true;
    mark_stores(rest, stored, n);
    Reads r = {stored, n, except, false};
    visit_names(e, read_one, &r);
    return r.hit;
}

/* The empty span where s starts: a statement made before another one from
 * the same source (statements of a block stay in order, apart). */
static NgJitSpan start_of(NgJitSpan s)
{
    s.end_line = s.line;
    s.end_col = s.col;
    s.end_off = s.off;
    return s;
}

/* b.stmts[p] replaced by the n statements with[] (in the arena). */
static void splice(Rewriter *R, NgJitBlock *b, int p, NgJitStmt **with, int n)
{
    NgJitStmt **stmts = alloc(R, (size_t)(b->n - 1 + n + 1) * sizeof *stmts);
    for (int i = 0; i < n; i++)
        if (!with[i])
            return;
    if (!stmts)
        return;
    memcpy(stmts, b->stmts, (size_t)p * sizeof *stmts);
    memcpy(stmts + p, with, (size_t)n * sizeof *stmts);
    memcpy(stmts + p + n, b->stmts + p + 1, (size_t)(b->n - p - 1) * sizeof *stmts);
    set_block(R, b, (NgJitBlock){stmts, b->n + n - 1});
}

/* name = [elt for var in iter]: the list is never made. */
static void comprehension_let(Rewriter *R, NgJitBlock *b, int p, int id)
{
    const NgJitExpr *c = b->stmts[p]->value;
    NgJitBlock rest = {b->stmts + p + 1, b->n - p - 1};
    if (c->ngens != 1 || c->gens[0].nifs || c->gens[0].is_async || c->gens[0].target->kind != NG_JIT_E_NAME)
        return;
    Let t = {.id = id, .elt = c->lhs, .var = c->gens[0].target->name_id, .iter = c->gens[0].iter};
    if (!pure_expr(t.elt) || !pure_expr(t.iter) || !plain_iterable(t.iter) || t.iter->kind == NG_JIT_E_INT ||
        reads_stored(R, t.elt, rest, t.var) || reads_stored(R, t.iter, rest, -1) || !uses_ok_block(rest, &t))
        return;
    /* Python evaluates every element now: what that raises, the loop raises here */
    NgJitSpan sp = c->span;
    char k[32];
    snprintf(k, sizeof k, "__ng_c%d", ++R->nloops);
    NgJitExpr *at = subscript(R, t.iter, name(R, k, NG_JIT_LOAD, sp), sp);
    NgJitStmt *each = expr_stmt(R, at ? copy_with(R, t.elt, t.var, at) : NULL, sp);
    NgJitStmt *check = for_range(R, k, call(R, "len", (NgJitExpr *[]){copy_with(R, t.iter, -1, NULL)}, 1, sp), each,
                                 b->stmts[p]->span);
    if (!check)
        return;
    let_uses_block(R, rest, &t);
    set_stmt(R, &b->stmts[p], check);
}

/* __ng_slice_bound(x): x as a slice bound (desugar.h). */
static NgJitExpr *bound_of(Rewriter *R, const NgJitExpr *x, NgJitSpan sp)
{
    return call(R, NG_JIT_SLICE_BOUND, (NgJitExpr *[]){copy_with(R, x, -1, NULL)}, 1, sp);
}

/* min(max(x + len(base) if x < 0 else x, 0), len(base)): a slice bound as Python clamps it. */
static NgJitExpr *clamped(Rewriter *R, const NgJitExpr *x, const NgJitExpr *base, NgJitSpan sp)
{
    NgJitExpr *len = call(R, "len", (NgJitExpr *[]){copy_with(R, base, -1, NULL)}, 1, sp);
    if (!x)
        return len;
    NgJitExpr *w = ifexp(R, compare(R, NG_JIT_OP_LT, bound_of(R, x, sp), int_lit(R, 0, sp), sp),
                         binary(R, NG_JIT_OP_ADD, bound_of(R, x, sp),
                                call(R, "len", (NgJitExpr *[]){copy_with(R, base, -1, NULL)}, 1, sp), sp),
                         bound_of(R, x, sp), sp);
    return call(R, "min", (NgJitExpr *[]){call(R, "max", (NgJitExpr *[]){w, int_lit(R, 0, sp)}, 2, sp), len}, 2, sp);
}

/* Whether index tuple ix is indices then one slice: X[i, a:b]. */
static bool last_slice_only(const NgJitExpr *ix)
{
    if (ix->kind != NG_JIT_E_TUPLE || ix->nitems < 2 || ix->items[ix->nitems - 1]->kind != NG_JIT_E_SLICE)
        return false;
    for (int i = 0; i < ix->nitems - 1; i++)
        if (ix->items[i]->kind == NG_JIT_E_SLICE || ix->items[i]->kind == NG_JIT_E_STARRED ||
            ix->items[i]->kind == NG_JIT_E_CONST)
            return false;
    return true;
}

/* name = base[lo:hi] (or X[i, lo:hi], the slice of X[i]): its start and
 * length in two locals; name[i] reads base, name itself is base[lo:lo + n]. */
static void slice_let(Rewriter *R, NgJitBlock *b, int p, int id)
{
    const NgJitStmt *s = b->stmts[p];
    const NgJitExpr *base = s->value->lhs, *sl = s->value->rhs;
    NgJitBlock rest = {b->stmts + p + 1, b->n - p - 1};
    if (sl->kind == NG_JIT_E_TUPLE) { /* X[i, a:b]: the slice a:b of X[i] */
        const NgJitExpr *ix = sl;
        NgJitSpan sp = ix->span;
        sl = ix->items[ix->nitems - 1];
        NgJitExpr *lead = ix->nitems == 2 ? copy_with(R, ix->items[0], -1, NULL) : node(R, NG_JIT_E_TUPLE, sp);
        if (lead && ix->nitems > 2) {
            lead->items = alloc(R, (size_t)(ix->nitems - 1) * sizeof *lead->items);
            if (!lead->items)
                return;
            lead->nitems = ix->nitems - 1;
            for (int i = 0; i < lead->nitems; i++) {
                if (!(lead->items[i] = copy_with(R, ix->items[i], -1, NULL)))
                    return;
                lead->height = lead->height > lead->items[i]->height + 1 ? lead->height : lead->items[i]->height + 1;
            }
        }
        if (!lead || !(base = subscript(R, base, lead, sp)))
            return;
    }
    if (sl->cond || !plain_iterable(base) || base->kind == NG_JIT_E_INT || !pure_expr(sl->lhs) ||
        !pure_expr(sl->rhs) || reads_stored(R, s->value, rest, -1))
        return;
    char lo[32], n[32];
    snprintf(lo, sizeof lo, "__ng_lo%d", ++R->nloops);
    snprintf(n, sizeof n, "__ng_n%d", R->nloops);
    Let t = {.id = id, .base = base, .lo = lo, .n = n, .tuple_ok = true};
    if (!uses_ok_block(rest, &t))
        return;
    NgJitSpan sp = s->value->span;
    NgJitExpr *start = sl->lhs ? clamped(R, sl->lhs, base, sp) : int_lit(R, 0, sp);
    NgJitExpr *len = call(R, "max", (NgJitExpr *[]){binary(R, NG_JIT_OP_SUB, clamped(R, sl->rhs, base, sp),
                                                           name(R, lo, NG_JIT_LOAD, sp), sp), int_lit(R, 0, sp)}, 2, sp);
    NgJitStmt *two[2] = {assign(R, name(R, lo, NG_JIT_LOAD, sp), start, start_of(s->span)),
                         assign(R, name(R, n, NG_JIT_LOAD, sp), len, s->span)};
    if (!two[0] || !two[1])
        return;
    let_uses_block(R, rest, &t);
    splice(R, b, p, two, 2);
}

/* The NumPy scalar type a dtype argument names (np.float32, float, 'int8'), or NULL. */
static const char *dtype_name(const NgJitExpr *d)
{
    static const char *const types[] = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                                        "uint16", "uint32", "uint64", "bool_", "complex64", "complex128", NULL};
    const char *nm = NULL;
    if (!d)
        return "float64";
    if (d->kind == NG_JIT_E_ATTR && d->lhs->kind == NG_JIT_E_NAME &&
        (strcmp(d->lhs->name, "np") == 0 || strcmp(d->lhs->name, "numpy") == 0))
        nm = d->name;
    else if (d->kind == NG_JIT_E_STR && d->str && !(d->str_flags & (NG_JIT_STR_FSTRING | NG_JIT_STR_BYTES)))
        nm = d->str;
    else if (d->kind == NG_JIT_E_NAME)
        nm = strcmp(d->name, "float") == 0 ? "float64" : strcmp(d->name, "int") == 0 ? "int64"
             : strcmp(d->name, "bool") == 0 ? "bool_" : strcmp(d->name, "complex") == 0 ? "complex128" : NULL;
    if (nm && strcmp(nm, "bool") == 0)
        nm = "bool_";
    for (int i = 0; nm && types[i]; i++)
        if (strcmp(nm, types[i]) == 0)
            return types[i];
    return NULL;
}

/* Whether every mention of `id` in the statements is as the array a store
 * `id[i][j] = v` (one target, no slice) goes into, and none of them jumps
 * out of the enclosing loop's iteration (depth: loops entered). */
static bool stores_only(NgJitBlock b, int id, int depth)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_RETURN ||
            s->kind == NG_JIT_S_RAISE || ((s->kind == NG_JIT_S_BREAK || s->kind == NG_JIT_S_CONTINUE) && depth == 0))
            return false;
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_SUBSCRIPT) {
            const NgJitExpr *t = s->targets[0];
            int n = 0;
            for (; t->kind == NG_JIT_E_SUBSCRIPT; t = t->lhs) {
                Count c = {id, 0};
                visit_names(t->rhs, count_one, &c);
                bool slice = t->rhs->kind == NG_JIT_E_SLICE;
                for (int k = 0; t->rhs->kind == NG_JIT_E_TUPLE && k < t->rhs->nitems; k++)
                    slice = slice || t->rhs->items[k]->kind == NG_JIT_E_SLICE;
                if (c.n || slice)
                    return false;
                n++;
            }
            Count v = {id, 0};
            visit_names(s->value, count_one, &v);
            if (v.n || (!is_name(t, id) && count_stmt(s, id)))
                return false;
            continue;
        }
        bool loop = s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE;
        Count c = {id, 0};
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++)
            visit_names(parts[k], count_one, &c);
        for (int k = 0; k < s->ntargets; k++)
            visit_names(s->targets[k], count_one, &c);
        if (c.n || !stores_only(s->body, id, depth + loop) || !stores_only(s->orelse, id, depth + loop))
            return false;
    }
    return true;
}

/* np.<dt>(v) */
static NgJitExpr *cast_to(Rewriter *R, const char *np, const char *dt, NgJitExpr *v)
{
    NgJitExpr *f = v ? node(R, NG_JIT_E_ATTR, v->span) : NULL;
    int id = f ? name_id(R, dt) : -1;
    if (id < 0 || !(f->lhs = name(R, np, NG_JIT_LOAD, v->span)))
        return NULL;
    f->name = R->ast->names[id];
    f->name_id = id;
    f->height = 2;
    NgJitExpr *c = node(R, NG_JIT_E_CALL, v->span);
    NgJitExpr **items = alloc(R, sizeof *items);
    if (!c || !items)
        return NULL;
    items[0] = v;
    c->lhs = f;
    c->items = items;
    c->nitems = 1;
    c->height = (v->height > 2 ? v->height : 2) + 1;
    return c;
}

/* The stores into `id` go into `to` instead, their values made `np.<dt>(v)`. */
static void retarget(Rewriter *R, NgJitBlock b, int id, const NgJitExpr *to, const char *np, const char *dt)
{
    for (int i = 0; i < b.n && R->st == NG_OK; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_ASSIGN && s->targets[0]->kind == NG_JIT_E_SUBSCRIPT) {
            NgJitExpr *t = s->targets[0];
            while (t->lhs->kind == NG_JIT_E_SUBSCRIPT)
                t = t->lhs;
            if (is_name(t->lhs, id)) {
                NgJitExpr *dst = copy_with(R, to, -1, NULL), *v = cast_to(R, np, dt, s->value);
                if (!dst || !v)
                    return;
                set_expr(R, &t->lhs, dst);
                set_expr(R, &s->value, v);
            }
        }
        retarget(R, s->body, id, to, np, dt);
        retarget(R, s->orelse, id, to, np, dt);
    }
}

/* name = np.zeros(shape) (or np.ones, with a dtype), filled in by stores,
 * then copied whole into a part of an array, `X[i] = name`, and not used
 * after: the part is filled and stored into instead, after a check that
 * it has the shape (else the loop runs as Python, which broadcasts or
 * raises). */
static void fresh_array(Rewriter *R, NgJitBlock *b, int p, int id)
{
    const NgJitStmt *s = b->stmts[p];
    const NgJitExpr *c = s->value, *f = c->lhs;
    bool ones = strcmp(f->name, "ones") == 0;
    const NgJitExpr *dtype = c->nitems == 2 ? c->items[1] : NULL;
    if (c->nitems < 1 || c->nitems > 2 || c->nkeywords > 1 || (c->nkeywords && (dtype || !c->keywords[0].name ||
                                                                                strcmp(c->keywords[0].name, "dtype"))))
        return;
    if (c->nkeywords)
        dtype = c->keywords[0].value;
    const char *dt = dtype_name(dtype);
    const NgJitExpr *shape = c->items[0];
    int r = shape->kind == NG_JIT_E_TUPLE ? shape->nitems : 1;
    if (!dt || !pure_expr(shape) || r < 1 || r > 8)
        return;
    /* the copy: X[idx] = name, at the top level after it */
    int q = p + 1;
    for (; q < b->n; q++) {
        const NgJitStmt *t = b->stmts[q];
        if (t->kind == NG_JIT_S_ASSIGN && t->ntargets == 1 && is_name(t->value, id) &&
            t->targets[0]->kind == NG_JIT_E_SUBSCRIPT && t->targets[0]->lhs->kind == NG_JIT_E_NAME)
            break;
    }
    if (q == b->n)
        return;
    const NgJitExpr *to = b->stmts[q]->targets[0], *ix = to->rhs;
    int dst = to->lhs->name_id, k = ix->kind == NG_JIT_E_TUPLE ? ix->nitems : 1;
    for (int i = 0; i < k; i++)
        if ((ix->kind == NG_JIT_E_TUPLE ? ix->items[i] : ix)->kind == NG_JIT_E_SLICE)
            return;
    NgJitBlock window = {b->stmts + p + 1, q - p - 1};
    NgJitBlock after = {b->stmts + q + 1, b->n - q - 1};
    if (dst == id || !pure_expr(ix) || count_block(window, dst) || count_block(after, id) ||
        count_stmt(b->stmts[q], id) != 1 || !stores_only(window, id, 0) || reads_stored(R, ix, window, -1) ||
        reads_stored(R, shape, window, -1))
        return;
    NgJitSpan sp = s->span, at = start_of(s->span);
    /* __ng_same_shape(X.ndim, k, s0, s1 ...): X[idx] is of shape (s0, s1 ...) */
    NgJitExpr *args[10];
    NgJitExpr *nd = node(R, NG_JIT_E_ATTR, sp);
    int nd_id = name_id(R, "ndim");
    if (!nd || nd_id < 0)
        return;
    nd->lhs = name(R, to->lhs->name, NG_JIT_LOAD, sp);
    nd->name = R->ast->names[nd_id];
    nd->name_id = nd_id;
    nd->height = 2;
    args[0] = nd;
    args[1] = int_lit(R, k, sp);
    for (int t = 0; t < r; t++)
        args[2 + t] = copy_with(R, shape->kind == NG_JIT_E_TUPLE ? shape->items[t] : shape, -1, NULL);
    NgJitStmt *check = expr_stmt(R, call(R, NG_JIT_SAME_SHAPE, args, 2 + r, sp), at);
    /* for z0 in range(s0): for z1 in range(s1): X[idx][z0][z1] = np.<dt>(0) */
    NgJitExpr *part = copy_with(R, to, -1, NULL);
    char z[8][32];
    for (int t = 0; t < r; t++) {
        snprintf(z[t], sizeof z[t], "__ng_z%d", ++R->nloops);
        part = subscript(R, part, name(R, z[t], NG_JIT_LOAD, sp), sp);
    }
    if (!part)
        return;
    NgJitStmt *fill = assign(R, part, cast_to(R, f->lhs->name, dt, int_lit(R, ones, sp)), at);
    for (int t = r - 1; t >= 0; t--)
        fill = for_range(R, z[t], args[2 + t] ? copy_with(R, args[2 + t], -1, NULL) : NULL, fill, at);
    if (!check || !fill)
        return;
    retarget(R, window, id, to, f->lhs->name, dt);
    NgJitStmt **stmts = alloc(R, (size_t)(b->n + 1) * sizeof *stmts);
    if (!stmts || R->st != NG_OK)
        return;
    int n = 0;
    for (int i = 0; i < p; i++)
        stmts[n++] = b->stmts[i];
    stmts[n++] = check;
    stmts[n++] = fill;
    for (int i = p + 1; i < q; i++)
        stmts[n++] = b->stmts[i];
    for (int i = q + 1; i < b->n; i++)
        stmts[n++] = b->stmts[i];
    set_block(R, b, (NgJitBlock){stmts, n});
}

/* Whether e is a slice of one axis as a slice let takes it: base[lo:hi]
 * (no step), X[i, lo:hi]. */
static bool one_axis_slice(const NgJitExpr *e)
{
    return e->kind == NG_JIT_E_SUBSCRIPT &&
           ((e->rhs->kind == NG_JIT_E_SLICE && !e->rhs->cond) ||
            (last_slice_only(e->rhs) && !e->rhs->items[e->rhs->nitems - 1]->cond)) &&
           plain_iterable(e->lhs) && e->lhs->kind != NG_JIT_E_INT;
}

/* The loops of loop body b over a slice, `for v in X[i, 1:]` (also
 * enumerate's and zip's), iterate over a name the slice is given just
 * before, `__ng_sN = X[i, 1:]`: a slice let, which rewrite_lets then
 * rewrites away when it can (else the loop stays as written, Python: the
 * host runs the source). Python too evaluates the slice once, before the
 * loop, and reads its elements anew at each step. */
static void name_slices(Rewriter *R, NgJitBlock *b)
{
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK; p--) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind != NG_JIT_S_FOR || s->orelse.n)
            continue;
        NgJitExpr **its[8];
        int nits = 0;
        if (is_call_of(s->test, "enumerate") || is_call_of(s->test, "zip")) {
            for (int i = 0; i < s->test->nitems && i < 8; i++)
                if (one_axis_slice(s->test->items[i]) && (i == 0 || is_call_of(s->test, "zip")))
                    its[nits++] = &s->test->items[i];
        } else if (one_axis_slice(s->test)) {
            its[nits++] = &s->test;
        }
        if (!nits)
            continue;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        NgJitStmt *lets[9];
        NgJitExpr *names[8];
        for (int i = 0; i < nits; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "__ng_s%d", ++R->nloops);
            lets[i] = assign(R, name(R, nm, NG_JIT_STORE, (*its[i])->span), *its[i], start_of(s->span));
            names[i] = name(R, nm, NG_JIT_LOAD, (*its[i])->span);
            if (!lets[i] || !names[i])
                return; /* (nothing changed yet) */
        }
        for (int i = 0; i < nits; i++)
            *its[i] = names[i];
        lets[nits] = s;
        splice(R, b, p, lets, nits + 1);
    }
}

/* Rewrites the values loop body b makes and uses up (last first, so that a
 * comprehension over a slice goes before the slice). */
static void rewrite_lets(Rewriter *R, NgJitStmt *loop)
{
    NgJitBlock *b = &loop->body;
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK; p--) {
        const NgJitStmt *s = b->stmts[p];
        if (s->kind != NG_JIT_S_ASSIGN || s->ntargets != 1 || s->targets[0]->kind != NG_JIT_E_NAME)
            continue;
        int id = s->targets[0]->name_id;
        NgJitBlock rest = {b->stmts + p + 1, b->n - p - 1};
        if (count_stmt(s, id) != 1 || count_block(R->scope, id) != 1 + count_block(rest, id))
            continue; /* (mentioned before it, or outside the loop's body) */
        const NgJitExpr *v = s->value;
        int before = b->n, mark = R->nlog, nloops = R->ast->nloops;
        const NgJitStmt *was = s;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        if (v->kind == NG_JIT_E_LISTCOMP)
            comprehension_let(R, b, p, id);
        else if (v->kind == NG_JIT_E_SUBSCRIPT && (v->rhs->kind == NG_JIT_E_SLICE || last_slice_only(v->rhs)))
            slice_let(R, b, p, id);
        else if (v->kind == NG_JIT_E_CALL && v->lhs->kind == NG_JIT_E_ATTR && v->lhs->lhs->kind == NG_JIT_E_NAME &&
                 (strcmp(v->lhs->lhs->name, "np") == 0 || strcmp(v->lhs->lhs->name, "numpy") == 0) &&
                 (strcmp(v->lhs->name, "zeros") == 0 || strcmp(v->lhs->name, "ones") == 0))
            fresh_array(R, b, p, id);
        if (R->st != NG_OK)
            break;
        /* uses now hold the let's value: an expression may have grown past the cap */
        if (R->over || reheight_block(*b) > NG_JIT_MAX_DEPTH) {
            undo(R, mark);
            R->ast->nloops = nloops;
            reheight_block(*b);
        }
        R->nlog = mark;
        loop->lets = loop->lets || b->n != before || b->stmts[p] != was;
    }
}

/* ---- tuples bound to a local (tuple_lets) ----
 *
 *   t = (x[i], 2 * x[i])          __ng_tup_t_0, __ng_tup_t_1 = x[i], 2 * x[i]
 *   a, b = t                      a, b = __ng_tup_t_0, __ng_tup_t_1
 *   out[i] = t[-1] + len(t)       out[i] = __ng_tup_t_1 + 2
 *
 * A local tuple becomes one name per item, where every mention of it is in the loop's body, every
 * assignment of it is a tuple display of the same n items (none starred; the items are evaluated
 * before any is bound, as Python's), and every read is t[c] (c an int literal in [-n, n)), len(t)
 * or the value an assignment unpacks into n targets. */

enum { MAX_TUPLE_LET = 8 };

typedef struct TupleLet {
    int id, n;
    const char *item[MAX_TUPLE_LET]; /* the names of its items */
} TupleLet;

/* Whether every mention of t in e (a value, or a target other than t itself) is t[c] or len(t). */
static bool tuple_reads_ok(const NgJitExpr *e, const TupleLet *t)
{
    if (!e)
        return true;
    int64_t c;
    if (e->kind == NG_JIT_E_SUBSCRIPT && is_name(e->lhs, t->id))
        return e->ctx == NG_JIT_LOAD && int_literal(e->rhs, &c) && c >= -t->n && c < t->n;
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && !e->nkeywords && is_name(e->items[0], t->id))
        return true;
    if (is_name(e, t->id))
        return false;
    Count n = {t->id, 0};
    switch (e->kind) {
    case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP:
    case NG_JIT_E_GENEXP: case NG_JIT_E_LAMBDA: case NG_JIT_E_STR:
        visit_names(e, count_one, &n);
        return n.n == 0;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            if (!tuple_reads_ok(e->keywords[i].value, t))
                return false;
        break;
    default:
        break;
    }
    if (!tuple_reads_ok(e->lhs, t) || !tuple_reads_ok(e->rhs, t) || !tuple_reads_ok(e->cond, t))
        return false;
    for (int i = 0; i < e->nitems; i++)
        if (!tuple_reads_ok(e->items[i], t))
            return false;
    return true;
}

/* A tuple display of n items, none starred. */
static bool tuple_of(const NgJitExpr *e, int n)
{
    if (!e || (e->kind != NG_JIT_E_TUPLE && e->kind != NG_JIT_E_LIST) || e->nitems != n)
        return false;
    for (int i = 0; i < n; i++)
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return false;
    return true;
}

static bool tuple_block_ok(NgJitBlock b, const TupleLet *t)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF) {
            if (count_stmt(s, t->id))
                return false;
            continue;
        }
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && is_name(s->targets[0], t->id)) {
            if (s->value->kind != NG_JIT_E_TUPLE || !tuple_of(s->value, t->n) || !tuple_reads_ok(s->value, t))
                return false;
            continue;
        }
        if (s->kind == NG_JIT_S_ASSIGN && is_name(s->value, t->id)) {
            if (s->ntargets != 1 || !tuple_of(s->targets[0], t->n) || !tuple_reads_ok(s->targets[0], t))
                return false;
            continue;
        }
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++)
            if (!tuple_reads_ok(parts[k], t))
                return false;
        for (int k = 0; k < s->ntargets; k++)
            if (!tuple_reads_ok(s->targets[k], t))
                return false;
        if (!tuple_block_ok(s->body, t) || !tuple_block_ok(s->orelse, t))
            return false;
    }
    return true;
}

/* A tuple display of t's item names. */
static NgJitExpr *tuple_items(Rewriter *R, const TupleLet *t, NgJitCtx ctx, NgJitSpan sp)
{
    NgJitExpr *e = node(R, NG_JIT_E_TUPLE, sp);
    NgJitExpr **items = alloc(R, (size_t)t->n * sizeof *items);
    if (!e || !items)
        return NULL;
    for (int k = 0; k < t->n; k++)
        if (!(items[k] = name(R, t->item[k], ctx, sp)))
            return NULL;
    e->ctx = ctx;
    e->items = items;
    e->nitems = t->n;
    e->height = 2;
    return e;
}

static void tuple_uses(Rewriter *R, NgJitExpr **slot, const TupleLet *t)
{
    NgJitExpr *e = *slot;
    if (!e || R->st != NG_OK)
        return;
    int64_t c;
    if (e->kind == NG_JIT_E_SUBSCRIPT && is_name(e->lhs, t->id) && int_literal(e->rhs, &c)) {
        NgJitExpr *v = name(R, t->item[c < 0 ? c + t->n : c], NG_JIT_LOAD, e->span);
        if (v)
            set_expr(R, slot, v);
        return;
    }
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && is_name(e->items[0], t->id)) {
        NgJitExpr *v = int_lit(R, t->n, e->span);
        if (v)
            set_expr(R, slot, v);
        return;
    }
    switch (e->kind) {
    case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP:
    case NG_JIT_E_GENEXP: case NG_JIT_E_LAMBDA: case NG_JIT_E_STR:
        return; /* (no mention: tuple_reads_ok) */
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            tuple_uses(R, &e->keywords[i].value, t);
        break;
    default:
        break;
    }
    tuple_uses(R, &e->lhs, t);
    tuple_uses(R, &e->rhs, t);
    tuple_uses(R, &e->cond, t);
    for (int i = 0; i < e->nitems; i++)
        tuple_uses(R, &e->items[i], t);
}

static void tuple_uses_block(Rewriter *R, NgJitBlock b, const TupleLet *t)
{
    for (int i = 0; i < b.n && R->st == NG_OK; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
            continue;
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && is_name(s->targets[0], t->id)) {
            tuple_uses(R, &s->value, t);
            NgJitExpr *to = tuple_items(R, t, NG_JIT_STORE, s->targets[0]->span);
            if (to)
                set_expr(R, &s->targets[0], to);
            continue;
        }
        if (s->kind == NG_JIT_S_ASSIGN && is_name(s->value, t->id)) {
            tuple_uses(R, &s->targets[0], t);
            NgJitExpr *from = tuple_items(R, t, NG_JIT_LOAD, s->value->span);
            if (from)
                set_expr(R, &s->value, from);
            continue;
        }
        tuple_uses(R, &s->target, t);
        tuple_uses(R, &s->value, t);
        tuple_uses(R, &s->test, t);
        for (int k = 0; k < s->ntargets; k++)
            tuple_uses(R, &s->targets[k], t);
        tuple_uses_block(R, s->body, t);
        tuple_uses_block(R, s->orelse, t);
    }
}

/* The names assigned a tuple display in b (nested blocks too), into ids (at most cap). */
static int tuple_names(NgJitBlock b, int *ids, int n, int cap)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
            continue;
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME &&
            s->value->kind == NG_JIT_E_TUPLE && n < cap) {
            bool seen = false;
            for (int k = 0; k < n; k++)
                seen = seen || ids[k] == s->targets[0]->name_id;
            if (!seen)
                ids[n++] = s->targets[0]->name_id;
        }
        n = tuple_names(s->body, ids, n, cap);
        n = tuple_names(s->orelse, ids, n, cap);
    }
    return n;
}

/* The length of the first tuple display assigned to name id in b, -1 without one. */
static int tuple_length(NgJitBlock b, int id)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
            continue;
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && is_name(s->targets[0], id) &&
            s->value->kind == NG_JIT_E_TUPLE)
            return s->value->nitems;
        int n = tuple_length(s->body, id);
        if (n < 0)
            n = tuple_length(s->orelse, id);
        if (n >= 0)
            return n;
    }
    return -1;
}

static void tuple_lets(Rewriter *R, NgJitStmt *loop)
{
    int ids[16];
    int nids = tuple_names(loop->body, ids, 0, 16);
    for (int q = 0; q < nids && R->st == NG_OK; q++) {
        TupleLet t = {.id = ids[q], .n = -1};
        if (count_block(R->scope, t.id) != count_block(loop->body, t.id))
            continue; /* (mentioned outside the loop's body) */
        t.n = tuple_length(loop->body, t.id);
        if (t.n < 1 || t.n > MAX_TUPLE_LET || !tuple_block_ok(loop->body, &t))
            continue;
        const char *src = R->ast->names[t.id];
        bool named = true;
        for (int k = 0; k < t.n && named; k++) {
            char buf[160];
            snprintf(buf, sizeof buf, "__ng_tup_%s_%d", src, k);
            int id = name_id(R, buf);
            named = id >= 0;
            t.item[k] = named ? R->ast->names[id] : NULL;
        }
        if (!named)
            break;
        int mark = R->nlog;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        tuple_uses_block(R, loop->body, &t);
        if (R->over || R->st != NG_OK || reheight_block(loop->body) > NG_JIT_MAX_DEPTH) {
            undo(R, mark);
            reheight_block(loop->body);
        }
        R->nlog = mark;
    }
}

/* ---- return inside a loop (return_loops) ----
 *
 *   for i in range(n):                  __ng_ret = 0
 *       for j in range(m):              for i in range(n):
 *           if t:                           __ng_ret = 0
 *               return i, j                 for j in range(m):
 *   return None                                 if t:
 *                                                   __ng_retv4_0 = i
 *                                                   __ng_retv4_1 = j
 *                                                   __ng_ret = 4
 *                                                   break
 *                                               if __ng_ret:
 *                                                   break
 *                                           if __ng_ret == 4:
 *                                               return (__ng_retv4_0, __ng_retv4_1)
 *                                           return None
 *
 * A return (on line 4 here) sets the flag to its line and its values into
 * names of their own, then breaks; each loop it leaves is followed by a
 * break when the flag is set, up to the outermost, which is followed by the
 * returns. Python's order of evaluation and its results stay: the values
 * are computed where the return stood, nothing else runs before the
 * function returns. The loop then is an ordinary loop that breaks (a
 * search where its form is one, analyze.c); the host, which runs the
 * source, returns what the kernel's names hold (jit.py: NG_JIT_RET names
 * the line of the return that ran). Left as written: a loop of a
 * generator, returns of a loop's else, two returns on one line (the host
 * tells them apart by their lines), a tuple with a starred item or more
 * than NG_JIT_RET_ITEMS items. */

/* What return s returns, NULL for nothing or None (both return None: no name is needed). */
static NgJitExpr *returned(const NgJitStmt *s)
{
    NgJitExpr *v = s->value;
    return v && v->kind == NG_JIT_E_CONST && v->cval == NG_JIT_C_NONE ? NULL : v;
}

/* Whether every return of b can be rewritten (see above); rets[0..*n) gathers
 * them, in source order. */
static bool returns_ok(NgJitBlock b, const NgJitStmt **rets, int *n, int cap)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF)
            continue;
        if (s->kind != NG_JIT_S_RETURN) {
            if (!returns_ok(s->body, rets, n, cap) || !returns_ok(s->orelse, rets, n, cap))
                return false;
            continue;
        }
        const NgJitExpr *v = returned(s);
        if (v && v->kind == NG_JIT_E_TUPLE) {
            if (v->nitems > NG_JIT_RET_ITEMS)
                return false;
            for (int k = 0; k < v->nitems; k++)
                if (v->items[k]->kind == NG_JIT_E_STARRED)
                    return false;
        }
        for (int k = 0; k < *n; k++)
            if (rets[k]->span.line == s->span.line)
                return false;
        if (*n == cap)
            return false;
        rets[(*n)++] = s;
    }
    return true;
}

/* The name of return `line`'s value (item k of its tuple; -1: not a tuple). */
static NgJitExpr *ret_value(Rewriter *R, int line, int k, NgJitCtx ctx, NgJitSpan span)
{
    char nm[48];
    if (k < 0)
        snprintf(nm, sizeof nm, NG_JIT_RET "v%d", line);
    else
        snprintf(nm, sizeof nm, NG_JIT_RET "v%d_%d", line, k);
    return name(R, nm, ctx, span);
}

/* __ng_ret = v */
static NgJitStmt *set_flag(Rewriter *R, int64_t v, NgJitSpan span)
{
    NgJitExpr *flag = name(R, NG_JIT_RET, NG_JIT_STORE, span);
    return flag ? assign(R, flag, int_lit(R, v, span), span) : NULL;
}

/* A new statement `if test: body[0..n)`. */
static NgJitStmt *if_stmt(Rewriter *R, NgJitExpr *test, NgJitStmt **body, int n, NgJitSpan span)
{
    NgJitStmt *s = with_body(R, NG_JIT_S_IF, body, n, span);
    if (!s || !test)
        return NULL;
    s->test = test;
    return s;
}

/* break, or a return without a value */
static NgJitStmt *jump(Rewriter *R, NgJitStmtKind kind, NgJitSpan span)
{
    NgJitStmt *s = alloc(R, sizeof *s);
    if (s) {
        s->kind = kind;
        s->span = span;
    }
    return s;
}

/* The empty span where s ends (a statement made after it). */
static NgJitSpan end_of(NgJitSpan s)
{
    s.line = s.end_line;
    s.col = s.end_col;
    s.off = s.end_off;
    return s;
}

/* The returns of b (statements inside a loop) as breaks, the loops in b that
 * return followed by a break when the flag is set. */
static void returns_as_breaks(Rewriter *R, NgJitBlock *b)
{
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK && !R->over; p--) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_DEF || !ng_jit_block_returns((NgJitBlock){&b->stmts[p], 1}))
            continue;
        if (s->kind == NG_JIT_S_IF) {
            returns_as_breaks(R, &s->body);
            returns_as_breaks(R, &s->orelse);
        } else if (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) {
            returns_as_breaks(R, &s->body);
            returns_as_breaks(R, &s->orelse); /* (an else's break leaves the loop around it) */
            s->returns = true;
            NgJitSpan end = end_of(s->span);
            NgJitStmt *brk = jump(R, NG_JIT_S_BREAK, end);
            splice(R, b, p, (NgJitStmt *[]){set_flag(R, 0, start_of(s->span)), s,
                                             if_stmt(R, name(R, NG_JIT_RET, NG_JIT_LOAD, end), &brk, 1, end)}, 3);
        } else if (s->kind == NG_JIT_S_RETURN) {
            NgJitStmt *with[NG_JIT_RET_ITEMS + 2];
            int n = 0, line = s->span.line;
            NgJitExpr *v = returned(s);
            NgJitSpan end = end_of(s->span); /* (each statement's span after the one before it) */
            if (v && v->kind == NG_JIT_E_TUPLE)
                for (int k = 0; k < v->nitems; k++)
                    with[n++] = assign(R, ret_value(R, line, k, NG_JIT_STORE, v->items[k]->span), v->items[k],
                                       v->items[k]->span);
            else if (v)
                with[n++] = assign(R, ret_value(R, line, -1, NG_JIT_STORE, v->span), v, v->span);
            with[n++] = set_flag(R, line, end);
            with[n++] = jump(R, NG_JIT_S_BREAK, end);
            splice(R, b, p, with, n);
        }
    }
}

/* `if __ng_ret == <its line>: return <its values>` for return s. */
static NgJitStmt *return_after(Rewriter *R, const NgJitStmt *s, NgJitSpan span)
{
    int line = s->span.line;
    const NgJitExpr *v = returned(s);
    NgJitStmt *ret = jump(R, NG_JIT_S_RETURN, span);
    if (ret && v && v->kind == NG_JIT_E_TUPLE) {
        NgJitExpr *t = node(R, NG_JIT_E_TUPLE, span);
        NgJitExpr **items = alloc(R, (size_t)v->nitems * sizeof *items);
        if (!t || !items)
            return NULL;
        for (int k = 0; k < v->nitems; k++)
            if (!(items[k] = ret_value(R, line, k, NG_JIT_LOAD, span)))
                return NULL;
        t->items = items;
        t->nitems = v->nitems;
        t->height = 2;
        ret->value = t;
    } else if (ret && v) {
        ret->value = ret_value(R, line, -1, NG_JIT_LOAD, span);
    }
    NgJitExpr *test = compare(R, NG_JIT_OP_EQ, name(R, NG_JIT_RET, NG_JIT_LOAD, span), int_lit(R, line, span), span);
    return if_stmt(R, test, &ret, 1, span);
}

/* Rewrites the loops of function body b (at its level, or in its ifs) that
 * return; see above. */
static void return_loops(Rewriter *R, NgJitBlock *b)
{
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK; p--) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_IF) {
            return_loops(R, &s->body);
            return_loops(R, &s->orelse);
            continue;
        }
        if ((s->kind != NG_JIT_S_FOR && s->kind != NG_JIT_S_WHILE) || !ng_jit_block_returns(s->body) ||
            ng_jit_block_returns(s->orelse))
            continue;
        const NgJitStmt *rets[NG_JIT_RET_SITES];
        int n = 0;
        if (!returns_ok(s->body, rets, &n, NG_JIT_RET_SITES))
            continue;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        int mark = R->nlog;
        NgJitStmt *with[NG_JIT_RET_SITES + 2];
        NgJitSpan end = end_of(s->span);
        with[0] = set_flag(R, 0, start_of(s->span));
        with[1] = s;
        for (int i = 0; i < n; i++) /* (before the returns become breaks) */
            with[2 + i] = return_after(R, rets[i], end);
        returns_as_breaks(R, &s->body);
        splice(R, b, p, with, n + 2);
        s->returns = true;
        if (R->over)
            undo(R, mark);
        R->nlog = mark;
    }
}

/* ---- for ... else, while ... else (else_loops) ---- */

/* Whether block b holds a loop, a def or a statement left to Python. */
static bool has_loop(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE || s->kind == NG_JIT_S_DEF ||
            s->kind == NG_JIT_S_OTHER || has_loop(s->body) || has_loop(s->orelse))
            return true;
    }
    return false;
}

/* `flag = 1` before each break of block b that leaves the loop b is the body of (not one of
 * a loop inside it). */
static int flag_breaks(Rewriter *R, NgJitBlock *b, const char *flag)
{
    int n = 0;
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK && !R->over; p--) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_IF) {
            n += flag_breaks(R, &s->body, flag);
            n += flag_breaks(R, &s->orelse, flag);
        } else if (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) {
            n += flag_breaks(R, &s->orelse, flag); /* (an else's break leaves the loop around it) */
        } else if (s->kind == NG_JIT_S_BREAK) {
            NgJitExpr *f = name(R, flag, NG_JIT_STORE, s->span);
            splice(R, b, p, (NgJitStmt *[]){f ? assign(R, f, int_lit(R, 1, s->span), start_of(s->span)) : NULL, s}, 2);
            n++;
        }
    }
    return n;
}

/* A loop whose else block went after it ends with its body (the statements
 * after it start past its end, as in the source). */
static void end_with_body(NgJitStmt *s)
{
    NgJitSpan last = s->body.stmts[s->body.n - 1]->span;
    s->span.end_line = last.end_line;
    s->span.end_col = last.end_col;
    s->span.end_off = last.end_off;
}

/* A loop's else block (run when the loop was not left by a break):
 *
 *     for ...:                     __ng_brk<line> = 0
 *         ... break ...            for ...:
 *     else:                            ... __ng_brk<line> = 1; break ...
 *         E                        if not __ng_brk<line>:
 *                                      E
 *
 * (the line the loop's; where no break leaves the loop, E just follows it). The loop the
 * host launches hands __ng_brk<line> back, and the host
 * plan runs E itself when it is not set (jit.py: the kernel never sets it where no break
 * ran); a loop inside a kernel runs the three. An else block holding a loop (or a def, or
 * syntax left to Python) stays as written: the loop runs as Python. After return_loops, whose
 * returns became breaks (they leave the loop without its else, as a return does). */
static void else_loops(Rewriter *R, NgJitBlock *b)
{
    for (int p = b->n - 1; p >= 0 && R->st == NG_OK; p--) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue;
        else_loops(R, &s->body);
        if (s->kind == NG_JIT_S_IF)
            else_loops(R, &s->orelse);
        if ((s->kind != NG_JIT_S_FOR && s->kind != NG_JIT_S_WHILE) || !s->orelse.n || has_loop(s->orelse))
            continue;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        int mark = R->nlog;
        char flag[32];
        snprintf(flag, sizeof flag, "__ng_brk%d", s->span.line);
        NgJitBlock e = s->orelse;
        NgJitSpan end = end_of(s->span), rest = s->span; /* (rest: the else block's lines) */
        rest.line = e.stmts[0]->span.line;
        rest.col = e.stmts[0]->span.col;
        rest.off = e.stmts[0]->span.off;
        if (!flag_breaks(R, &s->body, flag)) { /* no break: the else block always runs after it */
            if (!R->over) {
                set_block(R, &s->orelse, (NgJitBlock){NULL, 0});
                NgJitStmt **with = alloc(R, (size_t)(1 + e.n) * sizeof *with);
                if (with) {
                    with[0] = s;
                    memcpy(with + 1, e.stmts, (size_t)e.n * sizeof *with);
                    splice(R, b, p, with, 1 + e.n);
                }
            }
            if (R->over)
                undo(R, mark);
            else
                end_with_body(s);
            R->nlog = mark;
            continue;
        }
        NgJitExpr *f0 = name(R, flag, NG_JIT_STORE, s->span), *test = node(R, NG_JIT_E_UNARY, end);
        if (test) {
            test->op = NG_JIT_OP_NOT;
            test->lhs = name(R, flag, NG_JIT_LOAD, end);
            test->height = 2;
        }
        NgJitStmt *pre = f0 ? assign(R, f0, int_lit(R, 0, s->span), start_of(s->span)) : NULL;
        NgJitStmt *post = test && test->lhs ? if_stmt(R, test, e.stmts, e.n, rest) : NULL;
        if (pre && post) {
            set_block(R, &s->orelse, (NgJitBlock){NULL, 0});
            splice(R, b, p, (NgJitStmt *[]){pre, s, post}, 3);
        }
        if (R->over || !pre || !post)
            undo(R, mark);
        else
            end_with_body(s);
        R->nlog = mark;
    }
}

/* Whether e reads name id. */
static bool reads_id(const NgJitExpr *e, int id)
{
    if (!e)
        return false;
    if (e->kind == NG_JIT_E_NAME)
        return e->name_id == id;
    if (reads_id(e->lhs, id) || reads_id(e->rhs, id) || reads_id(e->cond, id))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (reads_id(e->items[i], id))
            return true;
    return false;
}

/* The hand-written argmax, a loop whose body is only
 *
 *     if e(v) > e(k):      (>=, <, <=; either way round)
 *         k = v
 *
 * e(k) being e(v) with the loop variable v replaced by k (x[i] and x[bi]), pure: it becomes the
 * argmax the analysis knows (`if e > best: best = e; k = i`), with best a name of its own bound
 * to e(k) before the loop (FOR.pre_name), which e(k) then is in every iteration. */
static void hand_argmax(Rewriter *R, NgJitStmt *s)
{
    if (s->kind != NG_JIT_S_FOR || s->orelse.n || s->pre_name || s->target->kind != NG_JIT_E_NAME ||
        s->body.n != 1)
        return;
    NgJitStmt *t = s->body.stmts[0];
    if (t->kind != NG_JIT_S_IF || t->orelse.n || t->body.n != 1 || t->test->kind != NG_JIT_E_COMPARE ||
        t->test->nitems != 2)
        return;
    NgJitOp op = t->test->ops[0];
    const NgJitStmt *a = t->body.stmts[0];
    int v = s->target->name_id;
    if ((op != NG_JIT_OP_GT && op != NG_JIT_OP_GE && op != NG_JIT_OP_LT && op != NG_JIT_OP_LE) ||
        a->kind != NG_JIT_S_ASSIGN || a->ntargets != 1 || a->targets[0]->kind != NG_JIT_E_NAME ||
        a->value->kind != NG_JIT_E_NAME || a->value->name_id != v || a->targets[0]->name_id == v)
        return;
    const NgJitExpr *k = a->targets[0];
    int side = reads_id(t->test->items[0], v) ? 0 : 1; /* (e(v)'s) */
    const NgJitExpr *e = t->test->items[side], *ek = t->test->items[1 - side];
    if (!reads_id(e, v) || reads_id(e, k->name_id) || reads_id(ek, v) || !pure_expr(e) ||
        e->kind == NG_JIT_E_NAME || reads_id(s->test, k->name_id))
        return;
    R->budget = REWRITE_BUDGET;
    R->over = false;
    NgJitExpr *kload = name(R, k->name, NG_JIT_LOAD, k->span);
    NgJitExpr *want = kload ? copy_with(R, e, v, kload) : NULL;
    if (!want || R->over || R->st != NG_OK || !ng_jit_expr_equal(want, ek))
        return;
    char nm[32];
    snprintf(nm, sizeof nm, "__ng_best%d", ++R->nloops);
    NgJitExpr *key = name(R, nm, NG_JIT_LOAD, ek->span), *store = name(R, nm, NG_JIT_STORE, a->span);
    NgJitExpr *val = dup(R, e);
    NgJitStmt *upd = store && val ? assign(R, store, val, a->span) : NULL;
    NgJitStmt **body = alloc(R, 2 * sizeof *body);
    NgJitExpr *test = alloc(R, sizeof *test);
    NgJitExpr **items = alloc(R, 2 * sizeof *items);
    if (!key || !upd || !body || !test || !items || R->over || R->st != NG_OK)
        return;
    *test = *t->test;
    items[side] = t->test->items[side];
    items[1 - side] = key;
    test->items = items;
    body[0] = upd, body[1] = t->body.stmts[0];
    t->test = test;
    t->body = (NgJitBlock){body, 2};
    s->pre_name = key->name;
    s->pre_value = ek;
}

/* ---- a name assigned in a loop and read after it (last_values) ----
 *
 *   t = -1.0                        t = -1.0
 *   for i in range(n):              for i in range(n):      (__ng_last1 = 0 before it: pre_name)
 *       if x[i] > 0.5:                  if x[i] > 0.5:
 *           t = x[i]                        if 0 >= __ng_last1:
 *           j = i                               __ng_last1 = 0
 *   return t, j                                 t = x[i]
 *                                               j = i
 *
 * After the loop t holds the value of the last iteration that assigned it (or its value before,
 * where none did): the `if` always passes, so in order it is the loop as written, and it is the
 * argmax the analysis knows (ranked_if, ties to the last iteration: `>=`), on a key all of whose
 * values are equal, so that the iteration that assigned last wins, carrying t and j. Only where
 * every statement that assigns one of the names (no other mention of them in the body, one
 * mention after the loop at least) is one run of plain assignments `name = pure value` in one
 * block, the loop has no break or return, no other argmax-style if (the analysis takes one per
 * loop) and not only values a fresh reduction takes already (constants, the loop variable plus a
 * constant: NgJitReduction.fresh). */

/* Whether b has a break of this loop (depth 0), a return, a def or a statement left to Python,
 * or an `if` that assigns a name its test reads (an argmax of the source's). */
static bool last_blocked(NgJitBlock b, int depth)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if ((s->kind == NG_JIT_S_BREAK && depth == 0) || s->kind == NG_JIT_S_RETURN || s->kind == NG_JIT_S_DEF ||
            s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_RAISE)
            return true;
        for (int k = 0; s->kind == NG_JIT_S_IF && k < s->body.n; k++) {
            const NgJitStmt *a = s->body.stmts[k];
            for (int t = 0; a->kind == NG_JIT_S_ASSIGN && t < a->ntargets; t++)
                if (a->targets[t]->kind == NG_JIT_E_NAME && reads_id(s->test, a->targets[t]->name_id))
                    return true;
        }
        int in = s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE;
        if (last_blocked(s->body, depth + in) || last_blocked(s->orelse, depth))
            return true;
    }
    return false;
}

typedef struct Loads {
    int id, n;
} Loads;

static void load_one(const NgJitExpr *name, void *ctx)
{
    Loads *c = ctx;
    c->n += name->name_id == c->id && name->ctx != NG_JIT_STORE;
}

/* Reads of name id in b but for statement `skip` (a statement left to Python, a def's
 * defaults and decorators as reads), nested defs' bodies included. */
static int loads_block(NgJitBlock b, int id, const NgJitStmt *skip)
{
    Loads c = {id, 0};
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s == skip)
            continue;
        if (s->kind == NG_JIT_S_OTHER) {
            for (int k = 0; k < s->nnames; k++)
                c.n += s->name_ids[k] == id;
            continue;
        }
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++)
            visit_names(parts[k], load_one, &c);
        for (int k = 0; k < s->ntargets; k++)
            visit_names(s->targets[k], load_one, &c);
        for (int k = 0; s->kind == NG_JIT_S_DEF && k < s->ndecorators; k++)
            visit_names(s->decorators[k], load_one, &c);
        for (int k = 0; s->kind == NG_JIT_S_DEF && s->params && k < s->params->n; k++)
            visit_names(s->params->items[k].dflt, load_one, &c);
        c.n += loads_block(s->body, id, skip) + loads_block(s->orelse, id, skip);
    }
    return c.n;
}

/* A call that makes an array (np.zeros(n), x.copy()): no scalar to carry. */
static bool makes_array(const NgJitExpr *e)
{
    static const char *const fns[] = {"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
                                      "full_like", "array", "asarray", "arange", "linspace", "copy", NULL};
    if (e->kind != NG_JIT_E_CALL || e->lhs->kind != NG_JIT_E_ATTR)
        return false;
    for (int i = 0; fns[i]; i++)
        if (strcmp(e->lhs->name, fns[i]) == 0)
            return true;
    return false;
}

/* `name = value`, one target. */
static bool plain_assign(const NgJitStmt *s)
{
    return s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME;
}

/* Plain assignments to name id in b, any depth. */
static int plain_stores(NgJitBlock b, int id)
{
    int n = 0;
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        n += plain_assign(s) && s->targets[0]->name_id == id;
        n += plain_stores(s->body, id) + plain_stores(s->orelse, id);
    }
    return n;
}

typedef struct LastRun {
    const bool *cand;   /* by name id */
    NgJitBlock *block;  /* the block of the run (NULL: none yet) */
    int first, n;       /* the run: block->stmts[first .. first + n) */
    bool bad;           /* stores in two blocks, or apart */
} LastRun;

static void last_run(NgJitBlock *b, LastRun *r)
{
    for (int i = 0; i < b->n && !r->bad; i++) {
        NgJitStmt *s = b->stmts[i];
        if (plain_assign(s) && r->cand[s->targets[0]->name_id]) {
            if (!r->block)
                r->block = b, r->first = i;
            if (r->block != b || i != r->first + r->n)
                r->bad = true;
            r->n++;
            continue;
        }
        last_run(&s->body, r);
        last_run(&s->orelse, r);
    }
}

/* A constant, or loop variable v plus or minus an int literal: a fresh reduction's value. */
static bool fresh_value(const NgJitExpr *e, int v)
{
    int64_t k;
    if (int_literal(e, &k) || e->kind == NG_JIT_E_FLOAT || e->kind == NG_JIT_E_CONST)
        return true;
    if (is_name(e, v))
        return true;
    return e->kind == NG_JIT_E_BINARY && (e->op == NG_JIT_OP_ADD || e->op == NG_JIT_OP_SUB) &&
           ((is_name(e->lhs, v) && int_literal(e->rhs, &k)) || (e->op == NG_JIT_OP_ADD && is_name(e->rhs, v) &&
                                                                 int_literal(e->lhs, &k)));
}

/* Whether e mentions name id only where rename_loads reaches (not in a comprehension, a lambda or
 * an f-string's fields, which have scopes or text of their own). */
static bool renamable(const NgJitExpr *e, int id)
{
    if (!e)
        return true;
    switch (e->kind) {
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
    case NG_JIT_E_LAMBDA: case NG_JIT_E_STR: {
        Count c = {id, 0};
        visit_names(e, count_one, &c);
        return c.n == 0;
    }
    default:
        break;
    }
    if (!renamable(e->lhs, id) || !renamable(e->rhs, id) || !renamable(e->cond, id))
        return false;
    for (int i = 0; i < e->nitems; i++)
        if (!renamable(e->items[i], id) || (e->kind == NG_JIT_E_DICT && !renamable(e->keys[i], id)))
            return false;
    for (int i = 0; e->kind == NG_JIT_E_CALL && i < e->nkeywords; i++)
        if (!renamable(e->keywords[i].value, id))
            return false;
    return true;
}

static bool renamable_block(NgJitBlock b, int id)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++)
            if (!renamable(parts[k], id))
                return false;
        for (int k = 0; k < s->ntargets; k++)
            if (!renamable(s->targets[k], id))
                return false;
        if (!renamable_block(s->body, id) || !renamable_block(s->orelse, id))
            return false;
    }
    return true;
}

/* Every read of name id in *slot (renamable) becomes a read of `to`, a new NAME node each. */
static void rename_loads(Rewriter *R, NgJitExpr **slot, int id, const char *to)
{
    NgJitExpr *e = *slot;
    if (!e || R->st != NG_OK)
        return;
    if (is_name(e, id) && e->ctx == NG_JIT_LOAD) {
        NgJitExpr *n = name(R, to, NG_JIT_LOAD, e->span);
        if (n) {
            n->outer = e->outer, n->parenthesized = e->parenthesized;
            *slot = n;
        }
        return;
    }
    rename_loads(R, &e->lhs, id, to);
    rename_loads(R, &e->rhs, id, to);
    rename_loads(R, &e->cond, id, to);
    for (int i = 0; e->kind != NG_JIT_E_STR && i < e->nitems; i++) {
        rename_loads(R, &e->items[i], id, to);
        if (e->kind == NG_JIT_E_DICT)
            rename_loads(R, &e->keys[i], id, to);
    }
    for (int i = 0; e->kind == NG_JIT_E_CALL && i < e->nkeywords; i++)
        rename_loads(R, &e->keywords[i].value, id, to);
}

static void rename_loads_block(Rewriter *R, NgJitBlock b, int id, const char *to)
{
    for (int i = 0; i < b.n; i++) {
        NgJitStmt *s = b.stmts[i];
        NgJitExpr **parts[4] = {&s->target, &s->value, &s->test, &s->annotation};
        for (int k = 0; k < 4; k++)
            rename_loads(R, parts[k], id, to);
        for (int k = 0; k < s->ntargets; k++)
            rename_loads(R, &s->targets[k], id, to);
        rename_loads_block(R, s->body, id, to);
        rename_loads_block(R, s->orelse, id, to);
    }
}

/* Reads (LOAD names) of id in b, any depth. */
static int reads_block(NgJitBlock b, int id)
{
    int n = 0;
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        Loads c = {id, 0};
        for (int k = 0; k < 4; k++)
            visit_names(parts[k], load_one, &c);
        for (int k = 0; k < s->ntargets; k++)
            visit_names(s->targets[k], load_one, &c);
        n += c.n + reads_block(s->body, id) + reads_block(s->orelse, id);
    }
    return n;
}

/* Whether loop x (after the loop being rewritten) reads name id only after assigning it in the
 * same iteration: a plain `id = v` (v not reading id) is the first statement of its body that
 * mentions id, and neither its header nor its else block mentions it. */
static bool loop_rebinds_first(const NgJitStmt *x, int id)
{
    if ((x->kind != NG_JIT_S_FOR && x->kind != NG_JIT_S_WHILE) || count_block(x->orelse, id))
        return false;
    Count c = {id, 0};
    visit_names(x->target, count_one, &c);
    visit_names(x->test, count_one, &c);
    if (c.n)
        return false;
    for (int i = 0; i < x->body.n; i++) {
        const NgJitStmt *b = x->body.stmts[i];
        if (!count_stmt(b, id))
            continue;
        return plain_assign(b) && b->targets[0]->name_id == id && !reads_id(b->value, id);
    }
    return true;
}

typedef struct After {
    const NgJitStmt *loop; /* the loop whose value of the name is asked about */
    int id;
    bool after;            /* the walk is past the loop */
    int live;              /* 1: a statement after it may read its value; 0: one surely rebinds it first;
                              -1: not known yet (none after it mentions it: not read) */
} After;

static void after_block(NgJitBlock b, After *a)
{
    for (int i = 0; i < b.n && a->live < 0; i++) {
        const NgJitStmt *x = b.stmts[i];
        if (!a->after) {
            if (x == a->loop) {
                a->after = true;
                continue;
            }
            after_block(x->body, a); /* (the loop inside an if: the walk goes on after it from there) */
            after_block(x->orelse, a);
            continue;
        }
        if (!count_stmt(x, a->id) || loop_rebinds_first(x, a->id))
            continue;
        a->live = plain_assign(x) && x->targets[0]->name_id == a->id && !reads_id(x->value, a->id) ? 0 : 1;
    }
}

/* Whether b (any depth) mentions name id where its value may be read at another time or by
 * name: a def, a lambda or a comprehension (a closure), a statement left to Python (`global`,
 * `del`, ...). */
static bool defs_mention(NgJitBlock b, int id)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *x = b.stmts[i];
        if (((x->kind == NG_JIT_S_DEF || x->kind == NG_JIT_S_OTHER) && count_stmt(x, id)) ||
            defs_mention(x->body, id) || defs_mention(x->orelse, id))
            return true;
        const NgJitExpr *parts[4] = {x->target, x->value, x->test, x->annotation};
        for (int k = 0; k < 4; k++)
            if (!renamable(parts[k], id))
                return true;
        for (int k = 0; k < x->ntargets; k++)
            if (!renamable(x->targets[k], id))
                return true;
    }
    return false;
}

/* Whether e is a subscript with a slice (x[a:b], X[i, 1:]): a view, no scalar to carry. */
static bool sliced(const NgJitExpr *e)
{
    if (!e || e->kind != NG_JIT_E_SUBSCRIPT)
        return false;
    if (e->rhs && e->rhs->kind == NG_JIT_E_SLICE)
        return true;
    for (int i = 0; e->rhs && e->rhs->kind == NG_JIT_E_TUPLE && i < e->rhs->nitems; i++)
        if (e->rhs->items[i]->kind == NG_JIT_E_SLICE)
            return true;
    return false;
}

/* Whether the value loop s leaves in name id may be read after it, in function body `scope`: a
 * statement after it mentions id other than by first rebinding it (`id = v`, or a loop whose
 * iterations assign it before reading it), or a def mentions it. Conservative: an if or a
 * statement left to Python that mentions it counts as a read. (A name the later loops of a
 * function reuse, `row = A[i]`, would otherwise be carried by every loop assigning it: a ranked
 * reduction that costs the loop its vector lanes.) */
static bool live_after(NgJitBlock scope, const NgJitStmt *s, int id)
{
    if (defs_mention(scope, id))
        return true;
    After a = {s, id, false, -1};
    after_block(scope, &a);
    return a.live == 1;
}

static void last_values(Rewriter *R, NgJitStmt *s)
{
    if (s->kind != NG_JIT_S_FOR || s->orelse.n || s->pre_name || s->target->kind != NG_JIT_E_NAME ||
        last_blocked(s->body, 0))
        return;
    R->budget = REWRITE_BUDGET;
    R->over = false;
    int nn = R->ast->nnames, v = s->target->name_id, ncand = 0;
    bool *cand = alloc(R, (size_t)nn + 1);
    if (!cand)
        return;
    for (int id = 0; id < nn; id++) {
        int stores = plain_stores(s->body, id);
        cand[id] = stores > 0 && id != v && strncmp(R->ast->names[id], "__ng", 4) != 0 &&
                   count_block(s->body, id) == stores + reads_block(s->body, id) && loads_block(R->scope, id, s) > 0 &&
                   live_after(R->scope, s, id);
        ncand += cand[id];
    }
    if (!ncand)
        return;
    LastRun r = {cand, NULL, 0, 0, false};
    last_run(&s->body, &r);
    if (r.bad || !r.block)
        return;
    bool fresh = true, *seen = alloc(R, (size_t)nn + 1), *renamed = alloc(R, (size_t)nn + 1);
    if (!seen || !renamed)
        return;
    NgJitBlock after = {r.block->stmts + r.first + r.n, r.block->n - r.first - r.n};
    for (int i = 0; i < r.n; i++) {
        const NgJitStmt *a = r.block->stmts[r.first + i];
        int id = a->targets[0]->name_id;
        if (seen[id] || !pure_expr(a->value) || makes_array(a->value) || sliced(a->value))
            return;
        for (int j = 0; j < nn; j++) /* (a value reads only names the run assigned before it) */
            if (cand[j] && !seen[j] && reads_id(a->value, j))
                return;
        seen[id] = true;
        fresh = fresh && fresh_value(a->value, v);
    }
    /* A name also read in the iteration (`t = x[i] * 2; y[i] = t + 1`): every read after the run,
     * in its block (the iteration's own value, assigned just before), through a name of its own
     * the ranked if copies into the carried one. */
    int nrenamed = 0;
    for (int i = 0; i < r.n; i++) {
        const NgJitStmt *a = r.block->stmts[r.first + i];
        int id = a->targets[0]->name_id, in_run = 0, all = reads_block(s->body, id);
        if (!all)
            continue;
        for (int j = i + 1; j < r.n; j++)
            in_run += reads_id(r.block->stmts[r.first + j]->value, id);
        if (in_run + reads_block(after, id) != all || !renamable_block(after, id))
            return;
        renamed[id] = true;
        nrenamed++;
    }
    if (fresh && !nrenamed)
        return;
    for (int i = 0; nrenamed && i < r.n; i++) /* (all of the run then: the if only copies, raising nothing) */
        renamed[r.block->stmts[r.first + i]->targets[0]->name_id] = true;
    char nm[32];
    int nloop = ++R->nloops;
    snprintf(nm, sizeof nm, "__ng_last%d", nloop);
    /* (with names renamed, the run's statements stay before the if, which gets the empty span at
       the run's end, its copies too: the block's statements stay in order, apart) */
    NgJitSpan sp = nrenamed ? end_of(r.block->stmts[r.first + r.n - 1]->span) : start_of(r.block->stmts[r.first]->span);
    NgJitStmt **body = alloc(R, (size_t)(r.n + 1) * sizeof *body);
    NgJitExpr *key = name(R, nm, NG_JIT_LOAD, sp), *store = name(R, nm, NG_JIT_STORE, sp);
    NgJitExpr *test = key ? compare(R, NG_JIT_OP_GE, int_lit(R, 0, sp), key, sp) : NULL;
    NgJitExpr *zero = int_lit(R, 0, sp);
    NgJitStmt **stmts = alloc(R, (size_t)(r.block->n + 1) * sizeof *stmts);
    if (!body || !stmts)
        return;
    body[0] = store ? assign(R, store, int_lit(R, 0, sp), sp) : NULL;
    /* the renamed ones first, in the run's order: `__ng_lv<N>_<t> = value` (reads of names the run
       renamed before it renamed too), then the if: `t = __ng_lv<N>_<t>`, the others as written */
    int nb = r.first;
    memcpy(stmts, r.block->stmts, (size_t)r.first * sizeof *stmts);
    for (int i = 0; i < r.n && R->st == NG_OK; i++) {
        NgJitStmt *a = r.block->stmts[r.first + i];
        int id = a->targets[0]->name_id;
        for (int j = 0; j < nn; j++)
            if (renamed[j] && j != id && reads_id(a->value, j)) {
                char to[96];
                snprintf(to, sizeof to, "__ng_lv%d_%s", nloop, R->ast->names[j]);
                NgJitExpr *c = dup(R, a->value);
                if (c)
                    rename_loads(R, &c, j, to);
                a = c ? assign(R, a->targets[0], c, a->span) : NULL;
                if (!a)
                    return;
            }
        if (!renamed[id]) {
            body[1 + i] = a;
            continue;
        }
        char to[96];
        snprintf(to, sizeof to, "__ng_lv%d_%s", nloop, R->ast->names[id]);
        NgJitExpr *lv = name(R, to, NG_JIT_STORE, a->targets[0]->span), *rd = name(R, to, NG_JIT_LOAD, sp);
        NgJitExpr *carried = name(R, R->ast->names[id], NG_JIT_STORE, sp);
        stmts[nb++] = lv ? assign(R, lv, a->value, a->span) : NULL;
        body[1 + i] = rd && carried ? assign(R, carried, rd, sp) : NULL;
        if (!stmts[nb - 1] || !body[1 + i])
            return;
    }
    NgJitSpan whole = r.block->stmts[r.first]->span, end = r.block->stmts[r.first + r.n - 1]->span;
    whole.end_line = end.end_line, whole.end_col = end.end_col, whole.end_off = end.end_off; /* (the run's) */
    if (nrenamed)
        whole = sp;
    NgJitStmt *iff = body[0] && test ? if_stmt(R, test, body, r.n + 1, whole) : NULL;
    if (!iff || !zero || R->over || R->st != NG_OK)
        return;
    for (int id = 0; id < nn; id++)
        if (renamed[id]) {
            char to[96];
            snprintf(to, sizeof to, "__ng_lv%d_%s", nloop, R->ast->names[id]);
            rename_loads_block(R, after, id, to);
        }
    if (R->st != NG_OK)
        return;
    stmts[nb++] = iff;
    memcpy(stmts + nb, after.stmts, (size_t)after.n * sizeof *stmts);
    set_block(R, r.block, (NgJitBlock){stmts, nb + after.n});
    s->pre_name = key->name;
    s->pre_value = zero;
}

/* Inside a loop body a hand argmax's best is bound by a statement just before its loop (the
 * body is one kernel); at a function's top level the launch binds it (FOR.pre_name). */
/* ---- a `continue` that skips the rest of a loop's body (guard_continues) ----
 *
 *   for i in range(n):                 for i in range(n):
 *       A                                  A
 *       if c:                              if c:
 *           B                                  B
 *           continue                       else:
 *       D                                      D
 *
 * (`if not c: D` where B is empty; `if not c and t: E` where D is `if t: E` alone), so that a
 * search (`if x[i] > t: return i` after the continue) is still one. Only an `if` with no else, at
 * the body's top level (or the top level of a tail made so), whose block ends with the continue. */
static void guard_continues(Rewriter *R, NgJitBlock *b)
{
    for (int p = 0; p < b->n - 1 && R->st == NG_OK; p++) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind != NG_JIT_S_IF || s->orelse.n || s->body.n < 1 ||
            s->body.stmts[s->body.n - 1]->kind != NG_JIT_S_CONTINUE)
            continue;
        NgJitSpan sp = start_of(b->stmts[p + 1]->span);
        NgJitStmt *g = alloc(R, sizeof *g);
        NgJitStmt **rest = alloc(R, (size_t)(b->n - p - 1) * sizeof *rest);
        NgJitStmt **head = alloc(R, (size_t)(p + 1) * sizeof *head);
        if (!g || !rest || !head)
            return;
        memcpy(rest, b->stmts + p + 1, (size_t)(b->n - p - 1) * sizeof *rest);
        *g = *s;
        g->span.end_line = b->stmts[b->n - 1]->span.end_line;
        g->span.end_col = b->stmts[b->n - 1]->span.end_col;
        g->span.end_off = b->stmts[b->n - 1]->span.end_off;
        NgJitBlock tail = {rest, b->n - p - 1};
        if (s->body.n == 1) { /* if not c: D */
            NgJitExpr *n = node(R, NG_JIT_E_UNARY, s->test->span);
            if (!n)
                return;
            n->op = NG_JIT_OP_NOT;
            n->lhs = s->test;
            n->height = s->test->height + 1;
            if (n->height > NG_JIT_MAX_DEPTH)
                continue;
            g->test = n;
            g->body = tail;
            g->else_line = 0;
        } else {
            g->body = (NgJitBlock){s->body.stmts, s->body.n - 1};
            g->orelse = tail;
            g->else_line = sp.line;
        }
        memcpy(head, b->stmts, (size_t)p * sizeof *head);
        head[p] = g;
        set_block(R, b, (NgJitBlock){head, p + 1});
        guard_continues(R, s->body.n == 1 ? &g->body : &g->orelse);
        const NgJitStmt *in = g->body.n == 1 ? g->body.stmts[0] : NULL;
        if (s->body.n == 1 && in && in->kind == NG_JIT_S_IF && !in->orelse.n) { /* if not c and t: (a search's) */
            NgJitExpr *both = node(R, NG_JIT_E_BOOLOP, g->test->span);
            if (!both)
                return;
            both->op = NG_JIT_OP_AND;
            both->lhs = g->test;
            both->rhs = in->test;
            both->height = (g->test->height > in->test->height ? g->test->height : in->test->height) + 1;
            if (both->height > NG_JIT_MAX_DEPTH)
                return;
            g->test = both;
            g->body = in->body;
        }
        return;
    }
}

/* ---- reductions of a generator expression (gen_reductions) ----
 *
 *   out[i] = sum(X[i, j] ** 2 for j in range(m) if X[i, j] > 0)
 * becomes
 *   __ng_g1 = 0
 *   for __ng_v1 in range(m):
 *       if X[i, __ng_v1] > 0:
 *           __ng_g1 += sum(__ng_item=X[i, __ng_v1] ** 2)
 *   out[i] = __ng_g1
 * Python's order and start: sum(g, start) starts from start; any(g) (all(g)) is False (True)
 * until an element is true (false), then breaks:
 *   __ng_g1 = False
 *   for __ng_v1 in range(...):
 *       if any(__ng_item=e):
 *           __ng_g1 = True
 *           break
 * min(g) and max(g) (no `if`, a step written as a literal) take the first element, then each
 * later one as max(__ng_g1, e) does (Python's max keeps the first of equal ones):
 *   __ng_e1 = max(__ng_empty=a >= b)
 *   __ng_g1 = e(a)
 *   for __ng_v1 in range(a + step, b, step):
 *       __ng_g1 = max(__ng_g1, e(__ng_v1))
 * The call must be evaluated whenever its statement is (an assignment's or an expression's value,
 * an `if`'s test; not under `and`, `or`, `x if c else y`, or a comparison's later operands), its
 * generator one `for` over range() of pure arguments (names, literals, operators, subscripts). */

static const char *gen_fn(const NgJitExpr *e)
{
    static const char *const fns[] = {"sum", "min", "max", "any", "all", NULL};
    if (!e || e->kind != NG_JIT_E_CALL || e->lhs->kind != NG_JIT_E_NAME || e->nkeywords || e->nitems < 1 ||
        e->items[0]->kind != NG_JIT_E_GENEXP)
        return NULL;
    const char *fn = NULL;
    for (int i = 0; fns[i]; i++)
        fn = strcmp(e->lhs->name, fns[i]) == 0 ? fns[i] : fn;
    if (!fn || e->nitems > (fn[0] == 's' && fn[1] == 'u' ? 2 : 1))
        return NULL;
    const NgJitExpr *g = e->items[0];
    if (g->ngens != 1 || g->gens[0].is_async || g->gens[0].target->kind != NG_JIT_E_NAME)
        return NULL;
    const NgJitExpr *it = g->gens[0].iter;
    if (it->kind != NG_JIT_E_CALL || it->lhs->kind != NG_JIT_E_NAME || strcmp(it->lhs->name, "range") != 0 ||
        it->nkeywords || it->nitems < 1 || it->nitems > 3)
        return NULL;
    for (int i = 0; i < it->nitems; i++)
        if (it->items[i]->kind == NG_JIT_E_STARRED || !pure_expr(it->items[i]))
            return NULL;
    if (e->nitems == 2 && (e->items[1]->kind == NG_JIT_E_STARRED || e->items[1]->python))
        return NULL;
    int64_t step = 1;
    if ((fn[1] == 'i' || fn[1] == 'a') && (g->gens[0].nifs || (it->nitems == 3 && !int_literal(it->items[2], &step)) ||
                                           step == 0))
        return NULL;
    return fn;
}

/* The slot of the first generator reduction (gen_fn) e evaluates whenever it is evaluated. */
static NgJitExpr **gen_slot(NgJitExpr **slot)
{
    NgJitExpr *e = *slot;
    if (!e)
        return NULL;
    NgJitExpr **r = NULL;
    switch (e->kind) {
    case NG_JIT_E_BOOLOP:
        return gen_slot(&e->lhs);
    case NG_JIT_E_IFEXP:
        return gen_slot(&e->cond);
    case NG_JIT_E_COMPARE:
        for (int i = 0; i < 2 && i < e->nitems && !r; i++)
            r = gen_slot(&e->items[i]);
        return r;
    case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP:
    case NG_JIT_E_GENEXP: case NG_JIT_E_LAMBDA: case NG_JIT_E_STR: case NG_JIT_E_NAMED:
        return NULL;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nitems && !r; i++) /* (the arguments first: an inner one is rewritten first) */
            r = gen_slot(&e->items[i]);
        if (r)
            return r;
        if (gen_fn(e))
            return slot;
        for (int i = 0; i < e->nkeywords && !r; i++)
            r = gen_slot(&e->keywords[i].value);
        return r;
    default:
        break;
    }
    if (!r)
        r = gen_slot(&e->lhs);
    if (!r)
        r = gen_slot(&e->rhs);
    if (!r)
        r = gen_slot(&e->cond);
    for (int i = 0; i < e->nitems && !r; i++)
        r = gen_slot(&e->items[i]);
    return r;
}

/* Recomputes e's `python` (parse.c: set where it or a part of it is Python syntax). */
static bool repython(NgJitExpr *e)
{
    if (!e)
        return false;
    bool py = repython(e->lhs);
    py = repython(e->rhs) || py; /* (each kid recomputed, not only up to the first) */
    py = repython(e->cond) || py;
    for (int i = 0; i < e->nitems && e->kind != NG_JIT_E_STR; i++)
        py = repython(e->items[i]) || py;
    switch (e->kind) {
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            py = repython(e->keys[i]) || py;
        break;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            py = repython(e->keywords[i].value) || py;
        break;
    case NG_JIT_E_SET: case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
    case NG_JIT_E_LAMBDA: case NG_JIT_E_AWAIT: case NG_JIT_E_YIELD: case NG_JIT_E_YIELD_FROM:
        return e->python = true;
    case NG_JIT_E_STR:
        return e->python;
    default:
        break;
    }
    return e->python = py;
}

static NgJitExpr *const_expr(Rewriter *R, NgJitConst v, NgJitSpan sp)
{
    NgJitExpr *e = node(R, NG_JIT_E_CONST, sp);
    if (e)
        e->cval = v;
    return e;
}

/* fn(<keyword>=v) (NG_JIT_GEN_ITEM, NG_JIT_GEN_EMPTY) */
static NgJitExpr *gen_marker(Rewriter *R, const char *fn, const char *kw, NgJitExpr *v, NgJitSpan sp)
{
    NgJitExpr *e = node(R, NG_JIT_E_CALL, sp), *f = name(R, fn, NG_JIT_LOAD, sp);
    NgJitKeyword *k = alloc(R, sizeof *k);
    int id = name_id(R, kw);
    if (!e || !f || !k || !v || id < 0)
        return NULL;
    e->lhs = f;
    k->name = R->ast->names[id];
    k->name_id = id;
    k->value = v;
    k->span = sp;
    e->keywords = k;
    e->nkeywords = 1;
    e->height = v->height + 1;
    return e;
}

/* The statements that compute the generator reduction *slot into a new name, which replaces it;
 * false where nothing was made. */
static bool gen_hoist(Rewriter *R, NgJitBlock *b, int p, NgJitExpr **slot)
{
    const NgJitExpr *c = *slot;
    const char *fn = gen_fn(c);
    const NgJitExpr *g = c->items[0], *it = g->gens[0].iter;
    NgJitSpan sp = c->span, at = start_of(b->stmts[p]->span); /* (statements made: where it starts) */
    int var = g->gens[0].target->name_id;
    char gname[32], vname[32];
    int k = ++R->nloops;
    snprintf(gname, sizeof gname, "__ng_g%d", k);
    snprintf(vname, sizeof vname, "__ng_v%d", k);
    NgJitExpr *v = name(R, vname, NG_JIT_LOAD, sp);
    NgJitExpr *elt = v ? copy_with(R, g->lhs, var, v) : NULL;
    NgJitStmt *made[3] = {0};
    int nmade = 0;
    NgJitExpr *args[3];
    for (int i = 0; i < it->nitems; i++)
        args[i] = dup(R, it->items[i]);
    NgJitStmt *body = NULL;
    if (fn[1] == 'u' || fn[1] == 'n' || fn[1] == 'l') { /* sum, any, all */
        NgJitExpr *start = fn[1] == 'u' ? (c->nitems == 2 ? dup(R, c->items[1]) : int_lit(R, 0, sp))
                                         : const_expr(R, fn[1] == 'n' ? NG_JIT_C_FALSE : NG_JIT_C_TRUE, sp);
        NgJitExpr *to = name(R, gname, NG_JIT_STORE, sp);
        made[nmade++] = to ? assign(R, to, start, at) : NULL;
        NgJitExpr *item = gen_marker(R, fn, NG_JIT_GEN_ITEM, elt, sp);
        if (fn[1] == 'u') {
            body = alloc(R, sizeof *body);
            NgJitExpr *t = name(R, gname, NG_JIT_STORE, sp);
            if (!body || !t || !item)
                return false;
            body->kind = NG_JIT_S_AUGASSIGN;
            body->span = at;
            body->target = t;
            body->op = NG_JIT_OP_ADD;
            body->value = item;
        } else {
            if (fn[1] == 'l' && item) { /* all: not e */
                NgJitExpr *n = node(R, NG_JIT_E_UNARY, sp);
                if (n)
                    n->op = NG_JIT_OP_NOT, n->lhs = item, n->height = item->height + 1;
                item = n;
            }
            NgJitExpr *t = name(R, gname, NG_JIT_STORE, sp);
            NgJitStmt *then[2] = {t ? assign(R, t, const_expr(R, fn[1] == 'n' ? NG_JIT_C_TRUE : NG_JIT_C_FALSE, sp), at)
                                    : NULL,
                                  jump(R, NG_JIT_S_BREAK, at)};
            body = if_stmt(R, item, then, 2, at);
        }
        for (int q = g->gens[0].nifs - 1; q >= 0 && body; q--)
            body = if_stmt(R, copy_with(R, g->gens[0].ifs[q], var, v), &body, 1, at);
    } else { /* min, max: the first element, then the others */
        int64_t step = 1;
        if (it->nitems == 3)
            int_literal(it->items[2], &step);
        NgJitExpr *lo = it->nitems == 1 ? int_lit(R, 0, sp) : args[0];
        NgJitExpr *hi = it->nitems == 1 ? args[0] : args[1];
        NgJitExpr *empty = compare(R, step > 0 ? NG_JIT_OP_GE : NG_JIT_OP_LE, dup(R, lo), dup(R, hi), sp);
        char ename[32];
        snprintf(ename, sizeof ename, "__ng_e%d", k);
        NgJitExpr *e = name(R, ename, NG_JIT_STORE, sp);
        made[nmade++] = e ? assign(R, e, gen_marker(R, fn, NG_JIT_GEN_EMPTY, empty, sp), at) : NULL;
        NgJitExpr *to = name(R, gname, NG_JIT_STORE, sp);
        NgJitExpr *first = copy_with(R, g->lhs, var, lo);
        made[nmade++] = to && first ? assign(R, to, first, at) : NULL;
        args[0] = binary(R, NG_JIT_OP_ADD, dup(R, lo), int_lit(R, step, sp), sp);
        args[1] = dup(R, hi);
        args[2] = int_lit(R, step, sp);
        NgJitExpr *t = name(R, gname, NG_JIT_STORE, sp);
        NgJitExpr *both = call(R, fn, (NgJitExpr *[]){name(R, gname, NG_JIT_LOAD, sp), elt}, 2, sp);
        body = t && both ? assign(R, t, both, at) : NULL;
    }
    int nargs = fn[1] == 'i' || fn[1] == 'a' ? 3 : it->nitems;
    made[nmade++] = body ? loop_over(R, vname, args, nargs, &body, 1, at) : NULL;
    NgJitExpr *use = name(R, gname, NG_JIT_LOAD, sp);
    for (int i = 0; i < nmade; i++)
        if (!made[i])
            return false;
    if (!use || R->over || R->st != NG_OK)
        return false;
    NgJitStmt *with[4];
    for (int i = 0; i < nmade; i++)
        with[i] = made[i];
    with[nmade] = b->stmts[p];
    set_expr(R, slot, use);
    splice(R, b, p, with, nmade + 1);
    return true;
}

/* Rewrites the generator reductions of the statements of b (and of the blocks in it). */
static void gen_reductions(Rewriter *R, NgJitBlock *b, int *made)
{
    for (int p = 0; p < b->n && R->st == NG_OK; p++) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_OTHER || s->kind == NG_JIT_S_DEF)
            continue;
        gen_reductions(R, &s->body, made);
        gen_reductions(R, &s->orelse, made);
        if (s->kind != NG_JIT_S_ASSIGN && s->kind != NG_JIT_S_AUGASSIGN && s->kind != NG_JIT_S_EXPR &&
            s->kind != NG_JIT_S_IF)
            continue;
        NgJitExpr **slot = gen_slot(s->kind == NG_JIT_S_IF ? &s->test : &s->value);
        if (!slot || ++*made > 64)
            continue;
        int mark = R->nlog, nloops = R->nloops;
        R->budget = REWRITE_BUDGET;
        R->over = false;
        bool ok = gen_hoist(R, b, p, slot);
        if (!ok || R->over || reheight_block(*b) > NG_JIT_MAX_DEPTH) {
            undo(R, mark);
            R->nloops = nloops;
            reheight_block(*b);
            repython(s->kind == NG_JIT_S_IF ? s->test : s->value);
            R->nlog = mark;
            continue;
        }
        R->nlog = mark;
        repython(s->kind == NG_JIT_S_IF ? s->test : s->value);
        p--; /* (the statements made, then this one again: a generator inside an element, or another) */
    }
}

static void pre_lets(Rewriter *R, NgJitBlock *b, bool in_loop)
{
    for (int p = 0; p < b->n && R->st == NG_OK; p++) {
        NgJitStmt *s = b->stmts[p];
        if (s->kind == NG_JIT_S_OTHER)
            continue;
        bool loop = s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE;
        pre_lets(R, &s->body, s->kind == NG_JIT_S_DEF ? false : in_loop || loop);
        pre_lets(R, &s->orelse, in_loop);
        if (s->kind == NG_JIT_S_FOR && s->pre_name && in_loop) {
            R->budget = REWRITE_BUDGET;
            R->over = false;
            NgJitExpr *t = name(R, s->pre_name, NG_JIT_STORE, s->pre_value->span), *v = dup(R, s->pre_value);
            NgJitStmt *with[2] = {t && v ? assign(R, t, v, start_of(s->span)) : NULL, s};
            if (with[0] && !R->over && R->st == NG_OK) {
                splice(R, b, p, with, 2);
                p++;
            }
        }
    }
}

static void rewrite_block(Rewriter *R, NgJitBlock b)
{
    for (int i = 0; i < b.n && R->st == NG_OK; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER)
            continue;
        NgJitBlock scope = R->scope;
        if (s->kind == NG_JIT_S_DEF && !s->is_generator) {
            return_loops(R, &s->body); /* (first: the loops it rewrites still go through the rest) */
            else_loops(R, &s->body);   /* (then: a return became a break, which skips the else) */
        }
        if (s->kind == NG_JIT_S_DEF)
            R->scope = s->body;
        bool keep = false;
        for (int k = 0; k < R->nkeep; k++)
            keep = keep || R->keep[k] == s->span.off;
        if (s->kind == NG_JIT_S_FOR && !keep && !s->orelse.n) {
            R->budget = REWRITE_BUDGET; /* (its own: else it had what an earlier rewrite left, none
                                           in a module's first loop, and gave up there) */
            R->over = false;
            guard_continues(R, &s->body);
        }
        if (s->kind == NG_JIT_S_FOR && !keep && R->depth == 0)
            last_values(R, s); /* (the outermost loop only: inside a loop in order it would make that
                                  a host loop, which launches it once per iteration) */
        if (s->kind == NG_JIT_S_FOR && !keep) {
            int made = 0;
            gen_reductions(R, &s->body, &made);
        }
        if (s->kind == NG_JIT_S_FOR && !keep)
            name_slices(R, &s->body); /* (before its loops over them become range loops) */
        int depth = R->depth;
        R->depth = s->kind == NG_JIT_S_DEF ? 0 : depth + (s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE);
        rewrite_block(R, s->body); /* (inner loops first: the body's stores are the written ones) */
        R->depth = depth;
        R->scope = scope;
        rewrite_block(R, s->orelse);
        if (s->kind == NG_JIT_S_FOR && !s->orelse.n)
            rewrite(R, s);
        if (s->kind == NG_JIT_S_FOR && !keep)
            rewrite_lets(R, s);
        if (s->kind == NG_JIT_S_FOR && !keep)
            tuple_lets(R, s);
        if (s->kind == NG_JIT_S_FOR)
            hand_argmax(R, s);
    }
}

NgStatus ng_jit_desugar(NgJitAst *ast) { return ng_jit_desugar_keeping(ast, NULL, 0); }

NgStatus ng_jit_desugar_keeping(NgJitAst *ast, const uint32_t *keep, int nkeep)
{
    Rewriter R = {.ast = ast, .scope = ast->body, .keep = keep, .nkeep = nkeep, .st = NG_OK};
    rewrite_block(&R, ast->body);
    pre_lets(&R, &ast->body, false);
    ng_free(R.log);
    return R.st;
}

/* ---- the three loops of a scan (ng_jit_scan_phases) ---- */

static NgJitExpr *load(Rewriter *R, const char *s, NgJitSpan span) { return name(R, s, NG_JIT_LOAD, span); }

/* The combination of x and y by the scan's operator. */
static NgJitExpr *combined(Rewriter *R, NgJitRedOp op, NgJitExpr *x, NgJitExpr *y, NgJitSpan sp)
{
    switch (op) {
    case NG_JIT_RED_MAX: return call(R, "max", (NgJitExpr *[]){x, y}, 2, sp);
    case NG_JIT_RED_MIN: return call(R, "min", (NgJitExpr *[]){x, y}, 2, sp);
    case NG_JIT_RED_MUL: return binary(R, NG_JIT_OP_MUL, x, y, sp);
    case NG_JIT_RED_OR: return binary(R, NG_JIT_OP_BITOR, x, y, sp);
    case NG_JIT_RED_AND: return binary(R, NG_JIT_OP_BITAND, x, y, sp);
    case NG_JIT_RED_XOR: return binary(R, NG_JIT_OP_BITXOR, x, y, sp);
    default: return binary(R, NG_JIT_OP_ADD, x, y, sp);
    }
}

/* Where a block's partial result starts, of the type of the value x(): the
 * operator's identity made from it (x - x, x ^ x, x - x + 1), or x itself for
 * max, min, | and &, which take it in again at no harm (it is the value every
 * combination starts from). */
static NgJitExpr *partial_start(Rewriter *R, NgJitRedOp op, NgJitExpr *(*x)(Rewriter *, const void *),
                                const void *arg, NgJitSpan sp)
{
    switch (op) {
    case NG_JIT_RED_ADD: return binary(R, NG_JIT_OP_SUB, x(R, arg), x(R, arg), sp);
    case NG_JIT_RED_XOR: return binary(R, NG_JIT_OP_BITXOR, x(R, arg), x(R, arg), sp);
    case NG_JIT_RED_MUL:
        return binary(R, NG_JIT_OP_ADD, binary(R, NG_JIT_OP_SUB, x(R, arg), x(R, arg), sp), int_lit(R, 1, sp), sp);
    default: return x(R, arg);
    }
}

/* What the partial results start from: the accumulator's value before the loop, or the
 * recurrence's first read a[__ng_st - step]. */
typedef struct Start {
    const char *acc;        /* the accumulator, or NULL */
    const NgJitExpr *array; /* the recurrence's array (a NAME) */
    NgJitExpr *at;          /* its index */
    NgJitSpan span;
} Start;

static NgJitExpr *start_value(Rewriter *R, const void *arg)
{
    const Start *st = arg;
    if (st->acc)
        return load(R, st->acc, st->span);
    return subscript(R, st->array, copy_with(R, st->at, -1, NULL), st->span);
}

/* The recurrence's new element with x read for a[i - step]: its value, or
 * an augmented assignment's `a[i] op value`. */
static NgJitExpr *recurrence_value(Rewriter *R, const NgJitLoopInfo *info, const NgJitExpr *target, const char *x)
{
    const NgJitStmt *u = info->scan_update;
    NgJitExpr *v = copy_sub(R, u->value, -1, info->scan_prev, load(R, x, u->span));
    return u->kind == NG_JIT_S_AUGASSIGN ? binary(R, u->op, copy_with(R, target, -1, NULL), v, u->span) : v;
}

/* The first statements of a phase's block b: __ng_lo = b * max(__ng_ch, 0);
 * __ng_hi = min(__ng_n, __ng_lo + __ng_ch); __ng_st = <the range's start>.
 * (The max, a no-op, tells the lowering that the iterations' numbers are >=
 * 0: then so is an index start + c * step with start >= 0, step > 0, and its
 * read needs no wrap, which would keep the C compiler from vectorising.) */
static void block_bounds(Rewriter *R, const NgJitExpr *start, NgJitSpan sp, NgJitStmt **out)
{
    NgJitExpr *ch = call(R, "max", (NgJitExpr *[]){load(R, NG_JIT_SCAN_CHUNK, sp), int_lit(R, 0, sp)}, 2, sp);
    out[0] = assign(R, load(R, NG_JIT_SCAN_LO, sp), binary(R, NG_JIT_OP_MUL, load(R, NG_JIT_SCAN_B, sp), ch, sp), sp);
    out[1] = assign(R, load(R, NG_JIT_SCAN_HI, sp),
                    call(R, "min", (NgJitExpr *[]){load(R, NG_JIT_SCAN_N, sp),
                                                   binary(R, NG_JIT_OP_ADD, load(R, NG_JIT_SCAN_LO, sp),
                                                          load(R, NG_JIT_SCAN_CHUNK, sp), sp)}, 2, sp), sp);
    out[2] = assign(R, load(R, NG_JIT_SCAN_ST, sp), start ? copy_with(R, start, -1, NULL) : int_lit(R, 0, sp), sp);
}

/* for __ng_c in range(__ng_lo, __ng_hi): i = __ng_st + __ng_c * step; body[0..n) */
static NgJitStmt *block_loop(Rewriter *R, const NgJitStmt *loop, int64_t step, NgJitStmt **body, int n,
                             NgJitSpan sp)
{
    NgJitStmt **stmts = alloc(R, (size_t)(n + 1) * sizeof *stmts);
    if (!stmts)
        return NULL;
    stmts[0] = assign(R, loop->target,
                      binary(R, NG_JIT_OP_ADD, load(R, NG_JIT_SCAN_ST, sp),
                             binary(R, NG_JIT_OP_MUL, load(R, NG_JIT_SCAN_C, sp), int_lit(R, step, sp), sp), sp), sp);
    for (int i = 0; i < n; i++)
        stmts[1 + i] = body[i];
    return loop_over(R, NG_JIT_SCAN_C, (NgJitExpr *[]){load(R, NG_JIT_SCAN_LO, sp), load(R, NG_JIT_SCAN_HI, sp)}, 2,
                     stmts, n + 1, sp);
}

/* __ng_part[__ng_b] */
static NgJitExpr *part_b(Rewriter *R, NgJitSpan sp)
{
    NgJitExpr *part = load(R, NG_JIT_SCAN_PART, sp);
    return part ? subscript(R, part, load(R, NG_JIT_SCAN_B, sp), sp) : NULL;
}

/* A block of one statement: the update of branch b (its last statement, after a compaction's
 * stores, which the partial results leave out) into `to`; an elif's whole `if` (b's one statement). */
static NgJitStmt *update_into(Rewriter *R, const NgJitStmt *u, int id, const char *to);

static NgJitBlock branch_into(Rewriter *R, NgJitBlock b, int id, const char *to)
{
    NgJitStmt **one = alloc(R, sizeof *one);
    if (!one || !b.n || !(one[0] = update_into(R, b.stmts[b.n - 1], id, to)))
        return (NgJitBlock){NULL, 0};
    return (NgJitBlock){one, 1};
}

/* A copy of the accumulator's update statement u (`s op= e`, `s = ...`, or
 * under an `if`: a compaction's ifs, elifs and else each end with one) that
 * updates `to` instead of s (name id). */
static NgJitStmt *update_into(Rewriter *R, const NgJitStmt *u, int id, const char *to)
{
    NgJitStmt *c = alloc(R, sizeof *c);
    if (!c)
        return NULL;
    *c = *u;
    if (u->kind == NG_JIT_S_IF) {
        c->body = branch_into(R, u->body, id, to);
        c->orelse = u->orelse.n ? branch_into(R, u->orelse, id, to) : u->orelse;
        return c->body.n && (c->orelse.n || !u->orelse.n) ? c : NULL;
    }
    NgJitExpr *x = load(R, to, u->span);
    if (u->kind == NG_JIT_S_AUGASSIGN)
        return x ? (c->target = name(R, to, NG_JIT_STORE, u->target->span), c) : NULL;
    NgJitExpr **t = alloc(R, sizeof *t);
    if (!t || !x || !(t[0] = name(R, to, NG_JIT_STORE, u->targets[0]->span)) ||
        !(c->value = copy_with(R, u->value, id, x)))
        return NULL;
    c->targets = t;
    return c;
}

NgStatus ng_jit_scan_phases(NgJitAst *ast, const NgJitLoopInfo *info, NgJitStmt *phase[3])
{
    Rewriter R = {.ast = ast, .scope = ast->body, .budget = REWRITE_BUDGET, .st = NG_OK};
    const NgJitStmt *loop = info->stmt, *u = info->scan_update;
    const NgJitExpr *it = loop->test, *start = it->nitems > 1 ? it->items[0] : NULL;
    NgJitSpan sp = loop->span;
    int64_t step = info->scan_step;
    phase[0] = phase[1] = phase[2] = NULL;
    if (!info->scan)
        return ng_error_set(NG_ERR_VALUE, "ng_jit_scan_phases: not a scan");
    bool acc = info->scan_var >= 0;
    const char *s = acc ? ast->names[info->scan_var] : NG_JIT_SCAN_S;
    const NgJitExpr *target = acc ? NULL : u->kind == NG_JIT_S_AUGASSIGN ? u->target : u->targets[0];
    /* the recurrence's start a[__ng_st - step] (phase 0), a[<start> - step] (phase 1) */
    Start st0 = {acc ? s : NULL, acc ? NULL : target->lhs,
                 binary(&R, NG_JIT_OP_SUB, load(&R, NG_JIT_SCAN_ST, sp), int_lit(&R, step, sp), sp), sp};
    Start st1 = {NULL, st0.array, binary(&R, NG_JIT_OP_SUB, start ? copy_with(&R, start, -1, NULL) : int_lit(&R, 0, sp),
                                         int_lit(&R, step, sp), sp), sp};
    NgJitStmt *body0[8], *body2[8], *in[2];
    int n0 = 0, n2 = 0, nin = 0;

    /* phase 0: each block's partial result into __ng_part[b] */
    block_bounds(&R, start, sp, body0);
    n0 = 3;
    body0[n0++] = assign(&R, load(&R, NG_JIT_SCAN_P, sp), partial_start(&R, info->scan_op, start_value, &st0, sp), sp);
    NgJitStmt **pre = NULL;
    int npre = 0;
    if (acc) { /* the names assigned before the update, then the update into __ng_p */
        int at = 0;
        while (at < loop->body.n && loop->body.stmts[at] != u)
            at++;
        pre = alloc(&R, (size_t)(at + 1) * sizeof *pre);
        for (int i = 0; pre && i < at; i++)
            if (loop->body.stmts[i]->targets[0]->kind == NG_JIT_E_NAME)
                pre[npre++] = loop->body.stmts[i];
        if (pre)
            pre[npre++] = update_into(&R, u, info->scan_var, NG_JIT_SCAN_P);
    } else {
        pre = alloc(&R, sizeof *pre);
        if (pre)
            pre[npre++] = assign(&R, load(&R, NG_JIT_SCAN_P, sp), recurrence_value(&R, info, target, NG_JIT_SCAN_P),
                                 u->span);
    }
    body0[n0++] = pre ? block_loop(&R, loop, step, pre, npre, sp) : NULL;
    body0[n0++] = assign(&R, part_b(&R, sp), load(&R, NG_JIT_SCAN_P, sp), sp);
    phase[0] = loop_over(&R, NG_JIT_SCAN_B, (NgJitExpr *[]){load(&R, NG_JIT_SCAN_NB, sp)}, 1, body0, n0, sp);

    /* phase 1, in order: each block's start into __ng_part[b], s combined on */
    NgJitStmt *carry[3] = {
        assign(&R, load(&R, NG_JIT_SCAN_T, sp), part_b(&R, sp), sp),
        assign(&R, part_b(&R, sp), load(&R, s, sp), sp),
        assign(&R, load(&R, s, sp), combined(&R, info->scan_op, load(&R, s, sp), load(&R, NG_JIT_SCAN_T, sp), sp), sp),
    };
    NgJitExpr *nonempty = compare(&R, NG_JIT_OP_LT, binary(&R, NG_JIT_OP_MUL, load(&R, NG_JIT_SCAN_B, sp),
                                                          load(&R, NG_JIT_SCAN_CHUNK, sp), sp),
                                  load(&R, NG_JIT_SCAN_N, sp), sp);
    if (!acc) { /* __ng_s starts as the recurrence's first read */
        NgJitStmt *first = assign(&R, load(&R, s, sp), start_value(&R, &st1), sp);
        in[nin++] = if_stmt(&R, compare(&R, NG_JIT_OP_EQ, load(&R, NG_JIT_SCAN_B, sp), int_lit(&R, 0, sp), sp),
                            &first, 1, sp);
    }
    in[nin++] = if_stmt(&R, nonempty, carry, 3, sp);
    phase[1] = loop_over(&R, NG_JIT_SCAN_B, (NgJitExpr *[]){load(&R, NG_JIT_SCAN_NB, sp)}, 1, in, nin, sp);

    /* phase 2: each block in order from its start */
    block_bounds(&R, start, sp, body2);
    n2 = 3;
    body2[n2++] = assign(&R, load(&R, s, sp), part_b(&R, sp), sp);
    if (acc) {
        body2[n2++] = block_loop(&R, loop, step, loop->body.stmts, loop->body.n, sp);
    } else {
        NgJitStmt *two[2] = {assign(&R, load(&R, s, sp), recurrence_value(&R, info, target, s), u->span),
                             assign(&R, target, load(&R, s, sp), u->span)};
        body2[n2++] = block_loop(&R, loop, step, two, 2, sp);
    }
    phase[2] = loop_over(&R, NG_JIT_SCAN_B, (NgJitExpr *[]){load(&R, NG_JIT_SCAN_NB, sp)}, 1, body2, n2, sp);
    if (R.st == NG_OK && (R.over || !phase[0] || !phase[1] || !phase[2]))
        R.st = ng_error_set(NG_ERR_UNSUPPORTED, "%s:%d: the scan's loops could not be made", ast->filename,
                            loop->span.line);
    if (R.st != NG_OK)
        phase[0] = phase[1] = phase[2] = NULL;
    ng_free(R.log);
    return R.st;
}
