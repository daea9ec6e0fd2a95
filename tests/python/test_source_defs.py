"""No module of the project defines a name twice at one level: the second def silently replaces
the first (helpers.on_device, the upload helper, was once shadowed by a fixture body of the same
name, and every test uploading through it got an object array). A redefinition meant as one says
so with `# noqa: F811`; a property's setter is not one."""
import ast
import collections
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def redefinitions(path, root=ROOT):
    lines = path.read_text().splitlines()
    tree = ast.parse("\n".join(lines), str(path))
    found = []
    for owner in [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef))]:
        defs = [n for n in owner.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and "noqa: F811" not in lines[n.lineno - 1]
                and not any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter")
                            for d in n.decorator_list)]
        counts = collections.Counter(n.name for n in defs)
        found += ["%s: %s" % (path.relative_to(root), name) for name, c in counts.items() if c > 1]
    return found


def test_no_name_defined_twice():
    files = [p for d in ("python/numgpu", "tests/python", "bench", "tools") for p in (ROOT / d).rglob("*.py")]
    assert len(files) > 100
    found = [f for p in files for f in redefinitions(p)]
    assert found == [], "defined twice (the first is dead): %s" % found


def test_the_check_finds_a_redefinition(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    pass\n\n\ndef f(request):\n    pass\n\n\n"
                   "def g():\n    pass\n\n\ndef g():  # noqa: F811\n    pass\n")
    assert redefinitions(src, tmp_path) == ["m.py: f"]
