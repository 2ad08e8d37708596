"""rbfs: the course report's best-first utility agent, reproduced from its description.

Concepts:
- Pipes: the main pipe runs from the source through the pieces the ooze has entered and the
  laid pieces it will follow (rules.open_end); a sub-pipe is a chain of other pieces joined
  by facing openings. An end is an opening of a pipe; it is blocked if it faces the wall, the
  source, or a piece without a facing opening.
- utility(board): +200 per main-pipe cell; sub-pipe cells score 40, 30, 20, 10 (and 10 after)
  by the rank of the sub-pipe's distance to the main pipe's open end; -500 if the main end is
  blocked; -100 per blocked sub-pipe end; +200 per cross on the main pipe whose other channel
  can still be used (both of its openings face the board, not the wall or the source).
- Candidate slots: the main opening first, then the other ends' slots, then their empty
  neighbours, then every other empty cell (the order breaks ties between equal utilities).
- Search: 5 levels over the visible queue; each level keeps the best and the second-best
  placement and recurses on both; the first placement of the best line is played.
- Destroy: when the main opening holds a piece the ooze has not entered and cannot pass.
"""

from __future__ import annotations

import random

from logic_agents.games.ooze.rules import (
    BOARD_CELLS,
    CHANNEL_FROM,
    PIECES,
    Direction,
    empty_cells,
    is_board_cell,
    open_end,
    step,
)
from logic_agents.games.ooze.world import OozeAction, OozeObservation
from logic_agents.world.view import Cell

MAIN_CELL = 200
SUB_CELL = (40, 30, 20, 10)
MAIN_BLOCKED = -500
SUB_BLOCKED = -100
CROSS_BOTH_WAYS = 200
DEPTH = 5

Filled = dict[Cell, set[int]]  # the channels the ooze has entered, per cell

# The search calls utility tens of thousands of times a move, so its loops read tables rather
# than call the rules' small functions: each glyph's openings, in the order PIECES lists them
# (the order candidate_slots offers slots in); the sides it can be entered from are the keys
# of rules.CHANNEL_FROM[glyph], the cells a piece may go on rules.BOARD_CELLS.
_OPENINGS = {glyph: tuple(d for opening in channels for d in opening)
             for glyph, channels in PIECES.items()}
# per open end, each board cell's distance to it (the sub-pipes' rank)
_DISTANCES: dict[Cell, dict[Cell, int]] = {}


def _distances(end: Cell) -> dict[Cell, int]:
    found = _DISTANCES.get(end)
    if found is None:
        found = _DISTANCES[end] = {
            cell: abs(cell[0] - end[0]) + abs(cell[1] - end[1]) for cell in BOARD_CELLS}
    return found


def _sub_pipes(board: dict[Cell, str], main: set[Cell]) -> list[set[Cell]]:
    """Chains of pieces off the main pipe, joined where two openings face each other (in the
    order a set of the other pieces pops their first cells: ties in rank keep it)."""
    rest = {c for c in board if c not in main}
    pipes = []
    while rest:
        first = rest.pop()
        pipe, todo = {first}, [first]
        while todo:
            cell = todo.pop()
            x, y = cell
            for dx, dy in _OPENINGS[board[cell]]:
                n = (x + dx, y + dy)
                if n in rest and (-dx, -dy) in CHANNEL_FROM[board[n]]:
                    rest.discard(n)
                    pipe.add(n)
                    todo.append(n)
        pipes.append(pipe)
    return pipes


def utility(board: dict[Cell, str], filled: Filled, head: Cell, heading: Direction) -> float:
    end = open_end(board, filled, head, heading)
    main = set(filled) | {cell for cell, _ in end.route}
    score = MAIN_CELL * len(main)
    if end.blocked:
        score += MAIN_BLOCKED
    for cell, channel in end.route:
        if board[cell] == "+":
            other = PIECES["+"][1 - channel]
            if all((cell[0] + d[0], cell[1] + d[1]) in BOARD_CELLS for d in other):
                score += CROSS_BOTH_WAYS
    subs = _sub_pipes(board, main)
    distance = _distances(end.cell).__getitem__
    subs.sort(key=lambda pipe: min(map(distance, pipe)))
    last = len(SUB_CELL) - 1
    for rank, pipe in enumerate(subs):
        score += SUB_CELL[min(rank, last)] * len(pipe)
        for cell in pipe:
            x, y = cell
            for dx, dy in _OPENINGS[board[cell]]:
                n = (x + dx, y + dy)
                if n in pipe:
                    continue
                if n not in BOARD_CELLS:
                    score += SUB_BLOCKED
                    continue
                glyph = board.get(n)
                if glyph is not None and (-dx, -dy) not in CHANNEL_FROM[glyph]:
                    score += SUB_BLOCKED
    return score


def candidate_slots(board: dict[Cell, str], filled: Filled, head: Cell, heading: Direction) -> list[Cell]:
    empty = empty_cells(board)
    if not empty:
        return []
    end = open_end(board, filled, head, heading)
    main = set(filled) | {cell for cell, _ in end.route}
    slots: list[Cell] = []
    if not end.blocked:
        slots.append(end.cell)
    for pipe in _sub_pipes(board, main):
        for cell in sorted(pipe):
            for opening in PIECES[board[cell]]:
                for d in opening:
                    n = step(cell, d)
                    if is_board_cell(n) and n not in board and n not in slots:
                        slots.append(n)
    neighbours = [n for cell in list(slots) for n in (step(cell, d) for d in
                  ((0, -1), (1, 0), (0, 1), (-1, 0)))
                  if is_board_cell(n) and n not in board and n not in slots]
    slots += list(dict.fromkeys(neighbours))
    return slots + [c for c in empty if c not in slots]


class RbfsOozeAgent:
    name = "rbfs"

    def __init__(self, depth: int = DEPTH) -> None:
        self.depth = depth
        self.rng = random.Random()

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: OozeObservation) -> OozeAction:
        board, filled = obs.pieces, {c: set(ch) for c, ch in obs.filled}
        end = open_end(board, filled, obs.head, obs.heading)
        if end.blocked and end.cell in board and end.cell not in filled:
            return OozeAction("destroy", end.cell)
        value, first = self._search(board, filled, obs.head, obs.heading, obs.queue, 0)
        return OozeAction("place", first) if first is not None else OozeAction("wait")

    def _search(self, board: dict[Cell, str], filled: Filled, head: Cell, heading: Direction,
                queue: str, level: int) -> tuple[float, Cell | None]:
        if level >= min(self.depth, len(queue)):
            return utility(board, filled, head, heading), None
        piece = queue[level]
        scored = []
        for slot in candidate_slots(board, filled, head, heading):
            board[slot] = piece
            scored.append((utility(board, filled, head, heading), slot))
            del board[slot]
        if not scored:
            return utility(board, filled, head, heading), None
        scored.sort(key=lambda t: -t[0])  # stable: ties keep the slot order
        best_value, best_slot = float("-inf"), None
        for _, slot in scored[:2]:
            board[slot] = piece
            value, _ = self._search(board, filled, head, heading, queue, level + 1)
            del board[slot]
            if value > best_value:
                best_value, best_slot = value, slot
        return best_value, best_slot
