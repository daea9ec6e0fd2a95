/* The null backend: emits and "compiles" every kernel (the binary is the
 * source text itself), records launches, and never runs anything. Memory is
 * host memory (zeroed when first allocated; blocks the pool hands out again
 * keep old contents), so reads never fault. For codegen tests: what would run,
 * without a compiler or device. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/core.h"

static NgStatus null_open(NgDevice *dev, int index)
{
    snprintf(dev->name, sizeof dev->name, "null");
    return NG_OK;
}

static NgStatus null_alloc(NgDevice *dev, size_t nbytes, void **ptr)
{
    void *p = calloc(1, nbytes ? nbytes : 1);
    if (!p)
        return ng_error_set(NG_ERR_DEVICE_OOM, "out of memory on null: %zu bytes requested", nbytes);
    *ptr = p;
    return NG_OK;
}

static void null_free(NgDevice *dev, void *ptr, size_t nbytes) { free(ptr); }

static NgStatus null_upload(NgDevice *dev, void *dst, size_t offset, const void *src, size_t nbytes)
{
    memcpy((char *)dst + offset, src, nbytes);
    return NG_OK;
}

static NgStatus null_download(NgDevice *dev, void *dst, const void *src, size_t offset, size_t nbytes)
{
    memcpy(dst, (const char *)src + offset, nbytes);
    return NG_OK;
}

static NgStatus null_compile(NgDevice *dev, const char *source, const char *name, const char *out_path)
{
    FILE *f = fopen(out_path, "w");
    if (!f)
        return ng_error_set(NG_ERR_DEVICE, "null: cannot write %s: %s", out_path, strerror(errno));
    fputs(source, f);
    fclose(f);
    return NG_OK;
}

static NgStatus null_load(NgDevice *dev, const char *path, const char *name, void **module)
{
    *module = (void *)dev; /* any non-NULL handle: launches do nothing */
    return NG_OK;
}

static NgStatus null_launch(NgDevice *dev, void *module, const NgKArg *args, const uint8_t *kinds, int nargs, int64_t extent,
                            int64_t work)
{
    return NG_OK;
}

static NgStatus null_sync(NgDevice *dev) { return NG_OK; }

static const char *null_compiler_id(NgDevice *dev) { return "null"; }

const NgBackend ng_backend_null = {
    .kind = "null",
    .target = &ng_target_c,
    .host_visible = true,
    .open = null_open,
    .alloc = null_alloc,
    .free = null_free,
    .upload = null_upload,
    .download = null_download,
    .binary_ext = "c",
    .compile = null_compile,
    .load = null_load,
    .launch = null_launch,
    .sync = null_sync,
    .compiler_id = null_compiler_id,
};
