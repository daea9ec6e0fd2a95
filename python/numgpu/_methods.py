"""numgpu.ndarray methods and attributes written in Python over the C type (src/pymod/ndarray.c).

What NumPy programs do with arrays beyond arithmetic, kept on the device:

    __reduce__            pickle: the data as NumPy's array, unpickled onto the current device
    __copy__, __deepcopy__ copies on the same device
    __contains__          `value in x`: NumPy's (x == value).any()
    flat                  a flat view: x.flat[i] reads, x.flat[k] = v writes into x (NumPy's
                          flatiter; its values repeated where fewer are given)
    resize                in place, as NumPy's: the array takes a new buffer (zeros past the
                          old data); refused while other arrays share the buffer (refcheck) or
                          a NumPy array views its memory
    flags                 NumPy's flag names from the strides (C/F contiguity); `writeable` read
                          from and set on the array (x._writeable: writes into a read-only array
                          raise NumPy's ValueError)

install() puts them on the type (once, from _protocols.install).
"""
import math as _math
import operator as _operator

import numpy as _np

from ._core import ndarray


def _numgpu():
    import numgpu
    return numgpu


# ---- pickling, copies, membership ----------------------------------------------------------

def _rebuild(host):
    """An unpickled numgpu array: its data uploaded to the current device."""
    return _numgpu().asarray(host)


def _rebuild_scalar(host):
    """An unpickled 0-d result standing for NumPy's scalar (x += 1 rebinds it)."""
    from . import _fallback
    if _fallback.numpy_scalars[0]:     # (config(scalars="numpy"): the program gets NumPy's scalar)
        return host[()]
    r = _rebuild(host)
    r._scalar = True
    return r


def _reduce(self):
    """pickle: the data as NumPy's array (what a process without this device can read); under
    numgpu run NumPy's own pickle of it, which loads where numgpu is not installed. A 0-d result
    standing for NumPy's scalar stays one: NumPy's scalar under numgpu run (a worker's np.sum in
    Pool.map gives the script NumPy's scalar), a marked 0-d array otherwise."""
    from ._run import running_script
    host = self.get()
    scalar = self.ndim == 0 and self._scalar
    if running_script():
        return (host[()] if scalar else host).__reduce__()
    return (_rebuild_scalar if scalar else _rebuild, (host,))


def _copy(self, memo=None):
    """copy.copy and copy.deepcopy: a copy on the same device (numgpu arrays hold numbers only)."""
    return self.copy()


def _contains(self, value):
    """`value in x`: NumPy's (x == value).any() (False where the two do not compare: a str)."""
    eq = self == value
    return bool(eq.any()) if hasattr(eq, "any") else bool(eq)


# ---- contiguity and flags ----------------------------------------------------------------

def contiguous(shape, strides, itemsize, fortran=False):
    """NumPy's rule: the strides of the axes longer than 1 are those of a packed array, in C
    order (last axis fastest) or Fortran's. Empty arrays are contiguous both ways."""
    if 0 in shape:
        return True
    step = itemsize
    axes = range(len(shape)) if fortran else range(len(shape) - 1, -1, -1)
    for d in axes:
        if shape[d] != 1:
            if strides[d] != step:
                return False
            step *= shape[d]
    return True


class flagsobj:
    """x.flags: NumPy's flag names for a numgpu array."""

    _KEYS = {"C": "c_contiguous", "C_CONTIGUOUS": "c_contiguous", "CONTIGUOUS": "c_contiguous",
             "F": "f_contiguous", "F_CONTIGUOUS": "f_contiguous", "FORTRAN": "f_contiguous",
             "W": "writeable", "WRITEABLE": "writeable", "A": "aligned", "ALIGNED": "aligned",
             "O": "owndata", "OWNDATA": "owndata", "X": "writebackifcopy", "WRITEBACKIFCOPY": "writebackifcopy",
             "FNC": "fnc", "FORC": "forc", "B": "behaved", "BEHAVED": "behaved", "CA": "carray",
             "CARRAY": "carray", "FA": "farray", "FARRAY": "farray"}

    def __init__(self, a):
        object.__setattr__(self, "_a", a)
        itemsize = a.itemsize
        self.c_contiguous = self.contiguous = contiguous(a.shape, a.strides, itemsize)
        self.f_contiguous = self.fortran = contiguous(a.shape, a.strides, itemsize, True)
        self.owndata = a.base is None
        self.writeable = a._writeable()
        self.aligned = True
        self.writebackifcopy = False
        self.fnc = self.f_contiguous and not self.c_contiguous
        self.forc = self.f_contiguous or self.c_contiguous
        self.behaved = True
        self.carray, self.farray = self.c_contiguous, self.fnc

    def __getitem__(self, key):
        name = self._KEYS.get(key)
        if name is None:
            raise KeyError("Unknown flag")
        return getattr(self, name)

    def __setitem__(self, key, value):
        if key not in self._KEYS:
            raise KeyError("Unknown flag")
        self.__setattr__(self._KEYS[key], value)

    def __setattr__(self, name, value):
        if name == "writeable" and "writeable" in self.__dict__:
            self._a._writeable(bool(value))     # (NumPy's ValueError re-enabling a read-only base's view)
            object.__setattr__(self, name, self._a._writeable())
            return
        if name in self.__dict__ and name != "writeable":
            raise AttributeError("attribute %r of 'numpy.flagsobj' objects is not writable" % name)
        object.__setattr__(self, name, value)

    def __repr__(self):
        return "\n".join("  %s : %s" % (k, getattr(self, v)) for k, v in (
            ("C_CONTIGUOUS", "c_contiguous"), ("F_CONTIGUOUS", "f_contiguous"), ("OWNDATA", "owndata"),
            ("WRITEABLE", "writeable"), ("ALIGNED", "aligned"), ("WRITEBACKIFCOPY", "writebackifcopy"))) + "\n"


def _flags(self):
    return flagsobj(self)


def _setflags(self, write=None, align=None, uic=None):
    """NumPy's setflags: `write` sets flags.writeable (numgpu arrays are always aligned)."""
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        self._writeable(bool(write))


# ---- flat ------------------------------------------------------------------------------------

class flatiter:
    """x.flat: the array's elements in C order, read as copies, written through into x."""

    def __init__(self, a):
        self.base = a
        self.index = 0
        self._flat = None

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.base.size:
            raise StopIteration
        if self._flat is None:
            self._flat = self.base.reshape(-1)   # (a view where x is C-contiguous: reads stay live)
        self.index += 1
        return self._flat[self.index - 1]

    @property
    def coords(self):
        return tuple(int(i) for i in _np.unravel_index(self.index, self.base.shape))

    def __array__(self, dtype=None, copy=None):
        h = self.base.get().reshape(-1)
        return h if dtype is None else h.astype(dtype)

    def copy(self):
        return self.base.flatten()

    def __eq__(self, other):
        return self.base.reshape(-1) == other

    def __ne__(self, other):
        return self.base.reshape(-1) != other

    def __getitem__(self, key):
        r = self.base.reshape(-1)[key]
        return r.copy() if isinstance(key, (slice, type(Ellipsis), tuple)) else r   # (NumPy's: a copy)

    def __setitem__(self, key, value):
        a = self.base
        if not a._writeable():
            raise ValueError("underlying array is read-only")
        c = contiguous(a.shape, a.strides, a.itemsize)
        flat = a.reshape(-1) if c else a.flatten()
        value = _numgpu().asarray(value).reshape(-1)
        if not value.size:
            return
        target = flat[key].shape
        n = _math.prod(target)
        if value.size != n:
            value = value[_numgpu().arange(n) % value.size]   # NumPy's flatiter repeats the values
        flat[key] = value.reshape(target)
        if not c:
            a[...] = flat.reshape(a.shape)


def _flat(self):
    return flatiter(self)


def _set_flat(self, value):
    flatiter(self)[...] = value


# ---- resize in place -------------------------------------------------------------------------

def _resize(self, *new_shape, refcheck=True):
    """NumPy's ndarray.resize: self takes new_shape in place, its data in C order kept at the
    start and zeros after (np.resize repeats instead)."""
    if not new_shape or new_shape == (None,):
        return None
    shape = new_shape[0] if len(new_shape) == 1 and not isinstance(new_shape[0], (int, _np.integer)) \
        else new_shape
    shape = tuple(_operator.index(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions not allowed")
    if not contiguous(self.shape, self.strides, self.itemsize):
        raise ValueError("resize only works on single-segment arrays")
    if _math.prod(shape) == self.size:     # (NumPy reshapes in place, checking nothing: a view stays one)
        self._become(self.reshape(shape))
        return None
    if self.base is not None:            # (a view: NumPy refuses, whatever refcheck)
        raise ValueError("cannot resize this array: it does not own its data")
    if refcheck and self._buffer_refs[0] > 1:
        raise ValueError("cannot resize an array that references or is referenced\nby another object in this way.\n"
                         "Use the np.resize function to get a new resized copy or\n set refcheck=False to disable "
                         "this check")
    new = _numgpu().zeros(shape, self.dtype)
    keep = min(_math.prod(shape), self.size)
    if keep:
        new.reshape(-1)[:keep] = self.reshape(-1)[:keep]
    self._become(new)      # (ValueError while a NumPy array views self's memory)
    return None


# ---- host memory for other libraries -----------------------------------------------------------

def _array_interface(self):
    """NumPy's __array_interface__ (Pillow's Image.fromarray reads it): the memory of an array on
    the cpu device, no copy. A GPU array has no host memory: AttributeError, so that NumPy takes
    __array__ (a download; copy=False raises there) rather than a copy it would think no copy."""
    if self.device != "cpu":
        raise AttributeError("__array_interface__: an array on %s has no host memory (use .get())" % self.device)
    return _np.asarray(self).__array_interface__


def _no_host_memory(self, what):
    """The error of an attribute that hands out host memory (x.ctypes, x.data) asked of a GPU array:
    C code or a memoryview given a downloaded copy would write into the copy, and the copy (freed
    when `x.ctypes.data` has been read) is not memory the program could keep a pointer to."""
    return BufferError("%s: an array on %s has no host memory for C code or a memoryview (a copy's would "
                       "lose what is written through it); h = x.get() is NumPy's copy: use h there, then "
                       "x[...] = h to keep what was written" % (what, self.device))


def _ctypes(self):
    """NumPy's x.ctypes, of the array's own memory on the cpu device: C code writing through
    `x.ctypes.data` or `x.ctypes.data_as(...)` changes x (the object keeps NumPy's view of x, which
    keeps x, alive, as NumPy's keeps its array). A GPU array: BufferError (_no_host_memory)."""
    if self.device != "cpu":
        raise _no_host_memory(self, "x.ctypes")
    return _np.asarray(self).ctypes


def _data(self):
    """NumPy's x.data: a memoryview of the array's own memory on the cpu device (writes reach x;
    read-only where x is). A GPU array: BufferError, as memoryview(x) (_no_host_memory)."""
    if self.device != "cpu":
        raise _no_host_memory(self, "x.data")
    return _np.asarray(self).data


def _host(self):
    """The array's elements in host memory: NumPy's view of a cpu array's memory, a GPU's download."""
    return _np.asarray(self) if self.device == "cpu" else self.get()


def _bytes(self):
    """bytes(x): the elements' bytes in C order (NumPy's, through its buffer), on every device."""
    return _host(self).tobytes()


def _tobytes(self, order="C"):
    """NumPy's tobytes: the elements' bytes in `order` ('C', 'F', 'A', 'K'), on every device (bytes
    live on the host: no fallback)."""
    return _host(self).tobytes(order)


def _tofile(self, fid, sep="", format="%s"):
    """NumPy's tofile: the elements written to a file (a name, a path or an open file), as binary
    or as text with `sep`, on every device."""
    return _host(self).tofile(fid, sep, format)


def install():
    ndarray.__array_interface__ = property(_array_interface, doc=_array_interface.__doc__)
    ndarray.ctypes = property(_ctypes, doc=_ctypes.__doc__)
    ndarray.data = property(_data, doc=_data.__doc__)
    ndarray.__bytes__ = _bytes
    ndarray.tobytes = _tobytes
    ndarray.tofile = _tofile
    ndarray.__reduce__ = _reduce
    ndarray.__copy__ = ndarray.__deepcopy__ = _copy
    ndarray.__contains__ = _contains
    ndarray.flags = property(_flags, doc=flagsobj.__doc__)
    ndarray.setflags = _setflags
    ndarray.flat = property(_flat, _set_flat, doc=flatiter.__doc__)
    ndarray.resize = _resize
