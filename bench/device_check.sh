#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build numgpu from source, run the pytest
# suite on the cuda device, then the GPU benchmarks side by side with CuPy
# (where installed). Results go to $OUT (or bench/results) as
# device_check.txt; the script prints them too.
#
#   bash bench/device_check.sh            # everything
#   QUICK=1 bash bench/device_check.sh    # smaller benchmark sizes
set -uo pipefail
cd "$(dirname "$0")/.."
out_dir=${OUT:-bench/results}
mkdir -p "$out_dir"
log="$out_dir/device_check.txt"
: >"$log"
say() { echo "$@" | tee -a "$log"; }

say "== numgpu device check: $(date -u) =="
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$log"
PY=${PYTHON:-python3}
$PY -c "import numpy, sys; print('python', sys.version.split()[0], 'numpy', numpy.__version__)" | tee -a "$log"

say "== build =="
cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DNUMGPU_TESTS=OFF -DNUMGPU_PYTHON=ON \
  -DPython3_EXECUTABLE="$(command -v $PY)" >/dev/null && cmake --build build-device -j "$(nproc)" 2>&1 | tail -2 | tee -a "$log"
export PYTHONPATH=$PWD/python
export NUMGPU_CACHE_DIR=${NUMGPU_CACHE_DIR:-/tmp/numgpu-cache}
$PY -c "import numgpu; print(numgpu.devices())" 2>&1 | tee -a "$log"

say "== pytest on cuda =="
if $PY -c "import pytest, hypothesis" 2>/dev/null; then
  xdist=""
  $PY -c "import xdist" 2>/dev/null && xdist="-n $(( $(nproc) > 12 ? 12 : $(nproc) ))"
  NUMGPU_DEVICE=cuda timeout ${PYTEST_TIMEOUT:-300} $PY -m pytest -q -rf $xdist -p no:cacheprovider tests/python \
    2>&1 | grep -E "^(FAILED|ERROR)|passed|failed|error" | head -60 | tee -a "$log"
else
  say "pytest/hypothesis missing: pip install pytest hypothesis"
fi

say "== benchmarks: numgpu (cuda) vs CuPy =="
NUMGPU_DEVICE=cuda timeout ${BENCH_TIMEOUT:-200} $PY bench/bench_gpu.py ${QUICK:+--quick} 2>&1 | tee -a "$log"
say "== loop corpus on cuda (run.py --expect) =="
if [ -d ../shared/kernels ]; then
  NUMGPU_DEVICE=cuda timeout ${CORPUS_TIMEOUT:-120} $PY ../shared/kernels/run.py --expect 2>&1 | tail -4 | tee -a "$log"
fi
say "== @numgpu.jit on cuda vs Numba on this machine's CPU (bench_jit.py) =="
NUMGPU_DEVICE=cuda timeout ${JIT_TIMEOUT:-180} $PY bench/bench_jit.py --python-budget 0.5 \
  ${JIT_ONLY:+--only $JIT_ONLY} 2>&1 | grep -v -i "warn\|numba.readthedocs\|^$\|^File\|^def \|^\^\|^To find" | tee -a "$log"
say "== complex loops on cuda vs Numba on this machine's CPU (bench_jit.py --dir bench/jit_complex) =="
NUMGPU_DEVICE=cuda timeout ${JIT_COMPLEX_TIMEOUT:-90} $PY bench/bench_jit.py --python-budget 0.5 --dir bench/jit_complex \
  2>&1 | grep -v -i "warn\|numba.readthedocs\|^$\|^File\|^def \|^\^\|^To find" | tee -a "$log"
say "== str and dict loops on cuda vs plain Python (bench_jit.py --dir bench/jit_strings) =="
NUMGPU_DEVICE=cuda timeout ${JIT_STRINGS_TIMEOUT:-90} $PY bench/bench_jit.py --python-budget 0.5 --dir bench/jit_strings \
  2>&1 | grep -v -i "warn\|numba.readthedocs\|^$\|^File\|^def \|^\^\|^To find" | tee -a "$log"
say "== slices and windows on cuda vs Numba on this machine's CPU (bench_jit.py --dir bench/jit_slices) =="
NUMGPU_DEVICE=cuda timeout ${JIT_SLICES_TIMEOUT:-90} $PY bench/bench_jit.py --python-budget 0.5 --dir bench/jit_slices \
  2>&1 | grep -v -i "warn\|numba.readthedocs\|^$\|^File\|^def \|^\^\|^To find" | tee -a "$log"
say "== integer scans on cuda, in blocks vs one GPU thread (bench_jit.py --dir bench/jit_scan) =="
for scan in 1 0; do
  NUMGPU_SCAN=$scan NUMGPU_DEVICE=cuda timeout ${JIT_SCAN_TIMEOUT:-60} $PY bench/bench_jit.py --python-budget 0.5 \
    --dir bench/jit_scan 2>&1 | grep -v -i "warn\|numba.readthedocs\|^$\|^File\|^def \|^\^\|^To find" \
    | sed "s/^/NUMGPU_SCAN=$scan /" | tee -a "$log"
done
say "== clip, transposed copies (tiled), concatenate, nan_to_num on cuda vs NumPy (bench_copies.py) =="
NUMGPU_DEVICE=cuda timeout ${COPIES_TIMEOUT:-120} $PY bench/bench_copies.py --sizes 1e6,1e7 2>&1 | tee -a "$log"
say "== fixed cost of a jit call on cuda (bench_jit_call.py) =="
NUMGPU_DEVICE=cuda timeout 60 $PY bench/bench_jit_call.py 2>&1 | tee -a "$log"
say "== data larger than the GPU's memory: managed overflow memory (bench_oversubscribe.py) =="
NUMGPU_DEVICE=cuda timeout 120 $PY bench/bench_oversubscribe.py 2>&1 | tee -a "$log"
say "== results in $log =="
