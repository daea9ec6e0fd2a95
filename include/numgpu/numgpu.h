/* numgpu public C API.
 *
 * The C library behind `import numgpu`: dtypes and promotion, arrays as views
 * over refcounted device buffers, devices, and the array operations. No
 * Python here; the CPython binding (src/pymod) is one client of this header.
 *
 * Conventions: a function that can fail returns NgStatus; outputs come back
 * through pointer parameters; ng_error_message() holds the text of the last
 * failure on this thread. Functions named _new/_create hand ownership to the
 * caller; _retain/_release manage refcounted objects.
 */
#ifndef NUMGPU_NUMGPU_H
#define NUMGPU_NUMGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NG_MAXDIMS 32 /* most dimensions an array may have (NumPy 1's limit) */

/* ---- status codes ---------------------------------------------------- */

typedef enum NgStatus {
    NG_OK = 0,
    NG_ERR_NOMEM,       /* host memory exhausted (MemoryError) */
    NG_ERR_DEVICE_OOM,  /* device memory exhausted (numgpu.OutOfMemoryError) */
    NG_ERR_VALUE,       /* bad value: shapes, axes (ValueError) */
    NG_ERR_TYPE,        /* unsupported dtype or operand (TypeError) */
    NG_ERR_INDEX,       /* index out of range (IndexError) */
    NG_ERR_AXIS,        /* axis out of range (numpy.exceptions.AxisError) */
    NG_ERR_OVERFLOW,    /* Python int does not fit the dtype (OverflowError) */
    NG_ERR_COMPILE,     /* a generated kernel failed to compile (numgpu.CompileError) */
    NG_ERR_DEVICE,      /* driver, compiler or runtime failure (numgpu.DeviceError) */
    NG_ERR_UNSUPPORTED, /* not implemented yet (NotImplementedError) */
    NG_ERR_INTERNAL,    /* a bug in numgpu (RuntimeError) */
} NgStatus;

/* Text of the last error raised on the calling thread ("" if none). */
const char *ng_error_message(void);
/* Compiler log of the last NG_ERR_COMPILE on this thread ("" if none). */
const char *ng_error_log(void);
/* Records a formatted message for this thread and returns `st`. */
NgStatus ng_error_set(NgStatus st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A yes/no environment variable: "1", "true", "yes", "on" (any case) are 1; "0", "false", "no",
 * "off" and "" are 0; unset is dflt; anything else is dflt, after one line on stderr naming it. */
int ng_env_flag(const char *name, int dflt);
/* A whole number of some unit from the environment (NUMGPU_POOL_LIMIT_MB): its value, or dflt when
 * unset, and when it is not a non-negative whole number (one line on stderr naming it). */
unsigned long long ng_env_count(const char *name, unsigned long long dflt);

/* ---- dtypes ---------------------------------------------------------- */

typedef enum NgDType {
    NG_BOOL,       /* 1-byte 0/1 */
    NG_INT8,       /* signed integers */
    NG_INT16,
    NG_INT32,
    NG_INT64,
    NG_UINT8,      /* unsigned integers */
    NG_UINT16,
    NG_UINT32,
    NG_UINT64,
    NG_FLOAT16,    /* IEEE half: stored as 16 bits, computed in float and rounded after every op */
    NG_FLOAT32,    /* IEEE single */
    NG_FLOAT64,    /* IEEE double, the default float */
    NG_COMPLEX64,  /* two float32: real, imaginary */
    NG_COMPLEX128, /* two float64: real, imaginary */
    NG_NTYPES,
    NG_NODTYPE = -1 /* "no dtype given" */
} NgDType;

/* Kind of a dtype, ordered as NEP 50 orders categories. */
typedef enum NgKind {
    NG_KIND_BOOL,    /* 'b' */
    NG_KIND_INT,     /* 'i' */
    NG_KIND_UINT,    /* 'u' */
    NG_KIND_FLOAT,   /* 'f' */
    NG_KIND_COMPLEX, /* 'c' */
} NgKind;

typedef struct NgDTypeInfo {
    const char *name;  /* NumPy's name: "float64" */
    char typechar;     /* NumPy's dtype.char: 'd' */
    int itemsize;      /* bytes per element */
    NgKind kind;       /* category */
    bool supported;    /* kernels exist for it */
} NgDTypeInfo;

const NgDTypeInfo *ng_dtype_info(NgDType t);
NgDType ng_dtype_from_name(const char *name); /* NG_NODTYPE if unknown */
/* NumPy 2 promotion of two array dtypes. */
NgDType ng_dtype_promote(NgDType a, NgDType b);
/* NEP 50: dtype of `array op scalar` where the Python scalar has `kind`
 * (bool, int, float or complex) and is weak. */
NgDType ng_dtype_promote_weak(NgDType array, NgKind scalar_kind);
/* NumPy's can_cast(from, to, "safe"). */
bool ng_dtype_can_cast_safe(NgDType from, NgDType to);
static inline bool ng_dtype_is_int(NgDType t) { return t >= NG_INT8 && t <= NG_UINT64; }
static inline bool ng_dtype_is_float(NgDType t) { return t >= NG_FLOAT16 && t <= NG_FLOAT64; }
static inline bool ng_dtype_is_signed(NgDType t) { return t >= NG_INT8 && t <= NG_INT64; }
static inline bool ng_dtype_is_complex(NgDType t) { return t == NG_COMPLEX64 || t == NG_COMPLEX128; }
/* Float or complex: NumPy's "inexact". */
static inline bool ng_dtype_is_inexact(NgDType t) { return t >= NG_FLOAT16 && t <= NG_COMPLEX128; }
/* The real dtype of a complex one (float32 for complex64); t itself otherwise. */
static inline NgDType ng_dtype_real(NgDType t)
{
    return t == NG_COMPLEX64 ? NG_FLOAT32 : t == NG_COMPLEX128 ? NG_FLOAT64 : t;
}

/* ---- devices --------------------------------------------------------- */

typedef struct NgDevice NgDevice;

/* Opens a device by spec: "auto", "cpu", "null", "cuda", "cuda:1", "opencl".
 * The returned device lives until process exit (devices are never freed). */
NgStatus ng_device_open(const char *spec, NgDevice **out);
/* The default device: $NUMGPU_DEVICE, else "auto" (best available). */
NgStatus ng_device_default(NgDevice **out);
const char *ng_device_name(const NgDevice *dev); /* "cpu", "opencl:0" */
const char *ng_device_kind(const NgDevice *dev); /* "cpu", "opencl", "cuda", "null" */
/* Devices whose memory the host can address directly (cpu): arrays there can
 * be viewed by NumPy without a copy. */
bool ng_device_host_visible(const NgDevice *dev);
bool ng_device_is_gpu(const NgDevice *dev);
/* The device was opened by the parent of this forked process and its driver did not come across
 * (OpenCL, CUDA): its arrays are out of reach here. */
bool ng_device_lost(const NgDevice *dev);
/* Kernels on the device can compute in float64 (all but OpenCL devices without cl_khr_fp64). */
bool ng_device_has_float64(const NgDevice *dev);
/* What the device is ("pthread-haswell-AMD EPYC (PoCL 3.1)"); "" if unknown. */
const char *ng_device_description(const NgDevice *dev);
/* Waits for all work queued on the device. */
NgStatus ng_device_sync(NgDevice *dev);
/* Waits for the queued work of every opened device. Call it before the
 * process exits: a driver thread still compiling or running a kernel while
 * the exit tears the driver's libraries down crashes (PoCL: LLVM's static
 * objects destroyed under its compiler thread). */
void ng_devices_finish(void);

/* NVRTC, usable without a GPU: compiles CUDA source for `arch` ("sm_90"),
 * to PTX if `ptx`, else a cubin; *image (if non-NULL) gets the output,
 * which the caller frees with free(). NG_ERR_COMPILE carries the log. */
NgStatus ng_cuda_nvrtc_compile(const char *source, const char *name, const char *arch, bool ptx,
                               char **image, size_t *size);
/* "13.0", or NULL when NVRTC cannot be loaded (then ng_error_message says why). */
const char *ng_cuda_nvrtc_version(void);
/* Highest CUDA version the installed driver supports (e.g. 12040 for 12.4). */
NgStatus ng_cuda_driver_version(int *version);
/* The host BLAS/LAPACK the cpu device's matrix products and solves use
 * (src/backend/cpu/blas.c): its path with *found true, else why there is none. */
const char *ng_cpu_blas(bool *found);

/* Counters since start (numgpu.stats()). */
typedef struct NgStats {
    uint64_t kernel_launches; /* kernels run */
    uint64_t kernels_compiled;/* sources handed to a compiler */
    uint64_t disk_cache_hits; /* compiled kernels loaded from the disk cache */
    uint64_t memory_cache_hits;/* kernels found in the in-process table */
    uint64_t uploads;         /* host -> device copies */
    uint64_t upload_bytes;
    uint64_t downloads;       /* device -> host copies */
    uint64_t download_bytes;
    uint64_t implicit_uploads;   /* host data uploaded because an op was given it */
    uint64_t implicit_downloads; /* device data downloaded because NumPy asked for it */
    uint64_t bytes_in_use;    /* live buffer bytes, all devices */
    uint64_t buffers_in_use;  /* live buffers, all devices */
    uint64_t overflow_bytes;  /* live bytes in memory the driver pages (device memory was full) */
    uint64_t overflow_allocs; /* allocations that went there */
} NgStats;
void ng_stats_get(NgStats *out);
void ng_stats_count_transfer(bool upload, size_t nbytes);
void ng_stats_count_implicit(bool upload);
/* Source of the most recently compiled kernel on this thread ("" if none). */
const char *ng_kernel_last_source(void);

/* ---- buffers and arrays ---------------------------------------------- */

/* A refcounted block of device memory. */
typedef struct NgBuffer {
    int64_t refcount;   /* atomically updated */
    NgDevice *device;   /* owner of the memory */
    void *data;         /* device address (host address on cpu) */
    size_t nbytes;      /* bytes allocated */
    void *external;     /* non-NULL: memory owned by someone else (see release) */
    void (*release_external)(void *external); /* called instead of freeing data */
    void *owner;        /* the binding's object that owns it (Python: x.base of its views);
                           never read by the core */
} NgBuffer;

/* A view: dtype, shape and byte strides over a buffer at a byte offset.
 * Plain struct, embedded by value in the Python object; it holds one
 * reference to `buf`. */
typedef struct NgArray {
    NgBuffer *buf;               /* owned reference */
    size_t offset;               /* bytes from buf->data to element 0 */
    NgDType dtype;
    int ndim;
    int64_t size;                /* product of shape */
    int64_t shape[NG_MAXDIMS];
    int64_t strides[NG_MAXDIMS]; /* in bytes, may be negative or 0 */
} NgArray;

NgStatus ng_buffer_new(NgDevice *dev, size_t nbytes, NgBuffer **out);
/* Wraps memory the caller keeps alive until release(external) is called. */
NgStatus ng_buffer_wrap(NgDevice *dev, void *data, size_t nbytes, void *external,
                        void (*release)(void *external), NgBuffer **out);
void ng_buffer_retain(NgBuffer *b);
void ng_buffer_release(NgBuffer *b);

/* A new C-contiguous array with uninitialised contents. */
NgStatus ng_array_empty(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, NgArray *out);
/* ng_array_empty, and *zeroed says whether the memory already reads as zeros (a fresh block
 * of a device whose new memory is zeroed: cpu's large blocks, fresh pages of the OS). */
NgStatus ng_array_empty_zeroed(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, NgArray *out,
                               bool *zeroed);
/* Fills `out` as a view of `base` sharing its buffer (retained). */
void ng_array_view(const NgArray *base, NgArray *out);
/* a's memory read as dtype dt, NumPy's ndarray.view(dtype): the same shape for the same itemsize,
 * else the contiguous last axis holds as many new elements as fit its bytes (NG_ERR_VALUE with
 * NumPy's messages where they do not; NG_ERR_UNSUPPORTED for memory not aligned to dt). */
NgStatus ng_array_view_as(const NgArray *a, NgDType dt, NgArray *out);
void ng_array_release(NgArray *a); /* drops the buffer reference; zeroes a */
/* The real (imag: imaginary) parts of complex array a as a view of its real
 * dtype sharing a's buffer: NumPy's a.real / a.imag. */
void ng_array_part(const NgArray *a, bool imag, NgArray *out);
static inline void *ng_array_data(const NgArray *a) { return (char *)a->buf->data + a->offset; }
static inline NgDevice *ng_array_device(const NgArray *a) { return a->buf->device; }
static inline int ng_array_itemsize(const NgArray *a) { return ng_dtype_info(a->dtype)->itemsize; }
bool ng_array_is_c_contiguous(const NgArray *a);
bool ng_array_is_f_contiguous(const NgArray *a);
/* Sets C-contiguous strides for a's shape and dtype; recomputes size. */
void ng_array_set_contiguous_strides(NgArray *a);
/* Byte range [lo, hi) of the buffer that a's elements touch, relative to buf->data. */
void ng_array_byte_extent(const NgArray *a, int64_t *lo, int64_t *hi);
/* True if a and b may share memory (same buffer, overlapping extents). */
bool ng_array_may_overlap(const NgArray *a, const NgArray *b);

/* Host <-> device copies of a whole array. `host` is laid out with the given
 * byte strides (NULL: C-contiguous). */
NgStatus ng_array_upload(NgArray *dst, const void *host, const int64_t *host_strides);
NgStatus ng_array_download(const NgArray *src, void *host, const int64_t *host_strides);

/* ---- floating-point errors (NumPy's errstate) -------------------------- */

/* Floating-point error categories, NumPy's bits (UFUNC_FPE_*). The device
 * kernels have no IEEE flags to read: the elementwise ops judge them from
 * values (src/ops/elementwise.c, fpe_bits) and record what they saw here. */
enum {
    NG_FPE_DIVIDE = 1,    /* divide by zero: a finite nonzero / 0, log(0), integer // 0 */
    NG_FPE_OVERFLOW = 2,  /* an infinity from finite operands; INT_MIN // -1 */
    NG_FPE_UNDERFLOW = 4, /* (never reported: NumPy's default ignores it) */
    NG_FPE_INVALID = 8,   /* a NaN from non-NaN operands; NaN or out-of-range float cast to int */
};

/* The categories the ops on this thread check from now on (0: none, the
 * kernels without the check). The binding sets them from NumPy's errstate
 * around each call and clears them after. `deferrable`: every one of them
 * only warns, so a device outside host memory may read its flag words at
 * the next download or sync instead of after each kernel (ng_fpe_defer).
 * `name`: the ufunc name the ops' records take (NULL: each op's own, casts
 * "cast"): np.power(x, 2) runs the square kernel and NumPy names it power. */
void ng_fpe_set_mask(unsigned mask, bool deferrable, const char *name);
unsigned ng_fpe_mask(void);
/* The name an op's record takes: the one set with the mask, else `own`. */
const char *ng_fpe_name(const char *own);
/* An op saw `flags` (NG_FPE_*, already masked) while computing ufunc `name`
 * (static storage: "divide", "cast"); kept for ng_fpe_take, in order, the
 * flags of one name ORed together. */
void ng_fpe_record(unsigned flags, const char *name);
/* The oldest record not yet taken on this thread: true with *flags, *name
 * and *deferred (read by a later ng_fpe_flush, not by the op's own call)
 * set, false when there is none. */
bool ng_fpe_take(unsigned *flags, const char **name, bool *deferred);
/* Drops this thread's records. */
void ng_fpe_clear(void);
/* True when a kernel on dev may leave its flag word to be read later (the
 * thread's checks are deferrable and dev is outside host memory). */
bool ng_fpe_deferrable(const NgDevice *dev);
/* *word (a new reference): a zeroed int32 of dev's pending flag words for
 * one kernel of ufunc `name` judging `cats`; read by ng_fpe_flush (at the
 * latest when the words run out). */
NgStatus ng_fpe_defer(NgDevice *dev, unsigned cats, const char *name, NgArray *word);
/* Reads dev's pending flag words (waiting for their kernels) into this
 * thread's records, marked deferred; every download from dev and every
 * sync of it calls it first. */
NgStatus ng_fpe_flush(const NgDevice *dev);

/* ---- shapes ---------------------------------------------------------- */

/* Broadcasts n shapes (NumPy rules); `out` gets the result shape. The error
 * names the shapes. */
NgStatus ng_shape_broadcast(int n, const int *ndims, const int64_t *const *shapes,
                            int *out_ndim, int64_t *out_shape);
/* Formats a shape as NumPy does: "(3, 4)", "(5,)". Returns buf. */
char *ng_shape_format(int ndim, const int64_t *shape, char *buf, size_t len);
/* Normalises a possibly negative axis; NG_ERR_AXIS names it. */
NgStatus ng_axis_normalize(int *axis, int ndim);

#ifdef __cplusplus
}
#endif
#endif
