#!/bin/sh
# Fuzzes the jit compiler with libFuzzer under ASan + UBSan, each target for
# the given number of seconds (default 60):
#   fuzz_jit_parse  the front end (src/jit: tokenizer, parser, printer, analysis);
#   fuzz_jit_lower  the back half: every loop a launch would lower, for types
#                   drawn from the input, lowered to the IR and emitted for the
#                   C, CUDA and OpenCL targets (src/jit/lower.c, src/ir, src/emit).
#
#   tools/fuzz_jit.sh [seconds]
#
# Builds build-fuzz/fuzz_jit_parse and build-fuzz/fuzz_jit_lower from
# tests/fuzz/, the sources they test and the few core files they need, seeds
# them with the loop-kernel corpus (../shared/kernels/*.py, or
# $NUMGPU_KERNELS), the project's own benchmark loops and a few tricky
# snippets, and keeps what each finds in build-fuzz/jit-corpus (and
# build-fuzz/lower-corpus). A crash leaves build-fuzz/crash-* (rerun:
# build-fuzz/fuzz_jit_parse build-fuzz/crash-..., or fuzz_jit_lower) and a
# nonzero exit status. Needs clang (apt-get install -y clang).
set -eu

secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build-fuzz"
cc=${CC:-clang}
case "$cc" in *clang*) ;; *) cc=clang ;; esac
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz_jit.sh: clang not found; install it (apt-get install -y clang)" >&2
    exit 2
fi

mkdir -p "$out/jit-corpus" "$out/lower-corpus" "$out/jit-seeds"
flags="-std=gnu11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=undefined -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Werror
    -I$root/include -I$root/src"
front="$root/src/jit/lex.c $root/src/jit/parse.c $root/src/jit/ast.c $root/src/jit/analyze.c
    $root/src/jit/desugar.c $root/src/core/util.c $root/src/core/status.c"
# shellcheck disable=SC2086 # (word splitting of the lists is meant)
"$cc" $flags "$root/tests/fuzz/fuzz_jit_parse.c" $front -lm -o "$out/fuzz_jit_parse"
# shellcheck disable=SC2086
"$cc" $flags "$root/tests/fuzz/fuzz_jit_lower.c" $front "$root/src/jit/lower.c" "$root/src/ir/ir.c" "$root/src/ir/philox.c" \
    "$root/src/emit/emit.c" "$root/src/emit/targets.c" "$root/src/core/dtype.c" "$root/src/ops/opnames.c" -lm \
    -o "$out/fuzz_jit_lower"

kernels=${NUMGPU_KERNELS:-$root/../shared/kernels}
if [ -d "$kernels" ]; then
    cp "$kernels"/*.py "$out/jit-seeds/" 2>/dev/null || true
else
    echo "fuzz_jit.sh: no seed corpus at $kernels; using the built-in snippets only" >&2
fi
printf 'def f(a, *b, c=1, **d) -> int:\n    for i, (j, *k) in enumerate(a[1:n:2, ...]):\n        s += -x**2 if a < b <= c else y\n    else:\n        pass\n' > "$out/jit-seeds/s1.py"
printf 'x = f"{d["k"]!r:>{w}} {f"{y}"}" + rb"\\x00" """t\n"q"\n"""\nwith a as b, c:\n    try:\n        pass\n    except* E as e:\n        raise\n    finally:\n        del x\n' > "$out/jit-seeds/s2.py"
printf '@deco(1)\nclass A[T]:\n    match p:\n        case [1, *r] if r: pass\nasync def g():\n    await h()\nlambda x=(yield): [y async for y in x]\nif a:\n\tb = 0x_ff; c = 1_0.5e-3j\n\\\nelif b: pass\n' > "$out/jit-seeds/s3.py"
printf 'def put(p, k, v):\n    p[k] = v\ndef nest(q, k):\n    t = k + 1\n    put(q, t, q[k])\n    for j in range(q.shape[0]):\n        q[j] += 1\ndef f(X, a, n):\n    for i in range(n):\n        row = X[i]\n        put(row, i, 1.0)\n        nest(a, i)\n        row[0] = a[i - 1]\n' > "$out/jit-seeds/s4.py"
printf 'def f(x, d, out):\n    s = 0.0\n    for i in range(len(x)):\n        if x[i] < 0:\n            raise ValueError("neg" "ative")\n        assert x[i] != 3, "three"\n        assert d[i] > 0\n        s += 2 ** -i\n        if s > 9: raise RuntimeError\n    for j in range(3):\n        out[j] = s\n        raise E(b"x") from y\n' > "$out/jit-seeds/s5.py"

cp "$root"/bench/jit_*/*.py "$out/jit-seeds/" 2>/dev/null || true
cp "$root"/tests/fuzz/seeds/* "$out/jit-seeds/" # (inputs that once crashed a target: run first, every time)

for target in parse:jit-corpus lower:lower-corpus; do
    name=fuzz_jit_${target%%:*}
    echo "fuzz_jit.sh: running $out/$name for ${secs}s"
    "$out/$name" -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -dict="$root/tests/fuzz/python.dict" \
        -artifact_prefix="$out/" "$out/${target#*:}" "$out/jit-seeds"
done
