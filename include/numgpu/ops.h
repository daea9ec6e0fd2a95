/* numgpu array operations (public C API).
 *
 * Every operation takes arrays (views) and fills an output NgArray that the
 * caller then owns (release it with ng_array_release). Each one describes its
 * work as kernel IR and runs it through the kernel layer on the device of its
 * operands; none touches element data on the host.
 */
#ifndef NUMGPU_OPS_H
#define NUMGPU_OPS_H

#include "numgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elementwise operators. Also the operator codes of the kernel IR. */
typedef enum NgOp {
    /* binary */
    NG_OP_ADD, NG_OP_SUB, NG_OP_MUL, NG_OP_TRUEDIV, NG_OP_FLOORDIV, NG_OP_MOD,
    NG_OP_POW, NG_OP_MAXIMUM, NG_OP_MINIMUM, NG_OP_FMAX, NG_OP_FMIN,
    NG_OP_ARCTAN2, NG_OP_HYPOT,
    NG_OP_BITAND, NG_OP_BITOR, NG_OP_BITXOR, NG_OP_LSHIFT, NG_OP_RSHIFT,
    NG_OP_LOGAND, NG_OP_LOGOR, NG_OP_LOGXOR,
    NG_OP_EQ, NG_OP_NE, NG_OP_LT, NG_OP_LE, NG_OP_GT, NG_OP_GE,
    /* unary */
    NG_OP_NEG, NG_OP_POS, NG_OP_ABS, NG_OP_INVERT, NG_OP_LOGNOT, NG_OP_SIGN,
    NG_OP_EXP, NG_OP_EXPM1, NG_OP_LOG, NG_OP_LOG1P, NG_OP_LOG2, NG_OP_LOG10,
    NG_OP_SQRT, NG_OP_SQUARE, NG_OP_SIN, NG_OP_COS, NG_OP_TAN,
    NG_OP_ARCSIN, NG_OP_ARCCOS, NG_OP_ARCTAN, NG_OP_SINH, NG_OP_COSH, NG_OP_TANH,
    NG_OP_FLOOR, NG_OP_CEIL, NG_OP_TRUNC, NG_OP_RINT,
    NG_OP_ISNAN, NG_OP_ISINF, NG_OP_ISFINITE,
    NG_OP_COPY,   /* identity: used for casts and assignment */
    NG_NOPS
} NgOp;

const char *ng_op_name(NgOp op);       /* NumPy's ufunc name: "add" */
bool ng_op_is_binary(NgOp op);

/* A Python scalar (weak, NEP 50) or an array operand. */
typedef struct NgScalar {
    NgKind kind;          /* BOOL, INT or FLOAT (complex not yet) */
    bool big;             /* INT: a uint64 above INT64_MAX; FLOAT: a Python int beyond
                           * 64 bits, held as a double (comparisons only) */
    union {
        int64_t i;        /* BOOL and INT */
        uint64_t u;       /* INT with big */
        double f;         /* FLOAT */
    } v;
} NgScalar;

typedef struct NgOperand {
    const NgArray *array; /* NULL: the operand is `scalar` */
    NgScalar scalar;
} NgOperand;

/* ---- elementwise ----------------------------------------------------- */

/* out = op(a, b) with broadcasting. `dest` (may be NULL) is an existing
 * array to write into (ufunc out=, in-place operators); then *out is a new
 * reference to it. */
NgStatus ng_op_binary(NgOp op, const NgOperand *a, const NgOperand *b,
                      const NgArray *dest, NgArray *out);
NgStatus ng_op_unary(NgOp op, const NgOperand *a, const NgArray *dest, NgArray *out);
/* where(cond, x, y). */
NgStatus ng_op_where(const NgOperand *cond, const NgOperand *x, const NgOperand *y, NgArray *out);
/* Copy of `a` converted to dtype (always a new buffer). */
NgStatus ng_op_astype(const NgArray *a, NgDType dt, NgArray *out);
/* dst[...] = src, broadcasting src to dst's shape and casting (unsafe, as
 * NumPy's setitem). Handles src overlapping dst. */
NgStatus ng_op_assign(const NgArray *dst, const NgOperand *src);
/* Result dtype of op on these operands, or an error naming the dtypes. */
NgStatus ng_op_result_dtype(NgOp op, const NgOperand *a, const NgOperand *b, NgDType *out);

/* ---- creation -------------------------------------------------------- */

NgStatus ng_op_full(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape,
                    const NgScalar *value, NgArray *out);
/* start + i*step for i in [0, n), computed in dtype (float: in float64). */
NgStatus ng_op_arange(NgDevice *dev, double start, double step, int64_t n, NgDType dt, NgArray *out);
NgStatus ng_op_linspace(NgDevice *dev, double start, double stop, int64_t n, bool endpoint,
                        NgDType dt, NgArray *out);
/* n x m, ones on diagonal k. */
NgStatus ng_op_eye(NgDevice *dev, int64_t n, int64_t m, int64_t k, NgDType dt, NgArray *out);
/* Copy of `a` onto device `dev` (same contents, C order). */
NgStatus ng_op_to_device(const NgArray *a, NgDevice *dev, NgArray *out);

/* ---- reductions ------------------------------------------------------ */

typedef enum NgReduceOp {
    NG_RED_SUM, NG_RED_PROD, NG_RED_MEAN, NG_RED_VAR, NG_RED_STD,
    NG_RED_MIN, NG_RED_MAX, NG_RED_ARGMIN, NG_RED_ARGMAX,
    NG_RED_ANY, NG_RED_ALL, NG_RED_COUNT_NONZERO,
} NgReduceOp;

/* Reduces `a` over `axes` (naxes < 0: all axes). dtype: accumulator/result
 * dtype or NG_NODTYPE for NumPy's default; ddof for var/std. argmin/argmax
 * take at most one axis. */
NgStatus ng_op_reduce(NgReduceOp op, const NgArray *a, int naxes, const int *axes,
                      bool keepdims, NgDType dtype, int ddof, NgArray *out);

/* ---- shape ----------------------------------------------------------- */

/* View when the layout allows, else a copy. One entry of shape may be -1. */
NgStatus ng_op_reshape(const NgArray *a, int ndim, const int64_t *shape, NgArray *out);
/* View with axes permuted (perm NULL: reversed). */
NgStatus ng_op_transpose(const NgArray *a, const int *perm, NgArray *out);
NgStatus ng_op_broadcast_to(const NgArray *a, int ndim, const int64_t *shape, NgArray *out);
/* C-contiguous copy (or a new reference when already contiguous and !force). */
NgStatus ng_op_ascontiguous(const NgArray *a, bool force, NgArray *out);
/* Joins arrays along an existing axis. */
NgStatus ng_op_concatenate(int n, const NgArray *const *arrays, int axis, NgArray *out);

/* ---- indexing -------------------------------------------------------- */

typedef enum NgIndexKind {
    NG_IDX_INT,      /* a single integer: drops the axis */
    NG_IDX_SLICE,    /* start:stop:step, already resolved by the caller's rules */
    NG_IDX_NEWAXIS,  /* None */
    NG_IDX_ELLIPSIS, /* ... */
    NG_IDX_ARRAY,    /* integer array (advanced) */
    NG_IDX_MASK,     /* boolean array (advanced) */
} NgIndexKind;

typedef struct NgIndex {
    NgIndexKind kind;
    int64_t i;                       /* INT */
    int64_t start, stop, step;       /* SLICE: raw values */
    bool has_start, has_stop, has_step; /* SLICE: which were given */
    const NgArray *array;            /* ARRAY / MASK */
} NgIndex;

/* a[index]: a view for basic indexing, a copy for advanced indexing. */
NgStatus ng_index_get(const NgArray *a, int n, const NgIndex *index, NgArray *out);
/* a[index] = value (broadcast to the selection, cast to a's dtype). */
NgStatus ng_index_set(const NgArray *a, int n, const NgIndex *index, const NgOperand *value);

/* ---- linear algebra -------------------------------------------------- */

/* NumPy matmul: 1-d and 2-d operands, batched over leading axes. */
NgStatus ng_op_matmul(const NgArray *a, const NgArray *b, NgArray *out);

/* ---- sorting, searching and scans (src/ops/sort.c, src/ops/scan.c) --- */

/* (section of the sorting ops) */

/* ---- gathering and rearranging (src/ops/manip.c) --------------------- */

/* How the index-map gather finds the input index of output index o along
 * one axis (input extent n, per-axis operand b). */
typedef enum NgMapKind {
    NG_MAP_ID,        /* o */
    NG_MAP_WRAP,      /* (o - b) mod n: roll, tile, pad "wrap" */
    NG_MAP_EDGE,      /* o - b clamped to [0, n): pad "edge" */
    NG_MAP_REFLECT,   /* o - b mirrored at the edges, edge not repeated: pad "reflect" */
    NG_MAP_SYMMETRIC, /* o - b mirrored, edge repeated: pad "symmetric" */
    NG_MAP_DIV,       /* o / b: repeat by a constant */
} NgMapKind;

typedef enum NgPadMode {
    NG_PAD_CONSTANT, NG_PAD_EDGE, NG_PAD_REFLECT, NG_PAD_SYMMETRIC, NG_PAD_WRAP,
} NgPadMode;

typedef enum NgTakeMode {
    NG_TAKE_RAISE, NG_TAKE_WRAP, NG_TAKE_CLIP,
} NgTakeMode;

/* out (new, shape) [o...] = a[map_d(o_d)...]; a and out have rank ndim. */
NgStatus ng_op_gather_map(const NgArray *a, int ndim, const int64_t *shape, const NgMapKind *maps,
                          const int64_t *b, NgArray *out);
/* Views: a reversed along axes (naxes < 0: all); the diagonal of axes
 * axis1/axis2 (offset as NumPy's), appended as the last axis. */
NgStatus ng_op_flip(const NgArray *a, int naxes, const int *axes, NgArray *out);
NgStatus ng_op_diagonal(const NgArray *a, int64_t offset, int axis1, int axis2, NgArray *out);
/* Copies: roll by shifts[i] along axes[i] (repeats add up); tile; repeat
 * along axis by `count` or by the 1-d array `counts` (one per element;
 * NULL: count); tril (upper false) / triu of the last two axes. */
NgStatus ng_op_roll(const NgArray *a, int naxes, const int *axes, const int64_t *shifts, NgArray *out);
NgStatus ng_op_tile(const NgArray *a, int nreps, const int64_t *reps, NgArray *out);
NgStatus ng_op_repeat(const NgArray *a, const NgArray *counts, int64_t count, int axis, NgArray *out);
NgStatus ng_op_tri(const NgArray *a, int64_t k, bool upper, NgArray *out);
/* pad: width[2*d], width[2*d+1] before/after axis d; values (constant
 * mode) likewise, one scalar per side. */
NgStatus ng_op_pad(const NgArray *a, const int64_t *width, NgPadMode mode, const NgScalar *values, NgArray *out);
/* Coordinates of the nonzero elements, C order: an (ndim, count) int64 array. */
NgStatus ng_op_nonzero(const NgArray *a, NgArray *out);
/* take along axis (an integer index array of any shape). */
NgStatus ng_op_take(const NgArray *a, const NgArray *idx, int axis, NgTakeMode mode, NgArray *out);

/* Vendor LAPACK on the device (src/ops/linalg.c): one square float32/64
 * matrix. NG_ERR_UNSUPPORTED where the device has none (then NumPy
 * computes); *info > 0: singular / not positive definite (no output). */
NgStatus ng_linalg_solve(const NgArray *a, const NgArray *b, NgArray *out, int *info);
NgStatus ng_linalg_inv(const NgArray *a, NgArray *out, int *info);
NgStatus ng_linalg_cholesky(const NgArray *a, NgArray *out, int *info);

/* ---- random numbers (src/ops/random.c) ------------------------------- */

/* (section of the random generator) */

#ifdef __cplusplus
}
#endif
#endif
