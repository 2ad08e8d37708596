"""Undead as tiles and keys (world.view): the grid inside a frame of border clues.

Concepts: board_view(obs) puts game cell (0, 0) at tile (1, 1), the clues on the frame
(clockwise from the top-left, as the puzzle lists them), a clue the monsters placed already
break in red (broken_clues, as sgt-puzzles shows it); act_at: g, v, z place that monster,
space steps a cell through G, V, Z.
"""

from __future__ import annotations

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.sight import MIRRORS, seen
from logic_agents.games.undead.world import UndeadAction, UndeadObservation
from logic_agents.world import view

NAMES = {"G": "ghost", "V": "vampire", "Z": "zombie"}
PALETTE = {"frame": (view.PAPER, "#555555"), "mirror": (view.GIVEN, view.INK),
           "empty": (view.PAPER, view.INK), "ghost": ("#dfe9f7", "#2b59c3"),
           "vampire": ("#f7dfe0", "#a93226"), "zombie": ("#e0f2dc", "#2e7d32"),
           "given ghost": ("#b8cdee", "#1b3c87"), "given vampire": ("#eebcc0", "#7b1f17"),
           "given zombie": ("#bfe3b8", "#1b5e20"), "broken clue": ("#fbe3e0", view.BAD)}
GLYPH = {"L": "\\", "R": "/"}


def frame_tiles(puzzle: UndeadPuzzle) -> dict[view.Cell, str]:
    """The tile of every border clue (frame coordinates: the grid starts at (1, 1))."""
    w, h = puzzle.width, puzzle.height
    where = ([(0, c + 1) for c in range(w)] + [(r + 1, w + 1) for r in range(h)]
             + [(h + 1, w - k) for k in range(w)] + [(h - k, 0) for k in range(h)])
    return {tile: "" if v is None else str(v) for tile, v in zip(where, puzzle.clues)}


def broken_clues(obs: UndeadObservation) -> set[int]:
    """The clues the monsters placed so far already break, as sgt-puzzles marks them: more
    monsters seen than the clue says, or a full line of sight that sees fewer."""
    p = obs.puzzle
    broken = set()
    for sight in p.sights:
        want = p.clues[sight.clue]
        if want is None:
            continue
        count = sum(seen(obs.cells[i], bounced) for i, bounced in sight.visits
                    if obs.cells[i] in MONSTERS)
        full = all(obs.cells[i] in MONSTERS for i, _ in sight.visits)
        if count > want or (full and count != want):
            broken.add(sight.clue)
    return broken


def board_view(obs: UndeadObservation) -> view.BoardView:
    p = obs.puzzle
    w, h = p.width, p.height
    clues = frame_tiles(p)
    order = list(clues)  # the frame tiles in clue order
    broken = {order[k] for k in broken_clues(obs)}
    out = []
    for r in range(h + 2):
        for c in range(w + 2):
            if not (0 < r <= h and 0 < c <= w):
                out.append(view.Tile(clues.get((r, c), ""),
                                     "broken clue" if (r, c) in broken else "frame"))
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


RULES = ("Put a monster in every empty cell: a ghost (g), seen only in a mirror; a vampire "
         "(v), seen only directly, before the line of sight bounces; or a zombie (z), always "
         "seen. The counts of each kind are given. A clue on the edge counts the monsters "
         "seen along the line of sight that enters there and bounces off the mirrors until it "
         "leaves (a monster passed twice counts twice). A clue that can no longer hold is "
         "drawn in red.")


VIEW = view.View(
    board=board_view, cells_of=lambda action: (action.cell,), glyphs="".join(GLYPH.values()) + "GVZ",
    controls=view.Controls(act_at, keys={"g v z": "ghost / vampire / zombie"}, rules=RULES,
                           hint_agent="logic", alphabet="gvz",
                           legal=lambda obs, a: obs.puzzle.grid[
                               a.cell[0] * obs.puzzle.width + a.cell[1]] == ".",
                           primary="next monster", secondary="",
                           cells=lambda obs: (obs.puzzle.height, obs.puzzle.width)))
