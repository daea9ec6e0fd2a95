# The two commands a newcomer runs: `make demo` and `make test`. Both set
# themselves up: a virtual environment with what they need from the package
# index, then an in-tree CMake build (libnumgpu, C tests, numgpu._core).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
BUILD  := build
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
export PYTHONPATH := $(CURDIR)/python

.PHONY: all venv build test ctest pytest demo bench sanitize clean wheel

all: build

$(VENV)/.stamp:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q numpy pytest hypothesis pytest-xdist scikit-build-core matplotlib scipy pandas
	touch $@

venv: $(VENV)/.stamp

build: $(VENV)/.stamp
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DNUMGPU_PYTHON=ON -DNUMGPU_TESTS=ON -DNUMGPU_SANITIZE=OFF -DPython3_EXECUTABLE=$(CURDIR)/$(PY) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

ctest: build
	ctest --test-dir $(BUILD) --output-on-failure

EMIT := $(CURDIR)/$(BUILD)/emitted

# The suite on the default device, then again on OpenCL where a platform is
# installed (PoCL in CI); every kernel built is also emitted as CUDA source
# and compiled with NVRTC for sm_90 at the end. The suite compiles tens of
# thousands of kernels: the disk cache's limit is raised for it (nothing
# trimmed mid-run; a trim's own tests set theirs).
pytest: export NUMGPU_CACHE_SIZE ?= 16G
pytest: build
	rm -rf $(EMIT) && mkdir -p $(EMIT)
	NUMGPU_EMIT_DIR=$(EMIT) $(PY) -m pytest -q -n $(JOBS) --durations=15 tests/python
	@if $(PY) -c "import numgpu; numgpu.set_device('opencl')" 2>/dev/null; then \
	  echo "== pytest on opencl =="; \
	  NUMGPU_DEVICE=opencl NUMGPU_EMIT_DIR=$(EMIT) $(PY) -m pytest -q -n $(JOBS) --durations=15 tests/python; \
	else echo "== no OpenCL platform: opencl pass skipped =="; \
	  if [ "$${NUMGPU_REQUIRE_OPENCL:-0}" = 1 ]; then echo "NUMGPU_REQUIRE_OPENCL=1: failing"; exit 1; fi; fi
	$(PY) tools/nvrtc_check.py $(EMIT)

test: ctest pytest

demo: build
	$(PY) -m numgpu demo

bench: build
	$(PY) bench/bench_core.py

# ASan + UBSan build of the C library; runs the C tests and a pytest subset.
sanitize: $(VENV)/.stamp
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DNUMGPU_SANITIZE=ON \
	  -DPython3_EXECUTABLE=$(CURDIR)/$(PY) -DNUMGPU_PYTHON=OFF >/dev/null
	cmake --build $(BUILD)-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir $(BUILD)-asan --output-on-failure
	tools/sanitize_pytest.sh $(BUILD)-asan

wheel: $(VENV)/.stamp
	$(PY) -m pip wheel --no-build-isolation --no-deps -w dist .

clean:
	rm -rf $(BUILD) $(BUILD)-asan python/numgpu/_core*.so
