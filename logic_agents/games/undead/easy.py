"""Easy puzzles made the game's way round: its deduction first, and no SAT call.

Concepts:
- A puzzle the game's deduction (difficulty.deduce) decides completely has one solution:
  a pass only takes away monsters that no assignment of a line of sight allows, so what it
  leaves in every cell is forced. An easy puzzle (decided within EASY_PASSES passes) needs
  no uniqueness proof and no SAT solver.
- draw_easy(width, height, grid, rng): random monsters on a mirror layout; while the first
  EASY_PASSES passes leave cells undecided, those cells are drawn again (up to EASY_ROUNDS
  times). The layout's sights and paths are traced once; a redraw recounts the clues only.
  generate.generate_puzzle asks it for `--difficulty easy`: on 7x7 it makes a puzzle in
  about 5 deductions, where the SAT repair and the rating of each repaired puzzle took about
  16 layouts and 0.24 s (docs/BENCHMARKS.md, "Undead beside the real game").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from logic_agents.games.undead.board import EMPTY, MONSTERS, UndeadPuzzle
from logic_agents.games.undead.difficulty import EASY_PASSES, deduce_paths, paths_on, with_clues
from logic_agents.games.undead.sight import Sight, seen

EASY_ROUNDS = 30  # redraws of one layout before another is drawn (1 in 10 layouts ran out)
DECIDED = (1, 2, 4)  # difficulty's bit sets of one monster


@dataclass(frozen=True)
class EasyDraw:
    puzzle: UndeadPuzzle
    solution: str
    passes: int  # the game's passes to decide every cell
    rounds: int  # redraws it took


def clues_on(sights: Sequence[Sight], solution: str) -> tuple[int, ...]:
    """The clues a complete grid shows, on sights traced before (board.clues_of traces)."""
    return tuple(sum(seen(solution[cell], bounced) for cell, bounced in sight.visits)
                 for sight in sights)


def draw_easy(width: int, height: int, grid: str, sights: Sequence[Sight], rng: random.Random,
              rounds: int = EASY_ROUNDS) -> EasyDraw | None:
    """An easy puzzle on the layout `grid` (whose `sights` are given), or None when
    `rounds` redraws did not make one (see the module docstring)."""
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    solution = [ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid]
    skeleton = paths_on(sights, [0] * len(sights))
    for round_ in range(rounds + 1):
        clues = clues_on(sights, "".join(solution))
        counts = (solution.count("G"), solution.count("V"), solution.count("Z"))
        possible, passes, consistent = deduce_paths(with_clues(skeleton, clues),
                                                    width * height, cells, {}, counts,
                                                    EASY_PASSES)
        if not consistent:  # pragma: no cover - the drawn monsters are a solution
            raise AssertionError("the game's deduction contradicts a drawn solution")
        undecided = [c for c in cells if possible[c] not in DECIDED]
        if not undecided:
            answer = "".join(solution)
            puzzle = UndeadPuzzle(width, height, counts, grid, clues)
            return EasyDraw(puzzle, answer, passes, round_)
        for cell in undecided:
            solution[cell] = rng.choice(MONSTERS)
    return None
