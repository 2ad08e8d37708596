"""Lights Out as a world (world.base.PuzzleWorld): `press R C` toggles a light and its four
neighbours; the episode is won when every light is out, truncated after 4 presses per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from lights_game.board import OFF, ON, LightsPuzzle, neighbours
from logic_agents.world.base import CellAction, PuzzleWorld


@dataclass(frozen=True)
class LightsAction(CellAction):
    VERBS = ("press",)
    GAME = "lights-out"


def press(r: int, c: int) -> LightsAction:
    return LightsAction("press", (r, c))


@dataclass(frozen=True)
class LightsObservation:
    puzzle: LightsPuzzle
    lights: tuple[str, ...]  # the rows as they are now
    step: int

    def to_json(self) -> dict[str, object]:
        return {"lights": list(self.lights), "step": self.step}


class LightsWorld(PuzzleWorld[LightsObservation, LightsAction]):
    game = "a lights-out"
    action_type = LightsAction

    puzzle: LightsPuzzle

    def step_cap(self, puzzle: LightsPuzzle) -> int:
        return 4 * puzzle.height * puzzle.width

    def begin(self) -> None:
        self._lights = [list(row) for row in self.puzzle.rows]

    def solved(self) -> bool:
        return all(ch == OFF for row in self._lights for ch in row)

    def apply(self, action: LightsAction) -> None:
        h, w = self.puzzle.height, self.puzzle.width
        for r, c in neighbours(h, w, action.checked(h, w)):
            self._lights[r][c] = OFF if self._lights[r][c] == ON else ON

    def observe(self) -> LightsObservation:
        return LightsObservation(self.puzzle, tuple("".join(row) for row in self._lights),
                                 self.steps)


def render(obs: LightsObservation) -> str:
    return f"step {obs.step}\n" + "\n".join(" ".join(row) for row in obs.lights)
