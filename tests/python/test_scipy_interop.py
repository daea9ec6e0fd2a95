"""scipy writing into the script's numgpu arrays under `numgpu run`, compared with NumPy + scipy.

scipy's functions with output parameters (ndimage's `output=`, its distance transforms'
`distances=`/`indices=`, spatial.distance's cdist/pdist `out=`) are wrapped at the script's first
import of scipy, and as their modules are imported later (python/numgpu/_libraries.py SCIPY,
wrap_outputs, _WhenImported): a numgpu array given as the output gets what scipy wrote (on cpu
NumPy's view of its memory is written, on a GPU a host copy is copied back) and stands where scipy
returns it. Before: `label(mask, output=lab)` returned a tuple and left `lab` zeros (scipy's
isinstance test), filters left `out` zeros on a GPU, `cdist(out=D)` raised TypeError.
"""
import textwrap

import numpy as np
import pytest

import numgpu as ng
from numgpu import _core, _libraries
from helpers import same_under_numgpu_run

ndimage = pytest.importorskip("scipy.ndimage")
distance = pytest.importorskip("scipy.spatial.distance")


def device():
    return ng.get_device().split(":")[0]


def run_both(tmp_path, name, text):
    script = tmp_path / name
    script.write_text(textwrap.dedent(text))
    same_under_numgpu_run(script, "--device", device())


def test_lazy_submodules_label_gaussian_cdist_pdist(tmp_path):
    run_both(tmp_path, "s1.py", """
        import numpy as np
        import scipy                                   # submodules loaded later, when first used
        rng = np.random.default_rng(0)
        img = rng.random((16, 16))
        lab = np.zeros(img.shape, dtype=np.int32)
        n = scipy.ndimage.label(img > 0.7, output=lab)
        print("label", n, int(lab.max()), lab[:3, :6].tolist())
        out = np.zeros_like(img)
        r = scipy.ndimage.gaussian_filter(img, 1.0, output=out)
        print("gaussian", r is out, round(float(out.sum()), 9))
        o2 = np.zeros_like(img)
        scipy.ndimage.gaussian_filter(img, 1.0, 0, o2)          # output by position
        print("positional", bool(np.array_equal(o2, out)))
        D = np.zeros((4, 4))
        P = rng.random((4, 2))
        r = scipy.spatial.distance.cdist(P, P, out=D)
        print("cdist", r is D, round(float(D.sum()), 9))
        d = np.zeros(6)
        r = scipy.spatial.distance.pdist(P, "cityblock", out=d)
        print("pdist", r is d, round(float(d.sum()), 9))
        """)


def test_ndimage_outputs(tmp_path):
    run_both(tmp_path, "s2.py", """
        import numpy as np
        from scipy import ndimage
        from scipy.spatial.distance import cdist
        rng = np.random.default_rng(1)
        img = rng.random((12, 10))
        for name, args in [("uniform_filter", (3,)), ("shift", (1.5,)), ("sobel", ()), ("median_filter", (3,)),
                           ("maximum_filter", (3,)), ("laplace", ()), ("rotate", (30, (1, 0), False)),
                           ("grey_dilation", ((3, 3),)), ("spline_filter", ())]:
            o = np.zeros_like(img)
            r = getattr(ndimage, name)(img, *args, output=o)
            print(name, r is o or r is None, round(float(o.sum()), 9))
        o3 = np.zeros((8, 8))
        ndimage.zoom(rng.random((4, 4)), 2, output=o3, order=1)
        print("zoom", round(float(o3.sum()), 9))
        o4 = np.zeros((8, 8), dtype=np.float32)
        print("map_coordinates", ndimage.map_coordinates(img, np.indices((8, 8)) * 1.2, output=o4, order=1) is o4,
              round(float(o4.sum()), 5))
        mask = img > 0.4
        dist = np.zeros(img.shape)
        ind = np.zeros((2,) + img.shape, dtype=np.int32)
        print("edt", ndimage.distance_transform_edt(mask, return_indices=True, distances=dist, indices=ind), round(float(dist.sum()), 9), int(ind.sum()))
        b = np.zeros(img.shape, dtype=bool)
        print("binary_erosion", ndimage.binary_erosion(mask, output=b) is b, int(b.sum()))
        a = img.copy()
        ndimage.uniform_filter(a, 3, output=a)                # in place: input and output the same array
        print("in place", round(float(a.sum()), 9))
        big = np.zeros((24, 10))
        ndimage.uniform_filter(img, 3, output=big[::2])       # a strided view as the output
        print("view", round(float(big.sum()), 9), float(big[1].sum()))
        t = ndimage.gaussian_filter(img, 2.0, output=np.float32)   # a dtype, not an array
        print("dtype", t.dtype, round(float(t.sum()), 4))
        ro = np.zeros_like(img)
        ro.flags.writeable = False
        try:
            ndimage.gaussian_filter(img, 1.0, output=ro)
        except ValueError as e:
            print("read-only", type(e).__name__, float(ro.sum()))
        P = rng.random((5, 3))
        D = np.zeros((5, 5))
        print("cdist", cdist(P, P, "sqeuclidean", out=D) is D, round(float(D.sum()), 9))
        print("no arrays", round(float(ndimage.gaussian_filter(rng.random((5, 5)).tolist(), 1).sum()), 9))
        """)


def test_modules_imported_after_scipy(tmp_path):
    run_both(tmp_path, "s3.py", """
        import numpy as np
        import scipy.optimize                          # scipy imported first without the modules
        from scipy.ndimage import label, gaussian_filter1d
        import scipy.spatial as sp
        x = np.arange(20.0) % 7
        o = np.zeros(20)
        print(gaussian_filter1d(x, 2.0, output=o) is o, round(float(o.sum()), 9))
        lab = np.zeros(20, dtype=np.int64)
        print(label(x > 2, output=lab), lab.tolist())
        D = np.zeros((3, 3))
        sp.distance.cdist(np.eye(3), np.ones((3, 3)), out=D)
        print(D.tolist())
        import pickle                              # (multiprocessing, joblib: the wrapped functions pickle)
        f = pickle.loads(pickle.dumps(gaussian_filter1d))
        o2 = np.zeros(20)
        print(f(x, 2.0, output=o2) is o2, bool(np.array_equal(o, o2)))
        """)


def test_output_parameters_found_by_signature():
    assert _libraries.output_parameters(ndimage.label) == {"output": 2}
    assert _libraries.output_parameters(distance.cdist) == {"out": -1}
    assert _libraries.output_parameters(ndimage.distance_transform_edt) == {"distances": 4, "indices": 5}
    assert _libraries.output_parameters(ndimage.sum_labels) == {}
    assert _libraries.output_parameters(len) == {}      # (a builtin without a signature)


def write_into(x, output=None, *, out=None):
    """A library function writing into its output argument (as scipy's C code does) and returning it."""
    assert type(x) is np.ndarray and type(output) is np.ndarray
    output[...] = x * 2
    if out is not None:
        out[...] = 7
        return output, out, 3
    return output


def test_guard_outputs_write_back_and_return_the_array():
    f = _libraries.takes_numpy(write_into, _libraries.output_parameters(write_into))
    x, out = ng.arange(4.0), ng.zeros(4)
    assert f(x, out) is out and out.tolist() == [0.0, 2.0, 4.0, 6.0]          # by position
    out2, extra = ng.zeros(4), ng.zeros(2, dtype=np.int32)
    r = f(x, output=out2, out=extra)                                           # by keyword; a tuple
    assert r[0] is out2 and r[1] is extra and r[2] == 3
    assert out2.tolist() == [0.0, 2.0, 4.0, 6.0] and extra.tolist() == [7, 7]
    big = ng.zeros(8)
    f(x, big[::2])                                                             # a strided view
    assert big.tolist() == [0.0, 0.0, 2.0, 0.0, 4.0, 0.0, 6.0, 0.0]
    ro = ng.zeros(4)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f(x, ro)
    assert ro.tolist() == [0.0] * 4
    h = np.zeros(4)
    assert f(np.arange(4.0), h) is h and h.tolist() == [0.0, 2.0, 4.0, 6.0]   # NumPy's arrays as they are


def test_guard_outputs_checked():
    with pytest.raises(TypeError, match="outputs"):
        _core.Guard(len, len, len, (), None, False, True, ["output"])
    with pytest.raises(TypeError, match="outputs"):
        _core.Guard(len, len, len, (), None, False, False, {"output": 1})


def test_wrapping_is_done_once_and_keeps_the_function():
    import types
    m = types.ModuleType("fake_scipy_module")
    m.write_into = write_into
    m.plain = len
    _libraries.wrap_outputs(m)
    g = m.write_into
    assert g.__wrapped__ is write_into and g.__name__ == "write_into" and m.plain is len
    _libraries.wrap_outputs(m)
    assert m.write_into is g
