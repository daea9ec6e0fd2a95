/* numgpu run's report: the wrapper that counts one function's calls (numgpu._core.Counted).
 *
 * With the report on (numgpu.config(report=True), numgpu run's default), _run.py wraps numgpu's
 * functions, ndarray's methods and operators, numpy.random's streams and jit functions in a
 * Counted each. A call made by the program is timed and adds to the wrapper's row (a Row,
 * _run.rows[name], whose counts are C numbers: a call adds to them without making Python objects):
 * its calls and seconds on the device or on the host, and the transfers and kernel launches made
 * meanwhile (the counters of core/util.c); the report reads a row as a list (Row.list()). Calls made inside a counted call
 * (numgpu calling itself) go straight through: one program call is one count. Being C, the wrapper
 * adds no Python frame, so numgpu's "called by the program?" tests see the program's frame, and a
 * counted operator costs a fraction of a microsecond more than a plain one. Without the report
 * nothing is wrapped. */
#include "pymod.h"

#include <structmember.h>
#include <time.h>

enum { NCOUNTERS = 9 }; /* the counters a row adds up (counters_now) */

/* numgpu._core.Row: one row of the report. */
typedef struct {
    PyObject_HEAD
    long long calls[2];                  /* device calls, host calls */
    double seconds[2];                   /* their seconds */
    unsigned long long counters[NCOUNTERS];
    PyObject *where;                     /* "file:line" of the row's first upload, or None */
} Row;

static PyTypeObject *row_type; /* (set by ngpy_report_add_types) */

enum { KIND_DEVICE, KIND_HOST, KIND_FALLBACK }; /* where a call that did not fall back is counted */

typedef struct {
    PyObject_HEAD
    PyObject *func;       /* the wrapped callable */
    PyObject *name;       /* the row's name (str), for errors */
    PyObject *row;        /* the row (list), or NULL: row_of(args) gives it */
    PyObject *row_of;     /* callable(args tuple) -> row, or NULL */
    PyObject *basic_row;  /* with row_of (indexing): the row of a[key] for basic keys, found here */
    int kind;             /* KIND_* */
    int program_only;     /* only calls from the program's code count (not numgpu's own) */
    PyObject *dict;       /* __dict__ (functools.wraps: __name__, __doc__, __wrapped__, ...) */
    vectorcallfunc vectorcall;
} Counted;

/* Set once by _core.report_setup. */
static struct {
    PyObject *fallbacks; /* _fallback.calls: [fallbacks so far] */
    PyObject *on_upload; /* callable(row): records where the row's first upload was made */
    PyObject *rename;    /* callable(exc, name) -> exc: NUMGPU_STRICT errors naming the function */
    bool sync;           /* wait for a GPU after each counted call: its time includes its kernels */
} rep;

/* Counted calls in progress in this thread (nested ones go straight through). (The counters are
 * the process's: a row's transfers can include another thread's made meanwhile.) */
static _Thread_local int depth;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The cpu device runs each call's kernels before it returns (null runs none): nothing to wait for. */
static bool on_host(NgDevice *dev)
{
    const char *name = ng_device_name(dev);
    return !strncmp(name, "cpu", 3) || !strncmp(name, "null", 4);
}

static Py_ssize_t fallback_count(void)
{
    if (!rep.fallbacks || !PyList_Check(rep.fallbacks) || PyList_GET_SIZE(rep.fallbacks) < 1)
        return 0;
    return PyLong_AsSsize_t(PyList_GET_ITEM(rep.fallbacks, 0));
}

/* Uploads, upload bytes, downloads, download bytes, kernel launches, kernels compiled, implicit
 * uploads, implicit downloads, kernels loaded from the disk cache: a row's columns from UP on. */
static void counters_now(unsigned long long c[NCOUNTERS])
{
    NgStats s;
    ng_stats_get(&s);
    const unsigned long long v[NCOUNTERS] = {s.uploads, s.upload_bytes, s.downloads, s.download_bytes,
                                             s.kernel_launches, s.kernels_compiled, s.implicit_uploads,
                                             s.implicit_downloads, s.disk_cache_hits};
    memcpy(c, v, sizeof v);
}

/* Adds one call (of `seconds`, counted where `kind` says unless it fell back) and the counters'
 * changes since `before` to the row; -1 with an exception. */
static int record(Counted *self, PyObject *row_o, int fell_back, double seconds, const unsigned long long before[NCOUNTERS])
{
    if (!Py_IS_TYPE(row_o, row_type)) {
        PyErr_SetString(PyExc_TypeError, "Counted: a row is a numgpu._core.Row");
        return -1;
    }
    Row *row = (Row *)row_o;
    if (!fell_back && self->kind != KIND_FALLBACK) {
        int at = self->kind == KIND_HOST;
        row->calls[at]++;
        row->seconds[at] += seconds;
    }
    unsigned long long after[NCOUNTERS];
    counters_now(after);
    for (int i = 0; i < NCOUNTERS; i++)
        row->counters[i] += after[i] - before[i];
    if (after[0] != before[0] && row->where == Py_None && rep.on_upload) {
        PyObject *r = PyObject_CallOneArg(rep.on_upload, row_o);
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    return 0;
}

static PyObject *row_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) || (kwargs && PyDict_GET_SIZE(kwargs)))
        return PyErr_Format(PyExc_TypeError, "Row() takes no arguments");
    Row *r = (Row *)type->tp_alloc(type, 0);
    if (r)
        r->where = Py_NewRef(Py_None);
    return (PyObject *)r;
}

static void row_dealloc(Row *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_CLEAR(self->where);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* row.list(): [device calls, device seconds, host calls, host seconds, the counters..., where]
 * (_run.py's D_CALLS ... WHERE). */
static PyObject *row_list(PyObject *op, PyObject *unused)
{
    Row *r = (Row *)op;
    PyObject *l = PyList_New(4 + NCOUNTERS + 1);
    if (!l)
        return NULL;
    for (int k = 0; k < 2; k++) {
        PyList_SET_ITEM(l, 2 * k, PyLong_FromLongLong(r->calls[k]));
        PyList_SET_ITEM(l, 2 * k + 1, PyFloat_FromDouble(r->seconds[k]));
    }
    for (int i = 0; i < NCOUNTERS; i++)
        PyList_SET_ITEM(l, 4 + i, PyLong_FromUnsignedLongLong(r->counters[i]));
    PyList_SET_ITEM(l, 4 + NCOUNTERS, Py_NewRef(r->where));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(l); i++)
        if (!PyList_GET_ITEM(l, i)) {
            Py_DECREF(l);
            return NULL;
        }
    return l;
}

static PyObject *row_get_where(PyObject *op, void *c) { return Py_NewRef(((Row *)op)->where); }

static int row_set_where(PyObject *op, PyObject *v, void *c)
{
    if (!v || (v != Py_None && !PyUnicode_Check(v))) {
        PyErr_SetString(PyExc_TypeError, "Row.where is a str or None");
        return -1;
    }
    Py_SETREF(((Row *)op)->where, Py_NewRef(v));
    return 0;
}

static PyMethodDef row_methods[] = {
    {"list", row_list, METH_NOARGS, "The row as a list: device calls and seconds, host calls and seconds, the "
                                    "counters, where its first upload was made."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef row_getset[] = {
    {"where", row_get_where, row_set_where, "'file:line' of the row's first upload, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot row_slots[] = {
    {Py_tp_doc, "Row(): one row of numgpu run's report, added to by Counted wrappers (src/pymod/report.c)."},
    {Py_tp_new, row_new},
    {Py_tp_dealloc, row_dealloc},
    {Py_tp_methods, row_methods},
    {Py_tp_getset, row_getset},
    {0, NULL},
};

static PyType_Spec row_spec = {"numgpu._core.Row", sizeof(Row), 0, Py_TPFLAGS_DEFAULT, row_slots};

/* An index of ints, slices, ... and None only (a view or an element): _run.index_kind's "basic". */
static bool basic_key(PyObject *key)
{
    if (PyTuple_Check(key)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++)
            if (!basic_key(PyTuple_GET_ITEM(key, i)) || PyTuple_Check(PyTuple_GET_ITEM(key, i)))
                return false;
        return true;
    }
    return PyLong_CheckExact(key) || PySlice_Check(key) || key == Py_Ellipsis || key == Py_None;
}

/* The wrapper's call. program_only: a call from numgpu's own code (the calling frame is the
 * caller's: this wrapper has none) goes straight through. */
static PyObject *counted_call(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Counted *self = (Counted *)op;
    if (depth || (self->program_only && ngpy_called_by_numgpu()))
        return PyObject_Vectorcall(self->func, args, nargsf, kwnames);
    depth++;
    unsigned long long before[NCOUNTERS];
    counters_now(before);
    Py_ssize_t fb0 = fallback_count();
    double t0 = now_seconds();
    PyObject *res = PyObject_Vectorcall(self->func, args, nargsf, kwnames);
    if (res && rep.sync && ngpy.device && !on_host(ngpy.device)) {
        NgStatus st = ng_device_sync(ngpy.device);
        if (st != NG_OK) {
            Py_CLEAR(res);
            ngpy_raise(st);
        } else if (ngpy_fpe_deferred() < 0) {   /* (the warnings of the kernels waited for, as synchronize) */
            Py_CLEAR(res);
        }
    }
    double seconds = now_seconds() - t0;
    depth--;
    PyObject *etype = NULL, *evalue = NULL, *etb = NULL;
    if (!res) {
        PyErr_Fetch(&etype, &evalue, &etb);
        PyErr_NormalizeException(&etype, &evalue, &etb);
        if (rep.rename && evalue && PyErr_GivenExceptionMatches(etype, PyExc_RuntimeError)) {
            if (etb)
                PyException_SetTraceback(evalue, etb);
            PyObject *renamed = PyObject_CallFunctionObjArgs(rep.rename, evalue, self->name, NULL);
            if (renamed && renamed != evalue) {
                Py_XDECREF(etb);
                etb = PyException_GetTraceback(renamed);
                Py_SETREF(etype, Py_NewRef((PyObject *)Py_TYPE(renamed)));
                Py_SETREF(evalue, renamed);
            } else {
                Py_XDECREF(renamed);
                PyErr_Clear();
            }
        }
    }
    PyObject *row = Py_XNewRef(self->row);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!row && self->basic_row && n >= 2 && basic_key(args[1]))
        row = Py_NewRef(self->basic_row);
    if (!row) {   /* (row_of takes the positional arguments as a tuple) */
        PyObject *argt = PyTuple_New(n);
        for (Py_ssize_t i = 0; argt && i < n; i++)
            PyTuple_SET_ITEM(argt, i, Py_NewRef(args[i]));
        row = argt ? PyObject_CallOneArg(self->row_of, argt) : NULL;
        Py_XDECREF(argt);
    }
    int rc = row ? record(self, row, fallback_count() != fb0, seconds, before) : -1;
    Py_XDECREF(row);
    if (rc < 0) {
        if (etype)   /* (the call's own error wins over the report's) */
            PyErr_Clear();
        else
            Py_CLEAR(res);
    }
    if (etype)
        PyErr_Restore(etype, evalue, etb);
    return res;
}

static PyObject *counted_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"func", "name", "row", "kind", "program_only", "basic_row", NULL};
    PyObject *func, *name, *row, *basic_row = NULL;
    const char *kind = "device";
    int program_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OUO|spO:Counted", kw, &func, &name, &row, &kind, &program_only,
                                     &basic_row))
        return NULL;
    int k = !strcmp(kind, "device") ? KIND_DEVICE : !strcmp(kind, "host") ? KIND_HOST
          : !strcmp(kind, "fallback") ? KIND_FALLBACK : -1;
    if (k < 0)
        return PyErr_Format(PyExc_ValueError, "Counted: kind must be 'device', 'host' or 'fallback', not '%s'", kind);
    if (!PyCallable_Check(func) || !(Py_IS_TYPE(row, row_type) || PyCallable_Check(row)) ||
        (basic_row && !Py_IS_TYPE(basic_row, row_type)))
        return PyErr_Format(PyExc_TypeError, "Counted(func, name, row): a callable, a str and a Row or a "
                                             "callable giving it");
    Counted *self = (Counted *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->func = Py_NewRef(func);
    self->name = Py_NewRef(name);
    if (Py_IS_TYPE(row, row_type))
        self->row = Py_NewRef(row);
    else
        self->row_of = Py_NewRef(row);
    self->basic_row = self->row_of ? Py_XNewRef(basic_row) : NULL;
    self->kind = k;
    self->program_only = program_only;
    self->vectorcall = counted_call;
    return (PyObject *)self;
}

static int counted_traverse(Counted *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->func);
    Py_VISIT(self->name);
    Py_VISIT(self->row);
    Py_VISIT(self->row_of);
    Py_VISIT(self->basic_row);
    Py_VISIT(self->dict);
    return 0;
}

static int counted_clear(Counted *self)
{
    Py_CLEAR(self->func);
    Py_CLEAR(self->name);
    Py_CLEAR(self->row);
    Py_CLEAR(self->row_of);
    Py_CLEAR(self->basic_row);
    Py_CLEAR(self->dict);
    return 0;
}

static void counted_dealloc(Counted *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    counted_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

PyObject *ngpy_wrapper_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None)
        return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyMemberDef counted_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Counted, vectorcall), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(Counted, dict), READONLY, NULL},
    {"func", T_OBJECT, offsetof(Counted, func), READONLY, "the wrapped callable"},
    {NULL, 0, 0, 0, NULL},
};

/* pickle: by name, as a function (its __module__ and __qualname__, functools.update_wrapper's),
 * which finds this very wrapper where it was set. */
static PyObject *wrapper_reduce(PyObject *self, PyObject *unused)
{
    return PyObject_GetAttrString(self, "__qualname__");
}

PyMethodDef ngpy_wrapper_methods[] = {
    {"__reduce__", wrapper_reduce, METH_NOARGS, "pickled by name, as the function it wraps"},
    {NULL, NULL, 0, NULL},
};

PyGetSetDef ngpy_wrapper_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot counted_slots[] = {
    {Py_tp_doc, "Counted(func, name, row, kind='device', program_only=False, basic_row=None): func, its "
                "program's calls counted on the report's row, or on row(args) (numgpu run; see src/pymod/report.c)."},
    {Py_tp_new, counted_new},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_descr_get, ngpy_wrapper_get},
    {Py_tp_traverse, counted_traverse},
    {Py_tp_clear, counted_clear},
    {Py_tp_dealloc, counted_dealloc},
    {Py_tp_members, counted_members},
    {Py_tp_getset, ngpy_wrapper_getset},
    {Py_tp_methods, ngpy_wrapper_methods},
    {0, NULL},
};

static PyType_Spec counted_spec = {
    "numgpu._core.Counted", sizeof(Counted), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    counted_slots,
};

/* report_setup(fallbacks, on_upload, rename): what Counted wrappers use; returns whether they
 * wait for a GPU after each call (unless NUMGPU_REPORT_ASYNC=1). */
static PyObject *f_report_setup(PyObject *m, PyObject *args)
{
    PyObject *fallbacks, *on_upload, *rename;
    if (!PyArg_ParseTuple(args, "O!OO:report_setup", &PyList_Type, &fallbacks, &on_upload, &rename))
        return NULL;
    Py_XSETREF(rep.fallbacks, Py_NewRef(fallbacks));
    Py_XSETREF(rep.on_upload, Py_NewRef(on_upload));
    Py_XSETREF(rep.rename, Py_NewRef(rename));
    rep.sync = !ng_env_flag("NUMGPU_REPORT_ASYNC", 0);
    return PyBool_FromLong(rep.sync);
}

PyMethodDef ngpy_report_functions[] = {
    {"report_setup", f_report_setup, METH_VARARGS,
     "report_setup(fallbacks, on_upload, rename): what Counted wrappers use (numgpu run's report); returns "
     "whether they wait for a GPU after each call (unless NUMGPU_REPORT_ASYNC=1)."},
    {NULL, NULL, 0, NULL},
};

int ngpy_report_add_types(PyObject *module)
{
    PyObject *rt = PyType_FromModuleAndSpec(module, &row_spec, NULL);
    if (!rt || PyModule_AddObjectRef(module, "Row", rt) < 0) {
        Py_XDECREF(rt);
        return -1;
    }
    row_type = (PyTypeObject *)rt; /* (the module holds it) */
    Py_DECREF(rt);
    PyObject *t = PyType_FromModuleAndSpec(module, &counted_spec, NULL);
    if (!t)
        return -1;
    int rc = PyModule_AddObjectRef(module, "Counted", t);
    Py_DECREF(t);
    return rc;
}
