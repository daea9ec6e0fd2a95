/* Kernel cache: in-process table, then disk, then compiler (see kernel.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "kernel/kernel.h"

typedef struct Entry {
    uint64_t hash;        /* hash of device pointer + key */
    NgDevice *dev;
    void *key;            /* copy of the descriptor; set last (release): a reader seeing it sees the rest */
    size_t keylen;
    NgKernel *kernel;     /* heap: stays put when the table grows */
} Entry;

/* The in-process table: open addressing, power-of-two capacity. Lookups take
 * no lock (every op's launch does one): a table, once published, is only
 * ever added to (an entry filled before its key pointer is stored), and a
 * grown table replaces it whole, the old one kept on the retired list
 * (never freed: a reader may still be walking it; the tables together stay
 * under twice the last one's size). Inserts hold `lock`. */
typedef struct Table {
    size_t cap, used;
    struct Table *retired; /* the table this one replaced */
    Entry slots[];
} Table;

static Table *table;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char *last_source;

const char *ng_kernel_last_source(void) { return last_source ? last_source : ""; }

/* The table's hash of a descriptor: eight bytes a step (the key is hashed on
 * every launch; ng_hash64 goes a byte at a time). */
static uint64_t key_hash(const void *key, size_t keylen, const NgDevice *dev)
{
    const unsigned char *p = key;
    uint64_t h = (uint64_t)(uintptr_t)dev ^ (keylen * 0x9e3779b97f4a7c15ULL);
    for (; keylen >= 8; p += 8, keylen -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, p, keylen);
    h = (h ^ w) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static Entry *find(NgDevice *dev, uint64_t h, const void *key, size_t keylen)
{
    Table *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
    if (!t)
        return NULL;
    for (size_t s = h & (t->cap - 1);; s = (s + 1) & (t->cap - 1)) {
        Entry *e = &t->slots[s];
        const void *k = __atomic_load_n(&e->key, __ATOMIC_ACQUIRE);
        if (!k)
            return NULL;
        if (e->hash == h && e->dev == dev && e->keylen == keylen && memcmp(k, key, keylen) == 0)
            return e;
    }
}

/* Adds ne (lock held). */
static NgStatus insert(Entry *ne)
{
    Table *t = table;
    if (!t || (t->used + 1) * 2 > t->cap) {
        size_t ncap = t ? t->cap * 2 : 256;
        Table *nt = ng_calloc(1, sizeof *nt + ncap * sizeof(Entry));
        if (!nt)
            return ng_error_set(NG_ERR_NOMEM, "out of memory growing the kernel cache");
        nt->cap = ncap;
        nt->used = t ? t->used : 0;
        nt->retired = t;
        for (size_t i = 0; t && i < t->cap; i++) {
            if (!t->slots[i].key)
                continue;
            size_t s = t->slots[i].hash & (ncap - 1);
            while (nt->slots[s].key)
                s = (s + 1) & (ncap - 1);
            nt->slots[s] = t->slots[i];
        }
        __atomic_store_n(&table, nt, __ATOMIC_RELEASE);
        t = nt;
    }
    size_t s = ne->hash & (t->cap - 1);
    while (t->slots[s].key)
        s = (s + 1) & (t->cap - 1);
    Entry *e = &t->slots[s];
    e->hash = ne->hash;
    e->dev = ne->dev;
    e->keylen = ne->keylen;
    e->kernel = ne->kernel;
    __atomic_store_n(&e->key, ne->key, __ATOMIC_RELEASE);
    t->used++;
    return NG_OK;
}

/* ---- disk cache ---- */

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int r = mkdir(path, 0755);
        *p = '/';
        if (r != 0 && errno != EEXIST)
            return -1;
    }
    return (mkdir(path, 0755) == 0 || errno == EEXIST) ? 0 : -1;
}

/* A directory of this user's own under /tmp for kernels when the configured cache cannot be used:
 * the same for every process, so the next run still finds them. 0 when usable (made 0700, owned by
 * us, not a link). */
static int user_tmp_dir(char *out, size_t len)
{
    snprintf(out, len, "/tmp/numgpu-cache-%u", (unsigned)getuid());
    struct stat st;
    if (mkdir(out, 0700) != 0 && errno != EEXIST)
        return -1;
    if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 0077) ||
        access(out, W_OK) != 0)
        return -1;
    return 0;
}

/* Directory for this backend's compiled kernels; created on first use.
 * Falls back (saying so once on stderr) to a directory of this user's own under /tmp, else a
 * private temporary one, when the cache cannot be created or written. */
static NgStatus cache_dir(const NgDevice *dev, char *out, size_t len)
{
    const char *env = getenv("NUMGPU_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, len, "%s/%s", env, dev->be->kind);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/numgpu/%s", xdg, dev->be->kind);
    else
        snprintf(out, len, "%s/.cache/numgpu/%s", home ? home : "/tmp", dev->be->kind);
    if (mkdirs(out) == 0 && access(out, W_OK) == 0)
        return NG_OK;
    int why = errno;
    static char fallback[256];
    if (!fallback[0]) {
        if (user_tmp_dir(fallback, sizeof fallback) != 0) {
            snprintf(fallback, sizeof fallback, "/tmp/numgpu-cache-XXXXXX");
            if (!mkdtemp(fallback)) {
                fallback[0] = 0;
                return ng_error_set(NG_ERR_DEVICE, "cannot create a kernel cache directory (%s): %s; "
                                    "set NUMGPU_CACHE_DIR to a writable directory", out, strerror(errno));
            }
        }
        fprintf(stderr, "numgpu: the kernel cache %s cannot be used (%s); compiled kernels go to %s "
                "(set NUMGPU_CACHE_DIR to a writable directory)\n", out, strerror(why), fallback);
    }
    snprintf(out, len, "%s/%s", fallback, dev->be->kind);
    return mkdirs(out) == 0 ? NG_OK : ng_error_set(NG_ERR_DEVICE, "cannot create a kernel cache directory (%s)", out);
}

/* True if `bin` exists and matches the checksum stored beside it. */
static bool checksum_ok(const char *bin, const char *sum)
{
    size_t n = 0, m = 0;
    char *data = ng_file_read(bin, &n), *want = ng_file_read(sum, &m);
    bool ok = false;
    if (data && want) {
        char have[32];
        snprintf(have, sizeof have, "%016llx", (unsigned long long)ng_hash64(data, n, 0));
        ok = m >= 16 && strncmp(want, have, 16) == 0;
    }
    ng_free(data);
    ng_free(want);
    return ok;
}

static NgStatus write_checksum(const char *bin, const char *sum)
{
    size_t n = 0;
    char *data = ng_file_read(bin, &n);
    if (!data)
        return ng_error_set(NG_ERR_DEVICE, "compiled kernel %s could not be read back", bin);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", sum, (int)getpid());
    FILE *f = fopen(tmp, "w");
    bool ok = f && fprintf(f, "%016llx\n", (unsigned long long)ng_hash64(data, n, 0)) > 0;
    ng_free(data);
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || rename(tmp, sum) != 0) {
        unlink(tmp);
        return ng_error_set(NG_ERR_DEVICE, "cannot write kernel cache file %s: %s", sum, strerror(errno));
    }
    return NG_OK;
}

/* ---- the disk cache's size ---- */

uint64_t ng_cache_limit(void)
{
    const char *env = getenv("NUMGPU_CACHE_SIZE");
    if (!env || !*env)
        return NG_CACHE_SIZE_DEFAULT;
    char *end;
    double v = strtod(env, &end);
    double scale = 1;
    switch (*end) {
    case 'k': case 'K': scale = 1024.0; end++; break;
    case 'm': case 'M': scale = 1024.0 * 1024; end++; break;
    case 'g': case 'G': scale = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': scale = 1024.0 * 1024 * 1024 * 1024; end++; break;
    }
    if (scale > 1 && *end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (end == env || *end || !(v >= 0) || v * scale > 1e19) {
        static bool said;
        if (!said)
            fprintf(stderr, "numgpu: NUMGPU_CACHE_SIZE=%s is not a size (bytes, or a number with K, M, G or T); "
                    "the kernel cache keeps its default limit of %llu GiB per device kind\n",
                    env, NG_CACHE_SIZE_DEFAULT >> 30);
        said = true;
        return NG_CACHE_SIZE_DEFAULT;
    }
    return (uint64_t)(v * scale);
}

typedef struct CacheFile {
    uint64_t key;    /* the kernel's: the name's 16 hex digits */
    time_t mtime;
    uint64_t bytes;
    char *name;
} CacheFile;

typedef struct CacheGroup {
    size_t first, n;  /* its files in the array sorted by key */
    time_t used;      /* the latest time of its files (a disk hit renews the checksum's) */
    uint64_t bytes;
} CacheGroup;

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const CacheFile *)a)->key, y = ((const CacheFile *)b)->key;
    return x < y ? -1 : x > y;
}

static int by_use(const void *a, const void *b)
{
    time_t x = ((const CacheGroup *)a)->used, y = ((const CacheGroup *)b)->used;
    return x < y ? -1 : x > y;
}

/* The kernel key of a cache file's name ("%016llx.<ext>"), or false for another file. */
static bool file_key(const char *name, uint64_t *key)
{
    uint64_t k = 0;
    for (int i = 0; i < 16; i++) {
        char c = name[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return false;
        k = k << 4 | (uint64_t)d;
    }
    *key = k;
    return name[16] == '.';
}

NgStatus ng_cache_trim(const char *dir, uint64_t limit, uint64_t target, NgCacheTrim *out)
{
    NgCacheTrim tr = {0};
    DIR *d = opendir(dir);
    if (!d)
        return ng_error_set(NG_ERR_DEVICE, "cannot read the kernel cache directory %s: %s", dir, strerror(errno));
    CacheFile *files = NULL;
    size_t n = 0, cap = 0;
    time_t now = time(NULL);
    NgStatus st = NG_OK;
    for (struct dirent *e; st == NG_OK && (e = readdir(d));) {
        uint64_t key;
        struct stat sb;
        if (!file_key(e->d_name, &key) || fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        if (strstr(e->d_name, ".tmp")) {   /* a compile's: another process's at work, or a crash's */
            if (now - sb.st_mtime > 3600)
                unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            CacheFile *nf = realloc(files, cap * sizeof *files);
            if (!nf) {
                st = ng_error_set(NG_ERR_NOMEM, "out of memory reading the kernel cache directory %s", dir);
                break;
            }
            files = nf;
        }
        /* (the blocks it takes, as du counts them: a checksum's 17 bytes take a block of 4 KiB) */
        files[n] = (CacheFile){key, sb.st_mtime, (uint64_t)sb.st_blocks * 512, strdup(e->d_name)};
        if (!files[n].name) {
            st = ng_error_set(NG_ERR_NOMEM, "out of memory reading the kernel cache directory %s", dir);
            break;
        }
        tr.bytes += files[n++].bytes;
    }
    CacheGroup *groups = st == NG_OK && n ? malloc(n * sizeof *groups) : NULL;
    size_t ng = 0;
    if (groups) {
        qsort(files, n, sizeof *files, by_key);
        for (size_t i = 0; i < n; i++) {
            if (!ng || files[groups[ng - 1].first].key != files[i].key)
                groups[ng++] = (CacheGroup){i, 0, 0, 0};
            CacheGroup *g = &groups[ng - 1];
            g->n++;
            g->bytes += files[i].bytes;
            if (files[i].mtime > g->used)
                g->used = files[i].mtime;
        }
        tr.kernels = ng;
        if (tr.bytes > limit) {
            qsort(groups, ng, sizeof *groups, by_use);
            uint64_t left = tr.bytes;
            for (size_t gi = 0; gi < ng && left > target; gi++) {
                /* the checksum first: a reader seeing the kernel without it compiles it again */
                for (int pass = 0; pass < 2; pass++)
                    for (size_t i = groups[gi].first; i < groups[gi].first + groups[gi].n; i++)
                        if ((strstr(files[i].name, ".sum") != NULL) == (pass == 0) &&
                            unlinkat(dirfd(d), files[i].name, 0) == 0) {
                            left -= files[i].bytes;
                            tr.bytes_removed += files[i].bytes;
                        }
                tr.kernels_removed++;
            }
        }
    } else if (st == NG_OK && n) {
        st = ng_error_set(NG_ERR_NOMEM, "out of memory reading the kernel cache directory %s", dir);
    }
    for (size_t i = 0; i < n; i++)
        free(files[i].name);
    free(files);
    free(groups);
    closedir(d);
    if (out)
        *out = tr;
    return st;
}

static void *trim_thread(void *dir)
{
    uint64_t limit = ng_cache_limit();
    (void)ng_cache_trim(dir, limit, limit / 4 * 3, NULL);
    free(dir);
    return NULL;
}

/* After a compile into dir: ng_cache_trim now and then (see kernel.h), on a thread of its own (a
 * folder of 10^5 kernels takes a second or more to read). Nothing it meets is an error of the
 * kernel's: a failure is left for the next time. */
static void trim_sometimes(const char *dir)
{
    static unsigned long compiles;
    if (__atomic_fetch_add(&compiles, 1, __ATOMIC_RELAXED) % NG_CACHE_TRIM_EVERY != 0)
        return;
    uint64_t limit = ng_cache_limit();
    if (!limit)
        return;
    char stamp[520];
    snprintf(stamp, sizeof stamp, "%s/.trimmed", dir);
    struct stat sb;
    if (stat(stamp, &sb) == 0 && time(NULL) - sb.st_mtime < NG_CACHE_TRIM_QUIET_S)
        return;
    int fd = open(stamp, O_WRONLY | O_CREAT, 0644);   /* (the others skip the look while this one looks) */
    if (fd < 0)
        return;
    futimens(fd, NULL);
    close(fd);
    char *copy = strdup(dir);
    pthread_t t;
    pthread_attr_t attr;
    if (!copy || pthread_attr_init(&attr) != 0) {
        free(copy);
        return;
    }
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, trim_thread, copy) != 0)
        free(copy);
    pthread_attr_destroy(&attr);
}

/* Compiles (or finds on disk) source for dev and loads it. */
static NgStatus compile_and_load(NgDevice *dev, const char *source, const char *name, void **module)
{
    char dir[400], bin[512], sum[520], tmp[560];
    NgStatus st = ng_device_usable(dev);
    if (st != NG_OK)
        return st;
    st = cache_dir(dev, dir, sizeof dir);
    if (st != NG_OK)
        return st;
    NgStr keysrc;
    ng_str_init(&keysrc);
    ng_str_catf(&keysrc, "%s|%s|%d|", dev->be->kind, dev->be->compiler_id(dev), NG_CODEGEN_VERSION);
    ng_str_cat(&keysrc, source);
    if (keysrc.failed) {
        ng_str_free(&keysrc);
        return ng_error_set(NG_ERR_NOMEM, "out of memory hashing kernel source");
    }
    unsigned long long key = (unsigned long long)ng_hash64(keysrc.s, keysrc.len, 0);
    ng_str_free(&keysrc);
    snprintf(bin, sizeof bin, "%s/%016llx.%s", dir, key, dev->be->binary_ext);
    snprintf(sum, sizeof sum, "%s/%016llx.sum", dir, key);
    if (checksum_ok(bin, sum)) {
        st = dev->be->load(dev, bin, name, module);
        if (st == NG_OK) {
            ng_count(NG_C_DISK_HIT, 1);
            utimensat(AT_FDCWD, sum, NULL, 0);   /* used now: the size limit removes it last */
            return NG_OK;
        }
    }
    snprintf(tmp, sizeof tmp, "%s/%016llx.%d.%lx.tmp.%s", dir, key, (int)getpid(),
             (unsigned long)pthread_self() & 0xffffff, dev->be->binary_ext);
    ng_count(NG_C_COMPILE, 1);
    st = dev->be->compile(dev, source, name, tmp);
    if (st != NG_OK) {
        unlink(tmp);
        return st;
    }
    if (rename(tmp, bin) != 0) {
        unlink(tmp);
        return ng_error_set(NG_ERR_DEVICE, "cannot write kernel cache file %s: %s", bin, strerror(errno));
    }
    st = write_checksum(bin, sum);
    if (st != NG_OK)
        return st;
    trim_sometimes(dir);
    return dev->be->load(dev, bin, name, module);
}

/* $NUMGPU_EMIT_DIR: every kernel built is also emitted as CUDA and OpenCL
 * source there, so CI can compile all of them with NVRTC and an OpenCL
 * compiler even where neither device exists. */
static void save_for_other_targets(const NgIrKernel *k, const char *name)
{
    const char *dir = getenv("NUMGPU_EMIT_DIR");
    if (!dir || !*dir)
        return;
    static const struct { const NgTarget *t; const char *ext; } targets[] = {
        {&ng_target_cuda, "cu"}, {&ng_target_opencl, "cl"}};
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        NgStr src;
        ng_str_init(&src);
        char path[600];
        NgStatus st = ng_emit(k, targets[i].t, &src);
        snprintf(path, sizeof path, "%s/%s.%s%s", dir, name, targets[i].ext, st == NG_OK ? "" : ".skipped");
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(st == NG_OK ? src.s : ng_error_message(), f);
            fclose(f);
        }
        ng_str_free(&src);
    }
}

NgStatus ng_kernel_get(NgDevice *dev, const void *key, size_t keylen, NgBuildFn build,
                       const void *ctx, const NgKernel **out)
{
    uint64_t h = key_hash(key, keylen, dev);
    Entry *e = find(dev, h, key, keylen);
    if (e) {
        ng_count(NG_C_MEM_HIT, 1);
        *out = e->kernel;
        return NG_OK;
    }
    /* Miss: build IR, emit, compile. Done outside the lock; a racing thread
     * may compile the same kernel, and the first insert wins. */
    NgIrKernel k;
    char name[48];
    snprintf(name, sizeof name, "ngk_%016llx", (unsigned long long)ng_hash64(key, keylen, 0));
    ng_ir_init(&k, name);
    NgStr src;
    ng_str_init(&src);
    NgStatus st = build(ctx, &k);
    if (st == NG_OK)
        st = ng_emit(&k, dev->be->target, &src);
    Entry ne;
    memset(&ne, 0, sizeof ne);
    NgKernel kern;
    memset(&kern, 0, sizeof kern);
    if (st == NG_OK) {
        free(last_source);
        last_source = strdup(src.s);
        save_for_other_targets(&k, name);
        const char *show = getenv("NUMGPU_SHOW_KERNELS");
        if (show && *show && strcmp(show, "0") != 0)
            fprintf(stderr, "numgpu: kernel %s for %s:\n%s\n", name, dev->name, src.s);
        st = compile_and_load(dev, src.s, name, &kern.module);
    }
    if (st == NG_OK) {
        ne.hash = h;
        ne.dev = dev;
        ne.keylen = keylen;
        ne.key = ng_malloc(keylen);
        ne.kernel = ng_malloc(sizeof *ne.kernel);
        kern.dev = dev;
        kern.nargs = ng_emit_nargs(&k);
        kern.parallel = ng_emit_has_parallel(&k);
        kern.rows_blocks = ng_emit_rows_blocks(&k, dev->be->target);
        kern.kinds = ng_malloc((size_t)kern.nargs + 1);
        if (kern.kinds)
            ng_emit_arg_kinds(&k, kern.kinds);
        snprintf(kern.name, sizeof kern.name, "%s", name);
        if (!ne.key || !ne.kernel || !kern.kinds) {
            ng_free(ne.key);
            ng_free(ne.kernel);
            ng_free(kern.kinds);
            st = ng_error_set(NG_ERR_NOMEM, "out of memory in the kernel cache");
        } else {
            memcpy(ne.key, key, keylen);
            *ne.kernel = kern;
        }
    }
    ng_ir_free(&k);
    ng_str_free(&src);
    if (st != NG_OK)
        return st;
    pthread_mutex_lock(&lock);
    e = find(dev, h, key, keylen);
    if (!e) {
        st = insert(&ne);
        e = st == NG_OK ? find(dev, h, key, keylen) : NULL;
    } else {
        ng_free(ne.key);
        ng_free(ne.kernel->kinds);
        ng_free(ne.kernel);
    }
    pthread_mutex_unlock(&lock);
    if (st != NG_OK)
        return st;
    *out = e->kernel;
    return NG_OK;
}

NgStatus ng_kernel_launch(const NgKernel *kern, const NgKArg *args, int nargs, int64_t extent,
                          int64_t work)
{
    if (nargs != kern->nargs)
        return ng_error_set(NG_ERR_INTERNAL, "kernel %s takes %d arguments, %d given", kern->name,
                            kern->nargs, nargs);
    NgStatus st = ng_device_usable(kern->dev);
    if (st != NG_OK)
        return st;
    ng_count(NG_C_LAUNCH, 1);
    if (kern->rows_blocks && kern->dev->be->launch_blocks) /* (one block: its threads share each row) */
        return kern->dev->be->launch_blocks(kern->dev, kern->module, args, kern->kinds, nargs, 1,
                                            NG_BLOCK_THREADS, work);
    return kern->dev->be->launch(kern->dev, kern->module, args, kern->kinds, nargs,
                                 kern->parallel ? extent : 1, work);
}

NgStatus ng_kernel_launch_blocks(const NgKernel *kern, const NgKArg *args, int nargs, int64_t blocks, int64_t work)
{
    if (nargs != kern->nargs)
        return ng_error_set(NG_ERR_INTERNAL, "kernel %s takes %d arguments, %d given", kern->name,
                            kern->nargs, nargs);
    if (!kern->dev->be->launch_blocks)
        return ng_error_set(NG_ERR_UNSUPPORTED, "%s: no block-level kernels", kern->dev->be->kind);
    NgStatus st = ng_device_usable(kern->dev);
    if (st != NG_OK)
        return st;
    ng_count(NG_C_LAUNCH, 1);
    return kern->dev->be->launch_blocks(kern->dev, kern->module, args, kern->kinds, nargs, blocks,
                                        NG_BLOCK_THREADS, work);
}

void ng_kargs_array_as_is(NgKArg *args, int *n, const NgArray *a)
{
    int64_t es[NG_MAXDIMS];
    int item = ng_dtype_info(a->dtype)->itemsize;
    for (int d = 0; d < a->ndim; d++)
        es[d] = a->strides[d] / item;
    ng_kargs_array(args, n, a, a->ndim, a->shape, es);
}

void ng_kargs_array(NgKArg *args, int *n, const NgArray *a, int ndim, const int64_t *shape,
                    const int64_t *elem_strides)
{
    int itemsize = ng_dtype_info(a->dtype)->itemsize;
    args[(*n)++].p = a->buf->data;
    args[(*n)++].i = (int64_t)a->offset / itemsize;
    for (int d = 0; d < ndim; d++)
        args[(*n)++].i = shape[d];
    for (int d = 0; d < ndim; d++)
        args[(*n)++].i = elem_strides[d];
}
