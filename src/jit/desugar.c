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
 */
#include <stdio.h>
#include <string.h>

#include "jit/desugar.h"

typedef struct Rewriter {
    NgJitAst *ast;
    int nloops; /* rewritten so far: their counters are __ng_k1, __ng_k2 ... */
    NgStatus st;
} Rewriter;

static void *alloc(Rewriter *R, size_t n)
{
    void *p = R->st == NG_OK ? ng_jit_arena_alloc(&R->ast->arena, n) : NULL;
    if (!p && R->st == NG_OK)
        R->st = ng_error_set(NG_ERR_NOMEM, "out of memory rewriting the loops of %s", R->ast->filename);
    if (p)
        memset(p, 0, n);
    return p;
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

/* Rewrites FOR statement s when it iterates over arrays in one of the forms above. */
static void rewrite(Rewriter *R, NgJitStmt *s)
{
    const NgJitExpr *it = s->test, *t = s->target;
    const NgJitExpr *seqs[8];
    const NgJitExpr *vals[8]; /* the targets the elements go to */
    int nseq = 0;
    const NgJitExpr *index = NULL, *start = NULL; /* enumerate's index target and start */
    if (t->kind == NG_JIT_E_NAME && plain_iterable(it) && it->kind != NG_JIT_E_INT) {
        seqs[0] = it, vals[0] = t, nseq = 1;
    } else if (is_call_of(it, "enumerate") && (it->nitems == 1 || it->nitems == 2) && all_names(t, 2) &&
               plain_iterable(it->items[0]) && it->items[0]->kind != NG_JIT_E_INT &&
               (it->nitems == 1 || it->items[1]->kind == NG_JIT_E_NAME || it->items[1]->kind == NG_JIT_E_INT)) {
        index = t->items[0], seqs[0] = it->items[0], vals[0] = t->items[1], nseq = 1;
        start = it->nitems == 2 ? it->items[1] : NULL;
    } else if (is_call_of(it, "zip") && it->nitems >= 1 && it->nitems <= 8 && all_names(t, it->nitems)) {
        for (int i = 0; i < it->nitems; i++) {
            if (!plain_iterable(it->items[i]) || it->items[i]->kind == NG_JIT_E_INT)
                return;
            seqs[i] = it->items[i], vals[i] = t->items[i];
        }
        nseq = it->nitems;
    } else {
        return;
    }
    /* Python evaluates the iterable once: it may read no name the loop assigns */
    int n = R->ast->nnames;
    bool *stored = alloc(R, (size_t)(n + 1) * sizeof *stored);
    if (!stored)
        return;
    mark_stores(s->body, stored, n);
    mark_target(t, stored, n);
    if (reads_any(it, stored, n))
        return;
    for (int i = 0; i < nseq; i++)
        for (int j = 0; j < i; j++)
            if (vals[i]->name_id == vals[j]->name_id)
                return; /* (zip into one name twice: Python's last wins; left alone) */
    if (index && index->name_id == vals[0]->name_id)
        return;
    NgJitSpan sp = it->span;
    char counter[32];
    snprintf(counter, sizeof counter, "__ng_k%d", ++R->nloops);
    const char *k = index ? index->name : counter; /* enumerate's index is the loop variable */
    NgJitExpr *stop = NULL;
    for (int i = 0; i < nseq; i++) {
        NgJitExpr *arg = load_copy(R, seqs[i]);
        NgJitExpr *len = call(R, "len", &arg, 1, sp);
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
    for (int i = 0; i < nseq; i++) { /* v = x[k], or x[i - s] */
        NgJitExpr *at_k = name(R, k, NG_JIT_LOAD, sp);
        NgJitExpr *elem = subscript(R, seqs[i], start ? binary(R, NG_JIT_OP_SUB, at_k, load_copy(R, start), sp) : at_k,
                                    seqs[i]->span);
        if (!(stmts[at++] = assign(R, vals[i], elem, vals[i]->span)))
            return;
    }
    memcpy(stmts + at, s->body.stmts, (size_t)s->body.n * sizeof *stmts);
    if (R->st != NG_OK)
        return;
    s->target = var;
    s->test = range;
    s->body = (NgJitBlock){stmts, nseq + s->body.n};
}

static void rewrite_block(Rewriter *R, NgJitBlock b)
{
    for (int i = 0; i < b.n && R->st == NG_OK; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_OTHER)
            continue;
        rewrite_block(R, s->body); /* (inner loops first: the body's stores are the written ones) */
        rewrite_block(R, s->orelse);
        if (s->kind == NG_JIT_S_FOR && !s->orelse.n)
            rewrite(R, s);
    }
}

NgStatus ng_jit_desugar(NgJitAst *ast)
{
    Rewriter R = {ast, 0, NG_OK};
    rewrite_block(&R, ast->body);
    return R.st;
}
