/* Floating-point error records (NumPy's errstate), per thread.
 *
 * The binding says which categories to check (from NumPy's errstate) before
 * an operation; the elementwise ops build kernels that OR a flag word from
 * each element's values and record the word's bits here with the ufunc's
 * name; the binding takes the records after the operation and warns,
 * raises or calls as NumPy's mode says. Kept per thread like the error
 * text: a thread reads only what its own ops saw. */
#include <stdbool.h>
#include <string.h>

#include <numgpu/numgpu.h>

enum { MAX_RECORDS = 8 }; /* ops of one binding call (an op and its casts): more are merged into the last */

typedef struct FpeRecord {
    unsigned flags;
    const char *name;
} FpeRecord;

static _Thread_local unsigned check_mask;
static _Thread_local FpeRecord records[MAX_RECORDS];
static _Thread_local int nrecords, first;

void ng_fpe_set_mask(unsigned mask) { check_mask = mask; }

unsigned ng_fpe_mask(void) { return check_mask; }

void ng_fpe_record(unsigned flags, const char *name)
{
    if (!flags)
        return;
    for (int i = first; i < nrecords; i++)
        if (records[i].name == name || strcmp(records[i].name, name) == 0) {
            records[i].flags |= flags;
            return;
        }
    if (nrecords == MAX_RECORDS) { /* (never in practice: one call runs a few ops) */
        records[MAX_RECORDS - 1].flags |= flags;
        return;
    }
    records[nrecords].flags = flags;
    records[nrecords++].name = name;
}

bool ng_fpe_take(unsigned *flags, const char **name)
{
    if (first == nrecords) {
        first = nrecords = 0;
        return false;
    }
    *flags = records[first].flags;
    *name = records[first++].name;
    return true;
}

void ng_fpe_clear(void) { first = nrecords = 0; }
