/* Dependence analysis of the jit (analyze.c): how each loop of a function runs.
 *
 * It reads the AST of ast.h and says, for every `for` and `while` loop of one
 * function, in source order, whether the loop runs in parallel on the device,
 * compiled but in order, or stays Python, and why (DESIGN.md, "@numgpu.jit").
 * It never guesses in the unsafe direction: a loop is parallel only when the
 * analysis proves its iterations independent (or the user asserted it with
 * prange), with the reductions and atomic updates that make it so.
 *
 * What it assumes, and what the later stages must therefore check:
 * - distinct names are distinct arrays: the host plan checks at launch that
 *   no array a kernel writes shares memory with another array it touches;
 * - every index of a written array's subscript is an integer or a slice: when
 *   the types show an array used as an index (fancy or boolean indexing) in a
 *   subscript of an array the loop writes, the loop must run sequentially;
 * - subscripts do not wrap: two iterations whose indices differ may still
 *   meet when one is negative (A[i - m] with len(A) == m), so a parallel
 *   kernel must check that the indices its proofs compared (NgJitLoopInfo.
 *   wraps) do not wrap onto one element (or fall back to running the loop in order);
 * - reductions and privates are scalars: NgJitLoopInfo.scalars lists the
 *   names whose being arrays would break the verdict;
 * - helper functions are the `def`s of the same source (module level, or
 *   nested in the function); a call to any other plain name leaves the loop
 *   to Python.
 *
 * The result borrows names and statements from the AST: free it first.
 */
#ifndef NUMGPU_JIT_ANALYZE_H
#define NUMGPU_JIT_ANALYZE_H

#include <stdbool.h>

#include "jit/ast.h"

/* How a loop runs. */
typedef enum NgJitLoopKind {
    NG_JIT_LOOP_PARALLEL,   /* iterations run at once on the device */
    NG_JIT_LOOP_SEQUENTIAL, /* compiled, iterations in order */
    NG_JIT_LOOP_PYTHON,     /* left to the interpreter */
} NgJitLoopKind;

/* The operator a reduction combines partial results with. */
typedef enum NgJitRedOp {
    NG_JIT_RED_ADD, /* s += e, s -= e, s = s + e, s = s - e */
    NG_JIT_RED_MUL, /* s *= e, s = s * e */
    NG_JIT_RED_MAX, /* s = max(s, e), if e > s: s = e */
    NG_JIT_RED_MIN, /* s = min(s, e), if e < s: s = e */
    NG_JIT_RED_OR,  /* s |= e */
    NG_JIT_RED_AND, /* s &= e */
    NG_JIT_RED_XOR, /* s ^= e */
    NG_JIT_RED_ARGMAX, /* k = i in `if e > s: s = e; k = i` (s: a ranked MAX) */
    NG_JIT_RED_ARGMIN, /* k = i in `if e < s: s = e; k = i` (s: a ranked MIN) */
} NgJitRedOp;

/* A scalar combined over the iterations of a parallel loop. */
typedef struct NgJitReduction {
    const char *name; /* the scalar (interned in the AST) */
    int name_id;      /* its index in ast->names */
    NgJitRedOp op;
    bool ranked;      /* part of the loop's argmax-style update, `if e > s: s = e; k = i; ...`
                         (at most one per loop): its key s (MAX or MIN: `>`/`>=` or `<`/`<=`)
                         and the names assigned with it (ARGMAX/ARGMIN), which end with the
                         values of the iteration that gave the best e: the first one for a
                         strict test, the last for `>=`/`<=` (ranked_last) */
    bool late;        /* MAX/MIN of a Python max/min call whose first argument is not the scalar
                         (`s = max(e, s)`): Python's max keeps its first argument unless a
                         later one is greater, so with floats (a NaN, or -0.0 against 0.0) the
                         order of the iterations decides: the lowering runs such a loop in
                         order when the scalar is a float */
    bool ties_last;   /* MAX/MIN by `if e >= s: s = e` (or <=): of equal values the last one
                         stays (else the first, as max(s, e) keeps s) */
    bool fresh;       /* `s = v` only, s not read in the loop: s ends with the v of the last
                         iteration that assigns it, or as it was where none does. v is one
                         constant (op OR for True, AND for False, else MAX) or the loop variable
                         plus a constant (MAX for a positive literal step, MIN for a negative
                         one), so the op over the values the iterations assign gives the last;
                         the value before the loop takes no part (the lowering starts the
                         combination at op's identity and keeps s where no iteration assigned) */
} NgJitReduction;

/* An index expression of an array axis. */
typedef struct NgJitIndexUse {
    const NgJitExpr *e;
    int array;                 /* name_id */
    int axis;
    bool strict;               /* it must be >= 0 itself, not only apart from the others once
                                  wrapped: it names a loop variable of a range inside (v*S + f),
                                  or it is the counter's index v + off of a peel */
} NgJitIndexUse;

/* What the analysis says about one loop. Lists are in order of name_id. */
typedef struct NgJitLoopInfo {
    const NgJitStmt *stmt;     /* the FOR or WHILE statement */
    int line;                  /* its first line, as tracebacks count */
    int parent;                /* index of the innermost enclosing loop, -1 for none */
    int depth;                 /* number of enclosing loops */
    int var_id;                /* name_id of a range loop's variable; -1 otherwise */
    NgJitLoopKind kind;        /* the verdict */
    bool asserted;             /* over prange: independence is the user's promise */
    bool independent;          /* the analysis itself proved the iterations independent
                                  (given the reductions and atomics below), whatever kind says */
    bool collapsed;            /* PARALLEL, perfectly nested in a PARALLEL parent: one more
                                  dimension of the parent's launch */
    bool rows;                 /* SEQUENTIAL, its iterations independent by rows apart (they
                                  write row P + a and read rows P + b, b != a, of names the
                                  loop does not change, all >= 0 by their form), inside a
                                  SEQUENTIAL loop, without reductions or atomics: part of
                                  that loop's kernel, where the lowering may flag its FOR
                                  NG_IR_PARALLEL | NG_IR_ROWS (the C target runs a long row
                                  in threads) */
    bool host;                 /* not PARALLEL, but holds PARALLEL loops: a host loop that
                                  launches them (else a SEQUENTIAL nest runs as one thread) */
    bool search;               /* SEQUENTIAL, launched by the host: `for` over a range whose
                                  only effects come from its last statement, `if t: ...;
                                  break`: the first iteration whose t holds is found in
                                  parallel (a min/max of the loop variable), then the loop
                                  runs in order from there (from its last iteration when
                                  none holds), so that iteration breaks at once */
    int64_t search_step;       /* search: the range's literal step */
    bool scan;                 /* SEQUENTIAL, launched by the host: a `for` over range(...)
                                  (bounds the host can evaluate again, a literal step) whose
                                  only carried dependence is one running combination, exact
                                  in integers: an accumulator (scan_var) or an array
                                  recurrence (scan_prev). The lowering may run it in three
                                  launches: each block of iterations combines its own values
                                  (in parallel), the blocks' starting values are combined in
                                  order, then each block runs in order from its start (in
                                  parallel); see desugar.h, ng_jit_scan_phases */
    NgJitRedOp scan_op;        /* scan: how the values combine (ADD MUL MAX MIN OR AND XOR) */
    int scan_var;              /* scan: the accumulator s (name_id), updated once, by a
                                  top-level statement (scan_update) of the body: `s op= e`,
                                  `s = s op e ...`, `s = max(s, e)`, or one of them under an
                                  `if t:`; the statements before it assign names (not reading
                                  s) or store into arrays; -1 for an array recurrence */
    const NgJitStmt *scan_update; /* scan: s's update, or the body's one statement `a[i] =
                                  a[i - step] op e` (`a[i] op= a[i - step]`) */
    const NgJitExpr *scan_prev; /* scan, a recurrence: its read a[i - step] */
    int64_t scan_step;         /* scan: the range's literal step */
    bool scan_compact;         /* scan of an accumulator k that indexes stores (a compaction,
                                  `if t: out[k] = v; k += 1`): k only grows, by literals > 0,
                                  and each iteration stores at [k, k + its increment) only
                                  (analyze.c scan_compaction); the host checks k >= 0 first */
    bool peel;                 /* a range loop (literal step > 0, no reductions) whose
                                  iterations are independent but for one,
                                  v0 = peel_at - peel_off, whose accesses meet the other
                                  iterations' (`for i: ... D[i, j] ... D[k, j]`: iteration
                                  i = k writes the row all of them read): PARALLEL, the
                                  iterations before v0 run at once, then v0, then those after
                                  it (three launches); a loop run in order (inside a
                                  parallel one, or innermost in a sequential nest) is split
                                  in the same three parts, in order, so that in each part the
                                  elements at peel_at stay as they are (the C compiler then
                                  vectorises it). Never collapsed, nor collapses a loop. */
    const NgJitExpr *peel_at;  /* peel: an invariant index, of names and integers only */
    int64_t peel_off;          /* peel: >= 0 */
    int peel_array;            /* peel: the name_id of the array, and the axis, peel_at */
    int peel_axis;             /*   indexes (where a negative value wraps) */
    const char *peel_text;     /* peel: "i = k", as the report says it */
    NgJitIndexUse *wraps;      /* the index expressions the verdict's proofs compare (a*v + P
                                  over invariant names, or v*S + f with f a loop variable of a
                                  range(S) inside), with the array axis they index: distinct
                                  values there are distinct elements only when wrapping the
                                  negative ones keeps them apart (all >= 0, or all within a
                                  window as long as the axis), so a PARALLEL loop not asserted
                                  must check that (else run in order) */
    int nwraps;
    bool ranked_last;          /* the ranked reductions' test is `>=` or `<=`: among equal
                                  keys the last iteration wins */
    bool atomic;               /* some array is updated with atomic read-modify-writes */
    const char *reason;        /* why the analysis did not prove it parallel, in words;
                                  NULL when it did */
    NgJitReduction *reductions;/* scalars reduced over the iterations (PARALLEL only) */
    int nreductions;
    const char **atomics;      /* arrays whose `a[...] += v` updates must be atomic (PARALLEL only) */
    int natomics;
    const char **privates;     /* scalars private to one iteration (dead after the loop) */
    int nprivates;
    const char **live;         /* names something may read after the loop (whatever the
                                  verdict): what a loop in order must hand back */
    int nlive;
    bool live_known;           /* `live` was found (else every name counts as read after) */
    const char **scalars;      /* PARALLEL only: names updated in place (`t += e`) that may hold
                                  an array (a parameter, or bound to a subscript or a name):
                                  the verdict holds only if they are scalars; if one is an
                                  array, `t += e` writes into it and the loop is sequential */
    int nscalars;
} NgJitLoopInfo;

/* Every loop of one function, in source order (a loop before the loops in it). */
typedef struct NgJitLoops {
    NgJitArena arena;    /* owns items, their lists and reason texts */
    NgJitLoopInfo *items;
    int n;
    const NgJitStmt *func; /* the DEF analysed (its nested defs are helpers first) */
} NgJitLoops;

/* Analyses the loops of `func`, a DEF statement of `ast` (loops in functions
 * nested in it are not its loops), into *out, which the caller frees with
 * ng_jit_loops_free. NG_ERR_VALUE when func is not a DEF, NG_ERR_NOMEM. */
NgStatus ng_jit_analyze(const NgJitAst *ast, const NgJitStmt *func, NgJitLoops **out);
void ng_jit_loops_free(NgJitLoops *loops);

/* The DEF a call of `name` in func (or in a helper it inlines) is compiled as: the last def
 * of that name at func's top level (a nested function shadows the module's), else the last at
 * module level (a later def rebinds the name), else NULL. Python calls what the name is bound
 * to at run time: the launch checks that it is this def's function (pymod/jit.c, `callee_ok`),
 * else the loop runs as Python. func may be NULL. */
const NgJitStmt *ng_jit_helper_def(const NgJitAst *ast, const NgJitStmt *func, const char *name);

/* A def a compiled loop may inline: not a generator, and undecorated or decorated by numgpu's
 * own `@numgpu.jit` (`@ng.jit`, `@jit`, called with its options too), whose function is still
 * the def's (the launch checks the binding: pymod/jit.c unwraps the JitFunction). */
bool ng_jit_inlinable_def(const NgJitStmt *d);
/* s is `while True:` (its body runs once at least; only a break, or a return, ends it). */
bool ng_jit_while_true(const NgJitStmt *s);
/* Whether statement s may end its loop's iteration before the statements after it run: a break,
 * continue or return, in its ifs too, a nested loop made to return (desugar's `returns`), or a
 * statement left to Python (it may hold any of them). */
bool ng_jit_may_leave(const NgJitStmt *s);

/* Whether statement s updates an array element by comparison, `if v > a[idx]: a[idx] = v` (the
 * comparison either way round, strict) or `a[idx] = max(a[idx], v)`: NG_JIT_RED_MAX (`<`, min:
 * NG_JIT_RED_MIN) with *target a[idx] and *value v, where a is named nowhere else in them; else -1.
 * Python keeps the element unless v compares greater (a NaN v never replaces it, a NaN element
 * stays): in a parallel loop it is an atomic update of that kind (NgJitLoopInfo.atomics). */
int ng_jit_cond_store(const NgJitStmt *s, const NgJitExpr **target, const NgJitExpr **value);

/* "parallel", "sequential", "python": the words of f.loop_report(). */
const char *ng_jit_loop_kind_name(NgJitLoopKind kind);

/* Whether something may read `name` after the loop (NgJitLoopInfo.live). */
bool ng_jit_loop_reads_after(const NgJitLoopInfo *loop, const char *name);
/* "+", "*", "max", "min", "|", "&", "^", "argmax", "argmin". */
const char *ng_jit_red_op_name(NgJitRedOp op);

/* Appends one line per loop, indented by depth, as f.explain() shows it:
 * `line 7: parallel reduce(+:total)` or `line 6: sequential: writes a[i], ...`. */
void ng_jit_loops_print(const NgJitLoops *loops, NgStr *out);

/* What a call inside a loop is, for the analysis and for the lowering. */
typedef enum NgJitCallKind {
    NG_JIT_CALL_OTHER,     /* not compilable: the loop stays Python */
    NG_JIT_CALL_BUILTIN,   /* range len abs min max int float bool complex */
    NG_JIT_CALL_MATH,      /* math.<f> or cmath.<f>, a scalar function (sqrt, exp, ...) */
    NG_JIT_CALL_NP_SCALAR, /* np.<f>/numpy.<f>, elementwise (sqrt, exp, abs, float32, ...),
                              with one positional argument per input (no `out`) */
    NG_JIT_CALL_NP_REDUCE, /* np.sum np.max np.min np.prod np.mean np.amax np.amin np.any np.all
                              np.argmax np.argmin np.var np.std np.count_nonzero np.nansum (one
                              argument), np.dot (two), np.linalg.norm (one or two); keywords:
                              only np.var's and np.std's ddof=, np.linalg.norm's ord= */
    NG_JIT_CALL_PRANGE,    /* prange, numgpu.prange: only as a loop's iterable */
    NG_JIT_CALL_HELPER,    /* any other plain name: a function the lowering inlines */
    NG_JIT_CALL_METHOD,    /* <value>.conjugate(), .conj(), .item(): a scalar method, no arguments; an
                              array's reduction, x.sum() .max() .min() .mean() .prod() .any() .all()
                              (no arguments), x.dot(y) */
    NG_JIT_CALL_NP_NEW,    /* np.zeros np.ones np.empty np.full (and their _like), np.copy, x.copy(): a
                              small array made in the loop, only as `a = np.zeros(3)` (ng_jit_new_array) */
    NG_JIT_CALL_RANDOM,    /* one random number: random.random() .uniform(a, b) .randint(a, b) ...,
                              np.random.normal() ..., rng.integers(n) ... of a generator
                              (ng_jit_random_fn: which the receiver's value decides) */
} NgJitCallKind;

/* Whose random numbers a call draws: module random's (or a random.Random's), NumPy's
 * legacy ones (np.random's functions, a RandomState's methods) or a numpy.random.Generator's. */
typedef enum NgJitRng { NG_JIT_RNG_PY, NG_JIT_RNG_NUMPY, NG_JIT_RNG_GENERATOR, NG_JIT_RNGS } NgJitRng;

/* What a random number is: uniform in [low, high), normal(mean, sd), an integer in [low, high)
 * (randint(a, b): in [a, b]; with one argument: in [0, it)), exponential(scale) (Python's
 * expovariate(lambd): of scale 1 / lambd). */
typedef enum NgJitDraw { NG_JIT_DRAW_UNIFORM, NG_JIT_DRAW_NORMAL, NG_JIT_DRAW_INT, NG_JIT_DRAW_EXP } NgJitDraw;

/* A random number a loop draws (NG_JIT_CALL_RANDOM): its up to two parameters positional or by
 * their keyword names, with defaults (NAN: none, the argument is required; INFINITY: None, an
 * integer's range then runs from 0 to the first argument). The lowering draws it from a
 * counter-based generator of its own (lower.c draw). */
typedef struct NgJitRandomFn {
    const char *name;
    NgJitRng rng;
    NgJitDraw draw;
    int nparams;             /* 0, 1 or 2 */
    const char *params[2];   /* their keyword names */
    double dflt[2];          /* their defaults */
    bool inclusive;          /* an integer's high is included (random.randint) */
} NgJitRandomFn;

/* Whether call e may draw a random number (NG_JIT_CALL_RANDOM): np.random.<fn>(...), or
 * <name>.<fn>(...) of a function some generator has, with no more arguments than it takes. */
bool ng_jit_random_call(const NgJitExpr *call);

/* Function e->lhs->name of generator kind rng (its arguments aside: the caller checks they bind),
 * NULL when that generator has none of that name. */
const NgJitRandomFn *ng_jit_random_fn(const NgJitExpr *call, NgJitRng rng);

/* A small array a loop body makes, `a = np.zeros(shape[, dtype])`, np.ones, np.empty or
 * `np.full(shape, value[, dtype])` (dtype also as a keyword): its shape a length or a tuple of up
 * to NG_JIT_MAX_NEW_RANK of them, each a whole number written in the source or an expression of
 * lengths (ng_jit_length_expr: ints bound before the loop, x.shape[k], len(x); the kernel is made
 * for their values, ng_jit_sizes_array), each at least 1,
 * their product (its size) at most NG_JIT_MAX_NEW; or np.zeros_like(x[, dtype]) (ones, empty),
 * np.full_like(x, value[, dtype]), np.copy(x), x.copy() of a part x of an array (x[i]: the kernel is
 * made for the array's shape). Each iteration has its own: a variable per
 * element (registers on a GPU) or an array of the thread's (lower.c). */
enum { NG_JIT_MAX_NEW = 256, NG_JIT_MAX_NEW_RANK = 4 };
typedef struct NgJitNewArray {
    int64_t n;                 /* its size: 0 where its shape is not numbers in range */
    int ndim;                  /* its axes: 0 where its shape is not numbers and names */
    int64_t shape[NG_JIT_MAX_NEW_RANK]; /* ... their lengths (0 for a name), */
    const NgJitExpr *named[NG_JIT_MAX_NEW_RANK]; /* ... their expressions (NULL for a number) */
    const NgJitExpr *like;     /* np.zeros_like(x) ... np.full_like(x, v), np.copy(x), x.copy(): x (a
                                  name or a part of one, indices and whole axes: its shape, lower.c
                                  finds it; ndim 0 here), NULL for the others */
    const NgJitExpr *fill;     /* np.full's value; NULL for the others */
    const NgJitExpr *dtype;    /* the dtype argument as written; NULL for none */
    char fn;                   /* 'z'eros, 'o'nes, 'e'mpty, 'f'ull (and their _like), 'c'opy */
} NgJitNewArray;

/* Whether e is a call ng_jit_call_kind calls NG_JIT_CALL_NP_NEW whose arguments are in one
 * of the forms above (*out filled; n 0 where the shape is not numbers in range). */
bool ng_jit_new_array(const NgJitExpr *e, NgJitNewArray *out);

/* Whether e is a length a small array's shape may be written with: an int literal, a name (of an
 * int bound before the loop, lower.c checks), x.shape[k] or len(x) of a name x, and unary -, +,
 * and + - * // % of such. */
bool ng_jit_length_expr(const NgJitExpr *e);

/* The array x (a NAME) of a length x.shape[k] (*axis k, negative as written: x.shape[-1] gives -1)
 * or len(x) (*axis 0), else NULL. */
const NgJitExpr *ng_jit_measured(const NgJitExpr *e, int64_t *axis);

/* Whether `name` is read by a length of a small array loop's body makes (np.zeros(n),
 * np.zeros(X.shape[1] + 1)): the kernel is made for its value, or for its shape where it is an
 * array (NgJitVarType.has_value). */
bool ng_jit_sizes_array(const NgJitStmt *loop, const char *name);

/* Whether the loop's body takes len(name) (a dict's length, which its kernel is made for). */
bool ng_jit_takes_len(const NgJitStmt *loop, const char *name);

/* The kind of a CALL node by the function it names (arguments not looked at). */
NgJitCallKind ng_jit_call_kind(const NgJitExpr *call);

/* The arguments of a call of a function with parameters ps, as Python binds
 * them: out[j] (ps->n of them) is the expression passed for parameter j,
 * positionally or by keyword, or the parameter's default. NULL when they
 * bind (every parameter has a value), else Python's TypeError in words
 * ("got an unexpected keyword argument 'z'"), naming the function `fname`;
 * *args, **kwargs parameters and starred arguments are not bound (words). */
const char *ng_jit_bind_args(const NgJitExpr *call, const NgJitParams *ps, const char *fname, const NgJitExpr **out,
                             char *why, size_t why_size);

#endif
