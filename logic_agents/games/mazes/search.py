"""The Exactly One Mazes report's searches over the walker's states.

Concepts:
- A state: the walker's cell, the cells used (a bit mask) and the shapes crossed (a bit
  mask); its successors are the legal steps (no cell twice, no second cell of a crossed
  shape, nothing after the finish). The goal: the finish with every shape crossed.
- Blind: bfs, dfs, ids (iterative deepening, depth limits 0, 1, 2, ...), ucs (uniform cost:
  one per step). Informed: greedy (by h) and astar (by steps + h), with the heuristics
  manhattan, euclidean, shapes-left and manhattan-minus-crossed.
- Every search counts expanded nodes and stops at a node or time cap (Budget).
- SearchResult: the path or None, nodes expanded, the cap that stopped it (if any), seconds.
"""

from __future__ import annotations

import heapq
import math
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from logic_agents.errors import UnknownName
from logic_agents.games.mazes.board import MazeBoard
from logic_agents.world.budget import Budget, BudgetExceeded
from logic_agents.world.view import Cell

DEFAULT_NODE_CAP = 10_000_000
DEFAULT_TIME_CAP = 60.0
STATE_OVERHEAD_BYTES = 250  # a frontier entry's tuples, counter and priority (measured)
PARENT_BYTES = 100  # an expanded node kept alive as a parent: (cell, parent) and the cell
WEIGH_EVERY = 256  # nodes between memory estimates
ORDER = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left: toward the finish first


@dataclass
class SearchResult:
    path: list[Cell] | None
    nodes: int
    stopped: str | None = None
    seconds: float = 0.0


class _Space:
    """The board's states as ints: cell index, used-cell mask, crossed-shape mask."""

    def __init__(self, board: MazeBoard):
        self.board = board
        w = board.width
        self.w = w
        self.shape_bit = [0] * (board.height * w)
        for n, k in enumerate(sorted(board.shapes)):
            for r, c in board.shapes[k]:
                self.shape_bit[r * w + c] = 1 << n
        self.all_shapes = (1 << len(board.shapes)) - 1
        self.start = board.start[0] * w + board.start[1]
        self.finish = board.finish[0] * w + board.finish[1]
        # what one stored state costs: its used-cell mask plus the tuples around it
        self.state_bytes = sys.getsizeof(1 << (board.height * w)) + STATE_OVERHEAD_BYTES
        self.moves = []
        for i in range(board.height * w):
            r, c = divmod(i, w)
            self.moves.append([(r + dr) * w + c + dc for dr, dc in ORDER
                               if 0 <= r + dr < board.height and 0 <= c + dc < w])

    def initial(self) -> tuple[int, int, int]:
        return self.start, 1 << self.start, self.shape_bit[self.start]

    def is_goal(self, cell: int, crossed: int) -> bool:
        return cell == self.finish and crossed == self.all_shapes

    def successors(self, cell: int, used: int, crossed: int) -> Iterator[tuple[int, int, int]]:
        if cell == self.finish:
            return
        for nxt in self.moves[cell]:
            bit = self.shape_bit[nxt]
            if used >> nxt & 1 or crossed & bit:
                continue
            yield nxt, used | 1 << nxt, crossed | bit

    def cell(self, index: int) -> Cell:
        return divmod(index, self.w)


Node = tuple[int, "Node | None"]  # a cell and the node it was reached from: the path, shared


def _path(node: Node | None) -> list[int]:
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    return out[::-1]


def _weigh(space: _Space, budget: Budget, frontier_size: int) -> None:
    if budget.nodes % WEIGH_EVERY == 0:
        budget.weigh(frontier_size * space.state_bytes + budget.nodes * PARENT_BYTES)


def _finish(space: _Space, found: Node | None, budget: Budget, started: float,
            stopped: str | None = None) -> SearchResult:
    path = [space.cell(i) for i in _path(found)] if found is not None else None
    return SearchResult(path, budget.nodes, stopped, time.perf_counter() - started)


def _blind(space: _Space, budget: Budget, lifo: bool) -> Node | None:
    cell, used, crossed = space.initial()
    frontier: deque[tuple[Node, int, int]] = deque([((cell, None), used, crossed)])
    pop = frontier.pop if lifo else frontier.popleft
    while frontier:
        node, used, crossed = pop()
        budget.tick()
        _weigh(space, budget, len(frontier))
        if space.is_goal(node[0], crossed):
            return node
        children = list(space.successors(node[0], used, crossed))
        if lifo:
            children.reverse()  # the first move in ORDER is tried first
        for nxt, u, c in children:
            frontier.append(((nxt, node), u, c))
    return None


def _ids(space: _Space, budget: Budget) -> Node | None:
    cell, used, crossed = space.initial()
    limit = 0
    total = space.board.height * space.board.width
    while limit < total:
        deeper = False
        stack: list[tuple[Node, int, int, int]] = [((cell, None), used, crossed, 0)]
        while stack:
            node, used_, crossed_, depth = stack.pop()
            budget.tick()
            _weigh(space, budget, len(stack))
            if space.is_goal(node[0], crossed_):
                return node
            if depth == limit:
                if any(True for _ in space.successors(node[0], used_, crossed_)):
                    deeper = True
                continue
            children = list(space.successors(node[0], used_, crossed_))
            for nxt, u, c in reversed(children):
                stack.append(((nxt, node), u, c, depth + 1))
        if not deeper:
            return None
        limit += 1
    return None


def heuristic(name: str, board: MazeBoard) -> Callable[[int, int, _Space], float]:
    fr, fc = board.finish

    def manhattan(cell: int, crossed: int, space: _Space) -> float:
        r, c = divmod(cell, space.w)
        return abs(r - fr) + abs(c - fc)

    def euclidean(cell: int, crossed: int, space: _Space) -> float:
        r, c = divmod(cell, space.w)
        return math.hypot(r - fr, c - fc)

    def shapes_left(cell: int, crossed: int, space: _Space) -> float:
        return bin(space.all_shapes & ~crossed).count("1")

    def manhattan_minus_crossed(cell: int, crossed: int, space: _Space) -> float:
        return manhattan(cell, crossed, space) - bin(crossed).count("1")

    table = {"manhattan": manhattan, "euclidean": euclidean, "shapes-left": shapes_left,
             "manhattan-minus-crossed": manhattan_minus_crossed}
    if name not in table:
        raise UnknownName(f"unknown heuristic {name!r}; choose one of {', '.join(table)}")
    return table[name]


HEURISTICS = ("manhattan", "euclidean", "shapes-left", "manhattan-minus-crossed")


def _best_first(space: _Space, budget: Budget, priority: Callable[[int, int, int], float]) -> Node | None:
    cell, used, crossed = space.initial()
    counter = 0  # ties: first in, first out, so runs are reproducible
    frontier: list[tuple[float, int, Node, int, int, int]] = [
        (priority(cell, crossed, 0), counter, (cell, None), used, crossed, 0)]
    while frontier:
        _, _, node, used, crossed, g = heapq.heappop(frontier)
        budget.tick()
        _weigh(space, budget, len(frontier))
        if space.is_goal(node[0], crossed):
            return node
        for nxt, u, c in space.successors(node[0], used, crossed):
            counter += 1
            heapq.heappush(frontier, (priority(nxt, c, g + 1), counter, (nxt, node), u, c, g + 1))
    return None


def search(board: MazeBoard, method: str, *, heuristic_name: str = "manhattan",
           budget: Budget | None = None) -> SearchResult:
    """Run one of the report's searches; METHODS lists them."""
    if method not in METHODS:
        raise UnknownName(f"unknown search {method!r}; choose one of {', '.join(METHODS)}")
    budget = (budget or Budget(DEFAULT_NODE_CAP, DEFAULT_TIME_CAP)).start()
    space = _Space(board)
    started = time.perf_counter()
    h = heuristic(heuristic_name, board)
    runners = {
        "bfs": lambda: _blind(space, budget, lifo=False),
        "dfs": lambda: _blind(space, budget, lifo=True),
        "ids": lambda: _ids(space, budget),
        "ucs": lambda: _best_first(space, budget, lambda cell, crossed, g: g),
        "greedy": lambda: _best_first(space, budget, lambda cell, crossed, g: h(cell, crossed, space)),
        "astar": lambda: _best_first(space, budget,
                                     lambda cell, crossed, g: g + h(cell, crossed, space)),
    }
    try:
        found = runners[method]()
    except BudgetExceeded as stop:
        return _finish(space, None, budget, started, stop.reason)
    return _finish(space, found, budget, started)


METHODS = ("bfs", "dfs", "ids", "ucs", "greedy", "astar")
INFORMED = ("greedy", "astar")
