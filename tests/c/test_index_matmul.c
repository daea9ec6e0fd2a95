/* Tests of indexing (src/ops/index.c) and matmul (src/ops/matmul.c) on the
 * cpu device, on small arrays whose NumPy answers are written out by hand.
 * The thorough NumPy-parity checks are the Python tests; these keep the C
 * library honest on its own: views share the buffer, advanced indexing
 * copies, bad indices are IndexErrors with NumPy's text, and matmul's
 * shapes, promotion and sums are right. */
#include <stdint.h>
#include <string.h>

#include <numgpu/numgpu.h>
#include <numgpu/ops.h>
#include "check.h"

static NgDevice *dev;

/* A new int64 array of `shape` holding 0, 1, 2, ... */
static NgArray iota(int ndim, const int64_t *shape)
{
    NgArray a;
    memset(&a, 0, sizeof a);
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    CHECK_OK(ng_op_arange(dev, 0, 1, n, NG_INT64, &a));
    NgArray r;
    CHECK_OK(ng_op_reshape(&a, ndim, shape, &r));
    ng_array_release(&a);
    return r;
}

static NgArray from_i64(int ndim, const int64_t *shape, const int64_t *data)
{
    NgArray a;
    CHECK_OK(ng_array_empty(dev, NG_INT64, ndim, shape, &a));
    CHECK_OK(ng_array_upload(&a, data, NULL));
    return a;
}

/* Downloads an int64 array (any layout) into out[]; returns its size. */
static int64_t fetch(const NgArray *a, int64_t *out)
{
    NgArray c;
    CHECK_OK(ng_op_astype(a, NG_INT64, &c));
    CHECK_OK(ng_array_download(&c, out, NULL));
    int64_t n = c.size;
    ng_array_release(&c);
    return n;
}

static bool same(const int64_t *want, const int64_t *got, int64_t n)
{
    return memcmp(want, got, sizeof(int64_t) * (size_t)n) == 0;
}

static NgIndex ix_int(int64_t i) { return (NgIndex){.kind = NG_IDX_INT, .i = i}; }
static NgIndex ix_all(void) { return (NgIndex){.kind = NG_IDX_SLICE}; }
static NgIndex ix_arr(const NgArray *a) { return (NgIndex){.kind = NG_IDX_ARRAY, .array = a}; }

static NgIndex ix_slice(int64_t start, int64_t stop, int64_t step)
{
    return (NgIndex){.kind = NG_IDX_SLICE, .start = start, .stop = stop, .step = step,
                     .has_start = true, .has_stop = true, .has_step = true};
}

/* x = arange(12).reshape(3, 4); x[::-1, 1::2] is a view that writes through. */
static void test_basic_views(void)
{
    int64_t shape[2] = {3, 4}, got[16];
    NgArray x = iota(2, shape), v;
    NgIndex idx[2] = {{.kind = NG_IDX_SLICE, .step = -1, .has_step = true}, ix_slice(1, INT64_MAX, 2)};
    CHECK_OK(ng_index_get(&x, 2, idx, &v));
    CHECK(v.buf == x.buf);
    CHECK_EQ_INT(2, v.ndim);
    CHECK_EQ_INT(3, v.shape[0]);
    CHECK_EQ_INT(2, v.shape[1]);
    int64_t want[6] = {9, 11, 5, 7, 1, 3};
    CHECK_EQ_INT(6, fetch(&v, got));
    CHECK(same(want, got, 6));
    NgOperand minus = {NULL, {.kind = NG_KIND_INT, .v.i = -1}};
    NgIndex all = {.kind = NG_IDX_ELLIPSIS};
    CHECK_OK(ng_index_set(&v, 1, &all, &minus));
    int64_t after[12] = {0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1};
    fetch(&x, got);
    CHECK(same(after, got, 12));
    ng_array_release(&v);

    /* x[1, None, -1] -> shape (1,), value 7; x[()] is x itself */
    NgIndex i3[3] = {ix_int(1), {.kind = NG_IDX_NEWAXIS}, ix_int(-1)};
    CHECK_OK(ng_index_get(&x, 3, i3, &v));
    CHECK_EQ_INT(1, v.ndim);
    fetch(&v, got);
    CHECK_EQ_INT(-1, got[0]);
    ng_array_release(&v);
    CHECK_OK(ng_index_get(&x, 0, NULL, &v));
    CHECK_EQ_INT(2, v.ndim);
    CHECK(v.buf == x.buf && v.offset == x.offset);
    ng_array_release(&v);
    ng_array_release(&x);
}

static void test_errors(void)
{
    int64_t shape[1] = {3};
    NgArray x = iota(1, shape), v;
    NgIndex five = ix_int(5);
    CHECK_EQ_INT(NG_ERR_INDEX, ng_index_get(&x, 1, &five, &v));
    CHECK_EQ_STR("index 5 is out of bounds for axis 0 with size 3", ng_error_message());
    NgIndex two[2] = {ix_int(0), ix_int(0)};
    CHECK_EQ_INT(NG_ERR_INDEX, ng_index_get(&x, 2, two, &v));
    CHECK_EQ_STR("too many indices for array: array is 1-dimensional, but 2 were indexed", ng_error_message());
    NgIndex ells[2] = {{.kind = NG_IDX_ELLIPSIS}, {.kind = NG_IDX_ELLIPSIS}};
    CHECK_EQ_INT(NG_ERR_INDEX, ng_index_get(&x, 2, ells, &v));
    CHECK_EQ_STR("an index can only have a single ellipsis ('...')", ng_error_message());
    NgIndex zero_step = ix_slice(0, 3, 0);
    CHECK_EQ_INT(NG_ERR_VALUE, ng_index_get(&x, 1, &zero_step, &v));
    CHECK_EQ_STR("slice step cannot be zero", ng_error_message());
    int64_t bad[2] = {0, -4}, two_shape[1] = {2};
    NgArray ia = from_i64(1, two_shape, bad);
    NgIndex a = ix_arr(&ia);
    CHECK_EQ_INT(NG_ERR_INDEX, ng_index_get(&x, 1, &a, &v));
    CHECK_EQ_STR("index -4 is out of bounds for axis 0 with size 3", ng_error_message());
    int64_t mshape[1] = {4};
    NgArray m;
    NgScalar t = {.kind = NG_KIND_BOOL, .v.i = 1};
    CHECK_OK(ng_op_full(dev, NG_BOOL, 1, mshape, &t, &m));
    NgIndex mi = {.kind = NG_IDX_MASK, .array = &m};
    CHECK_EQ_INT(NG_ERR_INDEX, ng_index_get(&x, 1, &mi, &v));
    CHECK_EQ_STR("boolean index did not match indexed array along axis 0; size of axis is 3 but size of "
                 "corresponding boolean axis is 4", ng_error_message());
    ng_array_release(&m);
    ng_array_release(&ia);
    ng_array_release(&x);
}

/* x = arange(12).reshape(3, 4): x[[2, 0]], x[:, [-1, 0]], x[x % 3 == 0], and
 * x[0, :, [1, 2]]-style placement on a 3-d array. */
static void test_advanced(void)
{
    int64_t shape[2] = {3, 4}, got[32];
    NgArray x = iota(2, shape), v;
    int64_t rows[2] = {2, 0}, cols[2] = {-1, 0}, n2[1] = {2};
    NgArray ir = from_i64(1, n2, rows), ic = from_i64(1, n2, cols);
    NgIndex i1 = ix_arr(&ir);
    CHECK_OK(ng_index_get(&x, 1, &i1, &v));
    CHECK(v.buf != x.buf);
    int64_t w1[8] = {8, 9, 10, 11, 0, 1, 2, 3};
    CHECK_EQ_INT(8, fetch(&v, got));
    CHECK(same(w1, got, 8));
    ng_array_release(&v);
    NgIndex i2[2] = {ix_all(), ix_arr(&ic)};
    CHECK_OK(ng_index_get(&x, 2, i2, &v));
    int64_t w2[6] = {3, 0, 7, 4, 11, 8};
    CHECK_EQ_INT(6, fetch(&v, got));
    CHECK(same(w2, got, 6));
    ng_array_release(&v);

    /* mask: x % 3 == 0 -> [0, 3, 6, 9] */
    NgOperand xo = {&x, {0}}, three = {NULL, {.kind = NG_KIND_INT, .v.i = 3}}, zero = {NULL, {.kind = NG_KIND_INT}};
    NgArray r, m;
    CHECK_OK(ng_op_binary(NG_OP_MOD, &xo, &three, NULL, &r));
    NgOperand ro = {&r, {0}};
    CHECK_OK(ng_op_binary(NG_OP_EQ, &ro, &zero, NULL, &m));
    NgIndex mi = {.kind = NG_IDX_MASK, .array = &m};
    CHECK_OK(ng_index_get(&x, 1, &mi, &v));
    int64_t w3[4] = {0, 3, 6, 9};
    CHECK_EQ_INT(4, fetch(&v, got));
    CHECK(same(w3, got, 4));
    ng_array_release(&v);
    /* x[mask] = -x[mask] */
    NgOperand neg = {NULL, {.kind = NG_KIND_INT, .v.i = -7}};
    CHECK_OK(ng_index_set(&x, 1, &mi, &neg));
    int64_t w4[12] = {-7, 1, 2, -7, 4, 5, -7, 7, 8, -7, 10, 11};
    fetch(&x, got);
    CHECK(same(w4, got, 12));
    /* x[[2, 0]] = [[100], [200]] (broadcast along columns) */
    int64_t vals[2] = {100, 200}, vshape[2] = {2, 1};
    NgArray va = from_i64(2, vshape, vals);
    NgOperand vo = {&va, {0}};
    CHECK_OK(ng_index_set(&x, 1, &i1, &vo));
    int64_t w5[12] = {200, 200, 200, 200, 4, 5, -7, 7, 100, 100, 100, 100};
    fetch(&x, got);
    CHECK(same(w5, got, 12));
    ng_array_release(&va);
    ng_array_release(&m);
    ng_array_release(&r);

    /* y = arange(24).reshape(2, 3, 4): y[0, :, [1, 2]] has shape (2, 3) (int and
     * array not adjacent: broadcast dims first); y[:, 0, [1, 2]] has shape (2, 2). */
    int64_t s3[3] = {2, 3, 4}, one2[2] = {1, 2};
    NgArray y = iota(3, s3), ia = from_i64(1, n2, one2);
    NgIndex j1[3] = {ix_int(0), ix_all(), ix_arr(&ia)};
    CHECK_OK(ng_index_get(&y, 3, j1, &v));
    CHECK_EQ_INT(2, v.ndim);
    CHECK_EQ_INT(2, v.shape[0]);
    CHECK_EQ_INT(3, v.shape[1]);
    int64_t w6[6] = {1, 5, 9, 2, 6, 10};
    fetch(&v, got);
    CHECK(same(w6, got, 6));
    ng_array_release(&v);
    NgIndex j2[3] = {ix_all(), ix_int(0), ix_arr(&ia)};
    CHECK_OK(ng_index_get(&y, 3, j2, &v));
    int64_t w7[4] = {1, 2, 13, 14};
    CHECK_EQ_INT(4, fetch(&v, got));
    CHECK(same(w7, got, 4));
    ng_array_release(&v);
    ng_array_release(&ia);
    ng_array_release(&y);
    ng_array_release(&ir);
    ng_array_release(&ic);
    ng_array_release(&x);
}

static void test_matmul(void)
{
    int64_t sa[3] = {2, 2, 3}, sb[2] = {3, 2}, got[16];
    NgArray a = iota(3, sa), b = iota(2, sb), c;
    CHECK_OK(ng_op_matmul(&a, &b, &c));
    CHECK_EQ_INT(3, c.ndim);
    CHECK_EQ_INT(NG_INT64, c.dtype);
    /* [[0,1,2],[3,4,5]] @ [[0,1],[2,3],[4,5]] = [[10,13],[28,40]]; batch 1: rows [6..8],[9..11] */
    int64_t want[8] = {10, 13, 28, 40, 46, 67, 64, 94};
    CHECK_EQ_INT(8, fetch(&c, got));
    CHECK(same(want, got, 8));
    ng_array_release(&c);
    /* vector @ matrix: [0, 1, 2] @ b = [10, 13] */
    int64_t s1[1] = {3};
    NgArray v = iota(1, s1);
    CHECK_OK(ng_op_matmul(&v, &b, &c));
    CHECK_EQ_INT(1, c.ndim);
    fetch(&c, got);
    CHECK(got[0] == 10 && got[1] == 13);
    ng_array_release(&c);
    /* vector @ vector is 0-d: 0 + 1 + 4 = 5 */
    CHECK_OK(ng_op_matmul(&v, &v, &c));
    CHECK_EQ_INT(0, c.ndim);
    fetch(&c, got);
    CHECK_EQ_INT(5, got[0]);
    ng_array_release(&c);
    CHECK_EQ_INT(NG_ERR_VALUE, ng_op_matmul(&b, &b, &c));
    CHECK_EQ_STR("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                 "(n?,k),(k,m?)->(n?,m?) (size 3 is different from 2)", ng_error_message());
    /* float32 @ int64 promotes to float64 */
    NgArray f;
    CHECK_OK(ng_op_astype(&b, NG_FLOAT32, &f));
    CHECK_OK(ng_op_matmul(&v, &f, &c));
    CHECK_EQ_INT(NG_FLOAT64, c.dtype);
    double fd[2];
    CHECK_OK(ng_array_download(&c, fd, NULL));
    CHECK(fd[0] == 10.0 && fd[1] == 13.0);
    ng_array_release(&c);
    ng_array_release(&f);
    ng_array_release(&v);
    ng_array_release(&a);
    ng_array_release(&b);
}

int main(void)
{
    if (ng_device_open("cpu", &dev) != NG_OK) {
        check_skip("index and matmul tests", ng_error_message());
        return check_summary();
    }
    test_basic_views();
    test_errors();
    test_advanced();
    test_matmul();
    return check_summary();
}
