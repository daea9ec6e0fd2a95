/* Philox4x32-10 as IR (see philox.h). The 32x32->64 multiplies are uint64
 * multiplies of zero-extended words, then a shift. */
#include <math.h>

#include "core/core.h"
#include "ir/philox.h"
#include "ir/ziggurat.h"

static NgIrRef let(NgIrKernel *k, NgDType dt, NgIrRef value, NgIrPush push, void *list)
{
    int v = ng_ir_var(k, dt);
    push(list, ng_ir_let(k, v, value));
    return ng_ir_varref(k, v);
}

void ng_ir_halves(NgIrKernel *k, NgIrRef x, NgIrRef out[2])
{
    out[0] = ng_ir_cast(k, NG_UINT32, x);
    out[1] = ng_ir_cast(k, NG_UINT32, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, x, ng_ir_const_i(k, NG_UINT64, 32)));
}

void ng_ir_philox(NgIrKernel *k, NgIrRef key0, NgIrRef key1, NgIrRef lo, NgIrRef hi, NgIrRef w[4], NgIrPush push,
                  void *list)
{
    NgIrRef c[4], c32 = ng_ir_const_i(k, NG_UINT64, 32);
    ng_ir_halves(k, lo, c);
    ng_ir_halves(k, hi, c + 2);
    for (int r = 0; r < NG_PHILOX_ROUNDS; r++) {
        NgIrRef k0 = r ? ng_ir_binary(k, NG_OP_ADD, NG_UINT32, key0, ng_ir_const_i(k, NG_UINT32, (uint32_t)(NG_PHILOX_W0 * (uint32_t)r)))
                       : key0;
        NgIrRef k1 = r ? ng_ir_binary(k, NG_OP_ADD, NG_UINT32, key1, ng_ir_const_i(k, NG_UINT32, (uint32_t)(NG_PHILOX_W1 * (uint32_t)r)))
                       : key1;
        NgIrRef p0 = let(k, NG_UINT64, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, ng_ir_cast(k, NG_UINT64, c[0]),
                                                     ng_ir_const_i(k, NG_UINT64, NG_PHILOX_M0)), push, list);
        NgIrRef p1 = let(k, NG_UINT64, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, ng_ir_cast(k, NG_UINT64, c[2]),
                                                     ng_ir_const_i(k, NG_UINT64, NG_PHILOX_M1)), push, list);
        NgIrRef hi0 = ng_ir_cast(k, NG_UINT32, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, p0, c32));
        NgIrRef hi1 = ng_ir_cast(k, NG_UINT32, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, p1, c32));
        NgIrRef n0 = ng_ir_binary(k, NG_OP_BITXOR, NG_UINT32, ng_ir_binary(k, NG_OP_BITXOR, NG_UINT32, hi1, c[1]), k0);
        NgIrRef n2 = ng_ir_binary(k, NG_OP_BITXOR, NG_UINT32, ng_ir_binary(k, NG_OP_BITXOR, NG_UINT32, hi0, c[3]), k1);
        c[0] = let(k, NG_UINT32, n0, push, list);
        c[1] = let(k, NG_UINT32, ng_ir_cast(k, NG_UINT32, p1), push, list);
        c[2] = let(k, NG_UINT32, n2, push, list);
        c[3] = let(k, NG_UINT32, ng_ir_cast(k, NG_UINT32, p0), push, list);
    }
    for (int i = 0; i < 4; i++)
        w[i] = c[i];
}

NgIrRef ng_ir_join(NgIrKernel *k, NgIrRef hi, NgIrRef lo)
{
    return ng_ir_binary(k, NG_OP_BITOR, NG_UINT64,
                        ng_ir_binary(k, NG_OP_LSHIFT, NG_UINT64, ng_ir_cast(k, NG_UINT64, hi), ng_ir_const_i(k, NG_UINT64, 32)),
                        ng_ir_cast(k, NG_UINT64, lo));
}

NgIrRef ng_ir_below(NgIrKernel *k, NgIrRef x, NgIrRef n, NgIrPush push, void *list)
{
    NgIrRef xs[2], ns[2], c32 = ng_ir_const_i(k, NG_UINT64, 32), low = ng_ir_const_i(k, NG_UINT64, 0xFFFFFFFFu);
    ng_ir_halves(k, x, xs);
    ng_ir_halves(k, n, ns);
    NgIrRef p[2][2]; /* p[i][j] = x's half i times n's half j, exact in uint64 */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            p[i][j] = let(k, NG_UINT64, ng_ir_binary(k, NG_OP_MUL, NG_UINT64, ng_ir_cast(k, NG_UINT64, xs[i]),
                                                     ng_ir_cast(k, NG_UINT64, ns[j])), push, list);
    /* the carry out of the low 64 bits: p00's high half plus the low halves of p01 and p10 */
    NgIrRef mid = ng_ir_binary(k, NG_OP_ADD, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, p[0][0], c32),
                               ng_ir_binary(k, NG_OP_ADD, NG_UINT64, ng_ir_binary(k, NG_OP_BITAND, NG_UINT64, p[0][1], low),
                                            ng_ir_binary(k, NG_OP_BITAND, NG_UINT64, p[1][0], low)));
    NgIrRef carries = ng_ir_binary(k, NG_OP_ADD, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, p[0][1], c32),
                                   ng_ir_binary(k, NG_OP_ADD, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, p[1][0], c32),
                                                ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT64, mid, c32)));
    return ng_ir_binary(k, NG_OP_ADD, NG_UINT64, p[1][1], carries);
}

NgIrRef ng_ir_unit_bits(NgIrKernel *k, NgIrRef a, NgIrRef b)
{
    NgIrRef ha = ng_ir_cast(k, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, a, ng_ir_const_i(k, NG_UINT32, 5)));
    NgIrRef hb = ng_ir_cast(k, NG_UINT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, b, ng_ir_const_i(k, NG_UINT32, 6)));
    return ng_ir_binary(k, NG_OP_BITOR, NG_UINT64, ng_ir_binary(k, NG_OP_LSHIFT, NG_UINT64, ha, ng_ir_const_i(k, NG_UINT64, 26)), hb);
}

NgIrRef ng_ir_unit_f64(NgIrKernel *k, NgIrRef a, NgIrRef b)
{
    NgIrRef ha = ng_ir_cast(k, NG_FLOAT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, a, ng_ir_const_i(k, NG_UINT32, 5)));
    NgIrRef hb = ng_ir_cast(k, NG_FLOAT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, b, ng_ir_const_i(k, NG_UINT32, 6)));
    NgIrRef x = ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64,
                             ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, ha, ng_ir_const_f(k, NG_FLOAT64, 67108864.0)), hb);
    return ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, x, ng_ir_const_f(k, NG_FLOAT64, 0x1p-53));
}

NgIrRef ng_ir_horner(NgIrKernel *k, NgIrRef z, const double *c, int n)
{
    NgIrRef r = ng_ir_const_f(k, NG_FLOAT64, c[n - 1]);
    for (int i = n - 2; i >= 0; i--)
        r = ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64, ng_ir_const_f(k, NG_FLOAT64, c[i]),
                         ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, z, r));
    return r;
}

/* K = m * 2^e with m in [sqrt(1/2), sqrt(2)) (exact, by a binary search for the top bit),
 * then log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, as a series in s^2. */
NgIrRef ng_ir_log_scaled(NgIrKernel *k, NgIrRef K, int shift, NgIrPush push, void *list)
{
#define F64(x) ng_ir_const_f(k, NG_FLOAT64, x)
#define I64(x) ng_ir_const_i(k, NG_INT64, x)
#define OP(op, dt, x, y) ng_ir_binary(k, NG_OP_##op, dt, x, y)
    NgIrRef t = K, e = I64(0), p = F64(1.0);
    for (int sh = shift > 32 ? 32 : 16; sh >= 1; sh /= 2) { /* K < 2^33 needs no 32-bit step */
        NgIrRef hi = OP(RSHIFT, NG_UINT64, t, ng_ir_const_i(k, NG_UINT64, sh));
        NgIrRef c = let(k, NG_BOOL, OP(NE, NG_BOOL, hi, ng_ir_const_i(k, NG_UINT64, 0)), push, list);
        t = let(k, NG_UINT64, ng_ir_select(k, c, hi, t), push, list);
        e = let(k, NG_INT64, OP(ADD, NG_INT64, e, ng_ir_select(k, c, I64(sh), I64(0))), push, list);
        p = let(k, NG_FLOAT64, OP(MUL, NG_FLOAT64, p, ng_ir_select(k, c, F64(ldexp(1.0, -sh)), F64(1.0))), push, list);
    }
    NgIrRef m = let(k, NG_FLOAT64, OP(MUL, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, K), p), push, list); /* [1, 2) */
    NgIrRef big = let(k, NG_BOOL, OP(GT, NG_BOOL, m, F64(M_SQRT2)), push, list);
    m = let(k, NG_FLOAT64, ng_ir_select(k, big, OP(MUL, NG_FLOAT64, m, F64(0.5)), m), push, list);
    e = OP(ADD, NG_INT64, e, ng_ir_select(k, big, I64(1), I64(0)));
    NgIrRef f = let(k, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, OP(SUB, NG_INT64, e, I64(shift))), push, list);
    NgIrRef sv = let(k, NG_FLOAT64, OP(TRUEDIV, NG_FLOAT64, OP(SUB, NG_FLOAT64, m, F64(1.0)), OP(ADD, NG_FLOAT64, m, F64(1.0))),
                     push, list);
    NgIrRef z = let(k, NG_FLOAT64, OP(MUL, NG_FLOAT64, sv, sv), push, list);
    double c[11];
    for (int i = 0; i < 11; i++)
        c[i] = 1.0 / (2 * i + 3); /* 1/3, 1/5, ... 1/23 */
    NgIrRef tail = OP(MUL, NG_FLOAT64, OP(MUL, NG_FLOAT64, sv, z), ng_ir_horner(k, z, c, 11));
    NgIrRef logm = OP(MUL, NG_FLOAT64, F64(2.0), OP(ADD, NG_FLOAT64, sv, tail));
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10; /* fdlibm's split */
    return OP(ADD, NG_FLOAT64, OP(MUL, NG_FLOAT64, f, F64(ln2_hi)), OP(ADD, NG_FLOAT64, OP(MUL, NG_FLOAT64, f, F64(ln2_lo)), logm));
}

/* ---- the ziggurat ---- */

/* A statement list of a branch the ziggurat's step builds. */
typedef struct List {
    NgIrKernel *k;
    NgIrRef s[48];
    int n;
} List;

static void list_push(void *list, NgIrRef stmt)
{
    List *l = list;
    if (l->n == (int)(sizeof l->s / sizeof l->s[0])) {
        if (l->k->status == NG_OK)
            l->k->status = ng_error_set(NG_ERR_INTERNAL, "a branch of the normal draw too long");
        return;
    }
    l->s[l->n++] = stmt;
}

static NgIrRef list_block(List *l) { return ng_ir_block(l->k, l->n, l->s); }

void ng_ir_normal_vars(NgIrKernel *k, NgIrNormal *v, NgIrPush push, void *list)
{
    int *vars[] = {&v->state, &v->word, &v->layer, &v->x, &v->z, &v->go};
    NgDType dts[] = {NG_INT64, NG_UINT64, NG_INT64, NG_FLOAT64, NG_FLOAT64, NG_BOOL};
    for (int i = 0; i < 6; i++) {
        *vars[i] = ng_ir_var(k, dts[i]);
        NgIrRef zero = dts[i] == NG_FLOAT64 ? F64(0.0) : ng_ir_const_i(k, dts[i], dts[i] == NG_BOOL);
        push(list, ng_ir_let(k, *vars[i], zero));
    }
    v->tx = ng_ir_table(k, NG_FLOAT64, 257, ng_zig_x);
    v->tf = ng_ir_table(k, NG_FLOAT64, 257, ng_zig_f);
}

/* The step's four states: 0 a fresh try (the word's layer, sign and place in the layer: taken
 * where it lies inside the next layer's width, 99% of tries), 1 and 2 the tail beyond R's two
 * uniforms (Marsaglia's: x = -log(u1) / R, y = -log(u2), taken where 2y > x^2), 3 the wedge's
 * uniform height between the layer's bottom and top (taken under the curve). A refused try
 * starts again at 0. The logs are ng_ir_log_scaled's, of 1 - u = (2^53 - the word's top 53
 * bits) 2^-53 > 0; the wedge's exp is the target's (its value only decides, in a comparison). */
NgIrRef ng_ir_normal_step(NgIrKernel *k, const NgIrNormal *v, NgIrRef w)
{
    NgIrRef st = ng_ir_varref(k, v->state), x = ng_ir_varref(k, v->x), i = ng_ir_varref(k, v->layer);
    NgIrRef done = ng_ir_assign(k, v->go, ng_ir_const_i(k, NG_BOOL, 0));
    NgIrRef u53 = OP(RSHIFT, NG_UINT64, w, ng_ir_const_i(k, NG_UINT64, 11));
    NgIrRef next = OP(ADD, NG_INT64, i, I64(1));
    /* 0: layer (8 bits), sign (1), place (the top 52) */
    List a = {k, {0}, 0};
    list_push(&a, ng_ir_assign(k, v->word, w));
    list_push(&a, ng_ir_assign(k, v->layer, ng_ir_cast(k, NG_INT64, OP(BITAND, NG_UINT64, w, ng_ir_const_i(k, NG_UINT64, 255)))));
    NgIrRef place = ng_ir_cast(k, NG_FLOAT64, OP(RSHIFT, NG_UINT64, w, ng_ir_const_i(k, NG_UINT64, 12)));
    list_push(&a, ng_ir_assign(k, v->x, OP(MUL, NG_FLOAT64, OP(MUL, NG_FLOAT64, place, ng_ir_table_at(k, v->tx, i)), F64(0x1p-52))));
    NgIrRef inside[2] = {ng_ir_assign(k, v->z, x), done};
    list_push(&a, ng_ir_if(k, OP(LT, NG_BOOL, x, ng_ir_table_at(k, v->tx, next)), ng_ir_block(k, 2, inside),
                           ng_ir_assign(k, v->state, ng_ir_select(k, OP(EQ, NG_BOOL, i, I64(0)), I64(1), I64(3)))));
    /* 3: the wedge */
    NgIrRef bottom = ng_ir_table_at(k, v->tf, i), top = ng_ir_table_at(k, v->tf, next);
    NgIrRef height = OP(ADD, NG_FLOAT64, bottom, OP(MUL, NG_FLOAT64, OP(MUL, NG_FLOAT64, ng_ir_cast(k, NG_FLOAT64, u53), F64(0x1p-53)),
                                                   OP(SUB, NG_FLOAT64, top, bottom)));
    NgIrRef curve = ng_ir_unary(k, NG_OP_EXP, NG_FLOAT64, OP(MUL, NG_FLOAT64, F64(-0.5), OP(MUL, NG_FLOAT64, x, x)));
    NgIrRef wedge = ng_ir_if(k, OP(LT, NG_BOOL, height, curve), ng_ir_block(k, 2, inside), ng_ir_assign(k, v->state, I64(0)));
    /* 1 and 2: the tail */
    List t = {k, {0}, 0};
    NgIrRef K = OP(SUB, NG_UINT64, ng_ir_const_i(k, NG_UINT64, (int64_t)(UINT64_C(1) << 53)), u53);
    NgIrRef y = let(k, NG_FLOAT64, ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, ng_ir_log_scaled(k, K, 53, list_push, &t)), list_push, &t);
    NgIrRef first[2] = {ng_ir_assign(k, v->x, OP(TRUEDIV, NG_FLOAT64, y, F64(NG_ZIG_R))), ng_ir_assign(k, v->state, I64(2))};
    NgIrRef beyond[2] = {ng_ir_assign(k, v->z, OP(ADD, NG_FLOAT64, F64(NG_ZIG_R), x)), done};
    NgIrRef second = ng_ir_if(k, OP(GT, NG_BOOL, OP(ADD, NG_FLOAT64, y, y), OP(MUL, NG_FLOAT64, x, x)), ng_ir_block(k, 2, beyond),
                              ng_ir_assign(k, v->state, I64(1)));
    list_push(&t, ng_ir_if(k, OP(EQ, NG_BOOL, st, I64(1)), ng_ir_block(k, 2, first), second));
    return ng_ir_if(k, OP(EQ, NG_BOOL, st, I64(0)), list_block(&a),
                    ng_ir_if(k, OP(EQ, NG_BOOL, st, I64(3)), wedge, list_block(&t)));
}

NgIrRef ng_ir_normal_value(NgIrKernel *k, const NgIrNormal *v)
{
    NgIrRef z = ng_ir_varref(k, v->z);
    NgIrRef sign = OP(BITAND, NG_UINT64, ng_ir_varref(k, v->word), ng_ir_const_i(k, NG_UINT64, 256));
    return ng_ir_select(k, OP(NE, NG_BOOL, sign, ng_ir_const_i(k, NG_UINT64, 0)), ng_ir_unary(k, NG_OP_NEG, NG_FLOAT64, z), z);
}
#undef F64
#undef I64
#undef OP
