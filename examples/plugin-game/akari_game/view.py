"""Akari as tiles and keys (logic_agents.world.view): walls, bulbs, lit cells.

Concepts: board_view draws walls (with their numbers), bulbs and the cells they light, and in
red what breaks the rules (a numbered wall with more bulbs beside it than its number, bulbs
that light each other); act_at: space puts a bulb on the cursor cell or takes it away.
"""

from __future__ import annotations

from akari_game.world import AkariAction, AkariObservation
from logic_agents.world import view

PALETTE = {"wall": ("#2b2b2b", "#ffffff"), "dark": (view.PAPER, view.INK),
           "lit": ("#fff3b0", view.INK), "bulb": ("#ffd43b", "#7a4d00"),
           "broken wall": ("#2b2b2b", view.BAD), "broken bulb": (view.BAD, "#ffffff")}


def board_view(obs: AkariObservation) -> view.BoardView:
    puzzle = obs.puzzle
    lit: set[tuple[int, int]] = set()
    for bulb in obs.bulbs:
        lit |= puzzle.seen_from(bulb) | {bulb}
    over = {cell for cell, k in puzzle.numbered()
            if sum(n in obs.bulbs for n in puzzle.neighbours(cell)) > k}
    crossed = {b for b in obs.bulbs if puzzle.seen_from(b) & set(obs.bulbs)}
    out = []
    for r, row in enumerate(puzzle.rows):
        for c, ch in enumerate(row):
            if ch != ".":
                out.append(view.Tile("" if ch == "#" else ch,
                                     "broken wall" if (r, c) in over else "wall"))
            elif (r, c) in obs.bulbs:
                out.append(view.Tile("●", "broken bulb" if (r, c) in crossed else "bulb"))
            else:
                out.append(view.Tile("", "lit" if (r, c) in lit else "dark"))
    whites = puzzle.whites()
    return view.BoardView(puzzle.height, puzzle.width, tuple(out), PALETTE, counters=(
        ("bulbs", len(obs.bulbs)), ("lit", f"{sum(1 for c in whites if c in lit)}/{len(whites)}")))


def act_at(obs: AkariObservation, cell: view.Cell, key: str) -> AkariAction | None:
    if key == "primary" and obs.puzzle.is_white(cell):
        return AkariAction("clear" if cell in obs.bulbs else "bulb", cell)
    return None


RULES = ("Put bulbs on white cells so that every white cell is lit. A bulb lights its row "
         "and column until a wall; no bulb may light another. A numbered wall has exactly "
         "that many bulbs beside it (up, down, left, right).")

VIEW = view.View(glyphs="●", board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, primary="bulb on / off", secondary="",
                                        rules=RULES))
