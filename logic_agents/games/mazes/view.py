"""Exactly One Mazes as tiles and keys (world.view): shapes in colour, the path, the walker.

Concepts: board_view(obs) colours each shape's cells and draws the path as arrows; the arrow
keys walk (Controls.arrows_act), so the cursor is the walker.
"""

from __future__ import annotations

from logic_agents.games.mazes.world import MazeAction, MazeObservation, legal_moves
from logic_agents.world import view

SHAPE_COLOURS = ("#f4d6a0", "#c9e4c5", "#cfd8f2", "#f2cfe0", "#d9d2f0", "#f0e3b5", "#bfe5e8",
                 "#f2d4c4")
PALETTE = {"free": (view.PAPER, "#9a9a9a"), "path": (view.ACCENT, "#ffffff"),
           "walker": ("#1f3f7a", "#ffffff"), "end": (view.GIVEN, view.INK),
           **{f"shape{k}": (colour, view.INK) for k, colour in enumerate(SHAPE_COLOURS)}}
ARROWS = {(-1, 0): "↑", (1, 0): "↓", (0, -1): "←", (0, 1): "→"}


def board_view(obs: MazeObservation) -> view.BoardView:
    board = obs.board
    path = [tuple(c) for c in obs.path]
    arrow = {a: ARROWS[(b[0] - a[0], b[1] - a[1])] for a, b in zip(path, path[1:])}
    out = []
    for r in range(board.height):
        for c in range(board.width):
            k = board.shape_at((r, c))
            label = ("S" if (r, c) == board.start else "F" if (r, c) == board.finish
                     else str(k) if k else "")
            if (r, c) == obs.walker:
                out.append(view.Tile("●", "walker"))
            elif (r, c) in arrow:
                out.append(view.Tile(arrow[(r, c)], "path"))
            elif label in ("S", "F"):
                out.append(view.Tile(label, "end"))
            else:
                out.append(view.Tile(label, f"shape{k % len(SHAPE_COLOURS)}" if k else "free"))
    return view.BoardView(board.height, board.width, tuple(out), PALETTE,
                          counters=(("shapes crossed",
                                     f"{len(obs.crossed)}/{len(board.shapes)}"),))


def act_at(obs: MazeObservation, cell: view.Cell, key: str) -> MazeAction | None:
    if key == "u":  # human play undoes before it asks; a Gymnasium action undoes through here
        return MazeAction("undo")
    return MazeAction(key) if key in ("up", "down", "left", "right") else None


def moved_to(action: MazeAction) -> tuple[view.Cell, ...]:
    return ()  # a move names a direction, not a cell: the walker tile shows where it went


RULES = ("Walk from the lower-left corner to the upper-right one with the arrows, never "
         "using a cell twice, passing through exactly one cell of every numbered shape. Free "
         "cells need not all be visited; u takes a step back.")


VIEW = view.View(glyphs="●↑↓←→SF", board=board_view, cells_of=moved_to,
                 controls=view.Controls(act_at, primary="", secondary="", arrows_act=True, rules=RULES,
                                        alphabet="u",
                                        legal=lambda obs, a: a.move in legal_moves(obs.board,
                                                                                   obs.path),
                                        cursor=lambda obs: obs.walker))
