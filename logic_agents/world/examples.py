"""The example plug-ins a checkout carries (examples/*/), named when a user asks for them.

A user who asks for one of their games or maps before installing it is told how to.

Concepts:
- example_plugin_hint(name): "; ... pip install -e examples/lights-out" when `name` is the game
  an example plug-in registers (its pyproject's entry point) or the stem of a file it ships;
  "" anywhere else (an installed wheel has no examples/). `make demo` installs logic-agents
  alone; `make test` installs the examples too.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"  # a checkout's, else absent
_ENTRY = re.compile(r'^\s*"?([A-Za-z0-9_.-]+)"?\s*=\s*"[^"]*:[^"]*"', re.MULTILINE)


@cache
def _examples() -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """(folder, its games, the stems of its files) of each example plug-in."""
    out = []
    if not EXAMPLES.is_dir():
        return ()
    for project in sorted(EXAMPLES.glob("*/pyproject.toml")):
        text = project.read_text(encoding="utf-8", errors="replace")
        part = text.split('[project.entry-points."logic_agents.games"]', 1)
        if len(part) < 2:
            continue
        games = frozenset(_ENTRY.findall(part[1].split("\n[", 1)[0]))
        stems = frozenset(p.stem for p in project.parent.rglob("*.txt"))
        out.append((f"examples/{project.parent.name}", games, stems))
    return tuple(out)


def example_plugin_hint(name: str) -> str:
    """Where the example plug-in that has game or map `name` is, and how to install it."""
    stem = Path(name.split(":", 1)[0]).stem if len(name) < 300 else ""
    for folder, games, stems in _examples():
        if name in games or stem in stems:
            return (f"; {name} comes with the example plug-in in {folder}: install it with "
                    f"`.venv/bin/pip install -e {folder}` (`make test` installs the examples)")
    return ""
