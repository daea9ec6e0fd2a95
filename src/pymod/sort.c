/* numgpu._core: Sorting, searching, scans and histograms: sort, argsort, unique, cumulative,
 * searchsorted, bincount, histogram, percentile. NumPy's keyword handling
 * lives in python/numgpu/_sorting.py; these take positional arguments. */
#include "pymod.h"

/* a (array-like) -> new array reference in *out; -1 with an exception. */
static int arr(PyObject *o, NgArray *out) { return ngpy_to_array(o, NG_NODTYPE, out); }

/* An optional array argument: None gives *opt = NULL. */
static int opt_arr(PyObject *o, NgArray *tmp, const NgArray **opt)
{
    *opt = NULL;
    tmp->buf = NULL;
    if (o == Py_None)
        return 0;
    if (arr(o, tmp) < 0)
        return -1;
    *opt = tmp;
    return 0;
}

/* Wraps out on success, raises on failure. */
static PyObject *result(NgStatus st, NgArray *out) { return st == NG_OK ? ngpy_wrap(out) : ngpy_raise(st); }

static PyObject *f_sort(PyObject *m, PyObject *args)
{
    PyObject *a;
    int axis, argsort;
    if (!PyArg_ParseTuple(args, "Oip:sort", &a, &axis, &argsort))
        return NULL;
    NgArray ta, out;
    if (arr(a, &ta) < 0)
        return NULL;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_op_sort(&ta, axis, argsort, &out);
    Py_END_ALLOW_THREADS
    ng_array_release(&ta);
    return result(st, &out);
}

static PyObject *f_cumulative(PyObject *m, PyObject *args)
{
    PyObject *a, *dtype;
    int op, axis, fold = 0;
    if (!PyArg_ParseTuple(args, "iOiO|p:cumulative", &op, &a, &axis, &dtype, &fold))
        return NULL;
    if (op < 0 || op >= NG_NOPS) {
        PyErr_SetString(PyExc_ValueError, "bad op code");
        return NULL;
    }
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgArray ta, out;
    if (arr(a, &ta) < 0)
        return NULL;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = fold ? ng_op_fold((NgOp)op, &ta, axis, dt, &out) : ng_op_cumulative((NgOp)op, &ta, axis, dt, &out);
    Py_END_ALLOW_THREADS
    ng_array_release(&ta);
    return result(st, &out);
}

static PyObject *f_searchsorted(PyObject *m, PyObject *args)
{
    PyObject *a, *v, *sorter;
    int right;
    if (!PyArg_ParseTuple(args, "OOpO:searchsorted", &a, &v, &right, &sorter))
        return NULL;
    NgArray ta, tv, ts, out;
    const NgArray *so;
    if (arr(a, &ta) < 0)
        return NULL;
    if (arr(v, &tv) < 0) {
        ng_array_release(&ta);
        return NULL;
    }
    if (opt_arr(sorter, &ts, &so) < 0) {
        ng_array_release(&ta);
        ng_array_release(&tv);
        return NULL;
    }
    NgStatus st = ng_op_searchsorted(&ta, &tv, right, so, &out);
    ng_array_release(&ta);
    ng_array_release(&tv);
    ng_array_release(&ts);
    return result(st, &out);
}

/* isin(element, test, invert, kind): kind 0 auto, 1 sort, 2 table (ng_op_isin). */
static PyObject *f_isin(PyObject *m, PyObject *args)
{
    PyObject *e, *t;
    int invert, kind;
    if (!PyArg_ParseTuple(args, "OOpi:isin", &e, &t, &invert, &kind))
        return NULL;
    NgArray te, tt, out;
    if (arr(e, &te) < 0)
        return NULL;
    if (arr(t, &tt) < 0) {
        ng_array_release(&te);
        return NULL;
    }
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_op_isin(&te, &tt, invert, kind, &out);
    Py_END_ALLOW_THREADS
    ng_array_release(&te);
    ng_array_release(&tt);
    return result(st, &out);
}

/* interp(x, xp, fp, left, right): float64 numgpu arrays, left/right None or a float (ng_op_interp). */
static PyObject *f_interp(PyObject *m, PyObject *args)
{
    PyObject *x, *xp, *fp, *lo, *ro;
    if (!PyArg_ParseTuple(args, "O!O!O!OO:interp", ngpy.ndarray_type, &x, ngpy.ndarray_type, &xp, ngpy.ndarray_type,
                          &fp, &lo, &ro))
        return NULL;
    double l = 0.0, r = 0.0;
    if (lo != Py_None && (l = PyFloat_AsDouble(lo)) == -1.0 && PyErr_Occurred())
        return NULL;
    if (ro != Py_None && (r = PyFloat_AsDouble(ro)) == -1.0 && PyErr_Occurred())
        return NULL;
    NgArray out;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_op_interp(ngpy_arr(x), ngpy_arr(xp), ngpy_arr(fp), lo == Py_None ? NULL : &l, ro == Py_None ? NULL : &r, &out);
    Py_END_ALLOW_THREADS
    return result(st, &out);
}

/* A wrapped array, or None when `want` is false. */
static PyObject *maybe(bool want, NgArray *a)
{
    if (!want)
        Py_RETURN_NONE;
    return ngpy_wrap(a);
}

static PyObject *f_unique(PyObject *m, PyObject *args)
{
    PyObject *a;
    int ri, rv, rc;
    if (!PyArg_ParseTuple(args, "Oppp:unique", &a, &ri, &rv, &rc))
        return NULL;
    NgArray ta, vals, idx, inv, cnt;
    if (arr(a, &ta) < 0)
        return NULL;
    NgStatus st = ng_op_unique(&ta, &vals, ri ? &idx : NULL, rv ? &inv : NULL, rc ? &cnt : NULL);
    ng_array_release(&ta);
    if (st != NG_OK)
        return ngpy_raise(st);
    PyObject *items[4] = {ngpy_wrap(&vals), maybe(ri, &idx), maybe(rv, &inv), maybe(rc, &cnt)};
    for (int i = 0; i < 4; i++)
        if (!items[i]) {
            for (int j = 0; j < 4; j++)
                Py_XDECREF(items[j]);
            return NULL;
        }
    return Py_BuildValue("(NNNN)", items[0], items[1], items[2], items[3]);
}

static PyObject *f_bincount(PyObject *m, PyObject *args)
{
    PyObject *x, *w;
    long long minlength;
    if (!PyArg_ParseTuple(args, "OOL:bincount", &x, &w, &minlength))
        return NULL;
    NgArray tx, tw, out;
    const NgArray *wp;
    if (arr(x, &tx) < 0)
        return NULL;
    if (opt_arr(w, &tw, &wp) < 0) {
        ng_array_release(&tx);
        return NULL;
    }
    NgStatus st = ng_op_bincount(&tx, wp, minlength, &out);
    ng_array_release(&tx);
    ng_array_release(&tw);
    return result(st, &out);
}

static PyObject *f_histogram(PyObject *m, PyObject *args)
{
    PyObject *a, *edges, *w;
    int uniform;
    double first, last, denom;
    if (!PyArg_ParseTuple(args, "OOpdddO:histogram", &a, &edges, &uniform, &first, &last, &denom, &w))
        return NULL;
    NgArray ta, te, tw, out;
    const NgArray *wp;
    if (arr(a, &ta) < 0)
        return NULL;
    if (arr(edges, &te) < 0) {
        ng_array_release(&ta);
        return NULL;
    }
    if (opt_arr(w, &tw, &wp) < 0) {
        ng_array_release(&ta);
        ng_array_release(&te);
        return NULL;
    }
    NgStatus st = ng_op_histogram(&ta, &te, uniform, first, last, denom, wp, &out);
    ng_array_release(&ta);
    ng_array_release(&te);
    ng_array_release(&tw);
    return result(st, &out);
}

static PyObject *f_quantile(PyObject *m, PyObject *args)
{
    PyObject *a, *q, *dtype;
    int axis, arranged = 0;
    if (!PyArg_ParseTuple(args, "OiOO|p:quantile", &a, &axis, &q, &dtype, &arranged))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dtype, &dt) < 0)
        return NULL;
    NgArray ta, tq, out;
    if (arr(a, &ta) < 0)
        return NULL;
    if (ngpy_to_array(q, NG_FLOAT64, &tq) < 0) {
        ng_array_release(&ta);
        return NULL;
    }
    NgStatus st = NG_OK;
    if (tq.dtype != NG_FLOAT64) { /* (--precision float32 uploads float64 data as float32: q's are read in float64) */
        NgArray q64;
        st = ng_op_astype(&tq, NG_FLOAT64, &q64);
        ng_array_release(&tq);
        tq = q64;
        if (st != NG_OK) {
            ng_array_release(&ta);
            return ngpy_raise(st);
        }
    }
    st = ng_op_quantile(&ta, axis, &tq, dt, arranged, &out);
    ng_array_release(&ta);
    ng_array_release(&tq);
    return result(st, &out);
}

PyMethodDef ngpy_sort_functions[] = {
    {"sort", f_sort, METH_VARARGS, "sort(a, axis, argsort): sorted copy or argsort along axis."},
    {"cumulative", f_cumulative, METH_VARARGS, "cumulative(op, a, axis, dtype[, fold]): ufunc.accumulate of an op code (fold: its last element, ufunc.reduce)."},
    {"searchsorted", f_searchsorted, METH_VARARGS, "searchsorted(a, v, right, sorter)."},
    {"interp", f_interp, METH_VARARGS, "interp(x, xp, fp, left, right): float64 arrays, left/right None or a float."},
    {"isin", f_isin, METH_VARARGS, "isin(element, test, invert, kind): kind 0 auto, 1 sort, 2 table."},
    {"unique", f_unique, METH_VARARGS, "unique(a, index, inverse, counts) -> (values, index, inverse, counts)."},
    {"bincount", f_bincount, METH_VARARGS, "bincount(x, weights, minlength)."},
    {"histogram", f_histogram, METH_VARARGS, "histogram(a, edges, uniform, first, last, denom, weights): counts."},
    {"quantile", f_quantile, METH_VARARGS, "quantile(a, axis, q, dtype[, arranged]): shape (len(q),) + a's without axis (arranged: a partitioned where read)."},
    {NULL},
};
