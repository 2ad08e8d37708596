"""The referee-player protocol: every message a class, and one validator for what arrives.

Two conversations, both JSON objects with an `op` (referee.wire carries them, and every
encode and decode is there):

- the referee and a player server, one packet a message on a control socket:
  Serve                      -> Serving          (the game is read; no agent code)
  Fork + a socket, two pipes -> Forked           (the sandbox proven empty first, referee.
                                                  leftovers; then a fresh child plays on the
                                                  socket)
  Dump                       -> Dumped           (the game writes its stack on the first pipe)
  Sweep                      -> Swept            (the last game's processes killed, what it
                                                  wrote put back; the next Fork proves it)
  Bye                        -> the server exits
  Any order it cannot follow, or a Fork whose sandbox it cannot prove empty (kind
  Leftovers), is Refused(message); after a refused Fork or Serve the server exits (fail
  closed).
- the game's own status channel, the second pipe of its Fork: when the server reaps the
  game's child (its parent, in the sandbox too), it writes Exited(code) there and closes it,
  as CPython's forkserver does; the pipe's end with nothing on it says the server could not.
- the referee and the child that plays one game, framed on that game's socket:
  Load                                 -> Loaded(name, help, options, warm) | Refused
  Begin(game_id, options, seed)        -> Ok | Failed  (the module read, the agent built and
                                                        reset)
  Reset(game_id, seed)                 -> Ok | Failed
  Act(game_id, step, obs, whole)       -> Action(game_id, step, action, why, why_failed)
                                          | Failed     (obs: the fields that changed)
  End(game_id)                         -> Ended(game_id, stats | stats_failed, close_failed),
                                          and the child exits
  Close(game_id)                       -> Ok | Failed, and the child exits
  Any call of the agent that raises is Failed(game_id, step, where, kind, message, frames).

Concepts:
- Message: a frozen dataclass per `op`; `record(message)` is its JSON object.
- parse(record, expect): the one validator. A record becomes the message its `op` names only
  when that message is one `expect` allows here and every field is there with the type its
  class declares (no field more); anything else is ProtocolError, in words. So a player's
  answer is checked once, where it arrives, and a handler `match`es on classes.
- Verdict: how the referee judges one trip to a player (answered, the agent's call failed,
  past its deadline, the process ended, a breach of the protocol).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, TypeVar, Union

from logic_agents.ground.shapes import Record


class ProtocolError(ValueError):
    """A record that is not a message allowed here (its words say what is wrong)."""


class Message:
    """A message of the protocol; each class's `op` names it on the wire."""

    op: ClassVar[str]


# -- the control socket ---------------------------------------------------------------------
@dataclass(frozen=True)
class Serve(Message):
    """Read the game (and no agent code), to fork games from."""

    op: ClassVar[str] = "serve"
    game: str
    spec: str | None  # the game's entry point, so the server need not scan every package's
    reference: str
    file: str | None
    paths: list[str]
    here: str
    memory_cap: int | None
    sandboxed: bool
    temp: str | None  # without the sandbox: the folder its games' TMPDIRs are made in
    warm: list[str]  # library modules to read before the first game (what Loaded named)


@dataclass(frozen=True)
class Fork(Message):
    """A fresh child for one game (its socket, dump pipe and status pipe ride with it)."""

    op: ClassVar[str] = "fork"


@dataclass(frozen=True)
class Dump(Message):
    """The game writes where it is (its stack) on its dump pipe."""

    op: ClassVar[str] = "dump"


@dataclass(frozen=True)
class Sweep(Message):
    """The last game's processes killed, what it wrote put back (the next Fork proves it)."""

    op: ClassVar[str] = "sweep"


@dataclass(frozen=True)
class Bye(Message):
    """The server exits."""

    op: ClassVar[str] = "bye"


@dataclass(frozen=True)
class Serving(Message):
    """The game is read."""

    op: ClassVar[str] = "serving"


@dataclass(frozen=True)
class Forked(Message):
    """A child plays on the socket."""

    op: ClassVar[str] = "forked"


@dataclass(frozen=True)
class Dumped(Message):
    """The game was asked for its stack."""

    op: ClassVar[str] = "dumped"


@dataclass(frozen=True)
class Swept(Message):
    """The last game's processes are gone (how its child ended is on its status pipe)."""

    op: ClassVar[str] = "swept"


@dataclass(frozen=True)
class Exited(Message):
    """How a game's child ended, on its status pipe: its exit code, or minus its signal."""

    op: ClassVar[str] = "exited"
    code: int


# -- a game's socket ------------------------------------------------------------------------
@dataclass(frozen=True)
class Load(Message):
    """Read the agent's module: its name, help and options."""

    op: ClassVar[str] = "load"


@dataclass(frozen=True)
class Begin(Message):
    """A new game: build the agent with `options`, reset it with `seed`."""

    op: ClassVar[str] = "begin"
    game_id: str
    options: Record
    seed: int | None


@dataclass(frozen=True)
class Reset(Message):
    """Reset the agent again."""

    op: ClassVar[str] = "reset"
    game_id: str
    seed: int | None


@dataclass(frozen=True)
class Act(Message):
    """The agent's move: the observation's changed fields (all of them when `whole`)."""

    op: ClassVar[str] = "act"
    game_id: str
    step: int
    obs: Record
    whole: bool


@dataclass(frozen=True)
class End(Message):
    """The game is over: the agent's stats, then its close(); then the child exits."""

    op: ClassVar[str] = "end"
    game_id: str


@dataclass(frozen=True)
class Close(Message):
    """The game is abandoned: the agent's close(); then the child exits."""

    op: ClassVar[str] = "close"
    game_id: str


@dataclass(frozen=True)
class Refused(Message):
    """What a server or a child could not do, in words (a module that does not read)."""

    op: ClassVar[str] = "refused"
    message: str
    kind: str = ""  # what kind of failure (SyntaxError, ImportError, ...)


@dataclass(frozen=True)
class Loaded(Message):
    """What the agent's module says of the agent: its name, help line and options."""

    op: ClassVar[str] = "loaded"
    name: str
    help: str
    options: list[Record]
    warm: list[str]  # the library modules reading the agent's module read


@dataclass(frozen=True)
class Ok(Message):
    """Done."""

    op: ClassVar[str] = "ok"
    game_id: str


@dataclass(frozen=True)
class Failed(Message):
    """A call of the agent's that raised, or an order the child could not follow."""

    op: ClassVar[str] = "failed"
    game_id: str
    step: int
    where: str
    kind: str
    message: str
    frames: str = ""


@dataclass(frozen=True)
class Action(Message):
    """The agent's action (None gives up) and its reason, as data."""

    op: ClassVar[str] = "action"
    game_id: str
    step: int
    action: object
    why: Record | None = None
    why_failed: Failed | None = None


@dataclass(frozen=True)
class Ended(Message):
    """The agent's stats (or how they failed), and how its close failed, if it did."""

    op: ClassVar[str] = "ended"
    game_id: str
    stats: Record | None = None
    stats_failed: Failed | None = None
    close_failed: Failed | None = None


MESSAGES: tuple[type[Message], ...] = (
    Serve, Fork, Dump, Sweep, Bye, Serving, Forked, Dumped, Swept, Exited, Load, Begin, Reset,
    Act, End, Close, Refused, Loaded, Ok, Failed, Action, Ended)
BY_OP: dict[str, type[Message]] = {m.op: m for m in MESSAGES}
ORDERS = tuple(m.op for m in (Serve, Fork, Dump, Sweep, Bye, Load, Begin, Reset, Act, End, Close))
ANSWERS = tuple(m.op for m in MESSAGES if m.op not in ORDERS)
# what each side may receive where
SERVER_ORDERS = (Serve, Fork, Dump, Sweep, Bye)
GAME_ORDERS = (Load, Begin, Reset, Act, End, Close)


class Verdict(enum.Enum):
    """How the referee judges one trip to a player."""

    ANSWERED = "answered"  # the answer it waited for
    FAILED = "failed"  # the agent's own call raised (a Failed answer)
    TIMEOUT = "timeout"  # no answer before the deadline
    DIED = "died"  # the stream ended: the player process ended
    BREACH = "breach"  # not a message allowed here, or one for another game or step


# -- to and from the wire -------------------------------------------------------------------
def record(message: Message) -> Record:
    """The message as one JSON object: its `op`, then its fields (nested messages too)."""
    out: Record = {"op": message.op}
    for f in dataclasses.fields(message):  # type: ignore[arg-type]
        value = getattr(message, f.name)
        out[f.name] = record(value) if isinstance(value, Message) else value
    return out


M = TypeVar("M", bound=Message)


def parse(data: object, expect: tuple[type[M], ...]) -> M:
    """The message a received record is, when it is one `expect` allows here.

    Raises:
        ProtocolError: not an object with an `op`, an `op` not allowed here, a field
            missing, of the wrong type, or one no such message has.
    """
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object, not {type(data).__name__}")
    op = data.get("op")
    kind = BY_OP.get(op) if isinstance(op, str) else None
    if kind is None or kind not in expect:
        allowed = " or ".join(repr(m.op) for m in expect)
        raise ProtocolError(f"{str(op)[:40]!r} where {allowed} was due")
    hints = _hints(kind)  # type: ignore[arg-type]
    names = _fields(kind)  # type: ignore[arg-type]
    values: Record = {}
    for name, required in names.items():
        if name in data:
            values[name] = _checked(data[name], hints[name], f"{op}.{name}")
        elif required:
            raise ProtocolError(f"{op} without its {name}")
    extra = set(data) - set(names) - {"op"}
    if extra:
        raise ProtocolError(f"{op} with a field it has no place for ({sorted(extra)[0][:40]!r})")
    return kind(**values)


@cache
def _fields(kind: type[Message]) -> dict[str, bool]:
    """A message's field names, each with whether it must be given (it has no default)."""
    return {f.name: f.default is dataclasses.MISSING
            for f in dataclasses.fields(kind)}  # type: ignore[arg-type]


@cache
def _hints(kind: type[Message]) -> dict[str, object]:
    return typing.get_type_hints(kind)


def _checked(value: object, hint: object, where: str) -> object:
    """`value` when it has the type `hint` declares (a nested message, parsed)."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _checked(value, option, where)
            except ProtocolError as e:
                errors.append(str(e))
        raise ProtocolError(errors[0] if errors else f"{where} is missing")
    if isinstance(hint, type) and issubclass(hint, Message):
        return parse(value, (hint,))
    if hint is object or hint is Any:
        return value
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise ProtocolError(f"{where} is a list, not {type(value).__name__}")
        return [_checked(v, item, where) for v in value]
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            raise ProtocolError(f"{where} is an object, not {type(value).__name__}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise ProtocolError(f"{where} is true or false, not {type(value).__name__}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError(f"{where} is a whole number, not {type(value).__name__}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ProtocolError(f"{where} is text, not {type(value).__name__}")
        return value
    raise ProtocolError(f"{where}: no check for {hint!r}")  # pragma: no cover - ours to add


# -- what the child answers, cut to what the referee keeps ----------------------------------
def failed(game_id: str, step: int, where: str, kind: str, message: str, frames: str = ""
           ) -> Failed:
    """A Failed answer (its words and frames cut to what the referee keeps)."""
    return Failed(game_id, step, where, kind, message[:2000], frames[-8000:])


def refused(message: str, kind: str = "") -> Refused:
    """A Refused answer; `kind` names the failure (an agent's module: SyntaxError, ...)."""
    return Refused(message[:2000], kind[:80])
