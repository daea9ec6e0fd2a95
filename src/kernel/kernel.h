/* The kernel layer: find-or-build compiled kernels and launch them.
 *
 * Lookup order: the in-process table, keyed by a cheap descriptor the caller
 * builds from what determines the kernel (op, dtypes, ranks, layout flags),
 * so a hit costs one hash and no source generation; then the disk cache
 * ($NUMGPU_CACHE_DIR, default ~/.cache/numgpu), keyed by the hash of
 * (backend, compiler id, codegen version, emitted source), each entry written
 * to a temporary file and renamed, and checksummed on read; then the
 * backend's compiler. */
#ifndef NUMGPU_KERNEL_H
#define NUMGPU_KERNEL_H

#include "backend/backend.h"
#include "ir/ir.h"

#define NG_CODEGEN_VERSION 1 /* bump when emitted code changes meaning */

typedef struct NgKernel {
    NgDevice *dev;     /* device it was compiled for */
    void *module;      /* backend handle */
    int nargs;         /* 8-byte arguments it takes */
    uint8_t *kinds;    /* NgArgKind of each argument */
    bool parallel;     /* has a parallel loop (else one GPU thread runs it) */
    bool rows_blocks;  /* GPUs: one block of threads runs it (ng_emit_rows_blocks) */
    char name[48];     /* symbol name */
} NgKernel;

/* Fills k (already ng_ir_init'ed) with the kernel for ctx. */
typedef NgStatus (*NgBuildFn)(const void *ctx, NgIrKernel *k);

/* Finds or builds the kernel described by key[0..keylen) on dev. The key
 * must determine the IR that build() makes. *out is borrowed: kernels live
 * until exit. */
NgStatus ng_kernel_get(NgDevice *dev, const void *key, size_t keylen, NgBuildFn build,
                       const void *ctx, const NgKernel **out);
/* Runs kern; extent and work as in NgBackend.launch. */
NgStatus ng_kernel_launch(const NgKernel *kern, const NgKArg *args, int nargs, int64_t extent,
                          int64_t work);

/* Runs a block-level kernel (see NgIrThread) as `blocks` blocks of
 * NG_BLOCK_THREADS threads; NG_ERR_UNSUPPORTED on a backend without blocks
 * (cpu: callers take their OpenMP path there). */
NgStatus ng_kernel_launch_blocks(const NgKernel *kern, const NgKArg *args, int nargs, int64_t blocks, int64_t work);

/* Appends the kernel arguments of array a viewed with rank ndim, shape and
 * element strides (the layout the IR parameter was declared with). */
void ng_kargs_array(NgKArg *args, int *n, const NgArray *a, int ndim, const int64_t *shape,
                    const int64_t *elem_strides);
/* ng_kargs_array of a as it is: its own shape and strides (in elements). */
void ng_kargs_array_as_is(NgKArg *args, int *n, const NgArray *a);

/* The disk cache's size. Each device kind's directory is kept under NUMGPU_CACHE_SIZE (bytes, K/M/G/T
 * suffixes; 0 = no limit; default NG_CACHE_SIZE_DEFAULT): a process that compiles looks at it at
 * its first compile and every NG_CACHE_TRIM_EVERY compiles after, at most once in
 * NG_CACHE_TRIM_QUIET_S seconds for all processes (the directory's .trimmed stamp), and removes
 * the least recently used kernels (a disk hit renews a kernel's time) down to 3/4 of the limit. */
#define NG_CACHE_SIZE_DEFAULT (4ULL << 30)
#define NG_CACHE_TRIM_EVERY 256
#define NG_CACHE_TRIM_QUIET_S 600

typedef struct NgCacheTrim {
    uint64_t bytes, kernels;          /* in the directory before */
    uint64_t bytes_removed, kernels_removed;
} NgCacheTrim;

/* NUMGPU_CACHE_SIZE in bytes (0: no limit); a value it cannot read is said once on stderr and the
 * default used. */
uint64_t ng_cache_limit(void);
/* When the kernels in `dir` (one device kind's directory) take more than `limit` bytes, removes the
 * least recently used ones until they take at most `target`; a crashed compile's temporary files
 * (over an hour old) go too. Other files are left alone. *out (may be NULL) says what was there
 * and what went. */
NgStatus ng_cache_trim(const char *dir, uint64_t limit, uint64_t target, NgCacheTrim *out);

/* Source of the most recently compiled kernel on this thread ("" if none). */
const char *ng_kernel_last_source(void);

#endif
