/* Internal helpers of the core shared by the other C layers: a growable
 * string, hashing, the allocator hook and statistics counters. */
#ifndef NUMGPU_CORE_H
#define NUMGPU_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <numgpu/numgpu.h>

/* Replaces the compiler log kept with the last error (NULL clears it). */
void ng_error_set_log(const char *log);

/* ---- allocator hook: all host memory of the library goes through here ---- */
void *ng_malloc(size_t n);
void *ng_calloc(size_t n, size_t size);
void *ng_realloc(void *p, size_t n);
void ng_free(void *p);
/* Test hook: make the nth allocation from now fail (0 disables). */
void ng_alloc_fail_after(long n);

/* ---- growable string ---- */
typedef struct NgStr {
    char *s;      /* NUL-terminated text (never NULL after init) */
    size_t len;   /* bytes used, without the NUL */
    size_t cap;   /* bytes allocated */
    int failed;   /* an append ran out of memory */
} NgStr;

void ng_str_init(NgStr *b);
void ng_str_free(NgStr *b);
void ng_str_cat(NgStr *b, const char *s);
void ng_str_catf(NgStr *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ng_str_vcatf(NgStr *b, const char *fmt, va_list ap);

/* Reads a whole file into a NUL-terminated ng_malloc'd buffer (*len bytes
 * before the NUL); NULL if it cannot be opened, read or allocated. */
char *ng_file_read(const char *path, size_t *len);

/* dst = src on a device whose memory is the host's (cpu), both of one dtype and shape, apart:
 * a strided copy on the calling thread, no kernel, not counted as a transfer. NG_ERR_UNSUPPORTED
 * (no error message set) for anything else. */
NgStatus ng_array_copy_on_host(const NgArray *dst, const NgArray *src);

/* Fills C-contiguous a, on a device whose memory is the host's, with the element whose bytes
 * are `elem` (NULL: zero bytes), on the calling thread; NG_ERR_UNSUPPORTED (no message)
 * elsewhere. */
NgStatus ng_array_fill_on_host(const NgArray *a, const void *elem);

/* ---- hashing ---- */
uint64_t ng_hash64(const void *data, size_t n, uint64_t seed);

/* ---- statistics (atomic counters) ---- */
typedef enum NgCounter {
    NG_C_LAUNCH, NG_C_COMPILE, NG_C_DISK_HIT, NG_C_MEM_HIT,
    NG_C_UPLOAD, NG_C_UPLOAD_BYTES, NG_C_DOWNLOAD, NG_C_DOWNLOAD_BYTES, NG_C_IMPLICIT_UP, NG_C_IMPLICIT_DOWN,
    NG_C_BYTES_IN_USE, NG_C_BUFFERS_IN_USE, NG_C_OVERFLOW_BYTES, NG_C_OVERFLOW_ALLOCS, NG_NCOUNTERS
} NgCounter;
void ng_count(NgCounter c, int64_t delta);

#endif
