#include <stdint.h>
#include <math.h>
typedef union { void *p; int64_t i; double f; } NgKArg;
#define NG_PAR_MIN_WORK 32768
#define NG_FN static inline
#define NG_MATH(fn, F) fn##F
#define NG_WIDEST_FLOAT double
#define NG_PRAGMA(x) _Pragma(#x)
#define NG_OMP_MINMAX(S, T) \
NG_PRAGMA(omp declare reduction(ngmax_##S : T : omp_out = ng_max_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\
NG_PRAGMA(omp declare reduction(ngmin_##S : T : omp_out = ng_min_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))
#define NG_INT_EXTRA(S, T) NG_OMP_MINMAX(S, T)
#define NG_FLOAT_EXTRA(S, T) NG_OMP_MINMAX(S, T)
#define NG_INT_HELPERS(S, T, U, BITS) \
NG_FN T ng_fdiv_##S(T a, T b) { if (b == 0) return 0; if ((T)-1 < 0 && b == (T)-1) return (T)(0 - (U)a);\
    T q = (T)(a / b); if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q--; return q; }\
NG_FN T ng_mod_##S(T a, T b) { if (b == 0 || ((T)-1 < 0 && b == (T)-1)) return 0;\
    T r = (T)(a % b); if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b); return r; }\
NG_FN T ng_pow_##S(T a, T b) { U r = 1, x = (U)a; if (b < 0) return (T)(a == 1 ? 1 : a == (T)-1 ? ((b & 1) ? -1 : 1) : 0);\
    while (b) { if (b & 1) r *= x; x *= x; b = (T)(b / 2); } return (T)r; }\
NG_FN T ng_shl_##S(T a, T b) { return (b < 0 || b >= BITS) ? (T)0 : (T)((U)a << b); }\
NG_FN T ng_shr_##S(T a, T b) { return (b < 0 || b >= BITS) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); }\
NG_FN T ng_max_##S(T a, T b) { return a > b ? a : b; }\
NG_FN T ng_min_##S(T a, T b) { return a < b ? a : b; }\
NG_FN T ng_abs_##S(T a) { return a < 0 ? (T)(0 - (U)a) : a; }\
NG_FN T ng_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }\
NG_FN T ng_f2u_##S(NG_WIDEST_FLOAT x) { return x < 0 ? (T)(int64_t)x : (T)x; }\
NG_INT_EXTRA(S, T)
NG_INT_HELPERS(b, uint8_t, uint32_t, 8)
NG_INT_HELPERS(i8, int8_t, uint32_t, 8)
NG_INT_HELPERS(i16, int16_t, uint32_t, 16)
NG_INT_HELPERS(i32, int32_t, uint32_t, 32)
NG_INT_HELPERS(i64, int64_t, uint64_t, 64)
NG_INT_HELPERS(u8, uint8_t, uint32_t, 8)
NG_INT_HELPERS(u16, uint16_t, uint32_t, 16)
NG_INT_HELPERS(u32, uint32_t, uint32_t, 32)
NG_INT_HELPERS(u64, uint64_t, uint64_t, 64)
#define NG_FLOAT_HELPERS(S, T, F) \
NG_FN T ng_max_##S(T a, T b) { return (a >= b || a != a) ? a : b; }\
NG_FN T ng_min_##S(T a, T b) { return (a <= b || a != a) ? a : b; }\
NG_FN T ng_mod_##S(T a, T b) { T m = NG_MATH(fmod, F)(a, b); if (b == 0) return m;\
    if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = NG_MATH(copysign, F)((T)0, b); return m; }\
NG_FN T ng_fdiv_##S(T a, T b) { if (b == 0) return a / b; T m = NG_MATH(fmod, F)(a, b); T d = (a - m) / b;\
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1; if (d == 0) return NG_MATH(copysign, F)((T)0, a / b);\
    T f = NG_MATH(floor, F)(d); if (d - f > (T)0.5) f += 1; return f; }\
NG_FN T ng_sign_##S(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a; }\
NG_FLOAT_EXTRA(S, T)
NG_FLOAT_HELPERS(f32, float, f)
NG_FLOAT_HELPERS(f64, double, )

void sum_float32(const NgKArg *A)
{
    const float *const a0 = (float *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_s0 = A[3].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    float *const a1 = (float *)A[4].p + A[5].i;
    (void)a1;
    const int64_t ng_work = A[6].i; (void)ng_work;
    float v1 = ((float)0.000000000e+00f);
    #pragma omp parallel for simd schedule(static) if(ng_work >= NG_PAR_MIN_WORK) reduction(+:v1)
    for (int64_t v0 = ((int64_t)0LL); v0 < a0_n0; v0 += ((int64_t)1LL)) {
        v1 = (v1 + a0[(v0)]);
    }
    a1[0] = v1;
}
