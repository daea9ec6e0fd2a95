/* Tests of the jit parser (src/jit/parse.c) and AST printer (src/jit/ast.c):
 * Python's precedence through the printer, every statement the jit parses,
 * statements skipped as "python" with their blocks, spans and line ranges
 * (the host plan cuts loops out by them), the loop-kernel corpus in
 * ../shared/kernels, malformed input (errors with Python's wording, line and
 * column; never a crash or a hang), allocation failures, two threads at once,
 * and speed. While it was written the printer's output was compared with
 * Python's ast module over the whole standard library, spans included. */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "jit/ast.h"

/* ---- helpers ---- */

/* The printed AST of a source (NG_JIT_PRINT_LINES when lines), or "ERROR msg". */
static char *dump(const char *src, int flags)
{
    static char buf[1 << 16];
    NgJitAst *ast;
    if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        return buf;
    }
    NgStr out;
    ng_str_init(&out);
    ng_jit_ast_print(ast, &out, flags);
    snprintf(buf, sizeof buf, "%s", out.s);
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[n - 1] = 0;
    ng_str_free(&out);
    ng_jit_ast_free(ast);
    return buf;
}

/* The printed expression of a one-expression source. */
static char *expr(const char *src)
{
    static char buf[8192];
    char text[4096];
    snprintf(text, sizeof text, "def f():\n    (%s)\n", src);
    NgJitAst *ast;
    if (ng_jit_parse(text, strlen(text), "t.py", &ast, NULL) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        return buf;
    }
    NgStr out;
    ng_str_init(&out);
    ng_jit_expr_print(ast, ast->body.stmts[0]->body.stmts[0]->value, &out);
    snprintf(buf, sizeof buf, "%s", out.s);
    ng_str_free(&out);
    ng_jit_ast_free(ast);
    return buf;
}

static void check_error(const char *src, const char *kind, int line, int col, const char *msg, int at)
{
    NgJitAst *ast = (NgJitAst *)1;
    NgJitError err = {0};
    NgStatus st = ng_jit_parse(src, strlen(src), "bad.py", &ast, &err);
    bool ok = check_eq_int(NG_ERR_VALUE, st, "NG_ERR_VALUE", "status", __FILE__, at);
    ok &= check_true(ast == NULL, "ast == NULL", __FILE__, at);
    if (st == NG_OK) {
        ng_jit_ast_free(ast);
    } else {
        ok &= check_eq_str(kind, err.kind, "err.kind", __FILE__, at);
        ok &= check_eq_int(line, err.line, "line", "err.line", __FILE__, at);
        ok &= check_eq_int(col, err.col, "col", "err.col", __FILE__, at);
        ok &= check_eq_str(msg, err.msg, "err.msg", __FILE__, at);
        char where[64];
        snprintf(where, sizeof where, "bad.py:%d:%d: %s: %s", line, col + 1, kind, msg);
        ok &= check_str_contains(ng_error_message(), where, "ng_error_message()", __FILE__, at);
    }
    if (!ok)
        printf("    source: %.70s\n", src);
}

#define CHECK_EXPR(want, src) CHECK_EQ_STR(want, expr(src))
#define CHECK_DUMP(want, src) CHECK_EQ_STR(want, dump(src, 0))
#define CHECK_ERROR(src, kind, line, col, msg) check_error(src, kind, line, col, msg, __LINE__)

static NgJitAst *parse_ok(const char *src)
{
    NgJitAst *ast = NULL;
    NgStatus st = ng_jit_parse(src, strlen(src), "t.py", &ast, NULL);
    if (!CHECK_EQ_INT(NG_OK, st))
        printf("    error: %s\n", ng_error_message());
    return ast;
}

/* Every FOR statement in a block, depth first, in source order. */
static void find_loops(NgJitBlock b, const NgJitStmt **out, int *n, int max)
{
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        if (s->kind == NG_JIT_S_FOR && *n < max)
            out[(*n)++] = s;
        find_loops(s->body, out, n, max);
        find_loops(s->orelse, out, n, max);
    }
}

/* ---- expressions ---- */

static void test_precedence(void)
{
    CHECK_EXPR("(- (** 2 2))", "-2**2");
    CHECK_EXPR("(** 2 (- 1))", "2**-1");
    CHECK_EXPR("(** a (** b c))", "a**b**c");
    CHECK_EXPR("(** 2 (- (** 1 2)))", "2**-1**2");
    CHECK_EXPR("(- (- a b) c)", "a - b - c");
    CHECK_EXPR("(+ a (* b c))", "a + b * c");
    CHECK_EXPR("(* (+ a b) c)", "(a + b) * c");
    CHECK_EXPR("(% (// (@ (/ (* a b) c) d) e) f)", "a * b / c @ d // e % f");
    CHECK_EXPR("(| a (^ b (& c (<< d (+ e f)))))", "a | b ^ c & d << e + f");
    CHECK_EXPR("(| (^ (& (>> (- a b) c) d) e) f)", "a - b >> c & d ^ e | f");
    CHECK_EXPR("(* (- a) b)", "-a * b");
    CHECK_EXPR("(~ (- (+ x)))", "~-+x");
    CHECK_EXPR("(not (cmp a == b))", "not a == b");
    CHECK_EXPR("(or (and (not a) b) c)", "not a and b or c");
    CHECK_EXPR("(or a (and b c))", "a or b and c");
    CHECK_EXPR("(or (or a b) c)", "a or b or c");
    CHECK_EXPR("(not (not a))", "not not a");
    CHECK_EXPR("(cmp a < b <= c != d)", "a < b <= c != d");
    CHECK_EXPR("(cmp a not in b is not c in d is e)", "a not in b is not c in d is e");
    CHECK_EXPR("(cmp (| a b) < (+ c 1))", "a | b < c + 1");
    CHECK_EXPR("(ifexp a x (ifexp b y z))", "x if a else y if b else z");
    CHECK_EXPR("(ifexp (or c d) (+ a 1) (- b))", "a + 1 if c or d else -b");
    CHECK_EXPR("(ifexp b a (lambda () c))", "a if b else lambda: c");
    CHECK_EXPR("(lambda (x (= y 1)) (ifexp x y 0))", "lambda x, y=1: y if x else 0");
    CHECK_EXPR("(- (call ([] (. x y) 1) 2))", "-x.y[1](2)");
    CHECK_EXPR("(** (await x) 2)", "await x ** 2");
    CHECK_EXPR("(:= n (+ n 1))", "n := n + 1");
    CHECK_EXPR("(. (+ a b) real)", "(a + b).real");
}

static void test_atoms(void)
{
    CHECK_EXPR("1000000", "1_000_000");
    CHECK_EXPR("255", "0xff");
    CHECK_EXPR("15", "0o17");
    CHECK_EXPR("5", "0b101");
    CHECK_EXPR("18446744073709551615", "0xFFFF_FFFF_FFFF_FFFF");
    CHECK_EXPR("123456789012345678901234567890", "123456789012345678901234567890");
    CHECK_EXPR("1.5", "1.5");
    CHECK_EXPR("1000.0", "1e3");
    CHECK_EXPR("0.5", ".5");
    CHECK_EXPR("1.0", "1.");
    CHECK_EXPR("1e+16", "1e16");
    CHECK_EXPR("1e-05", "0.00001");
    CHECK_EXPR("0.0001", "1e-4");
    CHECK_EXPR("0.1", "0.1");
    CHECK_EXPR("inf", "1e999");
    CHECK_EXPR("3j", "3j");
    CHECK_EXPR("1.5j", "1.5J");
    CHECK_EXPR("True", "True");
    CHECK_EXPR("None", "None");
    CHECK_EXPR("...", "...");
    CHECK_EXPR("\"ab\"", "'a' \"b\"");
    CHECK_EXPR("\"\\x0aAé\\x09\\\\q\"", "'\\nA\\u00e9\\t\\q'");
    CHECK_EXPR("\"é€😀\"", "'\\xe9\\u20ac\\U0001F600'");
    CHECK_EXPR("\"\\x07\\x08\\x0c\\x0d\\x0b\\x00S\"", "'\\a\\b\\f\\r\\v\\0\\123'");
    CHECK_EXPR("\"\\\\n\"", "r'\\n'");
    CHECK_EXPR("\"line1\\x0aline2\"", "'''line1\nline2'''");
    CHECK_EXPR("\"ab\"", "'a\\\nb'");
    CHECK_EXPR("b\"x\\xff\\\\u\"", "b'x\\xff\\u'");
    CHECK_EXPR("f'{x}' \"y\"", "f'{x}' \"y\"");
    CHECK_EXPR("'\\N{BULLET}'", "'\\N{BULLET}'");
}

static void test_displays(void)
{
    CHECK_EXPR("([] a (tuple i j))", "a[i, j]");
    CHECK_EXPR("([] ([] a i) j)", "a[i][j]");
    CHECK_EXPR("([] A (: 1 n 2))", "A[1:n:2]");
    CHECK_EXPR("([] A (tuple (: _ _ _) 0))", "A[:, 0]");
    CHECK_EXPR("([] A (: _ _ 2))", "A[::2]");
    CHECK_EXPR("([] A (: 1 _ _))", "A[1:]");
    CHECK_EXPR("([] A (tuple ... 1))", "A[..., 1]");
    CHECK_EXPR("([] A (tuple i))", "A[i,]");
    CHECK_EXPR("([] A (tuple (* idx)))", "A[*idx]");
    CHECK_EXPR("([] A (: (- i 1) (+ i 1) _))", "A[i-1:i+1]");
    CHECK_EXPR("(call f a (* b) (= c 1) (** d))", "f(a, *b, c=1, **d)");
    CHECK_EXPR("(call f)", "f()");
    CHECK_EXPR("(call f (genexp x (for x y)))", "f(x for x in y)");
    CHECK_EXPR("(listcomp (* x 2) (for x (call range n) (if (% x 2))))", "[x*2 for x in range(n) if x % 2]");
    CHECK_EXPR("(listcomp (tuple i j) (for i a) (for j b (if (cmp i < j)) (if j)))",
               "[(i, j) for i in a for j in b if i < j if j]");
    CHECK_EXPR("(dictcomp k v (for (tuple k v) (call (. d items))))", "{k: v for k, v in d.items()}");
    CHECK_EXPR("(setcomp x (async-for x y))", "{x async for x in y}");
    CHECK_EXPR("(set 1 2)", "{1, 2}");
    CHECK_EXPR("(dict)", "{}");
    CHECK_EXPR("(dict (** a) (\"b\" 1))", "{**a, 'b': 1}");
    CHECK_EXPR("(tuple)", "()");
    CHECK_EXPR("(tuple 1)", "1,");
    CHECK_EXPR("(list)", "[]");
    CHECK_EXPR("(list 1 (* a) (list 2))", "[1, *a, [2],]");
    CHECK_EXPR("(call (. np zeros) (tuple n m) (= dtype (. np float32)))", "np.zeros((n, m), dtype=np.float32)");
}

/* ---- statements ---- */

static void test_statements(void)
{
    CHECK_DUMP("(def f (a (= b 1) (* args) c (= d 2) (** kw))\n"
               "  (= (tuple a b) (tuple b a))\n"
               "  (= x y 0)\n"
               "  (+= s ([] a i))\n"
               "  (ann n int 5)\n"
               "  (ann m float)\n"
               "  (expr (call print x))\n"
               "  (return (tuple a b)))",
               "def f(a, b=1, *args, c, d=2, **kw):\n"
               "    a, b = b, a\n"
               "    x = y = 0\n"
               "    s += a[i]\n"
               "    n: int = 5\n"
               "    m: float\n"
               "    print(x)\n"
               "    return a, b\n");
    CHECK_DUMP("(def g (a / b * c) (-> int) (@ jit) (@ (call deco 1))\n  (pass))",
               "@jit\n@deco(1)\ndef g(a, /, b, *, c) -> int:\n    pass\n");
    CHECK_DUMP("(def h ()\n  (-= x 1)\n  (*= x 2)\n  (/= x 3)\n  (//= x 4)\n  (%= x 5)\n  (**= x 6)\n"
               "  (@= x 7)\n  (&= x 8)\n  (|= x 9)\n  (^= x 10)\n  (<<= x 11)\n  (>>= x 12)\n  (return))",
               "def h():\n x -= 1; x *= 2; x /= 3; x //= 4; x %= 5; x **= 6\n"
               " x @= 7; x &= 8; x |= 9; x ^= 10; x <<= 11; x >>= 12; return\n");
    CHECK_DUMP("(def k (n)\n"
               "  (for i (call range n)\n"
               "    (if (cmp i == 0)\n"
               "      (continue)\n"
               "      (else\n"
               "        (if (cmp i == 1)\n"
               "          (break)\n"
               "          (else\n"
               "            (pass)))))\n"
               "    (else\n"
               "      (= x 1)))\n"
               "  (while (cmp x < n)\n"
               "    (+= x 1)\n"
               "    (else\n"
               "      (return x))))",
               "def k(n):\n"
               "    for i in range(n):\n"
               "        if i == 0:\n"
               "            continue\n"
               "        elif i == 1:\n"
               "            break\n"
               "        else:\n"
               "            pass\n"
               "    else:\n"
               "        x = 1\n"
               "    while x < n:\n"
               "        x += 1\n"
               "    else:\n"
               "        return x\n");
    /* targets of for: tuples, subscripts, starred; one-line bodies */
    CHECK_DUMP("(def f ()\n  (for (tuple i (tuple j k)) (call zip a b)\n    (pass))\n"
               "  (for (tuple a (* b)) c\n    (= ([] x 0) 1)\n    (= ([] x 1) 2))\n"
               "  (for x (tuple (* a) (* b))\n    (pass)))",
               "def f():\n    for i, (j, k) in zip(a, b): pass\n"
               "    for a, *b in c: x[0] = 1; x[1] = 2\n"
               "    for x in *a, *b:\n        pass\n");
    /* generators */
    NgJitAst *ast = parse_ok("def gen(n):\n    for i in range(n):\n        yield i\n"
                             "def notgen(n):\n    f = lambda: (yield)\n    return f\n");
    if (ast) {
        CHECK(ast->body.stmts[0]->is_generator);
        CHECK(ast->body.stmts[0]->python);
        CHECK(!ast->body.stmts[1]->is_generator);
        ng_jit_ast_free(ast);
    }
}

/* Statements left to Python: skipped with their blocks and clauses, the
 * statements after them parsed at the right lines. */
static void test_other_statements(void)
{
    const char *src =
        "import numpy as np\n"                        /* 1 */
        "from math import (sqrt,\n"                   /* 2 */
        "    tanh)\n"                                 /* 3 */
        "def f(a, s):\n"                              /* 4 */
        "    global g; del a[0]; x = 1\n"             /* 5 */
        "    with open(fn) as fh:\n"                  /* 6 */
        "        for line in fh:\n"                   /* 7 */
        "            print(f'{s} {line!r}')\n"        /* 8 */
        "    try:\n"                                  /* 9 */
        "        x = 1 / 0\n"                         /* 10 */
        "    except ZeroDivisionError as e:\n"        /* 11 */
        "        raise ValueError('x') from e\n"      /* 12 */
        "    else:\n"                                 /* 13 */
        "        pass\n"                              /* 14 */
        "    finally:\n"                              /* 15 */
        "        assert x, 'msg'\n"                   /* 16 */
        "    @dataclass\n"                            /* 17 */
        "    class P:\n"                              /* 18 */
        "        x: int = 0\n"                        /* 19 */
        "    match s:\n"                              /* 20 */
        "        case [a, b]:\n"                      /* 21 */
        "            pass\n"                          /* 22 */
        "        case {'k': v} if v > 0:\n"           /* 23 */
        "            pass\n"                          /* 24 */
        "    match = 3\n"                             /* 25 */
        "    type X = list[int]\n"                    /* 26 */
        "    type = 4\n"                              /* 27 */
        "    async def co(): await q\n"               /* 28 */
        "    nonlocal_ = 5\n"                         /* 29 */
        "    for i in range(3): x += i\n";            /* 30 */
    CHECK_EQ_STR("(python@1-1 import)\n"
                 "(python@2-3 from)\n"
                 "(def@4-30 f (a s)\n"
                 "  (python@5-5 global)\n"
                 "  (python@5-5 del)\n"
                 "  (=@5-5 x 1)\n"
                 "  (python@6-8 with)\n"
                 "  (python@9-16 try)\n"
                 "  (python@17-19 class)\n"
                 "  (python@20-24 match)\n"
                 "  (=@25-25 match 3)\n"
                 "  (python@26-26 type)\n"
                 "  (=@27-27 type 4)\n"
                 "  (python@28-28 async)\n"
                 "  (=@29-29 nonlocal_ 5)\n"
                 "  (for@30-30 i (call range 3)\n"
                 "    (+=@30-30 x i)))",
                 dump(src, NG_JIT_PRINT_LINES));
    NgJitAst *ast = parse_ok(src);
    if (!ast)
        return;
    const NgJitStmt *with = ast->body.stmts[2]->body.stmts[3];
    CHECK_EQ_STR("with", with->what);
    CHECK(with->python);
    /* the names a skipped statement mentions, f-string fields included */
    const char *want[] = {"open", "fn", "fh", "line", "print", "s"};
    CHECK_EQ_INT(6, with->nnames);
    for (int i = 0; i < 6 && i < with->nnames; i++) {
        CHECK_EQ_STR(want[i], with->names[i]);
        CHECK_EQ_STR(want[i], ast->names[with->name_ids[i]]);
    }
    /* span: from "with" to the end of its block; the text cut by offsets */
    CHECK_EQ_INT(6, with->span.line);
    CHECK_EQ_INT(4, with->span.col);
    CHECK_EQ_INT(8, with->span.end_line);
    CHECK_EQ_INT(34, with->span.end_col);
    CHECK(strncmp(ast->src + with->span.off, "with open(fn)", 13) == 0);
    CHECK(strncmp(ast->src + with->span.end_off - 10, "{line!r}')", 10) == 0);
    ng_jit_ast_free(ast);

    /* a skipped compound statement that needs a block and has none */
    CHECK_ERROR("with a:\nx\n", "IndentationError", 2, 0, "expected an indented block after 'with' statement on line 1");
    CHECK_ERROR("class A:\n", "IndentationError", 2, 0, "expected an indented block after class definition on line 1");
    CHECK_ERROR("try:\n    pass\nexcept:\npass\n", "IndentationError", 4, 0,
                "expected an indented block after 'except' statement on line 3");
}

/* Interned names, STORE context, the python flag. */
static void test_names_and_flags(void)
{
    NgJitAst *ast = parse_ok("def f(a, n):\n"
                             "    s = 0\n"
                             "    for i in range(n):\n"
                             "        s += a[i] * a[i]\n"
                             "    for i in range(n):\n"
                             "        t = [a[j] for j in range(i)]\n"
                             "    return s\n");
    if (!ast)
        return;
    const NgJitStmt *f = ast->body.stmts[0];
    const NgJitStmt *l1 = f->body.stmts[1], *l2 = f->body.stmts[2];
    CHECK_EQ_INT(2, ast->nloops);
    CHECK(!l1->python);
    CHECK(l2->python);
    CHECK(f->python);
    CHECK_EQ_INT(NG_JIT_STORE, l1->target->ctx);
    CHECK_EQ_INT(NG_JIT_STORE, l1->body.stmts[0]->target->ctx);
    const NgJitExpr *sub = l1->body.stmts[0]->value->lhs; /* a[i] */
    CHECK_EQ_INT(NG_JIT_E_SUBSCRIPT, sub->kind);
    CHECK_EQ_INT(NG_JIT_LOAD, sub->ctx);
    /* one pointer per name */
    CHECK(sub->lhs->name == f->params->items[0].name);
    CHECK(sub->rhs->name == l1->target->name);
    CHECK(sub->rhs->name_id == l2->target->name_id);
    CHECK_EQ_STR("i", ast->names[sub->rhs->name_id]);
    /* spans of expressions, as Python's ast gives them */
    CHECK_EQ_INT(4, sub->span.line);
    CHECK_EQ_INT(13, sub->span.col);
    CHECK_EQ_INT(17, sub->span.end_col);
    const NgJitExpr *mul = l1->body.stmts[0]->value;
    CHECK_EQ_INT(13, mul->span.col);
    CHECK_EQ_INT(24, mul->span.end_col);
    CHECK_EQ_INT(3, mul->height);
    ng_jit_ast_free(ast);
}

/* The line ranges the host plan cuts loop nests by. */
static void test_line_ranges(void)
{
    const char *src = "def kernel(u, v, steps, alpha):  # the doc\n" /* 1 */
                      "    n, m = u.shape\n"                       /* 2 */
                      "    for t in range(steps):\n"               /* 3 */
                      "        for i in range(1, n - 1):\n"        /* 4 */
                      "            v[i] = (u[i - 1] +\n"           /* 5 */
                      "                    u[i + 1]) / 2\n"        /* 6 */
                      "        # a comment between loops\n"        /* 7 */
                      "\n"                                         /* 8 */
                      "        for i in range(1, n - 1):\n"        /* 9 */
                      "            u[i] = v[i]\n"                  /* 10 */
                      "    # trailing comment\n"                   /* 11 */
                      "    return u\n";                            /* 12 */
    NgJitAst *ast = parse_ok(src);
    if (!ast)
        return;
    const NgJitStmt *loops[8];
    int n = 0;
    find_loops(ast->body, loops, &n, 8);
    CHECK_EQ_INT(3, n);
    CHECK_EQ_INT(3, loops[0]->span.line);
    CHECK_EQ_INT(10, loops[0]->span.end_line);
    CHECK_EQ_INT(4, loops[1]->span.line);
    CHECK_EQ_INT(6, loops[1]->span.end_line);
    CHECK_EQ_INT(8, loops[1]->span.col);
    CHECK_EQ_INT(9, loops[2]->span.line);
    CHECK_EQ_INT(10, loops[2]->span.end_line);
    /* cut the inner loop out of the text by lines and by offsets */
    uint32_t from = ng_jit_ast_offset(ast, loops[1]->span.line, 0);
    uint32_t to = ng_jit_ast_offset(ast, loops[1]->span.end_line + 1, 0);
    CHECK(strncmp(ast->src + from, "        for i in range(1, n - 1):\n", 34) == 0);
    CHECK(strncmp(ast->src + to, "        # a comment", 19) == 0);
    CHECK_EQ_INT(from + 8, loops[1]->span.off);
    CHECK_EQ_INT(to - 1, loops[1]->span.end_off);
    CHECK_EQ_INT(12, ast->nlines);
    CHECK_EQ_INT((int)strlen(src), (int)ng_jit_ast_offset(ast, 13, 0));
    ng_jit_ast_free(ast);
}

/* Everything awkward at once, as it reaches the parser. */
static void test_tricky_source(void)
{
    const char *src =
        "def f(a,  # comment after a parameter\n"          /* 1 */
        "      b=(1,\n"                                     /* 2 */
        "         2)):  # after the colon\n"               /* 3 */
        "\tdoc = \"\"\"It's \"quoted\"\n"                   /* 4 */
        "\t\t  and ''' spans lines\"\"\"\n"                 /* 5 */
        "\tfor i in range(len(\n"                          /* 6 */
        "\t\ta)):   # tab-indented\n"                      /* 7 */
        "\t\tx = a[i] + \\\n"                               /* 8 */
        "  b[0]  # continuation, any indentation\n"       /* 9 */
        "\t\tmsg = f\"{a[\"k\"]!r} {'}'} {x:>{w}}\"\n"     /* 10 */
        "\t\tπ_ñ = [[i,\n"                                 /* 11 */
        "# a comment inside brackets\n"                   /* 12 */
        "\n"                                               /* 13 */
        "                  x], {i: x}]\n"                 /* 14 */
        "\treturn π_ñ\n";                                  /* 15 */
    CHECK_EQ_STR("(def@1-15 f (a (= b (tuple 1 2)))\n"
                 "  (=@4-5 doc \"It's \\\"quoted\\\"\\x0a\\x09\\x09  and ''' spans lines\")\n"
                 "  (for@6-14 i (call range (call len a))\n"
                 "    (=@8-9 x (+ ([] a i) ([] b 0)))\n"
                 "    (=@10-10 msg f\"{a[\"k\"]!r} {'}'} {x:>{w}}\")\n"
                 "    (=@11-14 π_ñ (list (list i x) (dict (i x)))))\n"
                 "  (return@15-15 π_ñ))",
                 dump(src, NG_JIT_PRINT_LINES));
    NgJitAst *ast = parse_ok(src);
    if (!ast)
        return;
    const NgJitStmt *loop = ast->body.stmts[0]->body.stmts[1];
    CHECK(loop->python); /* the dict display and the f-string */
    const NgJitExpr *fs = loop->body.stmts[1]->value;
    CHECK_EQ_INT(NG_JIT_STR_FSTRING, fs->str_flags);
    /* names the f-string's fields mention: a superset of what it reads
     * (the string "k" counts; the conversion r and the literal text do not) */
    CHECK_EQ_INT(4, fs->nitems);
    if (fs->nitems == 4) {
        CHECK_EQ_STR("a", fs->items[0]->name);
        CHECK_EQ_STR("k", fs->items[1]->name);
        CHECK_EQ_STR("x", fs->items[2]->name);
        CHECK_EQ_STR("w", fs->items[3]->name);
        CHECK_EQ_INT(10, fs->items[3]->span.line);
        CHECK_EQ_INT(32, fs->items[3]->span.col);
    }
    ng_jit_ast_free(ast);

    /* PEP 695 type parameters: parsed past, the function marked python */
    CHECK_DUMP("(def first (xs)\n  (return ([] xs 0)))", "def first[T: int, *Ts](xs):\n    return xs[0]\n");
    ast = parse_ok("def first[T](xs):\n    return xs[0]\n");
    if (ast) {
        CHECK(ast->body.stmts[0]->python);
        ng_jit_ast_free(ast);
    }
}

/* ---- the loop-kernel corpus ---- */

/* Lines (1-based) of a text that start, after indentation, with "for ",
 * and those holding "# expect:". */
static int scan_lines(const char *src, int *for_lines, int *expect_lines, int *nexpect, int max)
{
    int nfor = 0, line = 1;
    *nexpect = 0;
    for (const char *p = src; *p; line++) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if (strncmp(q, "for ", 4) == 0 && nfor < max)
            for_lines[nfor++] = line;
        const char *hit = strstr(p, "# expect:");
        if (hit && hit < end && *nexpect < max)
            expect_lines[(*nexpect)++] = line;
        p = *end ? end + 1 : end;
    }
    return nfor;
}

static void check_corpus_source(const char *name, const char *src)
{
    NgJitAst *ast;
    NgJitError err;
    if (!CHECK_EQ_INT(NG_OK, ng_jit_parse(src, strlen(src), name, &ast, &err))) {
        printf("    %s: %s\n", name, ng_error_message());
        return;
    }
    int for_lines[64], expect_lines[64], nexpect;
    int nfor = scan_lines(src, for_lines, expect_lines, &nexpect, 64);
    const NgJitStmt *loops[64];
    int n = 0;
    find_loops(ast->body, loops, &n, 64);
    bool ok = CHECK_EQ_INT(nfor, n);
    for (int i = 0; i < n && i < nfor; i++)
        ok &= CHECK_EQ_INT(for_lines[i], loops[i]->span.line);
    for (int k = 0; k < nexpect; k++) {
        bool found = false;
        for (int i = 0; i < n; i++)
            found |= loops[i]->span.line == expect_lines[k];
        ok &= CHECK(found);
    }
    /* kernel() is there and has at least one loop */
    bool kernel = false;
    for (int i = 0; i < ast->body.n; i++) {
        const NgJitStmt *s = ast->body.stmts[i];
        if (s->kind == NG_JIT_S_DEF && strcmp(s->name, "kernel") == 0) {
            const NgJitStmt *l[64];
            int nl = 0;
            find_loops(s->body, l, &nl, 64);
            kernel = nl > 0 || strstr(src, "while ") != NULL;
        }
    }
    ok &= CHECK(kernel);
    if (!ok)
        printf("    in %s\n", name);
    ng_jit_ast_free(ast);
}

static const char heat_2d[] =
    "import numpy as np\n"
    "\n"
    "\n"
    "def kernel(u, v, steps, alpha):\n"
    "    n, m = u.shape\n"
    "    for t in range(steps):  # expect: sequential\n"
    "        for i in range(1, n - 1):  # expect: parallel\n"
    "            for j in range(1, m - 1):  # expect: parallel\n"
    "                v[i, j] = u[i, j] + alpha * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - 4.0 * u[i, j])\n"
    "        for i in range(1, n - 1):  # expect: parallel\n"
    "            for j in range(1, m - 1):  # expect: parallel\n"
    "                u[i, j] = v[i, j]\n"
    "\n"
    "\n"
    "def inputs(size, rng):\n"
    "    n, steps = {\"test\": (40, 10), \"bench\": (2_000, 100)}[size]\n"
    "    u = rng.random((n, n))\n"
    "    return u, u.copy(), steps, 0.1\n";

static const char collatz[] =
    "import numpy as np\n"
    "\n"
    "\n"
    "def kernel(start, steps):\n"
    "    for i in range(start.shape[0]):  # expect: parallel\n"
    "        v = start[i]\n"
    "        c = 0\n"
    "        while v != 1:\n"
    "            if v % 2 == 0:\n"
    "                v = v // 2\n"
    "            else:\n"
    "                v = 3 * v + 1\n"
    "            c += 1\n"
    "        steps[i] = c\n";

static void test_corpus(void)
{
    check_corpus_source("heat_2d.py", heat_2d);
    check_corpus_source("collatz.py", collatz);
    CHECK_EQ_STR("(python import)\n"
                 "(def kernel (start steps)\n"
                 "  (for i (call range ([] (. start shape) 0))\n"
                 "    (= v ([] start i))\n"
                 "    (= c 0)\n"
                 "    (while (cmp v != 1)\n"
                 "      (if (cmp (% v 2) == 0)\n"
                 "        (= v (// v 2))\n"
                 "        (else\n"
                 "          (= v (+ (* 3 v) 1))))\n"
                 "      (+= c 1))\n"
                 "    (= ([] steps i) c)))",
                 dump(collatz, 0));

    DIR *dir = opendir("../shared/kernels");
    if (!dir) {
        check_skip("corpus files", "../shared/kernels not found (run from the repository root)");
        return;
    }
    int files = 0;
    struct dirent *de;
    while ((de = readdir(dir))) {
        size_t len = strlen(de->d_name);
        if (len < 4 || strcmp(de->d_name + len - 3, ".py") != 0 || strcmp(de->d_name, "run.py") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "../shared/kernels/%s", de->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        char *src = malloc(1 << 20);
        size_t n = fread(src, 1, (1 << 20) - 1, f);
        src[n] = 0;
        fclose(f);
        check_corpus_source(de->d_name, src);
        free(src);
        files++;
    }
    closedir(dir);
    printf("corpus: %d files parsed\n", files);
    CHECK(files > 0);
}

/* ---- malformed input ---- */

static void test_errors(void)
{
    CHECK_ERROR("def f():\n    x = 'abc\n", "SyntaxError", 2, 8, "unterminated string literal (detected at line 2)");
    CHECK_ERROR("def f():\n    s = \"\"\"doc\n\n", "SyntaxError", 2, 8,
                "unterminated triple-quoted string literal (detected at line 3)");
    CHECK_ERROR("  x = 1\n", "IndentationError", 1, 2, "unexpected indent");
    CHECK_ERROR("def f():\n    a = 1\n        b = 2\n", "IndentationError", 3, 8, "unexpected indent");
    CHECK_ERROR("if x:\ny\n", "IndentationError", 2, 0, "expected an indented block after 'if' statement on line 1");
    CHECK_ERROR("for i in x:\n\n", "IndentationError", 3, 0,
                "expected an indented block after 'for' statement on line 1");
    CHECK_ERROR("def f():\nreturn\n", "IndentationError", 2, 0,
                "expected an indented block after function definition on line 1");
    CHECK_ERROR("for x in y:\n    pass\nelse:\n", "IndentationError", 4, 0,
                "expected an indented block after 'else' statement on line 3");
    CHECK_ERROR("if x:\n    a\n  b\n", "IndentationError", 3, 2, "unindent does not match any outer indentation level");
    CHECK_ERROR("x = (1,\n  2\n", "SyntaxError", 1, 4, "'(' was never closed");
    CHECK_ERROR("x = [1, 2)]\n", "SyntaxError", 1, 9, "closing parenthesis ')' does not match opening parenthesis '['");
    CHECK_ERROR("x = 1)\n", "SyntaxError", 1, 5, "unmatched ')'");
    CHECK_ERROR("f() = 1\n", "SyntaxError", 1, 0, "cannot assign to function call here. Maybe you meant '==' instead of '='?");
    CHECK_ERROR("a + 1 = 2\n", "SyntaxError", 1, 0, "cannot assign to expression here. Maybe you meant '==' instead of '='?");
    CHECK_ERROR("for f() in x: pass\n", "SyntaxError", 1, 4, "cannot assign to function call");
    CHECK_ERROR("a, b += 1\n", "SyntaxError", 1, 0, "'tuple' is an illegal expression for augmented assignment");
    CHECK_ERROR("(a, b): int\n", "SyntaxError", 1, 0, "only single target (not tuple) can be annotated");
    CHECK_ERROR("x = 1 if 2\n", "SyntaxError", 1, 4, "expected 'else' after 'if' expression");
    CHECK_ERROR("if x\n    pass\n", "SyntaxError", 1, 4, "expected ':'");
    CHECK_ERROR("def f:\n    pass\n", "SyntaxError", 1, 5, "expected '('");
    CHECK_ERROR("1 +\n", "SyntaxError", 1, 3, "invalid syntax");
    CHECK_ERROR("x = a + not b\n", "SyntaxError", 1, 8, "invalid syntax");
    CHECK_ERROR("x = (1 2)\n", "SyntaxError", 1, 7, "invalid syntax");
    CHECK_ERROR("else:\n    pass\n", "SyntaxError", 1, 0, "invalid syntax");
    CHECK_ERROR("def f():\n    break\n", "SyntaxError", 2, 4, "'break' outside loop");
    CHECK_ERROR("for i in x:\n    def g():\n        continue\n", "SyntaxError", 3, 8, "'continue' not properly in loop");
    CHECK_ERROR("for i in x:\n    pass\nelse:\n    break\n", "SyntaxError", 4, 4, "'break' outside loop");
    CHECK_ERROR("return 1\n", "SyntaxError", 1, 0, "'return' outside function");
    CHECK_ERROR("x = yield\n", "SyntaxError", 1, 4, "'yield' outside function");
    CHECK_ERROR("x = b'a' 'b'\n", "SyntaxError", 1, 9, "cannot mix bytes and nonbytes literals");
    CHECK_ERROR("x = b'é'\n", "SyntaxError", 1, 4, "bytes can only contain ASCII literal characters");
    CHECK_ERROR("x = '\\x4'\n", "SyntaxError", 1, 4,
                "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \\xXX escape");
    CHECK_ERROR("x = '\\U00110000'\n", "SyntaxError", 1, 4,
                "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: illegal Unicode character");
}

/* Inputs the fuzzer found (tools/fuzz_jit.sh): a parse or an error, never undefined behaviour
 * (CI runs ctest under ASan + UBSan too). */
static void test_fuzz_finds(void)
{
    /* parameters after **b (CPython refuses them; the jit only ever sees source CPython compiled),
     * then a body of a continuation and carriage returns: a block left empty, whose end the
     * statement's span took from a last statement that is not there */
    const char *src = "def f(a,**b, c=1, **d) -> int:\n  \\\n\r\r\r\r\r\ra,ass\n";
    NgJitAst *ast = NULL;
    NgJitError err;
    NgStatus st = ng_jit_parse(src, strlen(src), "t.py", &ast, &err);
    CHECK_OK(st);
    if (st == NG_OK)
        ng_jit_ast_free(ast);
    static const char *const errors[] = {"for x in y:\n  \\\n\r\r)\n", "while (:\n  \\\n\r\rpass\n"};
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) {
        CHECK(ng_jit_parse(errors[i], strlen(errors[i]), "t.py", &ast, &err) != NG_OK);
        CHECK_EQ_STR("SyntaxError", err.kind);
    }
}

/* Input built to be deep or long: an error or a parse, never a crash. */
static void test_limits(void)
{
    size_t cap = 1 << 21;
    char *src = malloc(cap);
    NgJitAst *ast;
    NgJitError err;

    /* 10 000 nested parentheses: the tokenizer stops at 200 */
    memset(src, '(', 10000);
    strcpy(src + 10000, "x");
    memset(src + 10001, ')', 10000);
    strcpy(src + 20001, "\n");
    CHECK_ERROR(src, "SyntaxError", 1, 200, "too many nested parentheses");
    /* 199 nested lists and calls, across lines: fine */
    size_t n = 0;
    for (int i = 0; i < 199; i++)
        n += (size_t)sprintf(src + n, i % 2 ? "f(\n" : "[");
    src[n++] = '1';
    for (int i = 198; i >= 0; i--)
        n += (size_t)sprintf(src + n, i % 2 ? ")" : "]");
    strcpy(src + n, "\n");
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
    if (ast) {
        CHECK_EQ_INT(200, ast->body.stmts[0]->value->height);
        ng_jit_ast_free(ast);
    }
    /* 100 000 unary minus, nots, and ** chains: too deep for the jit, cleanly */
    const char *chains[] = {"-", "not ", "2**", "~+"};
    for (int c = 0; c < 4; c++) {
        n = 0;
        while (n < 200000)
            n += (size_t)sprintf(src + n, "%s", chains[c]);
        strcpy(src + n, "1\n");
        CHECK_EQ_INT(NG_ERR_VALUE, ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
        CHECK_STR_CONTAINS(err.msg, "for the jit");
    }
    /* a 100 000-term sum is one long left-deep tree: refused by height */
    n = (size_t)sprintf(src, "x = 1");
    for (int i = 0; i < 100000; i++)
        n += (size_t)sprintf(src + n, "+1");
    strcpy(src + n, "\n");
    CHECK_EQ_INT(NG_ERR_VALUE, ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
    CHECK_EQ_STR("expression too deeply nested for the jit", err.msg);
    /* ... while 500 terms and 10 000 flat call arguments are fine */
    n = (size_t)sprintf(src, "x = 1");
    for (int i = 0; i < 500; i++)
        n += (size_t)sprintf(src + n, "+1");
    strcpy(src + n, "\n");
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
    ng_jit_ast_free(ast);
    n = (size_t)sprintf(src, "f(");
    for (int i = 0; i < 10000; i++)
        n += (size_t)sprintf(src + n, "a%d, ", i);
    strcpy(src + n, ")\n");
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
    if (ast) {
        CHECK_EQ_INT(10000, ast->body.stmts[0]->value->nitems);
        CHECK_EQ_INT(10001, ast->nnames);
        ng_jit_ast_free(ast);
    }
    /* 5 000 elifs: refused, 300 are fine */
    for (int count = 300; count <= 5000; count += 4700) {
        n = (size_t)sprintf(src, "if x:\n    pass\n");
        for (int i = 0; i < count; i++)
            n += (size_t)sprintf(src + n, "elif x == %d:\n    pass\n", i);
        NgStatus st = ng_jit_parse(src, n, "t.py", &ast, &err);
        CHECK_EQ_INT(count == 300 ? NG_OK : NG_ERR_VALUE, st);
        if (st == NG_OK)
            ng_jit_ast_free(ast);
    }
    /* 99 nested blocks parse */
    n = 0;
    for (int i = 0; i < 99; i++)
        n += (size_t)sprintf(src + n, "%*sfor i%d in x:\n", i, "", i);
    sprintf(src + n, "%*spass\n", 99, "");
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, &err));
    if (ast) {
        CHECK_EQ_INT(99, ast->nloops);
        ng_jit_ast_free(ast);
    }
    free(src);
}

/* Every prefix of a real source, and sources with bytes changed: OK or a
 * syntax error (a cheap in-tree version of tests/fuzz/fuzz_jit_parse.c). */
static void test_mutations(void)
{
    char buf[sizeof heat_2d + 16];
    size_t len = strlen(heat_2d);
    int ok = 0, bad = 0, other = 0;
    NgJitAst *ast;
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(buf, heat_2d, cut);
        NgStatus st = ng_jit_parse(buf, cut, "t.py", &ast, NULL);
        if (st == NG_OK) {
            ok++;
            ng_jit_ast_free(ast);
        } else if (st == NG_ERR_VALUE) {
            bad++;
        } else {
            other++;
        }
    }
    static const char alphabet[] = "()[]{}:,;.'\"\\#\n\t =+-*/%<>!@f0123xjeb_\xc3\xa9\x80";
    uint64_t rng = 12345;
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(buf, heat_2d, len);
        for (int k = 0; k < 1 + iter % 4; k++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)(rng >> 33) % len;
            buf[at] = alphabet[(rng >> 20) % (sizeof alphabet - 1)];
        }
        NgStatus st = ng_jit_parse(buf, len, "t.py", &ast, NULL);
        if (st == NG_OK) {
            ok++;
            ng_jit_ast_free(ast);
        } else if (st == NG_ERR_VALUE) {
            bad++;
        } else {
            other++;
        }
    }
    CHECK_EQ_INT(0, other);
    CHECK(ok > 100 && bad > 1000);
}

/* Every allocation failing in turn: NG_ERR_NOMEM and nothing leaked. */
static void test_out_of_memory(void)
{
    int nomem = 0, n;
    for (n = 1; n < 400; n++) {
        NgJitAst *ast;
        ng_alloc_fail_after(n);
        NgStatus st = ng_jit_parse(heat_2d, strlen(heat_2d), "t.py", &ast, NULL);
        ng_alloc_fail_after(0);
        if (st == NG_OK) {
            ng_jit_ast_free(ast);
            break;
        }
        nomem += CHECK_EQ_INT(NG_ERR_NOMEM, st);
    }
    CHECK(nomem > 3);
    CHECK(n < 400);
}

/* ---- threads and speed ---- */

static void *parse_many(void *arg)
{
    const char *src = arg;
    char *first = NULL;
    for (int i = 0; i < 200; i++) {
        NgJitAst *ast;
        if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK)
            return (void *)1;
        NgStr out;
        ng_str_init(&out);
        ng_jit_ast_print(ast, &out, NG_JIT_PRINT_LINES);
        ng_jit_ast_free(ast);
        if (!first)
            first = strdup(out.s);
        bool same = strcmp(first, out.s) == 0;
        ng_str_free(&out);
        if (!same)
            return (void *)2;
    }
    free(first);
    return NULL;
}

static void test_threads(void)
{
    pthread_t a, b;
    void *ra, *rb;
    pthread_create(&a, NULL, parse_many, (void *)heat_2d);
    pthread_create(&b, NULL, parse_many, (void *)collatz);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    CHECK(ra == NULL);
    CHECK(rb == NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_speed(void)
{
    /* a 50-line function */
    char src[8192];
    size_t n = (size_t)sprintf(src, "def kernel(a, b, c, n, m):\n    total = 0.0\n");
    for (int i = 0; i < 12; i++)
        n += (size_t)sprintf(src + n,
                             "    for i in range(1, n - 1):  # loop %d\n"
                             "        for j in range(m):\n"
                             "            c[i, j] = a[i - 1, j] * 0.25 + a[i + 1, j] * 0.25 - b[i][j] ** 2\n"
                             "            total += c[i, j] if c[i, j] > 0 else -c[i, j]\n",
                             i);
    n += (size_t)sprintf(src + n, "    return total\n");
    NgJitAst *ast;
    int reps = 2000;
    double t0 = now();
    for (int i = 0; i < reps; i++) {
        if (ng_jit_parse(src, n, "t.py", &ast, NULL) != NG_OK)
            break;
        ng_jit_ast_free(ast);
    }
    double us = (now() - t0) / reps * 1e6;
    /* the target is "well under a millisecond" in an optimised build */
    double limit = 1000.0;
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
    limit = 20000.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    limit = 20000.0;
#endif
#endif
    printf("speed: a 51-line function parses in %.1f us (limit %.0f us)\n", us, limit);
    CHECK(us < limit);
}

int main(void)
{
    test_precedence();
    test_atoms();
    test_displays();
    test_statements();
    test_other_statements();
    test_names_and_flags();
    test_line_ranges();
    test_tricky_source();
    test_corpus();
    test_errors();
    test_limits();
    test_fuzz_finds();
    test_mutations();
    test_out_of_memory();
    test_threads();
    test_speed();
    return check_summary();
}
