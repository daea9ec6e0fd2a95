/* The allocator hook, growable strings, hashing and statistics counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"

static long fail_countdown; /* test hook: >0 counts allocations down to failure */

void ng_alloc_fail_after(long n) { fail_countdown = n; }

static int should_fail(void)
{
    return fail_countdown > 0 && __atomic_sub_fetch(&fail_countdown, 1, __ATOMIC_RELAXED) == 0;
}

void *ng_malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }
void *ng_calloc(size_t n, size_t size) { return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1); }
void *ng_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }
void ng_free(void *p) { free(p); }

void ng_str_init(NgStr *b)
{
    static char empty[1];
    b->s = empty;
    b->len = b->cap = 0;
    b->failed = 0;
}

void ng_str_free(NgStr *b)
{
    if (b->cap)
        ng_free(b->s);
    ng_str_init(b);
}

static int reserve(NgStr *b, size_t extra)
{
    if (b->failed)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *s = b->cap ? ng_realloc(b->s, cap) : ng_malloc(cap);
    if (!s) {
        b->failed = 1;
        return 0;
    }
    if (!b->cap)
        s[0] = 0;
    b->s = s;
    b->cap = cap;
    return 1;
}

void ng_str_cat(NgStr *b, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void ng_str_vcatf(NgStr *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void ng_str_catf(NgStr *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ng_str_vcatf(b, fmt, ap);
    va_end(ap);
}

char *ng_file_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = ng_malloc((size_t)n + 1))) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
                ng_free(buf);
                buf = NULL;
            } else {
                buf[n] = 0;
                *len = (size_t)n;
            }
        }
    }
    fclose(f);
    return buf;
}

/* FNV-1a, 64-bit, with a final avalanche (splitmix64 finaliser). */
uint64_t ng_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

static int64_t counters[NG_NCOUNTERS];

void ng_count(NgCounter c, int64_t delta) { __atomic_add_fetch(&counters[c], delta, __ATOMIC_RELAXED); }

static uint64_t get(NgCounter c) { return (uint64_t)__atomic_load_n(&counters[c], __ATOMIC_RELAXED); }

void ng_stats_get(NgStats *out)
{
    out->kernel_launches = get(NG_C_LAUNCH);
    out->kernels_compiled = get(NG_C_COMPILE);
    out->disk_cache_hits = get(NG_C_DISK_HIT);
    out->memory_cache_hits = get(NG_C_MEM_HIT);
    out->uploads = get(NG_C_UPLOAD);
    out->upload_bytes = get(NG_C_UPLOAD_BYTES);
    out->downloads = get(NG_C_DOWNLOAD);
    out->download_bytes = get(NG_C_DOWNLOAD_BYTES);
    out->implicit_uploads = get(NG_C_IMPLICIT_UP);
    out->implicit_downloads = get(NG_C_IMPLICIT_DOWN);
    out->bytes_in_use = get(NG_C_BYTES_IN_USE);
    out->buffers_in_use = get(NG_C_BUFFERS_IN_USE);
    out->overflow_bytes = get(NG_C_OVERFLOW_BYTES);
    out->overflow_allocs = get(NG_C_OVERFLOW_ALLOCS);
}

void ng_stats_count_transfer(bool upload, size_t nbytes)
{
    ng_count(upload ? NG_C_UPLOAD : NG_C_DOWNLOAD, 1);
    ng_count(upload ? NG_C_UPLOAD_BYTES : NG_C_DOWNLOAD_BYTES, (int64_t)nbytes);
}

void ng_stats_count_implicit(bool upload) { ng_count(upload ? NG_C_IMPLICIT_UP : NG_C_IMPLICIT_DOWN, 1); }

int ng_env_flag(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (!v)
        return dflt;
    static const char *const yes[] = {"1", "true", "yes", "on"}, *const no[] = {"0", "false", "no", "off", ""};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (strcasecmp(v, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (strcasecmp(v, no[i]) == 0)
            return 0;
    fprintf(stderr, "numgpu: %s=%s is not one of 1/0, true/false, yes/no, on/off; it stays %s\n", name, v,
            dflt ? "on" : "off");
    return dflt;
}

unsigned long long ng_env_count(const char *name, unsigned long long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (*v == '-' || *v == '+' || end == v || *end) {
        fprintf(stderr, "numgpu: %s=%s is not a whole number; it stays %llu\n", name, v, dflt);
        return dflt;
    }
    return n;
}
