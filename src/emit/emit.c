/* The emitter: one recursive walk of a kernel's IR that writes C-family
 * source (C, CUDA C, OpenCL C). Everything target-specific comes from the
 * NgTarget table; helper functions (Python-sign floor division, NaN-aware
 * max, wrapping integer arithmetic) are defined once in the target's
 * prologue and called by name, with a dtype suffix. */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"

typedef struct Emitter {
    const NgIrKernel *k;
    const NgTarget *t;
    NgStr *out;
    int par_depth;   /* >0 inside the outermost parallel loop */
    int priv;        /* >=0: atomic += to this array param go to the thread's private copy ng_p */
    NgIrRef grid;    /* GPUs: the last outermost parallel loop spread over the threads */
    NgStatus st;     /* first construct the target cannot express */
    int lane;        /* >=0 inside a jammed loop body (C target): the lane being written */
    uint8_t *laned;  /* by variable: has a copy per lane there (v<n>_<lane>) */
    const char *vmask; /* a while loop in vector lanes: the lanes that evaluate the expression
                        * being written (a mask's C expression; NULL: all) */
    bool vjumps;       /* and it breaks or continues: a statement's lanes are also in ng_vstep */
    const NgIrRef *vhoist; /* and its loads done once before it (ng_h<ref>), vhoist[0..nvhoist) */
    int nvhoist;
    int vlane0, vwidth; /* and the lanes its vectors hold: vlane0 .. vlane0 + vgroups * vwidth - 1, */
    int vgroups;        /* in vgroups vectors side by side */
    int jam;            /* the lanes of the jammed loop being written (jam_lanes) */
    int fast;           /* >0 in the fast version of a statement (NG_IR_VERSIONED): its loops
                           have constant trip counts and may be vectorised across the loop around
                           them, so a float max/min is ng_maxv/ng_minv, which GCC vectorises
                           there (ng_max's || does not), and scalar code runs slower */
    bool par_told;      /* the next outermost parallel loop's ng_par<v> is declared (par_decision) */
    bool rows_blocks;   /* GPUs: one block runs the kernel, its rows spread over the block's
                           threads (ng_emit_rows_blocks) */
    bool guarded;       /* a store outside the rows being written by thread 0 */
} Emitter;

/* Dtype suffix of helper names: ng_fdiv_i64. */
static const char *sfx(NgDType t)
{
    static const char *s[NG_NTYPES] = {"b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                       "f16", "f32", "f64", "c64", "c128"};
    return (t >= 0 && t < NG_NTYPES) ? s[t] : "x";
}

/* Type of a value of dtype t in expressions and variables: float16 values
 * are floats (stored as 16 bits, see sname). */
static const char *tname(const Emitter *e, NgDType t) { return t == NG_FLOAT16 ? "float" : e->t->type_names[t]; }

/* Element type of an array of dtype t in memory. */
static const char *sname(const Emitter *e, NgDType t) { return e->t->type_names[t]; }

/* `f` where float math is sinf() on this target (float32 and float16 values). */
static const char *fsuffix(const Emitter *e, NgDType t)
{
    return (t == NG_FLOAT32 || t == NG_FLOAT16) && e->t->float_suffix ? "f" : "";
}

/* Real type of complex dtype t's parts. */
static const char *real_name(NgDType t) { return t == NG_COMPLEX64 ? "float" : "double"; }

/* Unsigned type in which integer arithmetic of t wraps without UB. */
static const char *wrap_type(NgDType t) { return ng_dtype_info(t)->itemsize == 8 ? "uint64_t" : "uint32_t"; }

static void cat(Emitter *e, const char *s) { ng_str_cat(e->out, s); }

#define catf(e, ...) ng_str_catf((e)->out, __VA_ARGS__)

/* Variable v's name: its copy for the current lane where it has one. */
static void var_name(Emitter *e, int v)
{
    if (e->lane >= 0 && e->laned[v])
        catf(e, "v%d_%d", v, e->lane);
    else
        catf(e, "v%d", v);
}

static void indent(Emitter *e, int depth)
{
    for (int i = 0; i < depth; i++)
        cat(e, "    ");
}

static void expr(Emitter *e, NgIrRef r);
static void thread_value(Emitter *e, NgIrThread which);

static void kid(Emitter *e, NgIrRef r, int i) { expr(e, ng_ir_kid(e->k, r, i)); }

static NgDType kid_dtype(const Emitter *e, NgIrRef r, int i)
{
    return (NgDType)ng_ir_node(e->k, ng_ir_kid(e->k, r, i))->dtype;
}

/* Element address of array parameter p at the multi-index kids[first..]. */
/* True if int64 expression x is made only of + - * over loop counters and
 * other variables, extents, scalar parameters and constants: an index that
 * cannot overflow for any array that fits in memory. */
static bool plain_index(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->dtype != NG_INT64)
        return false;
    if ((n->kind == NG_IR_VAR && n->nkids == 0) || n->kind == NG_IR_SHAPE || n->kind == NG_IR_SCALAR ||
        n->kind == NG_IR_CONST)
        return true;
    return n->kind == NG_IR_BINARY && (n->op == NG_OP_ADD || n->op == NG_OP_SUB || n->op == NG_OP_MUL) &&
           plain_index(k, ng_ir_kid(k, x, 0)) && plain_index(k, ng_ir_kid(k, x, 1));
}

/* An index expression: + - * of plain_index terms in signed arithmetic (the
 * C compiler may then treat the address as affine in the loop counters and
 * strength-reduce it), anything else as any expression. */
static void index_expr(Emitter *e, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(e->k, x);
    if (n->kind != NG_IR_BINARY || !plain_index(e->k, x)) {
        expr(e, x);
        return;
    }
    cat(e, "(");
    index_expr(e, ng_ir_kid(e->k, x, 0));
    cat(e, n->op == NG_OP_ADD ? " + " : n->op == NG_OP_SUB ? " - " : " * ");
    index_expr(e, ng_ir_kid(e->k, x, 1));
    cat(e, ")");
}

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
        index_expr(e, ng_ir_kid(e->k, r, first + d));
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
    catf(e, "%s%s(", fn, fsuffix(e, dt));
    kid(e, r, 0);
    cat(e, ")");
}

static void call2(Emitter *e, const char *fn, NgIrRef r, NgDType dt, bool helper)
{
    if (helper)
        catf(e, "ng_%s_%s(", fn, sfx(dt));
    else
        catf(e, "%s%s(", fn, fsuffix(e, dt));
    kid(e, r, 0);
    cat(e, ", ");
    kid(e, r, 1);
    cat(e, ")");
}

/* (a op b) of BINARY r's operands, each written by `operand` (expr, or
 * vexpr in vector lanes). */
static void infix_of(Emitter *e, const char *op, NgIrRef r, void (*operand)(Emitter *, NgIrRef))
{
    cat(e, "(");
    operand(e, ng_ir_kid(e->k, r, 0));
    catf(e, " %s ", op);
    operand(e, ng_ir_kid(e->k, r, 1));
    cat(e, ")");
}

static void infix(Emitter *e, const char *op, NgIrRef r) { infix_of(e, op, r, expr); }

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

/* True if expression x contains the node `target`. Expressions are
 * hash-consed, so the same load of the same element is the same node. */
static bool contains(const NgIrKernel *k, NgIrRef x, NgIrRef target)
{
    if (x == target)
        return true;
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_BLOCK || (n->kind >= NG_IR_LET && n->kind != NG_IR_THREAD && n->kind != NG_IR_TABLE))
        return false; /* statements: not expressions */
    for (int i = 0; i < n->nkids; i++)
        if (contains(k, ng_ir_kid(k, x, i), target))
            return true;
    return false;
}

/* True if evaluating x cannot fault once `guard` has been evaluated: every
 * array element x reads is also read by guard. Such an x may be computed
 * whether or not the guard holds (no short-circuit, no branch), which lets
 * the C compiler vectorise `lo <= a[i] and a[i] < hi`. Arithmetic cannot
 * fault here: integer division goes through helpers that check for zero. */
static bool speculable(const NgIrKernel *k, NgIrRef x, NgIrRef guard)
{
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_LOAD && !contains(k, guard, x))
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (!speculable(k, ng_ir_kid(k, x, i), guard))
            return false;
    return true;
}

/* The operands of the chain of `op` (LOGAND or LOGOR) rooted at r. */
static int chain_length(const NgIrKernel *k, NgIrRef r, int op)
{
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind != NG_IR_BINARY || n->op != op)
        return 1;
    return chain_length(k, ng_ir_kid(k, r, 0), op) + chain_length(k, ng_ir_kid(k, r, 1), op);
}

/* `and`/`or` of 0/1 values: short-circuit only when the right side reads
 * memory the left side does not (it may be guarded by the left). Both
 * sides evaluated, `&` / `|`; but at the top of a chain of four or more,
 * the sides added as ints (`== 2`: and, `!= 0`: or): gcc turns a chain of
 * compares with constants (`x == 97 | x == 101 | x == 105 | x == 111`)
 * into a bit test its vectoriser refuses (that loop 30x slower), and does
 * not do so for a sum (which costs 2-3x where `|` of three vectorises). */
static void logical(Emitter *e, NgIrRef r, const char *shortcut, bool is_and)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    bool eagerly = speculable(e->k, ng_ir_kid(e->k, r, 1), ng_ir_kid(e->k, r, 0));
    if (eagerly && chain_length(e->k, r, n->op) >= 4) {
        cat(e, "(((int)((");
        kid(e, r, 0);
        cat(e, ") != 0) + (int)((");
        kid(e, r, 1);
        catf(e, ") != 0)) %s)", is_and ? "== 2" : "!= 0");
        return;
    }
    cat(e, "((");
    kid(e, r, 0);
    catf(e, ") != 0 %s (", eagerly ? (is_and ? "&" : "|") : shortcut);
    kid(e, r, 1);
    cat(e, ") != 0)");
}

/* k when BINARY r divides an integer by the constant 2^k (k < bits - 1);
 * -1 otherwise. Python's floor division and modulo by it are then a shift
 * and a mask in two's complement, for negative dividends too. */
static int pow2_divisor(const NgIrKernel *k, NgIrRef r)
{
    NgIrRef b = ng_ir_kid(k, r, 1);
    const NgIrNode *d = ng_ir_node(k, b);
    NgDType t = (NgDType)d->dtype;
    if (d->kind == NG_IR_CAST && ng_dtype_is_int(t)) /* (a constant cast to t: uint64(8); kept if k fits t) */
        d = ng_ir_node(k, ng_ir_kid(k, b, 0));
    if (d->kind != NG_IR_CONST || !ng_dtype_is_int((NgDType)d->dtype) || !ng_dtype_is_int(t) || d->c.i <= 0 ||
        (d->c.i & (d->c.i - 1)) != 0)
        return -1;
    int bits = ng_dtype_info(t)->itemsize * 8, sh = 0;
    while ((INT64_C(1) << sh) != d->c.i)
        sh++;
    return sh < bits - 1 ? sh : -1;
}

/* True if integer floor division or modulo r divides by a positive constant of its dtype: no
 * zero, no -1 (whose quotient of the smallest value overflows), so the prologue's ng_fdivp and
 * ng_modp, C's / and % with the sign fixed, which the C compiler makes multiplications (the
 * general helpers test for 32-bit operands, to divide in 32 bits, first). */
static bool positive_divisor(const NgIrKernel *k, NgIrRef r)
{
    NgIrRef b = ng_ir_kid(k, r, 1);
    const NgIrNode *d = ng_ir_node(k, b);
    NgDType t = (NgDType)d->dtype;
    if (!ng_dtype_is_int(t) || t == NG_BOOL)
        return false;
    if (d->kind == NG_IR_CAST) /* (a constant cast to t, kept where it fits t) */
        d = ng_ir_node(k, ng_ir_kid(k, b, 0));
    if (d->kind != NG_IR_CONST || !ng_dtype_is_int((NgDType)d->dtype) || d->c.i <= 0)
        return false;
    int bits = ng_dtype_info(t)->itemsize * 8;
    return bits == 64 || d->c.i < (INT64_C(1) << (ng_dtype_is_signed(t) ? bits - 1 : bits));
}

/* The scalar parameter that integer floor division, modulo or fmod r divides by, where target t
 * divides by such a divisor through its ng_divprep (NG_C_DIVS_HELPERS in targets.c: a multiply
 * in place of a division); else -1. */
static int invariant_divisor(const NgIrKernel *k, const NgTarget *t, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(k, r);
    if (!t->invariant_divisors || n->kind != NG_IR_BINARY ||
        (n->op != NG_OP_FLOORDIV && n->op != NG_OP_MOD && n->op != NG_OP_FMOD))
        return -1;
    NgDType in = (NgDType)ng_ir_node(k, ng_ir_kid(k, r, 0))->dtype;
    const NgIrNode *d = ng_ir_node(k, ng_ir_kid(k, r, 1));
    if (d->kind != NG_IR_SCALAR || !ng_dtype_is_int(in) || in == NG_BOOL || (NgDType)d->dtype != in ||
        k->params[d->a].dtype != in)
        return -1;
    return d->a;
}

/* Before the loops: ng_dv<p>, the precomputed divisor of each scalar parameter p that some
 * division of the kernel divides by (invariant_divisor). */
static void invariant_divisors(Emitter *e)
{
    for (int p = 0; p < e->k->nparams; p++)
        for (NgIrRef r = 0; r < e->k->nnodes; r++)
            if (invariant_divisor(e->k, e->t, r) == p) {
                catf(e, "    NG_DIVPREP(%s, %d)\n", sfx(e->k->params[p].dtype), p);
                break;
            }
}

static void binary(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType in = kid_dtype(e, r, 0);
    bool fl = ng_dtype_is_float(in), in_int = ng_dtype_is_int(in);
    if (ng_dtype_is_complex(in)) { /* every complex op is a prologue helper named after its ufunc */
        call2(e, ng_op_name((NgOp)n->op), r, in, true);
        return;
    }
    switch ((NgOp)n->op) {
    case NG_OP_ADD: in_int ? wrapping(e, "+", r, in) : infix(e, in == NG_BOOL ? "|" : "+", r); break;
    case NG_OP_SUB: in_int ? wrapping(e, "-", r, in) : infix(e, "-", r); break;
    case NG_OP_MUL: in_int ? wrapping(e, "*", r, in) : infix(e, in == NG_BOOL ? "&" : "*", r); break;
    case NG_OP_TRUEDIV: infix(e, "/", r); break;
    case NG_OP_FLOORDIV: case NG_OP_MOD: case NG_OP_FMOD: {
        int k = pow2_divisor(e->k, r), p = invariant_divisor(e->k, e->t, r);
        if (p >= 0) { /* by a scalar parameter: its reciprocal, computed before the loops */
            catf(e, "ng_%s_%s(", n->op == NG_OP_FLOORDIV ? "fdivs" : n->op == NG_OP_MOD ? "mods" : "fmods", sfx(in));
            kid(e, r, 0);
            catf(e, ", NG_DV(%d))", p);
        } else if (n->op == NG_OP_FMOD) {
            call2(e, ng_op_name((NgOp)n->op), r, in, true);
        } else if (k >= 0 && n->op == NG_OP_FLOORDIV) { /* by 2^k: floor division is the arithmetic shift */
            catf(e, "((%s)(", tname(e, in));
            kid(e, r, 0);
            catf(e, " >> %d))", k);
        } else if (k >= 0) { /* and Python's modulo the low bits, for either sign */
            catf(e, "((%s)(", tname(e, in));
            kid(e, r, 0);
            catf(e, " & %lld%s))", (long long)((INT64_C(1) << k) - 1), e->t->int64_suffix);
        } else if (positive_divisor(e->k, r)) { /* (by a constant: C's / and % with the sign fixed) */
            call2(e, n->op == NG_OP_FLOORDIV ? "fdivp" : "modp", r, in, true);
        } else {
            call2(e, n->op == NG_OP_FLOORDIV ? "fdiv" : "mod", r, in, true);
        }
        break;
    }
    case NG_OP_POW: fl ? call2(e, "pow", r, in, false) : call2(e, "pow", r, in, true); break;
    case NG_OP_MAXIMUM: call2(e, e->fast && fl ? "maxv" : "max", r, in, true); break;
    case NG_OP_MINIMUM: call2(e, e->fast && fl ? "minv" : "min", r, in, true); break;
    case NG_OP_FMAX: call2(e, fl ? "fmax" : "max", r, in, true); break; /* (floats: each target's NG_FMAX) */
    case NG_OP_FMIN: call2(e, fl ? "fmin" : "min", r, in, true); break;
    case NG_OP_ARCTAN2: call2(e, "atan2", r, in, false); break;
    case NG_OP_HYPOT: call2(e, "hypot", r, in, false); break;
    case NG_OP_BITAND: infix(e, "&", r); break;
    case NG_OP_BITOR: infix(e, "|", r); break;
    case NG_OP_BITXOR: infix(e, "^", r); break;
    case NG_OP_LSHIFT: call2(e, "shl", r, in, true); break;
    case NG_OP_RSHIFT: call2(e, "shr", r, in, true); break;
    case NG_OP_LOGAND: logical(e, r, "&&", true); break;
    case NG_OP_LOGOR: logical(e, r, "||", false); break;
    case NG_OP_LOGXOR: cat(e, "(("); kid(e, r, 0); cat(e, ") != 0) != (("); kid(e, r, 1); cat(e, ") != 0)"); break;
    case NG_OP_EQ: infix(e, "==", r); break;
    case NG_OP_NE: infix(e, "!=", r); break;
    case NG_OP_LT: infix(e, "<", r); break;
    case NG_OP_LE: infix(e, "<=", r); break;
    case NG_OP_GT: infix(e, ">", r); break;
    case NG_OP_GE: infix(e, ">=", r); break;
    case NG_OP_NEXTAFTER: /* float16 steps by half ulps: its own helper, not nextafterf */
        if (in == NG_FLOAT16) {
            cat(e, "ng_nextafter_h16(");
            kid(e, r, 0);
            cat(e, ", ");
            kid(e, r, 1);
            cat(e, ")");
        } else {
            call2(e, "nextafter", r, in, true);
        }
        break;
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
    if (ng_dtype_is_complex(in)) { /* prologue helpers named after their ufuncs */
        if (n->op == NG_OP_POS || n->op == NG_OP_COPY) {
            kid(e, r, 0);
            return;
        }
        catf(e, "ng_%s_%s(", ng_op_name((NgOp)n->op), sfx(in));
        kid(e, r, 0);
        cat(e, ")");
        return;
    }
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
    case NG_OP_CONJUGATE: kid(e, r, 0); break; /* of a real value: itself */
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

/* The operand of CAST r as a value of dtype *from: a complex operand cast
 * to a real dtype gives its real part (NumPy's unsafe cast). */
static void cast_operand(Emitter *e, NgIrRef r, NgDType to, NgDType *from)
{
    if (ng_dtype_is_complex(*from) && !ng_dtype_is_complex(to)) {
        cat(e, "(");
        kid(e, r, 0);
        cat(e, ng_ir_node(e->k, r)->a ? ").im" : ").re"); /* a = 1: ng_ir_imag */
        *from = ng_dtype_real(*from);
    } else {
        kid(e, r, 0);
    }
}

static void cast(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType to = (NgDType)n->dtype, from = kid_dtype(e, r, 0);
    if (to == NG_BOOL && ng_dtype_is_complex(from)) {
        catf(e, "ng_nz_%s(", sfx(from));
        kid(e, r, 0);
        cat(e, ")");
    } else if (to == NG_BOOL) {
        cat(e, "((");
        kid(e, r, 0);
        cat(e, ") != 0)");
    } else if (ng_dtype_is_complex(to)) {
        const char *R = real_name(to);
        catf(e, "ng_cpack_%s(", sfx(to));
        if (ng_dtype_is_complex(from)) {
            catf(e, "(%s)(", R);
            kid(e, r, 0);
            catf(e, ").re, (%s)(", R);
            kid(e, r, 0);
            cat(e, ").im)");
        } else if (n->a == NG_IR_AS_IM) { /* (ng_ir_complex) */
            catf(e, "(%s)-0.0f, (%s)(", R, R);
            kid(e, r, 0);
            cat(e, "))");
        } else {
            catf(e, "(%s)(", R);
            kid(e, r, 0);
            catf(e, "), (%s)%s)", R, n->a == NG_IR_AS_RE ? "-0.0f" : "0");
        }
    } else if (to == NG_FLOAT16) {
        /* a double rounds to half directly (no double rounding through float) */
        bool wide = from == NG_FLOAT64 || from == NG_COMPLEX128 || ng_dtype_info(from)->itemsize == 8;
        cat(e, wide ? "ng_h2f(ng_d2h((double)(" : "ng_rh((float)(");
        cast_operand(e, r, to, &from);
        cat(e, wide ? ")))" : "))");
    } else if (ng_dtype_is_inexact(from) && ng_dtype_info(to)->kind == NG_KIND_UINT) {
        /* Negative floats to unsigned wrap as on NumPy's x86 builds, not UB. */
        catf(e, "ng_f2u_%s(", sfx(to));
        cast_operand(e, r, to, &from);
        cat(e, ")");
    } else {
        catf(e, "((%s)(", tname(e, to));
        cast_operand(e, r, to, &from);
        cat(e, "))");
    }
}

/* The element of array parameter p at the index kids of r from `first` on,
 * as a value: float16 elements are widened to float. */
/* An element as a value: float16's bits widened to float; a bool's byte as 0 or 1 (NumPy's bools
 * may hold any nonzero byte for True: `u8.view(bool)`, Pillow's mode "1" images, frombuffer; its
 * loops read them so, as the vector loads do: counts, casts and masks of 255s are 1s). */
static void load_value(Emitter *e, NgIrRef r, int p, int first)
{
    bool half = e->k->params[p].dtype == NG_FLOAT16, boolean = e->k->params[p].dtype == NG_BOOL;
    if (half || boolean)
        cat(e, half ? "ng_h2f(" : "(uint8_t)(");
    element(e, r, p, first);
    if (half || boolean)
        cat(e, half ? ")" : " != 0)");
}

/* Whether r is an element of a float16 array as loaded: its 16 bits, before any conversion. */
static bool half_load(const Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    return n->kind == NG_IR_LOAD && e->k->params[n->a].dtype == NG_FLOAT16;
}

/* abs, negative and copysign of float16 elements as loaded, emitted as NumPy's loops compute
 * them: on the bits (a & 0x7fff, a ^ 0x8000, (a & 0x7fff) | (b & 0x8000)), without the
 * conversions to float and back (abs of 10^6 float16: 0.1 ms, was 0.4 on 2 cores). True
 * where value is one of them and was emitted. */
static bool half_sign_bits(Emitter *e, NgIrRef value)
{
    const NgIrNode *v = ng_ir_node(e->k, value);
    if (v->dtype != NG_FLOAT16 || !(v->kind == NG_IR_UNARY || v->kind == NG_IR_BINARY))
        return false;
    NgIrRef x = ng_ir_kid(e->k, value, 0);
    if (!half_load(e, x))
        return false;
    const NgIrNode *xn = ng_ir_node(e->k, x);
    if (v->kind == NG_IR_UNARY && (v->op == NG_OP_ABS || v->op == NG_OP_NEG)) {
        cat(e, "((uint16_t)(");
        element(e, x, xn->a, 0);
        cat(e, v->op == NG_OP_ABS ? " & 0x7fffu))" : " ^ 0x8000u))");
        return true;
    }
    NgIrRef y = v->kind == NG_IR_BINARY ? ng_ir_kid(e->k, value, 1) : NG_IR_NONE;
    if (v->kind == NG_IR_BINARY && v->op == NG_OP_COPYSIGN && half_load(e, y)) {
        cat(e, "((uint16_t)((");
        element(e, x, xn->a, 0);
        cat(e, " & 0x7fffu) | (");
        element(e, y, ng_ir_node(e->k, y)->a, 0);
        cat(e, " & 0x8000u)))");
        return true;
    }
    return false;
}

/* `value` as stored into an array of dtype dt (float16: narrowed to 16 bits). */
static void store_value(Emitter *e, NgDType dt, NgIrRef value)
{
    const NgIrNode *v = ng_ir_node(e->k, value);
    if (dt == NG_FLOAT16 && half_sign_bits(e, value)) {
        /* (emitted on the bits) */
    } else if (dt == NG_FLOAT16 && (v->kind == NG_IR_UNARY || v->kind == NG_IR_BINARY) && v->dtype == NG_FLOAT16) {
        cat(e, "ng_f2h("); /* narrowing rounds the float result once: no ng_rh needed */
        if (v->kind == NG_IR_UNARY)
            unary(e, value);
        else
            binary(e, value);
        cat(e, ")");
    } else if (dt == NG_FLOAT16) {
        cat(e, "ng_f2h(");
        expr(e, value);
        cat(e, ")");
    } else {
        expr(e, value);
    }
}

/* A literal of dtype dt (real or complex part), in the target's spelling. */
static void float_literal(Emitter *e, NgDType dt, double v)
{
    const char *ty = dt == NG_FLOAT64 ? "double" : "float";
    if (v != v)
        catf(e, "((%s)(0.0f / 0.0f))", ty);
    else if (v == 1.0 / 0.0 || v == -1.0 / 0.0)
        catf(e, "((%s)(%s1.0f / 0.0f))", ty, v < 0 ? "-" : "");
    else if (dt == NG_FLOAT64)
        catf(e, "((double)%.17e)", v);
    else
        catf(e, "((float)%.9ef)", v);
}

static void expr(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType dt = (NgDType)n->dtype;
    switch ((NgIrKind)n->kind) {
    case NG_IR_CONST:
        if (ng_dtype_is_complex(dt)) {
            catf(e, "ng_cpack_%s(", sfx(dt));
            float_literal(e, ng_dtype_real(dt), n->c.f);
            cat(e, ", ");
            float_literal(e, ng_dtype_real(dt), n->im);
            cat(e, ")");
        } else if (ng_dtype_is_float(dt)) {
            float_literal(e, dt, n->c.f);
        } else if (dt == NG_UINT64) {
            catf(e, "((%s)%lluU%s)", tname(e, dt), (unsigned long long)n->c.i, e->t->int64_suffix);
        } else if (n->c.i == INT64_MIN) {
            catf(e, "((%s)(-9223372036854775807%s - 1))", tname(e, dt), e->t->int64_suffix);
        } else {
            catf(e, "((%s)%lld%s)", tname(e, dt), (long long)n->c.i, e->t->int64_suffix);
        }
        break;
    case NG_IR_SCALAR: catf(e, "s%d", n->a); break;
    case NG_IR_VAR:
        var_name(e, n->a);
        if (n->nkids) { /* an array variable's element */
            cat(e, "[");
            kid(e, r, 0);
            cat(e, "]");
        }
        break;
    case NG_IR_SHAPE: catf(e, "a%d_n%d", n->a, n->b); break;
    case NG_IR_LOAD: load_value(e, r, n->a, 0); break;
    case NG_IR_UNARY: case NG_IR_BINARY:
        if (dt == NG_FLOAT16) /* computed in float, rounded to half as NumPy's loops do */
            cat(e, "ng_rh(");
        if (n->kind == NG_IR_UNARY)
            unary(e, r);
        else
            binary(e, r);
        if (dt == NG_FLOAT16)
            cat(e, ")");
        break;
    case NG_IR_SELECT: cat(e, "(("); kid(e, r, 0); cat(e, ") ? ("); kid(e, r, 1); cat(e, ") : ("); kid(e, r, 2); cat(e, "))"); break;
    case NG_IR_CAST: cast(e, r); break;
    case NG_IR_THREAD: thread_value(e, (NgIrThread)n->a); break;
    case NG_IR_TABLE: catf(e, "ng_tab%d[", n->a); kid(e, r, 0); cat(e, "]"); break;
    default: cat(e, "/* statement in expression */0"); break;
    }
}

static void stmt(Emitter *e, NgIrRef r, int depth);

static const char *omp_reduction(NgOp op, NgDType dt)
{
    if (ng_dtype_is_complex(dt)) /* declared in the complex prologue */
        return op == NG_OP_ADD ? "ngadd" : op == NG_OP_MUL ? "ngmul" : op == NG_OP_MAXIMUM ? "ngmax"
               : op == NG_OP_MINIMUM ? "ngmin" : NULL;
    switch (op) {
    case NG_OP_ADD: return dt == NG_BOOL ? "|" : "+";
    case NG_OP_MUL: return dt == NG_BOOL ? "&" : "*";
    case NG_OP_BITAND: return "&";
    case NG_OP_BITOR: return "|";
    case NG_OP_BITXOR: return "^";
    case NG_OP_MAXIMUM: return "ngmax";
    case NG_OP_MINIMUM: return "ngmin";
    case NG_OP_FMAX: return "max"; /* (NaN-free values: reduce.c's select never takes one) */
    case NG_OP_FMIN: return "min";
    default: return NULL;
    }
}

/* True if statement r has a break or continue of its own loop (one not
 * inside a nested loop). */
static bool jumps_out(const NgIrKernel *k, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_BREAK || n->kind == NG_IR_CONTINUE)
        return true;
    if (n->kind != NG_IR_BLOCK && n->kind != NG_IR_IF)
        return false;
    for (int i = n->kind == NG_IR_IF; i < n->nkids; i++)
        if (jumps_out(k, ng_ir_kid(k, r, i)))
            return true;
    return false;
}

/* True if statement r holds a statement of the given kind (FOR, WHILE,
 * ATOMIC ...), itself or anywhere in its blocks and loop bodies. */
static bool holds(const NgIrKernel *k, NgIrRef r, int kind)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == kind)
        return true;
    if (n->kind != NG_IR_BLOCK && n->kind < NG_IR_LET) /* an expression holds no statement */
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (holds(k, ng_ir_kid(k, r, i), kind))
            return true;
    return false;
}

/* True if statement r contains a loop. */
static bool has_loop(const NgIrKernel *k, NgIrRef r)
{
    return holds(k, r, NG_IR_FOR) || holds(k, r, NG_IR_WHILE);
}

/* Appends the " reduction(op:v)" clause of variable v reduced by op. False
 * when simd must not be used with it: a complex one (a user-declared
 * reduction over a struct); the declared max and min of real values
 * (ng_max_f64 ...) take simd lanes, in any order. */
static bool reduction_clause(Emitter *e, int v, NgOp op)
{
    NgDType vt = e->k->vars[v].dtype;
    const char *name = omp_reduction(op, vt);
    if (name && name[0] == 'n')
        catf(e, " reduction(%s_%s:", name, sfx(vt));
    else if (name)
        catf(e, " reduction(%s:", name);
    if (name) { /* (in jammed lanes: the lane's own copy, v3_0) */
        var_name(e, v);
        cat(e, ")");
    }
    return !ng_dtype_is_complex(vt);
}

/* Appends the " reduction(op:v)" clauses of loop r; false if simd must not
 * be used with one of them. */
static bool reduction_clauses(Emitter *e, NgIrRef r)
{
    bool simd = true;
    for (int i = 0; i < e->k->nreds; i++)
        if (e->k->reds[i].loop == r)
            simd = reduction_clause(e, e->k->reds[i].var, e->k->reds[i].op) && simd;
    return simd;
}

static bool reads(const NgIrKernel *k, NgIrRef x, int v, const uint8_t *among);

/* The variable a sequential loop body `body` only carries as a float max or
 * min, `v = max(v, x)` with x not reading v (np.max(row) in a jit loop), with
 * its op in *op; -1 otherwise. Such a loop runs in simd lanes, each with its
 * own maximum (the C compiler cannot vectorise the NaN-aware select alone). */
static int simd_extremum(const NgIrKernel *k, NgIrRef body, NgOp *op)
{
    const NgIrNode *n = ng_ir_node(k, body);
    while (n->kind == NG_IR_BLOCK && n->nkids == 1) {
        body = ng_ir_kid(k, body, 0);
        n = ng_ir_node(k, body);
    }
    if (n->kind != NG_IR_ASSIGN || k->vars[n->a].len || !ng_dtype_is_float(k->vars[n->a].dtype))
        return -1;
    NgIrRef x = ng_ir_kid(k, body, 0);
    const NgIrNode *b = ng_ir_node(k, x);
    if (b->kind != NG_IR_BINARY || (b->op != NG_OP_MAXIMUM && b->op != NG_OP_MINIMUM))
        return -1;
    const NgIrNode *acc = ng_ir_node(k, ng_ir_kid(k, x, 0));
    if (acc->kind != NG_IR_VAR || acc->a != n->a || reads(k, ng_ir_kid(k, x, 1), n->a, NULL))
        return -1;
    *op = (NgOp)b->op;
    return n->a;
}

static bool has_reductions(const NgIrKernel *k, NgIrRef r)
{
    for (int i = 0; i < k->nreds; i++)
        if (k->reds[i].loop == r)
            return true;
    return false;
}

/* True if loop r's reductions give one result in any order: none, or
 * integer max, min, and, or, xor (so a dynamic schedule keeps runs alike). */
static bool order_free(const NgIrKernel *k, NgIrRef r)
{
    for (int i = 0; i < k->nreds; i++) {
        NgOp op = k->reds[i].op;
        if (k->reds[i].loop == r && (!ng_dtype_is_int(k->vars[k->reds[i].var].dtype) ||
                                     (op != NG_OP_MAXIMUM && op != NG_OP_MINIMUM && op != NG_OP_BITAND &&
                                      op != NG_OP_BITOR && op != NG_OP_BITXOR)))
            return false;
    }
    return true;
}

/* True if expression x is known positive: a positive constant, a block's
 * size or the number of blocks, or a product of such (the strides of
 * block-level loops). */
static bool positive(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_CONST)
        return ng_dtype_is_float((NgDType)n->dtype) ? n->c.f > 0 : n->c.i > 0;
    if (n->kind == NG_IR_THREAD)
        return n->a == NG_IR_BLOCK_SIZE || n->a == NG_IR_NUM_BLOCKS;
    return n->kind == NG_IR_BINARY && n->op == NG_OP_MUL && positive(k, ng_ir_kid(k, x, 0)) &&
           positive(k, ng_ir_kid(k, x, 1));
}

/* FOR r's stop: the expression, or ng_endV where the loop head computed
 * it once (`hoisted`). */
static void loop_stop(Emitter *e, NgIrRef r, bool hoisted)
{
    if (hoisted)
        catf(e, "ng_end%d", ng_ir_node(e->k, r)->a);
    else
        kid(e, r, 1);
}

/* The condition of FOR r: v < stop for a positive step, v > stop for a
 * negative constant one, else decided at run time. */
static void loop_test(Emitter *e, NgIrRef r, const NgIrNode *sn, bool hoisted)
{
    int v = ng_ir_node(e->k, r)->a;
    if ((sn->kind == NG_IR_CONST && sn->c.i > 0) || positive(e->k, ng_ir_kid(e->k, r, 2))) {
        catf(e, "v%d < ", v);
        loop_stop(e, r, hoisted);
    } else if (sn->kind == NG_IR_CONST) {
        catf(e, "v%d > ", v);
        loop_stop(e, r, hoisted);
    } else {
        cat(e, "(");
        kid(e, r, 2);
        catf(e, " > 0) ? (v%d < ", v);
        loop_stop(e, r, hoisted);
        catf(e, ") : (v%d > ", v);
        loop_stop(e, r, hoisted);
        cat(e, ")");
    }
}

/* Opens `for (int64_t v = start; test; v += step) {` of FOR r. A loop whose
 * stop is an expression computes it once, in the head (range()'s semantics;
 * left in the test, a division in it ran every iteration: the compiler does
 * not hoist what may trap), unless it follows a pragma (`canonical`: OpenMP
 * wants its canonical form). */
static void plain_for_head(Emitter *e, NgIrRef r, bool canonical)
{
    int v = ng_ir_node(e->k, r)->a;
    NgIrKind sk = ng_ir_node(e->k, ng_ir_kid(e->k, r, 1))->kind;
    bool hoisted = !canonical && sk != NG_IR_CONST && sk != NG_IR_SCALAR && sk != NG_IR_SHAPE && sk != NG_IR_VAR;
    catf(e, "for (int64_t v%d = ", v);
    kid(e, r, 0);
    if (hoisted) {
        catf(e, ", ng_end%d = ", v);
        kid(e, r, 1);
    }
    cat(e, "; ");
    loop_test(e, r, ng_ir_node(e->k, ng_ir_kid(e->k, r, 2)), hoisted);
    catf(e, "; v%d += ", v);
    kid(e, r, 2);
    cat(e, ") {\n");
}

/* The lowest (hi: highest) value of dtype t, as a literal of the target. */
static void limit(Emitter *e, NgDType t, bool hi)
{
    int bits = ng_dtype_info(t)->itemsize * 8;
    const char *sx = e->t->int64_suffix;
    if (ng_dtype_is_float(t)) {
        const char *inf = e->t->par == NG_PAR_GRID_STRIDE ? "__longlong_as_double(0x7ff0000000000000LL)"
                                                          : "INFINITY";
        catf(e, "%s%s", hi ? "" : "-", inf);
    } else if (t == NG_BOOL) {
        cat(e, hi ? "1" : "0");
    } else if (!ng_dtype_is_signed(t)) {
        if (hi)
            catf(e, "%lluU%s", (unsigned long long)(bits == 64 ? UINT64_MAX : (1ULL << bits) - 1), sx);
        else
            cat(e, "0");
    } else {
        long long m = bits == 64 ? INT64_MAX : (1LL << (bits - 1)) - 1;
        if (hi)
            catf(e, "%lld%s", m, sx);
        else
            catf(e, "(-%lld%s - 1)", m, sx);
    }
}

/* The identity of reduction `op` in dtype t (0 for +, the lowest value
 * for max, ...), as a target expression. */
static void reduction_identity(Emitter *e, NgOp op, NgDType t)
{
    if (ng_dtype_is_complex(t)) { /* max starts below everything in NumPy's order: (-inf, -inf) */
        catf(e, "ng_cpack_%s(", sfx(t));
        for (int part = 0; part < 2; part++) {
            if (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM)
                limit(e, ng_dtype_real(t), op == NG_OP_MINIMUM);
            else
                cat(e, op == NG_OP_MUL && part == 0 ? "1" : "0");
            cat(e, part ? ")" : ", ");
        }
        return;
    }
    catf(e, "((%s)", tname(e, t));
    if (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM || op == NG_OP_FMAX || op == NG_OP_FMIN)
        limit(e, t, op == NG_OP_MINIMUM || op == NG_OP_FMIN);
    else if (op == NG_OP_BITAND)
        cat(e, t == NG_BOOL ? "1" : "~0");
    else
        cat(e, op == NG_OP_MUL ? "1" : "0");
    cat(e, ")");
}

/* `a op b` in dtype t as a reduction combines: integers wrap, bool's +
 * is `or` and its * is `and`, max and min as NumPy's (NaN wins). */
static void combine_expr(Emitter *e, NgOp op, NgDType t, const char *a, const char *b)
{
    bool wraps = ng_dtype_is_int(t) && (op == NG_OP_ADD || op == NG_OP_MUL);
    if (ng_dtype_is_complex(t)) {
        catf(e, "ng_%s_%s(%s, %s)", ng_op_name(op), sfx(t), a, b);
        return;
    }
    if (op == NG_OP_GT || op == NG_OP_LT) { /* b where b > a (<), else a: Python's `if b > a: a = b` */
        catf(e, "(%s %s %s ? %s : %s)", b, op == NG_OP_GT ? ">" : "<", a, b, a);
        return;
    }
    const char *sym = op == NG_OP_ADD ? (t == NG_BOOL ? "|" : "+") : op == NG_OP_MUL ? (t == NG_BOOL ? "&" : "*")
                      : op == NG_OP_BITAND ? "&" : op == NG_OP_BITOR ? "|" : "^";
    if (op == NG_OP_MAXIMUM || op == NG_OP_MINIMUM || op == NG_OP_FMAX || op == NG_OP_FMIN)
        catf(e, "ng_%s_%s(%s, %s)", op == NG_OP_MAXIMUM || op == NG_OP_FMAX ? "max" : "min", sfx(t), a, b);
    else if (wraps)
        catf(e, "(%s)((%s)%s %s (%s)%s)", tname(e, t), wrap_type(t), a, sym, wrap_type(t), b);
    else
        catf(e, "(%s)(%s %s %s)", tname(e, t), a, sym, b);
}

/* `vV = vV op ng_lV`. */
static void reduction_combine(Emitter *e, NgOp op, NgDType t, int v)
{
    char a[24], b[24];
    snprintf(a, sizeof a, "v%d", v);
    snprintf(b, sizeof b, "ng_l%d", v);
    catf(e, "%s = ", a);
    combine_expr(e, op, t, a, b);
    cat(e, ";\n");
}

/* ---- block-level reductions (NG_IR_BLOCK_REDUCE) ---- */

/* The block's scratch array for block reduction r, declared at the kernel's
 * outermost scope (OpenCL requires __local variables there): CUDA keeps one
 * slot per warp plus one to broadcast the total; OpenCL one per thread. */
static void store_scratch(Emitter *e, NgIrRef r);

static void block_scratch(Emitter *e)
{
    if (e->t->par != NG_PAR_OPENMP)
        store_scratch(e, e->k->body);
    for (NgIrRef r = 0; r < e->k->nnodes; r++) {
        const NgIrNode *n = ng_ir_node(e->k, r);
        if (n->kind != NG_IR_BLOCK_REDUCE || e->t->par == NG_PAR_OPENMP)
            continue;
        const char *T = tname(e, e->k->vars[n->a].dtype);
        if (e->t->par == NG_PAR_GRID_STRIDE)
            catf(e, "    __shared__ %s ng_sh%d[33];\n", T, r);
        else
            catf(e, "    __local %s ng_sh%d[%d];\n", T, r, NG_BLOCK_THREADS);
    }
}

/* The five shuffle steps that combine variable `v` (a C name) over one warp
 * into lane 0. Values narrower than 32 bits travel as int (shuffles have no
 * 8/16-bit form). */
static void warp_reduce(Emitter *e, const char *v, NgOp op, NgDType t, int depth)
{
    bool narrow = ng_dtype_info(t)->itemsize < 4 && t != NG_FLOAT16; /* float16 values are floats */
    indent(e, depth);
    cat(e, "for (int ng_o = 16; ng_o > 0; ng_o >>= 1) {\n");
    indent(e, depth + 1);
    if (ng_dtype_is_complex(t)) /* part by part */
        catf(e, "const %s ng_y = ng_cpack_%s(__shfl_down_sync(0xffffffffu, %s.re, ng_o), "
                "__shfl_down_sync(0xffffffffu, %s.im, ng_o));\n", tname(e, t), sfx(t), v, v);
    else
        catf(e, "const %s ng_y = (%s)__shfl_down_sync(0xffffffffu, %s%s, ng_o);\n", tname(e, t), tname(e, t),
             narrow ? "(int)" : "", v);
    indent(e, depth + 1);
    catf(e, "%s = ", v);
    combine_expr(e, op, t, v, "ng_y");
    cat(e, ";\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* Variable `v` (a C name, of dtype t) = its combination over the block, in
 * every thread of it, through the scratch array `sh` (see block_scratch).
 * CUDA (block size a multiple of 32): shuffles within each warp, the warps'
 * results through shared memory, shuffles again in warp 0, then a broadcast.
 * OpenCL: a tree in local memory, halving the live width each step (any
 * work-group size up to NG_BLOCK_THREADS). C: a block is one thread. */
static void block_combine_as(Emitter *e, const char *v, NgDType t, NgOp op, const char *sh, int depth)
{
    if (e->t->par == NG_PAR_OPENMP) {
        indent(e, depth);
        catf(e, "/* block reduction of %s: one thread per block here */\n", v);
        return;
    }
    indent(e, depth);
    cat(e, "{\n");
    depth++;
    if (e->t->par == NG_PAR_GRID_STRIDE) {
        indent(e, depth); /* (a block of one thread, the only size not a multiple of 32, has nothing to do) */
        cat(e, "if (blockDim.x > 1u) {\n");
        depth++;
        indent(e, depth);
        cat(e, "const unsigned ng_lane = threadIdx.x & 31u, ng_warp = threadIdx.x >> 5;\n");
        warp_reduce(e, v, op, t, depth);
        indent(e, depth);
        catf(e, "if (ng_lane == 0u)\n");
        indent(e, depth + 1);
        catf(e, "%s[ng_warp] = %s;\n", sh, v);
        indent(e, depth);
        cat(e, "__syncthreads();\n");
        indent(e, depth);
        cat(e, "if (ng_warp == 0u) {\n");
        indent(e, depth + 1);
        catf(e, "%s = ng_lane < (blockDim.x >> 5) ? %s[ng_lane] : ", v, sh);
        reduction_identity(e, op, t);
        cat(e, ";\n");
        warp_reduce(e, v, op, t, depth + 1);
        indent(e, depth + 1);
        catf(e, "if (ng_lane == 0u)\n");
        indent(e, depth + 2);
        catf(e, "%s[32] = %s;\n", sh, v);
        indent(e, depth);
        cat(e, "}\n");
        indent(e, depth);
        cat(e, "__syncthreads();\n");
        indent(e, depth);
        catf(e, "%s = %s[32];\n", v, sh);
        depth--;
        indent(e, depth);
        cat(e, "}\n");
    } else {
        char a[48], b[64];
        snprintf(a, sizeof a, "%s[ng_lid]", sh);
        snprintf(b, sizeof b, "%s[ng_lid + ng_h]", sh);
        indent(e, depth);
        cat(e, "const int ng_lid = (int)get_local_id(0);\n");
        indent(e, depth);
        cat(e, "int ng_w = (int)get_local_size(0);\n");
        indent(e, depth);
        catf(e, "%s[ng_lid] = %s;\n", sh, v);
        indent(e, depth);
        cat(e, "barrier(CLK_LOCAL_MEM_FENCE);\n");
        indent(e, depth);
        cat(e, "while (ng_w > 1) {\n");
        indent(e, depth + 1);
        cat(e, "const int ng_h = (ng_w + 1) >> 1;\n");
        indent(e, depth + 1);
        cat(e, "if (ng_lid < ng_w - ng_h)\n");
        indent(e, depth + 2);
        catf(e, "%s = ", a);
        combine_expr(e, op, t, a, b);
        cat(e, ";\n");
        indent(e, depth + 1);
        cat(e, "barrier(CLK_LOCAL_MEM_FENCE);\n");
        indent(e, depth + 1);
        cat(e, "ng_w = ng_h;\n");
        indent(e, depth);
        cat(e, "}\n");
        indent(e, depth);
        catf(e, "%s = %s[0];\n", v, sh);
        indent(e, depth); /* nobody writes the array again before everyone has read it */
        cat(e, "barrier(CLK_LOCAL_MEM_FENCE);\n");
    }
    indent(e, depth - 1);
    cat(e, "}\n");
}

/* vV = its combination over the block, through the scratch array of node r. */
static void block_combine(Emitter *e, int v, NgOp op, NgIrRef r, int depth)
{
    char name[24], sh[24];
    snprintf(name, sizeof name, "v%d", v);
    snprintf(sh, sizeof sh, "ng_sh%d", r);
    block_combine_as(e, name, e->k->vars[v].dtype, op, sh, depth);
}

static void block_reduce(Emitter *e, NgIrRef r, int depth)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    block_combine(e, n->a, (NgOp)n->op, r, depth);
}

/* The ranked reduction whose key (vars[0]) STORE node r stores, or NULL. */
static const NgIrRanked *ranked_key_store(const NgIrKernel *k, NgIrRef r)
{
    const NgIrNode *v = ng_ir_node(k, ng_ir_kid(k, r, 0));
    for (int i = 0; v->kind == NG_IR_VAR && i < k->nranked; i++)
        if (k->ranked[i].vars[0] == v->a)
            return &k->ranked[i];
    return NULL;
}

/* True if statement r, at the kernel's top level (every thread runs it),
 * stores a variable that has a reduction: on a GPU each block combines its
 * threads' partials first, then one thread per block combines the block's
 * into the result atomically. */
static bool block_first_store(const NgIrKernel *k, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind != NG_IR_STORE)
        return false;
    const NgIrNode *v = ng_ir_node(k, ng_ir_kid(k, r, 0));
    for (int i = 0; v->kind == NG_IR_VAR && i < k->nreds; i++)
        if (k->reds[i].var == v->a)
            return true;
    return ranked_key_store(k, r) != NULL;
}

/* Scratch arrays of the top-level stores of reductions (see block_first_store). */
static void store_scratch(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    if (n->kind == NG_IR_BLOCK) {
        for (int i = 0; i < n->nkids; i++)
            store_scratch(e, ng_ir_kid(e->k, r, i));
        return;
    }
    if (!block_first_store(e->k, r))
        return;
    const char *T = tname(e, e->k->vars[ng_ir_node(e->k, ng_ir_kid(e->k, r, 0))->a].dtype);
    bool ranked = ranked_key_store(e->k, r) != NULL; /* and the ranks: ng_srR */
    for (int i = 0; i <= ranked; i++) {
        const char *ty = i ? tname(e, NG_INT64) : T, *nm = i ? "ng_sr" : "ng_sh";
        if (e->t->par == NG_PAR_GRID_STRIDE)
            catf(e, "    __shared__ %s %s%d[33];\n", ty, nm, r);
        else
            catf(e, "    __local %s %s%d[%d];\n", ty, nm, r, NG_BLOCK_THREADS);
    }
}

/* An NG_IR_THREAD value. */
static void thread_value(Emitter *e, NgIrThread which)
{
    static const char *cuda[] = {"threadIdx.x", "blockIdx.x", "blockDim.x", "gridDim.x"};
    static const char *ocl[] = {"get_local_id(0)", "get_group_id(0)", "get_local_size(0)", "get_num_groups(0)"};
    static const char *c[] = {"0", "0", "1", "1"};
    const char **names = e->t->par == NG_PAR_GRID_STRIDE ? cuda : e->t->par == NG_PAR_GLOBAL_ID ? ocl : c;
    catf(e, "((int64_t)%s)", names[which]);
}

/* ---- atomics on GPU targets ---- */

/* The read-modify-write operations a GPU kernel may need, by helper name. */
static const struct {
    NgOp op;
    const char *name;
} atom_ops[] = {{NG_OP_ADD, "add"}, {NG_OP_MUL, "mul"}, {NG_OP_MAXIMUM, "max"}, {NG_OP_MINIMUM, "min"},
                {NG_OP_BITAND, "and"}, {NG_OP_BITOR, "or"}, {NG_OP_BITXOR, "xor"},
                {NG_OP_GT, "gt"}, {NG_OP_LT, "lt"}}; /* (gt: v where v > *p, else *p: NaN never replaces) */
#define NATOM_OPS ((int)(sizeof atom_ops / sizeof atom_ops[0]))

static int atom_index(NgOp op)
{
    for (int i = 0; i < NATOM_OPS; i++)
        if (atom_ops[i].op == op)
            return i;
    return -1;
}

/* `ng_atom_add_f64(` : the call of the helper updating a T in place. */
static void atom_call(Emitter *e, NgOp op, NgDType t)
{
    int i = atom_index(op);
    if (i < 0 && e->st == NG_OK)
        e->st = ng_error_set(NG_ERR_INTERNAL, "no atomic %s on target %s", ng_op_name(op), e->t->name);
    catf(e, "ng_atom_%s_%s(", i < 0 ? "x" : atom_ops[i].name, sfx(t));
}

/* One helper: `*p = *p op v` atomically, by a compare-and-swap loop on the
 * 32- or 64-bit word holding *p (GPUs have CAS for every type; hardware
 * add/max exist only for some). 1- and 2-byte values are swapped inside
 * their aligned 32-bit word. */
static void atom_helper(Emitter *e, int op_i, NgDType t)
{
    bool cuda = e->t->par == NG_PAR_GRID_STRIDE;
    const char *gp = e->t->global_ptr, *T = tname(e, t);
    int size = ng_dtype_info(t)->itemsize;
    const char *w32 = cuda ? "unsigned int" : "uint", *w64 = cuda ? "unsigned long long" : "ulong";
    const char *W = size == 8 ? w64 : w32;
    const char *cas = size == 8 ? (cuda ? "atomicCAS((unsigned long long *)" : "atom_cmpxchg((volatile __global ulong *)")
                                : (cuda ? "atomicCAS((unsigned int *)" : "atomic_cmpxchg((volatile __global uint *)");
    NgOp op = atom_ops[op_i].op;
    if (ng_dtype_is_complex(t) && op == NG_OP_ADD) { /* the parts are independent sums */
        const char *R = real_name(t), *rs = sfx(ng_dtype_real(t));
        catf(e, "NG_FN void ng_atom_add_%s(%s%s *p, %s v)\n{\n    ng_atom_add_%s((%s%s *)p, v.re);\n"
                "    ng_atom_add_%s((%s%s *)p + 1, v.im);\n}\n", sfx(t), gp, T, T, rs, gp, R, rs, gp, R);
        return;
    }
    if (ng_dtype_is_complex(t) || t == NG_FLOAT16) {
        if (e->st == NG_OK)
            e->st = ng_error_set(NG_ERR_UNSUPPORTED, "atomic %s of %s on target %s is not supported",
                                 ng_op_name(op), ng_dtype_info(t)->name, e->t->name);
        return;
    }
    catf(e, "NG_FN void ng_atom_%s_%s(%s%s *p, %s v)\n{\n", atom_ops[op_i].name, sfx(t), gp, T, T);
    if (size >= 4) {
        catf(e, "    union { %s u; %s t; } o, n;\n    o.u = *(volatile %s%s *)p;\n    for (;;) {\n        n.t = ", W, T,
             gp, W);
        combine_expr(e, op, t, "o.t", "v");
        catf(e, ";\n        %s seen = %sp, o.u, n.u);\n", W, cas);
    } else {
        const char *pint = cuda ? "unsigned long long" : "uintptr_t";
        catf(e, "    %s%s *w = (%s%s *)((%s)p & ~(%s)3);\n", gp, W, gp, W, pint, pint);
        catf(e, "    const %s shift = (%s)((%s)p & 3) * 8u, mask = (%s)((1u << (8 * sizeof(%s))) - 1u) << shift;\n",
             W, W, pint, W, T);
        catf(e, "    %s old = *(volatile %s%s *)w;\n    for (;;) {\n        %s cur = (%s)((old & mask) >> shift), nv = ",
             W, gp, W, T, T);
        combine_expr(e, op, t, "cur", "v");
        catf(e, ";\n        %s next = (old & ~mask) | (((%s)(uint%d_t)nv << shift) & mask);\n", W, W, size * 8);
        catf(e, "        %s seen = %sw, old, next);\n        if (seen == old)\n            return;\n"
                "        old = seen;\n    }\n}\n", W, cas);
        return;
    }
    cat(e, "        if (seen == o.u)\n            return;\n        o.u = seen;\n    }\n}\n");
}

/* The helpers kernel k needs on a GPU target: one per (op, dtype) of its
 * atomic updates and of its parallel reductions (combined atomically). */
static void atom_helpers(Emitter *e)
{
    const NgIrKernel *k = e->k;
    bool need[NATOM_OPS][NG_NTYPES] = {{false}};
    bool any = false, wide = false;
    for (int r = 0; r < k->nnodes; r++)
        if (k->nodes[r].kind == NG_IR_ATOMIC && atom_index((NgOp)k->nodes[r].op) >= 0)
            need[atom_index((NgOp)k->nodes[r].op)][k->params[k->nodes[r].a].dtype] = true;
    for (int i = 0; i < k->nreds; i++) /* (a reduction of a sequential loop needs none) */
        if (atom_index(k->reds[i].op) >= 0 && (k->nodes[k->reds[i].loop].flags & NG_IR_PARALLEL))
            need[atom_index(k->reds[i].op)][k->vars[k->reds[i].var].dtype] = true;
    for (int t = NG_COMPLEX64; t <= NG_COMPLEX128; t++) /* a complex sum adds its parts */
        if (need[atom_index(NG_OP_ADD)][t])
            need[atom_index(NG_OP_ADD)][ng_dtype_real((NgDType)t)] = true;
    for (int o = 0; o < NATOM_OPS; o++)
        for (int t = 0; t < NG_NTYPES; t++) {
            any = any || need[o][t];
            wide = wide || (need[o][t] && ng_dtype_info((NgDType)t)->itemsize == 8);
        }
    if (!any)
        return;
    if (wide && e->t->par == NG_PAR_GLOBAL_ID)
        cat(e, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    for (int o = 0; o < NATOM_OPS; o++)
        for (int t = 0; t < NG_NTYPES; t++)
            if (need[o][t])
                atom_helper(e, o, (NgDType)t);
}

/* The reduction of variable v over loop `loop`, if v is one (-1 otherwise). */
static int reduction_of(const NgIrKernel *k, int v, NgIrRef loop)
{
    for (int i = 0; loop != NG_IR_NONE && i < k->nreds; i++)
        if (k->reds[i].var == v && k->reds[i].loop == loop)
            return i;
    return -1;
}

static void for_loop_plain(Emitter *e, NgIrRef r, int depth, bool team);
static void par_decision(Emitter *e, NgIrRef r, int depth);

/* The ranked reduction of loop `loop`, or NULL. */
static const NgIrRanked *ranked_of(const NgIrKernel *k, NgIrRef loop)
{
    for (int i = 0; loop != NG_IR_NONE && i < k->nranked; i++)
        if (k->ranked[i].loop == loop)
            return &k->ranked[i];
    return NULL;
}

/* The rank of a worker that never updated: below the start's -1. */
static void rank_none(Emitter *e) { limit(e, NG_INT64, false); }

/* Whether ranked reduction rk's keys may be NaN and NaN wins. */
static bool nan_keys(const NgIrKernel *k, const NgIrRanked *rk)
{
    return rk->nan_wins && ng_dtype_is_float(k->vars[rk->vars[0]].dtype);
}

/* `(a) beats (b)` for ranked reduction rk, given C expressions of the two
 * keys and ranks: a has a rank, and a larger key (MINIMUM: smaller) or an
 * equal one with an earlier rank (`last`: later). A NaN b is never beaten,
 * unless NaN wins: then a NaN a beats any other b, and a NaN b only an
 * earlier NaN a. */
static void ranked_beats(Emitter *e, const NgIrRanked *rk, const char *ak, const char *ar, const char *bk,
                         const char *br)
{
    const char *cmp = rk->op == NG_OP_MAXIMUM ? ">" : "<", *order = rk->last ? ">" : "<";
    catf(e, "(%s != ", ar);
    rank_none(e);
    if (nan_keys(e->k, rk))
        catf(e, " && (%s != %s ? (%s != %s && %s %s %s) : (%s != %s || %s %s %s || (%s == %s && %s %s %s))))", bk,
             bk, ak, ak, ar, order, br, ak, ak, ak, cmp, bk, ak, bk, ar, order, br);
    else
        catf(e, " && (%s %s %s || (%s == %s && %s %s %s)))", ak, cmp, bk, ak, bk, ar, order, br);
}

/* Parallel loop r with ranked reduction rk on OpenMP: each thread runs its
 * share (static schedule) from the key's identity and no rank, in private
 * copies of the variables, then folds its state into the shared ones under
 * a critical section:
 *     { T *ng_rkI = &vI...; omp parallel { T vI = ...; omp for ...; omp critical if (beats) *ng_rkI = vI; } } */
static void for_loop_ranked(Emitter *e, NgIrRef r, const NgIrRanked *rk, int depth)
{
    indent(e, depth);
    cat(e, "{\n");
    for (int i = 0; i < rk->nvars; i++) {
        indent(e, depth + 1);
        catf(e, "%s *const ng_rk%d = &v%d;\n", tname(e, e->k->vars[rk->vars[i]].dtype), i, rk->vars[i]);
    }
    par_decision(e, r, depth + 1);
    indent(e, depth + 1);
    catf(e, "#pragma omp parallel if(ng_par%d)\n", ng_ir_node(e->k, r)->a);
    indent(e, depth + 1);
    cat(e, "{\n");
    for (int i = 0; i < rk->nvars; i++) {
        NgDType t = e->k->vars[rk->vars[i]].dtype;
        indent(e, depth + 2);
        catf(e, "%s v%d = ", tname(e, t), rk->vars[i]);
        if (i == 0)
            reduction_identity(e, rk->op, t);
        else if (i == 1)
            rank_none(e);
        else
            catf(e, "*ng_rk%d", i);
        cat(e, ";\n");
    }
    for_loop_plain(e, r, depth + 2, true);
    char ak[24], ar[24];
    snprintf(ak, sizeof ak, "v%d", rk->vars[0]);
    snprintf(ar, sizeof ar, "v%d", rk->vars[1]);
    indent(e, depth + 2);
    cat(e, "#pragma omp critical\n");
    indent(e, depth + 2);
    cat(e, "if ");
    ranked_beats(e, rk, ak, ar, "(*ng_rk0)", "(*ng_rk1)");
    cat(e, " {\n");
    for (int i = 0; i < rk->nvars; i++) {
        indent(e, depth + 3);
        catf(e, "*ng_rk%d = v%d;\n", i, rk->vars[i]);
    }
    indent(e, depth + 2);
    cat(e, "}\n");
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* After the GPU-wide loop of ranked reduction rk, at the STORE r of its key:
 * the block finds its best thread (the best key by a tree, then the
 * earliest, or latest, rank among the threads holding it); that thread, if
 * its key is not already beaten by the cell's (the cells only get better),
 * takes the lock and, if it still beats the cells, writes every variable to
 * its cell. `whole`: every thread of the block reaches r (else each thread
 * with a rank takes the lock itself). */
static void ranked_gpu_combine(Emitter *e, const NgIrRanked *rk, NgIrRef r, bool whole, int depth)
{
    bool cuda = e->t->par == NG_PAR_GRID_STRIDE;
    const char *gp = e->t->global_ptr;
    NgDType kt = e->k->vars[rk->vars[0]].dtype;
    int vk = rk->vars[0], vr = rk->vars[1];
    /* the cells as values (read, a float16 widened) and as places (written, a float16 narrowed) */
    char cell[NG_IR_MAX_RANKED][112], place[NG_IR_MAX_RANKED][96], ak[24], ar[24];
    for (int i = 0; i < rk->nvars; i++) {
        NgDType t = e->k->vars[rk->vars[i]].dtype;
        snprintf(place[i], sizeof place[i], "(*(volatile %s%s *)&a%d[0])", gp, sname(e, t), rk->cells[i]);
        snprintf(cell[i], sizeof cell[i], t == NG_FLOAT16 ? "ng_h2f(%s)" : "%s", place[i]);
    }
    snprintf(ak, sizeof ak, "v%d", vk);
    snprintf(ar, sizeof ar, "v%d", vr);
    indent(e, depth);
    cat(e, "{\n");
    if (whole) {
        char sh[24], sr[24];
        snprintf(sh, sizeof sh, "ng_sh%d", r);
        snprintf(sr, sizeof sr, "ng_sr%d", r);
        indent(e, depth + 1);
        catf(e, "%s ng_bk = v%d;\n", tname(e, kt), vk);
        block_combine_as(e, "ng_bk", kt, rk->op, sh, depth + 1);
        indent(e, depth + 1);
        catf(e, "%s ng_br = (v%d != ", tname(e, NG_INT64), vr);
        rank_none(e);
        if (nan_keys(e->k, rk)) /* (the tree's max is NaN when a key is) */
            catf(e, " && (v%d == ng_bk || (v%d != v%d && ng_bk != ng_bk))) ? v%d : ", vk, vk, vk, vr);
        else
            catf(e, " && v%d == ng_bk) ? v%d : ", vk, vr);
        limit(e, NG_INT64, !rk->last);
        cat(e, ";\n");
        block_combine_as(e, "ng_br", NG_INT64, rk->last ? NG_OP_MAXIMUM : NG_OP_MINIMUM, sr, depth + 1);
    }
    indent(e, depth + 1);
    catf(e, "if (v%d != ", vr);
    rank_none(e);
    if (whole) /* (the block's winner alone) */
        catf(e, " && v%d == ng_br", vr);
    cat(e, ") {\n");
    indent(e, depth + 2);
    catf(e, "if (!(v%d %s %s)) {\n", vk, rk->op == NG_OP_MAXIMUM ? "<" : ">", cell[0]);
    indent(e, depth + 3);
    if (cuda)
        catf(e, "while (atomicCAS((unsigned int *)&a%d[0], 0u, 1u) != 0u) {}\n", rk->lock);
    else
        catf(e, "while (atomic_cmpxchg((volatile __global int *)&a%d[0], 0, 1) != 0) {}\n", rk->lock);
    indent(e, depth + 3);
    cat(e, cuda ? "__threadfence();\n" : "mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
    indent(e, depth + 3);
    cat(e, "if ");
    ranked_beats(e, rk, ak, ar, cell[0], cell[1]);
    cat(e, " {\n");
    for (int i = 0; i < rk->nvars; i++) {
        NgDType t = e->k->vars[rk->vars[i]].dtype;
        indent(e, depth + 4);
        if (ng_dtype_is_complex(t)) /* (part by part: CUDA's structs take no volatile assignment) */
            catf(e, "((volatile %s%s *)&a%d[0])[0] = v%d.re; ((volatile %s%s *)&a%d[0])[1] = v%d.im;\n", gp,
                 real_name(t), rk->cells[i], rk->vars[i], gp, real_name(t), rk->cells[i], rk->vars[i]);
        else
            catf(e, t == NG_FLOAT16 ? "%s = ng_f2h(v%d);\n" : "%s = v%d;\n", place[i], rk->vars[i]);
    }
    indent(e, depth + 3);
    cat(e, "}\n");
    indent(e, depth + 3);
    cat(e, cuda ? "__threadfence();\n" : "mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
    indent(e, depth + 3);
    if (cuda)
        catf(e, "atomicExch((unsigned int *)&a%d[0], 0u);\n", rk->lock);
    else
        catf(e, "atomic_xchg((volatile __global int *)&a%d[0], 0);\n", rk->lock);
    indent(e, depth + 2);
    cat(e, "}\n");
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* Opens (or closes) a block in which each reduction variable of loop r is
 * a local starting at the reduction's identity, under the variable's own
 * name, and folds it into OpenMP's private copy at the end:
 *     { T ng_lV; { T vV = identity; ...body...  ng_lV = vV; } vV = vV op ng_lV; }
 * GCC does not vectorise an inner loop that updates OpenMP's private copy
 * (a nested cycle); it does vectorise one that updates a fresh local, as
 * long as it cannot fuse the fold back into one cycle: the empty asm makes
 * ng_lV opaque to it. */
static void reduction_shadows(Emitter *e, NgIrRef r, int depth, bool open)
{
    const NgIrKernel *k = e->k;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            indent(e, depth);
            cat(e, open ? "{\n" : "}\n");
        }
        for (int i = 0; i < k->nreds; i++) {
            if (k->reds[i].loop != r)
                continue;
            int v = k->reds[i].var;
            NgDType t = k->vars[v].dtype;
            bool inside = (pass == 1) == open;
            indent(e, depth + inside);
            if (open && !inside) {
                catf(e, "%s ng_l%d;\n", tname(e, t), v);
            } else if (open) {
                catf(e, "%s v%d = ", tname(e, t), v);
                reduction_identity(e, k->reds[i].op, t);
                cat(e, ";\n");
            } else if (inside) {
                catf(e, "ng_l%d = v%d; __asm__(\"\" : \"+m\"(ng_l%d));\n", v, v, v);
            } else {
                reduction_combine(e, k->reds[i].op, t, v);
            }
        }
    }
}

/* Declares ng_chunk<loop variable>, a 256th of FOR r's trip count (at least 1, at most
 * 2^31 - 1), in unsigned arithmetic: no bounds overflow. */
static void dynamic_chunk(Emitter *e, NgIrRef r, int depth)
{
    indent(e, depth);
    catf(e, "int64_t ng_chunk%d; {\n", ng_ir_node(e->k, r)->a);
    indent(e, depth + 1);
    cat(e, "const uint64_t ng_span = (uint64_t)(");
    kid(e, r, 1);
    cat(e, ") - (uint64_t)(");
    kid(e, r, 0);
    cat(e, ");\n");
    indent(e, depth + 1);
    cat(e, "const int64_t ng_step = ");
    kid(e, r, 2);
    cat(e, ";\n");
    indent(e, depth + 1);
    cat(e, "const uint64_t ng_by = ng_step > 0 ? (uint64_t)ng_step : (uint64_t)0 - (uint64_t)ng_step;\n");
    indent(e, depth + 1);
    cat(e, "const uint64_t ng_c = ng_by ? (ng_step > 0 ? ng_span : (uint64_t)0 - ng_span) / ng_by / 256u : 1u;\n");
    indent(e, depth + 1);
    catf(e, "ng_chunk%d = ng_c < 1u ? 1 : ng_c > 2147483647u ? 2147483647 : (int64_t)ng_c;\n", ng_ir_node(e->k, r)->a);
    indent(e, depth);
    cat(e, "}\n");
}

static bool steps_by_one(const NgIrKernel *k, NgIrRef loop)
{
    const NgIrNode *st = ng_ir_node(k, ng_ir_kid(k, loop, 2));
    return st->kind == NG_IR_CONST && st->c.i == 1;
}

/* Declares ng_n<v>, FOR r's trip count (unsigned: no overflow). */
static void trip_count(Emitter *e, NgIrRef r, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    indent(e, depth);
    catf(e, "const uint64_t ng_n%d = (", v);
    kid(e, r, 1);
    cat(e, ") > (");
    kid(e, r, 0);
    cat(e, ") ? (uint64_t)(");
    kid(e, r, 1);
    cat(e, ") - (uint64_t)(");
    kid(e, r, 0);
    cat(e, ") : 0u;\n");
}

/* ---- jammed loops (C target) ----
 * A parallel loop whose body holds sequential loops over the same range in
 * every iteration (a dot product per element: matmul, horner, convolutions)
 * runs NG_JAM iterations at once: every statement of its body is written
 * once per lane, on the lane's own copies of the variables the body assigns
 * (v<n>_<lane>), while the loops inside are shared by the lanes. The lanes'
 * statements are alike and side by side, so the C compiler makes them one
 * vector operation where the lanes' elements are adjacent, and the lanes'
 * chains of additions no longer wait on one another. Each lane computes what
 * its iteration computes, in the same order: the same bits. */
enum { NG_JAM = 8 };

/* Marks the variables statement r assigns or declares in assigned[], those it declares in declared[]. */
static void assigned_vars(const NgIrKernel *k, NgIrRef r, uint8_t *assigned, uint8_t *declared)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_LET || n->kind == NG_IR_ASSIGN) {
        assigned[n->a] = 1;
        declared[n->a] |= n->kind == NG_IR_LET;
        return;
    }
    if (n->kind != NG_IR_BLOCK && n->kind < NG_IR_LET)
        return;
    for (int i = 0; i < n->nkids; i++)
        assigned_vars(k, ng_ir_kid(k, r, i), assigned, declared);
}

/* True if x (an expression, or a statement and what it holds) reads
 * variable v; v < 0: one marked in among[], or any variable when among is
 * NULL. */
static bool reads(const NgIrKernel *k, NgIrRef x, int v, const uint8_t *among)
{
    if (x == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_VAR && (v >= 0 ? n->a == v : !among || among[n->a]))
        return true;
    for (int i = 0; i < n->nkids; i++) /* (an array variable's element: and its index) */
        if (reads(k, ng_ir_kid(k, x, i), v, among))
            return true;
    return false;
}

/* ---- while loops in lanes (C target) ----
 * A while loop of a jammed body, outside its ifs (or a FOR there that
 * breaks or continues: a while loop over its counter), runs once for all NG_JAM
 * lanes on vector values (ng_vi64, ng_vu64, ng_vf64 of the lanes prologue:
 * element l is lane l's value), for as long as one lane's test holds. A test
 * is a mask, -1 in the lanes where it holds and 0 elsewhere; a lane's
 * variables change only under its mask (ng_vsel), so each lane takes the
 * steps its own iteration takes, in order, with the same bits, and the steps
 * of lanes that are done are computed and dropped. A loop can be run so only
 * when each of its steps can be computed for any values without harm and
 * without a branch: assignments and ifs over 8-byte numbers and bools, by
 * arithmetic that cannot fault (no calls, integer division only by powers of
 * two, no float to integer conversion, whose out-of-range values are
 * undefined in C). Loads of 8-byte and bool elements are done lane by lane,
 * only in the lanes whose scalar code would do them (Emitter.vmask: the
 * step's lanes, narrowed by ifs, `and`, `or` and conditional expressions),
 * so no lane reads out of its bounds. */

/* A while loop in vector lanes leaves the lanes still running to the plain
 * loop when fewer than NG_VMIN are (lanes prologue: 3 of 8, 2 of 4, 1 of 2),
 * after NG_VEC_STEPS steps (short loops end in lanes: handing over costs a
 * branch per lane). */
enum { NG_VEC_STEPS = 16 };

static bool has_load(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    if (n->kind == NG_IR_LOAD)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (has_load(k, ng_ir_kid(k, x, i)))
            return true;
    return false;
}

static bool vec_dtype(NgDType t)
{
    return t == NG_INT64 || t == NG_UINT64 || t == NG_FLOAT64 || t == NG_BOOL || t == NG_INT32 || t == NG_UINT32 ||
           t == NG_FLOAT32;
}

/* True for a 4-byte dtype: its comparisons' masks are widened (NG_VM). */
static bool vec_narrow(NgDType t) { return t == NG_INT32 || t == NG_UINT32 || t == NG_FLOAT32; }

/* Vector type of dtype t's values (bools: masks, ng_vi64). */
static const char *vec_type(NgDType t)
{
    switch (t) {
    case NG_FLOAT64: return "ng_vf64";
    case NG_UINT64: return "ng_vu64";
    case NG_FLOAT32: return "ng_vf32";
    case NG_INT32: return "ng_vi32";
    case NG_UINT32: return "ng_vu32";
    default: return "ng_vi64";
    }
}

/* Suffix of the lanes prologue's helpers for dtype t: ng_vsel_f64 (the type's name after ng_v). */
static const char *vec_sfx(NgDType t) { return vec_type(t) + 4; }

/* True if expression x can be computed in vector lanes, for any values. */
static bool vec_expr_ok(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    NgDType t = (NgDType)n->dtype;
    if (!vec_dtype(t))
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (!vec_expr_ok(k, ng_ir_kid(k, x, i)))
            return false;
    NgDType in = n->nkids ? (NgDType)ng_ir_node(k, ng_ir_kid(k, x, 0))->dtype : t;
    bool b = in == NG_BOOL, f = ng_dtype_is_float(in);
    switch ((NgIrKind)n->kind) {
    case NG_IR_CONST: case NG_IR_SCALAR: case NG_IR_SHAPE: case NG_IR_SELECT:
        return true;
    case NG_IR_VAR: /* (not an array variable's element: one per lane, at the lane's index) */
        return n->nkids == 0;
    case NG_IR_LOAD:
        for (int i = 0; i < n->nkids; i++)
            if (ng_ir_node(k, ng_ir_kid(k, x, i))->dtype != NG_INT64)
                return false;
        return k->params[n->a].dtype == t;
    case NG_IR_CAST:
        return !f || ng_dtype_is_float(t) || t == NG_BOOL;
    case NG_IR_UNARY:
        switch ((NgOp)n->op) {
        case NG_OP_NEG: case NG_OP_POS: case NG_OP_COPY: case NG_OP_SQUARE: return !b;
        case NG_OP_ABS: case NG_OP_LOGNOT: case NG_OP_INVERT: case NG_OP_ISNAN: return true;
        case NG_OP_FLOOR: case NG_OP_CEIL: case NG_OP_TRUNC: case NG_OP_RINT: return !f && !b;
        default: return false;
        }
    case NG_IR_BINARY:
        if (ng_ir_node(k, ng_ir_kid(k, x, 1))->dtype != in)
            return false;
        switch ((NgOp)n->op) {
        case NG_OP_ADD: case NG_OP_MUL: case NG_OP_EQ: case NG_OP_NE:
        case NG_OP_LOGAND: case NG_OP_LOGOR: case NG_OP_LOGXOR: return true;
        case NG_OP_SUB: case NG_OP_LT: case NG_OP_LE: case NG_OP_GT: case NG_OP_GE:
        case NG_OP_MAXIMUM: case NG_OP_MINIMUM: return !b;
        case NG_OP_TRUEDIV: return f;
        case NG_OP_FLOORDIV: case NG_OP_MOD: return !b && !f && pow2_divisor(k, x) >= 0;
        case NG_OP_BITAND: case NG_OP_BITOR: case NG_OP_BITXOR: return !f;
        default: return false;
        }
    default:
        return false;
    }
}

/* How deeply the loads of expression x nest in `and`, `or` and conditional
 * expressions: each level writes the mask of the level above into its own
 * (vexpr_if), so the source grows twice per level. */
static int guard_depth(const NgIrKernel *k, NgIrRef x)
{
    const NgIrNode *n = ng_ir_node(k, x);
    int d = 0;
    for (int i = 0; i < n->nkids; i++) {
        int di = guard_depth(k, ng_ir_kid(k, x, i));
        d = di > d ? di : d;
    }
    bool guards = (n->kind == NG_IR_BINARY && (n->op == NG_OP_LOGAND || n->op == NG_OP_LOGOR)) ||
                  n->kind == NG_IR_SELECT;
    return guards && has_load(k, x) ? d + 1 : d;
}

/* True if expression x can run in vector lanes, in few enough words. */
static bool vec_root_ok(const NgIrKernel *k, NgIrRef x) { return vec_expr_ok(k, x) && guard_depth(k, x) <= 4; }

/* True if statement r can run in vector lanes: assignments, ifs, and the
 * while loop's own break and continue (no loop is inside). */
static bool vec_stmt_ok(const NgIrKernel *k, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *n = ng_ir_node(k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_BLOCK:
        for (int i = 0; i < n->nkids; i++)
            if (!vec_stmt_ok(k, ng_ir_kid(k, r, i)))
                return false;
        return true;
    case NG_IR_LET: case NG_IR_ASSIGN:
        return !k->vars[n->a].len && vec_dtype(k->vars[n->a].dtype) &&
               ng_ir_node(k, ng_ir_kid(k, r, 0))->dtype == k->vars[n->a].dtype && vec_root_ok(k, ng_ir_kid(k, r, 0));
    case NG_IR_IF:
        return vec_root_ok(k, ng_ir_kid(k, r, 0)) && vec_stmt_ok(k, ng_ir_kid(k, r, 1)) &&
               vec_stmt_ok(k, ng_ir_kid(k, r, 2));
    case NG_IR_BREAK: case NG_IR_CONTINUE:
        return true;
    default:
        return false;
    }
}

/* The variables loop body `body` assigns or declares ([0, nvars)) and those
 * it declares ([nvars, 2 nvars)), from assigned_vars; NULL without memory. */
static uint8_t *body_vars(const NgIrKernel *k, NgIrRef body)
{
    size_t nv = k->nvars ? (size_t)k->nvars : 1;
    uint8_t *vars = ng_calloc(2, nv);
    if (vars)
        assigned_vars(k, body, vars, vars + nv);
    return vars;
}

/* True if WHILE r can run in vector lanes. Its test reads none of the
 * variables its body declares, and no array: a loop that stops at an
 * element (a scan to the first larger one) runs as long as the data says,
 * from a step to thousands, and lanes kept waiting for their longest were
 * slower than the plain loop. */
static bool vec_while_ok(const NgIrKernel *k, NgIrRef r)
{
    NgIrRef test = ng_ir_kid(k, r, 0), body = ng_ir_kid(k, r, 1);
    if (!vec_expr_ok(k, test) || has_load(k, test) || !vec_stmt_ok(k, body))
        return false;
    uint8_t *vars = body_vars(k, body);
    bool ok = vars && !reads(k, test, -1, vars + (k->nvars ? k->nvars : 1));
    ng_free(vars);
    return ok;
}

/* True if FOR r, which breaks or continues, can run in vector lanes: it
 * counts by a constant, over a range of values lanes can compute (each
 * lane's own), and its body can run in lanes without assigning its counter. */
static bool vec_for_ok(const NgIrKernel *k, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(k, r), *by = ng_ir_node(k, ng_ir_kid(k, r, 2));
    if (by->kind != NG_IR_CONST || by->dtype != NG_INT64 || by->c.i == 0 || by->c.i == INT64_MIN)
        return false;
    for (int i = 0; i < 2; i++)
        if (ng_ir_node(k, ng_ir_kid(k, r, i))->dtype != NG_INT64 || !vec_root_ok(k, ng_ir_kid(k, r, i)))
            return false;
    NgIrRef body = ng_ir_kid(k, r, 3);
    if (!vec_stmt_ok(k, body))
        return false;
    uint8_t *vars = body_vars(k, body);
    bool ok = vars && !vars[n->a];
    ng_free(vars);
    return ok;
}

static void vexpr(Emitter *e, NgIrRef r);

static void vkid(Emitter *e, NgIrRef r, int i) { vexpr(e, ng_ir_kid(e->k, r, i)); }

/* Scalar expression r, the same in every lane (a bool as a mask). */
static void splat(Emitter *e, NgIrRef r)
{
    NgDType t = (NgDType)ng_ir_node(e->k, r)->dtype;
    catf(e, "NG_SPLAT(%s, ", vec_type(t));
    if (t == NG_BOOL)
        cat(e, "-(int64_t)(");
    expr(e, r);
    cat(e, t == NG_BOOL ? " != 0))" : ")");
}

/* Expression r as a mask: a number is true where it is not 0. */
static void vmask(Emitter *e, NgIrRef r)
{
    NgDType t = (NgDType)ng_ir_node(e->k, r)->dtype;
    if (t == NG_BOOL) {
        vexpr(e, r);
        return;
    }
    cat(e, vec_narrow(t) ? "NG_VM((" : "(");
    vexpr(e, r);
    catf(e, " != NG_SPLAT(%s, 0))%s", vec_type(t), vec_narrow(t) ? ")" : "");
}

static void vinfix(Emitter *e, const char *op, NgIrRef r) { infix_of(e, op, r, vexpr); }

/* Expression x (a mask: as_mask) where the scalar code evaluates it only if
 * cond holds (negate: fails) in the lanes of e->vmask: its loads, if any,
 * in those lanes only. */
static void vexpr_if(Emitter *e, NgIrRef x, NgIrRef cond, bool negate, bool as_mask)
{
    if (!has_load(e->k, x)) {
        as_mask ? vmask(e, x) : vexpr(e, x);
        return;
    }
    NgStr m, *out = e->out;
    ng_str_init(&m);
    e->out = &m;
    catf(e, "(%s%s%s", e->vmask ? e->vmask : "", e->vmask ? " & " : "", negate ? "~" : "");
    vmask(e, cond);
    cat(e, ")");
    e->out = out;
    if (m.failed)
        e->st = ng_error_set(NG_ERR_NOMEM, "out of memory emitting a while loop in lanes");
    const char *outer = e->vmask;
    e->vmask = m.s;
    as_mask ? vmask(e, x) : vexpr(e, x);
    e->vmask = outer;
    ng_str_free(&m);
}

/* LOAD r, lane by lane at the lanes' offsets ng_o (in the lanes of e->vmask;
 * 0 in the others): a bool element as a mask. */
static void vload(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    const NgIrParam *pp = &e->k->params[n->a];
    cat(e, "({ const ng_vi64 ng_o = ");
    if (pp->ndim == 0)
        cat(e, "NG_SPLAT(ng_vi64, 0)");
    else
        cat(e, "(ng_vi64)(");
    for (int d = 0; d < pp->ndim; d++) {
        catf(e, "%s(ng_vu64)", d ? " + " : "");
        vkid(e, r, d);
        if (d < pp->ndim - 1 || !pp->inner_contig)
            catf(e, " * (ng_vu64)NG_SPLAT(ng_vi64, a%d_s%d)", n->a, d);
    }
    cat(e, pp->ndim ? ");" : ";");
    if (e->vmask)
        catf(e, " const ng_vi64 ng_lm = %s;", e->vmask);
    catf(e, " (%s){", vec_type(pp->dtype));
    for (int l = 0; l < e->vwidth; l++) {
        catf(e, "%s", l ? ", " : "");
        if (e->vmask)
            catf(e, "ng_lm[%d] ? ", l);
        catf(e, pp->dtype == NG_BOOL ? "-(int64_t)(a%d[ng_o[%d]] != 0)" : "a%d[ng_o[%d]]", n->a, l);
        if (e->vmask)
            cat(e, " : 0");
    }
    cat(e, "}; })");
}

/* Integer +, -, * of BINARY r (or -x, x * x: b < 0, b == 0), wrapping as unsigned. */
static void vwrap(Emitter *e, const char *op, NgIrRef r, int b, NgDType t)
{
    const char *u = vec_narrow(t) ? "ng_vu32" : "ng_vu64";
    catf(e, "((%s)(", vec_type(t));
    if (b >= 0) {
        catf(e, "(%s)", u);
        vkid(e, r, 0);
    }
    catf(e, " %s (%s)", op, u);
    vkid(e, r, b > 0 ? 1 : 0);
    cat(e, "))");
}

static void vbinary(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType in = kid_dtype(e, r, 0);
    bool b = in == NG_BOOL, f = ng_dtype_is_float(in);
    static const struct { NgOp op; const char *c; } infixes[] = {
        {NG_OP_TRUEDIV, "/"}, {NG_OP_BITAND, "&"}, {NG_OP_BITOR, "|"}, {NG_OP_BITXOR, "^"}, {NG_OP_EQ, "=="},
        {NG_OP_NE, "!="}, {NG_OP_LT, "<"}, {NG_OP_LE, "<="}, {NG_OP_GT, ">"}, {NG_OP_GE, ">="},
    };
    for (size_t i = 0; i < sizeof infixes / sizeof *infixes; i++)
        if (infixes[i].op == n->op) {
            bool widen = i >= 4 && vec_narrow(in); /* (a comparison's mask, of 8 bytes) */
            cat(e, widen ? "NG_VM(" : "");
            vinfix(e, infixes[i].c, r);
            cat(e, widen ? ")" : "");
            return;
        }
    const char *logic = n->op == NG_OP_LOGAND ? "&" : n->op == NG_OP_LOGOR ? "|" : n->op == NG_OP_LOGXOR ? "^" : NULL;
    int k = pow2_divisor(e->k, r);
    switch ((NgOp)n->op) {
    case NG_OP_ADD: case NG_OP_SUB: case NG_OP_MUL: {
        const char *op = n->op == NG_OP_ADD ? (b ? "|" : "+") : n->op == NG_OP_SUB ? "-" : (b ? "&" : "*");
        if (b || f)
            vinfix(e, op, r);
        else
            vwrap(e, op, r, 1, in);
        break;
    }
    case NG_OP_FLOORDIV: /* (vec_expr_ok: by 2^k, see binary) */
        cat(e, "(");
        vkid(e, r, 0);
        catf(e, " >> %d)", k);
        break;
    case NG_OP_MOD:
        cat(e, "(");
        vkid(e, r, 0);
        catf(e, " & NG_SPLAT(%s, %lldLL))", vec_type(in), (long long)((INT64_C(1) << k) - 1));
        break;
    case NG_OP_MAXIMUM: case NG_OP_MINIMUM:
        catf(e, "ng_v%s_%s(", n->op == NG_OP_MAXIMUM ? "max" : "min", vec_sfx(in));
        vkid(e, r, 0);
        cat(e, ", ");
        vkid(e, r, 1);
        cat(e, ")");
        break;
    default: /* and, or, xor of masks; and, or evaluate their right side where they must */
        cat(e, "(");
        vmask(e, ng_ir_kid(e->k, r, 0));
        catf(e, " %s ", logic ? logic : "&");
        if (n->op == NG_OP_LOGXOR)
            vmask(e, ng_ir_kid(e->k, r, 1));
        else
            vexpr_if(e, ng_ir_kid(e->k, r, 1), ng_ir_kid(e->k, r, 0), n->op == NG_OP_LOGOR, true);
        cat(e, ")");
        break;
    }
}

static void vunary(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgDType in = kid_dtype(e, r, 0);
    bool b = in == NG_BOOL, f = ng_dtype_is_float(in);
    switch ((NgOp)n->op) {
    case NG_OP_NEG:
        if (f) { cat(e, "(-"); vkid(e, r, 0); cat(e, ")"); }
        else vwrap(e, "-", r, -1, in);
        break;
    case NG_OP_SQUARE:
        if (f) { cat(e, "("); vkid(e, r, 0); cat(e, " * "); vkid(e, r, 0); cat(e, ")"); }
        else vwrap(e, "*", r, 0, in);
        break;
    case NG_OP_ABS:
        if (f || in == NG_INT64 || in == NG_INT32) { catf(e, "ng_vabs_%s(", vec_sfx(in)); vkid(e, r, 0); cat(e, ")"); }
        else vkid(e, r, 0);
        break;
    case NG_OP_LOGNOT: cat(e, "(~"); vmask(e, ng_ir_kid(e->k, r, 0)); cat(e, ")"); break;
    case NG_OP_INVERT: cat(e, "(~"); vkid(e, r, 0); cat(e, ")"); break;
    case NG_OP_ISNAN:
        if (f) { cat(e, vec_narrow(in) ? "NG_VM((" : "("); vkid(e, r, 0); cat(e, " != "); vkid(e, r, 0); cat(e, vec_narrow(in) ? "))" : ")"); }
        else cat(e, "NG_SPLAT(ng_vi64, 0)");
        break;
    default: /* +x, and floor, ceil, trunc, rint of an integer: x */
        (void)b;
        vkid(e, r, 0);
        break;
    }
}

static void vcast(Emitter *e, NgIrRef r)
{
    NgDType to = (NgDType)ng_ir_node(e->k, r)->dtype, from = kid_dtype(e, r, 0);
    if (to == NG_BOOL) {
        vmask(e, ng_ir_kid(e->k, r, 0));
    } else if (to != from) { /* (a mask's -1 to 1 first; each element as C converts it) */
        cat(e, "__builtin_convertvector(");
        vkid(e, r, 0);
        catf(e, "%s, %s)", from == NG_BOOL ? " & NG_SPLAT(ng_vi64, 1)" : "", vec_type(to));
    } else {
        vkid(e, r, 0);
    }
}

static void vexpr(Emitter *e, NgIrRef r)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_VAR:
        if (e->laned[n->a]) {
            catf(e, "ng_w%d", n->a);
            break;
        }
        splat(e, r);
        break;
    case NG_IR_CONST: case NG_IR_SCALAR: case NG_IR_SHAPE: splat(e, r); break;
    case NG_IR_SELECT:
        catf(e, "ng_vsel_%s(", vec_sfx((NgDType)n->dtype));
        vmask(e, ng_ir_kid(e->k, r, 0));
        cat(e, ", ");
        vexpr_if(e, ng_ir_kid(e->k, r, 1), ng_ir_kid(e->k, r, 0), false, false);
        cat(e, ", ");
        vexpr_if(e, ng_ir_kid(e->k, r, 2), ng_ir_kid(e->k, r, 0), true, false);
        cat(e, ")");
        break;
    case NG_IR_LOAD:
        for (int i = 0; i < e->nvhoist; i++)
            if (e->vhoist[i] == r) {
                catf(e, "ng_h%d", r);
                return;
            }
        vload(e, r);
        break;
    case NG_IR_CAST: vcast(e, r); break;
    case NG_IR_UNARY: vunary(e, r); break;
    case NG_IR_BINARY: vbinary(e, r); break;
    default: cat(e, "/* (vec_expr_ok) */0"); break;
    }
}

/* Statement r of a while loop in lanes, for the lanes in mask m. A variable
 * the loop declares is declared where the scalar code declares it and set
 * in every lane (the lanes outside m never read it in that scope). */
static void vstmt(Emitter *e, NgIrRef r, const char *m, int depth)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(e->k, r);
    if (n->kind == NG_IR_BLOCK) {
        for (int i = 0; i < n->nkids; i++)
            vstmt(e, ng_ir_kid(e->k, r, i), m, depth);
        return;
    }
    char use[48]; /* m, and where the loop jumps, the lanes that have not jumped in this step */
    snprintf(use, sizeof use, e->vjumps && strcmp(m, "ng_vstep") != 0 ? "(%s & ng_vstep)" : "%s", m);
    indent(e, depth);
    e->vmask = use;
    if (n->kind == NG_IR_BREAK) {
        catf(e, "ng_vlive &= ~%s; ng_vstep &= ~%s;\n", use, m);
    } else if (n->kind == NG_IR_CONTINUE) {
        catf(e, "ng_vstep &= ~%s;\n", m);
    } else if (n->kind == NG_IR_LET) {
        catf(e, "%s ng_w%d = ", vec_type(e->k->vars[n->a].dtype), n->a);
        vkid(e, r, 0);
        cat(e, ";\n");
    } else if (n->kind == NG_IR_ASSIGN) {
        catf(e, "ng_w%d = ng_vsel_%s(%s, ", n->a, vec_sfx(e->k->vars[n->a].dtype), use);
        vkid(e, r, 0);
        catf(e, ", ng_w%d);\n", n->a);
    } else { /* IF */
        catf(e, "{\n");
        indent(e, depth + 1);
        catf(e, "const ng_vi64 ng_vc%d = ", depth);
        vmask(e, ng_ir_kid(e->k, r, 0));
        cat(e, ";\n");
        e->vmask = NULL;
        for (int br = 1; br <= 2; br++) {
            if (ng_ir_kid(e->k, r, br) == NG_IR_NONE)
                continue;
            char sub[32];
            snprintf(sub, sizeof sub, "ng_vm%d", depth + 1);
            indent(e, depth + 1);
            catf(e, "{\n");
            indent(e, depth + 2);
            catf(e, "const ng_vi64 %s = %s & %sng_vc%d;\n", sub, m, br == 1 ? "" : "~", depth);
            vstmt(e, ng_ir_kid(e->k, r, br), sub, depth + 2);
            indent(e, depth + 1);
            cat(e, "}\n");
        }
        indent(e, depth);
        cat(e, "}\n");
    }
    e->vmask = NULL;
}

enum { NG_VEC_HOIST = 16 };

/* Adds to hoist[] (*n of NG_VEC_HOIST) the loads expression x does in every
 * step whose element is the same in every step (its index reads no variable
 * the loop sets, in assigned[]): not those on the right of an `and`/`or` or
 * in a branch of a conditional expression, which a step may skip. */
static void hoistable(const NgIrKernel *k, NgIrRef x, const uint8_t *assigned, NgIrRef *hoist, int *n)
{
    const NgIrNode *nd = ng_ir_node(k, x);
    if (nd->kind == NG_IR_LOAD) {
        for (int i = 0; i < nd->nkids; i++) {
            NgIrRef ix = ng_ir_kid(k, x, i);
            if (has_load(k, ix) || reads(k, ix, -1, assigned))
                return;
        }
        for (int i = 0; i < *n; i++)
            if (hoist[i] == x)
                return;
        if (*n < NG_VEC_HOIST)
            hoist[(*n)++] = x;
        return;
    }
    bool guarded = (nd->kind == NG_IR_BINARY && (nd->op == NG_OP_LOGAND || nd->op == NG_OP_LOGOR)) ||
                   nd->kind == NG_IR_SELECT;
    for (int i = 0; i < (guarded ? 1 : nd->nkids); i++)
        hoistable(k, ng_ir_kid(k, x, i), assigned, hoist, n);
}

/* The loads of a while loop's body without jumps (`body`) to do once before
 * the loop, from its statements outside ifs (an if's test is one). */
static int loop_hoist(const NgIrKernel *k, NgIrRef body, const uint8_t *assigned, NgIrRef *hoist)
{
    int n = 0;
    const NgIrNode *b = ng_ir_node(k, body);
    int nst = b->kind == NG_IR_BLOCK ? b->nkids : 1;
    for (int i = 0; i < nst; i++) {
        NgIrRef st = b->kind == NG_IR_BLOCK ? ng_ir_kid(k, body, i) : body;
        int kind = ng_ir_node(k, st)->kind;
        if (kind == NG_IR_LET || kind == NG_IR_ASSIGN || kind == NG_IR_IF)
            hoistable(k, ng_ir_kid(k, st, 0), assigned, hoist, &n);
    }
    return n;
}

/* The names a group's step uses, bound to group g's own (ng_w<x>__<g>, ...)
 * in a block of its own, so that the body's code is the same for every
 * group: the packed variables (in packed[]), the FOR's counter and end
 * (`cnt` >= 0), the lanes that have not broken out, the hoisted loads. */
static void vgroup_open(Emitter *e, int g, const uint8_t *packed, int cnt, bool breaks, bool hoisted, int depth)
{
    const NgIrKernel *k = e->k;
    indent(e, depth);
    cat(e, "{\n");
    for (int x = 0; x < k->nvars; x++)
        if (packed[x]) {
            indent(e, depth + 1);
            catf(e, "%s ng_w%d = ng_w%d__%d;\n", vec_type(k->vars[x].dtype), x, x, g);
        }
    if (cnt >= 0) {
        indent(e, depth + 1);
        catf(e, "ng_vi64 ng_w%d = ng_w%d__%d; const ng_vi64 ng_vhi%d = ng_vhi%d__%d;\n", cnt, cnt, g, cnt, cnt, g);
    }
    if (breaks) {
        indent(e, depth + 1);
        catf(e, "ng_vi64 ng_vlive = ng_vlive__%d;\n", g);
    }
    for (int i = 0; hoisted && i < e->nvhoist; i++) {
        indent(e, depth + 1);
        catf(e, "const %s ng_h%d = ng_h%d__%d;\n", vec_type((NgDType)ng_ir_node(k, e->vhoist[i])->dtype),
             e->vhoist[i], e->vhoist[i], g);
    }
}

/* The end of vgroup_open's block: what the step changed back into group g's own. */
static void vgroup_close(Emitter *e, int g, const uint8_t *packed, const uint8_t *assigned, int cnt, bool breaks,
                         int depth)
{
    for (int x = 0; x < e->k->nvars; x++)
        if (packed[x] && assigned[x]) {
            indent(e, depth + 1);
            catf(e, "ng_w%d__%d = ng_w%d;\n", x, g, x);
        }
    if (cnt >= 0) {
        indent(e, depth + 1);
        catf(e, "ng_w%d__%d = ng_w%d;\n", cnt, g, cnt);
    }
    if (breaks) {
        indent(e, depth + 1);
        catf(e, "ng_vlive__%d = ng_vlive;\n", g);
    }
    indent(e, depth);
    cat(e, "}\n");
}

/* WHILE r of a jammed body, or a FOR that breaks or continues (vec_for_ok),
 * in vector lanes, e->vgroups groups of e->vwidth lanes from e->vlane0 side
 * by side in one loop (each step's chain of dependent operations is as long
 * as a group's: two groups take the time of one, 2x on collatz): each
 * group's lanes' variables packed into vectors ng_w<n>__<g>
 * (a FOR's own from its start, with its end ng_vhi<n>__<g>), the loop run while
 * the test holds in a lane (NG_VMIN lanes per group, after NG_VEC_STEPS steps), the
 * variables it assigns unpacked, and the lanes still running (ng_vrun__<g>)
 * finished one by one by the plain loop, from the test they are at (a lane
 * that runs far longer than the others would keep seven idle). A lane whose
 * test failed keeps its values (the test reads none that are set unmasked),
 * so its test keeps failing: the mask of a step is the test's alone (and the
 * lanes' that have not broken out, ng_vlive). A FOR's counter steps in the
 * lanes that began the step (ng_vgo) and did not break. In a loop without
 * jumps, the loads every step does of the same element are done once,
 * before it, in the lanes that take a first step (ng_vfirst: the others
 * never load). */
static void vec_group(Emitter *e, NgIrRef r, int depth)
{
    const NgIrKernel *k = e->k;
    const int l0 = e->vlane0, w = e->vwidth, G = e->vgroups;
    const NgIrNode *n = ng_ir_node(k, r);
    bool is_for = n->kind == NG_IR_FOR;
    NgIrRef body = ng_ir_kid(k, r, is_for ? 3 : 1);
    uint8_t *assigned = body_vars(k, body), *declared = assigned ? assigned + (k->nvars ? k->nvars : 1) : NULL;
    uint8_t *packed = ng_calloc(1, (size_t)(k->nvars ? k->nvars : 1));
    if (!assigned || !packed) {
        ng_free(assigned);
        ng_free(packed);
        e->st = ng_error_set(NG_ERR_NOMEM, "out of memory emitting a loop in vector lanes");
        return;
    }
    indent(e, depth);
    cat(e, "{\n");
    for (int x = 0; x < k->nvars; x++) {
        packed[x] = e->laned[x] && !declared[x] && (assigned[x] || reads(k, r, x, NULL));
        if (!packed[x])
            continue;
        bool b = k->vars[x].dtype == NG_BOOL;
        for (int g = 0; g < G; g++) {
            indent(e, depth + 1);
            catf(e, "%s ng_w%d__%d = {", vec_type(k->vars[x].dtype), x, g);
            for (int l = 0; l < w; l++)
                catf(e, b ? "%s-(int64_t)(v%d_%d != 0)" : "%sv%d_%d", l ? ", " : "", x, l0 + g * w + l);
            cat(e, "};\n");
        }
    }
    int64_t by = is_for ? ng_ir_node(k, ng_ir_kid(k, r, 2))->c.i : 0;
    int cnt = is_for ? n->a : -1;
    if (is_for) { /* (its range is evaluated once, by every lane) */
        for (int g = 0; g < G; g++) {
            indent(e, depth + 1);
            catf(e, "ng_vi64 ng_w%d__%d, ng_vhi%d__%d;\n", cnt, g, cnt, g);
            vgroup_open(e, g, packed, -1, false, false, depth + 1);
            for (int i = 0; i < 2; i++) {
                indent(e, depth + 2);
                catf(e, i ? "ng_vhi%d__%d = " : "ng_w%d__%d = ", cnt, g);
                vkid(e, r, i);
                cat(e, ";\n");
            }
            indent(e, depth + 1);
            cat(e, "}\n");
        }
        e->laned[cnt] = 1;
    }
    bool breaks = holds(k, body, NG_IR_BREAK);
    bool jumps = breaks || holds(k, body, NG_IR_CONTINUE);
    NgIrRef hoist[NG_VEC_HOIST];
    /* (a FOR here always jumps) */
    int nh = jumps || body == NG_IR_NONE ? 0 : loop_hoist(k, body, assigned, hoist);
    e->vhoist = hoist;
    e->nvhoist = nh;
    for (int g = 0; g < G && nh; g++) {
        for (int i = 0; i < nh; i++) {
            indent(e, depth + 1);
            catf(e, "%s ng_h%d__%d;\n", vec_type((NgDType)ng_ir_node(k, hoist[i])->dtype), hoist[i], g);
        }
        vgroup_open(e, g, packed, -1, false, false, depth + 1);
        indent(e, depth + 2);
        cat(e, "const ng_vi64 ng_vfirst = ");
        e->nvhoist = 0;
        vmask(e, ng_ir_kid(k, r, 0));
        cat(e, ";\n");
        e->vmask = "ng_vfirst";
        for (int i = 0; i < nh; i++) {
            indent(e, depth + 2);
            catf(e, "ng_h%d__%d = ", hoist[i], g);
            vload(e, hoist[i]);
            cat(e, ";\n");
        }
        e->vmask = NULL;
        e->nvhoist = nh;
        indent(e, depth + 1);
        cat(e, "}\n");
    }
    char m[32];
    snprintf(m, sizeof m, jumps ? "ng_vstep" : "ng_vm%d", depth + 3);
    for (int g = 0; g < G; g++) {
        indent(e, depth + 1);
        catf(e, "ng_vi64 ng_vrun__%d, ng_vs__%d;\n", g, g);
        if (breaks) {
            indent(e, depth + 1);
            catf(e, "ng_vi64 ng_vlive__%d = NG_SPLAT(ng_vi64, -1);\n", g);
        }
    }
    indent(e, depth + 1);
    cat(e, "for (int64_t ng_vn = 0;; ng_vn++) {\n");
    for (int g = 0; g < G; g++) { /* each group's test */
        vgroup_open(e, g, packed, cnt, breaks, nh > 0, depth + 2);
        indent(e, depth + 3);
        catf(e, "ng_vs__%d = %s", g, breaks ? "ng_vlive & " : "");
        if (is_for)
            catf(e, "(ng_w%d %s ng_vhi%d)", cnt, by > 0 ? "<" : ">", cnt);
        else
            vmask(e, ng_ir_kid(k, r, 0));
        cat(e, ";\n");
        indent(e, depth + 2);
        cat(e, "}\n");
    }
    indent(e, depth + 2);
    cat(e, "if (!ng_vany(");
    for (int g = 0; g < G; g++)
        catf(e, "%sng_vs__%d", g ? " | " : "", g);
    catf(e, ") || (ng_vn >= %d && ", NG_VEC_STEPS);
    for (int g = 0; g < G; g++)
        catf(e, "%sng_vlanes(ng_vs__%d)", g ? " + " : "", g);
    catf(e, " < %d * NG_VMIN)) {\n", G);
    for (int g = 0; g < G; g++) {
        indent(e, depth + 3);
        catf(e, "ng_vrun__%d = ng_vs__%d;\n", g, g);
    }
    indent(e, depth + 3);
    cat(e, "break;\n");
    indent(e, depth + 2);
    cat(e, "}\n");
    for (int g = 0; g < G; g++) { /* each group's step */
        vgroup_open(e, g, packed, cnt, breaks, nh > 0, depth + 2);
        indent(e, depth + 3);
        catf(e, "%s %s = ng_vs__%d;\n", jumps ? "ng_vi64" : "const ng_vi64", m, g);
        if (is_for) {
            indent(e, depth + 3);
            catf(e, "const ng_vi64 ng_vgo = %s;\n", m);
        }
        e->vjumps = jumps;
        vstmt(e, body, m, depth + 3);
        e->vjumps = false;
        if (is_for) {
            indent(e, depth + 3);
            catf(e, "ng_w%d = ng_vsel_i64(ng_vgo%s, (ng_vi64)((ng_vu64)ng_w%d + (ng_vu64)NG_SPLAT(ng_vi64, %lldLL)), "
                    "ng_w%d);\n", cnt, breaks ? " & ng_vlive" : "", cnt, (long long)by, cnt);
        }
        vgroup_close(e, g, packed, assigned, cnt, breaks, depth + 2);
    }
    e->vhoist = NULL;
    e->nvhoist = 0;
    indent(e, depth + 1);
    cat(e, "}\n");
    for (int g = 0; g < G; g++) {
        for (int x = 0; x < k->nvars; x++) {
            if (!packed[x] || !assigned[x])
                continue;
            indent(e, depth + 1);
            for (int l = 0; l < w; l++)
                catf(e, k->vars[x].dtype == NG_BOOL ? "%sv%d_%d = ng_w%d__%d[%d] != 0;" : "%sv%d_%d = ng_w%d__%d[%d];",
                     l ? " " : "", x, l0 + g * w + l, x, g, l);
            cat(e, "\n");
        }
        indent(e, depth + 1);
        catf(e, "if (ng_vany(ng_vrun__%d)) {\n", g);
        for (int l = 0; l < w; l++) {
            e->lane = l0 + g * w + l;
            indent(e, depth + 2);
            catf(e, "if (ng_vrun__%d[%d])\n", g, l);
            if (!is_for) {
                stmt(e, r, depth + 3);
                continue;
            }
            indent(e, depth + 3);
            catf(e, "for (int64_t v%d_%d = ng_w%d__%d[%d]; v%d_%d %s ng_vhi%d__%d[%d]; v%d_%d += %lldLL) {\n", cnt,
                 e->lane, cnt, g, l, cnt, e->lane, by > 0 ? "<" : ">", cnt, g, l, cnt, e->lane, (long long)by);
            stmt(e, body, depth + 4);
            indent(e, depth + 3);
            cat(e, "}\n");
        }
        e->lane = -1;
        indent(e, depth + 1);
        cat(e, "}\n");
    }
    if (is_for)
        e->laned[cnt] = 0;
    indent(e, depth);
    cat(e, "}\n");
    ng_free(assigned);
    ng_free(packed);
}

/* WHILE (or FOR) r in lanes: the e->jam lanes in groups of the host's
 * vector width, NG_VW of the lanes prologue (8 with AVX-512, 4 with AVX2, 2
 * otherwise: a vector wider than the host's registers lives in memory, and
 * was 2.5x slower than the plain loop), two groups side by side at a time
 * (vec_group). The source holds the three forms; the preprocessor keeps one. */
static void vec_loop(Emitter *e, NgIrRef r, int depth)
{
    for (int w = NG_JAM; w >= 2 && e->st == NG_OK; w /= 2) {
        cat(e, w == NG_JAM ? "#if NG_VW == 8\n" : w > 2 ? "#elif NG_VW == 4\n" : "#else\n");
        e->vwidth = w;
        int groups = e->jam / w;
        for (int g = 0; g < groups; g += 2) {
            e->vlane0 = g * w;
            e->vgroups = groups - g < 2 ? groups - g : 2;
            vec_group(e, r, depth);
        }
    }
    cat(e, "#endif\n");
    e->vlane0 = e->vwidth = e->vgroups = 0;
}

/* Where a statement of a jammed body is: shared by the lanes (outside ifs),
 * written once per lane (inside an if), or in a loop of its own there. */
enum { JAM_SHARED, JAM_PER_LANE, JAM_LANE_LOOP };

/* True if statement r, `at` JAM_SHARED, JAM_PER_LANE or JAM_LANE_LOOP, can
 * be written in lanes: shared loops are sequential FORs whose ranges read no
 * lane's variable; an if is written once per lane, with whatever it holds,
 * but no jump out of it (break and continue only in a loop inside it), no
 * atomics, no parallel loops. No FOR counts with a variable that has lanes;
 * an array variable has lanes only where the body declares it (declared[]). */
static bool jam_ok(const NgIrKernel *k, NgIrRef r, const uint8_t *laned, const uint8_t *declared, int at)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *n = ng_ir_node(k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_BLOCK:
        for (int i = 0; i < n->nkids; i++)
            if (!jam_ok(k, ng_ir_kid(k, r, i), laned, declared, at))
                return false;
        return true;
    case NG_IR_LET: case NG_IR_ASSIGN: /* (an array variable: a copy per lane where the body declares it) */
        return !k->vars[n->a].len || declared[n->a];
    case NG_IR_STORE:
        return true;
    case NG_IR_IF:
        at = at == JAM_SHARED ? JAM_PER_LANE : at;
        return jam_ok(k, ng_ir_kid(k, r, 1), laned, declared, at) && jam_ok(k, ng_ir_kid(k, r, 2), laned, declared, at);
    case NG_IR_FOR:
        if ((n->flags & NG_IR_PARALLEL) || has_reductions(k, r) || laned[n->a])
            return false;
        if (at == JAM_SHARED && jumps_out(k, ng_ir_kid(k, r, 3))) /* in vector lanes */
            return vec_for_ok(k, r);
        for (int i = 0; i < 3 && at == JAM_SHARED; i++)
            if (reads(k, ng_ir_kid(k, r, i), -1, laned))
                return false;
        return jam_ok(k, ng_ir_kid(k, r, 3), laned, declared, at == JAM_SHARED ? at : JAM_LANE_LOOP);
    case NG_IR_WHILE: /* shared: in vector lanes */
        return at == JAM_SHARED ? vec_while_ok(k, r) : jam_ok(k, ng_ir_kid(k, r, 1), laned, declared, JAM_LANE_LOOP);
    case NG_IR_BREAK: case NG_IR_CONTINUE:
        return at == JAM_LANE_LOOP;
    default:
        return false;
    }
}

/* True if statement r holds a loop whose body assigns a variable from its
 * own value (acc = acc * x + c): a chain of dependent steps in every
 * iteration, which lanes overlap. (Loops that only store, like a 2-d
 * elementwise kernel's rows, vectorise along their own index already.) A
 * loop that runs in vector lanes is one: a while's test reads what its body
 * assigns (lo = mid + 1 with mid from lo), step after step, and a loop left
 * by a break stops on what its steps computed. */
static bool holds_chain(const NgIrKernel *k, NgIrRef r, bool in_loop)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if ((n->kind == NG_IR_WHILE && vec_while_ok(k, r)) ||
        (n->kind == NG_IR_FOR && jumps_out(k, ng_ir_kid(k, r, 3)) && vec_for_ok(k, r)))
        return true;
    if (n->kind == NG_IR_ASSIGN)
        return in_loop && reads(k, ng_ir_kid(k, r, 0), n->a, NULL);
    if (n->kind != NG_IR_BLOCK && n->kind != NG_IR_IF && n->kind != NG_IR_FOR)
        return false;
    for (int i = n->kind == NG_IR_BLOCK ? 0 : n->kind == NG_IR_IF ? 1 : 3; i < n->nkids; i++)
        if (holds_chain(k, ng_ir_kid(k, r, i), in_loop || n->kind == NG_IR_FOR))
            return true;
    return false;
}

/* True if every loop in statement r (outside loops; `in_if`: inside an if)
 * holds a chain: a loop without one (out[i, j] = out[i, j] / s) vectorises
 * along its own index, adjacent elements, which lanes of different
 * iterations are not. A while loop must run in vector lanes: each lane's
 * own (the lanes' scalar copies take as many steps as the longest lane's,
 * one branch each) was slower than no lanes. */
static bool loops_chain(const NgIrKernel *k, NgIrRef r, bool in_if)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_WHILE)
        return !in_if && vec_while_ok(k, r) && holds_chain(k, r, false);
    if (n->kind == NG_IR_FOR)
        return holds_chain(k, r, false);
    if (n->kind != NG_IR_BLOCK && n->kind != NG_IR_IF)
        return true;
    for (int i = n->kind == NG_IR_IF; i < n->nkids; i++)
        if (!loops_chain(k, ng_ir_kid(k, r, i), in_if || n->kind == NG_IR_IF))
            return false;
    return true;
}

/* True if x (statement or expression) computes or stores a float16 value.
 * GCC 12 vectorises lanes' double -> _Float16 conversions through float,
 * rounding twice (NumPy rounds once): such bodies are not jammed. */
static bool has_half(const NgIrKernel *k, NgIrRef x)
{
    if (x == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, x);
    if ((n->kind < NG_IR_BLOCK && n->dtype == NG_FLOAT16) ||
        ((n->kind == NG_IR_STORE || n->kind == NG_IR_LOAD) && k->params[n->a].dtype == NG_FLOAT16) ||
        ((n->kind == NG_IR_LET || n->kind == NG_IR_ASSIGN) && k->vars[n->a].dtype == NG_FLOAT16))
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (has_half(k, ng_ir_kid(k, x, i)))
            return true;
    return false;
}

/* Whether parallel loop r's body runs chains in loops and can be jammed; fills
 * laned[] (k->nvars, zeroed) with the variables that get a copy per lane and
 * declared[] with those the body declares itself. */
static bool jammable(const NgIrKernel *k, NgIrRef r, uint8_t *laned, uint8_t *declared)
{
    NgIrRef body = ng_ir_kid(k, r, 3);
    if (!holds_chain(k, body, false) || !loops_chain(k, body, false) || has_half(k, body) || !steps_by_one(k, r))
        return false;
    assigned_vars(k, body, laned, declared);
    laned[ng_ir_node(k, r)->a] = 1;
    return jam_ok(k, body, laned, declared, JAM_SHARED);
}

/* True if statement r of a jammed body holds a loop that runs in vector
 * lanes (vec_loop): a WHILE, or a FOR that breaks or continues, among its
 * shared statements (jam_ok). */
static bool holds_vec_loop(const NgIrKernel *k, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_WHILE)
        return true;
    if (n->kind == NG_IR_FOR)
        return jumps_out(k, ng_ir_kid(k, r, 3)) || holds_vec_loop(k, ng_ir_kid(k, r, 3));
    if (n->kind != NG_IR_BLOCK)
        return false;
    for (int i = 0; i < n->nkids; i++)
        if (holds_vec_loop(k, ng_ir_kid(k, r, i)))
            return true;
    return false;
}

/* How many iterations a jammed loop with body `body` runs at once: NG_JAM,
 * or twice that where a loop runs in vector lanes, so that two vectors of
 * lanes step side by side even with AVX-512's 8 (vec_group). */
static int jam_lanes(const NgIrKernel *k, NgIrRef body) { return holds_vec_loop(k, body) ? 2 * NG_JAM : NG_JAM; }

/* Statement r of a jammed body: loops shared, everything else once per lane. */
static void jam_stmt(Emitter *e, NgIrRef r, int depth)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(e->k, r);
    if (n->kind == NG_IR_BLOCK) {
        for (int i = 0; i < n->nkids; i++)
            jam_stmt(e, ng_ir_kid(e->k, r, i), depth);
        return;
    }
    if (n->kind == NG_IR_WHILE || (n->kind == NG_IR_FOR && jumps_out(e->k, ng_ir_kid(e->k, r, 3)))) {
        vec_loop(e, r, depth);
        return;
    }
    if (n->kind == NG_IR_FOR) {
        bool simd = (n->flags & NG_IR_SIMD) && e->t->par == NG_PAR_OPENMP;
        if (simd) { /* (each lane's statements in vectors) */
            indent(e, depth);
            cat(e, "NG_VM_SIMD\n");
        }
        indent(e, depth);
        plain_for_head(e, r, simd);
        jam_stmt(e, ng_ir_kid(e->k, r, 3), depth + 1);
        indent(e, depth);
        cat(e, "}\n");
        return;
    }
    for (int l = 0; l < e->jam; l++) {
        e->lane = l;
        stmt(e, r, depth);
    }
    e->lane = -1;
}

/* One group of FOR r's iterations: ng_c<v> (at most e->jam) from ng_lo<v>,
 * jammed when there are e->jam of them, else one by one. */
static void lane_combine(Emitter *e, const uint8_t *declared, int depth);

static void jam_group(Emitter *e, NgIrRef r, const uint8_t *declared, int depth)
{
    const NgIrKernel *k = e->k;
    int v = ng_ir_node(k, r)->a;
    indent(e, depth);
    catf(e, "if (ng_c%d == %du) {\n", v, e->jam);
    for (int x = 0; x < k->nvars; x++) {
        if (!e->laned[x] || declared[x])
            continue;
        indent(e, depth + 1);
        catf(e, "%s", tname(e, k->vars[x].dtype));
        for (int l = 0; l < e->jam; l++)
            if (x == v)
                catf(e, "%s v%d_%d = (int64_t)((uint64_t)ng_lo%d + %du)", l ? "," : "", x, l, v, l);
            else
                catf(e, "%s v%d_%d = v%d", l ? "," : "", x, l, x);
        cat(e, ";\n");
    }
    jam_stmt(e, ng_ir_kid(k, r, 3), depth + 1);
    lane_combine(e, declared, depth + 1);
    indent(e, depth);
    cat(e, "} else {\n");
    indent(e, depth + 1);
    catf(e, "for (int64_t v%d = ng_lo%d; v%d < (int64_t)((uint64_t)ng_lo%d + ng_c%d); v%d++) {\n", v, v, v, v, v, v);
    stmt(e, ng_ir_kid(k, r, 3), depth + 2);
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* Opens the loop over FOR r's groups of e->jam trips in [from, to) (uint64
 * trip numbers, C expressions): ng_lo<v>, the first iteration, ng_c<v>, how
 * many. */
static void jam_groups(Emitter *e, NgIrRef r, const char *from, const char *to, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    indent(e, depth);
    catf(e, "for (uint64_t ng_g%d = %s; ng_g%d < %s; ng_g%d += %du) {\n", v, from, v, to, v, e->jam);
    indent(e, depth + 1);
    catf(e, "const int64_t ng_lo%d = (int64_t)((uint64_t)(", v);
    kid(e, r, 0);
    catf(e, ") + ng_g%d);\n", v);
    indent(e, depth + 1);
    catf(e, "const uint64_t ng_c%d = %s - ng_g%d < %du ? %s - ng_g%d : %du;\n", v, to, v, e->jam, to, v, e->jam);
}

/* The `omp parallel for` of the loop over parallel loop r's ng_n<v> trips in
 * steps of `per` (groups of lanes, tiles): one share per thread, or chunks
 * of a 256th of them where r's body holds a while loop, whose iterations may
 * take very different times (as dynamic_chunk for plain loops). */
static void omp_for_steps(Emitter *e, NgIrRef r, unsigned per, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    indent(e, depth);
    if (!holds(e->k, ng_ir_kid(e->k, r, 3), NG_IR_WHILE)) {
        catf(e, "#pragma omp parallel for schedule(static) if(parallel: ng_work >= NG_PAR_MIN_WORK || "
                "ng_n%d >= (uint64_t)NG_PAR_MIN_WORK)", v);
    } else {
        catf(e, "const uint64_t ng_k%d = ng_n%d / %uu / 256u;\n", v, v, per);
        indent(e, depth);
        catf(e, "#pragma omp parallel for schedule(dynamic, ng_k%d < 1u ? 1 : ng_k%d > 2147483647u ? 2147483647 : "
                "(int)ng_k%d) if(parallel: ng_work >= NG_PAR_MIN_WORK || ng_n%d >= (uint64_t)NG_PAR_MIN_WORK)",
             v, v, v, v);
    }
    reduction_clauses(e, r); /* (lanes_combine's only: no simd here) */
    cat(e, "\n");
}

/* True if every reduction of loop r is an integer max, min, and or or:
 * each lane of a jammed body may start its own copy from the running value
 * and the copies combine after the group in any order, exactly (lane_combine).
 * Such are a kernel's raise codes (a max). */
static bool lanes_combine(const NgIrKernel *k, NgIrRef r)
{
    for (int i = 0; i < k->nreds; i++) {
        NgOp op = k->reds[i].op;
        if (k->reds[i].loop == r && (!ng_dtype_is_int(k->vars[k->reds[i].var].dtype) ||
                                     (op != NG_OP_MAXIMUM && op != NG_OP_MINIMUM && op != NG_OP_BITAND &&
                                      op != NG_OP_BITOR)))
            return false;
    }
    return true;
}

/* After a group of jammed lanes: each reduction variable of the kernel that
 * the lanes kept copies of (v<x>_<l>, each started from v<x>) combined into
 * v<x> (lanes_combine's ops: starting every copy from v<x> changes nothing). */
static void lane_combine(Emitter *e, const uint8_t *declared, int depth)
{
    const NgIrKernel *k = e->k;
    for (int i = 0; i < k->nreds; i++) {
        int x = k->reds[i].var;
        bool first = true;
        for (int j = 0; j < i; j++)
            first = first && k->reds[j].var != x;
        if (!e->laned[x] || declared[x] || !first)
            continue;
        const char *fn = k->reds[i].op == NG_OP_MAXIMUM ? "ng_max" : k->reds[i].op == NG_OP_MINIMUM ? "ng_min" : NULL;
        for (int l = 0; l < e->jam; l++) {
            indent(e, depth);
            if (fn)
                catf(e, "v%d = %s_%s(v%d, v%d_%d);\n", x, fn, sfx(k->vars[x].dtype), x, x, l);
            else
                catf(e, "v%d = v%d %s v%d_%d;\n", x, x, k->reds[i].op == NG_OP_BITAND ? "&" : "|", x, l);
        }
    }
}

/* Parallel loop r, jammed (its laned[] and declared[] from jammable). */
static void for_loop_jammed(Emitter *e, NgIrRef r, const uint8_t *declared, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    char n[32];
    snprintf(n, sizeof n, "ng_n%d", v);
    indent(e, depth);
    cat(e, "{\n");
    trip_count(e, r, depth + 1);
    e->jam = jam_lanes(e->k, ng_ir_kid(e->k, r, 3));
    omp_for_steps(e, r, (unsigned)e->jam, depth + 1);
    jam_groups(e, r, "0", n, depth + 1);
    e->par_depth++;
    jam_group(e, r, declared, depth + 2);
    e->par_depth--;
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* ---- tiles (C target) ----
 * A parallel loop whose body is a parallel loop (plain statements before it)
 * and whose inner body reads or writes an array across its rows (B[j, i] =
 * A[i, j]: the inner variable in an index before the last, not in the last)
 * runs the pair in NG_TILE x NG_TILE tiles: each tile's rows of both arrays
 * stay in cache while it is done, instead of one row of B per element. Any
 * order is right for two parallel loops; both count up by 1 here. */
enum { NG_TILE = 32 };

/* True if statement r accesses an array of rank >= 2 with variable v in an
 * index before the last and not in the last. */
static bool across_rows(const NgIrKernel *k, NgIrRef r, int v)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if ((n->kind == NG_IR_LOAD || n->kind == NG_IR_STORE) && k->params[n->a].ndim >= 2) {
        int first = n->kind == NG_IR_STORE; /* (a STORE's kid 0 is its value) */
        bool before = false;
        for (int i = first; i < n->nkids - 1; i++)
            before = before || reads(k, ng_ir_kid(k, r, i), v, NULL);
        if (before && !reads(k, ng_ir_kid(k, r, n->nkids - 1), v, NULL))
            return true;
    }
    for (int i = 0; i < n->nkids; i++)
        if (across_rows(k, ng_ir_kid(k, r, i), v))
            return true;
    return false;
}

/* The inner loop of parallel loop r when the pair runs in tiles, else NONE;
 * *jam: the inner loop holds loops and is jammed in its tiles (laned[] and
 * declared[] as jammable fills them). */
static NgIrRef tiled_inner(const Emitter *e, NgIrRef r, uint8_t *laned, uint8_t *declared, bool *jam)
{
    const NgIrKernel *k = e->k;
    if (!lanes_combine(k, r) || ranked_of(k, r) || !steps_by_one(k, r))
        return NG_IR_NONE;
    NgIrRef body = ng_ir_kid(k, r, 3), in = body;
    const NgIrNode *b = ng_ir_node(k, body);
    if (b->kind == NG_IR_BLOCK) {
        if (b->nkids == 0)
            return NG_IR_NONE;
        for (int i = 0; i + 1 < b->nkids; i++) { /* (scalars: a copy per lane) */
            const NgIrNode *st = ng_ir_node(k, ng_ir_kid(k, body, i));
            if ((st->kind != NG_IR_LET && st->kind != NG_IR_ASSIGN) || k->vars[st->a].len)
                return NG_IR_NONE;
        }
        in = ng_ir_kid(k, body, b->nkids - 1);
    }
    const NgIrNode *n = ng_ir_node(k, in);
    if (n->kind != NG_IR_FOR || !(n->flags & NG_IR_PARALLEL) || !steps_by_one(k, in))
        return NG_IR_NONE;
    NgIrRef inner_body = ng_ir_kid(k, in, 3);
    if (holds(k, inner_body, NG_IR_ATOMIC) || jumps_out(k, inner_body))
        return NG_IR_NONE;
    for (int i = 0; i < 2; i++) /* (bounds the outer iterations do not change) */
        if (reads(k, ng_ir_kid(k, in, i), -1, NULL))
            return NG_IR_NONE;
    *jam = has_loop(k, inner_body);
    if (*jam) /* (lanes of the inner loop, tiles to reuse what they read across the outer one) */
        return jammable(k, in, laned, declared) ? in : NG_IR_NONE;
    return across_rows(k, inner_body, n->a) ? in : NG_IR_NONE;
}

/* Opens the loop over FOR r's tiles: trips [ng_t<v>, ng_e<v>). */
static void tiles_of(Emitter *e, NgIrRef r, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    indent(e, depth);
    catf(e, "for (uint64_t ng_t%d = 0; ng_t%d < ng_n%d; ng_t%d += %du) {\n", v, v, v, v, NG_TILE);
    indent(e, depth + 1);
    catf(e, "const uint64_t ng_e%d = ng_n%d - ng_t%d < %du ? ng_n%d : ng_t%d + %du;\n", v, v, v, NG_TILE, v, v,
         NG_TILE);
}

/* Opens FOR r over the trips of tile ng_t<v>. */
static void in_tile(Emitter *e, NgIrRef r, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    for (int hi = 0; hi < 2; hi++) {
        indent(e, depth);
        catf(e, "const int64_t ng_%s%d = (int64_t)((uint64_t)(", hi ? "hi" : "lo", v);
        kid(e, r, 0);
        catf(e, ") + ng_%c%d);\n", hi ? 'e' : 't', v);
    }
    indent(e, depth);
    catf(e, "for (int64_t v%d = ng_lo%d; v%d < ng_hi%d; v%d++) {\n", v, v, v, v, v);
}

/* Parallel loop r and its inner loop `in` (tiled_inner), in tiles:
 *     for each tile of r's range (in parallel), for each tile of in's:
 *         for v in r's tile: (r's statements before `in`); for w in in's tile: body
 * (declared: the inner loop is jammed, e->laned its lanes' variables). */
static void for_loop_tiled(Emitter *e, NgIrRef r, NgIrRef in, const uint8_t *declared, int depth)
{
    NgIrRef body = ng_ir_kid(e->k, r, 3);
    const NgIrNode *b = ng_ir_node(e->k, body);
    indent(e, depth);
    cat(e, "{\n");
    trip_count(e, r, depth + 1);
    trip_count(e, in, depth + 1);
    omp_for_steps(e, r, NG_TILE, depth + 1);
    tiles_of(e, r, depth + 1);
    tiles_of(e, in, depth + 2);
    in_tile(e, r, depth + 3);
    e->par_depth++;
    for (int i = 0; b->kind == NG_IR_BLOCK && i + 1 < b->nkids; i++)
        stmt(e, ng_ir_kid(e->k, body, i), depth + 4);
    if (declared) {
        int w = ng_ir_node(e->k, in)->a;
        char from[32], to[32];
        snprintf(from, sizeof from, "ng_t%d", w);
        snprintf(to, sizeof to, "ng_e%d", w);
        e->jam = jam_lanes(e->k, ng_ir_kid(e->k, in, 3));
        jam_groups(e, in, from, to, depth + 4);
        jam_group(e, in, declared, depth + 5);
    } else {
        in_tile(e, in, depth + 4);
        stmt(e, ng_ir_kid(e->k, in, 3), depth + 5);
    }
    e->par_depth--;
    for (int d = depth + 4; d >= depth; d--) {
        indent(e, d);
        cat(e, "}\n");
    }
}

/* int ng_par<v>: whether the outermost parallel loop r is worth a team of threads: its launch's
 * work (the largest array's elements, ng_work) or its own trips (a range of a scalar over no
 * array, the midpoint rule for pi: before, one thread) reach NG_PAR_MIN_WORK. */
static void par_decision(Emitter *e, NgIrRef r, int depth)
{
    int v = ng_ir_node(e->k, r)->a;
    indent(e, depth);
    catf(e, "int ng_par%d; {\n", v);
    const char *names[3] = {"ng_lo", "ng_hi", "ng_step"};
    for (int i = 0; i < 3; i++) {
        indent(e, depth + 1);
        catf(e, "const int64_t %s = ", names[i]);
        kid(e, r, i);
        cat(e, ";\n");
    }
    indent(e, depth + 1);
    cat(e, "const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)\n");
    indent(e, depth + 2);
    cat(e, ": ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;\n");
    indent(e, depth + 1);
    catf(e, "ng_par%d = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;\n", v);
    indent(e, depth);
    cat(e, "}\n");
}

/* A loop; `team`: the parallel loop inside an enclosing `omp parallel`. */
static void for_loop_plain(Emitter *e, NgIrRef r, int depth, bool team)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    NgIrRef step = ng_ir_kid(e->k, r, 2);
    const NgIrNode *sn = ng_ir_node(e->k, step);
    bool outer_parallel = (n->flags & NG_IR_PARALLEL) && e->par_depth == 0;
    bool innermost = !has_loop(e->k, ng_ir_kid(e->k, r, 3)), pragma = false;
    if (outer_parallel && e->t->par == NG_PAR_OPENMP) {
        NgStr clauses, *saved = e->out;
        ng_str_init(&clauses);
        e->out = &clauses;
        bool simd = reduction_clauses(e, r);
        e->out = saved;
        /* An iteration holding a while loop costs what its data says (mandelbrot over a region
         * mostly inside the set on one side): 256 chunks of the range, handed out as threads
         * free up. With reductions, static keeps each run's sums in the same order. */
        bool uneven = holds(e->k, ng_ir_kid(e->k, r, 3), NG_IR_WHILE) && order_free(e->k, r) && !team;
        if (uneven)
            dynamic_chunk(e, r, depth);
        if (!team && !e->par_told)
            par_decision(e, r, depth);
        indent(e, depth);
        char sched[40] = "static";
        if (uneven)
            snprintf(sched, sizeof sched, "dynamic, ng_chunk%d", n->a);
        /* (never simd over atomic updates: two lanes may add into one element) */
        char cond[48] = "";
        if (!team)
            snprintf(cond, sizeof cond, " if(parallel: ng_par%d)", n->a);
        catf(e, "#pragma omp %sfor%s schedule(%s)%s%s\n", team ? "" : "parallel ",
             simd && innermost && has_reductions(e->k, r) && !ranked_of(e->k, r) &&
                     !holds(e->k, ng_ir_kid(e->k, r, 3), NG_IR_ATOMIC) ? " simd" : "", sched, cond, clauses.s);
        pragma = true;
        ng_str_free(&clauses);
    } else if (innermost && e->t->par == NG_PAR_OPENMP && !(n->flags & NG_IR_SHORT)) {
        NgStr clauses, *saved = e->out;
        ng_str_init(&clauses);
        e->out = &clauses;
        NgOp op;
        int v = has_reductions(e->k, r) ? -1 : simd_extremum(e->k, ng_ir_kid(e->k, r, 3), &op);
        bool simd = v >= 0 ? reduction_clause(e, v, op) : has_reductions(e->k, r) && reduction_clauses(e, r);
        e->out = saved;
        if ((simd || (n->flags & NG_IR_SIMD)) && !holds(e->k, ng_ir_kid(e->k, r, 3), NG_IR_ATOMIC)) {
            indent(e, depth);
            if (simd)
                catf(e, "#pragma omp simd%s\n", clauses.s);
            else
                cat(e, "NG_VM_SIMD\n");
            pragma = true;
        }
        ng_str_free(&clauses);
    }
    if (outer_parallel && e->t->par != NG_PAR_OPENMP)
        e->grid = r;
    if (outer_parallel && e->t->par != NG_PAR_OPENMP) /* each thread's partial starts at the identity; */
        for (int i = 0; i < e->k->nreds; i++)           /* the store after the loop combines it atomically */
            if (e->k->reds[i].loop == r) {
                indent(e, depth);
                catf(e, "v%d = ", e->k->reds[i].var);
                reduction_identity(e, e->k->reds[i].op, e->k->vars[e->k->reds[i].var].dtype);
                cat(e, ";\n");
            }
    const NgIrRanked *rk = outer_parallel && e->t->par != NG_PAR_OPENMP ? ranked_of(e->k, r) : NULL;
    if (rk) { /* (a ranked reduction: the key at its identity, no rank) */
        indent(e, depth);
        catf(e, "v%d = ", rk->vars[0]);
        reduction_identity(e, rk->op, e->k->vars[rk->vars[0]].dtype);
        catf(e, ";\n");
        indent(e, depth);
        catf(e, "v%d = ", rk->vars[1]);
        rank_none(e);
        cat(e, ";\n");
    }
    indent(e, depth);
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
        loop_test(e, r, sn, false);
        catf(e, "; v%d += %s * ", n->a, all);
        kid(e, r, 2);
        cat(e, ") {\n");
    } else {
        plain_for_head(e, r, pragma);
    }
    if (outer_parallel)
        e->par_depth++;
    /* OpenMP's private copy of a reduction variable does not vectorise when
     * an inner loop updates it; a block-local copy of the same name does. */
    bool shadow = outer_parallel && e->t->par == NG_PAR_OPENMP && !innermost &&
                  has_reductions(e->k, r) && !jumps_out(e->k, ng_ir_kid(e->k, r, 3));
    if (shadow)
        reduction_shadows(e, r, depth + 1, true);
    stmt(e, ng_ir_kid(e->k, r, 3), depth + 1 + shadow);
    if (shadow)
        reduction_shadows(e, r, depth + 1, false);
    if (outer_parallel)
        e->par_depth--;
    indent(e, depth);
    cat(e, "}\n");
}

/* ---- a serial twin (C target) ----
 * `omp parallel for ... if(false)` still makes and frees a team of one
 * thread (0.25 us, a tenth of a small jit call, a third of `a + b` on 16
 * elements), so a parallel loop of a few KB of source is written twice:
 *     if (ng_par<v>) { omp parallel for ...; loop } else { loop }
 * the second without the pragma: its iterations in order, on one thread (a
 * float sum then adds in Python's order). Bigger loops (vector lanes, long
 * bodies) keep one copy: their work dwarfs the team. Where every reduction
 * gives one result in any order (order_free: the error flags' OR), the
 * second keeps `omp simd` and its reductions: without them GCC leaves a
 * body with `&&` or selects in it scalar ("control flow in loop"), and
 * true_divide, floor_divide, remainder of 10^4 elements ran scalar. */
enum { NG_TWIN_MAX = 4096 };

/* Whether statement or expression r calls a math function glibc has vector variants of
 * (NG_C_VECTOR_MATH): in an `omp simd` loop they run within 4 ulp, not libm's bits. */
static bool calls_vector_math(const NgIrKernel *k, NgIrRef r)
{
    if (r == NG_IR_NONE)
        return false;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_UNARY || n->kind == NG_IR_BINARY)
        switch ((NgOp)n->op) {
        case NG_OP_EXP: case NG_OP_EXPM1: case NG_OP_EXP2: case NG_OP_LOG: case NG_OP_LOG1P: case NG_OP_LOG2:
        case NG_OP_LOG10: case NG_OP_SIN: case NG_OP_COS: case NG_OP_TAN: case NG_OP_ARCSIN: case NG_OP_ARCCOS:
        case NG_OP_ARCTAN: case NG_OP_SINH: case NG_OP_COSH: case NG_OP_TANH: case NG_OP_ARCSINH:
        case NG_OP_ARCCOSH: case NG_OP_ARCTANH: case NG_OP_CBRT: case NG_OP_ERF: case NG_OP_ERFC: case NG_OP_POW:
        case NG_OP_ARCTAN2: case NG_OP_HYPOT: case NG_OP_LOGADDEXP: case NG_OP_LOGADDEXP2:
            return true;
        default:
            break;
        }
    for (int i = 0; i < n->nkids; i++)
        if (calls_vector_math(k, ng_ir_kid(k, r, i)))
            return true;
    return false;
}

static void for_loop_twins(Emitter *e, NgIrRef r, int depth)
{
    NgStr par, *saved = e->out;
    ng_str_init(&par);
    e->out = &par;
    e->par_told = true;
    for_loop_plain(e, r, depth + 1, false);
    e->par_told = false;
    e->out = saved;
    const char *pragma = par.failed || !par.s ? NULL : strstr(par.s, "#pragma omp parallel for");
    if (!pragma || par.len > NG_TWIN_MAX) { /* one copy, deciding for itself (par_decision) */
        ng_str_free(&par);
        for_loop_plain(e, r, depth, false);
        return;
    }
    const char *line = pragma, *next = strchr(pragma, '\n');
    while (line > par.s && line[-1] == ' ')
        line--;
    par_decision(e, r, depth);
    indent(e, depth);
    catf(e, "if (ng_par%d) {\n", ng_ir_node(e->k, r)->a);
    cat(e, par.s);
    indent(e, depth);
    cat(e, "} else {\n");
    NgStr serial; /* par without its pragma line, or with `omp simd` and the reductions */
    ng_str_init(&serial);
    ng_str_catf(&serial, "%.*s", (int)(line - par.s), par.s);
    const char *simd = strstr(pragma, " simd "), *red = strstr(pragma, " reduction(");
    if (simd && red && (!next || (simd < next && red < next)) && order_free(e->k, r) &&
        !calls_vector_math(e->k, r)) /* (small loops keep libm's bits: a jit loop's Python's) */
        ng_str_catf(&serial, "%.*s#pragma omp simd%.*s\n", (int)(pragma - line), line,
                    (int)((next ? next : red + strlen(red)) - red), red);
    ng_str_cat(&serial, next ? next + 1 : "");
    cat(e, serial.failed ? "" : serial.s);
    e->out->failed |= serial.failed;
    ng_str_free(&serial);
    indent(e, depth);
    cat(e, "}\n");
    ng_str_free(&par);
}

/* The rank-1 array that every atomic in statement r adds to, when a
 * parallel loop may give each thread a private copy of it instead: only
 * `+=` atomics, all to that array, which the loop never reads or stores
 * otherwise, of an integer or float dtype. -1 if there is none. */
static int atomic_target(const NgIrKernel *k, NgIrRef r, int target)
{
    if (r == NG_IR_NONE)
        return target;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_ATOMIC) {
        NgDType dt = k->params[n->a].dtype;
        if (n->op != NG_OP_ADD || k->params[n->a].ndim != 1 || dt == NG_BOOL || dt == NG_FLOAT16 ||
            ng_dtype_is_complex(dt) || (target >= 0 && target != n->a))
            return -2;
        target = n->a;
    } else if ((n->kind == NG_IR_LOAD || n->kind == NG_IR_STORE) && n->a == target) {
        return -2;
    }
    for (int i = 0; i < n->nkids && target != -2; i++)
        target = atomic_target(k, ng_ir_kid(k, r, i), target);
    /* a load seen before the first atomic named the array: check again */
    return target;
}

/* Parallel loop r whose atomics all add to array p: when the array is small
 * next to the work, each thread adds into its own zeroed copy and the copies
 * are summed into p afterwards, instead of one atomic per update:
 *     ng_priv = calloc(threads * n) or NULL
 *     if (ng_priv) { omp parallel { ng_p = ng_priv + n * thread; omp for ... ng_p[i] += v; }
 *                    p[i] += sum over threads of ng_priv[t * n + i]; free }
 *     else { the loop with atomics } */
static void for_loop_private(Emitter *e, NgIrRef r, int p, int depth)
{
    const char *t = tname(e, e->k->params[p].dtype);
    indent(e, depth);
    cat(e, "{\n");
    indent(e, depth + 1);
    cat(e, "extern int omp_get_max_threads(void), omp_get_thread_num(void);\n");
    indent(e, depth + 1);
    catf(e, "const int64_t ng_pn = a%d_n0, ng_pt = omp_get_max_threads();\n", p);
    indent(e, depth + 1);
    catf(e, "%s *ng_priv = ng_work >= NG_PAR_MIN_WORK && ng_pn * ng_pt * 16 <= ng_work ? "
            "(%s *)__builtin_calloc((unsigned long)(ng_pn * ng_pt), sizeof(%s)) : 0;\n", t, t, t);
    indent(e, depth + 1);
    cat(e, "if (ng_priv) {\n");
    indent(e, depth + 2);
    cat(e, "#pragma omp parallel num_threads(ng_pt)\n");
    indent(e, depth + 2);
    cat(e, "{\n");
    indent(e, depth + 3);
    catf(e, "%s *const ng_p = ng_priv + ng_pn * omp_get_thread_num();\n", t);
    e->priv = p;
    for_loop_plain(e, r, depth + 3, true);
    e->priv = -1;
    indent(e, depth + 2);
    cat(e, "}\n");
    indent(e, depth + 2);
    cat(e, "for (int64_t ng_t = 0; ng_t < ng_pt; ng_t++)\n");
    indent(e, depth + 3);
    catf(e, "for (int64_t ng_i = 0; ng_i < ng_pn; ng_i++)\n");
    indent(e, depth + 4);
    if (e->k->params[p].inner_contig)
        catf(e, "a%d[ng_i] += ng_priv[ng_t * ng_pn + ng_i];\n", p);
    else
        catf(e, "a%d[ng_i * a%d_s0] += ng_priv[ng_t * ng_pn + ng_i];\n", p, p);
    indent(e, depth + 2);
    cat(e, "__builtin_free(ng_priv);\n");
    indent(e, depth + 1);
    cat(e, "} else {\n");
    for_loop_plain(e, r, depth + 2, false);
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
}

/* Parallel loop r (C target) in tiles or in lanes where that applies; false
 * if neither does (or no memory for the lanes' tables). */
static bool loop_in_lanes(Emitter *e, NgIrRef r, int depth)
{
    const NgIrKernel *k = e->k;
    size_t nv = k->nvars ? (size_t)k->nvars : 1;
    uint8_t *laned = ng_calloc(2, nv), *declared = laned ? laned + nv : NULL;
    if (!laned)
        return false;
    bool jam = false, done = true;
    e->laned = laned;
    NgIrRef in = tiled_inner(e, r, laned, declared, &jam);
    if (in != NG_IR_NONE) {
        for_loop_tiled(e, r, in, jam ? declared : NULL, depth);
    } else {
        memset(laned, 0, 2 * nv);
        if (lanes_combine(k, r) && !ranked_of(k, r) && !holds(k, ng_ir_kid(k, r, 3), NG_IR_ATOMIC) &&
            jammable(k, r, laned, declared))
            for_loop_jammed(e, r, declared, depth);
        else
            done = false;
    }
    e->laned = NULL;
    ng_free(laned);
    return done;
}

/* GPUs: every thread of the block waits for the others, their stores to global memory
 * seen by all. */
static void block_barrier(Emitter *e, int depth)
{
    indent(e, depth);
    cat(e, e->t->par == NG_PAR_GRID_STRIDE ? "__syncthreads();\n" : "barrier(CLK_GLOBAL_MEM_FENCE);\n");
}

/* ng_emit_rows_blocks's walk of statement or expression r: `rows` inside a ROWS loop's body.
 * Pass 0 marks in priv[] the variables assigned in rows (a thread's own values there);
 * pass 1 fails on what one block of threads running the code around the rows cannot do:
 * a parallel loop that is not a row, block-level nodes, atomics, a row inside a row, a row
 * that leaves its loop, and outside the rows a read of a variable assigned in them. */
static bool rows_walk(const NgIrKernel *k, NgIrRef r, bool rows, uint8_t *priv, int pass, int *nrows)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *n = ng_ir_node(k, r);
    switch ((NgIrKind)n->kind) {
    case NG_IR_THREAD: case NG_IR_BLOCK_REDUCE: case NG_IR_ATOMIC:
        return false;
    case NG_IR_VAR:
        if (pass == 1 && !rows && priv[n->a])
            return false;
        break;
    case NG_IR_LET: case NG_IR_ASSIGN:
        if (pass == 0 && rows)
            priv[n->a] = 1;
        break;
    case NG_IR_FOR:
        if ((n->flags & NG_IR_PARALLEL) && !(n->flags & NG_IR_ROWS))
            return false;
        if (n->flags & NG_IR_ROWS) {
            if (rows || jumps_out(k, ng_ir_kid(k, r, 3)))
                return false;
            (*nrows)++;
            if (pass == 0)
                priv[n->a] = 1;
            for (int i = 0; i < 3; i++)
                if (!rows_walk(k, ng_ir_kid(k, r, i), false, priv, pass, nrows))
                    return false;
            return rows_walk(k, ng_ir_kid(k, r, 3), true, priv, pass, nrows);
        }
        if (pass == 0 && rows)
            priv[n->a] = 1;
        break;
    default:
        break;
    }
    for (int i = 0; i < n->nkids; i++)
        if (!rows_walk(k, ng_ir_kid(k, r, i), rows, priv, pass, nrows))
            return false;
    return true;
}

bool ng_emit_rows_blocks(const NgIrKernel *k, const NgTarget *t)
{
    /* CUDA only: PoCL's compiler lost the rows' stores of such a kernel (one work-group, rows
     * between barriers in a loop, stores of thread 0 around them and a sum beside: 0.0 for
     * 1149.0; right with -cl-opt-disable, and the kernel is valid OpenCL), and the OpenCL target
     * cannot tell PoCL from a GPU: OpenCL runs these rows in one thread, as before */
    if (t->par == NG_PAR_OPENMP || t == &ng_target_opencl || k->body == NG_IR_NONE)
        return false;
    bool any = false;
    for (NgIrRef r = 0; r < k->nnodes && !any; r++)
        any = k->nodes[r].kind == NG_IR_FOR && (k->nodes[r].flags & NG_IR_ROWS);
    if (!any)
        return false;
    uint8_t *priv = ng_calloc((size_t)k->nvars + 1, 1);
    int nrows = 0;
    bool ok = priv && rows_walk(k, k->body, false, priv, 0, &nrows) && nrows > 0;
    nrows = 0;
    ok = ok && rows_walk(k, k->body, false, priv, 1, &nrows);
    ng_free(priv);
    return ok;
}

/* Adds to vars[] the scalar variables that statement r assigns without declaring them in r
 * (false: an array variable's element, or more than `max`); *let: those r declares. */
static bool outer_assigns(const NgIrKernel *k, NgIrRef r, uint8_t *let, int *vars, int *n, int max)
{
    if (r == NG_IR_NONE)
        return true;
    const NgIrNode *x = ng_ir_node(k, r);
    if (x->kind != NG_IR_BLOCK && x->kind < NG_IR_LET) /* (an expression assigns nothing) */
        return true;
    if (x->kind == NG_IR_LET || x->kind == NG_IR_FOR)
        let[x->a] = 1;
    if (x->kind == NG_IR_ASSIGN && !let[x->a]) {
        if (k->vars[x->a].len)
            return false;
        bool seen = false;
        for (int i = 0; i < *n; i++)
            seen = seen || vars[i] == x->a;
        if (!seen) {
            if (*n == max)
                return false;
            vars[(*n)++] = x->a;
        }
    }
    for (int i = 0; i < x->nkids; i++)
        if (!outer_assigns(k, ng_ir_kid(k, r, i), let, vars, n, max))
            return false;
    return true;
}

/* FOR r flagged NG_IR_ROWS: a row of a loop run in order whose iterations are independent
 * (NgJitLoopInfo.rows). On the C target, when its body neither leaves it (a store's check
 * breaks out: the rest of the row must not run) nor updates atomically, and it is no part
 * of a parallel loop:
 *     if (trips reach NG_PAR_MIN_WORK, or a 64th of it when the body holds a loop) {
 *         omp parallel for private(the scalars the body assigns) ... } else { the loop }
 * (a team per row: microseconds, next to a row of 32768 elements); elsewhere in order. */
static void for_loop_rows(Emitter *e, NgIrRef r, int depth)
{
    const NgIrKernel *k = e->k;
    NgIrRef body = ng_ir_kid(k, r, 3);
    if (e->rows_blocks) { /* each thread a share of the row (a block-stride loop), then all wait */
        for_loop_plain(e, r, depth, false);
        block_barrier(e, depth);
        return;
    }
    enum { MAX_PRIV = 64 };
    int vars[MAX_PRIV], nv = 0;
    uint8_t *let = k->nvars ? ng_calloc((size_t)k->nvars, 1) : NULL;
    bool threads = e->t->par == NG_PAR_OPENMP && e->par_depth == 0 && (let || !k->nvars) && !jumps_out(k, body) &&
                   !holds(k, body, NG_IR_ATOMIC) && outer_assigns(k, body, let, vars, &nv, MAX_PRIV);
    ng_free(let);
    NgStr seq, *saved = e->out;
    ng_str_init(&seq);
    e->out = &seq;
    e->par_depth++; /* (in order: no team of its own, nor for a loop inside) */
    for_loop_plain(e, r, depth + (threads ? 2 : 0), false);
    e->par_depth--;
    e->out = saved;
    const char *first = seq.s ? seq.s + strspn(seq.s, " ") : NULL;
    /* the loop's own simd line (NG_VM_SIMD, `omp simd`) becomes the team's; anything else
     * before its `for` (a simd line with clauses) keeps it in order */
    bool simd = first && (!strncmp(first, "NG_VM_SIMD\n", 11) || !strncmp(first, "#pragma omp simd\n", 17));
    const char *head = simd ? strchr(first, '\n') + 1 : first;
    if (threads && (!first || seq.failed || strstr(seq.s, "reduction(") ||
                    strncmp(head + strspn(head, " "), "for (", 5) != 0))
        threads = false;
    if (threads) { /* (OpenMP's canonical form: no stop computed in the head, a step of known sign) */
        const char *eol = strchr(head, '\n'), *end = eol ? eol : head + strlen(head);
        for (const char *p = head; threads && p < end; p++)
            threads = strncmp(p, ", ng_end", 8) != 0 && strncmp(p, " > 0) ? (v", 10) != 0;
    }
    if (!threads) { /* (GPUs: their plans never flag a row; in order all the same) */
        cat(e, seq.s ? seq.s : "");
        e->out->failed |= seq.failed;
        ng_str_free(&seq);
        return;
    }
    int v = ng_ir_node(k, r)->a;
    indent(e, depth);
    cat(e, "{\n");
    trip_count(e, r, depth + 1);
    indent(e, depth + 1);
    catf(e, "if (ng_n%d >= (uint64_t)NG_PAR_MIN_WORK / %du) {\n", v, has_loop(k, body) ? 64 : 1);
    const char *rest = simd ? head : seq.s;
    indent(e, depth + 2);
    catf(e, "#pragma omp parallel for%s schedule(static)", simd ? " simd" : "");
    if (nv) {
        cat(e, " private(");
        for (int i = 0; i < nv; i++)
            catf(e, "%sv%d", i ? ", " : "", vars[i]);
        cat(e, ")");
    }
    cat(e, "\n");
    cat(e, rest);
    indent(e, depth + 1);
    cat(e, "} else {\n");
    cat(e, seq.s);
    indent(e, depth + 1);
    cat(e, "}\n");
    indent(e, depth);
    cat(e, "}\n");
    ng_str_free(&seq);
}

static void for_loop(Emitter *e, NgIrRef r, int depth)
{
    const NgIrNode *n = ng_ir_node(e->k, r);
    if (n->flags & NG_IR_ROWS) {
        for_loop_rows(e, r, depth);
        return;
    }
    const NgIrRanked *rk = ranked_of(e->k, r);
    if ((n->flags & NG_IR_PARALLEL) && e->par_depth == 0 && e->t->par == NG_PAR_OPENMP && e->k->lanes &&
        !e->laned && loop_in_lanes(e, r, depth))
        return;
    if ((n->flags & NG_IR_PARALLEL) && e->par_depth == 0 && e->t->par == NG_PAR_OPENMP && rk) {
        for_loop_ranked(e, r, rk, depth);
        return;
    }
    if ((n->flags & NG_IR_PARALLEL) && e->par_depth == 0 && e->t->par == NG_PAR_OPENMP) {
        int p = atomic_target(e->k, ng_ir_kid(e->k, r, 3), -1);
        if (p >= 0 && atomic_target(e->k, ng_ir_kid(e->k, r, 3), p) == p) {
            for_loop_private(e, r, p, depth);
            return;
        }
        for_loop_twins(e, r, depth);
        return;
    }
    for_loop_plain(e, r, depth, false);
}

/* True if expression x loads the element that STORE node st writes. */
static bool reads_element(const NgIrKernel *k, NgIrRef x, NgIrRef st)
{
    const NgIrNode *n = ng_ir_node(k, x), *s = ng_ir_node(k, st);
    if (n->kind == NG_IR_LOAD && n->a == s->a && n->nkids == s->nkids - 1) {
        bool same = true;
        for (int i = 0; same && i < n->nkids; i++)
            same = ng_ir_kid(k, x, i) == ng_ir_kid(k, st, i + 1);
        if (same)
            return true;
    }
    for (int i = 0; i < n->nkids; i++)
        if (reads_element(k, ng_ir_kid(k, x, i), st))
            return true;
    return false;
}

/* `if (c) v = x;` as `v = c ? x : v;` when x can be computed whether or
 * not c holds: a branch-free body the compiler can vectorise (the counting
 * in `if inside: total += 1`). */
static bool if_convert(Emitter *e, NgIrRef r, int depth)
{
    NgIrRef then = ng_ir_kid(e->k, r, 1);
    if (ng_ir_kid(e->k, r, 2) != NG_IR_NONE)
        return false;
    while (ng_ir_node(e->k, then)->kind == NG_IR_BLOCK && ng_ir_node(e->k, then)->nkids == 1)
        then = ng_ir_kid(e->k, then, 0);
    const NgIrNode *t = ng_ir_node(e->k, then);
    NgIrRef c = ng_ir_kid(e->k, r, 0);
    if (t->kind == NG_IR_STORE && e->t->par == NG_PAR_OPENMP && reads_element(e->k, c, then) &&
        speculable(e->k, ng_ir_kid(e->k, then, 0), c)) {
        /* if (x < a[i]) a[i] = x  as  a[i] = x < a[i] ? x : a[i]: the test
         * already read a[i], so the store cannot fault, and no other
         * iteration of a parallel loop touches a[i] (the analysis proved
         * it), so storing the old value back races with nobody. */
        indent(e, depth);
        element(e, then, t->a, 1);
        cat(e, " = (");
        kid(e, r, 0);
        cat(e, ") ? (");
        store_value(e, e->k->params[t->a].dtype, ng_ir_kid(e->k, then, 0));
        cat(e, ") : ");
        element(e, then, t->a, 1);
        cat(e, ";\n");
        return true;
    }
    if (t->kind != NG_IR_ASSIGN || e->k->vars[t->a].len || !speculable(e->k, ng_ir_kid(e->k, then, 0), c))
        return false;
    indent(e, depth);
    var_name(e, t->a);
    cat(e, " = (");
    kid(e, r, 0);
    cat(e, ") ? (");
    kid(e, then, 0);
    cat(e, ") : ");
    var_name(e, t->a);
    cat(e, ";\n");
    return true;
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
        catf(e, "%s ", tname(e, e->k->vars[n->a].dtype));
        var_name(e, n->a);
        if (e->k->vars[n->a].len) { /* an array variable: every element set */
            catf(e, "[%d];\n", e->k->vars[n->a].len);
            indent(e, depth);
            catf(e, "for (int ng_e = 0; ng_e < %d; ng_e++)\n", e->k->vars[n->a].len);
            indent(e, depth + 1);
            var_name(e, n->a);
            cat(e, "[ng_e] = ");
            kid(e, r, 0);
            cat(e, ";\n");
            break;
        }
        cat(e, " = ");
        kid(e, r, 0);
        cat(e, ";\n");
        break;
    case NG_IR_ASSIGN:
        indent(e, depth);
        var_name(e, n->a);
        if (n->nkids > 1) { /* an array variable's element */
            cat(e, "[");
            kid(e, r, 1);
            cat(e, "]");
        }
        cat(e, " = ");
        kid(e, r, 0);
        cat(e, ";\n");
        break;
    case NG_IR_STORE: {
        if (e->rows_blocks && e->par_depth == 0 && !e->guarded) {
            /* every thread runs the code around the rows: thread 0 stores, after all have
             * read what they read before it, and before any reads it again */
            block_barrier(e, depth);
            indent(e, depth);
            cat(e, e->t->par == NG_PAR_GRID_STRIDE ? "if (threadIdx.x == 0u) {\n" : "if (get_local_id(0) == 0) {\n");
            e->guarded = true;
            stmt(e, r, depth + 1);
            e->guarded = false;
            indent(e, depth);
            cat(e, "}\n");
            block_barrier(e, depth);
            break;
        }
        const NgIrNode *v = ng_ir_node(e->k, ng_ir_kid(e->k, r, 0));
        /* after a GPU-wide loop, storing one of its reduction variables */
        int red = v->kind == NG_IR_VAR && !v->nkids && e->t->par != NG_PAR_OPENMP && e->par_depth == 0
                      ? reduction_of(e->k, v->a, e->grid) : -1;
        const NgIrRanked *rk = v->kind == NG_IR_VAR && !v->nkids && e->t->par != NG_PAR_OPENMP && e->par_depth == 0
                                   ? ranked_of(e->k, e->grid) : NULL;
        int member = -1;
        for (int i = 0; rk && i < rk->nvars; i++)
            if (rk->vars[i] == v->a)
                member = i;
        if (member == 0) { /* the key: every variable of the ranked reduction */
            ranked_gpu_combine(e, rk, r, depth == 1 && block_first_store(e->k, r), depth);
            break;
        }
        if (member > 0) /* (stored with the key) */
            break;
        indent(e, depth);
        if (red >= 0 && depth == 1 && block_first_store(e->k, r)) {
            /* the block combines its threads' partials; one atomic per block */
            cat(e, "{\n");
            block_combine(e, v->a, e->k->reds[red].op, r, depth + 1);
            indent(e, depth + 1);
            catf(e, "if (%s == 0)\n", e->t->par == NG_PAR_GRID_STRIDE ? "threadIdx.x" : "get_local_id(0)");
            indent(e, depth + 2);
            atom_call(e, e->k->reds[red].op, e->k->vars[v->a].dtype);
            cat(e, "&");
            element(e, r, n->a, 1);
            catf(e, ", v%d);\n", v->a);
            indent(e, depth);
            cat(e, "}\n");
            break;
        }
        if (red >= 0) { /* a GPU thread's partial of a reduction: combined into the result */
            atom_call(e, e->k->reds[red].op, e->k->vars[v->a].dtype);
            cat(e, "&");
            element(e, r, n->a, 1);
            catf(e, ", v%d);\n", v->a);
            break;
        }
        element(e, r, n->a, 1);
        cat(e, " = ");
        store_value(e, e->k->params[n->a].dtype, ng_ir_kid(e->k, r, 0));
        cat(e, ";\n");
        break;
    }
    case NG_IR_ATOMIC:
        if (e->t->par != NG_PAR_OPENMP) {
            indent(e, depth);
            atom_call(e, (NgOp)n->op, e->k->params[n->a].dtype);
            cat(e, "&");
            element(e, r, n->a, 1);
            cat(e, ", ");
            kid(e, r, 0);
            cat(e, ");\n");
            break;
        }
        if (n->a == e->priv) { /* the thread's private copy: a plain add */
            indent(e, depth);
            cat(e, "ng_p[");
            kid(e, r, 1);
            cat(e, "] += ");
            kid(e, r, 0);
            cat(e, ";\n");
            break;
        }
        indent(e, depth);
        cat(e, "{\n");
        indent(e, depth + 1);
        NgDType at = e->k->params[n->a].dtype;
        catf(e, "%s *ng_at = &", sname(e, at));
        element(e, r, n->a, 1);
        cat(e, ";\n");
        indent(e, depth + 1);
        if (ng_dtype_is_complex(at) && n->op == NG_OP_ADD) { /* the two parts are independent sums */
            catf(e, "const %s ng_v = ", tname(e, at));
            kid(e, r, 0);
            cat(e, ";\n");
            for (int part = 0; part < 2; part++) {
                indent(e, depth + 1);
                cat(e, "#pragma omp atomic update\n");
                indent(e, depth + 1);
                catf(e, "ng_at->%s += ng_v.%s;\n", part ? "im" : "re", part ? "im" : "re");
            }
        } else if (ng_dtype_is_complex(at) || at == NG_FLOAT16) {
            /* under a lock: *ng_at = *ng_at op value, combined in the value type */
            catf(e, "const %s ng_v = ", tname(e, at));
            kid(e, r, 0);
            cat(e, ";\n");
            indent(e, depth + 1);
            cat(e, "#pragma omp critical\n");
            indent(e, depth + 1);
            cat(e, at == NG_FLOAT16 ? "*ng_at = ng_f2h(" : "*ng_at = (");
            combine_expr(e, (NgOp)n->op, at, at == NG_FLOAT16 ? "ng_h2f(*ng_at)" : "*ng_at", "ng_v");
            cat(e, ");\n");
        } else if (n->op == NG_OP_GT || n->op == NG_OP_LT) {
            /* a compare-and-swap loop on the element's bytes, while v still compares greater (less) */
            catf(e, "%s ng_v = ", tname(e, at));
            kid(e, r, 0);
            cat(e, ", ng_o;\n");
            indent(e, depth + 1);
            cat(e, "__atomic_load(ng_at, &ng_o, __ATOMIC_RELAXED);\n");
            indent(e, depth + 1);
            catf(e, "while (ng_v %s ng_o && !__atomic_compare_exchange(ng_at, &ng_o, &ng_v, 0, __ATOMIC_RELAXED, "
                    "__ATOMIC_RELAXED)) {}\n", n->op == NG_OP_GT ? ">" : "<");
        } else if (n->op == NG_OP_ADD) {
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
        if (if_convert(e, r, depth))
            break;
        indent(e, depth);
        cat(e, "if (");
        kid(e, r, 0);
        cat(e, ") {\n");
        e->fast += (n->flags & NG_IR_VERSIONED) != 0;
        stmt(e, ng_ir_kid(e->k, r, 1), depth + 1);
        e->fast -= (n->flags & NG_IR_VERSIONED) != 0;
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
    case NG_IR_BLOCK_REDUCE: block_reduce(e, r, depth); break;
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
        if (!pp->is_array && ng_dtype_is_complex(pp->dtype)) { /* two slots: real, imaginary */
            const char *R = real_name(pp->dtype);
            catf(e, "    const %s s%d = ng_cpack_%s((%s)A[%d].f, (%s)A[%d].f);\n", ty, p, sfx(pp->dtype), R, j, R,
                 j + 1);
            j += 2;
            continue;
        }
        if (!pp->is_array) {
            bool fl = ng_dtype_is_float(pp->dtype);
            catf(e, "    const %s s%d = (%s)A[%d].%s;\n", ty, p, ty, j++, fl ? "f" : "i");
            continue;
        }
        ty = sname(e, pp->dtype);
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
        const char *ty = sname(e, pp->dtype);
        catf(e, "%s", first ? "" : ", ");
        first = false;
        if (!pp->is_array && ng_dtype_is_complex(pp->dtype)) {
            catf(e, "%s s%d_re, %s s%d_im", real_name(pp->dtype), p, real_name(pp->dtype), p);
            continue;
        }
        if (!pp->is_array) {
            const char *decl = pp->dtype == NG_FLOAT32 || pp->dtype == NG_FLOAT16 ? "float"
                               : ng_dtype_is_float(pp->dtype) ? "double" : "int64_t";
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
        const char *ty = pp->is_array ? sname(e, pp->dtype) : tname(e, pp->dtype);
        if (!pp->is_array && ng_dtype_is_complex(pp->dtype))
            catf(e, "    const %s s%d = ng_cpack_%s(s%d_re, s%d_im);\n", ty, p, sfx(pp->dtype), p, p);
        else if (!pp->is_array)
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
        n += k->params[p].is_array ? 2 + 2 * k->params[p].ndim : ng_dtype_is_complex(k->params[p].dtype) ? 2 : 1;
    return n;
}

void ng_emit_arg_kinds(const NgIrKernel *k, uint8_t *kinds)
{
    int j = 0;
    for (int p = 0; p < k->nparams; p++) {
        const NgIrParam *pp = &k->params[p];
        if (!pp->is_array && ng_dtype_is_complex(pp->dtype)) {
            kinds[j] = kinds[j + 1] = pp->dtype == NG_COMPLEX64 ? NG_ARG_F32 : NG_ARG_F64;
            j += 2;
            continue;
        }
        if (!pp->is_array) {
            kinds[j++] = pp->dtype == NG_FLOAT32 || pp->dtype == NG_FLOAT16 ? NG_ARG_F32
                         : ng_dtype_is_float(pp->dtype) ? NG_ARG_F64 : NG_ARG_I64;
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
        if (k->nodes[r].kind == NG_IR_FOR && (k->nodes[r].flags & NG_IR_PARALLEL) &&
            !(k->nodes[r].flags & NG_IR_ROWS))
            return true;
    return false;
}

/* Whether kernel k has float16 or complex values anywhere (parameters,
 * variables, expressions): their helpers are written only then. */
static void uses_dtypes(const NgIrKernel *k, bool *half, bool *cplx)
{
    for (int p = 0; p < k->nparams; p++) {
        *half = *half || k->params[p].dtype == NG_FLOAT16;
        *cplx = *cplx || ng_dtype_is_complex(k->params[p].dtype);
    }
    for (int v = 0; v < k->nvars; v++) {
        *half = *half || k->vars[v].dtype == NG_FLOAT16;
        *cplx = *cplx || ng_dtype_is_complex(k->vars[v].dtype);
    }
    for (NgIrRef r = 0; r < k->nnodes; r++) {
        *half = *half || k->nodes[r].dtype == NG_FLOAT16;
        *cplx = *cplx || ng_dtype_is_complex((NgDType)k->nodes[r].dtype);
    }
}

/* Adds to counts[p] the STOREs into array parameter p in the statements at
 * r, but not in the loops among them (their bodies are loops of their own). */
static void count_stores(const NgIrKernel *k, NgIrRef r, int *counts)
{
    if (r == NG_IR_NONE)
        return;
    const NgIrNode *n = ng_ir_node(k, r);
    if (n->kind == NG_IR_STORE)
        counts[n->a]++;
    else if (n->kind == NG_IR_BLOCK)
        for (int i = 0; i < n->nkids; i++)
            count_stores(k, ng_ir_kid(k, r, i), counts);
    else if (n->kind == NG_IR_IF)
        for (int i = 1; i < n->nkids; i++)
            count_stores(k, ng_ir_kid(k, r, i), counts);
}

/* Whether a loop of k with a constant step of 2 or -2 stores twice into one
 * array in an iteration. GCC 12.2 (Debian 12's), at -O3 -march=native,
 * vectorises some such loops wrongly: a stride-2 group of loads meeting
 * if-converted selects and two stores into one element (`if (c) o[v] =
 * x[v - 1]; o[v] = d ? x[v] : 0;` in `for (v = 1; v < n; v += 2)` stores
 * the wrong elements of x; found by tools/jit_difftest.py, reduced by hand,
 * tests/c/test_emit.c). The C target compiles such a kernel without
 * tree-loop-if-convert (NG_NO_IFCVT), which gets it right. */
static bool stride2_double_store(const NgIrKernel *k)
{
    int *counts = ng_calloc((size_t)k->nparams + 1, sizeof *counts);
    bool found = false;
    for (NgIrRef r = 0; counts && r < k->nnodes && !found; r++) {
        const NgIrNode *n = &k->nodes[r];
        NgIrRef step = n->kind == NG_IR_FOR ? ng_ir_kid(k, r, 2) : NG_IR_NONE;
        if (step == NG_IR_NONE || ng_ir_node(k, step)->kind != NG_IR_CONST ||
            (ng_ir_node(k, step)->c.i != 2 && ng_ir_node(k, step)->c.i != -2))
            continue;
        memset(counts, 0, (size_t)k->nparams * sizeof *counts);
        count_stores(k, ng_ir_kid(k, r, 3), counts);
        for (int p = 0; p < k->nparams; p++)
            found = found || counts[p] > 1;
    }
    ng_free(counts);
    return found;
}

/* The kernel's constant tables (NgIrTable), each ng_tab<number>. */
static void tables(Emitter *e)
{
    for (int t = 0; t < e->k->ntables; t++) {
        const NgIrTable *tb = &e->k->tables[t];
        catf(e, "\n%s%s ng_tab%d[%d] = {", e->t->table_head, tname(e, tb->dtype), t, tb->n);
        for (int i = 0; i < tb->n; i++) {
            cat(e, i % 4 ? " " : "\n    ");
            if (tb->dtype == NG_FLOAT64)
                float_literal(e, NG_FLOAT64, ((const double *)tb->values)[i]);
            else
                catf(e, "%lluU%s", (unsigned long long)((const uint64_t *)tb->values)[i], e->t->int64_suffix);
            cat(e, ",");
        }
        cat(e, "\n};\n");
    }
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
    Emitter e = {k, t, out, 0, -1, NG_IR_NONE, NG_OK, -1, NULL, NULL, false, NULL, 0, 0, 0, 0, NG_JAM, 0, false,
                 ng_emit_rows_blocks(k, t), false};
    cat(&e, t->prologue);
    if (t->lanes_prologue && k->lanes) /* (a loop may run in vector lanes) */
        cat(&e, t->lanes_prologue);
    bool half = false, cplx = false;
    uses_dtypes(k, &half, &cplx);
    if (half)
        cat(&e, t->half_prologue);
    if (cplx)
        cat(&e, t->complex_prologue);
    if (t->par != NG_PAR_OPENMP)
        atom_helpers(&e);
    tables(&e);
    if (t->packed_args) {
        if (stride2_double_store(k)) /* (see there: a workaround for a C compiler's bug) */
            cat(&e, "\nNG_NO_IFCVT");
        catf(&e, "\n%s%s(const NgKArg *A)\n{\n", t->kernel_head, k->name);
        unpack_args(&e);
        invariant_divisors(&e);
    } else {
        catf(&e, "\n%s%s(", t->kernel_head, k->name);
        param_list(&e);
    }
    block_scratch(&e);
    stmt(&e, k->body, 1);
    cat(&e, "}\n");
    if (e.st != NG_OK)
        return e.st;
    if (out->failed)
        return ng_error_set(NG_ERR_NOMEM, "out of memory emitting kernel source");
    return NG_OK;
}
