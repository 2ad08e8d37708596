"""Sudoku puzzles: vocabulary, the line and grid formats, and an independent checker.

Concepts (after Norvig):
- Size N = b*b (4, 9, 16, 25); Cell (r, c), 0-based; Value 1..N, 0 = empty.
- Symbols: 1-9, then A, B, ... for 10 and up; `.` or `0` for an empty cell.
- SudokuPuzzle: N, the values row by row, a name and where it came from.
- Line format: N*N symbols on one line; a `#` starts a comment (a name).
  Grid format: one row per line; `|`, `-`, `+` and spaces are ignored. A file of exactly N
  lines of N symbols is read as one grid unless its lines carry `#` names.
- parse_puzzles(text, file): every puzzle of a file, each located for errors (file:line:col);
  format_line / format_grid: back to text (round-trip).
- is_solution(puzzle, grid): an independent checker: complete, within range, keeps the clues,
  and every row, column and box holds 1..N once.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text, strip_bom
from logic_agents.world.view import Cell

Grid = tuple[int, ...]  # N*N values row by row; 0 = empty
SIZES = (4, 9, 16, 25)
EMPTY = ".0"
_GRID_NOISE = "|-+ \t"
_NOISE_DELETED = str.maketrans("", "", _GRID_NOISE)  # str.translate drops the noise


def symbol(value: int) -> str:
    """The symbol of a value: 1-9, then A for 10, B for 11, ...; `.` for empty."""
    if value == 0:
        return "."
    return str(value) if value <= 9 else chr(ord("A") + value - 10)


def value_of(ch: str) -> int | None:
    """The value of a symbol (0 for empty), or None if it is no symbol."""
    if ch in EMPTY:
        return 0
    if len(ch) == 1 and "1" <= ch <= "9":
        return int(ch)
    if len(ch) == 1 and "A" <= ch.upper() <= "Z":
        return ord(ch.upper()) - ord("A") + 10
    return None


@dataclass(frozen=True)
class SudokuPuzzle:
    n: int
    cells: Grid
    name: str = "sudoku"
    source: str = field(default="", compare=False)

    @property
    def box(self) -> int:
        return math.isqrt(self.n)

    @property
    def height(self) -> int:
        return self.n

    @property
    def width(self) -> int:
        return self.n

    def at(self, cell: Cell) -> int:
        return self.cells[cell[0] * self.n + cell[1]]

    @property
    def clues(self) -> int:
        return sum(v != 0 for v in self.cells)


@functools.lru_cache(maxsize=8)
def units(n: int) -> tuple[tuple[Cell, ...], ...]:
    """Every row, column and box of an N x N grid (built once per size)."""
    b = math.isqrt(n)
    rows = [tuple((r, c) for c in range(n)) for r in range(n)]
    cols = [tuple((r, c) for r in range(n)) for c in range(n)]
    boxes = [tuple((br + i, bc + j) for i in range(b) for j in range(b))
             for br in range(0, n, b) for bc in range(0, n, b)]
    return tuple(rows + cols + boxes)


@functools.lru_cache(maxsize=8)
def unit_indices(n: int) -> tuple[tuple[int, ...], ...]:
    """The units as indices into a grid's values (r*N + c), for the checks that run on
    every puzzle of a file."""
    return tuple(tuple(r * n + c for r, c in unit) for unit in units(n))


@functools.lru_cache(maxsize=8)
def _unit_slots(n: int) -> tuple[tuple[int, int, int], ...]:
    """Per cell index, its row, column and box as slots of (N+1) values each: a clue v of
    cell i takes slot + v in each of them."""
    b = math.isqrt(n)
    side = n + 1
    return tuple((r * side, (n + c) * side, (2 * n + r // b * b + c // b) * side)
                 for r in range(n) for c in range(n))


def _check_clues(n: int, cells: list[int], locate: Callable[[], list[tuple[int, int]]],
                 file: str) -> None:
    """Two equal clues in one unit is a format error (the puzzle contradicts itself). The
    values are located (file:line:col) only when there is one.

    The check walks the clues alone, each taking its value's place in its row, column and
    box (a set of ints): a file of 10,000 puzzles of 17 clues is checked in a tenth of the
    time the 27 units took, read one by one."""
    taken: set[int] = set()
    slots = _unit_slots(n)
    for i in itertools.compress(range(len(cells)), cells):  # the clues' indices
        v = cells[i]
        row, col, box = slots[i]
        size = len(taken)
        taken.update((row + v, col + v, box + v))
        if len(taken) != size + 3:
            break
    else:
        return
    for unit in units(n):
        seen: dict[int, Cell] = {}
        for r, c in unit:
            v = cells[r * n + c]
            if v == 0:
                continue
            if v in seen:
                line, col = locate()[r * n + c]
                pr, pc = seen[v]
                raise FormatError(
                    f"clue {symbol(v)} at r{r}c{c} repeats the clue at r{pr}c{pc}",
                    file, line, col)
            seen[v] = (r, c)


def _make(values: list[int], locate: Callable[[], list[tuple[int, int]]], name: str,
          file: str, line: int) -> SudokuPuzzle:
    """A checked puzzle; `locate()` gives each value's (line, col), asked only for an error."""
    count = len(values)
    n = math.isqrt(count)
    if n * n != count or n not in SIZES:
        sizes = ", ".join(f"{s * s} ({s}x{s})" for s in SIZES)
        raise FormatError(f"{count} cells is no Sudoku size; expected {sizes}", file, line, 0)
    if max(values, default=0) > n:  # (then the first one out of range is located)
        for i, v in enumerate(values):
            if v > n:
                raise FormatError(f"value {symbol(v)} is out of range 1-{symbol(n)} for "
                                  f"{n}x{n}", file, *locate()[i])
    _check_clues(n, values, locate, file)
    return SudokuPuzzle(n, tuple(values), name, file)


def parse_puzzles(text: str, file: str = "<string>") -> list[SudokuPuzzle]:
    """All puzzles in a text: one per line (line format), or one grid (grid format)."""
    lines = strip_bom(text).splitlines()
    body = [(i, raw.split("#", 1)[0].rstrip()) for i, raw in enumerate(lines, start=1)]
    body = [(i, b) for i, b in body if b.strip()]
    if not body:
        raise FormatError("no puzzle found", file, 0, 0)
    stripped = [(i, b.translate(_NOISE_DELETED)) for i, b in body]
    lengths = {len(s) for _, s in stripped}
    one_grid = len(lengths) == 1 and len(body) in lengths and len(body) in SIZES
    named = any("#" in lines[i - 1] for i, _ in body)
    if len(body) == 1 or all(math.isqrt(n) ** 2 == n and math.isqrt(n) in SIZES for n in lengths) and (
            named or not one_grid):
        stem = Path(file).stem  # a puzzle's default name: the file's stem and its line
        return [_parse_line(lines, i, file, stem) for i, _ in body]
    return [_parse_grid(lines, body, file)]


def _comment_name(raw: str, default: str) -> str:
    return raw.split("#", 1)[1].strip() if "#" in raw and raw.split("#", 1)[1].strip() else default


# every symbol a line may hold, and the noise it may carry, by character
_VALUES = {ch: v for ch in [*EMPTY, *"123456789", *(chr(ord("A") + k) for k in range(26)),
                            *(chr(ord("a") + k) for k in range(26))]
           if (v := value_of(ch)) is not None}


def _parse_line(lines: list[str], lineno: int, file: str, stem: str) -> SudokuPuzzle:
    """The puzzle of one line; `stem` (the file's) names it when no comment does."""
    raw = lines[lineno - 1]
    try:  # the usual case: every character a symbol, each placed only if an error needs it
        values = [_VALUES[ch] for ch in raw.split("#", 1)[0].rstrip()]
    except KeyError:  # noise or a bad symbol: read located (a bad symbol is said there)
        values = _located_values(lines, lineno, file)[0]
    return _make(values, lambda: _located_values(lines, lineno, file)[1],
                 _comment_name(raw, f"{stem}:{lineno}"), file, lineno)


def _located_values(lines: list[str], lineno: int,
                    file: str) -> tuple[list[int], list[tuple[int, int]]]:
    content = lines[lineno - 1].split("#", 1)[0]
    values, where = [], []
    for col, ch in enumerate(content, start=1):
        if ch in _GRID_NOISE:
            continue
        v = value_of(ch)
        if v is None:
            raise FormatError(f"bad symbol {ch!r}: expected 1-9, A-Z, '.' or '0'", file, lineno, col)
        values.append(v)
        where.append((lineno, col))
    return values, where


def _parse_grid(lines: list[str], body: list[tuple[int, str]], file: str) -> SudokuPuzzle:
    values, where = [], []
    width = None
    for lineno, text in body:
        row = []
        for col, ch in enumerate(text, start=1):
            if ch in _GRID_NOISE:
                continue
            v = value_of(ch)
            if v is None:
                raise FormatError(f"bad symbol {ch!r}: expected 1-9, A-Z, '.' or '0'",
                                  file, lineno, col)
            row.append((v, (lineno, col)))
        if not row:
            continue  # a separator line such as ------+-------
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise FormatError(f"row has {len(row)} cells, the first row has {width}", file, lineno, 0)
        values += [v for v, _ in row]
        where += [w for _, w in row]
    if width is not None and len(values) != width * width:
        raise FormatError(f"grid has {len(values) // max(width, 1)} rows of {width}; "
                          f"a Sudoku grid is square", file, body[-1][0], 0)
    name = Path(file).stem if file != "<string>" else "sudoku"
    return _make(values, lambda: where, name, file, body[0][0])


def load_puzzles(path: str | Path) -> list[SudokuPuzzle]:
    return parse_puzzles(read_text(path, "puzzle file"), str(path))


def format_line(puzzle_or_grid: SudokuPuzzle | Grid, name: str | None = None) -> str:
    cells = puzzle_or_grid.cells if isinstance(puzzle_or_grid, SudokuPuzzle) else puzzle_or_grid
    text = "".join(symbol(v) for v in cells)
    return f"{text}  # {name}" if name else text


def format_grid(puzzle_or_grid: SudokuPuzzle | Grid) -> str:
    """Rows with box separators, as a person draws them."""
    cells = puzzle_or_grid.cells if isinstance(puzzle_or_grid, SudokuPuzzle) else puzzle_or_grid
    n = math.isqrt(len(cells))
    b = math.isqrt(n)
    out = []
    for r in range(n):
        if r and r % b == 0:
            out.append("-+-".join("-" * (2 * b - 1) for _ in range(b)))
        row = [symbol(cells[r * n + c]) for c in range(n)]
        out.append(" | ".join(" ".join(row[i:i + b]) for i in range(0, n, b)))
    return "\n".join(out)


def is_solution(puzzle: SudokuPuzzle, grid: Grid | None) -> bool:
    """True iff `grid` completes `puzzle`: in range, clues kept, every unit holds 1..N once."""
    n = puzzle.n
    if grid is None or len(grid) != n * n:
        return False
    if any(not 1 <= v <= n for v in grid):
        return False
    if any(clue and clue != v for clue, v in zip(puzzle.cells, grid)):
        return False
    full = set(range(1, n + 1))
    return all({grid[i] for i in unit} == full for unit in unit_indices(n))
