/* The target tables: C (cpu backend, OpenMP), CUDA C (NVRTC) and OpenCL C.
 *
 * All three share one set of helper functions (Python-sign floor division
 * and modulo, wrapping integer power, NumPy shifts, NaN-propagating
 * max/min, sign, float-to-unsigned casts), written once below against a few
 * macros each prologue defines: NG_FN (function qualifiers), NG_FMOD etc.
 * (math names) and the fixed-width integer type names. Ops with no spelling
 * of their own in the emitter (copysign, logaddexp, arcsinh, ...) are called
 * as ng_<NumPy ufunc name>_<dtype suffix>, defined here for every dtype their
 * type resolution can compute in. */
#include "emit/emit.h"
#include "emit/helpers.h"

/* Helpers shared by every target; S is the dtype suffix, T the type, U the
 * unsigned type integer arithmetic wraps in, BITS the width. ng_quot, C's
 * truncating quotient of integers (b nonzero and not the -1 that overflows:
 * its callers test), is each target's NG_QUOT: on GPUs ng_iquot, a division in
 * 32 bits where both operands fit; on cpu the quotient of the two as doubles,
 * truncated, where both lie within +-2^52 (every type of up to 32 bits): exact
 * there (a non-integer quotient n + f stays below n + 1 after rounding, since
 * its distance 1/|b| or more exceeds half an ulp of n + 1 when |a| + |b| <
 * 2^53), and a double division vectorises and takes a few cycles where an
 * idiv takes 25-90 (`i // 3` 7.5x NumPy's time, which divides by multiplying).
 * ng_rem is a - quot * b, exact, so floor division and modulo take one
 * division each; they divide by 1 where b is 0 or -1 and make their answer
 * for those by multiplying it by 0 or -1 after: a select on b there (loop-
 * invariant for a scalar divisor) made GCC unswitch the loop, and the copies
 * of an OpenMP simd loop with a reduction (the error flags) stayed scalar. ng_gcdu, the
 * greatest common divisor of two uint64s, is binary (Stein's: shifts and
 * subtractions, no division; in 32 bits where both fit): both odd, the larger
 * becomes |a - b| without its trailing zeros, counted on a - b before its sign
 * is known (the same count), its sign a mask rather than a branch (the chain
 * per step: subtract, count, shift). Trailing zeros come from each prologue's
 * NG_CTZ32/NG_CTZ64 (of a nonzero value). The float max/min (NumPy's maximum
 * and minimum: a NaN in either wins, a's first; b when they are equal, as
 * NumPy's SIMD loops: maximum(0.0, -0.0) is -0.0) are
 * three selects rather than one with `||` in its condition: GCC 12 leaves
 * the `||` form unvectorised when one call nests in another (clip's
 * min(max(x, lo), hi) ran 20x slower than either alone). */
#define NG_HELPERS \
"NG_FN uint64_t ng_gcdu(uint64_t a, uint64_t b) { if (a == 0 || b == 0) return a | b;\n" \
"    int k = NG_CTZ64(a | b); a >>= NG_CTZ64(a); b >>= NG_CTZ64(b);\n" \
"    if (((a | b) >> 32) == 0) { uint32_t x = (uint32_t)a, y = (uint32_t)b;\n" \
"        while (x != y) { uint32_t d = x - y, s = 0 - (uint32_t)(x < y); int z = NG_CTZ32(d);\n" \
"            y = x < y ? x : y; x = ((d ^ s) - s) >> z; }\n" \
"        return (uint64_t)x << k; }\n" \
"    while (a != b) { uint64_t d = a - b, s = 0 - (uint64_t)(a < b); int z = NG_CTZ64(d);\n" \
"        b = a < b ? a : b; a = ((d ^ s) - s) >> z; }\n" \
"    return a << k; }\n" \
"#define NG_INT_HELPERS(S, T, U, BITS) \\\n" \
"NG_FN int ng_fits32_##S(T a) { return BITS < 64 || ((T)-1 < 0 ? (T)(int32_t)a == a : (T)(uint32_t)a == a); }\\\n" \
"NG_FN T ng_iquot_##S(T a, T b) { return !(ng_fits32_##S(a) && ng_fits32_##S(b)) ? (T)(a / b)\\\n" \
"    : (T)-1 < 0 ? (T)((int32_t)a / (int32_t)b) : (T)((uint32_t)a / (uint32_t)b); }\\\n" \
"NG_FN int ng_f64ok_##S(T a) { return BITS < 53 || ((T)-1 < 0 ? (uint64_t)(int64_t)a + NG_U64(0x10000000000000) < NG_U64(0x20000000000000)\\\n" \
"    : (uint64_t)a < NG_U64(0x10000000000000)); }\\\n" \
"NG_FN T ng_quot_##S(T a, T b) { return NG_QUOT(S, T, a, b); }\\\n" \
"NG_FN T ng_rem_##S(T a, T b) { return (T)((U)a - (U)ng_quot_##S(a, b) * (U)b); }\\\n" \
"NG_FN T ng_safediv_##S(T b) { return b == 0 || ((T)-1 < 0 && b == (T)-1) ? (T)1 : b; }\\\n" \
"NG_FN T ng_fdiv_##S(T a, T b) { T d = ng_safediv_##S(b), q = ng_quot_##S(a, d), r = (T)((U)a - (U)q * (U)d);\\\n" \
"    q = (T)(q - (T)((r != 0) & ((r < 0) != (d < 0))));\\\n" \
"    return (T)((U)q * (U)(b == 0 ? 0 : (T)-1 < 0 && b == (T)-1 ? (U)-1 : 1)); }\\\n" \
"NG_FN T ng_mod_##S(T a, T b) { T d = ng_safediv_##S(b), r = ng_rem_##S(a, d);\\\n" \
"    r = (T)(r + (T)(d & (T)(0 - (T)((r != 0) & ((r < 0) != (d < 0)))))); return (T)((U)r * (U)(d == b)); }\\\n" \
"NG_FN T ng_fdivp_##S(T a, T b) { T q = (T)(a / b); return (T)-1 < 0 && (T)(a % b) < 0 ? (T)(q - 1) : q; }\\\n" \
"NG_FN T ng_modp_##S(T a, T b) { T r = (T)(a % b); return (T)-1 < 0 && r < 0 ? (T)(r + b) : r; }\\\n" \
"NG_FN T ng_pow_##S(T a, T b) { U r = 1, x = (U)a; if (b < 0) return (T)(a == 1 ? 1 : a == (T)-1 ? ((b & 1) ? -1 : 1) : 0);\\\n" \
"    while (b) { if (b & 1) r *= x; x *= x; b = (T)(b / 2); } return (T)r; }\\\n" \
"NG_FN T ng_shl_##S(T a, T b) { return (b < 0 || b >= BITS) ? (T)0 : (T)((U)a << b); }\\\n" \
"NG_FN T ng_shr_##S(T a, T b) { return (b < 0 || b >= BITS) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); }\\\n" \
"NG_FN T ng_max_##S(T a, T b) { return a > b ? a : b; }\\\n" \
"NG_FN T ng_min_##S(T a, T b) { return a < b ? a : b; }\\\n" \
"NG_FN T ng_abs_##S(T a) { return a < 0 ? (T)(0 - (U)a) : a; }\\\n" \
"NG_FN T ng_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }\\\n" \
"NG_FN T ng_f2u_##S(NG_WIDEST_FLOAT x) { return x < 0 ? (T)(int64_t)x : (T)x; }\\\n" \
"NG_FN T ng_fmod_##S(T a, T b) { T d = ng_safediv_##S(b); return (T)((U)ng_rem_##S(a, d) * (U)(d == b)); }\\\n" \
"NG_FN T ng_reciprocal_##S(T a) { return a == 0 ? ((T)-1 < 0 && BITS >= 32 ? (T)((U)1 << (BITS - 1)) : (T)0) : (T)(1 / a); }\\\n" \
"NG_FN uint64_t ng_mag_##S(T a) { return a < 0 ? 0 - (uint64_t)(int64_t)a : (uint64_t)a; }\\\n" \
"NG_FN uint8_t ng_bitwise_count_##S(T a) { return (uint8_t)NG_POPCNT64(ng_mag_##S(a)); }\\\n" \
"NG_FN T ng_gcd_##S(T a, T b) { return (T)ng_gcdu(ng_mag_##S(a), ng_mag_##S(b)); }\\\n" \
"NG_FN T ng_lcm_##S(T a, T b) { uint64_t x = ng_mag_##S(a), y = ng_mag_##S(b), g = ng_gcdu(x, y);\\\n" \
"    return g == 0 ? (T)0 : (T)(x / g * y); }\\\n" \
"NG_INT_EXTRA(S, T)\n" \
"NG_INT_HELPERS(b, uint8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(i8, int8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(i16, int16_t, uint32_t, 16)\n" \
"NG_INT_HELPERS(i32, int32_t, uint32_t, 32)\n" \
"NG_INT_HELPERS(i64, int64_t, uint64_t, 64)\n" \
"NG_INT_HELPERS(u8, uint8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(u16, uint16_t, uint32_t, 16)\n" \
"NG_INT_HELPERS(u32, uint32_t, uint32_t, 32)\n" \
"NG_INT_HELPERS(u64, uint64_t, uint64_t, 64)\n" \
"#define NG_I0A(C) \\\n" \
"    C(-4.4153416464793395e-18) C(3.3307945188222384e-17) C(-2.431279846547955e-16) C(1.715391285555133e-15) C(-1.1685332877993451e-14) \\\n" \
"    C(7.676185498604936e-14) C(-4.856446783111929e-13) C(2.95505266312964e-12) C(-1.726826291441556e-11) C(9.675809035373237e-11) \\\n" \
"    C(-5.189795601635263e-10) C(2.6598237246823866e-09) C(-1.300025009986248e-08) C(6.046995022541919e-08) C(-2.670793853940612e-07) \\\n" \
"    C(1.1173875391201037e-06) C(-4.4167383584587505e-06) C(1.6448448070728896e-05) C(-5.754195010082104e-05) C(0.00018850288509584165) \\\n" \
"    C(-0.0005763755745385824) C(0.0016394756169413357) C(-0.004324309995050576) C(0.010546460394594998) C(-0.02373741480589947) \\\n" \
"    C(0.04930528423967071) C(-0.09490109704804764) C(0.17162090152220877) C(-0.3046826723431984) C(0.6767952744094761)\n" \
"#define NG_I0B(C) \\\n" \
"    C(-7.233180487874754e-18) C(-4.830504485944182e-18) C(4.46562142029676e-17) C(3.461222867697461e-17) C(-2.8276239805165836e-16) \\\n" \
"    C(-3.425485619677219e-16) C(1.7725601330565263e-15) C(3.8116806693526224e-15) C(-9.554846698828307e-15) C(-4.150569347287222e-14) \\\n" \
"    C(1.54008621752141e-14) C(3.8527783827421426e-13) C(7.180124451383666e-13) C(-1.7941785315068062e-12) C(-1.3215811840447713e-11) \\\n" \
"    C(-3.1499165279632416e-11) C(1.1889147107846439e-11) C(4.94060238822497e-10) C(3.3962320257083865e-09) C(2.266668990498178e-08) \\\n" \
"    C(2.0489185894690638e-07) C(2.8913705208347567e-06) C(6.889758346916825e-05) C(0.0033691164782556943) C(0.8044904110141088)\n" \
"#define NG_CHB(v) ng_c = (v); ng_b2 = ng_b1; ng_b1 = ng_b0; ng_b0 = ng_t * ng_b1 - ng_b2 + ng_c;\n" \
"#define NG_FLOAT_HELPERS(S, T, F) \\\n" \
"NG_FN T ng_max_##S(T a, T b) { T t = a > b ? a : b; t = b != b ? b : t; return a != a ? a : t; }\\\n" \
"NG_FN T ng_min_##S(T a, T b) { T t = a < b ? a : b; t = b != b ? b : t; return a != a ? a : t; }\\\n" \
"NG_FN T ng_maxv_##S(T a, T b) { return a != a ? a : (b >= a || b != b) ? b : a; }\\\n" \
"NG_FN T ng_minv_##S(T a, T b) { return a != a ? a : (b <= a || b != b) ? b : a; }\\\n" \
"NG_FN T ng_mod_##S(T a, T b) { T m = NG_FMOD(F, a, b); if (b == 0) return m;\\\n" \
"    T r = NG_FSEL((m != 0) & ((b < 0) != (m < 0)), m + b, m); return NG_FSEL(m == 0, NG_MATH(copysign, F)((T)0, b), r); }\\\n" \
"NG_FN T ng_fdiv_##S(T a, T b) { if (b == 0) return a / b; T m = NG_FMOD(F, a, b); T d = (a - m) / b;\\\n" \
"    d -= (T)((m != 0) & ((b < 0) != (m < 0))); if (d == 0) return NG_MATH(copysign, F)((T)0, a / b);\\\n" \
"    T f = NG_MATH(floor, F)(d); if (d - f > (T)0.5) f += 1; return f; }\\\n" \
"NG_FN T ng_sign_##S(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a; }\\\n" \
"NG_FN T ng_fmod_##S(T a, T b) { return NG_FMOD(F, a, b); }\\\n" \
"NG_FN T ng_fmax_##S(T a, T b) { return NG_FMAX(F, a, b); }\\\n" \
"NG_FN T ng_fmin_##S(T a, T b) { return NG_FMIN(F, a, b); }\\\n" \
"NG_FN T ng_copysign_##S(T a, T b) { return NG_MATH(copysign, F)(a, b); }\\\n" \
"NG_FN T ng_nextafter_##S(T a, T b) { return NG_MATH(nextafter, F)(a, b); }\\\n" \
"NG_FN T ng_logaddexp_##S(T a, T b) { if (a == b) return a + (T)0.6931471805599453094; T d = a - b;\\\n" \
"    return d > 0 ? a + NG_MATH(log1p, F)(NG_MATH(exp, F)(-d)) : d <= 0 ? b + NG_MATH(log1p, F)(NG_MATH(exp, F)(d)) : d; }\\\n" \
"NG_FN T ng_logaddexp2_##S(T a, T b) { if (a == b) return a + 1; T d = a - b; const T l2e = (T)1.4426950408889634074;\\\n" \
"    return d > 0 ? a + l2e * NG_MATH(log1p, F)(NG_MATH(exp2, F)(-d)) : d <= 0 ? b + l2e * NG_MATH(log1p, F)(NG_MATH(exp2, F)(d)) : d; }\\\n" \
"NG_FN T ng_heaviside_##S(T x, T h0) { return x < 0 ? (T)0 : x > 0 ? (T)1 : x == 0 ? h0 : x; }\\\n" \
"NG_FN T ng_arcsinh_##S(T a) { return NG_MATH(asinh, F)(a); }\\\n" \
"NG_FN T ng_arccosh_##S(T a) { return NG_MATH(acosh, F)(a); }\\\n" \
"NG_FN T ng_arctanh_##S(T a) { return NG_MATH(atanh, F)(a); }\\\n" \
"NG_FN int ng_signbit_##S(T a) { return NG_SIGNBIT(a) != 0; }\\\n" \
"NG_FN T ng_cbrt_##S(T a) { return NG_MATH(cbrt, F)(a); }\\\n" \
"NG_FN T ng_exp2_##S(T a) { return NG_MATH(exp2, F)(a); }\\\n" \
"NG_FN T ng_reciprocal_##S(T a) { return (T)1 / a; }\\\n" \
"NG_FN T ng_deg2rad_##S(T a) { return a * ((T)3.14159265358979323846 / (T)180); }\\\n" \
"NG_FN T ng_rad2deg_##S(T a) { return a * ((T)180 / (T)3.14159265358979323846); }\\\n" \
"NG_FN T ng_fabs_##S(T a) { return NG_MATH(fabs, F)(a); }\\\n" \
"NG_FN T ng_erf_##S(T a) { return NG_MATH(erf, F)(a); }\\\n" \
"NG_FN T ng_erfc_##S(T a) { return NG_MATH(erfc, F)(a); }\\\n" \
"NG_FN T ng_gamma_##S(T a) { return NG_MATH(tgamma, F)(a); }\\\n" \
"NG_FN T ng_lgamma_##S(T a) { return NG_MATH(lgamma, F)(a); }\\\n" \
"NG_FN T ng_chba_##S(T ng_t) { T ng_c, ng_b0 = 0, ng_b1 = 0, ng_b2 = 0; NG_I0A(NG_CHB) return (T)0.5 * (ng_b0 - ng_b2); }\\\n" \
"NG_FN T ng_chbb_##S(T ng_t) { T ng_c, ng_b0 = 0, ng_b1 = 0, ng_b2 = 0; NG_I0B(NG_CHB) return (T)0.5 * (ng_b0 - ng_b2); }\\\n" \
"NG_FN T ng_i0s_##S(T a) { T x = NG_MATH(fabs, F)(a), e = NG_MATH(exp, F)(x);\\\n" \
"    return x <= (T)8 ? e * ng_chba_##S(x / (T)2 - (T)2) : e * ng_chbb_##S((T)32 / x - (T)2) / NG_MATH(sqrt, F)(x); }\\\n" \
"NG_FLOAT_EXTRA(S, T)\n" \
"NG_FLOAT_HELPERS(f32, float, f)\n" \
"NG_FN float ng_i0_f32(float a) { return ng_i0s_f32(a); }\n" \
"#define NG_BITS_HELPERS(S, T, U, TOU, TOF, MB, EM, BIAS) \\\n" \
"NG_FN T ng_pow2_##S(int k) { return TOF((U)(BIAS + k) << MB); }\\\n" \
"NG_FN T ng_frexp_##S(T a) { U u = TOU(a); int ex = (int)(u >> MB) & EM;\\\n" \
"    U v = ex == 0 ? TOU(a * ng_pow2_##S(MB + 2)) : u;\\\n" \
"    T m = TOF((v & ~((U)EM << MB)) | ((U)(BIAS - 1) << MB)); return a == 0 || ex == EM ? a : m; }\\\n" \
"NG_FN int32_t ng_frexp_exponent_##S(T a) { U u = TOU(a); int ex = (int)(u >> MB) & EM;\\\n" \
"    int e = ex == 0 ? ((int)(TOU(a * ng_pow2_##S(MB + 2)) >> MB) & EM) - (MB + 2) : ex;\\\n" \
"    return a == 0 || ex == EM ? 0 : (int32_t)(e - (BIAS - 1)); }\\\n" \
"NG_FN T ng_ldexp_##S(T a, int64_t n64) { const int hi = EM - 1 - BIAS, lo = 1 - BIAS, dn = MB + 1 + lo;\\\n" \
"    int64_t c = n64 > 4096 ? 4096 : n64; c = c < -4096 ? -4096 : c; int n = (int)c;\\\n" \
"    int s1 = (n > hi) * hi + (n < lo) * dn; n -= s1; int s2 = (n > hi) * hi + (n < lo) * dn; n -= s2;\\\n" \
"    n = n > hi ? hi : n; n = n < lo ? lo : n; return a * ng_pow2_##S(s1) * ng_pow2_##S(s2) * ng_pow2_##S(n); }\n" \
"NG_BITS_HELPERS(f32, float, uint32_t, ng_as_u32, ng_as_f32, 23, 0xff, 127)\n"

/* NG_BITS_HELPERS (S, T, its unsigned bits U, the bit casts, mantissa bits MB, exponent mask EM,
 * BIAS), so written that GCC vectorises them: frexp reads the exponent field (a subnormal scaled
 * by 2^(MB+2) first) and puts BIAS - 1 in its place; ldexp is musl's scalbn with selects (steps
 * by 2^hi up or 2^(MB+1+lo) down, a multiplication by 1 where none is due, the last product the
 * only rounding: a subnormal result rounds once, as C's ldexp). float16 goes through float32, as
 * NumPy's loops do (every float16 result is exact in float32 before ng_rh rounds it). */
/* i0 (NG_I0A, NG_I0B: the coefficients as lists of C(v); NG_CHB: one step of Clenshaw's
 * recurrence; ng_chba, ng_chbb: the two series; ng_i0s; ng_i0 of each float dtype): numpy.i0's
 * Chebyshev series (Cephes), each step in the helper's float dtype as NumPy's array arithmetic
 * does it, coefficients rounded to that dtype (assigned to ng_c), written out step by step so that
 * the C compiler vectorises the loop over elements (a loop over coefficient arrays kept it scalar:
 * 5x slower); float16 in float32 but for NumPy's float16
 * exp(|x|), which overflows from |x| ~ 11.1 on (inf). */
/* Written after the prologue when a kernel uses float16 (values are float). */
#define NG_HALF_PROLOGUE \
"NG_FLOAT_HELPERS(f16, float, f)\n" \
"NG_FN float ng_frexp_f16(float a) { return ng_frexp_f32(a); }\n" \
"NG_FN int32_t ng_frexp_exponent_f16(float a) { return ng_frexp_exponent_f32(a); }\n" \
"NG_FN float ng_ldexp_f16(float a, int64_t n) { return ng_ldexp_f32(a, n); }\n" \
"NG_FN float ng_i0_f16(float a) { float x = NG_MATH(fabs, f)(a);\n" \
"    return x <= 3.0e38f && NG_MATH(exp, f)(x) >= 65520.0f ? ng_as_f32(0x7f800000u) : ng_i0s_f16(a); }\n" \
NG_HALF_SRC

/* The C target's: the compiler's _Float16 where it has one (round to nearest
 * even, as NumPy), else the bit-level conversions every target shares. Its
 * conversions vectorise with AVX512-FP16 and on arm64; GCC 12 with F16C
 * alone converts one element at a time (float16 abs 14x and exp 35x slower
 * than NumPy's): there h2f and f2h are written without branches, as selects
 * of masks (ng_sel32) that vectorise, bit for bit F16C's (every half and
 * every float checked: a NaN quieted, its payload kept), and without
 * arithmetic on float subnormals (a library setting flush-to-zero changes
 * nothing). */
#define NG_C_HALF_PROLOGUE \
"#if defined(__FLT16_MAX__)\n" \
"#define NG_HW_HALF 1\n" \
"static inline uint16_t ng_d2h(double d) { _Float16 x = (_Float16)d; uint16_t h; __builtin_memcpy(&h, &x, 2); return h; }\n" \
"#if defined(__AVX512FP16__) || !defined(__x86_64__)\n" \
"static inline float ng_h2f(uint16_t h) { _Float16 x; __builtin_memcpy(&x, &h, 2); return (float)x; }\n" \
"static inline uint16_t ng_f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; __builtin_memcpy(&h, &x, 2); return h; }\n" \
"#else\n" \
"static inline uint32_t ng_sel32(uint32_t c, uint32_t x, uint32_t y) { return (x & c) | (y & ~c); }\n" \
"static inline float ng_h2f(uint16_t h)\n" \
"{\n" \
"    uint32_t s = (uint32_t)(h & 0x8000u) << 16, em = (uint32_t)h & 0x7fffu;\n" \
"    uint32_t sub = ng_as_u32((float)(int32_t)em * 5.9604644775390625e-08f);\n" \
"    uint32_t big = (em << 13) | 0x7f800000u | (0x400000u & -(uint32_t)(em > 0x7c00u));\n" \
"    uint32_t b = ng_sel32(-(uint32_t)(em >= 0x7c00u), big, (em << 13) + 0x38000000u);\n" \
"    return ng_as_f32(s | ng_sel32(-(uint32_t)(em < 0x400u), sub, b));\n" \
"}\n" \
"static inline uint16_t ng_f2h(float f)\n" \
"{\n" \
"    uint32_t x = ng_as_u32(f), s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;\n" \
"    uint32_t nrm = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;\n" \
"    uint32_t sub = ng_as_u32(ng_as_f32(a) + 0.5f) - 0x3f000000u; /* rounded at 2^-24 by the add */\n" \
"    uint32_t q = ng_sel32(-(uint32_t)(a < 0x38800000u), sub, nrm);\n" \
"    q = ng_sel32(-(uint32_t)(a >= 0x477ff000u), 0x7c00u, q);\n" \
"    q = ng_sel32(-(uint32_t)(a > 0x7f800000u), 0x7e00u | ((a >> 13) & 0x3ffu), q);\n" \
"    return (uint16_t)(s | q);\n" \
"}\n" \
"#endif\n" \
"#endif\n" \
NG_HALF_PROLOGUE

/* The C target's vector values, for while loops in lanes (emit.c): one
 * element per lane, NG_VW lanes (the host's vector registers: 8 with
 * AVX-512, 4 with AVX2, else 2; the kernel's NG_JAM = 8 lanes go in groups
 * of NG_VW), of 8 or 4 bytes, a test's mask -1 or 0 per lane, always 8
 * bytes (NG_VM widens a 4-byte comparison's). NG_VMIN: the fewest lanes
 * still running that stay in vectors. */
#define NG_C_LANES_PROLOGUE \
"#if defined(__AVX512F__)\n" \
"#define NG_VW 8\n" \
"#define NG_SPLAT(T, x) ((T){x, x, x, x, x, x, x, x})\n" \
"#define NG_VMIN 3\n" \
"#elif defined(__AVX2__)\n" \
"#define NG_VW 4\n" \
"#define NG_SPLAT(T, x) ((T){x, x, x, x})\n" \
"#define NG_VMIN 2\n" \
"#else\n" \
"#define NG_VW 2\n" \
"#define NG_SPLAT(T, x) ((T){x, x})\n" \
"#define NG_VMIN 1\n" \
"#endif\n" \
"typedef int64_t ng_vi64 __attribute__((vector_size(8 * NG_VW)));\n" \
"typedef uint64_t ng_vu64 __attribute__((vector_size(8 * NG_VW)));\n" \
"typedef double ng_vf64 __attribute__((vector_size(8 * NG_VW)));\n" \
"typedef int8_t ng_vm8 __attribute__((vector_size(NG_VW)));\n" \
"NG_FN uint64_t ng_vbits(ng_vi64 m) { ng_vm8 b = __builtin_convertvector(m, ng_vm8); uint64_t a = 0; __builtin_memcpy(&a, &b, NG_VW); return a; }\n" \
"NG_FN int ng_vany(ng_vi64 m) { return ng_vbits(m) != 0; }\n" \
"NG_FN int ng_vlanes(ng_vi64 m) { return __builtin_popcountll(ng_vbits(m)) >> 3; }\n" \
"NG_FN ng_vi64 ng_vsel_i64(ng_vi64 m, ng_vi64 a, ng_vi64 b) { return (m & a) | (~m & b); }\n" \
"NG_FN ng_vu64 ng_vsel_u64(ng_vi64 m, ng_vu64 a, ng_vu64 b) { return (ng_vu64)ng_vsel_i64(m, (ng_vi64)a, (ng_vi64)b); }\n" \
"NG_FN ng_vf64 ng_vsel_f64(ng_vi64 m, ng_vf64 a, ng_vf64 b) { return (ng_vf64)ng_vsel_i64(m, (ng_vi64)a, (ng_vi64)b); }\n" \
"NG_FN ng_vi64 ng_vmax_i64(ng_vi64 a, ng_vi64 b) { return ng_vsel_i64(a > b, a, b); }\n" \
"NG_FN ng_vi64 ng_vmin_i64(ng_vi64 a, ng_vi64 b) { return ng_vsel_i64(a < b, a, b); }\n" \
"NG_FN ng_vu64 ng_vmax_u64(ng_vu64 a, ng_vu64 b) { return ng_vsel_u64(a > b, a, b); }\n" \
"NG_FN ng_vu64 ng_vmin_u64(ng_vu64 a, ng_vu64 b) { return ng_vsel_u64(a < b, a, b); }\n" \
"NG_FN ng_vf64 ng_vmax_f64(ng_vf64 a, ng_vf64 b) { return ng_vsel_f64((a >= b) | (a != a), a, b); }\n" \
"NG_FN ng_vf64 ng_vmin_f64(ng_vf64 a, ng_vf64 b) { return ng_vsel_f64((a <= b) | (a != a), a, b); }\n" \
"NG_FN ng_vi64 ng_vabs_i64(ng_vi64 a) { return ng_vsel_i64(a < 0, (ng_vi64)(-(ng_vu64)a), a); }\n" \
"NG_FN ng_vf64 ng_vabs_f64(ng_vf64 a) { return (ng_vf64)((ng_vi64)a & NG_SPLAT(ng_vi64, INT64_MAX)); }\n" \
"typedef int32_t ng_vi32 __attribute__((vector_size(4 * NG_VW)));\n" \
"typedef uint32_t ng_vu32 __attribute__((vector_size(4 * NG_VW)));\n" \
"typedef float ng_vf32 __attribute__((vector_size(4 * NG_VW)));\n" \
"#define NG_VM(m32) __builtin_convertvector(m32, ng_vi64)\n" \
"NG_FN ng_vi32 ng_vsel_i32(ng_vi64 m, ng_vi32 a, ng_vi32 b) { ng_vi32 n = __builtin_convertvector(m, ng_vi32); return (n & a) | (~n & b); }\n" \
"NG_FN ng_vu32 ng_vsel_u32(ng_vi64 m, ng_vu32 a, ng_vu32 b) { return (ng_vu32)ng_vsel_i32(m, (ng_vi32)a, (ng_vi32)b); }\n" \
"NG_FN ng_vf32 ng_vsel_f32(ng_vi64 m, ng_vf32 a, ng_vf32 b) { return (ng_vf32)ng_vsel_i32(m, (ng_vi32)a, (ng_vi32)b); }\n" \
"NG_FN ng_vi32 ng_vmax_i32(ng_vi32 a, ng_vi32 b) { return ng_vsel_i32(NG_VM(a > b), a, b); }\n" \
"NG_FN ng_vi32 ng_vmin_i32(ng_vi32 a, ng_vi32 b) { return ng_vsel_i32(NG_VM(a < b), a, b); }\n" \
"NG_FN ng_vu32 ng_vmax_u32(ng_vu32 a, ng_vu32 b) { return ng_vsel_u32(NG_VM(a > b), a, b); }\n" \
"NG_FN ng_vu32 ng_vmin_u32(ng_vu32 a, ng_vu32 b) { return ng_vsel_u32(NG_VM(a < b), a, b); }\n" \
"NG_FN ng_vf32 ng_vmax_f32(ng_vf32 a, ng_vf32 b) { return ng_vsel_f32(NG_VM((a >= b) | (a != a)), a, b); }\n" \
"NG_FN ng_vf32 ng_vmin_f32(ng_vf32 a, ng_vf32 b) { return ng_vsel_f32(NG_VM((a <= b) | (a != a)), a, b); }\n" \
"NG_FN ng_vi32 ng_vabs_i32(ng_vi32 a) { return ng_vsel_i32(NG_VM(a < 0), (ng_vi32)(-(ng_vu32)a), a); }\n" \
"NG_FN ng_vf32 ng_vabs_f32(ng_vf32 a) { return (ng_vf32)((ng_vi32)a & NG_SPLAT(ng_vi32, INT32_MAX)); }\n"

/* Complex helpers of a GPU target with double. */
#define NG_GPU_COMPLEX_F64 \
"typedef struct { float re, im; } ng_c64;\n" \
"typedef struct { double re, im; } ng_c128;\n" \
"NG_COMPLEX_HELPERS(c64, ng_c64, float, f)\n" \
"NG_COMPLEX_HELPERS(c128, ng_c128, double, )\n" \
"NG_COMPLEX_MATH(c128, ng_c128, double, , 1e-2, 1e100, 22)\n" \
"NG_COMPLEX_MATH_C64_WIDE\n" \
"NG_COMPLEX_NUMPY(c64, ng_c64, float, f)\n" \
"NG_COMPLEX_NUMPY(c128, ng_c128, double, )\n"

/* glibc's vector math library (libmvec, within 4 ulp as NumPy's own SIMD
 * functions): declared with their vector variants, loops that call them
 * vectorise. -DNG_SCALAR_MATH (NUMGPU_VECTOR_MATH=0) keeps libm's. NG_VM_SIMD
 * marks a loop made to call them in vectors (NG_IR_SIMD): `omp simd` with them, nothing
 * without (GCC would run the scalar calls from vector registers, lane by lane: a sum of
 * powers 35% slower than the plain loop). */
#define NG_C_VECTOR_MATH \
"#if defined(__x86_64__) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 35) && !defined(NG_SCALAR_MATH)\n" \
"#define NG_VM1(fn) double fn(double) __attribute__((simd(\"notinbranch\")));\\\n" \
"    float fn##f(float) __attribute__((simd(\"notinbranch\")));\n" \
"#define NG_VM2(fn) double fn(double, double) __attribute__((simd(\"notinbranch\")));\\\n" \
"    float fn##f(float, float) __attribute__((simd(\"notinbranch\")));\n" \
"NG_VM1(sin) NG_VM1(cos) NG_VM1(tan) NG_VM1(asin) NG_VM1(acos) NG_VM1(atan)\n" \
"NG_VM1(sinh) NG_VM1(cosh) NG_VM1(tanh) NG_VM1(asinh) NG_VM1(acosh) NG_VM1(atanh)\n" \
"NG_VM1(exp) NG_VM1(exp2) NG_VM1(expm1) NG_VM1(log) NG_VM1(log2) NG_VM1(log10) NG_VM1(log1p)\n" \
"NG_VM1(cbrt) NG_VM1(erf) NG_VM1(erfc) NG_VM2(pow) NG_VM2(atan2) NG_VM2(hypot)\n" \
"#define NG_VM_SIMD _Pragma(\"omp simd\")\n" \
"#else\n" \
"#define NG_VM_SIMD\n" \
"#endif\n"

/* Integer floor division, modulo and fmod by a divisor the loop does not change (a kernel's
 * scalar parameter; C target): the emitter writes `ng_divs_<S> ng_dv<p> = ng_divprep_<S>(s<p>)`
 * once before the loops and ng_fdivs/ng_mods/ng_fmods_<S>(a, ng_dv<p>) in them, which divide
 * without a division: Granlund and Montgomery's unsigned division by an invariant (PLDI 1994,
 * fig. 4.1), in W, the unsigned type of N bits (16 for 8-bit types: x86 has no byte multiply)
 * that holds |a| and |d|: with l = ceil(log2 d), m = floor(2^N (2^l - d) / d) + 1 (< 2^N),
 * t = the high half of m x, x / d = (t + ((x - t) >> min(l, 1))) >> max(l - 1, 0), exact for
 * every x < 2^N. The signs, branch-free (masks all ones or zero): n = |a|; where a and d differ
 * in sign and a != 0 (mask s), floor(a / d) = -ceil(n / |d|) = ~((n - 1) / |d|), so
 * x = n + s, q = (x / |d|) ^ s; the floored remainder, u = x - q |d|, is |d| - 1 - u there and
 * u elsewhere, with d's sign. d = 0 divides by 1 and masks the answer to 0 (NumPy's); d = -1
 * needs nothing (|INT_MIN| fits W; its quotient wraps to INT_MIN as NumPy's does). No select
 * in the loop tests the divisor (see NG_HELPERS: GCC unswitches on one, and the copies of an
 * OpenMP simd loop that also reduces the error flags stay scalar). The high half of a 64-bit
 * product is four 32-bit products, which vectorise (vpmuludq); an __int128 product does not. */
#define NG_C_DIVS_HELPERS \
"NG_FN uint16_t ng_mulhi_uint16_t(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }\n" \
"NG_FN uint32_t ng_mulhi_uint32_t(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }\n" \
"NG_FN uint64_t ng_mulhi_uint64_t(uint64_t a, uint64_t b) { uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;\n" \
"    uint64_t p0 = a0 * b0, p1 = a0 * b1, p2 = a1 * b0, mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;\n" \
"    return a1 * b1 + (p1 >> 32) + (p2 >> 32) + (mid >> 32); }\n" \
"#define NG_DIVS(S, T, W, SW, N, F) \\\n" \
"typedef struct { W m, p, z, one, ad, dm, k; int sh; } ng_divs_##S;\\\n" \
"NG_FN ng_divs_##S ng_divprep_##S(T b) { ng_divs_##S v; int l = 0;\\\n" \
"    v.ad = b == 0 ? (W)1 : (T)-1 < 0 && b < 0 ? (W)((W)0 - (W)b) : (W)b;\\\n" \
"    while (l < N && ((uint64_t)1 << l) < v.ad) l++;\\\n" \
"    v.m = F == 8 ? (W)(v.ad == 1 ? 0 : (65536u + v.ad - 1) / v.ad)\\\n" \
"        : (W)(((((unsigned __int128)1 << l) - v.ad) << N) / v.ad + 1);\\\n" \
"    v.sh = l > 0 ? l - 1 : 0; v.one = v.ad == 1 ? (W)-1 : 0;\\\n" \
"    v.p = F == 16 && v.sh > 0 ? (W)(1u << (16 - v.sh)) : 0; v.z = v.sh == 0 && v.ad != 1 ? (W)-1 : 0;\\\n" \
"    v.dm = (T)-1 < 0 && b < 0 ? (W)-1 : 0; v.k = b == 0 ? 0 : (W)-1; return v; }\\\n" \
"NG_FN W ng_udivs_##S(W x, W m, W p, W z, W one, int sh) { W t = ng_mulhi_##W(x, m), u = (W)(t + (W)((W)(x - t) >> 1));\\\n" \
"    if (F == 8) return (W)(t | (x & one));\\\n" \
"    if (F == 16) return (W)(ng_mulhi_##W(u, p) | (u & z) | (x & one));\\\n" \
"    return (W)(((W)(u >> sh) & (W)~one) | (x & one)); }\\\n" \
"NG_FN W ng_sgnmask_##S(T a) { return (T)-1 < 0 ? (W)((SW)a >> (N - 1)) : 0; }\\\n" \
"NG_FN T ng_fdivs_##S(T a, W m, W p, W z, W one, W ad, W dm, W k, int sh) { W sa = ng_sgnmask_##S(a), n = (W)(((W)a ^ sa) - sa);\\\n" \
"    W s = (W)(sa ^ dm), q = ng_udivs_##S((W)(n + (W)(s & (W)(ad - 1))), m, p, z, one, sh);\\\n" \
"    return (T)((W)((W)(q ^ s) - s) & k); }\\\n" \
"NG_FN T ng_mods_##S(T a, W m, W p, W z, W one, W ad, W dm, W k, int sh) { W sa = ng_sgnmask_##S(a), n = (W)(((W)a ^ sa) - sa);\\\n" \
"    W s = (W)(sa ^ dm), x = (W)(n + (W)(s & (W)(ad - 1))), q = ng_udivs_##S(x, m, p, z, one, sh);\\\n" \
"    W u = (W)(x - (W)(q * ad)), r = (W)((W)(u ^ s) + (W)(ad & s)); return (T)((W)((W)(r ^ dm) - dm) & k); }\\\n" \
"NG_FN T ng_fmods_##S(T a, W m, W p, W z, W one, W ad, W dm, W k, int sh) { W sa = ng_sgnmask_##S(a), n = (W)(((W)a ^ sa) - sa);\\\n" \
"    W q = ng_udivs_##S(n, m, p, z, one, sh), u = (W)(n - (W)(q * ad)); (void)dm; return (T)((W)((W)(u ^ sa) - sa) & k); }\n" \
"#define NG_DIVPREP(S, i) const ng_divs_##S ng_dv##i = ng_divprep_##S(s##i);\\\n" \
"    const __typeof__(ng_dv##i.m) ng_dv##i##_m = ng_dv##i.m, ng_dv##i##_p = ng_dv##i.p, ng_dv##i##_z = ng_dv##i.z,\\\n" \
"        ng_dv##i##_one = ng_dv##i.one, ng_dv##i##_ad = ng_dv##i.ad, ng_dv##i##_dm = ng_dv##i.dm, ng_dv##i##_k = ng_dv##i.k;\\\n" \
"    const int ng_dv##i##_sh = ng_dv##i.sh;\n" \
"#define NG_DV(i) ng_dv##i##_m, ng_dv##i##_p, ng_dv##i##_z, ng_dv##i##_one, ng_dv##i##_ad, ng_dv##i##_dm, ng_dv##i##_k,\\\n" \
"    ng_dv##i##_sh\n" \
"NG_DIVS(i8, int8_t, uint16_t, int16_t, 16, 8) NG_DIVS(u8, uint8_t, uint16_t, int16_t, 16, 8)\n" \
"NG_DIVS(i16, int16_t, uint16_t, int16_t, 16, 16) NG_DIVS(u16, uint16_t, uint16_t, int16_t, 16, 16)\n" \
"NG_DIVS(i32, int32_t, uint32_t, int32_t, 32, 32) NG_DIVS(u32, uint32_t, uint32_t, int32_t, 32, 32)\n" \
"NG_DIVS(i64, int64_t, uint64_t, int64_t, 64, 64) NG_DIVS(u64, uint64_t, uint64_t, int64_t, 64, 64)\n"

/* (*) NG_SIGNBIT: the sign bit read from the bits, not C's signbit, which GCC 12 fails to
 * compile ("unrecognizable insn") in a vector loop whose float came from integer bits (float16's
 * ng_h2f below). */
/* Each prologue's NG_FMOD(F, a, b) (C's fmod of the float type of math suffix F: fmod, remainder
 * and floor division are NumPy's npy_divmod around it), NG_FMAX and NG_FMIN (NumPy's fmax and fmin:
 * the number where one is NaN). GPUs: their math library's. cpu: glibc's fmod took 40-60 ns a
 * value (`a % b` 0.3-0.6x NumPy) and fmax a call GCC does not vectorise (0.1-0.3x), so
 *   ng_ffmod/ng_ffmodf: q = a / b rounded is trunc(a / b) or, where a / b lies within half an ulp
 *     below an integer, one more in magnitude (rounding is monotone, and every integer below
 *     2^52 is a double); r = a - trunc(q) * b is then fmod's result or that minus |b| with a's
 *     sign flipped, either exact (a multiple of the smaller of the two ulps below 2^53 of them,
 *     or Sterbenz's a - b), so one fma gives it and adding b with a's sign back fixes the second
 *     case; the sign of a zero is a's, as fmod's. float32 in double: its product q * b has at
 *     most 48 bits, exact without an fma. Where the quotient reaches 2^52 (2^23 for float32), a or
 *     b is not finite or b is 0: the library's fmod. double needs the fma instruction
 *     (__FMA__; else fmod throughout);
 *   NG_FMAX/NG_FMIN: two selects, which GCC vectorises; b when they are equal (+-0), as NumPy's
 *     loops of arrays (fmax(-0.0, 0.0) is 0.0, its SIMD max's);
 *   NG_FSEL(c, x, y): a select of floats by bit masks: GCC made `c ? x : y` a branch, and in
 *     remainder's scalar loop (the fmod fallback is a call) the branch on the signs of the
 *     remainder and the divisor, taken half the time, mispredicted behind the division: 25 ms
 *     for 10^6 values that took 4 with the signs alike. */
#define NG_C_FMOD_FMAX \
"#ifdef __FMA__\n" \
"static inline double ng_ffmod(double a, double b) { double q = a / b;\n" \
"    if (!(fabs(q) < 4503599627370496.0 && fabs(b) <= 1.7976931348623157e308)) return fmod(a, b);\n" \
"    q = trunc(q); double r = fma(-q, b, a); r = r != 0 && (r < 0) != (a < 0) ? r + copysign(b, a) : r;\n" \
"    return copysign(r, a); }\n" \
"#else\n" \
"#define ng_ffmod fmod\n" \
"#endif\n" \
"static inline float ng_ffmodf(float a, float b) { double q = (double)a / (double)b;\n" \
"    if (!(fabs(q) < 8388608.0 && fabsf(b) <= 3.40282346638528859812e38f)) return fmodf(a, b);\n" \
"    q = trunc(q); double r = (double)a - q * (double)b; r = r != 0 && (r < 0) != (a < 0) ? r + copysign((double)b, (double)a) : r;\n" \
"    return copysignf((float)r, a); }\n" \
"#define NG_FMOD(F, a, b) ng_ffmod##F(a, b)\n" \
"static inline double ng_fsel(int c, double x, double y) { uint64_t m = 0 - (uint64_t)(c != 0);\n" \
"    return ng_as_f64((ng_as_u64(x) & m) | (ng_as_u64(y) & ~m)); }\n" \
"static inline float ng_fself(int c, float x, float y) { uint32_t m = 0 - (uint32_t)(c != 0);\n" \
"    return ng_as_f32((ng_as_u32(x) & m) | (ng_as_u32(y) & ~m)); }\n" \
"#define NG_FSEL(c, x, y) _Generic((x), float: ng_fself, default: ng_fsel)(c, x, y)\n" \
"#define NG_FMAX(F, a, b) ((b) != (b) ? (a) : (a) > (b) ? (a) : (b))\n" \
"#define NG_FMIN(F, a, b) ((b) != (b) ? (a) : (a) < (b) ? (a) : (b))\n"

#define NG_GPU_FMOD_FMAX \
"#define NG_FMOD(F, a, b) NG_MATH(fmod, F)(a, b)\n" \
"#define NG_FSEL(c, x, y) ((c) ? (x) : (y))\n" \
"#define NG_FMAX(F, a, b) NG_MATH(fmax, F)(a, b)\n" \
"#define NG_FMIN(F, a, b) NG_MATH(fmin, F)(a, b)\n"

#define NG_C_PROLOGUE \
"#include <stdint.h>\n" \
"#include <math.h>\n" \
NG_C_VECTOR_MATH \
"#define NG_HAVE_F64 1\n" \
"#define NG_U64(x) x##ULL\n" \
"static inline uint32_t ng_as_u32(float f) { union { float f; uint32_t u; } v; v.f = f; return v.u; }\n" \
"static inline float ng_as_f32(uint32_t u) { union { float f; uint32_t u; } v; v.u = u; return v.f; }\n" \
"static inline uint64_t ng_as_u64(double d) { union { double d; uint64_t u; } v; v.d = d; return v.u; }\n" \
"static inline double ng_as_f64(uint64_t u) { union { double d; uint64_t u; } v; v.u = u; return v.d; }\n" \
"typedef union { void *p; int64_t i; double f; } NgKArg;\n" \
"#define NG_PAR_MIN_WORK 32768\n" \
"#if defined(__GNUC__) && !defined(__clang__)\n" \
"#define NG_NO_IFCVT __attribute__((optimize(\"no-tree-loop-if-convert\")))\n" \
"#else\n" \
"#define NG_NO_IFCVT\n" \
"#endif\n" \
"#define NG_FN static inline\n" \
"#define NG_MATH(fn, F) fn##F\n" \
"#define NG_WIDEST_FLOAT double\n" \
"#define NG_SIGNBIT(a) _Generic((a), float: ng_as_u32(a) >> 31, default: ng_as_u64(a) >> 63)\n" /* (*) */ \
"#define NG_CTZ32(x) __builtin_ctz(x)\n" \
"#define NG_CTZ64(x) __builtin_ctzll(x)\n" \
"#define NG_POPCNT64(x) __builtin_popcountll(x)\n" \
"#define NG_PRAGMA(x) _Pragma(#x)\n" \
"#define NG_OMP_MINMAX(S, T) \\\n" \
"NG_PRAGMA(omp declare reduction(ngmax_##S : T : omp_out = ng_max_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmin_##S : T : omp_out = ng_min_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\n" \
"#define NG_INT_EXTRA(S, T) NG_OMP_MINMAX(S, T)\n" \
"#define NG_FLOAT_EXTRA(S, T) NG_OMP_MINMAX(S, T)\n" \
"#define NG_QUOT(S, T, a, b) (ng_f64ok_##S(a) && ng_f64ok_##S(b) ? (T)((double)(a) / (double)(b)) : ng_iquot_##S(a, b))\n" \
NG_C_FMOD_FMAX \
NG_HELPERS \
NG_C_DIVS_HELPERS \
"NG_FLOAT_HELPERS(f64, double, )\n" \
"NG_FN double ng_i0_f64(double a) { return ng_i0s_f64(a); }\n" \
"NG_BITS_HELPERS(f64, double, uint64_t, ng_as_u64, ng_as_f64, 52, 0x7ff, 1023)\n"

#define NG_C_COMPLEX_PROLOGUE \
"#include <complex.h>\n" \
"#undef I\n" \
"typedef struct { float re, im; } ng_c64;\n" \
"typedef struct { double re, im; } ng_c128;\n" \
NG_COMPLEX_SRC \
NG_LIBC_COMPLEX_SRC \
"NG_COMPLEX_HELPERS(c64, ng_c64, float, f)\n" \
"NG_COMPLEX_HELPERS(c128, ng_c128, double, )\n" \
"NG_LIBC_COMPLEX(c64, ng_c64, float, float _Complex, f)\n" \
"NG_LIBC_COMPLEX(c128, ng_c128, double, double _Complex, )\n" \
"NG_COMPLEX_NUMPY(c64, ng_c64, float, f)\n" \
"NG_COMPLEX_NUMPY(c128, ng_c128, double, )\n" \
"#define NG_OMP_COMPLEX(S, T) \\\n" \
"NG_PRAGMA(omp declare reduction(ngadd_##S : T : omp_out = ng_add_##S(omp_out, omp_in)) initializer(omp_priv = ng_cpack_##S(0, 0)))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmul_##S : T : omp_out = ng_multiply_##S(omp_out, omp_in)) initializer(omp_priv = ng_cpack_##S(1, 0)))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmax_##S : T : omp_out = ng_maximum_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmin_##S : T : omp_out = ng_minimum_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\n" \
"NG_OMP_COMPLEX(c64, ng_c64)\n" \
"NG_OMP_COMPLEX(c128, ng_c128)\n"

#define NG_CUDA_PROLOGUE \
"typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long long int64_t;\n" \
"typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n" \
"typedef unsigned long long uint64_t;\n" \
"#define NG_FN static __device__ __forceinline__\n" \
"#define NG_HAVE_F64 1\n" \
"#define NG_U64(x) x##ULL\n" \
"#define ng_as_u32(f) __float_as_uint(f)\n" \
"#define ng_as_f32(u) __uint_as_float(u)\n" \
"#define ng_as_u64(d) ((uint64_t)__double_as_longlong(d))\n" \
"#define ng_as_f64(u) __longlong_as_double((long long)(u))\n" \
"#define NG_MATH(fn, F) fn##F\n" \
"#define NG_WIDEST_FLOAT double\n" \
"#define NG_SIGNBIT(a) signbit(a)\n" \
"#define NG_CTZ32(x) (__ffs((int)(x)) - 1)\n" \
"#define NG_CTZ64(x) (__ffsll((long long)(x)) - 1)\n" \
"#define NG_POPCNT64(x) __popcll(x)\n" \
"#define NG_INT_EXTRA(S, T)\n" \
"#define NG_FLOAT_EXTRA(S, T)\n" \
"#define NG_QUOT(S, T, a, b) ng_iquot_##S(a, b)\n" \
NG_GPU_FMOD_FMAX \
NG_HELPERS \
"NG_FLOAT_HELPERS(f64, double, )\n" \
"NG_FN double ng_i0_f64(double a) { return ng_i0s_f64(a); }\n" \
"NG_BITS_HELPERS(f64, double, uint64_t, ng_as_u64, ng_as_f64, 52, 0x7ff, 1023)\n"

#define NG_CUDA_COMPLEX_PROLOGUE \
NG_COMPLEX_SRC \
NG_GPU_COMPLEX_F64

#define NG_OPENCL_PROLOGUE \
"#pragma OPENCL FP_CONTRACT OFF\n" \
"typedef char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;\n" \
"typedef uchar uint8_t; typedef ushort uint16_t; typedef uint uint32_t; typedef ulong uint64_t;\n" \
"#define NG_U64(x) x##UL\n" \
"#define ng_as_u32(f) as_uint(f)\n" \
"#define ng_as_f32(u) as_float(u)\n" \
"#ifdef cl_khr_fp64\n" \
"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" \
"#define NG_HAVE_F64 1\n" \
"#define ng_as_u64(d) as_ulong(d)\n" \
"#define ng_as_f64(u) as_double((ulong)(u))\n" \
"#define NG_WIDEST_FLOAT double\n" \
"#else\n" \
"#define NG_WIDEST_FLOAT float\n" \
"#endif\n" \
"#define NG_FN static inline\n" \
"#define NG_MATH(fn, F) fn\n" \
"#define NG_SIGNBIT(a) signbit(a)\n" \
"#define NG_CTZ32(x) ((int)popcount(((x) & (0 - (x))) - 1))\n" \
"#define NG_CTZ64(x) ((int)popcount(((x) & (0 - (x))) - 1))\n" \
"#define NG_POPCNT64(x) ((int)popcount((ulong)(x)))\n" \
"#define NG_INT_EXTRA(S, T)\n" \
"#define NG_FLOAT_EXTRA(S, T)\n" \
"#define NG_QUOT(S, T, a, b) ng_iquot_##S(a, b)\n" \
NG_GPU_FMOD_FMAX \
NG_HELPERS \
"#ifdef cl_khr_fp64\n" \
"NG_FLOAT_HELPERS(f64, double, )\n" \
"NG_FN double ng_i0_f64(double a) { return ng_i0s_f64(a); }\n" \
"NG_BITS_HELPERS(f64, double, uint64_t, ng_as_u64, ng_as_f64, 52, 0x7ff, 1023)\n" \
"#endif\n"

#define NG_OPENCL_COMPLEX_PROLOGUE \
NG_COMPLEX_SRC \
"#ifdef cl_khr_fp64\n" \
NG_GPU_COMPLEX_F64 \
"#else\n" \
"typedef struct { float re, im; } ng_c64;\n" \
"NG_COMPLEX_HELPERS(c64, ng_c64, float, )\n" \
"NG_COMPLEX_MATH(c64, ng_c64, float, , 0.1f, 1e15f, 9)\n" \
"NG_COMPLEX_NUMPY(c64, ng_c64, float, )\n" \
"#endif\n"

#define FIXED_WIDTH_NAMES \
    [NG_BOOL] = "uint8_t", [NG_INT8] = "int8_t", [NG_INT16] = "int16_t", [NG_INT32] = "int32_t", \
    [NG_INT64] = "int64_t", [NG_UINT8] = "uint8_t", [NG_UINT16] = "uint16_t", \
    [NG_UINT32] = "uint32_t", [NG_UINT64] = "uint64_t", [NG_FLOAT16] = "uint16_t", [NG_FLOAT32] = "float", \
    [NG_FLOAT64] = "double", [NG_COMPLEX64] = "ng_c64", [NG_COMPLEX128] = "ng_c128"

const NgTarget ng_target_c = {
    .name = "c",
    .type_names = {FIXED_WIDTH_NAMES},
    .prologue = NG_C_PROLOGUE,
    .half_prologue = NG_C_HALF_PROLOGUE,
    .complex_prologue = NG_C_COMPLEX_PROLOGUE,
    .lanes_prologue = NG_C_LANES_PROLOGUE,
    .global_ptr = "",
    .kernel_head = "void ",
    .table_head = "static const ",
    .float_suffix = true,
    .packed_args = true,
    .par = NG_PAR_OPENMP,
    .int64_suffix = "LL",
    .invariant_divisors = true,
};

const NgTarget ng_target_cuda = {
    .name = "cuda",
    .type_names = {FIXED_WIDTH_NAMES},
    .prologue = NG_CUDA_PROLOGUE,
    .half_prologue = NG_HALF_PROLOGUE,
    .complex_prologue = NG_CUDA_COMPLEX_PROLOGUE,
    .global_ptr = "",
    .kernel_head = "extern \"C\" __global__ void ",
    .table_head = "static __device__ const ",
    .float_suffix = true,
    .packed_args = false,
    .par = NG_PAR_GRID_STRIDE,
    .int64_suffix = "LL",
};

const NgTarget ng_target_opencl = {
    .name = "opencl",
    .type_names = {FIXED_WIDTH_NAMES},
    .prologue = NG_OPENCL_PROLOGUE,
    .half_prologue = NG_HALF_PROLOGUE,
    .complex_prologue = NG_OPENCL_COMPLEX_PROLOGUE,
    .global_ptr = "__global ",
    .kernel_head = "__kernel void ",
    .table_head = "__constant ",
    .float_suffix = false,
    .packed_args = false,
    .par = NG_PAR_GLOBAL_ID,
    .int64_suffix = "L",
};
