"""The command line is game-agnostic: no file under logic_agents/cli/ names a game or imports
one. Everything game-specific reaches it as a capability a game declares."""

import ast
import re
from pathlib import Path

from logic_agents.world.registry import games

CLI = Path(__file__).resolve().parents[1] / "logic_agents" / "cli"


def _words(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
        elif isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.append(node.name)
        elif isinstance(node, ast.arg):
            out.append(node.arg)
    return out


def test_no_file_under_cli_names_a_game_or_imports_one():
    names = set(games()) | {"sweeper", "minesweeper", "lights"}
    files = sorted(CLI.glob("*.py"))
    assert len(files) >= 9
    for path in files:
        source = path.read_text()
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("logic_agents.games"), path
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("logic_agents.games") for a in node.names), path
        text = " ".join(_words(tree)) + " " + " ".join(
            line for line in source.splitlines() if line.lstrip().startswith("#"))
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text, re.I), (path.name, name)


def test_each_verb_module_stays_small():
    for path in CLI.glob("*.py"):
        assert len(path.read_text().splitlines()) < 400, path.name
