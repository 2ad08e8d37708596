"""The Sudoku encoding: stated once per size, asked with each puzzle's clues as assumptions.

Concepts:
- X_r{r}c{c}_v{v} (0-based row and column, as every coordinate a person reads): cell (r, c)
  holds value v.
- rules(n): the extended encoding as 4*N*N Exactly(1, ...) nodes: every cell holds one value,
  every row, column and box holds every value once. A person can print it (kb.pretty()).
- SudokuSolver: the rules of one size on one incremental SatOracle; a puzzle's clues are
  assumptions, so nothing is rebuilt between puzzles. Only the compiled rules are cached
  (rules_for, immutable); every agent and solve call owns its solver, so an answer never
  depends on what the process solved before.
- solve / count_solutions: a solution; up to `limit` solutions (uniqueness: limit=2), the
  blocking clauses under a selector that is retired afterwards.
- The puzzle's core (sizes in CORE_SIZES): the incremental solver propagates the clues, and
  the search runs on a small fresh formula over the values still possible (the same rules,
  restricted). On 25x25 boards that cut the worst case from 2.3 s to under 0.5 s, while on
  9x9 and 16x16 the plain assumptions are quicker (benchmarks/bench_sudoku.py).
- Canonical answers (`canonical`, `first_solution`, `next_solution`): the first solution in
  reading order (and the next one), so a solver kept warm across puzzles answers as a fresh
  one would (`solve` keeps one per size up to 9x9: the rules are told once, not per puzzle).
  A descent improves a solution cell by cell under assumptions; the next one is found by
  halving the run of cells it shares with the first.
- One puzzle alone (what `solve` does for 16x16 and 25x25) is sudoku.core's: the rules
  restricted by constraint propagation of the clues in Python, so the whole rules (750,000
  clauses at 25x25) never reach a solver. SudokuSolver (the whole rules, and the propagated
  core past a conflict budget on 25x25) serves the agents, which ask many questions of one
  puzzle.
"""

from __future__ import annotations

import functools
import math

from logic_agents.games.sudoku.board import Grid, SudokuPuzzle, units
from logic_agents.games.sudoku.core import (
    CORE_SOLVER,
    exactly_one,
    peers_of,
    search_core,
)
from logic_agents.ground.shapes import Record
from logic_agents.logic.ids import IdCardinality, IdClause, Key
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.names import DEFAULT_SOLVER
from logic_agents.logic.oracle import SatOracle
from logic_agents.solving.puzzle import SolveResult, result_of

# Exactly(1, N literals) as pairwise clauses beat the sequential counter at every size
# (benchmarks/bench_sudoku.py, docs/BENCHMARKS.md).
DEFAULT_CARD_ENCODING = "pairwise"
# The solver per size, by the same benchmark: CaDiCaL is quicker on 9x9 (the 17-clue set
# above all), glucose4 on the big boards, where CaDiCaL's worst cases run for seconds.
DEFAULT_SOLVERS = {4: "glucose4", 9: "cadical195", 16: "glucose4", 25: "glucose4"}
# Sizes searched on the puzzle's core rather than under assumptions on the whole rules: on
# 25x25 at 45% given the full formula sends the search astray on some puzzles (2.3 s), the
# propagated core never does (same benchmark).
CORE_SIZES = frozenset({25})
CORE_AFTER = 2000  # conflicts under assumptions before a puzzle goes to its core
# a puzzle with at most this many solutions is answered by finding them all and sorting
FEW_SOLUTIONS = 8


def default_solver(n: int) -> str:
    return DEFAULT_SOLVERS.get(n, DEFAULT_SOLVER)


def var_key(r: int, c: int, v: int) -> Key:
    """The key of "cell (r, c) holds v" (0-based r, c; value 1..N); its name is X_r0c0_v1 for (0, 0) and 1."""
    return ("X", f"r{r}c{c}", f"v{v}")


def rules(n: int, kb: KnowledgeBase | None = None) -> KnowledgeBase:
    """Tell a KB the rules of N x N Sudoku as Exactly(1, ...) constraints (told over ids, so
    no sympy is loaded; kb.pretty() prints them as Exactly(1, X_r0c0_v1, ...))."""
    kb = kb if kb is not None else KnowledgeBase()
    x = {(r, c, v): kb.var(var_key(r, c, v))  # ids in a fixed order: cell-major, then value
         for r in range(n) for c in range(n) for v in range(1, n + 1)}
    formulas = [IdCardinality("Exactly", 1, [x[r, c, v] for v in range(1, n + 1)])
                for r in range(n) for c in range(n)]
    for unit in units(n):
        for v in range(1, n + 1):
            formulas.append(IdCardinality("Exactly", 1, [x[r, c, v] for r, c in unit]))
    kb.tell(*formulas)
    return kb


@functools.lru_cache(maxsize=8)
def rule_words(n: int) -> Record:
    """Each rule formula of size n in words, for explanations ("row 3 holds one 7")."""
    out = {}
    rules_list = rules_for(n).formulas
    k = 0
    for r in range(n):
        for c in range(n):
            out[rules_list[k]] = f"r{r}c{c} holds one value"
            k += 1
    b = math.isqrt(n)
    names = ([f"row {r}" for r in range(n)] + [f"column {c}" for c in range(n)]
             + [f"box {i}" for i in range(b * b)])
    for name in names:
        for v in range(1, n + 1):
            out[rules_list[k]] = f"{name} holds one {v}"
            k += 1
    return out


class SudokuSolver:
    """The rules of one size on one incremental solver; puzzles come as assumptions."""

    def __init__(self, n: int, solver: str | None = None,
                 card_encoding: str = DEFAULT_CARD_ENCODING, core: bool | None = None,
                 shuffle: int | None = None):
        self.n = n
        self.shuffle = shuffle  # a renumbering of the variables, to measure luck
        self.core = (n in CORE_SIZES) if core is None else core
        self.core_after = CORE_AFTER  # conflicts on the whole rules before the core search
        solver = solver or default_solver(n)
        self.solver_name = solver
        self.kb = rules_for(n, card_encoding).copy()
        self.oracle = SatOracle(self.kb, solver, shuffle=shuffle)
        self.ids = [[[self.kb.var(var_key(r, c, v)) for v in range(1, n + 1)]
                     for c in range(n)] for r in range(n)]
        self.cell_vars = [i for row in self.ids for cell in row for i in cell]
        self.cell_ids = [cell for row in self.ids for cell in row]  # by cell index r*n + c
        self.guards = 0  # retired guard selectors: each stays, and models grow (warm.RENEW_AFTER)
        # every Exactly-1 group of the rules, as ids: the cells, then each unit's values
        self.groups = self.cell_ids + [
            [self.ids[r][c][v - 1] for r, c in unit]
            for unit in units(n) for v in range(1, n + 1)]

    def assumptions(self, puzzle: SudokuPuzzle) -> list[int]:
        ids = self.cell_ids
        return [ids[i][v - 1] for i, v in enumerate(puzzle.cells) if v]

    def decode(self, model: list[int]) -> Grid:
        """The grid of a model: cell variables come first, cell-major, then value; the rules
        make exactly one of each cell's true, so the true ones, in order, are the cells'."""
        n = self.n
        return tuple((lit - 1) % n + 1 for lit in model[: n * n * n] if lit > 0)

    def _guard_other_than(self, puzzle: SudokuPuzzle, grid: Grid) -> int:
        """A selector under which some open cell differs from `grid` (one-hot cells: its
        open cells' values name it); retire it with `self.oracle.add([[-selector]])`."""
        selector: int = self.kb.pool.id(("_aux", self.kb.pool.top + 1))
        self.guards += 1
        ids = self.cell_ids
        self.oracle.add_guarded(selector, [-ids[i][grid[i] - 1]
                                           for i, v in enumerate(puzzle.cells) if not v])
        return selector

    def two_solutions(self, puzzle: SudokuPuzzle) -> list[Grid]:
        """Up to two solutions (what uniqueness asks), blocking the first by its open cells
        alone: the same answer as count_solutions(puzzle, 2), with less work per call."""
        base = self.assumptions(puzzle)
        if self.oracle.solve(base) is not True:
            return []
        first = self.decode(self.oracle.raw_model())
        selector = self._guard_other_than(puzzle, first)
        try:
            if self.oracle.solve([*base, selector]) is True:
                return [first, self.decode(self.oracle.raw_model())]
            return [first]
        finally:
            self.oracle.add([[-selector]])  # retire the clause

    def first_solution(self, puzzle: SudokuPuzzle, start: Grid | None = None) -> Grid | None:
        """The first solution in reading order (the smallest value in the first open cell,
        then in the next, ...): the same grid whatever this solver learnt before, so a warm
        solver answers as a fresh one would. `start`: a solution already found, if any.

        A solution is improved cell by cell (`_descend`); tried and left: finding the cells
        every solution agrees on first (more calls than it spared), and a descent by "a
        solution before this one" constraints (fewer calls, each far dearer).
        """
        base = self.assumptions(puzzle)
        if start is None:
            if self.oracle.solve(base) is not True:
                return None
            start = self.decode(self.oracle.raw_model())
        opens = [i for i, v in enumerate(puzzle.cells) if not v]
        return self._descend(base, start, opens, 0, list(puzzle.cells), [])

    def next_solution(self, puzzle: SudokuPuzzle, first: Grid, other: Grid) -> Grid:
        """The solution after `first` in reading order, `first` being the first and `other`
        any other solution.

        It agrees with `first` on the longest run of open cells any other solution agrees
        on, so that run's length is searched for by halves (a call each, under "some open
        cell differs from first"); past it, the cell that differs takes its smallest larger
        value and the rest descend as in `first_solution`. On 9x9 that took the calls of a
        second answer from about 19 to about 5 (issue 55)."""
        base = self.assumptions(puzzle)
        opens = [i for i, v in enumerate(puzzle.cells) if not v]

        def agreed(grid: Grid) -> int:  # how many open cells, from the first, agree
            return next(k for k, i in enumerate(opens) if grid[i] != first[i])

        selector = self._guard_other_than(puzzle, first)
        try:
            # a solution other than first agrees on `low` open cells (grid does), none on `high`
            low, high, grid = agreed(other), len(opens), other
            while high - low > 1:
                middle = (low + high) // 2
                prefix = [self.cell_ids[i][first[i] - 1] for i in opens[:middle]]
                if self.oracle.solve([*base, selector, *prefix]) is True:
                    grid = self.decode(self.oracle.raw_model())
                    low = agreed(grid)
                else:
                    high = middle
        finally:
            self.oracle.add([[-selector]])  # retire the clause
        known = list(puzzle.cells)
        fixed = []
        for i in opens[:low]:
            known[i] = first[i]
            fixed.append(self.cell_ids[i][first[i] - 1])
        cell = opens[low]  # where the answer leaves first: the smallest value above first's
        taken = {known[p] for p in peers_of(self.n)[cell]}
        for value in range(first[cell] + 1, grid[cell]):
            if value not in taken and self.oracle.solve(
                    [*base, *fixed, self.cell_ids[cell][value - 1]]) is True:
                grid = self.decode(self.oracle.raw_model())
                break
        fixed.append(self.cell_ids[cell][grid[cell] - 1])
        known[cell] = grid[cell]
        return self._descend(base, grid, opens, low + 1, known, fixed)

    def _descend(self, base: list[int], grid: Grid, opens: list[int], start: int,
                 known: list[int], fixed: list[int]) -> Grid:
        """The first solution in reading order that agrees with `fixed` (the open cells before
        `opens[start]`, with `known` the grid so far), improving `grid`, one of them.

        Each open cell in turn keeps the smallest value a call allows: only values no peer
        holds (a given, or a cell fixed before) are asked. One such value is asked for
        itself; several are asked at once as "none of this value and those above" (negative
        assumptions, no clause), again while that answers. On 9x9 puzzles with hundreds of
        solutions that took the calls of an answer from about 560 to about 19 (issue 55)."""
        n = self.n
        peers = peers_of(n)
        for i in opens[start:]:
            ids = self.cell_ids[i]
            taken = {known[p] for p in peers[i]}
            while True:
                smaller = [v for v in range(1, grid[i]) if v not in taken]
                if not smaller:
                    break
                ask = ([ids[smaller[0] - 1]] if len(smaller) == 1
                       else [-ids[v - 1] for v in range(grid[i], n + 1)])
                if self.oracle.solve([*base, *fixed, *ask]) is not True:
                    break
                grid = self.decode(self.oracle.raw_model())
                if len(smaller) == 1:
                    break
            fixed.append(ids[grid[i] - 1])
            known[i] = grid[i]
        return grid

    def canonical(self, puzzle: SudokuPuzzle, unique: bool = True) -> SolveResult[Grid]:
        """As `check`, but every grid it gives is the first in reading order (the second
        of a puzzle with several: the first of the others), so a solver kept warm across
        puzzles (the rules told once) answers exactly as a fresh one.

        On the puzzle's core (25x25) a puzzle with a few solutions is answered by finding
        them all and sorting; on the whole rules the descents cost less than that search's
        calls and clauses (benchmarks/bench_sudoku_multi.py: 3.2 against 6.4 ms on 9x9)."""
        found = self._core_models(puzzle, 2) if self.core else self.two_solutions(puzzle)
        if len(found) < 2:  # none, or the one solution: nothing to choose
            return result_of(found, unique=unique)
        if self.core:
            every = self._every_solution(puzzle, found, FEW_SOLUTIONS)
            if every is not None:  # all of them known: the first two in reading order, sorted
                ordered = sorted(every)
                return result_of(ordered[:2] if unique else ordered[:1], unique=unique)
        first = self.first_solution(puzzle, start=found[0])
        assert first is not None
        if not unique:
            return result_of([first], unique=False)
        other = found[1] if found[1] != first else found[0]
        return result_of([first, self.next_solution(puzzle, first, other)], unique=True)

    def _every_solution(self, puzzle: SudokuPuzzle, found: list[Grid],
                        most: int) -> list[Grid] | None:
        """Every solution of the puzzle's core, when there are at most `most` (`found`: some
        of them); None when there are more. A puzzle with a few solutions (a deadly
        pattern's two) is then answered by sorting them, where a descent on the whole 25x25
        rules costs a call per open cell."""
        every = self._core_models(puzzle, most + 1)
        return every if len(every) <= most else None

    def solve(self, puzzle: SudokuPuzzle) -> Grid | None:
        budget = self.core_after if self.core else None
        answer = self.oracle.solve(self.assumptions(puzzle), conflicts=budget)
        if answer is None:  # past the budget: this puzzle is one the core search suits
            found = self._core_models(puzzle, 1)
            return found[0] if found else None
        return self.decode(self.oracle.raw_model()) if answer else None

    def _core_models(self, puzzle: SudokuPuzzle, limit: int) -> list[Grid]:
        """Up to `limit` solutions, searched on the puzzle's core: the rules restricted to
        the values unit propagation of the clues leaves possible (each group's at-least-one
        clause and pairwise at-most-one), on a fresh solver. Equivalent to the rules under
        the clues, so the solutions are the same."""
        ok, implied = self.oracle.propagate(self.assumptions(puzzle))
        if not ok:
            return []
        ruled_out = {-lit for lit in implied if lit < 0}
        given = {lit for lit in implied if lit > 0}
        # a group with no place left gives an empty clause: unsat
        clauses = exactly_one([[i for i in group if i not in ruled_out] for group in self.groups])
        return search_core(clauses, self.n, self.kb.num_vars, limit, CORE_SOLVER, given,
                           lambda lit: lit not in ruled_out, self.shuffle)

    def count_solutions(self, puzzle: SudokuPuzzle, limit: int = 2) -> list[Grid]:
        """Up to `limit` solutions. A solution is blocked by the values of its empty cells
        alone (one-hot cells make that enough), a short clause that keeps the search quick."""
        if self.core:
            return self._core_models(puzzle, limit)
        free = [var for i, v in enumerate(puzzle.cells) if not v for var in self.cell_ids[i]]
        models = self.oracle.raw_models(limit, over=free, assumptions=self.assumptions(puzzle),
                                        true_only=True)
        return [self.decode(m) for m in models]

    def close(self) -> None:
        self.oracle.close()

    def __enter__(self) -> SudokuSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self, puzzle: SudokuPuzzle, unique: bool = True) -> SolveResult[Grid]:
        """unique / multiple (with a second solution) / unsat; `solved` when unique=False."""
        if not unique:
            grid = self.solve(puzzle)
            return result_of([grid] if grid else [], unique=False)
        return result_of(self.count_solutions(puzzle, 2), unique=True)


@functools.lru_cache(maxsize=8)
def rules_for(n: int, card_encoding: str = DEFAULT_CARD_ENCODING) -> KnowledgeBase:
    """The compiled rules of one size, built once; never told more (solvers take a copy)."""
    return rules(n, KnowledgeBase(card_encoding=card_encoding))


def encode(puzzle: SudokuPuzzle) -> KnowledgeBase:
    """A fresh KB: the rules of the puzzle's size and its clues as unit clauses (for `cnf`)."""
    kb = rules(puzzle.n, KnowledgeBase(card_encoding=DEFAULT_CARD_ENCODING))
    n = puzzle.n
    kb.tell(*[IdClause([kb.var(var_key(i // n, i % n, v))]) for i, v in enumerate(puzzle.cells) if v])
    return kb


def decode(puzzle: SudokuPuzzle, model: dict[str, bool]) -> Grid:
    """A grid from a model given by variable name (as SatOracle.model returns it)."""
    n = puzzle.n
    grid = [0] * (n * n)
    for r in range(n):
        for c in range(n):
            for v in range(1, n + 1):
                if model.get(f"X_r{r}c{c}_v{v}"):
                    grid[r * n + c] = v
    return tuple(grid)


def count_solutions(puzzle: SudokuPuzzle, limit: int = 2) -> int:
    with SudokuSolver(puzzle.n) as solver:
        return len(solver.count_solutions(puzzle, limit))
