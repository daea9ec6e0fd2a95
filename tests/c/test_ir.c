/* Tests of the kernel IR (src/ir): building kernels with the builders,
 * hash-consing of expressions, the verifier's rejections, the printer, and
 * builders under allocation failure. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/core.h"
#include "ir/ir.h"

static NgIrRef i64(NgIrKernel *k, int64_t v) { return ng_ir_const_i(k, NG_INT64, v); }

/* The parameters and loop variable of saxpy: y = a*x + y over a 1-d range. */
typedef struct Saxpy {
    int x, y, a, i;
} Saxpy;

static Saxpy saxpy_params(NgIrKernel *k)
{
    Saxpy s;
    s.x = ng_ir_param_array(k, NG_FLOAT32, 1, true, false);
    s.y = ng_ir_param_array(k, NG_FLOAT32, 1, true, true);
    s.a = ng_ir_param_scalar(k, NG_FLOAT32);
    s.i = ng_ir_var(k, NG_INT64);
    return s;
}

static NgIrRef saxpy_body(NgIrKernel *k, const Saxpy *s)
{
    /* one builder call per statement, so node numbers do not depend on the
     * order in which C evaluates arguments */
    NgIrRef i = ng_ir_varref(k, s->i);
    NgIrRef a = ng_ir_scalar(k, s->a);
    NgIrRef xi = ng_ir_load(k, s->x, 1, &i);
    NgIrRef ax = ng_ir_binary(k, NG_OP_MUL, NG_FLOAT32, a, xi);
    NgIrRef yi = ng_ir_load(k, s->y, 1, &i);
    NgIrRef v = ng_ir_binary(k, NG_OP_ADD, NG_FLOAT32, ax, yi);
    NgIrRef st = ng_ir_store(k, s->y, 1, &i, v);
    NgIrRef start = i64(k, 0);
    NgIrRef stop = ng_ir_shape(k, s->y, 0);
    NgIrRef step = i64(k, 1);
    return ng_ir_for(k, s->i, start, stop, step, st, NG_IR_PARALLEL);
}

static void test_saxpy(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "saxpy");
    Saxpy s = saxpy_params(&k);
    CHECK(s.x == 0 && s.y == 1 && s.a == 2 && s.i == 0);
    k.body = saxpy_body(&k, &s);
    CHECK(k.body != NG_IR_NONE);
    CHECK_OK(ng_ir_verify(&k));
    CHECK_EQ_INT(NG_IR_FOR, ng_ir_node(&k, k.body)->kind);
    CHECK(ng_ir_node(&k, k.body)->flags & NG_IR_PARALLEL);
    CHECK_EQ_INT(4, ng_ir_node(&k, k.body)->nkids);
    NgIrRef st = ng_ir_kid(&k, k.body, 3);
    CHECK_EQ_INT(NG_IR_STORE, ng_ir_node(&k, st)->kind);
    CHECK_EQ_INT(s.y, ng_ir_node(&k, st)->a);
    NgIrRef val = ng_ir_kid(&k, st, 0);
    CHECK_EQ_INT(NG_IR_BINARY, ng_ir_node(&k, val)->kind);
    CHECK_EQ_INT(NG_OP_ADD, ng_ir_node(&k, val)->op);
    CHECK_EQ_INT(NG_FLOAT32, ng_ir_node(&k, val)->dtype);

    char buf[4096];
    ng_ir_print(&k, buf, sizeof buf);
    CHECK_EQ_STR("kernel saxpy(array float32[1], array float32[1] out, scalar float32[0])\n"
                 "%0 = var :int64 #0\n"
                 "%1 = scalar :float32 #2\n"
                 "%2 = load :float32 #0 %0\n"
                 "%3 = binary multiply :float32 %1 %2\n"
                 "%4 = load :float32 #1 %0\n"
                 "%5 = binary add :float32 %3 %4\n"
                 "%6 = store #1 %5 %0\n"
                 "%7 = const :int64 0\n"
                 "%8 = shape :int64 #1 axis 0\n"
                 "%9 = const :int64 1\n"
                 "%10 = for #0 parallel %7 %8 %9 %6\n",
                 buf);
    /* A short buffer truncates without overrun. */
    char small[40 + 8];
    memset(small, 'Z', sizeof small);
    ng_ir_print(&k, small, 40);
    CHECK(memchr(small, 0, 40) != NULL);
    CHECK(small[40] == 'Z' && small[47] == 'Z');
    CHECK_EQ_INT(0, strncmp(small, "kernel saxpy(array float32[1], array", 36));
    ng_ir_free(&k);
    CHECK(k.nodes == NULL && k.nnodes == 0);
}

/* Hash-consing: equal expressions are one node; statements never merge. */
static void test_hash_consing(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "cons");
    Saxpy s = saxpy_params(&k);
    NgIrRef i1 = ng_ir_varref(&k, s.i), i2 = ng_ir_varref(&k, s.i);
    CHECK_EQ_INT(i1, i2);
    NgIrRef x1 = ng_ir_load(&k, s.x, 1, &i1), x2 = ng_ir_load(&k, s.x, 1, &i2);
    CHECK_EQ_INT(x1, x2);
    NgIrRef y1 = ng_ir_load(&k, s.y, 1, &i1);
    CHECK(x1 != y1);
    NgIrRef e1 = ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT32, ng_ir_scalar(&k, s.a), x1);
    NgIrRef e2 = ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT32, ng_ir_scalar(&k, s.a), x2);
    CHECK_EQ_INT(e1, e2);
    /* operand order, op and dtype all count */
    CHECK(ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT32, x1, ng_ir_scalar(&k, s.a)) != e1);
    CHECK(ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, ng_ir_scalar(&k, s.a), x1) != e1);
    CHECK(ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT64, ng_ir_scalar(&k, s.a), x1) != e1);
    int before = k.nnodes;
    CHECK_EQ_INT(e1, ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT32, ng_ir_scalar(&k, s.a), x1));
    CHECK_EQ_INT(before, k.nnodes); /* a hit adds nothing */

    /* constants: value and dtype count; 0.0 and -0.0 differ, NaN meets NaN */
    CHECK_EQ_INT(ng_ir_const_i(&k, NG_INT64, 7), ng_ir_const_i(&k, NG_INT64, 7));
    CHECK(ng_ir_const_i(&k, NG_INT64, 7) != ng_ir_const_i(&k, NG_INT32, 7));
    CHECK(ng_ir_const_i(&k, NG_INT64, 7) != ng_ir_const_i(&k, NG_INT64, 8));
    CHECK_EQ_INT(ng_ir_const_f(&k, NG_FLOAT64, 0.5), ng_ir_const_f(&k, NG_FLOAT64, 0.5));
    CHECK(ng_ir_const_f(&k, NG_FLOAT64, 0.0) != ng_ir_const_f(&k, NG_FLOAT64, -0.0));
    CHECK_EQ_INT(ng_ir_const_f(&k, NG_FLOAT64, NAN), ng_ir_const_f(&k, NG_FLOAT64, NAN));
    /* an integer const given to a float dtype is the float value */
    CHECK_EQ_INT(ng_ir_const_i(&k, NG_FLOAT64, 3), ng_ir_const_f(&k, NG_FLOAT64, 3.0));
    CHECK_EQ_INT(ng_ir_const_f(&k, NG_INT32, 3.0), ng_ir_const_i(&k, NG_INT32, 3));
    CHECK(ng_ir_node(&k, ng_ir_const_i(&k, NG_FLOAT64, 3))->c.f == 3.0);

    /* casts: to its own dtype is the operand itself */
    CHECK_EQ_INT(x1, ng_ir_cast(&k, NG_FLOAT32, x1));
    NgIrRef c1 = ng_ir_cast(&k, NG_FLOAT64, x1);
    CHECK(c1 != x1);
    CHECK_EQ_INT(c1, ng_ir_cast(&k, NG_FLOAT64, x2));
    CHECK_EQ_INT(NG_FLOAT64, ng_ir_node(&k, c1)->dtype);
    CHECK_EQ_INT(NG_IR_NONE, ng_ir_cast(&k, NG_FLOAT64, NG_IR_NONE));

    /* select takes the dtype of its operands */
    NgIrRef cond = ng_ir_binary(&k, NG_OP_LT, NG_BOOL, x1, y1);
    NgIrRef sel = ng_ir_select(&k, cond, x1, y1);
    CHECK_EQ_INT(NG_FLOAT32, ng_ir_node(&k, sel)->dtype);
    CHECK_EQ_INT(sel, ng_ir_select(&k, cond, x1, y1));
    CHECK(sel != ng_ir_select(&k, cond, y1, x1));

    /* shape nodes differ by parameter and axis */
    CHECK_EQ_INT(ng_ir_shape(&k, s.x, 0), ng_ir_shape(&k, s.x, 0));
    CHECK(ng_ir_shape(&k, s.x, 0) != ng_ir_shape(&k, s.y, 0));

    /* statements are never merged */
    NgIrRef st1 = ng_ir_store(&k, s.y, 1, &i1, e1), st2 = ng_ir_store(&k, s.y, 1, &i1, e1);
    CHECK(st1 != st2);
    CHECK(ng_ir_jump(&k, NG_IR_BREAK) != ng_ir_jump(&k, NG_IR_BREAK));

    /* many distinct nodes force the table to grow; every one is still found */
    enum { N = 3000 };
    static NgIrRef refs[N];
    for (int v = 0; v < N; v++)
        refs[v] = ng_ir_const_i(&k, NG_INT64, 1000 + v);
    int distinct = 1, found = 0;
    for (int v = 1; v < N; v++)
        distinct += refs[v] != refs[v - 1];
    for (int v = 0; v < N; v++)
        found += ng_ir_const_i(&k, NG_INT64, 1000 + v) == refs[v];
    CHECK_EQ_INT(N, distinct);
    CHECK_EQ_INT(N, found);
    CHECK_EQ_INT(e1, ng_ir_binary(&k, NG_OP_MUL, NG_FLOAT32, ng_ir_scalar(&k, s.a), x1));
    CHECK_EQ_INT(NG_OK, k.status);
    ng_ir_free(&k);
}

/* out[] = sum(x) over a parallel loop with a declared reduction. */
static void test_reduction(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "sum_f32");
    int x = ng_ir_param_array(&k, NG_FLOAT32, 1, true, false);
    int out = ng_ir_param_array(&k, NG_FLOAT32, 0, true, true);
    int i = ng_ir_var(&k, NG_INT64), acc = ng_ir_var(&k, NG_FLOAT32);
    NgIrRef iv = ng_ir_varref(&k, i), av = ng_ir_varref(&k, acc);
    NgIrRef upd = ng_ir_assign(&k, acc, ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, av, ng_ir_load(&k, x, 1, &iv)));
    NgIrRef loop = ng_ir_for(&k, i, i64(&k, 0), ng_ir_shape(&k, x, 0), i64(&k, 1), upd, NG_IR_PARALLEL);
    ng_ir_reduce(&k, loop, acc, NG_OP_ADD);
    NgIrRef stmts[3] = {ng_ir_let(&k, acc, ng_ir_const_f(&k, NG_FLOAT32, 0.0)), loop,
                        ng_ir_store(&k, out, 0, &iv, av)}; /* 0-d: idx unread */
    k.body = ng_ir_block(&k, 3, stmts);
    CHECK_OK(ng_ir_verify(&k));
    CHECK_EQ_INT(1, k.nreds);
    CHECK_EQ_INT(loop, k.reds[0].loop);
    CHECK_EQ_INT(acc, k.reds[0].var);
    CHECK_EQ_INT(NG_OP_ADD, k.reds[0].op);
    char buf[2048];
    ng_ir_print(&k, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "kernel sum_f32(array float32[1], array float32[0] out)\n");
    CHECK_STR_CONTAINS(buf, " = const :float32 0\n");
    CHECK_STR_CONTAINS(buf, " = assign #1 ");
    CHECK_STR_CONTAINS(buf, " = let #1 ");
    CHECK_STR_CONTAINS(buf, " = block ");
    ng_ir_free(&k);
}

/* ng_ir_substitute: the nodes above a replaced one are new, the rest shared; an expression
 * made anew that exists already is that one (hash-consing); a copied parallel loop keeps its
 * flags and reductions; ng_ir_version holds both. */
static void test_substitute(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "versions");
    int x = ng_ir_param_array(&k, NG_FLOAT64, 1, true, false);
    int out = ng_ir_param_array(&k, NG_FLOAT64, 0, true, true);
    int n = ng_ir_param_scalar(&k, NG_INT64);
    int i = ng_ir_var(&k, NG_INT64), acc = ng_ir_var(&k, NG_FLOAT64);
    NgIrRef iv = ng_ir_varref(&k, i), av = ng_ir_varref(&k, acc), nv = ng_ir_scalar(&k, n);
    NgIrRef len = ng_ir_binary(&k, NG_OP_MINIMUM, NG_INT64, nv, ng_ir_shape(&k, x, 0));
    NgIrRef load = ng_ir_load(&k, x, 1, &iv);
    NgIrRef upd = ng_ir_assign(&k, acc, ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT64, av, load));
    NgIrRef loop = ng_ir_for(&k, i, i64(&k, 0), len, i64(&k, 1), upd, NG_IR_PARALLEL);
    ng_ir_reduce(&k, loop, acc, NG_OP_ADD);
    int before = k.nnodes;
    NgIrRef four = i64(&k, 4), shape = ng_ir_shape(&k, x, 0);
    NgIrRef fast = ng_ir_substitute(&k, loop, 1, &len, &four);
    CHECK(fast != loop && fast >= before);
    CHECK_EQ_INT(four, ng_ir_kid(&k, fast, 1)); /* the bound replaced */
    CHECK_EQ_INT(upd, ng_ir_kid(&k, fast, 3)); /* the body shared */
    CHECK_EQ_INT(NG_IR_PARALLEL, ng_ir_node(&k, fast)->flags);
    CHECK_EQ_INT(2, k.nreds);
    CHECK_EQ_INT(fast, k.reds[1].loop);
    CHECK_EQ_INT(acc, k.reds[1].var);
    NgIrRef same = ng_ir_substitute(&k, loop, 1, &shape, &shape);
    CHECK_EQ_INT(loop, same); /* (nothing changed: the loop itself) */
    NgIrRef min4 = ng_ir_binary(&k, NG_OP_MINIMUM, NG_INT64, four, shape);
    CHECK_EQ_INT(min4, ng_ir_substitute(&k, len, 1, &nv, &four)); /* (made anew: the one there) */
    NgIrRef both = ng_ir_version(&k, ng_ir_binary(&k, NG_OP_EQ, NG_BOOL, len, four), fast, loop);
    CHECK_EQ_INT(NG_IR_VERSIONED, ng_ir_node(&k, both)->flags);
    NgIrRef stmts[3] = {ng_ir_let(&k, acc, ng_ir_const_f(&k, NG_FLOAT64, 0.0)), both,
                        ng_ir_store(&k, out, 0, &iv, av)};
    k.body = ng_ir_block(&k, 3, stmts);
    CHECK_OK(ng_ir_verify(&k));
    ng_ir_free(&k);
}

/* Nested loops with IF/LET/ASSIGN and a WHILE with BREAK/CONTINUE:
 *   for i (parallel): for j:
 *       let t = a[i, j]; if t < 0: t = -t
 *       let n = 0
 *       while t > 1: { n += 1; if n > 100: break; t = t // 2; continue }
 *       b[i, j] = n */
static void test_nested(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "nested");
    int a = ng_ir_param_array(&k, NG_INT32, 2, false, false);
    int b = ng_ir_param_array(&k, NG_INT32, 2, true, true);
    int i = ng_ir_var(&k, NG_INT64), j = ng_ir_var(&k, NG_INT64), t = ng_ir_var(&k, NG_INT32),
        n = ng_ir_var(&k, NG_INT32);
    NgIrRef idx[2] = {ng_ir_varref(&k, i), ng_ir_varref(&k, j)};
    NgIrRef tv = ng_ir_varref(&k, t), nv = ng_ir_varref(&k, n);
    NgIrRef zero = ng_ir_const_i(&k, NG_INT32, 0), one = ng_ir_const_i(&k, NG_INT32, 1);
    NgIrRef neg = ng_ir_if(&k, ng_ir_binary(&k, NG_OP_LT, NG_BOOL, tv, zero),
                           ng_ir_assign(&k, t, ng_ir_unary(&k, NG_OP_NEG, NG_INT32, tv)), NG_IR_NONE);
    NgIrRef wbody[4] = {
        ng_ir_assign(&k, n, ng_ir_binary(&k, NG_OP_ADD, NG_INT32, nv, one)),
        ng_ir_if(&k, ng_ir_binary(&k, NG_OP_GT, NG_BOOL, nv, ng_ir_const_i(&k, NG_INT32, 100)),
                 ng_ir_jump(&k, NG_IR_BREAK), NG_IR_NONE),
        ng_ir_assign(&k, t, ng_ir_binary(&k, NG_OP_FLOORDIV, NG_INT32, tv, ng_ir_const_i(&k, NG_INT32, 2))),
        ng_ir_jump(&k, NG_IR_CONTINUE),
    };
    NgIrRef loop_w = ng_ir_while(&k, ng_ir_binary(&k, NG_OP_GT, NG_BOOL, tv, one), ng_ir_block(&k, 4, wbody));
    NgIrRef inner[5] = {ng_ir_let(&k, t, ng_ir_load(&k, a, 2, idx)), neg, ng_ir_let(&k, n, zero), loop_w,
                        ng_ir_store(&k, b, 2, idx, nv)};
    NgIrRef loop_j = ng_ir_for(&k, j, i64(&k, 0), ng_ir_shape(&k, b, 1), i64(&k, 1), ng_ir_block(&k, 5, inner), 0);
    k.body = ng_ir_for(&k, i, i64(&k, 0), ng_ir_shape(&k, b, 0), i64(&k, 1), loop_j, NG_IR_PARALLEL);
    CHECK_OK(ng_ir_verify(&k));
    CHECK_EQ_INT(0, ng_ir_node(&k, loop_j)->flags & NG_IR_PARALLEL);
    CHECK_EQ_INT(NG_IR_NONE, ng_ir_kid(&k, neg, 2));
    char buf[4096];
    ng_ir_print(&k, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "kernel nested(array int32[2], array int32[2] out)\n");
    CHECK_STR_CONTAINS(buf, " = while ");
    CHECK_STR_CONTAINS(buf, " = break\n");
    CHECK_STR_CONTAINS(buf, " = continue\n");
    CHECK_STR_CONTAINS(buf, " = unary negative :int32 ");
    CHECK_STR_CONTAINS(buf, " = binary floor_divide :int32 ");
    CHECK_STR_CONTAINS(buf, " = if ");
    if (bug_fixed("ng_ir_print omits the axis of a shape node: shape(b, 0) and shape(b, 1) both print "
                        "as `shape :int64 #1`"))
        CHECK_STR_CONTAINS(buf, " = shape :int64 #1 axis 1");
    CHECK_STR_CONTAINS(buf, " = for #0 parallel ");
    CHECK_STR_CONTAINS(buf, " = for #1 %");
    ng_ir_free(&k);
}

/* A kernel that fails verification with NG_ERR_INTERNAL and `why` in the message. */
static void expect_rejected(NgIrKernel *k, const char *why)
{
    ng_error_set(NG_OK, "stale");
    if (CHECK_EQ_INT(NG_ERR_INTERNAL, ng_ir_verify(k)))
        CHECK_STR_CONTAINS(ng_error_message(), why);
    ng_ir_free(k);
}

static void test_verify_rejects(void)
{
    NgIrKernel k;
    /* store to an array parameter not marked written */
    ng_ir_init(&k, "bad_store");
    Saxpy s = saxpy_params(&k);
    NgIrRef i = ng_ir_varref(&k, s.i);
    NgIrRef st = ng_ir_store(&k, s.x, 1, &i, ng_ir_load(&k, s.y, 1, &i));
    k.body = ng_ir_for(&k, s.i, i64(&k, 0), ng_ir_shape(&k, s.x, 0), i64(&k, 1), st, NG_IR_PARALLEL);
    expect_rejected(&k, "store to an array not marked written");

    /* the same through an atomic update */
    ng_ir_init(&k, "bad_atomic");
    s = saxpy_params(&k);
    i = ng_ir_varref(&k, s.i);
    st = ng_ir_atomic(&k, NG_OP_ADD, s.x, 1, &i, ng_ir_scalar(&k, s.a));
    k.body = ng_ir_for(&k, s.i, i64(&k, 0), ng_ir_shape(&k, s.x, 0), i64(&k, 1), st, NG_IR_PARALLEL);
    expect_rejected(&k, "not marked written");

    /* a variable used before its LET */
    ng_ir_init(&k, "bad_var");
    s = saxpy_params(&k);
    int v = ng_ir_var(&k, NG_FLOAT32);
    NgIrRef zero = i64(&k, 0);
    NgIrRef stmts[2] = {ng_ir_store(&k, s.y, 1, &zero, ng_ir_varref(&k, v)),
                        ng_ir_let(&k, v, ng_ir_scalar(&k, s.a))};
    k.body = ng_ir_block(&k, 2, stmts);
    expect_rejected(&k, "used before it is declared");

    /* a loop variable used outside its loop, before it */
    ng_ir_init(&k, "bad_loopvar");
    s = saxpy_params(&k);
    i = ng_ir_varref(&k, s.i);
    NgIrRef stmts2[2] = {ng_ir_store(&k, s.y, 1, &i, ng_ir_scalar(&k, s.a)),
                         ng_ir_for(&k, s.i, i64(&k, 0), i64(&k, 3), i64(&k, 1), ng_ir_block(&k, 0, NULL), 0)};
    k.body = ng_ir_block(&k, 2, stmts2);
    expect_rejected(&k, "used before it is declared");

    /* a load with the wrong number of indices */
    ng_ir_init(&k, "bad_load");
    int a2 = ng_ir_param_array(&k, NG_FLOAT64, 2, true, false);
    int out = ng_ir_param_array(&k, NG_FLOAT64, 1, true, true);
    zero = i64(&k, 0);
    k.body = ng_ir_store(&k, out, 1, &zero, ng_ir_load(&k, a2, 1, &zero));
    expect_rejected(&k, "load with the wrong number of indices");

    /* a store with the wrong number of indices */
    ng_ir_init(&k, "bad_store_idx");
    a2 = ng_ir_param_array(&k, NG_FLOAT64, 2, true, false);
    out = ng_ir_param_array(&k, NG_FLOAT64, 1, true, true);
    zero = i64(&k, 0);
    NgIrRef two[2] = {zero, zero};
    k.body = ng_ir_store(&k, out, 2, two, ng_ir_load(&k, a2, 2, two));
    expect_rejected(&k, "store with the wrong number of indices");

    /* a scalar reference to an array parameter, a shape of a scalar */
    ng_ir_init(&k, "bad_scalar");
    s = saxpy_params(&k);
    zero = i64(&k, 0);
    k.body = ng_ir_store(&k, s.y, 1, &zero, ng_ir_scalar(&k, s.x));
    expect_rejected(&k, "scalar reference to a non-scalar parameter");
    ng_ir_init(&k, "bad_shape");
    s = saxpy_params(&k);
    zero = i64(&k, 0);
    k.body = ng_ir_store(&k, s.y, 1, &zero, ng_ir_cast(&k, NG_FLOAT32, ng_ir_shape(&k, s.a, 0)));
    expect_rejected(&k, "not an array parameter");

    /* an array variable read or assigned whole, a scalar one by element */
    for (int form = 0; form < 3; form++) {
        ng_ir_init(&k, "bad_array_var");
        s = saxpy_params(&k);
        int h = ng_ir_var_array(&k, NG_FLOAT32, 4), sc = ng_ir_var(&k, NG_FLOAT32);
        zero = i64(&k, 0);
        NgIrRef a = ng_ir_scalar(&k, s.a);
        NgIrRef use = form == 0 ? ng_ir_store(&k, s.y, 1, &zero, ng_ir_varref(&k, h))
                      : form == 1 ? ng_ir_assign(&k, h, a)
                                  : ng_ir_store(&k, s.y, 1, &zero, ng_ir_element(&k, sc, zero));
        NgIrRef st3[3] = {ng_ir_let(&k, h, a), ng_ir_let(&k, sc, a), use};
        k.body = ng_ir_block(&k, 3, st3);
        expect_rejected(&k, "an array variable ");
    }
    /* and the good forms */
    ng_ir_init(&k, "array_var");
    s = saxpy_params(&k);
    int h = ng_ir_var_array(&k, NG_FLOAT32, 4);
    zero = i64(&k, 0);
    NgIrRef three = i64(&k, 3);
    NgIrRef st2[3] = {ng_ir_let(&k, h, ng_ir_scalar(&k, s.a)),
                      ng_ir_assign_element(&k, h, three, ng_ir_element(&k, h, zero)),
                      ng_ir_store(&k, s.y, 1, &zero, ng_ir_element(&k, h, three))};
    k.body = ng_ir_block(&k, 3, st2);
    CHECK_OK(ng_ir_verify(&k));
    CHECK_EQ_INT(4, k.vars[h].len);
    CHECK_EQ_INT(0, k.vars[s.i].len);
    CHECK(ng_ir_element(&k, h, zero) == ng_ir_element(&k, h, zero)); /* (hash-consed as any expression) */
    CHECK(ng_ir_element(&k, h, zero) != ng_ir_element(&k, h, three));
    ng_ir_free(&k);

    /* no body */
    ng_ir_init(&k, "empty");
    saxpy_params(&k);
    expect_rejected(&k, "kernel without a body");

    /* a builder given a missing operand: the failure is sticky */
    ng_ir_init(&k, "missing");
    s = saxpy_params(&k);
    NgIrRef e = ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, ng_ir_scalar(&k, s.a), NG_IR_NONE);
    CHECK_EQ_INT(NG_IR_NONE, e);
    CHECK_EQ_INT(NG_ERR_INTERNAL, k.status);
    CHECK_STR_CONTAINS(ng_error_message(), "missing operand");
    CHECK_EQ_INT(NG_IR_NONE, ng_ir_const_i(&k, NG_INT64, 1)); /* every later builder passes NONE on */
    k.body = ng_ir_store(&k, s.y, 0, &e, e);
    CHECK_EQ_INT(NG_IR_NONE, k.body);
    CHECK_EQ_INT(NG_ERR_INTERNAL, ng_ir_verify(&k));
    ng_ir_free(&k);

    /* more indices than any array can have */
    ng_ir_init(&k, "too_many");
    s = saxpy_params(&k);
    NgIrRef many[NG_MAXDIMS + 1];
    for (int d = 0; d <= NG_MAXDIMS; d++)
        many[d] = i64(&k, 0);
    CHECK_EQ_INT(NG_IR_NONE, ng_ir_store(&k, s.y, NG_MAXDIMS + 1, many, ng_ir_scalar(&k, s.a)));
    CHECK_EQ_INT(NG_ERR_INTERNAL, k.status);
    ng_ir_free(&k);
}

/* Checks the verifier's contract (ir.h: "types agree, vars declared before
 * use") promises but does not keep yet. */
static void test_verify_known_gaps(void)
{
    NgIrKernel k;
    if (check_known_bug("ng_ir_verify accepts a binary op whose operands have different dtypes")) {
        ng_ir_init(&k, "mixed");
        Saxpy s = saxpy_params(&k);
        NgIrRef zero = i64(&k, 0);
        NgIrRef sum = ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, ng_ir_load(&k, s.x, 1, &zero),
                                   ng_ir_const_f(&k, NG_FLOAT64, 1.0));
        k.body = ng_ir_store(&k, s.y, 1, &zero, sum);
        expect_rejected(&k, "");
    }
    if (check_known_bug("ng_ir_verify accepts a store whose value dtype differs from the array's")) {
        ng_ir_init(&k, "store_type");
        Saxpy s = saxpy_params(&k);
        NgIrRef zero = i64(&k, 0);
        k.body = ng_ir_store(&k, s.y, 1, &zero, ng_ir_const_f(&k, NG_FLOAT64, 1.0));
        expect_rejected(&k, "");
    }
    if (check_known_bug("ng_ir_verify accepts `let v = v + 1` (LET marks v declared before checking its value)")) {
        ng_ir_init(&k, "selfref");
        Saxpy s = saxpy_params(&k);
        int v = ng_ir_var(&k, NG_FLOAT32);
        NgIrRef zero = i64(&k, 0), vv = ng_ir_varref(&k, v);
        NgIrRef stmts[2] = {ng_ir_let(&k, v, ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, vv, ng_ir_scalar(&k, s.a))),
                            ng_ir_store(&k, s.y, 1, &zero, vv)};
        k.body = ng_ir_block(&k, 2, stmts);
        expect_rejected(&k, "used before it is declared");
    }
    if (check_known_bug("ng_ir_verify accepts a variable LET inside an IF branch and used after the IF "
                        "(the emitted C declares it in the branch's scope and fails to compile)")) {
        ng_ir_init(&k, "scope");
        Saxpy s = saxpy_params(&k);
        int v = ng_ir_var(&k, NG_FLOAT32);
        NgIrRef zero = i64(&k, 0);
        NgIrRef cond = ng_ir_binary(&k, NG_OP_GT, NG_BOOL, ng_ir_scalar(&k, s.a), ng_ir_const_f(&k, NG_FLOAT32, 0));
        NgIrRef stmts[2] = {ng_ir_if(&k, cond, ng_ir_let(&k, v, ng_ir_scalar(&k, s.a)), NG_IR_NONE),
                            ng_ir_store(&k, s.y, 1, &zero, ng_ir_varref(&k, v))};
        k.body = ng_ir_block(&k, 2, stmts);
        expect_rejected(&k, "used before it is declared");
    }
}

/* A store to a 0-d array has no indices; passing idx = NULL is natural. */
static void test_store_0d_null(void)
{
    if (!bug_fixed("ng_ir_store/ng_ir_atomic with nidx == 0 and idx == NULL call memcpy(kids + 1, NULL, 0) "
                         "(src/ir/ir.c store_like): undefined behaviour, aborts under -fsanitize=undefined"))
        return;
    NgIrKernel k;
    ng_ir_init(&k, "store0d");
    int out = ng_ir_param_array(&k, NG_FLOAT64, 0, true, true);
    k.body = ng_ir_store(&k, out, 0, NULL, ng_ir_const_f(&k, NG_FLOAT64, 1.5));
    CHECK_OK(ng_ir_verify(&k));
    ng_ir_free(&k);
}

/* Every allocation the builders make can fail: the kernel then reports
 * NG_ERR_NOMEM from ng_ir_verify and frees cleanly. (Parameters and
 * variables are declared first; see test_alloc_failure_params.) */
static void test_alloc_failure(void)
{
    int failures = 0;
    for (long n = 1; n < 200; n++) {
        NgIrKernel k;
        ng_ir_init(&k, "saxpy");
        Saxpy s = saxpy_params(&k);
        int acc = ng_ir_var(&k, NG_FLOAT32);
        ng_alloc_fail_after(n);
        NgIrRef loop = saxpy_body(&k, &s);
        NgIrRef extra = ng_ir_let(&k, acc, ng_ir_const_f(&k, NG_FLOAT32, 0));
        for (int v = 0; v < 100; v++) /* enough nodes to grow every pool */
            extra = ng_ir_block(&k, 1, &extra);
        NgIrRef stmts[2] = {extra, loop};
        k.body = ng_ir_block(&k, 2, stmts);
        ng_ir_reduce(&k, loop, acc, NG_OP_ADD);
        ng_alloc_fail_after(0);
        NgStatus st = ng_ir_verify(&k);
        if (st == NG_OK) {
            CHECK_EQ_INT(1, k.nreds);
            /* the verifier's own allocation can fail too */
            ng_alloc_fail_after(1);
            CHECK_EQ_INT(NG_ERR_NOMEM, ng_ir_verify(&k));
            ng_alloc_fail_after(0);
            ng_ir_free(&k);
            break;
        }
        failures++;
        CHECK_EQ_INT(NG_ERR_NOMEM, st);
        CHECK_EQ_INT(NG_ERR_NOMEM, k.status);
        CHECK_STR_CONTAINS(ng_error_message(), "out of memory");
        ng_ir_free(&k);
    }
    CHECK(failures >= 4); /* nodes, kid pool, hash table, reductions */
}

/* The same when the very first allocations (parameters, variables) fail.
 * Run in a child: today the builders index k->params/k->vars after a
 * failed grow and crash. */
static void test_alloc_failure_params(void)
{
    if (!bug_fixed("after ng_ir_param_array/ng_ir_var fail to grow, ng_ir_load/ng_ir_scalar/"
                         "ng_ir_varref index a NULL k->params/k->vars (crash)"))
        return;
    for (long n = 1; n <= 3; n++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            NgIrKernel k;
            ng_ir_init(&k, "saxpy");
            ng_alloc_fail_after(n);
            Saxpy s = saxpy_params(&k);
            k.body = saxpy_body(&k, &s);
            NgStatus st = ng_ir_verify(&k);
            ng_alloc_fail_after(0);
            ng_ir_free(&k);
            _exit(st == NG_ERR_NOMEM ? 0 : 1);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            printf("    allocation %ld failing: child %s %d\n", n, WIFEXITED(status) ? "exit" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
}

/* ng_ir_imag: a CAST with a = 1 of a complex value, its real dtype, distinct from the real
 * part's cast; 0 for a real value; the verifier refuses one over a real operand. */
static void test_imag_part(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "imag");
    int z = ng_ir_param_array(&k, NG_COMPLEX64, 1, true, false);
    int out = ng_ir_param_array(&k, NG_FLOAT32, 1, true, true);
    int i = ng_ir_var(&k, NG_INT64);
    NgIrRef I = ng_ir_varref(&k, i), x = ng_ir_load(&k, z, 1, &I);
    NgIrRef im = ng_ir_imag(&k, x), re = ng_ir_cast(&k, NG_FLOAT32, x);
    CHECK_EQ_INT(NG_IR_CAST, ng_ir_node(&k, im)->kind);
    CHECK_EQ_INT(NG_FLOAT32, ng_ir_node(&k, im)->dtype);
    CHECK_EQ_INT(1, ng_ir_node(&k, im)->a);
    CHECK(im != re);
    CHECK_EQ_INT(im, ng_ir_imag(&k, x)); /* hash-consed */
    NgIrRef r = ng_ir_cast(&k, NG_FLOAT32, ng_ir_const_i(&k, NG_INT64, 2));
    CHECK_EQ_INT(ng_ir_const_f(&k, NG_FLOAT32, 0.0), ng_ir_imag(&k, r));
    CHECK_EQ_INT(ng_ir_const_i(&k, NG_INT64, 0), ng_ir_imag(&k, I));
    k.body = ng_ir_for(&k, i, ng_ir_const_i(&k, NG_INT64, 0), ng_ir_shape(&k, z, 0), ng_ir_const_i(&k, NG_INT64, 1),
                       ng_ir_store(&k, out, 1, &I, ng_ir_binary(&k, NG_OP_ADD, NG_FLOAT32, re, im)), NG_IR_PARALLEL);
    CHECK_OK(ng_ir_verify(&k));
    char buf[2048];
    ng_ir_print(&k, buf, sizeof buf);
    CHECK(strstr(buf, "cast :float32 imag") != NULL);
    k.nodes[im].dtype = NG_FLOAT64; /* not the real dtype of complex64 */
    CHECK_EQ_INT(NG_ERR_INTERNAL, ng_ir_verify(&k));
    CHECK(strstr(ng_error_message(), "imaginary part") != NULL);
    ng_ir_free(&k);
}

/* ng_ir_complex: (re, -0.0) + (-0.0, im) of two real values, printed as the parts they are;
 * the verifier refuses a part cast of a complex operand. */
static void test_complex_from_parts(void)
{
    NgIrKernel k;
    ng_ir_init(&k, "cplx");
    int x = ng_ir_param_array(&k, NG_FLOAT64, 1, true, false);
    int out = ng_ir_param_array(&k, NG_COMPLEX128, 1, true, true);
    int i = ng_ir_var(&k, NG_INT64);
    NgIrRef I = ng_ir_varref(&k, i), v = ng_ir_load(&k, x, 1, &I);
    NgIrRef c = ng_ir_complex(&k, NG_COMPLEX128, v, ng_ir_const_f(&k, NG_FLOAT64, 2.0));
    CHECK_EQ_INT(NG_IR_BINARY, ng_ir_node(&k, c)->kind);
    CHECK_EQ_INT(NG_COMPLEX128, ng_ir_node(&k, c)->dtype);
    CHECK_EQ_INT(NG_IR_AS_RE, ng_ir_node(&k, ng_ir_kid(&k, c, 0))->a);
    CHECK_EQ_INT(NG_IR_AS_IM, ng_ir_node(&k, ng_ir_kid(&k, c, 1))->a);
    CHECK_EQ_INT(NG_IR_NONE, ng_ir_complex(&k, NG_COMPLEX128, v, NG_IR_NONE));
    k.body = ng_ir_for(&k, i, ng_ir_const_i(&k, NG_INT64, 0), ng_ir_shape(&k, x, 0), ng_ir_const_i(&k, NG_INT64, 1),
                       ng_ir_store(&k, out, 1, &I, c), NG_IR_PARALLEL);
    CHECK_OK(ng_ir_verify(&k));
    char buf[2048];
    ng_ir_print(&k, buf, sizeof buf);
    CHECK(strstr(buf, "as re") != NULL && strstr(buf, "as im") != NULL);
    NgIrRef im = ng_ir_kid(&k, c, 1);
    k.nodes[im].dtype = NG_FLOAT64; /* a part cast into a real dtype */
    CHECK_EQ_INT(NG_ERR_INTERNAL, ng_ir_verify(&k));
    CHECK(strstr(ng_error_message(), "complex part") != NULL);
    ng_ir_free(&k);
}

int main(void)
{
    test_saxpy();
    test_imag_part();
    test_complex_from_parts();
    test_hash_consing();
    test_reduction();
    test_substitute();
    test_nested();
    test_verify_rejects();
    test_verify_known_gaps();
    test_store_0d_null();
    test_alloc_failure();
    test_alloc_failure_params();
    return check_summary();
}
