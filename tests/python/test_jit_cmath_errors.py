"""cmath's functions in a compiled loop raise what Python's raise, where they
raise it (CPython's cmathmodule.c): ValueError for log(0), log10(0),
atanh(+-1), atan(+-1j) and some infinite parts (exp(complex(0, inf)),
sin(inf), tanh(complex(0, inf)) ...), OverflowError where exp, sinh, cosh, sin
or cos of a finite number overflows. Every function over a grid of special
values, one value per call, against the plain function."""
import cmath
import itertools
import math

import numpy as np
import pytest

import numgpu

VALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 710.0, -710.0, 1000.0, 1e308, math.inf, -math.inf, math.nan]
FNS = ["exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
       "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]




def _outcome(fn, args):
    try:
        fn(*args)
        return None
    except (ValueError, OverflowError) as e:
        return type(e)


# (functions made by exec have no source: written to a module file instead)
@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("cm") / "cm_loops.py"
    path.write_text("import cmath\n" + "".join(
        "def %s_loop(z, out):\n    for i in range(len(z)):\n        out[i] = cmath.%s(z[i])\n\n" % (n, n) for n in FNS))
    import importlib.util
    spec = importlib.util.spec_from_file_location("cm_loops", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", FNS)
def test_cmath_errors_as_python(module, name):
    py = getattr(module, name + "_loop")
    jf = numgpu.jit(py)
    for x, y in itertools.product(VALS, VALS):
        z = np.array([complex(x, y)])
        want_out, got_out = np.zeros(1, complex), np.zeros(1, complex)
        want = _outcome(py, (z, want_out))
        got = _outcome(jf, (z, got_out))
        assert got == want, (name, x, y)
        if want is None:
            w, g = want_out[0], got_out[0]
            # (special values' signs, and values near the float64 limit, which OpenCL's complex
            # functions lose, are not this test's subject)
            if cmath.isfinite(w) and abs(x) <= 1000 and abs(y) <= 1000:
                assert g == pytest.approx(w, rel=1e-9, abs=1e-300), (name, x, y, w, g)
    assert jf.loop_report()[0]["ran"].startswith("kernel"), jf.loop_report()


def test_first_bad_value_raises_in_order():
    def log_all(z, out):
        for i in range(len(z)):
            out[i] = cmath.log(z[i])
    jf = numgpu.jit(log_all)
    with pytest.raises(ValueError):
        jf(np.array([1.0, 0.0, 2.0], complex), np.zeros(3, complex))
