/* numgpu._core: the device random generator (Philox4x32-10, counter-based).
 *
 * The stream's state (a 128-bit counter and a 64-bit key) lives in the
 * Python Philox object as two ints; each function here takes them, runs
 * one op of src/ops/random.c into an output array the caller allocated, and
 * returns the advanced counter. Argument checks with NumPy's messages are
 * in python/numgpu/random.py. */
#include "pymod.h"

/* Python int in [0, 2^128) -> its low and high 64 bits (the caller checked the range). */
static int get_u128(PyObject *o, uint64_t out[2])
{
    out[0] = PyLong_AsUnsignedLongLongMask(o);
    if (PyErr_Occurred())
        return -1;
    PyObject *sixty_four = PyLong_FromLong(64);
    PyObject *hi = sixty_four ? PyNumber_Rshift(o, sixty_four) : NULL;
    Py_XDECREF(sixty_four);
    if (!hi)
        return -1;
    out[1] = PyLong_AsUnsignedLongLongMask(hi);
    Py_DECREF(hi);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *from_u128(const uint64_t v[2])
{
    PyObject *hi = PyLong_FromUnsignedLongLong(v[1]), *lo = PyLong_FromUnsignedLongLong(v[0]);
    PyObject *sixty_four = PyLong_FromLong(64), *shifted = NULL, *res = NULL;
    if (hi && lo && sixty_four && (shifted = PyNumber_Lshift(hi, sixty_four)))
        res = PyNumber_Or(shifted, lo);
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(sixty_four);
    Py_XDECREF(shifted);
    return res;
}

/* (counter, key) -> NgPhilox. */
static int stream(PyObject *counter, PyObject *key, NgPhilox *g)
{
    uint64_t k;
    if (get_u128(counter, g->counter) < 0)
        return -1;
    k = PyLong_AsUnsignedLongLongMask(key);
    if (PyErr_Occurred())
        return -1;
    g->key[0] = (uint32_t)k;
    g->key[1] = (uint32_t)(k >> 32);
    return 0;
}

static int out_array(PyObject *o, const char *fn)
{
    if (ngpy_check(o))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s: out must be a numgpu.ndarray", fn);
    return -1;
}

/* philox4x32(counter, key) -> the block's four words (host reference). */
static PyObject *f_philox4x32(PyObject *m, PyObject *args)
{
    PyObject *counter, *key;
    if (!PyArg_ParseTuple(args, "OO:philox4x32", &counter, &key))
        return NULL;
    NgPhilox g;
    if (stream(counter, key, &g) < 0)
        return NULL;
    uint32_t ctr[4] = {(uint32_t)g.counter[0], (uint32_t)(g.counter[0] >> 32), (uint32_t)g.counter[1],
                       (uint32_t)(g.counter[1] >> 32)}, w[4];
    ng_philox4x32(ctr, g.key, w);
    return Py_BuildValue("(kkkk)", (unsigned long)w[0], (unsigned long)w[1], (unsigned long)w[2], (unsigned long)w[3]);
}

/* random_fill(counter, key, dist, out, shift, scale) -> new counter */
static PyObject *f_random_fill(PyObject *m, PyObject *args)
{
    PyObject *counter, *key, *out;
    int dist;
    double shift, scale;
    if (!PyArg_ParseTuple(args, "OOiOdd:random_fill", &counter, &key, &dist, &out, &shift, &scale))
        return NULL;
    NgPhilox g;
    if (stream(counter, key, &g) < 0 || out_array(out, "random_fill") < 0)
        return NULL;
    if (dist < NG_RAND_RAW || dist > NG_RAND_EXPONENTIAL)
        return PyErr_Format(PyExc_ValueError, "random_fill: unknown distribution %d", dist);
    NgStatus st;

    st = ng_random_fill(&g, (NgRandomDist)dist, shift, scale, ngpy_arr(out));

    return st == NG_OK ? from_u128(g.counter) : ngpy_raise(st);
}

/* random_integers(counter, key, out, low, range) -> new counter; low and
 * range are taken modulo 2^64 (range 2^64 becomes 0). */
static PyObject *f_random_integers(PyObject *m, PyObject *args)
{
    PyObject *counter, *key, *out, *low_o, *range_o;
    if (!PyArg_ParseTuple(args, "OOOOO:random_integers", &counter, &key, &out, &low_o, &range_o))
        return NULL;
    NgPhilox g;
    if (stream(counter, key, &g) < 0 || out_array(out, "random_integers") < 0)
        return NULL;
    uint64_t low = PyLong_AsUnsignedLongLongMask(low_o), range = PyLong_AsUnsignedLongLongMask(range_o);
    if (PyErr_Occurred())
        return NULL;
    NgStatus st;

    st = ng_random_integers(&g, low, range, ngpy_arr(out));

    return st == NG_OK ? from_u128(g.counter) : ngpy_raise(st);
}

/* random_choice_cdf(counter, key, cdf, out) -> new counter */
static PyObject *f_random_choice_cdf(PyObject *m, PyObject *args)
{
    PyObject *counter, *key, *cdf, *out;
    if (!PyArg_ParseTuple(args, "OOOO:random_choice_cdf", &counter, &key, &cdf, &out))
        return NULL;
    NgPhilox g;
    if (stream(counter, key, &g) < 0 || out_array(out, "random_choice_cdf") < 0 ||
        out_array(cdf, "random_choice_cdf") < 0)
        return NULL;
    NgStatus st;

    st = ng_random_choice_cdf(&g, ngpy_arr(cdf), ngpy_arr(out));

    return st == NG_OK ? from_u128(g.counter) : ngpy_raise(st);
}

/* random_permutation(counter, key, n, out) -> new counter */
static PyObject *f_random_permutation(PyObject *m, PyObject *args)
{
    PyObject *counter, *key, *out;
    long long n;
    if (!PyArg_ParseTuple(args, "OOLO:random_permutation", &counter, &key, &n, &out))
        return NULL;
    NgPhilox g;
    if (stream(counter, key, &g) < 0 || out_array(out, "random_permutation") < 0)
        return NULL;
    NgStatus st;

    st = ng_random_permutation(&g, n, ngpy_arr(out));

    return st == NG_OK ? from_u128(g.counter) : ngpy_raise(st);
}

PyMethodDef ngpy_random_functions[] = {
    {"philox4x32", f_philox4x32, METH_VARARGS, "philox4x32(counter, key): Philox4x32-10 of one block, on the host."},
    {"random_fill", f_random_fill, METH_VARARGS,
     "random_fill(counter, key, dist, out, shift, scale): fill out from the Philox stream; returns the new counter."},
    {"random_integers", f_random_integers, METH_VARARGS,
     "random_integers(counter, key, out, low, range): uniform integers in [low, low + range); returns the new counter."},
    {"random_choice_cdf", f_random_choice_cdf, METH_VARARGS,
     "random_choice_cdf(counter, key, cdf, out): indices drawn by inverse CDF; returns the new counter."},
    {"random_permutation", f_random_permutation, METH_VARARGS,
     "random_permutation(counter, key, n, out): first out.size entries of a permutation of range(n)."},
    {NULL},
};
