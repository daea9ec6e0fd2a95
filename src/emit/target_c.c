/* The C target: source for the cpu backend, compiled by the system C
 * compiler with OpenMP. Kernels take their arguments packed in one array
 * (`const NgKArg *A`) and end with the total work count, which decides
 * whether the outermost parallel loop forks threads. */
#include "emit/emit.h"

#define NG_C_PROLOGUE \
"#include <stdint.h>\n" \
"#include <math.h>\n" \
"typedef union { void *p; int64_t i; double f; } NgKArg;\n" \
"#define NG_PAR_MIN_WORK 32768\n" \
"#define NG_PRAGMA(x) _Pragma(#x)\n" \
"#define NG_INT_HELPERS(S, T, U, BITS) \\\n" \
"static inline T ng_fdiv_##S(T a, T b) { if (b == 0) return 0; if ((T)-1 < 0 && b == (T)-1) return (T)(0 - (U)a);\\\n" \
"    T q = (T)(a / b); if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q--; return q; }\\\n" \
"static inline T ng_mod_##S(T a, T b) { if (b == 0 || ((T)-1 < 0 && b == (T)-1)) return 0;\\\n" \
"    T r = (T)(a % b); if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b); return r; }\\\n" \
"static inline T ng_pow_##S(T a, T b) { U r = 1, x = (U)a; if (b < 0) return (T)(a == 1 ? 1 : a == (T)-1 ? ((b & 1) ? -1 : 1) : 0);\\\n" \
"    while (b) { if (b & 1) r *= x; x *= x; b = (T)(b / 2); } return (T)r; }\\\n" \
"static inline T ng_shl_##S(T a, T b) { return (b < 0 || b >= BITS) ? 0 : (T)((U)a << b); }\\\n" \
"static inline T ng_shr_##S(T a, T b) { return (b < 0 || b >= BITS) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); }\\\n" \
"static inline T ng_max_##S(T a, T b) { return a > b ? a : b; }\\\n" \
"static inline T ng_min_##S(T a, T b) { return a < b ? a : b; }\\\n" \
"static inline T ng_abs_##S(T a) { return a < 0 ? (T)(0 - (U)a) : a; }\\\n" \
"static inline T ng_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }\\\n" \
"static inline T ng_f2u_##S(double x) { return x < 0 ? (T)(int64_t)x : (T)x; }\\\n" \
"NG_PRAGMA(omp declare reduction(ngmax_##S : T : omp_out = ng_max_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmin_##S : T : omp_out = ng_min_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\n" \
"NG_INT_HELPERS(b, uint8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(i8, int8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(i16, int16_t, uint32_t, 16)\n" \
"NG_INT_HELPERS(i32, int32_t, uint32_t, 32)\n" \
"NG_INT_HELPERS(i64, int64_t, uint64_t, 64)\n" \
"NG_INT_HELPERS(u8, uint8_t, uint32_t, 8)\n" \
"NG_INT_HELPERS(u16, uint16_t, uint32_t, 16)\n" \
"NG_INT_HELPERS(u32, uint32_t, uint32_t, 32)\n" \
"NG_INT_HELPERS(u64, uint64_t, uint64_t, 64)\n" \
"#define NG_FLOAT_HELPERS(S, T, F) \\\n" \
"static inline T ng_max_##S(T a, T b) { return (a >= b || a != a) ? a : b; }\\\n" \
"static inline T ng_min_##S(T a, T b) { return (a <= b || a != a) ? a : b; }\\\n" \
"static inline T ng_mod_##S(T a, T b) { T m = fmod##F(a, b); if (b == 0) return m;\\\n" \
"    if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign##F((T)0, b); return m; }\\\n" \
"static inline T ng_fdiv_##S(T a, T b) { if (b == 0) return a / b; T m = fmod##F(a, b); T d = (a - m) / b;\\\n" \
"    if (m != 0 && ((b < 0) != (m < 0))) d -= 1; if (d == 0) return copysign##F((T)0, a / b);\\\n" \
"    T f = floor##F(d); if (d - f > (T)0.5) f += 1; return f; }\\\n" \
"static inline T ng_sign_##S(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a; }\\\n" \
"NG_PRAGMA(omp declare reduction(ngmax_##S : T : omp_out = ng_max_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\\\n" \
"NG_PRAGMA(omp declare reduction(ngmin_##S : T : omp_out = ng_min_##S(omp_out, omp_in)) initializer(omp_priv = omp_orig))\n" \
"NG_FLOAT_HELPERS(f32, float, f)\n" \
"NG_FLOAT_HELPERS(f64, double, )\n"

const NgTarget ng_target_c = {
    .name = "c",
    .type_names = {
        [NG_BOOL] = "uint8_t", [NG_INT8] = "int8_t", [NG_INT16] = "int16_t", [NG_INT32] = "int32_t",
        [NG_INT64] = "int64_t", [NG_UINT8] = "uint8_t", [NG_UINT16] = "uint16_t",
        [NG_UINT32] = "uint32_t", [NG_UINT64] = "uint64_t", [NG_FLOAT32] = "float", [NG_FLOAT64] = "double",
    },
    .prologue = NG_C_PROLOGUE,
    .global_ptr = "",
    .kernel_head = "void ",
    .float_suffix = true,
    .packed_args = true,
    .par = NG_PAR_OPENMP,
};
