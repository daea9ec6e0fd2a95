/* The @numgpu.jit front end: tokens, syntax errors, the per-compile arena, and
 * the entry points of the lexer (lex.c) and the parser (parse.c).
 *
 * The Python glue hands the C front end a function's source text (UTF-8).
 * lex.c tokenizes all of Python 3.12; parse.c builds the AST of ast.h in one
 * arena, parsing the statements the jit can compile and skipping the rest
 * (import, with, try, class, ...) as "python" statements whose text stays
 * as it is. Later stages (resolve/types, dependence analysis, lowering to
 * src/ir, the host plan) read the AST.
 *
 * Positions follow Python's ast module: lines are 1-based, columns are
 * 0-based byte offsets into the line (col_offset), end columns exclusive.
 * Failures return a status with the text in ng_error_message() and, when the
 * caller passes an NgJitError, the position as numbers. Nothing here keeps
 * global state: two threads may compile at once.
 */
#ifndef NUMGPU_JIT_H
#define NUMGPU_JIT_H

#include <stddef.h>
#include <stdint.h>

#include <numgpu/numgpu.h>
#include "core/core.h"

/* Syntax errors are reported as NG_ERR_VALUE (there is no syntax status code). */
#define NG_JIT_ERR_SYNTAX NG_ERR_VALUE

enum {
    NG_JIT_MAX_BRACKETS = 200, /* open brackets at once (CPython's MAXLEVEL) */
    NG_JIT_MAX_INDENT = 100,   /* indentation levels + 1 (CPython's MAXINDENT) */
    NG_JIT_MAX_FSTRING = 150,  /* f-strings nested in f-string fields */
    NG_JIT_MAX_DEPTH = 600,    /* parser recursion and AST expression height */
};

/* ---- syntax errors ---- */

/* Where and why a source text was rejected, as Python would say it. */
typedef struct NgJitError {
    const char *kind; /* "SyntaxError", "IndentationError" or "TabError" */
    int line;         /* 1-based line of the error */
    int col;          /* 0-based byte column (Python's SyntaxError.offset - 1) */
    char msg[200];    /* Python's wording, without the position */
} NgJitError;

/* Records a syntax error: fills *err (when not NULL) and sets the thread's
 * error text to "file:line:col: kind: msg" (col 1-based there, as editors
 * count); returns NG_JIT_ERR_SYNTAX. */
NgStatus ng_jit_syntax_error(NgJitError *err, const char *file, const char *kind, int line,
                             int col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- tokens ---- */

/* Token kinds. An operator or delimiter of one character is its own character
 * ('(' ')' '[' ']' '{' '}' ':' ',' ';' '+' '-' '*' '/' '|' '&' '<' '>' '='
 * '.' '%' '~' '^' '@'); everything else is a member of this enum. Keywords get
 * their own kinds; soft keywords (match, case, type, _) are names. */
typedef enum NgJitTokKind {
    NG_JIT_TK_EOF = 0,       /* end of input (ENDMARKER) */
    NG_JIT_TK_NAME = 256,    /* identifier that is not a keyword */
    NG_JIT_TK_NUMBER,        /* int, float or imaginary literal */
    NG_JIT_TK_STRING,        /* one string literal with its prefix; an f-string is one token */
    NG_JIT_TK_NEWLINE,       /* end of a logical line */
    NG_JIT_TK_INDENT,        /* indentation grew */
    NG_JIT_TK_DEDENT,        /* indentation shrank by one level (zero width) */
    /* operators of two or three characters */
    NG_JIT_TK_POW,           /* ** */
    NG_JIT_TK_FLOORDIV,      /* // */
    NG_JIT_TK_LSHIFT,        /* << */
    NG_JIT_TK_RSHIFT,        /* >> */
    NG_JIT_TK_LE,            /* <= */
    NG_JIT_TK_GE,            /* >= */
    NG_JIT_TK_EQ,            /* == */
    NG_JIT_TK_NE,            /* != */
    NG_JIT_TK_ARROW,         /* -> */
    NG_JIT_TK_WALRUS,        /* := */
    NG_JIT_TK_ELLIPSIS,      /* ... */
    NG_JIT_TK_ADD_ASSIGN,    /* += */
    NG_JIT_TK_SUB_ASSIGN,    /* -= */
    NG_JIT_TK_MUL_ASSIGN,    /* *= */
    NG_JIT_TK_DIV_ASSIGN,    /* /= */
    NG_JIT_TK_MOD_ASSIGN,    /* %= */
    NG_JIT_TK_AND_ASSIGN,    /* &= */
    NG_JIT_TK_OR_ASSIGN,     /* |= */
    NG_JIT_TK_XOR_ASSIGN,    /* ^= */
    NG_JIT_TK_MATMUL_ASSIGN, /* @= */
    NG_JIT_TK_LSHIFT_ASSIGN, /* <<= */
    NG_JIT_TK_RSHIFT_ASSIGN, /* >>= */
    NG_JIT_TK_POW_ASSIGN,    /* **= */
    NG_JIT_TK_FLOORDIV_ASSIGN, /* //= */
    /* keywords, in Python's keyword.kwlist order */
    NG_JIT_TK_FALSE,         /* False */
    NG_JIT_TK_NONE,          /* None */
    NG_JIT_TK_TRUE,          /* True */
    NG_JIT_TK_AND,           /* and */
    NG_JIT_TK_AS,            /* as */
    NG_JIT_TK_ASSERT,        /* assert */
    NG_JIT_TK_ASYNC,         /* async */
    NG_JIT_TK_AWAIT,         /* await */
    NG_JIT_TK_BREAK,         /* break */
    NG_JIT_TK_CLASS,         /* class */
    NG_JIT_TK_CONTINUE,      /* continue */
    NG_JIT_TK_DEF,           /* def */
    NG_JIT_TK_DEL,           /* del */
    NG_JIT_TK_ELIF,          /* elif */
    NG_JIT_TK_ELSE,          /* else */
    NG_JIT_TK_EXCEPT,        /* except */
    NG_JIT_TK_FINALLY,       /* finally */
    NG_JIT_TK_FOR,           /* for */
    NG_JIT_TK_FROM,          /* from */
    NG_JIT_TK_GLOBAL,        /* global */
    NG_JIT_TK_IF,            /* if */
    NG_JIT_TK_IMPORT,        /* import */
    NG_JIT_TK_IN,            /* in */
    NG_JIT_TK_IS,            /* is */
    NG_JIT_TK_LAMBDA,        /* lambda */
    NG_JIT_TK_NONLOCAL,      /* nonlocal */
    NG_JIT_TK_NOT,           /* not */
    NG_JIT_TK_OR,            /* or */
    NG_JIT_TK_PASS,          /* pass */
    NG_JIT_TK_RAISE,         /* raise */
    NG_JIT_TK_RETURN,        /* return */
    NG_JIT_TK_TRY,           /* try */
    NG_JIT_TK_WHILE,         /* while */
    NG_JIT_TK_WITH,          /* with */
    NG_JIT_TK_YIELD,         /* yield */
    NG_JIT_TK_NKINDS
} NgJitTokKind;

/* One token; its text is src[off, off + len). */
typedef struct NgJitToken {
    int kind;         /* NgJitTokKind, or the character of a one-character operator */
    int line, col;    /* start: 1-based line, 0-based byte column */
    int end_line;     /* line of the last byte */
    int end_col;      /* byte column just past the end */
    uint32_t off;     /* byte offset of the first byte in the source */
    uint32_t len;     /* bytes of text (0 for INDENT/DEDENT/EOF and an implicit NEWLINE) */
} NgJitToken;

/* Tokenizes src[0, len) (UTF-8, a leading BOM is skipped) into *out, an
 * array of *ntok tokens that ends with NG_JIT_TK_EOF; free it with ng_free.
 * Blank lines and comments make no tokens. On a syntax error returns
 * NG_JIT_ERR_SYNTAX with Python's message ("k.py:3:5: SyntaxError:
 * unterminated string literal (detected at line 3)", column 1-based in the
 * text) and fills *err when err is not NULL; *out is then NULL. */
NgStatus ng_jit_lex(const char *src, size_t len, const char *filename, NgJitToken **out,
                    int *ntok, NgJitError *err);

/* Kind of the keyword s[0, n), or NG_JIT_TK_NAME when it is not one. */
int ng_jit_keyword(const char *s, size_t n);

/* Python's spelling of a token kind: "NAME", "NUMBER", "STRING", "NEWLINE",
 * "INDENT", "DEDENT", "ENDMARKER", or the operator or keyword itself. */
const char *ng_jit_tok_kind_name(int kind);

/* ---- the arena: every node of one compile, freed at once ---- */

typedef struct NgJitArenaBlock NgJitArenaBlock;

typedef struct NgJitArena {
    NgJitArenaBlock *blocks; /* newest first */
    char *cur;               /* next free byte of the newest block */
    char *end;               /* end of the newest block */
    size_t bytes;            /* bytes handed out so far */
} NgJitArena;

void ng_jit_arena_init(NgJitArena *a);
/* n zeroed bytes aligned for any node; NULL when out of memory. */
void *ng_jit_arena_alloc(NgJitArena *a, size_t n);
void ng_jit_arena_free(NgJitArena *a);

/* ---- parsing (parse.c) and printing (ast.c): see ast.h ---- */

typedef struct NgJitAst NgJitAst;

/* Parses a module (normally one function's source) into *out, which the
 * caller frees with ng_jit_ast_free. The text is copied: the AST does not
 * point into src. Errors as for ng_jit_lex (syntax errors, NG_ERR_NOMEM). */
NgStatus ng_jit_parse(const char *src, size_t len, const char *filename, NgJitAst **out,
                      NgJitError *err);
void ng_jit_ast_free(NgJitAst *ast);

/* Flags of ng_jit_ast_print. */
enum {
    NG_JIT_PRINT_LINES = 1, /* tag every statement with its line range: (for@3-7 ...) */
};

/* Appends an S-expression dump of the module to `out`, one statement a line,
 * indented two spaces per block: `(def f (a b) (for i (call range n) (= ([] a i) 0)))`.
 * Used by tests and NUMGPU_SHOW_AST-style debugging. */
void ng_jit_ast_print(const NgJitAst *ast, NgStr *out, int flags);

#endif
