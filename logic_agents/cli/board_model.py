"""A model drawn on its game's board, for `inspect --solve` on a file `logic-agents cnf` wrote.

Concepts: the header's `c game NAME` and `c map|puzzle NAME (PATH)` lines name the game and
the instance; the board is the game's View of the instance at its start; every true
variable named by the shared convention `<KIND>_r<row>c<col>[_v<value>]` (docs/FORMATS.md,
0-based) marks its cell with the value, else the kind (D a dagger, G a ghost, P the path).
A board over DRAW_LIMIT cells is not drawn (no terminal shows it, and making it is slow).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Protocol, runtime_checkable

from logic_agents.cli.common import load_one
from logic_agents.display.terminal import board_text
from logic_agents.errors import LogicAgentsError
from logic_agents.world.registry import get_game
from logic_agents.world.view import Tile, View

# a cell's name; numbers past 6 digits name no cell of any board (and a 5,000-digit one
# would pass Python's limit on int conversion), so such a name is simply not drawn
NAME = re.compile(r"([A-Za-z]+)_r(\d{1,6})c(\d{1,6})(?:_v(\d{1,6}))?")
SOURCE = re.compile(r"(?:map|puzzle|instance) (\S+)(?: \((.+)\))?$")


DRAW_LIMIT = 40_000  # cells (200 x 200); a larger board is not drawn


@runtime_checkable
class Sized2D(Protocol):
    """An instance that says its height and width (world.base.GridShape does)."""

    @property
    def height(self) -> int: ...
    @property
    def width(self) -> int: ...


def _cells(instance: object) -> int | None:
    """The instance's cell count, where it says its height and width."""
    if isinstance(instance, Sized2D) and isinstance(instance.height, int) and \
            isinstance(instance.width, int):
        return instance.height * instance.width
    return None


def header(comments: list[str]) -> tuple[str, list[str]] | None:
    """(game, references to try: the path first, then the name), or None."""
    game = next((c.split(None, 1)[1] for c in comments if c.startswith("game ")), None)
    source = next((m for c in comments if (m := SOURCE.match(c))), None)
    if game is None or source is None:
        return None
    name, path = source.group(1), source.group(2)
    return game, [r for r in (path, name) if r]


def model_board(comments: list[str], model: dict[str, bool]) -> tuple[Any, str] | None:
    """(rich Text of the board with the model's marks, what was drawn), or None when the
    header names no game, the game has no View, or the instance cannot be found."""

    found = header(comments)
    if found is None:
        return None
    game, references = found
    try:
        spec = get_game(game)
    except LogicAgentsError:
        return None
    view = spec.get(View)
    if view is None:
        return None
    instance = None
    for reference in references:
        try:
            instance = load_one(reference, spec)[1]
            break
        except LogicAgentsError:
            continue
    if instance is None:
        return None
    cells = _cells(instance)
    if cells is not None and cells > DRAW_LIMIT:  # wider than any terminal, and slow to make
        return None
    board = view.board(spec.make_world(instance).reset(seed=0)[0])
    marks: dict[tuple[int, int], str] = {}
    for name, value in model.items():
        m = NAME.fullmatch(name)
        if value and m:
            kind, row, col, v = m.groups()
            marks[(int(row), int(col))] = v if v is not None else kind
    tiles = list(board.tiles)
    for cell, text in marks.items():
        tile = board.tile_of(cell)
        if tile is not None:
            i = tile[0] * board.cols + tile[1]
            tiles[i] = Tile(tiles[i].text or text, tiles[i].kind)
    drawn = dataclasses.replace(board, tiles=tuple(tiles))
    why = "" if marks or not any(model.values()) else (
        ": no true variable is named by a cell, as <KIND>_r<row>c<col>[_v<value>] (0-based) "
        "names one; docs/write-a-game.md, `cnf`")
    return (board_text(drawn, proof=list(marks)),
            f"the model on {spec.name} {instance.name} at its start ({len(marks)} cells "
            f"marked{why})")
