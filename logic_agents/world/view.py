"""Boards as pictures and keys: one description of a board that every viewer draws.

Concepts:
- Tile: one square as drawn: its text and its kind (a style name the palette colours);
- BoardView: rows x cols tiles (row-major), a palette (kind -> fill and ink colours), box
  lines every (h, w) tiles (Sudoku), a shift per row (hex boards), where game cell (0, 0) sits
  among the tiles (Undead's clue frame puts it at (1, 1)), and the counters the observation
  shows (lives, score). The HTML page (`view`), the terminal (human play, `play --delay`) and
  `inspect` all draw a BoardView, so a game that gives one is shown everywhere;
- Controls: how a person plays it: the keys beyond the shared ones (arrows move the cursor,
  space probes or places, f flags or marks, u undoes, h asks for a hint, q quits) and
  `act(obs, cell, key)`, the action a key means at the cursor. `arrows_act`: the arrows are
  moves (Mazes) rather than the cursor;
- View: the capability a game declares: `board(obs)`, `cells_of(action)` (the cells an
  action touches, to highlight the last move) and Controls (None: not playable by hand).

Cells are (row, column), 0-based, in the game's own board; `tile_of` adds the origin. Every
viewer labels the rows and columns with these numbers (`row_label`, `col_label`), the same
base as the actions, reasons and CNF names (docs/FORMATS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from logic_agents.errors import ContractError
from logic_agents.ground.shapes import Record
from logic_agents.world.core import Why

Cell = tuple[int, int]
Obs = TypeVar("Obs")  # a game's observation
Act = TypeVar("Act")  # a game's action

# colours a game may name in its palette; any CSS colour works in the page, and the terminal
# takes the same "#rrggbb" strings
INK = "#1b1b1b"
PAPER = "#f7f5ef"
COVERED = "#b9c3cf"
GIVEN = "#e4e0d5"
MARK = "#f2c94c"
BAD = "#e05a47"
GOOD = "#7cc17a"
ACCENT = "#4a7bd1"


@dataclass(frozen=True)
class Tile:
    """One square: `text` (a short label, may be empty) and `kind` (a palette key)."""

    text: str = ""
    kind: str = ""


@dataclass(frozen=True)
class BoardView:
    """What every viewer draws: rows x cols Tiles, their colours, boxes and labels."""

    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    palette: dict[str, tuple[str, str]] = field(default_factory=dict)  # kind -> (fill, ink)
    boxes: tuple[int, int] | None = None  # thick lines every (h, w) tiles
    row_shift: tuple[float, ...] = ()  # per row, in tiles (hex boards)
    origin: Cell = (0, 0)  # the tile of game cell (0, 0)
    counters: tuple[tuple[str, object], ...] = ()  # what the observation shows: lives, score
    # the game's own rows and columns (default: the tiles less a frame as wide on both sides
    # as the origin, as Undead's clue frame is); the boards' labels number these, from 0
    extent: tuple[int, int] | None = None
    # the texts of the game's rows and of its columns along the edges (default: their 0-based
    # numbers, the base of the actions and CNF names); Kakurasu numbers them from 1, as its
    # weights are
    labels: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        """A board's labels name each of the game's rows and columns once."""
        if self.labels is not None:
            rows, cols = self.game_size()
            if len(self.labels) != 2 or (len(self.labels[0]), len(self.labels[1])) != (rows, cols):
                raise ContractError(f"a BoardView's labels are (row texts, column texts) for its "
                                    f"{rows} x {cols} game cells, not "
                                    f"{tuple(map(len, self.labels))} texts")

    def game_size(self) -> tuple[int, int]:
        """(rows, columns) of game cells, which the row and column labels number."""
        if self.extent is not None:
            return self.extent
        return (self.rows - 2 * self.origin[0], self.cols - 2 * self.origin[1])

    def row_label(self, tile_row: int) -> str:
        """The label of a row of tiles: its game row's text, "" on a frame row.

        The text is the row's 0-based number unless the board gives `labels`.
        """
        row = tile_row - self.origin[0]
        if not 0 <= row < self.game_size()[0]:
            return ""
        return self.labels[0][row] if self.labels is not None else str(row)

    def col_label(self, tile_col: int) -> str:
        """The label of a column of tiles: its game column's text, "" on a frame column.

        The text is the column's 0-based number unless the board gives `labels`.
        """
        col = tile_col - self.origin[1]
        if not 0 <= col < self.game_size()[1]:
            return ""
        return self.labels[1][col] if self.labels is not None else str(col)

    def tile(self, row: int, col: int) -> Tile:
        """The tile at a picture position."""
        return self.tiles[row * self.cols + col]

    def tile_of(self, cell: Sequence[int]) -> Cell | None:
        """The tile of a game cell, None if it is off the picture."""
        r, c = int(cell[0]) + self.origin[0], int(cell[1]) + self.origin[1]
        return (r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None

    def colours(self, kind: str) -> tuple[str, str]:
        """(fill, ink) of a kind of tile."""
        return self.palette.get(kind, (PAPER, INK))

    def to_json(self) -> Record:
        """The board's shape, labels and palette as the game page reads them."""
        return {"rows": self.rows, "cols": self.cols, "boxes": self.boxes,
                "row_labels": [self.row_label(r) for r in range(self.rows)],
                "col_labels": [self.col_label(c) for c in range(self.cols)],
                "row_shift": list(self.row_shift), "origin": list(self.origin),
                "palette": {k: list(v) for k, v in self.palette.items()}}


@dataclass(frozen=True)
class Controls(Generic[Obs, Act]):
    """How a person plays a game.

    `keys` maps a key to what it does (shown in the help line), beyond the shared ones;
    `act(obs, cell, key)` is the action for a key at the cursor cell, or None. The shared
    keys reach `act` as "primary" (space, enter) and "secondary" (f); with `arrows_act` the
    arrows reach it as "up", "down", "left", "right".
    """

    act: Callable[[Obs, Cell, str], Act | None]
    keys: dict[str, str] = field(default_factory=dict)
    primary: str = "probe or place"
    secondary: str = "flag or mark"
    arrows_act: bool = False
    cursor: Callable[[Obs], Cell] | None = None  # where the cursor starts (default (0, 0))
    cells: Callable[[Obs], tuple[int, int]] | None = None  # (rows, cols) the cursor may visit
    hint_agent: str = ""  # the agent `h` asks for a hint (default: the game's default agent)
    # the characters that act beyond primary, secondary and the arrows (Sudoku's digits):
    # what a Gymnasium action may press (logic_agents.gym)
    alphabet: str = ""
    # whether the world accepts an action here: the Gymnasium action mask; a person pressing a
    # key anyway still hears the world's reason (default: every action `act` gives)
    legal: Callable[[Obs, Act], bool] = lambda obs, action: True
    # the rules as a person reads them before a first move (human play's `?` screen); empty:
    # the game's description
    rules: str = ""


@dataclass(frozen=True)
class View(Generic[Obs, Act]):
    """What a game shows: its board from an observation, an action's cells, its controls."""

    board: Callable[[Obs], BoardView]
    cells_of: Callable[[Act], Sequence[Cell]] = lambda action: ()
    controls: Controls[Obs, Act] | None = None
    # the characters a tile or a counter may show beyond the digits (numbers are read as
    # numbers): a Gymnasium observation gives each its index (logic_agents.gym)
    glyphs: str = ""


def cells_in(why: object) -> tuple[Cell, ...]:
    """The cells a why names (a plain str names none)."""
    return tuple((c[0], c[1]) for c in why.cells) if isinstance(why, Why) else ()
