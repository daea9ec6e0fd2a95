/* The AST of the jit front end: what parse.c builds and the later stages
 * (resolve/types, dependence analysis, lowering to src/ir, the host plan) read.
 *
 * It mirrors Python's own ast module where the jit can compile the construct
 * (same node shapes, same positions), and stops there: statements the jit
 * leaves to Python (import, with, try, class, global, del, raise, assert,
 * match, async ...) are one NG_JIT_S_OTHER node with their span and the names
 * they mention, their text to be kept as it is by the host plan.
 *
 * Every node has its source span; every statement covers whole lines from
 * span.line to span.end_line (a compound statement with its blocks), so the
 * host plan can cut a loop nest out of ast->src by line or by byte offset.
 * All nodes, arrays and strings live in the AST's arena; names are interned,
 * so two uses of a variable share one `name` pointer and one `name_id`.
 * Expressions are at most NG_JIT_MAX_DEPTH deep, so recursive walks are safe.
 */
#ifndef NUMGPU_JIT_AST_H
#define NUMGPU_JIT_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "jit/jit.h"

/* A source span, as Python's ast gives it (lineno, col_offset, end_lineno,
 * end_col_offset), plus the byte offsets of both ends. */
typedef struct NgJitSpan {
    int line, col;         /* start: 1-based line, 0-based byte column */
    int end_line, end_col; /* end: line of the last byte, column just past it */
    uint32_t off, end_off; /* byte offsets of the start and just past the end in ast->src */
} NgJitSpan;

/* Operators of UNARY, BINARY, BOOLOP, COMPARE and AUGASSIGN nodes. */
typedef enum NgJitOp {
    NG_JIT_OP_NONE,
    NG_JIT_OP_ADD,      /* + */
    NG_JIT_OP_SUB,      /* - */
    NG_JIT_OP_MUL,      /* * */
    NG_JIT_OP_MATMUL,   /* @ */
    NG_JIT_OP_DIV,      /* / */
    NG_JIT_OP_FLOORDIV, /* // */
    NG_JIT_OP_MOD,      /* % */
    NG_JIT_OP_POW,      /* ** */
    NG_JIT_OP_LSHIFT,   /* << */
    NG_JIT_OP_RSHIFT,   /* >> */
    NG_JIT_OP_BITOR,    /* | */
    NG_JIT_OP_BITXOR,   /* ^ */
    NG_JIT_OP_BITAND,   /* & */
    NG_JIT_OP_AND,      /* and (BOOLOP) */
    NG_JIT_OP_OR,       /* or (BOOLOP) */
    NG_JIT_OP_NOT,      /* not (UNARY) */
    NG_JIT_OP_NEG,      /* unary - */
    NG_JIT_OP_POS,      /* unary + */
    NG_JIT_OP_INVERT,   /* unary ~ */
    NG_JIT_OP_LT,       /* < */
    NG_JIT_OP_LE,       /* <= */
    NG_JIT_OP_GT,       /* > */
    NG_JIT_OP_GE,       /* >= */
    NG_JIT_OP_EQ,       /* == */
    NG_JIT_OP_NE,       /* != */
    NG_JIT_OP_IN,       /* in */
    NG_JIT_OP_NOT_IN,   /* not in */
    NG_JIT_OP_IS,       /* is */
    NG_JIT_OP_IS_NOT,   /* is not */
    NG_JIT_NOPS
} NgJitOp;

/* Python's spelling of an operator: "+", "not in", "and", ... */
const char *ng_jit_op_name(NgJitOp op);

typedef enum NgJitExprKind {
    NG_JIT_E_NAME,      /* variable `name` (name_id) */
    NG_JIT_E_INT,       /* int literal: `ival`, or `big` when it needs more than 64 bits */
    NG_JIT_E_FLOAT,     /* float literal `fval` */
    NG_JIT_E_IMAG,      /* imaginary literal `fval`j */
    NG_JIT_E_STR,       /* string literal(s), concatenated: `str`/`str_len` (see flags) */
    NG_JIT_E_CONST,     /* True, False, None or ... (`cval`) */
    NG_JIT_E_TUPLE,     /* items[0..nitems) */
    NG_JIT_E_LIST,      /* [items] */
    NG_JIT_E_SET,       /* {items} (python) */
    NG_JIT_E_DICT,      /* {keys[i]: items[i]}; keys[i] NULL for **items[i] (python) */
    NG_JIT_E_LISTCOMP,  /* [lhs for ...] with gens (python) */
    NG_JIT_E_SETCOMP,   /* {lhs for ...} (python) */
    NG_JIT_E_DICTCOMP,  /* {lhs: rhs for ...} (python) */
    NG_JIT_E_GENEXP,    /* (lhs for ...) (python) */
    NG_JIT_E_UNARY,     /* `op` lhs: NEG, POS, INVERT, NOT */
    NG_JIT_E_BINARY,    /* lhs `op` rhs */
    NG_JIT_E_BOOLOP,    /* lhs and/or rhs (`op` AND or OR), short-circuit */
    NG_JIT_E_COMPARE,   /* items[0] ops[0] items[1] ops[1] items[2] ... (a chain) */
    NG_JIT_E_IFEXP,     /* lhs if cond else rhs */
    NG_JIT_E_CALL,      /* lhs(items..., keywords...) */
    NG_JIT_E_ATTR,      /* lhs.name */
    NG_JIT_E_SUBSCRIPT, /* lhs[rhs]; rhs is a TUPLE for A[i, j] */
    NG_JIT_E_SLICE,     /* lhs:rhs:cond (each may be NULL); only inside a subscript */
    NG_JIT_E_STARRED,   /* *lhs */
    NG_JIT_E_NAMED,     /* lhs := rhs (walrus); lhs is a NAME in STORE context */
    NG_JIT_E_LAMBDA,    /* lambda params: lhs (python) */
    NG_JIT_E_AWAIT,     /* await lhs (python) */
    NG_JIT_E_YIELD,     /* yield lhs (lhs may be NULL) (python) */
    NG_JIT_E_YIELD_FROM,/* yield from lhs (python) */
    NG_JIT_E_NKINDS
} NgJitExprKind;

/* cval of a CONST node. */
typedef enum NgJitConst {
    NG_JIT_C_NONE,     /* None */
    NG_JIT_C_TRUE,     /* True */
    NG_JIT_C_FALSE,    /* False */
    NG_JIT_C_ELLIPSIS, /* ... */
} NgJitConst;

/* How an expression is used (Python's expr_context). */
typedef enum NgJitCtx {
    NG_JIT_LOAD,  /* read */
    NG_JIT_STORE, /* assigned: a target of =, +=, for, :=, a comprehension's for */
} NgJitCtx;

/* Flags of a STR node. */
enum {
    NG_JIT_STR_BYTES = 1,     /* b'...': str holds the bytes */
    NG_JIT_STR_FSTRING = 2,   /* an f-string takes part: str is NULL, see the span's text */
    NG_JIT_STR_UNDECODED = 4, /* an escape not decoded here (\N{...}): str is NULL */
};

typedef struct NgJitExpr NgJitExpr;
typedef struct NgJitStmt NgJitStmt;
typedef struct NgJitParams NgJitParams;

/* A keyword argument of a call: name=value, or **value when name is NULL. */
typedef struct NgJitKeyword {
    const char *name;  /* interned; NULL for **value */
    int name_id;       /* -1 for **value */
    NgJitExpr *value;
    NgJitSpan span;
} NgJitKeyword;

/* One `for target in iter if cond...` of a comprehension. */
typedef struct NgJitComp {
    NgJitExpr *target;  /* STORE context */
    NgJitExpr *iter;
    NgJitExpr **ifs;    /* conditions */
    int nifs;
    bool is_async;      /* async for */
} NgJitComp;

struct NgJitExpr {
    NgJitExprKind kind;
    NgJitOp op;          /* UNARY, BINARY, BOOLOP */
    NgJitCtx ctx;        /* LOAD or STORE */
    bool python;         /* it or a subexpression is syntax the jit leaves to Python */
    bool parenthesized;  /* written in parentheses of its own: (a + b) */
    int height;          /* 1 + height of the tallest child; at most NG_JIT_MAX_DEPTH */
    NgJitSpan span;      /* the node itself, as Python's ast gives it */
    NgJitSpan outer;     /* with the parentheses written around it (== span when none) */

    NgJitExpr *lhs, *rhs, *cond; /* operands, per kind (see NgJitExprKind) */
    NgJitExpr **items;   /* TUPLE/LIST/SET elements, DICT values, COMPARE operands, CALL
                            positional args; STR: NAME nodes read by f-string fields */
    int nitems;

    union {              /* what only some kinds have: read the member of e->kind */
        NgJitExpr **keys;            /* DICT: nitems keys, NULL for **value */
        NgJitOp *ops;                /* COMPARE: nitems - 1 operators */
        struct {
            NgJitKeyword *keywords;  /* CALL: keyword arguments */
            int nkeywords;
        };
        struct {
            NgJitComp *gens;         /* comprehensions: the for clauses in order */
            int ngens;
        };
        NgJitParams *params;         /* LAMBDA */
        struct {
            const char *name;        /* NAME, ATTR (the attribute): interned */
            int name_id;             /* its index in ast->names */
        };
        struct {
            uint64_t ival;           /* INT value when !big */
            bool big;                /* INT too large for 64 bits: only the span's text has it */
        };
        double fval;                 /* FLOAT, IMAG */
        NgJitConst cval;             /* CONST */
        struct {
            const char *str;         /* STR: decoded UTF-8 (or bytes), NUL-terminated; NULL, see flags */
            size_t str_len;          /* bytes in str, without the NUL */
            int str_flags;           /* NG_JIT_STR_* */
        };
    };
};

/* Kinds of a function parameter, in the order Python allows them. */
typedef enum NgJitParamKind {
    NG_JIT_P_POSONLY, /* before a `/` */
    NG_JIT_P_NORMAL,  /* positional or keyword */
    NG_JIT_P_VARARGS, /* *args */
    NG_JIT_P_KWONLY,  /* after `*` or *args */
    NG_JIT_P_VARKW,   /* **kwargs */
} NgJitParamKind;

typedef struct NgJitParam {
    const char *name;      /* interned */
    int name_id;
    NgJitParamKind kind;
    NgJitExpr *annotation; /* NULL when none */
    NgJitExpr *dflt;       /* default value; NULL when none */
    NgJitSpan span;        /* the name (with annotation) */
} NgJitParam;

struct NgJitParams {
    NgJitParam *items;
    int n;
    bool has_posonly;    /* a `/` was written */
    bool has_bare_star;  /* a lone `*` was written */
};

typedef enum NgJitStmtKind {
    NG_JIT_S_EXPR,      /* expression statement: value */
    NG_JIT_S_ASSIGN,    /* targets[0] = targets[1] = ... = value */
    NG_JIT_S_AUGASSIGN, /* target `op`= value */
    NG_JIT_S_ANNASSIGN, /* target: annotation [= value] */
    NG_JIT_S_FOR,       /* for target in iter: body [else: orelse] */
    NG_JIT_S_WHILE,     /* while test: body [else: orelse] */
    NG_JIT_S_IF,        /* if test: body [else: orelse]; elif is an IF alone in orelse */
    NG_JIT_S_BREAK,     /* break */
    NG_JIT_S_CONTINUE,  /* continue */
    NG_JIT_S_PASS,      /* pass */
    NG_JIT_S_RETURN,    /* return [value] */
    NG_JIT_S_DEF,       /* def name(params) [-> annotation]: body, with decorators */
    NG_JIT_S_OTHER,     /* a statement left to Python, block and all: `what` says which */
    NG_JIT_S_RAISE,     /* raise name[(message)], or assert test[, message] (name AssertionError):
                           name (the class's name), value (the message, a plain str, or NULL), test
                           (assert's, else NULL), raise_id; other raises and asserts are OTHER */
    NG_JIT_S_NKINDS
} NgJitStmtKind;

/* A block: the statements of a suite in order. */
typedef struct NgJitBlock {
    NgJitStmt **stmts;
    int n;
} NgJitBlock;

struct NgJitStmt {
    NgJitStmtKind kind;
    NgJitSpan span;     /* the whole statement, blocks included (DEF: from `def`, as Python) */
    bool python;        /* it is, or contains, something the jit leaves to Python */

    NgJitExpr *target;  /* FOR, AUGASSIGN, ANNASSIGN: STORE context */
    NgJitExpr *value;   /* EXPR, ASSIGN, AUGASSIGN, ANNASSIGN (may be NULL), RETURN (may be NULL) */
    NgJitExpr *test;    /* IF, WHILE: the condition; FOR: the iterable */
    NgJitExpr *annotation; /* ANNASSIGN; DEF: the return annotation (may be NULL) */
    NgJitExpr **targets;/* ASSIGN: ntargets targets, left to right */
    int ntargets;
    NgJitOp op;         /* AUGASSIGN */
    NgJitBlock body;    /* FOR, WHILE, IF, DEF */
    NgJitBlock orelse;  /* FOR, WHILE, IF: the else block (n == 0 when none) */
    int else_line;      /* line of the `else`/`elif` keyword; 0 when none */
    bool made;          /* FOR: made by desugar.c where the source has no loop (the elements of
                           a list comprehension, the fill of an np.zeros): not reported, never
                           launched by the host */
    bool lets;          /* FOR: desugar.c rewrote values its body makes and uses up (a slice, a
                           list, an np.zeros): the loops inside it may run as part of it only */
    bool returns;       /* FOR, WHILE: desugar.c made the returns inside it breaks (return_loops) */
    const char *pre_name; /* FOR: desugar.c's hand argmax (`if x[i] > x[k]: k = i`): the name its
                           body now compares with, bound to pre_value (x[k], the source's own
                           expression) before the loop: by a statement desugar.c puts before
                           it inside a loop body, else by the launch (pymod/jit.c); NULL */
    const NgJitExpr *pre_value;

    /* DEF */
    const char *name;   /* interned function name */
    int name_id;
    NgJitParams *params;
    NgJitExpr **decorators;
    int ndecorators;
    int deco_line;      /* first line of the decorators (== span.line when none) */
    bool is_generator;  /* its body yields (outside nested functions) */

    /* RAISE */
    int raise_id;       /* its number among the module's RAISE statements, from 0 in source order
                           (a kernel's raise code names it: ng_jit_find_raise) */

    /* OTHER */
    const char *what;   /* "import", "from", "global", "nonlocal", "del", "raise", "assert",
                           "with", "try", "class", "async", "match", "type" */
    const char **names; /* every identifier it mentions, interned, first use first */
    int *name_ids;
    int nnames;
};

/* A parsed module and everything it points to. */
struct NgJitAst {
    NgJitArena arena;   /* owns every node */
    const char *src;    /* copy of the source text, NUL-terminated */
    size_t len;         /* bytes in src */
    uint64_t src_hash;  /* ng_hash64 of src (part of every kernel key) */
    const char *filename;
    NgJitBlock body;    /* the module's statements */
    const char **names; /* interned identifiers: names[name_id] */
    int nnames;
    uint32_t *line_off; /* line_off[l] = byte offset of line l (1-based); line_off[nlines + 1] = len */
    int nlines;
    int nloops;         /* FOR and WHILE statements, anywhere */
    int nraises;        /* RAISE statements, anywhere */
};

/* Byte offset of (line, col), clamped to the text; line 1-based, col in bytes. */
uint32_t ng_jit_ast_offset(const NgJitAst *ast, int line, int col);

/* The RAISE statement numbered `id` (NgJitStmt.raise_id), or NULL. */
const NgJitStmt *ng_jit_find_raise(const NgJitAst *ast, int id);

/* Makes every compiled assert a pass, as Python does under -O (sys.flags.optimize). */
void ng_jit_drop_asserts(NgJitAst *ast);

/* Appends one expression of `ast`, as ng_jit_ast_print prints it: `(+ a (* b c))`. */
void ng_jit_expr_print(const NgJitAst *ast, const NgJitExpr *e, NgStr *out);
/* ... and one statement, with its blocks. */
void ng_jit_stmt_print(const NgJitAst *ast, const NgJitStmt *s, NgStr *out);

/* True when a and b are the same expression, written alike up to spacing. */
bool ng_jit_expr_equal(const NgJitExpr *a, const NgJitExpr *b);

/* The indices a subscript's index ix gives: its items less the full slices
 * after the last of them (X[i, :] is X[i], so X[i, :][j] is X[i, j]). */
int ng_jit_index_count(const NgJitExpr *ix);

/* True when block b returns anywhere (in its blocks too; a nested function's returns are
 * its own). */
bool ng_jit_block_returns(NgJitBlock b);

#endif
