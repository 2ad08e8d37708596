"""UndeadWorld: a static puzzle played as a world, one placed monster per step.

Concepts:
- UndeadObservation: the puzzle (mirrors, givens, totals, clues: all public) and the grid so
  far; a puzzle hides nothing but its solution, which the world never computes.
- UndeadAction: put a monster (G, V, Z) in a cell; `place(r, c, m)` builds one.
"""

from __future__ import annotations

from dataclasses import dataclass

from logic_agents.errors import IllegalAction
from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle, is_solution
from logic_agents.games.undead.sight import MIRRORS
from logic_agents.ground.shapes import Record
from logic_agents.world.base import PlaceAction, PuzzleWorld
from logic_agents.world.core import whole_cell


@dataclass(frozen=True)
class UndeadObservation:
    puzzle: UndeadPuzzle
    cells: str  # W*H over L R . G V Z: the grid so far
    step: int

    @property
    def placed(self) -> dict[int, str]:
        """Every monster on the board now (givens and placements), by cell index."""
        return {i: ch for i, ch in enumerate(self.cells) if ch in MONSTERS}

    def to_json(self) -> Record:
        return {"grid": self.cells, "step": self.step}


@dataclass(frozen=True)
class UndeadAction(PlaceAction):
    """place a monster (G, V or Z) in cell (r, c), written "place R C G"."""

    value: str
    GAME = "undead"
    EXPECTED = "G|V|Z"

    @classmethod
    def value_of(cls, text: str) -> str | None:
        return text if text in MONSTERS else None

    @property
    def monster(self) -> str:
        return self.value


def place(r: int, c: int, monster: str) -> UndeadAction:
    return UndeadAction((r, c), monster)


class UndeadWorld(PuzzleWorld[UndeadObservation, UndeadAction]):
    """Undead as a world.

    ## Description
    Mirrors and given monsters are fixed; the agent puts a ghost, vampire or zombie in every
    other cell so that the totals and every border clue hold.

    ## Actions
    `place (r, c, m)`: put monster m (G, V or Z) in cell (r, c), 0-based; a later placement
    may overwrite an earlier one. Off the board, on a mirror or over a given: IllegalAction.

    ## Observation
    UndeadObservation: the puzzle, the grid so far, the step count.

    ## Rewards
    +1 when the grid is complete and correct, 0 otherwise.

    ## Episode end
    Terminated (won) when the grid is complete and correct (checked by `is_solution`);
    truncated after `max_steps` placements (default 4 per monster cell); the agent may give up.
    """

    game = "an undead"
    action_type = UndeadAction

    puzzle: UndeadPuzzle

    def step_cap(self, puzzle: UndeadPuzzle) -> int:
        return 4 * max(1, len(puzzle.monster_cells))

    def begin(self) -> None:
        self._cells = list(self.puzzle.grid)

    def solved(self) -> bool:
        return is_solution(self.puzzle, "".join(self._cells))

    def apply(self, action: UndeadAction) -> None:
        w, h = self.puzzle.width, self.puzzle.height
        r, c = whole_cell(action.cell, action)
        if not (0 <= r < h and 0 <= c < w):
            raise IllegalAction(f"{action}: off the {w}x{h} board")
        if not (isinstance(action.monster, str) and len(action.monster) == 1
                and action.monster in MONSTERS):
            raise IllegalAction(f"{action}: a monster is G, V or Z")
        here = self.puzzle.grid[r * w + c]
        if here in MIRRORS:
            raise IllegalAction(f"{action}: ({r}, {c}) holds a mirror")
        if here in MONSTERS:
            raise IllegalAction(f"{action}: ({r}, {c}) holds a given {here}")
        self._cells[r * w + c] = action.monster

    def observe(self) -> UndeadObservation:
        return UndeadObservation(self.puzzle, "".join(self._cells), self.steps)
