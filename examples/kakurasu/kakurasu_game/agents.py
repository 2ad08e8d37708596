"""Kakurasu agents: `sat` (the rules as cardinalities over weight units, one SAT model) and
`search` (depth-first over each row's shadings that meet its clue, pruned by the columns'
sums so far).

Both plan on the first observation and play their shadings one per step (PlanningAgent).
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod

from kakurasu_game.board import Cell, KakurasuPuzzle
from kakurasu_game.encode import KakurasuSolver
from kakurasu_game.world import KakurasuAction, KakurasuObservation
from logic_agents.solving.puzzle import SolverChoice
from logic_agents.world.base import PlanningAgent
from logic_agents.world.options import node_cap


class Planner(PlanningAgent[KakurasuObservation, KakurasuAction], ABC):
    replans = False  # one plan per episode

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.nodes = 0

    def replan(self, obs: KakurasuObservation) -> list[KakurasuAction] | None:
        found = self.solve(obs.puzzle)
        self.why = f"{self.name}: part of a solution"
        if found is None:
            return None
        return ([KakurasuAction("clear", c) for c in sorted(obs.shaded - found)]
                + [KakurasuAction("shade", c) for c in sorted(found - obs.shaded)])

    def stats(self) -> dict[str, float]:
        return {**super().stats(), "nodes": self.nodes}

    @abstractmethod
    def solve(self, puzzle: KakurasuPuzzle) -> frozenset[Cell] | None:
        """The shaded cells of a solution, or None when the agent finds none."""


class SatKakurasu(SolverChoice, Planner):
    """sat: one model of the rules' knowledge base (kakurasu_game.encode)."""

    name = "sat"

    def solve(self, puzzle: KakurasuPuzzle) -> frozenset[Cell] | None:
        with KakurasuSolver(puzzle, self.solver) as sat:
            found = sat.solutions(1)
            self.nodes = sat.oracle.calls
        return found[0] if found else None


def row_shadings(width: int, clue: int) -> list[tuple[int, ...]]:
    """Every set of columns (0-based) whose weights (1-based) sum to `clue`."""
    return [cols for n in range(width + 1) for cols in itertools.combinations(range(width), n)
            if sum(c + 1 for c in cols) == clue]


class SearchKakurasu(Planner):
    """search: row by row, each shading that meets the row's clue, backtracking when a
    column's sum passes its clue or can no longer reach it."""

    name = "search"
    options = (node_cap(1 << 20),)

    def __init__(self, *, node_cap: int = 1 << 20):
        self.node_cap = node_cap
        super().__init__()

    def solve(self, puzzle: KakurasuPuzzle) -> frozenset[Cell] | None:
        h, w = puzzle.height, puzzle.width
        choices = [row_shadings(w, clue) for clue in puzzle.row_clues]
        sums = [0] * w
        chosen: list[tuple[int, ...]] = []

        def fits(r: int) -> bool:  # rows r+1.. can still add at most sum(r+2..h) per column
            rest = sum(range(r + 2, h + 1))
            return all(s <= k <= s + rest for s, k in zip(sums, puzzle.col_clues))

        def go(r: int) -> bool:
            if r == h:
                return tuple(sums) == puzzle.col_clues
            for cols in choices[r]:
                self.nodes += 1
                if self.nodes >= self.node_cap:
                    return False
                for c in cols:
                    sums[c] += r + 1
                chosen.append(cols)
                if fits(r) and go(r + 1):
                    return True
                chosen.pop()
                for c in cols:
                    sums[c] -= r + 1
            return False

        if not go(0):
            return None
        return frozenset((r, c) for r, cols in enumerate(chosen) for c in cols)


AGENTS = {"sat": SatKakurasu, "search": SearchKakurasu}
