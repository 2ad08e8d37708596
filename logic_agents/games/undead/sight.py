"""Undead's lines of sight (RULES.md section 5): the path from one border clue into the
grid, bouncing off mirrors until it leaves.

Concepts:
- Sight: entered at clue `clue`, left at clue `exit`; `visits` lists (cell index, seen after a
  bounce) and may hold a cell twice.
- clue_entry / clue_at_exit: clue numbers, clockwise from the top-left corner, to border
  squares and back; bounce: a mirror turns a direction.
- trace_sight / trace_sights; seen(monster, bounced): G counts only in a mirror, V only
  directly, Z always.
- Symmetries: turn_square / turn_grid turn a board a quarter clockwise, after a left-right
  mirror image if asked; a mirror `\\` becomes `/` and back, clue squares move with the
  border.
"""

from __future__ import annotations

from dataclasses import dataclass

MIRRORS = "LR"
Direction = tuple[int, int]  # (d_row, d_col)


@dataclass(frozen=True)
class Sight:
    """One line of sight: entered at clue `clue`, left at clue `exit`."""

    clue: int
    exit: int
    visits: tuple[tuple[int, bool], ...]  # (cell index r*W+c, seen after a bounce)



def clue_entry(index: int, width: int, height: int) -> tuple[int, int, Direction]:
    """The first cell (row, col) and the direction of the sight that enters at clue `index`."""
    w, h = width, height
    if index < w:
        return 0, index, (1, 0)
    if index < w + h:
        return index - w, w - 1, (0, -1)
    if index < 2 * w + h:
        return h - 1, w - 1 - (index - w - h), (-1, 0)
    return h - 1 - (index - 2 * w - h), 0, (0, 1)


def clue_at_exit(r: int, c: int, width: int, height: int) -> int:
    """The clue whose border square (r, c) is, just outside the grid."""
    if r < 0:
        return c
    if c >= width:
        return width + r
    if r >= height:
        return width + height + (width - 1 - c)
    return 2 * width + height + (height - 1 - r)


def bounce(mirror: str, direction: Direction) -> Direction:
    dr, dc = direction
    return (dc, dr) if mirror == "L" else (-dc, -dr)


def trace_sight(width: int, height: int, grid: str, index: int) -> Sight:
    """Follow the line of sight from clue `index` until it leaves the grid."""
    r, c, direction = clue_entry(index, width, height)
    bounced = False
    visits = []
    while 0 <= r < height and 0 <= c < width:
        ch = grid[r * width + c]
        if ch in MIRRORS:
            direction = bounce(ch, direction)
            bounced = True
        else:
            visits.append((r * width + c, bounced))
        r, c = r + direction[0], c + direction[1]
    return Sight(index, clue_at_exit(r, c, width, height), tuple(visits))


def trace_sights(width: int, height: int, grid: str) -> tuple[Sight, ...]:
    """Every clue's line of sight, in clue order."""
    return tuple(trace_sight(width, height, grid, i) for i in range(2 * (width + height)))


def seen(monster: str, bounced: bool) -> bool:
    """Whether a monster passed by a line of sight is counted: G only in a mirror, V only
    directly, Z always."""
    return monster == "Z" or (monster == "G") == bounced


SWAPPED_MIRROR = {"L": "R", "R": "L"}


def turn_square(r: int, c: int, width: int, height: int, quarter_turns: int = 1,
                mirrored: bool = False) -> tuple[int, int, int, int]:
    """(row, col, width, height) of square (r, c), border squares included, once the board is
    mirrored left to right (if asked) and then turned `quarter_turns` times clockwise."""
    if mirrored:
        c = width - 1 - c
    for _ in range(quarter_turns % 4):
        r, c, width, height = c, height - 1 - r, height, width
    return r, c, width, height


def turn_grid(width: int, height: int, grid: str, quarter_turns: int = 1,
              mirrored: bool = False) -> tuple[int, int, str]:
    """(width, height, grid) of a W*H grid string so mirrored and turned (see turn_square)."""
    swap = (quarter_turns + mirrored) % 2 == 1  # an odd number of flips swaps the mirrors
    _, _, new_width, new_height = turn_square(0, 0, width, height, quarter_turns, mirrored)
    out = [""] * len(grid)
    for i, ch in enumerate(grid):
        r, c, _, _ = turn_square(*divmod(i, width), width, height, quarter_turns, mirrored)
        out[r * new_width + c] = SWAPPED_MIRROR.get(ch, ch) if swap else ch
    return new_width, new_height, "".join(out)
