"""Akari (Light Up) puzzles: the text format, the rules as a checker, and rendering.

Concepts:
- A puzzle is a grid of white cells (`.`), walls (`#`) and numbered walls (`0`-`4`).
- A solution is a set of bulbs on white cells such that every white cell is lit (a bulb in
  its row or column with no wall between), no bulb lights another, and every numbered wall
  has exactly that many bulbs beside it (up, down, left, right).
- Text format: optional `#` comment lines (the first one names the puzzle), an optional
  `game: akari` header, then one line per row; spaces between cells are allowed.
- is_solution checks a set of bulbs against the rules directly, without the SAT encoding.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text, strip_bom
from logic_agents.world.base import GridShape

Cell = tuple[int, int]
WHITE, WALL = ".", "#"
NUMBERS = "01234"
MAX_CELLS = 10_000


@dataclass(frozen=True)
class AkariPuzzle(GridShape):
    rows: tuple[str, ...]
    name: str = "akari"


    def is_white(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width and self.rows[r][c] == WHITE

    def whites(self) -> list[Cell]:
        return [(r, c) for r in range(self.height) for c in range(self.width)
                if self.rows[r][c] == WHITE]

    def numbered(self) -> list[tuple[Cell, int]]:
        return [((r, c), int(ch)) for r, row in enumerate(self.rows) for c, ch in enumerate(row)
                if ch in NUMBERS]

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if self.is_white(n)]

    def segments(self) -> list[list[Cell]]:
        """Every maximal run of white cells in a row or a column (what one bulb lights)."""
        return self._segments

    @cached_property
    def _segments(self) -> list[list[Cell]]:
        out: list[list[Cell]] = []
        for r in range(self.height):
            run: list[Cell] = []
            for c in range(self.width + 1):
                if c < self.width and self.rows[r][c] == WHITE:
                    run.append((r, c))
                elif run:
                    out.append(run)
                    run = []
        for c in range(self.width):
            run = []
            for r in range(self.height + 1):
                if r < self.height and self.rows[r][c] == WHITE:
                    run.append((r, c))
                elif run:
                    out.append(run)
                    run = []
        return out

    def seen_from(self, cell: Cell) -> frozenset[Cell]:
        """The white cells a bulb at `cell` lights, itself included (made once per puzzle:
        checking a solution asks it of every bulb, at every step of a game)."""
        return self._sight.get(cell, frozenset())

    @cached_property
    def _sight(self) -> dict[Cell, frozenset[Cell]]:
        sight: dict[Cell, set[Cell]] = {}
        for segment in self._segments:
            for cell in segment:
                sight.setdefault(cell, set()).update(segment)
        return {cell: frozenset(seen) for cell, seen in sight.items()}


def parse(text: str, file: str = "<input>", name: str = "") -> AkariPuzzle:
    """A puzzle from its text; FormatError(file, line, col) on the first problem."""
    rows: list[str] = []
    title = name
    for lineno, raw in enumerate(strip_bom(text).splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#") and not set(line) <= set(WALL + WHITE + NUMBERS + " "):
            title = title or line.lstrip("#").strip()
            continue
        if line.lower().startswith("game:"):
            if line.split(":", 1)[1].strip() != "akari":
                raise FormatError("this file is for another game", file, lineno, 1)
            continue
        cells = line.replace(" ", "")
        for col, ch in enumerate(cells, start=1):
            if ch not in WHITE + WALL + NUMBERS:
                raise FormatError(f"bad cell {ch!r}: expected '.', '#' or a wall number 0-4",
                                  file, lineno, col)
        if rows and len(cells) != len(rows[0]):
            raise FormatError(f"row has {len(cells)} cells, the first has {len(rows[0])}",
                              file, lineno, 1)
        rows.append(cells)
        if len(rows) * len(cells) > MAX_CELLS:
            raise FormatError(f"more than {MAX_CELLS} cells", file, lineno, 1)
    if not rows:
        raise FormatError("no rows: an Akari puzzle is lines of '.', '#' and 0-4", file, 1, 1)
    return AkariPuzzle(tuple(rows), title or Path(file).stem)


def load(path: str | Path) -> AkariPuzzle:
    return parse(read_text(path, "Akari puzzle"), str(path))


def format_puzzle(puzzle: AkariPuzzle) -> str:
    return f"# {puzzle.name}\ngame: akari\n" + "\n".join(puzzle.rows) + "\n"


def is_solution(puzzle: AkariPuzzle, bulbs: Iterable[Cell]) -> bool:
    """The rules, checked directly: bulbs on white cells, all lit, none lit by another,
    every number met."""
    bulbs = {(b[0], b[1]) for b in bulbs}
    if not all(puzzle.is_white(b) for b in bulbs):
        return False
    lit: set[Cell] = set()
    for bulb in bulbs:
        seen = puzzle.seen_from(bulb)
        if (seen - {bulb}) & bulbs:
            return False
        lit |= seen
    if lit != set(puzzle.whites()):
        return False
    return all(sum(n in bulbs for n in puzzle.neighbours(cell)) == k
               for cell, k in puzzle.numbered())


def render(puzzle: AkariPuzzle, bulbs: Iterable[Cell] = ()) -> str:
    """The grid with bulbs as `*` and lit cells as `+`."""
    bulbs = set(bulbs)
    lit = {x for b in bulbs for x in puzzle.seen_from(b)}
    lines = []
    for r, row in enumerate(puzzle.rows):
        out = []
        for c, ch in enumerate(row):
            out.append("*" if (r, c) in bulbs else "+" if (r, c) in lit else ch)
        lines.append(" ".join(out))
    return "\n".join(lines)
