"""MazeWorld: a walker draws the path one step at a time.

Concepts:
- MazeObservation: the board (public) and the path walked so far (the walker is its last
  cell); which shapes it has crossed follows from both.
- MazeAction: `up`, `down`, `left`, `right` or `undo`.
- legal_moves(board, path): the moves the world accepts from a path (for agents and UIs).
"""

from __future__ import annotations

from dataclasses import dataclass

from logic_agents.errors import FormatError, IllegalAction
from logic_agents.games.mazes.board import STEPS, MazeBoard
from logic_agents.ground.shapes import Record
from logic_agents.world.base import PuzzleWorld
from logic_agents.world.view import Cell

MOVES = (*STEPS, "undo")


@dataclass(frozen=True)
class MazeObservation:
    board: MazeBoard
    path: tuple[Cell, ...]
    step: int

    @property
    def walker(self) -> Cell:
        return self.path[-1]

    @property
    def crossed(self) -> frozenset[int]:
        return frozenset(k for k in (self.board.shape_at(c) for c in self.path) if k)

    def to_json(self) -> Record:
        return {"path": [list(c) for c in self.path], "step": self.step}


@dataclass(frozen=True)
class MazeAction:
    move: str

    def __str__(self) -> str:
        return self.move

    def to_json(self) -> str:
        return self.move

    @classmethod
    def from_json(cls, text: str) -> MazeAction:
        if str(text) not in MOVES:
            raise FormatError(f"not a maze action: {text!r} (expected {', '.join(MOVES)})")
        return cls(str(text))


def why_illegal(board: MazeBoard, path: tuple[Cell, ...] | list[Cell], move: str) -> str | None:
    """None if the world accepts `move` after `path`, else the reason it refuses it."""
    if move == "undo":
        return "nothing to undo" if len(path) <= 1 else None
    if move not in STEPS:
        return f"unknown move {move!r}"
    here = path[-1]
    if here == board.finish:
        return "the path ends at the finish; undo to go on"
    dr, dc = STEPS[move]
    target = (here[0] + dr, here[1] + dc)
    if not board.inside(target):
        return f"{move} leaves the board"
    if target in path:
        return f"{target} is already on the path"
    k = board.shape_at(target)
    if k and any(board.shape_at(c) == k for c in path):
        return f"shape {k} is already crossed"
    return None


def legal_moves(board: MazeBoard, path: tuple[Cell, ...] | list[Cell]) -> list[str]:
    return [m for m in MOVES if why_illegal(board, path, m) is None]


def won(board: MazeBoard, path: tuple[Cell, ...] | list[Cell]) -> bool:
    crossed = {board.shape_at(c) for c in path} - {0}
    return path[-1] == board.finish and crossed == set(board.shapes)


class MazeWorld(PuzzleWorld[MazeObservation, MazeAction]):
    """Exactly One Mazes as a world.

    ## Description
    A walker starts at the lower-left cell and must reach the upper-right one, crossing
    exactly one cell of every shape and never using a cell twice.

    ## Actions
    `up`, `down`, `left`, `right`: one step; `undo`: take the last step back. A step off the
    board, onto a used cell, onto a second cell of a crossed shape, or on from the finish, and
    an undo at the start, raise IllegalAction and change nothing.

    ## Observation
    MazeObservation: the board, the path so far, the step count.

    ## Rewards
    +1 on winning, 0 otherwise.

    ## Episode end
    Terminated (won) on reaching the finish with every shape crossed once; truncated after
    `max_steps` actions (default 10 per cell); lost when the agent gives up.
    """

    game = "a maze"
    action_type = MazeAction

    def __init__(self, board: MazeBoard, *, max_steps: int | None = None):
        super().__init__(board, max_steps=max_steps)
        self.board = board

    def step_cap(self, board: MazeBoard) -> int:
        return 10 * board.height * board.width

    def begin(self) -> None:
        self._path = [self.board.start]

    def solved(self) -> bool:
        return won(self.board, self._path)

    def apply(self, action: MazeAction) -> None:
        if not isinstance(action.move, str):
            raise IllegalAction(f"not a maze action: {action!r}")
        reason = why_illegal(self.board, self._path, action.move)
        if reason is not None:
            raise IllegalAction(f"{action}: {reason}")
        if action.move == "undo":
            self._path.pop()
        else:
            dr, dc = STEPS[action.move]
            here = self._path[-1]
            self._path.append((here[0] + dr, here[1] + dc))

    def observe(self) -> MazeObservation:
        return MazeObservation(self.board, tuple(self._path), self.steps)
