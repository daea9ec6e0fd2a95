/* Matrix products (stub, being implemented). */
#include "ops/ops_internal.h"

NgStatus ng_op_matmul(const NgArray *a, const NgArray *b, NgArray *out) {
    (void)a; (void)b; (void)out;
    return ng_error_set(NG_ERR_UNSUPPORTED, "matmul is not implemented yet");
}
