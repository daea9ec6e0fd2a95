/* Philox4x32-10 as IR (see philox.h). The 32x32->64 multiplies are uint64
 * multiplies of zero-extended words, then a shift. */
#include "ir/philox.h"

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

NgIrRef ng_ir_unit_f64(NgIrKernel *k, NgIrRef a, NgIrRef b)
{
    NgIrRef ha = ng_ir_cast(k, NG_FLOAT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, a, ng_ir_const_i(k, NG_UINT32, 5)));
    NgIrRef hb = ng_ir_cast(k, NG_FLOAT64, ng_ir_binary(k, NG_OP_RSHIFT, NG_UINT32, b, ng_ir_const_i(k, NG_UINT32, 6)));
    NgIrRef x = ng_ir_binary(k, NG_OP_ADD, NG_FLOAT64,
                             ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, ha, ng_ir_const_f(k, NG_FLOAT64, 67108864.0)), hb);
    return ng_ir_binary(k, NG_OP_MUL, NG_FLOAT64, x, ng_ir_const_f(k, NG_FLOAT64, 0x1p-53));
}
