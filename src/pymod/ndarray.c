/* numgpu.ndarray: the extension type. Operators, attributes, indexing,
 * conversions and methods, each a thin call into the C ops. */
#include "pymod.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <structmember.h>

#define ARR(o) ngpy_arr((PyObject *)(o))

static void array_dealloc(NgPyArray *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (self->weakreflist)
        PyObject_ClearWeakRefs((PyObject *)self);
    ngpy_disown(self);
    ng_array_release(&self->arr);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* ---- operators ---- */

/* An operand numgpu has no device array of (datetime64, object, str data): NotImplemented, so
 * Python asks the other operand (NumPy's array or scalar, whose ufunc comes back through
 * __array_ufunc__ and runs NumPy's); other conversion errors stand. */
static PyObject *host_operand(bool inplace)
{
    if (inplace || !PyErr_ExceptionMatches(ngpy.UnsupportedDtypeError))
        return NULL;
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
}

/* An empty NumPy array of operand o's dtype (a numgpu array, a NumPy array, a list or tuple);
 * o itself for a scalar (a Python number stays weak, a NumPy scalar strong). */
static PyObject *empty_of(PyObject *o)
{
    PyObject *dt = NULL, *r;
    if (ngpy_check(o)) {
        dt = ngpy_dtype_object(ARR(o)->dtype);
    } else if (PyList_Check(o) || PyTuple_Check(o) || PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray)) {
        PyObject *x = PyObject_CallOneArg(ngpy.np_asarray, o);
        dt = x ? PyObject_GetAttrString(x, "dtype") : NULL;
        Py_XDECREF(x);
    } else {
        Py_INCREF(o);
        return o;
    }
    if (!dt)
        return NULL;
    r = PyObject_CallMethod(ngpy.numpy, "empty", "(i)O", 0, dt);
    Py_DECREF(dt);
    return r;
}

/* The core's TypeError for NumPy's `ufunc` on a (and b; in place: into a) as NumPy raises it: NumPy's ufunc
 * run on empty arrays of the same dtypes raises its own class (UFuncTypeError's subclasses for a
 * missing loop or an output cast, a plain TypeError from its legacy type resolution) and
 * message; the core's TypeError where NumPy's call raises none (or no TypeError). */
static PyObject *type_error(const char *ufunc, PyObject *a, PyObject *b, bool inplace)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", ng_error_message());
    PyObject *fn = PyObject_GetAttrString(ngpy.numpy, ufunc);
    PyObject *x = empty_of(a), *y = b ? empty_of(b) : NULL;
    PyObject *args = x && (y || !b) ? (b ? PyTuple_Pack(2, x, y) : PyTuple_Pack(1, x)) : NULL;
    PyObject *kw = args && inplace ? Py_BuildValue("{s:O}", "out", x) : NULL;
    PyObject *r = fn && args && (kw || !inplace) ? PyObject_Call(fn, args, kw) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    Py_XDECREF(r);
    if (r || !PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, msg);
    }
    return NULL;
}

static PyObject *binop(PyObject *a, PyObject *b, NgOp op, bool inplace)
{
    if (inplace && ngpy_check_writeable(a, "output array") < 0)
        return NULL;
    NgOperand x, y;
    NgArray tx, ty, out;
    if (ngpy_operand(a, &x, &tx) < 0)
        return host_operand(inplace);
    if (ngpy_operand(b, &y, &ty) < 0) {
        ng_array_release(&tx);
        return host_operand(inplace);
    }
    if (ngpy_weak_scalar_fpe(&x, &y) < 0) {
        ng_array_release(&tx);
        ng_array_release(&ty);
        return NULL;
    }
    NgStatus st = ngpy_fpe_begin(NULL) < 0 ? NG_ERR_INTERNAL : ng_op_binary(op, &x, &y, inplace ? ARR(a) : NULL, &out);
    ng_array_release(&tx);
    ng_array_release(&ty);
    if (st != NG_OK)
        return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL
               : st == NG_ERR_TYPE ? type_error(ng_op_name(op), a, b, inplace) : ngpy_raise(st);
    if (inplace) {
        ng_array_release(&out);
        Py_INCREF(a);
        return ngpy_fpe_result(a);
    }
    return ngpy_keep_subclass(ngpy_fpe_result(ngpy_wrap_result(&out, true)), a, b);
}

/* x op= y on a computed 0-d result nothing else holds (no view, no NumPy array on its memory):
 * a new result, as NumPy's scalars are immutable (total += x.sum(); history.append(total) keeps
 * each total). 0-d arrays made as arrays, and views, change in place as NumPy's 0-d arrays. */
static bool rebinds(PyObject *a)
{
    const NgPyArray *o = (const NgPyArray *)a;
    return o->scalar && o->arr.ndim == 0 && o->arr.buf->refcount == 1 && o->exports == 0;
}

static PyObject *unop(PyObject *a, NgOp op)
{
    NgOperand x = {ARR(a), {0}};
    NgArray out;
    NgStatus st = ngpy_fpe_begin(NULL) < 0 ? NG_ERR_INTERNAL : ng_op_unary(op, &x, NULL, &out);
    if (st != NG_OK)
        return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL
               : st == NG_ERR_TYPE ? type_error(ng_op_name(op), a, NULL, false) : ngpy_raise(st);
    return ngpy_keep_subclass(ngpy_fpe_result(ngpy_wrap_result(&out, true)), a, NULL);
}

/* A subclass of NumPy's ndarray with semantics of its own (a masked array, np.matrix; np.memmap
 * is plain memory): taken as its data it would lose them (a mask), so its own operators answer. */
static bool np_subclass(PyObject *o)
{
    static PyObject *memmap;
    PyTypeObject *t = Py_TYPE(o);
    if (t == (PyTypeObject *)ngpy.np_ndarray || !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray))
        return false;
    if (!memmap && !(memmap = PyObject_GetAttrString(ngpy.numpy, "memmap")))
        PyErr_Clear();
    return !memmap || !PyObject_TypeCheck(o, (PyTypeObject *)memmap);
}

/* Operand types we do not know: let Python try the reflected method. */
static bool foreign(PyObject *o)
{
    if (PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray))
        return np_subclass(o);
    return !ngpy_check(o) && !PyLong_Check(o) && !PyFloat_Check(o) && !PyComplex_Check(o) && !PyBool_Check(o) &&
           !PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_generic) && !PyList_Check(o) && !PyTuple_Check(o);
}

/* A list, tuple, str or bytes times a 0-d integer array: the sequence repeated, as by NumPy's integer scalars
 * that such arrays stand for ([0] * counts.max()); Python's repeat then reads nb_index. */
static bool repeats(PyObject *a, PyObject *b)
{
    PyObject *seq = ngpy_check(a) ? b : a, *n = ngpy_check(a) ? a : b;
    return (PyList_Check(seq) || PyTuple_Check(seq) || PyUnicode_Check(seq) || PyBytes_Check(seq)) &&
           ngpy_check(n) && ARR(n)->ndim == 0 &&
           ng_dtype_is_int(ARR(n)->dtype);
}

/* An object NumPy's legacy rule defers to: no __array_ufunc__ and an __array_priority__ above 0
 * (scipy.sparse's matrices). */
static bool defers_by_priority(PyObject *o)
{
    if (PyObject_HasAttrString((PyObject *)Py_TYPE(o), "__array_ufunc__"))
        return false;
    PyObject *pr = PyObject_GetAttrString(o, "__array_priority__");
    double priority = pr ? PyFloat_AsDouble(pr) : 0.0;
    Py_XDECREF(pr);
    PyErr_Clear();
    return priority > 0.0;
}

/* NumPy's array of the numgpu array x: a view of a cpu array's memory, a copy from a GPU. */
static PyObject *numpy_of(PyObject *x) { return PyObject_CallOneArg(ngpy.np_asarray, x); }

/* a op b where the other operand defers by NumPy's legacy rule (a higher __array_priority__ and no
 * __array_ufunc__: scipy.sparse's matrices), which may know only NumPy's arrays (scipy's test is
 * isinstance(x, np.ndarray)): its reflected method asked with the numgpu array first where that is
 * a (it may know numgpu's); where it answers NotImplemented, and where it is a (its own method has
 * refused the numgpu array already), NumPy's operator with NumPy's array of ours, which asks it as
 * NumPy's operator would: scipy's sparse + dense, dense - sparse. */
static PyObject *deferred_binop(PyObject *a, PyObject *b, NgOp op)
{
    static const struct { NgOp op; binaryfunc f; const char *reflected; } table[] = {
        {NG_OP_ADD, PyNumber_Add, "__radd__"}, {NG_OP_SUB, PyNumber_Subtract, "__rsub__"},
        {NG_OP_MUL, PyNumber_Multiply, "__rmul__"}, {NG_OP_TRUEDIV, PyNumber_TrueDivide, "__rtruediv__"},
        {NG_OP_FLOORDIV, PyNumber_FloorDivide, "__rfloordiv__"}, {NG_OP_MOD, PyNumber_Remainder, "__rmod__"},
        {NG_OP_LSHIFT, PyNumber_Lshift, "__rlshift__"}, {NG_OP_RSHIFT, PyNumber_Rshift, "__rrshift__"},
        {NG_OP_BITAND, PyNumber_And, "__rand__"}, {NG_OP_BITOR, PyNumber_Or, "__ror__"},
        {NG_OP_BITXOR, PyNumber_Xor, "__rxor__"},
    };
    size_t k = 0;
    while (k < sizeof table / sizeof table[0] && table[k].op != op)
        k++;
    if (k == sizeof table / sizeof table[0])
        Py_RETURN_NOTIMPLEMENTED;
    bool ours_first = ngpy_check(a);
    if (ours_first) {
        PyObject *r = PyObject_CallMethod(b, table[k].reflected, "O", a);
        if (!r && PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();
        else if (!r || r != Py_NotImplemented)
            return r;
        Py_XDECREF(r);
    }
    PyObject *np = numpy_of(ours_first ? a : b);
    if (!np)
        return NULL;
    PyObject *r = ours_first ? table[k].f(np, b) : table[k].f(a, np);
    Py_DECREF(np);
    return r;
}

/* a op b with an operand of a type numgpu does not know (a Fraction, a Decimal, an object with
 * __array_ufunc__): NumPy's operator calls its ufunc, which makes an object array of it or hands
 * the call to its __array_ufunc__, so numgpu's ufunc of the same name is called (through NumPy's,
 * counted). NotImplemented where NumPy's operator defers to the other operand: its
 * __array_ufunc__ is None, it has none and a higher __array_priority__, or it is a NumPy subclass
 * with semantics of its own. */
static PyObject *foreign_binop(PyObject *a, PyObject *b, NgOp op)
{
    PyObject *o = ngpy_check(a) ? b : a;
    if (PyObject_TypeCheck(o, (PyTypeObject *)ngpy.np_ndarray) || PyType_Check(o))
        Py_RETURN_NOTIMPLEMENTED;
    if (defers_by_priority(o)) /* NumPy's legacy rule: a higher __array_priority__ (scipy.sparse's) */
        return deferred_binop(a, b, op);
    PyObject *au = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__array_ufunc__");
    if (!au)
        PyErr_Clear();
    Py_XDECREF(au);
    if (au == Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *mod = PyImport_ImportModule("numgpu");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, ng_op_name(op)) : NULL;
    Py_XDECREF(mod);
    if (!fn) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(fn, a, b, NULL);
    Py_DECREF(fn);
    return r;
}

#define BINARY(name, OP, SKIP) \
    static PyObject *name(PyObject *a, PyObject *b) \
    { \
        if (SKIP(a, b)) \
            Py_RETURN_NOTIMPLEMENTED; \
        if (foreign(a) || foreign(b)) \
            return foreign_binop(a, b, OP); \
        return binop(a, b, OP, false); \
    } \
    static PyObject *name##_inplace(PyObject *a, PyObject *b) \
    { \
        if (foreign(b)) \
            Py_RETURN_NOTIMPLEMENTED; \
        return binop(a, b, OP, !rebinds(a)); \
    }
#define NEVER(a, b) false

BINARY(nb_add, NG_OP_ADD, NEVER)
BINARY(nb_sub, NG_OP_SUB, NEVER)
BINARY(nb_mul, NG_OP_MUL, repeats)
BINARY(nb_truediv, NG_OP_TRUEDIV, NEVER)
BINARY(nb_floordiv, NG_OP_FLOORDIV, NEVER)
BINARY(nb_mod, NG_OP_MOD, NEVER)
BINARY(nb_lshift, NG_OP_LSHIFT, NEVER)
BINARY(nb_rshift, NG_OP_RSHIFT, NEVER)
BINARY(nb_and, NG_OP_BITAND, NEVER)
BINARY(nb_or, NG_OP_BITOR, NEVER)
BINARY(nb_xor, NG_OP_BITXOR, NEVER)

/* NumPy's `**` takes sqrt for a Python float exponent 0.5 of a float or complex array (its
 * fast_scalar_power; -0.0 ** 0.5 is then -0.0 where np.power gives 0.0). */
static bool sqrt_power(PyObject *a, PyObject *b)
{
    if (!PyFloat_CheckExact(b) || PyFloat_AS_DOUBLE(b) != 0.5 || !ngpy_check(a))
        return false;
    NgDType t = ARR(a)->dtype;
    return ng_dtype_is_float(t) || ng_dtype_is_complex(t);
}

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError, "pow() with a modulus is not supported");
        return NULL;
    }
    if (foreign(a) || foreign(b))
        Py_RETURN_NOTIMPLEMENTED;
    if (sqrt_power(a, b)) /* NumPy's operator: x ** 0.5 of floats and complex numbers is sqrt(x) */
        return unop(a, NG_OP_SQRT);
    return binop(a, b, NG_OP_POW, false);
}

static PyObject *nb_pow_inplace(PyObject *a, PyObject *b, PyObject *mod)
{
    if (foreign(b))
        Py_RETURN_NOTIMPLEMENTED;
    return binop(a, b, NG_OP_POW, !rebinds(a));
}

static PyObject *nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *q = nb_floordiv(a, b);
    if (!q && PyErr_ExceptionMatches(PyExc_TypeError)) { /* (NumPy's error names divmod) */
        PyErr_Clear();
        return type_error("divmod", a, b, false);
    }
    if (!q || q == Py_NotImplemented)
        return q;
    PyObject *r = nb_mod(a, b);
    if (!r) {
        Py_DECREF(q);
        return NULL;
    }
    return Py_BuildValue("(NN)", q, r);
}

static PyObject *nb_neg(PyObject *a) { return unop(a, NG_OP_NEG); }
static PyObject *nb_pos(PyObject *a) { return unop(a, NG_OP_POS); }
static PyObject *nb_abs(PyObject *a) { return unop(a, NG_OP_ABS); }
static PyObject *nb_invert(PyObject *a) { return unop(a, NG_OP_INVERT); }

static PyObject *nb_matmul(PyObject *a, PyObject *b)
{
    if (foreign(a) || foreign(b))
        Py_RETURN_NOTIMPLEMENTED;
    NgArray ta, tb, out;
    ta.buf = tb.buf = NULL;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return host_operand(false);
    if (ngpy_to_array(b, NG_NODTYPE, &tb) < 0) {
        ng_array_release(&ta);
        return host_operand(false);
    }
    NgStatus st = ng_op_matmul(&ta, &tb, &out);
    ng_array_release(&ta);
    ng_array_release(&tb);
    return st == NG_OK ? ngpy_keep_subclass(ngpy_wrap_result(&out, true), a, b) : ngpy_raise(st);
}

/* The single element of a size-1 array as a Python scalar. */
static PyObject *scalar_item(PyObject *self)
{
    PyObject *np = ngpy_to_numpy(ARR(self));
    if (!np)
        return NULL;
    PyObject *r = PyObject_CallMethod(np, "item", NULL);
    Py_DECREF(np);
    return r;
}

/* NumPy 2: only 0-d arrays convert to Python scalars with int()/float(). */
static int need_one(PyObject *self, const char *what)
{
    if (ARR(self)->ndim != 0) {
        PyErr_Format(PyExc_TypeError, "only 0-dimensional arrays can be converted to Python %s", what);
        return -1;
    }
    return 0;
}

static PyObject *nb_float(PyObject *self)
{
    if (need_one(self, "scalars") < 0)
        return NULL;
    PyObject *v = scalar_item(self);
    if (!v)
        return NULL;
    PyObject *f = PyNumber_Float(v);
    Py_DECREF(v);
    return f;
}

static PyObject *m_complex(PyObject *self, PyObject *unused)
{
    if (need_one(self, "scalars") < 0)
        return NULL;
    PyObject *v = scalar_item(self);
    if (!v)
        return NULL;
    PyObject *c = PyObject_CallOneArg((PyObject *)&PyComplex_Type, v);
    Py_DECREF(v);
    return c;
}

/* a.conj(): the conjugate of a complex array; a real array is returned itself, as NumPy's
 * method does (the ufunc numpy.conjugate copies, and gives int8 for bool). */
static PyObject *m_conj(PyObject *self, PyObject *unused)
{
    if (!ng_dtype_is_complex(ARR(self)->dtype))
        return Py_NewRef(self);
    return unop(self, NG_OP_CONJUGATE);
}

static PyObject *nb_int(PyObject *self)
{
    if (need_one(self, "scalars") < 0)
        return NULL;
    PyObject *v = scalar_item(self);
    if (!v)
        return NULL;
    PyObject *i = PyNumber_Long(v);
    Py_DECREF(v);
    return i;
}

static PyObject *nb_index(PyObject *self)
{
    const NgArray *a = ARR(self);
    if (a->ndim != 0 || !(ng_dtype_is_int(a->dtype))) {
        PyErr_SetString(PyExc_TypeError, "only integer scalar arrays can be converted to a scalar index");
        return NULL;
    }
    return scalar_item(self);
}

static int nb_bool(PyObject *self)
{
    if (ARR(self)->size != 1) {
        if (ARR(self)->size == 0) {
            PyErr_SetString(PyExc_ValueError, "The truth value of an empty array is ambiguous. Use `array.size > 0` "
                            "to check that an array is not empty.");
            return -1;
        }
        PyErr_SetString(PyExc_ValueError, "The truth value of an array with more than one element is ambiguous. "
                        "Use a.any() or a.all()");
        return -1;
    }
    PyObject *v = scalar_item(self);
    if (!v)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* x == v or x != v with v a list or tuple numgpu has no device data of (strs, objects): NumPy's
 * elementwise answer, as NumPy's ndarray gives it (Python's own fallback would compare
 * identities: one False). The comparison runs as NumPy's with v made NumPy's array, which hands
 * it to numgpu's ufunc (__array_ufunc__), which runs NumPy's through the fallback. */
static PyObject *compare_on_numpy(PyObject *a, PyObject *b, int op)
{
    PyObject *nb = PyObject_CallOneArg(ngpy.np_asarray, b);
    if (!nb)
        return NULL;
    PyObject *r = PyObject_RichCompare(nb, a, op); /* (== and != read the same both ways) */
    Py_DECREF(nb);
    return r;
}

static PyObject *richcompare(PyObject *a, PyObject *b, int op)
{
    static const NgOp ops[] = {[Py_LT] = NG_OP_LT, [Py_LE] = NG_OP_LE, [Py_EQ] = NG_OP_EQ,
                               [Py_NE] = NG_OP_NE, [Py_GT] = NG_OP_GT, [Py_GE] = NG_OP_GE};
    bool equality = op == Py_EQ || op == Py_NE;
    if (b == Py_None || PyUnicode_Check(b) || PyBytes_Check(b)) {
        /* never equal to numbers: NumPy's all-False (all-True for !=) array, made on the device */
        if (equality) {
            NgScalar v = {.kind = NG_KIND_BOOL, .v.i = op == Py_NE};
            NgArray out;
            NgStatus st = ng_op_full(ng_array_device(ARR(a)), NG_BOOL, ARR(a)->ndim, ARR(a)->shape, &v, &out);
            return st == NG_OK ? ngpy_wrap_result(&out, true) : ngpy_raise(st);
        }
        return foreign_binop(a, b, ops[op]); /* (NumPy's ufunc: its UFuncTypeError, its TypeError) */
    }
    if (foreign(b)) { /* (its own __eq__ may answer: pytest.approx, objects deferring as NumPy's rules say) */
        if (equality && defers_by_priority(b)) { /* (scipy.sparse's: NumPy's ndarray == it, elementwise) */
            PyObject *np = numpy_of(a);
            PyObject *r = np ? PyObject_RichCompare(np, b, op) : NULL;
            Py_XDECREF(np);
            return r;
        }
        return equality ? Py_NewRef(Py_NotImplemented) : foreign_binop(a, b, ops[op]);
    }
    PyObject *r = binop(a, b, ops[op], false);
    if (r == Py_NotImplemented && equality && (PyList_Check(b) || PyTuple_Check(b))) {
        Py_DECREF(r);
        return compare_on_numpy(a, b, op); /* (a list of strs: no NumPy operand to ask) */
    }
    return r;
}

/* ---- sequence and mapping ---- */

static Py_ssize_t mp_length(PyObject *self)
{
    if (ARR(self)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return (Py_ssize_t)ARR(self)->shape[0];
}

/* One element, x[i, j] or iterating x, a copy as NumPy's scalar is (a view would follow later
 * writes to x: tmp = a[i]; a[i] = a[j]; a[j] = tmp). On a device in host memory (cpu) NumPy's
 * scalar itself: what follows (p > peak, s += x[i]) is NumPy's scalar arithmetic, no kernel per
 * operation; elsewhere a 0-d array of its own, which stays on the device. Releases view. */
static PyObject *element_of(NgArray *view, PyObject *from)
{
    if (view->ndim != 0)
        return ngpy_wrap_from(view, from);
    NgDevice *dev = ng_array_device(view);
    if (ng_device_host_visible(dev) || (ngpy.numpy_scalars && !ngpy_called_by_numgpu())) {
        PyObject *r = ngpy_numpy_scalar(view); /* (a GPU's: downloaded, config(scalars="numpy")) */
        ng_array_release(view);
        return r;
    }
    NgArray copy;
    NgStatus st = ng_op_astype(view, view->dtype, &copy);
    ng_array_release(view);
    return st == NG_OK ? ngpy_wrap_result(&copy, true) : ngpy_raise(st);
}

/* NumPy's scalar of the element of e (a's view struct, borrowing its buffer reference) at
 * e->offset. */
static PyObject *scalar_at(NgArray *e)
{
    e->ndim = 0;
    e->size = 1;
    return ngpy_numpy_scalar(e);
}

/* e: the element x[i] or x[i, j, ...] of every axis by Python ints, x in host memory (a Python
 * loop's access), as a's view struct at the element's offset, borrowing a's buffer reference.
 * Returns 0 (nothing done, no error) for every other key or device, which the general path takes
 * (NumPy's errors included). */
static int host_address(PyObject *self, PyObject *key, NgArray *e)
{
    const NgArray *a = ARR(self);
    bool tuple = PyTuple_CheckExact(key);
    int n = tuple ? (int)PyTuple_GET_SIZE(key) : 1;
    if (n != a->ndim || !ng_device_host_visible(ng_array_device(a)))
        return 0;
    *e = *a;
    for (int d = 0; d < n; d++) {
        PyObject *k = tuple ? PyTuple_GET_ITEM(key, d) : key;
        if (!PyLong_CheckExact(k))
            return 0;
        int overflow;
        long long i = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (overflow || (i == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        if (i < 0)
            i += a->shape[d];
        if (i < 0 || i >= a->shape[d])
            return 0;
        e->offset += (size_t)(i * a->strides[d]);
    }
    e->ndim = 0;
    e->size = 1;
    return 1;
}

/* x[i, ...] read in place as NumPy's scalar (host_address's cases; 0 for the others). */
static int host_element(PyObject *self, PyObject *key, PyObject **out)
{
    NgArray e;
    if (!host_address(self, key, &e))
        return 0;
    *out = ngpy_numpy_scalar(&e);
    return 1;
}

/* x[i, ...] = value written in place for host_address's cases and the values whose stored bits
 * are plain (a Python loop's `a[i] = a[i - 1] * 0.9 + b[i]`, `a[i] += 1.0`): a bool, an int or
 * NumPy integer the dtype holds (into a float dtype: up to 2**53), a float or NumPy float into
 * float64, or into float32 where it is not beyond float32's range. 1 when stored; 0 (nothing
 * done, no error) for the rest, which the general path takes with NumPy's conversions. */
static int host_store(PyObject *self, PyObject *key, PyObject *value)
{
    NgDType t = ARR(self)->dtype;
    bool is_bool = PyBool_Check(value) || PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_bool);
    bool is_int = !is_bool && (PyLong_CheckExact(value) || PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_integer));
    bool is_float = PyFloat_CheckExact(value) || PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_floating);
    if (!(is_bool || is_int || is_float) || t == NG_FLOAT16 || ng_dtype_is_complex(t) || (is_float && t != NG_FLOAT32 &&
                                                                                        t != NG_FLOAT64))
        return 0;
    NgArray e;
    if (!host_address(self, key, &e))
        return 0;
    void *p = ng_array_data(&e);
    if (is_float) {
        double d = PyFloat_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred())
            return -1;
        if (t == NG_FLOAT64)
            *(double *)p = d;
        else if (!isfinite(d) || fabs(d) <= FLT_MAX)
            *(float *)p = (float)d;
        else
            return 0; /* (NumPy's overflow to inf, with its warning) */
        return 1;
    }
    long long v;
    if (is_bool) {
        v = PyObject_IsTrue(value);
    } else {
        int overflow;
        PyObject *ix = PyLong_CheckExact(value) ? (Py_INCREF(value), value) : PyNumber_Index(value);
        v = ix ? PyLong_AsLongLongAndOverflow(ix, &overflow) : -1;
        Py_XDECREF(ix);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow)
            return 0;
    }
    switch (t) {
    case NG_BOOL: if (!is_bool) return 0; *(uint8_t *)p = (uint8_t)v; break;
    case NG_INT8: if (v < INT8_MIN || v > INT8_MAX) return 0; *(int8_t *)p = (int8_t)v; break;
    case NG_INT16: if (v < INT16_MIN || v > INT16_MAX) return 0; *(int16_t *)p = (int16_t)v; break;
    case NG_INT32: if (v < INT32_MIN || v > INT32_MAX) return 0; *(int32_t *)p = (int32_t)v; break;
    case NG_INT64: *(int64_t *)p = v; break;
    case NG_UINT8: if (v < 0 || v > UINT8_MAX) return 0; *(uint8_t *)p = (uint8_t)v; break;
    case NG_UINT16: if (v < 0 || v > UINT16_MAX) return 0; *(uint16_t *)p = (uint16_t)v; break;
    case NG_UINT32: if (v < 0 || v > UINT32_MAX) return 0; *(uint32_t *)p = (uint32_t)v; break;
    case NG_UINT64: if (v < 0) return 0; *(uint64_t *)p = (uint64_t)v; break;
    case NG_FLOAT32: if (v < -(1LL << 24) || v > (1LL << 24)) return 0; *(float *)p = (float)v; break;
    case NG_FLOAT64: if (v < -(1LL << 53) || v > (1LL << 53)) return 0; *(double *)p = (double)v; break;
    default: return 0;
    }
    return 1;
}

static PyObject *mp_subscript(PyObject *self, PyObject *key)
{
    PyObject *fast;
    if (host_element(self, key, &fast))
        return fast;
    NgIndex items[2 * NG_MAXDIMS];
    NgArray tmps[2 * NG_MAXDIMS];
    int n, ntmp;
    if (ngpy_index(key, &n, items, tmps, &ntmp) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_index_get(ARR(self), n, items, &out);
    for (int t = 0; t < ntmp; t++)
        ng_array_release(&tmps[t]);
    bool element = true, gather = false; /* every axis indexed by an integer: NumPy's scalar, a copy */
    for (int k = 0; k < n; k++) {
        element = element && items[k].kind == NG_IDX_INT;
        gather = gather || items[k].kind == NG_IDX_ARRAY || items[k].kind == NG_IDX_MASK;
    }
    return st != NG_OK ? ngpy_raise(st) : element && out.ndim == 0 ? element_of(&out, self)
         : ngpy_keep_subclass(gather ? ngpy_wrap_result(&out, true) : ngpy_wrap_from(&out, self), self, NULL);
}

/* A value to store into an array of dtype `to`: NumPy's ComplexWarning for
 * complex arrays into real ones; a Python float or complex into bool is its
 * truth value (NumPy stores bool(value); a complex into other real dtypes is a
 * TypeError, which the assignment itself raises); a Python float (and NumPy's
 * float scalar, into signed integers) into integers NumPy's int() of it.
 * -1 with an exception. */
static int store_value(PyObject *value, NgOperand *v, NgDType to)
{
    if (value && to == NG_BOOL && PyLong_Check(value) && !PyBool_Check(value)) { /* (2**70 too) */
        v->scalar = (NgScalar){.kind = NG_KIND_BOOL, .v.i = PyObject_IsTrue(value)};
        return 0;
    }
    if (value && ng_dtype_is_signed(to) && PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_integer)) {
        /* NumPy's integer scalar into signed integers: NumPy's int() of it, range checked (into
         * unsigned ones NumPy casts: np.int8(-1) stores 255) */
        int overflow;
        PyObject *ix = PyNumber_Index(value);
        long long i = ix ? PyLong_AsLongLongAndOverflow(ix, &overflow) : -1;
        Py_XDECREF(ix);
        if (i == -1 && PyErr_Occurred())
            return -1;
        int bits = ng_dtype_info(to)->itemsize * 8;
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
            return -1;
        }
        if (bits < 64 && (i < -(1LL << (bits - 1)) || i >= (1LL << (bits - 1)))) {
            PyErr_Format(PyExc_OverflowError, "Python integer %lld out of bounds for %s", i, ng_dtype_info(to)->name);
            return -1;
        }
    }
    if (v->array && v->array->ndim == 0 && ng_dtype_is_float(v->array->dtype) && ng_dtype_is_int(to) &&
        ng_dtype_is_signed(to) && PyObject_TypeCheck(value, (PyTypeObject *)ngpy.np_generic)) {
        /* NumPy's float scalar into signed integers: NumPy's int() of it too (NaN, infinity, out of
         * range); into unsigned ones NumPy casts (C's conversion, as numgpu's) */
        NgOperand f = {.scalar = {.kind = NG_KIND_FLOAT, .v.f = PyFloat_AsDouble(value)}};
        if (store_value(NULL, &f, to) < 0)
            return -1;
    }
    if (v->array)
        return ngpy_warn_complex_cast(v->array->dtype, to);
    if (to == NG_BOOL && v->scalar.kind == NG_KIND_FLOAT) { /* bool(value): NaN and 0.5 are True */
        v->scalar.v.i = v->scalar.v.f != 0;
        v->scalar.kind = NG_KIND_BOOL;
        return 0;
    }
    if (ng_dtype_is_int(to) && v->scalar.kind == NG_KIND_FLOAT && v->scalar.big) {
        /* a Python int beyond 64 bits (its double may round onto -2**63): C's conversion's error */
        PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
        return -1;
    }
    if (ng_dtype_is_int(to) && v->scalar.kind == NG_KIND_FLOAT) {
        /* a Python float into integers: NumPy's int() of it */
        double f = v->scalar.v.f;
        const char *name = ng_dtype_info(to)->name;
        if (isnan(f)) {
            PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
            return -1;
        }
        if (isinf(f)) {
            PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
            return -1;
        }
        int bits = ng_dtype_info(to)->itemsize * 8;
        double lo = ng_dtype_is_signed(to) ? -ldexp(1.0, bits - 1) : 0.0;
        double hi = ng_dtype_is_signed(to) ? ldexp(1.0, bits - 1) : ldexp(1.0, bits);
        double top = to == NG_UINT32 || to == NG_UINT64 ? 0x1p64 : 0x1p63;
        if (trunc(f) < -0x1p63 || trunc(f) >= top) { /* (NumPy's int() of it, then C's conversion) */
            PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
            return -1;
        }
        if (trunc(f) < lo || trunc(f) >= hi) {
            char digits[400]; /* (PyErr_Format has no %f) */
            snprintf(digits, sizeof digits, "%.0f", trunc(f));
            PyErr_Format(PyExc_OverflowError, "Python integer %s out of bounds for %s", digits, name);
            return -1;
        }
        double t = trunc(f); /* stored as the integer int() gives (1e19 into uint64 exactly) */
        v->scalar.kind = NG_KIND_INT;
        v->scalar.big = t >= 0x1p63;
        if (v->scalar.big)
            v->scalar.v.u = (uint64_t)t;
        else
            v->scalar.v.i = (int64_t)t;
    }
    /* (a Python int beyond the dtype, int8 = 300: the assignment's own OverflowError) */
    if (ngpy_scalar_cast_fpe(v, to) < 0)
        return -1;
    if (v->scalar.kind == NG_KIND_COMPLEX && to == NG_BOOL) {
        v->scalar.v.i = v->scalar.v.f != 0 || v->scalar.im != 0;
        v->scalar.kind = NG_KIND_BOOL;
        v->scalar.im = 0;
    }
    return 0;
}

static int store(PyObject *self, PyObject *key, PyObject *value);

/* value (strs, a list of them) made NumPy's array of dtype dt by NumPy's own conversion: a[0] =
 * "5" stores 5, a[0] = "abc" raises NumPy's ValueError. */
static PyObject *numpy_converted(PyObject *value, NgDType dt)
{
    PyObject *dtype = ngpy_dtype_object(dt);
    PyObject *r = dtype ? PyObject_CallMethod(ngpy.numpy, "array", "OO", value, dtype) : NULL;
    Py_XDECREF(dtype);
    return r;
}

static int mp_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (!value) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (ngpy_check_writeable(self, "assignment destination") < 0)
        return -1;
    int rc = host_store(self, key, value);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if ((PyList_Check(value) || PyTuple_Check(value)) && ng_dtype_is_int(ARR(self)->dtype)) {
        /* NumPy converts a sequence for the destination's dtype: a Python int beyond it is NumPy's
         * OverflowError (numgpu's int64 array of the list wrapped: b[:] = [-1, 256] stored 255, 0) */
        PyObject *v = numpy_converted(value, ARR(self)->dtype);
        rc = v ? store(self, key, v) : -1;
        Py_XDECREF(v);
        return rc;
    }
    rc = store(self, key, value);
    if (rc < 0 && !ngpy_check(value) && PyErr_ExceptionMatches(ngpy.UnsupportedDtypeError)) {
        PyErr_Clear();
        PyObject *v = numpy_converted(value, ARR(self)->dtype);
        rc = v ? store(self, key, v) : -1;
        Py_XDECREF(v);
    }
    return rc;
}

static int store(PyObject *self, PyObject *key, PyObject *value)
{
    NgIndex items[2 * NG_MAXDIMS];
    NgArray tmps[2 * NG_MAXDIMS];
    int n, ntmp;
    NgOperand v;
    NgArray tv;
    if (ngpy_operand(value, &v, &tv) < 0)
        return -1;
    if (store_value(value, &v, ARR(self)->dtype) < 0) {
        ng_array_release(&tv);
        return -1;
    }
    if (ngpy_index(key, &n, items, tmps, &ntmp) < 0) {
        ng_array_release(&tv);
        return -1;
    }
    NgStatus st = ngpy_fpe_begin(NULL) < 0 ? NG_ERR_INTERNAL : ng_index_set(ARR(self), n, items, &v);
    for (int t = 0; t < ntmp; t++)
        ng_array_release(&tmps[t]);
    ng_array_release(&tv);
    if (st != NG_OK) {
        ngpy_fpe_result(NULL);
        return PyErr_Occurred() ? -1 : (ngpy_raise(st), -1);
    }
    return ngpy_fpe_end();
}

static PyObject *sq_item(PyObject *self, Py_ssize_t i)
{
    if (ARR(self)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    if (i >= ARR(self)->shape[0]) {
        PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for axis 0 with size %lld", i,
                     (long long)ARR(self)->shape[0]);
        return NULL;
    }
    const NgArray *a = ARR(self);
    if (a->ndim == 1 && ng_device_host_visible(ng_array_device(a))) {
        NgArray e = *a; /* (iterating a 1-d array in host memory: the element read in place) */
        e.offset += (size_t)(i * a->strides[0]);
        return scalar_at(&e);
    }
    NgIndex it;
    memset(&it, 0, sizeof it);
    it.kind = NG_IDX_INT;
    it.i = i;
    NgArray out;
    NgStatus st = ng_index_get(ARR(self), 1, &it, &out);
    return st == NG_OK ? element_of(&out, self) : ngpy_raise(st);
}

/* iter(x): NumPy's TypeError for a 0-d array at once (libraries test iterability with iter()),
 * else the items along the first axis. */
static PyObject *tp_iter(PyObject *self)
{
    if (ARR(self)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    if (ARR(self)->ndim == 1 && !ng_device_host_visible(ng_array_device(ARR(self))) && ngpy.numpy_scalars &&
        !ngpy_called_by_numgpu()) {
        /* A GPU's 1-d array whose elements are NumPy's scalars (numgpu run: config(scalars="numpy")):
         * downloaded once, NumPy's iterator over the copy (`for p in prices`, `sum(x)`, `max(x)`:
         * a transfer per element made them 50-300x NumPy's time; the elements were copies already) */
        if (ngpy_implicit(false, self) < 0)
            return NULL;
        PyObject *host = ngpy_to_numpy(ARR(self));
        PyObject *it = host ? PyObject_GetIter(host) : NULL;
        Py_XDECREF(host);
        return it;
    }
    return PySeqIter_New(self);
}

/* ---- buffer protocol (host-visible devices: zero-copy NumPy views) ---- */

/* Whether the Python code running now (the frame that asked for the buffer: NumPy's asarray and
 * memoryview add none) is pandas' (its module pandas or pandas.*). */
static bool pandas_caller(void)
{
    static PyObject *dunder_name, *pandas;
    PyObject *globals = PyEval_GetGlobals(); /* borrowed; NULL without a Python frame */
    if (!globals)
        return false;
    if (!pandas && (!(dunder_name = PyUnicode_InternFromString("__name__")) ||
                    !(pandas = PyUnicode_InternFromString("pandas")))) {
        PyErr_Clear();
        return false;
    }
    PyObject *name = PyDict_GetItemWithError(globals, dunder_name); /* borrowed */
    if (!name || !PyUnicode_Check(name)) {
        PyErr_Clear();
        return false;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    return n >= 6 && PyUnicode_Tailmatch(name, pandas, 0, 6, -1) == 1 &&
           (n == 6 || PyUnicode_READ_CHAR(name, 6) == '.');
}

/* The buffer of x's memory, so that NumPy's asarray/array (which ask for it before __array__),
 * memoryview and file writes read it in place on a host-visible device (BufferError on a GPU).
 * Asked by pandas' code, the buffer of a new host copy instead: pandas copies np.ndarray data it is
 * given (pd.Series(x), pd.Index(x): new memory, as NumPy + pandas 3 give) but takes any other
 * array-like's np.asarray as memory of its own, which a view of x is not (writes through the Series
 * would change x, and x's writes an immutable Index). */
static int getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    NgArray *a = ARR(self);
    if ((flags & PyBUF_WRITABLE) && ((NgPyArray *)self)->readonly) {
        PyErr_SetString(PyExc_BufferError, "the numgpu array is read-only");
        return -1;
    }
    if (!ng_device_host_visible(ng_array_device(a))) {
        /* (a GPU's array: no buffer; NumPy's asarray then takes __array__, a download, and its
         * copy=False raises there: a buffer of a host copy would let writes be lost silently) */
        PyErr_Format(PyExc_BufferError, "array on device %s has no host memory; use .get()",
                     ng_device_name(ng_array_device(a)));
        return -1;
    }
    if (pandas_caller()) {
        PyObject *copy = ngpy_to_numpy(a);
        if (!copy)
            return -1;
        int rc = PyObject_GetBuffer(copy, view, flags); /* (view->obj holds the copy) */
        Py_DECREF(copy);
        return rc;
    }
    static char formats[NG_NTYPES][3]; /* PEP 3118: complex is 'Z' + the part's code */
    if (!formats[0][0])
        for (int t = 0; t < NG_NTYPES; t++) {
            bool c = ng_dtype_is_complex((NgDType)t);
            formats[t][0] = c ? 'Z' : ng_dtype_info((NgDType)t)->typechar;
            formats[t][1] = c ? ng_dtype_info(ng_dtype_real((NgDType)t))->typechar : 0;
        }
    /* the layout the request can take (PEP 3118, as NumPy's exporter): without strides only C order;
     * without ND no shape either (hashlib, file.write and bytearray ask for PyBUF_SIMPLE) */
    bool c = ng_array_is_c_contiguous(a), f = ng_array_is_f_contiguous(a);
    if ((!(flags & PyBUF_STRIDES) || (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS) && !c) {
        PyErr_SetString(PyExc_BufferError, "ndarray is not C-contiguous");
        return -1;
    }
    if (((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f) ||
        ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !f)) {
        PyErr_SetString(PyExc_BufferError, (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS
                                               ? "ndarray is not contiguous" : "ndarray is not Fortran contiguous");
        return -1;
    }
    view->buf = ng_array_data(a);
    view->obj = self;
    Py_INCREF(self);
    ((NgPyArray *)self)->exports++;
    view->len = (Py_ssize_t)a->size * ng_array_itemsize(a);
    view->readonly = ((NgPyArray *)self)->readonly;
    view->itemsize = ng_array_itemsize(a);
    view->format = (flags & PyBUF_FORMAT) ? formats[a->dtype] : NULL;
    view->ndim = (flags & PyBUF_ND) ? a->ndim : 0;
    view->shape = (flags & PyBUF_ND) ? (Py_ssize_t *)a->shape : NULL; /* int64_t and Py_ssize_t agree on 64-bit */
    view->strides = (flags & PyBUF_STRIDES) ? (Py_ssize_t *)a->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static void releasebuffer(PyObject *self, Py_buffer *view)
{
    ((NgPyArray *)self)->exports--;
}

/* ---- attributes ---- */

static PyObject *tuple_of(int n, const int64_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
    return t;
}

static PyObject *get_shape(PyObject *self, void *c) { return tuple_of(ARR(self)->ndim, ARR(self)->shape); }
static PyObject *get_strides(PyObject *self, void *c) { return tuple_of(ARR(self)->ndim, ARR(self)->strides); }
static PyObject *get_dtype(PyObject *self, void *c) { return ngpy_dtype_object(ARR(self)->dtype); }
/* x.dtype = d: x itself becomes x.view(d), as NumPy's assignment (its rules: a dtype of another
 * itemsize regroups the bytes of a contiguous last axis); a dtype with no device arrays is a TypeError. */
static int set_dtype(PyObject *self, PyObject *value, void *c)
{
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "Cannot delete array dtype");
        return -1;
    }
    PyObject *v = PyObject_CallMethod(self, "view", "(O)", value);
    if (!v)
        return -1;
    if (!PyObject_TypeCheck(v, ngpy.ndarray_type) || ARR(v)->buf != ARR(self)->buf) {
        PyErr_Format(PyExc_TypeError, "numgpu: an array cannot take dtype %R in place (no device arrays of it); "
                     "use x.view(dtype), a NumPy array on the host", value);
        Py_DECREF(v);
        return -1;
    }
    NgArray nv;
    ng_array_view(ARR(v), &nv);
    Py_DECREF(v);
    ng_array_release(ARR(self));
    *ARR(self) = nv;
    return 0;
}

static PyObject *get_ndim(PyObject *self, void *c) { return PyLong_FromLong(ARR(self)->ndim); }
static PyObject *get_size(PyObject *self, void *c) { return PyLong_FromLongLong(ARR(self)->size); }
static PyObject *get_itemsize(PyObject *self, void *c) { return PyLong_FromLong(ng_array_itemsize(ARR(self))); }
static PyObject *get_nbytes(PyObject *self, void *c)
{
    return PyLong_FromLongLong(ARR(self)->size * ng_array_itemsize(ARR(self)));
}
static PyObject *get_device_attr(PyObject *self, void *c)
{
    return PyUnicode_FromString(ng_device_name(ng_array_device(ARR(self))));
}

static PyObject *transpose_of(PyObject *self, const int *perm)
{
    NgArray out;
    NgStatus st = ng_op_transpose(ARR(self), perm, &out);
    return st == NG_OK ? ngpy_wrap_from(&out, self) : ngpy_raise(st);
}

static PyObject *get_T(PyObject *self, void *c) { return transpose_of(self, NULL); }

/* a.real / a.imag: views of a complex array's parts; of a real array, a
 * itself and (imag) a new array of zeros, as NumPy. */
static PyObject *get_part(PyObject *self, void *imag)
{
    NgArray out;
    if (!ng_dtype_is_complex(ARR(self)->dtype)) {
        if (!imag) {
            Py_INCREF(self);
            return self;
        }
        NgScalar zero = {.kind = NG_KIND_INT};
        NgStatus st = ng_op_full(ng_array_device(ARR(self)), ARR(self)->dtype, ARR(self)->ndim, ARR(self)->shape,
                                 &zero, &out);
        return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
    }
    ng_array_part(ARR(self), imag != NULL, &out);
    return ngpy_wrap_from(&out, self);
}

static int set_part(PyObject *self, PyObject *value, void *imag)
{
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete array part");
        return -1;
    }
    if (ngpy_check_writeable(self, "assignment destination") < 0)
        return -1;
    if (!ng_dtype_is_complex(ARR(self)->dtype)) {
        if (imag) {
            PyErr_SetString(PyExc_TypeError, "array does not have imaginary part to set");
            return -1;
        }
        return mp_ass_subscript(self, Py_Ellipsis, value);
    }
    PyObject *part = get_part(self, imag);
    if (!part)
        return -1;
    int rc = mp_ass_subscript(part, Py_Ellipsis, value);
    Py_DECREF(part);
    return rc;
}

static int set_shape(PyObject *self, PyObject *value, void *c)
{
    int nd;
    int64_t shape[NG_MAXDIMS];
    if (!value || ngpy_shape(value, &nd, shape) < 0)
        return -1;
    NgArray out;
    NgStatus st = ng_op_reshape(ARR(self), nd, shape, &out);
    if (st != NG_OK)
        return (ngpy_raise(st), -1);
    if (out.buf != ARR(self)->buf) {
        ng_array_release(&out);
        PyErr_SetString(PyExc_AttributeError, "Incompatible shape for in-place modification. Use `.reshape()` "
                        "to make a copy with the desired shape.");
        return -1;
    }
    ng_array_release(ARR(self));
    *ARR(self) = out;
    return 0;
}

/* x._scalar: a 0-d result standing for NumPy's scalar (NgPyArray.scalar). */
static PyObject *get_scalar_flag(PyObject *self, void *c)
{
    return PyBool_FromLong(((NgPyArray *)self)->scalar);
}

static int set_scalar_flag(PyObject *self, PyObject *value, void *c)
{
    int on = value ? PyObject_IsTrue(value) : 0;
    if (on < 0)
        return -1;
    ((NgPyArray *)self)->scalar = on && ARR(self)->ndim == 0;
    return 0;
}

/* x._buffer_refs: how many arrays hold x's buffer, and how many NumPy arrays (on cpu) its memory. */
static PyObject *get_buffer_refs(PyObject *self, void *c)
{
    return Py_BuildValue("(Ln)", (long long)ARR(self)->buf->refcount, ((NgPyArray *)self)->exports);
}

/* x.base: the array whose memory x views (the one that owns it), or None. */
static PyObject *get_base(PyObject *self, void *c)
{
    PyObject *b = ((NgPyArray *)self)->base;
    return Py_NewRef(b ? b : Py_None);
}

/* x._memory: (the buffer's identity, the byte offset of element 0 in it): shares_memory's
 * question asked of two arrays of one buffer (views of different buffers never overlap). */
static PyObject *get_memory(PyObject *self, void *c)
{
    return Py_BuildValue("(NL)", PyLong_FromVoidPtr(ARR(self)->buf), (long long)ARR(self)->offset);
}

static PyGetSetDef getset[] = {
    {"_memory", get_memory, NULL, "(buffer identity, byte offset of element 0): shares_memory's input.", NULL},
    {"_scalar", get_scalar_flag, set_scalar_flag, "A 0-d result standing for NumPy's scalar (in-place operators rebind).",
     NULL},
    {"_buffer_refs", get_buffer_refs, NULL,
     "(arrays holding the buffer, NumPy arrays viewing its memory): ndarray.resize's refcheck.", NULL},
    {"base", get_base, NULL, "The array whose memory this one views (None: its own memory).", NULL},
    {"shape", get_shape, set_shape, "Tuple of array dimensions.", NULL},
    {"strides", get_strides, NULL, "Tuple of bytes to step in each dimension.", NULL},
    {"dtype", get_dtype, set_dtype, "Data type of the elements (a numpy.dtype); assigning one views the "
                                    "memory as it in place, as NumPy's.", NULL},
    {"ndim", get_ndim, NULL, "Number of dimensions.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "Bytes of all elements.", NULL},
    {"device", get_device_attr, NULL, "Name of the device holding the data.", NULL},
    {"T", get_T, NULL, "The transposed array (a view).", NULL},
    {"real", get_part, set_part, "The real part (a view for complex arrays).", NULL},
    {"imag", get_part, set_part, "The imaginary part (a view for complex arrays; zeros otherwise).", (void *)1},
    {NULL},
};

/* ---- methods ---- */

static PyObject *m_get(PyObject *self, PyObject *unused) { return ngpy_to_numpy(ARR(self)); }

static PyObject *m_array(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:__array__", kwlist, &dtype, &copy))
        return NULL;
    PyObject *res;
    bool host = ng_device_host_visible(ng_array_device(ARR(self)));
    if (copy == Py_False && !host) { /* (NumPy 2's protocol: no copy asked, one needed) */
        PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an array as requested: the array is "
                                          "in a GPU's memory (x.get() copies it to the host)");
        return NULL;
    }
    if (!host && ngpy_implicit(false, self) < 0)
        return NULL;
    if (host && copy != Py_True) {
        PyObject *mv = PyMemoryView_FromObject(self);
        if (!mv)
            return NULL;
        res = PyObject_CallOneArg(ngpy.np_asarray, mv);
        Py_DECREF(mv);
    } else {
        res = ngpy_to_numpy(ARR(self));
    }
    if (res && dtype != Py_None) { /* (a cast where the dtype differs; copy=False allows none) */
        PyObject *want = PyObject_CallMethod(ngpy.numpy, "dtype", "(O)", dtype);
        PyObject *have = want ? PyObject_GetAttrString(res, "dtype") : NULL;
        int same = have ? PyObject_RichCompareBool(want, have, Py_EQ) : -1;
        Py_XDECREF(have);
        PyObject *cast = NULL;
        if (same == 0 && copy == Py_False)
            PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an array as requested: a cast "
                                              "to another dtype");
        else if (same == 0)
            cast = PyObject_CallMethod(res, "astype", "(O)", want);
        else if (same == 1)
            cast = Py_NewRef(res);
        Py_XDECREF(want);
        Py_DECREF(res);
        res = cast;
    }
    return res;
}

static PyObject *m_astype(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "order", "casting", "subok", "copy", NULL};
    PyObject *dtype, *order = Py_None, *casting = Py_None, *subok = Py_None;
    int copy = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOp:astype", kwlist, &dtype, &order, &casting, &subok, &copy))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    if (!copy && dt == ARR(self)->dtype) {
        Py_INCREF(self);
        return self;
    }
    if (ngpy_warn_complex_cast(ARR(self)->dtype, dt) < 0)
        return NULL;
    NgArray out;
    if (ngpy_fpe_begin(NULL) < 0)
        return NULL;
    NgStatus st = ng_op_astype(ARR(self), dt, &out);
    return ngpy_fpe_result(st == NG_OK ? ngpy_wrap_result(&out, ((NgPyArray *)self)->scalar) : ngpy_raise(st));
}

/* True if t is numpy.ndarray or a subclass (x.view(np.matrix) names a type, not a dtype). */
static int is_array_type(PyObject *t)
{
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *nd = np ? PyObject_GetAttrString(np, "ndarray") : NULL;
    int r = nd ? PyObject_IsSubclass(t, nd) == 1 : 0;
    Py_XDECREF(nd);
    Py_XDECREF(np);
    PyErr_Clear();
    return r;
}

/* A Python subclass of numgpu.ndarray whose instances view(type) makes (NULL for numgpu.ndarray
 * and for numgpu run's stand-in for numpy.ndarray, whose views are numgpu arrays). */
static PyTypeObject *array_subclass(PyObject *t)
{
    if (!PyType_Check(t) || t == (PyObject *)ngpy.ndarray_type || !PyType_IsSubtype((PyTypeObject *)t, ngpy.ndarray_type))
        return NULL;
    PyObject *own = PyObject_GetAttrString(t, "__dict__"); /* (its own namespace, not its bases') */
    int standin = own ? PyMapping_HasKeyString(own, "_numgpu_standin") : 0;
    Py_XDECREF(own);
    PyErr_Clear();
    return standin ? NULL : (PyTypeObject *)t;
}

/* A view of self as a subclass: an instance of it, then its __array_finalize__(parent), as NumPy's. */
static PyObject *finalized(NgArray *out, PyObject *self, PyTypeObject *sub, PyObject *parent)
{
    bool readonly = ((NgPyArray *)self)->readonly;
    PyObject *o = ngpy_wrap_type(out, sub);
    if (!o)
        return NULL;
    ((NgPyArray *)o)->readonly = readonly;
    PyObject *r = PyObject_CallMethod(o, "__array_finalize__", "O", parent);
    if (!r)
        Py_CLEAR(o);
    Py_XDECREF(r);
    return o;
}

/* view(dtype=None, type=None): the same memory, as another dtype (NumPy's rules), or as a Python
 * subclass of numgpu.ndarray (an instance of it, finalized as NumPy's); another `type` (np.matrix
 * ...) is NumPy's business: NotImplementedError sends it to the fallback. */
static PyObject *m_view(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "type", NULL};
    PyObject *dtype = Py_None, *type = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:view", kwlist, &dtype, &type))
        return NULL;
    if (type == Py_None && PyType_Check(dtype) && PyType_IsSubtype((PyTypeObject *)dtype, ngpy.ndarray_type)) {
        type = dtype; /* (x.view(C): C is the type, as NumPy reads it) */
        dtype = Py_None;
    }
    PyTypeObject *sub = type != Py_None ? array_subclass(type) : NULL;
    bool ours = type == Py_None || sub || (PyType_Check(type) && PyType_IsSubtype((PyTypeObject *)type, ngpy.ndarray_type));
    if (!ours || (dtype != Py_None && PyType_Check(dtype) && is_array_type(dtype)))
        return PyErr_Format(PyExc_NotImplementedError, "view as another array type");
    NgDType dt = ARR(self)->dtype;
    if (dtype != Py_None && ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_array_view_as(ARR(self), dt, &out);
    if (st != NG_OK)
        return ngpy_raise(st);
    return sub ? finalized(&out, self, sub, self) : ngpy_wrap_from(&out, self);
}

PyObject *ngpy_subclass_view(PyObject *x, PyObject *cls, PyObject *parent)
{
    PyTypeObject *sub = array_subclass(cls);
    if (!ngpy_check(x) || !sub)
        return PyErr_Format(PyExc_TypeError, "subclass_view takes a numgpu array and a Python subclass of numgpu.ndarray");
    NgArray out;
    NgStatus st = ng_array_view_as(ARR(x), ARR(x)->dtype, &out);
    return st == NG_OK ? finalized(&out, x, sub, parent) : ngpy_raise(st);
}

/* (copies and casts of a scalar-standing value are scalars, of a 0-d array arrays, as NumPy's) */
static PyObject *m_copy(PyObject *self, PyObject *args, PyObject *kw)
{
    NgArray out;
    NgStatus st = ng_op_astype(ARR(self), ARR(self)->dtype, &out);
    return st == NG_OK ? ngpy_wrap_result(&out, ((NgPyArray *)self)->scalar) : ngpy_raise(st);
}

/* Shape from either reshape(2, 3) or reshape((2, 3)). */
static int shape_args(PyObject *args, int *nd, int64_t *shape)
{
    if (PyTuple_GET_SIZE(args) == 1)
        return ngpy_shape(PyTuple_GET_ITEM(args, 0), nd, shape);
    return ngpy_shape(args, nd, shape);
}

/* NumPy's order= of reshape, ravel and flatten for array a: true for 'F' (Fortran's index
 * order), false for 'C'; 'A' and 'K' are 'F' where a is Fortran-contiguous and not
 * C-contiguous; 'K' of another layout is memory order where the strides all fall or all rise
 * (of other layouts not supported). -1 with an exception. */
static int fortran_order(PyObject *order, const NgArray *a)
{
    if (!order || order == Py_None)
        return 0;
    const char *o = PyUnicode_Check(order) ? PyUnicode_AsUTF8(order) : NULL;
    if (!o || strlen(o) != 1 || !strchr("CFAKcfak", o[0])) {
        PyErr_SetString(PyExc_ValueError, "order must be one of 'C', 'F', 'A', or 'K'");
        return -1;
    }
    char c = (char)(o[0] & ~0x20);
    if (c == 'C' || c == 'F')
        return c == 'F';
    bool f = ng_array_is_f_contiguous(a) && !ng_array_is_c_contiguous(a);
    if (c == 'A' || f || ng_array_is_c_contiguous(a))
        return f;
    /* 'K' of another layout: memory order where the strides fall (C) or rise (F) */
    bool falls = true, rises = true;
    for (int d = 1; d < a->ndim; d++) {
        if (a->shape[d] == 1 || a->shape[d - 1] == 1)
            continue;
        falls = falls && a->strides[d - 1] >= a->strides[d] && a->strides[d] > 0;
        rises = rises && a->strides[d - 1] <= a->strides[d] && a->strides[d - 1] > 0;
    }
    if (!falls && !rises) {
        PyErr_SetString(PyExc_NotImplementedError, "order='K' of an array whose strides neither fall nor rise");
        return -1;
    }
    return !falls;
}

/* a reshaped to (nd, shape) reading and writing elements in Fortran's order (the axes reversed,
 * a C-order reshape to the reversed shape, the axes reversed back); copy: always a new array. */
static NgStatus reshape_in_order(const NgArray *a, int nd, const int64_t *shape, bool fortran, bool copy,
                                 NgArray *out)
{
    NgArray src, tmp, res;
    NgStatus st = NG_OK;
    if (fortran)
        st = ng_op_transpose(a, NULL, &src);
    else
        ng_array_view(a, &src);
    if (st != NG_OK)
        return st;
    if (copy) {
        st = ng_op_ascontiguous(&src, true, &tmp);
        ng_array_release(&src);
        if (st != NG_OK)
            return st;
        src = tmp;
    }
    int64_t rev[NG_MAXDIMS];
    for (int d = 0; d < nd; d++)
        rev[d] = shape[fortran ? nd - 1 - d : d];
    st = ng_op_reshape(&src, nd, rev, &res);
    ng_array_release(&src);
    if (st != NG_OK || !fortran) {
        *out = res;
        return st;
    }
    st = ng_op_transpose(&res, NULL, out);
    ng_array_release(&res);
    return st;
}

static PyObject *m_reshape(PyObject *self, PyObject *args, PyObject *kw)
{
    int nd;
    int64_t shape[NG_MAXDIMS];
    PyObject *order = NULL, *copy = NULL;
    if (kw && PyDict_Size(kw) > 0) {
        order = PyDict_GetItemString(kw, "order");
        copy = PyDict_GetItemString(kw, "copy");
        if (PyDict_Size(kw) > (order != NULL) + (copy != NULL)) {
            PyErr_SetString(PyExc_TypeError, "reshape() takes only the keyword arguments 'order' and 'copy'");
            return NULL;
        }
    }
    if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError, "reshape() takes exactly 1 argument (0 given)");
        return NULL;
    }
    if (copy) { /* NumPy 2.1's copy=: numgpu.reshape's rule (False: a view or NumPy's ValueError) */
        PyObject *mod = PyImport_ImportModule("numgpu");
        PyObject *f = mod ? PyObject_GetAttrString(mod, "reshape") : NULL;
        PyObject *shape_o = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
        PyObject *call = f ? PyTuple_Pack(2, self, shape_o) : NULL;
        PyObject *r = call ? PyObject_Call(f, call, kw) : NULL;
        Py_XDECREF(call);
        Py_XDECREF(f);
        Py_XDECREF(mod);
        return r;
    }
    if (order && PyUnicode_Check(order) && (PyUnicode_CompareWithASCIIString(order, "K") == 0 ||
                                            PyUnicode_CompareWithASCIIString(order, "k") == 0)) {
        PyErr_SetString(PyExc_ValueError, "order 'K' is not permitted for reshaping");
        return NULL;
    }
    int f = fortran_order(order, ARR(self));
    if (f < 0 || shape_args(args, &nd, shape) < 0)
        return NULL;
    NgArray out;
    NgStatus st = reshape_in_order(ARR(self), nd, shape, f, false, &out);
    return st == NG_OK ? ngpy_wrap_from(&out, self) : ngpy_raise(st);
}

/* ravel / flatten (copy): the elements in `order`, 1-d. */
static PyObject *one_axis(PyObject *self, PyObject *args, PyObject *kw, bool copy)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, copy ? "|O:flatten" : "|O:ravel", kwlist, &order))
        return NULL;
    int f = fortran_order(order, ARR(self));
    if (f < 0)
        return NULL;
    /* NumPy's ravel is a view of an array contiguous in that order only (reshape(-1) may be more) */
    copy = copy || !(f ? ng_array_is_f_contiguous(ARR(self)) : ng_array_is_c_contiguous(ARR(self)));
    int64_t n = -1;
    NgArray out;
    NgStatus st = reshape_in_order(ARR(self), 1, &n, f, copy, &out);
    return st == NG_OK ? ngpy_wrap_from(&out, self) : ngpy_raise(st);
}

static PyObject *m_ravel(PyObject *self, PyObject *args, PyObject *kw) { return one_axis(self, args, kw, false); }

static PyObject *m_flatten(PyObject *self, PyObject *args, PyObject *kw) { return one_axis(self, args, kw, true); }

static PyObject *m_transpose(PyObject *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0 || (n == 1 && PyTuple_GET_ITEM(args, 0) == Py_None))
        return transpose_of(self, NULL);
    int nd, perm[NG_MAXDIMS];
    if (ngpy_axes(n == 1 ? PyTuple_GET_ITEM(args, 0) : args, &nd, perm) < 0)
        return NULL;
    if (nd != ARR(self)->ndim) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    return transpose_of(self, perm);
}

/* out= of a reduction: result r (released here) written into numgpu array out_arg, which must
 * have r's shape (cast as assignment casts, NumPy's unsafe cast); out_arg, a new reference. */
static PyObject *into_out(PyObject *out_arg, NgArray *r)
{
    const NgArray *o = ngpy_arr(out_arg);
    NgStatus st = NG_OK;
    bool same = o->ndim == r->ndim;
    for (int d = 0; same && d < o->ndim; d++)
        same = o->shape[d] == r->shape[d];
    if (!same) {
        ng_array_release(r);
        PyErr_SetString(PyExc_ValueError, "output array does not have the reduction's shape");
        return NULL;
    }
    NgOperand src = {r, {0}};
    st = ng_op_assign(o, &src);
    ng_array_release(r);
    if (st != NG_OK)
        return ngpy_raise(st);
    Py_INCREF(out_arg);
    return out_arg;
}

/* A reduction method's call the parser below takes: at most the axis by position and keywords
 * among its own. Any other (initial=, where=, NumPy's positional out of max/min/argmax/any/all,
 * ddof by position) goes to numgpu's function of the name, NumPy's signature for the method. */
static bool plain_reduce_call(PyObject *args, PyObject *kw, NgReduceOp op)
{
    if (PyTuple_GET_SIZE(args) > 1)
        return false;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (kw && PyDict_Next(kw, &pos, &key, &value)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!k)
            PyErr_Clear(); /* (not UTF-8: the function's own error names it) */
        if (!k || (strcmp(k, "axis") && strcmp(k, "dtype") && strcmp(k, "out") && strcmp(k, "keepdims") &&
                   (strcmp(k, "ddof") || (op != NG_RED_VAR && op != NG_RED_STD))))
            return false;
    }
    return true;
}

static PyObject *reduce_by_function(PyObject *self, PyObject *args, PyObject *kw, NgReduceOp op)
{
    static const char *const names[] = {
        [NG_RED_SUM] = "sum", [NG_RED_PROD] = "prod", [NG_RED_MEAN] = "mean", [NG_RED_VAR] = "var",
        [NG_RED_STD] = "std", [NG_RED_MIN] = "min", [NG_RED_MAX] = "max", [NG_RED_ARGMIN] = "argmin",
        [NG_RED_ARGMAX] = "argmax", [NG_RED_ANY] = "any", [NG_RED_ALL] = "all",
    };
    PyObject *mod = PyImport_ImportModule("numgpu");
    PyObject *f = mod ? PyObject_GetAttrString(mod, names[op]) : NULL;
    Py_XDECREF(mod);
    PyObject *full = f ? PyTuple_New(PyTuple_GET_SIZE(args) + 1) : NULL;
    PyObject *r = NULL;
    if (full) {
        Py_INCREF(self);
        PyTuple_SET_ITEM(full, 0, self);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
            Py_INCREF(PyTuple_GET_ITEM(args, i));
            PyTuple_SET_ITEM(full, i + 1, PyTuple_GET_ITEM(args, i));
        }
        r = PyObject_Call(f, full, kw);
        Py_DECREF(full);
    }
    Py_XDECREF(f);
    return r;
}

/* Reductions: one parser for all of them. */
static PyObject *reduce_method(PyObject *self, PyObject *args, PyObject *kw, NgReduceOp op)
{
    static char *kwlist[] = {"axis", "dtype", "out", "keepdims", "ddof", NULL};
    if (!plain_reduce_call(args, kw, op))
        return reduce_by_function(self, args, kw, op);
    PyObject *axis = Py_None, *dtype = Py_None, *out_arg = Py_None;
    int keepdims = 0, ddof = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOpi", kwlist, &axis, &dtype, &out_arg, &keepdims, &ddof))
        return NULL;
    if (out_arg != Py_None && !ngpy_check(out_arg)) { /* (a tuple too, as NumPy's methods) */
        PyErr_SetString(PyExc_TypeError, "out= must be a numgpu.ndarray");
        return NULL;
    }
    int naxes, axes[NG_MAXDIMS];
    NgDType dt;
    if (ngpy_axes(axis, &naxes, axes) < 0 || ngpy_dtype(dtype, &dt) < 0 ||
        ngpy_reduce_warn(op, ARR(self), naxes, axes, ddof) < 0)
        return NULL;
    NgArray out;
    NgStatus st = ng_op_reduce(op, ARR(self), naxes, axes, keepdims, dt, ddof, &out);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (ngpy_reduce_fpe(op, ARR(self), &out, ddof) < 0) {
        ng_array_release(&out);
        return NULL;
    }
    if (out_arg == Py_None)
        return ngpy_wrap_result(&out, true);
    return into_out(out_arg, &out);
}

#define REDUCE(name, OP) \
    static PyObject *m_##name(PyObject *self, PyObject *args, PyObject *kw) { return reduce_method(self, args, kw, OP); }
REDUCE(sum, NG_RED_SUM)
REDUCE(prod, NG_RED_PROD)
REDUCE(mean, NG_RED_MEAN)
REDUCE(var, NG_RED_VAR)
REDUCE(std, NG_RED_STD)
REDUCE(min, NG_RED_MIN)
REDUCE(max, NG_RED_MAX)
REDUCE(argmin, NG_RED_ARGMIN)
REDUCE(argmax, NG_RED_ARGMAX)
REDUCE(any, NG_RED_ANY)
REDUCE(all, NG_RED_ALL)

static PyObject *m_tolist(PyObject *self, PyObject *unused) { return ngpy_tolist(ARR(self)); }

static PyObject *m_item(PyObject *self, PyObject *args)
{
    if (PyTuple_GET_SIZE(args) == 0) {
        if (ARR(self)->size != 1) {
            PyErr_SetString(PyExc_ValueError, "can only convert an array of size 1 to a Python scalar");
            return NULL;
        }
        return scalar_item(self);
    }
    PyObject *key = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    PyObject *v;
    if (PyTuple_GET_SIZE(args) == 1 && PyIndex_Check(key) && ARR(self)->ndim != 1) {
        /* one integer: an index into the flattened array */
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        if (i < -ARR(self)->size || i >= ARR(self)->size) {
            PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for size %lld", i, (long long)ARR(self)->size);
            return NULL;
        }
        int64_t minus1 = -1;
        NgArray flat;
        NgStatus st = ng_op_reshape(ARR(self), 1, &minus1, &flat);
        if (st != NG_OK)
            return ngpy_raise(st);
        PyObject *fo = ngpy_wrap_from(&flat, self);
        if (!fo)
            return NULL;
        v = sq_item(fo, i < 0 ? i + ARR(self)->size : i);
        Py_DECREF(fo);
    } else {
        v = mp_subscript(self, key);
    }
    if (!v)
        return NULL;
    PyObject *r = ngpy_check(v) ? scalar_item(v) : PyObject_CallMethod(v, "item", NULL); /* (NumPy's scalar on cpu) */
    Py_DECREF(v);
    return r;
}

static PyObject *m_fill(PyObject *self, PyObject *value)
{
    if (ngpy_check_writeable(self, "assignment destination") < 0)
        return NULL;
    NgOperand v;
    NgArray tv;
    if (ngpy_operand(value, &v, &tv) < 0)
        return NULL;
    if (store_value(value, &v, ARR(self)->dtype) < 0) {
        ng_array_release(&tv);
        return NULL;
    }
    NgStatus st = ngpy_fpe_begin(NULL) < 0 ? NG_ERR_INTERNAL : ng_op_assign(ARR(self), &v);
    ng_array_release(&tv);
    if (st != NG_OK)
        return ngpy_fpe_result(NULL), PyErr_Occurred() ? NULL : ngpy_raise(st);
    Py_INCREF(Py_None);
    return ngpy_fpe_result(Py_None);
}

static PyObject *m_repr_like(PyObject *self, bool repr)
{
    PyObject *np = ngpy_to_numpy(ARR(self));
    if (!np)
        return NULL;
    PyObject *r = repr ? PyObject_Repr(np) : PyObject_Str(np);
    Py_DECREF(np);
    return r;
}

static PyObject *array_repr(PyObject *self) { return m_repr_like(self, true); }
static PyObject *array_str(PyObject *self) { return m_repr_like(self, false); }

static PyObject *m_dot(PyObject *self, PyObject *other) { return nb_matmul(self, other); }

static PyObject *m_to(PyObject *self, PyObject *spec)
{
    const char *s = PyUnicode_AsUTF8(spec);
    if (!s)
        return NULL;
    NgDevice *dev;
    NgStatus st = ng_device_open(s, &dev);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (dev == ng_array_device(ARR(self))) {
        Py_INCREF(self);
        return self;
    }
    NgArray out;
    st = ng_op_to_device(ARR(self), dev, &out);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

static PyObject *m_swapaxes(PyObject *self, PyObject *args)
{
    int a1, a2;
    if (!PyArg_ParseTuple(args, "ii:swapaxes", &a1, &a2))
        return NULL;
    int nd = ARR(self)->ndim;
    for (int k = 0; k < 2; k++) { /* NumPy's AxisError names the argument */
        int *ax = k ? &a2 : &a1;
        if (*ax < -nd || *ax >= nd) {
            PyObject *e = ngpy.AxisError ? PyObject_CallFunction(ngpy.AxisError, "iis", *ax, nd, k ? "axis2" : "axis1")
                                         : NULL;
            if (e) {
                PyErr_SetObject((PyObject *)Py_TYPE(e), e);
                Py_DECREF(e);
            }
            return NULL;
        }
        *ax += *ax < 0 ? nd : 0;
    }
    int perm[NG_MAXDIMS];
    for (int d = 0; d < nd; d++)
        perm[d] = d;
    perm[a1] = a2;
    perm[a2] = a1;
    return transpose_of(self, perm);
}

/* x._own(): x, a view of a temporary nothing else holds (the C-ordered array an F-ordered one is
 * made as the transpose of), owns its memory instead: x.base None, as NumPy's F-ordered arrays. */
void ngpy_own(NgPyArray *o)
{
    if (o->base && Py_REFCNT(o->base) == 1) {
        o->arr.buf->owner = o;
        Py_CLEAR(o->base);
    }
}

static PyObject *m_own(PyObject *self, PyObject *unused)
{
    ngpy_own((NgPyArray *)self);
    return Py_NewRef(self);
}

/* x._numpy_scalar(): NumPy's scalar of the 0-d array x (read in place on cpu, downloaded from a
 * GPU): what config(scalars="numpy") gives the program. */
/* x._writeable() is NumPy's flags.writeable; x._writeable(flag) sets it, as NumPy: any array may be
 * made read-only, and writeable again unless it views the memory of a read-only array (x.base). */
static PyObject *m_writeable(PyObject *self, PyObject *args)
{
    int flag = -1;
    if (!PyArg_ParseTuple(args, "|p:_writeable", &flag))
        return NULL;
    NgPyArray *o = (NgPyArray *)self;
    if (flag < 0)
        return PyBool_FromLong(!o->readonly);
    if (flag && o->readonly && o->base && ngpy_check(o->base) && ((NgPyArray *)o->base)->readonly) {
        PyErr_SetString(PyExc_ValueError, "cannot set WRITEABLE flag to True of this array");
        return NULL;
    }
    o->readonly = !flag;
    Py_RETURN_NONE;
}

static PyObject *m_numpy_scalar(PyObject *self, PyObject *unused)
{
    if (ARR(self)->ndim != 0)
        return PyErr_Format(PyExc_ValueError, "_numpy_scalar of a %d-d array", ARR(self)->ndim);
    return ngpy_numpy_scalar(ARR(self));
}

/* x._become(y): x takes y's data, dtype and shape (ndarray.resize in place); arrays sharing x's old
 * buffer keep it. */
static PyObject *m_become(PyObject *self, PyObject *other)
{
    if (!ngpy_check(other)) {
        PyErr_SetString(PyExc_TypeError, "_become takes a numgpu.ndarray");
        return NULL;
    }
    if (ngpy_check_writeable(self, "array") < 0)
        return NULL;
    if (((NgPyArray *)self)->exports > 0) {
        PyErr_SetString(PyExc_ValueError, "cannot resize an array that references or is referenced by another "
                        "array in this way (a NumPy array made from it). Use the np.resize function.");
        return NULL;
    }
    NgArray keep = *ARR(other);
    ng_buffer_retain(keep.buf);
    if (keep.buf->owner == other && !((NgPyArray *)other)->base)
        keep.buf->owner = NULL; /* (y, a fresh result: x owns its memory now, as after NumPy's resize) */
    ngpy_become((NgPyArray *)self, &keep);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_become", m_become, METH_O, "Take another array's data, dtype and shape (resize in place)."},
    {"_own", m_own, METH_NOARGS, "Own the memory of a temporary only this view holds (returns self)."},
    {"_numpy_scalar", m_numpy_scalar, METH_NOARGS, "NumPy's scalar of a 0-d array."},
    {"_writeable", m_writeable, METH_VARARGS, "_writeable([flag]): NumPy's flags.writeable, read or set."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "ndarray[shape, dtype] in type hints, as NumPy's."},
    {"get", m_get, METH_NOARGS, "Copy to the host as a numpy.ndarray."},
    {"__array__", (PyCFunction)(void (*)(void))m_array, METH_VARARGS | METH_KEYWORDS, "NumPy conversion."},
    /* (what libraries that take pandas' and xarray's objects ask for: matplotlib's hist and boxplot
     * take a 2-d array's columns as datasets through it, where they took its rows as lists) */
    {"to_numpy", (PyCFunction)(void (*)(void))m_array, METH_VARARGS | METH_KEYWORDS,
     "to_numpy(dtype=None, copy=None): NumPy's array of it (a view of a cpu array's memory, a copy from a GPU)."},
    {"astype", (PyCFunction)(void (*)(void))m_astype, METH_VARARGS | METH_KEYWORDS, "Copy converted to dtype."},
    {"copy", (PyCFunction)(void (*)(void))m_copy, METH_VARARGS | METH_KEYWORDS, "A copy in C order."},
    {"view", (PyCFunction)(void (*)(void))m_view, METH_VARARGS | METH_KEYWORDS, "The same memory as another dtype."},
    {"reshape", (PyCFunction)(void (*)(void))m_reshape, METH_VARARGS | METH_KEYWORDS, "Same data, new shape."},
    {"ravel", (PyCFunction)(void (*)(void))m_ravel, METH_VARARGS | METH_KEYWORDS, "1-d view (or copy); order="},
    {"flatten", (PyCFunction)(void (*)(void))m_flatten, METH_VARARGS | METH_KEYWORDS, "1-d copy; order="},
    {"transpose", m_transpose, METH_VARARGS, "Axes permuted (a view)."},
    {"swapaxes", m_swapaxes, METH_VARARGS, "Two axes exchanged (a view)."},
    {"sum", (PyCFunction)(void (*)(void))m_sum, METH_VARARGS | METH_KEYWORDS, "Sum over axes."},
    {"prod", (PyCFunction)(void (*)(void))m_prod, METH_VARARGS | METH_KEYWORDS, "Product over axes."},
    {"mean", (PyCFunction)(void (*)(void))m_mean, METH_VARARGS | METH_KEYWORDS, "Mean over axes."},
    {"var", (PyCFunction)(void (*)(void))m_var, METH_VARARGS | METH_KEYWORDS, "Variance over axes."},
    {"std", (PyCFunction)(void (*)(void))m_std, METH_VARARGS | METH_KEYWORDS, "Standard deviation over axes."},
    {"min", (PyCFunction)(void (*)(void))m_min, METH_VARARGS | METH_KEYWORDS, "Minimum over axes."},
    {"max", (PyCFunction)(void (*)(void))m_max, METH_VARARGS | METH_KEYWORDS, "Maximum over axes."},
    {"argmin", (PyCFunction)(void (*)(void))m_argmin, METH_VARARGS | METH_KEYWORDS, "Index of the minimum."},
    {"argmax", (PyCFunction)(void (*)(void))m_argmax, METH_VARARGS | METH_KEYWORDS, "Index of the maximum."},
    {"any", (PyCFunction)(void (*)(void))m_any, METH_VARARGS | METH_KEYWORDS, "Any element true."},
    {"all", (PyCFunction)(void (*)(void))m_all, METH_VARARGS | METH_KEYWORDS, "All elements true."},
    {"tolist", m_tolist, METH_NOARGS, "Nested Python lists."},
    {"item", m_item, METH_VARARGS, "One element as a Python scalar."},
    {"__complex__", m_complex, METH_NOARGS, "complex(a) of a 0-d array."},
    {"conj", m_conj, METH_NOARGS, "Complex conjugate, elementwise."},
    {"conjugate", m_conj, METH_NOARGS, "Complex conjugate, elementwise."},
    {"fill", m_fill, METH_O, "Set every element to a value."},
    {"dot", m_dot, METH_O, "Matrix product."},
    {"to", m_to, METH_O, "Copy to another device (\"cpu\", \"cuda:0\", \"opencl\")."},
    {NULL},
};

static PyMemberDef members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(NgPyArray, weakreflist), READONLY, NULL},
    {NULL},
};

static PyType_Slot slots[] = {
    {Py_tp_dealloc, array_dealloc},
    {Py_tp_repr, array_repr},
    {Py_tp_str, array_str},
    {Py_tp_richcompare, richcompare},
    {Py_tp_getset, getset},
    {Py_tp_methods, methods},
    {Py_tp_members, members},
    {Py_tp_doc, "numgpu.ndarray: a NumPy-compatible array whose data lives on a device."},
    {Py_nb_add, nb_add}, {Py_nb_inplace_add, nb_add_inplace},
    {Py_nb_subtract, nb_sub}, {Py_nb_inplace_subtract, nb_sub_inplace},
    {Py_nb_multiply, nb_mul}, {Py_nb_inplace_multiply, nb_mul_inplace},
    {Py_nb_true_divide, nb_truediv}, {Py_nb_inplace_true_divide, nb_truediv_inplace},
    {Py_nb_floor_divide, nb_floordiv}, {Py_nb_inplace_floor_divide, nb_floordiv_inplace},
    {Py_nb_remainder, nb_mod}, {Py_nb_inplace_remainder, nb_mod_inplace},
    {Py_nb_power, nb_pow}, {Py_nb_inplace_power, nb_pow_inplace},
    {Py_nb_divmod, nb_divmod},
    {Py_nb_lshift, nb_lshift}, {Py_nb_inplace_lshift, nb_lshift_inplace},
    {Py_nb_rshift, nb_rshift}, {Py_nb_inplace_rshift, nb_rshift_inplace},
    {Py_nb_and, nb_and}, {Py_nb_inplace_and, nb_and_inplace},
    {Py_nb_or, nb_or}, {Py_nb_inplace_or, nb_or_inplace},
    {Py_nb_xor, nb_xor}, {Py_nb_inplace_xor, nb_xor_inplace},
    {Py_nb_negative, nb_neg}, {Py_nb_positive, nb_pos}, {Py_nb_absolute, nb_abs}, {Py_nb_invert, nb_invert},
    {Py_nb_matrix_multiply, nb_matmul},
    {Py_nb_float, nb_float}, {Py_nb_int, nb_int}, {Py_nb_index, nb_index}, {Py_nb_bool, nb_bool},
    {Py_mp_length, mp_length}, {Py_mp_subscript, mp_subscript}, {Py_mp_ass_subscript, mp_ass_subscript},
    {Py_sq_length, mp_length}, {Py_sq_item, sq_item}, {Py_tp_iter, tp_iter},
    {Py_bf_getbuffer, getbuffer}, {Py_bf_releasebuffer, releasebuffer},
    {0, NULL},
};

static PyType_Spec spec = {
    .name = "numgpu.ndarray",
    .basicsize = sizeof(NgPyArray),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = slots,
};

PyTypeObject *ngpy_make_ndarray_type(PyObject *module)
{
    return (PyTypeObject *)PyType_FromSpec(&spec);
}
