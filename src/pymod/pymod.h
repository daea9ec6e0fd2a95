/* The CPython binding numgpu._core: the only C that includes Python.h.
 * It converts Python objects to C operands, calls the ops, and turns
 * NgStatus into exceptions. No element loops and no kernels here. */
#ifndef NUMGPU_PYMOD_H
#define NUMGPU_PYMOD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <numgpu/numgpu.h>
#include <numgpu/ops.h>

typedef struct NgPyArray {
    PyObject_HEAD
    NgArray arr;              /* the view; holds one buffer reference */
    PyObject *weakreflist;    /* weak reference support */
    Py_ssize_t exports;       /* buffer-protocol views of its memory alive (NumPy arrays on cpu) */
    bool scalar;              /* a 0-d result standing for NumPy's scalar: x += 1 rebinds (ndarray.c) */
    PyObject *base;           /* the array owning the buffer (NgBuffer.owner) when this one views it:
                                 x.base, held as NumPy's views hold theirs; NULL for the owner */
    bool readonly;            /* NumPy's flags.writeable False: every write into it raises ValueError; views
                                 made of it are read-only too (ngpy_wrap_from) */
} NgPyArray;

/* Module state shared by the binding's files (one interpreter). */
typedef struct NgPyState {
    PyTypeObject *ndarray_type;  /* numgpu.ndarray */
    PyObject *numpy;             /* the numpy module */
    PyObject *np_ndarray;        /* numpy.ndarray */
    PyObject *np_asarray;        /* numpy.asarray (looked up once: conversions are common calls) */
    PyObject *np_dtype;          /* numpy.dtype */
    PyObject *np_generic;        /* numpy.generic (NumPy scalars) */
    PyObject *np_integer, *np_floating, *np_bool; /* numpy.integer, numpy.floating, numpy.bool */
    PyObject *CompileError;          /* numgpu.CompileError */
    PyObject *DeviceError;           /* numgpu.DeviceError */
    PyObject *OutOfMemoryError;      /* numgpu.OutOfMemoryError */
    PyObject *UnsupportedDtypeError; /* numgpu.UnsupportedDtypeError (a TypeError) */
    PyObject *AxisError;         /* numpy.exceptions.AxisError */
    NgDevice *device;            /* current default device (NULL until first use) */
    bool strict;                 /* NUMGPU_STRICT: implicit transfers are errors */
    bool float32;                /* precision policy: float64 data and defaults become float32 */
    bool uploaded_readonly;      /* the host memory of the last upload was read-only (asarray's flag) */
    bool numpy_scalars;          /* results NumPy gives as scalars (and elements) are NumPy's scalars
                                    for the program (numgpu run: config(scalars="numpy")) */
    PyObject *package_dir;       /* numgpu's folder (str, with the separator): its own code's frames */
    PyObject *wrappers;          /* code objects of Python wrappers between a program and numgpu (a set,
                                    _fallback.WRAPPERS): frames "called by numgpu?" looks through */
    PyObject *subclass_hook;     /* _subclass.rewrap(r, like) (NULL until numgpu's import sets it) */
} NgPyState;

extern NgPyState ngpy;

/* Whether v's type overrides NumPy's protocols (__array_ufunc__ or __array_function__ other than
 * numpy.ndarray's, None included: pandas' Series/DataFrame/Index, xarray, dask): NumPy hands a call
 * with such an argument to it (NEP 13/18), so numgpu runs NumPy's function. False for numgpu's
 * arrays and NumPy's scalars. Costs two lookups in CPython's method cache; no error. */
bool ngpy_overrides_numpy(PyObject *v);

/* Sets the Python exception for a failed NgStatus; returns NULL. */
PyObject *ngpy_raise(NgStatus st);
/* Wraps an NgArray (taking over its buffer reference) in a new ndarray (a 0-d one is NumPy's
 * 0-d array: made as an array, or a view). */
PyObject *ngpy_wrap(NgArray *a);
/* The same as an instance of type, numgpu.ndarray or a Python subclass of it. */
PyObject *ngpy_wrap_type(NgArray *a, PyTypeObject *type);
/* x's memory as an instance of cls (a Python subclass of numgpu.ndarray), its
 * __array_finalize__(parent) called: how results of operations on subclass instances keep their type. */
PyObject *ngpy_subclass_view(PyObject *x, PyObject *cls, PyObject *parent);
/* r (a new reference, or NULL), the result of an operator or indexing of a (and b): where either is
 * an instance of a Python subclass, r as that subclass (_subclass.rewrap, set by
 * _core.set_subclass_hook); r itself otherwise (a pointer test for numgpu's own arrays). */
PyObject *ngpy_keep_subclass(PyObject *r, PyObject *a, PyObject *b);
/* ngpy_wrap for a computed result: with `scalar`, a 0-d one stands for NumPy's scalar
 * (NgPyArray.scalar), as NumPy's operators, ufuncs, reductions and indexing give scalars. */
PyObject *ngpy_wrap_result(NgArray *a, bool scalar);
/* ngpy_wrap for a result of an operation on `from` that may view its memory: a view of a read-only
 * array is read-only, as NumPy's. */
PyObject *ngpy_wrap_from(NgArray *a, PyObject *from);
/* 0 when o may be written into; -1 with NumPy's ValueError "<what> is read-only" for a read-only
 * numgpu array ("assignment destination", "output array", ...). */
int ngpy_check_writeable(PyObject *o, const char *what);
/* arr: a view of host memory v exports through the buffer protocol (a NumPy array), on the
 * host-visible device dev, no copy (the buffer released when the last array of it dies). 0 when
 * made; 1 when it cannot be (a read-only buffer where `writable` asks for a writable one, a dtype
 * numgpu lacks, byte-swapped or misaligned data): nothing done, no error; -1 with a Python error. */
int ngpy_wrap_host(PyObject *v, NgDevice *dev, bool writable, NgArray *arr);
/* A numgpu array viewing the memory of obj (a NumPy array), no copy, on the current device when
 * it is in host memory (cpu); None where it cannot be (a GPU, a dtype numgpu lacks, byte-swapped
 * data): the caller keeps NumPy's array (_core.host_view). */
PyObject *ngpy_host_view(PyObject *obj);
/* NumPy's scalar of the 0-d array `a`: its bytes read in place in host memory, else downloaded. */
PyObject *ngpy_numpy_scalar(const NgArray *a);
/* a's elements as nested Python lists (NumPy's tolist): read in place in host memory, else downloaded. */
PyObject *ngpy_tolist(const NgArray *a);
/* o takes over the memory of the temporary it views when nothing else holds that one (x._own()):
 * a 0-d result of a view stands for a scalar of its own. */
void ngpy_own(NgPyArray *o);
/* True when the Python code calling into C (past the Python wrappers of _fallback.WRAPPERS) is
 * numgpu's own (its package's files): its internals keep 0-d device arrays whatever the scalars
 * policy (they reshape, .get() and pass them on). */
bool ngpy_called_by_numgpu(void);
/* o gives up its buffer's ownership and its base (dealloc); o takes a's view instead of its own
 * (a's reference moves to o), owning its buffer unless another array does. */
void ngpy_disown(NgPyArray *o);
void ngpy_become(NgPyArray *o, NgArray *a);
/* The default float dtype: float64, or float32 under the precision policy. */
static inline NgDType ngpy_float_default(void) { return ngpy.float32 ? NG_FLOAT32 : NG_FLOAT64; }
static inline bool ngpy_check(PyObject *o) { return PyObject_TypeCheck(o, ngpy.ndarray_type); }
static inline NgArray *ngpy_arr(PyObject *o) { return &((NgPyArray *)o)->arr; }
/* The current device (opening the default one on first use). */
NgDevice *ngpy_device(void);

/* NumPy's floating-point error modes (src/pymod/fpe.c). ngpy_fpe_begin, before an op: the
 * categories NumPy's errstate does not ignore become the ops' checks, their records named `name`
 * (NULL: each op's own; casts keep "cast") (-1 with an exception when the state cannot be read).
 * ngpy_fpe_end, after it: what the op's kernels saw handled as NumPy does (warn, raise, call,
 * print, log); -1 with the exception set ('raise'). ngpy_fpe_result: end, and result passed on,
 * or dropped (NULL) when end raised; a NULL result is passed on (the checks cleared). */
int ngpy_fpe_begin(const char *name);
int ngpy_fpe_end(void);
/* After a download or sync: the warnings of GPU kernels whose flag words it read (deferred
 * records; the others are left for their op's ngpy_fpe_end); -1 with an exception set. */
int ngpy_fpe_deferred(void);
PyObject *ngpy_fpe_result(PyObject *result);
/* NumPy's "overflow encountered in reduce" / "invalid value encountered in reduce" of a float
 * sum, prod or mean (op an NgReduceOp), judged after it from values: an infinity in the result
 * where the input has none, a NaN where it has no NaN (per array, not per output element). On a
 * host device the result is read in place; on a GPU only where a category raises, calls, prints
 * or logs (a wait), not where it only warns. A mean, var or std of no elements (ddof or fewer for
 * var/std): NumPy's "invalid value"/"divide by zero" encountered in "divide" or "scalar divide" of
 * the count instead. 0, or -1 with the exception set. */
int ngpy_reduce_fpe(int op, const NgArray *in, const NgArray *out, int ddof);
/* A Python float (or complex) cast to float16/float32/complex64, `to`, that becomes an infinity:
 * NumPy's "overflow encountered in cast" under the error modes (a32[0] = 1e300, np.full(n, 1e300,
 * float32)). 0, or -1 with the exception set. */
int ngpy_scalar_cast_fpe(const NgOperand *s, NgDType to);
/* The same for a binary op of an array and a Python number (NEP 50: the number takes the array's
 * dtype: float32 + 1e40). */
int ngpy_weak_scalar_fpe(const NgOperand *x, const NgOperand *y);

/* Python object -> operand. Python bool/int/float become weak scalars;
 * numgpu arrays are borrowed; anything else array-like is converted with
 * numpy.asarray and uploaded into *tmp (release it after use). */
int ngpy_operand(PyObject *o, NgOperand *op, NgArray *tmp);
/* Any array-like -> numgpu array (new reference to *out). dtype may be NG_NODTYPE. */
int ngpy_to_array(PyObject *o, NgDType dtype, NgArray *out);
/* None/type/str/np.dtype -> NgDType (NG_NODTYPE for None). -1 on error. */
int ngpy_dtype(PyObject *o, NgDType *out);
/* numpy.dtype object for an NgDType (new reference). */
PyObject *ngpy_dtype_object(NgDType t);
NgDType ngpy_dtype_of_format(const char *fmt, Py_ssize_t itemsize);
/* ComplexWarning (NumPy's text) when a cast from `from` to `to` drops imaginary
 * parts (to a real float or an integer); 0 otherwise. -1 with an exception when warnings are errors. */
int ngpy_warn_complex_cast(NgDType from, NgDType to);
/* int or sequence of ints -> shape. -1 on error. */
int ngpy_shape(PyObject *o, int *ndim, int64_t *shape);
/* None / int / tuple of ints -> axes; *naxes = -1 for None. -1 on error. */
int ngpy_axes(PyObject *o, int *naxes, int *axes);
/* NumPy's own RuntimeWarnings of mean ("Mean of empty slice": no elements reduced) and var/std
 * ("Degrees of freedom <= 0 for slice": ddof >= the elements reduced), given before the reduction
 * op runs over `naxes` axes of a (as ngpy_axes gives them; axes out of range: no warning, the op's
 * error follows). 0 otherwise; -1 with an exception when warnings are errors. */
int ngpy_reduce_warn(int op, const NgArray *a, int naxes, const int *axes, int ddof);
/* Downloads a into a new numpy.ndarray. */
PyObject *ngpy_to_numpy(const NgArray *a);
/* Python index expression -> NgIndex items; arrays in it are kept in tmps
 * (release *ntmp of them after use). */
int ngpy_index(PyObject *key, int *n, NgIndex *items, NgArray *tmps, int *ntmp);

/* Records an implicit transfer of `what` (NumPy asked for device data, or an
 * op was given host data); -1 with an exception under NUMGPU_STRICT. */
int ngpy_implicit(bool upload, PyObject *what);

/* The jit's functions (jit.c), added to the module at init. */
extern PyMethodDef ngpy_jit_functions[];
/* Sorting, searching, scans and histograms (sort.c). */
extern PyMethodDef ngpy_sort_functions[];
/* Gathering, scattering and rearranging: take, put, nonzero, roll, pad, tril... (manip.c). */
extern PyMethodDef ngpy_manip_functions[];
/* The device random generator (random.c). */
extern PyMethodDef ngpy_random_functions[];
/* DLPack export and import (dlpack.c). */
extern PyMethodDef ngpy_dlpack_functions[];
/* Linear algebra by generated kernels or the vendor LAPACK (lapack.c). */
extern PyMethodDef ngpy_lapack_functions[];
/* The discrete Fourier transforms (fft.c). */
extern PyMethodDef ngpy_fft_functions[];

/* numgpu run's report: report_setup (report.c). */
extern PyMethodDef ngpy_report_functions[];
/* Adds numgpu._core.Counted, numgpu run's counting wrapper, to the module (report.c); -1 on error. */
int ngpy_report_add_types(PyObject *module);
/* What a C wrapper of a function (Counted, Guard) shares with a Python function: bound as a method
 * when it is a class's attribute, a __dict__ (__name__, __doc__, __wrapped__ ...), pickled by its
 * __module__ and __qualname__ (report.c). */
PyObject *ngpy_wrapper_get(PyObject *self, PyObject *obj, PyObject *type);
extern PyGetSetDef ngpy_wrapper_getset[];
extern PyMethodDef ngpy_wrapper_methods[];
/* numgpu's functions standing in for NumPy's (_fallback.guarded): guard_setup (guard.c). */
extern PyMethodDef ngpy_guard_functions[];
/* Adds numgpu._core.Guard to the module (guard.c); -1 on error. */
int ngpy_guard_add_types(PyObject *module);

/* Type creation (ndarray.c). */
PyTypeObject *ngpy_make_ndarray_type(PyObject *module);

#endif
