/* Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy
 * as 1, 2, 3", SC'11) built as IR: four 32-bit words computed from a 128-bit
 * counter and a 64-bit key alone, so every thread computes its own numbers and
 * every device the same bits. The device generator (src/ops/random.c) and the
 * loop jit's random numbers (src/jit/lower.c) both build it here. */
#ifndef NUMGPU_IR_PHILOX_H
#define NUMGPU_IR_PHILOX_H

#include "ir/ir.h"

#define NG_PHILOX_M0 0xD2511F53u /* round multipliers (Random123's PHILOX_M4x32_0/1) */
#define NG_PHILOX_M1 0xCD9E8D57u
#define NG_PHILOX_W0 0x9E3779B9u /* Weyl key increments (golden ratio, sqrt(3) - 1) */
#define NG_PHILOX_W1 0xBB67AE85u
#define NG_PHILOX_ROUNDS 10

/* Appends a statement to the caller's statement list. */
typedef void (*NgIrPush)(void *list, NgIrRef stmt);

/* The uint32 words of uint64 x, low first. */
void ng_ir_halves(NgIrKernel *k, NgIrRef x, NgIrRef out[2]);

/* The block of the 128-bit counter (lo, hi: uint64) under key key0, key1 (uint32): its four
 * words in w, variables declared by statements handed to push (each round's words are
 * variables, so the emitted source stays linear in the number of rounds). */
void ng_ir_philox(NgIrKernel *k, NgIrRef key0, NgIrRef key1, NgIrRef lo, NgIrRef hi, NgIrRef w[4], NgIrPush push,
                  void *list);

/* The uint64 of words hi and lo (uint32). */
NgIrRef ng_ir_join(NgIrKernel *k, NgIrRef hi, NgIrRef lo);

/* An integer in [0, n) of 64 random bits x (both uint64): the high half of x * n (Lemire's
 * multiply, with no rejection: a value's odds are off by at most n / 2**64), its partial
 * products' variables declared by statements handed to push. */
NgIrRef ng_ir_below(NgIrKernel *k, NgIrRef x, NgIrRef n, NgIrPush push, void *list);

/* The uint64 integer of those 53 bits (the uniform's, times 2^53). */
NgIrRef ng_ir_unit_bits(NgIrKernel *k, NgIrRef a, NgIrRef b);

/* A uniform float64 in [0, 1) with 53 random bits of words a and b (uint32): 27 from a, 26 from b. */
NgIrRef ng_ir_unit_f64(NgIrKernel *k, NgIrRef a, NgIrRef b);

/* Horner: c[0] + z*(c[1] + z*(... c[n-1])), float64. */
NgIrRef ng_ir_horner(NgIrKernel *k, NgIrRef z, const double *c, int n);

/* log(K * 2^-shift) of an integer 1 <= K <= 2^53 (uint64) from + - * / alone (IEEE operations,
 * correctly rounded everywhere): the same bits on every target, within a few ulp of log. */
NgIrRef ng_ir_log_scaled(NgIrKernel *k, NgIrRef K, int shift, NgIrPush push, void *list);

/* A standard normal by the ziggurat (Marsaglia and Tsang 2000; the layers in ir/ziggurat.h),
 * from 64-bit random words handed in one at a time: the caller declares the variables
 * (ng_ir_normal_vars), then loops while `go` holds, fetching a word w and running
 * ng_ir_normal_step(w) each time (one word almost always, 1.01 on average), then reads
 * ng_ir_normal_value. Its words decide it alone: + - * / and comparisons, a log of the
 * statements' own (ng_ir_log_scaled) in the tail, the target's exp only in a comparison, so
 * every target draws the same normal from the same words. */
typedef struct NgIrNormal {
    int state, word, layer, x, z, go; /* variables: the step, the try's first word, its layer,
                                         its x (the tail's), the result's magnitude, not done */
    int tx, tf;                       /* tables: the layers' widths and heights */
} NgIrNormal;
void ng_ir_normal_vars(NgIrKernel *k, NgIrNormal *v, NgIrPush push, void *list);
NgIrRef ng_ir_normal_step(NgIrKernel *k, const NgIrNormal *v, NgIrRef w);
NgIrRef ng_ir_normal_value(NgIrKernel *k, const NgIrNormal *v);

#endif
