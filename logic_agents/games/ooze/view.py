"""Ooze as tiles and keys (world.view): pipes as box-drawing glyphs, the ooze in colour.

Concepts: board_view(obs) shows the source, the pieces (entered ones filled), the head; the
queue, clock and score are counters. act_at: space places the current piece at the cursor,
f destroys the piece there, w waits a tick.
"""

from __future__ import annotations

from logic_agents.games.ooze.rules import SIZE, SOURCE
from logic_agents.games.ooze.world import OozeAction, OozeObservation
from logic_agents.world import view

PIPES = {"|": "│", "-": "─", "+": "┼", "q": "┘", "e": "└", "c": "┌", "z": "┐"}
PALETTE = {"empty": (view.PAPER, view.INK), "piece": (view.GIVEN, view.INK),
           "ooze": ("#9bd672", "#1e4d12"), "source": ("#5a9e3a", "#ffffff"),
           "head": ("#3d7a24", "#ffffff")}


def board_view(obs: OozeObservation) -> view.BoardView:
    pieces, filled = obs.pieces, dict(obs.filled)
    out = []
    for y in range(SIZE):  # rows are y, columns x: cell (x, y) is tile (y, x)
        for x in range(SIZE):
            cell = (x, y)
            text = "S" if cell == SOURCE else PIPES.get(pieces.get(cell, ""), "")
            kind = ("source" if cell == SOURCE else "head" if cell == tuple(obs.head)
                    else "ooze" if cell in filled else "piece" if cell in pieces else "empty")
            out.append(view.Tile(text, kind))
    return view.BoardView(SIZE, SIZE, tuple(out), PALETTE, counters=(
        ("clock", obs.clock), ("score", obs.score), ("next flow", obs.next_flow),
        ("queue", " ".join(PIPES[p] for p in obs.queue))))


def act_at(obs: OozeObservation, cell: view.Cell, key: str) -> OozeAction | None:
    x_y = (cell[1], cell[0])
    if key == "primary":
        return OozeAction("place", x_y)
    if key == "secondary":
        return OozeAction("destroy", x_y)
    if key == "w":
        return OozeAction("wait")
    return None


def allowed(obs: OozeObservation, action: OozeAction) -> bool:
    """Whether the rules take `action` now (the gym mask's): a place on an empty cell, a
    destroy of a piece the ooze has not entered, a wait; not the source."""
    if action.kind == "wait" or action.cell is None:
        return action.kind == "wait"
    if action.cell == SOURCE:
        return False
    pieces = obs.pieces
    if action.kind == "place":
        return action.cell not in pieces
    return action.cell in pieces and not dict(obs.filled).get(action.cell)


def cells_of(action: OozeAction) -> tuple[view.Cell, ...]:
    return () if action.cell is None else ((action.cell[1], action.cell[0]),)


RULES = ("Lay pipe ahead of the ooze. Each tick you place the current piece of the queue on "
         "an empty cell (space), destroy an unflowed piece for 3 points (f), or wait (w). The "
         "ooze leaves the source going up and enters a new tile every 3 ticks, scoring 2 (a "
         "cross filled both ways 9). The game ends when the ooze reaches an empty cell, a "
         "wall, or a piece it cannot enter; the score is what it flowed through.")


VIEW = view.View(glyphs="S" + "".join(PIPES.values()), board=board_view, cells_of=cells_of,
                 controls=view.Controls(act_at, keys={"w": "wait a tick"}, rules=RULES, alphabet="w",
                                        primary="place the current piece", secondary="destroy",
                                        legal=allowed))
