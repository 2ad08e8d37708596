"""Undead puzzles: vocabulary, game IDs, the picture format, lines of sight, an independent checker.

Concepts (RULES.md section 5):
- UndeadPuzzle: a W x H grid of mirrors (`L` = `\\`, `R` = `/`), given monsters (G, V, Z) and
  empty cells (`.`); the three monster totals; 2(W+H) border clues, clockwise from the
  top-left corner (None = no clue, written `-`).
- Game ID: `WxH:G,V,Z,GRID,c1,...,cK`, as Simon Tatham's Undead shows and accepts it; GRID runs
  row by row, `a`..`z` being runs of 1..26 empty cells. The parameters may name the
  difficulty as the game's do (`4x4dt:`, kept as `level`). parse_game_id / format_game_id.
- Picture format: a `counts: G V Z` line, the top clues, each row between its left and right
  clue, the bottom clues (the bottom row and left column read as a person reads them).
  files.py reads files that mix game-ID lines (TSV: the ID first) and pictures.
- Line of sight (Sight; sight.py, re-exported here): the path from one clue into the grid,
  bouncing off mirrors until it leaves. trace_sights.
- Solution: W*H characters over G V Z L R. is_solution re-walks every clue on its own.
- turned(puzzle, quarter_turns, mirrored): the same puzzle on a turned or mirrored board.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from logic_agents.errors import FormatError
from logic_agents.games.undead.sight import (
    MIRRORS,
    Sight,
    clue_at_exit,
    clue_entry,
    seen,
    trace_sights,
    turn_grid,
    turn_square,
)
from logic_agents.ground.inputs import ascii_int, is_ascii_digits, within_limit

MONSTERS = "GVZ"
EMPTY = "."
GLYPH = {"L": "\\", "R": "/"}
FROM_GLYPH = {"\\": "L", "/": "R"}
NO_CLUE = "-"


@dataclass(frozen=True)
class UndeadPuzzle:
    width: int
    height: int
    counts: tuple[int, int, int]  # ghosts, vampires, zombies
    grid: str  # W*H over L R . G V Z (G V Z: monsters given in the puzzle)
    clues: tuple[int | None, ...]  # 2(W+H), clockwise from the top-left corner
    name: str = field(default="undead", compare=False)
    level: str | None = field(default=None, compare=False)  # the ID's difficulty, if it names one
    # the real game's random seed ID that made it (`4x4de#rs-0`: its "Random Seed" dialog
    # makes the same puzzle), when the file gives one
    seed_id: str = field(default="", compare=False)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @cached_property
    def monster_cells(self) -> tuple[int, ...]:
        """Indices of the cells that hold a monster (every cell but the mirrors)."""
        return tuple(i for i, ch in enumerate(self.grid) if ch not in MIRRORS)

    @cached_property
    def givens(self) -> dict[int, str]:
        return {i: ch for i, ch in enumerate(self.grid) if ch in MONSTERS}

    @cached_property
    def sights(self) -> tuple[Sight, ...]:
        return trace_sights(self.width, self.height, self.grid)

    def cell(self, index: int) -> tuple[int, int]:
        return divmod(index, self.width)


# -- game IDs -----------------------------------------------------------------------------
_ID_HEAD = re.compile(r"\s*([0-9]{1,6})x([0-9]{1,6})(?:d([a-z]))?:")
LEVEL_LETTERS = {"e": "easy", "n": "normal", "t": "tricky"}  # as the game writes `7x7dt`
MAX_CELLS = 2_500  # 50 x 50; larger boards need --no-limits (the real game stops at 54 cells)


def looks_like_game_id(text: str) -> bool:
    return bool(_ID_HEAD.match(text))


def parse_game_id(text: str, file: str = "<game id>", line: int = 1, offset: int = 0,
                  name: str = "") -> UndeadPuzzle:
    """A puzzle from `WxH:G,V,Z,GRID,c1,...,cK`; errors point at the offending character."""

    def fail(message: str, pos: int) -> FormatError:
        return FormatError(message, file, line, offset + pos + 1)

    head = _ID_HEAD.match(text)
    if not head:
        raise fail("a game ID starts with WxH: or WxHdD: (such as 4x4: or 4x4dt:)", 0)
    width, height = int(head.group(1)), int(head.group(2))
    level = None
    if head.group(3):
        level = LEVEL_LETTERS.get(head.group(3))
        if level is None:
            raise fail(f"unknown difficulty letter {head.group(3)!r} (e, n or t)",
                       head.start(3))
    if width < 1 or height < 1:
        raise fail(f"the board {width}x{height} has no cells", 0)
    within_limit(width * height, MAX_CELLS, f"the board {width}x{height}: its cell count",
                 file, line, offset + 1)
    pos = head.end()
    body = text.rstrip()
    # fields: G, V, Z, GRID, clues...
    fields = []
    start = pos
    for m in re.finditer(",", body[pos:] + ","):
        end = pos + m.start()
        fields.append((start, body[start:end]))
        start = end + 1
    if len(fields) < 4:
        raise fail("expected G,V,Z,GRID,clues after the size", len(body))
    counts = []
    for k, (at, value) in enumerate(fields[:3]):
        counts.append(ascii_int(value, f"the {('ghost', 'vampire', 'zombie')[k]} count", file,
                                line, offset + at + 1, high=width * height))
    at, grid_text = fields[3]
    grid = []
    for k, ch in enumerate(grid_text):
        if ch in MIRRORS or ch in MONSTERS:
            grid.append(ch)
        elif "a" <= ch <= "z":
            grid.extend(EMPTY * (ord(ch) - ord("a") + 1))
        else:
            raise fail(f"bad run letter {ch!r} in the grid (L, R, G, V, Z or a-z)", at + k)
        if len(grid) > width * height:
            raise fail(f"the grid runs past the {width * height} cells of {width}x{height}",
                       at + k)
    if len(grid) < width * height:
        raise fail(f"the grid fills {len(grid)} of the {width * height} cells of "
                   f"{width}x{height}", at + len(grid_text))
    want = 2 * (width + height)
    clue_fields = fields[4:]
    if len(clue_fields) != want:
        where = clue_fields[want][0] if len(clue_fields) > want else len(body)
        raise fail(f"a {width}x{height} board has {want} clues, the ID gives {len(clue_fields)}",
                   where)
    clues: list[int | None] = []
    for at, value in clue_fields:
        if value == NO_CLUE:
            clues.append(None)
        elif is_ascii_digits(value):
            clues.append(ascii_int(value, "a clue", file, line, offset + at + 1,
                                   high=2 * width * height))
        else:
            raise fail(f"a clue must be a number or '-', got {value!r}", at)
    monsters = sum(ch not in MIRRORS for ch in grid)
    if sum(counts) != monsters:
        raise fail(f"the counts {counts[0]}+{counts[1]}+{counts[2]} = {sum(counts)} do not "
                   f"add up to the {monsters} monster cells", head.end())
    return UndeadPuzzle(width, height, (counts[0], counts[1], counts[2]), "".join(grid),
                        tuple(clues), name or f"{width}x{height}", level)


def format_game_id(puzzle: UndeadPuzzle) -> str:
    """The game ID as Simon Tatham's Undead writes one; with the puzzle's level, if it has one,
    in the parameters (`7x7dn:...`), which the game reads too."""
    out = []
    run = 0
    for ch in puzzle.grid:
        if ch == EMPTY:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        out.append(ch)
    if run:
        out.append(chr(ord("a") + run - 1))
    clues = ",".join(NO_CLUE if c is None else str(c) for c in puzzle.clues)
    g, v, z = puzzle.counts
    level = f"d{puzzle.level[0]}" if puzzle.level else ""
    return f"{puzzle.width}x{puzzle.height}{level}:{g},{v},{z},{''.join(out)},{clues}"


def turned(puzzle: UndeadPuzzle, quarter_turns: int = 1, mirrored: bool = False
           ) -> UndeadPuzzle:
    """The same puzzle on the board mirrored left to right (if asked), then turned
    `quarter_turns` times clockwise: its solutions are the solutions turned (turn_grid), and
    its cells and clues come in another order."""
    w, h = puzzle.width, puzzle.height
    new_width, new_height, grid = turn_grid(w, h, puzzle.grid, quarter_turns, mirrored)
    clues: list[int | None] = [None] * len(puzzle.clues)
    for index, value in enumerate(puzzle.clues):
        r, c, (dr, dc) = clue_entry(index, w, h)  # the clue's border square is one step back
        r, c, _, _ = turn_square(r - dr, c - dc, w, h, quarter_turns, mirrored)
        clues[clue_at_exit(r, c, new_width, new_height)] = value
    return UndeadPuzzle(new_width, new_height, puzzle.counts, grid, tuple(clues),
                        puzzle.name, puzzle.level)


# -- the picture format -------------------------------------------------------------------
def _clue_text(value: int | None) -> str:
    return NO_CLUE if value is None else str(value)


def format_picture(puzzle: UndeadPuzzle, solution: str | None = None) -> str:
    """The readable picture; with a solution, its monsters fill the empty cells."""
    w, h = puzzle.width, puzzle.height
    cells = solution if solution is not None else puzzle.grid
    clue = [_clue_text(c) for c in puzzle.clues]
    top = clue[:w]
    right = clue[w:w + h]
    bottom = list(reversed(clue[w + h:2 * w + h]))
    left = list(reversed(clue[2 * w + h:]))
    cw = max(1, *(len(c) for c in top + bottom))
    lw = max(len(c) for c in left)
    pad = " " * (lw + 3)
    lines = [f"counts: {' '.join(map(str, puzzle.counts))}",
             pad + " ".join(c.rjust(cw) for c in top)]
    for r in range(h):
        row = " ".join(GLYPH.get(ch, ch).rjust(cw) for ch in cells[r * w:(r + 1) * w])
        lines.append(f"{left[r].rjust(lw)}   {row}  {right[r]}")
    lines.append(pad + " ".join(c.rjust(cw) for c in bottom))
    return "\n".join(lines) + "\n"


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]


def read_picture(lines: list[tuple[int, str]], k: int, file: str,
             name: str) -> tuple[UndeadPuzzle, int]:
    """Parse the picture whose `counts:` line is lines[k]; return it and the next index."""
    lineno, text = lines[k]
    tokens = _tokens(text.split(":", 1)[1])
    offset = text.index(":") + 1
    if len(tokens) != 3 or not all(is_ascii_digits(t) for _, t in tokens):
        raise FormatError("expected 'counts: G V Z' with three numbers", file, lineno, 1)
    counts = tuple(ascii_int(t, "a count", file, lineno, offset + at + 1) for at, t in tokens)

    def clue_of(col: int, token: str, ln: int) -> int | None:
        if token == NO_CLUE:
            return None
        if not is_ascii_digits(token):
            raise FormatError(f"a clue must be a number or '-', got {token!r}", file, ln, col + 1)
        return ascii_int(token, "a clue", file, ln, col + 1)

    if k + 1 >= len(lines):
        raise FormatError("the picture ends after its counts line", file, lineno, 0)
    top_no, top_text = lines[k + 1]
    top_tokens = _tokens(top_text)
    width = len(top_tokens)
    rows: list[tuple[int, str]] = []
    j = k + 2
    while j < len(lines) and len(_tokens(lines[j][1])) == width + 2:
        rows.append(lines[j])
        j += 1
    if not rows:
        raise FormatError(f"expected grid rows of {width} cells between two clues", file,
                          lines[j][0] if j < len(lines) else top_no, 0)
    if j >= len(lines):
        raise FormatError("the picture has no bottom clue row", file, rows[-1][0], 0)
    bottom_no, bottom_text = lines[j]
    bottom_tokens = _tokens(bottom_text)
    if len(bottom_tokens) != width:
        raise FormatError(f"the bottom clue row has {len(bottom_tokens)} clues, the top row "
                          f"{width}", file, bottom_no, 0)
    grid, left, right = [], [], []
    for ln, text in rows:
        tokens = _tokens(text)
        left.append(clue_of(*tokens[0], ln))
        right.append(clue_of(*tokens[-1], ln))
        for col, token in tokens[1:-1]:
            ch = FROM_GLYPH.get(token, token)
            if len(ch) != 1 or ch not in MIRRORS + MONSTERS + EMPTY:
                raise FormatError(f"a cell is \\, /, ., G, V or Z, got {token!r}", file, ln,
                                  col + 1)
            grid.append(ch)
    clues = ([clue_of(c, t, top_no) for c, t in top_tokens] + right
             + list(reversed([clue_of(c, t, bottom_no) for c, t in bottom_tokens]))
             + list(reversed(left)))
    monsters = sum(ch not in MIRRORS for ch in grid)
    if sum(counts) != monsters:
        raise FormatError(f"the counts add up to {sum(counts)}, the grid has {monsters} monster "
                          "cells", file, lineno, offset + 1)
    puzzle = UndeadPuzzle(width, len(rows), (counts[0], counts[1], counts[2]), "".join(grid),
                          tuple(clues), name or f"{width}x{len(rows)}")
    return puzzle, j + 1


# -- the independent checker ---------------------------------------------------------------
def is_solution(puzzle: UndeadPuzzle, solution: str) -> bool:
    """True iff `solution` completes the puzzle: every cell filled, mirrors and givens kept,
    the three totals right, and every clue equal to what its line of sight sees.

    It walks each line of sight itself, square by square, sharing no code with the encoder."""
    w, h = puzzle.width, puzzle.height
    if len(solution) != w * h:
        return False
    for given, placed in zip(puzzle.grid, solution):
        if given in MIRRORS or given in MONSTERS:
            if placed != given:
                return False
        elif placed not in MONSTERS:
            return False
    if tuple(solution.count(m) for m in MONSTERS) != tuple(puzzle.counts):
        return False
    starts = ([(-1, c, 1, 0) for c in range(w)] + [(r, w, 0, -1) for r in range(h)]
              + [(h, c, -1, 0) for c in reversed(range(w))] + [(r, -1, 0, 1) for r in reversed(range(h))])
    for clue, (r, c, dr, dc) in zip(puzzle.clues, starts):
        if clue is None:
            continue
        count, mirrored = 0, False
        r, c = r + dr, c + dc
        while 0 <= r < h and 0 <= c < w:
            ch = solution[r * w + c]
            if ch == "L":
                dr, dc, mirrored = dc, dr, True
            elif ch == "R":
                dr, dc, mirrored = -dc, -dr, True
            elif ch == "Z" or (ch == "G" and mirrored) or (ch == "V" and not mirrored):
                count += 1
            r, c = r + dr, c + dc
        if count != clue:
            return False
    return True


def clues_of(width: int, height: int, solution: str,
             sights: Sequence[Sight] | None = None) -> tuple[int, ...]:
    """The clues a complete grid (mirrors and monsters) shows. `sights`, the layout's traced
    before, spare tracing them again (a generator redraws monsters on one layout)."""
    if sights is None:
        sights = trace_sights(width, height, solution)
    return tuple(sum(seen(solution[cell], bounced) for cell, bounced in sight.visits)
                 for sight in sights)


def mirror_layout(grid: str) -> str:
    """The mirror layout of a grid or a solution: its mirrors, every other cell empty."""
    return "".join(ch if ch in MIRRORS else EMPTY for ch in grid)


def puzzle_from_solution(width: int, height: int, solution: str, name: str = "",
                         sights: Sequence[Sight] | None = None) -> UndeadPuzzle:
    """The puzzle (no givens) whose answer is `solution`: its counts and clues (`sights`:
    as for clues_of)."""
    grid = mirror_layout(solution)
    counts = tuple(solution.count(m) for m in MONSTERS)
    return UndeadPuzzle(width, height, (counts[0], counts[1], counts[2]), grid,
                        clues_of(width, height, solution, sights), name or f"{width}x{height}")
