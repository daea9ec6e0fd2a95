/* Tests of lowering loop nests to kernel IR (src/jit/lower.c).
 *
 * Each case parses a small Python function, lowers one of its loops with
 * hand-written types and plan (what the glue and the dependence analysis
 * will supply), runs the kernel on the cpu device through the kernel cache,
 * and compares the arrays and cells it wrote with the same loop computed
 * here in C, with Python's semantics. Parallel kernels without reductions or
 * atomics must also emit as CUDA source. Unsupported constructs must fail
 * with the Python file and line. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit/emit.h"
#include "jit/analyze.h"
#include "jit/desugar.h"
#include "jit/lower.h"
#include "kernel/kernel.h"

static NgDevice *dev;

/* ---- types and plans ---- */

static NgJitVarType arr(const char *name, NgDType dt, int ndim)
{
    return (NgJitVarType){name, true, dt, ndim, false, true, NG_JIT_MOD_NONE, NG_JIT_SEQ_ARRAY, false, 0, NULL};
}

static NgJitVarType py(const char *name, NgDType dt) /* a Python int/float/bool */
{
    return (NgJitVarType){name, false, dt, 0, false, false, NG_JIT_MOD_NONE, NG_JIT_SEQ_ARRAY, false, 0, NULL};
}

static NgJitVarType npscalar(const char *name, NgDType dt)
{
    return (NgJitVarType){name, false, dt, 0, true, false, NG_JIT_MOD_NONE, NG_JIT_SEQ_ARRAY, false, 0, NULL};
}

static NgJitLoopPlan par(void) { return (NgJitLoopPlan){.parallel = true}; }
static NgJitLoopPlan seq(void) { return (NgJitLoopPlan){.parallel = false}; }

static NgJitLoopPlan par_reduce(const char *name, NgOp op)
{
    NgJitLoopPlan p = par();
    p.nreductions = 1;
    p.reductions[0].name = name;
    p.reductions[0].op = op;
    return p;
}

/* ---- arrays ---- */

static NgArray upload(NgDType dt, int ndim, const int64_t *shape, const void *host)
{
    NgArray a;
    CHECK_OK(ng_array_empty(dev, dt, ndim, shape, &a));
    if (host)
        CHECK_OK(ng_array_upload(&a, host, NULL));
    return a;
}

static NgArray vec(NgDType dt, int64_t n, const void *host) { return upload(dt, 1, &n, host); }

static NgArray mat(NgDType dt, int64_t r, int64_t c, const void *host)
{
    int64_t shape[2] = {r, c};
    return upload(dt, 2, shape, host);
}

/* ---- running a loop ---- */

/* A value the test binds to a name: an array, or a scalar (in and out). */
typedef struct Bind {
    const char *name;
    NgArray *a;       /* arrays */
    bool is_float;    /* scalars: the value is f, else i */
    double f;
    int64_t i;
    double out;       /* cells: the value after the loop */
    bool unbound;     /* cells of a name not bound before: the loop never assigned it */
    int64_t out_i;    /* int64 cells: the value after the loop, exactly */
} Bind;

static Bind barr(const char *name, NgArray *a) { return (Bind){name, a, false, 0, 0, 0, false, 0}; }
static Bind bint(const char *name, int64_t i) { return (Bind){name, NULL, false, 0, i, 0, false, 0}; }
static Bind bflt(const char *name, double f) { return (Bind){name, NULL, true, f, 0, 0, false, 0}; }

typedef struct BuildCtx {
    const NgJitAst *ast;
    const NgJitStmt *loop;
    const NgJitVarType *vars;
    int nvars;
    const NgJitLoopPlan *plan;
} BuildCtx;

static NgStatus build(const void *ctx, NgIrKernel *k)
{
    const BuildCtx *c = ctx;
    return ng_jit_lower(c->ast, c->loop, c->vars, c->nvars, c->plan, k, NULL);
}

/* The nth loop (FOR or WHILE) directly in the body of the first def. */
static const NgJitStmt *find_loop(const NgJitAst *ast, int nth)
{
    const NgJitStmt *def = ast->body.stmts[0];
    for (int i = 0; i < def->body.n; i++) {
        const NgJitStmt *s = def->body.stmts[i];
        if ((s->kind == NG_JIT_S_FOR || s->kind == NG_JIT_S_WHILE) && nth-- == 0)
            return s;
    }
    return NULL;
}

static void put_scalar(NgDType dt, const Bind *b, void *out)
{
    double f = b->is_float ? b->f : (double)b->i;
    int64_t i = b->is_float ? (int64_t)b->f : b->i;
    switch (dt) {
    case NG_FLOAT64: *(double *)out = f; break;
    case NG_FLOAT32: *(float *)out = (float)f; break;
    case NG_INT32: *(int32_t *)out = (int32_t)i; break;
    case NG_BOOL: *(uint8_t *)out = i != 0; break;
    default: *(int64_t *)out = i; break;
    }
}

static double get_scalar(NgDType dt, const void *p)
{
    switch (dt) {
    case NG_FLOAT64: return *(const double *)p;
    case NG_FLOAT32: return *(const float *)p;
    case NG_INT32: return *(const int32_t *)p;
    case NG_BOOL: return *(const uint8_t *)p;
    default: return (double)*(const int64_t *)p;
    }
}

static char last_source[1 << 18];
static int64_t last_err[4]; /* the error array after a boundscheck launch */
static NgJitAst *last_ast;
static NgJitLoops *last_loops; /* run_loop's analysis of last_ast, when analyse_loops */
static bool analyse_loops;
static int nvrtc_compiled;  /* CUDA sources NVRTC compiled */  /* kept until the next run: the names in NgJitLowered point into it */

/* Lowers loop `nth` of src with the types and plan, runs it on the cpu with
 * the bindings (extent: the outer loop's trip count) and fills the cells'
 * `out`. Returns the lowering's or the launch's status. */
static NgStatus run_loop(const char *src, int nth, const NgJitVarType *vars, int nvars, const NgJitLoopPlan *plan,
                         Bind *binds, int nbinds, int64_t extent, NgJitLowered *info_out)
{
    NgJitAst *ast;
    ng_jit_ast_free(last_ast);
    last_ast = NULL;
    NgStatus st = ng_jit_parse(src, strlen(src), "t.py", &ast, NULL);
    if (st != NG_OK)
        return st;
    last_ast = ast;
    if ((st = ng_jit_desugar(ast)) != NG_OK)
        return st;
    NgJitLoopPlan with_loops;
    if (analyse_loops) { /* (the analysis' facts about the loops: what is read after them) */
        ng_jit_loops_free(last_loops);
        last_loops = NULL;
        if ((st = ng_jit_analyze(ast, ast->body.stmts[0], &last_loops)) != NG_OK)
            return st;
        with_loops = *plan;
        with_loops.loops = last_loops;
        plan = &with_loops;
    }
    const NgJitStmt *loop = find_loop(ast, nth);
    NgJitLowered info;
    NgIrKernel k;
    ng_ir_init(&k, "jit_test");
    st = ng_jit_lower(ast, loop, vars, nvars, plan, &k, &info);
    if (st != NG_OK) {
        ng_ir_free(&k);
        return st;
    }
    if (info_out)
        *info_out = info;
    NgStr s;
    ng_str_init(&s);
    CHECK_OK(ng_emit(&k, &ng_target_c, &s));
    snprintf(last_source, sizeof last_source, "%s", s.s);
    ng_str_free(&s);
    bool atomics = false;
    for (NgIrRef r = 0; r < k.nnodes; r++)
        atomics = atomics || k.nodes[r].kind == NG_IR_ATOMIC;
    if (plan->parallel && k.nreds == 0 && !atomics) {
        ng_str_init(&s);
        CHECK_OK(ng_emit(&k, &ng_target_cuda, &s));
        CHECK(strstr(s.s, "blockIdx.x") != NULL);
        /* NVRTC needs no GPU: where it is installed the CUDA source must compile */
        static int have_nvrtc = -1;
        if (have_nvrtc < 0) {
            have_nvrtc = ng_cuda_nvrtc_version() != NULL;
            if (!have_nvrtc)
                check_skip("compiling the CUDA source with NVRTC", ng_error_message());
        }
        if (have_nvrtc) {
            NgStatus cst = ng_cuda_nvrtc_compile(s.s, k.name, "sm_90", true, NULL, NULL);
            CHECK_OK(cst);
            if (cst != NG_OK)
                printf("%s\n%s\n", ng_error_log(), s.s);
            nvrtc_compiled++;
        }
        ng_str_free(&s);
    }
    ng_ir_free(&k);

    NgStr key;
    ng_str_init(&key);
    CHECK_OK(ng_jit_lower_key(ast, loop, vars, nvars, plan, &key));
    BuildCtx ctx = {ast, loop, vars, nvars, plan};
    const NgKernel *kern = NULL;
    st = ng_kernel_get(dev, key.s, key.len, build, &ctx, &kern);
    ng_str_free(&key);
    NgKArg args[512];
    int n = 0;
    NgArray cells[NG_JIT_MAX_ARGS];
    int cell_of[NG_JIT_MAX_ARGS];
    int ncells = 0;
    NgArray err = {0};
    for (int a = 0; st == NG_OK && a < info.nargs; a++) {
        const NgJitArg *ja = &info.args[a];
        if (ja->role == NG_JIT_ARG_ERROR) {
            int64_t zeros[4] = {0};
            err = vec(NG_INT64, 4, zeros);
            int64_t one = 1;
            ng_kargs_array(args, &n, &err, 1, err.shape, &one);
            continue;
        }
        Bind *b = NULL;
        for (int j = 0; j < nbinds; j++)
            if (strcmp(binds[j].name, ja->name) == 0)
                b = &binds[j];
        if (!b && !((ja->role == NG_JIT_ARG_CELL || ja->role == NG_JIT_ARG_BOUND) && !ja->has_input)) {
            printf("no binding for '%s'\n", ja->name);
            st = NG_ERR_VALUE;
            break;
        }
        if (ja->role == NG_JIT_ARG_ARRAY) {
            int64_t strides[NG_MAXDIMS];
            for (int d = 0; d < b->a->ndim; d++)
                strides[d] = b->a->strides[d] / ng_array_itemsize(b->a);
            ng_kargs_array(args, &n, b->a, b->a->ndim, b->a->shape, strides);
        } else if (ja->role == NG_JIT_ARG_SCALAR) {
            if (ng_dtype_is_float(ja->dtype))
                args[n++].f = b->is_float ? b->f : (double)b->i;
            else
                args[n++].i = b->is_float ? (int64_t)b->f : b->i;
        } else {
            char buf[16] = {0};
            Bind none = bint(ja->name, 0);
            put_scalar(ja->dtype, b ? b : &none, buf);
            cells[ncells] = upload(ja->dtype, 0, NULL, buf);
            cell_of[ncells] = a;
            ng_kargs_array(args, &n, &cells[ncells], 0, NULL, NULL);
            ncells++;
        }
    }
    if (st == NG_OK)
        st = ng_kernel_launch(kern, args, n, extent, extent * 4096);
    if (st == NG_OK)
        st = ng_device_sync(dev);
    for (int c = 0; c < ncells; c++) {
        const NgJitArg *ja = &info.args[cell_of[c]];
        char buf[16];
        if (st == NG_OK && ng_array_download(&cells[c], buf, NULL) == NG_OK) {
            for (int j = 0; j < nbinds; j++) {
                if (strcmp(binds[j].name, ja->name) != 0)
                    continue;
                if (ja->role == NG_JIT_ARG_BOUND)
                    binds[j].unbound = get_scalar(ja->dtype, buf) == 0;
                else
                    binds[j].out = get_scalar(ja->dtype, buf);
                if (ja->dtype == NG_INT64)
                    memcpy(&binds[j].out_i, buf, sizeof binds[j].out_i);
            }
        }
        ng_array_release(&cells[c]);
    }
    memset(last_err, 0, sizeof last_err);
    if (err.buf) {
        if (st == NG_OK)
            CHECK_OK(ng_array_download(&err, last_err, NULL));
        ng_array_release(&err);
    }
    return st;
}

/* The parameter named `name` (a dummy when none is). */
static const NgJitArg *arg_named(const NgJitLowered *info, const char *name)
{
    static const NgJitArg none = {"", NG_JIT_ARG_ARRAY, NG_NODTYPE, -1, false, false, false, NG_NOPS, 0};
    for (int i = 0; i < info->nargs; i++)
        if (strcmp(info->args[i].name, name) == 0)
            return &info->args[i];
    printf("no parameter '%s'\n", name);
    return &none;
}

/* The position of the first parameter named `name` (-1 when none is). */
static int arg_index(const NgJitLowered *info, const char *name)
{
    for (int i = 0; i < info->nargs; i++)
        if (info->args[i].name && strcmp(info->args[i].name, name) == 0)
            return i;
    return -1;
}

/* The value a cell named `name` ended with. */
static double out_of(const Bind *b, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(b[i].name, name) == 0)
            return b[i].out;
    return NAN;
}

/* ---- Python's integer and float semantics, for the reference loops ---- */

static int64_t py_floordiv(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t py_mod(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0)))
        m += b;
    return m;
}

/* CPython's float_divmod: the floor quotient and the modulo, signed zeros included. */
static void py_fdivmod(double vx, double wx, double *floordiv, double *mod)
{
    double m = fmod(vx, wx), div = (vx - m) / wx;
    if (m != 0) {
        if ((wx < 0) != (m < 0)) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = copysign(0.0, wx);
    }
    double fd;
    if (div != 0) {
        fd = floor(div);
        if (div - fd > 0.5)
            fd += 1.0;
    } else {
        fd = copysign(0.0, vx / wx);
    }
    *floordiv = fd;
    *mod = m;
}

static double py_fmod(double a, double b)
{
    double q, m;
    py_fdivmod(a, b, &q, &m);
    return m;
}

static double py_ffloordiv(double a, double b)
{
    double q, m;
    py_fdivmod(a, b, &q, &m);
    return q;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double urand(void) /* in [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* ---- cases ---- */

static void test_saxpy(void)
{
    const char *src =
        "def f(a, x, y, out):\n"
        "    for i in range(len(x)):\n"
        "        out[i] = a * x[i] + y[i]\n";
    enum { N = 1000 };
    double x[N], y[N], o[N];
    for (int i = 0; i < N; i++)
        x[i] = urand() - 0.5, y[i] = urand() * 3;
    NgArray ax = vec(NG_FLOAT64, N, x), ay = vec(NG_FLOAT64, N, y), ao = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {py("a", NG_FLOAT64), arr("x", NG_FLOAT64, 1), arr("y", NG_FLOAT64, 1),
                           arr("out", NG_FLOAT64, 1)};
    Bind b[] = {bflt("a", 2.5), barr("x", &ax), barr("y", &ay), barr("out", &ao)};
    NgJitLoopPlan plan = par();
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 4, &plan, b, 4, N, &info));
    /* parameters in order of first mention: x, out, a, y; then the NG_JIT_PYTHON cell of out[i]'s
     * range, checked before the loop (i runs over range(len(x)), not out's) */
    CHECK_EQ_INT(5, info.nargs);
    CHECK_EQ_INT(4, arg_index(&info, NG_JIT_PYTHON));
    CHECK(arg_index(&info, NG_JIT_RAISE) < 0);
    CHECK_EQ_STR("x", info.args[0].name);
    CHECK_EQ_INT(NG_JIT_ARG_ARRAY, info.args[0].role);
    CHECK(!info.args[0].written);
    CHECK_EQ_STR("out", info.args[1].name);
    CHECK(info.args[1].written);
    CHECK_EQ_STR("a", info.args[2].name);
    CHECK_EQ_INT(NG_JIT_ARG_SCALAR, info.args[2].role);
    CHECK_EQ_INT(NG_FLOAT64, info.args[2].dtype);
    CHECK(info.parallel);
    CHECK_EQ_INT(2, info.line);
    CHECK_STR_CONTAINS(last_source, "omp parallel for");
    CHECK_OK(ng_array_download(&ao, o, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += o[i] != 2.5 * x[i] + y[i];
    CHECK_EQ_INT(0, bad);

    /* float32 arrays with a Python float: computed in float32 (NEP 50) */
    float xf[N], yf[N], of[N];
    for (int i = 0; i < N; i++)
        xf[i] = (float)x[i], yf[i] = (float)y[i];
    NgArray fx = vec(NG_FLOAT32, N, xf), fy = vec(NG_FLOAT32, N, yf), fo = vec(NG_FLOAT32, N, NULL);
    NgJitVarType fvars[] = {py("a", NG_FLOAT64), arr("x", NG_FLOAT32, 1), arr("y", NG_FLOAT32, 1),
                            arr("out", NG_FLOAT32, 1)};
    Bind fb[] = {bflt("a", 0.1), barr("x", &fx), barr("y", &fy), barr("out", &fo)};
    CHECK_OK(run_loop(src, 0, fvars, 4, &plan, fb, 4, N, NULL));
    CHECK_STR_CONTAINS(last_source, "float");
    CHECK_OK(ng_array_download(&fo, of, NULL));
    bad = 0;
    for (int i = 0; i < N; i++) {
        volatile float p = (float)0.1 * xf[i];
        volatile float s = p + yf[i];
        bad += of[i] != s;
    }
    CHECK_EQ_INT(0, bad);
    ng_array_release(&ax), ng_array_release(&ay), ng_array_release(&ao);
    ng_array_release(&fx), ng_array_release(&fy), ng_array_release(&fo);
}

static void test_nested_2d(void)
{
    /* A[i][j] and A[i, j], negative indices, a negative step, a step known at run time */
    const char *src =
        "def f(A, B, C, D, step):\n"
        "    n, m = A.shape\n"
        "    for i in range(A.shape[0]):\n"
        "        for j in range(m - 1, -1, -1):\n"
        "            C[i, j] = A[i][j] * 2 + B[i, -1 - j]\n"
        "        for j in range(0, m, step):\n"
        "            D[-i - 1, j] = A[i, j] - len(A[i])\n";
    enum { R = 7, M = 13 };
    double A[R][M], B[R][M], C[R][M], D[R][M];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < M; j++)
            A[i][j] = i * 100 + j, B[i][j] = urand();
    NgArray a = mat(NG_FLOAT64, R, M, A), b = mat(NG_FLOAT64, R, M, B), c = mat(NG_FLOAT64, R, M, NULL);
    double zero[R][M] = {{0}};
    NgArray d = mat(NG_FLOAT64, R, M, zero);
    NgJitVarType vars[] = {arr("A", NG_FLOAT64, 2), arr("B", NG_FLOAT64, 2), arr("C", NG_FLOAT64, 2),
                           arr("D", NG_FLOAT64, 2), py("step", NG_INT64), py("m", NG_INT64), py("n", NG_INT64)};
    Bind bs[] = {barr("A", &a), barr("B", &b), barr("C", &c), barr("D", &d), bint("step", 3), bint("m", M),
                 bint("n", R)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 7, &plan, bs, 7, R, NULL));
    CHECK_OK(ng_array_download(&c, C, NULL));
    CHECK_OK(ng_array_download(&d, D, NULL));
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < M; j++) {
            bad += C[i][j] != A[i][j] * 2 + B[i][M - 1 - j];
            bad += D[R - 1 - i][j] != (j % 3 == 0 ? A[i][j] - M : 0);
        }
    CHECK_EQ_INT(0, bad);

    /* a sequential outer loop with a negative step: each row from the one below */
    const char *src2 =
        "def f(A):\n"
        "    for i in range(A.shape[0] - 2, -1, -1):\n"
        "        for j in range(A.shape[1]):\n"
        "            A[i, j] += A[i + 1, j]\n";
    NgJitLoopPlan s = seq();
    CHECK_OK(run_loop(src2, 0, vars, 1, &s, bs, 1, 1, NULL));
    CHECK_OK(ng_array_download(&a, C, NULL));
    for (int i = R - 2; i >= 0; i--)
        for (int j = 0; j < M; j++)
            A[i][j] += A[i + 1][j];
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < M; j++)
            bad += C[i][j] != A[i][j];
    CHECK_EQ_INT(0, bad);
    ng_array_release(&a), ng_array_release(&b), ng_array_release(&c), ng_array_release(&d);
}

static void test_dot_reduction(void)
{
    const char *src =
        "def f(a, b):\n"
        "    s = 0.0\n"
        "    for i in range(a.shape[0]):\n"
        "        s += a[i] * b[i]\n"
        "    return s\n";
    enum { N = 100000 };
    static double x[N], y[N];
    double want = 1.5;
    for (int i = 0; i < N; i++) {
        x[i] = urand() - 0.5, y[i] = urand();
        want += x[i] * y[i];
    }
    NgArray a = vec(NG_FLOAT64, N, x), b = vec(NG_FLOAT64, N, y);
    NgJitVarType vars[] = {arr("a", NG_FLOAT64, 1), arr("b", NG_FLOAT64, 1), py("s", NG_FLOAT64)};
    Bind bs[] = {barr("a", &a), barr("b", &b), bflt("s", 1.5)};
    NgJitLoopPlan plan = par_reduce("s", NG_OP_ADD);
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, N, &info));
    CHECK_NEAR(want, out_of(bs, 3, "s"), 1e-9 * N);
    CHECK_EQ_INT(4, info.nargs); /* a, b, s and NG_JIT_PYTHON: a.shape[0] may be 0 (trips_python) */
    CHECK_EQ_INT(NG_JIT_ARG_CELL, arg_named(&info, NG_JIT_PYTHON)->role);
    CHECK(info.range_python); /* (only the range's check: a scan may take it) */
    const NgJitArg *cell = arg_named(&info, "s");
    CHECK_EQ_INT(NG_JIT_ARG_CELL, cell->role);
    CHECK_EQ_INT(NG_FLOAT64, cell->dtype);
    CHECK_EQ_INT(NG_OP_ADD, cell->reduction);
    CHECK(cell->has_input);
    CHECK(!cell->weak); /* float + float64 element: a NumPy float64 */
    CHECK_STR_CONTAINS(last_source, "reduction(+:");

    /* an integer sum from a Python int, and a product */
    const char *src2 =
        "def f(a):\n"
        "    c = 0\n"
        "    p = 1\n"
        "    for i in range(len(a)):\n"
        "        if a[i] > 0.25:\n"
        "            c += 1\n"
        "        p *= 1 + (i % 3 == 0)\n";
    NgJitVarType vars2[] = {arr("a", NG_FLOAT64, 1), py("c", NG_INT64), py("p", NG_INT64)};
    Bind bs2[] = {barr("a", &a), bint("c", 5), bint("p", 1)};
    NgJitLoopPlan plan2 = par_reduce("c", NG_OP_ADD);
    plan2.nreductions = 2;
    plan2.reductions[1].name = "p";
    plan2.reductions[1].op = NG_OP_MUL;
    const int n2 = 40;
    NgArray a2;
    ng_array_view(&a, &a2);
    a2.shape[0] = n2;
    a2.size = n2;
    bs2[0].a = &a2;
    /* a parallel product of Python ints combines its partials unchecked: refused (the launch
     * retries in order, every step checked against 64 bits) */
    CHECK(run_loop(src2, 0, vars2, 3, &plan2, bs2, 3, n2, &info) == NG_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ng_error_message(), "product of Python ints");
    plan2 = seq();
    CHECK_OK(run_loop(src2, 0, vars2, 3, &plan2, bs2, 3, n2, &info));
    int64_t c = 5, p = 1;
    for (int i = 0; i < n2; i++) {
        c += x[i] > 0.25;
        p *= 1 + (i % 3 == 0);
    }
    CHECK_EQ_INT(c, (int64_t)out_of(bs2, 3, "c"));
    CHECK_EQ_INT(p, (int64_t)out_of(bs2, 3, "p"));
    CHECK(arg_named(&info, "c")->weak);
    CHECK_EQ_INT(NG_INT64, arg_named(&info, "c")->dtype);
    ng_array_release(&a2);
    ng_array_release(&a), ng_array_release(&b);
}

static void test_floordiv_mod(void)
{
    const char *src =
        "def f(a, b, x, y, q, r, fq, fr, s, t):\n"
        "    for i in range(a.shape[0]):\n"
        "        q[i] = a[i] // b[i]\n"
        "        r[i] = a[i] % b[i]\n"
        "        fq[i] = x[i] // y[i]\n"
        "        fr[i] = x[i] % y[i]\n"
        "        s[i] = (a[i] // -3) * 1000 + a[i] % -3 + (-7 // 2) * 10 + -7 % 2\n"
        "        t[i] = a[i] / 4 + 2 ** -1 + a[i] ** 2 + ((a[i] << 3) ^ (b[i] & 0xFF)) + (a[i] >> 2)\n";
    enum { N = 64 };
    int64_t A[N], B[N], Q[N], R[N], S[N];
    double X[N], Y[N], FQ[N], FR[N], T[N];
    for (int i = 0; i < N; i++) {
        A[i] = (int64_t)(urand() * 200) - 100;
        B[i] = (int64_t)(urand() * 20) - 10;
        if (B[i] == 0)
            B[i] = 7;
        X[i] = urand() * 20 - 10;
        Y[i] = urand() * 6 - 3;
    }
    NgArray a = vec(NG_INT64, N, A), b = vec(NG_INT64, N, B), x = vec(NG_FLOAT64, N, X), y = vec(NG_FLOAT64, N, Y);
    NgArray q = vec(NG_INT64, N, NULL), r = vec(NG_INT64, N, NULL), fq = vec(NG_FLOAT64, N, NULL);
    NgArray fr = vec(NG_FLOAT64, N, NULL), s = vec(NG_INT64, N, NULL), t = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {arr("a", NG_INT64, 1), arr("b", NG_INT64, 1), arr("x", NG_FLOAT64, 1),
                           arr("y", NG_FLOAT64, 1), arr("q", NG_INT64, 1), arr("r", NG_INT64, 1),
                           arr("fq", NG_FLOAT64, 1), arr("fr", NG_FLOAT64, 1), arr("s", NG_INT64, 1),
                           arr("t", NG_FLOAT64, 1)};
    Bind bs[] = {barr("a", &a), barr("b", &b), barr("x", &x), barr("y", &y), barr("q", &q),
                 barr("r", &r), barr("fq", &fq), barr("fr", &fr), barr("s", &s), barr("t", &t)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 10, &plan, bs, 10, N, NULL));
    CHECK_OK(ng_array_download(&q, Q, NULL));
    CHECK_OK(ng_array_download(&r, R, NULL));
    CHECK_OK(ng_array_download(&fq, FQ, NULL));
    CHECK_OK(ng_array_download(&fr, FR, NULL));
    CHECK_OK(ng_array_download(&s, S, NULL));
    CHECK_OK(ng_array_download(&t, T, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += Q[i] != py_floordiv(A[i], B[i]);
        bad += R[i] != py_mod(A[i], B[i]);
        bad += !check_same_double(py_ffloordiv(X[i], Y[i]), FQ[i]);
        bad += !check_same_double(py_fmod(X[i], Y[i]), FR[i]);
        bad += S[i] != py_floordiv(A[i], -3) * 1000 + py_mod(A[i], -3) + (-4) * 10 + 1;
        double want = (double)A[i] / 4 + 0.5 + (double)(A[i] * A[i]) +
                      (double)(((A[i] * 8) ^ (B[i] & 0xFF)) + (A[i] >> 2));
        bad += T[i] != want;
        if (bad)
            printf("i=%d a=%lld b=%lld q=%lld r=%lld s=%lld t=%.17g want %.17g x=%.17g y=%.17g fq=%.17g fr=%.17g\n",
                   i, (long long)A[i], (long long)B[i], (long long)Q[i], (long long)R[i], (long long)S[i], T[i], want,
                   X[i], Y[i], FQ[i], FR[i]);
        if (bad)
            break;
    }
    CHECK_EQ_INT(0, bad);
    NgArray *all[] = {&a, &b, &x, &y, &q, &r, &fq, &fr, &s, &t};
    for (int i = 0; i < 10; i++)
        ng_array_release(all[i]);
}

/* Python numbers' division by zero: a divisor the same in every iteration is
 * checked before the loop (NG_JIT_PYTHON: nothing runs), one that changes
 * in it (NG_JIT_RAISE), one known to be at least 1 not at all. */
static void test_python_division_checks(void)
{
    const char *src =
        "def f(x, k, m):\n"
        "    for i in range(x.shape[0]):\n"
        "        x[i] = i / k + 1.0 / (i - m)\n";
    enum { N = 16 };
    double X[N];
    for (int i = 0; i < N; i++)
        X[i] = 7.0;
    NgArray x = vec(NG_FLOAT64, N, X);
    NgJitVarType vars[] = {arr("x", NG_FLOAT64, 1), py("k", NG_INT64), py("m", NG_INT64)};
    NgJitLoopPlan plan = par();
    Bind bs[] = {barr("x", &x), bint("k", 0), bint("m", -5), bint(NG_JIT_PYTHON, 0), bint(NG_JIT_RAISE, 0)};
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 5, N, &info));
    CHECK(arg_index(&info, NG_JIT_PYTHON) >= 0 && arg_index(&info, NG_JIT_RAISE) > arg_index(&info, NG_JIT_PYTHON));
    CHECK_EQ_INT(3 * NG_JIT_RAISE_CODES + NG_JIT_RAISE_ZERODIV, (int64_t)out_of(bs, 5, NG_JIT_PYTHON));
    CHECK_OK(ng_array_download(&x, X, NULL));
    int untouched = 0;
    for (int i = 0; i < N; i++)
        untouched += X[i] == 7.0;
    CHECK_EQ_INT(N, untouched); /* (no iteration ran: the host runs the loop as Python) */
    Bind bs2[] = {barr("x", &x), bint("k", 2), bint("m", 3), bint(NG_JIT_PYTHON, 0), bint(NG_JIT_RAISE_FIRST, 0),
                  bint(NG_JIT_RAISE, 0)};
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs2, 6, N, NULL));
    CHECK_EQ_INT(0, (int64_t)out_of(bs2, 6, NG_JIT_PYTHON));
    /* (the parallel body's codes go to the first cell, with the failing iteration's rank, 3) */
    CHECK_EQ_INT(0, (int64_t)out_of(bs2, 6, NG_JIT_RAISE));
    CHECK_EQ_INT((NG_JIT_RAISE_RANKS - 3) * (INT64_C(1) << NG_JIT_RAISE_LOW_BITS) + 3 * NG_JIT_RAISE_CODES +
                     NG_JIT_RAISE_ZERODIV_FLOAT, bs2[4].out_i);
    CHECK_OK(ng_array_download(&x, X, NULL));
    CHECK(X[0] == 0.0 / 2 + 1.0 / (0 - 3) && X[5] == 5.0 / 2 + 1.0 / 2);
    const char *from_one =
        "def f(x, n):\n"
        "    for i in range(1, n):\n"
        "        x[i] = 1.0 / i + 7 // i\n";
    NgJitVarType vars1[] = {arr("x", NG_FLOAT64, 1), py("n", NG_INT64)};
    Bind bs1[] = {barr("x", &x), bint("n", N)};
    NgJitLoopPlan p1 = par();
    CHECK_OK(run_loop(from_one, 0, vars1, 2, &p1, bs1, 2, N, &info));
    /* (the NG_JIT_PYTHON cell is x[i]'s range, checked before the loop: no division's) */
    CHECK(arg_index(&info, NG_JIT_RAISE) < 0 && arg_index(&info, NG_JIT_PYTHON) >= 0);
    CHECK_OK(ng_array_download(&x, X, NULL));
    CHECK(X[3] == 1.0 / 3 + 2);
    /* 1.0 + t * t >= 1 (float bounds): no check; t * t - 1.0 may be 0: checked */
    const char *squares =
        "def f(x, n):\n"
        "    for i in range(n):\n"
        "        t = i * 0.5\n"
        "        x[i] = 4.0 / (1.0 + t * t)\n"
        "    for i in range(n):\n"
        "        t = i * 0.5\n"
        "        x[i] = 4.0 / (t * t - 1.0)\n";
    CHECK_OK(run_loop(squares, 0, vars1, 2, &p1, bs1, 2, N, &info));
    CHECK(arg_index(&info, NG_JIT_RAISE) < 0);
    CHECK_OK(ng_array_download(&x, X, NULL));
    CHECK(X[4] == 4.0 / (1.0 + 2.0 * 2.0));
    Bind bs3[] = {barr("x", &x), bint("n", N), bint(NG_JIT_RAISE_FIRST, 0), bint(NG_JIT_RAISE, 0)};
    CHECK_OK(run_loop(squares, 1, vars1, 2, &p1, bs3, 4, N, &info));
    CHECK(arg_index(&info, NG_JIT_RAISE_FIRST) >= 0 && arg_index(&info, NG_JIT_RAISE) > arg_index(&info, NG_JIT_RAISE_FIRST));
    CHECK_EQ_INT(7 * NG_JIT_RAISE_CODES + NG_JIT_RAISE_ZERODIV_FLOAT, ng_jit_raise_low(bs3[2].out_i));
    ng_array_release(&x);
}

static void expect_error(const char *src, const NgJitVarType *vars, int nvars, const NgJitLoopPlan *plan,
                         NgStatus want, const char *text);

/* A str (its code points) and a dict (lower.h's table): elements compare
 * with literals, look up the dict; a missing key's raise code tells the
 * key and the line; a str read whole must be of one character. */
static void test_str_and_dict(void)
{
    const char *src =
        "def f(t, d, o):\n"
        "    for i in range(len(t)):\n"
        "        c = t[i]\n"
        "        o[i] = d[c] if c in 'abc' else -ord(c)\n";
    enum { N = 6 };
    const uint8_t T[N] = {'a', 'c', 'z', 'b', ' ', 'a'};
    const int64_t D[4] = {'a', 10, 20, 30}; /* {'a': 10, 'b': 20, 'c': 30} */
    int64_t O[N] = {0};
    NgArray t = vec(NG_UINT8, N, T), d = vec(NG_INT64, 4, D), o = vec(NG_INT64, N, O);
    NgJitVarType vars[] = {arr("t", NG_UINT8, 1), arr("d", NG_INT64, 1), arr("o", NG_INT64, 1)};
    vars[0].seq = NG_JIT_SEQ_STR;
    vars[1].seq = NG_JIT_SEQ_DICT_CHR;
    NgJitLoopPlan plan = par();
    Bind bs[] = {barr("t", &t), barr("d", &d), barr("o", &o), bint(NG_JIT_RAISE, 0)};
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 4, N, NULL));
    CHECK_EQ_INT(0, (int64_t)out_of(bs, 4, NG_JIT_RAISE));
    CHECK_OK(ng_array_download(&o, O, NULL));
    CHECK(O[0] == 10 && O[1] == 30 && O[2] == -'z' && O[3] == 20 && O[4] == -' ' && O[5] == 10);
    /* 'b' missing (the table's entry is NG_JIT_NO_KEY): KeyError('b') at line 4 */
    const int64_t D2[4] = {'a', 10, NG_JIT_NO_KEY, 30};
    NgArray d2 = vec(NG_INT64, 4, D2);
    Bind bs2[] = {barr("t", &t), barr("d", &d2), barr("o", &o), bint(NG_JIT_RAISE, 0)};
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs2, 4, N, NULL));
    int64_t what = bs2[3].out_i, key = 0;
    CHECK_EQ_INT(NG_JIT_RAISE_KEY_STR, ng_jit_raise_kind(what));
    CHECK_EQ_INT(4, ng_jit_raise_line(what));
    int key_type = -1;
    CHECK(ng_jit_raise_key(what, &key, &key_type) && key == 'b' && key_type == NG_JIT_KEY_PYINT);
    /* a str compared whole: one character, else nothing runs (the loop runs as Python) */
    const char *whole =
        "def f(t, ch, o):\n"
        "    for i in range(len(t)):\n"
        "        o[i] = t[i] == ch\n";
    NgJitVarType wv[] = {arr("t", NG_UINT8, 1), arr("ch", NG_UINT8, 1), arr("o", NG_INT64, 1)};
    wv[0].seq = wv[1].seq = NG_JIT_SEQ_STR;
    const uint8_t two[2] = {'a', 'b'};
    NgArray ch1 = vec(NG_UINT8, 1, two), ch2 = vec(NG_UINT8, 2, two);
    Bind b1[] = {barr("t", &t), barr("ch", &ch1), barr("o", &o), bint(NG_JIT_PYTHON, 0)};
    CHECK_OK(run_loop(whole, 0, wv, 3, &plan, b1, 4, N, NULL));
    CHECK_EQ_INT(0, (int64_t)out_of(b1, 4, NG_JIT_PYTHON));
    CHECK_OK(ng_array_download(&o, O, NULL));
    CHECK(O[0] == 1 && O[1] == 0 && O[5] == 1);
    Bind b2[] = {barr("t", &t), barr("ch", &ch2), barr("o", &o), bint(NG_JIT_PYTHON, 0)};
    CHECK_OK(run_loop(whole, 0, wv, 3, &plan, b2, 4, N, NULL));
    CHECK_EQ_INT(3 * NG_JIT_RAISE_CODES + NG_JIT_RAISE_STR_LEN, (int64_t)out_of(b2, 4, NG_JIT_PYTHON));
    /* a str stored into an array, added to one, a dict changed or looked up by an int: not compiled */
    expect_error("def f(t, d, o):\n    for i in range(len(t)):\n        o[i] = t[i]\n", vars, 3, &plan,
                 NG_ERR_UNSUPPORTED, "t.py:3: storing a str into an array is not supported");
    expect_error("def f(t, d, o):\n    for i in range(len(t)):\n        o[i] = ord(t[i] + 'a')\n", vars, 3, &plan,
                 NG_ERR_UNSUPPORTED, "t.py:3: a str (in Python, no number) in this place is not supported");
    expect_error("def f(t, d, o):\n    for i in range(len(t)):\n        d[t[i]] = 1\n", vars, 3, &plan,
                 NG_ERR_UNSUPPORTED, "t.py:3: changing dict 'd' is not supported");
    expect_error("def f(t, d, o):\n    for i in range(len(t)):\n        o[i] = d[i]\n", vars, 3, &plan,
                 NG_ERR_UNSUPPORTED, "t.py:3: looking up dict 'd' (str keys) by int is not supported");
    ng_array_release(&t);
    ng_array_release(&d);
    ng_array_release(&d2);
    ng_array_release(&o);
    ng_array_release(&ch1);
    ng_array_release(&ch2);
}

static void test_conditional_max(void)
{
    const char *src =
        "def f(x):\n"
        "    m = x[0]\n"
        "    big = 0.0\n"
        "    for i in range(1, x.shape[0]):\n"
        "        if x[i] > m:\n"
        "            m = x[i]\n"
        "        big = max(big, abs(x[i]))\n";
    enum { N = 50000 };
    static float X[N];
    for (int i = 0; i < N; i++)
        X[i] = (float)(urand() * 100 - 60);
    X[N / 3] = 77.5f;
    X[N / 2] = -99.25f;
    NgArray x = vec(NG_FLOAT32, N, X);
    NgJitVarType vars[] = {arr("x", NG_FLOAT32, 1), npscalar("m", NG_FLOAT32), py("big", NG_FLOAT64)};
    Bind bs[] = {barr("x", &x), bflt("m", X[0]), bflt("big", 0.0)};
    NgJitLoopPlan plan = par_reduce("m", NG_OP_MAXIMUM);
    plan.nreductions = 2;
    plan.reductions[1].name = "big";
    plan.reductions[1].op = NG_OP_MAXIMUM;
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, N - 1, &info));
    CHECK_EQ_DOUBLE(77.5, out_of(bs, 3, "m"));
    CHECK_EQ_DOUBLE(99.25, out_of(bs, 3, "big"));
    CHECK_EQ_INT(NG_FLOAT32, arg_named(&info, "m")->dtype);   /* float32 stays float32 */
    CHECK_EQ_INT(NG_FLOAT32, arg_named(&info, "big")->dtype); /* 0.0 merged with float32 values */
    ng_array_release(&x);
}

static int64_t collatz_steps(int64_t v)
{
    int64_t c = 0;
    while (v != 1) {
        v = v % 2 == 0 ? v / 2 : 3 * v + 1;
        c++;
    }
    return c;
}

static void test_collatz(void)
{
    /* a sequential while loop: the whole loop is one thread, its scalars cells */
    const char *src =
        "def f(n0):\n"
        "    n = n0\n"
        "    steps = 0\n"
        "    while n != 1:\n"
        "        if n % 2 == 0:\n"
        "            n = n // 2\n"
        "        else:\n"
        "            n = 3 * n + 1\n"
        "        steps += 1\n"
        "    return steps\n";
    NgJitVarType vars[] = {py("n0", NG_INT64), py("n", NG_INT64), py("steps", NG_INT64)};
    Bind bs[] = {bint("n0", 27), bint("n", 27), bint("steps", 0)};
    NgJitLoopPlan plan = seq();
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, 1, &info));
    CHECK_EQ_INT(collatz_steps(27), (int64_t)out_of(bs, 3, "steps"));
    CHECK_EQ_INT(1, (int64_t)out_of(bs, 3, "n"));
    CHECK(!info.parallel);
    CHECK_EQ_INT(3, info.nargs); /* n0 is never mentioned in the loop; 3 * n + 1 of Python ints is
                                    checked against 64 bits: the NG_JIT_RAISE cell */
    CHECK_EQ_INT(NG_JIT_ARG_CELL, arg_named(&info, NG_JIT_RAISE)->role);

    /* the corpus' version: a parallel for around a while */
    const char *src2 =
        "def kernel(start, steps):\n"
        "    for i in range(start.shape[0]):\n"
        "        v = start[i]\n"
        "        c = 0\n"
        "        while v != 1:\n"
        "            if v % 2 == 0:\n"
        "                v = v // 2\n"
        "            else:\n"
        "                v = 3 * v + 1\n"
        "            c += 1\n"
        "        steps[i] = c\n";
    enum { N = 3000 };
    int64_t S[N], C[N];
    for (int i = 0; i < N; i++)
        S[i] = i + 1;
    NgArray s = vec(NG_INT64, N, S), c = vec(NG_INT64, N, NULL);
    NgJitVarType vars2[] = {arr("start", NG_INT64, 1), arr("steps", NG_INT64, 1)};
    Bind bs2[] = {barr("start", &s), barr("steps", &c)};
    NgJitLoopPlan p2 = par();
    CHECK_OK(run_loop(src2, 0, vars2, 2, &p2, bs2, 2, N, NULL));
    CHECK_OK(ng_array_download(&c, C, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += C[i] != collatz_steps(S[i]);
    CHECK_EQ_INT(0, bad);
    ng_array_release(&s), ng_array_release(&c);
}

static void test_histogram(void)
{
    const char *src =
        "def f(values, counts, w):\n"
        "    for i in range(values.shape[0]):\n"
        "        counts[values[i]] += 1\n"
        "        w[values[i] % 4] -= 0.5\n";
    enum { N = 200000, B = 16 };
    static int64_t V[N];
    int64_t want[B] = {0}, got[B];
    double wwant[4] = {0}, wgot[4];
    for (int i = 0; i < N; i++) {
        V[i] = (int64_t)(urand() * B);
        want[V[i]]++;
        wwant[V[i] % 4] -= 0.5;
    }
    int64_t zeros[B] = {0};
    double fz[4] = {0};
    NgArray v = vec(NG_INT64, N, V), c = vec(NG_INT64, B, zeros), w = vec(NG_FLOAT64, 4, fz);
    NgJitVarType vars[] = {arr("values", NG_INT64, 1), arr("counts", NG_INT64, 1), arr("w", NG_FLOAT64, 1)};
    Bind bs[] = {barr("values", &v), barr("counts", &c), barr("w", &w)};
    NgJitLoopPlan plan = par();
    plan.atomic = true;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, N, NULL));
    CHECK_STR_CONTAINS(last_source, "omp atomic");
    CHECK_OK(ng_array_download(&c, got, NULL));
    CHECK_OK(ng_array_download(&w, wgot, NULL));
    int bad = 0;
    for (int i = 0; i < B; i++)
        bad += got[i] != want[i];
    for (int i = 0; i < 4; i++)
        bad += wgot[i] != wwant[i];
    CHECK_EQ_INT(0, bad);
    ng_array_release(&v), ng_array_release(&c), ng_array_release(&w);
}

static void test_mandelbrot(void)
{
    /* tuple assignment evaluating both values first, `and` in a while test,
     * int / int giving a float, an int stored into int32 */
    const char *src =
        "def kernel(out, x0, x1, y0, y1, max_iter):\n"
        "    h, w = out.shape\n"
        "    for py in range(h):\n"
        "        for px in range(w):\n"
        "            cr = x0 + (x1 - x0) * px / w\n"
        "            ci = y0 + (y1 - y0) * py / h\n"
        "            zr = 0.0\n"
        "            zi = 0.0\n"
        "            n = 0\n"
        "            while n < max_iter and zr * zr + zi * zi <= 4.0:\n"
        "                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci\n"
        "                n += 1\n"
        "            out[py, px] = n\n";
    enum { H = 60, W = 80, IT = 50 };
    int32_t got[H][W];
    NgArray out = mat(NG_INT32, H, W, NULL);
    NgJitVarType vars[] = {arr("out", NG_INT32, 2), py("x0", NG_FLOAT64), py("x1", NG_FLOAT64),
                           py("y0", NG_FLOAT64), py("y1", NG_FLOAT64), py("max_iter", NG_INT64),
                           py("h", NG_INT64), py("w", NG_INT64)};
    Bind bs[] = {barr("out", &out), bflt("x0", -2.0), bflt("x1", 1.0), bflt("y0", -1.2), bflt("y1", 1.2),
                 bint("max_iter", IT), bint("h", H), bint("w", W)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 8, &plan, bs, 8, H, NULL));
    CHECK_OK(ng_array_download(&out, got, NULL));
    int bad = 0;
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++) {
            double cr = -2.0 + (1.0 - -2.0) * px / W, ci = -1.2 + (1.2 - -1.2) * py / H;
            double zr = 0, zi = 0;
            int n = 0;
            while (n < IT && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                n++;
            }
            bad += got[py][px] != n;
        }
    CHECK_EQ_INT(0, bad);
    ng_array_release(&out);
}

static void test_row_softmax(void)
{
    /* private locals per row, three inner loops, math.exp, shape unpacking */
    const char *src =
        "import math\n"
        "def kernel(X, out):\n"
        "    rows, cols = X.shape\n"
        "    for i in range(rows):\n"
        "        m = X[i, 0]\n"
        "        for j in range(1, cols):\n"
        "            if X[i, j] > m:\n"
        "                m = X[i, j]\n"
        "        s = 0.0\n"
        "        for j in range(cols):\n"
        "            e = math.exp(X[i, j] - m)\n"
        "            out[i, j] = e\n"
        "            s += e\n"
        "        for j in range(cols):\n"
        "            out[i, j] = out[i, j] / s\n";
    enum { R = 40, C = 17 };
    double X[R][C], got[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            X[i][j] = (urand() - 0.5) * 8;
    NgArray x = mat(NG_FLOAT64, R, C, X), out = mat(NG_FLOAT64, R, C, NULL);
    NgJitVarType vars[] = {arr("X", NG_FLOAT64, 2), arr("out", NG_FLOAT64, 2), py("rows", NG_INT64),
                           py("cols", NG_INT64), {.name = "math", .module = NG_JIT_MOD_MATH}};
    Bind bs[] = {barr("X", &x), barr("out", &out), bint("rows", R), bint("cols", C)};
    NgJitLoopPlan plan = par();
    /* the source's first statement is the import: the def is the second */
    NgJitAst *ast;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    CHECK_EQ_INT(NG_JIT_S_OTHER, ast->body.stmts[0]->kind);
    ng_jit_ast_free(ast);
    CHECK_OK(run_loop(src + strlen("import math\n"), 0, vars, 5, &plan, bs, 4, R, NULL));
    CHECK_OK(ng_array_download(&out, got, NULL));
    int bad = 0;
    for (int i = 0; i < R; i++) {
        double m = X[i][0], s = 0;
        for (int j = 1; j < C; j++)
            m = X[i][j] > m ? X[i][j] : m;
        for (int j = 0; j < C; j++)
            s += exp(X[i][j] - m);
        for (int j = 0; j < C; j++)
            bad += fabs(got[i][j] - exp(X[i][j] - m) / s) > 1e-14;
    }
    CHECK_EQ_INT(0, bad);
    ng_array_release(&x), ng_array_release(&out);
}

static void test_sequential_scalars(void)
{
    /* first_above: a break out of a sequential loop; pos is read back */
    const char *src =
        "def kernel(x, threshold):\n"
        "    pos = -1\n"
        "    for i in range(x.shape[0]):\n"
        "        if x[i] > threshold:\n"
        "            pos = i\n"
        "            break\n"
        "    return pos\n";
    enum { N = 1000 };
    double X[N];
    for (int i = 0; i < N; i++)
        X[i] = urand();
    X[N * 3 / 4] = 7.0;
    X[N - 1] = 9.0;
    NgArray x = vec(NG_FLOAT64, N, X);
    NgJitVarType vars[] = {arr("x", NG_FLOAT64, 1), py("threshold", NG_FLOAT64), py("pos", NG_INT64)};
    Bind bs[] = {barr("x", &x), bflt("threshold", 5.0), bint("pos", -1)};
    NgJitLoopPlan plan = seq();
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, 1, &info));
    CHECK_EQ_INT(N * 3 / 4, (int64_t)out_of(bs, 3, "pos"));
    CHECK(arg_named(&info, "pos")->weak);

    /* argmax_loop: a NumPy scalar and a Python int carried along; the loop
     * variable read after the loop (live-out, not bound before it) */
    const char *src2 =
        "def kernel(x):\n"
        "    best = x[0]\n"
        "    best_i = 0\n"
        "    for i in range(1, x.shape[0]):\n"
        "        if x[i] > best:\n"
        "            best = x[i]\n"
        "            best_i = i\n"
        "    return best_i, best, i\n";
    NgJitVarType vars2[] = {arr("x", NG_FLOAT64, 1), npscalar("best", NG_FLOAT64), py("best_i", NG_INT64)};
    Bind bs2[] = {barr("x", &x), bflt("best", X[0]), bint("best_i", 0), bint("i", 0)};
    NgJitLoopPlan plan2 = seq();
    plan2.nlive_out = 1;
    plan2.live_out[0] = "i";
    CHECK_OK(run_loop(src2, 0, vars2, 3, &plan2, bs2, 4, 1, &info));
    CHECK_EQ_INT(N - 1, (int64_t)out_of(bs2, 4, "best_i"));
    CHECK_EQ_DOUBLE(9.0, out_of(bs2, 4, "best"));
    CHECK_EQ_INT(N - 1, (int64_t)out_of(bs2, 4, "i"));
    CHECK(!arg_named(&info, "best")->weak);
    CHECK(!arg_named(&info, "i")->has_input);
    CHECK(info.args[arg_index(&info, "i") + 1].role == NG_JIT_ARG_BOUND && !bs2[3].unbound);
    /* a range that runs no iteration leaves i unbound: the bound flag says so */
    Bind bs2e[] = {barr("x", &x), bflt("best", X[0]), bint("best_i", 0), bint("i", 0)};
    NgArray one = vec(NG_FLOAT64, 1, X);
    bs2e[0] = barr("x", &one);
    CHECK_OK(run_loop(src2, 0, vars2, 3, &plan2, bs2e, 4, 1, &info));
    CHECK(bs2e[3].unbound);
    ng_array_release(&one);

    /* reverse_inplace: a swap of two elements; horner: a sequential inner loop */
    const char *src3 =
        "def kernel(a, coef, out):\n"
        "    n = a.shape[0]\n"
        "    deg = len(coef)\n"
        "    for i in range(n // 2):\n"
        "        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n"
        "        acc = 0.0\n"
        "        for k in range(deg):\n"
        "            acc = acc * a[i] + coef[k]\n"
        "        out[i] = acc\n";
    enum { M = 101 };
    double A[M], Co[3] = {1.5, -2.0, 0.25}, got[M], o[M / 2];
    for (int i = 0; i < M; i++)
        A[i] = i * 0.5;
    NgArray a = vec(NG_FLOAT64, M, A), co = vec(NG_FLOAT64, 3, Co), out = vec(NG_FLOAT64, M / 2, NULL);
    NgJitVarType vars3[] = {arr("a", NG_FLOAT64, 1), arr("coef", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1),
                            py("n", NG_INT64), py("deg", NG_INT64)};
    Bind bs3[] = {barr("a", &a), barr("coef", &co), barr("out", &out), bint("n", M), bint("deg", 3)};
    NgJitLoopPlan plan3 = par();
    CHECK_OK(run_loop(src3, 0, vars3, 5, &plan3, bs3, 5, M / 2, NULL));
    CHECK_OK(ng_array_download(&a, got, NULL));
    CHECK_OK(ng_array_download(&out, o, NULL));
    int bad = 0;
    for (int i = 0; i < M; i++)
        bad += got[i] != (i == M / 2 ? A[i] : A[M - 1 - i]);
    for (int i = 0; i < M / 2; i++)
        bad += o[i] != (1.5 * got[i] + -2.0) * got[i] + 0.25;
    CHECK_EQ_INT(0, bad);
    ng_array_release(&x), ng_array_release(&a), ng_array_release(&co), ng_array_release(&out);
}

static void test_features(void)
{
    /* while True with continue and break, chained comparisons, not/and/or,
     * conditional expressions, builtins, math and np functions ((a[i] > 0 or i)
     * is np.True_ or the int i: int() of it, since np.True_ + bool(j) is a logical or) */
    const char *src =
        "def f(a, out, n):\n"
        "    for i in range(n):\n"
        "        k = 0\n"
        "        acc = 0.0\n"
        "        while True:\n"
        "            k += 1\n"
        "            if k % 3 == 0:\n"
        "                continue\n"
        "            elif k > 10:\n"
        "                break\n"
        "            acc += k\n"
        "        j = i - 2\n"
        "        inside = 0 <= j < n and not (a[i] < 0)\n"
        "        v = acc + (1 if inside else -1) * 100 + np.sqrt(abs(a[i])) + int(a[i] * 2.7)\n"
        "        v += max(i, 3, j) + min(a[i], 0.5) + math.floor(-a[i]) + float(i) / 3\n"
        "        v += int(a[i] > 0 or i) + bool(j) + float(np.float32(a[i]) * 0) + math.pi - np.pi\n"
        "        v -= a[-1] ** 2 + (a[i] if a[i] > 1 else 2 ** 3) + a.size + a.ndim\n"
        "        out[i] = v\n";
    enum { N = 50 };
    double A[N], got[N];
    for (int i = 0; i < N; i++)
        A[i] = (urand() - 0.4) * 10;
    NgArray a = vec(NG_FLOAT64, N, A), out = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("n", NG_INT64)};
    Bind bs[] = {barr("a", &a), barr("out", &out), bint("n", N)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, N, NULL));
    CHECK_OK(ng_array_download(&out, got, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double acc = 37;
        int64_t j = i - 2;
        bool inside = 0 <= j && j < N && !(A[i] < 0);
        double v = acc + (inside ? 1 : -1) * 100 + sqrt(fabs(A[i])) + (double)(int64_t)(A[i] * 2.7);
        int64_t mx = i > 3 ? i : 3;
        mx = j > mx ? j : mx;
        v += (double)mx + (A[i] < 0.5 ? A[i] : 0.5) + floor(-A[i]) + (double)i / 3;
        v += (A[i] > 0 ? 1 : i) + (j != 0) + 0.0;
        v -= A[N - 1] * A[N - 1] + (A[i] > 1 ? A[i] : 8) + N + 1;
        if (fabs(got[i] - v) > 1e-12 * fabs(v)) {
            bad++;
            printf("i=%d got %.17g want %.17g\n", i, got[i], v);
        }
    }
    CHECK_EQ_INT(0, bad);
    ng_array_release(&a), ng_array_release(&out);
}

/* Without boundscheck a store's index is still checked (even under plan.unchecked): before the loop where
 * it is affine in the counters of the ranges around it and the store runs in every iteration
 * (out of range: the loop runs as Python, NG_JIT_RAISE_STORE_RANGE), else where it runs (the
 * error array, the store skipped); none where the index is a counter over the stored axis. */
static void test_store_checks(void)
{
    enum { N = 100 };
    double A[N], O[N];
    for (int i = 0; i < N; i++)
        A[i] = i + 0.5;
    NgArray a = vec(NG_FLOAT64, N, A), out = vec(NG_FLOAT64, N, NULL);
    int64_t I[N];
    for (int i = 0; i < N; i++)
        I[i] = i % 7 == 3 ? N + i : i;
    NgArray ix = vec(NG_INT64, N, I);
    NgJitVarType vars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("k", NG_INT64),
                           arr("ix", NG_INT64, 1)};
    NgJitLowered info;
    /* out[i + k] over range(len(a)): before the loop, by the range's ends */
    const char *shifted =
        "def f(a, out, k):\n"
        "    for i in range(len(a)):\n"
        "        out[i + k] = a[i]\n";
    for (int k = -3; k <= 3; k += 3) {
        Bind bs[] = {barr("a", &a), barr("out", &out), bint("k", k), bint(NG_JIT_PYTHON, 0)};
        NgJitLoopPlan plan = par();
        CHECK_OK(run_loop(shifted, 0, vars, 3, &plan, bs, 4, N, &info));
        CHECK(arg_index(&info, NG_JIT_PYTHON) >= 0);
        bool err = false;
        for (int i = 0; i < info.nargs; i++)
            err = err || info.args[i].role == NG_JIT_ARG_ERROR;
        CHECK(!err); /* (no error array) */
        int64_t code = (int64_t)out_of(bs, 4, NG_JIT_PYTHON);
        if (k > 0) { /* (out[N] .. out[N + 2]) */
            CHECK_EQ_INT(NG_JIT_RAISE_STORE_RANGE, ng_jit_raise_kind(code));
            CHECK_EQ_INT(3, ng_jit_raise_line(code));
        } else { /* (a negative index counts from the end, as Python's) */
            CHECK_EQ_INT(0, code);
            CHECK_OK(ng_array_download(&out, O, NULL));
            CHECK(k < 0 ? O[N - 3] == A[0] && O[0] == A[3] : O[0] == A[0] && O[N - 1] == A[N - 1]);
        }
    }
    CHECK_STR_CONTAINS(last_source, "omp parallel for");
    /* under an if, or data-dependent: checked where it runs */
    const char *cond =
        "def f(a, out, k):\n"
        "    for i in range(len(a)):\n"
        "        if a[i] > 10.0:\n"
        "            out[i + k] = a[i]\n";
    Bind bc[] = {barr("a", &a), barr("out", &out), bint("k", 10)};
    NgJitLoopPlan pc = seq();
    CHECK_OK(run_loop(cond, 0, vars, 3, &pc, bc, 3, N, &info));
    CHECK(arg_index(&info, NG_JIT_PYTHON) < 0);
    CHECK_EQ_INT(NG_JIT_ARG_ERROR, info.args[info.nargs - 1].role);
    CHECK_EQ_INT(4, last_err[0]); /* line 4, index 100 (a[90] is the first > 10 past it), axis 0, size N */
    CHECK_EQ_INT(N, last_err[1]);
    CHECK_EQ_INT(0, last_err[2]);
    CHECK_EQ_INT(N, last_err[3]);
    const char *scatter =
        "def f(a, out, ix):\n"
        "    for i in range(len(ix)):\n"
        "        out[ix[i]] = a[i]\n";
    Bind bx[] = {barr("a", &a), barr("out", &out), barr("ix", &ix)};
    NgJitLoopPlan px = seq();
    NgJitVarType xvars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), arr("ix", NG_INT64, 1)};
    CHECK_OK(run_loop(scatter, 0, xvars, 3, &px, bx, 3, N, &info));
    CHECK_EQ_INT(3, last_err[0]);
    CHECK_EQ_INT(N + 3, last_err[1]); /* (in order: the first one out of range, where Python stops) */
    /* a counter over the stored axis itself: no check at all (the read's unchecked) */
    const char *own =
        "def f(a, out):\n"
        "    for i in range(len(out)):\n"
        "        out[i] = a[i] * 2\n";
    Bind bo[] = {barr("a", &a), barr("out", &out)};
    NgJitLoopPlan po = par();
    po.unchecked = true;
    CHECK_OK(run_loop(own, 0, vars, 2, &po, bo, 2, N, &info));
    CHECK(arg_index(&info, NG_JIT_PYTHON) < 0);
    CHECK(info.args[info.nargs - 1].role != NG_JIT_ARG_ERROR);
    ng_array_release(&a), ng_array_release(&out), ng_array_release(&ix);
}

/* A read's index is checked as a store's (unless plan.unchecked): before the loop where it is
 * affine in the ranges' counters (NG_JIT_RAISE_STORE_RANGE, field 1), else where it runs (the
 * error array, the read giving 0). */
static void test_read_checks(void)
{
    enum { N = 100 };
    double A[N], O[N];
    for (int i = 0; i < N; i++)
        A[i] = i + 0.5;
    NgArray a = vec(NG_FLOAT64, N, A), out = vec(NG_FLOAT64, N, NULL);
    int64_t I[N];
    for (int i = 0; i < N; i++)
        I[i] = i == 40 ? N + 7 : N - 1 - i;
    NgArray ix = vec(NG_INT64, N, I);
    NgJitVarType vars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("k", NG_INT64),
                           arr("ix", NG_INT64, 1)};
    NgJitLowered info;
    const char *shifted =
        "def f(a, out, k):\n"
        "    for i in range(len(out)):\n"
        "        out[i] = a[i + k]\n";
    for (int k = -1; k <= 1; k += 2) {
        Bind bs[] = {barr("a", &a), barr("out", &out), bint("k", k), bint(NG_JIT_PYTHON, 0)};
        NgJitLoopPlan plan = par();
        CHECK_OK(run_loop(shifted, 0, vars, 3, &plan, bs, 4, N, &info));
        int64_t code = (int64_t)out_of(bs, 4, NG_JIT_PYTHON);
        if (k > 0) { /* (a[N]) */
            CHECK_EQ_INT(NG_JIT_RAISE_STORE_RANGE, ng_jit_raise_kind(code));
            CHECK_EQ_INT(3, ng_jit_raise_line(code));
            CHECK_EQ_INT(1, ng_jit_raise_field(code));
        } else { /* (a[-1]: the last element, as Python's) */
            CHECK_EQ_INT(0, code);
            CHECK_OK(ng_array_download(&out, O, NULL));
            CHECK(O[0] == A[N - 1] && O[1] == A[0] && O[N - 1] == A[N - 2]);
        }
    }
    const char *gather =
        "def f(a, out, ix):\n"
        "    for i in range(len(ix)):\n"
        "        out[i] = a[ix[i]]\n";
    NgJitVarType gvars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), arr("ix", NG_INT64, 1)};
    for (int parallel = 0; parallel <= 1; parallel++) {
        Bind bg[] = {barr("a", &a), barr("out", &out), barr("ix", &ix), bint(NG_JIT_PYTHON, 0)};
        NgJitLoopPlan pg = parallel ? par() : seq();
        CHECK_OK(run_loop(gather, 0, gvars, 3, &pg, bg, 4, N, &info));
        bool err = false;
        for (int i = 0; i < info.nargs; i++)
            err = err || info.args[i].role == NG_JIT_ARG_ERROR;
        CHECK(err);
        CHECK_EQ_INT(3, last_err[0]);
        CHECK_EQ_INT(N + 7, last_err[1]);
        CHECK_EQ_INT(0, last_err[2]);
        CHECK_EQ_INT(N, last_err[3]);
    }
    NgJitLoopPlan pu = par(); /* (unchecked: no error array) */
    pu.unchecked = true;
    I[40] = 3;
    ng_array_release(&ix);
    ix = vec(NG_INT64, N, I);
    Bind bu[] = {barr("a", &a), barr("out", &out), barr("ix", &ix), bint(NG_JIT_PYTHON, 0)};
    CHECK_OK(run_loop(gather, 0, gvars, 3, &pu, bu, 4, N, &info));
    for (int i = 0; i < info.nargs; i++)
        CHECK(info.args[i].role != NG_JIT_ARG_ERROR);
    CHECK_OK(ng_array_download(&out, O, NULL));
    CHECK(O[0] == A[N - 1] && O[40] == A[3]);
    ng_array_release(&a), ng_array_release(&out), ng_array_release(&ix);
}

static void test_boundscheck(void)
{
    const char *src =
        "def f(a, out, n):\n"
        "    for i in range(n):\n"
        "        out[i] = a[i + 1]\n";
    enum { N = 100 };
    double A[N], O[N];
    for (int i = 0; i < N; i++)
        A[i] = i + 0.5;
    NgArray a = vec(NG_FLOAT64, N, A), out = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("n", NG_INT64)};
    Bind bs[] = {barr("a", &a), barr("out", &out), bint("n", N)};
    NgJitLoopPlan plan = par();
    plan.boundscheck = true;
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, N, &info));
    CHECK_EQ_INT(NG_JIT_ARG_ERROR, info.args[info.nargs - 1].role);
    CHECK(info.args[info.nargs - 1].name == NULL);
    CHECK_EQ_INT(3, last_err[0]);
    CHECK_EQ_INT(N, last_err[1]);
    CHECK_EQ_INT(0, last_err[2]);
    CHECK_EQ_INT(N, last_err[3]);
    CHECK_OK(ng_array_download(&out, O, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += O[i] != (i + 1 < N ? A[i + 1] : 0.0);
    CHECK_EQ_INT(0, bad);

    /* accesses that Python never makes are not reported: short-circuits,
     * branches, chained comparisons, a while test evaluated again */
    const char *src2 =
        "def f(a, out, n):\n"
        "    for i in range(n):\n"
        "        j = i\n"
        "        while j < n and a[j] < i + 3:\n"
        "            j += 1\n"
        "        x = a[i + 1] if i + 1 < n else -1.0\n"
        "        if i > 0 and a[i - 1] > 2 or i == 0:\n"
        "            x += 1000\n"
        "        if i + 2 < n > a[i + 2]:\n"
        "            x += 10000\n"
        "        out[i] = x + j\n";
    CHECK_OK(run_loop(src2, 0, vars, 3, &plan, bs, 3, N, NULL));
    CHECK_EQ_INT(0, last_err[0]);
    CHECK_OK(ng_array_download(&out, O, NULL));
    bad = 0;
    for (int i = 0; i < N; i++) {
        int j = i;
        while (j < N && A[j] < i + 3)
            j++;
        double x = i + 1 < N ? A[i + 1] : -1.0;
        if ((i > 0 && A[i - 1] > 2) || i == 0)
            x += 1000;
        if (i + 2 < N && N > A[i + 2])
            x += 10000;
        bad += O[i] != x + j;
    }
    CHECK_EQ_INT(0, bad);

    /* a store and a negative index out of range; 2-d */
    const char *src3 =
        "def f(a, out, n):\n"
        "    for i in range(n):\n"
        "        out[i - 2 * n - 1] = 1.0\n";
    CHECK_OK(run_loop(src3, 0, vars, 3, &plan, bs, 3, N, NULL));
    CHECK_EQ_INT(3, last_err[0]);
    CHECK(last_err[1] <= -N - 1);
    CHECK_EQ_INT(N, last_err[3]);
    const char *src4 =
        "def f(m, n):\n"
        "    for i in range(n):\n"
        "        for j in range(n):\n"
        "            m[i, j] += m[j, i + 1]\n";
    double M[4][4] = {{0}};
    NgArray mm = mat(NG_FLOAT64, 4, 4, M);
    NgJitVarType vars4[] = {arr("m", NG_FLOAT64, 2), py("n", NG_INT64)};
    Bind bs4[] = {barr("m", &mm), bint("n", 4)};
    NgJitLoopPlan s = seq();
    s.boundscheck = true;
    CHECK_OK(run_loop(src4, 0, vars4, 2, &s, bs4, 2, 1, NULL));
    CHECK_EQ_INT(4, last_err[0]);
    CHECK_EQ_INT(4, last_err[1]);
    CHECK_EQ_INT(1, last_err[2]);
    CHECK_EQ_INT(4, last_err[3]);

    /* range(a.shape[0])'s counter is an index of a's first axis: a[i] needs no
     * check (the loop keeps no branch and vectorises); out[i], on a shorter
     * array, still has one */
    const char *src5 =
        "def f(a, out, n):\n"
        "    for i in range(a.shape[0]):\n"
        "        out[i] = a[i] * 2.0\n";
    NgArray half = vec(NG_FLOAT64, N / 2, NULL);
    Bind bs5[] = {barr("a", &a), barr("out", &half), bint("n", N)};
    CHECK_OK(run_loop(src5, 0, vars, 3, &plan, bs5, 3, N, NULL));
    CHECK_EQ_INT(3, last_err[0]);
    CHECK(last_err[1] >= N / 2 && last_err[1] < N); /* (one of the bad ones: threads race to report) */
    CHECK_EQ_INT(N / 2, last_err[3]);
    const char *src6 =
        "def f(a, out, n):\n"
        "    for i in range(a.shape[0]):\n"
        "        a[i] = a[i] * 2.0\n";
    CHECK_OK(run_loop(src6, 0, vars, 3, &plan, bs, 3, N, NULL));
    CHECK_EQ_INT(0, last_err[0]);
    const char *body = strstr(last_source, "omp parallel for");
    CHECK(body && !strstr(body, "if ("));
    ng_array_release(&a), ng_array_release(&out), ng_array_release(&mm), ng_array_release(&half);
}

/* Lowering only: the status and error text of an unsupported loop. */
static void expect_error(const char *src, const NgJitVarType *vars, int nvars, const NgJitLoopPlan *plan,
                         NgStatus want, const char *text)
{
    NgJitAst *ast;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    NgIrKernel k;
    ng_ir_init(&k, "bad");
    NgStatus st = ng_jit_lower(ast, find_loop(ast, 0), vars, nvars, plan, &k, NULL);
    CHECK_EQ_INT(want, st);
    CHECK_STR_CONTAINS(ng_error_message(), text);
    if (want != NG_OK)
        CHECK_EQ_INT(0, k.nnodes);
    ng_ir_free(&k);
    ng_jit_ast_free(ast);
}

static void test_errors(void)
{
    NgJitVarType v[] = {arr("a", NG_FLOAT64, 1), arr("b", NG_FLOAT64, 2), py("n", NG_INT64)};
    NgJitLoopPlan p = par(), s = seq();
    expect_error("def f(a):\n    for i in range(3):\n        print(i)\n", v, 1, &s, NG_ERR_UNSUPPORTED,
                 "t.py:3: calling print() for its effect is not supported in a compiled loop");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = a[i:3]\n", v, 1, &p, NG_ERR_UNSUPPORTED,
                 "t.py:3: 'a[i:3]' (a slice as a value: slices compile inside np.sum(...) and the like, "
                 "and as parts stored whole) is not supported in a compiled loop");
    expect_error("def f(a):\n    for x in a:\n        pass\n", v, 1, &p, NG_ERR_UNSUPPORTED,
                 "t.py:2: iterating over 'a' (only range() and prange() loops, and loops over arrays, "
                 "enumerate() or zip() of them, compile)");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = zz\n", v, 1, &p, NG_ERR_VALUE,
                 "t.py:3: name 'zz' has no type");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = 1.5 & 2\n", v, 1, &p, NG_ERR_TYPE,
                 "t.py:3: unsupported operand types for &: 'float' and 'int'");
    expect_error("def f(a, b):\n    for i in range(3):\n\n        a[i] = b[i]\n", v, 2, &p, NG_ERR_UNSUPPORTED,
                 "t.py:4: 'b[i]' (1 of the 2 indices of a 2-d array: a sub-array) is not supported");
    expect_error("def f(a):\n    for i in range(3):\n        if i:\n            break\n", v, 1, &p, NG_ERR_UNSUPPORTED,
                 "t.py:4: break out of a parallel loop is not supported");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = t\n        t = 1.0\n", v, 1, &s, NG_OK, "");
    expect_error("def f(a):\n    for i in range(3):\n        t = t + 1\n", v, 1, &s, NG_ERR_VALUE,
                 "t.py:3: local variable 't' is used before it is assigned");
    expect_error("def f(a, n):\n    for i in range(n, 0, 0):\n        a[i] = 1\n", v, 3, &p, NG_ERR_VALUE,
                 "t.py:2: range() arg 3 must not be zero");
}

static double clamp_c(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static void test_helpers(void)
{
    /* the corpus' helper_call: helpers with several returns, calling each other */
    const char *src =
        "def kernel(x, out):\n"
        "    for i in range(x.shape[0]):\n"
        "        out[i] = smoothstep(-1.0, 1.0, x[i]) + math.tanh(x[i])\n"
        "\n"
        "import math\n"
        "def clamp(v, lo, hi):\n"
        "    if v < lo:\n"
        "        return lo\n"
        "    if v > hi:\n"
        "        return hi\n"
        "    return v\n"
        "def smoothstep(e0, e1, x):\n"
        "    t = clamp((x - e0) / (e1 - e0), 0.0, 1.0)\n"
        "    return t * t * (3.0 - 2.0 * t)\n";
    enum { N = 1000 };
    double X[N], O[N];
    for (int i = 0; i < N; i++)
        X[i] = (urand() - 0.5) * 5;
    NgArray x = vec(NG_FLOAT64, N, X), out = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {arr("x", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1)};
    Bind bs[] = {barr("x", &x), barr("out", &out)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 2, &plan, bs, 2, N, NULL));
    /* every return of clamp ends an if-branch: inlined as if/else, no one-trip block */
    const char *body = strstr(last_source, "omp parallel for");
    CHECK(body && !strstr(body, "while (") && !strstr(body, "break;"));
    CHECK_OK(ng_array_download(&out, O, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double t = clamp_c((X[i] - -1.0) / (1.0 - -1.0), 0.0, 1.0);
        bad += fabs(O[i] - (t * t * (3.0 - 2.0 * t) + tanh(X[i]))) > 1e-15;
    }
    CHECK_EQ_INT(0, bad);

    /* an array parameter written by the helper, a default, a helper in a
     * loop of its own, a call only made when a short-circuit allows it */
    const char *src2 =
        "def kernel(a, out, n):\n"
        "    for i in range(n):\n"
        "        if i + 1 < n and get(a, i + 1) > 0.5:\n"
        "            put(out, i, total(a, i))\n"
        "        else:\n"
        "            put(out, i, -1.0, 2)\n"
        "def get(arr, j):\n"
        "    return arr[j]\n"
        "def put(arr, j, v, times=1):\n"
        "    arr[j] = v * times\n"
        "    return 0\n"
        "def total(arr, upto):\n"
        "    s = 0\n"
        "    for k in range(upto + 1):\n"
        "        s += arr[k]\n"
        "    return s\n";
    NgJitVarType vars2[] = {arr("a", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("n", NG_INT64)};
    Bind bs2[] = {barr("a", &x), barr("out", &out), bint("n", N)};
    for (int i = 0; i < N; i++)
        X[i] = urand();
    CHECK_OK(ng_array_upload(&x, X, NULL));
    plan.boundscheck = true;
    NgJitLowered info;
    CHECK_OK(run_loop(src2, 0, vars2, 3, &plan, bs2, 3, N, &info));
    CHECK_EQ_INT(0, last_err[0]);
    CHECK(arg_named(&info, "out")->written);
    CHECK(!arg_named(&info, "a")->written);
    CHECK_OK(ng_array_download(&out, O, NULL));
    bad = 0;
    double run = 0;
    for (int i = 0; i < N; i++) {
        run += X[i];
        double want = i + 1 < N && X[i + 1] > 0.5 ? run : -2.0;
        bad += fabs(O[i] - want) > 1e-9;
    }
    CHECK_EQ_INT(0, bad);

    NgJitLoopPlan p = par();
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = g(i)\ndef g(k):\n    return g(k - 1)\n",
                 vars2, 1, &p, NG_ERR_UNSUPPORTED, "recursive");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = g(i)\ndef g(k):\n    a = k\n", vars2, 1, &p,
                 NG_ERR_VALUE, "t.py:3: g() returns no value the loop can use");
    expect_error("def f(a):\n    for i in range(3):\n        a[i] = g(i)\ndef g(k):\n    return zz\n", vars2, 1, &p,
                 NG_ERR_VALUE, "t.py:5: name 'zz' has no type");
    ng_array_release(&x), ng_array_release(&out);
}

/* Every allocation of a lowering failing in turn: NG_ERR_NOMEM, never a crash or a leak. */
static void test_alloc_failures(void)
{
    const char *src =
        "def kernel(x, out, s):\n"
        "    for i in range(x.shape[0]):\n"
        "        a, b = x[i], x[-1 - i]\n"
        "        out[i] = smoothstep(-1.0, 1.0, a) + math.tanh(b) if a > b and i % 2 else 0\n"
        "        s += a\n"
        "def smoothstep(e0, e1, x):\n"
        "    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)\n"
        "    if t > 0.5:\n"
        "        return t\n"
        "    return t * t * (3.0 - 2.0 * t)\n";
    NgJitAst *ast;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    NgJitVarType vars[] = {arr("x", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1), py("s", NG_FLOAT64)};
    NgJitLoopPlan plan = par_reduce("s", NG_OP_ADD);
    plan.boundscheck = true;
    int nomem = 0, ok = 0, other = 0;
    for (long n = 1; n < 5000 && ok == 0; n++) {
        NgIrKernel k;
        ng_ir_init(&k, "oom");
        NgJitLowered info;
        ng_alloc_fail_after(n);
        NgStatus st = ng_jit_lower(ast, find_loop(ast, 0), vars, 3, &plan, &k, &info);
        ng_alloc_fail_after(0);
        nomem += st == NG_ERR_NOMEM;
        ok += st == NG_OK;
        other += st != NG_OK && st != NG_ERR_NOMEM;
        if (st != NG_OK && st != NG_ERR_NOMEM)
            printf("allocation %ld failing gave: %s\n", n, ng_error_message());
        ng_ir_free(&k);
    }
    CHECK(nomem > 10);
    CHECK_EQ_INT(1, ok);
    CHECK_EQ_INT(0, other);
    ng_jit_ast_free(ast);
}

static void test_views_and_numpy_reductions(void)
{
    /* the corpus' numpy_in_loop, plus np.dot/mean/min/any over rows and
     * elements of sub-arrays */
    const char *src =
        "def kernel(X, T, w, out, o2):\n"
        "    for i in range(X.shape[0]):\n"
        "        row = X[i]\n"
        "        out[i] = np.sqrt(np.sum(row * row)) + np.max(np.abs(row)) + np.exp(-X[i, 0] ** 2)\n"
        "        plane = T[i]\n"
        "        o2[i, 0] = np.dot(row, w) + np.mean(row) * len(row) + row[-1] + row.shape[0]\n"
        "        o2[i, 1] = np.min(plane[1]) + plane[0, 1] + np.any(row > 1.5) + np.all(w > 0)\n";
    enum { R = 20, C = 9 };
    double X[R][C], W[C], O[R], O2[R][2];
    int32_t T[R][2][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            X[i][j] = (urand() - 0.5) * 4;
            T[i][0][j] = (int32_t)(urand() * 100) - 50;
            T[i][1][j] = (int32_t)(urand() * 100) - 50;
        }
    for (int j = 0; j < C; j++)
        W[j] = urand() + 0.01;
    int64_t tshape[3] = {R, 2, C};
    NgArray x = mat(NG_FLOAT64, R, C, X), t = upload(NG_INT32, 3, tshape, T), w = vec(NG_FLOAT64, C, W);
    NgArray out = vec(NG_FLOAT64, R, NULL), o2 = mat(NG_FLOAT64, R, 2, NULL);
    NgJitVarType vars[] = {arr("X", NG_FLOAT64, 2), arr("T", NG_INT32, 3), arr("w", NG_FLOAT64, 1),
                           arr("out", NG_FLOAT64, 1), arr("o2", NG_FLOAT64, 2)};
    Bind bs[] = {barr("X", &x), barr("T", &t), barr("w", &w), barr("out", &out), barr("o2", &o2)};
    NgJitLoopPlan plan = par();
    NgJitLowered info;
    CHECK_OK(run_loop(src, 0, vars, 5, &plan, bs, 5, R, &info));
    CHECK_EQ_INT(6, info.nargs); /* row and plane are not parameters (the sixth: the cell of the check,
                                    before the loop, that np.dot's rows are of one length) */
    /* np.max of a float row: simd lanes, each with the NaN-aware max */
    CHECK(strstr(last_source, "#pragma omp simd reduction(ngmax_f64:") != NULL);
    CHECK_OK(ng_array_download(&out, O, NULL));
    CHECK_OK(ng_array_download(&o2, O2, NULL));
    int bad = 0;
    for (int i = 0; i < R; i++) {
        double ss = 0, mx = -INFINITY, dot = 0, sum = 0;
        int32_t mn = INT32_MAX;
        bool any = false;
        for (int j = 0; j < C; j++) {
            ss += X[i][j] * X[i][j];
            mx = fabs(X[i][j]) > mx ? fabs(X[i][j]) : mx;
            dot += X[i][j] * W[j];
            sum += X[i][j];
            mn = T[i][1][j] < mn ? T[i][1][j] : mn;
            any = any || X[i][j] > 1.5;
        }
        double want = sqrt(ss) + mx + exp(-(X[i][0] * X[i][0]));
        double want0 = dot + sum / C * C + X[i][C - 1] + C;
        double want1 = (double)mn + T[i][0][1] + any + 1;
        bad += fabs(O[i] - want) > 1e-12 * fabs(want);
        bad += fabs(O2[i][0] - want0) > 1e-12 * fabs(want0) + 1e-12;
        bad += O2[i][1] != want1;
    }
    CHECK_EQ_INT(0, bad);

    /* a view made again in each iteration of a sequential loop; a view used
     * with boundscheck */
    const char *src2 =
        "def kernel(X, acc):\n"
        "    for i in range(1, X.shape[0]):\n"
        "        prev = X[i - 1]\n"
        "        cur = X[i]\n"
        "        for j in range(len(cur)):\n"
        "            cur[j] += prev[j]\n"
        "        acc[i] = np.sum(cur) + cur[j + 1]\n";
    double acc[R], XX[R][C];
    memcpy(XX, X, sizeof X);
    NgArray a = vec(NG_FLOAT64, R, NULL);
    NgJitVarType vars2[] = {arr("X", NG_FLOAT64, 2), arr("acc", NG_FLOAT64, 1)};
    Bind bs2[] = {barr("X", &x), barr("acc", &a)};
    NgJitLoopPlan s2 = seq();
    s2.boundscheck = true;
    CHECK_OK(run_loop(src2, 0, vars2, 2, &s2, bs2, 2, 1, &info));
    CHECK(arg_named(&info, "X")->written);
    CHECK_EQ_INT(7, last_err[0]); /* cur[j + 1]: index C on axis 1 */
    CHECK_EQ_INT(C, last_err[1]);
    CHECK_EQ_INT(1, last_err[2]);
    CHECK_EQ_INT(C, last_err[3]);
    CHECK_OK(ng_array_download(&x, X, NULL));
    CHECK_OK(ng_array_download(&a, acc, NULL));
    (void)acc;
    /* as Python: the loop stops at its first IndexError, in iteration i = 1 after its inner
     * loop ran and before acc[1] is stored; the rows after it are as they were */
    bad = 0;
    for (int j = 0; j < C; j++)
        XX[1][j] += XX[0][j];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            bad += X[i][j] != XX[i][j];
    CHECK_EQ_INT(0, bad);

    /* rows passed to helpers, read and written there */
    const char *src3 =
        "def kernel(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        row = X[i]\n"
        "        scale(row, 1.0 / norm(row))\n"
        "        out[i] = norm(row)\n"
        "def norm(r):\n"
        "    return np.sqrt(np.sum(r * r))\n"
        "def scale(r, f):\n"
        "    for j in range(len(r)):\n"
        "        r[j] *= f\n";
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            X[i][j] = urand() + 0.5;
    CHECK_OK(ng_array_upload(&x, X, NULL));
    NgJitVarType vars3[] = {arr("X", NG_FLOAT64, 2), arr("out", NG_FLOAT64, 1)};
    Bind bs3[] = {barr("X", &x), barr("out", &out)};
    CHECK_OK(run_loop(src3, 0, vars3, 2, &plan, bs3, 2, R, &info));
    CHECK(arg_named(&info, "X")->written);
    CHECK_OK(ng_array_download(&x, XX, NULL));
    CHECK_OK(ng_array_download(&out, O, NULL));
    bad = 0;
    for (int i = 0; i < R; i++) {
        double ss = 0;
        for (int j = 0; j < C; j++)
            ss += X[i][j] * X[i][j];
        for (int j = 0; j < C; j++)
            bad += fabs(XX[i][j] - X[i][j] * (1.0 / sqrt(ss))) > 1e-15;
        bad += fabs(O[i] - 1.0) > 1e-14;
    }
    CHECK_EQ_INT(0, bad);

    NgJitLoopPlan p = par();
    expect_error("def f(X, out):\n    for i in range(3):\n        row = X[i]\n        out[i] = row\n", vars, 2, &p,
                 NG_ERR_UNSUPPORTED, "t.py:4: array 'row' used as a value");
    expect_error("def f(X, out):\n    for i in range(3):\n        out[i] = np.dot(X, X)\n", vars, 2, &p,
                 NG_ERR_UNSUPPORTED, "t.py:3: a product of two matrices other than in an elementwise expression");
    ng_array_release(&x), ng_array_release(&t), ng_array_release(&w), ng_array_release(&out);
    ng_array_release(&o2), ng_array_release(&a);
}

/* ---- the two stages together: the analysis' verdict as the plan ---- */

typedef struct Analysed {
    NgJitAst *ast;      /* kept alive: the plan's names point into it */
    NgJitLoops *loops;
    NgJitLoopPlan plan;
    NgJitLoopKind kind;
} Analysed;

/* Analyses src's first def and makes the plan of its loop `nth` (a loop
 * directly in its body), as the glue does. */
static void analyse(const char *src, int nth, Analysed *out)
{
    memset(out, 0, sizeof *out);
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &out->ast, NULL));
    CHECK_OK(ng_jit_analyze(out->ast, out->ast->body.stmts[0], &out->loops));
    const NgJitStmt *loop = find_loop(out->ast, nth);
    for (int i = 0; out->loops && i < out->loops->n; i++) {
        const NgJitLoopInfo *l = &out->loops->items[i];
        if (l->stmt != loop)
            continue;
        out->kind = l->kind;
        NgJitLoopPlan *p = &out->plan;
        p->parallel = l->kind == NG_JIT_LOOP_PARALLEL;
        for (int r = 0; r < l->nreductions && r < NG_JIT_MAX_REDUCTIONS; r++) {
            static const NgOp ops[] = {NG_OP_ADD, NG_OP_MUL, NG_OP_MAXIMUM, NG_OP_MINIMUM, NG_OP_BITOR,
                                       NG_OP_BITAND, NG_OP_BITXOR};
            p->reductions[r].name = l->reductions[r].name;
            p->reductions[r].op = ops[l->reductions[r].op];
            p->nreductions++;
        }
        p->atomic = l->atomic;
        for (int a = 0; a < l->natomics && a < NG_JIT_MAX_ATOMICS; a++)
            p->atomics[p->natomics++] = l->atomics[a];
    }
}

static void analysed_free(Analysed *a)
{
    ng_jit_loops_free(a->loops);
    ng_jit_ast_free(a->ast);
}

/* Slices of one axis: a moving window's sum (clamped at both ends as
 * Python's slices are), a column's reduction, a store through a column. */
static void test_slices(void)
{
    const char *src =
        "def kernel(x, X, out, k):\n"
        "    for i in range(x.shape[0]):\n"
        "        out[i] = np.sum(x[i - 1:i + 2]) + 100 * np.max(X[:, i % 3]) + len(x[k:]) * 1000\n"
        "        X[:, 3] = x[2:6] * 2\n";
    enum { N = 10, R = 4 };
    double x[N], X[R][4], O[N], X2[R][4];
    for (int i = 0; i < N; i++)
        x[i] = (double)(i + 1);
    for (int r = 0; r < R; r++)
        for (int j = 0; j < 4; j++)
            X[r][j] = (double)(r * 4 + j);
    NgArray xa = vec(NG_FLOAT64, N, x), Xa = mat(NG_FLOAT64, R, 4, X), out = vec(NG_FLOAT64, N, NULL);
    NgJitVarType vars[] = {arr("x", NG_FLOAT64, 1), arr("X", NG_FLOAT64, 2), arr("out", NG_FLOAT64, 1),
                           py("k", NG_INT64)};
    Bind bs[] = {barr("x", &xa), barr("X", &Xa), barr("out", &out), bint("k", -3)};
    NgJitLoopPlan plan = seq();
    CHECK_OK(run_loop(src, 0, vars, 4, &plan, bs, 4, N, NULL));
    CHECK_OK(ng_array_download(&out, O, NULL));
    CHECK_OK(ng_array_download(&Xa, X2, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        /* x[i - 1:i + 2]: at i = 0, x[-1:2] is empty (start N - 1 past stop 2) */
        double s = 0;
        for (int j = i - 1 < 0 ? N - 1 : i - 1; j < i + 2 && j < N; j++)
            s += x[j];
        double mx = -INFINITY;
        for (int r = 0; r < R; r++)
            mx = fmax(mx, X[r][i % 3]); /* (column 3 is stored, not read) */
        bad += O[i] != s + 100 * mx + 3000;
    }
    for (int r = 0; r < R; r++)
        bad += X2[r][3] != 2 * x[2 + r] || X2[r][0] != X[r][0];
    CHECK_EQ_INT(0, bad);
    ng_array_release(&xa);
    ng_array_release(&Xa);
    ng_array_release(&out);
}

/* An inner loop whose slices have constant widths runs in two versions (versioned): where
 * each window lies inside its axis in every iteration, a copy with their widths as constants
 * (a float max there is ng_maxv, which GCC vectorises); else the loop clamping each window. */
static void test_versioned_windows(void)
{
    const char *src =
        "def kernel(img, out, d):\n"
        "    for i in range(out.shape[0]):\n"
        "        for j in range(out.shape[1]):\n"
        "            out[i, j] = np.max(img[2 * i:2 * i + 2, 2 * j + d:2 * j + d + 2])\n";
    enum { R = 9, C = 11 };
    double img[R][C], O[5 * 6];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            img[r][c] = urand() - 0.5;
    img[2][3] = NAN;
    NgJitVarType vars[] = {arr("img", NG_FLOAT64, 2), arr("out", NG_FLOAT64, 2), py("d", NG_INT64)};
    /* (out rows x cols, d): all inside; the last row, the last column, the first one past an end */
    static const int cases[][3] = {{4, 5, 0}, {5, 5, 0}, {4, 6, 0}, {4, 5, 1}, {4, 5, -1}};
    for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
        int rows = cases[t][0], cols = cases[t][1], d = cases[t][2];
        NgArray im = mat(NG_FLOAT64, R, C, img), out = mat(NG_FLOAT64, rows, cols, NULL);
        Bind bs[] = {barr("img", &im), barr("out", &out), bint("d", d)};
        NgJitLoopPlan plan = par();
        CHECK_OK(run_loop(src, 0, vars, 3, &plan, bs, 3, rows, NULL));
        CHECK(strstr(last_source, "ng_maxv_f64(") != NULL && strstr(last_source, "ng_max_f64(") != NULL);
        CHECK_OK(ng_array_download(&out, O, NULL));
        int bad = 0;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) { /* Python's slices: a negative start wraps, ends clamp */
                int lo = 2 * j + d < 0 ? 2 * j + d + C : 2 * j + d, hi = 2 * j + d + 2 < C ? 2 * j + d + 2 : C;
                double m = -INFINITY;
                for (int r = 2 * i; r < 2 * i + 2 && r < R; r++)
                    for (int c = lo; c < hi; c++)
                        m = isnan(m) || m >= img[r][c] ? m : img[r][c];
                double o = O[i * cols + j];
                bad += !(o == m || (isnan(o) && isnan(m)));
            }
        CHECK_EQ_INT(0, bad);
        ng_array_release(&im);
        ng_array_release(&out);
    }
    /* a start the loop assigns: one version */
    const char *local =
        "def kernel(img, out, d):\n"
        "    for i in range(out.shape[0]):\n"
        "        for j in range(out.shape[1]):\n"
        "            k = 2 * j + d\n"
        "            out[i, j] = np.max(img[i, k:k + 2])\n";
    NgArray im = mat(NG_FLOAT64, R, C, img), out = mat(NG_FLOAT64, 4, 5, NULL);
    Bind bs[] = {barr("img", &im), barr("out", &out), bint("d", 0)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(local, 0, vars, 3, &plan, bs, 3, 4, NULL));
    CHECK(strstr(last_source, "ng_maxv_f64(") == NULL);
    ng_array_release(&im);
    ng_array_release(&out);
}

static void test_with_analysis(void)
{
    enum { N = 5000 };
    static double X[N], Y[N];
    static int64_t V[N];
    for (int i = 0; i < N; i++) {
        X[i] = urand() - 0.5, Y[i] = urand();
        V[i] = (int64_t)(urand() * 10);
    }
    X[N / 2] = -3.5;
    NgArray x = vec(NG_FLOAT64, N, X), y = vec(NG_FLOAT64, N, Y), v = vec(NG_INT64, N, V);

    const char *dot =
        "def kernel(a, b):\n"
        "    s = 0.0\n"
        "    for i in range(a.shape[0]):\n"
        "        s += a[i] * b[i]\n"
        "    return s\n";
    Analysed an;
    analyse(dot, 0, &an);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, an.kind);
    CHECK_EQ_INT(1, an.plan.nreductions);
    NgJitVarType v1[] = {arr("a", NG_FLOAT64, 1), arr("b", NG_FLOAT64, 1), py("s", NG_FLOAT64)};
    Bind b1[] = {barr("a", &x), barr("b", &y), bflt("s", 0.0)};
    CHECK_OK(run_loop(dot, 0, v1, 3, &an.plan, b1, 3, N, NULL));
    double want = 0;
    for (int i = 0; i < N; i++)
        want += X[i] * Y[i];
    CHECK_NEAR(want, out_of(b1, 3, "s"), 1e-10);
    analysed_free(&an);

    const char *maxabs =
        "def kernel(x):\n"
        "    m = 0.0\n"
        "    for i in range(x.shape[0]):\n"
        "        m = max(m, abs(x[i]))\n"
        "    return m\n";
    analyse(maxabs, 0, &an);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, an.kind);
    CHECK_EQ_INT(NG_OP_MAXIMUM, an.plan.reductions[0].op);
    NgJitVarType v2[] = {arr("x", NG_FLOAT64, 1), py("m", NG_FLOAT64)};
    Bind b2[] = {barr("x", &x), bflt("m", 0.0)};
    CHECK_OK(run_loop(maxabs, 0, v2, 2, &an.plan, b2, 2, N, NULL));
    CHECK_EQ_DOUBLE(3.5, out_of(b2, 2, "m"));
    analysed_free(&an);

    const char *hist =
        "def kernel(values, counts):\n"
        "    for i in range(values.shape[0]):\n"
        "        counts[values[i]] += 1\n";
    analyse(hist, 0, &an);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, an.kind);
    CHECK(an.plan.atomic);
    int64_t zeros[10] = {0}, got[10], counts[10] = {0};
    NgArray c = vec(NG_INT64, 10, zeros);
    NgJitVarType v3[] = {arr("values", NG_INT64, 1), arr("counts", NG_INT64, 1)};
    Bind b3[] = {barr("values", &v), barr("counts", &c)};
    CHECK_OK(run_loop(hist, 0, v3, 2, &an.plan, b3, 2, N, NULL));
    CHECK_OK(ng_array_download(&c, got, NULL));
    for (int i = 0; i < N; i++)
        counts[V[i]]++;
    CHECK(memcmp(counts, got, sizeof got) == 0);
    analysed_free(&an);

    const char *prefix =
        "def kernel(a):\n"
        "    for i in range(1, a.shape[0]):\n"
        "        a[i] += a[i - 1]\n";
    analyse(prefix, 0, &an);
    CHECK_EQ_INT(NG_JIT_LOOP_SEQUENTIAL, an.kind);
    NgJitVarType v4[] = {arr("a", NG_INT64, 1)};
    Bind b4[] = {barr("a", &v)};
    CHECK_OK(run_loop(prefix, 0, v4, 1, &an.plan, b4, 1, 1, NULL));
    int64_t P[N];
    CHECK_OK(ng_array_download(&v, P, NULL));
    int bad = 0;
    int64_t run = 0;
    for (int i = 0; i < N; i++) {
        run += V[i];
        bad += P[i] != run;
    }
    CHECK_EQ_INT(0, bad);
    analysed_free(&an);

    const char *mask =
        "def kernel(img, lo, hi, mask):\n"
        "    h, w = img.shape\n"
        "    total = 0\n"
        "    for i in range(h):\n"
        "        for j in range(w):\n"
        "            inside = lo <= img[i, j] and img[i, j] < hi\n"
        "            mask[i, j] = inside\n"
        "            if inside:\n"
        "                total += 1\n"
        "    return total\n";
    analyse(mask, 0, &an);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, an.kind);
    enum { H = 50, W = 100 };
    uint8_t M[H][W];
    NgArray img = mat(NG_FLOAT64, H, W, X), mk = mat(NG_BOOL, H, W, NULL);
    NgJitVarType v5[] = {arr("img", NG_FLOAT64, 2), py("lo", NG_FLOAT64), py("hi", NG_FLOAT64),
                         arr("mask", NG_BOOL, 2), py("h", NG_INT64), py("w", NG_INT64), py("total", NG_INT64)};
    Bind b5[] = {barr("img", &img), bflt("lo", -0.2), bflt("hi", 0.3), barr("mask", &mk), bint("h", H), bint("w", W),
                 bint("total", 0)};
    CHECK_OK(run_loop(mask, 0, v5, 7, &an.plan, b5, 7, H, NULL));
    CHECK_OK(ng_array_download(&mk, M, NULL));
    int64_t total = 0;
    bad = 0;
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            bool in = -0.2 <= X[i * W + j] && X[i * W + j] < 0.3;
            total += in;
            bad += M[i][j] != in;
        }
    CHECK_EQ_INT(0, bad);
    CHECK_EQ_INT(total, (int64_t)out_of(b5, 7, "total"));
    analysed_free(&an);
    ng_array_release(&x), ng_array_release(&y), ng_array_release(&v), ng_array_release(&c);
    ng_array_release(&img), ng_array_release(&mk);
}

static void test_collapse(void)
{
    /* heat_2d's sweep: two loops as one flat parallel loop */
    const char *src =
        "def kernel(u, v, alpha, n, m, s):\n"
        "    for i in range(1, n - 1):\n"
        "        for j in range(m - 2, 0, -s):\n"
        "            v[i, j] = u[i, j] + alpha * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - 4.0 * u[i, j])\n";
    enum { N = 31, M = 23 };
    double U[N][M], V[N][M], zero[N][M] = {{0}};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            U[i][j] = urand();
    NgArray u = mat(NG_FLOAT64, N, M, U), v = mat(NG_FLOAT64, N, M, zero);
    NgJitVarType vars[] = {arr("u", NG_FLOAT64, 2), arr("v", NG_FLOAT64, 2), py("alpha", NG_FLOAT64),
                           py("n", NG_INT64), py("m", NG_INT64), py("s", NG_INT64)};
    Bind bs[] = {barr("u", &u), barr("v", &v), bflt("alpha", 0.1), bint("n", N), bint("m", M), bint("s", 2)};
    NgJitLoopPlan plan = par();
    plan.collapse = 2;
    CHECK_OK(run_loop(src, 0, vars, 6, &plan, bs, 6, (N - 2) * (M - 2), NULL));
    const char *body = strstr(last_source, "omp parallel for");
    const char *flat = body ? strstr(body, "for (") : NULL;
    CHECK(flat && !strstr(flat + 1, "for (")); /* one loop, none inside */
    CHECK_OK(ng_array_download(&v, V, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            bool set = i >= 1 && i < N - 1 && j <= M - 2 && j > 0 && (M - 2 - j) % 2 == 0;
            double want = set ? U[i][j] + 0.1 * (U[i + 1][j] + U[i - 1][j] + U[i][j + 1] + U[i][j - 1] - 4.0 * U[i][j]) : 0;
            bad += V[i][j] != want;
        }
    CHECK_EQ_INT(0, bad);

    /* three loops (the innermost sequential one inside stays a loop), and an
     * empty middle range */
    const char *src2 =
        "def kernel(A, B, C, p):\n"
        "    for b in range(A.shape[0]):\n"
        "        for i in range(A.shape[1]):\n"
        "            for j in range(B.shape[2]):\n"
        "                acc = 0.0\n"
        "                for k in range(p):\n"
        "                    acc += A[b, i, k] * B[b, k, j]\n"
        "                C[b, i, j] = acc\n";
    enum { Bn = 3, I = 4, K = 5, J = 6 };
    double A[Bn][I][K], Bm[Bn][K][J], Cm[Bn][I][J];
    for (int q = 0; q < Bn * I * K; q++)
        (&A[0][0][0])[q] = urand();
    for (int q = 0; q < Bn * K * J; q++)
        (&Bm[0][0][0])[q] = urand();
    int64_t sa[3] = {Bn, I, K}, sb[3] = {Bn, K, J}, sc[3] = {Bn, I, J};
    NgArray a = upload(NG_FLOAT64, 3, sa, A), bb = upload(NG_FLOAT64, 3, sb, Bm), c = upload(NG_FLOAT64, 3, sc, NULL);
    NgJitVarType vars2[] = {arr("A", NG_FLOAT64, 3), arr("B", NG_FLOAT64, 3), arr("C", NG_FLOAT64, 3),
                            py("p", NG_INT64)};
    Bind bs2[] = {barr("A", &a), barr("B", &bb), barr("C", &c), bint("p", K)};
    plan.collapse = 3;
    CHECK_OK(run_loop(src2, 0, vars2, 4, &plan, bs2, 4, Bn * I * J, NULL));
    CHECK_OK(ng_array_download(&c, Cm, NULL));
    bad = 0;
    for (int q = 0; q < Bn; q++)
        for (int i = 0; i < I; i++)
            for (int j = 0; j < J; j++) {
                double acc = 0;
                for (int k = 0; k < K; k++)
                    acc += A[q][i][k] * Bm[q][k][j];
                bad += Cm[q][i][j] != acc;
            }
    CHECK_EQ_INT(0, bad);

    /* not collapsible: a triangular nest, a statement beside the inner loop */
    const char *src3 =
        "def kernel(M, n):\n"
        "    for i in range(n):\n"
        "        for j in range(i + 1):\n"
        "            M[i, j] = i * 10 + j\n"
        "    for i in range(n):\n"
        "        M[i, n - 1] += 0.5\n"
        "        for j in range(n):\n"
        "            M[i, j] += 1\n";
    double Z[6][6] = {{0}}, got[6][6];
    NgArray mz = mat(NG_FLOAT64, 6, 6, Z);
    NgJitVarType vars3[] = {arr("M", NG_FLOAT64, 2), py("n", NG_INT64)};
    Bind bs3[] = {barr("M", &mz), bint("n", 6)};
    plan.collapse = 2;
    CHECK_OK(run_loop(src3, 0, vars3, 2, &plan, bs3, 2, 6, NULL));
    CHECK_OK(run_loop(src3, 1, vars3, 2, &plan, bs3, 2, 6, NULL));
    CHECK_OK(ng_array_download(&mz, got, NULL));
    bad = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            bad += got[i][j] != (j <= i ? i * 10 + j : 0) + 1 + (j == 5 ? 0.5 : 0);
    CHECK_EQ_INT(0, bad);
    ng_array_release(&u), ng_array_release(&v), ng_array_release(&a), ng_array_release(&bb);
    ng_array_release(&c), ng_array_release(&mz);
}

static void test_more_builtins(void)
{
    const char *src =
        "def kernel(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        out[i, 0] = round(X[i, 0] * 2.5) + pow(i, 2) + pow(2.0, -i)\n"
        "        out[i, 1] = sum(X[i]) + max(X[i]) * 100 + min(X[i]) * 10000 + any(X[i] > 2.75) * 1e6\n";
    enum { R = 8, C = 4 };
    double X[R][C], O[R][2];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            X[i][j] = (i - 4) * 0.6 + j * 0.25; /* X[i, 0] * 2.5 hits .5 ties */
    NgArray x = mat(NG_FLOAT64, R, C, X), out = mat(NG_FLOAT64, R, 2, NULL);
    NgJitVarType vars[] = {arr("X", NG_FLOAT64, 2), arr("out", NG_FLOAT64, 2)};
    Bind bs[] = {barr("X", &x), barr("out", &out)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(src, 0, vars, 2, &plan, bs, 2, R, NULL));
    CHECK_OK(ng_array_download(&out, O, NULL));
    int bad = 0;
    for (int i = 0; i < R; i++) {
        double sum = 0, mx = -INFINITY, mn = INFINITY;
        bool any = false;
        for (int j = 0; j < C; j++) {
            sum += X[i][j];
            mx = X[i][j] > mx ? X[i][j] : mx;
            mn = X[i][j] < mn ? X[i][j] : mn;
            any = any || X[i][j] > 2.75;
        }
        double want0 = (double)(int64_t)nearbyint(X[i][0] * 2.5) + i * i + pow(2.0, -i);
        double want1 = sum + mx * 100 + mn * 10000 + any * 1e6;
        bad += O[i][0] != want0;
        bad += fabs(O[i][1] - want1) > 1e-9;
        if (O[i][0] != want0)
            printf("round: i=%d x=%g got %.17g want %.17g\n", i, X[i][0] * 2.5, O[i][0], want0);
    }
    CHECK_EQ_INT(0, bad);
    ng_array_release(&x), ng_array_release(&out);
}

/* cpu loop orders: a parallel loop running a chain goes 8 iterations at a
 * time in lanes; with plan.inner_parallel a matmul-like pair goes in 32 x 32
 * tiles with lanes inside, a transpose in tiles. Each compared bit for bit
 * with the same arithmetic written as plain C, at sizes off the lane and
 * tile widths. */
/* A small array made in the body: indexed only by constants and whole, a variable per
 * element; indexed by values from the data, or longer than 16, one array variable (declared
 * in the parallel loop's body, its own spare element for indices out of range). */
static void test_small_array_variables(void)
{
    const char *bins =
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.zeros(4, np.int64)\n"
        "        for j in range(X.shape[1]):\n"
        "            h[X[i, j] & 3] += 1\n"
        "        out[i] = h\n";
    const char *fixed =
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.zeros(4, np.int64)\n"
        "        h[0] = X[i, 0]\n"
        "        h[-1] = X[i, 1]\n"
        "        h += X[i, 2]\n"
        "        out[i] = h\n";
    const char *wide =
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.ones(40, np.int64)\n"
        "        h[7] = X[i, 0]\n"
        "        out[i, 0] = h[7] + h[39]\n";
    enum { R = 50, C = 9 };
    int64_t X[R][C], got[R][4];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            X[i][j] = (int64_t)(urand() * 100) - 50;
    NgJitVarType vars[] = {arr("X", NG_INT64, 2), arr("out", NG_INT64, 2),
                           {.name = "np", .module = NG_JIT_MOD_NUMPY}};
    const char *counted = /* (a counter of range(4): the compilers unroll its loop, variables stay) */
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.zeros(4, np.int64)\n"
        "        for j in range(X.shape[1]):\n"
        "            for k in range(4):\n"
        "                h[k] += X[i, j] * k\n"
        "        out[i] = h\n";
    const char *grid = /* (two axes, indices from the data: one array variable, row-major) */
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.zeros((2, 2), np.int64)\n"
        "        for j in range(X.shape[1]):\n"
        "            h[X[i, j] & 1, (X[i, j] >> 1) & 1] += 1\n"
        "        out[i, 0] = h[0, 0]\n"
        "        out[i, 1] = h[0, 1]\n"
        "        out[i, 2] = h[1, 0]\n"
        "        out[i, 3] = h[1][1]\n";
    const char *outer = /* (two axes, counters of range(2): variables) */
        "def f(X, out):\n"
        "    for i in range(X.shape[0]):\n"
        "        h = np.zeros((2, 2), np.int64)\n"
        "        for j in range(X.shape[1]):\n"
        "            for a in range(2):\n"
        "                for b in range(2):\n"
        "                    h[a, b] += X[i, j] * (a + 2 * b)\n"
        "        r = h[1]\n"
        "        out[i, :2] = h[0]\n"
        "        out[i, 2] = r[0]\n"
        "        out[i, 3] = r[-1]\n";
    const char *srcs[6] = {bins, fixed, wide, counted, grid, outer};
    analyse_loops = true;
    for (int form = 0; form < 6; form++) {
        int64_t zeros[R][4] = {{0}};
        NgArray x = mat(NG_INT64, R, C, X), out = mat(NG_INT64, R, 4, zeros);
        Bind bs[] = {barr("X", &x), barr("out", &out)};
        NgJitLoopPlan plan = par();
        if (!CHECK_EQ_INT(NG_OK, run_loop(srcs[form], 0, vars, 3, &plan, bs, 2, R, NULL)))
            printf("    %s\n", ng_error_message());
        if (form == 5) /* (the loops over range(2) unrolled, each copy's element its variable) */
            CHECK(strstr(last_source, "< ((int64_t)2LL); ") == NULL);
        if (form == 1 || form == 3 || form == 5)
            CHECK(strstr(last_source, "[5];") == NULL);
        else
            CHECK_STR_CONTAINS(last_source, form == 0 || form == 4 ? "int64_t v1[5];" : "int64_t v1[41];");
        CHECK_OK(ng_array_download(&out, got, NULL));
        int bad = 0;
        for (int i = 0; i < R; i++) {
            int64_t want[4] = {0};
            for (int j = 0; form == 0 && j < C; j++)
                want[X[i][j] & 3]++;
            if (form == 1)
                want[0] = X[i][0] + X[i][2], want[1] = want[2] = X[i][2], want[3] = X[i][1] + X[i][2];
            if (form == 2)
                want[0] = X[i][0] + 1;
            for (int j = 0; form == 3 && j < C; j++)
                for (int b = 0; b < 4; b++)
                    want[b] += X[i][j] * b;
            for (int j = 0; form == 4 && j < C; j++)
                want[(X[i][j] & 1) * 2 + ((X[i][j] >> 1) & 1)]++;
            for (int j = 0; form == 5 && j < C; j++)
                for (int b = 0; b < 4; b++)
                    want[b] += X[i][j] * (b / 2 + 2 * (b % 2));
            for (int b = 0; b < 4; b++)
                bad += got[i][b] != want[b];
        }
        CHECK_EQ_INT(0, bad);
        ng_array_release(&x), ng_array_release(&out);
    }
    analyse_loops = false;
}

static void test_lanes_and_tiles(void)
{
    const char *horner =
        "def f(coef, x, out):\n"
        "    for i in range(len(x)):\n"
        "        acc = 0.0\n"
        "        for k in range(len(coef)):\n"
        "            acc = acc * x[i] + coef[k]\n"
        "        out[i] = acc\n";
    enum { N = 203, D = 9 };
    double coef[D], x[N], out[N], want[N];
    for (int k = 0; k < D; k++)
        coef[k] = urand() - 0.5;
    for (int i = 0; i < N; i++) {
        x[i] = 2 * urand() - 1;
        want[i] = 0.0;
        for (int k = 0; k < D; k++)
            want[i] = want[i] * x[i] + coef[k];
    }
    NgArray c = vec(NG_FLOAT64, D, coef), xa = vec(NG_FLOAT64, N, x), o = vec(NG_FLOAT64, N, NULL);
    NgJitVarType hv[] = {arr("coef", NG_FLOAT64, 1), arr("x", NG_FLOAT64, 1), arr("out", NG_FLOAT64, 1)};
    Bind hb[] = {barr("coef", &c), barr("x", &xa), barr("out", &o)};
    NgJitLoopPlan plan = par();
    CHECK_OK(run_loop(horner, 0, hv, 3, &plan, hb, 3, N, NULL));
    CHECK(strstr(last_source, "v1_7") != NULL); /* (acc's copy in lane 7) */
    CHECK_OK(ng_array_download(&o, out, NULL));
    CHECK(memcmp(out, want, sizeof out) == 0);
    ng_array_release(&c), ng_array_release(&xa), ng_array_release(&o);

    const char *matmul =
        "def f(A, B, C):\n"
        "    for i in range(C.shape[0]):\n"
        "        for j in range(C.shape[1]):\n"
        "            acc = 0.0\n"
        "            for k in range(A.shape[1]):\n"
        "                acc += A[i, k] * B[k, j]\n"
        "            C[i, j] = acc\n";
    enum { R = 37, P = 11, M = 45 };
    static double A[R][P], B[P][M], C[R][M], W[R][M];
    for (int i = 0; i < R; i++)
        for (int k = 0; k < P; k++)
            A[i][k] = urand() - 0.5;
    for (int k = 0; k < P; k++)
        for (int j = 0; j < M; j++)
            B[k][j] = urand() - 0.5;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < M; j++) {
            W[i][j] = 0.0;
            for (int k = 0; k < P; k++)
                W[i][j] += A[i][k] * B[k][j];
        }
    NgArray a = mat(NG_FLOAT64, R, P, A), b = mat(NG_FLOAT64, P, M, B), cm = mat(NG_FLOAT64, R, M, NULL);
    NgJitVarType mv[] = {arr("A", NG_FLOAT64, 2), arr("B", NG_FLOAT64, 2), arr("C", NG_FLOAT64, 2)};
    Bind mb[] = {barr("A", &a), barr("B", &b), barr("C", &cm)};
    NgJitLoopPlan tiled = par();
    tiled.inner_parallel = true;
    CHECK_OK(run_loop(matmul, 0, mv, 3, &tiled, mb, 3, R, NULL));
    CHECK(strstr(last_source, "+= 32u") != NULL && strstr(last_source, "== 8u") != NULL);
    CHECK_OK(ng_array_download(&cm, C, NULL));
    CHECK(memcmp(C, W, sizeof C) == 0);

    const char *transpose =
        "def f(A, T):\n"
        "    for i in range(A.shape[0]):\n"
        "        for j in range(A.shape[1]):\n"
        "            T[j, i] = A[i, j]\n";
    static double T[M][R];
    NgArray t = mat(NG_FLOAT64, M, R, NULL);
    NgJitVarType tv[] = {arr("A", NG_FLOAT64, 2), arr("T", NG_FLOAT64, 2)};
    Bind tb[] = {barr("A", &cm), barr("T", &t)};
    CHECK_OK(run_loop(transpose, 0, tv, 2, &tiled, tb, 2, R, NULL));
    CHECK(strstr(last_source, "+= 32u") != NULL && strstr(last_source, "== 8u") == NULL);
    CHECK_OK(ng_array_download(&t, T, NULL));
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < M; j++)
            bad += memcmp(&T[j][i], &W[i][j], sizeof(double)) != 0;
    CHECK_EQ_INT(0, bad);
    ng_array_release(&a), ng_array_release(&b), ng_array_release(&cm), ng_array_release(&t);

    /* a while loop in vector lanes: every lane stops at its own step */
    const char *collatz =
        "def f(start, steps):\n"
        "    for i in range(start.shape[0]):\n"
        "        v = start[i]\n"
        "        c = 0\n"
        "        while v != 1:\n"
        "            if v % 2 == 0:\n"
        "                v = v // 2\n"
        "            else:\n"
        "                v = 3 * v + 1\n"
        "            c += 1\n"
        "        steps[i] = c\n";
    enum { NC = 101 };
    int64_t start[NC], steps[NC], wsteps[NC];
    for (int i = 0; i < NC; i++) {
        start[i] = i % 9 == 4 ? 1 : 1 + (int64_t)(urand() * 1e9);
        int64_t v = start[i], n = 0;
        for (; v != 1; n++)
            v = v % 2 == 0 ? v / 2 : 3 * v + 1;
        wsteps[i] = n;
    }
    NgArray st = vec(NG_INT64, NC, start), sp = vec(NG_INT64, NC, NULL);
    NgJitVarType cv[] = {arr("start", NG_INT64, 1), arr("steps", NG_INT64, 1)};
    Bind cb[] = {barr("start", &st), barr("steps", &sp)};
    CHECK_OK(run_loop(collatz, 0, cv, 2, &plan, cb, 2, NC, NULL));
    CHECK(strstr(last_source, "ng_vlanes(") != NULL && strstr(last_source, "ng_w1__1[7]") != NULL);
    /* the loop in each vector width, one of which the host's preprocessor keeps: 16 lanes (a
     * loop in lanes doubles the jam), two vectors stepping side by side in one loop: lanes 8..15
     * in the second of 8 (AVX-512), or pairs of vectors of 4 (lanes 12..15 in the second of the
     * second pair) or of 2 */
    const char *w8 = strstr(last_source, "#if NG_VW == 8\n"), *w4 = w8 ? strstr(w8, "#elif NG_VW == 4\n") : NULL;
    const char *w2 = w4 ? strstr(w4, "#else\n") : NULL, *end = w2 ? strstr(w2, "#endif\n") : NULL;
    CHECK(end && strstr(w8, "v1_15 = ng_w1__1[7];") && strstr(w8, "v1_15 = ng_w1__1[7];") < w4 &&
          strstr(w4, "v1_15 = ng_w1__1[3];") && strstr(w4, "v1_15 = ng_w1__1[3];") < w2 &&
          strstr(w2, "v1_15 = ng_w1__1[1];") && strstr(w2, "v1_15 = ng_w1__1[1];") < end);
    CHECK(strstr(w8, "ng_vlanes(ng_vs__0) + ng_vlanes(ng_vs__1) < 2 * NG_VMIN") != NULL &&
          strstr(w8, "ng_vlanes(ng_vs__0) + ng_vlanes(ng_vs__1) < 2 * NG_VMIN") < w4);
    CHECK_OK(ng_array_download(&sp, steps, NULL));
    CHECK(memcmp(steps, wsteps, sizeof steps) == 0);
    ng_array_release(&st), ng_array_release(&sp);
}

int main(void)
{
    if (ng_device_open("cpu", &dev) != NG_OK) {
        check_skip("jit lowering", ng_error_message());
        return check_summary();
    }
    test_saxpy();
    test_store_checks();
    test_read_checks();
    test_nested_2d();
    test_dot_reduction();
    test_floordiv_mod();
    test_python_division_checks();
    test_str_and_dict();
    test_conditional_max();
    test_collatz();
    test_histogram();
    test_mandelbrot();
    test_row_softmax();
    test_sequential_scalars();
    test_features();
    test_boundscheck();
    test_helpers();
    test_views_and_numpy_reductions();
    test_slices();
    test_versioned_windows();
    test_with_analysis();
    test_collapse();
    test_more_builtins();
    test_lanes_and_tiles();
    test_small_array_variables();
    test_errors();
    test_alloc_failures();
    printf("%d CUDA kernels compiled by NVRTC\n", nvrtc_compiled);
    ng_jit_loops_free(last_loops);
    ng_jit_ast_free(last_ast);
    return check_summary();
}
