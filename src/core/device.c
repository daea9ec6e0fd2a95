/* Devices: opening them by spec and choosing the default.
 *
 * Devices are opened once and live until exit. The spec grammar is
 * `auto | cpu | null | cuda[:N] | opencl[:N]`; "auto" takes the best kind
 * that opens (cuda, opencl, then cpu). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/core.h"

#define MAX_OPEN 16

static const NgBackend *const backends[] = {&ng_backend_cpu, &ng_backend_null, &ng_backend_opencl,
                                            &ng_backend_cuda};
static NgDevice opened[MAX_OPEN];
static int nopened;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* fork(): a child has the parent's memory but none of its other threads.
 * The cpu backend recovers (its own handler); OpenCL and CUDA drivers do
 * not (PoCL's child hangs at its first command, CUDA's fails), so their
 * devices are marked lost in the child. */
static void lose_devices_in_child(void)
{
    for (int i = 0; i < nopened; i++)
        if (!opened[i].be->host_visible)
            opened[i].lost = true;
}

static void watch_forks(void) { pthread_atfork(NULL, NULL, lose_devices_in_child); }

NgStatus ng_device_usable(const NgDevice *dev)
{
    if (!dev->lost)
        return NG_OK;
    return ng_error_set(NG_ERR_DEVICE, "%s was opened by the parent of this forked process, and %s drivers do not "
                        "survive fork(): start worker processes with multiprocessing's 'spawn' or 'forkserver' "
                        "method (multiprocessing.get_context('spawn')), or use the cpu device in the children "
                        "(numgpu.set_device('cpu'))", dev->name, dev->be->kind);
}

static const NgBackend *backend_of_kind(const char *kind, size_t len)
{
    for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
        if (strlen(backends[i]->kind) == len && strncmp(backends[i]->kind, kind, len) == 0)
            return backends[i];
    return NULL;
}

static NgStatus open_kind(const char *kind, size_t len, int index, NgDevice **out)
{
    const NgBackend *be = backend_of_kind(kind, len);
    if (!be)
        return ng_error_set(NG_ERR_VALUE, "unknown device '%.*s': expected auto, cpu, cuda[:N], opencl[:N] or null",
                            (int)len, kind);
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, watch_forks);
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nopened; i++)
        if (opened[i].be == be && (opened[i].index == index || index < 0)) {
            *out = &opened[i];
            pthread_mutex_unlock(&lock);
            return NG_OK;
        }
    NgStatus st = NG_OK;
    if (nopened == MAX_OPEN) {
        st = ng_error_set(NG_ERR_DEVICE, "too many devices opened");
    } else {
        NgDevice *d = &opened[nopened];
        memset(d, 0, sizeof *d);
        d->be = be;
        d->index = index;
        st = be->open(d, index);
        if (st == NG_OK) {
            if (index < 0) /* the backend chose: record which */
                d->index = atoi(strchr(d->name, ':') ? strchr(d->name, ':') + 1 : "0");
            nopened++;
            *out = d;
        }
    }
    pthread_mutex_unlock(&lock);
    return st;
}

/* auto: a CUDA GPU, else an OpenCL GPU or accelerator, else cpu. An
 * OpenCL CPU device (PoCL) is only used when asked for by name. */
static NgStatus open_auto(NgDevice **out)
{
    if (open_kind("cuda", 4, -1, out) == NG_OK)
        return NG_OK;
    if (open_kind("opencl", 6, -1, out) == NG_OK) {
        if (ng_device_is_gpu(*out))
            return NG_OK;
    }
    return open_kind("cpu", 3, 0, out);
}

NgStatus ng_device_open(const char *spec, NgDevice **out)
{
    if (!spec || !*spec || strcmp(spec, "auto") == 0)
        return open_auto(out);
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    int index = (len == 3 && !strncmp(spec, "cpu", 3)) || (len == 4 && !strncmp(spec, "null", 4)) ? 0 : -1;
    if (colon) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (*end || end == colon + 1 || v < 0)
            return ng_error_set(NG_ERR_VALUE, "bad device number in '%s': expected e.g. cuda:0", spec);
        index = (int)v;
    }
    return open_kind(spec, len, index, out);
}

NgStatus ng_device_default(NgDevice **out)
{
    const char *env = getenv("NUMGPU_DEVICE");
    NgStatus st = ng_device_open(env, out);
    if (st != NG_OK && env && *env) {
        char msg[900];
        snprintf(msg, sizeof msg, "%s", ng_error_message());
        return ng_error_set(st, "NUMGPU_DEVICE=%s: %s", env, msg);
    }
    return st;
}

const char *ng_device_name(const NgDevice *dev) { return dev->name; }
const char *ng_device_kind(const NgDevice *dev) { return dev->be->kind; }
bool ng_device_host_visible(const NgDevice *dev) { return dev->be->host_visible; }

bool ng_device_is_gpu(const NgDevice *dev) { return dev->gpu; }
bool ng_device_lost(const NgDevice *dev) { return dev->lost; }
bool ng_device_has_float64(const NgDevice *dev) { return !dev->no_float64; }
const char *ng_device_description(const NgDevice *dev) { return dev->description; }
NgStatus ng_device_sync(NgDevice *dev)
{
    NgStatus st = ng_device_usable(dev);
    if (st == NG_OK)
        st = ng_fpe_flush(dev); /* (the pending flag words are read: a download, which waits too) */
    return st != NG_OK ? st : dev->be->sync(dev);
}

void ng_devices_finish(void)
{
    pthread_mutex_lock(&lock);
    int n = nopened;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++)
        if (!opened[i].lost)
            (void)opened[i].be->sync(&opened[i]); /* at exit: nothing left to report an error to */
}
