/* The cpu's row sort: least-significant-digit radix sort, for bool,
 * integer and float keys (ng_sort_rows tries it first; complex keys, GPU
 * targets and rows under 128 keys keep sort.c's merge sort).
 *
 * Keys are read through an unsigned view of the same itemsize and encoded
 * so that unsigned order is NumPy's order: integers flip the sign bit,
 * floats flip the sign bit of positive values and every bit of negative
 * ones, every NaN becomes all ones (after +inf) and -0.0 becomes +0.0's
 * code (equal keys). Long rows are cut into C chunks of consecutive
 * elements, a work item each:
 *   1. HIST: a chunk encodes its keys into the first buffer, counts their
 *      lowest digits, and leaves the OR and AND of its codes (positions
 *      whose digit is the same across every row are skipped) and whether
 *      it met a NaN or -0.0 (codes that do not decode back);
 *   2. COUNT (each pass but the lowest digit's) and SCAN: a position's
 *      counts per chunk, then their exclusive prefix in (b, c) order: where
 *      chunk c's elements of digit b go;
 *   3. PASS, per position: a chunk moves its elements, in order, to their
 *      places in the other buffer (stable), indices along (argsort fills
 *      them in the first pass). The last pass decodes into the keys. Where
 *      a row had a NaN or -0.0, a sort decodes into the buffer and FIX puts
 *      the row's zeros and NaNs, in their original order, into their runs;
 *      an argsort carries its indices and GATHER copies the original keys
 *      in sorted order (NaN payloads and the sign of zero kept, as NumPy's
 *      stable sort keeps them).
 * Rows of 128..2047 keys, and 16 rows and more of up to 65535, are sorted a
 * row per work item with private counters instead (ROW, build_row). */
#include <stdlib.h>
#include <string.h>

#include "ops/sort_internal.h"

enum { R_HIST, R_COUNT, R_SCAN, R_PASS, R_GATHER, R_FIX, R_ROW };

enum { RADIX_MIN_ROW = 2048, RADIX_CHUNK = 8192, RADIX_ITEMS = 16 };

/* Rows a work item sorts whole, with its counters in registers and cache
 * (ROW): rows of 128 keys up to RADIX_MIN_ROW, and of up to 65535 keys
 * where there are 16 rows or more (else chunks of a row share the work). */
enum { ROW_MIN_ROWS = 16, ROW_MIN_N = 128, ROW_MAX_N = 65536 };

typedef struct RadixKey {
    uint8_t tag;      /* 'R' */
    uint8_t kind;     /* R_* */
    int8_t dt;        /* the keys' dtype */
    uint8_t idx;      /* PASS: indices move with the keys */
    uint8_t init_idx; /* PASS: the index of an element is its position (first pass of an argsort) */
    uint8_t decode;   /* PASS: store decoded keys (the last pass) */
    uint8_t bits;     /* bits of a digit */
} RadixKey;

static NgDType code_dtype(NgDType dt)
{
    switch (ng_dtype_info(dt)->itemsize) {
    case 1: return NG_UINT8;
    case 2: return NG_UINT16;
    case 4: return NG_UINT32;
    default: return NG_UINT64;
    }
}

/* Digit values and digit positions of a sort by digits of `bits` bits
 * (RadixKey.bits) of keys of dtype dt. */
static int radix_buckets(int bits) { return 1 << bits; }
static int radix_digits(NgDType dt, int bits) { return (8 * ng_dtype_info(dt)->itemsize + bits - 1) / bits; }

/* The digit width for rows of n keys of dtype dt: 11 bits for long rows of
 * 4- and 8-byte keys (3 and 6 passes instead of 4 and 8), else 8 (the
 * counters of a chunk, 2^bits per position, stay small beside its keys). */
static int radix_bits(NgDType dt, int64_t n) { return ng_dtype_info(dt)->itemsize >= 4 && n >= (1 << 19) ? 11 : 8; }

static NgIrRef ucon(NgIrKernel *k, NgDType u, uint64_t v) { return ng_ir_const_i(k, u, (int64_t)v); }

static NgIrRef ubin(NgIrKernel *k, NgOp op, NgDType u, NgIrRef a, NgIrRef b) { return ng_ir_binary(k, op, u, a, b); }

/* The sign bit and all ones of code dtype u. */
static uint64_t sign_bit(NgDType u) { return (uint64_t)1 << (8 * ng_dtype_info(u)->itemsize - 1); }
static uint64_t all_ones(NgDType u) { return sign_bit(u) | (sign_bit(u) - 1); }

/* The exponent field of float dtype dt, all ones: a magnitude above it is a NaN. */
static uint64_t inf_bits(NgDType dt)
{
    return dt == NG_FLOAT16 ? 0x7C00u : dt == NG_FLOAT32 ? 0x7F800000u : 0x7FF0000000000000u;
}

/* The magnitude bits of float key bits u (the sign cleared). */
static NgIrRef magnitude(NgIrKernel *k, NgDType dt, NgIrRef u)
{
    NgDType ut = code_dtype(dt);
    return ubin(k, NG_OP_BITAND, ut, u, ucon(k, ut, sign_bit(ut) - 1));
}

/* Float key bits u are a NaN (any sign, any payload). */
static NgIrRef nan_bits(NgIrKernel *k, NgDType dt, NgIrRef u)
{
    return sx_cmp(k, NG_OP_GT, magnitude(k, dt, u), ucon(k, code_dtype(dt), inf_bits(dt)));
}

/* NaN or -0.0: a float key whose code does not decode back to it. */
static NgIrRef odd_float(NgIrKernel *k, NgDType dt, NgIrRef u)
{
    NgDType ut = code_dtype(dt);
    return sx_cmp(k, NG_OP_BITOR, nan_bits(k, dt, u), sx_cmp(k, NG_OP_EQ, u, ucon(k, ut, sign_bit(ut))));
}

/* The code of key bits x (in the code dtype), or with `back` the key bits
 * of code x (a key that is neither NaN nor -0.0). */
static NgIrRef recode(NgIrKernel *k, NgDType dt, NgIrRef x, bool back)
{
    NgDType ut = code_dtype(dt);
    if (!ng_dtype_is_signed(dt) && !ng_dtype_is_float(dt)) /* bool, unsigned: the bits are the code */
        return x;
    NgIrRef sign = ucon(k, ut, sign_bit(ut)), ones = ucon(k, ut, all_ones(ut));
    if (!ng_dtype_is_float(dt))
        return ubin(k, NG_OP_BITXOR, ut, x, sign);
    /* a negative key (sign bit set) flips every bit, another the sign bit; codes the other way round */
    NgIrRef high = sx_cmp(k, NG_OP_NE, ubin(k, NG_OP_BITAND, ut, x, sign), ucon(k, ut, 0));
    NgIrRef flipped = ubin(k, NG_OP_BITXOR, ut, x, back ? ng_ir_select(k, high, sign, ones) : ng_ir_select(k, high, ones, sign));
    if (back)
        return flipped;
    NgIrRef code = ng_ir_select(k, sx_cmp(k, NG_OP_EQ, x, sign), sign, flipped); /* -0.0 as +0.0 */
    return ng_ir_select(k, nan_bits(k, dt, x), ones, code); /* NaN last */
}

static NgIrRef encode(NgIrKernel *k, NgDType dt, NgIrRef u) { return recode(k, dt, u, false); }
static NgIrRef decode(NgIrKernel *k, NgDType dt, NgIrRef c) { return recode(k, dt, c, true); }

/* The digit `shift` bits up of code c (nb values), as an int64. */
static NgIrRef digit(NgIrKernel *k, NgIrRef c, NgIrRef shift, int nb)
{
    NgIrRef c64 = ubin(k, NG_OP_RSHIFT, NG_UINT64, ng_ir_cast(k, NG_UINT64, c), shift);
    return ng_ir_cast(k, NG_INT64, ubin(k, NG_OP_BITAND, NG_UINT64, c64, ucon(k, NG_UINT64, (uint64_t)nb - 1)));
}

/* The chunk loop of HIST, COUNT and PASS: for w in parallel over rows * C,
 * row R = w / C, chunk c = w % C of S = ceil(n / C) elements [lo, hi);
 * the caller's statements run for each work item (chunk_close), loops over
 * the positions I of the chunk among them. lets[] bind R, c, lo and hi once
 * per work item, and base: where chunk c's counters start in its row of cnt
 * (D * nb of them, digit position-major), plus `off`. */
typedef struct Chunk {
    int w, i;       /* variables */
    NgIrRef R, c, I, lo, hi, base;
    NgIrRef lets[5];
} Chunk;

static void chunk_open(NgIrKernel *k, Chunk *ch, NgIrRef n, NgIrRef C, int nb, int D, NgIrRef off)
{
    int r = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64), lo = ng_ir_var(k, NG_INT64), hi = ng_ir_var(k, NG_INT64);
    int base = ng_ir_var(k, NG_INT64);
    ch->w = ng_ir_var(k, NG_INT64);
    ch->i = ng_ir_var(k, NG_INT64);
    NgIrRef W = ng_ir_varref(k, ch->w);
    NgIrRef S = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_ADD, n, sx_op(k, NG_OP_SUB, C, sx_i(k, 1))), C);
    ch->lets[0] = ng_ir_let(k, r, sx_op(k, NG_OP_FLOORDIV, W, C));
    ch->lets[1] = ng_ir_let(k, c, sx_op(k, NG_OP_SUB, W, sx_op(k, NG_OP_MUL, ng_ir_varref(k, r), C)));
    ch->R = ng_ir_varref(k, r);
    ch->c = ng_ir_varref(k, c);
    ch->lets[2] = ng_ir_let(k, lo, sx_op(k, NG_OP_MUL, ch->c, S));
    ch->lo = ng_ir_varref(k, lo);
    ch->lets[3] = ng_ir_let(k, hi, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, ch->lo, S), n));
    ch->hi = ng_ir_varref(k, hi);
    ch->lets[4] = ng_ir_let(k, base, sx_op(k, NG_OP_ADD, sx_op(k, NG_OP_MUL, ch->c, sx_i(k, (int64_t)nb * D)), off));
    ch->base = ng_ir_varref(k, base);
    ch->I = ng_ir_varref(k, ch->i);
}

/* k's body: the chunk loop of ch over rows * C work items, each binding
 * ch's lets and running stmts[0 .. n). */
static void chunk_close(NgIrKernel *k, const Chunk *ch, NgIrRef rows, NgIrRef C, const NgIrRef *stmts, int n)
{
    NgIrRef all[5 + 8];
    int na = 0;
    for (int l = 0; l < 5; l++)
        all[na++] = ch->lets[l];
    for (int i = 0; i < n; i++)
        all[na++] = stmts[i];
    k->body = sx_for(k, ch->w, sx_i(k, 0), sx_op(k, NG_OP_MUL, rows, C), ng_ir_block(k, na, all), NG_IR_PARALLEL);
}

/* Zeroes the nb counters of cnt from the chunk's base (variable j). */
static NgIrRef chunk_zero(NgIrKernel *k, const Chunk *ch, int cnt, int nb)
{
    int j = ng_ir_var(k, NG_INT64);
    return sx_for(k, j, sx_i(k, 0), sx_i(k, nb),
                  sx_store2(k, cnt, ch->R, sx_op(k, NG_OP_ADD, ch->base, ng_ir_varref(k, j)), sx_i(k, 0)), 0);
}

/* The shift of digit position d: sh = d * bits (a uint64 variable). */
static NgIrRef shift_let(NgIrKernel *k, int sh, NgIrRef d, int bits)
{
    return ng_ir_let(k, sh, ng_ir_cast(k, NG_UINT64, sx_op(k, NG_OP_MUL, d, sx_i(k, bits))));
}

/* HIST: src (rows, n) code dtype, enc (rows, n) code dtype (written),
 * cnt (rows, C*D*nb) int64 (written), flags (3 * rows * C) int64
 * (written), scalar C. A chunk encodes its keys into enc, counts their
 * lowest digits, and leaves the OR and the AND of its codes (the digits
 * that vary) and, for floats, whether it met a NaN or -0.0 in flags[3w ..
 * 3w + 2]. */
static void build_hist(NgIrKernel *k, const RadixKey *key)
{
    NgDType dt = (NgDType)key->dt, ut = code_dtype(dt);
    int D = radix_digits(dt, key->bits), nb = radix_buckets(key->bits);
    int src = ng_ir_param_array(k, ut, 2, true, false), enc = ng_ir_param_array(k, ut, 2, true, true);
    int cnt = ng_ir_param_array(k, NG_INT64, 2, true, true), flags = ng_ir_param_array(k, NG_INT64, 1, true, true);
    NgIrRef C = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)), n = ng_ir_shape(k, src, 1), zero = sx_i(k, 0);
    Chunk ch;
    chunk_open(k, &ch, n, C, nb, D, zero);
    int u = ng_ir_var(k, ut), e = ng_ir_var(k, ut), f = ng_ir_var(k, NG_INT64);
    int vor = ng_ir_var(k, ut), vand = ng_ir_var(k, ut);
    NgIrRef U = ng_ir_varref(k, u), E = ng_ir_varref(k, e);
    NgIrRef at = sx_op(k, NG_OP_ADD, ch.base, digit(k, E, ucon(k, NG_UINT64, 0), nb));
    NgIrRef step[7] = {ng_ir_let(k, u, sx_load2(k, src, ch.R, ch.I)), ng_ir_let(k, e, encode(k, dt, U)),
                       sx_store2(k, enc, ch.R, ch.I, E),
                       sx_store2(k, cnt, ch.R, at, sx_op(k, NG_OP_ADD, sx_load2(k, cnt, ch.R, at), sx_i(k, 1))),
                       ng_ir_assign(k, vor, ubin(k, NG_OP_BITOR, ut, ng_ir_varref(k, vor), E)),
                       ng_ir_assign(k, vand, ubin(k, NG_OP_BITAND, ut, ng_ir_varref(k, vand), E)),
                       ng_ir_assign(k, f, sx_op(k, NG_OP_BITOR, ng_ir_varref(k, f),
                                                ng_dtype_is_float(dt) ? ng_ir_cast(k, NG_INT64, odd_float(k, dt, U)) : zero))};
    NgIrRef W3 = sx_op(k, NG_OP_MUL, ng_ir_varref(k, ch.w), sx_i(k, 3));
    NgIrRef work[8] = {chunk_zero(k, &ch, cnt, nb), ng_ir_let(k, vor, ucon(k, ut, 0)),
                       ng_ir_let(k, vand, ucon(k, ut, all_ones(ut))), ng_ir_let(k, f, zero),
                       sx_for(k, ch.i, ch.lo, ch.hi, ng_ir_block(k, 7, step), 0),
                       sx_store1(k, flags, W3, ng_ir_cast(k, NG_INT64, ng_ir_varref(k, vor))),
                       sx_store1(k, flags, sx_op(k, NG_OP_ADD, W3, sx_i(k, 1)), ng_ir_cast(k, NG_INT64, ng_ir_varref(k, vand))),
                       sx_store1(k, flags, sx_op(k, NG_OP_ADD, W3, sx_i(k, 2)), ng_ir_varref(k, f))};
    chunk_close(k, &ch, ng_ir_shape(k, src, 0), C, work, 8);
}

/* SCAN: cnt (rows, C*D*nb) int64 (written), scalars C, D, d: for each
 * row, position d's counts in (b, c) order become their exclusive prefix:
 * where chunk c's keys of digit b go. Every loop walks a chunk's counters
 * in order: the totals per digit value, their prefix (`start`, a private
 * array), then each chunk's counters take the running starts. */
static void build_scan(NgIrKernel *k, const RadixKey *key)
{
    int nb = radix_buckets(key->bits);
    int cnt = ng_ir_param_array(k, NG_INT64, 2, true, true);
    NgIrRef C = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)), D = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef d = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int r = ng_ir_var(k, NG_INT64), b = ng_ir_var(k, NG_INT64), c = ng_ir_var(k, NG_INT64), start = ng_ir_var_array(k, NG_INT64, nb);
    int acc = ng_ir_var(k, NG_INT64), v = ng_ir_var(k, NG_INT64);
    NgIrRef R = ng_ir_varref(k, r), B = ng_ir_varref(k, b), Acc = ng_ir_varref(k, acc), V = ng_ir_varref(k, v), zero = sx_i(k, 0);
    NgIrRef at = sx_op(k, NG_OP_ADD, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_ADD, sx_op(k, NG_OP_MUL, ng_ir_varref(k, c), D), d),
                                        sx_i(k, nb)), B);
    NgIrRef add = ng_ir_assign_element(k, start, B, sx_op(k, NG_OP_ADD, ng_ir_element(k, start, B), sx_load2(k, cnt, R, at)));
    NgIrRef prefix[3] = {ng_ir_let(k, v, ng_ir_element(k, start, B)), ng_ir_assign_element(k, start, B, Acc),
                         ng_ir_assign(k, acc, sx_op(k, NG_OP_ADD, Acc, V))};
    NgIrRef place[3] = {ng_ir_let(k, v, sx_load2(k, cnt, R, at)), sx_store2(k, cnt, R, at, ng_ir_element(k, start, B)),
                        ng_ir_assign_element(k, start, B, sx_op(k, NG_OP_ADD, ng_ir_element(k, start, B), V))};
    NgIrRef body[5] = {ng_ir_let(k, start, zero), sx_for(k, c, zero, C, sx_for(k, b, zero, sx_i(k, nb), add, 0), 0),
                       ng_ir_let(k, acc, zero), sx_for(k, b, zero, sx_i(k, nb), ng_ir_block(k, 3, prefix), 0),
                       sx_for(k, c, zero, C, sx_for(k, b, zero, sx_i(k, nb), ng_ir_block(k, 3, place), 0), 0)};
    k->body = sx_for(k, r, zero, ng_ir_shape(k, cnt, 0), ng_ir_block(k, 5, body), NG_IR_PARALLEL);
}

/* COUNT: src (rows, n) code, cnt (rows, C*D*nb) int64 (written), scalars
 * C, d: chunk c's counts of position d's digits, before each pass but the
 * lowest digit's (HIST counted those). */
static void build_count(NgIrKernel *k, const RadixKey *key)
{
    NgDType ut = code_dtype((NgDType)key->dt);
    int nb = radix_buckets(key->bits);
    int src = ng_ir_param_array(k, ut, 2, true, false), cnt = ng_ir_param_array(k, NG_INT64, 2, true, true);
    NgIrRef C = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)), d = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    Chunk ch;
    chunk_open(k, &ch, ng_ir_shape(k, src, 1), C, nb, radix_digits((NgDType)key->dt, key->bits),
               sx_op(k, NG_OP_MUL, d, sx_i(k, nb)));
    int at = ng_ir_var(k, NG_INT64), sh = ng_ir_var(k, NG_UINT64);
    NgIrRef At = ng_ir_varref(k, at);
    NgIrRef step[2] = {ng_ir_let(k, at, sx_op(k, NG_OP_ADD, ch.base, digit(k, sx_load2(k, src, ch.R, ch.I), ng_ir_varref(k, sh), nb))),
                       sx_store2(k, cnt, ch.R, At, sx_op(k, NG_OP_ADD, sx_load2(k, cnt, ch.R, At), sx_i(k, 1)))};
    NgIrRef work[3] = {shift_let(k, sh, d, key->bits), chunk_zero(k, &ch, cnt, nb),
                       sx_for(k, ch.i, ch.lo, ch.hi, ng_ir_block(k, 2, step), 0)};
    chunk_close(k, &ch, ng_ir_shape(k, src, 0), C, work, 3);
}

/* PASS: src (rows, n) code, [srci (rows, n) int64 unless init_idx], dst
 * (rows, n) code (written), [dsti (rows, n) int64 (written)], cnt (rows,
 * C*D*nb) int64 (written), scalars C, d. */
static void build_pass(NgIrKernel *k, const RadixKey *key)
{
    NgDType dt = (NgDType)key->dt, ut = code_dtype(dt);
    int src = ng_ir_param_array(k, ut, 2, true, false);
    int srci = key->idx && !key->init_idx ? ng_ir_param_array(k, NG_INT64, 2, true, false) : -1;
    int dst = ng_ir_param_array(k, ut, 2, true, true);
    int dsti = key->idx ? ng_ir_param_array(k, NG_INT64, 2, true, true) : -1;
    int cnt = ng_ir_param_array(k, NG_INT64, 2, true, true);
    NgIrRef C = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64)), d = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    Chunk ch;
    int nb = radix_buckets(key->bits);
    chunk_open(k, &ch, ng_ir_shape(k, src, 1), C, nb, radix_digits(dt, key->bits), sx_op(k, NG_OP_MUL, d, sx_i(k, nb)));
    int e = ng_ir_var(k, ut), at = ng_ir_var(k, NG_INT64), p = ng_ir_var(k, NG_INT64), sh = ng_ir_var(k, NG_UINT64);
    NgIrRef E = ng_ir_varref(k, e), At = ng_ir_varref(k, at), P = ng_ir_varref(k, p);
    NgIrRef b = digit(k, E, ng_ir_varref(k, sh), nb);
    NgIrRef step[6];
    int ns = 0;
    step[ns++] = ng_ir_let(k, e, sx_load2(k, src, ch.R, ch.I));
    step[ns++] = ng_ir_let(k, at, sx_op(k, NG_OP_ADD, ch.base, b));
    step[ns++] = ng_ir_let(k, p, sx_load2(k, cnt, ch.R, At));
    step[ns++] = sx_store2(k, cnt, ch.R, At, sx_op(k, NG_OP_ADD, P, sx_i(k, 1)));
    step[ns++] = sx_store2(k, dst, ch.R, P, key->decode ? decode(k, dt, E) : E);
    if (key->idx)
        step[ns++] = sx_store2(k, dsti, ch.R, P, key->init_idx ? ch.I : sx_load2(k, srci, ch.R, ch.I));
    NgIrRef work[2] = {shift_let(k, sh, d, key->bits), sx_for(k, ch.i, ch.lo, ch.hi, ng_ir_block(k, ns, step), 0)};
    chunk_close(k, &ch, ng_ir_shape(k, src, 0), C, work, 2);
}

/* FIX: orig (rows, n) code view of the keys, out (rows, n) code (written,
 * the decoded sorted keys): a row's zeros (either sign) and NaNs (any
 * payload) from the original keys, in their order, into their runs - after
 * the negative numbers, and last - where the decoded codes lost them. */
static void build_fix(NgIrKernel *k, const RadixKey *key)
{
    NgDType dt = (NgDType)key->dt, ut = code_dtype(dt);
    int orig = ng_ir_param_array(k, ut, 2, true, false), out = ng_ir_param_array(k, ut, 2, true, true);
    int r = ng_ir_var(k, NG_INT64), i = ng_ir_var(k, NG_INT64), u = ng_ir_var(k, ut), neg = ng_ir_var(k, NG_INT64);
    int nan = ng_ir_var(k, NG_INT64), p0 = ng_ir_var(k, NG_INT64), pn = ng_ir_var(k, NG_INT64);
    NgIrRef R = ng_ir_varref(k, r), I = ng_ir_varref(k, i), U = ng_ir_varref(k, u), n = ng_ir_shape(k, orig, 1);
    NgIrRef zero = sx_i(k, 0), one = sx_i(k, 1);
    NgIrRef is_nan = nan_bits(k, dt, U), is_zero = sx_cmp(k, NG_OP_EQ, magnitude(k, dt, U), ucon(k, ut, 0));
    NgIrRef is_neg = sx_cmp(k, NG_OP_NE, ubin(k, NG_OP_BITAND, ut, U, ucon(k, ut, sign_bit(ut))), ucon(k, ut, 0));
    NgIrRef count[3] = {ng_ir_let(k, u, sx_load2(k, orig, R, I)),
                        ng_ir_assign(k, neg, sx_op(k, NG_OP_ADD, ng_ir_varref(k, neg),
                                                   ng_ir_cast(k, NG_INT64, sx_cmp(k, NG_OP_BITAND, is_neg,
                                                       ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, sx_cmp(k, NG_OP_BITOR, is_nan, is_zero)))))),
                        ng_ir_assign(k, nan, sx_op(k, NG_OP_ADD, ng_ir_varref(k, nan), ng_ir_cast(k, NG_INT64, is_nan)))};
    NgIrRef put0[2] = {sx_store2(k, out, R, ng_ir_varref(k, p0), U),
                       ng_ir_assign(k, p0, sx_op(k, NG_OP_ADD, ng_ir_varref(k, p0), one))};
    NgIrRef putn[2] = {sx_store2(k, out, R, ng_ir_varref(k, pn), U),
                       ng_ir_assign(k, pn, sx_op(k, NG_OP_ADD, ng_ir_varref(k, pn), one))};
    NgIrRef place[2] = {ng_ir_let(k, u, sx_load2(k, orig, R, I)),
                        ng_ir_if(k, is_zero, ng_ir_block(k, 2, put0), ng_ir_if(k, is_nan, ng_ir_block(k, 2, putn), NG_IR_NONE))};
    NgIrRef body[6] = {ng_ir_let(k, neg, zero), ng_ir_let(k, nan, zero),
                       sx_for(k, i, zero, n, ng_ir_block(k, 3, count), 0),
                       ng_ir_let(k, p0, ng_ir_varref(k, neg)), ng_ir_let(k, pn, sx_op(k, NG_OP_SUB, n, ng_ir_varref(k, nan))),
                       sx_for(k, i, zero, n, ng_ir_block(k, 2, place), 0)};
    k->body = sx_for(k, r, zero, ng_ir_shape(k, orig, 0), ng_ir_block(k, 6, body), NG_IR_PARALLEL);
}

/* GATHER: keys (rows, n) dtype, idx (rows, n) int64, out (rows, n) dtype
 * (written): out[r, j] = keys[r, idx[r, j]], one parallel loop over all. */
static void build_gather(NgIrKernel *k, const RadixKey *key)
{
    NgDType dt = (NgDType)key->dt;
    int keys = ng_ir_param_array(k, dt, 2, true, false), idx = ng_ir_param_array(k, NG_INT64, 2, true, false);
    int out = ng_ir_param_array(k, dt, 2, true, true);
    int q = ng_ir_var(k, NG_INT64);
    NgIrRef n = ng_ir_shape(k, keys, 1), Q = ng_ir_varref(k, q);
    NgIrRef R = sx_op(k, NG_OP_FLOORDIV, Q, n), J = sx_op(k, NG_OP_MOD, Q, n);
    k->body = sx_for(k, q, sx_i(k, 0), sx_op(k, NG_OP_MUL, ng_ir_shape(k, keys, 0), n),
                     sx_store2(k, out, R, J, sx_load2(k, keys, R, sx_load2(k, idx, R, J))), NG_IR_PARALLEL);
}

/* ROW's pass over one row: keys (and indices) from S (SI) to T (TI) at
 * their places (cnt) for the digit `sh` bits up. */
static NgIrRef row_move(NgIrKernel *k, int cnt, NgIrRef R, NgIrRef n, NgIrRef sh, int S, int SI, int T, int TI,
                        NgDType ut)
{
    int i = ng_ir_var(k, NG_INT64), e = ng_ir_var(k, ut), at = ng_ir_var(k, NG_INT64), p = ng_ir_var(k, NG_INT64);
    NgIrRef I = ng_ir_varref(k, i), E = ng_ir_varref(k, e), At = ng_ir_varref(k, at), P = ng_ir_varref(k, p);
    NgIrRef step[6] = {ng_ir_let(k, e, sx_load2(k, S, R, I)),
                       ng_ir_let(k, at, digit(k, E, sh, 256)),
                       ng_ir_let(k, p, ng_ir_element(k, cnt, At)),
                       ng_ir_assign_element(k, cnt, At, sx_op(k, NG_OP_ADD, P, sx_i(k, 1))),
                       sx_store2(k, T, R, P, E),
                       SI >= 0 ? sx_store2(k, TI, R, P, sx_load2(k, SI, R, I)) : NG_IR_NONE};
    return sx_for(k, i, sx_i(k, 0), n, ng_ir_block(k, SI >= 0 ? 6 : 5, step), 0);
}

/* ROW's counts of the digit `sh` bits up of row R of S, as the exclusive
 * prefix in cnt (256 values, declared by the caller). */
static NgIrRef row_count(NgIrKernel *k, int cnt, NgIrRef R, NgIrRef n, NgIrRef sh, int S)
{
    int i = ng_ir_var(k, NG_INT64), b = ng_ir_var(k, NG_INT64), acc = ng_ir_var(k, NG_INT64), v = ng_ir_var(k, NG_INT64);
    NgIrRef at = digit(k, sx_load2(k, S, R, ng_ir_varref(k, i)), sh, 256), B = ng_ir_varref(k, b), zero = sx_i(k, 0);
    NgIrRef prefix[3] = {ng_ir_let(k, v, ng_ir_element(k, cnt, B)), ng_ir_assign_element(k, cnt, B, ng_ir_varref(k, acc)),
                         ng_ir_assign(k, acc, sx_op(k, NG_OP_ADD, ng_ir_varref(k, acc), ng_ir_varref(k, v)))};
    NgIrRef steps[4] = {sx_for(k, b, zero, sx_i(k, 256), ng_ir_assign_element(k, cnt, B, zero), 0),
                        sx_for(k, i, zero, n, ng_ir_assign_element(k, cnt, at, sx_op(k, NG_OP_ADD, ng_ir_element(k, cnt, at), sx_i(k, 1))), 0),
                        ng_ir_let(k, acc, zero), sx_for(k, b, zero, sx_i(k, 256), ng_ir_block(k, 3, prefix), 0)};
    return ng_ir_block(k, 4, steps);
}

/* ROW: keys (rows, n) code view (written), b0, b1 (rows, n) code, [i0,
 * i1 (rows, n) int64, for argsorts (i0 the result) and floats]. A work
 * item sorts a whole row with 8-bit digits and private counters: encode
 * into b0 (indices 0..n-1 into i0) with the OR and AND of the codes, then
 * for each digit position that varies across the row a count, its prefix
 * and a pass (b0 <-> b1; indices along for an argsort or a row with a NaN
 * or -0.0), then the decoded keys into `keys` - or, where the row had a
 * NaN or -0.0, the original keys gathered by the indices. */
static void build_row(NgIrKernel *k, const RadixKey *key)
{
    NgDType dt = (NgDType)key->dt, ut = code_dtype(dt);
    bool fl = ng_dtype_is_float(dt), ix = key->idx || fl; /* index parameters */
    int D = radix_digits(dt, 8);
    int K = ng_ir_param_array(k, ut, 2, true, true);
    int B[2] = {ng_ir_param_array(k, ut, 2, true, true), ng_ir_param_array(k, ut, 2, true, true)};
    int Ix[2] = {-1, -1};
    if (ix) {
        Ix[0] = ng_ir_param_array(k, NG_INT64, 2, true, true);
        Ix[1] = ng_ir_param_array(k, NG_INT64, 2, true, true);
    }
    NgIrRef n = ng_ir_shape(k, K, 1);
    int r = ng_ir_var(k, NG_INT64), cnt = ng_ir_var_array(k, NG_INT64, 256), vor = ng_ir_var(k, ut), vand = ng_ir_var(k, ut);
    int odd = ng_ir_var(k, NG_INT64), cur = ng_ir_var(k, NG_INT64), i = ng_ir_var(k, NG_INT64), u = ng_ir_var(k, ut);
    int e = ng_ir_var(k, ut), d = ng_ir_var(k, NG_INT64), j = ng_ir_var(k, NG_INT64), sh = ng_ir_var(k, NG_UINT64);
    NgIrRef R = ng_ir_varref(k, r), I = ng_ir_varref(k, i), U = ng_ir_varref(k, u), E = ng_ir_varref(k, e);
    NgIrRef Cur = ng_ir_varref(k, cur), J = ng_ir_varref(k, j), Sh = ng_ir_varref(k, sh), zero = sx_i(k, 0);
    NgIrRef body[12];
    int nbody = 0;
    body[nbody++] = ng_ir_let(k, cnt, zero);
    body[nbody++] = ng_ir_let(k, vor, ucon(k, ut, 0));
    body[nbody++] = ng_ir_let(k, vand, ucon(k, ut, all_ones(ut)));
    body[nbody++] = ng_ir_let(k, odd, zero);
    /* encode, and find the digit positions that vary */
    NgIrRef step[7];
    int ns = 0;
    step[ns++] = ng_ir_let(k, u, sx_load2(k, K, R, I));
    step[ns++] = ng_ir_let(k, e, encode(k, dt, U));
    step[ns++] = sx_store2(k, B[0], R, I, E);
    step[ns++] = ng_ir_assign(k, vor, ubin(k, NG_OP_BITOR, ut, ng_ir_varref(k, vor), E));
    step[ns++] = ng_ir_assign(k, vand, ubin(k, NG_OP_BITAND, ut, ng_ir_varref(k, vand), E));
    if (ix)
        step[ns++] = sx_store2(k, Ix[0], R, I, I);
    if (fl)
        step[ns++] = ng_ir_assign(k, odd, sx_op(k, NG_OP_BITOR, ng_ir_varref(k, odd),
                                                ng_ir_cast(k, NG_INT64, odd_float(k, dt, U))));
    body[nbody++] = sx_for(k, i, zero, n, ng_ir_block(k, ns, step), 0);
    /* a pass per varying position, ping-ponging between b0 and b1 */
    body[nbody++] = ng_ir_let(k, cur, zero);
    NgIrRef move = ng_ir_if(k, sx_cmp(k, NG_OP_EQ, Cur, zero),
                            row_move(k, cnt, R, n, Sh, B[0], Ix[0], B[1], Ix[1], ut),
                            row_move(k, cnt, R, n, Sh, B[1], Ix[1], B[0], Ix[0], ut));
    if (fl && !key->idx) /* a sort of floats carries indices only for a row with a NaN or -0.0 */
        move = ng_ir_if(k, sx_cmp(k, NG_OP_NE, ng_ir_varref(k, odd), zero), move,
                        ng_ir_if(k, sx_cmp(k, NG_OP_EQ, Cur, zero),
                                 row_move(k, cnt, R, n, Sh, B[0], -1, B[1], -1, ut),
                                 row_move(k, cnt, R, n, Sh, B[1], -1, B[0], -1, ut)));
    NgIrRef varies = ubin(k, NG_OP_BITXOR, NG_UINT64, ng_ir_cast(k, NG_UINT64, ng_ir_varref(k, vor)),
                          ng_ir_cast(k, NG_UINT64, ng_ir_varref(k, vand)));
    NgIrRef pass[4] = {ng_ir_if(k, sx_cmp(k, NG_OP_EQ, Cur, zero), row_count(k, cnt, R, n, Sh, B[0]), row_count(k, cnt, R, n, Sh, B[1])),
                       move, ng_ir_assign(k, cur, sx_op(k, NG_OP_SUB, sx_i(k, 1), Cur))};
    NgIrRef perd[2] = {shift_let(k, sh, ng_ir_varref(k, d), 8),
                       ng_ir_if(k, sx_cmp(k, NG_OP_NE, digit(k, varies, Sh, 256), zero), ng_ir_block(k, 3, pass), NG_IR_NONE)};
    body[nbody++] = sx_for(k, d, zero, sx_i(k, D), ng_ir_block(k, 2, perd), 0);
    /* the keys back: decoded, or gathered through the other buffer */
    NgIrRef decoded[2], gathered[2];
    for (int c = 0; c < 2; c++) {
        decoded[c] = sx_for(k, j, zero, n, sx_store2(k, K, R, J, decode(k, dt, sx_load2(k, B[c], R, J))), 0);
        if (fl) {
            NgIrRef g[2] = {sx_for(k, j, zero, n, sx_store2(k, B[1 - c], R, J, sx_load2(k, K, R, sx_load2(k, Ix[c], R, J))), 0),
                            sx_for(k, j, zero, n, sx_store2(k, K, R, J, sx_load2(k, B[1 - c], R, J)), 0)};
            gathered[c] = ng_ir_block(k, 2, g);
        }
    }
    NgIrRef cur0 = sx_cmp(k, NG_OP_EQ, Cur, zero);
    NgIrRef dec = ng_ir_if(k, cur0, decoded[0], decoded[1]);
    body[nbody++] = fl ? ng_ir_if(k, sx_cmp(k, NG_OP_NE, ng_ir_varref(k, odd), zero), ng_ir_if(k, cur0, gathered[0], gathered[1]), dec)
                       : dec;
    if (key->idx) /* the indices into i0 */
        body[nbody++] = ng_ir_if(k, sx_cmp(k, NG_OP_NE, Cur, zero),
                                 sx_for(k, j, zero, n, sx_store2(k, Ix[0], R, J, sx_load2(k, Ix[1], R, J)), 0), NG_IR_NONE);
    k->body = sx_for(k, r, zero, ng_ir_shape(k, K, 0), ng_ir_block(k, nbody, body), NG_IR_PARALLEL);
}

static NgStatus build_radix(const void *ctx, NgIrKernel *k)
{
    const RadixKey *key = ctx;
    switch (key->kind) {
    case R_HIST: build_hist(k, key); break;
    case R_COUNT: build_count(k, key); break;
    case R_SCAN: build_scan(k, key); break;
    case R_PASS: build_pass(k, key); break;
    case R_GATHER: build_gather(k, key); break;
    case R_FIX: build_fix(k, key); break;
    case R_ROW: build_row(k, key); break;
    }
    return k->status;
}

static NgStatus launch(NgDevice *dev, RadixKey key, const NgArray *const *arrs, int narrs, const int64_t *shape2,
                       const NgArray *cnt, const NgArray *vec, const int64_t *scalars, int nscalars, int64_t extent,
                       int64_t work)
{
    const NgKernel *kern;
    NgStatus st = ng_kernel_get(dev, &key, sizeof key, build_radix, &key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[6 * 6 + 4];
    int na = 0;
    for (int i = 0; i < narrs; i++)
        ng_sort_kargs2(args, &na, arrs[i], shape2[0], shape2[1]);
    /* (cnt and vec: a row of counters per row of keys; the flags) */
    if (cnt)
        ng_sort_kargs2(args, &na, cnt, cnt->shape[0], cnt->shape[1]);
    if (vec)
        ng_sort_kargs1(args, &na, vec, vec->size);
    for (int i = 0; i < nscalars; i++)
        args[na++].i = scalars[i];
    return ng_kernel_launch(kern, args, na, extent, work);
}

/* Whether rows of n keys of dtype dt on dev are radix sorted: a row per
 * work item (ROW: enough rows, not too long), or chunks of long rows. */
static bool row_takes(int64_t rows, int64_t n)
{
    return n >= ROW_MIN_N && (n < RADIX_MIN_ROW || (rows >= ROW_MIN_ROWS && n < ROW_MAX_N));
}

static bool radix_takes(NgDevice *dev, NgDType dt, int64_t rows, int64_t n)
{
    return dev->be->target->par == NG_PAR_OPENMP && !ng_dtype_is_complex(dt) && (n >= RADIX_MIN_ROW || row_takes(rows, n));
}

/* The ROW kernel's sort (floats carry indices, their own where the caller
 * has none). */
static NgStatus sort_row_each(NgDevice *dev, NgArray *keys, NgArray *idx, int64_t rows, int64_t n)
{
    NgDType dt = keys->dtype, ut = code_dtype(dt);
    int64_t shape2[2] = {rows, n};
    NgArray codes = *keys, b[2] = {{0}}, i1 = {0}, own = {0};
    codes.dtype = ut;
    NgArray *i0 = idx;
    NgStatus st;
    if ((st = ng_array_empty(dev, ut, 2, shape2, &b[0])) != NG_OK || (st = ng_array_empty(dev, ut, 2, shape2, &b[1])) != NG_OK)
        goto out;
    if (!i0 && ng_dtype_is_float(dt)) {
        if ((st = ng_array_empty(dev, NG_INT64, 2, shape2, &own)) != NG_OK)
            goto out;
        i0 = &own;
    }
    if (i0 && (st = ng_array_empty(dev, NG_INT64, 2, shape2, &i1)) != NG_OK)
        goto out;
    RadixKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'R';
    key.kind = R_ROW;
    key.dt = (int8_t)dt;
    key.bits = 8;
    key.idx = idx != NULL;
    const NgArray *arrs[5] = {&codes, &b[0], &b[1], i0, &i1};
    st = launch(dev, key, arrs, i0 ? 5 : 3, shape2, NULL, NULL, NULL, 0, rows, rows * n);
out:
    ng_array_release(&b[0]);
    ng_array_release(&b[1]);
    ng_array_release(&i1);
    ng_array_release(&own);
    return st;
}

/* The prefix sums of position d (SCAN). */
static NgStatus scan(NgDevice *dev, RadixKey key, const NgArray *cnt, int64_t C, int D, int d)
{
    int64_t sc[3] = {C, D, d}, rows = cnt->shape[0];
    key.kind = R_SCAN;
    return launch(dev, key, NULL, 0, NULL, cnt, NULL, sc, 3, rows, rows * radix_buckets(key.bits) * C);
}

/* The radix passes over the codes in bufs[0], ping-ponging with bufs[1];
 * with `decode` the last one stores decoded keys, into `last` (the keys'
 * code view) or where it is NULL into the other buffer (*sorted_k: where
 * the last pass stored). Indices (key.idx) ping-pong between ibufs[0]
 * (the caller's, read unless key.init_idx) and ibufs[1]. Positions whose
 * digit is the same across every row (skip) are left out, but one pass
 * always runs (it fills the indices and decodes). *sorted_i: the buffer
 * the indices end in. */
static NgStatus passes(NgDevice *dev, RadixKey key, NgArray *bufs, NgArray *ibufs, NgArray *last, bool decode,
                       NgArray *cnt, const bool *skip, int D, int64_t C, const int64_t *shape2, NgArray **sorted_k,
                       NgArray **sorted_i)
{
    int order[8], np = 0;
    for (int d = 0; d < D; d++)
        if (!skip[d])
            order[np++] = d;
    if (np == 0)
        order[np++] = 0;
    NgStatus st = NG_OK;
    bool init = key.init_idx;
    key.kind = R_PASS;
    for (int p = 0, cur = 0; p < np && st == NG_OK; p++, cur = 1 - cur) {
        key.decode = p == np - 1 && decode;
        key.init_idx = p == 0 && init;
        const NgArray *arrs[4];
        int na = 0;
        arrs[na++] = &bufs[cur];
        if (key.idx && !key.init_idx)
            arrs[na++] = &ibufs[cur];
        arrs[na++] = *sorted_k = key.decode && last ? last : &bufs[1 - cur];
        if (key.idx)
            arrs[na++] = *sorted_i = &ibufs[1 - cur];
        int64_t sc[2] = {C, order[p]};
        if (order[p] > 0) { /* HIST counted only the lowest digits */
            RadixKey ck = key;
            ck.kind = R_COUNT;
            ck.idx = ck.init_idx = ck.decode = 0;
            const NgArray *src = &bufs[cur];
            if ((st = launch(dev, ck, &src, 1, shape2, cnt, NULL, sc, 2, shape2[0] * C, shape2[0] * shape2[1])) != NG_OK)
                break;
        }
        if ((st = scan(dev, key, cnt, C, D, order[p])) != NG_OK)
            break;
        st = launch(dev, key, arrs, na, shape2, cnt, NULL, sc, 2, shape2[0] * C, shape2[0] * shape2[1]);
    }
    return st;
}

NgStatus ng_sort_radix(NgArray *keys, NgArray *idx, bool init_idx, int64_t rows, int64_t n, bool *done)
{
    NgDevice *dev = ng_array_device(keys);
    NgDType dt = keys->dtype, ut = code_dtype(dt);
    *done = false;
    if (!radix_takes(dev, dt, rows, n))
        return NG_OK;
    if (row_takes(rows, n) && (idx == NULL || init_idx)) {
        NgStatus st = sort_row_each(dev, keys, idx, rows, n);
        *done = st == NG_OK;
        return st;
    }
    int bits = radix_bits(dt, n), D = radix_digits(dt, bits), nb = radix_buckets(bits);
    int64_t C = 1; /* rows * C work items, up to RADIX_ITEMS, chunks of at least RADIX_CHUNK */
    if (rows < RADIX_ITEMS) {
        C = (RADIX_ITEMS + rows - 1) / rows;
        if (C > n / RADIX_CHUNK)
            C = n / RADIX_CHUNK > 1 ? n / RADIX_CHUNK : 1;
    }
    int64_t shape2[2] = {rows, n}, cshape[2] = {rows, (int64_t)nb * D * C}, nflags = 3 * rows * C;
    NgArray bufs[2] = {{0}}, ibufs[2] = {{0}}, cnt = {0}, flags = {0}, gathered = {0};
    NgArray codes = *keys; /* the keys' bits as the code dtype: a view without its own reference */
    codes.dtype = ut;
    int64_t *fl = NULL;
    NgStatus st;
    if ((st = ng_array_empty(dev, ut, 2, shape2, &bufs[0])) != NG_OK ||
        (st = ng_array_empty(dev, ut, 2, shape2, &bufs[1])) != NG_OK ||
        (st = ng_array_empty(dev, NG_INT64, 2, cshape, &cnt)) != NG_OK ||
        (st = ng_array_empty(dev, NG_INT64, 1, &nflags, &flags)) != NG_OK)
        goto out;
    if (!(fl = malloc((size_t)nflags * sizeof *fl))) {
        st = ng_error_set(NG_ERR_NOMEM, "out of host memory for %lld sort flags", (long long)nflags);
        goto out;
    }
    RadixKey key;
    memset(&key, 0, sizeof key);
    key.tag = 'R';
    key.dt = (int8_t)dt;
    key.bits = (uint8_t)bits;
    const NgArray *harrs[2] = {&codes, &bufs[0]};
    key.kind = R_HIST;
    if ((st = launch(dev, key, harrs, 2, shape2, &cnt, &flags, &C, 1, rows * C, rows * n)) != NG_OK ||
        (st = ng_array_download(&flags, fl, NULL)) != NG_OK)
        goto out;
    /* a position is skipped when its digit is the same across each row (in every row); a NaN
     * or -0.0 anywhere needs the original keys back (FIX for a sort, GATHER for an argsort) */
    uint64_t varies = 0;
    bool bad = false;
    for (int64_t r = 0; r < rows; r++) {
        uint64_t o = 0, a = ~(uint64_t)0;
        for (int64_t c = 0; c < C; c++) {
            o |= (uint64_t)fl[3 * (r * C + c)];
            a &= (uint64_t)fl[3 * (r * C + c) + 1];
            bad = bad || fl[3 * (r * C + c) + 2];
        }
        varies |= o ^ a;
    }
    bool skip[8];
    for (int d = 0; d < D; d++)
        skip[d] = ((varies >> (d * bits)) & (uint64_t)(nb - 1)) == 0;
    if (idx && (st = ng_array_empty(dev, NG_INT64, idx->ndim, idx->shape, &ibufs[1])) != NG_OK)
        goto out;
    if (idx)
        ibufs[0] = *idx;
    key.idx = idx != NULL;
    key.init_idx = init_idx;
    NgArray *sorted_k = NULL, *sorted_i = NULL;
    if ((st = passes(dev, key, bufs, ibufs, bad ? NULL : &codes, !(bad && idx), &cnt, skip, D, C, shape2, &sorted_k,
                     &sorted_i)) != NG_OK)
        goto out;
    if (idx && sorted_i == &ibufs[1]) { /* the indices ended in the second buffer: hand it over */
        NgArray t = *idx;
        *idx = ibufs[1];
        ibufs[1] = t;
    }
    if (bad && !idx) { /* a sort: the zeros and NaNs of the original keys, in order, into their runs */
        const NgArray *farrs[2] = {&codes, sorted_k};
        key.kind = R_FIX;
        if ((st = launch(dev, key, farrs, 2, shape2, NULL, NULL, NULL, 0, rows, rows * n)) != NG_OK)
            goto out;
        NgArray t = *keys, *b = sorted_k; /* the buffer is handed over as the keys */
        b->dtype = dt;
        b->ndim = keys->ndim;
        memcpy(b->shape, keys->shape, sizeof b->shape);
        memcpy(b->strides, keys->strides, sizeof b->strides);
        *keys = *b;
        *b = t;
    } else if (bad) {
        const NgArray *garrs[3] = {keys, idx, &gathered};
        key.kind = R_GATHER;
        if ((st = ng_array_empty(dev, dt, keys->ndim, keys->shape, &gathered)) != NG_OK ||
            (st = launch(dev, key, garrs, 3, shape2, NULL, NULL, NULL, 0, rows * n, rows * n)) != NG_OK)
            goto out;
        NgArray t = *keys;
        *keys = gathered;
        gathered = t;
    }
    *done = true;
out:
    ng_array_release(&bufs[0]);
    ng_array_release(&bufs[1]);
    ng_array_release(&ibufs[1]);
    ng_array_release(&cnt);
    ng_array_release(&flags);
    ng_array_release(&gathered);
    free(fl);
    return st;
}
