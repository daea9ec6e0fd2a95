/* The opencl backend: any OpenCL 1.2 device (AMD, Intel, NVIDIA, PoCL on a
 * CPU). libOpenCL.so.1 is loaded at run time through one symbol table, so
 * the build needs no OpenCL SDK; the few types and constants used are
 * declared here. Kernels come from the emitter's OpenCL C target; compiled
 * program binaries go through the kernel layer's disk cache. float64 is used
 * only where the device reports cl_khr_fp64. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/core.h"

/* ---- the slice of the OpenCL API numgpu uses ---- */
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef cl_ulong cl_bitfield;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;

enum {
    CL_SUCCESS = 0,
    CL_DEVICE_NOT_FOUND = -1,
    CL_MEM_OBJECT_ALLOCATION_FAILURE = -4,
    CL_OUT_OF_RESOURCES = -5,
    CL_OUT_OF_HOST_MEMORY = -6,
    CL_BUILD_PROGRAM_FAILURE = -11,
    CL_INVALID_VALUE = -30,
    CL_INVALID_MEM_OBJECT = -38,
    CL_INVALID_KERNEL_ARGS = -52,
    CL_INVALID_WORK_GROUP_SIZE = -54,
    CL_INVALID_BUFFER_SIZE = -61,
    CL_PLATFORM_NOT_FOUND_KHR = -1001,
};
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE 0x1010
#define CL_DEVICE_TYPE_CPU (1 << 1)
#define CL_DEVICE_TYPE_GPU (1 << 2)
#define CL_DEVICE_TYPE_ACCELERATOR (1 << 3)
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFF
#define CL_DEVICE_TYPE 0x1000
#define CL_DEVICE_MAX_COMPUTE_UNITS 0x1002
#define CL_DEVICE_GLOBAL_MEM_SIZE 0x101F
#define CL_DEVICE_NAME 0x102B
#define CL_DEVICE_VERSION 0x102F
#define CL_DRIVER_VERSION 0x102D
#define CL_DEVICE_EXTENSIONS 0x1030
#define CL_PLATFORM_NAME 0x0902
#define CL_MEM_READ_WRITE (1 << 0)
#define CL_PROGRAM_BINARY_SIZES 0x1165
#define CL_PROGRAM_BINARIES 0x1166
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_KERNEL_WORK_GROUP_SIZE 0x11B0
#define CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE 0x11B3
#define CL_TRUE 1

/* X-macro list: name, return type, parameters. */
#define CL_SYMBOLS(X) \
    X(clGetPlatformIDs, cl_int, (cl_uint, cl_platform_id *, cl_uint *)) \
    X(clGetPlatformInfo, cl_int, (cl_platform_id, cl_uint, size_t, void *, size_t *)) \
    X(clGetDeviceIDs, cl_int, (cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *)) \
    X(clGetDeviceInfo, cl_int, (cl_device_id, cl_uint, size_t, void *, size_t *)) \
    X(clCreateContext, cl_context, (const intptr_t *, cl_uint, const cl_device_id *, void *, void *, cl_int *)) \
    X(clCreateCommandQueue, cl_command_queue, (cl_context, cl_device_id, cl_bitfield, cl_int *)) \
    X(clCreateBuffer, cl_mem, (cl_context, cl_bitfield, size_t, void *, cl_int *)) \
    X(clReleaseMemObject, cl_int, (cl_mem)) \
    X(clEnqueueWriteBuffer, cl_int, (cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *)) \
    X(clEnqueueReadBuffer, cl_int, (cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *)) \
    X(clCreateProgramWithSource, cl_program, (cl_context, cl_uint, const char **, const size_t *, cl_int *)) \
    X(clCreateProgramWithBinary, cl_program, (cl_context, cl_uint, const cl_device_id *, const size_t *, const unsigned char **, cl_int *, cl_int *)) \
    X(clBuildProgram, cl_int, (cl_program, cl_uint, const cl_device_id *, const char *, void *, void *)) \
    X(clGetProgramBuildInfo, cl_int, (cl_program, cl_device_id, cl_uint, size_t, void *, size_t *)) \
    X(clGetProgramInfo, cl_int, (cl_program, cl_uint, size_t, void *, size_t *)) \
    X(clReleaseProgram, cl_int, (cl_program)) \
    X(clCreateKernel, cl_kernel, (cl_program, const char *, cl_int *)) \
    X(clSetKernelArg, cl_int, (cl_kernel, cl_uint, size_t, const void *)) \
    X(clEnqueueNDRangeKernel, cl_int, (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *)) \
    X(clGetKernelWorkGroupInfo, cl_int, (cl_kernel, cl_device_id, cl_uint, size_t, void *, size_t *)) \
    X(clFinish, cl_int, (cl_command_queue))

static struct {
#define DECLARE(name, ret, params) ret (*name) params;
    CL_SYMBOLS(DECLARE)
#undef DECLARE
} cl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[400];   /* why libOpenCL could not be used; "" if it loaded */

static void load_library(void)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "libOpenCL.so.1 not found (%s); install an OpenCL ICD loader "
                 "and a driver, e.g. apt-get install ocl-icd-libopencl1 pocl-opencl-icd", dlerror());
        return;
    }
#define LOAD(name, ret, params) \
    if (!(cl.name = (ret(*) params)dlsym(h, #name))) { \
        snprintf(load_error, sizeof load_error, "libOpenCL.so.1 lacks %s", #name); \
        return; \
    }
    CL_SYMBOLS(LOAD)
#undef LOAD
}

static const char *cl_err_name(cl_int e)
{
    switch (e) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
    default: return "an OpenCL error";
    }
}

static NgStatus cl_fail(cl_int e, const char *doing)
{
    return ng_error_set(NG_ERR_DEVICE, "opencl: %s failed: %s (%d)", doing, cl_err_name(e), (int)e);
}

typedef struct ClState {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    bool fp64;                 /* cl_khr_fp64 */
    size_t max_global;         /* cap on work-items per launch */
    pthread_mutex_t launch_lock; /* clSetKernelArg + enqueue must not interleave */
    char id[256];              /* platform, device, driver: part of cache keys */
} ClState;

/* All devices of all platforms, in platform order; GPUs and accelerators
 * are listed by `preferred` first. */
static NgStatus list_devices(cl_device_id *out, int cap, int *n, int *preferred)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int e = cl.clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0)
        return ng_error_set(NG_ERR_DEVICE, "opencl: no OpenCL platform found (%s); install a driver, e.g. "
                            "apt-get install pocl-opencl-icd", e == CL_SUCCESS ? "0 platforms" : cl_err_name(e));
    *n = 0;
    *preferred = -1;
    for (cl_uint p = 0; p < np && *n < cap; p++) {
        cl_uint nd = 0;
        if (cl.clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, (cl_uint)(cap - *n), out + *n, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd; d++) {
            cl_bitfield type = 0;
            cl.clGetDeviceInfo(out[*n + d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            if (*preferred < 0 && (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)))
                *preferred = *n + (int)d;
        }
        *n += (int)nd;
    }
    if (*n == 0)
        return ng_error_set(NG_ERR_DEVICE, "opencl: platforms found but no devices");
    return NG_OK;
}

static NgStatus ocl_open(NgDevice *dev, int index)
{
    pthread_once(&load_once, load_library);
    if (load_error[0])
        return ng_error_set(NG_ERR_DEVICE, "opencl: %s", load_error);
    cl_device_id devs[64];
    int n = 0, preferred = -1;
    NgStatus st = list_devices(devs, 64, &n, &preferred);
    if (st != NG_OK)
        return st;
    int pick = index >= 0 ? index : (preferred >= 0 ? preferred : 0);
    if (pick >= n)
        return ng_error_set(NG_ERR_VALUE, "opencl:%d does not exist: %d OpenCL device%s found", pick, n,
                            n == 1 ? "" : "s");
    ClState *s = ng_calloc(1, sizeof *s);
    if (!s)
        return ng_error_set(NG_ERR_NOMEM, "out of memory opening an OpenCL device");
    s->device = devs[pick];
    cl_int e;
    s->context = cl.clCreateContext(NULL, 1, &s->device, NULL, NULL, &e);
    if (!s->context || e != CL_SUCCESS) {
        ng_free(s);
        return cl_fail(e, "creating a context");
    }
    s->queue = cl.clCreateCommandQueue(s->context, s->device, 0, &e);
    if (!s->queue || e != CL_SUCCESS) {
        ng_free(s);
        return cl_fail(e, "creating a command queue");
    }
    char ext[4096] = "", name[128] = "", ver[128] = "", drv[64] = "";
    cl_uint units = 1;
    cl.clGetDeviceInfo(s->device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    cl.clGetDeviceInfo(s->device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    cl.clGetDeviceInfo(s->device, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
    cl.clGetDeviceInfo(s->device, CL_DRIVER_VERSION, sizeof drv - 1, drv, NULL);
    cl.clGetDeviceInfo(s->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    s->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    s->max_global = (size_t)(units ? units : 1) * 4096;
    pthread_mutex_init(&s->launch_lock, NULL);
    snprintf(s->id, sizeof s->id, "%.100s|%.80s|%.60s", name, ver, drv);
    snprintf(dev->name, sizeof dev->name, "opencl:%d", pick);
    cl_bitfield type = 0;
    cl.clGetDeviceInfo(s->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    dev->gpu = (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    dev->no_float64 = !s->fp64;
    snprintf(dev->description, sizeof dev->description, "%.60s (%.60s, %.20s%s)", name, ver, drv,
             s->fp64 ? "" : ", no float64");
    dev->state = s;
    return NG_OK;
}

static NgStatus ocl_alloc(NgDevice *dev, size_t nbytes, void **ptr)
{
    ClState *s = dev->state;
    cl_int e;
    cl_mem m = cl.clCreateBuffer(s->context, CL_MEM_READ_WRITE, nbytes ? nbytes : 64, NULL, &e);
    if (!m || e != CL_SUCCESS) {
        if (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY)
            return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on %s: %zu bytes requested", dev->name, nbytes);
        if (e == CL_INVALID_BUFFER_SIZE) { /* beyond the largest buffer the device makes */
            uint64_t most = 0;
            cl.clGetDeviceInfo(s->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most, NULL);
            return ng_error_set(NG_ERR_DEVICE_OOM, "beyond the largest buffer %s allocates (%llu bytes)", dev->name,
                                (unsigned long long)most);
        }
        return cl_fail(e, "allocating a buffer");
    }
    *ptr = m;
    return NG_OK;
}

static void ocl_free(NgDevice *dev, void *ptr, size_t nbytes) { cl.clReleaseMemObject((cl_mem)ptr); }

static NgStatus ocl_upload(NgDevice *dev, void *dst, size_t offset, const void *src, size_t nbytes)
{
    ClState *s = dev->state;
    cl_int e = cl.clEnqueueWriteBuffer(s->queue, (cl_mem)dst, CL_TRUE, offset, nbytes, src, 0, NULL, NULL);
    return e == CL_SUCCESS ? NG_OK : cl_fail(e, "copying to the device");
}

static NgStatus ocl_download(NgDevice *dev, void *dst, const void *src, size_t offset, size_t nbytes)
{
    ClState *s = dev->state;
    cl_int e = cl.clEnqueueReadBuffer(s->queue, (cl_mem)src, CL_TRUE, offset, nbytes, dst, 0, NULL, NULL);
    return e == CL_SUCCESS ? NG_OK : cl_fail(e, "copying from the device");
}

/* Builds a program; NG_ERR_COMPILE with the build log on failure. */
static NgStatus build(NgDevice *dev, cl_program prog, const char *name)
{
    ClState *s = dev->state;
    cl_int e = cl.clBuildProgram(prog, 1, &s->device, "-cl-std=CL1.2 -w", NULL, NULL);
    if (e == CL_SUCCESS)
        return NG_OK;
    size_t len = 0;
    cl.clGetProgramBuildInfo(prog, s->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = ng_malloc(len + 1);
    if (log) {
        log[0] = 0;
        cl.clGetProgramBuildInfo(prog, s->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
    }
    ng_error_set_log(log);
    NgStatus st = ng_error_set(NG_ERR_COMPILE, "opencl: kernel %s failed to build on %s (%s):\n%.600s", name,
                               dev->name, cl_err_name(e), log ? log : "");
    ng_free(log);
    return st;
}

static NgStatus ocl_compile(NgDevice *dev, const char *source, const char *name, const char *out_path)
{
    ClState *s = dev->state;
    /* the kernel and the helpers written for it, after the prologues (whose
     * double parts are guarded by cl_khr_fp64) */
    const char *body = strstr(source, ng_target_opencl.kernel_head);
    if (!body)
        body = source + strlen(ng_target_opencl.prologue);
    if (!s->fp64 && (strstr(body, "double") || strstr(body, "ng_c128")))
        return ng_error_set(NG_ERR_TYPE, "%s does not support float64 (no cl_khr_fp64); use float32 arrays "
                            "on this device", dev->name);
    cl_int e;
    cl_program prog = cl.clCreateProgramWithSource(s->context, 1, &source, NULL, &e);
    if (!prog || e != CL_SUCCESS)
        return cl_fail(e, "creating a program");
    NgStatus st = build(dev, prog, name);
    size_t size = 0;
    unsigned char *bin = NULL;
    if (st == NG_OK) {
        e = cl.clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
        bin = (e == CL_SUCCESS && size) ? ng_malloc(size) : NULL;
        if (!bin || cl.clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS)
            st = ng_error_set(NG_ERR_DEVICE, "opencl: cannot read back the program binary of %s", name);
    }
    if (st == NG_OK) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(bin, 1, size, f) != size)
            st = ng_error_set(NG_ERR_DEVICE, "opencl: cannot write %s", out_path);
        if (f)
            fclose(f);
    }
    ng_free(bin);
    cl.clReleaseProgram(prog);
    return st;
}

/* A loaded kernel and its work-group size, found once when it is loaded:
 * the largest multiple of the preferred multiple (the SIMD or warp width)
 * up to NG_BLOCK_THREADS that the kernel can run with. */
typedef struct ClKernel {
    cl_kernel k;
    size_t local;
} ClKernel;

static size_t group_size(ClState *s, cl_kernel k)
{
    size_t most = 0, multiple = 0;
    if (cl.clGetKernelWorkGroupInfo(k, s->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL) != CL_SUCCESS ||
        most == 0)
        most = 1;
    if (cl.clGetKernelWorkGroupInfo(k, s->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                    &multiple, NULL) != CL_SUCCESS || multiple == 0)
        multiple = 1;
    size_t local = most < NG_BLOCK_THREADS ? most : NG_BLOCK_THREADS;
    if (local >= multiple)
        local -= local % multiple;
    return local ? local : 1;
}

static NgStatus ocl_load(NgDevice *dev, const char *path, const char *name, void **module)
{
    ClState *s = dev->state;
    size_t size = 0;
    unsigned char *bin = (unsigned char *)ng_file_read(path, &size);
    if (!bin)
        return ng_error_set(NG_ERR_DEVICE, "opencl: cannot read %s", path);
    cl_int e, be;
    const unsigned char *bins[1] = {bin};
    cl_program prog = cl.clCreateProgramWithBinary(s->context, 1, &s->device, &size, bins, &be, &e);
    ng_free(bin);
    if (!prog || e != CL_SUCCESS)
        return cl_fail(e, "loading a program binary");
    NgStatus st = build(dev, prog, name);
    cl_kernel k = NULL;
    if (st == NG_OK) {
        k = cl.clCreateKernel(prog, name, &e);
        if (!k || e != CL_SUCCESS)
            st = cl_fail(e, "creating a kernel");
    }
    cl.clReleaseProgram(prog); /* the kernel keeps it alive */
    ClKernel *kern = st == NG_OK ? ng_calloc(1, sizeof *kern) : NULL;
    if (st == NG_OK && !kern)
        st = ng_error_set(NG_ERR_NOMEM, "out of memory loading a kernel");
    if (st == NG_OK) {
        kern->k = k;
        kern->local = group_size(s, k);
        *module = kern; /* kernels live until exit */
    }
    return st;
}

/* Sets the kernel's arguments (the caller holds launch_lock). */
static cl_int set_args(cl_kernel k, const NgKArg *args, const uint8_t *kinds, int nargs, int64_t work)
{
    cl_int e = CL_SUCCESS;
    for (int i = 0; i < nargs && e == CL_SUCCESS; i++) {
        switch (kinds[i]) {
        case NG_ARG_PTR: e = cl.clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i].p); break;
        case NG_ARG_F32: {
            float f = (float)args[i].f;
            e = cl.clSetKernelArg(k, (cl_uint)i, sizeof f, &f);
            break;
        }
        default: e = cl.clSetKernelArg(k, (cl_uint)i, 8, &args[i]); break;
        }
    }
    if (e == CL_SUCCESS)
        e = cl.clSetKernelArg(k, (cl_uint)nargs, 8, &work);
    return e;
}

/* Work-groups of the kernel's own size; the global size rounded up to a
 * whole number of them (grid-stride loops leave the extra work-items idle),
 * small extents too: PoCL compiles a kernel again for each work-group size
 * it meets (0.25 s each), so sizing groups by the extent compiled every
 * kernel once per small array length. A kernel without a parallel loop
 * (extent 1) runs as one work-item. */
static NgStatus ocl_launch(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                           int64_t extent, int64_t work)
{
    ClState *s = dev->state;
    const ClKernel *kern = module;
    size_t global = extent < 1 ? 1 : (size_t)extent;
    if (global > s->max_global)
        global = s->max_global;
    size_t local = global == 1 ? 1 : kern->local;
    global = (global + local - 1) / local * local;
    pthread_mutex_lock(&s->launch_lock);
    cl_int e = set_args(kern->k, args, kinds, nargs, work);
    if (e == CL_SUCCESS)
        e = cl.clEnqueueNDRangeKernel(s->queue, kern->k, 1, NULL, &global, &local, 0, NULL, NULL);
    pthread_mutex_unlock(&s->launch_lock);
    return e == CL_SUCCESS ? NG_OK : cl_fail(e, "launching a kernel");
}

/* A block-level kernel: `blocks` work-groups of `threads` work-items, or
 * fewer where the kernel cannot run that many; the kernels' local-memory
 * trees work for any work-group size up to NG_BLOCK_THREADS. */
static NgStatus ocl_launch_blocks(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs,
                                  int64_t blocks, int threads, int64_t work)
{
    ClState *s = dev->state;
    const ClKernel *kern = module;
    size_t local = threads < 1 ? 1 : (size_t)threads;
    if (kern->local < local)
        local = kern->local;
    size_t global = (size_t)(blocks < 1 ? 1 : blocks) * local;
    pthread_mutex_lock(&s->launch_lock);
    cl_int e = set_args(kern->k, args, kinds, nargs, work);
    if (e == CL_SUCCESS)
        e = cl.clEnqueueNDRangeKernel(s->queue, kern->k, 1, NULL, &global, &local, 0, NULL, NULL);
    pthread_mutex_unlock(&s->launch_lock);
    return e == CL_SUCCESS ? NG_OK : cl_fail(e, "launching a kernel");
}

static NgStatus ocl_sync(NgDevice *dev)
{
    cl_int e = cl.clFinish(((ClState *)dev->state)->queue);
    return e == CL_SUCCESS ? NG_OK : cl_fail(e, "waiting for the device");
}

static const char *ocl_compiler_id(NgDevice *dev) { return ((ClState *)dev->state)->id; }

const NgBackend ng_backend_opencl = {
    .kind = "opencl",
    .target = &ng_target_opencl,
    .host_visible = false,
    .open = ocl_open,
    .alloc = ocl_alloc,
    .free = ocl_free,
    .upload = ocl_upload,
    .download = ocl_download,
    .binary_ext = "clbin",
    .compile = ocl_compile,
    .load = ocl_load,
    .launch = ocl_launch,
    .launch_blocks = ocl_launch_blocks,
    .sync = ocl_sync,
    .compiler_id = ocl_compiler_id,
};
