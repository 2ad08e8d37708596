"""A game's observations and actions as arrays and indices, the same for every board it plays.

Concepts:
- Encoding(spec, firsts): fixed by the first observations of the boards an env plays (one
  per map of a folder, one per preset): the largest board sets the shape, and a smaller
  board is padded (kind 0, number -1, glyph 0; its indices off the board mean no move).
- The observation, small integer channels a network can use: `kinds` (the tile's kind, an
  index into `kinds`: "" first, then the palette's names), `numbers` (the number the tile
  shows, -1 for none: a clue, a Sudoku digit, a shape's number), `glyphs` (the index + 1 of
  the character it shows in the View's declared glyphs, 0 for none, len + 1 for another),
  and `counters` (what the board says beside the tiles: lives, score, clock, a piece queue
  as glyph indices; `counter_names` names each slot).
- The action: one Discrete index of (key, cell) over the game's Controls: `primary`,
  `secondary`, the arrows of a game that walks, the keys of `Controls.alphabet`. The mask
  marks the indices that mean a move the rules allow (Controls.legal), each distinct move
  once.
- Look: one observation as the env and a policy read it, worked out once (`look(obs)`): its
  board, the cells the cursor may visit, the arrays and the mask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.world.spec import GameSpec
from logic_agents.world.view import BoardView, Cell, View

ARROWS = ("up", "down", "left", "right")
VALUE_MAX = 999  # a tile's number, clipped
COUNTER_LIMIT = 1e9
FRACTION = re.compile(r"^(-?\d+)/(\d+)$")  # "2/5": two counters, the count and its total


def _number(text: str) -> int:
    return min(int(text), VALUE_MAX) if text.isascii() and text.isdigit() else -1


@dataclass(frozen=True)
class Look:
    """One observation, read once: its board, extent (rows, columns the cursor may visit),
    arrays (as `observation_space` holds them) and mask."""

    obs: object
    board: BoardView
    extent: tuple[int, int]
    arrays: Record
    mask: npt.NDArray[np.int8]

    def copies(self) -> Record:
        """The arrays, each a copy a caller may change."""
        return {key: value.copy() for key, value in self.arrays.items()}


class Encoding:
    """See the module docstring."""

    def __init__(self, spec: GameSpec, firsts: Sequence[object]):
        view = spec.get(View)
        if view is None or view.controls is None:
            raise UsageError(f"{spec.name} has no View with Controls: it has no Gymnasium env")
        self.view, self.controls = view, view.controls
        boards = [view.board(obs) for obs in firsts]
        self.shape = (max(b.rows for b in boards), max(b.cols for b in boards))
        self.kinds = ["", *sorted({kind for b in boards for kind in b.palette})]
        self.glyphs = view.glyphs
        rows = cols = 0
        for obs, board in zip(firsts, boards, strict=True):
            r, c = self._extent(obs, board)
            rows, cols = max(rows, r), max(cols, c)
        self.cells: list[Cell] = [(r, c) for r in range(rows) for c in range(cols)]
        self.keys = (["primary", "secondary"] + (list(ARROWS) if self.controls.arrows_act else [])
                     + list(self.controls.alphabet))
        self.counter_names = [name for name, _ in self._counter_slots(boards[0])]
        glyph_top = len(self.glyphs) + 1
        self.observation_space = spaces.Dict({
            "kinds": spaces.Box(0, len(self.kinds) - 1, self.shape, dtype=np.int64),
            "numbers": spaces.Box(-1, VALUE_MAX, self.shape, dtype=np.int64),
            "glyphs": spaces.Box(0, glyph_top, self.shape, dtype=np.int64),
            "counters": spaces.Box(-COUNTER_LIMIT, COUNTER_LIMIT, (len(self.counter_names),),
                                   dtype=np.float32),
        })
        self.action_space = spaces.Discrete(len(self.keys) * len(self.cells))

    def _extent(self, obs: object, board: BoardView) -> tuple[int, int]:
        if self.controls.cells is not None:
            return self.controls.cells(obs)
        return board.rows - board.origin[0], board.cols - board.origin[1]

    def _counter_slots(self, board: BoardView) -> list[tuple[str, float]]:
        """(slot name, number) of each counter: a number; "2/5" as two; words as glyphs."""
        slots: list[tuple[str, float]] = []
        for name, value in board.counters:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                slots.append((name, float(value)))
            elif isinstance(value, str) and (found := FRACTION.match(value)):
                slots += [(name, float(found.group(1))), (f"{name} of", float(found.group(2)))]
            elif isinstance(value, str):
                slots += [(f"{name}[{k}]", float(self.glyph(token)))
                          for k, token in enumerate(value.split())]
        return slots

    def glyph(self, text: str) -> int:
        """The index + 1 of a text's character among the declared glyphs (0: none)."""
        if not text or _number(text) >= 0:
            return 0
        at = self.glyphs.find(text[0])
        return at + 1 if at >= 0 else len(self.glyphs) + 1

    def counters(self, board: BoardView) -> npt.NDArray[np.float32]:
        """The board's counters as numbers, in the slots `counter_names` names."""
        out = [number for _, number in self._counter_slots(board)]
        fixed = (out + [0.0] * len(self.counter_names))[:len(self.counter_names)]
        return np.clip(np.array(fixed, dtype=np.float32), -COUNTER_LIMIT, COUNTER_LIMIT)

    def look(self, obs: object) -> Look:
        """The observation read once: its board, extent, arrays and mask."""
        board = self.view.board(obs)
        extent = self._extent(obs, board)
        return Look(obs, board, extent, self._arrays(board), self._mask(obs, extent))

    def _arrays(self, board: BoardView) -> Record:
        """The board as the arrays of `observation_space` (a smaller board padded)."""
        index = {kind: i for i, kind in enumerate(self.kinds)}
        kinds = np.zeros(self.shape, dtype=np.int64)
        numbers = np.full(self.shape, -1, dtype=np.int64)
        glyphs = np.zeros(self.shape, dtype=np.int64)
        for r in range(board.rows):
            for c in range(board.cols):
                tile = board.tile(r, c)
                kinds[r, c] = index.get(tile.kind, 0)
                numbers[r, c] = _number(tile.text)
                glyphs[r, c] = self.glyph(tile.text)
        return {"kinds": kinds, "numbers": numbers, "glyphs": glyphs,
                "counters": self.counters(board)}

    def action(self, obs: object, index: int, extent: tuple[int, int]) -> object | None:
        """The game's action an index means on a board of that extent, or None (also for a
        cell off the board)."""
        key, at = divmod(int(index), len(self.cells))
        cell = self.cells[at]
        if cell[0] >= extent[0] or cell[1] >= extent[1]:
            return None
        return self.controls.act(obs, cell, self.keys[key])

    def _mask(self, obs: object, extent: tuple[int, int]) -> npt.NDArray[np.int8]:
        """1 where an index means a move the rules allow (Controls.legal); each distinct move
        is marked once."""
        out = np.zeros(self.action_space.n, dtype=np.int8)
        seen: set[object] = set()
        legal = self.controls.legal
        for index in range(self.action_space.n):
            action = self.action(obs, index, extent)
            if action is not None and action not in seen and legal(obs, action):
                seen.add(action)
                out[index] = 1
        return out
