/* The device random generator: Philox4x32-10 (Salmon, Moraes, Dror, Shaw,
 * "Parallel random numbers: as easy as 1, 2, 3", SC'11), counter-based.
 *
 * A stream is a 64-bit key and a 128-bit block counter. Block c of the
 * stream is philox(c, key): four 32-bit words, computed from c alone, so
 * every work item computes its own blocks and no state is shared between
 * threads. A call that uses B blocks reads blocks [counter, counter + B) and
 * advances the counter by B, so consecutive calls continue the stream.
 *
 * Each kernel here is IR (parallel over blocks or elements), so one
 * implementation gives the same bits on cpu, opencl and cuda. The 32x32->64
 * multiplies are uint64 multiplies of zero-extended words, then a shift.
 *
 *   fill      uniform / normal (Box-Muller) / exponential / raw words:
 *             parallel over blocks, each block storing 4 float32 values or
 *             2 float64 values (53-bit uniforms from two words); log, sin
 *             and cos are computed here from + - * / (see ng_ir_log_scaled), so
 *             normals too are bit-identical across devices;
 *   integers  Lemire's nearly-divisionless method with rejection, exact:
 *             element i tries the words of block i (one vectorisable pass),
 *             then, if all were rejected, of blocks i + n, i + 2n, ... (a
 *             bounded loop in a second pass; see build_int);
 *   choice    inverse CDF: a uniform per element, binary search in the CDF;
 *   permute   a random bijection of [0, 2^bits) (a 12-round unbalanced
 *             Feistel network keyed from the stream) restricted to [0, n)
 *             by cycle walking: element i of the permutation is computed
 *             independently of every other, so no sort is needed.
 * Loops with no inner loop or guard vectorise on cpu, hence the second
 * passes (partial last block, rejected integers, cycle walks). */
#include <math.h>
#include <string.h>

#include "ir/philox.h"
#include "ops/ops_internal.h"

#define FEISTEL_ROUNDS 12    /* rounds of the permutation network */
#define INT_TRIES_SMALL 16   /* blocks an element may use: 64 words of 32 bits */
#define INT_TRIES_BIG 32     /* blocks an element may use: 64 draws of 64 bits */
#define BODY_MAX 1024        /* statements in one block of a kernel body */

void ng_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
    for (int r = 0; r < NG_PHILOX_ROUNDS; r++) {
        uint64_t p0 = (uint64_t)NG_PHILOX_M0 * c[0], p1 = (uint64_t)NG_PHILOX_M1 * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
        c[0] = n0;
        c[1] = (uint32_t)p1;
        c[2] = n2;
        c[3] = (uint32_t)p0;
        k0 += NG_PHILOX_W0;
        k1 += NG_PHILOX_W1;
    }
    memcpy(out, c, sizeof c);
}

/* The block at `counter` + off (128-bit addition). */
static void philox_at(const NgPhilox *g, uint64_t off, uint32_t out[4])
{
    uint64_t lo = g->counter[0] + off, hi = g->counter[1] + (lo < off);
    uint32_t c[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
    ng_philox4x32(c, g->key, out);
}

static void advance(NgPhilox *g, uint64_t blocks)
{
    uint64_t lo = g->counter[0] + blocks;
    g->counter[1] += lo < blocks;
    g->counter[0] = lo;
}

/* ---- IR helpers ---- */

/* A statement list being built (the body of one loop). */
typedef struct Body {
    NgIrKernel *k;
    NgIrRef s[BODY_MAX];
    int n;
} Body;

static void push(Body *b, NgIrRef stmt)
{
    if (b->n == BODY_MAX) {
        if (b->k->status == NG_OK)
            b->k->status = ng_error_set(NG_ERR_INTERNAL, "random kernel body too long");
        return;
    }
    b->s[b->n++] = stmt;
}

static NgIrRef block(Body *b) { return ng_ir_block(b->k, b->n, b->s); }

static Body *body_new(NgIrKernel *k)
{
    Body *b = ng_malloc(sizeof *b);
    if (!b) {
        if (k->status == NG_OK)
            k->status = ng_error_set(NG_ERR_NOMEM, "out of memory building a random kernel");
        return NULL;
    }
    b->k = k;
    b->n = 0;
    return b;
}

/* Declares a new variable = value; returns a reference to it. */
static NgIrRef let(Body *b, NgDType dt, NgIrRef value)
{
    int v = ng_ir_var(b->k, dt);
    push(b, ng_ir_let(b->k, v, value));
    return ng_ir_varref(b->k, v);
}

static NgIrRef cu32(NgIrKernel *k, uint32_t v) { return ng_ir_const_i(k, NG_UINT32, v); }
static NgIrRef cu64(NgIrKernel *k, uint64_t v) { return ng_ir_const_i(k, NG_UINT64, (int64_t)v); }
static NgIrRef u64(NgIrKernel *k, NgIrRef x) { return ng_ir_cast(k, NG_UINT64, x); }
static NgIrRef op2(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x, NgIrRef y) { return ng_ir_binary(k, op, dt, x, y); }
static NgIrRef op1(NgIrKernel *k, NgOp op, NgDType dt, NgIrRef x) { return ng_ir_unary(k, op, dt, x); }
static NgIrRef cf(NgIrKernel *k, NgDType dt, double v) { return ng_ir_const_f(k, dt, v); }

/* The scalar parameters every random kernel starts with (after its output). */
typedef struct Stream {
    NgIrRef ctr_lo, ctr_hi; /* 128-bit block counter of the call's first block */
    NgIrRef key0, key1;     /* 64-bit key */
} Stream;

static Stream stream_params(NgIrKernel *k)
{
    Stream s;
    s.ctr_lo = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    s.ctr_hi = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    s.key0 = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT32));
    s.key1 = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT32));
    return s;
}

static void stream_args(const NgPhilox *g, NgKArg *args, int *n)
{
    args[(*n)++].i = (int64_t)g->counter[0];
    args[(*n)++].i = (int64_t)g->counter[1];
    args[(*n)++].i = g->key[0];
    args[(*n)++].i = g->key[1];
}

static void push_stmt(void *b, NgIrRef stmt) { push((Body *)b, stmt); }

/* Appends to b the Philox4x32-10 block number `off` (uint64) of the call;
 * w gets its four words. */
static void philox_ir(Body *b, const Stream *s, NgIrRef off, NgIrRef w[4])
{
    NgIrKernel *k = b->k;
    NgIrRef lo = let(b, NG_UINT64, op2(k, NG_OP_ADD, NG_UINT64, s->ctr_lo, off));
    NgIrRef carry = u64(k, op2(k, NG_OP_LT, NG_BOOL, lo, s->ctr_lo));
    NgIrRef hi = let(b, NG_UINT64, op2(k, NG_OP_ADD, NG_UINT64, s->ctr_hi, carry));
    ng_ir_philox(k, s->key0, s->key1, lo, hi, w, push_stmt, b);
}

/* Uniform float32 in [0, 1) from the top 24 bits of a word (exact). */
static NgIrRef unit_f32(NgIrKernel *k, NgIrRef w)
{
    NgIrRef top = op2(k, NG_OP_RSHIFT, NG_UINT32, w, cu32(k, 8));
    return op2(k, NG_OP_MUL, NG_FLOAT32, ng_ir_cast(k, NG_FLOAT32, top), cf(k, NG_FLOAT32, 0x1p-24));
}

/* ---- fill: raw words, uniform, normal, exponential ---- */

typedef struct FillKey {
    uint8_t tag[2];  /* 'p', 'f' */
    uint8_t dist;    /* NgRandomDist */
    int8_t dtype;    /* output dtype */
    uint8_t guarded; /* the blocks may run past the end: check each store */
    uint8_t src32;   /* float32's values (24-bit uniforms, one word each), whatever dtype holds them */
} FillKey;

/* Values per block: float64's take two words each, float32's (src32) and raw words one. */
static int per_block(bool src32) { return src32 ? 4 : 2; }

/* ---- log, sin and cos from + - * / only ----
 *
 * Normals and exponentials need log, sin and cos. The math libraries of the
 * three targets differ in the last bit, so these are computed here from
 * IEEE float64 operations alone (correctly rounded on every target, and
 * contraction into FMA is off everywhere): the same bits on cpu, opencl and
 * cuda, and loops the C compiler can vectorise. Accuracy: a few ulp. */

/* Bits of an integer: the uniform before scaling, k in [0, 2^bits). */
static NgIrRef unit_bits(NgIrKernel *k, NgDType dt, const NgIrRef *w, int which)
{
    if (dt == NG_FLOAT32) /* 24 bits of one word */
        return u64(k, op2(k, NG_OP_RSHIFT, NG_UINT32, w[which], cu32(k, 8)));
    return ng_ir_unit_bits(k, w[2 * which], w[2 * which + 1]); /* 53 bits */
}

/* sin and cos of 2*pi*J*2^-bits for an integer 0 <= J < 2^bits: the
 * quadrant q and the remainder r in [-1/2, 1/2) quarter turns are exact
 * integer arithmetic, then Taylor series of degree 17/18 on |a| <= pi/4. */
static void sincos_turn(Body *b, NgIrRef J, int bits, NgIrRef *sin_out, NgIrRef *cos_out)
{
    NgIrKernel *k = b->k;
    NgIrRef q0 = let(b, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, op2(k, NG_OP_ADD, NG_UINT64, J, cu64(k, UINT64_C(1) << (bits - 3))),
                                       cu64(k, (uint64_t)bits - 2)));
    NgIrRef rint = op2(k, NG_OP_SUB, NG_INT64, ng_ir_cast(k, NG_INT64, J),
                       ng_ir_cast(k, NG_INT64, op2(k, NG_OP_LSHIFT, NG_UINT64, q0, cu64(k, (uint64_t)bits - 2))));
    NgIrRef r = let(b, NG_FLOAT64, op2(k, NG_OP_MUL, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, rint), cf(k, NG_FLOAT64, ldexp(1.0, 2 - bits))));
    const double pio2_hi = 1.57079632679489655800e+00, pio2_lo = 6.12323399573676603587e-17;
    NgIrRef a = let(b, NG_FLOAT64, op2(k, NG_OP_ADD, NG_FLOAT64, op2(k, NG_OP_MUL, NG_FLOAT64, r, cf(k, NG_FLOAT64, pio2_hi)),
                                       op2(k, NG_OP_MUL, NG_FLOAT64, r, cf(k, NG_FLOAT64, pio2_lo))));
    NgIrRef z = let(b, NG_FLOAT64, op2(k, NG_OP_MUL, NG_FLOAT64, a, a));
    double sc[8], cc[9], f = 1.0;
    for (int n = 2; n <= 18; n++) { /* sc: -1/3!, 1/5!, ...; cc: -1/2!, 1/4!, ... */
        f *= n;
        if (n % 2)
            sc[(n - 3) / 2] = ((n - 1) / 2 % 2 ? -1.0 : 1.0) / f;
        else
            cc[(n - 2) / 2] = (n / 2 % 2 ? -1.0 : 1.0) / f;
    }
    NgIrRef s = let(b, NG_FLOAT64, op2(k, NG_OP_ADD, NG_FLOAT64, a,
                                       op2(k, NG_OP_MUL, NG_FLOAT64, op2(k, NG_OP_MUL, NG_FLOAT64, a, z), ng_ir_horner(k, z, sc, 8))));
    NgIrRef c = let(b, NG_FLOAT64, op2(k, NG_OP_ADD, NG_FLOAT64, cf(k, NG_FLOAT64, 1.0),
                                       op2(k, NG_OP_MUL, NG_FLOAT64, z, ng_ir_horner(k, z, cc, 9))));
    NgIrRef q = let(b, NG_UINT64, op2(k, NG_OP_BITAND, NG_UINT64, q0, cu64(k, 3)));
    NgIrRef ns = op1(k, NG_OP_NEG, NG_FLOAT64, s), nc = op1(k, NG_OP_NEG, NG_FLOAT64, c);
    NgIrRef is0 = op2(k, NG_OP_EQ, NG_BOOL, q, cu64(k, 0)), is1 = op2(k, NG_OP_EQ, NG_BOOL, q, cu64(k, 1));
    NgIrRef is2 = op2(k, NG_OP_EQ, NG_BOOL, q, cu64(k, 2));
    *sin_out = ng_ir_select(k, is0, s, ng_ir_select(k, is1, c, ng_ir_select(k, is2, ns, nc)));
    *cos_out = ng_ir_select(k, is0, c, ng_ir_select(k, is1, ns, ng_ir_select(k, is2, nc, s)));
}

/* The block's values (per_block of them, of dtype dt) before shift and
 * scale. Normals and exponentials are computed in float64 (and rounded to
 * float32 by the caller when that is the output). */
static void fill_values(Body *b, NgRandomDist dist, NgDType dt, bool src32, const NgIrRef w[4], NgIrRef v[4])
{
    NgIrKernel *k = b->k;
    int per = per_block(src32), bits = src32 ? 24 : 53;
    if (dist == NG_RAND_RAW || dist == NG_RAND_UNIFORM) {
        for (int q = 0; q < per; q++)
            v[q] = dist == NG_RAND_RAW ? w[q] : src32 ? unit_f32(k, w[q]) : ng_ir_unit_f64(k, w[2 * q], w[2 * q + 1]);
        return;
    }
    NgDType srcdt = src32 ? NG_FLOAT32 : NG_FLOAT64; /* which words make a uniform */
    NgIrRef full = cu64(k, UINT64_C(1) << bits);
    if (dist == NG_RAND_EXPONENTIAL) { /* -log(1 - u), 1 - u = (2^bits - k) 2^-bits > 0 */
        for (int q = 0; q < per; q++) {
            NgIrRef K = let(b, NG_UINT64, op2(k, NG_OP_SUB, NG_UINT64, full, unit_bits(k, srcdt, w, q)));
            v[q] = ng_ir_cast(k, dt, op1(k, NG_OP_NEG, NG_FLOAT64, ng_ir_log_scaled(k, K, bits, push_stmt, b)));
        }
        return;
    }
    /* Box-Muller on pairs (u1, u2): sqrt(-2 log(1 - u1)) (cos, sin)(2 pi u2) */
    for (int h = 0; h < per; h += 2) {
        NgIrRef K = let(b, NG_UINT64, op2(k, NG_OP_SUB, NG_UINT64, full, unit_bits(k, srcdt, w, h)));
        NgIrRef r = let(b, NG_FLOAT64, op1(k, NG_OP_SQRT, NG_FLOAT64,
                                           op2(k, NG_OP_MUL, NG_FLOAT64, cf(k, NG_FLOAT64, -2.0), ng_ir_log_scaled(k, K, bits, push_stmt, b))));
        NgIrRef sn, cs;
        sincos_turn(b, let(b, NG_UINT64, unit_bits(k, srcdt, w, h + 1)), bits, &sn, &cs);
        v[h] = ng_ir_cast(k, dt, op2(k, NG_OP_MUL, NG_FLOAT64, r, cs));
        v[h + 1] = ng_ir_cast(k, dt, op2(k, NG_OP_MUL, NG_FLOAT64, r, sn));
    }
}

/* for j in [first, stop) parallel: w = block j; out[j*per + q] = shift + scale * value_q
 * (if in range, for the guarded variant). The unguarded loop over whole
 * blocks vectorises on cpu; the guarded one runs the last, partial block. */
static NgStatus build_fill(const void *ctx, NgIrKernel *k)
{
    const FillKey *key = ctx;
    NgDType dt = (NgDType)key->dtype;
    NgRandomDist dist = (NgRandomDist)key->dist;
    int out = ng_ir_param_array(k, dt, 1, true, true);
    Stream s = stream_params(k);
    NgIrRef first = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef stop = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef shift = ng_ir_scalar(k, ng_ir_param_scalar(k, dist == NG_RAND_RAW ? NG_FLOAT64 : dt));
    NgIrRef scale = ng_ir_scalar(k, ng_ir_param_scalar(k, dist == NG_RAND_RAW ? NG_FLOAT64 : dt));
    int j = ng_ir_var(k, NG_INT64);
    NgIrRef jr = ng_ir_varref(k, j);
    Body *b = body_new(k);
    if (!b)
        return k->status;
    NgIrRef w[4], v[4];
    philox_ir(b, &s, u64(k, jr), w);
    fill_values(b, dist, dt, key->src32, w, v);
    int per = per_block(key->src32);
    NgIrRef n = ng_ir_shape(k, out, 0);
    for (int q = 0; q < per; q++) {
        NgIrRef idx = op2(k, NG_OP_ADD, NG_INT64, op2(k, NG_OP_MUL, NG_INT64, jr, ng_ir_const_i(k, NG_INT64, per)),
                          ng_ir_const_i(k, NG_INT64, q));
        NgIrRef val = v[q];
        if (dist != NG_RAND_RAW)
            val = op2(k, NG_OP_ADD, dt, shift, op2(k, NG_OP_MUL, dt, scale, val));
        NgIrRef store = ng_ir_store(k, out, 1, &idx, val);
        push(b, key->guarded ? ng_ir_if(k, op2(k, NG_OP_LT, NG_BOOL, idx, n), store, NG_IR_NONE) : store);
    }
    k->body = ng_ir_for(k, j, first, stop, ng_ir_const_i(k, NG_INT64, 1), block(b), NG_IR_PARALLEL);
    ng_free(b);
    return k->status;
}

/* Flat 1-d view of a C-contiguous output. */
static NgStatus flat_out(const NgArray *out, NgArray *flat)
{
    if (!ng_array_is_c_contiguous(out))
        return ng_error_set(NG_ERR_VALUE, "random: the output array must be C-contiguous");
    ng_array_view(out, flat);
    flat->ndim = 1;
    flat->shape[0] = out->size;
    flat->strides[0] = ng_array_itemsize(out);
    return NG_OK;
}

NgStatus ng_random_fill(NgPhilox *g, NgRandomDist dist, double shift, double scale, const NgArray *out)
{
    NgDType dt = out->dtype;
    bool ok = dist == NG_RAND_RAW ? dt == NG_UINT32 : (dt == NG_FLOAT32 || dt == NG_FLOAT64);
    if (!ok)
        return ng_error_set(NG_ERR_TYPE, "Unsupported dtype %s for this random distribution", ng_dtype_info(dt)->name);
    if (out->size == 0)
        return NG_OK;
    NgArray flat, tmp = {0};
    NgStatus st = flat_out(out, &flat);
    if (st != NG_OK)
        return st;
    bool src32 = dt != NG_FLOAT64;
    const NgArray *dst = &flat;
    if (dt == NG_FLOAT32 && (dist == NG_RAND_NORMAL || dist == NG_RAND_EXPONENTIAL)) {
        /* computed in float64 anyway; a float64 loop vectorises where one
         * storing float32 does not, so round in a second pass */
        st = ng_array_empty(ng_array_device(out), NG_FLOAT64, 1, &out->size, &tmp);
        dst = &tmp;
    }
    int per = per_block(src32);
    int64_t nfull = out->size / per, nblocks = (out->size + per - 1) / per;
    for (int guarded = 0; guarded < 2 && st == NG_OK; guarded++) {
        int64_t first = guarded ? nfull : 0, stop = guarded ? nblocks : nfull;
        if (first == stop)
            continue;
        FillKey key = {{'p', 'f'}, (uint8_t)dist, (int8_t)dst->dtype, (uint8_t)guarded, src32};
        const NgKernel *kern;
        st = ng_kernel_get(ng_array_device(&flat), &key, sizeof key, build_fill, &key, &kern);
        if (st != NG_OK)
            break;
        NgKArg args[16];
        int n = 0;
        int64_t one = 1;
        ng_kargs_array(args, &n, dst, 1, &dst->shape[0], &one);
        stream_args(g, args, &n);
        args[n++].i = first;
        args[n++].i = stop;
        args[n++].f = shift;
        args[n++].f = scale;
        st = ng_kernel_launch(kern, args, n, stop - first, (stop - first) * per * 16);
    }
    if (st == NG_OK && dst == &tmp) {
        NgOperand src = {&tmp, {0}};
        st = ng_op_assign(&flat, &src);
    }
    if (st == NG_OK)
        advance(g, (uint64_t)nblocks);
    if (tmp.buf)
        ng_array_release(&tmp);
    ng_array_release(&flat);
    return st;
}

/* ---- integers: Lemire's method, exact ---- */

enum { INT_SMALL, INT_BIG, INT_FULL }; /* range <= 2^32, range < 2^64, range == 2^64 */

typedef struct IntKey {
    uint8_t tag[2];  /* 'p', 'i' */
    uint8_t variant; /* INT_* */
    int8_t dtype;    /* output dtype */
    uint8_t phase;   /* 0: first block of every element; 1: the retries of the rejected ones */
} IntKey;

static int int_tries(int variant) { return variant == INT_SMALL ? INT_TRIES_SMALL : variant == INT_BIG ? INT_TRIES_BIG : 1; }

/* High 64 bits of the 128-bit product x*y, from 32-bit limbs. */
static NgIrRef mulhi64(Body *b, NgIrRef x, NgIrRef y)
{
    NgIrKernel *k = b->k;
    NgIrRef m32 = cu64(k, 0xffffffffu), c32 = cu64(k, 32);
    NgIrRef xl = let(b, NG_UINT64, op2(k, NG_OP_BITAND, NG_UINT64, x, m32));
    NgIrRef xh = let(b, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, x, c32));
    NgIrRef yl = let(b, NG_UINT64, op2(k, NG_OP_BITAND, NG_UINT64, y, m32));
    NgIrRef yh = let(b, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, y, c32));
    NgIrRef ll = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, xl, yl));
    NgIrRef lh = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, xl, yh));
    NgIrRef hl = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, xh, yl));
    NgIrRef mid = op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, ll, c32),
                      op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_BITAND, NG_UINT64, lh, m32),
                          op2(k, NG_OP_BITAND, NG_UINT64, hl, m32)));
    mid = let(b, NG_UINT64, mid);
    NgIrRef hi = op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, xh, yh),
                     op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, lh, c32),
                         op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, hl, c32),
                             op2(k, NG_OP_RSHIFT, NG_UINT64, mid, c32))));
    return let(b, NG_UINT64, hi);
}

/* One candidate: res = candidate unless an earlier one was accepted; done |= ok. */
static void candidate(Body *b, int res, int done, NgIrRef value, NgIrRef ok)
{
    NgIrKernel *k = b->k;
    NgIrRef d = ng_ir_varref(k, done);
    push(b, ng_ir_assign(k, res, ng_ir_select(k, d, ng_ir_varref(k, res), value)));
    push(b, ng_ir_assign(k, done, op2(k, NG_OP_LOGOR, NG_BOOL, d, ok)));
}

/* Appends the candidates of block `off` (uint64) to b. A 32-bit word w
 * (range r <= 2^32): m = w*r, accepted when (m mod 2^32) >= 2^32 mod r, value
 * m >> 32; a 64-bit x likewise with the 128-bit product; every accepted
 * value is exactly uniform (Lemire 2019). */
static void int_candidates(Body *b, const Stream *s, int variant, NgIrRef off, NgIrRef range, NgIrRef thresh,
                           int res, int done)
{
    NgIrKernel *k = b->k;
    NgIrRef w[4], c32 = cu64(k, 32);
    philox_ir(b, s, off, w);
    if (variant == INT_SMALL) {
        for (int q = 0; q < 4; q++) {
            NgIrRef m = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, u64(k, w[q]), range));
            NgIrRef ok = op2(k, NG_OP_GE, NG_BOOL, op2(k, NG_OP_BITAND, NG_UINT64, m, cu64(k, 0xffffffffu)), thresh);
            candidate(b, res, done, op2(k, NG_OP_RSHIFT, NG_UINT64, m, c32), ok);
        }
        return;
    }
    for (int h = 0; h < (variant == INT_BIG ? 2 : 1); h++) {
        NgIrRef x = let(b, NG_UINT64, op2(k, NG_OP_BITOR, NG_UINT64, op2(k, NG_OP_LSHIFT, NG_UINT64, u64(k, w[2 * h]), c32),
                                          u64(k, w[2 * h + 1])));
        if (variant == INT_FULL)
            candidate(b, res, done, x, ng_ir_const_i(k, NG_BOOL, 1));
        else
            candidate(b, res, done, mulhi64(b, x, range),
                      op2(k, NG_OP_GE, NG_BOOL, op2(k, NG_OP_MUL, NG_UINT64, x, range), thresh));
    }
}

/* Phase 0, for i in [0, n) parallel (no inner loop, so it vectorises):
 *     res, done = candidates of block i; out[i] = low + res; ok[i] = done
 * Phase 1, for i in [0, n) parallel, if not ok[i]:
 *     for a in [1, tries): candidates of block a*n + i; if done: break
 *     out[i] = low + res
 * An element still rejected after every try keeps its last candidate; the
 * chance is at most 2^-64 (64 tries that each fail with probability < 1/2). */
static NgStatus build_int(const void *ctx, NgIrKernel *k)
{
    const IntKey *key = ctx;
    NgDType dt = (NgDType)key->dtype;
    int out = ng_ir_param_array(k, dt, 1, true, true);
    Stream s = stream_params(k);
    NgIrRef low = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    NgIrRef range = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    NgIrRef thresh = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    int okp = key->variant == INT_FULL ? -1 : ng_ir_param_array(k, NG_BOOL, 1, true, key->phase == 0);
    int i = ng_ir_var(k, NG_INT64), a = ng_ir_var(k, NG_INT64);
    int res = ng_ir_var(k, NG_UINT64), done = ng_ir_var(k, NG_BOOL);
    NgIrRef n = ng_ir_shape(k, out, 0), ir = ng_ir_varref(k, i);
    Body *outer = body_new(k), *inner = body_new(k);
    if (!outer || !inner) {
        ng_free(outer);
        return k->status;
    }
    push(outer, ng_ir_let(k, res, cu64(k, 0)));
    push(outer, ng_ir_let(k, done, ng_ir_const_i(k, NG_BOOL, 0)));
    NgIrRef value = ng_ir_cast(k, dt, op2(k, NG_OP_ADD, NG_UINT64, ng_ir_varref(k, res), low));
    if (key->phase == 0) {
        int_candidates(outer, &s, key->variant, u64(k, ir), range, thresh, res, done);
        push(outer, ng_ir_store(k, out, 1, &ir, value));
        if (okp >= 0)
            push(outer, ng_ir_store(k, okp, 1, &ir, ng_ir_varref(k, done)));
    } else {
        NgIrRef off = op2(k, NG_OP_ADD, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, u64(k, ng_ir_varref(k, a)), u64(k, n)),
                          u64(k, ir));
        int_candidates(inner, &s, key->variant, off, range, thresh, res, done);
        push(inner, ng_ir_if(k, ng_ir_varref(k, done), ng_ir_jump(k, NG_IR_BREAK), NG_IR_NONE));
        NgIrRef retry = ng_ir_for(k, a, ng_ir_const_i(k, NG_INT64, 1), ng_ir_const_i(k, NG_INT64, int_tries(key->variant)),
                                  ng_ir_const_i(k, NG_INT64, 1), block(inner), 0);
        NgIrRef both[2] = {retry, ng_ir_store(k, out, 1, &ir, value)};
        NgIrRef rejected = op1(k, NG_OP_LOGNOT, NG_BOOL, ng_ir_load(k, okp, 1, &ir));
        push(outer, ng_ir_if(k, rejected, ng_ir_block(k, 2, both), NG_IR_NONE));
    }
    k->body = ng_ir_for(k, i, ng_ir_const_i(k, NG_INT64, 0), n, ng_ir_const_i(k, NG_INT64, 1), block(outer),
                        NG_IR_PARALLEL);
    ng_free(outer);
    ng_free(inner);
    return k->status;
}

NgStatus ng_random_integers(NgPhilox *g, uint64_t low, uint64_t range, const NgArray *out)
{
    NgDType dt = out->dtype;
    if (!ng_dtype_is_int(dt) && dt != NG_BOOL)
        return ng_error_set(NG_ERR_TYPE, "Unsupported dtype %s for integers", ng_dtype_info(dt)->name);
    if (out->size == 0)
        return NG_OK;
    NgArray flat, ok = {0};
    NgStatus st = flat_out(out, &flat);
    if (st != NG_OK)
        return st;
    IntKey key = {{'p', 'i'}, INT_FULL, (int8_t)dt, 0};
    uint64_t thresh = 0;
    if (range != 0 && range <= (UINT64_C(1) << 32)) {
        key.variant = INT_SMALL;
        thresh = (UINT64_C(1) << 32) % range;
    } else if (range != 0) {
        key.variant = INT_BIG;
        thresh = (0 - range) % range;
    }
    if (key.variant != INT_FULL)
        st = ng_array_empty(ng_array_device(out), NG_BOOL, 1, &out->size, &ok);
    for (int phase = 0; phase < (key.variant == INT_FULL ? 1 : 2) && st == NG_OK; phase++) {
        key.phase = (uint8_t)phase;
        const NgKernel *kern;
        st = ng_kernel_get(ng_array_device(&flat), &key, sizeof key, build_int, &key, &kern);
        if (st != NG_OK)
            break;
        NgKArg args[24];
        int n = 0;
        int64_t one = 1;
        ng_kargs_array(args, &n, &flat, 1, &flat.shape[0], &one);
        stream_args(g, args, &n);
        args[n++].i = (int64_t)low;
        args[n++].i = (int64_t)range;
        args[n++].i = (int64_t)thresh;
        if (key.variant != INT_FULL)
            ng_kargs_array(args, &n, &ok, 1, &ok.shape[0], &one);
        st = ng_kernel_launch(kern, args, n, out->size, out->size * (phase ? 1 : 16));
    }
    if (st == NG_OK)
        advance(g, (uint64_t)out->size * (uint64_t)int_tries(key.variant));
    if (ok.buf)
        ng_array_release(&ok);
    ng_array_release(&flat);
    return st;
}

/* ---- choice with probabilities: inverse CDF ---- */

static const FillKey choice_key = {{'p', 'c'}, 0, NG_INT64, 0, 0};

/* for j in [0, nblocks) parallel: two float64 uniforms u; out[2j+q] = the
 * first index with cdf[index] > u (numpy: cdf.searchsorted(u, 'right')),
 * clamped to the last index. */
static NgStatus build_choice(const void *ctx, NgIrKernel *k)
{
    (void)ctx;
    int out = ng_ir_param_array(k, NG_INT64, 1, true, true);
    Stream s = stream_params(k);
    NgIrRef nblocks = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    int cdf = ng_ir_param_array(k, NG_FLOAT64, 1, false, false);
    int j = ng_ir_var(k, NG_INT64);
    NgIrRef jr = ng_ir_varref(k, j), one = ng_ir_const_i(k, NG_INT64, 1);
    Body *b = body_new(k), *search = body_new(k), *step = body_new(k);
    if (!b || !search || !step) {
        ng_free(b);
        ng_free(search);
        return k->status;
    }
    NgIrRef w[4];
    philox_ir(b, &s, u64(k, jr), w);
    for (int q = 0; q < 2; q++) {
        search->n = step->n = 0;
        NgIrRef u = let(search, NG_FLOAT64, ng_ir_unit_f64(k, w[2 * q], w[2 * q + 1]));
        int lo = ng_ir_var(k, NG_INT64), hi = ng_ir_var(k, NG_INT64);
        NgIrRef lr = ng_ir_varref(k, lo), hr = ng_ir_varref(k, hi);
        push(search, ng_ir_let(k, lo, ng_ir_const_i(k, NG_INT64, 0)));
        push(search, ng_ir_let(k, hi, op2(k, NG_OP_SUB, NG_INT64, ng_ir_shape(k, cdf, 0), one)));
        NgIrRef mid = let(step, NG_INT64, op2(k, NG_OP_RSHIFT, NG_INT64, op2(k, NG_OP_ADD, NG_INT64, lr, hr), one));
        push(step, ng_ir_if(k, op2(k, NG_OP_GT, NG_BOOL, ng_ir_load(k, cdf, 1, &mid), u), ng_ir_assign(k, hi, mid),
                            ng_ir_assign(k, lo, op2(k, NG_OP_ADD, NG_INT64, mid, one))));
        push(search, ng_ir_while(k, op2(k, NG_OP_LT, NG_BOOL, lr, hr), block(step)));
        NgIrRef idx = op2(k, NG_OP_ADD, NG_INT64, op2(k, NG_OP_MUL, NG_INT64, jr, ng_ir_const_i(k, NG_INT64, 2)),
                          ng_ir_const_i(k, NG_INT64, q));
        push(search, ng_ir_store(k, out, 1, &idx, lr));
        push(b, ng_ir_if(k, op2(k, NG_OP_LT, NG_BOOL, idx, ng_ir_shape(k, out, 0)), block(search), NG_IR_NONE));
    }
    k->body = ng_ir_for(k, j, ng_ir_const_i(k, NG_INT64, 0), nblocks, one, block(b), NG_IR_PARALLEL);
    ng_free(b);
    ng_free(search);
    ng_free(step);
    return k->status;
}

NgStatus ng_random_choice_cdf(NgPhilox *g, const NgArray *cdf, const NgArray *out)
{
    if (cdf->dtype != NG_FLOAT64 || cdf->ndim != 1 || cdf->size == 0 || out->dtype != NG_INT64)
        return ng_error_set(NG_ERR_VALUE, "choice: the CDF must be a non-empty 1-d float64 array, the output int64");
    if (ng_array_device(cdf) != ng_array_device(out))
        return ng_error_set(NG_ERR_VALUE, "choice: the CDF and the output are on different devices");
    if (out->size == 0)
        return NG_OK;
    NgArray flat;
    NgStatus st = flat_out(out, &flat);
    if (st != NG_OK)
        return st;
    int64_t nblocks = (out->size + 1) / 2;
    const NgKernel *kern;
    st = ng_kernel_get(ng_array_device(&flat), &choice_key, sizeof choice_key, build_choice, &choice_key, &kern);
    if (st == NG_OK) {
        NgKArg args[24];
        int n = 0;
        int64_t one = 1, cstride = cdf->strides[0] / ng_array_itemsize(cdf);
        ng_kargs_array(args, &n, &flat, 1, &flat.shape[0], &one);
        stream_args(g, args, &n);
        args[n++].i = nblocks;
        ng_kargs_array(args, &n, cdf, 1, &cdf->shape[0], &cstride);
        st = ng_kernel_launch(kern, args, n, nblocks, out->size * 32);
        if (st == NG_OK)
            advance(g, (uint64_t)nblocks);
    }
    ng_array_release(&flat);
    return st;
}

/* ---- permutation: a keyed bijection restricted by cycle walking ---- */

static const FillKey perm_key = {{'p', 'p'}, FEISTEL_ROUNDS, NG_INT64, 0, 0}; /* guarded: the phase */

/* MurmurHash3's 64-bit finaliser of (y ^ key): a bijective mixer in which
 * every input bit affects every output bit. */
static NgIrRef fmix64(Body *b, NgIrRef y, NgIrRef key)
{
    NgIrKernel *k = b->k;
    NgIrRef c33 = cu64(k, 33);
    NgIrRef h = let(b, NG_UINT64, op2(k, NG_OP_BITXOR, NG_UINT64, y, key));
    h = let(b, NG_UINT64, op2(k, NG_OP_BITXOR, NG_UINT64, h, op2(k, NG_OP_RSHIFT, NG_UINT64, h, c33)));
    h = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, h, cu64(k, UINT64_C(0xff51afd7ed558ccd))));
    h = let(b, NG_UINT64, op2(k, NG_OP_BITXOR, NG_UINT64, h, op2(k, NG_OP_RSHIFT, NG_UINT64, h, c33)));
    h = let(b, NG_UINT64, op2(k, NG_OP_MUL, NG_UINT64, h, cu64(k, UINT64_C(0xc4ceb9fe1a85ec53))));
    return op2(k, NG_OP_BITXOR, NG_UINT64, h, op2(k, NG_OP_RSHIFT, NG_UINT64, h, c33));
}

/* Element i of the permutation: v = i; do v = E(v) while v >= n.
 * E is an unbalanced Feistel network on [0, 2^(wa+wb)): the state is
 * (x: wa high bits, y: wb low bits) -> (y, x ^ F(y)), the halves' widths
 * swapping each round. E is a bijection, so cycle walking from i < n ends
 * at an element < n and i -> out[i] is a permutation of [0, n); since
 * n >= 2^(wa+wb-1) the walk takes fewer than two steps on average.
 *
 * feistel() appends one application of E to b and returns the new state. */
static NgIrRef feistel(Body *b, NgIrRef cur, const NgIrRef width[2], const NgIrRef mask[2], const NgIrRef *rkey)
{
    NgIrKernel *k = b->k;
    for (int r = 0; r < FEISTEL_ROUNDS; r++) {
        int hi = r & 1, lo = 1 - hi; /* round 0: x has width[0] bits, y width[1] */
        NgIrRef x = let(b, NG_UINT64, op2(k, NG_OP_RSHIFT, NG_UINT64, cur, width[lo]));
        NgIrRef y = let(b, NG_UINT64, op2(k, NG_OP_BITAND, NG_UINT64, cur, mask[lo]));
        NgIrRef f = op2(k, NG_OP_BITAND, NG_UINT64, fmix64(b, y, rkey[r]), mask[hi]);
        cur = let(b, NG_UINT64, op2(k, NG_OP_BITOR, NG_UINT64, op2(k, NG_OP_LSHIFT, NG_UINT64, y, width[hi]),
                                    op2(k, NG_OP_BITXOR, NG_UINT64, x, f)));
    }
    return cur;
}

/* Phase 0, for i in [0, m) parallel (no inner loop: it vectorises):
 *     out[i] = E(i)
 * Phase 1, for i in [0, m) parallel, the walk of the entries out of range:
 *     v = out[i]; if v >= n: do v = E(v) while v >= n; out[i] = v */
static NgStatus build_perm(const void *ctx, NgIrKernel *k)
{
    const FillKey *key = ctx;
    int out = ng_ir_param_array(k, NG_INT64, 1, true, true);
    NgIrRef n = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    NgIrRef width[2], mask[2], rkey[FEISTEL_ROUNDS];
    for (int h = 0; h < 2; h++)
        width[h] = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    for (int h = 0; h < 2; h++)
        mask[h] = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    for (int r = 0; r < FEISTEL_ROUNDS; r++)
        rkey[r] = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_UINT64));
    int i = ng_ir_var(k, NG_INT64), v = ng_ir_var(k, NG_UINT64);
    NgIrRef ir = ng_ir_varref(k, i), vr = ng_ir_varref(k, v);
    Body *b = body_new(k), *walk = body_new(k);
    if (!b || !walk) {
        ng_free(b);
        return k->status;
    }
    if (key->guarded == 0) { /* phase 0 */
        NgIrRef e = feistel(b, u64(k, ir), width, mask, rkey);
        push(b, ng_ir_store(k, out, 1, &ir, ng_ir_cast(k, NG_INT64, e)));
    } else {
        push(b, ng_ir_let(k, v, u64(k, ng_ir_load(k, out, 1, &ir))));
        push(walk, ng_ir_assign(k, v, feistel(walk, vr, width, mask, rkey)));
        NgIrRef out_of_range = op2(k, NG_OP_GE, NG_BOOL, vr, n);
        NgIrRef steps[2] = {ng_ir_while(k, out_of_range, block(walk)), ng_ir_store(k, out, 1, &ir, ng_ir_cast(k, NG_INT64, vr))};
        push(b, ng_ir_if(k, out_of_range, ng_ir_block(k, 2, steps), NG_IR_NONE));
    }
    k->body = ng_ir_for(k, i, ng_ir_const_i(k, NG_INT64, 0), ng_ir_shape(k, out, 0), ng_ir_const_i(k, NG_INT64, 1),
                        block(b), NG_IR_PARALLEL);
    ng_free(b);
    ng_free(walk);
    return k->status;
}

NgStatus ng_random_permutation(NgPhilox *g, int64_t n, const NgArray *out)
{
    if (out->dtype != NG_INT64 || n < 0 || out->size > n || n > (INT64_C(1) << 62))
        return ng_error_set(NG_ERR_VALUE, "permutation: bad length %lld or output", (long long)n);
    /* the round keys come from the stream, so the call advances it even when empty */
    uint64_t keys[FEISTEL_ROUNDS];
    for (int r = 0; r < FEISTEL_ROUNDS; r += 2) {
        uint32_t w[4];
        philox_at(g, (uint64_t)r / 2, w);
        keys[r] = w[0] | (uint64_t)w[1] << 32;
        keys[r + 1] = w[2] | (uint64_t)w[3] << 32;
    }
    advance(g, FEISTEL_ROUNDS / 2);
    if (out->size == 0)
        return NG_OK;
    NgArray flat;
    NgStatus st = flat_out(out, &flat);
    if (st != NG_OK)
        return st;
    int bits = 2;
    while (bits < 63 && (UINT64_C(1) << bits) <= (uint64_t)n)
        bits++;
    uint64_t width[2] = {(uint64_t)bits / 2, (uint64_t)(bits - bits / 2)};
    for (int phase = 0; phase < 2 && st == NG_OK; phase++) {
        FillKey key = perm_key;
        key.guarded = (uint8_t)phase;
        const NgKernel *kern;
        st = ng_kernel_get(ng_array_device(&flat), &key, sizeof key, build_perm, &key, &kern);
        if (st != NG_OK)
            break;
        NgKArg args[32];
        int na = 0;
        int64_t one = 1;
        ng_kargs_array(args, &na, &flat, 1, &flat.shape[0], &one);
        args[na++].i = n;
        for (int h = 0; h < 2; h++)
            args[na++].i = (int64_t)width[h];
        for (int h = 0; h < 2; h++)
            args[na++].i = (int64_t)((UINT64_C(1) << width[h]) - 1);
        for (int r = 0; r < FEISTEL_ROUNDS; r++)
            args[na++].i = (int64_t)keys[r];
        st = ng_kernel_launch(kern, args, na, out->size, out->size * 64);
    }
    ng_array_release(&flat);
    return st;
}
