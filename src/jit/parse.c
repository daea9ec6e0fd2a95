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

static _Noreturn void verror(Parser *P, const char *kind, int line, int col, const char *fmt, va_list ap)
{
    char msg[sizeof P->err->msg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    P->status = ng_jit_syntax_error(P->err, P->file, kind, line, col, "%s", msg);
    longjmp(P->fail, 1);
}

/* An error of `kind` ("SyntaxError", "IndentationError") at (line, col). */
__attribute__((format(printf, 5, 6))) static _Noreturn void
error_at(Parser *P, const char *kind, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(P, kind, line, col, fmt, ap);
}

/* A syntax error at a token. */
__attribute__((format(printf, 4, 5))) static _Noreturn void
error_tok(Parser *P, const NgJitToken *t, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(P, kind, t->line, t->col, fmt, ap);
}

/* A SyntaxError at the start of a span. */
__attribute__((format(printf, 3, 4))) static _Noreturn void
error_span(Parser *P, NgJitSpan s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(P, "SyntaxError", s.line, s.col, fmt, ap);
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
    for (int i = 0; i < e->nitems; i++)
        take(P, e, e->items[i]);
    switch (e->kind) {
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++)
            take(P, e, e->keys[i]);
        break;
    case NG_JIT_E_CALL:
        for (int i = 0; i < e->nkeywords; i++)
            take(P, e, e->keywords[i].value);
        break;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
        for (int i = 0; i < e->ngens; i++) {
            take(P, e, e->gens[i].target);
            take(P, e, e->gens[i].iter);
            for (int k = 0; k < e->gens[i].nifs; k++)
                take(P, e, e->gens[i].ifs[k]);
        }
        break;
    case NG_JIT_E_LAMBDA:
        for (int i = 0; i < e->params->n; i++) {
            take(P, e, e->params->items[i].dflt);
            take(P, e, e->params->items[i].annotation);
        }
        break;
    default:
        break;
    }
    switch (e->kind) {
    case NG_JIT_E_SET: case NG_JIT_E_DICT: case NG_JIT_E_LISTCOMP:
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

/* ---- literals ---- */

/* NUMBER: its value. Floats are read in the C locale, whatever the
 * process's LC_NUMERIC says. */
static NgJitExpr *number(Parser *P, const NgJitToken *t)
{
    const char *s = P->src + t->off;
    size_t n = t->len;
    bool imag = (s[n - 1] | 0x20) == 'j';
    int base = 10;
    if (n > 2 && s[0] == '0') {
        int c = s[1] | 0x20;
        base = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 10;
    }
    bool is_float = imag;
    for (size_t i = 0; i < n && base == 10; i++)
        is_float |= s[i] == '.' || (s[i] | 0x20) == 'e';
    NgJitExpr *e = new_expr(P, is_float ? (imag ? NG_JIT_E_IMAG : NG_JIT_E_FLOAT) : NG_JIT_E_INT,
                            tok_span(t));
    if (!is_float) {
        uint64_t v = 0;
        for (size_t i = base == 10 ? 0 : 2; i < n; i++) {
            int c = s[i];
            if (c == '_')
                continue;
            unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
            if (v > (UINT64_MAX - d) / (unsigned)base)
                e->big = true;
            else
                v = v * (unsigned)base + d;
        }
        e->ival = e->big ? 0 : v;
        return e;
    }
    char small[128];
    char *buf = n < sizeof small ? small : alloc(P, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n - imag; i++)
        if (s[i] != '_')
            buf[k++] = s[i];
    buf[k] = 0;
    if (!P->c_locale)
        P->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    e->fval = P->c_locale ? strtod_l(buf, NULL, P->c_locale) : strtod(buf, NULL);
    return e;
}

enum {
    PREFIX_RAW = 1,   /* r */
    PREFIX_BYTES = 2, /* b */
    PREFIX_F = 4,     /* f */
};

/* Splits one STRING token into prefix flags and body (between the quotes). */
static int string_parts(const char *s, size_t n, const char **body, size_t *blen)
{
    int flags = 0;
    size_t i = 0;
    for (; s[i] != '\'' && s[i] != '"'; i++) {
        int c = s[i] | 0x20;
        flags |= c == 'r' ? PREFIX_RAW : c == 'b' ? PREFIX_BYTES : c == 'f' ? PREFIX_F : 0;
    }
    char q = s[i];
    size_t quotes = n - i >= 6 && s[i + 1] == q && s[i + 2] == q ? 3 : 1;
    *body = s + i + quotes;
    *blen = n - i - 2 * quotes;
    return flags;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Appends the value of a string body to out + *len: escapes decoded unless
 * raw, line breaks as \n. The result never outgrows the body. Returns false
 * when an escape is left undecoded (\N{...}). */
static bool decode(Parser *P, const NgJitToken *t, const char *b, size_t n, int flags, char *out,
                   size_t *len)
{
    bool raw = flags & PREFIX_RAW, bytes = flags & PREFIX_BYTES, ok = true;
    size_t k = *len;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)b[i];
        if (c == '\r') {
            out[k++] = '\n';
            i += i + 1 < n && b[i + 1] == '\n' ? 2 : 1;
            continue;
        }
        if (bytes && c >= 0x80)
            error_tok(P, t, "SyntaxError", "bytes can only contain ASCII literal characters");
        if (c != '\\' || raw || i + 1 >= n) {
            out[k++] = (char)c;
            i++;
            continue;
        }
        size_t at_esc = i;
        c = (unsigned char)b[++i];
        i++;
        switch (c) {
        case '\n': break;
        case '\r': i += i < n && b[i] == '\n'; break;
        case '\\': case '\'': case '"': out[k++] = (char)c; break;
        case 'a': out[k++] = '\a'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case 'v': out[k++] = '\v'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            unsigned v = c - '0';
            for (int d = 0; d < 2 && i < n && b[i] >= '0' && b[i] <= '7'; d++)
                v = v * 8 + (unsigned)(b[i++] - '0');
            if (bytes)
                out[k++] = (char)(v & 0xFF);
            else
                k += put_utf8(out + k, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            if (c != 'x' && bytes) {
                out[k++] = '\\';
                out[k++] = (char)c;
                break;
            }
            int digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            unsigned v = 0;
            for (int d = 0; d < digits; d++) {
                int h = i < n ? hex_value((unsigned char)b[i]) : -1;
                if (h < 0)
                    error_tok(P, t, "SyntaxError",
                              "(unicode error) 'unicodeescape' codec can't decode bytes in "
                              "position %zu-%zu: truncated \\%c%s escape",
                              at_esc, i - 1, c, c == 'x' ? "XX" : c == 'u' ? "XXXX" : "XXXXXXXX");
                v = v * 16 + (unsigned)h;
                i++;
            }
            if (v > 0x10FFFF)
                error_tok(P, t, "SyntaxError",
                          "(unicode error) 'unicodeescape' codec can't decode bytes in "
                          "position %zu-%zu: illegal Unicode character", at_esc, i - 1);
            if (bytes)
                out[k++] = (char)v;
            else
                k += put_utf8(out + k, v);
            break;
        }
        case 'N':
            if (!bytes) {
                ok = false;
                break;
            }
            /* fallthrough */
        default: /* not an escape: both characters stay */
            out[k++] = '\\';
            i--;
            break;
        }
    }
    *len = k;
    return ok;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

/* May c begin an identifier? (bytes past ASCII are parts of letters here) */
static bool id_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }

/* Every identifier inside the replacement fields of an f-string token, as
 * NAME nodes (a superset of the names it reads: attribute names and
 * conversion letters are left out, string contents are not). */
static void fstring_names(Parser *P, const NgJitToken *t, ExprVec *out)
{
    const char *s = P->src + t->off;
    int line = t->line;
    size_t line_start = 0; /* offset in s of the current line; col = t->col + i there */
    int depth = 0;
    for (size_t i = 0; i < t->len;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r') {
            i += c == '\r' && i + 1 < t->len && s[i + 1] == '\n' ? 2 : 1;
            line++;
            line_start = i;
        } else if ((c == '{' || c == '}') && depth == 0 && i + 1 < t->len && s[i + 1] == c) {
            i += 2; /* {{ or }} in the literal text */
        } else if (c == '{') {
            depth++;
            i++;
        } else if (c == '}') {
            depth -= depth > 0;
            i++;
        } else if (depth > 0 && id_start(c)) {
            size_t start = i;
            while (i < t->len && (id_start((unsigned char)s[i]) || is_digit((unsigned char)s[i])))
                i++;
            bool attr = start > 0 && s[start - 1] == '.';
            bool conversion = start > 0 && s[start - 1] == '!';
            if (attr || conversion || ng_jit_keyword(s + start, i - start) != NG_JIT_TK_NAME)
                continue;
            int col = (line == t->line ? t->col : 0) + (int)(start - line_start);
            NgJitToken nt = {NG_JIT_TK_NAME, line, col, line, col + (int)(i - start),
                             t->off + (uint32_t)start, (uint32_t)(i - start)};
            PUSH(P, *out, name_expr(P, &nt));
        } else if (depth > 0 && c >= '0' && c <= '9') {
            while (i < t->len && (id_start((unsigned char)s[i]) || is_digit((unsigned char)s[i]) || s[i] == '.'))
                i++;
        } else {
            i++;
        }
    }
}

/* strings = STRING+  (adjacent literals concatenate) */
static NgJitExpr *strings(Parser *P)
{
    const NgJitToken *first = P->tok, *t;
    size_t total = 0;
    for (t = first; t->kind == NG_JIT_TK_STRING; t++)
        total += t->len;
    char *buf = alloc(P, total + 1);
    size_t len = 0;
    int sflags = 0, first_bytes = -1;
    ExprVec names = {0};
    for (t = first; t->kind == NG_JIT_TK_STRING; t++) {
        const char *body;
        size_t blen;
        int flags = string_parts(P->src + t->off, t->len, &body, &blen);
        int bytes = (flags & PREFIX_BYTES) != 0;
        if (first_bytes >= 0 && bytes != first_bytes)
            error_tok(P, t, "SyntaxError", "cannot mix bytes and nonbytes literals");
        first_bytes = bytes;
        if (flags & PREFIX_F) {
            sflags |= NG_JIT_STR_FSTRING;
            fstring_names(P, t, &names);
        } else if (!decode(P, t, body, blen, flags, buf, &len)) {
            sflags |= NG_JIT_STR_UNDECODED;
        }
    }
    P->tok = t;
    NgJitExpr *e = new_expr(P, NG_JIT_E_STR, join(tok_span(first), tok_span(t - 1)));
    e->str_flags = sflags | (first_bytes ? NG_JIT_STR_BYTES : 0);
    if (!(sflags & (NG_JIT_STR_FSTRING | NG_JIT_STR_UNDECODED))) {
        buf[len] = 0;
        e->str = buf;
        e->str_len = len;
    }
    e->items = names.v;
    e->nitems = names.n;
    return seal(P, e);
}

/* ---- expressions ---- */

static NgJitExpr *expression(Parser *P);
static NgJitExpr *named_expression(Parser *P);
static NgJitExpr *star_expressions(Parser *P);
static NgJitExpr *star_named_expression(Parser *P);
static NgJitExpr *star_targets(Parser *P);
static NgJitExpr *binary(Parser *P, int limit);
static NgJitParams *parameters(Parser *P, int close, bool annotations);
static void set_store(Parser *P, NgJitExpr *e, bool hint);

typedef struct CompVec {
    NgJitComp *v;
    int n, cap;
} CompVec;

/* for_if_clauses = (["async"] "for" star_targets "in" disjunction ("if" disjunction)*)+
 * The caller sets the span (the brackets around it). */
static NgJitExpr *comprehension(Parser *P, NgJitExprKind kind, NgJitExpr *elt, NgJitExpr *value)
{
    CompVec gens = {0};
    while (at(P, NG_JIT_TK_FOR) || (at(P, NG_JIT_TK_ASYNC) && peek(P, 1)->kind == NG_JIT_TK_FOR)) {
        NgJitComp c = {0};
        c.is_async = accept(P, NG_JIT_TK_ASYNC);
        expect(P, NG_JIT_TK_FOR);
        c.target = star_targets(P);
        set_store(P, c.target, false);
        expect(P, NG_JIT_TK_IN);
        c.iter = binary(P, 0);
        ExprVec ifs = {0};
        while (accept(P, NG_JIT_TK_IF))
            PUSH(P, ifs, binary(P, 0));
        c.ifs = ifs.v;
        c.nifs = ifs.n;
        PUSH(P, gens, c);
    }
    NgJitExpr *e = new_expr(P, kind, elt->outer);
    e->lhs = elt;
    e->rhs = value;
    e->gens = gens.v;
    e->ngens = gens.n;
    return seal(P, e);
}

static bool at_comprehension(const Parser *P)
{
    return at(P, NG_JIT_TK_FOR) || (at(P, NG_JIT_TK_ASYNC) && peek(P, 1)->kind == NG_JIT_TK_FOR);
}

static NgJitExpr *with_brackets(NgJitExpr *e, const NgJitToken *open, const NgJitToken *close)
{
    e->span = e->outer = join(tok_span(open), tok_span(close));
    return e;
}

static NgJitExpr *sequence(Parser *P, NgJitExprKind kind, ExprVec *items, NgJitSpan span)
{
    NgJitExpr *e = new_expr(P, kind, span);
    e->items = items->v;
    e->nitems = items->n;
    return seal(P, e);
}

/* yield_expr = "yield" "from" expression | "yield" [star_expressions] */
static NgJitExpr *yield_expr(Parser *P)
{
    const NgJitToken *t = next(P);
    if (P->funcs == 0)
        error_tok(P, t, "SyntaxError", "'yield' outside function");
    P->yielded = true;
    NgJitExpr *e;
    if (accept(P, NG_JIT_TK_FROM)) {
        NgJitExpr *v = expression(P);
        e = new_expr(P, NG_JIT_E_YIELD_FROM, join(tok_span(t), v->outer));
        e->lhs = v;
    } else if (starts_expr(P->tok->kind)) {
        NgJitExpr *v = star_expressions(P);
        e = new_expr(P, NG_JIT_E_YIELD, join(tok_span(t), v->outer));
        e->lhs = v;
    } else {
        e = new_expr(P, NG_JIT_E_YIELD, tok_span(t));
    }
    return seal(P, e);
}

/* group = "(" (yield_expr | named_expression) ")"
 * tuple = "(" [star_named_expression "," [star_named_expressions]] ")"
 * genexp = "(" named_expression for_if_clauses ")" */
static NgJitExpr *paren(Parser *P)
{
    const NgJitToken *open = next(P);
    ExprVec items = {0};
    if (at(P, ')'))
        return sequence(P, NG_JIT_E_TUPLE, &items, join(tok_span(open), tok_span(next(P))));
    NgJitExpr *first = at(P, NG_JIT_TK_YIELD) ? yield_expr(P) : star_named_expression(P);
    if (first->kind != NG_JIT_E_YIELD && first->kind != NG_JIT_E_YIELD_FROM) {
        if (at_comprehension(P)) {
            NgJitExpr *e = comprehension(P, NG_JIT_E_GENEXP, first, NULL);
            return with_brackets(e, open, expect(P, ')'));
        }
        if (at(P, ',')) {
            PUSH(P, items, first);
            while (accept(P, ',') && !at(P, ')'))
                PUSH(P, items, star_named_expression(P));
            const NgJitToken *close = expect(P, ')');
            NgJitExpr *e = sequence(P, NG_JIT_E_TUPLE, &items, join(tok_span(open), tok_span(close)));
            e->parenthesized = true;
            return e;
        }
    }
    const NgJitToken *close = expect(P, ')');
    first->parenthesized = true;
    first->outer = join(tok_span(open), tok_span(close));
    return first;
}

/* list = "[" [star_named_expressions] "]"
 * listcomp = "[" named_expression for_if_clauses "]" */
static NgJitExpr *list(Parser *P)
{
    const NgJitToken *open = next(P);
    ExprVec items = {0};
    if (!at(P, ']')) {
        NgJitExpr *first = star_named_expression(P);
        if (at_comprehension(P)) {
            NgJitExpr *e = comprehension(P, NG_JIT_E_LISTCOMP, first, NULL);
            return with_brackets(e, open, expect(P, ']'));
        }
        PUSH(P, items, first);
        while (accept(P, ',') && !at(P, ']'))
            PUSH(P, items, star_named_expression(P));
    }
    const NgJitToken *close = expect(P, ']');
    return sequence(P, NG_JIT_E_LIST, &items, join(tok_span(open), tok_span(close)));
}

/* dict = "{" [(expression ":" expression | "**" bitwise_or) ("," ...)* [","]] "}"
 * set = "{" star_named_expressions "}"
 * dictcomp = "{" expression ":" expression for_if_clauses "}"
 * setcomp = "{" named_expression for_if_clauses "}" */
static NgJitExpr *brace(Parser *P)
{
    const NgJitToken *open = next(P);
    ExprVec keys = {0}, values = {0};
    NgJitExpr *first = NULL;
    if (!at(P, '}') && !at(P, NG_JIT_TK_POW)) {
        first = star_named_expression(P);
        if (first->kind == NG_JIT_E_STARRED || !at(P, ':')) { /* a set */
            if (at_comprehension(P)) {
                NgJitExpr *e = comprehension(P, NG_JIT_E_SETCOMP, first, NULL);
                return with_brackets(e, open, expect(P, '}'));
            }
            PUSH(P, values, first);
            while (accept(P, ',') && !at(P, '}'))
                PUSH(P, values, star_named_expression(P));
            const NgJitToken *close = expect(P, '}');
            return sequence(P, NG_JIT_E_SET, &values, join(tok_span(open), tok_span(close)));
        }
        next(P);
        NgJitExpr *v = expression(P);
        if (at_comprehension(P)) {
            NgJitExpr *e = comprehension(P, NG_JIT_E_DICTCOMP, first, v);
            return with_brackets(e, open, expect(P, '}'));
        }
        PUSH(P, keys, first);
        PUSH(P, values, v);
        if (!accept(P, ','))
            goto close;
    }
    while (!at(P, '}')) {
        if (accept(P, NG_JIT_TK_POW)) {
            PUSH(P, keys, NULL);
            PUSH(P, values, binary(P, PRI_CMP));
        } else {
            PUSH(P, keys, expression(P));
            expect(P, ':');
            PUSH(P, values, expression(P));
        }
        if (!accept(P, ','))
            break;
    }
close:;
    const NgJitToken *close = expect(P, '}');
    NgJitExpr *e = new_expr(P, NG_JIT_E_DICT, join(tok_span(open), tok_span(close)));
    e->keys = keys.v;
    e->items = values.v;
    e->nitems = values.n;
    return seal(P, e);
}

/* atom = NAME | "True" | "False" | "None" | "..." | NUMBER | strings
 *      | group | tuple | genexp | list | listcomp | dict | set | dictcomp | setcomp */
static NgJitExpr *atom(Parser *P)
{
    const NgJitToken *t = P->tok;
    NgJitExpr *e;
    switch (t->kind) {
    case NG_JIT_TK_NAME:
        return name_expr(P, next(P));
    case NG_JIT_TK_NUMBER:
        return number(P, next(P));
    case NG_JIT_TK_STRING:
        return strings(P);
    case NG_JIT_TK_TRUE: case NG_JIT_TK_FALSE: case NG_JIT_TK_NONE: case NG_JIT_TK_ELLIPSIS:
        e = new_expr(P, NG_JIT_E_CONST, tok_span(next(P)));
        e->cval = t->kind == NG_JIT_TK_TRUE    ? NG_JIT_C_TRUE
                  : t->kind == NG_JIT_TK_FALSE ? NG_JIT_C_FALSE
                  : t->kind == NG_JIT_TK_NONE  ? NG_JIT_C_NONE
                                               : NG_JIT_C_ELLIPSIS;
        return e;
    case '(':
        return paren(P);
    case '[':
        return list(P);
    case '{':
        return brace(P);
    default:
        invalid_syntax(P);
    }
}

typedef struct KeywordVec {
    NgJitKeyword *v;
    int n, cap;
} KeywordVec;

/* arguments = arg ("," arg)* [","]
 * arg = "*" expression | "**" expression | NAME "=" expression
 *     | named_expression [for_if_clauses] */
static NgJitExpr *call(Parser *P, NgJitExpr *fn)
{
    const NgJitToken *open = next(P);
    ExprVec args = {0};
    KeywordVec kws = {0};
    NgJitExpr *bare_genexp = NULL;
    while (!at(P, ')')) {
        const NgJitToken *t = P->tok;
        if (accept(P, '*')) {
            NgJitExpr *v = expression(P);
            NgJitExpr *e = new_expr(P, NG_JIT_E_STARRED, join(tok_span(t), v->outer));
            e->lhs = v;
            PUSH(P, args, seal(P, e));
        } else if (accept(P, NG_JIT_TK_POW)) {
            NgJitExpr *v = expression(P);
            PUSH(P, kws, ((NgJitKeyword){NULL, -1, v, join(tok_span(t), v->outer)}));
        } else if (at(P, NG_JIT_TK_NAME) && peek(P, 1)->kind == '=') {
            next(P);
            next(P);
            NgJitExpr *v = expression(P);
            NgJitKeyword kw = {NULL, -1, v, join(tok_span(t), v->outer)};
            kw.name = intern(P, P->src + t->off, t->len, &kw.name_id);
            PUSH(P, kws, kw);
        } else {
            NgJitExpr *v = named_expression(P);
            if (at_comprehension(P))
                v = bare_genexp = comprehension(P, NG_JIT_E_GENEXP, v, NULL);
            PUSH(P, args, v);
        }
        if (!accept(P, ','))
            break;
    }
    const NgJitToken *close = expect(P, ')');
    if (bare_genexp)
        with_brackets(bare_genexp, open, close);
    NgJitExpr *e = new_expr(P, NG_JIT_E_CALL, join(fn->outer, tok_span(close)));
    e->lhs = fn;
    e->items = args.v;
    e->nitems = args.n;
    e->keywords = kws.v;
    e->nkeywords = kws.n;
    return seal(P, e);
}

/* slice = [expression] ":" [expression] [":" [expression]] | named_expression
 *       | "*" bitwise_or */
static NgJitExpr *slice(Parser *P)
{
    const NgJitToken *start = P->tok;
    NgJitExpr *lower = NULL;
    if (at(P, '*'))
        return star_named_expression(P);
    if (!at(P, ':')) {
        lower = named_expression(P);
        if (!at(P, ':'))
            return lower;
    }
    next(P);
    NgJitExpr *upper = NULL, *step = NULL;
    if (!at(P, ':') && !at(P, ']') && !at(P, ','))
        upper = expression(P);
    if (accept(P, ':') && !at(P, ']') && !at(P, ','))
        step = expression(P);
    NgJitExpr *e = new_expr(P, NG_JIT_E_SLICE, join(lower ? lower->outer : tok_span(start), prev_span(P)));
    e->lhs = lower;
    e->rhs = upper;
    e->cond = step;
    return seal(P, e);
}

/* subscript = primary "[" slices "]"
 * slices = slice | (slice | starred_expression) ("," (slice | starred_expression))* [","] */
static NgJitExpr *subscript(Parser *P, NgJitExpr *value)
{
    next(P);
    NgJitExpr *index = slice(P);
    if (at(P, ',') || index->kind == NG_JIT_E_STARRED) {
        ExprVec items = {0};
        PUSH(P, items, index);
        while (accept(P, ',') && !at(P, ']'))
            PUSH(P, items, slice(P));
        index = sequence(P, NG_JIT_E_TUPLE, &items, join(index->outer, prev_span(P)));
    }
    const NgJitToken *close = expect(P, ']');
    NgJitExpr *e = new_expr(P, NG_JIT_E_SUBSCRIPT, join(value->outer, tok_span(close)));
    e->lhs = value;
    e->rhs = index;
    return seal(P, e);
}

/* primary = atom ("." NAME | "(" [arguments] ")" | "[" slices "]")* */
static NgJitExpr *primary(Parser *P)
{
    NgJitExpr *e = atom(P);
    for (;;) {
        if (accept(P, '.')) {
            const NgJitToken *t = expect(P, NG_JIT_TK_NAME);
            NgJitExpr *a = new_expr(P, NG_JIT_E_ATTR, join(e->outer, tok_span(t)));
            a->lhs = e;
            a->name = intern(P, P->src + t->off, t->len, &a->name_id);
            e = seal(P, a);
        } else if (at(P, '(')) {
            e = call(P, e);
        } else if (at(P, '[')) {
            e = subscript(P, e);
        } else {
            return e;
        }
    }
}

/* await_primary = "await" primary | primary */
static NgJitExpr *await_primary(Parser *P)
{
    if (!at(P, NG_JIT_TK_AWAIT))
        return primary(P);
    const NgJitToken *t = next(P);
    NgJitExpr *v = primary(P);
    NgJitExpr *e = new_expr(P, NG_JIT_E_AWAIT, join(tok_span(t), v->outer));
    e->lhs = v;
    return seal(P, e);
}

/* The binary operator at the current token and how many tokens it takes. */
static NgJitOp binop(const Parser *P, int *ntok)
{
    *ntok = 1;
    switch (P->tok->kind) {
    case '+': return NG_JIT_OP_ADD;
    case '-': return NG_JIT_OP_SUB;
    case '*': return NG_JIT_OP_MUL;
    case '@': return NG_JIT_OP_MATMUL;
    case '/': return NG_JIT_OP_DIV;
    case '%': return NG_JIT_OP_MOD;
    case '|': return NG_JIT_OP_BITOR;
    case '^': return NG_JIT_OP_BITXOR;
    case '&': return NG_JIT_OP_BITAND;
    case '<': return NG_JIT_OP_LT;
    case '>': return NG_JIT_OP_GT;
    case NG_JIT_TK_FLOORDIV: return NG_JIT_OP_FLOORDIV;
    case NG_JIT_TK_POW: return NG_JIT_OP_POW;
    case NG_JIT_TK_LSHIFT: return NG_JIT_OP_LSHIFT;
    case NG_JIT_TK_RSHIFT: return NG_JIT_OP_RSHIFT;
    case NG_JIT_TK_LE: return NG_JIT_OP_LE;
    case NG_JIT_TK_GE: return NG_JIT_OP_GE;
    case NG_JIT_TK_EQ: return NG_JIT_OP_EQ;
    case NG_JIT_TK_NE: return NG_JIT_OP_NE;
    case NG_JIT_TK_AND: return NG_JIT_OP_AND;
    case NG_JIT_TK_OR: return NG_JIT_OP_OR;
    case NG_JIT_TK_IN: return NG_JIT_OP_IN;
    case NG_JIT_TK_IS:
        if (peek(P, 1)->kind == NG_JIT_TK_NOT) {
            *ntok = 2;
            return NG_JIT_OP_IS_NOT;
        }
        return NG_JIT_OP_IS;
    case NG_JIT_TK_NOT:
        if (peek(P, 1)->kind == NG_JIT_TK_IN) {
            *ntok = 2;
            return NG_JIT_OP_NOT_IN;
        }
        return NG_JIT_OP_NONE;
    default:
        return NG_JIT_OP_NONE;
    }
}

typedef struct OpVec {
    NgJitOp *v;
    int n, cap;
} OpVec;

/* comparison = bitwise_or (compare_op bitwise_or)+  (one node for the chain) */
static NgJitExpr *compare(Parser *P, NgJitExpr *first)
{
    ExprVec items = {0};
    OpVec ops = {0};
    PUSH(P, items, first);
    int ntok;
    NgJitOp op;
    while ((op = binop(P, &ntok)) != NG_JIT_OP_NONE && is_compare(op)) {
        P->tok += ntok;
        PUSH(P, ops, op);
        PUSH(P, items, binary(P, PRI_CMP));
    }
    NgJitExpr *e = new_expr(P, NG_JIT_E_COMPARE, join(first->outer, items.v[items.n - 1]->outer));
    e->items = items.v;
    e->nitems = items.n;
    e->ops = ops.v;
    return seal(P, e);
}

/* disjunction, conjunction, inversion, comparison, bitwise_or ... power, by
 * precedence climbing (see priority[]):
 *   binary(limit) = ("not" binary(PRI_NOT) | ("-" | "+" | "~") binary(PRI_UNARY) | await_primary)
 *                   (binop binary(right priority))*   -- while the left priority > limit */
static NgJitExpr *binary(Parser *P, int limit)
{
    enter(P);
    const NgJitToken *t = P->tok;
    NgJitExpr *e;
    if (at(P, NG_JIT_TK_NOT)) {
        if (limit >= PRI_CMP) /* `not` binds looser than comparisons: a == not b */
            invalid_syntax(P);
        next(P);
        e = unary(P, NG_JIT_OP_NOT, t, binary(P, PRI_NOT));
    } else if (at(P, '-') || at(P, '+') || at(P, '~')) {
        next(P);
        NgJitOp op = t->kind == '-' ? NG_JIT_OP_NEG : t->kind == '+' ? NG_JIT_OP_POS : NG_JIT_OP_INVERT;
        e = unary(P, op, t, binary(P, PRI_UNARY));
    } else {
        e = await_primary(P);
    }
    for (;;) {
        int ntok;
        NgJitOp op = binop(P, &ntok);
        if (op == NG_JIT_OP_NONE || priority[op].left <= limit)
            break;
        if (is_compare(op)) {
            e = compare(P, e);
            continue;
        }
        P->tok += ntok;
        e = binary_node(P, op, e, binary(P, priority[op].right));
    }
    leave(P);
    return e;
}

/* lambdef = "lambda" [lambda_params] ":" expression */
static NgJitExpr *lambdef(Parser *P)
{
    const NgJitToken *t = next(P);
    enter(P);
    NgJitParams *params = parameters(P, ':', false);
    expect(P, ':');
    bool yielded = P->yielded;
    P->funcs++;
    NgJitExpr *body = expression(P);
    P->funcs--;
    P->yielded = yielded;
    NgJitExpr *e = new_expr(P, NG_JIT_E_LAMBDA, join(tok_span(t), body->outer));
    e->params = params;
    e->lhs = body;
    leave(P);
    return seal(P, e);
}

/* expression = lambdef | disjunction ["if" disjunction "else" expression] */
static NgJitExpr *expression(Parser *P)
{
    if (at(P, NG_JIT_TK_LAMBDA))
        return lambdef(P);
    enter(P);
    NgJitExpr *e = binary(P, 0);
    if (accept(P, NG_JIT_TK_IF)) {
        NgJitExpr *cond = binary(P, 0);
        if (!accept(P, NG_JIT_TK_ELSE))
            error_span(P, join(e->outer, cond->outer), "expected 'else' after 'if' expression");
        NgJitExpr *orelse = expression(P);
        NgJitExpr *x = new_expr(P, NG_JIT_E_IFEXP, join(e->outer, orelse->outer));
        x->lhs = e;
        x->cond = cond;
        x->rhs = orelse;
        e = seal(P, x);
    }
    leave(P);
    return e;
}

/* named_expression = NAME ":=" expression | expression */
static NgJitExpr *named_expression(Parser *P)
{
    if (!at(P, NG_JIT_TK_NAME) || peek(P, 1)->kind != NG_JIT_TK_WALRUS)
        return expression(P);
    const NgJitToken *t = next(P);
    next(P);
    NgJitExpr *v = expression(P);
    NgJitExpr *e = new_expr(P, NG_JIT_E_NAMED, join(tok_span(t), v->outer));
    e->lhs = name_expr(P, t);
    e->lhs->ctx = NG_JIT_STORE;
    e->rhs = v;
    return seal(P, e);
}

static NgJitExpr *starred(Parser *P)
{
    const NgJitToken *t = next(P);
    NgJitExpr *v = binary(P, PRI_CMP);
    NgJitExpr *e = new_expr(P, NG_JIT_E_STARRED, join(tok_span(t), v->outer));
    e->lhs = v;
    return seal(P, e);
}

/* star_named_expression = "*" bitwise_or | named_expression */
static NgJitExpr *star_named_expression(Parser *P)
{
    return at(P, '*') ? starred(P) : named_expression(P);
}

/* star_expression = "*" bitwise_or | expression */
static NgJitExpr *star_expression(Parser *P) { return at(P, '*') ? starred(P) : expression(P); }

/* star_expressions = star_expression ("," star_expression)* [","]  (a tuple when a comma is written) */
static NgJitExpr *star_expressions(Parser *P)
{
    NgJitExpr *first = star_expression(P);
    if (!at(P, ','))
        return first;
    ExprVec items = {0};
    PUSH(P, items, first);
    while (accept(P, ',') && starts_expr(P->tok->kind))
        PUSH(P, items, star_expression(P));
    return sequence(P, NG_JIT_E_TUPLE, &items, join(first->outer, prev_span(P)));
}

/* star_targets = star_target ("," star_target)* [","]
 * star_target = "*" bitwise_or | bitwise_or   (checked by set_store) */
static NgJitExpr *star_targets(Parser *P)
{
    NgJitExpr *first = at(P, '*') ? starred(P) : binary(P, PRI_CMP);
    if (!at(P, ','))
        return first;
    ExprVec items = {0};
    PUSH(P, items, first);
    while (accept(P, ',') && starts_expr(P->tok->kind))
        PUSH(P, items, at(P, '*') ? starred(P) : binary(P, PRI_CMP));
    return sequence(P, NG_JIT_E_TUPLE, &items, join(first->outer, prev_span(P)));
}

/* Python's name for what an expression is, in "cannot assign to ..." */
static const char *expr_desc(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_CALL: return "function call";
    case NG_JIT_E_COMPARE: return "comparison";
    case NG_JIT_E_UNARY: case NG_JIT_E_BINARY: case NG_JIT_E_BOOLOP: return "expression";
    case NG_JIT_E_IFEXP: return "conditional expression";
    case NG_JIT_E_LAMBDA: return "lambda";
    case NG_JIT_E_AWAIT: return "await expression";
    case NG_JIT_E_YIELD: case NG_JIT_E_YIELD_FROM: return "yield expression";
    case NG_JIT_E_NAMED: return "named expression";
    case NG_JIT_E_LISTCOMP: return "list comprehension";
    case NG_JIT_E_SETCOMP: return "set comprehension";
    case NG_JIT_E_DICTCOMP: return "dict comprehension";
    case NG_JIT_E_GENEXP: return "generator expression";
    case NG_JIT_E_DICT: return "dict literal";
    case NG_JIT_E_SET: return "set display";
    case NG_JIT_E_SLICE: return "slice";
    case NG_JIT_E_STR:
        return e->str_flags & NG_JIT_STR_FSTRING ? "f-string expression" : "literal";
    case NG_JIT_E_CONST:
        return e->cval == NG_JIT_C_TRUE    ? "True"
               : e->cval == NG_JIT_C_FALSE ? "False"
               : e->cval == NG_JIT_C_NONE  ? "None"
                                           : "ellipsis";
    default: return "literal";
    }
}

/* Marks an assignment target STORE, or rejects what cannot be assigned. */
static void set_store(Parser *P, NgJitExpr *e, bool hint)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: case NG_JIT_E_ATTR: case NG_JIT_E_SUBSCRIPT:
        e->ctx = NG_JIT_STORE;
        return;
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        e->ctx = NG_JIT_STORE;
        for (int i = 0; i < e->nitems; i++)
            set_store(P, e->items[i], false);
        return;
    case NG_JIT_E_STARRED:
        e->ctx = NG_JIT_STORE;
        set_store(P, e->lhs, false);
        return;
    default:
        error_span(P, e->span, "cannot assign to %s%s", expr_desc(e),
                   hint ? " here. Maybe you meant '==' instead of '='?" : "");
    }
}

/* ---- parameters ---- */

typedef struct ParamVec {
    NgJitParam *v;
    int n, cap;
} ParamVec;

/* param = NAME [":" expression] */
static NgJitParam param(Parser *P, NgJitParamKind kind, bool annotations)
{
    const NgJitToken *t = expect(P, NG_JIT_TK_NAME);
    NgJitParam p = {0};
    p.name = intern(P, P->src + t->off, t->len, &p.name_id);
    p.kind = kind;
    p.span = tok_span(t);
    if (annotations && accept(P, ':')) {
        p.annotation = at(P, '*') ? starred(P) : expression(P);
        p.span = join(p.span, p.annotation->outer);
    }
    return p;
}

/* params = item ("," item)* [","]
 * item = param ["=" expression] | "/" | "*" [param] | "**" param */
static NgJitParams *parameters(Parser *P, int close, bool annotations)
{
    NgJitParams *ps = alloc(P, sizeof *ps);
    ParamVec v = {0};
    NgJitParamKind kind = NG_JIT_P_NORMAL;
    while (!at(P, close)) {
        if (at(P, '/')) {
            if (ps->has_posonly || kind != NG_JIT_P_NORMAL || v.n == 0)
                error_tok(P, P->tok, "SyntaxError", "/ must be ahead of * and follow a parameter");
            next(P);
            ps->has_posonly = true;
            for (int i = 0; i < v.n; i++)
                v.v[i].kind = NG_JIT_P_POSONLY;
        } else if (at(P, '*')) {
            if (kind != NG_JIT_P_NORMAL)
                error_tok(P, P->tok, "SyntaxError", "* argument may appear only once");
            next(P);
            if (at(P, NG_JIT_TK_NAME))
                PUSH(P, v, param(P, NG_JIT_P_VARARGS, annotations));
            else
                ps->has_bare_star = true;
            kind = NG_JIT_P_KWONLY;
        } else if (accept(P, NG_JIT_TK_POW)) {
            PUSH(P, v, param(P, NG_JIT_P_VARKW, annotations));
        } else {
            NgJitParam p = param(P, kind, annotations);
            if (accept(P, '='))
                p.dflt = expression(P);
            PUSH(P, v, p);
        }
        if (!accept(P, ','))
            break;
    }
    ps->items = v.v;
    ps->n = v.n;
    return ps;
}

/* ---- statements ---- */

static NgJitStmt *new_stmt(Parser *P, NgJitStmtKind kind, NgJitSpan span)
{
    NgJitStmt *s = alloc(P, sizeof *s);
    s->kind = kind;
    s->span = span;
    s->name_id = -1;
    s->deco_line = span.line;
    return s;
}

static bool expr_python(const NgJitExpr *e) { return e && e->python; }

static bool block_python(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++)
        if (b.stmts[i]->python)
            return true;
    return false;
}

/* Sets a finished statement's python flag from its parts. */
static NgJitStmt *seal_stmt(NgJitStmt *s)
{
    bool py = s->kind == NG_JIT_S_OTHER || expr_python(s->target) || expr_python(s->value) ||
              expr_python(s->test) || expr_python(s->annotation) || block_python(s->body) ||
              block_python(s->orelse);
    for (int i = 0; i < s->ntargets; i++)
        py |= s->targets[i]->python;
    for (int i = 0; i < s->ndecorators; i++)
        py |= s->decorators[i]->python;
    if (s->params)
        for (int i = 0; i < s->params->n; i++)
            py |= expr_python(s->params->items[i].dflt) || expr_python(s->params->items[i].annotation);
    s->python |= py;
    return s;
}

/* The end of a block: that of its last statement; `none` for a block left
 * empty by a syntax error. */
static NgJitSpan block_end(NgJitBlock b, NgJitSpan none) { return b.n ? b.stmts[b.n - 1]->span : none; }

static void statement(Parser *P, StmtVec *out);
static void simple_stmts(Parser *P, StmtVec *out);

/* block = ":" (NEWLINE INDENT statement+ DEDENT | simple_stmts)
 * `after` and `line` name the statement for "expected an indented block". */
static NgJitBlock block(Parser *P, const char *after, int line)
{
    expect(P, ':');
    StmtVec v = {0};
    enter(P);
    if (accept(P, NG_JIT_TK_NEWLINE)) {
        if (!at(P, NG_JIT_TK_INDENT))
            error_tok(P, P->tok, "IndentationError", "expected an indented block after %s on line %d",
                      after, line);
        next(P);
        while (!at(P, NG_JIT_TK_DEDENT) && !at(P, NG_JIT_TK_EOF))
            statement(P, &v);
        expect(P, NG_JIT_TK_DEDENT);
    } else {
        simple_stmts(P, &v);
    }
    leave(P);
    return (NgJitBlock){v.v, v.n};
}

typedef struct NameVec {
    const char **v;
    int n, cap;
} NameVec;

typedef struct IdVec {
    int *v;
    int n, cap;
} IdVec;

/* Adds the names a token of a skipped statement mentions to its lists. */
static void note_names(Parser *P, const NgJitToken *t, NameVec *names, IdVec *ids)
{
    ExprVec found = {0};
    if (t->kind == NG_JIT_TK_NAME) {
        NgJitExpr *e = name_expr(P, t);
        PUSH(P, found, e);
    } else if (t->kind == NG_JIT_TK_STRING) {
        const char *body;
        size_t blen;
        if (string_parts(P->src + t->off, t->len, &body, &blen) & PREFIX_F)
            fstring_names(P, t, &found);
    }
    for (int i = 0; i < found.n; i++) {
        int id = found.v[i]->name_id;
        if (P->name_mark[id] == P->other_stamp)
            continue;
        P->name_mark[id] = P->other_stamp;
        PUSH(P, *names, found.v[i]->name);
        PUSH(P, *ids, id);
    }
}

static NgJitStmt *new_other(Parser *P, const char *what, const NgJitToken *first)
{
    NgJitStmt *s = new_stmt(P, NG_JIT_S_OTHER, tok_span(first));
    s->what = what;
    P->other_stamp++;
    return s;
}

static void other_done(NgJitStmt *s, const NgJitToken *first, const NgJitToken *last, NameVec *names,
                       IdVec *ids)
{
    s->span = join(tok_span(first), tok_span(last));
    s->names = names->v;
    s->name_ids = ids->v;
    s->nnames = names->n;
    seal_stmt(s);
}

/* other_simple = ("import" | "from" | "global" | "nonlocal" | "del" | "raise" | "assert" | "type")
 *                token*   -- up to ";" or NEWLINE */
static NgJitStmt *other_simple(Parser *P, const char *what)
{
    const NgJitToken *first = P->tok, *last = first;
    NgJitStmt *s = new_other(P, what, first);
    NameVec names = {0};
    IdVec ids = {0};
    while (!at(P, ';') && !at(P, NG_JIT_TK_NEWLINE) && !at(P, NG_JIT_TK_EOF)) {
        note_names(P, P->tok, &names, &ids);
        last = next(P);
    }
    other_done(s, first, last, &names, &ids);
    return s;
}

static bool at_stmt_end(const Parser *P, const NgJitToken *t)
{
    return t->kind == ';' || t->kind == NG_JIT_TK_NEWLINE || t->kind == NG_JIT_TK_EOF;
}

/* A RAISE statement from `first` to `last` of class `name` (interned), its message `msg`. */
static NgJitStmt *new_raise(Parser *P, const NgJitToken *first, const NgJitToken *last, const char *name,
                            size_t n, NgJitExpr *test, NgJitExpr *msg)
{
    NgJitStmt *s = new_stmt(P, NG_JIT_S_RAISE, join(tok_span(first), tok_span(last)));
    s->name = intern(P, name, n, &s->name_id);
    s->test = test;
    s->value = msg;
    s->raise_id = P->ast->nraises++;
    return seal_stmt(s);
}

static bool plain_str(const NgJitExpr *e)
{
    return e && e->kind == NG_JIT_E_STR && e->str && !(e->str_flags & NG_JIT_STR_BYTES);
}

/* raise_stmt = "raise" NAME ["(" [STRING+] ")"]     -- RAISE (plain strs only)
 *            | "raise" token*                        -- other_simple's */
static NgJitStmt *raise_stmt(Parser *P)
{
    const NgJitToken *first = P->tok;
    int k = 2;
    if (peek(P, 1)->kind != NG_JIT_TK_NAME)
        return other_simple(P, "raise");
    if (peek(P, 2)->kind == '(') {
        for (k = 3; peek(P, k)->kind == NG_JIT_TK_STRING; k++)
            ;
        if (peek(P, k++)->kind != ')')
            return other_simple(P, "raise");
    }
    if (!at_stmt_end(P, peek(P, k)))
        return other_simple(P, "raise");
    next(P);
    const NgJitToken *name = next(P), *last = name;
    NgJitExpr *msg = NULL;
    if (accept(P, '(')) {
        msg = at(P, NG_JIT_TK_STRING) ? strings(P) : NULL;
        last = next(P); /* ) */
        if (msg && !plain_str(msg)) { /* (bytes, an f-string) */
            P->tok = first;
            return other_simple(P, "raise");
        }
    }
    return new_raise(P, first, last, P->src + name->off, name->len, NULL, msg);
}

/* assert_stmt = "assert" expression ["," STRING+]  -- RAISE of AssertionError (plain strs only)
 *             | "assert" token*                     -- other_simple's */
static NgJitStmt *assert_stmt(Parser *P)
{
    const NgJitToken *first = next(P);
    NgJitExpr *test = expression(P), *msg = NULL;
    bool plain = true;
    if (accept(P, ',')) {
        msg = at(P, NG_JIT_TK_STRING) ? strings(P) : NULL;
        plain = plain_str(msg);
    }
    if (!plain || !at_stmt_end(P, P->tok)) { /* (another message, evaluated where it fails: Python's) */
        P->tok = first;
        return other_simple(P, "assert");
    }
    return new_raise(P, first, P->tok - 1, "AssertionError", strlen("AssertionError"), test, msg);
}

/* One clause of a skipped compound statement: its header line (with an
 * inline body), then its indented block if one follows. Returns its last
 * token. */
static const NgJitToken *skip_clause(Parser *P, NameVec *names, IdVec *ids)
{
    const NgJitToken *header = P->tok, *last = P->tok;
    while (!at(P, NG_JIT_TK_NEWLINE) && !at(P, NG_JIT_TK_EOF)) {
        note_names(P, P->tok, names, ids);
        last = next(P);
    }
    expect(P, NG_JIT_TK_NEWLINE);
    if (at(P, NG_JIT_TK_INDENT)) {
        int depth = 0;
        do {
            if (at(P, NG_JIT_TK_INDENT))
                depth++;
            else if (at(P, NG_JIT_TK_DEDENT))
                depth--;
            else if (!at(P, NG_JIT_TK_NEWLINE))
                last = P->tok;
            note_names(P, P->tok, names, ids);
            next(P);
        } while (depth > 0 && !at(P, NG_JIT_TK_EOF));
    } else if (last->kind == ':') {
        const char *kw = ng_jit_tok_kind_name(header->kind);
        if (header->kind == NG_JIT_TK_CLASS)
            error_tok(P, P->tok, "IndentationError",
                      "expected an indented block after class definition on line %d", header->line);
        error_tok(P, P->tok, "IndentationError",
                  "expected an indented block after '%.*s' statement on line %d",
                  header->kind == NG_JIT_TK_NAME ? (int)header->len : (int)strlen(kw),
                  header->kind == NG_JIT_TK_NAME ? P->src + header->off : kw, header->line);
    }
    return last;
}

/* other_compound = ("with" | "try" | "class" | "async" | "match") clause
 *                  (("except" | "else" | "finally") clause)*   -- try, async for
 * clause = token* NEWLINE [INDENT ... DEDENT]
 * `first` is its first token (a decorator's "@" for a decorated class). */
static NgJitStmt *other_compound(Parser *P, const char *what, const NgJitToken *first)
{
    NgJitStmt *s = new_other(P, what, first);
    NameVec names = {0};
    IdVec ids = {0};
    for (const NgJitToken *t = first; t < P->tok; t++)
        note_names(P, t, &names, &ids);
    bool clauses = at(P, NG_JIT_TK_TRY) || (at(P, NG_JIT_TK_ASYNC) && peek(P, 1)->kind == NG_JIT_TK_FOR);
    const NgJitToken *last = skip_clause(P, &names, &ids);
    while (clauses && (at(P, NG_JIT_TK_EXCEPT) || at(P, NG_JIT_TK_ELSE) || at(P, NG_JIT_TK_FINALLY)))
        last = skip_clause(P, &names, &ids);
    other_done(s, first, last, &names, &ids);
    return s;
}

static NgJitExpr *rhs(Parser *P) { return at(P, NG_JIT_TK_YIELD) ? yield_expr(P) : star_expressions(P); }

static NgJitOp augassign_op(int kind)
{
    switch (kind) {
    case NG_JIT_TK_ADD_ASSIGN: return NG_JIT_OP_ADD;
    case NG_JIT_TK_SUB_ASSIGN: return NG_JIT_OP_SUB;
    case NG_JIT_TK_MUL_ASSIGN: return NG_JIT_OP_MUL;
    case NG_JIT_TK_DIV_ASSIGN: return NG_JIT_OP_DIV;
    case NG_JIT_TK_MOD_ASSIGN: return NG_JIT_OP_MOD;
    case NG_JIT_TK_AND_ASSIGN: return NG_JIT_OP_BITAND;
    case NG_JIT_TK_OR_ASSIGN: return NG_JIT_OP_BITOR;
    case NG_JIT_TK_XOR_ASSIGN: return NG_JIT_OP_BITXOR;
    case NG_JIT_TK_MATMUL_ASSIGN: return NG_JIT_OP_MATMUL;
    case NG_JIT_TK_LSHIFT_ASSIGN: return NG_JIT_OP_LSHIFT;
    case NG_JIT_TK_RSHIFT_ASSIGN: return NG_JIT_OP_RSHIFT;
    case NG_JIT_TK_POW_ASSIGN: return NG_JIT_OP_POW;
    case NG_JIT_TK_FLOORDIV_ASSIGN: return NG_JIT_OP_FLOORDIV;
    default: return NG_JIT_OP_NONE;
    }
}

static bool single_target(const NgJitExpr *e)
{
    return e->kind == NG_JIT_E_NAME || e->kind == NG_JIT_E_ATTR || e->kind == NG_JIT_E_SUBSCRIPT;
}

/* assignment = (star_targets "=")+ (yield_expr | star_expressions)
 *            | single_target ":" expression ["=" (yield_expr | star_expressions)]
 *            | single_target augassign (yield_expr | star_expressions)
 * expr_stmt = star_expressions | yield_expr */
static NgJitStmt *expr_stmt(Parser *P)
{
    NgJitExpr *first = rhs(P);
    NgJitStmt *s;
    NgJitOp aug = augassign_op(P->tok->kind);
    if (at(P, ':')) {
        if (!single_target(first))
            error_span(P, first->span, first->kind == NG_JIT_E_TUPLE
                                           ? "only single target (not tuple) can be annotated"
                                           : "illegal target for annotation");
        next(P);
        set_store(P, first, false);
        NgJitExpr *ann = expression(P);
        NgJitExpr *value = accept(P, '=') ? rhs(P) : NULL;
        s = new_stmt(P, NG_JIT_S_ANNASSIGN, join(first->outer, (value ? value : ann)->outer));
        s->target = first;
        s->annotation = ann;
        s->value = value;
    } else if (aug != NG_JIT_OP_NONE) {
        if (!single_target(first))
            error_span(P, first->span, "'%s' is an illegal expression for augmented assignment",
                       first->kind == NG_JIT_E_TUPLE ? "tuple"
                       : first->kind == NG_JIT_E_LIST ? "list"
                                                      : expr_desc(first));
        next(P);
        set_store(P, first, false);
        NgJitExpr *value = rhs(P);
        s = new_stmt(P, NG_JIT_S_AUGASSIGN, join(first->outer, value->outer));
        s->target = first;
        s->op = aug;
        s->value = value;
    } else if (at(P, '=')) {
        ExprVec all = {0};
        PUSH(P, all, first);
        while (accept(P, '='))
            PUSH(P, all, rhs(P));
        NgJitExpr *value = all.v[all.n - 1];
        for (int i = 0; i < all.n - 1; i++)
            set_store(P, all.v[i], true);
        s = new_stmt(P, NG_JIT_S_ASSIGN, join(first->outer, value->outer));
        s->targets = all.v;
        s->ntargets = all.n - 1;
        s->value = value;
    } else {
        s = new_stmt(P, NG_JIT_S_EXPR, first->outer);
        s->value = first;
    }
    return seal_stmt(s);
}

/* simple_stmt = assignment | expr_stmt | "return" [star_expressions] | "pass" | "break"
 *             | "continue" | other_simple */
static NgJitStmt *simple_stmt(Parser *P)
{
    const NgJitToken *t = P->tok;
    NgJitStmt *s;
    switch (t->kind) {
    case NG_JIT_TK_PASS:
        return new_stmt(P, NG_JIT_S_PASS, tok_span(next(P)));
    case NG_JIT_TK_BREAK:
        if (P->loops == 0)
            error_tok(P, t, "SyntaxError", "'break' outside loop");
        return new_stmt(P, NG_JIT_S_BREAK, tok_span(next(P)));
    case NG_JIT_TK_CONTINUE:
        if (P->loops == 0)
            error_tok(P, t, "SyntaxError", "'continue' not properly in loop");
        return new_stmt(P, NG_JIT_S_CONTINUE, tok_span(next(P)));
    case NG_JIT_TK_RETURN:
        if (P->funcs == 0)
            error_tok(P, t, "SyntaxError", "'return' outside function");
        next(P);
        s = new_stmt(P, NG_JIT_S_RETURN, tok_span(t));
        if (starts_expr(P->tok->kind)) {
            s->value = star_expressions(P);
            s->span = join(s->span, s->value->outer);
        }
        return seal_stmt(s);
    case NG_JIT_TK_IMPORT: return other_simple(P, "import");
    case NG_JIT_TK_FROM: return other_simple(P, "from");
    case NG_JIT_TK_GLOBAL: return other_simple(P, "global");
    case NG_JIT_TK_NONLOCAL: return other_simple(P, "nonlocal");
    case NG_JIT_TK_DEL: return other_simple(P, "del");
    case NG_JIT_TK_RAISE: return raise_stmt(P);
    case NG_JIT_TK_ASSERT: return assert_stmt(P);
    case NG_JIT_TK_NAME:
        if (is_name(P, t, "type") && peek(P, 1)->kind == NG_JIT_TK_NAME &&
            (peek(P, 2)->kind == '=' || peek(P, 2)->kind == '['))
            return other_simple(P, "type");
        break;
    default:
        break;
    }
    return expr_stmt(P);
}

/* simple_stmts = simple_stmt (";" simple_stmt)* [";"] NEWLINE */
static void simple_stmts(Parser *P, StmtVec *out)
{
    PUSH(P, *out, simple_stmt(P));
    while (accept(P, ';') && !at(P, NG_JIT_TK_NEWLINE))
        PUSH(P, *out, simple_stmt(P));
    expect(P, NG_JIT_TK_NEWLINE);
}

/* if_stmt = "if" named_expression block ("elif" named_expression block)* ["else" block]
 * An elif is an IF alone in the orelse of the one before, as in Python's ast. */
static NgJitStmt *if_stmt(Parser *P)
{
    StmtVec chain = {0};
    const NgJitToken *t = next(P);
    NgJitStmt *s = new_stmt(P, NG_JIT_S_IF, tok_span(t));
    s->test = named_expression(P);
    s->body = block(P, "'if' statement", t->line);
    PUSH(P, chain, s);
    while (at(P, NG_JIT_TK_ELIF)) {
        if (P->depth + chain.n > NG_JIT_MAX_DEPTH)
            error_tok(P, P->tok, "SyntaxError", "too many elif clauses for the jit");
        t = next(P);
        NgJitStmt *e = new_stmt(P, NG_JIT_S_IF, tok_span(t));
        e->test = named_expression(P);
        e->body = block(P, "'elif' statement", t->line);
        NgJitStmt **one = alloc(P, sizeof *one);
        one[0] = e;
        s->orelse = (NgJitBlock){one, 1};
        s->else_line = t->line;
        PUSH(P, chain, e);
        s = e;
    }
    if (at(P, NG_JIT_TK_ELSE)) {
        t = next(P);
        s->else_line = t->line;
        s->orelse = block(P, "'else' statement", t->line);
    }
    NgJitSpan end = block_end(s->orelse.n ? s->orelse : s->body, s->span);
    for (int i = chain.n - 1; i >= 0; i--) {
        chain.v[i]->span = join(chain.v[i]->span, end);
        seal_stmt(chain.v[i]);
    }
    return chain.v[0];
}

/* The body and optional else block of a while/for statement s whose
 * keyword is on `line`; counts the loop and closes its span. */
static NgJitStmt *loop_rest(Parser *P, NgJitStmt *s, const char *what, int line)
{
    P->loops++;
    s->body = block(P, what, line);
    P->loops--;
    if (at(P, NG_JIT_TK_ELSE)) {
        const NgJitToken *e = next(P);
        s->else_line = e->line;
        s->orelse = block(P, "'else' statement", e->line);
    }
    s->span = join(s->span, block_end(s->orelse.n ? s->orelse : s->body, s->span));
    P->ast->nloops++;
    return seal_stmt(s);
}

/* while_stmt = "while" named_expression block ["else" block] */
static NgJitStmt *while_stmt(Parser *P)
{
    const NgJitToken *t = next(P);
    NgJitStmt *s = new_stmt(P, NG_JIT_S_WHILE, tok_span(t));
    s->test = named_expression(P);
    return loop_rest(P, s, "'while' statement", t->line);
}

/* for_stmt = "for" star_targets "in" star_expressions block ["else" block] */
static NgJitStmt *for_stmt(Parser *P)
{
    const NgJitToken *t = next(P);
    NgJitStmt *s = new_stmt(P, NG_JIT_S_FOR, tok_span(t));
    s->target = star_targets(P);
    set_store(P, s->target, false);
    expect(P, NG_JIT_TK_IN);
    s->test = star_expressions(P);
    return loop_rest(P, s, "'for' statement", t->line);
}

/* funcdef = [decorators] "def" NAME [type_params] "(" [params] ")" ["->" expression] block
 * type_params = "[" ... "]"   (skipped; the function is then python) */
static NgJitStmt *funcdef(Parser *P, ExprVec *decorators, const NgJitToken *first)
{
    const NgJitToken *t = expect(P, NG_JIT_TK_DEF);
    const NgJitToken *name = expect(P, NG_JIT_TK_NAME);
    NgJitStmt *s = new_stmt(P, NG_JIT_S_DEF, tok_span(t));
    s->name = intern(P, P->src + name->off, name->len, &s->name_id);
    s->deco_line = first->line;
    if (at(P, '[')) {
        for (int depth = 0;; next(P)) {
            depth += at(P, '[') - at(P, ']');
            if (depth == 0 || at(P, NG_JIT_TK_EOF))
                break;
        }
        expect(P, ']');
        s->python = true;
    }
    expect(P, '(');
    s->params = parameters(P, ')', true);
    expect(P, ')');
    if (accept(P, NG_JIT_TK_ARROW))
        s->annotation = expression(P);
    int loops = P->loops;
    bool yielded = P->yielded;
    P->loops = 0;
    P->yielded = false;
    P->funcs++;
    s->body = block(P, "function definition", t->line);
    P->funcs--;
    s->is_generator = P->yielded;
    P->loops = loops;
    P->yielded = yielded;
    if (decorators) {
        s->decorators = decorators->v;
        s->ndecorators = decorators->n;
    }
    s->span = join(s->span, block_end(s->body, s->span));
    return seal_stmt(s);
}

/* decorated = ("@" named_expression NEWLINE)+ (funcdef | class_def | "async" ...) */
static NgJitStmt *decorated(Parser *P)
{
    const NgJitToken *first = P->tok;
    ExprVec decorators = {0};
    while (accept(P, '@')) {
        PUSH(P, decorators, named_expression(P));
        expect(P, NG_JIT_TK_NEWLINE);
    }
    if (at(P, NG_JIT_TK_DEF))
        return funcdef(P, &decorators, first);
    if (at(P, NG_JIT_TK_CLASS))
        return other_compound(P, "class", first);
    if (at(P, NG_JIT_TK_ASYNC))
        return other_compound(P, "async", first);
    invalid_syntax(P);
}

/* Is the line at the current token (a NAME "match") a match statement? Its
 * header ends in ":" and nothing else can. */
static bool at_match_stmt(const Parser *P)
{
    int k = peek(P, 1)->kind;
    if (k == ':' || k == '=' || k == '.' || k == NG_JIT_TK_NEWLINE || augassign_op(k) != NG_JIT_OP_NONE)
        return false;
    const NgJitToken *t = P->tok;
    while (t[1].kind != NG_JIT_TK_NEWLINE && t[1].kind != NG_JIT_TK_EOF)
        t++;
    return t->kind == ':';
}

/* statement = compound_stmt | simple_stmts
 * compound_stmt = funcdef | decorated | if_stmt | for_stmt | while_stmt | other_compound */
static void statement(Parser *P, StmtVec *out)
{
    const NgJitToken *t = P->tok;
    NgJitStmt *s = NULL;
    switch (t->kind) {
    case NG_JIT_TK_INDENT: /* reported where the indented code starts */
        error_at(P, "IndentationError", t->line, t->end_col, "unexpected indent");
    case NG_JIT_TK_DEF: s = funcdef(P, NULL, t); break;
    case '@': s = decorated(P); break;
    case NG_JIT_TK_IF: s = if_stmt(P); break;
    case NG_JIT_TK_FOR: s = for_stmt(P); break;
    case NG_JIT_TK_WHILE: s = while_stmt(P); break;
    case NG_JIT_TK_WITH: s = other_compound(P, "with", t); break;
    case NG_JIT_TK_TRY: s = other_compound(P, "try", t); break;
    case NG_JIT_TK_CLASS: s = other_compound(P, "class", t); break;
    case NG_JIT_TK_ASYNC: s = other_compound(P, "async", t); break;
    case NG_JIT_TK_NAME:
        if (is_name(P, t, "match") && at_match_stmt(P))
            s = other_compound(P, "match", t);
        break;
    default: break;
    }
    if (s)
        PUSH(P, *out, s);
    else
        simple_stmts(P, out);
}

/* file = statement* ENDMARKER */
static void module(Parser *P)
{
    StmtVec v = {0};
    while (!at(P, NG_JIT_TK_EOF))
        statement(P, &v);
    P->ast->body = (NgJitBlock){v.v, v.n};
}

/* ---- entry ---- */

/* Copies the text and file name into the arena and builds the line table. */
static void setup(Parser *P, const char *src, size_t len, const char *filename)
{
    NgJitAst *ast = P->ast;
    char *copy = alloc(P, len + 1);
    if (len)
        memcpy(copy, src, len);
    ast->src = P->src = copy;
    ast->len = len;
    ast->src_hash = ng_hash64(copy, len, 0);
    size_t flen = strlen(filename);
    char *fcopy = alloc(P, flen + 1);
    memcpy(fcopy, filename, flen + 1);
    ast->filename = P->file = fcopy;

    size_t start = len >= 3 && memcmp(copy, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    int nlines = len > 0;
    for (size_t i = 0; i < len; i++)
        if ((copy[i] == '\n' || (copy[i] == '\r' && (i + 1 >= len || copy[i + 1] != '\n'))) && i + 1 < len)
            nlines++;
    uint32_t *off = alloc(P, ((size_t)nlines + 2) * sizeof *off);
    int line = 1;
    off[1] = (uint32_t)start;
    for (size_t i = 0; i < len; i++)
        if ((copy[i] == '\n' || (copy[i] == '\r' && (i + 1 >= len || copy[i + 1] != '\n'))) && i + 1 < len)
            off[++line] = (uint32_t)(i + 1);
    off[nlines + 1] = (uint32_t)len;
    ast->line_off = off;
    ast->nlines = nlines;
}

/* The error exit: errors longjmp back here. Kept apart so that no local of
 * the function calling setjmp changes after it. */
static NgStatus run(Parser *P, const char *src, size_t len, const char *filename)
{
    if (setjmp(P->fail))
        return P->status;
    setup(P, src, len, filename);
    module(P);
    return NG_OK;
}

NgStatus ng_jit_parse(const char *src, size_t len, const char *filename, NgJitAst **out,
                      NgJitError *err)
{
    *out = NULL;
    if (!filename)
        filename = "<string>";
    if (!src)
        len = 0;
    NgJitToken *toks;
    int ntok;
    NgStatus st = ng_jit_lex(src, len, filename, &toks, &ntok, err);
    if (st != NG_OK)
        return st;
    NgJitAst *ast = ng_calloc(1, sizeof *ast);
    if (!ast) {
        ng_free(toks);
        return ng_error_set(NG_ERR_NOMEM, "out of memory parsing %s", filename);
    }
    ng_jit_arena_init(&ast->arena);
    Parser parser = {0};
    parser.tok = parser.toks = toks;
    parser.ast = ast;
    parser.arena = &ast->arena;
    parser.file = filename;
    parser.err = err;
    st = run(&parser, src ? src : "", len, filename);
    if (parser.c_locale)
        freelocale(parser.c_locale);
    ng_free(toks);
    if (st != NG_OK) {
        ng_jit_ast_free(ast);
        return st;
    }
    *out = ast;
    return NG_OK;
}

void ng_jit_ast_free(NgJitAst *ast)
{
    if (!ast)
        return;
    ng_jit_arena_free(&ast->arena);
    ng_free(ast);
}

uint32_t ng_jit_ast_offset(const NgJitAst *ast, int line, int col)
{
    if (line < 1)
        return 0;
    if (line > ast->nlines)
        return (uint32_t)ast->len;
    size_t off = (size_t)ast->line_off[line] + (size_t)(col > 0 ? col : 0);
    return (uint32_t)(off < ast->len ? off : ast->len);
}
