"""The Undead report's search methods, rebuilt so that they run side by side with SAT.

Concepts:
- zero_fill(puzzle): the report's preprocessing. On a line of sight whose clue is 0, every
  empty cell before the first mirror is a ghost, every one after it a vampire.
- Budget: a node cap and a time cap; a search that exceeds either stops with `stopped` set.
- brute_force: random arrangements of the missing monsters (the totals hold by construction)
  until every clue holds; a node is one arrangement.
- dfs_square: depth-first, square by square in reading order; after each placement every line
  of sight through the square is checked (seen <= clue <= seen + still open) and no total may
  be exceeded; a node is one placement tried.
- dfs_path: every filling of each line of sight's open squares consistent with its clue,
  generated up front; sights ordered by fewest options; depth-first sight by sight. Each
  physical line appears twice, once from each end.
- dfs_path_tight: as dfs_path, but each physical line once, its options those valid from
  both ends (the intersection).
- SearchResult: the solution or None, nodes, and why it stopped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.sight import seen
from logic_agents.world.budget import DEFAULT_MEMORY_CAP, BudgetExceeded
from logic_agents.world.budget import Budget as SearchBudget

DEFAULT_NODE_CAP = 5_000_000
DEFAULT_TIME_CAP = 10.0
OPTION_BYTES = 64  # a line filling's tuple and its list slot, besides 8 bytes per cell


def Budget(node_cap: int | None = DEFAULT_NODE_CAP,  # noqa: N802 - reads as the class
           time_cap: float | None = DEFAULT_TIME_CAP,
           memory_cap: int | None = DEFAULT_MEMORY_CAP) -> SearchBudget:
    """A search budget with this game's default caps (memory_cap in bytes)."""
    return SearchBudget(node_cap, time_cap, memory_cap)


@dataclass
class SearchResult:
    solution: str | None
    nodes: int
    stopped: str | None = None  # the cap that stopped the search; None when it ran to the end
    zero_filled: int = 0
    seconds: float = 0.0


def zero_fill(puzzle: UndeadPuzzle) -> dict[int, str] | None:
    """Monsters forced by the clues that are 0 (None if two of them disagree)."""
    fixed: dict[int, str] = {}
    for sight in puzzle.sights:
        if puzzle.clues[sight.clue] != 0:
            continue
        for cell, bounced in sight.visits:
            monster = "V" if bounced else "G"
            if fixed.get(cell, monster) != monster:
                return None
            fixed[cell] = monster
    return fixed


class _State:
    """Assignment, per-sight seen/open counters and per-type totals, with undo."""

    def __init__(self, puzzle: UndeadPuzzle):
        self.puzzle = puzzle
        self.sights: list[tuple[int, tuple[tuple[int, bool], ...]]] = [
            (clue, s.visits) for s in puzzle.sights
            if (clue := puzzle.clues[s.clue]) is not None]
        self.occurs: dict[int, list[tuple[int, bool]]] = {i: [] for i in puzzle.monster_cells}
        for k, (_, visits) in enumerate(self.sights):
            for cell, bounced in visits:
                self.occurs[cell].append((k, bounced))
        self.seen = [0] * len(self.sights)
        self.open = [len(visits) for _, visits in self.sights]
        self.used = dict.fromkeys(MONSTERS, 0)
        self.total = dict(zip(MONSTERS, puzzle.counts))
        self.cells: dict[int, str] = {}

    def assign(self, cell: int, monster: str) -> bool:
        """Place and report whether every touched constraint can still hold (undo either way)."""
        self.cells[cell] = monster
        self.used[monster] += 1
        ok = self.used[monster] <= self.total[monster]
        for k, bounced in self.occurs[cell]:
            self.open[k] -= 1
            if seen(monster, bounced):
                self.seen[k] += 1
            clue = self.sights[k][0]
            if self.seen[k] > clue or self.seen[k] + self.open[k] < clue:
                ok = False
        return ok

    def unassign(self, cell: int) -> None:
        monster = self.cells.pop(cell)
        self.used[monster] -= 1
        for k, bounced in self.occurs[cell]:
            self.open[k] += 1
            if seen(monster, bounced):
                self.seen[k] -= 1

    def solution(self) -> str:
        out = list(self.puzzle.grid)
        for cell, monster in self.cells.items():
            out[cell] = monster
        return "".join(out)


def _prepare(puzzle: UndeadPuzzle, use_zero_fill: bool) -> tuple[_State, int] | None:
    state = _State(puzzle)
    fixed = dict(puzzle.givens)
    filled = 0
    if use_zero_fill:
        zeros = zero_fill(puzzle)
        if zeros is None:
            return None
        for cell, monster in zeros.items():
            if fixed.get(cell, monster) != monster:
                return None
            if cell not in fixed:
                filled += 1
            fixed[cell] = monster
    for cell, monster in fixed.items():
        if not state.assign(cell, monster):
            return None
    return state, filled


def _dfs_cells(state: _State, cells: list[int], budget: SearchBudget) -> bool:
    """Square-by-square depth-first completion of `cells` (in order) from `state`."""
    if not cells:
        return all(state.used[m] == state.total[m] for m in MONSTERS)
    cell, rest = cells[0], cells[1:]
    for monster in MONSTERS:
        budget.tick()
        if state.assign(cell, monster) and _dfs_cells(state, rest, budget):
            return True
        state.unassign(cell)
    return False


def _path_options(state: _State, visits_and_clues: list[tuple[tuple[tuple[int, bool], ...], int]],
                  budget: SearchBudget) -> tuple[list[int], list[tuple[str, ...]]]:
    """The open cells of a line (first-visit order) and every filling of them under which
    each (visits, clue) pair holds given the cells already placed."""
    cells: list[int] = []
    for visits, _ in visits_and_clues:
        for cell, _b in visits:
            if cell not in state.cells and cell not in cells:
                cells.append(cell)
    index = {cell: k for k, cell in enumerate(cells)}
    # per constraint: fixed seen count and, per open cell, the list of bounce flags
    checks = []
    for visits, clue in visits_and_clues:
        base = sum(seen(state.cells[c], b) for c, b in visits if c in state.cells)
        per_cell: dict[int, list[bool]] = {}
        for c, b in visits:
            if c in index:
                per_cell.setdefault(index[c], []).append(b)
        checks.append((clue, base, per_cell))
    options: list[tuple[str, ...]] = []
    chosen: list[str] = []

    def feasible(depth: int) -> bool:
        for clue, base, per_cell in checks:
            got, still = base, 0
            for k, flags in per_cell.items():
                if k < depth:
                    got += sum(seen(chosen[k], b) for b in flags)
                else:
                    still += len(flags)
            if got > clue or got + still < clue:
                return False
        return True

    def extend(depth: int) -> None:
        if depth == len(cells):
            options.append(tuple(chosen))
            budget.hold(OPTION_BYTES + 8 * depth)  # kept until the search ends
            return
        for monster in MONSTERS:
            budget.tick()
            chosen.append(monster)
            if feasible(depth + 1):
                extend(depth + 1)
            chosen.pop()

    if feasible(0):
        extend(0)
    return cells, options


def _dfs_lines(state: _State, lines: list[tuple[list[int], list[tuple[str, ...]]]],
               budget: SearchBudget) -> bool:
    if not lines:
        rest = [c for c in state.puzzle.monster_cells if c not in state.cells]
        return _dfs_cells(state, rest, budget)
    (cells, options), others = lines[0], lines[1:]
    for option in options:
        budget.tick()
        placed: list[int] = []
        ok = True
        for cell, monster in zip(cells, option):
            if cell in state.cells:
                if state.cells[cell] != monster:
                    ok = False
                    break
                continue
            placed.append(cell)
            if not state.assign(cell, monster):
                ok = False
                break
        if ok and _dfs_lines(state, others, budget):
            return True
        for cell in reversed(placed):
            state.unassign(cell)
    return False


def _lines(puzzle: UndeadPuzzle, tight: bool) -> list[list[tuple[tuple[tuple[int, bool], ...], int]]]:
    """The lines to search: each clued sight on its own, or (tight) each physical line once
    with the clues of both its ends."""
    by_clue = {s.clue: s for s in puzzle.sights}
    out: list[list[tuple[tuple[tuple[int, bool], ...], int]]] = []
    done = set()
    for sight in puzzle.sights:
        clue = puzzle.clues[sight.clue]
        if not tight:
            if clue is not None:
                out.append([(sight.visits, clue)])
            continue
        if sight.clue in done:
            continue
        done |= {sight.clue, sight.exit}
        pair = [(s.visits, end_clue) for s in (sight, by_clue[sight.exit])
                if (end_clue := puzzle.clues[s.clue]) is not None]
        if pair and sight.exit == sight.clue:  # pragma: no cover - a line cannot return
            pair = pair[:1]
        if pair:
            out.append(pair)
    return out


def _run(puzzle: UndeadPuzzle, use_zero_fill: bool, budget: SearchBudget,
         body: Callable[[_State], bool]) -> SearchResult:
    started = time.perf_counter()
    budget.start()
    prepared = _prepare(puzzle, use_zero_fill)
    if prepared is None:
        return SearchResult(None, 0, None, 0, time.perf_counter() - started)
    state, filled = prepared
    try:
        found = body(state)
        stopped = None
    except BudgetExceeded as stop:
        found, stopped = False, stop.reason
    return SearchResult(state.solution() if found else None, budget.nodes, stopped, filled,
                        time.perf_counter() - started)


def dfs_square(puzzle: UndeadPuzzle, *, zero_fill: bool = True,
               budget: SearchBudget | None = None) -> SearchResult:
    budget = budget or Budget()

    def body(state: _State) -> bool:
        cells = [c for c in puzzle.monster_cells if c not in state.cells]
        return _dfs_cells(state, cells, budget)

    return _run(puzzle, zero_fill, budget, body)


def _dfs_path(puzzle: UndeadPuzzle, tight: bool, zero_fill: bool,
              budget: SearchBudget | None) -> SearchResult:
    budget = budget or Budget()

    def body(state: _State) -> bool:
        lines = [_path_options(state, line, budget) for line in _lines(puzzle, tight)]
        lines.sort(key=lambda line: len(line[1]))
        return _dfs_lines(state, lines, budget)

    return _run(puzzle, zero_fill, budget, body)


def dfs_path(puzzle: UndeadPuzzle, *, zero_fill: bool = True,
             budget: SearchBudget | None = None) -> SearchResult:
    return _dfs_path(puzzle, False, zero_fill, budget)


def dfs_path_tight(puzzle: UndeadPuzzle, *, zero_fill: bool = True,
                   budget: SearchBudget | None = None) -> SearchResult:
    return _dfs_path(puzzle, True, zero_fill, budget)


def brute_force(puzzle: UndeadPuzzle, *, zero_fill: bool = True, budget: SearchBudget | None = None,
                rng: random.Random | None = None) -> SearchResult:
    budget = budget or Budget()
    rng = rng or random.Random(0)

    def body(state: _State) -> bool:
        free = [c for c in puzzle.monster_cells if c not in state.cells]
        bag = [m for m in MONSTERS for _ in range(state.total[m] - state.used[m])]
        if len(bag) != len(free) or any(state.used[m] > state.total[m] for m in MONSTERS):
            return False
        sights = state.sights
        grid = list(state.solution())
        while True:
            budget.tick()
            rng.shuffle(bag)
            for cell, monster in zip(free, bag):
                grid[cell] = monster
            if all(sum(seen(grid[c], b) for c, b in visits) == clue for clue, visits in sights):
                for cell, monster in zip(free, bag):
                    state.cells[cell] = monster
                return True

    return _run(puzzle, zero_fill, budget, body)


METHODS = {"brute-force": brute_force, "dfs-square": dfs_square, "dfs-path": dfs_path,
           "dfs-path-tight": dfs_path_tight}
