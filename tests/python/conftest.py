"""pytest setup for the numgpu NumPy-parity suite.

Makes `import numgpu` work from a source checkout (python/ on sys.path when
the package is not installed) and `import helpers` work from every test file.
The device is whatever NUMGPU_DEVICE selects: nothing here names one.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Small calls of interp, einsum, unique, sort ... run NumPy's own function on cpu (_small.py): the
# suite runs the device operations for them (NUMGPU_SMALL=0), test_small_calls.py that path.
os.environ.setdefault("NUMGPU_SMALL", "0")
REPO = os.path.dirname(os.path.dirname(HERE))

try:
    import numgpu  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(REPO, "python"))
    import numgpu  # noqa: F401

if HERE not in sys.path:
    sys.path.insert(0, HERE)

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

import helpers  # noqa: E402

# No example database on disk (the suite also runs with -p no:cacheprovider) and no
# per-example deadline: the first call of an op compiles its kernel (~100 ms).
settings.register_profile("numgpu", deadline=None, database=None, print_blob=True)
settings.load_profile("numgpu")


@pytest.fixture
def rng():
    import numpy as np
    return np.random.default_rng(1234)


@pytest.fixture(params=helpers.ALL, ids=helpers.dtype_id)
def dtype(request):
    """Every dtype numgpu supports."""
    return request.param
