/* The cpu backend: kernels are C from the emitter's C target, compiled by
 * the system C compiler ($CC, else cc) into a shared object with OpenMP, and
 * loaded with dlopen; matrix products and solves go to the host's BLAS and
 * LAPACK where one is found (blas.c). Device memory is ordinary host memory, 64-byte aligned,
 * so NumPy can view it without a copy. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cpu/blas.h"
#include "core/core.h"

extern char **environ;

typedef void (*CpuKernelFn)(const NgKArg *args);

static const char *compiler(void)
{
    const char *cc = getenv("CC");
    return (cc && *cc) ? cc : "cc";
}

/* $CC split at blanks into argv[*n...] (advancing *n), as make splits it ("ccache gcc",
 * "gcc -m64"), in `text` (the caller's, which the words point into): read at each compile. */
static void compiler_argv(char *text, size_t len, char **argv, int *n)
{
    snprintf(text, len, "%s", compiler());
    char *save = NULL;
    int first = *n;
    for (char *w = strtok_r(text, " \t", &save); w && *n - first < 15; w = strtok_r(NULL, " \t", &save))
        argv[(*n)++] = w;
    if (*n == first)
        argv[(*n)++] = "cc";
}

static const char *cpu_model(void);

/* GNU OpenMP's worker threads do not survive fork(): a forked child's first parallel region
 * waits for them forever (a multiprocessing worker on Linux hung at its first kernel). The child
 * runs its kernels in one thread instead (the runtime looked up where it is loaded already). */
static void one_thread_in_child(void)
{
    void *gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void (*set_threads)(int) = gomp ? (void (*)(int))dlsym(gomp, "omp_set_num_threads") : NULL;
    if (set_threads)
        set_threads(1);
    if (gomp)
        dlclose(gomp);
}

static void watch_forks(void) { pthread_atfork(NULL, NULL, one_thread_in_child); }

static NgStatus cpu_open(NgDevice *dev, int index)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, watch_forks);
    if (index != 0)
        return ng_error_set(NG_ERR_VALUE, "there is one cpu device (cpu:0), not cpu:%d", index);
    /* OpenMP's idle threads spin (libgomp: 300000 rounds, libomp: 200 ms)
     * before they sleep. The host BLAS's threads (blas.c), started by a
     * matrix product right after a kernel, then share the cores with them: a
     * 256 x 256 product followed by a sum took 8 ms instead of 0.5, a small
     * MLP's step 17x NumPy's. Passive waiting cost nothing measurable here
     * (back-to-back launches of a jit time-step loop: 6.7 us each, 8.0 with
     * spinning). The OpenMP runtime reads it when the first kernel loads it;
     * a user's own setting stays. */
    if (!getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT") && !getenv("KMP_BLOCKTIME"))
        setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    snprintf(dev->name, sizeof dev->name, "cpu");
    snprintf(dev->description, sizeof dev->description, "%s, %ld threads", cpu_model(), sysconf(_SC_NPROCESSORS_ONLN));
    return NG_OK;
}

/* Blocks of CPU_MAPPED bytes or more are the OS's fresh pages (mmap), which read as zeros until
 * written: np.zeros of a new block needs no fill (NumPy's calloc does the same), and the pages
 * are zeroed where first touched. From 4 MiB they ask for huge pages, as NumPy's arrays do.
 * cpu_free tells the two kinds apart by the size (the pool passes back the size it allocated). */
#define CPU_MAPPED ((size_t)1 << 20)

static NgStatus cpu_alloc(NgDevice *dev, size_t nbytes, void **ptr)
{
    size_t n = (nbytes + 63) & ~(size_t)63;
    void *p;
    if (n >= CPU_MAPPED) {
        p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            p = NULL;
#ifdef MADV_HUGEPAGE
        else if (n >= ((size_t)4 << 20))
            madvise(p, n, MADV_HUGEPAGE); /* (a hint: its failure changes nothing) */
#endif
    } else {
        p = aligned_alloc(64, n ? n : 64);
    }
    if (!p)
        return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on cpu: %zu bytes requested", nbytes);
    *ptr = p;
    return NG_OK;
}

static void cpu_free(NgDevice *dev, void *ptr, size_t nbytes)
{
    size_t n = (nbytes + 63) & ~(size_t)63;
    if (n >= CPU_MAPPED)
        munmap(ptr, n);
    else
        free(ptr);
}

static NgStatus cpu_upload(NgDevice *dev, void *dst, size_t offset, const void *src, size_t nbytes)
{
    memcpy((char *)dst + offset, src, nbytes);
    return NG_OK;
}

static NgStatus cpu_download(NgDevice *dev, void *dst, const void *src, size_t offset, size_t nbytes)
{
    memcpy(dst, (const char *)src + offset, nbytes);
    return NG_OK;
}

/* Runs argv with stdout and stderr into `log_path`; returns the exit status
 * (or -1 and errno when it could not start). */
static int run(char *const argv[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        errno = err;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The CPU's model name (kernels are built for it with -march=native). */
static const char *cpu_model(void)
{
    static char model[120];
    if (model[0])
        return model;
    snprintf(model, sizeof model, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
                snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        fclose(f);
    }
    return model;
}

/* NUMGPU_VECTOR_MATH=0: math functions from libm one value at a time, not
 * from glibc's vector math library (results then match libm's bits). */
static bool scalar_math(void)
{
    return !ng_env_flag("NUMGPU_VECTOR_MATH", 1);
}

/* The flags that decide the generated code, in the compiler id (the cache
 * key) and on the command line alike. -march=native: the host's vector width
 * (the CPU model is in the cache key too); -ffp-contract=off: no fused
 * multiply-add, so results round as NumPy's do; -fno-trapping-math: a
 * comparison inside an if may be computed for every element (numgpu never
 * reads the floating-point exception flags), so branches become selects in
 * vector loops without AVX-512's masks; -fno-tree-loop-distribution: GCC
 * 12.2's loop distribution at -O3 miscompiled a jammed loop that stores into
 * one element three times (an inner loop's `+=`, then `= 0`, then `+= x`):
 * every store was lost, as if its `= 0` ran last (found by
 * tools/jit_difftest.py, seed 211433; tests/python/test_jit_difftest.py).
 * That last flag is GCC's: clang refuses it ("unknown argument"), so it is
 * left out where $CC is clang (code_flag_count). */
static const char *const code_flags[] = {"-O3", "-march=native", "-ffp-contract=off", "-fno-trapping-math",
                                         "-fno-math-errno", "-fopenmp", "-std=gnu11", "-fno-tree-loop-distribution"};
enum { NCODE_FLAGS = sizeof code_flags / sizeof *code_flags };

/* The number of code_flags $CC takes: all but GCC's last for clang, told by
 * its --version. */
static int code_flag_count(void)
{
    static int count;
    if (count)
        return count;
    char log[64];
    snprintf(log, sizeof log, "/tmp/numgpu-ccname-%d.txt", (int)getpid());
    char *argv[20], cc[512];
    int na = 0;
    compiler_argv(cc, sizeof cc, argv, &na);
    argv[na++] = "--version";
    argv[na] = NULL;
    char *text = run(argv, log) == 0 ? ng_file_read(log, &(size_t){0}) : NULL;
    unlink(log);
    count = text && strstr(text, "clang") ? NCODE_FLAGS - 1 : NCODE_FLAGS;
    ng_free(text);
    return count;
}

static const char *cpu_compiler_id(NgDevice *dev)
{
    static char id[320];
    if (id[0])
        return id;
    char log[64];
    snprintf(log, sizeof log, "/tmp/numgpu-ccver-%d.txt", (int)getpid());
    char *argv[20], cc[512];
    int na = 0;
    compiler_argv(cc, sizeof cc, argv, &na);
    argv[na++] = "-dumpfullversion";
    argv[na++] = "-dumpversion";
    argv[na] = NULL;
    char *ver = run(argv, log) == 0 ? ng_file_read(log, &(size_t){0}) : NULL;
    unlink(log);
    if (ver)
        ver[strcspn(ver, "\n")] = 0;
    int n = snprintf(id, sizeof id, "%s %s", compiler(), ver ? ver : "unknown");
    for (int i = 0; i < code_flag_count() && n < (int)sizeof id; i++)
        n += snprintf(id + n, sizeof id - (size_t)n, " %s", code_flags[i]);
    if (n < (int)sizeof id)
        snprintf(id + n, sizeof id - (size_t)n, "%s on %s", scalar_math() ? " -DNG_SCALAR_MATH" : "", cpu_model());
    ng_free(ver);
    return id;
}

static NgStatus cpu_compile(NgDevice *dev, const char *source, const char *name, const char *out_path)
{
    char src_path[600], log_path[600];
    snprintf(src_path, sizeof src_path, "%s.c", out_path);
    snprintf(log_path, sizeof log_path, "%s.log", out_path);
    FILE *f = fopen(src_path, "w");
    if (!f)
        return ng_error_set(NG_ERR_DEVICE, "cpu: cannot write kernel source %s: %s", src_path, strerror(errno));
    fputs(source, f);
    fclose(f);
    char *argv[NCODE_FLAGS + 12 + 16], cc[512];
    int n = 0;
    compiler_argv(cc, sizeof cc, argv, &n);
    for (int i = 0; i < code_flag_count(); i++)
        argv[n++] = (char *)code_flags[i];
    char *rest[] = {"-fPIC", "-shared", "-w", "-o", (char *)out_path, src_path, "-lm",
                    scalar_math() ? "-DNG_SCALAR_MATH" : NULL, NULL};
    memcpy(argv + n, rest, sizeof rest);
    int rc = run(argv, log_path);
    NgStatus st = NG_OK;
    if (rc < 0) {
        st = ng_error_set(NG_ERR_DEVICE, "cpu: no C compiler found (tried '%s': %s); install one "
                          "(apt-get install gcc) or set CC to a C compiler", argv[0], strerror(errno));
    } else if (rc != 0) {
        char *log = ng_file_read(log_path, &(size_t){0});
        ng_error_set_log(log);
        st = ng_error_set(NG_ERR_COMPILE, "cpu: kernel %s failed to compile with %s (exit %d):\n%.600s",
                          name, compiler(), rc, log ? log : "");
        ng_free(log);
    }
    unlink(src_path);
    unlink(log_path);
    return st;
}

static NgStatus cpu_load(NgDevice *dev, const char *path, const char *name, void **module)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return ng_error_set(NG_ERR_DEVICE, "cpu: cannot load compiled kernel %s: %s", path, dlerror());
    void *fn = dlsym(h, name);
    if (!fn) {
        dlclose(h);
        return ng_error_set(NG_ERR_DEVICE, "cpu: compiled kernel %s lacks symbol %s", path, name);
    }
    *module = fn;
    return NG_OK;
}

static NgStatus cpu_launch(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs, int64_t extent,
                           int64_t work)
{
    NgKArg packed[512];
    if (nargs >= (int)(sizeof packed / sizeof *packed))
        return ng_error_set(NG_ERR_UNSUPPORTED, "cpu: kernel with %d arguments", nargs);
    memcpy(packed, args, sizeof *args * (size_t)nargs);
    packed[nargs].i = work;
    ((CpuKernelFn)module)(packed);
    return NG_OK;
}

static NgStatus cpu_sync(NgDevice *dev) { return NG_OK; }

const NgBackend ng_backend_cpu = {
    .kind = "cpu",
    .target = &ng_target_c,
    .host_visible = true,
    .zeroed_from = CPU_MAPPED,
    .open = cpu_open,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .upload = cpu_upload,
    .download = cpu_download,
    .binary_ext = "so",
    .compile = cpu_compile,
    .load = cpu_load,
    .launch = cpu_launch,
    .sync = cpu_sync,
    .gemm = ng_cpu_gemm,
    .lapack = ng_cpu_lapack,
    .decomp = ng_cpu_decomp,
    .compiler_id = cpu_compiler_id,
};
