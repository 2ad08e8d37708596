"""Kakurasu as tiles and keys (world.view): the grid with a frame of clues on the right and
at the bottom; the rows and columns are labelled 1..N, their weights (BoardView.labels)."""

from __future__ import annotations

from kakurasu_game.board import sums
from kakurasu_game.world import KakurasuAction, KakurasuObservation
from logic_agents.world import view

PALETTE = {"shaded": ("#2b2b2b", "#ffffff"), "empty": (view.PAPER, view.INK),
           "clue": (view.GIVEN, view.INK), "met": (view.GOOD, view.INK),
           "over": (view.BAD, "#ffffff"), "corner": (view.PAPER, view.INK)}


def _clue(total: int, clue: int) -> view.Tile:
    return view.Tile(str(clue), "met" if total == clue else "over" if total > clue else "clue")


def board_view(obs: KakurasuObservation) -> view.BoardView:
    p = obs.puzzle
    rows, cols = sums(p, obs.shaded)
    tiles: list[view.Tile] = []
    for r in range(p.height):
        tiles += [view.Tile("■" if (r, c) in obs.shaded else "",
                            "shaded" if (r, c) in obs.shaded else "empty") for c in range(p.width)]
        tiles.append(_clue(rows[r], p.row_clues[r]))
    tiles += [_clue(cols[c], p.col_clues[c]) for c in range(p.width)] + [view.Tile("", "corner")]
    return view.BoardView(p.height + 1, p.width + 1, tuple(tiles), PALETTE,
                          extent=(p.height, p.width), counters=(("moves", obs.step),),
                          labels=(tuple(str(r + 1) for r in range(p.height)),
                                  tuple(str(c + 1) for c in range(p.width))))


def act_at(obs: KakurasuObservation, cell: view.Cell, key: str) -> KakurasuAction | None:
    if key != "primary" or not (0 <= cell[0] < obs.puzzle.height
                                and 0 <= cell[1] < obs.puzzle.width):
        return None
    return KakurasuAction("clear" if cell in obs.shaded else "shade", cell)


RULES = ("Shade cells so that, in each row, the shaded cells' column numbers add up to the "
         "clue on the right, and in each column their row numbers add up to the clue below. "
         "Rows and columns are numbered from 1 along the edges.")

VIEW = view.View(glyphs="■", board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, primary="shade / clear", secondary="",
                                        rules=RULES))
