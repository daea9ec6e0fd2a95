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
    /* binary, added for the array API standard (before the comparisons, so
     * binary ops stay NG_OP_ADD..NG_OP_GE and comparisons NG_OP_EQ..NG_OP_GE) */
    NG_OP_COPYSIGN, NG_OP_NEXTAFTER, NG_OP_LOGADDEXP, NG_OP_LOGADDEXP2, NG_OP_FMOD, NG_OP_HEAVISIDE,
    NG_OP_GCD, NG_OP_LCM, /* of integers: the helpers ng_gcd_<sfx>, ng_lcm_<sfx> (binary gcd) */
    NG_OP_LDEXP,  /* float x * 2**n, n an int64 operand (every other binary op's operands share a dtype):
                   * the helper ng_ldexp_<sfx>, C's ldexp */
    NG_OP_EQ, NG_OP_NE, NG_OP_LT, NG_OP_LE, NG_OP_GT, NG_OP_GE,
    /* unary */
    NG_OP_NEG, NG_OP_POS, NG_OP_ABS, NG_OP_INVERT, NG_OP_LOGNOT, NG_OP_SIGN,
    NG_OP_EXP, NG_OP_EXPM1, NG_OP_LOG, NG_OP_LOG1P, NG_OP_LOG2, NG_OP_LOG10,
    NG_OP_SQRT, NG_OP_SQUARE, NG_OP_SIN, NG_OP_COS, NG_OP_TAN,
    NG_OP_ARCSIN, NG_OP_ARCCOS, NG_OP_ARCTAN, NG_OP_SINH, NG_OP_COSH, NG_OP_TANH,
    NG_OP_FLOOR, NG_OP_CEIL, NG_OP_TRUNC, NG_OP_RINT,
    NG_OP_ISNAN, NG_OP_ISINF, NG_OP_ISFINITE,
    /* unary, added for the array API standard; emitted as calls of the
     * target's helper ng_<ufunc name>_<dtype suffix> */
    NG_OP_ARCSINH, NG_OP_ARCCOSH, NG_OP_ARCTANH, NG_OP_SIGNBIT, NG_OP_CBRT, NG_OP_EXP2,
    NG_OP_RECIPROCAL, NG_OP_DEG2RAD, NG_OP_RAD2DEG, NG_OP_FABS,
    NG_OP_ERF, NG_OP_ERFC, NG_OP_GAMMA, NG_OP_LGAMMA, /* math.erf, erfc, gamma, lgamma: compiled loops only
                                                      * (NumPy has no such ufuncs) */
    NG_OP_CONJUGATE, /* complex conjugate; the identity on real dtypes */
    NG_OP_COPY,   /* identity: used for casts and assignment */
    NG_OP_BITWISE_COUNT, /* the 1 bits of |x| (integers), as uint8: the helper ng_bitwise_count_<sfx> */
    NG_OP_FREXP,  /* frexp's mantissa, in [0.5, 1) or x itself (0, inf, NaN): ng_frexp_<sfx> */
    NG_OP_FREXP_EXPONENT, /* frexp's exponent, as int32 (0 for 0, inf, NaN): ng_frexp_exponent_<sfx>;
                           * NumPy's frexp ufunc is the two ops */
    NG_OP_I0,     /* the modified Bessel function I0 (numpy.i0, not a ufunc): Cephes' Chebyshev series
                   * as NumPy's, the helper ng_i0_<sfx>; float loops only */
    NG_NOPS
} NgOp;

const char *ng_op_name(NgOp op);       /* NumPy's ufunc name: "add" */
bool ng_op_is_binary(NgOp op);

/* A Python scalar (weak, NEP 50) or an array operand. */
typedef struct NgScalar {
    NgKind kind;          /* BOOL, INT, FLOAT or COMPLEX */
    bool big;             /* INT: a uint64 above INT64_MAX; FLOAT: a Python int beyond
                           * 64 bits, held as a double (comparisons only) */
    union {
        int64_t i;        /* BOOL and INT */
        uint64_t u;       /* INT with big */
        double f;         /* FLOAT; COMPLEX: the real part */
    } v;
    double im;            /* COMPLEX: the imaginary part (0 for every other kind) */
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
/* where(cond, x, y), written into dest when given (as ng_op_binary's dest). */
NgStatus ng_op_where(const NgOperand *cond, const NgOperand *x, const NgOperand *y, const NgArray *dest,
                     NgArray *out);
/* NumPy's clip: minimum(maximum(a, lo), hi) in one pass, lo or hi NULL for no bound, computed in
 * the dtype maximum resolves for all the operands (NaN in any of them propagates; lo > hi gives
 * hi); written into dest when given (as ng_op_binary's dest). */
NgStatus ng_op_clip(const NgOperand *a, const NgOperand *lo, const NgOperand *hi, const NgArray *dest,
                    NgArray *out);
/* NumPy's round(a, decimals) of a real float array, a new array of a's
 * dtype: rint(a * 10^decimals) / 10^decimals (decimals < 0: rint(a /
 * 10^-decimals) * 10^-decimals), the power of ten as NumPy computes it and
 * cast to a's dtype, every step rounded to that dtype: one pass (three
 * ops where the power is infinite in the dtype, as NumPy's calls). */
NgStatus ng_op_round(const NgArray *a, int decimals, NgArray *out);
/* NumPy's nan_to_num of a real float array, in one pass: NaN -> nan, +inf -> posinf, -inf ->
 * neginf (each rounded to a's dtype), into dest (may be a itself: in place) or a new array. */
NgStatus ng_op_nan_to_num(const NgArray *a, double nan, double posinf, double neginf, const NgArray *dest,
                          NgArray *out);
/* Copy of `a` converted to dtype (always a new buffer). */
NgStatus ng_op_astype(const NgArray *a, NgDType dt, NgArray *out);
/* dst[...] = src, broadcasting src to dst's shape and casting (unsafe, as
 * NumPy's setitem). Handles src overlapping dst. */
NgStatus ng_op_assign(const NgArray *dst, const NgOperand *src);
/* Result dtype of op on these operands, or an error naming the dtypes. */
NgStatus ng_op_result_dtype(NgOp op, const NgOperand *a, const NgOperand *b, NgDType *out);

/* ---- creation -------------------------------------------------------- */

/* A Python int scalar (NG_KIND_INT) checked against dtype dt: NG_ERR_OVERFLOW with NumPy 2's
 * message where dt cannot hold it (NEP 50: np.int8 array + 300, np.full(2, 300, np.int8)). */
NgStatus ng_scalar_check(const NgScalar *s, NgDType dt);
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
/* Joins arrays along an existing axis, one copy per input, each cast (unsafe, as assignment)
 * straight into its place: into dest when given (of the joined shape; *out a new reference to
 * it), else a new array of `dtype` (NG_NODTYPE: the inputs' promoted dtype). */
NgStatus ng_op_concatenate(int n, const NgArray *const *arrays, int axis, NgDType dtype, const NgArray *dest,
                           NgArray *out);

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
/* ufunc.at: a[index] = op(a[index], value) for each element the index selects,
 * computed in dtype `compute` (NumPy's loop) and cast back to a's dtype
 * (unsafe, as NumPy's ufunc.at); an element selected twice is updated twice,
 * in the selection's order where the op's order matters (NumPy's unbuffered
 * update). value: broadcast to the selection; NULL for a unary op. */
NgStatus ng_index_update(const NgArray *a, int n, const NgIndex *index, NgOp op, NgDType compute,
                         const NgOperand *value);

/* ---- linear algebra -------------------------------------------------- */

/* NumPy matmul: 1-d and 2-d operands, batched over leading axes. */
NgStatus ng_op_matmul(const NgArray *a, const NgArray *b, NgArray *out);

/* ---- sorting, searching and scans (src/ops/sort.c, src/ops/scan.c) --- */

/* Sorted copy of `a` along `axis` (stable, NaNs last, as NumPy's), or with
 * argsort the int64 indices that sort it. */
NgStatus ng_op_sort(const NgArray *a, int axis, bool argsort, NgArray *out);
/* NumPy's ufunc.accumulate of binary `op` along `axis`: out[0] = a[0],
 * out[i] = op(out[i-1], a[i]), in order, computed in the accumulator (=
 * result) dtype `dtype`. NG_NODTYPE: cumsum's/cumprod's default for
 * NG_OP_ADD/NG_OP_MUL, a's dtype for every other op. NG_ERR_VALUE for a
 * unary op or an integer power of a negative exponent; NG_ERR_TYPE where
 * op has no loop returning that dtype (a comparison of non-bools). */
NgStatus ng_op_cumulative(NgOp op, const NgArray *a, int axis, NgDType dtype, NgArray *out);
/* ufunc.reduce of binary op along `axis` as a left fold in NumPy's order:
 * out[...] = op(...op(op(x[0], x[1]), x[2])..., x[n-1]), computed in `dtype`
 * as ng_op_cumulative's last element, without the scan's output; a's shape
 * without the axis. An empty axis: NumPy's "no identity" ValueError. */
NgStatus ng_op_fold(NgOp op, const NgArray *a, int axis, NgDType dtype, NgArray *out);
/* Insertion points of v's elements in the sorted 1-d `a` (through `sorter`,
 * may be NULL), int64 of v's shape; right: after equal elements. */
NgStatus ng_op_searchsorted(const NgArray *a, const NgArray *v, bool right, const NgArray *sorter, NgArray *out);
/* isin's kinds: NumPy's choice, or the one asked for. */
enum { NG_ISIN_AUTO, NG_ISIN_SORT, NG_ISIN_TABLE };
/* NumPy's isin: a bool array of element's shape, true where the element
 * equals one of test's (any shape) values, negated with invert. Integer and
 * bool inputs (kind AUTO or TABLE) look values up in a byte table over
 * test's range [min, max] (exact, each dtype's own values), where that
 * range fits test's dtype and, for AUTO, NumPy's memory bound (6x the
 * inputs) or 2^16; otherwise test is cast to the common dtype and sorted,
 * and each element binary-searched in it (NaN is never found; uint64
 * against signed integers compares exactly, as NumPy's == does, not in
 * float64 as NumPy's own sort path for long tests). TABLE with
 * a non-integer input: NG_ERR_VALUE; TABLE with a range beyond test's
 * dtype: NumPy's RuntimeError (NG_ERR_INTERNAL). */
NgStatus ng_op_isin(const NgArray *element, const NgArray *test, bool invert, int kind, NgArray *out);
/* NumPy's interp of float64 x (any shape) in the 1-d float64 samples xp
 * (non-decreasing, not empty), fp (as long), one kernel: per element a
 * branch-free search for the last sample <= x, then NumPy's C loop's
 * formula (fp[j] where x equals xp[j], slope * (x - xp[j]) + fp[j]
 * between, retried from the right end where NaN; left / right outside,
 * fp's ends where NULL; NaN stays). A float64 array of x's shape. */
NgStatus ng_op_interp(const NgArray *x, const NgArray *xp, const NgArray *fp, const double *left, const double *right,
                      NgArray *out);
/* Sorted unique values of the flattened `a` (NaNs collapse to one); index,
 * inverse (a's shape) and counts are filled when non-NULL (int64). */
NgStatus ng_op_unique(const NgArray *a, NgArray *values, NgArray *index, NgArray *inverse, NgArray *counts);
/* NumPy's bincount: counts (int64) or weight sums (float64) of the
 * non-negative integers of the 1-d x, at least minlength bins. */
NgStatus ng_op_bincount(const NgArray *x, const NgArray *weights, int64_t minlength, NgArray *out);
/* Histogram of `a` over the bins given by the 1-d `edges` (uniform: equal
 * bins from first to last, width computed as NumPy does with denom =
 * last - first): int64 counts, or float64 sums of `weights` (a's size, may
 * be NULL). Values outside [first, last] and NaNs are not counted. */
NgStatus ng_op_histogram(const NgArray *a, const NgArray *edges, bool uniform, double first, double last,
                         double denom, const NgArray *weights, NgArray *out);
/* Quantiles (linear method) of `a` along `axis` at the 1-d float64 `q`
 * (in [0, 1]), computed in the float dtype dt: shape (len(q), a's shape
 * without axis). `arranged`: a's rows along axis already hold their sorted
 * values at the places read (each q's two neighbours and the last: a
 * partition there), so they are not sorted again. */
NgStatus ng_op_quantile(const NgArray *a, int axis, const NgArray *q, NgDType dt, bool arranged, NgArray *out);

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
/* NumPy's frexp of a float array in one kernel (src/ops/frexp.c): the mantissa (a's dtype) and
 * the int32 exponent, new arrays of a's shape (the ops NG_OP_FREXP and NG_OP_FREXP_EXPONENT). */
NgStatus ng_op_frexp(const NgArray *a, NgArray *mantissa, NgArray *exponent);
/* Bits along the last axis (src/ops/bits.c): packbits of an integer or bool array (nonzero
 * elements as 1 bits, eight to a uint8, the last byte padded with 0 bits; little: the first
 * element in the least significant bit) and unpackbits of a uint8 array (each byte as eight 0/1
 * uint8 elements, in the same orders). */
NgStatus ng_op_packbits(const NgArray *a, bool little, NgArray *out);
NgStatus ng_op_unpackbits(const NgArray *a, bool little, NgArray *out);
/* take along axis (an integer index array of any shape). */
NgStatus ng_op_take(const NgArray *a, const NgArray *idx, int axis, NgTakeMode mode, NgArray *out);

/* out[i] = sum over k of a[i + start + k] * v[k] for i < len (1-d a and v,
 * in dtype dt, not bool; every window inside a, else NG_ERR_VALUE):
 * correlate/convolve's direct sum (src/ops/correlate.c). */
NgStatus ng_op_correlate(const NgArray *a, const NgArray *v, int64_t start, int64_t len, NgDType dt, NgArray *out);

/* ---- linear algebra by generated kernels (src/ops/lapack.c) ----------- */

/* Stacks of square matrices (..., n, n) on any device, computed in NumPy's
 * linalg dtype (float32, float64, complex64, complex128; bool and integers
 * in float64; float16 is NG_ERR_TYPE). *info = 1: a matrix is singular (solve,
 * inv) or not positive definite (cholesky); then there is no output. solve:
 * b is (..., n, k), or (n,) for one vector; stacks broadcast. */
NgStatus ng_lapack_solve(const NgArray *a, const NgArray *b, NgArray *out, int *info);
NgStatus ng_lapack_inv(const NgArray *a, NgArray *out, int *info);
NgStatus ng_lapack_cholesky(const NgArray *a, NgArray *out, int *info); /* lower factor */
/* sign and log|det| of each matrix, and (det non-NULL) det = sign exp(log|det|) as NumPy computes it;
 * outputs have the stack's batch shape. */
NgStatus ng_lapack_slogdet(const NgArray *a, NgArray *sign, NgArray *logabs, NgArray *det);
/* QR by Householder reflectors (LAPACK's conventions, so NumPy's signs): R of shape (..., k, n)
 * (complete: (..., m, n)) and, when q is non-NULL, Q of shape (..., m, k) (complete: (..., m, m)),
 * k = min(m, n). */
NgStatus ng_lapack_qr(const NgArray *a, bool complete, NgArray *q, NgArray *r);

/* The eigen- and singular value solvers and least squares, NumPy's LAPACK calls through the
 * device's vendor library (NgBackend.decomp; NG_ERR_UNSUPPORTED on a device without one): each
 * matrix of a stack computed in float64 or complex128 as NumPy computes it, results in float32 or
 * complex64 for those inputs (integers and bool: double; float16: NG_ERR_TYPE). *info = 1: LAPACK
 * did not converge, and there is no output. eigh and svd run as generated Jacobi kernels
 * (src/ops/jacobi.c) where the vendor has no solver or is not the better choice (a stack of small
 * matrices on a GPU); NG_ERR_UNSUPPORTED only where neither takes the matrices.
 * eigh: ascending eigenvalues w (..., n) (real) and, when v, the eigenvectors (columns of v),
 * from the lower triangle (upper: the upper one). */
NgStatus ng_lapack_eigh(const NgArray *a, bool upper, NgArray *w, NgArray *v, int *info);
/* mode 0: s (..., k) alone (u, vh unused); 1: U (..., m, k), s, Vh (..., k, n); 2: U (..., m, m),
 * Vh (..., n, n) (identities for empty matrices, as NumPy); k = min(m, n). */
NgStatus ng_lapack_svd(const NgArray *a, int mode, NgArray *u, NgArray *s, NgArray *vh, int *info);
/* eigenvalues w (..., n) and, when v, right eigenvectors (..., n, n), complex whatever a (NumPy
 * makes them real when every eigenvalue is real). */
NgStatus ng_lapack_eig(const NgArray *a, NgArray *w, NgArray *v, int *info);
/* Least squares of one m x n matrix a and m x nrhs b (gelsd, singular values below rcond times
 * the largest cut): x (n, nrhs), resid (nrhs: |b - a x|^2 per column when m > n and the rank is
 * n, else 0), the rank, singular values s (min(m, n)). */
NgStatus ng_lapack_lstsq(const NgArray *a, const NgArray *b, double rcond, NgArray *x, NgArray *resid, int64_t *rank,
                         NgArray *s, int *info);

/* ---- random numbers (src/ops/random.c) ------------------------------- */

/* A Philox4x32-10 stream: block c is philox(c, key), four 32-bit words.
 * Every call reads the blocks from `counter` on and advances it past them. */
typedef struct NgPhilox {
    uint64_t counter[2]; /* 128-bit block counter: low, high 64 bits */
    uint32_t key[2];     /* 64-bit key: low, high 32 bits */
} NgPhilox;

/* Philox4x32-10 of one block on the host (Random123's philox4x32_R(10, ...)),
 * for tests and for deriving per-call constants. */
void ng_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

typedef enum NgRandomDist {
    NG_RAND_RAW,         /* the stream's 32-bit words (uint32 output) */
    NG_RAND_UNIFORM,     /* [0, 1): 24 bits (float32) or 53 bits (float64) */
    NG_RAND_NORMAL,      /* standard normal (Box-Muller) */
    NG_RAND_EXPONENTIAL, /* standard exponential, -log(1 - u) */
} NgRandomDist;

/* out = shift + scale * X, X drawn from dist; out C-contiguous float32 or
 * float64 (uint32 for RAW, where shift and scale are ignored). Element i
 * comes from block i/4 (float32, uint32) or i/2 (float64). */
NgStatus ng_random_fill(NgPhilox *g, NgRandomDist dist, double shift, double scale, const NgArray *out);
/* out = low + K, K uniform on [0, range) exactly (range 0 means 2^64),
 * computed modulo 2^64 and cast to out's integer (or bool) dtype. */
NgStatus ng_random_integers(NgPhilox *g, uint64_t low, uint64_t range, const NgArray *out);
/* out (int64) = indices drawn with probabilities given by the CDF `cdf`
 * (float64, 1-d, non-decreasing, last entry 1): numpy's searchsorted(cdf,
 * u, 'right') of a uniform u. */
NgStatus ng_random_choice_cdf(NgPhilox *g, const NgArray *cdf, const NgArray *out);
/* out (int64, size m <= n) = the first m entries of a random permutation of
 * [0, n); each entry is computed independently (no sort). */
NgStatus ng_random_permutation(NgPhilox *g, int64_t n, const NgArray *out);

/* ---- discrete Fourier transforms (src/ops/fft.c) --------------------- */

typedef enum NgFftKind {
    NG_FFT_C2C, /* n complex points from n (real or complex): fft, ifft */
    NG_FFT_R2C, /* n//2 + 1 complex points from n real ones: rfft (ihfft with conj) */
    NG_FFT_C2R, /* n real points from n//2 + 1 Hermitian ones: irfft (hfft with conj) */
} NgFftKind;

/* The n-point DFT of `a` along `axis`, times `scale` (the norm factor): the
 * input cropped or zero-padded to n points (C2R: to n//2 + 1, extended
 * Hermitian, imaginary parts of points 0 and n/2 ignored, as pocketfft).
 * Direction exp(-2 pi i jk/n), or exp(+...) with `inverse` (C2C; R2C is
 * forward, C2R inverse); `conj` conjugates the complex side (R2C's output,
 * C2R's input). NumPy's dtypes: complex64 from float16, float32 and
 * complex64, complex128 from the rest; C2R gives their real dtype (float16
 * from float16). n < 1: NG_ERR_VALUE; R2C of complex input: NG_ERR_TYPE. */
NgStatus ng_op_fft(const NgArray *a, int axis, int64_t n, NgFftKind kind, bool inverse, bool conj, double scale,
                   NgArray *out);

#ifdef __cplusplus
}
#endif
#endif
