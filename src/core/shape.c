/* Shapes: broadcasting, formatting, axis normalisation. */
#include <stdio.h>
#include <string.h>

#include <numgpu/numgpu.h>

char *ng_shape_format(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, len - at, "(");
    for (int i = 0; i < ndim && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (at < len)
        snprintf(buf + at, len - at, ndim == 1 ? ",)" : ")");
    return buf;
}

NgStatus ng_shape_broadcast(int n, const int *ndims, const int64_t *const *shapes,
                            int *out_ndim, int64_t *out_shape)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        nd = ndims[k] > nd ? ndims[k] : nd;
    for (int d = 0; d < nd; d++)
        out_shape[d] = 1;
    for (int k = 0; k < n; k++) {
        int off = nd - ndims[k];
        for (int d = 0; d < ndims[k]; d++) {
            int64_t s = shapes[k][d], *o = &out_shape[off + d];
            if (s == *o || s == 1)
                continue;
            if (*o == 1) {
                *o = s;
                continue;
            }
            /* NumPy: "operands could not be broadcast together with shapes (2,3) (4,) " */
            char msg[512] = "operands could not be broadcast together with shapes";
            for (int j = 0; j < n; j++) {
                char one[160];
                ng_shape_format(ndims[j], shapes[j], one, sizeof one);
                size_t at = strlen(msg);
                snprintf(msg + at, sizeof msg - at, " %s", one);
            }
            {
                size_t at = strlen(msg);
                snprintf(msg + at, sizeof msg - at, " ");
            }
            return ng_error_set(NG_ERR_VALUE, "%s", msg);
        }
    }
    *out_ndim = nd;
    return NG_OK;
}

NgStatus ng_axis_normalize(int *axis, int ndim)
{
    if (*axis < -ndim || *axis >= ndim)
        return ng_error_set(NG_ERR_AXIS, "axis %d is out of bounds for array of dimension %d", *axis, ndim);
    if (*axis < 0)
        *axis += ndim;
    return NG_OK;
}
