/* numgpu._core: DLPack export (capsules for __dlpack__) and import (from_dlpack).
 *
 * The structs below are declared from the public DLPack specification
 * (dlpack.h, ABI version 1.x); only the fields' layout matters. The
 * protocol logic (stream, dl_device, copy) is in python/numgpu/_dlpack.py;
 * here: NgArray <-> DLTensor, capsule names and lifetimes.
 *
 * Export: the managed tensor holds one reference to the array's buffer; its
 * deleter drops it (callable from any thread, no GIL needed). A capsule
 * nobody consumed calls the deleter when it dies; a consumer renames it
 * "used_dltensor[_versioned]" and calls the deleter itself later.
 * Import: the producer's memory is wrapped in an NgBuffer whose release
 * callback calls the producer's deleter, so the producer's data lives as
 * long as any numgpu view of it. Our own capsules are recognised by their
 * deleter and imported by sharing the buffer (any device, OpenCL too). */
#include "pymod.h"

#include <stdlib.h>
#include <string.h>

/* ---- DLPack ABI (spec v1.x) ---- */

enum {
    kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLCUDAManaged = 13,
};
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLComplex = 5, kDLBool = 6 };
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

typedef struct { uint32_t major, minor; } DLPackVersion;
typedef struct { int32_t device_type; int32_t device_id; } DLDevice; /* device_type: DLDeviceType enum */
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;            /* base address (CUDA pointer, cl_mem handle, host pointer) */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;        /* ndim extents */
    int64_t *strides;      /* ndim strides in elements; NULL: C-contiguous */
    uint64_t byte_offset;  /* bytes from data to element 0 */
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

static const char NAME_LEGACY[] = "dltensor", NAME_VERSIONED[] = "dltensor_versioned";
static const char USED_LEGACY[] = "used_dltensor", USED_VERSIONED[] = "used_dltensor_versioned";

/* ---- export ---- */

/* One allocation per exported tensor: the managed struct (either form),
 * the shape and strides it points to, and the buffer reference it holds. */
typedef struct Export {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } m;
    NgBuffer *buf;
    int64_t shape[NG_MAXDIMS];
    int64_t strides[NG_MAXDIMS];
} Export;

/* The managed struct is the first member, so both deleters find the Export. */
static void export_free(Export *e)
{
    ng_buffer_release(e->buf);
    free(e);
}
static void deleter_legacy(DLManagedTensor *self) { export_free((Export *)self); }
static void deleter_versioned(DLManagedTensorVersioned *self) { export_free((Export *)self); }

static void capsule_destructor(PyObject *cap)
{
    /* consumed capsules were renamed and are the consumer's business */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (PyCapsule_IsValid(cap, NAME_VERSIONED)) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, NAME_VERSIONED);
        if (m->deleter)
            m->deleter(m);
    } else if (PyCapsule_IsValid(cap, NAME_LEGACY)) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, NAME_LEGACY);
        if (m->deleter)
            m->deleter(m);
    }
    PyErr_Restore(type, value, tb);
}

/* DLDevice of a numgpu device; -1 with BufferError for one DLPack cannot name. */
static int dl_device_of(NgDevice *dev, DLDevice *out)
{
    const char *kind = ng_device_kind(dev), *name = ng_device_name(dev), *colon = strchr(name, ':');
    out->device_id = colon ? atoi(colon + 1) : 0;
    if (strcmp(kind, "cpu") == 0)
        out->device_type = kDLCPU;
    else if (strcmp(kind, "cuda") == 0)
        out->device_type = kDLCUDA;
    else if (strcmp(kind, "opencl") == 0)
        out->device_type = kDLOpenCL;
    else {
        PyErr_Format(PyExc_BufferError, "DLPack has no device type for numgpu device %s", name);
        return -1;
    }
    return 0;
}

static int dl_dtype_of(NgDType t, DLDataType *out)
{
    const NgDTypeInfo *info = ng_dtype_info(t);
    static const uint8_t codes[] = {[NG_KIND_BOOL] = kDLBool, [NG_KIND_INT] = kDLInt, [NG_KIND_UINT] = kDLUInt,
                                    [NG_KIND_FLOAT] = kDLFloat, [NG_KIND_COMPLEX] = kDLComplex};
    out->code = codes[info->kind];
    out->bits = (uint8_t)(info->itemsize * 8);
    out->lanes = 1;
    return 0;
}

/* dlpack_device(x) -> (device_type, device_id) */
static PyObject *f_dlpack_device(PyObject *m, PyObject *x)
{
    if (!ngpy_check(x))
        return PyErr_Format(PyExc_TypeError, "expected a numgpu.ndarray");
    DLDevice d;
    if (dl_device_of(ng_array_device(ngpy_arr(x)), &d) < 0)
        return NULL;
    return Py_BuildValue("(ii)", d.device_type, d.device_id);
}

/* dlpack_export(x, versioned, copied) -> capsule over x's buffer */
static PyObject *f_dlpack_export(PyObject *m, PyObject *args)
{
    PyObject *x;
    int versioned, copied;
    if (!PyArg_ParseTuple(args, "Opp:dlpack_export", &x, &versioned, &copied))
        return NULL;
    if (!ngpy_check(x))
        return PyErr_Format(PyExc_TypeError, "expected a numgpu.ndarray");
    const NgArray *a = ngpy_arr(x);
    DLTensor t;
    memset(&t, 0, sizeof t);
    if (dl_device_of(ng_array_device(a), &t.device) < 0 || dl_dtype_of(a->dtype, &t.dtype) < 0)
        return NULL;
    Export *e = malloc(sizeof *e);
    if (!e)
        return PyErr_NoMemory();
    memset(e, 0, sizeof *e);
    int item = ng_array_itemsize(a);
    for (int d = 0; d < a->ndim; d++) {
        if (a->strides[d] % item != 0) {
            free(e);
            return PyErr_Format(PyExc_BufferError, "DLPack strides are in elements; this view's byte strides "
                                "are not multiples of the item size");
        }
        e->shape[d] = a->shape[d];
        e->strides[d] = a->strides[d] / item;
    }
    /* cl_mem handles take no pointer arithmetic: OpenCL views use byte_offset */
    bool opaque = t.device.device_type == kDLOpenCL;
    t.data = opaque ? a->buf->data : ng_array_data(a);
    t.byte_offset = opaque ? a->offset : 0;
    t.ndim = a->ndim;
    t.shape = e->shape;
    t.strides = e->strides;
    e->buf = a->buf;
    ng_buffer_retain(e->buf);
    PyObject *cap;
    if (versioned) {
        e->m.versioned.version = (DLPackVersion){1, 0};
        e->m.versioned.manager_ctx = e;
        e->m.versioned.deleter = deleter_versioned;
        e->m.versioned.flags = (copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0) |
                               (((NgPyArray *)x)->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
        e->m.versioned.dl_tensor = t;
        cap = PyCapsule_New(&e->m.versioned, NAME_VERSIONED, capsule_destructor);
    } else {
        e->m.legacy.dl_tensor = t;
        e->m.legacy.manager_ctx = e;
        e->m.legacy.deleter = deleter_legacy;
        cap = PyCapsule_New(&e->m.legacy, NAME_LEGACY, capsule_destructor);
    }
    if (!cap)
        export_free(e);
    return cap;
}

/* ---- import ---- */

/* The producer's tensor, kept until our buffer over it is released. */
typedef struct Import {
    void *managed;  /* DLManagedTensor or DLManagedTensorVersioned */
    bool versioned;
} Import;

static void import_release(void *p)
{
    Import *im = p;
    if (im->versioned) {
        DLManagedTensorVersioned *m = im->managed;
        if (m->deleter)
            m->deleter(m);
    } else {
        DLManagedTensor *m = im->managed;
        if (m->deleter)
            m->deleter(m);
    }
    free(im);
}

static NgDType dtype_of_dl(DLDataType t)
{
    if (t.lanes != 1)
        return NG_NODTYPE;
    for (int d = 0; d < NG_NTYPES; d++) {
        DLDataType x;
        dl_dtype_of((NgDType)d, &x);
        if (x.code == t.code && x.bits == t.bits && ng_dtype_info((NgDType)d)->supported)
            return (NgDType)d;
    }
    return NG_NODTYPE;
}

/* The numgpu device holding memory of DLPack device d (zero-copy import). */
static NgDevice *device_of_dl(DLDevice d)
{
    char spec[32];
    if (d.device_type == kDLCPU || d.device_type == kDLCUDAHost || d.device_type == kDLCUDAManaged)
        snprintf(spec, sizeof spec, "cpu"); /* host-addressable memory */
    else if (d.device_type == kDLCUDA)
        snprintf(spec, sizeof spec, "cuda:%d", d.device_id);
    else {
        PyErr_Format(PyExc_BufferError, "numgpu cannot import DLPack tensors from device type %d (only CPU, "
                     "CUDA, and OpenCL tensors that numgpu itself exported)", (int)d.device_type);
        return NULL;
    }
    NgDevice *dev;
    NgStatus st = ng_device_open(spec, &dev);
    if (st != NG_OK) {
        PyErr_Format(PyExc_BufferError, "DLPack tensor on %s, which numgpu cannot open: %s", spec,
                     ng_error_message());
        return NULL;
    }
    return dev;
}

/* Fills a's dtype, shape and byte strides from t; -1 with BufferError. */
static int layout_of(const DLTensor *t, NgArray *a)
{
    a->dtype = dtype_of_dl(t->dtype);
    if (a->dtype == NG_NODTYPE) {
        PyErr_Format(PyExc_BufferError, "numgpu does not support the DLPack dtype (code %d, %d bits, %d lanes)",
                     t->dtype.code, t->dtype.bits, t->dtype.lanes);
        return -1;
    }
    if (t->ndim < 0 || t->ndim > NG_MAXDIMS) {
        PyErr_Format(PyExc_BufferError, "DLPack tensor with %d dimensions (numgpu allows %d)", t->ndim, NG_MAXDIMS);
        return -1;
    }
    a->ndim = t->ndim;
    for (int d = 0; d < t->ndim; d++)
        a->shape[d] = t->shape[d];
    ng_array_set_contiguous_strides(a);
    if (t->strides)
        for (int d = 0; d < t->ndim; d++)
            a->strides[d] = t->strides[d] * ng_dtype_info(a->dtype)->itemsize;
    return 0;
}

/* Wraps foreign memory described by t in a new buffer (zero-copy). */
static int wrap_foreign(const DLTensor *t, void *managed, bool versioned, NgArray *a)
{
    NgDevice *dev = device_of_dl(t->device);
    if (!dev)
        return -1;
    if (a->size == 0) { /* nothing to share: an empty array, and the producer is done */
        int64_t shape[NG_MAXDIMS];
        memcpy(shape, a->shape, sizeof shape);
        NgStatus st = ng_array_empty(dev, a->dtype, a->ndim, shape, a);
        if (st != NG_OK) {
            ngpy_raise(st);
            return -1;
        }
        Import tmp = {managed, versioned};
        Import *im = malloc(sizeof *im);
        if (im) {
            *im = tmp;
            import_release(im);
        }
        return 0;
    }
    int64_t lo = 0, hi = 0, item = ng_dtype_info(a->dtype)->itemsize;
    for (int d = 0; d < a->ndim; d++) {
        int64_t span = (a->shape[d] - 1) * a->strides[d];
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    hi += item;
    Import *im = malloc(sizeof *im);
    if (!im) {
        PyErr_NoMemory();
        return -1;
    }
    im->managed = managed;
    im->versioned = versioned;
    char *elem0 = (char *)t->data + t->byte_offset;
    NgStatus st = ng_buffer_wrap(dev, elem0 + lo, (size_t)(hi - lo), im, import_release, &a->buf);
    if (st != NG_OK) {
        free(im);
        ngpy_raise(st);
        return -1;
    }
    a->offset = (size_t)-lo;
    return 0;
}

/* dlpack_import(capsule) -> (array, flags): a numgpu view of the capsule's
 * tensor; flags are the versioned tensor's (0 for legacy ones). */
static PyObject *f_dlpack_import(PyObject *m, PyObject *cap)
{
    bool versioned = PyCapsule_IsValid(cap, NAME_VERSIONED);
    if (!versioned && !PyCapsule_IsValid(cap, NAME_LEGACY)) {
        if (PyCapsule_CheckExact(cap))
            return PyErr_Format(PyExc_BufferError, "DLPack capsule already consumed or of unknown name %s",
                                PyCapsule_GetName(cap) ? PyCapsule_GetName(cap) : "(null)");
        return PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, got %s", Py_TYPE(cap)->tp_name);
    }
    void *managed = PyCapsule_GetPointer(cap, versioned ? NAME_VERSIONED : NAME_LEGACY);
    const DLTensor *t;
    uint64_t flags = 0;
    bool ours;
    if (versioned) {
        DLManagedTensorVersioned *mv = managed;
        if (mv->version.major != 1)
            return PyErr_Format(PyExc_BufferError, "unsupported DLPack version %u.%u (numgpu reads 1.x)",
                                mv->version.major, mv->version.minor);
        t = &mv->dl_tensor;
        flags = mv->flags;
        ours = mv->deleter == deleter_versioned;
    } else {
        DLManagedTensor *ml = managed;
        t = &ml->dl_tensor;
        ours = ml->deleter == deleter_legacy;
    }
    NgArray a;
    memset(&a, 0, sizeof a);
    if (layout_of(t, &a) < 0)
        return NULL;
    if (ours) { /* share our buffer; the capsule's reference goes with the capsule */
        Export *e = managed;
        a.buf = e->buf;
        ng_buffer_retain(a.buf);
        a.offset = (size_t)((char *)t->data - (char *)e->buf->data) + (size_t)t->byte_offset;
        if (PyCapsule_SetName(cap, versioned ? USED_VERSIONED : USED_LEGACY) < 0) {
            ng_array_release(&a);
            return NULL;
        }
        if (versioned)
            deleter_versioned(managed);
        else
            deleter_legacy(managed);
    } else {
        if (wrap_foreign(t, managed, versioned, &a) < 0)
            return NULL;
        if (PyCapsule_SetName(cap, versioned ? USED_VERSIONED : USED_LEGACY) < 0) {
            ng_array_release(&a); /* calls the producer's deleter */
            return NULL;
        }
    }
    PyObject *arr = ngpy_wrap(&a);
    return arr ? Py_BuildValue("(NK)", arr, (unsigned long long)flags) : NULL;
}

PyMethodDef ngpy_dlpack_functions[] = {
    {"dlpack_device", f_dlpack_device, METH_O, "dlpack_device(x) -> (DLPack device type, device id)."},
    {"dlpack_export", f_dlpack_export, METH_VARARGS,
     "dlpack_export(x, versioned, copied) -> a 'dltensor_versioned' (or legacy 'dltensor') capsule over x."},
    {"dlpack_import", f_dlpack_import, METH_O,
     "dlpack_import(capsule) -> (numgpu array viewing the tensor, DLPack flags); renames the capsule used."},
    {NULL},
};
