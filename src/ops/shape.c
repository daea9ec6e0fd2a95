/* Shape operations: views where the layout allows (reshape, transpose,
 * broadcast_to), copies through the elementwise engine otherwise
 * (ascontiguous, concatenate). */
#include <string.h>

#include "ops/ops_internal.h"

NgStatus ng_op_ascontiguous(const NgArray *a, bool force, NgArray *out)
{
    if (!force && ng_array_is_c_contiguous(a)) {
        ng_array_view(a, out);
        return NG_OK;
    }
    return ng_op_astype(a, a->dtype, out);
}

/* NumPy's attempt_nocopy_reshape: strides for `shape` over a's memory
 * without copying, if they exist. Works axis group by axis group. */
static bool nocopy_strides(const NgArray *a, int ndim, const int64_t *shape, int64_t *strides)
{
    int oldnd = 0;
    int64_t olddims[NG_MAXDIMS], oldstrides[NG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != 1) {
            olddims[oldnd] = a->shape[i];
            oldstrides[oldnd++] = a->strides[i];
        }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < ndim && oi < oldnd) {
        int64_t np_ = shape[ni], op = olddims[oi];
        while (np_ != op) {
            if (np_ < op)
                np_ *= shape[nj++];
            else
                op *= olddims[oj++];
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1])
                return false;
        strides[nj - 1] = oldstrides[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--)
            strides[nk - 1] = strides[nk] * shape[nk];
        ni = nj++;
        oi = oj++;
    }
    int64_t last = ni >= 1 ? strides[ni - 1] : ng_dtype_info(a->dtype)->itemsize;
    for (int nk = ni; nk < ndim; nk++)
        strides[nk] = last;
    return true;
}

NgStatus ng_op_reshape(const NgArray *a, int ndim, const int64_t *shape_in, NgArray *out)
{
    if (ndim > NG_MAXDIMS)
        return ng_error_set(NG_ERR_VALUE, "maximum supported dimension for an ndarray is %d, found %d", NG_MAXDIMS, ndim);
    int64_t shape[NG_MAXDIMS], known = 1;
    int unknown = -1;
    for (int d = 0; d < ndim; d++) {
        shape[d] = shape_in[d];
        if (shape[d] == -1) {
            if (unknown >= 0)
                return ng_error_set(NG_ERR_VALUE, "can only specify one unknown dimension");
            unknown = d;
        } else if (shape[d] < 0) {
            return ng_error_set(NG_ERR_VALUE, "negative dimensions not allowed");
        } else {
            known *= shape[d];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || a->size % known != 0)
            goto mismatch;
        shape[unknown] = a->size / known;
    } else if (known != a->size) {
        goto mismatch;
    }
    int64_t strides[NG_MAXDIMS];
    if (a->size == 0 || !nocopy_strides(a, ndim, shape, strides)) {
        NgArray tmp;
        NgStatus st = ng_op_ascontiguous(a, false, &tmp);
        if (st != NG_OK)
            return st;
        *out = tmp;
        out->ndim = ndim;
        memcpy(out->shape, shape, sizeof(int64_t) * (size_t)ndim);
        ng_array_set_contiguous_strides(out);
        return NG_OK;
    }
    ng_array_view(a, out);
    out->ndim = ndim;
    memcpy(out->shape, shape, sizeof(int64_t) * (size_t)ndim);
    memcpy(out->strides, strides, sizeof(int64_t) * (size_t)ndim);
    return NG_OK;
mismatch:;
    char want[200];
    if (unknown >= 0) {
        char *p = ng_shape_format(ndim, shape_in, want, sizeof want);
        (void)p;
    } else {
        ng_shape_format(ndim, shape, want, sizeof want);
    }
    return ng_error_set(NG_ERR_VALUE, "cannot reshape array of size %lld into shape %s", (long long)a->size, want);
}

NgStatus ng_op_transpose(const NgArray *a, const int *perm, NgArray *out)
{
    int p[NG_MAXDIMS];
    bool seen[NG_MAXDIMS] = {false};
    for (int d = 0; d < a->ndim; d++) {
        p[d] = perm ? perm[d] : a->ndim - 1 - d;
        NgStatus st = ng_axis_normalize(&p[d], a->ndim);
        if (st != NG_OK)
            return st;
        if (seen[p[d]])
            return ng_error_set(NG_ERR_VALUE, "repeated axis in transpose");
        seen[p[d]] = true;
    }
    NgArray v;
    ng_array_view(a, &v);
    for (int d = 0; d < a->ndim; d++) {
        v.shape[d] = a->shape[p[d]];
        v.strides[d] = a->strides[p[d]];
    }
    *out = v;
    return NG_OK;
}

NgStatus ng_op_broadcast_to(const NgArray *a, int ndim, const int64_t *shape, NgArray *out)
{
    if (ndim < a->ndim)
        goto fail;
    NgArray v;
    ng_array_view(a, &v);
    v.ndim = ndim;
    v.size = 1;
    for (int d = 0; d < ndim; d++) {
        int ad = d - (ndim - a->ndim);
        if (shape[d] < 0) {
            ng_array_release(&v);
            return ng_error_set(NG_ERR_VALUE, "all elements of broadcast shape must be non-negative");
        }
        if (ad >= 0 && a->shape[ad] != shape[d] && a->shape[ad] != 1) {
            ng_array_release(&v);
            goto fail;
        }
        v.strides[d] = (ad < 0 || a->shape[ad] != shape[d]) ? 0 : a->strides[ad];
        v.shape[d] = shape[d];
        v.size *= shape[d];
    }
    *out = v;
    return NG_OK;
fail:;
    char x[160], y[160];
    return ng_error_set(NG_ERR_VALUE, "operands could not be broadcast together with remapped shapes "
                        "[original->remapped]: %s and requested shape %s",
                        ng_shape_format(a->ndim, a->shape, x, sizeof x), ng_shape_format(ndim, shape, y, sizeof y));
}

NgStatus ng_op_concatenate(int n, const NgArray *const *arrays, int axis, NgDType dtype, const NgArray *dest,
                           NgArray *out)
{
    if (n == 0)
        return ng_error_set(NG_ERR_VALUE, "need at least one array to concatenate");
    const NgArray *a0 = arrays[0];
    if (a0->ndim == 0)
        return ng_error_set(NG_ERR_VALUE, "zero-dimensional arrays cannot be concatenated");
    NgStatus st = ng_axis_normalize(&axis, a0->ndim);
    if (st != NG_OK)
        return st;
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a0->shape, sizeof shape);
    NgDType dt = a0->dtype;
    shape[axis] = 0;
    for (int i = 0; i < n; i++) {
        const NgArray *a = arrays[i];
        if (a->ndim != a0->ndim)
            return ng_error_set(NG_ERR_VALUE, "all the input array dimensions except for the concatenation axis "
                                "must match exactly, but along dimension 0, the array at index 0 has %d "
                                "dimension(s) and the array at index %d has %d dimension(s)", a0->ndim, i, a->ndim);
        if (ng_array_device(a) != ng_array_device(a0))
            return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s)",
                                ng_device_name(ng_array_device(a0)), ng_device_name(ng_array_device(a)));
        for (int d = 0; d < a->ndim; d++)
            if (d != axis && a->shape[d] != a0->shape[d])
                return ng_error_set(NG_ERR_VALUE, "all the input array dimensions except for the concatenation "
                                    "axis must match exactly, but along dimension %d, the array at index 0 has "
                                    "size %lld and the array at index %d has size %lld", d,
                                    (long long)a0->shape[d], i, (long long)a->shape[d]);
        shape[axis] += a->shape[axis];
        dt = ng_dtype_promote(dt, a->dtype);
    }
    if (dest) {
        if (dest->ndim != a0->ndim || memcmp(dest->shape, shape, sizeof(int64_t) * (size_t)a0->ndim) != 0)
            return ng_error_set(NG_ERR_VALUE, "Output array is the wrong shape");
        if (ng_array_device(dest) != ng_array_device(a0))
            return ng_error_set(NG_ERR_VALUE, "arrays are on different devices (%s and %s)",
                                ng_device_name(ng_array_device(a0)), ng_device_name(ng_array_device(dest)));
        ng_array_view(dest, out);
    } else if ((st = ng_array_empty(ng_array_device(a0), dtype == NG_NODTYPE ? dt : dtype, a0->ndim, shape, out)) !=
               NG_OK) {
        return st;
    }
    /* each input cast straight into its place (no converted copy first); on a host device a
     * small part of the same dtype, contiguous on both sides, copied as NumPy's (ng_ew_host_copy:
     * a kernel per input paid OpenMP's start-up each time) */
    int64_t at = 0;
    NgArray part; /* one view of out, moved along the axis (a view per part cost more than 10 elements' copy) */
    ng_array_view(out, &part);
    for (int i = 0; i < n && st == NG_OK; i++) {
        if (arrays[i]->size > 0) {
            part.offset = out->offset + (size_t)(at * out->strides[axis]);
            part.shape[axis] = arrays[i]->shape[axis];
            part.size = arrays[i]->size;
            if (dest || !ng_ew_host_copy(&part, arrays[i])) { /* (dest may overlap an input) */
                NgOperand src = {arrays[i], {0}};
                st = ng_op_assign(&part, &src);
            }
        }
        at += arrays[i]->shape[axis];
    }
    ng_array_release(&part);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}
