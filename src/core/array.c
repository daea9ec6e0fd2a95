/* Buffers (refcounted device memory) and arrays (views over them), and the
 * host <-> device copies of whole arrays. */
#include <string.h>

#include "backend/backend.h"
#include "core/core.h"

static NgStatus buffer_new(NgDevice *dev, size_t nbytes, NgBuffer **out, bool *zeroed)
{
    NgBuffer *b = ng_malloc(sizeof *b);
    if (!b)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory allocating a buffer header");
    memset(b, 0, sizeof *b);
    size_t size;
    NgStatus st = ng_pool_alloc(dev, nbytes, &b->data, &size, zeroed);
    if (st != NG_OK) {
        ng_free(b);
        return st;
    }
    b->refcount = 1;
    b->device = dev;
    b->nbytes = size;
    ng_count(NG_C_BYTES_IN_USE, (int64_t)size);
    ng_count(NG_C_BUFFERS_IN_USE, 1);
    *out = b;
    return NG_OK;
}

NgStatus ng_buffer_new(NgDevice *dev, size_t nbytes, NgBuffer **out) { return buffer_new(dev, nbytes, out, NULL); }

NgStatus ng_buffer_wrap(NgDevice *dev, void *data, size_t nbytes, void *external,
                        void (*release)(void *external), NgBuffer **out)
{
    NgBuffer *b = ng_malloc(sizeof *b);
    if (!b)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory allocating a buffer header");
    memset(b, 0, sizeof *b);
    b->refcount = 1;
    b->device = dev;
    b->data = data;
    b->nbytes = nbytes;
    b->external = external;
    b->release_external = release;
    *out = b;
    return NG_OK;
}

uint64_t ng_pool_bytes_in_use(void)
{
    NgStats s;
    ng_stats_get(&s);
    return s.bytes_in_use;
}

void ng_buffer_retain(NgBuffer *b) { __atomic_add_fetch(&b->refcount, 1, __ATOMIC_RELAXED); }

void ng_buffer_release(NgBuffer *b)
{
    if (!b || __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    if (b->release_external) {
        b->release_external(b->external);
    } else {
        ng_pool_free(b->device, b->data, b->nbytes);
        ng_count(NG_C_BYTES_IN_USE, -(int64_t)b->nbytes);
        ng_count(NG_C_BUFFERS_IN_USE, -1);
    }
    ng_free(b);
}

void ng_array_set_contiguous_strides(NgArray *a)
{
    int64_t s = ng_dtype_info(a->dtype)->itemsize, size = 1;
    for (int d = a->ndim - 1; d >= 0; d--) {
        a->strides[d] = s;
        s *= a->shape[d];
        size *= a->shape[d];
    }
    a->size = size;
}

NgStatus ng_array_empty_zeroed(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, NgArray *out, bool *zeroed)
{
    if (zeroed)
        *zeroed = false;
    if (ndim < 0 || ndim > NG_MAXDIMS)
        return ng_error_set(NG_ERR_VALUE, "maximum supported dimension for an ndarray is %d, found %d",
                            NG_MAXDIMS, ndim);
    if (!ng_dtype_info(dt)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(dt)->name);
    memset(out, 0, sizeof *out);
    out->dtype = dt;
    out->ndim = ndim;
    uint64_t nbytes = (uint64_t)ng_dtype_info(dt)->itemsize;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0)
            return ng_error_set(NG_ERR_VALUE, "negative dimensions are not allowed");
        out->shape[d] = shape[d];
        if (shape[d] && nbytes > (UINT64_C(1) << 62) / (uint64_t)shape[d])
            return ng_error_set(NG_ERR_VALUE, "array is too big; `arr.size * arr.dtype.itemsize` "
                                "is larger than the maximum possible size.");
        nbytes *= (uint64_t)shape[d];
    }
    ng_array_set_contiguous_strides(out);
    return buffer_new(dev, (size_t)nbytes, &out->buf, zeroed);
}

NgStatus ng_array_empty(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, NgArray *out)
{
    return ng_array_empty_zeroed(dev, dt, ndim, shape, out, NULL);
}

void ng_array_view(const NgArray *base, NgArray *out)
{
    if (out != base)
        memcpy(out, base, sizeof *out);
    ng_buffer_retain(out->buf);
}

NgStatus ng_array_view_as(const NgArray *a, NgDType dt, NgArray *out)
{
    int old = ng_array_itemsize(a), now = ng_dtype_info(dt)->itemsize, last = a->ndim - 1;
    NgArray v = *a;
    v.dtype = dt;
    if (old != now) {
        if (a->ndim == 0)
            return ng_error_set(NG_ERR_VALUE, "Changing the dtype of a 0d array is only supported if the itemsize is "
                                              "unchanged");
        if (a->shape[last] != 1 && a->strides[last] != old)
            return ng_error_set(NG_ERR_VALUE, "To change to a dtype of a different size, the last axis must be "
                                              "contiguous");
        int64_t bytes = a->shape[last] * old;
        if (bytes % now)
            return ng_error_set(NG_ERR_VALUE, "When changing to a larger dtype, its size must be a divisor of the "
                                              "total size in bytes of the last axis of the array.");
        v.shape[last] = bytes / now;
        v.strides[last] = now;
        v.size = a->size ? a->size / a->shape[last] * v.shape[last] : 0; /* (no division by an empty axis) */
    }
    /* kernels address elements, not bytes: the offset and every stride in whole elements */
    bool whole = v.offset % (size_t)now == 0;
    for (int d = 0; d < v.ndim; d++)
        whole = whole && (v.shape[d] <= 1 || v.strides[d] % now == 0);
    if (!whole)
        return ng_error_set(NG_ERR_UNSUPPORTED, "a view as %s of memory not aligned to its itemsize",
                            ng_dtype_info(dt)->name);
    ng_array_view(&v, out);
    return NG_OK;
}

void ng_array_part(const NgArray *a, bool imag, NgArray *out)
{
    ng_array_view(a, out);
    out->dtype = ng_dtype_real(a->dtype);
    if (imag)
        out->offset += (size_t)ng_dtype_info(out->dtype)->itemsize;
}

void ng_array_release(NgArray *a)
{
    if (a->buf)
        ng_buffer_release(a->buf);
    a->buf = NULL;
}

bool ng_array_is_c_contiguous(const NgArray *a)
{
    int64_t s = ng_dtype_info(a->dtype)->itemsize;
    if (a->size == 0)
        return true;
    for (int d = a->ndim - 1; d >= 0; d--) {
        if (a->shape[d] != 1 && a->strides[d] != s)
            return false;
        s *= a->shape[d];
    }
    return true;
}

bool ng_array_is_f_contiguous(const NgArray *a)
{
    int64_t s = ng_dtype_info(a->dtype)->itemsize;
    if (a->size == 0)
        return true;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] != 1 && a->strides[d] != s)
            return false;
        s *= a->shape[d];
    }
    return true;
}

void ng_array_byte_extent(const NgArray *a, int64_t *lo, int64_t *hi)
{
    int64_t l = (int64_t)a->offset, h = (int64_t)a->offset;
    if (a->size > 0) {
        for (int d = 0; d < a->ndim; d++) {
            int64_t span = (a->shape[d] - 1) * a->strides[d];
            if (span < 0)
                l += span;
            else
                h += span;
        }
        h += ng_dtype_info(a->dtype)->itemsize;
    }
    *lo = l;
    *hi = h;
}

bool ng_array_may_overlap(const NgArray *a, const NgArray *b)
{
    if (a->size == 0 || b->size == 0)
        return false;
    int64_t alo, ahi, blo, bhi;
    ng_array_byte_extent(a, &alo, &ahi);
    ng_array_byte_extent(b, &blo, &bhi);
    if (a->buf == b->buf)
        return alo < bhi && blo < ahi;
    /* distinct buffers share memory only where both wrap the same host memory (on cpu, two
     * zero-copy arrays of one NumPy array): compare addresses there */
    if (a->buf->device != b->buf->device || !ng_device_host_visible(a->buf->device))
        return false;
    intptr_t pa = (intptr_t)a->buf->data, pb = (intptr_t)b->buf->data;
    return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

/* Copies an ndim-strided block of host memory; strides in bytes. */
static void strided_copy(char *dst, const int64_t *dst_strides, const char *src,
                         const int64_t *src_strides, int ndim, const int64_t *shape, int itemsize)
{
    if (ndim == 0) {
        memcpy(dst, src, (size_t)itemsize);
        return;
    }
    if (ndim == 1 && dst_strides[0] == itemsize && src_strides[0] == itemsize) {
        memcpy(dst, src, (size_t)(shape[0] * itemsize));
        return;
    }
    for (int64_t i = 0; i < shape[0]; i++)
        strided_copy(dst + i * dst_strides[0], dst_strides + 1, src + i * src_strides[0],
                     src_strides + 1, ndim - 1, shape + 1, itemsize);
}

static bool strides_are_c(const NgArray *a, const int64_t *strides)
{
    int64_t s = ng_dtype_info(a->dtype)->itemsize;
    for (int d = a->ndim - 1; d >= 0; d--) {
        if (a->shape[d] != 1 && strides[d] != s)
            return false;
        s *= a->shape[d];
    }
    return true;
}

/* Moves a's elements between the device and host memory laid out with
 * host_strides (NULL: C order). */
static NgStatus transfer(const NgArray *a, void *host, const int64_t *host_strides, bool upload)
{
    NgDevice *dev = a->buf->device;
    int itemsize = ng_dtype_info(a->dtype)->itemsize;
    size_t nbytes = (size_t)a->size * (size_t)itemsize;
    int64_t cstr[NG_MAXDIMS];
    NgArray tmp = *a;
    ng_array_set_contiguous_strides(&tmp);
    memcpy(cstr, tmp.strides, sizeof cstr);
    const int64_t *hs = host_strides ? host_strides : cstr;
    if (a->size == 0)
        return NG_OK;
    NgStatus usable = ng_device_usable(dev);
    if (usable != NG_OK)
        return usable;
    ng_stats_count_transfer(upload, nbytes);
    if (dev->be->host_visible) {
        char *d = ng_array_data(a);
        if (upload)
            strided_copy(d, a->strides, host, hs, a->ndim, a->shape, itemsize);
        else
            strided_copy(host, hs, d, a->strides, a->ndim, a->shape, itemsize);
        return NG_OK;
    }
    if (!ng_array_is_c_contiguous(a))
        return ng_error_set(NG_ERR_INTERNAL, "transfer of a non-contiguous device array");
    if (strides_are_c(a, hs))
        return upload ? dev->be->upload(dev, a->buf->data, a->offset, host, nbytes)
                      : dev->be->download(dev, host, a->buf->data, a->offset, nbytes);
    char *stage = ng_malloc(nbytes);
    if (!stage)
        return ng_error_set(NG_ERR_NOMEM, "out of host memory staging a %zu-byte transfer", nbytes);
    NgStatus st;
    if (upload) {
        strided_copy(stage, cstr, host, hs, a->ndim, a->shape, itemsize);
        st = dev->be->upload(dev, a->buf->data, a->offset, stage, nbytes);
    } else {
        st = dev->be->download(dev, stage, a->buf->data, a->offset, nbytes);
        if (st == NG_OK)
            strided_copy(host, hs, stage, cstr, a->ndim, a->shape, itemsize);
    }
    ng_free(stage);
    return st;
}

NgStatus ng_array_copy_on_host(const NgArray *dst, const NgArray *src)
{
    NgDevice *dev = dst->buf->device;
    if (!dev->be->host_visible || src->buf->device != dev || src->dtype != dst->dtype || src->ndim != dst->ndim ||
        memcmp(src->shape, dst->shape, sizeof(int64_t) * (size_t)dst->ndim) != 0)
        return NG_ERR_UNSUPPORTED;
    if (dst->size > 0)
        strided_copy(ng_array_data(dst), dst->strides, ng_array_data(src), src->strides, dst->ndim, dst->shape,
                     ng_dtype_info(dst->dtype)->itemsize);
    return NG_OK;
}

NgStatus ng_array_fill_on_host(const NgArray *a, const void *elem)
{
    if (!a->buf->device->be->host_visible || !ng_array_is_c_contiguous(a))
        return NG_ERR_UNSUPPORTED;
    size_t item = (size_t)ng_dtype_info(a->dtype)->itemsize, n = (size_t)a->size * item;
    char *d = ng_array_data(a);
    if (!elem || n == 0) {
        memset(d, 0, n);
        return NG_OK;
    }
    memcpy(d, elem, item);
    for (size_t done = item; done < n; done *= 2) /* (the filled part copied onto the rest, doubling) */
        memcpy(d + done, d, done < n - done ? done : n - done);
    return NG_OK;
}

NgStatus ng_array_upload(NgArray *dst, const void *host, const int64_t *host_strides)
{
    return transfer(dst, (void *)host, host_strides, true);
}

NgStatus ng_array_download(const NgArray *src, void *host, const int64_t *host_strides)
{
    NgStatus st = src->size ? ng_fpe_flush(src->buf->device) : NG_OK; /* (the pending flag words first) */
    return st != NG_OK ? st : transfer(src, host, host_strides, false);
}
