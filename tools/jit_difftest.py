#!/usr/bin/env python3
"""Differential test of @numgpu.jit against plain Python on random loop functions.

Each function is drawn from a small grammar of what the jit compiles (range loops
with several bounds and steps, nested loops, if/else, locals, accumulators, running
values, array recurrences, reads at i - 1 and i + 1, integer and float arithmetic,
min/max/abs, math functions, bit operations; in 60% of functions also int8, uint8,
uint64, float32 and bool arrays, powers, shifts, divisors that may be 0, chained
comparisons, swaps, tuple unpacking, while True left by break; and in half of those
complex and float16 values, globals, a shape tuple, rows (`r = M[i]`, Python's and NumPy's
reductions of them), elif chains, more math, scattered +=, a break out of the loop (or a return
from it, from an inner loop too), argmax
pairs, nests with prange or triangles and reductions, helpers returning two values, strs,
dicts of chars and of ints, str slices, list comprehensions, fresh arrays copied into rows; and
in half of those, slices: their reductions (of one axis and of two), len(), stores through
them, a window named in the body, arrays indexed by slices of integer arrays: `b[a[2:9]]`),
run once as Python and once through
numgpu.jit on copies of the same inputs; every array afterwards and the return value
must agree (integers exactly, floats within 1e-9 relative: a parallel sum adds in
another order; 4e-7 where float32 values took part), or both must raise the same
exception type (a parallel loop may raise another failing iteration's: README). Forms
whose Python type depends on values (min/max of a Python and a NumPy number) are
wrapped in int()/float(). A mismatch prints the function, its seed and the arrays
that differ, and the run exits 1.

    python tools/jit_difftest.py [--count 300] [--seed 0] [--seconds 0] [--show]

`--seconds N` runs until N seconds have passed (seeds from --seed on). Used by
tests/python/test_jit_difftest.py for a few fixed seeds; run it longer by hand.
"""
import argparse
import cmath
import math
import os
import random
import sys
import textwrap
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import numgpu  # noqa: E402

N = 37  # (odd, so halves and steps of 2 and 3 meet the ends in several ways)


class Gen:
    """One random function's source."""

    def __init__(self, rng):
        self.r = rng
        self.lines = []
        self.locals = []      # int locals assigned in the current loop body
        self.flocals = []     # float locals
        self.u64 = True
        self.prange = False
        self.wide = rng.random() < 0.6  # (the forms added later: narrow ints, bools, powers, divisors, ...)
        # (and in half of those the forms added after: complex values, globals, a shape tuple, rows,
        # elif chains, more math, scattered +=, a break out of the loop, argmax pairs)
        self.wide2 = self.wide and rng.random() < 0.5
        # (and in half of those: slices of one axis, in reductions, len(), stores and named windows)
        self.slices = self.wide2 and rng.random() < 0.5

    def pick(self, *xs):
        return self.r.choice(xs)

    def bound(self):
        """A slice bound: near i, an argument, negative (from the end), or an int expression."""
        r = self.r.random()
        if r < 0.75:
            return self.pick("i", "i - %d" % self.r.randint(1, 4), "i + %d" % self.r.randint(1, 5), "k",
                             "-%d" % self.r.randint(1, 6), str(self.r.randint(0, 40)), "N - i", "")
        u64, self.u64 = self.u64, False
        x = self.iexpr([("i")], 2)
        self.u64 = u64
        return x

    def sl(self):
        """A slice: lo:hi, with a step sometimes."""
        step = self.pick("", "", "", ":2", ":-1", ":3", ":-2")
        return "%s:%s%s" % (self.bound(), self.bound(), step)

    # -- expressions --
    def iexpr(self, idx, depth=0):
        """An int expression; idx: the index expressions safe to read at."""
        r = self.r.random()
        if depth > 2 or r < 0.35:
            leaves = ["a[%s]" % self.pick(*idx), "c[%s]" % self.pick(*idx), "k", str(self.r.randint(-4, 9))]
            leaves += ["i"] * 2 + self.locals
            if self.wide:
                leaves += ["e[%s]" % self.pick(*idx), "u[%s]" % self.pick(*idx), "m[%s]" % self.pick(*idx),
                           "a[-1]", "c[-%d]" % self.r.randint(1, 5), "M[%s, -1]" % self.pick(*idx),
                           ] + (["w[%s]" % self.pick(*idx)] if self.u64 else [])  # (w: uint64; with an int64, a float64 in NumPy)
            if self.wide2:
                leaves += ["SCALE", "TAB[%s]" % self.pick(*idx), "sh[1]", "len(M)", "M.shape[0]"]
            return self.pick(*leaves)
        d = depth + 1
        form = self.r.randint(0, 18 if self.slices else 17 if self.wide2 else 13 if self.wide else 9)
        if form == 18:  # a slice's reduction or length
            return self.pick("int(np.sum(a[%s]))" % self.sl(), "len(c[%s])" % self.sl(), "int(np.max(c[%s]))" % self.sl(),
                             "int(np.sum(M[%s, %d]))" % (self.sl(), self.r.randint(0, 3)),
                             "int(np.min(M[%s, %s]))" % (self.pick(*idx), self.sl()), "len(M[%s])" % self.sl(),
                             "int(np.sum(a[%s] * c[%s]))" % (self.sl(), self.sl()), "int(%s(e[%s]))" % (
                                 self.pick("max", "min", "sum"), self.sl()),
                             "int(np.argmax(c[%s]))" % self.sl(), "int(M[%s, %s].argmin())" % (self.sl(), self.sl()),
                             "int(a[%s].sum())" % self.sl())
        if form == 15:  # (inf: OverflowError, nan: ValueError)
            return "%s(%s)" % (self.pick("math.trunc", "int"), self.fexpr(idx, d))
        if form == 16:
            return "int(np.sign(%s))" % self.fexpr(idx, d)
        if form == 17:  # a row's reduction
            row = self.pick(*idx)
            return self.pick("int(np.sum(M[%s] * %s))" % (row, self.iexpr(idx, d)), "int(np.max(M[%s]))" % row,
                             "int(np.min(M[%s] - M[%s]))" % (row, self.pick(*idx)), "int(np.dot(M[%s], M[%s]))" % (
                                 row, self.pick(*idx)), "rowsum(M, %s)" % row, "int(%s(M[%s]))" % (
                                 self.pick("max", "min"), row))
        if form == 10:  # a power: ints to small exponents (a negative one raises in NumPy)
            return "(%s ** %s)" % (self.iexpr(idx, d), self.pick("2", "3", "0", "(i % 3)", "(a[0] % 3)"))
        if form == 11:  # shifts
            return "(%s %s %s)" % (self.iexpr(idx, d), self.pick("<<", ">>"), self.pick("2", "(i % 5)", "(c[0] & 3)"))
        if form == 12:  # a divisor that may be 0 (0 for NumPy ints, ZeroDivisionError for Python's)
            return "(%s %s %s)" % (self.iexpr(idx, d), self.pick("//", "%"),
                                   self.pick("c[%s]" % self.pick(*idx), "(i - %d)" % self.r.randint(0, 30), "k",
                                             "e[%s]" % self.pick(*idx), "u[%s]" % self.pick(*idx)))
        if form == 13:
            return "%s(%s)" % (self.pick("math.floor", "math.ceil", "round"), self.fexpr(idx, d))
        if form <= 3:
            return "(%s %s %s)" % (self.iexpr(idx, d), self.pick("+", "-", "*", "+"), self.iexpr(idx, d))
        if form == 4:
            return "(%s %s %d)" % (self.iexpr(idx, d), self.pick("//", "%"), self.pick(2, 3, 5, -3))
        if form in (5, 8, 14) and self.wide:  # (int() of a uint64 past 2**63 raises: README, so no uint64 in it)
            u64, self.u64 = self.u64, False
            x = self.iexpr_chosen(idx, d, form)
            self.u64 = u64
            return x
        if form == 5:
            m = "%s(%s, %s)" % (self.pick("min", "max"), self.iexpr(idx, d), self.iexpr(idx, d))
            return "int(%s)" % m if self.wide else m  # (Python's type is the object's: README)
        if form == 6:
            return "abs(%s)" % self.iexpr(idx, d)
        if form == 7:
            return "(%s %s %d)" % (self.iexpr(idx, d), self.pick("&", "|", "^"), self.r.randint(0, 15))
        if form == 8:
            m = "(%s if %s else %s)" % (self.iexpr(idx, d), self.cond(idx, d), self.iexpr(idx, d))
            return "int%s" % m if self.wide else m
        return "int(%s)" % self.fexpr(idx, d)

    def iexpr_chosen(self, idx, d, form):
        """int() of min/max (of two or three) or a conditional expression (Python's type is
        the chosen object's: README)."""
        if form == 5:
            return "int(%s(%s, %s))" % (self.pick("min", "max"), self.iexpr(idx, d), self.iexpr(idx, d))
        if form == 8:
            return "int(%s if %s else %s)" % (self.iexpr(idx, d), self.cond(idx, d), self.iexpr(idx, d))
        return "int(%s(%s, %s, %s))" % (self.pick("min", "max"), self.iexpr(idx, d), self.iexpr(idx, d),
                                        self.iexpr(idx, d))

    def acc_value(self, idx, depth=0):
        """What an int accumulator takes in: in the wide forms a Python int (s = 0; s -= u[i] is
        a uint8 in Python's first iteration, then the name's type changes: README)."""
        self.u64 = False  # (int() of a uint64 that wrapped below 0 is past 2**63: a compiled loop's
        x = self.iexpr(idx, depth)  # Python ints are int64, README)
        self.u64 = True
        return "int(%s)" % x if self.wide else x

    def fexpr(self, idx, depth=0):
        r = self.r.random()
        if depth > 2 or r < 0.35:
            leaves = ["b[%s]" % self.pick(*idx), "t", "%.2f" % self.r.uniform(-3, 3), "float(i)"] + self.flocals
            if self.wide:
                leaves += ["g[%s]" % self.pick(*idx)]  # (float32: with Python floats, float32 in NumPy 2)
            if self.wide2:
                leaves += ["OFFS", "z[%s].real" % self.pick(*idx), "z[%s].imag" % self.pick(*idx),
                           "abs(z[%s])" % self.pick(*idx)]
            return self.pick(*leaves)
        d = depth + 1
        form = self.r.randint(0, 19 if self.wide2 else 13 if self.wide else 9)
        if self.slices and self.r.random() < 0.08:  # a slice's reduction
            return self.pick("float(np.sum(b[%s]))" % self.sl(), "float(np.max(b[%s]))" % self.sl(),
                             "float(np.mean(b[%s]))" % self.sl(), "float(np.dot(b[%s], b[%s]))" % (self.sl(), self.sl()),
                             "float(np.sum(b[%s] * g[%s]))" % (self.sl(), self.sl()), "float(max(b[%s]))" % self.sl(),
                             "float(np.sum(M[:, %d] * b[%s]))" % (self.r.randint(0, 3), self.sl()),
                             "float(np.prod(b[%s] * 0.5 + 1))" % self.sl(),
                             "float(np.sum(M[%s, %s] * %s))" % (self.sl(), self.sl(), self.fexpr(idx, 3)),
                             "float(np.max(M[%s, %s]))" % (self.sl(), self.sl()),
                             "float(np.mean(M[%s, %s] - M[%s, %s]))" % (self.sl(), self.sl(), self.sl(), self.sl()),
                             "float(b[%s].max())" % self.sl(), "float(M[%s, %s].mean())" % (self.sl(), self.sl()),
                             "float(np.argmin(b[%s] - g[%s]))" % (self.sl(), self.sl()),
                             "float(np.sum(b[a[%s]]))" % self.sl(), "float(np.max(b[c[%s]] * 2 - b[%s]))" % (
                                 self.sl(), self.sl()), "float(np.sum(M[c[%s], 1]))" % self.sl(),
                             "float(np.mean(M[a[%s] + 1]))" % self.sl())  # (arrays of integers as indices)
        if form == 14:
            return "%s(%s, %s)" % (self.pick("math.atan2", "math.hypot", "math.copysign", "np.minimum", "np.maximum"),
                                   self.fexpr(idx, d), self.fexpr(idx, d))
        if form == 15:  # (a 0 divisor or an infinite x: ValueError)
            return "math.fmod(%s, %s)" % (self.fexpr(idx, d), self.pick("t", "b[%s]" % self.pick(*idx), "1.5",
                                                                        "float(i - 5)"))
        if form == 16:
            row = self.pick(*idx)
            return self.pick("float(np.sum(M[%s] * %s))" % (row, self.fexpr(idx, d)), "float(np.mean(M[%s]))" % row,
                             "float(np.prod(M[%s] %% 3 + 1))" % row,
                             "float(np.sum(M[%s] * math.sqrt(%s)))" % (row, self.fexpr(idx, d)))  # (may raise)
        if form == 17:
            return "%s(%s)" % (self.pick("np.log1p", "math.expm1", "np.cos", "math.atan"), self.pick(
                "abs(%s)" % self.fexpr(idx, d), "min(%s, 3.0)" % self.fexpr(idx, d)))
        if form >= 18:
            return self.pick("abs(%s)", "(%s).real", "(%s).imag") % self.cexpr(idx, d)
        if form == 10:  # a divisor that may be 0.0 (inf for NumPy floats, ZeroDivisionError for Python's)
            return "(%s %s %s)" % (self.fexpr(idx, d), self.pick("/", "//", "%"),
                                   self.pick("float(i)", "b[%s]" % self.pick(*idx), "t", "0.75", "float(i - 3)"))
        if form == 11:
            # (not np.tanh: NumPy's SIMD tanh gives 1.0 where libm's gives 1 - 2**-53, which int()
            # makes 1 or 0: README's few-ulp math; seeds 260209, 320784, 364336)
            return "%s(%s)" % (self.pick("np.floor", "np.abs", "np.exp", "np.sqrt", "np.arctan"),
                               self.fexpr(idx, d))
        if form == 12:
            return "(abs(%s) ** %s)" % (self.fexpr(idx, d), self.pick("2", "0.5", "-1", "1.5", "k"))
        if form == 13:
            return "(%s / %s)" % (self.iexpr(idx, d), self.pick("2", "c[%s]" % self.pick(*idx), "k", "(i - 4)"))
        if form == 8:
            return "%s(%s)" % (self.pick("h", "math.sqrt", "math.log"), self.fexpr(idx, d))  # (may raise)
        if form == 9:
            row = self.pick(*idx)
            return self.pick("np.sum(M[%s])" % row, "np.max(M[%s])" % row, "float(M[%s, 0])" % row)
        if form <= 2:
            return "(%s %s %s)" % (self.fexpr(idx, d), self.pick("+", "-", "*"), self.fexpr(idx, d))
        if form == 3:
            return "(%s / %s)" % (self.fexpr(idx, d), self.pick("2.0", "-4.0", "3.0"))
        if form == 4:
            return "math.sqrt(abs(%s))" % self.fexpr(idx, d)
        if form == 5:
            m = "%s(%s, %s)" % (self.pick("min", "max"), self.fexpr(idx, d), self.fexpr(idx, d))
            return "float(%s)" % m if self.wide else m  # (Python's type is the object's: README)
        if form == 6:
            return "(%s * 0.5)" % self.iexpr(idx, d)
        return "math.%s(min(%s, 3.0))" % (self.pick("exp", "tanh", "sin"), self.fexpr(idx, d))

    def cexpr(self, idx, depth=0):
        """A complex expression (z: complex128)."""
        if depth > 2 or self.r.random() < 0.4:
            return self.pick("z[%s]" % self.pick(*idx), "z[%s]" % self.pick(*idx), "complex(%s, %s)" % (
                self.fexpr(idx, 3), self.fexpr(idx, 3)), "1j", "(%s * 1j)" % self.fexpr(idx, 3))
        d = depth + 1
        form = self.r.randint(0, 5)
        if form <= 1:
            return "(%s %s %s)" % (self.cexpr(idx, d), self.pick("+", "-", "*"), self.cexpr(idx, d))
        if form == 2:
            return "(%s %s %s)" % (self.cexpr(idx, d), self.pick("*", "+", "/"), self.fexpr(idx, d))
        if form == 3:  # (0 for z[i] + 2 == 0: NumPy's inf/nan, Python's ZeroDivisionError)
            return "(%s / (%s + 2))" % (self.cexpr(idx, d), self.cexpr(idx, d))
        if form == 4:
            return "cmath.sqrt(%s)" % self.cexpr(idx, d)
        return "%s.conjugate()" % self.cexpr(idx, d)

    def cond(self, idx, depth=0):
        form = self.r.randint(0, 7 if self.wide2 else 5 if self.wide else 3)
        if form == 6:
            return "%s(%s)" % (self.pick("math.isnan", "math.isfinite", "math.isinf"), self.fexpr(idx, depth + 1))
        if form == 7:
            return self.pick("abs(z[%s]) > 1.0" % self.pick(*idx), "z[%s] == z[%s]" % (self.pick(*idx), self.pick(*idx)),
                             "%s != 0" % self.cexpr(idx, 2))
        if form == 4:
            return "%d %s %s %s %d" % (self.r.randint(-6, 0), self.pick("<", "<="), self.iexpr(idx, depth + 1),
                                      self.pick("<", "<="), self.r.randint(0, 8))
        if form == 5:
            return self.pick("m[%s]" % self.pick(*idx), "not m[%s]" % self.pick(*idx), "bool(%s)" % self.iexpr(idx, 2),
                             "%s" % self.iexpr(idx, 2))
        if form == 0:
            return "%s %s %s" % (self.iexpr(idx, depth + 1), self.pick("<", ">", "==", "!=", "<=", ">="),
                                 self.iexpr(idx, depth + 1))
        if form == 1:
            return "%s > %s" % (self.fexpr(idx, depth + 1), self.fexpr(idx, depth + 1))
        if form == 2:
            return "%s %s %s" % (self.cond(idx, depth + 1) if depth < 2 else "i > 3", self.pick("and", "or"),
                                 "a[%s] %% 2 == 0" % self.pick(*idx))
        return "not (%s)" % (self.cond(idx, depth + 1) if depth < 2 else "k > i")

    # -- statements --
    def stmt(self, ind, idx, accs, depth=0):
        """One statement (lines appended) of a loop body over i."""
        form = self.r.randint(0, 50 if self.slices else 45 if self.wide2 else 27 if self.wide else 21)
        pad = "    " * ind
        if form == 46 and depth < 1 and not self.prange:  # a store through a slice (no prange: it races)
            self.lines.append(self.pick(
                "%sout[%s] = b[%s] * %s" % (pad, self.sl(), self.sl(), self.fexpr(idx, 2)),
                "%sout[%s] = %s" % (pad, self.sl(), self.fexpr(idx, 2)),
                "%siout[%s] += %s" % (pad, self.sl(), self.iexpr(idx, 2)),
                "%sM[i, %s] = a[%s] + %s" % (pad, self.sl(), self.sl(), self.iexpr(idx, 2)),
                "%sM[%s, %d] -= c[%s]" % (pad, self.sl(), self.r.randint(0, 3), self.sl()),
                "%sM[%s, %s] = %s" % (pad, self.sl(), self.sl(), self.iexpr(idx, 2)),
                "%sM[%s, %s] *= %d" % (pad, self.sl(), self.sl(), self.r.randint(-2, 3))))
            return
        if form == 48 and depth < 1:  # a small array made in the body (a variable per element)
            bf, k = "bf%d" % len(self.lines), self.r.randint(1, 5)
            n = self.pick(str(k), "k")  # (the argument k, 1 to 5: the kernel made for its value)
            ints = self.r.random() < 0.5
            self.u64 = False
            val = (lambda: self.iexpr(idx, 2)) if ints else (lambda: self.fexpr(idx, 2))
            at = self.iexpr(idx, 2)
            self.lines.append("%s%s = %s" % (pad, bf, self.pick(
                "np.zeros(%s, np.int64)" % n, "np.ones(%s, dtype=np.int64)" % n, "np.full(%s, %d)" % (n, self.r.randint(-3, 3)))
                if ints else self.pick("np.zeros(%s)" % n, "np.ones(%s)" % n, "np.full(%s, 1.5)" % n, "np.empty(%s)" % n)))
            self.lines.append("%s%s[:] = %s" % (pad, bf, val()))
            self.lines.append("%s%s[abs(%s) %% %s] %s %s" % (pad, bf, at, n, self.pick("=", "+=", "-="), val()))
            self.lines.append("%s%s[%d] = %s" % (pad, bf, self.r.randint(-k, k - 1) if n != "k" else self.pick(0, -1), val()))
            self.lines.append("%s%s %s %s" % (pad, bf, self.pick("+=", "-=", "*="), val()))
            self.u64 = True
            self.lines.append(("%siout[i] = int(np.sum(%s)) + int(%s[-1]) + len(%s)" if ints else
                               "%sout[i] = float(np.max(%s)) + float(%s[-1]) + len(%s)") % (pad, bf, bf, bf))
            return
        if form == 49 and depth < 1:  # a small matrix made in the body: loops over its axes (unrolled), parts
            bm, rows, cols = "bm%d" % len(self.lines), self.r.randint(1, 3), self.r.randint(1, 4)
            p, q = "p%d" % len(self.lines), "q%d" % len(self.lines)
            ints = self.r.random() < 0.5
            self.u64 = False
            val = (lambda ix: self.iexpr(ix, 2)) if ints else (lambda ix: self.fexpr(ix, 2))
            self.lines.append("%s%s = %s" % (pad, bm, self.pick("np.zeros((%d, %d), np.int64)", "np.ones((%d, %d), int)")
                                              % (rows, cols) if ints else
                                              self.pick("np.zeros((%d, %d))", "np.full((%d, %d), 0.5)") % (rows, cols)))
            self.lines.append("%sfor %s in range(%d):" % (pad, p, rows))
            self.lines.append("%s    for %s in range(%s):" % (pad, q, self.pick(str(cols), "%d, 0, -1" % (cols - 1))))
            self.lines.append("%s        %s[%s, %s] %s %s" % (pad, bm, p, q, self.pick("=", "+=", "-="),
                                                             val(idx + [p, q])))
            self.lines.append("%s%s[abs(%s) %% %d, %s] = %s" % (pad, bm, self.iexpr(idx, 2), rows,
                                                              self.pick("-1", "abs(%s) %% %d" % (self.iexpr(idx, 2), cols)),
                                                              val(idx)))
            self.lines.append("%s%s[%d] %s %s" % (pad, bm, self.r.randint(-rows, rows - 1), self.pick("+=", "*="), val(idx)))
            self.u64 = True
            self.lines.append(("%siout[i] = int(np.sum(%s)) + int(%s[-1, 0]) + %s.shape[1]" if ints else
                               "%sout[i] = float(np.max(%s)) + float(%s[-1][0]) + %s.shape[1]") % (pad, bm, bm, bm))
            return
        if form == 50 and depth < 1:  # small arrays copied from parts, made like them, of lengths from shapes
            cp, cq = "cp%d" % len(self.lines), "cq%d" % len(self.lines)
            src = "M[%s]" % self.pick(*idx)
            self.u64 = False
            self.lines.append("%s%s = %s" % (pad, cp, self.pick("%s.copy()" % src, "np.copy(%s)" % src,
                                                                "np.zeros_like(%s)" % src,
                                                                "np.full_like(%s, %d)" % (src, self.r.randint(-3, 3)),
                                                                "M[:, %d].copy()" % self.r.randint(0, 3))))
            self.lines.append("%s%s[abs(%s) %% len(%s)] %s %s" % (pad, cp, self.iexpr(idx, 2), cp,
                                                                self.pick("=", "+=", "-="), self.iexpr(idx, 2)))
            self.lines.append("%s%s = %s" % (pad, cq, self.pick("np.zeros(M.shape[1] + %d)" % self.r.randint(0, 2),
                                                                "np.ones(len(a) // %d)" % self.r.randint(4, 9),
                                                                "np.full((k, M.shape[-1] - 2), 0.5)",
                                                                "np.zeros_like(%s, dtype=float)" % cp,
                                                                "%s.copy()" % cp)))
            self.lines.append("%s%s[abs(%s) %% len(%s)] = %s" % (pad, cq, self.iexpr(idx, 2), cq, self.fexpr(idx, 2)))
            self.u64 = True
            self.lines.append("%sout[i] = float(np.sum(%s)) + float(np.max(%s)) + len(%s) * 100" % (pad, cp, cq, cq))
            return
        if form == 47 and depth < 1:  # a window named in the body, read whole and by element
            wv = "wv%d" % len(self.lines)
            self.lines.append("%s%s = b[%s:%s]" % (pad, wv, self.bound(), self.bound()))
            self.lines.append("%sout[i] = %s" % (pad, self.pick("float(np.sum(%s)) + len(%s)" % (wv, wv),
                                                                "float(np.sum(%s * %s))" % (wv, wv),
                                                                "%s[0] + float(np.max(%s))" % (wv, wv))))
            return
        if form == 44 and depth < 1:  # a row stored whole
            src = self.pick(*idx)
            self.lines.append("%sM[i%s] %s %s" % (pad, self.pick("", ", :"), self.pick("=", "=", "+="), self.pick(
                "M[%s] * 2 + %s" % (src, self.iexpr(idx, 2)), "M[%s] - int(np.sum(M[%s]))" % (src, self.pick(*idx)),
                "%s" % self.iexpr(idx, 2), "M[%s, :] // 3" % src)))
            return
        if form == 45 and depth < 1:  # a float row from a row of M
            self.lines.append("%srw%d = M[%s] * %s" % (pad, len(self.lines), self.pick(*idx), self.fexpr(idx, 2)))
            self.lines.append("%sout[i] = float(np.max(rw%d))" % (pad, len(self.lines) - 1))
            return
        if form == 39:  # a dict looked up by a character (KeyError where it has none)
            ch = "txt[%s]" % self.pick(*idx)
            if self.r.random() < 0.5:
                self.lines.append("%sif %s in dct:" % (pad, ch))
                pad += "    "
            self.lines.append("%siout[i] = dct[%s] + %s" % (pad, ch, self.iexpr(idx, 2)))
            return
        if form == 40:
            self.lines.append("%sif txt[%s] == '%s' or txt[%s] in '%s':" % (pad, self.pick(*idx), self.pick("a", "b", "z"),
                                                                         self.pick(*idx), self.pick("xyz", "ae", "")))
            self.lines.append("%s    iout[i] += %s" % (pad, self.pick("1", "ord(txt[i]) - 97", "len(txt)")))
            return
        if form == 41:  # a dict of int keys (KeyError where it has none)
            self.u64 = False
            key = "abs(%s) %% 12" % self.iexpr(idx, 2)
            self.u64 = True
            if self.r.random() < 0.5:
                self.lines.append("%sif %s in idct:" % (pad, key))
                pad += "    "
            self.lines.append("%siout[i] = idct[%s]" % (pad, key))
            return
        if form == 42 and depth < 1:  # a fresh array filled and copied into a row
            zr = "zr%d" % len(self.lines)
            self.u64 = False
            at = self.iexpr(idx, 2)
            self.u64 = True
            self.lines.append("%s%s = np.zeros(4, np.int64)" % (pad, zr))
            self.lines.append("%s%s[abs(%s) %% 4] = %s" % (pad, zr, at, self.r.randint(1, 9)))
            self.lines.append("%sM[i] = %s" % (pad, zr))
            return
        if form == 43 and depth < 1:  # a slice of the str and a list made from it
            w = "sl%d" % len(self.lines)
            self.lines.append("%s%s = txt[i:i + %d]" % (pad, w, self.r.randint(1, 4)))
            self.lines.append("%s%sx = [ord(q) - 96 for q in %s]" % (pad, w, w))
            self.lines.append("%sfor j in range(len(%sx)):" % (pad, w))
            self.lines.append("%s    iout[i] += %sx[j] * (j + 1)" % (pad, w))
            return
        if form == 38:  # float16: every operation rounds to a half
            self.lines.append("%shf[i] = %s" % (pad, self.pick(
                "hf[%s] * np.float16(%s) + hf[i]" % (self.pick(*idx), self.fexpr(idx, 2)),
                "hf[i] - hf[%s] / np.float16(3)" % self.pick(*idx), "np.float16(%s)" % self.fexpr(idx, 1),
                "max(hf[i], hf[%s])" % self.pick(*idx))))
            return
        if form == 35:  # a helper returning two values
            v = "p%d" % len(self.lines)
            self.lines.append("%s%s, %sq = two(%s)" % (pad, v, v, self.iexpr(idx, 1)))
            self.lines.append("%siout[i] = %s - %sq" % (pad, v, v))
            return
        if form == 36 and depth < 1:  # a loop over the shape tuple
            self.lines.append("%sfor d in sh:" % pad)
            self.lines.append("%s    iout[i] += d * %s" % (pad, self.iexpr(idx, 2)))
            return
        if form == 37 and depth < 1:  # a while loop whose test reads arrays
            x = "y%d" % len(self.lines)
            self.lines.append("%s%s = i" % (pad, x))
            self.lines.append("%swhile %s > 0 and a[%s] %s %d:" % (pad, x, x, self.pick(">", "<", "!="), self.r.randint(-5, 5)))
            self.lines.append("%s    %s -= %d" % (pad, x, self.r.randint(1, 3)))
            self.lines.append("%siout[i] = %s" % (pad, x))
            return
        if form == 28 and depth < 2:  # an elif chain
            self.lines.append("%sif %s:" % (pad, self.cond(idx, 1)))
            self.stmt(ind + 1, idx, accs, depth + 1)
            for _ in range(self.r.randint(1, 2)):
                self.lines.append("%selif %s:" % (pad, self.cond(idx, 1)))
                self.stmt(ind + 1, idx, accs, depth + 1)
            if self.r.random() < 0.6:
                self.lines.append("%selse:" % pad)
                self.stmt(ind + 1, idx, accs, depth + 1)
            return
        if form == 29:  # complex values
            self.lines.append(self.pick("%sz[i] = %s", "%sz[i] += %s", "%sz[i] *= %s") % (pad, self.cexpr(idx)))
            return
        if form == 30:
            self.lines.append("%sout[i] = %s" % (pad, self.pick("abs(%s)", "(%s).real", "(%s).imag") % self.pick(
                "z[i] * z[%s]" % self.pick(*idx), "cmath.sqrt(z[i])", "z[i] - %s" % self.fexpr(idx, 2))))
            return
        if form == 31 and depth < 1:  # a row of M, read, or written at this i
            r = "r%d" % len(self.lines)
            src = self.pick(*idx)
            self.lines.append("%s%s = M[%s]" % (pad, r, src))
            if src == "i" and self.r.random() < 0.5:
                self.lines.append("%s%s[%d] = %s" % (pad, r, self.r.randint(0, 3), self.iexpr(idx, 2)))
            self.lines.append("%siout[i] = %s" % (pad, self.pick("int(np.sum(%s * %s))" % (r, r), "%s[%d] + %s[-1]" % (
                r, self.r.randint(0, 3), r), "int(np.max(%s)) - %s[0]" % (r, r))))
            return
        if form == 32 and not self.prange:  # a scattered += (atomics)
            self.u64 = False  # (an index: with a uint64, a float in NumPy)
            self.lines.append(self.pick("%siout[abs(%s) %% N] += %s" % (pad, self.iexpr(idx, 2), self.iexpr(idx, 2)),
                                        "%sout[abs(%s) %% N] += %s" % (pad, self.iexpr(idx, 2), self.fexpr(idx, 2)),
                                        "%siout[%s %% N] -= 1" % (pad, self.iexpr(idx, 1))))
            self.u64 = True
            return
        if form == 33 and depth == 0 and not self.prange:  # leaving the loop (or the function)
            self.lines.append("%sif %s:" % (pad, self.cond(idx, 1)))
            if self.wide2 and self.r.random() < 0.5:
                self.lines.append("%s    return %s" % (pad, self.pick("i", "(i, %s)" % self.iexpr(idx, 2), self.fexpr(idx, 2),
                                                                      "None", "", "%s, i" % self.cond(idx, 2))))
            else:
                self.lines.append("%s    break" % pad)
            return
        if form == 34 and depth == 0 and accs:  # an argmax pair, or a product, or a minimum
            name, kind = self.r.choice(accs)
            if kind == "i":
                v = self.iexpr(idx, 2)
                self.lines.append("%sif %s %s %s:" % (pad, v, self.pick(">", "<", ">="), name))
                self.lines.append("%s    %s = %s" % (pad, name, v))
                self.lines.append("%s    %s_at = i" % (pad, name))
            else:
                self.lines.append(self.pick("%s%s = min(%s, %s)" % (pad, name, name, self.fexpr(idx, 1)),
                                            "%s%s *= 1.0 + %s * 0.01" % (pad, name, self.fexpr(idx, 2))))
            return
        if form == 22:  # narrow integers: NumPy's wrap, and its OverflowError for a Python int out of range
            arr = self.pick("e", "u", "c")
            self.lines.append("%s%s[i] = %s" % (pad, arr, self.pick("%s[%s] %s %s" % (arr, self.pick(*idx),
                                                                                     self.pick("+", "-", "*"), self.iexpr(idx, 2)),
                                                                self.iexpr(idx, 1), "%s[i] + %d" % (arr, self.r.randint(1, 200)))))
            return
        if form == 23:  # bools
            self.lines.append("%sm[i] = %s" % (pad, self.pick(self.cond(idx, 1), "m[%s] ^ m[i]" % self.pick(*idx),
                                                              "not m[i]", "m[i] and %s" % self.cond(idx, 2))))
            return
        if form == 24 and len(self.locals) >= 2:  # a swap of locals
            x, y = self.r.sample(self.locals, 2)
            self.lines.append("%s%s, %s = %s, %s" % (pad, x, y, y, self.pick(x, self.iexpr(idx, 1))))
            return
        if form == 25:  # tuple unpacking into new locals
            v = "p%d" % len(self.lines)
            self.lines.append("%s%s, %sq = %s, %s" % (pad, v, v, self.iexpr(idx, 1), self.fexpr(idx, 1)))
            self.lines.append("%sout[i] = %sq + %s" % (pad, v, v))
            if depth == 0:
                self.locals.append(v)
                self.flocals.append(v + "q")
            return
        if form == 26 and depth < 1:  # a while loop left by break
            x = "x%d" % len(self.lines)  # (a name of one type: README)
            # (an int: a float NaN would never leave the loop; uint64 with int32 is a float64)
            self.lines.append("%s%s = %s" % (pad, x, self.acc_value(idx, 1)))
            self.lines.append("%swhile True:" % pad)
            self.lines.append("%s    if %s %% 7 == 0 or %s > 40 or %s < -40:" % (pad, x, x, x))
            self.lines.append("%s        break" % pad)
            self.lines.append("%s    %s = %s * 3 + %d" % (pad, x, x, self.pick(1, 3, 5)))  # (no fixed point: it ends)
            self.lines.append("%siout[i] = %s" % (pad, x))
            return
        if form == 27 and not self.prange:  # a store at a computed index (no prange: it races)
            self.u64 = not self.wide2  # (an index: with a uint64, a float in NumPy)
            index = self.iexpr(idx, 1)
            self.u64 = True
            self.lines.append("%sout[%s %% N] = %s" % (pad, index, self.fexpr(idx, 1)))
            return
        if form == 16:  # float32 values stay float32
            self.lines.append("%sg[i] = g[%s] * np.float32(%s) + %s" % (pad, self.pick(*idx), self.fexpr(idx, 2),
                                                                      self.pick("g[i]", "np.float32(1.5)", "1.0")))
            return
        if form == 17:  # a helper writing into its argument
            self.lines.append("%sput(iout, i, %s)" % (pad, self.iexpr(idx, 1)))
            return
        if form == 18 and depth < 1:  # a row loop of the 2-d array
            self.lines.append("%sfor j in range(M.shape[1]):" % pad)
            self.lines.append("%s    M[i, j] = M[i, j] * 2 + %s" % (pad, self.iexpr(idx, 2)))
            return
        if form == 19:  # a division by a Python int that may be 0
            self.lines.append("%siout[i] += k // (i - %d)" % (pad, self.r.randint(0, 40)))
            return
        if form == 20 and depth >= 1:
            self.lines.append("%scontinue" % pad)
            return
        if form == 21:  # a read that wraps
            self.lines.append("%sout[i] = b[i - %d] + out[i]" % (pad, self.r.randint(1, 8)))
            return
        if form == 12:  # a while loop
            x = "x" if not self.wide else "x%d" % len(self.lines)  # (a name of one type: README)
            self.lines.append("%s%s = abs(a[%s]) + 1" % (pad, x, self.pick(*idx)))
            self.lines.append("%swhile %s > 1:" % (pad, x))
            self.lines.append("%s    %s = %s // %d" % (pad, x, x, self.r.randint(2, 3)))
            self.lines.append("%s    iout[i] += 1" % pad)
            return
        if form == 13 and depth < 1:  # a search in an inner loop
            self.lines.append("%sfor j in range(M.shape[1]):" % pad)
            self.lines.append("%s    if M[%s, j] > %d:" % (pad, self.pick(*idx), self.r.randint(-5, 5)))
            if self.wide2 and not self.prange and self.r.random() < 0.3:  # out of both loops
                self.lines.append("%s        return j, %s" % (pad, self.pick("i", self.iexpr(idx, 2))))
                return
            self.lines.append("%s        iout[i] = j" % pad)
            self.lines.append("%s        break" % pad)
            return
        if form == 14 and depth < 1:  # a row written
            self.lines.append("%sfor j in range(M.shape[1]):" % pad)
            self.lines.append("%s    M[i, j] = %s" % (pad, self.iexpr(idx, 2)))
            return
        if form == 15 and depth == 0 and accs:  # a running value
            name, kind = self.r.choice(accs)
            if kind == "i":
                self.lines.append("%s%s %s= %s" % (pad, name, self.pick("+", "|", "^"), self.acc_value(idx, 1)))
                self.lines.append("%siout[i] = %s" % (pad, name))
            else:
                self.lines.append("%s%s = max(%s, %s)" % (pad, name, name, self.fexpr(idx, 1)))
                self.lines.append("%sout[i] = %s" % (pad, name))
            return
        if form <= 1:
            self.lines.append("%siout[i] = %s" % (pad, self.iexpr(idx)))
        elif form <= 3:
            self.lines.append("%sout[i] = %s" % (pad, self.fexpr(idx)))
        elif form == 4:
            self.lines.append("%siout[i] %s= %s" % (pad, self.pick("+", "-", "^", "|"), self.iexpr(idx)))
        elif form == 5 and accs:
            name, kind = self.r.choice(accs)
            if kind == "i":
                upd = self.pick("%s += %s", "%s -= %s", "%s = max(%s, %s)", "%s |= %s", "%s ^= %s")
                self.lines.append(pad + (upd % ((name, name, self.acc_value(idx)) if upd.count("%s") == 3
                                                else (name, self.acc_value(idx)))))
            else:
                self.lines.append("%s%s += %s" % (pad, name, self.fexpr(idx)))
        elif form == 6 and accs:
            name, kind = self.r.choice(accs)
            self.lines.append("%s%s[i] = %s" % (pad, "iout" if kind == "i" else "out", name))
        elif form == 7 and depth < 2:
            self.lines.append("%sif %s:" % (pad, self.cond(idx)))
            self.stmt(ind + 1, idx, accs, depth + 1)
            if self.r.random() < 0.5:
                self.lines.append("%selse:" % pad)
                self.stmt(ind + 1, idx, accs, depth + 1)
        elif form == 8:
            v = "v%d" % len(self.lines)
            self.lines.append("%s%s = %s" % (pad, v, self.iexpr(idx)))
            if depth == 0:
                self.locals.append(v)
        elif form == 9:
            w = "w%d" % len(self.lines)
            self.lines.append("%s%s = %s" % (pad, w, self.fexpr(idx)))
            if depth == 0:
                self.flocals.append(w)
        elif form == 10 and depth < 1:
            self.lines.append("%sfor j in range(%d):" % (pad, self.r.randint(0, 4)))
            self.lines.append("%s    iout[i] += j * %s" % (pad, self.iexpr(idx, 2)))
        else:
            self.lines.append("%siout[i] = iout[%s] + %s" % (pad, self.pick(*idx), self.iexpr(idx)))

    def loop(self, accs):
        """A range loop over i whose indices stay in [0, N)."""
        kind = self.r.randint(0, 4)
        if kind == 0:
            head, idx = self.pick("range(N)", "numgpu.prange(N)"), ["i"]
        elif kind == 1:
            head, idx = "range(1, N - 1)", ["i", "i - 1", "i + 1"]
        elif kind == 2:
            head, idx = "range(N - 2, 0, -1)", ["i", "i + 1", "i - 1"]
        elif kind == 3:
            head, idx = "range(%d, N, %d)" % (self.r.randint(1, 3), self.r.randint(1, 3)), ["i", "i - 1"]
        else:
            head, idx = "range(len(a) - 1)", ["i", "i + 1", "N - 1 - i"]
        self.locals, self.flocals = [], []
        self.prange = head.startswith("numgpu.prange")
        if self.prange:
            accs = []  # (prange promises independent iterations: no running value)
        self.lines.append("    for i in %s:" % head)
        for _ in range(self.r.randint(1, 4)):
            self.stmt(2, idx, accs)

    def nest(self, accs=()):
        """A 2-d nest over M (parallel pairs the C emitter may tile or collapse)."""
        j_read = self.pick("M[i, j]", "M[i, j - 1]", "M[i - 1, j]", "M[N - 1 - i, j]", "M[i, 3 - j]")
        lo = 1 if "i - 1" in j_read else 0
        jlo = 1 if "j - 1" in j_read else 0
        outer = "range(%d, N)" % lo
        inner = "range(%d, M.shape[1])" % jlo
        if self.wide2:  # (the shape tuple, prange, a triangle)
            outer = self.pick(outer, "range(%d, sh[0])" % lo, "numgpu.prange(%d, N)" % lo if "i - 1" not in j_read
                              and "N - 1 - i" not in j_read else outer)
            inner = self.pick(inner, "range(%d, sh[1])" % jlo, "range(%d, min(i, 4))" % jlo)
        self.lines.append("    for i in %s:" % outer)
        self.lines.append("        for j in %s:" % inner)
        val = self.pick("%s * 2 + i - j" % j_read, "max(%s, j) - a[i]" % j_read, "(%s if (i + j) %% 3 else c[i])" % j_read,
                        "%s + int(b[i] * j)" % j_read)
        self.lines.append("            M[i, j] = %s" % val)
        if self.wide2 and accs and "prange" not in outer:  # a reduction over the nest
            name, kind = self.r.choice(accs)
            if kind == "i":
                self.lines.append("            %s %s" % (name, self.pick("+= M[i, j]", "^= M[i, j] * j", "= max(%s, M[i, j] - i)"
                                                                         % name)))
            else:
                self.lines.append("            %s += M[i, j] * b[i]" % name)

    def over_arrays(self):
        """for v in x / enumerate / zip: range loops over the first axis."""
        form = self.r.randint(0, 3 if self.wide2 else 2)
        if form == 3:  # over the characters of a str
            self.lines.append("    for ch in txt:")
            self.lines.append("        if ch in %s:" % self.pick("dct", "'aeiou'"))
            self.lines.append("            iout[%s %% N] += 1" % self.pick("ord(ch)", "len(txt)"))
            return
        if form == 0:
            self.lines.append("    for v in c:")
            self.lines.append("        iout[abs(v) %% N] += %d" % self.r.randint(1, 3))
        elif form == 1:
            self.lines.append("    for q, v in enumerate(b%s):" % self.pick("", ", 1"))
            self.lines.append("        out[q %% N] = v * %s" % self.pick("2.0", "t", "float(q)"))
        else:
            self.lines.append("    for x, y in zip(a, b):")
            self.lines.append("        iout[abs(x) % N] = int(y * 3)")
            self.lines.append("        x, y = y, x")

    def function(self):
        self.lines = ["SCALE = 3", "OFFS = 0.25", "TAB = np.arange(%d) %% 7 - 3" % N, "",
                      "def h(x):", "    if x > 1.0:", "        return x * 0.5", "    return x - 1.0", "",
                      "def put(arr, i, v):", "    arr[i] = v", "",
                      "def two(x):", "    return x + 1, x * 2", "",
                      "def rowsum(X, i):", "    s = 0", "    for j in range(X.shape[1]):", "        s += X[i, j]",
                      "    return int(s)", "",
                      "def f(a, b, c, out, iout, k, t, M, g, e, u, m, w, z, sh, hf, txt, dct, idct):", "    N = len(a)"]
        accs = []
        for n in range(self.r.randint(0, 2)):
            kind = self.pick("i", "f")
            name = "s%d" % n
            self.lines.append("    %s = %s" % (name, "0" if kind == "i" else "0.0"))
            if self.wide2 and kind == "i":
                self.lines.append("    %s_at = -1" % name)
            accs.append((name, kind))
        for _ in range(self.r.randint(1, 2)):
            kind = self.r.random()
            if kind < 0.15:
                self.nest(accs)
            elif kind < 0.25:
                self.over_arrays()
            else:
                self.loop(accs)
        ret = [n for n, _ in accs] + (["%s_at" % n for n, kind in accs if kind == "i"] if self.wide2 else [])
        self.lines.append("    return (%s)" % ", ".join(ret + ["0"]))
        return "\n".join(self.lines) + "\n"


def inputs(seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(-20, 20, N).astype(np.int64), rng.uniform(-5, 5, N), rng.integers(-9, 9, N).astype(np.int32),
            np.zeros(N), np.zeros(N, np.int64), int(rng.integers(1, 6)), float(rng.uniform(-2, 2)),
            rng.integers(-9, 9, (N, 4)).astype(np.int64), rng.uniform(-2, 2, N).astype(np.float32),
            rng.integers(-128, 128, N).astype(np.int8), rng.integers(0, 256, N).astype(np.uint8), rng.random(N) < 0.5,
            rng.integers(0, 50, N).astype(np.uint64),
            (rng.uniform(-2, 2, N) + 1j * rng.uniform(-2, 2, N)) * (rng.random(N) < 0.9) - 2 * (rng.random(N) < 0.1),
            (N, 4), rng.uniform(-4, 4, N).astype(np.float16),
            "".join(rng.choice(list("abcdexyz"), N)),
            {ch: int(v) for ch, v in zip("abcdxz", rng.integers(-5, 50, 6)) if rng.random() < 0.9},
            {q: int(v) for q, v in enumerate(rng.integers(-9, 9, 10)) if rng.random() < 0.85}]


def outcome(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with np.errstate(all="ignore"):
            return "ok", fn(*args), args
    except (ValueError, OverflowError, ZeroDivisionError, IndexError, TypeError, KeyError) as e:
        return type(e).__name__, str(e)[-70:], args


def same(x, y, f32=False):
    """x and y alike; f32: float32 values may have gone into them."""
    if isinstance(x, tuple):
        return isinstance(y, tuple) and len(x) == len(y) and all(same(p, q, f32) for p, q in zip(x, y))
    if isinstance(x, np.ndarray):
        if x.dtype != y.dtype:
            return False
        if x.dtype.kind in "fc":
            # (float32 values stored into float64 arrays: NumPy's float32 functions and the
            # kernel's may differ by an ulp, 6e-8)
            tol = 2e-3 if x.dtype == np.float16 else 1e-5 if x.dtype == np.float32 else 4e-7 if f32 else 1e-9
            return np.allclose(x, y, rtol=tol, atol=tol, equal_nan=True)
        return np.array_equal(x, y)
    if isinstance(x, (float, np.floating, complex, np.complexfloating)):
        tol = 4e-7 if f32 else 1e-9
        if isinstance(x, (complex, np.complexfloating)) != isinstance(y, (complex, np.complexfloating)):
            return False
        return cmath.isclose(x, y, rel_tol=tol, abs_tol=tol) or (cmath.isnan(x) and cmath.isnan(y))
    return x == y


HOW = {}  # how the loops ran ("kernel", "kernel (one thread)", a reason it ran as Python ...): counts


def check(seed, show=False):
    """None when the function of `seed` runs alike both ways, else a report."""
    src = Gen(random.Random(seed)).function()
    ns = {"math": math, "cmath": cmath, "np": np, "numgpu": numgpu}
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ngdiff_%d_%d.py" % (os.getpid(), seed))
    with open(path, "w") as f:  # (the jit reads the function's source from its file)
        f.write("import cmath\nimport math\nimport numpy as np\nimport numgpu\n\n" + src)
    try:
        exec(compile(open(path).read(), path, "exec"), ns)
        args = inputs(seed)
        want = outcome(ns["f"], args)
        jf = numgpu.jit(ns["f"])
        got = outcome(jf, args)
    finally:
        os.unlink(path)
    if show:
        print(src)
    for r in jf.loop_report():
        how = r["ran"] if r["ran"].startswith("kernel") else "python: " + r["ran"][:60]
        HOW[how] = HOW.get(how, 0) + 1
    f32 = "g[" in src or "float32" in src or "hf[" in src
    ok = want[0] == got[0] and (want[0] != "ok" or (same(want[1], got[1], f32) and
                                                     all(same(p, q, f32) for p, q in zip(want[2], got[2]))))
    if not ok and want[0] != "ok" and got[0] != "ok" and any(
            r["kind"] == "parallel" and r["ran"] == "kernel (raised)" for r in jf.loop_report()):
        # (a parallel loop raises one of its failing iterations' exceptions, the greatest code
        # (line), not the first's in Python's order: README's known deviations)
        HOW["kernel (raised): another iteration's exception"] = HOW.get(
            "kernel (raised): another iteration's exception", 0) + 1
        return None
    if ok:
        return None
    names = "a b c out iout k t M g e u m w z sh hf txt dct idct".split()
    diffs = ["%s: python %r, jit %r" % (n, p, q) for n, p, q in zip(names, want[2], got[2]) if not same(p, q, f32)]
    return "seed %d: mismatch\n%s\npython: %s %r\njit:    %s %r\n%s\nreport: %s\n" % (
        seed, textwrap.indent(src, "  "), want[0], want[1], got[0], got[1], "\n".join(diffs),
        [(r["line"], r["kind"], r["ran"]) for r in jf.loop_report()])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    start, bad, n = time.time(), 0, 0
    seed = args.seed
    while (time.time() - start < args.seconds) if args.seconds else n < args.count:
        report = check(seed, args.show)
        if report:
            bad += 1
            print(report, flush=True)
        seed += 1
        n += 1
    for how, count in sorted(HOW.items(), key=lambda x: -x[1]):
        print("  %5d loops ran as %s" % (count, how))
    print("jit_difftest: %d functions, %d mismatched (seeds %d..%d, device %s)"
          % (n, bad, args.seed, seed - 1, numgpu.get_device()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
