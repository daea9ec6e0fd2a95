/* Floating-point error records (NumPy's errstate), per thread.
 *
 * The binding says which categories to check (from NumPy's errstate) before
 * an operation; the elementwise ops build kernels that OR a flag word from
 * each element's values and record the word's bits here with the ufunc's
 * name; the binding takes the records after the operation and warns,
 * raises or calls as NumPy's mode says. Kept per thread like the error
 * text: a thread reads only what its own ops saw.
 *
 * On a device outside host memory (a GPU) reading a kernel's flag word is a
 * download, which waits for the kernel. Where every checked category only
 * warns (NumPy's default) the word is not read at once: the kernel gets a
 * slot of the device's pending words (ng_fpe_defer) and the words are read
 * together at the next download from the device or sync (ng_fpe_flush),
 * or when the slots run out; their records are marked deferred. */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include <numgpu/numgpu.h>
#include "backend/backend.h"
#include "core/core.h"

enum { MAX_RECORDS = 8 }; /* ops of one binding call (an op and its casts): more are merged into the last */

typedef struct FpeRecord {
    unsigned flags;
    const char *name;
    bool deferred;        /* read at a later download (ng_fpe_flush) */
} FpeRecord;

static _Thread_local unsigned check_mask;
static _Thread_local bool may_defer;
static _Thread_local const char *op_name;
static _Thread_local FpeRecord records[MAX_RECORDS];
static _Thread_local int nrecords, first;

void ng_fpe_set_mask(unsigned mask, bool deferrable, const char *name)
{
    check_mask = mask;
    may_defer = deferrable;
    op_name = name;
}

const char *ng_fpe_name(const char *own) { return op_name && strcmp(own, "cast") != 0 ? op_name : own; }

unsigned ng_fpe_mask(void) { return check_mask; }

static void record(unsigned flags, const char *name, bool deferred)
{
    if (!flags)
        return;
    for (int i = first; i < nrecords; i++)
        if (records[i].deferred == deferred && (records[i].name == name || strcmp(records[i].name, name) == 0)) {
            records[i].flags |= flags;
            return;
        }
    if (nrecords == MAX_RECORDS) { /* (never in practice: one call runs a few ops) */
        records[MAX_RECORDS - 1].flags |= flags;
        return;
    }
    records[nrecords].flags = flags;
    records[nrecords].deferred = deferred;
    records[nrecords++].name = name;
}

void ng_fpe_record(unsigned flags, const char *name) { record(flags, name, false); }

bool ng_fpe_take(unsigned *flags, const char **name, bool *deferred)
{
    if (first == nrecords) {
        first = nrecords = 0;
        return false;
    }
    *flags = records[first].flags;
    *deferred = records[first].deferred;
    *name = records[first++].name;
    return true;
}

/* ---- deferred flag words (devices outside host memory) ---- */

enum { SLOTS = 256, MAX_DEVICES = 16 };

typedef struct Pending {
    NgDevice *dev;
    NgBuffer *words;            /* SLOTS int32, zero but for the slots in use */
    int n;                      /* slots in use */
    const char *names[SLOTS];   /* their ops' names */
    unsigned cats[SLOTS];       /* their judged categories */
} Pending;

static Pending pending[MAX_DEVICES];
static int npending;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static Pending *pending_of(const NgDevice *dev)
{
    for (int i = 0; i < npending; i++)
        if (pending[i].dev == dev)
            return &pending[i];
    return NULL;
}

/* Reads the slots in use into this thread's records and zeroes them (lock held). */
static NgStatus flush_locked(Pending *p)
{
    if (!p || p->n == 0)
        return NG_OK;
    int32_t words[SLOTS];
    size_t nbytes = sizeof(int32_t) * (size_t)p->n;
    NgStatus st = p->dev->be->download(p->dev, words, p->words->data, 0, nbytes);
    if (st == NG_OK)
        for (int i = 0; i < p->n; i++)
            record((unsigned)words[i] & p->cats[i], p->names[i], true);
    memset(words, 0, nbytes);
    NgStatus zst = p->dev->be->upload(p->dev, p->words->data, 0, words, nbytes);
    p->n = 0;
    return st != NG_OK ? st : zst;
}

bool ng_fpe_deferrable(const NgDevice *dev) { return may_defer && !dev->be->host_visible; }

NgStatus ng_fpe_defer(NgDevice *dev, unsigned cats, const char *name, NgArray *word)
{
    pthread_mutex_lock(&lock);
    Pending *p = pending_of(dev);
    NgStatus st = NG_OK;
    if (!p) {
        if (npending == MAX_DEVICES) {
            pthread_mutex_unlock(&lock);
            return ng_error_set(NG_ERR_INTERNAL, "flag words for more than %d devices", MAX_DEVICES);
        }
        int32_t zeros[SLOTS] = {0};
        NgBuffer *b;
        if ((st = ng_buffer_new(dev, sizeof zeros, &b)) == NG_OK &&
            (st = dev->be->upload(dev, b->data, 0, zeros, sizeof zeros)) != NG_OK)
            ng_buffer_release(b);
        if (st != NG_OK) {
            pthread_mutex_unlock(&lock);
            return st;
        }
        p = &pending[npending++];
        p->dev = dev;
        p->words = b;
        p->n = 0;
    }
    if (p->n == SLOTS)
        st = flush_locked(p);
    if (st == NG_OK) {
        memset(word, 0, sizeof *word);
        ng_buffer_retain(p->words);
        word->buf = p->words;
        word->offset = sizeof(int32_t) * (size_t)p->n;
        word->dtype = NG_INT32;
        word->size = 1;
        p->names[p->n] = name;
        p->cats[p->n++] = cats;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

NgStatus ng_fpe_flush(const NgDevice *dev)
{
    if (dev->be->host_visible || npending == 0)
        return NG_OK;
    pthread_mutex_lock(&lock);
    NgStatus st = flush_locked(pending_of(dev));
    pthread_mutex_unlock(&lock);
    return st;
}

void ng_fpe_clear(void) { first = nrecords = 0; }
