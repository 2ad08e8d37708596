"""Akari as a world: the agent places and removes bulbs until the rules hold.

Actions: `bulb R C` puts a bulb on a white cell, `clear R C` takes one away (0-based row and
column). Off the board, on a wall, a bulb where one stands or a clear where none stands:
IllegalAction. The episode is won when the bulbs solve the puzzle (is_solution), truncated
after 4 actions per white cell; reward +1 on the win.
"""

from __future__ import annotations

from dataclasses import dataclass

from akari_game.board import AkariPuzzle, Cell, is_solution, render
from logic_agents.errors import IllegalAction
from logic_agents.world.base import CellAction, PuzzleWorld


@dataclass(frozen=True)
class AkariAction(CellAction):
    """bulb / clear a cell, written "bulb R C": CellAction gives the codec and the checks."""

    VERBS = ("bulb", "clear")
    GAME = "akari"


@dataclass(frozen=True)
class AkariObservation:
    puzzle: AkariPuzzle
    bulbs: frozenset[Cell]
    step: int

    def to_json(self) -> dict[str, object]:
        return {"bulbs": sorted(map(list, self.bulbs)), "step": self.step}


class AkariWorld(PuzzleWorld[AkariObservation, AkariAction]):
    game = "an akari"
    action_type = AkariAction

    puzzle: AkariPuzzle

    def step_cap(self, puzzle: AkariPuzzle) -> int:
        return 4 * max(1, len(puzzle.whites()))

    def begin(self) -> None:
        self._bulbs: set[Cell] = set()

    def solved(self) -> bool:
        return is_solution(self.puzzle, self._bulbs)

    def apply(self, action: AkariAction) -> None:
        cell = action.checked(self.puzzle.height, self.puzzle.width)
        if not self.puzzle.is_white(cell):
            raise IllegalAction(f"{action}: not a white cell of the board")
        if action.kind == "bulb" and cell in self._bulbs:
            raise IllegalAction(f"{action}: a bulb stands there already")
        if action.kind == "clear" and cell not in self._bulbs:
            raise IllegalAction(f"{action}: no bulb stands there")
        (self._bulbs.add if action.kind == "bulb" else self._bulbs.discard)(cell)

    def observe(self) -> AkariObservation:
        return AkariObservation(self.puzzle, frozenset(self._bulbs), self.steps)



def render_observation(obs: AkariObservation) -> str:
    return f"step {obs.step}\n" + render(obs.puzzle, obs.bulbs)
