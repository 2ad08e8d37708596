"""The rules of Ooze (RULES.md §4) as plain functions over a small state: no agent, no I/O.

Concepts:
- Direction: UP, RIGHT, DOWN, LEFT as (dx, dy); x is the column, y the row (0 at the top).
- PIECES: the 7 glyphs and their channels. A channel is a pair of openings; the cross `+`
  has two independent channels, every other piece one. Pieces never rotate.
- OozeState: the board (cell -> glyph), which channels the ooze has filled, the ooze head
  (the last cell it entered, and the direction it leaves by), the clock, the score and the
  tiles entered. A cross crossed both ways counts as two tiles.
- flow_time(k): the tick at which the ooze enters tile k (6 + 3k).
- advance(state): one flow step; returns False on a leak (the game's end).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from logic_agents.world.view import Cell

Direction = tuple[int, int]

SIZE = 7
SOURCE: Cell = (3, 3)
UP: Direction = (0, -1)
RIGHT: Direction = (1, 0)
DOWN: Direction = (0, 1)
LEFT: Direction = (-1, 0)
DIRECTION_NAMES = {UP: "up", RIGHT: "right", DOWN: "down", LEFT: "left"}

PIECES: dict[str, tuple[frozenset[Direction], ...]] = {
    "|": (frozenset({UP, DOWN}),),
    "-": (frozenset({LEFT, RIGHT}),),
    "+": (frozenset({UP, DOWN}), frozenset({LEFT, RIGHT})),
    "q": (frozenset({LEFT, UP}),),
    "e": (frozenset({UP, RIGHT}),),
    "c": (frozenset({RIGHT, DOWN}),),
    "z": (frozenset({DOWN, LEFT}),),
}
GLYPHS = "".join(PIECES)
# Tables of the same facts, for the loops an agent's search runs thousands of times a move:
# the cells a piece may go on (is_board_cell), the channel a glyph is entered by from a side
# (channel_through; the channels of `+` share no side), and where that channel leads (exit_of).
BOARD_CELLS: frozenset[Cell] = frozenset(
    (x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) != SOURCE)
CHANNEL_FROM: dict[str, dict[Direction, int]] = {
    glyph: {side: index for index, channel in enumerate(channels) for side in channel}
    for glyph, channels in PIECES.items()}
EXIT: dict[tuple[str, int, Direction], Direction] = {
    (glyph, index, side): next(iter(channel - {side}))
    for glyph, channels in PIECES.items() for index, channel in enumerate(channels)
    for side in channel}
TILE_POINTS = 2
CROSS_BONUS = 5
DESTROY_COST = 3
FIRST_FLOW = 6
FLOW_PERIOD = 3


def flow_time(k: int) -> int:
    """The tick at which the ooze enters tile k (k = 1, 2, ...)."""
    return FIRST_FLOW + FLOW_PERIOD * k


def opposite(d: Direction) -> Direction:
    return (-d[0], -d[1])


def inside(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def is_board_cell(cell: Cell) -> bool:
    """On the board and not the source: a cell a piece may go on and the ooze may enter."""
    return inside(cell) and cell != SOURCE


def step(cell: Cell, d: Direction) -> Cell:
    return (cell[0] + d[0], cell[1] + d[1])


def channel_through(glyph: str, entry: Direction) -> int | None:
    """The index of the piece's channel that has an opening on side `entry`, if any."""
    return CHANNEL_FROM[glyph].get(entry)


def exit_of(glyph: str, channel: int, entry: Direction) -> Direction:
    """The direction the ooze leaves by after entering `channel` from side `entry`."""
    return EXIT[glyph, channel, entry]


@dataclass
class OozeState:
    board: dict[Cell, str] = field(default_factory=dict)
    filled: dict[Cell, set[int]] = field(default_factory=dict)
    head: Cell = SOURCE
    heading: Direction = UP
    clock: int = 0
    score: int = 0
    tiles: int = 0
    leaked: bool = False

    def entered(self, cell: Cell) -> bool:
        return bool(self.filled.get(cell))

    def next_flow(self) -> int:
        return flow_time(self.tiles + 1)


def empty_cells(board: dict[Cell, str]) -> list[Cell]:
    """The cells a piece may go on, in reading order."""
    return [(x, y) for y in range(SIZE) for x in range(SIZE)
            if (x, y) != SOURCE and (x, y) not in board]


def why_not_place(state: OozeState, cell: Cell) -> str | None:
    if not inside(cell):
        return f"{cell} is off the board"
    if cell == SOURCE:
        return "the source cannot be built on"
    if cell in state.board:
        return f"{cell} is not empty"
    return None


def why_not_destroy(state: OozeState, cell: Cell) -> str | None:
    if cell == SOURCE:
        return "the source cannot be destroyed"
    if cell not in state.board:
        return f"{cell} holds no piece"
    if state.entered(cell):
        return f"the ooze has entered {cell}"
    return None


def advance(state: OozeState) -> bool:
    """Move the ooze one tile on. False (and state.leaked) if it cannot: the game ends."""
    target = step(state.head, state.heading)
    entry = opposite(state.heading)
    glyph = state.board.get(target) if is_board_cell(target) else None
    channel = channel_through(glyph, entry) if glyph else None
    if glyph is None or channel is None or channel in state.filled.get(target, set()):
        state.leaked = True
        return False
    state.filled.setdefault(target, set()).add(channel)
    state.score += TILE_POINTS
    if glyph == "+" and len(state.filled[target]) == 2:
        state.score += CROSS_BONUS
    state.tiles += 1
    state.head, state.heading = target, exit_of(glyph, channel, entry)
    return True


@dataclass(frozen=True)
class OpenEnd:
    """Where the pipe needs its next piece: `cell`, entered from side `entry`. `route` is the
    laid pipe the ooze will still follow before it gets there (cell, channel) in order;
    `blocked` says the cell is off the board, the source, or holds a piece that does not fit."""

    cell: Cell
    entry: Direction
    route: tuple[tuple[Cell, int], ...]
    blocked: bool


def open_end(board: dict[Cell, str], filled: dict[Cell, set[int]] | dict[Cell, tuple[int, ...]],
             head: Cell, heading: Direction) -> OpenEnd:
    """Follow the laid pieces from the ooze head to the first cell that still needs a piece."""
    used = {(cell, ch) for cell, chans in filled.items() for ch in chans}
    route: list[tuple[Cell, int]] = []
    (x, y), (dx, dy) = head, heading
    while True:
        target, entry = (x + dx, y + dy), (-dx, -dy)
        if target not in BOARD_CELLS:
            return OpenEnd(target, entry, tuple(route), True)
        glyph = board.get(target)
        if glyph is None:
            return OpenEnd(target, entry, tuple(route), False)
        channel = CHANNEL_FROM[glyph].get(entry)
        if channel is None or (target, channel) in used:
            return OpenEnd(target, entry, tuple(route), True)
        used.add((target, channel))
        route.append((target, channel))
        (x, y), (dx, dy) = target, EXIT[glyph, channel, entry]
