"""Exactly One Mazes agents: sat, the report's searches, and a human at the keyboard.

Concepts:
- SatMazeAgent (sat): solve the encoding (lazy cycle cuts) for a path that goes on from the
  current one, then walk it.
- SearchMazeAgent: one of bfs, dfs, ids, ucs, greedy, astar (search.py), with `heuristic`,
  a node cap and a time cap; it plans once and walks the plan. `nodes` is reported.
- HumanAgent (human): keys come from a `read_key` callable and the board goes to a `show`
  callable, so the same agent runs under curses (cli) and under a scripted key sequence
  (tests). Arrows move, Backspace undoes, `s` asks the SAT solver for a hint (the next step
  of a solution that goes on from the current path), `q` quits (the agent gives up).
"""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Callable

from logic_agents.errors import AgentOptionError, UnknownName
from logic_agents.games.mazes.board import STEPS, Cell, render_path
from logic_agents.games.mazes.encode import MazeSolver
from logic_agents.games.mazes.search import (
    DEFAULT_NODE_CAP,
    DEFAULT_TIME_CAP,
    HEURISTICS,
    INFORMED,
    METHODS,
    search,
)
from logic_agents.games.mazes.world import MazeAction, MazeObservation, why_illegal
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.options import memory_cap, node_cap, solver_option, time_cap
from logic_agents.world.puzzle import CappedSearchAgent, SolverCache
from logic_agents.world.registry import Option


def move_between(a: Cell, b: Cell) -> str:
    return next(name for name, (dr, dc) in STEPS.items() if (a[0] + dr, a[1] + dc) == b)


class _MazeAgent:
    name = "agent"

    def __init__(self) -> None:
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self.pending: deque[MazeAction] = deque()
        self.rng = random.Random(seed)
        self.close()  # a fresh solver each episode: a trajectory never depends on the last one

    def close(self) -> None:
        cache = getattr(self, "cache", None)
        if cache is not None:
            cache.close()

    def stats(self) -> dict:
        return {"guesses": 0}

    def _walk(self, path: list[Cell], start: int) -> None:
        self.pending.extend(MazeAction(move_between(a, b))
                            for a, b in zip(path[start - 1:], path[start:]))


class SatMazeAgent(_MazeAgent):
    """sat: one solve (and its cycle cuts) for the whole path, then walk it."""

    name = "sat"
    options = (solver_option(),)

    def __init__(self, *, solver: str | None = None):
        self.cache = SolverCache(lambda board: MazeSolver(board, solver))
        super().__init__()

    def stats(self) -> dict:
        s = self.cache.solver
        return {"guesses": 0, "cuts": s.cuts if s else 0, "sat_calls": s.calls if s else 0}

    def act(self, obs: MazeObservation) -> MazeAction | None:
        if not self.pending:
            path = self.cache.get(obs.board).solve(list(obs.path))
            if path is None:
                return None  # no solution goes on from here: give up
            self._walk(path, len(obs.path))
        return self.pending.popleft() if self.pending else None


class SearchMazeAgent(CappedSearchAgent, _MazeAgent):
    """One of the report's searches, run once from the start, then walked."""

    options = (node_cap(DEFAULT_NODE_CAP), time_cap(DEFAULT_TIME_CAP), memory_cap())

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
        return self.pending.popleft() if self.pending else None


KEY_MOVES = {"KEY_UP": "up", "KEY_DOWN": "down", "KEY_LEFT": "left", "KEY_RIGHT": "right",
             "KEY_BACKSPACE": "undo", "\x7f": "undo", "\b": "undo"}
HELP = "arrows move, Backspace undoes, s hints, q quits"


class HumanAgent(_MazeAgent):
    """human: a person at the keyboard (keys from `read_key`, the board to `show`)."""

    name = "human"

    def __init__(self, *, read_key: Callable[[], str] | None = None,
                 show: Callable[[str], None] | None = None, solver: str | None = None):
        self.read_key = read_key
        self.show = show or (lambda text: None)
        self.cache = SolverCache(lambda board: MazeSolver(board, solver))
        super().__init__()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.hints = 0
        self.message = HELP

    def stats(self) -> dict:
        return {"guesses": 0, "hints": self.hints}

    def act(self, obs: MazeObservation) -> MazeAction | None:
        if self.read_key is None:
            raise UnknownName("the human agent needs a terminal (logic-agents play MAP --agent human)")
        while True:
            crossed = len(obs.crossed)
            self.show(render_path(obs.board, obs.path, obs.walker)
                      + f"\nstep {obs.step}  shapes crossed {crossed}/{len(obs.board.shapes)}\n"
                      + self.message)
            key = self.read_key()
            if key in ("q", "Q"):
                return None
            if key in ("s", "S"):
                self.hints += 1
                nxt = self.cache.get(obs.board).next_step(list(obs.path))
                self.message = (f"hint: {move_between(obs.walker, nxt)}" if nxt is not None
                                else "hint: no solution goes on from this path; undo")
                continue
            move = KEY_MOVES.get(key)
            if move is None:
                self.message = f"unknown key {key!r}; {HELP}"
                continue
            reason = why_illegal(obs.board, obs.path, move)
            if reason is not None:
                self.message = f"cannot {move}: {reason}"
                continue
            self.message = HELP
            return MazeAction(move)


class InformedSearchMazeAgent(SearchMazeAgent):
    """greedy and astar: a search guided by a distance estimate (--heuristic)."""

    options = (Option("heuristic", str, "manhattan", "the distance estimate",
                      choices=HEURISTICS, metavar="NAME"),) + SearchMazeAgent.options


def _search(method: str) -> functools.partial:
    """The factory of one search method; a partial, so its options stay declared."""
    kind = InformedSearchMazeAgent if method in INFORMED else SearchMazeAgent
    return functools.partial(kind, method)


AGENTS = {"sat": SatMazeAgent, **{m: _search(m) for m in METHODS}}
INTERACTIVE = {"human": HumanAgent}  # needs a person: `play` only, never batch runs
