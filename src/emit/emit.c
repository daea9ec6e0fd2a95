/* The emitter: one recursive walk of a kernel's IR that writes C-family
 * source (C, CUDA C, OpenCL C). Everything target-specific comes from the
 * NgTarget table; helper functions (Python-sign floor division, NaN-aware
 * max, wrapping integer arithmetic) are defined once in the target's
 * prologue and called by name, with a dtype suffix. */
#include <string.h>

#include "emit/emit.h"

typedef struct Emitter {
    const NgIrKernel *k;
    const NgTarget *t;
    NgStr *out;
    int par_depth;   /* >0 inside the outermost parallel loop */
    NgStatus st;     /* first construct the target cannot express */
} Emitter;

/* Dtype suffix of helper names: ng_fdiv_i64. */
static const char *sfx(NgDType t)
{
    static const char *s[NG_NTYPES] = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                       "f16", "f32", "f64", "c64", "c128"};
    return (t >= 0 && t < NG_NTYPES) ? s[t] : "x";
}

static const char *tname(const Emitter *e, NgDType t) { return e->t->type_names[t]; }

/* Unsigned type in which integer arithmetic of t wraps without UB. */
static const char *wrap_type(NgDType t) { return ng_dtype_info(t)->itemsize == 8 ? "uint64_t" : "uint32_t"; }

static void cat(Emitter *e, const char *s) { ng_str_cat(e->out, s); }

#define catf(e, ...) ng_str_catf((e)->out, __VA_ARGS__)

static void indent(Emitter *e, int depth)
{
    for (int i = 0; i < depth; i++)
        cat(e, "    ");
}

static void expr(Emitter *e, NgIrRef r);

static void kid(Emitter *e, NgIrRef r, int i) { expr(e, ng_ir_kid(e->k, r, i)); }

static NgDType kid_dtype(const Emitter *e, NgIrRef r, int i)
{
    return (NgDType)ng_ir_node(e->k, ng_ir_kid(e->k, r, i))->dtype;
}

/* Element address of array parameter p at the multi-index kids[first..]. */
static void element(Emitter *e, NgIrRef r, int p, int first)
{
    const NgIrParam *pp = &e->k->params[p];
    catf(e, "a%d[", p);
    if (pp->ndim == 0)
        cat(e, "0");
    for (int d = 0; d < pp->ndim; d++) {
        if (d)
            cat(e, " + ");
        cat(e, "(");
        kid(e, r, first + d);
        if (d == pp->ndim - 1 && pp->inner_contig)
            cat(e, ")");
        else
            catf(e, ")*a%d_s%d", p, d);
    }
    cat(e, "]");
}

/* Math function name for dtype: sin -> sinf on float32 where the target wants it. */
static void math1(Emitter *e, const char *fn, NgIrRef r, NgDType dt)
{
    catf(e, "%s%s(", fn, (dt == NG_FLOAT32 && e->t->float_suffix) ? "f" : "");
    kid(e, r, 0);
    cat(e, ")");
}

static void call2(Emitter *e, const char *fn, NgIrRef r, NgDType dt, bool helper)
{
    if (helper)
        catf(e, "ng_%s_%s(", fn, sfx(dt));
    else
        catf(e, "%s%s(", fn, (dt == NG_FLOAT32 && e->t->float_suffix) ? "f" : "");
    kid(e, r, 0);
    cat(e, ", ");
    kid(e, r, 1);
    cat(e, ")");
}

static void infix(Emitter *e, const char *op, NgIrRef r)
{
    cat(e, "(");
    kid(e, r, 0);
    catf(e, " %s ", op);
    kid(e, r, 1);
    cat(e, ")");
}

/* Integer +, -, * wrap modulo 2^bits as in NumPy: computed unsigned. */
static void wrapping(Emitter *e, const char *op, NgIrRef r, NgDType dt)
{
    const char *u = wrap_type(dt);
    catf(e, "((%s)((%s)", tname(e, dt), u);
    kid(e, r, 0);
    catf(e, " %s (%s)", op, u);
    kid(e, r, 1);
    cat(e, "))");
}

static void binary(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType in = kid_dtype(e, r, 0);
    bool fl = ng_dtype_is_float(in), in_int = ng_dtype_is_int(in);
    switch ((NgOp)n->op) {
    case NG_OP_ADD: in_int ? wrapping(e, "+", r, in) : infix(e, in == NG_BOOL ? "|" : "+", r); break;
    case NG_OP_SUB: in_int ? wrapping(e, "-", r, in) : infix(e, "-", r); break;
    case NG_OP_MUL: in_int ? wrapping(e, "*", r, in) : infix(e, in == NG_BOOL ? "&" : "*", r); break;
    case NG_OP_TRUEDIV: infix(e, "/", r); break;
    case NG_OP_FLOORDIV: call2(e, "fdiv", r, in, true); break;
    case NG_OP_MOD: call2(e, "mod", r, in, true); break;
    case NG_OP_POW: fl ? call2(e, "pow", r, in, false) : call2(e, "pow", r, in, true); break;
    case NG_OP_MAXIMUM: call2(e, "max", r, in, true); break;
    case NG_OP_MINIMUM: call2(e, "min", r, in, true); break;
    case NG_OP_FMAX: fl ? call2(e, "fmax", r, in, false) : call2(e, "max", r, in, true); break;
    case NG_OP_FMIN: fl ? call2(e, "fmin", r, in, false) : call2(e, "min", r, in, true); break;
    case NG_OP_ARCTAN2: call2(e, "atan2", r, in, false); break;
    case NG_OP_HYPOT: call2(e, "hypot", r, in, false); break;
    case NG_OP_BITAND: infix(e, "&", r); break;
    case NG_OP_BITOR: infix(e, "|", r); break;
    case NG_OP_BITXOR: infix(e, "^", r); break;
    case NG_OP_LSHIFT: call2(e, "shl", r, in, true); break;
    case NG_OP_RSHIFT: call2(e, "shr", r, in, true); break;
    case NG_OP_LOGAND: cat(e, "(("); kid(e, r, 0); cat(e, ") != 0 && ("); kid(e, r, 1); cat(e, ") != 0)"); break;
    case NG_OP_LOGOR: cat(e, "(("); kid(e, r, 0); cat(e, ") != 0 || ("); kid(e, r, 1); cat(e, ") != 0)"); break;
    case NG_OP_LOGXOR: cat(e, "(("); kid(e, r, 0); cat(e, ") != 0) != (("); kid(e, r, 1); cat(e, ") != 0)"); break;
    case NG_OP_EQ: infix(e, "==", r); break;
    case NG_OP_NE: infix(e, "!=", r); break;
    case NG_OP_LT: infix(e, "<", r); break;
    case NG_OP_LE: infix(e, "<=", r); break;
    case NG_OP_GT: infix(e, ">", r); break;
    case NG_OP_GE: infix(e, ">=", r); break;
    default: call2(e, ng_op_name((NgOp)n->op), r, in, true); break; /* a prologue helper */
    }
}

static void unary(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType in = kid_dtype(e, r, 0);
    bool fl = ng_dtype_is_float(in);
    static const struct { NgOp op; const char *fn; } mathfns[] = {
        {NG_OP_EXP, "exp"}, {NG_OP_EXPM1, "expm1"}, {NG_OP_LOG, "log"}, {NG_OP_LOG1P, "log1p"},
        {NG_OP_LOG2, "log2"}, {NG_OP_LOG10, "log10"}, {NG_OP_SQRT, "sqrt"}, {NG_OP_SIN, "sin"},
        {NG_OP_COS, "cos"}, {NG_OP_TAN, "tan"}, {NG_OP_ARCSIN, "asin"}, {NG_OP_ARCCOS, "acos"},
        {NG_OP_ARCTAN, "atan"}, {NG_OP_SINH, "sinh"}, {NG_OP_COSH, "cosh"}, {NG_OP_TANH, "tanh"},
        {NG_OP_FLOOR, "floor"}, {NG_OP_CEIL, "ceil"}, {NG_OP_TRUNC, "trunc"}, {NG_OP_RINT, "rint"},
    };
    for (size_t i = 0; i < sizeof mathfns / sizeof *mathfns; i++)
        if (mathfns[i].op == n->op) {
            if (fl)
                math1(e, mathfns[i].fn, r, in);
            else
                kid(e, r, 0); /* floor/ceil/trunc of an integer is itself */
            return;
        }
    const char *u = wrap_type(in);
    switch ((NgOp)n->op) {
    case NG_OP_NEG:
        if (fl) { cat(e, "(-"); kid(e, r, 0); cat(e, ")"); }
        else { catf(e, "((%s)(-(%s)", tname(e, in), u); kid(e, r, 0); cat(e, "))"); }
        break;
    case NG_OP_POS: case NG_OP_COPY: kid(e, r, 0); break;
    case NG_OP_ABS:
        if (fl) math1(e, "fabs", r, in);
        else if (in == NG_BOOL || !ng_dtype_is_signed(in)) kid(e, r, 0);
        else { catf(e, "ng_abs_%s(", sfx(in)); kid(e, r, 0); cat(e, ")"); }
        break;
    case NG_OP_INVERT:
        if (in == NG_BOOL) { cat(e, "(!("); kid(e, r, 0); cat(e, "))"); }
        else { catf(e, "((%s)~", tname(e, in)); kid(e, r, 0); cat(e, ")"); }
        break;
    case NG_OP_LOGNOT: cat(e, "(("); kid(e, r, 0); cat(e, ") == 0)"); break;
    case NG_OP_SIGN: catf(e, "ng_sign_%s(", sfx(in)); kid(e, r, 0); cat(e, ")"); break;
    case NG_OP_SQUARE:
        if (fl) { cat(e, "("); kid(e, r, 0); cat(e, " * "); kid(e, r, 0); cat(e, ")"); }
        else { catf(e, "((%s)((%s)", tname(e, in), u); kid(e, r, 0); catf(e, " * (%s)", u); kid(e, r, 0); cat(e, "))"); }
        break;
    case NG_OP_ISNAN: if (fl) math1(e, "isnan", r, NG_FLOAT64); else cat(e, "0"); break;
    case NG_OP_ISINF: if (fl) math1(e, "isinf", r, NG_FLOAT64); else cat(e, "0"); break;
    case NG_OP_ISFINITE: if (fl) math1(e, "isfinite", r, NG_FLOAT64); else cat(e, "1"); break;
    default: catf(e, "ng_%s_%s(", ng_op_name((NgOp)n->op), sfx(in)); kid(e, r, 0); cat(e, ")"); break; /* a prologue helper */
    }
}

static void cast(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType to = (NgDType)n->dtype, from = kid_dtype(e, r, 0);
    if (to == NG_BOOL) {
        cat(e, "((");
        kid(e, r, 0);
        cat(e, ") != 0)");
    } else if (ng_dtype_is_float(from) && ng_dtype_info(to)->kind == NG_KIND_UINT) {
        /* Negative floats to unsigned wrap as on NumPy's x86 builds, not UB. */
        catf(e, "ng_f2u_%s(", sfx(to));
        kid(e, r, 0);
        cat(e, ")");
    } else {
        catf(e, "((%s)(", tname(e, to));
        kid(e, r, 0);
        cat(e, "))");
    }
}

static void expr(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType dt = (NgDType)n->dtype;
    switch ((NgIrKind)n->kind) {
    case NG_IR_CONST:
        if (ng_dtype_is_float(dt)) {
            if (n->c.f != n->c.f)
                catf(e, "((%s)(0.0f / 0.0f))", tname(e, dt));
            else if (n->c.f == 1.0 / 0.0 || n->c.f == -1.0 / 0.0)
                catf(e, "((%s)(%s1.0f / 0.0f))", tname(e, dt), n->c.f < 0 ? "-" : "");
            else if (dt == NG_FLOAT32)
                catf(e, "((float)%.9ef)", n->c.f);
            else
                catf(e, "((double)%.17e)", n->c.f);
        } else if (dt == NG_UINT64) {
            catf(e, "((%s)%lluU%s)", tname(e, dt), (unsigned long long)n->c.i, e->t->int64_suffix);
        } else if (n->c.i == INT64_MIN) {
            catf(e, "((%s)(-9223372036854775807%s - 1))", tname(e, dt), e->t->int64_suffix);
        } else {
            catf(e, "((%s)%lld%s)", tname(e, dt), (long long)n->c.i, e->t->int64_suffix);
        }
        break;
    case NG_IR_SCALAR: catf(e, "s%d", n->a); break;
    case NG_IR_VAR: catf(e, "v%d", n->a); break;
    case NG_IR_SHAPE: catf(e, "a%d_n%d", n->a, n->b); break;
    case NG_IR_LOAD: element(e, r, n->a, 0); break;
    case NG_IR_UNARY: unary(e, r); break;
    case NG_IR_BINARY: binary(e, r); break;
    case NG_IR_SELECT: cat(e, "(("); kid(e, r, 0); cat(e, ") ? ("); kid(e, r, 1); cat(e, ") : ("); kid(e, r, 2); cat(e, "))"); break;
    case NG_IR_CAST: cast(e, r); break;
    default: cat(e, "/* statement in expression */0"); break;
    }
}

static void stmt(Emitter *e, NgIrRef r, int depth);

static const char *omp_reduction(NgOp op, NgDType dt)
{
    switch (op) {
    case NG_OP_ADD: return dt == NG_BOOL ? "|" : "+";
    case NG_OP_MUL: return dt == NG_BOOL ? "&" : "*";
    case NG_OP_BITAND: return "&";
    case NG_OP_BITOR: return "|";
    case NG_OP_BITXOR: return "^";
    case NG_OP_MAXIMUM: return "ngmax";
    case NG_OP_MINIMUM: return "ngmin";
    default: return NULL;
    }
}

/* True if statement r contains a loop. */
static bool has_loop(const NgIrKernel *k, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_FOR || n->kind == NG_IR_WHILE)
        return true;
    if (n->kind != NG_IR_BLOCK && n->kind != NG_IR_IF)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (has_loop(k, ng_ir_kid(k, r, i)))
            return true;
    return false;
}

/* Appends " reduction(op:v)" clauses of loop r; false if one needs a
 * user-declared reduction (then simd is not used). */
static bool reduction_clauses(Emitter *e, NgIrRef r)
{
    bool builtin = true;
    for (int i = 0; i < e->k->nreds; i++) {
        if (e->k->reds[i].loop != r)
            continue;
        int v = e->k->reds[i].var;
        NgDType vt = e->k->vars[v].dtype;
        const char *op = omp_reduction(e->k->reds[i].op, vt);
        if (op && op[0] == 'n') {
            catf(e, " reduction(%s_%s:v%d)", op, sfx(vt), v);
            builtin = false;
        } else if (op) {
            catf(e, " reduction(%s:v%d)", op, v);
        }
    }
    return builtin;
}

static bool has_reductions(const NgIrKernel *k, NgIrRef r)
{
    for (int i = 0; i < k->nreds; i++)
        if (k->reds[i].loop == r)
            return true;
    return false;
}

/* The condition of FOR r: v < stop for a positive constant step, v > stop
 * for a negative one, else decided at run time. */
static void loop_test(Emitter *e, NgIrRef r, const NgIrNode *sn)
{
    int v = ng_ir_node(e->k, r)->a;
    if (sn->kind == NG_IR_CONST && sn->c.i > 0) {
        catf(e, "v%d < ", v);
        kid(e, r, 1);
    } else if (sn->kind == NG_IR_CONST) {
        catf(e, "v%d > ", v);
        kid(e, r, 1);
    } else {
        cat(e, "(");
        kid(e, r, 2);
        catf(e, " > 0) ? (v%d < ", v);
        kid(e, r, 1);
        catf(e, ") : (v%d > ", v);
        kid(e, r, 1);
        cat(e, ")");
    }
}

static void for_loop(Emitter *e, NgIrRef r, int depth)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgIrRef step = ng_ir_kid(e->k, r, 2);
    const NgIrNode *sn = ng_ir_node(e->k, step);
    bool outer_parallel = (n->flags & NG_IR_PARALLEL) && e->par_depth == 0;
    bool innermost = !has_loop(e->k, ng_ir_kid(e->k, r, 3));
    if (outer_parallel && e->t->par == NG_PAR_OPENMP) {
        NgStr clauses, *saved = e->out;
        ng_str_init(&clauses);
        e->out = &clauses;
        bool builtin = reduction_clauses(e, r);
        e->out = saved;
        indent(e, depth);
        catf(e, "#pragma omp parallel for%s schedule(static) if(ng_work >= NG_PAR_MIN_WORK)%s\n",
             builtin && innermost && has_reductions(e->k, r) ? " simd" : "", clauses.s);
        ng_str_free(&clauses);
    } else if (has_reductions(e->k, r) && innermost && e->t->par == NG_PAR_OPENMP) {
        NgStr clauses, *saved = e->out;
        ng_str_init(&clauses);
        e->out = &clauses;
        bool builtin = reduction_clauses(e, r);
        e->out = saved;
        if (builtin) {
            indent(e, depth);
            catf(e, "#pragma omp simd%s\n", clauses.s);
        }
        ng_str_free(&clauses);
    }
    indent(e, depth);
    if (outer_parallel && e->t->par != NG_PAR_OPENMP && has_reductions(e->k, r) && e->st == NG_OK)
        e->st = ng_error_set(NG_ERR_INTERNAL, "a parallel reduction loop cannot be emitted for target %s; "
                             "the op should have split it into passes", e->t->name);
    if (outer_parallel && e->t->par != NG_PAR_OPENMP) {
        /* each thread starts at its global index and strides by the grid */
        const char *id = e->t->par == NG_PAR_GRID_STRIDE ? "((int64_t)blockIdx.x * blockDim.x + threadIdx.x)"
                                                          : "((int64_t)get_global_id(0))";
        const char *all = e->t->par == NG_PAR_GRID_STRIDE ? "((int64_t)gridDim.x * blockDim.x)"
                                                           : "((int64_t)get_global_size(0))";
        catf(e, "for (int64_t v%d = ", n->a);
        kid(e, r, 0);
        catf(e, " + %s * ", id);
        kid(e, r, 2);
        cat(e, "; ");
        loop_test(e, r, sn);
        catf(e, "; v%d += %s * ", n->a, all);
        kid(e, r, 2);
        cat(e, ") {\n");
    } else {
        catf(e, "for (int64_t v%d = ", n->a);
        kid(e, r, 0);
        cat(e, "; ");
        loop_test(e, r, sn);
        catf(e, "; v%d += ", n->a);
        kid(e, r, 2);
        cat(e, ") {\n");
    }
    if (outer_parallel)
        e->par_depth++;
    stmt(e, ng_ir_kid(e->k, r, 3), depth + 1);
    if (outer_parallel)
        e->par_depth--;
    indent(e, depth);
    cat(e, "}\n");
}

static void stmt(Emitter *e, NgIrRef r, int depth)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(e->k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_BLOCK:
        for (int i = 0; i < n->nkids; i++)
            stmt(e, ng_ir_kid(e->k, r, i), depth);
        break;
    case NG_IR_LET:
        indent(e, depth);
        catf(e, "%s v%d = ", tname(e, e->k->vars[n->a].dtype), n->a);
        kid(e, r, 0);
        cat(e, ";\n");
        break;
    case NG_IR_ASSIGN:
        indent(e, depth);
        catf(e, "v%d = ", n->a);
        kid(e, r, 0);
        cat(e, ";\n");
        break;
    case NG_IR_STORE:
        indent(e, depth);
        element(e, r, n->a, 1);
        cat(e, " = ");
        kid(e, r, 0);
        cat(e, ";\n");
        break;
    case NG_IR_ATOMIC:
        if (e->t->par != NG_PAR_OPENMP && e->st == NG_OK)
            e->st = ng_error_set(NG_ERR_UNSUPPORTED, "atomic updates are not implemented for target %s yet",
                                 e->t->name);
        indent(e, depth);
        cat(e, "{\n");
        indent(e, depth + 1);
        catf(e, "%s *ng_at = &", tname(e, e->k->params[n->a].dtype));
        element(e, r, n->a, 1);
        cat(e, ";\n");
        indent(e, depth + 1);
        if (n->op == NG_OP_ADD) {
            cat(e, "#pragma omp atomic update\n");
            indent(e, depth + 1);
            cat(e, "*ng_at += ");
            kid(e, r, 0);
            cat(e, ";\n");
        } else {
            cat(e, "#pragma omp critical\n");
            indent(e, depth + 1);
            catf(e, "*ng_at = ng_%s_%s(*ng_at, ", n->op == NG_OP_MAXIMUM ? "max" : "min",
                 sfx(e->k->params[n->a].dtype));
            kid(e, r, 0);
            cat(e, ");\n");
        }
        indent(e, depth);
        cat(e, "}\n");
        break;
    case NG_IR_IF:
        indent(e, depth);
        cat(e, "if (");
        kid(e, r, 0);
        cat(e, ") {\n");
        stmt(e, ng_ir_kid(e->k, r, 1), depth + 1);
        indent(e, depth);
        if (ng_ir_kid(e->k, r, 2) != NG_IR_NONE) {
            cat(e, "} else {\n");
            stmt(e, ng_ir_kid(e->k, r, 2), depth + 1);
            indent(e, depth);
        }
        cat(e, "}\n");
        break;
    case NG_IR_FOR:
        for_loop(e, r, depth);
        break;
    case NG_IR_WHILE:
        indent(e, depth);
        cat(e, "while (");
        kid(e, r, 0);
        cat(e, ") {\n");
        stmt(e, ng_ir_kid(e->k, r, 1), depth + 1);
        indent(e, depth);
        cat(e, "}\n");
        break;
    case NG_IR_BREAK: indent(e, depth); cat(e, "break;\n"); break;
    case NG_IR_CONTINUE: indent(e, depth); cat(e, "continue;\n"); break;
    default:
        indent(e, depth);
        cat(e, "/* expression statement */;\n");
        break;
    }
}


/* Unpacks the packed argument array into named locals (C target). */
static void unpack_args(Emitter *e)
{
    int j = 0;
    for (int p = 0; p < e->k->nparams; p++) {
        const NgIrParam *pp = &e->k->params[p];
        const char *ty = tname(e, pp->dtype);
        if (!pp->is_array) {
            bool fl = ng_dtype_is_float(pp->dtype);
            catf(e, "    const %s s%d = (%s)A[%d].%s;\n", ty, p, ty, j++, fl ? "f" : "i");
            continue;
        }
        catf(e, "    %s%s *const a%d = (%s *)A[%d].p + A[%d].i;\n", pp->written ? "" : "const ", ty, p, ty, j, j + 1);
        j += 2;
        for (int d = 0; d < pp->ndim; d++)
            catf(e, "    const int64_t a%d_n%d = A[%d].i;\n", p, d, j++);
        for (int d = 0; d < pp->ndim; d++)
            catf(e, "    const int64_t a%d_s%d = A[%d].i;\n", p, d, j++);
        catf(e, "    (void)a%d;\n", p);
        for (int d = 0; d < pp->ndim; d++)
            catf(e, "    (void)a%d_n%d; (void)a%d_s%d;\n", p, d, p, d);
    }
    catf(e, "    const int64_t ng_work = A[%d].i; (void)ng_work;\n", j);
}

/* One parameter per argument (CUDA, OpenCL): the signature, then locals. */
static void param_list(Emitter *e)
{
    bool first = true;
    for (int p = 0; p < e->k->nparams; p++) {
        const NgIrParam *pp = &e->k->params[p];
        const char *ty = tname(e, pp->dtype);
        catf(e, "%s", first ? "" : ", ");
        first = false;
        if (!pp->is_array) {
            const char *decl = pp->dtype == NG_FLOAT32 ? "float" : ng_dtype_is_float(pp->dtype) ? "double" : "int64_t";
            catf(e, "%s s%d_arg", decl, p);
            continue;
        }
        catf(e, "%s%s%s *a%d_base, int64_t a%d_off", e->t->global_ptr, pp->written ? "" : "const ", ty, p, p);
        for (int d = 0; d < pp->ndim; d++)
            catf(e, ", int64_t a%d_n%d", p, d);
        for (int d = 0; d < pp->ndim; d++)
            catf(e, ", int64_t a%d_s%d", p, d);
    }
    catf(e, "%sint64_t ng_work)\n{\n", first ? "" : ", ");
    for (int p = 0; p < e->k->nparams; p++) {
        const NgIrParam *pp = &e->k->params[p];
        const char *ty = tname(e, pp->dtype);
        if (!pp->is_array)
            catf(e, "    const %s s%d = (%s)s%d_arg;\n", ty, p, ty, p);
        else
            catf(e, "    %s%s%s *const a%d = a%d_base + a%d_off;\n", e->t->global_ptr, pp->written ? "" : "const ",
                 ty, p, p, p);
    }
}

int ng_emit_nargs(const NgIrKernel *k)
{
    int n = 0;
    for (int p = 0; p < k->nparams; p++)
        n += k->params[p].is_array ? 2 + 2 * k->params[p].ndim : 1;
    return n;
}

void ng_emit_arg_kinds(const NgIrKernel *k, uint8_t *kinds)
{
    int j = 0;
    for (int p = 0; p < k->nparams; p++) {
        const NgIrParam *pp = &k->params[p];
        if (!pp->is_array) {
            kinds[j++] = pp->dtype == NG_FLOAT32 ? NG_ARG_F32 : ng_dtype_is_float(pp->dtype) ? NG_ARG_F64 : NG_ARG_I64;
            continue;
        }
        kinds[j++] = NG_ARG_PTR;
        for (int d = 0; d < 1 + 2 * pp->ndim; d++)
            kinds[j++] = NG_ARG_I64;
    }
}

bool ng_emit_has_parallel(const NgIrKernel *k)
{
    for (NgIrRef r = 0; r < k->nnodes; r++)
        if (k->nodes[r].kind == NG_IR_FOR && (k->nodes[r].flags & NG_IR_PARALLEL))
            return true;
    return false;
}

NgStatus ng_emit(const NgIrKernel *k, const NgTarget *t, NgStr *out)
{
    NgStatus st = ng_ir_verify(k);
    if (st != NG_OK)
        return st;
    for (int p = 0; p < k->nparams; p++)
        if (!t->type_names[k->params[p].dtype])
            return ng_error_set(NG_ERR_TYPE, "dtype %s is not supported on target %s",
                                ng_dtype_info(k->params[p].dtype)->name, t->name);
    Emitter e = {k, t, out, 0, NG_OK};
    cat(&e, t->prologue);
    if (t->packed_args) {
        catf(&e, "\n%s%s(const NgKArg *A)\n{\n", t->kernel_head, k->name);
        unpack_args(&e);
    } else {
        catf(&e, "\n%s%s(", t->kernel_head, k->name);
        param_list(&e);
    }
    stmt(&e, k->body, 1);
    cat(&e, "}\n");
    if (e.st != NG_OK)
        return e.st;
    if (out->failed)
        return ng_error_set(NG_ERR_NOMEM, "out of memory emitting kernel source");
    return NG_OK;
}
