/* The one kernel IR.
 *
 * A kernel is a list of parameters (arrays with dtype and rank, scalars) and
 * a body of structured statements over typed expressions. Array operations
 * (src/ops) and, later, the loop jit (src/jit) both build kernels in this
 * form; the emitter (src/emit) turns one into source for a target.
 *
 * Nodes live in the kernel's own pool and are referenced by index (NgIrRef).
 * Expression nodes are hash-consed: building the same expression twice gives
 * the same ref, so common subexpressions are shared for free. Statements are
 * never merged.
 *
 * Array elements are addressed by a multi-index; the emitter turns it into
 * data[i0*s0 + i1*s1 + ...] with the strides (in elements) that every array
 * parameter carries at run time. Loop bounds and sizes are expressions over
 * scalar parameters and array shapes, so one compiled kernel serves every
 * shape of the same rank.
 */
#ifndef NUMGPU_IR_H
#define NUMGPU_IR_H

#include <numgpu/numgpu.h>
#include <numgpu/ops.h>

typedef int32_t NgIrRef; /* index of a node in its kernel; NG_IR_NONE for none */
#define NG_IR_NONE (-1)

typedef enum NgIrKind {
    /* expressions (hash-consed) */
    NG_IR_CONST,   /* literal `c` of `dtype` (integers in c.i, floats in c.f, complex in c.f + im) */
    NG_IR_SCALAR,  /* scalar parameter number `a` */
    NG_IR_VAR,     /* local variable number `a` (from LET or FOR); of an array variable
                    * (NgIrVar.len > 0), its element kids[0] (an int64 in [0, len)) */
    NG_IR_SHAPE,   /* extent of array parameter `a` along axis `b` (int64) */
    NG_IR_LOAD,    /* array parameter `a` at the multi-index kids[0..nkids) */
    NG_IR_UNARY,   /* `op`(kids[0]) */
    NG_IR_BINARY,  /* kids[0] `op` kids[1] */
    NG_IR_SELECT,  /* kids[0] ? kids[1] : kids[2] */
    NG_IR_CAST,    /* kids[0] converted to `dtype` (NumPy's unsafe cast); `a` = 1: the
                    * imaginary part of a complex kids[0], of its real dtype (ng_ir_imag);
                    * of a real kids[0] to a complex dtype, `a` = NG_IR_AS_RE / NG_IR_AS_IM:
                    * kids[0] as that part, the other -0.0 (ng_ir_complex) */
    /* statements */
    NG_IR_BLOCK,   /* kids in order */
    NG_IR_LET,     /* declare variable `a` = kids[0] (an array variable: every element) */
    NG_IR_ASSIGN,  /* variable `a` = kids[0]; of an array variable, its element kids[1] (an
                    * int64 in [0, len)) = kids[0] */
    NG_IR_STORE,   /* array `a` at kids[1..nkids) = kids[0] */
    NG_IR_ATOMIC,  /* array `a` at kids[1..) op= kids[0], atomically (`op` ADD/MAX/MIN...) */
    NG_IR_IF,      /* if kids[0]: kids[1] else kids[2] (kids[2] may be NONE) */
    NG_IR_FOR,     /* for variable `a` in range(kids[0], kids[1], kids[2]): kids[3] */
    NG_IR_WHILE,   /* while kids[0]: kids[1] */
    NG_IR_BREAK,   /* leave the innermost loop */
    NG_IR_CONTINUE,/* next iteration of the innermost loop */
    /* block-level (SPMD) constructs, appended so the kinds above keep their numbers */
    NG_IR_THREAD,  /* expression: the thread's place `a` (NgIrThread) in the launch, int64 */
    NG_IR_BLOCK_REDUCE, /* statement: variable `a` becomes its combination with `op` over the
                         * threads of the block; every thread of the block must reach it */
    NG_IR_TABLE,   /* expression: element kids[0] (an int64 in [0, n)) of constant table `a`
                    * (NgIrTable) */
} NgIrKind;

/* Block-level kernels. A kernel that uses NG_IR_THREAD or NG_IR_BLOCK_REDUCE
 * is SPMD: it is launched with ng_kernel_launch_blocks, as `blocks` blocks of
 * at most NG_BLOCK_THREADS threads, and every thread runs the whole body (it
 * picks its share of the work from its NG_IR_THREAD values). Such a kernel
 * has no NG_IR_PARALLEL loop. On the C target it is one block of one thread:
 * the ids are 0, the sizes 1 and NG_IR_BLOCK_REDUCE does nothing. */
typedef enum NgIrThread {
    NG_IR_LOCAL_ID,   /* thread's number in its block, 0 .. block size - 1 */
    NG_IR_BLOCK_ID,   /* block's number, 0 .. blocks - 1 */
    NG_IR_BLOCK_SIZE, /* threads per block */
    NG_IR_NUM_BLOCKS, /* blocks in the launch */
} NgIrThread;

#define NG_BLOCK_THREADS 256 /* threads per block of a block-level kernel (at most) */

/* Flags of a FOR node. */
enum {
    NG_IR_PARALLEL = 1, /* iterations are independent: run them in parallel */
    NG_IR_SHORT = 2,    /* (C target) likely few iterations (a row of a small window): no simd
                           reduction clauses, whose set-up and final combine would cost more */
    NG_IR_ROWS = 16,    /* (C target, with NG_IR_PARALLEL) a row of a loop run in order (the
                           jit's NgJitLoopInfo.rows): in threads when its trips make it worth a
                           team (each row forks and joins one), else in order; it does not make
                           the kernel a parallel one (ng_emit_has_parallel) */
    NG_IR_SIMD = 8,     /* (C target) iterations to run in vectors (`omp simd`): independent,
                           each its own elements, calls of vector math among them (a block of
                           a sum's elements made apart: in_lanes) */
};

/* Flags of an IF node. */
enum {
    NG_IR_VERSIONED = 4, /* kids[1] is kids[2] with values put in that equal theirs where
                            kids[0] holds (ng_ir_version) */
};

typedef struct NgIrNode {
    uint8_t kind;    /* NgIrKind */
    uint8_t op;      /* NgOp for UNARY/BINARY/ATOMIC; reduction op for FOR */
    int8_t dtype;    /* NgDType of an expression's value */
    uint8_t flags;   /* FOR: NG_IR_PARALLEL, NG_IR_SHORT, NG_IR_SIMD */
    int32_t a, b;    /* kind-specific operands (see NgIrKind) */
    int32_t nkids;   /* number of children */
    int32_t kids;    /* first child's position in the kernel's kid pool */
    union {
        int64_t i;
        double f;
    } c;             /* CONST value */
    double im;       /* CONST of a complex dtype: the imaginary part */
} NgIrNode;

typedef struct NgIrParam {
    bool is_array;     /* array (data, shape, strides) or scalar */
    NgDType dtype;     /* element or scalar dtype */
    int ndim;          /* arrays: rank */
    bool inner_contig; /* arrays: last axis has stride 1 (lets loops vectorise) */
    bool written;      /* arrays: the kernel stores to it */
} NgIrParam;

/* A local variable: a scalar, or (len > 0) a private array of len elements,
 * each thread's or parallel iteration's own, declared where its LET is and
 * read and written element by element (a small array a jit loop makes,
 * indexed by values from the data: a histogram's bins). */
typedef struct NgIrVar {
    NgDType dtype;     /* type of the variable (an array's: of its elements) */
    int len;           /* 0: a scalar; else an array of this many elements */
} NgIrVar;

/* A reduction attached to a parallel FOR: variable `var` combined with `op`
 * (NG_OP_ADD, MUL, MAXIMUM, MINIMUM, BITAND, BITOR, BITXOR). */
typedef struct NgIrReduction {
    NgIrRef loop;      /* the FOR node */
    int var;           /* variable number */
    NgOp op;           /* combining operator */
} NgIrReduction;

/* A constant table: n values of dtype, the same for every thread (the ziggurat of the
 * normal draws' layers), read by NG_IR_TABLE; the emitter writes it once, before the kernel.
 * The values are the caller's static storage, not copied. */
typedef struct NgIrTable {
    NgDType dtype;     /* NG_FLOAT64 (values: double[n]) or NG_UINT64 (uint64_t[n]) */
    int n;
    const void *values;
} NgIrTable;

enum { NG_IR_MAX_RANKED = 10 }; /* variables of one ranked reduction: key, rank, 8 companions */

/* A ranked reduction attached to a parallel FOR (an argmax): among the
 * iterations that update it, the one with the best key wins, and with it the
 * values the body assigned together with the key. The body updates all of
 * vars[] together (under a condition of its own), setting vars[1], the rank,
 * to the iteration's rank: an int64 >= 0 that grows with the iteration order.
 * Before the loop the variables hold the starting state, with rank -1 (before
 * every iteration) or the rank of the iteration it is a copy of. Each
 * parallel worker starts at the key's identity and no rank; the state after
 * the loop is the best of the start and the workers':
 * the larger key (op MAXIMUM; MINIMUM: the smaller), among equal keys the
 * earlier rank (`last`: the later), a NaN start never replaced. That is the
 * state an in-order run of `if e > key: key = e; ...` (`>=`: last) leaves.
 * On GPU targets, workers combine into cells[] (rank-0 array parameters
 * holding the starting state) under the int32 rank-0 `lock` parameter (0
 * before the launch); the top-level STORE of vars[0] into cells[0] after the
 * loop does it, and the other members' STOREs are left out (the C target
 * needs no cells: they may be -1). */
typedef struct NgIrRanked {
    NgIrRef loop;      /* the FOR node */
    NgOp op;           /* NG_OP_MAXIMUM or NG_OP_MINIMUM */
    bool last;         /* equal keys: the later iteration wins */
    bool nan_wins;     /* a NaN key beats every other, the earliest NaN wins (np.argmax);
                          else a NaN start is never beaten and workers never take a NaN */
    int nvars;         /* 2 .. NG_IR_MAX_RANKED */
    int vars[NG_IR_MAX_RANKED];  /* key, rank (int64), companions */
    int cells[NG_IR_MAX_RANKED]; /* the parameters their results go to */
    int lock;
} NgIrRanked;

typedef struct NgIrKernel {
    char name[48];          /* symbol name in generated source */
    NgIrParam *params;      /* parameters, in argument order */
    int nparams, cap_params;
    NgIrVar *vars;          /* local variables */
    int nvars, cap_vars;
    NgIrNode *nodes;        /* node pool */
    int nnodes, cap_nodes;
    NgIrRef *kidpool;       /* children of all nodes, contiguous per node */
    int nkidpool, cap_kidpool;
    NgIrReduction *reds;    /* reductions on parallel loops */
    int nreds, cap_reds;
    NgIrRanked *ranked;     /* ranked reductions on parallel loops */
    int nranked, cap_ranked;
    NgIrTable *tables;      /* constant tables */
    int ntables, cap_tables;
    int32_t *hash;          /* open-addressing table of expression nodes */
    int cap_hash;
    NgIrRef body;           /* top statement */
    bool lanes;             /* the C emitter may run a parallel loop's iterations in lanes
                             * and pairs of parallel loops in tiles (set by the jit; the
                             * array library's kernels keep the loop order they are built in) */
    NgStatus status;        /* first failure while building (sticky) */
} NgIrKernel;

void ng_ir_init(NgIrKernel *k, const char *name);
void ng_ir_free(NgIrKernel *k);

/* Parameters and variables: return their number. */
int ng_ir_param_array(NgIrKernel *k, NgDType dt, int ndim, bool inner_contig, bool written);
int ng_ir_param_scalar(NgIrKernel *k, NgDType dt);
int ng_ir_var(NgIrKernel *k, NgDType dt);
int ng_ir_var_array(NgIrKernel *k, NgDType dt, int len); /* an array variable (len >= 1) */
/* A constant table of n values (NG_FLOAT64 or NG_UINT64) at static storage `values`; the same
 * values give the same table. */
int ng_ir_table(NgIrKernel *k, NgDType dt, int n, const void *values);

/* Expressions. Builders never fail loudly: on allocation failure they set
 * k->status and return NG_IR_NONE, and every later builder passes NONE on. */
NgIrRef ng_ir_const_i(NgIrKernel *k, NgDType dt, int64_t v);
NgIrRef ng_ir_const_f(NgIrKernel *k, NgDType dt, double v);
NgIrRef ng_ir_const_c(NgIrKernel *k, NgDType dt, double re, double im); /* complex dt */
NgIrRef ng_ir_scalar(NgIrKernel *k, int param);
NgIrRef ng_ir_varref(NgIrKernel *k, int var);
/* Element i (an int64 the caller keeps in [0, len)) of array variable var. */
NgIrRef ng_ir_element(NgIrKernel *k, int var, NgIrRef i);
NgIrRef ng_ir_shape(NgIrKernel *k, int param, int axis);
/* Element i (an int64 the caller keeps in [0, n)) of constant table t. */
NgIrRef ng_ir_table_at(NgIrKernel *k, int t, NgIrRef i);
NgIrRef ng_ir_load(NgIrKernel *k, int param, int nidx, const NgIrRef *idx);
/* Typed by the caller: `dt` is the result dtype; operands must already be
 * of the operation's compute dtype (see ng_ir_cast). */
NgIrRef ng_ir_unary(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x);
NgIrRef ng_ir_binary(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x, NgIrRef y);
NgIrRef ng_ir_select(NgIrKernel *k, NgIrRef c, NgIrRef x, NgIrRef y);
NgIrRef ng_ir_cast(NgIrKernel *k, NgDType dt, NgIrRef x); /* x itself if already dt */
/* The imaginary part of x, of x's real dtype (a cast of a complex x to a real
 * dtype gives the real part); 0 of x's dtype for a real x. */
NgIrRef ng_ir_imag(NgIrKernel *k, NgIrRef x);
/* The complex value (re, im) of dtype dt from two real values, exactly as
 * Python's complex(re, im): (re, -0.0) + (-0.0, im), since adding -0.0
 * leaves every value as it is (-0.0, infinities, NaN). */
enum { NG_IR_AS_RE = 2, NG_IR_AS_IM = 3 };
NgIrRef ng_ir_complex(NgIrKernel *k, NgDType dt, NgIrRef re, NgIrRef im);

/* Statements. */
NgIrRef ng_ir_block(NgIrKernel *k, int n, const NgIrRef *stmts);
NgIrRef ng_ir_let(NgIrKernel *k, int var, NgIrRef value);
NgIrRef ng_ir_assign(NgIrKernel *k, int var, NgIrRef value);
/* Element i (in [0, len)) of array variable var = value. */
NgIrRef ng_ir_assign_element(NgIrKernel *k, int var, NgIrRef i, NgIrRef value);
NgIrRef ng_ir_store(NgIrKernel *k, int param, int nidx, const NgIrRef *idx, NgIrRef value);
NgIrRef ng_ir_atomic(NgIrKernel *k, NgOp op, int param, int nidx, const NgIrRef *idx, NgIrRef value);
NgIrRef ng_ir_if(NgIrKernel *k, NgIrRef cond, NgIrRef then, NgIrRef otherwise);
NgIrRef ng_ir_for(NgIrKernel *k, int var, NgIrRef start, NgIrRef stop, NgIrRef step,
                  NgIrRef body, unsigned flags);
NgIrRef ng_ir_while(NgIrKernel *k, NgIrRef cond, NgIrRef body);
/* if cond: fast, else general: a statement in two versions, `fast` general's
 * copy (ng_ir_substitute) with values that equal theirs where cond holds (a
 * slice's clamped bounds, its length, where the slice lies inside its axis):
 * constants and simpler expressions the target compiler can do more with. */
NgIrRef ng_ir_version(NgIrKernel *k, NgIrRef cond, NgIrRef fast, NgIrRef general);
/* Loops that run body for every point of the box ext[0] x ... x ext[nd-1]
 * (int64 extents), vars[d] (int64 variables) counting [0, ext[d]). Nested,
 * the outermost parallel; or, `flat`, one parallel loop over every point that
 * sets vars[] from the point's digits (the last axis fastest), so that on a
 * GPU neighbouring threads take neighbouring points. A flat box is launched
 * with the box's size as its extent. nd == 0: body itself. */
NgIrRef ng_ir_box(NgIrKernel *k, int nd, const int *vars, const NgIrRef *ext, NgIrRef body, bool flat);
NgIrRef ng_ir_jump(NgIrKernel *k, NgIrKind kind); /* BREAK or CONTINUE */
/* Block-level kernels (see NgIrThread). */
NgIrRef ng_ir_thread(NgIrKernel *k, NgIrThread which);
NgIrRef ng_ir_block_reduce(NgIrKernel *k, int var, NgOp op);
/* A copy of r with each node from[i] (i < n) in it replaced by to[i]: the
 * nodes above a replaced one are made anew (expressions through the hash,
 * so an unchanged one is itself), the others shared. A loop made anew keeps
 * its flags and reductions. NONE when building fails (k->status says). */
NgIrRef ng_ir_substitute(NgIrKernel *k, NgIrRef r, int n, const NgIrRef *from, const NgIrRef *to);
/* Declares a reduction of `var` with `op` over the parallel loop `loop`. */
void ng_ir_reduce(NgIrKernel *k, NgIrRef loop, int var, NgOp op);
/* Declares a ranked reduction over the parallel loop `loop` (see NgIrRanked). */
void ng_ir_reduce_ranked(NgIrKernel *k, const NgIrRanked *r);

static inline const NgIrNode *ng_ir_node(const NgIrKernel *k, NgIrRef r) { return &k->nodes[r]; }
static inline NgIrRef ng_ir_kid(const NgIrKernel *k, NgIrRef r, int i) {
    return k->kidpool[k->nodes[r].kids + i];
}

/* Checks structural invariants (refs in range, types agree, vars declared
 * before use, stores only to written arrays). NG_ERR_INTERNAL names the node. */
NgStatus ng_ir_verify(const NgIrKernel *k);
/* Appends a readable listing of the kernel to buf (for tests and debugging). */
void ng_ir_print(const NgIrKernel *k, char *buf, size_t len);

#endif
