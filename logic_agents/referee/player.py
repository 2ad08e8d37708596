"""The player process: one untrusted agent, fed observations as data by its referee.

Run as `python -m logic_agents.referee.player` by referee.remote, never imported by the referee
itself. Its standard input and output carry the frames of referee.wire; before any of the
agent's code runs, they are moved to private descriptors, standard input becomes /dev/null
and standard output goes to standard error, so an agent's prints never reach the protocol.

Concepts:
- The conversation, each answer naming the game and the step it answers:
  load {game, reference}      -> loaded {name, help, options} (the agent's module is read here)
  begin {game_id, options, seed} -> ok                      (a fresh agent object per game,
                                 reset; `new` and `reset` alone do each half)
  act {game_id, step, obs}    -> action {game_id, step, action, why} (obs: the fields that
                                 changed; the game's Observations decodes the whole record)
  end {game_id}               -> ended {game_id, stats | stats_failed, close_failed?}: the
                                 agent's stats, then its close (`stats`, `close` alone too)
  bye                         -> the process exits
  Any call of the agent that raises is `failed {game_id, step, where, kind, message, frames}`.
- The caps (memory, processes) were set by the referee before this interpreter started; the
  time caps are the referee's to keep: it stops waiting and kills this process.
- Nothing here decides an outcome: the referee checks every answer and keeps the score.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
from collections.abc import Callable
from importlib import metadata
from typing import Any

from logic_agents.errors import LogicAgentsError
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.wire import ORDER_LIMIT, Channel, Delta, WireError
from logic_agents.world.agents import check_factory, load_class
from logic_agents.world.core import own_name, why_record
from logic_agents.world.declared import Option, declared_options
from logic_agents.world.registry import ENTRY_POINT_GROUP, get_game, register
from logic_agents.world.seat import Seat, missing_members
from logic_agents.world.spec import GameSpec, Observations, summary_of
from logic_agents.world.trace import to_jsonable

MAX_WHY_CHARS = 20_000  # longer reasons are cut (the referee checks again)
MAX_STATS = 200  # counters a game's stats may carry


def _private_channel() -> Channel:
    """The protocol on two private descriptors; fd 0 reads nothing, fd 1 writes to stderr."""
    rfd, wfd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    for stream in (sys.stdout, sys.stderr):  # an agent's prints leave as they are made
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(line_buffering=True)
    return Channel(rfd, wfd, limit=ORDER_LIMIT)


class _Player:
    def __init__(self, channel: Channel):
        self.channel = channel
        self.spec: GameSpec | None = None
        self.factory: Callable[..., Any] | None = None
        self.name = "agent"
        self.agent: Seat | None = None
        self.game_id = ""
        self.decode: Callable[[Record], Any] | None = None
        self.delta = Delta()
        self.memory_cap: int | None = None
        self.here: str | None = None  # the referee's working folder, for the frames' names

    def failed(self, error: BaseException, where: str, step: int = 0) -> Record:
        clock = Clock(Caps(None, None, self.memory_cap), own_interrupts=True)
        clock.agent = self.name
        clock.here = self.here
        failure = clock.failure(error, where, step)
        return {"op": "failed", "game_id": self.game_id, "step": step, "where": where,
                "kind": failure.kind, "message": failure.message[:2000],
                "frames": failure.frames[-8000:]}

    @property
    def orders(self) -> dict[str, Callable[[Record], Record]]:
        """What the referee may ask, by its `op`."""
        return {"load": self.on_load, "new": self.on_new, "begin": self.on_begin,
                "end": self.on_end, "reset": self.on_reset, "act": self.on_act,
                "stats": self.on_stats, "close": self.on_close}

    def serve(self) -> None:
        while True:
            message = self.channel.receive()
            op = message.get("op")
            if op == "bye":
                return
            handler = self.orders.get(str(op))
            if handler is None:
                answer = {"op": "failed", "game_id": self.game_id, "step": 0, "where": "world",
                          "kind": "ProtocolError", "message": f"unknown order {op!r}",
                          "frames": ""}
            else:
                try:
                    answer = handler(message)
                except Exception as e:  # an order this player cannot follow (a game's
                    # codec that fails on its own record): said as data, not a traceback
                    answer = {"op": "failed", "game_id": self.game_id,
                              "step": message.get("step", 0), "where": "world",
                              "kind": "ProtocolError", "message": f"the player could not "
                              f"follow {str(op)[:20]!r}: {type(e).__name__}: {str(e)[:200]}",
                              "frames": ""}
            self.send(answer)

    def send(self, answer: Record) -> None:
        try:
            self.channel.send(answer)
        except (TypeError, ValueError) as e:  # what the agent gave is not data
            where = answer.get("where", "act") if answer.get("op") == "failed" else \
                {"action": "act", "stats": "stats"}.get(answer.get("op", ""), "act")
            self.channel.send({"op": "failed", "game_id": self.game_id,
                               "step": answer.get("step", 0), "where": where,
                               "kind": "IllegalAction" if where == "act" else "ValueError",
                               "message": f"{where} gave what does not cross as data: "
                                          f"{type(e).__name__}: {str(e)[:200]}",
                               "frames": ""})

    # -- the orders ------------------------------------------------------------------------
    def on_load(self, message: Record) -> Record:
        reference = str(message.get("reference", ""))
        file = message.get("file")
        self.name = reference
        here = message.get("here")
        self.here = here if isinstance(here, str) else None
        memory = message.get("memory_cap")
        self.memory_cap = memory if isinstance(memory, int) and memory > 0 else None
        for path in reversed([p for p in message.get("paths") or () if isinstance(p, str)]):
            sys.path.insert(0, path)  # where a module reference's package lies
        try:
            self.spec = _game(str(message.get("game", "")), message.get("spec"))
            observations = self.spec.get(Observations)
            self.decode = observations.decode if observations is not None else None
            if reference in self.spec.agents:  # a registered agent, isolated all the same
                factory = self.spec.agents[reference].factory
            else:
                attr = reference.rpartition(":")[2]
                factory = load_class(f"{file}:{attr}" if isinstance(file, str) else reference)
                check_factory(factory, reference)
        except LogicAgentsError as e:
            words = str(e)
            if isinstance(file, str):  # said as the user named it, not as resolved here
                words = words.replace(f"{file}:{reference.rpartition(':')[2]}", reference)
                words = words.replace(file, reference.rpartition(":")[0])
            return {"op": "refused", "message": words[:2000]}
        except BaseException as e:  # the module's own code, as it was read
            return {"op": "refused", "message": f"--agent {reference}: reading it raised "
                    f"{type(e).__name__}: {str(e)[:200]}"}
        self.factory = factory
        named = own_name(factory)
        if named and reference not in self.spec.agents:
            self.name = named
        return {"op": "loaded", "name": self.name, "help": summary_of(factory, reference)[:500],
                "options": [_option_record(o) for o in _declared(factory)]}

    def on_new(self, message: Record) -> Record:
        self.game_id = str(message.get("game_id", ""))
        self.delta.forget()
        self.agent = None
        options = message.get("options") or {}
        if self.factory is None:
            return {"op": "failed", "game_id": self.game_id, "step": 0, "where": "__init__",
                    "kind": "ProtocolError", "message": "no agent was loaded", "frames": ""}
        try:
            agent = functools.partial(self.factory, **options)()
        except BaseException as e:
            return self.failed(e, "__init__")
        missing = missing_members(agent)
        if missing:
            return {"op": "failed", "game_id": self.game_id, "step": 0, "where": "__init__",
                    "kind": "TypeError", "message": f"it made a {type(agent).__name__}, which "
                    f"has no {' or '.join(m + '()' for m in missing)}; an agent needs "
                    "reset(seed=None) and act(observation)", "frames": ""}
        self.agent = Seat(agent)
        return {"op": "ok", "game_id": self.game_id}

    def on_begin(self, message: Record) -> Record:
        """A new game: build the agent, then reset it (one trip for the two)."""
        built = self.on_new(message)
        return built if built.get("op") != "ok" else self.on_reset(message)

    def on_end(self, message: Record) -> Record:
        """The game is over: the agent's stats, then its close() (one trip for the two)."""
        stats = self.on_stats(message)
        answer: Record = {"op": "ended", "game_id": self.game_id}
        if stats.get("op") == "failed":
            answer["stats_failed"] = stats
        else:
            answer["stats"] = stats.get("stats", {})
        closed = self.on_close(message)
        if closed.get("op") == "failed":
            answer["close_failed"] = closed
        return answer

    def on_reset(self, message: Record) -> Record:
        if self.agent is None:
            return self._no_agent("reset")
        try:
            self.agent.reset(message.get("seed"))
        except BaseException as e:
            return self.failed(e, "reset")
        return {"op": "ok", "game_id": self.game_id}

    def on_act(self, message: Record) -> Record:
        step = int(message.get("step", 0))
        record = self.delta.unpack(message.get("obs") or {},
                                   keep=step > 1 and message.get("whole") is not True)
        observation = self.decode(record) if self.decode is not None else record
        if self.agent is None:
            return self._no_agent("act")
        try:
            action = self.agent.act(observation)
        except BaseException as e:
            return self.failed(e, "act", step)
        answer: Record = {"op": "action", "game_id": self.game_id, "step": step,
                                  "action": None if action is None else to_jsonable(action)}
        if action is None:
            return answer
        try:
            why = why_record(self.agent.why)
        except BaseException as e:
            answer["why_failed"] = self.failed(e, "why", step)
            return answer
        if why is not None:
            why["text"] = str(why.get("text", ""))[:MAX_WHY_CHARS]
            answer["why"] = why
        return answer

    def on_stats(self, message: Record) -> Record:
        if self.agent is None:
            return self._no_agent("stats")
        try:
            stats = self.agent.stats()
        except BaseException as e:
            return self.failed(e, "stats")
        if not isinstance(stats, dict):
            return {"op": "failed", "game_id": self.game_id, "step": 0, "where": "stats",
                    "kind": "ValueError", "message": f"stats() returned "
                    f"{type(stats).__name__}, not a dict", "frames": ""}
        kept = {}
        for key, value in list(stats.items())[:MAX_STATS]:
            if isinstance(value, (bool, int, float)) or not isinstance(key, str):
                kept[key if isinstance(key, str) else repr(key)[:100]] = value
        return {"op": "stats", "game_id": self.game_id, "stats": kept}

    def on_close(self, message: Record) -> Record:
        agent, self.agent = self.agent, None
        if agent is not None:
            try:
                agent.close()
            except BaseException as e:
                return self.failed(e, "close")
        return {"op": "ok", "game_id": self.game_id}

    def _no_agent(self, where: str) -> Record:
        return {"op": "failed", "game_id": self.game_id, "step": 0, "where": where,
                "kind": "ProtocolError", "message": "no agent was built", "frames": ""}


def _game(name: str, entry_point: object) -> GameSpec:
    """The game's spec, from the entry point the referee named, else looked up as usual.

    No scan of every distribution's metadata: that is a fifth of a player's start.
    """
    if isinstance(entry_point, str) and ":" in entry_point:
        with contextlib.suppress(Exception):
            spec = metadata.EntryPoint(name, entry_point, ENTRY_POINT_GROUP).load()
            if isinstance(spec, GameSpec) and spec.name == name:
                return register(spec, origin="entry point", replace=True)
    return get_game(name)


def _declared(factory: Callable[..., Any]) -> tuple[Option, ...]:
    try:
        return declared_options(factory)
    except Exception:
        return ()


def _option_record(option: Any) -> Record:
    """An Option as data (its type by name; a parse function stays behind)."""
    kind = getattr(option.type, "__name__", "str")
    default = option.default if isinstance(option.default, (bool, int, float, str)) else None
    return {"name": str(option.name)[:100], "type": kind if kind in ("bool", "int", "float")
            else "str", "default": default, "help": str(option.help)[:500],
            "choices": [c for c in option.choices if isinstance(c, (bool, int, float, str))],
            "metavar": option.metavar, "required": bool(option.required)}


def main() -> None:
    """Serve the referee's orders on the private channel, then exit without atexit hooks."""
    channel = _private_channel()
    player = _Player(channel)
    with contextlib.suppress(WireError):  # the referee went away: nothing is left to play
        player.serve()
    sys.stdout.flush()
    os._exit(0)  # no atexit hook of the agent's runs after the last game


if __name__ == "__main__":
    main()
