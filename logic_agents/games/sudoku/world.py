"""SudokuWorld: a static puzzle played as a world, one placed value per step.

Concepts:
- SudokuObservation: the grid so far (0 = empty) and which cells are givens; everything a
  solver may know, since a Sudoku hides nothing but its solution.
- SudokuAction: place value v in cell (r, c); `place(r, c, v)` builds one.
"""

from __future__ import annotations

from dataclasses import dataclass

from logic_agents.errors import IllegalAction
from logic_agents.games.sudoku.board import Grid, SudokuPuzzle, is_solution, symbol, value_of
from logic_agents.ground.shapes import Record
from logic_agents.world.base import PlaceAction, PuzzleWorld
from logic_agents.world.core import whole_cell
from logic_agents.world.view import Cell


@dataclass(frozen=True)
class SudokuObservation:
    n: int
    cells: Grid
    givens: tuple[bool, ...]
    step: int

    def at(self, cell: Cell) -> int:
        return self.cells[cell[0] * self.n + cell[1]]

    def to_json(self) -> Record:
        return {"grid": "".join(symbol(v) for v in self.cells), "step": self.step}


@dataclass(frozen=True)
class SudokuAction(PlaceAction):
    """place value v in cell (r, c), written "place R C V" (V: 1-9, then A for 10, ...)."""

    value: int
    GAME = "sudoku"

    @classmethod
    def symbol(cls, value: int) -> str:
        return symbol(value)

    @classmethod
    def value_of(cls, text: str) -> int | None:
        return value_of(text)


def place(r: int, c: int, v: int) -> SudokuAction:
    return SudokuAction((r, c), v)


class SudokuWorld(PuzzleWorld[SudokuObservation, SudokuAction]):
    """Sudoku N x N as a world.

    ## Description
    The puzzle's givens are fixed; the agent fills the other cells.

    ## Actions
    `place (r, c, v)`: write value v (1..N) in a cell that is not a given; a later placement
    may overwrite an earlier one. Off the board, over a given, or out of range: IllegalAction.

    ## Observation
    SudokuObservation: the grid so far, the givens, the step count.

    ## Rewards
    +1 when the grid is complete and correct, 0 otherwise.

    ## Episode end
    Terminated (won) when the grid is complete and correct (checked by `is_solution`);
    truncated after `max_steps` placements (default 4 per cell); the agent may give up.
    """

    game = "a sudoku"
    action_type = SudokuAction

    puzzle: SudokuPuzzle

    def step_cap(self, puzzle: SudokuPuzzle) -> int:
        return 4 * puzzle.n * puzzle.n

    def begin(self) -> None:
        self._cells = list(self.puzzle.cells)

    def solved(self) -> bool:
        return is_solution(self.puzzle, tuple(self._cells))

    def apply(self, action: SudokuAction) -> None:
        n = self.puzzle.n
        r, c = whole_cell(action.cell, action)
        if not (0 <= r < n and 0 <= c < n):
            raise IllegalAction(f"{action}: off the {n}x{n} board")
        if isinstance(action.value, bool) or not isinstance(action.value, int) \
                or not 1 <= action.value <= n:
            raise IllegalAction(f"{action}: values run 1-{symbol(n)}")
        if self.puzzle.cells[r * n + c]:
            raise IllegalAction(f"{action}: r{r}c{c} is a given")
        self._cells[r * n + c] = action.value

    def observe(self) -> SudokuObservation:
        return SudokuObservation(self.puzzle.n, tuple(self._cells),
                                 tuple(v != 0 for v in self.puzzle.cells), self.steps)
