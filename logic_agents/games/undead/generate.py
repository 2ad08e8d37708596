"""Unique Undead puzzles of any size, repaired by the SAT solver.

Concepts:
- random_layout: mirrors with the real game's density (each cell a mirror with chance 2/5,
  `\\` or `/` alike), redrawn until 48-78% of the cells hold monsters, as the real game does.
- Placing (placing.py): monsters placed the real game's way, line of sight by line of
  sight, each sight's clue pair picking out its monsters, until the game's `filling` cells
  are left to random monsters (easy 2; normal min(W+H, cells/2); tricky max(W+H, cells/2);
  no level: as normal). What is placed the game's deduction decides, so only the random
  cells are left to make unique.
- Repair (repair.py): from a placed start, the layout's one incremental solver looks for a
  second solution, the cells where two differ are redrawn, and givens are the last resort.
  The rounds shrink as boards grow (redraw_rounds_for): each costs a SAT call that grows
  with the board. Tricky puzzles and puzzles with no level are made so.
- Difficulty: the real game's own rating (difficulty.rate: easy / normal / tricky by how far
  its line-of-sight deduction reaches). With a difficulty, layouts are redrawn until a
  puzzle is rated exactly that; none found in `attempts` layouts is an error, never a puzzle
  of another level. Easy and normal ones are drawn the game's way round (rated.draw_rated:
  placed, then the game's deduction decides them, which proves them unique, with no SAT
  repair); a normal one is placed last sight first, so that the deduction needs more passes.
- Game-sized boards (each side at least 3, at most 54 cells, as the game allows) never leave
  the game's Solve button a guess over more than GAME_SEARCH_LIMIT combinations, whatever
  the difficulty: such a puzzle is redrawn. `game=True` refuses other sizes and keeps only
  puzzles that pass the game generator's own acceptance tests at their level
  (acceptance.game_problem: sight lengths, monster counts); the sight lengths, which need
  no monster, are tested on the layout before any SAT call (acceptance.sight_problem).
- propagation_share: the share of the empty cells that unit propagation alone fixes while the
  `logic` agent fills the puzzle (at each stall one cell is placed by entailment);
  GeneratedPuzzle.share computes it when asked, and `generate undead --share` reports it
  beside the rating.
- generate_puzzles(width, height, count, seed, difficulty): reproducible for a seed.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections.abc import Container, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from logic_agents._version import __version__
from logic_agents.errors import GenerationError
from logic_agents.games.undead.acceptance import game_problem, sight_problem
from logic_agents.games.undead.board import (
    EMPTY,
    MAX_CELLS,
    UndeadPuzzle,
    clues_of,
    format_game_id,
    mirror_layout,
)
from logic_agents.games.undead.difficulty import GAME_SEARCH_LIMIT, LEVELS, Rating, paths_on
from logic_agents.games.undead.layout import LayoutSolver
from logic_agents.games.undead.placing import game_filling, placed_solution
from logic_agents.games.undead.rated import draw_rated
from logic_agents.games.undead.repair import (
    propagation_share,
    redraw_rounds_for,
    repaired_and_rated,
)
from logic_agents.games.undead.sight import trace_sights
from logic_agents.ground.inputs import limits_lifted
from logic_agents.world.declared import Option
from logic_agents.world.generated import LineFile, streamed
from logic_agents.world.spec import GenerateReport, GenerateRequest, Generator

MIN_MONSTER_SHARE, MAX_MONSTER_SHARE = 0.48, 0.78
# the largest board `generate` makes without --no-limits: memory binds, not time (the
# layout's solver holds a unary counter per sight): 30x30 took 3 s and 550 MB on a 2-core
# machine, 40x40 9 s and 1.1 GB, 50x50 34 s and 2.9 GB (docs/BENCHMARKS.md)
GENERATE_CELLS = 1_300
@dataclass
class GeneratedPuzzle:
    puzzle: UndeadPuzzle
    solution: str
    rounds: int  # monster redraws used
    givens: int
    seconds: float
    attempts: int  # layouts tried (difficulty misses and search spaces over the limit)
    rating: Rating | None = None  # the game's rating (game-sized boards and asked levels)

    @cached_property
    def share(self) -> float:
        """propagation_share, on a solver of its own (with no learnt clauses, so the share is
        the same whatever made the puzzle). Computed when first asked, and not counted in
        `seconds`: building the layout's solver cost more than making an easy 7x7 puzzle."""
        layout = LayoutSolver(self.puzzle.width, self.puzzle.height,
                              mirror_layout(self.puzzle.grid))
        try:
            return propagation_share(self.puzzle, self.solution, layout)
        finally:
            layout.close()


def game_size_problem(width: int, height: int) -> str | None:
    """Why the real game refuses a size (None if it accepts it): each side at least 3, and
    at most 54 cells (its own test: width <= 54 // height)."""
    if width < 3 or height < 3:
        return f"the game needs each side at least 3, not {width}x{height}"
    if width > 54 // height:
        return f"the game allows at most 54 cells, not {width}x{height} ({width * height})"
    return None


def random_layout(width: int, height: int, rng: random.Random) -> str:
    cells = width * height
    for _ in range(10_000):
        grid = "".join("L" if d == 0 else "R" if d == 1 else EMPTY
                       for d in (rng.randrange(5) for _ in range(cells)))
        share = grid.count(EMPTY) / cells
        if MIN_MONSTER_SHARE <= share <= MAX_MONSTER_SHARE and grid.count(EMPTY) >= min(5, cells):
            return grid
    raise GenerationError(f"no mirror layout for {width}x{height} keeps 48-78% monster cells")


def generate_puzzle(width: int, height: int, rng: random.Random, difficulty: str | None = None,
                    *, redraw_rounds: int | None = None, attempts: int = 400,
                    game: bool = False,
                    name: str = "") -> GeneratedPuzzle:
    """One unique puzzle. With a difficulty, layouts are redrawn (up to `attempts`) until the
    game's rating is that difficulty; on a game-sized board, until the game's guess would
    try at most GAME_SEARCH_LIMIT combinations. `game` refuses sizes the game refuses and
    redraws a puzzle the game's generator would discard (acceptance.game_problem)."""
    if width < 1 or height < 1:
        raise GenerationError(f"a board needs at least one row and column, got {width}x{height}")
    # the limit its loader reads (board.MAX_CELLS, lifted by --no-limits): what is written reads
    if width * height > MAX_CELLS and not limits_lifted():
        raise GenerationError(f"a {width}x{height} board has {width * height:,} cells, over the "
                              f"{MAX_CELLS:,} its files may hold; --no-limits lifts the limit")
    if width * height > GENERATE_CELLS and not limits_lifted():
        raise GenerationError(
            f"a {width}x{height} board has {width * height:,} cells; boards over "
            f"{GENERATE_CELLS:,} take minutes and gigabytes as they grow (40x40: 9 s and "
            "1.1 GB, 50x50: 34 s and 2.9 GB, on a 2-core machine), so they are refused; "
            "--no-limits tries anyway (under --time-cap and --memory-cap)")
    if difficulty is not None and difficulty not in LEVELS:
        raise GenerationError(f"unknown difficulty {difficulty!r}; choose one of "
                              f"{', '.join(LEVELS)}")
    problem = game_size_problem(width, height)
    if game and problem:
        raise GenerationError(problem)
    rated = difficulty is not None or problem is None
    if redraw_rounds is None:
        redraw_rounds = redraw_rounds_for(width * height)
    started = time.perf_counter()
    for attempt in range(1, (attempts if rated else 1) + 1):
        grid = random_layout(width, height, rng)
        sights = trace_sights(width, height, grid)
        # the game's test of the layout alone, before any SAT call
        if game and difficulty and sight_problem(width, height, sights, difficulty):
            continue
        rating: Rating | None
        layout: LayoutSolver | None = None
        try:
            if difficulty in ("easy", "normal"):
                # placed the game's way, the game's deduction first: unique with no SAT call
                # when it decides every cell
                drawn = draw_rated(width, height, grid, sights, rng, difficulty)
                if drawn is None:
                    continue
                puzzle, solution, rounds, rating = (drawn.puzzle, drawn.solution, drawn.rounds,
                                                    drawn.rating)
            else:
                layout = LayoutSolver(width, height, grid)
                # the repair starts from monsters placed the game's way, all but the game's
                # `filling` cells decided by its deduction, so it has only those to repair
                start = placed_solution(grid, paths_on(sights, [0] * len(sights)), rng,
                                        game_filling(difficulty, width, height,
                                                     len(layout.cells)))
                found = repaired_and_rated(layout, rng, redraw_rounds, rated, difficulty,
                                           start="".join(start))
                if found is None:  # pragma: no cover - the givens always make it unique
                    continue
                puzzle, solution, rounds, rating = found
            if rating is not None and (rating.search_space > GAME_SEARCH_LIMIT or
                                       (difficulty and rating.level != difficulty)):
                continue
            # as the game: its generator's own acceptance tests at the level it is made for
            if game and rating is not None and game_problem(puzzle, solution,
                                                             rating.level or "tricky"):
                continue
        finally:
            if layout is not None:
                layout.close()
        puzzle = UndeadPuzzle(width, height, puzzle.counts, puzzle.grid, puzzle.clues,
                              name or f"{width}x{height}", level=difficulty)
        assert clues_of(width, height, solution) == puzzle.clues
        return GeneratedPuzzle(puzzle, solution, rounds, len(puzzle.givens),
                               time.perf_counter() - started, attempt, rating)
    wanted = f"rated {difficulty}" if difficulty else "the game can solve without a long guess"
    raise GenerationError(f"no {width}x{height} puzzle {wanted} in {attempts} layouts; "
                          "try another size or difficulty")


def generate_puzzles(width: int, height: int, count: int, seed: int,
                     difficulty: str | None = None, *, redraw_rounds: int | None = None,
                     game: bool = False) -> list[GeneratedPuzzle]:
    """`count` unique puzzles, reproducible from `seed`. Fewer `redraw_rounds` trade givens
    for speed on very large boards."""
    return list(iter_puzzles(width, height, count, seed, difficulty,
                             redraw_rounds=redraw_rounds, game=game))


def iter_puzzles(width: int, height: int, count: int, seed: int,
                 difficulty: str | None = None, *, redraw_rounds: int | None = None,
                 skip: Container[int] = (), game: bool = False) -> Iterator[GeneratedPuzzle]:
    """generate_puzzles one at a time, each as soon as it is proven unique; the puzzles
    numbered in `skip` (from 0) are left out. Puzzle k depends on the size, difficulty, seed
    and k alone, so a resumed run makes the same puzzles."""
    if count < 1:
        raise GenerationError("count must be at least 1")
    if game and (problem := game_size_problem(width, height)):
        raise GenerationError(problem)
    for k in range(count):
        if k in skip:
            continue
        rng = random.Random(f"undead-{width}x{height}-{difficulty}-{seed}-{k}")
        yield generate_puzzle(width, height, rng, difficulty, redraw_rounds=redraw_rounds,
                              game=game, name=f"{width}x{height}{'-' + difficulty if difficulty else ''}"
                              f"-s{seed}-{k:04d}")


# -- `logic-agents generate undead` ----------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([0-9]{1,4})x([0-9]{1,4})", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"give WxH, such as 7x7 or 20x20, not {text[:40]!r}")
    return int(m.group(1)), int(m.group(2))


OPTIONS = (
    Option("size", tuple, None, "width x height, as in the game's IDs (such as 7x7 or 20x20)",
           metavar="WxH", parse=_size, required=True),
    Option("difficulty", str, None, "keep only puzzles the real game rates so (easy: its "
           "deduction solves them within 3 passes; normal: more passes, or a guess over fewer "
           "than 4 cells; tricky: a guess over 4 or more; see docs/games/undead.md)",
           choices=tuple(LEVELS)),
    Option("game", bool, None, "only puzzles the real game could have made: refuse sizes it "
           "refuses (each side at least 3, at most 54 cells) and apply its generator's own "
           "acceptance tests (sight lengths and monster counts per level)"),
    Option("share", bool, None, "also report, for each puzzle, the share of its empty cells "
           "that unit propagation fixes while the `logic` agent fills it (a solver built for "
           "each puzzle: it costs more than making an easy one)"),
)


def _run(request: GenerateRequest) -> GenerateReport:
    opt_difficulty = request.options.get("difficulty")
    opt_game = bool(request.options.get("game"))
    opt_share = bool(request.options.get("share"))
    opt_size = request.need("size")
    width, height = opt_size
    if opt_game and (problem := game_size_problem(width, height)):
        raise GenerationError(problem)  # before any file is made
    tag = f"-{opt_difficulty}" if opt_difficulty else ""
    path = Path(request.output) / f"undead{width}x{height}{tag}-s{request.seed}.tsv"
    header = (f"# generated by logic-agents {__version__}: unique {width}x{height} "
              f"Undead puzzles, seed {request.seed}, difficulty {opt_difficulty or 'any'}\n"
              "# columns: game ID, name, solution\n")
    made = []
    with LineFile(path, header, resume=request.resume, force=request.force) as f:
        todo = iter_puzzles(width, height, request.count, request.seed, opt_difficulty,
                            skip=range(f.held), game=opt_game)
        for g in streamed(todo, max(0, request.count - f.held), "puzzles"):
            # each puzzle is written once proven unique
            f.write(f"{format_game_id(g.puzzle)}\t{g.puzzle.name}\t{g.solution}")
            made.append(g)
    seconds = [g.seconds for g in made] or [0.0]
    return GenerateReport(
        [str(path)], len(made), f.held,
        f"unique {width}x{height} Undead puzzles to {path} in {sum(seconds):.2f}s (max "
        f"{max(seconds):.2f}s per puzzle; {sum(g.givens for g in made)} givens in all)",
        {"puzzles": [{"name": g.puzzle.name, "id": format_game_id(g.puzzle),
                      "share_propagated": round(g.share, 4) if opt_share else None,
                      "redraws": g.rounds,
                      "rating": g.rating.level if g.rating else None,
                      "passes": g.rating.passes if g.rating else None,
                      "open_cells": g.rating.open_cells if g.rating else None,
                      "givens": g.givens, "seconds": round(g.seconds, 4)} for g in made]})


GENERATOR = Generator(options=OPTIONS, generate=_run,
                      help="unique puzzles as TSV (game ID, name, solution), one file")
