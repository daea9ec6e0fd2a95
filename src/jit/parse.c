/* The jit's parser: tokens (lex.c) -> the AST of ast.h.
 *
 * Recursive descent, one function per grammar rule with the rule above it
 * (the rules are Python 3.12's, trimmed to what is parsed here). Binary
 * operators are parsed by precedence climbing as Lua's subexpr does, with a
 * table of left/right priorities that gives Python's precedence: `**` binds
 * tighter than a unary minus on its left and is right-associative, and
 * comparisons chain.
 *
 * Statements the jit compiles are parsed fully. The others (import, from,
 * global, nonlocal, del, raise, assert, type, with, try, class, async,
 * match) are skipped token by token, block and clauses included, and become
 * one NG_JIT_S_OTHER node that remembers its span and the names in it.
 *
 * All state is in the Parser; all memory in the AST's arena. An error (or
 * running out of memory) longjmps to run(), and ng_jit_parse frees the arena.
 * Recursion is bounded: nested blocks, expressions and their height are
 * capped at NG_JIT_MAX_DEPTH.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strtod_l, newlocale */
#endif
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/ast.h"

typedef struct NameSlot {
    const char *s; /* interned text, NULL when the slot is free */
    uint32_t len;  /* its bytes */
    uint32_t hash;
    int id;        /* index in the names array */
} NameSlot;

typedef struct Parser {
    const NgJitToken *tok;  /* current token */
    const NgJitToken *toks; /* all tokens, ending with NG_JIT_TK_EOF */
    const char *src;        /* the source text (ast->src) */
    NgJitAst *ast;
    NgJitArena *arena;      /* &ast->arena */
    const char *file;
    NgJitError *err;
    int depth;              /* nesting of blocks and expressions now */
    int loops;              /* loops around the current statement in this function */
    int funcs;              /* functions and lambdas around it */
    bool yielded;           /* the current function yields */
    NameSlot *slots;        /* intern table, open addressing */
    int nslots;             /* a power of two */
    int nnames, names_cap;  /* interned names so far; capacity of ast->names */
    int *name_mark;         /* per name: the OTHER statement that last listed it */
    int other_stamp;        /* numbers OTHER statements for name_mark */
    locale_t c_locale;      /* for strtod_l; (locale_t)0 until a float is read */
    jmp_buf fail;           /* error exit (see run) */
    NgStatus status;        /* what the error exit returns */
} Parser;

/* Binary priorities (Lua's subexpr): an operator is taken while its left
 * priority exceeds the limit; its right operand is parsed with the right
 * priority as the limit. */
enum {
    PRI_NOT = 3,   /* operand of `not` */
    PRI_CMP = 4,   /* comparisons; also the limit for targets (stops at `in`) */
    PRI_UNARY = 11 /* operand of unary - + ~ */
};

static const struct {
    uint8_t left, right;
} priority[NG_JIT_NOPS] = {
    [NG_JIT_OP_OR] = {1, 1},       [NG_JIT_OP_AND] = {2, 2},
    [NG_JIT_OP_LT] = {4, 4},       [NG_JIT_OP_LE] = {4, 4},
    [NG_JIT_OP_GT] = {4, 4},       [NG_JIT_OP_GE] = {4, 4},
    [NG_JIT_OP_EQ] = {4, 4},       [NG_JIT_OP_NE] = {4, 4},
    [NG_JIT_OP_IN] = {4, 4},       [NG_JIT_OP_NOT_IN] = {4, 4},
    [NG_JIT_OP_IS] = {4, 4},       [NG_JIT_OP_IS_NOT] = {4, 4},
    [NG_JIT_OP_BITOR] = {5, 5},    [NG_JIT_OP_BITXOR] = {6, 6},
    [NG_JIT_OP_BITAND] = {7, 7},   [NG_JIT_OP_LSHIFT] = {8, 8},
    [NG_JIT_OP_RSHIFT] = {8, 8},   [NG_JIT_OP_ADD] = {9, 9},
    [NG_JIT_OP_SUB] = {9, 9},      [NG_JIT_OP_MUL] = {10, 10},
    [NG_JIT_OP_MATMUL] = {10, 10}, [NG_JIT_OP_DIV] = {10, 10},
    [NG_JIT_OP_FLOORDIV] = {10, 10}, [NG_JIT_OP_MOD] = {10, 10},
    [NG_JIT_OP_POW] = {12, 11},    /* right-associative, above unary on its left */
};

static bool is_compare(NgJitOp op) { return op >= NG_JIT_OP_LT && op <= NG_JIT_OP_IS_NOT; }

/* ---- errors and memory ---- */

__attribute__((format(printf, 4, 5))) static _Noreturn void
error_tok(Parser *P, const NgJitToken *t, const char *kind, const char *fmt, ...)
{
    char msg[sizeof P->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    P->status = ng_jit_syntax_error(P->err, P->file, kind, t->line, t->col, "%s", msg);
    longjmp(P->fail, 1);
}

__attribute__((format(printf, 3, 4))) static _Noreturn void
error_span(Parser *P, NgJitSpan s, const char *fmt, ...)
{
    char msg[sizeof P->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    P->status = ng_jit_syntax_error(P->err, P->file, "SyntaxError", s.line, s.col, "%s", msg);
    longjmp(P->fail, 1);
}

static _Noreturn void invalid_syntax(Parser *P) { error_tok(P, P->tok, "SyntaxError", "invalid syntax"); }

static void *alloc(Parser *P, size_t n)
{
    void *p = ng_jit_arena_alloc(P->arena, n);
    if (!p) {
        P->status = ng_error_set(NG_ERR_NOMEM, "out of memory parsing %s", P->file);
        longjmp(P->fail, 1);
    }
    return p;
}

/* A bigger copy of a growing array (see PUSH). */
static void *grow(Parser *P, void *old, int n, int *cap, size_t elem)
{
    if (*cap > (1 << 28))
        error_tok(P, P->tok, "SyntaxError", "too many items");
    int c = *cap ? *cap * 2 : 4;
    void *p = alloc(P, (size_t)c * elem);
    if (n)
        memcpy(p, old, (size_t)n * elem);
    *cap = c;
    return p;
}

#define PUSH(P, vec, x)                                                                  \
    do {                                                                                 \
        if ((vec).n == (vec).cap)                                                        \
            (vec).v = grow((P), (vec).v, (vec).n, &(vec).cap, sizeof *(vec).v);          \
        (vec).v[(vec).n++] = (x);                                                        \
    } while (0)

typedef struct ExprVec {
    NgJitExpr **v;
    int n, cap;
} ExprVec;

typedef struct StmtVec {
    NgJitStmt **v;
    int n, cap;
} StmtVec;

static void enter(Parser *P)
{
    if (++P->depth > NG_JIT_MAX_DEPTH)
        error_tok(P, P->tok, "SyntaxError", "too many nested parentheses or blocks for the jit");
}

static void leave(Parser *P) { P->depth--; }

/* ---- tokens ---- */

static bool at(const Parser *P, int kind) { return P->tok->kind == kind; }

static const NgJitToken *peek(const Parser *P, int k)
{
    const NgJitToken *t = P->tok;
    while (k-- > 0 && t->kind != NG_JIT_TK_EOF)
        t++;
    return t;
}

static const NgJitToken *next(Parser *P)
{
    const NgJitToken *t = P->tok;
    if (t->kind != NG_JIT_TK_EOF)
        P->tok++;
    return t;
}

static bool accept(Parser *P, int kind)
{
    if (!at(P, kind))
        return false;
    next(P);
    return true;
}

static const NgJitToken *expect(Parser *P, int kind)
{
    if (!at(P, kind)) {
        if (kind == ':' || kind == '(' || kind == '=')
            error_tok(P, P->tok, "SyntaxError", "expected '%c'", kind);
        invalid_syntax(P);
    }
    return next(P);
}

static bool is_name(const Parser *P, const NgJitToken *t, const char *text)
{
    size_t n = strlen(text);
    return t->kind == NG_JIT_TK_NAME && t->len == n && memcmp(P->src + t->off, text, n) == 0;
}

/* Can this token start an expression? (ends a trailing comma's list) */
static bool starts_expr(int kind)
{
    switch (kind) {
    case NG_JIT_TK_NAME: case NG_JIT_TK_NUMBER: case NG_JIT_TK_STRING: case '(': case '[':
    case '{': case '-': case '+': case '~': case '*': case NG_JIT_TK_NOT: case NG_JIT_TK_LAMBDA:
    case NG_JIT_TK_AWAIT: case NG_JIT_TK_TRUE: case NG_JIT_TK_FALSE: case NG_JIT_TK_NONE:
    case NG_JIT_TK_ELLIPSIS:
        return true;
    default:
        return false;
    }
}

/* ---- spans ---- */

static NgJitSpan tok_span(const NgJitToken *t)
{
    return (NgJitSpan){t->line, t->col, t->end_line, t->end_col, t->off, t->off + t->len};
}

/* From the start of a to the end of b. */
static NgJitSpan join(NgJitSpan a, NgJitSpan b)
{
    a.end_line = b.end_line;
    a.end_col = b.end_col;
    a.end_off = b.end_off;
    return a;
}

/* The span of the token before the current one: where a rule ended. */
static NgJitSpan prev_span(const Parser *P) { return tok_span(P->tok - 1); }

/* ---- names ---- */

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The one copy of the name s[0, n); *id gets its index in ast->names. */
static const char *intern(Parser *P, const char *s, size_t n, int *id)
{
    if (P->nnames * 2 >= P->nslots) {
        int nslots = P->nslots ? P->nslots * 2 : 64;
        NameSlot *slots = alloc(P, (size_t)nslots * sizeof *slots);
        for (int i = 0; i < P->nslots; i++) {
            if (!P->slots[i].s)
                continue;
            uint32_t j = P->slots[i].hash & (uint32_t)(nslots - 1);
            while (slots[j].s)
                j = (j + 1) & (uint32_t)(nslots - 1);
            slots[j] = P->slots[i];
        }
        P->slots = slots;
        P->nslots = nslots;
    }
    uint32_t h = hash_name(s, n);
    uint32_t j = h & (uint32_t)(P->nslots - 1);
    for (; P->slots[j].s; j = (j + 1) & (uint32_t)(P->nslots - 1)) {
        NameSlot *sl = &P->slots[j];
        if (sl->hash == h && sl->len == n && memcmp(sl->s, s, n) == 0) {
            *id = sl->id;
            return sl->s;
        }
    }
    if (P->nnames == P->names_cap) {
        int cap = P->names_cap;
        P->ast->names = grow(P, P->ast->names, P->nnames, &cap, sizeof *P->ast->names);
        P->name_mark = grow(P, P->name_mark, P->nnames, &P->names_cap, sizeof *P->name_mark);
    }
    char *copy = alloc(P, n + 1);
    memcpy(copy, s, n);
    P->slots[j] = (NameSlot){copy, (uint32_t)n, h, P->nnames};
    P->ast->names[P->nnames] = copy;
    P->name_mark[P->nnames] = 0;
    *id = P->nnames++;
    P->ast->nnames = P->nnames;
    return copy;
}

/* ---- expression nodes ---- */

static NgJitExpr *new_expr(Parser *P, NgJitExprKind kind, NgJitSpan span)
{
    NgJitExpr *e = alloc(P, sizeof *e);
    e->kind = kind;
    e->span = e->outer = span;
    e->name_id = -1;
    e->height = 1;
    return e;
}

static void take(Parser *P, NgJitExpr *e, const NgJitExpr *kid)
{
    if (!kid)
        return;
    if (kid->height + 1 > e->height)
        e->height = kid->height + 1;
    e->python |= kid->python;
}

/* Sets a finished node's height and python flag from its children. */
static NgJitExpr *seal(Parser *P, NgJitExpr *e)
{
    take(P, e, e->lhs);
    take(P, e, e->rhs);
    take(P, e, e->cond);
    for (int i = 0; i < e->nitems; i++) {
        take(P, e, e->items[i]);
        if (e->keys)
            take(P, e, e->keys[i]);
    }
    for (int i = 0; i < e->nkeywords; i++)
        take(P, e, e->keywords[i].value);
    for (int i = 0; i < e->ngens; i++) {
        take(P, e, e->gens[i].target);
        take(P, e, e->gens[i].iter);
        for (int k = 0; k < e->gens[i].nifs; k++)
            take(P, e, e->gens[i].ifs[k]);
    }
    if (e->params)
        for (int i = 0; i < e->params->n; i++) {
            take(P, e, e->params->items[i].dflt);
            take(P, e, e->params->items[i].annotation);
        }
    switch (e->kind) {
    case NG_JIT_E_IMAG: case NG_JIT_E_SET: case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP:
    case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP: case NG_JIT_E_LAMBDA:
    case NG_JIT_E_AWAIT: case NG_JIT_E_YIELD: case NG_JIT_E_YIELD_FROM:
        e->python = true;
        break;
    case NG_JIT_E_STR:
        e->python |= (e->str_flags & (NG_JIT_STR_FSTRING | NG_JIT_STR_UNDECODED)) != 0;
        break;
    default:
        break;
    }
    if (e->height > NG_JIT_MAX_DEPTH)
        error_span(P, e->span, "expression too deeply nested for the jit");
    return e;
}

static NgJitExpr *unary(Parser *P, NgJitOp op, const NgJitToken *t, NgJitExpr *operand)
{
    NgJitExpr *e = new_expr(P, NG_JIT_E_UNARY, join(tok_span(t), operand->outer));
    e->op = op;
    e->lhs = operand;
    return seal(P, e);
}

static NgJitExpr *binary_node(Parser *P, NgJitOp op, NgJitExpr *lhs, NgJitExpr *rhs)
{
    NgJitExprKind kind = op == NG_JIT_OP_AND || op == NG_JIT_OP_OR ? NG_JIT_E_BOOLOP : NG_JIT_E_BINARY;
    NgJitExpr *e = new_expr(P, kind, join(lhs->outer, rhs->outer));
    e->op = op;
    e->lhs = lhs;
    e->rhs = rhs;
    return seal(P, e);
}

static NgJitExpr *name_expr(Parser *P, const NgJitToken *t)
{
    NgJitExpr *e = new_expr(P, NG_JIT_E_NAME, tok_span(t));
    e->name = intern(P, P->src + t->off, t->len, &e->name_id);
    return e;
}

