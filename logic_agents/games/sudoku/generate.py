"""Random Sudoku puzzles with a unique solution.

Concepts:
- random_full_grid: the SAT oracle completes a shuffled first row; Sudoku's symmetries
  (row, band, column and stack swaps, transposition) then scatter it.
- generate_puzzle: remove clues in a random order, keeping a removal only while the solution
  stays unique (count_solutions with limit 2), down to `clues` or until nothing more can go.
- generate_puzzles: `count` puzzles from one seed; same seed, same puzzles.
"""

from __future__ import annotations

import math
import random
from collections.abc import Container, Iterator

from logic_agents.errors import GenerationError
from logic_agents.games.sudoku.board import SIZES, Grid, SudokuPuzzle
from logic_agents.games.sudoku.encode import SudokuSolver


def random_full_grid(n: int, rng: random.Random, filler: SudokuSolver | None = None) -> Grid:
    """A random complete grid: the SAT oracle completes a shuffled first row, and the
    validity-preserving symmetries (rows within a band, bands, columns within a stack,
    stacks, transposition) scatter the rest."""
    b = math.isqrt(n)
    first = tuple(rng.sample(range(1, n + 1), n)) + (0,) * (n * n - n)
    # A solver's answer depends on its history: without a filler given, a fresh one
    if filler is None:
        with SudokuSolver(n) as own:
            grid = own.solve(SudokuPuzzle(n, first))
    else:
        grid = filler.solve(SudokuPuzzle(n, first))
    if grid is None:  # pragma: no cover - a shuffled row always extends
        raise GenerationError(f"no complete {n}x{n} grid extends a shuffled first row")

    def order() -> list[int]:
        bands = rng.sample(range(b), b)
        return [band * b + i for band in bands for i in rng.sample(range(b), b)]

    rows, cols = order(), order()
    cells = [grid[rows[r] * n + cols[c]] for r in range(n) for c in range(n)]
    if rng.random() < 0.5:
        cells = [cells[c * n + r] for r in range(n) for c in range(n)]
    return tuple(cells)


def generate_puzzle(n: int, rng: random.Random, clues: int | None = None,
                    name: str = "generated", filler: SudokuSolver | None = None) -> SudokuPuzzle:
    if n not in SIZES:
        raise GenerationError(f"size must be one of {', '.join(map(str, SIZES))}, got {n}")
    if clues is not None and not 0 <= clues <= n * n:
        raise GenerationError(f"clues must lie in 0..{n * n}, got {clues}")
    cells = list(random_full_grid(n, rng, filler))
    order = list(range(n * n))
    rng.shuffle(order)
    with SudokuSolver(n) as solver:  # its own: uniqueness checks never depend on earlier puzzles
        for i in order:
            if clues is not None and sum(v != 0 for v in cells) <= clues:
                break
            kept = cells[i]
            cells[i] = 0
            if len(solver.count_solutions(SudokuPuzzle(n, tuple(cells)), 2)) != 1:
                cells[i] = kept
    return SudokuPuzzle(n, tuple(cells), name)


def generate_puzzles(n: int, count: int, seed: int, clues: int | None = None) -> list[SudokuPuzzle]:
    if n not in SIZES:
        raise GenerationError(f"size must be one of {', '.join(map(str, SIZES))}, got {n}")
    return list(iter_puzzles(n, count, seed, clues))


def iter_puzzles(n: int, count: int, seed: int, clues: int | None = None, *,
                 skip: Container[int] = ()) -> Iterator[SudokuPuzzle]:
    """generate_puzzles one at a time, each as soon as it is proven unique; the puzzles
    numbered in `skip` are left out. Puzzle i depends on (n, clues, seed, i) alone (its own
    random stream and a fresh filler), so a resumed run makes the same puzzles."""
    if n not in SIZES:
        raise GenerationError(f"size must be one of {', '.join(map(str, SIZES))}, got {n}")
    for i in range(count):
        if i not in skip:
            rng = random.Random(f"sudoku-{n}-{clues}-{seed}-{i}")
            yield generate_puzzle(n, rng, clues, f"sudoku{n}-s{seed}-{i:04d}")
