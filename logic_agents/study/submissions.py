"""A class's submissions as a study's agents: quoted globs and a folder per student.

Concepts:
- expand_agents(items): --agents values as a person types them, a glob in a reference's file
  part (`'students/*/agent.py:Agent'`, quoted so the shell leaves it) expanded here, in
  natural order, each match named by what its wildcards matched (`students/ann/agent.py` ->
  `ann`; several wildcards joined by `-`) as `NAME=reference`
  (referee.agents.named_as).
- submissions(folder, cls): the documented layout of a class, one entry per student:
  `folder/NAME.py`, or a folder `folder/NAME/` holding `agent.py` (and any helper modules
  it imports: the folder is on the agent's import path). Each plays as NAME; a folder with
  no agent.py is still that student's (its games are error rows that say so).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from pathlib import Path

from logic_agents.errors import UsageError
from logic_agents.ground.output import natural_key
from logic_agents.referee.agents import named_as, named_reference

WILDCARDS = frozenset("*?[")
SUBMISSION_FILE = "agent.py"  # the file a student's folder plays from


def has_glob(text: str) -> bool:
    return any(c in WILDCARDS for c in text)


def expand_agents(items: Iterable[object]) -> list[object]:
    """The agents with each glob reference expanded into its matches, named by them."""
    out: list[object] = []
    for item in items:
        if not isinstance(item, str):
            out.append(item)
            continue
        name, reference = named_reference(item)
        module_text, sep, attr = reference.rpartition(":")
        if not sep or not has_glob(module_text):
            out.append(item)
            continue
        matches = sorted((m for m in glob.glob(module_text) if os.path.isfile(m)),
                         key=natural_key)
        if not matches:
            raise UsageError(f"--agents {item}: no file matches {module_text}")
        for match in matches:
            label = _matched_name(module_text, match)
            out.append(named_as(f"{name + '-' if name else ''}{label}", f"{match}:{attr}"))
    return out


def _matched_name(pattern: str, match: str) -> str:
    """What the wildcards of `pattern` matched in `match`: students/*/agent.py -> ann."""
    wanted = Path(pattern).parts
    parts = Path(match).parts
    named = [part if k < len(parts) - 1 else Path(part).stem
             for k, (want, part) in enumerate(zip(wanted, parts)) if has_glob(want)]
    return _safe("-".join(named) or Path(match).stem)


def submissions(folder: str | os.PathLike[str], cls: str = "Agent") -> list[str]:
    """One `NAME=FILE:CLASS` per student of a submissions folder (see the module's words)."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError(f"--submissions {folder}: no such folder")
    if not cls.isidentifier():
        raise UsageError(f"--submission-class {cls!r} is not a Python name")
    out = []
    for child in sorted(root.iterdir(), key=lambda p: natural_key(p.name)):
        if child.name.startswith((".", "_")):
            continue  # hidden files, __pycache__
        if child.is_file() and child.suffix == ".py":
            out.append(named_as(_safe(child.stem), f"{child}:{cls}"))
        elif child.is_dir():
            out.append(named_as(_safe(child.name), f"{child / SUBMISSION_FILE}:{cls}"))
    if not out:
        raise UsageError(f"--submissions {folder}: it holds no NAME.py and no NAME/{SUBMISSION_FILE}")
    return out


def _safe(name: str) -> str:
    """A name as named_reference reads it (no `/`, `\\` or `:`; a `=` is escaped by
    named_as, so a folder called `=2+3` plays as `=2+3`)."""
    return "".join("_" if c in "/\\:" else c for c in name) or "_"
