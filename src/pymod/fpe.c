/* NumPy's floating-point error modes (np.errstate, np.seterr) for the ops on
 * numgpu arrays.
 *
 * NumPy's own state is the one source of truth: its context variable
 * (numpy._core._ufunc_config._extobj_contextvar, what errstate and seterr
 * set) is read before each op, and decoded again only when its value changed
 * (a capsule per errstate: one pointer compare per op), so a program's
 * numpy.errstate and numgpu.errstate act the same. The op's kernels judge
 * the categories that are not 'ignore' (the core's ng_fpe_* records); after
 * the op each record is handled as NumPy's ufuncs handle their flags:
 * divide, overflow, underflow, invalid in turn, 'warn' a RuntimeWarning at
 * the program's line, 'raise' FloatingPointError (the op's result dropped),
 * 'call' the errcall function with (kind, flags), 'print' to stderr, 'log'
 * the errcall object's write(). */
#include "pymod/pymod.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { M_IGNORE, M_WARN, M_RAISE, M_CALL, M_PRINT, M_LOG };

static PyObject *contextvar;  /* NumPy's errstate context variable (NULL: not found; no checks) */
static PyObject *extobj_dict;      /* numpy._core._ufunc_config._get_extobj_dict */
static PyObject *seen;        /* the variable's value the modes below were read from */
static int modes[4];          /* divide, over, under, invalid */
static PyObject *errcall;     /* the 'call' / 'log' object */
static bool looked_up;

static const char *const keys[4] = {"divide", "over", "under", "invalid"};
static const char *const kinds[4] = {"divide by zero", "overflow", "underflow", "invalid value"};

static int mode_of(PyObject *s)
{
    static const char *const names[] = {"ignore", "warn", "raise", "call", "print", "log"};
    for (int i = 0; s && PyUnicode_Check(s) && i < 6; i++)
        if (PyUnicode_CompareWithASCIIString(s, names[i]) == 0)
            return i;
    return M_IGNORE;
}

/* Reads the modes again when the variable's value is not the one last read. */
static int refresh(void)
{
    if (!looked_up) {
        looked_up = true;
        PyObject *mod = PyImport_ImportModule("numpy._core._ufunc_config");
        contextvar = mod ? PyObject_GetAttrString(mod, "_extobj_contextvar") : NULL;
        extobj_dict = contextvar ? PyObject_GetAttrString(mod, "_get_extobj_dict") : NULL;
        Py_XDECREF(mod);
        if (!extobj_dict || !PyContextVar_CheckExact(contextvar)) {
            PyErr_Clear();
            Py_CLEAR(contextvar);
        }
    }
    if (!contextvar)
        return 0;
    PyObject *v;
    if (PyContextVar_Get(contextvar, NULL, &v) < 0)
        return -1;
    if (v == seen) {
        Py_XDECREF(v);
        return 0;
    }
    PyObject *d = PyObject_CallNoArgs(extobj_dict);
    if (!d || !PyDict_Check(d)) {
        Py_XDECREF(v);
        Py_XDECREF(d);
        return -1;
    }
    for (int i = 0; i < 4; i++)
        modes[i] = mode_of(PyDict_GetItemString(d, keys[i]));
    PyObject *call = PyDict_GetItemString(d, "call");
    Py_XINCREF(call);
    Py_XSETREF(errcall, call);
    Py_DECREF(d);
    Py_XSETREF(seen, v); /* (held: a freed capsule's address could come back) */
    return 0;
}

int ngpy_fpe_begin(const char *name)
{
    if (refresh() < 0)
        return -1;
    unsigned mask = 0;
    for (int i = 0; i < 4; i++)
        if (modes[i] != M_IGNORE && i != 2) /* (underflow is not judged) */
            mask |= 1u << i;
    bool warn_only = true; /* (then a GPU may read the flag words later: ng_fpe_defer) */
    for (int i = 0; i < 4; i++)
        if (mask & (1u << i))
            warn_only = warn_only && modes[i] == M_WARN;
    ng_fpe_set_mask(contextvar ? mask : 0, warn_only, name);
    return 0;
}

/* warnings' stacklevel of the first frame outside numgpu's package (the program's line). */
static int program_level(void)
{
    static PyObject *dir; /* numgpu's folder, with the separator (numgpu._fallback._PKG_DIR) */
    if (!dir) {
        PyObject *mod = PyImport_ImportModule("numgpu._fallback");
        dir = mod ? PyObject_GetAttrString(mod, "_PKG_DIR") : NULL;
        Py_XDECREF(mod);
        if (!dir || !PyUnicode_Check(dir)) {
            PyErr_Clear();
            Py_CLEAR(dir);
            return 1;
        }
    }
    int level = 1;
    PyFrameObject *f = PyEval_GetFrame();
    Py_XINCREF(f);
    while (f) {
        PyCodeObject *code = PyFrame_GetCode(f);
        bool ours = PyUnicode_Tailmatch(code->co_filename, dir, 0, PY_SSIZE_T_MAX, -1) == 1;
        Py_DECREF(code);
        if (!ours)
            break;
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
        level++;
    }
    Py_XDECREF(f);
    return level;
}

/* One category's handling (NumPy's _error_handler) in mode `mode`; -1 with an exception set. */
static int handle(int mode, int cat, unsigned flags, const char *name)
{
    const char *kind = kinds[cat];
    char msg[160];
    switch (mode) {
    case M_WARN:
        snprintf(msg, sizeof msg, "%s encountered in %s", kind, name);
        return PyErr_WarnEx(PyExc_RuntimeWarning, msg, program_level());
    case M_RAISE:
        PyErr_Format(PyExc_FloatingPointError, "%s encountered in %s", kind, name);
        return -1;
    case M_PRINT:
        fprintf(stderr, "Warning: %s encountered in %s\n", kind, name);
        return 0;
    case M_CALL: {
        if (!errcall || errcall == Py_None) {
            PyErr_Format(PyExc_NameError, "python callback specified for %s (in  %s) but no function found.", kind, name);
            return -1;
        }
        PyObject *r = PyObject_CallFunction(errcall, "sI", kind, flags);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    case M_LOG: {
        if (!errcall || errcall == Py_None) {
            PyErr_Format(PyExc_NameError, "log specified for %s (in %s) but no object with write method found.", kind, name);
            return -1;
        }
        snprintf(msg, sizeof msg, "Warning: %s encountered in %s\n", kind, name);
        PyObject *r = PyObject_CallMethod(errcall, "write", "s", msg);
        Py_XDECREF(r);
        return r ? 0 : -1;
    }
    default:
        return 0;
    }
}

/* Handles the records (deferred ones only, or all); -1 with an exception set. A deferred record
 * was made under modes that only warned (ng_fpe_defer): it warns. */
static int report(bool deferred_only)
{
    unsigned flags;
    const char *rec;
    bool deferred;
    int rc = 0, nkept = 0;
    unsigned kept_flags[8];
    const char *kept_names[8];
    while (rc == 0 && ng_fpe_take(&flags, &rec, &deferred)) {
        if (deferred_only && !deferred) {
            if (nkept < 8) {
                kept_flags[nkept] = flags;
                kept_names[nkept++] = rec;
            }
            continue;
        }
        for (int cat = 0; cat < 4 && rc == 0; cat++)
            if (flags & (1u << cat))
                rc = handle(deferred ? M_WARN : modes[cat], cat, flags, rec);
    }
    ng_fpe_clear();
    for (int i = 0; i < nkept; i++)
        ng_fpe_record(kept_flags[i], kept_names[i]);
    return rc;
}

int ngpy_fpe_end(void)
{
    ng_fpe_set_mask(0, false, NULL);
    return report(false);
}

int ngpy_fpe_deferred(void) { return report(true); }

PyObject *ngpy_fpe_result(PyObject *result)
{
    if (!result) { /* (the op's own error stands) */
        ng_fpe_set_mask(0, false, NULL);
        ng_fpe_clear();
        return NULL;
    }
    if (ngpy_fpe_end() < 0) {
        Py_XDECREF(result);
        return NULL;
    }
    return result;
}

/* 1 when test (NG_OP_ISINF, NG_OP_ISNAN) holds for any element of a, 0 when for none; -1 with
 * the exception set. (Two small ops and a one-byte download: a GPU waits for them.) */
static int any_of(NgOp test, const NgArray *a)
{
    NgOperand x = {a, {0}};
    NgArray m, r;
    memset(&r, 0, sizeof r);
    NgStatus st = ng_op_unary(test, &x, NULL, &m);
    if (st == NG_OK) {
        st = ng_op_reduce(NG_RED_ANY, &m, -1, NULL, false, NG_NODTYPE, 0, &r);
        ng_array_release(&m);
    }
    uint8_t v = 0;
    if (st == NG_OK)
        st = ng_array_download(&r, &v, NULL);
    ng_array_release(&r);
    if (st != NG_OK) {
        ngpy_raise(st);
        return -1;
    }
    return v != 0;
}

/* Whether a float result (a fresh C-contiguous array on a host device) holds an infinity (*inf)
 * or a NaN (*nan): read in place, no kernel. */
static void scan_host(const NgArray *r, bool *inf, bool *nan)
{
    const char *p = ng_array_data(r);
    for (int64_t i = 0; i < r->size; i++) {
        double v;
        if (r->dtype == NG_FLOAT64) {
            v = ((const double *)p)[i];
        } else if (r->dtype == NG_FLOAT32) {
            v = ((const float *)p)[i];
        } else { /* float16: exponent bits all ones */
            uint16_t h = ((const uint16_t *)p)[i];
            v = (h & 0x7c00) != 0x7c00 ? 0.0 : (h & 0x3ff) ? NAN : INFINITY;
        }
        *inf = *inf || isinf(v);
        *nan = *nan || isnan(v);
    }
}

/* Whether result r holds an infinity (*inf) or a NaN (*nan): read in place on a host device,
 * else by a kernel for each one asked (want_inf, want_nan). -1 with an exception set. */
static int result_values(const NgArray *r, bool want_inf, bool want_nan, bool *inf, bool *nan)
{
    if (ng_device_host_visible(ng_array_device(r)) && ng_array_is_c_contiguous(r)) {
        scan_host(r, inf, nan);
        return 0;
    }
    int i = want_inf ? any_of(NG_OP_ISINF, r) : 0, n = want_nan ? any_of(NG_OP_ISNAN, r) : 0;
    if (i < 0 || n < 0)
        return -1;
    *inf = i, *nan = n;
    return 0;
}

/* The mean, var or std of no elements (or var/std with ddof >= the elements): NumPy divides by the
 * count (0, or max(n - ddof, 0)) and judges that division: "invalid value encountered in divide"
 * for 0/0 (a mean of nothing, a var of nothing or of equal values), "divide by zero" for a
 * positive sum of squares; "scalar divide" where its result is a float64 or complex128 scalar
 * (scalar arithmetic), "divide" where it is an array or another dtype's scalar. A var of nothing
 * first divides its mean (an array: "divide"). No "reduce" category here: NumPy's sums of nothing
 * are 0. */
static int degenerate_divide(int op, int64_t n, const NgArray *in, const NgArray *out)
{
    const char *name = out->ndim == 0 && (out->dtype == NG_FLOAT64 || out->dtype == NG_COMPLEX128) ? "scalar divide"
                                                                                                  : "divide";
    int divide = modes[0], invalid = modes[3];
    if (op == NG_RED_MEAN || n == 0) {
        if (op != NG_RED_MEAN && handle(invalid, 3, 8u, "divide") < 0)
            return -1;
        return handle(invalid, 3, 8u, name);
    }
    if (divide == M_IGNORE && invalid == M_IGNORE)
        return 0;
    bool inf = false, nan = false;
    if (result_values(out, divide != M_IGNORE, invalid != M_IGNORE, &inf, &nan) < 0)
        return -1;
    int in_nan = nan && invalid != M_IGNORE ? any_of(NG_OP_ISNAN, in) : 0;
    if (in_nan < 0 || (inf && handle(divide, 0, 1u, name) < 0))
        return -1;
    return nan && !in_nan ? handle(invalid, 3, 8u, name) : 0;
}

static bool overflows(double v, NgDType to)
{
    return isfinite(v) && (to == NG_FLOAT16 ? fabs(v) >= 65520.0 : isinf((float)v)); /* (rounds to inf) */
}

int ngpy_scalar_cast_fpe(const NgOperand *s, NgDType to)
{
    if (s->array || (s->scalar.kind != NG_KIND_FLOAT && s->scalar.kind != NG_KIND_COMPLEX) || s->scalar.big ||
        (to != NG_FLOAT16 && to != NG_FLOAT32 && to != NG_COMPLEX64))
        return 0;
    NgDType part = to == NG_COMPLEX64 ? NG_FLOAT32 : to;
    if (!overflows(s->scalar.v.f, part) && !overflows(s->scalar.im, part))
        return 0;
    if (refresh() < 0)
        return -1;
    return contextvar ? handle(modes[1], 1, 2u, "cast") : 0;
}

int ngpy_weak_scalar_fpe(const NgOperand *x, const NgOperand *y)
{
    if (x->array && !y->array)
        return ngpy_scalar_cast_fpe(y, x->array->dtype);
    if (y->array && !x->array)
        return ngpy_scalar_cast_fpe(x, y->array->dtype);
    return 0;
}

int ngpy_reduce_fpe(int op, const NgArray *in, const NgArray *out, int ddof)
{
    if ((op == NG_RED_MEAN || op == NG_RED_VAR || op == NG_RED_STD) && out->size > 0) {
        int64_t n = in->size / out->size; /* (the elements each result reduced) */
        if (op == NG_RED_MEAN ? n == 0 : n <= ddof)
            return refresh() < 0 || !contextvar ? (PyErr_Occurred() ? -1 : 0) : degenerate_divide(op, n, in, out);
    }
    if ((op != NG_RED_SUM && op != NG_RED_PROD && op != NG_RED_MEAN) || !ng_dtype_is_float(out->dtype) ||
        out->size == 0 || refresh() < 0)
        return PyErr_Occurred() ? -1 : 0;
    int over = modes[1], invalid = modes[3];
    if (!contextvar || (over == M_IGNORE && invalid == M_IGNORE))
        return 0;
    bool inf = false, nan = false;
    bool host = ng_device_host_visible(ng_array_device(out)) && ng_array_is_c_contiguous(out);
    if (!host && (over == M_IGNORE || over == M_WARN) && (invalid == M_IGNORE || invalid == M_WARN))
        return 0; /* (a GPU would wait for every reduction: warnings of reductions are not judged there) */
    if (result_values(out, over != M_IGNORE, invalid != M_IGNORE, &inf, &nan) < 0)
        return -1;
    bool float_in = ng_dtype_is_float(in->dtype) || ng_dtype_is_complex(in->dtype);
    int in_inf = inf && over != M_IGNORE && float_in ? any_of(NG_OP_ISINF, in) : 0;
    int in_nan = nan && invalid != M_IGNORE && float_in ? any_of(NG_OP_ISNAN, in) : 0;
    if (in_inf < 0 || in_nan < 0)
        return -1;
    unsigned flags = (inf && over != M_IGNORE && !in_inf ? 2u : 0u) | (nan && invalid != M_IGNORE && !in_nan ? 8u : 0u);
    if ((flags & 2u) && handle(over, 1, flags, "reduce") < 0)
        return -1;
    if ((flags & 8u) && handle(invalid, 3, flags, "reduce") < 0)
        return -1;
    return 0;
}
