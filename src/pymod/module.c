/* numgpu._core: module functions (creation, ufunc entry points, reductions,
 * joins, products, device and statistics) and module initialisation. The
 * NumPy-shaped signatures (keywords, defaults) live in python/numgpu. */
#include "pymod.h"
#include "kernel/kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>

/* Device for a creation function: device= argument or the current one. */
static NgDevice *device_arg(PyObject *spec)
{
    if (!spec || spec == Py_None)
        return ngpy_device();
    const char *s = PyUnicode_AsUTF8(spec);
    if (!s)
        return NULL;
    NgDevice *dev;
    NgStatus st = ng_device_open(s, &dev);
    if (st != NG_OK) {
        ngpy_raise(st);
        return NULL;
    }
    return dev;
}

static PyObject *f_asarray(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"obj", "dtype", "copy", NULL};
    PyObject *obj, *dtype = Py_None;
    int copy = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Op:asarray", kwlist, &obj, &dtype, &copy))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgArray out;
    ngpy.uploaded_readonly = false;
    if (ngpy_to_array(obj, dt, &out) < 0)
        return NULL;
    /* NumPy's asarray of read-only host memory (a read-only array, a Pillow image's bytes) is
     * that memory, read-only: so is the copy made of it here (array() and copy=True: writable) */
    bool readonly = !copy && ngpy.uploaded_readonly && !ngpy_check(obj);
    /* (a 0-d array standing for NumPy's scalar: NumPy's asarray makes a new array of it) */
    if (ngpy_check(obj) && (copy || ((NgPyArray *)obj)->scalar) && out.buf == ngpy_arr(obj)->buf) {
        NgArray c;
        NgStatus st = ng_op_astype(&out, out.dtype, &c);
        ng_array_release(&out);
        if (st != NG_OK)
            return ngpy_raise(st);
        out = c;
    }
    PyObject *res = ngpy_wrap_from(&out, obj);
    if (res && readonly)
        ((NgPyArray *)res)->readonly = true;
    return res;
}

/* shape, dtype and device= of a creation function; -1 with an exception set. */
static int creation_args(PyObject *shape_o, PyObject *dtype, PyObject *device, int *nd, int64_t *shape,
                         NgDType *dt, NgDevice **dev)
{
    if (ngpy_shape(shape_o, nd, shape) < 0 || ngpy_dtype(dtype, dt) < 0)
        return -1;
    *dev = device_arg(device);
    return *dev ? 0 : -1;
}

static PyObject *f_empty(PyObject *m, PyObject *args)
{
    PyObject *shape_o, *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTuple(args, "O|OO:empty", &shape_o, &dtype, &device))
        return NULL;
    int nd;
    int64_t shape[NG_MAXDIMS];
    NgDType dt;
    NgDevice *dev;
    if (creation_args(shape_o, dtype, device, &nd, shape, &dt, &dev) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_array_empty(dev, dt == NG_NODTYPE ? ngpy_float_default() : dt, nd, shape, &out);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

/* NumPy's dtype of an array made from one Python scalar of this kind (the
 * precision policy applied to float and complex). */
static NgDType scalar_default_dtype(NgKind kind)
{
    switch (kind) {
    case NG_KIND_BOOL: return NG_BOOL;
    case NG_KIND_INT: return NG_INT64;
    case NG_KIND_COMPLEX: return ngpy.float32 ? NG_COMPLEX64 : NG_COMPLEX128;
    default: return ngpy_float_default();
    }
}

static PyObject *f_full(PyObject *m, PyObject *args)
{
    PyObject *shape_o, *value, *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTuple(args, "OO|OO:full", &shape_o, &value, &dtype, &device))
        return NULL;
    int nd;
    int64_t shape[NG_MAXDIMS];
    NgDType dt;
    NgDevice *dev;
    if (creation_args(shape_o, dtype, device, &nd, shape, &dt, &dev) < 0)
        return NULL;
    NgOperand v;
    NgArray tv, out;
    if (ngpy_operand(value, &v, &tv) < 0)
        return NULL;
    NgStatus st;
    if (v.array) { /* an array fill value: broadcast it */
        if (dt == NG_NODTYPE)
            dt = v.array->dtype;
        if (ngpy_warn_complex_cast(v.array->dtype, dt) < 0) {
            ng_array_release(&tv);
            return NULL;
        }
        st = ng_array_empty(dev, dt, nd, shape, &out);
        if (st == NG_OK && (st = ng_op_assign(&out, &v)) != NG_OK)
            ng_array_release(&out);
    } else {
        if (dt == NG_NODTYPE)
            dt = scalar_default_dtype(v.scalar.kind);
        if (v.scalar.kind == NG_KIND_COMPLEX && !ng_dtype_is_complex(dt)) {
            /* NumPy's unsafe cast of the fill value: real part (warned), nonzero test for bool */
            if (ngpy_warn_complex_cast(NG_COMPLEX128, dt) < 0)
                return NULL;
            bool nz = v.scalar.v.f != 0 || v.scalar.im != 0;
            v.scalar.kind = dt == NG_BOOL ? NG_KIND_BOOL : NG_KIND_FLOAT;
            if (dt == NG_BOOL)
                v.scalar.v.i = nz;
            v.scalar.im = 0;
        }
        /* NumPy's full copies with unsafe casting, but a Python int the dtype cannot hold is its
         * OverflowError (NEP 50), as `a[...] = 300` */
        bool python_int = PyLong_Check(value) && !PyBool_Check(value) &&
                          !PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_generic);
        if (python_int && ng_dtype_is_int(dt) && v.scalar.kind == NG_KIND_FLOAT)
            return PyErr_Format(PyExc_OverflowError, "Python int too large to convert to C long");
        if (python_int && (st = ng_scalar_check(&v.scalar, dt)) != NG_OK)
            return ngpy_raise(st);
        if (ngpy_scalar_cast_fpe(&v, dt) < 0) /* (np.full(n, 1e300, float32): NumPy's cast warning) */
            return NULL;
        if (v.scalar.kind == NG_KIND_FLOAT && !v.scalar.big && ng_dtype_is_int(dt) &&
            !(fabs(v.scalar.v.f) < 0x1p31)) {
            /* NaN, an infinity or a large float into integers: the cast kernel's values and its
             * "invalid value encountered in cast", as NumPy's copyto (numgpu stored 0 silently) */
            NgArray f64;
            if ((st = ng_op_full(dev, NG_FLOAT64, nd, shape, &v.scalar, &f64)) != NG_OK)
                return ngpy_raise(st);
            if (ngpy_fpe_begin(NULL) < 0) {
                ng_array_release(&f64);
                return NULL;
            }
            st = ng_op_astype(&f64, dt, &out);
            ng_array_release(&f64);
            return ngpy_fpe_result(st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st));
        }
        st = ng_op_full(dev, dt, nd, shape, &v.scalar, &out);
    }
    ng_array_release(&tv);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

static PyObject *f_arange(PyObject *m, PyObject *args)
{
    double start, step;
    long long n;
    PyObject *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTuple(args, "dLd|OO:arange", &start, &n, &step, &dtype, &device))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgDevice *dev = device_arg(device);
    if (!dev)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_arange(dev, start, step, n, dt, &out);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

static PyObject *f_linspace(PyObject *m, PyObject *args)
{
    double start, stop;
    long long n;
    int endpoint;
    PyObject *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTuple(args, "ddLp|OO:linspace", &start, &stop, &n, &endpoint, &dtype, &device))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgDevice *dev = device_arg(device);
    if (!dev)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_linspace(dev, start, stop, n, endpoint, dt == NG_NODTYPE ? ngpy_float_default() : dt, &out);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

static PyObject *f_eye(PyObject *m, PyObject *args)
{
    long long n, mm, k;
    PyObject *dtype = Py_None, *device = Py_None;
    if (!PyArg_ParseTuple(args, "LLL|OO:eye", &n, &mm, &k, &dtype, &device))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgDevice *dev = device_arg(device);
    if (!dev)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_eye(dev, n, mm, k, dt == NG_NODTYPE ? ngpy_float_default() : dt, &out);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

/* out= of a ufunc: None or a numgpu array. */
static int out_arg(PyObject *o, const NgArray **dest)
{
    *dest = NULL;
    if (!o || o == Py_None)
        return 0;
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 1)
        o = PyTuple_GET_ITEM(o, 0);
    if (!ngpy_check(o)) {
        PyErr_SetString(PyExc_TypeError, "out= must be a numgpu.ndarray");
        return -1;
    }
    if (ngpy_check_writeable(o, "output array") < 0)
        return -1;
    *dest = ngpy_arr(o);
    return 0;
}

/* The caller's out= array as the op's result (out_arg took it out of a one-array tuple); releases
 * the op's view of it in *out. */
static PyObject *out_result(PyObject *out_o, NgArray *out)
{
    ng_array_release(out);
    return Py_NewRef(PyTuple_Check(out_o) ? PyTuple_GET_ITEM(out_o, 0) : out_o);
}

/* objs[0..n) as operands o (their temporaries in t, zeroed first); with `none_absent`, a None
 * is no operand (left unconverted). 0, or -1 with a Python error and nothing held. */
static int operands(int n, PyObject *const *objs, bool none_absent, NgOperand *o, NgArray *t)
{
    memset(t, 0, (size_t)n * sizeof *t);
    for (int i = 0; i < n; i++)
        if (!(none_absent && objs[i] == Py_None) && ngpy_operand(objs[i], &o[i], &t[i]) < 0) {
            for (int j = 0; j < i; j++)
                ng_array_release(&t[j]);
            return -1;
        }
    return 0;
}

static PyObject *ufunc_apply(long op, PyObject *a, PyObject *b, PyObject *out_o);

static PyObject *f_ufunc(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    /* (METH_FASTCALL: every ufunc call comes here, and the argument tuple was a good part of it) */
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "ufunc() takes exactly 4 arguments (%zd given)", nargs);
        return NULL;
    }
    long op = PyLong_AsLong(args[0]);
    if (op == -1 && PyErr_Occurred())
        return NULL;
    if (op < 0 || op >= NG_NOPS) {
        PyErr_SetString(PyExc_ValueError, "bad op code");
        return NULL;
    }
    return ufunc_apply(op, args[1], args[2], args[3]);
}

/* The ufunc op `op` of a (and b for a binary op) into out_o (None: a new array). */
static PyObject *ufunc_apply(long op, PyObject *a, PyObject *b, PyObject *out_o)
{
    const NgArray *dest;
    if (out_arg(out_o, &dest) < 0)
        return NULL;
    NgOperand x, y;
    NgArray tx, ty, out;
    ty.buf = NULL;
    if (ngpy_operand(a, &x, &tx) < 0)
        return NULL;
    NgStatus st = NG_OK;
    bool binary = ng_op_is_binary((NgOp)op);
    if (binary && ngpy_operand(b, &y, &ty) < 0) {
        ng_array_release(&tx);
        return NULL;
    }
    /* Python scalars only (numpy.sqrt(2.0) in a script): the 0-d result goes to the current
     * device, where the C ops alone would take NUMGPU_DEVICE's. */
    NgArray scalar_dest = {0};
    if (!dest && !x.array && !(binary && y.array)) {
        NgDType rdt;
        int64_t none = 0;
        NgDevice *dev = ngpy_device();
        if (!dev) {
            ng_array_release(&tx);
            ng_array_release(&ty);
            return NULL;
        }
        st = ng_op_result_dtype((NgOp)op, &x, binary ? &y : NULL, &rdt);
        if (st == NG_OK && (st = ng_array_empty(dev, rdt, 0, &none, &scalar_dest)) == NG_OK)
            dest = &scalar_dest;
    }
    if (st == NG_OK && binary && ngpy_weak_scalar_fpe(&x, &y) < 0) {
        ng_array_release(&tx);
        ng_array_release(&ty);
        ng_array_release(&scalar_dest);
        return NULL;
    }
    /* (np.power(x, 2) runs as square, and NumPy names it power) */
    if (st == NG_OK && ngpy_fpe_begin(op == NG_OP_POW ? "power" : NULL) < 0)
        st = NG_ERR_INTERNAL;
    if (st == NG_OK)
        st = binary ? ng_op_binary((NgOp)op, &x, &y, dest, &out) : ng_op_unary((NgOp)op, &x, dest, &out);
    ng_array_release(&tx);
    ng_array_release(&ty);
    if (dest == &scalar_dest) {
        if (st != NG_OK) {
            ng_array_release(&scalar_dest);
            return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL : ngpy_raise(st);
        }
        ng_array_release(&out); /* the op's view of scalar_dest */
        return ngpy_fpe_result(ngpy_wrap_result(&scalar_dest, true));
    }
    if (st != NG_OK)
        return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL : ngpy_raise(st);
    if (dest)
        return ngpy_fpe_result(out_result(out_o, &out));
    return ngpy_fpe_result(ngpy_wrap_result(&out, true));
}

/* _core.ufunc_base: the C part of numgpu.ufunc (python/numgpu/_ufunc.py subclasses it). A call
 * of the commonest form, the ufunc's nin operands and no keywords, numgpu arrays (one at least)
 * and Python numbers, runs the device op here (a 0-d result stands for NumPy's scalar, as
 * _fallback.ufunc_result makes it: ngpy_wrap_result); any other call, or one the op turns down
 * (TypeError, NotImplementedError, RuntimeError: it raises again, with the whole call's
 * handling), goes to the subclass's Python method _call_py. */
typedef struct {
    PyObject_HEAD
    int code;  /* the NgOp; -1: none (a host ufunc, every call in Python) */
    int nin;   /* operands of a call */
} UfuncBase;

static bool fast_operand(PyObject *o, bool *array)
{
    if (Py_IS_TYPE(o, ngpy.ndarray_type)) {
        *array = true;
        return true;
    }
    return PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyBool_Check(o);
}

static PyObject *ufunc_base_call(PyObject *self, PyObject *args, PyObject *kw)
{
    const UfuncBase *u = (const UfuncBase *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    bool array = false;
    if (u->code >= 0 && (!kw || PyDict_GET_SIZE(kw) == 0) && n == u->nin && n >= 1 && n <= 2 &&
        fast_operand(PyTuple_GET_ITEM(args, 0), &array) &&
        (n == 1 || fast_operand(PyTuple_GET_ITEM(args, 1), &array)) && array) {
        PyObject *r = ufunc_apply(u->code, PyTuple_GET_ITEM(args, 0), n == 2 ? PyTuple_GET_ITEM(args, 1) : Py_None,
                                  Py_None);
        if (r || !(PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_NotImplementedError) ||
                   PyErr_ExceptionMatches(PyExc_RuntimeError)))
            return r;
        PyErr_Clear();
    }
    PyObject *slow = PyObject_GetAttrString(self, "_call_py");
    if (!slow)
        return NULL;
    PyObject *r = PyObject_Call(slow, args, kw);
    Py_DECREF(slow);
    return r;
}

/* (a new object has no fast call until its __init__ sets _fast_code: made with __new__ alone, as
 * ufunc.counted's copies are, it takes every call to _call_py) */
static PyObject *ufunc_base_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    UfuncBase *u = (UfuncBase *)type->tp_alloc(type, 0);
    if (u) {
        u->code = -1;
        u->nin = 0;
    }
    return (PyObject *)u;
}

static PyMemberDef ufunc_base_members[] = {
    {"_fast_code", T_INT, offsetof(UfuncBase, code), 0, "the NgOp of the fast call; -1: none"},
    {"_fast_nin", T_INT, offsetof(UfuncBase, nin), 0, "the operands of the fast call"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot ufunc_base_slots[] = {
    {Py_tp_call, ufunc_base_call},
    {Py_tp_new, ufunc_base_new},
    {Py_tp_members, ufunc_base_members},
    {Py_tp_doc, "The C part of numgpu.ufunc: its fast call (src/pymod/module.c)."},
    {0, NULL},
};

static PyType_Spec ufunc_base_spec = {"numgpu._core.ufunc_base", sizeof(UfuncBase), 0,
                                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, ufunc_base_slots};

/* ufunc_at(op, a, index, value_or_None, compute): ufunc.at on a numgpu array, in place. */
static PyObject *f_ufunc_at(PyObject *m, PyObject *args)
{
    int op;
    PyObject *a, *key, *value, *compute;
    if (!PyArg_ParseTuple(args, "iO!OOO:ufunc_at", &op, ngpy.ndarray_type, &a, &key, &value, &compute))
        return NULL;
    if (op < 0 || op >= NG_NOPS || op == NG_OP_COPY) {
        PyErr_SetString(PyExc_ValueError, "bad op code");
        return NULL;
    }
    NgDType cdt; /* (a read-only array too: NumPy 2.4's ufunc.at writes into one) */
    if (ngpy_dtype(compute, &cdt) < 0)
        return NULL;
    NgOperand v;
    NgArray tv = {0};
    if (value != Py_None && ngpy_operand(value, &v, &tv) < 0)
        return NULL;
    NgIndex items[2 * NG_MAXDIMS];
    NgArray tmps[2 * NG_MAXDIMS];
    int n, ntmp;
    if (ngpy_index(key, &n, items, tmps, &ntmp) < 0) {
        ng_array_release(&tv);
        return NULL;
    }
    NgStatus st = ng_index_update(ngpy_arr(a), n, items, (NgOp)op, cdt, value == Py_None ? NULL : &v);
    for (int t = 0; t < ntmp; t++)
        ng_array_release(&tmps[t]);
    ng_array_release(&tv);
    if (st != NG_OK)
        return ngpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *f_where(PyObject *m, PyObject *args)
{
    PyObject *c, *x, *y, *out_o = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O:where", &c, &x, &y, &out_o))
        return NULL;
    const NgArray *dest;
    if (out_arg(out_o, &dest) < 0)
        return NULL;
    NgOperand o[3];
    NgArray t[3];
    PyObject *objs[3] = {c, x, y};
    if (operands(3, objs, false, o, t) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_where(&o[0], &o[1], &o[2], dest, &out);
    for (int i = 0; i < 3; i++)
        ng_array_release(&t[i]);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (dest)
        return out_result(out_o, &out);
    return ngpy_wrap(&out); /* (NumPy's where gives a 0-d array, not a scalar) */
}

/* clip(a, lo, hi, out): NumPy's clip in one kernel; None for a bound that is not given; the
 * result as a ufunc's (a 0-d one by the scalars policy), or the out= array. */
static PyObject *f_clip(PyObject *m, PyObject *args)
{
    PyObject *objs[3], *out_o = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O:clip", &objs[0], &objs[1], &objs[2], &out_o))
        return NULL;
    const NgArray *dest;
    if (out_arg(out_o, &dest) < 0)
        return NULL;
    NgOperand o[3];
    NgArray t[3];
    if (operands(3, objs, true, o, t) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_clip(&o[0], objs[1] == Py_None ? NULL : &o[1], objs[2] == Py_None ? NULL : &o[2], dest,
                             &out);
    for (int i = 0; i < 3; i++)
        ng_array_release(&t[i]);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (dest)
        return out_result(out_o, &out);
    return ngpy_wrap_result(&out, true);
}

/* nan_to_num(a, nan, posinf, neginf, out=None): a real float numgpu array's NaNs and infinities
 * replaced, in one pass, into out (a itself: in place) or a new array. */
static PyObject *f_nan_to_num(PyObject *m, PyObject *args)
{
    PyObject *a, *out_o = Py_None;
    double v[3];
    if (!PyArg_ParseTuple(args, "O!ddd|O:nan_to_num", ngpy.ndarray_type, &a, &v[0], &v[1], &v[2], &out_o))
        return NULL;
    const NgArray *dest;
    if (out_arg(out_o, &dest) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_nan_to_num(ngpy_arr(a), v[0], v[1], v[2], dest, &out);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (dest)
        return out_result(out_o, &out);
    return ngpy_wrap(&out);
}

/* round(a, decimals): NumPy's round of a real float numgpu array, in one pass (ng_op_round). */
static PyObject *f_round(PyObject *m, PyObject *args)
{
    PyObject *a;
    int decimals;
    if (!PyArg_ParseTuple(args, "O!i:round", ngpy.ndarray_type, &a, &decimals))
        return NULL;
    NgArray out;
    NgStatus st = ngpy_fpe_begin(NULL) < 0 ? NG_ERR_INTERNAL : ng_op_round(ngpy_arr(a), decimals, &out);
    if (st != NG_OK)
        return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL : ngpy_raise(st);
    return ngpy_fpe_result(ngpy_wrap(&out));
}

static PyObject *f_reduce(PyObject *m, PyObject *args)
{
    int op, keepdims, ddof;
    PyObject *a, *axis, *dtype;
    if (!PyArg_ParseTuple(args, "iOOOpi:reduce", &op, &a, &axis, &dtype, &keepdims, &ddof))
        return NULL;
    int naxes, axes[NG_MAXDIMS];
    NgDType dt;
    if (ngpy_axes(axis, &naxes, axes) < 0 || ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    /* NumPy's ufunc.reduce takes an int axis 0 or -1 of a 0-d array as the whole of it (np.sum(x,
     * axis=0), np.add.reduce(x), argmax too); mean, var and std do not (their AxisError) */
    if (ta.ndim == 0 && naxes == 1 && PyLong_Check(axis) && (axes[0] == 0 || axes[0] == -1) &&
        op != NG_RED_MEAN && op != NG_RED_VAR && op != NG_RED_STD)
        naxes = -1;
    if (ngpy_reduce_warn(op, &ta, naxes, axes, ddof) < 0) {
        ng_array_release(&ta);
        return NULL;
    }
    NgStatus st = ng_op_reduce((NgReduceOp)op, &ta, naxes, axes, keepdims, dt, ddof, &out);
    if (st == NG_OK && ngpy_reduce_fpe(op, &ta, &out, ddof) < 0) {
        ng_array_release(&ta);
        ng_array_release(&out);
        return NULL;
    }
    ng_array_release(&ta);
    return st == NG_OK ? ngpy_wrap_result(&out, true) : ngpy_raise(st);
}

/* concatenate(arrays, axis, dtype=None, out=None): out a numgpu array or None; the result, or out. */
static PyObject *f_concatenate(PyObject *m, PyObject *args)
{
    PyObject *seq_o, *dtype_o = Py_None, *out_o = Py_None;
    int axis;
    if (!PyArg_ParseTuple(args, "Oi|OO:concatenate", &seq_o, &axis, &dtype_o, &out_o))
        return NULL;
    NgDType dtype;
    const NgArray *dest;
    if (ngpy_dtype(dtype_o, &dtype) < 0 || out_arg(out_o, &dest) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(seq_o, "concatenate needs a sequence of arrays");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), nconv = 0, got = 0;
    for (Py_ssize_t i = 0; i < n; i++) /* numgpu arrays are read where they are (seq holds them) */
        nconv += !ngpy_check(PySequence_Fast_GET_ITEM(seq, i));
    NgArray *arrs = PyMem_Malloc((size_t)nconv * sizeof *arrs + 1); /* the others, converted */
    const NgArray **ptrs = PyMem_Malloc((size_t)n * sizeof *ptrs + 1);
    PyObject *res = NULL;
    if (!arrs || !ptrs) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (ngpy_check(item)) {
            ptrs[i] = ngpy_arr(item);
            continue;
        }
        if (ngpy_to_array(item, NG_NODTYPE, &arrs[got]) < 0)
            goto done;
        ptrs[i] = &arrs[got++];
    }
    NgArray out;
    NgStatus st = ng_op_concatenate((int)n, ptrs, axis, dtype, dest, &out);
    if (st == NG_OK && dest) {
        ng_array_release(&out);
        res = PyTuple_Check(out_o) ? PyTuple_GET_ITEM(out_o, 0) : out_o;
        Py_INCREF(res);
    } else {
        res = st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
    }
done:
    for (Py_ssize_t i = 0; i < got; i++)
        ng_array_release(&arrs[i]);
    PyMem_Free(arrs);
    PyMem_Free(ptrs);
    Py_DECREF(seq);
    return res;
}

/* as_strided(a, shape, strides): NumPy's stride_tricks.as_strided, a view of a's memory with any
 * shape and byte strides (negative and 0 too) from a's first element. Unlike NumPy it refuses a
 * view reaching outside the memory (a kernel would read past the buffer on the device), and
 * strides that are not multiples of the itemsize (NotImplementedError: NumPy's, the fallback). */
static PyObject *f_as_strided(PyObject *m, PyObject *args)
{
    PyObject *a, *shape_o, *strides_o;
    if (!PyArg_ParseTuple(args, "O!OO:as_strided", ngpy.ndarray_type, &a, &shape_o, &strides_o))
        return NULL;
    int nd;
    int64_t shape[NG_MAXDIMS], strides[NG_MAXDIMS];
    if (ngpy_shape(shape_o, &nd, shape) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(strides_o, "strides must be a sequence of integers");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != nd) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "mismatch in length of strides and shape");
    }
    const NgArray *src = &((NgPyArray *)a)->arr;
    int64_t item = (int64_t)ng_dtype_info(src->dtype)->itemsize, lo = 0, hi = 0;
    bool empty = false, wraps = false;
    for (int i = 0; i < nd; i++) {
        strides[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (strides[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        empty |= shape[i] == 0;
        int64_t reach = 0;
        wraps |= shape[i] > 0 && __builtin_mul_overflow(shape[i] - 1, strides[i], &reach);
        wraps |= __builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi);
    }
    Py_DECREF(seq);
    for (int i = 0; i < nd; i++)
        if (strides[i] % item)
            return PyErr_Format(PyExc_NotImplementedError, "as_strided with strides that are not multiples of "
                                "the itemsize (%lld)", (long long)item);
    int64_t off = (int64_t)src->offset;
    if (!empty && (wraps || off + lo < 0 || off + hi > (int64_t)src->buf->nbytes - item))
        return PyErr_Format(PyExc_ValueError, "as_strided: the view reaches outside the array's memory (bytes %lld "
                            "to %lld of a block of %zu); numgpu does not read memory it does not own",
                            (long long)(off + lo), (long long)(off + hi + item), src->buf->nbytes);
    NgArray out;
    ng_array_view(src, &out);
    out.ndim = nd;
    out.size = 1;
    for (int i = 0; i < nd; i++) {
        out.shape[i] = shape[i];
        out.strides[i] = strides[i];
        out.size *= shape[i];
    }
    return ngpy_wrap_from(&out, a);
}

static PyObject *f_set_subclass_hook(PyObject *m, PyObject *f)
{
    Py_XSETREF(ngpy.subclass_hook, Py_NewRef(f));
    Py_RETURN_NONE;
}

static PyObject *f_subclass_view(PyObject *m, PyObject *args)
{
    PyObject *x, *cls, *parent;
    if (!PyArg_ParseTuple(args, "OOO:subclass_view", &x, &cls, &parent))
        return NULL;
    return ngpy_subclass_view(x, cls, parent);
}

/* host_view(obj): a numgpu array viewing the memory obj (a NumPy array) exports, no copy, on the
 * current device when it is in host memory (cpu), read-only where the memory is; None where it
 * cannot be (a GPU, a dtype numgpu lacks, byte-swapped data): the caller keeps NumPy's array. */
static PyObject *f_host_view(PyObject *m, PyObject *obj) { return ngpy_host_view(obj); }

PyObject *ngpy_host_view(PyObject *obj)
{
    NgDevice *dev = ngpy_device();
    if (!dev)
        return NULL;
    if (!ng_device_host_visible(dev))
        Py_RETURN_NONE;
    NgArray a;
    bool readonly = false;
    int rc = ngpy_wrap_host(obj, dev, true, &a);
    if (rc == 1) {
        readonly = true;
        rc = ngpy_wrap_host(obj, dev, false, &a);
    }
    if (rc < 0)
        return NULL;
    if (rc == 1)
        Py_RETURN_NONE;
    PyObject *r = ngpy_wrap(&a);
    if (r)
        ((NgPyArray *)r)->readonly = readonly;
    return r;
}

/* cache_trim(dir, limit, target): ng_cache_trim on one device kind's cache directory; a dict of
 * what was there and what went (numgpu cache). */
static PyObject *f_cache_trim(PyObject *m, PyObject *args)
{
    const char *dir;
    unsigned long long limit, target;
    if (!PyArg_ParseTuple(args, "sKK:cache_trim", &dir, &limit, &target))
        return NULL;
    NgCacheTrim tr;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_cache_trim(dir, limit, target, &tr);
    Py_END_ALLOW_THREADS
    if (st != NG_OK)
        return ngpy_raise(st);
    return Py_BuildValue("{sKsKsKsK}", "bytes", (unsigned long long)tr.bytes, "kernels",
                         (unsigned long long)tr.kernels, "bytes_removed", (unsigned long long)tr.bytes_removed,
                         "kernels_removed", (unsigned long long)tr.kernels_removed);
}

static PyObject *f_cache_limit(PyObject *m, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(ng_cache_limit());
}

static PyObject *f_broadcast_to(PyObject *m, PyObject *args)
{
    PyObject *a, *shape_o;
    if (!PyArg_ParseTuple(args, "OO:broadcast_to", &a, &shape_o))
        return NULL;
    int nd;
    int64_t shape[NG_MAXDIMS];
    if (ngpy_shape(shape_o, &nd, shape) < 0)
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    NgStatus st = ng_op_broadcast_to(&ta, nd, shape, &out);
    ng_array_release(&ta);
    return st == NG_OK ? ngpy_wrap_from(&out, a) : ngpy_raise(st);
}

static PyObject *f_stats(PyObject *m, PyObject *unused)
{
    NgStats s;
    ng_stats_get(&s);
    return Py_BuildValue("{sKsKsKsKsKsKsKsKsKsKsKsKsKsK}", "implicit_uploads", s.implicit_uploads,
                         "implicit_downloads", s.implicit_downloads, "kernel_launches", s.kernel_launches,
                         "kernels_compiled", s.kernels_compiled, "disk_cache_hits", s.disk_cache_hits,
                         "memory_cache_hits", s.memory_cache_hits, "uploads", s.uploads,
                         "upload_bytes", s.upload_bytes, "downloads", s.downloads,
                         "download_bytes", s.download_bytes, "bytes_in_use", s.bytes_in_use,
                         "buffers_in_use", s.buffers_in_use, "overflow_bytes", s.overflow_bytes,
                         "overflow_allocations", s.overflow_allocs);
}

static PyObject *f_get_device(PyObject *m, PyObject *unused)
{
    NgDevice *dev = ngpy_device();
    return dev ? PyUnicode_FromString(ng_device_name(dev)) : NULL;
}

static PyObject *f_set_device(PyObject *m, PyObject *spec)
{
    NgDevice *dev = device_arg(spec);
    if (!dev)
        return NULL;
    PyObject *prev = ngpy.device ? PyUnicode_FromString(ng_device_name(ngpy.device)) : Py_NewRef(Py_None);
    ngpy.device = dev;
    return prev;
}

static PyObject *f_device_info(PyObject *m, PyObject *spec)
{
    NgDevice *dev = device_arg(spec);
    if (!dev)
        return NULL;
    return Py_BuildValue("{sssssssOsO}", "name", ng_device_name(dev), "kind", ng_device_kind(dev),
                         "description", ng_device_description(dev), "gpu", ng_device_is_gpu(dev) ? Py_True : Py_False,
                         "host_visible", ng_device_host_visible(dev) ? Py_True : Py_False);
}

static PyObject *f_synchronize(PyObject *m, PyObject *args)
{
    PyObject *spec = Py_None;
    if (!PyArg_ParseTuple(args, "|O:synchronize", &spec))
        return NULL;
    NgDevice *dev = device_arg(spec);
    if (!dev)
        return NULL;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_device_sync(dev);
    Py_END_ALLOW_THREADS
    if (st != NG_OK)
        return ngpy_raise(st);
    if (ngpy_fpe_deferred() < 0) /* (the warnings of the kernels it waited for) */
        return NULL;
    Py_RETURN_NONE;
}

/* set_numpy_scalars(flag, package_dir): results NumPy gives as scalars become NumPy's scalars on
 * a device in host memory when the calling code is not in package_dir (numgpu's own, which keeps
 * 0-d arrays); returns the previous setting. */
static PyObject *f_set_numpy_scalars(PyObject *m, PyObject *args)
{
    int flag;
    PyObject *dir;
    if (!PyArg_ParseTuple(args, "pU", &flag, &dir))
        return NULL;
    PyObject *prev = ngpy.numpy_scalars ? Py_True : Py_False;
    Py_INCREF(prev);
    Py_INCREF(dir);
    Py_XSETREF(ngpy.package_dir, dir);
    ngpy.numpy_scalars = flag;
    return prev;
}

static PyObject *f_set_strict(PyObject *m, PyObject *flag)
{
    PyObject *prev = ngpy.strict ? Py_True : Py_False;
    Py_INCREF(prev);
    ngpy.strict = PyObject_IsTrue(flag) == 1;
    return prev;
}

/* set_precision("float32" | "float64"): the precision policy; returns the previous one. */
static PyObject *f_set_precision(PyObject *m, PyObject *arg)
{
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s)
        return NULL;
    if (strcmp(s, "float32") != 0 && strcmp(s, "float64") != 0) {
        PyErr_Format(PyExc_ValueError, "precision must be 'float32' or 'float64', not '%s'", s);
        return NULL;
    }
    PyObject *prev = PyUnicode_FromString(ngpy.float32 ? "float32" : "float64");
    ngpy.float32 = strcmp(s, "float32") == 0;
    return prev;
}

static PyObject *f_last_kernel_source(PyObject *m, PyObject *unused)
{
    return PyUnicode_FromString(ng_kernel_last_source());
}

static PyObject *f_nvrtc_compile(PyObject *m, PyObject *args)
{
    const char *source, *arch = "sm_90";
    if (!PyArg_ParseTuple(args, "s|s:nvrtc_compile", &source, &arch))
        return NULL;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_cuda_nvrtc_compile(source, "kernel.cu", arch, false, NULL, NULL);
    Py_END_ALLOW_THREADS
    if (st != NG_OK)
        return ngpy_raise(st);
    Py_RETURN_NONE;
}

static PyObject *f_nvrtc_version(PyObject *m, PyObject *unused)
{
    const char *v = ng_cuda_nvrtc_version();
    if (!v)
        Py_RETURN_NONE;
    return PyUnicode_FromString(v);
}

static PyObject *f_cuda_driver_version(PyObject *m, PyObject *unused)
{
    int v = 0;
    NgStatus st = ng_cuda_driver_version(&v);
    if (st != NG_OK)
        return ngpy_raise(st);
    return PyLong_FromLong(v);
}

static PyObject *f_cpu_blas(PyObject *m, PyObject *unused)
{
    bool found;
    const char *text = ng_cpu_blas(&found);
    return Py_BuildValue("(Os)", found ? Py_True : Py_False, text);
}

static PyObject *f_last_error(PyObject *m, PyObject *unused) { return PyUnicode_FromString(ng_error_message()); }

static PyObject *f_op_names(PyObject *m, PyObject *unused)
{
    PyObject *l = PyList_New(NG_NOPS);
    for (int i = 0; l && i < NG_NOPS; i++)
        PyList_SET_ITEM(l, i, PyUnicode_FromString(ng_op_name((NgOp)i)));
    return l;
}

static PyObject *f_finish_devices(PyObject *m, PyObject *unused)
{
    Py_BEGIN_ALLOW_THREADS
    ng_devices_finish();
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* Python's atexit runs before the C library's exit handlers and the
 * drivers' destructors: the right moment to wait for queued device work. */
static int register_finish(PyObject *m)
{
    PyObject *atexit = PyImport_ImportModule("atexit");
    PyObject *fn = atexit ? PyObject_GetAttrString(m, "finish_devices") : NULL;
    PyObject *r = fn ? PyObject_CallMethod(atexit, "register", "O", fn) : NULL;
    Py_XDECREF(atexit);
    Py_XDECREF(fn);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyMethodDef functions[] = {
    {"finish_devices", f_finish_devices, METH_NOARGS, "Wait for queued work on every opened device (at exit)."},
    {"asarray", (PyCFunction)(void (*)(void))f_asarray, METH_VARARGS | METH_KEYWORDS, "Array from any array-like."},
    {"empty", f_empty, METH_VARARGS, "empty(shape, dtype, device)"},
    {"full", f_full, METH_VARARGS, "full(shape, value, dtype, device)"},
    {"arange", f_arange, METH_VARARGS, "arange(start, n, step, dtype, device)"},
    {"linspace", f_linspace, METH_VARARGS, "linspace(start, stop, n, endpoint, dtype, device)"},
    {"eye", f_eye, METH_VARARGS, "eye(n, m, k, dtype, device)"},
    {"ufunc", (PyCFunction)(void (*)(void))f_ufunc, METH_FASTCALL, "ufunc(opcode, a, b_or_None, out)"},
    {"ufunc_at", f_ufunc_at, METH_VARARGS, "ufunc_at(opcode, a, index, value_or_None, compute_dtype): ufunc.at."},
    {"where", f_where, METH_VARARGS, "where(cond, x, y[, out])"},
    {"set_subclass_hook", f_set_subclass_hook, METH_O,
     "set_subclass_hook(rewrap): what operators call on results of Python subclasses' instances."},
    {"subclass_view", f_subclass_view, METH_VARARGS,
     "subclass_view(x, cls, parent): x's memory as an instance of cls, finalized from parent."},
    {"cache_trim", f_cache_trim, METH_VARARGS,
     "cache_trim(dir, limit, target): the least recently used kernels in dir removed down to target bytes where they take over limit."},
    {"cache_limit", f_cache_limit, METH_NOARGS, "cache_limit(): NUMGPU_CACHE_SIZE in bytes (0: no limit)."},
    {"host_view", f_host_view, METH_O, "host_view(numpy_array): a numgpu view of its memory on a host device, or None."},
    {"reduce", f_reduce, METH_VARARGS, "reduce(opcode, a, axis, dtype, keepdims, ddof)"},
    {"clip", f_clip, METH_VARARGS, "clip(a, lo, hi, out=None): NumPy's clip, one pass"},
    {"round", f_round, METH_VARARGS, "round(a, decimals): NumPy's round of a real float array, one pass"},
    {"nan_to_num", f_nan_to_num, METH_VARARGS, "nan_to_num(a, nan, posinf, neginf, out=None): one pass"},
    {"concatenate", f_concatenate, METH_VARARGS, "concatenate(arrays, axis, dtype=None, out=None)"},
    {"broadcast_to", f_broadcast_to, METH_VARARGS, "broadcast_to(a, shape)"},
    {"as_strided", f_as_strided, METH_VARARGS, "as_strided(a, shape, strides): a view of a's memory"},
    {"stats", f_stats, METH_NOARGS, "Counters: launches, compiles, cache hits, transfers, memory."},
    {"get_device", f_get_device, METH_NOARGS, "Name of the current device."},
    {"set_device", f_set_device, METH_O, "Make a device current; returns the previous one's name."},
    {"device_info", f_device_info, METH_O, "name, kind, description of a device (opens it)."},
    {"synchronize", f_synchronize, METH_VARARGS, "Wait for queued work on a device."},
    {"set_strict", f_set_strict, METH_O, "Make implicit transfers errors; returns the previous setting."},
    {"set_numpy_scalars", f_set_numpy_scalars, METH_VARARGS,
     "Results NumPy gives as scalars become NumPy's scalars on cpu; returns the previous setting."},
    {"set_precision", f_set_precision, METH_O, "Precision policy 'float32' or 'float64'; returns the previous one."},
    {"last_kernel_source", f_last_kernel_source, METH_NOARGS, "Source of the last compiled kernel (this thread)."},
    {"op_names", f_op_names, METH_NOARGS, "Ufunc names by op code."},
    {"nvrtc_compile", f_nvrtc_compile, METH_VARARGS, "Compile CUDA source with NVRTC (no GPU needed)."},
    {"nvrtc_version", f_nvrtc_version, METH_NOARGS, "NVRTC version string, or None if not found."},
    {"cpu_blas", f_cpu_blas, METH_NOARGS,
     "(found, text): the host BLAS/LAPACK of the cpu device's matrix products and solves, its path, or why none."},
    {"cuda_driver_version", f_cuda_driver_version, METH_NOARGS, "CUDA version the driver supports (12040 = 12.4)."},
    {"last_error", f_last_error, METH_NOARGS, "Text of the C core's last error on this thread."},
    {NULL},
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "numgpu._core", "numgpu C core binding.", -1, functions, NULL, NULL, NULL, NULL,
};

static PyObject *new_exception(PyObject *m, const char *name, PyObject *base, const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "numgpu.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, base, NULL);
    if (e && PyModule_AddObjectRef(m, name, e) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return e;
}

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&moddef);
    if (!m)
        return NULL;
    ngpy.numpy = PyImport_ImportModule("numpy");
    if (!ngpy.numpy)
        goto fail;
    ngpy.np_ndarray = PyObject_GetAttrString(ngpy.numpy, "ndarray");
    ngpy.np_asarray = PyObject_GetAttrString(ngpy.numpy, "asarray");
    ngpy.np_dtype = PyObject_GetAttrString(ngpy.numpy, "dtype");
    ngpy.np_generic = PyObject_GetAttrString(ngpy.numpy, "generic");
    ngpy.np_integer = PyObject_GetAttrString(ngpy.numpy, "integer");
    ngpy.np_floating = PyObject_GetAttrString(ngpy.numpy, "floating");
    ngpy.np_bool = PyObject_GetAttrString(ngpy.numpy, "bool_");
    if (!ngpy.np_ndarray || !ngpy.np_asarray || !ngpy.np_dtype || !ngpy.np_generic || !ngpy.np_integer || !ngpy.np_floating ||
        !ngpy.np_bool)
        goto fail;
    PyObject *exc_mod = PyImport_ImportModule("numpy.exceptions");
    if (exc_mod) {
        ngpy.AxisError = PyObject_GetAttrString(exc_mod, "AxisError");
        Py_DECREF(exc_mod);
    }
    PyErr_Clear();
    ngpy.CompileError = new_exception(m, "CompileError", PyExc_RuntimeError,
                                      "A generated kernel failed to compile; .log holds the compiler output.");
    ngpy.DeviceError = new_exception(m, "DeviceError", PyExc_RuntimeError,
                                     "A device, driver or compiler could not be used.");
    ngpy.OutOfMemoryError = new_exception(m, "OutOfMemoryError", PyExc_MemoryError,
                                          "Device memory is exhausted.");
    ngpy.UnsupportedDtypeError = new_exception(m, "UnsupportedDtypeError", PyExc_TypeError,
                                               "numgpu has no device arrays of this dtype (str, object, "
                                               "datetime64, ...); numgpu's functions run NumPy's for them.");
    if (!ngpy.CompileError || !ngpy.DeviceError || !ngpy.OutOfMemoryError || !ngpy.UnsupportedDtypeError)
        goto fail;
    ngpy.strict = ng_env_flag("NUMGPU_STRICT", 0);
    PyMethodDef *const tables[] = {ngpy_jit_functions, ngpy_sort_functions, ngpy_manip_functions,
                                   ngpy_random_functions, ngpy_dlpack_functions,
                                   ngpy_lapack_functions, ngpy_fft_functions, ngpy_report_functions,
                                   ngpy_guard_functions};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (PyModule_AddFunctions(m, tables[i]) < 0)
            goto fail;
    if (register_finish(m) < 0 || ngpy_report_add_types(m) < 0 || ngpy_guard_add_types(m) < 0)
        goto fail;
    ngpy.ndarray_type = ngpy_make_ndarray_type(m);
    if (!ngpy.ndarray_type || PyModule_AddObjectRef(m, "ndarray", (PyObject *)ngpy.ndarray_type) < 0)
        goto fail;
    PyObject *ufunc_base = PyType_FromSpec(&ufunc_base_spec);
    if (!ufunc_base || PyModule_AddObject(m, "ufunc_base", ufunc_base) < 0) {
        Py_XDECREF(ufunc_base);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
