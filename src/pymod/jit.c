/* numgpu._core's jit entry points: the bridge between the Python decorator
 * (python/numgpu/jit.py) and the C compiler (src/jit).
 *
 *   jit_program(source, filename, funcname)  -> (program, loops)
 *       parses the source, analyses the function's loops; `program` is a
 *       capsule owning the AST and the analysis, `loops` one dict per loop
 *       (line, end_line, col, kind, reductions, atomic, reason, ...).
 *   jit_launch(program, globals, local_names, boundscheck, line_offset, state,
 *              launched, loop_index, locals, assigned) -> dict or None
 *       (the first seven bound once per function)
 *       types the loop's free variables from their current values, lowers
 *       the loop for those types (cached as a kernel), uploads NumPy arrays,
 *       launches, writes written NumPy arrays back and returns the values of
 *       the scalars the host needs after the loop ("cells").
 * Values the kernel cannot take (a list, a dict, an aliased array) return
 * None (the reason in launched[loop_index]): the host plan then runs the
 * loop as Python. */
#include "pymod.h"

#include <string.h>
#include <unistd.h>

#include "jit/analyze.h"
#include "jit/desugar.h"
#include "jit/jit.h"
#include "jit/lower.h"
#include "kernel/kernel.h"

/* What lowering said about one (loop, types, plan): kept so a loop reached
 * again (inside a host loop, say) is launched without lowering it again. */
typedef struct Lowered {
    char *key;           /* ng_jit_lower_key bytes */
    size_t keylen;
    NgJitLowered info;
} Lowered;

/* The free names of one loop (ng_jit_loop_names) with their interned str
 * keys: found at its first launch, looked up by every one. */
typedef struct LoopNames {
    const char **names;  /* ng_jit_loop_names' (the AST's strings; the array is ours) */
    PyObject **keys;     /* an interned str per name; NULL until the loop first launches */
    bool *sizes;         /* per name: a small array's length in the loop (ng_jit_sizes_array) */
    char *callee;        /* per name: 'b' called as a builtin, 'h' as a helper (callee_check), 0 */
    bool *early;         /* per name: the loop assigns it and may read it before any assignment
                            (maybe_unbound): unbound at the launch, Python may raise there */
    int n;               /* how many */
} LoopNames;

/* A scan loop's three loops (ng_jit_scan_phases) and its range, made at
 * its first launch. */
typedef struct Scan {
    int state;              /* 0 not made yet, 1 made, 2 cannot be (then it runs in order) */
    NgJitLoopInfo phase[3]; /* only .stmt set: what a launch reads */
    PyObject *range;        /* the loop's iterable, compiled as an expression (made: its trip count) */
} Scan;

typedef struct Program {
    NgJitAst *ast;
    const NgJitStmt *func;
    NgJitLoops *loops;
    Lowered *lowered;    /* grows; one per signature seen */
    int nlowered, cap_lowered;
    LoopNames *names;    /* one per loop, made as loops launch (NULL until then) */
    int nnames;
    PyObject *strs[64];  /* the result dicts' keys and notes, made once (str_of) */
    int nstrs;
    Scan *scans;         /* one per loop, made as scan loops launch (NULL until then) */
    int nscans;
    PyObject **pres;     /* per loop, its FOR.pre_value compiled (a hand argmax's best: x[k]);
                            NULL until a launch needs one */
    int npres;
} Program;

static void program_free(PyObject *capsule)
{
    Program *p = PyCapsule_GetPointer(capsule, "numgpu.jit.program");
    if (!p)
        return;
    if (p->loops)
        ng_jit_loops_free(p->loops);
    if (p->ast)
        ng_jit_ast_free(p->ast);
    for (int i = 0; i < p->nlowered; i++)
        PyMem_Free(p->lowered[i].key);
    PyMem_Free(p->lowered);
    for (int i = 0; i < p->nnames; i++) {
        for (int j = 0; p->names[i].keys && j < p->names[i].n; j++)
            Py_XDECREF(p->names[i].keys[j]);
        PyMem_Free(p->names[i].keys);
        PyMem_Free(p->names[i].sizes);
        PyMem_Free(p->names[i].callee);
        PyMem_Free(p->names[i].early);
        ng_free(p->names[i].names);
    }
    PyMem_Free(p->names);
    for (int i = 0; i < p->nstrs; i++)
        Py_DECREF(p->strs[i]);
    for (int i = 0; i < p->nscans; i++)
        Py_XDECREF(p->scans[i].range);
    PyMem_Free(p->scans);
    for (int i = 0; i < p->npres; i++)
        Py_XDECREF(p->pres[i]);
    PyMem_Free(p->pres);
    PyMem_Free(p);
}

/* s as an interned str (a new reference): the program's own, made at its
 * first use, while it has room (a launch returns a few of them each time). */
static PyObject *str_of(Program *p, const char *s)
{
    for (int i = 0; i < p->nstrs; i++)
        if (strcmp(PyUnicode_AsUTF8(p->strs[i]), s) == 0) {
            Py_INCREF(p->strs[i]);
            return p->strs[i];
        }
    PyObject *o = PyUnicode_InternFromString(s);
    if (o && p->nstrs < (int)(sizeof p->strs / sizeof *p->strs)) {
        Py_INCREF(o);
        p->strs[p->nstrs++] = o;
    }
    return o;
}

/* ---- what the names a loop calls are bound to ----
 * The front end compiles a call of a plain name as the builtin of that name
 * (ng_jit_call_kind) or as the def ng_jit_helper_def finds in the source;
 * Python calls whatever the name is bound to when the call runs. Each launch
 * checks that the binding is that object (and so on for the helpers a helper
 * calls, in its own scope), else the loop runs as Python. */

typedef void (*CallFn)(void *ctx, const NgJitExpr *call);

/* fn(ctx, call) for every call of a plain name in e (not in comprehensions or lambdas). */
static void each_call(const NgJitExpr *e, CallFn fn, void *ctx)
{
    if (!e)
        return;
    switch (e->kind) {
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
    case NG_JIT_E_LAMBDA: case NG_JIT_E_NAME: case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG:
    case NG_JIT_E_CONST: case NG_JIT_E_STR:
        return;
    case NG_JIT_E_CALL:
        if (e->lhs->kind == NG_JIT_E_NAME)
            fn(ctx, e);
        for (int i = 0; i < e->nkeywords; i++)
            each_call(e->keywords[i].value, fn, ctx);
        break;
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            each_call(e->keys[i], fn, ctx);
        break;
    default:
        break;
    }
    each_call(e->lhs, fn, ctx);
    each_call(e->rhs, fn, ctx);
    each_call(e->cond, fn, ctx);
    for (int i = 0; i < e->nitems; i++)
        each_call(e->items[i], fn, ctx);
}

static void each_call_block(NgJitBlock b, CallFn fn, void *ctx)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_DEF || s->kind == NG_JIT_S_OTHER)
            continue; /* (never compiled) */
        for (int t = 0; t < s->ntargets; t++)
            each_call(s->targets[t], fn, ctx);
        each_call(s->target, fn, ctx);
        each_call(s->value, fn, ctx);
        each_call(s->test, fn, ctx);
        each_call_block(s->body, fn, ctx);
        each_call_block(s->orelse, fn, ctx);
    }
}

/* 'b' for a call the front end compiles as a builtin, 'h' as a helper, else 0. */
static char callee_kind(const NgJitExpr *call)
{
    NgJitCallKind k = ng_jit_call_kind(call);
    return k == NG_JIT_CALL_BUILTIN ? 'b' : k == NG_JIT_CALL_HELPER ? 'h' : 0;
}

static void mark_callee(void *ctx, const NgJitExpr *call)
{
    LoopNames *ln = ctx;
    for (int i = 0; i < ln->n; i++)
        if (strcmp(ln->names[i], call->lhs->name) == 0)
            ln->callee[i] = callee_kind(call);
}

/* What a helper's check needs from the launch. */
typedef struct Callees {
    const Program *p;
    PyObject *globals;   /* the function's */
    int line_offset;     /* the source's first line - 1 in the file */
    int depth;           /* helpers inside helpers so far */
    PyObject *fn;        /* the helper whose calls are being checked */
    const char *why;     /* the first binding that is not the compiled one, or NULL */
    char buf[200];
} Callees;

static void callee_check(Callees *c, char kind, const char *name, PyObject *v);

/* The object `name` is bound to in helper c->fn (its closure, its globals; NULL: a builtin or
 * nothing), checked. */
static void helper_callee(void *ctx, const NgJitExpr *call)
{
    Callees *c = ctx;
    char kind = callee_kind(call);
    if (c->why || !kind)
        return;
    PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(c->fn);
    PyObject *closure = PyFunction_GET_CLOSURE(c->fn), *v = NULL;
    if (code->co_nfreevars == 0) { /* (most helpers: no tuple made per launch) */
        callee_check(c, kind, call->lhs->name, PyDict_GetItemString(PyFunction_GET_GLOBALS(c->fn), call->lhs->name));
        return;
    }
    PyObject *free = PyCode_GetFreevars(code);
    PyObject *name = PyUnicode_FromString(call->lhs->name);
    if (!free || !name) {
        PyErr_Clear();
        c->why = "out of memory checking the loop's helpers";
    } else {
        Py_ssize_t at = -1;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(free); i++)
            if (PyUnicode_Compare(PyTuple_GET_ITEM(free, i), name) == 0)
                at = i;
        if (at >= 0 && closure && at < PyTuple_GET_SIZE(closure))
            v = PyCell_GET(PyTuple_GET_ITEM(closure, at));
        else if (at < 0)
            v = PyDict_GetItem(PyFunction_GET_GLOBALS(c->fn), name);
        if (at >= 0 && !v) {
            snprintf(c->buf, sizeof c->buf, "a helper calls %s, which is not bound", call->lhs->name);
            c->why = c->buf;
        }
    }
    Py_XDECREF(free);
    Py_XDECREF(name);
    if (!c->why)
        callee_check(c, kind, call->lhs->name, v);
}

/* Sets c->why when v, what `name` is bound to (NULL: nothing, in the function's scope and
 * its globals), is not what the front end compiled the call as. */
static void callee_check(Callees *c, char kind, const char *name, PyObject *v)
{
    if (kind == 'b') {
        PyObject *b = PyDict_GetItemString(PyEval_GetBuiltins(), name);
        if (!v || v == b)
            return;
        snprintf(c->buf, sizeof c->buf, "the name %s is bound to another object than the builtin %s", name, name);
        c->why = c->buf;
        return;
    }
    const NgJitStmt *def = ng_jit_helper_def(c->p->ast, c->p->func, name);
    bool same = false;
    PyObject *jitted = NULL; /* (a @numgpu.jit helper: the function it compiles is the def's) */
    if (def && v && !PyFunction_Check(v) && strcmp(Py_TYPE(v)->tp_name, "JitFunction") == 0) {
        jitted = PyObject_GetAttrString(v, "_fn");
        PyErr_Clear();
        v = jitted;
    }
    if (def && v && PyFunction_Check(v) && PyFunction_GET_GLOBALS(v) == c->globals) {
        PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(v);
        same = code->co_firstlineno == def->deco_line + c->line_offset &&
               PyUnicode_CompareWithASCIIString(code->co_name, def->name) == 0 &&
               PyUnicode_CompareWithASCIIString(code->co_filename, c->p->ast->filename) == 0;
    }
    if (!same) {
        snprintf(c->buf, sizeof c->buf, "calls %s, which is bound to %s than the def of %s the loop was compiled with",
                 name, v ? "another object" : "nothing, or to another object", name);
        c->why = c->buf;
    } else if (c->depth >= 8) {
        c->why = "calls helpers more than 8 deep";
    } else {
        PyObject *outer = c->fn;
        c->fn = v;
        c->depth++;
        each_call_block(def->body, helper_callee, c);
        c->depth--;
        c->fn = outer;
    }
    Py_XDECREF(jitted);
}

/* ---- names a loop may read before it binds them ----
 * Python raises UnboundLocalError (NameError) where a name is read before any
 * assignment binds it: assigned in one branch only, or only in an inner loop
 * that may run no iteration. A loop's reads that may come before every
 * assignment of the name in the loop (a walk in order, branches and loop
 * bodies as maybe not run) are `early`; the launch runs the loop as Python
 * when such a name is unbound before it (bound, its value carries from before
 * the loop or from an earlier iteration, as the kernel's does). */

typedef struct Early {
    const LoopNames *ln;
    bool *bound;         /* per name: surely bound here (since the loop began) */
    bool *assigned;      /* per name: assigned somewhere in the loop */
    bool *early;         /* per name: read where it may be unbound */
} Early;

static int name_at(const LoopNames *ln, const char *name)
{
    for (int i = 0; i < ln->n; i++)
        if (strcmp(ln->names[i], name) == 0)
            return i;
    return -1;
}

static void bind_name(Early *w, const NgJitExpr *e, bool sure)
{
    int i = name_at(w->ln, e->name);
    if (i >= 0) {
        w->assigned[i] = true;
        w->bound[i] |= sure;
    }
}

/* The reads of e, in Python's order of evaluation; `sure`: e surely runs (its walruses bind). */
static void early_expr(Early *w, const NgJitExpr *e, bool sure)
{
    if (!e)
        return;
    switch (e->kind) {
    case NG_JIT_E_NAME: {
        int i = name_at(w->ln, e->name);
        if (i >= 0 && !w->bound[i])
            w->early[i] = true;
        return;
    }
    case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG: case NG_JIT_E_CONST: case NG_JIT_E_STR:
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
    case NG_JIT_E_LAMBDA:
        return; /* (a comprehension or a lambda is not compiled) */
    case NG_JIT_E_NAMED:
        early_expr(w, e->rhs, sure);
        bind_name(w, e->lhs, sure);
        return;
    case NG_JIT_E_BOOLOP:
        early_expr(w, e->lhs, sure);
        early_expr(w, e->rhs, false);
        return;
    case NG_JIT_E_IFEXP:
        early_expr(w, e->cond, sure);
        early_expr(w, e->lhs, false);
        early_expr(w, e->rhs, false);
        return;
    case NG_JIT_E_COMPARE:
        for (int i = 0; i < e->nitems; i++)
            early_expr(w, e->items[i], sure && i < 2);
        return;
    case NG_JIT_E_CALL:
        early_expr(w, e->lhs, sure);
        for (int i = 0; i < e->nitems; i++)
            early_expr(w, e->items[i], sure);
        for (int i = 0; i < e->nkeywords; i++)
            early_expr(w, e->keywords[i].value, sure);
        return;
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++) {
            early_expr(w, e->keys[i], sure);
            early_expr(w, e->items[i], sure);
        }
        return;
    default:
        early_expr(w, e->lhs, sure);
        early_expr(w, e->rhs, sure);
        early_expr(w, e->cond, sure);
        for (int i = 0; i < e->nitems; i++)
            early_expr(w, e->items[i], sure);
        return;
    }
}

/* A store into target t: the names it binds, the reads of a subscript's or attribute's. */
static void early_target(Early *w, const NgJitExpr *t)
{
    switch (t->kind) {
    case NG_JIT_E_NAME:
        bind_name(w, t, true);
        break;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            early_target(w, t->items[i]);
        break;
    case NG_JIT_E_STARRED:
        early_target(w, t->lhs);
        break;
    default:
        early_expr(w, t, true);
        break;
    }
}

static void early_block(Early *w, NgJitBlock b);

/* Runs block b (or, for a FOR, its target and b) on a copy of what is bound: what it binds
 * is not surely bound after it. */
static void early_maybe(Early *w, const NgJitExpr *target, NgJitBlock b, bool *keep)
{
    int n = w->ln->n;
    memcpy(keep, w->bound, (size_t)n * sizeof *keep);
    if (target)
        early_target(w, target);
    early_block(w, b);
    memcpy(w->bound, keep, (size_t)n * sizeof *keep);
}

static void early_stmt(Early *w, const NgJitStmt *s)
{
    int n = w->ln->n;
    bool *keep = PyMem_Calloc((size_t)n + 1, sizeof *keep), *after = PyMem_Calloc((size_t)n + 1, sizeof *after);
    if (!keep || !after) { /* (then every name read counts as early: the safe side) */
        memset(w->bound, 0, (size_t)n * sizeof *w->bound);
        PyMem_Free(keep);
        PyMem_Free(after);
        return;
    }
    switch (s->kind) {
    case NG_JIT_S_ASSIGN:
        early_expr(w, s->value, true);
        for (int i = 0; i < s->ntargets; i++)
            early_target(w, s->targets[i]);
        break;
    case NG_JIT_S_AUGASSIGN:
        early_expr(w, s->target, true);
        early_expr(w, s->value, true);
        early_target(w, s->target);
        break;
    case NG_JIT_S_ANNASSIGN:
        if (s->value) {
            early_expr(w, s->value, true);
            early_target(w, s->target);
        }
        break;
    case NG_JIT_S_IF:
        early_expr(w, s->test, true);
        memcpy(keep, w->bound, (size_t)n * sizeof *keep);
        early_block(w, s->body);
        memcpy(after, w->bound, (size_t)n * sizeof *after);
        memcpy(w->bound, keep, (size_t)n * sizeof *keep);
        early_block(w, s->orelse);
        for (int i = 0; i < n; i++)
            w->bound[i] = w->bound[i] && after[i];
        break;
    case NG_JIT_S_FOR:
        early_expr(w, s->test, true);
        early_maybe(w, s->target, s->body, keep);
        early_maybe(w, NULL, s->orelse, keep);
        break;
    case NG_JIT_S_WHILE:
        early_expr(w, s->test, true);
        if (ng_jit_while_true(s)) {
            /* while True: the body runs once at least, up to its first statement that may leave
             * the iteration; only a break ends the loop (its else never runs) */
            int i = 0;
            while (i < s->body.n && !ng_jit_may_leave(s->body.stmts[i]))
                early_stmt(w, s->body.stmts[i++]);
            early_maybe(w, NULL, (NgJitBlock){s->body.stmts + i, s->body.n - i}, keep);
            break;
        }
        early_maybe(w, NULL, s->body, keep);
        early_maybe(w, NULL, s->orelse, keep);
        break;
    case NG_JIT_S_DEF: case NG_JIT_S_OTHER:
        break; /* (not compiled) */
    default:
        early_expr(w, s->value, true);
        early_expr(w, s->test, true);
        break;
    }
    PyMem_Free(keep);
    PyMem_Free(after);
}

static void early_block(Early *w, NgJitBlock b)
{
    for (int i = 0; i < b.n; i++)
        early_stmt(w, b.stmts[i]);
}

/* ln->early for loop (ln's other fields made); false when out of memory. */
static bool maybe_unbound(LoopNames *ln, const NgJitStmt *loop)
{
    int n = ln->n;
    Early w = {ln, PyMem_Calloc((size_t)n + 1, sizeof(bool)), PyMem_Calloc((size_t)n + 1, sizeof(bool)), ln->early};
    if (!w.bound || !w.assigned) {
        PyMem_Free(w.bound);
        PyMem_Free(w.assigned);
        return false;
    }
    early_stmt(&w, loop);
    for (int i = 0; i < n; i++) /* (names of the front end's own, __ng_*, are its business) */
        ln->early[i] = ln->early[i] && w.assigned[i] && strncmp(ln->names[i], "__ng_", 5) != 0;
    PyMem_Free(w.bound);
    PyMem_Free(w.assigned);
    return true;
}

/* Loop `index`'s free names, made at its first launch; NULL on an error. */
static const LoopNames *loop_names(Program *p, int index, const NgJitStmt *loop)
{
    if (!p->names) {
        p->names = PyMem_Calloc((size_t)p->loops->n, sizeof *p->names);
        if (!p->names) {
            PyErr_NoMemory();
            return NULL;
        }
        p->nnames = p->loops->n;
    }
    LoopNames *ln = &p->names[index];
    if (ln->keys)
        return ln;
    const char **names = NULL;
    int n = 0;
    NgStatus st = ng_jit_loop_names(p->ast, loop, &names, &n);
    if (st != NG_OK) {
        ngpy_raise(st);
        return NULL;
    }
    PyObject **keys = PyMem_Calloc((size_t)n + 1, sizeof *keys);
    bool *sizes = PyMem_Calloc((size_t)n + 1, sizeof *sizes);
    char *callee = PyMem_Calloc((size_t)n + 1, sizeof *callee);
    bool *early = PyMem_Calloc((size_t)n + 1, sizeof *early);
    for (int i = 0; keys && sizes && i < n; i++) {
        sizes[i] = ng_jit_sizes_array(loop, names[i]);
        if (!(keys[i] = PyUnicode_InternFromString(names[i]))) {
            for (int j = 0; j < i; j++)
                Py_DECREF(keys[j]);
            PyMem_Free(keys);
            PyMem_Free(sizes);
            PyMem_Free(callee);
            PyMem_Free(early);
            ng_free(names);
            return NULL;
        }
    }
    LoopNames made = {names, keys, sizes, callee, early, n};
    if (!keys || !sizes || !callee || !early || !maybe_unbound(&made, loop)) {
        for (int j = 0; keys && j < n; j++)
            Py_XDECREF(keys[j]);
        PyMem_Free(keys);
        PyMem_Free(sizes);
        PyMem_Free(callee);
        PyMem_Free(early);
        ng_free(names);
        PyErr_NoMemory();
        return NULL;
    }
    *ln = made;
    each_call_block((NgJitBlock){(NgJitStmt **)&loop, 1}, mark_callee, ln);
    return ln;
}

/* The remembered lowering for key, or NULL. */
static const NgJitLowered *find_lowered(const Program *p, const char *key, size_t len)
{
    for (int i = 0; i < p->nlowered; i++)
        if (p->lowered[i].keylen == len && memcmp(p->lowered[i].key, key, len) == 0)
            return &p->lowered[i].info;
    return NULL;
}

static void remember_lowered(Program *p, const char *key, size_t len, const NgJitLowered *info)
{
    if (p->nlowered == p->cap_lowered) {
        int cap = p->cap_lowered ? 2 * p->cap_lowered : 8;
        Lowered *n = PyMem_Realloc(p->lowered, sizeof *n * (size_t)cap);
        if (!n)
            return; /* only a cache */
        p->lowered = n;
        p->cap_lowered = cap;
    }
    char *k = PyMem_Malloc(len ? len : 1);
    if (!k)
        return;
    memcpy(k, key, len);
    p->lowered[p->nlowered++] = (Lowered){k, len, *info};
}

/* The DEF named `name` at module level (or the first DEF when name is NULL). */
static const NgJitStmt *find_def(const NgJitAst *ast, const char *name)
{
    for (int i = 0; i < ast->body.n; i++) {
        const NgJitStmt *s = ast->body.stmts[i];
        if (s->kind == NG_JIT_S_DEF && (!name || strcmp(s->name, name) == 0))
            return s;
    }
    return NULL;
}

static PyObject *loop_dict(const NgJitLoopInfo *l)
{
    /* (desugar.c's last_values: its key __ng_lastN left out, the names it carries 'last') */
    bool last = false;
    for (int i = 0; i < l->nreductions; i++)
        last = last || strncmp(l->reductions[i].name, "__ng_last", 9) == 0;
    PyObject *reds = PyList_New(0);
    for (int i = 0; reds && i < l->nreductions; i++) {
        if (last && strncmp(l->reductions[i].name, "__ng_last", 9) == 0)
            continue;
        const char *op = last && l->reductions[i].ranked ? "last" : ng_jit_red_op_name(l->reductions[i].op);
        PyObject *t = Py_BuildValue("(ss)", l->reductions[i].name, op);
        if (!t || PyList_Append(reds, t) < 0)
            Py_CLEAR(reds);
        Py_XDECREF(t);
    }
    PyObject *atomics = PyList_New(l->natomics);
    for (int i = 0; atomics && i < l->natomics; i++)
        PyList_SET_ITEM(atomics, i, PyUnicode_FromString(l->atomics[i]));
    if (!reds || !atomics) {
        Py_XDECREF(reds);
        Py_XDECREF(atomics);
        return NULL;
    }
    return Py_BuildValue("{sisisisssNsOsNsOsOsOsOsOsiszszsOsOsOsOsO}", "line", l->line, "end_line", l->stmt->span.end_line,
                         "col", l->stmt->span.col, "kind", ng_jit_loop_kind_name(l->kind), "reductions", reds,
                         "atomic", l->atomic ? Py_True : Py_False, "atomics", atomics,
                         "asserted", l->asserted ? Py_True : Py_False, "collapsed", l->collapsed ? Py_True : Py_False,
                         "host", l->host ? Py_True : Py_False, "search", l->search ? Py_True : Py_False, "is_for", l->stmt->kind == NG_JIT_S_FOR ? Py_True : Py_False,
                         "parent", l->parent, "reason", l->reason, "peel", l->peel ? l->peel_text : NULL,
                         "made", l->stmt->made ? Py_True : Py_False, "lets", l->stmt->lets ? Py_True : Py_False,
                         "scan", l->scan ? Py_True : Py_False, "compact", l->scan_compact ? Py_True : Py_False,
                         "rows", l->rows ? Py_True : Py_False);
}

/* A loop whose body desugar.c rewrote (`lets`) but that the host runs as
 * Python (the analysis says PYTHON, or it is a host loop) runs its source
 * as written, and its inner loops launch on their own: they must be
 * compiled from that source, not from the rewrite (a store into X[i] where
 * the source stores into the array it copies there later). The program is
 * made again with those loops' lets kept. */
static NgStatus keep_lets_of_python_loops(Program *p, const char *src, size_t len, const char *file, const char *fname)
{
    uint32_t keep[64];
    int nkeep = 0;
    for (int i = 0; i < p->loops->n && nkeep < 64; i++) {
        const NgJitLoopInfo *l = &p->loops->items[i];
        if (l->stmt->lets && (l->kind == NG_JIT_LOOP_PYTHON || l->host))
            keep[nkeep++] = l->stmt->span.off;
    }
    if (nkeep == 0)
        return NG_OK;
    ng_jit_loops_free(p->loops);
    p->loops = NULL;
    ng_jit_ast_free(p->ast);
    p->ast = NULL;
    NgStatus st = ng_jit_parse(src, len, file, &p->ast, NULL);
    if (st == NG_OK)
        st = ng_jit_desugar_keeping(p->ast, keep, nkeep);
    if (st == NG_OK && !(p->func = find_def(p->ast, fname)))
        st = ng_error_set(NG_ERR_VALUE, "numgpu.jit: no function %s found in its source", fname);
    if (st == NG_OK)
        st = ng_jit_analyze(p->ast, p->func, &p->loops);
    return st;
}

static PyObject *f_jit_program(PyObject *m, PyObject *args)
{
    const char *src, *file, *fname;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#ss:jit_program", &src, &len, &file, &fname))
        return NULL;
    Program *p = PyMem_Calloc(1, sizeof *p);
    if (!p)
        return PyErr_NoMemory();
    NgJitError err;
    memset(&err, 0, sizeof err);
    NgStatus st = ng_jit_parse(src, (size_t)len, file, &p->ast, &err);
    if (st != NG_OK) {
        PyMem_Free(p);
        if (err.kind) {
            PyObject *exc = strcmp(err.kind, "IndentationError") == 0 ? PyExc_IndentationError
                            : strcmp(err.kind, "TabError") == 0 ? PyExc_TabError : PyExc_SyntaxError;
            PyErr_Format(exc, "%s (%s, line %d)", err.msg, file, err.line);
            return NULL;
        }
        return ngpy_raise(st);
    }
    PyObject *flags = PySys_GetObject("flags"); /* (borrowed) */
    PyObject *optimize = flags ? PyObject_GetAttrString(flags, "optimize") : NULL;
    if (optimize && PyObject_IsTrue(optimize) > 0) /* python -O: no assert runs */
        ng_jit_drop_asserts(p->ast);
    Py_XDECREF(optimize);
    PyErr_Clear();
    st = ng_jit_desugar(p->ast); /* for v in x: ... as a range loop */
    if (st != NG_OK) {
        ng_jit_ast_free(p->ast);
        PyMem_Free(p);
        return ngpy_raise(st);
    }
    p->func = find_def(p->ast, fname);
    if (!p->func) {
        ng_jit_ast_free(p->ast);
        PyMem_Free(p);
        PyErr_Format(PyExc_ValueError, "numgpu.jit: no function %s found in its source", fname);
        return NULL;
    }
    st = ng_jit_analyze(p->ast, p->func, &p->loops);
    if (st == NG_OK)
        st = keep_lets_of_python_loops(p, src, (size_t)len, file, fname);
    PyObject *capsule = NULL;
    if (st == NG_OK)
        capsule = PyCapsule_New(p, "numgpu.jit.program", program_free);
    if (!capsule) {
        if (p->loops)
            ng_jit_loops_free(p->loops);
        ng_jit_ast_free(p->ast);
        PyMem_Free(p);
        return st != NG_OK ? ngpy_raise(st) : NULL;
    }
    PyObject *loops = PyList_New(p->loops->n);
    for (int i = 0; loops && i < p->loops->n; i++) {
        PyObject *d = loop_dict(&p->loops->items[i]);
        if (!d) {
            Py_CLEAR(loops);
            break;
        }
        PyList_SET_ITEM(loops, i, d);
    }
    if (!loops) {
        Py_DECREF(capsule);
        return NULL;
    }
    return Py_BuildValue("(NN)", capsule, loops);
}

/* ---- launching a loop ---- */

enum { MAXV = 64 };

typedef struct Launch {
    NgJitVarType types[MAXV];  /* free variables with a value */
    PyObject *values[MAXV];    /* their values (borrowed) */
    NgArray arrays[MAXV];      /* numgpu arrays for array variables (views or uploads) */
    bool uploaded[MAXV];       /* arrays[i] is a copy of a host array: write it back if written */
    PyObject *kept[MAXV];      /* or a view of the call's device copy: its `keep` entry (borrowed) */
    int n;
    bool hold;                 /* more launches of the loop follow: write uploads back after the last */
    int64_t err_slots;         /* a scan's last part: its error array holds one error per block (lower.c
                                  record_check), the first block's raised; 0 otherwise (one error) */
    bool python;               /* a launch found (NG_JIT_PYTHON) that the loop must run as Python */
    char why[400];             /* and why */
    struct {                   /* the 64-bit keys of the loop's random numbers, one per generator and
                                  launch (random_key) */
        const char *name;      /* the name holding the generator */
        uint64_t key;
    } keys[NG_JIT_MAX_RNGS];
    int nkeys;
} Launch;

/* The launch's key of the random numbers of the generator `name` holds (NG_JIT_ARG_KEY), `gen`
 * its value and `kind` what it is (NULL: a module by that name a helper uses, imported): 64 bits
 * drawn from it at the launch's first kernel, so that seeding it repeats a run and every kernel
 * of the launch draws the same numbers (lower.c draw): random.getrandbits(64) of module random or
 * a random.Random, numpy.random.bytes(8) for np.random's functions (NumPy's global generator),
 * .bytes(8) of a RandomState or a Generator. -1 on a Python error. */
static int random_key(Launch *L, const char *name, PyObject *gen, NgJitModule kind, int64_t *out)
{
    for (int g = 0; g < L->nkeys; g++)
        if (strcmp(L->keys[g].name, name) == 0) {
            *out = (int64_t)L->keys[g].key;
            return 0;
        }
    if (!gen)
        kind = strcmp(name, "random") == 0 ? NG_JIT_MOD_RANDOM : NG_JIT_MOD_NUMPY;
    bool bits = kind == NG_JIT_MOD_RANDOM || kind == NG_JIT_MOD_PYRNG; /* (else bytes) */
    PyObject *mod = NULL;
    if (kind == NG_JIT_MOD_RANDOM || kind == NG_JIT_MOD_NUMPY || kind == NG_JIT_MOD_NPRANDOM)
        gen = mod = PyImport_ImportModule(bits ? "random" : "numpy.random");
    PyObject *r = !gen ? NULL : bits ? PyObject_CallMethod(gen, "getrandbits", "i", 64)
                                     : PyObject_CallMethod(gen, "bytes", "i", 8);
    Py_XDECREF(mod);
    if (!r)
        return -1;
    uint64_t key = 0;
    if (!bits && PyBytes_Check(r) && PyBytes_GET_SIZE(r) == 8) {
        for (int i = 0; i < 8; i++)
            key |= (uint64_t)(unsigned char)PyBytes_AS_STRING(r)[i] << (8 * i);
    } else if (bits) {
        key = PyLong_AsUnsignedLongLongMask(r);
    } else {
        PyErr_SetString(PyExc_TypeError, "a generator's bytes(8) did not give 8 bytes");
    }
    Py_DECREF(r);
    if (PyErr_Occurred())
        return -1;
    if (L->nkeys < NG_JIT_MAX_RNGS) /* (the lowering draws from no more) */
        L->keys[L->nkeys].name = name, L->keys[L->nkeys++].key = key;
    *out = (int64_t)key;
    return 0;
}

/* ---- NumPy arrays kept on the device for one call ----
 *
 * `keep` (from JitFunction.__call__, or None) maps id(a) to [a, copy, written]
 * for the NumPy arguments a the function's own code never touches between
 * its loops: a is uploaded at its first loop (copy, a numgpu array; None
 * before), the loops work on the copy, and a written copy goes back into a
 * once, by jit_flush at the end of the call (or before a loop runs as
 * Python, which works on a itself). */

static bool is_keep(PyObject *keep) { return keep && keep != Py_None && PyDict_Check(keep); }

static bool is_entry(PyObject *e) { return PyList_Check(e) && PyList_GET_SIZE(e) == 3; }

/* The entry of NumPy array v in keep (borrowed), or NULL. */
static PyObject *kept_entry(PyObject *keep, PyObject *v)
{
    if (!is_keep(keep))
        return NULL;
    PyObject *key = PyLong_FromVoidPtr(v);
    PyObject *e = key ? PyDict_GetItemWithError(keep, key) : NULL;
    Py_XDECREF(key);
    if (!e)
        PyErr_Clear();
    return e && is_entry(e) && PyList_GET_ITEM(e, 0) == v ? e : NULL;
}

/* Copies numgpu array `a` back into the memory of NumPy array `host`, which
 * must still have a's shape and item size. */
static int write_back(const NgArray *a, PyObject *host)
{
    Py_buffer view;
    if (PyObject_GetBuffer(host, &view, PyBUF_RECORDS) < 0)
        return -1;
    bool same = view.ndim == a->ndim;
    for (int d = 0; same && d < view.ndim; d++)
        same = view.shape[d] == a->shape[d];
    if (!same) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_RuntimeError, "numgpu.jit: a NumPy argument changed its shape during the "
                                            "call; its device copy cannot be written back");
        return -1;
    }
    if (ngpy_dtype_of_format(view.format, view.itemsize) != a->dtype) {
        /* a copy of another dtype (float32 for float64 under the precision policy) or byte
         * order (a byte-swapped array's): NumPy converts it back */
        PyBuffer_Release(&view);
        PyObject *copy = ngpy_to_numpy(a);
        PyObject *r = copy ? PyObject_CallMethod(ngpy.numpy, "copyto", "OO", host, copy) : NULL;
        Py_XDECREF(copy);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    int64_t hs[NG_MAXDIMS];
    for (int d = 0; d < view.ndim; d++)
        hs[d] = view.strides[d];
    NgStatus st = ng_array_download(a, view.buf, hs);
    PyBuffer_Release(&view);
    return st == NG_OK ? 0 : (ngpy_raise(st), -1);
}

/* Writes entry e's copy back to its array if a loop wrote it, then drops the
 * copy (the entry is reset either way); 0, or -1 with a Python error. */
static int settle(PyObject *e)
{
    PyObject *copy = PyList_GET_ITEM(e, 1);
    int rc = copy != Py_None && ngpy_check(copy) && PyObject_IsTrue(PyList_GET_ITEM(e, 2)) == 1
                 ? write_back(ngpy_arr(copy), PyList_GET_ITEM(e, 0)) : 0;
    Py_INCREF(Py_None);
    PyList_SetItem(e, 1, Py_None);
    Py_INCREF(Py_False);
    PyList_SetItem(e, 2, Py_False);
    return rc;
}

/* Settles every entry of keep; 0, or -1 with the first Python error (the
 * other entries are still written back). */
static int flush_kept(PyObject *keep)
{
    if (!is_keep(keep))
        return 0;
    PyObject *et = NULL, *ev = NULL, *etb = NULL;
    Py_ssize_t pos = 0;
    PyObject *k, *e;
    while (PyDict_Next(keep, &pos, &k, &e)) {
        if (is_entry(e) && settle(e) < 0) {
            if (!et)
                PyErr_Fetch(&et, &ev, &etb);
            else
                PyErr_Clear();
        }
    }
    if (!et)
        return 0;
    PyErr_Restore(et, ev, etb);
    return -1;
}

/* The bytes [*lo, *hi) NumPy array v spans in host memory; false (no
 * error) when it has no buffer to look at. */
static bool host_span(PyObject *v, uintptr_t *lo, uintptr_t *hi)
{
    Py_buffer view;
    if (PyObject_GetBuffer(v, &view, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return false;
    }
    uintptr_t a = (uintptr_t)view.buf, b = a + (uintptr_t)view.itemsize;
    bool empty = false;
    for (int d = 0; d < view.ndim; d++) {
        Py_ssize_t ext = (view.shape[d] - 1) * view.strides[d];
        empty = empty || view.shape[d] == 0;
        if (ext < 0)
            a -= (uintptr_t)-ext;
        else
            b += (uintptr_t)ext;
    }
    PyBuffer_Release(&view);
    *lo = a, *hi = empty ? a : b;
    return true;
}

/* Whether the host memory of NumPy arrays v and w may overlap (their device
 * copies never do, so the launch's own check cannot see it). */
static bool host_overlap(PyObject *v, PyObject *w)
{
    uintptr_t a0, a1, b0, b1;
    return host_span(v, &a0, &a1) && host_span(w, &b0, &b1) && a0 < b1 && b0 < a1;
}

/* Before NumPy array v, not kept itself, is uploaded for a launch: the kept
 * arrays whose memory it may share are written back and dropped, so that it
 * sees (and its write-back does not lose) their latest values. */
static int sync_overlapping(PyObject *keep, PyObject *v)
{
    if (!is_keep(keep))
        return 0;
    Py_ssize_t pos = 0;
    PyObject *k, *e;
    while (PyDict_Next(keep, &pos, &k, &e))
        if (is_entry(e) && PyList_GET_ITEM(e, 1) != Py_None && host_overlap(PyList_GET_ITEM(e, 0), v) &&
            settle(e) < 0)
            return -1;
    return 0;
}

/* The device copy of NumPy array v kept in entry e (uploaded now if it has
 * none yet), viewed into arr; 0, or -1 with a Python error. */
static int kept_copy(PyObject *e, PyObject *v, NgArray *arr)
{
    PyObject *copy = PyList_GET_ITEM(e, 1);
    if (copy == Py_None || !ngpy_check(copy)) {
        NgArray up;
        if (ngpy_to_array(v, NG_NODTYPE, &up) < 0)
            return -1;
        copy = ngpy_wrap(&up);
        if (!copy)
            return -1;
        PyList_SetItem(e, 1, copy); /* (steals it) */
    }
    ng_array_view(ngpy_arr(copy), arr);
    return 0;
}

/* The type of one value; 0 if the kernel can use it, 1 if the value makes
 * the loop Python's (why in *why), -1 on a Python error. */
/* A device array of n values of dt from host memory. */
static int device_copy(NgDevice *dev, NgDType dt, const void *data, int64_t n, NgArray *arr)
{
    NgStatus st = ng_array_empty(dev, dt, 1, &n, arr);
    arr->buf = st == NG_OK ? arr->buf : NULL;
    if (st == NG_OK && n > 0)
        st = ng_array_upload(arr, data, NULL);
    if (st != NG_OK) {
        ng_array_release(arr);
        arr->buf = NULL;
        ngpy_raise(st);
        return -1;
    }
    return 0;
}

static void release_str(void *str) { Py_DECREF((PyObject *)str); }

/* A str as the kernel reads it (NG_JIT_SEQ_STR): its code points, of the
 * width Python keeps them in (uint8, uint16 or uint32); on a host-visible
 * device Python's own memory, else a copy. */
static int str_array(PyObject *v, NgDevice *dev, NgArray *arr)
{
    Py_ssize_t n = PyUnicode_GetLength(v);
    int kind = PyUnicode_KIND(v);
    NgDType dt = kind == PyUnicode_1BYTE_KIND ? NG_UINT8 : kind == PyUnicode_2BYTE_KIND ? NG_UINT16 : NG_UINT32;
    if (!ng_device_host_visible(dev) || n == 0)
        return device_copy(dev, dt, PyUnicode_DATA(v), n, arr);
    memset(arr, 0, sizeof *arr);
    if (ng_buffer_wrap(dev, PyUnicode_DATA(v), (size_t)n * (size_t)kind, Py_NewRef(v), release_str, &arr->buf) != NG_OK) {
        Py_DECREF(v);
        arr->buf = NULL;
        ngpy_raise(NG_ERR_NOMEM);
        return -1;
    }
    arr->dtype = dt;
    arr->ndim = 1;
    arr->size = n;
    arr->shape[0] = n;
    arr->strides[0] = kind;
    return 0;
}

/* A dict as the kernel reads it (NG_JIT_SEQ_DICT_CHR or _INT): the table of
 * lower.h, when its keys are all 1-character strs or all ints over a span
 * not much larger than the dict, and its values all ints (not bools) of
 * int64 other than NG_JIT_NO_KEY; 1 with *why otherwise. */
static int dict_table(PyObject *v, NgDevice *dev, NgArray *arr, NgJitVarType *t, const char **why)
{
    Py_ssize_t pos = 0, n = PyDict_Size(v);
    PyObject *key, *val;
    int64_t lo = 0, hi = -1;
    bool chars = true, ints = true;
    while (PyDict_Next(v, &pos, &key, &val)) {
        int64_t k;
        if (PyUnicode_CheckExact(key) && PyUnicode_GetLength(key) == 1) {
            k = PyUnicode_ReadChar(key, 0);
            ints = false;
        } else if (PyLong_CheckExact(key)) {
            int overflow;
            k = PyLong_AsLongLongAndOverflow(key, &overflow);
            if (overflow || k < -(INT64_C(1) << 40) || k > (INT64_C(1) << 40)) {
                *why = "a dict with an int key beyond +-2**40";
                return 1;
            }
            chars = false;
        } else {
            *why = "a dict whose keys are not all 1-character strs or all ints";
            return 1;
        }
        if (!PyLong_CheckExact(val)) {
            *why = "a dict whose values are not all ints (a compiled loop reads dicts of ints, keyed by "
                   "1-character strs or by ints: for other values index an array by the dict's ints)";
            return 1;
        }
        int overflow;
        int64_t x = PyLong_AsLongLongAndOverflow(val, &overflow);
        if (overflow || x == NG_JIT_NO_KEY) {
            *why = "a dict with a value beyond the int64 range";
            return 1;
        }
        if (hi < lo)
            lo = hi = k;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    if (!chars && !ints) {
        *why = "a dict whose keys are not all 1-character strs or all ints";
        return 1;
    }
    int64_t span = hi - lo + 1;
    if (span > 4 * (int64_t)n + 65536) {
        *why = chars ? "a dict whose 1-character str keys are spread too thinly for a table (their code points span "
                       "more than 4 times the dict's length + 65536: a character far from the others, as an emoji "
                       "among ASCII letters)"
                     : "a dict whose int keys are spread too thinly for a table (they span more than 4 times the "
                       "dict's length + 65536)";
        return 1;
    }
    int64_t *table = PyMem_Malloc((size_t)(span + 1) * sizeof *table);
    if (!table) {
        PyErr_NoMemory();
        return -1;
    }
    table[0] = lo;
    for (int64_t i = 0; i < span; i++)
        table[1 + i] = NG_JIT_NO_KEY;
    pos = 0;
    while (PyDict_Next(v, &pos, &key, &val)) {
        int64_t k = PyUnicode_Check(key) ? (int64_t)PyUnicode_ReadChar(key, 0) : PyLong_AsLongLong(key);
        table[1 + k - lo] = PyLong_AsLongLong(val);
    }
    t->seq = chars && n > 0 ? NG_JIT_SEQ_DICT_CHR : ints && n > 0 ? NG_JIT_SEQ_DICT_INT : NG_JIT_SEQ_DICT_CHR;
    int r = device_copy(dev, NG_INT64, table, span + 1, arr);
    PyMem_Free(table);
    return r;
}

/* A tuple as the kernel reads it (NG_JIT_SEQ_TUPLE): its items, all Python
 * ints (of int64), all floats, all bools or all complex numbers, copied into
 * an array of rank 1; 1 with *why otherwise (an empty tuple too). */
static int tuple_array(PyObject *v, NgDevice *dev, NgArray *arr, const char **why)
{
    Py_ssize_t n = PyTuple_GET_SIZE(v);
    PyTypeObject *kind = n > 0 ? Py_TYPE(PyTuple_GET_ITEM(v, 0)) : NULL;
    bool same = kind == &PyLong_Type || kind == &PyFloat_Type || kind == &PyBool_Type || kind == &PyComplex_Type;
    for (Py_ssize_t i = 0; i < n && same; i++)
        same = Py_TYPE(PyTuple_GET_ITEM(v, i)) == kind;
    if (!same) {
        *why = "a tuple that is empty or not all ints, all floats, all bools or all complex numbers";
        return 1;
    }
    NgDType dt = kind == &PyLong_Type ? NG_INT64 : kind == &PyFloat_Type ? NG_FLOAT64
                 : kind == &PyBool_Type ? NG_BOOL : NG_COMPLEX128;
    double *items = PyMem_Malloc((size_t)n * 2 * sizeof(double)); /* (room for n complex numbers) */
    if (!items) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(v, i);
        int overflow = 0;
        if (dt == NG_INT64)
            ((int64_t *)items)[i] = PyLong_AsLongLongAndOverflow(x, &overflow);
        else if (dt == NG_FLOAT64)
            items[i] = PyFloat_AS_DOUBLE(x);
        else if (dt == NG_BOOL)
            ((uint8_t *)items)[i] = x == Py_True;
        else {
            items[2 * i] = PyComplex_RealAsDouble(x);
            items[2 * i + 1] = PyComplex_ImagAsDouble(x);
        }
        if (overflow) {
            PyMem_Free(items);
            *why = "a tuple holding an int that does not fit in 64 bits";
            return 1;
        }
    }
    int r = device_copy(dev, dt, items, n, arr);
    PyMem_Free(items);
    return r;
}

/* Whether v is a generator of random numbers a loop draws from (lower.c draw): a random.Random,
 * a numpy.random.RandomState, a numpy.random.Generator (1, *module says which); 0 when not, -1
 * on a Python error. */
static int generator_of(PyObject *v, NgJitModule *module)
{
    static const struct { const char *module, *cls; NgJitModule kind; } kinds[] = {
        {"random", "Random", NG_JIT_MOD_PYRNG},
        {"numpy.random", "RandomState", NG_JIT_MOD_RANDOMSTATE},
        {"numpy.random", "Generator", NG_JIT_MOD_GENERATOR},
    };
    static PyObject *classes[3]; /* (imported once, kept) */
    for (int i = 0; i < 3; i++) {
        if (!classes[i]) {
            PyObject *mod = PyImport_ImportModule(kinds[i].module);
            classes[i] = mod ? PyObject_GetAttrString(mod, kinds[i].cls) : NULL;
            Py_XDECREF(mod);
            if (!classes[i])
                return -1;
        }
        int is = PyObject_IsInstance(v, classes[i]);
        if (is != 0) {
            *module = kinds[i].kind;
            return is;
        }
    }
    return 0;
}

static int type_of(PyObject *v, const char *name, NgDevice *dev, PyObject *keep, NgJitVarType *t, NgArray *arr,
                   bool *uploaded, PyObject **kept, const char **why)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    arr->buf = NULL;
    *uploaded = false;
    *kept = NULL;
    if (PyModule_Check(v)) {
        const char *mod = PyModule_GetName(v);
        if (!mod)
            return -1;
        if (!strcmp(mod, "numpy") || !strcmp(mod, "numgpu"))
            t->module = NG_JIT_MOD_NUMPY;
        else if (!strcmp(mod, "math"))
            t->module = NG_JIT_MOD_MATH;
        else if (!strcmp(mod, "cmath"))
            t->module = NG_JIT_MOD_CMATH;
        else if (!strcmp(mod, "random"))
            t->module = NG_JIT_MOD_RANDOM;
        else if (!strcmp(mod, "numpy.random"))
            t->module = NG_JIT_MOD_NPRANDOM;
        else {
            *why = "a module other than numpy, math, cmath, random and numpy.random (a compiled loop calls only "
                   "theirs: call the others' functions outside the loop)";
            return 1;
        }
        return 0;
    }
    if (PyBool_Check(v) || PyLong_CheckExact(v) || PyFloat_CheckExact(v) || PyComplex_CheckExact(v)) {
        t->dtype = PyBool_Check(v) ? NG_BOOL : PyLong_CheckExact(v) ? NG_INT64 : PyFloat_CheckExact(v) ? NG_FLOAT64
                                                                                                       : NG_COMPLEX128;
        if (PyLong_CheckExact(v)) {
            int overflow;
            PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow) {
                *why = "a Python int beyond 64 bits (a compiled loop's ints are 64-bit)";
                return 1;
            }
        }
        return 0;
    }
    if (ngpy_check(v) || PyObject_TypeCheck(v, (PyTypeObject *)ngpy.np_ndarray) ||
        PyObject_TypeCheck(v, (PyTypeObject *)ngpy.np_generic)) {
        bool scalar = PyObject_TypeCheck(v, (PyTypeObject *)ngpy.np_generic);
        int wrapped = 1;
        if (ngpy_check(v)) {
            ng_array_view(ngpy_arr(v), arr);
        } else if (!scalar && ng_device_host_visible(dev) && (wrapped = ngpy_wrap_host(v, dev, true, arr)) <= 0) {
            if (wrapped < 0)
                return -1;
        } else if (!scalar && (*kept = kept_entry(keep, v)) == NULL && sync_overlapping(keep, v) < 0) {
            return -1;
        } else if (*kept) {
            if (kept_copy(*kept, v, arr) < 0) { /* unsupported dtype: leave it to Python */
                PyErr_Clear();
                *kept = NULL;
                *why = "an array of a dtype numgpu does not support";
                return 1;
            }
        } else {
            if (ngpy_to_array(v, NG_NODTYPE, arr) < 0) { /* unsupported dtype: leave it to Python */
                PyErr_Clear();
                *why = "an array of a dtype numgpu does not support";
                return 1;
            }
            *uploaded = !scalar;
        }
        t->dtype = arr->dtype;
        if (scalar) {
            t->numpy_scalar = true;
            return 0;
        }
        for (int d = 0; d < arr->ndim; d++)
            if (arr->shape[d] >= (INT64_C(1) << 62)) { /* (lower.c's MAG_LENGTH: a length's bound) */
                ng_array_release(arr);
                *uploaded = false;
                *why = "an array with an axis of 2**62 elements or more (a broadcast view)";
                return 1;
            }
        t->is_array = true;
        t->ndim = arr->ndim;
        t->inner_contig = arr->ndim > 0 && arr->strides[arr->ndim - 1] == ng_array_itemsize(arr);
        return 0;
    }
    if (PyUnicode_CheckExact(v) || PyDict_CheckExact(v) || PyTuple_CheckExact(v)) {
        int r = PyUnicode_CheckExact(v) ? str_array(v, dev, arr)
                : PyTuple_CheckExact(v) ? tuple_array(v, dev, arr, why) : dict_table(v, dev, arr, t, why);
        if (r != 0)
            return r;
        t->seq = PyUnicode_CheckExact(v) ? NG_JIT_SEQ_STR : PyTuple_CheckExact(v) ? NG_JIT_SEQ_TUPLE : t->seq;
        t->is_array = true;
        t->dtype = arr->dtype;
        t->ndim = 1;
        t->inner_contig = true;
        return 0;
    }
    int gen = generator_of(v, &t->module);
    if (gen != 0)
        return gen < 0 ? -1 : 0;
    if (PyCallable_Check(v)) { /* builtins (range, abs ...) and helpers are resolved by name */
        t->module = NG_JIT_MOD_NONE;
        return 2;
    }
    *why = NULL; /* (launch says what it is: its type) */
    return 1;
}

/* Into buf: why the loop cannot take the value v of `name` (type_of's `why`, or NULL for a value
 * of a type a loop never takes), naming it and, where there is one, the fix. */
static void value_why(char *buf, size_t n, const char *name, PyObject *v, const char *why)
{
    const char *type = Py_TYPE(v)->tp_name;
    if (why)
        snprintf(buf, n, "'%s' is %s", name, why);
    else if (PyList_Check(v) || PyAnySet_Check(v) || PyByteArray_Check(v) || PyBytes_Check(v))
        snprintf(buf, n, "'%s' is a %s, which a compiled loop cannot take (pass a NumPy array, np.asarray(%s), "
                 "or a tuple of numbers)", name, type, name);
    else if (PyDict_Check(v) || PyUnicode_Check(v) || PyTuple_Check(v))
        snprintf(buf, n, "'%s' is a subclass of %s (%s), which a compiled loop cannot take (pass a plain %s)", name,
                 PyDict_Check(v) ? "dict" : PyUnicode_Check(v) ? "str" : "tuple", type,
                 PyDict_Check(v) ? "dict" : PyUnicode_Check(v) ? "str" : "tuple");
    else
        snprintf(buf, n, "'%s' is an object of type %s, which a compiled loop cannot take (it takes numbers, "
                 "arrays, 1-character strs, tuples of numbers and dicts of ints: pass the numbers or arrays "
                 "the loop reads from it)", name, type);
}

static void launch_clear(Launch *L)
{
    for (int i = 0; i < L->n; i++)
        ng_array_release(&L->arrays[i]);
    L->n = 0;
}

static NgStatus build_loop(const void *ctx, NgIrKernel *k);

typedef struct BuildCtx {
    const Program *p;
    const NgJitStmt *loop;
    const Launch *L;
    const NgJitLoopPlan *plan;
} BuildCtx;

static NgStatus build_loop(const void *ctx, NgIrKernel *k)
{
    const BuildCtx *c = ctx;
    return ng_jit_lower(c->p->ast, c->loop, c->L->types, c->L->n, c->plan, k, NULL);
}

static PyObject *skip(const char *why)
{
    return Py_BuildValue("(Os)", Py_None, why);
}

static int index_of(const Launch *L, const char *name)
{
    for (int i = 0; i < L->n; i++)
        if (!strcmp(L->types[i].name, name))
            return i;
    return -1;
}

/* The Python number in the 0-d cell `bytes` of dtype t (not float16), or NULL
 * with no error set for a dtype it does not read. */
static PyObject *cell_number(NgDType t, const unsigned char *bytes)
{
    union {
        bool b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
        float c64[2];
        double c128[2];
    } v;
    memcpy(&v, bytes, sizeof v);
    switch (t) {
    case NG_BOOL: return PyBool_FromLong(v.b);
    case NG_INT8: return PyLong_FromLong(v.i8);
    case NG_INT16: return PyLong_FromLong(v.i16);
    case NG_INT32: return PyLong_FromLong(v.i32);
    case NG_INT64: return PyLong_FromLongLong(v.i64);
    case NG_UINT8: return PyLong_FromLong(v.u8);
    case NG_UINT16: return PyLong_FromLong(v.u16);
    case NG_UINT32: return PyLong_FromUnsignedLong(v.u32);
    case NG_UINT64: return PyLong_FromUnsignedLongLong(v.u64);
    case NG_FLOAT32: return PyFloat_FromDouble(v.f32);
    case NG_FLOAT64: return PyFloat_FromDouble(v.f64);
    case NG_COMPLEX64: return PyComplex_FromDoubles(v.c64[0], v.c64[1]);
    case NG_COMPLEX128: return PyComplex_FromDoubles(v.c128[0], v.c128[1]);
    default: return NULL;
    }
}

/* Converts the 0-d cell array to a Python value: a Python number for a weak
 * cell, else a NumPy scalar of its dtype, as Python's own loop leaves it
 * (made by the scalar type from the Python number, which holds the value
 * exactly; no NumPy array made: a small call's result costs nanoseconds). */
static PyObject *cell_value(const NgArray *cell, const NgJitArg *a)
{
    static PyObject *scalar_types[NG_NTYPES]; /* numpy.float64 ..., by dtype */
    unsigned char bytes[16] = {0};
    PyObject *num = NULL;
    if (cell->ndim == 0 && cell->dtype != NG_FLOAT16 && (int)cell->dtype >= 0 && (int)cell->dtype < NG_NTYPES &&
        ng_array_itemsize(cell) <= (int64_t)sizeof bytes) {
        NgStatus st = ng_array_download(cell, bytes, NULL);
        if (st != NG_OK)
            return ngpy_raise(st);
        num = cell_number(cell->dtype, bytes);
        if (!num && PyErr_Occurred())
            return NULL;
    }
    if (num && a->weak)
        return num;
    if (num) {
        PyObject **type = &scalar_types[cell->dtype];
        if (!*type) {
            PyObject *dt = ngpy_dtype_object(cell->dtype);
            *type = dt ? PyObject_GetAttrString(dt, "type") : NULL;
            Py_XDECREF(dt);
        }
        PyObject *v = *type ? PyObject_CallOneArg(*type, num) : NULL;
        Py_DECREF(num);
        return v;
    }
    PyObject *np = ngpy_to_numpy(cell);
    if (!np)
        return NULL;
    PyObject *empty = PyTuple_New(0); /* a NumPy scalar, as Python's own loop leaves it */
    PyObject *v = !empty ? NULL : a->weak ? PyObject_CallMethod(np, "item", NULL) : PyObject_GetItem(np, empty);
    Py_XDECREF(empty);
    Py_DECREF(np);
    return v;
}

/* The Python number x of `kind`: 'i' an int, 'f' a float, 'c' a complex (a new reference). */
static PyObject *python_number(char kind, double x)
{
    return kind == 'i' ? PyLong_FromDouble(x) : kind == 'f' ? PyFloat_FromDouble(x) : PyComplex_FromDoubles(x, 0);
}

/* The words of the error a call raised, r its result (NULL: it raised), *type its class (new
 * references); where it did not raise (another Python), `exc` and `words`. */
static PyObject *caught(PyObject *r, PyObject *exc, const char *words, PyObject **type)
{
    Py_XDECREF(r);
    PyObject *t = NULL, *v = NULL, *tb = NULL;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    Py_XDECREF(tb);
    if (!t) {
        Py_XDECREF(v);
        *type = Py_NewRef(exc);
        return PyUnicode_FromString(words);
    }
    PyObject *msg = v ? PyObject_Str(v) : NULL;
    Py_XDECREF(v);
    *type = t; /* (a reference) */
    return msg;
}

static PyObject *python_exception(int64_t what, PyObject **type);

/* The error of a random number's parameters (NG_JIT_RAISE_RANDOM's field; a new reference, with
 * *type its class): Python's for randrange() (random.randrange(0): its words in this Python
 * version) and expovariate(0) (1.0 / 0.0), NumPy's words for NumPy's. */
static PyObject *random_exception(int64_t field, PyObject **type)
{
    static const struct { const char *msg; PyObject **exc; } words[] = {
        [NG_JIT_RANDOM_LOW_HIGH] = {"low >= high", &PyExc_ValueError},
        [NG_JIT_RANDOM_HIGH] = {"high <= 0", &PyExc_ValueError},
        [NG_JIT_RANDOM_LOW_ABOVE] = {"low > high", &PyExc_ValueError},
        [NG_JIT_RANDOM_HIGH_BELOW] = {"high < 0", &PyExc_ValueError},
        [NG_JIT_RANDOM_SCALE] = {"scale < 0", &PyExc_ValueError},
        [NG_JIT_RANDOM_RANGE] = {"Range exceeds valid bounds", &PyExc_OverflowError},
        [NG_JIT_RANDOM_RANGE_GENERATOR] = {"high - low range exceeds valid bounds", &PyExc_OverflowError},
    };
    if (field == NG_JIT_RANDOM_RATE)
        return python_exception(NG_JIT_RAISE_ZERODIV_FLOAT, type);
    if (field == NG_JIT_RANDOM_RANDRANGE) {
        PyObject *mod = PyImport_ImportModule("random");
        PyObject *r = mod ? PyObject_CallMethod(mod, "randrange", "i", 0) : NULL;
        Py_XDECREF(mod);
        return caught(r, PyExc_ValueError, "empty range for randrange()", type);
    }
    bool known = field > 0 && field < (int64_t)(sizeof words / sizeof *words) && words[field].msg;
    *type = Py_NewRef(known ? *words[field].exc : PyExc_ValueError);
    return PyUnicode_FromString(known ? words[field].msg : "a random number's parameters");
}

/* Python's own exception for raise code `what` (line * NG_JIT_RAISE_CODES + NgJitRaise, a
 * field above: a new reference, with *type its class): where Python raises it, from Python
 * itself (1.0 / 0.0: its words in this Python version); else numgpu's. NULL on a Python error. */
static PyObject *python_exception(int64_t what, PyObject **type)
{
    int code = ng_jit_raise_kind(what);
    if (code == NG_JIT_RAISE_RANDOM)
        return random_exception(ng_jit_raise_field(what), type);
    /* the operation: a `op` b of Python numbers of `kind` (int, float, complex) */
    static const struct { char kind, op; double a, b; } ops[NG_JIT_RAISE_CODES] = {
        [NG_JIT_RAISE_ZERODIV] = {'i', '/', 1, 0},
        [NG_JIT_RAISE_ZERODIV_FLOAT] = {'f', '/', 1, 0},
        [NG_JIT_RAISE_ZERODIV_COMPLEX] = {'c', '/', 1, 0},
        [NG_JIT_RAISE_FLOORDIV_INT] = {'i', 'f', 1, 0},
        [NG_JIT_RAISE_MOD_INT] = {'i', '%', 1, 0},
        [NG_JIT_RAISE_FLOORDIV_FLOAT] = {'f', 'f', 1, 0},
        [NG_JIT_RAISE_MOD_FLOAT] = {'f', '%', 1, 0},
        [NG_JIT_RAISE_ZERO_POW] = {'f', '^', 0, -1},
        [NG_JIT_RAISE_ZERO_POW_COMPLEX] = {'c', '^', 0, -1},
        [NG_JIT_RAISE_DIVMOD_FLOAT] = {'f', 'd', 1, 0},
        [NG_JIT_RAISE_POW_RANGE] = {'f', '^', 10, 400},
        [NG_JIT_RAISE_NEG_SHIFT] = {'i', '<', 1, -1},
    };
    /* (exc: 'V' ValueError, 'I' IndexError, else OverflowError) */
    static const struct { const char *msg; char exc; } words[NG_JIT_RAISE_CODES] = {
        [NG_JIT_RAISE_DOMAIN] = {"math domain error", 'V'},
        [NG_JIT_RAISE_RANGE] = {"math range error", 0},
        [NG_JIT_RAISE_NAN_INT] = {"cannot convert float NaN to integer", 'V'},
        [NG_JIT_RAISE_INF_INT] = {"cannot convert float infinity to integer", 0},
        [NG_JIT_RAISE_BIG_INT] = {"int() of a float beyond the int64 range (a compiled loop's integers)", 0},
        [NG_JIT_RAISE_BIG_UINT] = {"int() of a uint64 from 2**63 on (a compiled loop's ints are 64-bit: keep it "
                                   "a NumPy uint64)", 0},
        [NG_JIT_RAISE_POW_COMPLEX] = {"a negative float to a fractional power is a complex number in Python, which "
                                      "a compiled loop's float cannot become (write complex(x) ** y, or np.power "
                                      "for NumPy's nan)", 'V'},
        [NG_JIT_RAISE_POW_INT_NEG] = {"an int to a negative int power is a float in Python, which a compiled "
                                      "loop's int cannot become (write float(x) ** n)", 'V'},
        [NG_JIT_RAISE_POW_NUMPY_NEG] = {"Integers to negative integer powers are not allowed.", 'V'},
        [NG_JIT_RAISE_INT_BOUNDS] = {"Python integer out of bounds for a NumPy integer", 0},
        [NG_JIT_RAISE_TUPLE_INDEX] = {"tuple index out of range", 'I'},
        [NG_JIT_RAISE_ROW_SHAPE] = {"operands could not be broadcast together (rows of other lengths)", 'V'},
        [NG_JIT_RAISE_ARANGE_SIZE] = {"Maximum allowed size exceeded", 'V'},
        [NG_JIT_RAISE_ARANGE_NAN] = {"arange: cannot compute length", 'V'},
        [NG_JIT_RAISE_INT_OVERFLOW] = {"a Python int in the compiled loop exceeded 64 bits; numgpu computes Python "
                                       "ints in 64 bits", 0},
        [NG_JIT_RAISE_TOLERANCE] = {"tolerances must be non-negative", 'V'},
        [NG_JIT_RAISE_ISQRT] = {"isqrt() argument must be nonnegative", 'V'},
        [NG_JIT_RAISE_POW_MOD_ZERO] = {"pow() 3rd argument cannot be 0", 'V'},
    };
    if (code > 0 && code < NG_JIT_RAISE_CODES && ops[code].kind) {
        PyObject *a = python_number(ops[code].kind, ops[code].a);
        PyObject *b = a ? python_number(ops[code].kind, ops[code].b) : NULL;
        PyObject *r = !b ? NULL
                      : ops[code].op == '/' ? PyNumber_TrueDivide(a, b)
                      : ops[code].op == 'f' ? PyNumber_FloorDivide(a, b)
                      : ops[code].op == '%' ? PyNumber_Remainder(a, b)
                      : ops[code].op == '<' ? PyNumber_Lshift(a, b)
                      : ops[code].op == 'd' ? PyNumber_Divmod(a, b)
                                            : PyNumber_Power(a, b, Py_None);
        Py_XDECREF(a);
        Py_XDECREF(b);
        return caught(r, PyExc_ZeroDivisionError, "division by zero", type);
    }
    const char *msg = code > 0 && code < NG_JIT_RAISE_CODES && words[code].msg ? words[code].msg : "error";
    char exc = code > 0 && code < NG_JIT_RAISE_CODES ? words[code].exc : 0;
    *type = Py_NewRef(exc == 'V' ? PyExc_ValueError : exc == 'I' ? PyExc_IndexError : PyExc_OverflowError);
    return PyUnicode_FromString(msg);
}

/* KeyError(key) of a raise code that tells its key (a new reference), with
 * *type KeyError; NULL without a Python error when the code is no KeyError. */
static PyObject *key_error(int64_t what, PyObject **type)
{
    int kind = ng_jit_raise_kind(what), keytype;
    int64_t key;
    if (kind != NG_JIT_RAISE_KEY_STR && kind != NG_JIT_RAISE_KEY_INT)
        return NULL;
    *type = Py_NewRef(PyExc_KeyError);
    if (!ng_jit_raise_key(what, &key, &keytype))
        return PyUnicode_FromString("a key the dict does not have");
    if (kind == NG_JIT_RAISE_KEY_STR && key >= 0 && key <= 0x10FFFF)
        return PyUnicode_FromOrdinal((int)key);
    if (keytype == NG_JIT_KEY_PYBOOL)
        return PyBool_FromLong((long)key);
    PyObject *v = PyLong_FromLongLong(key);
    if (!v || keytype == NG_JIT_KEY_PYINT || keytype > NG_NTYPES)
        return v;
    /* a NumPy integer's, as Python's loop shows it: np.int64(9) */
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *t = np ? PyObject_GetAttrString(np, ng_dtype_info((NgDType)(keytype - 1))->name) : NULL;
    PyObject *r = t ? PyObject_CallOneArg(t, v) : NULL;
    Py_XDECREF(t);
    Py_XDECREF(np);
    Py_DECREF(v);
    if (!r)
        Py_CLEAR(*type);
    return r;
}

/* The file line of the error a kernel raised last (raise_as_python, an index out of range),
 * for f_jit_launch to hand to the decorator, which puts the traceback there; 0 when none.
 * (Set and read with the GIL held, within one jit_launch call.) */
static long long raised_line;
static const char *raised_site; /* and what raised it: "op", "call", "subscript", "store" */

/* What kind of expression raises what raise code `kind` stands for (an operator, a call, a
 * subscript, a store into an array), for the traceback's caret. */
static const char *raise_site(int kind)
{
    switch (kind) {
    case NG_JIT_RAISE_ZERODIV: case NG_JIT_RAISE_ZERODIV_FLOAT: case NG_JIT_RAISE_ZERODIV_COMPLEX:
    case NG_JIT_RAISE_FLOORDIV_INT: case NG_JIT_RAISE_MOD_INT: case NG_JIT_RAISE_FLOORDIV_FLOAT:
    case NG_JIT_RAISE_MOD_FLOAT: case NG_JIT_RAISE_ZERO_POW: case NG_JIT_RAISE_ZERO_POW_COMPLEX:
    case NG_JIT_RAISE_POW_RANGE: case NG_JIT_RAISE_POW_COMPLEX: case NG_JIT_RAISE_POW_INT_NEG:
    case NG_JIT_RAISE_POW_NUMPY_NEG: case NG_JIT_RAISE_NEG_SHIFT: case NG_JIT_RAISE_INT_OVERFLOW:
        return "op";
    case NG_JIT_RAISE_INT_BOUNDS:
        return "store";
    case NG_JIT_RAISE_KEY_STR: case NG_JIT_RAISE_KEY_INT: case NG_JIT_RAISE_TUPLE_INDEX: case NG_JIT_RAISE_INDEX:
        return "subscript";
    default:
        return "call";
    }
}

/* The launch's function's globals, where a raise statement's class is looked up first, as
 * Python's statement does (borrowed; set and read within one jit_launch call, as raised_line). */
static PyObject *raise_globals;

/* Sets what the loop's raise or assert statement `what` (NG_JIT_RAISE_STMT) raises at `line`:
 * its class called with its message, or with none (`raise E`, `assert c`), and a note naming
 * the line, as KeyError's. */
static void raise_statement(const Program *p, int64_t what, long long line)
{
    const NgJitStmt *s = ng_jit_find_raise(p->ast, (int)(ng_jit_raise_field(what) - 1));
    if (!s) {
        PyErr_Format(PyExc_SystemError, "%s:%lld: a raise statement the compiled loop does not have",
                     p->ast->filename, line);
        return;
    }
    PyObject *cls = s->test || !raise_globals ? NULL : PyDict_GetItemString(raise_globals, s->name);
    if (!cls)
        cls = PyDict_GetItemString(PyEval_GetBuiltins(), s->name);
    if (!cls) {
        PyErr_Format(PyExc_NameError, "name '%s' is not defined", s->name);
        return;
    }
    PyObject *exc = s->value ? PyObject_CallFunction(cls, "s#", s->value->str, (Py_ssize_t)s->value->str_len)
                             : PyObject_CallNoArgs(cls);
    if (exc && !PyExceptionInstance_Check(exc)) {
        Py_DECREF(exc);
        PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
        return;
    }
    PyObject *note = exc ? PyUnicode_FromFormat("%s:%lld: in a compiled loop", p->ast->filename, line) : NULL;
    PyObject *r = note ? PyObject_CallMethod(exc, "add_note", "O", note) : NULL;
    if (r)
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_XDECREF(r);
    Py_XDECREF(note);
    Py_XDECREF(exc);
}

/* Raises what Python would have raised in the loop (an NG_JIT_RAISE cell's
 * line * NG_JIT_RAISE_CODES + NgJitRaise), naming the line; a KeyError
 * carries the key as Python's does, the line in a note. */
static void raise_as_python(const Program *p, int64_t what, int line_offset)
{
    long long line = (long long)(ng_jit_raise_line(what) + line_offset);
    raised_line = line;
    raised_site = raise_site(ng_jit_raise_kind(what));
    if (ng_jit_raise_kind(what) == NG_JIT_RAISE_STMT) {
        raised_site = "raise";
        raise_statement(p, what, line);
        return;
    }
    PyObject *type = NULL, *key = key_error(what, &type);
    if (key) {
        PyObject *exc = PyObject_CallOneArg(type, key);
        PyObject *note = exc ? PyUnicode_FromFormat("%s:%lld: in a compiled loop", p->ast->filename, line) : NULL;
        PyObject *r = note ? PyObject_CallMethod(exc, "add_note", "O", note) : NULL;
        if (r)
            PyErr_SetObject(type, exc);
        Py_XDECREF(r);
        Py_XDECREF(note);
        Py_XDECREF(exc);
        Py_DECREF(key);
        Py_DECREF(type);
        return;
    }
    if (ng_jit_raise_kind(what) == NG_JIT_RAISE_INDEX && !PyErr_Occurred()) { /* w[j] of a slice w */
        int64_t field = ng_jit_raise_field(what);
        PyErr_Format(PyExc_IndexError, "%s:%lld: %s", p->ast->filename, line,
                     field == NG_JIT_INDEX_STR     ? "string index out of range"
                     : field == NG_JIT_INDEX_TUPLE ? "tuple index out of range"
                                                   : "index out of bounds for axis 0 of a slice");
        return;
    }
    if (ng_jit_raise_kind(what) == NG_JIT_RAISE_EMPTY && !PyErr_Occurred()) { /* min/max of no element */
        int64_t field = ng_jit_raise_field(what);
        if (field == NG_JIT_EMPTY_ARGMAX || field == NG_JIT_EMPTY_ARGMIN) {
            PyErr_Format(PyExc_ValueError, "%s:%lld: attempt to get %s of an empty sequence", p->ast->filename, line,
                         field == NG_JIT_EMPTY_ARGMAX ? "argmax" : "argmin");
            return;
        }
        static const char *const np_op[] = {[NG_JIT_EMPTY_NP_MAX] = "maximum", [NG_JIT_EMPTY_NP_MIN] = "minimum",
                                            [NG_JIT_EMPTY_NP_FMAX] = "fmax", [NG_JIT_EMPTY_NP_FMIN] = "fmin"};
        if (field > 0 && field < (int64_t)(sizeof np_op / sizeof *np_op) && np_op[field]) { /* NumPy's words */
            PyErr_Format(PyExc_ValueError, "%s:%lld: zero-size array to reduction operation %s which has no identity",
                         p->ast->filename, line, np_op[field]);
            return;
        }
        PyObject *empty = PyTuple_New(0); /* Python's own words: max(()) */
        PyObject *r = empty ? PyObject_CallOneArg(PyDict_GetItemString(PyEval_GetBuiltins(),
                                                                      field == NG_JIT_EMPTY_MIN ? "min" : "max"),
                                                  empty)
                            : NULL;
        Py_XDECREF(empty);
        PyObject *t = NULL, *msg = caught(r, PyExc_ValueError, field == NG_JIT_EMPTY_MIN ? "min() of no element"
                                                                                        : "max() of no element", &t);
        if (msg)
            PyErr_Format(t, "%s:%lld: %U", p->ast->filename, line, msg);
        Py_XDECREF(msg);
        Py_XDECREF(t);
        return;
    }
    int dtype;
    int64_t value;
    if (ng_jit_raise_kind(what) == NG_JIT_RAISE_INT_BOUNDS && !PyErr_Occurred()) { /* NumPy's words */
        bool told = ng_jit_raise_bounds(what, &dtype, &value);
        if (dtype == NG_JIT_BOUNDS_LONG)
            PyErr_Format(PyExc_OverflowError, "%s:%lld: Python int too large to convert to C long", p->ast->filename,
                         line);
        else if (told)
            PyErr_Format(PyExc_OverflowError, "%s:%lld: Python integer %lld out of bounds for %s", p->ast->filename,
                         line, (long long)value, ng_dtype_info((NgDType)dtype)->name);
        else
            PyErr_Format(PyExc_OverflowError, "%s:%lld: Python integer out of bounds for %s", p->ast->filename,
                         line, ng_dtype_info((NgDType)dtype)->name);
        return;
    }
    PyObject *msg = PyErr_Occurred() ? NULL : python_exception(what, &type);
    if (msg && type)
        PyErr_Format(type, "%s:%lld: %U", p->ast->filename, line, msg);
    Py_XDECREF(type);
    Py_XDECREF(msg);
}

/* Why the loop runs as Python when its NG_JIT_PYTHON cell holds `what`, into
 * L->why; -1 on a Python error. */
static int python_reason(Launch *L, int64_t what, int line_offset)
{
    /* what only makes the loop run as Python (NG_JIT_PYTHON), in words after "line N " */
    static const struct { int kind; const char *why; } only[] = {
        {NG_JIT_RAISE_SHAPE, "makes an array of another shape than the part it is copied into (which NumPy "
                             "broadcasts, or raises on)"},
        {NG_JIT_RAISE_ROW_SHAPE, "combines rows of other lengths (which NumPy broadcasts, or raises on)"},
        {NG_JIT_RAISE_EMPTY, "takes a min, max, argmin, argmax, nanmin or nanmax of an empty row"},
        {NG_JIT_RAISE_UNPACK, "unpacks a tuple into another number of names"},
        {NG_JIT_RAISE_STR_LEN, "compares a str of other than one character"},
        {NG_JIT_RAISE_MASK_ROWS, "counts the rows a boolean mask selects, which have no element"},
        {NG_JIT_RAISE_RANGE_STEP, "has a range() step of 0 (Python raises ValueError)"},
        {NG_JIT_RAISE_POW_BIG, "takes pow(a, b, m) of a modulus from 2**32 on or a negative b (an inverse)"},
        {NG_JIT_RAISE_EMPTY_SUM, "takes sum() or math.prod() of an empty row (Python's is the start itself)"},
        {NG_JIT_RAISE_INT_OVERFLOW, "computes a Python int beyond 64 bits (numgpu's are 64-bit)"},
        {NG_JIT_RAISE_ROUND_DIGITS, "rounds a float to more than 22 digits either side of the point (Python's "
                                    "exact decimal rounding there needs more precision than a float64's)"},
        {NG_JIT_RAISE_STORE_RANGE, "stores at an index out of range of the array (Python raises IndexError where "
                                   "it gets there)"},
    };
    for (size_t k = 0; k < sizeof only / sizeof *only; k++)
        if (ng_jit_raise_kind(what) == only[k].kind) {
            bool read = only[k].kind == NG_JIT_RAISE_STORE_RANGE && ng_jit_raise_field(what) == 1;
            PyOS_snprintf(L->why, sizeof L->why, "line %lld %s", (long long)(ng_jit_raise_line(what) + line_offset),
                          read ? "reads at an index out of range of the array (Python raises IndexError where it "
                                 "gets there)" : only[k].why);
            return 0;
        }
    PyObject *type = NULL, *msg = python_exception(what, &type);
    if (msg && type)
        PyOS_snprintf(L->why, sizeof L->why, "line %lld raises %s (%s) for these values",
                      (long long)(ng_jit_raise_line(what) + line_offset), ((PyTypeObject *)type)->tp_name,
                      PyUnicode_AsUTF8(msg));
    Py_XDECREF(type);
    Py_XDECREF(msg);
    return msg && type && !PyErr_Occurred() ? 0 : -1;
}

/* Whether cell arg is a fresh reduction's (NgJitLoopPlan reductions[].fresh). */
static bool fresh_cell(const NgJitLoopPlan *plan, const NgJitArg *arg)
{
    for (int r = 0; plan->parallel && arg->role == NG_JIT_ARG_CELL && r < plan->nreductions; r++)
        if (plan->reductions[r].fresh && !plan->reductions[r].ranked && plan->reductions[r].name &&
            strcmp(plan->reductions[r].name, arg->name) == 0)
            return true;
    return false;
}

/* The identity of reduction op in dtype t (what a fresh reduction's cell starts at),
 * as t's bytes; false for an op or dtype without one here. */
static bool identity_bytes(NgOp op, NgDType t, unsigned char *bytes)
{
    bool up = op == NG_OP_MAXIMUM || op == NG_OP_BITOR; /* (starts at the bottom) */
    if (op != NG_OP_MAXIMUM && op != NG_OP_MINIMUM && op != NG_OP_BITOR && op != NG_OP_BITAND)
        return false;
    int n = ng_dtype_info(t)->itemsize;
    if (t == NG_BOOL || ((op == NG_OP_BITOR || op == NG_OP_BITAND) && ng_dtype_is_int(t)) ||
        (ng_dtype_is_int(t) && !ng_dtype_is_signed(t))) { /* all zeros or all ones (bool: 0 or 1) */
        memset(bytes, up ? 0 : t == NG_BOOL ? 0 : 0xff, (size_t)n);
        bytes[0] = up ? 0 : t == NG_BOOL ? 1 : 0xff;
        return true;
    }
    if (ng_dtype_is_signed(t)) { /* the most negative or the largest: a sign bit only, or all but it */
        uint64_t v = up ? (uint64_t)1 << (8 * n - 1) : ((uint64_t)1 << (8 * n - 1)) - 1;
        for (int b = 0; b < n; b++)
            bytes[b] = (unsigned char)(v >> (8 * b)); /* (little-endian, as the devices are) */
        return true;
    }
    if (t == NG_FLOAT64) {
        double v = up ? -INFINITY : INFINITY;
        memcpy(bytes, &v, sizeof v);
        return true;
    }
    if (t == NG_FLOAT32) {
        float v = up ? -INFINITY : INFINITY;
        memcpy(bytes, &v, sizeof v);
        return true;
    }
    if (t == NG_FLOAT16) {
        uint16_t v = up ? 0xfc00 : 0x7c00;
        memcpy(bytes, &v, sizeof v);
        return true;
    }
    return false;
}

/* The bytes of the 0-d cell of dtype t holding the Python scalar op, where
 * that is the scalar's own dtype or an int's float64 (C's conversion is
 * NumPy's); false otherwise: ng_op_assign converts it, in a kernel (which a
 * device that is not host-visible queues, where an upload waits). */
static bool scalar_bytes(const NgOperand *op, NgDType t, unsigned char *bytes)
{
    const NgScalar *v = &op->scalar;
    if (op->array || v->big)
        return false;
    double f = v->kind == NG_KIND_INT ? (double)v->v.i : v->v.f;
    if (v->kind == NG_KIND_BOOL && t == NG_BOOL)
        bytes[0] = v->v.i != 0;
    else if (v->kind == NG_KIND_INT && t == NG_INT64)
        memcpy(bytes, &v->v.i, sizeof v->v.i);
    else if ((v->kind == NG_KIND_INT || v->kind == NG_KIND_FLOAT) && t == NG_FLOAT64)
        memcpy(bytes, &f, sizeof f);
    else if (v->kind == NG_KIND_COMPLEX && t == NG_COMPLEX128) {
        memcpy(bytes, &v->v.f, sizeof v->v.f);
        memcpy(bytes + 8, &v->im, sizeof v->im);
    } else
        return false;
    return true;
}

/* -1 with Python's ValueError when the kernel of `low` writes an array that is read-only (a numgpu
 * array or a NumPy one, flags.writeable False), before anything runs; else 0. */
static int writes_read_only(const NgJitLowered *low, const Launch *L)
{
    for (int a = 0; a < low->nargs; a++) {
        const NgJitArg *arg = &low->args[a];
        int vi = arg->role == NG_JIT_ARG_ARRAY && arg->written && arg->name ? index_of(L, arg->name) : -1;
        if (vi < 0)
            continue;
        PyObject *v = L->values[vi];
        bool readonly = ngpy_check(v) && ((NgPyArray *)v)->readonly;
        if (!readonly && L->uploaded[vi] && PyObject_CheckBuffer(v)) { /* (NumPy's: wrapped when writeable) */
            Py_buffer view;
            readonly = PyObject_GetBuffer(v, &view, PyBUF_WRITABLE | PyBUF_STRIDES) < 0; /* (any layout: a view) */
            if (readonly)
                PyErr_Clear();
            else
                PyBuffer_Release(&view);
        }
        if (readonly) {
            PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
            return -1;
        }
    }
    return 0;
}

/* What lowering loop `stmt` with `plan` for the values in L gives (remembered
 * by its kernel key, which *key receives): 0; 1 with *why set when the
 * lowering refuses it (then the loop runs as Python); -1 with a Python error. */
static int lowered_for(Program *p, const NgJitStmt *stmt, const Launch *L, const NgJitLoopPlan *plan, NgStr *key,
                       NgJitLowered *low, const char **why)
{
    NgStatus st = ng_jit_lower_key(p->ast, stmt, L->types, L->n, plan, key);
    if (st != NG_OK) {
        ngpy_raise(st);
        return -1;
    }
    const NgJitLowered *known = find_lowered(p, key->s, key->len);
    if (known) {
        *low = *known;
        return writes_read_only(low, L);
    }
    NgIrKernel scratch;
    ng_ir_init(&scratch, "ngjit");
    st = ng_jit_lower(p->ast, stmt, L->types, L->n, plan, &scratch, low);
    ng_ir_free(&scratch);
    if (st != NG_OK) {
        /* beyond the kernel for these types, or an error Python raises only if it runs the
         * line (an index the array has not, an int beyond 64 bits): the loop runs as Python */
        if (st == NG_ERR_UNSUPPORTED || st == NG_ERR_TYPE || st == NG_ERR_VALUE || st == NG_ERR_INDEX ||
            st == NG_ERR_OVERFLOW) {
            *why = ng_error_message();
            return 1;
        }
        ngpy_raise(st);
        return -1;
    }
    remember_lowered(p, key->s, key->len, low);
    return writes_read_only(low, L);
}

/* NULL: the loop runs as Python (*why set by the caller), the launch's cells released. */
static PyObject *as_python(Launch *L, NgArray *cells, int ncells)
{
    L->python = true;
    for (int c = 0; c < ncells; c++)
        ng_array_release(&cells[c]);
    return NULL;
}

/* Whether v, an int (Python's or NumPy's), lies outside (-2**bits, 2**bits); false for other
 * values (a float, a bool). */
static bool beyond(PyObject *v, int bits)
{
    if (PyBool_Check(v) || PyFloat_Check(v) || PyComplex_Check(v))
        return false;
    PyObject *ix = PyNumber_Index(v);
    if (!ix) {
        PyErr_Clear();
        return false;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(ix, &overflow);
    Py_DECREF(ix);
    if (x == -1 && PyErr_Occurred())
        PyErr_Clear();
    long long top = 1LL << bits;
    return overflow || x >= top || x <= -top;
}

/* Whether a kernel of lowering `low` may have changed something Python sees besides the cells
 * it hands back: an array it writes, a generator it draws from. */
static bool has_effects(const NgJitLowered *low)
{
    for (int a = 0; a < low->nargs; a++)
        if ((low->args[a].role == NG_JIT_ARG_ARRAY && low->args[a].written) || low->args[a].role == NG_JIT_ARG_KEY)
            return true;
    return false;
}


/* A parallel float max or min (low->zero_of) that ended at a zero: Python keeps the first of
 * 0.0 and -0.0 it meets, where the threads and lanes combined them in any order. The value
 * before the loop when that is a zero (it came first); else 1: the loop must run again in order
 * (it writes no array, draws no random number: nothing else changes). 0 when the result
 * stands, -1 on a Python error. */
static int zero_sign(PyObject *result, const NgJitLowered *low, const Launch *L)
{
    const char *name = low->zero_of;
    PyObject *now = PyDict_GetItemString(result, name);
    int vi = index_of(L, name);
    if (vi < 0)
        return 0;
    double before = PyFloat_AsDouble(L->values[vi]), d = now ? PyFloat_AsDouble(now) : before;
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (d != 0.0) /* (absent: equal to the value before, which it keeps) */
        return 0;
    if (before == 0.0 && !low->zero_last)
        return now ? PyDict_SetItemString(result, name, L->values[vi]) : 0;
    for (int a = 0; a < low->nargs; a++)
        if ((low->args[a].role == NG_JIT_ARG_ARRAY && low->args[a].written) || low->args[a].role == NG_JIT_ARG_KEY)
            return 0; /* (its stores are made: the combine's zero stands) */
    return 1;
}

/* Lowers loop `info` with `plan` for the values in L, gets its kernel, runs it
 * and returns what the host needs after it (the cells by name, "__ng_note":
 * `note`); NULL with *why set when the loop must run as Python instead, or
 * with a Python error. `sargs`: a search's NG_JIT_START, NG_JIT_FROM and
 * NG_JIT_TO arguments, then NG_JIT_PHASE; `stray` (may be NULL): an index out of range, or an
 * error an iteration raises, sets it instead of raising (a search's iterations past its hit,
 * which Python never runs, may do either). */
static PyObject *run_kernel(Program *p, const NgJitLoopInfo *info, Launch *L, const NgJitLoopPlan *plan,
                            NgDevice *dev, const int64_t *sargs, int line_offset, const char *note,
                            const char **why, bool *stray)
{
    PyObject *result = NULL;
    NgStr key;
    ng_str_init(&key);
    NgJitLowered low;
    if (lowered_for(p, info->stmt, L, plan, &key, &low, why) != 0) {
        ng_str_free(&key);
        return NULL;
    }
    NgStatus st = NG_OK;
    const NgKernel *kern = NULL;
    BuildCtx ctx = {p, info->stmt, L, plan};
    if (st == NG_OK)
        st = ng_kernel_get(dev, key.s, key.len, build_loop, &ctx, &kern);
    ng_str_free(&key);
    if (st != NG_OK) {
        ngpy_raise(st);
        return NULL;
    }
    /* arguments */
    NgKArg kargs[4 * NG_JIT_MAX_ARGS * (2 + 2 * 8)];
    NgArray cells[NG_JIT_MAX_ARGS]; /* (only the first low.nargs are used: 35 KB not cleared per launch) */
    memset(cells, 0, (size_t)low.nargs * sizeof *cells);
    int na = 0;
    int64_t work = 1;
    for (int a = 0; a < low.nargs && st == NG_OK; a++) {
        const NgJitArg *arg = &low.args[a];
        int vi = arg->name ? index_of(L, arg->name) : -1;
        if (arg->role == NG_JIT_ARG_ERROR) {
            int64_t four = 4 * (L->err_slots > 0 ? L->err_slots : 1), zeros[4] = {0, 0, 0, 0}, unit = 1;
            int64_t *z = four > 4 ? PyMem_Calloc((size_t)four, sizeof *z) : zeros;
            st = z ? ng_array_empty(dev, NG_INT64, 1, &four, &cells[a])
                   : ng_error_set(NG_ERR_NOMEM, "out of host memory for a scan's error array");
            if (st == NG_OK)
                st = ng_array_upload(&cells[a], z, NULL);
            if (z != zeros)
                PyMem_Free(z);
            ng_kargs_array(kargs, &na, &cells[a], 1, &four, &unit);
        } else if (arg->role == NG_JIT_ARG_ARRAY) {
            const NgArray *x = &L->arrays[vi];
            int64_t es[NG_MAXDIMS];
            for (int d = 0; d < x->ndim; d++)
                es[d] = x->strides[d] / ng_array_itemsize(x);
            ng_kargs_array(kargs, &na, x, x->ndim, x->shape, es);
            if (x->size > work)
                work = x->size;
        } else if (arg->role == NG_JIT_ARG_SCALAR && strcmp(arg->name, NG_JIT_START) == 0) {
            kargs[na++].i = sargs[0];
        } else if (arg->role == NG_JIT_ARG_SCALAR && strcmp(arg->name, NG_JIT_FROM) == 0) {
            kargs[na++].i = sargs[1];
        } else if (arg->role == NG_JIT_ARG_SCALAR && strcmp(arg->name, NG_JIT_TO) == 0) {
            kargs[na++].i = sargs[2];
        } else if (arg->role == NG_JIT_ARG_SCALAR && strcmp(arg->name, NG_JIT_PHASE) == 0) {
            kargs[na++].i = sargs[3];
        } else if (arg->role == NG_JIT_ARG_KEY) {
            if (random_key(L, arg->name, vi >= 0 ? L->values[vi] : NULL, vi >= 0 ? L->types[vi].module : NG_JIT_MOD_NONE,
                           &kargs[na++].i) < 0) {
                st = NG_ERR_TYPE; /* (the Python error stands) */
                break;
            }
        } else if (arg->role == NG_JIT_ARG_SCALAR) {
            NgOperand op;
            NgArray tmp;
            if (ngpy_operand(L->values[vi], &op, &tmp) < 0) {
                st = NG_ERR_TYPE;
                break;
            }
            if (arg->bits && beyond(L->values[vi], arg->bits)) { /* (lower.c's int_overflow assumed it) */
                PyOS_snprintf(L->why, sizeof L->why, "'%s' holds an int beyond 2**%d, which the loop's 64-bit "
                              "ints may not take", arg->name, arg->bits);
                *why = L->why;
                return as_python(L, cells, low.nargs);
            }
            bool cplx = ng_dtype_is_complex(arg->dtype); /* two slots: real, imaginary */
            if (op.array) { /* a NumPy scalar: read its value through a download */
                double d[2] = {0, 0};
                NgArray f;
                st = ng_op_astype(op.array, cplx ? NG_COMPLEX128 : ng_dtype_is_float(arg->dtype) ? NG_FLOAT64 : NG_INT64,
                                  &f);
                if (st == NG_OK) {
                    st = ng_array_download(&f, d, NULL);
                    ng_array_release(&f);
                }
                memcpy(&kargs[na++], &d[0], sizeof d[0]);
                if (cplx)
                    kargs[na++].f = d[1];
                ng_array_release(&tmp);
            } else { /* a Python scalar (a complex one's real part in v.f) */
                bool fl = op.scalar.kind == NG_KIND_FLOAT || op.scalar.kind == NG_KIND_COMPLEX;
                if (ng_dtype_is_inexact(arg->dtype))
                    kargs[na++].f = fl ? op.scalar.v.f : (double)op.scalar.v.i;
                else
                    kargs[na++].i = fl ? (int64_t)op.scalar.v.f : op.scalar.v.i;
                if (cplx)
                    kargs[na++].f = op.scalar.im;
            }
        } else { /* cell */
            st = ng_array_empty(dev, arg->dtype, 0, NULL, &cells[a]);
            if (st == NG_OK && strcmp(arg->name, NG_JIT_FOUND) == 0) { /* GPUs combine into it: "none" */
                int64_t none = ng_jit_search_none(plan->search_step);
                st = ng_array_upload(&cells[a], &none, NULL);
            } else if (st == NG_OK && strcmp(arg->name, NG_JIT_RANK) == 0) { /* the start's rank */
                int64_t start = -1;
                st = ng_array_upload(&cells[a], &start, NULL);
            } else if (st == NG_OK && strcmp(arg->name, NG_JIT_LOCK) == 0) { /* free */
                int32_t free_ = 0;
                st = ng_array_upload(&cells[a], &free_, NULL);
            } else if (st == NG_OK && (strcmp(arg->name, NG_JIT_RAISE) == 0 || strcmp(arg->name, NG_JIT_RAISE_FIRST) == 0 ||
                                       strcmp(arg->name, NG_JIT_RAISE_HIGH) == 0 ||
                                       arg->role == NG_JIT_ARG_BOUND)) {
                int64_t nothing = 0; /* nothing raised yet; not bound yet (a reduction's, combined into) */
                st = ng_array_upload(&cells[a], &nothing, NULL);
            } else if (st == NG_OK && fresh_cell(plan, arg)) { /* the value before the loop takes no part */
                unsigned char bytes[16];
                if (!identity_bytes(arg->reduction, arg->dtype, bytes)) {
                    PyOS_snprintf(L->why, sizeof L->why, "'%s' (the value of the last iteration that assigns it) "
                                  "has no %s reduction in %s", arg->name, ng_op_name(arg->reduction),
                                  ng_dtype_info(arg->dtype)->name);
                    *why = L->why;
                    return as_python(L, cells, low.nargs);
                }
                st = ng_array_upload(&cells[a], bytes, NULL);
            } else if (st == NG_OK && arg->has_input && vi >= 0 && arg->bits && beyond(L->values[vi], arg->bits)) {
                PyOS_snprintf(L->why, sizeof L->why, "'%s' holds an int beyond 2**%d before the loop, which a parallel "
                              "sum of 64-bit ints may not take", arg->name, arg->bits);
                *why = L->why;
                return as_python(L, cells, low.nargs);
            } else if (st == NG_OK && arg->has_input && vi >= 0) {
                NgOperand op;
                NgArray tmp;
                if (ngpy_operand(L->values[vi], &op, &tmp) < 0) {
                    st = NG_ERR_TYPE;
                    break;
                }
                /* on cpu a copy of the bytes; elsewhere a kernel, queued, where an upload would
                 * wait for the device (PoCL: 30 us a call more) */
                unsigned char bytes[16];
                st = ng_device_host_visible(dev) && scalar_bytes(&op, arg->dtype, bytes)
                         ? ng_array_upload(&cells[a], bytes, NULL)
                         : ng_op_assign(&cells[a], &op);
                ng_array_release(&tmp);
                if (st == NG_ERR_OVERFLOW && !op.array) {
                    /* a Python int the name's type in the loop cannot hold (s = 300 before it, s =
                     * u[i] of a uint8 u in it): Python's name changes type, the kernel's cannot */
                    PyOS_snprintf(L->why, sizeof L->why, "'%s' holds a Python int before the loop that the %s "
                                  "the loop makes it cannot hold", arg->name, ng_dtype_info(arg->dtype)->name);
                    *why = L->why;
                    return as_python(L, cells, low.nargs);
                }
            }
            ng_kargs_array(kargs, &na, &cells[a], 0, NULL, NULL);
        }
    }
    if (st == NG_OK)
        st = ng_kernel_launch(kern, kargs, na, work, work);
    for (int a = 0; a < low.nargs && st == NG_OK; a++) {
        if (low.args[a].role != NG_JIT_ARG_CELL || strcmp(low.args[a].name, NG_JIT_PYTHON) != 0)
            continue;
        int64_t what = 0; /* not 0: the kernel ran no iteration, and the loop runs as Python */
        st = ng_array_download(&cells[a], &what, NULL);
        if (st == NG_OK && what != 0 && ng_jit_raise_kind(what) == NG_JIT_RAISE_NO_TRIPS) {
            /* a range of no iteration: as Python's loop, no effect (no name comes back) */
            for (int c = 0; c < low.nargs; c++)
                ng_array_release(&cells[c]);
            PyObject *r = PyDict_New(), *n = r ? str_of(p, "kernel (no iteration)") : NULL;
            PyObject *k = n ? str_of(p, "__ng_note") : NULL;
            if (!k || PyDict_SetItem(r, k, n) < 0)
                Py_CLEAR(r);
            Py_XDECREF(n);
            Py_XDECREF(k);
            return r;
        }
        if (st == NG_OK && what != 0) {
            if (python_reason(L, what, line_offset) == 0)
                *why = L->why;
            return as_python(L, cells, low.nargs);
        }
    }
    if (st == NG_OK) {
        result = PyDict_New();
        PyObject *n = result ? str_of(p, note) : NULL, *k = n ? str_of(p, "__ng_note") : NULL;
        if (!k || PyDict_SetItem(result, k, n) < 0)
            Py_CLEAR(result);
        Py_XDECREF(n);
        Py_XDECREF(k);
    }
    int64_t first_what = 0, high_what = 0; /* (NG_JIT_RAISE_FIRST, NG_JIT_RAISE_HIGH) */
    for (int a = 0; a < low.nargs && result; a++) {
        const NgJitArg *arg = &low.args[a];
        int vi = arg->name ? index_of(L, arg->name) : -1;
        if (arg->role == NG_JIT_ARG_ERROR) {
            int64_t one[4] = {0, 0, 0, 0}, *all = one, *e = one;
            if (L->err_slots > 1 && !(all = PyMem_Calloc((size_t)L->err_slots * 4, sizeof *all))) {
                st = ng_error_set(NG_ERR_NOMEM, "out of host memory for a scan's error array");
            } else {
                st = ng_array_download(&cells[a], all, NULL);
            }
            for (int64_t b = 0; st == NG_OK && all != one && b < L->err_slots; b++)
                if (all[4 * b] != 0) { /* (the first block that failed) */
                    memcpy(one, all + 4 * b, sizeof one);
                    break;
                }
            if (all != one)
                PyMem_Free(all);
            if (st != NG_OK) {
                Py_CLEAR(result);
                ngpy_raise(st);
            } else if (e[0] != 0 && stray) {
                *stray = true;
            } else if (e[0] != 0) {
                Py_CLEAR(result);
                raised_line = (long long)(e[0] + line_offset);
                raised_site = "subscript";
                PyErr_Format(PyExc_IndexError, "%s:%lld: index %lld is out of bounds for axis %lld with size %lld",
                             p->ast->filename, (long long)(e[0] + line_offset), (long long)e[1], (long long)e[2],
                             (long long)e[3]);
            }
        } else if (arg->role == NG_JIT_ARG_CELL && (strcmp(arg->name, NG_JIT_RAISE_FIRST) == 0 ||
                                                    strcmp(arg->name, NG_JIT_RAISE_HIGH) == 0)) {
            /* (before NG_JIT_RAISE, which reads them) */
            st = ng_array_download(&cells[a], strcmp(arg->name, NG_JIT_RAISE_FIRST) == 0 ? &first_what : &high_what,
                                   NULL);
            if (st != NG_OK) {
                Py_CLEAR(result);
                ngpy_raise(st);
            }
        } else if (arg->role == NG_JIT_ARG_CELL && strcmp(arg->name, NG_JIT_RAISE) == 0) {
            int64_t what = 0;
            st = ng_array_download(&cells[a], &what, NULL);
            int64_t joined = ng_jit_raise_join(first_what, high_what);
            if (st == NG_OK && joined != 0) /* the first failing iteration's, whole */
                what = joined;
            else if (st == NG_OK && first_what != 0) /* ... all of it where the low bits agree */
                what = ng_jit_raise_low(what) == ng_jit_raise_low(first_what) ? what : ng_jit_raise_low(first_what);
            if (st != NG_OK) {
                Py_CLEAR(result);
                ngpy_raise(st);
            } else if (what != 0 && stray) {
                *stray = true;
            } else if (what != 0 && ng_jit_raise_kind(what) == NG_JIT_RAISE_INT_OVERFLOW && !has_effects(&low)) {
                /* a Python int beyond 64 bits in a loop that changed nothing: Python computes it */
                Py_CLEAR(result);
                PyOS_snprintf(L->why, sizeof L->why, "line %lld computes a Python int beyond 64 bits (numgpu's are "
                              "64-bit)", (long long)(ng_jit_raise_line(what) + line_offset));
                *why = L->why;
                L->python = true;
            } else if (what != 0 && ng_jit_raise_kind(what) == NG_JIT_RAISE_KEY_INT &&
                       !ng_jit_raise_key(what, &(int64_t){0}, &(int){0}) && !has_effects(&low)) {
                /* a missing key beyond what the code tells, in a loop that changed nothing: Python
                 * raises it, key and all */
                Py_CLEAR(result);
                PyOS_snprintf(L->why, sizeof L->why, "line %lld misses a dict key beyond +-2**31, which a kernel's "
                              "KeyError does not tell", (long long)(ng_jit_raise_line(what) + line_offset));
                *why = L->why;
                L->python = true;
            } else if (what != 0) {
                Py_CLEAR(result);
                raise_as_python(p, what, line_offset);
            }
        } else if (arg->role == NG_JIT_ARG_CELL && strcmp(arg->name, NG_JIT_PYTHON) == 0) {
            /* (read once, after the launch: 0) */
        } else if (arg->role == NG_JIT_ARG_CELL) {
            PyObject *v = cell_value(&cells[a], arg), *k = v ? str_of(p, arg->name) : NULL;
            if (!k || PyDict_SetItem(result, k, v) < 0)
                Py_CLEAR(result);
            Py_XDECREF(v);
            Py_XDECREF(k);
        } else if (arg->role == NG_JIT_ARG_BOUND) { /* never assigned: Python's name stays as it was */
            int64_t bound = 1; /* (a bool, or a reduction's int64) */
            uint8_t flag = 1;
            st = ng_array_download(&cells[a], arg->dtype == NG_BOOL ? (void *)&flag : (void *)&bound, NULL);
            bound = arg->dtype == NG_BOOL ? flag : bound;
            for (int r = 0; st == NG_OK && arg->reduction == NG_OP_GE && r < low.nargs; r++)
                if (low.args[r].role == NG_JIT_ARG_CELL && strcmp(low.args[r].name, NG_JIT_RANK) == 0) {
                    /* a ranked reduction's names: bound where an iteration won over the start */
                    st = ng_array_download(&cells[r], &bound, NULL);
                    bound = st == NG_OK && bound >= 0;
                }
            if (st == NG_OK && bound && arg->reduction == NG_OP_EQ && vi >= 0) {
                /* s = max(s, e) in parallel: a result equal to s's value before is that object */
                PyObject *now = PyDict_GetItemString(result, arg->name);
                int same = now ? PyObject_RichCompareBool(now, L->values[vi], Py_EQ) : 0;
                if (same < 0)
                    Py_CLEAR(result);
                bound = !same;
            }
            if (st != NG_OK) {
                Py_CLEAR(result);
                ngpy_raise(st);
            } else if (result && !bound && PyDict_DelItemString(result, arg->name) < 0) {
                Py_CLEAR(result);
            }
        } else if (arg->role == NG_JIT_ARG_ARRAY && arg->written && L->uploaded[vi] && !L->hold) {
            /* in-place semantics for NumPy arguments: copy the result back */
            if (write_back(&L->arrays[vi], L->values[vi]) < 0)
                Py_CLEAR(result);
        } else if (arg->role == NG_JIT_ARG_ARRAY && arg->written && L->kept[vi]) {
            Py_INCREF(Py_True); /* (back at the end of the call) */
            PyList_SetItem(L->kept[vi], 2, Py_True);
        }
    }
    int z = result && low.zero_of ? zero_sign(result, &low, L) : 0;
    if (z != 0) {
        Py_CLEAR(result);
        if (z > 0)
            *why = "its max or min ended at a zero: of 0.0 and -0.0 Python keeps the first, which only the loop "
                   "in order gives";
    }
    for (int a = 0; a < low.nargs; a++)
        ng_array_release(&cells[a]);
    if (st != NG_OK && !PyErr_Occurred())
        ngpy_raise(st);
    return result;
}

static PyObject *launch(PyObject *capsule, int index, PyObject *locals, PyObject *globals, PyObject *local_names,
                        PyObject *assigned, int boundscheck, int line_offset, PyObject *keep);

/* ---- scans: a loop in order run in blocks (NgJitLoopInfo.scan) ---- */

/* Whether a scan of n iterations runs in blocks on dev (else in order, one
 * kernel): on a GPU from 4096 iterations (its one thread is slow); on the
 * cpu device, with 2 cores or more, from 65536 (an OpenCL CPU device, PoCL:
 * never, it ran 10-20% slower in blocks). A scan in blocks reads its data twice and
 * writes it once, where the loop in order reads and writes it once at one
 * core's memory bandwidth: on 2 cores (an Intel Xeon, 2026-12-05, 20M
 * int64) `a[i] += a[i - 1]` ran at parity (11.8 and 11.1 ms), a running sum
 * into a fresh array 1.6x faster (25 and 39 ms: its pages are first touched
 * by both cores). */
static bool scan_pays(const NgDevice *dev, int64_t n)
{
    if (dev->gpu)
        return n >= 4096;
    return dev->be->target->par == NG_PAR_OPENMP && n >= 65536 && sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/* Scan loop `index`'s loops and range, made at its first launch (state 2 when
 * they cannot be); NULL with a Python error. */
static Scan *scan_of(Program *p, int index)
{
    if (!p->scans) {
        p->scans = PyMem_Calloc((size_t)p->loops->n, sizeof *p->scans);
        if (!p->scans)
            return (Scan *)PyErr_NoMemory();
        p->nscans = p->loops->n;
    }
    Scan *sc = &p->scans[index];
    if (sc->state)
        return sc;
    const NgJitLoopInfo *info = &p->loops->items[index];
    NgJitStmt *ph[3];
    sc->state = 2;
    if (ng_jit_scan_phases(p->ast, info, ph) != NG_OK)
        return sc; /* (too large an expression: in order) */
    const NgJitExpr *it = info->stmt->test;
    PyObject *text = PyUnicode_FromStringAndSize(p->ast->src + it->span.off, it->span.end_off - it->span.off);
    const char *t = text ? PyUnicode_AsUTF8(text) : NULL;
    sc->range = t ? Py_CompileString(t, p->ast->filename, Py_eval_input) : NULL;
    Py_XDECREF(text);
    if (!sc->range) {
        PyErr_Clear();
        return sc;
    }
    for (int i = 0; i < 3; i++)
        sc->phase[i].stmt = ph[i];
    sc->state = 1;
    return sc;
}

/* The value of loop `index`'s FOR.pre_value (a hand argmax's best, x[k] at the loop's start), a
 * new reference; NULL with no error when Python cannot evaluate it here (x[k] out of range:
 * then the loop runs as Python, which raises where it gets there, if it does). */
static PyObject *pre_value(Program *p, int index, PyObject *globals, PyObject *locals)
{
    const NgJitExpr *e = p->loops->items[index].stmt->pre_value;
    if (e->kind == NG_JIT_E_INT && !e->big) /* (desugar.c's last_values: a 0 the source has not) */
        return PyLong_FromUnsignedLongLong(e->ival);
    if (!p->pres) {
        p->pres = PyMem_Calloc((size_t)p->loops->n, sizeof *p->pres);
        if (!p->pres) {
            PyErr_NoMemory();
            return NULL;
        }
        p->npres = p->loops->n;
    }
    if (!p->pres[index]) {
        PyObject *text = PyUnicode_FromStringAndSize(p->ast->src + e->span.off, e->span.end_off - e->span.off);
        const char *t = text ? PyUnicode_AsUTF8(text) : NULL;
        p->pres[index] = t ? Py_CompileString(t, p->ast->filename, Py_eval_input) : NULL;
        Py_XDECREF(text);
        if (!p->pres[index])
            return NULL;
    }
    PyObject *v = PyEval_EvalCode(p->pres[index], globals, locals);
    if (!v && PyErr_ExceptionMatches(PyExc_Exception))
        PyErr_Clear();
    return v;
}

/* The blocks a scan of n iterations runs in: on a CPU 64, or 4 per core past
 * 16 (a few per thread: the C compiler vectorises each block's partial
 * result); on GPUs about sqrt(n) (the one thread of the middle launch walks
 * them). */
static int64_t scan_blocks(NgDevice *dev, int64_t n)
{
    if (!dev->gpu) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        return cores > 16 ? 4 * (int64_t)cores : 64;
    }
    int64_t nb = 256;
    while (nb * nb < n && nb < 16384)
        nb *= 2;
    return nb;
}

/* Whether the lowering `low` has a part a scan cannot keep: an operation
 * Python raises on (a block would run on past it), a wrap check. (An error
 * array is the checks of indices where they run, boundscheck being off: an
 * index out of range in the first two parts runs the loop in order (run_scan),
 * a store's in the last raises IndexError from the part that makes it. A NG_JIT_PYTHON cell is a
 * check before the loop, of values the same in every iteration: a part whose
 * cell is set ran no iteration, and since the parts before the last store
 * nothing the loop's arrays hold, run_scan leaves the loop to run in order:
 * a row stored whole at k, `Y[k] = X[i]`, checks the rows' lengths so.) */
static bool scan_unsafe(const NgJitLowered *low)
{
    for (int a = 0; a < low->nargs; a++) {
        const NgJitArg *arg = &low->args[a];
        if ((arg->role == NG_JIT_ARG_CELL && (!strcmp(arg->name, NG_JIT_RAISE) || !strcmp(arg->name, NG_JIT_WRAP))))
            return true;
    }
    return false;
}

/* The dtype the scan's values combine in, and whether the host expects a
 * Python number back (*weak), when that is exact in any order: an integer
 * dtype (a bool one for | & ^ max min); NG_NTYPES when not. `low`: the loop's
 * lowering in order. */
static NgDType scan_dtype(const Program *p, const NgJitLoopInfo *info, const Launch *L, const NgJitLowered *low,
                          bool *weak)
{
    bool idempotent = info->scan_op != NG_JIT_RED_ADD && info->scan_op != NG_JIT_RED_MUL;
    *weak = false;
    if (info->scan_var >= 0) { /* the accumulator's cell: its dtype is what every update gives */
        const char *s = p->ast->names[info->scan_var];
        for (int a = 0; a < low->nargs; a++) {
            const NgJitArg *arg = &low->args[a];
            if (arg->role == NG_JIT_ARG_CELL && !strcmp(arg->name, s) && arg->has_input &&
                (ng_dtype_is_int(arg->dtype) || (arg->dtype == NG_BOOL && idempotent))) {
                *weak = arg->weak;
                return arg->dtype;
            }
        }
        return NG_NTYPES;
    }
    /* a recurrence: a 1-d integer array, and values that promote with it to integers (then an
     * element stored into it is the exact one mod 2**bits: + * | & ^ commute with that), or to its
     * own dtype (max, min) */
    const char *a = info->scan_update->kind == NG_JIT_S_AUGASSIGN ? info->scan_update->target->lhs->name
                                                                   : info->scan_update->targets[0]->lhs->name;
    int ai = index_of(L, a);
    if (ai < 0 || !L->types[ai].is_array || L->types[ai].ndim != 1 || L->types[ai].seq != NG_JIT_SEQ_ARRAY ||
        !ng_dtype_is_int(L->types[ai].dtype))
        return NG_NTYPES;
    NgDType d = L->types[ai].dtype, t = d;
    for (int i = 0; i < L->n; i++) {
        const NgJitVarType *v = &L->types[i];
        if (i == ai || v->module != NG_JIT_MOD_NONE)
            continue;
        if ((v->is_array && v->seq != NG_JIT_SEQ_ARRAY) || !(ng_dtype_is_int(v->dtype) || v->dtype == NG_BOOL))
            return NG_NTYPES;
        if (v->is_array || v->numpy_scalar)
            t = ng_dtype_promote(t, v->dtype);
    }
    return ng_dtype_is_int(t) && (t == d || !idempotent || info->scan_op == NG_JIT_RED_OR ||
                                  info->scan_op == NG_JIT_RED_AND || info->scan_op == NG_JIT_RED_XOR)
               ? d : NG_NTYPES;
}

/* Whether a compaction (NgJitLoopInfo.scan_compact) may run in blocks: its accumulator k an
 * int64 (it cannot wrap in the loop's iterations, each adding at most 2**20) starting from a
 * value >= 0 (a negative k would index from the end: then two iterations could store into one
 * element). A Python error, which the loop in order raises again, is cleared. */
static bool compact_start_ok(const Program *p, const NgJitLoopInfo *info, const Launch *L, NgDType dt)
{
    int at = index_of(L, p->ast->names[info->scan_var]);
    if (dt != NG_INT64 || at < 0 || L->types[at].is_array)
        return false;
    PyObject *v = PyNumber_Index(L->values[at]);
    long long k = v ? PyLong_AsLongLong(v) : -1;
    Py_XDECREF(v);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return k >= 0 && k < ((long long)1 << 60);
}

/* Adds a value the scan's loops read to L (an int, or the array `arr`, which
 * L then owns); false when L is full. */
static bool scan_bind(Launch *L, const char *name, PyObject *v, NgArray *arr)
{
    if (L->n == MAXV)
        return false;
    NgJitVarType *t = &L->types[L->n];
    memset(t, 0, sizeof *t);
    t->name = name;
    t->dtype = arr ? arr->dtype : NG_INT64;
    t->is_array = arr != NULL;
    t->ndim = arr ? 1 : 0;
    t->inner_contig = true;
    L->values[L->n] = v;
    L->arrays[L->n].buf = NULL;
    if (arr) {
        L->arrays[L->n] = *arr;
        arr->buf = NULL;
    }
    L->uploaded[L->n] = false;
    L->kept[L->n] = NULL;
    L->n++;
    return true;
}

/* Loop `index` (a scan) run in blocks (ng_jit_scan_phases), when its values
 * allow: the cells by name (its accumulator after it) and "__ng_note"; NULL
 * with no error when it must run in order instead (nothing has changed
 * then), or with a Python error. `seq`: its plan in order. */
static PyObject *run_scan(Program *p, int index, Launch *L, const NgJitLoopPlan *seq, NgDevice *dev,
                          PyObject *globals, PyObject *locals, int line_offset)
{
    const NgJitLoopInfo *info = &p->loops->items[index];
    const char *env = getenv("NUMGPU_SCAN"); /* 0: never; 1: always; else where it pays */
    int force = env && !strcmp(env, "1") ? 1 : env && !strcmp(env, "0") ? 0 : -1;
    if (force == 0)
        return NULL;
    Scan *sc = scan_of(p, index);
    if (!sc || sc->state != 1)
        return NULL;
    /* the trip count, as Python's range gives it */
    PyObject *r = PyEval_EvalCode(sc->range, globals, locals);
    int64_t n = 0, first = 0, last = 0;
    if (r && PyRange_Check(r) && (n = PyObject_Length(r)) > 0) {
        PyObject *f = PySequence_GetItem(r, 0), *l = PySequence_GetItem(r, n - 1);
        first = f ? PyLong_AsLongLong(f) : 0;
        last = l ? PyLong_AsLongLong(l) : 0;
        Py_XDECREF(f);
        Py_XDECREF(l);
    }
    Py_XDECREF(r);
    if (PyErr_Occurred()) { /* (the loop in order raises what Python would) */
        PyErr_Clear();
        return NULL;
    }
    if (n < 1 || (force < 0 && !scan_pays(dev, n)) ||
        (info->scan_var < 0 && (first < 0 || last < 0))) /* (a negative index wraps: elements may meet) */
        return NULL;
    /* the values: combined exactly in any order */
    NgStr key;
    ng_str_init(&key);
    NgJitLowered low;
    const char *why = NULL;
    int rc = lowered_for(p, info->stmt, L, seq, &key, &low, &why);
    ng_str_free(&key);
    bool weak = false;
    NgDType dt = rc == 0 && !scan_unsafe(&low) ? scan_dtype(p, info, L, &low, &weak) : NG_NTYPES;
    if (rc < 0 || dt == NG_NTYPES || (info->scan_compact && !compact_start_ok(p, info, L, dt)))
        return NULL;
    int64_t nb = scan_blocks(dev, n), chunk = (n + nb - 1) / nb;
    NgArray part;
    NgStatus st = ng_array_empty(dev, dt, 1, &nb, &part);
    if (st != NG_OK)
        return ngpy_raise(st);
    int n0 = L->n;
    PyObject *ints[3] = {PyLong_FromLongLong(nb), PyLong_FromLongLong(chunk), PyLong_FromLongLong(n)};
    PyObject *result = NULL, *carried = NULL;
    if (!ints[0] || !ints[1] || !ints[2] || !scan_bind(L, NG_JIT_SCAN_NB, ints[0], NULL) ||
        !scan_bind(L, NG_JIT_SCAN_CHUNK, ints[1], NULL) || !scan_bind(L, NG_JIT_SCAN_N, ints[2], NULL) ||
        !scan_bind(L, NG_JIT_SCAN_PART, Py_None, &part))
        goto out;
    NgJitLoopPlan plans[3];
    for (int k = 0; k < 3; k++) {
        memset(&plans[k], 0, sizeof plans[k]);
        plans[k].parallel = k != 1;
        plans[k].scan = 1 + k;
        plans[k].loops = p->loops;
        NgStr kk;
        ng_str_init(&kk);
        rc = lowered_for(p, sc->phase[k].stmt, L, &plans[k], &kk, &low, &why);
        ng_str_free(&kk);
        if (rc != 0 || scan_unsafe(&low))
            goto out;
    }
    char note[80];
    snprintf(note, sizeof note, "kernel (a parallel scan in %lld blocks)", (long long)nb);
    int64_t sargs[4] = {0, 0, 0, 0};
    bool hold = L->hold;
    for (int k = 0; k < 3; k++) {
        L->hold = hold || k < 2; /* (only the last writes the loop's arrays) */
        L->err_slots = k == 2 ? nb : 0; /* (an error per block: the first block's raised) */
        why = NULL;
        bool stray = false; /* (an index out of range in a part before the last, which changes nothing) */
        PyObject *res = run_kernel(p, &sc->phase[k], L, &plans[k], dev, sargs, line_offset, note, &why,
                                   k < 2 ? &stray : NULL);
        L->err_slots = 0;
        if (stray) { /* (in order, which raises where Python does, after its stores) */
            Py_CLEAR(res);
            Py_CLEAR(result);
            break;
        }
        if (!res && !PyErr_Occurred() && L->python) { /* (ran no iteration: in order, see scan_unsafe) */
            L->python = false;
            Py_CLEAR(result);
            break;
        }
        if (!res && !PyErr_Occurred() && k == 2)
            PyErr_Format(PyExc_RuntimeError, "numgpu.jit: the last part of the scan at line %d did not run: %s",
                         info->line + line_offset, why ? why : "?");
        if (!res) { /* (an error: a store out of range in the last part raises IndexError) */
            Py_CLEAR(result);
            break;
        }
        if (k == 1 && info->scan_var >= 0) { /* the accumulator after the loop */
            carried = PyDict_GetItemString(res, p->ast->names[info->scan_var]);
            Py_XINCREF(carried);
        }
        Py_XDECREF(result);
        result = res;
    }
    L->hold = hold;
    if (result && info->scan_var >= 0) {
        /* a Python int the loop keeps a Python int (phase 1 made it of its array's dtype) */
        PyObject *v = carried && weak ? (dt == NG_BOOL ? PyBool_FromLong(PyObject_IsTrue(carried))
                                                       : PyNumber_Long(carried))
                                      : carried;
        if (v && v != carried)
            Py_DECREF(carried);
        carried = v;
        if (!carried || PyDict_SetItemString(result, p->ast->names[info->scan_var], carried) < 0)
            Py_CLEAR(result);
    }
out:
    Py_XDECREF(carried);
    for (int k = 0; k < 3; k++)
        Py_XDECREF(ints[k]);
    ng_array_release(&part);
    while (L->n > n0) /* (the loop in order, if it comes to that, sees its own values) */
        ng_array_release(&L->arrays[--L->n]);
    return result;
}

/* A parallel launch's result without its NG_JIT_WRAP cell; NULL with *why
 * set when the cell says an index was negative (nothing ran: the loop must
 * run in order), or on a Python error. */
static PyObject *unless_wrapped(PyObject *result, const char **why)
{
    PyObject *w = result ? PyDict_GetItemString(result, NG_JIT_WRAP) : NULL;
    if (!w)
        return result;
    long long v = PyLong_AsLongLong(w);
    if (v == -1 && PyErr_Occurred()) {
        Py_DECREF(result);
        return NULL;
    }
    if (v) {
        Py_DECREF(result);
        *why = "an index of an array it writes is negative, so two iterations may meet in one element";
        return NULL;
    }
    if (PyDict_DelItemString(result, NG_JIT_WRAP) < 0)
        Py_CLEAR(result);
    return result;
}

/* A sequential plan's live-out names: those in `assigned` (the names the
 * loop assigns) not bound before it (those are cells already) that
 * something may read after the loop (the analysis' liveness: a list
 * comprehension's name, which desugar.c rewrote away, or a row view need not
 * come back); -1 on a Python error, 1 when there are more than a plan holds
 * (the loop runs as Python: a name left out would keep its old value). */
static int live_out(NgJitLoopPlan *plan, PyObject *assigned, const Launch *L, const NgJitLoopInfo *info)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(assigned); i++) {
        const char *nm = PyUnicode_AsUTF8(PyTuple_GET_ITEM(assigned, i));
        if (!nm)
            return -1;
        if (index_of(L, nm) < 0 && ng_jit_loop_reads_after(info, nm)) {
            if (plan->nlive_out == NG_JIT_MAX_LIVE_OUT)
                return 1;
            plan->live_out[plan->nlive_out++] = nm;
        }
    }
    return 0;
}

/* jit_launch(program, globals, local_names, boundscheck, line_offset, state, launched, index, locals,
 * assigned): the first seven bound once per function (functools.partial), the
 * last three by each launch point of its host plan. local_names: a frozenset
 * of the function's local names (Python never reads those from its globals:
 * one not bound yet is assigned in the loop). state.keep: the call's kept
 * arrays; launched[index] is set to how the loop ran; where the kernel raised what Python
 * would raise in the loop, state.raised = (the exception, the file line that raises it, what kind
 * of expression raises it: "op", "call", "subscript" or "store"). */
static PyObject *f_jit_launch(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10 || !PyDict_Check(args[1]) || !PyFrozenSet_Check(args[2]) || !PyDict_Check(args[6]) ||
        !PyLong_Check(args[7]) || !PyDict_Check(args[8]) || !PyTuple_Check(args[9])) {
        PyErr_SetString(PyExc_TypeError, "jit_launch(program, globals, local_names, boundscheck, line_offset, state, "
                                         "launched, index, locals, assigned)");
        return NULL;
    }
    PyObject *globals = args[1], *launched = args[6], *index = args[7];
    int truth = args[3] == Py_None ? 0 : PyObject_IsTrue(args[3]);
    int boundscheck = args[3] == Py_None ? 0 : truth > 0 ? 1 : -1; /* (None, the default: 0; False: -1) */
    int line_offset = (int)PyLong_AsLong(args[4]), i = (int)PyLong_AsLong(index);
    PyObject *keep = PyObject_GetAttrString(args[5], "keep");
    if (truth < 0 || PyErr_Occurred() || !keep) {
        Py_XDECREF(keep);
        return NULL;
    }
    raised_line = 0;
    raise_globals = globals;
    PyObject *r = launch(args[0], i, args[8], globals, args[2], args[9], boundscheck, line_offset, keep);
    raise_globals = NULL;
    if (r && PyTuple_Check(r) && flush_kept(keep) < 0) /* the loop runs as Python, on the NumPy arrays */
        Py_CLEAR(r);
    Py_DECREF(keep);
    /* how it ran, for loop_report: the note, the reason it ran as Python, or that it raised
     * (what Python would raise in the loop, raised after the kernel ran, or a bad argument) */
    PyObject *how = NULL;
    if (!r && (raised_line > 0 || PyErr_ExceptionMatches(PyExc_ValueError) ||
               PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_ZeroDivisionError) || PyErr_ExceptionMatches(PyExc_IndexError) ||
               PyErr_ExceptionMatches(PyExc_KeyError))) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        how = PyUnicode_FromString("kernel (raised)");
        if (how && PyDict_SetItem(launched, index, how) < 0)
            PyErr_Clear();
        /* state.raised = (the exception, its line, what raised it): the decorator points the
         * traceback there */
        PyObject *at = raised_line > 0 && value ? Py_BuildValue("(OLs)", value, raised_line, raised_site) : NULL;
        if (at && PyObject_SetAttrString(args[5], "raised", at) < 0)
            PyErr_Clear();
        if (!at)
            PyErr_Clear();
        Py_XDECREF(at);
        PyErr_Restore(type, value, tb);
        Py_XDECREF(how);
        return NULL;
    }
    if (!r)
        return NULL;
    if (PyTuple_Check(r)) {
        how = PyTuple_GET_ITEM(r, 1);
        Py_INCREF(how);
        Py_DECREF(r);
        r = Py_None;
        Py_INCREF(r);
    } else { /* (a launch that returns a dict got its program: the capsule is good) */
        PyObject *key = str_of(PyCapsule_GetPointer(args[0], "numgpu.jit.program"), "__ng_note");
        how = key ? PyDict_GetItem(r, key) : NULL;
        Py_XINCREF(how);
        if (!key || (how && PyDict_DelItem(r, key) < 0))
            Py_CLEAR(r);
        Py_XDECREF(key);
    }
    if (r && how && PyDict_SetItem(launched, index, how) < 0)
        Py_CLEAR(r);
    Py_XDECREF(how);
    return r;
}

static PyObject *f_jit_flush(PyObject *m, PyObject *keep)
{
    if (flush_kept(keep) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *f_jit_keeps_arrays(PyObject *m, PyObject *unused)
{
    NgDevice *dev = ngpy_device();
    if (!dev)
        return NULL;
    return PyBool_FromLong(!ng_device_host_visible(dev));
}

/* Whether name is one a parallel loop only assigns, never reads, and hands back only where an
 * iteration assigned it (a fresh reduction, a name an argmax carries: NG_JIT_ARG_BOUND). */
static bool only_assigned(const NgJitLoopInfo *info, const char *name)
{
    for (int r = 0; info->kind == NG_JIT_LOOP_PARALLEL && r < info->nreductions; r++)
        if (strcmp(info->reductions[r].name, name) == 0)
            return info->reductions[r].fresh || info->reductions[r].op == NG_JIT_RED_ARGMAX ||
                   info->reductions[r].op == NG_JIT_RED_ARGMIN;
    return false;
}

/* Runs loop `index` of the program as a kernel: the cells by name (plus
 * "__ng_note"), or (None, why) when it must run as Python. boundscheck: 1
 * every index checked where it runs, 0 (the default) reads checked too, before
 * the loop where they can be, -1 reads unchecked (NgJitLoopPlan.unchecked). */
static PyObject *launch(PyObject *capsule, int index, PyObject *locals, PyObject *globals, PyObject *local_names,
                        PyObject *assigned, int boundscheck, int line_offset, PyObject *keep)
{
    Program *p = PyCapsule_GetPointer(capsule, "numgpu.jit.program");
    if (!p)
        return NULL;
    if (index < 0 || index >= p->loops->n) {
        PyErr_SetString(PyExc_IndexError, "bad loop index");
        return NULL;
    }
    const NgJitLoopInfo *info = &p->loops->items[index];
    if (info->kind == NG_JIT_LOOP_PYTHON)
        return skip(info->reason ? info->reason : "left to Python");
    NgDevice *dev = ngpy_device();
    if (!dev)
        return NULL;

    const LoopNames *ln = loop_names(p, index, info->stmt);
    if (!ln)
        return NULL;
    Launch L; /* (type_of fills entry L.n before it counts: 40 KB not cleared per launch) */
    L.n = 0;
    L.hold = false;
    L.python = false;
    L.nkeys = 0;
    L.err_slots = 0;
    PyObject *result = NULL, *pre = NULL;
    const char *why = NULL;
    if (info->stmt->pre_name && !(pre = pre_value(p, (int)index, globals, locals))) {
        if (PyErr_Occurred())
            return NULL;
        return skip("its argmax's first comparison raises (Python raises where it gets there)");
    }
    for (int i = 0; i < ln->n; i++) {
        PyObject *v = PyDict_GetItem(locals, ln->keys[i]);
        if (pre && strcmp(ln->names[i], info->stmt->pre_name) == 0)
            v = pre; /* (its best so far: x[k]) */
        if (!v && !PySet_Contains(local_names, ln->keys[i])) /* (a local not bound yet: not the global) */
            v = PyDict_GetItem(globals, ln->keys[i]);
        if (ln->callee[i]) { /* called: the object the loop was compiled for? */
            Callees c = {.p = p, .globals = globals, .line_offset = line_offset};
            callee_check(&c, ln->callee[i], ln->names[i], v);
            if (c.why) {
                snprintf(L.why, sizeof L.why, "%s", c.why);
                why = L.why;
                goto done;
            }
        }
        if (!v && ln->early[i]) { /* Python's UnboundLocalError (or NameError), where it reads it */
            snprintf(L.why, sizeof L.why, "it may read %s before it is bound", ln->names[i]);
            why = L.why;
            goto done;
        }
        if (v == Py_None && only_assigned(info, ln->names[i]))
            v = NULL; /* (t = None before `if c: t = x[i]`: None where no iteration assigns it, as unbound) */
        if (!v) /* not bound yet: assigned in the loop, or a builtin */
            continue;
        if (L.n == MAXV) {
            why = "too many free variables";
            goto done;
        }
        int r = type_of(v, ln->names[i], dev, keep, &L.types[L.n], &L.arrays[L.n], &L.uploaded[L.n], &L.kept[L.n], &why);
        if (r < 0)
            goto done;
        if (r == 1) { /* the value, named: 'xs' is a list ... */
            value_why(L.why, sizeof L.why, ln->names[i], v, why);
            why = L.why;
            goto done;
        }
        if (r == 2)
            continue;
        if (L.types[L.n].is_array && (L.types[L.n].seq == NG_JIT_SEQ_DICT_CHR || L.types[L.n].seq == NG_JIT_SEQ_DICT_INT)) {
            if (ng_jit_takes_len(info->stmt, ln->names[i])) { /* len(d): the kernel is made for it */
                L.types[L.n].has_value = true;
                L.types[L.n].value = (int64_t)PyDict_Size(v);
            }
        } else if (ln->sizes[i] && !L.types[L.n].is_array && !L.types[L.n].module && !PyBool_Check(v) &&
            ng_dtype_is_int(L.types[L.n].dtype)) { /* a small array's length: the kernel is made for it */
            PyObject *ix = PyNumber_Index(v);
            int overflow = 0;
            long long n = ix ? PyLong_AsLongLongAndOverflow(ix, &overflow) : 0;
            Py_XDECREF(ix);
            if (PyErr_Occurred())
                goto done;
            L.types[L.n].has_value = !overflow;
            L.types[L.n].value = (int64_t)n;
        } else if (ln->sizes[i] && L.types[L.n].is_array) { /* its shape is: np.zeros(X.shape[1]) */
            L.types[L.n].has_value = true;
            L.types[L.n].shape = L.arrays[L.n].shape;
        }
        L.values[L.n++] = v;
    }
    /* distinct names must be distinct memory when one is written (the
     * analysis assumed it); checked conservatively for every array pair */
    for (int i = 0; i < L.n; i++)
        for (int j = i + 1; j < L.n; j++)
            if (L.types[i].is_array && L.types[j].is_array &&
                (ng_array_may_overlap(&L.arrays[i], &L.arrays[j]) ||
                 ((L.uploaded[i] || L.kept[i]) && (L.uploaded[j] || L.kept[j]) &&
                  host_overlap(L.values[i], L.values[j])))) {
                snprintf(L.why, sizeof L.why,
                         "arrays %s and %s share memory (one may be a view of the other, as y = x[1:] makes), and "
                         "the analysis took them for distinct arrays; index one array in the loop (x[i + 1] "
                         "for y[i]), or copy (y = x[1:].copy())",
                         L.types[i].name ? L.types[i].name : "?", L.types[j].name ? L.types[j].name : "?");
                why = L.why;
                goto done;
            }
    NgJitLoopPlan plan;
    ng_jit_plan(p->loops, info, &plan);
    int64_t sargs[4] = {0, 0, 0, 0}; /* a search's start, from, to; a peeled loop's phase */
    const char *note = plan.parallel ? "kernel" : "kernel (one thread)";
    plan.boundscheck = boundscheck > 0;
    plan.unchecked = boundscheck < 0;
    if (plan.parallel) {
        /* GPUs: 1 + the chain of loops the analysis collapsed into this one, as
         * one flat launch; cpu: the outer loop's rows are parallelism enough, and
         * a collapsed inner loop stays a loop of its own (inner_parallel), which
         * the compiler vectorises and the C emitter may tile */
        int cur = index;
        plan.collapse = 1;
        for (int j = index + 1; j < p->loops->n && plan.collapse < NG_JIT_MAX_COLLAPSE; j++)
            if (p->loops->items[j].parent == cur && p->loops->items[j].collapsed) {
                if (dev->be->target->par == NG_PAR_OPENMP) {
                    plan.inner_parallel = true;
                    break;
                }
                plan.collapse++;
                cur = j;
            }
    } else { /* in order: the names the loop assigns come back */
        plan.rows = true; /* (rows in threads, or a block of GPU threads: see NG_IR_ROWS) */
        int r = live_out(&plan, assigned, &L, info);
        if (r < 0)
            goto done;
        if (r > 0) {
            snprintf(L.why, sizeof L.why, "more than %d names it assigns are read after the loop", NG_JIT_MAX_LIVE_OUT);
            why = L.why;
            goto done;
        }
    }
    if (info->search) {
        /* find the iteration that breaks in parallel, in chunks of the range
         * that grow, in order (a hit near the start stops early), then run
         * from it */
        NgJitLoopPlan find = plan;
        /* chunks up to 2Mi iterations on cpu (a chunk past the hit is read to its end: 16Mi
         * doubles, read at memory speed, cost first_above a quarter), 16Mi on GPUs (a launch
         * there must cover enough memory to hide its own cost) */
        int64_t top = (int64_t)1 << (dev->be->target->par == NG_PAR_OPENMP ? 21 : 24);
        find.parallel = true;
        find.search = 1;
        find.search_step = info->search_step;
        find.nlive_out = 0;
        find.boundscheck = true; /* it reads iterations past the one that breaks, which Python never runs */
        for (int64_t from = 0, chunk = (int64_t)1 << 16;;) {
            const char *skip_why = NULL;
            bool stray = false;
            sargs[1] = from;
            sargs[2] = from + (chunk < INT64_MAX - from ? chunk : INT64_MAX - from);
            PyObject *found = run_kernel(p, info, &L, &find, dev, sargs, line_offset, "kernel", &skip_why, &stray);
            PyObject *w = found && !stray ? PyDict_GetItemString(found, NG_JIT_FOUND) : NULL;
            PyObject *n = found && !stray ? PyDict_GetItemString(found, NG_JIT_TRIPS) : NULL;
            int64_t none = ng_jit_search_none(info->search_step);
            int64_t wv = w ? PyLong_AsLongLong(w) : none, nv = n ? PyLong_AsLongLong(n) : 0;
            Py_XDECREF(found);
            if (PyErr_Occurred())
                goto done;
            if (!w || !n) /* (an index out of range, an error raised: the whole loop in order, where
                             Python's first event decides) */
                break;
            if (wv != none || sargs[2] >= nv) {
                plan.search = 2;
                plan.search_step = info->search_step;
                sargs[0] = wv;
                note = "kernel (parallel search, then in order)";
                break;
            }
            from = sargs[2];
            if (chunk < top)
                chunk *= 2;
        }
    }
    if (L.python) { /* (the search's launch found it, into its own skip_why) */
        why = L.why;
        goto done;
    }
    if (plan.peel) {
        /* the iterations before the peeled one, it, those after it: one kernel, three launches */
        char around[200];
        snprintf(around, sizeof around, "kernel (in three parts: before, at and after %s)", info->peel_text);
        for (int phase = 0; phase < 3; phase++) {
            sargs[3] = phase;
            L.hold = phase < 2;
            Py_XDECREF(result);
            result = unless_wrapped(run_kernel(p, info, &L, &plan, dev, sargs, line_offset, around, &why, NULL), &why);
            if (!result)
                break;
        }
        L.hold = false;
    } else {
        if (info->scan && !plan.parallel && boundscheck <= 0 && !ng_jit_draws(p->ast, info->stmt) &&
            (result = run_scan(p, index, &L, &plan, dev, globals, locals, line_offset)) == NULL && PyErr_Occurred())
            goto done;
        if (!result)
            result = run_kernel(p, info, &L, &plan, dev, sargs, line_offset, note, &why, NULL);
        if (plan.parallel)
            result = unless_wrapped(result, &why);
    }
    if (!result && !PyErr_Occurred() && plan.parallel && !plan.search && !L.python) {
        /* the parallel form is beyond the lowering (a float16 sum): in order, which is always right */
        NgJitLoopPlan seq;
        memset(&seq, 0, sizeof seq);
        seq.boundscheck = plan.boundscheck;
        seq.unchecked = plan.unchecked;
        seq.loops = plan.loops;
        char in_order[200];
        snprintf(in_order, sizeof in_order, "kernel (one thread: %s)", why ? why : "in order");
        const char *why_seq = NULL;
        if (live_out(&seq, assigned, &L, info) == 0)
            result = run_kernel(p, info, &L, &seq, dev, sargs, line_offset, in_order, &why_seq, NULL);
        if (!result && L.python && why_seq) /* (why the loop in order ran as Python after all) */
            why = why_seq;
    }
done:
    launch_clear(&L);
    Py_XDECREF(pre);
    if (!result && !PyErr_Occurred())
        return skip(why ? why : "not compiled");
    return result;
}

PyMethodDef ngpy_jit_functions[] = {
    {"jit_program", f_jit_program, METH_VARARGS, "Parse and analyse a function for @numgpu.jit."},
    {"jit_launch", (PyCFunction)(void (*)(void))f_jit_launch, METH_FASTCALL, "Run one analysed loop as a kernel."},
    {"jit_flush", f_jit_flush, METH_O, "Write a call's kept device copies back into their NumPy arrays."},
    {"jit_keeps_arrays", f_jit_keeps_arrays, METH_NOARGS,
     "Whether NumPy arguments are copied to the current device (not host-visible)."},
    {NULL},
};
