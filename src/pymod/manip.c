/* numgpu._core: Gathering, scattering and rearranging: take, put, nonzero, repeat, tile,
 * roll, flip, pad, tril/triu, trace, outer, einsum, packbits/unpackbits, frexp. Argument conversion only:
 * NumPy's keyword handling and the compositions live in python/numgpu/_manip.py,
 * the kernels in src/ops/manip.c. */
#include "pymod.h"

/* Wraps *out after a call (a view of `from` read-only when it is), or raises; releases the
 * converted input. */
static PyObject *finish_from(NgStatus st, NgArray *in, NgArray *out, PyObject *from)
{
    ng_array_release(in);
    return st == NG_OK ? ngpy_wrap_from(out, from) : ngpy_raise(st);
}

static PyObject *finish(NgStatus st, NgArray *in, NgArray *out) { return finish_from(st, in, out, NULL); }

/* flip(a, axes or None): a view. */
static PyObject *f_flip(PyObject *m, PyObject *args)
{
    PyObject *a, *axes_o;
    if (!PyArg_ParseTuple(args, "OO:flip", &a, &axes_o))
        return NULL;
    int naxes, axes[NG_MAXDIMS];
    NgArray ta, out;
    if (ngpy_axes(axes_o, &naxes, axes) < 0 || ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish_from(ng_op_flip(&ta, naxes, axes, &out), &ta, &out, a);
}

/* diagonal(a, offset, axis1, axis2): a view. */
static PyObject *f_diagonal(PyObject *m, PyObject *args)
{
    PyObject *a;
    long long offset;
    int axis1, axis2;
    if (!PyArg_ParseTuple(args, "OLii:diagonal", &a, &offset, &axis1, &axis2))
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish_from(ng_op_diagonal(&ta, offset, axis1, axis2, &out), &ta, &out, a);
}

/* roll(a, shifts, axes): equal-length sequences. */
static PyObject *f_roll(PyObject *m, PyObject *args)
{
    PyObject *a, *shifts_o, *axes_o;
    if (!PyArg_ParseTuple(args, "OOO:roll", &a, &shifts_o, &axes_o))
        return NULL;
    int ns, naxes, axes[NG_MAXDIMS];
    int64_t shifts[NG_MAXDIMS];
    if (ngpy_shape(shifts_o, &ns, shifts) < 0 || ngpy_axes(axes_o, &naxes, axes) < 0)
        return NULL;
    if (ns != naxes)
        return PyErr_Format(PyExc_ValueError, "'shift' and 'axis' should be scalars or 1D sequences");
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_roll(&ta, naxes, axes, shifts, &out), &ta, &out);
}

static PyObject *f_tile(PyObject *m, PyObject *args)
{
    PyObject *a, *reps_o;
    if (!PyArg_ParseTuple(args, "OO:tile", &a, &reps_o))
        return NULL;
    int nr;
    int64_t reps[NG_MAXDIMS];
    NgArray ta, out;
    if (ngpy_shape(reps_o, &nr, reps) < 0 || ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_tile(&ta, nr, reps, &out), &ta, &out);
}

/* repeat(a, repeats, axis): repeats a Python int or an integer array. */
static PyObject *f_repeat(PyObject *m, PyObject *args)
{
    PyObject *a, *rep;
    int axis;
    if (!PyArg_ParseTuple(args, "OOi:repeat", &a, &rep, &axis))
        return NULL;
    NgArray ta, tr, out;
    memset(&tr, 0, sizeof tr);
    long long count = 0;
    if (PyLong_Check(rep)) {
        count = PyLong_AsLongLong(rep);
        if (count == -1 && PyErr_Occurred())
            return NULL;
    } else if (ngpy_to_array(rep, NG_NODTYPE, &tr) < 0) {
        return NULL;
    } else if (!ng_dtype_is_int(tr.dtype) && tr.dtype != NG_BOOL) {
        PyErr_Format(PyExc_TypeError, "Cannot cast array data from dtype('%s') to dtype('int64') according to the "
                     "rule 'safe'", ng_dtype_info(tr.dtype)->name);
        ng_array_release(&tr);
        return NULL;
    }
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0) {
        ng_array_release(&tr);
        return NULL;
    }
    NgStatus st = ng_op_repeat(&ta, tr.buf ? &tr : NULL, count, axis, &out);
    ng_array_release(&tr);
    return finish(st, &ta, &out);
}

/* tri(a, k, upper): tril / triu. */
static PyObject *f_tri(PyObject *m, PyObject *args)
{
    PyObject *a;
    long long k;
    int upper;
    if (!PyArg_ParseTuple(args, "OLp:tri", &a, &k, &upper))
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_tri(&ta, k, upper, &out), &ta, &out);
}

/* pad(a, before, after, mode, values): before/after per axis; values a
 * sequence of 2*ndim Python scalars (constant mode) or None. */
static PyObject *f_pad(PyObject *m, PyObject *args)
{
    PyObject *a, *before_o, *after_o, *values_o;
    int mode;
    if (!PyArg_ParseTuple(args, "OOOiO:pad", &a, &before_o, &after_o, &mode, &values_o))
        return NULL;
    int nb, na;
    int64_t before[NG_MAXDIMS], after[NG_MAXDIMS], width[2 * NG_MAXDIMS];
    NgScalar values[2 * NG_MAXDIMS];
    memset(values, 0, sizeof values);
    if (ngpy_shape(before_o, &nb, before) < 0 || ngpy_shape(after_o, &na, after) < 0)
        return NULL;
    if (values_o != Py_None) {
        PyObject *seq = PySequence_Fast(values_o, "pad values must be a sequence");
        if (!seq)
            return NULL;
        Py_ssize_t nv = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < nv && i < 2 * NG_MAXDIMS; i++) {
            NgOperand op;
            NgArray tmp;
            if (ngpy_operand(PySequence_Fast_GET_ITEM(seq, i), &op, &tmp) < 0) {
                Py_DECREF(seq);
                return NULL;
            }
            if (op.array) {
                ng_array_release(&tmp);
                Py_DECREF(seq);
                return PyErr_Format(PyExc_TypeError, "pad values must be Python scalars");
            }
            values[i] = op.scalar;
        }
        Py_DECREF(seq);
    }
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    if (nb != ta.ndim || na != ta.ndim) {
        ng_array_release(&ta);
        return PyErr_Format(PyExc_ValueError, "pad widths for %d axes, array has %d", nb, ta.ndim);
    }
    for (int d = 0; d < ta.ndim; d++) {
        width[2 * d] = before[d];
        width[2 * d + 1] = after[d];
    }
    return finish(ng_op_pad(&ta, width, (NgPadMode)mode, values, &out), &ta, &out);
}

/* nonzero(a): the (ndim, count) int64 array of coordinates. */
static PyObject *f_nonzero(PyObject *m, PyObject *a)
{
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_nonzero(&ta, &out), &ta, &out);
}

/* take(a, indices, axis, mode): mode 0 raise, 1 wrap, 2 clip. */
static PyObject *f_take(PyObject *m, PyObject *args)
{
    PyObject *a, *idx;
    int axis, mode;
    if (!PyArg_ParseTuple(args, "OOii:take", &a, &idx, &axis, &mode))
        return NULL;
    NgArray ta, ti, out;
    if (ngpy_to_array(idx, NG_NODTYPE, &ti) < 0)
        return NULL;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0) {
        ng_array_release(&ti);
        return NULL;
    }
    NgStatus st = ng_op_take(&ta, &ti, axis, (NgTakeMode)mode, &out);
    ng_array_release(&ti);
    return finish(st, &ta, &out);
}

/* packbits(a, little) / unpackbits(a, little): along the last axis (src/ops/bits.c). */
static PyObject *f_packbits(PyObject *m, PyObject *args)
{
    PyObject *a;
    int little;
    if (!PyArg_ParseTuple(args, "Op:packbits", &a, &little))
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_packbits(&ta, little, &out), &ta, &out);
}

static PyObject *f_unpackbits(PyObject *m, PyObject *args)
{
    PyObject *a;
    int little;
    if (!PyArg_ParseTuple(args, "Op:unpackbits", &a, &little))
        return NULL;
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    return finish(ng_op_unpackbits(&ta, little, &out), &ta, &out);
}

/* frexp(a): (mantissa, exponent) of a float array, one kernel (src/ops/frexp.c). */
static PyObject *f_frexp(PyObject *m, PyObject *a)
{
    NgArray ta, mant, expo;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    NgStatus st = ng_op_frexp(&ta, &mant, &expo);
    ng_array_release(&ta);
    if (st != NG_OK)
        return ngpy_raise(st);
    PyObject *x = ngpy_wrap(&mant);
    if (!x) {
        ng_array_release(&expo);
        return NULL;
    }
    PyObject *y = ngpy_wrap(&expo);
    if (!y) {
        Py_DECREF(x);
        return NULL;
    }
    return Py_BuildValue("(NN)", x, y);
}

/* correlate(a, v, start, length, dtype): the direct sum of src/ops/correlate.c. */
static PyObject *f_correlate(PyObject *m, PyObject *args)
{
    PyObject *a, *v, *dto;
    long long start, len;
    if (!PyArg_ParseTuple(args, "OOLLO:correlate", &a, &v, &start, &len, &dto))
        return NULL;
    NgDType dt;
    if (ngpy_dtype(dto, &dt) < 0)
        return NULL;
    NgArray ta, tv, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    if (ngpy_to_array(v, NG_NODTYPE, &tv) < 0) {
        ng_array_release(&ta);
        return NULL;
    }
    NgStatus st = ng_op_correlate(&ta, &tv, start, len, dt, &out);
    ng_array_release(&tv);
    return finish(st, &ta, &out);
}

PyMethodDef ngpy_manip_functions[] = {
    {"correlate", f_correlate, METH_VARARGS, "correlate(a, v, start, length, dtype): out[i] = sum_k a[i+start+k] v[k]."},
    {"flip", f_flip, METH_VARARGS, "flip(a, axes): reversed along axes (a view)."},
    {"diagonal", f_diagonal, METH_VARARGS, "diagonal(a, offset, axis1, axis2): a view."},
    {"roll", f_roll, METH_VARARGS, "roll(a, shifts, axes)."},
    {"tile", f_tile, METH_VARARGS, "tile(a, reps)."},
    {"repeat", f_repeat, METH_VARARGS, "repeat(a, repeats, axis)."},
    {"tri", f_tri, METH_VARARGS, "tri(a, k, upper): tril or triu."},
    {"pad", f_pad, METH_VARARGS, "pad(a, before, after, mode, values)."},
    {"nonzero", f_nonzero, METH_O, "nonzero(a): (ndim, count) int64 coordinates."},
    {"take", f_take, METH_VARARGS, "take(a, indices, axis, mode)."},
    {"frexp", f_frexp, METH_O, "frexp(a): (mantissa, int32 exponent) of a float array, one kernel."},
    {"packbits", f_packbits, METH_VARARGS, "packbits(a, little): the bits along the last axis, eight to a uint8."},
    {"unpackbits", f_unpackbits, METH_VARARGS, "unpackbits(a, little): each uint8 along the last axis as eight 0/1 uint8."},
    {NULL},
};
