/* Lowering one loop nest of a parsed Python function to kernel IR (lower.h).
 *
 * How: a set-up step walks the nest once and classifies every name it
 * mentions (free array, free scalar, local, cell, module) from the given
 * types and the plan. Then the nest is lowered in passes, each into a fresh
 * kernel. A local's type is the promotion of everything assigned to it, and
 * a pass only knows that once it has seen every assignment (a value can be
 * read a line before the assignment that types it, in the next iteration),
 * so passes repeat until no local's type (nor its "never negative" flag)
 * changes; that pass's kernel is the result. Types only climb a finite
 * lattice and flags only fall, so this ends after a few passes.
 *
 * Layout of the kernel: locals are C variables. In a sequential nest all of
 * them are declared before the outer loop (one thread runs everything); in a
 * parallel one, private locals are declared at the top of the outer loop's
 * body (so each OpenMP thread or GPU thread has its own) and reduction
 * variables before the loop (the emitter's reduction clause privatises
 * them). Every range loop counts with a hidden counter and assigns the
 * Python variable at the top of each iteration, so assigning the loop
 * variable in the body, or reading it after the loop, behaves as in Python.
 *
 * Some expressions need statements: a helper function's inlined body, the
 * loop of np.sum(row), a bounds check. Lowering an expression appends them
 * to L->pending, and the statement the expression belongs to is placed after
 * them (a while test's are repeated before every test). Those of an operand
 * Python may skip (after `and`/`or`, in one branch of `x if c else y`, later
 * in a comparison chain) run under L->guard, the condition under which
 * Python evaluates it.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/philox.h"
#include "jit/desugar.h"
#include "jit/lower.h"

/* ---- values, names, the lowering state ---- */

/* One value: an IR expression with its Python/NumPy type. */
typedef struct Val {
    NgIrRef r;   /* NG_IR_NONE: not known in this pass, or after an error */
    NgDType dt;  /* its dtype */
    bool weak;   /* a Python int/float/bool (NEP 50 weak) */
    bool nonneg; /* an integer known never to be negative (no index wrap needed) */
    int64_t lo;  /* int64: a known lower bound (INT64_MIN: none), so i - 1 with i >= 1 needs no wrap */
    int within;  /* 0, or an axis (axis_key) the value is a valid index of: a range(x.shape[k])'s
                    counter, whose reads need neither a wrap nor a bounds check; or, negative,
                    -c: the value lies in [0, c) (range(4)'s counter) */
    double flo;  /* float64: a known lower bound (-INFINITY: none) unless it is NaN, so the
                    divisor 1.0 + x * x needs no check for 0 (flo_of) */
    bool chr;    /* a 1-character str (an element of a str, a literal 'a'): r is its code point,
                    an int64; only str_expr's callers take it (compare, dict keys, ord) */
    NgIrRef big; /* NONE, or for a uint64 chosen between a Python int and a NumPy uint64
                    (choose_val), holding the Python int's bits where it was chosen (-1 as
                    2**64 - 1): whether the NumPy uint64 was chosen and is from 2**63 on (what
                    int() refuses) */
    bool local;  /* a read of a local the loop assigns (choose_val: a Python number there is a NumPy
                    number after its first update, as best in best = max(best, x[i])) */
    double mag;  /* an integer: a known bound of |v| (0: none known beyond what mag_of reads from r), so
                    Python-int arithmetic that cannot leave 64 bits needs no check (int_overflow) */
    uint64_t magp; /* the scalar parameters (bit p: parameter p < 64) whose bound mag assumes: each is
                      checked before the loop when the bound spares a check (claim_bounds) */
    bool mixed;  /* one of two values of types Python keeps apart (choose_val: max(int8, int64), an
                    int64 or a float): the kernel holds it in their common type, where Python's is the
                    chosen one's, so arithmetic on it and a local assigned it are refused */
} Val;

static const Val NOVAL = {NG_IR_NONE, NG_NODTYPE, false, false, INT64_MIN, 0, -INFINITY, false, NG_IR_NONE, false,
                          0, 0, false};

typedef enum SymKind {
    SYM_UNBOUND, /* neither bound before the loop nor assigned in it: a builtin, or an error */
    SYM_ARRAY,   /* a free array */
    SYM_SCALAR,  /* a free scalar the nest only reads */
    SYM_LOCAL,   /* a scalar the nest assigns */
    SYM_MODULE,  /* np, numpy, math */
    SYM_VIEW,    /* a local naming part of a free array: row = X[i] */
    SYM_EXPR,    /* a local naming an elementwise expression of rows, e = np.exp(X[i] - m):
                    read as that expression (scan_exprs) */
    SYM_BUF,     /* a small array the loop makes, a = np.zeros(3): one variable per element
                    (scan_bufs) */
} SymKind;

/* Where a local's value comes from before the loop and goes after it. */
typedef enum Home {
    HOME_NONE,   /* starts at 0, dropped after the loop */
    HOME_SCALAR, /* starts from a scalar parameter (parallel: each iteration's own copy) */
    HOME_CELL,   /* a cell parameter: read before the loop, written after it */
} Home;

typedef struct Sym Sym;

enum { MAX_BUF_VARS = 16 }; /* a small array of at most this many elements, indexed only by constants
                               and counters of range(c) with c at most its length (and stored and
                               read whole): a variable per element (else an array variable) */

struct Sym {
    bool small_start;    /* a parallel Python int sum (int_overflow): its value before the loop must be
                            within 2**62 (NgJitArg.bits of its cell) */
    const char *name;           /* interned in the AST */
    SymKind kind;
    bool mentioned;             /* the nest mentions it */
    bool assigned;              /* a NAME target in the nest */
    bool written;               /* arrays: stored into */
    bool atomic;                /* arrays: augmented updates are atomic */
    const NgJitVarType *given;  /* its type when bound before the loop; NULL otherwise */
    NgJitModule module;         /* SYM_MODULE: which */
    Home home;                  /* locals */
    int red;                    /* locals: index of its reduction in the plan, -1 none */
    NgDType dt;                 /* locals: settled type, NG_NODTYPE until assigned */
    bool weak;                  /* locals: a Python scalar */
    NgDType adt;                /* locals: the type of the values the nest assigns, without the value
                                   before the loop (NG_NODTYPE until assigned; see assigned_types) */
    bool aweak;                 /* ... a Python scalar */
    bool sure;                  /* locals: bound to a new object by every iteration of the outer for
                                   loop (mark_sure) */
    bool keep_equal;            /* reductions: updated as s = max(s, e) (min) or as a ranked key by
                                   `>`/`<`: a result equal to s's value before the loop is Python's
                                   own object, which the launch keeps (found by a pass, kept) */
    bool fresh;                 /* reductions: NgJitLoopPlan reductions[].fresh (with a bound flag) */
    bool nonneg;                /* locals: never negative (only falls over the passes) */
    double flo;                 /* locals not bound before the loop: a lower bound of every value
                                   assigned (Val.flo; only falls over the passes, INFINITY until
                                   one is); a read's bound is at most 0.0, the value before any */
    bool chr;                   /* locals: holds a 1-character str (Val.chr) */
    int param;                  /* this pass: its parameter, -1 none */
    int var;                    /* this pass: a local's IR variable */
    bool unbound_out;           /* this pass: a cell of a name not bound before the loop, which
                                   has a bool cell of its own saying whether the loop assigned it */
    int bound_param, bound_var; /* this pass, unbound_out: that cell and the flag's variable */
    Sym *alias;          /* a helper's array parameter: the caller's array; a helper's module or
                            generator parameter: the caller's name for it */
    Sym *base;                  /* SYM_VIEW: the array it is part of */
    int nfixed;                 /* SYM_VIEW: leading indices fixed by the assignment */
    int fixed_var[NG_MAXDIMS];  /* SYM_VIEW, this pass: the variables holding them */
    int view_line;              /* SYM_VIEW: the line of the assignment that made it */
    bool view_unsure;           /* SYM_VIEW: an assignment making it checks its indices where it
                                   runs, and a parallel iteration runs on past a failed check: its
                                   reads check them too (found by a pass, kept) */
    bool is_array_param;        /* a helper's parameter given an array */
    bool bound;                 /* inside a for loop over it that never assigns it: reads are */
    Val bound_val;              /* ... this value, the loop's counter */
    const NgJitExpr *value;     /* SYM_EXPR: the expression */
    bool expanding;             /* SYM_EXPR: being read (a read inside its own expression fails) */
    int64_t nbuf;               /* SYM_BUF: its size (dt: its dtype, NG_NODTYPE until np.full's value
                                   has a type), */
    int brank;                  /* ... its axes, */
    int64_t bshape[NG_JIT_MAX_NEW_RANK]; /* ... their lengths (its elements in row-major order) */
    int buf_var[MAX_BUF_VARS];  /* SYM_BUF, this pass: its elements' variables */
    bool buf_mem;               /* SYM_BUF: indexed otherwise somewhere (a value from the data: found
                                   by a pass, kept for the next), or longer: one array variable */
    int buf_arr;                /* SYM_BUF with buf_mem, this pass: that variable, of nbuf + 1
                                   elements (the last for indices out of range) */
    int unroll;                 /* the counter of an inner range(c) loop that indexes a buffer's
                                   variables: 1, the loop is unrolled (the index a constant in
                                   each copy: the variable itself, no select), -1 not (its body
                                   has windows, which go with a loop); found by a pass, kept */
};

/* A helper function inlined at one call site: its own names and the type
 * of what it returns, settled over the passes like the loop's locals. */
enum { MAX_RETURNS = 8 }; /* the values a helper's `return a, b, ...` may give */

typedef struct Frame {
    const NgJitExpr *site;      /* the call */
    const NgJitStmt *def;       /* the helper's def */
    Sym *syms;                  /* by name_id: the helper's names */
    int *order;                 /* its name_ids: parameters, then first mention */
    int norder;
    bool wrapped;               /* a return before the end: body in while True ... break */
    bool tail;                  /* its returns end if-branches: what follows an if goes in
                                   its one branch that does not return (no while, no break) */
    int nret;                   /* what it returns: one value (1), a tuple of nret values
                                   (`return a, b`), 0 until known */
    NgDType ret_dt[MAX_RETURNS]; /* each value's dtype; NG_NODTYPE until known */
    bool ret_weak[MAX_RETURNS], ret_nonneg[MAX_RETURNS];
    int ret_var[MAX_RETURNS];   /* this pass: the variables the call's values are in (-1:
                                   none yet, when the pass found the tuple's length) */
} Frame;

struct Stmts;

/* A slice a[lo:lo + width] (a constant width) in an elementwise expression of rows: for_range
 * versions a loop on its lying inside its axis in every iteration (versioned). Or (lo NONE)
 * the length `len` of a row beside such slices (K's in np.sum(img[i:i + 3, j:j + 3] * K)),
 * which the loop over their elements counts to: the version takes it to be `width`. */
typedef struct Window {
    NgIrRef lo;         /* its start as written (int64) */
    NgIrRef n;          /* its axis' length */
    int64_t width;      /* its end minus its start, 1 .. MAX_WINDOW_WIDTH */
    NgIrRef start, len; /* what slice_window made of them: lo and width where it lies inside */
    NgIrRef held;       /* the length as rows read it (window_vars: a variable where it varies) */
} Window;

enum {
    MAX_WINDOWS = 16,       /* windows a loop is versioned on */
    MAX_WINDOW_WIDTH = 64,  /* (wider: its loop gains little from a constant trip count) */
};

typedef struct Lower {
    const NgJitAst *ast;
    const NgJitLoopPlan *plan;
    NgIrKernel *k;       /* the kernel of the current pass */
    Sym *syms;           /* by name_id */
    int *order;          /* name_ids in order of first mention */
    int norder;
    NgStatus st;         /* first error */
    bool changed;        /* a local's type or flag changed in this pass */
    bool no_flo;         /* locals' float bounds (Sym.flo) given up: from the 8th pass, so a
                            chain of locals bounding each other cannot keep the passes going */
    int unknown_line;    /* first read of a value without a type in this pass (0: none) */
    char unknown_msg[160]; /* what to say if it never gets one */
    int depth;           /* loops entered inside the outer loop */
    const NgJitStmt *par_inner; /* plan->inner_parallel: the loop nested in the outer one, when
                                   the nest is perfect and rectangular (lowered NG_IR_PARALLEL) */
    /* plan->boundscheck, and the stores' checks */
    int err_param;       /* the int64[4] error array: made first under boundscheck, else by the
                            first store whose index may be out of range; -1 before */
    int in_cond;         /* if and while bodies around the statement being lowered: a store there
                            may not run, so its index is checked where it runs, not before the loop */
    NgIrRef store_code;  /* as python_code, for the stores' ranges (hoisted_check): merged into it
                            last, so that another reason wins */
    bool jumped;         /* a break, continue or helper's return lowered in this pass: a store after
                            one may not run either (never reset: a later store is checked where it runs) */
    struct { int var; NgIrRef first, last, trips; } counters[8]; /* the range loops around the statement */
    int ncounters;       /* ... whose counter runs by 1 or -1 from `first` to `last` (both invariant),
                            `trips` > 0 when it runs at all: a store's affine index is checked at
                            their ends before the loop (hoisted_check) */
    bool pow_float;      /* the expression lowered next is an operand a float64 takes (s += e of a
                            float s, x + e of a float x): an int ** an int that may be negative gives
                            Python's value as a float64 (pow_as_float); each expression clears it */
    struct { NgIrRef i, n; } proven[16]; /* indices hoisted_check checked so, with their axes' lengths: */
    int nproven;         /* ... the same index on the same length needs no check (under an if too) */
    bool storing;        /* the indices being lowered are those of a store: checked even
                            under plan->unchecked (a write out of range would corrupt memory
                            that is not the array's) */
    /* plan->search */
    int search_param;    /* 1: the NG_JIT_FOUND cell; 2: the NG_JIT_START scalar */
    int trips_param, from_param, to_param; /* 1: the NG_JIT_TRIPS cell, NG_JIT_FROM, NG_JIT_TO */
    int phase_param;     /* plan->peel: the NG_JIT_PHASE scalar */
    int wrap_param;      /* the NG_JIT_WRAP cell (wrap_checks), -1 without */
    int raise_var;       /* what Python would raise, so far (NG_JIT_RAISE): made by the first
                            operation that may raise, -1 before */
    int raise_param;     /* its cell, made last when raise_var is */
    int first_var;       /* bool: the parallel loop's iteration has raised already (only its first
                            raise counts, as Python stops there), -1 before an operation may */
    bool in_iteration;   /* lowering the body of the parallel outer loop (first_var's scope) */
    bool in_body;        /* the same, around a parallel pair too (L->rank is the iteration's rank) */
    int rfirst_var;      /* int64: the first failing iteration's raise code (NG_JIT_RAISE_FIRST, a max
                            of ng_jit_raise_ranked codes), -1 before an operation in the body may raise */
    int rfirst_param;    /* its cell, made with raise_param */
    int rhigh_var;       /* int64: the bits above NG_JIT_RAISE_LOW_BITS of the first failing iteration
                            whose code has any (NG_JIT_RAISE_HIGH, a max), -1 before such a code */
    int rhigh_param;     /* its cell, made with raise_param */
    bool raise_full;     /* record_raise wrote raise_var (else, with rfirst_var, the loop leaves it) */
    int stop_var;        /* bool: a sequential kernel stopped on an index out of range under
                            boundscheck (stops; the error array says which), -1 before one may */
    NgIrRef python_code; /* the same for operations whose operands are the same in every
                            iteration (raise_or_python): checked before the loop */
    int python_param;    /* its NG_JIT_PYTHON cell, made by the outer loop after its body */
    bool python_body;    /* python_code has a check of the body's (not only range_python's) */
    uint64_t bounded;    /* the Python int parameters checked to be within MAG_PARAM (claim_bounds) */
    int scan_sum;        /* the name id of the accumulator of a scan of + (a sequential plan): its only
                            assignment is its update, so a small term keeps it small; -1: none */
    int found_var;       /* 1: the loop variable of the first iteration found so far */
    /* random numbers (draw) */
    struct Rng {         /* the generators the loop draws from (rng_of), NG_JIT_MAX_RNGS at most: */
        const char *name; /* the name holding it (np for np.random's functions) */
        int param;        /* int64: the launch's key of its numbers (NG_JIT_ARG_KEY), -1 before a draw */
    } rngs[NG_JIT_MAX_RNGS];
    int nrngs;
    struct Draws {       /* the variables of the iteration's draws, -1 before one (draw): */
        int n;           /* uint64: the blocks it drew so far */
        int spare[NG_JIT_MAX_RNGS][2], have[NG_JIT_MAX_RNGS][2]; /* a block's second 64 random bits
                                        (uint64) for uniforms and integers (0) or normals (1) of
                                        generator rngs[g], bool */
    } draws, top_draws;  /* of the outer loop's iteration; outside one (a while loop's kernel) */
    NgIrRef draw_iter;   /* the outer loop's variable in the iteration (NG_IR_NONE outside one) */
    /* a ranked reduction (plan->reductions[].ranked) */
    int rank_param, lock_param; /* the NG_JIT_RANK and NG_JIT_LOCK cells, -1 without */
    int rank_var;        /* the rank of the winner so far */
    Sym *zero_sym;       /* the parallel float max/min that keeps the first of equal values
                            (NgJitLowered.zero_of), NULL */
    NgIrRef rank;        /* the parallel loop's iteration rank (0, 1, ...), once it is lowered */
    NgIrRef guard;       /* when the expression being lowered runs (a short-circuit
                            operand, a branch): NG_IR_NONE for always */
    struct Stmts *pending; /* what must run before the statement being lowered: its bounds
                              checks, the helper functions its expressions call */
    /* helper functions inlined at call sites */
    Sym *main_syms;      /* the loop's own names (L->syms is the scope being lowered) */
    struct Frame **frames; /* one per call site, kept over the passes */
    int nframes, cap_frames;
    struct Frame *frame; /* the helper being inlined, NULL in the loop itself */
    NgIrRef elem;        /* inside np.sum(...) and the like: the element index, else NONE */
    struct Rows *rows;   /* ... and what that expression's loop needs (NULL elsewhere) */
    int inlining;        /* helpers being inlined around the current expression */
    int64_t unrolled;    /* copies of the statement being lowered that unrolled loops around it
                            make (unroll_loop), 1 outside them */
    int in_loop;         /* loop bodies being lowered around the current statement (the outer
                            loop's, inner loops', a helper's one-trip loop): in a sequential
                            kernel a raise there leaves them (stops) */
    int seq_loops;       /* in a parallel kernel, the loops in order (for, while) around the statement
                            inside the iteration: an index failing its check there leaves the innermost
                            (record_check: a `while x[j] < v` past the end of x ends) */
    Window windows[MAX_WINDOWS]; /* the slices' windows in the loop bodies being lowered, */
    int nwindows;        /* ... each loop's from where its body began (for_range) */
} Lower;

/* A growing list of statements. */
typedef struct Stmts {
    NgIrRef *v;
    int n, cap;
} Stmts;

enum {
    MAX_ROWS = 16,    /* rows of different lengths on one axis of an elementwise expression */
    MAX_ROW_RANK = 4, /* axes of an elementwise expression of rows (X[i] of a 5-d X: 4) */
    MAX_HOISTED = 16, /* reductions along an axis in one, made outside its innermost loop */
};

/* An elementwise expression of rows being lowered (np.sum(X[i] * Y[i]), np.max(x[a:b]),
 * np.sum(img[i:i + 3, j:j + 3] * K), a row store's value): its elements are read at the
 * variables elem_var (L->elem the last axis'), in loops made once the expression is lowered,
 * over the lengths its rows broadcast to (rows_length). Axes count from the last, as NumPy
 * aligns them: axis 0 is every row's last. */
typedef struct Rows {
    int rank;               /* the most axes a row of it has (1 for rows) */
    int elem_var[MAX_ROW_RANK]; /* per axis: the loop's variable (made when first needed) */
    NgIrRef lens[MAX_ROW_RANK][MAX_ROWS]; /* per axis: the length of each row read there (each
                                             IR node once) */
    int nlens[MAX_ROW_RANK];
    int split;              /* np.dot(a, b): the lengths from lens[0][split] on are b's rows' (a's and
                               b's must be one length, not broadcast); -1 elsewhere */
    int target_rank;        /* a row store: the stored part's axes, */
    NgIrRef target[MAX_ROW_RANK]; /* ... and their lengths (the value's rows broadcast to them) */
    struct {
        int var;            /* a slice whose length varies: the variable its elements' stride is in
                               (0 for a length 1 NumPy broadcasts), set by rows_length */
        NgIrRef len;
        int64_t step;
        int axis;
        bool second;        /* np.dot's second side */
    } strides[MAX_ROWS];
    int nstrides;
    Stmts *before;          /* where what runs once before the loop goes (a slice's window; a
                               reduction in a row store's value), */
    NgIrRef guard;          /* ... the guard there */
    bool in_iteration;      /* ... and L->in_iteration there */
    struct {
        const NgJitExpr *m, *v; /* a matrix product computed at the element (matvec), read again where
                                   a local naming it is (h * h): its value, under the guard it was made */
        NgIrRef guard;
        Val value;
    } products[4];
    int nproducts;
    bool hoists;            /* its builder (a store's loops, a reduction's) places `hoisted`: */
    struct {
        NgIrRef stmt;       /* a reduction along an axis in the expression (the mean of
                               X[i] - X[i].mean(axis=1, keepdims=True)), made once per element of
                               the loops over the axes it reads (`axes`, a bit per axis from the
                               last), before the loops over the others (wrap_loops) */
        unsigned axes;
        NgIrRef across;     /* ... its loop, where it goes along an axis before the last (a
                               column's sum over the rows: columns_at_once), else NONE */
    } hoisted[MAX_HOISTED];
    int nhoisted;
    bool masks;             /* its builder (a whole reduction, a store) takes a boolean mask's selection: */
    NgIrRef mask;           /* ... x[m]'s m at the element, once read (masked), */
    int mask_rank;          /* ... and the selection's axes (x's less m's, and one) */
    int shift;              /* while a mask of fewer axes than its array is read: its axes are the
                               array's first (axis d of it is d + shift, from the last) */
    unsigned touched;       /* the axes rows were read on (row_index; a bit per axis, from the last) */
} Rows;

/* The fields of Lower an elementwise expression of rows changes, saved (enter_rows, outside_rows). */
typedef struct RowsSaved {
    NgIrRef elem, guard;
    Stmts *pending;
    Rows *rows;
    bool in_iteration;
} RowsSaved;

static void append(Lower *L, Stmts *s, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return;
    if (s->n == s->cap) {
        int ncap = s->cap ? s->cap * 2 : 8;
        NgIrRef *p = ng_realloc(s->v, sizeof *p * (size_t)ncap);
        if (!p) {
            if (L->st == NG_OK)
                L->st = ng_error_set(NG_ERR_NOMEM, "out of memory lowering a loop");
            return;
        }
        s->v = p;
        s->cap = ncap;
    }
    s->v[s->n++] = r;
}

/* Puts r first in s. */
static void prepend(Lower *L, Stmts *s, NgIrRef r)
{
    append(L, s, r);
    if (r == NG_IR_NONE || L->st != NG_OK)
        return;
    memmove(s->v + 1, s->v, (size_t)(s->n - 1) * sizeof *s->v);
    s->v[0] = r;
}

/* Moves what waits in L->pending to the end of s. */
static void flush(Lower *L, Stmts *s)
{
    for (int i = 0; i < L->pending->n; i++)
        append(L, s, L->pending->v[i]);
    L->pending->n = 0;
}

/* Appends statement r to s, after the bounds checks of the expressions it
 * evaluates (L->pending). */
static void push(Lower *L, Stmts *s, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return;
    flush(L, s);
    append(L, s, r);
}

/* The block of s's statements (NG_IR_NONE when there are none); frees s. */
static NgIrRef seal(Lower *L, Stmts *s)
{
    NgIrRef r = s->n == 0 ? NG_IR_NONE : s->n == 1 ? s->v[0] : ng_ir_block(L->k, s->n, s->v);
    ng_free(s->v);
    *s = (Stmts){0};
    return r;
}

/* ---- errors ---- */

static Val fail(Lower *L, int line, NgStatus st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Records the first error as "file:line: msg"; returns NOVAL. */
static Val fail(Lower *L, int line, NgStatus st, const char *fmt, ...)
{
    if (L->st == NG_OK) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        L->st = ng_error_set(st, "%s:%d: %s", L->ast->filename ? L->ast->filename : "<jit>", line, msg);
    }
    return NOVAL;
}

static Val unsupported(Lower *L, int line, const char *what)
{
    return fail(L, line, NG_ERR_UNSUPPORTED, "%s is not supported in a compiled loop", what);
}

/* The source text of e, shortened, for messages. */
static const char *snip(const Lower *L, const NgJitExpr *e, char *buf, size_t n)
{
    size_t len = e->span.end_off > e->span.off ? e->span.end_off - e->span.off : 0;
    if (len > 60)
        len = 60;
    if (len >= n)
        len = n - 1;
    memcpy(buf, L->ast->src + e->span.off, len);
    buf[len] = 0;
    for (char *c = buf; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return buf;
}

/* Python's name of a value's type, for type errors. */
static const char *type_name(Val v)
{
    if (v.weak)
        return v.dt == NG_BOOL ? "bool" : ng_dtype_is_float(v.dt) ? "float" : ng_dtype_is_complex(v.dt) ? "complex" : "int";
    return ng_dtype_info(v.dt)->name;
}

/* ---- walking the nest for names ---- */

typedef void (*NameFn)(void *ctx, const NgJitExpr *name);

static void walk_expr(const NgJitExpr *e, NameFn fn, void *ctx)
{
    if (!e)
        return;
    switch (e->kind) {
    case NG_JIT_E_NAME:
        fn(ctx, e);
        return;
    case NG_JIT_E_ATTR:
        walk_expr(e->lhs, fn, ctx);
        return;
    case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG: case NG_JIT_E_CONST:
        return;
    case NG_JIT_E_STR:
        for (int i = 0; i < e->nitems; i++)
            walk_expr(e->items[i], fn, ctx);
        return;
    case NG_JIT_E_LISTCOMP: case NG_JIT_E_SETCOMP: case NG_JIT_E_DICTCOMP: case NG_JIT_E_GENEXP:
    case NG_JIT_E_LAMBDA:
        return; /* never compiled: lowering rejects them */
    case NG_JIT_E_DICT:
        for (int i = 0; i < e->nitems; i++) {
            if (e->keys[i])
                walk_expr(e->keys[i], fn, ctx);
            walk_expr(e->items[i], fn, ctx);
        }
        return;
    case NG_JIT_E_COMPARE:
        for (int i = 0; i < e->nitems; i++)
            walk_expr(e->items[i], fn, ctx);
        return;
    case NG_JIT_E_CALL:
        walk_expr(e->lhs, fn, ctx);
        for (int i = 0; i < e->nitems; i++)
            walk_expr(e->items[i], fn, ctx);
        for (int i = 0; i < e->nkeywords; i++)
            walk_expr(e->keywords[i].value, fn, ctx);
        return;
    case NG_JIT_E_IFEXP:
        walk_expr(e->lhs, fn, ctx);
        walk_expr(e->cond, fn, ctx);
        walk_expr(e->rhs, fn, ctx);
        return;
    default:
        walk_expr(e->lhs, fn, ctx);
        walk_expr(e->rhs, fn, ctx);
        walk_expr(e->cond, fn, ctx);
        for (int i = 0; i < e->nitems; i++)
            walk_expr(e->items[i], fn, ctx);
        return;
    }
}

static void walk_block(NgJitBlock b, NameFn fn, void *ctx);

static void walk_stmt(const NgJitStmt *s, NameFn fn, void *ctx)
{
    switch (s->kind) {
    case NG_JIT_S_ASSIGN:
        for (int i = 0; i < s->ntargets; i++)
            walk_expr(s->targets[i], fn, ctx);
        walk_expr(s->value, fn, ctx);
        break;
    case NG_JIT_S_AUGASSIGN: case NG_JIT_S_ANNASSIGN:
        walk_expr(s->target, fn, ctx);
        walk_expr(s->value, fn, ctx);
        break;
    case NG_JIT_S_FOR:
        walk_expr(s->target, fn, ctx);
        walk_expr(s->test, fn, ctx);
        break;
    case NG_JIT_S_DEF: case NG_JIT_S_OTHER:
        return; /* rejected by the lowering */
    default:
        walk_expr(s->value, fn, ctx);
        walk_expr(s->test, fn, ctx);
        break;
    }
    walk_block(s->body, fn, ctx);
    walk_block(s->orelse, fn, ctx);
}

static void walk_block(NgJitBlock b, NameFn fn, void *ctx)
{
    for (int i = 0; i < b.n; i++)
        walk_stmt(b.stmts[i], fn, ctx);
}

/* The array name a subscript chain a[i][j] starts from, or NULL. */
static const NgJitExpr *subscript_base(const NgJitExpr *e)
{
    while (e->kind == NG_JIT_E_SUBSCRIPT)
        e = e->lhs;
    return e->kind == NG_JIT_E_NAME ? e : NULL;
}

/* Marks the names a store target assigns, and the arrays it writes. */
static void mark_target(Lower *L, const NgJitExpr *t)
{
    switch (t->kind) {
    case NG_JIT_E_NAME:
        L->syms[t->name_id].assigned = true;
        break;
    case NG_JIT_E_SUBSCRIPT: {
        const NgJitExpr *b = subscript_base(t);
        if (b)
            L->syms[b->name_id].written = true;
        break;
    }
    case NG_JIT_E_TUPLE: case NG_JIT_E_LIST:
        for (int i = 0; i < t->nitems; i++)
            mark_target(L, t->items[i]);
        break;
    case NG_JIT_E_STARRED:
        mark_target(L, t->lhs);
        break;
    default:
        break;
    }
}

static void mark_block(Lower *L, NgJitBlock b);

static void mark_stmt(Lower *L, const NgJitStmt *s)
{
    switch (s->kind) {
    case NG_JIT_S_ASSIGN:
        for (int i = 0; i < s->ntargets; i++)
            mark_target(L, s->targets[i]);
        break;
    case NG_JIT_S_AUGASSIGN: case NG_JIT_S_ANNASSIGN: case NG_JIT_S_FOR:
        mark_target(L, s->target);
        break;
    default:
        break;
    }
    mark_block(L, s->body);
    mark_block(L, s->orelse);
}

static void mark_block(Lower *L, NgJitBlock b)
{
    for (int i = 0; i < b.n; i++)
        mark_stmt(L, b.stmts[i]);
}

typedef struct NameList {
    bool *seen;   /* by name_id */
    int *ids;     /* name_ids in first-mention order */
    int n;
} NameList;

static void collect_name(void *ctx, const NgJitExpr *e)
{
    NameList *nl = ctx;
    if (nl->seen[e->name_id])
        return;
    nl->seen[e->name_id] = true;
    nl->ids[nl->n++] = e->name_id;
}

/* The name_ids the loop mentions, first mention first: *ids (ng_malloc'd,
 * room for ast->nnames) and *n. */
static NgStatus loop_name_ids(const NgJitAst *ast, const NgJitStmt *loop, int **ids, int *n)
{
    size_t cap = (size_t)ast->nnames + 1;
    NameList nl = {ng_calloc(cap, sizeof(bool)), ng_malloc(cap * sizeof(int)), 0};
    if (!nl.seen || !nl.ids) {
        ng_free(nl.seen);
        ng_free(nl.ids);
        return ng_error_set(NG_ERR_NOMEM, "out of memory lowering a loop");
    }
    walk_stmt(loop, collect_name, &nl);
    ng_free(nl.seen);
    *ids = nl.ids;
    *n = nl.n;
    return NG_OK;
}

NgStatus ng_jit_loop_names(const NgJitAst *ast, const NgJitStmt *loop, const char ***names, int *n)
{
    int *ids, nids;
    *names = NULL;
    *n = 0;
    NgStatus st = loop_name_ids(ast, loop, &ids, &nids);
    if (st != NG_OK)
        return st;
    if (nids) {
        *names = ng_malloc(sizeof **names * (size_t)nids);
        if (!*names) {
            ng_free(ids);
            return ng_error_set(NG_ERR_NOMEM, "out of memory lowering a loop");
        }
        for (int i = 0; i < nids; i++)
            (*names)[i] = ast->names[ids[i]];
    }
    *n = nids;
    ng_free(ids);
    return NG_OK;
}

/* ---- types ---- */

static NgKind kind_of(NgDType dt) { return ng_dtype_info(dt)->kind; }

/* Rank of a weak value's kind: bool < int < float < complex. */
static int weak_rank(NgDType dt)
{
    NgKind k = kind_of(dt);
    return k == NG_KIND_BOOL ? 0 : k == NG_KIND_FLOAT ? 2 : k == NG_KIND_COMPLEX ? 3 : 1;
}

static NgDType weak_dtype(int rank)
{
    return rank == 0 ? NG_BOOL : rank == 1 ? NG_INT64 : rank == 2 ? NG_FLOAT64 : NG_COMPLEX128;
}

/* NEP 50 promotion of two values' types; NG_NODTYPE when there is none. */
static void promote(NgDType a, bool aw, NgDType b, bool bw, NgDType *dt, bool *weak)
{
    *weak = aw && bw;
    if (aw && bw) {
        int ra = weak_rank(a), rb = weak_rank(b);
        *dt = weak_dtype(ra > rb ? ra : rb);
    } else if (aw) {
        *dt = ng_dtype_promote_weak(b, kind_of(a));
    } else if (bw) {
        *dt = ng_dtype_promote_weak(a, kind_of(b));
    } else {
        *dt = ng_dtype_promote(a, b);
    }
}

/* Whether NumPy casts `from` to `to` under casting='same_kind' (what an in-place ufunc stores):
 * a safe cast, or one to a kind not below its own (bool, uint, int, float, complex). */
static bool same_kind_cast(NgDType from, NgDType to)
{
    static const int rank[] = {[NG_KIND_BOOL] = 0, [NG_KIND_UINT] = 1, [NG_KIND_INT] = 2, [NG_KIND_FLOAT] = 3,
                               [NG_KIND_COMPLEX] = 4};
    return ng_dtype_can_cast_safe(from, to) || rank[ng_dtype_info(from)->kind] <= rank[ng_dtype_info(to)->kind];
}

/* Dtypes a compiled loop computes in. */
static bool usable(NgDType dt)
{
    return dt >= 0 && dt < NG_NTYPES && ng_dtype_info(dt)->supported;
}

/* x rounded to the nearest float16 (ties to even), as a double: what a
 * constant becomes in float16 arithmetic (NumPy converts the Python number
 * to the array's half first). */
/* The values of integer dtype dt: [*lo, *hi] (uint64's above INT64_MAX left out: a kernel's
 * Python ints are int64). */
static void int_range(NgDType dt, int64_t *lo, int64_t *hi)
{
    int bits = 8 * (int)ng_dtype_info(dt)->itemsize;
    bool sign = ng_dtype_is_signed(dt);
    *lo = !sign ? 0 : bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
    *hi = bits == 64 ? INT64_MAX : sign ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
}

static double round_half(double x)
{
    if (x != x || x == 0 || isinf(x))
        return x;
    int e;
    frexp(fabs(x), &e); /* |x| in [2^(e-1), 2^e) */
    int ex = e - 1 < -14 ? -14 : e - 1; /* (subnormals: a fixed quantum of 2^-24) */
    double q = ldexp(1.0, ex - 10), r = nearbyint(fabs(x) / q) * q;
    return copysign(r >= 65520.0 ? INFINITY : r, x);
}

static Val mkval(NgIrRef r, NgDType dt, bool weak, bool nonneg)
{
    if (r == NG_IR_NONE)
        return NOVAL;
    return (Val){r, dt, weak, nonneg, nonneg ? 0 : INT64_MIN, 0, -INFINITY, false, NG_IR_NONE, false, 0, 0, false};
}

/* Val.within of axis `axis` of array parameter `param` */
static int axis_key(int param, int axis) { return 1 + param * NG_MAXDIMS + axis; }

/* v converted to dt; a constant is converted here (exact cases only). */
static NgIrRef as(Lower *L, Val v, NgDType dt)
{
    if (v.r == NG_IR_NONE || v.dt == dt)
        return ng_ir_cast(L->k, dt, v.r);
    const NgIrNode *n = ng_ir_node(L->k, v.r);
    if (n->kind == NG_IR_CONST && ng_dtype_is_complex((NgDType)n->dtype) && ng_dtype_is_complex(dt))
        return dt == NG_COMPLEX64 ? ng_ir_const_c(L->k, dt, (double)(float)n->c.f, (double)(float)n->im)
                                  : ng_ir_const_c(L->k, dt, n->c.f, n->im);
    if (n->kind == NG_IR_CONST && !ng_dtype_is_complex((NgDType)n->dtype)) {
        bool from_float = ng_dtype_is_float((NgDType)n->dtype);
        if (dt == NG_BOOL)
            return ng_ir_const_i(L->k, dt, from_float ? n->c.f != 0 : n->c.i != 0);
        if (dt == NG_FLOAT16)
            return ng_ir_const_f(L->k, dt, round_half(from_float ? n->c.f : (double)n->c.i));
        if (ng_dtype_is_float(dt) && from_float)
            return ng_ir_const_f(L->k, dt, dt == NG_FLOAT32 ? (double)(float)n->c.f : n->c.f);
        if (ng_dtype_is_float(dt) && n->c.i == (int64_t)(double)n->c.i)
            return ng_ir_const_f(L->k, dt, (double)n->c.i);
        if (dt == NG_INT64 && !from_float && n->dtype != NG_UINT64)
            return ng_ir_const_i(L->k, dt, n->c.i);
    }
    return ng_ir_cast(L->k, dt, v.r);
}

static bool is_const(const Lower *L, NgIrRef r) { return r != NG_IR_NONE && ng_ir_node(L->k, r)->kind == NG_IR_CONST; }

static int64_t const_i(const Lower *L, NgIrRef r) { return ng_ir_node(L->k, r)->c.i; }

/* Real constant r's value as a double (an integer's converted). */
static double const_value(const Lower *L, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(L->k, r);
    return ng_dtype_is_float((NgDType)n->dtype) ? n->c.f : (double)n->c.i;
}

/* v's lower bound: its value if a constant int. */
static int64_t lo_of(const Lower *L, Val v)
{
    if (v.r != NG_IR_NONE && ng_dtype_is_int(v.dt) && is_const(L, v.r) && v.dt != NG_UINT64)
        return const_i(L, v.r);
    return v.lo;
}

/* v known to be at least lo. */
static Val at_least(Val v, int64_t lo)
{
    if (lo > v.lo && v.dt == NG_INT64) {
        v.lo = lo;
        v.nonneg = v.nonneg || lo >= 0;
    }
    return v;
}

static Val int_const(Lower *L, int64_t v) { return mkval(ng_ir_const_i(L->k, NG_INT64, v), NG_INT64, true, v >= 0); }

static Val zero_of(Lower *L, NgDType dt)
{
    NgIrRef z = ng_dtype_is_complex(dt) ? ng_ir_const_c(L->k, dt, 0.0, 0.0)
              : ng_dtype_is_float(dt)   ? ng_ir_const_f(L->k, dt, 0.0)
                                        : ng_ir_const_i(L->k, dt, 0);
    return mkval(z, dt, false, true);
}

/* Fails (a TypeError, as Python's) when v is complex: `what` takes real
 * numbers only. False after the error (or for no value). */
static bool real_only(Lower *L, Val v, int line, const char *what)
{
    if (v.r == NG_IR_NONE || !ng_dtype_is_complex(v.dt))
        return v.r != NG_IR_NONE;
    fail(L, line, NG_ERR_TYPE, "%s takes real numbers, not '%s'", what, type_name(v));
    return false;
}

/* Python truthiness, as a bool. */
static Val truth(Lower *L, Val v)
{
    if (v.r == NG_IR_NONE || v.dt == NG_BOOL)
        return v;
    return mkval(ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, v.r, zero_of(L, v.dt).r), NG_BOOL, v.weak, true);
}

/* ---- names ---- */

static Sym *sym_of(Lower *L, const NgJitExpr *name) { return &L->syms[name->name_id]; }

/* The module a name without a value stands for (np, numpy, math, cmath, random), or
 * NG_JIT_MOD_NONE. */
static NgJitModule module_named(const char *name)
{
    if (strcmp(name, "np") == 0 || strcmp(name, "numpy") == 0)
        return NG_JIT_MOD_NUMPY;
    if (strcmp(name, "math") == 0)
        return NG_JIT_MOD_MATH;
    if (strcmp(name, "random") == 0)
        return NG_JIT_MOD_RANDOM;
    return strcmp(name, "cmath") == 0 ? NG_JIT_MOD_CMATH : NG_JIT_MOD_NONE;
}

static void raise_or_python(Lower *L, NgIrRef bad, NgJitRaise what, int line);
static void raise_told_or_python(Lower *L, NgIrRef bad, int64_t code);
static void python_if(Lower *L, NgIrRef bad, int64_t code);
static bool never_negative(const Lower *L, Val v);

/* ---- Python ints: 64 bits here, unbounded in Python ----
 * Arithmetic of two Python ints (weak int64) that may leave 64 bits is checked (int_overflow):
 * an overflow is NG_JIT_RAISE_INT_OVERFLOW, which the launch turns into running the loop as
 * Python where the kernel wrote nothing (the exact answer), else an OverflowError naming the
 * line. No check where bounds of the operands prove the result fits: constants, bools, NumPy
 * integers of fewer than 64 bits made Python ints, lengths of axes (MAG_LENGTH: the launch
 * takes no axis of 2**62 elements or more), Python int parameters (MAG_PARAM, checked before
 * the loop when the bound spares a check: claim_bounds), range counters (between their start
 * and stop), and sums and products of those. */
#define MAG_LENGTH 0x1p62
#define MAG_PARAM 0x1p61

/* A bound of |r| for an integer expression r (INFINITY: none known); *params gets the
 * parameters the bound assumes within MAG_PARAM. */
static double mag_ir(const Lower *L, NgIrRef r, uint64_t *params, int depth)
{
    const NgIrNode *n = ng_ir_node(L->k, r);
    NgDType dt = (NgDType)n->dtype;
    if (dt == NG_BOOL)
        return 1.0;
    if (!ng_dtype_is_int(dt))
        return INFINITY;
    if (ng_dtype_info(dt)->itemsize < 8)
        return ldexp(1.0, 8 * ng_dtype_info(dt)->itemsize);
    switch ((NgIrKind)n->kind) {
    case NG_IR_CONST:
        return dt == NG_UINT64 ? (double)(uint64_t)n->c.i : fabs((double)n->c.i);
    case NG_IR_SHAPE:
        return MAG_LENGTH;
    case NG_IR_SCALAR:
        if (dt != NG_INT64 || n->a >= 64)
            return INFINITY;
        *params |= UINT64_C(1) << n->a;
        return MAG_PARAM;
    case NG_IR_CAST:
        return dt == NG_INT64 && depth < 8 ? mag_ir(L, ng_ir_kid(L->k, r, 0), params, depth + 1) : INFINITY;
    case NG_IR_BINARY: {
        if (depth >= 8 || (n->op != NG_OP_ADD && n->op != NG_OP_SUB && n->op != NG_OP_MUL))
            return INFINITY;
        double x = mag_ir(L, ng_ir_kid(L->k, r, 0), params, depth + 1);
        double y = x < INFINITY ? mag_ir(L, ng_ir_kid(L->k, r, 1), params, depth + 1) : INFINITY;
        return n->op == NG_OP_MUL ? x * y : x + y;
    }
    default:
        return INFINITY;
    }
}

/* A bound of |v| for an integer value (INFINITY: none), *params as mag_ir's. */
static double mag_of(const Lower *L, Val v, uint64_t *params)
{
    if (v.r == NG_IR_NONE || (!ng_dtype_is_int(v.dt) && v.dt != NG_BOOL))
        return INFINITY;
    if (v.mag > 0) {
        *params |= v.magp;
        return v.mag;
    }
    if (v.within > 0)
        return MAG_LENGTH; /* (a valid index of an axis) */
    if (v.within < 0)
        return (double)-v.within;
    return mag_ir(L, v.r, params, 0);
}

/* v with its bound (mag_of's) kept, for a value about to be named by a variable (pin). */
static Val keep_mag(const Lower *L, Val v)
{
    uint64_t params = 0;
    double m = mag_of(L, v, &params);
    if (m < INFINITY && m > 0)
        v.mag = m, v.magp = params;
    return v;
}

/* The parameters whose bound spared a check: the launch checks each (NgJitArg.bits, fill_info),
 * and a Python int beyond MAG_PARAM runs the loop as Python. */
static void claim_bounds(Lower *L, uint64_t params, int line)
{
    (void)line;
    L->bounded |= params; /* (the launch checks them: NgJitArg.bits) */
}

/* Whether r is made of constants only. */
static bool const_expr(const Lower *L, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(L->k, r);
    if (n->kind == NG_IR_CONST)
        return true;
    if (n->kind != NG_IR_UNARY && n->kind != NG_IR_BINARY && n->kind != NG_IR_CAST)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (!const_expr(L, ng_ir_kid(L->k, r, i)))
            return false;
    return true;
}

/* The reduction variable of the parallel plan that v reads, or a sequential scan's accumulator
 * of + (NULL: none). */
static const Sym *reduction_read(const Lower *L, Val v)
{
    if ((!L->plan->parallel && L->scan_sum < 0) || v.r == NG_IR_NONE)
        return NULL;
    const NgIrNode *n = ng_ir_node(L->k, v.r);
    if (n->kind != NG_IR_VAR || n->nkids)
        return NULL;
    for (int i = 0; i < L->norder; i++) {
        const Sym *s = &L->syms[L->order[i]];
        if (s->kind == SYM_LOCAL && s->var == n->a && (L->plan->parallel ? s->red >= 0 : L->order[i] == L->scan_sum))
            return s;
    }
    return NULL;
}

#define MAG_SUMMAND 0x1p10 /* a parallel Python int sum's terms: below it, no partial leaves 2**62 */

/* r = a `iop` b of two Python ints (dt int64) where Python's int would leave 64 bits: raise
 * NG_JIT_RAISE_INT_OVERFLOW (see above); *v gets the result's bound where one is known. A
 * parallel sum of Python ints `s += e` combines its threads' partials unchecked: it is taken
 * only where each term is below MAG_SUMMAND (a partial then stays below 2**62 for 2**52
 * iterations, more than a loop runs) and s is below 2**62 before the loop (checked there);
 * other sums and products of Python ints fail the parallel lowering, and the launch runs the
 * loop in order, where every step is checked. */
static void int_overflow(Lower *L, NgOp iop, Val a, Val b, Val *v, int line)
{
    NgIrKernel *k = L->k;
    if (L->st != NG_OK || v->r == NG_IR_NONE || v->dt != NG_INT64 || !v->weak || L->plan->scan)
        return; /* (a scan's phases: taken only where the loop in order has no check, over its range) */
    const Sym *red = reduction_read(L, a);
    if (!red && iop != NG_OP_SUB)
        red = reduction_read(L, b);
    uint64_t pa = 0, pb = 0;
    double ma = mag_of(L, a, &pa), mb = mag_of(L, b, &pb);
    if (red && (iop == NG_OP_ADD || iop == NG_OP_SUB)) {
        double me = reduction_read(L, a) == red ? mb : ma;
        if (me < MAG_SUMMAND) {
            claim_bounds(L, reduction_read(L, a) == red ? pb : pa, line);
            ((Sym *)red)->small_start = true; /* (s before the loop within 2**62: the launch checks it) */
            return;
        }
        if (L->plan->parallel) {
            fail(L, line, NG_ERR_UNSUPPORTED, "a parallel sum of Python ints ('%s') whose terms may be large "
                 "(each step of it is checked in order)", red->name);
            return;
        }
    }
    if (red && iop == NG_OP_MUL && L->plan->parallel) {
        fail(L, line, NG_ERR_UNSUPPORTED, "a parallel product of Python ints ('%s') (each step of it is checked "
             "in order)", red->name);
        return;
    }
    if (const_expr(L, a.r) && const_expr(L, b.r))
        return; /* (a constant expression, 2 ** 63 - 1: its wrap is exact where its end fits) */
    NgIrRef x = as(L, a, NG_INT64), y = as(L, b, NG_INT64), r = v->r, bad = NG_IR_NONE;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0);
    double m = INFINITY;
    switch (iop) {
    case NG_OP_ADD: case NG_OP_SUB:
        m = ma + mb;
        if (m >= 0x1p63) /* the operands' signs agree (add) or differ (sub) and the result's does not */
            bad = ng_ir_binary(k, NG_OP_LT, NG_BOOL,
                               ng_ir_binary(k, NG_OP_BITAND, NG_INT64,
                                            ng_ir_binary(k, NG_OP_BITXOR, NG_INT64, x, iop == NG_OP_ADD ? r : y),
                                            ng_ir_binary(k, NG_OP_BITXOR, NG_INT64, iop == NG_OP_ADD ? y : x, r)),
                               zero);
        break;
    case NG_OP_MUL:
        m = ma * mb;
        if (m >= 0x1p63) { /* the float64 product: within 3 ulps of the exact one, so 2**63 - 8192 */
            NgIrRef f = ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, x), ng_ir_cast(k, NG_FLOAT64, y));
            bad = ng_ir_binary(k, NG_OP_GE, NG_BOOL, ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, f),
                               ng_ir_const_f(k, NG_FLOAT64, 0x1p63 - 8192.0));
        }
        break;
    case NG_OP_POW: /* (b >= 0: a negative one raised or made floats) */
        m = is_const(L, b.r) ? pow(ma, (double)const_i(L, b.r)) : INFINITY;
        if (m >= 0x1p63) {
            NgIrRef f = ng_ir_binary(k, NG_OP_POW, NG_FLOAT64, ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, x)),
                                     ng_ir_cast(k, NG_FLOAT64, y));
            bad = ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, 0x1p63 * (1.0 - 0x1p-40)));
        }
        break;
    case NG_OP_LSHIFT: { /* (b < 0 raised already) */
        int64_t c = is_const(L, b.r) ? const_i(L, b.r) : -1;
        m = c >= 0 && c < 63 ? ldexp(ma, (int)c) : INFINITY;
        if (m >= 0x1p63) {
            NgIrRef big = ng_ir_binary(k, NG_OP_GE, NG_BOOL, y, ng_ir_const_i(k, NG_INT64, 63));
            NgIrRef shifted = ng_ir_select(k, big, zero, y);
            NgIrRef back = ng_ir_binary(k, NG_OP_RSHIFT, NG_INT64,
                                        ng_ir_binary(k, NG_OP_LSHIFT, NG_INT64, x, shifted), shifted);
            bad = ng_ir_select(k, big, ng_ir_binary(k, NG_OP_NE, NG_BOOL, x, zero),
                               ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_GE, NG_BOOL, y, zero),
                                            ng_ir_binary(k, NG_OP_NE, NG_BOOL, back, x)));
        }
        break;
    }
    case NG_OP_FLOORDIV: /* only -2**63 // -1 */
        m = ma;
        if (ma >= 0x1p63 && !(is_const(L, b.r) && const_i(L, b.r) != -1) && !never_negative(L, b))
            bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, x, ng_ir_const_i(k, NG_INT64, INT64_MIN)),
                               ng_ir_binary(k, NG_OP_EQ, NG_BOOL, y, ng_ir_const_i(k, NG_INT64, -1)));
        break;
    default:
        return;
    }
    if (bad == NG_IR_NONE) {
        claim_bounds(L, pa | pb, line);
        if (m < 0x1p63 && m > 0)
            v->mag = m, v->magp = pa | pb;
        return;
    }
    raise_or_python(L, bad, NG_JIT_RAISE_INT_OVERFLOW, line);
}

/* -x or abs(x) of a Python int (dt int64): only -2**63 leaves 64 bits. */
static void neg_overflow(Lower *L, Val x, Val *v, int line)
{
    NgIrKernel *k = L->k;
    if (L->st != NG_OK || v->r == NG_IR_NONE || v->dt != NG_INT64 || !v->weak || !x.weak || L->plan->scan ||
        const_expr(L, x.r))
        return;
    uint64_t params = 0;
    double m = mag_of(L, x, &params);
    if (m < 0x1p63) {
        claim_bounds(L, params, line);
        v->mag = m, v->magp = params;
        return;
    }
    raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, as(L, x, NG_INT64), ng_ir_const_i(k, NG_INT64, INT64_MIN)),
                    NG_JIT_RAISE_INT_OVERFLOW, line);
}

static void raise_if(Lower *L, NgIrRef bad, NgJitRaise what, int line);
static bool invariant(const Lower *L, NgIrRef r);

/* Enters an elementwise expression of rows (rows: its record, filled here):
 * its elements are read at variable `elem` on the last axis (the innermost
 * loop's), the statements they need go into *inner (the innermost loop's
 * body, which the loops' guard covers). */
static RowsSaved enter_rows(Lower *L, Rows *rows, int elem, Stmts *inner)
{
    RowsSaved was = {L->elem, L->guard, L->pending, L->rows, L->in_iteration};
    *rows = (Rows){.split = -1, .before = L->pending, .guard = L->guard, .in_iteration = L->in_iteration,
                   .mask = NG_IR_NONE};
    for (int d = 0; d < MAX_ROW_RANK; d++)
        rows->elem_var[d] = d ? -1 : elem, rows->target[d] = NG_IR_NONE;
    L->elem = ng_ir_varref(L->k, elem);
    L->rows = rows;
    L->pending = inner;
    L->guard = NG_IR_NONE;
    L->in_iteration = false; /* (a loop: see raise_value_if) */
    return was;
}

/* How deep in loops over axes order[0] (the outermost) .. order[n - 1] rows' hoisted reduction h
 * goes: inside the loop of the deepest of the axes it reads (-1: before them all). */
static int hoist_level(const Rows *rows, int h, const int *order, int n)
{
    int level = -1;
    for (int q = 0; q < n; q++)
        if (rows->hoisted[h].axes >> order[q] & 1)
            level = q;
    return level;
}

/* Puts rows' hoisted reductions that read the innermost loop's axis (order[n - 1]) at the start
 * of its body `inner`, in their order (those that read only other axes: wrap_loops). */
static void hoist_inner(Lower *L, const Rows *rows, const int *order, int n, Stmts *inner)
{
    Stmts both = {0};
    for (int h = 0; h < rows->nhoisted; h++)
        if (hoist_level(rows, h, order, n) == n - 1)
            append(L, &both, rows->hoisted[h].stmt);
    if (both.n == 0)
        return;
    for (int i = 0; i < inner->n; i++)
        append(L, &both, inner->v[i]);
    ng_free(inner->v);
    *inner = both;
}

static NgIrRef columns_at_once(Lower *L, const Rows *rows, const int *order, int n, int level, int c, NgIrRef count,
                               Stmts *inner);

/* `loop` (over the innermost axis, order[n - 1]) in the loops over order[n - 2] .. order[0],
 * from 0 to count[axis] by variable var[axis], each of rows' hoisted reductions that does not
 * read order[n - 1] inside the loops over the axes it reads, before the loop over the next;
 * `blocks` (a store's loops): a loop over the last axis taking its reductions along an earlier
 * axis a block of columns at once where it can (columns_at_once). */
static NgIrRef wrap_loops(Lower *L, const Rows *rows, const int *order, int n, const int *var,
                          const NgIrRef *count, NgIrRef loop, bool blocks)
{
    NgIrKernel *k = L->k;
    for (int q = n - 2; q >= -1; q--) {
        Stmts here = {0};
        if (q >= 0 && blocks) {
            append(L, &here, loop);
            NgIrRef b = columns_at_once(L, rows, order, n, q, var[order[q]], count[order[q]], &here);
            if (b != NG_IR_NONE) {
                loop = b;
                continue;
            }
            here.n = 0;
        }
        for (int h = 0; h < rows->nhoisted; h++)
            if (hoist_level(rows, h, order, n) == q)
                append(L, &here, rows->hoisted[h].stmt);
        if (here.n) {
            append(L, &here, loop);
            loop = seal(L, &here);
        }
        ng_free(here.v);
        if (q >= 0)
            loop = ng_ir_for(k, var[order[q]], ng_ir_const_i(k, NG_INT64, 0), count[order[q]],
                             ng_ir_const_i(k, NG_INT64, 1), loop, 0);
    }
    return loop;
}

/* Steps out of the elementwise expression, to what runs once before its loop. */
static RowsSaved outside_rows(Lower *L)
{
    RowsSaved was = {L->elem, L->guard, L->pending, L->rows, L->in_iteration};
    L->elem = NG_IR_NONE;
    L->pending = L->rows->before;
    L->guard = L->rows->guard;
    L->in_iteration = L->rows->in_iteration;
    L->rows = NULL;
    return was;
}

static void restore_rows(Lower *L, RowsSaved was)
{
    L->elem = was.elem;
    L->guard = was.guard;
    L->pending = was.pending;
    L->rows = was.rows;
    L->in_iteration = was.in_iteration;
}

/* Whether a row of length n is read at the loop's element itself: one whose
 * length is the same in the whole kernel (a whole axis, a slice of bounds the
 * loop does not change). Another slice's (x[i:i + 3]) may be NumPy's broadcast
 * length 1 instead, and is read at its one element then (window_index). */
static bool direct_row(const Lower *L, NgIrRef n) { return invariant(L, n); }

/* The loop variable of axis d (from the last) of the elementwise expression. */
static NgIrRef elem_at(Lower *L, int d)
{
    Rows *r = L->rows;
    if (r->elem_var[d] < 0)
        r->elem_var[d] = ng_ir_var(L->k, NG_INT64);
    return ng_ir_varref(L->k, r->elem_var[d]);
}

/* A row of length n on axis d (from the last) read in the elementwise
 * expression: the index of the element the loop is at there, for a row read
 * at it (rows_length makes the loop's length one its rows broadcast to). */
static NgIrRef row_index(Lower *L, NgIrRef n, int d, int line)
{
    Rows *r = L->rows;
    d += r->shift;
    if (d >= MAX_ROW_RANK) {
        unsupported(L, line, "an expression of arrays of more than 4 axes");
        return L->elem;
    }
    int i = r->split < 0 || d ? 0 : r->split;
    while (i < r->nlens[d] && r->lens[d][i] != n)
        i++;
    if (i == r->nlens[d]) {
        if (r->nlens[d] == MAX_ROWS) {
            unsupported(L, line, "an expression of rows of more than 16 different lengths");
            return L->elem;
        }
        r->lens[d][r->nlens[d]++] = n;
    }
    r->rank = d + 1 > r->rank ? d + 1 : r->rank;
    r->touched |= 1u << d;
    return elem_at(L, d);
}

/* An axis d (from the last) of length 1 in the elementwise expression (x[:, None], a reduction
 * with keepdims=True): NumPy broadcasts it to the other rows' length there, or it is 1. */
static void new_axis(Lower *L, int d, int line)
{
    d += L->rows->shift;
    if (d >= MAX_ROW_RANK) {
        unsupported(L, line, "an expression of arrays of more than 4 axes");
        return;
    }
    elem_at(L, d); /* (its loop's variable, for the loop over the other rows' length) */
    L->rows->rank = d + 1 > L->rows->rank ? d + 1 : L->rows->rank;
}

/* The length rows of lengths lens[0..nlens) broadcast to (NONE for none),
 * or where target is not NONE, the length they must broadcast to. A row read
 * at the element itself (direct_row) of another length, or of length 1 beside
 * rows whose lengths vary, leaves the loop to Python (NumPy broadcasts it,
 * or raises); where rows whose lengths vary do not broadcast, *bad (or-ed)
 * holds. */
static NgIrRef broadcast_length(Lower *L, const NgIrRef *lens, int nlens, NgIrRef target, NgIrRef *bad, int line)
{
    NgIrKernel *k = L->k;
    NgIrRef n = target, one = ng_ir_const_i(k, NG_INT64, 1);
    bool varies = false;
    for (int i = 0; i < nlens; i++)
        varies = varies || !direct_row(L, lens[i]);
    for (int i = 0; n == NG_IR_NONE && i < nlens; i++)
        if (direct_row(L, lens[i])) {
            n = lens[i];
            if (varies) /* (its one broadcast to a varying length: Python) */
                raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, n, one), NG_JIT_RAISE_ROW_SHAPE, line);
        }
    if (n == NG_IR_NONE && nlens > 0) { /* (varying lengths only) */
        n = lens[0];
        for (int j = 1; j < nlens; j++)
            n = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, n, one), lens[j], n);
    }
    for (int i = 0; i < nlens; i++) {
        NgIrRef len = lens[i];
        if (len == n)
            continue;
        NgIrRef ne = ng_ir_binary(k, NG_OP_NE, NG_BOOL, len, n);
        if (direct_row(L, len)) {
            if (!invariant(L, n)) /* (a varying slice stored into: its one broadcast is Python's) */
                raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, len, one), NG_JIT_RAISE_ROW_SHAPE, line);
        } else {
            ne = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ne, ng_ir_binary(k, NG_OP_NE, NG_BOOL, len, one));
        }
        if (invariant(L, ne))
            raise_or_python(L, ne, NG_JIT_RAISE_ROW_SHAPE, line);
        else
            *bad = *bad == NG_IR_NONE ? ne : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, *bad, ne);
    }
    return n;
}

/* Where the rows on axis d of an elementwise expression broadcast to n, a length the same in
 * the whole kernel, beside a window of a constant width (L->windows): n noted, to be that
 * width in the loop's fast version (versioned), so that the loop over the elements has a
 * constant trip count there too. */
static void note_extent(Lower *L, const Rows *rows, int d, NgIrRef n)
{
    if (n == NG_IR_NONE || is_const(L, n) || !invariant(L, n) || L->nwindows == MAX_WINDOWS)
        return;
    for (int i = 0; i < L->nwindows; i++)
        for (int j = 0; j < rows->nlens[d] && L->windows[i].lo != NG_IR_NONE; j++)
            if (rows->lens[d][j] == L->windows[i].held && rows->lens[d][j] != n) {
                L->windows[L->nwindows++] = (Window){.lo = NG_IR_NONE, .n = NG_IR_NONE,
                                                     .width = L->windows[i].width, .start = NG_IR_NONE,
                                                     .len = n, .held = n};
                return;
            }
}

/* The lengths of the loops over the rows' elements, n[d] for the axes d <
 * rows->rank (after restore_rows): what they broadcast to (broadcast_length),
 * np.dot's two sides one length; where that fails in the kernel, NumPy's
 * ValueError, and no element. False when no row was read. */
static bool rows_length(Lower *L, const Rows *rows, NgIrRef *n, int line)
{
    NgIrKernel *k = L->k;
    NgIrRef bad = NG_IR_NONE;
    if (rows->rank == 0)
        return false;
    for (int d = 0; d < rows->rank; d++) {
        if (rows->split < 0 || d) {
            n[d] = broadcast_length(L, rows->lens[d], rows->nlens[d], d < rows->target_rank ? rows->target[d] : NG_IR_NONE,
                                    &bad, line);
            if (n[d] == NG_IR_NONE) /* (new axes only: new_axis) */
                n[d] = ng_ir_const_i(k, NG_INT64, 1);
            note_extent(L, rows, d, n[d]);
            continue;
        } /* np.dot(a, b): a's length is b's (NumPy's dot broadcasts neither) */
        NgIrRef a = broadcast_length(L, rows->lens[0], rows->split, NG_IR_NONE, &bad, line);
        n[0] = broadcast_length(L, rows->lens[0] + rows->split, rows->nlens[0] - rows->split, NG_IR_NONE, &bad, line);
        NgIrRef ne = a == NG_IR_NONE || n[0] == NG_IR_NONE || a == n[0] ? NG_IR_NONE
                                                                        : ng_ir_binary(k, NG_OP_NE, NG_BOOL, a, n[0]);
        if (a == NG_IR_NONE || n[0] == NG_IR_NONE)
            return false;
        if (ne != NG_IR_NONE && invariant(L, ne))
            raise_or_python(L, ne, NG_JIT_RAISE_ROW_SHAPE, line);
        else if (ne != NG_IR_NONE)
            bad = bad == NG_IR_NONE ? ne : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, bad, ne);
    }
    for (int i = 0; i < rows->nstrides; i++) { /* the slices' strides: 0 for a broadcast length 1 */
        int d = rows->strides[i].axis;
        int from = rows->strides[i].second ? rows->split : 0;
        int to = rows->strides[i].second || rows->split < 0 || d ? rows->nlens[d] : rows->split;
        NgIrRef step = ng_ir_const_i(k, NG_INT64, rows->strides[i].step);
        if (to - from > 1 || d < rows->target_rank) /* (alone, it broadcasts to nothing) */
            step = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, rows->strides[i].len, ng_ir_const_i(k, NG_INT64, 1)),
                                ng_ir_const_i(k, NG_INT64, 0), step);
        append(L, L->pending, ng_ir_let(k, rows->strides[i].var, step));
    }
    if (bad == NG_IR_NONE)
        return true;
    raise_if(L, bad, NG_JIT_RAISE_ROW_SHAPE, line);
    n[rows->rank - 1] = ng_ir_select(k, bad, ng_ir_const_i(k, NG_INT64, 0), n[rows->rank - 1]); /* (the outer loop) */
    return true;
}

static void int_bounds(Lower *L, Val w, NgDType dt, int line);
static int view_indices(Lower *L, const Sym *view, NgIrRef *idx, NgIrRef *ok);
static NgIrRef guarded_load(Lower *L, Sym *s, const NgIrRef *idx, NgIrRef ok);

static Val expr(Lower *L, const NgJitExpr *e);
static Val buf_row(Lower *L, Sym *s, int line);

static Val read_name(Lower *L, const NgJitExpr *e)
{
    Sym *s = sym_of(L, e);
    switch (s->kind) {
    case SYM_EXPR: { /* its expression, read where it is read: in an elementwise expression of rows */
        if (L->elem == NG_IR_NONE || s->expanding) {
            char what[160];
            snprintf(what, sizeof what, "'%s' (an array the loop computes) read other than as a whole in NumPy's "
                     "elementwise operations and reductions", s->name);
            return unsupported(L, e->span.line, what);
        }
        s->expanding = true;
        Val v = expr(L, s->value);
        s->expanding = false;
        return v;
    }
    case SYM_SCALAR:
        return mkval(ng_ir_scalar(L->k, s->param), s->given->dtype, !s->given->numpy_scalar, false);
    case SYM_BUF:
        return buf_row(L, s, e->span.line);
    case SYM_LOCAL:
        if (s->bound)
            return s->bound_val;
        if (s->dt == NG_NODTYPE) {
            if (!L->unknown_line) {
                L->unknown_line = e->span.line;
                snprintf(L->unknown_msg, sizeof L->unknown_msg, "local variable '%s' is used before it is assigned",
                         s->name);
            }
            return NOVAL;
        }
    {
        Val v = mkval(ng_ir_varref(L->k, s->var), s->dt, s->weak, s->nonneg && ng_dtype_is_int(s->dt));
        v.chr = s->chr;
        v.local = true;
        if (!s->given && s->dt == NG_FLOAT64 && !L->no_flo) /* (r2 = dx * dx + 1e-3; math.sqrt(r2): no check) */
            v.flo = s->flo < 0.0 ? s->flo : 0.0;
        return v;
    }
    case SYM_ARRAY: case SYM_VIEW: {
        Sym *a = s->kind == SYM_VIEW ? s->base : s;
        int fixed = s->kind == SYM_VIEW ? s->nfixed : 0;
        if (a->given->seq == NG_JIT_SEQ_STR && s->kind == SYM_ARRAY && L->elem == NG_IR_NONE) {
            /* a str as a value: one character (compared, a dict key), else the loop runs as Python */
            NgIrRef zero = ng_ir_const_i(L->k, NG_INT64, 0);
            raise_or_python(L, ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, ng_ir_shape(L->k, a->param, 0),
                                            ng_ir_const_i(L->k, NG_INT64, 1)), NG_JIT_RAISE_STR_LEN, e->span.line);
            Val c = mkval(ng_ir_cast(L->k, NG_INT64, ng_ir_load(L->k, a->param, 1, &zero)), NG_INT64, false, true);
            c.chr = true;
            return c;
        }
        if (a->given->seq != NG_JIT_SEQ_ARRAY)
            return fail(L, e->span.line, NG_ERR_UNSUPPORTED,
                        "%s '%s' used as a value (not indexed) is not supported in a compiled loop",
                        a->given->seq == NG_JIT_SEQ_STR     ? "str"
                        : a->given->seq == NG_JIT_SEQ_TUPLE ? "tuple"
                                                            : "dict", s->name);
        if (L->elem != NG_IR_NONE && a->given->ndim > fixed) {
            /* inside np.sum(...): the element the reduction is at */
            NgIrRef idx[NG_MAXDIMS], ok = NG_IR_NONE;
            view_indices(L, s->kind == SYM_VIEW ? s : NULL, idx, &ok);
            for (int ax = fixed; ax < a->given->ndim; ax++) {
                NgIrRef n = ng_ir_shape(L->k, a->param, ax);
                idx[ax] = row_index(L, n, a->given->ndim - 1 - ax, e->span.line);
                if (L->plan->boundscheck) { /* arrays of other lengths: no element read outside them */
                    NgIrRef in = ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, idx[ax], n);
                    ok = ok == NG_IR_NONE ? in : ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, ok, in);
                }
            }
            NgDType dt = a->given->dtype;
            return mkval(guarded_load(L, a, idx, ok), dt, false, dt == NG_BOOL || kind_of(dt) == NG_KIND_UINT);
        }
        return fail(L, e->span.line, NG_ERR_UNSUPPORTED,
                    "array '%s' used as a value (not indexed to an element) is not supported in a compiled loop",
                    s->name);
    }
    case SYM_MODULE:
        return fail(L, e->span.line, NG_ERR_UNSUPPORTED,
                    "module '%s' used as a value is not supported in a compiled loop", s->name);
    default:
        return fail(L, e->span.line, NG_ERR_VALUE,
                    "name '%s' has no type: it is not bound before the loop nor assigned in it", s->name);
    }
}

/* Merges v's type into a variable's settled type (*dt, *weak, *nonneg);
 * notes a change for another pass. */
static void merge_type(Lower *L, NgDType *dt, bool *weak, bool *nonneg, Val v)
{
    NgDType t = v.dt;
    bool w = v.weak;
    if (*dt != NG_NODTYPE)
        promote(*dt, *weak, v.dt, v.weak, &t, &w);
    if (t != *dt || w != *weak) {
        *dt = t;
        *weak = w;
        L->changed = true;
    }
    if (*nonneg && !(v.nonneg && ng_dtype_is_int(v.dt))) {
        *nonneg = false;
        L->changed = true;
    }
}

static NgDType bound_dtype(const Sym *s);

/* Assigns v to local s (merging v's type into the local's). */
/* Whether s is the key of the plan's ranked reduction. */
static bool ranked_key(const Lower *L, const Sym *s)
{
    return s->red >= 0 && L->plan->parallel && L->plan->reductions[s->red].ranked &&
           L->plan->reductions[s->red].op != NG_NOPS;
}

static double flo_of(const Lower *L, Val v);

/* Local s's bound flag after s = v: set, or where v is c ? e : s or c ? s : e (s = max(s, e):
 * Python's name keeps its own object where the choice is s), set where e is chosen. In order
 * only: a parallel reduction's copy starts at the operation's identity, so there its result
 * equal to its value before the loop says it (keep_equal). */
static NgIrRef rebinds(Lower *L, Sym *s, Val v)
{
    NgIrKernel *k = L->k;
    NgDType dt = bound_dtype(s);
    NgIrRef self = ng_ir_varref(k, s->var), on = ng_ir_const_i(k, dt, 1);
    if (ng_ir_node(k, v.r)->kind != NG_IR_SELECT)
        return on;
    NgIrRef c = ng_ir_kid(k, v.r, 0), x = ng_ir_kid(k, v.r, 1), y = ng_ir_kid(k, v.r, 2);
    if (s->red >= 0 && y == self && !s->keep_equal) /* (its ties keep s: see keep_equal) */
        s->keep_equal = L->changed = true;
    if ((x != self && y != self) || s->red >= 0)
        return on;
    NgIrRef other = x == self ? ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, c) : c;
    return ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_varref(k, s->bound_var), other);
}

static NgIrRef assign_local(Lower *L, Sym *s, Val v)
{
    if (v.r == NG_IR_NONE)
        return NG_IR_NONE;
    s->chr = v.chr;
    merge_type(L, &s->dt, &s->weak, &s->nonneg, v);
    if (s->adt == NG_NODTYPE)
        s->adt = v.dt, s->aweak = v.weak;
    else
        promote(s->adt, s->aweak, v.dt, v.weak, &s->adt, &s->aweak);
    /* every assignment, whatever the local's type is yet; a second fall goes to no bound (x = x - 1.0
     * would fall at every pass) */
    double f = flo_of(L, v);
    if (!L->no_flo && !(f >= s->flo)) {
        s->flo = s->flo == INFINITY && f == f ? f : -INFINITY;
        L->changed = true;
    }
    if (!usable(s->dt))
        return NG_IR_NONE;
    NgIrRef a = ng_ir_assign(L->k, s->var, as(L, v, s->dt));
    if (s->unbound_out) { /* the name is bound now (to another object than its own) */
        NgIrRef both[2] = {ng_ir_assign(L->k, s->bound_var, rebinds(L, s, v)), a}; /* (v's choice, before s changes) */
        a = ng_ir_block(L->k, 2, both);
    }
    if (ranked_key(L, s) && L->rank != NG_IR_NONE) { /* the key's update records its iteration */
        NgIrRef both[2] = {a, ng_ir_assign(L->k, L->rank_var, L->rank)};
        a = ng_ir_block(L->k, 2, both);
    }
    return a;
}

/* ---- expressions ---- */

static Val str_expr(Lower *L, const NgJitExpr *e);
static Val cond(Lower *L, const NgJitExpr *e);

__extension__ typedef __int128 i128; /* (a constant int expression's exact value: fold_int) */

#define I128_MAX ((i128)(((unsigned __int128)1 << 127) - 1))

/* Python's value of e when it is an int expression of int literals (+ - * // %
 * ** << >> | ^ & ~, unary - +): 1 with *out; -1 where that value needs more than
 * 127 bits; 0 where e is no such expression or Python raises or gives a float
 * (x // 0, 2 ** -1, 1 << -1: the lowering's own path). */
static int fold_int(const NgJitExpr *e, i128 *out)
{
    if (e->kind == NG_JIT_E_INT) {
        if (e->big)
            return -1;
        *out = (i128)e->ival;
        return 1;
    }
    i128 a, b;
    if (e->kind == NG_JIT_E_UNARY) {
        int fa = e->op == NG_JIT_OP_NEG || e->op == NG_JIT_OP_POS || e->op == NG_JIT_OP_INVERT ? fold_int(e->lhs, &a) : 0;
        if (fa <= 0)
            return fa;
        *out = e->op == NG_JIT_OP_POS ? a : e->op == NG_JIT_OP_INVERT ? ~a : -a; /* (|a| < 2**127 - 1) */
        return a == -I128_MAX - 1 ? -1 : 1;
    }
    if (e->kind != NG_JIT_E_BINARY)
        return 0;
    int fa = fold_int(e->lhs, &a), fb = fa > 0 ? fold_int(e->rhs, &b) : fa;
    if (fa <= 0 || fb <= 0)
        return fa < 0 || fb < 0 ? -1 : 0;
    bool over = false;
    switch (e->op) {
    case NG_JIT_OP_ADD: over = __builtin_add_overflow(a, b, out); break;
    case NG_JIT_OP_SUB: over = __builtin_sub_overflow(a, b, out); break;
    case NG_JIT_OP_MUL: over = __builtin_mul_overflow(a, b, out); break;
    case NG_JIT_OP_FLOORDIV: case NG_JIT_OP_MOD: {
        if (b == 0 || (a == -I128_MAX - 1 && b == -1))
            return b == 0 ? 0 : -1;
        i128 q = a / b, r = a % b;
        if (r != 0 && (r < 0) != (b < 0))
            q -= 1, r += b;
        *out = e->op == NG_JIT_OP_MOD ? r : q;
        break;
    }
    case NG_JIT_OP_POW:
        if (b < 0)
            return 0;
        *out = 1;
        for (i128 i = 0; i < b && !over; i++) { /* (|a| >= 2: at most 127 steps before it overflows) */
            if (a == 0 || a == 1 || (a == -1 && i >= 1)) {
                *out = a == 0 ? 0 : a == 1 ? 1 : (b % 2 ? -1 : 1);
                break;
            }
            over = __builtin_mul_overflow(*out, a, out);
        }
        break;
    case NG_JIT_OP_LSHIFT:
        if (b < 0)
            return 0;
        if (a == 0)
            *out = 0;
        else if (b >= 127 || ((a << b) >> b) != a)
            over = true;
        else
            *out = a << b;
        break;
    case NG_JIT_OP_RSHIFT:
        if (b < 0)
            return 0;
        *out = b >= 127 ? (a < 0 ? -1 : 0) : a >> b;
        break;
    case NG_JIT_OP_BITOR: *out = a | b; break;
    case NG_JIT_OP_BITXOR: *out = a ^ b; break;
    case NG_JIT_OP_BITAND: *out = a & b; break;
    default: return 0;
    }
    return over ? -1 : 1;
}

static NgOp binop_of(NgJitOp op)
{
    switch (op) {
    case NG_JIT_OP_ADD: return NG_OP_ADD;
    case NG_JIT_OP_SUB: return NG_OP_SUB;
    case NG_JIT_OP_MUL: return NG_OP_MUL;
    case NG_JIT_OP_DIV: return NG_OP_TRUEDIV;
    case NG_JIT_OP_FLOORDIV: return NG_OP_FLOORDIV;
    case NG_JIT_OP_MOD: return NG_OP_MOD;
    case NG_JIT_OP_POW: return NG_OP_POW;
    case NG_JIT_OP_LSHIFT: return NG_OP_LSHIFT;
    case NG_JIT_OP_RSHIFT: return NG_OP_RSHIFT;
    case NG_JIT_OP_BITOR: return NG_OP_BITOR;
    case NG_JIT_OP_BITXOR: return NG_OP_BITXOR;
    case NG_JIT_OP_BITAND: return NG_OP_BITAND;
    case NG_JIT_OP_LT: return NG_OP_LT;
    case NG_JIT_OP_LE: return NG_OP_LE;
    case NG_JIT_OP_GT: return NG_OP_GT;
    case NG_JIT_OP_GE: return NG_OP_GE;
    case NG_JIT_OP_EQ: return NG_OP_EQ;
    case NG_JIT_OP_NE: return NG_OP_NE;
    default: return NG_NOPS;
    }
}

/* Whether r has one value in the whole kernel: constants, scalar parameters,
 * array extents and operations on them (no variable, no load). */
static bool invariant(const Lower *L, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(L->k, r);
    switch (n->kind) {
    case NG_IR_CONST: case NG_IR_SCALAR: case NG_IR_SHAPE:
        return true;
    case NG_IR_UNARY: case NG_IR_BINARY: case NG_IR_SELECT: case NG_IR_CAST:
        for (int i = 0; i < n->nkids; i++)
            if (!invariant(L, ng_ir_kid(L->k, r, i)))
                return false;
        return true;
    default:
        return false;
    }
}

/* A lower bound of v as a float64 (-INFINITY: none), NaN aside: a
 * constant's value, an integer's known bound, else v.flo. */
static double flo_of(const Lower *L, Val v)
{
    if (v.r == NG_IR_NONE || ng_dtype_is_complex(v.dt))
        return -INFINITY;
    if (is_const(L, v.r))
        return const_value(L, v.r);
    if (ng_dtype_is_int(v.dt))
        return lo_of(L, v) == INT64_MIN ? -INFINITY : (double)lo_of(L, v);
    return v.dt == NG_FLOAT64 ? v.flo : -INFINITY;
}

/* Whether a and b are one value: one node, or reads of one variable. */
static bool same_value(const Lower *L, Val a, Val b)
{
    if (a.r == b.r)
        return true;
    const NgIrNode *x = ng_ir_node(L->k, a.r), *y = ng_ir_node(L->k, b.r);
    return x->kind == NG_IR_VAR && y->kind == NG_IR_VAR && x->a == y->a && !x->nkids && !y->nkids;
}

/* v's float64 lower bound after r = a `iop` b (rounding is monotonic, so the
 * bounds' own sum or product, rounded, bounds the result): x * x >= 0, a sum
 * of bounded values, a product of nonnegative ones. */
static Val float_bound(const Lower *L, Val v, NgOp iop, Val a, Val b)
{
    if (v.r == NG_IR_NONE || v.dt != NG_FLOAT64)
        return v;
    double fa = flo_of(L, a), fb = flo_of(L, b);
    if (iop == NG_OP_MUL && same_value(L, a, b))
        v.flo = 0.0;
    else if (iop == NG_OP_ADD && fa > -INFINITY && fb > -INFINITY)
        v.flo = fa + fb;
    else if (iop == NG_OP_MUL && fa >= 0.0 && fb >= 0.0)
        v.flo = fa * fb;
    return v;
}

/* Whether v (an operand as it is, before promotion) is never 0: a nonzero
 * constant, an integer known to be at least 1, a float known to be above 0
 * (or NaN: not 0 either). */
static bool nonzero(const Lower *L, Val v)
{
    if (is_const(L, v.r) && !ng_dtype_is_complex(v.dt))
        return const_value(L, v.r) != 0.0;
    return flo_of(L, v) > 0.0;
}

/* Whether v is never negative (NaN aside): a nonneg integer, or a value
 * whose lower bound (flo_of) is at least 0. */
static bool never_negative(const Lower *L, Val v)
{
    return v.nonneg || flo_of(L, v) >= 0.0;
}

static void raise_or_python(Lower *L, NgIrRef bad, NgJitRaise what, int line);

/* What Python raises for r = a `iop` b in dtype dt, where NumPy's answer
 * (inf, nan, 0) is not Python's: / // % of Python numbers by zero; 0.0 **
 * a negative number, a negative float ** a fractional one (complex in
 * Python), a float ** beyond float64 (OverflowError), an int ** a negative
 * int (a float in Python), a shift by a negative count, all of Python
 * numbers; and NumPy's ValueError for
 * a NumPy integer ** a negative integer. */
static void arith_raises(Lower *L, NgOp iop, Val a, Val b, NgDType dt, NgIrRef r, int line)
{
    NgIrKernel *k = L->k;
    bool python = a.weak && b.weak;
    bool ints = !ng_dtype_is_inexact(a.dt) && !ng_dtype_is_inexact(b.dt);
    bool cplx = ng_dtype_is_complex(dt);
    if (L->st != NG_OK || r == NG_IR_NONE)
        return;
    if ((iop == NG_OP_TRUEDIV || iop == NG_OP_FLOORDIV || iop == NG_OP_MOD) && python && !nonzero(L, b)) {
        NgJitRaise what = iop == NG_OP_TRUEDIV ? (ints ? NG_JIT_RAISE_ZERODIV
                                                  : cplx ? NG_JIT_RAISE_ZERODIV_COMPLEX : NG_JIT_RAISE_ZERODIV_FLOAT)
                        : iop == NG_OP_FLOORDIV ? (ints ? NG_JIT_RAISE_FLOORDIV_INT : NG_JIT_RAISE_FLOORDIV_FLOAT)
                                                : (ints ? NG_JIT_RAISE_MOD_INT : NG_JIT_RAISE_MOD_FLOAT);
        NgDType in = iop == NG_OP_TRUEDIV && ints ? NG_INT64 : dt;
        raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, as(L, b, in), zero_of(L, in).r), what, line);
        return;
    }
    if ((iop == NG_OP_LSHIFT || iop == NG_OP_RSHIFT) && python && !never_negative(L, b)) {
        raise_or_python(L, ng_ir_binary(k, NG_OP_LT, NG_BOOL, as(L, b, dt), zero_of(L, dt).r),
                        NG_JIT_RAISE_NEG_SHIFT, line);
        return;
    }
    if (iop == NG_OP_POW && cplx && python) { /* 0j ** y, y's real part < 0 or its imaginary part not 0 */
        NgIrRef x0 = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, as(L, a, dt), zero_of(L, dt).r);
        NgIrRef y = as(L, b, dt), re = ng_ir_cast(k, NG_FLOAT64, y), im = ng_ir_imag(k, y);
        NgIrRef f0 = ng_ir_const_f(k, NG_FLOAT64, 0.0);
        NgIrRef bad = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, re, f0),
                                   ng_ir_binary(k, NG_OP_NE, NG_BOOL, im, f0));
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, x0, bad), NG_JIT_RAISE_ZERO_POW_COMPLEX, line);
        return;
    }
    if (iop != NG_OP_POW || cplx)
        return;
    NgIrRef zero = zero_of(L, dt).r;
    if (ng_dtype_is_int(dt) && !never_negative(L, b)) {
        NgIrRef neg = ng_ir_binary(k, NG_OP_LT, NG_BOOL, as(L, b, dt), zero);
        if (!python) {
            raise_or_python(L, neg, NG_JIT_RAISE_POW_NUMPY_NEG, line);
            return;
        }
        if (invariant(L, neg)) { /* (then Python, which gives floats, or raises for 0 ** -1) */
            raise_or_python(L, neg, NG_JIT_RAISE_POW_INT_NEG, line);
            return;
        }
        NgIrRef a0 = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, as(L, a, dt), zero);
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, neg, a0), NG_JIT_RAISE_ZERO_POW, line);
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, neg, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, a0)),
                        NG_JIT_RAISE_POW_INT_NEG, line);
        return;
    }
    if (!python || !ng_dtype_is_float(dt))
        return;
    NgIrRef x = as(L, a, dt), y = as(L, b, dt);
    NgIrRef finite = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, x),
                                  ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, y));
    NgIrRef x0 = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, x, zero);
    if (!never_negative(L, b))
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, x0, ng_ir_binary(k, NG_OP_LT, NG_BOOL, y, zero)),
                        NG_JIT_RAISE_ZERO_POW, line);
    bool integral = is_const(L, b.r) && const_value(L, b.r) == trunc(const_value(L, b.r));
    if (!integral && !never_negative(L, a) && !ng_dtype_is_int(b.dt)) /* (an int exponent is integral) */
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                        ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, finite, ng_ir_binary(k, NG_OP_LT, NG_BOOL, x, zero)),
                                        ng_ir_binary(k, NG_OP_NE, NG_BOOL, y, ng_ir_unary(k, NG_OP_TRUNC, dt, y))),
                        NG_JIT_RAISE_POW_COMPLEX, line);
    raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                    ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, finite, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, x0)),
                                    ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, r)),
                    NG_JIT_RAISE_POW_RANGE, line);
}

/* A float a ** an integer b (dt float32 or float64), where a may be negative, as the power of
 * |a|, with a's sign where b is odd: pow(a, b) is exactly that, C's and CUDA's and OpenCL's (it
 * takes a negative base's power so), and glibc's vector pow (a sum of powers in vectors,
 * in_lanes) computes positive bases in its lanes but takes each negative one through the scalar
 * pow (x[i] ** np.arange(k) at points of both signs: slower than the scalar loop). b is odd as
 * pow sees it, in its float: an odd int beyond 2**53 (float32: 2**24) rounds to an even float.
 * The parity is integer arithmetic and the sign a copysign, which GCC vectorises (a parity
 * taken from the float, a comparison of floats or a sign factor from signbit kept it scalar).
 * NG_IR_NONE where the plain pow does. */
static NgIrRef int_power(Lower *L, Val a, Val b, NgDType dt)
{
    NgIrKernel *k = L->k;
    if ((dt != NG_FLOAT64 && dt != NG_FLOAT32) || !ng_dtype_is_int(b.dt) || b.dt == NG_BOOL || never_negative(L, a))
        return NG_IR_NONE;
    NgIrRef x = as(L, a, dt), y = as(L, b, dt);
    NgIrRef mag = ng_ir_binary(k, NG_OP_POW, dt, ng_ir_unary(k, NG_OP_ABS, dt, x), y);
    int p = dt == NG_FLOAT64 ? 53 : 24; /* the float's exact integers: |b| < 2**p */
#define U64(v) ng_ir_const_i(k, NG_UINT64, (int64_t)(v))
    NgIrRef e = b.dt == NG_UINT64 ? b.r : ng_ir_cast(k, NG_UINT64, as(L, b, NG_INT64));
    NgIrRef above = b.dt == NG_UINT64 ? ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, e, U64(p)) /* 0 where exact */
                                      : ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64,
                                                     ng_ir_binary(k, NG_OP_ADD, NG_UINT64, e, U64(UINT64_C(1) << p)), U64(p + 1));
    NgIrRef exact = ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, ng_ir_binary(k, NG_OP_SUB, NG_UINT64, above, U64(1)), U64(63));
    NgIrRef odd = ng_ir_binary(k, NG_OP_BITAND, NG_UINT64, ng_ir_binary(k, NG_OP_BITAND, NG_UINT64, e, exact), U64(1));
#undef U64
    NgIrRef sign = ng_ir_select(k, ng_ir_binary(k, NG_OP_NE, NG_BOOL, odd, ng_ir_const_i(k, NG_UINT64, 0)), x,
                                ng_ir_const_f(k, dt, 1.0));
    return ng_ir_binary(k, NG_OP_COPYSIGN, dt, mag, sign);
}

static Val arith(Lower *L, NgJitOp op, Val a, Val b, int line);

/* a ** b of Python ints where b may be negative, for a float64 to take (L->pow_float): Python's
 * value is a float where b < 0 (float(a) ** float(b), C's pow, as CPython's), else the int
 * a ** b, exact, which the float64 takes rounded once; 0 ** a negative int is Python's
 * ZeroDivisionError, an int power beyond 64 bits int_overflow's. */
static Val pow_as_float(Lower *L, Val a, Val b, int line)
{
    NgIrKernel *k = L->k;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef neg = ng_ir_binary(k, NG_OP_LT, NG_BOOL, as(L, b, NG_INT64), zero);
    NgIrRef a0 = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, as(L, a, NG_INT64), zero);
    raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, neg, a0), NG_JIT_RAISE_ZERO_POW, line);
    Val bn = mkval(ng_ir_select(k, neg, zero, as(L, b, NG_INT64)), NG_INT64, true, true);
    Val ip = arith(L, NG_JIT_OP_POW, a, bn, line); /* (b >= 0 here: no raise of its own) */
    if (ip.r == NG_IR_NONE)
        return NOVAL;
    NgIrRef fp = ng_ir_binary(k, NG_OP_POW, NG_FLOAT64, as(L, a, NG_FLOAT64), as(L, b, NG_FLOAT64));
    return mkval(ng_ir_select(k, neg, fp, as(L, ip, NG_FLOAT64)), NG_FLOAT64, true, false);
}

/* a `op` b with Python/NumPy semantics (op an arithmetic, bit or shift
 * operator of ast.h). */
static Val arith(Lower *L, NgJitOp op, Val a, Val b, int line)
{
    if (a.r == NG_IR_NONE || b.r == NG_IR_NONE)
        return NOVAL;
    NgOp iop = binop_of(op);
    bool pow_float = L->pow_float;
    L->pow_float = false;
    if (iop == NG_NOPS || op == NG_JIT_OP_MATMUL)
        return fail(L, line, NG_ERR_UNSUPPORTED, "the operator %s is not supported in a compiled loop",
                    ng_jit_op_name(op));
    if (a.mixed || b.mixed) /* (max(x8[i], y64[i]) * 2 wraps in int8 where x8[i] is chosen) */
        return fail(L, line, NG_ERR_UNSUPPORTED, "arithmetic (%s) on one of two values of different types "
                    "(Python's takes the chosen one's) is not supported in a compiled loop", ng_jit_op_name(op));
    if (a.weak && ng_dtype_is_complex(a.dt) && !b.weak && b.dt == NG_FLOAT64)
        b.weak = true; /* (a NumPy float64 is a Python float, which a Python complex's own operator
                          takes first: Python's complex arithmetic, ZeroDivisionError included) */
    NgDType dt;
    bool weak;
    promote(a.dt, a.weak, b.dt, b.weak, &dt, &weak);
    if (!usable(dt))
        return fail(L, line, NG_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'",
                    ng_jit_op_name(op), type_name(a), type_name(b));
    bool nonneg = false;
    switch (iop) {
    case NG_OP_ADD: case NG_OP_MUL:
        if (dt == NG_BOOL && weak)
            dt = NG_INT64; /* True + True == 2 */
        nonneg = a.nonneg && b.nonneg;
        break;
    case NG_OP_SUB:
        if (dt == NG_BOOL && weak)
            dt = NG_INT64;
        else if (dt == NG_BOOL)
            return fail(L, line, NG_ERR_TYPE, "numpy boolean subtract, the `-` operator, is not supported");
        break;
    case NG_OP_TRUEDIV:
        if (!ng_dtype_is_inexact(dt))
            dt = NG_FLOAT64;
        break;
    case NG_OP_FLOORDIV: case NG_OP_MOD:
        if (ng_dtype_is_complex(dt))
            return fail(L, line, NG_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'",
                        ng_jit_op_name(op), type_name(a), type_name(b));
        if (dt == NG_BOOL)
            dt = weak ? NG_INT64 : NG_INT8;
        nonneg = iop == NG_OP_MOD ? b.nonneg : (a.nonneg && b.nonneg);
        break;
    case NG_OP_POW:
        if (dt == NG_BOOL)
            dt = weak ? NG_INT64 : NG_INT8;
        if (pow_float && weak && ng_dtype_is_int(dt) && !is_const(L, b.r) && !never_negative(L, b))
            return pow_as_float(L, a, b, line);
        if (ng_dtype_is_int(dt) && is_const(L, b.r) && const_i(L, b.r) < 0) {
            if (!weak)
                return fail(L, line, NG_ERR_VALUE, "Integers to negative integer powers are not allowed.");
            dt = NG_FLOAT64; /* 2 ** -1 == 0.5 */
        }
        if (is_const(L, b.r) && !ng_dtype_is_complex(b.dt) && const_value(L, b.r) == 2.0) {
            NgIrRef x = as(L, a, dt), sq = ng_ir_binary(L->k, NG_OP_MUL, dt, x, x);
            arith_raises(L, iop, a, b, dt, sq, line); /* (1e200 ** 2 of Python floats: OverflowError) */
            Val v = float_bound(L, mkval(sq, dt, weak, ng_dtype_is_int(dt)), NG_OP_MUL, a, a);
            if (weak && dt == NG_INT64)
                int_overflow(L, NG_OP_MUL, a, a, &v, line);
            return v;
        }
        nonneg = a.nonneg;
        break;
    case NG_OP_BITAND: case NG_OP_BITOR: case NG_OP_BITXOR:
        if (ng_dtype_is_inexact(dt))
            return fail(L, line, NG_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'",
                        ng_jit_op_name(op), type_name(a), type_name(b));
        nonneg = iop == NG_OP_BITAND ? (a.nonneg || b.nonneg) : (a.nonneg && b.nonneg);
        break;
    case NG_OP_LSHIFT: case NG_OP_RSHIFT:
        if (ng_dtype_is_inexact(dt))
            return fail(L, line, NG_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'",
                        ng_jit_op_name(op), type_name(a), type_name(b));
        if (dt == NG_BOOL)
            dt = weak ? NG_INT64 : NG_INT8;
        nonneg = iop == NG_OP_RSHIFT && a.nonneg;
        break;
    default:
        break;
    }
    nonneg = nonneg && ng_dtype_is_int(dt);
    if (!weak) {
        int_bounds(L, a, dt, line);
        int_bounds(L, b, dt, line);
    }
    NgIrRef r = iop == NG_OP_POW ? int_power(L, a, b, dt) : NG_IR_NONE;
    if (r == NG_IR_NONE)
        r = ng_ir_binary(L->k, iop, dt, as(L, a, dt), as(L, b, dt));
    Val v = float_bound(L, mkval(r, dt, weak, nonneg), iop, a, b);
    arith_raises(L, iop, a, b, dt, v.r, line);
    if (weak && dt == NG_INT64)
        int_overflow(L, iop, a, b, &v, line);
    int64_t la = lo_of(L, a), lb = lo_of(L, b), lo;
    if (dt == NG_INT64 && la != INT64_MIN && lb != INT64_MIN && iop == NG_OP_ADD && !__builtin_add_overflow(la, lb, &lo))
        v = at_least(v, lo);
    else if (dt == NG_INT64 && la != INT64_MIN && iop == NG_OP_SUB && is_const(L, b.r) &&
             !__builtin_sub_overflow(la, const_i(L, b.r), &lo))
        v = at_least(v, lo); /* i - 1: the constant is also b's upper bound */
    return v;
}

/* a `iop` b, one a Python int, the other a NumPy integer of dtype dt:
 * NumPy 2 compares their values (np.uint8(3) < -1 is False), where a cast of
 * the int to dt would wrap it. */
static Val compare_python_int(Lower *L, NgOp iop, Val a, Val b, NgDType dt)
{
    NgIrKernel *k = L->k;
    if (dt != NG_UINT64)
        return mkval(ng_ir_binary(k, iop, NG_BOOL, as(L, a, NG_INT64), as(L, b, NG_INT64)), NG_BOOL, false, true);
    Val w = a.weak ? a : b;
    NgIrRef cmp = ng_ir_binary(k, iop, NG_BOOL, as(L, a, dt), as(L, b, dt));
    if (never_negative(L, w))
        return mkval(cmp, NG_BOOL, false, true);
    /* a negative int is below every uint64 */
    bool w_less = iop == NG_OP_NE || (a.weak ? (iop == NG_OP_LT || iop == NG_OP_LE) : (iop == NG_OP_GT || iop == NG_OP_GE));
    NgIrRef neg = ng_ir_binary(k, NG_OP_LT, NG_BOOL, w.r, ng_ir_const_i(k, NG_INT64, 0));
    return mkval(ng_ir_select(k, neg, ng_ir_const_i(k, NG_BOOL, w_less), cmp), NG_BOOL, false, true);
}

/* a `op` b of a Python int and a Python float, exactly, as Python compares them (in float64
 * an int beyond 2**53 rounds: 2**53 + 1 == 2.0**53 would hold). Rounding keeps order, so where
 * the int's float64 d differs from f (or f is NaN) d op f is the answer; where they are equal f
 * is a whole number, 2**63 (above every int64) or an int64 t that the int compares with. In
 * float64 alone where the int's bound is within 2**53. */
static Val compare_int_float(Lower *L, NgOp iop, Val a, Val b)
{
    NgIrKernel *k = L->k;
    bool int_first = a.dt == NG_INT64;
    Val n = int_first ? a : b, f = int_first ? b : a;
    NgIrRef in_float = ng_ir_binary(k, iop, NG_BOOL, as(L, a, NG_FLOAT64), as(L, b, NG_FLOAT64));
    uint64_t params = 0;
    if (mag_of(L, n, &params) <= 0x1p53)
        return mkval(in_float, NG_BOOL, true, true);
    if (is_const(L, f.r) && !isnan(const_value(L, f.r)) && fabs(const_value(L, f.r)) < 0x1p62) {
        /* a literal: the int against the whole number at or beside it (n < 2.5: n < 3) */
        double c = const_value(L, f.r), fl = floor(c), ce = ceil(c);
        NgOp op = iop;
        if (!int_first) /* c op n as n op' c */
            op = op == NG_OP_LT ? NG_OP_GT : op == NG_OP_GT ? NG_OP_LT : op == NG_OP_LE ? NG_OP_GE
                 : op == NG_OP_GE ? NG_OP_LE : op;
        if ((op == NG_OP_EQ || op == NG_OP_NE) && fl != c)
            return mkval(ng_ir_const_i(k, NG_BOOL, op == NG_OP_NE), NG_BOOL, true, true);
        double w = op == NG_OP_LT || op == NG_OP_GE ? ce : fl;
        return mkval(ng_ir_binary(k, op, NG_BOOL, n.r, ng_ir_const_i(k, NG_INT64, (int64_t)w)), NG_BOOL, true, true);
    }
    if (!int_first) /* f op n as n op' f */
        iop = iop == NG_OP_LT ? NG_OP_GT : iop == NG_OP_GT ? NG_OP_LT : iop == NG_OP_LE ? NG_OP_GE
              : iop == NG_OP_GE ? NG_OP_LE : iop;
    /* as bitwise ops of bools, no selects: the C compiler vectorises them */
#define B(o, x, y) ng_ir_binary(k, NG_OP_##o, NG_BOOL, x, y)
    NgIrRef d = as(L, n, NG_FLOAT64), x = f.r, top = ng_ir_const_f(k, NG_FLOAT64, 0x1p63);
    NgIrRef tie = B(EQ, d, x), big = B(GE, x, top);
    NgIrRef t = ng_ir_cast(k, NG_INT64, ng_ir_select(k, big, ng_ir_const_f(k, NG_FLOAT64, 0.0), x));
    NgIrRef exact = B(BITAND, tie, ng_ir_binary(k, iop == NG_OP_NE ? NG_OP_EQ : iop, NG_BOOL, n.r, t));
    NgIrRef r;
    if (iop == NG_OP_LT || iop == NG_OP_LE) /* (f == 2**63 is above every int64) */
        r = B(BITOR, B(LT, d, x), B(BITOR, exact, B(BITAND, tie, big)));
    else if (iop == NG_OP_GT || iop == NG_OP_GE)
        r = B(BITOR, B(GT, d, x), B(BITAND, exact, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, big)));
    else
        r = B(BITAND, exact, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, big));
#undef B
    if (iop == NG_OP_NE)
        r = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, r);
    return mkval(r, NG_BOOL, true, true);
}

/* a `op` b for a comparison operator. */
static Val compare(Lower *L, NgJitOp op, Val a, Val b, int line)
{
    if (a.r == NG_IR_NONE || b.r == NG_IR_NONE)
        return NOVAL;
    NgOp iop = binop_of(op);
    if (iop == NG_NOPS)
        return fail(L, line, NG_ERR_UNSUPPORTED, "the operator '%s' is not supported in a compiled loop",
                    ng_jit_op_name(op));
    if (a.big != NG_IR_NONE || b.big != NG_IR_NONE) /* (min(k, w[i], u[i]): Python compares the chosen object, signed or not) */
        return unsupported(L, line, "comparing a value chosen between a Python int and a NumPy uint64");
    if (a.chr || b.chr) { /* 1-character strs order as their code points */
        if (!a.chr || !b.chr)
            return unsupported(L, line, "comparing a str with a number");
        return mkval(ng_ir_binary(L->k, iop, NG_BOOL, a.r, b.r), NG_BOOL, true, true);
    }
    NgDType dt;
    bool weak;
    promote(a.dt, a.weak, b.dt, b.weak, &dt, &weak);
    if (!usable(dt))
        return fail(L, line, NG_ERR_TYPE, "cannot compare '%s' and '%s'", type_name(a), type_name(b));
    /* NumPy's complex scalars order lexicographically (real part, then imaginary); Python's
     * complex numbers do not order at all */
    if (ng_dtype_is_complex(dt) && iop != NG_OP_EQ && iop != NG_OP_NE && a.weak && b.weak)
        return fail(L, line, NG_ERR_TYPE, "'%s' not supported between instances of '%s' and '%s'",
                    ng_jit_op_name(op), type_name(a), type_name(b));
    if (!weak && ng_dtype_is_int(dt) && dt != NG_INT64 && ((a.weak && a.dt == NG_INT64) || (b.weak && b.dt == NG_INT64)))
        return compare_python_int(L, iop, a, b, dt);
    if (weak && dt == NG_FLOAT64 && ((a.dt == NG_INT64 && b.dt == NG_FLOAT64) || (a.dt == NG_FLOAT64 && b.dt == NG_INT64)) &&
        iop >= NG_OP_EQ && iop <= NG_OP_GE)
        return compare_int_float(L, iop, a, b);
    return mkval(ng_ir_binary(L->k, iop, NG_BOOL, as(L, a, dt), as(L, b, dt)), NG_BOOL, weak, true);
}

/* c ? x : y, both branches promoted to one type. */
static Val select_val(Lower *L, Val c, Val x, Val y, int line)
{
    if (c.r == NG_IR_NONE || x.r == NG_IR_NONE || y.r == NG_IR_NONE)
        return NOVAL;
    NgDType dt;
    bool weak;
    promote(x.dt, x.weak, y.dt, y.weak, &dt, &weak);
    if (!usable(dt))
        return fail(L, line, NG_ERR_TYPE, "no common type for '%s' and '%s'", type_name(x), type_name(y));
    return mkval(ng_ir_select(L->k, c.r, as(L, x, dt), as(L, y, dt)), dt, weak,
                 x.nonneg && y.nonneg && ng_dtype_is_int(dt));
}

/* Whether dtype dt holds the value of w, a Python number, exactly (known
 * only for constants, but int64 holds every int, float64 every float). */
static bool holds(const Lower *L, NgDType dt, Val w)
{
    if (w.dt == NG_BOOL || dt == w.dt || dt == NG_COMPLEX128 || (dt == NG_FLOAT64 && !ng_dtype_is_complex(w.dt)))
        return true;
    if (!is_const(L, w.r) || ng_dtype_is_complex(w.dt))
        return false;
    double v = const_value(L, w.r);
    if (ng_dtype_is_int(w.dt)) {
        int64_t lo, hi, i = const_i(L, w.r);
        if (ng_dtype_is_int(dt)) {
            int_range(dt, &lo, &hi);
            return i >= lo && i <= hi;
        }
        return ng_dtype_is_inexact(dt) && (dt == NG_FLOAT16 ? fabs(v) <= 2048 : fabs(v) <= 16777216);
    }
    return dt == NG_FLOAT32 || dt == NG_COMPLEX64 ? (double)(float)v == v : dt == NG_FLOAT16 && round_half(v) == v;
}

/* Whether the value of x or y, whichever is chosen, is the same Python object's
 * value in their common type for every use: one dtype (a Python float and a
 * NumPy float64 differ only in type), or a constant Python number the other's
 * dtype holds (max(x[i], 0)). */
static bool same_type_chosen(const Lower *L, Val x, Val y)
{
    if (x.dt == y.dt)
        return true;
    if (x.weak == y.weak)
        return false; /* (1 if c else 0.5: an int or a float; max(x8[i], y64[i]): the int8 wraps) */
    Val w = x.weak ? x : y, u = x.weak ? y : x;
    return w.local || (is_const(L, w.r) && holds(L, u.dt, w)); /* (a local's first pass: it is a NumPy
                                                                  number once its type settles) */
}

/* c ? x : y where the value is one of two Python objects (x if c else y,
 * min(x, y), x or y), so it keeps the one chosen: where one is a Python
 * number and the other a NumPy one, their NEP 50 type (as of x + y) unless
 * that cannot hold the Python number (-3 and a uint8, 0.1 and a float32),
 * then int64, float64 or complex128; but a local name keeps the NEP 50 type.
 * (Its type stays one of the two in every iteration, where Python's is the
 * object's: README.) */
static Val choose_typed(Lower *L, Val c, Val x, Val y, int line)
{
    if (x.r == NG_IR_NONE || y.r == NG_IR_NONE || x.weak == y.weak || c.r == NG_IR_NONE)
        return select_val(L, c, x, y, line);
    NgDType dt;
    bool weak;
    promote(x.dt, x.weak, y.dt, y.weak, &dt, &weak);
    Val w = x.weak ? x : y;
    if (!usable(dt) || holds(L, dt, w) || w.local)
        return select_val(L, c, x, y, line); /* (a name the loop assigns, as best in best = max(best,
                                                x[i]), is a NumPy number after its first update;
                                                int(s) of one is not: a Python int) */
    dt = ng_dtype_is_complex(dt) ? NG_COMPLEX128 : ng_dtype_is_inexact(dt) ? NG_FLOAT64
         : dt == NG_UINT64 ? NG_UINT64 : NG_INT64;
    Val v = mkval(ng_ir_select(L->k, c.r, as(L, x, dt), as(L, y, dt)), dt, false,
                  x.nonneg && y.nonneg && ng_dtype_is_int(dt));
    if (dt == NG_UINT64 && ng_dtype_is_int(w.dt)) {
        NgIrKernel *k = L->k;
        Val u = x.weak ? y : x;
        NgIrRef picked = x.weak ? ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, c.r) : c.r;
        v.big = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, picked,
                             ng_ir_binary(k, NG_OP_LT, NG_BOOL, as(L, u, NG_INT64), ng_ir_const_i(k, NG_INT64, 0)));
    }
    return v;
}

/* choose_typed's value, marked mixed where Python's type is the chosen one's (Val.mixed). */
static Val choose_val(Lower *L, Val c, Val x, Val y, int line)
{
    Val v = choose_typed(L, c, x, y, line);
    if (v.r != NG_IR_NONE)
        v.mixed = x.mixed || y.mixed || !same_type_chosen(L, x, y);
    return v;
}

/* How many of the indices idx[0..n) are slices. */
static int slices_in(const NgJitExpr *const *idx, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += idx[i]->kind == NG_JIT_E_SLICE;
    return k;
}

static int row_rank(Lower *L, const NgJitExpr *e);
static bool is_newaxis(Lower *L, const NgJitExpr *e);

/* Whether name s is (a view of) a free array of integers (not bools). */
static bool of_ints(const Sym *s)
{
    const Sym *a = s->kind == SYM_VIEW ? s->base : s;
    return (s->kind == SYM_ARRAY || s->kind == SYM_VIEW) && a->given && a->given->is_array &&
           a->given->seq == NG_JIT_SEQ_ARRAY && a->given->module == NG_JIT_MOD_NONE &&
           ng_dtype_is_int(a->given->dtype) && a->given->dtype != NG_BOOL;
}

/* Whether e is surely an integer number: a literal, a scalar or local of an integer type (its
 * type so far), an element of an array of integers, and sums, differences and products of them. */
static bool int_number(Lower *L, const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_INT:
        return true;
    case NG_JIT_E_NAME: {
        const Sym *s = sym_of(L, e);
        NgDType dt = s->kind == SYM_LOCAL ? s->dt
                     : s->kind == SYM_SCALAR && s->given && !s->given->is_array ? s->given->dtype
                                                                               : NG_NODTYPE;
        return s->bound ? ng_dtype_is_int(s->bound_val.dt) && s->bound_val.dt != NG_BOOL
                        : dt != NG_NODTYPE && ng_dtype_is_int(dt) && dt != NG_BOOL;
    }
    case NG_JIT_E_SUBSCRIPT: {
        const NgJitExpr *r = e;
        while (r->kind == NG_JIT_E_SUBSCRIPT)
            r = r->lhs;
        return r->kind == NG_JIT_E_NAME && of_ints(sym_of(L, r)) && row_rank(L, e) == 0;
    }
    case NG_JIT_E_UNARY:
        return e->op == NG_JIT_OP_NEG && int_number(L, e->lhs);
    case NG_JIT_E_BINARY:
        return (e->op == NG_JIT_OP_ADD || e->op == NG_JIT_OP_SUB || e->op == NG_JIT_OP_MUL) &&
               int_number(L, e->lhs) && int_number(L, e->rhs);
    default:
        return false;
    }
}

/* Whether e is surely a row of integers (of an array of integers, or such a row plus, minus or
 * times another or an integer number): an index that gathers (x[idx], x[nbrs[i]], x[ind[a:b] +
 * 1], x[idx + i]) rather than a boolean mask, which is any other row (its dtype known only once
 * lowered). */
static bool int_rows(Lower *L, const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: {
        Sym *s = sym_of(L, e);
        if (s->kind == SYM_EXPR && !s->expanding) {
            s->expanding = true;
            bool r = int_rows(L, s->value);
            s->expanding = false;
            return r;
        }
        return of_ints(s) && row_rank(L, e) > 0;
    }
    case NG_JIT_E_SUBSCRIPT: {
        const NgJitExpr *r = e;
        while (r->kind == NG_JIT_E_SUBSCRIPT)
            r = r->lhs;
        return r->kind == NG_JIT_E_NAME && of_ints(sym_of(L, r)) && row_rank(L, e) > 0;
    }
    case NG_JIT_E_BINARY: {
        if (e->op != NG_JIT_OP_ADD && e->op != NG_JIT_OP_SUB && e->op != NG_JIT_OP_MUL)
            return false;
        bool a = int_rows(L, e->lhs), b = int_rows(L, e->rhs);
        return (a && (b || int_number(L, e->rhs))) || (b && int_number(L, e->lhs));
    }
    default:
        return false;
    }
}

/* Whether index e (of a subscript's) is a row of integers (int_rows): x[idx] gathers x's
 * elements at idx's. */
static bool is_gather(Lower *L, const NgJitExpr *e)
{
    return e->kind != NG_JIT_E_SLICE && !is_newaxis(L, e) && int_rows(L, e);
}

/* How many of the indices idx[0..n) gather (is_gather). */
static int gathers_in(Lower *L, const NgJitExpr *const *idx, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += is_gather(L, idx[i]);
    return k;
}

/* Whether index e is None or np.newaxis (NumPy's new axis of length 1). */
static bool is_newaxis(Lower *L, const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_CONST)
        return e->cval == NG_JIT_C_NONE;
    return e->kind == NG_JIT_E_ATTR && strcmp(e->name, "newaxis") == 0 && e->lhs->kind == NG_JIT_E_NAME &&
           sym_of(L, e->lhs)->kind == SYM_MODULE && sym_of(L, e->lhs)->module == NG_JIT_MOD_NUMPY;
}

/* How many of the indices idx[0..n) are new axes (is_newaxis). */
static int newaxes_in(Lower *L, const NgJitExpr *const *idx, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += is_newaxis(L, idx[i]);
    return k;
}

static bool is_mask_index(Lower *L, const NgJitExpr *e);

/* The array a subscript chain or name refers to, with its indices:
 * a[i][j, k] gives a and (i, j, k), a[i, 1:3] a and (i, the slice). Returns
 * the Sym or NULL after an error. */
static Sym *index_chain(Lower *L, const NgJitExpr *e, const NgJitExpr **idx, int *nidx, Sym **view)
{
    if (e->kind == NG_JIT_E_NAME) {
        Sym *s = sym_of(L, e);
        *view = NULL;
        if (s->kind == SYM_VIEW) {
            *view = s;
            *nidx = 0;
            return s->base;
        }
        if (s->kind != SYM_ARRAY) {
            char buf[80];
            fail(L, e->span.line, s->kind == SYM_UNBOUND ? NG_ERR_VALUE : NG_ERR_UNSUPPORTED,
                 s->kind == SYM_UNBOUND ? "name '%s' has no type: it is not bound before the loop"
                                        : "subscripting '%s' (not an array) is not supported in a compiled loop",
                 snip(L, e, buf, sizeof buf));
            return NULL;
        }
        *nidx = 0;
        return s;
    }
    if (e->kind != NG_JIT_E_SUBSCRIPT) {
        char buf[80], what[256];
        snprintf(what, sizeof what, "subscripting '%s'", snip(L, e, buf, sizeof buf));
        unsupported(L, e->span.line, what);
        return NULL;
    }
    if (is_mask_index(L, e)) {
        unsupported(L, e->span.line, "indexing a boolean mask's selection (x[m][:3]), or an array by an array");
        return NULL;
    }
    Sym *s = index_chain(L, e->lhs, idx, nidx, view);
    if (!s)
        return NULL;
    if (slices_in(idx, *nidx) || newaxes_in(L, idx, *nidx)) {
        unsupported(L, e->span.line, "indexing a slice of an array (or a part with a new axis)");
        return NULL;
    }
    if (gathers_in(L, idx, *nidx)) {
        unsupported(L, e->span.line, "indexing an array indexed by an array of integers (x[idx][0])");
        return NULL;
    }
    int fixed = *view ? (*view)->nfixed : 0;
    const NgJitExpr *ix = e->rhs;
    if (ix->kind == NG_JIT_E_TUPLE && gathers_in(L, (const NgJitExpr *const *)ix->items, ix->nitems)) {
        int first = -1, last = -1, slices = 0; /* (NumPy's advanced indices: the array, the integers with it) */
        for (int i = 0; i < ix->nitems; i++) {
            bool plain = ix->items[i]->kind == NG_JIT_E_SLICE || is_newaxis(L, ix->items[i]);
            first = !plain && first < 0 ? i : first;
            last = !plain ? i : last;
            slices += plain && first >= 0;
        }
        if (slices > (ix->nitems - 1 - last)) { /* (a slice between them: NumPy puts the array's axes first) */
            unsupported(L, e->span.line, "indexing with an array of integers and an integer apart (X[i, :, idx])");
            return NULL;
        }
    }
    /* X[i, :] is X[i]: the full slices after the indices name no axis of their own (but may
     * not be more axes than X has); other slices are in idx, for the callers that take them */
    int n = ng_jit_index_count(ix), all = ix->kind == NG_JIT_E_TUPLE ? ix->nitems : 1, nones = 0;
    for (int i = 0; i < all; i++) {
        const NgJitExpr *one = ix->kind == NG_JIT_E_TUPLE ? ix->items[i] : ix;
        if (i < n && *nidx == NG_MAXDIMS) {
            unsupported(L, e->span.line, "a part of more than 32 new axes and indices");
            return NULL;
        }
        if (i < n && is_newaxis(L, one) && s->given->seq == NG_JIT_SEQ_ARRAY) { /* (x[:, None]: an axis of its
                                                                                    own, none of x's) */
            idx[(*nidx)++] = one;
            nones++;
            continue;
        }
        if (i < n && one->kind == NG_JIT_E_SLICE && s->given->seq != NG_JIT_SEQ_ARRAY) {
            unsupported(L, one->span.line, s->given->seq == NG_JIT_SEQ_STR ? "slicing a str other than into a local"
                                                                             : "slicing a tuple or a dict");
            return NULL;
        }
        if (fixed + *nidx - nones + (i < n ? 0 : all - i - 1) >= s->given->ndim) {
            fail(L, e->span.line, NG_ERR_INDEX, "too many indices for array '%s': array is %d-dimensional",
                 s->name, s->given->ndim);
            return NULL;
        }
        if (i < n)
            idx[(*nidx)++] = one;
    }
    return s;
}

/* Whether a raise (or an index out of range) stops the kernel where Python's loop stops: in a sequential
 * kernel, inside a loop body (the iterations in parallel ones all run). */
static bool stops(const Lower *L) { return !L->plan->parallel && L->in_loop > 0; }

/* Whether the indices being lowered are checked: a store's always, a read's unless plan->unchecked
 * (boundscheck=False). */
static bool checking(const Lower *L) { return !L->plan->unchecked || L->storing; }

/* r with the reads of variable `var` replaced by `with`, where r is affine in var (a sum of
 * invariant terms and var times an invariant factor); NG_IR_NONE when it is not, or reads
 * another variable. *uses counts the reads replaced. */
static NgIrRef affine_subst(Lower *L, NgIrRef r, int var, NgIrRef with, int *uses, int depth)
{
    NgIrKernel *k = L->k;
    const NgIrNode *n = ng_ir_node(k, r);
    if (depth > 12)
        return NG_IR_NONE;
    switch (n->kind) {
    case NG_IR_CONST: case NG_IR_SCALAR: case NG_IR_SHAPE:
        return r;
    case NG_IR_VAR:
        if (n->nkids || n->a != var)
            return r; /* (another counter: the caller replaces it in turn, or finds it left) */
        ++*uses;
        return with;
    case NG_IR_CAST: {
        NgIrRef a = n->dtype == NG_INT64 ? affine_subst(L, ng_ir_kid(k, r, 0), var, with, uses, depth + 1) : NG_IR_NONE;
        return a == NG_IR_NONE ? NG_IR_NONE : a == ng_ir_kid(k, r, 0) ? r : ng_ir_cast(k, NG_INT64, a);
    }
    case NG_IR_UNARY: {
        if (n->op != NG_OP_NEG || n->dtype != NG_INT64)
            return NG_IR_NONE;
        NgIrRef a = affine_subst(L, ng_ir_kid(k, r, 0), var, with, uses, depth + 1);
        return a == NG_IR_NONE ? NG_IR_NONE : a == ng_ir_kid(k, r, 0) ? r : ng_ir_unary(k, NG_OP_NEG, NG_INT64, a);
    }
    case NG_IR_BINARY: {
        NgIrRef x = ng_ir_kid(k, r, 0), y = ng_ir_kid(k, r, 1);
        if (n->dtype != NG_INT64 || (n->op != NG_OP_ADD && n->op != NG_OP_SUB && n->op != NG_OP_MUL) ||
            (n->op == NG_OP_MUL && !invariant(L, x) && !invariant(L, y)))
            return NG_IR_NONE;
        NgIrRef a = affine_subst(L, x, var, with, uses, depth + 1);
        NgIrRef b = a == NG_IR_NONE ? NG_IR_NONE : affine_subst(L, y, var, with, uses, depth + 1);
        if (b == NG_IR_NONE)
            return NG_IR_NONE;
        return a == x && b == y ? r : ng_ir_binary(k, (NgOp)n->op, NG_INT64, a, b);
    }
    default:
        return NG_IR_NONE;
    }
}

/* A store's or read's index i (before wrapping) on an axis of length n, checked before the loop
 * instead of at every access: where i is invariant, or affine in the counters of range loops
 * around the access (each by 1 or -1 between invariant ends), and the access runs in every
 * iteration of them (no if, while or short-circuit around it), the values i takes lie between its
 * values at the corners of those ranges. If a corner is outside [-n, n) (and each range has an
 * iteration) the loop runs as Python, which raises IndexError where it gets there (after the
 * stores before it, as Python's own loop does). Returns whether it did so (else the index is
 * checked where it runs). */
static bool hoisted_check(Lower *L, NgIrRef i, NgIrRef n, int line)
{
    enum { MAX_CORNERS = 8 };
    NgIrKernel *k = L->k;
    for (int p = 0; p < L->nproven; p++) /* (each value it takes is in range: `if x[i] > 0 and x[i] < 1`) */
        if (L->proven[p].i == i && L->proven[p].n == n)
            return true;
    bool fixed = is_const(L, i); /* (pos[j, 0] under an if: out of range, the loop is Python's; in, no check) */
    if ((!fixed && (L->in_cond || L->jumped || L->guard != NG_IR_NONE)) || L->plan->scan || !invariant(L, n) ||
        L->st != NG_OK)
        return false; /* (a scan's part checks its stores where they run: its NG_JIT_PYTHON cell is not safe) */
    NgIrRef corners[MAX_CORNERS] = {i}, runs = NG_IR_NONE;
    int ncorners = 1;
    for (int c = L->ncounters - 1; c >= 0; c--) {
        int uses = 0;
        NgIrRef at_first[MAX_CORNERS], at_last[MAX_CORNERS];
        for (int j = 0; j < ncorners; j++) {
            at_first[j] = affine_subst(L, corners[j], L->counters[c].var, L->counters[c].first, &uses, 0);
            at_last[j] = at_first[j] == NG_IR_NONE ? NG_IR_NONE
                                                   : affine_subst(L, corners[j], L->counters[c].var, L->counters[c].last, &uses, 0);
            if (at_last[j] == NG_IR_NONE)
                return false;
        }
        if (!uses)
            continue;
        if (2 * ncorners > MAX_CORNERS)
            return false;
        for (int j = 0; j < ncorners; j++)
            corners[ncorners + j] = at_last[j], corners[j] = at_first[j];
        ncorners *= 2;
        NgIrRef has = ng_ir_binary(k, NG_OP_GT, NG_BOOL, L->counters[c].trips, ng_ir_const_i(k, NG_INT64, 0));
        runs = runs == NG_IR_NONE ? has : ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, runs, has);
    }
    NgIrRef bad = NG_IR_NONE, neg_n = ng_ir_unary(k, NG_OP_NEG, NG_INT64, n);
    for (int j = 0; j < ncorners; j++) {
        if (!invariant(L, corners[j]))
            return false;
        NgIrRef out = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, corners[j], neg_n),
                                   ng_ir_binary(k, NG_OP_GE, NG_BOOL, corners[j], n));
        bad = bad == NG_IR_NONE ? out : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, bad, out);
    }
    if (runs != NG_IR_NONE)
        bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, runs, bad);
    /* (not python_body: a scan, which never launches this kernel, checks its own stores) */
    NgIrRef c = ng_ir_select(k, bad, ng_ir_const_i(k, NG_INT64, ng_jit_raise_code(NG_JIT_RAISE_STORE_RANGE, line,
                                                                                  !L->storing)),
                             ng_ir_const_i(k, NG_INT64, 0));
    L->store_code = L->store_code == NG_IR_NONE ? c : ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, L->store_code, c);
    if (L->nproven < (int)(sizeof L->proven / sizeof *L->proven))
        L->proven[L->nproven].i = i, L->proven[L->nproven++].n = n;
    return true;
}

/* Where indices are checked (checking): records the check `good` of index i
 * (before wrapping) on `axis` of size n, as a statement for L->pending that
 * fills the error array when the access runs and fails. */
static void record_check(Lower *L, NgIrRef good, NgIrRef i, int axis, NgIrRef n, int line)
{
    NgIrKernel *k = L->k;
    if (!checking(L) || good == NG_IR_NONE)
        return;
    if (L->err_param < 0) /* (a store's first check: the error array, a parameter made late) */
        L->err_param = ng_ir_param_array(k, NG_INT64, 1, true, true);
    NgIrRef bad = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, good);
    if (L->guard != NG_IR_NONE)
        bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, L->guard, bad);
    NgIrRef at[4], st[4];
    NgIrRef vals[4] = {ng_ir_const_i(k, NG_INT64, line), i, ng_ir_const_i(k, NG_INT64, axis), n};
    /* a scan's last part (its blocks, each in order: plan->scan 3): four fields per block, at 4 * b,
       the block's first failure alone; the host takes the first block's (Python's first failing
       iteration: the earlier blocks had none), not whichever block wrote last */
    bool per_block = L->plan->scan == 3 && L->in_body && L->rank != NG_IR_NONE;
    NgIrRef base = per_block ? ng_ir_binary(k, NG_OP_MUL, NG_INT64, L->rank, ng_ir_const_i(k, NG_INT64, 4))
                             : ng_ir_const_i(k, NG_INT64, 0);
    if (per_block)
        bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, bad,
                           ng_ir_binary(k, NG_OP_EQ, NG_BOOL, ng_ir_load(k, L->err_param, 1, &base),
                                        ng_ir_const_i(k, NG_INT64, 0)));
    for (int f = 0; f < 4; f++)
        at[f] = per_block ? ng_ir_binary(k, NG_OP_ADD, NG_INT64, base, ng_ir_const_i(k, NG_INT64, f))
                          : ng_ir_const_i(k, NG_INT64, f);
    for (int f = 0; f < 4; f++) /* the line last: the host looks at [0] */
        st[f] = ng_ir_store(k, L->err_param, 1, &at[(f + 1) % 4], vals[(f + 1) % 4]);
    if (L->plan->parallel && L->seq_loops > 0) { /* (the iteration runs on after the loop) */
        NgIrRef five[5] = {st[0], st[1], st[2], st[3], ng_ir_jump(k, NG_IR_BREAK)};
        append(L, L->pending, ng_ir_if(k, bad, ng_ir_block(k, 5, five), NG_IR_NONE));
        return;
    }
    if (stops(L)) { /* (a sequential kernel: as Python, nothing after the first runs) */
        if (L->stop_var < 0)
            L->stop_var = ng_ir_var(k, NG_BOOL);
        NgIrRef six[6] = {st[0], st[1], st[2], st[3], ng_ir_assign(k, L->stop_var, ng_ir_const_i(k, NG_BOOL, 1)),
                          ng_ir_jump(k, NG_IR_BREAK)};
        append(L, L->pending, ng_ir_if(k, bad, ng_ir_block(k, 6, six), NG_IR_NONE));
        return;
    }
    append(L, L->pending, ng_ir_if(k, bad, ng_ir_block(k, 4, st), NG_IR_NONE));
}

/* The guard of an operand evaluated only when c (a bool) holds, or (when
 * `negate`) does not. */
static NgIrRef guard_with(Lower *L, NgIrRef c, bool negate)
{
    if (c == NG_IR_NONE)
        return L->guard;
    if (negate)
        c = ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, c);
    return L->guard == NG_IR_NONE ? c : ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, L->guard, c);
}

/* Integer index v on axis `axis` of length n as an int64, a negative one (unless v.nonneg)
 * counted from the end; where `check` and indices are checked (checking), one out of range is
 * NumPy's IndexError: before the loop where hoisted_check can (not under boundscheck, which
 * checks every access), else recorded where it runs, and *ok (may be NULL) and-ed with its
 * being in range. */
static NgIrRef wrap_index(Lower *L, Val v, NgIrRef n, int axis, bool check, NgIrRef *ok, int line)
{
    NgIrRef i = as(L, v, NG_INT64), w = i;
    if (!v.nonneg && is_const(L, i)) {
        w = ng_ir_binary(L->k, NG_OP_ADD, NG_INT64, i, n);
    } else if (!v.nonneg) {
        NgIrRef neg = ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, i, ng_ir_const_i(L->k, NG_INT64, 0));
        w = ng_ir_select(L->k, neg, ng_ir_binary(L->k, NG_OP_ADD, NG_INT64, i, n), i);
    }
    if (check && checking(L) && !L->plan->boundscheck && hoisted_check(L, i, n, line))
        return w;
    if (checking(L) && check) {
        NgIrRef good = ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, ng_ir_cast(L->k, NG_UINT64, w),
                                    ng_ir_cast(L->k, NG_UINT64, n));
        record_check(L, good, i, axis, n, line);
        if (ok)
            *ok = *ok == NG_IR_NONE ? good : ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, *ok, good);
    }
    return w;
}

/* The index expression for axis `axis` of array s: an int64, wrapped when it
 * may be negative. Where checked where it runs (wrap_index), *ok (NG_IR_NONE:
 * true) gets and-ed with the index being in range. */
static NgIrRef index_value(Lower *L, Sym *s, int axis, const NgJitExpr *ix, NgIrRef *ok)
{
    if (is_gather(L, ix)) { /* (element() takes them, in an elementwise expression of rows) */
        unsupported(L, ix->span.line, "an array indexed by an array of integers (x[idx]) other than read in an "
                                      "elementwise expression or a reduction");
        return NG_IR_NONE;
    }
    Val v = expr(L, ix);
    if (v.r == NG_IR_NONE)
        return NG_IR_NONE;
    if (v.dt == NG_BOOL || ng_dtype_is_float(v.dt)) {
        fail(L, ix->span.line, v.dt == NG_BOOL ? NG_ERR_UNSUPPORTED : NG_ERR_TYPE,
             "only integers are valid indices (got '%s')", type_name(v));
        return NG_IR_NONE;
    }
    if (kind_of(v.dt) == NG_KIND_UINT)
        v.nonneg = true;
    if (v.within == axis_key(s->param, axis))
        return v.r; /* range(x.shape[k])'s counter on that axis: in range */
    bool check = ok != NULL && (s->given->seq != NG_JIT_SEQ_TUPLE || L->plan->boundscheck); /* (a tuple's item:
                                                                                   load's own IndexError) */
    return wrap_index(L, v, ng_ir_shape(L->k, s->param, axis), axis, check, ok, ix->span.line);
}

/* The indices a view fixes, in idx[0..view->nfixed); where they may be out of range here, *ok
 * and-ed with their being in range. They are checked where the view was made (reported there),
 * unless plan->unchecked: then a store through it reports them (with that line). */
static int view_indices(Lower *L, const Sym *view, NgIrRef *idx, NgIrRef *ok)
{
    if (!view)
        return 0;
    bool guard = L->plan->boundscheck || L->storing || view->view_unsure;
    for (int d = 0; d < view->nfixed; d++) {
        idx[d] = ng_ir_varref(L->k, view->fixed_var[d]);
        if (checking(L) && guard) {
            NgIrRef n = ng_ir_shape(L->k, view->base->param, d);
            NgIrRef good = ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, ng_ir_cast(L->k, NG_UINT64, idx[d]),
                                        ng_ir_cast(L->k, NG_UINT64, n));
            if (L->plan->unchecked) /* (a store through row = X[i]: where the view was made, Python's
                                       IndexError; reported at the store, the view's reads unchecked) */
                record_check(L, good, idx[d], d, n, view->view_line);
            *ok = *ok == NG_IR_NONE ? good : ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, *ok, good);
        }
    }
    return view->nfixed;
}

/* A slice bound (x of a[x:y]) as an int64, NONE after an error; *nonneg
 * (may be NULL) whether it is known never to be negative. */
static NgIrRef slice_bound(Lower *L, const NgJitExpr *x, bool *nonneg)
{
    NgIrKernel *k = L->k;
    Val v = expr(L, x);
    if (v.r == NG_IR_NONE)
        return NG_IR_NONE;
    if (!ng_dtype_is_int(v.dt) || v.chr) {
        fail(L, x->span.line, v.dt == NG_BOOL ? NG_ERR_UNSUPPORTED : NG_ERR_TYPE,
             "slice indices must be integers or None or have an __index__ method (got '%s')",
             v.chr ? "str" : type_name(v));
        return NG_IR_NONE;
    }
    NgIrRef b = as(L, v, NG_INT64);
    if (nonneg)
        *nonneg = (v.nonneg || lo_of(L, v) >= 0) && v.dt != NG_UINT64;
    if (v.dt == NG_UINT64) /* (from 2**63 on: past every end) */
        b = ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, b, ng_ir_const_i(k, NG_INT64, 0)),
                         ng_ir_const_i(k, NG_INT64, INT64_MAX), b);
    return b;
}

/* Slice bound b on an axis of length n, as Python clamps it: b + n where
 * negative, then into [lo, n + lo] (lo 0 for a positive step, -1 else);
 * `nonneg`: b is known never to be negative. */
static NgIrRef clamp_bound(Lower *L, NgIrRef b, NgIrRef n, int64_t lo, bool nonneg)
{
    NgIrKernel *k = L->k;
    NgIrRef up = ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_INT64, b, n),
                              ng_ir_const_i(k, NG_INT64, lo));
    NgIrRef top = lo ? ng_ir_binary(k, NG_OP_ADD, NG_INT64, n, ng_ir_const_i(k, NG_INT64, lo)) : n;
    NgIrRef down = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, b, top);
    if (is_const(L, b)) /* (x[1:-1]: the one that applies) */
        return const_i(L, b) < 0 ? up : down;
    if (nonneg) /* (x[i:i + 3] in range(n): no wrap) */
        return down;
    return ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, b, ng_ir_const_i(k, NG_INT64, 0)), up, down);
}

/* r as base + *off, *off a constant (base NONE for a constant r). */
static NgIrRef offset_of(const Lower *L, NgIrRef r, int64_t *off)
{
    const NgIrNode *n = ng_ir_node(L->k, r);
    const int64_t most = INT64_C(1) << 32;
    *off = 0;
    if (n->kind == NG_IR_CONST && ng_dtype_is_int((NgDType)n->dtype) && n->c.i >= -most && n->c.i <= most) {
        *off = n->c.i;
        return NG_IR_NONE;
    }
    if (n->kind != NG_IR_BINARY || n->dtype != NG_INT64 || (n->op != NG_OP_ADD && n->op != NG_OP_SUB))
        return r;
    NgIrRef a = ng_ir_kid(L->k, r, 0), b = ng_ir_kid(L->k, r, 1);
    if (is_const(L, b) && const_i(L, b) >= -most && const_i(L, b) <= most) {
        *off = n->op == NG_OP_ADD ? const_i(L, b) : -const_i(L, b);
        return a;
    }
    if (is_const(L, a) && n->op == NG_OP_ADD && const_i(L, a) >= -most && const_i(L, a) <= most) {
        *off = const_i(L, a);
        return b;
    }
    return r;
}

/* Window sl (a[lo:hi] on an axis of `n` elements) into *win where hi is lo plus a constant
 * (x[i - 1:i + 2], img[2 * i:2 * i + 2]), else win->width 0; start and len as slice_window
 * made them. */
static void window_of_slice(Lower *L, NgIrRef lo, NgIrRef hi, NgIrRef n, int64_t step, NgIrRef start,
                            NgIrRef len, Window *win)
{
    int64_t a, b;
    win->width = 0;
    if (step != 1 || lo == NG_IR_NONE || hi == NG_IR_NONE || offset_of(L, lo, &a) != offset_of(L, hi, &b) ||
        b - a < 1 || b - a > MAX_WINDOW_WIDTH)
        return;
    *win = (Window){.lo = lo, .n = n, .width = b - a, .start = start, .len = len};
}

/* The elements slice sl (a[x:y:z]) selects on axis `axis` of s, as Python's
 * slices do: the first one's index *start, their number *len (int64) and
 * the step *step (a constant). False after an error. *win (may be NULL): the window where
 * its width is a constant (window_of_slice). */
static bool slice_window(Lower *L, Sym *s, int axis, const NgJitExpr *sl, NgIrRef *start, NgIrRef *len,
                         int64_t *step, Window *win)
{
    NgIrKernel *k = L->k;
    int line = sl->span.line;
    NgIrRef lo = NG_IR_NONE, hi = NG_IR_NONE; /* (Python's order: start, stop, step) */
    bool lo_pos = false, hi_pos = false;
    if ((sl->lhs && (lo = slice_bound(L, sl->lhs, &lo_pos)) == NG_IR_NONE) ||
        (sl->rhs && (hi = slice_bound(L, sl->rhs, &hi_pos)) == NG_IR_NONE))
        return false;
    *step = 1;
    if (sl->cond) {
        Val st = expr(L, sl->cond);
        if (st.r == NG_IR_NONE)
            return false;
        if (!is_const(L, st.r) || !ng_dtype_is_int(st.dt) || st.chr) {
            unsupported(L, line, "a slice step that is not a constant integer");
            return false;
        }
        if ((*step = const_i(L, st.r)) == 0) {
            unsupported(L, line, "a slice step of 0 (Python's ValueError)");
            return false;
        }
    }
    NgIrRef n = ng_ir_shape(k, s->param, axis), zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef one = ng_ir_const_i(k, NG_INT64, 1);
    bool up = *step > 0;
    NgIrRef first = lo != NG_IR_NONE ? clamp_bound(L, lo, n, up ? 0 : -1, lo_pos)
                    : up ? zero : ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, one);
    NgIrRef last = hi != NG_IR_NONE ? clamp_bound(L, hi, n, up ? 0 : -1, hi_pos) : up ? n : ng_ir_const_i(k, NG_INT64, -1);
    NgIrRef a = up ? first : last, b = up ? last : first; /* (a < b: not empty) */
    NgIrRef d = a == zero ? b : ng_ir_binary(k, NG_OP_SUB, NG_INT64, b, a);
    int64_t m = up ? *step : -*step;
    if (m == 1 && (lo == NG_IR_NONE || hi == NG_IR_NONE)) { /* (one end the axis' own: b >= a) */
        *len = d;
    } else if (m == 1) {
        *len = ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, d, zero);
    } else { /* (d - 1) // m + 1 elements when d > 0 */
        NgIrRef count = ng_ir_binary(k, NG_OP_ADD, NG_INT64,
                                     ng_ir_binary(k, NG_OP_TRUEDIV, NG_INT64, ng_ir_binary(k, NG_OP_SUB, NG_INT64, d, one),
                                                  ng_ir_const_i(k, NG_INT64, m)), one);
        *len = ng_ir_select(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, d, zero), count, zero);
    }
    *start = first;
    if (win)
        window_of_slice(L, lo, hi, n, *step, first, *len, win);
    return true;
}

static NgIrRef in_var(Lower *L, NgIrRef r);

/* A loop's trip count n as a variable computed before it, unless it is an
 * extent, a constant or a scalar parameter already. */
static NgIrRef plain_count(Lower *L, NgIrRef n)
{
    if (n == NG_IR_NONE)
        return n;
    const NgIrNode *x = ng_ir_node(L->k, n);
    bool plain = x->kind == NG_IR_SHAPE || x->kind == NG_IR_CONST || x->kind == NG_IR_SCALAR ||
                 (x->kind == NG_IR_VAR && !x->nkids);
    return plain ? n : in_var(L, n);
}

/* r, the same in the whole kernel, or else computed now (under the guard)
 * into a variable. */
static NgIrRef settled(Lower *L, NgIrRef r)
{
    return invariant(L, r) ? r : in_var(L, r);
}

/* r computed now (under the guard: else 0) into a variable of its dtype. */
static NgIrRef in_var(Lower *L, NgIrRef r)
{
    NgIrKernel *k = L->k;
    NgDType dt = (NgDType)ng_ir_node(k, r)->dtype;
    int v = ng_ir_var(k, dt);
    append(L, L->pending, ng_ir_let(k, v, L->guard == NG_IR_NONE ? r : ng_ir_select(k, L->guard, r, zero_of(L, dt).r)));
    return ng_ir_varref(k, v);
}

/* slice_window, its start computed now into a variable (start + e * stride
 * is then an index the C compiler sees is affine), its length too unless it
 * is the same in the whole kernel; a window of a constant width noted for
 * the loop around (versioned). */
static bool window_vars(Lower *L, Sym *s, int axis, const NgJitExpr *sl, NgIrRef *start, NgIrRef *len, int64_t *step)
{
    Window win;
    if (!slice_window(L, s, axis, sl, start, len, step, &win))
        return false;
    *start = in_var(L, *start);
    *len = win.held = settled(L, *len);
    if (win.width && L->nwindows < MAX_WINDOWS)
        L->windows[L->nwindows++] = win;
    return true;
}

/* The step between the elements of a row of length len on axis d (from the last) in the
 * elementwise expression, `step` in it: a constant where its length is the same in the whole
 * kernel, else a variable rows_length sets, 0 where the length is NumPy's broadcast 1. */
static NgIrRef row_stride(Lower *L, NgIrRef len, int64_t step, int d, int line)
{
    NgIrKernel *k = L->k;
    Rows *r = L->rows;
    if (direct_row(L, len))
        return ng_ir_const_i(k, NG_INT64, step);
    if (r->nstrides == MAX_ROWS) {
        unsupported(L, line, "an expression of more than 16 rows whose lengths vary");
        return ng_ir_const_i(k, NG_INT64, step);
    }
    int v = ng_ir_var(k, NG_INT64);
    r->strides[r->nstrides].var = v;
    r->strides[r->nstrides].len = len;
    r->strides[r->nstrides].step = step;
    r->strides[r->nstrides].axis = d + r->shift;
    r->strides[r->nstrides++].second = r->split >= 0 && d == 0;
    return ng_ir_varref(k, v);
}

/* a[x:y:z] on axis `axis` of s in an elementwise expression of rows: the
 * index of the element its loop is at (the slice's window made once,
 * before the loop). */
static NgIrRef window_index(Lower *L, Sym *s, int axis, const NgJitExpr *sl, int d)
{
    NgIrKernel *k = L->k;
    NgIrRef start, len;
    int64_t step;
    RowsSaved was = outside_rows(L);
    bool good = window_vars(L, s, axis, sl, &start, &len, &step);
    restore_rows(L, was);
    if (!good)
        return NG_IR_NONE;
    NgIrRef at = row_index(L, len, d, sl->span.line);
    NgIrRef stride = row_stride(L, len, step, d, sl->span.line);
    if (step == 1 && is_const(L, stride))
        return ng_ir_binary(k, NG_OP_ADD, NG_INT64, start, at);
    return ng_ir_binary(k, NG_OP_ADD, NG_INT64, start, ng_ir_binary(k, NG_OP_MUL, NG_INT64, at, stride));
}

/* The index on axis `axis` of s that row of integers ix (is_gather) gives at axis d of the
 * elementwise expression it is read in: ix's element there (ix lowered with its one axis at d,
 * Rows.shift), wrapped where negative; under boundscheck, checked (NumPy's IndexError). */
static NgIrRef gathered(Lower *L, Sym *s, int axis, const NgJitExpr *ix, int d, NgIrRef *ok)
{
    int line = ix->span.line;
    if (row_rank(L, ix) != 1) {
        unsupported(L, line, "indexing with an array of integers of 2 or more axes");
        return NG_IR_NONE;
    }
    Rows *rows = L->rows;
    int was = rows->shift;
    rows->shift += d;
    Val v = expr(L, ix);
    rows->shift = was;
    if (v.r == NG_IR_NONE)
        return NG_IR_NONE;
    if (!ng_dtype_is_int(v.dt) || v.dt == NG_BOOL) {
        unsupported(L, line, "indexing with an array of integers and booleans mixed");
        return NG_IR_NONE;
    }
    v.nonneg = v.nonneg || kind_of(v.dt) == NG_KIND_UINT;
    return wrap_index(L, v, ng_ir_shape(L->k, s->param, axis), axis, ok != NULL, ok, line);
}

/* Resolves an element reference a[i, j]: its array and full multi-index;
 * *ok is NG_IR_NONE, or under boundscheck whether every index is in range.
 * In an elementwise expression of rows, a[i] (one axis left) and a[i, x:y]
 * (one slice) are rows: the element the loop is at. Returns NULL (after an
 * error, or with an index unknown in this pass). */
static Sym *element(Lower *L, const NgJitExpr *e, NgIrRef *idx, NgIrRef *ok)
{
    *ok = NG_IR_NONE;
    const NgJitExpr *ix[NG_MAXDIMS];
    int n = 0;
    Sym *view;
    Sym *s = index_chain(L, e, ix, &n, &view);
    if (!s)
        return NULL;
    if (s->given->seq == NG_JIT_SEQ_DICT_CHR || s->given->seq == NG_JIT_SEQ_DICT_INT) {
        fail(L, e->span.line, NG_ERR_UNSUPPORTED, "changing dict '%s' is not supported in a compiled loop (it only "
             "reads dicts: fill it before the loop, or store into an array indexed by the key)", s->name);
        return NULL;
    }
    int gathers = gathers_in(L, ix, n);
    if (gathers > 1) { /* (NumPy pairs their elements up) */
        unsupported(L, e->span.line, "indexing with two or more arrays of integers (X[a, b])");
        return NULL;
    }
    int fixed = view_indices(L, view, idx, ok), nd = s->given->ndim, slices = slices_in(ix, n) + gathers;
    int nones = newaxes_in(L, ix, n);
    int free = slices + nones + nd - fixed - (n - nones); /* (the axes of the part it names: its slices, its
                                                              new axes, the axes after) */
    if (free && L->elem == NG_IR_NONE) {
        char buf[80], what[256];
        if (slices || nones)
            snprintf(what, sizeof what, "'%s' (a slice as a value: slices compile inside np.sum(...) and "
                     "the like, and as parts stored whole)", snip(L, e, buf, sizeof buf));
        else
            snprintf(what, sizeof what, "'%s' (%d of the %d indices of a %d-d array: a sub-array)",
                     snip(L, e, buf, sizeof buf), fixed + n, nd, nd);
        unsupported(L, e->span.line, what);
        return NULL;
    }
    /* in an elementwise expression of rows (np.sum(X[i]), np.max(img[i:i + 2, j:j + 2])): the
     * element its loops are at on the free axes, the last one's innermost */
    bool known = true;
    int d = free, ax = fixed;
    for (int p = 0; p < n; p++) {
        if (is_newaxis(L, ix[p])) { /* (its length 1 broadcasts: no index, no axis of s) */
            new_axis(L, --d, e->span.line);
            continue;
        }
        idx[ax] = ix[p]->kind == NG_JIT_E_SLICE ? window_index(L, s, ax, ix[p], --d)
                  : is_gather(L, ix[p])          ? gathered(L, s, ax, ix[p], --d, ok)
                                                 : index_value(L, s, ax, ix[p], ok);
        known = known && idx[ax] != NG_IR_NONE;
        ax++;
    }
    if (!known) /* (an index failed, L says why: the axes after it are not the expression's) */
        return NULL;
    for (; ax < nd; ax++) {
        NgIrRef len = ng_ir_shape(L->k, s->param, ax);
        idx[ax] = row_index(L, len, --d, e->span.line);
        if (L->plan->boundscheck || L->storing) { /* (a read's: in range where rows broadcast) */
            NgIrRef in = ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, idx[ax], len);
            *ok = *ok == NG_IR_NONE ? in : ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, *ok, in);
        }
    }
    return known && L->st == NG_OK ? s : NULL;
}

/* a[idx], or where its index is checked where it runs `ok ? a[idx] : 0` (never reading outside a). */
static NgIrRef guarded_load(Lower *L, Sym *s, const NgIrRef *idx, NgIrRef ok)
{
    NgIrRef x = ng_ir_load(L->k, s->param, s->given->ndim, idx);
    if (ok == NG_IR_NONE)
        return x;
    return ng_ir_select(L->k, ok, x, zero_of(L, s->given->dtype).r);
}

/* After a loop inside a loop body of a sequential kernel (or a helper's
 * one-trip loop) that may have stopped on a raise: `if (raise) break;`, so
 * the stop leaves every loop around it, and nothing after the failing
 * operation runs (no store of what it gave: Python's arrays as its loop
 * leaves them). */
static void carry_stop(Lower *L, Stmts *out)
{
    if (!stops(L) || (L->raise_var < 0 && L->stop_var < 0) || L->st != NG_OK)
        return;
    NgIrKernel *k = L->k;
    NgIrRef raised = L->raise_var < 0 ? NG_IR_NONE
                                      : ng_ir_binary(k, NG_OP_NE, NG_BOOL, ng_ir_varref(k, L->raise_var),
                                                     ng_ir_const_i(k, NG_INT64, 0));
    NgIrRef stopped = L->stop_var < 0 ? NG_IR_NONE : ng_ir_varref(k, L->stop_var);
    NgIrRef any = raised == NG_IR_NONE ? stopped
                  : stopped == NG_IR_NONE ? raised : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, raised, stopped);
    append(L, out, ng_ir_if(k, any, ng_ir_jump(k, NG_IR_BREAK), NG_IR_NONE));
}

/* Where `cond` holds, the raise code `value` counts: in the raise cell, a max of the codes; in
 * the body of a parallel loop whose iterations have ranks, in the first cell instead (a max of
 * codes with the iteration's rank above them: NG_JIT_RAISE_RANKS, the first failing iteration's
 * code, whatever its kind, as Python's), the raise cell then keeping only codes of more than
 * NG_JIT_RAISE_LOW_BITS bits (a KeyError's key, a bound's int), whose rest the first one drops.
 * Either costs an iteration a select and a max per operation, the rank's part once. */
static void record_raise(Lower *L, NgIrRef cond, NgIrRef value)
{
    NgIrKernel *k = L->k;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0);
    bool ranked = L->in_body && L->rank != NG_IR_NONE && L->plan->parallel;
    const NgIrNode *v = ng_ir_node(k, value);
    bool small = v->kind == NG_IR_CONST && v->c.i >= 0 && v->c.i < (INT64_C(1) << NG_JIT_RAISE_LOW_BITS);
    if (ranked) {
        if (L->rfirst_var < 0)
            L->rfirst_var = ng_ir_var(k, NG_INT64);
        NgIrRef inv = ng_ir_binary(k, NG_OP_SUB, NG_INT64, ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_RANKS),
                                   ng_ir_binary(k, NG_OP_BITAND, NG_INT64, L->rank,
                                                ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_RANKS - 1)));
        NgIrRef low = small ? value : ng_ir_binary(k, NG_OP_BITAND, NG_INT64, value,
                                                   ng_ir_const_i(k, NG_INT64, (INT64_C(1) << NG_JIT_RAISE_LOW_BITS) - 1));
        NgIrRef packed = ng_ir_binary(k, NG_OP_BITOR, NG_INT64,
                                      ng_ir_binary(k, NG_OP_MUL, NG_INT64, inv,
                                                   ng_ir_const_i(k, NG_INT64, INT64_C(1) << NG_JIT_RAISE_LOW_BITS)),
                                      low);
        append(L, L->pending, ng_ir_assign(k, L->rfirst_var, ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64,
                                                                           ng_ir_varref(k, L->rfirst_var),
                                                                           ng_ir_select(k, cond, packed, zero))));
        if (small)
            return;
        /* the bits the first cell drops, with the rank above them in the high cell */
        if (L->rhigh_var < 0)
            L->rhigh_var = ng_ir_var(k, NG_INT64);
        NgIrRef hinv = ng_ir_binary(k, NG_OP_SUB, NG_INT64, ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_HIGH_RANKS),
                                    ng_ir_binary(k, NG_OP_BITAND, NG_INT64, L->rank,
                                                 ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_HIGH_RANKS - 1)));
        NgIrRef high = ng_ir_binary(k, NG_OP_RSHIFT, NG_INT64, value, ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_LOW_BITS));
        NgIrRef hpacked = ng_ir_binary(k, NG_OP_BITOR, NG_INT64,
                                       ng_ir_binary(k, NG_OP_LSHIFT, NG_INT64, hinv,
                                                    ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_HIGH_BITS)),
                                       high);
        append(L, L->pending, ng_ir_assign(k, L->rhigh_var, ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64,
                                                                          ng_ir_varref(k, L->rhigh_var),
                                                                          ng_ir_select(k, cond, hpacked, zero))));
    }
    L->raise_full = true;
    append(L, L->pending, ng_ir_assign(k, L->raise_var, ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64,
                                                                      ng_ir_varref(k, L->raise_var),
                                                                      ng_ir_select(k, cond, value, zero))));
}

/* Where `bad` holds (under the guard), Python raises `what` (NgJitRaise) at
 * line: the kernel records the greatest such line with it in the
 * NG_JIT_RAISE cell (a max reduction: order-free), for the host to raise.
 * raise_value_if records `value`, an int64 raise code made in the kernel. */
static void raise_value_if(Lower *L, NgIrRef bad, NgIrRef value)
{
    NgIrKernel *k = L->k;
    if (bad == NG_IR_NONE || L->st != NG_OK || !L->pending)
        return;
    if (L->guard != NG_IR_NONE)
        bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, L->guard, bad);
    if (L->raise_var < 0)
        L->raise_var = ng_ir_var(k, NG_INT64);
    if (stops(L)) { /* the first failure, and nothing after it */
        NgIrRef two[2] = {ng_ir_assign(k, L->raise_var, value), ng_ir_jump(k, NG_IR_BREAK)};
        L->raise_full = true;
        append(L, L->pending, ng_ir_if(k, bad, ng_ir_block(k, 2, two), NG_IR_NONE));
        return;
    }
    if (L->in_iteration) {
        /* an iteration's first raise only: what an operation after it raises, its own error
         * value given, Python never reaches (int(math.log(0.0))). Not in a loop inside the
         * iteration: the flag would carry from one of its steps to the next, which keeps the C
         * compiler from vectorising it (row_softmax's exp loop ran 2x slower); there every
         * raise counts, the greatest winning */
        if (L->first_var < 0)
            L->first_var = ng_ir_var(k, NG_BOOL);
        NgIrRef raised = ng_ir_varref(k, L->first_var);
        NgIrRef first = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, bad, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, raised));
        record_raise(L, first, value);
        append(L, L->pending, ng_ir_assign(k, L->first_var, ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, raised, bad)));
        return;
    }
    record_raise(L, bad, value);
}

static void block(Lower *L, NgJitBlock b, Stmts *out);

/* Lowers a parallel outer loop's body (for_range, collapsed_for) into *body,
 * which starts with first_var's reset when an operation in it may raise.
 * (Not around a parallel pair the C emitter may tile: the reset would part
 * them; there every raise counts, the greatest winning, as before.) */
static void iteration_body(Lower *L, NgJitBlock b, Stmts *body)
{
    bool was = L->in_iteration, was_body = L->in_body;
    int first = L->first_var;
    L->in_iteration = L->par_inner == NULL;
    L->in_body = true;
    L->first_var = -1;
    block(L, b, body);
    L->in_body = was_body;
    if (L->first_var >= 0)
        prepend(L, body, ng_ir_let(L->k, L->first_var, ng_ir_const_i(L->k, NG_BOOL, 0)));
    L->in_iteration = was;
    L->first_var = first;
}

static void raise_if(Lower *L, NgIrRef bad, NgJitRaise what, int line)
{
    if (bad != NG_IR_NONE)
        raise_value_if(L, bad, ng_ir_const_i(L->k, NG_INT64, (int64_t)line * NG_JIT_RAISE_CODES + what));
}

/* Where `bad` (computed before the loop) holds, the loop runs no iteration and its
 * NG_JIT_PYTHON cell gets `code` (the greatest code of those that hold: python_skip). */
static void python_if(Lower *L, NgIrRef bad, int64_t code)
{
    NgIrKernel *k = L->k;
    NgIrRef c = ng_ir_select(k, bad, ng_ir_const_i(k, NG_INT64, code), ng_ir_const_i(k, NG_INT64, 0));
    L->python_code = L->python_code == NG_IR_NONE ? c : ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, L->python_code, c);
}

/* raise_if of a raise code (a constant, which may carry a field: ng_jit_raise_code), but where
 * `bad` has one value in the whole kernel (1.0 / w, w a Python number the loop never assigns),
 * the kernel tests it before the loop and runs nothing when it holds (python_skip): the loop then
 * runs as Python, which raises at the iteration it should, in its own words, after the ones
 * before it (or not at all, where the operation is in a branch never taken). That costs the
 * loop nothing per iteration. */
static void raise_told_or_python(Lower *L, NgIrRef bad, int64_t code)
{
    if (bad == NG_IR_NONE || L->st != NG_OK)
        return;
    NgIrKernel *k = L->k;
    NgIrRef c = ng_ir_const_i(k, NG_INT64, code);
    if (!invariant(L, bad)) {
        raise_value_if(L, bad, c);
        return;
    }
    python_if(L, bad, code);
    L->python_body = true;
}

static void raise_or_python(Lower *L, NgIrRef bad, NgJitRaise what, int line)
{
    raise_told_or_python(L, bad, ng_jit_raise_code(what, line, 0));
}

/* Where the int64 value x is out of dtype dt's range (`bad`), an
 * OverflowError "Python integer x out of bounds for dt": the code carries dt,
 * and x where it is in (-2**32, 2**32) (and not negative when `unsigned`: a
 * uint64 from 2**63 on, read as an int64). */
static void bounds_raise(Lower *L, NgIrRef bad, NgIrRef x, bool unsigned_x, NgDType dt, int line)
{
    NgIrKernel *k = L->k;
    if (bad == NG_IR_NONE || L->st != NG_OK)
        return;
    if (invariant(L, bad)) { /* (Python raises with its own words) */
        raise_or_python(L, bad, NG_JIT_RAISE_INT_BOUNDS, line);
        return;
    }
    NgIrRef told = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                ng_ir_binary(k, unsigned_x ? NG_OP_GE : NG_OP_GT, NG_BOOL, x,
                                             ng_ir_const_i(k, NG_INT64, unsigned_x ? 0 : -NG_JIT_BOUNDS_BIAS)),
                                ng_ir_binary(k, NG_OP_LT, NG_BOOL, x, ng_ir_const_i(k, NG_INT64, NG_JIT_BOUNDS_BIAS)));
    NgIrRef field = ng_ir_select(k, told, ng_ir_binary(k, NG_OP_ADD, NG_INT64, x, ng_ir_const_i(k, NG_INT64, NG_JIT_BOUNDS_BIAS)),
                                 ng_ir_const_i(k, NG_INT64, 0));
    NgIrRef code = ng_ir_binary(k, NG_OP_ADD, NG_INT64,
                                ng_ir_binary(k, NG_OP_MUL, NG_INT64, field,
                                             ng_ir_const_i(k, NG_INT64, 16 * NG_JIT_RAISE_LINES * NG_JIT_RAISE_CODES)),
                                ng_ir_const_i(k, NG_INT64, ((int64_t)dt * NG_JIT_RAISE_LINES + line) * NG_JIT_RAISE_CODES +
                                                               NG_JIT_RAISE_INT_BOUNDS));
    raise_value_if(L, bad, code);
}

/* x < lo || x > hi of an int64 x, leaving out what `lo_known` (x's lower bound) rules out;
 * NG_IR_NONE when nothing is left. */
static NgIrRef outside(Lower *L, NgIrRef x, int64_t lo_known, int64_t lo, int64_t hi)
{
    NgIrKernel *k = L->k;
    NgIrRef bad = NG_IR_NONE;
    if (lo_known < lo)
        bad = ng_ir_binary(k, NG_OP_LT, NG_BOOL, x, ng_ir_const_i(k, NG_INT64, lo));
    if (hi != INT64_MAX) {
        NgIrRef over = ng_ir_binary(k, NG_OP_GT, NG_BOOL, x, ng_ir_const_i(k, NG_INT64, hi));
        bad = bad == NG_IR_NONE ? over : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, bad, over);
    }
    return bad;
}

/* NumPy 2 (NEP 50): a Python int w meeting a NumPy integer of dtype dt (an
 * operand of an arithmetic operator) raises OverflowError where dt does not
 * hold it ("Python integer -4 out of bounds for uint8"). */
static void int_bounds(Lower *L, Val w, NgDType dt, int line)
{
    if (!w.weak || w.dt != NG_INT64 || !ng_dtype_is_int(dt) || dt == NG_INT64 || w.r == NG_IR_NONE ||
        L->st != NG_OK)
        return;
    int64_t lo, hi;
    int_range(dt, &lo, &hi);
    if (is_const(L, w.r) && const_i(L, w.r) >= lo && const_i(L, w.r) <= hi)
        return;
    bounds_raise(L, outside(L, w.r, w.nonneg ? 0 : lo_of(L, w), lo, hi), w.r, false, dt, line);
}

/* What NumPy raises where a number v becomes an integer of dtype dt, through
 * a Python int: stored into an array element (or np.int8(v), `store` false).
 * A Python number always goes that way; a NumPy one stored into a signed
 * integer array too (a NumPy one into an unsigned array wraps, as a cast,
 * and np.int8 of one wraps). A NaN is a ValueError, an infinity an
 * OverflowError, and so is a value dt does not hold ("Python integer 300
 * out of bounds for int8"). */
/* v as a store into an array of dtype dt: as(), but a float into an unsigned integer array as
 * NumPy's cast on x86-64 (defined here, where C's conversion of an out-of-range float is not,
 * and GPUs saturate): the float's int64 (-2**63 for NaN and outside int64; for uint8 and uint16
 * its int32, -2**31 outside) wrapped to dt, and into uint64 from 2**63 on the int64 of
 * x - 2**63 with its top bit flipped (1e20 and inf: 0, NaN 2**63, as NumPy's). */
static NgIrRef store_cast(Lower *L, Val v, NgDType dt)
{
    if (v.r == NG_IR_NONE || !ng_dtype_is_float(v.dt) || !ng_dtype_is_int(dt) || dt == NG_BOOL ||
        ng_dtype_is_signed(dt))
        return as(L, v, dt);
    NgIrKernel *k = L->k;
    NgIrRef f = in_var(L, as(L, v, NG_FLOAT64));
    NgIrRef two63 = ng_ir_const_f(k, NG_FLOAT64, 9223372036854775808.0), least = ng_ir_const_i(k, NG_INT64, INT64_MIN);
#define TO_I64(x) ng_ir_select(k, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, \
                                  ng_ir_binary(k, NG_OP_GE, NG_BOOL, x, ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, two63)), \
                                  ng_ir_binary(k, NG_OP_LT, NG_BOOL, x, two63)), ng_ir_cast(k, NG_INT64, x), least)
    if (ng_dtype_info(dt)->itemsize <= 2) { /* (uint8, uint16: through an int32, -2**31 outside it) */
        NgIrRef two31 = ng_ir_const_f(k, NG_FLOAT64, 2147483648.0);
        NgIrRef in32 = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                    ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, two31)),
                                    ng_ir_binary(k, NG_OP_LT, NG_BOOL, f, two31));
        return ng_ir_cast(k, dt, ng_ir_select(k, in32, ng_ir_cast(k, NG_INT32, f), ng_ir_const_i(k, NG_INT32, INT32_MIN)));
    }
    NgIrRef low = ng_ir_cast(k, NG_UINT64, TO_I64(f));
    if (dt != NG_UINT64)
        return ng_ir_cast(k, dt, low);
    NgIrRef up = ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, f, two63);
    NgIrRef high = ng_ir_binary(k, NG_OP_BITXOR, NG_UINT64, ng_ir_cast(k, NG_UINT64, TO_I64(up)),
                                ng_ir_const_i(k, NG_UINT64, INT64_MIN));
#undef TO_I64
    return ng_ir_select(k, ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, two63), high, low); /* (NaN: low) */
}

static void int_conversion(Lower *L, Val v, NgDType dt, bool store, int line)
{
    if (!ng_dtype_is_int(dt) || v.r == NG_IR_NONE || L->st != NG_OK || v.dt == NG_BOOL || v.chr)
        return;
    if (!v.weak && !(store && ng_dtype_is_signed(dt)))
        return;
    NgIrKernel *k = L->k;
    int64_t lo, hi, slo, shi;
    int_range(dt, &lo, &hi);
    if (v.weak && ng_dtype_is_int(v.dt)) {
        int_bounds(L, v, dt, line);
        return;
    }
    if (ng_dtype_is_int(v.dt)) { /* a NumPy integer into a signed array */
        int_range(v.dt, &slo, &shi);
        if (v.dt == NG_UINT64) { /* (its values from 2**63 on read as negative int64s) */
            NgIrRef x = ng_ir_cast(k, NG_INT64, v.r);
            bounds_raise(L, outside(L, x, INT64_MIN, 0, hi), x, true, dt, line);
            return;
        }
        if (slo >= lo && shi <= hi)
            return;
        NgIrRef x = ng_ir_cast(k, NG_INT64, v.r);
        bounds_raise(L, outside(L, x, v.nonneg ? 0 : slo, lo, hi), x, false, dt, line);
        return;
    }
    if (!ng_dtype_is_float(v.dt))
        return;
    /* a float: NaN, an infinity, or its integer part out of range */
    NgIrRef f = as(L, v, NG_FLOAT64);
    NgIrRef nan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, f), inf = ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, f);
    raise_or_python(L, nan, NG_JIT_RAISE_NAN_INT, line);
    raise_or_python(L, inf, NG_JIT_RAISE_INF_INT, line);
    /* (past NaN and the infinities: the integer part is in [lo, hi] exactly where f is in
     * (lo - 1, hi + 1); those bounds as doubles, hi + 1 exact for every dtype) */
    bool i64 = lo == INT64_MIN; /* (then f < -2**63, which is exact, is out) */
    double below = i64 ? (double)lo : (double)lo - 1.0;
    double above = dt == NG_UINT64 ? 18446744073709551616.0 : hi == INT64_MAX ? 9223372036854775808.0 : (double)hi + 1.0;
    NgIrRef bad = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                               ng_ir_binary(k, i64 ? NG_OP_LT : NG_OP_LE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, below)),
                               ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, above)));
    bad = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, bad, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, inf));
    double cap = (double)NG_JIT_BOUNDS_BIAS; /* (a clamped value is not told) */
    NgIrRef clamped = ng_ir_binary(k, NG_OP_MINIMUM, NG_FLOAT64,
                                   ng_ir_binary(k, NG_OP_MAXIMUM, NG_FLOAT64, f, ng_ir_const_f(k, NG_FLOAT64, -cap)),
                                   ng_ir_const_f(k, NG_FLOAT64, cap));
    /* (beyond a C long, NumPy's words are Python's "Python int too large to convert to C
     * long": NG_JIT_BOUNDS_LONG in the dtype's place) */
    NgIrRef huge = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                                ng_ir_binary(k, NG_OP_LT, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, -9223372036854775808.0)),
                                ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, dt == NG_UINT64 ? 18446744073709551616.0
                                                                                                           : 9223372036854775808.0)));
    bounds_raise(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, bad, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, huge)),
                 ng_ir_cast(k, NG_INT64, clamped), false, dt, line);
    bounds_raise(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, huge, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, inf)),
                 ng_ir_const_i(k, NG_INT64, 0), false, (NgDType)NG_JIT_BOUNDS_LONG, line);
}

/* Python's checks of a math function's float result r of float arguments
 * x (and y): NaN from numbers is a domain error, an infinity from finite
 * numbers a range error (`overflows`) or a domain one (log(0.0)), but
 * where `domain` (NG_IR_NONE: nowhere) holds, a domain error (a pole). */
static void math_raises(Lower *L, NgIrRef r, NgIrRef x, NgIrRef y, bool overflows, NgIrRef domain, int line)
{
    NgIrKernel *k = L->k;
    NgIrRef nan_in = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x), finite_in = ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, x);
    if (y != NG_IR_NONE) {
        nan_in = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, nan_in, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, y));
        finite_in = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, finite_in, ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, y));
    }
    NgIrRef nan_out = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, r),
                                   ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, nan_in));
    NgIrRef inf_out = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, r), finite_in);
    raise_or_python(L, nan_out, NG_JIT_RAISE_DOMAIN, line);
    if (domain != NG_IR_NONE && overflows) {
        raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, inf_out, domain), NG_JIT_RAISE_DOMAIN, line);
        inf_out = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, inf_out, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, domain));
    }
    raise_or_python(L, inf_out, overflows ? NG_JIT_RAISE_RANGE : NG_JIT_RAISE_DOMAIN, line);
}

/* int() of float f, as Python: NaN and infinities raise, and so (here) does
 * a value beyond int64. */
static void int_raises(Lower *L, NgIrRef f, int line)
{
    NgIrKernel *k = L->k;
    NgIrRef nan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, f), inf = ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, f);
    NgIrRef big = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                               ng_ir_binary(k, NG_OP_GE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, 9223372036854775808.0)),
                               ng_ir_binary(k, NG_OP_LT, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, -9223372036854775808.0)));
    raise_or_python(L, nan, NG_JIT_RAISE_NAN_INT, line);
    raise_or_python(L, inf, NG_JIT_RAISE_INF_INT, line);
    raise_or_python(L, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, big, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, inf)),
             NG_JIT_RAISE_BIG_INT, line);
}

/* `ok ? stmt : nothing` */
/* A store, where ok holds (NG_IR_NONE: always). */
static NgIrRef guarded(Lower *L, NgIrRef ok, NgIrRef stmt)
{
    return ok == NG_IR_NONE || stmt == NG_IR_NONE ? stmt : ng_ir_if(L->k, ok, stmt, NG_IR_NONE);
}

static Val load(Lower *L, const NgJitExpr *e)
{
    NgIrRef idx[NG_MAXDIMS], ok;
    bool storing = L->storing; /* (x[idx[i]] = v: the read of idx[i] is no store) */
    L->storing = false;
    Sym *s = element(L, e, idx, &ok);
    L->storing = storing;
    if (!s)
        return NOVAL;
    NgDType dt = s->given->dtype;
    if (s->given->seq == NG_JIT_SEQ_STR) { /* a 1-character str: its code point */
        Val c = mkval(ng_ir_cast(L->k, NG_INT64, guarded_load(L, s, idx, ok)), NG_INT64, false, true);
        c.chr = true;
        return c;
    }
    if (s->given->seq == NG_JIT_SEQ_TUPLE) { /* an item: a Python number, IndexError outside */
        NgIrKernel *k = L->k;
        NgIrRef in = ng_ir_binary(k, NG_OP_LT, NG_BOOL, ng_ir_cast(k, NG_UINT64, idx[0]),
                                  ng_ir_cast(k, NG_UINT64, ng_ir_shape(k, s->param, 0)));
        raise_or_python(L, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, in), NG_JIT_RAISE_TUPLE_INDEX, e->span.line);
        NgIrRef at = ng_ir_select(k, in, idx[0], ng_ir_const_i(k, NG_INT64, 0)); /* (a tuple is never empty) */
        return mkval(guarded_load(L, s, &at, ok), dt, true, dt == NG_BOOL);
    }
    return mkval(guarded_load(L, s, idx, ok), dt, false, dt == NG_BOOL || kind_of(dt) == NG_KIND_UINT);
}

static int row_rank(Lower *L, const NgJitExpr *e);

/* Whether e is x[m] or x[i, m], m a row that is not surely of integers (int_rows: those gather),
 * NumPy's boolean mask, after indices (not slices, not new axes) i. */
static bool is_mask_index(Lower *L, const NgJitExpr *e)
{
    if (e->kind != NG_JIT_E_SUBSCRIPT || e->rhs->kind == NG_JIT_E_SLICE)
        return false;
    if (e->rhs->kind != NG_JIT_E_TUPLE)
        return row_rank(L, e->rhs) > 0 && !int_rows(L, e->rhs);
    int n = e->rhs->nitems;
    for (int i = 0; i + 1 < n; i++)
        if (e->rhs->items[i]->kind == NG_JIT_E_SLICE || is_newaxis(L, e->rhs->items[i]) ||
            row_rank(L, e->rhs->items[i]) > 0)
            return false;
    return n > 1 && row_rank(L, e->rhs->items[n - 1]) > 0 && !int_rows(L, e->rhs->items[n - 1]);
}

/* Mask subscript e (is_mask_index) as x[m]: *m its mask, and the part x it selects from, e->lhs
 * or, of x[i, m], x[i] made in *part (its index in *index). */
static const NgJitExpr *mask_parts(const NgJitExpr *e, NgJitExpr *part, NgJitExpr *index, const NgJitExpr **m)
{
    if (e->rhs->kind != NG_JIT_E_TUPLE) {
        *m = e->rhs;
        return e->lhs;
    }
    int n = e->rhs->nitems;
    *m = e->rhs->items[n - 1];
    *part = *e;
    *index = *e->rhs;
    index->nitems = n - 1;
    part->rhs = n == 2 ? e->rhs->items[0] : index;
    return part;
}

/* Whether e reads a boolean mask's selection x[m] (is_mask_index) as NumPy's row of the
 * selected elements in C order, where each element of e is one of them made elementwise with
 * numbers only (x[m], a name for it, -x[m], x[m] ** 2 + 1, np.abs(x[m])): then e's elements are
 * x's at the places m holds, and a whole reduction of e reads x's where m holds. */
static bool selects(Lower *L, const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_SUBSCRIPT:
        return is_mask_index(L, e);
    case NG_JIT_E_NAME: {
        Sym *s = sym_of(L, e);
        if (s->kind != SYM_EXPR || s->expanding)
            return false;
        s->expanding = true;
        bool r = selects(L, s->value);
        s->expanding = false;
        return r;
    }
    case NG_JIT_E_UNARY:
        return e->op != NG_JIT_OP_NOT && selects(L, e->lhs);
    case NG_JIT_E_BINARY:
        return e->op != NG_JIT_OP_MATMUL && ((selects(L, e->lhs) && row_rank(L, e->rhs) == 0) ||
                                             (selects(L, e->rhs) && row_rank(L, e->lhs) == 0));
    case NG_JIT_E_COMPARE:
        return e->nitems == 2 && ((selects(L, e->items[0]) && row_rank(L, e->items[1]) == 0) ||
                                  (selects(L, e->items[1]) && row_rank(L, e->items[0]) == 0));
    case NG_JIT_E_CALL: {
        NgJitCallKind k = ng_jit_call_kind(e);
        bool abs_call = k == NG_JIT_CALL_BUILTIN && strcmp(e->lhs->name, "abs") == 0;
        if ((k != NG_JIT_CALL_NP_SCALAR && !abs_call) || e->nkeywords || strcmp(e->lhs->name, "arange") == 0)
            return false;
        int rows = 0, sel = 0;
        for (int i = 0; i < e->nitems; i++) {
            rows += row_rank(L, e->items[i]) > 0;
            sel += selects(L, e->items[i]);
        }
        return rows == 1 && sel == 1;
    }
    default:
        return false;
    }
}

/* Boolean mask m of `mrank` axes lowered in the elementwise expression of rows of an array of
 * `rank` (mrank <= rank): m's axes are the array's first (NumPy's), each read (a new axis: NULL
 * after an error). */
static Val mask_of(Lower *L, const NgJitExpr *m, int mrank, int rank, int line)
{
    Rows *rows = L->rows;
    unsigned was = rows->touched, all = ((1u << mrank) - 1) << (rank - mrank);
    rows->touched = 0;
    rows->shift = rank - mrank;
    Val v = expr(L, m);
    rows->shift = 0;
    unsigned read = rows->touched;
    rows->touched = was | read;
    if (v.r != NG_IR_NONE && v.dt != NG_BOOL)
        return unsupported(L, line, "indexing with an array of integers");
    if (v.r != NG_IR_NONE && read != all)
        return unsupported(L, line, "a boolean mask with a new axis (None)");
    return v;
}

/* x[m] (is_mask_index) in an elementwise expression of rows whose builder takes a mask (Rows.masks:
 * a whole reduction of a selection, selects): x's element at the element, where m, a bool of x's
 * first axes (mask_of: all of them, or fewer, which select whole rows), holds there (Rows.mask);
 * mask_lengths checks that the lengths are x's. No mask inside another. */
static Val masked(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    Rows *rows = L->rows;
    if (!rows || !rows->masks || rows->mask != NG_IR_NONE)
        return unsupported(L, line, "a boolean mask's selection (x[x > 0]) other than reduced whole (np.sum(x[m]), "
                                    "len(x[m]), alone or elementwise with numbers) or stored into (x[m] = v)");
    NgJitExpr part, index;
    const NgJitExpr *me, *xe = mask_parts(e, &part, &index, &me);
    int rank = row_rank(L, xe), mrank = row_rank(L, me);
    if (rank == 0 || mrank > rank)
        return unsupported(L, line, "indexing with an array of more axes than its array's");
    rows->masks = false;
    Val m = mask_of(L, me, mrank, rank, line);
    unsigned was = rows->touched, all = (1u << rank) - 1;
    rows->touched = 0;
    Val x = m.r != NG_IR_NONE ? expr(L, xe) : NOVAL;
    unsigned by_x = rows->touched;
    rows->touched |= was;
    rows->masks = true;
    if (m.r == NG_IR_NONE || x.r == NG_IR_NONE)
        return NOVAL;
    if (by_x != all)
        return unsupported(L, line, "a boolean mask's array with a new axis (None)");
    rows->mask = m.r;
    rows->mask_rank = rank - mrank + 1;
    return x;
}

/* Where a boolean mask's selection is read (Rows.mask), every row of the expression is of one
 * length per axis, `target`'s where given (a store's): NumPy requires the mask's shape to be its
 * array's (and broadcasts a length 1 within either): where the lengths are the same in every
 * iteration, the loop runs as Python when they differ (tested before it); lengths that vary in
 * the loop, one per axis, are one row's (hash-consed); several of them are not compiled. */
static bool mask_lengths(Lower *L, const Rows *rows, const NgIrRef *target, int line)
{
    for (int d = 0; d < rows->rank; d++)
        for (int i = 0; i < rows->nlens[d]; i++) {
            NgIrRef n = target ? target[d] : rows->lens[d][0], len = rows->lens[d][i];
            if (len == n)
                continue;
            if (!invariant(L, n) || !invariant(L, len)) {
                unsupported(L, line, "a boolean mask over rows whose lengths vary in the loop, other than one row's");
                return false;
            }
            raise_or_python(L, ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, len, n), NG_JIT_RAISE_ROW_SHAPE, line);
        }
    return true;
}

/* The axes of boolean mask m in a store `x[m] = value` into a part of `free` axes (row_store, buf_rows):
 * at most the part's (fewer: whole rows), and value a number (an array's elements would go to the
 * selected places in turn); -1 after unsupported. */
static int mask_store(Lower *L, const NgJitExpr *m, const NgJitExpr *value, int free, int line)
{
    int mrank = row_rank(L, m);
    if (mrank > free)
        unsupported(L, line, "a boolean mask of more axes than its part's");
    else if (row_rank(L, value) > 0)
        unsupported(L, line, "storing an array into a boolean mask's selection (x[m] = y: its elements in turn)");
    return L->st == NG_OK ? mrank : -1;
}

/* The entry of dict d (a table, NG_JIT_SEQ_DICT_*) for key, with *missing
 * whether the dict has no such key. NG_IR_NONE (after an error) when the
 * key is of another type than the dict's keys (Python may still find it:
 * True is 1, 1.0 is 1). */
static NgIrRef dict_entry(Lower *L, Sym *d, Val key, int line, NgIrRef *missing)
{
    NgIrKernel *k = L->k;
    if (key.r == NG_IR_NONE)
        return NG_IR_NONE;
    bool by_str = d->given->seq == NG_JIT_SEQ_DICT_CHR;
    if (by_str != key.chr || (!key.chr && (!ng_dtype_is_int(key.dt) || key.dt == NG_BOOL))) {
        fail(L, line, NG_ERR_UNSUPPORTED, "looking up dict '%s' (%s keys) by %s is not supported in a compiled loop",
             d->name, by_str ? "str" : "int", key.chr ? "a str" : type_name(key));
        return NG_IR_NONE;
    }
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef off = ng_ir_binary(k, NG_OP_SUB, NG_INT64, as(L, key, NG_INT64), ng_ir_load(k, d->param, 1, &zero));
    NgIrRef n = ng_ir_binary(k, NG_OP_SUB, NG_INT64, ng_ir_shape(k, d->param, 0), one);
    NgIrRef in = ng_ir_binary(k, NG_OP_LT, NG_BOOL, ng_ir_cast(k, NG_UINT64, off), ng_ir_cast(k, NG_UINT64, n));
    NgIrRef at = ng_ir_select(k, in, ng_ir_binary(k, NG_OP_ADD, NG_INT64, off, one), zero);
    NgIrRef v = ng_ir_load(k, d->param, 1, &at);
    *missing = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, in),
                            ng_ir_binary(k, NG_OP_EQ, NG_BOOL, v, ng_ir_const_i(k, NG_INT64, NG_JIT_NO_KEY)));
    return v;
}

/* d[key] of a dict: its value, or where the dict has no such key, KeyError
 * (its code tells the key, within +-2**31). */
static Val dict_get(Lower *L, Sym *d, const NgJitExpr *ix)
{
    NgIrKernel *k = L->k;
    int line = ix->span.line;
    if (ix->kind == NG_JIT_E_SLICE || ix->kind == NG_JIT_E_TUPLE)
        return unsupported(L, line, "a dict key that is a tuple or a slice");
    Val key = str_expr(L, ix);
    NgIrRef missing, v = dict_entry(L, d, key, line, &missing);
    if (v == NG_IR_NONE)
        return NOVAL;
    NgIrRef kk = as(L, key, NG_INT64);
    NgIrRef told = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                ng_ir_binary(k, NG_OP_GT, NG_BOOL, kk, ng_ir_const_i(k, NG_INT64, -NG_JIT_KEY_BIAS)),
                                ng_ir_binary(k, NG_OP_LT, NG_BOOL, kk, ng_ir_const_i(k, NG_INT64, NG_JIT_KEY_BIAS)));
    NgIrRef field = ng_ir_select(k, told, ng_ir_binary(k, NG_OP_ADD, NG_INT64, kk, ng_ir_const_i(k, NG_INT64, NG_JIT_KEY_BIAS)),
                                 ng_ir_const_i(k, NG_INT64, 0));
    bool chr = d->given->seq == NG_JIT_SEQ_DICT_CHR;
    int64_t what = (int64_t)line * NG_JIT_RAISE_CODES + (chr ? NG_JIT_RAISE_KEY_STR : NG_JIT_RAISE_KEY_INT);
    if (!chr) { /* (and the key's type: Python's KeyError shows np.int64(9) for an array's element) */
        int type = !key.weak ? (int)key.dt + 1 : key.dt == NG_BOOL ? NG_JIT_KEY_PYBOOL : NG_JIT_KEY_PYINT;
        field = ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, field, ng_ir_const_i(k, NG_INT64, 16)),
                             ng_ir_const_i(k, NG_INT64, type));
    }
    NgIrRef code = ng_ir_binary(k, NG_OP_ADD, NG_INT64,
                                ng_ir_binary(k, NG_OP_MUL, NG_INT64, field,
                                             ng_ir_const_i(k, NG_INT64, NG_JIT_RAISE_LINES * NG_JIT_RAISE_CODES)),
                                ng_ir_const_i(k, NG_INT64, what));
    raise_value_if(L, missing, code);
    return mkval(v, NG_INT64, true, false);
}

/* The array named by e (a NAME), or NULL. */
static Sym *array_name(Lower *L, const NgJitExpr *e)
{
    if (e->kind != NG_JIT_E_NAME)
        return NULL;
    Sym *s = sym_of(L, e);
    return s->kind == SYM_ARRAY ? s : NULL;
}

/* x.shape[k] */
static Val shape_of(Lower *L, Sym *s, int offset, const NgJitExpr *ix)
{
    if (ix->kind == NG_JIT_E_SLICE || ix->kind == NG_JIT_E_TUPLE)
        return unsupported(L, ix->span.line, "slicing a shape");
    Val k = expr(L, ix);
    if (k.r == NG_IR_NONE)
        return NOVAL;
    int ndim = s->given->ndim - offset;
    if (!is_const(L, k.r) && ng_dtype_is_int(k.dt) && k.dt != NG_UINT64 && ndim > 0) {
        /* x.shape[k], k computed (`for d in x.shape`): a select over the axes, Python's
         * IndexError outside them */
        NgIrKernel *kk = L->k;
        NgIrRef at = as(L, k, NG_INT64);
        NgIrRef neg = ng_ir_binary(kk, NG_OP_LT, NG_BOOL, at, ng_ir_const_i(kk, NG_INT64, 0));
        at = ng_ir_select(kk, neg, ng_ir_binary(kk, NG_OP_ADD, NG_INT64, at, ng_ir_const_i(kk, NG_INT64, ndim)), at);
        NgIrRef out = ng_ir_binary(kk, NG_OP_LOGOR, NG_BOOL,
                                   ng_ir_binary(kk, NG_OP_LT, NG_BOOL, at, ng_ir_const_i(kk, NG_INT64, 0)),
                                   ng_ir_binary(kk, NG_OP_GE, NG_BOOL, at, ng_ir_const_i(kk, NG_INT64, ndim)));
        raise_if(L, out, NG_JIT_RAISE_TUPLE_INDEX, ix->span.line);
        NgIrRef v = ng_ir_shape(kk, s->param, ndim - 1 + offset);
        for (int d = ndim - 2; d >= 0; d--)
            v = ng_ir_select(kk, ng_ir_binary(kk, NG_OP_EQ, NG_BOOL, at, ng_ir_const_i(kk, NG_INT64, d)),
                             ng_ir_shape(kk, s->param, d + offset), v);
        return mkval(v, NG_INT64, true, true);
    }
    if (!is_const(L, k.r) || !ng_dtype_is_int(k.dt))
        return unsupported(L, ix->span.line, "a shape index that is not a constant integer");
    int64_t axis = const_i(L, k.r);
    if (axis < -ndim || axis >= ndim)
        return fail(L, ix->span.line, NG_ERR_INDEX, "tuple index out of range (a %d-dimensional array)", ndim);
    if (axis < 0)
        axis += ndim;
    return mkval(ng_ir_shape(L->k, s->param, (int)axis + offset), NG_INT64, true, true);
}

static Val buf_shape(Lower *L, Sym *s, const NgJitExpr *ix);
static Val buf_load(Lower *L, Sym *s, const NgJitExpr *e);

/* The buffer (SYM_BUF) subscript chain e indexes (a[i], a[i][j], r[j] of a local r = a[i]),
 * NULL for none. */
static Sym *buf_root(Lower *L, const NgJitExpr *e)
{
    for (;;) {
        while (e->kind == NG_JIT_E_SUBSCRIPT)
            e = e->lhs;
        Sym *s = e->kind == NG_JIT_E_NAME ? sym_of(L, e) : NULL;
        if (!s || (s->kind == SYM_EXPR && s->value->kind != NG_JIT_E_SUBSCRIPT))
            return NULL;
        if (s->kind != SYM_EXPR)
            return s->kind == SYM_BUF ? s : NULL;
        e = s->value;
    }
}

static Val subscript(Lower *L, const NgJitExpr *e)
{
    if (is_mask_index(L, e))
        return masked(L, e);
    const NgJitExpr *b = e->lhs;
    Sym *d = array_name(L, b);
    if (d && (d->given->seq == NG_JIT_SEQ_DICT_CHR || d->given->seq == NG_JIT_SEQ_DICT_INT))
        return dict_get(L, d, e->rhs);
    if (b->kind == NG_JIT_E_ATTR && strcmp(b->name, "shape") == 0) {
        Sym *s = array_name(L, b->lhs);
        if (s)
            return shape_of(L, s, 0, e->rhs);
        if (b->lhs->kind == NG_JIT_E_NAME && sym_of(L, b->lhs)->kind == SYM_VIEW) {
            Sym *v = sym_of(L, b->lhs);
            return shape_of(L, v->base, v->nfixed, e->rhs);
        }
        if (b->lhs->kind == NG_JIT_E_NAME && sym_of(L, b->lhs)->kind == SYM_BUF)
            return buf_shape(L, sym_of(L, b->lhs), e->rhs);
    }
    if (buf_root(L, e))
        return buf_load(L, buf_root(L, e), e);
    return load(L, e);
}

/* A module attribute that is a constant: math.pi, np.inf ... */
static bool module_const(const char *name, double *v)
{
    static const struct { const char *name; double v; } consts[] = {
        {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"tau", 6.283185307179586},
        {"inf", INFINITY}, {"nan", NAN}, {"Inf", INFINITY}, {"NaN", NAN}, {"NINF", -INFINITY},
        {"PINF", INFINITY}, {"euler_gamma", 0.5772156649015329},
    };
    for (size_t i = 0; i < sizeof consts / sizeof *consts; i++)
        if (strcmp(name, consts[i].name) == 0) {
            *v = consts[i].v;
            return true;
        }
    return false;
}

/* x.real or x.imag (`imag`) of a scalar: the parts of a complex value; a
 * real one is its own real part, with an imaginary part of 0 (a Python bool
 * gives ints, as True.real does). */
static Val part_of(Lower *L, Val x, bool imag)
{
    if (x.r == NG_IR_NONE)
        return NOVAL;
    if (ng_dtype_is_complex(x.dt)) {
        NgDType rt = ng_dtype_real(x.dt);
        return mkval(imag ? ng_ir_imag(L->k, x.r) : ng_ir_cast(L->k, rt, x.r), rt, x.weak, false);
    }
    NgDType dt = x.weak && x.dt == NG_BOOL ? NG_INT64 : x.dt;
    Val z = zero_of(L, dt);
    z.weak = x.weak;
    return imag ? z : mkval(as(L, x, dt), dt, x.weak, x.nonneg);
}

/* |x| of a complex x, of its real dtype. */
static Val magnitude(Lower *L, Val x)
{
    NgDType rt = ng_dtype_real(x.dt);
    return mkval(ng_ir_unary(L->k, NG_OP_ABS, rt, x.r), rt, x.weak, true);
}

/* x.conjugate() / x.conj(): of a real value, the value itself. */
static Val conjugate_of(Lower *L, Val x)
{
    if (x.r == NG_IR_NONE || !ng_dtype_is_complex(x.dt))
        return x;
    return mkval(ng_ir_unary(L->k, NG_OP_CONJUGATE, x.dt, x.r), x.dt, x.weak, false);
}

static Val attribute(Lower *L, const NgJitExpr *e)
{
    char buf[80], what[256];
    const NgJitExpr *b = e->lhs;
    if (b->kind == NG_JIT_E_NAME) {
        Sym *s = sym_of(L, b);
        double c;
        if (s->kind == SYM_MODULE && s->module == NG_JIT_MOD_CMATH &&
            (strcmp(e->name, "infj") == 0 || strcmp(e->name, "nanj") == 0))
            return mkval(ng_ir_const_c(L->k, NG_COMPLEX128, 0.0, e->name[0] == 'i' ? INFINITY : NAN), NG_COMPLEX128,
                         true, false);
        if (s->kind == SYM_MODULE && module_const(e->name, &c))
            return mkval(ng_ir_const_f(L->k, NG_FLOAT64, c), NG_FLOAT64, true, false);
        if (s->kind == SYM_ARRAY && strcmp(e->name, "ndim") == 0)
            return int_const(L, s->given->ndim);
        if (s->kind == SYM_BUF && (strcmp(e->name, "ndim") == 0 || strcmp(e->name, "size") == 0))
            return int_const(L, e->name[0] == 'n' ? s->brank : s->nbuf);
        if (s->kind == SYM_ARRAY && strcmp(e->name, "size") == 0) {
            NgIrRef n = ng_ir_const_i(L->k, NG_INT64, 1);
            for (int d = 0; d < s->given->ndim; d++)
                n = d ? ng_ir_binary(L->k, NG_OP_MUL, NG_INT64, n, ng_ir_shape(L->k, s->param, d))
                      : ng_ir_shape(L->k, s->param, d);
            return mkval(n, NG_INT64, true, true);
        }
    }
    bool part = strcmp(e->name, "real") == 0 || strcmp(e->name, "imag") == 0;
    if (part && !(b->kind == NG_JIT_E_NAME && sym_of(L, b)->kind == SYM_MODULE) &&
        !(b->kind == NG_JIT_E_NAME && sym_of(L, b)->kind == SYM_ARRAY))
        return part_of(L, expr(L, b), e->name[0] == 'i');
    snprintf(what, sizeof what, "the attribute '%s'", snip(L, e, buf, sizeof buf));
    return unsupported(L, e->span.line, what);
}

/* ---- calls ---- */

enum { FN_FLOAT = 1, FN_INT = 2, FN_BOOL = 4, FN_SAME = 8 };

/* Unary functions of math and numpy: op and what the result is. */
static const struct UnaryFn {
    const char *name;
    NgOp op;
    unsigned math;  /* math.<name>: FN_FLOAT (float result), FN_INT (int: floor, ceil), FN_BOOL */
    unsigned np;    /* np.<name>: FN_FLOAT (floats, ints go to float), FN_SAME (keeps the dtype), FN_BOOL */
} unary_fns[] = {
    {"sqrt", NG_OP_SQRT, FN_FLOAT, FN_FLOAT}, {"exp", NG_OP_EXP, FN_FLOAT, FN_FLOAT},
    {"expm1", NG_OP_EXPM1, FN_FLOAT, FN_FLOAT}, {"log", NG_OP_LOG, FN_FLOAT, FN_FLOAT},
    {"log1p", NG_OP_LOG1P, FN_FLOAT, FN_FLOAT}, {"log2", NG_OP_LOG2, FN_FLOAT, FN_FLOAT},
    {"log10", NG_OP_LOG10, FN_FLOAT, FN_FLOAT}, {"sin", NG_OP_SIN, FN_FLOAT, FN_FLOAT},
    {"cos", NG_OP_COS, FN_FLOAT, FN_FLOAT}, {"tan", NG_OP_TAN, FN_FLOAT, FN_FLOAT},
    {"asin", NG_OP_ARCSIN, FN_FLOAT, 0}, {"acos", NG_OP_ARCCOS, FN_FLOAT, 0},
    {"atan", NG_OP_ARCTAN, FN_FLOAT, 0}, {"arcsin", NG_OP_ARCSIN, 0, FN_FLOAT},
    {"arccos", NG_OP_ARCCOS, 0, FN_FLOAT}, {"arctan", NG_OP_ARCTAN, 0, FN_FLOAT},
    {"sinh", NG_OP_SINH, FN_FLOAT, FN_FLOAT}, {"cosh", NG_OP_COSH, FN_FLOAT, FN_FLOAT},
    {"tanh", NG_OP_TANH, FN_FLOAT, FN_FLOAT}, {"floor", NG_OP_FLOOR, FN_INT, FN_FLOAT},
    {"ceil", NG_OP_CEIL, FN_INT, FN_FLOAT}, {"trunc", NG_OP_TRUNC, FN_INT, FN_FLOAT},
    {"rint", NG_OP_RINT, 0, FN_FLOAT}, {"fabs", NG_OP_ABS, FN_FLOAT, FN_FLOAT},
    {"abs", NG_OP_ABS, 0, FN_SAME}, {"absolute", NG_OP_ABS, 0, FN_SAME},
    {"sign", NG_OP_SIGN, 0, FN_SAME}, {"square", NG_OP_SQUARE, 0, FN_SAME},
    {"negative", NG_OP_NEG, 0, FN_SAME}, {"isnan", NG_OP_ISNAN, FN_BOOL, FN_BOOL},
    {"isinf", NG_OP_ISINF, FN_BOOL, FN_BOOL}, {"isfinite", NG_OP_ISFINITE, FN_BOOL, FN_BOOL},
    {"asinh", NG_OP_ARCSINH, FN_FLOAT, 0}, {"acosh", NG_OP_ARCCOSH, FN_FLOAT, 0},
    {"atanh", NG_OP_ARCTANH, FN_FLOAT, 0}, {"arcsinh", NG_OP_ARCSINH, 0, FN_FLOAT},
    {"arccosh", NG_OP_ARCCOSH, 0, FN_FLOAT}, {"arctanh", NG_OP_ARCTANH, 0, FN_FLOAT},
    {"cbrt", NG_OP_CBRT, FN_FLOAT, FN_FLOAT}, {"exp2", NG_OP_EXP2, FN_FLOAT, FN_FLOAT},
    {"degrees", NG_OP_RAD2DEG, FN_FLOAT, FN_FLOAT}, {"radians", NG_OP_DEG2RAD, FN_FLOAT, FN_FLOAT},
    {"positive", NG_OP_POS, 0, FN_SAME}, {"reciprocal", NG_OP_RECIPROCAL, 0, FN_SAME},
    {"invert", NG_OP_INVERT, 0, FN_SAME}, {"bitwise_not", NG_OP_INVERT, 0, FN_SAME},
    {"logical_not", NG_OP_LOGNOT, 0, FN_BOOL}, {"signbit", NG_OP_SIGNBIT, 0, FN_BOOL},
    {"rad2deg", NG_OP_RAD2DEG, 0, FN_FLOAT}, {"deg2rad", NG_OP_DEG2RAD, 0, FN_FLOAT},
    {"erf", NG_OP_ERF, FN_FLOAT, 0}, {"erfc", NG_OP_ERFC, FN_FLOAT, 0},
    {"gamma", NG_OP_GAMMA, FN_FLOAT, 0}, {"lgamma", NG_OP_LGAMMA, FN_FLOAT, 0},
};

/* Binary functions of math and numpy (float results for math). */
static const struct BinaryFn {
    const char *name;
    NgOp op;
    bool math, np;
} binary_fns[] = {
    {"pow", NG_OP_POW, true, false}, {"power", NG_OP_POW, false, true}, {"float_power", NG_OP_POW, false, true},
    {"gcd", NG_OP_GCD, false, true}, {"lcm", NG_OP_LCM, false, true}, /* (np_gcd) */
    {"atan2", NG_OP_ARCTAN2, true, false}, {"arctan2", NG_OP_ARCTAN2, false, true},
    {"hypot", NG_OP_HYPOT, true, true}, {"maximum", NG_OP_MAXIMUM, false, true},
    {"minimum", NG_OP_MINIMUM, false, true}, {"fmax", NG_OP_FMAX, false, true},
    {"fmin", NG_OP_FMIN, false, true}, {"fmod", NG_OP_FMOD, true, false}, /* (C's: exact, the dividend's sign) */
    {"copysign", NG_OP_COPYSIGN, true, true}, {"fmod", NG_OP_FMOD, false, true}, /* (NumPy's: of ints, ints) */
    /* NumPy's ufuncs of the operators: ufunc semantics (np.divide(1.0, 0.0) is inf) */
    {"add", NG_OP_ADD, false, true}, {"subtract", NG_OP_SUB, false, true}, {"multiply", NG_OP_MUL, false, true},
    {"divide", NG_OP_TRUEDIV, false, true}, {"true_divide", NG_OP_TRUEDIV, false, true},
    {"floor_divide", NG_OP_FLOORDIV, false, true}, {"remainder", NG_OP_MOD, false, true},
    {"mod", NG_OP_MOD, false, true}, {"logaddexp", NG_OP_LOGADDEXP, false, true},
    {"logaddexp2", NG_OP_LOGADDEXP2, false, true}, {"heaviside", NG_OP_HEAVISIDE, false, true},
    {"nextafter", NG_OP_NEXTAFTER, false, true}, {"logical_and", NG_OP_LOGAND, false, true},
    {"logical_or", NG_OP_LOGOR, false, true}, {"logical_xor", NG_OP_LOGXOR, false, true},
    {"bitwise_and", NG_OP_BITAND, false, true}, {"bitwise_or", NG_OP_BITOR, false, true},
    {"bitwise_xor", NG_OP_BITXOR, false, true}, {"left_shift", NG_OP_LSHIFT, false, true},
    {"right_shift", NG_OP_RSHIFT, false, true},
};

/* The float dtype NumPy computes a float function of dt in. */
static NgDType float_for(NgDType dt)
{
    if (ng_dtype_is_inexact(dt)) /* (complex stays complex) */
        return dt;
    int size = ng_dtype_info(dt)->itemsize; /* NumPy: float16 for bool and 8-bit ints, float32 for 16-bit */
    return size == 1 ? NG_FLOAT16 : size == 2 ? NG_FLOAT32 : NG_FLOAT64;
}

/* The float dtype NumPy computes a ufunc with float loops only (np.arctan2, np.logaddexp) of x
 * and y in: the first loop both cast to safely, the wider of their float_for (np.arctan2 of an
 * int8 and a uint8 is a float16); a Python int counts for nothing there, a Python float for
 * float64 beside an integer (NEP 50). */
static NgDType float_pair(Val x, Val y)
{
    if (x.weak && y.weak)
        return NG_FLOAT64;
    NgDType a = x.weak ? (ng_dtype_is_inexact(x.dt) && !ng_dtype_is_inexact(y.dt) ? NG_FLOAT64 : NG_NODTYPE)
                       : float_for(x.dt);
    NgDType b = y.weak ? (ng_dtype_is_inexact(y.dt) && !ng_dtype_is_inexact(x.dt) ? NG_FLOAT64 : NG_NODTYPE)
                       : float_for(y.dt);
    if (a == NG_NODTYPE || b == NG_NODTYPE)
        return a == NG_NODTYPE ? b : a;
    return ng_dtype_info(a)->itemsize >= ng_dtype_info(b)->itemsize ? a : b;
}

static bool check_args(Lower *L, const NgJitExpr *e, int lo, int hi, const char *fname)
{
    if (e->nkeywords) {
        char what[120];
        snprintf(what, sizeof what, "%s() with keyword arguments", fname);
        unsupported(L, e->span.line, what);
        return false;
    }
    for (int i = 0; i < e->nitems; i++)
        if (e->items[i]->kind == NG_JIT_E_STARRED) {
            unsupported(L, e->span.line, "a starred argument");
            return false;
        }
    if (e->nitems < lo || e->nitems > hi) {
        if (lo == hi)
            fail(L, e->span.line, NG_ERR_TYPE, "%s() takes %d argument%s (%d given)", fname, lo,
                 lo == 1 ? "" : "s", e->nitems);
        else
            fail(L, e->span.line, NG_ERR_TYPE, "%s() takes %d to %d arguments (%d given)", fname, lo, hi,
                 e->nitems);
        return false;
    }
    return true;
}

/* The Python int of x (an int64): a NumPy uint64 from 2**63 on raises OverflowError,
 * being a Python int a kernel's int64 cannot be (a choice's Python int is its bits). */
static NgIrRef python_int(Lower *L, Val x, int line)
{
    NgIrRef r = as(L, x, NG_INT64);
    if (x.dt == NG_UINT64) {
        NgIrRef big = x.big != NG_IR_NONE ? x.big
                                           : ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, r, ng_ir_const_i(L->k, NG_INT64, 0));
        raise_or_python(L, big, NG_JIT_RAISE_BIG_UINT, line);
    }
    return r;
}

/* |v| of an integer, in uint64 (|INT64_MIN| is 2**63 there). */
static NgIrRef int_magnitude(Lower *L, Val v)
{
    NgIrKernel *k = L->k;
    NgIrRef u = ng_ir_cast(k, NG_UINT64, v.r);
    if (!ng_dtype_is_signed(v.dt) || v.nonneg)
        return u;
    return ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, v.r, zero_of(L, v.dt).r),
                        ng_ir_unary(k, NG_OP_NEG, NG_UINT64, u), u);
}

/* math.gcd(*integers) as Python's: a Python int (0 of none; of ints and bools: a float is
 * Python's TypeError, which the loop leaves to Python). One from 2**63 on (of int64's least,
 * of uint64s) is beyond a kernel's int64: an OverflowError saying so. */
static Val math_gcd(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    if (!check_args(L, e, 0, 16, "gcd"))
        return NOVAL;
    NgIrKernel *k = L->k;
    NgIrRef g = NG_IR_NONE;
    for (int i = 0; i < e->nitems; i++) {
        Val x = expr(L, e->items[i]);
        if (x.r == NG_IR_NONE)
            return NOVAL;
        if (!ng_dtype_is_int(x.dt) || x.chr)
            return unsupported(L, line, "math.gcd() of other than integers (Python's TypeError)");
        g = i == 0 ? int_magnitude(L, x) : ng_ir_binary(k, NG_OP_GCD, NG_UINT64, g, int_magnitude(L, x));
    }
    if (g == NG_IR_NONE)
        return mkval(ng_ir_const_i(k, NG_INT64, 0), NG_INT64, true, true);
    raise_or_python(L, ng_ir_binary(k, NG_OP_GT, NG_BOOL, g, ng_ir_const_i(k, NG_UINT64, INT64_MAX)),
                    NG_JIT_RAISE_BIG_UINT, line);
    return mkval(ng_ir_cast(k, NG_INT64, g), NG_INT64, true, true);
}

/* np.gcd(x, y) and np.lcm(x, y) of integers as NumPy's, in their common dtype dt (np_call's
 * binary ufuncs have promoted them): the gcd of int64's least and 0 is itself; lcm = |x / gcd *
 * y|, 0 where the gcd is, wrapping as NumPy's does; bools and floats: NumPy's TypeError. */
static Val np_gcd(Lower *L, Val x, Val y, NgDType dt, bool weak, const char *fn, int line)
{
    if (!ng_dtype_is_int(dt) || dt == NG_BOOL || x.chr || y.chr)
        return fail(L, line, NG_ERR_TYPE, "ufunc '%s' did not contain a loop with signature matching types", fn);
    NgIrKernel *k = L->k;
    NgIrRef ax = int_magnitude(L, mkval(as(L, x, dt), dt, false, x.nonneg));
    NgIrRef ay = int_magnitude(L, mkval(as(L, y, dt), dt, false, y.nonneg));
    NgIrRef g = ng_ir_binary(k, fn[0] == 'l' ? NG_OP_LCM : NG_OP_GCD, NG_UINT64, ax, ay); /* (of magnitudes) */
    return mkval(ng_ir_cast(k, dt, g), dt, weak, false);
}

static Val python_reduce_from(Lower *L, const NgJitExpr *e, const NgJitExpr *start, const char *fn, NgOp op);

/* pow(a, b, m) of Python ints: b's bits from the lowest, each product reduced modulo |m|
 * (below 2**32: products within uint64), the result of m's sign (CPython's long_pow). m and b
 * must be the same in the whole loop (a modulus from 2**32 on, or b < 0, a modular inverse,
 * then runs the loop as Python; m == 0 Python's ValueError). NumPy integers: Python's
 * TypeError, from Python. */
static Val pow_mod(Lower *L, const NgJitExpr *e, int line)
{
    NgIrKernel *k = L->k;
    Val v[3];
    for (int i = 0; i < 3; i++) {
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return unsupported(L, line, "a starred argument");
        v[i] = expr(L, e->items[i]);
        if (v[i].r == NG_IR_NONE)
            return NOVAL;
        if (!v[i].weak || !ng_dtype_is_int(v[i].dt) || v[i].chr)
            return unsupported(L, line, "pow(a, b, m) of other than Python ints (Python's TypeError)");
    }
    NgIrRef a = in_var(L, as(L, v[0], NG_INT64)), b = as(L, v[1], NG_INT64), m = as(L, v[2], NG_INT64);
    if (!invariant(L, b) || !invariant(L, m))
        return unsupported(L, line, "pow(a, b, m) whose exponent or modulus changes in the loop");
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0);
    raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, m, zero), NG_JIT_RAISE_POW_MOD_ZERO, line);
    NgIrRef big = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, b, zero),
                               ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                                            ng_ir_binary(k, NG_OP_GE, NG_BOOL, m, ng_ir_const_i(k, NG_INT64, INT64_C(1) << 32)),
                                            ng_ir_binary(k, NG_OP_LE, NG_BOOL, m, ng_ir_const_i(k, NG_INT64, -(INT64_C(1) << 32)))));
    python_if(L, big, ng_jit_raise_code(NG_JIT_RAISE_POW_BIG, line, 0));
    L->python_body = true;
    /* c = |m| (1 where the kernel runs nothing: no division by 0) */
    NgIrRef mm = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, m, zero), ng_ir_const_i(k, NG_INT64, 1), m);
    NgIrRef c = in_var(L, ng_ir_cast(k, NG_UINT64, ng_ir_unary(k, NG_OP_ABS, NG_INT64, mm)));
    /* a mod c, from 0 to c - 1 */
    NgIrRef ua = ng_ir_binary(k, NG_OP_MOD, NG_UINT64, ng_ir_cast(k, NG_UINT64, ng_ir_unary(k, NG_OP_ABS, NG_INT64, a)), c);
    ua = ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, a, zero),
                      ng_ir_binary(k, NG_OP_MOD, NG_UINT64, ng_ir_binary(k, NG_OP_SUB, NG_UINT64, c, ua), c), ua);
    int bv = ng_ir_var(k, NG_UINT64), rv = ng_ir_var(k, NG_UINT64), iv = ng_ir_var(k, NG_INT64);
    int ev = ng_ir_var(k, NG_UINT64);
    NgIrRef one = ng_ir_const_i(k, NG_UINT64, 1);
    NgIrRef base = ng_ir_varref(k, bv), r = ng_ir_varref(k, rv), ex = ng_ir_varref(k, ev);
    NgIrRef bit = ng_ir_binary(k, NG_OP_BITAND, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, ex,
                                                                      ng_ir_cast(k, NG_UINT64, ng_ir_varref(k, iv))), one);
    NgIrRef body[2] = {
        ng_ir_assign(k, rv, ng_ir_select(k, ng_ir_binary(k, NG_OP_NE, NG_BOOL, bit, ng_ir_const_i(k, NG_UINT64, 0)),
                                         ng_ir_binary(k, NG_OP_MOD, NG_UINT64, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, r, base), c), r)),
        ng_ir_assign(k, bv, ng_ir_binary(k, NG_OP_MOD, NG_UINT64, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, base, base), c)),
    };
    NgIrRef loop = ng_ir_for(k, iv, ng_ir_const_i(k, NG_INT64, 0), ng_ir_const_i(k, NG_INT64, 64), ng_ir_const_i(k, NG_INT64, 1),
                             ng_ir_block(k, 2, body), 0);
    NgIrRef eb = ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, b, zero), ng_ir_const_i(k, NG_INT64, 0), b);
    append(L, L->pending, ng_ir_let(k, ev, ng_ir_cast(k, NG_UINT64, eb)));
    append(L, L->pending, ng_ir_let(k, bv, ua));
    append(L, L->pending, ng_ir_let(k, rv, ng_ir_binary(k, NG_OP_MOD, NG_UINT64, one, c)));
    append(L, L->pending, L->guard == NG_IR_NONE ? loop : ng_ir_if(k, L->guard, loop, NG_IR_NONE));
    NgIrRef res = ng_ir_cast(k, NG_INT64, r);
    res = ng_ir_select(k, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, m, zero),
                                       ng_ir_binary(k, NG_OP_NE, NG_BOOL, res, zero)),
                       ng_ir_binary(k, NG_OP_SUB, NG_INT64, res, ng_ir_cast(k, NG_INT64, c)), res);
    return mkval(in_var(L, res), NG_INT64, true, false);
}

/* A real argument of a math function as Python's float (NULL where it is not one). */
static NgIrRef math_float(Lower *L, const NgJitExpr *a, int line)
{
    Val x = expr(L, a);
    if (!real_only(L, x, line, "math.*"))
        return NG_IR_NONE;
    if (x.chr) {
        unsupported(L, line, "a math function of a str (Python's TypeError)");
        return NG_IR_NONE;
    }
    return as(L, x, NG_FLOAT64);
}

/* math.remainder(x, y): IEEE 754's remainder as CPython computes it (m_remainder: exact, by
 * fmod), NaN of a NaN, x of an infinite y; a domain error of an infinite x or y == 0 (the NaN
 * the formula makes there). */
static Val math_remainder(Lower *L, NgIrRef x, NgIrRef y, int line)
{
    NgIrKernel *k = L->k;
#define F(v) ng_ir_const_f(k, NG_FLOAT64, v)
#define B(op, a, b) ng_ir_binary(k, NG_OP_##op, NG_FLOAT64, a, b)
#define C(op, a, b) ng_ir_binary(k, NG_OP_##op, NG_BOOL, a, b)
    x = in_var(L, x);
    y = in_var(L, y);
    NgIrRef ax = ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, x), ay = ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, y);
    NgIrRef m = in_var(L, B(FMOD, ax, ay)), c = in_var(L, B(SUB, ay, m));
    NgIrRef half = B(SUB, m, B(MUL, F(2.0), B(FMOD, B(MUL, F(0.5), B(SUB, ax, m)), ay)));
    NgIrRef r = ng_ir_select(k, C(LT, m, c), m, ng_ir_select(k, C(GT, m, c), ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, c), half));
    r = in_var(L, B(MUL, B(COPYSIGN, F(1.0), x), r));
    NgIrRef nan_x = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x), nan_y = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, y);
    r = ng_ir_select(k, nan_x, x, ng_ir_select(k, nan_y, y, r));
    math_raises(L, r, x, y, false, NG_IR_NONE, line);
    return mkval(r, NG_FLOAT64, true, false);
#undef F
#undef B
#undef C
}

/* math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) as CPython's: the tolerances checked first
 * (ValueError below 0), then a == b, never close to an infinity, else |b - a| within either. */
static Val math_isclose(Lower *L, const NgJitExpr *e, int line)
{
    NgIrKernel *k = L->k;
    if (e->nitems != 2)
        return fail(L, line, NG_ERR_TYPE, "isclose() takes exactly 2 positional arguments (%d given)", e->nitems);
    for (int i = 0; i < e->nitems; i++)
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return unsupported(L, line, "a starred argument");
    NgIrRef a = math_float(L, e->items[0], line); /* (the positional arguments first, as Python evaluates them) */
    NgIrRef b = a == NG_IR_NONE ? NG_IR_NONE : math_float(L, e->items[1], line);
    if (b == NG_IR_NONE)
        return NOVAL;
    NgIrRef tol[2] = {ng_ir_const_f(k, NG_FLOAT64, 1e-09), ng_ir_const_f(k, NG_FLOAT64, 0.0)};
    for (int i = 0; i < e->nkeywords; i++) {
        const char *kw = e->keywords[i].name;
        int which = kw && strcmp(kw, "rel_tol") == 0 ? 0 : kw && strcmp(kw, "abs_tol") == 0 ? 1 : -1;
        if (which < 0)
            return unsupported(L, line, "math.isclose() with a keyword other than rel_tol and abs_tol");
        if ((tol[which] = math_float(L, e->keywords[i].value, line)) == NG_IR_NONE)
            return NOVAL;
    }
    a = in_var(L, a);
    b = in_var(L, b);
    NgIrRef zero = ng_ir_const_f(k, NG_FLOAT64, 0.0);
    raise_or_python(L, ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, tol[0], zero),
                                    ng_ir_binary(k, NG_OP_LT, NG_BOOL, tol[1], zero)), NG_JIT_RAISE_TOLERANCE, line);
#define B(op, x, y) ng_ir_binary(k, NG_OP_##op, NG_BOOL, x, y)
#define ABS(x) ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, x)
    NgIrRef diff = in_var(L, ABS(ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, b, a)));
    NgIrRef near = B(LOGOR, B(LOGOR, B(LE, diff, ABS(ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, tol[0], b))),
                              B(LE, diff, ABS(ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, tol[0], a)))),
                     B(LE, diff, tol[1]));
    NgIrRef inf = B(LOGOR, ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, a), ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, b));
    NgIrRef r = B(LOGOR, B(EQ, a, b), B(LOGAND, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, inf), near));
#undef B
#undef ABS
    return mkval(r, NG_BOOL, true, true);
}

/* math.isqrt(n) of an int: the floor of its square root (from the float's, set right by one
 * step each way); ValueError below 0. */
static Val math_isqrt(Lower *L, const NgJitExpr *e, int line)
{
    NgIrKernel *k = L->k;
    if (!check_args(L, e, 1, 1, "isqrt"))
        return NOVAL;
    Val x = expr(L, e->items[0]);
    if (x.r == NG_IR_NONE)
        return NOVAL;
    if (!ng_dtype_is_int(x.dt) || x.chr || (x.dt == NG_BOOL && !x.weak)) /* (np.bool_ has no __index__) */
        return unsupported(L, line, "math.isqrt() of other than an int (Python's TypeError)");
    NgIrRef n = python_int(L, x, line), zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef neg = ng_ir_binary(k, NG_OP_LT, NG_BOOL, n, zero);
    raise_or_python(L, neg, NG_JIT_RAISE_ISQRT, line);
    NgIrRef u = in_var(L, ng_ir_cast(k, NG_UINT64, ng_ir_select(k, neg, zero, n)));
    NgIrRef s = in_var(L, ng_ir_cast(k, NG_UINT64, ng_ir_unary(k, NG_OP_SQRT, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, u))));
    NgIrRef one = ng_ir_const_i(k, NG_UINT64, 1);
    s = in_var(L, ng_ir_select(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, s, s), u),
                               ng_ir_binary(k, NG_OP_SUB, NG_UINT64, s, one), s));
    NgIrRef s1 = ng_ir_binary(k, NG_OP_ADD, NG_UINT64, s, one);
    s = ng_ir_select(k, ng_ir_binary(k, NG_OP_LE, NG_BOOL, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, s1, s1), u), s1, s);
    return mkval(ng_ir_cast(k, NG_INT64, s), NG_INT64, true, true);
}

/* CPython's vector_norm steps: dl_mul(a, b), Dekker's product of Veltkamp halves, added by
 * dl_fast_sum into sums[0] (csum), its low parts into sums[1] and sums[2] (frac1, frac2). */
static void hypot_add_product(Lower *L, NgIrRef a, NgIrRef b, NgIrRef *sums)
{
    NgIrKernel *k = L->k;
#define F(c) ng_ir_const_f(k, NG_FLOAT64, c)
#define A(x, y) ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64, x, y)
#define S(x, y) ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, x, y)
#define M(x, y) ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, x, y)
    NgIrRef ta = in_var(L, M(a, F(134217729.0))), tb = in_var(L, M(b, F(134217729.0)));
    NgIrRef ah = in_var(L, S(ta, S(ta, a))), al = in_var(L, S(a, ah));
    NgIrRef bh = in_var(L, S(tb, S(tb, b))), bl = in_var(L, S(b, bh));
    NgIrRef p = in_var(L, M(ah, bh)), q = in_var(L, A(M(ah, bl), M(al, bh)));
    NgIrRef z = in_var(L, A(p, q)), zz = A(A(S(p, z), q), M(al, bl));
    NgIrRef sx = in_var(L, A(sums[0], z)), sy = S(z, S(sx, sums[0]));
    sums[0] = sx;
    sums[1] = in_var(L, A(sums[1], zz));
    sums[2] = in_var(L, A(sums[2], sy));
#undef F
#undef A
#undef S
#undef M
}

/* math.hypot(*coordinates) of 3 or more, as CPython's vector_norm: scaled by a power of two
 * to the largest, each square a double-length product (Veltkamp-Dekker), summed with the
 * running low parts, a square root corrected by one differential step; a largest below
 * 2**-1024 as CPython 3.11 takes it (3.12 scales such numbers up first instead: results
 * there may differ by an ulp from 3.12's). Bit for bit CPython 3.11's; an infinity wins over
 * a NaN. */
static Val math_hypot_n(Lower *L, const NgJitExpr *e, int line)
{
    NgIrKernel *k = L->k;
    int n = e->nitems;
    NgIrRef v[16];
    if (n > 16)
        return unsupported(L, line, "math.hypot() of more than 16 coordinates");
    for (int i = 0; i < n; i++) {
        if (e->items[i]->kind == NG_JIT_E_STARRED)
            return unsupported(L, line, "a starred argument");
        NgIrRef f = math_float(L, e->items[i], line);
        if (f == NG_IR_NONE)
            return NOVAL;
        v[i] = in_var(L, ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, f));
    }
#define F(c) ng_ir_const_f(k, NG_FLOAT64, c)
#define A(x, y) ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64, x, y)
#define S(x, y) ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, x, y)
#define M(x, y) ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, x, y)
    NgIrRef mx = F(0.0), nan = ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, v[0]);
    for (int i = 0; i < n; i++) { /* (CPython's: `if (x > max) max = x`, a NaN never taken) */
        mx = in_var(L, ng_ir_select(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, v[i], mx), v[i], mx));
        if (i)
            nan = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, nan, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, v[i]));
    }
    /* a largest below 2**-1024 (frexp's exponent below -1023, where the scale would overflow):
     * CPython 3.11's other sum, of (x / max)**2 with a running low part, times max */
    NgIrRef tiny = in_var(L, ng_ir_binary(k, NG_OP_LT, NG_BOOL, mx, F(0x1p-1024)));
    NgIrRef tsum = F(1.0), tfrac = F(0.0);
    for (int i = 0; i < n; i++) {
        NgIrRef x = ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, v[i], mx);
        x = in_var(L, M(x, x));
        NgIrRef old = tsum;
        tsum = in_var(L, A(tsum, x));
        tfrac = in_var(L, A(tfrac, A(S(old, tsum), x)));
    }
    NgIrRef tres = M(mx, ng_ir_unary(k, NG_OP_SQRT, NG_FLOAT64, A(S(tsum, F(1.0)), tfrac)));
    NgIrRef e1 = ng_ir_unary(k, NG_OP_FREXP_EXPONENT, NG_INT32, mx);
    NgIrRef scale = in_var(L, ng_ir_binary(k, NG_OP_LDEXP, NG_FLOAT64, F(1.0),
                                           ng_ir_unary(k, NG_OP_NEG, NG_INT64, ng_ir_cast(k, NG_INT64, e1))));
    NgIrRef sums[3] = {F(1.0), F(0.0), F(0.0)}; /* csum, frac1, frac2 */
    for (int i = 0; i < n; i++) {
        NgIrRef x = in_var(L, M(v[i], scale));
        hypot_add_product(L, x, x, sums);
    }
    NgIrRef h = in_var(L, ng_ir_unary(k, NG_OP_SQRT, NG_FLOAT64, A(S(sums[0], F(1.0)), A(sums[1], sums[2]))));
    hypot_add_product(L, in_var(L, ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, h)), h, sums);
    NgIrRef csum = sums[0], frac1 = sums[1], frac2 = sums[2];
    NgIrRef x = A(S(csum, F(1.0)), A(frac1, frac2));
    h = A(h, ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, x, M(F(2.0), h)));
    NgIrRef r = in_var(L, ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, h, scale));
    r = ng_ir_select(k, tiny, tres, r);
    NgIrRef trivial = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, mx, F(0.0));
    r = ng_ir_select(k, ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, mx), mx,
                     ng_ir_select(k, nan, F(NAN), ng_ir_select(k, trivial, mx, r)));
#undef F
#undef A
#undef S
#undef M
    return mkval(r, NG_FLOAT64, true, true);
}

static Val math_call(Lower *L, const NgJitExpr *e, const char *fn)
{
    int line = e->span.line;
    if (strcmp(fn, "gcd") == 0)
        return math_gcd(L, e);
    if (strcmp(fn, "isclose") == 0)
        return math_isclose(L, e, line);
    if (strcmp(fn, "isqrt") == 0)
        return math_isqrt(L, e, line);
    if (strcmp(fn, "prod") == 0) { /* math.prod(row, *, start=1) */
        if (e->nitems != 1 || (e->nkeywords && (e->nkeywords > 1 || !e->keywords[0].name ||
                                                strcmp(e->keywords[0].name, "start") != 0)))
            return unsupported(L, line, "math.prod() of other than one row and a start= keyword");
        return python_reduce_from(L, e, e->nkeywords ? e->keywords[0].value : NULL, "prod", NG_OP_MUL);
    }
    if (strcmp(fn, "hypot") == 0 && e->nitems >= 3 && !e->nkeywords)
        return math_hypot_n(L, e, line);
    if (strcmp(fn, "frexp") == 0 || strcmp(fn, "modf") == 0)
        return unsupported(L, line, "math.frexp() or math.modf() but unpacked into two names (m, e = math.frexp(x))");
    if (strcmp(fn, "remainder") == 0 || strcmp(fn, "nextafter") == 0 || strcmp(fn, "ldexp") == 0 ||
        (strcmp(fn, "log") == 0 && e->nitems == 2)) {
        if (!check_args(L, e, 2, 2, fn))
            return NOVAL;
        NgIrKernel *k = L->k;
        NgIrRef x = math_float(L, e->items[0], line);
        if (x == NG_IR_NONE)
            return NOVAL;
        if (fn[0] == 'l' && fn[1] == 'd') { /* ldexp(x, i): i an int (a float is Python's TypeError) */
            Val i = expr(L, e->items[1]);
            if (i.r == NG_IR_NONE)
                return NOVAL;
            if (!ng_dtype_is_int(i.dt) || i.chr || !i.weak) /* (a NumPy integer is no int to ldexp) */
                return unsupported(L, line, "math.ldexp() of a second argument other than a Python int (Python's "
                                            "TypeError)");
            NgIrRef r = ng_ir_binary(k, NG_OP_LDEXP, NG_FLOAT64, x, python_int(L, i, line));
            math_raises(L, r, x, NG_IR_NONE, true, NG_IR_NONE, line);
            return mkval(r, NG_FLOAT64, true, false);
        }
        if (fn[0] == 'l') { /* log(x, base): log(x) / log(base), each one's domain error, then base 1's
                             * ZeroDivisionError (CPython's math_log) */
            x = in_var(L, x);
            NgIrRef b = math_float(L, e->items[1], line); /* (both arguments first, as Python) */
            if (b == NG_IR_NONE)
                return NOVAL;
            b = in_var(L, b);
            NgIrRef num = in_var(L, ng_ir_unary(k, NG_OP_LOG, NG_FLOAT64, x));
            math_raises(L, num, x, NG_IR_NONE, false, NG_IR_NONE, line);
            NgIrRef den = in_var(L, ng_ir_unary(k, NG_OP_LOG, NG_FLOAT64, b));
            math_raises(L, den, b, NG_IR_NONE, false, NG_IR_NONE, line);
            raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, den, ng_ir_const_f(k, NG_FLOAT64, 0.0)),
                            NG_JIT_RAISE_ZERODIV_FLOAT, line);
            return mkval(ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, num, den), NG_FLOAT64, true, false);
        }
        NgIrRef y = math_float(L, e->items[1], line);
        if (y == NG_IR_NONE)
            return NOVAL;
        if (fn[0] == 'n')
            return mkval(ng_ir_binary(k, NG_OP_NEXTAFTER, NG_FLOAT64, x, y), NG_FLOAT64, true, false);
        return math_remainder(L, x, y, line);
    }
    for (size_t i = 0; i < sizeof unary_fns / sizeof *unary_fns; i++) {
        if (strcmp(unary_fns[i].name, fn) != 0 || !unary_fns[i].math)
            continue;
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (!real_only(L, x, line, "math.*"))
            return NOVAL;
        unsigned how = unary_fns[i].math;
        if (unary_fns[i].op == NG_OP_TRUNC && !x.weak && x.dt != NG_FLOAT64) /* (only float64 is a float) */
            return unsupported(L, line, "math.trunc() of a NumPy scalar other than a float64 (Python's TypeError)");
        if (how == FN_INT && !ng_dtype_is_float(x.dt))
            return mkval(python_int(L, x, line), NG_INT64, true, x.nonneg);
        NgIrRef f = as(L, x, NG_FLOAT64);
        if (how == FN_BOOL)
            return mkval(ng_ir_unary(L->k, unary_fns[i].op, NG_BOOL, f), NG_BOOL, true, true);
        NgIrRef r = ng_ir_unary(L->k, unary_fns[i].op, NG_FLOAT64, f);
        if (how == FN_INT) {
            int_raises(L, r, line);
            return mkval(ng_ir_cast(L->k, NG_INT64, r), NG_INT64, true, false);
        }
        NgOp op = unary_fns[i].op;
        NgIrRef pole = NG_IR_NONE; /* gamma's and lgamma's (0, -1, ...): a domain error */
        if (op == NG_OP_GAMMA || op == NG_OP_LGAMMA) {
            NgIrKernel *k = L->k;
            pole = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL,
                                ng_ir_binary(k, NG_OP_LE, NG_BOOL, f, ng_ir_const_f(k, NG_FLOAT64, 0.0)),
                                ng_ir_binary(k, NG_OP_EQ, NG_BOOL, ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, f), f));
        }
        /* (CPython's math module: these raise OverflowError; the others never raise) */
        bool overflows = op == NG_OP_EXP || op == NG_OP_EXP2 || op == NG_OP_EXPM1 || op == NG_OP_COSH ||
                         op == NG_OP_SINH || op == NG_OP_GAMMA || op == NG_OP_LGAMMA;
        if (op == NG_OP_SQRT) { /* (its one failure: a number below 0, -0.0 and NaN not; none where
                                 * x is known not to be, a sum of squares) */
            if (!(flo_of(L, x) >= 0.0))
                raise_or_python(L, ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, f, ng_ir_const_f(L->k, NG_FLOAT64, 0.0)),
                                NG_JIT_RAISE_DOMAIN, line);
        }
        else if (op != NG_OP_TANH && op != NG_OP_ARCTAN && op != NG_OP_ARCSINH && op != NG_OP_ERF &&
                 op != NG_OP_ERFC && op != NG_OP_ABS && op != NG_OP_CBRT && op != NG_OP_RAD2DEG &&
                 op != NG_OP_DEG2RAD)
            math_raises(L, r, f, NG_IR_NONE, overflows, pole, line);
        return mkval(r, NG_FLOAT64, true, false);
    }
    for (size_t i = 0; i < sizeof binary_fns / sizeof *binary_fns; i++) {
        if (strcmp(binary_fns[i].name, fn) != 0 || !binary_fns[i].math)
            continue;
        if (!check_args(L, e, 2, 2, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]), y = expr(L, e->items[1]);
        if (!real_only(L, x, line, "math.*") || !real_only(L, y, line, "math.*"))
            return NOVAL;
        NgIrRef fx = as(L, x, NG_FLOAT64), fy = as(L, y, NG_FLOAT64);
        NgIrRef r = ng_ir_binary(L->k, binary_fns[i].op, NG_FLOAT64, fx, fy);
        NgOp op = binary_fns[i].op; /* (pow(0.0, -1.0): a domain error, other infinities range errors) */
        NgIrRef zero = op == NG_OP_POW ? ng_ir_binary(L->k, NG_OP_EQ, NG_BOOL, fx, ng_ir_const_f(L->k, NG_FLOAT64, 0.0))
                                       : NG_IR_NONE;
        if (op == NG_OP_POW || op == NG_OP_FMOD) /* (atan2, hypot and copysign never raise) */
            math_raises(L, r, fx, fy, true, zero, line);
        return mkval(r, NG_FLOAT64, true, false);
    }
    char what[80];
    snprintf(what, sizeof what, "math.%s()", fn);
    return unsupported(L, line, what);
}

/* cmath.<fn>(x): x as a Python complex, the result a Python complex (a
 * float for phase, a bool for the tests). */
/* cmath's errors for op(z) = r, as CPython's cmathmodule.c sets errno: f(z) of sin, cos, tan
 * and atan is g(iz) of sinh, cosh, tanh and atanh (the rules read (x, y) of iz, up to signs).
 * Finite z: exp, sinh, cosh with an infinite part in r a range error (OverflowError); log and
 * log10 of 0, atanh of +-1 a domain error (ValueError). Infinite parts: exp's imaginary one
 * with x finite or +inf, cosh's and sinh's with x not NaN, tanh's with x finite: a domain error.
 * Every other case (sqrt, asin ..., NaN inputs) returns its value. */
static void cmath_raises(Lower *L, NgOp op, NgIrRef z, NgIrRef r, int line)
{
    NgIrKernel *k = L->k;
    bool turn = op == NG_OP_SIN || op == NG_OP_COS || op == NG_OP_TAN || op == NG_OP_ARCTAN;
    NgIrRef re = ng_ir_cast(k, NG_FLOAT64, z), im = ng_ir_imag(k, z);
    NgIrRef x = turn ? im : re, y = turn ? re : im;
#define AND(a, b) ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, a, b)
#define OR(a, b) ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, a, b)
#define IS(o, v) ng_ir_unary(k, NG_OP_##o, NG_BOOL, v)
#define EQ(v, c) ng_ir_binary(k, NG_OP_EQ, NG_BOOL, v, ng_ir_const_f(k, NG_FLOAT64, c))
    NgIrRef finite = AND(IS(ISFINITE, x), IS(ISFINITE, y));
    NgIrRef domain = NG_IR_NONE, range = NG_IR_NONE;
    switch (op) {
    case NG_OP_EXP:
        domain = AND(IS(ISINF, y), OR(IS(ISFINITE, x), EQ(x, INFINITY)));
        break;
    case NG_OP_SINH: case NG_OP_COSH: case NG_OP_SIN: case NG_OP_COS:
        domain = AND(IS(ISINF, y), IS(LOGNOT, IS(ISNAN, x)));
        break;
    case NG_OP_TANH: case NG_OP_TAN:
        domain = AND(IS(ISINF, y), IS(ISFINITE, x));
        break;
    case NG_OP_LOG: case NG_OP_LOG10:
        domain = AND(EQ(x, 0.0), EQ(y, 0.0));
        break;
    case NG_OP_ARCTANH: case NG_OP_ARCTAN:
        domain = AND(EQ(ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, x), 1.0), EQ(y, 0.0));
        break;
    default:
        break;
    }
    if (op == NG_OP_EXP || op == NG_OP_SINH || op == NG_OP_COSH || op == NG_OP_SIN || op == NG_OP_COS)
        range = AND(finite, OR(IS(ISINF, ng_ir_cast(k, NG_FLOAT64, r)), IS(ISINF, ng_ir_imag(k, r))));
#undef AND
#undef OR
#undef IS
#undef EQ
    if (domain != NG_IR_NONE)
        raise_or_python(L, domain, NG_JIT_RAISE_DOMAIN, line);
    if (range != NG_IR_NONE)
        raise_or_python(L, range, NG_JIT_RAISE_RANGE, line);
}

static Val cmath_call(Lower *L, const NgJitExpr *e, const char *fn)
{
    static const struct { const char *name; NgOp op; } fns[] = {
        {"exp", NG_OP_EXP}, {"log", NG_OP_LOG}, {"log10", NG_OP_LOG10}, {"sqrt", NG_OP_SQRT},
        {"sin", NG_OP_SIN}, {"cos", NG_OP_COS}, {"tan", NG_OP_TAN}, {"asin", NG_OP_ARCSIN},
        {"acos", NG_OP_ARCCOS}, {"atan", NG_OP_ARCTAN}, {"sinh", NG_OP_SINH}, {"cosh", NG_OP_COSH},
        {"tanh", NG_OP_TANH}, {"asinh", NG_OP_ARCSINH}, {"acosh", NG_OP_ARCCOSH}, {"atanh", NG_OP_ARCTANH},
        {"isnan", NG_OP_ISNAN}, {"isinf", NG_OP_ISINF}, {"isfinite", NG_OP_ISFINITE}, {"phase", NG_NOPS},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        if (strcmp(fns[i].name, fn) != 0)
            continue;
        if (!check_args(L, e, 1, 1, fn)) /* (cmath.log(x, base): the two-argument form stays Python) */
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (x.r == NG_IR_NONE)
            return NOVAL;
        NgIrRef z = as(L, x, NG_COMPLEX128);
        NgOp op = fns[i].op;
        if (op == NG_NOPS) /* phase: atan2(imag, real) */
            return mkval(ng_ir_binary(L->k, NG_OP_ARCTAN2, NG_FLOAT64, ng_ir_imag(L->k, z),
                                      ng_ir_cast(L->k, NG_FLOAT64, z)), NG_FLOAT64, true, false);
        if (op == NG_OP_ISNAN || op == NG_OP_ISINF || op == NG_OP_ISFINITE)
            return mkval(ng_ir_unary(L->k, op, NG_BOOL, z), NG_BOOL, true, true);
        NgIrRef r = ng_ir_unary(L->k, op, NG_COMPLEX128, z);
        cmath_raises(L, op, z, r, e->span.line);
        return mkval(r, NG_COMPLEX128, true, false);
    }
    char what[80];
    snprintf(what, sizeof what, "cmath.%s()", fn);
    return unsupported(L, e->span.line, what);
}

/* The identity of a reduction with op in dt. */
static NgIrRef identity_of(Lower *L, NgOp op, NgDType dt)
{
    NgIrKernel *k = L->k;
    bool fl = ng_dtype_is_float(dt);
    int bits = ng_dtype_info(dt)->itemsize * 8;
    if (ng_dtype_is_complex(dt)) /* (sums and products only: complex values have no max here) */
        return ng_ir_const_c(k, dt, op == NG_OP_MUL ? 1.0 : 0.0, 0.0);
    if (op == NG_OP_MUL || op == NG_OP_LOGAND)
        return fl ? ng_ir_const_f(k, dt, 1.0) : ng_ir_const_i(k, dt, 1);
    if ((op == NG_OP_FMAX || op == NG_OP_FMIN) && fl) /* (np.nanmax's: a NaN no number loses to) */
        return ng_ir_const_f(k, dt, NAN);
    if (op == NG_OP_FMAX)
        op = NG_OP_MAXIMUM;
    if (op == NG_OP_FMIN)
        op = NG_OP_MINIMUM;
    if (op == NG_OP_MAXIMUM) {
        if (fl)
            return ng_ir_const_f(k, dt, -INFINITY);
        if (!ng_dtype_is_signed(dt))
            return ng_ir_const_i(k, dt, 0);
        return ng_ir_const_i(k, dt, bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1)));
    }
    if (op == NG_OP_MINIMUM) {
        if (fl)
            return ng_ir_const_f(k, dt, INFINITY);
        if (dt == NG_BOOL)
            return ng_ir_const_i(k, dt, 1);
        if (!ng_dtype_is_signed(dt))
            return ng_ir_const_i(k, dt, bits == 64 ? -1 : (int64_t)((UINT64_C(1) << bits) - 1));
        return ng_ir_const_i(k, dt, bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1);
    }
    return fl ? ng_ir_const_f(k, dt, 0.0) : ng_ir_const_i(k, dt, 0);
}

enum { NG_LANES = 8 }; /* partial results of a row's float sum, as NumPy's pairwise sum keeps */

/* Whether expression r calls a math function of real floats the C library computes (exp, log,
 * sin, ...; not sqrt, an instruction) that its vector math library has in vectors. pow only of
 * an absolute value (int_power's): glibc's vector pow takes a negative base lane by lane through
 * the scalar pow, slower than the scalar loop. */
static bool calls_math(const NgIrKernel *k, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(k, r);
    if ((n->kind == NG_IR_UNARY || n->kind == NG_IR_BINARY) && ng_dtype_is_float(n->dtype) &&
        n->dtype != NG_FLOAT16) {
        switch ((NgOp)n->op) {
        case NG_OP_ARCTAN2: case NG_OP_HYPOT: case NG_OP_EXP: case NG_OP_EXPM1: case NG_OP_LOG:
        case NG_OP_LOG1P: case NG_OP_LOG2: case NG_OP_LOG10: case NG_OP_SIN: case NG_OP_COS: case NG_OP_TAN:
        case NG_OP_ARCSIN: case NG_OP_ARCCOS: case NG_OP_ARCTAN: case NG_OP_SINH: case NG_OP_COSH: case NG_OP_TANH:
        case NG_OP_ARCSINH: case NG_OP_ARCCOSH: case NG_OP_ARCTANH: case NG_OP_CBRT: case NG_OP_EXP2: case NG_OP_ERF:
        case NG_OP_ERFC:
            return true;
        case NG_OP_POW: {
            const NgIrNode *base = ng_ir_node(k, ng_ir_kid(k, r, 0));
            if (base->kind == NG_IR_UNARY && base->op == NG_OP_ABS)
                return true;
            break;
        }
        default:
            break;
        }
    }
    if (n->kind > NG_IR_CAST)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (calls_math(k, ng_ir_kid(k, r, i)))
            return true;
    return false;
}

/* Whether the statements in s are only indices' checks (record_check's, `if (bad) ...`): an element
 * loop may repeat them where it takes an element (in_lanes). */
static bool index_checks(const Lower *L, const Stmts *s)
{
    for (int i = 0; i < s->n; i++)
        if (ng_ir_node(L->k, s->v[i])->kind != NG_IR_IF)
            return false;
    return true;
}

/* The reduction of a float row of n >= NG_LANES elements into variable av
 * (at the reduction's identity), in NumPy's order for np.sum (its pairwise
 * sum, for rows of up to 128 elements): NG_LANES partial results start at
 * the first NG_LANES elements and take every NG_LANES-th element after them,
 * then combine as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), the leftover tail is
 * added one by one, and av takes the result. NumPy splits longer rows in two,
 * recursively, before this step; here they run it whole (a few ulps apart).
 * The partials are independent chains: the C compiler vectorises them. v is
 * the element at index variable kv; op is the sum's NG_OP_ADD; `checks` (may be
 * NULL): its indices' checks (index_checks), run before each element is taken. */
static NgIrRef in_lanes(Lower *L, int kv, NgIrRef n, NgIrRef v, NgOp op, NgDType acc, int av, const Stmts *checks)
{
    NgIrKernel *k = L->k;
    Stmts out = {0}, body = {0};
    int r[NG_LANES], bv = ng_ir_var(k, NG_INT64), tv = ng_ir_var(k, acc);
    NgIrRef base = ng_ir_varref(k, bv);
    int nchecks = checks ? checks->n : 0;
    bool apart = op == NG_OP_ADD && calls_math(k, v) && !nchecks;
    if (apart) { /* (each block's elements made in a loop of their own first: the C compiler's vector math
                    takes the calls 8 at a time, which it does not in the lanes; the first block apart,
                    where its elements' places are constants: x ** np.arange(k)'s first powers are
                    products where the vector math is not there) */
        int lv = ng_ir_var(k, NG_INT64), t = ng_ir_var_array(k, acc, NG_LANES);
        NgIrRef l = ng_ir_varref(k, lv), from = ng_ir_varref(k, kv), zero = ng_ir_const_i(k, NG_INT64, 0);
        NgIrRef to = ng_ir_binary(k, NG_OP_ADD, NG_INT64, base, l), lanes = ng_ir_const_i(k, NG_INT64, NG_LANES);
        append(L, &out, ng_ir_let(k, kv, zero)); /* (for the tail) */
        append(L, &out, ng_ir_let(k, t, ng_ir_const_f(k, acc, 0.0)));
        for (int first = 1; first >= 0; first--)
            append(L, first ? &out : &body,
                   ng_ir_for(k, lv, zero, lanes, ng_ir_const_i(k, NG_INT64, 1),
                             ng_ir_assign_element(k, t, l, ng_ir_substitute(k, v, 1, &from, first ? &l : &to)), NG_IR_SIMD));
        for (int j = 0; j < NG_LANES; j++) {
            NgIrRef at = ng_ir_element(k, t, ng_ir_const_i(k, NG_INT64, j));
            r[j] = ng_ir_var(k, acc);
            append(L, &out, ng_ir_let(k, r[j], at));
            append(L, &body, ng_ir_assign(k, r[j], ng_ir_binary(k, op, acc, ng_ir_varref(k, r[j]), at)));
        }
    }
    for (int j = 0; j < NG_LANES && !apart; j++) {
        r[j] = ng_ir_var(k, acc);
        NgIrRef at = ng_ir_const_i(k, NG_INT64, j);
        append(L, &out, (j ? ng_ir_assign : ng_ir_let)(k, kv, at)); /* (kv: the plain loop's own variable) */
        for (int c = 0; c < nchecks; c++)
            append(L, &out, checks->v[c]);
        append(L, &out, ng_ir_let(k, r[j], v));
        append(L, &body, ng_ir_assign(k, kv, ng_ir_binary(k, NG_OP_ADD, NG_INT64, base, at)));
        for (int c = 0; c < nchecks; c++)
            append(L, &body, checks->v[c]);
        append(L, &body, ng_ir_assign(k, r[j], ng_ir_binary(k, op, acc, ng_ir_varref(k, r[j]), v)));
    }
    NgIrRef whole = ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, /* n less n % NG_LANES */
                                 ng_ir_binary(k, NG_OP_BITAND, NG_INT64, n, ng_ir_const_i(k, NG_INT64, NG_LANES - 1)));
    NgIrRef lanes = ng_ir_const_i(k, NG_INT64, NG_LANES);
    append(L, &out, ng_ir_for(k, bv, lanes, whole, lanes, seal(L, &body), 0));
    NgIrRef part[NG_LANES];
    for (int j = 0; j < NG_LANES; j++)
        part[j] = ng_ir_varref(k, r[j]);
    for (int w = NG_LANES; w > 1; w /= 2) /* pairs, then pairs of pairs */
        for (int j = 0; j < w / 2; j++)
            part[j] = ng_ir_binary(k, op, acc, part[2 * j], part[2 * j + 1]);
    append(L, &out, ng_ir_let(k, tv, part[0]));
    Stmts each = {0};
    append(L, &each, ng_ir_assign(k, kv, base));
    for (int c = 0; c < nchecks; c++)
        append(L, &each, checks->v[c]);
    append(L, &each, ng_ir_assign(k, tv, ng_ir_binary(k, op, acc, ng_ir_varref(k, tv), v)));
    NgIrRef tail = seal(L, &each);
    append(L, &out, ng_ir_for(k, bv, whole, n, ng_ir_const_i(k, NG_INT64, 1), tail, 0));
    append(L, &out, ng_ir_assign(k, av, ng_ir_binary(k, op, acc, ng_ir_varref(k, av), ng_ir_varref(k, tv))));
    return seal(L, &out);
}

/* body in loops over rows' elements in C order (axis 0, the last, innermost): by
 * rows->elem_var[d] from 0 to n[d]; `few`: the innermost has few iterations (NG_IR_SHORT). */
static NgIrRef each_element(Lower *L, const Rows *rows, const NgIrRef *n, NgIrRef body, bool few)
{
    NgIrKernel *k = L->k;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    for (int d = 0; d < rows->rank; d++)
        body = ng_ir_for(k, rows->elem_var[d], zero, n[d], one, body, d == 0 && few ? NG_IR_SHORT : 0);
    return body;
}

/* A float sum of a part of several axes (np.sum(img[i:i + 3, j:j + 3] * K)) in
 * NumPy's order where it has up to 128 elements: NumPy sums its buffered copy,
 * one row of the elements in C order, pairwise (in_lanes' order: 8 partial
 * sums taking every 8th element, combined as a tree, then the last n % 8 in
 * order). Here the part's own loops walk the elements, a counter giving each
 * its partial sum, so no index is divided. Beyond 128 elements NumPy splits
 * the row, recursively: `nested` (row by row, a few ulps apart) runs then.
 * rows: the expression's loops (their counts n[], `count` their product,
 * computed before the loop); v the element; the result into av. */
static NgIrRef flat_sum(Lower *L, const Rows *rows, const NgIrRef *n, NgIrRef count, NgIrRef v, NgDType acc, int av,
                        NgIrRef nested)
{
    NgIrKernel *k = L->k;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    int t8 = ng_ir_var(k, NG_INT64), f = ng_ir_var(k, NG_INT64), x = ng_ir_var(k, acc);
    int res = ng_ir_var(k, acc), r[NG_LANES];
    Stmts out = {0}, each = {0};
    NgIrRef fr = ng_ir_varref(k, f), xr = ng_ir_varref(k, x);
    append(L, &out, ng_ir_let(k, t8, ng_ir_binary(k, NG_OP_SUB, NG_INT64, count,
                                                  ng_ir_binary(k, NG_OP_BITAND, NG_INT64, count,
                                                               ng_ir_const_i(k, NG_INT64, NG_LANES - 1)))));
    append(L, &out, ng_ir_let(k, f, zero));
    append(L, &out, ng_ir_let(k, res, identity_of(L, NG_OP_ADD, acc)));
    append(L, &each, ng_ir_let(k, x, v));
    /* the partial sums as a shift register: r[0] is the one element f goes to (f % 8); it
     * takes the element (the first 8: as they are) and goes last, the others move up one;
     * after a multiple of 8 elements each is back in its place */
    NgIrRef first = ng_ir_binary(k, NG_OP_LT, NG_BOOL, fr, ng_ir_const_i(k, NG_INT64, NG_LANES));
    NgIrRef part[NG_LANES], shift[NG_LANES];
    for (int j = 0; j < NG_LANES; j++) {
        r[j] = ng_ir_var(k, acc);
        append(L, &out, ng_ir_let(k, r[j], identity_of(L, NG_OP_ADD, acc)));
        part[j] = ng_ir_varref(k, r[j]);
    }
    int y = ng_ir_var(k, acc);
    shift[0] = ng_ir_let(k, y, ng_ir_select(k, first, xr, ng_ir_binary(k, NG_OP_ADD, acc, part[0], xr)));
    for (int j = 0; j + 1 < NG_LANES; j++)
        shift[j + 1] = ng_ir_assign(k, r[j], part[j + 1]);
    NgIrRef rotate = ng_ir_block(k, NG_LANES + 1, (NgIrRef[]){shift[0], shift[1], shift[2], shift[3], shift[4],
                                                              shift[5], shift[6], shift[7],
                                                              ng_ir_assign(k, r[NG_LANES - 1], ng_ir_varref(k, y))});
    for (int w = NG_LANES; w > 1; w /= 2) /* pairs, then pairs of pairs */
        for (int j = 0; j < w / 2; j++)
            part[j] = ng_ir_binary(k, NG_OP_ADD, acc, part[2 * j], part[2 * j + 1]);
    /* past the partial sums: their tree once (f == t8), then the last elements in order */
    NgIrRef tail = ng_ir_block(k, 2, (NgIrRef[]){
        ng_ir_if(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, fr, ng_ir_varref(k, t8)), ng_ir_assign(k, res, part[0]),
                 NG_IR_NONE),
        ng_ir_assign(k, res, ng_ir_binary(k, NG_OP_ADD, acc, ng_ir_varref(k, res), xr))});
    append(L, &each, ng_ir_if(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, fr, ng_ir_varref(k, t8)), rotate, tail));
    append(L, &each, ng_ir_assign(k, f, ng_ir_binary(k, NG_OP_ADD, NG_INT64, fr, one)));
    append(L, &out, each_element(L, rows, n, seal(L, &each), true));
    append(L, &out, ng_ir_if(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, count, ng_ir_varref(k, t8)),
                             ng_ir_assign(k, res, part[0]), NG_IR_NONE));
    append(L, &out, ng_ir_assign(k, av, ng_ir_varref(k, res)));
    return ng_ir_if(k, ng_ir_binary(k, NG_OP_LE, NG_BOOL, count, ng_ir_const_i(k, NG_INT64, 128)), seal(L, &out),
                    nested);
}

enum { MASK_BLOCK = 128 }; /* the most elements NumPy's pairwise sum takes as one row */

/* The float sum of a boolean mask's selection (np.sum(x[x > 0])) into av, as NumPy sums its row of
 * the selected elements: they are copied, without a branch on the mask (the data decides it: a
 * misprediction in two), into a buffer of MASK_BLOCK (f of them so far), whose elements are summed
 * as a row's (in_lanes' order: NumPy's pairwise sum, of up to 128 elements) when it is full and
 * at the end, each block's sum added into av in turn (beyond 128 selected, a few ulps from NumPy's
 * halving). rows' loops walk the elements, v the element; sel (at 0) counts the selected. */
static NgIrRef masked_sum(Lower *L, const Rows *rows, const NgIrRef *n, NgIrRef v, NgIrRef mask, NgDType acc, int av,
                          int sel, const Stmts *checks)
{
    NgIrKernel *k = L->k;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    int buf = ng_ir_var_array(k, acc, MASK_BLOCK), f = ng_ir_var(k, NG_INT64), t = ng_ir_var(k, NG_INT64);
    NgIrRef fr = ng_ir_varref(k, f), tr = ng_ir_varref(k, t), block[2];
    for (int b = 0; b < 2; b++) { /* (the block's sum: of a full one in the loop, of the last after it) */
        int kb = ng_ir_var(k, NG_INT64);
        NgIrRef x = ng_ir_element(k, buf, ng_ir_varref(k, kb)), m = b ? fr : ng_ir_const_i(k, NG_INT64, MASK_BLOCK);
        NgIrRef each = ng_ir_for(k, kb, zero, m, one, ng_ir_assign(k, av, ng_ir_binary(k, NG_OP_ADD, acc,
                                                                                        ng_ir_varref(k, av), x)),
                                 NG_IR_SHORT);
        NgIrRef lanes = in_lanes(L, kb, m, x, NG_OP_ADD, acc, av, NULL);
        block[b] = b ? ng_ir_if(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, m, ng_ir_const_i(k, NG_INT64, NG_LANES)),
                                each, lanes)
                     : lanes;
    }
    Stmts out = {0}, step = {0};
    append(L, &out, ng_ir_let(k, f, zero));
    append(L, &out, ng_ir_let(k, buf, identity_of(L, NG_OP_ADD, acc)));
    for (int c = 0; checks && c < checks->n; c++) /* (its indices' checks: index_checks) */
        append(L, &step, checks->v[c]);
    append(L, &step, ng_ir_assign_element(k, buf, fr, v));
    append(L, &step, ng_ir_let(k, t, ng_ir_cast(k, NG_INT64, mask)));
    append(L, &step, ng_ir_assign(k, f, ng_ir_binary(k, NG_OP_ADD, NG_INT64, fr, tr)));
    append(L, &step, ng_ir_assign(k, sel, ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_varref(k, sel), tr)));
    NgIrRef full = ng_ir_block(k, 2, (NgIrRef[]){block[0], ng_ir_assign(k, f, zero)});
    append(L, &step, ng_ir_if(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, fr, ng_ir_const_i(k, NG_INT64, MASK_BLOCK)),
                              full, NG_IR_NONE));
    append(L, &out, each_element(L, rows, n, seal(L, &step), true));
    append(L, &out, block[1]);
    return seal(L, &out);
}

/* What an element a mask leaves out adds to a reduction with op in dt (reduce_in), where
 * op(a, it) is a for every a: -0.0 for float sums (0.0 would turn a -0.0 into 0.0), op's identity
 * otherwise; NG_IR_NONE for a complex product ((inf + 0j) * (1 + 0j) has a NaN part). */
static NgIrRef left_out(Lower *L, NgOp op, NgDType dt)
{
    if (op == NG_OP_ADD && ng_dtype_is_complex(dt))
        return ng_ir_const_c(L->k, dt, -0.0, -0.0);
    if (op == NG_OP_ADD && ng_dtype_is_float(dt))
        return ng_ir_const_f(L->k, dt, -0.0);
    return op == NG_OP_MUL && ng_dtype_is_complex(dt) ? NG_IR_NONE : identity_of(L, op, dt);
}

/* np.linalg.norm's forms (its `ord`): what reduce_rows makes of each element before the sum
 * (or max, min) that linalg_norm finishes. */
typedef enum Norm {
    NORM_NONE,
    NORM_SQUARES, /* ord None, 2, 'fro': |x|**2, summed (then the square root) */
    NORM_ABS,     /* ord 1: |x| summed; inf: their max (0 of none); -inf: their min */
    NORM_NONZERO, /* ord 0: x != 0 as a float, summed */
    NORM_POWER,   /* any other: |x|**ord summed (then to the power 1/ord) */
} Norm;

/* What reduce_rows does beyond fn's own: np.var's second pass takes (x - center)**2 of each
 * element and divides its sum by max(n - ddof, 0); np.linalg.norm's form, of x as a float
 * (an integer or bool as float64), for arrays of `rank` axes (0: any); the axis reduced
 * (NULL: all). */
typedef struct Pre {
    Val center, ddof;
    Norm norm;
    double p; /* NORM_POWER's ord */
    int rank;
    bool numbers; /* count_nonzero of the elements that are not NaN (np.nanmean's count) */
    bool keep;    /* keepdims=True: the axes reduced stay, of length 1 */
    const NgJitExpr *axis;
    bool has_start; /* Python's sum(row, start), math.prod(row, start=s): start, not the identity */
    Val start;
} Pre;

/* A reduction's Pre of nothing beyond its own, along `axis` (NULL: all). */
static Pre along(const NgJitExpr *axis)
{
    return (Pre){.center = NOVAL, .ddof = NOVAL, .norm = NORM_NONE, .axis = axis};
}

/* The element x of a norm's reduction: |x|**2, |x|, x != 0 or |x|**p, in x's float dtype. */
static Val norm_element(Lower *L, Val x, const Pre *pre)
{
    NgIrKernel *k = L->k;
    if (!ng_dtype_is_inexact(x.dt))
        x = mkval(as(L, x, NG_FLOAT64), NG_FLOAT64, false, false);
    NgDType rt = ng_dtype_real(x.dt);
    if (pre->norm == NORM_NONZERO)
        return mkval(ng_ir_cast(k, rt, truth(L, x).r), rt, false, true);
    if (pre->norm == NORM_SQUARES) {
        if (!ng_dtype_is_complex(x.dt))
            return mkval(ng_ir_binary(k, NG_OP_MUL, rt, x.r, x.r), rt, false, true);
        NgIrRef re = ng_ir_cast(k, rt, x.r), im = ng_ir_imag(k, x.r);
        return mkval(ng_ir_binary(k, NG_OP_ADD, rt, ng_ir_binary(k, NG_OP_MUL, rt, re, re),
                                  ng_ir_binary(k, NG_OP_MUL, rt, im, im)), rt, false, true);
    }
    NgIrRef a = ng_ir_unary(k, NG_OP_ABS, rt, x.r);
    if (pre->norm == NORM_POWER)
        a = ng_ir_binary(k, NG_OP_POW, rt, a, ng_ir_const_f(k, rt, rt == NG_FLOAT32 ? (double)(float)pre->p : pre->p));
    return mkval(a, rt, false, true);
}

static Val pin(Lower *L, Val v, Stmts *out);

/* The root of subscript chain e (e itself where it is none): *n its indices (ng_jit_index_count's,
 * whole axes `:` after the last index not counted, *trailing whether any subscript has them),
 * *slices how many of them are slices, rows of integers or new axes (x[:, None]: these not
 * counted in *n). NULL for an index `...`, a constant other than None or starred. */
static const NgJitExpr *chain_root(Lower *L, const NgJitExpr *e, int *n, int *slices, bool *trailing)
{
    *n = *slices = 0;
    *trailing = false;
    for (; e->kind == NG_JIT_E_SUBSCRIPT; e = e->lhs) {
        int m = ng_jit_index_count(e->rhs);
        for (int i = 0; i < m; i++) {
            const NgJitExpr *x = e->rhs->kind == NG_JIT_E_TUPLE ? e->rhs->items[i] : e->rhs;
            bool none = is_newaxis(L, x);
            if (x->kind == NG_JIT_E_STARRED || (x->kind == NG_JIT_E_CONST && !none))
                return NULL; /* (x[..., 0]) */
            *slices += x->kind == NG_JIT_E_SLICE || none || is_gather(L, x); /* (x[idx]: idx's one axis) */
            *n -= none;
        }
        *trailing = *trailing || m != (e->rhs->kind == NG_JIT_E_TUPLE ? e->rhs->nitems : 1);
        *n += m;
    }
    return e;
}

/* Whether e is the constant None. */
static bool is_none(const NgJitExpr *e) { return e->kind == NG_JIT_E_CONST && e->cval == NG_JIT_C_NONE; }

/* Whether e is a matrix of an array bound before the loop: a name or indices (no slice) leaving
 * two of its axes (W, R[i] of a 3-d R, a local naming such a part). */
static bool matrix_of(Lower *L, const NgJitExpr *e)
{
    int n, slices;
    bool trailing;
    if (e->kind == NG_JIT_E_ATTR && strcmp(e->name, "T") == 0) /* (its transpose: W.T) */
        e = e->lhs;
    e = chain_root(L, e, &n, &slices, &trailing);
    if (!e || slices || trailing || e->kind != NG_JIT_E_NAME) /* (X[i, :]: not looked into) */
        return false;
    const Sym *s = sym_of(L, e);
    const Sym *a = s->kind == SYM_VIEW ? s->base : s;
    int fixed = s->kind == SYM_VIEW ? s->nfixed : 0;
    return a->kind == SYM_ARRAY && a->given->seq == NG_JIT_SEQ_ARRAY && a->given->ndim - fixed - n == 2;
}

/* The array of matrix m (matrix_of; m.T: *flip) and the indices before its two axes into idx
 * (*ok: where they are in range), computed once before the elementwise expression (L is in
 * it); NULL where that fails. */
static Sym *matrix_at(Lower *L, const NgJitExpr *m, NgIrRef *idx, NgIrRef *ok, bool *flip)
{
    const NgJitExpr *ix[NG_MAXDIMS];
    int n = 0;
    Sym *view;
    *ok = NG_IR_NONE;
    *flip = m->kind == NG_JIT_E_ATTR;
    if (*flip) /* m.T: its rows are m's columns */
        m = m->lhs;
    RowsSaved was = outside_rows(L);
    Sym *a = index_chain(L, m, ix, &n, &view);
    int fixed = a ? view_indices(L, view, idx, ok) : 0;
    for (int p = 0; a && p < n; p++) {
        NgIrRef i = index_value(L, a, fixed + p, ix[p], ok);
        if (i == NG_IR_NONE)
            a = NULL;
        else
            idx[fixed + p] = settled(L, i);
    }
    restore_rows(L, was);
    return L->st == NG_OK ? a : NULL;
}

/* Whether the product of m and v (`what`) can be made here, in an elementwise expression of
 * rows (else unsupported); *made its value made at this element already (h * h of h = W @ x),
 * or NOVAL. */
static bool product_here(Lower *L, int line, const NgJitExpr *m, const NgJitExpr *v, const char *what, Val *made)
{
    *made = NOVAL;
    if (L->elem == NG_IR_NONE) {
        char why[160];
        snprintf(why, sizeof why, "a product of %s other than in an elementwise expression of rows (stored whole, "
                 "reduced, named)", what);
        unsupported(L, line, why);
        return false;
    }
    for (int i = 0; i < L->rows->nproducts; i++)
        if (L->rows->products[i].m == m && L->rows->products[i].v == v && L->rows->products[i].guard == L->guard)
            *made = L->rows->products[i].value;
    return true;
}

/* The sum over kv of products p (in *inner, kv's loop of count n) into a new variable, before
 * the element is read (under its guard), kept for the element as m and v's (product_here). */
static Val product_sum(Lower *L, const NgJitExpr *m, const NgJitExpr *v, Val p, int kv, NgIrRef n, Stmts *inner)
{
    NgIrKernel *k = L->k;
    int av = ng_ir_var(k, p.dt);
    Rows *r = L->rows;
    if (r->nproducts < (int)(sizeof r->products / sizeof r->products[0])) {
        r->products[r->nproducts].m = m;
        r->products[r->nproducts].v = v;
        r->products[r->nproducts].guard = L->guard;
        r->products[r->nproducts++].value = mkval(ng_ir_varref(k, av), p.dt, false, false);
    }
    append(L, inner, ng_ir_assign(k, av, ng_ir_binary(k, NG_OP_ADD, p.dt, ng_ir_varref(k, av), p.r)));
    NgIrRef loop = ng_ir_for(k, kv, ng_ir_const_i(k, NG_INT64, 0), plain_count(L, n), ng_ir_const_i(k, NG_INT64, 1),
                             seal(L, inner), 0);
    append(L, L->pending, ng_ir_let(k, av, identity_of(L, NG_OP_ADD, p.dt)));
    append(L, L->pending, L->guard == NG_IR_NONE ? loop : ng_ir_if(k, L->guard, loop, NG_IR_NONE));
    return mkval(ng_ir_varref(k, av), p.dt, false, false);
}

/* m @ v, v @ m, np.dot(m, v) (np.matmul), m a matrix (matrix_of; m.T its other axis first), v a
 * row, in an elementwise
 * expression of rows: the row of their products, its element at the expression's element the
 * sum over k of m[e, k] * v[k] (v @ m: v[k] * m[k, e]) in k's order (NumPy's BLAS sums in its
 * own), a loop in the expression's loop. v's length must be the matrix's (no broadcasting: a
 * length the kernel cannot know before raises NumPy's ValueError, else the loop runs as Python,
 * which raises it). */
static Val matvec(Lower *L, const NgJitExpr *e, const NgJitExpr *m, const NgJitExpr *v, bool left)
{
    NgIrKernel *k = L->k;
    int line = e->span.line;
    Val made;
    if (!product_here(L, line, m, v, "a matrix and a row", &made) || made.r != NG_IR_NONE)
        return made;
    NgIrRef idx[NG_MAXDIMS], ok;
    bool flip;
    Sym *a = matrix_at(L, m, idx, &ok, &flip);
    if (!a)
        return NOVAL;
    left = left != flip;
    int nd = a->given->ndim, out_axis = left ? nd - 2 : nd - 1, sum_axis = left ? nd - 1 : nd - 2;
    NgIrRef at = row_index(L, ng_ir_shape(k, a->param, out_axis), 0, line);
    int kv = ng_ir_var(k, NG_INT64);
    Stmts inner = {0};
    Rows rows;
    RowsSaved outer = enter_rows(L, &rows, kv, &inner);
    idx[out_axis] = at;
    idx[sum_axis] = row_index(L, ng_ir_shape(k, a->param, sum_axis), 0, line);
    Val x = mkval(guarded_load(L, a, idx, ok), a->given->dtype, false, false);
    rows.split = rows.nlens[0]; /* (v's length is the matrix's: NumPy's matmul broadcasts neither) */
    Val y = expr(L, v);
    Val p = y.r == NG_IR_NONE ? NOVAL : arith(L, NG_JIT_OP_MUL, left ? x : y, left ? y : x, line);
    restore_rows(L, outer);
    NgIrRef len[MAX_ROW_RANK];
    if (p.r == NG_IR_NONE || L->st != NG_OK || !rows_length(L, &rows, len, line) || rows.rank != 1) {
        ng_free(inner.v);
        if (L->st == NG_OK)
            unsupported(L, line, "a product of a matrix and other than a row");
        return NOVAL;
    }
    if (p.dt == NG_BOOL || ng_dtype_info(p.dt)->itemsize < 4) {
        ng_free(inner.v);
        return unsupported(L, line, "a matrix product of bools or of numbers of fewer than 4 bytes");
    }
    return product_sum(L, m, v, p, kv, len[0], &inner);
}

/* a @ b, np.dot(a, b) (np.matmul) of two matrices (matrix_of; a.T its other axis first), in an
 * elementwise expression of rows: a part of two axes, its element at the expression's (r, c)
 * on its last two axes the sum over k of a[r, k] * b[k, c] in k's order (NumPy's BLAS sums in
 * its own), a loop in the expression's loops. a's columns must be as many as b's rows (else
 * the loop runs as Python, which raises NumPy's ValueError). */
static Val matmat(Lower *L, const NgJitExpr *e, const NgJitExpr *ma, const NgJitExpr *mb)
{
    NgIrKernel *k = L->k;
    int line = e->span.line;
    Val made;
    if (!product_here(L, line, ma, mb, "two matrices", &made) || made.r != NG_IR_NONE)
        return made;
    NgIrRef ia[NG_MAXDIMS], ib[NG_MAXDIMS], oka, okb;
    bool fa, fb;
    Sym *a = matrix_at(L, ma, ia, &oka, &fa), *b = a ? matrix_at(L, mb, ib, &okb, &fb) : NULL;
    if (!b)
        return NOVAL;
    int na = a->given->ndim, nb = b->given->ndim;
    int rows_a = fa ? na - 1 : na - 2, sum_a = fa ? na - 2 : na - 1; /* (a's axis of rows, of the sum) */
    int sum_b = fb ? nb - 1 : nb - 2, cols_b = fb ? nb - 2 : nb - 1;
    NgIrRef n = ng_ir_shape(k, a->param, sum_a);
    RowsSaved was = outside_rows(L); /* (NumPy's ValueError for a's columns not b's rows: Python's) */
    raise_or_python(L, ng_ir_binary(k, NG_OP_NE, NG_BOOL, n, ng_ir_shape(k, b->param, sum_b)), NG_JIT_RAISE_ROW_SHAPE,
                    line);
    restore_rows(L, was);
    ia[rows_a] = row_index(L, ng_ir_shape(k, a->param, rows_a), 1, line);
    ib[cols_b] = row_index(L, ng_ir_shape(k, b->param, cols_b), 0, line);
    int kv = ng_ir_var(k, NG_INT64);
    ia[sum_a] = ib[sum_b] = ng_ir_varref(k, kv);
    Stmts inner = {0};
    Stmts *pending = L->pending;
    L->pending = &inner; /* (the loads' checks: in the loop over k) */
    Val x = mkval(guarded_load(L, a, ia, oka), a->given->dtype, false, false);
    Val y = mkval(guarded_load(L, b, ib, okb), b->given->dtype, false, false);
    Val p = arith(L, NG_JIT_OP_MUL, x, y, line);
    L->pending = pending;
    if (p.r == NG_IR_NONE || L->st != NG_OK || p.dt == NG_BOOL || ng_dtype_info(p.dt)->itemsize < 4) {
        ng_free(inner.v);
        return L->st != NG_OK ? NOVAL : unsupported(L, line, "a matrix product of bools or of numbers of fewer than 4 bytes");
    }
    return product_sum(L, ma, mb, p, kv, n, &inner);
}

static Val reduce_in(Lower *L, const NgJitExpr *e, const char *fn, NgOp op, bool python, const Pre *pre,
                     const RowsSaved *elem);

/* np.sum(e), np.max(e) ... np.dot(a, b) of 1-d arrays (or rows of arrays,
 * and elementwise expressions of them): a loop over the elements, run
 * before the statement, its result in a variable. `python`: Python's own
 * max(row)/min(row), which keeps the first element no later one beats (a NaN
 * neither beats nor is beaten: not NumPy's NaN) and raises for an empty row;
 * sum(row), 0 + row[0] + row[1] ... in order in the elements' own dtype (an
 * int8 sum wraps); any(row)/all(row), a Python bool. `pre` (may be NULL): what
 * it does beyond fn's own (np.var's second pass, a norm's form). */
static Val reduce_rows(Lower *L, const NgJitExpr *e, const char *fn, NgOp op, bool python, const Pre *pre)
{
    bool dot = strcmp(fn, "dot") == 0 || strcmp(fn, "matmul") == 0; /* (a @ b of rows: np.matmul's is np.dot's) */
    if (!check_args(L, e, dot ? 2 : 1, dot ? 2 : 1, fn))
        return NOVAL;
    bool m0 = dot && matrix_of(L, e->items[0]), m1 = dot && matrix_of(L, e->items[1]);
    if (m0 && m1)
        return matmat(L, e, e->items[0], e->items[1]);
    if (m0 || m1) /* (a row: W @ x[i], x[i] @ W) */
        return matvec(L, e, e->items[m1], e->items[!m1], m0);
    if (L->elem != NG_IR_NONE) { /* X[i] = X[i] / np.sum(X[i]), np.sum(X[i] - np.max(X[i])): NumPy's is
                                    one number for the whole expression, computed once, before it (one
                                    along an axis, a row of the expression: reduce_in) */
        RowsSaved was = outside_rows(L);
        Val r = reduce_in(L, e, fn, op, python, pre, &was);
        restore_rows(L, was);
        return r;
    }
    return reduce_in(L, e, fn, op, python, pre, NULL);
}

/* sum(row, start) and math.prod(row, start=s): start, then each element in order (Python's
 * chain, in NEP 50's types: a Python start takes the row's dtype); start NULL: the int 1. */
static Val python_reduce_from(Lower *L, const NgJitExpr *e, const NgJitExpr *start, const char *fn, NgOp op)
{
    if (e->items[0]->kind == NG_JIT_E_STARRED || (start && start->kind == NG_JIT_E_STARRED))
        return unsupported(L, e->span.line, "a starred argument");
    Val s0 = start ? expr(L, start) : mkval(ng_ir_const_i(L->k, NG_INT64, 1), NG_INT64, true, true);
    if (s0.r == NG_IR_NONE)
        return NOVAL;
    if (s0.chr)
        return unsupported(L, e->span.line, "a str start (Python's TypeError)");
    NgJitExpr plain = *e;
    plain.nitems = 1;
    plain.nkeywords = 0;
    Pre pre = {.center = NOVAL, .ddof = NOVAL, .norm = NORM_NONE, .has_start = true, .start = s0};
    return reduce_rows(L, &plain, fn, op, true, &pre);
}

/* The axis (from the last) a reduction along `axis` (a constant integer, NumPy's count from the
 * first) of an array of `rank` axes takes, or -1 where it leaves a number (of a row: as with no
 * axis) or fails; the row it leaves is an elementwise expression's (`in_rows`), else unsupported. */
static int reduced_axis(Lower *L, const NgJitExpr *axis, int rank, bool in_rows, int line)
{
    if (axis->kind == NG_JIT_E_TUPLE) { /* (axes: one, as it; all of them, as none) */
        if (axis->nitems == 1)
            return reduced_axis(L, axis->items[0], rank, in_rows, line);
        unsigned seen = 0;
        for (int i = 0; i < axis->nitems; i++) {
            int d = reduced_axis(L, axis->items[i], rank, true, line);
            if (L->st != NG_OK)
                return -1;
            d = d < 0 ? 0 : d; /* (of a 1-d part: its one axis) */
            if (seen >> d & 1) { /* (Python raises NumPy's ValueError: duplicate value in 'axis') */
                unsupported(L, line, "a reduction along an axis named twice");
                return -1;
            }
            seen |= 1u << d;
        }
        if (axis->nitems != rank)
            unsupported(L, line, "a reduction along some of a part's axes (a tuple of axes other than all of them "
                                 "or one)");
        return -1;
    }
    Val a = expr(L, axis);
    if (a.r == NG_IR_NONE)
        return -1;
    if (!is_const(L, a.r) || !ng_dtype_is_int(a.dt) || a.dt == NG_BOOL || a.chr) {
        unsupported(L, line, "a reduction's axis other than a constant integer");
        return -1;
    }
    int64_t ax = const_i(L, a.r);
    if (ax < -rank || ax >= rank) { /* (Python raises NumPy's AxisError) */
        unsupported(L, line, "a reduction along an axis its array does not have");
        return -1;
    }
    if (rank > 1 && !in_rows)
        unsupported(L, line, "a reduction along one axis of an array of 2 or more axes other than in an elementwise "
                             "expression of rows (stored whole, reduced, named)");
    return rank == 1 || !in_rows ? -1 : ax < 0 ? (int)(-ax - 1) : (int)(rank - 1 - ax);
}

/* reduce_rows' loop over the elements, where the expression is lowered (not inside another).
 * Along an axis (pre->axis), of an array of 2 or more axes: a row of the elementwise expression
 * `elem` is in (L is outside it: outside_rows), its element at that expression's element the
 * reduction of the elements along the axis, in their order (the last axis': a float sum in
 * NumPy's pairwise order, as NumPy sums its C-ordered temporary), a loop in the expression's
 * loop; the other axes are the expression's (broadcast as NumPy's). */
static Val reduce_in(Lower *L, const NgJitExpr *e, const char *fn, NgOp op, bool python, const Pre *pre,
                     const RowsSaved *elem)
{
    int line = e->span.line;
    bool dot = strcmp(fn, "dot") == 0 || strcmp(fn, "matmul") == 0;
    NgIrKernel *k = L->k;
    int kv = ng_ir_var(k, NG_INT64);
    Stmts inner = {0};
    Rows rows;
    RowsSaved was = enter_rows(L, &rows, kv, &inner);
    rows.hoists = true;
    rows.masks = !dot && selects(L, e->items[0]);
    Val x = expr(L, e->items[0]);
    bool is_len = strcmp(fn, "len") == 0;
    bool rows_of = is_len && x.r != NG_IR_NONE && rows.mask_rank > 1; /* (len(X[m]), m of fewer axes: the rows
                                                                         selected) */
    if (is_len && x.r != NG_IR_NONE) { /* (len(x[m]): the elements selected, counted; of rows, their first
                                          elements) */
        NgIrRef first = ng_ir_const_i(k, NG_BOOL, 1);
        for (int d = 0; rows_of && d < rows.mask_rank - 1; d++)
            first = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, first, ng_ir_binary(k, NG_OP_EQ, NG_BOOL,
                                                                               ng_ir_varref(k, rows.elem_var[d]),
                                                                               ng_ir_const_i(k, NG_INT64, 0)));
        x = mkval(first, NG_BOOL, false, true);
    }
    NgDType product = NG_NODTYPE; /* a dot's: its result's dtype */
    if (dot) {
        rows.split = rows.nlens[0];
        Val y = expr(L, e->items[1]);
        bool w;
        if (x.r != NG_IR_NONE && y.r != NG_IR_NONE) /* (else no dtype: a name not typed yet, an error) */
            promote(x.dt, x.weak, y.dt, y.weak, &product, &w);
        if (product == NG_FLOAT16 && x.r != NG_IR_NONE && y.r != NG_IR_NONE) { /* (NumPy's: in float32, in order) */
            x = mkval(as(L, x, NG_FLOAT32), NG_FLOAT32, false, false);
            y = mkval(as(L, y, NG_FLOAT32), NG_FLOAT32, false, false);
        }
        x = arith(L, NG_JIT_OP_MUL, x, y, line);
    }
    bool counting = strcmp(fn, "count_nonzero") == 0 || is_len; /* (the elements' truths summed) */
    if (counting && x.r != NG_IR_NONE && pre && pre->numbers)
        x = mkval(ng_ir_binary(L->k, NG_OP_EQ, NG_BOOL, x.r, x.r), NG_BOOL, false, true);
    if (counting && x.r != NG_IR_NONE)
        x = truth(L, x);
    if (strcmp(fn, "nansum") == 0 && x.r != NG_IR_NONE && ng_dtype_is_float(x.dt)) /* (a NaN counts as 0) */
        x.r = ng_ir_select(L->k, ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, x.r, x.r), zero_of(L, x.dt).r, x.r);
    Val center = pre ? pre->center : NOVAL;
    if (center.r != NG_IR_NONE && x.r != NG_IR_NONE && !ng_dtype_is_complex(x.dt)) { /* (x - mean)**2 */
        NgIrRef d = ng_ir_binary(L->k, NG_OP_SUB, center.dt, as(L, x, center.dt), center.r);
        x = mkval(ng_ir_binary(L->k, NG_OP_MUL, center.dt, d, d), center.dt, false, true);
    }
    Norm norm = pre ? pre->norm : NORM_NONE;
    if (norm && x.r != NG_IR_NONE && x.dt != NG_FLOAT16)
        x = norm_element(L, x, pre);
    restore_rows(L, was);
    NgIrRef n[MAX_ROW_RANK], mask = rows.mask; /* (x[m]: a row of the elements where m holds) */
    int rank = rows.rank, erank = mask != NG_IR_NONE ? rows.mask_rank : rank; /* (the axes of what it reduces) */
    int dk = pre && pre->axis && x.r != NG_IR_NONE && L->st == NG_OK && rank > 0
                 ? reduced_axis(L, pre->axis, erank, elem != NULL, line)
                 : -1; /* (the axis reduced: -1 all; of a selection of whole rows by a mask of one axis, the
                          first, its axes numbered from the last as the array's) */
    int kept = dk >= 0 ? 1 : erank; /* (the axes reduced) */
    const char *refused = x.r == NG_IR_NONE || L->st != NG_OK ? NULL
                          : rank == 0                        ? "of something that is not an array"
                          : rank > 1 && dot                  ? "of arrays of 2 or more axes (a matrix product)"
                          : erank > 1 && python              ? "of an array of 2 or more axes (Python's goes over its rows)"
                          : norm && x.dt == NG_FLOAT16        ? "of float16 values"
                          : norm && pre->rank && kept != pre->rank
                              ? (pre->rank == 1 ? "of an array of 2 or more axes with this ord (a matrix norm)"
                                                : "with ord='fro' of an array of other than 2 axes")
                          : ng_dtype_is_complex(x.dt) && (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM ||
                                                          op == NG_OP_FMAX || op == NG_OP_FMIN ||
                                                          center.r != NG_IR_NONE)
                              ? "of complex values" : NULL;
    bool keep = pre && pre->keep;
    if (keep && !refused && x.r != NG_IR_NONE && L->st == NG_OK && mask != NG_IR_NONE)
        refused = "with keepdims=True of a boolean mask's selection";
    if (dk >= 0 && !refused && mask != NG_IR_NONE && (erank != rank || dk != rank - 1))
        refused = "of a boolean mask's selection along another axis than its first (of a mask of one axis)";
    if (keep && !refused && x.r != NG_IR_NONE && L->st == NG_OK && !elem)
        refused = "with keepdims=True other than in an elementwise expression of rows (stored whole, reduced, named)";
    if (x.r == NG_IR_NONE || L->st != NG_OK || refused) {
        ng_free(inner.v);
        if (refused)
            fail(L, line, NG_ERR_UNSUPPORTED, "%s%s() %s is not supported in a compiled loop",
                 python || is_len ? "" : "np.", fn, refused);
        return NOVAL;
    }
    if (!rows_length(L, &rows, n, line)) { /* (np.dot(row, 2.0): NumPy's is an array) */
        ng_free(inner.v);
        return L->st != NG_OK ? NOVAL : fail(L, line, NG_ERR_UNSUPPORTED, "np.%s() of an array and a number is not "
                                                                            "supported in a compiled loop", fn);
    }
    if (mask != NG_IR_NONE && !mask_lengths(L, &rows, NULL, line)) {
        ng_free(inner.v);
        return NOVAL;
    }
    for (int d = 0; rows_of && d < rows.mask_rank - 1; d++) { /* (rows of no element: counted by Python) */
        if (!invariant(L, n[d])) {
            ng_free(inner.v);
            return unsupported(L, line, "len() of a boolean mask's selection of rows whose length varies in the loop");
        }
        raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, n[d], ng_ir_const_i(k, NG_INT64, 0)),
                        NG_JIT_RAISE_MASK_ROWS, line);
    }
    NgDType acc = x.dt;
    bool is_mean = strcmp(fn, "mean") == 0;
    bool arg = strncmp(fn, "arg", 3) == 0; /* np.argmax / np.argmin: the first best element's place */
    if (python && (op == NG_OP_ADD || op == NG_OP_MUL)) { /* (start + row[0] + ...: a Python start is weak) */
        acc = x.dt == NG_BOOL ? NG_INT64 : x.dt;
        if (pre && pre->has_start) {
            Val s0 = pre->start;
            NgDType to;
            bool w;
            promote(s0.dt, s0.weak, acc, false, &to, &w);
            int_bounds(L, s0, to, line); /* (NumPy's OverflowError of a Python int the row's dtype cannot hold) */
            acc = to;
        }
    } else if (op == NG_OP_ADD || op == NG_OP_MUL) { /* NumPy's accumulator: at least 64-bit integers */
        if (x.dt == NG_BOOL || (ng_dtype_is_signed(x.dt) && x.dt != NG_INT64))
            acc = NG_INT64;
        else if (kind_of(x.dt) == NG_KIND_UINT)
            acc = NG_UINT64;
        if (is_mean && !ng_dtype_is_inexact(x.dt))
            acc = NG_FLOAT64;
    }
    /* NumPy's float16 sums (pairwise) and products take float32s and round once, at the end */
    bool half = !python && acc == NG_FLOAT16 && (op == NG_OP_ADD || op == NG_OP_MUL) && !dot;
    if (half)
        acc = NG_FLOAT32;
    NgIrRef v = op == NG_OP_LOGAND || op == NG_OP_LOGOR ? truth(L, x).r : as(L, x, acc);
    if (op == NG_OP_LOGAND || op == NG_OP_LOGOR)
        acc = NG_BOOL;
    NgIrRef whole = n[0]; /* (the element count as computed: what the checks below test before the loop) */
    for (int d = 1; d < rank; d++)
        whole = ng_ir_binary(k, NG_OP_MUL, NG_INT64, whole, n[d]);
    if (python && (op == NG_OP_ADD || op == NG_OP_MUL) && mask == NG_IR_NONE) {
        /* of no element, Python's is the start itself, of its own type: where the length is the
         * same in the whole kernel, such a loop runs as Python; elsewhere a start or a product is
         * not compiled (a plain sum(row) gives its 0 in the row's dtype) */
        if (invariant(L, whole)) {
            python_if(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, whole, ng_ir_const_i(k, NG_INT64, 0)),
                      ng_jit_raise_code(NG_JIT_RAISE_EMPTY_SUM, line, 0));
            L->python_body = true;
        } else if (op == NG_OP_MUL || (pre && pre->has_start)) {
            ng_free(inner.v);
            return unsupported(L, line, "sum(row, start) or math.prod() of a row whose length varies in the loop "
                                        "(of an empty one, Python's result is its start, of the start's own type)");
        }
    }
    int64_t empty_code = 0; /* (what min/max of no element raises: of a selection, tested after its loop) */
    bool fminmax = op == NG_OP_FMAX || op == NG_OP_FMIN; /* np.nanmax, np.nanmin: NaNs skipped (of integers,
                                                            max and min; either way NumPy's words fmax, fmin) */
    if ((op == NG_OP_MAXIMUM && norm != NORM_ABS) || op == NG_OP_MINIMUM || fminmax) { /* of no element: Python's
                                                       ValueError, or NumPy's (a norm's max starts at 0); along an
                                                       axis, where the row has elements */
        NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0);
        NgIrRef empty = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, dk >= 0 ? n[dk] : whole, zero);
        for (int d = 0; dk >= 0 && d < rank; d++)
            if (d != dk)
                empty = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, empty, ng_ir_binary(k, NG_OP_NE, NG_BOOL, n[d], zero));
        int which = (arg ? 4 : python ? 0 : fminmax ? 6 : 2) +
                    (op == NG_OP_MAXIMUM || op == NG_OP_FMAX ? NG_JIT_EMPTY_MAX : NG_JIT_EMPTY_MIN);
        empty_code = ng_jit_raise_code(NG_JIT_RAISE_EMPTY, line, which);
        if (mask == NG_IR_NONE)
            raise_told_or_python(L, empty, empty_code);
    }
    for (int d = 0; d < rank; d++)
        n[d] = plain_count(L, n[d]);
    Stmts chunk = {0}; /* (where it is hoisted in the expression around: what it makes) */
    Rows *around = dk >= 0 ? elem->rows : NULL;
    unsigned axes = 0; /* (of the expression around, it reads) */
    if (dk >= 0) { /* along axis dk: a loop over it at each element of the expression around (elem) */
        restore_rows(L, *elem);
        NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1), at[MAX_ROW_RANK];
        for (int d = 0; d < rank; d++) {
            if (d == dk) {
                if (keep) /* (its length 1) */
                    new_axis(L, d, line);
                continue;
            }
            int od = d < dk || keep ? d : d - 1; /* (the axis in the expression around) */
            bool unit = is_const(L, n[d]) && const_i(L, n[d]) == 1; /* (a new axis: x[:, None]) */
            at[d] = unit ? zero : row_index(L, n[d], od, line);
            if (unit)
                new_axis(L, od, line);
            axes |= unit ? 0 : 1u << od;
            if (!unit && !invariant(L, n[d])) /* (a length 1 the expression broadcasts, as NumPy) */
                at[d] = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, n[d], one), zero, at[d]);
        }
        if (around->hoists && around->nhoisted < MAX_HOISTED && L->guard == NG_IR_NONE)
            L->pending = &chunk; /* (the rest of it: around's builder places it, wrap_loops) */
        for (int d = 0; d < rank; d++)
            if (d != dk && rows.elem_var[d] >= 0)
                append(L, L->pending, ng_ir_let(k, rows.elem_var[d], at[d]));
        if (rows.elem_var[dk] < 0)
            rows.elem_var[dk] = ng_ir_var(k, NG_INT64);
        kv = rows.elem_var[dk];
        n[0] = n[dk];
        rank = 1;
    }
    int order[MAX_ROW_RANK] = {0}; /* (its loops' axes, the outermost first) */
    for (int q = 0; q < rank; q++)
        order[q] = dk >= 0 ? dk : rank - 1 - q;
    hoist_inner(L, &rows, order, rank, &inner);
    /* av the result; for a float sum of several axes tv a row's own, added into av row by row
     * (NumPy's order up to 128 elements: flat_sum); other reductions take each element into av,
     * in C order as NumPy's */
    bool checked = rank == 1 && index_checks(L, &inner); /* (in_lanes, masked_sum repeat them) */
    bool lanes = (inner.n == 0 || checked) && (rank == 1 || rows.nhoisted == 0) &&
                 (acc == NG_FLOAT32 || acc == NG_FLOAT64) &&
                 op == NG_OP_ADD && !python && product != NG_FLOAT16 && dk <= 0; /* (NumPy sums along another axis
                                                                                   in order) */
    bool flat = lanes && (rank > 1 || mask != NG_IR_NONE); /* (flat_sum's order) */
    bool bare = inner.n == 0 && rows.nhoisted == 0; /* (an element needs no statement before it: a loop of its own
                                                       can read it) */
    int av = ng_ir_var(k, acc), tv = flat && mask == NG_IR_NONE ? ng_ir_var(k, acc) : av;
    NgIrRef blocked = lanes && mask == NG_IR_NONE ? in_lanes(L, kv, n[0], v, op, acc, tv, &inner) : NG_IR_NONE;
    int sel = mask != NG_IR_NONE ? ng_ir_var(k, NG_INT64) : -1; /* (of a selection: its elements so far) */
    int place = arg ? ng_ir_var(k, NG_INT64) : -1, at = arg && rank > 1 && sel < 0 ? ng_ir_var(k, NG_INT64) : -1;
    if (arg) { /* at: the element's place in C order (a row's: kv; a selection's: sel); the first best (a
                  NaN: the first NaN) wins; av starts at op's identity, which no element beats, so the first
                  is place 0 */
        NgIrRef atr = ng_ir_varref(k, sel >= 0 ? sel : at >= 0 ? at : kv), best = ng_ir_varref(k, av);
        NgIrRef beats = ng_ir_binary(k, op == NG_OP_MAXIMUM ? NG_OP_GT : NG_OP_LT, NG_BOOL, v, best);
        if (ng_dtype_is_float(acc)) /* (v a NaN where the best so far is not) */
            beats = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, beats,
                                 ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_NE, NG_BOOL, v, v),
                                              ng_ir_binary(k, NG_OP_EQ, NG_BOOL, best, best)));
        if (mask != NG_IR_NONE) /* (of a selection: where the mask holds) */
            beats = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, mask, beats);
        int won = ng_ir_var(k, NG_BOOL);
        append(L, &inner, ng_ir_let(k, won, beats));
        NgIrRef w = ng_ir_varref(k, won);
        append(L, &inner, ng_ir_assign(k, av, ng_ir_select(k, w, v, best)));
        append(L, &inner, ng_ir_assign(k, place, ng_ir_select(k, w, atr, ng_ir_varref(k, place))));
        if (at >= 0)
            append(L, &inner, ng_ir_assign(k, at, ng_ir_binary(k, NG_OP_ADD, NG_INT64, atr,
                                                               ng_ir_const_i(k, NG_INT64, 1))));
    } else if (python && (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM)) { /* av = kv == 0 or v beats av ? v : av */
        NgIrRef beats = ng_ir_binary(k, op == NG_OP_MAXIMUM ? NG_OP_GT : NG_OP_LT, NG_BOOL, v, ng_ir_varref(k, av));
        NgIrRef first = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, ng_ir_varref(k, sel >= 0 ? sel : kv),
                                     ng_ir_const_i(k, NG_INT64, 0));
        NgIrRef wins = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, first, beats);
        if (mask != NG_IR_NONE)
            wins = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, mask, wins);
        append(L, &inner, ng_ir_assign(k, av, ng_ir_select(k, wins, v, ng_ir_varref(k, av))));
    } else { /* (of a selection: the others add nothing, or where something would, left as they are) */
        NgIrRef none = mask != NG_IR_NONE ? left_out(L, op, acc) : NG_IR_NONE;
        NgIrRef to = ng_ir_binary(k, op, acc, ng_ir_varref(k, tv), none != NG_IR_NONE ? ng_ir_select(k, mask, v, none) : v);
        if (mask != NG_IR_NONE && none == NG_IR_NONE)
            to = ng_ir_select(k, mask, to, ng_ir_varref(k, tv));
        append(L, &inner, ng_ir_assign(k, tv, to));
    }
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef counted = sel < 0 ? NG_IR_NONE /* (a selection's elements, counted without a branch) */
                              : ng_ir_assign(k, sel, ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_varref(k, sel),
                                                                  ng_ir_cast(k, NG_INT64, mask)));
    /* (the count so far, read in the loop; along an axis, where the loop does not vectorise, the mask read once;
       where the mask needs statements made in the loop) */
    bool running = arg || (python && (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM)) || dk >= 0 || !bare;
    if (running)
        append(L, &inner, counted);
    NgIrRef loop = ng_ir_for(k, kv, zero, n[0], one, seal(L, &inner), rank > 1 ? NG_IR_SHORT : 0);
    if (lanes && mask == NG_IR_NONE) /* (rows of fewer than 8: one by one, as NumPy) */
        loop = ng_ir_if(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, n[0], ng_ir_const_i(k, NG_INT64, NG_LANES)), loop, blocked);
    if (tv != av) { /* (a row's sum, added into av) */
        NgIrRef three[3] = {ng_ir_let(k, tv, identity_of(L, op, acc)), loop,
                            ng_ir_assign(k, av, ng_ir_binary(k, op, acc, ng_ir_varref(k, av), ng_ir_varref(k, tv)))};
        loop = ng_ir_block(k, 3, three);
    }
    loop = wrap_loops(L, &rows, order, rank, rows.elem_var, n, loop, false); /* (along an axis: the one loop, kv) */
    /* the element count, before the loop (flat_sum tests it; a mean divides by it) */
    NgIrRef count = sel >= 0                      ? ng_ir_varref(k, sel) /* (read after the loop) */
                    : rank > 1 && (lanes || is_mean) ? plain_count(L, whole)
                                                     : n[0];
    if (flat && sel >= 0)
        loop = masked_sum(L, &rows, n, v, mask, acc, av, sel, &inner);
    else if (sel >= 0 && !running && (is_mean || empty_code)) /* (counted first: the loop's one statement
                                                                  the C compiler vectorises as a reduction) */
        loop = ng_ir_block(k, 2, (NgIrRef[]){each_element(L, &rows, n, counted, false), loop});
    else if (flat)
        loop = flat_sum(L, &rows, n, count, v, acc, av, loop);
    append(L, L->pending, ng_ir_let(k, av, pre && pre->has_start ? as(L, pre->start, acc) : identity_of(L, op, acc)));
    if (sel >= 0)
        append(L, L->pending, ng_ir_let(k, sel, zero));
    if (arg) {
        append(L, L->pending, ng_ir_let(k, place, ng_ir_const_i(k, NG_INT64, 0)));
        if (at >= 0)
            append(L, L->pending, ng_ir_let(k, at, ng_ir_const_i(k, NG_INT64, 0)));
    }
    append(L, L->pending, L->guard == NG_IR_NONE ? loop : ng_ir_if(k, L->guard, loop, NG_IR_NONE));
    if (sel >= 0 && empty_code) /* (min/max of a selection of no element) */
        raise_told_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, ng_ir_varref(k, sel), zero), empty_code);
    carry_stop(L, L->pending); /* (a raise in it: nothing after it runs, in a sequential kernel) */
    if (L->pending == &chunk) { /* (hoisted: the expression's builder places it) */
        around->hoisted[around->nhoisted].axes = axes;
        around->hoisted[around->nhoisted].across = dk >= 1 && ng_ir_node(k, loop)->kind == NG_IR_FOR ? loop : NG_IR_NONE;
        around->hoisted[around->nhoisted++].stmt = seal(L, &chunk);
        L->pending = elem->pending;
    }
    if (keep && dk < 0) { /* (of all axes: a number in an array of as many axes, each of length 1) */
        restore_rows(L, *elem);
        for (int d = 0; d < rows.rank; d++)
            new_axis(L, d, line);
        outside_rows(L);
    }
    if (arg) /* (NumPy's intp) */
        return mkval(ng_ir_varref(k, place), NG_INT64, false, true);
    NgIrRef r = ng_ir_varref(k, av);
    Val ddof = pre ? pre->ddof : NOVAL;
    if (is_mean && ddof.r != NG_IR_NONE) { /* np.var's sum / max(n - ddof, 0), divided in float64 as NumPy's */
        NgIrRef d = ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, count), as(L, ddof, NG_FLOAT64));
        d = ng_ir_binary(k, NG_OP_MAXIMUM, NG_FLOAT64, d, ng_ir_const_f(k, NG_FLOAT64, 0.0));
        r = ng_ir_cast(k, acc, ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, r), d));
    } else if (is_mean && half) { /* (NumPy's: float16(float32 sum / n), divided in float64) */
        r = ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, r), ng_ir_cast(k, NG_FLOAT64, count));
    } else if (is_mean) {
        r = ng_ir_binary(k, NG_OP_TRUEDIV, acc, r, ng_ir_cast(k, acc, count));
    }
    if (half)
        return mkval(ng_ir_cast(k, NG_FLOAT16, r), NG_FLOAT16, false, false);
    if (dot && product != acc) /* (NumPy's dot sums in a wider type and returns the product's: an int8 dot
                                  wraps, a bool one is whether any pair is both true, a float16 one rounds) */
        return mkval(ng_ir_cast(k, product, r), product, false, product == NG_BOOL);
    bool number = dk < 0 && !keep; /* (len()'s is a Python int, np.count_nonzero's NumPy 2.4's int64; along an axis, an array of intp) */
    /* (Python's any()/all() give Python bools; its max()/min() of a bool row, the row's np.bool_) */
    bool pybool = python && acc == NG_BOOL && (op == NG_OP_LOGAND || op == NG_OP_LOGOR);
    return mkval(r, acc, pybool || (is_len && number), acc == NG_BOOL || counting);
}

/* The values of call e's keyword arguments names[0..n) into v[] (NULL where not given); any
 * other keyword is unsupported (L fails). *plain: e without its keywords. */
static void keyword_args(Lower *L, const NgJitExpr *e, int n, const char *const *names, const NgJitExpr **v,
                         NgJitExpr *plain)
{
    *plain = *e;
    plain->nkeywords = 0;
    for (int j = 0; j < n; j++)
        v[j] = NULL;
    for (int i = 0; i < e->nkeywords; i++) {
        const NgJitKeyword *kw = &e->keywords[i];
        int j = 0;
        while (j < n && !(kw->name && strcmp(kw->name, names[j]) == 0))
            j++;
        if (j < n) {
            v[j] = kw->value;
            continue;
        }
        char what[120];
        snprintf(what, sizeof what, "the keyword argument %s=", kw->name ? kw->name : "**");
        unsupported(L, e->span.line, what);
        return;
    }
}

/* A reduction's axis: the keyword's value `kw` or else its positional argument `at` (taken off
 * *plain); NULL for none, or None. Given twice, Python's TypeError (L fails). */
static const NgJitExpr *axis_arg(Lower *L, const NgJitExpr *kw, int at, NgJitExpr *plain, const char *fn)
{
    const NgJitExpr *a = kw;
    if (plain->nitems > at && kw) {
        fail(L, plain->span.line, NG_ERR_TYPE, "%s() got multiple values for argument 'axis'", fn);
        return NULL;
    }
    if (plain->nitems > at) {
        a = plain->items[at];
        plain->nitems = at;
    }
    return a && !is_none(a) ? a : NULL;
}

/* Whether a reduction's keepdims= argument `kw` (NULL: not given) is true: a constant (L fails
 * for another). */
static bool kept_dims(Lower *L, const NgJitExpr *kw)
{
    if (!kw)
        return false;
    Val v = expr(L, kw);
    if (v.r == NG_IR_NONE)
        return false;
    if (!is_const(L, v.r) || ng_dtype_is_inexact(v.dt) || v.chr) {
        unsupported(L, kw->span.line, "keepdims= other than a constant True or False");
        return false;
    }
    return const_i(L, v.r) != 0;
}

/* np.arange(stop), (start, stop) or (start, stop, step) in an elementwise expression of rows: a
 * row of max(ceil((stop - start) / step), 0) elements (NumPy's length, in float64 where an
 * argument is a float), its arguments computed once before the expression. Of NumPy's dtype
 * (float64 where an argument is a float or a uint64, else int64); element k is start + k * step, a float's as
 * NumPy fills the array: start, start + step, then start + k * ((start + step) - start). A step
 * of 0, or a length that is not a finite number, leaves the loop to Python, which raises. */
static Val np_arange(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    NgIrKernel *k = L->k;
    if (!check_args(L, e, 1, 3, "arange"))
        return NOVAL;
    if (L->elem == NG_IR_NONE)
        return unsupported(L, line, "np.arange() other than in an elementwise expression of rows (stored whole, "
                                    "reduced, named)");
    RowsSaved was = outside_rows(L);
    Val a[3] = {int_const(L, 0), NOVAL, int_const(L, 1)}; /* start, stop, step */
    bool flt = false; /* (NumPy's: float64 where one is a float or a uint64, else int64) */
    for (int i = 0; i < e->nitems; i++) {
        Val v = expr(L, e->items[i]);
        if (v.r == NG_IR_NONE || !real_only(L, v, line, "arange"))
            break;
        a[e->nitems == 1 ? 1 : i] = v;
        flt = flt || ng_dtype_is_float(v.dt) || v.dt == NG_UINT64;
    }
    if (L->st != NG_OK || a[1].r == NG_IR_NONE) {
        restore_rows(L, was);
        return NOVAL;
    }
    /* NumPy computes the length and the second element from the arguments as they are: Python
     * numbers in Python's arithmetic (a step of 0 raises ZeroDivisionError), NumPy scalars in
     * NumPy's (of np.float32s in float32; a step of 0 gives inf or nan, and NumPy's ValueError) */
    NgDType dt = flt ? NG_FLOAT64 : NG_INT64, ct = a[0].dt;
    bool python = a[0].weak;
    promote(ct, python, a[1].dt, a[1].weak, &ct, &python);
    promote(ct, python, a[2].dt, a[2].weak, &ct, &python);
    if (ct == NG_BOOL)
        ct = NG_INT64;
    NgIrRef start = as(L, a[0], ct), stop = as(L, a[1], ct), step = as(L, a[2], ct), len;
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    if (python && !ng_dtype_is_float(ct)) { /* Python ints: ceil(d / step), -((-d) // step) */
        raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, step, zero), NG_JIT_RAISE_ZERODIV, line);
        NgIrRef d = ng_ir_binary(k, NG_OP_SUB, NG_INT64, start, stop);
        len = ng_ir_unary(k, NG_OP_NEG, NG_INT64, ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, d, step));
        if (is_const(L, start) && is_const(L, stop) && is_const(L, step) && const_i(L, step) != 0) { /* (np.arange(3):
                                                                                   a constant, 1 a new axis below) */
            int64_t n = const_i(L, stop) - const_i(L, start), by = const_i(L, step);
            int64_t c = n / by + (n % by != 0 && (n < 0) == (by < 0));
            len = ng_ir_const_i(k, NG_INT64, c > 0 ? c : 0);
        }
    } else { /* ceil((stop - start) / step), a number within int64 */
        if (python)
            raise_or_python(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, step, zero_of(L, ct).r), NG_JIT_RAISE_ZERODIV_FLOAT,
                            line);
        NgDType qt = ng_dtype_is_float(ct) ? ct : NG_FLOAT64; /* (NumPy's true division) */
        NgIrRef d = ng_ir_cast(k, qt, ng_ir_binary(k, NG_OP_SUB, ct, stop, start));
        NgIrRef q = ng_ir_cast(k, NG_FLOAT64, ng_ir_unary(k, NG_OP_CEIL, qt, ng_ir_binary(k, NG_OP_TRUEDIV, qt, d,
                                                                                          ng_ir_cast(k, qt, step))));
        raise_or_python(L, ng_ir_binary(k, NG_OP_NE, NG_BOOL, q, q), NG_JIT_RAISE_ARANGE_NAN, line);
        raise_or_python(L, ng_ir_binary(k, NG_OP_GE, NG_BOOL, ng_ir_unary(k, NG_OP_ABS, NG_FLOAT64, q),
                                        ng_ir_const_f(k, NG_FLOAT64, 9.2e18)),
                        NG_JIT_RAISE_ARANGE_SIZE, line);
        len = ng_ir_cast(k, NG_INT64, ng_ir_binary(k, NG_OP_MAXIMUM, NG_FLOAT64, q, ng_ir_const_f(k, NG_FLOAT64, -1.0)));
    }
    if (!is_const(L, len))
        len = settled(L, ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, len, zero));
    NgIrRef first = settled(L, ng_ir_cast(k, dt, start)), second = NG_IR_NONE, delta = NG_IR_NONE;
    if (flt) { /* (NumPy's fill: the second element start + step, then steps of their difference) */
        second = settled(L, ng_ir_cast(k, dt, ng_ir_binary(k, NG_OP_ADD, ct, start, step)));
        delta = settled(L, ng_ir_binary(k, NG_OP_SUB, dt, second, first));
    }
    NgIrRef by = flt ? NG_IR_NONE : settled(L, ng_ir_cast(k, NG_INT64, step));
    restore_rows(L, was);
    if (L->st != NG_OK)
        return NOVAL;
    NgIrRef at = zero; /* (of a length 1: a new axis, NumPy's broadcast) */
    if (is_const(L, len) && const_i(L, len) == 1)
        new_axis(L, 0, line);
    else
        at = ng_ir_binary(k, NG_OP_MUL, NG_INT64, row_index(L, len, 0, line), row_stride(L, len, 1, 0, line));
    if (!flt)
        return mkval(ng_ir_binary(k, NG_OP_ADD, NG_INT64, first, ng_ir_binary(k, NG_OP_MUL, NG_INT64, at, by)),
                     NG_INT64, false, false);
    NgIrRef later = ng_ir_binary(k, NG_OP_ADD, dt, first, ng_ir_binary(k, NG_OP_MUL, dt, ng_ir_cast(k, dt, at), delta));
    NgIrRef v = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, at, zero), first,
                             ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, at, one), second, later));
    return mkval(v, dt, false, false);
}

/* np.ptp(e) as NumPy's: np.max(e) - np.min(e) in e's dtype (an integer's wraps; of bools,
 * NumPy's TypeError: Python raises it). */
static Val np_ptp(Lower *L, const NgJitExpr *e, const Pre *axis)
{
    Val hi = reduce_rows(L, e, "max", NG_OP_MAXIMUM, false, axis);
    if (hi.r == NG_IR_NONE)
        return NOVAL;
    if (hi.dt == NG_BOOL)
        return unsupported(L, e->span.line, "np.ptp() of bools (NumPy's TypeError)");
    Val lo = reduce_rows(L, e, "min", NG_OP_MINIMUM, false, axis);
    if (lo.r == NG_IR_NONE)
        return NOVAL;
    return mkval(ng_ir_binary(L->k, NG_OP_SUB, hi.dt, hi.r, lo.r), hi.dt, false, false);
}

/* np.nanmean(e) as NumPy's: of floats, the sum with NaNs as 0 (np.nansum's) over the count of
 * the others, divided in float64 and cast back (NaN where there is none; NumPy also warns); of
 * integers and bools, np.mean. Complex values run as Python. */
static Val np_nanmean(Lower *L, const NgJitExpr *e, const Pre *axis)
{
    Val tot = reduce_rows(L, e, "nansum", NG_OP_ADD, false, axis);
    if (tot.r == NG_IR_NONE)
        return NOVAL;
    if (ng_dtype_is_complex(tot.dt))
        return unsupported(L, e->span.line, "np.nanmean() of complex values");
    if (!ng_dtype_is_float(tot.dt))
        return reduce_rows(L, e, "mean", NG_OP_ADD, false, axis);
    Pre numbers = *axis;
    numbers.numbers = true;
    Val cnt = reduce_rows(L, e, "count_nonzero", NG_OP_ADD, false, &numbers);
    if (cnt.r == NG_IR_NONE)
        return NOVAL;
    NgIrKernel *k = L->k;
    NgIrRef q = ng_ir_binary(k, NG_OP_TRUEDIV, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, tot.r),
                             ng_ir_cast(k, NG_FLOAT64, cnt.r));
    return mkval(ng_ir_cast(k, tot.dt, q), tot.dt, false, false);
}

/* np_reduce; np.var(e) and np.std(e) as NumPy's: the mean, then the sum of the squares of the
 * elements' distances from it (in the mean's dtype: float64 for integers) over max(n - ddof, 0),
 * and its square root. */
static Val np_arange(Lower *L, const NgJitExpr *e);

static Val np_reduce(Lower *L, const NgJitExpr *e, const char *fn, NgOp op, bool python)
{
    if (python || strcmp(fn, "dot") == 0 || strcmp(fn, "matmul") == 0)
        return reduce_rows(L, e, fn, op, python, NULL);
    bool var = strcmp(fn, "var") == 0, std = strcmp(fn, "std") == 0;
    static const char *const names[] = {"axis", "keepdims", "ddof"};
    const NgJitExpr *kw[3];
    NgJitExpr plain;
    keyword_args(L, e, var || std ? 3 : 2, names, kw, &plain);
    Pre axis = along(L->st == NG_OK ? axis_arg(L, kw[0], 1, &plain, fn) : NULL);
    axis.keep = L->st == NG_OK && kept_dims(L, kw[1]);
    if (L->st != NG_OK)
        return NOVAL;
    if (axis.axis && axis.axis->kind == NG_JIT_E_TUPLE && strncmp(fn, "arg", 3) == 0)
        return unsupported(L, e->span.line, "np.argmax()/np.argmin() with a tuple of axes (NumPy's TypeError)");
    if (strcmp(fn, "ptp") == 0)
        return np_ptp(L, &plain, &axis);
    if (strcmp(fn, "nanmean") == 0)
        return np_nanmean(L, &plain, &axis);
    if (!var && !std)
        return reduce_rows(L, &plain, fn, op, python, &axis);
    const NgJitExpr *dk = kw[2];
    Val mean = reduce_rows(L, &plain, "mean", NG_OP_ADD, false, &axis);
    if (mean.r == NG_IR_NONE)
        return NOVAL;
    if (ng_dtype_is_complex(mean.dt) || mean.dt == NG_FLOAT16)
        return unsupported(L, e->span.line, ng_dtype_is_complex(mean.dt) ? "np.var()/np.std() of complex values"
                                                                          : "np.var()/np.std() of float16 values");
    Pre pre = along(axis.axis);
    pre.keep = axis.keep; /* (the mean's axes are the result's) */
    pre.center = mean;
    pre.ddof = dk ? expr(L, dk) : NOVAL;
    if (dk && pre.ddof.r == NG_IR_NONE)
        return NOVAL;
    if (dk && (ng_dtype_is_complex(pre.ddof.dt) || pre.ddof.chr))
        return unsupported(L, e->span.line, "ddof= that is not a real number");
    Val v = reduce_rows(L, &plain, "mean", NG_OP_ADD, false, &pre);
    if (v.r != NG_IR_NONE && std)
        v.r = ng_ir_unary(L->k, NG_OP_SQRT, v.dt, v.r);
    return v;
}

/* np.linalg.norm(x, ord=None) of a row or a part of an array, as NumPy's for a vector (and
 * ord None / 'fro' of a matrix or any array: the square root of the sum of the squares, of
 * NumPy's x.ravel().dot(x), a few ulps apart where its BLAS sums in another order); an
 * integer or bool x as float64. ord must be a constant; matrix norms of other orders, and
 * float16 values, run as Python. */
static Val linalg_norm(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    NgJitExpr plain;
    static const char *const names[] = {"ord", "axis", "keepdims"};
    const NgJitExpr *kw[3];
    keyword_args(L, e, 3, names, kw, &plain);
    Pre pre = along(L->st == NG_OK ? axis_arg(L, kw[1], 2, &plain, "norm") : NULL);
    pre.keep = L->st == NG_OK && kept_dims(L, kw[2]);
    const NgJitExpr *ord = kw[0];
    if (L->st != NG_OK)
        return NOVAL;
    if (ord && plain.nitems == 2)
        return fail(L, line, NG_ERR_TYPE, "norm() got multiple values for argument 'ord'");
    if (!check_args(L, &plain, 1, 2, "linalg.norm"))
        return NOVAL;
    if (plain.nitems == 2)
        ord = plain.items[1];
    plain.nitems = 1;
    pre.norm = NORM_SQUARES;
    NgOp op = NG_OP_ADD;
    if (ord && ord->kind == NG_JIT_E_STR && ord->nitems == 0 && ord->str &&
        (strcmp(ord->str, "fro") == 0 || strcmp(ord->str, "f") == 0)) {
        pre.rank = 2;
    } else if (ord && ord->kind == NG_JIT_E_STR) {
        return unsupported(L, line, "np.linalg.norm() of an ord other than 'fro'");
    } else if (ord && !is_none(ord)) {
        Val o = expr(L, ord);
        if (o.r == NG_IR_NONE)
            return NOVAL;
        if (!is_const(L, o.r) || ng_dtype_is_complex(o.dt) || o.chr)
            return unsupported(L, line, "np.linalg.norm() of an ord that is not a constant number");
        double p = ng_dtype_is_inexact(o.dt) ? ng_ir_node(L->k, o.r)->c.f : (double)const_i(L, o.r);
        if (p != p)
            return unsupported(L, line, "np.linalg.norm() of ord nan");
        pre.rank = 1;
        pre.norm = p == 2 ? NORM_SQUARES : p == 1 || isinf(p) ? NORM_ABS : p == 0 ? NORM_NONZERO : NORM_POWER;
        pre.p = p;
        if (isinf(p))
            op = p > 0 ? NG_OP_MAXIMUM : NG_OP_MINIMUM;
    }
    Val r = reduce_rows(L, &plain, "linalg.norm", op, false, &pre);
    if (r.r == NG_IR_NONE)
        return NOVAL;
    NgIrKernel *k = L->k;
    if (op == NG_OP_MAXIMUM) /* (abs(x).max(initial=0): 0 of no element, a NaN stays) */
        r.r = ng_ir_binary(k, NG_OP_MAXIMUM, r.dt, r.r, ng_ir_const_f(k, r.dt, 0.0));
    if (pre.norm == NORM_SQUARES)
        r.r = ng_ir_unary(k, NG_OP_SQRT, r.dt, r.r);
    if (pre.norm == NORM_POWER) /* ret **= reciprocal(ord, dtype=ret.dtype) */
        r.r = ng_ir_binary(k, NG_OP_POW, r.dt, r.r,
                           ng_ir_const_f(k, r.dt, r.dt == NG_FLOAT32 ? (double)(1.0f / (float)pre.p) : 1.0 / pre.p));
    r.weak = false;
    r.nonneg = true;
    return r;
}

/* NumPy's reductions a loop compiles (np.sum(x), and as methods x.sum()): the combining op,
 * NG_NOPS for none. */
static NgOp np_reduction(const char *fn)
{
    static const struct { const char *name; NgOp op; } reductions[] = {
        {"sum", NG_OP_ADD}, {"dot", NG_OP_ADD}, {"matmul", NG_OP_ADD}, {"mean", NG_OP_ADD}, {"prod", NG_OP_MUL},
        {"max", NG_OP_MAXIMUM}, {"amax", NG_OP_MAXIMUM}, {"min", NG_OP_MINIMUM}, {"amin", NG_OP_MINIMUM},
        {"any", NG_OP_LOGOR}, {"all", NG_OP_LOGAND}, {"argmax", NG_OP_MAXIMUM}, {"argmin", NG_OP_MINIMUM},
        {"var", NG_OP_ADD}, {"std", NG_OP_ADD}, {"count_nonzero", NG_OP_ADD}, {"nansum", NG_OP_ADD},
        {"nanmax", NG_OP_FMAX}, {"nanmin", NG_OP_FMIN}, {"nanmean", NG_OP_ADD}, {"ptp", NG_OP_SUB},
    };
    for (size_t i = 0; i < sizeof reductions / sizeof *reductions; i++)
        if (strcmp(fn, reductions[i].name) == 0)
            return reductions[i].op;
    return NG_NOPS;
}

/* np.round(x, decimals=0) (np.around) of a number as NumPy rounds an array: a float to the
 * nearest even at `decimals` places, through x * 10**decimals (x / 10**-decimals where negative:
 * NumPy's power_of_ten, in x's dtype); an integer stays itself. */
static Val np_round_val(Lower *L, Val x, int64_t d, int line);

static Val np_round(Lower *L, const NgJitExpr *e, const char *fn)
{
    int line = e->span.line;
    if (!check_args(L, e, 1, 2, fn))
        return NOVAL;
    Val x = expr(L, e->items[0]);
    if (x.r == NG_IR_NONE)
        return NOVAL;
    int64_t d = 0;
    if (e->nitems == 2) {
        Val dv = expr(L, e->items[1]);
        if (dv.r == NG_IR_NONE)
            return NOVAL;
        if (!is_const(L, dv.r) || !ng_dtype_is_int(dv.dt) || dv.dt == NG_BOOL || dv.chr)
            return unsupported(L, line, "np.round() to decimals that are not a constant integer");
        d = const_i(L, dv.r);
    }
    return np_round_val(L, x, d, line);
}

/* np_round's value: x (not a Python number) rounded to d decimals as NumPy does. */
static Val np_round_val(Lower *L, Val x, int64_t d, int line)
{
    NgIrKernel *k = L->k;
    NgDType dt = x.dt;
    if (dt == NG_BOOL || ng_dtype_is_complex(dt) || (!ng_dtype_is_inexact(dt) && d < 0) || d > 400 || d < -400)
        return unsupported(L, line, "np.round() of a bool, of a complex number, or of an integer to negative decimals");
    if (!ng_dtype_is_inexact(dt) || d == 0)
        return mkval(ng_dtype_is_inexact(dt) ? ng_ir_unary(k, NG_OP_RINT, dt, x.r) : x.r, dt, false, x.nonneg);
    double ten = 1.0; /* NumPy's power_of_ten: exact to 1e22, then as NumPy multiplies */
    for (int64_t n = d < 0 ? -d : d; n > 0; n--)
        ten *= 10.0;
    NgIrRef f = ng_ir_const_f(k, dt, ten);
    NgIrRef y = ng_ir_unary(k, NG_OP_RINT, dt, ng_ir_binary(k, d > 0 ? NG_OP_MUL : NG_OP_TRUEDIV, dt, x.r, f));
    return mkval(ng_ir_binary(k, d > 0 ? NG_OP_TRUEDIV : NG_OP_MUL, dt, y, f), dt, false, false);
}

/* 10**k (a power of `base`, 10 or 5) of an int64 k in [0, 22], exactly: a product of the
 * powers for k's bits, each partial product a power below 10**22, so exact in float64. */
static NgIrRef exact_power(Lower *L, NgIrRef kk, double base)
{
    NgIrKernel *k = L->k;
    if (is_const(L, kk)) {
        double p = 1.0;
        for (int64_t i = const_i(L, kk); i > 0; i--)
            p *= base;
        return ng_ir_const_f(k, NG_FLOAT64, p);
    }
    NgIrRef p = ng_ir_const_f(k, NG_FLOAT64, 1.0);
    double b = base;
    for (int bit = 0; bit < 5; bit++, b *= b) {
        NgIrRef set = ng_ir_binary(k, NG_OP_NE, NG_BOOL,
                                   ng_ir_binary(k, NG_OP_BITAND, NG_INT64, kk, ng_ir_const_i(k, NG_INT64, 1 << bit)),
                                   ng_ir_const_i(k, NG_INT64, 0));
        p = ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, p,
                         ng_ir_select(k, set, ng_ir_const_f(k, NG_FLOAT64, b), ng_ir_const_f(k, NG_FLOAT64, 1.0)));
    }
    return p;
}

/* The rounding error of a * b (a + b's exact product is a * b + the result), Dekker's product
 * of Veltkamp halves (the targets do not fuse a multiply and an add); exact where nothing
 * overflows or underflows. */
static NgIrRef product_error(Lower *L, NgIrRef a, NgIrRef b, NgIrRef ab)
{
    NgIrKernel *k = L->k;
#define B(op, x, y) ng_ir_binary(k, op, NG_FLOAT64, x, y)
    NgIrRef split = ng_ir_const_f(k, NG_FLOAT64, 134217729.0); /* 2**27 + 1 */
    NgIrRef ca = B(NG_OP_MUL, split, a), cb = B(NG_OP_MUL, split, b);
    NgIrRef ah = B(NG_OP_SUB, ca, B(NG_OP_SUB, ca, a)), al = B(NG_OP_SUB, a, ah);
    NgIrRef bh = B(NG_OP_SUB, cb, B(NG_OP_SUB, cb, b)), bl = B(NG_OP_SUB, b, bh);
    NgIrRef e = B(NG_OP_SUB, B(NG_OP_MUL, ah, bh), ab);
    e = B(NG_OP_ADD, e, B(NG_OP_MUL, ah, bl));
    e = B(NG_OP_ADD, e, B(NG_OP_MUL, al, bh));
    return B(NG_OP_ADD, e, B(NG_OP_MUL, al, bl));
#undef B
}

/* round(x, n) of a Python float x and an int n as CPython's: x's exact value rounded to n
 * decimals (ties to even), then the float nearest that decimal. Exactly so for n in [-22, 22],
 * where 10**|n| is a float64: for n >= 0, |x| * 10**n as a float and its exact error
 * (product_error) say on which side of the half the exact product lies, and the rounded integer
 * m (below 2**53) over 10**n is one correctly rounded division; for n < 0, |x| / 2**-n over
 * 5**-n, floored, leaves an exact remainder (Sterbenz, then Dekker) against 5**-n / 2, and m
 * times 10**-n is one rounding. A product of 2**53 or more is x itself (10**-n is below x's
 * spacing), one below a quarter is 0.0 with x's sign, NaN and infinities are themselves, as are
 * n from 324 on (n below -308: 0.0 with x's sign: CPython's limits). Other n need more
 * precision than a float64's: a constant one is refused, one of a parameter sends the loop to
 * Python before it starts (python_if); one that changes in the loop is refused. */
static Val python_round_float(Lower *L, Val x, Val n, int line)
{
    NgIrKernel *k = L->k;
#define B(op, a, b) ng_ir_binary(k, op, NG_FLOAT64, a, b)
#define C(op, a, b) ng_ir_binary(k, op, NG_BOOL, a, b)
#define F(c) ng_ir_const_f(k, NG_FLOAT64, c)
#define I(c) ng_ir_const_i(k, NG_INT64, c)
    NgIrRef xr = as(L, x, NG_FLOAT64), nr = as(L, n, NG_INT64);
    bool cn = is_const(L, nr);
    int64_t nv = cn ? const_i(L, nr) : 0;
    if (cn && nv > 323)
        return mkval(xr, NG_FLOAT64, true, false);
    if (cn && nv < -308)
        return mkval(ng_ir_binary(k, NG_OP_COPYSIGN, NG_FLOAT64, F(0.0), xr), NG_FLOAT64, true, false);
    if (cn && (nv > 22 || nv < -22))
        return unsupported(L, line, "round(x, n) of a Python float to more than 22 digits either side of the point "
                                    "(Python's exact decimal rounding there needs more precision than a float64's)");
    if (!cn && !invariant(L, nr))
        return unsupported(L, line, "round(x, n) of a Python float with n changing in the loop");
    NgIrRef far = NG_IR_NONE; /* (a runtime n beyond CPython's limits: x, or 0.0) */
    if (!cn) {
        NgIrRef beyond = C(NG_OP_LOGOR, C(NG_OP_GT, nr, I(323)), C(NG_OP_LT, nr, I(-308)));
        NgIrRef hard = C(NG_OP_LOGAND, C(NG_OP_LOGOR, C(NG_OP_GT, nr, I(22)), C(NG_OP_LT, nr, I(-22))),
                         ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, beyond));
        python_if(L, hard, ng_jit_raise_code(NG_JIT_RAISE_ROUND_DIGITS, line, 0));
        L->python_body = true;
        far = C(NG_OP_GT, nr, I(323));
        /* (beyond: a small n in the arithmetic below, whose result the selects at the end replace) */
        nr = ng_ir_select(k, beyond, I(0), nr);
    }
    NgIrRef neg = C(NG_OP_LT, nr, I(0));
    NgIrRef kk = ng_ir_select(k, neg, ng_ir_unary(k, NG_OP_NEG, NG_INT64, nr), nr);
    if (cn)
        kk = I(nv < 0 ? -nv : nv);
    NgIrRef ax = ng_ir_unary(k, NG_OP_FABS, NG_FLOAT64, xr);
    NgIrRef p = exact_power(L, kk, 10.0);
    NgIrRef two53 = F(9007199254740992.0);
    NgIrRef m_pos = NG_IR_NONE, keep_pos = NG_IR_NONE, zero_pos = NG_IR_NONE;
    NgIrRef m_neg = NG_IR_NONE, keep_neg = NG_IR_NONE, zero_neg = NG_IR_NONE;
    if (!cn || nv >= 0) { /* n >= 0: ax * p = y + e exactly */
        NgIrRef y = B(NG_OP_MUL, ax, p), e = product_error(L, ax, p, y);
        NgIrRef r = ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, y);
        NgIrRef h = B(NG_OP_SUB, F(0.5), B(NG_OP_SUB, y, r)); /* (exact: see above) */
        NgIrRef half = B(NG_OP_MUL, r, F(0.5));
        NgIrRef odd = C(NG_OP_NE, ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, half), half);
        NgIrRef up = C(NG_OP_LOGOR, C(NG_OP_GT, e, h), C(NG_OP_LOGAND, C(NG_OP_EQ, e, h), odd));
        m_pos = B(NG_OP_TRUEDIV, B(NG_OP_ADD, r, ng_ir_select(k, up, F(1.0), F(0.0))), p);
        keep_pos = C(NG_OP_LOGOR, C(NG_OP_GT, y, two53), C(NG_OP_LOGAND, C(NG_OP_EQ, y, two53), C(NG_OP_GT, e, F(0.0))));
        zero_pos = C(NG_OP_LT, y, F(0.25));
    }
    if (!cn || nv < 0) { /* n < 0: (ax / 2**k) / 5**k = r + rho / 5**k, rho exact */
        NgIrRef f = exact_power(L, kk, 5.0);
        NgIrRef xs = ng_ir_binary(k, NG_OP_LDEXP, NG_FLOAT64, ax, ng_ir_unary(k, NG_OP_NEG, NG_INT64, kk));
        NgIrRef r = ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, B(NG_OP_TRUEDIV, xs, f));
        NgIrRef rf = B(NG_OP_MUL, r, f);
        NgIrRef rho = B(NG_OP_SUB, B(NG_OP_SUB, xs, rf), product_error(L, r, f, rf));
        NgIrRef rho2 = B(NG_OP_MUL, rho, F(2.0));
        NgIrRef half = B(NG_OP_MUL, r, F(0.5));
        NgIrRef odd = C(NG_OP_NE, ng_ir_unary(k, NG_OP_FLOOR, NG_FLOAT64, half), half);
        NgIrRef up = C(NG_OP_LOGOR, C(NG_OP_GT, rho2, f), C(NG_OP_LOGAND, C(NG_OP_EQ, rho2, f), odd));
        m_neg = B(NG_OP_MUL, B(NG_OP_ADD, r, ng_ir_select(k, up, F(1.0), F(0.0))), p);
        keep_neg = C(NG_OP_GE, ax, B(NG_OP_MUL, two53, p));
        zero_neg = C(NG_OP_LT, ax, B(NG_OP_MUL, F(0.25), p));
    }
    NgIrRef m = m_pos, keep = keep_pos, zero = zero_pos;
    if (m == NG_IR_NONE)
        m = m_neg, keep = keep_neg, zero = zero_neg;
    else if (m_neg != NG_IR_NONE) {
        m = ng_ir_select(k, neg, m_neg, m_pos);
        keep = ng_ir_select(k, neg, keep_neg, keep_pos);
        zero = ng_ir_select(k, neg, zero_neg, zero_pos);
    }
    NgIrRef finite = ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, xr);
    if (far != NG_IR_NONE) { /* (n beyond the limits: x itself from 324 on, else 0.0) */
        keep = C(NG_OP_LOGOR, keep, far);
        zero = ng_ir_select(k, C(NG_OP_EQ, as(L, n, NG_INT64), nr), zero, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, far));
        keep = C(NG_OP_LOGAND, keep, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, zero));
    }
    NgIrRef v = ng_ir_select(k, zero, F(0.0), m);
    v = ng_ir_binary(k, NG_OP_COPYSIGN, NG_FLOAT64, v, xr);
    keep = C(NG_OP_LOGOR, keep, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, finite));
    return mkval(ng_ir_select(k, keep, xr, v), NG_FLOAT64, true, false);
#undef B
#undef C
#undef F
#undef I
}

/* round(x, n) of a real number x and an int n (Python's int.__round__, float.__round__, or
 * NumPy's scalar __round__: np.round's value in x's own dtype). */
static Val python_round(Lower *L, const NgJitExpr *e, int line)
{
    Val x = expr(L, e->items[0]);
    Val n = expr(L, e->items[1]);
    if (!real_only(L, x, line, "round()") || n.r == NG_IR_NONE)
        return NOVAL;
    if (e->items[1]->kind == NG_JIT_E_CONST || n.chr || !ng_dtype_is_int(n.dt) || (n.dt == NG_UINT64 && !n.weak))
        return unsupported(L, line, "round(x, n) with n not an int (n None, a float: as Python, round(x, None) "
                                    "or a TypeError)");
    bool cn = is_const(L, n.r);
    int64_t nv = cn ? const_i(L, n.r) : 0;
    if (x.weak && ng_dtype_is_float(x.dt))
        return python_round_float(L, x, n, line);
    if (!cn)
        return unsupported(L, line, "round(x, n) of an int or a NumPy number with n not a constant");
    if (x.weak) { /* a Python int (or bool): itself for n >= 0, as an int */
        Val xi = mkval(python_int(L, x, line), NG_INT64, true, x.nonneg);
        if (nv >= 0 || xi.r == NG_IR_NONE)
            return xi;
        if (nv < -18) /* (10**19 and more: only 0 or a value beyond int64) */
            return unsupported(L, line, "round(x, n) of a Python int to n below -18");
        /* to the nearest multiple of p = 10**-n, ties to the even multiple: x - r, or x - r + p,
         * r = x % p (Python's, in [0, p)); one addition, checked as Python-int arithmetic */
        int64_t pv = 1;
        for (int64_t i = nv; i < 0; i++)
            pv *= 10;
        NgIrKernel *k = L->k;
        Val p = int_const(L, pv);
        Val r = arith(L, NG_JIT_OP_MOD, xi, p, line), q = arith(L, NG_JIT_OP_FLOORDIV, xi, p, line);
        if (r.r == NG_IR_NONE || q.r == NG_IR_NONE)
            return NOVAL;
        NgIrRef twice = ng_ir_binary(k, NG_OP_MUL, NG_INT64, r.r, ng_ir_const_i(k, NG_INT64, 2)); /* (< 2 * 10**18) */
        NgIrRef odd = ng_ir_binary(k, NG_OP_NE, NG_BOOL, ng_ir_binary(k, NG_OP_BITAND, NG_INT64, q.r,
                                                                        ng_ir_const_i(k, NG_INT64, 1)),
                                   ng_ir_const_i(k, NG_INT64, 0));
        NgIrRef up = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, ng_ir_binary(k, NG_OP_GT, NG_BOOL, twice, p.r),
                                  ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, twice, p.r), odd));
        NgIrRef step = ng_ir_select(k, up, ng_ir_binary(k, NG_OP_SUB, NG_INT64, p.r, r.r),
                                    ng_ir_unary(k, NG_OP_NEG, NG_INT64, r.r));
        return arith(L, NG_JIT_OP_ADD, xi, mkval(step, NG_INT64, true, false), line);
    }
    if (x.dt == NG_BOOL)
        return unsupported(L, line, "round() of a NumPy bool (Python's TypeError)");
    return np_round_val(L, x, nv, line);
}

/* np.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) of numbers as NumPy's: |a - b| <=
 * atol + rtol * |b| where b is finite, or a == b (infinities of one sign); b is taken as
 * inexact first (an integer as float64, a Python int as a Python float); with equal_nan, two
 * NaNs are close too. A NumPy bool. Complex values run as Python. */
static Val np_isclose(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    static const char *const names[5] = {"a", "b", "rtol", "atol", "equal_nan"};
    const NgJitExpr *arg[5] = {0};
    NgJitExpr plain = *e;
    plain.nkeywords = 0; /* (taken below) */
    if (!check_args(L, &plain, 2, 5, "isclose"))
        return NOVAL;
    for (int i = 0; i < e->nitems; i++)
        arg[i] = e->items[i];
    for (int i = 0; i < e->nkeywords; i++) {
        const NgJitKeyword *kw = &e->keywords[i];
        int at = -1;
        for (int j = 0; j < 5 && kw->name; j++)
            at = strcmp(kw->name, names[j]) == 0 ? j : at;
        if (at < 0 || arg[at]) /* (Python's TypeError) */
            return unsupported(L, line, "np.isclose() with these arguments");
        arg[at] = kw->value;
    }
    NgIrKernel *k = L->k;
    Val x = expr(L, arg[0]), y = expr(L, arg[1]);
    Val rtol = arg[2] ? expr(L, arg[2]) : mkval(ng_ir_const_f(k, NG_FLOAT64, 1e-5), NG_FLOAT64, true, true);
    Val atol = arg[3] ? expr(L, arg[3]) : mkval(ng_ir_const_f(k, NG_FLOAT64, 1e-8), NG_FLOAT64, true, true);
    Val nan_eq = arg[4] ? truth(L, expr(L, arg[4])) : NOVAL;
    if (x.r == NG_IR_NONE || y.r == NG_IR_NONE || rtol.r == NG_IR_NONE || atol.r == NG_IR_NONE ||
        (arg[4] && nan_eq.r == NG_IR_NONE))
        return NOVAL;
    if (ng_dtype_is_complex(x.dt) || ng_dtype_is_complex(y.dt) || ng_dtype_is_complex(rtol.dt) ||
        ng_dtype_is_complex(atol.dt) || x.chr || y.chr)
        return unsupported(L, line, "np.isclose() of complex values or characters");
    if (!ng_dtype_is_inexact(y.dt)) /* (NumPy's result_type(y, 1.0); a Python int: float(y)) */
        y = mkval(as(L, y, NG_FLOAT64), NG_FLOAT64, y.weak, y.nonneg);
    Val d = arith(L, NG_JIT_OP_SUB, x, y, line);
    if (d.r == NG_IR_NONE)
        return NOVAL;
    d = mkval(ng_ir_unary(k, NG_OP_ABS, d.dt, d.r), d.dt, d.weak, true);
    Val tol = arith(L, NG_JIT_OP_ADD, atol,
                    arith(L, NG_JIT_OP_MUL, rtol, mkval(ng_ir_unary(k, NG_OP_ABS, y.dt, y.r), y.dt, y.weak, true),
                          line), line);
    Val near = compare(L, NG_JIT_OP_LE, d, tol, line), same = compare(L, NG_JIT_OP_EQ, x, y, line);
    if (near.r == NG_IR_NONE || same.r == NG_IR_NONE)
        return NOVAL;
    NgIrRef r = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL,
                             ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, near.r, ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, y.r)),
                             same.r);
    if (arg[4] && ng_dtype_is_inexact(x.dt)) /* (x an integer: never a NaN) */
        r = ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, r,
                         ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, nan_eq.r,
                                      ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, x.r),
                                                   ng_ir_unary(k, NG_OP_ISNAN, NG_BOOL, y.r))));
    return mkval(r, NG_BOOL, false, true);
}

/* np.clip(x, lo, hi) of numbers as NumPy's: np.minimum(np.maximum(x, lo), hi) in the three's
 * common dtype (a NaN anywhere is the result; lo > hi gives hi; an equal bound keeps x, -0.0
 * too). A Python int bound an integer dtype cannot hold stands for that end of its range, as
 * NumPy 2's clip takes it (no OverflowError). Complex values run as Python. */
static Val np_clip(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    if (!check_args(L, e, 3, 3, "clip"))
        return NOVAL;
    Val v[3];
    for (int i = 0; i < 3; i++) /* (Python's order: left to right) */
        if ((v[i] = expr(L, e->items[i])).r == NG_IR_NONE)
            return NOVAL;
    NgDType dt;
    bool weak;
    promote(v[0].dt, v[0].weak, v[1].dt, v[1].weak, &dt, &weak);
    promote(dt, weak, v[2].dt, v[2].weak, &dt, &weak);
    if (!usable(dt))
        return fail(L, line, NG_ERR_TYPE, "np.clip: no common type for '%s', '%s' and '%s'", type_name(v[0]),
                    type_name(v[1]), type_name(v[2]));
    if (ng_dtype_is_complex(dt))
        return unsupported(L, line, "np.clip() of complex numbers");
    NgIrKernel *k = L->k;
    NgIrRef b[2];
    for (int i = 0; i < 2; i++) {
        Val w = v[i + 1];
        int64_t lo, hi;
        int_range(dt, &lo, &hi);
        if (w.weak && w.dt == NG_INT64 && ng_dtype_is_int(dt) && dt != NG_INT64 && dt != NG_BOOL) {
            w.r = ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, w.r, ng_ir_const_i(k, NG_INT64, lo));
            if (hi != INT64_MAX)
                w.r = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, w.r, ng_ir_const_i(k, NG_INT64, hi));
        }
        b[i] = as(L, w, dt);
    }
    NgIrRef up = ng_ir_binary(k, NG_OP_MAXIMUM, dt, as(L, v[0], dt), b[0]);
    return mkval(ng_ir_binary(k, NG_OP_MINIMUM, dt, up, b[1]), dt, false, false);
}

static Val np_call(Lower *L, const NgJitExpr *e, const char *fn)
{
    int line = e->span.line;
    NgOp reduce = np_reduction(fn);
    if (reduce != NG_NOPS)
        return np_reduce(L, e, fn, reduce, false);
    if (strcmp(fn, "round") == 0 || strcmp(fn, "around") == 0)
        return np_round(L, e, fn);
    if (strcmp(fn, "arange") == 0)
        return np_arange(L, e);
    NgDType cast_to = strcmp(fn, "bool_") == 0 ? NG_BOOL : ng_dtype_from_name(fn);
    if (cast_to != NG_NODTYPE && usable(cast_to)) {
        /* np.float32(x): a strong scalar of that dtype */
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (x.r == NG_IR_NONE || (!ng_dtype_is_complex(cast_to) && !real_only(L, x, line, fn)))
            return NOVAL;
        if (cast_to == NG_BOOL)
            return mkval(truth(L, x).r, NG_BOOL, false, true);
        int_conversion(L, x, cast_to, false, line);
        return mkval(as(L, x, cast_to), cast_to, false, x.nonneg && ng_dtype_is_int(cast_to));
    }
    if (strcmp(fn, "real") == 0 || strcmp(fn, "imag") == 0) { /* of a scalar: its .real / .imag */
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        return part_of(L, expr(L, e->items[0]), fn[0] == 'i');
    }
    if (strcmp(fn, "conjugate") == 0 || strcmp(fn, "conj") == 0) {
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = conjugate_of(L, expr(L, e->items[0]));
        x.weak = false;
        return x;
    }
    for (size_t i = 0; i < sizeof unary_fns / sizeof *unary_fns; i++) {
        if (strcmp(unary_fns[i].name, fn) != 0 || !unary_fns[i].np)
            continue;
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (x.r == NG_IR_NONE)
            return NOVAL;
        NgDType dt = x.dt; /* a Python scalar becomes its default NumPy dtype */
        unsigned how = unary_fns[i].np;
        if (ng_dtype_is_complex(dt)) { /* (NumPy has no complex floor, ceil, trunc, fabs) */
            NgOp op = unary_fns[i].op;
            if (op == NG_OP_FLOOR || op == NG_OP_CEIL || op == NG_OP_TRUNC || strcmp(fn, "fabs") == 0)
                return fail(L, line, NG_ERR_TYPE, "ufunc '%s' not supported for the input types", fn);
            if (op == NG_OP_ABS) { /* |z|: the real dtype */
                Val m = magnitude(L, x);
                m.weak = false;
                return m;
            }
        }
        NgOp op = unary_fns[i].op;
        if (dt == NG_BOOL && (op == NG_OP_NEG || op == NG_OP_POS))
            return fail(L, line, NG_ERR_TYPE, op == NG_OP_NEG
                        ? "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or "
                          "the logical_not function instead."
                        : "ufunc 'positive' did not contain a loop with signature matching types");
        if ((op == NG_OP_INVERT && ng_dtype_is_inexact(dt)) ||
            (ng_dtype_is_complex(dt) && (op == NG_OP_RECIPROCAL || op == NG_OP_SIGNBIT)))
            return fail(L, line, NG_ERR_TYPE, "ufunc '%s' not supported for the input types", fn);
        if (op == NG_OP_LOGNOT || (op == NG_OP_INVERT && dt == NG_BOOL)) /* (~True is False) */
            return mkval(ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, truth(L, x).r), NG_BOOL, false, true);
        if (op == NG_OP_SIGNBIT && !ng_dtype_is_inexact(dt)) /* (an integer's sign) */
            return mkval(ng_ir_binary(L->k, NG_OP_LT, NG_BOOL, x.r, zero_of(L, dt).r), NG_BOOL, false, true);
        if (how == FN_BOOL)
            return mkval(ng_ir_unary(L->k, op, NG_BOOL, x.r), NG_BOOL, false, true);
        if (how == FN_FLOAT)
            dt = float_for(dt);
        else if (dt == NG_BOOL && op != NG_OP_ABS)
            dt = NG_INT8;
        return mkval(ng_ir_unary(L->k, op, dt, as(L, x, dt)), dt, false, op == NG_OP_ABS && x.nonneg);
    }
    for (size_t i = 0; i < sizeof binary_fns / sizeof *binary_fns; i++) {
        if (strcmp(binary_fns[i].name, fn) != 0 || !binary_fns[i].np)
            continue;
        if (!check_args(L, e, 2, 2, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]), y = expr(L, e->items[1]);
        if (x.r == NG_IR_NONE || y.r == NG_IR_NONE)
            return NOVAL;
        NgDType dt;
        bool weak;
        promote(x.dt, x.weak, y.dt, y.weak, &dt, &weak);
        if (!usable(dt))
            return fail(L, line, NG_ERR_TYPE, "np.%s: no common type for '%s' and '%s'", fn, type_name(x),
                        type_name(y));
        NgOp op = binary_fns[i].op;
        bool fpow = strcmp(fn, "float_power") == 0; /* (float64 and complex128 loops only) */
        bool real = op == NG_OP_ARCTAN2 || op == NG_OP_HYPOT || op == NG_OP_COPYSIGN || op == NG_OP_LOGADDEXP ||
                    op == NG_OP_LOGADDEXP2 || op == NG_OP_HEAVISIDE || op == NG_OP_NEXTAFTER; /* (float loops only) */
        if (!weak && !real && !fpow && !(op == NG_OP_TRUEDIV && !ng_dtype_is_inexact(dt))) { /* (integer loops: a Python
                                      int the other's dtype cannot hold is NumPy's OverflowError) */
            int_bounds(L, x, dt, line);
            int_bounds(L, y, dt, line);
        }
        bool ints = op == NG_OP_BITAND || op == NG_OP_BITOR || op == NG_OP_BITXOR || op == NG_OP_LSHIFT ||
                    op == NG_OP_RSHIFT; /* (integer loops only) */
        bool modular = op == NG_OP_FLOORDIV || op == NG_OP_MOD || op == NG_OP_FMOD;
        if (((real || modular) && ng_dtype_is_complex(dt)) || (ints && ng_dtype_is_inexact(dt)))
            return fail(L, line, NG_ERR_TYPE, "ufunc '%s' not supported for the input types", fn);
        if (strcmp(fn, "gcd") == 0 || strcmp(fn, "lcm") == 0)
            return np_gcd(L, x, y, dt, weak, fn, line);
        if (op == NG_OP_SUB && dt == NG_BOOL)
            return fail(L, line, NG_ERR_TYPE, "numpy boolean subtract, the `-` operator, is not supported, use the "
                                              "bitwise_xor, the `^` operator, or the logical_xor function instead.");
        if (op == NG_OP_LOGAND || op == NG_OP_LOGOR || op == NG_OP_LOGXOR) /* of the truths: a bool */
            return mkval(ng_ir_binary(L->k, op, NG_BOOL, truth(L, x).r, truth(L, y).r), NG_BOOL, false, true);
        if (real)
            dt = float_pair(x, y);
        if (fpow)
            dt = ng_dtype_is_complex(dt) ? NG_COMPLEX128 : NG_FLOAT64;
        if (op == NG_OP_NEXTAFTER && dt == NG_FLOAT16) /* (float16 values are computed as float32s) */
            return unsupported(L, line, "np.nextafter of float16 values");
        if (op == NG_OP_TRUEDIV && !ng_dtype_is_inexact(dt)) /* (of integers: float64) */
            dt = NG_FLOAT64;
        else if (dt == NG_BOOL && (op == NG_OP_POW || modular || op == NG_OP_LSHIFT || op == NG_OP_RSHIFT))
            dt = NG_INT8;
        return mkval(ng_ir_binary(L->k, op, dt, as(L, x, dt), as(L, y, dt)), dt, false,
                     (op == NG_OP_MAXIMUM || op == NG_OP_FMAX) ? (x.nonneg || y.nonneg) : false);
    }
    if (strcmp(fn, "clip") == 0)
        return np_clip(L, e);
    if (strcmp(fn, "isclose") == 0)
        return np_isclose(L, e);
    if (strcmp(fn, "where") == 0) {
        if (!check_args(L, e, 3, 3, fn))
            return NOVAL;
        Val c = truth(L, expr(L, e->items[0]));
        Val x = expr(L, e->items[1]); /* Python's order: left to right */
        Val y = expr(L, e->items[2]);
        Val v = select_val(L, c, x, y, line);
        v.weak = false;
        return v;
    }
    char what[80];
    snprintf(what, sizeof what, "np.%s()", fn);
    return unsupported(L, line, what);
}

/* min(a, b, ...) / max(a, b, ...) as Python computes them: the first
 * argument that no later one beats; min(row) / max(row) over its elements. */
static Val min_max(Lower *L, const NgJitExpr *e, bool is_max)
{
    const char *fn = is_max ? "max" : "min";
    if (!check_args(L, e, 1, 64, fn))
        return NOVAL;
    if (e->nitems == 1) /* max(row): over the elements */
        return np_reduce(L, e, fn, is_max ? NG_OP_MAXIMUM : NG_OP_MINIMUM, true);
    Val r = expr(L, e->items[0]);
    for (int i = 1; i < e->nitems; i++) {
        Val b = expr(L, e->items[i]);
        Val better = compare(L, is_max ? NG_JIT_OP_GT : NG_JIT_OP_LT, b, r, e->span.line);
        Val m = choose_val(L, better, b, r, e->span.line);
        if (m.r != NG_IR_NONE)
            m.nonneg = is_max ? (b.nonneg || r.nonneg) : (b.nonneg && r.nonneg);
        r = m;
    }
    return r;
}

/* len(a) or len(a[i]): the extent of the first axis not indexed. */
static Val len_of(Lower *L, const NgJitExpr *e);

/* The length of row of integers g (is_gather): len() of it, of g + k its row's; NONE after an
 * error (a sum of two such rows: unsupported). */
static NgIrRef gather_length(Lower *L, const NgJitExpr *g)
{
    int line = g->span.line;
    while (g && g->kind == NG_JIT_E_BINARY)
        g = int_rows(L, g->lhs) && !int_rows(L, g->rhs) ? g->lhs
            : int_rows(L, g->rhs) && !int_rows(L, g->lhs) ? g->rhs : NULL;
    if (!g) {
        unsupported(L, line, "an array indexed by a sum of two arrays of integers, other than read whole");
        return NG_IR_NONE;
    }
    const NgJitExpr *arg[1] = {g};
    NgJitExpr call = {.kind = NG_JIT_E_CALL, .span = g->span, .outer = g->span, .items = (NgJitExpr **)arg,
                      .nitems = 1};
    return len_of(L, &call).r;
}

static Val len_of(Lower *L, const NgJitExpr *e)
{
    if (!check_args(L, e, 1, 1, "len"))
        return NOVAL;
    const NgJitExpr *ix[NG_MAXDIMS];
    int n = 0;
    const NgJitExpr *a = e->items[0];
    if (a->kind == NG_JIT_E_NAME && sym_of(L, a)->kind == SYM_BUF)
        return int_const(L, sym_of(L, a)->bshape[0]);
    if (a->kind == NG_JIT_E_ATTR && strcmp(a->name, "shape") == 0 && a->lhs->kind == NG_JIT_E_NAME) {
        /* len(x.shape): x's rank (`for d in x.shape`) */
        Sym *s = sym_of(L, a->lhs);
        if (s->kind == SYM_ARRAY && s->given->seq == NG_JIT_SEQ_ARRAY)
            return int_const(L, s->given->ndim);
        if (s->kind == SYM_VIEW)
            return int_const(L, s->base->given->ndim - s->nfixed);
        if (s->kind == SYM_BUF)
            return int_const(L, s->brank);
    }
    if (selects(L, a)) /* (len(x[x > 0]): the elements the mask selects, counted) */
        return reduce_rows(L, e, "len", NG_OP_ADD, false, NULL);
    Sym *view;
    Sym *s = index_chain(L, a, ix, &n, &view);
    if (!s)
        return NOVAL;
    if ((s->given->seq == NG_JIT_SEQ_DICT_CHR || s->given->seq == NG_JIT_SEQ_DICT_INT) && n == 0 && !view &&
        s->given->has_value) /* (its length, which the kernel is made for: ng_jit_takes_len) */
        return int_const(L, s->given->value);
    if (s->given->seq == NG_JIT_SEQ_DICT_CHR || s->given->seq == NG_JIT_SEQ_DICT_INT)
        return unsupported(L, e->span.line, "len() of a dict");
    if (newaxes_in(L, ix, n))
        return unsupported(L, e->span.line, "len() of a part with a new axis (None)");
    int fixed = view ? view->nfixed : 0;
    if (fixed + n >= s->given->ndim && !slices_in(ix, n) && !gathers_in(L, ix, n))
        return fail(L, e->span.line, NG_ERR_TYPE, "len() of an unsized object (an element of '%s')", s->name);
    NgIrRef len = NG_IR_NONE;
    for (int d = 0; d < n; d++) { /* the indices still have to be valid expressions */
        NgIrRef start, count;
        int64_t step;
        if (is_gather(L, ix[d])) { /* (len(x[idx]): idx's) */
            NgIrRef g = gather_length(L, ix[d]);
            if (g == NG_IR_NONE)
                return NOVAL;
            if (len == NG_IR_NONE)
                len = g;
        } else if (ix[d]->kind != NG_JIT_E_SLICE) {
            if (index_value(L, s, fixed + d, ix[d], NULL) == NG_IR_NONE)
                return NOVAL;
        } else if (!slice_window(L, s, fixed + d, ix[d], &start, &count, &step, NULL)) {
            return NOVAL;
        } else if (len == NG_IR_NONE) { /* len(x[a:b]), len(X[:, j]): the first slice's */
            len = count;
        }
    }
    if (len == NG_IR_NONE)
        len = ng_ir_shape(L->k, s->param, fixed + n);
    return mkval(len, NG_INT64, true, true);
}

/* __ng_same_shape(X.ndim, k, s0, s1 ...) (desugar.h): where the shapes
 * differ, the loop runs as Python; they must be the same in every
 * iteration (else the loop is not compiled). */
static Val same_shape(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    const NgJitExpr *nd = e->nitems >= 3 ? e->items[0] : NULL;
    Sym *a = nd && nd->kind == NG_JIT_E_ATTR ? array_name(L, nd->lhs) : NULL;
    if (!a || a->given->seq != NG_JIT_SEQ_ARRAY || e->items[1]->kind != NG_JIT_E_INT)
        return unsupported(L, line, "copying an array made in the loop into something other than an array");
    int k = (int)e->items[1]->ival, r = e->nitems - 2;
    if (a->given->ndim != k + r)
        return unsupported(L, line, "copying an array made in the loop into a part of another rank "
                                    "(NumPy broadcasts it)");
    NgIrRef bad = ng_ir_const_i(L->k, NG_BOOL, 0);
    for (int t = 0; t < r; t++) {
        Val n = expr(L, e->items[2 + t]);
        if (n.r == NG_IR_NONE)
            return NOVAL;
        if (!ng_dtype_is_int(n.dt) || n.dt == NG_BOOL)
            return unsupported(L, line, "an array made in the loop with a shape that is not of ints");
        bad = ng_ir_binary(L->k, NG_OP_LOGOR, NG_BOOL, bad,
                           ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, ng_ir_shape(L->k, a->param, k + t), as(L, n, NG_INT64)));
    }
    if (!invariant(L, bad))
        return unsupported(L, line, "an array made in the loop whose shape is not the same in every iteration");
    raise_or_python(L, bad, NG_JIT_RAISE_SHAPE, line);
    return mkval(ng_ir_const_i(L->k, NG_BOOL, 1), NG_BOOL, true, true);
}

/* __ng_window(j, n, len(s)) (desugar.h): the index j of a window of length
 * n, wrapped where negative; outside it, IndexError as Python's for s. */
static Val window_of(Lower *L, const NgJitExpr *e)
{
    NgIrKernel *k = L->k;
    int line = e->span.line;
    const NgJitExpr *of = e->nitems == 3 && e->items[2]->kind == NG_JIT_E_CALL && e->items[2]->nitems == 1
                              ? e->items[2]->items[0] : NULL;
    while (of && of->kind == NG_JIT_E_SUBSCRIPT) /* (len(X[i]): of X[i, a:b]) */
        of = of->lhs;
    Sym *s = of ? array_name(L, of) : NULL;
    if (!s)
        return unsupported(L, line, "indexing a slice of something other than an array, a str or a tuple");
    Val j = expr(L, e->items[0]), n = expr(L, e->items[1]);
    if (j.r == NG_IR_NONE || n.r == NG_IR_NONE)
        return NOVAL;
    if (!ng_dtype_is_int(j.dt) || j.chr)
        return fail(L, line, j.dt == NG_BOOL ? NG_ERR_UNSUPPORTED : NG_ERR_TYPE,
                    "only integers are valid indices (got '%s')", j.chr ? "str" : type_name(j));
    NgIrRef i = as(L, j, NG_INT64), len = as(L, n, NG_INT64), zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef w = kind_of(j.dt) == NG_KIND_UINT ? i
                : ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, i, zero), ng_ir_binary(k, NG_OP_ADD, NG_INT64, i, len), i);
    NgIrRef bad = ng_ir_binary(k, NG_OP_GE, NG_BOOL, ng_ir_cast(k, NG_UINT64, w), ng_ir_cast(k, NG_UINT64, len));
    int what = s->given->seq == NG_JIT_SEQ_STR ? NG_JIT_INDEX_STR
               : s->given->seq == NG_JIT_SEQ_TUPLE ? NG_JIT_INDEX_TUPLE : NG_JIT_INDEX_ARRAY;
    raise_value_if(L, bad, ng_ir_const_i(k, NG_INT64, ng_jit_raise_code(NG_JIT_RAISE_INDEX, line, what)));
    return mkval(ng_ir_select(k, bad, zero, w), NG_INT64, true, true); /* (no element read outside it) */
}

/* fn(__ng_item=e) and fn(__ng_empty=c), of desugar.c's gen_reductions: an element as sum(),
 * any() or all() takes it, and min()'s or max()'s ValueError of no element. Python 3.12 on adds
 * Python floats in sum() with compensated summation: such an element is refused. */
static Val gen_marker(Lower *L, const NgJitExpr *e, const char *fn)
{
    int line = e->span.line;
    const char *kw = e->keywords[0].name;
    Val v = expr(L, e->keywords[0].value);
    if (v.r == NG_IR_NONE)
        return NOVAL;
    if (strcmp(kw, NG_JIT_GEN_EMPTY) == 0) {
        int which = strcmp(fn, "max") == 0 ? NG_JIT_EMPTY_MAX : NG_JIT_EMPTY_MIN;
        raise_told_or_python(L, truth(L, v).r, ng_jit_raise_code(NG_JIT_RAISE_EMPTY, line, which));
        return int_const(L, 0);
    }
    if (strcmp(fn, "sum") != 0)
        return truth(L, v);
    if (v.weak && (ng_dtype_is_float(v.dt) || ng_dtype_is_complex(v.dt)))
        return unsupported(L, line, "sum() of a generator of Python floats (Python 3.12 on adds them with "
                                    "compensated summation; NumPy floats, as x[j] is, add in order)");
    return v;
}

static Val builtin_call(Lower *L, const NgJitExpr *e, const char *fn)
{
    int line = e->span.line;
    if (e->nitems == 0 && e->nkeywords == 1 && e->keywords[0].name &&
        (strcmp(e->keywords[0].name, NG_JIT_GEN_ITEM) == 0 || strcmp(e->keywords[0].name, NG_JIT_GEN_EMPTY) == 0))
        return gen_marker(L, e, fn);
    if (strcmp(fn, "len") == 0)
        return len_of(L, e);
    if (strcmp(fn, NG_JIT_SAME_SHAPE) == 0)
        return same_shape(L, e);
    if (strcmp(fn, NG_JIT_WINDOW) == 0)
        return window_of(L, e);
    if (strcmp(fn, NG_JIT_SLICE_BOUND) == 0) {
        NgIrRef b = e->nitems == 1 ? slice_bound(L, e->items[0], NULL) : NG_IR_NONE;
        return b == NG_IR_NONE ? NOVAL : mkval(b, NG_INT64, true, false);
    }
    if (strcmp(fn, "ord") == 0) {
        if (!check_args(L, e, 1, 1, "ord"))
            return NOVAL;
        Val c = str_expr(L, e->items[0]);
        if (c.r != NG_IR_NONE && !c.chr)
            return fail(L, line, NG_ERR_TYPE, "ord() expected string of length 1, but %s found", type_name(c));
        return mkval(c.r, NG_INT64, true, true);
    }
    if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0)
        return min_max(L, e, fn[1] == 'a');
    if (strcmp(fn, "abs") == 0) {
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (x.r == NG_IR_NONE)
            return NOVAL;
        if (ng_dtype_is_complex(x.dt))
            return magnitude(L, x);
        NgDType dt = x.dt == NG_BOOL && x.weak ? NG_INT64 : x.dt;
        Val v = mkval(ng_ir_unary(L->k, NG_OP_ABS, dt, as(L, x, dt)), dt, x.weak, x.nonneg);
        neg_overflow(L, x, &v, line);
        return v;
    }
    if (strcmp(fn, "int") == 0 || strcmp(fn, "float") == 0 || strcmp(fn, "bool") == 0) {
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (x.r == NG_IR_NONE || (fn[0] != 'b' && !real_only(L, x, line, fn)))
            return NOVAL;
        if (fn[0] == 'b')
            return mkval(truth(L, x).r, NG_BOOL, true, true);
        if (fn[0] == 'f')
            return mkval(as(L, x, NG_FLOAT64), NG_FLOAT64, true, false);
        if (ng_dtype_is_float(x.dt))
            int_raises(L, as(L, x, NG_FLOAT64), line);
        return mkval(python_int(L, x, line), NG_INT64, true, x.nonneg && !ng_dtype_is_float(x.dt));
    }
    if (strcmp(fn, "complex") == 0) {
        /* complex(re[, im]) of real numbers, a Python complex (a complex argument: Python's) */
        if (!check_args(L, e, 1, 2, fn))
            return NOVAL;
        Val re = expr(L, e->items[0]);
        Val im = e->nitems == 2 ? expr(L, e->items[1]) : NOVAL;
        if (!real_only(L, re, line, fn) || (e->nitems == 2 && !real_only(L, im, line, fn)))
            return NOVAL;
        if (e->nitems == 1)
            return mkval(as(L, re, NG_COMPLEX128), NG_COMPLEX128, true, false);
        return mkval(ng_ir_complex(L->k, NG_COMPLEX128, as(L, re, NG_FLOAT64), as(L, im, NG_FLOAT64)),
                     NG_COMPLEX128, true, false);
    }
    if (strcmp(fn, "sum") == 0 && e->nitems == 2 && !e->nkeywords) /* sum(row, start) */
        return python_reduce_from(L, e, e->items[1], "sum", NG_OP_ADD);
    if (strcmp(fn, "sum") == 0 || strcmp(fn, "any") == 0 || strcmp(fn, "all") == 0)
        return np_reduce(L, e, fn, fn[0] == 's' ? NG_OP_ADD : fn[1] == 'n' ? NG_OP_LOGOR : NG_OP_LOGAND, true);
    if (strcmp(fn, "round") == 0) {
        /* round(x): to the nearest int, ties to even (rint in the default rounding mode) */
        if (e->nitems == 2 && !e->nkeywords && e->items[0]->kind != NG_JIT_E_STARRED &&
            e->items[1]->kind != NG_JIT_E_STARRED)
            return python_round(L, e, line);
        if (!check_args(L, e, 1, 1, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        if (!real_only(L, x, line, fn))
            return NOVAL;
        if (x.dt == NG_BOOL && !x.weak)
            return unsupported(L, line, "round() of a NumPy bool (Python's TypeError)");
        if (!ng_dtype_is_float(x.dt))
            return mkval(python_int(L, x, line), NG_INT64, true, x.nonneg);
        NgIrRef r = ng_ir_unary(L->k, NG_OP_RINT, x.dt, x.r);
        int_raises(L, as(L, mkval(r, x.dt, x.weak, false), NG_FLOAT64), line);
        return mkval(ng_ir_cast(L->k, NG_INT64, r), NG_INT64, true, false);
    }
    if (strcmp(fn, "pow") == 0 && e->nitems == 3 && !e->nkeywords)
        return pow_mod(L, e, line);
    if (strcmp(fn, "pow") == 0) {
        if (!check_args(L, e, 2, 2, fn))
            return NOVAL;
        Val x = expr(L, e->items[0]);
        Val y = expr(L, e->items[1]);
        return arith(L, NG_JIT_OP_POW, x, y, line);
    }
    if (strcmp(fn, "range") == 0 || strcmp(fn, "prange") == 0)
        return unsupported(L, line, "range() outside a for statement");
    char what[80];
    snprintf(what, sizeof what, "calling %s()", fn);
    return unsupported(L, line, what);
}

/* ---- helper functions, inlined ---- */

enum { MAX_INLINE_DEPTH = 8 };

static void block(Lower *L, NgJitBlock b, Stmts *out);
struct Tail;
static void tail_block(Lower *L, const struct Tail *t, Stmts *out);

/* The def named `name` anywhere in the module (module level first). */
static const NgJitStmt *any_def(NgJitBlock b, const char *name)
{
    for (int i = 0; i < b.n; i++)
        if (b.stmts[i]->kind == NG_JIT_S_DEF && strcmp(b.stmts[i]->name, name) == 0)
            return b.stmts[i];
    for (int i = 0; i < b.n; i++)
        if (b.stmts[i]->kind == NG_JIT_S_DEF) {
            const NgJitStmt *d = any_def(b.stmts[i]->body, name);
            if (d)
                return d;
        }
    return NULL;
}

/* The def a call of `name` inlines (ng_jit_helper_def, for the function the analysis was of when
 * known), else one nested anywhere (the launch checks the name's binding: launch_callees). */
static const NgJitStmt *find_def_in(const NgJitAst *ast, const NgJitLoops *loops, const char *name)
{
    const NgJitStmt *d = ng_jit_helper_def(ast, loops ? loops->func : NULL, name);
    return d ? d : any_def(ast->body, name);
}

static const NgJitStmt *find_def(const Lower *L, const char *name) { return find_def_in(L->ast, L->plan->loops, name); }

static bool block_draws(const NgJitAst *ast, NgJitBlock b, int depth);

/* Whether e draws a random number (NG_JIT_CALL_RANDOM), also in a helper it calls (8 deep). */
static bool expr_draws(const NgJitAst *ast, const NgJitExpr *e, int depth)
{
    if (!e)
        return false;
    if (e->kind == NG_JIT_E_CALL) {
        NgJitCallKind kind = ng_jit_call_kind(e);
        const NgJitStmt *def = kind == NG_JIT_CALL_HELPER && depth < 8 ? find_def_in(ast, NULL, e->lhs->name) : NULL;
        if (kind == NG_JIT_CALL_RANDOM || (def && block_draws(ast, def->body, depth + 1)))
            return true;
        for (int i = 0; i < e->nkeywords; i++)
            if (expr_draws(ast, e->keywords[i].value, depth))
                return true;
    }
    if (expr_draws(ast, e->lhs, depth) || expr_draws(ast, e->rhs, depth) || expr_draws(ast, e->cond, depth))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (expr_draws(ast, e->items[i], depth))
            return true;
    return false;
}

/* Whether a statement of b draws a random number (expr_draws). */
static bool block_draws(const NgJitAst *ast, NgJitBlock b, int depth)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        for (int t = 0; t < s->ntargets; t++)
            if (expr_draws(ast, s->targets[t], depth))
                return true;
        if (expr_draws(ast, s->target, depth) || expr_draws(ast, s->value, depth) || expr_draws(ast, s->test, depth) ||
            block_draws(ast, s->body, depth) || block_draws(ast, s->orelse, depth))
            return true;
    }
    return false;
}

bool ng_jit_draws(const NgJitAst *ast, const NgJitStmt *loop) { return block_draws(ast, loop->body, 0); }

static int count_returns(NgJitBlock b)
{
    int n = 0;
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_RETURN)
            n++;
        else if (s->kind != NG_JIT_S_DEF)
            n += count_returns(s->body) + count_returns(s->orelse);
    }
    return n;
}

/* True if every path through b ends in a return. */
static bool returns_all(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_RETURN ||
            (s->kind == NG_JIT_S_IF && s->orelse.n && returns_all(s->body) && returns_all(s->orelse)))
            return true;
    }
    return false;
}

/* A helper's statements from where lowering stands: n statements at s, then
 * what follows the block they are in (next), up to the end of the body. */
typedef struct Tail {
    NgJitStmt *const *s;
    int n;
    const struct Tail *next;
} Tail;

static bool tail_empty(const Tail *t)
{
    for (; t; t = t->next)
        if (t->n)
            return false;
    return true;
}

static bool has_returns(const NgJitStmt *s)
{
    return s->kind != NG_JIT_S_DEF && (ng_jit_block_returns(s->body) || ng_jit_block_returns(s->orelse));
}

/* True if a helper's returns, from t on, can be lowered without a loop to
 * break out of: each if that returns has at most one branch that goes on
 * to what follows it, which moves into that branch (no code is copied),
 * and no loop returns. `if v < lo: return lo` then `return v` becomes
 * `if v < lo: r = lo else: r = v`, which GCC vectorises. */
static bool tail_ok(const Tail *t)
{
    for (; t; t = t->next)
        for (int i = 0; i < t->n; i++) {
            const NgJitStmt *s = t->s[i];
            if (s->kind == NG_JIT_S_RETURN)
                return true;
            if (!has_returns(s))
                continue;
            if (s->kind != NG_JIT_S_IF)
                return false;
            Tail cont = {t->s + i + 1, t->n - i - 1, t->next};
            bool fb = !returns_all(s->body), fo = !returns_all(s->orelse);
            if (fb && fo && !tail_empty(&cont))
                return false;
            Tail tb = {s->body.stmts, s->body.n, fb ? &cont : NULL};
            Tail to = {s->orelse.stmts, s->orelse.n, fo ? &cont : NULL};
            return tail_ok(&tb) && tail_ok(&to);
        }
    return true;
}

/* The frame of call site e (calling def), made on first use. */
static Frame *frame_for(Lower *L, const NgJitExpr *e, const NgJitStmt *def)
{
    for (int i = 0; i < L->nframes; i++)
        if (L->frames[i]->site == e)
            return L->frames[i];
    if (L->nframes == L->cap_frames) {
        int ncap = L->cap_frames ? 2 * L->cap_frames : 8;
        Frame **p = ng_realloc(L->frames, sizeof *p * (size_t)ncap);
        if (!p)
            return NULL;
        L->frames = p;
        L->cap_frames = ncap;
    }
    const NgJitAst *ast = L->ast;
    size_t cap = (size_t)ast->nnames + 1;
    Frame *f = ng_calloc(1, sizeof *f);
    NameList nl = {ng_calloc(cap, sizeof(bool)), ng_malloc(cap * sizeof(int)), 0};
    if (f)
        f->syms = ng_calloc(cap, sizeof *f->syms);
    if (!f || !f->syms || !nl.seen || !nl.ids) {
        if (f)
            ng_free(f->syms);
        ng_free(f);
        ng_free(nl.seen);
        ng_free(nl.ids);
        return NULL;
    }
    L->frames[L->nframes++] = f;
    f->site = e;
    f->def = def;
    for (int j = 0; j < MAX_RETURNS; j++) {
        f->ret_dt[j] = NG_NODTYPE;
        f->ret_nonneg[j] = true;
    }
    for (int i = 0; i < ast->nnames; i++) {
        f->syms[i].name = ast->names[i];
        f->syms[i].red = -1;
        f->syms[i].dt = NG_NODTYPE;
        f->syms[i].param = -1;
    }
    for (int i = 0; i < def->params->n; i++) {
        int id = def->params->items[i].name_id;
        if (!nl.seen[id]) {
            nl.seen[id] = true;
            nl.ids[nl.n++] = id;
        }
    }
    walk_block(def->body, collect_name, &nl);
    ng_free(nl.seen);
    f->order = nl.ids;
    f->norder = nl.n;
    Sym *saved = L->syms;
    L->syms = f->syms;
    mark_block(L, def->body);
    L->syms = saved;
    for (int i = 0; i < def->params->n; i++)
        f->syms[def->params->items[i].name_id].assigned = true;
    for (int i = 0; i < f->norder; i++) {
        Sym *s = &f->syms[f->order[i]];
        const Sym *outer = &L->main_syms[f->order[i]];
        if (s->assigned) {
            s->kind = SYM_LOCAL;
            s->nonneg = true;
            s->flo = INFINITY;
        } else if (outer->kind == SYM_MODULE) { /* a global module the loop also uses */
            s->kind = SYM_MODULE;
            s->module = outer->module;
        } else if (module_named(s->name) != NG_JIT_MOD_NONE) {
            s->kind = SYM_MODULE;
            s->module = module_named(s->name);
        } else {
            s->kind = SYM_UNBOUND; /* builtins and other helpers; globals have no type */
        }
    }
    const NgJitBlock *body = &def->body;
    f->wrapped = !(count_returns(*body) == 1 && body->n && body->stmts[body->n - 1]->kind == NG_JIT_S_RETURN);
    Tail all = {body->stmts, body->n, NULL};
    f->tail = f->wrapped && tail_ok(&all);
    f->wrapped = f->wrapped && !f->tail;
    return f;
}

/* A call of helper `def`: its body inlined before the current statement
 * (under the current guard), its value left in a variable. `want`: 0 for
 * its effects only, 1 for its value, n > 1 for the n values of the tuple
 * it returns (`p, q = two(x)`), into items[0..n) (the first also returned). */
static Val helper_call(Lower *L, const NgJitExpr *e, const NgJitStmt *def, int want, Val *items)
{
    int line = e->span.line;
    const NgJitParams *ps = def->params;
    if (L->inlining >= MAX_INLINE_DEPTH)
        return fail(L, line, NG_ERR_UNSUPPORTED, "calling %s() (helpers nested %d deep, or recursive) is not "
                    "supported in a compiled loop", def->name, MAX_INLINE_DEPTH);
    if (!ng_jit_inlinable_def(def))
        return fail(L, line, NG_ERR_UNSUPPORTED, "calling %s() (decorated or a generator) is not supported "
                    "in a compiled loop", def->name);
    for (int i = 0; i < ps->n; i++)
        if (ps->items[i].kind == NG_JIT_P_VARARGS || ps->items[i].kind == NG_JIT_P_VARKW)
            return fail(L, line, NG_ERR_UNSUPPORTED, "calling %s() (*args or **kwargs parameters) is not "
                        "supported in a compiled loop", def->name);
    if (ps->n > 64)
        return unsupported(L, line, "a helper with more than 64 parameters");
    const NgJitExpr *given[64]; /* per parameter: positional, keyword or default */
    char why[200];
    if (ng_jit_bind_args(e, ps, def->name, given, why, sizeof why))
        return fail(L, line, NG_ERR_TYPE, "%s", why);
    Frame *f = frame_for(L, e, def);
    if (!f)
        return fail(L, line, NG_ERR_NOMEM, "out of memory inlining %s()", def->name);
    /* the arguments, in the caller's scope (defaults: literals, lowered there too) */
    Val args[64];
    Sym *arrays[64], *views[64], *mods[64];
    bool known = true;
    for (int i = 0; i < ps->n; i++) {
        const NgJitExpr *a = given[i];
        arrays[i] = array_name(L, a);
        Sym *named = a->kind == NG_JIT_E_NAME ? sym_of(L, a) : NULL;
        views[i] = named && named->kind == SYM_VIEW ? named : NULL;
        mods[i] = named && named->kind == SYM_MODULE ? named : NULL;
        args[i] = arrays[i] || views[i] || mods[i] ? NOVAL : expr(L, a);
        known = known && (arrays[i] || views[i] || mods[i] || args[i].r != NG_IR_NONE);
    }
    if (L->st != NG_OK)
        return NOVAL;
    /* the helper's scope */
    Sym *saved_syms = L->syms;
    Frame *saved_frame = L->frame;
    int saved_depth = L->depth;
    NgIrRef saved_guard = L->guard;
    Stmts *saved_pending = L->pending, own = {0};
    Stmts blk = {0};
    L->syms = f->syms;
    L->frame = f;
    L->depth = 1;
    L->pending = &own;
    L->guard = NG_IR_NONE;
    L->inlining++;
    for (int i = 0; i < f->norder; i++) {
        Sym *s = &f->syms[f->order[i]];
        s->kind = s->assigned ? SYM_LOCAL : s->kind;
        s->alias = NULL;
    }
    for (int i = 0; i < ps->n; i++) {
        Sym *s = &f->syms[ps->items[i].name_id];
        if (arrays[i]) {
            s->kind = SYM_ARRAY;
            s->given = arrays[i]->given;
            s->param = arrays[i]->param;
            s->atomic = arrays[i]->atomic;
            s->alias = arrays[i]->alias ? arrays[i]->alias : arrays[i];
        } else if (views[i]) { /* a row passed on: the same array and fixed indices */
            s->kind = SYM_VIEW;
            s->base = views[i]->base;
            s->nfixed = views[i]->nfixed;
            s->view_unsure = views[i]->view_unsure;
            memcpy(s->fixed_var, views[i]->fixed_var, sizeof s->fixed_var);
        } else if (mods[i]) { /* a module or a generator passed on (rng_of keys its draws by the caller's name) */
            s->kind = SYM_MODULE;
            s->module = mods[i]->module;
            s->alias = mods[i]->alias ? mods[i]->alias : mods[i];
        }
    }
    for (int i = 0; i < f->norder; i++) {
        Sym *s = &f->syms[f->order[i]];
        if (s->kind != SYM_LOCAL)
            continue;
        s->var = ng_ir_var(L->k, usable(s->dt) ? s->dt : NG_INT64);
        append(L, &blk, ng_ir_let(L->k, s->var, zero_of(L, usable(s->dt) ? s->dt : NG_INT64).r));
    }
    for (int i = 0; i < ps->n; i++)
        if (!arrays[i] && !views[i] && !mods[i])
            append(L, &blk, assign_local(L, &f->syms[ps->items[i].name_id], args[i]));
    for (int j = 0; j < MAX_RETURNS; j++)
        f->ret_var[j] = j < (f->nret ? f->nret : 1) ? ng_ir_var(L->k, usable(f->ret_dt[j]) ? f->ret_dt[j] : NG_INT64)
                                                   : -1;
    Stmts body = {0};
    Tail all = {def->body.stmts, def->body.n, NULL};
    L->in_loop += f->wrapped;
    if (f->tail)
        tail_block(L, &all, &body);
    else
        block(L, def->body, &body);
    L->in_loop -= f->wrapped;
    NgIrRef b = seal(L, &body);
    if (f->wrapped && b != NG_IR_NONE) {
        const NgJitBlock *db = &def->body;
        bool ends = db->n && db->stmts[db->n - 1]->kind == NG_JIT_S_RETURN; /* already breaks */
        NgIrRef two[2] = {b, ng_ir_jump(L->k, NG_IR_BREAK)};
        b = ng_ir_while(L->k, ng_ir_const_i(L->k, NG_BOOL, 1), ends ? b : ng_ir_block(L->k, 2, two));
    }
    append(L, &blk, b);
    ng_free(own.v);
    L->inlining--;
    L->syms = saved_syms;
    L->frame = saved_frame;
    L->depth = saved_depth;
    L->guard = saved_guard;
    L->pending = saved_pending;
    bool typed = f->nret == want || want == 0;
    for (int j = 0; j < want && typed; j++)
        typed = f->ret_dt[j] != NG_NODTYPE && f->ret_var[j] >= 0;
    if (want && f->nret && f->nret != want) {
        if (want == 1)
            return unsupported(L, line, "using the tuple a helper returns as one value");
        return unsupported(L, line, "unpacking what a helper returns into another number of names");
    }
    if (want && !typed && !L->unknown_line) {
        L->unknown_line = line;
        snprintf(L->unknown_msg, sizeof L->unknown_msg, "%s() returns no value the loop can use", def->name);
    }
    NgIrRef inlined = seal(L, &blk);
    if (!known || L->st != NG_OK || !typed || inlined == NG_IR_NONE)
        return NOVAL;
    /* the result variables live in the caller's block; the body runs when
     * the call would (under the guard) */
    Val first = NOVAL;
    for (int j = 0; j < (f->nret ? f->nret : 1); j++) {
        NgDType rdt = usable(f->ret_dt[j]) ? f->ret_dt[j] : NG_INT64;
        append(L, L->pending, ng_ir_let(L->k, f->ret_var[j], zero_of(L, rdt).r));
        Val v = mkval(ng_ir_varref(L->k, f->ret_var[j]), rdt, f->ret_weak[j], f->ret_nonneg[j] && ng_dtype_is_int(rdt));
        if (j == 0)
            first = v;
        if (items && j < want)
            items[j] = v;
    }
    append(L, L->pending, L->guard == NG_IR_NONE ? inlined : ng_ir_if(L->k, L->guard, inlined, NG_IR_NONE));
    if (f->wrapped)
        carry_stop(L, L->pending);
    return first;
}

static Val pin(Lower *L, Val v, Stmts *out);

/* `return e` (or `return a, b`) in a helper: the call's values, then out of its body. */
static void return_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    L->jumped = true;
    Frame *f = L->frame;
    if (!f) {
        unsupported(L, s->span.line, "return");
        return;
    }
    if (L->depth != 1) {
        unsupported(L, s->span.line, "return from inside a loop of a helper function");
        return;
    }
    if (!s->value) { /* only a call made for its effect can use it */
        if (f->wrapped)
            push(L, out, ng_ir_jump(L->k, NG_IR_BREAK));
        return;
    }
    const NgJitExpr *value = s->value;
    bool tuple = value->kind == NG_JIT_E_TUPLE;
    int n = tuple ? value->nitems : 1;
    for (int j = 0; tuple && j < n; j++)
        if (value->items[j]->kind == NG_JIT_E_STARRED)
            n = 0;
    if (n < 2 && tuple) {
        unsupported(L, s->span.line, "returning an empty tuple, one of one item, or a starred one");
        return;
    }
    if (n > MAX_RETURNS) {
        unsupported(L, s->span.line, "returning a tuple of more than 8 values");
        return;
    }
    if (f->nret && f->nret != n) {
        unsupported(L, s->span.line, "a helper returning tuples of other lengths, or a tuple and a value");
        return;
    }
    if (!f->nret) {
        f->nret = n;
        L->changed = true;
    }
    Val v[MAX_RETURNS];
    for (int j = 0; j < n; j++) { /* every value first: return b, a */
        v[j] = pin(L, expr(L, tuple ? value->items[j] : value), out);
        if (v[j].r == NG_IR_NONE)
            return;
    }
    for (int j = 0; j < n; j++) {
        merge_type(L, &f->ret_dt[j], &f->ret_weak[j], &f->ret_nonneg[j], v[j]);
        if (usable(f->ret_dt[j]) && f->ret_var[j] >= 0)
            push(L, out, ng_ir_assign(L->k, f->ret_var[j], as(L, v[j], f->ret_dt[j])));
    }
    if (f->wrapped)
        push(L, out, ng_ir_jump(L->k, NG_IR_BREAK));
}

/* An array's reduction as a method (ng_jit_call_kind: x.sum(), x.max(), x.dot(y)): NumPy's
 * function of the array and the arguments. Of a number (a NumPy scalar has these methods, a
 * Python number has not), the loop runs as Python. */
static Val reduce_method(Lower *L, const NgJitExpr *e)
{
    const NgJitExpr *f = e->lhs;
    NgJitExpr *args[2] = {f->lhs, e->nitems ? e->items[0] : NULL};
    NgJitExpr as_np = *e; /* (np.<name>(x, ...)) */
    as_np.items = args;
    as_np.nitems = e->nitems + 1;
    NgOp op = np_reduction(f->name);
    return op != NG_NOPS ? np_reduce(L, &as_np, f->name, op, false)
                             : unsupported(L, e->span.line, "an array method");
}

/* ---- random numbers ---- */

/* (ng_ir_philox's push: list is {Lower, Stmts}) */
static void push_into(void *list, NgIrRef stmt) { append(((void **)list)[0], ((void **)list)[1], stmt); }

/* The kind of generator the random call's function f is of (ng_jit_random_call), its place in
 * L->rngs in *slot (-1 when that is full); -1 when the name holds no generator. */
static int rng_of(Lower *L, const NgJitExpr *f, int *slot)
{
    bool np_random = f->lhs->kind == NG_JIT_E_ATTR; /* np.random.<fn> */
    const Sym *m = sym_of(L, np_random ? f->lhs->lhs : f->lhs);
    if (m->kind != SYM_MODULE || (np_random && m->module != NG_JIT_MOD_NUMPY))
        return -1;
    m = m->alias ? m->alias : m; /* (a helper's parameter: the caller's name) */
    int rng = m->module == NG_JIT_MOD_RANDOM || m->module == NG_JIT_MOD_PYRNG ? NG_JIT_RNG_PY
              : m->module == NG_JIT_MOD_NUMPY || m->module == NG_JIT_MOD_NPRANDOM || m->module == NG_JIT_MOD_RANDOMSTATE
                  ? NG_JIT_RNG_NUMPY
              : m->module == NG_JIT_MOD_GENERATOR ? NG_JIT_RNG_GENERATOR
                                                   : -1;
    *slot = 0;
    while (*slot < L->nrngs && strcmp(L->rngs[*slot].name, m->name) != 0)
        ++*slot;
    if (*slot == L->nrngs && L->nrngs < NG_JIT_MAX_RNGS)
        L->rngs[L->nrngs++] = (struct Rng){m->name, -1};
    else if (*slot == L->nrngs)
        *slot = -1;
    return rng;
}

/* The arguments of random call e in args (NULL: not given, or None for a parameter whose
 * default is None), *endpoint that of a Generator's integers(); NULL, or what keeps it from
 * compiling (Python raises: a keyword of another generator's function, a missing argument). */
static const char *random_args(const NgJitExpr *e, const NgJitRandomFn *rf, const NgJitExpr *args[2], bool *endpoint,
                               char *why, size_t n)
{
    const char *fn = e->lhs->name;
    args[0] = e->nitems > 0 ? e->items[0] : NULL, args[1] = e->nitems > 1 ? e->items[1] : NULL;
    *endpoint = false;
    if (e->nitems > rf->nparams) {
        snprintf(why, n, "%s() given %d arguments (it takes %d)", fn, e->nitems, rf->nparams);
        return why;
    }
    for (int i = 0; i < e->nkeywords; i++) {
        const NgJitExpr *v = e->keywords[i].value;
        const char *kw = e->keywords[i].name;
        int j = 0;
        while (j < rf->nparams && strcmp(kw, rf->params[j]) != 0)
            j++;
        if (j < rf->nparams && !args[j]) {
            args[j] = v;
        } else if (j < rf->nparams) {
            snprintf(why, n, "%s() got multiple values for argument '%s'", fn, kw);
            return why;
        } else if (rf->draw == NG_JIT_DRAW_INT && rf->rng == NG_JIT_RNG_GENERATOR && strcmp(kw, "endpoint") == 0 &&
                   v->kind == NG_JIT_E_CONST && (v->cval == NG_JIT_C_TRUE || v->cval == NG_JIT_C_FALSE)) {
            *endpoint = v->cval == NG_JIT_C_TRUE;
        } else {
            snprintf(why, n, "%s() with %s= %s", fn, kw,
                     strcmp(kw, "endpoint") == 0 ? "other than True or False written out"
                                                 : "(a parameter it does not take)");
            return why;
        }
    }
    for (int j = 0; j < rf->nparams; j++) {
        if (args[j] && isinf(rf->dflt[j]) && is_none(args[j]))
            args[j] = NULL; /* (high=None: as not given) */
        if (!args[j] && isnan(rf->dflt[j])) {
            snprintf(why, n, "%s() missing 1 required positional argument: '%s'", fn, rf->params[j]);
            return why;
        }
    }
    return NULL;
}

/* NumPy's (or Python's) error for random call rf's parameters p (float64; an integer's low and
 * high int64, low NG_IR_NONE for one bound), NG_JIT_RAISE_RANDOM's field (raise_told_or_python);
 * weak: p[0] is a Python number (expovariate's 1 / lambd raises only then). */
static void random_checks(Lower *L, const NgJitRandomFn *rf, const NgIrRef p[2], bool inclusive, bool weak, int line)
{
    NgIrKernel *k = L->k;
    bool py = rf->rng == NG_JIT_RNG_PY, gen = rf->rng == NG_JIT_RNG_GENERATOR;
    NgIrRef bad = NG_IR_NONE;
    int field = 0;
    if (rf->draw == NG_JIT_DRAW_INT) { /* an empty range */
        bool one = p[0] == NG_IR_NONE;
        NgIrRef low = one ? ng_ir_const_i(k, NG_INT64, 0) : p[0];
        bad = ng_ir_binary(k, inclusive ? NG_OP_LT : NG_OP_LE, NG_BOOL, p[1], low);
        field = py ? NG_JIT_RANDOM_RANDRANGE
                : inclusive ? (one ? NG_JIT_RANDOM_HIGH_BELOW : NG_JIT_RANDOM_LOW_ABOVE)
                            : (one ? NG_JIT_RANDOM_HIGH : NG_JIT_RANDOM_LOW_HIGH);
    } else if (rf->nparams == 0) {
        return;
    } else if (rf->draw == NG_JIT_DRAW_EXP && py && !weak) { /* (NumPy's division: inf) */
        return;
    } else if (rf->draw == NG_JIT_DRAW_EXP && py) { /* expovariate(0): 1 / 0 */
        bad = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, p[0], ng_ir_const_f(k, NG_FLOAT64, 0));
        field = NG_JIT_RANDOM_RATE;
    } else if (py) {
        return;
    } else if (rf->draw == NG_JIT_DRAW_UNIFORM) { /* a range beyond float64's */
        bad = ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL,
                          ng_ir_unary(k, NG_OP_ISFINITE, NG_BOOL, ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, p[1], p[0])));
        field = gen ? NG_JIT_RANDOM_RANGE_GENERATOR : NG_JIT_RANDOM_RANGE;
    } else { /* a scale < 0 */
        bad = ng_ir_binary(k, NG_OP_LT, NG_BOOL, p[rf->draw == NG_JIT_DRAW_NORMAL], ng_ir_const_f(k, NG_FLOAT64, 0));
        field = NG_JIT_RANDOM_SCALE;
    }
    raise_told_or_python(L, bad, ng_jit_raise_code(NG_JIT_RAISE_RANDOM, line, field));
}

/* One random number of the call e (ng_jit_random_call). Philox4x32-10's block at counter
 * (iteration, n) under the launch's key for the call's generator (NG_JIT_ARG_KEY: 64 bits the
 * host draws from that generator, so seeding it repeats a run) gives two 64-bit words of random
 * bits of a kind: uniforms' (53 bits of one), exponentials' and integers', or normals' (the
 * ziggurat's, NgIrNormal: one word almost always, a loop over words until one gives the normal);
 * the second is kept for the iteration's next word of that kind and generator (struct Draws),
 * so a normal's words never become a uniform. The iteration is the outer loop's variable (0 in a kernel
 * without one), n the blocks it made before, counted in order (also where a branch is not taken:
 * a draw's statements run before its statement, whichever way it goes). So every iteration's
 * numbers are its own, whichever thread or device runs it, and the same in every kernel of one
 * launch (a search's, a scan's phases). Not Python's numbers: see the guide. The parameters'
 * errors (an empty range, a scale < 0) are Python's and NumPy's (random_checks). */
static Val draw(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    NgIrKernel *k = L->k;
    const NgJitExpr *f = e->lhs;
    char buf[80], what[256];
    int slot = -1, rng = rng_of(L, f, &slot);
    const NgJitRandomFn *rf = rng < 0 ? NULL : ng_jit_random_fn(e, (NgJitRng)rng);
    if (!rf) {
        snprintf(what, sizeof what, "calling %s(), %s", snip(L, f, buf, sizeof buf),
                 rng < 0 ? "not of module random, numpy.random, a random.Random, a RandomState or a Generator"
                         : "which that generator does not have");
        return unsupported(L, line, what);
    }
    if (slot < 0)
        return unsupported(L, line, "random numbers of more than 8 generators in one loop");
    if (L->elem != NG_IR_NONE || L->rows)
        return unsupported(L, line, "a random number in an elementwise expression of rows (NumPy's operation "
                                    "takes one number for the whole row)");
    const NgJitExpr *args[2];
    bool endpoint;
    if (random_args(e, rf, args, &endpoint, what, sizeof what))
        return unsupported(L, line, what);
    bool ints = rf->draw == NG_JIT_DRAW_INT, inclusive = rf->inclusive || endpoint;
    NgIrRef p[2] = {NG_IR_NONE, NG_IR_NONE}; /* float64 parameters; an integer's bounds (low, high) */
    bool weak = true;
    for (int j = 0; j < rf->nparams; j++) {
        if (!args[j] && isinf(rf->dflt[j]))
            continue;
        Val v = args[j] ? expr(L, args[j]) : mkval(ng_ir_const_f(k, NG_FLOAT64, rf->dflt[j]), NG_FLOAT64, true, false);
        if (v.r == NG_IR_NONE)
            return NOVAL;
        if (ng_dtype_is_complex(v.dt) || (ints && (ng_dtype_is_inexact(v.dt) || v.dt == NG_UINT64))) {
            snprintf(what, sizeof what, "%s() of a %s %s", f->name, ng_dtype_info(v.dt)->name,
                     ints ? "bound (an integer's bounds are ints)" : "parameter (Python's TypeError)");
            return unsupported(L, line, what);
        }
        p[j] = as(L, v, ints ? NG_INT64 : NG_FLOAT64);
        weak = weak && v.weak;
    }
    if (ints && p[1] == NG_IR_NONE) /* one bound: [0, it) */
        p[1] = p[0], p[0] = NG_IR_NONE;
    random_checks(L, rf, p, inclusive, weak, line);
    /* the key, the counter, the block's two words (the second kept for the next draw) */
    int kind = rf->draw == NG_JIT_DRAW_NORMAL;
    struct Rng *g = &L->rngs[slot];
    if (g->param < 0) /* (an int64 argument: its bits) */
        g->param = ng_ir_param_scalar(k, NG_INT64);
    struct Draws *d = L->draw_iter != NG_IR_NONE ? &L->draws : &L->top_draws;
    if (d->n < 0)
        d->n = ng_ir_var(k, NG_UINT64);
    if (d->spare[slot][kind] < 0) {
        d->spare[slot][kind] = ng_ir_var(k, NG_UINT64);
        d->have[slot][kind] = ng_ir_var(k, NG_BOOL);
    }
    int sv = d->spare[slot][kind], hv = d->have[slot][kind], x = ng_ir_var(k, NG_UINT64);
    NgIrRef key[2], w[4];
    ng_ir_halves(k, ng_ir_cast(k, NG_UINT64, ng_ir_scalar(k, g->param)), key);
    NgIrRef it = L->draw_iter != NG_IR_NONE ? ng_ir_cast(k, NG_UINT64, L->draw_iter) : ng_ir_const_i(k, NG_UINT64, 0);
    NgIrRef n = ng_ir_varref(k, d->n);
    Stmts fresh = {0}, word = {0}, *into = kind ? &word : L->pending; /* (a normal's: in its loop) */
    void *list[2] = {L, &fresh}, *at[2] = {L, L->pending};
    ng_ir_philox(k, key[0], key[1], it, n, w, push_into, list);
    append(L, &fresh, ng_ir_assign(k, x, ng_ir_join(k, w[0], w[1])));
    append(L, &fresh, ng_ir_assign(k, sv, ng_ir_join(k, w[2], w[3])));
    append(L, &fresh, ng_ir_assign(k, hv, ng_ir_const_i(k, NG_BOOL, 1)));
    append(L, &fresh, ng_ir_assign(k, d->n, ng_ir_binary(k, NG_OP_ADD, NG_UINT64, n, ng_ir_const_i(k, NG_UINT64, 1))));
    NgIrRef kept[2] = {ng_ir_assign(k, x, ng_ir_varref(k, sv)), ng_ir_assign(k, hv, ng_ir_const_i(k, NG_BOOL, 0))};
    append(L, into, ng_ir_let(k, x, ng_ir_const_i(k, NG_UINT64, 0)));
    append(L, into, ng_ir_if(k, ng_ir_varref(k, hv), ng_ir_block(k, 2, kept), seal(L, &fresh)));
    NgIrRef v = ng_ir_varref(k, x);
    if (kind) { /* the ziggurat's steps, a word each, until one gives the normal */
        NgIrNormal nv;
        ng_ir_normal_vars(k, &nv, push_into, at);
        append(L, &word, ng_ir_normal_step(k, &nv, ng_ir_varref(k, x)));
        append(L, L->pending, ng_ir_while(k, ng_ir_varref(k, nv.go), seal(L, &word)));
        v = ng_ir_normal_value(k, &nv);
    }

    if (rf->draw == NG_JIT_DRAW_INT) { /* low + the bits' integer below high - low (+ 1) */
        NgIrRef low = p[0] != NG_IR_NONE ? p[0] : ng_ir_const_i(k, NG_INT64, 0);
        NgIrRef span = ng_ir_binary(k, NG_OP_SUB, NG_UINT64, ng_ir_cast(k, NG_UINT64, p[1]), ng_ir_cast(k, NG_UINT64, low));
        if (inclusive)
            span = ng_ir_binary(k, NG_OP_ADD, NG_UINT64, span, ng_ir_const_i(k, NG_UINT64, 1));
        NgIrRef below = ng_ir_below(k, v, span, push_into, at);
        if (inclusive) /* (all 2**64 int64s: the bits themselves) */
            below = ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, span, ng_ir_const_i(k, NG_UINT64, 0)), v, below);
        NgIrRef r = ng_ir_cast(k, NG_INT64, ng_ir_binary(k, NG_OP_ADD, NG_UINT64, ng_ir_cast(k, NG_UINT64, low), below));
        return mkval(r, NG_INT64, rf->rng != NG_JIT_RNG_GENERATOR, p[0] == NG_IR_NONE);
    }
    if (rf->draw == NG_JIT_DRAW_EXP) { /* -log(1 - u), 1 - u = (2**53 - u's 53 bits) 2**-53 in (0, 1] (the log */
        NgIrRef h[2];                                         /* made of + - * /: every device's bits) */
        ng_ir_halves(k, v, h);
        NgIrRef K = ng_ir_binary(k, NG_OP_SUB, NG_UINT64, ng_ir_const_i(k, NG_UINT64, INT64_C(1) << 53),
                                 ng_ir_unit_bits(k, h[1], h[0]));
        v = ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, ng_ir_log_scaled(k, K, 53, push_into, at));
    } else if (!kind) { /* a uniform of the bits' 53 (the high word's 27, the low's 26) */
        NgIrRef h[2];
        ng_ir_halves(k, v, h);
        v = ng_ir_unit_f64(k, h[1], h[0]);
    }
    if (rf->draw == NG_JIT_DRAW_EXP && rf->nparams) /* of scale p[0], of rate p[0] (expovariate) */
        v = ng_ir_binary(k, rf->rng == NG_JIT_RNG_PY ? NG_OP_TRUEDIV : NG_OP_MUL, NG_FLOAT64, v, p[0]);
    else if (rf->nparams) /* low + (high - low) u, mean + sd z */
        v = ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64, p[0],
                         ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64,
                                      rf->draw == NG_JIT_DRAW_NORMAL ? p[1] : ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, p[1], p[0]), v));
    return mkval(v, NG_FLOAT64, true, rf->draw == NG_JIT_DRAW_EXP && rf->nparams == 0);
}

/* Declares the variables of draws d first in s (before the iteration, or the kernel, draws). */
static void declare_draws(Lower *L, const struct Draws *d, Stmts *s)
{
    NgIrKernel *k = L->k;
    for (int g = 0; g < NG_JIT_MAX_RNGS; g++)
        for (int kind = 0; kind < 2; kind++)
            if (d->spare[g][kind] >= 0) {
                prepend(L, s, ng_ir_let(k, d->have[g][kind], ng_ir_const_i(k, NG_BOOL, 0)));
                prepend(L, s, ng_ir_let(k, d->spare[g][kind], ng_ir_const_i(k, NG_UINT64, 0)));
            }
    if (d->n >= 0)
        prepend(L, s, ng_ir_let(k, d->n, ng_ir_const_i(k, NG_UINT64, 0)));
}

/* Draws of none yet: every variable -1. */
static struct Draws no_draws(void)
{
    struct Draws d;
    d.n = -1;
    for (int g = 0; g < NG_JIT_MAX_RNGS; g++)
        for (int kind = 0; kind < 2; kind++)
            d.spare[g][kind] = d.have[g][kind] = -1;
    return d;
}

static Val call(Lower *L, const NgJitExpr *e)
{
    const NgJitExpr *f = e->lhs;
    if (ng_jit_call_kind(e) == NG_JIT_CALL_RANDOM)
        return draw(L, e);
    if (f->kind == NG_JIT_E_NAME && sym_of(L, f)->kind == SYM_UNBOUND) {
        const NgJitStmt *def = find_def(L, f->name);
        return def ? helper_call(L, e, def, 1, NULL) : builtin_call(L, e, f->name);
    }
    if (f->kind == NG_JIT_E_ATTR && strcmp(f->name, "norm") == 0 && f->lhs->kind == NG_JIT_E_ATTR &&
        strcmp(f->lhs->name, "linalg") == 0 && f->lhs->lhs->kind == NG_JIT_E_NAME) { /* np.linalg.norm */
        Sym *m = sym_of(L, f->lhs->lhs);
        if (m->kind == SYM_MODULE && m->module == NG_JIT_MOD_NUMPY)
            return linalg_norm(L, e);
    }
    if (f->kind == NG_JIT_E_ATTR && f->lhs->kind == NG_JIT_E_NAME) {
        Sym *m = sym_of(L, f->lhs);
        if (m->kind == SYM_MODULE)
            return m->module == NG_JIT_MOD_MATH    ? math_call(L, e, f->name)
                   : m->module == NG_JIT_MOD_CMATH ? cmath_call(L, e, f->name)
                                                   : np_call(L, e, f->name);
    }
    if (f->kind == NG_JIT_E_ATTR && (strcmp(f->name, "conjugate") == 0 || strcmp(f->name, "conj") == 0) &&
        e->nitems == 0 && !e->nkeywords &&
        !(f->lhs->kind == NG_JIT_E_NAME && sym_of(L, f->lhs)->kind == SYM_ARRAY))
        return conjugate_of(L, expr(L, f->lhs));
    if (f->kind == NG_JIT_E_ATTR && strcmp(f->name, "item") == 0 && e->nitems == 0 && !e->nkeywords) {
        Val x = expr(L, f->lhs); /* x.item() of a NumPy scalar: the Python number of its value */
        if (x.r == NG_IR_NONE || L->elem != NG_IR_NONE || x.dt == NG_UINT64 || x.chr)
            return x.r == NG_IR_NONE ? NOVAL : unsupported(L, e->span.line, ".item() of a uint64 or of an array");
        NgDType py = ng_dtype_is_complex(x.dt) ? NG_COMPLEX128 : ng_dtype_is_float(x.dt) ? NG_FLOAT64
                   : x.dt == NG_BOOL ? NG_BOOL : NG_INT64;
        return mkval(as(L, x, py), py, true, x.nonneg);
    }
    if (f->kind == NG_JIT_E_ATTR && ng_jit_call_kind(e) == NG_JIT_CALL_METHOD) /* x.sum(): np.sum(x) */
        return reduce_method(L, e);
    char buf[80], what[256];
    snprintf(what, sizeof what, "calling %s()", snip(L, f, buf, sizeof buf));
    return unsupported(L, e->span.line, what);
}

/* ---- expressions ---- */

static Val unary(Lower *L, const NgJitExpr *e)
{
    if (e->op == NG_JIT_OP_NOT) {
        Val c = cond(L, e->lhs);
        if (c.r == NG_IR_NONE)
            return NOVAL;
        return mkval(ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, c.r), NG_BOOL, true, true);
    }
    Val x = expr(L, e->lhs);
    if (x.r == NG_IR_NONE)
        return NOVAL;
    NgDType dt = x.dt;
    if (dt == NG_BOOL && x.weak)
        dt = NG_INT64; /* -True == -1, ~True == -2 */
    switch (e->op) {
    case NG_JIT_OP_POS:
        return mkval(as(L, x, dt), dt, x.weak, x.nonneg);
    case NG_JIT_OP_NEG: {
        if (dt == NG_BOOL)
            return fail(L, e->span.line, NG_ERR_TYPE, "the numpy boolean negative, the `-` operator, is not supported");
        NgIrRef r = as(L, x, dt);
        if (is_const(L, r)) { /* fold -1 so it reads as a constant (index wrap, range steps) */
            const NgIrNode c = *ng_ir_node(L->k, r); /* (a copy: a new node may move the node array) */
            if (ng_dtype_is_complex(dt)) /* -(2j) is (-0.0-2j), as Python's */
                return mkval(ng_ir_const_c(L->k, dt, -c.c.f, -c.im), dt, x.weak, false);
            if (ng_dtype_is_float(dt))
                return mkval(ng_ir_const_f(L->k, dt, -c.c.f), dt, x.weak, false);
            return mkval(ng_ir_const_i(L->k, dt, (int64_t)(0 - (uint64_t)c.c.i)), dt, x.weak, c.c.i <= 0);
        }
        Val v = mkval(ng_ir_unary(L->k, NG_OP_NEG, dt, r), dt, x.weak, false);
        neg_overflow(L, x, &v, e->span.line);
        return v;
    }
    case NG_JIT_OP_INVERT:
        if (ng_dtype_is_inexact(dt))
            return fail(L, e->span.line, NG_ERR_TYPE, "bad operand type for unary ~: '%s'", type_name(x));
        return mkval(ng_ir_unary(L->k, NG_OP_INVERT, dt, as(L, x, dt)), dt, x.weak, false);
    default:
        return unsupported(L, e->span.line, "this unary operator");
    }
}

/* `a and b` / `a or b` as a value: bools combine (short-circuit); other
 * values pick an operand as Python does. */
static Val boolop(Lower *L, const NgJitExpr *e)
{
    bool is_and = e->op == NG_JIT_OP_AND;
    Val a = expr(L, e->lhs);
    NgIrRef saved = L->guard;
    L->guard = guard_with(L, truth(L, a).r, !is_and);
    Val b = expr(L, e->rhs);
    L->guard = saved;
    if (a.r == NG_IR_NONE || b.r == NG_IR_NONE)
        return NOVAL;
    if (a.dt == NG_BOOL && b.dt == NG_BOOL)
        return mkval(ng_ir_binary(L->k, is_and ? NG_OP_LOGAND : NG_OP_LOGOR, NG_BOOL, a.r, b.r), NG_BOOL,
                     a.weak && b.weak, true);
    Val t = truth(L, a);
    return is_and ? choose_val(L, t, b, a, e->span.line) : choose_val(L, t, a, b, e->span.line);
}

/* a < b < c: each comparison, and-ed (each operand is evaluated once: IR
 * expressions have no side effects). */
/* `x in s` / `x not in s` of a 1-character str x and a str literal s, or
 * of a key and a dict. */
static Val membership(Lower *L, const NgJitExpr *e)
{
    int line = e->span.line;
    const NgJitExpr *in = e->items[1];
    Val x = str_expr(L, e->items[0]);
    if (x.r == NG_IR_NONE)
        return NOVAL;
    NgIrRef r = NG_IR_NONE;
    Sym *d = array_name(L, in);
    if (d && (d->given->seq == NG_JIT_SEQ_DICT_CHR || d->given->seq == NG_JIT_SEQ_DICT_INT)) {
        NgIrRef missing;
        if (dict_entry(L, d, x, line, &missing) == NG_IR_NONE)
            return NOVAL;
        r = ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, missing);
    } else if (in->kind == NG_JIT_E_STR && in->str && !(in->str_flags & NG_JIT_STR_BYTES) && x.chr) {
        /* the least of (uint64)(x - c) over the literal's characters c is 0: a chain of `x == c or
         * ...` would become a bit test in gcc (reassoc) that its vectoriser refuses */
        NgIrRef least = NG_IR_NONE, u = ng_ir_cast(L->k, NG_UINT64, x.r);
        for (const unsigned char *p = (const unsigned char *)in->str; *p;) {
            int64_t c = *p < 0x80 ? *p : *p & (0x7F >> (*p < 0xE0 ? 2 : *p < 0xF0 ? 3 : 4));
            for (p++; (*p & 0xC0) == 0x80; p++)
                c = c << 6 | (*p & 0x3F);
            NgIrRef gap = ng_ir_binary(L->k, NG_OP_SUB, NG_UINT64, u, ng_ir_const_i(L->k, NG_UINT64, c));
            least = least == NG_IR_NONE ? gap : ng_ir_binary(L->k, NG_OP_MINIMUM, NG_UINT64, least, gap);
        }
        r = least == NG_IR_NONE ? ng_ir_const_i(L->k, NG_BOOL, 0) /* ('' holds no character) */
                                : ng_ir_binary(L->k, NG_OP_EQ, NG_BOOL, least, ng_ir_const_i(L->k, NG_UINT64, 0));
    } else {
        return fail(L, line, NG_ERR_UNSUPPORTED, "the operator '%s' is not supported in a compiled loop "
                    "(but for a 1-character str in a str literal, or a key in a dict)", ng_jit_op_name(e->ops[0]));
    }
    if (e->ops[0] == NG_JIT_OP_NOT_IN)
        r = ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, r);
    return mkval(r, NG_BOOL, true, true);
}

static Val compare_chain(Lower *L, const NgJitExpr *e)
{
    if (e->nitems == 2 && (e->ops[0] == NG_JIT_OP_IN || e->ops[0] == NG_JIT_OP_NOT_IN))
        return membership(L, e);
    Val prev = str_expr(L, e->items[0]), r = NOVAL;
    NgIrRef saved = L->guard;
    for (int i = 1; i < e->nitems; i++) {
        if (i > 1) /* a < b < c evaluates c only when a < b */
            L->guard = guard_with(L, r.r, false);
        Val next = str_expr(L, e->items[i]);
        Val c = compare(L, e->ops[i - 1], prev, next, e->span.line);
        if (c.r == NG_IR_NONE)
            break;
        r = i == 1 ? c : mkval(ng_ir_binary(L->k, NG_OP_LOGAND, NG_BOOL, r.r, c.r), NG_BOOL, r.weak && c.weak, true);
        prev = next;
        if (i == e->nitems - 1) {
            L->guard = saved;
            return r;
        }
    }
    L->guard = saved;
    return NOVAL;
}

/* x if c else y: each branch evaluated only when it is taken. */
static Val ifexp(Lower *L, const NgJitExpr *e)
{
    Val c = cond(L, e->cond);
    NgIrRef saved = L->guard;
    L->guard = guard_with(L, c.r, false);
    Val x = expr(L, e->lhs);
    L->guard = saved; /* (the else branch runs under the guard outside, not x's) */
    L->guard = guard_with(L, c.r, true);
    Val y = expr(L, e->rhs);
    L->guard = saved;
    return choose_val(L, c, x, y, e->span.line);
}

/* The code point of a str literal of one character, or -1. */
static int64_t one_char(const NgJitExpr *e)
{
    if (e->kind != NG_JIT_E_STR || !e->str || (e->str_flags & NG_JIT_STR_BYTES) || e->str_len == 0)
        return -1;
    const unsigned char *p = (const unsigned char *)e->str;
    size_t n = p[0] < 0x80 ? 1 : p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 : 4;
    if (n != e->str_len)
        return -1;
    int64_t c = n == 1 ? p[0] : p[0] & (0x7F >> n);
    for (size_t i = 1; i < n; i++)
        c = c << 6 | (p[i] & 0x3F);
    return c;
}

/* Whether e is certainly one number (or 1-character str), not a row: constants, scalar names,
 * elements (an index per axis, none a row), x.shape[k], and arithmetic, comparisons and
 * scalar calls of such. False where unsure. */
static bool surely_scalar(const Lower *L, const NgJitExpr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case NG_JIT_E_INT: case NG_JIT_E_FLOAT: case NG_JIT_E_IMAG: case NG_JIT_E_STR:
        return true;
    case NG_JIT_E_CONST:
        return e->cval == NG_JIT_C_TRUE || e->cval == NG_JIT_C_FALSE;
    case NG_JIT_E_NAME: {
        const Sym *s = &L->syms[e->name_id];
        return s->kind == SYM_LOCAL || (s->kind == SYM_SCALAR && s->given && !s->given->is_array);
    }
    case NG_JIT_E_SUBSCRIPT: {
        int n = 0;
        const NgJitExpr *r = e;
        for (; r->kind == NG_JIT_E_SUBSCRIPT; r = r->lhs) {
            int m = ng_jit_index_count(r->rhs);
            for (int i = 0; i < m; i++) {
                const NgJitExpr *x = r->rhs->kind == NG_JIT_E_TUPLE ? r->rhs->items[i] : r->rhs;
                if (x->kind == NG_JIT_E_SLICE || !surely_scalar(L, x) || x->kind == NG_JIT_E_CONST)
                    return false;
            }
            n += m;
        }
        if (r->kind == NG_JIT_E_ATTR) /* x.shape[k] */
            return e->lhs == r && r->name && strcmp(r->name, "shape") == 0 && n == 1;
        if (r->kind != NG_JIT_E_NAME)
            return false;
        const Sym *s = &L->syms[r->name_id];
        if (s->kind == SYM_BUF)
            return n == s->brank;
        if (s->kind == SYM_VIEW)
            return s->base->given && n == s->base->given->ndim - s->nfixed;
        return s->kind == SYM_ARRAY && s->given && n == s->given->ndim;
    }
    case NG_JIT_E_ATTR:
        return e->name && (strcmp(e->name, "real") == 0 || strcmp(e->name, "imag") == 0) && surely_scalar(L, e->lhs);
    case NG_JIT_E_BINARY:
        return e->op != NG_JIT_OP_MATMUL && surely_scalar(L, e->lhs) && surely_scalar(L, e->rhs);
    case NG_JIT_E_UNARY: case NG_JIT_E_BOOLOP:
        return surely_scalar(L, e->lhs) && surely_scalar(L, e->rhs);
    case NG_JIT_E_IFEXP:
        return surely_scalar(L, e->cond) && surely_scalar(L, e->lhs) && surely_scalar(L, e->rhs);
    case NG_JIT_E_COMPARE:
        for (int i = 0; i < e->nitems; i++)
            if (!surely_scalar(L, e->items[i]))
                return false;
        return true;
    case NG_JIT_E_CALL: {
        NgJitCallKind k = ng_jit_call_kind(e);
        if ((k != NG_JIT_CALL_BUILTIN && k != NG_JIT_CALL_MATH && k != NG_JIT_CALL_NP_SCALAR) || e->nkeywords ||
            !e->nitems || (k == NG_JIT_CALL_BUILTIN && strcmp(e->lhs->name, "range") == 0) ||
            (k == NG_JIT_CALL_NP_SCALAR && strcmp(e->lhs->name, "arange") == 0))
            return false;
        for (int i = 0; i < e->nitems; i++)
            if (!surely_scalar(L, e->items[i]))
                return false;
        return true;
    }
    default:
        return false;
    }
}

/* An expression's value: a number, or a 1-character str (Val.chr) that
 * only comparisons, dict keys, ord() and locals take. */
static Val expr(Lower *L, const NgJitExpr *e)
{
    Val v = str_expr(L, e);
    if (v.chr)
        return unsupported(L, e->span.line, "a str (in Python, no number) in this place");
    return v;
}

/* Whether op's float64 result takes its operands as float64s (Python's float arithmetic). */
static bool float_operator(NgJitOp op)
{
    return op == NG_JIT_OP_ADD || op == NG_JIT_OP_SUB || op == NG_JIT_OP_MUL || op == NG_JIT_OP_DIV ||
           op == NG_JIT_OP_FLOORDIV || op == NG_JIT_OP_MOD || op == NG_JIT_OP_POW;
}

static bool is_pow(const NgJitExpr *e)
{
    return e->kind == NG_JIT_E_BINARY && e->op == NG_JIT_OP_POW;
}

/* Whether e is surely a float64, known before it is lowered: a float literal, a local or
 * scalar of that type. */
static bool surely_float64(Lower *L, const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_FLOAT)
        return true;
    if (e->kind != NG_JIT_E_NAME)
        return false;
    const Sym *s = sym_of(L, e);
    return s->kind == SYM_LOCAL && s->dt == NG_FLOAT64;
}

static Val str_expr(Lower *L, const NgJitExpr *e)
{
    bool pow_float = L->pow_float;
    L->pow_float = false;
    if (L->st != NG_OK)
        return NOVAL;
    int line = e->span.line;
    if (L->elem != NG_IR_NONE && L->guard == NG_IR_NONE && L->rows->before && e->kind != NG_JIT_E_NAME &&
        e->kind != NG_JIT_E_INT && e->kind != NG_JIT_E_FLOAT && e->kind != NG_JIT_E_CONST && surely_scalar(L, e)) {
        /* a number in an elementwise expression of rows (b[a:c] * math.log(v)): Python computes it
         * once, before NumPy's operation, so what it raises is raised where the rows are empty too */
        RowsSaved was = outside_rows(L);
        Val v = str_expr(L, e);
        restore_rows(L, was);
        return v;
    }
    if (e->kind == NG_JIT_E_BINARY || e->kind == NG_JIT_E_UNARY) {
        /* (an int expression of literals, 2 ** 63 - 1 or 10 ** 20: Python's value, exactly) */
        i128 c;
        int folded = fold_int(e, &c);
        if (folded > 0 && c >= INT64_MIN && c <= INT64_MAX)
            return int_const(L, (int64_t)c);
        if (folded != 0)
            return fail(L, line, NG_ERR_OVERFLOW, "a constant Python int beyond 64 bits (numgpu's are 64-bit)");
    }
    switch (e->kind) {
    case NG_JIT_E_NAME:
        return read_name(L, e);
    case NG_JIT_E_INT:
        if (e->big || e->ival > (uint64_t)INT64_MAX)
            return fail(L, line, NG_ERR_OVERFLOW, "Python int too large to convert to C long");
        return int_const(L, (int64_t)e->ival);
    case NG_JIT_E_FLOAT:
        return mkval(ng_ir_const_f(L->k, NG_FLOAT64, e->fval), NG_FLOAT64, true, false);
    case NG_JIT_E_CONST:
        if (e->cval == NG_JIT_C_TRUE || e->cval == NG_JIT_C_FALSE)
            return mkval(ng_ir_const_i(L->k, NG_BOOL, e->cval == NG_JIT_C_TRUE), NG_BOOL, true, true);
        return unsupported(L, line, e->cval == NG_JIT_C_NONE ? "None" : "Ellipsis");
    case NG_JIT_E_UNARY:
        return unary(L, e);
    case NG_JIT_E_BINARY: {
        if (e->op == NG_JIT_OP_MATMUL) { /* a @ b of two rows: np.matmul(a, b), their dot */
            NgJitExpr *ab[2] = {e->lhs, e->rhs}, c = *e;
            c.kind = NG_JIT_E_CALL;
            c.items = ab;
            c.nitems = 2;
            c.nkeywords = 0;
            return reduce_rows(L, &c, "matmul", NG_OP_ADD, false, NULL);
        }
        /* (an int ** an int that may be negative, the other operand a float64: pow_as_float) */
        bool takes = float_operator(e->op);
        L->pow_float = takes && is_pow(e->lhs) && surely_float64(L, e->rhs);
        Val a = expr(L, e->lhs); /* Python's order: left to right */
        L->pow_float = takes && is_pow(e->rhs) && a.dt == NG_FLOAT64;
        Val b = expr(L, e->rhs);
        L->pow_float = pow_float && e->op == NG_JIT_OP_POW;
        return arith(L, e->op, a, b, line);
    }
    case NG_JIT_E_BOOLOP:
        return boolop(L, e);
    case NG_JIT_E_COMPARE:
        return compare_chain(L, e);
    case NG_JIT_E_IFEXP:
        return ifexp(L, e);
    case NG_JIT_E_CALL:
        return call(L, e);
    case NG_JIT_E_ATTR:
        return attribute(L, e);
    case NG_JIT_E_SUBSCRIPT:
        return subscript(L, e);
    case NG_JIT_E_IMAG:
        return mkval(ng_ir_const_c(L->k, NG_COMPLEX128, 0.0, e->fval), NG_COMPLEX128, true, false);
    case NG_JIT_E_STR: {
        int64_t c = one_char(e);
        if (c < 0)
            return fail(L, line, NG_ERR_UNSUPPORTED, "a string of other than one character is not supported in a "
                        "compiled loop (strings are built by Python: make them after the loop, from an array of "
                        "the numbers)");
        Val v = int_const(L, c);
        v.chr = true;
        return v;
    }
    case NG_JIT_E_TUPLE: return unsupported(L, line, "a tuple value");
    case NG_JIT_E_LIST: return unsupported(L, line, "a list");
    case NG_JIT_E_SET: case NG_JIT_E_SETCOMP: return unsupported(L, line, "a set");
    case NG_JIT_E_DICT: case NG_JIT_E_DICTCOMP: return unsupported(L, line, "a dict");
    case NG_JIT_E_LISTCOMP: return unsupported(L, line, "a list comprehension");
    case NG_JIT_E_GENEXP: return unsupported(L, line, "a generator expression");
    case NG_JIT_E_NAMED: return unsupported(L, line, "an assignment expression (:=)");
    case NG_JIT_E_LAMBDA: return unsupported(L, line, "a lambda");
    default: return unsupported(L, line, "this expression");
    }
}

/* A condition: Python truthiness as a bool; and/or/not short-circuit. */
static Val cond(Lower *L, const NgJitExpr *e)
{
    if (L->st != NG_OK)
        return NOVAL;
    if (e->kind == NG_JIT_E_BOOLOP) {
        Val a = cond(L, e->lhs);
        NgIrRef saved = L->guard;
        L->guard = guard_with(L, a.r, e->op == NG_JIT_OP_OR);
        Val b = cond(L, e->rhs);
        L->guard = saved;
        if (a.r == NG_IR_NONE || b.r == NG_IR_NONE)
            return NOVAL;
        return mkval(ng_ir_binary(L->k, e->op == NG_JIT_OP_AND ? NG_OP_LOGAND : NG_OP_LOGOR, NG_BOOL, a.r, b.r),
                     NG_BOOL, true, true);
    }
    if (e->kind == NG_JIT_E_UNARY && e->op == NG_JIT_OP_NOT) {
        Val a = cond(L, e->lhs);
        if (a.r == NG_IR_NONE)
            return NOVAL;
        return mkval(ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, a.r), NG_BOOL, true, true);
    }
    return truth(L, expr(L, e));
}

/* ---- statements ---- */

/* A value that later statements cannot change: e itself when it is a
 * constant, a scalar parameter or a shape, else a new variable holding it. */
static Val pin(Lower *L, Val v, Stmts *out)
{
    if (v.r == NG_IR_NONE)
        return v;
    NgIrKind kind = (NgIrKind)ng_ir_node(L->k, v.r)->kind;
    if (kind == NG_IR_CONST || kind == NG_IR_SCALAR || kind == NG_IR_SHAPE)
        return v;
    v = keep_mag(L, v);
    int t = ng_ir_var(L->k, v.dt);
    push(L, out, ng_ir_let(L->k, t, v.r));
    v.r = ng_ir_varref(L->k, t);
    return v;
}

static bool is_atomic_target(Lower *L, Sym *a)
{
    return L->plan->parallel && a->atomic;
}

/* A store into s (through a helper's parameter, the caller's array): it
 * is written, declared so from the next pass on if it was not yet. */
/* Whether s is a str or a tuple (after an error: Python's are immutable). */
static bool immutable(Lower *L, const Sym *s, int line)
{
    if (s->given->seq != NG_JIT_SEQ_STR && s->given->seq != NG_JIT_SEQ_TUPLE)
        return false;
    fail(L, line, NG_ERR_UNSUPPORTED, "assigning into a %s (Python's are immutable) is not supported in a compiled "
         "loop", s->given->seq == NG_JIT_SEQ_STR ? "str" : "tuple");
    return true;
}

static void mark_written(Lower *L, Sym *s)
{
    Sym *t = s->alias ? s->alias : s;
    if (!t->written) {
        t->written = true;
        L->changed = true;
    }
}

/* Stores v into the element e (a subscript). */
static void store(Lower *L, const NgJitExpr *e, Val v, Stmts *out)
{
    NgIrRef idx[NG_MAXDIMS], ok;
    L->storing = true;
    Sym *s = element(L, e, idx, &ok);
    L->storing = false;
    if (!s || v.r == NG_IR_NONE)
        return;
    if (immutable(L, s, e->span.line))
        return;
    if (v.chr) {
        fail(L, e->span.line, NG_ERR_UNSUPPORTED, "storing a str into an array is not supported in a compiled loop");
        return;
    }
    NgDType dt = s->given->dtype;
    if (v.weak && ng_dtype_is_complex(v.dt) && !ng_dtype_is_complex(dt) && dt != NG_BOOL) {
        /* (NumPy takes a NumPy complex's real part, but raises TypeError for a Python one:
         * Python raises it when it gets there) */
        unsupported(L, e->span.line, "storing a Python complex into an array of real numbers");
        return;
    }
    mark_written(L, s);
    int_conversion(L, v, dt, true, e->span.line);
    push(L, out, guarded(L, ok, ng_ir_store(L->k, s->param, s->given->ndim, idx, store_cast(L, v, s->given->dtype))));
}

static bool buf_indices(Lower *L, const Sym *s, const NgJitExpr *e, const NgJitExpr **ix);
static void buf_store(Lower *L, Sym *s, const NgJitExpr *t, const NgJitExpr *const *ix, NgJitOp op,
                      const NgJitExpr *value, Val v, Stmts *out);

/* Assigns v to a target: a name or an element. */
static void assign_to(Lower *L, const NgJitExpr *t, Val v, Stmts *out)
{
    if (L->st != NG_OK)
        return;
    if (t->kind == NG_JIT_E_NAME) {
        Sym *s = sym_of(L, t);
        if (s->kind != SYM_LOCAL) {
            fail(L, t->span.line, NG_ERR_UNSUPPORTED,
                 "assigning to '%s' (%s) is not supported in a compiled loop", s->name,
                 s->kind == SYM_BUF                         ? "an array made in the loop, other than by np.zeros"
                 : s->kind != SYM_ARRAY                     ? "a module"
                 : s->given->seq == NG_JIT_SEQ_STR          ? "a str bound before the loop: strings are built by "
                                                              "Python, so build it after the loop"
                 : s->given->seq == NG_JIT_SEQ_TUPLE        ? "a tuple bound before the loop"
                 : s->given->seq != NG_JIT_SEQ_ARRAY        ? "a dict"
                                                            : "an array");
            return;
        }
        if (v.r != NG_IR_NONE && v.chr != s->chr && (s->dt != NG_NODTYPE || s->home != HOME_NONE)) {
            fail(L, t->span.line, NG_ERR_UNSUPPORTED, "'%s' holding a str %s is not supported in a compiled loop",
                 s->name, s->home != HOME_NONE ? "that Python reads after the loop" : "and a number");
            return;
        }
        if (v.mixed) {
            fail(L, t->span.line, NG_ERR_UNSUPPORTED, "'%s' assigned one of two values of different types "
                 "(Python's name takes the chosen one's) is not supported in a compiled loop", s->name);
            return;
        }
        push(L, out, assign_local(L, s, v));
    } else if (t->kind == NG_JIT_E_SUBSCRIPT && buf_root(L, t)) { /* (a[0], a[1] = x, y) */
        const NgJitExpr *ix[NG_JIT_MAX_NEW_RANK];
        Sym *b = buf_root(L, t);
        bool part = !buf_indices(L, b, t, ix);
        for (int d = 0; d < b->brank && !part; d++)
            if (!ix[d]) {
                unsupported(L, t->span.line, "storing into a part of an array made in the loop in a tuple assignment");
                part = true;
            }
        if (!part)
            buf_store(L, b, t, ix, NG_JIT_OP_NONE, NULL, v, out);
    } else if (t->kind == NG_JIT_E_SUBSCRIPT) {
        store(L, t, v, out);
    } else {
        char buf[80], what[256];
        snprintf(what, sizeof what, "assigning to '%s'", snip(L, t, buf, sizeof buf));
        unsupported(L, t->span.line, what);
    }
}

/* q, r = divmod(a, b): a // b and a % b (Python floats' 0.0 divisor raises in divmod's words). */
static int divmod_values(Lower *L, const NgJitExpr *call, Val *vals, Stmts *out)
{
    if (call->nitems != 2 || call->items[0]->kind == NG_JIT_E_STARRED || call->items[1]->kind == NG_JIT_E_STARRED)
        return unsupported(L, call->span.line, "divmod() of other than two arguments"), 0;
    int line = call->span.line;
    Val a = pin(L, expr(L, call->items[0]), out), b = pin(L, expr(L, call->items[1]), out);
    if (a.r == NG_IR_NONE || b.r == NG_IR_NONE)
        return 0;
    if (ng_dtype_is_complex(a.dt) || ng_dtype_is_complex(b.dt))
        return unsupported(L, line, "divmod() of complex numbers (Python's TypeError)"), 0;
    if (a.weak && b.weak && (ng_dtype_is_float(a.dt) || ng_dtype_is_float(b.dt)) && !nonzero(L, b))
        raise_or_python(L, ng_ir_binary(L->k, NG_OP_EQ, NG_BOOL, as(L, b, NG_FLOAT64), ng_ir_const_f(L->k, NG_FLOAT64, 0.0)),
                        NG_JIT_RAISE_DIVMOD_FLOAT, line);
    vals[0] = pin(L, arith(L, NG_JIT_OP_FLOORDIV, a, b, line), out);
    vals[1] = pin(L, arith(L, NG_JIT_OP_MOD, a, b, line), out);
    return vals[0].r != NG_IR_NONE && vals[1].r != NG_IR_NONE;
}

/* m, e = math.frexp(x) (C's frexp: x itself and 0 for 0, inf and NaN, as CPython's) and
 * f, i = math.modf(x) (the fraction with x's sign; an infinity's is a signed 0). */
static int frexp_modf_values(Lower *L, const NgJitExpr *call, Val *vals, Stmts *out)
{
    NgIrKernel *k = L->k;
    int line = call->span.line;
    const char *fn = call->lhs->name;
    if (!check_args(L, call, 1, 1, fn))
        return 0;
    NgIrRef x = math_float(L, call->items[0], line);
    if (x == NG_IR_NONE)
        return 0;
    x = in_var(L, x);
    if (fn[0] == 'f') {
        vals[0] = pin(L, mkval(ng_ir_unary(k, NG_OP_FREXP, NG_FLOAT64, x), NG_FLOAT64, true, false), out);
        vals[1] = pin(L, mkval(ng_ir_cast(k, NG_INT64, ng_ir_unary(k, NG_OP_FREXP_EXPONENT, NG_INT32, x)), NG_INT64,
                               true, false), out);
    } else {
        NgIrRef ip = in_var(L, ng_ir_unary(k, NG_OP_TRUNC, NG_FLOAT64, x));
        NgIrRef frac = ng_ir_binary(k, NG_OP_COPYSIGN, NG_FLOAT64, ng_ir_binary(k, NG_OP_SUB, NG_FLOAT64, x, ip), x);
        frac = ng_ir_select(k, ng_ir_unary(k, NG_OP_ISINF, NG_BOOL, x),
                            ng_ir_binary(k, NG_OP_COPYSIGN, NG_FLOAT64, ng_ir_const_f(k, NG_FLOAT64, 0.0), x), frac);
        vals[0] = pin(L, mkval(frac, NG_FLOAT64, true, false), out);
        vals[1] = pin(L, mkval(ip, NG_FLOAT64, true, false), out);
    }
    return vals[0].r != NG_IR_NONE && vals[1].r != NG_IR_NONE;
}

/* The values a tuple assignment unpacks: the items of a tuple, or x.shape. */
static int unpack_values(Lower *L, const NgJitExpr *value, int n, Val *vals, Stmts *out)
{
    if (value->kind == NG_JIT_E_CALL && value->lhs->kind == NG_JIT_E_ATTR && n == 2 &&
        value->lhs->lhs->kind == NG_JIT_E_NAME && sym_of(L, value->lhs->lhs)->kind == SYM_MODULE &&
        sym_of(L, value->lhs->lhs)->module == NG_JIT_MOD_MATH &&
        (strcmp(value->lhs->name, "frexp") == 0 || strcmp(value->lhs->name, "modf") == 0))
        return frexp_modf_values(L, value, vals, out);
    if (value->kind == NG_JIT_E_TUPLE || value->kind == NG_JIT_E_LIST) {
        if (value->nitems != n)
            return fail(L, value->span.line, NG_ERR_VALUE, "%s values to unpack (expected %d, got %d)",
                        value->nitems > n ? "too many" : "not enough", n, value->nitems), 0;
        for (int i = 0; i < n; i++)
            if (value->items[i]->kind == NG_JIT_E_STARRED)
                return unsupported(L, value->span.line, "a starred expression"), 0;
        /* every value first, then the targets: a, b = b, a */
        for (int i = 0; i < n; i++)
            vals[i] = pin(L, expr(L, value->items[i]), out);
        return 1;
    }
    if (value->kind == NG_JIT_E_ATTR && strcmp(value->name, "shape") == 0 && value->lhs->kind == NG_JIT_E_NAME &&
        sym_of(L, value->lhs)->kind == SYM_BUF) { /* n, m = a.shape of a buffer */
        Sym *b = sym_of(L, value->lhs);
        if (b->brank != n)
            return fail(L, value->span.line, NG_ERR_VALUE, "%s values to unpack (expected %d, got %d)",
                        b->brank > n ? "too many" : "not enough", n, b->brank), 0;
        for (int i = 0; i < n; i++)
            vals[i] = int_const(L, b->bshape[i]);
        return 1;
    }
    if (value->kind == NG_JIT_E_ATTR && strcmp(value->name, "shape") == 0) {
        Sym *s = array_name(L, value->lhs);
        if (s) {
            if (s->given->ndim != n)
                return fail(L, value->span.line, NG_ERR_VALUE, "%s values to unpack (expected %d, got %d)",
                            s->given->ndim > n ? "too many" : "not enough", n, s->given->ndim), 0;
            for (int i = 0; i < n; i++)
                vals[i] = mkval(ng_ir_shape(L->k, s->param, i), NG_INT64, true, true);
            return 1;
        }
    }
    if (value->kind == NG_JIT_E_CALL && value->lhs->kind == NG_JIT_E_NAME &&
        sym_of(L, value->lhs)->kind == SYM_UNBOUND) { /* p, q = helper(x) */
        const NgJitStmt *def = find_def(L, value->lhs->name);
        if (!def && strcmp(value->lhs->name, "divmod") == 0 && n == 2 && !value->nkeywords)
            return divmod_values(L, value, vals, out);
        if (def) {
            for (int i = 0; i < n; i++)
                vals[i] = NOVAL;
            helper_call(L, value, def, n, vals);
            for (int i = 0; i < n; i++)
                if (vals[i].r == NG_IR_NONE)
                    return 0;
            return 1;
        }
    }
    Sym *t = array_name(L, value);
    if (t && t->given->seq == NG_JIT_SEQ_TUPLE) { /* (of another length: Python's ValueError) */
        NgIrRef len = ng_ir_shape(L->k, t->param, 0);
        raise_or_python(L, ng_ir_binary(L->k, NG_OP_NE, NG_BOOL, len, ng_ir_const_i(L->k, NG_INT64, n)),
                        NG_JIT_RAISE_UNPACK, value->span.line);
        for (int i = 0; i < n; i++) {
            NgIrRef at = ng_ir_const_i(L->k, NG_INT64, i);
            vals[i] = mkval(ng_ir_load(L->k, t->param, 1, &at), t->given->dtype, true, t->given->dtype == NG_BOOL);
        }
        return 1;
    }
    return unsupported(L, value->span.line, "unpacking a value that is not a tuple"), 0;
}

/* The memory a name is: a view's array, a helper's parameter the caller's array, else the
 * name's own. */
static const Sym *storage(const Sym *s)
{
    const Sym *b = s->kind == SYM_VIEW ? s->base : s;
    return b->alias ? b->alias : b;
}

static bool reads_storage(Lower *L, const NgJitExpr *e, const Sym *w);

/* Whether e is a reduction (NumPy's, a method, Python's sum/max/...) or a matrix product. */
static bool reduction_or_product(const NgJitExpr *e)
{
    NgJitCallKind call = e->kind == NG_JIT_E_CALL ? ng_jit_call_kind(e) : NG_JIT_CALL_OTHER;
    return call == NG_JIT_CALL_NP_REDUCE || call == NG_JIT_CALL_METHOD ||
           (call == NG_JIT_CALL_BUILTIN && np_reduction(e->lhs->name) != NG_NOPS) ||
           (e->kind == NG_JIT_E_BINARY && e->op == NG_JIT_OP_MATMUL);
}

/* Whether reduction or product e (reduction_or_product) is made at each element of the
 * expression it is in (along an axis, a product of a matrix: row_rank > 0) and reads what `a`
 * names, so that a store of that expression element by element reads elements it has changed
 * (a reduction of all of it is made once before the store's loop). */
static bool reads_across(Lower *L, const NgJitExpr *e, const Sym *a)
{
    return row_rank(L, e) > 0 && reads_storage(L, e, a);
}

/* Whether e reads array `a` otherwise than as the row `row` itself (the same
 * subscript, written alike): X[i] = X[i] * 2 reads each element where it
 * stores it, X[i] = X[i] / X[i][0] reads an element the row's loop changes.
 * Where row is not `plain` (its elements in their own order at a whole row's
 * places: X[i], X[i, :]), any other read of a is: X[i, ::-1] = X[i] * 2
 * reads an element the loop has changed. */
static bool reads_other_than(Lower *L, const NgJitExpr *e, const Sym *a, const NgJitExpr *row, bool plain)
{
    if (!e)
        return false;
    if (reduction_or_product(e) && reads_across(L, e, a))
        return true;
    if (e->kind == NG_JIT_E_SUBSCRIPT) { /* a's rows, read element by element, are what they were */
        int n = 0;
        const NgJitExpr *r = e;
        for (; r->kind == NG_JIT_E_SUBSCRIPT; r = r->lhs) {
            if (reads_other_than(L, r->rhs, a, row, plain))
                return true;
            n += r->rhs->kind == NG_JIT_E_TUPLE ? r->rhs->nitems : 1;
        }
        if (r->kind != NG_JIT_E_NAME)
            return reads_other_than(L, r, a, row, plain);
        const Sym *s = &L->syms[r->name_id];
        if (storage(s) != storage(a))
            return false;
        int fixed = s->kind == SYM_VIEW ? s->nfixed : 0;
        if (ng_jit_expr_equal(e, row))
            return false;
        if (!plain || e->rhs->kind == NG_JIT_E_TUPLE || e->rhs->kind == NG_JIT_E_SLICE)
            return true; /* (X[k, :] and such: not looked into) */
        return fixed + n != a->given->ndim - 1;
    }
    if (e->kind == NG_JIT_E_NAME) { /* a whole (or a view of a row of a: that row) */
        const Sym *s = &L->syms[e->name_id];
        if (s->kind == SYM_EXPR) /* (what its expression reads) */
            return !s->expanding && reads_other_than(L, s->value, a, row, plain);
        if (storage(s) != storage(a) || ng_jit_expr_equal(e, row)) /* (row itself: x[x < 0] = 0) */
            return false;
        return !plain || !(s->kind == SYM_VIEW && s->nfixed == a->given->ndim - 1);
    }
    if (reads_other_than(L, e->lhs, a, row, plain) || reads_other_than(L, e->rhs, a, row, plain) ||
        reads_other_than(L, e->cond, a, row, plain))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (reads_other_than(L, e->items[i], a, row, plain))
            return true;
    if (e->kind == NG_JIT_E_CALL)
        for (int i = 0; i < e->nkeywords; i++)
            if (reads_other_than(L, e->keywords[i].value, a, row, plain))
                return true;
    return false;
}

/* Enters the elementwise expression whose value a store into a part of `nfree` axes takes:
 * var[q] and len[q] its loops' variables and lengths per axis, from the last; the value's rows
 * broadcast to them. */
static RowsSaved enter_store(Lower *L, Rows *rows, int nfree, const int *var, const NgIrRef *len, Stmts *inner)
{
    RowsSaved was = enter_rows(L, rows, var[0], inner);
    rows->hoists = true;
    rows->target_rank = nfree;
    for (int q = 0; q < nfree; q++) {
        rows->elem_var[q] = var[q];
        rows->target[q] = len[q];
    }
    return was;
}

/* ---- a block of columns at once ----
 * A store's value may hold reductions along an axis before the last of a part, each a loop
 * over the rows made at each column (k-means' update, C[k] = X[labels == k].mean(axis=0)):
 * read that way, every column's loop reads all the rows across, once per column. For
 * COLUMNS_AT_ONCE columns at a time, each such loop goes over the rows once instead, the
 * columns inside it, its running values (the variables it assigns that its statement declares
 * before it) an array variable of an element per column; then the block's columns are stored.
 * Each column's elements are taken in the same order as before, so its bits are the same. */
enum { COLUMNS_AT_ONCE = 32 };

static bool assigns(const NgIrKernel *k, NgIrRef r, int v);

/* Marks owner[v] = id for each variable statement r declares (LET, FOR). */
static void declared_by(const NgIrKernel *k, NgIrRef r, int *owner, int id)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_LET || n->kind == NG_IR_FOR)
        owner[n->a] = id;
    if (n->kind >= NG_IR_BLOCK)
        for (int i = 0; i < n->nkids; i++)
            declared_by(k, ng_ir_kid(k, r, i), owner, id);
}

/* Marks owner[v] = INT_MIN for each variable statement r assigns that no reduction declares
 * (owner[v] 0): one the statements after the reductions change at a column, which a reduction
 * of a later column would read changed (reads_others refuses it). */
static void assigned_after(const NgIrKernel *k, NgIrRef r, int *owner)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_ASSIGN && owner[n->a] == 0)
        owner[n->a] = INT_MIN;
    if (n->kind >= NG_IR_BLOCK)
        for (int i = 0; i < n->nkids; i++)
            assigned_after(k, ng_ir_kid(k, r, i), owner);
}

/* Whether r reads or assigns a variable another statement declares (owner[v] neither 0 nor
 * id nor, a let before its own or an earlier one's loop, -1 .. -id), or variable `not` (-1: none). */
static bool reads_others(const NgIrKernel *k, NgIrRef r, const int *owner, int id, int not)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    int o = n->kind == NG_IR_VAR || n->kind == NG_IR_LET || n->kind == NG_IR_ASSIGN || n->kind == NG_IR_FOR
                ? owner[n->a] : 0;
    if ((o > 0 && o != id) || o < -id || (n->kind == NG_IR_VAR && n->a == not))
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (reads_others(k, ng_ir_kid(k, r, i), owner, id, not))
            return true;
    return false;
}

/* Whether loop body r only computes: lets and assignments of scalars its statement declares
 * (owner id), ifs and sequential loops; no store, raise, jump, while or draw. */
static bool computes_only(const NgIrKernel *k, NgIrRef r, const int *owner, int id)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *n = ng_ir_node(k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_LET: case NG_IR_ASSIGN:
        return !k->vars[n->a].len && (owner[n->a] == id || owner[n->a] == -id);
    case NG_IR_FOR:
        if (n->flags & NG_IR_PARALLEL)
            return false;
        return computes_only(k, ng_ir_kid(k, r, 3), owner, id);
    case NG_IR_IF:
        return computes_only(k, ng_ir_kid(k, r, 1), owner, id) && computes_only(k, ng_ir_kid(k, r, 2), owner, id);
    case NG_IR_BLOCK:
        for (int i = 0; i < n->nkids; i++)
            if (!computes_only(k, ng_ir_kid(k, r, i), owner, id))
                return false;
        return true;
    default:
        return false;
    }
}

enum { MAX_ACROSS_LETS = 16 }; /* lets before a reduction's loop (its running values, its element's places) */

/* One of columns_at_once's reductions: its statement's parts. */
typedef struct Across {
    NgIrRef stmt, loop;  /* the hoisted statement, its loop over the rows */
    int first;           /* the loop's place in it: the lets before it are its kids 0 .. first - 1 */
    int arr[MAX_ACROSS_LETS]; /* per let: the array variable of its running values (-1: a let made
                                 again at each column) */
} Across;

/* The statement's lets before its loop with the running ones read from their arrays at column
 * `at` of the block, into s. */
static void across_lets(Lower *L, const Across *a, NgIrRef at, Stmts *s)
{
    NgIrKernel *k = L->k;
    for (int i = 0; i < a->first; i++) {
        NgIrRef let = ng_ir_kid(k, a->stmt, i);
        int v = ng_ir_node(k, let)->a;
        append(L, s, a->arr[i] < 0 ? let : ng_ir_let(k, v, ng_ir_element(k, a->arr[i], at)));
    }
}

/* A store's loop at `level` of its loops over axes order[0 .. nfree) when it is over the last
 * axis of its part (variable c, n trips; its body `inner`, after the hoisted reductions there),
 * with those reductions taken a block of columns at once; NG_IR_NONE (inner as it was) where
 * it is not, or they are not all such reductions (rows' `across`) of plain loops. */
static NgIrRef columns_at_once(Lower *L, const Rows *rows, const int *order, int nfree, int level, int c, NgIrRef n,
                               Stmts *inner)
{
    NgIrKernel *k = L->k;
    Across a[MAX_HOISTED];
    int na = 0;
    if (order[level] != 0)
        return NG_IR_NONE;
    for (int h = 0; h < rows->nhoisted; h++) {
        if (hoist_level(rows, h, order, nfree) != level)
            continue;
        NgIrRef st = rows->hoisted[h].stmt, loop = rows->hoisted[h].across;
        if (loop == NG_IR_NONE || ng_ir_node(k, st)->kind != NG_IR_BLOCK)
            return NG_IR_NONE;
        a[na] = (Across){st, loop, -1, {0}};
        for (int i = 0; i < ng_ir_node(k, st)->nkids && a[na].first < 0; i++)
            if (ng_ir_kid(k, st, i) == loop)
                a[na].first = i;
        if (a[na].first < 0 || a[na].first > MAX_ACROSS_LETS)
            return NG_IR_NONE;
        na++;
    }
    if (na == 0)
        return NG_IR_NONE;
    int *owner = ng_calloc((size_t)k->nvars + 1, sizeof *owner);
    if (!owner) {
        L->st = ng_error_set(NG_ERR_NOMEM, "out of memory lowering a loop");
        return NG_IR_NONE;
    }
    for (int j = 0; j < na; j++) {
        declared_by(k, a[j].stmt, owner, j + 1);
        for (int i = 0; i < a[j].first; i++) /* (read by a later one: its result, say np.var's mean) */
            owner[ng_ir_node(k, ng_ir_kid(k, a[j].stmt, i))->a] = -(j + 1);
    }
    for (int i = 0; i < inner->n; i++)
        assigned_after(k, inner->v[i], owner);
    bool ok = true;
    for (int j = 0; j < na && ok; j++) {
        NgIrRef loop = a[j].loop, body = ng_ir_kid(k, loop, 3);
        ok = !(ng_ir_node(k, loop)->flags & NG_IR_PARALLEL) && computes_only(k, body, owner, j + 1) &&
             !reads_others(k, body, owner, j + 1, -1);
        for (int i = 0; i < 3 && ok; i++) /* (its range: the same at every column) */
            ok = !reads_others(k, ng_ir_kid(k, loop, i), owner, 0, c);
        for (int i = 0; i < a[j].first && ok; i++) {
            NgIrRef let = ng_ir_kid(k, a[j].stmt, i);
            const NgIrNode *ln = ng_ir_node(k, let);
            ok = ln->kind == NG_IR_LET && !k->vars[ln->a].len && !reads_others(k, let, owner, j + 1, -1);
            a[j].arr[i] = ok && assigns(k, body, ln->a) ? ln->a : -1; /* (a running value: its variable, for now) */
            ok = ok && (a[j].arr[i] < 0 || is_const(L, ng_ir_kid(k, let, 0))); /* (starting the same at every
                                                                                   column) */
        }
    }
    ng_free(owner);
    if (!ok)
        return NG_IR_NONE;
    for (int j = 0; j < na; j++) /* (taken: the running values' arrays) */
        for (int i = 0; i < a[j].first; i++)
            if (a[j].arr[i] >= 0)
                a[j].arr[i] = ng_ir_var_array(k, k->vars[a[j].arr[i]].dtype, COLUMNS_AT_ONCE);
    int c0 = ng_ir_var(k, NG_INT64), cc = ng_ir_var(k, NG_INT64); /* (a block's first column; a column in it) */
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1), at = ng_ir_varref(k, cc);
    NgIrRef width = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, ng_ir_const_i(k, NG_INT64, COLUMNS_AT_ONCE),
                                 ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, ng_ir_varref(k, c0)));
    NgIrRef column = ng_ir_let(k, c, ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_varref(k, c0), at));
    Stmts block = {0}, last = {0};
    for (int j = 0; j < na; j++)
        for (int i = 0; i < a[j].first; i++)
            if (a[j].arr[i] >= 0)
                append(L, &block, ng_ir_let(k, a[j].arr[i], ng_ir_kid(k, ng_ir_kid(k, a[j].stmt, i), 0)));
    for (int j = 0; j < na; j++) { /* (each over the rows, the block's columns inside) */
        Stmts cols = {0};
        append(L, &cols, column);
        for (int i = 0; i <= j; i++)
            across_lets(L, &a[i], at, &cols);
        append(L, &cols, ng_ir_kid(k, a[j].loop, 3));
        for (int i = 0; i < a[j].first; i++)
            if (a[j].arr[i] >= 0)
                append(L, &cols, ng_ir_assign_element(k, a[j].arr[i], at,
                                                       ng_ir_varref(k, ng_ir_node(k, ng_ir_kid(k, a[j].stmt, i))->a)));
        NgIrRef cols_loop = ng_ir_for(k, cc, zero, width, one, seal(L, &cols), 0); /* (builders move the pool:
                                                                                     no node pointer kept) */
        int v = ng_ir_node(k, a[j].loop)->a;
        unsigned flags = ng_ir_node(k, a[j].loop)->flags;
        append(L, &block, ng_ir_for(k, v, ng_ir_kid(k, a[j].loop, 0), ng_ir_kid(k, a[j].loop, 1),
                                     ng_ir_kid(k, a[j].loop, 2), cols_loop, flags));
    }
    append(L, &last, column);
    for (int j = 0; j < na; j++) { /* (then each column: the reductions' results, what follows them) */
        across_lets(L, &a[j], at, &last);
        for (int i = a[j].first + 1; i < ng_ir_node(k, a[j].stmt)->nkids; i++)
            append(L, &last, ng_ir_kid(k, a[j].stmt, i));
    }
    for (int i = 0; i < inner->n; i++)
        append(L, &last, inner->v[i]);
    ng_free(inner->v);
    *inner = (Stmts){0};
    append(L, &block, ng_ir_for(k, cc, zero, width, one, seal(L, &last), 0));
    carry_stop(L, &block); /* (a raise at a column: no later block) */
    return ng_ir_for(k, c0, zero, n, ng_ir_const_i(k, NG_INT64, COLUMNS_AT_ONCE), seal(L, &block), 0);
}

/* The loops of such a store around its body `inner` (after restore_rows), over the lengths the
 * value's rows broadcast to (len[q] where it reads none), into out; then, in a sequential kernel,
 * nothing after them runs where they raised. */
static void store_loops(Lower *L, const Rows *rows, int nfree, const int *var, const NgIrRef *len, Stmts *inner,
                        int line, Stmts *out)
{
    NgIrKernel *k = L->k;
    NgIrRef count[MAX_ROW_RANK];
    int rank = rows_length(L, rows, count, line) ? rows->rank : 0;
    int order[MAX_ROW_RANK], in0 = 0, in1 = 0; /* (the loops' axes, the outermost first) */
    for (int q = 0; q < nfree; q++) {
        count[q] = plain_count(L, q < rank ? count[q] : len[q]);
        order[q] = nfree - 1 - q;
    }
    for (int h = 0; h < rows->nhoisted; h++) { /* (hoisted reductions that read axis 0 but not 1, or 1 not 0) */
        in0 += (rows->hoisted[h].axes & 3) == 1;
        in1 += (rows->hoisted[h].axes & 3) == 2;
    }
    if (nfree > 1 && in0 > in1) { /* (X[i] - X[i].mean(axis=0, keepdims=True): the columns outside the rows) */
        order[nfree - 2] = 0;
        order[nfree - 1] = 1;
    }
    NgIrRef loop = columns_at_once(L, rows, order, nfree, nfree - 1, var[order[nfree - 1]], count[order[nfree - 1]],
                                   inner);
    if (loop == NG_IR_NONE) {
        hoist_inner(L, rows, order, nfree, inner);
        loop = ng_ir_for(k, var[order[nfree - 1]], ng_ir_const_i(k, NG_INT64, 0), count[order[nfree - 1]],
                         ng_ir_const_i(k, NG_INT64, 1), seal(L, inner), 0);
    }
    loop = wrap_loops(L, rows, order, nfree, var, count, loop, true);
    push(L, out, loop);
    carry_stop(L, out);
}

/* X[i] = e or X[i] op= e where X[i] is a row (one axis left, or one slice:
 * x[a:b], X[:, j]): a loop over its elements, e's rows read at each (L->elem,
 * as in np_reduce; each broadcast to the row's length, else NumPy's
 * ValueError), its scalars as they are, its NumPy reductions once before the
 * loop. A Python number is stored as into an element (its range checked); a
 * NumPy one casts as NumPy's assignment does. False when t is not a row (the
 * caller stores an element). */
static bool row_store(Lower *L, const NgJitExpr *t, const NgJitExpr *value, NgJitOp op, int line, Stmts *out)
{
    const NgJitExpr *ix[NG_MAXDIMS];
    int n = 0;
    Sym *view;
    const NgJitExpr *mask = NULL; /* (x[m] = v: part x, where m holds) */
    NgJitExpr part, index;
    if (is_mask_index(L, t))
        t = mask_parts(t, &part, &index, &mask);
    if (t->kind != NG_JIT_E_SUBSCRIPT && !(mask && t->kind == NG_JIT_E_NAME))
        return false;
    const NgJitExpr *root = t;
    while (root->kind == NG_JIT_E_SUBSCRIPT)
        root = root->lhs;
    if (root->kind != NG_JIT_E_NAME || (sym_of(L, root)->kind != SYM_ARRAY && sym_of(L, root)->kind != SYM_VIEW))
        return false; /* (not an array: the value's errors first, as Python evaluates it first) */
    Sym *a = index_chain(L, t, ix, &n, &view);
    if (!a)
        return true;
    if (newaxes_in(L, ix, n)) {
        unsupported(L, line, "storing into a part with a new axis (None)");
        return true;
    }
    int gathers = gathers_in(L, ix, n); /* (x[idx] = v: v's elements at idx's places, in order) */
    if (gathers && (op != NG_JIT_OP_NONE || mask)) { /* (x[idx] += 1: NumPy adds once where idx repeats an index) */
        unsupported(L, line, op != NG_JIT_OP_NONE ? "an in-place update of an array indexed by an array of integers "
                                                    "(x[idx] += v: NumPy's adds once at an index idx repeats)"
                                                  : "a boolean mask of an array indexed by an array of integers");
        return true;
    }
    if (gathers > 1) { /* (NumPy pairs their elements up) */
        unsupported(L, line, "storing with two or more arrays of integers as indices (X[a, b] = v)");
        return true;
    }
    bool reads = gathers && reads_storage(L, value, a);
    for (int p = 0; p < n && gathers; p++)
        reads = reads || (is_gather(L, ix[p]) && reads_storage(L, ix[p], a));
    if (reads) {
        unsupported(L, line, "storing into an array indexed by an array of integers a value that reads it (NumPy "
                             "makes the value first; an index idx repeats would read a stored element)");
        return true;
    }
    int fixed = view ? view->nfixed : 0, nd = a->given->ndim, slices = slices_in(ix, n) + gathers;
    int free = slices + nd - fixed - n; /* (the stored part's axes: its slices and gathers, the axes after) */
    if (free < 1 || a->given->seq != NG_JIT_SEQ_ARRAY)
        return false;
    if (immutable(L, a, line))
        return true;
    if (free > MAX_ROW_RANK) {
        unsupported(L, line, "storing a part of more than 4 axes");
        return true;
    }
    if (L->elem != NG_IR_NONE) {
        unsupported(L, line, "storing a row inside a NumPy reduction");
        return true;
    }
    int mrank = mask ? mask_store(L, mask, value, free, line) : 0;
    if (mrank < 0)
        return true;
    bool plain = true; /* (indices, then whole axes `:` only) */
    for (int p = 0; p < n; p++)
        plain = plain && (ix[p]->kind == NG_JIT_E_SLICE ? !ix[p]->lhs && !ix[p]->rhs && !ix[p]->cond
                                                        : p == 0 || ix[p - 1]->kind != NG_JIT_E_SLICE);
    if (reads_other_than(L, value, a, t, plain) || (mask && reads_other_than(L, mask, a, t, plain))) {
        unsupported(L, line, "storing a row of an array its value reads otherwise (NumPy evaluates it first)");
        return true;
    }
    NgIrKernel *k = L->k;
    NgIrRef idx[NG_MAXDIMS], ok = NG_IR_NONE, len[MAX_ROW_RANK];
    int var[MAX_ROW_RANK], d = free; /* per axis of the part, from its last: the loop's variable */
    for (int q = 0; q < free; q++)
        var[q] = ng_ir_var(k, NG_INT64);
    view_indices(L, view, idx, &ok);
    int gp = -1, gd = -1; /* (a gather: its index, its axis of the part, read in the loops below) */
    for (int p = 0; p < n; p++) { /* (the part's indices and windows, before its loops) */
        if (is_gather(L, ix[p])) {
            gp = p;
            gd = --d;
            if ((len[gd] = gather_length(L, ix[p])) == NG_IR_NONE)
                return true;
            continue;
        }
        if (ix[p]->kind == NG_JIT_E_SLICE) {
            NgIrRef start;
            int64_t step;
            if (!window_vars(L, a, fixed + p, ix[p], &start, &len[--d], &step))
                return true;
            NgIrRef at = ng_ir_varref(k, var[d]);
            if (step != 1)
                at = ng_ir_binary(k, NG_OP_MUL, NG_INT64, at, ng_ir_const_i(k, NG_INT64, step));
            idx[fixed + p] = ng_ir_binary(k, NG_OP_ADD, NG_INT64, start, at);
            continue;
        }
        L->storing = true; /* (a row stored: its fixed indices checked) */
        NgIrRef i = index_value(L, a, fixed + p, ix[p], &ok);
        L->storing = false;
        if (i == NG_IR_NONE)
            return true;
        int v = ng_ir_var(k, NG_INT64);
        push(L, out, ng_ir_let(k, v, i));
        idx[fixed + p] = ng_ir_varref(k, v);
    }
    for (int ax = fixed + n; ax < nd; ax++) {
        len[--d] = ng_ir_shape(k, a->param, ax);
        idx[ax] = ng_ir_varref(k, var[d]);
    }
    Stmts inner = {0};
    Rows rows;
    RowsSaved was = enter_store(L, &rows, free, var, len, &inner);
    if (gp >= 0) /* (its element at the loop's place on its axis) */
        idx[fixed + gp] = gathered(L, a, fixed + gp, ix[gp], gd, &ok);
    NgDType dt = a->given->dtype;
    Val where = mask ? mask_of(L, mask, mrank, free, line) : NOVAL; /* (first: NumPy makes the mask before the
                                                                       value) */
    Val v = mask && where.r == NG_IR_NONE ? NOVAL : expr(L, value);
    if (op != NG_JIT_OP_NONE && v.r != NG_IR_NONE) { /* in place, NumPy's same-kind casting */
        Val cur = mkval(guarded_load(L, a, idx, ok), dt, false, false);
        v = arith(L, op, cur, v, line);
        if (v.r != NG_IR_NONE && !same_kind_cast(v.dt, dt))
            unsupported(L, line, "an in-place update of a row whose result is of another kind (NumPy's "
                                 "UFuncTypeError)");
    }
    if (v.r != NG_IR_NONE && v.weak && ng_dtype_is_complex(v.dt) && !ng_dtype_is_complex(dt) && dt != NG_BOOL)
        unsupported(L, line, "storing a Python complex into an array of real numbers");
    if (v.r != NG_IR_NONE && v.weak)
        int_conversion(L, v, dt, true, line);
    if (v.r != NG_IR_NONE && L->st == NG_OK) { /* (after its checks) */
        NgIrRef st = guarded(L, ok, ng_ir_store(k, a->param, nd, idx, store_cast(L, v, dt)));
        append(L, &inner, mask ? ng_ir_if(k, where.r, st, NG_IR_NONE) : st);
    }
    restore_rows(L, was);
    if (mask && v.r != NG_IR_NONE && L->st == NG_OK)
        mask_lengths(L, &rows, len, line);
    if (v.r != NG_IR_NONE && L->st == NG_OK && rows.rank > free)
        unsupported(L, line, "storing a value of more axes than the part it goes into (NumPy's ValueError)");
    if (v.r == NG_IR_NONE || L->st != NG_OK) {
        ng_free(inner.v);
        return true;
    }
    mark_written(L, a);
    store_loops(L, &rows, free, var, len, &inner, line, out);
    return true;
}

/* e = <an elementwise expression of rows> (SYM_EXPR): its reads compute it; here, where Python
 * makes the array, only what NumPy would raise making it (its rows' lengths not broadcasting,
 * their indices). */
static void expr_let(Lower *L, const NgJitExpr *value, int line)
{
    Stmts inner = {0};
    Rows rows;
    RowsSaved was = enter_rows(L, &rows, ng_ir_var(L->k, NG_INT64), &inner);
    rows.masks = selects(L, value); /* (pos = x[x > 0]: its mask's shape x's) */
    Val x = expr(L, value);
    restore_rows(L, was);
    NgIrRef n[MAX_ROW_RANK];
    if (x.r != NG_IR_NONE && L->st == NG_OK && rows_length(L, &rows, n, line) && rows.mask != NG_IR_NONE)
        mask_lengths(L, &rows, NULL, line);
    ng_free(inner.v);
}

/* ---- small arrays the loop makes (SYM_BUF) ----
 *
 * `a = np.zeros(3)` inside the loop (np.ones, np.empty, np.full; scan_bufs): each element is a
 * variable of the kernel, private to the iteration in a parallel loop. a[k] reads and writes
 * them (a constant k: the variable itself; the counter of a loop over range(c), acc[k], or of a
 * row's loop, `a` whole in NumPy's elementwise operations and reductions: a select among them,
 * which the compilers fold in the loop they unroll), and `a += v`, `a[:] = v` store such an
 * expression into it. An array indexed by anything else (h[x & 15] += 1: buf_axis) or longer
 * than MAX_BUF_VARS is instead one array variable of the kernel (buf_mem), read and written
 * element by element: a select among its elements would cost one per element at every
 * access. */

/* The dtype a dtype argument names (np.float32, float, 'int32'), NG_NODTYPE for none. */
static NgDType named_dtype(const NgJitExpr *t)
{
    typedef struct { const char *name; NgDType dt; } Name;
    static const Name builtins[] = { /* (also np.<name> and strings) */
        {"float", NG_FLOAT64}, {"int", NG_INT64}, {"bool", NG_BOOL}, {"complex", NG_COMPLEX128},
    };
    static const Name aliases[] = { /* np.<alias>, or a string */
        {"bool_", NG_BOOL}, {"double", NG_FLOAT64}, {"single", NG_FLOAT32}, {"half", NG_FLOAT16},
        {"intp", NG_INT64}, {"int_", NG_INT64}, {"uintp", NG_UINT64}, {"cdouble", NG_COMPLEX128},
        {"csingle", NG_COMPLEX64}, {"byte", NG_INT8}, {"ubyte", NG_UINT8}, {"short", NG_INT16},
        {"ushort", NG_UINT16}, {"intc", NG_INT32}, {"uintc", NG_UINT32}, {"longlong", NG_INT64},
        {"ulonglong", NG_UINT64},
    };
    const char *n = t->kind == NG_JIT_E_STR ? t->str : t->kind == NG_JIT_E_NAME || t->kind == NG_JIT_E_ATTR ? t->name
                                                                                                               : NULL;
    if (!n)
        return NG_NODTYPE;
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        if (strcmp(n, builtins[i].name) == 0)
            return builtins[i].dt;
    if (t->kind == NG_JIT_E_NAME)
        return NG_NODTYPE;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strcmp(n, aliases[i].name) == 0)
            return aliases[i].dt;
    return ng_dtype_from_name(n);
}

static Val buf_unknown(Lower *L, Sym *s, int line)
{
    if (!L->unknown_line) {
        L->unknown_line = line;
        snprintf(L->unknown_msg, sizeof L->unknown_msg, "array '%s' is used before it is made", s->name);
    }
    return NOVAL;
}

/* The element of buffer s among [lo, hi) that i (an int64 in that range) is: selects halving the
 * range (a tree of depth log2 of the length, not a chain of its length). */
static NgIrRef buf_pick(Lower *L, const Sym *s, NgIrRef i, int64_t lo, int64_t hi)
{
    NgIrKernel *k = L->k;
    if (hi - lo == 1)
        return ng_ir_varref(k, s->buf_var[lo]);
    int64_t mid = lo + (hi - lo) / 2;
    return ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, i, ng_ir_const_i(k, NG_INT64, mid)),
                        buf_pick(L, s, i, lo, mid), buf_pick(L, s, i, mid, hi));
}

/* Element i (an int64 in range) of buffer s. */
static NgIrRef buf_at(Lower *L, const Sym *s, NgIrRef i)
{
    if (s->buf_mem)
        return ng_ir_element(L->k, s->buf_arr, i);
    if (is_const(L, i))
        return ng_ir_varref(L->k, s->buf_var[const_i(L, i)]);
    return buf_pick(L, s, i, 0, s->nbuf);
}

/* Element i (an int64; out of range: no element) of buffer s = v (of its dtype), appended to
 * out (after the pending checks, except in an elementwise expression's loop, whose own they
 * are). */
static void buf_put(Lower *L, const Sym *s, NgIrRef i, NgIrRef v, Stmts *out)
{
    NgIrKernel *k = L->k;
    void (*add)(Lower *, Stmts *, NgIrRef) = L->rows ? append : push;
    if (s->buf_mem) {
        add(L, out, ng_ir_assign_element(k, s->buf_arr, i, v));
        return;
    }
    if (is_const(L, i)) {
        add(L, out, ng_ir_assign(k, s->buf_var[const_i(L, i)], v));
        return;
    }
    int t = ng_ir_var(k, s->dt);
    add(L, out, ng_ir_let(k, t, v));
    for (int64_t j = 0; j < s->nbuf; j++) {
        NgIrRef at = ng_ir_binary(k, NG_OP_EQ, NG_BOOL, i, ng_ir_const_i(k, NG_INT64, j));
        append(L, out, ng_ir_assign(k, s->buf_var[j], ng_ir_select(k, at, ng_ir_varref(k, t),
                                                                   ng_ir_varref(k, s->buf_var[j]))));
    }
}

/* Whether int64 i is known to lie in [0, n) by its form: x & c or x % c (Python's sign, an
 * integer's) with a constant c that keeps it there. */
static bool below(const Lower *L, NgIrRef i, int64_t n)
{
    const NgIrNode *x = ng_ir_node(L->k, i);
    if (x->kind != NG_IR_BINARY || (x->op != NG_OP_BITAND && x->op != NG_OP_MOD))
        return false;
    for (int side = x->op == NG_OP_MOD; side < 2; side++) {
        NgIrRef c = ng_ir_kid(L->k, i, side);
        if (is_const(L, c) && const_i(L, c) >= 0 && const_i(L, c) < n + (x->op == NG_OP_MOD) &&
            (x->op == NG_OP_BITAND || const_i(L, c) > 0))
            return true;
    }
    return false;
}

/* Index ix on axis d of buffer s as an int64, NONE after an error: in [0, its length) where
 * its form keeps it there (a constant, checked here; a counter of a loop over a part of the
 * axis; x & c, x % c), else from the end where negative, with *in (NG_IR_NONE: true) and-ed
 * with its being in range; under boundscheck one out of range is reported as NumPy's
 * IndexError. */
static NgIrRef buf_axis(Lower *L, Sym *s, int d, const NgJitExpr *ix, NgIrRef *in)
{
    NgIrKernel *k = L->k;
    int line = ix->span.line;
    Val v = expr(L, ix);
    if (v.r == NG_IR_NONE)
        return NG_IR_NONE;
    if (v.dt == NG_BOOL || !ng_dtype_is_int(v.dt) || v.chr)
        return fail(L, line, v.dt == NG_BOOL ? NG_ERR_UNSUPPORTED : NG_ERR_TYPE,
                    "only integers are valid indices (got '%s')", v.chr ? "str" : type_name(v)), NG_IR_NONE;
    NgIrRef i = as(L, v, NG_INT64);
    int64_t len = s->bshape[d];
    v.nonneg = v.nonneg || kind_of(v.dt) == NG_KIND_UINT;
    if (v.within < 0 && -(int64_t)v.within <= len && !is_const(L, i)) {
        /* a counter of a loop over a part of its range: a loop the next pass unrolls */
        Sym *c = ix->kind == NG_JIT_E_NAME ? sym_of(L, ix) : NULL;
        if (c && c->bound && !c->unroll && !s->buf_mem) {
            c->unroll = 1;
            L->changed = true;
        }
        return i;
    }
    if (is_const(L, i)) { /* (out of range: Python's IndexError, where it is reached) */
        int64_t c = const_i(L, i) < 0 && !v.nonneg ? const_i(L, i) + len : const_i(L, i);
        if (c < 0 || c >= len || (kind_of(v.dt) == NG_KIND_UINT && const_i(L, i) < 0)) {
            char what[160];
            snprintf(what, sizeof what, "an index out of range of '%s' (an array made in the loop)", s->name);
            return unsupported(L, line, what), NG_IR_NONE;
        }
        return ng_ir_const_i(k, NG_INT64, c);
    }
    NgIrRef n = ng_ir_const_i(k, NG_INT64, len), w = wrap_index(L, v, n, d, true, NULL, line);
    if (!s->buf_mem) { /* (an index from the data: the next pass makes s one array variable) */
        s->buf_mem = true;
        L->changed = true;
    }
    if (w == NG_IR_NONE || below(L, w, len))
        return w;
    NgIrRef ok = ng_ir_binary(k, NG_OP_LT, NG_BOOL, ng_ir_cast(k, NG_UINT64, w), ng_ir_cast(k, NG_UINT64, n));
    *in = *in == NG_IR_NONE ? ok : ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, *in, ok);
    return w;
}

/* The indices of subscript e (a chain of them: a[i, j], a[i][j], a[i], a[:, j]) into buffer s:
 * ix[d] per axis, NULL for a whole one (`:`, or an axis after the indices). False after the
 * error (another slice, a slice before a further subscript, more indices than axes). */
static bool buf_indices(Lower *L, const Sym *s, const NgJitExpr *e, const NgJitExpr **ix)
{
    const NgJitExpr *chain[NG_JIT_MAX_NEW_RANK + 1];
    int nchain = 0, n = 0;
    while (e->kind == NG_JIT_E_SUBSCRIPT) { /* (through locals naming parts: r[j] of r = a[i]) */
        if (nchain == NG_JIT_MAX_NEW_RANK + 1)
            return unsupported(L, e->span.line, "more indices than an array made in the loop has axes"), false;
        chain[nchain++] = e;
        e = e->lhs;
        if (e->kind == NG_JIT_E_NAME && sym_of(L, e)->kind == SYM_EXPR)
            e = sym_of(L, e)->value;
    }
    for (int c = nchain - 1; c >= 0; c--) {
        const NgJitExpr *r = chain[c]->rhs;
        int m = r->kind == NG_JIT_E_TUPLE ? r->nitems : 1;
        for (int j = 0; j < m; j++) {
            const NgJitExpr *x = r->kind == NG_JIT_E_TUPLE ? r->items[j] : r;
            char what[200];
            bool whole = x->kind == NG_JIT_E_SLICE && !x->lhs && !x->rhs && !x->cond;
            const char *bad = x->kind == NG_JIT_E_SLICE && !whole ? "a slice other than `:` of"
                              : whole && c > 0                    ? "a slice indexed again, of"
                              : n == s->brank                     ? "more indices than the axes of"
                              : is_gather(L, x) && (s->brank > 1 || nchain > 1)
                                  ? "indexing by an array of integers (other than of one axis alone) of" /* (its
                                                                                   axis is not the row's) */
                                  : NULL;
            if (bad) {
                snprintf(what, sizeof what, "%s '%s' (an array made in the loop)", bad, s->name);
                return unsupported(L, x->span.line, what), false;
            }
            ix[n++] = whole ? NULL : x;
        }
    }
    while (n < s->brank)
        ix[n++] = NULL;
    return true;
}

/* a * m + b (int64s, constants folded). */
static NgIrRef mul_add(Lower *L, NgIrRef a, int64_t m, NgIrRef b)
{
    NgIrKernel *k = L->k;
    if (is_const(L, a) && is_const(L, b))
        return ng_ir_const_i(k, NG_INT64, const_i(L, a) * m + const_i(L, b));
    if (is_const(L, a) && const_i(L, a) == 0)
        return b;
    return ng_ir_binary(k, NG_OP_ADD, NG_INT64, ng_ir_binary(k, NG_OP_MUL, NG_INT64, a, ng_ir_const_i(k, NG_INT64, m)),
                        b);
}

/* The element of buffer s (in row-major order) at indices ix[d] (buf_indices), at[d] on the
 * axes where ix[d] is NULL: an int64 in range, for an index out of range the spare element;
 * NONE after an error. */
static NgIrRef buf_place(Lower *L, Sym *s, const NgJitExpr *const *ix, const NgIrRef *at)
{
    NgIrRef flat = ng_ir_const_i(L->k, NG_INT64, 0), in = NG_IR_NONE;
    for (int d = 0; d < s->brank; d++) {
        NgIrRef i = ix[d] ? buf_axis(L, s, d, ix[d], &in) : at[d];
        if (i == NG_IR_NONE)
            return NG_IR_NONE;
        flat = mul_add(L, flat, s->bshape[d], i);
    }
    if (in == NG_IR_NONE) /* (out of range: NumPy's IndexError, reported under boundscheck) */
        return flat;
    return ng_ir_select(L->k, in, flat, ng_ir_const_i(L->k, NG_INT64, s->nbuf));
}

static Val buf_elem(Lower *L, Sym *s, NgIrRef i)
{
    return mkval(buf_at(L, s, i), s->dt, false, s->dt == NG_BOOL || kind_of(s->dt) == NG_KIND_UINT);
}

/* The part of buffer s at indices ix (buf_indices) in an elementwise expression of rows: the
 * element the expression's loop is at, its whole axes the expression's last ones. */
static Val buf_part(Lower *L, Sym *s, const NgJitExpr *const *ix, int line)
{
    if (L->elem == NG_IR_NONE) {
        char what[200];
        snprintf(what, sizeof what, "'%s' (an array made in the loop) used other than indexed, or whole in NumPy's "
                 "elementwise operations and reductions", s->name);
        return unsupported(L, line, what);
    }
    if (s->dt == NG_NODTYPE)
        return buf_unknown(L, s, line);
    int nwhole = 0, q = 0;
    for (int d = 0; d < s->brank; d++)
        nwhole += !ix[d];
    NgIrRef at[NG_JIT_MAX_NEW_RANK];
    for (int d = 0; d < s->brank; d++)
        at[d] = ix[d] ? NG_IR_NONE : row_index(L, ng_ir_const_i(L->k, NG_INT64, s->bshape[d]), nwhole - 1 - q++, line);
    NgIrRef i = buf_place(L, s, ix, at);
    return i == NG_IR_NONE ? NOVAL : buf_elem(L, s, i);
}

/* a[...] of buffer s (e the subscript): an element, or a part in an elementwise expression. */
static Val buf_load(Lower *L, Sym *s, const NgJitExpr *e)
{
    const NgJitExpr *ix[NG_JIT_MAX_NEW_RANK];
    if (!buf_indices(L, s, e, ix))
        return NOVAL;
    for (int d = 0; d < s->brank; d++)
        if (!ix[d])
            return buf_part(L, s, ix, e->span.line);
    if (s->dt == NG_NODTYPE)
        return buf_unknown(L, s, e->span.line);
    NgIrRef i = buf_place(L, s, ix, NULL);
    return i == NG_IR_NONE ? NOVAL : buf_elem(L, s, i);
}

/* a whole, in an elementwise expression of rows: the element the expression's loop is at. */
static Val buf_row(Lower *L, Sym *s, int line)
{
    const NgJitExpr *ix[NG_JIT_MAX_NEW_RANK] = {NULL};
    return buf_part(L, s, ix, line);
}

/* a.shape[ix] of buffer s. */
static Val buf_shape(Lower *L, Sym *s, const NgJitExpr *ix)
{
    Val k = ix->kind == NG_JIT_E_SLICE || ix->kind == NG_JIT_E_TUPLE ? NOVAL : expr(L, ix);
    if (k.r == NG_IR_NONE || !is_const(L, k.r) || !ng_dtype_is_int(k.dt))
        return L->st != NG_OK ? NOVAL : unsupported(L, ix->span.line, "a shape index that is not a constant integer");
    int64_t d = const_i(L, k.r);
    if (d < -s->brank || d >= s->brank)
        return fail(L, ix->span.line, NG_ERR_INDEX, "tuple index out of range (a %d-dimensional array)", s->brank);
    return int_const(L, s->bshape[d < 0 ? d + s->brank : d]);
}

/* The value v stored into buffer s as NumPy stores it, NONE after an error: no Python complex
 * into reals, a Python int in range; an element's store (`element`) checks a float or NumPy
 * integer as NumPy's setitem does (NaN, out of range), a copy of values (np.full's, a row's)
 * casts them. */
static NgIrRef buf_value(Lower *L, const Sym *s, Val v, bool element, int line)
{
    if (v.r == NG_IR_NONE || L->st != NG_OK)
        return NG_IR_NONE;
    if (v.chr)
        return unsupported(L, line, "storing a str into an array"), NG_IR_NONE;
    if (ng_dtype_is_complex(v.dt) && !ng_dtype_is_complex(s->dt) && s->dt != NG_BOOL)
        return unsupported(L, line, "storing a complex into an array of real numbers"), NG_IR_NONE;
    if (v.weak || element)
        int_conversion(L, v, s->dt, true, line);
    return L->st == NG_OK ? store_cast(L, v, s->dt) : NG_IR_NONE;
}

static void buf_rows(Lower *L, Sym *s, const NgJitExpr *const *ix, const NgJitExpr *mask, const NgJitExpr *value,
                     NgJitOp op, int line, Stmts *out);

/* The dtype of x in np.zeros_like(x) (a part of a free array, of a view of one, or of a small
 * array: like_shape), NG_NODTYPE where it has none yet. */
static NgDType like_dtype(Lower *L, const NgJitExpr *x)
{
    while (x->kind == NG_JIT_E_SUBSCRIPT)
        x = x->lhs;
    const Sym *s = sym_of(L, x);
    s = s->kind == SYM_VIEW ? s->base : s;
    return s->kind == SYM_BUF ? s->dt : s->given ? s->given->dtype : NG_NODTYPE;
}

/* a = np.zeros(n) (np.ones, np.empty, np.full; their _like, a copy) of buffer s: every element set. */
static void buf_make(Lower *L, Sym *s, const NgJitExpr *call, Stmts *out)
{
    int line = call->span.line;
    NgJitNewArray na;
    ng_jit_new_array(call, &na); /* (scan_bufs: made by one) */
    const NgJitExpr *t = na.dtype;
    NgDType dt = t ? named_dtype(t) : na.like ? like_dtype(L, na.like) : NG_FLOAT64;
    if (t && t->kind == NG_JIT_E_ATTR && strcmp(t->name, "dtype") == 0) { /* x.dtype: an array's */
        Sym *of = t->lhs->kind == NG_JIT_E_NAME ? sym_of(L, t->lhs) : NULL;
        of = of && of->kind == SYM_VIEW ? of->base : of;
        dt = !of ? NG_NODTYPE : of->kind == SYM_BUF ? of->dt
             : of->kind == SYM_ARRAY && of->given->seq == NG_JIT_SEQ_ARRAY ? of->given->dtype : NG_NODTYPE;
    }
    if (na.dtype && (dt == NG_NODTYPE || !usable(dt))) {
        char buf[80], what[200];
        snprintf(what, sizeof what, "an array of dtype %s", snip(L, na.dtype, buf, sizeof buf));
        unsupported(L, line, what);
        return;
    }
    if (dt == NG_NODTYPE) { /* (like a small array not typed yet: the next pass) */
        buf_unknown(L, s, line);
        return;
    }
    if (na.like && na.fn != 'c') /* (what Python raises making x[i], np.zeros_like reads only its shape) */
        expr_let(L, na.like, line);
    Val f = na.fn == 'o' ? int_const(L, 1) : int_const(L, 0);
    if (na.fn == 'f') {
        f = expr(L, na.fill);
        if (f.r == NG_IR_NONE)
            return;
        if (!na.dtype && !na.like) /* (NumPy's: the value's own, a Python number's default) */
            dt = f.weak ? weak_dtype(weak_rank(f.dt)) : f.dt;
    }
    if (s->dt == NG_NODTYPE) {
        s->dt = dt;
        L->changed = true;
    } else if (s->dt != dt) {
        char what[200];
        snprintf(what, sizeof what, "'%s' made as arrays of two dtypes (%s, %s)", s->name,
                 ng_dtype_info(s->dt)->name, ng_dtype_info(dt)->name);
        unsupported(L, line, what);
        return;
    }
    f.weak = f.weak || na.fn != 'f';
    Val v = pin(L, mkval(buf_value(L, s, f, false, line), dt, false, false), out);
    NgIrKernel *k = L->k;
    if (v.r != NG_IR_NONE && s->buf_mem) { /* (an array variable: a loop over its elements) */
        int e = ng_ir_var(k, NG_INT64);
        NgIrRef set = ng_ir_assign_element(k, s->buf_arr, ng_ir_varref(k, e), v.r);
        push(L, out, ng_ir_for(k, e, ng_ir_const_i(k, NG_INT64, 0), ng_ir_const_i(k, NG_INT64, s->nbuf),
                               ng_ir_const_i(k, NG_INT64, 1), set, 0));
    }
    for (int64_t j = 0; v.r != NG_IR_NONE && !s->buf_mem && j < s->nbuf; j++)
        push(L, out, ng_ir_assign(k, s->buf_var[j], v.r));
    if (na.fn == 'c' && v.r != NG_IR_NONE) { /* a copy: the part's elements, as a[:] = x */
        const NgJitExpr *whole[NG_JIT_MAX_NEW_RANK] = {0};
        buf_rows(L, s, whole, NULL, na.like, NG_JIT_OP_NONE, line, out);
    }
}

/* a[k] = v or a[k] op= v (op NONE for `=`) of buffer s: an element, at indices ix (buf_indices)
 * of target t, value already lowered (aug: not yet: `value` is its expression). */
static void buf_store(Lower *L, Sym *s, const NgJitExpr *t, const NgJitExpr *const *ix, NgJitOp op,
                      const NgJitExpr *value, Val v, Stmts *out)
{
    int line = t->span.line;
    if (s->dt == NG_NODTYPE) {
        buf_unknown(L, s, line);
        return;
    }
    NgIrRef i = buf_place(L, s, ix, NULL);
    if (i == NG_IR_NONE)
        return;
    i = pin(L, mkval(i, NG_INT64, false, true), out).r;
    if (op != NG_JIT_OP_NONE) {
        Val r = pin(L, expr(L, value), out);
        if (r.r == NG_IR_NONE)
            return;
        NgIrRef zero = ng_ir_const_i(L->k, NG_INT64, 0);
        if (!is_const(L, i) && !s->buf_mem && (op == NG_JIT_OP_ADD || op == NG_JIT_OP_SUB || op == NG_JIT_OP_MUL) &&
            arith(L, op, buf_elem(L, s, zero), r, line).dt == s->dt) {
            /* each element updated where it is the one, no select tree reading it first (h[x] += 1
             * of a histogram: a few independent operations per element); of the buffer's own
             * dtype, so no element's value is checked for a store it does not get */
            for (int64_t j = 0; L->st == NG_OK && j < s->nbuf; j++) {
                NgIrRef at = ng_ir_const_i(L->k, NG_INT64, j), cur = ng_ir_varref(L->k, s->buf_var[j]);
                Val x = arith(L, op, buf_elem(L, s, at), r, line);
                NgIrRef is = ng_ir_binary(L->k, NG_OP_EQ, NG_BOOL, i, at);
                if (x.r != NG_IR_NONE)
                    push(L, out, ng_ir_assign(L->k, s->buf_var[j], ng_ir_select(L->k, is, x.r, cur)));
            }
            return;
        }
        v = arith(L, op, buf_elem(L, s, i), r, line);
    }
    NgIrRef x = buf_value(L, s, v, true, line);
    if (x != NG_IR_NONE)
        buf_put(L, s, i, x, out);
}

/* Whether e, the value stored into a part of SYM_BUF s (`whole`: all of it) element by element,
 * reads s otherwise than whole at the element stored (an element, a[:] = a[0] + a, or inside a
 * reduction along an axis or a matrix product, which read others): the loop has changed some.
 * A reduction of all of s (a[:] = a / np.sum(a)) is made before the loop. */
static bool buf_reads_other(Lower *L, const NgJitExpr *e, const Sym *s, bool whole)
{
    if (!e)
        return false;
    if (e->kind == NG_JIT_E_NAME) {
        Sym *n = sym_of(L, e);
        if (n->kind == SYM_EXPR && !n->expanding) { /* (what its expression reads) */
            n->expanding = true;
            bool r = buf_reads_other(L, n->value, s, whole);
            n->expanding = false;
            return r;
        }
        return n == s && !whole;
    }
    const NgJitExpr *base = e->kind == NG_JIT_E_SUBSCRIPT ? subscript_base(e) : NULL;
    if (base && sym_of(L, base) == s)
        return true;
    if (reduction_or_product(e))
        return reads_across(L, e, s);
    if (buf_reads_other(L, e->lhs, s, whole) || buf_reads_other(L, e->rhs, s, whole) ||
        buf_reads_other(L, e->cond, s, whole))
        return true;
    for (int i = 0; i < e->nitems; i++)
        if (buf_reads_other(L, e->items[i], s, whole))
            return true;
    for (int i = 0; e->kind == NG_JIT_E_CALL && i < e->nkeywords; i++)
        if (buf_reads_other(L, e->keywords[i].value, s, whole))
            return true;
    return false;
}

/* a op= value, a[...] = value (op NONE) of buffer s, its part at indices ix (buf_indices; a
 * whole: all NULL): value an elementwise expression of rows (or a number), stored element by
 * element (it reads a only at the element it stores). */
static void buf_rows(Lower *L, Sym *s, const NgJitExpr *const *ix, const NgJitExpr *mask, const NgJitExpr *value,
                     NgJitOp op, int line, Stmts *out)
{
    NgIrKernel *k = L->k;
    if (L->elem != NG_IR_NONE) {
        unsupported(L, line, "storing a row inside a NumPy reduction");
        return;
    }
    if (s->dt == NG_NODTYPE) {
        buf_unknown(L, s, line);
        return;
    }
    int var[NG_JIT_MAX_NEW_RANK], nwhole = 0; /* per whole axis, from the last: the loop's variable */
    NgIrRef len[NG_JIT_MAX_NEW_RANK], at[NG_JIT_MAX_NEW_RANK];
    for (int d = 0; d < s->brank; d++)
        nwhole += !ix[d];
    for (int d = 0, q = nwhole; d < s->brank; d++)
        if (!ix[d]) {
            var[--q] = ng_ir_var(k, NG_INT64);
            len[q] = ng_ir_const_i(k, NG_INT64, s->bshape[d]);
            at[d] = ng_ir_varref(k, var[q]);
        }
    if (buf_reads_other(L, value, s, nwhole == s->brank) || (mask && buf_reads_other(L, mask, s, nwhole == s->brank))) {
        unsupported(L, line, "storing into an array made in the loop a value that reads it otherwise than "
                             "whole (NumPy evaluates it first)");
        return;
    }
    int mrank = mask ? mask_store(L, mask, value, nwhole, line) : 0; /* (a[m] = v: a number where m holds) */
    if (mrank < 0)
        return;
    Stmts inner = {0}, put = {0};
    Rows rows;
    RowsSaved was = enter_store(L, &rows, nwhole, var, len, &inner);
    Val where = mask ? mask_of(L, mask, mrank, nwhole, line) : NOVAL;
    Val v = mask && where.r == NG_IR_NONE ? NOVAL : expr(L, value);
    NgIrRef place = v.r == NG_IR_NONE ? NG_IR_NONE : buf_place(L, s, ix, at); /* (the value first, as NumPy) */
    if (op != NG_JIT_OP_NONE && place != NG_IR_NONE) { /* in place, NumPy's same-kind casting */
        v = arith(L, op, buf_elem(L, s, place), v, line);
        if (v.r != NG_IR_NONE && !same_kind_cast(v.dt, s->dt))
            unsupported(L, line, "an in-place update of an array whose result is of another kind (NumPy's "
                                 "UFuncTypeError)");
    }
    NgIrRef x = place == NG_IR_NONE ? NG_IR_NONE : buf_value(L, s, v, false, line);
    if (x != NG_IR_NONE)
        buf_put(L, s, place, x, mask ? &put : &inner);
    if (x != NG_IR_NONE && mask)
        append(L, &inner, ng_ir_if(k, where.r, seal(L, &put), NG_IR_NONE));
    restore_rows(L, was);
    if (mask && x != NG_IR_NONE && L->st == NG_OK)
        mask_lengths(L, &rows, len, line);
    if (x != NG_IR_NONE && L->st == NG_OK && rows.rank > nwhole)
        unsupported(L, line, "storing a value of more axes than the array it goes into (NumPy's ValueError)");
    if (x == NG_IR_NONE || L->st != NG_OK) {
        ng_free(inner.v);
        return;
    }
    store_loops(L, &rows, nwhole, var, len, &inner, line, out);
}

/* Whether statement s is one buffer statement (lowered here): `a = np.zeros(n)`, `a[k] = v`,
 * `a[k] op= v`, `a op= v`, `a[:] = v` of a buffer a. */
static bool buf_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    const NgJitExpr *t = s->kind == NG_JIT_S_AUGASSIGN ? s->target
                         : s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 ? s->targets[0] : NULL;
    Sym *b = !t                                                           ? NULL
             : t->kind == NG_JIT_E_SUBSCRIPT                              ? buf_root(L, t)
             : t->kind == NG_JIT_E_NAME && sym_of(L, t)->kind == SYM_BUF ? sym_of(L, t)
                                                                          : NULL;
    if (!b)
        return false;
    NgJitOp op = s->kind == NG_JIT_S_AUGASSIGN ? s->op : NG_JIT_OP_NONE;
    const NgJitExpr *ix[NG_JIT_MAX_NEW_RANK] = {NULL}, *mask = NULL;
    NgJitExpr part_of_t, index;
    if (is_mask_index(L, t)) { /* (a[m] = v: into a's part, where m holds) */
        t = mask_parts(t, &part_of_t, &index, &mask);
        if (t->kind == NG_JIT_E_NAME) {
            buf_rows(L, b, ix, mask, s->value, op, s->span.line, out);
            return true;
        }
    }
    bool part = t->kind == NG_JIT_E_NAME;
    if (t->kind == NG_JIT_E_NAME && op == NG_JIT_OP_NONE) {
        buf_make(L, b, s->value, out);
        return true;
    }
    if (t->kind == NG_JIT_E_SUBSCRIPT && !buf_indices(L, b, t, ix))
        return true;
    for (int d = 0; d < b->brank; d++)
        part = part || !ix[d];
    if (part || mask)
        buf_rows(L, b, ix, mask, s->value, op, s->span.line, out);
    else
        buf_store(L, b, t, ix, op, s->value, op == NG_JIT_OP_NONE ? expr(L, s->value) : NOVAL, out);
    return true;
}

static void assign_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    if (buf_stmt(L, s, out))
        return;
    if (s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME && sym_of(L, s->targets[0])->kind == SYM_EXPR) {
        expr_let(L, s->value, s->span.line);
        return;
    }
    if (s->ntargets == 1 && row_store(L, s->targets[0], s->value, NG_JIT_OP_NONE, s->span.line, out))
        return;
    for (int t = 0; t < s->ntargets; t++) {
        const NgJitExpr *tg = s->targets[t];
        if (tg->kind == NG_JIT_E_TUPLE || tg->kind == NG_JIT_E_LIST) {
            if (s->ntargets > 1) {
                unsupported(L, s->span.line, "a chained assignment with a tuple target");
                return;
            }
            Val vals[64];
            if (tg->nitems > 64) {
                unsupported(L, s->span.line, "unpacking more than 64 values");
                return;
            }
            if (!unpack_values(L, s->value, tg->nitems, vals, out))
                return;
            for (int i = 0; i < tg->nitems; i++) {
                if (tg->items[i]->kind == NG_JIT_E_TUPLE || tg->items[i]->kind == NG_JIT_E_STARRED) {
                    unsupported(L, s->span.line, "nested or starred unpacking");
                    return;
                }
                assign_to(L, tg->items[i], vals[i], out);
            }
            return;
        }
    }
    if (s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME && sym_of(L, s->targets[0])->kind == SYM_VIEW) {
        /* row = X[i]: the view's indices, evaluated now */
        Sym *v = sym_of(L, s->targets[0]);
        const NgJitExpr *ix[NG_MAXDIMS];
        int n = 0;
        Sym *from;
        Sym *a = index_chain(L, s->value, ix, &n, &from);
        if (!a)
            return;
        for (int d = 0; d < n; d++) {
            NgIrRef ok = NG_IR_NONE;
            NgIrRef i = index_value(L, a, d, ix[d], &ok);
            if (ok != NG_IR_NONE && !stops(L) && !v->view_unsure) /* (checked here, the iteration going on) */
                v->view_unsure = L->changed = true;
            if (i != NG_IR_NONE)
                push(L, out, ng_ir_assign(L->k, v->fixed_var[d], i));
        v->view_line = s->span.line;
        }
        return;
    }
    Val v = str_expr(L, s->value);
    if (s->ntargets > 1)
        v = pin(L, v, out);
    for (int t = 0; t < s->ntargets; t++)
        assign_to(L, s->targets[t], v, out);
}

static void augassign_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    const NgJitExpr *t = s->target;
    int line = s->span.line;
    if (buf_stmt(L, s, out))
        return;
    if (t->kind == NG_JIT_E_NAME) {
        Sym *sym = sym_of(L, t);
        if (sym->kind != SYM_LOCAL) {
            assign_to(L, t, NOVAL, out); /* the error */
            return;
        }
        Val cur = read_name(L, t);
        L->pow_float = float_operator(s->op) && cur.dt == NG_FLOAT64;
        Val rhs = expr(L, s->value);
        push(L, out, assign_local(L, sym, arith(L, s->op, cur, rhs, line)));
        return;
    }
    if (t->kind != NG_JIT_E_SUBSCRIPT) {
        assign_to(L, t, NOVAL, out);
        return;
    }
    if (row_store(L, t, s->value, s->op, line, out))
        return;
    NgIrRef idx[NG_MAXDIMS], ok;
    L->storing = true;
    Sym *a = element(L, t, idx, &ok);
    L->storing = false;
    L->pow_float = a && float_operator(s->op) && a->given->dtype == NG_FLOAT64;
    Val rhs = expr(L, s->value);
    if (!a || rhs.r == NG_IR_NONE || immutable(L, a, line))
        return;
    mark_written(L, a);
    NgDType adt = a->given->dtype;
    int nd = a->given->ndim;
    Val cur = mkval(guarded_load(L, a, idx, ok), adt, false, false);
    if (is_atomic_target(L, a) && (s->op == NG_JIT_OP_ADD || s->op == NG_JIT_OP_SUB)) {
        /* atomic a[e] += v: only when a[e] + v has a's dtype (else the cast
         * would come after the add) */
        Val sum = arith(L, s->op, cur, rhs, line);
        if (sum.r == NG_IR_NONE)
            return;
        if (sum.dt != adt || adt == NG_FLOAT16) { /* (no atomic add rounds to half) */
            fail(L, line, NG_ERR_UNSUPPORTED,
                 "an atomic update of %s elements with a %s value is not supported in a compiled loop",
                 ng_dtype_info(adt)->name, type_name(rhs));
            return;
        }
        NgIrRef v = as(L, rhs, adt);
        if (s->op == NG_JIT_OP_SUB)
            v = ng_ir_unary(L->k, NG_OP_NEG, adt, v);
        push(L, out, guarded(L, ok, ng_ir_atomic(L->k, NG_OP_ADD, a->param, nd, idx, v)));
        return;
    }
    if (is_atomic_target(L, a)) {
        fail(L, line, NG_ERR_UNSUPPORTED, "an atomic %s= update is not supported in a compiled loop",
             ng_jit_op_name(s->op));
        return;
    }
    Val r = arith(L, s->op, cur, rhs, line);
    int_conversion(L, r, adt, true, line);
    if (r.r != NG_IR_NONE)
        push(L, out, guarded(L, ok, ng_ir_store(L->k, a->param, nd, idx, store_cast(L, r, adt))));
}

/* The range a for statement iterates over: start, stop, step as int64
 * values. False after an error. */
static bool range_args(Lower *L, const NgJitStmt *s, Val *start, Val *stop, Val *step)
{
    const NgJitExpr *it = s->test;
    int line = s->span.line;
    bool ok = it->kind == NG_JIT_E_CALL;
    if (ok) {
        const NgJitExpr *f = it->lhs;
        if (f->kind == NG_JIT_E_NAME)
            ok = sym_of(L, f)->kind == SYM_UNBOUND && (strcmp(f->name, "range") == 0 || strcmp(f->name, "prange") == 0);
        else
            ok = f->kind == NG_JIT_E_ATTR && strcmp(f->name, "prange") == 0;
    }
    if (!ok) {
        char buf[80], what[256];
        snprintf(what, sizeof what, "iterating over '%s' (only range() and prange() loops, and loops over arrays, enumerate() or zip() of them, compile)",
                 snip(L, it, buf, sizeof buf));
        unsupported(L, line, what);
        return false;
    }
    if (!check_args(L, it, 1, 3, "range"))
        return false;
    Val v[3] = {NOVAL, NOVAL, NOVAL};
    for (int i = 0; i < it->nitems; i++) {
        v[i] = expr(L, it->items[i]);
        if (v[i].r != NG_IR_NONE && ng_dtype_is_float(v[i].dt)) {
            fail(L, line, NG_ERR_TYPE, "'float' object cannot be interpreted as an integer");
            return false;
        }
        if (v[i].r != NG_IR_NONE) {
            v[i].r = as(L, v[i], NG_INT64);
            v[i].dt = NG_INT64;
            v[i].weak = true;
        }
    }
    if (it->nitems == 1) {
        *start = int_const(L, 0);
        *stop = v[0];
        *step = int_const(L, 1);
    } else {
        *start = v[0];
        *stop = v[1];
        *step = it->nitems == 3 ? v[2] : int_const(L, 1);
    }
    if (step->r != NG_IR_NONE && is_const(L, step->r) && const_i(L, step->r) == 0) {
        fail(L, line, NG_ERR_VALUE, "range() arg 3 must not be zero");
        return false;
    }
    return true;
}

typedef struct StoreFind {
    int name_id;
    bool found;
} StoreFind;

static void find_store(void *ctx, const NgJitExpr *name)
{
    StoreFind *f = ctx;
    if (name->ctx == NG_JIT_STORE && name->name_id == f->name_id)
        f->found = true;
}

/* Inside `for i in range(...)` whose body never assigns i, reading i is
 * reading the counter: the counter's known bounds then reach the indices
 * (no wrap of a[i - 1] when the range starts at 1), even when i had some
 * other value before the loop. */
static void bind_counter(Lower *L, Sym *var, Val value, NgJitBlock body)
{
    StoreFind f = {(int)(var - L->syms), false};
    walk_block(body, find_store, &f);
    if (var->kind == SYM_LOCAL && value.r != NG_IR_NONE && !f.found) {
        var->bound = true;
        var->bound_val = value;
    }
}

/* A range counter's bound: it lies between the range's start and stop (int_overflow). */
static Val counter_mag(const Lower *L, Val value, Val start, Val stop)
{
    uint64_t params = 0;
    double m = fmax(mag_of(L, start, &params), mag_of(L, stop, &params));
    if (value.r != NG_IR_NONE && m < INFINITY && m > 0 && (value.within == 0 || m < MAG_LENGTH))
        value.mag = m, value.magp = params;
    return value;
}

/* The trip count of range(start, stop, step): max(0, -((start - stop) // step)). */
static NgIrRef trip_count(Lower *L, Val start, Val stop, Val step)
{
    NgIrKernel *k = L->k;
    NgIrRef d = ng_ir_binary(k, NG_OP_SUB, NG_INT64, start.r, stop.r);
    NgIrRef q = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, d, step.r);
    NgIrRef n = ng_ir_unary(k, NG_OP_NEG, NG_INT64, q);
    return ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, n, ng_ir_const_i(k, NG_INT64, 0));
}

/* A range step of 0, checked before the outer loop (or a loop collapsed into it): the loop
 * runs as Python, which raises its ValueError. */
static void step_python(Lower *L, Val step, int line)
{
    if (is_const(L, step.r) && const_i(L, step.r) != 0)
        return;
    NgIrKernel *k = L->k;
    python_if(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, step.r, ng_ir_const_i(k, NG_INT64, 0)),
              ng_jit_raise_code(NG_JIT_RAISE_RANGE_STEP, line, 0));
}

/* Whether the loop hands names back (cells). */
static bool hands_back(const Lower *L)
{
    for (int i = 0; i < L->norder; i++) {
        const Sym *s = &L->syms[L->order[i]];
        if (s->kind == SYM_LOCAL && (s->home == HOME_CELL || s->unbound_out))
            return true;
    }
    return false;
}

/* The outer loop's trip count n, checked before it where the loop hands names back: with
 * none, Python's loop has no effect (its names keep their bindings, an int sum's 0 stays the
 * Python int it was), so the kernel runs nothing and the launch changes no name. Only the
 * outer count matters (an inner loop of no iteration still runs its outer iteration), but for
 * a collapsed nest, whose outer iterations hold nothing but the inner loop: the total count. */
static void trips_python(Lower *L, NgIrRef n, int line)
{
    if (!hands_back(L) || (is_const(L, n) && const_i(L, n) > 0))
        return;
    NgIrKernel *k = L->k;
    python_if(L, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, n, ng_ir_const_i(k, NG_INT64, 0)),
              ng_jit_raise_code(NG_JIT_RAISE_NO_TRIPS, line, 0));
}

static bool perfect_inner(Lower *L, const NgJitStmt *loop);

/* Whether e is a range() bound read before the loop without effect: an int
 * literal, a free scalar, len(X) or X.shape[k] of a free array. */
static bool plain_bound(Lower *L, const NgJitExpr *e)
{
    if (e->kind == NG_JIT_E_INT)
        return !e->big && e->ival <= (uint64_t)INT64_MAX;
    if (e->kind == NG_JIT_E_NAME)
        return sym_of(L, e)->kind == SYM_SCALAR && ng_dtype_is_int(sym_of(L, e)->given->dtype);
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 &&
        e->nitems == 1 && e->nkeywords == 0 && e->items[0]->kind == NG_JIT_E_NAME)
        return sym_of(L, e->items[0])->kind == SYM_ARRAY && sym_of(L, e->items[0])->given->ndim >= 1 &&
               sym_of(L, e->items[0])->given->seq == NG_JIT_SEQ_ARRAY;
    if (e->kind == NG_JIT_E_SUBSCRIPT && e->rhs->kind == NG_JIT_E_INT && e->lhs->kind == NG_JIT_E_ATTR &&
        strcmp(e->lhs->name, "shape") == 0 && e->lhs->lhs->kind == NG_JIT_E_NAME) {
        const Sym *a = sym_of(L, e->lhs->lhs);
        return a->kind == SYM_ARRAY && a->given->seq == NG_JIT_SEQ_ARRAY && e->rhs->ival < (uint64_t)a->given->ndim;
    }
    return false;
}

/* The trips n of outer loop s times those of the loops perfectly nested in it whose
 * range() bounds are plain (plain_bound): where that is 0, the nest runs no statement
 * (its loop variables are not read after a parallel loop, nor is the outer one's here). */
static NgIrRef nest_trips(Lower *L, const NgJitStmt *s, NgIrRef n)
{
    for (const NgJitStmt *cur = s; L->plan->parallel && hands_back(L) && perfect_inner(L, cur);) {
        cur = cur->body.stmts[0];
        const NgJitExpr *it = cur->test;
        bool plain = it->kind == NG_JIT_E_CALL && it->lhs->kind == NG_JIT_E_NAME &&
                     strcmp(it->lhs->name, "range") == 0 && it->nitems >= 1 && it->nitems <= 3 && it->nkeywords == 0;
        for (int i = 0; plain && i < it->nitems; i++)
            plain = plain_bound(L, it->items[i]);
        Val start, stop, step;
        if (!plain || !range_args(L, cur, &start, &stop, &step) || !is_const(L, step.r) || const_i(L, step.r) == 0)
            break;
        NgIrRef m = trip_count(L, start, stop, step);
        n = ng_ir_binary(L->k, NG_OP_MUL, NG_INT64, n, ng_ir_binary(L->k, NG_OP_MINIMUM, NG_INT64, m,
                                                                    ng_ir_const_i(L->k, NG_INT64, 1)));
    }
    return n;
}

/* The analysis of loop s (NULL when the plan has none). */
static const NgJitLoopInfo *loop_info(const Lower *L, const NgJitStmt *s)
{
    const NgJitLoops *loops = L->plan->loops;
    for (int i = 0; loops && i < loops->n; i++)
        if (loops->items[i].stmt == s)
            return &loops->items[i];
    return NULL;
}

/* Whether loop s is a row of a loop in order (NgJitLoopInfo.rows) that may run in
 * threads: a plan in order that takes them (cpu), and s not inside a loop that
 * runs a part of it three times (a peel) or that draws random numbers. */
static bool rows_loop(const Lower *L, const NgJitStmt *s)
{
    const NgJitLoopInfo *info = L->plan->rows && !L->plan->parallel ? loop_info(L, s) : NULL;
    return info && info->rows && !info->peel && !ng_jit_draws(L->ast, s);
}

/* Whether the analysis found `name` dead after loop s (nothing reads it after). */
static bool dead_after(const Lower *L, const NgJitStmt *s, const char *name)
{
    const NgJitLoopInfo *info = loop_info(L, s);
    return info && !ng_jit_loop_reads_after(info, name);
}

/* ... when it runs around one iteration (NgJitLoopInfo.peel). */
static const NgJitLoopInfo *peeled(Lower *L, const NgJitStmt *s)
{
    const NgJitLoopInfo *info = loop_info(L, s);
    return info && info->peel ? info : NULL;
}

/* The analysis of the outer loop when the kernel must check, before it, that
 * the indices its verdict compared are not negative (NgJitLoopInfo.wraps):
 * parallel, not asserted, not a search. */
static const NgJitLoopInfo *wrap_checks(const Lower *L, const NgJitStmt *loop)
{
    const NgJitLoopInfo *info = L->plan->parallel && !L->plan->search ? loop_info(L, loop) : NULL;
    return info && !info->asserted && info->nwraps ? info : NULL;
}

/* Whether index e can be evaluated before the loop: integers, names,
 * arithmetic, x.shape[k], len(x). */
static bool plain_index(const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: case NG_JIT_E_INT: return true;
    case NG_JIT_E_UNARY: return plain_index(e->lhs);
    case NG_JIT_E_BINARY: return plain_index(e->lhs) && plain_index(e->rhs);
    case NG_JIT_E_ATTR: return e->lhs->kind == NG_JIT_E_NAME;
    case NG_JIT_E_SUBSCRIPT:
        return e->lhs->kind == NG_JIT_E_ATTR && strcmp(e->lhs->name, "shape") == 0 && e->rhs->kind == NG_JIT_E_INT;
    case NG_JIT_E_CALL:
        return e->lhs->kind == NG_JIT_E_NAME && strcmp(e->lhs->name, "len") == 0 && e->nitems == 1 &&
               e->items[0]->kind == NG_JIT_E_NAME;
    default: return false;
    }
}

/* Binds the locals e names other than `var` (loop variables of a range
 * inside, by the analysis: never below 0) to 0, or (value NULL) unbinds them. */
static void bind_locals(Lower *L, const NgJitExpr *e, const Sym *var, const Val *value)
{
    if (e->kind == NG_JIT_E_NAME) {
        Sym *s = sym_of(L, e);
        if (s != var && s->kind == SYM_LOCAL) {
            s->bound = value != NULL;
            if (value)
                s->bound_val = *value;
        }
        return;
    }
    if (e->kind == NG_JIT_E_UNARY || e->kind == NG_JIT_E_BINARY) {
        bind_locals(L, e->lhs, var, value);
        if (e->kind == NG_JIT_E_BINARY)
            bind_locals(L, e->rhs, var, value);
    }
}

/* The length of axis `axis` of array name_id `id` as the loop sees it, or
 * NG_IR_NONE when it is not a free array or a view of one. */
static NgIrRef axis_length(Lower *L, int id, int axis)
{
    const Sym *a = &L->syms[id];
    if (a->kind == SYM_VIEW && a->base && a->base->param >= 0 && a->nfixed + axis < a->base->given->ndim)
        return ng_ir_shape(L->k, a->base->param, a->nfixed + axis);
    if (a->kind == SYM_ARRAY && a->param >= 0 && axis < a->given->ndim)
        return ng_ir_shape(L->k, a->param, axis);
    return NG_IR_NONE;
}

/* The check before a parallel loop (wrap_checks): `wrapped`, true when the
 * range has iterations and the indices the verdict compared on some array
 * axis would not stay apart once wrapped: some is negative, and they do not
 * all fit in a window as long as the axis (so no two distinct ones wrap onto
 * one element). Each index is a*v + P or v*S + f, so it is least and
 * greatest at the range's ends (with an inner loop's f at 0); a strict one
 * (NgJitIndexUse.strict) must be >= 0 at both. Then the NG_JIT_WRAP cell gets 1. NG_IR_NONE when
 * no index may be negative; fails when one cannot be evaluated before the loop. */
static NgIrRef wrap_check(Lower *L, const NgJitLoopInfo *info, Sym *var, Val start, Val step, NgIrRef n, Stmts *out)
{
    NgIrKernel *k = L->k;
    NgIrRef bad = NG_IR_NONE, zero = ng_ir_const_i(k, NG_INT64, 0);
    Val ends[2] = {start, mkval(ng_ir_binary(k, NG_OP_ADD, NG_INT64, start.r,
                                             ng_ir_binary(k, NG_OP_MUL, NG_INT64,
                                                          ng_ir_binary(k, NG_OP_SUB, NG_INT64, n, ng_ir_const_i(k, NG_INT64, 1)),
                                                          step.r)),
                                NG_INT64, true, false)};
    if (is_const(L, step.r) && const_i(L, step.r) > 0) /* the last iteration is at least the first */
        ends[1] = at_least(mkval(ends[1].r, NG_INT64, true, start.nonneg), lo_of(L, start));
    Val nothing = mkval(zero, NG_INT64, true, true);
    bool was = var->bound;
    Val was_val = var->bound_val;
    for (int g = 0; g < info->nwraps && L->st == NG_OK; g++) {
        const NgJitIndexUse *u = &info->wraps[g];
        bool first = true;
        for (int h = 0; h < g && first; h++)
            first = !(info->wraps[h].array == u->array && info->wraps[h].axis == u->axis);
        if (!first)
            continue;
        /* the group of indices of this axis: least and greatest, and whether each is >= 0 */
        NgIrRef lo = NG_IR_NONE, hi = NG_IR_NONE, neg = NG_IR_NONE;
        bool window = true, may = false;
        for (int m = g; m < info->nwraps && L->st == NG_OK; m++) {
            const NgJitIndexUse *x = &info->wraps[m];
            if (x->array != u->array || x->axis != u->axis)
                continue;
            if (!plain_index(x->e)) {
                fail(L, x->e->span.line, NG_ERR_UNSUPPORTED,
                     "an index that may be negative and cannot be checked before the loop (it reads an array)");
                break;
            }
            window = window && !x->strict;
            bind_locals(L, x->e, var, &nothing);
            for (int end = 0; end < 2 && L->st == NG_OK; end++) {
                var->bound = true;
                var->bound_val = ends[end];
                Val v = expr(L, x->e);
                if (v.r == NG_IR_NONE || !ng_dtype_is_int(v.dt))
                    continue;
                NgIrRef r = as(L, v, NG_INT64);
                lo = lo == NG_IR_NONE ? r : ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, lo, r);
                hi = hi == NG_IR_NONE ? r : ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, hi, r);
                if (v.nonneg || lo_of(L, v) >= 0)
                    continue;
                may = true;
                NgIrRef below = ng_ir_binary(k, NG_OP_LT, NG_BOOL, r, zero);
                neg = neg == NG_IR_NONE ? below : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, neg, below);
            }
            bind_locals(L, x->e, var, NULL);
        }
        if (!may || L->st != NG_OK)
            continue;
        NgIrRef len = window ? axis_length(L, u->array, u->axis) : NG_IR_NONE;
        if (len != NG_IR_NONE) { /* negative, and (unsigned: no overflow) hi - lo >= len */
            NgIrRef span = ng_ir_binary(k, NG_OP_SUB, NG_UINT64, ng_ir_cast(k, NG_UINT64, hi), ng_ir_cast(k, NG_UINT64, lo));
            neg = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, neg,
                               ng_ir_binary(k, NG_OP_GE, NG_BOOL, span, ng_ir_cast(k, NG_UINT64, len)));
        }
        bad = bad == NG_IR_NONE ? neg : ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, bad, neg);
    }
    var->bound = was;
    var->bound_val = was_val;
    if (bad == NG_IR_NONE || L->st != NG_OK)
        return NG_IR_NONE;
    NgIrRef w = pin(L, mkval(ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_GT, NG_BOOL, n, zero), bad),
                             NG_BOOL, false, false), out).r;
    NgIrRef none[1] = {0};
    L->wrap_param = ng_ir_param_array(k, NG_INT64, 0, true, true);
    push(L, out, ng_ir_store(k, L->wrap_param, 0, none, ng_ir_cast(k, NG_INT64, w)));
    return w;
}

/* The trips [*before, *after) of range(first, ..., st) (n trips, st > 0)
 * whose only iteration is the peeled one of p (NgJitLoopInfo.peel): v0 =
 * peel_at (wrapped on its array's axis when negative) - peel_off, when v0
 * is one of the iterations; else *after == *before, the number of them
 * below v0. False when peel_at is not an integer, or may be negative and
 * its array is not a free one. Everything pinned in `out`. */
static bool peel_trips(Lower *L, const NgJitLoopInfo *p, NgIrRef first, NgIrRef n, int64_t st, Stmts *out,
                       NgIrRef *before, NgIrRef *after)
{
    NgIrKernel *k = L->k;
    Val at = expr(L, p->peel_at);
    if (at.r == NG_IR_NONE || !(ng_dtype_is_int(at.dt) || at.dt == NG_BOOL))
        return false;
    NgIrRef v = as(L, at, NG_INT64);
    if (!at.nonneg && kind_of(at.dt) != NG_KIND_UINT) {
        Sym *a = &L->syms[p->peel_array];
        if (a->kind != SYM_ARRAY || a->param < 0 || p->peel_axis >= a->given->ndim)
            return false;
        NgIrRef len = ng_ir_shape(k, a->param, p->peel_axis);
        v = ng_ir_select(k, ng_ir_binary(k, NG_OP_LT, NG_BOOL, v, ng_ir_const_i(k, NG_INT64, 0)),
                         ng_ir_binary(k, NG_OP_ADD, NG_INT64, v, len), v);
    }
    NgIrRef one = ng_ir_const_i(k, NG_INT64, 1), zero = ng_ir_const_i(k, NG_INT64, 0), by = ng_ir_const_i(k, NG_INT64, st);
    /* d = max(v0, first - 1) - first >= -1 (no overflow; -1: v0 before the first iteration);
     * before = min(ceil(max(d, 0) / st), n); v0 is an iteration when d >= 0, d % st == 0 and before < n */
    NgIrRef v0 = ng_ir_binary(k, NG_OP_SUB, NG_INT64, v, ng_ir_const_i(k, NG_INT64, p->peel_off));
    NgIrRef d = ng_ir_binary(k, NG_OP_SUB, NG_INT64,
                             ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, v0, ng_ir_binary(k, NG_OP_SUB, NG_INT64, first, one)),
                             first);
    Val dv = pin(L, mkval(d, NG_INT64, true, false), out);
    NgIrRef d0 = ng_ir_binary(k, NG_OP_MAXIMUM, NG_INT64, dv.r, zero);
    NgIrRef up = ng_ir_unary(k, NG_OP_NEG, NG_INT64,
                             ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, ng_ir_unary(k, NG_OP_NEG, NG_INT64, d0), by));
    Val b = pin(L, mkval(ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, up, n), NG_INT64, true, true), out);
    NgIrRef hit = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_LT, NG_BOOL, b.r, n),
                               ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_GE, NG_BOOL, dv.r, zero),
                                            ng_ir_binary(k, NG_OP_EQ, NG_BOOL,
                                                         ng_ir_binary(k, NG_OP_MOD, NG_INT64, dv.r, by), zero)));
    Val a = pin(L, mkval(ng_ir_binary(k, NG_OP_ADD, NG_INT64, b.r, ng_ir_cast(k, NG_INT64, hit)), NG_INT64, true, true),
                out);
    *before = b.r;
    *after = a.r;
    return L->st == NG_OK;
}

/* phase 0, 1, 2 (a scalar) of x: a, b or c. */
static NgIrRef by_phase(Lower *L, NgIrRef phase, NgIrRef a, NgIrRef b, NgIrRef c)
{
    NgIrKernel *k = L->k;
    return ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, phase, ng_ir_const_i(k, NG_INT64, 0)), a,
                        ng_ir_select(k, ng_ir_binary(k, NG_OP_EQ, NG_BOOL, phase, ng_ir_const_i(k, NG_INT64, 1)), b, c));
}

/* After the outer loop's body, before the loop (in `out`): the NG_JIT_PYTHON
 * cell gets python_code (raise_or_python), and the loop must run no
 * iteration where the result, `skip`, holds. NG_IR_NONE (and no cell)
 * when the body checked nothing so. */
static NgIrRef python_skip(Lower *L, Stmts *out)
{
    NgIrKernel *k = L->k;
    if (L->store_code != NG_IR_NONE) /* (a store's range last: another reason, where there is one, says more) */
        L->python_code = L->python_code == NG_IR_NONE
                             ? L->store_code
                             : ng_ir_select(k, ng_ir_binary(k, NG_OP_NE, NG_BOOL, L->python_code, ng_ir_const_i(k, NG_INT64, 0)),
                                            L->python_code, L->store_code);
    L->store_code = NG_IR_NONE;
    if (L->python_code == NG_IR_NONE || L->st != NG_OK)
        return NG_IR_NONE;
    NgIrRef code = pin(L, mkval(L->python_code, NG_INT64, true, true), out).r, none[1] = {0};
    L->python_param = ng_ir_param_array(k, NG_INT64, 0, true, true);
    push(L, out, ng_ir_store(k, L->python_param, 0, none, code));
    return ng_ir_binary(k, NG_OP_NE, NG_BOOL, code, ng_ir_const_i(k, NG_INT64, 0));
}

/* Whether statement r (or one in it) declares or assigns variable v. */
static bool assigns(const NgIrKernel *k, NgIrRef r, int v)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_LET: case NG_IR_ASSIGN:
        return n->a == v;
    case NG_IR_FOR:
        return n->a == v || assigns(k, ng_ir_kid(k, r, 3), v);
    case NG_IR_WHILE:
        return assigns(k, ng_ir_kid(k, r, 1), v);
    case NG_IR_IF:
        return assigns(k, ng_ir_kid(k, r, 1), v) || assigns(k, ng_ir_kid(k, r, 2), v);
    case NG_IR_BLOCK:
        for (int i = 0; i < n->nkids; i++)
            if (assigns(k, ng_ir_kid(k, r, i), v))
                return true;
        return false;
    default:
        return false;
    }
}

/* Whether int64 expression r is coef * v + (what loop body `body` leaves as it is), |coef|
 * at most 2**20: constants, parameters, extents, variables the body does not assign, and v,
 * added and multiplied by constants (r is then monotonic over v's range, wrapping nowhere
 * between its ends when they are within 2**40: versioned). */
static bool linear_in(const Lower *L, NgIrRef r, int v, NgIrRef body, int64_t *coef)
{
    const NgIrKernel *k = L->k;
    const NgIrNode *n = ng_ir_node(k, r);
    const int64_t most = INT64_C(1) << 20;
    int64_t c[3] = {0, 0, 0};
    *coef = 0;
    switch ((NgIrKind)n->kind) {
    case NG_IR_CONST: case NG_IR_SCALAR: case NG_IR_SHAPE:
        return true;
    case NG_IR_VAR:
        *coef = n->a == v;
        return !n->nkids && (n->a == v || !assigns(k, body, n->a));
    case NG_IR_LOAD: /* (the body may store into the array) */
        return false;
    default:
        break;
    }
    if (n->nkids > 3)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (!linear_in(L, ng_ir_kid(k, r, i), v, body, &c[i]))
            return false;
    if (!c[0] && !c[1] && !c[2]) /* (an expression the loop does not change) */
        return true;
    if (n->kind != NG_IR_BINARY || n->dtype != NG_INT64)
        return false;
    NgIrRef a = ng_ir_kid(k, r, 0), b = ng_ir_kid(k, r, 1);
    if (n->op == NG_OP_ADD || n->op == NG_OP_SUB)
        *coef = n->op == NG_OP_ADD ? c[0] + c[1] : c[0] - c[1];
    else if (n->op == NG_OP_MUL && !c[1] && is_const(L, b) && const_i(L, b) >= -most && const_i(L, b) <= most)
        *coef = c[0] * const_i(L, b);
    else if (n->op == NG_OP_MUL && !c[0] && is_const(L, a) && const_i(L, a) >= -most && const_i(L, a) <= most)
        *coef = c[1] * const_i(L, a);
    else
        return false;
    return *coef >= -most && *coef <= most;
}

/* lo <= x <= hi, a bool. */
static NgIrRef within(Lower *L, NgIrRef x, NgIrRef lo, NgIrRef hi)
{
    NgIrKernel *k = L->k;
    return ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, ng_ir_binary(k, NG_OP_GE, NG_BOOL, x, lo),
                        ng_ir_binary(k, NG_OP_LE, NG_BOOL, x, hi));
}

/* Inner loop `loop` (trips iterations) in two versions (ng_ir_version) where slices of a
 * constant width in its body (L->windows[from .. to)) may lie inside their axes in every
 * iteration: then their clamped bounds are the bounds as written and their lengths constants
 * (img[2 * i:2 * i + 2, 2 * j:2 * j + 2]: loops of 2 trips, which the C compiler unrolls, and
 * the loop around them vectorises). A window lies inside in every iteration when its start
 * does at the first and the last (linear_in); one whose start is not linear leaves the loop
 * as it is for that window. */
static NgIrRef versioned(Lower *L, NgIrRef loop, int from, int to, NgIrRef trips)
{
    NgIrKernel *k = L->k;
    int counter = ng_ir_node(k, loop)->a;
    NgIrRef first = ng_ir_kid(k, loop, 0), by = ng_ir_kid(k, loop, 2), body = ng_ir_kid(k, loop, 3);
    NgIrRef zero = ng_ir_const_i(k, NG_INT64, 0), one = ng_ir_const_i(k, NG_INT64, 1);
    NgIrRef last = ng_ir_binary(k, NG_OP_ADD, NG_INT64, first,
                                ng_ir_binary(k, NG_OP_MUL, NG_INT64, ng_ir_binary(k, NG_OP_SUB, NG_INT64, trips, one), by));
    NgIrRef cond = ng_ir_binary(k, NG_OP_GT, NG_BOOL, trips, zero), c = ng_ir_varref(k, counter);
    NgIrRef subs[2 * MAX_WINDOWS], by_what[2 * MAX_WINDOWS];
    int nsubs = 0;
    bool moves = false;
    for (int i = from; i < to; i++) {
        const Window *w = &L->windows[i];
        int64_t coef;
        if (w->lo == NG_IR_NONE) { /* (a length beside windows: note_extent) */
            if (!linear_in(L, w->len, counter, body, &coef) || coef)
                continue;
            cond = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, cond,
                                ng_ir_binary(k, NG_OP_EQ, NG_BOOL, w->len, ng_ir_const_i(k, NG_INT64, w->width)));
            subs[nsubs] = w->len, by_what[nsubs++] = ng_ir_const_i(k, NG_INT64, w->width);
            continue;
        }
        if (!linear_in(L, w->lo, counter, body, &coef))
            continue;
        NgIrRef ends[2] = {w->lo, NG_IR_NONE}; /* (where the loop starts and ends: all between) */
        if (coef) {
            ends[0] = ng_ir_substitute(k, w->lo, 1, &c, &first);
            ends[1] = ng_ir_substitute(k, w->lo, 1, &c, &last);
            moves = true;
        }
        NgIrRef top = ng_ir_binary(k, NG_OP_SUB, NG_INT64, w->n, ng_ir_const_i(k, NG_INT64, w->width));
        for (int e = 0; e < 2 && ends[e] != NG_IR_NONE; e++)
            cond = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, cond, within(L, ends[e], zero, top));
        subs[nsubs] = w->start, by_what[nsubs++] = w->lo;
        subs[nsubs] = w->len, by_what[nsubs++] = ng_ir_const_i(k, NG_INT64, w->width);
    }
    if (nsubs == 0)
        return loop;
    if (moves) { /* (the counter's ends within 2**40: the windows' starts wrap nowhere between) */
        NgIrRef most = ng_ir_const_i(k, NG_INT64, INT64_C(1) << 40), least = ng_ir_const_i(k, NG_INT64, -(INT64_C(1) << 40));
        NgIrRef ends[2] = {first, last};
        for (int e = 0; e < 2; e++)
            cond = ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, cond, within(L, ends[e], least, most));
    }
    NgIrRef fast = ng_ir_substitute(k, loop, nsubs, subs, by_what);
    return fast == NG_IR_NONE || fast == loop ? loop : ng_ir_version(k, cond, fast, loop);
}

enum { MAX_UNROLLED = 64 }; /* copies of a statement unrolled loops may make */

/* Whether b leaves its loop other than at its end: a break or continue outside a loop of its
 * own, a return. */
static bool leaves(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_BREAK || s->kind == NG_JIT_S_CONTINUE || s->kind == NG_JIT_S_RETURN ||
            (s->kind == NG_JIT_S_IF && (leaves(s->body) || leaves(s->orelse))) ||
            ((s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) && ng_jit_block_returns(s->body)))
            return true;
    }
    return false;
}

/* The n trips of inner loop s over range(first, ..., step) (its counter var: Sym.unroll) as n
 * copies of its body, var a constant in each: a buffer's variables indexed by it are read
 * and written directly (a select among them otherwise, which the C compilers do not fold
 * where a loop jammed 8 iterations at a time holds the loop). */
static NgIrRef unroll_loop(Lower *L, const NgJitStmt *s, Sym *var, int64_t first, int64_t step, int64_t n)
{
    Stmts body = {0};
    Sym saved = *var;
    int windows = L->nwindows;
    bool in_iteration = L->in_iteration;
    L->in_iteration = false; /* (a loop's body: see raise_value_if) */
    L->unrolled *= n;
    L->depth++;
    L->in_loop++;
    for (int64_t t = 0; t < n && L->st == NG_OK; t++) {
        Val value = int_const(L, first + t * step);
        push(L, &body, assign_local(L, var, value));
        bind_counter(L, var, value, s->body);
        block(L, s->body, &body);
        var->bound = saved.bound, var->bound_val = saved.bound_val;
    }
    L->in_loop--;
    L->depth--;
    L->unrolled /= n;
    L->in_iteration = in_iteration;
    if (L->nwindows > windows) { /* (a window belongs to a loop: the next pass keeps this one) */
        L->nwindows = windows;
        var->unroll = -1;
        L->changed = true;
    }
    NgIrRef b = seal(L, &body);
    return b == NG_IR_NONE ? ng_ir_block(L->k, 0, NULL) : b;
}

static bool leaves_early(NgJitBlock b);

/* A for-range loop: the FOR node, with its bounds pinned in `out` first.
 * `prologue` (may be NULL) goes at the top of each iteration, before the
 * loop variable is set; *loop_ref (may be NULL) gets the FOR; `outer` for
 * the nest's own loop (break and continue at depth 0 leave it). */
static NgIrRef for_range(Lower *L, const NgJitStmt *s, Stmts *out, const Stmts *prologue, unsigned flags,
                         NgIrRef *loop_ref, bool outer)
{
    Val start, stop, step;
    if (s->orelse.n) {
        unsupported(L, s->else_line ? s->else_line : s->span.line, "a for loop's else block");
        return NG_IR_NONE;
    }
    if (s->target->kind != NG_JIT_E_NAME) {
        unsupported(L, s->span.line, "a for loop target that is not a name");
        return NG_IR_NONE;
    }
    if (!range_args(L, s, &start, &stop, &step))
        return NG_IR_NONE;
    Sym *var = sym_of(L, s->target);
    NgIrRef start0 = start.r, stop0 = stop.r; /* (before pinning: invariant expressions, or not) */
    start = pin(L, start, out);
    stop = pin(L, stop, out);
    step = pin(L, step, out);
    bool known = start.r != NG_IR_NONE && stop.r != NG_IR_NONE && step.r != NG_IR_NONE;
    bool const_step = known && is_const(L, step.r);
    int64_t st = const_step ? const_i(L, step.r) : 0;
    if (outer && known) {
        step_python(L, step, s->span.line);
        trips_python(L, nest_trips(L, s, trip_count(L, start, stop, step)), s->span.line);
    }
    if (!outer && var->unroll > 0 && var->kind == SYM_LOCAL && const_step && is_const(L, start.r) &&
        is_const(L, stop.r) && !prologue && (!flags || flags == (NG_IR_PARALLEL | NG_IR_ROWS)) && !leaves(s->body)) {
        int64_t a = const_i(L, start.r), z = const_i(L, stop.r);
        bool small = llabs(a) <= INT32_MAX && llabs(z) <= INT32_MAX && llabs(st) <= INT32_MAX; /* (no overflow) */
        int64_t n = !small ? 0 : st > 0 ? (z > a ? (z - a + st - 1) / st : 0) : (a > z ? (a - z - st - 1) / -st : 0);
        if (small && n >= 1 && n <= MAX_BUF_VARS && L->unrolled * n <= MAX_UNROLLED) /* (none: the body still typed) */
            return unroll_loop(L, s, var, a, st, n);
    }
    int search = outer ? L->plan->search : 0;
    const NgJitLoopInfo *checks = outer && known ? wrap_checks(L, s) : NULL;
    NgIrRef wrapped = NG_IR_NONE; /* (then no iteration runs) */
    if (checks) { /* (the trip count an expression: nothing is left behind when nothing is checked) */
        wrapped = wrap_check(L, checks, var, start, step, trip_count(L, start, stop, step), out);
        if (L->st != NG_OK)
            return NG_IR_NONE;
    }
    if (search && !const_step) {
        fail(L, s->span.line, NG_ERR_INTERNAL, "a search loop needs a literal range step");
        return NG_IR_NONE;
    }
    if (search == 2) { /* from the iteration found, else from the last one (range order kept) */
        NgIrKernel *k = L->k;
        NgIrRef w = ng_ir_scalar(k, L->search_param), n = trip_count(L, start, stop, step);
        NgIrRef last = ng_ir_binary(k, NG_OP_ADD, NG_INT64, start.r,
                                    ng_ir_binary(k, NG_OP_MUL, NG_INT64, ng_ir_binary(k, NG_OP_SUB, NG_INT64, n,
                                                                                      ng_ir_const_i(k, NG_INT64, 1)),
                                                 step.r));
        NgIrRef none = ng_ir_const_i(k, NG_INT64, ng_jit_search_none(L->plan->search_step));
        NgIrRef from = ng_ir_select(k, ng_ir_binary(k, NG_OP_NE, NG_BOOL, w, none), w,
                                    ng_ir_select(k, ng_ir_binary(k, NG_OP_GT, NG_BOOL, n, ng_ir_const_i(k, NG_INT64, 0)),
                                                 last, start.r));
        start.r = from; /* a later iteration: start's bounds still hold */
        start = pin(L, start, out);
    }
    NgIrRef search_stop = stop.r;
    const NgJitLoopInfo *peel = known && const_step && st > 0 ? peeled(L, s) : NULL;
    bool phases = outer && L->plan->peel;
    if (phases && !peel) {
        fail(L, s->span.line, NG_ERR_INTERNAL, "a loop run around one iteration needs a literal step > 0");
        return NG_IR_NONE;
    }
    NgIrRef split_n = NG_IR_NONE, before = NG_IR_NONE, after = NG_IR_NONE; /* a loop in order, in three parts */
    if (peel && !phases) {
        split_n = pin(L, mkval(trip_count(L, start, stop, step), NG_INT64, true, true), out).r;
        if (!peel_trips(L, peel, start.r, split_n, st, out, &before, &after))
            split_n = NG_IR_NONE;
        if (L->st != NG_OK)
            return NG_IR_NONE;
    }
    if (search == 1 || phases) { /* iterations [from, to) of the range (a search: its trip count in a cell) */
        NgIrKernel *k = L->k;
        Val n = pin(L, mkval(trip_count(L, start, stop, step), NG_INT64, true, true), out);
        NgIrRef lo, hi;
        if (phases) { /* [0, before), [before, after), [after, n) by NG_JIT_PHASE */
            if (!peel_trips(L, peel, start.r, n.r, st, out, &before, &after)) {
                if (L->st == NG_OK)
                    fail(L, s->span.line, NG_ERR_UNSUPPORTED,
                         "the loop runs around iteration %s, whose index is not an integer or may be negative on a view",
                         peel->peel_text);
                return NG_IR_NONE;
            }
            NgIrRef ph = ng_ir_scalar(k, L->phase_param);
            lo = by_phase(L, ph, ng_ir_const_i(k, NG_INT64, 0), before, after);
            hi = by_phase(L, ph, before, after, n.r);
        } else {
            NgIrRef none[1] = {0};
            push(L, out, ng_ir_store(k, L->trips_param, 0, none, n.r));
            lo = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, ng_ir_scalar(k, L->from_param), n.r);
            hi = ng_ir_binary(k, NG_OP_MINIMUM, NG_INT64, ng_ir_scalar(k, L->to_param), n.r);
        }
        search_stop = pin(L, mkval(ng_ir_binary(k, NG_OP_ADD, NG_INT64, start.r, ng_ir_binary(k, NG_OP_MUL, NG_INT64, hi, step.r)),
                                   NG_INT64, true, false), out).r;
        start.r = ng_ir_binary(k, NG_OP_ADD, NG_INT64, start.r, ng_ir_binary(k, NG_OP_MUL, NG_INT64, lo, step.r));
        start = pin(L, start, out); /* (a later iteration: start's bounds still hold) */
    }
    int counter = ng_ir_var(L->k, NG_INT64);
    NgIrRef c = ng_ir_varref(L->k, counter);
    NgIrRef first = NG_IR_NONE, last = NG_IR_NONE, by = NG_IR_NONE;
    Val value = NOVAL;
    if (known && const_step) {
        /* for (c = start; c < stop; c += step): the Python variable is c */
        first = start.r, last = search_stop, by = step.r;
        bool stop_ok = stop.nonneg || (is_const(L, stop.r) && const_i(L, stop.r) >= -1);
        value = mkval(c, NG_INT64, true, st > 0 ? start.nonneg : stop_ok);
        if (st > 0)
            value = at_least(value, lo_of(L, start));
        const NgIrNode *end = ng_ir_node(L->k, stop.r);
        if (st > 0 && value.nonneg && end->kind == NG_IR_SHAPE) /* every part run is a part of the range */
            value.within = axis_key(end->a, end->b);
        NgIrRef top = st > 0 ? stop.r : start.r; /* (a constant: the counter is below it, or at it stepping down) */
        int64_t below = is_const(L, top) ? const_i(L, top) + (st < 0) : 0;
        if (value.nonneg && below > 0 && below <= INT32_MAX)
            value.within = (int)-below;
    } else if (known) {
        /* a step known only at run time: count the trips, v = start + c * step */
        Val n = pin(L, mkval(trip_count(L, start, stop, step), NG_INT64, true, true), out);
        first = ng_ir_const_i(L->k, NG_INT64, 0), last = n.r, by = ng_ir_const_i(L->k, NG_INT64, 1);
        value = mkval(ng_ir_binary(L->k, NG_OP_ADD, NG_INT64, start.r, ng_ir_binary(L->k, NG_OP_MUL, NG_INT64, c, step.r)),
                      NG_INT64, true, false);
    }
    value = counter_mag(L, value, start, stop);
    int ncounters = L->ncounters; /* (a store's index may be checked at the counter's ends) */
    if (known && const_step && (st == 1 || st == -1) && search != 1 && !phases && L->ncounters < 8 &&
        !leaves_early(s->body) &&
        start0 != NG_IR_NONE && stop0 != NG_IR_NONE && invariant(L, start0) && invariant(L, stop0) &&
        L->st == NG_OK) {
        NgIrKernel *k = L->k;
        NgIrRef one = ng_ir_const_i(k, NG_INT64, 1);
        L->counters[L->ncounters].var = counter;
        L->counters[L->ncounters].first = start0;
        L->counters[L->ncounters].last = ng_ir_binary(k, st > 0 ? NG_OP_SUB : NG_OP_ADD, NG_INT64, stop0, one);
        L->counters[L->ncounters++].trips = st > 0 ? ng_ir_binary(k, NG_OP_SUB, NG_INT64, stop0, start0)
                                                   : ng_ir_binary(k, NG_OP_SUB, NG_INT64, start0, stop0);
    }
    Stmts body = {0};
    if (prologue)
        for (int i = 0; i < prologue->n; i++)
            push(L, &body, prologue->v[i]);
    if (var->kind == SYM_LOCAL)
        push(L, &body, assign_local(L, var, value));
    else
        assign_to(L, s->target, value, &body); /* the error */
    if (outer && (flags & NG_IR_PARALLEL) && known) /* the iteration's rank: trips from the start */
        L->rank = !const_step ? c : st > 0 ? ng_ir_binary(L->k, NG_OP_SUB, NG_INT64, c, start.r)
                                           : ng_ir_binary(L->k, NG_OP_SUB, NG_INT64, start.r, c);
    L->depth += outer ? 0 : 1;
    Sym saved = *var;
    int windows = L->nwindows; /* (the body's: versioned) */
    struct Draws draws_was = L->draws; /* (the outer loop's iteration: its random numbers, see draw) */
    NgIrRef iter_was = L->draw_iter;
    if (outer)
        L->draws = no_draws(), L->draw_iter = value.r;
    bind_counter(L, var, value, s->body);
    if (search == 1) {
        /* the assignments before the `if`, then found = min(found, test ? i : none), a plain
           min (max) reduction: the select spelled as masks, (i & m) | (none & ~m) with m = -test,
           vectorises where GCC folds a select back into `test ? min(found, i) : found`, which
           does not */
        NgJitBlock head = s->body;
        const NgJitStmt *hit = head.stmts[--head.n];
        block(L, head, &body);
        Val t = cond(L, hit->test);
        if (t.r != NG_IR_NONE && value.r != NG_IR_NONE && L->st == NG_OK) {
            NgIrKernel *k = L->k;
            NgIrRef none = ng_ir_const_i(k, NG_INT64, ng_jit_search_none(L->plan->search_step));
            NgIrRef m = ng_ir_unary(k, NG_OP_NEG, NG_INT64, ng_ir_cast(k, NG_INT64, t.r));
            NgIrRef first_i = ng_ir_binary(k, NG_OP_BITOR, NG_INT64, ng_ir_binary(k, NG_OP_BITAND, NG_INT64, value.r, m),
                                       ng_ir_binary(k, NG_OP_BITAND, NG_INT64, none,
                                                    ng_ir_unary(k, NG_OP_INVERT, NG_INT64, m)));
            NgIrRef upd = ng_ir_binary(k, ng_jit_search_op(L->plan->search_step), NG_INT64,
                                       ng_ir_varref(k, L->found_var), first_i);
            push(L, &body, ng_ir_assign(k, L->found_var, upd));
        }
    } else {
        L->in_loop++;
        int seq_loops = L->seq_loops;
        L->seq_loops = outer || (flags & NG_IR_PARALLEL) ? 0 : seq_loops + 1;
        bool in_iteration = L->in_iteration;
        L->in_iteration = in_iteration && outer; /* (see raise_value_if) */
        if (outer && (flags & NG_IR_PARALLEL))
            iteration_body(L, s->body, &body);
        else
            block(L, s->body, &body);
        L->in_iteration = in_iteration;
        L->seq_loops = seq_loops;
        L->in_loop--;
    }
    L->ncounters = ncounters;
    var->bound = saved.bound, var->bound_val = saved.bound_val;
    if (outer) { /* (an inner loop's draws count in the outer one's iteration) */
        declare_draws(L, &L->draws, &body);
        L->draws = draws_was, L->draw_iter = iter_was;
    }
    L->depth -= outer ? 0 : 1;
    NgIrRef b = seal(L, &body);
    int body_windows = L->nwindows;
    L->nwindows = windows;
    if (!known || L->st != NG_OK)
        return NG_IR_NONE;
    if (b == NG_IR_NONE)
        b = ng_ir_block(L->k, 0, NULL);
    NgIrRef skip = outer ? python_skip(L, out) : NG_IR_NONE; /* (then no iteration runs) */
    NgIrRef r;
    if (split_n != NG_IR_NONE) {
        /* for part in 0, 1, 2: for c in [first, v0), [v0, v0 + 1) when v0 is an iteration, the rest */
        NgIrKernel *k = L->k;
        int part = ng_ir_var(k, NG_INT64);
        NgIrRef pr = ng_ir_varref(k, part);
        NgIrRef at_before = ng_ir_binary(k, NG_OP_ADD, NG_INT64, first, ng_ir_binary(k, NG_OP_MUL, NG_INT64, before, by));
        NgIrRef at_after = ng_ir_binary(k, NG_OP_ADD, NG_INT64, first, ng_ir_binary(k, NG_OP_MUL, NG_INT64, after, by));
        NgIrRef in = ng_ir_for(k, counter, by_phase(L, pr, first, at_before, at_after),
                               by_phase(L, pr, at_before, at_after, last), by, b, flags);
        NgIrRef parts = ng_ir_const_i(k, NG_INT64, 3);
        if (skip != NG_IR_NONE)
            parts = ng_ir_select(k, skip, ng_ir_const_i(k, NG_INT64, 0), parts);
        r = ng_ir_for(k, part, ng_ir_const_i(k, NG_INT64, 0), parts, ng_ir_const_i(k, NG_INT64, 1),
                      ng_ir_block(k, 1, &in), 0);
    } else {
        if (wrapped != NG_IR_NONE)
            last = ng_ir_select(L->k, wrapped, first, last);
        if (skip != NG_IR_NONE)
            last = ng_ir_select(L->k, skip, first, last);
        r = ng_ir_for(L->k, counter, first, last, by, b, flags);
        if (!outer && body_windows > windows)
            r = versioned(L, r, windows, body_windows, const_step ? trip_count(L, start, stop, step) : last);
    }
    if (loop_ref)
        *loop_ref = r;
    return r;
}

/* Whether e mentions a name the nest assigns (then a range over it may
 * change from one outer iteration to the next). */
static bool mentions_assigned(Lower *L, const NgJitExpr *e)
{
    if (!e)
        return false;
    if (e->kind == NG_JIT_E_NAME)
        return L->syms[e->name_id].kind == SYM_LOCAL || L->syms[e->name_id].kind == SYM_VIEW ||
               L->syms[e->name_id].kind == SYM_EXPR;
    if (e->kind == NG_JIT_E_ATTR)
        return mentions_assigned(L, e->lhs);
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME &&
        L->syms[e->lhs->name_id].kind == SYM_UNBOUND && find_def(L, e->lhs->name))
        return true; /* a helper: whatever it reads */
    bool m = mentions_assigned(L, e->lhs) || mentions_assigned(L, e->rhs) || mentions_assigned(L, e->cond);
    for (int i = 0; !m && i < e->nitems && e->kind != NG_JIT_E_DICT; i++)
        m = mentions_assigned(L, e->items[i]);
    return m;
}

/* Whether b has a `break` that is not inside a loop of its own. */
static bool breaks(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_BREAK || (s->kind == NG_JIT_S_IF && (breaks(s->body) || breaks(s->orelse))))
            return true;
    }
    return false;
}

/* Whether b (loops in it too) has a `return`. */
static bool returns_in(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_RETURN ||
            ((s->kind == NG_JIT_S_IF || s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) &&
             (returns_in(s->body) || returns_in(s->orelse))))
            return true;
    }
    return false;
}

/* Whether b may leave the loop whose body it is before its range ends: a `break` of that loop, a
 * `return` anywhere in it (a search: hoisted_check's corners would be past what it reads). */
static bool leaves_early(NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_BREAK || s->kind == NG_JIT_S_RETURN)
            return true;
        if (s->kind == NG_JIT_S_IF && (leaves_early(s->body) || leaves_early(s->orelse)))
            return true;
        if ((s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) && returns_in(s->body))
            return true;
    }
    return false;
}

/* Whether loop's body is one loop over a range that stays the same from one of
 * its iterations to the next, counting a local, with no break: a perfect,
 * rectangular nest of the two. */
static bool perfect_inner(Lower *L, const NgJitStmt *loop)
{
    if (loop->body.n != 1)
        return false;
    const NgJitStmt *in = loop->body.stmts[0];
    return in->kind == NG_JIT_S_FOR && !in->orelse.n && in->target->kind == NG_JIT_E_NAME &&
           sym_of(L, in->target)->kind == SYM_LOCAL && !mentions_assigned(L, in->test) && !breaks(in->body);
}

/* The outer loop and the loops perfectly nested in it, as one flat parallel
 * loop over t in [0, n0 * n1 * ...): each variable from t's digits.
 * Collapses up to plan->collapse loops, fewer where the nest stops being
 * perfect and rectangular (a statement beside the inner loop, a range that
 * changes with the outer variables, a break). */
static NgIrRef collapsed_for(Lower *L, const NgJitStmt *loop, Stmts *out, const Stmts *prologue, NgIrRef *loop_ref)
{
    const NgJitStmt *lv[NG_JIT_MAX_COLLAPSE];
    int nl = 0;
    for (const NgJitStmt *cur = loop;;) {
        lv[nl++] = cur;
        if (nl == L->plan->collapse || nl == NG_JIT_MAX_COLLAPSE || !perfect_inner(L, cur))
            break;
        cur = cur->body.stmts[0];
    }
    if (nl == 1 || loop->orelse.n || loop->target->kind != NG_JIT_E_NAME)
        return for_range(L, loop, out, prologue, NG_IR_PARALLEL, loop_ref, true);
    NgIrKernel *k = L->k;
    Val start[NG_JIT_MAX_COLLAPSE], stop[NG_JIT_MAX_COLLAPSE], step[NG_JIT_MAX_COLLAPSE], n[NG_JIT_MAX_COLLAPSE];
    Val total = NOVAL;
    bool known = true;
    for (int d = 0; d < nl; d++) {
        if (!range_args(L, lv[d], &start[d], &stop[d], &step[d]))
            return NG_IR_NONE;
        start[d] = pin(L, start[d], out);
        stop[d] = pin(L, stop[d], out);
        step[d] = pin(L, step[d], out);
        known = known && start[d].r != NG_IR_NONE && stop[d].r != NG_IR_NONE && step[d].r != NG_IR_NONE;
        if (!known)
            continue;
        n[d] = pin(L, mkval(trip_count(L, start[d], stop[d], step[d]), NG_INT64, true, true), out);
        step_python(L, step[d], lv[d]->span.line);
        total = d == 0 ? n[0] : mkval(ng_ir_binary(k, NG_OP_MUL, NG_INT64, total.r, n[d].r), NG_INT64, true, true);
    }
    if (known) {
        total = pin(L, total, out);
        trips_python(L, total.r, loop->span.line); /* (a perfect nest: an inner loop of none runs nothing) */
    }
    int counter = ng_ir_var(k, NG_INT64);
    Stmts body = {0};
    if (prologue)
        for (int i = 0; i < prologue->n; i++)
            push(L, &body, prologue->v[i]);
    L->rank = ng_ir_varref(k, counter);
    if (known) {
        /* innermost digit first: q = rem % n[d], rem //= n[d] */
        NgIrRef rem = ng_ir_varref(k, counter), digit[NG_JIT_MAX_COLLAPSE];
        for (int d = nl - 1; d > 0; d--) {
            digit[d] = ng_ir_binary(k, NG_OP_MOD, NG_INT64, rem, n[d].r);
            rem = ng_ir_binary(k, NG_OP_FLOORDIV, NG_INT64, rem, n[d].r);
        }
        digit[0] = rem;
        for (int d = 0; d < nl; d++) {
            bool const_step = is_const(L, step[d].r);
            int64_t st = const_step ? const_i(L, step[d].r) : 0;
            bool stop_ok = stop[d].nonneg || (is_const(L, stop[d].r) && const_i(L, stop[d].r) >= -1);
            NgIrRef v = ng_ir_binary(k, NG_OP_ADD, NG_INT64, start[d].r,
                                     ng_ir_binary(k, NG_OP_MUL, NG_INT64, digit[d], step[d].r));
            Val value = mkval(v, NG_INT64, true, const_step && (st > 0 ? start[d].nonneg : stop_ok));
            value = counter_mag(L, value, start[d], stop[d]);
            if (const_step && st > 0)
                value = at_least(value, lo_of(L, start[d]));
            push(L, &body, assign_local(L, sym_of(L, lv[d]->target), value));
            bind_counter(L, sym_of(L, lv[d]->target), value, lv[nl - 1]->body);
        }
    }
    iteration_body(L, lv[nl - 1]->body, &body);
    for (int d = 0; d < nl; d++)
        sym_of(L, lv[d]->target)->bound = false;
    NgIrRef b = seal(L, &body);
    if (!known || L->st != NG_OK)
        return NG_IR_NONE;
    if (b == NG_IR_NONE)
        b = ng_ir_block(k, 0, NULL);
    NgIrRef skip = python_skip(L, out), zero = ng_ir_const_i(k, NG_INT64, 0);
    NgIrRef r = ng_ir_for(k, counter, zero, skip != NG_IR_NONE ? ng_ir_select(k, skip, zero, total.r) : total.r,
                          ng_ir_const_i(k, NG_INT64, 1), b, NG_IR_PARALLEL);
    *loop_ref = r;
    return r;
}

static void while_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    if (s->orelse.n) {
        unsupported(L, s->else_line ? s->else_line : s->span.line, "a while loop's else block");
        return;
    }
    L->seq_loops++; /* (the test's checks run in the loop) */
    Val c = cond(L, s->test);
    Stmts body = {0};
    if (L->pending->n) {
        /* the test's bounds checks (and inlined helpers) run before every test:
         * while True: checks; if not test: break; body */
        for (int i = 0; i < L->pending->n; i++)
            append(L, &body, L->pending->v[i]);
        L->pending->n = 0;
        if (c.r != NG_IR_NONE)
            append(L, &body, ng_ir_if(L->k, ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, c.r), ng_ir_jump(L->k, NG_IR_BREAK),
                                      NG_IR_NONE));
        c = mkval(ng_ir_const_i(L->k, NG_BOOL, 1), NG_BOOL, true, true);
    }
    L->depth++;
    L->in_loop++;
    L->in_cond++;
    bool in_iteration = L->in_iteration;
    L->in_iteration = false; /* (see raise_value_if) */
    block(L, s->body, &body);
    L->in_iteration = in_iteration;
    L->in_cond--;
    L->in_loop--;
    L->seq_loops--;
    L->depth--;
    NgIrRef b = seal(L, &body);
    if (c.r == NG_IR_NONE || L->st != NG_OK)
        return;
    if (b == NG_IR_NONE)
        b = ng_ir_block(L->k, 0, NULL);
    push(L, out, ng_ir_while(L->k, c.r, b));
    carry_stop(L, out);
}

static void if_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    Val c = cond(L, s->test);
    Stmts then = {0}, other = {0};
    L->in_cond++;
    block(L, s->body, &then);
    block(L, s->orelse, &other);
    L->in_cond--;
    NgIrRef t = seal(L, &then), o = seal(L, &other);
    if (c.r == NG_IR_NONE || L->st != NG_OK)
        return;
    if (t == NG_IR_NONE)
        t = ng_ir_block(L->k, 0, NULL);
    push(L, out, ng_ir_if(L->k, c.r, t, o));
}

/* `if v > a[e]: a[e] = v` or `a[e] = max(a[e], v)` (`<`, min alike: ng_jit_cond_store) of an
 * array the parallel loop updates atomically: the element takes v where v compares greater,
 * atomically (an ATOMIC of op GT, LT: a NaN v never replaces the element, a NaN element stays,
 * as in Python). False for any other statement. */
static bool cond_store_stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    const NgJitExpr *t, *v;
    int red = L->plan->parallel && L->plan->atomic ? ng_jit_cond_store(s, &t, &v) : -1;
    const NgJitExpr *root = red >= 0 ? t : NULL;
    while (root && root->kind == NG_JIT_E_SUBSCRIPT)
        root = root->lhs;
    if (!root || root->kind != NG_JIT_E_NAME || sym_of(L, root)->kind != SYM_ARRAY ||
        !is_atomic_target(L, sym_of(L, root)))
        return false;
    int line = s->span.line;
    NgIrRef idx[NG_MAXDIMS], ok;
    L->storing = true;
    Sym *a = element(L, t, idx, &ok);
    L->storing = false;
    Val rhs = expr(L, v);
    if (!a || rhs.r == NG_IR_NONE || immutable(L, a, line))
        return true;
    mark_written(L, a);
    NgDType adt = a->given->dtype;
    if (rhs.dt != adt || adt == NG_FLOAT16 || ng_dtype_is_complex(adt)) {
        /* (Python compares in the common type, then stores the value cast) */
        fail(L, line, NG_ERR_UNSUPPORTED, "an atomic %s of %s elements with a %s value is not supported in a "
             "compiled loop", red == NG_JIT_RED_MAX ? "max" : "min", ng_dtype_info(adt)->name, type_name(rhs));
        return true;
    }
    push(L, out, guarded(L, ok, ng_ir_atomic(L->k, red == NG_JIT_RED_MAX ? NG_OP_GT : NG_OP_LT, a->param,
                                             a->given->ndim, idx, as(L, rhs, adt))));
    return true;
}

static void stmt(Lower *L, const NgJitStmt *s, Stmts *out)
{
    if (L->st != NG_OK)
        return;
    int line = s->span.line;
    if ((s->kind == NG_JIT_S_ASSIGN || s->kind == NG_JIT_S_IF) && cond_store_stmt(L, s, out))
        return;
    switch (s->kind) {
    case NG_JIT_S_ASSIGN:
        assign_stmt(L, s, out);
        break;
    case NG_JIT_S_ANNASSIGN:
        if (s->value)
            assign_to(L, s->target, expr(L, s->value), out);
        break;
    case NG_JIT_S_AUGASSIGN:
        augassign_stmt(L, s, out);
        break;
    case NG_JIT_S_FOR:
        push(L, out, for_range(L, s, out, NULL, s == L->par_inner ? NG_IR_PARALLEL : rows_loop(L, s) ?
                                                 NG_IR_PARALLEL | NG_IR_ROWS : 0, NULL, false));
        carry_stop(L, out);
        break;
    case NG_JIT_S_WHILE:
        while_stmt(L, s, out);
        break;
    case NG_JIT_S_IF:
        if_stmt(L, s, out);
        break;
    case NG_JIT_S_BREAK: case NG_JIT_S_CONTINUE:
        L->jumped = true;
        if (s->kind == NG_JIT_S_BREAK && L->depth == 0 && L->plan->parallel) {
            unsupported(L, line, "break out of a parallel loop");
            break;
        }
        push(L, out, ng_ir_jump(L->k, s->kind == NG_JIT_S_BREAK ? NG_IR_BREAK : NG_IR_CONTINUE));
        break;
    case NG_JIT_S_PASS:
        break;
    case NG_JIT_S_EXPR:
        /* a docstring or `...` does nothing; a call for its effect cannot run here */
        if (s->value->kind == NG_JIT_E_STR || s->value->kind == NG_JIT_E_CONST ||
            s->value->kind == NG_JIT_E_INT || s->value->kind == NG_JIT_E_FLOAT)
            break;
        if (s->value->kind == NG_JIT_E_CALL && s->value->lhs->kind == NG_JIT_E_NAME &&
            strcmp(s->value->lhs->name, NG_JIT_SAME_SHAPE) == 0) {
            expr(L, s->value); /* (a check before the loop) */
        } else if (s->value->kind != NG_JIT_E_CALL) {
            str_expr(L, s->value); /* (for what it raises: a comprehension's elements, desugar.c) */
            flush(L, out);
        } else if (s->value->kind == NG_JIT_E_CALL && s->value->lhs->kind == NG_JIT_E_NAME &&
            sym_of(L, s->value->lhs)->kind == SYM_UNBOUND && find_def(L, s->value->lhs->name)) {
            /* a helper called for its effect: its body, the value dropped */
            helper_call(L, s->value, find_def(L, s->value->lhs->name), 0, NULL);
            flush(L, out);
        } else if (s->value->kind == NG_JIT_E_CALL) {
            char buf[80], what[256];
            snprintf(what, sizeof what, "calling %s() for its effect", snip(L, s->value->lhs, buf, sizeof buf));
            unsupported(L, line, what);
        }
        break;
    case NG_JIT_S_RETURN:
        return_stmt(L, s, out);
        break;
    case NG_JIT_S_RAISE: { /* raise E("..."), or assert c, "...": the host raises it (raise_as_python) */
        NgIrRef bad = ng_ir_const_i(L->k, NG_BOOL, 1);
        if (s->test) {
            Val c = cond(L, s->test);
            if (c.r == NG_IR_NONE)
                break;
            bad = ng_ir_unary(L->k, NG_OP_LOGNOT, NG_BOOL, c.r);
        }
        raise_value_if(L, bad, ng_ir_const_i(L->k, NG_INT64, ng_jit_raise_code(NG_JIT_RAISE_STMT, line,
                                                                                s->raise_id + 1)));
        flush(L, out);
        break;
    }
    case NG_JIT_S_DEF:
        unsupported(L, line, "a def");
        break;
    case NG_JIT_S_OTHER: {
        char what[80];
        snprintf(what, sizeof what, "the %s statement", s->what ? s->what : "");
        unsupported(L, line, what);
        break;
    }
    default:
        unsupported(L, line, "this statement");
        break;
    }
}

/* The statements of b into out; under boundscheck each with its checks
 * first (the enclosing statement's checks wait in their own list). */
static void block(Lower *L, NgJitBlock b, Stmts *out)
{
    Stmts checks = {0}, *saved = L->pending;
    NgIrRef guard = L->guard;
    L->pending = &checks;
    L->guard = NG_IR_NONE;
    for (int i = 0; i < b.n && L->st == NG_OK; i++)
        stmt(L, b.stmts[i], out);
    ng_free(checks.v);
    L->pending = saved;
    L->guard = guard;
}

/* A helper's statements from t on (tail_ok holds), as block() would lower
 * them: an if that returns takes what follows it into the branch that goes
 * on, and a return ends them. */
static void tail_block(Lower *L, const Tail *t, Stmts *out)
{
    Stmts checks = {0}, *saved = L->pending;
    NgIrRef guard = L->guard;
    L->pending = &checks;
    L->guard = NG_IR_NONE;
    bool done = false;
    for (; t && !done; t = t->next)
        for (int i = 0; i < t->n && !done && L->st == NG_OK; i++) {
            const NgJitStmt *s = t->s[i];
            done = s->kind == NG_JIT_S_RETURN;
            if (s->kind != NG_JIT_S_IF || !has_returns(s)) {
                stmt(L, s, out);
                continue;
            }
            done = true;
            Tail cont = {t->s + i + 1, t->n - i - 1, t->next};
            Tail tb = {s->body.stmts, s->body.n, returns_all(s->body) ? NULL : &cont};
            Tail to = {s->orelse.stmts, s->orelse.n, returns_all(s->orelse) ? NULL : &cont};
            Val c = cond(L, s->test);
            Stmts then = {0}, other = {0};
            tail_block(L, &tb, &then);
            tail_block(L, &to, &other);
            NgIrRef b = seal(L, &then), o = seal(L, &other);
            if (c.r == NG_IR_NONE || L->st != NG_OK)
                break;
            push(L, out, ng_ir_if(L->k, c.r, b == NG_IR_NONE ? ng_ir_block(L->k, 0, NULL) : b, o));
        }
    ng_free(checks.v);
    L->pending = saved;
    L->guard = guard;
}

/* ---- set-up and passes ---- */

/* The array and index count of a view-like value (a, a[i], a[i][j] of a
 * free array a, fewer indices than its rank), or NULL. */
static Sym *view_of(Lower *L, const NgJitExpr *v, int *nfixed)
{
    int n = 0;
    while (v->kind == NG_JIT_E_SUBSCRIPT) {
        const NgJitExpr *ix = v->rhs;
        int m = ng_jit_index_count(ix); /* (X[i, :] is X[i], as in index_chain) */
        for (int i = 0; i < m; i++)
            if ((ix->kind == NG_JIT_E_TUPLE ? ix->items[i] : ix)->kind == NG_JIT_E_SLICE ||
                is_newaxis(L, ix->kind == NG_JIT_E_TUPLE ? ix->items[i] : ix))
                return NULL;
        n += m;
        v = v->lhs;
    }
    if (v->kind != NG_JIT_E_NAME)
        return NULL;
    Sym *a = sym_of(L, v);
    const NgJitVarType *g = a->given;
    if (!g || !g->is_array || g->module != NG_JIT_MOD_NONE || n >= g->ndim)
        return NULL;
    *nfixed = n;
    return a;
}

/* Marks the names that hold views of arrays (every assignment to them is
 * `name = a[i]` of the same array and index count): base and nfixed set,
 * or nfixed -1 for a name assigned otherwise. */
static void scan_views(Lower *L, NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_ASSIGN) {
            for (int t = 0; t < s->ntargets; t++) {
                const NgJitExpr *tg = s->targets[t];
                if (tg->kind == NG_JIT_E_NAME) {
                    Sym *v = sym_of(L, tg);
                    int n = 0;
                    Sym *a = s->ntargets == 1 ? view_of(L, s->value, &n) : NULL;
                    if (v->nfixed >= 0 && a && (!v->base || (v->base == a && v->nfixed == n))) {
                        v->base = a;
                        v->nfixed = n;
                    } else {
                        v->nfixed = -1;
                    }
                } else if (tg->kind == NG_JIT_E_TUPLE || tg->kind == NG_JIT_E_LIST) {
                    for (int k = 0; k < tg->nitems; k++)
                        if (tg->items[k]->kind == NG_JIT_E_NAME)
                            sym_of(L, tg->items[k])->nfixed = -1;
                }
            }
        } else if ((s->kind == NG_JIT_S_AUGASSIGN || s->kind == NG_JIT_S_ANNASSIGN || s->kind == NG_JIT_S_FOR) &&
                   s->target->kind == NG_JIT_E_NAME) {
            sym_of(L, s->target)->nfixed = -1;
        }
        scan_views(L, s->body);
        scan_views(L, s->orelse);
    }
}

/* ---- locals naming an elementwise expression of rows (SYM_EXPR) ---- */

/* The axes of e's value where it is an array computed elementwise from parts of arrays
 * (np.exp(X[i] - m), X[i] > 0, d * d where d is one too, W @ X[i], np.sum(C - X[i], axis=1)),
 * else 0: a part read outside any reduction but one along an axis, through arithmetic, one
 * comparison, abs() and NumPy's scalar functions; the value a loop body assigns to a name. */
static int row_rank(Lower *L, const NgJitExpr *e)
{
    switch (e->kind) {
    case NG_JIT_E_NAME: {
        Sym *s = sym_of(L, e);
        if (s->kind == SYM_EXPR && !s->expanding) {
            s->expanding = true;
            int r = row_rank(L, s->value);
            s->expanding = false;
            return r;
        }
        if (s->kind == SYM_ARRAY && s->given && s->given->seq == NG_JIT_SEQ_ARRAY &&
            s->given->module == NG_JIT_MOD_NONE)
            return s->given->ndim; /* (whole: C in C - X[i]) */
        return s->kind == SYM_BUF ? s->brank
               : s->kind == SYM_VIEW && s->nfixed < s->base->given->ndim ? s->base->given->ndim - s->nfixed : 0;
    }
    case NG_JIT_E_SUBSCRIPT: {
        if (is_mask_index(L, e)) { /* (x[m]: the selected elements, a row; of fewer axes, rows of them) */
            NgJitExpr part, index;
            const NgJitExpr *me, *xe = mask_parts(e, &part, &index, &me);
            int x = row_rank(L, xe), m = row_rank(L, me);
            return x > 0 && m <= x ? x - m + 1 : 0;
        }
        int n, slices;
        bool trailing;
        const NgJitExpr *r = chain_root(L, e, &n, &slices, &trailing);
        if (!r || r->kind != NG_JIT_E_NAME)
            return 0;
        const Sym *s = sym_of(L, r);
        const Sym *a = s->kind == SYM_VIEW ? s->base : s;
        int fixed = s->kind == SYM_VIEW ? s->nfixed : 0;
        if (s->kind == SYM_BUF)
            return slices + s->brank - n > 0 ? slices + s->brank - n : 0;
        if ((s->kind != SYM_ARRAY && s->kind != SYM_VIEW) || !a->given || a->given->seq != NG_JIT_SEQ_ARRAY ||
            a->given->module != NG_JIT_MOD_NONE)
            return 0;
        int rank = slices + a->given->ndim - fixed - n;
        return rank > 0 ? rank : 0;
    }
    case NG_JIT_E_BINARY: {
        if (e->op == NG_JIT_OP_MATMUL) /* (of two rows, a number; a matrix and a row, a row; two matrices, a
                                          part of two axes) */
            return matrix_of(L, e->lhs) + matrix_of(L, e->rhs);
        int a = row_rank(L, e->lhs), b = row_rank(L, e->rhs);
        return a > b ? a : b;
    }
    case NG_JIT_E_UNARY:
        return e->op != NG_JIT_OP_NOT ? row_rank(L, e->lhs) : 0;
    case NG_JIT_E_COMPARE: {
        int a = e->nitems == 2 ? row_rank(L, e->items[0]) : 0, b = e->nitems == 2 ? row_rank(L, e->items[1]) : 0;
        return a > b ? a : b;
    }
    case NG_JIT_E_CALL: {
        NgJitCallKind k = ng_jit_call_kind(e);
        const char *fn = e->lhs->kind == NG_JIT_E_ATTR ? e->lhs->name : "";
        bool abs_call = k == NG_JIT_CALL_BUILTIN && strcmp(e->lhs->name, "abs") == 0;
        bool dot = strcmp(fn, "dot") == 0 || strcmp(fn, "matmul") == 0;
        if (k == NG_JIT_CALL_NP_REDUCE && e->nitems == 2 && !e->nkeywords && dot)
            return matrix_of(L, e->items[0]) + matrix_of(L, e->items[1]); /* np.dot(W, x[i]): a row */
        if ((k == NG_JIT_CALL_NP_REDUCE || k == NG_JIT_CALL_METHOD) && !dot) { /* along an axis: one fewer */
            bool method = k == NG_JIT_CALL_METHOD, norm = strcmp(fn, "norm") == 0;
            const NgJitExpr *axis = e->nitems > 1 + norm - method ? e->items[1 + norm - method] : NULL;
            bool keep = false; /* (keepdims=True: as many axes, those reduced of length 1) */
            for (int i = 0; i < e->nkeywords; i++) {
                const NgJitKeyword *kw = &e->keywords[i];
                if (kw->name && strcmp(kw->name, "axis") == 0)
                    axis = kw->value;
                if (kw->name && strcmp(kw->name, "keepdims") == 0)
                    keep = kw->value->kind == NG_JIT_E_CONST && kw->value->cval == NG_JIT_C_TRUE;
            }
            if ((!axis || is_none(axis)) && !keep)
                return 0;
            int r = method ? row_rank(L, e->lhs->lhs) : e->nitems ? row_rank(L, e->items[0]) : 0;
            int fewer = axis && axis->kind == NG_JIT_E_TUPLE ? axis->nitems : 1; /* (axis=(0, 1)) */
            return keep ? r : r > fewer ? r - fewer : 0;
        }
        if (k == NG_JIT_CALL_NP_SCALAR && strcmp(fn, "arange") == 0)
            return 1;
        if ((k != NG_JIT_CALL_NP_SCALAR && !abs_call) || e->nkeywords)
            return 0;
        int most = 0;
        for (int i = 0; i < e->nitems; i++) {
            int r = row_rank(L, e->items[i]);
            most = r > most ? r : most;
        }
        return most;
    }
    default:
        return 0;
    }
}

typedef struct NameCount {
    int id, n;
} NameCount;

static void count_name(void *ctx, const NgJitExpr *e)
{
    NameCount *c = ctx;
    c->n += e->name_id == c->id;
}

static int mentions_in(NgJitBlock b, int id)
{
    NameCount c = {id, 0};
    walk_block(b, count_name, &c);
    return c.n;
}

/* Whether e reads name id only whole: never as x[i] (where `indexed`, as x[i] too: a part of a
 * buffer), x.attr, x(...) or x := v. */
static bool read_whole(const NgJitExpr *e, int id, bool indexed)
{
    if (!e)
        return true;
    if (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_ATTR && e->lhs->lhs->kind == NG_JIT_E_NAME &&
        e->lhs->lhs->name_id == id && ng_jit_call_kind(e) == NG_JIT_CALL_METHOD) { /* e.sum(): np.sum(e) */
        for (int i = 0; i < e->nitems; i++)
            if (!read_whole(e->items[i], id, indexed))
                return false;
        for (int i = 0; i < e->nkeywords; i++)
            if (!read_whole(e->keywords[i].value, id, indexed))
                return false;
        return true;
    }
    if (indexed && e->kind == NG_JIT_E_SUBSCRIPT && e->lhs->kind == NG_JIT_E_NAME && e->lhs->name_id == id)
        return read_whole(e->rhs, id, indexed); /* (a buffer's part, indexed: r[j] of r = a[i]) */
    if ((e->kind == NG_JIT_E_SUBSCRIPT || e->kind == NG_JIT_E_ATTR || e->kind == NG_JIT_E_CALL ||
         e->kind == NG_JIT_E_NAMED) && e->lhs && e->lhs->kind == NG_JIT_E_NAME && e->lhs->name_id == id)
        return false;
    if (!read_whole(e->lhs, id, indexed) || !read_whole(e->rhs, id, indexed) || !read_whole(e->cond, id, indexed))
        return false;
    for (int i = 0; i < e->nitems && e->kind != NG_JIT_E_DICT; i++)
        if (!read_whole(e->items[i], id, indexed))
            return false;
    for (int i = 0; e->kind == NG_JIT_E_CALL && i < e->nkeywords; i++)
        if (!read_whole(e->keywords[i].value, id, indexed))
            return false;
    return true;
}

static bool read_whole_block(NgJitBlock b, int id, bool indexed)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        for (int t = 0; t < s->ntargets; t++)
            if (s->targets[t]->kind == NG_JIT_E_NAME ? s->targets[t]->name_id == id : !read_whole(s->targets[t], id, indexed))
                return false;
        if ((s->target && (s->target->kind == NG_JIT_E_NAME ? s->target->name_id == id : !read_whole(s->target, id, indexed))) ||
            !read_whole(s->value, id, indexed) || !read_whole(s->test, id, indexed) || !read_whole_block(s->body, id, indexed) ||
            !read_whole_block(s->orelse, id, indexed))
            return false;
    }
    return true;
}

typedef struct StorageRead {
    Lower *L;
    const Sym *w;
    bool found;
} StorageRead;

static void storage_read(void *ctx, const NgJitExpr *name)
{
    StorageRead *q = ctx;
    const Sym *s = sym_of(q->L, name);
    if (storage(s) == storage(q->w))
        q->found = true;
    else if (s->kind == SYM_EXPR) /* (what its expression reads) */
        walk_expr(s->value, storage_read, q);
}

/* Whether evaluating e reads what `w` names (its array, or a view of it, or the scalar). */
static bool reads_storage(Lower *L, const NgJitExpr *e, const Sym *w)
{
    StorageRead q = {L, w, false};
    walk_expr(e, storage_read, &q);
    return q.found;
}

typedef struct BufRead {
    Lower *L;
    bool found;
} BufRead;

static void note_buf_read(void *ctx, const NgJitExpr *name)
{
    BufRead *q = ctx;
    SymKind k = sym_of(q->L, name)->kind;
    q->found = q->found || k == SYM_BUF || k == SYM_EXPR;
}

/* Whether value names a part of a buffer that no store into a buffer moves: `r = a[i]`, its
 * indices reading no buffer (a store into a's elements changes what r holds, as it changes
 * NumPy's view, not which elements r is). */
static bool fixed_part(Lower *L, const NgJitExpr *value)
{
    if (value->kind != NG_JIT_E_SUBSCRIPT || !buf_root(L, value))
        return false;
    BufRead q = {L, false};
    for (const NgJitExpr *e = value; e->kind == NG_JIT_E_SUBSCRIPT; e = e->lhs)
        walk_expr(e->rhs, note_buf_read, &q);
    return !q.found;
}

/* Whether a store target t changes what `value` reads. */
static bool target_changes(Lower *L, const NgJitExpr *t, const NgJitExpr *value)
{
    if (t->kind == NG_JIT_E_TUPLE || t->kind == NG_JIT_E_LIST) {
        for (int i = 0; i < t->nitems; i++)
            if (target_changes(L, t->items[i], value))
                return true;
        return false;
    }
    if (t->kind == NG_JIT_E_STARRED)
        return target_changes(L, t->lhs, value);
    if (t->kind == NG_JIT_E_SUBSCRIPT && buf_root(L, t) && fixed_part(L, value))
        return false; /* (a store into a buffer's elements: the part reads them where it is read) */
    const NgJitExpr *root = subscript_base(t);
    return !root || reads_storage(L, value, sym_of(L, root));
}

/* Whether e calls a helper function (which may write the arrays it is given) or assigns (:=). */
static bool calls_or_walrus(Lower *L, const NgJitExpr *e)
{
    if (!e)
        return false;
    if (e->kind == NG_JIT_E_NAMED ||
        (e->kind == NG_JIT_E_CALL && ng_jit_call_kind(e) == NG_JIT_CALL_HELPER))
        return true;
    if (calls_or_walrus(L, e->lhs) || calls_or_walrus(L, e->rhs) || calls_or_walrus(L, e->cond))
        return true;
    for (int i = 0; i < e->nitems && e->kind != NG_JIT_E_DICT; i++)
        if (calls_or_walrus(L, e->items[i]))
            return true;
    for (int i = 0; e->kind == NG_JIT_E_CALL && i < e->nkeywords; i++)
        if (calls_or_walrus(L, e->keywords[i].value))
            return true;
    return false;
}

/* Whether statements b may change what `value` reads: a store into its arrays (or through a
 * view of them), an assignment of its names, a helper's call. */
static bool block_changes(Lower *L, NgJitBlock b, const NgJitExpr *value)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        for (int t = 0; t < s->ntargets; t++)
            if (target_changes(L, s->targets[t], value))
                return true;
        if ((s->target && target_changes(L, s->target, value)) || calls_or_walrus(L, s->value) ||
            calls_or_walrus(L, s->test) || block_changes(L, s->body, value) || block_changes(L, s->orelse, value))
            return true;
    }
    return false;
}

/* Marks the locals that name an elementwise expression of rows (row_rank): assigned once in
 * the nest, `e = np.exp(X[i] - m)`, then read only whole, only by the statements after it in
 * its block, and not after the loop; nothing those statements do before the last of them that
 * reads it changes what the expression reads (that one may: Python evaluates its value before
 * storing it). Each read is the expression itself, computed where it is read (twice where it
 * is read twice: NumPy's values, without the array NumPy makes). */
static void scan_exprs(Lower *L, const NgJitStmt *loop, NgJitBlock whole, NgJitBlock b)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        Sym *v = s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME
                     ? sym_of(L, s->targets[0]) : NULL;
        if (v && v->kind == SYM_LOCAL && !v->given && row_rank(L, s->value) > 0 &&
            !(s->value->kind == NG_JIT_E_NAME && sym_of(L, s->value)->kind == SYM_ARRAY)) { /* (not b = X) */
            int id = s->targets[0]->name_id, uses = 0, last = -1; /* (last: the last statement reading it) */
            NgJitBlock rest = {b.stmts + i + 1, b.n - i - 1};
            for (int j = 0; j < rest.n; j++) {
                int m = mentions_in((NgJitBlock){rest.stmts + j, 1}, id);
                uses += m;
                last = m ? j : last;
            }
            NgJitBlock before = {rest.stmts, last}, reader = {rest.stmts + last, 1};
            bool part = s->value->kind == NG_JIT_E_SUBSCRIPT && buf_root(L, s->value); /* (r = a[i]) */
            if (last >= 0 && mentions_in(whole, id) == 1 + uses && read_whole_block(rest, id, part) &&
                dead_after(L, loop, v->name) && !block_changes(L, before, s->value) &&
                !((reader.stmts[0]->body.n || reader.stmts[0]->orelse.n) && block_changes(L, reader, s->value))) {
                v->kind = SYM_EXPR;
                v->value = s->value;
            }
        }
        scan_exprs(L, loop, whole, s->body);
        scan_exprs(L, loop, whole, s->orelse);
    }
}

typedef struct BufFind {
    Lower *L;
    int id;
    int made, updates;     /* its `a = np.zeros(n)` statements, its `a op= v` ones */
    char why[160];         /* a shape the kernel cannot have (new_shape), "" for none */
    int64_t n;             /* the first one's size (-1: their shapes differ), */
    int ndim;              /* ... its axes, */
    int64_t shape[NG_JIT_MAX_NEW_RANK]; /* ... their lengths */
    NgJitBlock block;      /* the block of the first one, */
    int at;                /* ... its place there */
} BufFind;

/* The value of length expression e (ng_jit_length_expr) from the values the kernel is made for
 * (NgJitVarType.has_value: ints bound before the loop, which it does not assign, and free arrays'
 * shapes), in Python's arithmetic: false, with *why, where it has none. */
static bool length_value(const Lower *L, const NgJitExpr *e, int64_t *v, char *why, size_t size)
{
    char t[64];
    const Sym *s = NULL;
    switch (e->kind) {
    case NG_JIT_E_INT:
        *v = (int64_t)e->ival;
        return true;
    case NG_JIT_E_NAME:
        s = &L->syms[e->name_id];
        if (s->kind == SYM_SCALAR && !s->given->is_array && s->given->has_value) {
            *v = s->given->value;
            return true;
        }
        snprintf(why, size, "of a length, '%s', that is not an int bound before the loop and not changed in it",
                 s->name);
        return false;
    case NG_JIT_E_UNARY:
        if (!length_value(L, e->lhs, v, why, size))
            return false;
        if (e->op == NG_JIT_OP_NEG)
            *v = *v == INT64_MIN ? INT64_MAX : -*v; /* (out of range either way) */
        return true;
    case NG_JIT_E_BINARY: {
        int64_t a, b;
        if (!length_value(L, e->lhs, &a, why, size) || !length_value(L, e->rhs, &b, why, size))
            return false;
        bool over = false;
        if (e->op == NG_JIT_OP_ADD)
            over = __builtin_add_overflow(a, b, v);
        else if (e->op == NG_JIT_OP_SUB)
            over = __builtin_sub_overflow(a, b, v);
        else if (e->op == NG_JIT_OP_MUL)
            over = __builtin_mul_overflow(a, b, v);
        else if (b == 0) {
            snprintf(why, size, "of a length, '%s', that divides by zero", snip(L, e, t, sizeof t));
            return false;
        } else if (a == INT64_MIN && b == -1) {
            over = true;
        } else { /* Python's // and %: the quotient floored, the remainder of the divisor's sign */
            int64_t q = a / b, r = a % b;
            if (r != 0 && (r < 0) != (b < 0))
                q--, r += b;
            *v = e->op == NG_JIT_OP_FLOORDIV ? q : r;
        }
        if (over)
            *v = INT64_MAX;
        return true;
    }
    default:
        break;
    }
    int64_t k; /* x.shape[k], len(x) */
    s = &L->syms[ng_jit_measured(e, &k)->name_id];
    const NgJitVarType *g = s->kind == SYM_ARRAY ? s->given : NULL;
    if (g && k < 0)
        k += g->ndim;
    if (g && g->has_value && e->kind == NG_JIT_E_CALL && (g->seq == NG_JIT_SEQ_DICT_CHR || g->seq == NG_JIT_SEQ_DICT_INT)) {
        *v = g->value; /* len(d): the dict's length (ng_jit_takes_len) */
        return true;
    }
    if (!g || !g->has_value || (e->kind != NG_JIT_E_CALL && g->seq != NG_JIT_SEQ_ARRAY) ||
        g->seq == NG_JIT_SEQ_DICT_CHR || g->seq == NG_JIT_SEQ_DICT_INT || k < 0 || k >= g->ndim) {
        snprintf(why, size, "of a length, '%s', that is not the length of an array's axis the loop does not change",
                 snip(L, e, t, sizeof t));
        return false;
    }
    *v = g->shape[k];
    return true;
}

/* The shape of na->like (np.zeros_like(X[i]), X[i].copy()): a part of a free array whose shape the
 * kernel is made for (NgJitVarType.has_value), of a view of one, or of a small array (its indices
 * drop their axes, whole axes `:` and the axes after them stay): false, with *why, where it has
 * none or is not of 1 to NG_JIT_MAX_NEW_RANK axes. */
static bool like_shape(const Lower *L, NgJitNewArray *na, char *why, size_t size)
{
    char t[64];
    const NgJitExpr *chain[NG_MAXDIMS], *r = na->like;
    int nsub = 0;
    for (; r->kind == NG_JIT_E_SUBSCRIPT && nsub < NG_MAXDIMS; r = r->lhs)
        chain[nsub++] = r;
    const Sym *s = r->kind == NG_JIT_E_NAME ? &L->syms[r->name_id] : NULL;
    const Sym *a = s && s->kind == SYM_VIEW ? s->base : s;
    int rank = 0, from = s && s->kind == SYM_VIEW ? s->nfixed : 0;
    const int64_t *ext = NULL;
    if (a && a->kind == SYM_BUF)
        rank = a->brank, ext = a->bshape;
    else if (a && a->kind == SYM_ARRAY && a->given->seq == NG_JIT_SEQ_ARRAY && a->given->has_value)
        rank = a->given->ndim, ext = a->given->shape;
    if (!ext) {
        snprintf(why, size, "like '%s', which is not a part of an array bound before the loop or made in it",
                 snip(L, na->like, t, sizeof t));
        return false;
    }
    int nd = 0, axis = from;
    bool sliced = false;
    for (int q = nsub - 1; q >= 0; q--) { /* (the innermost subscript first) */
        const NgJitExpr *ix = chain[q]->rhs;
        int m = ng_jit_index_count(ix);
        if (sliced) {
            snprintf(why, size, "like '%s', a slice indexed again", snip(L, na->like, t, sizeof t));
            return false;
        }
        for (int i = 0; i < m; i++, axis++) {
            const NgJitExpr *x = ix->kind == NG_JIT_E_TUPLE ? ix->items[i] : ix;
            if (axis >= rank) {
                snprintf(why, size, "like '%s', of more indices than axes", snip(L, na->like, t, sizeof t));
                return false;
            }
            if (x->kind == NG_JIT_E_SLICE && nd < NG_JIT_MAX_NEW_RANK)
                na->shape[nd] = ext[axis];
            nd += x->kind == NG_JIT_E_SLICE;
            sliced = sliced || x->kind == NG_JIT_E_SLICE;
        }
    }
    for (; axis < rank; axis++, nd++)
        if (nd < NG_JIT_MAX_NEW_RANK)
            na->shape[nd] = ext[axis];
    if (nd < 1 || nd > NG_JIT_MAX_NEW_RANK) {
        snprintf(why, size, "like '%s', of %d axes (only 1 to %d compile)", snip(L, na->like, t, sizeof t), nd,
                 NG_JIT_MAX_NEW_RANK);
        return false;
    }
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n = n > NG_JIT_MAX_NEW ? n : n * na->shape[d];
    if (n < 1 || n > NG_JIT_MAX_NEW) {
        snprintf(why, size, "like '%s', of %lld elements (only 1 to %d compile)", snip(L, na->like, t, sizeof t),
                 (long long)n, NG_JIT_MAX_NEW);
        return false;
    }
    na->ndim = nd;
    return true;
}

/* The shape of small array na (ng_jit_new_array) with its lengths' values (length_value): false,
 * with *why, where one has none or the shape is out of range. */
static bool new_shape(const Lower *L, NgJitNewArray *na, char *why, size_t size)
{
    int64_t n = 1;
    char t[64];
    if (na->like && !like_shape(L, na, why, size))
        return false;
    for (int d = 0; d < na->ndim; d++) {
        if (na->named[d] && !length_value(L, na->named[d], &na->shape[d], why, size))
            return false;
        if (na->shape[d] < 1 || na->shape[d] > NG_JIT_MAX_NEW || (n *= na->shape[d]) > NG_JIT_MAX_NEW) {
            if (na->named[d])
                snprintf(why, size, "made with '%s' = %lld (only shapes of 1 to %d elements in all compile)",
                         snip(L, na->named[d], t, sizeof t), (long long)na->shape[d], NG_JIT_MAX_NEW);
            else
                snprintf(why, size, "made of more than %d elements", NG_JIT_MAX_NEW);
            return false;
        }
    }
    na->n = n;
    return true;
}

static void find_bufs(NgJitBlock b, BufFind *q)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        NgJitNewArray na;
        if (s->kind == NG_JIT_S_ASSIGN && s->ntargets == 1 && s->targets[0]->kind == NG_JIT_E_NAME &&
            s->targets[0]->name_id == q->id && ng_jit_new_array(s->value, &na)) {
            if (!q->why[0] && !new_shape(q->L, &na, q->why, sizeof q->why))
                na.n = -1;
            if (!q->made++) {
                q->n = na.n;
                q->ndim = na.ndim;
                memcpy(q->shape, na.shape, sizeof q->shape);
                q->block = b;
                q->at = i;
            } else if (na.ndim != q->ndim || memcmp(na.shape, q->shape, sizeof q->shape) != 0) {
                q->n = -1;
            }
        }
        q->updates += s->kind == NG_JIT_S_AUGASSIGN && s->target->kind == NG_JIT_E_NAME && s->target->name_id == q->id;
        find_bufs(s->body, q);
        find_bufs(s->orelse, q);
    }
}

static void count_store(void *ctx, const NgJitExpr *name)
{
    NameCount *c = ctx;
    c->n += name->ctx == NG_JIT_STORE && name->name_id == c->id;
}

/* Marks the locals that are small arrays the loop makes (SYM_BUF): bound only by
 * `a = np.zeros(n)` statements of one length n (np.ones, np.empty, np.full; updated in place
 * besides), mentioned only after the first of them, by the statements after it in its block,
 * and not read after the loop. Each iteration that reads one has made it first. */
static NgStatus scan_bufs(Lower *L, const NgJitStmt *loop)
{
    NgJitBlock whole = {(NgJitStmt **)&loop, 1};
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        BufFind q = {.L = L, .id = L->order[i]};
        if (s->kind != SYM_LOCAL || s->given)
            continue;
        find_bufs(whole, &q);
        if (!q.made)
            continue;
        NameCount stores = {q.id, 0};
        walk_block(whole, count_store, &stores);
        NgJitBlock rest = {q.block.stmts + q.at, q.block.n - q.at};
        char why[160] = "";
        if (stores.n != q.made + q.updates)
            snprintf(why, sizeof why, "bound to other values too (only `%s = np.zeros(n)` and updates in place "
                     "compile)", s->name);
        else if (q.why[0])
            snprintf(why, sizeof why, "%s", q.why);
        else if (q.n < 0)
            snprintf(why, sizeof why, "made with two shapes");
        else if (mentions_in(whole, q.id) != mentions_in(rest, q.id) ||
                 mentions_in((NgJitBlock){rest.stmts, 1}, q.id) != 1)
            snprintf(why, sizeof why, "used before it is made, or outside the block that makes it");
        else if (!dead_after(L, loop, s->name))
            snprintf(why, sizeof why, "read after the loop");
        if (why[0])
            return fail(L, rest.stmts[0]->span.line, NG_ERR_UNSUPPORTED,
                        "'%s' (an array made in the loop) %s is not supported in a compiled loop", s->name, why), L->st;
        s->kind = SYM_BUF;
        s->nbuf = q.n;
        s->brank = q.ndim;
        memcpy(s->bshape, q.shape, sizeof s->bshape);
        s->buf_mem = q.n > MAX_BUF_VARS; /* (longer: one array variable from the start) */
        s->dt = NG_NODTYPE;
    }
    return NG_OK;
}

/* Whether local s is a cell of a name not bound before the loop (no
 * reduction), or bound to a value of another type than the loop's (t = 0, then
 * t = x[i] of a float64 x under an if; a sum s = 0 of floats under an if, a
 * reduction): it takes a bool cell beside it saying
 * whether the loop assigned it (NG_JIT_ARG_BOUND); where it did not, Python's
 * name keeps its binding. */
static bool needs_bound_flag(const Sym *s)
{
    return s->kind == SYM_LOCAL && s->home == HOME_CELL &&
           (!s->given || s->fresh ||
            (!s->sure && (s->given->dtype != s->dt || s->given->numpy_scalar == s->weak)));
}

/* The dtype of local s's bound flag: a reduction's is an int64 the loop reduces
 * by its maximum, as the raise cell (any iteration that assigned it). */
static NgDType bound_dtype(const Sym *s) { return s->red >= 0 ? NG_INT64 : NG_BOOL; }

/* Whether assigning e may bind a name to the object it had (m = max(m, x[i])). */
static bool may_keep(const NgJitExpr *e)
{
    return e->kind == NG_JIT_E_IFEXP || e->kind == NG_JIT_E_BOOLOP || e->kind == NG_JIT_E_NAME ||
           (e->kind == NG_JIT_E_CALL && e->lhs->kind == NG_JIT_E_NAME &&
            (strcmp(e->lhs->name, "max") == 0 || strcmp(e->lhs->name, "min") == 0));
}

/* Marks the locals that every iteration of outer for loop `loop` binds to a new
 * object (Sym.sure): `name op= ...`, or `name = ...` of a value that is not
 * one of two (may_keep), at the body's top before any statement that may leave
 * the iteration. A loop of no iteration changes no name (trips_python), so after
 * the loop such a name holds a value of the loop's type. */
static void mark_sure(Lower *L, const NgJitStmt *loop)
{
    if (loop->kind != NG_JIT_S_FOR)
        return;
    for (int i = 0; i < loop->body.n; i++) {
        const NgJitStmt *st = loop->body.stmts[i];
        if (leaves((NgJitBlock){loop->body.stmts + i, 1}))
            return;
        if (st->kind == NG_JIT_S_AUGASSIGN && st->target->kind == NG_JIT_E_NAME)
            L->syms[st->target->name_id].sure = true;
        for (int t = 0; st->kind == NG_JIT_S_ASSIGN && !may_keep(st->value) && t < st->ntargets; t++)
            if (st->targets[t]->kind == NG_JIT_E_NAME)
                L->syms[st->targets[t]->name_id].sure = true;
    }
}

/* Classifies the names of the nest (once, before the passes). */
static NgStatus setup(Lower *L, const NgJitStmt *loop, const NgJitVarType *vars, int nvars)
{
    const NgJitAst *ast = L->ast;
    const NgJitLoopPlan *plan = L->plan;
    int line = loop->span.line;
    NgStatus st = loop_name_ids(ast, loop, &L->order, &L->norder);
    if (st != NG_OK)
        return st;
    L->syms = L->main_syms = ng_calloc((size_t)ast->nnames + 1, sizeof *L->syms);
    if (!L->syms)
        return ng_error_set(NG_ERR_NOMEM, "out of memory lowering a loop");
    for (int i = 0; i < ast->nnames; i++) {
        L->syms[i].name = ast->names[i];
        L->syms[i].red = -1;
        L->syms[i].dt = L->syms[i].adt = NG_NODTYPE;
        L->syms[i].param = -1;
    }
    for (int i = 0; i < L->norder; i++)
        L->syms[L->order[i]].mentioned = true;
    mark_stmt(L, loop);
    mark_sure(L, loop);
    for (int v = 0; v < nvars; v++) {
        if (!vars[v].name)
            continue;
        for (int i = 0; i < ast->nnames; i++)
            if (strcmp(ast->names[i], vars[v].name) == 0)
                L->syms[i].given = &vars[v];
    }
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        const NgJitVarType *g = s->given;
        if (g && g->module != NG_JIT_MOD_NONE) {
            s->kind = SYM_MODULE;
            s->module = g->module;
        } else if (!g && !s->assigned && module_named(s->name) != NG_JIT_MOD_NONE) {
            s->kind = SYM_MODULE;
            s->module = module_named(s->name);
        } else if (g && g->is_array) {
            if (g->ndim < 0 || g->ndim > NG_MAXDIMS || !usable(g->dtype))
                return fail(L, line, NG_ERR_TYPE, "array '%s' of dtype %s is not supported in a compiled loop",
                            s->name, g->dtype >= 0 && g->dtype < NG_NTYPES ? ng_dtype_info(g->dtype)->name : "?"), L->st;
            s->kind = SYM_ARRAY;
        } else if (g) {
            if (!usable(g->dtype))
                return fail(L, line, NG_ERR_TYPE, "scalar '%s' of dtype %s is not supported in a compiled loop",
                            s->name, g->dtype >= 0 && g->dtype < NG_NTYPES ? ng_dtype_info(g->dtype)->name : "?"), L->st;
            if (!s->assigned) {
                s->kind = SYM_SCALAR;
                continue;
            }
            s->kind = SYM_LOCAL;
            s->dt = g->dtype;
            s->weak = !g->numpy_scalar;
            s->nonneg = false;
            s->home = plan->parallel ? HOME_SCALAR : HOME_CELL;
        } else if (s->assigned) {
            s->kind = SYM_LOCAL;
            s->nonneg = true; /* starts at 0 */
            s->flo = INFINITY;
        } else {
            s->kind = SYM_UNBOUND; /* a builtin, or an error where it is read */
        }
    }
    /* locals that only ever name part of an array */
    if (loop->kind == NG_JIT_S_FOR && loop->target->kind == NG_JIT_E_NAME)
        L->syms[loop->target->name_id].nfixed = -1;
    NgJitBlock whole = {(NgJitStmt **)&loop, 1};
    scan_views(L, whole);
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        if (s->kind == SYM_LOCAL && !s->given && s->base && s->nfixed >= 0) {
            s->kind = SYM_VIEW;
            s->base->written = s->base->written || s->written; /* row[j] = v writes X */
        } else
            s->base = NULL, s->nfixed = 0;
    }
    if (scan_bufs(L, loop) != NG_OK)
        return L->st;
    scan_exprs(L, loop, whole, loop->body);
    /* the plan's names */
    for (int r = 0; plan->parallel && r < plan->nreductions; r++) {
        Sym *s = NULL;
        for (int i = 0; i < L->norder; i++)
            if (plan->reductions[r].name && strcmp(L->syms[L->order[i]].name, plan->reductions[r].name) == 0)
                s = &L->syms[L->order[i]];
        bool fresh = plan->reductions[r].fresh && !plan->reductions[r].ranked; /* (its start takes no part) */
        /* (a name the argmax carries may be unbound before: bound where an iteration won, NG_OP_GE) */
        bool with_key = plan->reductions[r].ranked && plan->reductions[r].op == NG_NOPS;
        if (!s || s->kind != SYM_LOCAL || (!s->given && !fresh && !with_key))
            return fail(L, line, NG_ERR_VALUE,
                        "reduction variable '%s' must be a scalar bound before the loop and updated in it",
                        plan->reductions[r].name ? plan->reductions[r].name : "?"), L->st;
        s->home = HOME_CELL;
        s->red = r;
        s->keep_equal = plan->reductions[r].ranked && plan->reductions[r].op != NG_NOPS && !plan->ranked_last;
        s->fresh = fresh;
    }
    for (int i = 0; plan->parallel && plan->atomic && i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        bool listed = plan->natomics == 0; /* no list: every array */
        for (int a = 0; a < plan->natomics; a++)
            listed = listed || (plan->atomics[a] && strcmp(s->name, plan->atomics[a]) == 0);
        s->atomic = s->kind == SYM_ARRAY && listed;
    }
    for (int o = 0; o < plan->nlive_out; o++) {
        Sym *s = NULL;
        for (int i = 0; i < L->norder; i++)
            if (plan->live_out[o] && strcmp(L->syms[L->order[i]].name, plan->live_out[o]) == 0)
                s = &L->syms[L->order[i]];
        if (plan->parallel)
            return fail(L, line, NG_ERR_VALUE, "a parallel loop cannot have a live-out scalar ('%s')",
                        plan->live_out[o] ? plan->live_out[o] : "?"), L->st;
        if (s && s->kind == SYM_VIEW && dead_after(L, loop, s->name))
            continue; /* (row = X[i], not read after the loop: Python keeps no binding of it) */
        if (s && s->kind == SYM_VIEW && ng_jit_ret_line(s->name)) /* (desugar.c's) */
            return fail(L, ng_jit_ret_line(s->name), NG_ERR_UNSUPPORTED, "returning a part of an array from inside "
                        "a loop is not supported in a compiled loop"), L->st;
        if (s && s->kind == SYM_VIEW)
            return fail(L, line, NG_ERR_UNSUPPORTED, "'%s' (a part of an array) read after the loop is not "
                        "supported in a compiled loop", s->name), L->st;
        if (!s || s->kind != SYM_LOCAL)
            return fail(L, line, NG_ERR_VALUE, "live-out name '%s' is not assigned in the loop",
                        plan->live_out[o] ? plan->live_out[o] : "?"), L->st;
        s->home = HOME_CELL;
    }
    int nparams = 0;
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        nparams += s->kind == SYM_ARRAY || s->kind == SYM_SCALAR || (s->kind == SYM_LOCAL && s->home != HOME_NONE);
        nparams += needs_bound_flag(s) || (s->kind == SYM_LOCAL && s->home == HOME_CELL); /* (its type may settle as
                                                                                       another) */
    }
    if (nparams + 1 > NG_JIT_MAX_ARGS) /* (+ the error array of boundscheck or of the stores' checks) */
        return fail(L, line, NG_ERR_UNSUPPORTED, "a loop with more than %d parameters is not supported",
                    NG_JIT_MAX_ARGS), L->st;
    return NG_OK;
}

/* A local's value before the loop: its input or 0. */
static NgIrRef initial(Lower *L, Sym *s)
{
    NgDType dt = usable(s->dt) ? s->dt : NG_INT64;
    if (s->home == HOME_SCALAR)
        return ng_ir_cast(L->k, dt, ng_ir_scalar(L->k, s->param));
    if (s->home == HOME_CELL && (s->given || s->fresh)) { /* (a fresh reduction's: its identity) */
        NgIrRef none[1] = {0};
        return ng_ir_load(L->k, s->param, 0, none);
    }
    return zero_of(L, dt).r;
}

/* A ranked reduction holds its key, the rank and the other reductions of
 * the plan (companions). */
_Static_assert(NG_JIT_MAX_REDUCTIONS + 1 <= NG_IR_MAX_RANKED, "a ranked reduction cannot hold a full plan");

/* One pass: the whole kernel into L->k. */
static void lower_pass(Lower *L, const NgJitStmt *loop)
{
    NgIrKernel *k = L->k;
    const NgJitLoopPlan *plan = L->plan;
    L->nwindows = 0;
    /* parameters, in order of first mention */
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        s->param = -1;
        if (s->kind == SYM_ARRAY)
            s->param = ng_ir_param_array(k, s->given->dtype, s->given->ndim, s->given->inner_contig, s->written);
        else if (s->kind == SYM_SCALAR || (s->kind == SYM_LOCAL && s->home == HOME_SCALAR))
            s->param = ng_ir_param_scalar(k, s->given->dtype);
        else if (s->kind == SYM_LOCAL && s->home == HOME_CELL)
            s->param = ng_ir_param_array(k, usable(s->dt) ? s->dt : NG_INT64, 0, true, true);
        s->unbound_out = needs_bound_flag(s);
        if (s->unbound_out)
            s->bound_param = ng_ir_param_array(k, bound_dtype(s), 0, true, true);
    }
    Stmts checks = {0};
    L->search_param = plan->search == 1 ? ng_ir_param_array(k, NG_INT64, 0, true, true)
                    : plan->search == 2 ? ng_ir_param_scalar(k, NG_INT64) : -1;
    L->trips_param = plan->search == 1 ? ng_ir_param_array(k, NG_INT64, 0, true, true) : -1;
    L->from_param = plan->search == 1 ? ng_ir_param_scalar(k, NG_INT64) : -1;
    L->to_param = plan->search == 1 ? ng_ir_param_scalar(k, NG_INT64) : -1;
    L->wrap_param = -1; /* (made, last, by the check, when it checks anything) */
    L->raise_var = L->raise_param = -1; /* (made by the first operation that may raise; its cell last) */
    L->rfirst_var = L->rfirst_param = -1;
    L->rhigh_var = L->rhigh_param = -1;
    L->in_body = L->raise_full = false;
    L->first_var = -1;
    L->in_iteration = false;
    L->stop_var = -1;
    L->python_code = NG_IR_NONE, L->python_param = -1; /* (its cell made after the outer loop's body) */
    L->python_body = false;
    L->bounded = 0;
    L->nrngs = 0; /* (made by the first draw) */
    L->draws = L->top_draws = no_draws(), L->draw_iter = NG_IR_NONE;
    L->phase_param = plan->peel ? ng_ir_param_scalar(k, NG_INT64) : -1;
    bool ranked = false;
    for (int r = 0; plan->parallel && r < plan->nreductions; r++)
        ranked = ranked || plan->reductions[r].ranked;
    L->rank_param = ranked ? ng_ir_param_array(k, NG_INT64, 0, true, true) : -1;
    L->lock_param = ranked ? ng_ir_param_array(k, NG_INT32, 0, true, true) : -1;
    L->rank = NG_IR_NONE;
    L->err_param = plan->boundscheck ? ng_ir_param_array(k, NG_INT64, 1, true, true) : -1;
    L->storing = false;
    L->in_cond = L->ncounters = L->seq_loops = L->nproven = 0;
    L->jumped = false;
    L->store_code = NG_IR_NONE;
    L->zero_sym = NULL;
    L->pending = &checks;
    L->guard = L->elem = NG_IR_NONE;
    L->rows = NULL;
    /* locals: shared ones before the loop, private ones at the top of each iteration */
    Stmts pre = {0}, priv = {0}, post = {0};
    for (int i = 0; i < L->norder; i++) {
        Sym *s = &L->syms[L->order[i]];
        for (int d = 0; s->kind == SYM_VIEW && d < s->nfixed; d++) {
            s->fixed_var[d] = ng_ir_var(k, NG_INT64);
            push(L, plan->parallel ? &priv : &pre, ng_ir_let(k, s->fixed_var[d], ng_ir_const_i(k, NG_INT64, 0)));
        }
        NgDType bdt = s->kind == SYM_BUF && usable(s->dt) ? s->dt : NG_INT64; /* (each iteration's own) */
        if (s->kind == SYM_BUF && s->buf_mem) {
            s->buf_arr = ng_ir_var_array(k, bdt, (int)s->nbuf + 1);
            push(L, plan->parallel ? &priv : &pre, ng_ir_let(k, s->buf_arr, zero_of(L, bdt).r));
        }
        for (int64_t j = 0; s->kind == SYM_BUF && !s->buf_mem && j < s->nbuf; j++) {
            s->buf_var[j] = ng_ir_var(k, bdt);
            push(L, plan->parallel ? &priv : &pre, ng_ir_let(k, s->buf_var[j], zero_of(L, bdt).r));
        }
        if (s->kind != SYM_LOCAL)
            continue;
        s->var = ng_ir_var(k, usable(s->dt) ? s->dt : NG_INT64);
        bool shared = !plan->parallel || s->red >= 0;
        push(L, shared ? &pre : &priv, ng_ir_let(k, s->var, initial(L, s)));
        if (plan->parallel && s->red >= 0 && !L->zero_sym && !plan->reductions[s->red].ranked &&
            !plan->reductions[s->red].late && !s->fresh && ng_dtype_is_float(s->dt) &&
            s->dt != NG_FLOAT16 &&
            (plan->reductions[s->red].op == NG_OP_MAXIMUM || plan->reductions[s->red].op == NG_OP_MINIMUM)) {
            /* (the parallel combine may keep another of 0.0 and -0.0 than Python's first) */
            L->zero_sym = s;
        }
        if (s->home == HOME_CELL) {
            NgIrRef none[1] = {0};
            push(L, &post, ng_ir_store(k, s->param, 0, none, ng_ir_varref(k, s->var)));
        }
        if (s->unbound_out) { /* (a reduction's: combined as the raise cell, GPUs' blocks included) */
            NgIrRef none[1] = {0};
            s->bound_var = ng_ir_var(k, bound_dtype(s));
            push(L, &pre, ng_ir_let(k, s->bound_var, ng_ir_const_i(k, bound_dtype(s), 0)));
            push(L, &post, ng_ir_store(k, s->bound_param, 0, none, ng_ir_varref(k, s->bound_var)));
        }
    }
    NgIrRef outer = NG_IR_NONE;
    L->depth = 0;
    L->unrolled = 1;
    if (ranked) { /* the start comes before every iteration */
        L->rank_var = ng_ir_var(k, NG_INT64);
        push(L, &pre, ng_ir_let(k, L->rank_var, ng_ir_const_i(k, NG_INT64, -1)));
        NgIrRef none[1] = {0};
        push(L, &post, ng_ir_store(k, L->rank_param, 0, none, ng_ir_varref(k, L->rank_var)));
    }
    if (plan->search == 1) { /* starts at "none": the identity of the reduction */
        L->found_var = ng_ir_var(k, NG_INT64);
        push(L, &pre, ng_ir_let(k, L->found_var, ng_ir_const_i(k, NG_INT64, ng_jit_search_none(plan->search_step))));
        NgIrRef none[1] = {0};
        push(L, &post, ng_ir_store(k, L->search_param, 0, none, ng_ir_varref(k, L->found_var)));
    }
    L->par_inner = NULL;
    /* (random numbers are counted per iteration of the outer loop: no inner one in parallel) */
    bool draws = ng_jit_draws(L->ast, loop);
    if (loop->kind == NG_JIT_S_FOR && plan->parallel && plan->inner_parallel && perfect_inner(L, loop) && !draws)
        L->par_inner = loop->body.stmts[0];
    if (loop->kind == NG_JIT_S_FOR) {
        if (plan->parallel && plan->collapse > 1 && !draws)
            push(L, &pre, collapsed_for(L, loop, &pre, &priv, &outer));
        else
            push(L, &pre, for_range(L, loop, &pre, &priv, plan->parallel ? NG_IR_PARALLEL : 0, &outer, true));
    } else if (loop->kind == NG_JIT_S_WHILE && !plan->parallel) {
        L->depth = -1; /* break and continue apply to this loop, not a parallel one */
        for (int i = 0; i < priv.n; i++)
            push(L, &pre, priv.v[i]);
        Stmts w = {0};
        while_stmt(L, loop, &w);
        NgIrRef skip = python_skip(L, &pre), in = seal(L, &w);
        if (skip != NG_IR_NONE && in != NG_IR_NONE)
            in = ng_ir_if(k, ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, skip), in, NG_IR_NONE);
        if (in != NG_IR_NONE)
            push(L, &pre, in);
    } else {
        fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "a parallel %s loop is not supported in a compiled loop",
             loop->kind == NG_JIT_S_WHILE ? "while" : "non-range");
    }
    ng_free(priv.v);
    NgIrRanked rk = {.loop = outer, .nvars = 2, .vars = {-1, ranked ? L->rank_var : -1},
                     .cells = {-1, L->rank_param}, .lock = L->lock_param, .last = plan->ranked_last};
    if (outer != NG_IR_NONE)
        for (int i = 0; i < L->norder; i++) {
            Sym *s = &L->syms[L->order[i]];
            if (s->kind != SYM_LOCAL || s->red < 0)
                continue;
            if (s->unbound_out)
                ng_ir_reduce(k, outer, s->bound_var, NG_OP_MAXIMUM);
            if (!plan->reductions[s->red].ranked && s->dt == NG_FLOAT16) {
                /* (a float16 sum rounds after every step, in order: no parallel tree gives that) */
                fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "a float16 reduction ('%s') cannot run in parallel",
                     s->name);
            } else if (plan->reductions[s->red].late && !ng_dtype_is_int(s->dt) && s->dt != NG_BOOL) {
                /* (max(e, s) is e unless s > e: after a NaN the next value replaces it, and of
                   -0.0 and 0.0 the later one stays; only the iterations in order give that) */
                fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "%s(..., %s) of floats, %s not the first argument, "
                     "cannot run in parallel", plan->reductions[s->red].op == NG_OP_MAXIMUM ? "max" : "min",
                     s->name, s->name);
            } else if (ng_dtype_is_complex(s->dt) && plan->reductions[s->red].op != NG_OP_ADD &&
                       plan->reductions[s->red].op != NG_NOPS) {
                /* (GPUs combine partials atomically, part by part: sums only; an argmax's names
                   (NG_NOPS) go to their cells part by part, emit.c's ranked_gpu_combine) */
                fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "a complex %s reduction ('%s') cannot run in "
                     "parallel", ng_op_name(plan->reductions[s->red].op), s->name);
            } else if (!plan->reductions[s->red].ranked) {
                ng_ir_reduce(k, outer, s->var, plan->reductions[s->red].op);
            } else if (plan->reductions[s->red].op != NG_NOPS) {
                rk.vars[0] = s->var, rk.cells[0] = s->param, rk.op = plan->reductions[s->red].op;
            } else { /* (room for them all: see the assertion below) */
                rk.vars[rk.nvars] = s->var, rk.cells[rk.nvars++] = s->param;
            }
        }
    if (outer != NG_IR_NONE && ranked) {
        if (rk.vars[0] < 0)
            fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "a ranked reduction without its key");
        else
            ng_ir_reduce_ranked(k, &rk);
    }
    if (outer != NG_IR_NONE && plan->search == 1)
        ng_ir_reduce(k, outer, L->found_var, ng_jit_search_op(plan->search_step));
    if (L->raise_var >= 0 && L->st == NG_OK) { /* what Python would raise: 0 first, the cell last */
        NgIrRef none[1] = {0};
        if (L->rfirst_var >= 0) { /* (the first failing iteration's, before it) */
            L->rfirst_param = ng_ir_param_array(k, NG_INT64, 0, true, true);
            push(L, &post, ng_ir_store(k, L->rfirst_param, 0, none, ng_ir_varref(k, L->rfirst_var)));
            prepend(L, &pre, ng_ir_let(k, L->rfirst_var, ng_ir_const_i(k, NG_INT64, 0)));
            if (outer != NG_IR_NONE)
                ng_ir_reduce(k, outer, L->rfirst_var, NG_OP_MAXIMUM);
        }
        if (L->rhigh_var >= 0) { /* (and the high bits' cell, before it too) */
            L->rhigh_param = ng_ir_param_array(k, NG_INT64, 0, true, true);
            push(L, &post, ng_ir_store(k, L->rhigh_param, 0, none, ng_ir_varref(k, L->rhigh_var)));
            prepend(L, &pre, ng_ir_let(k, L->rhigh_var, ng_ir_const_i(k, NG_INT64, 0)));
            if (outer != NG_IR_NONE)
                ng_ir_reduce(k, outer, L->rhigh_var, NG_OP_MAXIMUM);
        }
        L->raise_param = ng_ir_param_array(k, NG_INT64, 0, true, true);
        push(L, &post, ng_ir_store(k, L->raise_param, 0, none, ng_ir_varref(k, L->raise_var)));
        /* before everything: the loop's range may already raise */
        prepend(L, &pre, ng_ir_let(k, L->raise_var, ng_ir_const_i(k, NG_INT64, 0)));
        if (outer != NG_IR_NONE && plan->parallel && (L->raise_full || L->rfirst_var < 0)) /* (else not in it) */
            ng_ir_reduce(k, outer, L->raise_var, NG_OP_MAXIMUM);
    }
    if (L->stop_var >= 0 && L->st == NG_OK) /* not stopped, before everything */
        prepend(L, &pre, ng_ir_let(k, L->stop_var, ng_ir_const_i(k, NG_BOOL, 0)));
    if (L->st == NG_OK) /* (the draws of a kernel without an outer for loop) */
        declare_draws(L, &L->top_draws, &pre);
    for (int i = 0; i < post.n; i++)
        push(L, &pre, post.v[i]);
    ng_free(post.v);
    ng_free(checks.v);
    L->pending = NULL;
    k->body = seal(L, &pre);
}

/* A kernel parameter fill_info lists after the others: made while lowering (param: its number). */
typedef struct LateArg {
    int param;
    NgJitArg arg;
} LateArg;

static void fill_info(const Lower *L, const NgJitStmt *loop, NgJitLowered *info)
{
    memset(info, 0, sizeof *info);
    info->parallel = L->plan->parallel;
    info->line = loop->span.line;
    for (int i = 0; i < L->norder; i++) {
        const Sym *s = &L->syms[L->order[i]];
        if (s->param < 0)
            continue;
        NgJitArg *a = &info->args[info->nargs++];
        if (s->kind == SYM_ARRAY) {
            *a = (NgJitArg){s->name, NG_JIT_ARG_ARRAY, s->given->dtype, s->given->ndim, s->written, false, false, NG_NOPS, 0};
        } else if (s->kind == SYM_SCALAR || s->home == HOME_SCALAR) {
            *a = (NgJitArg){s->name, NG_JIT_ARG_SCALAR, s->given->dtype, 0, false, false, !s->given->numpy_scalar, NG_NOPS, 0};
            a->bits = s->param < 64 && (L->bounded >> s->param & 1) ? 61 : 0; /* (MAG_PARAM) */
        } else {
            *a = (NgJitArg){s->name, NG_JIT_ARG_CELL, s->dt, 0, true, s->given != NULL, s->weak,
                            s->red >= 0 ? L->plan->reductions[s->red].op : NG_NOPS, 0};
            a->bits = s->small_start && s->given ? 62 : 0;
            /* (op EQ: a value equal to the one before the loop is that one; GE, a ranked reduction's
               names: bound where the rank cell is >= 0, where an iteration won over the start: a thread's
               copy starts at the identity, so its own flag says nothing, `if x[i] <= s` of an inf) */
            bool rk = s->red >= 0 && L->plan->reductions[s->red].ranked;
            if (s->unbound_out)
                info->args[info->nargs++] = (NgJitArg){s->name, NG_JIT_ARG_BOUND, bound_dtype(s), 0, true, false, true,
                                                       rk ? NG_OP_GE : s->keep_equal ? NG_OP_EQ : NG_NOPS, 0};
        }
    }
    if (L->plan->search == 1) {
        info->args[info->nargs++] = (NgJitArg){NG_JIT_FOUND, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true, NG_NOPS, 0};
        info->args[info->nargs++] = (NgJitArg){NG_JIT_TRIPS, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true, NG_NOPS, 0};
        info->args[info->nargs++] = (NgJitArg){NG_JIT_FROM, NG_JIT_ARG_SCALAR, NG_INT64, 0, false, false, true, NG_NOPS, 0};
        info->args[info->nargs++] = (NgJitArg){NG_JIT_TO, NG_JIT_ARG_SCALAR, NG_INT64, 0, false, false, true, NG_NOPS, 0};
    }
    else if (L->plan->search == 2)
        info->args[info->nargs++] = (NgJitArg){NG_JIT_START, NG_JIT_ARG_SCALAR, NG_INT64, 0, false, false, true, NG_NOPS, 0};
    if (L->plan->peel)
        info->args[info->nargs++] = (NgJitArg){NG_JIT_PHASE, NG_JIT_ARG_SCALAR, NG_INT64, 0, false, false, true, NG_NOPS, 0};
    if (L->rank_param >= 0) {
        info->args[info->nargs++] = (NgJitArg){NG_JIT_RANK, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true, NG_NOPS, 0};
        info->args[info->nargs++] = (NgJitArg){NG_JIT_LOCK, NG_JIT_ARG_CELL, NG_INT32, 0, true, false, true, NG_NOPS, 0};
    }
    if (L->plan->boundscheck)
        info->args[info->nargs++] = (NgJitArg){NULL, NG_JIT_ARG_ERROR, NG_INT64, 1, true, true, false, NG_NOPS, 0};
    /* the parameters made while lowering, in the order they were made */
    LateArg late[6 + NG_JIT_MAX_RNGS];
    int nlate = 0;
    if (!L->plan->boundscheck && L->err_param >= 0) /* (an index checked where it runs made it) */
        late[nlate++] = (LateArg){L->err_param, {NULL, NG_JIT_ARG_ERROR, NG_INT64, 1, true, true, false, NG_NOPS, 0}};
    if (L->wrap_param >= 0)
        late[nlate++] = (LateArg){L->wrap_param, {NG_JIT_WRAP, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true, NG_NOPS, 0}};
    for (int g = 0; g < L->nrngs; g++)
        if (L->rngs[g].param >= 0)
            late[nlate++] = (LateArg){L->rngs[g].param, {L->rngs[g].name, NG_JIT_ARG_KEY, NG_INT64, 0, false, false,
                                                         true, NG_NOPS, 0}};
    if (L->python_param >= 0)
        late[nlate++] = (LateArg){L->python_param, {NG_JIT_PYTHON, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true, NG_NOPS, 0}};
    info->range_python = !L->python_body;
    if (L->rfirst_param >= 0)
        late[nlate++] = (LateArg){L->rfirst_param, {NG_JIT_RAISE_FIRST, NG_JIT_ARG_CELL, NG_INT64, 0, true, false,
                                                    true, NG_OP_MAXIMUM, 0}};
    if (L->rhigh_param >= 0)
        late[nlate++] = (LateArg){L->rhigh_param, {NG_JIT_RAISE_HIGH, NG_JIT_ARG_CELL, NG_INT64, 0, true, false,
                                                   true, NG_OP_MAXIMUM, 0}};
    if (L->raise_param >= 0)
        late[nlate++] = (LateArg){L->raise_param, {NG_JIT_RAISE, NG_JIT_ARG_CELL, NG_INT64, 0, true, false, true,
                                                               L->plan->parallel ? NG_OP_MAXIMUM : NG_NOPS, 0}};
    info->zero_of = L->zero_sym && L->plan->parallel ? L->zero_sym->name : NULL;
    info->zero_last = L->zero_sym && L->plan->reductions[L->zero_sym->red].ties_last;
    for (int i = 0; i < nlate; i++) {
        int first = i;
        for (int j = i + 1; j < nlate; j++)
            first = late[j].param < late[first].param ? j : first;
        LateArg t = late[i];
        late[i] = late[first], late[first] = t;
        info->args[info->nargs++] = late[i].arg;
    }
}

/* Refuses a loop where a name bound before it has a type that no value the loop
 * assigns has: `prev = 0.0`, then `prev = x[i]` of an int64 x. Python's name
 * holds each value with its own type (an int64 past 2**53 exactly), where the
 * kernel's holds them all in the common type of the two. */
static NgStatus assigned_types(Lower *L, const NgJitStmt *loop)
{
    for (int i = 0; i < L->norder; i++) {
        const Sym *s = &L->syms[L->order[i]];
        if (s->kind != SYM_LOCAL || !s->given || s->adt == NG_NODTYPE || (s->adt == s->dt && s->aweak == s->weak))
            continue;
        return fail(L, loop->span.line, NG_ERR_UNSUPPORTED, "'%s' bound to a %s before the loop and to %s%s values "
                    "in it (Python's name takes each value's own type) is not supported in a compiled loop",
                    s->name, s->given->numpy_scalar ? ng_dtype_info(s->given->dtype)->name
                             : ng_dtype_is_int(s->given->dtype) ? "Python int" : ng_dtype_is_complex(s->given->dtype)
                             ? "Python complex" : s->given->dtype == NG_BOOL ? "Python bool" : "Python float",
                    s->aweak ? "Python " : "", ng_dtype_info(s->adt)->name), L->st;
    }
    return NG_OK;
}

NgStatus ng_jit_lower(const NgJitAst *ast, const NgJitStmt *loop, const NgJitVarType *vars, int nvars,
                      const NgJitLoopPlan *plan, NgIrKernel *k, NgJitLowered *info)
{
    char name[sizeof k->name];
    memcpy(name, k->name, sizeof name);
    Lower L = {.ast = ast, .plan = plan};
    const NgJitLoopInfo *li = NULL;
    for (int i = 0; plan->loops && i < plan->loops->n; i++)
        if (plan->loops->items[i].stmt == loop)
            li = &plan->loops->items[i];
    L.scan_sum = li && li->scan && !plan->parallel && !plan->scan && li->scan_var >= 0 && li->scan_op == NG_JIT_RED_ADD
                     ? li->scan_var : -1;
    NgStatus st = setup(&L, loop, vars, nvars);
    for (int pass = 0; st == NG_OK; pass++) {
        if (pass == 16) {
            st = ng_error_set(NG_ERR_INTERNAL, "%s:%d: the types of the loop's variables did not settle",
                              ast->filename, loop->span.line);
            break;
        }
        NgIrKernel tmp;
        ng_ir_init(&tmp, name);
        L.k = &tmp;
        L.changed = false;
        L.no_flo = pass >= 8;
        L.unknown_line = 0;
        lower_pass(&L, loop);
        st = L.st != NG_OK ? L.st : tmp.status;
        if (st == NG_OK && !L.changed && L.unknown_line)
            st = (fail(&L, L.unknown_line, NG_ERR_VALUE, "%s", L.unknown_msg), L.st);
        if (st == NG_OK && !L.changed && tmp.body == NG_IR_NONE)
            st = ng_error_set(NG_ERR_INTERNAL, "%s:%d: lowering the loop gave no kernel", ast->filename,
                              loop->span.line);
        if (st == NG_OK && !L.changed)
            st = assigned_types(&L, loop);
        if (st == NG_OK && !L.changed)
            st = ng_ir_verify(&tmp);
        if (st == NG_OK && !L.changed) {
            ng_ir_free(k);
            *k = tmp;
            k->lanes = true;
            if (info)
                fill_info(&L, loop, info);
            break;
        }
        ng_ir_free(&tmp);
    }
    ng_free(L.main_syms);
    ng_free(L.order);
    for (int i = 0; i < L.nframes; i++) {
        ng_free(L.frames[i]->syms);
        ng_free(L.frames[i]->order);
        ng_free(L.frames[i]);
    }
    ng_free(L.frames);
    if (st != NG_OK) {
        ng_ir_free(k);
        ng_ir_init(k, name);
    }
    return st;
}

/* Appends v as 16 hex digits (keys are built per launch: no printf). */
static void cat_hex(NgStr *out, uint64_t v)
{
    char b[17];
    for (int i = 15; i >= 0; i--, v >>= 4)
        b[i] = "0123456789abcdef"[v & 15];
    b[16] = 0;
    ng_str_cat(out, b);
}

NgStatus ng_jit_lower_key(const NgJitAst *ast, const NgJitStmt *loop, const NgJitVarType *vars, int nvars,
                          const NgJitLoopPlan *plan, NgStr *out)
{
    ng_str_cat(out, "jit1:");
    cat_hex(out, ast->src_hash);
    cat_hex(out, ((uint64_t)loop->span.off << 32) | (uint32_t)loop->span.end_off);
    ng_str_cat(out, "|");
    for (int i = 0; i < nvars; i++) { /* name:<6 fixed-width characters>; (a launch builds this per loop) */
        const NgJitVarType *v = &vars[i];
        char t[10] = {':', (char)('0' + v->module), (char)('0' + v->is_array), (char)('A' + (int)v->dtype),
                      (char)('A' + v->ndim), (char)('0' + v->numpy_scalar), (char)('0' + v->inner_contig),
                      (char)('0' + v->seq), ';', 0};
        ng_str_cat(out, v->name ? v->name : "");
        ng_str_cat(out, t);
        if (v->has_value) { /* =<hex value>; (a small array's length), an array's =<hex extent>...; */
            ng_str_cat(out, "=");
            if (v->is_array && v->seq != NG_JIT_SEQ_DICT_CHR && v->seq != NG_JIT_SEQ_DICT_INT)
                for (int d = 0; d < v->ndim; d++)
                    cat_hex(out, (uint64_t)v->shape[d]);
            else
                cat_hex(out, (uint64_t)v->value);
            ng_str_cat(out, ";");
        }
    }
    char f[12] = {'|', (char)('0' + plan->parallel), (char)('0' + plan->atomic),
                  (char)('0' + plan->boundscheck + 2 * plan->unchecked),
                  (char)('0' + plan->collapse), (char)('0' + plan->search),
                  !plan->search ? '.' : plan->search_step > 0 ? '+' : '-', (char)('0' + plan->inner_parallel),
                  (char)('0' + plan->peel), (char)('0' + plan->scan), (char)('0' + plan->rows), 0};
    ng_str_cat(out, f);
    /* (no printf: a launch builds this key, and formatting cost a tenth of a small call) */
    for (int i = 0; i < plan->nreductions; i++) {
        char r[4] = {':', (char)('A' + plan->reductions[i].op),
                     plan->reductions[i].ranked ? (plan->ranked_last ? 'R' : 'r')
                     : plan->reductions[i].fresh ? 'f' : '.', 0};
        ng_str_cat(out, " r");
        ng_str_cat(out, plan->reductions[i].name ? plan->reductions[i].name : "");
        ng_str_cat(out, r);
    }
    for (int i = 0; i < plan->natomics; i++) {
        ng_str_cat(out, " a");
        ng_str_cat(out, plan->atomics[i] ? plan->atomics[i] : "");
    }
    for (int i = 0; i < plan->nlive_out; i++) {
        ng_str_cat(out, " o");
        ng_str_cat(out, plan->live_out[i] ? plan->live_out[i] : "");
    }
    if (out->failed)
        return ng_error_set(NG_ERR_NOMEM, "out of memory building a kernel key");
    return NG_OK;
}

/* The combining op of the analysis' reduction op. */
static NgOp red_op(NgJitRedOp op)
{
    switch (op) {
    case NG_JIT_RED_MUL: return NG_OP_MUL;
    case NG_JIT_RED_MAX: return NG_OP_MAXIMUM;
    case NG_JIT_RED_MIN: return NG_OP_MINIMUM;
    case NG_JIT_RED_OR: return NG_OP_BITOR;
    case NG_JIT_RED_AND: return NG_OP_BITAND;
    case NG_JIT_RED_XOR: return NG_OP_BITXOR;
    case NG_JIT_RED_ARGMAX: case NG_JIT_RED_ARGMIN: return NG_NOPS; /* (goes with the ranked key) */
    default: return NG_OP_ADD;
    }
}

void ng_jit_plan(const NgJitLoops *loops, const NgJitLoopInfo *info, NgJitLoopPlan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->loops = loops;
    /* (more reductions or atomic arrays than a plan holds: in order, which is always right) */
    plan->parallel = info->kind == NG_JIT_LOOP_PARALLEL && info->nreductions <= NG_JIT_MAX_REDUCTIONS &&
                     info->natomics <= NG_JIT_MAX_ATOMICS;
    if (!plan->parallel)
        return;
    for (int i = 0; i < info->nreductions && i < NG_JIT_MAX_REDUCTIONS; i++) {
        plan->reductions[i].name = info->reductions[i].name;
        plan->reductions[i].op = red_op(info->reductions[i].op);
        plan->reductions[i].ranked = info->reductions[i].ranked;
        plan->reductions[i].late = info->reductions[i].late;
        plan->reductions[i].ties_last = info->reductions[i].ties_last;
        plan->reductions[i].fresh = info->reductions[i].fresh;
        plan->nreductions++;
    }
    plan->ranked_last = info->ranked_last;
    plan->peel = info->peel;
    plan->atomic = info->atomic;
    for (int i = 0; i < info->natomics && i < NG_JIT_MAX_ATOMICS; i++)
        plan->atomics[plan->natomics++] = info->atomics[i];
}
