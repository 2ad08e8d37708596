"""Unique Exactly One Mazes of any size: plant a path, place L-tetrominoes, repair with SAT.

Concepts:
- plant_path: a loop-erased random walk from the start to the finish (a random simple path).
- L_SHAPES: the 8 orientations of the L-tetromino, as the official puzzles use.
- Placing: an L whose cells are free and off the ends, crossed by the planted path exactly
  once (so the planted path stays a solution).
- Repair: the SAT solver looks for another model; while there is one, an L is added that
  the planted path crosses once and the other model crosses never or twice (which rules it
  out). When no such L fits, a shape the other model crosses is moved: removed and replaced
  by one that rules it out; if none can be, the room of a ruling L is cleared, taking away
  the fewest shapes in its way; when no L on the board could rule the other path out, a new
  path is planted. The planted path stays a solution throughout, so the loop ends in a
  unique puzzle; after `max_rounds` a new path is planted, on a fresh solver (the old one's
  cuts and retired selectors made each call about twice as slow).
- Rough models (_other): each round asks one SAT call (ShapeFamilySolver.shape_other), whose
  detached cycles are cut but not solved again: the path and the cycles together cross
  every shape once, so an L they cross never or twice rules the model out just as it would
  a path. Solving the cycles away first took 14 calls a round on a 20x20; a round is
  one call now, and the board is unique when a call finds no model at all (the cuts are
  valid on every board). Only when no L rules out a rough model is a real second path asked
  for (a rough model says nothing of the planted path's fate).
- Doomed paths (doomed_by): before any shape is placed, one SAT call asks for another path
  that crosses every L the planted path crosses once exactly once too; such a path solves
  every layout, so the planted path is given up at once instead of after the rounds that
  would meet it.
- Second opinion: when a call on the family's solver passes CONFLICT_BUDGET (nearly always
  the last call, the proof of uniqueness), the layout's board alone is asked on a fresh
  PROOF_SOLVER with the family's last PROOF_CUTS cycle cuts; only when that passes
  PROOF_BUDGET too is a new path planted.
- generate_boards(size, count, seed, shapes): reproducible for a seed.
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import time
from collections.abc import Container, Iterator
from dataclasses import dataclass
from pathlib import Path

from logic_agents._version import __version__
from logic_agents.errors import GenerationError
from logic_agents.games.mazes.board import (
    MAX_CELLS,
    MazeBoard,
    format_board,
    is_solution,
    load_board,
    validate,
)
from logic_agents.games.mazes.encode import MazeSolver, Other, OutOfBudget, ShapeFamilySolver
from logic_agents.ground.inputs import limits_lifted
from logic_agents.world.declared import Option
from logic_agents.world.generated import kept_files, streamed, write_file
from logic_agents.world.options import integer
from logic_agents.world.spec import GenerateReport, GenerateRequest, Generator
from logic_agents.world.view import Cell

# Conflicts allowed per SAT call while repairing: a few layouts make one call run for
# minutes on a 20x20 (seen: over 300 s); past the budget a fresh solver is asked instead...
CONFLICT_BUDGET = 20_000
# ...on the layout's board alone (_second_opinion); past its budget a new path is planted
PROOF_SOLVER = "minisat22"
PROOF_BUDGET = 100_000
# the family's latest cuts it is given: all of them (up to 3,400 on a slow 20x20) cost more to
# tell and slowed each conflict; the last 300 answered sooner in 13 of 14 second opinions met
# (the 14th 0.11 s later), with the same answer in all 14 (docs/BENCHMARKS.md)
PROOF_CUTS = 300

L_SHAPES = tuple(
    tuple(sorted(cells)) for cells in {
        tuple(sorted(((r * sr, c * sc) if not t else (c * sc, r * sr))
                     for r, c in ((0, 0), (1, 0), (2, 0), (2, 1))))
        for sr in (1, -1) for sc in (1, -1) for t in (False, True)
    })




@functools.lru_cache(maxsize=8)
def placements(height: int, width: int) -> tuple[tuple[Cell, ...], ...]:
    """Every L-tetromino inside a height x width board, in reading order of its anchor."""
    return tuple(cells for r in range(height) for c in range(width) for shape in L_SHAPES
                 for cells in [tuple((r + dr, c + dc) for dr, dc in shape)]
                 if all(0 <= y < height and 0 <= x < width for y, x in cells))


@dataclass
class GeneratedBoard:
    board: MazeBoard
    solution: list[Cell]
    seconds: float
    rounds: int  # SAT repair rounds
    restarts: int  # planted paths given up on


def plant_path(height: int, width: int, rng: random.Random) -> list[Cell]:
    start, finish = (height - 1, 0), (0, width - 1)
    path = [start]
    index = {start: 0}
    while path[-1] != finish:
        r, c = path[-1]
        options = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                   if 0 <= r + dr < height and 0 <= c + dc < width]
        nxt = rng.choice(options)
        if nxt in index:  # erase the loop just closed
            for cell in path[index[nxt] + 1:]:
                del index[cell]
            path = path[: index[nxt] + 1]
        else:
            index[nxt] = len(path)
            path.append(nxt)
    return path


class _Layout:
    def __init__(self, height: int, width: int, path: list[Cell], rng: random.Random):
        self.height, self.width, self.rng = height, width, rng
        self.path = path
        self.on_path = set(path)
        self.owner: dict[Cell, int] = {}
        self.shapes: dict[int, tuple[Cell, ...]] = {}
        self.next_id = 1
        blocked = {path[0], path[-1]}
        # every L on the board off the two ends that the planted path crosses exactly once,
        # in reading order: the only shapes a layout may ever hold (computed once per path)
        self.crossed_once = [cells for cells in placements(height, width)
                             if not blocked.intersection(cells)
                             and sum(x in self.on_path for x in cells) == 1]

    def candidates(self, avoid: set[Cell] | None = None) -> list[tuple[Cell, ...]]:
        """Every L that fits, crossed once by the planted path and (given `avoid`, another
        path's cells) not exactly once by the other path."""
        taken = self.owner.keys()
        if avoid is None:
            return [cells for cells in self.crossed_once if taken.isdisjoint(cells)]
        return [cells for cells in self.crossed_once
                if taken.isdisjoint(cells) and len(avoid.intersection(cells)) != 1]

    def add(self, cells: tuple[Cell, ...]) -> None:
        k = self.next_id
        self.next_id += 1
        self.shapes[k] = cells
        for cell in cells:
            self.owner[cell] = k

    def remove(self, k: int) -> None:
        for cell in self.shapes.pop(k):
            del self.owner[cell]

    def board(self, name: str) -> MazeBoard:
        numbering: dict[int, int] = {}
        cells = []
        for r in range(self.height):  # shapes renumbered 1..K in reading order
            for c in range(self.width):
                k = self.owner.get((r, c), 0)
                if k and k not in numbering:
                    numbering[k] = len(numbering) + 1
                cells.append(numbering.get(k, 0))
        return MazeBoard(self.height, self.width, tuple(cells), name)


def generate_board(height: int, width: int, rng: random.Random, shapes: int | None = None, *,
                   max_rounds: int | None = None, name: str = "",
                   family: ShapeFamilySolver | None = None) -> GeneratedBoard:
    """One unique board; `shapes` caps the number of L-tetrominoes (default: as many as fit)."""
    if height < 2 or width < 2:
        raise GenerationError(f"a maze needs at least 2x2 cells, got {height}x{width}")
    # the limit its loader reads (board.MAX_CELLS, lifted by --no-limits): what is written reads
    if height * width > MAX_CELLS and not limits_lifted():
        raise GenerationError(f"a {height}x{width} board has {height * width:,} cells, over the "
                              f"{MAX_CELLS:,} its files may hold; --no-limits lifts the limit")
    target = height * width if shapes is None else shapes
    if target < 0:
        raise GenerationError("--shapes must be at least 0")
    max_rounds = max_rounds or 8 * (height + width)
    own = family is None
    family = family or ShapeFamilySolver(height, width)
    started = time.perf_counter()
    restarts = rounds = 0
    worn = False  # whether repair rounds have run on the family solver since it was made
    try:
        while restarts < 1000:
            if worn and own:
                # a new path on a fresh solver: what the last path's rounds left behind (its
                # cycle cuts, thousands of retired selectors) slowed every later call about
                # twofold (docs/BENCHMARKS.md, "Mazes 20x20 generation")
                family.close()
                family = ShapeFamilySolver(height, width)
                worn = False
            layout = _Layout(height, width, plant_path(height, width, rng), rng)
            if doomed_by(layout, family) is not None:  # no layout could make it the only one
                restarts += 1
                continue
            worn = True
            while len(layout.shapes) < target:
                options = layout.candidates()
                if not options:
                    break
                layout.add(rng.choice(options))
            for _ in range(max_rounds):
                rounds += 1
                # the planted path is a solution by construction: ask only for another model
                try:
                    other = _other(layout, family, exact=False)
                except OutOfBudget:  # hard to decide on both solvers: plant another path
                    break
                if other is None:
                    board = layout.board(name or f"maze{height}x{width}")
                    if not is_solution(board, layout.path):
                        raise AssertionError("the planted path stopped being a solution")
                    validate(board)
                    return GeneratedBoard(board, layout.path, time.perf_counter() - started,
                                          rounds, restarts)
                if _rule_out(layout, set(other.cells), rng):
                    continue
                if other.exact:  # no L on the board rules this second solution out
                    break
                # a rough model no L rules out says nothing of the planted path: a real
                # second path (its cycles solved away) does, or proves there is none
                try:
                    exact = _other(layout, family, exact=True)
                except OutOfBudget:
                    break
                if exact is None:
                    continue  # unique: the next round's call says so at once
                if not _rule_out(layout, set(exact.cells), rng):
                    break
            restarts += 1
        raise GenerationError(f"no unique {height}x{width} maze after 1000 planted paths")
    finally:
        if own:
            family.close()


def doomed_by(layout: _Layout, family: ShapeFamilySolver) -> list[Cell] | None:
    """Another path that no L-tetromino can ever rule out, if there is one: it crosses every
    L that the planted path crosses once exactly once too, so it is a solution of every
    layout and the planted path can never be the only one. None when there is none (or the
    solver's budget ran out on the question: the repair rounds then go on as before).

    One SAT call on the family solver, every L the planted path crosses once switched on at
    once (about 10 ms on 20x20). The repair rounds used to find such a path only at the end,
    when no L could rule out the other path they met: on 65 planted paths of 28 boards
    (20x20), 18 paths ended that way after 48 to 184 rounds, 59 of the 256 s spent. On 30
    of those paths (15 boards), this call named the 9 that ended that way and none of the
    other 21 (docs/BENCHMARKS.md, "Mazes 20x20 generation")."""
    found = family.shape_solutions(layout.crossed_once, 1, excluded=[layout.path],
                                   conflicts=CONFLICT_BUDGET)
    return found[0] if found else None


def _other(layout: _Layout, family: ShapeFamilySolver, exact: bool) -> Other | None:
    """A model of the layout other than the planted path (None: there is none, the board is
    unique; OutOfBudget when both solvers' budgets ran out). Rough (`exact` False): one SAT call on the
    family's solver, whose detached cycles are cut but not solved again (Other.exact says
    whether it had any); exact: a second solution path. Past CONFLICT_BUDGET on the family's
    solver, the second opinion decides, exactly."""
    shapes = list(layout.shapes.values())
    if exact:
        paths = family.shape_solutions(shapes, 1, excluded=[layout.path],
                                       conflicts=CONFLICT_BUDGET)
        if paths is not None:
            return Other(frozenset(paths[0]), True) if paths else None
    else:
        try:
            return family.shape_other(shapes, excluded=[layout.path], conflicts=CONFLICT_BUDGET)
        except OutOfBudget:
            pass
    # hard to decide on the family's solver: ask a fresh one
    paths = _second_opinion(layout, family)
    if paths is None:
        raise OutOfBudget
    return Other(frozenset(paths[0]), True) if paths else None


def _second_opinion(layout: _Layout, family: ShapeFamilySolver) -> list[list[Cell]] | None:
    """Another solution of the layout, [] if there is none, None if PROOF_SOLVER's budget ran
    out too: the layout's board alone on a fresh solver, with the last PROOF_CUTS cycle cuts
    the family found (each holds on every board of the size). The family's calls that run out of budget are
    almost all the last one, the proof that the board is unique, and its solver is slowed by
    what the earlier rounds left (retired selectors, learnt clauses): of 13 such layouts on
    40 planted paths, 12 were unique (the 13th undecided after 30 s), and a fresh MiniSat
    proved 8 of them within 2.6 s (docs/BENCHMARKS.md, "Mazes 20x20 generation")."""
    solver = MazeSolver(layout.board("layout"), PROOF_SOLVER)
    try:
        for region in family.cut_regions[-PROOF_CUTS:]:
            solver.add_cut(region)
        return solver.solutions(1, excluded=[layout.path], conflicts=PROOF_BUDGET)
    finally:
        solver.close()


def _rule_out(layout: _Layout, other: set[Cell], rng: random.Random) -> bool:
    """Add an L that the other path cannot cross exactly once, preferring those it crosses
    most (they sit where the two paths part); if none fits, move a shape the other path
    crosses to make room; if none can move, clear the room of such an L, taking away the
    fewest shapes in its way. False when no L on the board could ever rule the other path
    out: this planted path is given up.

    Before, the last resort took away one shape the other path crosses. That path still
    crosses every other shape once, so the next round met it again: on the slow boards of
    new seeds, most planted paths ended with 30-40 rounds in a row that took a shape away
    each, down to an empty board."""
    if _add_ruling_out(layout, other, rng):
        return True
    crossed = sorted({layout.owner[c] for c in other if c in layout.owner})
    rng.shuffle(crossed)
    for k in crossed:
        cells = layout.shapes[k]
        layout.remove(k)
        if _add_ruling_out(layout, other, rng):
            return True
        layout.add(cells)
    owner = layout.owner
    ruling = [(len({owner[x] for x in cells if x in owner}), -crossings, cells)
              for cells in layout.crossed_once
              if (crossings := len(other.intersection(cells))) != 1]
    if not ruling:
        return False
    best = min(ruling)[:2]
    cells = rng.choice([c for blocked, most, c in ruling if (blocked, most) == best])
    for k in sorted({owner[x] for x in cells if x in owner}):
        layout.remove(k)
    layout.add(cells)
    return True


def _add_ruling_out(layout: _Layout, other: set[Cell], rng: random.Random) -> bool:
    options = layout.candidates(other)
    if not options:
        return False
    crossings = [len(other.intersection(cells)) for cells in options]
    most = max(crossings)
    layout.add(rng.choice([cells for cells, n in zip(options, crossings) if n == most]))
    return True


def generate_boards(size: int, count: int, seed: int, shapes: int | None = None,
                    width: int | None = None) -> list[GeneratedBoard]:
    """`count` unique size x size (or size x width) boards, reproducible from `seed`."""
    return list(iter_boards(size, count, seed, shapes, width))


def iter_boards(size: int, count: int, seed: int, shapes: int | None = None,
                width: int | None = None, *, skip: Container[int] = ()) -> Iterator[GeneratedBoard]:
    """generate_boards one at a time, each as soon as it is proven unique; the boards
    numbered in `skip` (from 0) are left out. Board k depends on the size, shapes, seed and k
    alone (its own random stream and a fresh solver, whose answers would otherwise depend on
    what it solved before), so a resumed run makes the same boards."""
    if count < 1:
        raise GenerationError("count must be at least 1")
    width = width or size
    for k in range(count):
        if k not in skip:
            rng = random.Random(f"mazes-{size}x{width}-{shapes}-{seed}-{k}")
            yield generate_board(size, width, rng, shapes,
                                 name=f"maze{width}x{size}-s{seed}-{k:04d}")


# -- `logic-agents generate mazes` -----------------------------------------------------------
def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([0-9]{1,4})(?:x([0-9]{1,4}))?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"give N (N x N) or WxH, such as 9 or 15x12, not "
                                         f"{text[:40]!r}")
    return int(m.group(1)), int(m.group(2) or m.group(1))  # (width, height)


OPTIONS = (
    Option("size", tuple, None, "N x N, or width x height (the order of every --size)",
           metavar="N|WxH", parse=_size, required=True),
    Option("shapes", int, None, "at most K L-tetrominoes (default: as many as fit)",
           metavar="K", parse=integer),
)


def _run(request: GenerateRequest) -> GenerateReport:
    opt_shapes = request.options.get("shapes")
    opt_size = request.need("size")

    width, height = opt_size
    out = Path(request.output)
    paths = [out / f"maze{width}x{height}-s{request.seed}-{k:04d}.txt" for k in range(request.count)]
    kept = kept_files(paths, load_board, request.force, request.resume)
    written, made = [], []
    todo = iter_boards(height, request.count, request.seed, opt_shapes, width=width, skip=kept)
    for g in streamed(todo, request.count - len(kept), "mazes"):
        path = out / f"{g.board.name}.txt"
        write_file(path, format_board(g.board, f"Exactly One Mazes {g.board.name} "
                                      f"({width}x{height}, {len(g.board.shapes)} shapes); "
                                      f"generated by logic-agents {__version__}, seed "
                                      f"{request.seed}; unique"))
        written.append(str(path))
        made.append(g)
    secs = [g.seconds for g in made] or [0.0]
    return GenerateReport(
        written, len(made), len(kept),
        f"unique {width}x{height} mazes to {out} in {sum(secs):.2f}s (max {max(secs):.2f}s "
        "per board)",
        {"boards": [{"name": g.board.name, "shapes": len(g.board.shapes),
                     "path_length": len(g.solution), "rounds": g.rounds,
                     "restarts": g.restarts, "seconds": round(g.seconds, 4)} for g in made]})


GENERATOR = Generator(options=OPTIONS, generate=_run,
                      help="unique boards, one file each")
