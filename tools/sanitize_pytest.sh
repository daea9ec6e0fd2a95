#!/usr/bin/env bash
# The Python half of `make sanitize`: builds numgpu._core (and the C library
# under it) with ASan + UBSan, and runs a pytest subset against it.
#
#   tools/sanitize_pytest.sh BUILD_DIR
#
# BUILD_DIR is the sanitizer build of the C library (`make sanitize` passes
# build-asan); the extension is built next to it in BUILD_DIR-py. The
# in-tree build drops its own (unsanitized) _core*.so into python/numgpu/,
# so the sanitized one must not go there: it is configured with -DSKBUILD=ON,
# which makes CMakeLists.txt leave the module in the build directory (the
# scikit-build branch only adds an install rule), and the test run imports a
# copy of the package from a temporary directory holding the sanitized
# module. Should the sanitized module still land in python/numgpu/, the
# in-tree one is put back at exit.
#
# Python itself is not instrumented, so the ASan runtime is preloaded;
# leak detection is off (CPython keeps much alive until exit). If the
# subset's test files do not exist yet, this says so and exits 0.
# SANITIZE_CMAKE_ARGS adds configure options (e.g. -DNUMGPU_WERROR=OFF);
# SANITIZE_TESTS replaces the subset (test files, space-separated): the
# default is the array library's elementwise ops and reductions and the jit's
# loops run around one iteration, its wrap checks and its scans (the analysis,
# the scan's loops and the lowering in C, and the kernels they generate).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BUILD_DIR=${1:?usage: tools/sanitize_pytest.sh BUILD_DIR}
PYBUILD="${BUILD_DIR%/}-py"
PY=${PYTHON:-$ROOT/.venv/bin/python}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

TESTS=()
for t in ${SANITIZE_TESTS:-tests/python/test_elementwise.py tests/python/test_reduce.py tests/python/test_jit_peel.py \
           tests/python/test_jit_wrap.py tests/python/test_jit_scan.py}; do
  [ -f "$t" ] && TESTS+=("$t")
done
if [ ${#TESTS[@]} -eq 0 ]; then
  echo "sanitize_pytest: tests/python/test_elementwise.py and test_reduce.py do not exist yet; skipped"
  exit 0
fi
if [ ! -x "$PY" ]; then
  echo "sanitize_pytest: no Python at $PY (run 'make venv' or set PYTHON)" >&2
  exit 1
fi
ASAN_LIB=$(${CC:-cc} -print-file-name=libasan.so)
if [ ! -e "$ASAN_LIB" ]; then
  echo "sanitize_pytest: the C compiler has no libasan.so (got '$ASAN_LIB'); install libasan" >&2
  exit 1
fi

# Guard the in-tree module: keep a copy, and at exit put it back if the file
# there is a sanitized build (it references __asan_init). An ordinary rebuild
# of the in-tree module meanwhile, by someone else, is left alone.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/numgpu-sanitize.XXXXXX")
mkdir -p "$TMP/intree"
cp -p python/numgpu/_core*.so "$TMP/intree/" 2>/dev/null || true
restore() {
  for f in python/numgpu/_core*.so; do
    [ -f "$f" ] && grep -aq __asan_init "$f" || continue
    if [ -f "$TMP/intree/$(basename "$f")" ]; then
      echo "sanitize_pytest: the sanitized build replaced $f; restoring it" >&2
      cp -p "$TMP/intree/$(basename "$f")" "$f"
    else
      echo "sanitize_pytest: the sanitized build created $f; removing it" >&2
      rm -f "$f"
    fi
  done
  rm -rf "$TMP"
}
trap restore EXIT

echo "sanitize_pytest: building numgpu._core with ASan + UBSan in $PYBUILD"
cmake -S . -B "$PYBUILD" -DCMAKE_BUILD_TYPE=Debug -DNUMGPU_SANITIZE=ON -DNUMGPU_TESTS=OFF \
  -DNUMGPU_PYTHON=ON -DSKBUILD=ON -DPython3_EXECUTABLE="$PY" ${SANITIZE_CMAKE_ARGS:-} >/dev/null
cmake --build "$PYBUILD" -j "$JOBS" --target _core

SO=$(find "$PYBUILD" -name '_core*.so' -not -path '*/CMakeFiles/*' -newer "$TMP/intree" -print -quit)
[ -n "$SO" ] || SO=$(find "$PYBUILD" -name '_core*.so' -not -path '*/CMakeFiles/*' -print -quit)
if [ -z "$SO" ]; then
  echo "sanitize_pytest: no _core*.so under $PYBUILD after the build" >&2
  exit 1
fi

# The package from the source tree, with the sanitized module in it.
mkdir "$TMP/numgpu"
(cd python/numgpu && tar --exclude='_core*.so' --exclude='__pycache__' -cf - .) | (cd "$TMP/numgpu" && tar -xf -)
cp "$SO" "$TMP/numgpu/"

export PYTHONPATH="$TMP"            # replaces the Makefile's python/: only the copy is importable
export LD_PRELOAD="$ASAN_LIB"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS_EXTRA:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONMALLOC=malloc           # let ASan see Python's allocations too
"$PY" -c '
import sys, numgpu._core as c
if not c.__file__.startswith(sys.argv[1]):
    sys.exit("sanitize_pytest: imported %s, not the sanitized module" % c.__file__)
print("sanitize_pytest: using", c.__file__)
' "$TMP"
"$PY" -m pytest -x -q -p no:cacheprovider "${TESTS[@]}"
