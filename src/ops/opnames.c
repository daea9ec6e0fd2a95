/* NgOp's names and classes: NumPy's ufunc names, which the IR printer, the
 * emitter's comments and the ops' error messages use (a file of its own: the
 * jit front end and its fuzz target link it without the ops). */
#include "numgpu/ops.h"

/* NumPy's ufunc names, in NgOp order. */
static const char *op_names[NG_NOPS] = {
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum",
    "minimum", "fmax", "fmin", "arctan2", "hypot", "bitwise_and", "bitwise_or", "bitwise_xor",
    "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor",
    "copysign", "nextafter", "logaddexp", "logaddexp2", "fmod", "heaviside", "gcd", "lcm", "ldexp",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "negative", "positive", "absolute", "invert", "logical_not", "sign", "exp", "expm1", "log",
    "log1p", "log2", "log10", "sqrt", "square", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
    "sinh", "cosh", "tanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite",
    "arcsinh", "arccosh", "arctanh", "signbit", "cbrt", "exp2", "reciprocal", "deg2rad", "rad2deg",
    "fabs", "erf", "erfc", "gamma", "lgamma", "conjugate", "copy", "bitwise_count", "frexp",
    "frexp_exponent", /* (not a ufunc: frexp's second output) */
    "i0",             /* (not a ufunc: numpy.i0) */
};

const char *ng_op_name(NgOp op) { return (op >= 0 && op < NG_NOPS) ? op_names[op] : "?"; }

bool ng_op_is_binary(NgOp op) { return op <= NG_OP_GE; }
