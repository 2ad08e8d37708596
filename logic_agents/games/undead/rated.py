"""Rated puzzles drawn the game's way round: its deduction first, a SAT call only when the
deduction leaves cells open.

Concepts:
- A puzzle the game's deduction (difficulty.deduce) decides completely has one solution:
  a pass only takes away monsters that no assignment of a line of sight allows, so what it
  leaves in every cell is forced. Such a puzzle is easy (within EASY_PASSES passes) or
  normal (more), and needs no uniqueness proof.
- When cells stay open, the level is normal (fewer than TRICKY_OPEN_CELLS) or tricky, if
  the puzzle is unique: one call of the seen core (encode.solve: Minicard's native
  cardinality on game-sized boards, a fraction of a millisecond) says so.
- draw_rated(width, height, grid, sights, rng, level): monsters placed the game's way on a
  mirror layout (placing.placed_solution: the game's `filling` for the level; a normal one
  placed last sight first); while the puzzle is not unique or not rated `level`, the cells
  the deduction leaves open are drawn again, or, when it decides every cell at another
  level, the monsters are placed again (up to DRAW_ROUNDS times; a level of easy stops the
  passes at EASY_PASSES). The layout's sights and paths are traced once; a redraw recounts
  the clues only (board.clues_of on those sights). generate.generate_puzzle asks it for
  easy and normal puzzles. Drawn at random instead of placed, easy ones grew from 22 ms at
  7x7 to none in 120 s at 11x11, and normal ones took twice the SAT repair's time; placed,
  both take milliseconds to 15x15 (docs/BENCHMARKS.md, "Undead generation at every level").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from logic_agents.games.undead.board import EMPTY, MONSTERS, UndeadPuzzle, puzzle_from_solution
from logic_agents.games.undead.difficulty import (
    EASY_PASSES,
    GAME_SEARCH_LIMIT,
    TRICKY_OPEN_CELLS,
    Rating,
    deduce_paths,
    paths_on,
    with_clues,
)
from logic_agents.games.undead.encode import solve
from logic_agents.games.undead.placing import game_filling, placed_solution
from logic_agents.games.undead.sight import Sight

DRAW_ROUNDS = 30  # redraws of one layout before another is drawn (1 in 10 easy ones ran out)
DECIDED = (1, 2, 4)  # difficulty's bit sets of one monster


@dataclass(frozen=True)
class RatedDraw:
    puzzle: UndeadPuzzle
    solution: str
    rating: Rating
    rounds: int  # redraws it took


def draw_rated(width: int, height: int, grid: str, sights: Sequence[Sight],
               rng: random.Random, level: str, rounds: int = DRAW_ROUNDS) -> RatedDraw | None:
    """A unique puzzle the game rates `level` on the layout `grid` (whose `sights` are
    given), or None when `rounds` redraws did not make one (see the module docstring)."""
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    skeleton = paths_on(sights, [0] * len(sights))
    filling = game_filling(level, width, height, len(cells))
    # a normal puzzle that every pass decides is placed last sight first (placing.py)
    solution = placed_solution(grid, skeleton, rng, filling, reverse=level == "normal")
    cap = EASY_PASSES if level == "easy" else None
    for round_ in range(rounds + 1):
        puzzle = puzzle_from_solution(width, height, "".join(solution), sights=sights)
        possible, passes, consistent = deduce_paths(with_clues(skeleton, puzzle.clues),
                                                    width * height, cells, {}, puzzle.counts,
                                                    cap, solvable=True)
        if not consistent:  # pragma: no cover - the drawn monsters are a solution
            raise AssertionError("the game's deduction contradicts a drawn solution")
        open_cells = [c for c in cells if possible[c] not in DECIDED]
        if not open_cells:
            rated = "easy" if passes <= EASY_PASSES else "normal"
            if rated == level:
                return RatedDraw(puzzle, "".join(solution), Rating(rated, passes, 0, 1), round_)
            # every cell decided at another level: a redraw has nothing to aim at, so the
            # monsters are placed again
            solution = placed_solution(grid, skeleton, rng, filling, reverse=level == "normal")
            continue
        if level != "easy" and solve(puzzle).status == "unique":
            rated = "normal" if len(open_cells) < TRICKY_OPEN_CELLS else "tricky"
            space = prod(bin(possible[c]).count("1") for c in open_cells)
            if rated == level and space <= GAME_SEARCH_LIMIT:
                rating = Rating(rated, passes, len(open_cells), space)
                return RatedDraw(puzzle, "".join(solution), rating, round_)
        for cell in open_cells:
            solution[cell] = rng.choice(MONSTERS)
    return None
