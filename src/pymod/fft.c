/* numgpu._core: the discrete Fourier transforms. NumPy's keyword handling,
 * norm factors and the n-d compositions live in python/numgpu/fft.py. */
#include "pymod.h"

/* fft(a, axis, n, kind, inverse, conj, scale): ng_op_fft. */
static PyObject *f_fft(PyObject *m, PyObject *args)
{
    PyObject *a;
    int axis, kind, inverse, conj;
    long long n;
    double scale;
    if (!PyArg_ParseTuple(args, "OiLippd:fft", &a, &axis, &n, &kind, &inverse, &conj, &scale))
        return NULL;
    if (kind < NG_FFT_C2C || kind > NG_FFT_C2R)
        return PyErr_Format(PyExc_ValueError, "fft: bad kind %d", kind);
    NgArray ta, out;
    if (ngpy_to_array(a, NG_NODTYPE, &ta) < 0)
        return NULL;
    NgStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = ng_op_fft(&ta, axis, n, (NgFftKind)kind, inverse, conj, scale, &out);
    Py_END_ALLOW_THREADS
    ng_array_release(&ta);
    return st == NG_OK ? ngpy_wrap(&out) : ngpy_raise(st);
}

PyMethodDef ngpy_fft_functions[] = {
    {"fft", f_fft, METH_VARARGS,
     "fft(a, axis, n, kind, inverse, conj, scale): the n-point DFT along axis (kind 0: c2c, 1: r2c, 2: c2r)."},
    {NULL},
};
