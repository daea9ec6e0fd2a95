/* A weak ng_op_name for test programs.
 *
 * ng_ir_print (src/ir/ir.c) calls ng_op_name, which include/numgpu/ops.h
 * declares and src/ops/elementwise.c defines; the skeleton commit had no
 * src/ops, so the IR tests could not link. This weak definition fills the gap
 * with NumPy's ufunc names and yields to the library's own definition
 * whenever that one is linked in. Delete it once src/ops is always built. */
#ifndef NUMGPU_TEST_OP_NAME_FALLBACK_H
#define NUMGPU_TEST_OP_NAME_FALLBACK_H

#include <numgpu/ops.h>

__attribute__((weak)) const char *ng_op_name(NgOp op)
{
    static const char *const names[NG_NOPS] = {
        "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power", "maximum",
        "minimum", "fmax", "fmin", "arctan2", "hypot", "bitwise_and", "bitwise_or", "bitwise_xor",
        "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor", "equal", "not_equal",
        "less", "less_equal", "greater", "greater_equal", "negative", "positive", "absolute", "invert",
        "logical_not", "sign", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "square", "sin",
        "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc",
        "rint", "isnan", "isinf", "isfinite", "copy",
    };
    return ((int)op >= 0 && op < NG_NOPS) ? names[op] : "?";
}

#endif
