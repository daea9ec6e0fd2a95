#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests) against numgpu
# and prints how many of its tests pass. The suite is not part of this repository:
# it is used where a copy is present.
#
#   tools/array_api_tests.sh [pytest arguments, e.g. array_api_tests/test_linalg.py or -k expr]
#
# Environment:
#   ARRAY_API_TESTS_DIR      the suite's checkout (default: ../array-api-tests next to
#                            the repository, else /work/array-api-tests)
#   ARRAY_API_MAX_EXAMPLES   hypothesis examples per test (default 20)
#   ARRAY_API_JOBS           pytest-xdist workers (default 2; 0 runs in one process)
#   ARRAY_API_TIMEOUT        wall-clock limit of the run in seconds (default 900; a run cut
#                            short still reports what ran, marked partial)
#   ARRAY_API_OUT            directory for the report (default build/array-api)
#   ARRAY_API_TESTS_VERSION  standard version tested (default: numgpu.__array_api_version__)
#   ARRAY_API_TESTS_SKIP_DTYPES  dtypes left out, comma-separated (default: none; numgpu has
#                            every dtype of the standard)
#   NUMGPU_DEVICE            device the arrays live on (default cpu)
#   PYTHON                   interpreter (default .venv/bin/python, else python3)
#
# Writes $ARRAY_API_OUT/report.json (pytest-json-report) and summary.txt (totals
# and per-file counts). Exits 0 when the suite ran, whatever the pass count (the
# count is a figure, not a gate); non-zero when it could not run.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
suite=${ARRAY_API_TESTS_DIR:-}
if [ -z "$suite" ]; then
    for d in "$root/../array-api-tests" /work/array-api-tests; do
        if [ -d "$d/array_api_tests" ]; then suite=$d; break; fi
    done
fi
if [ -z "$suite" ] || [ ! -d "$suite/array_api_tests" ]; then
    echo "array_api_tests: no copy of data-apis/array-api-tests found; set ARRAY_API_TESTS_DIR" >&2
    echo "  (git clone --recursive https://github.com/data-apis/array-api-tests)" >&2
    exit 2
fi
suite=$(cd "$suite" && pwd)

py=${PYTHON:-}
if [ -z "$py" ]; then
    if [ -x "$root/.venv/bin/python" ]; then py=$root/.venv/bin/python; else py=python3; fi
fi
out=${ARRAY_API_OUT:-$root/build/array-api}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=${ARRAY_API_JOBS:-2}
examples=${ARRAY_API_MAX_EXAMPLES:-20}
limit=${ARRAY_API_TIMEOUT:-900}

export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export ARRAY_API_TESTS_MODULE=numgpu
export NUMGPU_DEVICE=${NUMGPU_DEVICE:-cpu}
# Keep the generated arrays small: the suite checks values element by element.
export ARRAY_API_TESTS_MAX_ARRAY_SIZE=${ARRAY_API_TESTS_MAX_ARRAY_SIZE:-256}

if ! "$py" -c "import numgpu, hypothesis, ndindex, pytest_jsonreport" 2>"$out/import-error.txt"; then
    echo "array_api_tests: cannot import numgpu or the suite's requirements:" >&2
    cat "$out/import-error.txt" >&2
    exit 2
fi

echo "array_api_tests: $suite on ${NUMGPU_DEVICE}, ${examples} examples; dtypes left out: ${ARRAY_API_TESTS_SKIP_DTYPES:-none}"

par=()
if [ "$jobs" != 0 ] && "$py" -c "import xdist" 2>/dev/null; then par=(-n "$jobs"); fi

# The suite runs from a copy (its checkout stays untouched) in which one known
# bug is worked around: since data-apis/array-api-tests#430 its dtype_helpers
# takes max() over the complex dtypes at import, so skipping both complex dtypes
# (ARRAY_API_TESTS_SKIP_DTYPES=complex64,complex128) fails before any test runs.
# The patch changes no test, and no behaviour when the complex dtypes are tested.
work=$out/suite
rm -rf "$work" "$out/report.json"
mkdir -p "$work"
for f in "$suite"/*; do
    case $(basename "$f") in
        array-api) ln -s "$f" "$work/array-api" ;;
        *) cp -R "$f" "$work/" ;;
    esac
done
"$py" - "$work/array_api_tests" <<'PATCH'
import os, sys
fixes = {  # file: (text, replacement); the second restores the name used before #430
    "dtype_helpers.py": ("widest_complex_dtype = max(",
                         "widest_complex_dtype = None if not complex_dtypes else max("),
    "test_signatures.py": ("cmplx_name = dh.dtype_to_name[dh.widest_complex_dtype]",
                           "cmplx_name = dh.dtype_to_name[dh.widest_complex_dtype] "
                           "if dh.widest_complex_dtype is not None else 'complex128'"),
}
for name, (old, new) in fixes.items():
    p = os.path.join(sys.argv[1], name)
    s = open(p).read()
    if old in s and new not in s:
        open(p, "w").write(s.replace(old, new, 1))
PATCH
cd "$work"
# -p no:cacheprovider: leave the suite's checkout untouched.
# SIGINT at the limit: pytest stops as after Ctrl-C and still writes the report (partial counts).
# The whole suite unless the arguments name test files of it.
paths=(array_api_tests)
for a in "$@"; do case $a in array_api_tests/*) paths=() ;; esac; done
timeout -s INT -k 60 "$limit" "$py" -m pytest "${paths[@]}" "$@" -q -p no:cacheprovider \
    "${par[@]}" --max-examples="$examples" --hypothesis-disable-deadline \
    --json-report --json-report-omit collectors log traceback streams \
    --json-report-file="$out/report.json" -o addopts= >"$out/pytest.log" 2>&1
rc=$?
tail -n 3 "$out/pytest.log"
if [ ! -s "$out/report.json" ]; then
    echo "array_api_tests: the suite did not run (pytest exit $rc; log: $out/pytest.log)" >&2
    exit 2
fi

"$py" - "$out" "$rc" <<'EOF'
import collections, json, os, sys

out, rc = sys.argv[1], int(sys.argv[2])
report = json.load(open(os.path.join(out, "report.json")))
per_file = collections.defaultdict(collections.Counter)
for t in report.get("tests", []):
    name = t["nodeid"].split("::")[0].rsplit("/", 1)[-1]
    per_file[name][t["outcome"]] += 1
total = collections.Counter()
for c in per_file.values():
    total.update(c)


def line(name, c):
    n = sum(c.values())
    ran = n - c["skipped"]
    pct = 100.0 * c["passed"] / n if n else 0.0
    pct_ran = 100.0 * c["passed"] / ran if ran else 0.0
    return "%-46s %6d %6d %6d %6d %6.1f%% %6.1f%%" % (
        name, n, c["passed"], c["failed"] + c["error"], c["skipped"] + c["xfailed"], pct, pct_ran)


lines = ["%-46s %6s %6s %6s %6s %7s %7s" % ("file", "tests", "pass", "fail", "skip", "pass%", "of-run")]
lines += [line(name, per_file[name]) for name in sorted(per_file)]
lines.append(line("TOTAL", total))
env = report.get("environment", {})
lines.append("numgpu on %s; pytest exit %d%s" % (os.environ.get("NUMGPU_DEVICE"), rc,
                                                 " (stopped at the time limit: counts are partial)" if rc in (2, 124, 137) else ""))
text = "\n".join(lines) + "\n"
open(os.path.join(out, "summary.txt"), "w").write(text)
json.dump({"total": dict(total), "files": {k: dict(v) for k, v in per_file.items()}, "pytest_exit": rc},
          open(os.path.join(out, "summary.json"), "w"), indent=1)
sys.stdout.write(text)
EOF
