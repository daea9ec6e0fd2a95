/* The one backend vtable.
 *
 * A backend owns a kind of device: it loads its driver at run time, moves
 * bytes, compiles emitted source and launches kernels. Policy (what to
 * compile, caching, launch shapes) lives in the kernel layer; backends stay
 * dumb. The core never includes a particular backend's header. */
#ifndef NUMGPU_BACKEND_H
#define NUMGPU_BACKEND_H

#include <numgpu/numgpu.h>
#include "emit/emit.h"

/* One kernel argument: every argument is 8 bytes (see src/kernel/kernel.h). */
typedef union NgKArg {
    void *p;    /* device address */
    int64_t i;  /* integer scalar, extent or stride */
    double f;   /* float scalar */
} NgKArg;

typedef struct NgBackend {
    const char *kind;            /* "cpu", "null", "opencl", "cuda" */
    const NgTarget *target;      /* how to emit source for it */
    bool host_visible;           /* device memory is ordinary host memory */
    size_t zeroed_from;          /* alloc's blocks of this many bytes or more read as zeros (0: none) */
    /* Finds device number `index`; fills dev->name and dev->state. */
    NgStatus (*open)(NgDevice *dev, int index);
    NgStatus (*alloc)(NgDevice *dev, size_t nbytes, void **ptr);
    /* Optional (NULL: none): memory kernels reach when the device's own is
     * full, which the driver pages between host and device (CUDA's managed
     * memory): slower, but an array larger than what is free still works.
     * Freed by `free`. The pool calls it only after alloc failed with the
     * cached blocks returned (NUMGPU_OVERSUBSCRIBE=0: never). */
    NgStatus (*alloc_overflow)(NgDevice *dev, size_t nbytes, void **ptr);
    void (*free)(NgDevice *dev, void *ptr, size_t nbytes);
    /* Host -> device: nbytes from src to byte `offset` of the block at `dst`. */
    NgStatus (*upload)(NgDevice *dev, void *dst, size_t offset, const void *src, size_t nbytes);
    /* Device -> host: nbytes from byte `offset` of the block at `src` to dst. */
    NgStatus (*download)(NgDevice *dev, void *dst, const void *src, size_t offset, size_t nbytes);
    const char *binary_ext;      /* file extension of compiled kernels: "so" */
    /* Compiles `source` defining kernel `name` into the file `out_path`. A
     * compiler error is NG_ERR_COMPILE with the log in ng_error_log(). */
    NgStatus (*compile)(NgDevice *dev, const char *source, const char *name, const char *out_path);
    /* Loads a compiled kernel from `path`; *module is the handle for launch. */
    NgStatus (*load)(NgDevice *dev, const char *path, const char *name, void **module);
    /* Runs a compiled kernel. `extent` is the trip count of its outermost
     * parallel loop (GPU backends size the grid from it); `work` the total
     * element count (cpu threads only when it is large enough). */
    NgStatus (*launch)(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                       int64_t extent, int64_t work);
    /* Optional (NULL: none): runs a block-level kernel (see NgIrThread in
     * src/ir/ir.h) as exactly `blocks` blocks of up to `threads` threads
     * (threads <= NG_BLOCK_THREADS, a multiple of 32); every thread runs the
     * whole body. */
    NgStatus (*launch_blocks)(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                              int64_t blocks, int threads, int64_t work);
    NgStatus (*sync)(NgDevice *dev);
    /* Optional vendor BLAS (NULL: none): for b in [0, batch): C_b = A_b @ B_b,
     * row-major n x k and k x m matrices of dtype dt (float32/float64,
     * complex64/complex128) with unit-stride rows, except an operand whose
     * bit is set in trans (NG_GEMM_TRANS_A, _B): it is stored transposed (A^T
     * as a row-major k x n block). ld* are the stored blocks' row strides
     * (for a vector B, m = 1, its increment) and *_bs batch strides, all in
     * elements; *_off are byte offsets into the blocks. NG_ERR_UNSUPPORTED
     * lets the caller fall back (to copies without trans, then to a
     * generated kernel). */
    NgStatus (*gemm)(NgDevice *dev, NgDType dt, int trans, int64_t batch, int64_t n, int64_t m, int64_t k,
                     const void *A, size_t a_off, int64_t lda, int64_t a_bs,
                     const void *B, size_t b_off, int64_t ldb, int64_t b_bs,
                     void *C, size_t c_off, int64_t ldc, int64_t c_bs);
    /* Optional vendor LAPACK (NULL: none), in place on one contiguous
     * row-major matrix A of dtype dt (any float or complex dtype), byte
     * offset a_off; n x n unless said.
     * - NG_LAPACK_POTRF: the lower triangle of A becomes the Cholesky
     *   factor L (the rest is left as it is).
     * - NG_LAPACK_GESV: solves A X = B for B given column-major (n x nrhs,
     *   i.e. a row-major nrhs x n block at b_off), overwritten by X; A is
     *   overwritten by its LU factors.
     * - NG_LAPACK_GETRF: A becomes the LU factors of A^T (A seen
     *   column-major; the same determinant) and B (int64, n) their pivots,
     *   0-based (row k was swapped with row B[k]).
     * - NG_LAPACK_QR_R, _REDUCED, _COMPLETE: A is n x nrhs (m x cols); its
     *   upper triangle becomes R (the rest is left undefined) and, but for
     *   QR_R, B gets Q (row-major, m x min(m, cols), or m x m).
     * *info: 0, or > 0 when A is singular / not positive definite (LAPACK's
     * info). NG_ERR_UNSUPPORTED (an op or dtype the vendor lacks: cuSOLVER's
     * hook takes POTRF and GESV of float32/float64) lets the caller fall
     * back. */
    NgStatus (*lapack)(NgDevice *dev, int op, NgDType dt, int64_t n, int64_t nrhs, void *A, size_t a_off,
                       void *B, size_t b_off, int *info);
    /* Optional vendor eigen- and singular value solvers (NULL: none): NumPy's
     * LAPACK call on one matrix of dtype dt, float64 or complex128 (NumPy
     * computes these in double precision whatever its input), operands
     * row-major and contiguous at buf[i] + off[i] (bytes), in this order:
     * - NG_DECOMP_EIGH (syevd/heevd): A (n x n; the lower triangle read, the
     *   upper with NG_DECOMP_UPPER), w (n, real: ascending eigenvalues); with
     *   NG_DECOMP_VECTORS A becomes the eigenvectors (columns).
     * - NG_DECOMP_SVD (gesdd): A (m x n, destroyed), s (min(m, n), real,
     *   descending); with NG_DECOMP_VECTORS U (m x k) and Vh (k x n), k =
     *   min(m, n), or with NG_DECOMP_FULL too U (m x m) and Vh (n x n).
     * - NG_DECOMP_EIG (geev): A (n x n, destroyed), w (n) and, with
     *   NG_DECOMP_VECTORS, V (n x n, unit columns), both complex (of dt's
     *   precision) whatever dt.
     * - NG_DECOMP_LSTSQ (gelsd, rcond): A (m x n, destroyed), B (m x nrhs), X
     *   (n x nrhs), s (min(m, n), real), residuals (nrhs, real: the squared
     *   norms of B - A X's columns when m > n and *rank == n, else 0); *rank
     *   the effective rank.
     * Empty matrices are not passed. *info: 0, or 1 when LAPACK failed on
     * the matrix (no convergence, or a NaN it refuses; outputs undefined):
     * NumPy's LinAlgError. NG_ERR_UNSUPPORTED lets the caller fall back (to
     * the Jacobi kernels for EIGH and SVD: cuSOLVER's hook takes float64
     * EIGH and SVD only). */
    NgStatus (*decomp)(NgDevice *dev, int op, NgDType dt, int64_t m, int64_t n, int64_t nrhs, int flags,
                       double rcond, void *const *buf, const size_t *off, int64_t *rank, int *info);
    /* A string naming compiler and options, part of every cache key. */
    const char *(*compiler_id)(NgDevice *dev);
} NgBackend;

enum { NG_GEMM_TRANS_A = 1, NG_GEMM_TRANS_B = 2 }; /* NgBackend.gemm's trans */
/* operations of NgBackend.lapack */
enum { NG_LAPACK_POTRF, NG_LAPACK_GESV, NG_LAPACK_GETRF, NG_LAPACK_QR_R, NG_LAPACK_QR_REDUCED, NG_LAPACK_QR_COMPLETE };
/* operations and flags of NgBackend.decomp */
enum { NG_DECOMP_EIGH, NG_DECOMP_SVD, NG_DECOMP_EIG, NG_DECOMP_LSTSQ };
enum {
    NG_DECOMP_VECTORS = 1, /* eigenvectors, singular vectors */
    NG_DECOMP_UPPER = 2,   /* EIGH: read the upper triangle */
    NG_DECOMP_FULL = 4,    /* SVD: square U and Vh */
};

typedef struct NgPool NgPool;

struct NgDevice {
    const NgBackend *be;  /* its backend */
    NgPool *pool;         /* cached free blocks (src/core/pool.c) */
    int index;            /* number among devices of the kind */
    char name[32];        /* "cpu", "opencl:0" */
    char description[160];/* the hardware, for users: "NVIDIA H200 (sm_90)" */
    bool gpu;             /* a GPU or accelerator (not a CPU) */
    bool no_float64;      /* kernels cannot use double (an OpenCL device without cl_khr_fp64) */
    bool lost;            /* opened before this process was forked: the driver's threads and
                             state did not come across (see ng_device_usable) */
    void *state;          /* backend's own data */
};

/* NG_OK, or the error of a device this process cannot use (lost): every
 * path that reaches the driver asks first, so a forked child gets an error
 * naming the cure instead of hanging inside the driver. */
NgStatus ng_device_usable(const NgDevice *dev);

/* The device memory pool (src/core/pool.c): blocks of a rounded-up size
 * class; *size gets the size to pass back to ng_pool_free. *zeroed (where
 * not NULL) says whether the block reads as zeros: a fresh one from a
 * backend's alloc of at least zeroed_from bytes, not one handed out again. */
NgStatus ng_pool_alloc(NgDevice *dev, size_t nbytes, void **ptr, size_t *size, bool *zeroed);
void ng_pool_free(NgDevice *dev, void *ptr, size_t size);
size_t ng_pool_cached(NgDevice *dev);   /* bytes held in free blocks */
void ng_pool_trim(NgDevice *dev);       /* returns all free blocks to the device */
uint64_t ng_pool_bytes_in_use(void);    /* bytes of live buffers, all devices */
size_t ng_pool_overflow(NgDevice *dev); /* bytes of live blocks in alloc_overflow's memory */

extern const NgBackend ng_backend_cpu;
extern const NgBackend ng_backend_null;
extern const NgBackend ng_backend_opencl;
extern const NgBackend ng_backend_cuda;

#endif
