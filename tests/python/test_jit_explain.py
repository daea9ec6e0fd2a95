"""f.loop_report()'s `ran` and f.explain(): how each loop ran last. A launched loop: "kernel"
(or "kernel (...)"), "python: <why>" where the launch left it to Python; a loop inside a
launched one: "kernel (part of line N's kernel)", or "python: inside the loop at line N, ..."
where that one ran as Python; a loop the analysis left to Python, or one that launches the
loops inside it, once reached: "python: ..."; else "not reached yet". explain() prints the
verdict, the source line and `ran`; for a function without a source file it says why nothing
is compiled. Each function's results are compared with plain Python's."""
import warnings

import numpy as np
import pytest

import numgpu


def line_of(fn, text):
    """The file line of fn's source line holding `text`."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, l in enumerate(lines) if text in l)


def run_both(fn, *args):
    """fn and @numgpu.jit(fn) on copies of args, their results compared; the JitFunction."""
    a = [x.copy() if isinstance(x, np.ndarray) else list(x) if isinstance(x, list) else x for x in args]
    b = [x.copy() if isinstance(x, np.ndarray) else list(x) if isinstance(x, list) else x for x in args]
    want = fn(*a)
    f = numgpu.jit(fn)
    got = f(*b)
    assert got == want if not isinstance(want, np.ndarray) else np.array_equal(got, want)
    for w, g in zip(a, b):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
    return f


def row_sums(X, out):
    for i in range(X.shape[0]):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j]
        out[i] = s


def scaled(X, k, out):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[i, j] = X[i, j] * k[0]


def steps(u, n):
    for t in range(n):
        for i in range(1, u.shape[0]):
            u[i] = u[i] + 0.5 * u[i - 1]
        for i in range(u.shape[0]):
            u[i] *= 0.5


def maybe_printed(x, out, loud):
    for i in range(x.shape[0]):
        out[i] = x[i] * 2
    if loud:
        for i in range(x.shape[0]):
            print(x[i], end=" ")


def by_report(f):
    return {r["line"]: r for r in f.loop_report()}


def test_inner_loops_ran_in_their_parents_kernel():
    X = np.arange(12.0).reshape(3, 4)
    f = numgpu.jit(row_sums)
    outer, inner = line_of(row_sums, "for i"), line_of(row_sums, "for j")
    assert [r["ran"] for r in f.loop_report()] == ["not reached yet"] * 2
    f = run_both(row_sums, X, np.zeros(3))
    rep = by_report(f)
    assert rep[outer]["ran"] == "kernel", rep
    assert rep[inner]["ran"] == "kernel (part of line %d's kernel)" % outer, rep


def last_of_rows(X):
    v = -1.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            v = X[i, j] + v
    return v


def test_inner_loops_of_a_kernel_of_no_iteration_were_not_reached():
    f = run_both(last_of_rows, np.zeros((0, 3)))
    assert [r["ran"] for r in f.loop_report()] == ["kernel (no iteration)", "not reached yet"], f.loop_report()
    f(np.ones((2, 3)))
    assert [r["ran"] for r in f.loop_report()][1].startswith("kernel (part of line"), f.loop_report()


def test_inner_loops_of_a_loop_run_as_python():
    """The launch leaves the nest to Python (k is a list): its inner loop ran as Python too."""
    X = np.arange(6.0).reshape(2, 3)
    f = run_both(scaled, X, [2.0], np.zeros((2, 3)))
    outer, inner = line_of(scaled, "for i"), line_of(scaled, "for j")
    rep = by_report(f)
    assert rep[outer]["kind"] == "python" and rep[outer]["ran"].startswith("python: 'k' is a list"), rep
    assert rep[inner]["ran"] == "python: inside the loop at line %d, which ran as Python" % outer, rep


def test_a_host_loop_and_the_kernels_it_launches():
    f = run_both(steps, np.linspace(0.0, 1.0, 20), 3)
    rep = list(by_report(f).values())
    assert rep[0]["ran"] == "python: in order, launching the loops inside it", rep
    assert rep[1]["ran"] == "kernel (one thread)" and rep[2]["ran"] == "kernel", rep


def test_a_python_loop_is_reached_or_not(capsys):
    x = np.arange(3.0)
    f = run_both(maybe_printed, x, np.zeros(3), False)
    printed = line_of(maybe_printed, "print(") - 1  # (the loop's line)
    rep = by_report(f)
    assert rep[printed]["kind"] == "python" and rep[printed]["ran"] == "not reached yet", rep
    f(x, np.zeros(3), True)
    assert by_report(f)[printed]["ran"] == "python: " + by_report(f)[printed]["reason"], f.loop_report()
    assert "print" in by_report(f)[printed]["reason"]
    capsys.readouterr()


def test_explain_shows_how_each_loop_ran(capsys):
    f = numgpu.jit(row_sums)
    f.explain()
    before = capsys.readouterr().out
    assert "not called yet" in before and "ran: not reached yet" in before
    f(np.ones((2, 3)), np.zeros(2))
    f.explain()
    out = capsys.readouterr().out
    outer = line_of(row_sums, "for i")
    assert "line %d: parallel\n    for i in range(X.shape[0]):\n    ran: kernel\n" % outer in out, out
    assert "ran: kernel (part of line %d's kernel)" % outer in out, out
    g = numgpu.jit(scaled)
    g(np.ones((2, 2)), [1.0], np.zeros((2, 2)))
    g.explain()
    out = capsys.readouterr().out
    assert "ran: python: 'k' is a list" in out, out


def test_explain_of_a_function_made_by_exec(capsys):
    ns = {}
    exec("def made(x):\n    for i in range(x.shape[0]):\n        x[i] += 1\n    return x[0]\n", ns)
    f = numgpu.jit(ns["made"])
    f.explain()
    out = capsys.readouterr().out
    assert "made: no loop compiled" in out and "exec()" in out and "runs as plain Python" in out, out
    assert f.loop_report() == []
    with pytest.warns(RuntimeWarning, match="source of made is not available"):
        assert f(np.zeros(2)) == 1.0
    f.explain()
    assert "no loop compiled" in capsys.readouterr().out
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(np.zeros(2)) == 1.0  # (warned once)


def test_a_file_indented_with_tabs(tmp_path):
    """The host plan's lines take the file's indentation (tabs here: spaces would be a TabError):
    the line noting that a loop left to Python was reached, a launched loop's `if` and body, its
    else block."""
    from helpers import module_function
    fn = module_function(tmp_path, "tabbed", "def tabbed(x):\n\ts = []\n\tfor i in range(x.shape[0]):\n"
                         "\t\tif x[i] > 0:\n\t\t\ts.append(i)\n\tfor i in range(x.shape[0]):\n"
                         "\t\tx[i] *= 2\n\t\tif x[i] > 3:\n\t\t\tbreak\n\telse:\n\t\ts.append(-1)\n"
                         "\treturn s, i\n", "tabbed")
    f = numgpu.jit(fn)
    for v in ([1.0, -1.0, 2.0], [1.0, -1.0, 0.5]):
        x, y = np.array(v), np.array(v)
        assert f(x) == fn(y)
        np.testing.assert_array_equal(x, y)
    assert f.loop_report()[0]["ran"].startswith("python: line 5 calls s.append"), f.loop_report()
    assert f.loop_report()[1]["ran"].startswith("kernel"), f.loop_report()
