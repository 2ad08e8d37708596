"""The shapes every game shares, after Gymnasium.

Concepts:
- World: reset(*, seed) -> (obs, info); step(action) -> (obs, reward, terminated, truncated, info).
  The world owns its RNG and is the only object that knows the hidden state.
- Agent: reset(seed) and act(observation) -> action. It never holds the world.
- StepResult: the 5-tuple of step, with names.
- Outcome / EpisodeResult: how an episode ended, as a JSON-ready dataclass; `error` and
  `timeout` are the agent's failures (errors.AgentFailed), not the game's.
- Why: an agent's reason for its last move (its `why` attribute): a str that may also carry
  the cells of its proof, the odds it weighed at a guess, and whether the move was a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from logic_agents.errors import IllegalAction
from logic_agents.ground.shapes import Record

Obs = TypeVar("Obs")
Act = TypeVar("Act")
Obs_co = TypeVar("Obs_co", covariant=True)
Act_contra = TypeVar("Act_contra", contravariant=True)
Obs_contra = TypeVar("Obs_contra", contravariant=True)
Act_co = TypeVar("Act_co", covariant=True)
Info = Record


@runtime_checkable
class World(Protocol[Obs_co, Act_contra]):
    """A game's world, as in Gymnasium: reset, then step until terminated or truncated.

    Declared beside these by world.base.WorldBase (read with its defaults from a world that
    does not derive from it): `outcome`, `summary()`, `hidden_state()`.
    """

    def reset(self, *, seed: int | None = None) -> tuple[Obs_co, Info]:
        """A new episode from `seed`: (the first observation, info)."""
        ...

    def step(self, action: Act_contra) -> tuple[Obs_co, float, bool, bool, Info]:
        """(observation, reward, terminated, truncated, info), as in Gymnasium."""
        ...


AnyWorld = World[Any, Any]  # a world of a game the caller does not know (the framework's view)


@runtime_checkable
class Agent(Protocol[Obs_contra, Act_co]):
    """What `play`, `compare` and run_episode need of an agent: these two methods.

    Optional, with the defaults world.seat.Seated declares: `name: str` (default: the class
    name); `why` (the reason for the last move); `stats() -> dict` (counters a result
    carries; `guesses` is counted apart); `close()` (called when an episode ends, to free
    solvers; `reset` must make the agent ready again). `options`, a tuple of
    world.declared.Option, become command-line flags (see world.agents).
    """

    def reset(self, seed: int | None = None) -> None:
        """Start an episode; an agent that draws random numbers seeds its own RNG here."""
        ...

    def act(self, observation: Obs_contra) -> Act_co | None:
        """The next action for this observation, or None to give up."""
        ...


AnyAgent = Agent[Any, Any]  # an agent of a game the caller does not know


class Why(str):
    """The words of a reason, plus what a viewer highlights.

    `cells` (row, column) of the proof, `odds` {(row, column): probability} weighed at a
    guess, `guess` (not proven), `path` (the cells are a route in order, which a viewer draws
    as a line: Ooze's plan), `proved` (the move is claimed a logical consequence of the
    rules and what was seen: the referee checks it against the hidden state, world.runner),
    `certified` (the lemmas of the checked proofs the claim rested on: a proof checker
    accepted each UNSAT answer, logic.certify; None: not certified).
    """

    cells: tuple[tuple[int, int], ...]
    odds: dict[tuple[int, int], float]
    guess: bool
    path: bool
    proved: bool
    certified: int | None

    def __new__(cls, text: str, cells: Iterable[Sequence[int]] = (),
                odds: dict[tuple[int, int], float] | None = None, guess: bool = False,
                path: bool = False, proved: bool = False, certified: int | None = None) -> Why:
        """A reason: its words, and what a viewer highlights (see the class)."""
        why = super().__new__(cls, text)
        why.cells = tuple([(int(r), int(c)) for r, c in cells])  # a list: half a genexpr's cost
        why.odds = dict(odds) if odds else {}
        why.guess = guess
        why.path = path
        why.proved = proved
        why.certified = certified
        return why

    def to_json(self) -> Record:
        """The reason as a trace records it: its text, and each mark that is set."""
        record: Record = {"text": str(self)}
        if self.cells:
            record["cells"] = [list(c) for c in self.cells]
        if self.odds:
            record["odds"] = [[r, c, round(p, 4)] for (r, c), p in sorted(self.odds.items())]
        if self.guess:
            record["guess"] = True
        if self.path:
            record["path"] = True
        if self.proved:
            record["proved"] = True
        if self.certified is not None:
            record["certified"] = self.certified
        return record

    @classmethod
    def from_json(cls, record: Record | None) -> Why:
        """The Why a trace recorded (what to_json wrote; a missing record says nothing)."""
        record = record or {}
        return cls(record.get("text", ""), record.get("cells", ()),
                   {(r, c): p for r, c, p in record.get("odds", ())}, bool(record.get("guess")),
                   bool(record.get("path")), bool(record.get("proved")),
                   _count(record.get("certified")))


def _count(value: object) -> int | None:
    """A recorded count (a whole number, not below 0), or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else None


def why_record(why: object) -> Record | None:
    """The JSON of an agent's `why` (a str or a Why), None when it says nothing."""
    if not why:
        return None
    return why.to_json() if isinstance(why, Why) else {"text": str(why)}


def whole_cell(cell: object, action: object) -> tuple[int, int]:
    """An action's cell as (row, column), checked.

    Every world checks its actions' cells through here, so an agent's (0.0, 1.5) is refused
    as a move, not a TypeError deep in the world.

    Args:
        cell: what the action holds as its cell.
        action: the action, for the message.

    Returns:
        The cell: two whole numbers (not floats, not bools).

    Raises:
        IllegalAction: anything else.
    """
    if type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int:
        return cell  # the common case, checked at a few attribute reads' cost (a step's path)
    if (isinstance(cell, tuple) and len(cell) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
        return (cell[0], cell[1])
    raise IllegalAction(f"{action!r}: a cell is two whole numbers (row, column), "
                        f"not {cell!r}"[:300])


class StepResult(NamedTuple, Generic[Obs]):
    """World.step's 5-tuple, with names."""

    observation: Obs
    reward: float
    terminated: bool
    truncated: bool
    info: Record


class Outcome(str, Enum):
    """How an episode ended: the world's (won, lost, ended, truncated) or the agent's."""

    WON = "won"
    LOST = "lost"
    ENDED = "ended"  # a scored game ran to its end (objective "score": the score says how well)
    TRUNCATED = "truncated"  # the world's step cap ended the episode
    GAVE_UP = "gave_up"  # the agent returned None
    ERROR = "error"  # the agent's code raised, or returned what the world refused
    TIMEOUT = "timeout"  # the agent ran past a move or game time cap

    def __str__(self) -> str:
        """The value: `won`, `lost`, ..."""
        return self.value


@dataclass
class EpisodeResult:
    """One finished episode.

    `extra` holds game-specific numbers such as lives_left. An episode the agent failed
    (outcome error or timeout) says how in `error` (one line: the exception's type and
    message, and where) and `frames` (the agent's own traceback).
    """

    game: str
    map: str
    agent: str
    seed: int | None
    outcome: Outcome
    won: bool
    steps: int
    guesses: int
    score: float
    time_s: float
    extra: Record = field(default_factory=dict)  # the world's figures (lives_left, ...)
    stats: Record = field(default_factory=dict)  # the agent's own counters, apart
    error: str = ""
    frames: str = ""
    # the CPU seconds of the process that played the game (agent and world), beside time_s,
    # which is wall time and grows when the machine is busy
    cpu_s: float = 0.0

    def to_dict(self) -> Record:
        """The result as JSON (a results row's fields)."""
        d = asdict(self)
        d["outcome"] = self.outcome.value
        return d


def own_name(obj: object) -> str | None:
    """An object's own `name` when it is a non-empty str.

    Returns:
        The name, or None when it has none, or when reading it raises (an agent's `name`
        property is the agent's code, and may fail).
    """
    try:
        name = getattr(obj, "name", None)
    except Exception:
        return None
    return name if isinstance(name, str) and name else None
