/* numgpu._core.lapack(op, a, b): linear algebra of device arrays
 * (src/ops/lapack.c: the device's vendor LAPACK where it has one and takes
 * the operands, else the generated kernels). op: 0 solve(a, b), 1 inv,
 * 2 cholesky, 3 det, 4 slogdet (a (sign, logabsdet) tuple), 5 qr(a, mode)
 * (mode 0 reduced, 1 complete: a (Q, R) tuple; 2: R alone). A singular or
 * non-positive-definite matrix raises numpy.linalg.LinAlgError. */
#include "pymod.h"

static PyObject *linalg_error(const char *msg)
{
    PyObject *mod = PyImport_ImportModule("numpy.linalg");
    PyObject *err = mod ? PyObject_GetAttrString(mod, "LinAlgError") : NULL;
    Py_XDECREF(mod);
    if (err) {
        PyErr_SetString(err, msg);
        Py_DECREF(err);
    }
    return NULL;
}

static NgStatus solve_like(int op, const NgArray *a, const NgArray *b, NgArray *out, int *info)
{
    return op == 0 ? ng_lapack_solve(a, b, out, info) : op == 1 ? ng_lapack_inv(a, out, info)
                                                               : ng_lapack_cholesky(a, out, info);
}

/* (x, y) as a tuple of numgpu arrays; takes both references (released on failure). */
static PyObject *wrap_pair(NgArray *x, NgArray *y)
{
    PyObject *xo = ngpy_wrap(x), *yo = xo ? ngpy_wrap(y) : (ng_array_release(y), NULL);
    PyObject *pair = xo && yo ? PyTuple_Pack(2, xo, yo) : NULL;
    Py_XDECREF(xo);
    Py_XDECREF(yo);
    return pair;
}

static PyObject *f_lapack(PyObject *m, PyObject *args)
{
    int op;
    PyObject *ao, *bo = Py_None;
    if (!PyArg_ParseTuple(args, "iO|O:lapack", &op, &ao, &bo))
        return NULL;
    int mode = 0;
    if (op == 5) {
        mode = bo == Py_None ? 0 : (int)PyLong_AsLong(bo);
        if (mode == -1 && PyErr_Occurred())
            return NULL;
        bo = Py_None;
    }
    if (op < 0 || op > 5 || (op == 0) != (bo != Py_None) || mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "lapack: bad operation or operands");
        return NULL;
    }
    NgArray a, b, out;
    a.buf = b.buf = NULL;
    if (ngpy_to_array(ao, NG_NODTYPE, &a) < 0)
        return NULL;
    if (op == 0 && ngpy_to_array(bo, NG_NODTYPE, &b) < 0) {
        ng_array_release(&a);
        return NULL;
    }
    PyObject *res = NULL;
    int info = 0;
    NgStatus st;
    if (op <= 2) {
        st = solve_like(op, &a, &b, &out, &info);
        if (st == NG_OK && info == 0)
            res = ngpy_wrap(&out);
        else if (st == NG_OK)
            linalg_error(op == 2 ? "Matrix is not positive definite" : "Singular matrix");
        else
            ngpy_raise(st);
    } else if (op == 5) {
        NgArray q, r;
        st = ng_lapack_qr(&a, mode == 1, mode == 2 ? NULL : &q, &r);
        if (st != NG_OK) {
            ngpy_raise(st);
        } else if (mode == 2) {
            res = ngpy_wrap(&r);
        } else {
            res = wrap_pair(&q, &r);
        }
    } else {
        NgArray sign, logabs, det;
        st = ng_lapack_slogdet(&a, &sign, &logabs, op == 3 ? &det : NULL);
        if (st != NG_OK) {
            ngpy_raise(st);
        } else if (op == 3) {
            ng_array_release(&sign);
            ng_array_release(&logabs);
            res = ngpy_wrap(&det);
        } else {
            res = wrap_pair(&sign, &logabs);
        }
    }
    ng_array_release(&a);
    ng_array_release(&b);
    return res;
}

/* decomp(op, a, arg, rcond=0.0): 0 eigh (arg: 1 vectors | 2 upper) -> w or (w, v); 1 svd (arg:
 * mode 0 values, 1 reduced, 2 full) -> s or (u, s, vh); 2 eig (arg: vectors) -> w or (w, v),
 * complex; 3 lstsq (arg: b) -> (x, resid, rank, s). NotImplementedError where the device has no
 * solver for it (the caller falls back to NumPy). */
static PyObject *f_decomp(PyObject *m, PyObject *args)
{
    int op;
    PyObject *ao, *arg;
    double rcond = 0;
    if (!PyArg_ParseTuple(args, "iOO|d:decomp", &op, &ao, &arg, &rcond))
        return NULL;
    long flags = op == 3 ? 0 : PyLong_AsLong(arg);
    if (flags == -1 && PyErr_Occurred())
        return NULL;
    if (op < 0 || op > 3 || flags < 0 || flags > 3) {
        PyErr_SetString(PyExc_ValueError, "decomp: bad operation or operands");
        return NULL;
    }
    NgArray a, b, x[4];
    a.buf = b.buf = NULL;
    if (ngpy_to_array(ao, NG_NODTYPE, &a) < 0)
        return NULL;
    if (op == 3 && ngpy_to_array(arg, NG_NODTYPE, &b) < 0) {
        ng_array_release(&a);
        return NULL;
    }
    int info = 0, n = 0;
    int64_t rank = 0;
    NgStatus st;
    static const char *const why[4] = {"Eigenvalues did not converge", "SVD did not converge",
                                       "Eigenvalues did not converge",
                                       "SVD did not converge in Linear Least Squares"};
    if (op == 0) {
        st = ng_lapack_eigh(&a, flags & 2, &x[0], flags & 1 ? &x[1] : NULL, &info);
        n = flags & 1 ? 2 : 1;
    } else if (op == 1) {
        st = ng_lapack_svd(&a, (int)flags, &x[0], &x[1], &x[2], &info);
        n = flags ? 3 : 1;
        if (!flags)
            x[0] = x[1];
    } else if (op == 2) {
        st = ng_lapack_eig(&a, &x[0], flags ? &x[1] : NULL, &info);
        n = flags ? 2 : 1;
    } else {
        st = ng_lapack_lstsq(&a, &b, rcond, &x[0], &x[1], &rank, &x[2], &info);
        n = 3;
    }
    ng_array_release(&a);
    ng_array_release(&b);
    if (st != NG_OK)
        return ngpy_raise(st);
    if (info)
        return linalg_error(why[op]);
    if (n == 1)
        return ngpy_wrap(&x[0]);
    PyObject *res = PyTuple_New(op == 3 ? 4 : n);
    for (int i = 0; i < n; i++) {
        PyObject *o = res ? ngpy_wrap(&x[i]) : (ng_array_release(&x[i]), NULL);
        if (o)
            PyTuple_SET_ITEM(res, op == 3 && i == 2 ? 3 : i, o);
        else
            Py_CLEAR(res);
    }
    PyObject *r = res && op == 3 ? PyLong_FromLongLong(rank) : NULL;
    if (op == 3 && res && !r)
        Py_CLEAR(res);
    if (r)
        PyTuple_SET_ITEM(res, 2, r);
    return res;
}

PyMethodDef ngpy_lapack_functions[] = {
    {"decomp", f_decomp, METH_VARARGS,
     "decomp(op, a, arg, rcond=0.0): 0 eigh, 1 svd, 2 eig, 3 lstsq on the device (vendor LAPACK or Jacobi kernels)."},
    {"lapack", f_lapack, METH_VARARGS,
     "lapack(op, a, b=None): 0 solve, 1 inv, 2 cholesky, 3 det, 4 slogdet, 5 qr (b: mode) on the device."},
    {NULL},
};
