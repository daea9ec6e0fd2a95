/* Memory and printing for the jit's AST: the arena every node of one compile
 * lives in (freed at once), operator names, and the S-expression printer
 * that the tests compare against (and that a differential test against
 * Python's ast module reproduces from Python's side).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/ast.h"

/* ---- the arena ---- */

struct NgJitArenaBlock {
    NgJitArenaBlock *next; /* older block */
    max_align_t data[];    /* the memory handed out */
};

enum {
    ARENA_BLOCK = 32 * 1024, /* bytes of an ordinary block */
    ARENA_ALIGN = 16,        /* every allocation is aligned to this */
};

void ng_jit_arena_init(NgJitArena *a) { memset(a, 0, sizeof *a); }

static NgJitArenaBlock *new_block(size_t size)
{
    NgJitArenaBlock *b = ng_malloc(sizeof *b + size);
    if (b)
        b->next = NULL;
    return b;
}

void *ng_jit_arena_alloc(NgJitArena *a, size_t n)
{
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (n == 0)
        n = ARENA_ALIGN;
    if (n > (size_t)(a->end - a->cur)) {
        if (n > ARENA_BLOCK / 4) {
            /* big: a block of its own, behind the current one so that the
             * current block's free space stays in use */
            NgJitArenaBlock *b = new_block(n);
            if (!b)
                return NULL;
            if (a->blocks) {
                b->next = a->blocks->next;
                a->blocks->next = b;
            } else {
                a->blocks = b;
            }
            a->bytes += n;
            memset(b->data, 0, n);
            return b->data;
        }
        NgJitArenaBlock *b = new_block(ARENA_BLOCK);
        if (!b)
            return NULL;
        b->next = a->blocks;
        a->blocks = b;
        a->cur = (char *)b->data;
        a->end = a->cur + ARENA_BLOCK;
    }
    void *p = a->cur;
    a->cur += n;
    a->bytes += n;
    memset(p, 0, n);
    return p;
}

void ng_jit_arena_free(NgJitArena *a)
{
    for (NgJitArenaBlock *b = a->blocks, *next; b; b = next) {
        next = b->next;
        ng_free(b);
    }
    ng_jit_arena_init(a);
}

/* ---- names ---- */

const char *ng_jit_op_name(NgJitOp op)
{
    static const char *const names[NG_JIT_NOPS] = {
        [NG_JIT_OP_NONE] = "?",       [NG_JIT_OP_ADD] = "+",      [NG_JIT_OP_SUB] = "-",
        [NG_JIT_OP_MUL] = "*",        [NG_JIT_OP_MATMUL] = "@",   [NG_JIT_OP_DIV] = "/",
        [NG_JIT_OP_FLOORDIV] = "//",  [NG_JIT_OP_MOD] = "%",      [NG_JIT_OP_POW] = "**",
        [NG_JIT_OP_LSHIFT] = "<<",    [NG_JIT_OP_RSHIFT] = ">>",  [NG_JIT_OP_BITOR] = "|",
        [NG_JIT_OP_BITXOR] = "^",     [NG_JIT_OP_BITAND] = "&",   [NG_JIT_OP_AND] = "and",
        [NG_JIT_OP_OR] = "or",        [NG_JIT_OP_NOT] = "not",    [NG_JIT_OP_NEG] = "-",
        [NG_JIT_OP_POS] = "+",        [NG_JIT_OP_INVERT] = "~",   [NG_JIT_OP_LT] = "<",
        [NG_JIT_OP_LE] = "<=",        [NG_JIT_OP_GT] = ">",       [NG_JIT_OP_GE] = ">=",
        [NG_JIT_OP_EQ] = "==",        [NG_JIT_OP_NE] = "!=",      [NG_JIT_OP_IN] = "in",
        [NG_JIT_OP_NOT_IN] = "not in", [NG_JIT_OP_IS] = "is",     [NG_JIT_OP_IS_NOT] = "is not",
    };
    return (unsigned)op < NG_JIT_NOPS ? names[op] : "?";
}

/* ---- the printer ---- */

/* A float as Python's repr() writes it: the shortest digits that read back
 * the same, fixed notation for exponents -4..15, else 1.5e+16. An imaginary
 * part gets no ".0" (repr(2j) is '2j'). */
static void print_float(NgStr *out, double v, bool imag)
{
    if (isnan(v)) {
        ng_str_cat(out, "nan");
        return;
    }
    if (isinf(v)) {
        ng_str_cat(out, v < 0 ? "-inf" : "inf");
        return;
    }
    char buf[48];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    const char *p = buf;
    if (*p == '-') {
        ng_str_cat(out, "-");
        p++;
    }
    char digits[24];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    int exp = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (exp < -4 || exp >= 16) {
        ng_str_catf(out, "%c", digits[0]);
        if (nd > 1)
            ng_str_catf(out, ".%.*s", nd - 1, digits + 1);
        ng_str_catf(out, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        return;
    }
    if (exp < 0) {
        ng_str_catf(out, "0.%.*s%.*s", -exp - 1, "0000", nd, digits);
        return;
    }
    for (int i = 0; i <= exp; i++)
        ng_str_catf(out, "%c", i < nd ? digits[i] : '0');
    if (nd > exp + 1)
        ng_str_catf(out, ".%.*s", nd - exp - 1, digits + exp + 1);
    else if (!imag)
        ng_str_cat(out, ".0");
}

/* A decoded string in double quotes: \\ \" and control bytes escaped (and,
 * for bytes, everything outside ASCII). */
static void print_quoted(NgStr *out, const char *s, size_t n, bool bytes)
{
    ng_str_cat(out, bytes ? "b\"" : "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '"')
            ng_str_catf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7F || (bytes && c >= 0x80))
            ng_str_catf(out, "\\x%02x", c);
        else
            ng_str_catf(out, "%c", c);
    }
    ng_str_cat(out, "\"");
}

static void print_expr(const NgJitAst *ast, const NgJitExpr *e, NgStr *out);

static void print_opt(const NgJitAst *ast, const NgJitExpr *e, NgStr *out)
{
    if (e)
        print_expr(ast, e, out);
    else
        ng_str_cat(out, "_");
}

static void print_items(const NgJitAst *ast, const NgJitExpr *e, NgStr *out)
{
    for (int i = 0; i < e->nitems; i++) {
        ng_str_cat(out, " ");
        print_expr(ast, e->items[i], out);
    }
}

static void print_params(const NgJitAst *ast, const NgJitParams *ps, NgStr *out)
{
    ng_str_cat(out, "(");
    bool star_done = false;
    for (int i = 0; i < ps->n; i++) {
        const NgJitParam *p = &ps->items[i];
        if (i > 0)
            ng_str_cat(out, " ");
        if (p->kind == NG_JIT_P_KWONLY && !star_done && ps->has_bare_star) {
            ng_str_cat(out, "* ");
            star_done = true;
        }
        if (p->dflt)
            ng_str_cat(out, "(= ");
        if (p->kind == NG_JIT_P_VARARGS || p->kind == NG_JIT_P_VARKW)
            ng_str_cat(out, p->kind == NG_JIT_P_VARARGS ? "(* " : "(** ");
        if (p->annotation)
            ng_str_cat(out, "(: ");
        ng_str_cat(out, p->name);
        if (p->annotation) {
            ng_str_cat(out, " ");
            print_expr(ast, p->annotation, out);
            ng_str_cat(out, ")");
        }
        if (p->kind == NG_JIT_P_VARARGS || p->kind == NG_JIT_P_VARKW)
            ng_str_cat(out, ")");
        if (p->dflt) {
            ng_str_cat(out, " ");
            print_expr(ast, p->dflt, out);
            ng_str_cat(out, ")");
        }
        if (p->kind == NG_JIT_P_POSONLY && (i + 1 == ps->n || ps->items[i + 1].kind != NG_JIT_P_POSONLY))
            ng_str_cat(out, " /");
    }
    ng_str_cat(out, ")");
}

static void print_comps(const NgJitAst *ast, const NgJitExpr *e, NgStr *out)
{
    for (int i = 0; i < e->ngens; i++) {
        const NgJitComp *c = &e->gens[i];
        ng_str_cat(out, c->is_async ? " (async-for " : " (for ");
        print_expr(ast, c->target, out);
        ng_str_cat(out, " ");
        print_expr(ast, c->iter, out);
        for (int k = 0; k < c->nifs; k++) {
            ng_str_cat(out, " (if ");
            print_expr(ast, c->ifs[k], out);
            ng_str_cat(out, ")");
        }
        ng_str_cat(out, ")");
    }
}

static void print_source(const NgJitAst *ast, NgJitSpan s, NgStr *out)
{
    ng_str_catf(out, "%.*s", (int)(s.end_off - s.off), ast->src + s.off);
}

static void print_expr(const NgJitAst *ast, const NgJitExpr *e, NgStr *out)
{
    static const char *const comp_names[] = {
        [NG_JIT_E_LISTCOMP] = "listcomp", [NG_JIT_E_SETCOMP] = "setcomp",
        [NG_JIT_E_DICTCOMP] = "dictcomp", [NG_JIT_E_GENEXP] = "genexp",
    };
    switch (e->kind) {
    case NG_JIT_E_NAME:
        ng_str_cat(out, e->name);
        return;
    case NG_JIT_E_INT:
        if (e->big)
            print_source(ast, e->span, out);
        else
            ng_str_catf(out, "%llu", (unsigned long long)e->ival);
        return;
    case NG_JIT_E_FLOAT:
        print_float(out, e->fval, false);
        return;
    case NG_JIT_E_IMAG:
        print_float(out, e->fval, true);
        ng_str_cat(out, "j");
        return;
    case NG_JIT_E_STR:
        if (e->str)
            print_quoted(out, e->str, e->str_len, e->str_flags & NG_JIT_STR_BYTES);
        else
            print_source(ast, e->span, out);
        return;
    case NG_JIT_E_CONST:
        ng_str_cat(out, e->cval == NG_JIT_C_TRUE    ? "True"
                        : e->cval == NG_JIT_C_FALSE ? "False"
                        : e->cval == NG_JIT_C_NONE  ? "None"
                                                    : "...");
        return;
    case NG_JIT_E_TUPLE:
    case NG_JIT_E_LIST:
    case NG_JIT_E_SET:
        ng_str_cat(out, e->kind == NG_JIT_E_TUPLE ? "(tuple" : e->kind == NG_JIT_E_LIST ? "(list" : "(set");
        print_items(ast, e, out);
        break;
    case NG_JIT_E_DICT:
        ng_str_cat(out, "(dict");
        for (int i = 0; i < e->nitems; i++) {
            ng_str_cat(out, e->keys[i] ? " (" : " (** ");
            if (e->keys[i]) {
                print_expr(ast, e->keys[i], out);
                ng_str_cat(out, " ");
            }
            print_expr(ast, e->items[i], out);
            ng_str_cat(out, ")");
        }
        break;
    case NG_JIT_E_LISTCOMP:
    case NG_JIT_E_SETCOMP:
    case NG_JIT_E_DICTCOMP:
    case NG_JIT_E_GENEXP:
        ng_str_catf(out, "(%s ", comp_names[e->kind]);
        print_expr(ast, e->lhs, out);
        if (e->rhs) {
            ng_str_cat(out, " ");
            print_expr(ast, e->rhs, out);
        }
        print_comps(ast, e, out);
        break;
    case NG_JIT_E_UNARY:
    case NG_JIT_E_BINARY:
    case NG_JIT_E_BOOLOP:
        ng_str_catf(out, "(%s ", ng_jit_op_name(e->op));
        print_expr(ast, e->lhs, out);
        if (e->rhs) {
            ng_str_cat(out, " ");
            print_expr(ast, e->rhs, out);
        }
        break;
    case NG_JIT_E_COMPARE:
        ng_str_cat(out, "(cmp ");
        print_expr(ast, e->items[0], out);
        for (int i = 1; i < e->nitems; i++) {
            ng_str_catf(out, " %s ", ng_jit_op_name(e->ops[i - 1]));
            print_expr(ast, e->items[i], out);
        }
        break;
    case NG_JIT_E_IFEXP:
        ng_str_cat(out, "(ifexp ");
        print_expr(ast, e->cond, out);
        ng_str_cat(out, " ");
        print_expr(ast, e->lhs, out);
        ng_str_cat(out, " ");
        print_expr(ast, e->rhs, out);
        break;
    case NG_JIT_E_CALL:
        ng_str_cat(out, "(call ");
        print_expr(ast, e->lhs, out);
        print_items(ast, e, out);
        for (int i = 0; i < e->nkeywords; i++) {
            if (e->keywords[i].name)
                ng_str_catf(out, " (= %s ", e->keywords[i].name);
            else
                ng_str_cat(out, " (** ");
            print_expr(ast, e->keywords[i].value, out);
            ng_str_cat(out, ")");
        }
        break;
    case NG_JIT_E_ATTR:
        ng_str_cat(out, "(. ");
        print_expr(ast, e->lhs, out);
        ng_str_catf(out, " %s", e->name);
        break;
    case NG_JIT_E_SUBSCRIPT:
        ng_str_cat(out, "([] ");
        print_expr(ast, e->lhs, out);
        ng_str_cat(out, " ");
        print_expr(ast, e->rhs, out);
        break;
    case NG_JIT_E_SLICE:
        ng_str_cat(out, "(: ");
        print_opt(ast, e->lhs, out);
        ng_str_cat(out, " ");
        print_opt(ast, e->rhs, out);
        ng_str_cat(out, " ");
        print_opt(ast, e->cond, out);
        break;
    case NG_JIT_E_STARRED:
        ng_str_cat(out, "(* ");
        print_expr(ast, e->lhs, out);
        break;
    case NG_JIT_E_NAMED:
        ng_str_cat(out, "(:= ");
        print_expr(ast, e->lhs, out);
        ng_str_cat(out, " ");
        print_expr(ast, e->rhs, out);
        break;
    case NG_JIT_E_LAMBDA:
        ng_str_cat(out, "(lambda ");
        print_params(ast, e->params, out);
        ng_str_cat(out, " ");
        print_expr(ast, e->lhs, out);
        break;
    case NG_JIT_E_AWAIT:
    case NG_JIT_E_YIELD:
    case NG_JIT_E_YIELD_FROM:
        ng_str_cat(out, e->kind == NG_JIT_E_AWAIT   ? "(await"
                        : e->kind == NG_JIT_E_YIELD ? "(yield"
                                                    : "(yield-from");
        if (e->lhs) {
            ng_str_cat(out, " ");
            print_expr(ast, e->lhs, out);
        }
        break;
    default:
        ng_str_cat(out, "(?");
        break;
    }
    ng_str_cat(out, ")");
}

void ng_jit_expr_print(const NgJitAst *ast, const NgJitExpr *e, NgStr *out) { print_expr(ast, e, out); }

static void print_stmt(const NgJitAst *ast, const NgJitStmt *s, int indent, int flags, NgStr *out);

static void print_block(const NgJitAst *ast, NgJitBlock b, int indent, int flags, NgStr *out)
{
    for (int i = 0; i < b.n; i++) {
        ng_str_cat(out, "\n");
        print_stmt(ast, b.stmts[i], indent, flags, out);
    }
}

static void print_stmt(const NgJitAst *ast, const NgJitStmt *s, int indent, int flags, NgStr *out)
{
    static const char *const heads[NG_JIT_S_NKINDS] = {
        [NG_JIT_S_EXPR] = "expr",   [NG_JIT_S_ASSIGN] = "=",         [NG_JIT_S_AUGASSIGN] = "",
        [NG_JIT_S_ANNASSIGN] = "ann", [NG_JIT_S_FOR] = "for",        [NG_JIT_S_WHILE] = "while",
        [NG_JIT_S_IF] = "if",       [NG_JIT_S_BREAK] = "break",      [NG_JIT_S_CONTINUE] = "continue",
        [NG_JIT_S_PASS] = "pass",   [NG_JIT_S_RETURN] = "return",    [NG_JIT_S_DEF] = "def",
        [NG_JIT_S_OTHER] = "python", [NG_JIT_S_RAISE] = "raise",
    };
    ng_str_catf(out, "%*s(", indent, "");
    if (s->kind == NG_JIT_S_AUGASSIGN)
        ng_str_catf(out, "%s=", ng_jit_op_name(s->op));
    else
        ng_str_cat(out, heads[s->kind]);
    if (flags & NG_JIT_PRINT_LINES)
        ng_str_catf(out, "@%d-%d", s->span.line, s->span.end_line);
    switch (s->kind) {
    case NG_JIT_S_EXPR:
    case NG_JIT_S_RETURN:
        if (s->value) {
            ng_str_cat(out, " ");
            print_expr(ast, s->value, out);
        }
        break;
    case NG_JIT_S_ASSIGN:
        for (int i = 0; i < s->ntargets; i++) {
            ng_str_cat(out, " ");
            print_expr(ast, s->targets[i], out);
        }
        ng_str_cat(out, " ");
        print_expr(ast, s->value, out);
        break;
    case NG_JIT_S_AUGASSIGN:
    case NG_JIT_S_ANNASSIGN:
        ng_str_cat(out, " ");
        print_expr(ast, s->target, out);
        if (s->annotation) {
            ng_str_cat(out, " ");
            print_expr(ast, s->annotation, out);
        }
        if (s->value) {
            ng_str_cat(out, " ");
            print_expr(ast, s->value, out);
        }
        break;
    case NG_JIT_S_FOR:
    case NG_JIT_S_WHILE:
    case NG_JIT_S_IF:
        if (s->target) {
            ng_str_cat(out, " ");
            print_expr(ast, s->target, out);
        }
        ng_str_cat(out, " ");
        print_expr(ast, s->test, out);
        print_block(ast, s->body, indent + 2, flags, out);
        if (s->orelse.n) {
            ng_str_catf(out, "\n%*s(else", indent + 2, "");
            print_block(ast, s->orelse, indent + 4, flags, out);
            ng_str_cat(out, ")");
        }
        break;
    case NG_JIT_S_DEF:
        ng_str_catf(out, " %s ", s->name);
        print_params(ast, s->params, out);
        if (s->annotation) {
            ng_str_cat(out, " (-> ");
            print_expr(ast, s->annotation, out);
            ng_str_cat(out, ")");
        }
        for (int i = 0; i < s->ndecorators; i++) {
            ng_str_cat(out, " (@ ");
            print_expr(ast, s->decorators[i], out);
            ng_str_cat(out, ")");
        }
        print_block(ast, s->body, indent + 2, flags, out);
        break;
    case NG_JIT_S_OTHER:
        ng_str_catf(out, " %s", s->what);
        break;
    case NG_JIT_S_RAISE:
        ng_str_catf(out, " %s", s->name);
        if (s->test) {
            ng_str_cat(out, " unless ");
            print_expr(ast, s->test, out);
        }
        if (s->value) {
            ng_str_cat(out, " ");
            print_expr(ast, s->value, out);
        }
        break;
    default:
        break;
    }
    ng_str_cat(out, ")");
}

static const NgJitStmt *find_raise(NgJitBlock b, int id)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i], *r;
        if (s->kind == NG_JIT_S_RAISE && s->raise_id == id)
            return s;
        if ((r = find_raise(s->body, id)) || (r = find_raise(s->orelse, id)))
            return r;
    }
    return NULL;
}

const NgJitStmt *ng_jit_find_raise(const NgJitAst *ast, int id) { return find_raise(ast->body, id); }

static void drop_asserts(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_RAISE && s->test)
            s->kind = NG_JIT_S_PASS;
        drop_asserts(s->body);
        drop_asserts(s->orelse);
    }
}

void ng_jit_drop_asserts(NgJitAst *ast) { drop_asserts(ast->body); }

void ng_jit_stmt_print(const NgJitAst *ast, const NgJitStmt *s, NgStr *out) { print_stmt(ast, s, 0, 0, out); }

void ng_jit_ast_print(const NgJitAst *ast, NgStr *out, int flags)
{
    for (int i = 0; i < ast->body.n; i++) {
        print_stmt(ast, ast->body.stmts[i], 0, flags, out);
        ng_str_cat(out, "\n");
    }
}

/* True when a and b are the same expression, written alike up to spacing. */
bool ng_jit_expr_equal(const NgJitExpr *a, const NgJitExpr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->nitems != b->nitems)
        return false;
    switch (a->kind) {
    case NG_JIT_E_NAME:
        return a->name_id == b->name_id;
    case NG_JIT_E_INT:
        return !a->big && !b->big && a->ival == b->ival;
    case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG:
        return a->fval == b->fval;
    case NG_JIT_E_CONST:
        return a->cval == b->cval;
    case NG_JIT_E_ATTR:
        return a->name_id == b->name_id && ng_jit_expr_equal(a->lhs, b->lhs);
    case NG_JIT_E_UNARY: case NG_JIT_E_BINARY: case NG_JIT_E_BOOLOP:
        if (a->op != b->op)
            return false;
        break;
    case NG_JIT_E_COMPARE:
        for (int i = 0; i + 1 < a->nitems; i++)
            if (a->ops[i] != b->ops[i])
                return false;
        break;
    case NG_JIT_E_CALL:
        if (a->nkeywords || b->nkeywords)
            return false;
        break;
    case NG_JIT_E_TUPLE: case NG_JIT_E_SUBSCRIPT: case NG_JIT_E_SLICE: case NG_JIT_E_IFEXP:
        break;
    default:
        return false;
    }
    if (!ng_jit_expr_equal(a->lhs, b->lhs) || !ng_jit_expr_equal(a->rhs, b->rhs) || !ng_jit_expr_equal(a->cond, b->cond))
        return false;
    for (int i = 0; i < a->nitems; i++)
        if (!ng_jit_expr_equal(a->items[i], b->items[i]))
            return false;
    return true;
}

int ng_jit_index_count(const NgJitExpr *ix)
{
    int n = ix->kind == NG_JIT_E_TUPLE ? ix->nitems : 1;
    while (n > 1) {
        const NgJitExpr *sl = ix->items[n - 1];
        if (sl->kind != NG_JIT_E_SLICE || sl->lhs || sl->rhs || sl->cond)
            break;
        n--;
    }
    return n;
}

bool ng_jit_block_returns(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_RETURN ||
            (s->kind != NG_JIT_S_DEF && (ng_jit_block_returns(s->body) || ng_jit_block_returns(s->orelse))))
            return true;
    }
    return false;
}
