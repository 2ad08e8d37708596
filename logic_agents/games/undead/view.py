"""Undead as tiles and keys (world.view): the grid inside a frame of border clues.

Concepts: board_view(obs) puts game cell (0, 0) at tile (1, 1), the clues on the frame
(clockwise from the top-left, as the puzzle lists them); act_at: g, v, z place that monster,
space steps a cell through G, V, Z.
"""

from __future__ import annotations

from logic_agents.games.undead.board import MIRRORS, MONSTERS, UndeadPuzzle
from logic_agents.games.undead.world import UndeadAction, UndeadObservation
from logic_agents.world import view

NAMES = {"G": "ghost", "V": "vampire", "Z": "zombie"}
PALETTE = {"frame": (view.PAPER, "#555555"), "mirror": (view.GIVEN, view.INK),
           "empty": (view.PAPER, view.INK), "ghost": ("#dfe9f7", "#2b59c3"),
           "vampire": ("#f7dfe0", "#a93226"), "zombie": ("#e0f2dc", "#2e7d32"),
           "given ghost": ("#b8cdee", "#1b3c87"), "given vampire": ("#eebcc0", "#7b1f17"),
           "given zombie": ("#bfe3b8", "#1b5e20")}
GLYPH = {"L": "\\", "R": "/"}


def frame_tiles(puzzle: UndeadPuzzle) -> dict[view.Cell, str]:
    """The tile of every border clue (frame coordinates: the grid starts at (1, 1))."""
    w, h = puzzle.width, puzzle.height
    where = ([(0, c + 1) for c in range(w)] + [(r + 1, w + 1) for r in range(h)]
             + [(h + 1, w - k) for k in range(w)] + [(h - k, 0) for k in range(h)])
    return {tile: "" if v is None else str(v) for tile, v in zip(where, puzzle.clues)}


def board_view(obs: UndeadObservation) -> view.BoardView:
    p = obs.puzzle
    w, h = p.width, p.height
    clues = frame_tiles(p)
    out = []
    for r in range(h + 2):
        for c in range(w + 2):
            if not (0 < r <= h and 0 < c <= w):
                out.append(view.Tile(clues.get((r, c), ""), "frame"))
                continue
            i = (r - 1) * w + c - 1
            here = obs.cells[i]
            if here in MIRRORS:
                out.append(view.Tile(GLYPH[here], "mirror"))
            elif here in MONSTERS:
                given = "given " if p.grid[i] in MONSTERS else ""
                out.append(view.Tile(here, given + NAMES[here]))
            else:
                out.append(view.Tile("", "empty"))
    placed = [sum(1 for ch in obs.cells if ch == m) for m in "GVZ"]
    return view.BoardView(h + 2, w + 2, tuple(out), PALETTE, origin=(1, 1),
                          counters=tuple((NAMES[m] + "s", f"{n}/{want}")
                                         for m, n, want in zip("GVZ", placed, p.counts)))


def act_at(obs: UndeadObservation, cell: view.Cell, key: str) -> UndeadAction | None:
    r, c = cell
    here = obs.cells[r * obs.puzzle.width + c]
    if key == "primary":
        return UndeadAction(cell, "GVZ"[("GVZ".index(here) + 1) % 3 if here in "GVZ" else 0])
    if key.upper() in MONSTERS:
        return UndeadAction(cell, key.upper())
    return None


VIEW = view.View(
    board=board_view, cells_of=lambda action: (action.cell,),
    controls=view.Controls(act_at, keys={"g v z": "place a ghost, vampire or zombie"},
                           hint_agent="logic", alphabet="gvz",
                           legal=lambda obs, a: obs.puzzle.grid[
                               a.cell[0] * obs.puzzle.width + a.cell[1]] == ".",
                           primary="next monster", secondary="",
                           cells=lambda obs: (obs.puzzle.height, obs.puzzle.width)))
