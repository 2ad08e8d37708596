"""Random Sudoku puzzles with a unique solution.

Concepts:
- random_full_grid: the SAT oracle completes a shuffled first row; Sudoku's symmetries
  (row, band, column and stack swaps, transposition) then scatter it.
- generate_puzzle: remove clues in a random order, keeping a removal only while the solution
  stays unique (count_solutions with limit 2), down to `clues` or until nothing more can go.
  25x25 (REPAIRED) goes the other way: `clues` cells drawn (default 45%), then repaired by
  adding a clue where a second solution differs, until there is none.
- generate_puzzles: `count` puzzles from one seed; same seed, same puzzles.
"""

from __future__ import annotations

import math
import random
from collections.abc import Container, Iterator
from pathlib import Path

from logic_agents._version import __version__
from logic_agents.errors import GenerationError
from logic_agents.games.sudoku.board import SIZES, Grid, SudokuPuzzle, format_line
from logic_agents.games.sudoku.core import solve_one
from logic_agents.games.sudoku.encode import SudokuSolver
from logic_agents.world.declared import Option
from logic_agents.world.generated import LineFile, streamed
from logic_agents.world.options import integer
from logic_agents.world.spec import GenerateReport, GenerateRequest, Generator

# Sizes made by repair rather than removal, with the share of cells drawn as clues first
# (issue 55): removing 25x25 clues one by one needs a uniqueness check per cell (625, about
# 0.2 s each: a minute or more a puzzle), where 45% drawn and a few dozen repairs end unique
# at about 48-50% in 3-6 s (docs/BENCHMARKS.md, "Sudoku 25x25")
REPAIRED = {25: 0.45}


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
    if n in REPAIRED:
        return repaired_puzzle(n, rng, tuple(cells), order,
                               round(REPAIRED[n] * n * n) if clues is None else clues, name)
    with SudokuSolver(n) as solver:  # its own: uniqueness checks never depend on earlier puzzles
        for i in order:
            if clues is not None and sum(v != 0 for v in cells) <= clues:
                break
            kept = cells[i]
            cells[i] = 0
            if len(solver.count_solutions(SudokuPuzzle(n, tuple(cells)), 2)) != 1:
                cells[i] = kept
    return SudokuPuzzle(n, tuple(cells), name)


def repaired_puzzle(n: int, rng: random.Random, grid: Grid, order: list[int], clues: int,
                    name: str) -> SudokuPuzzle:
    """The first `clues` cells of `order` as clues, then repaired: while a second solution
    exists, one cell where it differs from `grid` becomes a clue too (so `grid` stays the
    solution, and the other is ruled out). Each check is a fresh solver on the puzzle's
    clue core, so the puzzle depends on the random stream alone."""
    cells = [0] * (n * n)
    for i in order[:clues]:
        cells[i] = grid[i]
    while True:
        found = solve_one(SudokuPuzzle(n, tuple(cells)), unique=True)
        if found.status == "unique":
            return SudokuPuzzle(n, tuple(cells), name)
        other = found.second if found.solution == grid else found.solution
        if other is None:  # pragma: no cover - the grid's own clues always leave it a solution
            raise GenerationError(f"{name}: its clues lost their own solution")
        cells_apart = [i for i in order if other[i] != grid[i]]
        i = rng.choice(cells_apart)
        cells[i] = grid[i]


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


# -- `logic-agents generate sudoku` ----------------------------------------------------------
OPTIONS = (
    Option("size", int, None, "N x N: 4, 9, 16 or 25", choices=SIZES, metavar="N",
           parse=integer, required=True),
    Option("clues", int, None, "stop removing at this many clues (default: remove while the "
           "solution stays unique); 25x25: draw this many clues (default: 45 percent of the cells), "
           "then add clues until the solution is unique", parse=integer),
)


def _run(request: GenerateRequest) -> GenerateReport:
    opt_clues = request.options.get("clues")
    opt_size = request.need("size")
    size = opt_size
    path = Path(request.output) / f"sudoku{size}-s{request.seed}.txt"
    header = (f"# generated by logic-agents {__version__}: unique {size}x{size} Sudoku "
              f"puzzles, seed {request.seed}, clues {opt_clues if opt_clues is not None else 'fewest'}\n")
    puzzles = []
    with LineFile(path, header, resume=request.resume, force=request.force) as f:
        todo = iter_puzzles(size, request.count, request.seed, opt_clues, skip=range(f.held))
        for p in streamed(todo, max(0, request.count - f.held), "puzzles"):
            f.write(format_line(p, p.name))  # each puzzle is written once proven unique
            puzzles.append(p)
    clues = [p.clues for p in puzzles]
    made = f"({min(clues)}-{max(clues)} clues) " if clues else ""
    return GenerateReport([str(path)], len(puzzles), f.held,
                          f"unique {size}x{size} puzzles {made}to {path}", {"clues": clues})


GENERATOR = Generator(options=OPTIONS, generate=_run,
                      help="unique puzzles in line format, one file")
