"""Kakurasu boards: an N x M grid with a clue beside each row and below each column.

Concepts: KakurasuPuzzle (name, row_clues, col_clues); weights (a cell's weight in its row
is its column counted from 1, and in its column its row counted from 1); parse/format
(`rows:` and `cols:` lines of clues; `# name: X` names a board, other `#` lines are
comments); is_solution(puzzle, shaded), the independent checker: each row's shaded weights
sum to its clue, and each column's too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import FormatError
from logic_agents.ground.inputs import read_text

Cell = tuple[int, int]
MAX_SIDE = 12


@dataclass(frozen=True)
class KakurasuPuzzle:
    name: str
    row_clues: tuple[int, ...]  # row r: the sum of the column weights (1-based) shaded in it
    col_clues: tuple[int, ...]  # column c: the sum of the row weights (1-based) shaded in it

    @property
    def height(self) -> int:
        return len(self.row_clues)

    @property
    def width(self) -> int:
        return len(self.col_clues)

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.height) for c in range(self.width)]


def _clues(raw: str, after: int, limit: int, source: str, lineno: int) -> tuple[int, ...]:
    """The clues written after column `after` of the line, each checked where it stands."""
    words = list(re.finditer(r"\S+", raw[after:]))
    if not 1 <= len(words) <= MAX_SIDE:
        raise FormatError(f"1 to {MAX_SIDE} clues on a line, not {len(words)}", source, lineno,
                          len(raw) + 1)
    clues = []
    for word in words:
        text = word.group()
        if not (text.isascii() and text.isdigit()) or int(text) > limit:
            raise FormatError(f"{text!r} is not a clue here (a whole number from 0 to {limit})",
                              source, lineno, after + word.start() + 1)
        clues.append(int(text))
    return tuple(clues)


def parse(text: str, source: str = "<input>") -> KakurasuPuzzle:
    name = Path(source).stem
    found: dict[str, tuple[int, str, int]] = {}  # rows / cols -> (line, text, after the colon)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            if line[1:].strip().startswith("name:"):
                name = line[1:].strip()[5:].strip() or name
            continue
        if not line:
            continue
        key, colon, _ = line.partition(":")
        if not colon or key.strip() not in ("rows", "cols"):
            raise FormatError("expected 'rows: CLUE ...' or 'cols: CLUE ...'", source, lineno,
                              raw.index(line[0]) + 1)
        if key.strip() in found:
            raise FormatError(f"a second '{key.strip()}:' line", source, lineno, 1)
        found[key.strip()] = (lineno, raw, raw.index(":") + 1)
    for key in ("rows", "cols"):
        if key not in found:
            raise FormatError(f"no '{key}:' line", source, max(1, len(text.splitlines())), 1)
    width = len(found["cols"][1][found["cols"][2]:].split())
    height = len(found["rows"][1][found["rows"][2]:].split())
    # a row's clue is at most the sum of the column weights, and a column's the row weights'
    rows = _clues(found["rows"][1], found["rows"][2], width * (width + 1) // 2, source,
                  found["rows"][0])
    cols = _clues(found["cols"][1], found["cols"][2], height * (height + 1) // 2, source,
                  found["cols"][0])
    return KakurasuPuzzle(name, rows, cols)


def format_puzzle(puzzle: KakurasuPuzzle) -> str:
    return (f"# name: {puzzle.name}\nrows: {' '.join(map(str, puzzle.row_clues))}\n"
            f"cols: {' '.join(map(str, puzzle.col_clues))}\n")


def load(path: str | Path) -> KakurasuPuzzle:
    return parse(read_text(path), str(path))


def sums(puzzle: KakurasuPuzzle, shaded: frozenset[Cell]) -> tuple[list[int], list[int]]:
    """Each row's and each column's sum of shaded weights."""
    rows, cols = [0] * puzzle.height, [0] * puzzle.width
    for r, c in shaded:
        rows[r] += c + 1
        cols[c] += r + 1
    return rows, cols


def is_solution(puzzle: KakurasuPuzzle, shaded: frozenset[Cell]) -> bool:
    """True iff `shaded` is on the board and meets every clue (counted here, shared with none)."""
    if not all(0 <= r < puzzle.height and 0 <= c < puzzle.width for r, c in shaded):
        return False
    rows = [sum(c + 1 for (y, c) in shaded if y == r) for r in range(puzzle.height)]
    cols = [sum(r + 1 for (r, x) in shaded if x == c) for c in range(puzzle.width)]
    return tuple(rows) == puzzle.row_clues and tuple(cols) == puzzle.col_clues
