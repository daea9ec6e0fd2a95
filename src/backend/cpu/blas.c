/* The cpu device's vendor BLAS and LAPACK: the host's optimised library
 * (OpenBLAS, MKL, BLIS, FlexiBLAS), loaded with dlopen through the Fortran
 * interface, as the cuda backend loads cuBLAS. Products of float32, float64,
 * complex64 and complex128 matrices and their solve, Cholesky, LU (det) and
 * QR go there; the generated kernels stay the fallback (no library, a layout
 * the caller did not prepare, integers, stacks of small matrices). The
 * eigen- and singular value solvers and least squares (NgBackend.decomp:
 * syevd/heevd, gesdd, geev, gelsd) have no kernels: NumPy's own calls.
 *
 * Which library: $NUMGPU_BLAS when set (a path or soname; "none" turns the
 * library off), else one already loaded into the process (NumPy's own,
 * e.g. the wheels' libscipy_openblas64_), else the usual sonames. The
 * reference BLAS (libblas.so.3) is not looked for: the generated kernels
 * beat it. Symbols come in several spellings: scipy_dgemm_64_ (NumPy's
 * wheels, 64-bit integers), dgemm_64_ (openblas64_), dgemm_64 (MKL ILP64),
 * scipy_dgemm_ and dgemm_ (32-bit integers); the first spelling the
 * library has for dgemm decides the integer width. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/blas.h"
#include "core/core.h"

/* Fortran calling convention: every argument by reference, the lengths of
 * character arguments appended (ignored by C implementations). Integers are
 * passed as void * because their width is the library's. */
typedef void (*GemmFn)(const char *, const char *, const void *, const void *, const void *, const void *,
                       const void *, const void *, const void *, const void *, const void *, void *, const void *,
                       size_t, size_t);
typedef void (*GemvFn)(const char *, const void *, const void *, const void *, const void *, const void *,
                       const void *, const void *, const void *, void *, const void *, size_t);
typedef void (*GesvFn)(const void *, const void *, void *, const void *, void *, void *, const void *, void *);
typedef void (*SyrkFn)(const char *, const char *, const void *, const void *, const void *, const void *,
                       const void *, const void *, void *, const void *, size_t, size_t);
typedef void (*PotrfFn)(const char *, const void *, void *, const void *, void *, size_t);
typedef void (*GetrfFn)(const void *, const void *, void *, const void *, void *, void *);
typedef void (*GeqrfFn)(const void *, const void *, void *, const void *, void *, void *, const void *, void *);
typedef void (*OrgqrFn)(const void *, const void *, const void *, void *, const void *, const void *, void *,
                        const void *, void *);

static const char LETTERS[4] = {'s', 'd', 'c', 'z'}; /* float32, float64, complex64, complex128 */

static struct {
    bool ok;
    bool ilp64;           /* 64-bit integers */
    GemmFn gemm[4];
    GemvFn gemv[4];
    SyrkFn syrk[4];
    void *dot[4];         /* CBLAS's (integers by value): ?dot, ?dotu_sub for complex */
    GesvFn gesv[4];       /* NULL where the library has no LAPACK */
    PotrfFn potrf[4];
    GetrfFn getrf[4];
    GeqrfFn geqrf[4];
    OrgqrFn orgqr[4];     /* ungqr for complex */
    void *syevd[4];       /* heevd for complex; these four called through the types in decomp() */
    void *gesdd[4];
    void *geev[4];
    void *gelsd[4];
    char path[512];       /* the library, for numgpu doctor */
    char why[256];        /* why there is none */
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static const struct {
    const char *prefix, *ending, *cblas_ending; /* dgemm: prefix "d" "gemm" ending; ddot: prefix "cblas_ddot" cblas_ending */
    bool ilp64;
} SPELLINGS[] = {
    {"scipy_", "_64_", "64_", true}, {"", "_64_", "64_", true}, {"", "_64", "_64", true},
    {"scipy_", "_", "", false}, {"", "_", "", false},
};

static int letter_index(NgDType dt)
{
    return dt == NG_FLOAT32 ? 0 : dt == NG_FLOAT64 ? 1 : dt == NG_COMPLEX64 ? 2 : dt == NG_COMPLEX128 ? 3 : -1;
}

static void *routine(void *h, int spelling, char letter, const char *name)
{
    char sym[64];
    snprintf(sym, sizeof sym, "%s%c%s%s", SPELLINGS[spelling].prefix, letter, name, SPELLINGS[spelling].ending);
    return dlsym(h, sym);
}

static void *cblas_routine(void *h, int spelling, char letter, const char *name)
{
    char sym[64];
    snprintf(sym, sizeof sym, "%scblas_%c%s%s", SPELLINGS[spelling].prefix, letter, name,
             SPELLINGS[spelling].cblas_ending);
    return dlsym(h, sym);
}

/* Takes the library behind handle h when it has every gemm and gemv. */
static bool take(void *h, const char *path)
{
    for (int s = 0; s < (int)(sizeof SPELLINGS / sizeof *SPELLINGS); s++) {
        if (!routine(h, s, 'd', "gemm"))
            continue;
        bool all = true;
        for (int i = 0; i < 4; i++) {
            lib.gemm[i] = (GemmFn)routine(h, s, LETTERS[i], "gemm");
            lib.gemv[i] = (GemvFn)routine(h, s, LETTERS[i], "gemv");
            lib.syrk[i] = (SyrkFn)routine(h, s, LETTERS[i], "syrk");
            lib.dot[i] = cblas_routine(h, s, LETTERS[i], i < 2 ? "dot" : "dotu_sub");
            lib.gesv[i] = (GesvFn)routine(h, s, LETTERS[i], "gesv");
            lib.potrf[i] = (PotrfFn)routine(h, s, LETTERS[i], "potrf");
            lib.getrf[i] = (GetrfFn)routine(h, s, LETTERS[i], "getrf");
            lib.geqrf[i] = (GeqrfFn)routine(h, s, LETTERS[i], "geqrf");
            lib.orgqr[i] = (OrgqrFn)routine(h, s, LETTERS[i], i < 2 ? "orgqr" : "ungqr");
            lib.syevd[i] = routine(h, s, LETTERS[i], i < 2 ? "syevd" : "heevd");
            lib.gesdd[i] = routine(h, s, LETTERS[i], "gesdd");
            lib.geev[i] = routine(h, s, LETTERS[i], "geev");
            lib.gelsd[i] = routine(h, s, LETTERS[i], "gelsd");
            all = all && lib.gemm[i] && lib.gemv[i];
        }
        if (!all)
            return false;
        lib.ilp64 = SPELLINGS[s].ilp64;
        char *real = realpath(path, NULL); /* (NumPy's is .../numpy/_core/../../numpy.libs/...) */
        snprintf(lib.path, sizeof lib.path, "%s", real ? real : path);
        free(real);
        lib.ok = true;
        return true;
    }
    return false;
}

static bool try_open(const char *name, int flags)
{
    void *h = dlopen(name, flags);
    if (!h)
        return false;
    if (take(h, name))
        return true;
    dlclose(h);
    return false;
}

/* A BLAS the process has loaded already (NumPy's), by its file name. */
static int loaded(struct dl_phdr_info *info, size_t size, void *data)
{
    static const char *const kinds[] = {"openblas", "mkl_rt", "libblis", "flexiblas"};
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strstr(base, kinds[i]) && try_open(info->dlpi_name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD))
            return 1;
    return 0;
}

static void load(void)
{
    const char *want = getenv("NUMGPU_BLAS");
    if (want && *want) {
        if (!strcmp(want, "none") || !strcmp(want, "0"))
            snprintf(lib.why, sizeof lib.why, "turned off by NUMGPU_BLAS=%s", want);
        else if (!try_open(want, RTLD_NOW | RTLD_LOCAL))
            snprintf(lib.why, sizeof lib.why, "NUMGPU_BLAS=%s cannot be loaded, or has no dgemm_ (or "
                     "scipy_dgemm_64_, dgemm_64_, dgemm_64)", want);
        return;
    }
    if (dl_iterate_phdr(loaded, NULL))
        return;
    static const char *const sonames[] = {"libopenblas.so.0", "libopenblas64_.so.0", "libmkl_rt.so.2",
                                          "libmkl_rt.so", "libblis.so.4", "libflexiblas.so.3"};
    for (size_t i = 0; i < sizeof sonames / sizeof *sonames; i++)
        if (try_open(sonames[i], RTLD_NOW | RTLD_LOCAL))
            return;
    snprintf(lib.why, sizeof lib.why, "no optimised BLAS found (OpenBLAS, MKL, BLIS, FlexiBLAS); set NUMGPU_BLAS "
             "to one");
}

const char *ng_cpu_blas(bool *found)
{
    pthread_once(&lib_once, load);
    *found = lib.ok;
    return lib.ok ? lib.path : lib.why;
}

/* An integer argument in the library's width; false when it does not fit. */
typedef union {
    int64_t l;
    int32_t i;
} BlasInt;

static int64_t get_int(const BlasInt *slot) { return lib.ilp64 ? slot->l : slot->i; }

static bool put_int(BlasInt *slot, int64_t v)
{
    if (lib.ilp64) {
        slot->l = v;
        return true;
    }
    slot->i = (int32_t)v;
    return v <= INT32_MAX && v >= INT32_MIN;
}

static const void *one_of(int li)
{
    static const float f1[2] = {1, 0};
    static const double d1[2] = {1, 0};
    return li == 0 || li == 2 ? (const void *)f1 : (const void *)d1;
}

static const void *zero_of(void)
{
    static const double z[2] = {0, 0}; /* 0 in every width */
    return z;
}

/* c = x . y (no conjugate) of k elements through CBLAS's dot, increments ix, iy. */
static void dot(int li, int64_t k, const void *x, int64_t ix, const void *y, int64_t iy, void *c)
{
    if (lib.ilp64 && li == 0)
        *(float *)c = ((float (*)(int64_t, const void *, int64_t, const void *, int64_t))lib.dot[li])(k, x, ix, y, iy);
    else if (lib.ilp64 && li == 1)
        *(double *)c = ((double (*)(int64_t, const void *, int64_t, const void *, int64_t))lib.dot[li])(k, x, ix, y, iy);
    else if (lib.ilp64)
        ((void (*)(int64_t, const void *, int64_t, const void *, int64_t, void *))lib.dot[li])(k, x, ix, y, iy, c);
    else if (li == 0)
        *(float *)c = ((float (*)(int32_t, const void *, int32_t, const void *, int32_t))lib.dot[li])(
            (int32_t)k, x, (int32_t)ix, y, (int32_t)iy);
    else if (li == 1)
        *(double *)c = ((double (*)(int32_t, const void *, int32_t, const void *, int32_t))lib.dot[li])(
            (int32_t)k, x, (int32_t)ix, y, (int32_t)iy);
    else
        ((void (*)(int32_t, const void *, int32_t, const void *, int32_t, void *))lib.dot[li])(
            (int32_t)k, x, (int32_t)ix, y, (int32_t)iy, c);
}

/* c (n x n, row-major, ldc) = A A^T of the column-major n x k view a (lda),
 * or A^T A of the column-major k x n view when t: syrk's one triangle (half
 * the products of a gemm), mirrored into the other. NumPy's call for
 * X.T @ X and X @ X.T. */
static void syrk(int li, bool t, int64_t n, const BlasInt *N, const BlasInt *K, const char *a, const BlasInt *LDA,
                 char *c, const BlasInt *LDC, int64_t ldc, size_t item)
{
    lib.syrk[li]("U", t ? "T" : "N", N, K, one_of(li), a, LDA, zero_of(), c, LDC, 1, 1);
    for (int64_t i = 0; i < n; i++) /* column-major upper = row-major lower: copy it above the diagonal */
        for (int64_t j = i + 1; j < n; j++)
            memcpy(c + (size_t)(i * ldc + j) * item, c + (size_t)(j * ldc + i) * item, item);
}

/* NgBackend.gemm (backend.h). Row-major C = A @ B is column-major C^T =
 * B^T A^T: gemm gets B first, and an operand stored transposed (trans) is
 * the other op. A vector operand (n or m of 1) is a gemv, two are a dot;
 * the same matrix stored once and read as X and X^T is a syrk. */
NgStatus ng_cpu_gemm(NgDevice *dev, NgDType dt, int trans, int64_t batch, int64_t n, int64_t m, int64_t k,
                     const void *A, size_t a_off, int64_t lda, int64_t a_bs,
                     const void *B, size_t b_off, int64_t ldb, int64_t b_bs,
                     void *C, size_t c_off, int64_t ldc, int64_t c_bs)
{
    pthread_once(&lib_once, load);
    int li = letter_index(dt);
    if (!lib.ok || li < 0)
        return ng_error_set(NG_ERR_UNSUPPORTED, "no host BLAS for this product");
    size_t item = ng_dtype_info(dt)->itemsize;
    bool ta = trans & NG_GEMM_TRANS_A, tb = trans & NG_GEMM_TRANS_B;
    BlasInt M, N, K, LDA, LDB, LDC, ONE;
    bool fits = put_int(&M, m) && put_int(&N, n) && put_int(&K, k) && put_int(&LDA, lda) && put_int(&LDB, ldb) &&
                put_int(&LDC, ldc) && put_int(&ONE, 1);
    if (!fits)
        return ng_error_set(NG_ERR_UNSUPPORTED, "the product's sizes do not fit the host BLAS's integers");
    /* one matrix read as X^T and X: the same block, offsets and leading dimension, one side transposed */
    bool gram = lib.syrk[li] && n == m && n > 1 && ta != tb && A == B && a_off == b_off && lda == ldb && a_bs == b_bs;
    for (int64_t q = 0; q < batch; q++) {
        const char *a = (const char *)A + a_off + (size_t)(q * a_bs) * item;
        const char *b = (const char *)B + b_off + (size_t)(q * b_bs) * item;
        char *c = (char *)C + c_off + (size_t)(q * c_bs) * item;
        if (m == 1 && n == 1 && lib.dot[li])
            dot(li, k, a, 1, b, ldb, c);
        else if (m == 1) /* C (n) = A b: A row-major is A^T column-major (k x n); stored transposed, A (n x k) */
            lib.gemv[li](ta ? "N" : "T", ta ? &N : &K, ta ? &K : &N, one_of(li), a, &LDA, b, &LDB, zero_of(), c,
                         &ONE, 1);
        else if (n == 1) /* C (m) = B^T a: B row-major is B^T column-major (m x k); stored transposed, B */
            lib.gemv[li](tb ? "T" : "N", tb ? &K : &M, tb ? &M : &K, one_of(li), b, &LDB, a, &ONE, zero_of(), c,
                         &ONE, 1);
        else if (gram) /* ta: the block is A^T (k x n) row-major, so A column-major: C = A A^T; tb: C = B^T B */
            syrk(li, tb, n, &N, &K, a, &LDA, c, &LDC, ldc, item);
        else
            lib.gemm[li](tb ? "T" : "N", ta ? "T" : "N", &M, &N, &K, one_of(li), b, &LDB, a, &LDA, zero_of(), c,
                         &LDC, 1, 1);
    }
    return NG_OK;
}

/* dst (cols x rows, row-major) = src (rows x cols, row-major) transposed:
 * a row-major matrix to LAPACK's column-major and back. */
static void transpose(char *dst, const char *src, int64_t rows, int64_t cols, size_t item)
{
#define TRANSPOSE(T)                                                                     \
    for (int64_t i0 = 0; i0 < rows; i0 += 32)                                              \
        for (int64_t j = 0; j < cols; j++)                                                 \
            for (int64_t i = i0; i < rows && i < i0 + 32; i++)                             \
                memcpy((T *)dst + j * rows + i, (const T *)src + i * cols + j, sizeof(T));
    typedef struct { double re, im; } C16;
    if (item == 4)
        TRANSPOSE(float)
    else if (item == 8)
        TRANSPOSE(double)
    else
        TRANSPOSE(C16)
#undef TRANSPOSE
}

/* LAPACK's answer to a workspace query (lwork = -1), in elements. */
static int64_t work_size(int li, const void *w)
{
    return li == 0 || li == 2 ? (int64_t)*(const float *)w : (int64_t)*(const double *)w;
}

static NgStatus lapack_error(int64_t info)
{
    return ng_error_set(NG_ERR_DEVICE, "cpu: the host LAPACK refused argument %lld", (long long)-info);
}

/* QR of the row-major m x n matrix a (NgBackend.lapack's QR ops): geqrf on
 * a column-major copy, R written back, Q (orgqr/ungqr) into q. */
static NgStatus qr(int li, size_t item, int op, int64_t m, int64_t n, char *a, char *q, int *info)
{
    int64_t kk = m < n ? m : n, kq = op == NG_LAPACK_QR_COMPLETE ? m : kk, cols = n > kq ? n : kq;
    BlasInt M, N, K, KQ, LWORK, INFO = {0};
    if (!put_int(&M, m) || !put_int(&N, n) || !put_int(&K, kk) || !put_int(&KQ, kq) || !put_int(&LWORK, -1) ||
        m * cols > (lib.ilp64 ? INT64_MAX : INT32_MAX))
        return ng_error_set(NG_ERR_UNSUPPORTED, "the matrix's size does not fit the host LAPACK's integers");
    double query[2][2] = {{0, 0}, {0, 0}};
    char *w = malloc((size_t)(m * cols + kk) * item);
    if (!w)
        return ng_error_set(NG_ERR_NOMEM, "out of memory: %lld bytes for a LAPACK work copy",
                            (long long)((size_t)(m * cols + kk) * item));
    char *tau = w + (size_t)(m * cols) * item;
    lib.geqrf[li](&M, &N, w, &M, tau, query[0], &LWORK, &INFO);
    if (op != NG_LAPACK_QR_R)
        lib.orgqr[li](&M, &KQ, &K, w, &M, tau, query[1], &LWORK, &INFO);
    int64_t lwork = work_size(li, query[0]) > work_size(li, query[1]) ? work_size(li, query[0])
                                                                      : work_size(li, query[1]);
    lwork = lwork > 1 ? lwork : 1;
    void *work = malloc((size_t)lwork * item);
    if (!work || !put_int(&LWORK, lwork)) {
        free(w);
        free(work);
        return ng_error_set(NG_ERR_NOMEM, "out of memory: %lld bytes for LAPACK's workspace",
                            (long long)((size_t)lwork * item));
    }
    transpose(w, a, m, n, item);
    lib.geqrf[li](&M, &N, w, &M, tau, work, &LWORK, &INFO);
    int64_t r = get_int(&INFO);
    if (r == 0) {
        transpose(a, w, n, m, item);
        if (op != NG_LAPACK_QR_R) {
            lib.orgqr[li](&M, &KQ, &K, w, &M, tau, work, &LWORK, &INFO);
            r = get_int(&INFO);
            if (r == 0)
                transpose(q, w, kq, m, item);
        }
    }
    free(work);
    free(w);
    *info = 0;
    return r == 0 ? NG_OK : lapack_error(r);
}

/* NgBackend.lapack (backend.h). POTRF: A seen column-major is A^T, conj(A)
 * for a Hermitian A, and its upper factor U (conj(A) = U^H U) stored
 * row-major is U^T = L (A = L L^H), read from A's lower triangle as NumPy
 * reads it. GESV: A is transposed into a scratch
 * copy, so LAPACK's gesv solves A X = B itself (NumPy's call, so NumPy's
 * pivots and bits); B is column-major already. GETRF factors A^T in place. */
NgStatus ng_cpu_lapack(NgDevice *dev, int op, NgDType dt, int64_t n, int64_t nrhs, void *A, size_t a_off, void *B,
                       size_t b_off, int *info)
{
    pthread_once(&lib_once, load);
    int li = letter_index(dt);
    void *fn = !lib.ok || li < 0 ? NULL
               : op == NG_LAPACK_POTRF ? (void *)lib.potrf[li]
               : op == NG_LAPACK_GESV  ? (void *)lib.gesv[li]
               : op == NG_LAPACK_GETRF ? (void *)lib.getrf[li]
                                       : (void *)(lib.orgqr[li] ? lib.geqrf[li] : NULL);
    if (!fn)
        return ng_error_set(NG_ERR_UNSUPPORTED, "no host LAPACK for this operation");
    char *a = (char *)A + a_off, *b = B ? (char *)B + b_off : NULL;
    size_t item = ng_dtype_info(dt)->itemsize;
    if (op >= NG_LAPACK_QR_R)
        return qr(li, item, op, n, nrhs, a, b, info);
    BlasInt N, NRHS, INFO = {0};
    if (!put_int(&N, n) || !put_int(&NRHS, nrhs) || n * n > (lib.ilp64 ? INT64_MAX : INT32_MAX))
        return ng_error_set(NG_ERR_UNSUPPORTED, "the matrix's size does not fit the host LAPACK's integers");
    if (op == NG_LAPACK_POTRF) {
        lib.potrf[li]("U", &N, a, &N, &INFO, 1);
    } else { /* GESV: a transposed copy of A, then the pivots; GETRF: the pivots */
        size_t scratch = op == NG_LAPACK_GESV ? (size_t)(n * n) * item : 0;
        char *tmp = malloc(scratch + (size_t)n * sizeof(int64_t));
        if (!tmp)
            return ng_error_set(NG_ERR_NOMEM, "out of memory: %lld bytes for a LAPACK work copy",
                                (long long)(scratch + (size_t)n * sizeof(int64_t)));
        void *ipiv = tmp + scratch;
        if (op == NG_LAPACK_GESV) {
            transpose(tmp, a, n, n, item);
            lib.gesv[li](&N, &NRHS, tmp, &N, ipiv, b, &N, &INFO);
        } else {
            lib.getrf[li](&N, &N, a, &N, ipiv, &INFO);
            for (int64_t k = 0; k < n; k++) /* LAPACK's 1-based pivots, 0-based */
                ((int64_t *)b)[k] = (lib.ilp64 ? ((int64_t *)ipiv)[k] : ((int32_t *)ipiv)[k]) - 1;
        }
        free(tmp);
    }
    int64_t r = get_int(&INFO);
    *info = r > 0;
    return r < 0 ? lapack_error(r) : NG_OK;
}

/* ---- eigen- and singular value solvers, least squares (NgBackend.decomp) ---- */

/* Their Fortran interfaces: P an array or an integer of the library's
 * width, C a character (its length appended as a size_t). */
#define P void *
#define C const char *
typedef void (*SyevdFn)(C, C, P, P, P, P, P, P, P, P, P, size_t, size_t);
typedef void (*HeevdFn)(C, C, P, P, P, P, P, P, P, P, P, P, P, size_t, size_t);
typedef void (*DgesddFn)(C, P, P, P, P, P, P, P, P, P, P, P, P, P, size_t);
typedef void (*ZgesddFn)(C, P, P, P, P, P, P, P, P, P, P, P, P, P, P, size_t);
typedef void (*DgeevFn)(C, C, P, P, P, P, P, P, P, P, P, P, P, P, size_t, size_t);
typedef void (*ZgeevFn)(C, C, P, P, P, P, P, P, P, P, P, P, P, P, size_t, size_t);
typedef void (*DgelsdFn)(P, P, P, P, P, P, P, P, P, P, P, P, P, P);
typedef void (*ZgelsdFn)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P);
#undef P
#undef C

/* LAPACK's scratch for one call: the column-major copies and the
 * workspaces, in one block; `work` and friends sized by a query. */
typedef struct Scratch {
    char *block;
    char *work, *rwork, *iwork;  /* (inside block, after the copies) */
    BlasInt lwork, lrwork, liwork;
} Scratch;

/* Allocates `copies` bytes (returned through *at) plus the workspaces the
 * query asked for: qwork[0] elements of `item` bytes, qrwork doubles,
 * qiwork integers (each at least `min_*`). */
static NgStatus scratch_new(Scratch *s, size_t copies, size_t item, const double *qwork, double qrwork,
                            const BlasInt *qiwork, int64_t min_r, int64_t min_i, char **at)
{
    int64_t lw = (int64_t)qwork[0], lr = (int64_t)qrwork, li = qiwork ? get_int(qiwork) : 0;
    lw = lw > 1 ? lw : 1;
    lr = lr > min_r ? lr : min_r;
    li = li > min_i ? li : min_i;
    copies = (copies + 15) & ~(size_t)15;
    size_t ibytes = lib.ilp64 ? 8 : 4;
    size_t bytes = copies + (size_t)lw * item + (size_t)lr * 8 + (size_t)li * ibytes + 16;
    s->block = malloc(bytes);
    if (!s->block || !put_int(&s->lwork, lw) || !put_int(&s->lrwork, lr) || !put_int(&s->liwork, li)) {
        free(s->block);
        s->block = NULL;
        return ng_error_set(NG_ERR_NOMEM, "out of memory: %lld bytes for LAPACK's workspace", (long long)bytes);
    }
    memset(s->block, 0, copies);
    *at = s->block;
    s->work = s->block + copies;
    s->rwork = s->work + (size_t)lw * item;
    s->iwork = s->rwork + (size_t)lr * 8;
    return NG_OK;
}

/* This thread's last workspace query (every matrix of a stack asks the
 * same one: asked once, as NumPy's loop asks it once per stack). */
static _Thread_local struct {
    int op, flags;
    int64_t m, n, nrhs;
    double work, rwork;
    int64_t iwork;
} last_query = {-1, 0, 0, 0, 0, 0, 0, 0};

/* Whether the query for (op, flags, m, n, nrhs) is known: then its answers
 * in *qw, *qr and (non-NULL) *qi. */
static bool recall(int op, int flags, int64_t m, int64_t n, int64_t nrhs, double *qw, double *qr, BlasInt *qi)
{
    if (last_query.op != op || last_query.flags != flags || last_query.m != m || last_query.n != n ||
        last_query.nrhs != nrhs)
        return false;
    *qw = last_query.work;
    *qr = last_query.rwork;
    if (qi)
        put_int(qi, last_query.iwork);
    return true;
}

static void remember(int op, int flags, int64_t m, int64_t n, int64_t nrhs, double qw, double qr, const BlasInt *qi)
{
    last_query.op = op;
    last_query.flags = flags;
    last_query.m = m;
    last_query.n = n;
    last_query.nrhs = nrhs;
    last_query.work = qw;
    last_query.rwork = qr;
    last_query.iwork = qi ? get_int(qi) : 0;
}

/* dst (row-major rows x cols) from the column-major rows x cols src. */
static void from_columns(char *dst, const char *src, int64_t rows, int64_t cols, size_t item)
{
    transpose(dst, src, cols, rows, item);
}

/* syevd/heevd, NumPy's call: the matrix itself column-major, its triangle
 * `uplo`; the eigenvectors (columns) back row-major. */
static NgStatus eigh(bool cplx, size_t item, int64_t n, int flags, char *a, char *w, int64_t *info)
{
    const char *jobz = flags & NG_DECOMP_VECTORS ? "V" : "N", *uplo = flags & NG_DECOMP_UPPER ? "U" : "L";
    BlasInt N, Q, INFO = {0}, qi = {0};
    put_int(&N, n);
    put_int(&Q, -1);
    double qw[2] = {0, 0}, qr = 0, dummy[2];
    if (!recall(NG_DECOMP_EIGH + 4 * cplx, flags, n, n, 0, qw, &qr, &qi)) {
        if (cplx)
            ((HeevdFn)lib.syevd[3])(jobz, uplo, &N, dummy, &N, w, qw, &Q, &qr, &Q, &qi, &Q, &INFO, 1, 1);
        else
            ((SyevdFn)lib.syevd[1])(jobz, uplo, &N, dummy, &N, w, qw, &Q, &qi, &Q, &INFO, 1, 1);
        remember(NG_DECOMP_EIGH + 4 * cplx, flags, n, n, 0, qw[0], qr, &qi);
    }
    Scratch s;
    char *ca;
    NgStatus st = scratch_new(&s, (size_t)(n * n) * item, item, qw, qr, &qi, 1, 1, &ca);
    if (st != NG_OK)
        return st;
    transpose(ca, a, n, n, item);
    if (cplx)
        ((HeevdFn)lib.syevd[3])(jobz, uplo, &N, ca, &N, w, s.work, &s.lwork, s.rwork, &s.lrwork, s.iwork, &s.liwork,
                                &INFO, 1, 1);
    else
        ((SyevdFn)lib.syevd[1])(jobz, uplo, &N, ca, &N, w, s.work, &s.lwork, s.iwork, &s.liwork, &INFO, 1, 1);
    *info = get_int(&INFO);
    if (*info == 0 && (flags & NG_DECOMP_VECTORS))
        from_columns(a, ca, n, n, item);
    free(s.block);
    return NG_OK;
}

/* gesdd, NumPy's call (jobz 'A' full, 'S' reduced, 'N' values only). */
static NgStatus gesdd(bool cplx, size_t item, int64_t m, int64_t n, int flags, char *a, char *sv, char *u, char *vh,
                      int64_t *info)
{
    bool vec = flags & NG_DECOMP_VECTORS, full = vec && (flags & NG_DECOMP_FULL);
    int64_t k = m < n ? m : n, mx = m > n ? m : n, ku = full ? m : k, kv = full ? n : k;
    const char *jobz = !vec ? "N" : full ? "A" : "S";
    BlasInt M, N, LDU, LDVT, Q, INFO = {0};
    put_int(&M, m);
    put_int(&N, n);
    put_int(&LDU, vec ? m : 1);
    put_int(&LDVT, vec ? kv : 1);
    put_int(&Q, -1);
    int64_t nr = !vec ? 7 * k : (5 * k * k + 5 * k > 2 * mx * k + 2 * k * k + k ? 5 * k * k + 5 * k
                                                                                  : 2 * mx * k + 2 * k * k + k);
    double qw[2] = {0, 0}, qr = 0, dummy[2];
    BlasInt qi[2];
    if (!recall(NG_DECOMP_SVD + 4 * cplx, flags, m, n, 0, qw, &qr, NULL)) {
        if (cplx)
            ((ZgesddFn)lib.gesdd[3])(jobz, &M, &N, dummy, &M, sv, dummy, &LDU, dummy, &LDVT, qw, &Q, dummy, qi, &INFO,
                                     1);
        else
            ((DgesddFn)lib.gesdd[1])(jobz, &M, &N, dummy, &M, sv, dummy, &LDU, dummy, &LDVT, qw, &Q, qi, &INFO, 1);
        remember(NG_DECOMP_SVD + 4 * cplx, flags, m, n, 0, qw[0], 0, NULL);
    }
    Scratch s;
    char *ca;
    size_t nu = vec ? (size_t)(m * ku) : 1, nv = vec ? (size_t)(kv * n) : 1;
    NgStatus st = scratch_new(&s, ((size_t)(m * n) + nu + nv) * item, item, qw, 0, NULL, cplx ? nr : 0, 8 * k, &ca);
    if (st != NG_OK)
        return st;
    char *cu = ca + (size_t)(m * n) * item, *cv = cu + nu * item;
    transpose(ca, a, m, n, item);
    if (cplx)
        ((ZgesddFn)lib.gesdd[3])(jobz, &M, &N, ca, &M, sv, cu, &LDU, cv, &LDVT, s.work, &s.lwork, s.rwork, s.iwork,
                                 &INFO, 1);
    else
        ((DgesddFn)lib.gesdd[1])(jobz, &M, &N, ca, &M, sv, cu, &LDU, cv, &LDVT, s.work, &s.lwork, s.iwork, &INFO, 1);
    *info = get_int(&INFO);
    if (*info == 0 && vec) {
        from_columns(u, cu, m, ku, item);
        from_columns(vh, cv, kv, n, item);
    }
    free(s.block);
    return NG_OK;
}

/* geev, NumPy's call (right eigenvectors only). A real matrix's
 * eigenvalues come as wr + i wi and a conjugate pair's vectors as the
 * columns vr[:, j] +- i vr[:, j + 1]: both made complex, as NumPy does. */
static NgStatus geev(bool cplx, size_t item, int64_t n, int flags, char *a, char *w, char *v, int64_t *info)
{
    bool vec = flags & NG_DECOMP_VECTORS;
    const char *jobvr = vec ? "V" : "N";
    BlasInt N, ONE, LDVR, Q, INFO = {0};
    put_int(&N, n);
    put_int(&ONE, 1);
    put_int(&LDVR, vec ? n : 1);
    put_int(&Q, -1);
    double qw[2] = {0, 0}, qr = 0, dummy[2];
    if (!recall(NG_DECOMP_EIG + 4 * cplx, flags, n, n, 0, qw, &qr, NULL)) {
        if (cplx)
            ((ZgeevFn)lib.geev[3])("N", jobvr, &N, dummy, &N, dummy, dummy, &ONE, dummy, &LDVR, qw, &Q, dummy, &INFO, 1,
                                   1);
        else
            ((DgeevFn)lib.geev[1])("N", jobvr, &N, dummy, &N, dummy, dummy, dummy, &ONE, dummy, &LDVR, qw, &Q, &INFO,
                                   1, 1);
        remember(NG_DECOMP_EIG + 4 * cplx, flags, n, n, 0, qw[0], 0, NULL);
    }
    Scratch s;
    char *ca;
    size_t nv = vec ? (size_t)(n * n) : 1;
    NgStatus st = scratch_new(&s, ((size_t)(n * n) + nv + 2 * (size_t)n) * item, item, qw, 0, NULL, cplx ? 2 * n : 0,
                              0, &ca);
    if (st != NG_OK)
        return st;
    char *cv = ca + (size_t)(n * n) * item;
    double *wr = (double *)(cv + nv * item), *wi = wr + n;
    transpose(ca, a, n, n, item);
    if (cplx)
        ((ZgeevFn)lib.geev[3])("N", jobvr, &N, ca, &N, w, dummy, &ONE, cv, &LDVR, s.work, &s.lwork, s.rwork, &INFO, 1,
                               1);
    else
        ((DgeevFn)lib.geev[1])("N", jobvr, &N, ca, &N, wr, wi, dummy, &ONE, cv, &LDVR, s.work, &s.lwork, &INFO, 1, 1);
    *info = get_int(&INFO);
    if (*info == 0 && cplx && vec) {
        from_columns(v, cv, n, n, item);
    } else if (*info == 0 && !cplx) {
        double *wc = (double *)w, *vc = (double *)v, *r = (double *)cv;
        for (int64_t j = 0; j < n; j++) {
            wc[2 * j] = wr[j];
            wc[2 * j + 1] = wi[j];
        }
        for (int64_t j = 0; vec && j < n; j++) {
            bool pair = wi[j] != 0 && j + 1 < n;
            for (int64_t i = 0; i < n; i++) { /* V[i, j] = vr[i, j] (+ i vr[i, j + 1]) */
                double re = r[j * n + i], im = pair ? r[(j + 1) * n + i] : 0;
                vc[2 * (i * n + j)] = re;
                vc[2 * (i * n + j) + 1] = im;
                if (pair) {
                    vc[2 * (i * n + j + 1)] = re;
                    vc[2 * (i * n + j + 1) + 1] = -im;
                }
            }
            j += pair;
        }
    }
    free(s.block);
    return NG_OK;
}

/* gelsd, NumPy's call: B padded to max(m, n) rows; X its first n rows, the
 * residuals the squared norms of the rest when m > n and the rank is full. */
static NgStatus gelsd(bool cplx, size_t item, int64_t m, int64_t n, int64_t nrhs, double rcond, char *a, const char *b,
                      char *x, char *sv, char *res, int64_t *rank, int64_t *info)
{
    int64_t ldb = m > n ? m : n;
    BlasInt M, N, NRHS, LDB, Q, RANK = {0}, INFO = {0}, qi[2] = {{0}, {0}};
    put_int(&M, m);
    put_int(&N, n);
    put_int(&NRHS, nrhs);
    put_int(&LDB, ldb);
    put_int(&Q, -1);
    double qw[2] = {0, 0}, qr[2] = {0, 0}, dummy[2];
    if (!recall(NG_DECOMP_LSTSQ + 4 * cplx, 0, m, n, nrhs, qw, qr, qi)) {
        if (cplx)
            ((ZgelsdFn)lib.gelsd[3])(&M, &N, &NRHS, dummy, &M, dummy, &LDB, sv, &rcond, &RANK, qw, &Q, qr, qi, &INFO);
        else
            ((DgelsdFn)lib.gelsd[1])(&M, &N, &NRHS, dummy, &M, dummy, &LDB, sv, &rcond, &RANK, qw, &Q, qi, &INFO);
        remember(NG_DECOMP_LSTSQ + 4 * cplx, 0, m, n, nrhs, qw[0], qr[0], qi);
    }
    Scratch s;
    char *ca;
    NgStatus st = scratch_new(&s, (size_t)(m * n + ldb * nrhs) * item, item, qw, qr[0], qi, 1, 1, &ca);
    if (st != NG_OK)
        return st;
    char *cb = ca + (size_t)(m * n) * item; /* (zeroed: the padding rows) */
    transpose(ca, a, m, n, item);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < m; i++)
            memcpy(cb + (size_t)(j * ldb + i) * item, b + (size_t)(i * nrhs + j) * item, item);
    if (cplx)
        ((ZgelsdFn)lib.gelsd[3])(&M, &N, &NRHS, ca, &M, cb, &LDB, sv, &rcond, &RANK, s.work, &s.lwork, s.rwork,
                                 s.iwork, &INFO);
    else
        ((DgelsdFn)lib.gelsd[1])(&M, &N, &NRHS, ca, &M, cb, &LDB, sv, &rcond, &RANK, s.work, &s.lwork, s.iwork,
                                 &INFO);
    *info = get_int(&INFO);
    *rank = get_int(&RANK);
    if (*info == 0) {
        bool resid = m > n && *rank == n;
        for (int64_t j = 0; j < nrhs; j++) {
            for (int64_t i = 0; i < n; i++)
                memcpy(x + (size_t)(i * nrhs + j) * item, cb + (size_t)(j * ldb + i) * item, item);
            double r2 = 0;
            const double *col = (const double *)(cb + (size_t)(j * ldb) * item);
            for (int64_t i = n; resid && i < m; i++)
                r2 += cplx ? col[2 * i] * col[2 * i] + col[2 * i + 1] * col[2 * i + 1] : col[i] * col[i];
            ((double *)res)[j] = r2;
        }
    }
    free(s.block);
    return NG_OK;
}

/* NgBackend.decomp (backend.h): float64 and complex128 (the routines
 * NumPy's linalg calls, double precision whatever its input). */
NgStatus ng_cpu_decomp(NgDevice *dev, int op, NgDType dt, int64_t m, int64_t n, int64_t nrhs, int flags,
                       double rcond, void *const *buf, const size_t *off, int64_t *rank, int *info)
{
    (void)dev;
    pthread_once(&lib_once, load);
    int li = letter_index(dt);
    void *fn = !lib.ok || (li != 1 && li != 3) ? NULL
               : op == NG_DECOMP_EIGH ? lib.syevd[li]
               : op == NG_DECOMP_SVD  ? lib.gesdd[li]
               : op == NG_DECOMP_EIG  ? lib.geev[li]
                                      : lib.gelsd[li];
    if (!fn)
        return ng_error_set(NG_ERR_UNSUPPORTED, "no host LAPACK for this operation");
    int64_t big = m > n ? m : n, w = nrhs > big ? nrhs : big;
    BlasInt probe;
    if (m <= 0 || n <= 0 || !put_int(&probe, big * w) || !put_int(&probe, 5 * big * big + 5 * big))
        return ng_error_set(NG_ERR_UNSUPPORTED, "the matrix's size does not fit the host LAPACK's integers");
    char *p[5];
    for (int i = 0; i < 5; i++)
        p[i] = buf[i] ? (char *)buf[i] + off[i] : NULL;
    bool cplx = li == 3;
    size_t item = cplx ? 16 : 8;
    int64_t bad = 0, r = 0;
    NgStatus st;
    switch (op) {
    case NG_DECOMP_EIGH: st = eigh(cplx, item, n, flags, p[0], p[1], &bad); break;
    case NG_DECOMP_SVD: st = gesdd(cplx, item, m, n, flags, p[0], p[1], p[2], p[3], &bad); break;
    case NG_DECOMP_EIG: st = geev(cplx, item, n, flags, p[0], p[1], p[2], &bad); break;
    default: st = gelsd(cplx, item, m, n, nrhs, rcond, p[0], p[1], p[2], p[3], p[4], &r, &bad); break;
    }
    if (rank)
        *rank = r;
    *info = bad != 0; /* as NumPy: any info, also gesdd's -4 for a NaN in A, is a failure (LinAlgError) */
    return st;
}
