/* Kernel IR: building (with hash-consing of expressions), verifying and
 * printing. See ir.h for the node kinds. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "ir/ir.h"

void ng_ir_init(NgIrKernel *k, const char *name)
{
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->body = NG_IR_NONE;
}

void ng_ir_free(NgIrKernel *k)
{
    ng_free(k->params);
    ng_free(k->vars);
    ng_free(k->nodes);
    ng_free(k->kidpool);
    ng_free(k->reds);
    ng_free(k->ranked);
    ng_free(k->tables);
    ng_free(k->hash);
    memset(k, 0, sizeof *k);
}

/* Grows *arr (of elements of `size`) to hold one more; 0 on failure. */
static int grow(NgIrKernel *k, void **arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return 1;
    int ncap = *cap ? *cap * 2 : 16;
    void *p = ng_realloc(*arr, (size_t)ncap * size);
    if (!p) {
        k->status = ng_error_set(NG_ERR_NOMEM, "out of memory building kernel IR");
        return 0;
    }
    *arr = p;
    *cap = ncap;
    return 1;
}

int ng_ir_param_array(NgIrKernel *k, NgDType dt, int ndim, bool inner_contig, bool written)
{
    if (!grow(k, (void **)&k->params, k->nparams, &k->cap_params, sizeof *k->params))
        return 0;
    k->params[k->nparams] = (NgIrParam){true, dt, ndim, inner_contig, written};
    return k->nparams++;
}

int ng_ir_param_scalar(NgIrKernel *k, NgDType dt)
{
    if (!grow(k, (void **)&k->params, k->nparams, &k->cap_params, sizeof *k->params))
        return 0;
    k->params[k->nparams] = (NgIrParam){false, dt, 0, false, false};
    return k->nparams++;
}

int ng_ir_var(NgIrKernel *k, NgDType dt)
{
    if (!grow(k, (void **)&k->vars, k->nvars, &k->cap_vars, sizeof *k->vars))
        return 0;
    k->vars[k->nvars].dtype = dt;
    k->vars[k->nvars].len = 0;
    return k->nvars++;
}

int ng_ir_var_array(NgIrKernel *k, NgDType dt, int len)
{
    int v = ng_ir_var(k, dt);
    if (k->status == NG_OK)
        k->vars[v].len = len;
    return v;
}

int ng_ir_table(NgIrKernel *k, NgDType dt, int n, const void *values)
{
    for (int t = 0; t < k->ntables; t++)
        if (k->tables[t].values == values && k->tables[t].n == n && k->tables[t].dtype == dt)
            return t;
    if (!grow(k, (void **)&k->tables, k->ntables, &k->cap_tables, sizeof *k->tables))
        return 0;
    k->tables[k->ntables] = (NgIrTable){dt, n, values};
    return k->ntables++;
}

static uint64_t node_hash(const NgIrNode *n, const NgIrRef *kids)
{
    uint64_t h = ng_hash64(n, offsetof(NgIrNode, nkids) + sizeof n->nkids, 0);
    h ^= ng_hash64(&n->c, sizeof n->c, h);
    h ^= ng_hash64(&n->im, sizeof n->im, h);
    return ng_hash64(kids, sizeof *kids * (size_t)n->nkids, h);
}

static bool same_node(const NgIrKernel *k, NgIrRef r, const NgIrNode *n, const NgIrRef *kids)
{
    const NgIrNode *m = &k->nodes[r];
    return m->kind == n->kind && m->op == n->op && m->dtype == n->dtype && m->flags == n->flags &&
           m->a == n->a && m->b == n->b && m->nkids == n->nkids && m->c.i == n->c.i &&
           memcmp(&m->im, &n->im, sizeof n->im) == 0 &&
           (n->nkids == 0 || memcmp(&k->kidpool[m->kids], kids, sizeof *kids * (size_t)n->nkids) == 0);
}

static int rehash(NgIrKernel *k);

/* Adds a node; expressions are looked up first and shared. */
static NgIrRef add(NgIrKernel *k, NgIrNode n, int nkids, const NgIrRef *kids, bool cons)
{
    static const NgIrRef no_kids[1] = {NG_IR_NONE};
    if (k->status != NG_OK)
        return NG_IR_NONE;
    if (!kids)
        kids = no_kids;
    for (int i = 0; i < nkids; i++)
        if (kids[i] == NG_IR_NONE && !(n.kind == NG_IR_IF && i == 2) && n.kind != NG_IR_BLOCK) {
            k->status = ng_error_set(NG_ERR_INTERNAL, "IR node built from a missing operand");
            return NG_IR_NONE;
        }
    n.nkids = nkids;
    uint64_t h = 0;
    if (cons) {
        if (k->nnodes * 2 >= k->cap_hash && !rehash(k))
            return NG_IR_NONE;
        h = node_hash(&n, kids);
        for (int s = (int)(h & (uint64_t)(k->cap_hash - 1));; s = (s + 1) & (k->cap_hash - 1)) {
            if (k->hash[s] < 0)
                break;
            if (same_node(k, k->hash[s], &n, kids))
                return k->hash[s];
        }
    }
    if (!grow(k, (void **)&k->nodes, k->nnodes, &k->cap_nodes, sizeof *k->nodes))
        return NG_IR_NONE;
    while (k->nkidpool + nkids > k->cap_kidpool)
        if (!grow(k, (void **)&k->kidpool, k->cap_kidpool, &k->cap_kidpool, sizeof *k->kidpool))
            return NG_IR_NONE;
    n.kids = k->nkidpool;
    if (nkids)
        memcpy(&k->kidpool[k->nkidpool], kids, sizeof *kids * (size_t)nkids);
    k->nkidpool += nkids;
    NgIrRef r = k->nnodes++;
    k->nodes[r] = n;
    if (cons)
        for (int s = (int)(h & (uint64_t)(k->cap_hash - 1));; s = (s + 1) & (k->cap_hash - 1))
            if (k->hash[s] < 0) {
                k->hash[s] = r;
                break;
            }
    return r;
}

static bool is_expr(const NgIrNode *n)
{
    return n->kind <= NG_IR_CAST || n->kind == NG_IR_THREAD || n->kind == NG_IR_TABLE;
}

static int rehash(NgIrKernel *k)
{
    int cap = k->cap_hash ? k->cap_hash * 2 : 64;
    int32_t *t = ng_malloc(sizeof *t * (size_t)cap);
    if (!t) {
        k->status = ng_error_set(NG_ERR_NOMEM, "out of memory building kernel IR");
        return 0;
    }
    memset(t, 0xff, sizeof *t * (size_t)cap);
    for (NgIrRef r = 0; r < k->nnodes; r++) {
        if (!is_expr(&k->nodes[r]))
            continue;
        uint64_t h = node_hash(&k->nodes[r], k->nodes[r].nkids ? &k->kidpool[k->nodes[r].kids] : NULL);
        int s = (int)(h & (uint64_t)(cap - 1));
        while (t[s] >= 0)
            s = (s + 1) & (cap - 1);
        t[s] = r;
    }
    ng_free(k->hash);
    k->hash = t;
    k->cap_hash = cap;
    return 1;
}

static NgIrNode mk(NgIrKind kind, int op, NgDType dt, int a, int b)
{
    NgIrNode n;
    memset(&n, 0, sizeof n);
    n.kind = (uint8_t)kind;
    n.op = (uint8_t)op;
    n.dtype = (int8_t)dt;
    n.a = a;
    n.b = b;
    return n;
}

static NgDType dtype_of(const NgIrKernel *k, NgIrRef r)
{
    return r == NG_IR_NONE ? NG_NODTYPE : (NgDType)k->nodes[r].dtype;
}

NgIrRef ng_ir_const_i(NgIrKernel *k, NgDType dt, int64_t v)
{
    NgIrNode n = mk(NG_IR_CONST, 0, dt, 0, 0);
    if (ng_dtype_is_inexact(dt))
        n.c.f = (double)v;
    else
        n.c.i = v;
    return add(k, n, 0, NULL, true);
}

NgIrRef ng_ir_const_c(NgIrKernel *k, NgDType dt, double re, double im)
{
    NgIrNode n = mk(NG_IR_CONST, 0, dt, 0, 0);
    n.c.f = re;
    n.im = im;
    return add(k, n, 0, NULL, true);
}

NgIrRef ng_ir_const_f(NgIrKernel *k, NgDType dt, double v)
{
    NgIrNode n = mk(NG_IR_CONST, 0, dt, 0, 0);
    if (ng_dtype_is_inexact(dt))
        n.c.f = v;
    else
        n.c.i = (int64_t)v;
    return add(k, n, 0, NULL, true);
}

NgIrRef ng_ir_scalar(NgIrKernel *k, int param)
{
    if (k->status != NG_OK)
        return NG_IR_NONE;
    return add(k, mk(NG_IR_SCALAR, 0, k->params[param].dtype, param, 0), 0, NULL, true);
}

NgIrRef ng_ir_varref(NgIrKernel *k, int var)
{
    if (k->status != NG_OK)
        return NG_IR_NONE;
    return add(k, mk(NG_IR_VAR, 0, k->vars[var].dtype, var, 0), 0, NULL, true);
}

NgIrRef ng_ir_element(NgIrKernel *k, int var, NgIrRef i)
{
    if (k->status != NG_OK)
        return NG_IR_NONE;
    return add(k, mk(NG_IR_VAR, 0, k->vars[var].dtype, var, 0), 1, &i, true);
}

NgIrRef ng_ir_shape(NgIrKernel *k, int param, int axis)
{
    return add(k, mk(NG_IR_SHAPE, 0, NG_INT64, param, axis), 0, NULL, true);
}

NgIrRef ng_ir_table_at(NgIrKernel *k, int t, NgIrRef i)
{
    if (k->status != NG_OK)
        return NG_IR_NONE;
    return add(k, mk(NG_IR_TABLE, 0, k->tables[t].dtype, t, 0), 1, &i, true);
}

NgIrRef ng_ir_load(NgIrKernel *k, int param, int nidx, const NgIrRef *idx)
{
    if (k->status != NG_OK)
        return NG_IR_NONE;
    return add(k, mk(NG_IR_LOAD, 0, k->params[param].dtype, param, 0), nidx, idx, true);
}

NgIrRef ng_ir_unary(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x)
{
    return add(k, mk(NG_IR_UNARY, op, dt, 0, 0), 1, &x, true);
}

NgIrRef ng_ir_binary(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x, NgIrRef y)
{
    NgIrRef kids[2] = {x, y};
    return add(k, mk(NG_IR_BINARY, op, dt, 0, 0), 2, kids, true);
}

NgIrRef ng_ir_select(NgIrKernel *k, NgIrRef c, NgIrRef x, NgIrRef y)
{
    NgIrRef kids[3] = {c, x, y};
    return add(k, mk(NG_IR_SELECT, 0, dtype_of(k, x), 0, 0), 3, kids, true);
}

NgIrRef ng_ir_cast(NgIrKernel *k, NgDType dt, NgIrRef x)
{
    if (x == NG_IR_NONE || dtype_of(k, x) == dt)
        return x;
    return add(k, mk(NG_IR_CAST, 0, dt, 0, 0), 1, &x, true);
}

NgIrRef ng_ir_imag(NgIrKernel *k, NgIrRef x)
{
    if (x == NG_IR_NONE)
        return x;
    NgDType dt = dtype_of(k, x);
    if (!ng_dtype_is_complex(dt))
        return ng_dtype_is_float(dt) ? ng_ir_const_f(k, dt, 0.0) : ng_ir_const_i(k, dt, 0);
    return add(k, mk(NG_IR_CAST, 0, ng_dtype_real(dt), 1, 0), 1, &x, true);
}

NgIrRef ng_ir_complex(NgIrKernel *k, NgDType dt, NgIrRef re, NgIrRef im)
{
    if (re == NG_IR_NONE || im == NG_IR_NONE)
        return NG_IR_NONE;
    NgIrRef r = add(k, mk(NG_IR_CAST, 0, dt, NG_IR_AS_RE, 0), 1, &re, true);
    NgIrRef i = add(k, mk(NG_IR_CAST, 0, dt, NG_IR_AS_IM, 0), 1, &im, true);
    return ng_ir_binary(k, NG_OP_ADD, dt, r, i);
}

NgIrRef ng_ir_block(NgIrKernel *k, int n, const NgIrRef *stmts)
{
    return add(k, mk(NG_IR_BLOCK, 0, NG_NODTYPE, 0, 0), n, stmts, false);
}

NgIrRef ng_ir_let(NgIrKernel *k, int var, NgIrRef value)
{
    return add(k, mk(NG_IR_LET, 0, NG_NODTYPE, var, 0), 1, &value, false);
}

NgIrRef ng_ir_assign(NgIrKernel *k, int var, NgIrRef value)
{
    return add(k, mk(NG_IR_ASSIGN, 0, NG_NODTYPE, var, 0), 1, &value, false);
}

NgIrRef ng_ir_assign_element(NgIrKernel *k, int var, NgIrRef i, NgIrRef value)
{
    NgIrRef kids[2] = {value, i};
    return add(k, mk(NG_IR_ASSIGN, 0, NG_NODTYPE, var, 0), 2, kids, false);
}

static NgIrRef store_like(NgIrKernel *k, NgIrKind kind, NgOp op, int param, int nidx,
                          const NgIrRef *idx, NgIrRef value)
{
    NgIrRef kids[NG_MAXDIMS + 1];
    if (nidx > NG_MAXDIMS) {
        k->status = ng_error_set(NG_ERR_INTERNAL, "store with %d indices", nidx);
        return NG_IR_NONE;
    }
    kids[0] = value;
    if (nidx > 0)
        memcpy(kids + 1, idx, sizeof *idx * (size_t)nidx);
    return add(k, mk(kind, op, NG_NODTYPE, param, 0), nidx + 1, kids, false);
}

NgIrRef ng_ir_store(NgIrKernel *k, int param, int nidx, const NgIrRef *idx, NgIrRef value)
{
    return store_like(k, NG_IR_STORE, 0, param, nidx, idx, value);
}

NgIrRef ng_ir_atomic(NgIrKernel *k, NgOp op, int param, int nidx, const NgIrRef *idx, NgIrRef value)
{
    return store_like(k, NG_IR_ATOMIC, op, param, nidx, idx, value);
}

NgIrRef ng_ir_if(NgIrKernel *k, NgIrRef cond, NgIrRef then, NgIrRef otherwise)
{
    NgIrRef kids[3] = {cond, then, otherwise};
    return add(k, mk(NG_IR_IF, 0, NG_NODTYPE, 0, 0), 3, kids, false);
}

NgIrRef ng_ir_version(NgIrKernel *k, NgIrRef cond, NgIrRef fast, NgIrRef general)
{
    NgIrRef kids[3] = {cond, fast, general};
    NgIrNode n = mk(NG_IR_IF, 0, NG_NODTYPE, 0, 0);
    n.flags = NG_IR_VERSIONED;
    return add(k, n, 3, kids, false);
}

NgIrRef ng_ir_for(NgIrKernel *k, int var, NgIrRef start, NgIrRef stop, NgIrRef step,
                  NgIrRef body, unsigned flags)
{
    NgIrRef kids[4] = {start, stop, step, body};
    NgIrNode n = mk(NG_IR_FOR, 0, NG_NODTYPE, var, 0);
    n.flags = (uint8_t)flags;
    return add(k, n, 4, kids, false);
}

NgIrRef ng_ir_box(NgIrKernel *k, int nd, const int *vars, const NgIrRef *ext, NgIrRef body, bool flat)
{
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    if (!flat || nd < 2) {
        for (int d = nd - 1; d >= 0; d--)
            body = ng_ir_for(k, vars[d], zero, ext[d], one, body, d == 0 ? NG_IR_PARALLEL : 0);
        return body;
    }
    /* t's digits, innermost first, in unsigned arithmetic (t >= 0) */
    if (nd > NG_MAXDIMS) {
        if (k->status == NG_OK)
            k->status = ng_error_set(NG_ERR_INTERNAL, "box with %d dimensions", nd);
        return NG_IR_NONE;
    }
    int t = ng_ir_var(k, NG_INT64), rem = ng_ir_var(k, NG_UINT64);
    NgIrRef stmts[NG_MAXDIMS + 2];
    stmts[0] = ng_ir_let(k, rem, ng_ir_cast(k, NG_UINT64, ng_ir_varref(k, t)));
    NgIrRef total = ext[0];
    for (int d = nd - 1; d > 0; d--) {
        NgIrRef n = ng_ir_cast(k, NG_UINT64, ext[d]), r = ng_ir_varref(k, rem);
        NgIrRef pair[2] = {ng_ir_let(k, vars[d], ng_ir_cast(k, NG_INT64, ng_ir_binary(k, NG_OP_MOD, NG_UINT64, r, n))),
                           ng_ir_assign(k, rem, ng_ir_binary(k, NG_OP_FLOORDIV, NG_UINT64, r, n))};
        stmts[nd - d] = ng_ir_block(k, 2, pair);
        total = ng_ir_binary(k, NG_OP_MUL, NG_INT64, total, ext[d]);
    }
    stmts[nd] = ng_ir_let(k, vars[0], ng_ir_cast(k, NG_INT64, ng_ir_varref(k, rem)));
    stmts[nd + 1] = body;
    return ng_ir_for(k, t, zero, total, one, ng_ir_block(k, nd + 2, stmts), NG_IR_PARALLEL);
}

NgIrRef ng_ir_while(NgIrKernel *k, NgIrRef cond, NgIrRef body)
{
    NgIrRef kids[2] = {cond, body};
    return add(k, mk(NG_IR_WHILE, 0, NG_NODTYPE, 0, 0), 2, kids, false);
}

NgIrRef ng_ir_jump(NgIrKernel *k, NgIrKind kind) { return add(k, mk(kind, 0, NG_NODTYPE, 0, 0), 0, NULL, false); }

NgIrRef ng_ir_thread(NgIrKernel *k, NgIrThread which)
{
    return add(k, mk(NG_IR_THREAD, 0, NG_INT64, (int32_t)which, 0), 0, NULL, true);
}

NgIrRef ng_ir_block_reduce(NgIrKernel *k, int var, NgOp op)
{
    return add(k, mk(NG_IR_BLOCK_REDUCE, (uint8_t)op, NG_NODTYPE, var, 0), 0, NULL, false);
}

void ng_ir_reduce(NgIrKernel *k, NgIrRef loop, int var, NgOp op)
{
    if (k->status != NG_OK)
        return;
    if (!grow(k, (void **)&k->reds, k->nreds, &k->cap_reds, sizeof *k->reds))
        return;
    k->reds[k->nreds++] = (NgIrReduction){loop, var, op};
}

void ng_ir_reduce_ranked(NgIrKernel *k, const NgIrRanked *r)
{
    if (k->status != NG_OK)
        return;
    if (r->nvars < 2 || r->nvars > NG_IR_MAX_RANKED || (r->op != NG_OP_MAXIMUM && r->op != NG_OP_MINIMUM)) {
        k->status = ng_error_set(NG_ERR_INTERNAL, "invalid ranked reduction (%d variables, op %s)", r->nvars,
                                 ng_op_name(r->op));
        return;
    }
    if (!grow(k, (void **)&k->ranked, k->nranked, &k->cap_ranked, sizeof *k->ranked))
        return;
    k->ranked[k->nranked++] = *r;
}

/* ---- substitution ---- */

enum { UNSEEN = -2 };

/* ng_ir_substitute's walk: memo[r] is r's copy once made (r < top). */
static NgIrRef substitute(NgIrKernel *k, NgIrRef r, NgIrRef *memo, int top)
{
    if (r == NG_IR_NONE || r >= top || k->status != NG_OK)
        return r;
    if (memo[r] != UNSEEN)
        return memo[r];
    NgIrNode n = k->nodes[r];
    NgIrRef *kids = n.nkids ? ng_malloc(sizeof *kids * (size_t)n.nkids) : NULL;
    if (n.nkids && !kids) {
        k->status = ng_error_set(NG_ERR_NOMEM, "out of memory copying kernel IR");
        return NG_IR_NONE;
    }
    bool changed = false;
    for (int i = 0; i < n.nkids; i++) {
        NgIrRef was = ng_ir_kid(k, r, i);
        kids[i] = substitute(k, was, memo, top);
        changed = changed || kids[i] != was;
    }
    NgIrRef out = changed ? add(k, n, n.nkids, kids, is_expr(&n)) : r;
    ng_free(kids);
    if (out != r && n.kind == NG_IR_FOR) { /* (the copy of a loop reduces as the loop) */
        for (int i = 0, nreds = k->nreds; i < nreds; i++)
            if (k->reds[i].loop == r)
                ng_ir_reduce(k, out, k->reds[i].var, k->reds[i].op);
        for (int i = 0, nranked = k->nranked; i < nranked; i++)
            if (k->ranked[i].loop == r) {
                NgIrRanked copy = k->ranked[i];
                copy.loop = out;
                ng_ir_reduce_ranked(k, &copy);
            }
    }
    memo[r] = out;
    return k->status == NG_OK ? out : NG_IR_NONE;
}

NgIrRef ng_ir_substitute(NgIrKernel *k, NgIrRef r, int n, const NgIrRef *from, const NgIrRef *to)
{
    int top = k->nnodes;
    if (k->status != NG_OK || r == NG_IR_NONE)
        return NG_IR_NONE;
    NgIrRef *memo = ng_malloc(sizeof *memo * (size_t)(top ? top : 1));
    if (!memo) {
        k->status = ng_error_set(NG_ERR_NOMEM, "out of memory copying kernel IR");
        return NG_IR_NONE;
    }
    for (int i = 0; i < top; i++)
        memo[i] = UNSEEN;
    for (int i = 0; i < n; i++)
        if (from[i] >= 0 && from[i] < top)
            memo[from[i]] = to[i];
    NgIrRef out = substitute(k, r, memo, top);
    ng_free(memo);
    return out;
}

/* ---- verifier ---- */

static NgStatus bad(NgIrRef r, const char *what)
{
    return ng_error_set(NG_ERR_INTERNAL, "invalid kernel IR at node %d: %s", r, what);
}

static NgStatus verify_node(const NgIrKernel *k, NgIrRef r, bool *declared)
{
    if (r < 0 || r >= k->nnodes)
        return bad(r, "reference out of range");
    const NgIrNode *n = &k->nodes[r];
    for (int i = 0; i < n->nkids; i++) {
        NgIrRef c = ng_ir_kid(k, r, i);
        if (c == NG_IR_NONE)
            continue;
        if (c >= r)
            return bad(r, "child built after its parent");
    }
    switch ((NgIrKind)n->kind) {
    case NG_IR_VAR:
        if (n->a < 0 || n->a >= k->nvars || !declared[n->a])
            return bad(r, "variable used before it is declared");
        if (n->nkids != (k->vars[n->a].len > 0))
            return bad(r, "an array variable read whole, or a scalar one by element");
        break;
    case NG_IR_ASSIGN:
        if (n->a < 0 || n->a >= k->nvars || n->nkids != 1 + (k->vars[n->a].len > 0))
            return bad(r, "an array variable assigned whole, or a scalar one by element");
        break;
    case NG_IR_LOAD:
    case NG_IR_SHAPE:
        if (n->a < 0 || n->a >= k->nparams || !k->params[n->a].is_array)
            return bad(r, "load from something that is not an array parameter");
        if (n->kind == NG_IR_LOAD && n->nkids != k->params[n->a].ndim)
            return bad(r, "load with the wrong number of indices");
        break;
    case NG_IR_SCALAR:
        if (n->a < 0 || n->a >= k->nparams || k->params[n->a].is_array)
            return bad(r, "scalar reference to a non-scalar parameter");
        return NG_OK;
    case NG_IR_TABLE:
        if (n->a < 0 || n->a >= k->ntables || n->dtype != k->tables[n->a].dtype || n->nkids != 1 ||
            dtype_of(k, ng_ir_kid(k, r, 0)) != NG_INT64)
            return bad(r, "a read of a table that is not there, or by an index that is not an int64");
        break;
    case NG_IR_STORE:
    case NG_IR_ATOMIC:
        if (n->a < 0 || n->a >= k->nparams || !k->params[n->a].is_array || !k->params[n->a].written)
            return bad(r, "store to an array not marked written");
        if (n->nkids - 1 != k->params[n->a].ndim)
            return bad(r, "store with the wrong number of indices");
        break;
    case NG_IR_LET:
        declared[n->a] = true;
        break;
    case NG_IR_BLOCK_REDUCE:
        if (n->a < 0 || n->a >= k->nvars || !declared[n->a])
            return bad(r, "block reduction of an undeclared variable");
        return NG_OK;
    case NG_IR_FOR:
        declared[n->a] = true;
        break;
    case NG_IR_CAST:
        if ((n->a == NG_IR_AS_RE || n->a == NG_IR_AS_IM) &&
            (ng_dtype_is_complex(dtype_of(k, ng_ir_kid(k, r, 0))) || !ng_dtype_is_complex((NgDType)n->dtype)))
            return bad(r, "a complex part of a value that is not real, or into a dtype that is not complex");
        if (n->a == 1 && (!ng_dtype_is_complex(dtype_of(k, ng_ir_kid(k, r, 0))) ||
                          n->dtype != ng_dtype_real(dtype_of(k, ng_ir_kid(k, r, 0)))))
            return bad(r, "imaginary part of a value that is not complex");
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++) {
        NgIrRef c = ng_ir_kid(k, r, i);
        if (c == NG_IR_NONE)
            continue;
        NgStatus st = verify_node(k, c, declared);
        if (st != NG_OK)
            return st;
    }
    return NG_OK;
}

NgStatus ng_ir_verify(const NgIrKernel *k)
{
    if (k->status != NG_OK)
        return k->status;
    if (k->body == NG_IR_NONE)
        return bad(-1, "kernel without a body");
    bool *declared = ng_calloc((size_t)k->nvars + 1, sizeof *declared);
    if (!declared)
        return ng_error_set(NG_ERR_NOMEM, "out of memory verifying IR");
    NgStatus st = verify_node(k, k->body, declared);
    ng_free(declared);
    return st;
}

/* ---- printer ---- */

static const char *kind_names[] = {
    "const", "scalar", "var", "shape", "load", "unary", "binary", "select", "cast",
    "block", "let", "assign", "store", "atomic", "if", "for", "while", "break", "continue",
    "thread", "block_reduce", "table",
};

void ng_ir_print(const NgIrKernel *k, char *buf, size_t len)
{
    size_t at = 0;
#define OUT(...) do { if (at < len) at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__); } while (0)
    OUT("kernel %s(", k->name);
    for (int p = 0; p < k->nparams; p++)
        OUT("%s%s%s[%d]%s", p ? ", " : "", k->params[p].is_array ? "array " : "scalar ",
            ng_dtype_info(k->params[p].dtype)->name, k->params[p].ndim, k->params[p].written ? " out" : "");
    OUT(")\n");
    for (int v = 0; v < k->nvars; v++)
        if (k->vars[v].len)
            OUT("var #%d %s[%d]\n", v, ng_dtype_info(k->vars[v].dtype)->name, k->vars[v].len);
    for (NgIrRef r = 0; r < k->nnodes; r++) {
        const NgIrNode *n = &k->nodes[r];
        OUT("%%%d = %s", r, kind_names[n->kind]);
        if (n->kind == NG_IR_UNARY || n->kind == NG_IR_BINARY || n->kind == NG_IR_ATOMIC ||
            n->kind == NG_IR_BLOCK_REDUCE)
            OUT(" %s", ng_op_name((NgOp)n->op));
        if (n->dtype >= 0)
            OUT(" :%s", ng_dtype_info((NgDType)n->dtype)->name);
        if (n->kind == NG_IR_CONST && ng_dtype_is_complex((NgDType)n->dtype))
            OUT(" %g%+gj", n->c.f, n->im);
        else if (n->kind == NG_IR_CONST && ng_dtype_is_float((NgDType)n->dtype))
            OUT(" %g", n->c.f);
        else if (n->kind == NG_IR_CONST)
            OUT(" %lld", (long long)n->c.i);
        if ((n->kind >= NG_IR_SCALAR && n->kind <= NG_IR_LOAD) || n->kind == NG_IR_TABLE)
            OUT(" #%d", n->a);
        if (n->kind == NG_IR_SHAPE)
            OUT(" axis %d", n->b);
        if (n->kind == NG_IR_CAST && n->a)
            OUT(n->a == NG_IR_AS_RE ? " as re" : n->a == NG_IR_AS_IM ? " as im" : " imag");
        if (n->kind == NG_IR_LET || n->kind == NG_IR_ASSIGN || n->kind == NG_IR_FOR || n->kind == NG_IR_STORE ||
            n->kind == NG_IR_THREAD || n->kind == NG_IR_BLOCK_REDUCE)
            OUT(" #%d", n->a);
        if (n->flags & NG_IR_PARALLEL)
            OUT(" parallel");
        for (int i = 0; i < n->nkids; i++)
            OUT(" %%%d", ng_ir_kid(k, r, i));
        OUT("\n");
    }
#undef OUT
}
