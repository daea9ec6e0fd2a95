#!/usr/bin/env bash
# Regenerates the emitter's golden files (tests/c/golden/*.c) from the
# current emitter: rebuilds test_emit and runs its golden part with
# NUMGPU_UPDATE_GOLDEN=1, then shows what changed. Review the diff before
# committing it: a golden file changes only when emitted code is meant to.
#
#   tools/update_golden.sh            # uses ./build (configures it if absent)
#   BUILD=build-dbg tools/update_golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -DNUMGPU_PYTHON=OFF >/dev/null
fi
cmake --build "$BUILD" -j "$JOBS" --target test_emit
NUMGPU_UPDATE_GOLDEN=1 "$BUILD/test_emit" golden
"$BUILD/test_emit" golden >/dev/null   # they now match
if git rev-parse --git-dir >/dev/null 2>&1; then
  git status --short -- tests/c/golden
  git diff --stat -- tests/c/golden
fi
