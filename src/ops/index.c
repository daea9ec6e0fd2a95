/* Indexing: a[index] and a[index] = value (stub, being implemented). */
#include "ops/ops_internal.h"

NgStatus ng_index_get(const NgArray *a, int n, const NgIndex *index, NgArray *out) {
    (void)a; (void)n; (void)index; (void)out;
    return ng_error_set(NG_ERR_UNSUPPORTED, "indexing is not implemented yet");
}

NgStatus ng_index_set(const NgArray *a, int n, const NgIndex *index, const NgOperand *value) {
    (void)a; (void)n; (void)index; (void)value;
    return ng_error_set(NG_ERR_UNSUPPORTED, "index assignment is not implemented yet");
}
