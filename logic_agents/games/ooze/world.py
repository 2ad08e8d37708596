"""OozeWorld: pieces arrive in a queue, the ooze flows on a clock (RULES.md §4).

Concepts:
- OozeAction: `place x y`, `destroy x y` or `wait`; parsed from and printed as those strings.
  An action the rules refuse counts as a wait (the world records why in info["invalid"]).
- PieceQueue: the current piece and the next 4, drawn uniformly from a seeded RNG, or taken
  from an explicit sequence first (and from the RNG once it runs out). `drawn` is every piece
  drawn so far, in order, so a game can be replayed and re-scored.
- OozeObservation: the board, the visible queue (5 pieces, never more), the clock, the score,
  the ooze head and its direction, and the filled channels.
- render(observation): the board with the piece glyphs; filled channels are marked.
- OozeInstance / load_instance: the game needs no map; `ooze` names the built-in default
  instance, and a file may hold a piece sequence (one line of glyphs, `#` comments).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from logic_agents.errors import FormatError, IllegalAction
from logic_agents.games.ooze.rules import (
    DESTROY_COST,
    DIRECTION_NAMES,
    GLYPHS,
    SIZE,
    SOURCE,
    Direction,
    OozeState,
    advance,
    why_not_destroy,
    why_not_place,
)
from logic_agents.ground.inputs import int_or_none, read_text
from logic_agents.ground.shapes import Record
from logic_agents.world.base import WorldBase
from logic_agents.world.core import Outcome, whole_cell
from logic_agents.world.view import Cell

VISIBLE = 5
DEFAULT_NAME = "ooze"


@dataclass(frozen=True)
class OozeInstance:
    name: str = DEFAULT_NAME
    pieces: str = ""  # explicit pieces first, then the seeded RNG
    max_ticks: int | None = None


def load_instance(path: str | Path) -> OozeInstance:
    """`ooze` (the built-in instance) or a file holding a piece sequence."""
    path = Path(path)
    if str(path) == DEFAULT_NAME and not path.exists():
        return OozeInstance()
    lines = read_text(path, "piece file").splitlines()
    pieces = ""
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0]
        for column, char in enumerate(text, 1):
            if not char.isspace() and char not in GLYPHS:
                raise FormatError(f"unknown piece {char!r}; pieces are {GLYPHS}", str(path),
                                  number, column)
        pieces += "".join(text.split())
    return OozeInstance(path.stem, pieces)


@dataclass(frozen=True)
class OozeAction:
    kind: str  # "place", "destroy" or "wait"
    cell: Cell | None = None

    def __str__(self) -> str:
        """`place R C`: row first, then column, as in every game's actions (the cell is
        (x, y) = (column, row) inside the rules)."""
        return self.kind if self.cell is None else f"{self.kind} {self.cell[1]} {self.cell[0]}"

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def from_json(cls, text: str) -> OozeAction:
        words = str(text).split()
        if words == ["wait"]:
            return cls("wait")
        if len(words) == 3 and words[0] in ("place", "destroy"):
            row, col = int_or_none(words[1]), int_or_none(words[2])
            if row is not None and col is not None:
                return cls(words[0], (col, row))
        raise FormatError(f"not an ooze action: {text!r} (expected 'place R C', "
                          "'destroy R C' or 'wait')")


def parse_pieces(text: str, source: str = "--pieces") -> str:
    """An explicit piece sequence: glyphs from |-+qecz only (errors name the column)."""
    for column, char in enumerate(text, 1):
        if char not in GLYPHS:
            raise FormatError(f"unknown piece {char!r}; pieces are {GLYPHS}", source, 1, column)
    return text


class PieceQueue:
    def __init__(self, rng: random.Random, sequence: str = ""):
        self.rng = rng
        self.sequence = parse_pieces(sequence)
        self.drawn: list[str] = []
        self.visible: list[str] = []
        while len(self.visible) < VISIBLE:
            self.visible.append(self._draw())

    def _draw(self) -> str:
        n = len(self.drawn)
        piece = self.sequence[n] if n < len(self.sequence) else self.rng.choice(GLYPHS)
        self.drawn.append(piece)
        return piece

    def pop(self) -> str:
        piece = self.visible.pop(0)
        self.visible.append(self._draw())
        return piece


@dataclass(frozen=True)
class OozeObservation:
    board: tuple[tuple[Cell, str], ...]  # placed pieces, sorted by cell
    filled: tuple[tuple[Cell, tuple[int, ...]], ...]  # filled channels per entered cell
    queue: str
    clock: int
    score: int
    tiles: int
    head: Cell
    heading: Direction
    next_flow: int

    @property
    def pieces(self) -> dict[Cell, str]:
        return dict(self.board)

    def to_json(self) -> Record:
        return {"board": {f"{x},{y}": g for (x, y), g in self.board}, "queue": self.queue,
                "clock": self.clock, "score": self.score, "tiles": self.tiles,
                "head": list(self.head), "heading": DIRECTION_NAMES[self.heading],
                "next_flow": self.next_flow}


class OozeWorld(WorldBase[OozeObservation, OozeAction]):
    """Ooze as a world.

    ## Description
    A 7x7 board with the source at (3,3), flowing up. Lay pipe ahead of the ooze.

    ## Actions
    OozeAction: `place x y` puts the current piece on an empty cell; `destroy x y` removes a
    piece the ooze has not entered, for 3 points; `wait`. A refused action counts as a wait.

    ## Observation
    OozeObservation: board, visible queue, clock, score, tiles, ooze head and direction.

    ## Rewards
    The change of score in the step (2 per tile entered, 5 for a cross filled both ways, -3
    per destroy).

    ## Episode end
    Terminated at the first leak; truncated at `max_ticks` if given.
    """

    game = "an ooze"
    action_type = OozeAction

    def __init__(self, *, pieces: str = "", max_ticks: int | None = None):
        super().__init__()
        self.sequence = parse_pieces(pieces)
        self.max_ticks = self.max_steps = max_ticks  # one tick per step

    def hidden_state(self) -> None:
        return None  # future pieces are drawn only when the queue advances: nothing to hide

    def start(self) -> Record:
        self.queue = PieceQueue(self.rng, self.sequence)
        self.state = OozeState()
        self.actions: list[str] = []
        return {}

    def play(self, action: OozeAction) -> tuple[float, Record]:
        if not isinstance(action.kind, str):
            raise IllegalAction(f"not an ooze action: {action!r}")
        if action.cell is not None:
            whole_cell(action.cell, action)
        state = self.state
        before = state.score
        info: Record = {}
        reason = self._apply(action)
        self.actions.append(str(action) if reason is None else "wait")
        if reason is not None:
            info["invalid"] = f"{action}: {reason} (counted as a wait)"
        state.clock += 1
        if state.clock == state.next_flow():
            advance(state)
        if state.leaked:  # the game runs until the ooze leaks: its score says how well
            self.end(Outcome.ENDED)
        return float(state.score - before), info

    def summary(self) -> Record:
        """What anyone needs to re-score the game: every piece drawn and one action per tick
        (an action the rules refused is recorded as the wait it counted as)."""
        s = self.state
        return {"score": s.score, "ticks": s.clock, "tiles": s.tiles,
                "pieces": "".join(self.queue.drawn), "actions": list(self.actions)}

    def _apply(self, action: OozeAction) -> str | None:
        state = self.state
        if action.kind == "wait":
            return None
        if action.cell is None:
            return f"{action.kind} needs a cell"
        if action.kind == "place":
            reason = why_not_place(state, action.cell)
            if reason is None:
                state.board[action.cell] = self.queue.pop()
            return reason
        if action.kind == "destroy":
            reason = why_not_destroy(state, action.cell)
            if reason is None:
                del state.board[action.cell]
                state.score -= DESTROY_COST
            return reason
        return f"unknown action kind {action.kind!r}"

    def observe(self) -> OozeObservation:
        s = self.state
        return OozeObservation(
            tuple(sorted(s.board.items())),
            tuple(sorted((c, tuple(sorted(ch))) for c, ch in s.filled.items())),
            "".join(self.queue.visible), s.clock, s.score, s.tiles, s.head, s.heading,
            s.next_flow())


def render(obs: OozeObservation) -> str:
    """The board: glyphs, `S` the source, `.` empty; a cell the ooze entered is bracketed."""
    pieces, filled = obs.pieces, dict(obs.filled)
    rows = []
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            glyph = "S" if (x, y) == SOURCE else pieces.get((x, y), ".")
            row.append(f"[{glyph}]" if (x, y) in filled else f" {glyph} ")
        rows.append("".join(row))
    head = f"head {obs.head} going {DIRECTION_NAMES[obs.heading]}"
    return "\n".join(rows + [f"t={obs.clock} score={obs.score} tiles={obs.tiles} "
                             f"queue={obs.queue} next flow at t={obs.next_flow}; {head}"])
