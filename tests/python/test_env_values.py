"""Environment variables' values read as the README's table says: yes/no variables take 1/0,
true/false, yes/no, on/off in any case (NUMGPU_STRICT=false is off), and a value that is neither
is reported on stderr and leaves the default; counts take whole numbers only."""
import os
import subprocess
import sys

import pytest

PROBE = """
import numpy, numgpu as ng
try:
    ng.ones(2) + numpy.ones(2)
    print("strict off")
except Exception as e:
    print("strict on", type(e).__name__)
"""


def _run(env, code=PROBE):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=full)


@pytest.mark.parametrize("value,on", [("1", True), ("true", True), ("Yes", True), ("ON", True), ("0", False),
                                      ("false", False), ("no", False), ("Off", False), ("", False)])
def test_strict_values(value, on):
    r = _run({"NUMGPU_STRICT": value})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("strict on" if on else "strict off")
    assert "NUMGPU_STRICT" not in r.stderr


def test_a_value_that_is_no_flag_is_reported_and_the_default_kept():
    r = _run({"NUMGPU_STRICT": "maybe"})
    assert r.stdout.startswith("strict off")
    assert "NUMGPU_STRICT=maybe is not one of" in r.stderr


@pytest.mark.parametrize("var,value", [("NUMGPU_POOL_LIMIT_MB", "2GB"), ("NUMGPU_POOL_LIMIT_MB", "-5"),
                                       ("NUMGPU_POOL_LIMIT_MB", "abc"), ("NUMGPU_FALLBACK", "bogus")])
def test_bad_values_are_reported(var, value):
    r = _run({var: value}, "import numgpu as ng; print(float((ng.ones(4) * 2).sum()))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "8.0"
    assert "%s=%s" % (var, value) in r.stderr


def test_pool_limit_whole_megabytes():
    r = _run({"NUMGPU_POOL_LIMIT_MB": "64"}, "import numgpu as ng; print(float((ng.ones(4) * 2).sum()))")
    assert r.returncode == 0 and r.stdout.strip() == "8.0" and not r.stderr
