import numpy as np


def kernel(text, char_to_ix, counts):
    """How often each character of a text occurs, through a dict from characters to bins."""
    for i in range(len(text)):  # expect: parallel atomic
        counts[char_to_ix[text[i]]] += 1


def inputs(size, rng):
    n = {"test": 20_000, "bench": 20_000_000}[size]
    alphabet = "abcdefghijklmnopqrstuvwxyz ,.;:!?'\n" + "".join(chr(c) for c in range(0x4E00, 0x4E00 + 60))
    text = "".join(rng.choice(list(alphabet), n))
    chars = sorted(set(text))
    return text, {ch: ix for ix, ch in enumerate(chars)}, np.zeros(len(chars), np.int64)
