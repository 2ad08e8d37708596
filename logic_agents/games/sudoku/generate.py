"""Random Sudoku puzzles with a unique solution.

Concepts:
- random_full_grid: the SAT oracle completes a random seed row (a shuffled 1..N) and a few
  random values; the solver's answer is a complete grid.
- generate_puzzle: remove clues in a random order, keeping a removal only while the solution
  stays unique (count_solutions with limit 2), down to `clues` or until nothing more can go.
- generate_puzzles: `count` puzzles from one seed; same seed, same puzzles.
"""

from __future__ import annotations

import random

from logic_agents.errors import GenerationError
from logic_agents.games.sudoku.board import SIZES, Grid, SudokuPuzzle
from logic_agents.games.sudoku.encode import solver_for


def random_full_grid(n: int, rng: random.Random, attempts: int = 50) -> Grid:
    solver = solver_for(n)
    for _ in range(attempts):
        cells = [0] * (n * n)
        cells[:n] = rng.sample(range(1, n + 1), n)  # a shuffled first row is always consistent
        for _ in range(n):
            i = rng.randrange(n, n * n)
            cells[i] = rng.randint(1, n)
        try:
            grid = solver.solve(SudokuPuzzle(n, tuple(cells)))
        except Exception:  # pragma: no cover - defensive
            grid = None
        if grid is not None:
            return grid
    raise GenerationError(f"no complete {n}x{n} grid found in {attempts} attempts")


def generate_puzzle(n: int, rng: random.Random, clues: int | None = None,
                    name: str = "generated") -> SudokuPuzzle:
    if n not in SIZES:
        raise GenerationError(f"size must be one of {', '.join(map(str, SIZES))}, got {n}")
    if clues is not None and not 0 <= clues <= n * n:
        raise GenerationError(f"clues must lie in 0..{n * n}, got {clues}")
    solver = solver_for(n)
    cells = list(random_full_grid(n, rng))
    order = list(range(n * n))
    rng.shuffle(order)
    for i in order:
        if clues is not None and sum(v != 0 for v in cells) <= clues:
            break
        kept = cells[i]
        cells[i] = 0
        if len(solver.count_solutions(SudokuPuzzle(n, tuple(cells)), 2)) != 1:
            cells[i] = kept
    return SudokuPuzzle(n, tuple(cells), name)


def generate_puzzles(n: int, count: int, seed: int, clues: int | None = None) -> list[SudokuPuzzle]:
    rng = random.Random(seed)
    return [generate_puzzle(n, rng, clues, f"sudoku{n}-s{seed}-{i:04d}") for i in range(count)]
