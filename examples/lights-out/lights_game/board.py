"""Lights Out boards: a grid of lights, on (`*`) or off (`.`).

Concepts: LightsPuzzle (name, rows); parse/format (round-trip; `# name: X` names a board,
other `#` lines are comments); neighbours (a cell and its four orthogonal neighbours: what a
press toggles); is_solution(puzzle, presses), an independent checker that replays the
presses on the lights.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text
from logic_agents.world.base import GridShape

Cell = tuple[int, int]
ON, OFF = "*", "."


@dataclass(frozen=True)
class LightsPuzzle(GridShape):
    name: str
    rows: tuple[str, ...]


    def on(self, cell: Cell) -> bool:
        return self.rows[cell[0]][cell[1]] == ON


def neighbours(height: int, width: int, cell: Cell) -> list[Cell]:
    """The cells a press at `cell` toggles: itself and its orthogonal neighbours."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < height and 0 <= c + dc < width]


def parse(text: str, source: str = "<input>") -> LightsPuzzle:
    name, rows = Path(source).stem, list[str]()
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line.startswith("#"):
            if line[1:].strip().startswith("name:"):
                name = line[1:].strip()[5:].strip() or name
            continue
        if not line:
            continue
        for col, ch in enumerate(line, start=1):
            if ch not in (ON, OFF):
                raise FormatError(f"{ch!r} is not a light (use {ON} or {OFF})", source, lineno,
                                  col)
        if rows and len(line) != len(rows[0]):
            raise FormatError(f"row of {len(line)} lights, the first has {len(rows[0])}",
                              source, lineno, len(line))
        if len(line) > 30 or len(rows) >= 30:
            raise FormatError("boards are at most 30 x 30", source, lineno, 1)
        rows.append(line)
    if not rows:
        raise FormatError("no rows of lights", source, 1, 1)
    return LightsPuzzle(name, tuple(rows))


def format_puzzle(puzzle: LightsPuzzle) -> str:
    return f"# name: {puzzle.name}\n" + "\n".join(puzzle.rows) + "\n"


def load(path: str | Path) -> LightsPuzzle:
    return parse(read_text(path), str(path))


def is_solution(puzzle: LightsPuzzle, presses: list[Cell]) -> bool:
    """True iff pressing `presses` in turn puts every light out (replayed, shared with none)."""
    lights = {cell: puzzle.on(cell) for cell in puzzle.cells()}
    for r, c in presses:
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            if (r + dr, c + dc) in lights:
                lights[r + dr, c + dc] = not lights[r + dr, c + dc]
    return not any(lights.values())
