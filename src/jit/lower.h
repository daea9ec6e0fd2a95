/* Lowering one loop nest of a parsed Python function (ast.h) to a kernel in
 * the IR (src/ir), specialised on the run-time types of its free variables.
 *
 * Where it fits: the Python glue parses the function (parse.c), dependence
 * analysis (analyze.c) decides per loop whether it runs in parallel, which
 * scalars are reductions and which arrays need atomic updates, and the host
 * plan, the first time it reaches a loop, calls ng_jit_lower (through
 * ng_kernel_get, keyed by ng_jit_lower_key) with the types of the values its
 * names hold then. The two stages meet in NgJitLoopPlan: lowering trusts the
 * verdict it is given and checks only what it needs to emit correct code.
 *
 * The kernel's parameters (NgJitLowered.args), in order of first mention in
 * the nest, each name once:
 *   - every free array the nest mentions: passed as it is (any strides);
 *   - every free scalar the nest reads and never assigns: its value;
 *   - in a parallel loop, every free scalar it assigns that is not a
 *     reduction: its value, copied into a private variable per iteration
 *     (the analysis says such scalars are written before read and dead after
 *     the loop; the copy keeps the result right if they are not);
 *   - every scalar whose value the host needs after the loop: a reduction of
 *     a parallel loop, or in a sequential loop any free scalar it assigns and
 *     the names in plan->live_out. Each is a "cell": a 0-d array of the
 *     scalar's dtype holding the value before the loop (when bound then) and,
 *     after the launch, the value after it;
 *   - with plan->boundscheck, or made by the first index checked where it
 *     runs, the error array (NG_JIT_ARG_ERROR);
 *   - last, NG_JIT_WRAP when the kernel checks that indices do not wrap.
 * The outer loop becomes a FOR, NG_IR_PARALLEL when plan->parallel (with its
 * reductions attached by ng_ir_reduce), else the whole nest runs as one
 * thread. Launch it with extent = the outer loop's trip count
 * (len(range(...)) in Python; only GPU grid sizing depends on it, never the
 * result) and work = an estimate of the elements touched.
 *
 * Typing follows NumPy 2 (NEP 50): Python int/float/bool values (literals,
 * loop counters, shapes, Python scalars passed in) are "weak" int64/float64/
 * bool that give way to a NumPy dtype (float32 element * 2.0 stays float32);
 * array elements and NumPy scalars are strong. A local variable has one
 * type: the promotion of every value assigned to it anywhere in the nest.
 *
 * What compiles: `for v in range(...)` / `prange(...)` (any step, negative
 * included) and `while` loops, nested, with break/continue (a `break` out of
 * the outer loop only when it is sequential); `if/elif/else`; assignments,
 * augmented assignments and tuple assignments (swaps included) to locals and
 * array elements `a[i]`, `a[i, j]`, `a[i][j]` (negative indices wrap);
 * arithmetic with Python's `//`, `%`, `/`, `**`, bit operations, chained
 * comparisons, `and/or/not`, conditional expressions; `x.shape[k]`,
 * `x.shape` unpacked, `x.size`, `x.ndim`, `len(x)`; builtins abs min max int
 * float bool round pow, sum/min/max/any/all of a row; math.* and np.* scalar functions, constants (pi, e, inf, nan)
 * and dtype constructors (np.float32(x) ...); locals naming part of an
 * array (`row = X[i]`: row[j], len(row), row.shape, writes through it) and
 * np.sum/prod/mean/max/min/any/all/dot over 1-d arrays, rows (np.sum(X[i])),
 * slices (np.sum(x[a:b]), np.max(X[:, j]), np.sum(img[i:i + 3, j:j + 3]))
 * and elementwise expressions of them (loops run before the statement, one
 * per axis, parts broadcast as NumPy's); parts stored whole (Y[i] = ...,
 * y[a:b] = ..., img[i:i + 2, 1:3] = v);
 * calls of helper functions
 * defined in the same source (module level or nested), inlined at each call
 * site (several returns, defaults, array parameters, calls for their effect;
 * not recursion), names in them other than their own, np and math having no
 * type; `raise E("constant")`, `raise E` and `assert c[, "constant"]` of builtin
 * exception classes (NG_JIT_RAISE_STMT). Anything else fails with
 * NG_ERR_UNSUPPORTED: "file:line: <what> is not supported in a compiled loop".
 * Type errors are NG_ERR_TYPE, names without a type NG_ERR_VALUE, all naming
 * the Python source line.
 *
 * Where results differ from Python: integers are int64 and wrap; under
 * plan->unchecked a read's index out of range is not checked. Where Python
 * raises (a division of Python numbers by zero, math.sqrt(-1.0)), the
 * kernel records it (NG_JIT_RAISE) and the host raises after the launch, or,
 * where the operands are the same in every iteration, the kernel runs no
 * iteration and the loop runs as Python (NG_JIT_PYTHON).
 */
#ifndef NUMGPU_JIT_LOWER_H
#define NUMGPU_JIT_LOWER_H

#include <stdbool.h>

#include "ir/ir.h"
#include "jit/analyze.h"
#include "jit/ast.h"

enum {
    NG_JIT_MAX_REDUCTIONS = 8, /* reductions of one loop */
    NG_JIT_MAX_ATOMICS = 8,    /* arrays with atomic updates in one loop */
    NG_JIT_MAX_LIVE_OUT = 32,  /* live-out names of one loop */
    NG_JIT_MAX_ARGS = 64,      /* kernel parameters of one loop */
    NG_JIT_MAX_RNGS = 8,       /* generators one loop draws random numbers from */
    NG_JIT_MAX_COLLAPSE = 8,   /* loops collapsed into one parallel loop */
};

/* The names of the search loop's extra parameters (NgJitLoopPlan.search),
 * last before the error array; no Python name starts with them. */
#define NG_JIT_FOUND "__ng_found" /* find: cell, the loop variable found ("none" before) */
#define NG_JIT_TRIPS "__ng_trips" /* find: cell, the range's trip count */
#define NG_JIT_FROM "__ng_from"   /* find: scalar, the first iteration (0-based) to test */
#define NG_JIT_TO "__ng_to"       /* find: scalar, one past the last */
#define NG_JIT_START "__ng_start" /* run: scalar, NG_JIT_FOUND's value */
/* ... of a parallel loop whose proofs compared indices that may be negative
 * (NgJitLoopInfo.wraps), the very last, after the error array: */
#define NG_JIT_WRAP "__ng_wrap"   /* cell, int64: 1 when they would wrap onto one element (then
                                     no iteration ran: run the loop in order), else 0 */
/* ... of a loop with an operation Python raises on for some values (math.sqrt of a negative
 * number, int() of a NaN, 1.0 / 0.0 of Python floats), after NG_JIT_WRAP and NG_JIT_PYTHON: */
#define NG_JIT_RAISE "__ng_raise" /* cell, int64, 0 before the launch: after it, 0, or
                                     line * NG_JIT_RAISE_CODES + what Python would raise
                                     (NgJitRaise) for the greatest line that did */
/* ... of a parallel loop whose body has such an operation, right before NG_JIT_RAISE: */
#define NG_JIT_RAISE_FIRST "__ng_raise1" /* cell, int64, 0 before the launch: after it, 0, or the
                                            first failing iteration's code with its rank above it
                                            (NG_JIT_RAISE_RANKS): its low bits are the code, all of
                                            it where NG_JIT_RAISE's low bits differ */
/* ... and, where such an operation's code has bits above NG_JIT_RAISE_LOW_BITS (a KeyError's key,
 * a bound's int), right after NG_JIT_RAISE_FIRST: */
#define NG_JIT_RAISE_HIGH "__ng_raise2" /* cell, int64, 0 before the launch: after it, 0, or the
                                           first iteration's with such a code: those bits, its rank
                                           above them (NG_JIT_RAISE_HIGH_RANKS) */
/* ... where that operation's operands are the same in every iteration (`x / w`, w a Python
 * number the loop does not assign), after NG_JIT_WRAP: */
#define NG_JIT_PYTHON "__ng_python" /* cell, int64: as NG_JIT_RAISE's, checked before the loop:
                                       when not 0, no iteration ran: the loop must run as Python,
                                       which raises where it should */
typedef enum NgJitRaise {
    NG_JIT_RAISE_DOMAIN = 1,    /* ValueError: math domain error */
    NG_JIT_RAISE_RANGE,         /* OverflowError: math range error */
    NG_JIT_RAISE_ZERODIV,       /* ZeroDivisionError of int / int ("division by zero") */
    NG_JIT_RAISE_NAN_INT,       /* ValueError: cannot convert float NaN to integer */
    NG_JIT_RAISE_INF_INT,       /* OverflowError: cannot convert float infinity to integer */
    NG_JIT_RAISE_BIG_INT,       /* OverflowError: a float too large for a kernel's int64 */
    NG_JIT_RAISE_ZERODIV_FLOAT, /* ZeroDivisionError of float / 0 */
    NG_JIT_RAISE_ZERODIV_COMPLEX, /* ZeroDivisionError of complex / 0 */
    NG_JIT_RAISE_FLOORDIV_INT,  /* ZeroDivisionError of int // 0 */
    NG_JIT_RAISE_MOD_INT,       /* ZeroDivisionError of int % 0 */
    NG_JIT_RAISE_FLOORDIV_FLOAT, /* ZeroDivisionError of float // 0.0 */
    NG_JIT_RAISE_MOD_FLOAT,     /* ZeroDivisionError of float % 0.0 */
    NG_JIT_RAISE_ZERO_POW,      /* ZeroDivisionError of 0.0 ** negative (and 0 ** negative int) */
    NG_JIT_RAISE_POW_RANGE,     /* OverflowError of a float ** whose result is beyond float64 */
    NG_JIT_RAISE_POW_COMPLEX,   /* a negative float ** a fractional one: complex in Python, which a
                                   kernel's float cannot become (ValueError, numgpu's words) */
    NG_JIT_RAISE_POW_INT_NEG,   /* an int ** a negative int: a float in Python, which a kernel's
                                   int cannot become (ValueError, numgpu's words) */
    NG_JIT_RAISE_POW_NUMPY_NEG, /* a NumPy integer ** a negative integer: NumPy's ValueError */
    NG_JIT_RAISE_NEG_SHIFT,     /* ValueError of a Python int shifted by a negative count */
    NG_JIT_RAISE_KEY_STR,       /* KeyError of a dict lookup by a 1-character str, and */
    NG_JIT_RAISE_KEY_INT,       /* ... by an int: the key is in the code too (ng_jit_raise_key), and
                                   whether it is a Python int or which NumPy integer */
    NG_JIT_RAISE_SHAPE,         /* (NG_JIT_PYTHON only) an array made in the loop is copied into a
                                   part of another shape: NumPy broadcasts it, or raises */
    NG_JIT_RAISE_STR_LEN,       /* (NG_JIT_PYTHON only) a str argument read as one character is
                                   of another length */
    NG_JIT_RAISE_INT_BOUNDS,    /* OverflowError of a Python int meeting a NumPy integer dtype that
                                   does not hold it (NEP 50): the int and the dtype in the code
                                   too (ng_jit_raise_bounds) */
    NG_JIT_RAISE_TUPLE_INDEX,   /* IndexError: tuple index out of range */
    NG_JIT_RAISE_UNPACK,        /* (NG_JIT_PYTHON only) a tuple unpacked into another number of names */
    NG_JIT_RAISE_BIG_UINT,      /* OverflowError: int() of a uint64 from 2**63 on (a Python int a
                                   kernel's int64 cannot be) */
    NG_JIT_RAISE_EMPTY,         /* ValueError: min()/max() of no element, Python's or NumPy's (the
                                   field says which: NG_JIT_EMPTY_*) */
    NG_JIT_RAISE_ZERO_POW_COMPLEX, /* ZeroDivisionError of 0j ** a negative or complex power */
    NG_JIT_RAISE_DIVMOD_FLOAT,  /* ZeroDivisionError of divmod(x, 0.0) of Python floats */
    NG_JIT_RAISE_ROW_SHAPE,     /* ValueError: rows of other lengths in one elementwise expression
                                   (NumPy broadcasts a length 1: the loop runs as Python) */
    NG_JIT_RAISE_INDEX,         /* IndexError of an index outside a slice named in the loop (w[j] of
                                   w = s[a:b]); the field says what s is: NG_JIT_INDEX_* */
    NG_JIT_RAISE_RANDOM,        /* the error of a random number's parameters (an empty range, a scale
                                   < 0); the field says which: NG_JIT_RANDOM_* */
    NG_JIT_RAISE_ARANGE_SIZE,   /* ValueError of np.arange of an infinite length (NumPy's words) */
    NG_JIT_RAISE_ARANGE_NAN,    /* ValueError of np.arange of a NaN length (NumPy's words) */
    NG_JIT_RAISE_MASK_ROWS,     /* (NG_JIT_PYTHON only) len() of a boolean mask's selection of rows that
                                   have no element (counted by their elements here) */
    NG_JIT_RAISE_NO_TRIPS,      /* (NG_JIT_PYTHON only) the outer range has no iteration: the loop
                                   has no effect, as in Python (every name keeps its binding) */
    NG_JIT_RAISE_RANGE_STEP,    /* (NG_JIT_PYTHON only) a range() step of 0: Python's ValueError
                                   (after NG_JIT_RAISE_NO_TRIPS: the greater code wins) */
    NG_JIT_RAISE_INT_OVERFLOW,  /* OverflowError: a Python int beyond 64 bits (lower.c int_overflow;
                                   the launch runs the loop as Python instead where it wrote nothing) */
    NG_JIT_RAISE_TOLERANCE,     /* ValueError of math.isclose's negative rel_tol or abs_tol */
    NG_JIT_RAISE_ISQRT,         /* ValueError of math.isqrt of a negative int */
    NG_JIT_RAISE_POW_MOD_ZERO,  /* ValueError of pow(a, b, 0) */
    NG_JIT_RAISE_EMPTY_SUM,     /* (NG_JIT_PYTHON only) Python's sum() or math.prod() of an empty row:
                                   its start, of the start's own type (a Python int or float) */
    NG_JIT_RAISE_POW_BIG,       /* (NG_JIT_PYTHON only) pow(a, b, m) of a modulus from 2**32 on or b < 0 */
    NG_JIT_RAISE_STORE_RANGE,   /* (NG_JIT_PYTHON only) a store's index (a read's: field 1), checked
                                   before the loop, is out of range in some iteration: Python raises
                                   IndexError there */
    NG_JIT_RAISE_ROUND_DIGITS,  /* (NG_JIT_PYTHON only) round(x, n) of a Python float with n beyond 22
                                   either side of the point (lower.c python_round_float) */
    NG_JIT_RAISE_STMT,          /* a raise or assert statement of the loop (NG_JIT_S_RAISE): the field
                                   is its raise_id + 1 (ng_jit_find_raise) */
    NG_JIT_RAISE_KINDS,         /* (how many there are: new ones go before this) */
    NG_JIT_RAISE_CODES = 64,    /* (the multiplier of the line; times NG_JIT_RAISE_LINES, 2**25, which
                                   leaves the fields of KeyError and NG_JIT_RAISE_INT_BOUNDS their bits) */
} NgJitRaise;
_Static_assert(NG_JIT_RAISE_KINDS <= NG_JIT_RAISE_CODES, "raise kinds must fit below NG_JIT_RAISE_CODES");

/* A raise code's parts. KeyError's is (key field * NG_JIT_RAISE_LINES +
 * line) * NG_JIT_RAISE_CODES + NG_JIT_RAISE_KEY_*, the key field being the key
 * + 2**31 for keys in (-2**31, 2**31), else 0 (a key not told); an int key's
 * field is that * 16 + its type (NG_JIT_KEY_PYINT, NG_JIT_KEY_PYBOOL, else a
 * NumPy scalar's NgDType + 1). */
#define NG_JIT_RAISE_LINES (INT64_C(1) << 19)
#define NG_JIT_KEY_BIAS (INT64_C(1) << 31)
static inline int64_t ng_jit_raise_line(int64_t what) { return what / NG_JIT_RAISE_CODES % NG_JIT_RAISE_LINES; }
static inline int ng_jit_raise_kind(int64_t what) { return (int)(what % NG_JIT_RAISE_CODES); }
/* NG_JIT_RAISE_FIRST's codes: (NG_JIT_RAISE_RANKS - rank % NG_JIT_RAISE_RANKS) <<
 * NG_JIT_RAISE_LOW_BITS | the code's low bits (kind, line and a field below 16: all of most
 * codes); their max is the earliest iteration's (of loops up to 2**33 iterations: past that the
 * ranks wrap, an error is still raised, not surely the first one's). */
#define NG_JIT_RAISE_LOW_BITS 29
#define NG_JIT_RAISE_RANKS (INT64_C(1) << 33)
static inline int64_t ng_jit_raise_low(int64_t what) { return what & ((INT64_C(1) << NG_JIT_RAISE_LOW_BITS) - 1); }
/* The high cell's codes: (NG_JIT_RAISE_HIGH_RANKS - rank % NG_JIT_RAISE_HIGH_RANKS) <<
 * NG_JIT_RAISE_HIGH_BITS | the code >> NG_JIT_RAISE_LOW_BITS; their max is the earliest such
 * iteration's, which, where its rank agrees with the first cell's, is the first failing one. */
#define NG_JIT_RAISE_HIGH_BITS 33
#define NG_JIT_RAISE_HIGH_RANKS (INT64_C(1) << 30)
/* The first failing iteration's whole code from the first and high cells (0: the high cell
 * tells not that iteration's bits: the first cell's low bits are all there is). */
static inline int64_t ng_jit_raise_join(int64_t first, int64_t high)
{
    int64_t rank = (NG_JIT_RAISE_RANKS - (first >> NG_JIT_RAISE_LOW_BITS)) % NG_JIT_RAISE_HIGH_RANKS;
    int64_t hrank = NG_JIT_RAISE_HIGH_RANKS - (high >> NG_JIT_RAISE_HIGH_BITS);
    if (first == 0 || high == 0 || rank != hrank)
        return 0;
    return (high & ((INT64_C(1) << NG_JIT_RAISE_HIGH_BITS) - 1)) << NG_JIT_RAISE_LOW_BITS | ng_jit_raise_low(first);
}
/* An int key's type in its field (else a NumPy integer's NgDType + 1). */
enum { NG_JIT_KEY_PYINT = 0, NG_JIT_KEY_PYBOOL = 15 };
/* KeyError's key and, for an int key, its type (NG_JIT_KEY_*); false when the code does not
 * tell the key. */
static inline bool ng_jit_raise_key(int64_t what, int64_t *key, int *type)
{
    int64_t field = what / NG_JIT_RAISE_CODES / NG_JIT_RAISE_LINES;
    *type = NG_JIT_KEY_PYINT;
    if (what % NG_JIT_RAISE_CODES == NG_JIT_RAISE_KEY_INT) {
        *type = (int)(field % 16);
        field /= 16;
    }
    *key = field - NG_JIT_KEY_BIAS;
    return field != 0;
}
/* The code of `kind` at `line` with `field` (0: none). */
static inline int64_t ng_jit_raise_code(int kind, int64_t line, int64_t field)
{
    return (field * NG_JIT_RAISE_LINES + line) * NG_JIT_RAISE_CODES + kind;
}
static inline int64_t ng_jit_raise_field(int64_t what) { return what / NG_JIT_RAISE_CODES / NG_JIT_RAISE_LINES; }
/* NG_JIT_RAISE_EMPTY's field: Python's max() / min(), NumPy's np.max / np.min, np.argmax /
 * np.argmin, np.nanmax / np.nanmin (NumPy's words: fmax, fmin). */
enum { NG_JIT_EMPTY_MAX = 1, NG_JIT_EMPTY_MIN, NG_JIT_EMPTY_NP_MAX, NG_JIT_EMPTY_NP_MIN, NG_JIT_EMPTY_ARGMAX,
       NG_JIT_EMPTY_ARGMIN, NG_JIT_EMPTY_NP_FMAX, NG_JIT_EMPTY_NP_FMIN };
/* NG_JIT_RAISE_RANDOM's field: Python's randrange()/randint() of an empty range (ValueError in
 * Python's words); NumPy's ValueErrors "low >= high", "high <= 0", and a Generator's integers()
 * with endpoint=True, "low > high", "high < 0"; "scale < 0"; a uniform's range beyond float64
 * (OverflowError in np.random's words, in a Generator's); Python's expovariate(0)
 * (ZeroDivisionError). */
enum { NG_JIT_RANDOM_RANDRANGE = 1, NG_JIT_RANDOM_LOW_HIGH, NG_JIT_RANDOM_HIGH, NG_JIT_RANDOM_LOW_ABOVE,
       NG_JIT_RANDOM_HIGH_BELOW, NG_JIT_RANDOM_SCALE, NG_JIT_RANDOM_RANGE, NG_JIT_RANDOM_RANGE_GENERATOR,
       NG_JIT_RANDOM_RATE };
/* NG_JIT_RAISE_INDEX's field: what the slice is of. */
enum { NG_JIT_INDEX_STR = 1, NG_JIT_INDEX_ARRAY, NG_JIT_INDEX_TUPLE };
/* NG_JIT_RAISE_INT_BOUNDS's field: (the int + NG_JIT_BOUNDS_BIAS for ints in
 * (-2**32, 2**32), else 0) * 16 + the NgDType, or NG_JIT_BOUNDS_LONG for a
 * float beyond a C long (Python's "Python int too large to convert to C long"). */
#define NG_JIT_BOUNDS_BIAS (INT64_C(1) << 32)
#define NG_JIT_BOUNDS_LONG 15
/* The dtype and, when the code tells it (true), the int of an NG_JIT_RAISE_INT_BOUNDS code. */
static inline bool ng_jit_raise_bounds(int64_t what, int *dtype, int64_t *value)
{
    int64_t field = what / NG_JIT_RAISE_CODES / NG_JIT_RAISE_LINES;
    *dtype = (int)(field % 16);
    *value = field / 16 - NG_JIT_BOUNDS_BIAS;
    return field / 16 != 0;
}
/* ... of a loop run around one iteration (NgJitLoopPlan.peel), after the search's: */
#define NG_JIT_PHASE "__ng_phase" /* scalar: 0, the iterations before it; 1, it; 2, those after */
/* ... and of a ranked reduction's (after the search's), which GPUs combine
 * into: the winner's rank (-1 before the launch) and a lock (0 before it). */
#define NG_JIT_RANK "__ng_rank"   /* cell, int64 */
#define NG_JIT_LOCK "__ng_lock"   /* cell, int32 */

/* A search's "none found": where the reduction of the loop variable starts
 * (its identity: min for a positive step, max for a negative one). */
static inline int64_t ng_jit_search_none(int64_t step) { return step > 0 ? INT64_MAX : INT64_MIN; }
static inline NgOp ng_jit_search_op(int64_t step) { return step > 0 ? NG_OP_MINIMUM : NG_OP_MAXIMUM; }

/* What a module-valued free variable is. */
typedef enum NgJitModule {
    NG_JIT_MOD_NONE,  /* not a module: an array or a scalar */
    NG_JIT_MOD_NUMPY, /* numpy (or numgpu standing in for it): np.sqrt, np.pi, np.float32 ... */
    NG_JIT_MOD_MATH,  /* math: math.sqrt, math.floor, math.pi ... */
    NG_JIT_MOD_CMATH, /* cmath: cmath.exp, cmath.phase, cmath.pi ... (complex results) */
    NG_JIT_MOD_RANDOM, /* random: random.random(), random.uniform(a, b) ... (NG_JIT_CALL_RANDOM) */
    NG_JIT_MOD_NPRANDOM, /* numpy.random itself (`import numpy.random as npr`): npr.normal() ... */
    /* not modules, generators whose methods draw random numbers (NG_JIT_CALL_RANDOM): */
    NG_JIT_MOD_PYRNG,  /* a random.Random: r.random(), r.randint(a, b) ... */
    NG_JIT_MOD_RANDOMSTATE, /* a numpy.random.RandomState: rs.rand(), rs.normal() ... */
    NG_JIT_MOD_GENERATOR, /* a numpy.random.Generator: rng.random(), rng.integers(n) ... */
} NgJitModule;

/* What a free variable that is passed as an array really is in Python. */
typedef enum NgJitSeq {
    NG_JIT_SEQ_ARRAY,    /* an ndarray (or not an array at all) */
    NG_JIT_SEQ_STR,      /* a str: its code points, a uint32 array of rank 1 (read-only); its
                            elements are 1-character strings, compared as code points */
    NG_JIT_SEQ_DICT_CHR, /* a dict from 1-character str keys to ints: an int64 table, [0] the
                            least key's code point k0, [1 + c - k0] the value of key chr(c) or
                            NG_JIT_NO_KEY (read-only) */
    NG_JIT_SEQ_DICT_INT, /* the same for a dict from int keys to ints */
    NG_JIT_SEQ_TUPLE,    /* a tuple of Python ints (int64), floats, bools or complex numbers: its
                            items, an array of rank 1 (read-only); an item is a Python number */
} NgJitSeq;

/* A dict table's entry of a key the dict does not have (no value may be it). */
#define NG_JIT_NO_KEY INT64_MIN

/* The run-time type of one free variable: a name bound before the loop. */
typedef struct NgJitVarType {
    const char *name;    /* the Python name (need not be interned) */
    bool is_array;       /* an ndarray (dtype, ndim) rather than a scalar */
    NgDType dtype;       /* element dtype; scalars: NG_INT64 / NG_FLOAT64 / NG_BOOL for a
                            Python int / float / bool, or a NumPy scalar's dtype */
    int ndim;            /* arrays: rank (0 ... NG_MAXDIMS) */
    bool numpy_scalar;   /* scalars: a NumPy scalar (strong dtype), not a Python one (weak) */
    bool inner_contig;   /* arrays: the last axis has stride 1 (part of the specialisation) */
    NgJitModule module;  /* a module, not a value (then the fields above are unused) */
    NgJitSeq seq;        /* arrays: a str or dict passed as one (NG_JIT_SEQ_ARRAY otherwise) */
    bool has_value;      /* scalars: an int whose value the kernel is made for (a small array's
                            length, ng_jit_sizes_array): value; arrays: one whose shape it is
                            made for (np.zeros(X.shape[1])): shape */
    int64_t value;
    const int64_t *shape; /* (its ndim extents, read while the loop is lowered and keyed) */
} NgJitVarType;

/* The dependence analysis' verdict on the loop being lowered. */
typedef struct NgJitLoopPlan {
    bool parallel;                   /* the outer loop's iterations are independent */
    int nreductions;                 /* parallel: scalars combined across iterations */
    struct {
        const char *name;            /* the scalar (bound before the loop) */
        NgOp op;                     /* NG_OP_ADD, MUL, MAXIMUM, MINIMUM, BITAND, BITOR, BITXOR;
                                        NG_NOPS for a name that goes with the ranked key */
        bool ranked;                 /* the argmax-style update (NgJitReduction.ranked): its
                                        key (op MAXIMUM or MINIMUM, one per loop) and the names
                                        assigned with it (op NG_NOPS) */
        bool late;                   /* NgJitReduction.late: a float one runs in order */
        bool ties_last;              /* NgJitReduction.ties_last */
        bool fresh;                  /* NgJitReduction.fresh: the value before the loop takes
                                        no part (the launch starts its cell at op's identity)
                                        and a bound flag says whether an iteration assigned it */
    } reductions[NG_JIT_MAX_REDUCTIONS];
    bool ranked_last;                /* ranked: equal keys, the last iteration wins */
    bool atomic;                     /* parallel: scattered `a[e] += v` / `a[e] -= v` updates are
                                        atomic: of the arrays named in atomics[], or of every
                                        array when natomics is 0 */
    int natomics;
    const char *atomics[NG_JIT_MAX_ATOMICS];
    int nlive_out;                   /* sequential: names first bound in the nest that the */
    const char *live_out[NG_JIT_MAX_LIVE_OUT]; /* host reads afterwards (become cells) */
    bool boundscheck;                /* check every index: an access out of range is skipped
                                        (a read gives 0) and reported in the error array */
    bool unchecked;                  /* boundscheck=False: reads are not checked (stores still
                                        are). Neither (the default): every read and store is,
                                        before the loop where its index is affine in the ranges'
                                        counters (out of range: the loop runs as Python), else
                                        where it runs (the error array, the read giving 0) */
    int search;                      /* a search loop (NgJitLoopInfo.search): 1, the find
                                        kernel: `parallel` over iterations [NG_JIT_FROM,
                                        NG_JIT_TO) of the range (the host runs growing chunks in
                                        order until one finds, or NG_JIT_TRIPS says the range is
                                        done), reducing the loop
                                        variable of every iteration whose test holds (min when
                                        search_step > 0, else max; see ng_jit_search_none)
                                        into the cell NG_JIT_FOUND, the assignments before the
                                        test private; 2, the run kernel: the loop in order from
                                        the scalar NG_JIT_START (a value found by 1, or none:
                                        then from the range's last iteration); 0: neither */
    int64_t search_step;             /* the range's literal step (its sign) */
    int collapse;                    /* parallel: the outer loop and the loops perfectly nested
                                        in it (1 + its chain of `collapsed` loops in the
                                        analysis) run as one flat parallel loop over all their
                                        iterations; fewer where the nest is not rectangular;
                                        0 or 1: the outer loop alone */
    bool peel;                       /* parallel, the outer loop's NgJitLoopInfo.peel: the kernel
                                        runs the part of its iterations the scalar NG_JIT_PHASE
                                        names (the host launches it three times, phases 0, 1, 2) */
    const NgJitLoops *loops;         /* the analysis of the function (may be NULL): loops of the
                                        nest run in order with NgJitLoopInfo.peel are split in
                                        three parts there (in order: the result is the same) */
    int scan;                        /* 1 + the phase of a scan that `loop` is one of the loops of
                                        (ng_jit_scan_phases: the three share the scan loop's
                                        source position, so this keeps their kernels apart); 0 */
    bool inner_parallel;             /* parallel, collapse <= 1 (cpu): the loop perfectly nested
                                        in the outer one is parallel too (`collapsed` in the
                                        analysis); its FOR is flagged NG_IR_PARALLEL inside the
                                        outer one, which lets the C emitter tile the pair */
    bool rows;                       /* in order (cpu): the loops of the nest the analysis marked
                                        `rows` get FORs flagged NG_IR_PARALLEL | NG_IR_ROWS */
} NgJitLoopPlan;

/* How the host passes one kernel parameter. */
typedef enum NgJitArgRole {
    NG_JIT_ARG_ARRAY,  /* a free array: pass it with its rank (ng_kargs_array) */
    NG_JIT_ARG_SCALAR, /* a free scalar: its value (.i for ints/bools, .f for floats) */
    NG_JIT_ARG_CELL,   /* a scalar the host needs after the loop: a 0-d array of `dtype`
                          holding the value before the loop (when has_input; else anything)
                          and, after the launch, the value after it */
    NG_JIT_ARG_BOUND,  /* right after the CELL of a name not bound before the loop, or bound to
                          a value of another type than the loop's: a bool cell (a parallel
                          reduction's: int64, combined by its maximum), 0 after the launch when
                          the loop never assigned the name (then Python's name stays as it was:
                          unbound, or its object; the host leaves it out) */
    NG_JIT_ARG_KEY,    /* int64, the launch's key of the random numbers drawn from the generator
                          `name` holds (np, numpy: NumPy's global one, for np.random's
                          functions; lower.c draw), its first kernel's draw from that
                          generator: random.getrandbits(64) of module random or a
                          random.Random, numpy.random.bytes(8) for NumPy's functions,
                          .bytes(8) of a RandomState or a Generator */
    NG_JIT_ARG_ERROR,  /* under boundscheck (made first), else made by the first index checked where
                          it runs (a late parameter): an int64[4] array of zeros; after the
                          launch, when [0] != 0, [0..3] = (line, index, axis, size) of an index
                          out of range: raise IndexError("index {index} is out of bounds for
                          axis {axis} with size {size}") at that line */
} NgJitArgRole;

typedef struct NgJitArg {
    const char *name;  /* the Python name (interned in the AST); NULL for ERROR */
    NgJitArgRole role;
    NgDType dtype;     /* element dtype (arrays, cells), value dtype (scalars) */
    int ndim;          /* arrays: rank; cells 0; ERROR 1 */
    bool written;      /* arrays: the nest stores into it (write a NumPy argument back) */
    bool has_input;    /* cells: the name is bound before the loop (pass its value in) */
    bool weak;         /* cells: a Python int/float/bool afterwards (else a NumPy scalar) */
    NgOp reduction;    /* cells of a parallel loop: the combining op; NG_NOPS when none; BOUND:
                          NG_OP_EQ where a value equal to the name's before the loop is that
                          object (Sym.keep_equal in lower.c); NG_OP_GE for a ranked reduction's
                          names: bound where the NG_JIT_RANK cell is >= 0 (an iteration won) */
    int bits;          /* scalars and cells: 0, or a Python int (or int64) whose value the launch
                          checks to be within (-2**bits, 2**bits), else the loop runs as Python
                          (the bounds lower.c's int_overflow assumed) */
} NgJitArg;

/* What ng_jit_lower tells the host plan about the kernel it built. */
typedef struct NgJitLowered {
    NgJitArg args[NG_JIT_MAX_ARGS]; /* the kernel's parameters, in order */
    int nargs;
    bool parallel;     /* the outer loop is a parallel FOR (launch extent = its trip count,
                          times the inner trip counts when collapsed) */
    int line;          /* the loop's first line */
    bool range_python; /* its NG_JIT_PYTHON cell checks only the outer range (no iteration, a step
                          of 0), which a scan's own range settles first */
    const char *zero_of; /* parallel: a float max or min reduction (NULL: none): its threads and
                            lanes combine 0.0 and -0.0 in any order, where Python keeps the first
                            of equal values (max(s, e), `if e > s: s = e`), so where it ends at a
                            zero the launch takes the value before the loop when that is a zero
                            (it came first), else runs the loop again in order when it writes no
                            array (pymod/jit.c zero_sign) */
    bool zero_last;      /* zero_of keeps the last of equal values (`if e >= s: s = e`): ending
                            at a zero, it runs again in order whatever the value before was */
} NgJitLowered;

/* Whether the body of `loop` (or a helper it calls) draws random numbers (NG_JIT_CALL_RANDOM):
 * counted per iteration of it (lower.c draw), so it runs as one loop, never as a scan's blocks. */
bool ng_jit_draws(const NgJitAst *ast, const NgJitStmt *loop);

/* The plan the analysis gives loop `info` of `loops` (its kind, reductions,
 * atomics, peel): parallel as the analysis found it, else in order (also
 * when it has more reductions or atomic arrays than a plan holds). The
 * caller adds what depends on the launch: live-out names, boundscheck,
 * collapse, search. */
void ng_jit_plan(const NgJitLoops *loops, const NgJitLoopInfo *info, NgJitLoopPlan *plan);

/* Lowers the loop statement `loop` (a FOR over range/prange or, when
 * sequential, a WHILE of `ast`) into k (already ng_ir_init'ed: its name is
 * kept), given the run-time types of the free variables (vars[0..nvars):
 * names bound before the loop, modules included; `np`, `numpy` and `math`
 * are those modules when not given) and the analysis' plan. Fills *info
 * (may be NULL). On failure k is left empty (ng_ir_init'ed) and the thread's
 * error text says what and where. */
NgStatus ng_jit_lower(const NgJitAst *ast, const NgJitStmt *loop, const NgJitVarType *vars,
                      int nvars, const NgJitLoopPlan *plan, NgIrKernel *k, NgJitLowered *info);

/* Appends to out a kernel-cache key that determines what ng_jit_lower builds
 * from the same inputs: a hash of the source text, the loop's position, the
 * variables' types (in the order given) and the plan. */
NgStatus ng_jit_lower_key(const NgJitAst *ast, const NgJitStmt *loop, const NgJitVarType *vars,
                          int nvars, const NgJitLoopPlan *plan, NgStr *out);

/* Every name the loop nest mentions (read or assigned; attribute names
 * excluded), each once, in source order, interned in the AST. *names is
 * ng_malloc'd (free it with ng_free; NULL when *n is 0). The glue passes the
 * types of those that are bound when the loop is reached. */
NgStatus ng_jit_loop_names(const NgJitAst *ast, const NgJitStmt *loop, const char ***names, int *n);

#endif
