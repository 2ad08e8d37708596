"""The framework's middle in numbers (issue 40): AST counts over the package of every `Any`
(a name or an attribute), imports inside functions (and of the package's own modules),
getattr/hasattr calls, and the modules at the package root.

    python scripts/middle_counts.py [PACKAGE_DIR]
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def counts(root: Path) -> dict[str, int]:
    found = {"lines": 0, "Any": 0, "imports inside functions": 0,
             "own imports inside functions": 0, "getattr/hasattr": 0,
             "modules at the root": len(list(root.glob("*.py")))}
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found["lines"] += len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Name) and node.id == "Any") or \
                    (isinstance(node, ast.Attribute) and node.attr == "Any"):
                found["Any"] += 1
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("getattr", "hasattr"):
                found["getattr/hasattr"] += 1
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        found["imports inside functions"] += 1
                        module = (inner.module if isinstance(inner, ast.ImportFrom)
                                  else inner.names[0].name) or ""
                        if module.startswith(root.name):
                            found["own imports inside functions"] += 1
    return found


if __name__ == "__main__":
    package = Path(sys.argv[1] if len(sys.argv) > 1 else "logic_agents")
    print("; ".join(f"{name} {value}" for name, value in counts(package).items()))
