/* The cuda backend: NVIDIA GPUs through the driver API (libcuda.so.1) and
 * NVRTC (libnvrtc), both loaded at run time through symbol tables, so the
 * build needs no CUDA SDK and runs on machines without a GPU. One primary
 * context per device, the default stream. Kernels come from the emitter's
 * CUDA target and are compiled by NVRTC for the device's own architecture
 * (sm_XY from its compute capability); when NVRTC does not know that
 * architecture, PTX for the newest one it knows, which the driver JITs.
 *
 * ng_cuda_nvrtc_compile() works without a GPU: CI uses it to compile every
 * generated kernel for sm_90. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/staging.h"
#include "core/core.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef size_t (*CUoccupancyB2DSize)(int);

/* Kernels run on the calling thread's own default stream, so threads do not
 * serialise each other's launches. It is a blocking stream: the plain
 * (legacy default stream) copies and the staged copies, which use the legacy
 * stream, still wait for every thread's kernels, and cuCtxSynchronize waits
 * for all of them. */
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)
typedef unsigned long long CUdeviceptr;
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
    CU_MEM_ATTACH_GLOBAL = 1,
    CU_MEM_ADVISE_SET_PREFERRED_LOCATION = 3,
    CU_MEM_ADVISE_SET_ACCESSED_BY = 5,
    CU_DEVICE_CPU = -1,
};

#define CU_SYMBOLS(X) \
    X(cuInit, CUresult, (unsigned)) \
    X(cuDriverGetVersion, CUresult, (int *)) \
    X(cuDeviceGetCount, CUresult, (int *)) \
    X(cuDeviceGet, CUresult, (CUdevice *, int)) \
    X(cuDeviceGetName, CUresult, (char *, int, CUdevice)) \
    X(cuDeviceGetAttribute, CUresult, (int *, int, CUdevice)) \
    X(cuDeviceTotalMem_v2, CUresult, (size_t *, CUdevice)) \
    X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *, CUdevice)) \
    X(cuCtxSetCurrent, CUresult, (CUcontext)) \
    X(cuCtxSynchronize, CUresult, (void)) \
    X(cuMemAlloc_v2, CUresult, (CUdeviceptr *, size_t)) \
    X(cuMemFree_v2, CUresult, (CUdeviceptr)) \
    X(cuMemGetInfo_v2, CUresult, (size_t *, size_t *)) \
    X(cuMemcpyHtoD_v2, CUresult, (CUdeviceptr, const void *, size_t)) \
    X(cuMemcpyDtoH_v2, CUresult, (void *, CUdeviceptr, size_t)) \
    X(cuMemHostAlloc, CUresult, (void **, size_t, unsigned)) \
    X(cuMemcpyHtoDAsync_v2, CUresult, (CUdeviceptr, const void *, size_t, CUstream)) \
    X(cuMemcpyDtoHAsync_v2, CUresult, (void *, CUdeviceptr, size_t, CUstream)) \
    X(cuEventCreate, CUresult, (CUevent *, unsigned)) \
    X(cuEventRecord, CUresult, (CUevent, CUstream)) \
    X(cuEventSynchronize, CUresult, (CUevent)) \
    X(cuStreamSynchronize, CUresult, (CUstream)) \
    X(cuOccupancyMaxPotentialBlockSize, CUresult, (int *, int *, CUfunction, CUoccupancyB2DSize, size_t, int)) \
    X(cuModuleLoadData, CUresult, (CUmodule *, const void *)) \
    X(cuModuleGetFunction, CUresult, (CUfunction *, CUmodule, const char *)) \
    X(cuLaunchKernel, CUresult, (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
                                 unsigned, CUstream, void **, void **)) \
    X(cuGetErrorName, CUresult, (CUresult, const char **))

/* Entry points numgpu does without (NULL where the driver lacks them). */
#define CU_OPTIONAL_SYMBOLS(X) \
    X(cuMemAllocManaged, CUresult, (CUdeviceptr *, size_t, unsigned)) \
    X(cuMemAdvise, CUresult, (CUdeviceptr, size_t, int, CUdevice))

#define NVRTC_SYMBOLS(X) \
    X(nvrtcVersion, nvrtcResult, (int *, int *)) \
    X(nvrtcGetErrorString, const char *, (nvrtcResult)) \
    X(nvrtcCreateProgram, nvrtcResult, (nvrtcProgram *, const char *, const char *, int, const char *const *, \
                                        const char *const *)) \
    X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *)) \
    X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *)) \
    X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *)) \
    X(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram, size_t *)) \
    X(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram, char *)) \
    X(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram, size_t *)) \
    X(nvrtcGetPTX, nvrtcResult, (nvrtcProgram, char *)) \
    X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *))

static struct {
#define DECLARE(name, ret, params) ret (*name) params;
    CU_SYMBOLS(DECLARE)
    CU_OPTIONAL_SYMBOLS(DECLARE)
    NVRTC_SYMBOLS(DECLARE)
#undef DECLARE
} cu;

static pthread_once_t cu_once = PTHREAD_ONCE_INIT, nvrtc_once = PTHREAD_ONCE_INIT;
static char cu_error[400], nvrtc_error[600];
static int nvrtc_major, nvrtc_minor;

static void load_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(cu_error, sizeof cu_error, "libcuda.so.1 not found: no NVIDIA driver is installed "
                 "(install the NVIDIA driver for your GPU; besides it numgpu needs NVRTC only: the CUDA toolkit or pip install nvidia-cuda-nvrtc-cu12)");
        return;
    }
#define LOAD(name, ret, params) \
    if (!(cu.name = (ret(*) params)dlsym(h, #name))) { \
        snprintf(cu_error, sizeof cu_error, "libcuda.so.1 lacks %s: the NVIDIA driver is too old", #name); \
        return; \
    }
    CU_SYMBOLS(LOAD)
#undef LOAD
#define LOAD_OPTIONAL(name, ret, params) cu.name = (ret(*) params)dlsym(h, #name);
    CU_OPTIONAL_SYMBOLS(LOAD_OPTIONAL)
#undef LOAD_OPTIONAL
}

/* NVRTC from $NUMGPU_NVRTC_PATH (set by the Python package when it finds
 * the nvidia-cuda-nvrtc wheel), $CUDA_HOME, the usual install folders, or
 * the loader's path. */
static void load_nvrtc(void)
{
    static const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
    const char *dirs[4] = {getenv("NUMGPU_NVRTC_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda", NULL};
    void *h = NULL;
    char path[512];
    for (int d = 0; d < 4 && !h; d++) {
        for (size_t n = 0; n < sizeof names / sizeof *names && !h; n++) {
            if (d < 3 && (!dirs[d] || !*dirs[d]))
                continue;
            if (d == 0)
                snprintf(path, sizeof path, "%s/%s", dirs[d], names[n]);
            else if (d < 3)
                snprintf(path, sizeof path, "%s/lib64/%s", dirs[d], names[n]);
            else
                snprintf(path, sizeof path, "%s", names[n]);
            h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (!h) {
        snprintf(nvrtc_error, sizeof nvrtc_error, "libnvrtc.so not found (looked in $NUMGPU_NVRTC_PATH, "
                 "$CUDA_HOME/lib64, /usr/local/cuda/lib64 and the loader path); install it with "
                 "pip install nvidia-cuda-nvrtc-cu12 (or the CUDA toolkit)");
        return;
    }
#define LOAD(name, ret, params) \
    if (!(cu.name = (ret(*) params)dlsym(h, #name))) { \
        snprintf(nvrtc_error, sizeof nvrtc_error, "%s lacks %s", path, #name); \
        return; \
    }
    NVRTC_SYMBOLS(LOAD)
#undef LOAD
    cu.nvrtcVersion(&nvrtc_major, &nvrtc_minor);
}

static const char *cu_name(CUresult r)
{
    const char *s = NULL;
    if (cu.cuGetErrorName)
        cu.cuGetErrorName(r, &s);
    return s ? s : "CUDA_ERROR_UNKNOWN";
}

static NgStatus cu_fail(CUresult r, const char *doing)
{
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return ng_error_set(NG_ERR_DEVICE_OOM, "cuda: out of memory %s", doing);
    return ng_error_set(NG_ERR_DEVICE, "cuda: %s failed: %s (%d)", doing, cu_name(r), r);
}

typedef struct CuState {
    CUdevice device;
    CUcontext ctx;
    int cc_major, cc_minor;     /* compute capability */
    int sms;                    /* multiprocessors */
    int driver_version;         /* e.g. 12040 */
    bool pageable;              /* kernels may use managed memory beyond the device's own */
    char id[200];               /* device, capability, driver, NVRTC: part of cache keys */
    struct cublasContext *blas; /* cuBLAS handle, made on first matmul */
    pthread_mutex_t stage_lock; /* guards the staging buffers */
    unsigned char *stage;       /* NG_STAGE_BUFS pinned buffers of NG_STAGE_CHUNK bytes, or NULL */
    CUevent stage_done[NG_STAGE_BUFS]; /* the last copy through each buffer */
    bool stage_failed;          /* pinned memory was refused: copy directly */
} CuState;

/* A loaded kernel: its function and the launch shape the occupancy
 * calculator gives for it, found once when it is loaded. */
typedef struct CuKernel {
    CUfunction fn;
    int block;    /* threads per block that maximise occupancy (multiple of 32) */
    int min_grid; /* blocks that fill the device at that size */
} CuKernel;

static NgStatus cuda_open(NgDevice *dev, int index)
{
    pthread_once(&cu_once, load_driver);
    if (cu_error[0])
        return ng_error_set(NG_ERR_DEVICE, "cuda: %s", cu_error);
    CUresult r = cu.cuInit(0);
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "initialising the driver (cuInit)");
    int count = 0;
    cu.cuDeviceGetCount(&count);
    int pick = index < 0 ? 0 : index;
    if (pick >= count)
        return ng_error_set(count ? NG_ERR_VALUE : NG_ERR_DEVICE, "cuda:%d does not exist: %d CUDA device%s found",
                            pick, count, count == 1 ? "" : "s");
    pthread_once(&nvrtc_once, load_nvrtc);
    if (nvrtc_error[0])
        return ng_error_set(NG_ERR_DEVICE, "cuda: %s", nvrtc_error);
    CuState *s = ng_calloc(1, sizeof *s);
    if (!s)
        return ng_error_set(NG_ERR_NOMEM, "out of memory opening a CUDA device");
    cu.cuDeviceGet(&s->device, pick);
    cu.cuDeviceGetAttribute(&s->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s->device);
    cu.cuDeviceGetAttribute(&s->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s->device);
    cu.cuDeviceGetAttribute(&s->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, s->device);
    cu.cuDriverGetVersion(&s->driver_version);
    int concurrent = 0;
    cu.cuDeviceGetAttribute(&concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, s->device);
    s->pageable = concurrent && cu.cuMemAllocManaged;
    r = cu.cuDevicePrimaryCtxRetain(&s->ctx, s->device);
    if (r != CUDA_SUCCESS) {
        ng_free(s);
        return cu_fail(r, "retaining the primary context");
    }
    char name[128] = "";
    cu.cuDeviceGetName(name, sizeof name, s->device);
    snprintf(s->id, sizeof s->id, "%.100s|sm_%d%d|driver %d|nvrtc %d.%d", name, s->cc_major, s->cc_minor,
             s->driver_version, nvrtc_major, nvrtc_minor);
    snprintf(dev->name, sizeof dev->name, "cuda:%d", pick);
    size_t total = 0;
    cu.cuDeviceTotalMem_v2(&total, s->device);
    snprintf(dev->description, sizeof dev->description, "%.80s (sm_%d%d, %.1f GiB, driver CUDA %d.%d, NVRTC %d.%d)",
             name, s->cc_major, s->cc_minor, total / 1073741824.0, s->driver_version / 1000,
             (s->driver_version % 1000) / 10, nvrtc_major, nvrtc_minor);
    pthread_mutex_init(&s->stage_lock, NULL);
    dev->gpu = true;
    dev->state = s;
    return NG_OK;
}

static NgStatus current(NgDevice *dev)
{
    CUresult r = cu.cuCtxSetCurrent(((CuState *)dev->state)->ctx);
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "making the context current");
}

static NgStatus cuda_alloc(NgDevice *dev, size_t nbytes, void **ptr)
{
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    CUdeviceptr p = 0;
    CUresult r = cu.cuMemAlloc_v2(&p, nbytes ? nbytes : 256);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free_b = 0, total = 0;
        cu.cuMemGetInfo_v2(&free_b, &total);
        return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on %s: %zu bytes requested, %zu free of %zu",
                            dev->name, nbytes, free_b, total);
    }
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "allocating device memory");
    *ptr = (void *)(uintptr_t)p;
    return NG_OK;
}

/* Device memory is full: managed memory kept in host memory (its preferred
 * location) and mapped for the device, whose kernels read and write it over
 * the bus instead of page-faulting it across; the device's own memory stays
 * for the arrays that fit. Needs on-demand paging (Linux, Pascal or newer):
 * elsewhere managed memory cannot exceed the device's. */
static NgStatus cuda_alloc_overflow(NgDevice *dev, size_t nbytes, void **ptr)
{
    CuState *s = dev->state;
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    if (!s->pageable)
        return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on %s (no managed memory beyond the device's)",
                            dev->name);
    CUdeviceptr p = 0;
    CUresult r = cu.cuMemAllocManaged(&p, nbytes ? nbytes : 256, CU_MEM_ATTACH_GLOBAL);
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "allocating managed memory");
    if (cu.cuMemAdvise) { /* hints: a failure only costs speed */
        cu.cuMemAdvise(p, nbytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU);
        cu.cuMemAdvise(p, nbytes, CU_MEM_ADVISE_SET_ACCESSED_BY, s->device);
    }
    *ptr = (void *)(uintptr_t)p;
    return NG_OK;
}

static void cuda_free(NgDevice *dev, void *ptr, size_t nbytes)
{
    if (current(dev) == NG_OK)
        cu.cuMemFree_v2((CUdeviceptr)(uintptr_t)ptr);
}

/* The staging buffers (the caller holds stage_lock): made on first use and
 * kept; false if pinned memory is not to be had (then copies go directly). */
static bool stage_ready(CuState *s)
{
    if (s->stage || s->stage_failed)
        return s->stage != NULL;
    void *p = NULL;
    bool ok = cu.cuMemHostAlloc(&p, NG_STAGE_CHUNK * NG_STAGE_BUFS, 0) == CUDA_SUCCESS;
    for (int b = 0; ok && b < NG_STAGE_BUFS; b++)
        ok = cu.cuEventCreate(&s->stage_done[b], 0) == CUDA_SUCCESS;
    s->stage = ok ? p : NULL;
    s->stage_failed = !ok;
    return ok;
}

/* Host -> device through the pinned buffers: the host copies piece i into
 * buffer i % NG_STAGE_BUFS (after that buffer's previous DMA is done) while
 * the DMA of piece i - 1 runs. Returns when all of it has arrived. */
static CUresult staged_upload(CuState *s, CUdeviceptr dst, const unsigned char *src, size_t nbytes)
{
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; r == CUDA_SUCCESS && i < ng_stage_pieces(nbytes, NG_STAGE_CHUNK); i++) {
        size_t off, len = ng_stage_piece(nbytes, NG_STAGE_CHUNK, i, &off);
        int b = (int)(i % NG_STAGE_BUFS);
        unsigned char *buf = s->stage + (size_t)b * NG_STAGE_CHUNK;
        if (i >= NG_STAGE_BUFS)
            r = cu.cuEventSynchronize(s->stage_done[b]);
        if (r == CUDA_SUCCESS) {
            memcpy(buf, src + off, len);
            r = cu.cuMemcpyHtoDAsync_v2(dst + off, buf, len, CU_STREAM_LEGACY);
        }
        if (r == CUDA_SUCCESS)
            r = cu.cuEventRecord(s->stage_done[b], CU_STREAM_LEGACY);
    }
    CUresult r2 = cu.cuStreamSynchronize(CU_STREAM_LEGACY);
    return r != CUDA_SUCCESS ? r : r2;
}

/* Device -> host through the pinned buffers: the DMA of piece i + 1 runs
 * while the host copies piece i out of its buffer. */
static CUresult staged_download(CuState *s, unsigned char *dst, CUdeviceptr src, size_t nbytes)
{
    size_t n = ng_stage_pieces(nbytes, NG_STAGE_CHUNK), off, len;
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; r == CUDA_SUCCESS && i < n && i < NG_STAGE_BUFS; i++) { /* start the first pieces */
        len = ng_stage_piece(nbytes, NG_STAGE_CHUNK, i, &off);
        r = cu.cuMemcpyDtoHAsync_v2(s->stage + i * NG_STAGE_CHUNK, src + off, len, CU_STREAM_LEGACY);
        if (r == CUDA_SUCCESS)
            r = cu.cuEventRecord(s->stage_done[i], CU_STREAM_LEGACY);
    }
    for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
        int b = (int)(i % NG_STAGE_BUFS);
        unsigned char *buf = s->stage + (size_t)b * NG_STAGE_CHUNK;
        len = ng_stage_piece(nbytes, NG_STAGE_CHUNK, i, &off);
        r = cu.cuEventSynchronize(s->stage_done[b]);
        if (r != CUDA_SUCCESS)
            break;
        memcpy(dst + off, buf, len);
        size_t next = i + NG_STAGE_BUFS; /* the buffer is free again: its next piece */
        if (next < n) {
            size_t noff, nlen = ng_stage_piece(nbytes, NG_STAGE_CHUNK, next, &noff);
            r = cu.cuMemcpyDtoHAsync_v2(buf, src + noff, nlen, CU_STREAM_LEGACY);
            if (r == CUDA_SUCCESS)
                r = cu.cuEventRecord(s->stage_done[b], CU_STREAM_LEGACY);
        }
    }
    CUresult r2 = cu.cuStreamSynchronize(CU_STREAM_LEGACY);
    return r != CUDA_SUCCESS ? r : r2;
}

/* Copies of NG_STAGE_MIN bytes or more go through reused pinned buffers
 * (pageable copies reach a fraction of the bus's speed); smaller ones, or
 * all when pinned memory is refused, directly. */
static NgStatus cuda_upload(NgDevice *dev, void *dst, size_t offset, const void *src, size_t nbytes)
{
    CuState *s = dev->state;
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    CUdeviceptr to = (CUdeviceptr)(uintptr_t)dst + offset;
    CUresult r;
    if (nbytes >= NG_STAGE_MIN) {
        pthread_mutex_lock(&s->stage_lock);
        r = stage_ready(s) ? staged_upload(s, to, src, nbytes) : cu.cuMemcpyHtoD_v2(to, src, nbytes);
        pthread_mutex_unlock(&s->stage_lock);
    } else {
        r = cu.cuMemcpyHtoD_v2(to, src, nbytes);
    }
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "copying to the device");
}

static NgStatus cuda_download(NgDevice *dev, void *dst, const void *src, size_t offset, size_t nbytes)
{
    CuState *s = dev->state;
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    CUdeviceptr from = (CUdeviceptr)(uintptr_t)src + offset;
    CUresult r;
    if (nbytes >= NG_STAGE_MIN) {
        pthread_mutex_lock(&s->stage_lock);
        r = stage_ready(s) ? staged_download(s, dst, from, nbytes) : cu.cuMemcpyDtoH_v2(dst, from, nbytes);
        pthread_mutex_unlock(&s->stage_lock);
    } else {
        r = cu.cuMemcpyDtoH_v2(dst, from, nbytes);
    }
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "copying from the device");
}

NgStatus ng_cuda_nvrtc_compile(const char *source, const char *name, const char *arch, bool ptx, char **image,
                               size_t *size)
{
    pthread_once(&nvrtc_once, load_nvrtc);
    if (nvrtc_error[0])
        return ng_error_set(NG_ERR_DEVICE, "cuda: %s", nvrtc_error);
    nvrtcProgram prog;
    nvrtcResult r = cu.nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL);
    if (r != 0)
        return ng_error_set(NG_ERR_DEVICE, "cuda: nvrtcCreateProgram failed: %s", cu.nvrtcGetErrorString(r));
    char opt_arch[64];
    snprintf(opt_arch, sizeof opt_arch, "--gpu-architecture=%s", arch);
    /* no fused multiply-add: results round as NumPy's do */
    const char *opts[] = {opt_arch, "--std=c++17", "-default-device", "--fmad=false"};
    r = cu.nvrtcCompileProgram(prog, 4, opts);
    NgStatus st = NG_OK;
    if (r != 0) {
        size_t len = 0;
        cu.nvrtcGetProgramLogSize(prog, &len);
        char *log = ng_malloc(len + 1);
        if (log) {
            log[0] = 0;
            cu.nvrtcGetProgramLog(prog, log);
            log[len] = 0;
        }
        ng_error_set_log(log);
        st = ng_error_set(NG_ERR_COMPILE, "cuda: kernel %s failed to compile with NVRTC %d.%d for %s: %s\n%.600s",
                          name, nvrtc_major, nvrtc_minor, arch, cu.nvrtcGetErrorString(r), log ? log : "");
        ng_free(log);
    } else if (image) {
        r = ptx ? cu.nvrtcGetPTXSize(prog, size) : cu.nvrtcGetCUBINSize(prog, size);
        *image = r == 0 ? ng_malloc(*size) : NULL;
        if (!*image || (ptx ? cu.nvrtcGetPTX(prog, *image) : cu.nvrtcGetCUBIN(prog, *image)) != 0) {
            ng_free(*image);
            *image = NULL;
            st = ng_error_set(NG_ERR_DEVICE, "cuda: cannot read NVRTC output for %s", name);
        }
    }
    cu.nvrtcDestroyProgram(&prog);
    return st;
}

NgStatus ng_cuda_driver_version(int *version)
{
    pthread_once(&cu_once, load_driver);
    if (cu_error[0])
        return ng_error_set(NG_ERR_DEVICE, "cuda: %s", cu_error);
    CUresult r = cu.cuDriverGetVersion(version);
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "asking the driver its version");
}

const char *ng_cuda_nvrtc_version(void)
{
    static char v[32];
    pthread_once(&nvrtc_once, load_nvrtc);
    if (nvrtc_error[0])
        return NULL;
    snprintf(v, sizeof v, "%d.%d", nvrtc_major, nvrtc_minor);
    return v;
}

static NgStatus cuda_compile(NgDevice *dev, const char *source, const char *name, const char *out_path)
{
    CuState *s = dev->state;
    char arch[32];
    snprintf(arch, sizeof arch, "sm_%d%d", s->cc_major, s->cc_minor);
    char *image = NULL;
    size_t size = 0;
    NgStatus st = ng_cuda_nvrtc_compile(source, name, arch, false, &image, &size);
    if (st == NG_ERR_COMPILE && strstr(ng_error_log(), "invalid value for --gpu-architecture")) {
        /* NVRTC older than the GPU: PTX for the newest architecture it has; the driver JITs it. */
        st = ng_cuda_nvrtc_compile(source, name, "compute_90", true, &image, &size);
    }
    if (st != NG_OK)
        return st;
    FILE *f = fopen(out_path, "wb");
    if (!f || fwrite(image, 1, size, f) != size)
        st = ng_error_set(NG_ERR_DEVICE, "cuda: cannot write %s", out_path);
    if (f)
        fclose(f);
    ng_free(image);
    return st;
}

static NgStatus cuda_load(NgDevice *dev, const char *path, const char *name, void **module)
{
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    size_t size = 0;
    char *image = ng_file_read(path, &size); /* NUL-terminated: PTX is text */
    if (!image)
        return ng_error_set(NG_ERR_DEVICE, "cuda: cannot read %s", path);
    CUmodule mod;
    CUresult r = cu.cuModuleLoadData(&mod, image);
    ng_free(image);
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "loading a compiled kernel (the driver may be older than NVRTC: update the "
                          "NVIDIA driver or install an NVRTC matching it)");
    CUfunction fn;
    r = cu.cuModuleGetFunction(&fn, mod, name);
    if (r != CUDA_SUCCESS)
        return cu_fail(r, "finding a kernel in its module");
    CuKernel *kern = ng_calloc(1, sizeof *kern);
    if (!kern)
        return ng_error_set(NG_ERR_NOMEM, "out of memory loading a kernel");
    kern->fn = fn;
    /* the block size that maximises occupancy for this kernel's registers;
     * 256 and 8 blocks per multiprocessor where the calculator says nothing */
    if (cu.cuOccupancyMaxPotentialBlockSize(&kern->min_grid, &kern->block, fn, NULL, 0, 1024) != CUDA_SUCCESS ||
        kern->block < 32 || kern->min_grid < 1) {
        kern->block = 256;
        kern->min_grid = (((CuState *)dev->state)->sms > 0 ? ((CuState *)dev->state)->sms : 1) * 8;
    }
    kern->block -= kern->block % 32;
    *module = kern; /* kernels live until exit */
    return NG_OK;
}

enum { MAXARGS = 512 };

/* The kernel's parameter slots: each argument in its own 8-byte slot (a
 * float32 narrowed in place), then the work count. */
static NgStatus pack_args(const NgKArg *args, const uint8_t *kinds, int nargs, int64_t work, NgKArg *slots,
                          void **params)
{
    if (nargs + 1 > MAXARGS)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cuda: kernel with %d arguments", nargs);
    for (int i = 0; i < nargs; i++) {
        slots[i] = args[i];
        if (kinds[i] == NG_ARG_F32) {
            float f = (float)args[i].f;
            memcpy(&slots[i], &f, sizeof f);
        }
        params[i] = &slots[i];
    }
    slots[nargs].i = work;
    params[nargs] = &slots[nargs];
    return NG_OK;
}

static NgStatus cuda_launch(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                            int64_t extent, int64_t work)
{
    const CuKernel *kern = module;
    NgStatus st = current(dev);
    NgKArg slots[MAXARGS];
    void *params[MAXARGS];
    if (st == NG_OK)
        st = pack_args(args, kinds, nargs, work, slots, params);
    if (st != NG_OK)
        return st;
    /* Blocks of the occupancy calculator's size; a grid of up to four waves
     * of them (grid-stride loops take the rest). A smaller extent gets whole
     * warps (block reductions shuffle across whole warps). A kernel with no
     * parallel loop comes with extent 1: one thread runs it (every thread of
     * a block would run its whole body). */
    int64_t threads = extent <= 1 ? 1 : extent < kern->block ? (extent + 31) / 32 * 32 : kern->block;
    int64_t blocks = (extent + threads - 1) / threads;
    int64_t cap = (int64_t)kern->min_grid * 4;
    if (blocks > cap)
        blocks = cap;
    if (blocks < 1)
        blocks = 1;
    CUresult r = cu.cuLaunchKernel(kern->fn, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1, 0, CU_STREAM_PER_THREAD,
                                   params, NULL);
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "launching a kernel");
}

/* A block-level kernel: exactly `blocks` blocks of `threads` threads, or the
 * occupancy calculator's size where smaller (a multiple of 32 either way:
 * its block reductions shuffle across whole warps). */
static NgStatus cuda_launch_blocks(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                                   int64_t blocks, int threads, int64_t work)
{
    NgStatus st = current(dev);
    NgKArg slots[MAXARGS];
    void *params[MAXARGS];
    if (st == NG_OK)
        st = pack_args(args, kinds, nargs, work, slots, params);
    if (st != NG_OK)
        return st;
    const CuKernel *kern = module;
    if (threads > kern->block) /* a kernel heavy on registers runs fewer threads per block */
        threads = kern->block;
    if (threads < 32 || threads % 32 != 0 || blocks < 1 || blocks > INT32_MAX)
        return ng_error_set(NG_ERR_INTERNAL, "cuda: bad block launch (%lld x %d)", (long long)blocks, threads);
    CUresult r = cu.cuLaunchKernel(kern->fn, (unsigned)blocks, 1, 1, (unsigned)threads, 1, 1,
                                   0, CU_STREAM_PER_THREAD, params, NULL);
    return r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "launching a kernel");
}

static NgStatus cuda_sync(NgDevice *dev)
{
    NgStatus st = current(dev);
    CUresult r = st == NG_OK ? cu.cuCtxSynchronize() : 0;
    return st != NG_OK ? st : r == CUDA_SUCCESS ? NG_OK : cu_fail(r, "waiting for the device");
}

/* ---- cuBLAS (optional: matmul falls back to a generated kernel) ---- */

typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
enum { CUBLAS_OP_N = 0 };
typedef struct { float x, y; } CuComplex;        /* cuComplex: NumPy's complex64 layout */
typedef struct { double x, y; } CuDoubleComplex; /* cuDoubleComplex: complex128 */

#define CUBLAS_SYMBOLS(X) \
    X(cublasCreate_v2, cublasStatus_t, (cublasHandle_t *)) \
    X(cublasSgemmStridedBatched, cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const float *, \
        const float *, int, long long, const float *, int, long long, const float *, float *, int, long long, int)) \
    X(cublasDgemmStridedBatched, cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const double *, \
        const double *, int, long long, const double *, int, long long, const double *, double *, int, long long, int)) \
    X(cublasCgemmStridedBatched, cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const CuComplex *, \
        const CuComplex *, int, long long, const CuComplex *, int, long long, const CuComplex *, CuComplex *, int, \
        long long, int)) \
    X(cublasZgemmStridedBatched, cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const CuDoubleComplex *, \
        const CuDoubleComplex *, int, long long, const CuDoubleComplex *, int, long long, const CuDoubleComplex *, \
        CuDoubleComplex *, int, long long, int))

static struct {
#define DECLARE(name, ret, params) ret (*name) params;
    CUBLAS_SYMBOLS(DECLARE)
#undef DECLARE
} blas;

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;
static bool blas_ok;
/* cublasDgeam (C = alpha op(A) + beta op(B)), for the transposes around cuSOLVER's column-major
 * solvers; NULL where the library lacks it */
typedef cublasStatus_t (*BlasGeam)(cublasHandle_t, int, int, int, int, const double *, const double *, int,
                                   const double *, const double *, int, double *, int);
static BlasGeam blas_geam;

/* dlopen of the first of `names` found in $env_dir, $CUDA_HOME/lib64,
 * /usr/local/cuda/lib64, then the system's search path; NULL if none. */
static void *open_vendor_lib(const char *env_dir, const char *const *names, size_t nnames)
{
    const char *dirs[3] = {getenv(env_dir), getenv("CUDA_HOME"), "/usr/local/cuda"};
    void *h = NULL;
    char path[512];
    for (int d = 0; d < 4 && !h; d++)
        for (size_t n = 0; n < nnames && !h; n++) {
            if (d < 3 && (!dirs[d] || !*dirs[d]))
                continue;
            if (d == 0)
                snprintf(path, sizeof path, "%s/%s", dirs[0], names[n]);
            else if (d < 3)
                snprintf(path, sizeof path, "%s/lib64/%s", dirs[d], names[n]);
            else
                snprintf(path, sizeof path, "%s", names[n]);
            h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        }
    return h;
}

static void load_cublas(void)
{
    static const char *const names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11"};
    void *h = open_vendor_lib("NUMGPU_CUBLAS_PATH", names, sizeof names / sizeof *names);
    if (!h)
        return;
#define LOAD(name, ret, params) \
    if (!(blas.name = (ret(*) params)dlsym(h, #name))) \
        return;
    CUBLAS_SYMBOLS(LOAD)
#undef LOAD
    blas_ok = true;
    blas_geam = (BlasGeam)dlsym(h, "cublasDgeam"); /* optional: only the eigen/SVD solvers use it */
}

/* Row-major C = A @ B is column-major C^T = B^T A^T: cuBLAS gets B first. */
static NgStatus cuda_gemm(NgDevice *dev, NgDType dt, int trans, int64_t batch, int64_t n, int64_t m, int64_t k,
                          const void *A, size_t a_off, int64_t lda, int64_t a_bs,
                          const void *B, size_t b_off, int64_t ldb, int64_t b_bs,
                          void *C, size_t c_off, int64_t ldc, int64_t c_bs)
{
    CuState *s = dev->state;
    pthread_once(&blas_once, load_cublas);
    /* (a vector operand, n or m of 1, stays with the generated kernel's dot; a transposed one is
     * copied by the caller first) */
    if (!blas_ok || (dt != NG_FLOAT32 && dt != NG_FLOAT64 && dt != NG_COMPLEX64 && dt != NG_COMPLEX128) || n == 1 ||
        m == 1 || trans || n > INT32_MAX || m > INT32_MAX || k > INT32_MAX ||
        lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX || batch > INT32_MAX)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cuBLAS not available for this product");
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    if (!s->blas && blas.cublasCreate_v2(&s->blas) != 0)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cublasCreate failed");
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)A + a_off, b = (CUdeviceptr)(uintptr_t)B + b_off,
                c = (CUdeviceptr)(uintptr_t)C + c_off;
    cublasStatus_t r;
    if (dt == NG_FLOAT32) {
        const float one = 1, zero = 0;
        r = blas.cublasSgemmStridedBatched(s->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one,
                                           (const float *)(uintptr_t)b, (int)ldb, b_bs, (const float *)(uintptr_t)a,
                                           (int)lda, a_bs, &zero, (float *)(uintptr_t)c, (int)ldc, c_bs, (int)batch);
    } else if (dt == NG_FLOAT64) {
        const double one = 1, zero = 0;
        r = blas.cublasDgemmStridedBatched(s->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one,
                                           (const double *)(uintptr_t)b, (int)ldb, b_bs, (const double *)(uintptr_t)a,
                                           (int)lda, a_bs, &zero, (double *)(uintptr_t)c, (int)ldc, c_bs, (int)batch);
    } else if (dt == NG_COMPLEX64) {
        const CuComplex one = {1, 0}, zero = {0, 0};
        r = blas.cublasCgemmStridedBatched(s->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one,
                                           (const CuComplex *)(uintptr_t)b, (int)ldb, b_bs,
                                           (const CuComplex *)(uintptr_t)a, (int)lda, a_bs, &zero,
                                           (CuComplex *)(uintptr_t)c, (int)ldc, c_bs, (int)batch);
    } else {
        const CuDoubleComplex one = {1, 0}, zero = {0, 0};
        r = blas.cublasZgemmStridedBatched(s->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one,
                                           (const CuDoubleComplex *)(uintptr_t)b, (int)ldb, b_bs,
                                           (const CuDoubleComplex *)(uintptr_t)a, (int)lda, a_bs, &zero,
                                           (CuDoubleComplex *)(uintptr_t)c, (int)ldc, c_bs, (int)batch);
    }
    return r == 0 ? NG_OK : ng_error_set(NG_ERR_DEVICE, "cuda: cuBLAS gemm failed (status %d)", r);
}

/* ---- cuSOLVER (optional: linalg falls back to NumPy) ---- */

typedef struct cusolverDnContext *cusolverDnHandle_t;
enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_OP_T = 1 };

#define CUSOLVER_SYMBOLS(X) \
    X(cusolverDnCreate, int, (cusolverDnHandle_t *)) \
    X(cusolverDnSpotrf_bufferSize, int, (cusolverDnHandle_t, int, int, float *, int, int *)) \
    X(cusolverDnDpotrf_bufferSize, int, (cusolverDnHandle_t, int, int, double *, int, int *)) \
    X(cusolverDnSpotrf, int, (cusolverDnHandle_t, int, int, float *, int, float *, int, int *)) \
    X(cusolverDnDpotrf, int, (cusolverDnHandle_t, int, int, double *, int, double *, int, int *)) \
    X(cusolverDnSgetrf_bufferSize, int, (cusolverDnHandle_t, int, int, float *, int, int *)) \
    X(cusolverDnDgetrf_bufferSize, int, (cusolverDnHandle_t, int, int, double *, int, int *)) \
    X(cusolverDnSgetrf, int, (cusolverDnHandle_t, int, int, float *, int, float *, int *, int *)) \
    X(cusolverDnDgetrf, int, (cusolverDnHandle_t, int, int, double *, int, double *, int *, int *)) \
    X(cusolverDnSgetrs, int, (cusolverDnHandle_t, int, int, int, const float *, int, const int *, float *, int, \
        int *)) \
    X(cusolverDnDgetrs, int, (cusolverDnHandle_t, int, int, int, const double *, int, const int *, double *, int, \
        int *))

/* The eigen- and singular value solvers, loaded apart (dec_ok): a library without them still
 * serves the factorisations above, and NgBackend.decomp then answers NG_ERR_UNSUPPORTED (linalg
 * goes to the generated Jacobi kernels). */
#define CUSOLVER_DECOMP_SYMBOLS(X) \
    X(cusolverDnDsyevd_bufferSize, int, (cusolverDnHandle_t, int, int, int, const double *, int, const double *, \
        int *)) \
    X(cusolverDnDsyevd, int, (cusolverDnHandle_t, int, int, int, double *, int, double *, double *, int, int *)) \
    X(cusolverDnDgesvd_bufferSize, int, (cusolverDnHandle_t, int, int, int *)) \
    X(cusolverDnDgesvd, int, (cusolverDnHandle_t, signed char, signed char, int, int, double *, int, double *, \
        double *, int, double *, int, double *, int, double *, int *))

static struct {
#define DECLARE(name, ret, params) ret (*name) params;
    CUSOLVER_SYMBOLS(DECLARE)
    CUSOLVER_DECOMP_SYMBOLS(DECLARE)
#undef DECLARE
} sol;
static bool dec_ok;

static pthread_once_t sol_once = PTHREAD_ONCE_INIT;
static bool sol_ok;
static cusolverDnHandle_t sol_handle; /* made on first use, for the first device that asks */
static NgDevice *sol_device;

static void load_cusolver(void)
{
    static const char *const names[] = {"libcusolver.so", "libcusolver.so.12", "libcusolver.so.11",
                                        "libcusolver.so.13"};
    void *h = open_vendor_lib("NUMGPU_CUSOLVER_PATH", names, sizeof names / sizeof *names);
    if (!h)
        return;
#define LOAD(name, ret, params) \
    if (!(sol.name = (ret(*) params)dlsym(h, #name))) \
        return;
    CUSOLVER_SYMBOLS(LOAD)
#undef LOAD
    sol_ok = true;
#define LOAD_OPTIONAL(name, ret, params) \
    if (!(sol.name = (ret(*) params)dlsym(h, #name))) \
        return;
    CUSOLVER_DECOMP_SYMBOLS(LOAD_OPTIONAL)
#undef LOAD_OPTIONAL
    dec_ok = true;
}

/* The solver handle, made on first use for the first device that asks. */
static NgStatus solver_for(NgDevice *dev)
{
    NgStatus st = current(dev);
    if (st != NG_OK)
        return st;
    if (!sol_handle) {
        if (sol.cusolverDnCreate(&sol_handle) != 0)
            return ng_error_set(NG_ERR_UNSUPPORTED, "cusolverDnCreate failed");
        sol_device = dev;
    }
    if (sol_device != dev)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cuSOLVER is in use on %s", sol_device->name);
    return NG_OK;
}

/* Row-major A is column-major A^T. POTRF asks for the upper factor of A^T
 * (= A), which read row-major is L. GESV factors A^T and solves with
 * trans = T, i.e. with A; B is column-major as cuSOLVER expects. The
 * workspace, pivots and info live in one temporary device block. */
static NgStatus cuda_lapack(NgDevice *dev, int op, NgDType dt, int64_t n, int64_t nrhs, void *A, size_t a_off,
                            void *B, size_t b_off, int *info)
{
    pthread_once(&sol_once, load_cusolver);
    if (!sol_ok || (op != NG_LAPACK_POTRF && op != NG_LAPACK_GESV) || (dt != NG_FLOAT32 && dt != NG_FLOAT64) ||
        n > 46340 || nrhs > INT32_MAX)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cuSOLVER not available for this operation");
    NgStatus st = solver_for(dev);
    if (st != NG_OK)
        return st;
    bool f32 = dt == NG_FLOAT32;
    int N = (int)n, lwork = 0, r;
    char *a = (char *)A + a_off, *b = B ? (char *)B + b_off : NULL;
    if (op == NG_LAPACK_POTRF)
        r = f32 ? sol.cusolverDnSpotrf_bufferSize(sol_handle, CUBLAS_FILL_MODE_UPPER, N, (float *)a, N, &lwork)
                : sol.cusolverDnDpotrf_bufferSize(sol_handle, CUBLAS_FILL_MODE_UPPER, N, (double *)a, N, &lwork);
    else
        r = f32 ? sol.cusolverDnSgetrf_bufferSize(sol_handle, N, N, (float *)a, N, &lwork)
                : sol.cusolverDnDgetrf_bufferSize(sol_handle, N, N, (double *)a, N, &lwork);
    if (r != 0)
        return ng_error_set(NG_ERR_DEVICE, "cuda: cuSOLVER buffer size query failed (status %d)", r);
    size_t item = f32 ? 4 : 8, wbytes = (size_t)lwork * item;
    size_t nbytes = wbytes + sizeof(int) * ((size_t)n + 1);
    void *tmp;
    if ((st = cuda_alloc(dev, nbytes, &tmp)) != NG_OK)
        return st;
    float *ws = tmp;
    double *wd = tmp;
    int *ipiv = (int *)((char *)tmp + wbytes), *dinfo = ipiv + n;
    if (op == NG_LAPACK_POTRF) {
        r = f32 ? sol.cusolverDnSpotrf(sol_handle, CUBLAS_FILL_MODE_UPPER, N, (float *)a, N, ws, lwork, dinfo)
                : sol.cusolverDnDpotrf(sol_handle, CUBLAS_FILL_MODE_UPPER, N, (double *)a, N, wd, lwork, dinfo);
    } else {
        r = f32 ? sol.cusolverDnSgetrf(sol_handle, N, N, (float *)a, N, ws, ipiv, dinfo)
                : sol.cusolverDnDgetrf(sol_handle, N, N, (double *)a, N, wd, ipiv, dinfo);
        if (r == 0 && (st = cuda_download(dev, info, dinfo, 0, sizeof(int))) == NG_OK && *info == 0)
            r = f32 ? sol.cusolverDnSgetrs(sol_handle, CUBLAS_OP_T, N, (int)nrhs, (float *)a, N, ipiv, (float *)b, N,
                                           dinfo)
                    : sol.cusolverDnDgetrs(sol_handle, CUBLAS_OP_T, N, (int)nrhs, (double *)a, N, ipiv, (double *)b,
                                           N, dinfo);
    }
    if (st == NG_OK && r == 0)
        st = cuda_download(dev, info, dinfo, 0, sizeof(int));
    cuda_free(dev, tmp, nbytes);
    if (st == NG_OK && r != 0)
        st = ng_error_set(NG_ERR_DEVICE, "cuda: cuSOLVER failed (status %d)", r);
    return st;
}

/* C (rows x cols, column-major) = A^T, A column-major (cols x rows). */
static int transpose_into(CuState *s, int rows, int cols, const double *A, double *C)
{
    const double one = 1, zero = 0;
    return blas_geam(s->blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, A, cols, &zero, C, rows, C, rows);
}

/* NgBackend.decomp by cuSOLVER, float64 EIGH (syevd) and SVD (gesvd) only (anything else:
 * NG_ERR_UNSUPPORTED). The operands are row-major, cuSOLVER's column-major: row-major A is
 * column-major A^T. EIGH copies A transposed (cublasDgeam) into a temporary, so it reads the
 * triangle it is asked for, and transposes the eigenvectors back. SVD of an m x n A with n >= m
 * factors A^T (n x m, gesvd's rows >= columns) = U' S VT' as it lies: A = VT'^T S U'^T, so VT'
 * written column-major is U row-major and U' is Vh. A taller A is transposed into a column-major
 * copy first, and its U and VT transposed back. Compile-checked only where no GPU was at hand. */
static NgStatus cuda_decomp(NgDevice *dev, int op, NgDType dt, int64_t m, int64_t n, int64_t nrhs, int flags,
                            double rcond, void *const *buf, const size_t *off, int64_t *rank, int *info)
{
    (void)nrhs;
    (void)rcond;
    (void)rank;
    CuState *s = dev->state;
    pthread_once(&sol_once, load_cusolver);
    pthread_once(&blas_once, load_cublas);
    if (!sol_ok || !dec_ok || !blas_ok || !blas_geam || dt != NG_FLOAT64 ||
        (op != NG_DECOMP_EIGH && op != NG_DECOMP_SVD) || m > 46340 || n > 46340)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cuSOLVER has no solver for this here");
    NgStatus st = solver_for(dev);
    if (st != NG_OK)
        return st;
    if (!s->blas && blas.cublasCreate_v2(&s->blas) != 0)
        return ng_error_set(NG_ERR_UNSUPPORTED, "cublasCreate failed");
    bool vec = flags & NG_DECOMP_VECTORS, full = flags & NG_DECOMP_FULL, tall = m > n;
    int M = (int)m, N = (int)n, K = M < N ? M : N, lwork = 0, r, g = 0;
    double *a = (double *)((char *)buf[0] + off[0]), *w = (double *)((char *)buf[1] + off[1]);
    double *u = vec && op == NG_DECOMP_SVD ? (double *)((char *)buf[2] + off[2]) : NULL;
    double *vh = vec && op == NG_DECOMP_SVD ? (double *)((char *)buf[3] + off[3]) : NULL;
    int ku = full ? M : K;
    size_t tmp_d; /* doubles of the temporaries before the workspace */
    if (op == NG_DECOMP_EIGH) {
        r = sol.cusolverDnDsyevd_bufferSize(sol_handle, vec, (flags & NG_DECOMP_UPPER) ? CUBLAS_FILL_MODE_UPPER
                                                                                       : CUBLAS_FILL_MODE_LOWER,
                                            N, a, N, w, &lwork);
        tmp_d = (size_t)n * (size_t)n;
    } else {
        r = tall ? sol.cusolverDnDgesvd_bufferSize(sol_handle, M, N, &lwork)
                 : sol.cusolverDnDgesvd_bufferSize(sol_handle, N, M, &lwork);
        tmp_d = (size_t)K + (tall ? (size_t)m * (size_t)n + (vec ? (size_t)m * (size_t)ku + (size_t)n * (size_t)n : 0)
                                  : 0); /* rwork, then (tall) A, U, VT */
    }
    if (r != 0)
        return ng_error_set(NG_ERR_DEVICE, "cuda: cuSOLVER buffer size query failed (status %d)", r);
    size_t nbytes = (tmp_d + (size_t)lwork) * sizeof(double) + sizeof(int);
    void *tmp;
    if ((st = cuda_alloc(dev, nbytes, &tmp)) != NG_OK)
        return st;
    double *t = tmp, *work = t + tmp_d;
    int *dinfo = (int *)(work + lwork);
    if (op == NG_DECOMP_EIGH) { /* t = A as it reads row-major, column-major */
        int uplo = (flags & NG_DECOMP_UPPER) ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        g = transpose_into(s, N, N, a, t);
        r = g ? 0 : sol.cusolverDnDsyevd(sol_handle, vec, uplo, N, t, N, w, work, lwork, dinfo);
    } else if (!tall) {
        signed char job = vec ? (full ? 'A' : 'S') : 'N';
        r = sol.cusolverDnDgesvd(sol_handle, job, job, N, M, a, N, w, vh, N, u, M, work, lwork, t, dinfo);
    } else {
        double *ac = t + K, *uc = ac + (size_t)m * (size_t)n, *vc = uc + (size_t)m * (size_t)ku;
        signed char job = vec ? (full ? 'A' : 'S') : 'N';
        g = transpose_into(s, M, N, a, ac);
        r = g ? 0 : sol.cusolverDnDgesvd(sol_handle, job, job, M, N, ac, M, w, vec ? uc : NULL, M, vec ? vc : NULL, N,
                                         work, lwork, t, dinfo);
    }
    if (!g && r == 0 && (st = cuda_download(dev, info, dinfo, 0, sizeof(int))) == NG_OK && *info == 0 && vec) {
        if (op == NG_DECOMP_EIGH) {
            g = transpose_into(s, N, N, t, a);
        } else if (tall) { /* U (m x ku) and VT (n x n), column-major, into row-major u and vh */
            double *uc = t + K + (size_t)m * (size_t)n, *vc = uc + (size_t)m * (size_t)ku;
            g = transpose_into(s, ku, M, uc, u);
            if (!g)
                g = transpose_into(s, N, N, vc, vh);
        }
    }
    if (st == NG_OK && (g || r)) { /* (results are read after a sync: the transposes are queued in order) */
        st = ng_error_set(NG_ERR_DEVICE, "cuda: %s failed (status %d)", g ? "cublasDgeam" : "cuSOLVER", g ? g : r);
    } else if (st == NG_OK && *info < 0) {
        st = ng_error_set(NG_ERR_INTERNAL, "cuda: cuSOLVER rejected argument %d", -*info);
    } else if (st == NG_OK) {
        *info = *info > 0;
        if (vec && !*info && (st = current(dev)) == NG_OK && cu.cuCtxSynchronize() != CUDA_SUCCESS)
            st = ng_error_set(NG_ERR_DEVICE, "cuda: waiting for the transposes failed");
    }
    cuda_free(dev, tmp, nbytes);
    return st;
}

static const char *cuda_compiler_id(NgDevice *dev) { return ((CuState *)dev->state)->id; }

const NgBackend ng_backend_cuda = {
    .kind = "cuda",
    .target = &ng_target_cuda,
    .host_visible = false,
    .open = cuda_open,
    .alloc = cuda_alloc,
    .alloc_overflow = cuda_alloc_overflow,
    .free = cuda_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .binary_ext = "cubin",
    .compile = cuda_compile,
    .load = cuda_load,
    .launch = cuda_launch,
    .launch_blocks = cuda_launch_blocks,
    .sync = cuda_sync,
    .compiler_id = cuda_compiler_id,
    .gemm = cuda_gemm,
    .lapack = cuda_lapack,
    .decomp = cuda_decomp,
};
