/* Tests of the jit's dependence analysis (src/jit/analyze.c): every
 * `# expect:` of the loop-kernel corpus in ../shared/kernels (kind,
 * reductions, atomic), then small functions written here, above all the
 * unsafe ones that must never come out parallel (a carried dependence, a
 * scalar carried or read after the loop, break, a view of a written array),
 * the dependence tests (GCD, steps, `i*L + j`), reductions, atomics, nested
 * and collapsed loops, what stays Python and why, the API, and allocation
 * failures. Reports are compared whole, reasons included, as
 * ng_jit_loops_print writes them. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "jit/analyze.h"
#include "jit/desugar.h"

/* ---- helpers ---- */

static const NgJitStmt *find_def(const NgJitAst *ast, const char *name)
{
    for (int i = 0; i < ast->body.n; i++) {
        const NgJitStmt *s = ast->body.stmts[i];
        if (s->kind == NG_JIT_S_DEF && strcmp(s->name, name) == 0)
            return s;
    }
    return NULL;
}

/* The printed report of function `f` of src, or "ERROR msg". */
static const char *report(const char *src)
{
    static char buf[1 << 14];
    NgJitAst *ast;
    if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK || ng_jit_desugar(ast) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        return buf;
    }
    NgJitLoops *loops;
    const NgJitStmt *f = find_def(ast, "f");
    if (!f || ng_jit_analyze(ast, f, &loops) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", f ? ng_error_message() : "no def f");
        ng_jit_ast_free(ast);
        return buf;
    }
    NgStr out;
    ng_str_init(&out);
    ng_jit_loops_print(loops, &out);
    snprintf(buf, sizeof buf, "%s", out.s);
    ng_str_free(&out);
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    return buf;
}

#define CHECK_REPORT(src, want) CHECK_EQ_STR(want, report(src))

/* ---- the corpus ---- */

/* One `# expect:` comment on a loop line. */
typedef struct Expect {
    int line;
    char kind[16];     /* parallel / sequential */
    char red_op[8];    /* "" when no reduce(op:name) */
    char red_name[64];
    bool atomic;
} Expect;

/* The expectations of a source, as run.py reads them. */
static int expectations(const char *src, Expect *out, int max)
{
    int n = 0, line = 1;
    for (const char *p = src; *p && n < max; line++) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t'))
            s++;
        const char *e = strstr(p, "# expect:");
        if (e && e < eol && (strncmp(s, "for ", 4) == 0 || strncmp(s, "while ", 6) == 0)) {
            Expect *x = &out[n++];
            memset(x, 0, sizeof *x);
            x->line = line;
            char text[200];
            snprintf(text, sizeof text, "%.*s", (int)(eol - e - 9), e + 9);
            sscanf(text, "%15s", x->kind);
            const char *r = strstr(text, "reduce(");
            if (r)
                sscanf(r + 7, "%7[^:]:%63[^)]", x->red_op, x->red_name);
            x->atomic = strstr(text, "atomic") != NULL;
        }
        p = *eol ? eol + 1 : eol;
    }
    return n;
}

/* Checks every expectation of one corpus file; returns how many held. */
static int check_corpus_file(const char *name, const char *src, int *nexpect)
{
    bool exempt = false; /* (a file whose expectations the analysis does not meet yet) */
    NgJitAst *ast = NULL;
    NgJitLoops *loops = NULL;
    int held = 0;
    CHECK_OK(ng_jit_parse(src, strlen(src), name, &ast, NULL));
    if (ast) /* (as the glue does: the seed's slices, list and np.zeros are rewritten first) */
        CHECK_OK(ng_jit_desugar(ast));
    const NgJitStmt *k = ast ? find_def(ast, "kernel") : NULL;
    CHECK(k != NULL);
    if (k)
        CHECK_OK(ng_jit_analyze(ast, k, &loops));
    if (!loops) {
        ng_jit_ast_free(ast);
        return 0;
    }
    Expect ex[32];
    int n = expectations(src, ex, 32);
    bool all = true;
    for (int j = 0; exempt && n > 0 && j < loops->n; j++)
        if (loops->items[j].line == ex[0].line) /* its outer loop may stay Python, or be parallel */
            all &= CHECK(loops->items[j].kind != NG_JIT_LOOP_SEQUENTIAL);
    for (int i = 0; i < n && !exempt; i++) {
        const NgJitLoopInfo *L = NULL;
        for (int j = 0; j < loops->n; j++)
            if (loops->items[j].line == ex[i].line)
                L = &loops->items[j];
        bool ok = L != NULL && strcmp(ng_jit_loop_kind_name(L->kind), ex[i].kind) == 0 &&
                  L->atomic == ex[i].atomic && L->nreductions == (ex[i].red_op[0] ? 1 : 0);
        if (ok && ex[i].red_op[0])
            ok = strcmp(L->reductions[0].name, ex[i].red_name) == 0 &&
                 strcmp(ng_jit_red_op_name(L->reductions[0].op), ex[i].red_op) == 0;
        if (!check_true(ok, "loop matches its # expect:", __FILE__, __LINE__))
            printf("    %s line %d: want %s%s%s%s%s%s\n", name, ex[i].line, ex[i].kind,
                   ex[i].red_op[0] ? " reduce(" : "", ex[i].red_op, ex[i].red_op[0] ? ":" : "",
                   ex[i].red_name, ex[i].atomic ? " atomic" : "");
        held += ok;
        all &= ok;
    }
    *nexpect += exempt ? 0 : n;
    if (!all) {
        NgStr out;
        ng_str_init(&out);
        ng_jit_loops_print(loops, &out);
        printf("    report of %s:\n%s", name, out.s);
        ng_str_free(&out);
    }
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    return held;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_corpus(void)
{
    DIR *dir = opendir("../shared/kernels");
    if (!dir) {
        check_skip("corpus", "../shared/kernels not found (run from the repository root)");
        return;
    }
    char *names[256];
    int nfiles = 0;
    struct dirent *de;
    while ((de = readdir(dir)) && nfiles < 256) {
        size_t len = strlen(de->d_name);
        if (len > 3 && strcmp(de->d_name + len - 3, ".py") == 0 && strcmp(de->d_name, "run.py") != 0)
            names[nfiles++] = strdup(de->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)nfiles, sizeof names[0], cmp_str);
    int held = 0, nexpect = 0;
    for (int i = 0; i < nfiles; i++) {
        char path[512];
        snprintf(path, sizeof path, "../shared/kernels/%s", names[i]);
        size_t len;
        char *src = ng_file_read(path, &len);
        CHECK(src != NULL);
        if (src)
            held += check_corpus_file(names[i], src, &nexpect);
        ng_free(src);
        free(names[i]);
    }
    printf("corpus: %d files, %d of %d # expect: loops classified as expected\n", nfiles, held, nexpect);
    CHECK(nfiles > 0);
    CHECK_EQ_INT(nexpect, held);
}

/* The reports of a few corpus kernels, whole: reasons and nesting. */
static void test_corpus_reports(void)
{
    CHECK_REPORT("def f(a):\n"
                 "    for i in range(1, a.shape[0]):\n"
                 "        a[i] += a[i - 1]\n",
                 "line 2: sequential scan(+): writes a[i], read as a[i - 1] in the next iteration (a scan: blocks of "
                 "iterations run in parallel, from the sums of the blocks before them)\n");
    CHECK_REPORT("def f(img, w, out):\n"
                 "    oh, ow = out.shape\n"
                 "    kh, kw = w.shape\n"
                 "    for i in range(oh):\n"
                 "        for j in range(ow):\n"
                 "            s = 0.0\n"
                 "            for di in range(kh):\n"
                 "                for dj in range(kw):\n"
                 "                    s += img[i + di, j + dj] * w[di, dj]\n"
                 "            out[i, j] = s\n",
                 "line 4: parallel\n"
                 "  line 5: parallel collapsed\n"
                 "    line 7: sequential: runs in one thread of the parallel loop at line 5\n"
                 "      line 8: sequential: runs in one thread of the parallel loop at line 5\n");
    CHECK_REPORT("def f(u, v, steps, alpha):\n"
                 "    n, m = u.shape\n"
                 "    for t in range(steps):\n"
                 "        for i in range(1, n - 1):\n"
                 "            for j in range(1, m - 1):\n"
                 "                v[i, j] = u[i, j] + alpha * (u[i + 1, j] + u[i - 1, j] - 2.0 * u[i, j])\n"
                 "        for i in range(1, n - 1):\n"
                 "            for j in range(1, m - 1):\n"
                 "                u[i, j] = v[i, j]\n",
                 "line 3: sequential host: writes v[i, j], which may be the same element in different iterations\n"
                 "  line 4: parallel\n"
                 "    line 5: parallel collapsed\n"
                 "  line 7: parallel\n"
                 "    line 8: parallel collapsed\n");
    CHECK_REPORT("def f(D):\n"
                 "    n = D.shape[0]\n"
                 "    for k in range(n):\n"
                 "        for i in range(n):\n"
                 "            for j in range(n):\n"
                 "                if D[i, k] + D[k, j] < D[i, j]:\n"
                 "                    D[i, j] = D[i, k] + D[k, j]\n",
                 "line 3: sequential host: writes D[i, j], read as D[i, k], possibly in another iteration\n"
                 "  line 4: parallel around i = k\n"
                 "    line 5: sequential: runs in one thread of the parallel loop at line 4, in three parts around j = k\n");
#define MIRROR_PREFIX0 "def f(a, n, m):\n"
    /* a loop folded into a parallel one must have indices >= 0 by their form
     * (the kernel checks only the outer loop's) */
    CHECK_REPORT(MIRROR_PREFIX0 "    for i in range(n):\n        for j in range(m):\n            a[i, j + n] = 1.0\n",
                 "line 2: parallel\n  line 3: sequential: runs in one thread of the parallel loop at line 2\n");
    CHECK_REPORT(MIRROR_PREFIX0 "    for i in range(n):\n        for j in range(2, m):\n            a[i, j - 2] = 1.0\n",
                 "line 2: parallel\n  line 3: parallel collapsed\n");
    CHECK_REPORT(MIRROR_PREFIX0 "    for i in range(n):\n        for j in range(1, m):\n            a[i, j - 2] = 1.0\n",
                 "line 2: parallel\n  line 3: sequential: runs in one thread of the parallel loop at line 2\n");
    CHECK_REPORT(MIRROR_PREFIX0 "    for i in range(n):\n        for j in prange(m):\n            a[i, j + n] = 1.0\n",
                 "line 2: parallel\n  line 3: parallel collapsed asserted (also proven)\n");
    /* mirrored halves: a*v + P and -a*v + Q meet when v1 + v2 = a*(Q - P) */
#define MIRROR_PREFIX "def f(a, n, m):\n"
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 2):\n        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 2: parallel\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 2):\n        a[n - i], a[i] = a[i], a[n - i]\n", "line 2: parallel\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(1, n // 2, 3):\n        a[i, 0], a[n - 1 - i, 0] = a[n - 1 - i, 0], a[i, 0]\n",
                 "line 2: parallel\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(m):\n        a[i] = a[2 * m - i + 5]\n", "line 2: parallel\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(m):\n        a[i] = a[2 * m - i - 2]\n",
                 "line 2: sequential: writes a[i], read as a[2 * m - i - 2], possibly in another iteration\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 2 + 1):\n        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 2: sequential: writes a[i], read as a[n - 1 - i], possibly in another iteration\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 2):\n        a[i], a[n - 2 - i] = a[n - 2 - i], a[i]\n",
                 "line 2: sequential: writes a[i], read as a[n - 2 - i], possibly in another iteration\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n):\n        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 2: sequential: writes a[i], read as a[n - 1 - i], possibly in another iteration\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 3):\n        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 2: sequential: writes a[i], read as a[n - 1 - i], possibly in another iteration\n");
    CHECK_REPORT(MIRROR_PREFIX "    for i in range(n // 2, 0, -1):\n        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 2: sequential: writes a[i], read as a[n - 1 - i], possibly in another iteration\n");
    /* one iteration apart (peel): the others are independent of each other */
#define PEEL_PREFIX "def f(a, k, m, n, T, idx):\n"
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[i] = a[k] * 2.0\n", "line 2: parallel around i = k\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(3, n, 2):\n        a[i + 1] = a[n - 1 - k] * 2.0 + a[i]\n",
                 "line 2: parallel around i = (n - 1 - k) - 1\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[i, 0] = a[k, 1] + a[k, 0]\n", "line 2: parallel around i = k\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[i] = a[k] + a[m]\n",
                 "line 2: sequential: writes a[i], read as a[m], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[i] = a[idx[0]]\n",
                 "line 2: sequential: writes a[i], read as a[idx[0]], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(m, n):\n        a[i] = a[k] * 2.0\n", "line 2: parallel around i = k\n");
    CHECK_REPORT(PEEL_PREFIX "    for k in range(n):\n        for i in range(k + 1, n):\n            f = a[i, k] / a[k, k]\n"
                 "            for j in range(k, n):\n                a[i, j] = a[i, j] - f * a[k, j]\n",
                 "line 2: sequential host: writes a[i, j], read as a[i, k], possibly in another iteration\n"
                 "  line 3: parallel around i = k\n"
                 "    line 5: sequential: runs in one thread of the parallel loop at line 3\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n, 0, -1):\n        a[i] = a[k] * 2.0\n",
                 "line 2: sequential: writes a[i], read as a[k], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[i - 1] = a[k] * 2.0\n",
                 "line 2: sequential: writes a[i - 1], read as a[k], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        a[k] = a[i] * 2.0\n",
                 "line 2: sequential: writes a[k], which may be the same element in different iterations\n");
    CHECK_REPORT(PEEL_PREFIX "    s = 0.0\n    for i in range(n):\n        a[i] = a[k] * 2.0\n        s += a[i]\n    return s\n",
                 "line 3: sequential: writes a[i], read as a[k], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in prange(n):\n        a[i] = a[k] * 2.0\n",
                 "line 2: parallel asserted, not proven: writes a[i], read as a[k], possibly in another iteration\n");
    CHECK_REPORT(PEEL_PREFIX "    for t in range(T):\n        for i in range(n):\n            a[i] = a[k] + 1.0\n",
                 "line 2: sequential: writes a[i], read as a[k], possibly in another iteration\n"
                 "  line 3: sequential: writes a[i], read as a[k], possibly in another iteration; in order, in three "
                 "parts around i = k (a launch per iteration of the loops around it would do too little work)\n");
    CHECK_REPORT(PEEL_PREFIX "    for i in range(n):\n        for j in range(m):\n            a[i, j] = a[k, j] + a[i, k]\n",
                 "line 2: parallel around i = k\n"
                 "  line 3: sequential: runs in one thread of the parallel loop at line 2, in three parts around j = k\n");
}

/* ---- what must never run in parallel ---- */

static void test_unsafe(void)
{
    /* a carried dependence through an array */
    CHECK_REPORT("def f(A, n):\n"
                 "    for i in range(1, n):\n"
                 "        A[i] = A[i - 1] + 1\n",
                 "line 2: sequential scan(+): writes A[i], read as A[i - 1] in the next iteration (a scan: blocks of "
                 "iterations run in parallel, from the sums of the blocks before them)\n");
    CHECK_REPORT("def f(A, n):\n"
                 "    for i in range(n):\n"
                 "        A[i + 1] = A[i]\n",
                 "line 2: sequential: writes A[i + 1], read as A[i] in the next iteration\n");
    CHECK_REPORT("def f(A, n):\n"
                 "    for i in range(n):\n"
                 "        A[i] = A[i + 1]\n",
                 "line 2: sequential: writes A[i], read as A[i + 1] in the previous iteration\n");
    CHECK_REPORT("def f(A, n):\n"
                 "    for i in range(n):\n"
                 "        A[i] = A[i - 3]\n",
                 "line 2: sequential: writes A[i], read as A[i - 3] 3 iterations later\n");
    /* a prefix sum through a scalar */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    s = 0\n"
                 "    for i in range(n):\n"
                 "        s += a[i]\n"
                 "        b[i] = s\n",
                 "line 3: sequential scan(+): reads s before assigning it, so it carries over from one iteration to "
                 "the next (a scan: blocks of iterations run in parallel, from the sums of the blocks before them)\n");
    /* a scalar carried across iterations */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    t = 0.0\n"
                 "    for i in range(n):\n"
                 "        a[i] = t\n"
                 "        t = b[i]\n",
                 "line 3: sequential: reads t before assigning it, so it carries over from one iteration to the next\n");
    CHECK_REPORT("def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        if a[i] > 0:\n"
                 "            t = a[i]\n"
                 "        b[i] = t\n",
                 "line 2: sequential: reads t before assigning it, so it carries over from one iteration to the next\n");
    /* a scalar read after the loop (the last iteration's value), and in the iteration after its
       assignment: the iteration's own value (since 2026-12-07, in order before) */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        s = a[i] * 2\n"
                 "        b[i] = s\n"
                 "    return s\n",
                 "line 2: parallel reduce(argmax:s) reduce(max:__ng_last1)\n");
    /* ... not where every later read follows a rebinding: no value to carry */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        s = a[i] * 2\n"
                 "        b[i] = s\n"
                 "    for i in range(n):\n"
                 "        s = a[i] + 1\n"
                 "        b[i] += s\n"
                 "    s = 0\n"
                 "    return s\n",
                 "line 2: parallel\nline 5: parallel\n");
    /* ... or by a lambda, whenever it is called */
    CHECK_REPORT("def f(a, n):\n"
                 "    g = lambda: s\n"
                 "    for i in range(n):\n"
                 "        s = a[i]\n"
                 "    return g\n",
                 "line 3: parallel reduce(argmax:s) reduce(max:__ng_last1)\n"); /* (the last iteration's) */
    /* ... or declared global */
    CHECK_REPORT("def f(a, n):\n"
                 "    global s\n"
                 "    for i in range(n):\n"
                 "        s = a[i]\n",
                 "line 3: parallel reduce(argmax:s) reduce(max:__ng_last1)\n");
    /* ... or by the next iteration of an enclosing loop */
    CHECK_REPORT("def f(a, b, steps, n):\n"
                 "    s = 0.0\n"
                 "    for t in range(steps):\n"
                 "        b[t] = s\n"
                 "        for i in range(n):\n"
                 "            s = a[i]\n",
                 "line 3: sequential: reads s before assigning it, so it carries over from one iteration to the next\n"
                 "  line 5: sequential: assigns s, which is read after the loop\n"); /* (an inner loop: no last_values) */
    /* the loop variable after the loop */
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        a[i] = 0\n"
                 "    return i\n",
                 "line 2: sequential: its loop variable i is read after the loop\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        a[i] = 0\n"
                 "        i = i + 1\n",
                 "line 2: sequential: assigns its loop variable i in the body\n");
    /* break and return */
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            break\n"
                 "        a[i] = 1\n",
                 "line 2: sequential: contains break\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        for j in range(n):\n"
                 "            if a[j] < 0:\n"
                 "                return j\n",
                 "line 2: sequential search: returns from inside it (a search: the iteration that returns is "
                 "found in parallel, then runs in order)\n"
                 "  line 3: sequential search: returns from inside it (a search: the iteration that returns is "
                 "found in parallel, then runs in order)\n");
    CHECK_REPORT("def f(a, n):\n" /* a return after the search's `if`; a loop of a generator */
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            return i\n"
                 "        a[i] = 1\n"
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            return i\n"
                 "        return 0\n"
                 "def g(a, n):\n"
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            return\n"
                 "        yield i\n",
                 "line 2: sequential: returns from inside it\n"
                 "line 6: sequential: returns from inside it\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            return\n"
                 "        yield i\n",
                 "line 2: python: line 5 uses yield, yield i (a generator's loops run as Python)\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    while n > 0:\n" /* two returns on one line; a starred value */
                 "        if a[n] < 0: return 1; return 2\n"
                 "    for i in range(n):\n"
                 "        if a[i] < 0:\n"
                 "            return *a, 1\n",
                 "line 2: sequential: contains return\n"
                 "line 4: python: line 6 uses *unpacking, *a (not compilable)\n");
    /* searches: nothing but assignments and the test before `if t: ...; break` */
#define SEARCH ": contains break (a search: the iteration that breaks is found in parallel, then runs in order)\n"
    CHECK_REPORT("def f(a, n, t):\n"
                 "    k = -1\n"
                 "    for i in range(n - 1, -1, -1):\n"
                 "        v = a[i] * 2\n"
                 "        w = v + t\n"
                 "        if w > 0 and v < 9:\n"
                 "            k = i\n"
                 "            a[i] = 0\n"
                 "            break\n"
                 "    return k, v\n",
                 "line 3: sequential search" SEARCH);
    CHECK_REPORT("def f(a, n):\n" /* carried: v read before it is set */
                 "    v = 0\n"
                 "    for i in range(n):\n"
                 "        w = v + a[i]\n"
                 "        v = w\n"
                 "        if w > 3:\n"
                 "            break\n",
                 "line 3: sequential: contains break\n");
    CHECK_REPORT("def f(a, n, s):\n" /* a step known only at run time; a walrus in the test */
                 "    for i in range(0, n, s):\n"
                 "        if a[i] > 3:\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        if (v := a[i]) > 3:\n"
                 "            break\n",
                 "line 2: sequential: contains break\n"
                 "line 5: sequential: contains break\n");
    CHECK_REPORT("def f(a, n):\n" /* a branch that may go on; for-else (its else block follows the
                                      * loop under a flag the breaking iteration sets, desugar.c
                                      * else_loops: a search); an augmented assignment */
                 "    for i in range(n):\n"
                 "        if a[i] > 3:\n"
                 "            if a[i] > 4:\n"
                 "                continue\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        if a[i] > 3:\n"
                 "            break\n"
                 "    else:\n"
                 "        i = 0\n"
                 "    for i in range(n):\n"
                 "        t = 1\n"
                 "        t += a[i]\n"
                 "        if t > 3:\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        t += a[i]\n"
                 "        if t > 3:\n"
                 "            break\n",
                 "line 2: sequential: contains break\n"
                 "line 7: sequential search: contains break (a search: the iteration that breaks is found in "
                 "parallel, then runs in order)\n"
                 "line 12: sequential search" SEARCH
                 "line 17: sequential: contains break\n");
    /* a head of ifs and loops: names it may not assign, read after the loop */
    CHECK_REPORT("def f(a, n, m):\n"
                 "    for i in range(n):\n"
                 "        hit = False\n"
                 "        for j in range(m):\n"
                 "            if a[i, j] < 0:\n"
                 "                hit = True\n"
                 "                break\n"
                 "        if hit:\n"
                 "            break\n"
                 "    return i\n",
                 "line 2: sequential search" SEARCH
                 "  line 4: sequential search" SEARCH);
    CHECK_REPORT("def f(a, n, m):\n"
                 "    for i in range(n):\n"
                 "        hit = False\n"
                 "        for j in range(m):\n"
                 "            if a[i, j] < 0:\n"
                 "                hit = True\n"
                 "                break\n"
                 "        if hit:\n"
                 "            break\n"
                 "    return j\n",
                 "line 2: sequential: contains break\n"
                 "  line 4: sequential search" SEARCH);
    CHECK_REPORT("def f(a, n, m):\n" /* carried through an inner loop; an array written in the head */
                 "    c = 0\n"
                 "    for i in range(n):\n"
                 "        for j in range(m):\n"
                 "            c += a[i, j]\n"
                 "        if c > 3:\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        c = 0\n"
                 "        for j in range(m):\n"
                 "            c += a[i, j]\n"
                 "            a[i, j] = c\n"
                 "        if c > 3:\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        c = 0\n"
                 "        if a[i, 0] > 0:\n"
                 "            c = 1\n"
                 "        else:\n"
                 "            d = 2\n"
                 "        if c > 3:\n"
                 "            break\n"
                 "    return c, d\n",
                 "line 3: sequential host: contains break\n"
                 "  line 4: parallel reduce(+:c)\n"
                 "line 8: sequential: contains break\n"
                 "  line 10: sequential: reads c before assigning it, so it carries over from one iteration to "
                 "the next\n"
                 "line 15: sequential: contains break\n");
    CHECK_REPORT("def g(x):\n" /* a helper may write; a search inside a parallel loop is its thread's */
                 "    return x\n"
                 "def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        if g(a[i]) > 3:\n"
                 "            break\n"
                 "    for i in range(n):\n"
                 "        b[i] = -1\n"
                 "        for j in range(n):\n"
                 "            if a[i, j] > 3:\n"
                 "                b[i] = j\n"
                 "                break\n",
                 "line 4: sequential: contains break\n"
                 "line 7: parallel\n"
                 "  line 9: sequential: contains break\n");
#undef SEARCH
    /* a break of an inner loop is the inner loop's */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        c = 0\n"
                 "        for j in range(n):\n"
                 "            if a[i, j] < 0:\n"
                 "                break\n"
                 "            c += 1\n"
                 "        b[i] = c\n",
                 "line 2: parallel\n"
                 "  line 4: sequential: contains break\n");
    /* writes through a view the loop makes: row[j] is A[i][j] when `row = A[i]`
     * is row's only assignment in the body, at its top level */
    CHECK_REPORT("def f(A, B, n):\n"
                 "    for i in range(n):\n"
                 "        row = A[i]\n"
                 "        row[0] = 1.0\n"
                 "    for i in range(1, n):\n"
                 "        row = A[i]\n"
                 "        row[0] = A[i - 1, 0]\n"
                 "    for i in range(n):\n"
                 "        row = A[i]\n"
                 "        if i > 2:\n"
                 "            row = B[i]\n"
                 "        row[0] = 1.0\n"
                 "    for i in range(n):\n"
                 "        row = A[i]\n"
                 "        A = B\n"
                 "        row[0] = 1.0\n",
                 "line 2: parallel\n"
                 "line 5: sequential: writes row[0], read as A[i - 1, 0] in the next iteration\n"
                 "line 8: sequential: writes row[0] through row, which the loop assigns (the array it refers to "
                 "is not known)\n"
                 "line 13: sequential: reads A before assigning it, so it carries over from one iteration to "
                 "the next\n");
    /* a name bound to (a view of) a written array before the loop: the analysis takes distinct
     * names as distinct arrays, and the launch checks it (overlapping arrays: the loop runs as
     * Python; test_jit_keep.py runs these), so a ping-pong `a, b = b, a` stays parallel */
    CHECK_REPORT("def f(A, n):\n"
                 "    B = A\n"
                 "    for i in range(n - 1):\n"
                 "        A[i] = B[i + 1]\n",
                 "line 3: parallel\n");
    CHECK_REPORT("def f(A, n):\n"
                 "    B = A[1:]\n"
                 "    for i in range(n - 1):\n"
                 "        B[i] = A[i]\n",
                 "line 3: parallel\n");
    CHECK_REPORT("import numpy as np\n"
                 "def f(A, n):\n"
                 "    B = np.reshape(A, (n,))\n"
                 "    C = np.zeros_like(A)\n"
                 "    k = A.shape[0]\n"
                 "    for i in range(n - 1):\n"
                 "        C[i] = A[i + 1] + k\n"
                 "    for i in range(n - 1):\n"
                 "        A[i] = B[i + 1]\n",
                 "line 6: parallel\n"
                 "line 8: parallel\n");
    /* scattered plain stores, and a store no iteration tells apart */
    CHECK_REPORT("def f(A, idx, x, n):\n"
                 "    for i in range(n):\n"
                 "        A[idx[i]] = x[i]\n",
                 "line 2: sequential: writes A[idx[i]], which may be the same element in different iterations\n");
    CHECK_REPORT("def f(A, n, m):\n"
                 "    for i in range(n):\n"
                 "        for j in range(m):\n"
                 "            A[j] = i\n",
                 "line 2: sequential host: writes A[j], which may be the same element in different iterations\n"
                 "  line 3: parallel\n");
    /* reads of the whole array */
    CHECK_REPORT("import numpy as np\n"
                 "def f(A, n):\n"
                 "    for i in range(n):\n"
                 "        A[i] = np.sum(A)\n"
                 "    for i in range(n):\n"
                 "        A[i] = A.shape[0] + len(A)\n",
                 "line 3: sequential: writes A[i] and uses the whole array A\n"
                 "line 5: parallel\n");
    /* a helper that reads a written global */
    CHECK_REPORT("G = None\n"
                 "def reads_g(i):\n"
                 "    return G[i + 1]\n"
                 "def f(n):\n"
                 "    for i in range(n):\n"
                 "        G[i] = reads_g(i)\n",
                 "line 5: sequential: writes G[i] and calls helper reads_g, which reads G\n");
    /* two writes that may meet */
    CHECK_REPORT("def f(a):\n"
                 "    n = a.shape[0]\n"
                 "    for i in range((n + 1) // 2):\n"
                 "        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]\n",
                 "line 3: sequential: writes a[i], read as a[n - 1 - i], possibly in another iteration\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        a[i] = 1\n"
                 "        a[i + 1] = 2\n",
                 "line 2: sequential: writes a[i] and a[i + 1], the same element 1 iteration apart\n");
    /* slices */
    CHECK_REPORT("def f(A, B, n):\n"
                 "    for i in range(n):\n"
                 "        A[i, :] = B[i, :] * 2\n"
                 "    for i in range(1, n):\n"
                 "        A[:, i] = A[:, i - 1]\n"
                 "    for i in range(n):\n"
                 "        A[i:i + 2] = 0\n"
                 "    for i in range(n):\n"
                 "        A[1:][i] = 0\n",
                 "line 2: parallel\n"
                 "line 4: sequential: writes A[:, i], read as A[:, i - 1] in the next iteration\n"
                 "line 6: sequential: writes A[i:i + 2], which may be the same element in different iterations\n"
                 "line 8: sequential: writes A[1:][i], which may be the same element in different iterations\n");
    /* while loops */
    CHECK_REPORT("def f(a, n):\n"
                 "    i = 0\n"
                 "    while i < n:\n"
                 "        a[i] = 0\n"
                 "        i += 1\n",
                 "line 3: sequential: while loop (its iterations run in order)\n");
}

/* ---- the dependence test ---- */

static void test_subscripts(void)
{
    CHECK_REPORT("def f(A, B, n, k):\n"
                 "    for i in range(n):\n"
                 "        A[2 * i] = A[2 * i + 1]\n"
                 "    for i in range(n):\n"
                 "        A[2 * i] = A[2 * i + 2]\n"
                 "    for i in range(0, n, 2):\n"
                 "        A[i] = A[i + 1]\n"
                 "    for i in range(0, n, 2):\n"
                 "        A[i] = A[i + 2] + A[i]\n"
                 "    for i in range(n):\n"
                 "        A[i] = A[i] * 2\n"
                 "    for i in range(n):\n"
                 "        A[i] = B[i + 1]\n"
                 "    for i in range(n):\n"
                 "        A[2 * i] = A[i]\n"
                 "    for i in range(n, 0, -1):\n"
                 "        A[i] = A[i + 1]\n"
                 "    for i in range(n):\n"
                 "        A[-i] = 0\n"
                 "    for i in range(n):\n"
                 "        A[3 * i + 1] = A[6 * i + 3]\n"
                 "    for i in range(n):\n"
                 "        A[(i + 1) * 2] = A[2 * i + 2] + B[i * i]\n"
                 "    for i in range(0, n, k):\n"
                 "        A[i] = A[i + 1]\n"
                 "    for i in range(0, n, 4 - 2):\n"
                 "        A[i] = A[i + 1]\n",
                 "line 2: parallel\n"
                 "line 4: sequential: writes A[2 * i], read as A[2 * i + 2] in the previous iteration\n"
                 "line 6: parallel\n"
                 "line 8: sequential: writes A[i], read as A[i + 2] in the previous iteration\n"
                 "line 10: parallel\n"
                 "line 12: parallel\n"
                 "line 14: sequential: writes A[2 * i], read as A[i], possibly in another iteration\n"
                 "line 16: sequential: writes A[i], read as A[i + 1] in the next iteration\n"
                 "line 18: parallel\n"
                 "line 20: parallel\n"
                 "line 22: parallel\n"
                 "line 24: sequential: writes A[i], read as A[i + 1], possibly in another iteration\n"
                 "line 26: parallel\n");
    /* i*L + j is distinct across i only when j stays in range(L) */
    CHECK_REPORT("def f(A, L, M, n):\n"
                 "    for i in range(n):\n"
                 "        for j in range(L):\n"
                 "            A[i * L + j] = A[i * L + j] + 1.0\n"
                 "    for i in range(n):\n"
                 "        for j in range(M):\n"
                 "            A[i * L + j] = 0.0\n"
                 "    for i in range(n):\n"
                 "        for j in range(1, L):\n"
                 "            A[L * i + j] = 0.0\n"
                 "    for i in range(n):\n"
                 "        for j in range(L):\n"
                 "            A[i * L + j] = A[i * L + j + 1]\n"
                 "    for i in range(n):\n"
                 "        for j in range(L):\n"
                 "            j = j + 1\n"
                 "            A[i * L + j] = 0.0\n",
                 "line 2: parallel\n"
                 "  line 3: parallel collapsed\n"
                 "line 5: sequential host: writes A[i * L + j], which may be the same element in different iterations\n"
                 "  line 6: parallel\n"
                 "line 8: parallel\n"
                 "  line 9: parallel collapsed\n"
                 "line 11: sequential: writes A[i * L + j], read as A[i * L + j + 1], possibly in another iteration\n"
                 "  line 12: sequential: writes A[i * L + j], read as A[i * L + j + 1] in the previous iteration\n"
                 "line 14: sequential: writes A[i * L + j], which may be the same element in different iterations\n"
                 "  line 15: sequential: assigns its loop variable j in the body\n");
    /* A[i][j] is A[i, j]; A[i] (a row) and A[i, j] compare on their first position */
    CHECK_REPORT("def f(A, B, n, m):\n"
                 "    for i in range(n):\n"
                 "        for j in range(m):\n"
                 "            A[i][j] = B[j][i]\n"
                 "    for i in range(n):\n"
                 "        A[i] = 0\n"
                 "        for j in range(m):\n"
                 "            A[i, j] += B[i, j]\n",
                 "line 2: parallel\n"
                 "  line 3: parallel collapsed\n"
                 "line 5: parallel\n"
                 "  line 7: sequential: runs in one thread of the parallel loop at line 5\n");
    /* an index through a private scalar is not followed */
    CHECK_REPORT("def f(A, n):\n"
                 "    for i in range(n):\n"
                 "        k = i\n"
                 "        A[k] = 0\n",
                 "line 2: sequential: writes A[k], which may be the same element in different iterations\n");
    /* an invariant expression as an offset */
    CHECK_REPORT("def f(A, x, n):\n"
                 "    for i in range(n):\n"
                 "        A[i + x.shape[0]] = A[i + x.shape[0]] * 2\n"
                 "    for i in range(n):\n"
                 "        A[i + x.shape[0]] = A[i + x.shape[1]]\n",
                 "line 2: parallel\n"
                 "line 4: sequential: writes A[i + x.shape[0]], read as A[i + x.shape[1]], possibly in another "
                 "iteration\n");
    /* slices as the elements [lo, lo + w) they touch: apart when the step times the counter's
     * coefficient is at least the width (and the offset between two of them) */
    CHECK_REPORT("def f(A, B, n):\n"
                 "    for i in range(0, n, 4):\n"
                 "        A[i:i + 4] = B[i:i + 4]\n"
                 "    for i in range(0, n, 2):\n"
                 "        A[i:i + 4] = 0\n"
                 "    for i in range(n):\n"
                 "        A[3 * i + 1:3 * i + 4] = A[3 * i + 2] + A[3 * i + 3:3 * i + 3]\n"
                 "    for i in range(0, n, 4):\n"
                 "        A[i:i + 4] = A[i + 4]\n"
                 "    for i in range(0, n, 4):\n"
                 "        A[i:i + 4:2] = 0\n"
                 "    for i in range(n):\n"
                 "        A[i, 1:3] = A[i + 1, 0]\n"
                 "    for j in range(n):\n"
                 "        A[:, j] = B[:, j] * 2\n"
                 "    for i in range(n):\n"
                 "        A[i:] = 0\n",
                 "line 2: parallel\n"
                 "line 4: sequential: writes A[i:i + 4], which may be the same element in different iterations\n"
                 "line 6: parallel\n"
                 "line 8: sequential: writes A[i:i + 4], read as A[i + 4], possibly in another iteration\n"
                 "line 10: sequential: writes A[i:i + 4:2], which may be the same element in different iterations\n"
                 "line 12: sequential: writes A[i, 1:3], read as A[i + 1, 0] in the previous iteration\n"
                 "line 14: parallel\n"
                 "line 16: sequential: writes A[i:], which may be the same element in different iterations\n");
}

/* ---- scalars: private, reductions ---- */

static void test_scalars(void)
{
    CHECK_REPORT("import numpy as np\n"
                 "def f(x, n):\n"
                 "    a = 0.0\n"
                 "    b = 1.0\n"
                 "    c = 0\n"
                 "    d = 0\n"
                 "    e = 0\n"
                 "    f = 1e9\n"
                 "    g = 1e9\n"
                 "    h = 0.0\n"
                 "    k = 0.0\n"
                 "    m = 0.0\n"
                 "    for i in range(n):\n"
                 "        a = max(a, x[i])\n"
                 "        b = b * x[i]\n"
                 "        c |= int(x[i])\n"
                 "        d ^= int(x[i])\n"
                 "        e &= int(x[i])\n"
                 "        f = min(x[i], f)\n"
                 "        if x[i] < g:\n"
                 "            g = x[i]\n"
                 "        if x[i] > 0:\n"
                 "            h = h + x[i] - 1.0\n"
                 "        k = np.maximum(k, x[i])\n"
                 "        m -= x[i]\n"
                 "    return a, b, c, d, e, f, g, h, k, m\n",
                 "line 13: parallel reduce(min:f) reduce(max:a) reduce(*:b) reduce(|:c) reduce(^:d) reduce(&:e) "
                 "reduce(min:g) reduce(+:h) reduce(max:k) reduce(+:m)\n"); /* in order of name_id: f is first */
    /* not reductions: two operators, a minus in front, read elsewhere */
    CHECK_REPORT("def f(x, n):\n"
                 "    s = 0.0\n"
                 "    for i in range(n):\n"
                 "        s += x[i]\n"
                 "        s *= 2.0\n"
                 "    t = 0.0\n"
                 "    for i in range(n):\n"
                 "        t = x[i] - t\n"
                 "    u = 0.0\n"
                 "    for i in range(n):\n"
                 "        u += x[i]\n"
                 "        if u > 10.0:\n"
                 "            x[i] = 0.0\n"
                 "    v = 0.0\n"
                 "    for i in range(n):\n"
                 "        v = v + v * x[i]\n"
                 "    w = 0.0\n"
                 "    for i in range(n):\n"
                 "        w /= x[i]\n"
                 "    return s, t, u, v, w\n",
                 "line 3: sequential: reads s before assigning it, so it carries over from one iteration to the next\n"
                 "line 7: sequential: reads t before assigning it, so it carries over from one iteration to the next\n"
                 "line 10: sequential: reads u before assigning it, so it carries over from one iteration to the next\n"
                 "line 15: sequential: reads v before assigning it, so it carries over from one iteration to the next\n"
                 "line 18: sequential: reads w before assigning it, so it carries over from one iteration to the next\n");
    /* argmax: best is a ranked max, best_i goes with it; either way round, min, >=, a dead name */
    CHECK_REPORT("def f(x, y):\n"
                 "    best = x[0]\n"
                 "    best_i = 0\n"
                 "    for i in range(1, x.shape[0]):\n"
                 "        if x[i] > best:\n"
                 "            best = x[i]\n"
                 "            best_i = i\n"
                 "    lo = 0.0\n"
                 "    at = 0\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if lo >= x[i] * y[i]:\n"
                 "            at = i - 1\n"
                 "            tmp = i\n"
                 "            lo = x[i] * y[i]\n"
                 "    return best_i, best, lo, at\n",
                 "line 4: parallel reduce(max:best) reduce(argmax:best_i)\n"
                 "line 10: parallel reduce(min:lo) reduce(argmin:at)\n");
    {
        const char *rs = "def f(x):\n"
                         "    best = x[0]\n"
                         "    k = 0\n"
                         "    for i in range(x.shape[0]):\n"
                         "        if x[i] >= best:\n"
                         "            best = x[i]\n"
                         "            k = i\n"
                         "    return best, k\n";
        NgJitAst *ra;
        NgJitLoops *rl;
        CHECK_OK(ng_jit_parse(rs, strlen(rs), "t.py", &ra, NULL));
        CHECK_OK(ng_jit_analyze(ra, find_def(ra, "f"), &rl));
        CHECK_EQ_INT(2, rl->items[0].nreductions);
        CHECK(rl->items[0].ranked_last);
        for (int i = 0; i < rl->items[0].nreductions; i++)
            CHECK(rl->items[0].reductions[i].ranked);
        ng_jit_loops_free(rl);
        ng_jit_ast_free(ra);
    }
    /* not ranked: the index read elsewhere, the key assigned twice, a value reading the key, an else,
       two updates in one loop, the key compared with something else than its value */
#define CARRIES(v) "sequential: reads " v " before assigning it, so it carries over from one iteration to the next\n"
    CHECK_REPORT("def f(x, y):\n"
                 "    b = x[0]\n"
                 "    k = 0\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            b = x[i]\n"
                 "            k = i\n"
                 "        y[i] = k\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            b = x[i]\n"
                 "            k = i\n"
                 "        if x[i] < 0:\n"
                 "            b = 0.0\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            k = b\n"
                 "            b = x[i]\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            b = x[i]\n"
                 "            k = i\n"
                 "        else:\n"
                 "            k = 0\n"
                 "    c = 0.0\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            b = x[i]\n"
                 "            k = i\n"
                 "        if x[i] < c:\n"
                 "            c = x[i]\n"
                 "            k = i\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > b:\n"
                 "            b = y[i]\n"
                 "            k = i\n"
                 "    return b, k, c\n",
                 "line 4: " CARRIES("b") "line 9: " CARRIES("b") "line 15: " CARRIES("b") "line 19: " CARRIES("b")
                 "line 26: " CARRIES("b") "line 33: " CARRIES("b"));
#undef CARRIES
    /* privates, continue, tuples; the privates list */
    const char *src = "def f(a, b, n):\n"
                      "    for i in range(n):\n"
                      "        if a[i] < 0:\n"
                      "            continue\n"
                      "        t = a[i] * 2\n"
                      "        x, y = t, b[i]\n"
                      "        for j in range(3):\n"
                      "            t += j\n"
                      "        b[i] = t + x + y\n"
                      "    t = 0\n"
                      "    return t\n";
    CHECK_REPORT(src, "line 2: parallel\n  line 7: sequential: runs in one thread of the parallel loop at line 2\n");
    NgJitAst *ast;
    NgJitLoops *loops;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    CHECK_OK(ng_jit_analyze(ast, find_def(ast, "f"), &loops));
    CHECK_EQ_INT(2, loops->n);
    CHECK_EQ_INT(4, loops->items[0].nprivates);
    if (loops->items[0].nprivates == 4) {
        CHECK_EQ_STR("t", loops->items[0].privates[0]);
        CHECK_EQ_STR("x", loops->items[0].privates[1]);
        CHECK_EQ_STR("y", loops->items[0].privates[2]);
        CHECK_EQ_STR("j", loops->items[0].privates[3]);
    }
    CHECK(loops->items[0].independent);
    CHECK(loops->items[1].independent); /* t += j reduces, but it runs inside one thread */
    CHECK_EQ_INT(0, loops->items[1].nreductions);
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    /* a reduction across a collapsed nest, and one under if */
    CHECK_REPORT("def f(A, n, m):\n"
                 "    s = 0.0\n"
                 "    c = 0\n"
                 "    for i in range(n):\n"
                 "        for j in range(m):\n"
                 "            s += A[i, j]\n"
                 "            if A[i, j] > 0:\n"
                 "                c += 1\n"
                 "    return s, c\n",
                 "line 4: parallel reduce(+:s) reduce(+:c)\n"
                 "  line 5: parallel reduce(+:s) reduce(+:c) collapsed\n");
}

/* In-place updates of names that may hold arrays: the verdict assumes scalars. */
static void test_assumed_scalars(void)
{
    CHECK_REPORT("def f(a, acc, n):\n"
                 "    for i in range(n):\n"
                 "        acc += a[i]\n"
                 "    return acc\n",
                 "line 2: parallel reduce(+:acc) scalar(acc)\n");
    CHECK_REPORT("def f(A, B, n):\n"
                 "    for i in range(n):\n"
                 "        t = A[0]\n"
                 "        t += B[i]\n"
                 "        c = 0\n"
                 "        c += 1\n"
                 "        B[i] = t + c\n",
                 "line 2: parallel scalar(t)\n");
    /* the type stage's view: a 2-D A makes t a view of a row, and `t += B[i]` a write */
    const char *src = "def f(A, B, n):\n"
                      "    for i in range(n):\n"
                      "        t = A[0]\n"
                      "        t += B[i]\n";
    NgJitAst *ast;
    NgJitLoops *loops;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    CHECK_OK(ng_jit_analyze(ast, find_def(ast, "f"), &loops));
    CHECK_EQ_INT(1, loops->items[0].nscalars);
    CHECK_EQ_INT(1, loops->items[0].nprivates);
    if (loops->items[0].nscalars == 1)
        CHECK_EQ_STR("t", loops->items[0].scalars[0]);
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
}

/* ---- atomics ---- */

static void test_atomics(void)
{
    CHECK_REPORT("def f(h, idx, w, n):\n"
                 "    for i in range(n):\n"
                 "        h[idx[i]] += w[i]\n"
                 "    for i in range(n):\n"
                 "        h[idx[i]] += h[i]\n"
                 "    for i in range(n):\n"
                 "        h[int(w[i] * 10)] -= 1\n"
                 "        h[idx[i]] += 2\n"
                 "    for i in range(n):\n"
                 "        h[idx[i]] *= 2\n"
                 "    for i in range(n):\n"
                 "        h[i] += 1\n"
                 "    for i in range(n):\n"
                 "        h[idx[i]] += 1\n"
                 "        w[i] = h[0]\n",
                 "line 2: parallel atomic(h)\n"
                 "line 4: sequential: writes h[idx[i]], read as h[i], possibly in another iteration\n"
                 "line 6: parallel atomic(h)\n"
                 "line 9: sequential: writes h[idx[i]], which may be the same element in different iterations\n"
                 "line 11: parallel\n"
                 "line 13: sequential: writes h[idx[i]], read as h[0], possibly in another iteration\n");
    /* a 2-D histogram in a collapsed nest */
    CHECK_REPORT("def f(h, img, n, m):\n"
                 "    for i in range(n):\n"
                 "        for j in range(m):\n"
                 "            h[i % 4, img[i, j]] += 1\n",
                 "line 2: parallel atomic(h)\n"
                 "  line 3: parallel atomic(h) collapsed\n");
}

/* ---- nests ---- */

static void test_nests(void)
{
    /* a triangular nest is not collapsed; three perfect levels are */
    CHECK_REPORT("def f(B, n):\n"
                 "    for i in range(n):\n"
                 "        for j in range(i):\n"
                 "            B[i, j] = 0.0\n"
                 "    for i in range(n):\n"
                 "        for j in range(n):\n"
                 "            for k in range(n):\n"
                 "                B[i, j, k] = 1.0\n",
                 "line 2: parallel\n"
                 "  line 3: sequential: runs in one thread of the parallel loop at line 2\n"
                 "line 5: parallel\n"
                 "  line 6: parallel collapsed\n"
                 "    line 7: parallel collapsed\n");
    /* a sequential host loop around kernels; the loops of an else block run after the loop */
    CHECK_REPORT("def f(a, b, steps, n):\n"
                 "    for t in range(steps):\n"
                 "        x = a[0]\n"
                 "        for i in range(n):\n"
                 "            b[i] = a[i] + x\n"
                 "        for i in range(n):\n"
                 "            a[i] = b[i]\n"
                 "    else:\n"
                 "        for i in range(n):\n"
                 "            a[i] = 0\n",
                 "line 2: sequential host: writes b[i], which may be the same element in different iterations\n"
                 "  line 4: parallel\n"
                 "  line 6: parallel\n"
                 "line 9: parallel\n");
    /* a loop that stays Python can still launch the parallel loops in it */
    CHECK_REPORT("def f(a, n):\n"
                 "    for t in range(n):\n"
                 "        print(t)\n"
                 "        for i in range(n):\n"
                 "            a[i] = t\n",
                 "line 2: python host: line 3 calls print (printing is Python's: store the values in an array made "
                 "before the loop and print them after it)\n"
                 "  line 4: parallel\n");
    /* loops of nested functions are theirs, not f's */
    CHECK_REPORT("def f(a, n):\n"
                 "    def g():\n"
                 "        for i in range(n):\n"
                 "            a[i] = 0\n"
                 "    for i in range(n):\n"
                 "        a[i] = 1\n"
                 "    g()\n",
                 "line 5: parallel\n");
    /* a nested function that assigns a nonlocal may read it after the loop */
    CHECK_REPORT("def f(a, n):\n"
                 "    s = 0.0\n"
                 "    def g():\n"
                 "        nonlocal s\n"
                 "        s = 1\n"
                 "    for i in range(n):\n"
                 "        s = a[i]\n"
                 "    g()\n",
                 "line 6: parallel reduce(argmax:s) reduce(max:__ng_last1)\n");
    /* loops inside if blocks */
    CHECK_REPORT("def f(a, n, flag):\n"
                 "    if flag:\n"
                 "        for i in range(n):\n"
                 "            a[i] = 1\n"
                 "    else:\n"
                 "        while n > 0:\n"
                 "            n -= 1\n",
                 "line 3: parallel\n"
                 "line 6: sequential: while loop (its iterations run in order)\n");
}

/* ---- prange ---- */

static void test_prange(void)
{
    CHECK_REPORT("import numgpu\n"
                 "from numgpu import prange\n"
                 "def f(a, n):\n"
                 "    s = 0.0\n"
                 "    for i in prange(1, n):\n"
                 "        a[i] = a[i - 1] + 1\n"
                 "        s += a[i]\n"
                 "    for i in numgpu.prange(n):\n"
                 "        a[i] = 0\n"
                 "    for i in prange(n):\n"
                 "        if a[i] > 3:\n"
                 "            break\n"
                 "    for i in prange(n):\n"
                 "        for j in prange(n):\n"
                 "            a[j] = i\n"
                 "    return s\n",
                 "line 5: parallel reduce(+:s) asserted, not proven: writes a[i], read as a[i - 1] in the next "
                 "iteration\n"
                 "line 8: parallel asserted (also proven)\n"
                 "line 10: sequential asserted, not proven search: contains break (a search: the iteration that "
                 "breaks is found in parallel, then runs in order)\n"
                 "line 13: parallel asserted, not proven: writes a[j], which may be the same element in different "
                 "iterations\n"
                 "  line 14: parallel collapsed asserted (also proven)\n");
}

/* ---- what stays Python ---- */

static void test_python(void)
{
    CHECK_REPORT("import numpy as np\n"
                 "import math\n"
                 "def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        print(a[i])\n"
                 "    for i in range(n):\n"
                 "        a[i] = foo(a[i])\n"
                 "    for i in range(n):\n"
                 "        a[i] = a[i].cumsum()\n"
                 "    for i in range(n):\n"
                 "        try:\n"
                 "            a[i] = 1\n"
                 "        except Exception:\n"
                 "            pass\n"
                 "    for i in range(n):\n"
                 "        a[i] = np.zeros(3)\n"
                 "    for x in a.T:\n"
                 "        pass\n"
                 "    for i in range(n):\n"
                 "        a[i] = np.sqrt(a[i], out=a)\n"
                 "    for i in range(n):\n"
                 "        a[i] = [1, 2][0]\n"
                 "    for i in range(n):\n"
                 "        a[i] = sum(x for x in a)\n"
                 "    for i, v in enumerate(a):\n"
                 "        pass\n"
                 "    for i in range(n):\n"
                 "        a[i] = math.sqrt(a[i]) + math.pi + np.exp(a[i]) + np.float32(2) + abs(a[i])\n"
                 "    for i in range(n):\n"
                 "        a[i] = 1 if i in a else 0\n"
                 "    for i in range(n):\n"
                 "        a.x = 1\n"
                 "    for i in range(n):\n"
                 "        a[i] = np.sqrt(a[i], a)\n"
                 "    for i in range(n):\n"
                 "        a[i] = np.sum(a, 0) + np.maximum(a[i], 0.0) + np.where(a[i] > 0, 1, 2)\n",
                 "line 4: python: line 5 calls print (printing is Python's: store the values in an array made before "
                 "the loop and print them after it)\n"
                 "line 6: python: line 7 calls foo, which is not a function defined in this file (a compiled loop "
                 "inlines only the functions of its own file: define it there, or call it outside the loop)\n"
                 "line 8: python: line 9 calls a[i].cumsum (a method compiled loops do not have: they call the "
                 "functions of their own file, math's, cmath's, random's and NumPy's, and arrays' reductions, "
                 "x.sum(), x.max(), ...; call it before or after the loop, or make it a function of this file taking "
                 "the numbers or arrays it reads)\n"
                 "line 10: python: line 11 contains a `try` statement (a compiled loop catches no exception: test for "
                 "the case with an if, `if d != 0:`)\n"
                 "line 15: python: line 16 calls np.zeros other than as `name = np.zeros(n)` in a loop's body (not "
                 "compilable)\n"
                 "line 17: python: line 17 iterates over a.T (only range() and prange() loops, and loops over arrays, "
                 "enumerate() or zip() of them, compile)\n"
                 "line 19: python: line 20 calls np.sqrt with keyword arguments (not compilable)\n"
                 "line 21: python: line 22 uses a list, [1, 2] (name each item instead, a, b = ..., or store into an "
                 "array made before the loop)\n"
                 "line 23: python: line 24 uses a generator expression, (x for x in a) (write a NumPy expression of "
                 "the row, np.sum(x[i] * 2), or an inner loop)\n"
                 "line 25: parallel\n"
                 "line 27: parallel\n"
                 "line 29: sequential: writes a[i] and uses the whole array a\n"
                 "line 31: python: line 32 assigns a.x (not compilable)\n"
                 "line 33: python: line 34 calls np.sqrt with 2 arguments (not compilable)\n"
                 "line 35: sequential: writes a[i] and uses the whole array a\n"); /* (np.sum(a, axis 0)) */
    /* the keywords a NumPy reduction compiles with (ddof=, ord=), np.linalg.norm, @ of rows */
    CHECK_REPORT("def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        b[i] = np.std(a[i], ddof=1) + a[i].var(ddof=n) + np.linalg.norm(a[i], ord=2) + a[i] @ a[i]\n"
                 "    for i in range(n):\n"
                 "        b[i] = np.std(a[i], axis=0)\n"
                 "    for i in range(n):\n"
                 "        b[i] = np.linalg.norm(a[i], 2, ord=1)\n"
                 "    for i in range(n):\n"
                 "        b[i] = np.sum(a[i], ddof=1)\n"
                 "    for i in range(n):\n"
                 "        b[i] = np.std(a[i], ddof=print(i))\n",
                 "line 2: parallel\n"
                 "line 4: parallel\n" /* (along an axis) */
                 "line 6: python: line 7 calls np.linalg.norm with keyword arguments (not compilable)\n"
                 "line 8: python: line 9 calls np.sum with keyword arguments (not compilable)\n"
                 "line 10: python: line 11 calls print (printing is Python's: store the values in an array made "
                 "before the loop and print them after it)\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        a[i] = (lambda v: v)(i)\n",
                 "line 2: python: line 3 calls (lambda v: v) (not compilable)\n");
    CHECK_REPORT("def f(a, n):\n"
                 "    for i in range(n):\n"
                 "        a[i] = {1: 2}[i]\n",
                 "line 2: python: line 3 uses a dict, {1: 2} (make it before the loop and pass it in: a compiled loop "
                 "reads dicts of ints)\n");
    /* helpers that write into their parameters' arrays: the loop sees the
     * writes at the call's arguments (the helper's own variables in an index
     * are unknown values); a helper may write only its parameters' arrays */
    CHECK_REPORT("G = None\n"
                 "def put(p, k, v):\n"
                 "    p[k] = v\n"
                 "def put_next(p, k, v):\n"
                 "    put(p, k + 1, v)\n"
                 "def swap(p, k, m):\n"
                 "    t = p[k]\n"
                 "    p[k] = p[m]\n"
                 "    p[m] = t\n"
                 "def scale_row(X, r, s):\n"
                 "    for j in range(X.shape[1]):\n"
                 "        X[r, j] = X[r, j] * s\n"
                 "def bump(h, k):\n"
                 "    h[k] += 1\n"
                 "def to_global(k):\n"
                 "    G[k] = 0\n"
                 "def rebinds(p, q, k):\n"
                 "    p = q\n"
                 "    p[k] = 0\n"
                 "def shifted(p, k):\n"
                 "    k = k + 1\n"
                 "    return p[k]\n"
                 "def f(a, b, X, idx, n):\n"
                 "    for i in range(n):\n"
                 "        put(a, i, b[i])\n"
                 "    for i in range(n):\n"
                 "        put_next(a, i, a[i])\n"
                 "    for i in range(n // 2):\n"
                 "        swap(a, i, n - 1 - i)\n"
                 "    for i in range(X.shape[0]):\n"
                 "        scale_row(X, i, 2.0)\n"
                 "    for i in range(n):\n"
                 "        bump(b, idx[i])\n"
                 "    for i in range(n):\n"
                 "        to_global(i)\n"
                 "    for i in range(n):\n"
                 "        rebinds(a, b, i)\n"
                 "    for i in range(n):\n"
                 "        put(a + 1, i, 0.0)\n"
                 "    for i in range(n):\n"
                 "        a[i] = shifted(a, i)\n",
                 "line 24: parallel\n"
                 "line 26: sequential: writes p[k], read as a[i] in the next iteration (in helper put)\n"
                 "line 28: parallel\n"
                 "line 30: parallel\n" /* (the helper's own loop is no loop of f's) */
                 "line 32: parallel atomic(b)\n"
                 "line 34: python: line 35 calls helper to_global, which writes into G[k], which is not one of its "
                 "parameters (not inlined)\n"
                 "line 36: python: line 37 calls helper rebinds, which writes into p[k], a parameter it also assigns "
                 "(not inlined)\n"
                 "line 38: python: line 39 passes a + 1 to helper put, which writes into it (not compilable)\n"
                 "line 40: sequential: writes a[i], read as p[k], possibly in another iteration "
                 "(in helper shifted)\n");
    /* keyword arguments bind as in Python; a call Python refuses stays Python */
    CHECK_REPORT("def put(p, k, v=0.0, *, s=1.0):\n"
                 "    p[k] = v * s\n"
                 "def f(a, b, n):\n"
                 "    for i in range(n):\n"
                 "        put(k=i, p=a, v=b[i], s=2.0)\n"
                 "    for i in range(1, n):\n"
                 "        put(a, k=i - 1, v=a[i])\n"
                 "    for i in range(n):\n"
                 "        put(a, i, q=1)\n"
                 "    for i in range(n):\n"
                 "        put(a, i, 1.0, 2.0)\n"
                 "    for i in range(n):\n"
                 "        put(a, i, k=1)\n"
                 "    for i in range(n):\n"
                 "        put(k=i, v=1.0)\n",
                 "line 4: parallel\n"
                 "line 6: sequential: writes p[k], read as a[i] in the previous iteration (in helper put)\n"
                 "line 8: python: line 9 calls helper put, but put() got an unexpected keyword argument 'q' (left to "
                 "Python)\n"
                 "line 10: python: line 11 calls helper put, but put() takes 3 positional arguments but 4 were given "
                 "(left to Python)\n"
                 "line 12: python: line 13 calls helper put, but put() got multiple values for argument 'k' (left to "
                 "Python)\n"
                 "line 14: python: line 15 calls helper put, but put() missing required argument: 'p' (left to "
                 "Python)\n");
    /* helpers of the same source are inlined when they compile and write nothing */
    CHECK_REPORT("import math\n"
                 "def clamp(v, lo, hi):\n"
                 "    if v < lo:\n"
                 "        return lo\n"
                 "    return min(v, hi)\n"
                 "def pure(x):\n"
                 "    y = x * 2\n"
                 "    for k in range(3):\n"
                 "        y += math.exp(-k)\n"
                 "    return clamp(y, 0.0, 1.0)\n"
                 "def writes(a, i):\n"
                 "    a[i] = 0\n"
                 "def rec(x):\n"
                 "    return rec(x - 1)\n"
                 "def talks(x):\n"
                 "    print(x)\n"
                 "def gen(x):\n"
                 "    yield x\n"
                 "def f(a, b, n):\n"
                 "    def local(v):\n"
                 "        return v + 1\n"
                 "    for i in range(n):\n"
                 "        b[i] = pure(a[i]) + local(a[i])\n"
                 "    for i in range(n):\n"
                 "        writes(a, i)\n"
                 "    for i in range(n):\n"
                 "        b[i] = rec(a[i])\n"
                 "    for i in range(n):\n"
                 "        b[i] = talks(a[i])\n"
                 "    for i in range(n):\n"
                 "        b[i] = gen(a[i])\n"
                 "    for i in range(n):\n"
                 "        b[i] = f(a, b, i)\n",
                 "line 22: parallel\n"
                 "line 24: parallel\n"
                 "line 26: python: line 27 calls helper rec, which calls helper rec recursively (not compilable)\n"
                 "line 28: python: line 29 calls helper talks, which calls print (printing is Python's: store the "
                 "values in an array made before the loop and print them after it)\n"
                 "line 30: python: line 31 calls helper gen, which is a generator (not compilable)\n"
                 "line 32: python: line 33 calls f, the function itself (not compilable)\n");
}

/* ---- the API ---- */

static void test_api(void)
{
    const char *src = "import numpy as np\n"
                      "x = 1\n"
                      "def f(a, n):\n"
                      "    for i in range(n):\n"
                      "        for j in range(n):\n"
                      "            a[i, j] = 0\n"
                      "    t = 0\n"
                      "    while t < n:\n"
                      "        t += 1\n"
                      "def empty():\n"
                      "    return 1\n";
    NgJitAst *ast;
    NgJitLoops *loops = (NgJitLoops *)1;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    CHECK_EQ_INT(NG_ERR_VALUE, ng_jit_analyze(ast, ast->body.stmts[1], &loops));
    CHECK(loops == NULL);
    CHECK_STR_CONTAINS(ng_error_message(), "expected a function definition");
    CHECK_OK(ng_jit_analyze(ast, find_def(ast, "empty"), &loops));
    CHECK_EQ_INT(0, loops->n);
    ng_jit_loops_free(loops);
    ng_jit_loops_free(NULL);

    CHECK_OK(ng_jit_analyze(ast, find_def(ast, "f"), &loops));
    CHECK_EQ_INT(3, loops->n);
    if (loops->n == 3) {
        const NgJitLoopInfo *a = &loops->items[0], *b = &loops->items[1], *w = &loops->items[2];
        CHECK_EQ_INT(4, a->line);
        CHECK_EQ_INT(-1, a->parent);
        CHECK_EQ_INT(0, a->depth);
        CHECK_EQ_STR("i", ast->names[a->var_id]);
        CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, a->kind);
        CHECK(a->independent && !a->collapsed && !a->host && !a->asserted && !a->atomic);
        CHECK(a->reason == NULL);
        CHECK(a->stmt == find_def(ast, "f")->body.stmts[0]);
        CHECK_EQ_INT(5, b->line);
        CHECK_EQ_INT(0, b->parent);
        CHECK_EQ_INT(1, b->depth);
        CHECK(b->collapsed);
        CHECK_EQ_INT(8, w->line);
        CHECK_EQ_INT(-1, w->var_id);
        CHECK_EQ_INT(NG_JIT_LOOP_SEQUENTIAL, w->kind);
        CHECK(!w->independent);
        CHECK_STR_CONTAINS(w->reason, "while");
    }
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);

    CHECK_EQ_STR("parallel", ng_jit_loop_kind_name(NG_JIT_LOOP_PARALLEL));
    CHECK_EQ_STR("sequential", ng_jit_loop_kind_name(NG_JIT_LOOP_SEQUENTIAL));
    CHECK_EQ_STR("python", ng_jit_loop_kind_name(NG_JIT_LOOP_PYTHON));
    const char *ops[] = {"+", "*", "max", "min", "|", "&", "^"};
    for (int i = 0; i < 7; i++)
        CHECK_EQ_STR(ops[i], ng_jit_red_op_name((NgJitRedOp)i));

    /* call kinds, as the lowering sees them */
    const char *calls = "def f():\n"
                        "    (range(3), len(a), math.sqrt(x), np.exp(x), numpy.sum(r), np.dot(a, b),\n"
                        "     prange(3), numgpu.prange(3), helper(x), a.sum(), np.zeros(3), math.fsum(x), a[0](x),\n"
                        "     np.linalg.norm(a), numpy.linalg.norm(a, 1), np.linalg.norm(a, 1, 0), np.linalg.inv(a),\n"
                        "     np.linalg.norm(a, 1, 0, 2), np.sum(a, 0), np.sum(a, 0, 1), a.max(0), a.max(0, 1))\n";
    CHECK_OK(ng_jit_parse(calls, strlen(calls), "t.py", &ast, NULL));
    const NgJitExpr *t = ast->body.stmts[0]->body.stmts[0]->value;
    NgJitCallKind want[] = {NG_JIT_CALL_BUILTIN, NG_JIT_CALL_BUILTIN, NG_JIT_CALL_MATH, NG_JIT_CALL_NP_SCALAR,
                            NG_JIT_CALL_NP_REDUCE, NG_JIT_CALL_NP_REDUCE, NG_JIT_CALL_PRANGE, NG_JIT_CALL_PRANGE,
                            NG_JIT_CALL_HELPER, NG_JIT_CALL_METHOD, NG_JIT_CALL_NP_NEW, NG_JIT_CALL_OTHER,
                            NG_JIT_CALL_OTHER, NG_JIT_CALL_NP_REDUCE, NG_JIT_CALL_NP_REDUCE, NG_JIT_CALL_NP_REDUCE,
                            NG_JIT_CALL_OTHER, NG_JIT_CALL_OTHER, NG_JIT_CALL_NP_REDUCE, NG_JIT_CALL_OTHER,
                            NG_JIT_CALL_METHOD, NG_JIT_CALL_OTHER};
    CHECK_EQ_INT(22, t->nitems);
    for (int i = 0; i < t->nitems && i < 22; i++)
        CHECK_EQ_INT(want[i], ng_jit_call_kind(t->items[i]));
    ng_jit_ast_free(ast);
}

/* Every allocation that can fail does so cleanly: NG_ERR_NOMEM, nothing leaked
 * (the sanitizer build checks), then the same result once memory is back. */
static void test_alloc_failures(void)
{
    size_t len;
    char *src = ng_file_read("../shared/kernels/row_softmax.py", &len);
    const char *fallback = "def kernel(A, B, n):\n"
                           "    s = 0.0\n"
                           "    B = A\n"
                           "    for i in range(n):\n"
                           "        for j in range(n):\n"
                           "            A[i, j] = A[i, j - 1] + B[j, i]\n"
                           "            s += 1\n"
                           "    return s\n";
    const char *text = src ? src : fallback;
    NgJitAst *ast;
    CHECK_OK(ng_jit_parse(text, strlen(text), "t.py", &ast, NULL));
    const NgJitStmt *k = find_def(ast, "kernel");
    int failures = 0;
    for (long n = 1; n < 10000; n++) {
        NgJitLoops *loops = (NgJitLoops *)1;
        ng_alloc_fail_after(n);
        NgStatus st = ng_jit_analyze(ast, k, &loops);
        ng_alloc_fail_after(0);
        if (st == NG_OK) {
            CHECK(loops->n > 0);
            ng_jit_loops_free(loops);
            break;
        }
        failures++;
        if (!CHECK_EQ_INT(NG_ERR_NOMEM, st) || !CHECK(loops == NULL))
            break;
    }
    CHECK(failures > 0);
    ng_jit_ast_free(ast);
    ng_free(src);
}

/* A long function and a deep nest stay fast. */
static void test_size(void)
{
    NgStr src;
    ng_str_init(&src);
    ng_str_cat(&src, "def f(a, b, n):\n    s = 0\n");
    for (int i = 0; i < 300; i++)
        ng_str_catf(&src, "    for i in range(n):\n        a[i] = b[i + %d] * %d\n        s += a[i]\n", i, i);
    int depth = 60;
    for (int i = 0; i < depth; i++)
        ng_str_catf(&src, "%*sfor v%d in range(n):\n", 4 * (i + 1), "", i);
    ng_str_catf(&src, "%*sa[v0, v%d] = s\n", 4 * (depth + 1), "", depth - 1);
    ng_str_cat(&src, "    return s\n");
    NgJitAst *ast;
    NgJitLoops *loops;
    clock_t t0 = clock();
    CHECK_OK(ng_jit_parse(src.s, src.len, "t.py", &ast, NULL));
    CHECK_OK(ng_jit_analyze(ast, find_def(ast, "f"), &loops));
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK_EQ_INT(300 + depth, loops->n);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, loops->items[0].kind);
    CHECK_EQ_INT(1, loops->items[0].nreductions);
    CHECK_EQ_INT(NG_JIT_LOOP_PARALLEL, loops->items[300].kind);
    CHECK_EQ_INT(depth - 1, loops->items[300 + depth - 1].depth);
    CHECK(secs < 2.0);
    printf("size: %d loops analysed in %.3f s\n", loops->n, secs);
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    ng_str_free(&src);
}

/* The module src after ng_jit_desugar, printed (ast.c), or "ERROR msg". */
static const char *desugared(const char *src)
{
    static char buf[1 << 14];
    NgJitAst *ast;
    if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK || ng_jit_desugar(ast) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        return buf;
    }
    NgStr out;
    ng_str_init(&out);
    ng_jit_ast_print(ast, &out, 0);
    snprintf(buf, sizeof buf, "%s", out.s);
    ng_str_free(&out);
    ng_jit_ast_free(ast);
    return buf;
}

/* A loop body's slices, list comprehensions and np.zeros copied whole into
 * a part of an array become reads of the text and writes into the part
 * (desugar.c), only where nothing outside the body sees them. */
static void test_lets(void)
{
    const char *seed = "def f(data, d, L, X):\n"
                       "    for i in range(X.shape[0]):\n"
                       "        s = data[i * L:(i + 1) * L]\n"
                       "        ix = [d[c] for c in s]\n"
                       "        a = np.zeros((L, X.shape[2]))\n"
                       "        for j in range(L):\n"
                       "            a[j][ix[j]] = 1.0\n"
                       "        X[i] = a\n";
    /* the slice: its clamped start and length; the comprehension: a loop evaluating each
     * element for what it raises, the uses read d[data[...]]; the fresh array: the shape
     * check, the fill, the stores into X[i], the copy gone */
    CHECK_EQ_STR("(def f (data d L X)\n"
                 "  (for i (call range ([] (. X shape) 0))\n"
                 "    (= __ng_lo4 (call min (call max (ifexp (cmp (call __ng_slice_bound (* i L)) < 0) "
                 "(+ (call __ng_slice_bound (* i L)) (call len data)) (call __ng_slice_bound (* i L))) 0) "
                 "(call len data)))\n"
                 "    (= __ng_n4 (call max (- (call min (call max (ifexp (cmp (call __ng_slice_bound (* (+ i 1) L)) < 0) "
                 "(+ (call __ng_slice_bound (* (+ i 1) L)) (call len data)) (call __ng_slice_bound (* (+ i 1) L))) 0) "
                 "(call len data)) __ng_lo4) 0))\n"
                 "    (for __ng_c3 (call range __ng_n4)\n"
                 "      (expr ([] d ([] data (+ __ng_lo4 (call __ng_window __ng_c3 __ng_n4 (call len data)))))))\n"
                 "    (expr (call __ng_same_shape (. X ndim) 1 L ([] (. X shape) 2)))\n"
                 "    (for __ng_z1 (call range L)\n"
                 "      (for __ng_z2 (call range ([] (. X shape) 2))\n"
                 "        (= ([] ([] ([] X i) __ng_z1) __ng_z2) (call (. np float64) 0))))\n"
                 "    (for j (call range L)\n"
                 "      (= ([] ([] ([] X i) j) ([] d ([] data (+ __ng_lo4 (call __ng_window j __ng_n4 (call len data)))))) "
                 "(call (. np float64) 1.0)))))\n",
                 desugared(seed));
    CHECK_REPORT(seed, "line 2: parallel\n"
                       "  line 4: sequential: runs in one thread of the parallel loop at line 2\n"
                       "  line 5: sequential: runs in one thread of the parallel loop at line 2\n"
                       "    line 5: sequential: runs in one thread of the parallel loop at line 2\n"
                       "  line 6: sequential: runs in one thread of the parallel loop at line 2\n");
    /* what stops each rewrite: a read after the loop, a read before the copy, a jump past it */
    CHECK(strstr(desugared("def f(t, o):\n"
                           "    for i in range(3):\n"
                           "        w = t[i:i + 2]\n"
                           "        o[i] = len(w)\n"
                           "    return w\n"), "__ng_lo") == NULL);
    CHECK(strstr(desugared("def f(X):\n"
                           "    for i in range(3):\n"
                           "        a = np.zeros(4)\n"
                           "        a[0] = 1\n"
                           "        a[1] = a[0]\n"
                           "        X[i] = a\n"), "__ng_same_shape") == NULL);
    CHECK(strstr(desugared("def f(X):\n"
                           "    for i in range(3):\n"
                           "        a = np.zeros(4)\n"
                           "        if i:\n"
                           "            continue\n"
                           "        X[i] = a\n"), "__ng_same_shape") == NULL);
    CHECK(strstr(desugared("def f(t, d, o):\n"
                           "    for i in range(3):\n"
                           "        k = [d[c] for c in t if c]\n"
                           "        o[i] = k[0]\n"), "listcomp") != NULL); /* (a filter: length unknown) */
    CHECK(strstr(desugared("def f(t, d, o):\n"
                           "    for i in range(3):\n"
                           "        k = [d[c] for c in t]\n"
                           "        o[i] = k[0]\n"
                           "        d = 2\n"), "listcomp") != NULL); /* (d changes before the uses) */
    /* the same names in another function of the module do not count */
    CHECK(strstr(desugared("def g(w):\n"
                           "    return w\n"
                           "def f(t, o):\n"
                           "    for i in range(3):\n"
                           "        w = t[i:i + 2]\n"
                           "        o[i] = len(w)\n"), "__ng_lo") != NULL);
}

/* The true height of e (1 + its tallest child's), checked against the
 * height each node records. */
static int true_height(const NgJitExpr *e, bool *wrong)
{
    if (!e)
        return 0;
    int h = 0;
    const NgJitExpr *kids[3] = {e->lhs, e->rhs, e->cond};
    for (int k = 0; k < 3; k++) {
        int kh = true_height(kids[k], wrong);
        h = kh > h ? kh : h;
    }
    for (int i = 0; i < e->nitems; i++) {
        int kh = true_height(e->items[i], wrong);
        h = kh > h ? kh : h;
    }
    *wrong = *wrong || e->height != h + 1;
    return h + 1;
}

/* The tallest expression of block b; *wrong when a node's recorded height is not its own. */
static int tallest(NgJitBlock b, bool *wrong)
{
    int h = 0;
    for (int i = 0; i < b.n; i++) {
        const NgJitStmt *s = b.stmts[i];
        const NgJitExpr *parts[4] = {s->target, s->value, s->test, s->annotation};
        for (int k = 0; k < 4; k++) {
            int kh = true_height(parts[k], wrong);
            h = kh > h ? kh : h;
        }
        for (int k = 0; k < s->ntargets; k++) {
            int kh = true_height(s->targets[k], wrong);
            h = kh > h ? kh : h;
        }
        int bh = tallest(s->body, wrong), oh = tallest(s->orelse, wrong);
        h = bh > h ? bh : h;
        h = oh > h ? oh : h;
    }
    return h;
}

/* A loop of `k = [<m minus signs>c for c in t]` and a use `o[i] =
 * k[<n minus signs>i]`, desugared; *lets: whether the list was rewritten;
 * returns the tallest expression after. */
static int list_use_of_height(int m, int n, bool *lets, bool *wrong)
{
    NgStr src;
    ng_str_init(&src);
    ng_str_cat(&src, "def f(t, o):\n    for i in range(3):\n        k = [");
    for (int j = 0; j < m; j++)
        ng_str_cat(&src, "-");
    ng_str_cat(&src, "c for c in t]\n        o[i] = k[");
    for (int j = 0; j < n; j++)
        ng_str_cat(&src, "-");
    ng_str_cat(&src, "i]\n");
    NgJitAst *ast;
    int h = -1;
    if (ng_jit_parse(src.s, src.len, "t.py", &ast, NULL) == NG_OK) {
        if (ng_jit_desugar(ast) == NG_OK) {
            h = tallest(ast->body, wrong);
            *lets = ast->body.stmts[0]->body.stmts[0]->lets;
        }
        ng_jit_ast_free(ast);
    }
    ng_str_free(&src);
    return h;
}

/* A let whose rewrite would make an expression taller than the parser
 * allows, or copy without bound (nested uses), is left as written; the
 * loop's other lets are still rewritten. */
static void test_lets_capped(void)
{
    bool lets = false, wrong = false;
    /* k[x] becomes the element with c := t[x]: m + n + 2 high */
    CHECK_EQ_INT(NG_JIT_MAX_DEPTH, list_use_of_height(298, 300, &lets, &wrong));
    CHECK(lets && !wrong);
    CHECK_EQ_INT(302, list_use_of_height(299, 300, &lets, &wrong)); /* (o[i] = k[...], as written) */
    CHECK(!lets && !wrong);
    /* w[w[w[...w[0]...]]]: each use is three levels higher, base[lo + __ng_window(j, n, len(t))],
     * and holds a copy of the rewritten index inside it: past the rewrite's budget */
    NgStr src;
    ng_str_init(&src);
    ng_str_cat(&src, "def f(t, d, o):\n    for i in range(3):\n        k = [d[c] for c in t]\n"
                        "        w = t[1:]\n        o[i] = k[0] + ");
    for (int n = 0; n < 200; n++)
        ng_str_cat(&src, "w[");
    ng_str_cat(&src, "0");
    for (int n = 0; n < 200; n++)
        ng_str_cat(&src, "]");
    ng_str_cat(&src, "\n");
    const char *out = desugared(src.s);
    CHECK(strstr(out, "__ng_lo") == NULL);               /* (the slice kept) */
    CHECK(strstr(out, "listcomp") == NULL && strstr(out, "__ng_c") != NULL); /* (the list rewritten) */
    ng_str_free(&src);
}

/* The three loops of the scan at the first loop of module src's first function,
 * printed one after the other, or "ERROR ..." / "NOT A SCAN". */
static const char *scan_phases(const char *src)
{
    static char buf[1 << 13];
    NgJitAst *ast = NULL;
    NgJitLoops *loops = NULL;
    snprintf(buf, sizeof buf, "NOT A SCAN");
    if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK || ng_jit_desugar(ast) != NG_OK ||
        ng_jit_analyze(ast, ast->body.stmts[0], &loops) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
    } else if (loops->n && loops->items[0].scan) {
        NgJitStmt *ph[3];
        if (ng_jit_scan_phases(ast, &loops->items[0], ph) != NG_OK) {
            snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        } else {
            NgStr out;
            ng_str_init(&out);
            for (int i = 0; i < 3; i++) {
                ng_jit_stmt_print(ast, ph[i], &out);
                ng_str_cat(&out, "\n");
            }
            snprintf(buf, sizeof buf, "%s", out.s);
            ng_str_free(&out);
        }
    }
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    return buf;
}

/* Loops in order whose one carried dependence is a running combination: an
 * accumulator or an array recurrence (scan), their three loops. */
static void test_scans(void)
{
    CHECK_REPORT("def f(a):\n"
                 "    for i in range(1, a.shape[0]):\n"
                 "        a[i] += a[i - 1]\n",
                 "line 2: sequential scan(+): writes a[i], read as a[i - 1] in the next iteration (a scan: blocks of "
                 "iterations run in parallel, from the sums of the blocks before them)\n");
    CHECK_EQ_STR("(for __ng_b (call range __ng_nb)\n"
                 "  (= __ng_lo (* __ng_b (call max __ng_ch 0)))\n"
                 "  (= __ng_hi (call min __ng_n (+ __ng_lo __ng_ch)))\n"
                 "  (= __ng_st 1)\n"
                 "  (= __ng_p (- ([] a (- __ng_st 1)) ([] a (- __ng_st 1))))\n"
                 "  (for __ng_c (call range __ng_lo __ng_hi)\n"
                 "    (= i (+ __ng_st (* __ng_c 1)))\n"
                 "    (= __ng_p (+ ([] a i) __ng_p)))\n"
                 "  (= ([] __ng_part __ng_b) __ng_p))\n"
                 "(for __ng_b (call range __ng_nb)\n"
                 "  (if (cmp __ng_b == 0)\n"
                 "    (= __ng_s ([] a (- 1 1))))\n"
                 "  (if (cmp (* __ng_b __ng_ch) < __ng_n)\n"
                 "    (= __ng_t ([] __ng_part __ng_b))\n"
                 "    (= ([] __ng_part __ng_b) __ng_s)\n"
                 "    (= __ng_s (+ __ng_s __ng_t))))\n"
                 "(for __ng_b (call range __ng_nb)\n"
                 "  (= __ng_lo (* __ng_b (call max __ng_ch 0)))\n"
                 "  (= __ng_hi (call min __ng_n (+ __ng_lo __ng_ch)))\n"
                 "  (= __ng_st 1)\n"
                 "  (= __ng_s ([] __ng_part __ng_b))\n"
                 "  (for __ng_c (call range __ng_lo __ng_hi)\n"
                 "    (= i (+ __ng_st (* __ng_c 1)))\n"
                 "    (= __ng_s (+ ([] a i) __ng_s))\n"
                 "    (= ([] a i) __ng_s)))\n",
                 scan_phases("def f(a):\n"
                             "    for i in range(1, a.shape[0]):\n"
                             "        a[i] += a[i - 1]\n"));
    /* an accumulator read before and after its update, a name it reads, an update under an if */
    const char *acc = "def f(x, out):\n"
                      "    s = 0\n"
                      "    for i in range(x.shape[0]):\n"
                      "        out[i] = s\n"
                      "        v = x[i] * 2\n"
                      "        if v > 3:\n"
                      "            s = max(s, v)\n"
                      "        out[i] += s\n"
                      "    return s\n";
    CHECK_REPORT(acc, "line 3: sequential scan(max): reads s before assigning it, so it carries over from one "
                      "iteration to the next (a scan: blocks of iterations run in parallel, from the combined values "
                      "of the blocks before them)\n");
    CHECK_EQ_STR("(for __ng_b (call range __ng_nb)\n"
                 "  (= __ng_lo (* __ng_b (call max __ng_ch 0)))\n"
                 "  (= __ng_hi (call min __ng_n (+ __ng_lo __ng_ch)))\n"
                 "  (= __ng_st 0)\n"
                 "  (= __ng_p s)\n"
                 "  (for __ng_c (call range __ng_lo __ng_hi)\n"
                 "    (= i (+ __ng_st (* __ng_c 1)))\n"
                 "    (= v (* ([] x i) 2))\n"
                 "    (if (cmp v > 3)\n"
                 "      (= __ng_p (call max __ng_p v))))\n"
                 "  (= ([] __ng_part __ng_b) __ng_p))\n"
                 "(for __ng_b (call range __ng_nb)\n"
                 "  (if (cmp (* __ng_b __ng_ch) < __ng_n)\n"
                 "    (= __ng_t ([] __ng_part __ng_b))\n"
                 "    (= ([] __ng_part __ng_b) s)\n"
                 "    (= s (call max s __ng_t))))\n"
                 "(for __ng_b (call range __ng_nb)\n"
                 "  (= __ng_lo (* __ng_b (call max __ng_ch 0)))\n"
                 "  (= __ng_hi (call min __ng_n (+ __ng_lo __ng_ch)))\n"
                 "  (= __ng_st 0)\n"
                 "  (= s ([] __ng_part __ng_b))\n"
                 "  (for __ng_c (call range __ng_lo __ng_hi)\n"
                 "    (= i (+ __ng_st (* __ng_c 1)))\n"
                 "    (= ([] out i) s)\n"
                 "    (= v (* ([] x i) 2))\n"
                 "    (if (cmp v > 3)\n"
                 "      (= s (call max s v)))\n"
                 "    (+= ([] out i) s)))\n",
                 scan_phases(acc));
    /* a recurrence backwards, minus chains */
    CHECK(strstr(report("def f(x, out):\n"
                        "    for i in range(len(x) - 2, -1, -1):\n"
                        "        out[i] = x[i] + out[i + 1] - 3\n"), "scan(+)") != NULL);
    CHECK(strstr(scan_phases("def f(x, out):\n"
                             "    for i in range(len(x) - 2, -1, -1):\n"
                             "        out[i] = x[i] + out[i + 1] - 3\n"),
                 "(= __ng_p (- (+ ([] x i) __ng_p) 3))") != NULL);
    /* not scans: a recurrence that is not associative as written, two carried names, the
     * accumulator read by what the partial results need, a read of an array the loop writes,
     * a helper call, bounds with a walrus, a non-literal step, the loop variable read after */
    const char *nots[] = {
        "def f(x, out):\n    for i in range(1, len(x)):\n        out[i] = x[i] - out[i - 1]\n",
        "def f(x, out):\n    for i in range(1, len(x)):\n        out[i] = out[i - 1] * 2 + x[i]\n",
        "def f(x, out):\n    for i in range(1, len(x)):\n        out[i] = out[i - 2] + x[i]\n",
        "def f(x, out):\n    for i in range(1, len(x)):\n        out[i] = out[i - 1] + out[i - 1]\n",
        "def f(x, out):\n    s = 0\n    t = 0\n    for i in range(len(x)):\n        s += x[i]\n        t += s\n"
        "        out[i] = t\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        v = s + 1\n        s += x[i]\n"
        "        out[i] = v\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        out[i] = x[i]\n        s += out[i]\n"
        "        out[i] = s\n",
        "def g(v):\n    return v\ndef f(x, out):\n    s = 0\n    for i in range(len(x)):\n        s += g(x[i])\n"
        "        out[i] = s\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        s = s * 2 + x[i]\n        out[i] = s\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        s += x[i]\n        if s > 4:\n"
        "            s = 0\n        out[i] = s\n",
        "def f(x, out, n):\n    s = 0\n    for i in range(1, (k := n)):\n        s += x[i]\n        out[i] = s\n",
        "def f(x, out, d):\n    s = 0\n    for i in range(0, len(x), d):\n        s += x[i]\n        out[i] = s\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        s += x[i]\n        out[i] = s\n"
        "    return i\n",
        "def f(x, out):\n    s = 0\n    for i in range(len(x)):\n        s += x[i]\n        out[i % 4] = s\n",
    };
    for (size_t i = 0; i < sizeof nots / sizeof *nots; i++)
        if (!CHECK(strstr(report(nots[i]), "scan") == NULL))
            fprintf(stderr, "  (case %zu)\n%s", i, report(nots[i]));
    /* a scan inside a parallel loop runs in its one thread: no scan there */
    CHECK(strstr(report("def f(X):\n"
                        "    for r in range(X.shape[0]):\n"
                        "        for i in range(1, X.shape[1]):\n"
                        "            X[r, i] += X[r, i - 1]\n"), "scan") == NULL);
}

/* Stream compactions: k counts the stores at index k (a scan of k whose phase 0 leaves the
 * stores out), and the forms that stay in order. */
static void test_compactions(void)
{
    const char *comp = "def f(x, out):\n"
                       "    k = 0\n"
                       "    for i in range(len(x)):\n"
                       "        if x[i] > 0:\n"
                       "            out[k] = x[i]\n"
                       "            k += 1\n"
                       "        elif x[i] < -1:\n"
                       "            out[k] = i\n"
                       "            out[k + 1] = x[i]\n"
                       "            k += 2\n"
                       "    return k\n";
    CHECK_REPORT(comp, "line 3: sequential scan(+) compact: reads k before assigning it, so it carries over from one "
                       "iteration to the next (a compaction: k counts the stores at index k, which never meet; blocks "
                       "of iterations run in parallel, each from the count of the blocks before it)\n");
    /* phase 0 counts (the stores left out), phase 2 runs the body from the block's start */
    const char *ph = scan_phases(comp);
    CHECK(strstr(ph, "  (= __ng_p (- k k))\n"
                     "  (for __ng_c (call range __ng_lo __ng_hi)\n"
                     "    (= i (+ __ng_st (* __ng_c 1)))\n"
                     "    (if (cmp ([] x i) > 0)\n"
                     "      (+= __ng_p 1)\n"
                     "      (else\n"
                     "        (if (cmp ([] x i) < (- 1))\n"
                     "          (+= __ng_p 2)))))\n"
                     "  (= ([] __ng_part __ng_b) __ng_p))\n") != NULL);
    CHECK(strstr(ph, "  (= k ([] __ng_part __ng_b))\n") != NULL);
    CHECK(strstr(ph, "(= ([] out (+ k 1)) ([] x i))") != NULL);
    if (!CHECK(strstr(ph, "(= ([] out k) ([] x i))") != NULL))
        fprintf(stderr, "%s", ph);
    /* compactions: unconditional, rows of a 2-d array, two arrays and stores at i beside */
    const char *yes[] = {
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        out[k] = x[i] * 2\n        k += 1\n"
        "    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k, 0] = x[i]\n"
        "            out[k, 1] = i\n            k += 1\n    return k\n",
        "def f(x, idx, val, y):\n    k = 0\n    for i in range(len(x)):\n        y[i] = x[i]\n"
        "        if x[i] > 0:\n            v = x[i] + k\n            idx[k] = i\n            val[k] = v\n"
        "            k += 1\n        else:\n            val[k + 2] = 0\n            k += 3\n    return k\n",
        /* (a continue first: `if not x[i] <= 0: ...`, in the module's first loop too) */
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] <= 0:\n            continue\n"
        "        out[k] = x[i]\n        k += 1\n    return k\n",
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!CHECK(strstr(report(yes[i]), "scan(+) compact") != NULL))
            fprintf(stderr, "  (case %zu)\n%s", i, report(yes[i]));
    /* in order: k decreasing, a variable increment, out read back, 2 * k, a store after the
     * increment or outside its branch, k + c past the increment, out stored at i too, a branch
     * without an increment, a helper's value, a view stored at k, the test reading k */
    const char *nots[] = {
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k] = x[i]\n"
        "            k -= 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k] = i\n"
        "            k += x[i]\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n"
        "            out[k] = x[i] + out[0]\n            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[2 * k] = x[i]\n"
        "            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            k += 1\n"
        "            out[k] = x[i]\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        out[k] = x[i]\n        if x[i] > 0:\n"
        "            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k + 1] = x[i]\n"
        "            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k] = x[i]\n"
        "            k += 1\n        out[i] = 0\n    return k\n",
        "def f(x, out, o):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k] = x[i]\n"
        "            k += 1\n        else:\n            o[i] = 1\n    return k\n",
        "def g(v):\n    return v\ndef f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n"
        "            out[k] = g(x[i])\n            k += 1\n    return k\n",
        "def f(x, X):\n    k = 0\n    for i in range(len(x)):\n        row = X[0]\n        if x[i] > 0:\n"
        "            row[k] = x[i]\n            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > k:\n            out[k] = x[i]\n"
        "            k += 1\n    return k\n",
        "def f(x, out):\n    k = 0\n    for i in range(len(x)):\n        if x[i] > 0:\n            out[k] = x[k]\n"
        "            k += 1\n    return k\n",
    };
    for (size_t i = 0; i < sizeof nots / sizeof *nots; i++)
        if (!CHECK(strstr(report(nots[i]), "scan") == NULL))
            fprintf(stderr, "  (case %zu)\n%s", i, report(nots[i]));
}

/* Small arrays a loop body makes, `a = np.zeros(3)`: the iteration's own where it makes them
 * before every mention (in the body or in a block of it), else a write through them is one
 * through a name the loop assigns; the call only in that form, of a length written as a number. */
/* ng_jit_sizes_array of the first loop of src's f: true for each name in `yes` (separated by
 * spaces), false for each in `no`; and the loop compiles in parallel. */
static void check_sizes(const char *src, const char *yes, const char *no)
{
    NgJitAst *ast;
    CHECK_OK(ng_jit_parse(src, strlen(src), "t.py", &ast, NULL));
    const NgJitStmt *loop = find_def(ast, "f")->body.stmts[0];
    for (int want = 1; want >= 0; want--) {
        char names[64];
        snprintf(names, sizeof names, "%s", want ? yes : no);
        for (char *save, *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save))
            check_true(ng_jit_sizes_array(loop, n) == want, n, __FILE__, __LINE__);
    }
    CHECK_REPORT(src, "line 2: parallel\n");
    ng_jit_ast_free(ast);
}

/* The reason a small array's shape does not compile (after its call's text). */
#define SHAPE_REASON                                                                                          \
    ", whose shape is not written as lengths (up to 4 of them: numbers, ints bound before the loop, "          \
    "x.shape[k], len(x), and + - * // % of them) of 1 to 256 elements in all (not compilable)\n"

static void test_new_arrays(void)
{
    CHECK_REPORT("def f(p, v, m):\n"
                 "    for i in range(p.shape[0]):\n"
                 "        a = np.zeros(3)\n"
                 "        for j in range(p.shape[0]):\n"
                 "            a += m[j] * (p[j] - p[i])\n"
                 "        v[i] += a\n",
                 "line 2: parallel\n"
                 "  line 4: sequential: runs in one thread of the parallel loop at line 2\n");
    CHECK_REPORT("def f(X, out):\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            a = np.full(2, 1.0, dtype=np.float32)\n"
                 "            a[j % 2] = X[i, j]\n"
                 "            out[i, j] = a[0]\n",
                 "line 2: parallel\n"
                 "  line 3: parallel collapsed\n");
    CHECK_REPORT("def f(x, out):\n"
                 "    for i in range(x.shape[0]):\n"
                 "        if x[i] > 0:\n"
                 "            a = np.zeros(2)\n"
                 "        a[0] = x[i]\n"
                 "        out[i] = a[0]\n",
                 "line 2: sequential: reads a before assigning it, so it carries over from one iteration to the next\n");
    CHECK_REPORT("def f(x, out):\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(2)\n"
                 "        b = a\n"
                 "        b[0] = x[i]\n",
                 "line 2: sequential: writes b[0] through b, which the loop assigns (the array it refers to is not "
                 "known)\n");
    /* a view of an array the body makes afresh writes that array (its own); x.dtype reads no element */
    CHECK_REPORT("def f(x, out):\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros((2, 3), out.dtype)\n"
                 "        r = a[1]\n"
                 "        r[0] = x[i]\n"
                 "        out[i] = a\n"
                 "    for i in range(x.shape[0]):\n"
                 "        r = out[0]\n"
                 "        r[i] = x[i]\n",
                 "line 2: parallel\n"
                 "line 7: sequential: writes r[i], read as out[0], possibly in another iteration\n");
    CHECK_REPORT("def f(x, n, out):\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(n / 2)\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(257)\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(3, order='F')\n"
                 "    for i in range(x.shape[0]):\n"
                 "        out[i] = np.zeros(3)[0]\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(3, dtype=x.dtype.type)\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros((16, 17))\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.ones((2, 0), np.int32)\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros((2, n))\n"
                 "        b = np.zeros(n)\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros((1, 2, 1, 2, 1))\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.full((16, 16), 2.0)\n"
                 "        a = np.zeros((2, 3, 2, 2))\n"
                 "    for i in range(x.shape[0]):\n"
                 "        a = np.zeros(x.shape[i])\n",
                 "line 2: python: line 3 makes an array, np.zeros(n / 2)" SHAPE_REASON
                 "line 4: python: line 5 makes an array, np.zeros(257)" SHAPE_REASON
                 "line 6: python: line 7 calls np.zeros with arguments other than (n[, dtype]) (not compilable)\n"
                 "line 8: python: line 9 calls np.zeros other than as `name = np.zeros(n)` in a loop's body (not "
                 "compilable)\n"
                 "line 10: python: line 11 makes an array of dtype x.dtype.type (only np.<dtype>, a builtin type, a string or "
                 "x.dtype compile)\n"
                 "line 12: python: line 13 makes an array, np.zeros((16, 17))" SHAPE_REASON
                 "line 14: python: line 15 makes an array, np.ones((2, 0), np.int32)" SHAPE_REASON
                 "line 16: parallel\n"
                 "line 19: python: line 20 makes an array, np.zeros((1, 2, 1, 2, 1))" SHAPE_REASON
                 "line 21: parallel\n"
                 "line 24: python: line 25 makes an array, np.zeros(x.shape[i])" SHAPE_REASON);
    /* the names whose values the kernel is made for: lengths of small arrays, in any block */
    check_sizes("def f(x, n, m, k, out):\n"
                "    for i in range(x.shape[0]):\n"
                "        if x[i] > 0:\n"
                "            a = np.zeros((2, n))\n"
                "            a[0, 0] = x[i] * k\n"
                "        b = np.full(m, 1.5)\n"
                "        out[i] = k + len(b)\n",
                "n m", "k x i");
    /* lengths written as expressions: their names, and the arrays whose axes they measure */
    check_sizes("def f(X, y, n, k, out):\n"
                "    for i in range(X.shape[0]):\n"
                "        a = np.zeros((X.shape[-1] + 1, (n - 1) // 2))\n"
                "        b = np.ones(len(y) * 2 % 7)\n"
                "        out[i] = a[0, 0] + b[0] + k\n",
                "X y n", "k out");
    /* copies and arrays like a part: their arrays' shapes (through a local naming a part too) */
    check_sizes("def f(X, Y, Z, w, out):\n"
                "    for i in range(X.shape[0]):\n"
                "        a = X[i].copy()\n"
                "        r = Y[i]\n"
                "        b = np.zeros_like(r[:, 0], dtype=np.int32)\n"
                "        c = np.full_like(a, 2.0)\n"
                "        d = np.copy(c)\n"
                "        a[0] += b[0] + d[0] + w\n"
                "        out[i] = a[0]\n",
                "X Y r", "Z w out");
    CHECK_REPORT("def f(X, out):\n"
                 "    for i in range(X.shape[0]):\n"
                 "        out[i] = X[i].copy()[0]\n"
                 "    for i in range(X.shape[0]):\n"
                 "        a = X[i, 1:].copy()\n"
                 "    for i in range(X.shape[0]):\n"
                 "        a = np.ones_like(X[i], np.int8, order='C')\n"
                 "    for i in range(X.shape[0]):\n"
                 "        a = X[i].copy('F')\n"
                 "    for i in range(X.shape[0]):\n"
                 "        a = np.zeros((2, 2))\n"
                 "        a[0, 0] = X[i, 0]\n"
                 "        b = np.zeros(2, a.dtype)\n"
                 "        out[i] = a[0, 0] + b[0]\n",
                 "line 2: python: line 3 calls X[i].copy other than as `name = X[i].copy(...)` in a loop's body (not "
                 "compilable)\n"
                 "line 4: python: line 5 calls X[i, 1:].copy other than on an array or a part of one (x[i], x[:, j]: "
                 "indices and whole axes) (not compilable)\n"
                 "line 6: python: line 7 calls np.ones_like with arguments other than (x[, dtype]) (not compilable)\n"
                 "line 8: python: line 9 calls X[i].copy with arguments other than () (not compilable)\n"
                 "line 10: parallel\n");
}

/* The reductions' flags of f's first loop: `late` (max/min whose first argument is not the
 * scalar) and `ties_last` (`if e >= s`), as "name:late:last ...", ":fresh" after a fresh one's */
static const char *red_flags(const char *src)
{
    static char buf[512];
    NgJitAst *ast;
    NgJitLoops *loops;
    buf[0] = 0;
    if (ng_jit_parse(src, strlen(src), "t.py", &ast, NULL) != NG_OK || ng_jit_desugar(ast) != NG_OK)
        return "ERROR";
    if (ng_jit_analyze(ast, find_def(ast, "f"), &loops) != NG_OK) {
        ng_jit_ast_free(ast);
        return "ERROR";
    }
    for (int i = 0; loops->n && i < loops->items[0].nreductions; i++) {
        const NgJitReduction *r = &loops->items[0].reductions[i];
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s:%d:%d%s", n ? " " : "", r->name, r->late, r->ties_last,
                 r->fresh ? ":fresh" : "");
    }
    ng_jit_loops_free(loops);
    ng_jit_ast_free(ast);
    return buf;
}

/* Hunt 7: max(e, s) is marked late (the lowering runs a float one in order); `>=` keeps the
 * last of equal values; the hand-written argmax and a loop over a tuple written in place
 * compile. */
/* The seventh hunt's P02 forms (desugar.c): a tuple bound to a local, reductions of a generator
 * expression over a range, a continue before a search's test, enumerate(zip()) unpacked. */
static void test_frontend2(void)
{
    CHECK_EQ_STR("(def f (x o)\n"
                 "  (for i (call range (call len x))\n"
                 "    (= (tuple __ng_tup_t_0 __ng_tup_t_1) (tuple ([] x i) (* 2 ([] x i))))\n"
                 "    (= (tuple a b) (tuple __ng_tup_t_0 __ng_tup_t_1))\n"
                 "    (= ([] o i) (+ (+ a __ng_tup_t_1) 2))))\n",
                 desugared("def f(x, o):\n"
                           "    for i in range(len(x)):\n"
                           "        t = (x[i], 2 * x[i])\n"
                           "        a, b = t\n"
                           "        o[i] = a + t[-1] + len(t)\n"));
    /* (a tuple read after the loop, or read whole, stays) */
    CHECK(strstr(desugared("def f(x, o):\n"
                           "    for i in range(len(x)):\n"
                           "        t = (x[i], 1)\n"
                           "    return t\n"), "__ng_tup") == NULL);
    CHECK(strstr(desugared("def f(x, o):\n"
                           "    for i in range(len(x)):\n"
                           "        t = (x[i], 1)\n"
                           "        o[i] = g(t)\n"), "__ng_tup") == NULL);
    CHECK_EQ_STR("(def f (X o)\n"
                 "  (for i (call range ([] (. X shape) 0))\n"
                 "    (= __ng_g1 0)\n"
                 "    (for __ng_v1 (call range ([] (. X shape) 1))\n"
                 "      (if (cmp ([] X (tuple i __ng_v1)) > 0)\n"
                 "        (+= __ng_g1 (call sum (= __ng_item ([] X (tuple i __ng_v1)))))))\n"
                 "    (= ([] o i) __ng_g1)))\n",
                 desugared("def f(X, o):\n"
                           "    for i in range(X.shape[0]):\n"
                           "        o[i] = sum(X[i, j] for j in range(X.shape[1]) if X[i, j] > 0)\n"));
    CHECK_EQ_STR("(def f (X o)\n"
                 "  (for i (call range ([] (. X shape) 0))\n"
                 "    (= __ng_e1 (call max (= __ng_empty (cmp 1 >= 9))))\n"
                 "    (= __ng_g1 ([] X (tuple i 1)))\n"
                 "    (for __ng_v1 (call range (+ 1 2) 9 2)\n"
                 "      (= __ng_g1 (call max __ng_g1 ([] X (tuple i __ng_v1)))))\n"
                 "    (= __ng_g2 False)\n"
                 "    (for __ng_v2 (call range 3)\n"
                 "      (if (call any (= __ng_item ([] X (tuple i __ng_v2))))\n"
                 "        (= __ng_g2 True)\n"
                 "        (break)))\n"
                 "    (= ([] o i) (+ __ng_g1 __ng_g2))))\n",
                 desugared("def f(X, o):\n"
                           "    for i in range(X.shape[0]):\n"
                           "        o[i] = max(X[i, j] for j in range(1, 9, 2)) + any(X[i, j] for j in range(3))\n"));
    /* (under `and`, or a min with an `if`: left as written) */
    CHECK(strstr(desugared("def f(X, o):\n"
                           "    for i in range(X.shape[0]):\n"
                           "        o[i] = X[i, 0] and sum(X[i, j] for j in range(3))\n"), "__ng_g") == NULL);
    CHECK(strstr(desugared("def f(X, o):\n"
                           "    for i in range(X.shape[0]):\n"
                           "        o[i] = min(X[i, j] for j in range(3) if X[i, j])\n"), "__ng_g") == NULL);
    const char *search = "def f(x, t):\n"
                         "    for i in range(len(x)):\n"
                         "        if x[i] < 0:\n"
                         "            continue\n"
                         "        if x[i] > t:\n"
                         "            return i\n"
                         "    return -1\n";
    CHECK(strstr(desugared(search), "(if (and (not (cmp ([] x i) < 0)) (cmp ([] x i) > t))") != NULL);
    CHECK_REPORT(search, "line 2: sequential search: returns from inside it (a search: the iteration that returns is "
                         "found in parallel, then runs in order)\n");
    CHECK_EQ_STR("(def f (a b o)\n"
                 "  (for k (call range (call min (call len a) (call len b)))\n"
                 "    (= p ([] a k))\n"
                 "    (= q ([] b k))\n"
                 "    (= ([] o k) (* p q))))\n",
                 desugared("def f(a, b, o):\n"
                           "    for k, (p, q) in enumerate(zip(a, b)):\n"
                           "        o[k] = p * q\n"));
}

static void test_hunt7(void)
{
    CHECK_EQ_STR("a:1:0 b:0:0 c:1:0 d:0:1 e:0:0",
                 red_flags("def f(x, n):\n"
                           "    a = b = c = d = e = 0.0\n"
                           "    for i in range(n):\n"
                           "        a = max(x[i], a)\n"
                           "        b = max(b, x[i], 0.0)\n"
                           "        c = min(2 * x[i], c, x[i])\n"
                           "        if x[i] >= d:\n"
                           "            d = x[i]\n"
                           "        if e < x[i]:\n"
                           "            e = x[i]\n"
                           "    return a, b, c, d, e\n"));
    CHECK_REPORT("def f(x):\n"
                 "    bi = 0\n"
                 "    for i in range(len(x)):\n"
                 "        if x[i] > x[bi]:\n"
                 "            bi = i\n"
                 "    return bi\n",
                 "line 3: parallel reduce(argmax:bi) reduce(max:__ng_best1)\n");
    CHECK_REPORT("def f(x):\n"
                 "    bi = 0\n"
                 "    for i in range(len(x)):\n"
                 "        if x[bi] >= x[i]:\n"
                 "            bi = i\n"
                 "    return bi\n",
                 "line 3: parallel reduce(argmin:bi) reduce(min:__ng_best1)\n");
    /* bi read elsewhere, or x written: as before */
    CHECK_REPORT("def f(x, out):\n"
                 "    bi = 0\n"
                 "    for i in range(len(x)):\n"
                 "        if x[i] > x[bi]:\n"
                 "            bi = i\n"
                 "        out[i] = bi\n"
                 "    return bi\n",
                 "line 3: sequential: reads bi before assigning it, so it carries over from one iteration to the next\n");
    CHECK_REPORT("def f(x, n):\n"
                 "    s = 0.0\n"
                 "    for i in range(1, n - 1):\n"
                 "        for d in (-1, 0, 1):\n"
                 "            s += x[i + d]\n"
                 "    return s\n",
                 "line 3: parallel reduce(+:s)\n"
                 "  line 4: parallel reduce(+:s) collapsed\n");
}

/* More reductions: a max/min by a conditional expression (late where it takes e when the test
 * fails, ties_last where an equal e is taken), an argmin under a second condition. */
/* A name assigned in the loop and read after it (desugar.c last_values): the names of one run
 * of assignments go under an argmax on a constant key whose ties go to the last iteration, so
 * the loop is parallel; read before it is assigned, a value with effects (random numbers), two
 * runs, a break, an argmax of the source's beside it: in order. Not read after the loop, or
 * constants and the loop variable (fresh reductions): as before. */
static void test_last_values(void)
{
    CHECK_REPORT("def f(x, out):\n"
                 "    t = -1.0\n"
                 "    for i in range(x.shape[0]):\n"
                 "        out[i] = 2 * x[i]\n"
                 "        if x[i] > 0.5:\n"
                 "            t = x[i]\n"
                 "            j = i * 2\n"
                 "    for i in range(x.shape[0] - 1, -1, -1):\n"
                 "        u = x[i] * 3\n"
                 "    return t, j, u\n",
                 "line 3: parallel reduce(argmax:t) reduce(argmax:j) reduce(max:__ng_last1)\n"
                 "line 8: parallel reduce(argmax:u) reduce(max:__ng_last2)\n");
    CHECK_EQ_STR("(def f (x)\n"
                 "  (= t 0)\n"
                 "  (for i (call range n)\n"
                 "    (if (cmp ([] x i) > 0)\n"
                 "      (if (cmp 0 >= __ng_last1)\n"
                 "        (= __ng_last1 0)\n"
                 "        (= t ([] x i)))))\n"
                 "  (return t))\n",
                 desugared("def f(x):\n"
                           "    t = 0\n"
                           "    for i in range(n):\n"
                           "        if x[i] > 0:\n"
                           "            t = x[i]\n"
                           "    return t\n"));
    /* 2-d: the outer loop takes it (the iteration's rank), the inner one runs in it */
    CHECK_REPORT("def f(X):\n"
                 "    t = 0.0\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            if X[i, j] > 0:\n"
                 "                t = X[i, j]\n"
                 "    return t\n",
                 "line 3: parallel reduce(argmax:t) reduce(max:__ng_last1)\n"
                 "  line 4: parallel reduce(argmax:t) reduce(max:__ng_last1) collapsed\n");
    CHECK_REPORT("def f(x, n):\n"
                 "    t = 0.0\n"
                 "    for i in range(n):\n"
                 "        x[i] = t\n"
                 "        t = x[i] + 1\n"
                 "    for i in range(n):\n"
                 "        u = np.random.random()\n"
                 "    for i in range(n):\n"
                 "        if x[i] > 0:\n"
                 "            v = x[i]\n"
                 "        else:\n"
                 "            v = -x[i]\n"
                 "    for i in range(n):\n"
                 "        w = x[i]\n"
                 "        if w > 3:\n"
                 "            break\n"
                 "    best = 0.0\n"
                 "    for i in range(n):\n"
                 "        if x[i] > best:\n"
                 "            best = x[i]\n"
                 "        y = x[i] * 2\n"
                 "    for i in range(n):\n"
                 "        z = x[i] * 2\n"
                 "        x[i] = z\n"
                 "    for i in range(n):\n"
                 "        if x[i] > 0:\n"
                 "            found = True\n"
                 "            last = i + 1\n"
                 "    return t, u, v, w, best, y, found, last\n",
                 "line 3: sequential: reads t before assigning it, so it carries over from one iteration to the next\n"
                 "line 6: sequential: assigns u, which is read after the loop\n"
                 "line 8: sequential: assigns v, which is read after the loop\n"
                 "line 13: sequential search: contains break (a search: the iteration that breaks is found in parallel, then runs in order)\n"
                 "line 18: sequential: assigns y, which is read after the loop\n"
                 "line 22: parallel\n"
                 "line 25: parallel reduce(|:found) reduce(max:last)\n");
}

static void test_reductions2(void)
{
    CHECK_EQ_STR("a:0:0 b:0:1 c:0:0 d:1:1 e:1:0 g:0:0",
                 red_flags("def f(x, n):\n"
                           "    a = b = c = d = e = g = 0.0\n"
                           "    for i in range(n):\n"
                           "        a = x[i] if x[i] > a else a\n"
                           "        b = x[i] if b <= x[i] else b\n"
                           "        c = x[i] if x[i] < c else c\n"
                           "        d = d if d > x[i] else x[i]\n"
                           "        e = e if x[i] <= e else x[i]\n"
                           "        g = x[i] + 1 if g > x[i] + 1 else g\n"
                           "    return a, b, c, d, e, g\n"));
    CHECK_REPORT("def f(x, n):\n"
                 "    a = b = c = d = e = g = 0.0\n"
                 "    for i in range(n):\n"
                 "        a = x[i] if x[i] > a else a\n"
                 "        b = x[i] if b <= x[i] else b\n"
                 "        c = x[i] if x[i] < c else c\n"
                 "        d = d if d > x[i] else x[i]\n"
                 "        e = e if x[i] <= e else x[i]\n"
                 "        g = x[i] + 1 if g > x[i] + 1 else g\n"
                 "    return a, b, c, d, e, g\n",
                 "line 3: parallel reduce(max:a) reduce(max:b) reduce(min:c) reduce(max:d) reduce(max:e) "
                 "reduce(min:g)\n");
    /* not a max: the other operand, s read elsewhere, a chained test */
    CHECK_REPORT("def f(x, y, n):\n"
                 "    m = 0.0\n"
                 "    for i in range(n):\n"
                 "        m = y[i] if x[i] > m else m\n"
                 "    return m\n",
                 "line 3: sequential: reads m before assigning it, so it carries over from one iteration to the next\n");
    CHECK_REPORT("def f(x, n):\n"
                 "    m = 0.0\n"
                 "    for i in range(n):\n"
                 "        m = x[i] if x[i] > m else m + 1\n"
                 "    return m\n",
                 "line 3: sequential: reads m before assigning it, so it carries over from one iteration to the next\n");
    CHECK_REPORT("def f(x, n):\n"
                 "    m = 0.0\n"
                 "    for i in range(n):\n"
                 "        m = x[i] if 0 < x[i] > m else m\n"
                 "    return m\n",
                 "line 3: sequential: reads m before assigning it, so it carries over from one iteration to the next\n");
    /* e drawn twice (random, or a helper that draws): not a max; a pure helper is */
    CHECK_REPORT("import random\n"
                 "def sq(v):\n"
                 "    return v * v\n"
                 "def noise(v):\n"
                 "    return v + random.random()\n"
                 "def f(x, n):\n"
                 "    a = b = c = 0.0\n"
                 "    for i in range(n):\n"
                 "        a = sq(x[i]) if sq(x[i]) > a else a\n"
                 "    for i in range(n):\n"
                 "        b = random.random() if random.random() > b else b\n"
                 "    for i in range(n):\n"
                 "        if noise(x[i]) > c:\n"
                 "            c = noise(x[i])\n"
                 "    return a, b, c\n",
                 "line 8: parallel reduce(max:a)\n"
                 "line 10: sequential: reads b before assigning it, so it carries over from one iteration to the next\n"
                 "line 12: sequential: reads c before assigning it, so it carries over from one iteration to the next\n");
    /* Dijkstra's selection, the condition either side of `and` */
    CHECK_REPORT("def f(dist, done):\n"
                 "    u = -1\n"
                 "    best = 1e300\n"
                 "    for i in range(len(dist)):\n"
                 "        if not done[i] and dist[i] < best:\n"
                 "            best = dist[i]\n"
                 "            u = i\n"
                 "    return u\n",
                 "line 4: parallel reduce(argmin:u) reduce(min:best)\n");
    CHECK_REPORT("def f(x, lo):\n"
                 "    k = -1\n"
                 "    bv = lo\n"
                 "    for i in range(len(x)):\n"
                 "        if bv < x[i] and x[i] != 3:\n"
                 "            bv = x[i]\n"
                 "            k = i\n"
                 "    return k, bv\n",
                 "line 4: parallel reduce(argmax:k) reduce(max:bv)\n");
    /* a flag, a constant, the last index: the value of the last iteration that assigns it */
    CHECK_REPORT("def f(g, x, n):\n"
                 "    changed = False\n"
                 "    ok = True\n"
                 "    found = 0\n"
                 "    last = -1\n"
                 "    end = 0\n"
                 "    back = n\n"
                 "    for i in range(n):\n"
                 "        if g[i] < 0:\n"
                 "            g[i] = 0\n"
                 "            changed = True\n"
                 "            last = i\n"
                 "        if g[i] > 5:\n"
                 "            ok = False\n"
                 "            found = -1\n"
                 "            end = 1 + i\n"
                 "    for i in range(n, 0, -1):\n"
                 "        if x[i] > 0:\n"
                 "            back = i - 1\n"
                 "    return changed, ok, found, last, end, back\n",
                 "line 8: parallel reduce(|:changed) reduce(&:ok) reduce(max:found) reduce(max:last) reduce(max:end)\n"
                 "line 17: parallel reduce(min:back)\n");
    CHECK_EQ_STR("changed:0:0:fresh s:0:0",
                 red_flags("def f(g, n):\n"
                           "    changed = False\n"
                           "    s = 0\n"
                           "    for i in range(n):\n"
                           "        for j in range(n):\n"
                           "            if g[i, j] < 0:\n"
                           "                g[i, j] = 0\n"
                           "                changed = True\n"
                           "            s += g[i, j]\n"
                           "    return changed, s\n"));
    /* two values, a value that does not grow, a step not known, read in the loop: in order */
    CHECK_REPORT("def f(x, n, s):\n"
                 "    a = b = c = d = e = 0\n"
                 "    for i in range(n):\n"
                 "        if x[i] > 0:\n"
                 "            a = i\n"
                 "        else:\n"
                 "            a = i + 1\n"
                 "    for i in range(n):\n"
                 "        if x[i] > 0:\n"
                 "            b = 2 * i\n"
                 "    for i in range(0, n, s):\n"
                 "        if x[i] > 0:\n"
                 "            c = i\n"
                 "    for i in range(n):\n"
                 "        if x[i] > 0:\n"
                 "            d = i\n"
                 "        x[i] = d\n"
                 "    for i in range(n):\n"
                 "        e = x[i]\n"
                 "    return a, b, c, d, e\n",
                 "line 3: sequential: assigns a, which is read after the loop\n"
                 "line 8: parallel reduce(argmax:b) reduce(max:__ng_last1)\n"
                 "line 11: sequential: assigns c, which is read after the loop\n"
                 "line 14: sequential: reads d before assigning it, so it carries over from one iteration to the next\n"
                 "line 18: parallel reduce(argmax:e) reduce(max:__ng_last2)\n");
    /* a max or min into an element by comparison: atomic */
    CHECK_REPORT("def f(X, out, lo):\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            if X[i, j] > out[j]:\n"
                 "                out[j] = X[i, j]\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            lo[j] = min(lo[j], X[i, j])\n",
                 "line 2: parallel atomic(out)\n"
                 "  line 3: parallel collapsed\n"
                 "line 6: parallel atomic(lo)\n"
                 "  line 7: parallel collapsed\n");
    /* max and min into one array, >=, the array read elsewhere, min(e, a[j]), a += too: in order */
    CHECK_REPORT("def f(X, out, a, b, c):\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            if X[i, j] > out[j]:\n"
                 "                out[j] = X[i, j]\n"
                 "            if X[i, j] < out[j]:\n"
                 "                out[j] = X[i, j]\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            if X[i, j] >= a[j]:\n"
                 "                a[j] = X[i, j]\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            if X[i, j] > b[j]:\n"
                 "                b[j] = X[i, j] + b[0]\n"
                 "    for i in range(X.shape[0]):\n"
                 "        for j in range(X.shape[1]):\n"
                 "            c[j] = min(X[i, j], c[j])\n"
                 "            c[j] += 1\n",
                 "line 2: sequential host: writes out[j], which may be the same element in different iterations\n"
                 "  line 3: parallel\n"
                 "line 8: sequential host: writes a[j], which may be the same element in different iterations\n"
                 "  line 9: parallel\n"
                 "line 12: sequential: writes b[j], which may be the same element in different iterations\n"
                 "  line 13: sequential: writes b[j], read as b[0], possibly in another iteration; in order, in three "
                 "parts around j = 0 (a launch per iteration of the loops around it would do too little work)\n"
                 "line 16: sequential host: writes c[j], which may be the same element in different iterations\n"
                 "  line 17: parallel\n");
    /* the other condition reads a name of the group: in order */
    CHECK_REPORT("def f(dist, done):\n"
                 "    u = -1\n"
                 "    best = 1e300\n"
                 "    for i in range(len(dist)):\n"
                 "        if u < 5 and dist[i] < best:\n"
                 "            best = dist[i]\n"
                 "            u = i\n"
                 "    return u\n",
                 "line 4: sequential: reads u before assigning it, so it carries over from one iteration to the "
                 "next\n");
}

int main(void)
{
    test_corpus();
    test_corpus_reports();
    test_unsafe();
    test_subscripts();
    test_scalars();
    test_assumed_scalars();
    test_atomics();
    test_nests();
    test_prange();
    test_python();
    test_api();
    test_alloc_failures();
    test_size();
    test_lets();
    test_lets_capped();
    test_scans();
    test_compactions();
    test_new_arrays();
    test_hunt7();
    test_reductions2();
    test_last_values();
    test_frontend2();
    return check_summary();
}
