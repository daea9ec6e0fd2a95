/* dtypes: the table of element types and NumPy 2 promotion (NEP 50).
 *
 * Promotion of two array dtypes follows NumPy's table: within a kind the
 * wider wins; a signed and an unsigned integer meet in the signed integer
 * twice as wide (int64 and uint64 meet in float64); an integer meets a float
 * in the narrowest float that holds it. A Python scalar is "weak": it takes
 * the array's dtype unless its kind is higher. */
#include <string.h>

#include <numgpu/numgpu.h>

static const NgDTypeInfo infos[NG_NTYPES] = {
    [NG_BOOL] = {"bool", '?', 1, NG_KIND_BOOL, true},
    [NG_INT8] = {"int8", 'b', 1, NG_KIND_INT, true},
    [NG_INT16] = {"int16", 'h', 2, NG_KIND_INT, true},
    [NG_INT32] = {"int32", 'i', 4, NG_KIND_INT, true},
    [NG_INT64] = {"int64", 'l', 8, NG_KIND_INT, true},
    [NG_UINT8] = {"uint8", 'B', 1, NG_KIND_UINT, true},
    [NG_UINT16] = {"uint16", 'H', 2, NG_KIND_UINT, true},
    [NG_UINT32] = {"uint32", 'I', 4, NG_KIND_UINT, true},
    [NG_UINT64] = {"uint64", 'L', 8, NG_KIND_UINT, true},
    [NG_FLOAT16] = {"float16", 'e', 2, NG_KIND_FLOAT, true},
    [NG_FLOAT32] = {"float32", 'f', 4, NG_KIND_FLOAT, true},
    [NG_FLOAT64] = {"float64", 'd', 8, NG_KIND_FLOAT, true},
    [NG_COMPLEX64] = {"complex64", 'F', 8, NG_KIND_COMPLEX, true},
    [NG_COMPLEX128] = {"complex128", 'D', 16, NG_KIND_COMPLEX, true},
};

const NgDTypeInfo *ng_dtype_info(NgDType t)
{
    static const NgDTypeInfo bad = {"<invalid>", '?', 1, NG_KIND_BOOL, false};
    return (t >= 0 && t < NG_NTYPES) ? &infos[t] : &bad;
}

NgDType ng_dtype_from_name(const char *name)
{
    for (int t = 0; t < NG_NTYPES; t++)
        if (strcmp(infos[t].name, name) == 0)
            return (NgDType)t;
    return NG_NODTYPE;
}

static NgDType signed_of_size(int size)
{
    switch (size) {
    case 1: return NG_INT8;
    case 2: return NG_INT16;
    case 4: return NG_INT32;
    case 8: return NG_INT64;
    }
    return NG_NODTYPE;
}

/* Narrowest float that represents every value of integer dtype t exactly
 * enough for NumPy's table. */
static NgDType float_for_int(NgDType t)
{
    int size = infos[t].itemsize;
    return size == 1 ? NG_FLOAT16 : size == 2 ? NG_FLOAT32 : NG_FLOAT64;
}

static NgDType complex_for_float(NgDType f)
{
    return f == NG_FLOAT64 ? NG_COMPLEX128 : NG_COMPLEX64;
}

static NgDType wider(NgDType a, NgDType b) { return infos[a].itemsize >= infos[b].itemsize ? a : b; }

NgDType ng_dtype_promote(NgDType a, NgDType b)
{
    if (a == b)
        return a;
    NgKind ka = infos[a].kind, kb = infos[b].kind;
    if (ka > kb || (ka == kb && a > b)) { /* order so that a is the "lower" one */
        NgDType t = a; a = b; b = t;
        NgKind k = ka; ka = kb; kb = k;
    }
    if (ka == NG_KIND_BOOL)
        return b;
    if (ka == kb)
        return wider(a, b);
    if (ka == NG_KIND_INT && kb == NG_KIND_UINT) {
        if (infos[b].itemsize < infos[a].itemsize)
            return a;
        return b == NG_UINT64 ? NG_FLOAT64 : signed_of_size(2 * infos[b].itemsize);
    }
    if (kb == NG_KIND_FLOAT) { /* a is an integer */
        NgDType f = float_for_int(a);
        return infos[b].itemsize >= infos[f].itemsize ? b : f;
    }
    /* kb complex */
    NgDType f = ka == NG_KIND_FLOAT ? a : float_for_int(a);
    NgDType c = complex_for_float(f == NG_FLOAT16 ? NG_FLOAT32 : f);
    return infos[c].itemsize >= infos[b].itemsize ? c : b;
}

NgDType ng_dtype_promote_weak(NgDType array, NgKind scalar_kind)
{
    NgKind ka = infos[array].kind;
    if (ka == NG_KIND_UINT)
        ka = NG_KIND_INT; /* a Python int is of the same category as any integer */
    if (scalar_kind <= ka || (scalar_kind == NG_KIND_INT && infos[array].kind == NG_KIND_UINT))
        return array;
    switch (scalar_kind) {
    case NG_KIND_INT: return NG_INT64;
    case NG_KIND_FLOAT: return NG_FLOAT64;
    case NG_KIND_COMPLEX: return infos[array].kind == NG_KIND_FLOAT ? complex_for_float(array) : NG_COMPLEX128;
    default: return array;
    }
}

bool ng_dtype_can_cast_safe(NgDType from, NgDType to) { return ng_dtype_promote(from, to) == to; }
