/* Linear algebra through the device's vendor LAPACK (cuSOLVER on cuda,
 * float32/float64; the host's LAPACK on cpu, complex too): solve, inv,
 * cholesky of one square matrix. Where the backend has none (opencl) or
 * declines, these return NG_ERR_UNSUPPORTED and the generated kernels of
 * lapack.c run instead.
 *
 * The vendor routines work column-major and in place, so the operands are
 * first copied: A row-major contiguous (cuSOLVER sees A^T, which the
 * backend accounts for), B as a contiguous copy of B^T (B column-major).
 * The solution comes back column-major and is returned as the transposed
 * view. */
#include <string.h>

#include "ops/ops_internal.h"

static NgStatus check_square(const NgArray *a, NgDevice **dev)
{
    *dev = ng_array_device(a);
    if (!(*dev)->be->lapack)
        return ng_error_set(NG_ERR_UNSUPPORTED, "%s has no vendor LAPACK", ng_device_name(*dev));
    if (a->ndim != 2 || a->shape[0] != a->shape[1] || a->shape[0] == 0)
        return ng_error_set(NG_ERR_UNSUPPORTED, "only one non-empty square matrix on the device");
    if (a->dtype != NG_FLOAT32 && a->dtype != NG_FLOAT64 && a->dtype != NG_COMPLEX64 && a->dtype != NG_COMPLEX128)
        return ng_error_set(NG_ERR_UNSUPPORTED, "only float32/float64/complex64/complex128 on the device");
    return NG_OK;
}

NgStatus ng_linalg_solve(const NgArray *a, const NgArray *b, NgArray *out, int *info)
{
    NgDevice *dev;
    NgStatus st = check_square(a, &dev);
    if (st != NG_OK)
        return st;
    int64_t n = a->shape[0];
    if (b->dtype != a->dtype || ng_array_device(b) != dev || b->ndim < 1 || b->ndim > 2 || b->shape[0] != n)
        return ng_error_set(NG_ERR_UNSUPPORTED, "right-hand side not supported on the device");
    int64_t nrhs = b->ndim == 2 ? b->shape[1] : 1;
    int64_t bshape[2] = {n, nrhs};
    NgArray lu, b2, bt, x;
    memset(&bt, 0, sizeof bt);
    if ((st = ng_op_astype(a, a->dtype, &lu)) != NG_OK)
        return st;
    if ((st = ng_op_reshape(b, 2, bshape, &b2)) == NG_OK) {
        NgArray view;
        if ((st = ng_op_transpose(&b2, NULL, &view)) == NG_OK) {
            st = ng_op_astype(&view, view.dtype, &bt); /* (nrhs, n) row-major = B column-major */
            ng_array_release(&view);
        }
        ng_array_release(&b2);
    }
    if (st == NG_OK)
        st = dev->be->lapack(dev, NG_LAPACK_GESV, a->dtype, n, nrhs, lu.buf->data, lu.offset, bt.buf->data,
                             bt.offset, info);
    if (st == NG_OK && *info == 0) {
        if ((st = ng_op_transpose(&bt, NULL, &x)) == NG_OK) {
            st = ng_op_reshape(&x, b->ndim, b->shape, out);
            ng_array_release(&x);
        }
    }
    ng_array_release(&bt);
    ng_array_release(&lu);
    return st;
}

NgStatus ng_linalg_inv(const NgArray *a, NgArray *out, int *info)
{
    NgDevice *dev;
    NgStatus st = check_square(a, &dev);
    if (st != NG_OK)
        return st;
    NgArray eye;
    if ((st = ng_op_eye(dev, a->shape[0], a->shape[0], 0, a->dtype, &eye)) != NG_OK)
        return st;
    st = ng_linalg_solve(a, &eye, out, info);
    ng_array_release(&eye);
    return st;
}

NgStatus ng_linalg_cholesky(const NgArray *a, NgArray *out, int *info)
{
    NgDevice *dev;
    NgStatus st = check_square(a, &dev);
    if (st != NG_OK)
        return st;
    NgArray c;
    if ((st = ng_op_astype(a, a->dtype, &c)) != NG_OK)
        return st;
    st = dev->be->lapack(dev, NG_LAPACK_POTRF, a->dtype, a->shape[0], 0, c.buf->data, c.offset, NULL, 0, info);
    if (st == NG_OK && *info == 0)
        st = ng_op_tri(&c, 0, false, out); /* the factor is the lower triangle; clear the rest */
    ng_array_release(&c);
    return st;
}
