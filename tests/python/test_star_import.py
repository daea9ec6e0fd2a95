"""`from numgpu import *`, which a script's `from numpy import *` becomes with numpy replaced by
numgpu: NumPy's public names, those numgpu serves through its module __getattr__ included
(hunt 14 F2: `r_`, `c_`, `mgrid`, `save` ... were left out, a NameError), and numgpu's own."""
import subprocess
import sys

import numpy as np

import numgpu as ng


def test_all_has_numpys_public_names_and_numgpus_own():
    names = set(ng.__all__)
    assert set(np.__all__) <= names
    assert {"jit", "prange", "asnumpy"} <= names
    assert {n for n in names if n.startswith("_")} <= set(np.__all__)   # (NumPy's __version__ ...)


def test_star_import_runs_numpy_code(tmp_path):
    script = tmp_path / "star.py"
    script.write_text(
        "from numgpu import *\n"
        "import numgpu\n"
        "x = r_[1:4, 0, c_[[7], [8]].ravel()]\n"
        "g = mgrid[0:2, 0:3]\n"
        "print(asnumpy(x).tolist(), asnumpy(g).sum(), isinstance(arange(3), numgpu.ndarray),\n"
        "      callable(jit), array2string(asnumpy(arange(3))), euler_gamma)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout
    want = "[1, 2, 3, 0, 7, 8] %d True True %s %r\n" % (np.mgrid[0:2, 0:3].sum(), np.array2string(np.arange(3)),
                                                   np.euler_gamma)
    assert out == want
