"""Ooze agents.

Concepts:
- GreedyOozeAgent (greedy): if the current piece fits the pipe's open end (found by following
  the laid pieces from the ooze head), place it there; otherwise park it on the empty cell
  farthest from the open end. Never destroys.
"""

from __future__ import annotations

import random

from logic_agents.games.ooze.rules import (
    PIECES,
    Direction,
    channel_through,
    empty_cells,
    exit_of,
    is_board_cell,
    open_end,
    step,
)
from logic_agents.games.ooze.world import OozeAction, OozeObservation
from logic_agents.world.view import Cell


def fits(glyph: str, cell: Cell, entry: Direction) -> bool:
    """The piece takes the ooze in from `entry` and sends it on to a cell of the board."""
    channel = channel_through(glyph, entry)
    if channel is None:
        return False
    onward = step(cell, exit_of(glyph, channel, entry))
    return is_board_cell(onward)


class GreedyOozeAgent:
    name = "greedy"

    def __init__(self) -> None:
        self.rng = random.Random()

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: OozeObservation) -> OozeAction:
        piece = obs.queue[0]
        assert piece in PIECES
        end = open_end(obs.pieces, dict(obs.filled), obs.head, obs.heading)
        if not end.blocked and fits(piece, end.cell, end.entry):
            return OozeAction("place", end.cell)
        free = [c for c in empty_cells(obs.pieces) if c != end.cell]
        if not free:
            return OozeAction("wait")
        far = max(abs(c[0] - end.cell[0]) + abs(c[1] - end.cell[1]) for c in free)
        return OozeAction("place", self.rng.choice(
            [c for c in free if abs(c[0] - end.cell[0]) + abs(c[1] - end.cell[1]) == far]))
