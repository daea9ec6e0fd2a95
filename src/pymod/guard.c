/* The guard of numgpu's public functions, in C (numgpu._core.Guard).
 *
 * _fallback.guarded(name, f, npf) stands numgpu's function f in for NumPy's npf: arguments with
 * semantics of their own (a masked array, np.matrix) go to NumPy's function, a call f cannot run
 * (a dtype or form numgpu lacks) falls back to NumPy, and 0-d results stand for NumPy's scalars.
 * Written in Python, that guard cost about 0.3 us a call, as much as numgpu's whole `a + b`; this
 * wrapper does the common call's part (a look at the arguments' types, the call, a 0-d result
 * marked) without a Python frame, and hands the rest to Python:
 *   - an argument (or an item of a list or tuple argument) that is an instance of a subclass of
 *     NumPy's ndarray other than np.memmap, or an object whose type overrides NumPy's protocols
 *     (__array_ufunc__ or __array_function__: pandas' Series, DataFrame, Index): the whole call to
 *     `slow`, the Python guard, which runs NumPy's function (NEP 13/18: NumPy hands it on);
 *   - f raising one of `catch` (numgpu's "unsupported", TypeError, RuntimeError): `on_error(exc,
 *     args, kwargs)` decides (NumPy's function through the fallback, or the error raised as it is);
 *   - a tuple result: `parts(r)` marks its 0-d items.
 * Guard(..., arrays=True) wraps another library's function instead (pandas' entry points,
 * python/numgpu/_libraries.py): numgpu arrays among its arguments handed over as NumPy's (arrays_call);
 * with outputs= (scipy's `output=`/`out=` parameters) a numgpu array given as one gets what the
 * function wrote, and stands where the function returns it.
 * No Python frame of its own, so numgpu's "called by the program?" tests (ngpy_called_by_numgpu,
 * _fallback._called_by_numgpu) see the caller's frame, as they looked through the Python guard's. */
#include "pymod.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *func;     /* numgpu's function */
    PyObject *slow;     /* the Python guard of func (arguments of NumPy's subclasses) */
    PyObject *on_error; /* callable(exc, args, kwargs) -> result, or _fallback.RERAISE */
    PyObject *catch;    /* the exception classes on_error looks at (a tuple) */
    PyObject *parts;    /* callable(tuple) -> the tuple with its 0-d items marked, or NULL */
    bool scalars;       /* 0-d results stand for NumPy's scalars (not an array maker) */
    bool arrays;        /* another library's function (pandas' entry points, python/numgpu/_libraries.py):
                           numgpu arrays among the arguments handed to func as NumPy's (host_views) */
    PyObject *outputs;  /* arrays: func's output parameters, {name: position or -1 (keyword-only)}, or NULL */
    PyObject *dict;     /* __dict__: __name__, __qualname__, __module__, __doc__, __wrapped__ */
    vectorcallfunc vectorcall;
} Guard;

/* Set once by guard_setup. */
static struct {
    PyObject *reraise;  /* on_error's answer "raise the error as it is" */
    PyObject *memmap;   /* numpy.memmap: plain memory, an argument like any array */
} g;

/* An argument with semantics of its own: an instance of a subclass of NumPy's ndarray, not np.memmap. */
static bool np_subclass(PyObject *v)
{
    PyTypeObject *t = Py_TYPE(v);
    return (PyObject *)t != ngpy.np_ndarray && PyObject_TypeCheck(v, (PyTypeObject *)ngpy.np_ndarray) &&
           !(g.memmap && PyObject_TypeCheck(v, (PyTypeObject *)g.memmap));
}

/* NumPy's protocol methods: the names (interned) and numpy.ndarray's own descriptors (set at first use). */
static struct {
    PyObject *ufunc_name, *function_name; /* "__array_ufunc__", "__array_function__" */
    PyObject *np_ufunc, *np_function;     /* numpy.ndarray's (borrowed from its type, which lives on) */
} proto;

bool ngpy_overrides_numpy(PyObject *v)
{
    if (ngpy_check(v) || PyObject_TypeCheck(v, (PyTypeObject *)ngpy.np_generic))
        return false;
    if (!proto.ufunc_name) {
        proto.ufunc_name = PyUnicode_InternFromString("__array_ufunc__");
        proto.function_name = PyUnicode_InternFromString("__array_function__");
        if (!proto.ufunc_name || !proto.function_name) {
            PyErr_Clear();
            Py_CLEAR(proto.ufunc_name);
            return false;
        }
        proto.np_ufunc = _PyType_Lookup((PyTypeObject *)ngpy.np_ndarray, proto.ufunc_name);
        proto.np_function = _PyType_Lookup((PyTypeObject *)ngpy.np_ndarray, proto.function_name);
    }
    /* (_PyType_Lookup: the type's attribute through CPython's method cache, no error when absent) */
    PyObject *u = _PyType_Lookup(Py_TYPE(v), proto.ufunc_name);
    if (u && u != proto.np_ufunc)
        return true;
    PyObject *f = _PyType_Lookup(Py_TYPE(v), proto.function_name);
    return f && f != proto.np_function;
}

/* An argument the call goes to NumPy's function for: a NumPy subclass (np_subclass), or an object
 * overriding NumPy's protocols (ngpy_overrides_numpy). */
static bool own_semantics(PyObject *v) { return np_subclass(v) || ngpy_overrides_numpy(v); }

/* The types _fallback._PLAIN names: never such an argument. */
static bool plain(PyObject *v)
{
    PyTypeObject *t = Py_TYPE(v);
    return t == ngpy.ndarray_type || (PyObject *)t == ngpy.np_ndarray || t == &PyLong_Type || t == &PyFloat_Type ||
           t == &PyBool_Type || t == &PyComplex_Type || t == &PyUnicode_Type || v == Py_None || t == &PySlice_Type;
}

/* _fallback._first_subclass's test of one argument: it, or an item of it (a list or tuple). */
static bool has_subclass(PyObject *a)
{
    if (plain(a))
        return false;
    if (PyList_CheckExact(a) || PyTuple_CheckExact(a)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(a);
        PyObject **items = PySequence_Fast_ITEMS(a);
        for (Py_ssize_t i = 0; i < n; i++)
            if (!plain(items[i]) && own_semantics(items[i]))
                return true;
        return false;
    }
    return own_semantics(a);
}

/* (args, kwargs) of a vectorcall, for the Python side; -1 with an exception. */
static int as_tuple_dict(PyObject *const *args, size_t nargsf, PyObject *kwnames, PyObject **targs, PyObject **kwargs)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    *targs = PyTuple_New(n);
    *kwargs = PyDict_New();
    if (!*targs || !*kwargs)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(*targs, i, Py_NewRef(args[i]));
    for (Py_ssize_t i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); i++)
        if (PyDict_SetItem(*kwargs, PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0)
            goto fail;
    return 0;
fail:
    Py_CLEAR(*targs);
    Py_CLEAR(*kwargs);
    return -1;
}

/* f failed: on_error's answer where the error is one of `catch` (a fallback, or RERAISE: the error
 * restored as f raised it, its traceback kept); the error as it is otherwise. */
static PyObject *failed(Guard *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (!PyErr_ExceptionMatches(self->catch))
        return NULL;
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (tb)
        PyException_SetTraceback(exc, tb);
    PyObject *targs, *kwargs, *r = NULL;
    if (as_tuple_dict(args, nargsf, kwnames, &targs, &kwargs) == 0) {
        r = PyObject_CallFunctionObjArgs(self->on_error, exc, targs, kwargs, NULL);
        Py_DECREF(targs);
        Py_DECREF(kwargs);
    }
    if (r == g.reraise) {
        Py_DECREF(r);
        PyErr_Restore(type, exc, tb);
        return NULL;
    }
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
    return r;
}

/* A 0-d result of its own (or a view of a temporary) stands for NumPy's scalar: marked (+= rebinds),
 * and NumPy's scalar itself under config(scalars="numpy") when the program called. */
static PyObject *zero_d(PyObject *r)
{
    NgPyArray *o = (NgPyArray *)r;
    ngpy_own(o); /* (x._own(): the temporary's memory taken over) */
    if (o->arr.buf->refcount != 1)
        return r;
    o->scalar = true;
    if (!ngpy.numpy_scalars || ngpy_called_by_numgpu())
        return r;
    PyObject *s = ngpy_numpy_scalar(&o->arr);
    Py_DECREF(r);
    return s;
}

static PyObject *host_views(PyObject *o);

/* A numgpu array, or a list or tuple with one among its items. */
static bool has_array(PyObject *a)
{
    if (ngpy_check(a))
        return true;
    if (!PyList_CheckExact(a) && !PyTuple_CheckExact(a))
        return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(a); i++)
        if (ngpy_check(PySequence_Fast_ITEMS(a)[i]))
            return true;
    return false;
}

/* Whether argument i of a call with n positional ones is a numgpu array given as one of func's
 * output parameters (self->outputs: by position, or by keyword). */
static bool is_output(Guard *self, Py_ssize_t i, Py_ssize_t n, PyObject *kwnames, PyObject *arg)
{
    if (!self->outputs || !ngpy_check(arg))
        return false;
    if (i >= n)
        return PyDict_GetItemWithError(self->outputs, PyTuple_GET_ITEM(kwnames, i - n)) != NULL;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(self->outputs, &pos, &k, &v))
        if (PyLong_AsSsize_t(v) == i)
            return true;
    return false;
}

/* After func's call: numgpu array `dev`, given as an output, gets what func wrote into `host` (a
 * GPU array's download: copied back; a cpu array's view: written in place already), and stands in
 * r (itself, or an item of a tuple) where func returned `host`. New reference, or NULL. */
static PyObject *written_back(PyObject *r, PyObject *dev, PyObject *host)
{
    if (!ng_device_host_visible(ng_array_device(ngpy_arr(dev))) && PyObject_SetItem(dev, Py_Ellipsis, host) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    if (r == host) {
        Py_DECREF(r);
        return Py_NewRef(dev);
    }
    if (PyTuple_CheckExact(r))
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(r); j++)
            if (PyTuple_GET_ITEM(r, j) == host) {
                PyObject *t = PyTuple_New(PyTuple_GET_SIZE(r));
                if (!t) {
                    Py_DECREF(r);
                    return NULL;
                }
                for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(r); k++) {
                    PyObject *item = PyTuple_GET_ITEM(r, k);
                    PyTuple_SET_ITEM(t, k, Py_NewRef(item == host ? dev : item));
                }
                Py_DECREF(r);
                return t;
            }
    return r;
}

/* An `arrays` guard's call: func's, the arguments with numgpu arrays (also in lists and tuples) as
 * NumPy's (host_views: views of a cpu array's memory, copies from a GPU); no Python frame, so the
 * library's warnings still name the program's line. A numgpu array given as an output parameter
 * (self->outputs) gets func's writes (written_back); a read-only one on a GPU raises before the call,
 * as NumPy's read-only view of a cpu one makes the library raise. */
static PyObject *arrays_call(Guard *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf), all = n + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), i = 0;
    while (i < all && !has_array(args[i]))
        i++;
    if (i == all)
        return PyObject_Vectorcall(self->func, args, nargsf, kwnames);
    PyObject **hargs = PyMem_Calloc((size_t)all, sizeof *hargs), *r = NULL;
    if (!hargs)
        return PyErr_NoMemory();
    for (i = 0; i < all; i++) {
        if (is_output(self, i, n, kwnames, args[i]) && !ng_device_host_visible(ng_array_device(ngpy_arr(args[i]))) &&
            ngpy_check_writeable(args[i], "output array") < 0)
            goto done;
        if (!(hargs[i] = host_views(args[i])))
            goto done;
    }
    r = PyObject_Vectorcall(self->func, hargs, (size_t)n, kwnames);
    for (i = 0; r && i < all; i++)
        if (is_output(self, i, n, kwnames, args[i]))
            r = written_back(r, args[i], hargs[i]);
done:
    for (i = 0; i < all; i++)
        Py_XDECREF(hargs[i]);
    PyMem_Free(hargs);
    return r;
}

static PyObject *guard_call(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Guard *self = (Guard *)op;
    if (self->arrays)
        return arrays_call(self, args, nargsf, kwnames);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf) + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    for (Py_ssize_t i = 0; i < n; i++)
        if (has_subclass(args[i]))
            return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    PyObject *r = PyObject_Vectorcall(self->func, args, nargsf, kwnames);
    if (!r)
        return failed(self, args, nargsf, kwnames);
    if (!self->scalars)
        return r;
    if (Py_TYPE(r) == ngpy.ndarray_type && ((NgPyArray *)r)->arr.ndim == 0)
        return zero_d(r);
    if (self->parts && PyTuple_Check(r))
        Py_SETREF(r, PyObject_CallOneArg(self->parts, r));
    return r;
}

static PyObject *guard_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"func", "slow", "on_error", "catch", "parts", "scalars", "arrays", "outputs", NULL};
    PyObject *func, *slow, *on_error, *catch, *parts, *outputs = Py_None;
    int scalars, arrays = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO!Op|pO:Guard", kw, &func, &slow, &on_error, &PyTuple_Type,
                                     &catch, &parts, &scalars, &arrays, &outputs))
        return NULL;
    if (outputs != Py_None && (!PyDict_Check(outputs) || !arrays))
        return PyErr_Format(PyExc_TypeError, "Guard(outputs=): a dict {parameter name: position or -1}, with arrays=True");
    if (!PyCallable_Check(func) || !PyCallable_Check(slow) || !PyCallable_Check(on_error) ||
        (parts != Py_None && !PyCallable_Check(parts)))
        return PyErr_Format(PyExc_TypeError, "Guard(func, slow, on_error, catch, parts, scalars): callables, a tuple "
                                             "of exception classes, a callable or None, and a flag");
    Guard *self = (Guard *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->func = Py_NewRef(func);
    self->slow = Py_NewRef(slow);
    self->on_error = Py_NewRef(on_error);
    self->catch = Py_NewRef(catch);
    self->parts = parts == Py_None ? NULL : Py_NewRef(parts);
    self->scalars = scalars;
    self->arrays = arrays;
    self->outputs = outputs == Py_None || !PyDict_GET_SIZE(outputs) ? NULL : Py_NewRef(outputs);
    self->vectorcall = guard_call;
    return (PyObject *)self;
}

static int guard_traverse(Guard *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->func);
    Py_VISIT(self->slow);
    Py_VISIT(self->on_error);
    Py_VISIT(self->catch);
    Py_VISIT(self->parts);
    Py_VISIT(self->outputs);
    Py_VISIT(self->dict);
    return 0;
}

static int guard_clear(Guard *self)
{
    Py_CLEAR(self->func);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->on_error);
    Py_CLEAR(self->catch);
    Py_CLEAR(self->parts);
    Py_CLEAR(self->outputs);
    Py_CLEAR(self->dict);
    return 0;
}

static void guard_dealloc(Guard *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    guard_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* <function sum at 0x...>: as the Python function it stands in for was shown (and NumPy's are). */
static PyObject *guard_repr(PyObject *self)
{
    PyObject *name = PyObject_GetAttrString(self, "__qualname__");
    if (!name) {
        PyErr_Clear();
        return PyUnicode_FromFormat("<function at %p>", self);
    }
    PyObject *r = PyUnicode_FromFormat("<function %S at %p>", name, self);
    Py_DECREF(name);
    return r;
}

static PyMemberDef guard_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Guard, vectorcall), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(Guard, dict), READONLY, NULL},
    {"func", T_OBJECT, offsetof(Guard, func), READONLY, "numgpu's function"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot guard_slots[] = {
    {Py_tp_doc, "Guard(func, slow, on_error, catch, parts, scalars, arrays=False): numgpu's func standing in for "
                "NumPy's function, its fallback decided in Python (_fallback.guarded; see src/pymod/guard.c); "
                "arrays=True: another library's func given numgpu arrays as NumPy's (_libraries.py), outputs={name: position}: "
                "its output parameters, whose numgpu arrays get what func wrote."},
    {Py_tp_new, guard_new},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_repr, guard_repr},
    {Py_tp_descr_get, ngpy_wrapper_get},
    {Py_tp_traverse, guard_traverse},
    {Py_tp_clear, guard_clear},
    {Py_tp_dealloc, guard_dealloc},
    {Py_tp_members, guard_members},
    {Py_tp_getset, ngpy_wrapper_getset},
    {Py_tp_methods, ngpy_wrapper_methods},
    {0, NULL},
};

static PyType_Spec guard_spec = {
    "numgpu._core.Guard", sizeof(Guard), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    guard_slots,
};

/* Elements of o counted toward host_small's limit: a numgpu array's on a host device, a NumPy
 * array's, 1 for a number, 0 for None, a str, a dtype or a type; a list or tuple its items' (arrays
 * or numbers); -1 for anything else (a numgpu array on a GPU, nested lists, an object). */
static int64_t small_count(PyObject *o, bool nested)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == ngpy.ndarray_type)
        return ng_device_host_visible(ng_array_device(ngpy_arr(o))) ? ngpy_arr(o)->size : -1;
    if ((PyObject *)t == ngpy.np_ndarray) {
        PyObject *size = PyObject_GetAttrString(o, "size");
        long long n = size ? PyLong_AsLongLong(size) : -1;
        Py_XDECREF(size);
        PyErr_Clear();
        return n;
    }
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type ||
        PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic))
        return 1;
    if (o == Py_None || t == &PyUnicode_Type || PyType_Check(o) || PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_dtype))
        return 0;
    if (!nested && (t == &PyList_Type || t == &PyTuple_Type)) {
        int64_t n = 0;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); i++) {
            int64_t k = small_count(PySequence_Fast_ITEMS(o)[i], true);
            if (k < 0)
                return -1;
            n += k;
        }
        return n;
    }
    return -1;
}

/* host_small(args, limit): whether a call of these arguments may run NumPy's own function on
 * views of their memory (python/numgpu/_small.py): the current device in host memory (cpu), every
 * numgpu array among them there too, and their elements at most `limit` (small_count). */
static PyObject *f_host_small(PyObject *m, PyObject *args)
{
    PyObject *objs;
    long long limit;
    if (!PyArg_ParseTuple(args, "O!L:host_small", &PyTuple_Type, &objs, &limit))
        return NULL;
    NgDevice *dev = ngpy_device();
    if (!dev)
        return NULL;
    if (!ng_device_host_visible(dev))
        Py_RETURN_FALSE;
    int64_t n = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(objs); i++) {
        int64_t k = small_count(PyTuple_GET_ITEM(objs, i), false);
        if (k < 0 || (n += k) > limit)
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

/* o with its numgpu arrays (in lists and tuples too) as NumPy's (numpy.asarray: views of a host
 * device's memory, downloads from a GPU): _fallback.host_views, for the small path. New reference. */
static PyObject *host_views(PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (ngpy_check(o))
        return PyObject_CallOneArg(ngpy.np_asarray, o);
    if (t != &PyList_Type && t != &PyTuple_Type)
        return Py_NewRef(o);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o), i = 0;
    PyObject **items = PySequence_Fast_ITEMS(o);
    while (i < n && !ngpy_check(items[i]) && !PyList_CheckExact(items[i]) && !PyTuple_CheckExact(items[i]))
        i++;
    if (i == n)                      /* (nothing to convert: the same object, as host_views) */
        return Py_NewRef(o);
    PyObject *r = t == &PyList_Type ? PyList_New(n) : PyTuple_New(n);
    for (i = 0; r && i < n; i++) {
        PyObject *v = host_views(items[i]);
        if (!v)
            Py_CLEAR(r);
        else if (t == &PyList_Type)
            PyList_SET_ITEM(r, i, v);
        else
            PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

/* small_call(npf, args, kwargs, up): NumPy's npf(*args, **kwargs) on views of the numgpu arrays
 * among them (host_views); a plain NumPy array result viewed in place as a numgpu array
 * (ngpy_host_view), anything else as up(result) says (_fallback._up: NumPy's scalars as 0-d arrays
 * standing for them). _small.call, without its Python (~2 us of a 4 us small sort). */
static PyObject *f_small_call(PyObject *m, PyObject *a)
{
    PyObject *npf, *args, *kw, *up;
    if (!PyArg_ParseTuple(a, "OO!O!O:small_call", &npf, &PyTuple_Type, &args, &PyDict_Type, &kw, &up))
        return NULL;
    PyObject *hargs = host_views(args), *hkw = NULL;
    if (!hargs)
        return NULL;
    if (PyDict_GET_SIZE(kw)) {
        hkw = PyDict_New();
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (hkw && PyDict_Next(kw, &pos, &k, &v)) {
            PyObject *hv = host_views(v);
            if (!hv || PyDict_SetItem(hkw, k, hv) < 0)
                Py_CLEAR(hkw);
            Py_XDECREF(hv);
        }
        if (!hkw) {
            Py_DECREF(hargs);
            return NULL;
        }
    }
    PyObject *r = PyObject_Call(npf, hargs, hkw);
    Py_DECREF(hargs);
    Py_XDECREF(hkw);
    if (!r)
        return NULL;
    if ((PyObject *)Py_TYPE(r) == ngpy.np_ndarray) {
        PyObject *v = ngpy_host_view(r);
        if (v != Py_None) {     /* (the view, or NULL with its error) */
            Py_DECREF(r);
            return v;
        }
        Py_DECREF(v);
    }
    Py_SETREF(r, PyObject_CallOneArg(up, r));
    return r;
}

/* guard_setup(reraise, memmap, wrappers): on_error's "raise it" answer, numpy.memmap, and the set
 * of the code objects of Python wrappers between a program and numgpu (_fallback.WRAPPERS), which
 * "called by the program?" looks through. */
static PyObject *f_guard_setup(PyObject *m, PyObject *args)
{
    PyObject *reraise, *memmap, *wrappers;
    if (!PyArg_ParseTuple(args, "OOO!:guard_setup", &reraise, &memmap, &PySet_Type, &wrappers))
        return NULL;
    Py_XSETREF(g.reraise, Py_NewRef(reraise));
    Py_XSETREF(g.memmap, Py_NewRef(memmap));
    Py_XSETREF(ngpy.wrappers, Py_NewRef(wrappers));
    Py_RETURN_NONE;
}

/* overrides_numpy(obj): ngpy_overrides_numpy, for _fallback._first_subclass. */
static PyObject *f_overrides_numpy(PyObject *m, PyObject *obj) { return PyBool_FromLong(ngpy_overrides_numpy(obj)); }

PyMethodDef ngpy_guard_functions[] = {
    {"overrides_numpy", f_overrides_numpy, METH_O,
     "overrides_numpy(obj): obj's type overrides NumPy's __array_ufunc__ or __array_function__ (pandas' Series): "
     "NumPy hands calls with it to it (not numgpu's arrays, NumPy's scalars)."},
    {"host_small", f_host_small, METH_VARARGS,
     "host_small(args, limit): the call may run NumPy's function on views of its arrays' host memory (_small.py)."},
    {"small_call", f_small_call, METH_VARARGS,
     "small_call(npf, args, kwargs, up): NumPy's npf on views of the numgpu arrays among args and kwargs (_small.call)."},
    {"guard_setup", f_guard_setup, METH_VARARGS,
     "guard_setup(reraise, memmap, wrappers): what Guard wrappers use (_fallback.guarded)."},
    {NULL, NULL, 0, NULL},
};

int ngpy_guard_add_types(PyObject *module)
{
    PyObject *t = PyType_FromModuleAndSpec(module, &guard_spec, NULL);
    if (!t)
        return -1;
    int rc = PyModule_AddObjectRef(module, "Guard", t);
    Py_DECREF(t);
    return rc;
}
