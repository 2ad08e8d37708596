"""Unique Undead puzzles of any size, repaired by the SAT solver.

Concepts:
- random_layout: mirrors with the real game's density (each cell a mirror with chance 2/5,
  `\\` or `/` alike), redrawn until 48-78% of the cells hold monsters, as the real game does.
- Repair: random monsters give clues; the layout's one incremental solver (LayoutSolver)
  looks for a second solution. While there is one, the monsters on the cells where the two
  differ are redrawn (new clues, same layout, no re-encoding). After `redraw_rounds` the last
  resort is givens: a differing cell is revealed until the puzzle is unique, then every given
  that uniqueness does not need is removed again.
- propagation_share: the difficulty proxy. The `logic` agent's run without a world: the share
  of the empty cells that unit propagation alone fixes; at each stall, one cell is placed by
  entailment (reading order). DIFFICULTY_BANDS are measured on the real game's puzzles.
- generate_puzzles(width, height, count, seed, difficulty): reproducible for a seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Container, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic_agents import __version__
from logic_agents.errors import GenerationError
from logic_agents.games.undead.board import (
    EMPTY,
    MONSTERS,
    UndeadPuzzle,
    clues_of,
    puzzle_from_solution,
)
from logic_agents.games.undead.encode import LayoutSolver
from logic_agents.world.registry import GenerateReport, Generator

# The share of empty cells propagation fixes, per difficulty. Measured by
# scripts/bench_undead.py on the real game's own 4x4-7x7 puzzles (docs/BENCHMARKS.md):
# medians are easy 1.0, normal 0.93, tricky 0.88; the bands split between them.
DIFFICULTY_BANDS = {"easy": (0.97, 1.0), "normal": (0.9, 0.97), "tricky": (0.0, 0.9)}
MIN_MONSTER_SHARE, MAX_MONSTER_SHARE = 0.48, 0.78
# Conflicts allowed per SAT call while repairing: a few puzzles on one incremental solver turn
# very hard (one 20x20 took 18 minutes without a budget); past it, the puzzle is redrawn.
CONFLICT_BUDGET = 20_000


@dataclass
class GeneratedPuzzle:
    puzzle: UndeadPuzzle
    solution: str
    share: float  # propagation_share: the difficulty proxy
    rounds: int  # monster redraws used
    givens: int
    seconds: float
    attempts: int  # layouts tried (difficulty misses)


def random_layout(width: int, height: int, rng: random.Random) -> str:
    cells = width * height
    for _ in range(10_000):
        grid = "".join("L" if d == 0 else "R" if d == 1 else EMPTY
                       for d in (rng.randrange(5) for _ in range(cells)))
        share = grid.count(EMPTY) / cells
        if MIN_MONSTER_SHARE <= share <= MAX_MONSTER_SHARE and grid.count(EMPTY) >= min(5, cells):
            return grid
    raise GenerationError(f"no mirror layout for {width}x{height} keeps 48-78% monster cells")


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


def _unique_after_repair(width: int, height: int, layout: LayoutSolver, rng: random.Random,
                         redraw_rounds: int) -> tuple[UndeadPuzzle, str, int] | None:
    grid = layout.grid
    cells = [i for i, ch in enumerate(grid) if ch == EMPTY]
    solution = [ch if ch != EMPTY else rng.choice(MONSTERS) for ch in grid]
    rounds = 0
    puzzle = puzzle_from_solution(width, height, "".join(solution))
    while True:
        found = layout.solutions(puzzle, 2, conflicts=CONFLICT_BUDGET)
        if found is not None and len(found) == 1:
            return puzzle, "".join(solution), rounds
        if rounds >= redraw_rounds:
            break
        if found is None:  # too hard to decide: redraw a tenth of the cells instead
            differing = rng.sample(cells, max(1, len(cells) // 10))
        else:
            other = found[0] if found[0] != "".join(solution) else found[1]
            differing = [i for i in cells if other[i] != solution[i]]
        for i in differing:
            solution[i] = rng.choice(MONSTERS)
        rounds += 1
        puzzle = puzzle_from_solution(width, height, "".join(solution))
    # last resort: reveal differing cells, then drop the givens uniqueness does not need
    answer = "".join(solution)
    givens: dict[int, str] = {}
    while found is None or len(found) > 1:
        if found is None:
            differing = [i for i in cells if i not in givens]
        else:
            other = found[0] if found[0] != answer else found[1]
            differing = [i for i in cells if other[i] != answer[i] and i not in givens]
        cell = rng.choice(differing)
        givens[cell] = answer[cell]
        puzzle = _with_givens(puzzle, givens)
        found = layout.solutions(puzzle, 2, conflicts=CONFLICT_BUDGET if differing else None)
    for cell in rng.sample(sorted(givens), len(givens)):
        trial = {i: m for i, m in givens.items() if i != cell}
        check = layout.solutions(_with_givens(puzzle, trial), 2, conflicts=CONFLICT_BUDGET)
        if check is not None and len(check) == 1:  # undecided: keep the given
            givens = trial
    return _with_givens(puzzle, givens), answer, rounds


def _with_givens(puzzle: UndeadPuzzle, givens: dict[int, str]) -> UndeadPuzzle:
    grid = "".join(givens.get(i, ch if ch in "LR" else EMPTY) for i, ch in enumerate(puzzle.grid))
    return UndeadPuzzle(puzzle.width, puzzle.height, puzzle.counts, grid, puzzle.clues,
                        puzzle.name)


def generate_puzzle(width: int, height: int, rng: random.Random, difficulty: str | None = None,
                    *, redraw_rounds: int = 1000, attempts: int = 40,
                    name: str = "") -> GeneratedPuzzle:
    """One unique puzzle; with a difficulty, layouts are redrawn (up to `attempts`) until the
    proxy falls in its band, else the closest one is kept."""
    if width < 1 or height < 1:
        raise GenerationError(f"a board needs at least one row and column, got {width}x{height}")
    if width * height > 10_000:
        raise GenerationError(f"{width}x{height} is too large (at most 10000 cells)")
    if difficulty is not None and difficulty not in DIFFICULTY_BANDS:
        raise GenerationError(f"unknown difficulty {difficulty!r}; choose one of "
                              f"{', '.join(DIFFICULTY_BANDS)}")
    started = time.perf_counter()
    best: GeneratedPuzzle | None = None
    low, high = DIFFICULTY_BANDS.get(difficulty or "", (0.0, 1.0))
    for attempt in range(1, (attempts if difficulty else 1) + 1):
        grid = random_layout(width, height, rng)
        layout = LayoutSolver(width, height, grid)
        try:
            made = _unique_after_repair(width, height, layout, rng, redraw_rounds)
            if made is None:  # pragma: no cover - the givens always make it unique
                continue
            puzzle, solution, rounds = made
        finally:
            layout.close()
        fresh = LayoutSolver(width, height, grid)  # no learnt clauses: the proxy is the same
        try:                                       # whatever the repair went through
            share = propagation_share(puzzle, solution, fresh)
        finally:
            fresh.close()
        puzzle = UndeadPuzzle(width, height, puzzle.counts, puzzle.grid, puzzle.clues,
                              name or f"{width}x{height}")
        candidate = GeneratedPuzzle(puzzle, solution, share, rounds, len(puzzle.givens), 0.0,
                                    attempt)
        distance = max(low - share, share - high, 0.0)
        if best is None or distance < max(low - best.share, best.share - high, 0.0):
            best = candidate
        if distance == 0.0:
            break
    assert best is not None
    best.seconds = time.perf_counter() - started
    assert clues_of(width, height, best.solution) == best.puzzle.clues
    return best


def generate_puzzles(width: int, height: int, count: int, seed: int,
                     difficulty: str | None = None, *,
                     redraw_rounds: int = 1000) -> list[GeneratedPuzzle]:
    """`count` unique puzzles, reproducible from `seed`. Fewer `redraw_rounds` trade givens
    for speed on very large boards."""
    return list(iter_puzzles(width, height, count, seed, difficulty,
                             redraw_rounds=redraw_rounds))


def iter_puzzles(width: int, height: int, count: int, seed: int,
                 difficulty: str | None = None, *,
                 redraw_rounds: int = 1000, skip: Container[int] = ()) -> Iterator[GeneratedPuzzle]:
    """generate_puzzles one at a time, each as soon as it is proven unique; the puzzles
    numbered in `skip` (from 0) are left out. Puzzle k depends on the size, difficulty, seed
    and k alone, so a resumed run makes the same puzzles."""
    if count < 1:
        raise GenerationError("count must be at least 1")
    for k in range(count):
        if k in skip:
            continue
        rng = random.Random(f"undead-{width}x{height}-{difficulty}-{seed}-{k}")
        yield generate_puzzle(width, height, rng, difficulty, redraw_rounds=redraw_rounds,
                              name=f"{width}x{height}{'-' + difficulty if difficulty else ''}"
                              f"-s{seed}-{k:04d}")


# -- `logic-agents generate undead` ----------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    import argparse
    import re

    m = re.fullmatch(r"([0-9]{1,4})x([0-9]{1,4})", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"give WxH, such as 7x7 or 20x20, not {text[:40]!r}")
    return int(m.group(1)), int(m.group(2))


def _add_arguments(p: Any) -> None:
    p.add_argument("--size", type=_size, required=True, metavar="WxH",
                   help="width x height, as in the game's IDs (such as 7x7 or 20x20)")
    p.add_argument("--difficulty", choices=["easy", "normal", "tricky"],
                   help="the share of cells unit propagation fills (easy >= 97%%, normal "
                   "90-97%%, tricky < 90%%; see docs/FORMATS.md)")


def _run(args: Any) -> GenerateReport:
    from logic_agents.games.undead.board import format_game_id
    from logic_agents.generated import LineFile, streamed

    width, height = args.size
    tag = f"-{args.difficulty}" if args.difficulty else ""
    path = Path(args.output) / f"undead{width}x{height}{tag}-s{args.seed}.tsv"
    header = (f"# generated by logic-agents {__version__}: unique {width}x{height} "
              f"Undead puzzles, seed {args.seed}, difficulty {args.difficulty or 'any'}\n"
              "# columns: game ID, name, solution\n")
    made = []
    with LineFile(path, header, resume=args.resume, force=args.force) as f:
        todo = iter_puzzles(width, height, args.count, args.seed, args.difficulty,
                            skip=range(f.held))
        for g in streamed(todo, max(0, args.count - f.held), "puzzles"):
            # each puzzle is written once proven unique
            f.write(f"{format_game_id(g.puzzle)}\t{g.puzzle.name}\t{g.solution}")
            made.append(g)
    seconds = [g.seconds for g in made] or [0.0]
    return GenerateReport(
        [str(path)], len(made), f.held,
        f"unique {width}x{height} Undead puzzles to {path} in {sum(seconds):.2f}s (max "
        f"{max(seconds):.2f}s per puzzle; {sum(g.givens for g in made)} givens in all)",
        {"puzzles": [{"name": g.puzzle.name, "id": format_game_id(g.puzzle),
                      "share_propagated": round(g.share, 4), "redraws": g.rounds,
                      "givens": g.givens, "seconds": round(g.seconds, 4)} for g in made]})


GENERATOR = Generator(add_arguments=_add_arguments, run=_run,
                      help="unique puzzles as TSV (game ID, name, solution), one file")
