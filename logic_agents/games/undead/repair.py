"""The SAT repair behind `generate undead`: a drawn puzzle made unique.

Concepts:
- Repair: random monsters give clues; the layout's one incremental solver (LayoutSolver)
  looks for a second solution. While there is one, the monsters on the cells where the two
  differ are redrawn (new clues, same layout, no re-encoding). After `redraw_rounds` the last
  resort is givens: a differing cell is revealed until the puzzle is unique, then every given
  that uniqueness does not need is removed again (unique_after_repair). From
  RELAXED_REDRAW_CELLS on, a redraw asks the cheaper relaxed question (no totals, the cells
  no sight sees held); the whole one is asked before the givens.
- repaired_and_rated: a repaired puzzle rated by the game's rating; while it is not the
  level asked, the same layout and solver are repaired again (LAYOUT_TRIES).
- unique_with_givens: the last resort alone, for a board drawn elsewhere (the real game's
  generator, benchmarks/bench_undead_peer.py).
- propagation_share: the share of the empty cells that unit propagation alone fixes while the
  `logic` agent fills the puzzle (at each stall one cell is placed by entailment).
"""

from __future__ import annotations

import random

from logic_agents.errors import GenerationError
from logic_agents.games.undead.board import EMPTY, MONSTERS, UndeadPuzzle, puzzle_from_solution
from logic_agents.games.undead.difficulty import GAME_SEARCH_LIMIT, Rating, deduce, rate
from logic_agents.games.undead.layout import LayoutSolver

# Conflicts allowed per SAT call while repairing: a few puzzles on one incremental solver turn
# very hard (one 20x20 took 18 minutes without a budget); past it, a tenth of the cells is
# redrawn. On 20x20, 20,000 let single calls run 1.5 s (median 6.1 s, max 30 s per puzzle
# over seed 5's first six); 5,000 gave 4.7 s and 7.8 s; 2,000 redraws too often (8.9 s).
CONFLICT_BUDGET = 5_000
# From this many cells the redraws ask a relaxed question: is the solution unique without the
# monster totals, with the cells no sight sees held? Without the totals a call is cheap; a
# solution unique so can differ from another only where no sight looks, which the whole
# question (asked once, before the givens) settles. benchmarks/bench_generate.py: 20x20 median
# 5.5 -> 2.2 s (seed 5, six puzzles; 2.25 s over twenty), 48 givens where the whole question
# left 42.
RELAXED_REDRAW_CELLS = 100
# Repairs of one layout (on its one solver) before another is drawn, while the level is not
# the one asked: at 7x7 normal, 7 of 8 repaired puzzles were rated another level, and each
# new layout cost a new solver.
LAYOUT_TRIES = 4


def redraw_rounds_for(cells: int) -> int:
    """Redraw rounds before givens: 1,000 up to 100 cells, then fewer (250 on 20x20, whose
    median puzzle took 13 s with 1,000 rounds and about 4 s with 250 before the relaxed
    redraws, 2.2-3.2 s with them, leaving 40-70 givens: benchmarks/bench_generate.py)."""
    return max(100, min(1000, 100_000 // max(1, cells)))


def propagation_share(puzzle: UndeadPuzzle, solution: str, layout: LayoutSolver) -> float:
    """Share of the empty cells that unit propagation fixes while a person (or the `logic`
    agent) fills a unique puzzle, one entailed cell whenever propagation stalls."""
    empty = [i for i in puzzle.monster_cells if i not in puzzle.givens]
    if not empty:
        return 1.0
    placed: dict[int, str] = {}
    by_propagation = 0
    while len(placed) < len(empty):
        fixed = layout.propagated(puzzle, placed)
        if fixed is None:
            raise GenerationError("propagation found a conflict in a solvable puzzle")
        new = {i: m for i, m in fixed.items() if i not in placed and i not in puzzle.givens}
        if new:
            by_propagation += len(new)
            placed.update(new)
            continue
        cell = next(i for i in empty if i not in placed)
        placed[cell] = solution[cell]  # unique: every cell's value is entailed
    return by_propagation / len(empty)


def unique_after_repair(width: int, height: int, layout: LayoutSolver, rng: random.Random,
                         redraw_rounds: int, start: str | None = None,
                         ) -> tuple[UndeadPuzzle, str, int] | None:
    grid = layout.grid
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    solution = (list(start) if start is not None else
                [ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid])
    rounds = 0
    puzzle = puzzle_from_solution(width, height, "".join(solution), sights=layout.sights)
    relaxed = width * height >= RELAXED_REDRAW_CELLS
    seen = {cell for sight in layout.sights for cell, _ in sight.visits} if relaxed else set()
    hold = [i for i in cells if i not in seen] if relaxed else []  # only totals speak of these
    while True:
        # the drawn monsters are a solution already: one SAT call asks for another; on large
        # boards without the totals, the cells no sight sees held (a relaxed question)
        unique, other = layout.other_solution(puzzle, "".join(solution), CONFLICT_BUDGET,
                                              totals=not relaxed, hold=hold)
        if unique and not relaxed:
            return puzzle, "".join(solution), rounds
        if unique or rounds >= redraw_rounds:
            break
        if other is None:  # too hard to decide: redraw a tenth of the cells instead
            differing = rng.sample(cells, max(1, len(cells) // 10))
        else:
            differing = [i for i in cells if other[i] != solution[i]]
        for i in differing:
            solution[i] = rng.choice(MONSTERS)
        rounds += 1
        puzzle = puzzle_from_solution(width, height, "".join(solution), sights=layout.sights)
    if relaxed:  # the whole question, totals included
        unique, other = layout.other_solution(puzzle, "".join(solution), CONFLICT_BUDGET)
        if unique:
            return puzzle, "".join(solution), rounds
    # last resort: reveal differing cells, then drop the givens uniqueness does not need
    answer = "".join(solution)
    givens: dict[int, str] = {}
    while not unique:
        differing = [i for i in cells if i not in givens and (other is None or
                                                               other[i] != answer[i])]
        cell = rng.choice(differing)
        givens[cell] = answer[cell]
        puzzle = _with_givens(puzzle, givens)
        unique, other = layout.other_solution(puzzle, answer,
                                              CONFLICT_BUDGET if differing else None)
    for cell in rng.sample(sorted(givens), len(givens)):
        trial = {i: m for i, m in givens.items() if i != cell}
        if layout.other_solution(_with_givens(puzzle, trial), answer, CONFLICT_BUDGET)[0]:
            givens = trial  # unique without it (undecided: the given stays)
    return _with_givens(puzzle, givens), answer, rounds


def repaired_and_rated(layout: LayoutSolver, rng: random.Random, redraw_rounds: int,
                        rated: bool, difficulty: str | None, start: str | None = None,
                        ) -> tuple[UndeadPuzzle, str, int, Rating | None] | None:
    """A unique puzzle on the layout, rated when `rated`, repaired from `start` (monsters
    drawn at random when None). When it is not rated `difficulty`,
    up to LAYOUT_TRIES times on the same layout and solver: the cells the game's deduction
    leaves open are drawn again (a tenth of the cells when it leaves none), and the puzzle
    is repaired again. The last one is returned whatever its level."""
    for _ in range(LAYOUT_TRIES if difficulty else 1):
        made = unique_after_repair(layout.width, layout.height, layout, rng, redraw_rounds,
                                    start=start)
        if made is None:  # pragma: no cover - the givens always make it unique
            return None
        puzzle, solution, rounds = made
        rating = rate(puzzle, unique=True) if rated else None
        if (rating is None or difficulty is None or
                (rating.level == difficulty and rating.search_space <= GAME_SEARCH_LIMIT)):
            break
        possible = deduce(puzzle)[0]
        redraw = ([c for c in layout.cells if possible[c] not in (1, 2, 4)] or
                  rng.sample(layout.cells, max(1, len(layout.cells) // 10)))
        again = list(solution)
        for cell in redraw:
            again[cell] = rng.choice(MONSTERS)
        start = "".join(again)
    return puzzle, solution, rounds, rating


def unique_with_givens(width: int, height: int, solution: str,
                       rng: random.Random) -> UndeadPuzzle:
    """The puzzle whose answer is `solution` (W*H letters of G V Z L R), made unique by the
    generator's last resort alone: no monster is redrawn; cells where a second solution
    differs become givens, and givens uniqueness does not need are dropped again. For boards
    drawn elsewhere, such as the real game's generator stopped before its acceptance tests
    (benchmarks/bench_undead_peer.py)."""
    grid = "".join(ch if ch in "LR" else EMPTY for ch in solution)
    layout = LayoutSolver(width, height, grid)
    try:
        made = unique_after_repair(width, height, layout, rng, 0, start=solution)
    finally:
        layout.close()
    assert made is not None and made[1] == solution
    return made[0]


def _with_givens(puzzle: UndeadPuzzle, givens: dict[int, str]) -> UndeadPuzzle:
    grid = "".join(givens.get(i, ch if ch in "LR" else EMPTY) for i, ch in enumerate(puzzle.grid))
    return UndeadPuzzle(puzzle.width, puzzle.height, puzzle.counts, grid, puzzle.clues,
                        puzzle.name)
