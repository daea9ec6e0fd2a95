/* Discrete Fourier transforms (numgpu.fft): the complex transform, the
 * real-input transform and the Hermitian-input one, along one axis, as
 * NumPy's pocketfft computes them. The n-d transforms are repeated 1-d ones
 * (python/numgpu/fft.py).
 *
 * Layout. The input is viewed C-contiguous as (outer, len, inner): the
 * transform axis stays where it is and every element of a row has `inner`
 * independent neighbours beside it, so no axis is ever moved and a transform
 * along a leading axis runs over whole contiguous rows. Complex buffers are
 * handed to kernels as real arrays of their parts ((outer, N*inner, 2) of
 * float32 for complex64, float64 for complex128) and the kernels do the
 * complex arithmetic part by part: multiplying by -i is a swap, a twiddle is
 * four products.
 *
 * Lengths whose factors are all 2, 3, 5, 7, 11 or 13 run as Stockham
 * autosort passes, radix 4 first, then 2, then the odd primes (decimation in
 * frequency; the pass of radix p at stride s turns x[q + s*(k + j*m)] into
 * y[q + s*(p*k + r)] = w^(k*r*s) * DFT_p(x...)[r], and the last pass leaves
 * the result in natural order). GPUs run one kernel per pass, a thread per
 * butterfly; the cpu runs a big enough batch of a length up to ROWS_MAX as
 * one ROWS kernel (a thread does every pass of its row, in its cache) or
 * BLOCKS kernel (of a block of columns, or of a few rows side by side,
 * through contiguous scratch arrays, vectorised across the block) and the
 * rest as one kernel per pass, parallel over rows, k or chunks of q.
 * Even-length real transforms are half-length complex ones: rfft reads the
 * real row as n/2 complex points and splits their transform (RSPLIT), irfft
 * packs the Hermitian half (CPACK) so that the half-length inverse gives the
 * even and odd outputs as real and imaginary parts; on the cpu, along the last
 * axis, the split or the pack is a stage of the ROWS/BLOCKS kernel of the
 * half-length passes (FU_SPLIT, FU_PACK), on rows in its cache, and irfft's
 * last pass writes the real output itself. Any other length n
 * goes through Bluestein's chirp-z: the input times the chirp exp(-pi i
 * j^2/n), zero-padded to a power of two M >= 2n - 1, is convolved with the
 * conjugate chirp by two M-point transforms (the chirp's own transform is
 * part of the plan) and multiplied by the chirp again.
 *
 * A plan holds what one length needs on one device in one precision: the
 * twiddle table (cos, sin of 2 pi j/n, computed on the host in double with
 * the angle reduced to the first octant, rounded once to float32 for
 * complex64) or Bluestein's chirp and the transform of the chirp. Plans are
 * cached per (device, n, precision).
 *
 * Every other transform is: an optional PRE kernel (cast to the compute dtype,
 * crop or zero-pad to n, Hermitian extension for C2R, conjugation, the
 * chirp), the passes (Bluestein: forward passes, MUL by the chirp's
 * transform, inverse passes), and an optional POST kernel (rfft's n//2+1
 * outputs, irfft's real part cast to the output dtype, the chirp). The norm
 * factor is applied once, by the last kernel that runs. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "ops/sort_internal.h"

#define MAXFAC 64      /* most passes of one length (2^64 > any length) */
#define MAXSTMT 1024   /* most statements in one block of a kernel body */
#define PLAN_CACHE 32  /* plans kept per process (least recently used dropped) */
#define PLAN_CACHE_MAX_BYTES (64 << 20) /* a bigger plan is rebuilt at every use instead */
#define MAXRADIX 13    /* largest prime a pass handles; longer primes: Bluestein */
#define MAXROWFAC 16   /* most passes of one ROWS kernel */
#define ROWS_MAX 16384 /* longest transform done by a ROWS kernel (cpu) */
#define ROWS_MIN_WORK 16384 /* fewest points (all rows) worth a ROWS kernel */
#define FUSED_MIN_WORK 512 /* fewest points (all rows) of a half-length transform worth a fused ROWS kernel */
#define FUSED_MAX 32768 /* longest half-length transform of a fused ROWS kernel */
#define ROWBLOCK_MAX 4096 /* longest transform done by BLOCKS of rows (cpu, inner == 1) */

/* ---- kernels ---------------------------------------------------------- */

enum {
    FK_PASS_K,  /* one Stockham pass, parallel over k (cpu: few rows, many butterflies per row) */
    FK_PASS_O,  /* one Stockham pass, parallel over rows (cpu: many rows) */
    FK_PASS_T,  /* one Stockham pass, parallel over (row, k, chunk of q) */
    FK_PRE,     /* input -> complex work buffer */
    FK_POST,    /* work buffer -> output */
    FK_MUL,     /* Bluestein: work buffer *= the chirp's transform */
    FK_ROWS,    /* every pass of a length in one kernel, a thread per row (cpu) */
    FK_RPACK,   /* rfft of even n: real x -> z[j] = x[2j] + i x[2j+1], n/2 points */
    FK_RSPLIT,  /* rfft of even n: Z = DFT_{n/2}(z) -> the n/2 + 1 outputs */
    FK_CPACK,   /* irfft of even n: the n/2 + 1 inputs -> the n/2 points whose inverse DFT is y */
    FK_CUNPACK, /* irfft of even n: z -> y[2j] = re z[j], y[2j+1] = im z[j] */
    FK_BLOCKS,  /* ROWS through scratch arrays, a thread per block of columns or rows (cpu) */
};

enum {
    FF_SCALE = 1,  /* multiply by the scalar `scale` */
    FF_CHIRP = 2,  /* multiply by Bluestein's chirp */
    FF_HERM = 4,   /* PRE: Hermitian extension of n//2+1 points to n (C2R) */
    FF_CONJ = 8,   /* conjugate (PRE: the input; POST: the output) */
    FF_INV = 16,   /* inverse direction: exp(+2 pi i ...) */
    FF_REAL = 32,  /* POST: real output (the real part) */
    FF_INNER1 = 64,/* ROWS, and the split/pack kernels: inner == 1 (no column loop); BLOCKS: of rows */
    FF_BYROW = 128,/* RPACK, RSPLIT, CPACK, CUNPACK: parallel over rows, points in order (cpu, many rows) */
};

/* What a ROWS or BLOCKS kernel of a real transform does besides the passes (cpu, inner == 1):
 * the split or the pack in the same kernel, on the rows it has in its cache, instead of a
 * kernel of its own and a trip of the whole array through memory. */
enum {
    FU_NONE,  /* the passes alone */
    FU_SPLIT, /* rfft: then RSPLIT's split of the last pass's output into OUT */
    FU_PACK,  /* irfft: first CPACK's pack of the input, which the first pass reads */
};

/* Rows of a BLOCKS kernel's block along the last axis: a point's values one 64-byte line */
static int64_t rowblock(NgDType dt) { return dt == NG_FLOAT32 ? 8 : 4; }

/* Scratch arrays (S0, S1) a BLOCKS kernel of nfac passes needs: stages (the pack, the
 * passes, the split) write S0, S1, S0, ... (the pack S1, pass 0 S0), all but the last
 * pass, which writes A unless a split follows. */
static int rows_scratch(int nfac, int fuse)
{
    if (fuse == FU_PACK)
        return 2;
    if (fuse == FU_SPLIT)
        return nfac >= 2 ? 2 : 1;
    return nfac >= 3 ? 2 : nfac - 1;
}

typedef struct FftKey {
    uint8_t tag;    /* 'T' */
    uint8_t kind;   /* FK_* */
    int8_t dt;      /* compute precision: NG_FLOAT32 or NG_FLOAT64 */
    int8_t other;   /* PRE: input dtype; POST: output dtype */
    uint8_t flags;  /* FF_* */
    uint8_t nfac;   /* passes: 1; ROWS: the number of passes */
    uint8_t fuse;   /* ROWS, BLOCKS (inner == 1): FU_* */
    uint8_t row1;   /* RPACK, RSPLIT, CPACK, CUNPACK: one row (outer == 1), no row divided out of a point's number */
    uint8_t fac[MAXROWFAC]; /* their radices (passes: fac[0]) */
} FftKey;

/* A complex value as two real expressions. */
typedef struct Cx {
    NgIrRef re, im;
} Cx;

/* A statement list under construction (one block). */
typedef struct Body {
    NgIrKernel *k;
    NgDType dt;             /* real compute dtype */
    int n;
    NgIrRef st[MAXSTMT];
} Body;

static void add(Body *b, NgIrRef s)
{
    if (b->n < MAXSTMT)
        b->st[b->n++] = s;
    else if (b->k->status == NG_OK)
        b->k->status = ng_error_set(NG_ERR_INTERNAL, "fft kernel body too long");
}

static NgIrRef block(Body *b) { return ng_ir_block(b->k, b->n, b->st); }

/* A new variable of dtype dt set to v; returns its reference. */
static NgIrRef let_dt(Body *b, NgDType dt, NgIrRef v)
{
    int var = ng_ir_var(b->k, dt);
    add(b, ng_ir_let(b->k, var, v));
    return ng_ir_varref(b->k, var);
}

static NgIrRef let_i(Body *b, NgIrRef v) { return let_dt(b, NG_INT64, v); }
static Cx let_c(Body *b, Cx v) { return (Cx){let_dt(b, b->dt, v.re), let_dt(b, b->dt, v.im)}; }

static NgIrRef fop(Body *b, NgOp op, NgIrRef x, NgIrRef y) { return ng_ir_binary(b->k, op, b->dt, x, y); }
static NgIrRef fconst(Body *b, double v) { return ng_ir_const_f(b->k, b->dt, v); }
static NgIrRef fneg(Body *b, NgIrRef x) { return ng_ir_unary(b->k, NG_OP_NEG, b->dt, x); }
static Cx cadd(Body *b, Cx x, Cx y) { return (Cx){fop(b, NG_OP_ADD, x.re, y.re), fop(b, NG_OP_ADD, x.im, y.im)}; }
static Cx csub(Body *b, Cx x, Cx y) { return (Cx){fop(b, NG_OP_SUB, x.re, y.re), fop(b, NG_OP_SUB, x.im, y.im)}; }
static Cx cscale(Body *b, Cx x, NgIrRef f) { return (Cx){fop(b, NG_OP_MUL, x.re, f), fop(b, NG_OP_MUL, x.im, f)}; }

/* x * (c + i*s), or x * (c - i*s) with conj */
static Cx cmul(Body *b, Cx x, NgIrRef c, NgIrRef s, bool conj)
{
    NgIrRef rc = fop(b, NG_OP_MUL, x.re, c), is = fop(b, NG_OP_MUL, x.im, s);
    NgIrRef ic = fop(b, NG_OP_MUL, x.im, c), rs = fop(b, NG_OP_MUL, x.re, s);
    if (conj)
        return (Cx){fop(b, NG_OP_ADD, rc, is), fop(b, NG_OP_SUB, ic, rs)};
    return (Cx){fop(b, NG_OP_SUB, rc, is), fop(b, NG_OP_ADD, ic, rs)};
}

/* x * (-i) forward, x * (+i) inverse */
static Cx cmul_mi(Body *b, Cx x, bool inv)
{
    return inv ? (Cx){fneg(b, x.im), x.re} : (Cx){x.im, fneg(b, x.re)};
}

/* cos and sin of 2*pi*j/n, with the angle reduced to the first octant by
 * exact integer steps (so w^j and w^(n-j) are conjugates to the last bit) */
static void unit_root(int64_t j, int64_t n, double *c, double *s)
{
    int64_t p = j % n, q = n; /* the angle is p/q of a turn */
    double sc = 1, ss = 1;
    bool swap = false;
    if (2 * p > q) { /* (1/2, 1): sin(2 pi - x) = -sin x */
        p = q - p;
        ss = -1;
    }
    if (4 * p > q) { /* (1/4, 1/2]: cos(pi - x) = -cos x */
        p = q - 2 * p;
        q *= 2;
        sc = -1;
    }
    if (8 * p > q) { /* (1/8, 1/4]: cos(pi/2 - x) = sin x */
        p = q - 4 * p;
        q *= 4;
        swap = true;
    }
    double x = 2 * M_PI * (double)p / (double)q, cx = cos(x), sx = sin(x);
    *c = sc * (swap ? sx : cx);
    *s = ss * (swap ? cx : sx);
}

/* y[r] = sum_j a[j] exp(-+2 pi i j r / p) for r < p (the p-point DFT of a). */
static void butterfly(Body *b, int p, bool inv, const Cx *a, Cx *y)
{
    if (p == 2) {
        y[0] = cadd(b, a[0], a[1]);
        y[1] = csub(b, a[0], a[1]);
        return;
    }
    if (p == 4) {
        Cx t0 = let_c(b, cadd(b, a[0], a[2])), t1 = let_c(b, csub(b, a[0], a[2]));
        Cx t2 = let_c(b, cadd(b, a[1], a[3])), t3 = let_c(b, cmul_mi(b, csub(b, a[1], a[3]), inv));
        y[0] = cadd(b, t0, t2);
        y[2] = csub(b, t0, t2);
        y[1] = cadd(b, t1, t3);
        y[3] = csub(b, t1, t3);
        return;
    }
    /* odd p: pairs (j, p - j) share cos and have opposite sin */
    int h = (p - 1) / 2;
    Cx t1[MAXRADIX], t2[MAXRADIX];
    for (int j = 1; j <= h; j++) {
        t1[j] = let_c(b, cadd(b, a[j], a[p - j]));
        t2[j] = let_c(b, csub(b, a[j], a[p - j]));
    }
    Cx y0 = a[0];
    for (int j = 1; j <= h; j++)
        y0 = cadd(b, y0, t1[j]);
    y[0] = y0;
    for (int r = 1; r <= h; r++) {
        Cx u = a[0], v = {NG_IR_NONE, NG_IR_NONE};
        for (int j = 1; j <= h; j++) {
            double c, s;
            unit_root((int64_t)j * r, p, &c, &s);
            u = cadd(b, u, cscale(b, t1[j], fconst(b, c)));
            Cx sv = cscale(b, t2[j], fconst(b, s));
            v = j == 1 ? sv : cadd(b, v, sv);
        }
        u = let_c(b, u);
        v = let_c(b, cmul_mi(b, v, inv));
        y[r] = cadd(b, u, v);
        y[p - r] = csub(b, u, v);
    }
}

/* x[o, i, part] of a 3-d parts array */
static NgIrRef ld3(NgIrKernel *k, int p, NgIrRef o, NgIrRef i, int part)
{
    NgIrRef ix[3] = {o, i, sx_i(k, part)};
    return ng_ir_load(k, p, 3, ix);
}

static NgIrRef st3(NgIrKernel *k, int p, NgIrRef o, NgIrRef i, int part, NgIrRef v)
{
    NgIrRef ix[3] = {o, i, sx_i(k, part)};
    return ng_ir_store(k, p, 3, ix, v);
}

/* x[o, j, i, part] of a 4-d parts array (part < 0: a 3-d real array) */
static NgIrRef ld4(NgIrKernel *k, int p, NgIrRef o, NgIrRef j, NgIrRef i, int part)
{
    NgIrRef ix[4] = {o, j, i, sx_i(k, part)};
    return ng_ir_load(k, p, part < 0 ? 3 : 4, ix);
}

static NgIrRef st4(NgIrKernel *k, int p, NgIrRef o, NgIrRef j, NgIrRef i, int part, NgIrRef v)
{
    NgIrRef ix[4] = {o, j, i, sx_i(k, part)};
    return ng_ir_store(k, p, part < 0 ? 3 : 4, ix, v);
}

/* x[o, i, c + part] of a 3-d array (c: an index expression) */
static NgIrRef ldc(NgIrKernel *k, int p, NgIrRef o, NgIrRef i, NgIrRef c, int part)
{
    NgIrRef ix[3] = {o, i, part ? sx_op(k, NG_OP_ADD, c, sx_i(k, part)) : c};
    return ng_ir_load(k, p, 3, ix);
}

static NgIrRef stc(NgIrKernel *k, int p, NgIrRef o, NgIrRef i, NgIrRef c, int part, NgIrRef v)
{
    NgIrRef ix[3] = {o, i, part ? sx_op(k, NG_OP_ADD, c, sx_i(k, part)) : c};
    return ng_ir_store(k, p, 3, ix, v);
}

/* Where a step's points are: array p, row o and, unless c2 is NONE, the
 * column whose real part is at c2 of a (outer, L, 2*inner) array (its
 * imaginary part at c2 + 1: the columns 2 apart, which the C compiler
 * vectorises across); c2 NONE: a 3-d (outer, L, 2) array. */
typedef struct Acc {
    int p;
    NgIrRef o, c2;
} Acc;

static NgIrRef ld_acc(NgIrKernel *k, Acc a, NgIrRef i, int part)
{
    return a.c2 == NG_IR_NONE ? ld3(k, a.p, a.o, i, part) : ldc(k, a.p, a.o, i, a.c2, part);
}

static NgIrRef st_acc(NgIrKernel *k, Acc a, NgIrRef i, int part, NgIrRef v)
{
    return a.c2 == NG_IR_NONE ? st3(k, a.p, a.o, i, part, v) : stc(k, a.p, a.o, i, a.c2, part, v);
}

/* The butterfly of radix p at input position `in` (inputs `instep` apart)
 * of src: dst[outpos + r*outstep] = w_r * DFT_p(src[in...])[r] (* scale
 * unless NONE), w_r = (wc[r], -+ws[r]) for r >= 1. */
static void step(Body *b, int p, bool inv, Acc src, Acc dst, NgIrRef in, NgIrRef instep, NgIrRef outpos,
                 NgIrRef outstep, const NgIrRef *wc, const NgIrRef *ws, NgIrRef scale)
{
    NgIrKernel *k = b->k;
    Cx a[16] = {{0, 0}}, yv[16] = {{0, 0}};
    NgIrRef iq = let_i(b, in);
    for (int j = 0; j < p; j++) {
        NgIrRef idx = j == 0 ? iq : sx_op(k, NG_OP_ADD, iq, sx_op(k, NG_OP_MUL, instep, sx_i(k, j)));
        a[j] = let_c(b, (Cx){ld_acc(k, src, idx, 0), ld_acc(k, src, idx, 1)});
    }
    butterfly(b, p, inv, a, yv);
    NgIrRef oq = let_i(b, outpos);
    for (int r = 0; r < p; r++) {
        Cx v = r == 0 ? yv[0] : cmul(b, let_c(b, yv[r]), wc[r], ws[r], !inv);
        if (scale != NG_IR_NONE)
            v = cscale(b, v, scale);
        NgIrRef idx = r == 0 ? oq : sx_op(k, NG_OP_ADD, oq, sx_op(k, NG_OP_MUL, outstep, sx_i(k, r)));
        add(b, st_acc(k, dst, idx, 0, v.re));
        add(b, st_acc(k, dst, idx, 1, v.im));
    }
}

/* One Stockham pass of radix p. Params: x, y (outer, N*inner, 2), tw (N, 2);
 * scalars m, S (= s*inner), s, [C, nc: PASS_T], [scale]. The butterfly
 * (k, q) of row o reads x[o, S*(k + j*m) + q] for j < p and writes
 * y[o, S*(p*k + r) + q] = w^(k*r*s) * DFT_p[r] (w = exp(-2 pi i/N)). */
static NgStatus build_pass(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt;
    int p = key->fac[0];
    bool inv = key->flags & FF_INV, tloop = key->kind == FK_PASS_T;
    int x = ng_ir_param_array(k, dt, 3, true, false);
    int y = ng_ir_param_array(k, dt, 3, true, true);
    int tw = ng_ir_param_array(k, dt, 2, true, false);
    NgIrRef m = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef S = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef s = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef C = NG_IR_NONE, nc = NG_IR_NONE, scale = NG_IR_NONE;
    if (tloop) {
        C = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
        nc = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    }
    if (key->flags & FF_SCALE)
        scale = ng_ir_scalar(k, ng_ir_param_scalar(k, dt));
    NgIrRef outer = ng_ir_shape(k, x, 0);

    Body outb, inb;
    Body *ob = &outb, *ib = &inb;
    ob->k = ib->k = k;
    ob->dt = ib->dt = dt;
    ob->n = ib->n = 0;
    bool rows = key->kind == FK_PASS_O;
    int tv = ng_ir_var(k, NG_INT64), qv = ng_ir_var(k, NG_INT64), ov = tloop ? -1 : ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, tv), Q = ng_ir_varref(k, qv), O = tloop ? NG_IR_NONE : ng_ir_varref(k, ov), K, q0, q1;
    if (rows) { /* the loops are o (parallel), k, q: T is k */
        NgIrRef swap = O;
        O = T;
        T = swap;
    }
    if (tloop) {
        NgIrRef mnc = sx_op(k, NG_OP_MUL, m, nc);
        NgIrRef o = let_i(ob, sx_op(k, NG_OP_FLOORDIV, T, mnc));
        NgIrRef u = let_i(ob, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, o, mnc)));
        K = let_i(ob, sx_op(k, NG_OP_FLOORDIV, u, nc));
        NgIrRef c = sx_op(k, NG_OP_SUB, u, sx_op(k, NG_OP_MUL, K, nc));
        q0 = let_i(ob, sx_op(k, NG_OP_MUL, c, C));
        q1 = let_i(ob, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, q0, C), S));
        O = o;
    } else {
        K = T;
        q0 = sx_i(k, 0);
        q1 = S;
    }
    /* twiddles w^(k*r*s), r = 1 .. p-1 */
    NgIrRef wc[16], ws[16];
    NgIrRef ks = let_i(ob, sx_op(k, NG_OP_MUL, K, s));
    for (int r = 1; r < p; r++) {
        NgIrRef idx = sx_op(k, NG_OP_MUL, ks, sx_i(k, r));
        wc[r] = let_dt(ob, dt, sx_load2(k, tw, idx, sx_i(k, 0)));
        ws[r] = let_dt(ob, dt, sx_load2(k, tw, idx, sx_i(k, 1)));
    }
    NgIrRef inbase = let_i(ob, sx_op(k, NG_OP_MUL, S, K));
    NgIrRef sm = let_i(ob, sx_op(k, NG_OP_MUL, S, m));
    NgIrRef outbase = let_i(ob, sx_op(k, NG_OP_MUL, inbase, sx_i(k, p)));

    step(ib, p, inv, (Acc){x, O, NG_IR_NONE}, (Acc){y, O, NG_IR_NONE}, sx_op(k, NG_OP_ADD, inbase, Q), sm,
         sx_op(k, NG_OP_ADD, outbase, Q), S, wc, ws, scale);
    NgIrRef qloop = sx_for(k, qv, q0, q1, block(ib), 0);
    if (tloop) {
        add(ob, qloop);
        k->body = sx_for(k, tv, sx_i(k, 0), sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_MUL, outer, m), nc), block(ob),
                         NG_IR_PARALLEL);
    } else if (rows) {
        add(ob, qloop);
        k->body = sx_for(k, tv, sx_i(k, 0), outer, sx_for(k, ov, sx_i(k, 0), m, block(ob), 0), NG_IR_PARALLEL);
    } else {
        add(ob, sx_for(k, ov, sx_i(k, 0), outer, qloop, 0));
        k->body = sx_for(k, tv, sx_i(k, 0), m, block(ob), NG_IR_PARALLEL);
    }
    return k->status;
}

/* PRE: params src ((outer, len, inner) real, or (outer, len, inner, 2) parts
 * of a complex input), dst (outer, Nout, inner, 2), [chirp (n, 2)]; scalars
 * n, [scale]. dst[o, j] = the input's point j (0 beyond len or n; C2R: the
 * Hermitian extension), conjugated, times the chirp, times scale. */
static NgStatus build_pre(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt, sdt = (NgDType)key->other;
    bool cplx = ng_dtype_is_complex(sdt), herm = key->flags & FF_HERM, inv = key->flags & FF_INV;
    int src = ng_ir_param_array(k, cplx ? ng_dtype_real(sdt) : sdt, cplx ? 4 : 3, true, false);
    int dst = ng_ir_param_array(k, dt, 4, true, true);
    int chirp = key->flags & FF_CHIRP ? ng_ir_param_array(k, dt, 2, true, false) : -1;
    NgIrRef n = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef scale = key->flags & FF_SCALE ? ng_ir_scalar(k, ng_ir_param_scalar(k, dt)) : NG_IR_NONE;
    NgIrRef outer = ng_ir_shape(k, dst, 0), nout = ng_ir_shape(k, dst, 1), inner = ng_ir_shape(k, dst, 2);
    NgIrRef len = ng_ir_shape(k, src, 1);

    Body outb, inb;
    Body *ob = &outb, *ib = &inb;
    ob->k = ib->k = k;
    ob->dt = ib->dt = dt;
    ob->n = ib->n = 0;
    int tv = ng_ir_var(k, NG_INT64), iv = ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, tv), I = ng_ir_varref(k, iv);
    NgIrRef o = let_i(ob, sx_op(k, NG_OP_FLOORDIV, T, nout));
    NgIrRef j = let_i(ob, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, o, nout)));
    NgIrRef jj = j, negim = NG_IR_NONE, zeroim = NG_IR_NONE;
    if (herm) { /* points above n/2 are the conjugates of n - j; 0 and n/2 are real */
        NgIrRef half = sx_op(k, NG_OP_FLOORDIV, n, sx_i(k, 2));
        NgIrRef upper = let_dt(ob, NG_BOOL, sx_cmp(k, NG_OP_GT, j, half));
        jj = let_i(ob, ng_ir_select(k, upper, sx_op(k, NG_OP_SUB, n, j), j));
        negim = upper;
        zeroim = let_dt(ob, NG_BOOL, ng_ir_binary(k, NG_OP_LOGOR, NG_BOOL, sx_cmp(k, NG_OP_EQ, j, sx_i(k, 0)),
                                                  sx_cmp(k, NG_OP_EQ, sx_op(k, NG_OP_MUL, j, sx_i(k, 2)), n)));
    }
    NgIrRef valid = let_dt(ob, NG_BOOL, ng_ir_binary(k, NG_OP_LOGAND, NG_BOOL, sx_cmp(k, NG_OP_LT, jj, len),
                                                     sx_cmp(k, NG_OP_LT, j, n)));
    NgIrRef cc = NG_IR_NONE, cs = NG_IR_NONE;
    if (chirp >= 0) {
        NgIrRef jc = sx_op(k, NG_OP_MINIMUM, j, sx_op(k, NG_OP_SUB, n, sx_i(k, 1)));
        cc = let_dt(ob, dt, sx_load2(k, chirp, jc, sx_i(k, 0)));
        cs = let_dt(ob, dt, sx_load2(k, chirp, jc, sx_i(k, 1)));
    }
    NgIrRef zero = fconst(ib, 0.0);
    NgIrRef re = ng_ir_select(k, valid, ng_ir_cast(k, dt, ld4(k, src, o, jj, I, cplx ? 0 : -1)), zero);
    NgIrRef im = cplx ? ng_ir_select(k, valid, ng_ir_cast(k, dt, ld4(k, src, o, jj, I, 1)), zero) : zero;
    Cx v = let_c(ib, (Cx){re, im});
    if (cplx || herm) {
        NgIrRef neg = negim;
        if (key->flags & FF_CONJ)
            neg = neg == NG_IR_NONE ? ng_ir_const_i(k, NG_BOOL, 1) : ng_ir_unary(k, NG_OP_LOGNOT, NG_BOOL, neg);
        if (neg != NG_IR_NONE)
            v.im = ng_ir_select(k, neg, fneg(ib, v.im), v.im);
        if (zeroim != NG_IR_NONE)
            v.im = ng_ir_select(k, zeroim, zero, v.im);
        v = let_c(ib, v);
    }
    if (chirp >= 0)
        v = cmul(ib, v, cc, cs, !inv);
    if (key->flags & FF_SCALE)
        v = cscale(ib, v, scale);
    add(ib, st4(k, dst, o, j, I, 0, v.re));
    add(ib, st4(k, dst, o, j, I, 1, v.im));
    add(ob, sx_for(k, iv, sx_i(k, 0), inner, block(ib), 0));
    k->body = sx_for(k, tv, sx_i(k, 0), sx_op(k, NG_OP_MUL, outer, nout), block(ob), NG_IR_PARALLEL);
    return k->status;
}

/* POST: params src (outer, Nin, inner, 2), dst ((outer, Nout, inner, 2)
 * parts of a complex output, or (outer, Nout, inner) real), [chirp (n, 2)];
 * scalars [scale]. dst[o, k] = src[o, k] times the chirp, times scale,
 * conjugated, or its real part. */
static NgStatus build_post(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt, odt = (NgDType)key->other;
    bool real = key->flags & FF_REAL, inv = key->flags & FF_INV;
    int src = ng_ir_param_array(k, dt, 4, true, false);
    int dst = ng_ir_param_array(k, real ? odt : ng_dtype_real(odt), real ? 3 : 4, true, true);
    int chirp = key->flags & FF_CHIRP ? ng_ir_param_array(k, dt, 2, true, false) : -1;
    NgIrRef scale = key->flags & FF_SCALE ? ng_ir_scalar(k, ng_ir_param_scalar(k, dt)) : NG_IR_NONE;
    NgIrRef outer = ng_ir_shape(k, dst, 0), nout = ng_ir_shape(k, dst, 1), inner = ng_ir_shape(k, src, 2);

    Body outb, inb;
    Body *ob = &outb, *ib = &inb;
    ob->k = ib->k = k;
    ob->dt = ib->dt = dt;
    ob->n = ib->n = 0;
    int tv = ng_ir_var(k, NG_INT64), iv = ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, tv), I = ng_ir_varref(k, iv);
    NgIrRef o = let_i(ob, sx_op(k, NG_OP_FLOORDIV, T, nout));
    NgIrRef j = let_i(ob, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, o, nout)));
    NgIrRef cc = NG_IR_NONE, cs = NG_IR_NONE;
    if (chirp >= 0) {
        cc = let_dt(ob, dt, sx_load2(k, chirp, j, sx_i(k, 0)));
        cs = let_dt(ob, dt, sx_load2(k, chirp, j, sx_i(k, 1)));
    }
    Cx v = {ld4(k, src, o, j, I, 0), ld4(k, src, o, j, I, 1)};
    if (chirp >= 0)
        v = cmul(ib, let_c(ib, v), cc, cs, !inv);
    if (key->flags & FF_SCALE)
        v = cscale(ib, v, scale);
    if (real) {
        add(ib, st4(k, dst, o, j, I, -1, ng_ir_cast(k, odt, v.re)));
    } else {
        NgDType rdt = ng_dtype_real(odt);
        if (key->flags & FF_CONJ)
            v.im = fneg(ib, v.im);
        add(ib, st4(k, dst, o, j, I, 0, ng_ir_cast(k, rdt, v.re)));
        add(ib, st4(k, dst, o, j, I, 1, ng_ir_cast(k, rdt, v.im)));
    }
    add(ob, sx_for(k, iv, sx_i(k, 0), inner, block(ib), 0));
    k->body = sx_for(k, tv, sx_i(k, 0), sx_op(k, NG_OP_MUL, outer, nout), block(ob), NG_IR_PARALLEL);
    return k->status;
}

/* MUL: params a (outer, M, inner, 2) read and written, B (M, 2): a[o, k] *=
 * B[k], or (inverse) conj(B[(M - k) mod M]), the transform of the conjugate
 * chirp. */
static NgStatus build_mul(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt;
    bool inv = key->flags & FF_INV;
    int a = ng_ir_param_array(k, dt, 4, true, true);
    int bf = ng_ir_param_array(k, dt, 2, true, false);
    NgIrRef outer = ng_ir_shape(k, a, 0), M = ng_ir_shape(k, a, 1), inner = ng_ir_shape(k, a, 2);

    Body outb, inb;
    Body *ob = &outb, *ib = &inb;
    ob->k = ib->k = k;
    ob->dt = ib->dt = dt;
    ob->n = ib->n = 0;
    int tv = ng_ir_var(k, NG_INT64), iv = ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, tv), I = ng_ir_varref(k, iv);
    NgIrRef o = let_i(ob, sx_op(k, NG_OP_FLOORDIV, T, M));
    NgIrRef j = let_i(ob, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, o, M)));
    NgIrRef jb = inv ? ng_ir_select(k, sx_cmp(k, NG_OP_EQ, j, sx_i(k, 0)), sx_i(k, 0), sx_op(k, NG_OP_SUB, M, j)) : j;
    jb = let_i(ob, jb);
    NgIrRef wc = let_dt(ob, dt, sx_load2(k, bf, jb, sx_i(k, 0)));
    NgIrRef ws = let_dt(ob, dt, sx_load2(k, bf, jb, sx_i(k, 1)));
    Cx v = let_c(ib, (Cx){ld4(k, a, o, j, I, 0), ld4(k, a, o, j, I, 1)});
    v = cmul(ib, v, wc, ws, inv);
    add(ib, st4(k, a, o, j, I, 0, v.re));
    add(ib, st4(k, a, o, j, I, 1, v.im));
    add(ob, sx_for(k, iv, sx_i(k, 0), inner, block(ib), 0));
    k->body = sx_for(k, tv, sx_i(k, 0), sx_op(k, NG_OP_MUL, outer, M), block(ob), NG_IR_PARALLEL);
    return k->status;
}

/* ROWS (cpu): all the passes of one length in one kernel. A thread takes a
 * row and a block of up to W columns and runs the passes one after the
 * other on them, so its elements stay in its cache (instead of a trip
 * through memory per pass). Params: X (outer, N, 2*inner) read (a column's
 * two parts side by side), A, B (the same) written, tw (N, 2); scalars W,
 * inner, [scale]. Pass f reads X (f = 0) or the buffer pass f-1 wrote, and
 * writes A or B so that the last pass writes A; X may be the buffer pass 0
 * does not write. The passes' m and s are constants (the radices are the
 * key).
 *
 * BLOCKS (cpu, inner > 1): the same, but the passes between the first and
 * the last go through two scratch arrays S0, S1 (items, N, 2*W) (S1 only
 * from 3 passes) in which a work item's block is contiguous, instead of B
 * and A, whose rows are inner complex values apart: a power-of-two row
 * length put a column block's rows in a few cache sets (512 x 512 along
 * axis 0: 2x the time of 512 x 520). Every pass's loop over the block's
 * columns is innermost, its points 2 apart (vectorised across columns, not
 * on one column's two parts) and `omp simd` (src is never dst: the C
 * compiler's aliasing checks, too many, stopped it). A is written by the
 * last pass only, X read by the first only, so A may be X. With
 * FF_INNER1, the block is rowblock(dt) rows (inner == 1; W, a constant) instead of W columns: the
 * scratch holds them side by side and the passes vectorise across rows.
 * Params: X, A, S0, [S1], tw; scalars W, inner, [scale].
 *
 * Fused (inner == 1, key->fuse): FU_SPLIT adds rtw (h+1, 2) and OUT
 * (outer, h+1, 2) after tw: the last pass writes A (ROWS) or scratch
 * (BLOCKS) and a last stage splits it into rfft's outputs in OUT (scale and
 * FF_CONJ there). FU_PACK adds rtw after tw, and X is irfft's input (outer,
 * len, 2), len > N: a first stage packs it (FF_CONJ there) into the buffer
 * pass 0 reads (ROWS: the one of A, B that pass 0 does not write; BLOCKS:
 * S1). Both read and write each row once instead of twice through memory. */

/* Where a fused stage finds row I of its block in array p: in scratch (BLOCKS), a global
 * row of a BLOCKS kernel's block, or a ROWS kernel's row o (I is 0). */
typedef struct RowCtx {
    bool blocks;
    NgIrRef T, o, i0, wn; /* the work item; ROWS: its row; BLOCKS: first row, rows */
} RowCtx;


static Acc rows_acc(NgIrKernel *k, const RowCtx *c, int p, bool scratch, NgIrRef I)
{
    if (scratch)
        return (Acc){p, c->T, sx_op(k, NG_OP_MUL, I, sx_i(k, 2))};
    if (c->blocks)
        return (Acc){p, sx_op(k, NG_OP_ADD, c->i0, I), sx_i(k, 0)};
    return (Acc){p, c->o, sx_i(k, 0)};
}

/* ib under a loop over the block's rows (`omp simd`: sources are never destinations), or
 * ib's statements (ROWS: one row) */
static void rows_loop(Body *jb, const RowCtx *c, int iv, Body *ib)
{
    if (iv < 0)
        for (int s = 0; s < ib->n; s++)
            add(jb, ib->st[s]);
    else
        add(jb, sx_for(jb->k, iv, sx_i(jb->k, 0), c->wn, block(ib), NG_IR_SIMD));
}

/* The real FFT's output point k from the half-length transform's a = z[k] and c = conj(z[h - k]):
 * (a + c)/2 + w^k (-i (a - c)/2), w^k = wc + i ws, then scaled and (FF_CONJ) conjugated
 * (stage_split and build_rsplit). */
static Cx split_point(Body *b, const FftKey *key, Cx a, Cx c, NgIrRef wc, NgIrRef ws, NgIrRef scale)
{
    NgIrRef half = fconst(b, 0.5);
    Cx e = cscale(b, cadd(b, a, c), half);
    Cx d = let_c(b, cscale(b, cmul_mi(b, csub(b, a, c), false), half));
    Cx v = cadd(b, e, cmul(b, d, wc, ws, true));
    if (scale != NG_IR_NONE)
        v = cscale(b, let_c(b, v), scale);
    if (key->flags & FF_CONJ)
        v.im = fneg(b, v.im);
    return v;
}

/* The inverse's packed point k from a = X[k] and c = X[h - k] as loaded (FF_CONJ: conjugated
 * first; `first`: k is 0, where X[0]'s and X[h]'s imaginary parts are dropped): with
 * b = conj(X[h - k]), (a + b) + i w^-k (a - b) (stage_pack and build_cpack). */
static Cx pack_point(Body *b, const FftKey *key, Cx a, Cx c, NgIrRef first, NgIrRef wc, NgIrRef ws)
{
    NgIrKernel *k = b->k;
    NgIrRef zero = fconst(b, 0.0);
    bool conj = key->flags & FF_CONJ;
    a.im = ng_ir_select(k, first, zero, conj ? fneg(b, a.im) : a.im);   /* X[0] is real */
    c.im = ng_ir_select(k, first, zero, conj ? c.im : fneg(b, c.im));   /* conj(X[h - k]); X[h] is real */
    a = let_c(b, a);
    c = let_c(b, c);
    Cx e = cadd(b, a, c);
    Cx d = let_c(b, cmul(b, csub(b, a, c), wc, ws, false));
    return cadd(b, e, cmul_mi(b, d, true));
}

/* FU_SPLIT's stage: OUT[j] for j <= h from Z (array zp, scratch or not) as build_rsplit
 * computes it. */
static void stage_split(Body *top, const FftKey *key, const RowCtx *c, int64_t h, int rtw, int zp, bool zscr,
                        int out, NgIrRef scale)
{
    NgIrKernel *k = top->k;
    NgDType dt = top->dt;
    Body jb, ib;
    jb.k = ib.k = k;
    jb.dt = ib.dt = dt;
    jb.n = ib.n = 0;
    int jv = ng_ir_var(k, NG_INT64), iv = c->blocks ? ng_ir_var(k, NG_INT64) : -1;
    NgIrRef j = ng_ir_varref(k, jv), I = iv < 0 ? sx_i(k, 0) : ng_ir_varref(k, iv), H = sx_i(k, h);
    NgIrRef ka = let_i(&jb, ng_ir_select(k, sx_cmp(k, NG_OP_EQ, j, H), sx_i(k, 0), j));
    NgIrRef kb = let_i(&jb, ng_ir_select(k, sx_cmp(k, NG_OP_EQ, ka, sx_i(k, 0)), sx_i(k, 0), sx_op(k, NG_OP_SUB, H, ka)));
    NgIrRef wc = let_dt(&jb, dt, sx_load2(k, rtw, j, sx_i(k, 0)));
    NgIrRef ws = let_dt(&jb, dt, sx_load2(k, rtw, j, sx_i(k, 1)));
    Acc z = rows_acc(k, c, zp, zscr, I), o = rows_acc(k, c, out, false, I);
    Body *b = &ib;
    Cx a = let_c(b, (Cx){ld_acc(k, z, ka, 0), ld_acc(k, z, ka, 1)});
    Cx cc = let_c(b, (Cx){ld_acc(k, z, kb, 0), fneg(b, ld_acc(k, z, kb, 1))});
    Cx v = split_point(b, key, a, cc, wc, ws, scale);
    add(b, st_acc(k, o, j, 0, v.re));
    add(b, st_acc(k, o, j, 1, v.im));
    rows_loop(&jb, c, iv, &ib);
    add(top, sx_for(k, jv, sx_i(k, 0), sx_i(k, h + 1), block(&jb), 0));
}

/* FU_PACK's stage: point j < h of array dp (scratch or not) from the input's points j and
 * h - j in src, as build_cpack computes it. */
static void stage_pack(Body *top, const FftKey *key, const RowCtx *c, int64_t h, int rtw, int src, int dp, bool dscr)
{
    NgIrKernel *k = top->k;
    NgDType dt = top->dt;
    Body jb, ib;
    jb.k = ib.k = k;
    jb.dt = ib.dt = dt;
    jb.n = ib.n = 0;
    int jv = ng_ir_var(k, NG_INT64), iv = c->blocks ? ng_ir_var(k, NG_INT64) : -1;
    NgIrRef j = ng_ir_varref(k, jv), I = iv < 0 ? sx_i(k, 0) : ng_ir_varref(k, iv);
    NgIrRef kb = let_i(&jb, sx_op(k, NG_OP_SUB, sx_i(k, h), j));
    NgIrRef wc = let_dt(&jb, dt, sx_load2(k, rtw, j, sx_i(k, 0)));
    NgIrRef ws = let_dt(&jb, dt, sx_load2(k, rtw, j, sx_i(k, 1)));
    NgIrRef first = let_dt(&jb, NG_BOOL, sx_cmp(k, NG_OP_EQ, j, sx_i(k, 0)));
    Acc s = rows_acc(k, c, src, false, I), o = rows_acc(k, c, dp, dscr, I);
    Body *b = &ib;
    Cx a = let_c(b, (Cx){ld_acc(k, s, j, 0), ld_acc(k, s, j, 1)});
    Cx cc = let_c(b, (Cx){ld_acc(k, s, kb, 0), ld_acc(k, s, kb, 1)});
    Cx v = pack_point(b, key, a, cc, first, wc, ws);
    add(b, st_acc(k, o, j, 0, v.re));
    add(b, st_acc(k, o, j, 1, v.im));
    rows_loop(&jb, c, iv, &ib);
    add(top, sx_for(k, jv, sx_i(k, 0), sx_i(k, h), block(&jb), 0));
}

static NgStatus build_rows(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt;
    bool inv = key->flags & FF_INV, one = key->flags & FF_INNER1, blocks = key->kind == FK_BLOCKS;
    bool split = key->fuse == FU_SPLIT, pack = key->fuse == FU_PACK;
    int X = ng_ir_param_array(k, dt, 3, true, false);
    int A = ng_ir_param_array(k, dt, 3, true, true);
    int B = -1, S0 = -1, S1 = -1, rtw = -1, OUT = -1;
    if (!blocks)
        B = ng_ir_param_array(k, dt, 3, true, true);
    else {
        int nscr = rows_scratch(key->nfac, key->fuse);
        S0 = nscr >= 1 ? ng_ir_param_array(k, dt, 3, true, true) : -1;
        S1 = nscr >= 2 ? ng_ir_param_array(k, dt, 3, true, true) : -1;
    }
    int tw = ng_ir_param_array(k, dt, 2, true, false);
    if (split || pack)
        rtw = ng_ir_param_array(k, dt, 2, true, false);
    if (split)
        OUT = ng_ir_param_array(k, dt, 3, true, true);
    NgIrRef W = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef inner = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef scale = key->flags & FF_SCALE ? ng_ir_scalar(k, ng_ir_param_scalar(k, dt)) : NG_IR_NONE;
    NgIrRef outer = ng_ir_shape(k, A, 0);
    int64_t n = 1;
    for (int f = 0; f < key->nfac; f++)
        n *= key->fac[f];

    Body top;
    top.k = k;
    top.dt = dt;
    top.n = 0;
    int tv = ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, tv), items, o = NG_IR_NONE, i0 = NG_IR_NONE, i1 = NG_IR_NONE, wn = NG_IR_NONE;
    NgIrRef two = sx_i(k, 2);
    if (blocks && one) {
        /* rowblock(dt) rows from T*rowblock(dt) on, a constant (whole vectors); a short last block
         * starts earlier, at outer - rowblock(dt) (run_rows: outer >= rowblock), and computes some
         * rows of the block before it again (the same bits, written again; A is never X) */
        NgIrRef Wc = sx_i(k, rowblock(dt));
        items = sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, outer, Wc), sx_i(k, 1)), Wc);
        i0 = let_i(&top, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_MUL, T, Wc), sx_op(k, NG_OP_SUB, outer, Wc)));
        wn = Wc;
    } else {
        NgIrRef nb = one ? sx_i(k, 1)
                         : sx_op(k, NG_OP_FLOORDIV, sx_op(k, NG_OP_SUB, sx_op(k, NG_OP_ADD, inner, W), sx_i(k, 1)), W);
        items = sx_op(k, NG_OP_MUL, outer, nb);
        o = let_i(&top, one ? T : sx_op(k, NG_OP_FLOORDIV, T, nb));
        if (!one) {
            i0 = let_i(&top, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, o, nb)), W));
            i1 = let_i(&top, sx_op(k, NG_OP_MINIMUM, sx_op(k, NG_OP_ADD, i0, W), inner));
            if (blocks)
                wn = let_i(&top, sx_op(k, NG_OP_SUB, i1, i0));
        }
    }
    RowCtx rc = {blocks, T, o, i0, wn};
    int src = X;
    if (pack) { /* the buffer pass 0 reads: S1, or the one of A, B that it does not write */
        src = blocks ? S1 : key->nfac % 2 == 0 ? A : B;
        stage_pack(&top, key, &rc, n, rtw, X, src, blocks);
    }
    int64_t s = 1;
    for (int f = 0; f < key->nfac; f++) {
        int p = key->fac[f];
        int64_t m = n / (s * p);
        bool last = f == key->nfac - 1;
        int dst = blocks ? (last && !split ? A : f % 2 == 0 ? S0 : S1) : (key->nfac - 1 - f) % 2 == 0 ? A : B;
        Body kb, qb;
        kb.k = qb.k = k;
        kb.dt = qb.dt = dt;
        kb.n = qb.n = 0;
        int kv = ng_ir_var(k, NG_INT64), qv = ng_ir_var(k, NG_INT64), iv = one && !blocks ? -1 : ng_ir_var(k, NG_INT64);
        NgIrRef K = ng_ir_varref(k, kv), Q = ng_ir_varref(k, qv), I = iv < 0 ? sx_i(k, 0) : ng_ir_varref(k, iv);
        NgIrRef wc[16], ws[16];
        NgIrRef ks = let_i(&kb, sx_op(k, NG_OP_MUL, K, sx_i(k, s)));
        for (int r = 1; r < p; r++) {
            NgIrRef idx = sx_op(k, NG_OP_MUL, ks, sx_i(k, r));
            wc[r] = let_dt(&kb, dt, sx_load2(k, tw, idx, sx_i(k, 0)));
            ws[r] = let_dt(&kb, dt, sx_load2(k, tw, idx, sx_i(k, 1)));
        }
        NgIrRef inb = let_i(&kb, sx_op(k, NG_OP_MUL, K, sx_i(k, s)));
        NgIrRef outb = let_i(&kb, sx_op(k, NG_OP_MUL, K, sx_i(k, s * p)));
        Acc as, ad;
        if (!blocks) { /* I: the column */
            as = (Acc){src, o, sx_op(k, NG_OP_MUL, I, two)};
            ad = (Acc){dst, o, as.c2};
        } else { /* I: the block's column or row */
            Acc scr = {0, T, sx_op(k, NG_OP_MUL, I, two)};
            Acc glob = one ? (Acc){0, sx_op(k, NG_OP_ADD, i0, I), sx_i(k, 0)}
                           : (Acc){0, o, sx_op(k, NG_OP_MUL, sx_op(k, NG_OP_ADD, i0, I), two)};
            as = f == 0 && !pack ? glob : scr;
            ad = last && !split ? glob : scr;
            as.p = src;
            ad.p = dst;
        }
        step(&qb, p, inv, as, ad, sx_op(k, NG_OP_ADD, inb, Q), sx_i(k, s * m), sx_op(k, NG_OP_ADD, outb, Q),
             sx_i(k, s), wc, ws, last && !split ? scale : NG_IR_NONE);
        /* the columns (rows): independent (src is never dst), `omp simd` spares the C compiler
         * its aliasing checks (too many to vectorise otherwise) */
        NgIrRef inner_loop = iv < 0 ? block(&qb)
                             : sx_for(k, iv, blocks ? sx_i(k, 0) : i0, blocks ? wn : i1, block(&qb), NG_IR_SIMD);
        add(&kb, sx_for(k, qv, sx_i(k, 0), sx_i(k, s), inner_loop, 0));
        add(&top, sx_for(k, kv, sx_i(k, 0), sx_i(k, m), block(&kb), 0));
        src = dst;
        s *= p;
    }
    if (split)
        stage_split(&top, key, &rc, n, rtw, src, blocks, OUT, scale);
    k->body = sx_for(k, tv, sx_i(k, 0), items, block(&top), NG_IR_PARALLEL);
    return k->status;
}

/* The skeleton of the elementwise-like kernels: a parallel loop over (row
 * o, point j < nj) and, inside, over the columns i; with FF_BYROW (cpu,
 * many rows) a parallel loop over the rows and the points in order inside
 * each, where the C compiler vectorises them and no point's row is divided
 * out of its number (rfft's split took longer than its transform). */
typedef struct Loop {
    Body ob, ib;   /* statements per (o, j), per column */
    int tv, jv, iv;/* the loop variables (jv: FF_BYROW's points; iv: none with FF_INNER1) */
    bool byrow, inner1, row1;
    NgIrRef o, j, i;
} Loop;

static void loop_begin(Loop *L, NgIrKernel *k, const FftKey *key, NgIrRef nj)
{
    L->ob.k = L->ib.k = k;
    L->ob.dt = L->ib.dt = (NgDType)key->dt;
    L->ob.n = L->ib.n = 0;
    L->byrow = key->flags & FF_BYROW;
    L->row1 = key->row1;
    L->inner1 = key->flags & FF_INNER1;
    L->tv = ng_ir_var(k, NG_INT64);
    L->jv = L->byrow ? ng_ir_var(k, NG_INT64) : -1;
    L->iv = L->inner1 ? -1 : ng_ir_var(k, NG_INT64);
    NgIrRef T = ng_ir_varref(k, L->tv);
    L->i = L->inner1 ? sx_i(k, 0) : ng_ir_varref(k, L->iv);
    if (L->byrow) {
        L->o = T;
        L->j = ng_ir_varref(k, L->jv);
        return;
    }
    if (L->row1) { /* (a division per point took as long as the split's arithmetic) */
        L->o = sx_i(k, 0);
        L->j = T;
        return;
    }
    L->o = let_i(&L->ob, sx_op(k, NG_OP_FLOORDIV, T, nj));
    L->j = let_i(&L->ob, sx_op(k, NG_OP_SUB, T, sx_op(k, NG_OP_MUL, L->o, nj)));
}

static NgStatus loop_end(Loop *L, NgIrKernel *k, NgIrRef outer, NgIrRef nj, NgIrRef inner)
{
    if (L->inner1) /* (the points' loop innermost: vectorised) */
        for (int s = 0; s < L->ib.n; s++)
            add(&L->ob, L->ib.st[s]);
    else
        add(&L->ob, sx_for(k, L->iv, sx_i(k, 0), inner, block(&L->ib), 0));
    if (L->byrow)
        k->body = sx_for(k, L->tv, sx_i(k, 0), outer, sx_for(k, L->jv, sx_i(k, 0), nj, block(&L->ob), 0),
                         NG_IR_PARALLEL);
    else
        k->body = sx_for(k, L->tv, sx_i(k, 0), sx_op(k, NG_OP_MUL, outer, nj), block(&L->ob), NG_IR_PARALLEL);
    return k->status;
}

/* point q of a (outer, len, inner[, 2]) input of dtype sdt as a complex value
 * of dt, 0 unless `valid` */
static Cx load_point(Body *b, int src, NgDType sdt, NgIrRef o, NgIrRef q, NgIrRef i, NgIrRef valid)
{
    NgIrKernel *k = b->k;
    bool cplx = ng_dtype_is_complex(sdt);
    NgIrRef zero = fconst(b, 0.0);
    NgIrRef re = ng_ir_select(k, valid, ng_ir_cast(k, b->dt, ld4(k, src, o, q, i, cplx ? 0 : -1)), zero);
    NgIrRef im = cplx ? ng_ir_select(k, valid, ng_ir_cast(k, b->dt, ld4(k, src, o, q, i, 1)), zero) : zero;
    return let_c(b, (Cx){re, im});
}

/* RPACK: params src (outer, len, inner) real, dst (outer, h, inner, 2);
 * scalar n. dst[o, j] = x[2j] + i x[2j+1] (points from len or n on are 0). */
static NgStatus build_rpack(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt, sdt = (NgDType)key->other;
    int src = ng_ir_param_array(k, sdt, 3, true, false);
    int dst = ng_ir_param_array(k, dt, 4, true, true);
    NgIrRef n = ng_ir_scalar(k, ng_ir_param_scalar(k, NG_INT64));
    NgIrRef lim = sx_op(k, NG_OP_MINIMUM, ng_ir_shape(k, src, 1), n), h = ng_ir_shape(k, dst, 1);
    Loop L;
    loop_begin(&L, k, key, h);
    NgIrRef e = let_i(&L.ob, sx_op(k, NG_OP_MUL, L.j, sx_i(k, 2))), od = sx_op(k, NG_OP_ADD, e, sx_i(k, 1));
    NgIrRef zero = fconst(&L.ib, 0.0);
    NgIrRef re = ng_ir_select(k, sx_cmp(k, NG_OP_LT, e, lim), ng_ir_cast(k, dt, ld4(k, src, L.o, e, L.i, -1)), zero);
    NgIrRef im = ng_ir_select(k, sx_cmp(k, NG_OP_LT, od, lim), ng_ir_cast(k, dt, ld4(k, src, L.o, od, L.i, -1)), zero);
    add(&L.ib, st4(k, dst, L.o, L.j, L.i, 0, re));
    add(&L.ib, st4(k, dst, L.o, L.j, L.i, 1, im));
    return loop_end(&L, k, ng_ir_shape(k, dst, 0), h, ng_ir_shape(k, dst, 2));
}

/* RSPLIT: params Z (outer, h, inner, 2), dst (outer, h+1, inner, 2), rtw
 * (h+1, 2); scalar [scale]. With a = Z[k mod h], b = conj(Z[(h-k) mod h]):
 * X[k] = (a + b)/2 + w^k (a - b)/(2i), w = exp(-2 pi i/n). */
static NgStatus build_rsplit(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt;
    int zs = ng_ir_param_array(k, dt, 4, true, false);
    int dst = ng_ir_param_array(k, dt, 4, true, true);
    int rtw = ng_ir_param_array(k, dt, 2, true, false);
    NgIrRef scale = key->flags & FF_SCALE ? ng_ir_scalar(k, ng_ir_param_scalar(k, dt)) : NG_IR_NONE;
    NgIrRef h = ng_ir_shape(k, zs, 1), nj = ng_ir_shape(k, dst, 1);
    Loop L;
    loop_begin(&L, k, key, nj);
    NgIrRef ka = let_i(&L.ob, ng_ir_select(k, sx_cmp(k, NG_OP_EQ, L.j, h), sx_i(k, 0), L.j));
    NgIrRef kb = let_i(&L.ob, ng_ir_select(k, sx_cmp(k, NG_OP_EQ, ka, sx_i(k, 0)), sx_i(k, 0), sx_op(k, NG_OP_SUB, h, ka)));
    NgIrRef wc = let_dt(&L.ob, dt, sx_load2(k, rtw, L.j, sx_i(k, 0)));
    NgIrRef ws = let_dt(&L.ob, dt, sx_load2(k, rtw, L.j, sx_i(k, 1)));
    Body *b = &L.ib;
    Cx a = let_c(b, (Cx){ld4(k, zs, L.o, ka, L.i, 0), ld4(k, zs, L.o, ka, L.i, 1)});
    Cx c = let_c(b, (Cx){ld4(k, zs, L.o, kb, L.i, 0), fneg(b, ld4(k, zs, L.o, kb, L.i, 1))});
    Cx v = split_point(b, key, a, c, wc, ws, scale);
    add(b, st4(k, dst, L.o, L.j, L.i, 0, v.re));
    add(b, st4(k, dst, L.o, L.j, L.i, 1, v.im));
    return loop_end(&L, k, ng_ir_shape(k, dst, 0), nj, ng_ir_shape(k, dst, 2));
}

/* CPACK: params src (outer, len, inner[, 2]) any dtype, dst (outer, h,
 * inner, 2), rtw (h+1, 2). With a = X[k], b = conj(X[h-k]) (the imaginary
 * parts of X[0] and X[h] dropped, points from len on 0, conjugated first
 * with FF_CONJ): dst[k] = (a + b) + i w^-k (a - b), whose h-point inverse
 * DFT is y[2j] + i y[2j+1], y the n-point inverse DFT of the Hermitian X. */
static NgStatus build_cpack(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt, sdt = (NgDType)key->other;
    bool cplx = ng_dtype_is_complex(sdt);
    int src = ng_ir_param_array(k, cplx ? ng_dtype_real(sdt) : sdt, cplx ? 4 : 3, true, false);
    int dst = ng_ir_param_array(k, dt, 4, true, true);
    int rtw = ng_ir_param_array(k, dt, 2, true, false);
    NgIrRef len = ng_ir_shape(k, src, 1), h = ng_ir_shape(k, dst, 1);
    Loop L;
    loop_begin(&L, k, key, h);
    NgIrRef kb = let_i(&L.ob, sx_op(k, NG_OP_SUB, h, L.j));
    NgIrRef wc = let_dt(&L.ob, dt, sx_load2(k, rtw, L.j, sx_i(k, 0)));
    NgIrRef ws = let_dt(&L.ob, dt, sx_load2(k, rtw, L.j, sx_i(k, 1)));
    NgIrRef first = let_dt(&L.ob, NG_BOOL, sx_cmp(k, NG_OP_EQ, L.j, sx_i(k, 0)));
    Body *b = &L.ib;
    Cx a = load_point(b, src, sdt, L.o, L.j, L.i, sx_cmp(k, NG_OP_LT, L.j, len));
    Cx c = load_point(b, src, sdt, L.o, kb, L.i, sx_cmp(k, NG_OP_LT, kb, len));
    Cx v = pack_point(b, key, a, c, first, wc, ws);
    add(b, st4(k, dst, L.o, L.j, L.i, 0, v.re));
    add(b, st4(k, dst, L.o, L.j, L.i, 1, v.im));
    return loop_end(&L, k, ng_ir_shape(k, dst, 0), h, ng_ir_shape(k, dst, 2));
}

/* CUNPACK: params z (outer, h, inner, 2), dst (outer, 2h, inner) real of
 * the output dtype; scalar [scale]. dst[2j] = re z[j], dst[2j+1] = im z[j]. */
static NgStatus build_cunpack(NgIrKernel *k, const FftKey *key)
{
    NgDType dt = (NgDType)key->dt, odt = (NgDType)key->other;
    int zs = ng_ir_param_array(k, dt, 4, true, false);
    int dst = ng_ir_param_array(k, odt, 3, true, true);
    NgIrRef scale = key->flags & FF_SCALE ? ng_ir_scalar(k, ng_ir_param_scalar(k, dt)) : NG_IR_NONE;
    NgIrRef h = ng_ir_shape(k, zs, 1);
    Loop L;
    loop_begin(&L, k, key, h);
    NgIrRef e = let_i(&L.ob, sx_op(k, NG_OP_MUL, L.j, sx_i(k, 2)));
    Body *b = &L.ib;
    Cx v = {ld4(k, zs, L.o, L.j, L.i, 0), ld4(k, zs, L.o, L.j, L.i, 1)};
    if (scale != NG_IR_NONE)
        v = cscale(b, v, scale);
    add(b, st4(k, dst, L.o, e, L.i, -1, ng_ir_cast(k, odt, v.re)));
    add(b, st4(k, dst, L.o, sx_op(k, NG_OP_ADD, e, sx_i(k, 1)), L.i, -1, ng_ir_cast(k, odt, v.im)));
    return loop_end(&L, k, ng_ir_shape(k, zs, 0), h, ng_ir_shape(k, zs, 2));
}

static NgStatus build_fft(const void *ctx, NgIrKernel *k)
{
    const FftKey *key = ctx;
    switch (key->kind) {
    case FK_PASS_K: case FK_PASS_O: case FK_PASS_T: return build_pass(k, key);
    case FK_PRE: return build_pre(k, key);
    case FK_POST: return build_post(k, key);
    case FK_ROWS: case FK_BLOCKS: return build_rows(k, key);
    case FK_RPACK: return build_rpack(k, key);
    case FK_RSPLIT: return build_rsplit(k, key);
    case FK_CPACK: return build_cpack(k, key);
    case FK_CUNPACK: return build_cunpack(k, key);
    default: return build_mul(k, key);
    }
}

static NgStatus get_kernel(NgDevice *dev, FftKey key, const NgKernel **kern)
{
    key.tag = 'T';
    return ng_kernel_get(dev, &key, sizeof key, build_fft, &key, kern);
}

static FftKey make_key(int kind, NgDType dt, NgDType other, int radix, unsigned flags)
{
    FftKey key;
    memset(&key, 0, sizeof key);
    key.kind = (uint8_t)kind;
    key.dt = (int8_t)dt;
    key.other = (int8_t)other;
    key.nfac = 1;
    key.fac[0] = (uint8_t)radix;
    key.flags = (uint8_t)flags;
    return key;
}

/* Appends the arguments of the C-contiguous array `a` viewed with shape
 * (ndim axes) in real elements: a complex array's parts are its last axis
 * of 2. */
static void kargs_view(NgKArg *args, int *na, const NgArray *a, int ndim, const int64_t *shape)
{
    int64_t strides[4], st = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = st;
        st *= shape[d];
    }
    NgArray v = *a;
    v.dtype = ng_dtype_real(a->dtype);
    ng_kargs_array(args, na, &v, ndim, shape, strides);
}

static void karg_real(NgKArg *args, int *na, double v) { args[(*na)++].f = v; }
static void karg_int(NgKArg *args, int *na, int64_t v) { args[(*na)++].i = v; }

/* ---- plans ------------------------------------------------------------ */

typedef struct Plan {
    NgDevice *dev;
    int64_t n;            /* transform length */
    NgDType dt;           /* precision: NG_FLOAT32 or NG_FLOAT64 */
    int nfac;             /* number of passes (direct plans) */
    int fac[MAXFAC];      /* their radices, first pass first */
    bool real;            /* the twiddles of a real transform of even n (tw only) */
    int64_t m;            /* Bluestein's convolution length (0: a direct plan) */
    NgArray tw;           /* direct: (n, 2) cos, sin of 2 pi j/n; real: (n/2 + 1, 2) */
    NgArray chirp;        /* Bluestein: (n, 2) cos, sin of pi j^2/n */
    NgArray bfft;         /* Bluestein: (m,) complex, the m-point DFT of the chirp (conjugate of exp(-pi i j^2/n)) */
} Plan;

static void plan_release(Plan *p)
{
    ng_array_release(&p->tw);
    ng_array_release(&p->chirp);
    ng_array_release(&p->bfft);
}

static void view_or_none(const NgArray *a, NgArray *out)
{
    if (a->buf)
        ng_array_view(a, out);
    else
        memset(out, 0, sizeof *out);
}

/* dst = a copy of src that holds its own references */
static void plan_copy(const Plan *src, Plan *dst)
{
    *dst = *src;
    view_or_none(&src->tw, &dst->tw);
    view_or_none(&src->chirp, &dst->chirp);
    view_or_none(&src->bfft, &dst->bfft);
}

/* The radices of n: 4s, one 2, then odd primes up to MAXRADIX; -1 when n
 * has a larger prime factor. */
static int factorize(int64_t n, int *fac)
{
    static const int odd[] = {3, 5, 7, 11, 13};
    int nf = 0;
    while (n % 4 == 0) {
        fac[nf++] = 4;
        n /= 4;
    }
    if (n % 2 == 0) {
        fac[nf++] = 2;
        n /= 2;
    }
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
        while (n % odd[i] == 0) {
            fac[nf++] = odd[i];
            n /= odd[i];
        }
    return n == 1 ? nf : -1;
}

/* A new device array of dtype dt (real, or complex: pairs of doubles) and
 * the given shape holding the doubles v, rounded once to float32 for the
 * single-precision dtypes (in place: v is clobbered). */
static NgStatus upload_doubles(NgDevice *dev, NgDType dt, int ndim, const int64_t *shape, double *v, NgArray *out)
{
    NgStatus st = ng_array_empty(dev, dt, ndim, shape, out);
    if (st != NG_OK)
        return st;
    if (ng_dtype_real(dt) == NG_FLOAT32) { /* float32 values fit in the doubles' memory */
        float *f = (float *)v;
        int64_t count = out->size * (ng_dtype_is_complex(dt) ? 2 : 1);
        for (int64_t i = 0; i < count; i++)
            f[i] = (float)v[i];
    }
    st = ng_array_upload(out, v, NULL);
    if (st != NG_OK)
        ng_array_release(out);
    return st;
}

/* A (rows, 2) table of (cos, sin) pairs. */
static NgStatus upload_table(NgDevice *dev, NgDType dt, int64_t rows, double *v, NgArray *out)
{
    int64_t shape[2] = {rows, 2};
    return upload_doubles(dev, dt, 2, shape, v, out);
}

static NgStatus plan_get(NgDevice *dev, int64_t n, NgDType dt, bool real, Plan *out);
static NgStatus run_passes(const Plan *pl, const NgArray *cur, NgArray *a, NgArray *b, int64_t outer, int64_t inner,
                           bool inv, const double *scale, const NgArray **res);

static NgStatus plan_build(NgDevice *dev, int64_t n, NgDType dt, bool real, Plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->dev = dev;
    pl->n = n;
    pl->dt = dt;
    pl->real = real;
    NgStatus st = NG_OK;
    double *host = NULL;
    if (real) { /* w^k = exp(-2 pi i k/n), k = 0 .. n/2: the split of a half-length transform */
        int64_t rows = n / 2 + 1;
        if (!(host = ng_malloc((size_t)rows * 2 * sizeof(double))))
            return ng_error_set(NG_ERR_NOMEM, "out of host memory for an fft plan of %lld points", (long long)n);
        for (int64_t j = 0; j < rows; j++)
            unit_root(j, n, &host[2 * j], &host[2 * j + 1]);
        st = upload_table(dev, dt, rows, host, &pl->tw);
        ng_free(host);
        return st;
    }
    int nf = factorize(n, pl->fac);
    if (nf >= 0) {
        pl->nfac = nf;
        if (!(host = ng_malloc((size_t)n * 2 * sizeof(double))))
            return ng_error_set(NG_ERR_NOMEM, "out of host memory for an fft plan of %lld points", (long long)n);
        for (int64_t j = 0; j < n; j++)
            unit_root(j, n, &host[2 * j], &host[2 * j + 1]);
        st = upload_table(dev, dt, n, host, &pl->tw);
        ng_free(host);
        return st;
    }
    int64_t m = 1;
    while (m < 2 * n - 1)
        m *= 2;
    pl->m = m;
    if (!(host = ng_malloc((size_t)m * 2 * sizeof(double))))
        return ng_error_set(NG_ERR_NOMEM, "out of host memory for an fft plan of %lld points", (long long)n);
    for (int64_t j = 0; j < n; j++) { /* pi j^2 / n = 2 pi (j^2 mod 2n) / 2n */
        int64_t q = (int64_t)(((unsigned __int128)j * (unsigned __int128)j) % (unsigned __int128)(2 * n));
        unit_root(q, 2 * n, &host[2 * j], &host[2 * j + 1]);
    }
    /* b[j] = b[m - j] = exp(+pi i j^2/n) for j < n, 0 between */
    for (int64_t j = n; j < m; j++)
        host[2 * j] = host[2 * j + 1] = 0;
    for (int64_t j = 1; j < n; j++) {
        host[2 * (m - j)] = host[2 * j];
        host[2 * (m - j) + 1] = host[2 * j + 1];
    }
    double *chirp = ng_malloc((size_t)n * 2 * sizeof(double));
    if (!chirp) {
        ng_free(host);
        return ng_error_set(NG_ERR_NOMEM, "out of host memory for an fft plan of %lld points", (long long)n);
    }
    memcpy(chirp, host, (size_t)n * 2 * sizeof(double));
    st = upload_table(dev, dt, n, chirp, &pl->chirp);
    ng_free(chirp);
    NgArray bvec = {0}, s1 = {0}, s2 = {0};
    Plan sub;
    memset(&sub, 0, sizeof sub);
    NgDType cdt = dt == NG_FLOAT32 ? NG_COMPLEX64 : NG_COMPLEX128;
    if (st == NG_OK)
        st = upload_doubles(dev, cdt, 1, &m, host, &bvec);
    if (st == NG_OK)
        st = plan_get(dev, m, dt, false, &sub);
    if (st == NG_OK)
        st = ng_array_empty(dev, cdt, 1, &m, &s1);
    if (st == NG_OK)
        st = ng_array_empty(dev, cdt, 1, &m, &s2);
    const NgArray *res = NULL;
    if (st == NG_OK)
        st = run_passes(&sub, &bvec, &s1, &s2, 1, 1, false, NULL, &res);
    if (st == NG_OK)
        ng_array_view(res, &pl->bfft);
    ng_free(host);
    plan_release(&sub);
    ng_array_release(&bvec);
    ng_array_release(&s1);
    ng_array_release(&s2);
    if (st != NG_OK)
        plan_release(pl);
    return st;
}

static struct {
    Plan plan;
    uint64_t used;   /* last use, on plan_clock */
    bool live;
} plans[PLAN_CACHE];
static uint64_t plan_clock;
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

/* The plan of length n in precision dt on dev, built on first use; *out
 * holds its own references (plan_release it). */
static NgStatus plan_get(NgDevice *dev, int64_t n, NgDType dt, bool real, Plan *out)
{
    pthread_mutex_lock(&plan_lock);
    for (int i = 0; i < PLAN_CACHE; i++)
        if (plans[i].live && plans[i].plan.dev == dev && plans[i].plan.n == n && plans[i].plan.dt == dt &&
            plans[i].plan.real == real) {
            plans[i].used = ++plan_clock;
            plan_copy(&plans[i].plan, out);
            pthread_mutex_unlock(&plan_lock);
            return NG_OK;
        }
    pthread_mutex_unlock(&plan_lock);
    Plan fresh;
    NgStatus st = plan_build(dev, n, dt, real, &fresh); /* outside the lock: it may need the plan of its convolution */
    if (st != NG_OK)
        return st;
    size_t bytes = 0;
    const NgArray *parts[3] = {&fresh.tw, &fresh.chirp, &fresh.bfft};
    for (int i = 0; i < 3; i++)
        bytes += parts[i]->buf ? (size_t)parts[i]->size * (size_t)ng_array_itemsize(parts[i]) : 0;
    if (bytes > PLAN_CACHE_MAX_BYTES) {
        *out = fresh;
        return NG_OK;
    }
    pthread_mutex_lock(&plan_lock);
    int slot = 0;
    for (int i = 0; i < PLAN_CACHE; i++) {
        if (plans[i].live && plans[i].plan.dev == dev && plans[i].plan.n == n && plans[i].plan.dt == dt &&
            plans[i].plan.real == real) {
            slot = -1; /* another thread built it meanwhile */
            break;
        }
        if (!plans[i].live || (plans[slot].live && plans[i].used < plans[slot].used))
            slot = i;
    }
    if (slot >= 0) {
        if (plans[slot].live)
            plan_release(&plans[slot].plan);
        plan_copy(&fresh, &plans[slot].plan);
        plans[slot].live = true;
        plans[slot].used = ++plan_clock;
    }
    pthread_mutex_unlock(&plan_lock);
    *out = fresh;
    return NG_OK;
}

/* ---- running ---------------------------------------------------------- */

/* A real transform's split or pack done by a ROWS or BLOCKS kernel (build_rows, FU_*). */
typedef struct Fuse {
    int kind;          /* FU_SPLIT or FU_PACK */
    const NgArray *tw; /* the real plan's twiddles (h+1, 2) */
    const NgArray *out;/* FU_SPLIT: the (outer, h+1) complex output */
    int64_t len;       /* FU_PACK: points in a row of the input cur (> h) */
    bool conj;         /* FF_CONJ: conjugate the output (split) or the input (pack) */
} Fuse;

/* The passes of pl as one ROWS or BLOCKS kernel (cpu; see build_rows); with fz (inner == 1)
 * the split after them or the pack before them. FU_PACK: the last pass writes a. */
static NgStatus run_rows(const Plan *pl, const NgArray *cur, NgArray *a, NgArray *b, int64_t outer, int64_t inner,
                         bool inv, const double *scale, const Fuse *fz, const NgArray **res)
{
    NgArray *d0 = cur == a ? b : a, *d1 = d0 == a ? b : a;
    NgArray *pa = pl->nfac % 2 ? d0 : d1, *pb = pl->nfac % 2 ? d1 : d0;
    int fuse = fz ? fz->kind : FU_NONE;
    int64_t n = pl->n, W = 1;
    /* BLOCKS of rows (inner == 1): W rows side by side, a point's W values one 64-byte line (4
     * complex128, 8 complex64: W = 8 for complex128 was slower, its rows' 8 lines a power of two
     * apart); from 128 points (64: slower than ROWS) up to ROWBLOCK_MAX (the two scratch blocks
     * in L2), unless the first pass's inputs are a multiple of 4 KiB apart in a row (1024 x 1024
     * complex128: 12 ms against ROWS' 9; 512 x 512 1.3 against 1.6, 128 x 3000 2.5 against 3.9)
     * and no split or pack comes with them (with them: 400 x 2048 rfft 3.5 ms against ROWS' 4.7,
     * 100 x 8192 3.4 against 5.5, irfft 4-6% faster) */
    int64_t wr = rowblock(pl->dt), isz = pl->dt == NG_FLOAT32 ? 8 : 16;
    bool rowblocks = inner == 1 && pl->nfac >= 2 && outer >= wr && n >= 128 && n <= ROWBLOCK_MAX &&
                     (n / pl->fac[0] * isz % 4096 != 0 || fz);
    bool blocks = inner > 1 || rowblocks;
    if (fuse == FU_PACK) { /* the last pass writes a (the output), the pack b or a */
        pa = a;
        pb = b;
    }
    if (blocks && fuse != FU_PACK) /* the last pass alone writes A: any work buffer but the input (itself from 2 passes) */
        pa = d0->buf || pl->nfac < 2 ? d0 : d1;
    if (!pb->buf) /* one pass: B is never written */
        pb = pa;
    if (inner > 1) { /* columns per work item: 512 bytes of each row (W = 8 from n = 1024 on: 1.8x the
                      * time of 32, 16384 x 32 along axis 0 10x), and at least 8 work items */
        W = pl->dt == NG_FLOAT32 ? 64 : 32;
        W = W < inner ? W : inner;
        while (W > 1 && outer * ((inner + W - 1) / W) < 8)
            W /= 2;
    } else if (rowblocks) {
        W = wr;
    }
    int64_t items = rowblocks ? (outer + W - 1) / W : outer * ((inner + W - 1) / W);
    unsigned flags = (inv ? FF_INV : 0) | (scale ? FF_SCALE : 0) | (inner == 1 ? FF_INNER1 : 0) |
                     (fz && fz->conj ? FF_CONJ : 0);
    FftKey key = make_key(blocks ? FK_BLOCKS : FK_ROWS, pl->dt, NG_NODTYPE, 0, flags);
    key.nfac = (uint8_t)pl->nfac;
    key.fuse = (uint8_t)fuse;
    for (int f = 0; f < pl->nfac; f++)
        key.fac[f] = (uint8_t)pl->fac[f];
    const NgKernel *kern;
    NgStatus st = get_kernel(pl->dev, key, &kern);
    if (st != NG_OK)
        return st;
    NgArray scr[2] = {{0}, {0}};
    int nscr = blocks ? rows_scratch(pl->nfac, fuse) : 0;
    int64_t shs[3] = {items, n, 2 * W};
    for (int i = 0; i < nscr; i++)
        if ((st = ng_array_empty(pl->dev, pl->dt, 3, shs, &scr[i])) != NG_OK)
            goto done;
    NgKArg args[7 * 8 + 4];
    int na = 0;
    int64_t sh[3] = {outer, n, 2 * inner}, sht[2] = {n, 2}, shx[3] = {outer, fz ? fz->len : n, 2};
    int64_t shr[2] = {n + 1, 2}, sho[3] = {outer, n + 1, 2};
    kargs_view(args, &na, cur, 3, fuse == FU_PACK ? shx : sh);
    kargs_view(args, &na, pa, 3, sh);
    if (!blocks)
        kargs_view(args, &na, pb, 3, sh);
    for (int i = 0; i < nscr; i++)
        kargs_view(args, &na, &scr[i], 3, shs);
    kargs_view(args, &na, &pl->tw, 2, sht);
    if (fz)
        kargs_view(args, &na, fz->tw, 2, shr);
    if (fuse == FU_SPLIT)
        kargs_view(args, &na, fz->out, 3, sho);
    karg_int(args, &na, W);
    karg_int(args, &na, inner);
    if (scale)
        karg_real(args, &na, *scale);
    if ((st = ng_kernel_launch(kern, args, na, items, outer * n * inner)) == NG_OK)
        *res = fuse == FU_SPLIT ? fz->out : pa;
done:
    ng_array_release(&scr[0]);
    ng_array_release(&scr[1]);
    return st;
}

/* Whether run_passes runs pl over (outer, n, inner) as one ROWS or BLOCKS kernel (min_work:
 * the fewest points in all). */
static bool rows_kernel(const Plan *pl, int64_t outer, int64_t inner, int64_t min_work, int64_t max_n)
{
    /* ROWS/BLOCKS kernels are built per length (about half a second of compiling, once per
     * machine): for transforms big enough to repay it (from 16384 points: 256 x 256 rfft2 0.48 ->
     * 0.37 ms, 128 x 128 fft2 0.20 -> 0.11); small ones share the per-radix pass kernels */
    return pl->dev->be->target->par == NG_PAR_OPENMP && pl->nfac >= 1 && pl->nfac <= MAXROWFAC &&
           pl->n <= max_n && outer * pl->n * inner >= min_work;
}

/* Runs the passes of the direct plan pl over cur ((outer, n, inner)
 * complex, C-contiguous; read only unless it is a or b), writing a and b
 * in turn; *res is the array holding the result (cur when there are no
 * passes). scale (may be NULL) is applied by the last pass. */
static NgStatus run_passes(const Plan *pl, const NgArray *cur, NgArray *a, NgArray *b, int64_t outer, int64_t inner,
                           bool inv, const double *scale, const NgArray **res)
{
    NgDevice *dev = pl->dev;
    bool host = dev->be->target->par == NG_PAR_OPENMP;
    const NgArray *x = cur;
    int64_t n = pl->n, s = 1, L = n * inner;
    if (rows_kernel(pl, outer, inner, ROWS_MIN_WORK, ROWS_MAX))
        return run_rows(pl, cur, a, b, outer, inner, inv, scale, NULL, res);
    for (int f = 0; f < pl->nfac; f++) {
        int p = pl->fac[f];
        int64_t m = n / (s * p), S = s * inner;
        bool last = f == pl->nfac - 1;
        NgArray *y = x == a ? b : a;
        unsigned flags = (inv ? FF_INV : 0) | (last && scale ? FF_SCALE : 0);
        /* cpu: parallel over rows when there are many, else over k while there are enough k, else over
         * rows and chunks of q; GPUs: a thread per butterfly */
        int kind = !host ? FK_PASS_T : outer >= 16 ? FK_PASS_O : m >= 32 ? FK_PASS_K : FK_PASS_T;
        bool kloop = kind != FK_PASS_T;
        int64_t C = 1, nc = S;
        if (host && !kloop) {
            int64_t want = (64 + outer * m - 1) / (outer * m);
            nc = want < S ? want : S;
            C = (S + nc - 1) / nc;
            nc = (S + C - 1) / C;
        }
        const NgKernel *kern;
        NgStatus st = get_kernel(dev, make_key(kind, pl->dt, NG_NODTYPE, p, flags), &kern);
        if (st != NG_OK)
            return st;
        NgKArg args[3 * 8 + 8];
        int na = 0;
        int64_t sh3[3] = {outer, L, 2}, sht[2] = {n, 2};
        kargs_view(args, &na, x, 3, sh3);
        kargs_view(args, &na, y, 3, sh3);
        kargs_view(args, &na, &pl->tw, 2, sht);
        karg_int(args, &na, m);
        karg_int(args, &na, S);
        karg_int(args, &na, s);
        if (!kloop) {
            karg_int(args, &na, C);
            karg_int(args, &na, nc);
        }
        if (flags & FF_SCALE)
            karg_real(args, &na, *scale);
        int64_t extent = kind == FK_PASS_O ? outer : kind == FK_PASS_K ? m : outer * m * nc;
        if ((st = ng_kernel_launch(kern, args, na, extent, outer * L)) != NG_OK)
            return st;
        x = y;
        s *= p;
    }
    *res = x;
    return NG_OK;
}

/* PRE: src (outer, len, inner) of any dtype -> dst (outer, nout, inner) complex. */
static NgStatus run_pre(const Plan *pl, const NgArray *src, int64_t outer, int64_t len, int64_t inner,
                        const NgArray *dst, int64_t nout, unsigned flags, double scale)
{
    const NgKernel *kern;
    NgStatus st = get_kernel(pl->dev, make_key(FK_PRE, pl->dt, src->dtype, 0, flags), &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[3 * 10 + 4];
    int na = 0;
    int64_t shs[4] = {outer, len, inner, 2}, shd[4] = {outer, nout, inner, 2}, shc[2] = {pl->n, 2};
    kargs_view(args, &na, src, ng_dtype_is_complex(src->dtype) ? 4 : 3, shs);
    kargs_view(args, &na, dst, 4, shd);
    if (flags & FF_CHIRP)
        kargs_view(args, &na, &pl->chirp, 2, shc);
    karg_int(args, &na, pl->n);
    if (flags & FF_SCALE)
        karg_real(args, &na, scale);
    return ng_kernel_launch(kern, args, na, outer * nout, outer * nout * inner);
}

/* POST: src (outer, nin, inner) complex -> dst (outer, nout, inner). */
static NgStatus run_post(const Plan *pl, const NgArray *src, int64_t outer, int64_t nin, int64_t inner,
                         const NgArray *dst, int64_t nout, unsigned flags, double scale)
{
    const NgKernel *kern;
    NgStatus st = get_kernel(pl->dev, make_key(FK_POST, pl->dt, dst->dtype, 0, flags), &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[3 * 10 + 4];
    int na = 0;
    int64_t shs[4] = {outer, nin, inner, 2}, shd[4] = {outer, nout, inner, 2}, shc[2] = {pl->n, 2};
    kargs_view(args, &na, src, 4, shs);
    kargs_view(args, &na, dst, flags & FF_REAL ? 3 : 4, shd);
    if (flags & FF_CHIRP)
        kargs_view(args, &na, &pl->chirp, 2, shc);
    if (flags & FF_SCALE)
        karg_real(args, &na, scale);
    return ng_kernel_launch(kern, args, na, outer * nout, outer * nout * inner);
}

static NgStatus run_mul(const Plan *pl, const NgArray *a, int64_t outer, int64_t inner, bool inv)
{
    const NgKernel *kern;
    NgStatus st = get_kernel(pl->dev, make_key(FK_MUL, pl->dt, NG_NODTYPE, 0, inv ? FF_INV : 0), &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[2 * 10 + 2];
    int na = 0;
    int64_t sha[4] = {outer, pl->m, inner, 2}, shb[2] = {pl->m, 2};
    kargs_view(args, &na, a, 4, sha);
    kargs_view(args, &na, &pl->bfft, 2, shb);
    return ng_kernel_launch(kern, args, na, outer * pl->m, outer * pl->m * inner);
}

/* Launches the kernel of `key` over `narr` arrays (each viewed with its
 * rank and shape in real elements), then the int scalars, then scale when
 * key has FF_SCALE; extent = the parallel loop's length. */
typedef struct View {
    const NgArray *a;
    int ndim;
    int64_t shape[4];
} View;

static NgStatus launch_views(NgDevice *dev, FftKey key, int narr, const View *v, int nint, const int64_t *ints,
                             double scale, int64_t extent, int64_t work)
{
    if (key.kind >= FK_RPACK && key.kind <= FK_CUNPACK && !(key.flags & FF_BYROW))
        key.row1 = v[0].shape[0] == 1; /* every view's first axis is the rows */
    const NgKernel *kern;
    NgStatus st = get_kernel(dev, key, &kern);
    if (st != NG_OK)
        return st;
    NgKArg args[4 * 10 + 8];
    int na = 0;
    for (int i = 0; i < narr; i++)
        kargs_view(args, &na, v[i].a, v[i].ndim, v[i].shape);
    for (int i = 0; i < nint; i++)
        karg_int(args, &na, ints[i]);
    if (key.flags & FF_SCALE)
        karg_real(args, &na, scale);
    return ng_kernel_launch(kern, args, na, extent, work);
}

/* rfft / irfft of even n through the n/2-point complex transform `half`
 * (direct) and the split twiddles `rp` (see RPACK, RSPLIT, CPACK,
 * CUNPACK). shape is the input's shape; *res the new output. */
static NgStatus run_packed(NgFftKind kind, const NgArray *x, int axis, int64_t outer, int64_t len, int64_t inner,
                           int64_t n, bool conj, double scale, const Plan *half, const Plan *rp, NgDType odt,
                           int64_t *shape, NgArray *res)
{
    NgDevice *dev = half->dev;
    NgDType rdt = half->dt, cdt = rdt == NG_FLOAT32 ? NG_COMPLEX64 : NG_COMPLEX128;
    int64_t h = n / 2;
    int nd = x->ndim;
    NgArray bufa = {0}, bufb = {0}, xv;
    const NgArray *cur = &bufa, *r;
    unsigned sc = scale != 1.0 ? FF_SCALE : 0;
    /* cpu with many rows: the split/pack kernels parallel over rows (FF_BYROW), each launched over
     * the rows (ext(points) is the flat loop's extent otherwise) */
    bool byrow = dev->be->target->par == NG_PAR_OPENMP && outer >= 16;
    unsigned br = (byrow ? FF_BYROW : 0) | (inner == 1 ? FF_INNER1 : 0);
#define ext(points) (byrow ? outer : outer * (points))
    bool view = kind == NG_FFT_R2C && x->dtype == rdt && inner == 1 && len == n;
    /* cpu, rows: the split (rfft) or the pack (irfft: of a complex input of the compute precision,
     * into a real output of it, which the last pass writes as complex points) in the kernel of
     * the passes (FU_*), on rows in its cache */
    bool fused = inner == 1 && rows_kernel(half, outer, 1, FUSED_MIN_WORK, FUSED_MAX) &&
                 (kind == NG_FFT_R2C || (x->dtype == cdt && len > h && odt == rdt));
    shape[axis] = h;
    NgStatus st = NG_OK;
    if ((!view || half->nfac >= 1) && !(fused && kind == NG_FFT_C2R))
        st = ng_array_empty(dev, cdt, nd, shape, &bufa);
    if (st == NG_OK && half->nfac >= 1)
        st = ng_array_empty(dev, cdt, nd, shape, &bufb);
    if (st != NG_OK)
        goto done;
    View vx = {x, ng_dtype_is_complex(x->dtype) ? 4 : 3, {outer, len, inner, 2}};
    View va = {&bufa, 4, {outer, h, inner, 2}}, vt = {&rp->tw, 2, {h + 1, 2}};
    if (kind == NG_FFT_R2C) {
        if (view) { /* the real row read as n/2 complex points: no copy */
            xv = *x;
            xv.dtype = cdt;
            xv.shape[axis] = h;
            xv.size = x->size / 2;
            ng_array_set_contiguous_strides(&xv);
            cur = &xv;
        } else {
            View v2[2] = {vx, va};
            if ((st = launch_views(dev, make_key(FK_RPACK, rdt, x->dtype, 0, br), 2, v2, 1, &n, 1.0, ext(h),
                                   outer * h * inner)) != NG_OK)
                goto done;
        }
        shape[axis] = h + 1;
        if (fused) { /* the split in the passes' kernel */
            if ((st = ng_array_empty(dev, odt, nd, shape, res)) != NG_OK)
                goto done;
            Fuse fz = {FU_SPLIT, &rp->tw, res, 0, conj};
            st = run_rows(half, cur, &bufa, &bufb, outer, 1, false, sc ? &scale : NULL, &fz, &r);
            goto done;
        }
        if ((st = run_passes(half, cur, &bufa, &bufb, outer, inner, false, NULL, &r)) != NG_OK)
            goto done;
        if ((st = ng_array_empty(dev, odt, nd, shape, res)) != NG_OK)
            goto done;
        View v3[3] = {{r, 4, {outer, h, inner, 2}}, {res, 4, {outer, h + 1, inner, 2}}, vt};
        st = launch_views(dev, make_key(FK_RSPLIT, rdt, odt, 0, sc | br | (conj ? FF_CONJ : 0)), 3, v3, 0, NULL, scale,
                          ext(h + 1), outer * (h + 1) * inner);
    } else if (fused) { /* the pack in the passes' kernel, whose last pass writes the output */
        shape[axis] = n;
        if ((st = ng_array_empty(dev, odt, nd, shape, res)) != NG_OK)
            goto done;
        Fuse fz = {FU_PACK, &rp->tw, NULL, len, conj};
        st = run_rows(half, x, res, &bufb, outer, 1, true, sc ? &scale : NULL, &fz, &r);
    } else {
        /* a real output of the compute precision along the last axis holds the half-length
         * inverse's complex points as they are: the last pass (one kernel per pass) writes it and
         * the norm factor, no CUNPACK; the pack writes where that makes the passes, which take turns
         * with bufa, end */
        bool direct = inner == 1 && odt == rdt && half->nfac >= 1 &&
                      !rows_kernel(half, outer, inner, ROWS_MIN_WORK, ROWS_MAX);
        shape[axis] = n;
        if (direct && (st = ng_array_empty(dev, odt, nd, shape, res)) != NG_OK)
            goto done;
        NgArray *pk = direct && half->nfac % 2 == 0 ? res : &bufa;
        View v3[3] = {vx, {pk, 4, {outer, h, inner, 2}}, vt};
        if ((st = launch_views(dev, make_key(FK_CPACK, rdt, x->dtype, 0, br | (conj ? FF_CONJ : 0)), 3, v3, 0, NULL,
                               1.0, ext(h), outer * h * inner)) != NG_OK)
            goto done;
        if (direct) {
            st = run_passes(half, pk, res, &bufa, outer, inner, true, sc ? &scale : NULL, &r);
            goto done;
        }
        if ((st = run_passes(half, &bufa, &bufa, &bufb, outer, inner, true, NULL, &r)) != NG_OK ||
            (st = ng_array_empty(dev, odt, nd, shape, res)) != NG_OK)
            goto done;
        View v2[2] = {{r, 4, {outer, h, inner, 2}}, {res, 3, {outer, n, inner}}};
        st = launch_views(dev, make_key(FK_CUNPACK, rdt, odt, 0, sc | br), 2, v2, 0, NULL, scale, ext(h),
                          outer * h * inner);
    }
done:
    ng_array_release(&bufa);
    ng_array_release(&bufb);
    if (st != NG_OK)
        ng_array_release(res);
    return st;
#undef ext
}

/* NumPy's result dtypes: the compute precision and the output dtype. */
static NgStatus fft_dtypes(NgDType in, NgFftKind kind, int64_t n, NgDType *real, NgDType *out)
{
    if (!ng_dtype_info(in)->supported)
        return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported yet", ng_dtype_info(in)->name);
    if (kind == NG_FFT_R2C && ng_dtype_is_complex(in))
        return ng_error_set(NG_ERR_TYPE,
                            "ufunc 'rfft_n_%s' not supported for the input types, and the inputs could not be "
                            "safely coerced to any supported types according to the casting rule ''safe''",
                            n % 2 ? "odd" : "even");
    bool single = in == NG_FLOAT16 || in == NG_FLOAT32 || in == NG_COMPLEX64;
    *real = single ? NG_FLOAT32 : NG_FLOAT64;
    if (kind == NG_FFT_C2R)
        *out = in == NG_FLOAT16 ? NG_FLOAT16 : *real;
    else
        *out = single ? NG_COMPLEX64 : NG_COMPLEX128;
    return NG_OK;
}

NgStatus ng_op_fft(const NgArray *a, int axis, int64_t n, NgFftKind kind, bool inverse, bool conj, double scale,
                   NgArray *out)
{
    if (n < 1)
        return ng_error_set(NG_ERR_VALUE, "Invalid number of FFT data points (%lld) specified.", (long long)n);
    NgStatus st = ng_axis_normalize(&axis, a->ndim);
    if (st != NG_OK)
        return st;
    NgDType rdt = NG_FLOAT64, odt = NG_COMPLEX128;
    if ((st = fft_dtypes(a->dtype, kind, n, &rdt, &odt)) != NG_OK)
        return st;
    NgDType cdt = rdt == NG_FLOAT32 ? NG_COMPLEX64 : NG_COMPLEX128;
    NgDevice *dev = ng_array_device(a);
    int64_t len = a->shape[axis], outer = 1, inner = 1, nout = kind == NG_FFT_R2C ? n / 2 + 1 : n;
    for (int d = 0; d < axis; d++)
        outer *= a->shape[d];
    for (int d = axis + 1; d < a->ndim; d++)
        inner *= a->shape[d];
    int64_t shape[NG_MAXDIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    shape[axis] = nout;
    if (outer * inner == 0)
        return ng_array_empty(dev, odt, a->ndim, shape, out);

    bool inv = kind == NG_FFT_C2C ? inverse : kind == NG_FFT_C2R;
    bool scaled = scale != 1.0;
    NgArray x = {0}, bufa = {0}, bufb = {0}, res = {0};
    Plan pl, sub;
    memset(&pl, 0, sizeof pl);
    memset(&sub, 0, sizeof sub);
    if ((st = ng_op_ascontiguous(a, false, &x)) != NG_OK)
        return st;
    if (kind != NG_FFT_C2C && n % 2 == 0) { /* even real transforms: half as long, when that is direct */
        if ((st = plan_get(dev, n / 2, rdt, false, &sub)) != NG_OK)
            goto done;
        if (sub.m == 0) {
            if ((st = plan_get(dev, n, rdt, true, &pl)) == NG_OK)
                st = run_packed(kind, &x, axis, outer, len, inner, n, conj, scale, &sub, &pl, odt, shape, &res);
            goto done;
        }
        plan_release(&sub);
    }
    if ((st = plan_get(dev, n, rdt, false, &pl)) != NG_OK)
        goto done;
    unsigned pre = (kind == NG_FFT_C2R ? FF_HERM : 0) | (kind == NG_FFT_C2R && conj ? FF_CONJ : 0);
    unsigned post = (kind == NG_FFT_C2R ? FF_REAL : 0) | (kind == NG_FFT_R2C && conj ? FF_CONJ : 0);
    if (pl.m == 0) { /* direct */
        bool need_pre = pre || x.dtype != cdt || len != n || pl.nfac == 0;
        bool need_post = kind != NG_FFT_C2C;
        /* the norm factor: by POST, else the last pass, else PRE */
        bool pre_scale = scaled && !need_post && pl.nfac == 0, pass_scale = scaled && !need_post && pl.nfac > 0;
        shape[axis] = n;
        if ((st = ng_array_empty(dev, cdt, a->ndim, shape, &bufa)) != NG_OK)
            goto done;
        if (pl.nfac >= 2 || (pl.nfac == 1 && need_pre))
            if ((st = ng_array_empty(dev, cdt, a->ndim, shape, &bufb)) != NG_OK)
                goto done;
        const NgArray *cur = &x, *r;
        if (need_pre) {
            if ((st = run_pre(&pl, &x, outer, len, inner, &bufa, n, pre | (pre_scale ? FF_SCALE : 0), scale)) != NG_OK)
                goto done;
            cur = &bufa;
        }
        if ((st = run_passes(&pl, cur, &bufa, &bufb, outer, inner, inv, pass_scale ? &scale : NULL, &r)) != NG_OK)
            goto done;
        if (!need_post) {
            ng_array_view(r, &res);
        } else {
            shape[axis] = nout;
            if ((st = ng_array_empty(dev, odt, a->ndim, shape, &res)) != NG_OK)
                goto done;
            st = run_post(&pl, r, outer, n, inner, &res, nout, post | (scaled ? FF_SCALE : 0), scale);
        }
    } else { /* Bluestein */
        int64_t m = pl.m;
        if ((st = plan_get(dev, m, rdt, false, &sub)) != NG_OK)
            goto done;
        shape[axis] = m;
        if ((st = ng_array_empty(dev, cdt, a->ndim, shape, &bufa)) != NG_OK ||
            (st = ng_array_empty(dev, cdt, a->ndim, shape, &bufb)) != NG_OK)
            goto done;
        unsigned dir = inv ? FF_INV : 0;
        const NgArray *r;
        if ((st = run_pre(&pl, &x, outer, len, inner, &bufa, m, pre | dir | FF_CHIRP, 1.0)) != NG_OK ||
            (st = run_passes(&sub, &bufa, &bufa, &bufb, outer, inner, false, NULL, &r)) != NG_OK ||
            (st = run_mul(&pl, r, outer, inner, inv)) != NG_OK ||
            (st = run_passes(&sub, r, &bufa, &bufb, outer, inner, true, NULL, &r)) != NG_OK)
            goto done;
        shape[axis] = nout;
        if ((st = ng_array_empty(dev, odt, a->ndim, shape, &res)) != NG_OK)
            goto done;
        st = run_post(&pl, r, outer, m, inner, &res, nout, post | dir | FF_CHIRP | FF_SCALE, scale / (double)m);
    }
done:
    ng_array_release(&x);
    ng_array_release(&bufa);
    ng_array_release(&bufb);
    plan_release(&pl);
    plan_release(&sub);
    if (st != NG_OK) {
        ng_array_release(&res);
        return st;
    }
    *out = res;
    return NG_OK;
}
