#!/usr/bin/env python3
"""The seed example: character-level one-hot preprocessing for an RNN, on numgpu.

A user had this preprocessing written as a Python loop (one sequence at a time,
a dict lookup per character, a fresh array per sequence) and asked whether it
could run on a GPU. Its vectorised form is three lines:

    x_ix = codes[:n_seq * L].reshape(n_seq, L)         # text -> integer codes
    X = np.eye(VOCAB)[x_ix]                             # one-hot by fancy indexing
    y = np.eye(VOCAB)[codes[1:n_seq * L + 1].reshape(n_seq, L)]   # next char

With `import numgpu as np` those lines run on the numgpu device. The text and
its dictionary stay on the host (strings are host work); only the integer
codes go to the device, and the one-hot arrays come back with `.get()`.

This script generates a text (or reads --file), runs the loop form on a few
sequences and the vectorised form under NumPy and under numgpu, checks that
the results are equal, and prints the timings. It exits 1 on a mismatch.

    python examples/char_onehot.py                  # generated text, ~1 MB
    python examples/char_onehot.py --chars 100000
    python examples/char_onehot.py --file book.txt --dtype float64
"""
import argparse
import os
import statistics
import sys
import time

import numpy

try:
    import numgpu as ng
except ImportError as exc:  # keep the message short: the Makefile builds numgpu
    sys.exit(f"char_onehot: cannot import numgpu ({exc}); run `make demo` from the repo root, "
             "or `make build` and set PYTHONPATH=python")


# ---- the text ---------------------------------------------------------------

# generated text and the seed's loop, shared with `numgpu demo`
from numgpu.cli.demo import make_alphabet, make_text  # noqa: E402
from numgpu.cli.demo import seed_loop as onehot_loop  # noqa: E402


def encode(text, seq_length):
    """Host side: the text as integer codes (the seed's char_to_ix, vectorised),
    cut into input sequences and the same sequences shifted by one character.
    Returns (x_ix, y_ix, chars)."""
    cps = numpy.frombuffer(text.encode("utf-32-le"), dtype="<u4")
    chars = numpy.unique(cps)                 # sorted(set(data))
    codes = numpy.searchsorted(chars, cps)    # [char_to_ix[ch] for ch in data]
    n_seq = (len(cps) - 1) // seq_length      # each input needs its next character
    if n_seq < 1:
        raise SystemExit(f"char_onehot: the text has {len(cps)} characters; "
                         f"need more than seq_length={seq_length}")
    x_ix = codes[:n_seq * seq_length].reshape(n_seq, seq_length)
    y_ix = codes[1:n_seq * seq_length + 1].reshape(n_seq, seq_length)
    return x_ix, y_ix, "".join(chr(c) for c in chars)


# ---- the three forms ----------------------------------------------------------

def onehot(xp, x_ix, y_ix, vocab, dtype):
    """The vectorised form; `xp` is numpy or numgpu."""
    eye = xp.eye(vocab, dtype=dtype)
    return eye[x_ix], eye[y_ix]


def synchronize():
    if hasattr(ng, "synchronize"):
        ng.synchronize()


def device_name():
    if hasattr(ng, "get_device"):
        try:
            return str(ng.get_device())
        except Exception:  # a name is only for the table
            pass
    return "cpu"


# ---- timing -----------------------------------------------------------------------

def timed(fn, repeat):
    """(first call, median of the next `repeat` calls, last result) in seconds.
    The previous result is dropped before each call, so that only one copy of
    the (large) output is alive at a time."""
    times, result = [], None
    for _ in range(repeat + 1):
        result = None
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return times[0], statistics.median(times[1:]), result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chars", type=int, default=500_000,
                    help="characters of generated text (default 500000, about 1 MB of UTF-8)")
    ap.add_argument("--file", help="use this UTF-8 text file instead of a generated text")
    ap.add_argument("--vocab", type=int, default=394, help="alphabet size of the generated text")
    ap.add_argument("--seq-length", type=int, default=30)
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"],
                    help="dtype of the one-hot arrays (the seed's np.zeros gives float64)")
    ap.add_argument("--repeat", type=int, default=5, help="timed calls after the first")
    ap.add_argument("--loop-seqs", type=int, default=1000,
                    help="sequences to run the seed's Python loop on (0: skip it)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    if args.file:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
        source = args.file
    else:
        text = make_text(args.chars, make_alphabet(args.vocab), args.seed)
        source = "generated"
    L = args.seq_length
    t0 = time.perf_counter()
    x_ix, y_ix, chars = encode(text, L)
    t_encode = time.perf_counter() - t0
    vocab, n_seq = len(chars), x_ix.shape[0]
    dt_np = numpy.dtype(args.dtype)
    dt_ng = getattr(ng, args.dtype, dt_np)
    out_mb = 2 * x_ix.size * vocab * dt_np.itemsize / 1e6
    dev = device_name()

    print(f"text: {source}, {len(text):,} chars ({len(text.encode('utf-8')) / 1e6:.2f} MB UTF-8), "
          f"vocabulary {vocab}, seq_length {L}")
    print(f"one-hot X and y: 2 x {(n_seq, L, vocab)} {dt_np.name} = {out_mb:,.0f} MB; "
          f"numgpu device: {dev}")

    rows = []  # (form, library, device, first, median)
    ok = True

    # 1. The seed's loop, on a prefix; checked against the vectorised form there.
    if args.loop_seqs > 0:
        k = min(args.loop_seqs, n_seq)
        data = text[:k * L + 1]
        char_to_ix = {ch: ix for ix, ch in enumerate(chars)}
        X = numpy.zeros((k, L, vocab))
        y = numpy.zeros((k, L, vocab))
        t0 = time.perf_counter()
        onehot_loop(data, char_to_ix, L, X, y)
        t_loop = (time.perf_counter() - t0) * n_seq / k
        want_X, want_y = onehot(numpy, x_ix[:k], y_ix[:k], vocab, numpy.float64)
        if not (numpy.array_equal(X, want_X) and numpy.array_equal(y, want_y)):
            print("MISMATCH: the seed's loop and the vectorised form differ")
            ok = False
        del X, y, want_X, want_y
        rows.append((f"loop (seed; {k} seqs, scaled)", "numpy", "host", None, t_loop))

    # 2. Vectorised, NumPy.
    first, med, (X_np, y_np) = timed(lambda: onehot(numpy, x_ix, y_ix, vocab, dt_np), args.repeat)
    rows.append(("vectorised", "numpy", "host", first, med))

    # 3. Vectorised, numgpu: codes up, one-hot on the device. The first call
    #    compiles the kernels (or loads them from the disk cache).
    def run_numgpu():
        xd, yd = ng.asarray(x_ix), ng.asarray(y_ix)
        Xd, yd1 = onehot(ng, xd, yd, vocab, dt_ng)
        synchronize()
        return Xd, yd1

    stats0 = ng.stats() if hasattr(ng, "stats") else None
    first, med, (X_ng, y_ng) = timed(run_numgpu, args.repeat)
    rows.append(("vectorised", "numgpu", dev, first, med))
    stats1 = ng.stats() if hasattr(ng, "stats") else None

    # 4. Download (.get()) and compare, one array at a time.
    t_get = 0.0
    for name, d, want in (("X", X_ng, X_np), ("y", y_ng, y_np)):
        t0 = time.perf_counter()
        got = d.get()
        t_get += time.perf_counter() - t0
        if got.dtype != want.dtype or not numpy.array_equal(got, want):
            bad = "dtype" if got.dtype != want.dtype else "values"
            print(f"MISMATCH: numgpu {name} differs from NumPy's ({bad}: got {got.dtype} "
                  f"{got.shape}, want {want.dtype} {want.shape})")
            ok = False
        del got
    rows.append(("download (.get(), X and y)", "numgpu", dev, None, t_get))
    del X_ng, y_ng, X_np, y_np

    print()
    print(f"{'form':<30} {'library':<8} {'device':<8} {'first call s':>12} {'median s':>10}")
    print("-" * 72)
    for form, lib, where, first, med in rows:
        f = f"{first:12.3f}" if first is not None else f"{'':>12}"
        print(f"{form:<30} {lib:<8} {where:<8} {f} {med:10.3f}")
    print(f"(host encoding of the text: {t_encode:.3f} s; median of {args.repeat} calls after "
          f"the first; the first numgpu call also compiles or loads its kernels, and every first "
          f"call pays for touching fresh memory)")
    if stats0 is not None and stats1 is not None:
        delta = {k: stats1[k] - stats0[k] for k in ("kernel_launches", "kernels_compiled",
                                                     "disk_cache_hits", "memory_cache_hits")}
        print("numgpu during the timed calls: " + ", ".join(f"{k} {v}" for k, v in delta.items()))
    np_med = next(r[4] for r in rows if r[:2] == ("vectorised", "numpy"))
    ng_med = next(r[4] for r in rows if r[:2] == ("vectorised", "numgpu"))
    print(f"numgpu vs NumPy, vectorised: {np_med / ng_med:.2f}x "
          f"({'faster' if ng_med < np_med else 'slower'}; >1 means numgpu is faster)")
    print("result: numgpu equals NumPy" if ok else "result: MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
