/* The host BLAS/LAPACK behind the cpu backend's gemm and lapack hooks
 * (NgBackend.gemm, NgBackend.lapack, NgBackend.decomp; src/backend/cpu/blas.c). */
#ifndef NG_BACKEND_CPU_BLAS_H
#define NG_BACKEND_CPU_BLAS_H

#include "backend/backend.h"

NgStatus ng_cpu_gemm(NgDevice *dev, NgDType dt, int trans, int64_t batch, int64_t n, int64_t m, int64_t k,
                     const void *A, size_t a_off, int64_t lda, int64_t a_bs,
                     const void *B, size_t b_off, int64_t ldb, int64_t b_bs,
                     void *C, size_t c_off, int64_t ldc, int64_t c_bs);
NgStatus ng_cpu_lapack(NgDevice *dev, int op, NgDType dt, int64_t n, int64_t nrhs, void *A, size_t a_off, void *B,
                       size_t b_off, int *info);
NgStatus ng_cpu_decomp(NgDevice *dev, int op, NgDType dt, int64_t m, int64_t n, int64_t nrhs, int flags,
                       double rcond, void *const *buf, const size_t *off, int64_t *rank, int *info);

#endif
