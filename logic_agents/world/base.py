"""Base classes that do the shared work of worlds and agents once.

As Gymnasium's Env does seeding. A game may ignore them and meet the protocols of
world.core directly.

Concepts:
- WorldBase: reset(seed) seeds `self.rng`, zeroes `self.steps`, clears `self.outcome`, then
  calls the game's `start()`; step(action) refuses a step after the end and an action of
  another type (IllegalAction), calls the game's `play(action) -> (reward, info)`, counts the
  step and truncates at `max_steps`. A game ends its episode by `self.end(Outcome.WON)` (or
  LOST, or ENDED for a scored game): the outcome is a typed field, never an `info` key.
- PuzzleWorld: a static puzzle played as a world: the game writes `apply(action)` and
  `solved()`; the episode is won (+1) when the grid is solved.
- CellAction: an action on one cell, a verb and (row, column), written "verb R C" in traces;
  a game names its verbs (`VERBS`) and gets the codec, the checks and `__str__`.
  PlaceAction: "place R C V", a value written in one character (`symbol`, `value_of`).
- GridShape: height, width and cells of a board whose rows are in one field (`GRID`).
- PlanningAgent: an agent that plans moves and then plays them: its RNG (seeded by reset),
  a queue of pending moves with their reasons, `why`, `guesses`, `stats()` and `close()`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from logic_agents.errors import FormatError, IllegalAction
from logic_agents.ground.shapes import Record
from logic_agents.world.core import Outcome, Why, whole_cell
from logic_agents.world.view import Cell

# the seeds of the RNGs a world or an agent holds before its first reset (which seeds its
# own): Random() reads 2.5 KB from the system per object, 1% of a small game's cost twice over
_SEEDS = random.Random()


class _Unseeded:
    """`rng` before the first reset.

    Made when first read (seeding one costs 4 us, and the first reset seeds its own), then
    kept in the object's own attributes.
    """

    def __get__(self, obj: object, owner: type | None = None) -> random.Random:
        rng = random.Random(_SEEDS.getrandbits(64))
        if obj is not None:
            vars(obj)["rng"] = rng
        return rng

Obs = TypeVar("Obs")
Act = TypeVar("Act")


class WorldBase(ABC, Generic[Obs, Act]):
    """Seeding, the done guard, the step count, truncation and the outcome, once."""

    game: ClassVar[str] = "this game's"  # for messages: "not a daggers action"
    action_type: ClassVar[type | tuple[type, ...]] = object
    max_steps: int | None = None
    rng = _Unseeded()  # seeded by each reset

    def __init__(self) -> None:
        """A world before its first reset: no episode, no outcome."""
        self.outcome: Outcome | None = None
        self.steps = 0
        self._done = True

    # -- what a game writes ------------------------------------------------------------------
    def start(self) -> Record:
        """Set up a new episode (self.rng is seeded); return reset's info.

        Call `self.end` when the instance is finished before any move.
        """
        return {}

    @abstractmethod
    def play(self, action: Act) -> tuple[float, Record]:
        """Apply an action of the right type; return (reward, info).

        Raise IllegalAction to refuse it, changing nothing. Call `self.end(outcome)` when
        the game ends.
        """

    @abstractmethod
    def observe(self) -> Obs:
        """What the agent sees now: a frozen value that holds no reference to the world."""

    def summary(self) -> Record:
        """The world's own figures for the results row (lives_left, score); none by default."""
        return {}

    def hidden_state(self) -> object:
        """What the agent must never see (`games --check` looks for it in observations)."""
        return None

    # -- the shared part -----------------------------------------------------------------------
    def end(self, outcome: Outcome) -> None:
        """End the episode: WON, LOST, or ENDED for a scored game."""
        self.outcome = outcome

    def reset(self, *, seed: int | None = None) -> tuple[Obs, Record]:
        """Seed the RNG, clear the outcome and the step count, then the game's `start`."""
        self.rng = random.Random(seed)
        self.outcome = None
        self.steps = 0
        info = self.start()
        self._done = self.outcome is not None
        return self.observe(), info

    def step(self, action: Act) -> tuple[Obs, float, bool, bool, Record]:
        """The game's `play`, counted, and truncated at `max_steps`.

        Raises:
            IllegalAction: a step after the end, or an action of another type.
        """
        if self._done:
            raise IllegalAction("the episode has ended; call reset()")
        if not isinstance(action, self.action_type):
            raise IllegalAction(f"not {self.game} action: {action!r}"[:300])
        reward, info = self.play(action)
        self.steps += 1
        terminated = self.outcome is not None
        truncated = (not terminated and self.max_steps is not None
                     and self.steps >= self.max_steps)
        self._done = terminated or truncated
        return self.observe(), reward, terminated, truncated, info


class PuzzleWorld(WorldBase[Obs, Act]):
    """A static puzzle as a world: won (+1) when `solved()`.

    The game writes `apply`, and `step_cap(puzzle)`, the truncation when `max_steps` is not
    given.
    """

    def __init__(self, puzzle: Any, *, max_steps: int | None = None):
        """A world for `puzzle`, truncated at `max_steps` (default: `step_cap(puzzle)`)."""
        super().__init__()
        self.puzzle = puzzle
        self.max_steps = max_steps or self.step_cap(puzzle)

    def step_cap(self, puzzle: Any) -> int:
        """The truncation when `max_steps` is not given."""
        return 1000

    @abstractmethod
    def apply(self, action: Act) -> None:
        """Change the grid (raise IllegalAction to refuse, changing nothing)."""

    @abstractmethod
    def solved(self) -> bool:
        """Whether the grid is a solution (the world ends the episode won)."""

    def start(self) -> Record:
        """The game's `begin`; an instance solved from the start is won at once."""
        self.begin()
        if self.solved():
            self.end(Outcome.WON)
        return {}

    def begin(self) -> None:
        """Set up the grid for a new episode."""

    def play(self, action: Act) -> tuple[float, Record]:
        """The game's `apply`; +1 and the end when the grid is solved."""
        self.apply(action)
        if self.solved():
            self.end(Outcome.WON)
            return 1.0, {}
        return 0.0, {}


def not_an_action(game: str, text: object, expected: str) -> FormatError:
    """The error of a trace's action that is not one of the game's."""
    article = "an" if game[:1] in "aeiou" else "a"
    shown = repr(text[:60]) if isinstance(text, str) else repr(text)[:60]  # 42 is not '42'
    return FormatError(f"not {article} {game} action: {shown} (expected {expected})")


def _not_whole(game: str, text: object, words: list[str]) -> FormatError | None:
    """The error of "verb R C" whose R and C are numbers but not whole ones (0.0, 1.5)."""
    def number(word: str) -> bool:
        try:
            float(word)
        except ValueError:
            return False
        return True

    if all(number(w) for w in words):
        return FormatError(f"not a {game} action: {str(text)[:60]!r}: a cell is two whole "
                           "numbers (row, column)")
    return None


class TextAction:
    """An action a trace writes as its text (str) and reads back with from_json."""

    def to_json(self) -> str:
        """The action as a trace writes it: its text."""
        return str(self)


@dataclass(frozen=True)
class CellAction(TextAction):
    """A verb on one cell, written "verb R C".

    Subclass it and name the verbs::

        class AkariAction(CellAction):
            VERBS = ("bulb", "clear")
            GAME = "akari"
    """

    kind: str
    cell: Cell
    VERBS: ClassVar[tuple[str, ...]] = ()
    GAME: ClassVar[str] = ""

    def __str__(self) -> str:
        """"verb R C"."""
        return f"{self.kind} {self.cell[0]} {self.cell[1]}"

    @classmethod
    def from_json(cls, text: object) -> CellAction:
        """The action "verb R C" (what to_json wrote), else FormatError."""
        parts = str(text).split()
        if (len(parts) == 3 and parts[0] in cls.VERBS
                and all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts[1:])):
            return cls(parts[0], (int(parts[1]), int(parts[2])))
        if len(parts) == 3 and parts[0] in cls.VERBS:
            raise _not_whole(cls.GAME, text, parts[1:]) or not_an_action(
                cls.GAME, text, " or ".join(f"'{verb} R C'" for verb in cls.VERBS))
        raise not_an_action(cls.GAME, text, " or ".join(f"'{verb} R C'" for verb in cls.VERBS))

    def checked(self, height: int, width: int) -> Cell:
        """The action's cell, checked against the game's verbs and a height x width board.

        Raises:
            IllegalAction: another game's verb, or a cell off the board.
        """
        if self.kind not in self.VERBS:
            raise IllegalAction(f"not a {self.GAME} action: {self!r}"[:300])
        r, c = whole_cell(self.cell, self)
        if not (0 <= r < height and 0 <= c < width):
            raise IllegalAction(f"{self}: off the {height}x{width} board")
        return r, c


@dataclass(frozen=True)
class PlaceAction(TextAction):
    """A value placed on one cell, written "place R C V" (V one character).

    Subclass it: name the GAME, and `symbol(value)` / `value_of(text)` when the value is not
    the text itself.
    """

    cell: Cell
    value: Any
    GAME: ClassVar[str] = ""
    EXPECTED: ClassVar[str] = "V"  # what V may be, for the error message

    @classmethod
    def symbol(cls, value: Any) -> str:
        """The one character that writes `value`."""
        return str(value)

    @classmethod
    def value_of(cls, text: str) -> Any:
        """The value a one-character text writes, or None if it writes none."""
        return text

    def __str__(self) -> str:
        """"place R C V"."""
        return f"place {self.cell[0]} {self.cell[1]} {self.symbol(self.value)}"

    @classmethod
    def from_json(cls, text: Any) -> Any:
        """The action "place R C V" (what to_json wrote), else FormatError."""
        parts = str(text).split()
        if (len(parts) == 4 and parts[0] == "place" and len(parts[3]) == 1
                and all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts[1:3])
                and (value := cls.value_of(parts[3])) is not None):
            return cls((int(parts[1]), int(parts[2])), value)
        raise not_an_action(cls.GAME, text, f"'place R C {cls.EXPECTED}'")


class GridShape:
    """height, width and cells() of a board whose rows are the field named GRID."""

    GRID: ClassVar[str] = "rows"

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(getattr(self, self.GRID))

    @property
    def width(self) -> int:
        """The length of a row."""
        rows = getattr(self, self.GRID)
        return len(rows[0]) if rows else 0

    def cells(self) -> list[Cell]:
        """Every (row, column), row by row."""
        return [(r, c) for r in range(self.height) for c in range(self.width)]


class PlanningAgent(Generic[Obs, Act]):
    """Plans moves, then plays them: the RNG, the pending moves, why, guesses, stats, close.

    A subclass writes `replan(obs)`, the actions of a plan from here (None: give up), and
    the default `act` plays them, asking again when they are used up (`replans = False`: a
    plan is made once per episode, as a capped search's); or it writes its own `act`.
    `self.plan(moves)` queues (action, why) pairs and
    `self.plan_actions(actions)` queues actions (their why left as it is); `self.next_move
    (obs)` pops the first still worth playing (`playable(obs, action)`, by default every
    one); `self.guess(action, why)` counts a guess. `reset` closes what the last episode held
    (`close`: the agent's SolverCache, `self.cache`, if it keeps one), so a trajectory never
    depends on the episode before. `__init__` calls no overridable method: a subclass sets its
    fields in any order, and its `reset` runs when an episode starts (the runner's first call).
    """

    name = "agent"
    replans: ClassVar[bool] = True
    rng = _Unseeded()  # seeded by each reset

    def __init__(self) -> None:
        """An agent before its first episode (its `reset` runs when one starts)."""
        self.planned = False  # a plan was asked for this episode
        self.guesses = 0
        self.why: str | Why = ""  # how the last move was chosen
        self.pending: deque[tuple[Act, str | Why | None]] = deque()

    def replan(self, obs: Obs) -> Iterable[Act] | None:
        """The actions of a plan from `obs`, or None to give up."""
        return None

    def act(self, obs: Obs) -> Act | None:
        """The next pending move worth playing, planning again when there is none."""
        if not self.pending:
            if self.planned and not self.replans:
                return None
            self.planned = True
            actions = self.replan(obs)
            if actions is None:
                return None
            self.plan_actions(actions)
        return self.next_move(obs)

    def reset(self, seed: int | None = None) -> None:
        """Close what the last episode held, then start afresh with `seed`."""
        self.close()
        self.planned = False
        self.rng = random.Random(seed)
        self.guesses = 0
        self.why = ""
        self.pending = deque()

    def plan(self, moves: Iterable[tuple[Act, str | Why | None]]) -> None:
        """Queue (action, why) pairs."""
        self.pending.extend(moves)

    def plan_actions(self, actions: Iterable[Act], why: str | Why | None = None) -> None:
        """Queue actions; a why of None keeps `self.why` as the agent last set it."""
        self.pending.extend((action, why) for action in actions)

    def playable(self, obs: Obs, action: Act) -> bool:
        """Whether a pending move is still worth playing (by default, every one)."""
        return True

    def next_move(self, obs: Obs) -> Act | None:
        """Pop the first pending move still playable; its why becomes `self.why`."""
        while self.pending:
            move, why = self.pending.popleft()
            if self.playable(obs, move):
                if why is not None:
                    self.why = why
                return move
        return None

    def guess(self, action: Act | None, why: str | Why = "guess") -> Act | None:
        """Count a guess (when there is an action) and say why; returns the action."""
        if action is not None:
            self.guesses += 1
            self.why = why
        return action

    def stats(self) -> Record:
        """The episode's counters: guesses."""
        return {"guesses": self.guesses}

    def close(self) -> None:
        """Free what the episode held; `reset` calls it and makes the agent ready again.

        Nothing here: solving.SolverChoice closes its SolverCache, a subclass its own.
        """
