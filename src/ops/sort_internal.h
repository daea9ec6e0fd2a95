/* Helpers shared by the sorting, searching and scan ops (sort.c, scan.c,
 * search.c): a few IR shorthands and the row sort engine. */
#ifndef NUMGPU_SORT_INTERNAL_H
#define NUMGPU_SORT_INTERNAL_H

#include "ops/ops_internal.h"

/* int64 constant and int64 arithmetic. */
static inline NgIrRef sx_i(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }
static inline NgIrRef sx_op(NgIrKernel *k, NgOp op, NgIrRef a, NgIrRef b)
{
    return ng_ir_binary(k, op, NG_INT64, a, b);
}
static inline NgIrRef sx_cmp(NgIrKernel *k, NgOp op, NgIrRef a, NgIrRef b)
{
    return ng_ir_binary(k, op, NG_BOOL, a, b);
}
/* for v in range(start, stop): body */
static inline NgIrRef sx_for(NgIrKernel *k, int v, NgIrRef start, NgIrRef stop, NgIrRef body, unsigned flags)
{
    return ng_ir_for(k, v, start, stop, sx_i(k, 1), body, flags);
}
/* Two-element index (row, column) of a 2-d parameter. */
static inline NgIrRef sx_load2(NgIrKernel *k, int p, NgIrRef r, NgIrRef c)
{
    NgIrRef ix[2] = {r, c};
    return ng_ir_load(k, p, 2, ix);
}
static inline NgIrRef sx_store2(NgIrKernel *k, int p, NgIrRef r, NgIrRef c, NgIrRef v)
{
    NgIrRef ix[2] = {r, c};
    return ng_ir_store(k, p, 2, ix, v);
}
static inline NgIrRef sx_load1(NgIrKernel *k, int p, NgIrRef i) { return ng_ir_load(k, p, 1, &i); }
static inline NgIrRef sx_store1(NgIrKernel *k, int p, NgIrRef i, NgIrRef v) { return ng_ir_store(k, p, 1, &i, v); }

/* NumPy's sort order, NaNs last: a < b, or b is NaN and a is not. */
NgIrRef ng_sort_less(NgIrKernel *k, NgDType dt, NgIrRef a, NgIrRef b);

/* Sorts each row of the C-contiguous (rows, n) array `keys` in place
 * (stable, NaNs last). `idx` (NULL or an int64 (rows, n) array) is permuted
 * along; with init_idx it is first filled with 0..n-1 per row (argsort). */
NgStatus ng_sort_rows(NgArray *keys, NgArray *idx, bool init_idx, int64_t rows, int64_t n);

/* The cpu's radix sort of the rows (src/ops/radix.c), same contract as
 * ng_sort_rows; *done is false, and nothing changed, where it does not take
 * them (other devices, complex keys, short rows). */
NgStatus ng_sort_radix(NgArray *keys, NgArray *idx, bool init_idx, int64_t rows, int64_t n, bool *done);

/* Appends the arguments of a C-contiguous array viewed as (rows, n), or as
 * a 1-d array of n elements. */
void ng_sort_kargs2(NgKArg *args, int *na, const NgArray *a, int64_t rows, int64_t n);
void ng_sort_kargs1(NgKArg *args, int *na, const NgArray *a, int64_t n);

/* C-contiguous copy (always a new buffer) of `a` with `axis` moved last;
 * rows and n describe it as a (rows, n) matrix. */
NgStatus ng_sort_axis_last(const NgArray *a, int axis, bool force, NgArray *out, int64_t *rows, int64_t *n);
/* The inverse of ng_sort_axis_last on a result of the same moved shape:
 * a C-contiguous array in the original axis order. Consumes *moved. */
NgStatus ng_sort_axis_back(NgArray *moved, int axis, NgArray *out);

/* Reads element `i` of a 1-d int64 array (a download of 8 bytes). */
NgStatus ng_sort_read_i64(const NgArray *a, int64_t i, int64_t *v);

#endif
