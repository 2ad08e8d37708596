"""Akari agents: `sat` (the knowledge base and one SAT call) and `dfs` (a backtracking search).

Both plan once, on the first observation, then place their bulbs one per step. They declare
their options, so `logic-agents play ... --agent dfs --node-cap N` works with no CLI change.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod

from akari_game.board import AkariPuzzle, Cell
from akari_game.encode import AkariSolver
from akari_game.world import AkariAction, AkariObservation
from logic_agents.solving.puzzle import SolverChoice
from logic_agents.world.base import PlanningAgent
from logic_agents.world.budget import Budget, BudgetExceeded
from logic_agents.world.declared import Option
from logic_agents.world.options import node_cap, time_cap


class _Planner(PlanningAgent[AkariObservation, AkariAction], ABC):
    options: tuple[Option, ...] = ()
    replans = False  # one plan per episode

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.nodes = 0

    def stats(self) -> dict[str, float]:
        return {**super().stats(), "nodes": self.nodes}

    def replan(self, obs: AkariObservation) -> list[AkariAction] | None:
        bulbs = self.solve(obs.puzzle)
        return None if bulbs is None else [AkariAction("bulb", c)
                                           for c in sorted(bulbs - obs.bulbs)]

    @abstractmethod
    def solve(self, puzzle: AkariPuzzle) -> set[Cell] | None:
        """The bulbs of a solution, or None when the agent finds none."""


class SatAkariAgent(SolverChoice, _Planner):
    """sat: tell the rules, ask the oracle for a model, place its bulbs."""

    name = "sat"

    def solve(self, puzzle: AkariPuzzle) -> set[Cell] | None:
        with AkariSolver(puzzle, self.solver) as sat:
            found = sat.solutions(1)
            self.nodes = sat.oracle.calls
        return set(found[0]) if found else None


class DfsAkariAgent(_Planner):
    """dfs: backtracking over the white cells in reading order, bulb or no bulb, pruning
    bulbs that see each other and numbers exceeded or no longer reachable."""

    name = "dfs"
    options = (node_cap(1_000_000), time_cap(10.0))

    def __init__(self, *, node_cap: int = 1_000_000, time_cap: float = 10.0):
        self.node_cap, self.time_cap = node_cap, time_cap
        super().__init__()

    def solve(self, puzzle: AkariPuzzle) -> set[Cell] | None:
        budget = Budget(node_cap=self.node_cap, time_cap=self.time_cap).start()
        whites = puzzle.whites()
        seen = {c: puzzle.seen_from(c) for c in whites}
        numbers = puzzle.numbered()
        around = {cell: puzzle.neighbours(cell) for cell, _ in numbers}
        order = {c: i for i, c in enumerate(whites)}
        bulbs: set[Cell] = set()

        def numbers_ok(depth: int) -> bool:
            for cell, k in numbers:
                placed = sum(n in bulbs for n in around[cell])
                open_ = sum(order[n] >= depth for n in around[cell])
                if placed > k or placed + open_ < k:
                    return False
            return True

        def lit_ok(depth: int) -> bool:
            # a cell before `depth` that is dark must still be lit by a later cell's bulb
            for c in whites[:depth]:
                if not (seen[c] & bulbs) and not any(order[x] >= depth for x in seen[c]):
                    return False
            return True

        def search(depth: int) -> bool:
            budget.tick()
            if depth == len(whites):
                return all(seen[c] & bulbs for c in whites)
            cell = whites[depth]
            if not (seen[cell] - {cell}) & bulbs:
                bulbs.add(cell)
                if numbers_ok(depth + 1) and lit_ok(depth + 1) and search(depth + 1):
                    return True
                bulbs.discard(cell)
            return numbers_ok(depth + 1) and lit_ok(depth + 1) and search(depth + 1)

        depth_needed = len(whites) + 100  # one frame per white cell
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, depth_needed))
        try:
            found = search(0)
        except BudgetExceeded:
            found = False
        finally:
            sys.setrecursionlimit(limit)
        self.nodes = budget.nodes
        return set(bulbs) if found else None


AGENTS = {"sat": SatAkariAgent, "dfs": DfsAkariAgent}
