"""The package's structure shows itself: no import circle anywhere in logic_agents/, counting
the imports made inside functions (issue 27), and the version is written in one place."""

from __future__ import annotations

import ast
import re

from .conftest import ROOT

PACKAGE = ROOT / "logic_agents"


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at module level or inside functions. A
    compiled module counts by its stub (games/daggers/_enumerate.pyi): it imports nothing of
    the package, and `from package import _enumerate` imports it, not the package."""
    modules = {}
    stubs = [p for p in PACKAGE.rglob("*.pyi") if not p.with_suffix(".py").exists()]
    for path in [*PACKAGE.rglob("*.py"), *stubs]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    graph[name].add(target if target in modules else base)
        graph[name] &= set(modules)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_in_the_package():
    graph = import_graph()
    assert len(graph) > 50 and "logic_agents.study.batch" in graph["logic_agents.api"]
    assert circles(graph) == []


def test_the_check_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^version\s*=\s*"', pyproject, re.M) is None  # no literal version
    assert 'attr = "logic_agents._version.__version__"' in pyproject
    written = [p for p in PACKAGE.rglob("*.py") if re.search(r"^__version__\s*=", p.read_text(), re.M)]
    assert [p.name for p in written] == ["_version.py"]


# issue 66: 800, not 400; a module is cut where its concern ends, never to pass a count
# (three commits of one round split modules for the count alone)
MAX_MODULE_LINES = 800


def test_no_module_over_800_lines():
    """Every module does one job: a module that grows past 800 lines is split by job."""
    roots = [PACKAGE, PACKAGE.parent / "examples"]
    long = {str(path.relative_to(PACKAGE.parent)): n for root in roots
            for path in root.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def test_names_that_moved_say_where_they_went():
    """Issue 40: a plug-in written against an old home gets an error that names the new one."""
    import pytest

    for old, name, new in (("logic_agents.world.puzzle", "SolverChoice",
                            "logic_agents.solving.puzzle"),
                           ("logic_agents.world.options", "solver_option",
                            "logic_agents.solving.options"),
                           ("logic_agents.generated", "streamed", "logic_agents.world.generated"),
                           ("logic_agents.arguments", "reference", "logic_agents.api.arguments"),
                           ("logic_agents.world", "SolveResult", "logic_agents.solving"),
                           ("logic_agents.games.daggers.probability", "Evidence",
                            "logic_agents.games.daggers.odds"),
                           ("logic_agents.world.registry", "Option", "logic_agents.world")):
        with pytest.raises(ImportError, match=new.replace(".", r"\.")):
            exec(f"from {old} import {name}", {})
    from logic_agents.solving import SolverChoice, SolveResult, solver_option

    assert SolveResult and SolverChoice and solver_option().name == "solver"


def test_games_is_the_package_and_the_registry_call_has_its_own_name():
    """Issue 40: `logic_agents.games` is only the package of the built-in games; the old
    `logic_agents.games()` call names `registered_games()`, which lists every game."""
    import types

    import pytest

    import logic_agents as la
    import logic_agents.games.sudoku
    from logic_agents.errors import UsageError

    assert isinstance(la.games, types.ModuleType) and la.games.sudoku is logic_agents.games.sudoku
    assert set(la.registered_games()) >= {"daggers", "sudoku", "undead", "mazes", "ooze"}
    with pytest.raises(UsageError, match=r"registered_games\(\)"):
        la.games()


# The package's own modules that may be imported inside a function, and why: each loads
# sympy (logic.formula, logic.compile), an optional extra
# (display.plot: matplotlib; display.tui and tui_app: textual; study.ray_backend: ray).
LATE_IMPORTS = {
    # the console script reads the command line inside its Ctrl-C guard (issue 54)
    ("console", "logic_agents.cli"),
    ("cli/compare", "logic_agents.display.plot"),
    ("cli/play", "logic_agents.display.tui"),
    ("display/tui", "logic_agents.display.tui_app"),
    ("games/daggers/encode", "logic_agents.logic.formula"),
    ("logic/kb", "logic_agents.logic"),
    ("logic/kb", "logic_agents.logic.compile"),
    ("study/batch", "logic_agents.study.ray_backend"),
}


def test_own_imports_inside_functions_are_only_the_late_ones():
    """Issue 40: the package's own modules are imported at the top of a module, except the
    few that would load a heavy or optional library at start-up (ruff's PLC0415 covers the
    rest, with its per-file allowance in pyproject.toml)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith(
                            "logic_agents"):
                        found.add((path.relative_to(PACKAGE).with_suffix("").as_posix(),
                                   inner.module))
                    elif isinstance(inner, ast.Import) and any(
                            a.name.startswith("logic_agents") for a in inner.names):
                        found.add((path.relative_to(PACKAGE).with_suffix("").as_posix(),
                                   inner.names[0].name))
    assert found == LATE_IMPORTS
