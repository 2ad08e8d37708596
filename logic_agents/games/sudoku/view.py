"""Sudoku as tiles and keys (world.view): givens, placed values, box lines; digits place.

Concepts: board_view(obs) draws the grid with its boxes, a value that repeats in a row,
column or box in red (clashes); act_at maps a key at the cursor to a
placement (a value's symbol places it, space steps the cell's value up by one).
"""

from __future__ import annotations

from logic_agents.games.sudoku.board import symbol
from logic_agents.games.sudoku.world import SudokuAction, SudokuObservation
from logic_agents.world import view

PALETTE = {"given": (view.GIVEN, view.INK), "placed": (view.PAPER, view.ACCENT),
           "empty": (view.PAPER, view.INK), "clash": ("#fbe3e0", view.BAD),
           "given clash": ("#f1c6c0", view.BAD)}


def clashes(obs: SudokuObservation) -> set[int]:
    """The cells whose value repeats in their row, column or box (drawn red, as sgt-puzzles'
    Solo marks them)."""
    n = obs.n
    box = round(n ** 0.5)
    seen: dict[tuple[str, int, int], list[int]] = {}
    for i, v in enumerate(obs.cells):
        if v:
            r, c = divmod(i, n)
            for unit in (("row", r, v), ("col", c, v), ("box", r // box * box + c // box, v)):
                seen.setdefault(unit, []).append(i)
    return {i for cells in seen.values() if len(cells) > 1 for i in cells}


def board_view(obs: SudokuObservation) -> view.BoardView:
    n = obs.n
    box = round(n ** 0.5)
    bad = clashes(obs)
    cells = tuple(
        view.Tile(symbol(v) if v else "",
                  ("given clash" if given else "clash") if i in bad
                  else "given" if given else "placed" if v else "empty")
        for i, (v, given) in enumerate(zip(obs.cells, obs.givens)))
    return view.BoardView(n, n, cells, PALETTE, boxes=(box, box),
                          counters=(("filled", sum(1 for v in obs.cells if v)),
                                    ("cells", n * n)))


def act_at(obs: SudokuObservation, cell: view.Cell, key: str) -> SudokuAction | None:
    n = obs.n
    r, c = cell
    if key == "primary":
        return SudokuAction(cell, obs.cells[r * n + c] % n + 1)
    if len(key) == 1 and key.isalnum():
        value = int(key) if key.isdigit() else ord(key.upper()) - ord("A") + 10
        return SudokuAction(cell, value) if 1 <= value <= n else None
    return None


RULES = ("Fill the grid so that every row, every column and every box holds each value "
         "once (1-9 on 9x9; 1-9 then A, B, ... on larger grids). The givens stay. A value "
         "that repeats in its row, column or box is drawn in red.")


VIEW = view.View(glyphs="ABCDEFGHIJKLMNOP", board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, keys={"1-9, A-P": "place that value"}, rules=RULES,
                                        primary="next value", secondary="", hint_agent="logic",
                                        alphabet="123456789ABCDEFGHIJKLMNOP",
                                        legal=lambda obs, a: not obs.givens[
                                            a.cell[0] * obs.n + a.cell[1]]))
