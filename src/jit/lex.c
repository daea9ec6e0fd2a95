/* The jit's tokenizer: Python 3.12 source text -> an array of tokens.
 *
 * It follows CPython's Parser/tokenizer.c: INDENT/DEDENT from a stack of
 * indentation columns (tabs to multiples of 8, checked against tabs counted
 * as 1 for TabError), NEWLINE only at the end of a non-blank logical line,
 * newlines inside brackets and after a backslash joined, numbers and strings
 * checked as CPython checks them, and the same error messages. An f-string
 * is one STRING token; its replacement fields are scanned (nested strings,
 * brackets, format specs) only to find where it ends, as PEP 701 allows
 * quotes of the enclosing kind inside them.
 *
 * Identifiers may use any letter outside ASCII; without Unicode tables the
 * test is "not a known symbol or punctuation block", so a few characters
 * Python rejects are accepted here (the source was compiled by Python before
 * it gets here) and names are not NFKC-normalised.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "jit/jit.h"

typedef struct Bracket {
    char c;        /* '(', '[' or '{' */
    int line, col; /* where it was opened */
} Bracket;

typedef struct Lexer {
    const char *src;      /* the text */
    size_t len;           /* its bytes */
    size_t pos;           /* next byte to read */
    const char *file;     /* for messages */
    int line;             /* line of src[pos] */
    size_t line_start;    /* offset of that line's first byte */
    bool line_has_tokens; /* the logical line so far made a token */
    NgJitToken *toks;     /* tokens so far (ng_realloc'd) */
    int ntoks, cap;
    int indent[NG_JIT_MAX_INDENT];    /* indentation columns, tabs to multiples of 8 */
    int altindent[NG_JIT_MAX_INDENT]; /* the same with a tab counted as one column */
    int nindent;          /* levels above column 0 */
    Bracket brackets[NG_JIT_MAX_BRACKETS]; /* open brackets, innermost last */
    int nbrackets;
    int fdepth;           /* f-strings being scanned inside f-string fields */
    NgJitError *err;      /* caller's error record, may be NULL */
    jmp_buf fail;         /* error exit (see run) */
    NgStatus status;      /* what the error exit returns */
} Lexer;

/* ---- errors ---- */

NgStatus ng_jit_syntax_error(NgJitError *err, const char *file, const char *kind, int line,
                             int col, const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err) {
        err->kind = kind;
        err->line = line;
        err->col = col;
        memcpy(err->msg, msg, sizeof msg);
    }
    return ng_error_set(NG_JIT_ERR_SYNTAX, "%s:%d:%d: %s: %s", file ? file : "<string>", line,
                        col + 1, kind, msg);
}

__attribute__((format(printf, 5, 6))) static _Noreturn void
error_at(Lexer *L, const char *kind, int line, int col, const char *fmt, ...)
{
    char msg[sizeof L->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    L->status = ng_jit_syntax_error(L->err, L->file, kind, line, col, "%s", msg);
    longjmp(L->fail, 1);
}

static int column(const Lexer *L, size_t pos) { return (int)(pos - L->line_start); }

/* ---- characters ---- */

static int peekc(const Lexer *L, size_t ahead)
{
    size_t p = L->pos + ahead;
    return p < L->len ? (unsigned char)L->src[p] : -1;
}

/* Bytes of the line break at p: 1 for \n or a lone \r, 2 for \r\n, else 0. */
static int newline_at(const Lexer *L, size_t p)
{
    if (p >= L->len)
        return 0;
    if (L->src[p] == '\n')
        return 1;
    if (L->src[p] == '\r')
        return p + 1 < L->len && L->src[p + 1] == '\n' ? 2 : 1;
    return 0;
}

/* Consumes the line break at pos (n bytes) and starts the next line. */
static void next_line(Lexer *L, int n)
{
    L->pos += (size_t)n;
    L->line++;
    L->line_start = L->pos;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ascii_id_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ascii_id(int c) { return is_ascii_id_start(c) || is_digit(c); }

/* Code point of the (valid) UTF-8 sequence at p; *n gets its length. */
static unsigned decode_utf8(const char *s, size_t p, int *n)
{
    const unsigned char *u = (const unsigned char *)s + p;
    if (u[0] < 0x80) {
        *n = 1;
        return u[0];
    }
    if (u[0] < 0xE0) {
        *n = 2;
        return (unsigned)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
    }
    if (u[0] < 0xF0) {
        *n = 3;
        return (unsigned)(u[0] & 0x0F) << 12 | (unsigned)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
    }
    *n = 4;
    return (unsigned)(u[0] & 0x07) << 18 | (unsigned)(u[1] & 0x3F) << 12 |
           (unsigned)(u[2] & 0x3F) << 6 | (u[3] & 0x3F);
}

/* Characters Python would not print (str.isprintable() is false). */
static bool is_printable(unsigned cp)
{
    return !(cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD || cp == 0x1680 ||
             (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
             (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF ||
             (cp >= 0xE000 && cp <= 0xF8FF) || (cp >= 0xFFF0 && cp <= 0xFFFB) || cp >= 0xF0000);
}

/* A character outside ASCII that may be part of an identifier: everything
 * except the symbol and punctuation blocks below (an approximation of
 * XID_Continue; see the file comment). */
static bool is_id_char(unsigned cp)
{
    if (!is_printable(cp))
        return false;
    if (cp >= 0xA1 && cp <= 0xBF)
        return cp == 0xAA || cp == 0xB5 || cp == 0xB7 || cp == 0xBA;
    if (cp == 0xD7 || cp == 0xF7)
        return false;
    if (cp >= 0x2010 && cp <= 0x205E) /* general punctuation */
        return cp == 0x203F || cp == 0x2040 || cp == 0x2054;
    if (cp >= 0x2070 && cp <= 0x209F) /* superscripts and subscripts: only the letters */
        return cp == 0x2071 || cp == 0x207F || (cp >= 0x2090 && cp <= 0x209C);
    if (cp >= 0x20A0 && cp <= 0x20CF) /* currency */
        return false;
    if ((cp >= 0x2190 && cp <= 0x2BFF) || (cp >= 0x2E00 && cp <= 0x2E7F))
        return false; /* arrows, maths, technical, boxes, shapes, dingbats, punctuation */
    if ((cp >= 0x3001 && cp <= 0x3004) || (cp >= 0x3008 && cp <= 0x3020) || cp == 0x3030 ||
        (cp >= 0x303D && cp <= 0x303F))
        return false; /* CJK punctuation */
    if ((cp >= 0xFE10 && cp <= 0xFE1F) || (cp >= 0xFE30 && cp <= 0xFE6F))
        return cp == 0xFE33 || cp == 0xFE34 || (cp >= 0xFE4D && cp <= 0xFE4F);
    if ((cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
        (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65))
        return cp == 0xFF3F;
    if (cp >= 0x1F000 && cp <= 0x1FAFF) /* emoji, cards, tiles */
        return false;
    return true;
}

/* Rejects text that is not UTF-8 or holds a NUL byte, as Python does before
 * it tokenizes. */
static void check_encoding(Lexer *L)
{
    const unsigned char *s = (const unsigned char *)L->src;
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < L->len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c == 0)
                error_at(L, "SyntaxError", line, (int)(i - line_start),
                         "source code cannot contain null bytes");
            if (c == '\n' || (c == '\r' && (i + 1 >= L->len || s[i + 1] != '\n'))) {
                line++;
                line_start = i + 1;
            }
            i++;
            continue;
        }
        int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        const char *why = "invalid start byte";
        if (n) {
            why = NULL;
            for (int k = 1; k < n && !why; k++) {
                if (i + (size_t)k >= L->len) {
                    why = "unexpected end of data";
                    break;
                }
                unsigned d = s[i + (size_t)k];
                bool ok = (d & 0xC0) == 0x80;
                if (k == 1 && c == 0xE0)
                    ok = d >= 0xA0 && d <= 0xBF; /* overlong */
                if (k == 1 && c == 0xED)
                    ok = d >= 0x80 && d <= 0x9F; /* surrogates */
                if (k == 1 && c == 0xF0)
                    ok = d >= 0x90 && d <= 0xBF; /* overlong */
                if (k == 1 && c == 0xF4)
                    ok = d >= 0x80 && d <= 0x8F; /* past U+10FFFF */
                if (!ok)
                    why = "invalid continuation byte";
            }
        }
        if (why)
            error_at(L, "SyntaxError", line, (int)(i - line_start),
                     "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %zu: %s",
                     c, i, why);
        i += (size_t)n;
    }
}

/* ---- tokens ---- */

/* Appends a token that starts at byte `off`, (line, col) and ends at pos. */
static NgJitToken *push(Lexer *L, int kind, size_t off, int line, int col)
{
    if (L->ntoks == L->cap) {
        /* start at about one token per 4 bytes of text, up to 64K tokens */
        int cap = L->cap ? L->cap * 2 : (int)(L->len < (1u << 18) ? L->len / 4 : 1u << 16) + 64;
        NgJitToken *t = L->cap > INT32_MAX / 2 ? NULL : ng_realloc(L->toks, (size_t)cap * sizeof *t);
        if (!t) {
            L->status = ng_error_set(NG_ERR_NOMEM, "out of memory tokenizing %s",
                                     L->file ? L->file : "<string>");
            longjmp(L->fail, 1);
        }
        L->toks = t;
        L->cap = cap;
    }
    NgJitToken *t = &L->toks[L->ntoks++];
    t->kind = kind;
    t->line = line;
    t->col = col;
    t->end_line = L->line;
    t->end_col = column(L, L->pos);
    t->off = (uint32_t)off;
    t->len = (uint32_t)(L->pos - off);
    if (kind != NG_JIT_TK_NEWLINE && kind != NG_JIT_TK_INDENT && kind != NG_JIT_TK_DEDENT)
        L->line_has_tokens = true;
    return t;
}

static const struct {
    const char *text;
    int kind;
} keywords[] = {
    {"False", NG_JIT_TK_FALSE},     {"None", NG_JIT_TK_NONE},       {"True", NG_JIT_TK_TRUE},
    {"and", NG_JIT_TK_AND},         {"as", NG_JIT_TK_AS},           {"assert", NG_JIT_TK_ASSERT},
    {"async", NG_JIT_TK_ASYNC},     {"await", NG_JIT_TK_AWAIT},     {"break", NG_JIT_TK_BREAK},
    {"class", NG_JIT_TK_CLASS},     {"continue", NG_JIT_TK_CONTINUE}, {"def", NG_JIT_TK_DEF},
    {"del", NG_JIT_TK_DEL},         {"elif", NG_JIT_TK_ELIF},       {"else", NG_JIT_TK_ELSE},
    {"except", NG_JIT_TK_EXCEPT},   {"finally", NG_JIT_TK_FINALLY}, {"for", NG_JIT_TK_FOR},
    {"from", NG_JIT_TK_FROM},       {"global", NG_JIT_TK_GLOBAL},   {"if", NG_JIT_TK_IF},
    {"import", NG_JIT_TK_IMPORT},   {"in", NG_JIT_TK_IN},           {"is", NG_JIT_TK_IS},
    {"lambda", NG_JIT_TK_LAMBDA},   {"nonlocal", NG_JIT_TK_NONLOCAL}, {"not", NG_JIT_TK_NOT},
    {"or", NG_JIT_TK_OR},           {"pass", NG_JIT_TK_PASS},       {"raise", NG_JIT_TK_RAISE},
    {"return", NG_JIT_TK_RETURN},   {"try", NG_JIT_TK_TRY},         {"while", NG_JIT_TK_WHILE},
    {"with", NG_JIT_TK_WITH},       {"yield", NG_JIT_TK_YIELD},
};

int ng_jit_keyword(const char *s, size_t n)
{
    if (n < 2 || n > 8)
        return NG_JIT_TK_NAME;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (keywords[i].text[0] == s[0] && strlen(keywords[i].text) == n &&
            memcmp(keywords[i].text, s, n) == 0)
            return keywords[i].kind;
    return NG_JIT_TK_NAME;
}

const char *ng_jit_tok_kind_name(int kind)
{
    static const char *const special[] = {
        [NG_JIT_TK_NAME - 256] = "NAME",       [NG_JIT_TK_NUMBER - 256] = "NUMBER",
        [NG_JIT_TK_STRING - 256] = "STRING",   [NG_JIT_TK_NEWLINE - 256] = "NEWLINE",
        [NG_JIT_TK_INDENT - 256] = "INDENT",   [NG_JIT_TK_DEDENT - 256] = "DEDENT",
        [NG_JIT_TK_POW - 256] = "**",          [NG_JIT_TK_FLOORDIV - 256] = "//",
        [NG_JIT_TK_LSHIFT - 256] = "<<",       [NG_JIT_TK_RSHIFT - 256] = ">>",
        [NG_JIT_TK_LE - 256] = "<=",           [NG_JIT_TK_GE - 256] = ">=",
        [NG_JIT_TK_EQ - 256] = "==",           [NG_JIT_TK_NE - 256] = "!=",
        [NG_JIT_TK_ARROW - 256] = "->",        [NG_JIT_TK_WALRUS - 256] = ":=",
        [NG_JIT_TK_ELLIPSIS - 256] = "...",    [NG_JIT_TK_ADD_ASSIGN - 256] = "+=",
        [NG_JIT_TK_SUB_ASSIGN - 256] = "-=",   [NG_JIT_TK_MUL_ASSIGN - 256] = "*=",
        [NG_JIT_TK_DIV_ASSIGN - 256] = "/=",   [NG_JIT_TK_MOD_ASSIGN - 256] = "%=",
        [NG_JIT_TK_AND_ASSIGN - 256] = "&=",   [NG_JIT_TK_OR_ASSIGN - 256] = "|=",
        [NG_JIT_TK_XOR_ASSIGN - 256] = "^=",   [NG_JIT_TK_MATMUL_ASSIGN - 256] = "@=",
        [NG_JIT_TK_LSHIFT_ASSIGN - 256] = "<<=", [NG_JIT_TK_RSHIFT_ASSIGN - 256] = ">>=",
        [NG_JIT_TK_POW_ASSIGN - 256] = "**=",  [NG_JIT_TK_FLOORDIV_ASSIGN - 256] = "//=",
    };
    static const char *const single[128] = {
        ['('] = "(", [')'] = ")", ['['] = "[", [']'] = "]", ['{'] = "{", ['}'] = "}",
        [':'] = ":", [','] = ",", [';'] = ";", ['+'] = "+", ['-'] = "-", ['*'] = "*",
        ['/'] = "/", ['|'] = "|", ['&'] = "&", ['<'] = "<", ['>'] = ">", ['='] = "=",
        ['.'] = ".", ['%'] = "%", ['~'] = "~", ['^'] = "^", ['@'] = "@",
    };
    if (kind == NG_JIT_TK_EOF)
        return "ENDMARKER";
    if (kind > 0 && kind < 128 && single[kind])
        return single[kind];
    if (kind >= NG_JIT_TK_FALSE && kind < NG_JIT_TK_NKINDS)
        return keywords[kind - NG_JIT_TK_FALSE].text;
    if (kind >= 256 && kind < NG_JIT_TK_FALSE && special[kind - 256])
        return special[kind - 256];
    return "?";
}

/* ---- indentation ---- */

static _Noreturn void tab_error(Lexer *L)
{
    error_at(L, "TabError", L->line, 0, "inconsistent use of tabs and spaces in indentation");
}

/* At the start of a physical line outside brackets: measures the indentation
 * and, unless the line is blank or a comment, emits INDENT or DEDENTs. */
static void indentation(Lexer *L)
{
    int col = 0, alt = 0;
    for (;; L->pos++) {
        int c = peekc(L, 0);
        if (c == ' ') {
            col++;
            alt++;
        } else if (c == '\t') {
            col = (col / 8 + 1) * 8;
            alt++;
        } else if (c == '\f') {
            col = alt = 0;
        } else {
            break;
        }
    }
    int c = peekc(L, 0);
    if (c == '#' || c == '\n' || c == '\r' || c < 0)
        return; /* blank line: no indentation change */
    int top = L->nindent;
    if (col == L->indent[top]) {
        if (alt != L->altindent[top])
            tab_error(L);
    } else if (col > L->indent[top]) {
        if (top + 1 >= NG_JIT_MAX_INDENT)
            error_at(L, "IndentationError", L->line, 0, "too many levels of indentation");
        if (alt <= L->altindent[top])
            tab_error(L);
        L->nindent++;
        L->indent[L->nindent] = col;
        L->altindent[L->nindent] = alt;
        push(L, NG_JIT_TK_INDENT, L->line_start, L->line, 0);
    } else {
        int ndedent = 0;
        while (L->nindent > 0 && col < L->indent[L->nindent]) {
            L->nindent--;
            ndedent++;
        }
        if (col != L->indent[L->nindent])
            error_at(L, "IndentationError", L->line, column(L, L->pos),
                     "unindent does not match any outer indentation level");
        if (alt != L->altindent[L->nindent])
            tab_error(L);
        while (ndedent--)
            push(L, NG_JIT_TK_DEDENT, L->pos, L->line, column(L, L->pos));
    }
}

/* ---- numbers ---- */

/* After a number: a letter may not follow, except the start of the keywords
 * CPython lets through ("1if x else y"). */
static void end_of_number(Lexer *L, int col, const char *what)
{
    int c = peekc(L, 0);
    if (!(is_ascii_id_start(c) || c >= 0x80))
        return;
    const char *rest = L->src + L->pos;
    size_t left = L->len - L->pos;
    static const char *const ok[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t n = strlen(ok[i]);
        if (left >= n && memcmp(rest, ok[i], n) == 0)
            return;
    }
    error_at(L, "SyntaxError", L->line, col, "invalid %s literal", what);
}

/* digitpart: digit (["_"] digit)* -- pos is at a digit. */
static void digits(Lexer *L)
{
    for (;;) {
        while (is_digit(peekc(L, 0)))
            L->pos++;
        if (peekc(L, 0) != '_')
            return;
        L->pos++;
        if (!is_digit(peekc(L, 0)))
            error_at(L, "SyntaxError", L->line, column(L, L->pos - 1), "invalid decimal literal");
    }
}

static bool radix_digit(int c, int radix)
{
    if (radix == 16)
        return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return c >= '0' && c < '0' + radix;
}

/* number: hexinteger | octinteger | bininteger | decinteger | floatnumber | imagnumber */
static void number(Lexer *L)
{
    size_t start = L->pos;
    int col = column(L, start);
    int c1 = peekc(L, 1) | 0x20;
    if (peekc(L, 0) == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
        int radix = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
        const char *what = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary";
        L->pos += 2;
        for (;;) {
            if (peekc(L, 0) == '_')
                L->pos++;
            int c = peekc(L, 0);
            if (!radix_digit(c, radix)) {
                if (is_digit(c))
                    error_at(L, "SyntaxError", L->line, column(L, L->pos),
                             "invalid digit '%c' in %s literal", c, what);
                error_at(L, "SyntaxError", L->line, column(L, L->pos), "invalid %s literal", what);
            }
            while (radix_digit(peekc(L, 0), radix))
                L->pos++;
            if (peekc(L, 0) != '_')
                break;
        }
        if (is_digit(peekc(L, 0)))
            error_at(L, "SyntaxError", L->line, column(L, L->pos),
                     "invalid digit '%c' in %s literal", peekc(L, 0), what);
        end_of_number(L, col, what);
        push(L, NG_JIT_TK_NUMBER, start, L->line, col);
        return;
    }

    bool is_float = false, leading_zero = false;
    if (peekc(L, 0) != '.') {
        digits(L);
        if (L->src[start] == '0')
            for (size_t p = start; p < L->pos; p++)
                if (L->src[p] != '0' && L->src[p] != '_')
                    leading_zero = true;
    }
    if (peekc(L, 0) == '.') {
        is_float = true;
        L->pos++;
        if (is_digit(peekc(L, 0)))
            digits(L);
    }
    if ((peekc(L, 0) | 0x20) == 'e') {
        int k = peekc(L, 1) == '+' || peekc(L, 1) == '-' ? 2 : 1;
        if (!is_digit(peekc(L, (size_t)k)))
            error_at(L, "SyntaxError", L->line, col, "invalid decimal literal");
        L->pos += (size_t)k;
        digits(L);
        is_float = true;
    }
    if ((peekc(L, 0) | 0x20) == 'j') {
        L->pos++;
        end_of_number(L, col, "imaginary");
    } else {
        if (leading_zero && !is_float)
            error_at(L, "SyntaxError", L->line, col,
                     "leading zeros in decimal integer literals are not permitted; "
                     "use an 0o prefix for octal integers");
        end_of_number(L, col, "decimal");
    }
    push(L, NG_JIT_TK_NUMBER, start, L->line, col);
}

/* ---- strings ---- */

enum {
    STR_RAW = 1,   /* r prefix */
    STR_BYTES = 2, /* b prefix */
    STR_F = 4,     /* f prefix */
};

/* Flags of a string prefix (r u b f br rb fr rf, any case), or -1. */
static int string_prefix(const char *s, size_t n)
{
    if (n > 2)
        return -1;
    int flags = 0;
    for (size_t i = 0; i < n; i++) {
        int c = s[i] | 0x20, f = c == 'r' ? STR_RAW : c == 'b' ? STR_BYTES : c == 'f' ? STR_F : c == 'u' ? 8 : 0;
        if (!f || (flags & f))
            return -1;
        flags |= f;
    }
    if ((flags & 8 && n > 1) || (flags & STR_BYTES && flags & STR_F))
        return -1;
    return flags & ~8;
}

typedef struct StrStart {
    int line, col; /* where the outermost string began (for messages) */
    bool fstring;  /* it is an f-string */
} StrStart;

static _Noreturn void unterminated(Lexer *L, const StrStart *s, bool triple)
{
    int line = L->line;
    if (triple && L->pos >= L->len && L->pos == L->line_start && line > 1)
        line--; /* CPython counts the last line, not the empty one after it */
    error_at(L, "SyntaxError", s->line, s->col, "unterminated %s%sstring literal (detected at line %d)",
             triple ? "triple-quoted " : "", s->fstring ? "f-" : "", line);
}

static void string_body(Lexer *L, int flags, const StrStart *s);

/* Scans a string literal that a field of an f-string holds: pos is at the
 * prefix or the opening quote. */
static void nested_string(Lexer *L, size_t prefix_len, const StrStart *s)
{
    int flags = string_prefix(L->src + L->pos, prefix_len);
    L->pos += prefix_len;
    if (++L->fdepth > NG_JIT_MAX_FSTRING)
        error_at(L, "SyntaxError", L->line, column(L, L->pos), "too many nested f-strings");
    string_body(L, flags, s);
    L->fdepth--;
}

static void format_spec(Lexer *L, int quote, bool triple, const StrStart *s);

/* A replacement field of an f-string: pos is at its '{'. Scans up to and past
 * the matching '}', skipping nested strings and brackets. */
static void fstring_field(Lexer *L, int quote, bool triple, const StrStart *s)
{
    if (++L->fdepth > NG_JIT_MAX_FSTRING)
        error_at(L, "SyntaxError", L->line, column(L, L->pos), "too many nested f-strings");
    L->pos++;
    int depth = 0;
    for (;;) {
        int c = peekc(L, 0);
        if (c < 0)
            unterminated(L, s, triple);
        int nl = newline_at(L, L->pos);
        if (nl) {
            next_line(L, nl);
        } else if (c == '#') {
            while (peekc(L, 0) >= 0 && !newline_at(L, L->pos))
                L->pos++;
        } else if (c == '\'' || c == '"') {
            nested_string(L, 0, s);
        } else if (is_ascii_id_start(c)) {
            size_t p = L->pos;
            while (p < L->len && is_ascii_id((unsigned char)L->src[p]))
                p++;
            if (p < L->len && (L->src[p] == '\'' || L->src[p] == '"') &&
                string_prefix(L->src + L->pos, p - L->pos) >= 0)
                nested_string(L, p - L->pos, s);
            else
                L->pos = p;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
            L->pos++;
        } else if (c == ')' || c == ']') {
            depth -= depth > 0;
            L->pos++;
        } else if (c == '}') {
            L->pos++;
            if (depth-- == 0)
                break;
        } else if (c == ':' && depth == 0) {
            format_spec(L, quote, triple, s);
            break;
        } else if (c == '\\') {
            L->pos++;
            nl = newline_at(L, L->pos);
            if (nl)
                next_line(L, nl);
            else if (peekc(L, 0) >= 0)
                L->pos++;
        } else {
            L->pos++;
        }
    }
    L->fdepth--;
}

/* The format spec of a field, from its ':' to past the field's closing '}';
 * it may hold nested fields. */
static void format_spec(Lexer *L, int quote, bool triple, const StrStart *s)
{
    L->pos++;
    for (;;) {
        int c = peekc(L, 0);
        if (c < 0)
            unterminated(L, s, triple);
        int nl = newline_at(L, L->pos);
        if (nl) {
            if (!triple)
                unterminated(L, s, triple);
            next_line(L, nl);
        } else if (c == quote && (!triple || (peekc(L, 1) == quote && peekc(L, 2) == quote))) {
            error_at(L, "SyntaxError", L->line, column(L, L->pos), "f-string: expecting '}'");
        } else if (c == '{') {
            fstring_field(L, quote, triple, s);
        } else if (c == '}') {
            L->pos++;
            return;
        } else if (c == '\\' && newline_at(L, L->pos + 1)) {
            L->pos++;
            next_line(L, newline_at(L, L->pos));
        } else {
            L->pos++;
        }
    }
}

/* The quotes and body of a string: pos is at the opening quote. */
static void string_body(Lexer *L, int flags, const StrStart *s)
{
    int q = peekc(L, 0);
    bool triple = peekc(L, 1) == q && peekc(L, 2) == q;
    bool f = flags & STR_F;
    L->pos += triple ? 3 : 1;
    for (;;) {
        int c = peekc(L, 0);
        if (c < 0)
            unterminated(L, s, triple);
        int nl = newline_at(L, L->pos);
        if (nl) {
            if (!triple)
                unterminated(L, s, triple);
            next_line(L, nl);
        } else if (c == '\\') {
            L->pos++;
            nl = newline_at(L, L->pos);
            if (nl) {
                next_line(L, nl);
            } else if (f && !(flags & STR_RAW) && peekc(L, 0) == 'N' && peekc(L, 1) == '{') {
                L->pos += 2; /* \N{NAME}: its braces are not a field */
                while (peekc(L, 0) >= 0 && peekc(L, 0) != '}' && peekc(L, 0) != q &&
                       !newline_at(L, L->pos))
                    L->pos++;
                if (peekc(L, 0) == '}')
                    L->pos++;
            } else if (peekc(L, 0) >= 0 && !(f && (peekc(L, 0) == '{' || peekc(L, 0) == '}'))) {
                L->pos++;
            }
        } else if (c == q) {
            if (!triple) {
                L->pos++;
                return;
            }
            if (peekc(L, 1) == q && peekc(L, 2) == q) {
                L->pos += 3;
                return;
            }
            L->pos++;
        } else if (f && c == '{') {
            if (peekc(L, 1) == '{')
                L->pos += 2;
            else
                fstring_field(L, q, triple, s);
        } else if (f && c == '}') {
            if (peekc(L, 1) != '}')
                error_at(L, "SyntaxError", L->line, column(L, L->pos),
                         "f-string: single '}' is not allowed");
            L->pos += 2;
        } else {
            L->pos++;
        }
    }
}

/* A string token starting at byte `start` (its prefix), (line, col); pos is
 * at the opening quote. */
static void string(Lexer *L, size_t start, int line, int col, int flags)
{
    StrStart s = {line, col, (flags & STR_F) != 0};
    string_body(L, flags, &s);
    push(L, NG_JIT_TK_STRING, start, line, col);
}

/* ---- names and operators ---- */

/* NAME or keyword, or a string with a prefix. */
static void name(Lexer *L)
{
    size_t start = L->pos;
    int col = column(L, start);
    for (;;) {
        int c = peekc(L, 0);
        if (is_ascii_id(c)) {
            L->pos++;
        } else if (c >= 0x80) {
            int n;
            unsigned cp = decode_utf8(L->src, L->pos, &n);
            if (!is_id_char(cp))
                break; /* the main loop reports it */
            L->pos += (size_t)n;
        } else {
            break;
        }
    }
    int c = peekc(L, 0);
    if (c == '\'' || c == '"') {
        int flags = string_prefix(L->src + start, L->pos - start);
        if (flags >= 0) {
            string(L, start, L->line, col, flags);
            return;
        }
    }
    push(L, ng_jit_keyword(L->src + start, L->pos - start), start, L->line, col);
}

/* Kind of the longest operator at pos and its length, or 0. */
static int operator(const Lexer *L, int *n)
{
    int c = peekc(L, 0), c1 = peekc(L, 1), c2 = peekc(L, 2);
    *n = 3;
    if (c == '*' && c1 == '*' && c2 == '=')
        return NG_JIT_TK_POW_ASSIGN;
    if (c == '/' && c1 == '/' && c2 == '=')
        return NG_JIT_TK_FLOORDIV_ASSIGN;
    if (c == '<' && c1 == '<' && c2 == '=')
        return NG_JIT_TK_LSHIFT_ASSIGN;
    if (c == '>' && c1 == '>' && c2 == '=')
        return NG_JIT_TK_RSHIFT_ASSIGN;
    if (c == '.' && c1 == '.' && c2 == '.')
        return NG_JIT_TK_ELLIPSIS;
    *n = 2;
    if (c1 == '=') {
        switch (c) {
        case '<': return NG_JIT_TK_LE;
        case '>': return NG_JIT_TK_GE;
        case '=': return NG_JIT_TK_EQ;
        case '!': return NG_JIT_TK_NE;
        case ':': return NG_JIT_TK_WALRUS;
        case '+': return NG_JIT_TK_ADD_ASSIGN;
        case '-': return NG_JIT_TK_SUB_ASSIGN;
        case '*': return NG_JIT_TK_MUL_ASSIGN;
        case '/': return NG_JIT_TK_DIV_ASSIGN;
        case '%': return NG_JIT_TK_MOD_ASSIGN;
        case '&': return NG_JIT_TK_AND_ASSIGN;
        case '|': return NG_JIT_TK_OR_ASSIGN;
        case '^': return NG_JIT_TK_XOR_ASSIGN;
        case '@': return NG_JIT_TK_MATMUL_ASSIGN;
        }
    }
    if (c == '*' && c1 == '*')
        return NG_JIT_TK_POW;
    if (c == '/' && c1 == '/')
        return NG_JIT_TK_FLOORDIV;
    if (c == '<' && c1 == '<')
        return NG_JIT_TK_LSHIFT;
    if (c == '>' && c1 == '>')
        return NG_JIT_TK_RSHIFT;
    if (c == '-' && c1 == '>')
        return NG_JIT_TK_ARROW;
    *n = 1;
    if (c > 0 && strchr("()[]{}:,;+-*/|&<>=.%~^@", c))
        return c;
    *n = 0;
    return 0;
}

static void open_bracket(Lexer *L, int c, int col)
{
    if (L->nbrackets >= NG_JIT_MAX_BRACKETS)
        error_at(L, "SyntaxError", L->line, col, "too many nested parentheses");
    L->brackets[L->nbrackets++] = (Bracket){(char)c, L->line, col};
}

static void close_bracket(Lexer *L, int c, int col)
{
    if (L->nbrackets == 0)
        error_at(L, "SyntaxError", L->line, col, "unmatched '%c'", c);
    Bracket b = L->brackets[--L->nbrackets];
    int want = b.c == '(' ? ')' : b.c == '[' ? ']' : '}';
    if (c == want)
        return;
    if (b.line != L->line)
        error_at(L, "SyntaxError", L->line, col,
                 "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c,
                 b.c, b.line);
    error_at(L, "SyntaxError", L->line, col,
             "closing parenthesis '%c' does not match opening parenthesis '%c'", c, b.c);
}

/* An unexpected character at pos. */
static _Noreturn void bad_char(Lexer *L)
{
    int n;
    unsigned cp = decode_utf8(L->src, L->pos, &n);
    int col = column(L, L->pos);
    if (!is_printable(cp))
        error_at(L, "SyntaxError", L->line, col, "invalid non-printable character U+%04X", cp);
    if (cp >= 0x80)
        error_at(L, "SyntaxError", L->line, col, "invalid character '%.*s' (U+%04X)", n,
                 L->src + L->pos, cp);
    error_at(L, "SyntaxError", L->line, col, "invalid syntax");
}

/* ---- the loop ---- */

static void tokenize(Lexer *L)
{
    check_encoding(L);
    if (L->len >= 3 && memcmp(L->src, "\xEF\xBB\xBF", 3) == 0)
        L->pos = L->line_start = 3;
    bool line_start = true;
    for (;;) {
        if (line_start && L->nbrackets == 0)
            indentation(L);
        line_start = false;
        while (peekc(L, 0) == ' ' || peekc(L, 0) == '\t' || peekc(L, 0) == '\f')
            L->pos++;
        int c = peekc(L, 0);
        if (c < 0)
            break;
        size_t start = L->pos;
        int col = column(L, start);
        int nl = newline_at(L, L->pos);
        if (nl) {
            if (L->nbrackets == 0 && L->line_has_tokens) {
                L->pos += (size_t)nl;
                push(L, NG_JIT_TK_NEWLINE, start, L->line, col);
                L->line_has_tokens = false;
                L->pos = start;
            }
            next_line(L, nl);
            line_start = true;
        } else if (c == '#') {
            while (peekc(L, 0) >= 0 && !newline_at(L, L->pos))
                L->pos++;
        } else if (c == '\\') {
            L->pos++;
            nl = newline_at(L, L->pos);
            if (!nl && peekc(L, 0) >= 0)
                error_at(L, "SyntaxError", L->line, col + 1,
                         "unexpected character after line continuation character");
            if (nl)
                next_line(L, nl);
            if (peekc(L, 0) < 0)
                error_at(L, "SyntaxError", L->line, column(L, L->pos), "unexpected EOF while parsing");
        } else if (is_ascii_id_start(c)) {
            name(L);
        } else if (c >= 0x80) {
            int n;
            if (!is_id_char(decode_utf8(L->src, L->pos, &n)))
                bad_char(L);
            name(L);
        } else if (is_digit(c) || (c == '.' && is_digit(peekc(L, 1)))) {
            number(L);
        } else if (c == '\'' || c == '"') {
            string(L, start, L->line, col, 0);
        } else {
            int n, kind = operator(L, &n);
            if (!kind)
                bad_char(L);
            if (kind == '(' || kind == '[' || kind == '{')
                open_bracket(L, kind, col);
            else if (kind == ')' || kind == ']' || kind == '}')
                close_bracket(L, kind, col);
            L->pos += (size_t)n;
            push(L, kind, start, L->line, col);
        }
    }
    if (L->nbrackets > 0) {
        Bracket b = L->brackets[L->nbrackets - 1];
        error_at(L, "SyntaxError", b.line, b.col, "'%c' was never closed", b.c);
    }
    if (L->line_has_tokens)
        push(L, NG_JIT_TK_NEWLINE, L->pos, L->line, column(L, L->pos));
    int line = L->pos == L->line_start ? L->line : L->line + 1;
    while (L->nindent > 0) {
        L->nindent--;
        NgJitToken *t = push(L, NG_JIT_TK_DEDENT, L->pos, line, 0);
        t->end_line = line;
        t->end_col = 0;
    }
    NgJitToken *t = push(L, NG_JIT_TK_EOF, L->pos, line, 0);
    t->end_line = line;
    t->end_col = 0;
}

/* The error exit: tokenize longjmps back here. Kept apart so that no local
 * of the function calling setjmp changes after it. */
static NgStatus run(Lexer *L)
{
    if (setjmp(L->fail))
        return L->status;
    tokenize(L);
    return NG_OK;
}

NgStatus ng_jit_lex(const char *src, size_t len, const char *filename, NgJitToken **out,
                    int *ntok, NgJitError *err)
{
    *out = NULL;
    *ntok = 0;
    if (len >= UINT32_MAX / 2)
        return ng_error_set(NG_ERR_VALUE, "%s: source text too large (%zu bytes)",
                            filename ? filename : "<string>", len);
    Lexer *L = ng_calloc(1, sizeof *L);
    if (!L)
        return ng_error_set(NG_ERR_NOMEM, "out of memory tokenizing %s",
                            filename ? filename : "<string>");
    L->src = src ? src : "";
    L->len = src ? len : 0;
    L->file = filename;
    L->line = 1;
    L->err = err;
    NgStatus st = run(L);
    if (st == NG_OK) {
        *out = L->toks;
        *ntok = L->ntoks;
    } else {
        ng_free(L->toks);
    }
    ng_free(L);
    return st;
}
