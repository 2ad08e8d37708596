"""LayoutSolver: every puzzle on one mirror layout, on one incremental solver.

Concepts:
- For a fixed mirror layout, the clues and totals are unary counters (logic/counter.py) whose
  values are assumptions, and givens are assumptions too: a generator that redraws monsters
  and recomputes clues many times keeps one solver and re-encodes nothing.
- solutions (blocking under a selector), other_solution (one SAT call when a solution is
  known), propagated (what unit propagation fixes), fresh (the same encoding on a new solver).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle
from logic_agents.games.undead.encode import DEFAULT_SOLVER, fill_monsters
from logic_agents.games.undead.sight import trace_sights
from logic_agents.logic.counter import UnaryCounter
from logic_agents.logic.kb import KnowledgeBase
from logic_agents.logic.oracle import SatOracle


class LayoutSolver:
    """Every puzzle on one mirror layout, on one incremental solver.

    Clues and totals are counters whose values are assumptions; givens are assumptions too.
    The generator redraws monsters and recomputes clues many times: nothing is re-encoded."""

    def __init__(self, width: int, height: int, grid: str, solver: str | None = None):
        from pysat.formula import IDPool

        self.width, self.height, self.grid = width, height, grid
        self.cells = [i for i, ch in enumerate(grid) if ch not in "LR"]
        pool = IDPool()
        self.ids = {i: [pool.id((m, i)) for m in MONSTERS] for i in self.cells}
        self.monster_vars = [v for vs in self.ids.values() for v in vs]
        clauses: list[list[int]] = []
        for vs in self.ids.values():
            clauses.append(list(vs))
            clauses += [[-a, -b] for k, a in enumerate(vs) for b in vs[k + 1:]]
        new_var = pool._next
        self.totals = [UnaryCounter([vs[k] for vs in self.ids.values()], new_var)
                       for k in range(3)]
        self.sights = trace_sights(width, height, grid)
        self.sight_counters = []
        for sight in self.sights:
            lits = [-self.ids[cell][1 if bounced else 0] for cell, bounced in sight.visits]
            self.sight_counters.append(UnaryCounter(lits, new_var))
        for counter in self.totals + self.sight_counters:
            clauses += counter.clauses
        self.num_clauses = len(clauses)
        names = {v: f"{m}_{i}" for i, vs in self.ids.items() for m, v in zip(MONSTERS, vs)}
        self._encoding = (pool.top, clauses, names)
        self.kb = KnowledgeBase.from_clauses(pool.top, clauses, names)
        self.oracle = SatOracle(self.kb, solver or DEFAULT_SOLVER)

    def fresh(self) -> LayoutSolver:
        """The same layout on a new solver, with none of this one's learnt clauses (the
        encoding is shared, not rebuilt)."""
        twin = copy.copy(self)
        twin.kb = KnowledgeBase.from_clauses(*self._encoding)
        twin.oracle = SatOracle(twin.kb, self.oracle.solver_name)
        return twin

    def assumptions(self, counts: Iterable[int | None], clues: Iterable[int | None],
                    givens: dict[int, str] | None = None) -> list[int] | None:
        """The puzzle's numbers as assumptions (a None count or clue is not assumed)."""
        out: list[int] = []
        for counter, k in zip(self.totals + self.sight_counters, [*counts, *clues]):
            if k is None:
                continue
            lits = counter.exactly(k)
            if lits is None:
                return None
            out += lits
        for i, m in (givens or {}).items():
            out.append(self.ids[i][MONSTERS.index(m)])
        return out

    def decode(self, model: Iterable[int]) -> str:
        return fill_monsters(self.grid, self.ids, model)

    def solutions(self, puzzle: UndeadPuzzle, limit: int = 2,
                  conflicts: int | None = None) -> list[str] | None:
        """Up to `limit` solutions of a puzzle on this layout (blocking under a selector).

        With a `conflicts` budget per SAT call, None means the budget ran out before the
        answer was known (the generator then treats the puzzle as not yet unique)."""
        assumptions = self.assumptions(puzzle.counts, puzzle.clues, puzzle.givens)
        if assumptions is None:
            return []
        selector = self.kb.var(("SEL", self.kb.num_vars + 1))  # blocking clauses hang on it
        found: list[str] = []
        out_of_budget = False
        while len(found) < limit:
            result = self.oracle.solve([selector, *assumptions], conflicts=conflicts)
            if result is None:
                out_of_budget = True
                break
            if not result:
                break
            model = self.oracle.raw_model()
            found.append(self.decode(model))
            self.oracle.add_guarded(selector, [-v for v in self.monster_vars if model[v - 1] > 0])
        self.oracle.add([[-selector]])  # retire them
        return None if out_of_budget else found

    def other_solution(self, puzzle: UndeadPuzzle, known: str, conflicts: int | None = None,
                       *, totals: bool = True, hold: Iterable[int] = ()
                       ) -> tuple[bool | None, str | None]:
        """Whether `known`, a solution of the puzzle, is its only one, in one SAT call (the
        generator already holds a solution, so it need not ask for one): (True, None) when
        it is unique, (False, other) with a second solution, (None, None) when the
        `conflicts` budget ran out first.

        A relaxed question, for the generator's redraws: without `totals` the monster totals
        are not assumed, and the cells in `hold` keep their monster from `known`."""
        givens = {**puzzle.givens, **{i: known[i] for i in hold}}
        counts = puzzle.counts if totals else (None,) * len(puzzle.counts)
        assumptions = self.assumptions(counts, puzzle.clues, givens)
        if assumptions is None:
            raise ValueError("`known` is no solution of the puzzle: its counts do not fit")
        selector = self.kb.var(("SEL", self.kb.num_vars + 1))
        self.oracle.add_guarded(selector, [-self.ids[i][MONSTERS.index(known[i])]
                                           for i in self.cells])
        result = self.oracle.solve([selector, *assumptions], conflicts=conflicts)
        other = self.decode(self.oracle.raw_model()) if result else None
        self.oracle.add([[-selector]])  # retire the blocking clause
        return (None if result is None else not result), other

    def propagated(self, puzzle: UndeadPuzzle, placed: dict[int, str]) -> dict[int, str] | None:
        """The monsters unit propagation fixes from the puzzle and `placed` (None: conflict)."""
        assumptions = self.assumptions(puzzle.counts, puzzle.clues, {**puzzle.givens, **placed})
        if assumptions is None:
            return None
        ok, implied = self.oracle.propagate(assumptions)
        if not ok:
            return None
        true = {lit for lit in implied if lit > 0}
        return {i: m for i, vs in self.ids.items() for m, v in zip(MONSTERS, vs) if v in true}

    @property
    def calls(self) -> int:
        return self.oracle.calls

    def close(self) -> None:
        self.oracle.close()
