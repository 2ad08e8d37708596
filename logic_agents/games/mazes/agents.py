"""Exactly One Mazes agents: sat and the report's searches (a person plays with the shared
`human` agent, logic_agents.display.tui: arrows walk, u undoes, h asks sat for a hint).

Concepts:
- SatMazeAgent (sat): solve the encoding (lazy cycle cuts) for a path that goes on from the
  current one, then walk it.
- SearchMazeAgent: one of bfs, dfs, ids, ucs, greedy, astar (search.py), with `heuristic`,
  a node cap and a time cap; it plans once and walks the plan. `nodes` is reported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from logic_agents.errors import AgentOptionError, UnknownName
from logic_agents.games.mazes.board import STEPS, MazeBoard
from logic_agents.games.mazes.encode import MazeSolver
from logic_agents.games.mazes.search import (
    DEFAULT_NODE_CAP,
    DEFAULT_TIME_CAP,
    HEURISTICS,
    INFORMED,
    METHODS,
    search,
)
from logic_agents.games.mazes.world import MazeAction, MazeObservation
from logic_agents.ground.shapes import Counters
from logic_agents.solving.puzzle import CappedSearchAgent, KeepsSolver
from logic_agents.world.base import PlanningAgent
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.core import Why
from logic_agents.world.declared import Option
from logic_agents.world.options import memory_cap, node_cap, time_cap
from logic_agents.world.view import Cell


def move_between(a: Cell, b: Cell) -> str:
    return next(name for name, (dr, dc) in STEPS.items() if (a[0] + dr, a[1] + dc) == b)


class _MazeAgent(PlanningAgent[MazeObservation, MazeAction]):
    def _walk(self, path: list[Cell], start: int) -> None:
        self.plan_actions(MazeAction(move_between(a, b))
                          for a, b in zip(path[start - 1:], path[start:]))


class SatMazeAgent(KeepsSolver[MazeBoard, MazeSolver], _MazeAgent):
    """sat: one solve (and its cycle cuts) for the whole path, then walk it."""

    name = "sat"

    solver_class = MazeSolver

    def stats(self) -> Counters:
        s = self.cache.solver
        return {"guesses": 0, "cuts": s.cuts if s else 0, "sat_calls": s.calls if s else 0}

    def act(self, obs: MazeObservation) -> MazeAction | None:
        if not self.pending:
            solver = self.cache.get(obs.board)
            path = solver.solve(list(obs.path))
            if path is None:
                return None  # no solution goes on from here: give up
            self._walk(path, len(obs.path))
            self.why = Why(f"the SAT path: {len(path) - 1} steps through one cell of every "
                           f"shape ({solver.cuts} cycle cuts so far)", path)
        return self.next_move(obs)


class SearchMazeAgent(CappedSearchAgent, _MazeAgent):
    """One of the report's searches, run once from the start, then walked."""

    options: tuple[Option, ...] = (node_cap(DEFAULT_NODE_CAP), time_cap(DEFAULT_TIME_CAP),
                                   memory_cap())

    def __init__(self, method: str, *, heuristic: str | None = None,
                 node_cap: int | None = DEFAULT_NODE_CAP, time_cap: float | None = DEFAULT_TIME_CAP,
                 memory_cap: int | None = DEFAULT_MEMORY_CAP_MIB):
        if heuristic is not None and method not in INFORMED:
            raise AgentOptionError(f"agent {method} does not take --heuristic (greedy and astar do)")
        if heuristic is not None and heuristic not in HEURISTICS:
            raise UnknownName(f"unknown heuristic {heuristic!r}; choose one of {', '.join(HEURISTICS)}")
        self.name = method
        self.method = method
        self.heuristic = heuristic or "manhattan"
        self.node_cap, self.time_cap, self.memory_cap = node_cap, time_cap, memory_cap
        super().__init__()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._reset_search()

    def act(self, obs: MazeObservation) -> MazeAction | None:
        if not self.searched:
            self.searched = True
            result = search(obs.board, self.method, heuristic_name=self.heuristic,
                            budget=self._budget())
            self.nodes, self.stopped = result.nodes, result.stopped
            self.why = (f"{self.name}: {self.nodes:,} nodes"
                        + (f", stopped at its {self.stopped}" if self.stopped else ""))
            if result.path is not None and len(obs.path) == 1:
                self._walk(result.path, 1)
        return self.next_move(obs)


class InformedSearchMazeAgent(SearchMazeAgent):
    """greedy and astar: a search guided by a distance estimate (--heuristic)."""

    options = (Option("heuristic", str, "manhattan", "the distance estimate",
                      choices=HEURISTICS, metavar="NAME"),) + SearchMazeAgent.options


def _search(method: str) -> functools.partial[SearchMazeAgent]:
    """The factory of one search method; a partial, so its options stay declared."""
    kind = InformedSearchMazeAgent if method in INFORMED else SearchMazeAgent
    return functools.partial(kind, method)


AGENTS: dict[str, Callable[..., Any]] = {"sat": SatMazeAgent,
                                         **{m: _search(m) for m in METHODS}}
