"""Sudoku as tiles and keys (world.view): givens, placed values, box lines; digits place.

Concepts: board_view(obs) draws the grid with its boxes; act_at maps a key at the cursor to a
placement (a value's symbol places it, space steps the cell's value up by one).
"""

from __future__ import annotations

from logic_agents.games.sudoku.board import symbol
from logic_agents.games.sudoku.world import SudokuAction, SudokuObservation
from logic_agents.world import view

PALETTE = {"given": (view.GIVEN, view.INK), "placed": (view.PAPER, view.ACCENT),
           "empty": (view.PAPER, view.INK)}


def board_view(obs: SudokuObservation) -> view.BoardView:
    n = obs.n
    box = round(n ** 0.5)
    cells = tuple(
        view.Tile(symbol(v) if v else "", "given" if given else "placed" if v else "empty")
        for v, given in zip(obs.cells, obs.givens))
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


VIEW = view.View(board=board_view, cells_of=lambda action: (action.cell,),
                 controls=view.Controls(act_at, keys={"1-9, A-P": "place that value"},
                                        primary="next value", secondary="", hint_agent="logic",
                                        alphabet="123456789ABCDEFGHIJKLMNOP",
                                        legal=lambda obs, a: not obs.givens[
                                            a.cell[0] * obs.n + a.cell[1]]))
