"""The referee-player protocol: every message, one typed shape each.

Two conversations, both JSON objects with an `op` (referee.wire carries them):

- the referee and a player server, one packet a message on a control socket:
  serve {game, spec, reference, file, paths, here, memory_cap, sandboxed, temp, warm}
                                   -> serving {}          (the game is read; no agent code)
  fork {} + a socket              -> forked {}            (a fresh child plays on the socket)
  sweep {}                        -> swept {}             (the last game's processes killed,
                                                            its temporary files gone)
  bye {}                          -> the server exits
  Any order it cannot follow is refused {message}.
- the referee and the child that plays one game, framed on that game's socket:
  load {}                         -> loaded {name, help, options, warm} | refused {message}
  begin {game_id, options, seed}  -> ok {game_id} | failed   (the agent's module is read,
                                                              the agent built, then reset)
  reset {game_id, seed}           -> ok | failed
  act {game_id, step, obs, whole} -> action {game_id, step, action, why?, why_failed?}
                                     | failed   (obs: the fields that changed)
  end {game_id}                   -> ended {game_id, stats | stats_failed, close_failed?},
                                     and the child exits
  close {game_id}                 -> ok | failed, and the child exits
  Any call of the agent that raises is failed {game_id, step, where, kind, message, frames}.

A player's answers are data the referee checks field by field (referee.remote); these shapes
make a typo in what either side writes a type checker's error.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from logic_agents.ground.shapes import Record

ORDERS = ("serve", "fork", "sweep", "bye", "load", "begin", "reset", "act", "end", "close")
ANSWERS = ("serving", "forked", "swept", "refused", "loaded", "ok", "action", "ended", "failed")


class Serve(TypedDict):
    """Read the game (and no agent code), to fork games from."""

    op: Literal["serve"]
    game: str
    spec: str | None  # the game's entry point, so the server need not scan every package's
    reference: str
    file: str | None
    paths: list[str]
    here: str
    memory_cap: int | None
    sandboxed: bool
    temp: str | None  # without the sandbox: the folder its games' TMPDIRs are made in
    warm: list[str]  # library modules to read before the first game (what `loaded` named)


class Order(TypedDict):
    """An order with no fields: fork (a socket rides with it), sweep, bye, load."""

    op: Literal["fork", "sweep", "bye", "load"]


class Begin(TypedDict):
    """A new game: build the agent with `options`, reset it with `seed`."""

    op: Literal["begin"]
    game_id: str
    options: Record
    seed: int | None


class Reset(TypedDict):
    """Reset the agent again."""

    op: Literal["reset"]
    game_id: str
    seed: int | None


class Act(TypedDict):
    """The agent's move: the observation's changed fields (all of them when `whole`)."""

    op: Literal["act"]
    game_id: str
    step: int
    obs: Record
    whole: bool


class End(TypedDict):
    """The game is over (end: stats, then close) or abandoned (close)."""

    op: Literal["end", "close"]
    game_id: str


class Plain(TypedDict):
    """An answer with no fields of its own: serving, forked, swept."""

    op: Literal["serving", "forked", "swept"]


class Refused(TypedDict):
    """What a server or a child could not do, in words (a module that does not read)."""

    op: Literal["refused"]
    message: str
    kind: NotRequired[str]  # what kind of failure (SyntaxError, ImportError, ...)


class Loaded(TypedDict):
    """What the agent's module says of the agent: its name, help line and options."""

    op: Literal["loaded"]
    name: str
    help: str
    options: list[Record]
    warm: list[str]  # the library modules reading the agent's module read


class Ok(TypedDict):
    """Done."""

    op: Literal["ok"]
    game_id: str


class Failed(TypedDict):
    """A call of the agent's that raised, or an order the child could not follow."""

    op: Literal["failed"]
    game_id: str
    step: int
    where: str
    kind: str
    message: str
    frames: str


class _Action(TypedDict):
    op: Literal["action"]
    game_id: str
    step: int
    action: object


class Action(_Action, total=False):
    """The agent's action (None gives up) and its reason, as data."""

    why: Record
    why_failed: Failed


class _Ended(TypedDict):
    op: Literal["ended"]
    game_id: str


class Ended(_Ended, total=False):
    """The agent's stats (or how they failed), and how its close failed, if it did."""

    stats: Record
    stats_failed: Failed
    close_failed: Failed


def failed(game_id: str, step: int, where: str, kind: str, message: str, frames: str = ""
           ) -> Failed:
    """A `failed` answer (its words and frames cut to what the referee keeps)."""
    return {"op": "failed", "game_id": game_id, "step": step, "where": where, "kind": kind,
            "message": message[:2000], "frames": frames[-8000:]}


def refused(message: str, kind: str = "") -> Refused:
    """A `refused` answer; `kind` names the failure (an agent's module: SyntaxError, ...)."""
    answer: Refused = {"op": "refused", "message": message[:2000]}
    if kind:
        answer["kind"] = kind[:80]
    return answer


def ok(game_id: str) -> Ok:
    """An `ok` answer."""
    return {"op": "ok", "game_id": game_id}
