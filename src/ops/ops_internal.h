/* Shared machinery of the array operations: the elementwise engine (every
 * op that writes one output element from the same position of its inputs)
 * and small helpers. Each op file describes its work as kernel IR through
 * these and never touches element data itself. */
#ifndef NUMGPU_OPS_INTERNAL_H
#define NUMGPU_OPS_INTERNAL_H

#include <numgpu/ops.h>

#include "core/core.h"
#include "ir/ir.h"
#include "kernel/kernel.h"

#define EW_MAXIN 4 /* most inputs of one elementwise kernel */
#define EW_HOST_COPY (1u << 20) /* bytes below which ng_ew_host_copy copies without a kernel */
#define EW_TILE 32 /* side of a tile of a tiled elementwise kernel (EwKey.tiled) */

/* What an elementwise kernel computes at each position. */
typedef enum EwKind {
    EW_UNARY,   /* out = op(in0) */
    EW_BINARY,  /* out = op(in0, in1) */
    EW_WHERE,   /* out = in0 ? in1 : in2 */
    EW_CLIP,    /* out = minimum(maximum(in0, lo), hi): the key's op holds which bounds follow in0
                 * (EW_CLIP_LO, EW_CLIP_HI; lo first when both) */
    EW_COPY,    /* out = in0 (cast to out's dtype) */
    EW_NAN_TO_NUM, /* out = in1 where in0 is NaN, in2 where +inf, in3 where -inf, else in0 (real
                    * floats) */
    EW_RANGE,   /* out = in0 + i * in1 (flat index i; scalars; linspace's end fixed by in2) */
    EW_EYE,     /* out[i, j] = (j - i == in0) */
    EW_ROUND,   /* NumPy's round: op NG_OP_MUL: rint(in0 * in1) / in1, NG_OP_TRUEDIV: rint(in0 / in1) * in1
                 * (in1 the power of ten; every step rounded to the compute dtype, a float) */
} EwKind;

enum { EW_CLIP_LO = 1, EW_CLIP_HI = 2 };

/* One input: an array (broadcast to the output) or a kernel scalar. */
typedef struct EwInput {
    const NgArray *array;   /* NULL for a scalar */
    NgScalar scalar;        /* the scalar's value */
    NgDType dtype;          /* array dtype, or the scalar's kernel dtype */
} EwInput;

/* The descriptor of an elementwise kernel; its bytes are the cache key. */
typedef struct EwKey {
    uint8_t tag;             /* 'E' */
    uint8_t kind;            /* EwKind */
    uint8_t op;              /* NgOp for UNARY/BINARY */
    int8_t compute;          /* dtype the op computes in */
    int8_t out;              /* output dtype */
    uint8_t nin;             /* number of inputs */
    uint8_t ndim;            /* rank after collapsing */
    uint8_t out_contig;      /* output's last axis has stride 1 */
    uint8_t flat;            /* one parallel loop over every element (GPU targets; ng_ir_box) */
    uint8_t tiled;           /* (C target, 2-d) the loops in EW_TILE x EW_TILE tiles: an operand is
                              * read or written across its rows (a transposed copy) */
    uint8_t fpe;             /* NG_FPE_* categories the kernel judges (0: no check, no flag word) */
    int8_t in_dtype[EW_MAXIN];
    uint8_t in_scalar[EW_MAXIN];
    uint8_t in_contig[EW_MAXIN];
} EwKey;

/* Runs an elementwise kernel writing `out` (already allocated, shape =
 * broadcast of the array inputs). */
NgStatus ng_ew_run(EwKind kind, NgOp op, NgDType compute, const NgArray *out, int nin,
                   const EwInput *in);

/* The dtype op gives computing in dtype c: bool for comparisons and
 * predicates, the real dtype for the absolute value of a complex, else c. */
NgDType ng_op_result_of(NgOp op, NgDType c);

/* NumPy's ValueError for an integer power whose exponent operand e is
 * negative (a scalar, or any element of an array). */
NgStatus ng_check_int_exponent(const NgOperand *e);

/* The compute and result dtypes of op's loop on array operands all of
 * dtype dt (NumPy's type resolution), or the error NumPy gives for them. */
NgStatus ng_ew_loop_dtypes(NgOp op, NgDType dt, NgDType *compute, NgDType *out);

/* Broadcast shape of the array operands (scalars ignored). */
NgStatus ng_ew_broadcast(int n, const NgOperand *ops, int *ndim, int64_t *shape);


/* Kernel argument of a scalar converted to (real) dtype dt. */
NgKArg ng_scalar_karg(const NgScalar *s, NgDType dt);
/* Appends the kernel arguments of a scalar parameter of dtype dt at
 * args[*n]: one slot, or two (real, imaginary) for a complex dt. */
void ng_scalar_kargs(const NgScalar *s, NgDType dt, NgKArg *args, int *n);

/* The reduction op (min, max, ...) of every element of non-empty array a,
 * as an int64 on the host (one small download). */
NgStatus ng_ops_reduce_int(NgReduceOp op, const NgArray *a, int64_t *out);

/* The device an operation runs on: that of its first array operand. */
NgDevice *ng_ops_device(int n, const NgOperand *ops);

/* Same device for all arrays, else NG_ERR_VALUE naming both. */
NgStatus ng_ops_same_device(int n, const NgOperand *ops);

/* Jacobi decompositions by generated kernels (src/ops/jacobi.c), a work
 * item per matrix of C-contiguous work arrays in a float or complex dtype
 * dt. flag (B,) int32 gets per matrix: 0 done, 1 a NaN in it, 2 an
 * infinity (results NaN then), 3 no convergence within the sweep cap.
 * ng_jacobi_takes: whether they take min(m, n)^2 max(m, n) work per sweep
 * (one work item's; larger matrices are left to a vendor or NumPy).
 * eigh: a (B, n, n) Hermitian from its lower (upper) triangle, destroyed;
 * w (B, n) ascending eigenvalues (real dtype); v (B, n, n) or NULL.
 * svd: a (B, m, n) destroyed; s (B, k) descending; u (B, m, m or k) and
 * vh (B, n or k, n) (both or neither; full: the square ones). */
bool ng_jacobi_takes(NgDType dt, int64_t m, int64_t n);
NgStatus ng_jacobi_eigh(NgArray *a, bool upper, NgArray *w, NgArray *v, NgArray *flag);
NgStatus ng_jacobi_svd(NgArray *a, bool full, NgArray *s, NgArray *u, NgArray *vh, NgArray *flag);

/* The index space of a loop nest over the R axes of array parameter `arr`: R new int64 loop
 * variables (vars), their references (idx) and the array's extents (ext). */
static inline void ng_ops_index_space(NgIrKernel *k, int arr, int R, int *vars, NgIrRef *idx, NgIrRef *ext)
{
    for (int d = 0; d < R; d++) {
        vars[d] = ng_ir_var(k, NG_INT64);
        idx[d] = ng_ir_varref(k, vars[d]);
        ext[d] = ng_ir_shape(k, arr, d);
    }
}

/* dst = src where both are on a host device, of one dtype and shape, C-contiguous, at most
 * EW_HOST_COPY bytes and apart: one copy on this thread (ng_array_copy_on_host: the host's
 * memcpy, as NumPy's), where a kernel would pay its threads' start-up; true when done, false
 * (nothing done) otherwise. */
bool ng_ew_host_copy(const NgArray *dst, const NgArray *src);

/* any/all/count_nonzero of the whole of a (bools or integers, C-contiguous, in host memory) into
 * out (one element) without a kernel, stopping where NumPy's loops stop (anyall.c); false where
 * it does not apply (the caller runs the reduction kernel), else *st is the status. */
bool ng_reduce_host_bytes(NgReduceOp op, const NgArray *a, const NgArray *out, NgStatus *st);

#endif
