/* any, all and count_nonzero of a whole array in host memory, read in place: no kernel.
 *
 * `if np.any(mask):` and `np.all(x > 0)` are tests a program makes once per step of its loop;
 * NumPy's loops stop at the first element that decides them (a few microseconds where a True
 * stands early), where a reduction kernel reads every element and costs a launch. On a device
 * whose memory is the host's (cpu), a C-contiguous array of bools or integers is read where it is:
 * an element is nonzero where one of its bytes is, so `any` looks for a nonzero byte, a block at
 * a time, and stops there; `all` and `count_nonzero` of a 1-byte dtype (bool, int8, uint8) look
 * for zero bytes (memchr) or count the nonzero ones. Other dtypes (floats: -0.0 is zero), views
 * and other devices take the reduction kernel. */
#include <string.h>

#include "ops/ops_internal.h"

#define ANY_BLOCK 4096          /* bytes ORed together between looks at the result */
#define COUNT_HOST_MAX (4 << 20) /* count_nonzero of more bytes: the kernel's threads */

static bool any_nonzero_byte(const unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + ANY_BLOCK <= n; i += ANY_BLOCK) {
        uint64_t acc = 0;
        for (size_t j = 0; j < ANY_BLOCK; j += 8) {
            uint64_t w;
            memcpy(&w, p + i + j, 8);
            acc |= w;
        }
        if (acc)
            return true;
    }
    unsigned char acc = 0;
    for (; i < n; i++)
        acc |= p[i];
    return acc != 0;
}

/* Nonzero bytes among p[0..n): sixteen byte counters (a vector register's bytes), each counting
 * its lane's nonzero bytes for up to 255 rows of sixteen, then added up. */
static int64_t count_nonzero_bytes(const unsigned char *p, size_t n)
{
    int64_t count = 0;
    size_t i = 0;
    while (i + 16 <= n) {
        unsigned char lanes[16] = {0};
        size_t rows = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
        for (size_t r = 0; r < rows; r++, i += 16)
            for (int l = 0; l < 16; l++)
                lanes[l] += p[i + l] != 0;
        for (int l = 0; l < 16; l++)
            count += lanes[l];
    }
    for (; i < n; i++)
        count += p[i] != 0;
    return count;
}

bool ng_reduce_host_bytes(NgReduceOp op, const NgArray *a, const NgArray *out, NgStatus *st)
{
    int itemsize = ng_dtype_info(a->dtype)->itemsize;
    bool bytes = a->dtype == NG_BOOL || ng_dtype_is_int(a->dtype);
    size_t n = (size_t)a->size * (size_t)itemsize;
    if (!bytes || out->size != 1 || !ng_device_host_visible(ng_array_device(a)) || !ng_array_is_c_contiguous(a) ||
        !ng_array_is_c_contiguous(out) || (op != NG_RED_ANY && itemsize != 1) ||
        (op != NG_RED_ANY && op != NG_RED_ALL && op != NG_RED_COUNT_NONZERO) ||
        (op == NG_RED_COUNT_NONZERO && (n > COUNT_HOST_MAX || out->dtype != NG_INT64)) ||
        (op != NG_RED_COUNT_NONZERO && out->dtype != NG_BOOL))
        return false;
    const unsigned char *p = n ? ng_array_data(a) : NULL;
    void *o = ng_array_data(out);
    if (op == NG_RED_COUNT_NONZERO) {
        int64_t c = n ? count_nonzero_bytes(p, n) : 0;
        memcpy(o, &c, sizeof c);
    } else {
        *(unsigned char *)o = op == NG_RED_ANY ? n && any_nonzero_byte(p, n) : !n || !memchr(p, 0, n);
    }
    *st = NG_OK;
    return true;
}
