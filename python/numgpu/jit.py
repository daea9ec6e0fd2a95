"""@numgpu.jit: ordinary Python loops become device kernels.

The C front end (numgpu._core.jit_program) parses the function's source and
analyses every loop (parallel / sequential / python, reductions, atomics,
reasons). This module builds the host plan: the function's source with each
loop nest that can run on the device replaced by

    if (__ng_r := __ng_launch(<loop>, locals())) is None:
        <the original loop, run by Python>
    else: <names the loop assigned> = values from __ng_r
          [return what a return inside the loop returned, when one ran]

so a loop the kernel cannot take at run time (a list argument, an
unsupported construct for the types it meets) simply runs as Python, and
everything outside loops is the function's own code.

On a device that is not host-visible (a GPU), a NumPy argument that the
function's own code never touches between its loops (only its shape, ndim,
dtype, size or len(), or returns it) is uploaded once per call, at its first
loop, and written back once, at the end of the call, rather than around every
loop launch (a time-stepping loop launching its inner loops would otherwise
copy the arrays both ways at every step).
"""
import ast as _ast
import functools
import inspect
import linecache
import textwrap
import threading
import types
import warnings

import numpy as _np

from . import _core

_SHAPE_ATTRS = frozenset(("shape", "ndim", "dtype", "size"))
_SIMPLE = (int, float, complex, bool, str, bytes, type(None), _np.generic)


_SAFE_CALLS = frozenset(("len", "range", "int", "float", "bool", "abs", "min", "max", "round"))
_MODULES = frozenset(("np", "numpy", "math", "random"))


def _stored_names(node):
    """The names node's statements bind: not a comprehension's own variables, which Python 3
    keeps inside it (a walrus there binds outside, and counts)."""
    out = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (_ast.ListComp, _ast.SetComp, _ast.DictComp, _ast.GeneratorExp)):
            todo.extend(w for w in _ast.walk(n) if isinstance(w, _ast.NamedExpr))
            continue
        if isinstance(n, _ast.Name) and isinstance(n.ctx, _ast.Store):
            out.add(n.id)
        todo.extend(_ast.iter_child_nodes(n))
    return out


def _returns(node):
    """{line: form} for the return statements inside loop node (not in a nested function or
    class): None for a bare return or `return None`, 0 for a value, k for a tuple of k items (desugar.c's forms:
    the kernel sets __ng_ret to the line of the return that ran, the value into __ng_retv<line>,
    a tuple's items into __ng_retv<line>_<i>)."""
    out = {}
    todo = list(_ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        if isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef, _ast.Lambda)):
            continue
        if isinstance(n, _ast.Return):
            v = n.value
            out[n.lineno] = (None if v is None or (isinstance(v, _ast.Constant) and v.value is None) else
                             len(v.elts) if isinstance(v, _ast.Tuple) and not any(isinstance(e, _ast.Starred) for e in v.elts)
                             else 0)
        todo.extend(_ast.iter_child_nodes(n))
    return out


def _value_names(line, form):
    """The names the kernel hands the values of the return on `line` back in (see _returns)."""
    return [] if form is None else ["__ng_retv%d" % line] if form == 0 else \
        ["__ng_retv%d_%d" % (line, k) for k in range(form)]


def _return_names(returns):
    return ["__ng_ret"] + [n for line, form in sorted(returns.items()) for n in _value_names(line, form)]


def _returned(r, returns):
    """What the return statement that ran in a launched loop returns (see _returns)."""
    line = r["__ng_ret"]
    form = returns[line]
    values = [r[n] for n in _value_names(line, form)]
    return None if form is None else values[0] if form == 0 else tuple(values)


def _leaves(node):
    """Whether loop node's body may leave it by a break of its own or a return (desugar.c's
    else_loops flags those: the kernel hands the flag back)."""
    todo = list(node.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (_ast.Break, _ast.Return)):
            return True
        if isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef, _ast.Lambda)):
            continue
        if isinstance(n, (_ast.For, _ast.While, _ast.AsyncFor)):  # (its own breaks are its own)
            todo.extend(n.orelse)
            todo.extend(w for w in _ast.walk(n) if isinstance(w, _ast.Return))
            continue
        todo.extend(_ast.iter_child_nodes(n))
    return False


def _else_lines(node, src_lines):
    """The source lines of loop node's else block, dedented (the first from its statement's
    column when it shares the `else:` line)."""
    first, last = node.orelse[0], node.orelse[-1]
    lines = list(src_lines[first.lineno - 1:last.end_lineno])
    head = lines[0].encode()
    col = first.col_offset  # (bytes, as the ast counts them)
    lines[0] = " " * col + head[col:].decode()
    return textwrap.dedent("\n".join(lines)).split("\n")


def _reaches_no_array(v):
    """True for a value the code outside the loops cannot reach an array through: a number, a
    str, None, NumPy's, numgpu's or math's modules and their functions, a builtin, a type, a
    tuple, list or dict of such; False for a namespace, an instance, another module, a function
    of the program's (each may hold or return the array a kept argument is)."""
    if isinstance(v, _SIMPLE + (type, types.BuiltinFunctionType)):
        return True
    if isinstance(v, types.ModuleType):
        return v.__name__.split(".")[0] in ("numpy", "numgpu", "math", "cmath", "random")
    if isinstance(v, (tuple, list)):
        return len(v) <= 64 and all(isinstance(x, _SIMPLE) for x in v)
    if isinstance(v, dict):
        return len(v) <= 64 and all(isinstance(x, _SIMPLE) for x in v.values())
    mod = getattr(v, "__module__", None) or ""
    return callable(v) and mod.split(".")[0] in ("numpy", "numgpu", "math") or isinstance(v, (_np.ufunc,))


_FRESH = frozenset(("zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like", "full_like"))


def _fresh_locals(func, src_lines):
    """{name: its assignment} of the names the function binds once, by `name = np.zeros(...)`
    (empty, ones, full, *_like; np, numpy) as a statement of its own line, outside nested defs:
    a new array nothing else names, which may stay on the device as a kept argument may."""
    stores, fresh = {}, {}
    for n in _ast.walk(func):
        if isinstance(n, _ast.Name) and not isinstance(n.ctx, _ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.Lambda)) and n is not func:
            for a in _ast.walk(n):   # (a nested def's names are not the function's to keep)
                if isinstance(a, (_ast.Name, _ast.arg)):
                    stores[getattr(a, "id", getattr(a, "arg", None))] = 2
        elif (isinstance(n, _ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], _ast.Name) and
              isinstance(n.value, _ast.Call) and isinstance(n.value.func, _ast.Attribute) and
              n.value.func.attr in _FRESH and isinstance(n.value.func.value, _ast.Name) and
              n.value.func.value.id in ("np", "numpy") and
              src_lines[n.lineno - 1].lstrip().startswith(n.targets[0].id)):
            fresh[n.targets[0].id] = n
    return {k: v for k, v in fresh.items() if stores.get(k) == 1}


def _kept_names(func, launched, params, src_lines=None):
    """The parameters whose arrays may stay on the device between the loops of
    one call, and the other names the code outside the launched loops reads.

    A parameter qualifies when the function never rebinds it (or declares it
    global) and the code outside the loops in `launched` (their first lines)
    only reads its shape, ndim, dtype or size, takes its len() or returns it
    (alone or in a tuple), outside any nested def or lambda. And none does
    when that code calls anything but a few builtins (len, range, int, float,
    bool, abs, min, max, round) and np./numpy./math. functions: a helper, a
    method or eval could reach the array without naming it.

    With the source lines, also the locals made by `name = np.zeros(...)` (_fresh_locals) that
    qualify the same way, and {line: names} of the return statements (each the first statement
    of its line) that read kept names otherwise: the host plan writes their device copies back
    before such a return (`return dp[n, W]`; None for a return that calls something else: every
    kept array). Returns (kept, reads, fresh locals kept, those flushes)."""
    fresh = _fresh_locals(func, src_lines) if src_lines is not None else {}
    kept = set(params)
    for n in _ast.walk(func):
        if isinstance(n, _ast.Name) and not isinstance(n.ctx, _ast.Load):
            kept.discard(n.id)
        elif isinstance(n, (_ast.Global, _ast.Nonlocal)):
            kept.difference_update(n.names)
        elif isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.Lambda)) and n is not func:
            kept.difference_update(a.arg for a in _ast.walk(n.args) if isinstance(a, _ast.arg))
    kept.update(fresh)
    reads = set()
    calls_out = []
    flushes = {}
    returning = [None]   # (the return statement being visited, where a flush may go before it)

    def visit(node, parent, grand, nested):
        if isinstance(node, (_ast.For, _ast.While)) and node.lineno in launched:
            for stmt in node.orelse:  # (the host runs a launched loop's else block)
                visit(stmt, node, parent, True)   # (its lines are the plan's: nothing goes before them)
            return
        nested = nested or isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.Lambda,
                                             _ast.ListComp, _ast.SetComp, _ast.DictComp, _ast.GeneratorExp))
        if isinstance(node, _ast.stmt):
            own_line = src_lines is not None and src_lines[node.lineno - 1].lstrip().startswith("return")
            returning[0] = node if isinstance(node, _ast.Return) and not nested and own_line else None
        if isinstance(node, _ast.Call):
            f = node.func
            if ((isinstance(f, _ast.Name) and f.id in _SAFE_CALLS) or
                    (isinstance(f, _ast.Attribute) and isinstance(f.value, _ast.Name) and f.value.id in _MODULES)):
                pass
            elif returning[0] is not None:   # (a call in a return: every kept array written back first)
                flushes.setdefault(returning[0].lineno, set()).add(None)
            else:
                calls_out.append(node)
        if isinstance(node, _ast.Name) and isinstance(node.ctx, _ast.Load):
            reads.add(node.id)
            fine = not nested and (
                (isinstance(parent, _ast.Attribute) and parent.attr in _SHAPE_ATTRS and
                 isinstance(parent.ctx, _ast.Load)) or
                (isinstance(parent, _ast.Call) and isinstance(parent.func, _ast.Name) and
                 parent.func.id == "len" and node in parent.args) or
                isinstance(parent, _ast.Return) or
                (isinstance(parent, _ast.Tuple) and isinstance(grand, _ast.Return)))
            if not fine and returning[0] is not None and node.id in kept:
                flushes.setdefault(returning[0].lineno, set()).add(node.id)
            elif not fine:
                kept.discard(node.id)
        for child in _ast.iter_child_nodes(node):
            visit(child, node, parent, nested)

    for stmt in func.body:
        visit(stmt, func, None, False)
    if calls_out:
        kept.clear()
    flushes = {ln: sorted(names & kept) if None not in names else None for ln, names in flushes.items()
               if None in names or names & kept}
    return kept - set(fresh), reads - set(params) - set(fresh), {k: fresh[k] for k in fresh if k in kept}, flushes


def _closure_values(fn):
    """fn's closure variables by name (those bound yet: an empty cell is left out,
    and reading it raises NameError, as in Python)."""
    values = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return values


def _closure_plan(fn, code, filename, extra, lines=None):
    """The host plan's function from its source `code` (one def of fn's name): a function over
    fn's own globals (read at each call, as fn reads them) and fn's own closure cells (so a
    free variable is the enclosing function's, as it is now, never a global of its name), its
    other free names (`extra`: __ng_launch, __ng_returned) in cells of their own. The def is
    compiled inside a function that binds every such name, which makes them free in it. `lines`
    maps a line of `code` to the file's line it stands for and the shift of its columns."""
    tree = _ast.parse(code, filename)
    for node in _ast.walk(tree) if lines else ():
        if getattr(node, "lineno", None) in lines:
            node.lineno, shift = lines[node.lineno]
            node.col_offset = max(0, node.col_offset + shift)
        if getattr(node, "end_lineno", None) in lines:
            node.end_lineno, shift = lines[node.end_lineno]
            node.end_col_offset = max(0, node.end_col_offset + shift)
    fdef = tree.body[0]
    # (named apart in the scope: a name the function reads for itself, a recursive call, stays
    # its global, as in fn, not a cell of the scope; the code gets fn's names back below)
    fdef.name = "__ng_plan"
    names = list(fn.__code__.co_freevars) + sorted(extra)
    scope = _ast.FunctionDef(name="__ng_scope", args=_ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                                    kwonlyargs=[], kw_defaults=[], kwarg=None,
                                                                    defaults=[]),
                             body=[_ast.Assign(targets=[_ast.Name(id=n, ctx=_ast.Store()) for n in names],
                                               value=_ast.Constant(value=None)),
                                   fdef, _ast.Return(value=_ast.Name(id=fdef.name, ctx=_ast.Load()))],
                             decorator_list=[], returns=None, type_comment=None)
    tree.body = [scope]
    _ast.fix_missing_locations(tree)
    outer = compile(tree, filename, "exec")
    scope_code = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in scope_code.co_consts if isinstance(c, types.CodeType) and c.co_name == fdef.name)
    inner = inner.replace(co_name=fn.__name__, co_qualname=fn.__qualname__)  # (errors name fn, as Python's)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[n] if n in cells else types.CellType(extra[n]) if n in extra else types.CellType()
                    for n in inner.co_freevars)
    plan = types.FunctionType(inner, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    plan.__kwdefaults__ = fn.__kwdefaults__
    return plan


class _CallState(threading.local):
    keep = None  # the current call's kept arrays (for jit_launch); a class default: no
    #              AttributeError to catch in every launch of a thread that set none
    raised = None  # (exception, file line, "op"/"call"/...): what the last kernel raised as Python
    #                would (jit_launch)


# -- tracebacks: an error a kernel raised, at the line that raised it -------------------------

# the nodes that may raise what the kernel raised, by what kind of expression raised it
# (jit_launch's state.raised), most likely first: the kernel tells the line, not the column, so
# the traceback's caret goes under the first such node of the line in Python's order of evaluation
_DIVISIONS = (_ast.Div, _ast.FloorDiv, _ast.Mod, _ast.Pow, _ast.LShift, _ast.RShift)
_SITES = {
    "op": ((_ast.BinOp, _ast.AugAssign), (_ast.Call,), (_ast.Subscript,)),
    "call": ((_ast.Call,), (_ast.BinOp, _ast.AugAssign), (_ast.Subscript,)),
    "subscript": ((_ast.Subscript,), (_ast.Call,)),
    "store": ((_ast.Subscript,), (_ast.Call,)),
}


def _in_order(node):
    """node's descendants (node too) in about the order Python evaluates them: operands before
    their operation, an assignment's value before its targets; not into nested functions."""
    if isinstance(node, (_ast.Assign, _ast.AugAssign, _ast.AnnAssign)):
        kids = ([node.value] if node.value is not None else []) + \
            (node.targets if isinstance(node, _ast.Assign) else [node.target])
    elif isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.Lambda, _ast.ClassDef)):
        kids = node.body if isinstance(node.body, list) else []
    else:
        kids = list(_ast.iter_child_nodes(node))
    for kid in kids:
        yield from _in_order(kid)
    yield node


def _raiser(region, line, exc_type, site, values):
    """The node on `line` of region (a loop, a helper's def) whose operation most likely raised
    exc_type, an expression of kind `site` (_SITES); `values`: the names' values, which tell a
    dict's subscript from an array's. Else the statement starting on the line; None when there
    is none."""
    nodes = [n for n in _in_order(region) if getattr(n, "lineno", None) == line and n is not region]

    def fits(n):
        if isinstance(n, (_ast.BinOp, _ast.AugAssign)):
            return not issubclass(exc_type, ZeroDivisionError) or isinstance(n.op, _DIVISIONS)
        if isinstance(n, _ast.Subscript) and site == "store":
            return isinstance(n.ctx, _ast.Store)
        if isinstance(n, _ast.Subscript) and isinstance(n.value, _ast.Name) and n.value.id in values:
            return isinstance(values[n.value.id], dict) == issubclass(exc_type, KeyError)
        return True

    for kind in _SITES.get(site, ()):
        for n in nodes:
            if isinstance(n, kind) and fits(n):
                return n
    stmts = [n for n in nodes if isinstance(n, _ast.stmt)]
    return stmts[-1] if stmts else (nodes[-1] if nodes else None)


def _helper_path(region, line, defs, seen=()):
    """[(call, def), ...]: the calls from region through the file's functions (defs by name) to
    the one whose source holds `line` (the kernel inlined them), or None."""
    if len(seen) > 8:
        return None
    for n in _in_order(region):
        if isinstance(n, _ast.Call) and isinstance(n.func, _ast.Name) and n.func.id in defs and \
                n.func.id not in seen:
            d = defs[n.func.id]
            if d.lineno <= line <= d.end_lineno:
                return [(n, d)]
            rest = _helper_path(d, line, defs, seen + (n.func.id,))
            if rest:
                return [(n, d)] + rest
    return None


class _At(Exception):
    """Raised by a stand-in frame (_stand_in) to take its traceback entry."""


def _stand_in(name, pos, filename, globals_, first_line):
    """A traceback entry of a frame of a function `name` of `filename`, stopped at `pos`
    (line, end line, column, end column): where an inlined helper was when its kernel raised."""
    line, end_line, col, end_col = pos
    at = dict(lineno=line, end_lineno=end_line, col_offset=col, end_col_offset=end_col)
    body = [_ast.Raise(exc=_ast.Name(id="__ng_at", ctx=_ast.Load(), **at), cause=None, **at)]
    args = _ast.arguments(posonlyargs=[], args=[_ast.arg(arg="__ng_at")], vararg=None, kwonlyargs=[],
                          kw_defaults=[], kwarg=None, defaults=[])
    fdef = _ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None,
                            type_comment=None, lineno=first_line, col_offset=0, end_lineno=end_line,
                            end_col_offset=end_col)
    module = _ast.fix_missing_locations(_ast.Module(body=[fdef], type_ignores=[]))
    code = next(c for c in compile(module, filename, "exec").co_consts if isinstance(c, types.CodeType))
    try:
        types.FunctionType(code, globals_, name)(_At())
    except _At as e:
        return e.__traceback__.tb_next
    return None


def _position(node, first, indent):
    """node's (line, end line, column, end column) in the file (its source began at line
    `first`, dedented by `indent` columns)."""
    return (node.lineno + first - 1, node.end_lineno + first - 1, node.col_offset + indent,
            node.end_col_offset + indent)


class _NoLoops(OSError):
    """A function with nothing numgpu.jit compiles (a lambda): it runs as it is."""


class JitFunction:
    """A function compiled by @numgpu.jit (compiled at its first call)."""

    def __init__(self, fn, boundscheck=None):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._boundscheck = boundscheck
        self._plan = None
        self._src, self._indent, self._filename = None, 0, None  # what _compile compiled
        self._unavailable = None  # why the source is not available (then fn runs as it is)
        self._loops = None
        self._launched = {}   # loop index -> "kernel" or the reason it ran as Python
        self._reached = set()  # loops left to Python (or launching inner loops) that ran
        self._kept = frozenset()    # parameters whose NumPy arrays may stay on the device (see _kept_names)
        self._reads = frozenset()   # other names the code outside the launched loops reads
        self._fresh = frozenset()   # locals made by np.zeros(...) that may stay on the device too
        self._call = _CallState()
        self._sig = None  # inspect.signature(fn), once a call needs it

    # -- compile ---------------------------------------------------------
    def _compile(self):
        fn = self._fn
        if fn.__name__ == "<lambda>":
            raise _NoLoops("a lambda has no loops to compile")
        filename = inspect.getsourcefile(fn) or "<jit>"
        src = None
        if fn.__qualname__ == fn.__name__ and filename != "<jit>":
            # the whole file, so helper functions defined beside fn can be inlined
            text = "".join(linecache.getlines(filename))
            src, first = (text, 1) if text else (None, 1)
        program = None
        if src is not None:
            try:
                program, loops = _core.jit_program(src, filename, fn.__name__)
            except (SyntaxError, ValueError):  # the rest of the file is beyond the front end
                program = None
        indent = 0
        if program is None:
            lines, first = inspect.getsourcelines(fn)
            src = textwrap.dedent("".join(lines))
            indent = len(lines[0]) - len(src.split("\n", 1)[0] + "\n")  # (the columns dedent took)
            # (from the file's first line: the lines the compiler names, in its reasons and
            # errors, are the file's)
            src, first = "\n" * (first - 1) + src, 1
            program, loops = _core.jit_program(src, filename, fn.__name__)
        self._program, self._loops, self._first = program, loops, first
        self._src, self._indent, self._filename = src, indent, filename
        self._plan = self._host_plan(src, loops, filename, first)

    def _launch_points(self, loops):
        """Loops that become one launch: compiled, not inside another launch."""
        points = []
        for i, loop in enumerate(loops):
            if loop["kind"] == "python" or loop["collapsed"] or loop["host"] or loop["made"]:
                continue
            parent, inside = loop["parent"], False
            while parent >= 0:
                # (a loop whose body desugar.c rewrote runs its inner loops itself, or as Python)
                if parent in points or loops[parent]["lets"]:
                    inside = True
                    break
                parent = loops[parent]["parent"]
            if not inside:
                points.append(i)
        return points

    def _host_plan(self, src, loops, filename, first):
        src_lines = src.splitlines()
        tree = _ast.parse(src)
        func = [n for n in tree.body if isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef))
                and n.name == self._fn.__name__][-1]
        nodes = {n.lineno: n for n in _ast.walk(func) if isinstance(n, (_ast.For, _ast.While))}
        out = {}
        for i in self._launch_points(loops):
            loop = loops[i]
            node = nodes.get(loop["line"])
            if node is None:
                continue
            assigned = sorted(_stored_names(node))
            head = src_lines[loop["line"] - 1]
            ind = head[:len(head) - len(head.lstrip())]  # (the loop line's own: tabs stay tabs)
            step = "\t" if "\t" in ind else "    "  # (the body's indent inside the plan's `if`)
            body = [step + l if l.strip() else l for l in src_lines[loop["line"] - 1:node.end_lineno]]
            # names the kernel hands back (live-out scalars); the others keep their binding, or stay
            # unbound: binding them to None would make the next loop reading them stay Python
            back = "; ".join("(%s := __ng_r[%r]) if %r in __ng_r else None" % (a, a, a) for a in assigned) or "pass"
            returns = _returns(node)
            orelse = _else_lines(node, src_lines) if node.orelse else None
            flag = ["__ng_brk%d" % node.lineno] if orelse and _leaves(node) else []
            names = tuple(assigned + (_return_names(returns) if returns else []) + flag)
            after = ["%selse: %s" % (ind, back)]
            if returns or orelse:
                after = ["%selse:" % ind, "%s    %s" % (ind, back)]
            if returns:  # the loop returned: its return statement's value, as Python's
                after.append("%s    if __ng_r.get('__ng_ret'): return __ng_returned(__ng_r, %r)" % (ind, returns))
            if orelse:  # the loop's else block, run here where no break left it (desugar.c else_loops)
                after.append("%s    if not __ng_r.get(%r):" % (ind, flag[0]) if flag else "%s    if True:" % ind)
                after.extend(ind + " " * 8 + l if l.strip() else l for l in orelse)
            text = (["%sif (__ng_r := __ng_launch(%d, locals(), %r)) is None:" % (ind, i, names)] + body + after)
            # the source line and column shift of each plan line (the body's indent is `step` more)
            where = ([(loop["line"], 0)] + [(loop["line"] + k, -len(step)) for k in range(len(body))] +
                     [(loop["line"], 0)] * len(after))
            out[loop["line"]] = (node.end_lineno, text, where)  # (the loop's report ends with its body)
        params = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
        kept, reads, fresh, flushes = _kept_names(func, set(out), params, src_lines)
        self._kept, self._reads = frozenset(kept), frozenset(reads)
        self._fresh = frozenset(fresh)
        # lines the plan adds: after a kept local's assignment `__ng_keep(name)`, before a return
        # reading kept arrays `__ng_flush(names)` (their device copies written back first)
        added_before, added_after = {}, {}
        for name, a in fresh.items():
            head = src_lines[a.lineno - 1]
            added_after.setdefault(a.end_lineno, []).append(
                "%s__ng_keep(%s)" % (head[:len(head) - len(head.lstrip())], name))
        for ln_, names in flushes.items():   # (names None: all of them)
            head = src_lines[ln_ - 1]
            added_before.setdefault(ln_, []).append(
                "%s__ng_flush(%s)" % (head[:len(head) - len(head.lstrip())], ", ".join(names or ())))
        # the loops left to Python outside launched ones (and those launching inner loops) note
        # that they were reached, for loop_report's `ran`: a line before each, `__ng_reached(i)`
        inside = [(start, end) for start, (end, _, _) in out.items()]
        marks = {loop["line"]: i for i, loop in enumerate(loops)
                 if not loop["made"] and not loop["collapsed"] and loop["line"] in nodes and
                 loop["line"] not in out and not any(a <= loop["line"] <= b for a, b in inside)}
        plan, where, ln = [], [], func.lineno  # from the `def` line: decorators are not re-applied
        while ln <= func.end_lineno:
            if ln in out:
                end, text, at = out[ln]
                plan.extend(text)
                where.extend(at)
                ln = end + 1
            else:
                if ln in marks:  # (the loop line's own indentation: tabs stay tabs)
                    head = src_lines[ln - 1]
                    plan.append("%s__ng_reached(%d)" % (head[:len(head) - len(head.lstrip())], marks[ln]))
                    where.append((ln, 0))
                for extra in added_before.get(ln, ()):
                    plan.append(extra)
                    where.append((ln, 0))
                plan.append(src_lines[ln - 1])
                where.append((ln, 0))
                for extra in added_after.get(ln, ()):
                    plan.append(extra)
                    where.append((ln, 0))
                ln += 1
        code = "\n" * (first - 1 + func.lineno - 1) + "\n".join(plan) + "\n"
        # (the plan's lines put back where the function's own are: a loop run as Python raises at its line)
        lines = {first - 1 + func.lineno + j: (first - 1 + src_ln, shift + self._indent)
                 for j, (src_ln, shift) in enumerate(where)}
        # (C all the way: the launch records how the loop ran in self._launched, "kernel (raised)"
        # when it raised what Python would raise in the loop, after the kernel ran)
        code_obj = self._fn.__code__
        # the function's locals and its closure's names are never its globals, bound or not
        local_names = frozenset(code_obj.co_varnames + code_obj.co_cellvars + code_obj.co_freevars)
        launch = functools.partial(_core.jit_launch, self._program, self._fn.__globals__,
                                   local_names, self._boundscheck, self._first - 1, self._call, self._launched)
        return _closure_plan(self._fn, code, filename, {"__ng_launch": launch, "__ng_returned": _returned,
                                                        "__ng_reached": self._reached.add,
                                                        "__ng_keep": self._keep_local, "__ng_flush": self._flush},
                             lines)

    def _keep_local(self, v):
        """A kept local's new array (`dp = np.zeros(...)`) joins the call's kept arrays: it stays
        on the device between the loops, written back at a return reading it or the call's end."""
        keep = self._call.keep
        if keep is not None and type(v) is _np.ndarray and v.flags.writeable and id(v) not in keep:
            keep[id(v)] = [v, None, False]

    def _flush(self, *vs):
        """Before a return reading kept arrays: their device copies written back (the next loop
        would upload them again)."""
        keep = self._call.keep
        if keep:
            part = {id(v): keep[id(v)] for v in vs if id(v) in keep and keep[id(v)][0] is v} if vs else keep
            if part:
                _core.jit_flush(part)

    # -- call and report --------------------------------------------------
    def __get__(self, obj, objtype=None):
        """A @numgpu.jit method: bound to the instance, as a plain function is."""
        return self if obj is None else types.MethodType(self, obj)

    def __call__(self, *args, **kwargs):
        if self._plan is None:
            self._compile_or_warn(3)
        try:
            keep = self._keep(args, kwargs) if self._kept else None
            if keep is None and self._fresh and _core.jit_keeps_arrays():
                keep = {}   # (kept locals join it as the plan makes them)
            if keep is None:
                return self._plan(*args, **kwargs)
            outer = self._call.keep
            self._call.keep = keep
            try:
                return self._plan(*args, **kwargs)
            finally:
                self._call.keep = outer
                _core.jit_flush(keep)
        except BaseException as exc:
            if self._call.raised is not None:
                try:
                    self._traceback_at(exc)
                except Exception:  # (never in the way of the error itself: its traceback stays)
                    pass
            raise
        finally:
            if self._call.raised is not None:  # (a kernel's error the function caught itself: it
                self._call.raised = None       # holds the exception, its frames, their arrays)

    def _compile_or_warn(self, stacklevel):
        try:
            self._compile()
        except _NoLoops as exc:  # (a lambda: nothing to compile, nothing to warn about)
            self._unavailable = str(exc)
            self._plan, self._loops, self._first = self._fn, [], 1
        except OSError as exc:  # no source: defined in `python -c`, a REPL or exec
            self._unavailable = str(exc)
            warnings.warn("numgpu.jit: the source of %s is not available (%s); it runs as plain "
                          "Python. Define it in a file to compile its loops." % (self.__name__, exc),
                          RuntimeWarning, stacklevel=stacklevel)
            self._plan, self._loops, self._first = self._fn, [], 1

    def _traceback_at(self, exc):
        """Where a kernel raised what Python would raise in its loop (jit_launch's
        state.raised), puts exc's traceback at the line that raised, as Python's own would
        be: the host plan's frame stopped at that line of the loop (its copy of the loop, run
        where the kernel cannot be, has an instruction there), or at the call of the helper
        that raised, followed by a frame of each helper the kernel inlined, down to the line."""
        raised, self._call.raised = self._call.raised, None
        tb = exc.__traceback__
        if raised[0] is not exc or tb is None:
            return
        before, last = None, tb
        while last.tb_next is not None:
            before, last = last, last.tb_next
        code = self._plan.__code__
        if last.tb_frame.f_code is not code:  # (raised elsewhere, and caught; not the launch's)
            return
        line, first, indent = raised[1], self._first, self._indent
        tree = _ast.parse(self._src)
        loop = next((n for n in _ast.walk(tree) if isinstance(n, (_ast.For, _ast.While)) and
                     n.lineno + first - 1 == last.tb_lineno), None)
        if loop is None:
            return
        src_line = line - first + 1
        if loop.lineno <= src_line <= loop.end_lineno:
            path, node = [], _raiser(loop, src_line, type(exc), raised[2], last.tb_frame.f_locals)
        else:  # in a helper the kernel inlined: its call in the loop, then the helper's frames
            defs = {d.name: d for d in _ast.walk(tree) if isinstance(d, _ast.FunctionDef) and
                    not d.lineno <= loop.lineno <= d.end_lineno}  # (the file's, and local ones)
            path = _helper_path(loop, src_line, defs)
            if not path:
                return
            node = _raiser(path[-1][1], src_line, type(exc), raised[2], {})
        if node is None:
            return
        want = _position(path[0][0] if path else node, first, indent)
        offsets = [k for k, pos in enumerate(code.co_positions()) if pos == want] or \
            [k for k, pos in enumerate(code.co_positions()) if pos[0] == want[0]]
        if not offsets:
            return
        entries = [(last.tb_frame, 2 * offsets[0], want[0])]
        for k, (call, d) in enumerate(path):
            at = _stand_in(d.name, _position(path[k + 1][0] if k + 1 < len(path) else node, first, indent),
                           self._filename, self._fn.__globals__, d.lineno)
            if at is None:
                return
            entries.append((at.tb_frame, at.tb_lasti, at.tb_lineno))
        new = None
        for frame, lasti, lineno in reversed(entries):
            new = types.TracebackType(new, frame, lasti, lineno)
        if before is None:
            exc.__traceback__ = new
        else:
            before.tb_next = new

    def _keep(self, args, kwargs):
        """{id(a): [a, None, False]} for the NumPy arguments of this call that may stay
        on the device between its loops (see _kept_names), or None. Only when every
        argument is a scalar or an array (a container could reach an array too), and
        never for a read-only array, nor one that may share memory with another
        argument (defaults included) or with an array the function's own code reads
        by another name (a global, a closure). (The loops themselves may read such
        a name: the launch then writes the kept copy back first.)"""
        if not _core.jit_keeps_arrays():
            return None
        if self._sig is None:
            self._sig = inspect.signature(self._fn)
        try:
            bound = self._sig.bind(*args, **kwargs)
        except (TypeError, ValueError):
            return None  # the call itself raises the right error
        bound.apply_defaults()  # (a default may be an array passed in as well)
        values = bound.arguments
        for v in values.values():
            if not isinstance(v, _SIMPLE + (_np.ndarray, _core.ndarray)):
                return None
        cands = [values[p] for p in self._kept
                 if type(values.get(p)) is _np.ndarray and values[p].flags.writeable]  # (read-only: raise at once)
        if not cands:
            return None
        others = [v for v in values.values() if isinstance(v, _np.ndarray)]
        closure = _closure_values(self._fn)
        for name in self._reads:
            v = closure.get(name, self._fn.__globals__.get(name))
            if isinstance(v, _np.ndarray):
                others.append(v)
            elif not _reaches_no_array(v):   # (state.u, cfg.data: an array by another path)
                return None
        keep = {}
        for a in cands:
            if id(a) in keep:
                continue
            if sum(1 for o in others if _np.may_share_memory(a, o)) == 1:  # itself, once
                keep[id(a)] = [a, None, False]
        return keep or None

    def loop_report(self):
        """One dict per loop of the source: line (in the file), kind (parallel, sequential,
        python: what the analysis decided, or python where a launch left it to Python), reason,
        reductions, atomic, ..., and `ran`, how it ran last: "kernel" or "kernel (...)", "kernel
        (part of line N's kernel)" for a loop inside another's kernel, "python: <why>", or "not
        reached yet". Empty where the source is not available (the function runs as Python)."""
        if self._plan is None and self._unavailable is None:
            try:
                self._compile()
            except OSError as exc:  # (the first call warns, and runs fn as it is)
                self._unavailable = str(exc)
        report = []
        for i, loop in enumerate(self._loops or ()):
            if loop["made"]:    # (a list comprehension's or an np.zeros's loop: no loop of the source)
                continue
            kind, reason = loop["kind"], loop["reason"]
            ran = self._launched.get(i)
            how = self._ran(i)
            if ran is not None and not ran.startswith("kernel"):
                kind, reason = "python", ran
            elif how.startswith("python: inside the loop at line"):  # (its kernel's loop ran as Python)
                kind, reason = "python", how[len("python: "):]
            report.append({
                "line": loop["line"] + self._first - 1,
                "kind": kind,
                "reductions": [tuple(r) for r in loop["reductions"]],
                "atomic": loop["atomic"],
                "asserted": loop["asserted"],
                "collapsed": loop["collapsed"],
                "search": loop["search"],
                "scan": loop["scan"],
                "compact": loop["compact"],
                "peel": loop["peel"],
                "rows": loop["rows"],
                "reason": reason,
                "ran": how,
            })
        return report

    def _ran(self, i):
        """How loop i ran last (loop_report's `ran`)."""
        loops = self._loops
        ran = self._launched.get(i)
        if ran is not None:
            return ran if ran.startswith("kernel") else "python: " + ran
        up = loops[i]["parent"]
        while up >= 0:  # inside a launched loop: as it ran
            how = self._launched.get(up)
            if how == "kernel (no iteration)":
                return "not reached yet"
            if how is not None:
                line = loops[up]["line"] + self._first - 1
                return ("kernel (part of line %d's kernel)" % line if how.startswith("kernel") else
                        "python: inside the loop at line %d, which ran as Python" % line)
            up = loops[up]["parent"]
        if i not in self._reached:
            return "not reached yet"
        loop = loops[i]
        if loop["kind"] == "python":
            return "python: " + (loop["reason"] or "left to Python")
        if loop["host"]:
            return "python: in order, launching the loops inside it"
        parent = loop["parent"]
        if parent >= 0:
            return "python: inside the loop at line %d, which runs as Python" % (loops[parent]["line"] + self._first - 1)
        return "python"

    def explain(self):
        """Prints, per loop, what the analysis decided and why, its source line, and how it ran
        last (loop_report's `ran`); where the function's source is not available (made by exec,
        at the prompt, in `python -c`), why, and that it runs as plain Python."""
        report = self.loop_report()
        if self._unavailable is not None:
            print("%s: no loop compiled. numgpu.jit reads a function's source from its file, and %s "
                  "has none (%s: made by exec(), at the interactive prompt or in python -c?), so it "
                  "runs as plain Python. Define it in a file (a module, or a script run by python) "
                  "to compile its loops." % (self.__qualname__, self.__name__, self._unavailable))
            return
        try:
            lines, first = inspect.getsourcelines(self._fn)
        except (OSError, TypeError):  # (compiled, but its source is gone since: the report alone)
            lines, first = [], 0
        if not report:
            print("%s: no loop" % self.__qualname__)
        elif all(r["ran"] == "not reached yet" for r in report):
            print("%s: not called yet (how each loop ran shows after a call)" % self.__qualname__)
        for r in report:
            text = lines[r["line"] - first].strip() if 0 <= r["line"] - first < len(lines) else ""
            red = " reduce(%s)" % ", ".join("%s:%s" % (op, name) for name, op in r["reductions"]) \
                if r["reductions"] else ""
            extra = (" atomic" if r["atomic"] else "") + (" (asserted by prange)" if r["asserted"] else "") \
                + (" around %s" % r["peel"] if r["peel"] and r["kind"] == "parallel" else "") \
                + ((" (a scan: a compaction)" if r["compact"] else " (a scan)") if r["scan"] else "")
            why = (": " + r["reason"]) if r["reason"] and r["kind"] != "parallel" else ""
            print("line %d: %s%s%s%s" % (r["line"], r["kind"], red, extra, why))
            if text:
                print("    " + text)
            print("    ran: " + r["ran"])


def jit(fn=None, *, boundscheck=None):
    """Compile a function's loops to device kernels: @numgpu.jit, @numgpu.jit(boundscheck=True) or
    @numgpu.jit(boundscheck=False).

    Every index is checked: Python's IndexError where one is out of range. By default a read's or
    store's index is checked once before the loop where its form allows (affine in the ranges'
    counters), else where it runs; boundscheck=True checks every one where it runs;
    boundscheck=False leaves reads unchecked (stores stay checked): faster, but a read out of
    range gives garbage or crashes."""
    if fn is None:
        return lambda f: JitFunction(f, boundscheck=boundscheck)
    return JitFunction(fn, boundscheck=boundscheck)


def prange(*args):
    """range() whose iterations the user promises are independent (run in parallel)."""
    return range(*args)
