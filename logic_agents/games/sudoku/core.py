"""A Sudoku puzzle's clue core: the rules restricted to what its clues leave possible.

Concepts:
- candidates(puzzle): each cell's values still possible after constraint propagation of the
  clues in Python (a placed value leaves its peers; a value with one place left in a unit
  goes there), run to a fixed point; None when the clues contradict each other.
- clue_core(puzzle): the rules restricted to those values, built without a solver: every
  Exactly-1 group becomes an at-least-one clause and pairwise at-most-one clauses. The
  deductions are sound, so its models are exactly the puzzle's solutions.
- search_core / solve_one: up to `limit` solutions of a core on a fresh solver (what `solve`
  does for 16x16 and 25x25: the whole rules, 750,000 clauses at 25x25, never reach it).
- peers_of(n), grid_of, exactly_one: the layout and the small pieces the encoding shares.
"""

from __future__ import annotations

from collections.abc import Callable

from logic_agents.games.sudoku.board import Grid, SudokuPuzzle, units
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle
from logic_agents.solving.puzzle import SolveResult, result_of

CORE_SOLVER = "cadical153"


def grid_of(true_lits: list[int], n: int) -> Grid:
    """The grid the true cell variables of a model name ((cell*N + v) for value v)."""
    grid = [0] * (n * n)
    for lit in true_lits:
        cell, v = divmod(lit - 1, n)
        grid[cell] = v + 1
    return tuple(grid)


def exactly_one(groups: list[list[int]]) -> list[list[int]]:
    """Each group's at-least-one clause and pairwise at-most-one clauses."""
    clauses: list[list[int]] = []
    for group in groups:
        clauses.append(group)
        clauses += [[-a, -b] for k, a in enumerate(group) for b in group[k + 1:]]
    return clauses


def search_core(clauses: list[list[int]], n: int, num_vars: int, limit: int, solver: str,
                given: set[int], readable: Callable[[int], bool],
                shuffle: int | None = None) -> list[Grid]:
    """Up to `limit` solutions of a puzzle's core on a fresh solver. A variable the core
    leaves out (a value ruled out) may come back true, so only `readable` ones are read; a
    solution is blocked by its open cells' values alone (one-hot cells)."""
    found: list[Grid] = []
    with SatOracle(KnowledgeBase.from_clauses(num_vars, clauses), solver, shuffle=shuffle) as core:
        while len(found) < limit and core.solve() is True:
            true = [lit for lit in core.raw_model() if lit > 0 and readable(lit)]
            found.append(grid_of(true, n))
            core.add([[-lit for lit in true if lit not in given]])
    return found


def _peers_and_units(n: int) -> tuple[list[list[int]], list[list[int]]]:
    all_units = [[r * n + c for r, c in unit] for unit in units(n)]
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for members in all_units:
        for cell in members:
            peers[cell].update(members)
    return [sorted(p - {cell}) for cell, p in enumerate(peers)], all_units


_LAYOUT: dict[int, tuple[list[list[int]], list[list[int]]]] = {}


def peers_of(n: int) -> list[list[int]]:
    """Each cell's peers (the other cells of its row, column and box), by cell index."""
    if n not in _LAYOUT:
        _LAYOUT[n] = _peers_and_units(n)
    return _LAYOUT[n][0]


def candidates(puzzle: SudokuPuzzle) -> list[set[int]] | None:
    """Each cell's values still possible after the clues, by the two sound deductions of
    constraint propagation run to a fixed point: a placed value leaves its peers, and a value
    with one place left in a unit goes there (so a cell with one value left is placed). None
    when the clues contradict each other."""
    n = puzzle.n
    if n not in _LAYOUT:
        _LAYOUT[n] = _peers_and_units(n)
    peers, all_units = _LAYOUT[n]
    possible = [{v} if v else set(range(1, n + 1)) for v in puzzle.cells]
    todo = [cell for cell, v in enumerate(puzzle.cells) if v]
    placed: set[int] = set()
    while True:
        while todo:
            cell = todo.pop()
            if cell in placed:
                continue
            placed.add(cell)
            (value,) = possible[cell]
            for peer in peers[cell]:
                if value in possible[peer]:
                    possible[peer].discard(value)
                    if not possible[peer]:
                        return None
                    if len(possible[peer]) == 1:
                        todo.append(peer)
        for members in all_units:  # hidden singles
            for value in range(1, n + 1):
                places = [cell for cell in members if value in possible[cell]]
                if not places:
                    return None
                if len(places) == 1 and places[0] not in placed and len(possible[places[0]]) > 1:
                    possible[places[0]] = {value}
                    todo.append(places[0])
        if not todo:
            return possible


def clue_core(puzzle: SudokuPuzzle) -> tuple[list[list[int]], list[int]]:
    """The rules restricted to the values the clues leave possible (`candidates`), built
    without a solver: (clauses, the variables already true). Every Exactly-1 group (a cell's
    values; a unit's places for a value) becomes an at-least-one clause over its open
    variables and pairwise at-most-one clauses; a decided cell is a unit clause. The
    deductions are sound, so the models are exactly the puzzle's solutions. Variables are
    numbered as in the whole rules ((r*N + c)*N + v for X_r{r}c{c}_v{v})."""
    n = puzzle.n
    possible = candidates(puzzle)
    if possible is None:
        return [[]], []
    true = [cell * n + next(iter(p)) for cell, p in enumerate(possible) if len(p) == 1]
    groups = [[cell * n + v for v in sorted(p)] for cell, p in enumerate(possible) if len(p) > 1]
    for members in _LAYOUT[n][1]:
        for value in range(1, n + 1):
            places = [cell * n + value for cell in members if value in possible[cell]]
            if len(places) > 1:
                groups.append(places)
    return [[lit] for lit in true] + exactly_one(groups), true


def solve_one(puzzle: SudokuPuzzle, unique: bool = True, solver: str | None = None,
              shuffle: int | None = None) -> SolveResult[Grid]:
    """One puzzle on its own fresh solver, fed only the rules its clues leave open
    (clue_core): a few thousand clauses instead of the whole rules, which cost more to hand
    to a solver than the search itself. What it answers depends on the puzzle alone."""
    clauses, true = clue_core(puzzle)
    n = puzzle.n
    possible = {lit for clause in clauses for lit in clause if lit > 0}
    found = search_core(clauses, n, n * n * n, 2 if unique else 1, solver or CORE_SOLVER,
                        set(true), possible.__contains__, shuffle)
    return result_of(found, unique=unique)
