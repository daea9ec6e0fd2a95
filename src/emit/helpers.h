/* Helper source that the target prologues (targets.c) share, kept apart
 * because it is long: float16 conversions, and complex arithmetic and math.
 *
 * float16 values are stored as their 16 bits and computed in float: a load
 * is ng_h2f, a store ng_f2h (round to nearest even, as NumPy), and each
 * float16 result is rounded back to half precision (ng_rh), so every op
 * rounds as NumPy's float16 loops do. ng_d2h rounds a double directly.
 *
 * Complex values are structs {re, im} (ng_c64, ng_c128), the layout of
 * NumPy's complex64/complex128 elements. Every complex op is a helper named
 * ng_<NumPy ufunc name>_<c64|c128> (ng_add_c128, ng_arcsinh_c64, ...):
 *   NG_COMPLEX_HELPERS  arithmetic, comparisons (NumPy's lexicographic
 *                       order), NaN-aware maximum/minimum, sign, reciprocal
 *   NG_COMPLEX_NUMPY    log1p, expm1, exp2, log2, log10 and power by NumPy's
 *                       own formulas (its loops do not call the C library)
 *   NG_COMPLEX_MATH     exp, log, sqrt, trigonometric, hyperbolic and their
 *                       inverses, for GPU targets (principal branches as
 *                       C99 Annex G); complex64 goes through complex128
 *                       where the target has double (NG_COMPLEX_MATH_C64_WIDE)
 *   NG_LIBC_COMPLEX     the same through <complex.h> on the C target, which
 *                       is what NumPy's own loops call
 * Each prologue defines ng_as_u32/ng_as_f32/ng_as_u64 (bit casts), NG_U64
 * (64-bit literals), NG_HAVE_F64 where double exists, and the two structs,
 * then instantiates the macros. */
#ifndef NUMGPU_EMIT_HELPERS_H
#define NUMGPU_EMIT_HELPERS_H

#define NG_HALF_SRC \
"#ifndef NG_HW_HALF\n" \
"NG_FN float ng_h2f(uint16_t h)\n" \
"{\n" \
"    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = ((uint32_t)h >> 10) & 0x1fu, m = (uint32_t)h & 0x3ffu;\n" \
"    if (e == 0x1fu)\n" \
"        return ng_as_f32(s | 0x7f800000u | (m << 13));\n" \
"    if (e == 0u) {\n" \
"        float v = (float)m * 5.9604644775390625e-08f;\n" \
"        return s ? -v : v;\n" \
"    }\n" \
"    return ng_as_f32(s | ((e + 112u) << 23) | (m << 13));\n" \
"}\n" \
"NG_FN uint16_t ng_f2h(float f)\n" \
"{\n" \
"    uint32_t x = ng_as_u32(f), s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu, q, rem, hw;\n" \
"    if (a >= 0x7f800000u) {\n" \
"        if (a == 0x7f800000u)\n" \
"            return (uint16_t)(s | 0x7c00u);\n" \
"        q = 0x7c00u + ((a & 0x7fffffu) >> 13);\n" \
"        return (uint16_t)(s | (q == 0x7c00u ? q + 1u : q));\n" \
"    }\n" \
"    if (a >= 0x477ff000u)\n" \
"        return (uint16_t)(s | 0x7c00u);\n" \
"    if (a < 0x38800000u) {\n" \
"        if (a <= 0x33000000u)\n" \
"            return (uint16_t)s;\n" \
"        uint32_t sh = 126u - (a >> 23), m = (a & 0x7fffffu) | 0x800000u;\n" \
"        q = m >> sh;\n" \
"        rem = m & ((1u << sh) - 1u);\n" \
"        hw = 1u << (sh - 1u);\n" \
"    } else {\n" \
"        q = (a - 0x38000000u) >> 13;\n" \
"        rem = a & 0x1fffu;\n" \
"        hw = 0x1000u;\n" \
"    }\n" \
"    if (rem > hw || (rem == hw && (q & 1u)))\n" \
"        q++;\n" \
"    return (uint16_t)(s | q);\n" \
"}\n" \
"#endif\n" \
"NG_FN float ng_rh(float f) { return ng_h2f(ng_f2h(f)); }\n" \
"NG_FN float ng_nextafter_h16(float a, float b)\n" \
"{\n" \
"    if (a != a || b != b)\n" \
"        return a + b;\n" \
"    if (a == b) /* NumPy's float16 nextafter returns x here (C's returns y) */\n" \
"        return a;\n" \
"    if (a == 0)\n" \
"        return ng_h2f(b > 0 ? (uint16_t)1u : (uint16_t)0x8001u);\n" \
"    uint16_t h = ng_f2h(a);\n" \
"    return ng_h2f((uint16_t)(((a < b) == (a > 0)) ? h + 1u : h - 1u));\n" \
"}\n" \
"#if defined(NG_HAVE_F64) && !defined(NG_HW_HALF)\n" \
"NG_FN uint16_t ng_d2h(double d)\n" \
"{\n" \
"    uint64_t x = ng_as_u64(d), a = x & NG_U64(0x7fffffffffffffff), q, rem, hw;\n" \
"    uint32_t s = (uint32_t)(x >> 48) & 0x8000u;\n" \
"    if (a >= NG_U64(0x7ff0000000000000)) {\n" \
"        if (a == NG_U64(0x7ff0000000000000))\n" \
"            return (uint16_t)(s | 0x7c00u);\n" \
"        q = 0x7c00u + ((a & NG_U64(0xfffffffffffff)) >> 42);\n" \
"        return (uint16_t)(s | (q == 0x7c00u ? q + 1u : q));\n" \
"    }\n" \
"    if (a >= NG_U64(0x40effe0000000000))\n" \
"        return (uint16_t)(s | 0x7c00u);\n" \
"    if (a < NG_U64(0x3f10000000000000)) {\n" \
"        if (a <= NG_U64(0x3e60000000000000))\n" \
"            return (uint16_t)s;\n" \
"        uint64_t sh = 1051u - (a >> 52), m = (a & NG_U64(0xfffffffffffff)) | NG_U64(0x10000000000000);\n" \
"        q = m >> sh;\n" \
"        rem = m & ((NG_U64(1) << sh) - 1u);\n" \
"        hw = NG_U64(1) << (sh - 1u);\n" \
"    } else {\n" \
"        q = (a - NG_U64(0x3f00000000000000)) >> 42;\n" \
"        rem = a & NG_U64(0x3ffffffffff);\n" \
"        hw = NG_U64(0x20000000000);\n" \
"    }\n" \
"    if (rem > hw || (rem == hw && (q & 1u)))\n" \
"        q++;\n" \
"    return (uint16_t)(s | (uint32_t)q);\n" \
"}\n" \
"#endif\n"

#define NG_COMPLEX_SRC \
"#define NG_COMPLEX_HELPERS(S, T, R, F) \\\n" \
"NG_FN T ng_cpack_##S(R re, R im) { T z; z.re = re; z.im = im; return z; } \\\n" \
"NG_FN int ng_nz_##S(T a) { return a.re != 0 || a.im != 0; } \\\n" \
"NG_FN T ng_add_##S(T a, T b) { return ng_cpack_##S(a.re + b.re, a.im + b.im); } \\\n" \
"NG_FN T ng_subtract_##S(T a, T b) { return ng_cpack_##S(a.re - b.re, a.im - b.im); } \\\n" \
"NG_FN T ng_multiply_##S(T a, T b) { return ng_cpack_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); } \\\n" \
"NG_FN T ng_divide_##S(T a, T b) \\\n" \
"{ \\\n" \
"    R br = NG_MATH(fabs, F)(b.re), bi = NG_MATH(fabs, F)(b.im); \\\n" \
"    if (br >= bi) { \\\n" \
"        if (br == 0 && bi == 0) \\\n" \
"            return ng_cpack_##S(a.re / br, a.im / br); \\\n" \
"        R rat = b.im / b.re, scl = (R)1 / (b.re + b.im * rat); \\\n" \
"        return ng_cpack_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl); \\\n" \
"    } \\\n" \
"    R rat = b.re / b.im, scl = (R)1 / (b.im + b.re * rat); \\\n" \
"    return ng_cpack_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl); \\\n" \
"} \\\n" \
"NG_FN T ng_negative_##S(T a) { return ng_cpack_##S(-a.re, -a.im); } \\\n" \
"NG_FN T ng_positive_##S(T a) { return a; } \\\n" \
"NG_FN T ng_conjugate_##S(T a) { return ng_cpack_##S(a.re, -a.im); } \\\n" \
"NG_FN R ng_absolute_##S(T a) { return NG_MATH(hypot, F)(a.re, a.im); } \\\n" \
"NG_FN int ng_equal_##S(T a, T b) { return a.re == b.re && a.im == b.im; } \\\n" \
"NG_FN int ng_not_equal_##S(T a, T b) { return a.re != b.re || a.im != b.im; } \\\n" \
"NG_FN int ng_less_##S(T a, T b) { return a.re < b.re || (a.re == b.re && a.im < b.im); } \\\n" \
"NG_FN int ng_less_equal_##S(T a, T b) { return a.re < b.re || (a.re == b.re && a.im <= b.im); } \\\n" \
"NG_FN int ng_greater_##S(T a, T b) { return a.re > b.re || (a.re == b.re && a.im > b.im); } \\\n" \
"NG_FN int ng_greater_equal_##S(T a, T b) { return a.re > b.re || (a.re == b.re && a.im >= b.im); } \\\n" \
"NG_FN int ng_logical_and_##S(T a, T b) { return ng_nz_##S(a) && ng_nz_##S(b); } \\\n" \
"NG_FN int ng_logical_or_##S(T a, T b) { return ng_nz_##S(a) || ng_nz_##S(b); } \\\n" \
"NG_FN int ng_logical_xor_##S(T a, T b) { return ng_nz_##S(a) != ng_nz_##S(b); } \\\n" \
"NG_FN int ng_logical_not_##S(T a) { return !ng_nz_##S(a); } \\\n" \
"NG_FN int ng_isnan_##S(T a) { return a.re != a.re || a.im != a.im; } \\\n" \
"NG_FN int ng_isinf_##S(T a) { return isinf(a.re) || isinf(a.im); } \\\n" \
"NG_FN int ng_isfinite_##S(T a) { return isfinite(a.re) && isfinite(a.im); } \\\n" \
"/* NaN in either part of either operand propagates (maximum) or loses (fmax), as NumPy's CGE/CLE */ \\\n" \
"NG_FN T ng_maximum_##S(T a, T b) { return (ng_isnan_##S(a) || (!ng_isnan_##S(b) && ng_greater_equal_##S(a, b))) ? a : b; } \\\n" \
"NG_FN T ng_minimum_##S(T a, T b) { return (ng_isnan_##S(a) || (!ng_isnan_##S(b) && ng_less_equal_##S(a, b))) ? a : b; } \\\n" \
"NG_FN T ng_fmax_##S(T a, T b) { return (ng_isnan_##S(b) || (!ng_isnan_##S(a) && ng_greater_equal_##S(a, b))) ? a : b; } \\\n" \
"NG_FN T ng_fmin_##S(T a, T b) { return (ng_isnan_##S(b) || (!ng_isnan_##S(a) && ng_less_equal_##S(a, b))) ? a : b; } \\\n" \
"NG_FN T ng_square_##S(T a) { return ng_multiply_##S(a, a); } \\\n" \
"NG_FN T ng_reciprocal_##S(T a) \\\n" \
"{ \\\n" \
"    if (NG_MATH(fabs, F)(a.im) <= NG_MATH(fabs, F)(a.re)) { \\\n" \
"        R r = a.im / a.re, d = a.re + a.im * r; \\\n" \
"        return ng_cpack_##S((R)1 / d, -r / d); \\\n" \
"    } \\\n" \
"    R r = a.re / a.im, d = a.re * r + a.im; \\\n" \
"    return ng_cpack_##S(r / d, (R)-1 / d); \\\n" \
"} \\\n" \
"NG_FN T ng_sign_##S(T a) \\\n" \
"{ \\\n" \
"    R m = NG_MATH(hypot, F)(a.re, a.im); \\\n" \
"    if (m != m) \\\n" \
"        return ng_cpack_##S(m, m); \\\n" \
"    if (isinf(m)) { \\\n" \
"        if (isinf(a.re)) \\\n" \
"            return isinf(a.im) ? ng_cpack_##S(m - m, m - m) : ng_cpack_##S(a.re > 0 ? (R)1 : (R)-1, (R)0); \\\n" \
"        return ng_cpack_##S((R)0, a.im > 0 ? (R)1 : (R)-1); \\\n" \
"    } \\\n" \
"    if (m == 0) \\\n" \
"        return ng_cpack_##S((R)0, (R)0); \\\n" \
"    return ng_cpack_##S(a.re / m, a.im / m); \\\n" \
"} \\\n" \
"NG_FN T ng_rint_##S(T a) { return ng_cpack_##S(NG_MATH(rint, F)(a.re), NG_MATH(rint, F)(a.im)); } \\\n" \
"NG_FN T ng_cquot_##S(T a, T b) \\\n" \
"{ \\\n" \
"    R br = NG_MATH(fabs, F)(b.re), bi = NG_MATH(fabs, F)(b.im); \\\n" \
"    if (br >= bi) { \\\n" \
"        if (br == 0 && bi == 0) \\\n" \
"            return ng_cpack_##S(a.re / br, a.im / bi); \\\n" \
"        R rat = b.im / b.re, scl = (R)1 / (b.re + b.im * rat); \\\n" \
"        return ng_cpack_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl); \\\n" \
"    } \\\n" \
"    R rat = b.re / b.im, scl = (R)1 / (b.im + b.re * rat); \\\n" \
"    return ng_cpack_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl); \\\n" \
"}\n" \
"\n" \
"/* NumPy's own formulas (its complex loops do not call the C library for these) */\n" \
"#define NG_COMPLEX_NUMPY(S, T, R, F) \\\n" \
"NG_FN T ng_log1p_##S(T a) \\\n" \
"{ \\\n" \
"    return ng_cpack_##S(NG_MATH(log, F)(NG_MATH(hypot, F)(a.re + 1, a.im)), NG_MATH(atan2, F)(a.im, a.re + 1)); \\\n" \
"} \\\n" \
"NG_FN T ng_expm1_##S(T a) \\\n" \
"{ \\\n" \
"    if (!isfinite(a.re) || !isfinite(a.im) || (a.re == 0 && a.im == 0)) { /* the standard's special values */ \\\n" \
"        T w = ng_exp_##S(a); \\\n" \
"        return ng_cpack_##S(w.re - 1, w.im); \\\n" \
"    } \\\n" \
"    R h = NG_MATH(sin, F)(a.im / 2); \\\n" \
"    return ng_cpack_##S(NG_MATH(expm1, F)(a.re) * NG_MATH(cos, F)(a.im) - 2 * h * h, \\\n" \
"                        NG_MATH(exp, F)(a.re) * NG_MATH(sin, F)(a.im)); \\\n" \
"} \\\n" \
"NG_FN T ng_exp2_##S(T a) \\\n" \
"{ \\\n" \
"    const R l = (R)0.693147180559945309417232121458176568; \\\n" \
"    return ng_exp_##S(ng_cpack_##S(a.re * l, a.im * l)); \\\n" \
"} \\\n" \
"NG_FN T ng_log2_##S(T a) \\\n" \
"{ \\\n" \
"    const R l = (R)1.442695040888963407359924681001892137; \\\n" \
"    T z = ng_log_##S(a); \\\n" \
"    return ng_cpack_##S(z.re * l, z.im * l); \\\n" \
"} \\\n" \
"NG_FN T ng_log10_##S(T a) \\\n" \
"{ \\\n" \
"    const R l = (R)0.434294481903251827651128918916605082; \\\n" \
"    T z = ng_log_##S(a); \\\n" \
"    return ng_cpack_##S(z.re * l, z.im * l); \\\n" \
"} \\\n" \
"NG_FN T ng_power_##S(T a, T b) \\\n" \
"{ \\\n" \
"    if (b.re == 0 && b.im == 0) \\\n" \
"        return ng_cpack_##S((R)1, (R)0); \\\n" \
"    if (a.re == 0 && a.im == 0) { \\\n" \
"        if (b.re > 0) \\\n" \
"            return ng_cpack_##S((R)0, (R)0); \\\n" \
"        R z = (R)0; \\\n" \
"        return ng_cpack_##S(z / z, z / z); \\\n" \
"    } \\\n" \
"    if (b.im == 0 && b.re >= -100 && b.re <= 100 && (R)(int)b.re == b.re) { \\\n" \
"        int n = (int)b.re; \\\n" \
"        if (n == 1) \\\n" \
"            return a; \\\n" \
"        if (n == 2) \\\n" \
"            return ng_multiply_##S(a, a); \\\n" \
"        if (n == 3) \\\n" \
"            return ng_multiply_##S(a, ng_multiply_##S(a, a)); \\\n" \
"        if (n > -100 && n < 100) { \\\n" \
"            T acc = ng_cpack_##S((R)1, (R)0), p = a; \\\n" \
"            int m = n < 0 ? -n : n; \\\n" \
"            for (int bit = 1;; bit <<= 1) { \\\n" \
"                if (m & bit) \\\n" \
"                    acc = ng_multiply_##S(acc, p); \\\n" \
"                if (m < (bit << 1)) \\\n" \
"                    break; \\\n" \
"                p = ng_multiply_##S(p, p); \\\n" \
"            } \\\n" \
"            return n < 0 ? ng_cquot_##S(ng_cpack_##S((R)1, (R)0), acc) : acc; \\\n" \
"        } \\\n" \
"    } \\\n" \
"    return ng_cpow_##S(a, b); \\\n" \
"}\n" \
"\n" \
"/* exp, log, sqrt, trigonometric and hyperbolic functions and their\n" \
" * inverses, for targets without a C99 complex library (GPUs): principal\n" \
" * branches as C99 Annex G; `small` and `big` bound |z| where the series\n" \
" * near 0 and the asymptotic forms take over. */\n" \
"#define NG_COMPLEX_MATH(S, T, R, F, SMALL, BIG, TANH_BIG) \\\n" \
"NG_FN T ng_exp_##S(T a) \\\n" \
"{ \\\n" \
"    R r = NG_MATH(exp, F)(a.re); \\\n" \
"    if (a.im == 0) \\\n" \
"        return ng_cpack_##S(r, a.im); \\\n" \
"    if (isinf(a.re) && !isfinite(a.im)) /* Annex G: (-inf, inf or nan) -> 0, (+inf, ...) -> (inf, nan) */ \\\n" \
"        return a.re < 0 ? ng_cpack_##S((R)0, (R)0) : ng_cpack_##S(a.re, a.im - a.im); \\\n" \
"    return ng_cpack_##S(r * NG_MATH(cos, F)(a.im), r * NG_MATH(sin, F)(a.im)); \\\n" \
"} \\\n" \
"NG_FN T ng_log_##S(T a) \\\n" \
"{ \\\n" \
"    R h = NG_MATH(hypot, F)(a.re, a.im), x = NG_MATH(fabs, F)(a.re); \\\n" \
"    R lr = (h > (R)0.75 && h < (R)1.5 && x >= (R)0.5 && x <= (R)2) \\\n" \
"               ? (R)0.5 * NG_MATH(log1p, F)((x - 1) * (x + 1) + a.im * a.im) : NG_MATH(log, F)(h); \\\n" \
"    return ng_cpack_##S(lr, NG_MATH(atan2, F)(a.im, a.re)); \\\n" \
"} \\\n" \
"NG_FN T ng_sqrt_##S(T a) \\\n" \
"{ \\\n" \
"    if (a.re == 0 && a.im == 0) \\\n" \
"        return ng_cpack_##S((R)0, a.im); \\\n" \
"    if (isinf(a.im)) \\\n" \
"        return ng_cpack_##S(NG_MATH(fabs, F)(a.im), a.im); \\\n" \
"    R t = NG_MATH(sqrt, F)((NG_MATH(fabs, F)(a.re) + NG_MATH(hypot, F)(a.re, a.im)) * (R)0.5); \\\n" \
"    if (a.re >= 0) \\\n" \
"        return ng_cpack_##S(t, a.im / (2 * t)); \\\n" \
"    return ng_cpack_##S(NG_MATH(fabs, F)(a.im) / (2 * t), NG_MATH(copysign, F)(t, a.im)); \\\n" \
"} \\\n" \
"NG_FN T ng_cpow_##S(T a, T b) { return ng_exp_##S(ng_multiply_##S(b, ng_log_##S(a))); } \\\n" \
"NG_FN T ng_sinh_##S(T a) \\\n" \
"{ \\\n" \
"    if (a.im == 0) \\\n" \
"        return ng_cpack_##S(NG_MATH(sinh, F)(a.re), a.im); \\\n" \
"    if ((a.re == 0 || isinf(a.re)) && !isfinite(a.im)) /* Annex G: (0 or inf, inf or nan) -> (x, nan) */ \\\n" \
"        return ng_cpack_##S(a.re, a.im - a.im); \\\n" \
"    return ng_cpack_##S(NG_MATH(sinh, F)(a.re) * NG_MATH(cos, F)(a.im), NG_MATH(cosh, F)(a.re) * NG_MATH(sin, F)(a.im)); \\\n" \
"} \\\n" \
"NG_FN T ng_cosh_##S(T a) \\\n" \
"{ \\\n" \
"    if (a.im == 0) \\\n" \
"        return ng_cpack_##S(NG_MATH(cosh, F)(a.re), NG_MATH(copysign, F)((R)0, a.re) * a.im); \\\n" \
"    if (a.re == 0 && !isfinite(a.im)) /* Annex G: (0, inf or nan) -> (nan, 0); (inf, ...) -> (inf, nan) */ \\\n" \
"        return ng_cpack_##S(a.im - a.im, (R)0); \\\n" \
"    if (isinf(a.re) && !isfinite(a.im)) \\\n" \
"        return ng_cpack_##S(NG_MATH(fabs, F)(a.re), a.im - a.im); \\\n" \
"    return ng_cpack_##S(NG_MATH(cosh, F)(a.re) * NG_MATH(cos, F)(a.im), NG_MATH(sinh, F)(a.re) * NG_MATH(sin, F)(a.im)); \\\n" \
"} \\\n" \
"NG_FN T ng_tanh_##S(T a) \\\n" \
"{ \\\n" \
"    if (isinf(a.re)) /* the standard: (+-inf, y) -> (+-1, 0 with y's sign) */ \\\n" \
"        return ng_cpack_##S(NG_MATH(copysign, F)((R)1, a.re), NG_MATH(copysign, F)((R)0, a.im)); \\\n" \
"    if (a.im == 0) \\\n" \
"        return ng_cpack_##S(NG_MATH(tanh, F)(a.re), a.im); \\\n" \
"    if (a.re == 0 && !isfinite(a.im)) \\\n" \
"        return ng_cpack_##S(a.re, a.im - a.im); \\\n" \
"    if (NG_MATH(fabs, F)(a.re) > (R)TANH_BIG) { \\\n" \
"        R e = NG_MATH(exp, F)(-2 * NG_MATH(fabs, F)(a.re)); \\\n" \
"        return ng_cpack_##S(NG_MATH(copysign, F)((R)1, a.re), 4 * NG_MATH(sin, F)(a.im) * NG_MATH(cos, F)(a.im) * e); \\\n" \
"    } \\\n" \
"    R t = NG_MATH(tan, F)(a.im), b = 1 + t * t, s = NG_MATH(sinh, F)(a.re); \\\n" \
"    R rho = NG_MATH(sqrt, F)(1 + s * s), d = 1 + b * s * s; \\\n" \
"    return ng_cpack_##S(b * rho * s / d, t / d); \\\n" \
"} \\\n" \
"NG_FN T ng_sin_##S(T a) { T w = ng_sinh_##S(ng_cpack_##S(-a.im, a.re)); return ng_cpack_##S(w.im, -w.re); } \\\n" \
"NG_FN T ng_cos_##S(T a) { return ng_cosh_##S(ng_cpack_##S(-a.im, a.re)); } \\\n" \
"NG_FN T ng_tan_##S(T a) { T w = ng_tanh_##S(ng_cpack_##S(-a.im, a.re)); return ng_cpack_##S(w.im, -w.re); } \\\n" \
"NG_FN T ng_arcsinh_##S(T a) \\\n" \
"{ \\\n" \
"    const R inf = (R)1 / (R)0, pi2 = (R)1.570796326794896619231321691639751442; \\\n" \
"    if (isinf(a.im)) /* Annex G's infinities and NaNs */ \\\n" \
"        return a.re != a.re ? ng_cpack_##S(inf, a.re) \\\n" \
"                            : ng_cpack_##S(NG_MATH(copysign, F)(inf, a.re), NG_MATH(copysign, F)(isinf(a.re) ? pi2 / 2 : pi2, a.im)); \\\n" \
"    if (isinf(a.re)) \\\n" \
"        return ng_cpack_##S(a.re, a.im != a.im ? a.im : NG_MATH(copysign, F)((R)0, a.im)); \\\n" \
"    if (a.re != a.re || a.im != a.im) \\\n" \
"        return a.im == 0 ? a : ng_cpack_##S(a.re + a.im, a.re + a.im); \\\n" \
"    if (a.im == 0) /* the real axis, keeping the sign of the zero */ \\\n" \
"        return ng_cpack_##S(NG_MATH(asinh, F)(a.re), a.im); \\\n" \
"    int neg = a.re < 0; \\\n" \
"    T z = neg ? ng_negative_##S(a) : a, w; \\\n" \
"    R m = NG_MATH(hypot, F)(z.re, z.im); \\\n" \
"    if (m < (R)SMALL) { \\\n" \
"        T z2 = ng_multiply_##S(z, z); \\\n" \
"        T c = ng_cpack_##S(1 - z2.re / 6 + (R)0.075 * (z2.re * z2.re - z2.im * z2.im), \\\n" \
"                           -z2.im / 6 + (R)0.15 * z2.re * z2.im); \\\n" \
"        w = ng_multiply_##S(z, c); \\\n" \
"    } else if (m > (R)BIG) { \\\n" \
"        w = ng_log_##S(z); \\\n" \
"        w.re += (R)0.693147180559945309417232121458176568; \\\n" \
"    } else { \\\n" \
"        T z2 = ng_multiply_##S(z, z); \\\n" \
"        z2.re += 1; \\\n" \
"        w = ng_log_##S(ng_add_##S(z, ng_sqrt_##S(z2))); \\\n" \
"    } \\\n" \
"    return neg ? ng_negative_##S(w) : w; \\\n" \
"} \\\n" \
"NG_FN T ng_arcsin_##S(T a) \\\n" \
"{ \\\n" \
"    if (a.im == 0 && isfinite(a.re)) { /* the real axis: beyond +-1 the cut, on the side of the zero's sign */ \\\n" \
"        R ax = NG_MATH(fabs, F)(a.re); \\\n" \
"        if (ax <= 1) \\\n" \
"            return ng_cpack_##S(NG_MATH(asin, F)(a.re), a.im); \\\n" \
"        return ng_cpack_##S(NG_MATH(copysign, F)((R)1.570796326794896619231321691639751442, a.re), \\\n" \
"                            NG_MATH(copysign, F)(NG_MATH(acosh, F)(ax), a.im)); \\\n" \
"    } \\\n" \
"    T w = ng_arcsinh_##S(ng_cpack_##S(-a.im, a.re)); \\\n" \
"    return ng_cpack_##S(w.im, -w.re); \\\n" \
"} \\\n" \
"NG_FN T ng_arccos_##S(T a) \\\n" \
"{ \\\n" \
"    const R inf = (R)1 / (R)0, pi2 = (R)1.570796326794896619231321691639751442; \\\n" \
"    if (isinf(a.im)) /* Annex G's infinities and NaNs */ \\\n" \
"        return ng_cpack_##S(a.re != a.re ? a.re : isinf(a.re) ? (a.re < 0 ? 3 * pi2 / 2 : pi2 / 2) : pi2, -a.im); \\\n" \
"    if (isinf(a.re)) \\\n" \
"        return a.im != a.im ? ng_cpack_##S(a.im, inf) : ng_cpack_##S(a.re < 0 ? 2 * pi2 : (R)0, -NG_MATH(copysign, F)(inf, a.im)); \\\n" \
"    if (a.re == 0 && (a.im == 0 || a.im != a.im)) \\\n" \
"        return ng_cpack_##S(pi2, a.im == 0 ? -a.im : a.im); \\\n" \
"    if (a.re != a.re || a.im != a.im) \\\n" \
"        return ng_cpack_##S(a.re + a.im, a.re + a.im); \\\n" \
"    if (a.im == 0) { /* the real axis: acos(x) - i0 inside [-1, 1], the cut beyond */ \\\n" \
"        R ax = NG_MATH(fabs, F)(a.re); \\\n" \
"        if (ax <= 1) \\\n" \
"            return ng_cpack_##S(NG_MATH(acos, F)(a.re), -a.im); \\\n" \
"        return ng_cpack_##S(a.re > 0 ? (R)0 : 2 * pi2, -NG_MATH(copysign, F)(NG_MATH(acosh, F)(ax), a.im)); \\\n" \
"    } \\\n" \
"    T w = ng_arcsin_##S(a); \\\n" \
"    return ng_cpack_##S(pi2 - w.re, -w.im); \\\n" \
"} \\\n" \
"NG_FN T ng_arccosh_##S(T a) \\\n" \
"{ \\\n" \
"    T w = ng_arccos_##S(a); \\\n" \
"    return signbit(w.im) ? ng_cpack_##S(-w.im, w.re) : ng_cpack_##S(w.im, -w.re); \\\n" \
"} \\\n" \
"NG_FN T ng_arctanh_##S(T a) \\\n" \
"{ \\\n" \
"    const R pi2 = (R)1.570796326794896619231321691639751442; \\\n" \
"    R x = a.re, y = a.im; \\\n" \
"    if (isinf(y)) /* Annex G's infinities and NaNs */ \\\n" \
"        return ng_cpack_##S(NG_MATH(copysign, F)((R)0, x), NG_MATH(copysign, F)(pi2, y)); \\\n" \
"    if (isinf(x)) \\\n" \
"        return ng_cpack_##S(NG_MATH(copysign, F)((R)0, x), y != y ? y : NG_MATH(copysign, F)(pi2, y)); \\\n" \
"    if (x == 0 && y != y) \\\n" \
"        return a; \\\n" \
"    if (x != x || y != y) \\\n" \
"        return ng_cpack_##S(x + y, x + y); \\\n" \
"    if (NG_MATH(hypot, F)(x, y) < (R)SMALL) { \\\n" \
"        T z2 = ng_multiply_##S(a, a); \\\n" \
"        T c = ng_cpack_##S(1 + z2.re / 3 + (R)0.2 * (z2.re * z2.re - z2.im * z2.im), \\\n" \
"                           z2.im / 3 + (R)0.4 * z2.re * z2.im); \\\n" \
"        return ng_multiply_##S(a, c); \\\n" \
"    } \\\n" \
"    R d = (1 - x) * (1 - x) + y * y; \\\n" \
"    return ng_cpack_##S((R)0.25 * NG_MATH(log1p, F)(4 * x / d), (R)0.5 * NG_MATH(atan2, F)(2 * y, (1 - x) * (1 + x) - y * y)); \\\n" \
"} \\\n" \
"NG_FN T ng_arctan_##S(T a) { T w = ng_arctanh_##S(ng_cpack_##S(-a.im, a.re)); return ng_cpack_##S(w.im, -w.re); }\n" \
"\n" \
"/* complex64 through complex128 where the target has double: NumPy's\n" \
" * complex64 functions are accurate to a few float ulps */\n" \
"#define NG_COMPLEX_VIA_WIDE(FN) \\\n" \
"NG_FN ng_c64 ng_##FN##_c64(ng_c64 a) \\\n" \
"{ \\\n" \
"    ng_c128 w = ng_##FN##_c128(ng_cpack_c128((double)a.re, (double)a.im)); \\\n" \
"    return ng_cpack_c64((float)w.re, (float)w.im); \\\n" \
"}\n" \
"#define NG_COMPLEX_MATH_C64_WIDE \\\n" \
"NG_COMPLEX_VIA_WIDE(exp) NG_COMPLEX_VIA_WIDE(log) NG_COMPLEX_VIA_WIDE(sqrt) NG_COMPLEX_VIA_WIDE(sinh) \\\n" \
"NG_COMPLEX_VIA_WIDE(cosh) NG_COMPLEX_VIA_WIDE(tanh) NG_COMPLEX_VIA_WIDE(sin) NG_COMPLEX_VIA_WIDE(cos) \\\n" \
"NG_COMPLEX_VIA_WIDE(tan) NG_COMPLEX_VIA_WIDE(arcsinh) NG_COMPLEX_VIA_WIDE(arcsin) NG_COMPLEX_VIA_WIDE(arccos) \\\n" \
"NG_COMPLEX_VIA_WIDE(arccosh) NG_COMPLEX_VIA_WIDE(arctanh) NG_COMPLEX_VIA_WIDE(arctan) \\\n" \
"NG_FN ng_c64 ng_cpow_c64(ng_c64 a, ng_c64 b) \\\n" \
"{ \\\n" \
"    ng_c128 w = ng_cpow_c128(ng_cpack_c128((double)a.re, (double)a.im), ng_cpack_c128((double)b.re, (double)b.im)); \\\n" \
"    return ng_cpack_c64((float)w.re, (float)w.im); \\\n" \
"}\n"

#define NG_LIBC_COMPLEX_SRC \
"/* the C library's complex functions (glibc: what NumPy's own loops call) */\n" \
"#define NG_LIBC_COMPLEX(S, T, R, CT, F) \\\n" \
"NG_FN CT ng_toc_##S(T a) { CT z; __real__ z = a.re; __imag__ z = a.im; return z; } \\\n" \
"NG_FN T ng_fromc_##S(CT z) { return ng_cpack_##S(__real__ z, __imag__ z); } \\\n" \
"NG_FN T ng_exp_##S(T a) { return ng_fromc_##S(cexp##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_log_##S(T a) { return ng_fromc_##S(clog##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_sqrt_##S(T a) { return ng_fromc_##S(csqrt##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_sin_##S(T a) { return ng_fromc_##S(csin##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_cos_##S(T a) { return ng_fromc_##S(ccos##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_tan_##S(T a) { return ng_fromc_##S(ctan##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_sinh_##S(T a) { return ng_fromc_##S(csinh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_cosh_##S(T a) { return ng_fromc_##S(ccosh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_tanh_##S(T a) { return ng_fromc_##S(ctanh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arcsin_##S(T a) { return ng_fromc_##S(casin##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arccos_##S(T a) { return ng_fromc_##S(cacos##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arctan_##S(T a) { return ng_fromc_##S(catan##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arcsinh_##S(T a) { return ng_fromc_##S(casinh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arccosh_##S(T a) { return ng_fromc_##S(cacosh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_arctanh_##S(T a) { return ng_fromc_##S(catanh##F(ng_toc_##S(a))); } \\\n" \
"NG_FN T ng_cpow_##S(T a, T b) { return ng_fromc_##S(cpow##F(ng_toc_##S(a), ng_toc_##S(b))); }\n"

#endif
