/* Device memory pool: one per device. Freed blocks are kept in size-class
 * bins (four classes per power of two) and handed out again, so a loop that
 * makes and drops arrays of the same sizes allocates from the device (and,
 * on cpu, page-faults fresh memory) only once. Out of memory: release the
 * cached blocks and retry once; then, where the backend has memory the
 * driver pages between host and device (alloc_overflow: CUDA's managed
 * memory), take it, so data larger than the device's free memory still
 * works, slower; else NG_ERR_DEVICE_OOM naming the bytes. Overflow blocks
 * are never cached: freed, they go back at once, so later arrays get device
 * memory again. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/core.h"

#define NBINS (64 * 4)

typedef struct Block {
    void *ptr;           /* device address */
    size_t size;         /* class size */
    struct Block *next;  /* next free block of the same class */
} Block;

struct NgPool {
    pthread_mutex_t lock;
    Block *bins[NBINS];  /* free blocks by size class */
    size_t cached;       /* bytes held in bins */
    size_t limit;        /* most bytes the bins may hold */
    Block *overflow;     /* live blocks from alloc_overflow (few: large arrays) */
    size_t overflow_bytes;
};

static bool oversubscribe(void)
{
    return ng_env_flag("NUMGPU_OVERSUBSCRIBE", 1);
}

static size_t default_limit(void)
{
    unsigned long long mb = ng_env_count("NUMGPU_POOL_LIMIT_MB", 2048);
    return mb > (SIZE_MAX >> 20) ? SIZE_MAX : (size_t)mb << 20;
}

/* Rounds n up to its size class; *bin gets the class number. */
static size_t size_class(size_t n, int *bin)
{
    if (n <= 256) {
        *bin = 0;
        return 256;
    }
    int k = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* n in (2^k, 2^(k+1)] */
    size_t step = (size_t)1 << (k - 2);
    size_t q = (n + step - 1) / step; /* 5..8 */
    *bin = 4 * k + (int)(q - 5) + 1;
    return q * step;
}

static NgPool *pool_of(NgDevice *dev)
{
    if (!dev->pool) {
        NgPool *p = ng_calloc(1, sizeof *p);
        if (!p)
            return NULL;
        pthread_mutex_init(&p->lock, NULL);
        p->limit = default_limit();
        if (!__atomic_compare_exchange_n(&dev->pool, &(NgPool *){NULL}, p, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            ng_free(p);
    }
    return dev->pool;
}

/* Frees every cached block of dev's pool. */
static void trim(NgDevice *dev, NgPool *p)
{
    pthread_mutex_lock(&p->lock);
    for (int b = 0; b < NBINS; b++) {
        while (p->bins[b]) {
            Block *blk = p->bins[b];
            p->bins[b] = blk->next;
            dev->be->free(dev, blk->ptr, blk->size);
            ng_free(blk);
        }
    }
    p->cached = 0;
    pthread_mutex_unlock(&p->lock);
}

/* A block of the backend's overflow memory, recorded so that freeing it
 * returns it at once. */
static NgStatus overflow_alloc(NgDevice *dev, NgPool *p, size_t size, void **ptr)
{
    Block *blk = ng_malloc(sizeof *blk);
    if (!blk)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory recording a %zu-byte block", size);
    NgStatus st = dev->be->alloc_overflow(dev, size, ptr);
    if (st != NG_OK) {
        ng_free(blk);
        return st;
    }
    blk->ptr = *ptr;
    blk->size = size;
    pthread_mutex_lock(&p->lock);
    blk->next = p->overflow;
    p->overflow = blk;
    p->overflow_bytes += size;
    pthread_mutex_unlock(&p->lock);
    ng_count(NG_C_OVERFLOW_BYTES, (int64_t)size);
    ng_count(NG_C_OVERFLOW_ALLOCS, 1);
    return NG_OK;
}

/* Takes ptr off the overflow list: true if it was an overflow block. */
static bool overflow_release(NgPool *p, void *ptr)
{
    bool found = false;
    pthread_mutex_lock(&p->lock);
    for (Block **at = &p->overflow; *at; at = &(*at)->next) {
        if ((*at)->ptr == ptr) {
            Block *blk = *at;
            *at = blk->next;
            p->overflow_bytes -= blk->size;
            ng_count(NG_C_OVERFLOW_BYTES, -(int64_t)blk->size);
            ng_free(blk);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return found;
}

/* n bytes as NumPy's memory errors write them: "72.8 TiB", "512.0 B". */
static const char *human_bytes(double n, char buf[32])
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (n >= 1024.0 && u < 6) {
        n /= 1024.0;
        u++;
    }
    snprintf(buf, 32, "%.1f %s", n, unit[u]);
    return buf;
}

NgStatus ng_pool_alloc(NgDevice *dev, size_t nbytes, void **ptr, size_t *size, bool *zeroed)
{
    if (zeroed)
        *zeroed = false;
    if (nbytes > ((size_t)1 << 60))
        return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on %s: %zu bytes requested", dev->name, nbytes);
    NgStatus usable = ng_device_usable(dev);
    if (usable != NG_OK)
        return usable;
    int bin;
    size_t cls = size_class(nbytes, &bin);
    NgPool *p = pool_of(dev);
    if (p) {
        pthread_mutex_lock(&p->lock);
        Block *blk = p->bins[bin];
        if (blk) {
            p->bins[bin] = blk->next;
            p->cached -= cls;
        }
        pthread_mutex_unlock(&p->lock);
        if (blk) {
            *ptr = blk->ptr;
            *size = cls;
            ng_free(blk);
            return NG_OK;
        }
    }
    NgStatus st = dev->be->alloc(dev, cls, ptr);
    if (st == NG_ERR_DEVICE_OOM && p && p->cached) {
        trim(dev, p);
        st = dev->be->alloc(dev, cls, ptr);
    }
    bool fresh = st == NG_OK; /* (the backend's alloc, not its overflow memory) */
    if (st == NG_ERR_DEVICE_OOM && p && dev->be->alloc_overflow && oversubscribe())
        st = overflow_alloc(dev, p, cls, ptr);
    if (st == NG_ERR_DEVICE_OOM) {
        char want[32], used[32], why[200] = ""; /* (the backend's reason where it gives one) */
        const char *said = ng_error_message();
        if (said && *said && strncmp(said, "out of memory", 13) != 0)
            snprintf(why, sizeof why, "; %s", said);
        return ng_error_set(st, "out of memory on %s: %zu bytes requested (%s); %s in use by numgpu arrays%s%s",
                            dev->name, nbytes, human_bytes((double)nbytes, want), human_bytes((double)ng_pool_bytes_in_use(), used),
                            dev->be->alloc_overflow && !oversubscribe() ? " (NUMGPU_OVERSUBSCRIBE=0)" : "", why);
    }
    *size = cls;
    if (zeroed && st == NG_OK)
        *zeroed = fresh && dev->be->zeroed_from && cls >= dev->be->zeroed_from;
    return st;
}

void ng_pool_free(NgDevice *dev, void *ptr, size_t size)
{
    if (dev->lost) /* the parent's memory: the driver that could free it is gone (a forked child) */
        return;
    NgPool *p = dev->pool;
    int bin;
    size_class(size, &bin);
    Block *blk = NULL;
    if (p && __atomic_load_n(&p->overflow, __ATOMIC_ACQUIRE) && overflow_release(p, ptr)) {
        dev->be->free(dev, ptr, size);
        return;
    }
    if (p && p->cached + size <= p->limit)
        blk = ng_malloc(sizeof *blk);
    if (!blk) {
        dev->be->free(dev, ptr, size);
        return;
    }
    blk->ptr = ptr;
    blk->size = size;
    pthread_mutex_lock(&p->lock);
    blk->next = p->bins[bin];
    p->bins[bin] = blk;
    p->cached += size;
    pthread_mutex_unlock(&p->lock);
}

size_t ng_pool_cached(NgDevice *dev) { return dev->pool ? dev->pool->cached : 0; }

size_t ng_pool_overflow(NgDevice *dev) { return dev->pool ? dev->pool->overflow_bytes : 0; }

void ng_pool_trim(NgDevice *dev)
{
    if (dev->pool && !dev->lost)
        trim(dev, dev->pool);
}
