"""Kakurasu as a world (world.base.PuzzleWorld): `shade R C` and `clear R C` (0-based, as
every action of the framework); the episode is won when every row's and every column's
shaded weights meet their clues, truncated after 3 moves per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from kakurasu_game.board import Cell, KakurasuPuzzle, is_solution, sums
from logic_agents.world.base import CellAction, PuzzleWorld


@dataclass(frozen=True)
class KakurasuAction(CellAction):
    VERBS = ("shade", "clear")
    GAME = "kakurasu"


@dataclass(frozen=True)
class KakurasuObservation:
    puzzle: KakurasuPuzzle
    shaded: frozenset[Cell]
    step: int

    def to_json(self) -> dict[str, object]:
        return {"shaded": sorted(map(list, self.shaded)), "step": self.step}


class KakurasuWorld(PuzzleWorld[KakurasuObservation, KakurasuAction]):
    game = "a kakurasu"
    action_type = KakurasuAction

    puzzle: KakurasuPuzzle

    def step_cap(self, puzzle: KakurasuPuzzle) -> int:
        return 3 * puzzle.height * puzzle.width

    def begin(self) -> None:
        self._shaded: set[Cell] = set()

    def solved(self) -> bool:
        return is_solution(self.puzzle, frozenset(self._shaded))

    def apply(self, action: KakurasuAction) -> None:
        cell = action.checked(self.puzzle.height, self.puzzle.width)
        if action.kind == "shade":
            self._shaded.add(cell)
        else:
            self._shaded.discard(cell)

    def observe(self) -> KakurasuObservation:
        return KakurasuObservation(self.puzzle, frozenset(self._shaded), self.steps)


def render(obs: KakurasuObservation) -> str:
    """The grid (# shaded), each row's sum so far / its clue, then each column's."""
    rows, cols = sums(obs.puzzle, obs.shaded)
    lines = [f"step {obs.step}"]
    for r in range(obs.puzzle.height):
        cells = " ".join("#" if (r, c) in obs.shaded else "." for c in range(obs.puzzle.width))
        lines.append(f"{cells}  {rows[r]}/{obs.puzzle.row_clues[r]}")
    lines.append(" ".join(f"{s}/{k}" for s, k in zip(cols, obs.puzzle.col_clues)))
    return "\n".join(lines)
