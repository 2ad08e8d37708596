"""Undead agents: sat, logic, and the report's brute-force, dfs-square, dfs-path, dfs-path-tight.

Concepts:
- SatUndeadAgent (sat): solve the whole encoding once (search.py's methods get the same
  grid), then write the answer out, one monster per step.
- LogicUndeadAgent (logic): each step places one monster the knowledge base entails: unit
  propagation first (on the layout's counter encoding, which only ever propagates), then a
  full entailment check (backbone on the puzzle's encoding); gives up when nothing is
  entailed (only when the puzzle has several solutions). `by_propagation` counts how many
  were found by propagation alone: the difficulty proxy of the generator.
- SearchUndeadAgent: one of the report's methods (search.py) with zero-fill on by default,
  a node cap and a time cap; `nodes` reports the search effort.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from logic_agents.games.undead.board import MONSTERS, UndeadPuzzle, mirror_layout
from logic_agents.games.undead.encode import UndeadSolver
from logic_agents.games.undead.layout import LayoutSolver
from logic_agents.games.undead.search import DEFAULT_NODE_CAP, DEFAULT_TIME_CAP, METHODS
from logic_agents.games.undead.world import UndeadAction, UndeadObservation
from logic_agents.ground.shapes import Counters
from logic_agents.logic.oracle import Verdict
from logic_agents.solving.puzzle import CappedSearchAgent, KeepsSolver
from logic_agents.world.base import PlanningAgent
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.declared import Option
from logic_agents.world.options import memory_cap, node_cap, time_cap


class UndeadAgent(PlanningAgent[UndeadObservation, UndeadAction]):
    @staticmethod
    def moves_to(obs: UndeadObservation, solution: str) -> list[UndeadAction]:
        """The placements that turn the grid seen into `solution`."""
        w = obs.puzzle.width
        return [UndeadAction(divmod(i, w), m) for i, m in enumerate(solution)
                if m in MONSTERS and obs.cells[i] != m]


class SolvingUndeadAgent(KeepsSolver[UndeadPuzzle, UndeadSolver], UndeadAgent):
    solver_class = UndeadSolver


class SatUndeadAgent(SolvingUndeadAgent):
    """sat: one SAT call on the puzzle's encoding, then the answer, cell by cell."""

    name = "sat"

    def replan(self, obs: UndeadObservation) -> list[UndeadAction] | None:
        found = self.cache.get(obs.puzzle).solve(obs.placed)
        return None if found is None else self.moves_to(obs, found)  # None: unsatisfiable


class LogicUndeadAgent(SolvingUndeadAgent):
    """logic: one entailed monster per step; gives up when nothing is entailed."""

    name = "logic"

    def __init__(self, *, solver: str | None = None,
                 explain: Callable[[list[str]], None] | None = None):
        self.explain = explain  # when set, each placed monster carries its minimal proof
        super().__init__(solver=solver)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.why = ""
        self.by = {"propagation": 0, "entailment": 0}
        self.layout: LayoutSolver | None = None

    def stats(self) -> Counters:
        return {"guesses": 0, "deduced": sum(self.by.values()),
                **{f"by_{k}": v for k, v in self.by.items()}}

    def act(self, obs: UndeadObservation) -> UndeadAction | None:
        s = self.cache.get(obs.puzzle)
        placed = obs.placed
        empty = [i for i in obs.puzzle.monster_cells if i not in placed]
        if not empty:
            return None
        p = obs.puzzle
        if self.layout is None or self.layout.grid != mirror_layout(p.grid):
            # propagation asks a solver that only ever propagates, so what it finds does not
            # depend on clauses learnt in earlier searches (and equals the generator's proxy)
            self.layout = LayoutSolver(p.width, p.height, mirror_layout(p.grid))
        fixed = self.layout.propagated(p, placed)
        if fixed is None:
            return None  # the grid so far contradicts the rules
        w = p.width
        for i in empty:
            if i in fixed:
                self.by["propagation"] += 1
                if self.explain is not None:
                    self.why = s.why(i, fixed[i], placed)
                return UndeadAction(divmod(i, w), fixed[i])
        known = s.assumptions(placed)
        keys = [s.literal(i, m) for i in empty for m in MONSTERS]
        verdicts = s.oracle.backbone(keys, assumptions=known)
        for i in empty:
            for m in MONSTERS:
                if verdicts[s.literal(i, m)] is Verdict.TRUE:
                    self.by["entailment"] += 1
                    if self.explain is not None:
                        self.why = s.why(i, m, placed)
                    return UndeadAction(divmod(i, w), m)
        return None  # several solutions remain: a guess would be needed


class SearchUndeadAgent(CappedSearchAgent, UndeadAgent):
    """One of the report's search methods, run once, then its answer written out."""

    options = (
        Option("zero_fill", bool, True, "first fill the lines whose clue is 0 (ghosts before "
               "the first mirror, vampires after)"),
        node_cap(DEFAULT_NODE_CAP), time_cap(DEFAULT_TIME_CAP), memory_cap(),
    )

    def __init__(self, method: str, *, zero_fill: bool = True,
                 node_cap: int | None = DEFAULT_NODE_CAP, time_cap: float | None = DEFAULT_TIME_CAP,
                 memory_cap: int | None = DEFAULT_MEMORY_CAP_MIB):
        self.name = method
        self.method = METHODS[method]
        self.zero_fill = zero_fill
        self.node_cap = node_cap
        self.time_cap = time_cap
        self.memory_cap = memory_cap
        super().__init__()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._reset_search()

    def act(self, obs: UndeadObservation) -> UndeadAction | None:
        if not self.searched:
            self.searched = True
            budget = self._budget()
            options = {"rng": self.rng} if self.name == "brute-force" else {}
            result = self.method(obs.puzzle, zero_fill=self.zero_fill, budget=budget, **options)
            self.nodes, self.stopped = result.nodes, result.stopped
            self.why = (f"{self.name}: {self.nodes:,} nodes"
                        + (f", stopped at its {self.stopped}" if self.stopped else ""))
            if result.solution is not None:
                self.plan_actions(self.moves_to(obs, result.solution))
        return self.next_move(obs)


def _search(method: str) -> functools.partial[SearchUndeadAgent]:
    """The factory of one search method; a partial, so its options stay declared."""
    return functools.partial(SearchUndeadAgent, method)


AGENTS: dict[str, Callable[..., Any]] = {
    "sat": SatUndeadAgent,
    "logic": LogicUndeadAgent,
    **{method: _search(method) for method in METHODS},
}
