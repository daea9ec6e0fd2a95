"""`numgpu demo`: the seed question, char-level one-hot preprocessing for an RNN, four ways.

A user's preprocessing (sequences of 30 characters, a vocabulary of about 394) was a Python
loop with a str, a dict and an np.zeros per sequence, and they asked whether it could run on
the GPU. Side by side:
  (a) that loop, as written, under plain NumPy (on a prefix of the text, time scaled up);
  (b) the same loop, as written, under @numgpu.jit (its slices, dict, list comprehension and
      np.zeros compile: one parallel kernel);
  (c) the vectorised form under numgpu:  ng.eye(V, dtype=dt)[ng.asarray(codes)];
  (d) the vectorised form under NumPy:   numpy.eye(V, dtype=dt)[codes].
All results are checked equal. The one-hot arrays are large (2 x sequences x 30 x V items):
when they do not fit the memory budget they are made and checked chunk by chunk.
The text, its encoding and the loop come from examples/char_onehot.py and the seed's code.
"""
import statistics
import string
import sys
import time

import numpy as np

import numgpu as ng

DTYPES = ("float64", "float32", "uint8", "bool")
GiB = 1 << 30


# ---- the text (as in examples/char_onehot.py) --------------------------------------------

def make_alphabet(size):
    """`size` characters: printable ASCII, then CJK ideographs from U+4E00 on."""
    ascii_part = string.ascii_letters + string.digits + string.punctuation + " \n"
    n_cjk = max(0, size - len(ascii_part))
    return ascii_part[:size] + "".join(chr(c) for c in range(0x4E00, 0x4E00 + n_cjk))


def make_text(n_chars, alphabet, seed):
    """A seeded random text over `alphabet`, spaces and lower-case letters more frequent."""
    rng = np.random.default_rng(seed)
    weights = np.array([8.0 if ch == " " else 3.0 if ch in string.ascii_lowercase else 1.0 for ch in alphabet])
    codepoints = np.array([ord(ch) for ch in alphabet], dtype=np.uint32)
    picks = rng.choice(codepoints, size=n_chars, p=weights / weights.sum())
    return picks.astype("<u4").tobytes().decode("utf-32-le")


def encode(text, seq_length):
    """The text as integer codes, cut into inputs and next-character targets:
    (x_ix, y_ix, chars), each ix of shape (sequences, seq_length). Strings stay host work."""
    cps = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")
    chars = np.unique(cps)                    # sorted(set(data))
    codes = np.searchsorted(chars, cps)       # [char_to_ix[ch] for ch in data]
    n_seq = (len(cps) - 1) // seq_length      # each input needs its next character
    x_ix = codes[:n_seq * seq_length].reshape(n_seq, seq_length)
    y_ix = codes[1:n_seq * seq_length + 1].reshape(n_seq, seq_length)
    return x_ix, y_ix, "".join(chr(c) for c in chars)


# ---- the four forms ------------------------------------------------------------------------

def seed_loop(data, char_to_ix, seq_length, X, y):
    """The seed's loop, as its author wrote it (/work/shared/kernels/seed_onehot_str.py)."""
    VOCAB_SIZE = X.shape[2]
    total_sequences = X.shape[0]
    for i in range(total_sequences):
        X_sequence = data[i * seq_length:(i + 1) * seq_length]
        X_sequence_ix = [char_to_ix[value] for value in X_sequence]
        input_sequence = np.zeros((seq_length, VOCAB_SIZE))
        for j in range(seq_length):
            input_sequence[j][X_sequence_ix[j]] = 1.
        X[i] = input_sequence

        y_sequence = data[i * seq_length + 1:(i + 1) * seq_length + 1]
        y_sequence_ix = [char_to_ix[value] for value in y_sequence]
        target_sequence = np.zeros((seq_length, VOCAB_SIZE))
        for j in range(seq_length):
            target_sequence[j][y_sequence_ix[j]] = 1.
        y[i] = target_sequence


def vectorised_numpy(eye, x_ix, y_ix):
    """eye: numpy.eye(vocab, dtype=dt)."""
    return eye[x_ix], eye[y_ix]


def vectorised_numgpu(eye, x_ix, y_ix):
    """eye: numgpu.eye(vocab, dtype=dt). Codes up, one-hot on the device; the results stay there."""
    X, y = eye[ng.asarray(x_ix)], eye[ng.asarray(y_ix)]
    ng.synchronize()
    return X, y


# ---- memory ------------------------------------------------------------------------------

def available_memory():
    """Bytes the kernel says are available (MemAvailable), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def human(n):
    for unit, size in (("GiB", GiB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return "%.2f %s" % (n / size, unit)
    return "%d B" % n


# ---- running it --------------------------------------------------------------------------

def run_loop(text, chars, L, k):
    """(a): the seed's loop on the first k sequences: (seconds, X, y)."""
    data = text[:k * L + 1]
    char_to_ix = {ch: ix for ix, ch in enumerate(chars)}
    X = np.zeros((k, L, len(chars)))
    y = np.zeros((k, L, len(chars)))
    X.fill(0)  # touch the pages now: (a) and (b) time the loop, not the first page faults
    y.fill(0)
    t0 = time.perf_counter()
    seed_loop(data, char_to_ix, L, X, y)
    return time.perf_counter() - t0, X, y


def run_jit(text, chars, L, k, want_X, want_y):
    """(b): the seed's loop as written under @numgpu.jit, on the first k sequences: (seconds, status text)."""
    if not hasattr(ng, "jit"):
        return None, "not yet (issue 4: @numgpu.jit)"
    try:
        data = text[:k * L + 1]
        char_to_ix = {ch: ix for ix, ch in enumerate(chars)}
        X = np.zeros((k, L, len(chars)))
        y = np.zeros((k, L, len(chars)))
        X.fill(0)  # as in run_loop: pages touched before the clock starts
        y.fill(0)
        f = ng.jit(seed_loop)
        f(data, char_to_ix, L, np.zeros((1, L, len(chars))), np.zeros((1, L, len(chars))))  # compile (1 sequence)
        t0 = time.perf_counter()
        f(data, char_to_ix, L, X, y)
        seconds = time.perf_counter() - t0
    except Exception as exc:  # the jit's own error is the finding
        return None, "failed: %s: %s" % (type(exc).__name__, str(exc).splitlines()[0][:100])
    same = np.array_equal(X, want_X) and np.array_equal(y, want_y)
    outer = f.loop_report()[0]
    return seconds, ("equal to (a)" if same else "DIFFERS from (a)") + "; str, dict and np.zeros, loop ran %s" % (
        outer["kind"] if outer["ran"].startswith("kernel") else "as Python: " + str(outer["reason"])[:60])


def vectorised_passes(x_ix, y_ix, vocab, dtype, chunk, repeat, log):
    """(c), its download, and (d) over the whole text, `chunk` sequences at a time, `repeat`
    times. Results are compared in the first pass and dropped chunk by chunk. Out of memory
    halves the chunk and retries. Returns a dict of per-pass times, the chunk used and errors."""
    n_seq = x_ix.shape[0]
    times = {"c": [], "get": [], "d": []}
    out = {"times": times, "chunk": chunk, "equal": True, "error": None}
    for p in range(repeat):
        t = {"c": 0.0, "get": 0.0, "d": 0.0}
        t0 = time.perf_counter()
        eye_np = np.eye(vocab, dtype=dtype)
        t1 = time.perf_counter()
        eye_ng = ng.eye(vocab, dtype=dtype)
        t2 = time.perf_counter()
        t["d"], t["c"] = t1 - t0, t2 - t1
        start = 0
        while start < n_seq:
            stop = min(n_seq, start + out["chunk"])
            xs, ys = x_ix[start:stop], y_ix[start:stop]
            try:
                t0 = time.perf_counter()
                want = vectorised_numpy(eye_np, xs, ys)
                t1 = time.perf_counter()
                got_dev = vectorised_numgpu(eye_ng, xs, ys)
                t2 = time.perf_counter()
                for d, w in zip(got_dev, want):
                    t3 = time.perf_counter()
                    h = d.get()
                    t["get"] += time.perf_counter() - t3
                    if p == 0 and not (h.dtype == w.dtype and np.array_equal(h, w)):
                        out["equal"] = False
                    del h
            except (ng.OutOfMemoryError, MemoryError) as exc:
                want = got_dev = None
                if out["chunk"] == 1:
                    out["error"] = "out of memory even one sequence at a time: %s" % exc
                    return out
                out["chunk"] = max(1, out["chunk"] // 2)
                log("out of memory (%s); retrying with chunks of %d sequences" % (str(exc).splitlines()[0],
                                                                                   out["chunk"]))
                continue
            except Exception as exc:  # a numgpu failure on this device: report it, do not crash
                out["error"] = "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0])
                return out
            t["d"] += t1 - t0
            t["c"] += t2 - t1
            del want, got_dev
            start = stop
        for key in times:
            times[key].append(t[key])
    return out


def add_arguments(p):
    p.add_argument("--chars", type=int, default=500_000, help="characters of generated text (default 500000)")
    p.add_argument("--file", help="use this UTF-8 text file instead of a generated text")
    p.add_argument("--vocab", type=int, default=394, help="alphabet size of the generated text (default 394)")
    p.add_argument("--seq-length", type=int, default=30)
    p.add_argument("--dtype", default="float32", choices=DTYPES,
                   help="dtype of the one-hot arrays (default float32; the seed's np.zeros gives float64)")
    p.add_argument("--chunk", type=int, help="sequences per chunk (default: all at once if they fit the budget, "
                                             "else the most that fit)")
    p.add_argument("--max-bytes", type=float, default=2 * GiB,
                   help="memory budget for the one-hot arrays, bytes (default 2 GiB)")
    p.add_argument("--repeat", type=int, default=3, help="timed passes of the vectorised forms (default 3)")
    p.add_argument("--loop-seqs", type=int, default=500,
                   help="sequences to run the seed's Python loop on (default 500; its time is scaled up)")
    p.add_argument("--device", help="numgpu device (default: NUMGPU_DEVICE, else auto)")
    p.add_argument("--seed", type=int, default=0)


def run(args):
    if args.device:
        try:
            ng.set_device(args.device)
        except (ng.DeviceError, ValueError) as exc:
            print("numgpu demo: cannot use device %s: %s" % (args.device, exc), file=sys.stderr)
            return 2
    try:
        dev = str(ng.get_device())
    except (ng.DeviceError, ValueError) as exc:
        print("numgpu demo: no usable numgpu device: %s\n(run `numgpu doctor`)" % exc, file=sys.stderr)
        return 2
    L = args.seq_length
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
        source = args.file
    else:
        text = make_text(args.chars, make_alphabet(args.vocab), args.seed)
        source = "generated"
    if len(text) <= L:
        print("numgpu demo: the text has %d characters; need more than --seq-length=%d" % (len(text), L),
              file=sys.stderr)
        return 2
    x_ix, y_ix, chars = encode(text, L)
    vocab, n_seq = len(chars), x_ix.shape[0]
    dtype = np.dtype(args.dtype)

    print("numgpu demo: the seed question, char-level one-hot preprocessing for an RNN")
    print("text: %s, %s chars, vocabulary %d, seq_length %d -> %s sequences"
          % (source, format(len(text), ","), vocab, L, format(n_seq, ",")))
    per_seq = {d: 2 * L * vocab * np.dtype(d).itemsize for d in DTYPES}   # X and y, one sequence
    print("one-hot X and y, 2 x (%d, %d, %d), need: %s" % (n_seq, L, vocab, ", ".join(
        "%s%s %s" % ("*" if d == args.dtype else "", d, human(per_seq[d] * n_seq)) for d in DTYPES)))

    # Memory: NumPy's copy, the device's and the downloaded one are alive at once (3x).
    avail = available_memory()
    budget = int(min(args.max_bytes, avail // 2) if avail else args.max_bytes)
    why = "--max-bytes" if not avail or args.max_bytes <= avail // 2 else "half the available memory"
    need = 3 * per_seq[args.dtype] * n_seq
    if args.chunk:
        chunk = max(1, min(args.chunk, n_seq))
        how = "--chunk: %d chunk%s of %d sequences" % (-(-n_seq // chunk), "" if chunk >= n_seq else "s", chunk)
    elif need <= budget:
        chunk = n_seq
        how = "fits: all at once"
    else:
        chunk = max(1, budget // (3 * per_seq[args.dtype]))
        how = "does not fit: %d chunks of %d sequences" % (-(-n_seq // chunk), chunk)
    print("memory: X and y in %s take %s; with NumPy's copy, the device's and the downloaded one alive "
          "together, %s; budget %s (%s) -> %s" % (args.dtype, human(per_seq[args.dtype] * n_seq), human(need),
                                                   human(budget), why, how))
    print("numgpu device: %s" % dev)
    print()

    rows = []   # (label, runs on, seconds or None, note)
    ok = True

    # (a) and (b) on a prefix; the loop always makes float64, as the seed's np.zeros does.
    k = min(args.loop_seqs, n_seq, max(1, budget // (2 * per_seq["float64"])))
    t_loop = None
    if k > 0:
        secs, X_loop, y_loop = run_loop(text, chars, L, k)
        t_loop = secs * n_seq / k
        want_X, want_y = vectorised_numpy(np.eye(vocab), x_ix[:k], y_ix[:k])
        same = np.array_equal(X_loop, want_X) and np.array_equal(y_loop, want_y)
        ok &= same
        rows.append(("(a) Python loop (seed's code)", "numpy", t_loop,
                     "%s; %d sequences timed, scaled to %d" % ("reference" if same else "DIFFERS from (d)", k,
                                                              n_seq)))
        secs, status = run_jit(text, chars, L, k, X_loop, y_loop)
        ok &= "DIFFERS" not in status
        rows.append(("(b) same loop, @numgpu.jit", dev, secs * n_seq / k if secs else None, status))
        del X_loop, y_loop, want_X, want_y
    else:
        rows.append(("(a) Python loop (seed's code)", "numpy", None, "skipped (--loop-seqs 0)"))

    # (c) and (d): a small call first compiles (or loads) the kernels.
    t0 = time.perf_counter()
    try:
        vectorised_numgpu(ng.eye(vocab, dtype=dtype), x_ix[:1], y_ix[:1])
        warm_error = None
    except Exception as exc:  # reported in the table below
        warm_error = "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0])
    t_warm = time.perf_counter() - t0
    res = vectorised_passes(x_ix, y_ix, vocab, dtype, chunk, max(1, args.repeat),
                            lambda msg: print("  " + msg)) if not warm_error else {"error": warm_error}
    if res["error"]:
        ok = False
        rows.append(("(c) vectorised, numgpu", dev, None, "FAILED: " + res["error"][:150]))
        rows.append(("(d) vectorised, NumPy", "numpy", None, "not run (it runs alongside (c))"))
    else:
        med = {key: statistics.median(v) for key, v in res["times"].items()}
        ok &= res["equal"]
        rows.append(("(c) vectorised, numgpu", dev, med["c"],
                     ("equal to (d)" if res["equal"] else "DIFFERS from (d)")
                     + "; kernels compiled or loaded before: %.2f s" % t_warm))
        rows.append(("    (c) + download (.get())", dev, med["c"] + med["get"], "if the result is needed on the host"))
        rows.append(("(d) vectorised, NumPy", "numpy", med["d"], "equal to (a) on its sequences"))
        if res["chunk"] != chunk:
            print("note: out of memory made the chunks smaller: %d sequences" % res["chunk"])

    head = ("form", "runs on", "seconds", "vs (a)", "result")
    table = [head]
    for label, where, secs, note in rows:
        if secs is None:
            table.append((label, where, "-", "-", note))
        else:
            vs = "%.0fx" % (t_loop / secs) if t_loop and t_loop / secs >= 10 else (
                "%.1fx" % (t_loop / secs) if t_loop else "-")
            table.append((label, where, "%.4f" % secs, vs, note))
    w = [max(len(t[i]) for t in table) for i in range(4)]
    for i, t in enumerate(table):
        print("  ".join([t[0].ljust(w[0]), t[1].ljust(w[1]), t[2].rjust(w[2]), t[3].rjust(w[3]), t[4]]))
        if i == 0:
            print("-" * (sum(w) + 8 + 40))
    print("(seconds for the whole text; (a) and (b) write into X and y allocated beforehand, (c) and (d) "
          "allocate their results; (c) and (d): median of %d passes; (c) includes uploading the codes; "
          "vs (a): the loop's time / this one)" % max(1, args.repeat))
    print("result: all outputs equal" if ok else "result: MISMATCH or FAILURE (see above)")
    return 0 if ok else 1
