"""Undead files: game-ID lines (TSV: the ID, a name or the real game's seed ID, the solution)
and pictures, mixed in one file.

Concepts: Entry (a puzzle and the solution its file gives); parse_entries / load_entries read a
text or a file, each error located as file:line:col; parse_puzzles / load_puzzles keep the
puzzles alone. A TSV line named by the real game's seed ID (`4x4de#rs-0`) is shown by the
reference that loads it again (`4x4de:1`) and keeps the seed ID as `seed_id`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.games.undead.board import (
    MONSTERS,
    UndeadPuzzle,
    parse_game_id,
    read_picture,
)
from logic_agents.games.undead.sight import MIRRORS
from logic_agents.ground.inputs import read_text, strip_bom


@dataclass(frozen=True)
class Entry:
    """One puzzle of a file, with the reference solution the file gives (TSV third column)."""

    puzzle: UndeadPuzzle
    reference: str | None = None


SEED_ID = re.compile(r"\d+x\d+d[a-z]#\S+")  # sgt-puzzles' PARAMS#seed


def parse_entries(text: str, file: str = "<input>") -> list[Entry]:
    """Every puzzle of a text: game-ID lines (TSV: ID, seed or name, solution) and pictures.
    A `# name` comment line names the picture below it. A line whose second column is the
    real game's seed ID (`4x4de#rs-0`) is named `FILE:K`, the reference that loads it again
    (`4x4de:1`), and keeps the seed ID as `seed_id`."""
    lines = [(n, line.rstrip("\n")) for n, line in enumerate(strip_bom(text).splitlines(), start=1)]
    entries: list[Entry] = []
    name = ""
    k = 0
    while k < len(lines):
        lineno, line = lines[k]
        stripped = line.strip()
        if not stripped:
            k += 1
            continue
        if stripped.startswith("#"):
            name = stripped.lstrip("#").strip()
            k += 1
            continue
        if stripped.startswith("counts:"):
            puzzle, k = read_picture(lines, k, file, name)
            entries.append(Entry(puzzle))
            name = ""
            continue
        columns = line.split("\t")
        lead = len(columns[0]) - len(columns[0].lstrip())
        label = columns[1].strip() if len(columns) > 1 and columns[1].strip() else ""
        seed_id = label if SEED_ID.fullmatch(label) else ""
        if seed_id:
            label = f"{Path(file).stem}:{len(entries) + 1}"
        puzzle = parse_game_id(columns[0].strip(), file, lineno, lead,
                               label or name or f"{Path(file).stem}:{lineno}")
        if seed_id:
            puzzle = dataclasses.replace(puzzle, seed_id=seed_id)
        reference = columns[2].strip() if len(columns) > 2 and columns[2].strip() else None
        if reference is not None and (len(reference) != puzzle.width * puzzle.height
                                      or set(reference) - set(MONSTERS + MIRRORS)):
            col = len(columns[0]) + len(columns[1]) + 3
            raise FormatError(f"the solution column must be {puzzle.width * puzzle.height} "
                              "characters over G V Z L R", file, lineno, col)
        entries.append(Entry(puzzle, reference))
        name = ""
        k += 1
    if not entries:
        raise FormatError("no Undead puzzle here (a game ID such as 4x4:... or a 'counts:' "
                          "picture)", file, 0, 0)
    return entries


def parse_puzzles(text: str, file: str = "<input>") -> list[UndeadPuzzle]:
    return [e.puzzle for e in parse_entries(text, file)]


def load_entries(path: str | Path) -> list[Entry]:
    return parse_entries(read_text(path, "Undead puzzle file"), str(path))


def load_puzzles(path: str | Path) -> list[UndeadPuzzle]:
    return [e.puzzle for e in load_entries(path)]
