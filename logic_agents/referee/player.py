"""The player: one game of one untrusted agent, fed observations as data by its referee.

It runs in a child the player server (referee.server) forked for this game alone, so the
agent starts from the server's state: the framework and the game read, no agent code, an
empty private /tmp. The agent's module is read here, and nowhere else: never in the referee,
never in the server. The conversation is referee.protocol's, on the game's own socket; after
`end` (or `close`) the child exits, and with it everything the agent kept.

Concepts:
- GamePlayer.serve(): answer the referee's orders until the game ends or the socket closes.
  Each answer names the game and the step it answers; nothing here decides an outcome.
- What the agent gives back crosses as data only: an action as JSON, a bounded `why`, stats
  that are numbers. What does not cross is the agent's failure, said as data.
- The caps (memory, processes) were set before the server's interpreter started; the time
  caps are the referee's to keep: it stops waiting and stops the server.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable
from typing import Any

from logic_agents.errors import LogicAgentsError
from logic_agents.ground.shapes import Record
from logic_agents.referee import protocol
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.wire import Channel, Delta, WireError
from logic_agents.world.agents import check_factory, load_class
from logic_agents.world.core import own_name, why_record
from logic_agents.world.declared import Option, declared_options
from logic_agents.world.seat import Seat, missing_members
from logic_agents.world.spec import GameSpec, Observations, summary_of
from logic_agents.world.trace import to_jsonable

MAX_WHY_CHARS = 20_000  # longer reasons are cut (the referee checks again)
MAX_STATS = 200  # counters a game's stats may carry
MAX_WARM = 2000  # modules a load may name for its server to read first (referee.server)


class GamePlayer:
    """The agent of one game, its module read on the first order that needs it."""

    def __init__(self, channel: Channel, serve: protocol.Serve, spec: GameSpec):
        """A player of `spec`'s game on `channel`, for the agent `serve` names."""
        self.channel, self.serve_order, self.spec = channel, serve, spec
        observations = spec.get(Observations)
        self.decode: Callable[[Record], Any] | None = (
            observations.decode if observations is not None else None)
        self.reference = serve["reference"]
        self.name = self.reference
        self.memory_cap = serve["memory_cap"]
        self.here = serve["here"]  # the referee's working folder, for the frames' names
        self.factory: Callable[..., Any] | None = None
        self.loaded: protocol.Loaded | protocol.Refused | None = None
        self.agent: Seat | None = None
        self.game_id = ""
        self.delta = Delta()
        self.over = False  # the game ended: the child exits after its answer

    # -- the conversation ------------------------------------------------------------------
    def serve(self) -> None:
        """Answer orders until the game is over or the referee closes the socket."""
        while not self.over:
            try:
                message = self.channel.receive()
            except WireError:
                return
            self.send(self.answer(message))

    def answer(self, message: Record) -> Record:
        """The answer to one order; what this child cannot follow is said as data."""
        op = str(message.get("op"))
        handler = self.orders.get(op)
        if handler is None:
            return dict(protocol.failed(self.game_id, 0, "world", "ProtocolError",
                                        f"unknown order {op[:20]!r}"))
        try:
            return handler(message)
        except Exception as e:  # a game's codec that fails on its own record, say
            return dict(protocol.failed(self.game_id, _int(message.get("step")), "world",
                                        "ProtocolError", f"the player could not follow "
                                        f"{op[:20]!r}: {type(e).__name__}: {str(e)[:200]}"))

    @property
    def orders(self) -> dict[str, Callable[[Record], Record]]:
        """What the referee may ask of a game, by its `op`."""
        return {"load": self.on_load, "begin": self.on_begin, "reset": self.on_reset,
                "act": self.on_act, "end": self.on_end, "close": self.on_close}

    def send(self, answer: Record) -> None:
        """Send `answer`; one the agent filled with what is not data is its failure."""
        try:
            self.channel.send(answer)
        except (TypeError, ValueError) as e:
            where = str(answer.get("where", "act")) if answer.get("op") == "failed" else \
                {"action": "act", "ended": "stats"}.get(str(answer.get("op", "")), "act")
            self.channel.send(dict(protocol.failed(
                self.game_id, _int(answer.get("step")), where,
                "IllegalAction" if where == "act" else "ValueError",
                f"{where} gave what does not cross as data: {type(e).__name__}: "
                f"{str(e)[:200]}")))

    def failed(self, error: BaseException, where: str, step: int = 0) -> Record:
        """The `failed` answer of an error the agent's own call raised."""
        clock = Clock(Caps(None, None, self.memory_cap), own_interrupts=True)
        clock.agent, clock.here = self.name, self.here
        failure = clock.failure(error, where, step)
        return dict(protocol.failed(self.game_id, step, where, failure.kind, failure.message,
                                    failure.frames))

    # -- the orders --------------------------------------------------------------------------
    def load(self) -> protocol.Loaded | protocol.Refused:
        """Read the agent's module (once): its name, help and options, or why it cannot."""
        if self.loaded is not None:
            return self.loaded
        reference, file = self.reference, self.serve_order["file"]
        before = set(sys.modules)
        try:
            if reference in self.spec.agents:  # a registered agent, isolated all the same
                factory = self.spec.agents[reference].factory
            else:
                attr = reference.rpartition(":")[2]
                factory = load_class(f"{file}:{attr}" if file is not None else reference)
                check_factory(factory, reference)
        except LogicAgentsError as e:
            words = str(e)
            if file is not None:  # said as the user named it, not as resolved here
                words = words.replace(f"{file}:{reference.rpartition(':')[2]}", reference)
                words = words.replace(file, reference.rpartition(":")[0])
            self.loaded = protocol.refused(words, str(getattr(e, "kind", "UsageError")))
            return self.loaded
        except BaseException as e:  # the module's own code, as it was read
            self.loaded = protocol.refused(f"--agent {reference}: reading it raised "
                                           f"{type(e).__name__}: {str(e)[:200]}",
                                           type(e).__name__)
            return self.loaded
        self.factory = factory
        named = own_name(factory)
        if named and reference not in self.spec.agents:
            self.name = named
        self.loaded = {"op": "loaded", "name": self.name,
                       "help": summary_of(factory, reference)[:500],
                       "options": [_option_record(o) for o in _declared(factory)],
                       "warm": sorted(set(sys.modules) - before)[:MAX_WARM]}
        return self.loaded

    def on_load(self, message: Record) -> Record:
        """The agent's name, help and options (referee.remote.describe asks)."""
        return dict(self.load())

    def on_begin(self, message: Record) -> Record:
        """A new game: read the module, build the agent, then reset it (one trip)."""
        self.game_id = str(message.get("game_id", ""))
        self.delta.forget()
        loaded = self.load()
        if loaded["op"] == "refused" or self.factory is None:
            return dict(protocol.failed(self.game_id, 0, "__init__",
                                        str(loaded.get("kind", "UsageError")),
                                        str(loaded.get("message", "no agent was read"))))
        options = message.get("options") or {}
        try:
            agent = functools.partial(self.factory, **options)()
        except BaseException as e:
            return self.failed(e, "__init__")
        missing = missing_members(agent)
        if missing:
            return dict(protocol.failed(
                self.game_id, 0, "__init__", "TypeError",
                f"it made a {type(agent).__name__}, which has no "
                f"{' or '.join(m + '()' for m in missing)}; an agent needs reset(seed=None) "
                "and act(observation)"))
        self.agent = Seat(agent)
        return self.on_reset(message)

    def on_reset(self, message: Record) -> Record:
        """Reset the agent with the referee's seed for it."""
        if self.agent is None:
            return self._no_agent("reset")
        try:
            self.agent.reset(message.get("seed"))
        except BaseException as e:
            return self.failed(e, "reset")
        return dict(protocol.ok(self.game_id))

    def on_act(self, message: Record) -> Record:
        """The agent's move for the observation the changed fields make."""
        step = _int(message.get("step"))
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

    def on_end(self, message: Record) -> Record:
        """The game is over: the agent's stats, then its close(); then this child exits."""
        answer: Record = {"op": "ended", "game_id": self.game_id}
        stats = self._stats()
        answer["stats_failed" if stats.get("op") == "failed" else "stats"] = (
            stats if stats.get("op") == "failed" else stats["stats"])
        closed = self.on_close(message)
        if closed.get("op") == "failed":
            answer["close_failed"] = closed
        return answer

    def on_close(self, message: Record) -> Record:
        """The game is abandoned (or over): the agent closes; then this child exits."""
        self.over = True
        agent, self.agent = self.agent, None
        if agent is not None:
            try:
                agent.close()
            except BaseException as e:
                return self.failed(e, "close")
        return dict(protocol.ok(self.game_id))

    def _stats(self) -> Record:
        if self.agent is None:
            return self._no_agent("stats")
        try:
            stats = self.agent.stats()
        except BaseException as e:
            return self.failed(e, "stats")
        if not isinstance(stats, dict):
            return dict(protocol.failed(self.game_id, 0, "stats", "ValueError",
                                        f"stats() returned {type(stats).__name__}, not a dict"))
        kept = {}
        for key, value in list(stats.items())[:MAX_STATS]:
            if isinstance(value, (bool, int, float)) or not isinstance(key, str):
                kept[key if isinstance(key, str) else repr(key)[:100]] = value
        return {"op": "stats", "stats": kept}

    def _no_agent(self, where: str) -> Record:
        return dict(protocol.failed(self.game_id, 0, where, "ProtocolError",
                                    "no agent was built"))


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


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


def play_one_game(channel: Channel, serve: protocol.Serve, spec: GameSpec) -> None:
    """Play the game on `channel` to its end (a forked child's whole life)."""
    with contextlib.suppress(WireError):  # the referee went away: nothing is left to play
        GamePlayer(channel, serve, spec).serve()
