"""Integrity hints: a submission that is a built-in agent under another name.

Five students whose agent was a built-in agent's subclass and nothing more ranked first,
above the game's best agent, and nothing told the teacher. The hint reads the submission's
source as text (`ast.parse`, never run, at most MAX_SOURCE bytes) and says when the class it
names adds nothing of its own to an agent of logic-agents:

- it *is* one: an agent class of logic-agents imported under the submission's class name
  (`from ... import SomeAgent as Agent`);
- it *subclasses* one and defines no method (a `pass`, a docstring, a `name = ...`);
- it *wraps* one: every method it defines only hands the call on, to `super()` or to an
  attribute (`return self.inner.act(observation)`).

It is a hint for a person to read, not a verdict: a submission may build on a built-in
agent with the course's leave. Where the source does not parse, there is no hint.

Concepts:
- builtin_copy(reference): the hint for a `FILE.py:Class` reference, in words ("" for none).
"""

from __future__ import annotations

import ast
import contextlib
import functools
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text

MAX_SOURCE = 1 << 20  # a larger submission gets no hint (the parse is not worth its cost)
PACKAGE = "logic_agents"


def builtin_copy(reference: str) -> str:
    """What the class `reference` names takes from logic-agents unchanged ("" for nothing)."""
    file, _, name = reference.rpartition(":")
    if not file.endswith(".py") or not name.isidentifier():
        return ""
    try:
        stamp = Path(file).stat()
    except OSError:
        return ""
    if stamp.st_size > MAX_SOURCE:
        return ""
    return _copy_hint(file, name, stamp.st_size, stamp.st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _copy_hint(file: str, name: str, size: int, modified: int) -> str:
    """builtin_copy's answer for a file as it is (its stamp): the grades, the page and the
    feedback of one study each ask for it, and the file is parsed once."""
    try:
        tree = ast.parse(read_text(Path(file), "agent file"))
    except (OSError, FormatError, SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    ours = _imported_from_us(tree)
    if name in ours:
        return f"{name} is logic-agents' {ours[name]}, imported under another name"
    found = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
    if found is None:
        return ""
    bases = [ours[b.id] for b in found.bases if isinstance(b, ast.Name) and b.id in ours]
    if not bases:
        return _wraps(found, ours)
    methods = [n for n in found.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not methods:
        return f"class {name}({bases[0]}) defines no method: it plays as {bases[0]} does"
    if all(_hands_on(m) for m in methods):
        return (f"class {name}({bases[0]}): each method it defines only hands the call on: "
                f"it plays as {bases[0]} does")
    return ""


def _imported_from_us(tree: ast.Module) -> dict[str, str]:
    """The names the module imports from logic_agents: local name -> the class's own name."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == PACKAGE:
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
    return names


def _wraps(found: ast.ClassDef, ours: dict[str, str]) -> str:
    """A class of no base of ours that builds one of our agents and hands every call on."""
    built = ""
    with contextlib.suppress(StopIteration):
        built = next(ours[call.func.id] for call in ast.walk(found)
                     if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                     and call.func.id in ours)
    methods = [n for n in found.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and n.name != "__init__"]
    if built and methods and all(_hands_on(m) for m in methods):
        return f"class {found.name} wraps {built}: each of its methods hands the call on"
    return ""


def _hands_on(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method only calls the method of its name on super() or an attribute."""
    body = [s for s in method.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1:
        return False
    statement = body[0]
    value = statement.value if isinstance(statement, (ast.Return, ast.Expr)) else None
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    return value.func.attr == method.name
