import numpy as np


def kernel(text):
    """Counts the vowels of a text, one character at a time, as plain Python reads it."""
    n = 0
    for c in text:  # expect: parallel reduce(+:n)
        if c in "aeiou":
            n += 1
    return n


def inputs(size, rng):
    n = {"test": 20_000, "bench": 50_000_000}[size]
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz    ", dtype=np.uint8)
    return (rng.choice(letters, n).tobytes().decode("ascii"),)
