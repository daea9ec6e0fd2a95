/* Tests of sorting, scans and searching (src/ops/sort.c, scan.c, search.c)
 * through the C API on the cpu device, on small arrays whose NumPy answers
 * are written out by hand. The NumPy-parity sweep over dtypes, shapes and
 * devices is tests/python/test_sorting.py; these keep the C library honest
 * on its own (and run under the sanitizer build): stable order with ties,
 * NaNs last, scans along either axis, unique's four outputs, searchsorted
 * sides, bincount with weights, and NumPy's errors. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <numgpu/numgpu.h>
#include <numgpu/ops.h>
#include "check.h"

static NgDevice *dev;

static NgArray upload(NgDType dt, int ndim, const int64_t *shape, const void *data)
{
    NgArray a;
    CHECK_OK(ng_array_empty(dev, dt, ndim, shape, &a));
    CHECK_OK(ng_array_upload(&a, data, NULL));
    return a;
}

/* Downloads an array as int64 / float64 values; returns its size. */
static int64_t fetch_i(const NgArray *a, int64_t *out)
{
    NgArray c;
    CHECK_OK(ng_op_astype(a, NG_INT64, &c));
    CHECK_OK(ng_array_download(&c, out, NULL));
    int64_t n = c.size;
    ng_array_release(&c);
    return n;
}

static int64_t fetch_f(const NgArray *a, double *out)
{
    NgArray c;
    CHECK_OK(ng_op_astype(a, NG_FLOAT64, &c));
    CHECK_OK(ng_array_download(&c, out, NULL));
    int64_t n = c.size;
    ng_array_release(&c);
    return n;
}

static bool same_i(const int64_t *want, const int64_t *got, int64_t n)
{
    return memcmp(want, got, sizeof(int64_t) * (size_t)n) == 0;
}

/* np.argsort([3, 1, nan, 1, -inf, 3, 0], kind='stable') = [4, 6, 1, 3, 0, 5, 2] */
static void test_sort_nan_stable(void)
{
    double x[7] = {3, 1, NAN, 1, -INFINITY, 3, 0}, got[7];
    int64_t n = 7, idx[7];
    NgArray a = upload(NG_FLOAT64, 1, &n, x), s, i;
    CHECK_OK(ng_op_sort(&a, -1, false, &s));
    CHECK_EQ_INT(7, fetch_f(&s, got));
    CHECK(got[0] == -INFINITY && got[1] == 0 && got[2] == 1 && got[3] == 1 && got[5] == 3 && isnan(got[6]));
    CHECK_OK(ng_op_sort(&a, 0, true, &i));
    int64_t want[7] = {4, 6, 1, 3, 0, 5, 2};
    fetch_i(&i, idx);
    CHECK(same_i(want, idx, 7));
    CHECK(ng_op_sort(&a, 1, false, &s) == NG_ERR_AXIS);
    ng_array_release(&s);
    ng_array_release(&i);
    ng_array_release(&a);
}

/* A long row (many merge passes) of ties: argsort must keep index order. */
static void test_argsort_long_ties(void)
{
    enum { N = 5000 };
    static int64_t x[N], got[N];
    for (int i = 0; i < N; i++)
        x[i] = (i * 7919) % 5;
    int64_t n = N;
    NgArray a = upload(NG_INT64, 1, &n, x), idx;
    CHECK_OK(ng_op_sort(&a, -1, true, &idx));
    fetch_i(&idx, got);
    bool ok = true;
    for (int i = 1; i < N; i++) {
        int64_t p = got[i - 1], q = got[i];
        ok &= x[p] < x[q] || (x[p] == x[q] && p < q);
    }
    CHECK(ok);
    ng_array_release(&idx);
    ng_array_release(&a);
}

/* cumsum of [[1, 2, 3], [4, 5, 6]] along each axis; cumprod of int8 is int64 */
static void test_scans(void)
{
    int64_t x[6] = {1, 2, 3, 4, 5, 6}, shape[2] = {2, 3}, got[6];
    NgArray a = upload(NG_INT64, 2, shape, x), r;
    CHECK_OK(ng_op_cumulative(NG_OP_ADD, &a, 1, NG_NODTYPE, &r));
    int64_t w1[6] = {1, 3, 6, 4, 9, 15};
    fetch_i(&r, got);
    CHECK(same_i(w1, got, 6));
    ng_array_release(&r);
    CHECK_OK(ng_op_cumulative(NG_OP_ADD, &a, 0, NG_NODTYPE, &r));
    int64_t w0[6] = {1, 2, 3, 5, 7, 9};
    fetch_i(&r, got);
    CHECK(same_i(w0, got, 6));
    ng_array_release(&r);
    int8_t b[4] = {100, 100, 2, -1};
    int64_t n = 4;
    NgArray a8 = upload(NG_INT8, 1, &n, b);
    CHECK_OK(ng_op_cumulative(NG_OP_MUL, &a8, 0, NG_NODTYPE, &r));
    CHECK_EQ_INT(NG_INT64, r.dtype);
    int64_t wp[4] = {100, 10000, 20000, -20000};
    fetch_i(&r, got);
    CHECK(same_i(wp, got, 4));
    ng_array_release(&r);
    ng_array_release(&a8);
    ng_array_release(&a);
}

/* np.unique([2, 1, 2, 5, 1, 2], return_index, return_inverse, return_counts) */
static void test_unique(void)
{
    int64_t x[6] = {2, 1, 2, 5, 1, 2}, n = 6, got[6];
    NgArray a = upload(NG_INT64, 1, &n, x), v, idx, inv, cnt;
    CHECK_OK(ng_op_unique(&a, &v, &idx, &inv, &cnt));
    int64_t wv[3] = {1, 2, 5}, wi[3] = {1, 0, 3}, wn[6] = {1, 0, 1, 2, 0, 1}, wc[3] = {2, 3, 1};
    CHECK_EQ_INT(3, fetch_i(&v, got));
    CHECK(same_i(wv, got, 3));
    fetch_i(&idx, got);
    CHECK(same_i(wi, got, 3));
    CHECK_EQ_INT(6, fetch_i(&inv, got));
    CHECK(same_i(wn, got, 6));
    fetch_i(&cnt, got);
    CHECK(same_i(wc, got, 3));
    NgArray *outs[4] = {&v, &idx, &inv, &cnt};
    for (int i = 0; i < 4; i++)
        ng_array_release(outs[i]);
    ng_array_release(&a);
}

/* searchsorted([1, 2, 2, 3], [2, 0, 4]) left / right; bincount with weights */
static void test_search_and_count(void)
{
    int64_t s[4] = {1, 2, 2, 3}, q[3] = {2, 0, 4}, n4 = 4, n3 = 3, got[8];
    NgArray a = upload(NG_INT64, 1, &n4, s), v = upload(NG_INT64, 1, &n3, q), r;
    CHECK_OK(ng_op_searchsorted(&a, &v, false, NULL, &r));
    int64_t wl[3] = {1, 0, 4}, wr[3] = {3, 0, 4};
    fetch_i(&r, got);
    CHECK(same_i(wl, got, 3));
    ng_array_release(&r);
    CHECK_OK(ng_op_searchsorted(&a, &v, true, NULL, &r));
    fetch_i(&r, got);
    CHECK(same_i(wr, got, 3));
    ng_array_release(&r);

    double w[4] = {0.5, 1, 2, 4}, gf[8];
    NgArray wa = upload(NG_FLOAT64, 1, &n4, w);
    CHECK_OK(ng_op_bincount(&a, &wa, 6, &r));
    CHECK_EQ_INT(6, fetch_f(&r, gf));
    CHECK(gf[0] == 0 && gf[1] == 0.5 && gf[2] == 3 && gf[3] == 4 && gf[5] == 0);
    ng_array_release(&r);
    int64_t neg[2] = {1, -1}, n2 = 2;
    NgArray bad = upload(NG_INT64, 1, &n2, neg);
    CHECK(ng_op_bincount(&bad, NULL, 0, &r) == NG_ERR_VALUE);
    CHECK_STR_CONTAINS(ng_error_message(), "no negative elements");
    ng_array_release(&bad);
    ng_array_release(&wa);
    ng_array_release(&v);
    ng_array_release(&a);
}

int main(void)
{
    if (ng_device_open("cpu", &dev) != NG_OK) {
        check_skip("sort tests", ng_error_message());
        return check_summary();
    }
    test_sort_nan_stable();
    test_argsort_long_ties();
    test_scans();
    test_unique();
    test_search_and_count();
    return check_summary();
}
