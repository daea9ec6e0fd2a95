"""numgpu.nditer: NumPy's nditer over numgpu arrays, on every device.

NumPy's iterator works on host memory. On cpu a numgpu array is host memory that NumPy sees
through __array__, so NumPy's own nditer is returned and nothing else happens. An operand on a
GPU device (opencl, cuda) is iterated as a host copy laid out as the device array is in memory
(its axes in the same stride order, reversed axes reversed, broadcast axes broadcast), so
order='K' visits elements in the order NumPy would; operands the iterator may write
(op_flags readwrite / writeonly) are copied back into the numgpu arrays:
    - when the iterator is closed: `with` exit, close(), and when it is garbage collected;
    - when iteration runs out (for ... in it, or iternext() returning False), as writes
      through NumPy's own iterator are visible then without a context manager;
    - before `operands` hands back the numgpu arrays.
Writes made since the last of these are not on the device yet (a loop left by `break` without a
context manager or close(): the next of these copies them).
"""
import numpy as _np

from ._core import ndarray


def _device_operand(x):
    return isinstance(x, ndarray) and x.device != "cpu"


def _host_like(x):
    """A host copy of numgpu array x, laid out in memory as x is (stride order, sign, broadcast)."""
    shape, strides = x.shape, x.strides
    nd = len(shape)
    bcast = [i for i in range(nd) if strides[i] == 0 and shape[i] > 1]
    src = x[tuple(slice(0, 1) if i in bcast else slice(None) for i in range(nd))] if bcast else x
    sstr = src.strides
    perm = sorted(range(nd), key=lambda i: -abs(sstr[i]))      # (stable: ties keep C order, as NumPy)
    base = _np.empty([src.shape[p] for p in perm], dtype=x.dtype)
    inv = [0] * nd
    for k, p in enumerate(perm):
        inv[p] = k
    view = base.transpose(inv)
    view = view[tuple(slice(None, None, -1) if sstr[i] < 0 else slice(None) for i in range(nd))]
    view[...] = src.get()
    if bcast:
        view = _np.broadcast_to(view, shape)
    elif not x._writeable():
        view.flags.writeable = False
    return view


def _written(op_flags, n):
    """Which of n operands op_flags lets the iterator write (NumPy checks the flags themselves)."""
    if op_flags is None:
        return [False] * n
    flags = list(op_flags)
    if not flags or isinstance(flags[0], str):
        flags = [flags] * n
    out = []
    for i in range(n):
        f = flags[i] if i < len(flags) else ()
        f = [f] if isinstance(f, str) else f
        out.append(any(s in ("readwrite", "writeonly") for s in f))
    return out


class _NditerType(type):
    """numgpu.nditer's type: NumPy's own iterators (those numgpu hands back on cpu) are instances."""

    def __instancecheck__(cls, obj):
        return type.__instancecheck__(cls, obj) or isinstance(obj, _np.nditer)


class nditer(metaclass=_NditerType):
    """NumPy's nditer (same arguments, same iteration) over numgpu arrays on any device; see the
    module's doc for when writes reach a GPU array."""

    __slots__ = ("_it", "_devs", "_hosts", "_written", "_copies", "_synced", "__weakref__")

    def __new__(cls, op, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe",
                op_axes=None, itershape=None, buffersize=0):
        many = isinstance(op, (list, tuple))
        ops = list(op) if many else [op]
        devs = [i for i, x in enumerate(ops) if _device_operand(x)]
        if not devs:
            return _np.nditer(op, flags, op_flags, op_dtypes, order, casting, op_axes, itershape, buffersize)
        written = _written(op_flags, len(ops))
        hosts = {}
        for i in devs:
            hosts[i] = ops[i] = _host_like(ops[i])
        it = _np.nditer(type(op)(ops) if many else ops[0], flags, op_flags, op_dtypes, order, casting,
                        op_axes, itershape, buffersize)
        # NumPy's own copies (buffers, casts) reach the host copies only when its iterator closes
        fl = [op_flags] if isinstance(op_flags, str) else list(op_flags or ())
        copies = (op_dtypes is not None or "buffered" in (flags or ())
                  or any("updateifcopy" in ([f] if isinstance(f, str) else f) for f in fl))
        return cls._make(it, {i: op[i] if many else op for i in devs}, hosts, written, copies)

    @classmethod
    def _make(cls, it, devs, hosts, written, copies):
        self = object.__new__(cls)
        self._it, self._devs, self._hosts, self._written, self._copies = it, devs, hosts, written, copies
        self._synced = True
        return self

    def _write_back(self):
        """Copy the host copies of written operands into their numgpu arrays."""
        if not self._synced:
            self._synced = True
            for i, dev in self._devs.items():
                if self._written[i] if i < len(self._written) else False:
                    dev[...] = self._hosts[i]

    # iteration
    def __iter__(self):
        return self

    def __next__(self):
        self._synced = False
        try:
            return next(self._it)
        except StopIteration:
            self._write_back()
            raise

    def iternext(self):
        self._synced = False
        more = self._it.iternext()
        if not more:
            self._write_back()
        return more

    def reset(self):
        self._write_back()
        self._it.reset()

    def __len__(self):
        return len(self._it)

    def __getitem__(self, i):
        self._synced = False       # (a view the program may write through)
        return self._it[i]

    def __setitem__(self, i, value):
        self._synced = False
        self._it[i] = value

    # closing
    def __enter__(self):
        self._it.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            return self._it.__exit__(*exc)
        finally:
            self._closed()

    def close(self):
        self._it.close()
        self._closed()

    def _closed(self):
        self._synced &= not self._copies   # (NumPy's own write-back into the host copies: at its close)
        self._copies = False               # (nothing pending from NumPy any more: none at gc either)
        self._write_back()

    def __del__(self):
        try:
            it = self._it
        except AttributeError:
            return
        if not self._synced or self._copies:
            self._synced = False
            del self._it      # (NumPy's pending writes reach the host copies first)
            del it
            self._write_back()

    def copy(self):
        self._synced = False
        twin = nditer._make(self._it.copy(), self._devs, self._hosts, self._written, self._copies)
        twin._synced = False
        return twin

    @property
    def operands(self):
        """The operands: the numgpu arrays given (with the writes so far), NumPy's for the others."""
        ops = list(self._it.operands)   # (NumPy's error once closed)
        self._write_back()
        for i, dev in self._devs.items():
            ops[i] = dev
        return tuple(ops)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "value" or name == "itviews":
            self._synced = False   # (views the program may write through)
        return getattr(self._it, name)

    def __repr__(self):
        return repr(self._it)
