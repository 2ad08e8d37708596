"""Akari as a world: the agent places and removes bulbs until the rules hold.

Actions: `bulb R C` puts a bulb on a white cell, `clear R C` takes one away (0-based row and
column). Off the board, on a wall, a bulb where one stands or a clear where none stands:
IllegalAction. The episode is won when the bulbs solve the puzzle (is_solution), truncated
after 4 actions per white cell; reward +1 on the win.
"""

from __future__ import annotations

from dataclasses import dataclass

from akari_game.board import AkariPuzzle, Cell, is_solution, render
from logic_agents.errors import FormatError, IllegalAction
from logic_agents.inputs import int_or_none


@dataclass(frozen=True)
class AkariAction:
    verb: str  # "bulb" or "clear"
    cell: Cell

    def __str__(self) -> str:
        return f"{self.verb} {self.cell[0]} {self.cell[1]}"

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def from_json(cls, text: str) -> AkariAction:
        parts = str(text).split()
        if (len(parts) != 3 or parts[0] not in ("bulb", "clear")
                or int_or_none(parts[1], False) is None or int_or_none(parts[2], False) is None):
            raise FormatError(f"not an akari action: {text!r} (expected 'bulb R C' or 'clear R C')")
        return cls(parts[0], (int(parts[1]), int(parts[2])))


@dataclass(frozen=True)
class AkariObservation:
    puzzle: AkariPuzzle
    bulbs: frozenset[Cell]
    step: int

    def to_json(self) -> dict:
        return {"bulbs": sorted(map(list, self.bulbs)), "step": self.step}


class AkariWorld:
    def __init__(self, puzzle: AkariPuzzle, *, max_steps: int | None = None):
        self.puzzle = puzzle
        self.max_steps = max_steps or 4 * max(1, len(puzzle.whites()))
        self._done = True

    def hidden_state(self) -> None:
        return None  # a puzzle hides nothing but its solution, which the world never holds

    def reset(self, *, seed: int | None = None) -> tuple[AkariObservation, dict]:
        self._bulbs: set[Cell] = set()
        self._steps = 0
        won = is_solution(self.puzzle, self._bulbs)
        self._done = won
        return self._observe(), {"terminated": won, "won": won}

    def step(self, action: AkariAction) -> tuple[AkariObservation, float, bool, bool, dict]:
        if self._done:
            raise IllegalAction("the episode has ended; call reset()")
        if not isinstance(action, AkariAction) or action.verb not in ("bulb", "clear"):
            raise IllegalAction(f"not an akari action: {action!r}")
        if not self.puzzle.is_white(action.cell):
            raise IllegalAction(f"{action}: not a white cell of the board")
        if action.verb == "bulb" and action.cell in self._bulbs:
            raise IllegalAction(f"{action}: a bulb stands there already")
        if action.verb == "clear" and action.cell not in self._bulbs:
            raise IllegalAction(f"{action}: no bulb stands there")
        (self._bulbs.add if action.verb == "bulb" else self._bulbs.discard)(action.cell)
        self._steps += 1
        won = is_solution(self.puzzle, self._bulbs)
        truncated = not won and self._steps >= self.max_steps
        self._done = won or truncated
        return self._observe(), 1.0 if won else 0.0, won, truncated, {"won": won}

    def _observe(self) -> AkariObservation:
        return AkariObservation(self.puzzle, frozenset(self._bulbs), self._steps)


def render_observation(obs: AkariObservation) -> str:
    return f"step {obs.step}\n" + render(obs.puzzle, obs.bulbs)
