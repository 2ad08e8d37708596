"""Exactly One Mazes boards: the file format, validation, and an independent path checker.

Concepts (RULES.md section 3):
- MazeBoard: a H x W grid; each cell free (0) or part of shape k >= 1. The start is the
  lower-left cell, the finish the upper-right one; both are free.
- File format: an optional `game: mazes` header (the generator writes it, so the file says
  what it is), then one row per line, top row first, integers separated by spaces; `#` lines
  are comments (the last one before the grid names the board). Validation: rectangular, every
  shape one 4-connected polyomino, start and finish free; errors at file:line:col.
- Path: a list of (row, col) cells from start to finish. is_solution checks it on its own:
  ends, orthogonal steps, no cell twice, exactly one cell of every shape. The path may touch
  itself (non-consecutive cells may be neighbours).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import ascii_int, is_ascii_digits, read_text, strip_bom, within_limit
from logic_agents.world.view import Cell

STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
MAX_CELLS = 10_000  # 100 x 100: the searches' state spaces grow with it; --no-limits lifts it
HEADER = "game: mazes"


@dataclass(frozen=True)
class MazeBoard:
    height: int
    width: int
    cells: tuple[int, ...]  # row by row; 0 free, k >= 1 shape k
    name: str = field(default="maze", compare=False)

    @property
    def size(self) -> str:
        return f"{self.height}x{self.width}"

    @property
    def start(self) -> Cell:
        return (self.height - 1, 0)

    @property
    def finish(self) -> Cell:
        return (0, self.width - 1)

    def shape_at(self, cell: Cell) -> int:
        return self.cells[cell[0] * self.width + cell[1]]

    @cached_property
    def shapes(self) -> dict[int, tuple[Cell, ...]]:
        out: dict[int, list[Cell]] = {}
        for i, k in enumerate(self.cells):
            if k:
                out.setdefault(k, []).append(divmod(i, self.width))
        return {k: tuple(v) for k, v in sorted(out.items())}

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r + dr, c + dc) for dr, dc in STEPS.values() if self.inside((r + dr, c + dc))]


def _connected(cells: tuple[Cell, ...]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in members and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(members)


def validate(board: MazeBoard, file: str = "<input>", lines: list[int] | None = None,
             cols: list[list[int]] | None = None) -> MazeBoard:
    """Raise a FormatError unless every shape is one polyomino and start and finish are free."""

    def where(cell: Cell) -> tuple[int, int]:
        if lines is None or cols is None:
            return 0, 0
        return lines[cell[0]], cols[cell[0]][cell[1]]

    for k, members in board.shapes.items():
        if not _connected(members):
            raise FormatError(f"shape {k} is not one connected piece", file, *where(members[-1]))
    for label, cell in (("start (lower-left)", board.start), ("finish (upper-right)", board.finish)):
        if board.shape_at(cell):
            raise FormatError(f"the {label} cell must be free (0), it is in shape "
                              f"{board.shape_at(cell)}", file, *where(cell))
    return board


def parse_board(text: str, file: str = "<input>", name: str = "") -> MazeBoard:
    rows: list[list[int]] = []
    lines: list[int] = []
    cols: list[list[int]] = []
    title = ""
    for lineno, line in enumerate(strip_bom(text).splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            title = stripped.lstrip("#").strip()
            continue
        header = re.fullmatch(r"game\s*:\s*(\S*)", stripped)
        if header and not rows:
            if header.group(1) != "mazes":
                raise FormatError(f"this is a maze file; it says game {header.group(1)!r}", file,
                                  lineno, 1)
            continue
        row, at = [], []
        for m in re.finditer(r"\S+", line):
            token = m.group()
            if not is_ascii_digits(token):
                raise FormatError(f"a cell is 0 (free) or a shape number, got {token!r}", file,
                                  lineno, m.start() + 1)
            row.append(ascii_int(token, "a shape number", file, lineno, m.start() + 1))
            at.append(m.start() + 1)
        if rows and len(row) != len(rows[0]):
            raise FormatError(f"row has {len(row)} cells, the first row {len(rows[0])}", file,
                              lineno, at[min(len(row), len(rows[0])) - 1] if row else 0)
        rows.append(row)
        lines.append(lineno)
        cols.append(at)
        within_limit(len(rows) * len(rows[0]), MAX_CELLS, "the board's cell count", file, lineno)
    if not rows:
        raise FormatError("no grid: expected rows of integers", file, 0, 0)
    board_name = name or (title.split()[3] if title.startswith("Exactly One Mazes ")
                          and len(title.split()) > 3 else Path(file).stem or "maze")
    board = MazeBoard(len(rows), len(rows[0]), tuple(v for row in rows for v in row), board_name)
    return validate(board, file, lines, cols)


def format_board(board: MazeBoard, comment: str | None = None) -> str:
    width = max(len(str(v)) for v in board.cells)
    out = ([f"# {comment}"] if comment else []) + [HEADER]
    for r in range(board.height):
        out.append(" ".join(str(v).rjust(width) for v in board.cells[r * board.width:(r + 1) * board.width]))
    return "\n".join(out) + "\n"


def load_board(path: str | Path) -> MazeBoard:
    return parse_board(read_text(path, "maze file"), str(path))


def is_solution(board: MazeBoard, path: list[Cell] | tuple[Cell, ...]) -> bool:
    """The path's own check, sharing nothing with the encoder or the world."""
    path = [(cell[0], cell[1]) for cell in path]
    if not path or path[0] != board.start or path[-1] != board.finish:
        return False
    if len(set(path)) != len(path):
        return False
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return False
    if not all(0 <= r < board.height and 0 <= c < board.width for r, c in path):
        return False
    crossed: dict[int, int] = {}
    for cell in path:
        k = board.cells[cell[0] * board.width + cell[1]]
        if k:
            crossed[k] = crossed.get(k, 0) + 1
    return all(crossed.get(k, 0) == 1 for k in set(board.cells) if k)


def render_path(board: MazeBoard, path: list[Cell] | tuple[Cell, ...] = (),
                walker: Cell | None = None) -> str:
    """The board with the path drawn: each path cell shows the way to the next one (`^ > v
    <`), `S` and `F` mark the ends, `@` the walker; shape numbers (letters past 9) and `.`
    (free) elsewhere."""
    path = [(cell[0], cell[1]) for cell in path]
    arrow = {}
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        arrow[(r1, c1)] = {(-1, 0): "^", (1, 0): "v", (0, -1): "<", (0, 1): ">"}[(r2 - r1, c2 - c1)]
    rows = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            k = board.cells[r * board.width + c]
            if (r, c) == walker:
                ch = "@"
            elif (r, c) in arrow:
                ch = arrow[(r, c)]
            elif (r, c) == board.start:
                ch = "S"
            elif (r, c) == board.finish:
                ch = "F"
            elif k:
                ch = str(k) if k < 10 else chr(ord("a") + (k - 10) % 26)
            else:
                ch = "."
            row.append(ch)
        rows.append(" ".join(row))
    return "\n".join(rows) + "\n"
