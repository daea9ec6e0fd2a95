/* libFuzzer target for the jit front end: arbitrary bytes through
 * ng_jit_parse (and so ng_jit_lex), then the printer and a walk that checks
 * what later stages rely on: spans inside the text, end not before start,
 * expression height within NG_JIT_MAX_DEPTH, names interned; then the
 * dependence analysis (ng_jit_analyze) of every function defined at module
 * level, and its report, whose verdicts must be consistent (a peeled loop is
 * parallel or in order, a collapsed one parallel). A syntax error must come
 * back as NG_ERR_VALUE with a position; nothing may crash, hang or leak.
 * Built and run by tools/fuzz_jit.sh. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jit/analyze.h"
#include "jit/ast.h"
#include "jit/desugar.h"

static void check(int ok)
{
    if (!ok)
        __builtin_trap();
}

static void check_span(const NgJitAst *ast, NgJitSpan s)
{
    check(s.line >= 1 && s.col >= 0 && s.end_col >= 0);
    check(s.line < s.end_line || (s.line == s.end_line && s.col <= s.end_col));
    check(s.off <= s.end_off && s.end_off <= ast->len);
    check(ng_jit_ast_offset(ast, s.line, s.col) == s.off);
}

static void walk_expr(const NgJitAst *ast, const NgJitExpr *e, int depth)
{
    if (!e)
        return;
    check(depth <= NG_JIT_MAX_DEPTH && e->height <= NG_JIT_MAX_DEPTH);
    check_span(ast, e->span);
    check_span(ast, e->outer);
    check(e->outer.off <= e->span.off && e->span.end_off <= e->outer.end_off);
    if (e->kind == NG_JIT_E_NAME || e->kind == NG_JIT_E_ATTR)
        check(e->name_id >= 0 && e->name_id < ast->nnames && ast->names[e->name_id] == e->name);
    if (e->kind == NG_JIT_E_STR && e->str)
        check(e->str[e->str_len] == 0);
    walk_expr(ast, e->lhs, depth + 1);
    walk_expr(ast, e->rhs, depth + 1);
    walk_expr(ast, e->cond, depth + 1);
    for (int i = 0; i < e->nitems; i++) {
        walk_expr(ast, e->items[i], depth + 1);
        if (e->kind == NG_JIT_E_DICT)
            walk_expr(ast, e->keys[i], depth + 1);
    }
    if (e->kind == NG_JIT_E_CALL)
        for (int i = 0; i < e->nkeywords; i++)
            walk_expr(ast, e->keywords[i].value, depth + 1);
    if (e->kind >= NG_JIT_E_LISTCOMP && e->kind <= NG_JIT_E_GENEXP)
        for (int i = 0; i < e->ngens; i++) {
            walk_expr(ast, e->gens[i].target, depth + 1);
            walk_expr(ast, e->gens[i].iter, depth + 1);
            for (int k = 0; k < e->gens[i].nifs; k++)
                walk_expr(ast, e->gens[i].ifs[k], depth + 1);
        }
}

static void walk_block(const NgJitAst *ast, NgJitBlock b, const NgJitStmt *parent)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        check_span(ast, s->span);
        if (parent)
            check(parent->span.off <= s->span.off && s->span.end_off <= parent->span.end_off);
        if (i > 0)
            check(b.stmts[i - 1]->span.end_off <= s->span.off);
        walk_expr(ast, s->target, 0);
        walk_expr(ast, s->value, 0);
        walk_expr(ast, s->test, 0);
        walk_expr(ast, s->annotation, 0);
        for (int k = 0; k < s->ntargets; k++)
            walk_expr(ast, s->targets[k], 0);
        for (int k = 0; k < s->ndecorators; k++)
            walk_expr(ast, s->decorators[k], 0);
        for (int k = 0; k < s->nnames; k++)
            check(ast->names[s->name_ids[k]] == s->names[k]);
        check(s->kind != NG_JIT_S_OTHER || s->python);
        walk_block(ast, s->body, s);
        walk_block(ast, s->orelse, s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NgJitAst *ast;
    NgJitError err;
    memset(&err, 0, sizeof err);
    NgStatus st = ng_jit_parse((const char *)data, size, "fuzz.py", &ast, &err);
    if (st != NG_OK) {
        check(st == NG_ERR_VALUE);
        check(err.kind && err.line >= 1 && err.col >= 0 && err.msg[0]);
        return 0;
    }
    check(ast->len == size && memcmp(ast->src, data, size) == 0);
    walk_block(ast, ast->body, NULL);
    NgStr out;
    ng_str_init(&out);
    ng_jit_ast_print(ast, &out, NG_JIT_PRINT_LINES);
    check(!out.failed);
    check(ng_jit_desugar(ast) == NG_OK);
    walk_block(ast, ast->body, NULL); /* (the rewritten loops are well formed too) */
    for (int i = 0; i < ast->body.n; i++) {
        const NgJitStmt *f = ast->body.stmts[i];
        NgJitLoops *loops;
        if (f->kind != NG_JIT_S_DEF)
            continue;
        check(ng_jit_analyze(ast, f, &loops) == NG_OK);
        for (int l = 0; l < loops->n; l++) {
            const NgJitLoopInfo *L = &loops->items[l];
            check(!L->peel || (L->kind != NG_JIT_LOOP_PYTHON && !L->collapsed && L->peel_at && L->peel_off >= 0));
            check(!L->collapsed || L->kind == NG_JIT_LOOP_PARALLEL);
            for (int w = 0; w < L->nwraps; w++)
                check(L->wraps[w].e && L->wraps[w].axis >= 0);
        }
        ng_jit_loops_print(loops, &out);
        check(!out.failed);
        ng_jit_loops_free(loops);
    }
    ng_str_free(&out);
    ng_jit_ast_free(ast);
    return 0;
}
