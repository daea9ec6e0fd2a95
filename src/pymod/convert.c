/* Conversions between Python objects and the C API: errors, operands,
 * dtypes, shapes, axes, indices, and host arrays (through the buffer
 * protocol, so the binding needs no NumPy headers). */
#include "pymod.h"

#include <string.h>

NgPyState ngpy;

PyObject *ngpy_raise(NgStatus st)
{
    const char *msg = ng_error_message();
    PyObject *exc;
    switch (st) {
    case NG_ERR_NOMEM: exc = PyExc_MemoryError; break;
    case NG_ERR_DEVICE_OOM: exc = ngpy.OutOfMemoryError; break;
    case NG_ERR_VALUE: exc = PyExc_ValueError; break;
    case NG_ERR_TYPE: exc = PyExc_TypeError; break;
    case NG_ERR_INDEX: exc = PyExc_IndexError; break;
    case NG_ERR_AXIS: exc = ngpy.AxisError ? ngpy.AxisError : PyExc_ValueError; break;
    case NG_ERR_OVERFLOW: exc = PyExc_OverflowError; break;
    case NG_ERR_COMPILE: exc = ngpy.CompileError; break;
    case NG_ERR_DEVICE: exc = ngpy.DeviceError; break;
    case NG_ERR_UNSUPPORTED: exc = PyExc_NotImplementedError; break;
    default: exc = PyExc_RuntimeError; break;
    }
    if (st == NG_ERR_COMPILE) {
        PyObject *e = PyObject_CallFunction(exc, "s", msg);
        if (e) {
            PyObject *log = PyUnicode_DecodeUTF8(ng_error_log(), (Py_ssize_t)strlen(ng_error_log()), "replace");
            if (log) {
                PyObject_SetAttrString(e, "log", log);
                Py_DECREF(log);
            }
            PyErr_SetObject(exc, e);
            Py_DECREF(e);
        }
        return NULL;
    }
    PyErr_SetString(exc, msg);
    return NULL;
}

/* The device new arrays go to. In a child forked from a process using a GPU, the GPU is lost
 * (its driver does not survive fork): new arrays go to cpu there, so a multiprocessing worker's
 * own work runs (the parent's arrays it inherited raise ng_device_usable's error). */
NgDevice *ngpy_device(void)
{
    if (ngpy.device && ng_device_lost(ngpy.device) && ng_device_open("cpu", &ngpy.device) != NG_OK) {
        ngpy_raise(NG_ERR_DEVICE);
        return NULL;
    }
    if (!ngpy.device) {
        NgStatus st = ng_device_default(&ngpy.device);
        if (st != NG_OK) {
            ngpy_raise(st);
            return NULL;
        }
    }
    return ngpy.device;
}

/* o owns its buffer when it is the first array made of it, else views the owner's (x.base). */
static void adopt(NgPyArray *o)
{
    NgBuffer *b = o->arr.buf;
    if (!b->owner) {
        b->owner = o;
    } else if (b->owner != o) {
        o->base = (PyObject *)b->owner;
        Py_INCREF(o->base);
    }
}

void ngpy_disown(NgPyArray *o)
{
    if (o->arr.buf && o->arr.buf->owner == o)
        o->arr.buf->owner = NULL;
    Py_CLEAR(o->base);
}

void ngpy_become(NgPyArray *o, NgArray *a)
{
    ngpy_disown(o);
    ng_array_release(&o->arr);
    o->arr = *a;
    a->buf = NULL;
    adopt(o);
}

PyObject *ngpy_wrap(NgArray *a) { return ngpy_wrap_type(a, ngpy.ndarray_type); }

PyObject *ngpy_wrap_type(NgArray *a, PyTypeObject *type)
{
    /* (a Python subclass's instances come from its tp_alloc: they may have a __dict__ and GC) */
    NgPyArray *o = type == ngpy.ndarray_type ? PyObject_New(NgPyArray, type) : (NgPyArray *)type->tp_alloc(type, 0);
    if (!o) {
        ng_array_release(a);
        return NULL;
    }
    memcpy(&o->arr, a, sizeof *a);
    o->weakreflist = NULL;
    o->exports = 0;
    o->scalar = false;
    o->base = NULL;
    o->readonly = false;
    a->buf = NULL;
    adopt(o);
    return (PyObject *)o;
}

static bool subclass_instance(PyObject *o)
{
    return o && Py_TYPE(o) != ngpy.ndarray_type && ngpy_check(o);
}

PyObject *ngpy_keep_subclass(PyObject *r, PyObject *a, PyObject *b)
{
    PyObject *like = subclass_instance(a) ? a : subclass_instance(b) ? b : NULL;
    if (!r || !like || !ngpy.subclass_hook || !ngpy_check(r) || Py_TYPE(r) != ngpy.ndarray_type)
        return r;
    PyObject *w = PyObject_CallFunctionObjArgs(ngpy.subclass_hook, r, like, NULL);
    Py_DECREF(r);
    return w;
}

PyObject *ngpy_wrap_from(NgArray *a, PyObject *from)
{
    bool readonly = from && ngpy_check(from) && ((NgPyArray *)from)->readonly && a->buf == ngpy_arr(from)->buf;
    PyObject *o = ngpy_wrap(a);
    if (o)
        ((NgPyArray *)o)->readonly = readonly;
    return o;
}

static void release_view(void *view)
{
    PyBuffer_Release((Py_buffer *)view);
    PyMem_Free(view);
}

int ngpy_wrap_host(PyObject *v, NgDevice *dev, bool writable, NgArray *arr)
{
    Py_buffer *view = PyMem_Malloc(sizeof *view);
    if (!view) {
        PyErr_NoMemory();
        return -1;
    }
    if (PyObject_GetBuffer(v, view, writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO) < 0) { /* e.g. read-only */
        PyErr_Clear();
        PyMem_Free(view);
        return 1;
    }
    /* the dtype from the buffer's format (NG_NODTYPE for a byte-swapped array: uploaded in the
     * host's order instead); float64 under the precision policy is uploaded too, as float32 */
    NgDType t = ngpy_dtype_of_format(view->format, view->itemsize);
    if (ngpy.float32 && (t == NG_FLOAT64 || t == NG_COMPLEX128))
        t = NG_NODTYPE;
    bool aligned = view->itemsize > 0 && ((uintptr_t)view->buf % (uintptr_t)view->itemsize) == 0;
    for (int d = 0; d < view->ndim && aligned; d++)
        aligned = view->strides[d] % view->itemsize == 0;
    if (t == NG_NODTYPE || ng_dtype_info(t)->itemsize != view->itemsize || !aligned || view->ndim > NG_MAXDIMS) {
        PyErr_Clear();
        release_view(view);
        return 1;
    }
    memset(arr, 0, sizeof *arr);
    if (ng_buffer_wrap(dev, view->buf, (size_t)view->len, view, release_view, &arr->buf) != NG_OK) {
        release_view(view);
        ngpy_raise(NG_ERR_NOMEM);
        return -1;
    }
    arr->dtype = t;
    arr->ndim = view->ndim;
    arr->size = 1;
    for (int d = 0; d < view->ndim; d++) {
        arr->shape[d] = view->shape[d];
        arr->strides[d] = view->strides[d];
        arr->size *= view->shape[d];
    }
    return 0;
}

int ngpy_check_writeable(PyObject *o, const char *what)
{
    if (ngpy_check(o) && ((NgPyArray *)o)->readonly) {
        PyErr_Format(PyExc_ValueError, "%s is read-only", what);
        return -1;
    }
    return 0;
}

/* The Python number (bool, int, float, complex) of the element of dtype dt at p, as NumPy's item(). */
static PyObject *python_value(NgDType dt, const void *p)
{
    PyObject *v;
    switch (dt) {
    case NG_BOOL: v = PyBool_FromLong(*(const uint8_t *)p); break;
    case NG_INT8: v = PyLong_FromLong(*(const int8_t *)p); break;
    case NG_INT16: v = PyLong_FromLong(*(const int16_t *)p); break;
    case NG_INT32: v = PyLong_FromLong(*(const int32_t *)p); break;
    case NG_INT64: v = PyLong_FromLongLong(*(const int64_t *)p); break;
    case NG_UINT8: v = PyLong_FromLong(*(const uint8_t *)p); break;
    case NG_UINT16: v = PyLong_FromLong(*(const uint16_t *)p); break;
    case NG_UINT32: v = PyLong_FromUnsignedLong(*(const uint32_t *)p); break;
    case NG_UINT64: v = PyLong_FromUnsignedLongLong(*(const uint64_t *)p); break;
    case NG_FLOAT32: v = PyFloat_FromDouble(*(const float *)p); break;
    case NG_FLOAT64: v = PyFloat_FromDouble(*(const double *)p); break;
    case NG_COMPLEX64: v = PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]); break;
    case NG_COMPLEX128: v = PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]); break;
    case NG_FLOAT16: v = PyFloat_FromDouble(PyFloat_Unpack2((const char *)p, 1)); break; /* (exact) */
    default: v = NULL; PyErr_SetString(PyExc_TypeError, "no NumPy scalar of this dtype"); break;
    }
    return v;
}

/* The elements of a's axes from d on, at p, as nested lists (NumPy's tolist); NULL with an exception. */
static PyObject *host_list(const NgArray *a, int d, const char *p)
{
    if (d == a->ndim)
        return python_value(a->dtype, p);
    PyObject *list = PyList_New(a->shape[d]);
    for (int64_t i = 0; list && i < a->shape[d]; i++) {
        PyObject *item = host_list(a, d + 1, p + i * a->strides[d]);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, item);
    }
    return list;
}

PyObject *ngpy_tolist(const NgArray *a)
{
    if (ng_device_host_visible(ng_array_device(a)))   /* (read in place: no copy made first) */
        return host_list(a, 0, ng_array_data(a));
    PyObject *np = ngpy_to_numpy(a);
    if (!np)
        return NULL;
    PyObject *r = PyObject_CallMethod(np, "tolist", NULL);
    Py_DECREF(np);
    return r;
}

PyObject *ngpy_numpy_scalar(const NgArray *view)
{
    static PyObject *types[NG_NTYPES]; /* (numpy.float64, ..., looked up once) */
    NgDType dt = view->dtype;
    if (!types[dt]) {
        PyObject *d = ngpy_dtype_object(dt);
        types[dt] = d ? PyObject_GetAttrString(d, "type") : NULL;
        Py_XDECREF(d);
        if (!types[dt])
            return NULL;
    }
    unsigned char bytes[16]; /* (a GPU's element, downloaded: the largest dtype is complex128) */
    const void *p = bytes;
    if (ng_device_host_visible(ng_array_device(view))) {
        p = ng_array_data(view);
    } else {
        NgStatus st;
        Py_BEGIN_ALLOW_THREADS
        st = ng_array_download(view, bytes, NULL);
        Py_END_ALLOW_THREADS
        if (st != NG_OK)
            return ngpy_raise(st);
        if (ngpy_fpe_deferred() < 0) /* (the warnings of the kernels it waited for) */
            return NULL;
    }
    PyObject *v = python_value(dt, p);
    PyObject *r = v ? PyObject_CallOneArg(types[dt], v) : NULL;
    Py_XDECREF(v);
    return r;
}

/* Whether code is one of the Python wrappers of _fallback.WRAPPERS (a set of a few code objects:
 * compared by identity against a tuple made again when the set grows, since a code object's hash
 * is computed anew each time, over its constants and names). */
static bool is_wrapper(PyCodeObject *code)
{
    static PyObject *seen;  /* (the set's items as a tuple) */
    if (!ngpy.wrappers)
        return false;
    if (!seen || PyTuple_GET_SIZE(seen) != PySet_GET_SIZE(ngpy.wrappers)) {
        PyObject *t = PySequence_Tuple(ngpy.wrappers);
        if (!t) {
            PyErr_Clear();
            return false;
        }
        Py_XSETREF(seen, t);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seen); i++)
        if (PyTuple_GET_ITEM(seen, i) == (PyObject *)code)
            return true;
    return false;
}

bool ngpy_called_by_numgpu(void)
{
    PyFrameObject *frame = PyEval_GetFrame(); /* borrowed */
    if (!frame || !ngpy.package_dir)
        return false;
    Py_INCREF(frame);
    bool ours;
    for (;;) { /* (a frame of the package's is a wrapper, its caller the one asked about, or numgpu's own) */
        PyCodeObject *code = PyFrame_GetCode(frame);
        ours = PyUnicode_Tailmatch(code->co_filename, ngpy.package_dir, 0, PY_SSIZE_T_MAX, -1) == 1;
        bool wrapper = ours && is_wrapper(code);
        Py_DECREF(code);
        PyFrameObject *back = wrapper ? PyFrame_GetBack(frame) : NULL;
        Py_DECREF(frame);
        if (!wrapper)
            break;
        if (!back)
            return false;
        frame = back;
    }
    return ours;
}

PyObject *ngpy_wrap_result(NgArray *a, bool scalar)
{
    bool zero_d = a->ndim == 0;
    if (scalar && zero_d && ngpy.numpy_scalars && !ngpy_called_by_numgpu()) {
        PyObject *r = ngpy_numpy_scalar(a);
        ng_array_release(a);
        return r;
    }
    PyObject *o = ngpy_wrap(a);
    if (o)
        ((NgPyArray *)o)->scalar = scalar && zero_d;
    return o;
}

int ngpy_implicit(bool upload, PyObject *what)
{
    if (ngpy.strict) {
        PyErr_Format(PyExc_RuntimeError, "NUMGPU_STRICT=1: implicit %s of a %s (%s); convert explicitly with "
                     "%s", upload ? "upload" : "download", Py_TYPE(what)->tp_name,
                     upload ? "an operation was given host data" : "NumPy asked for device data",
                     upload ? "numgpu.asarray(x)" : "x.get()");
        return -1;
    }
    ng_stats_count_implicit(upload);
    return 0;
}

/* NumPy's ComplexWarning when a cast drops imaginary parts (complex -> a
 * real float or an integer; complex -> bool is a nonzero test and silent),
 * once per call as NumPy gives it; -1 when the warning is an error
 * (warnings filter "error"). */
int ngpy_warn_complex_cast(NgDType from, NgDType to)
{
    static PyObject *category; /* numpy.exceptions.ComplexWarning, looked up once */
    if (!ng_dtype_is_complex(from) || ng_dtype_is_complex(to) || to == NG_BOOL)
        return 0;
    if (!category) {
        PyObject *mod = PyImport_ImportModule("numpy.exceptions");
        category = mod ? PyObject_GetAttrString(mod, "ComplexWarning") : NULL;
        Py_XDECREF(mod);
        if (!category)
            return -1;
    }
    return PyErr_WarnEx(category, "Casting complex values to real discards the imaginary part", 1);
}

/* ---- dtypes ---- */

/* The dtype of a native-order NumPy dtype object from its kind and itemsize
 * (C-level attributes: .name is computed in Python, a few microseconds per
 * call, which a jit launch pays per array), looked up in the dtype table;
 * NG_NODTYPE for anything else. */
static NgDType dtype_by_kind(PyObject *dt)
{
    PyObject *native = PyObject_GetAttrString(dt, "isnative");
    PyObject *kind = native == Py_True ? PyObject_GetAttrString(dt, "kind") : NULL;
    PyObject *size = kind ? PyObject_GetAttrString(dt, "itemsize") : NULL;
    NgDType t = NG_NODTYPE;
    const char *k = kind && PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
    long n = size ? PyLong_AsLong(size) : -1;
    const char *at = k && k[0] && !k[1] ? strchr("biufc", k[0]) : NULL; /* NgKind's order */
    for (int i = 0; at && i < NG_NTYPES && t == NG_NODTYPE; i++)
        if (ng_dtype_info((NgDType)i)->kind == (NgKind)(at - "biufc") && ng_dtype_info((NgDType)i)->itemsize == n &&
            ng_dtype_info((NgDType)i)->supported)
            t = (NgDType)i;
    Py_XDECREF(native);
    Py_XDECREF(kind);
    Py_XDECREF(size);
    PyErr_Clear(); /* (any failure: the slow path says what is wrong) */
    return t;
}

/* The dtype arguments met so far (NumPy dtype objects, scalar types such as np.float64 or float,
 * strs), each held: a pointer is only compared while its object lives. A jit launch or an
 * operation taking dtype= (np.zeros(3, np.float32)) would pay NumPy's conversion each time,
 * several microseconds through Python-level attributes. */
static struct {
    PyObject *key; /* a reference held */
    NgDType t;     /* its dtype, before the precision policy */
} known_dtypes[64];

static bool dtype_known(PyObject *key, NgDType *t)
{
    for (int i = 0; i < (int)(sizeof known_dtypes / sizeof *known_dtypes) && known_dtypes[i].key; i++)
        if (known_dtypes[i].key == key) {
            *t = known_dtypes[i].t;
            return true;
        }
    return false;
}

static void dtype_remember(PyObject *key, NgDType t)
{
    for (int i = 0; i < (int)(sizeof known_dtypes / sizeof *known_dtypes); i++)
        if (!known_dtypes[i].key) {
            Py_INCREF(key);
            known_dtypes[i].key = key;
            known_dtypes[i].t = t;
            return;
        }
}

int ngpy_dtype(PyObject *o, NgDType *out)
{
    if (o == NULL || o == Py_None) {
        *out = NG_NODTYPE;
        return 0;
    }
    NgDType t;
    if (!dtype_known(o, &t)) {
        bool is_dtype = PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_dtype);
        t = is_dtype ? dtype_by_kind(o) : NG_NODTYPE;
        if (t == NG_NODTYPE) { /* by NumPy's name of it, which also names what is not supported */
            PyObject *dt = PyObject_CallOneArg(ngpy.np_dtype, o);
            if (!dt)
                return -1;
            PyObject *native = PyObject_GetAttrString(dt, "isnative");
            if (native == Py_False) { /* '>f4' on a little-endian host: NumPy's data in that byte order */
                PyErr_Format(ngpy.UnsupportedDtypeError, "numgpu does not support dtype %R (non-native byte order) yet",
                             dt);
                Py_DECREF(native);
                Py_DECREF(dt);
                return -1;
            }
            Py_XDECREF(native);
            PyObject *name = PyObject_GetAttrString(dt, "name");
            Py_DECREF(dt);
            if (!name)
                return -1;
            const char *s = PyUnicode_AsUTF8(name);
            t = s ? ng_dtype_from_name(s) : NG_NODTYPE;
            if (s && (t == NG_NODTYPE || !ng_dtype_info(t)->supported))
                PyErr_Format(ngpy.UnsupportedDtypeError, "numgpu does not support dtype %s yet", s);
            Py_DECREF(name);
            if (PyErr_Occurred())
                return -1;
        }
        if (is_dtype || PyType_Check(o) || PyUnicode_CheckExact(o))
            dtype_remember(o, t);
    }
    if (t == NG_FLOAT64 && ngpy.float32) /* precision policy */
        t = NG_FLOAT32;
    else if (t == NG_COMPLEX128 && ngpy.float32)
        t = NG_COMPLEX64;
    *out = t;
    return 0;
}

PyObject *ngpy_dtype_object(NgDType t)
{
    static PyObject *made[NG_NTYPES]; /* (numpy.dtype(name), made once per dtype) */
    if ((int)t < 0 || (int)t >= NG_NTYPES)
        return PyObject_CallFunction(ngpy.np_dtype, "s", ng_dtype_info(t)->name);
    if (!made[t] && !(made[t] = PyObject_CallFunction(ngpy.np_dtype, "s", ng_dtype_info(t)->name)))
        return NULL;
    Py_INCREF(made[t]);
    return made[t];
}

/* Buffer format -> dtype ('<d', '=i', 'l', ...); NG_NODTYPE for anything else,
 * a byte-swapped array ('>d') included. */
NgDType ngpy_dtype_of_format(const char *fmt, Py_ssize_t itemsize)
{
    if (!fmt)
        return NG_UINT8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const char native = '>';
#else
    const char native = '<';
#endif
    if (*fmt == native || *fmt == '=' || *fmt == '@' || *fmt == '|')
        fmt++;
    if (fmt[0] == 'Z' && fmt[1] && !fmt[2]) /* complex: 'Z' + the part's code */
        return fmt[1] == 'f' ? NG_COMPLEX64 : fmt[1] == 'd' ? NG_COMPLEX128 : NG_NODTYPE;
    if (fmt[0] == 0 || fmt[1] != 0)
        return NG_NODTYPE;
    switch (fmt[0]) {
    case '?': return NG_BOOL;
    case 'b': return NG_INT8;
    case 'B': return NG_UINT8;
    case 'h': return NG_INT16;
    case 'H': return NG_UINT16;
    case 'i': return itemsize == 4 ? NG_INT32 : NG_NODTYPE;
    case 'I': return itemsize == 4 ? NG_UINT32 : NG_NODTYPE;
    case 'l': case 'q': return itemsize == 8 ? NG_INT64 : itemsize == 4 ? NG_INT32 : NG_NODTYPE;
    case 'L': case 'Q': return itemsize == 8 ? NG_UINT64 : itemsize == 4 ? NG_UINT32 : NG_NODTYPE;
    case 'e': return NG_FLOAT16;
    case 'f': return NG_FLOAT32;
    case 'd': return NG_FLOAT64;
    default: return NG_NODTYPE;
    }
}

/* ---- host arrays ---- */

/* Uploads an object exposing the buffer protocol (a numpy array). */
static int upload_buffer(PyObject *o, NgArray *out)
{
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_RECORDS_RO) < 0) {
        /* NumPy exports no buffer for some dtypes (datetime64: ValueError): unsupported too */
        PyObject *npdt = PyErr_ExceptionMatches(PyExc_ValueError) ? PyObject_GetAttrString(o, "dtype") : NULL;
        if (npdt) {
            PyErr_Clear();
            PyErr_Format(ngpy.UnsupportedDtypeError, "numgpu does not support dtype %S yet (supported: bool, int8-64, "
                         "uint8-64, float16-64, complex64, complex128)", npdt);
            Py_DECREF(npdt);
        }
        return -1;
    }
    NgDType dt = ngpy_dtype_of_format(view.format, view.itemsize);
    int rc = -1;
    ngpy.uploaded_readonly = view.readonly;
    if (dt == NG_NODTYPE) {
        PyObject *npdt = PyObject_GetAttrString(o, "dtype");
        if (!npdt)
            PyErr_Clear();
        if (npdt)
            PyErr_Format(ngpy.UnsupportedDtypeError, "numgpu does not support dtype %S yet (supported: bool, int8-64, "
                         "uint8-64, float16-64, complex64, complex128)", npdt);
        else
            PyErr_Format(ngpy.UnsupportedDtypeError, "numgpu does not support arrays with buffer format '%s' yet "
                         "(supported: bool, int8-64, uint8-64, float16-64, complex64, complex128)", view.format ? view.format : "B");
        Py_XDECREF(npdt);
        goto done;
    }
    NgDevice *dev = ngpy_device();
    if (!dev)
        goto done;
    int64_t shape[NG_MAXDIMS], strides[NG_MAXDIMS];
    for (int d = 0; d < view.ndim; d++) {
        shape[d] = view.shape[d];
        strides[d] = view.strides ? view.strides[d] : 0;
    }
    NgStatus st = ng_array_empty(dev, dt, view.ndim, shape, out);
    if (st == NG_OK) {
        st = ng_array_upload(out, view.buf, view.strides ? strides : NULL);
        if (st != NG_OK)
            ng_array_release(out);
    }
    if (st == NG_OK && (dt == NG_FLOAT64 || dt == NG_COMPLEX128) && ngpy.float32) {
        /* precision policy: float64 data runs as float32 (complex128 as complex64) */
        NgArray f32;
        st = ng_op_astype(out, dt == NG_FLOAT64 ? NG_FLOAT32 : NG_COMPLEX64, &f32);
        ng_array_release(out);
        if (st == NG_OK)
            *out = f32;
    }
    if (st != NG_OK)
        ngpy_raise(st);
    else
        rc = 0;
done:
    PyBuffer_Release(&view);
    return rc;
}

/* A byte-swapped NumPy array's values in the host's order (data written on
 * another machine, a file's), converted by NumPy (a new reference); NULL,
 * with no error set, for any other array. */
static PyObject *native_order(PyObject *np)
{
    PyObject *dt = PyObject_GetAttrString(np, "dtype");
    PyObject *native = dt ? PyObject_GetAttrString(dt, "isnative") : NULL;
    PyObject *order = native == Py_False ? PyObject_CallMethod(dt, "newbyteorder", "s", "=") : NULL;
    PyObject *fixed = order ? PyObject_CallMethod(np, "astype", "O", order) : NULL;
    if (native != Py_False)
        PyErr_Clear();
    Py_XDECREF(order);
    Py_XDECREF(native);
    Py_XDECREF(dt);
    return fixed;
}

/* o.__array__() where NumPy would take it (a new reference): o no NumPy array or scalar, no list,
 * number or str, without the buffer protocol or NumPy's array interfaces (which NumPy asks first),
 * and its type defines __array__. NULL otherwise (no error set), or NULL with the error its
 * __array__ raised. (One call: a dask array's __array__ computes it.) */
static PyObject *array_protocol(PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (PyList_Check(o) || PyTuple_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o) ||
        PyUnicode_Check(o) || PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray) ||
        PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic) || PyObject_CheckBuffer(o))
        return NULL;
    static PyObject *name, *iface, *strct;
    if (!name && (!(name = PyUnicode_InternFromString("__array__")) ||
                  !(iface = PyUnicode_InternFromString("__array_interface__")) ||
                  !(strct = PyUnicode_InternFromString("__array_struct__"))))
        return NULL;
    if (!_PyType_Lookup(t, name) || _PyType_Lookup(t, iface) || _PyType_Lookup(t, strct))
        return NULL;
    return PyObject_CallMethodNoArgs(o, name);
}

int ngpy_to_array(PyObject *o, NgDType dtype, NgArray *out)
{
    NgStatus st;
    if (ngpy_check(o)) {
        const NgArray *a = ngpy_arr(o);
        if (dtype == NG_NODTYPE || dtype == a->dtype) {
            ng_array_view(a, out);
            return 0;
        }
        if (ngpy_warn_complex_cast(a->dtype, dtype) < 0)
            return -1;
        st = ng_op_astype(a, dtype, out);
        return st == NG_OK ? 0 : (ngpy_raise(st), -1);
    }
    /* An object's __array__, called once: a numgpu array it gives taken as NumPy takes an
     * __array__'s NumPy array (a wrapper class written with `import numgpu as np`, or run by numgpu
     * run: its `np.asarray(self.v)` is ours; numpy.asarray refused it: "object __array__ method
     * not producing an array") */
    PyObject *given = array_protocol(o);
    if (given && (ngpy_check(given) || PyObject_TypeCheck(given, (PyTypeObject *)ngpy.np_ndarray))) {
        int rc = ngpy_to_array(given, dtype, out);
        Py_DECREF(given);
        return rc;
    }
    Py_XDECREF(given);
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError))
        return -1;
    PyErr_Clear(); /* (an __array__ wanting arguments: NumPy's asarray calls it its way) */
    /* numpy.asarray handles lists, scalars and anything array-like; the
     * dtype conversion happens on the host so values are NumPy's. */
    PyObject *np, *argv[2] = {o, NULL};
    if (dtype != NG_NODTYPE) {
        if (!(argv[1] = ngpy_dtype_object(dtype)))
            return -1;
        np = PyObject_Vectorcall(ngpy.np_asarray, argv, 2, NULL);
        Py_DECREF(argv[1]);
    } else {
        np = PyObject_Vectorcall(ngpy.np_asarray, argv, 1, NULL);
    }
    if (!np)
        return -1;
    /* NumPy's default dtypes for Python objects we do not support (object, str). */
    int rc = upload_buffer(np, out);
    if (rc < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *fixed = native_order(np);
        if (fixed || PyErr_Occurred()) { /* (a conversion that failed says why) */
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        } else {
            PyErr_Restore(type, value, tb);
        }
        if (fixed)
            rc = upload_buffer(fixed, out);
        Py_XDECREF(fixed);
    }
    Py_DECREF(np);
    return rc;
}

int ngpy_operand(PyObject *o, NgOperand *op, NgArray *tmp)
{
    memset(op, 0, sizeof *op);
    tmp->buf = NULL;
    if (ngpy_check(o)) {
        op->array = ngpy_arr(o);
        return 0;
    }
    if (PyBool_Check(o)) {
        op->scalar.kind = NG_KIND_BOOL;
        op->scalar.v.i = o == Py_True;
        return 0;
    }
    if (PyLong_CheckExact(o) || (PyLong_Check(o) && !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic))) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        op->scalar.kind = NG_KIND_INT;
        if (overflow > 0) {
            unsigned long long u = PyLong_AsUnsignedLongLong(o);
            if (PyErr_Occurred()) { /* beyond uint64: only comparisons can use it, as a float */
                PyErr_Clear();
                op->scalar.kind = NG_KIND_FLOAT;
                op->scalar.big = true;
                op->scalar.v.f = PyLong_AsDouble(o); /* (beyond float64: NumPy's OverflowError) */
                return op->scalar.v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
            }
            op->scalar.big = true;
            op->scalar.v.u = u;
        } else if (overflow < 0) {
            op->scalar.kind = NG_KIND_FLOAT;
            op->scalar.big = true;
            op->scalar.v.f = PyLong_AsDouble(o);
            return op->scalar.v.f == -1.0 && PyErr_Occurred() ? -1 : 0;
        } else {
            op->scalar.v.i = v;
        }
        return 0;
    }
    if (PyFloat_CheckExact(o) || (PyFloat_Check(o) && !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic))) {
        op->scalar.kind = NG_KIND_FLOAT;
        op->scalar.v.f = PyFloat_AsDouble(o);
        return 0;
    }
    if (PyComplex_CheckExact(o) || (PyComplex_Check(o) && !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic))) {
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred())
            return -1;
        op->scalar.kind = NG_KIND_COMPLEX;
        op->scalar.v.f = c.real;
        op->scalar.im = c.imag;
        return 0;
    }
    /* A NumPy array on a device in host memory (cpu): read where it is, no copy (and so no
     * transfer, as NumPy reads numgpu's arrays in place there); memory shared with the result is
     * found by address (ng_array_may_overlap). */
    if (Py_IS_TYPE(o, (PyTypeObject *)ngpy.np_ndarray)) {
        NgDevice *dev = ngpy_device();
        if (!dev || (ngpy.strict && ngpy_implicit(true, o) < 0)) /* (NUMGPU_STRICT: an upload on a GPU) */
            return -1;
        int rc = ng_device_host_visible(dev) ? ngpy_wrap_host(o, dev, false, tmp) : 1;
        if (rc <= 0) {
            op->array = rc == 0 ? tmp : NULL;
            return rc;
        }
    }
    /* NumPy scalars, NumPy arrays, lists: strong dtypes, uploaded. */
    if (ngpy_implicit(true, o) < 0 || ngpy_to_array(o, NG_NODTYPE, tmp) < 0)
        return -1;
    op->array = tmp;
    return 0;
}

PyObject *ngpy_to_numpy(const NgArray *a)
{
    PyObject *shape = PyTuple_New(a->ndim);
    if (!shape)
        return NULL;
    for (int d = 0; d < a->ndim; d++)
        PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(a->shape[d]));
    /* an array in Fortran order (and not C's) comes back in Fortran order, as NumPy's copies of
     * it (order='K'): np.save writes fortran_order True, a transposed result stays transposed */
    bool fortran = a->ndim >= 2 && ng_array_is_f_contiguous(a) && !ng_array_is_c_contiguous(a);
    PyObject *dt = ngpy_dtype_object(a->dtype);
    PyObject *res = dt ? PyObject_CallMethod(ngpy.numpy, "empty", "OOs", shape, dt, fortran ? "F" : "C") : NULL;
    Py_DECREF(shape);
    Py_XDECREF(dt);
    if (!res)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(res, &view, PyBUF_RECORDS) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    NgArray src;
    NgStatus st = NG_OK;
    bool host = ng_device_host_visible(ng_array_device(a));
    if (fortran) { /* its memory is the C order of its transpose */
        int perm[NG_MAXDIMS];
        for (int d = 0; d < a->ndim; d++)
            perm[d] = a->ndim - 1 - d;
        st = ng_op_transpose(a, perm, &src);
    } else if (host) {
        ng_array_view(a, &src);
    } else {
        st = ng_op_ascontiguous(a, false, &src);
    }
    if (st == NG_OK) {
        st = ng_array_download(&src, view.buf, NULL);
        ng_array_release(&src);
    }
    PyBuffer_Release(&view);
    if (st != NG_OK) {
        Py_DECREF(res);
        return ngpy_raise(st);
    }
    if (!host && ngpy_fpe_deferred() < 0) { /* (the warnings of the kernels it waited for) */
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

/* ---- shapes and axes ---- */

int ngpy_shape(PyObject *o, int *ndim, int64_t *shape)
{
    if (PyIndex_Check(o)) {
        Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred()) {
            /* (an array of several ints, numgpu's or NumPy's, also has __index__: a sequence) */
            if (!PyErr_ExceptionMatches(PyExc_TypeError) || !PySequence_Check(o))
                return -1;
            PyErr_Clear();
        } else {
            *ndim = 1;
            shape[0] = v;
            return 0;
        }
    }
    PyObject *seq = PySequence_Fast(o, "shape must be an int or a sequence of ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > NG_MAXDIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is %d, found %zd", NG_MAXDIMS, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyIndex_Check(item)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as an integer", Py_TYPE(item)->tp_name);
            return -1;
        }
        shape[i] = PyNumber_AsSsize_t(item, PyExc_OverflowError);
        if (shape[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    *ndim = (int)n;
    Py_DECREF(seq);
    return 0;
}

int ngpy_axes(PyObject *o, int *naxes, int *axes)
{
    if (!o || o == Py_None) {
        *naxes = -1;
        return 0;
    }
    int64_t tmp[NG_MAXDIMS];
    int n;
    if (ngpy_shape(o, &n, tmp) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        axes[i] = (int)tmp[i];
    *naxes = n;
    return 0;
}

int ngpy_reduce_warn(int op, const NgArray *a, int naxes, const int *axes, int ddof)
{
    if (op != NG_RED_MEAN && op != NG_RED_VAR && op != NG_RED_STD)
        return 0;
    int64_t n = 1;
    if (naxes < 0) {
        for (int d = 0; d < a->ndim; d++)
            n *= a->shape[d];
    } else {
        for (int i = 0; i < naxes; i++) {
            int ax = axes[i] < 0 ? axes[i] + a->ndim : axes[i];
            if (ax < 0 || ax >= a->ndim)
                return 0;
            n *= a->shape[ax];
        }
    }
    if (op == NG_RED_MEAN ? n == 0 : (int64_t)ddof >= n)
        return PyErr_WarnEx(PyExc_RuntimeWarning,
                            op == NG_RED_MEAN ? "Mean of empty slice" : "Degrees of freedom <= 0 for slice", 1);
    return 0;
}

/* ---- indices ---- */

static bool zero_d_integer(PyObject *o)
{
    if (ngpy_check(o))
        return ngpy_arr(o)->ndim == 0 && ng_dtype_is_int(ngpy_arr(o)->dtype);
    NgDType dt = NG_NODTYPE;
    PyObject *nd = PyObject_GetAttrString(o, "ndim"), *d = PyObject_GetAttrString(o, "dtype");
    bool zero_d = nd && PyLong_Check(nd) && PyLong_AsLong(nd) == 0;
    if (zero_d && d && ngpy_dtype(d, &dt) < 0)
        dt = NG_NODTYPE;
    Py_XDECREF(nd);
    Py_XDECREF(d);
    PyErr_Clear();
    return zero_d && dt != NG_NODTYPE && ng_dtype_is_int(dt);
}

static int index_item(PyObject *o, NgIndex *it, NgArray *tmps, int *ntmp)
{
    memset(it, 0, sizeof *it);
    if (o == Py_None) {
        it->kind = NG_IDX_NEWAXIS;
        return 0;
    }
    if (o == Py_Ellipsis) {
        it->kind = NG_IDX_ELLIPSIS;
        return 0;
    }
    if (PySlice_Check(o)) {
        PySliceObject *s = (PySliceObject *)o;
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(o, &start, &stop, &step) < 0)
            return -1;
        it->kind = NG_IDX_SLICE;
        it->has_start = s->start != Py_None;
        it->has_stop = s->stop != Py_None;
        it->has_step = s->step != Py_None;
        it->start = start;
        it->stop = stop;
        it->step = s->step == Py_None ? 1 : step;
        if (it->has_step && step == 0 && PyLong_Check(s->step) && PyLong_AsLong(s->step) == 0) {
            PyErr_SetString(PyExc_ValueError, "slice step cannot be zero");
            return -1;
        }
        return 0;
    }
    if (!PyBool_Check(o) && PyIndex_Check(o) &&
        ((!ngpy_check(o) && !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray)) || zero_d_integer(o))) {
        /* (a 0-d integer array, x.argmax() or met iterating an array, is an integer, as NumPy's) */
        Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_IndexError);
        if (v == -1 && PyErr_Occurred())
            return -1;
        it->kind = NG_IDX_INT;
        it->i = v;
        return 0;
    }
    bool np_scalar = PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic); /* (np.True_: a 0-d mask) */
    if (ngpy_check(o) || PyList_Check(o) || PyTuple_Check(o) || PyBool_Check(o) || np_scalar ||
        PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray)) {
        NgArray *a = &tmps[(*ntmp)];
        if (ngpy_to_array(o, NG_NODTYPE, a) < 0)
            return -1;
        (*ntmp)++;
        if (np_scalar && a->dtype != NG_BOOL)
            goto invalid;
        if (a->size == 0 && !ng_dtype_is_int(a->dtype) && (PyList_Check(o) || PyTuple_Check(o))) {
            /* x[[]]: NumPy's empty list is an empty integer index (its float64 array is not) */
            NgArray e;
            NgStatus st = ng_array_empty(ng_array_device(a), NG_INT64, a->ndim, a->shape, &e);
            if (st != NG_OK)
                return (ngpy_raise(st), -1);
            ng_array_release(a);
            *a = e;
        }
        if (a->dtype == NG_BOOL) {
            it->kind = NG_IDX_MASK;
        } else if (ng_dtype_is_int(a->dtype) || a->size == 0) {
            it->kind = NG_IDX_ARRAY;
        } else {
            PyErr_SetString(PyExc_IndexError, "arrays used as indices must be of integer (or boolean) type");
            return -1;
        }
        it->array = a;
        return 0;
    }
invalid:
    PyErr_SetString(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                    "and integer or boolean arrays are valid indices");
    return -1;
}

int ngpy_index(PyObject *key, int *n, NgIndex *items, NgArray *tmps, int *ntmp)
{
    *ntmp = 0;
    if (!PyTuple_Check(key)) {
        *n = 1;
        return index_item(key, &items[0], tmps, ntmp);
    }
    Py_ssize_t m = PyTuple_GET_SIZE(key);
    if (m > 2 * NG_MAXDIMS) {
        PyErr_SetString(PyExc_IndexError, "too many indices for array");
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++)
        if (index_item(PyTuple_GET_ITEM(key, i), &items[i], tmps, ntmp) < 0) {
            for (int t = 0; t < *ntmp; t++)
                ng_array_release(&tmps[t]);
            *ntmp = 0;
            return -1;
        }
    *n = (int)m;
    return 0;
}
