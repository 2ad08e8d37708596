"""The player: one game of one untrusted agent, fed observations as data by its referee.

It runs in a child the player server (referee.server) forked for this game alone, so the
agent starts from the server's state: the framework and the game read, no agent code, an
empty private /tmp. The agent's module is read here, and nowhere else: never in the referee,
never in the server. The conversation is referee.protocol's, on the game's own socket; after
`end` (or `close`) the child exits, and with it everything the agent kept.

Concepts:
- GamePlayer.serve(): answer the referee's orders (protocol messages, `match`ed) until the
  game ends or the socket closes. Each answer names the game and the step it answers;
  nothing here decides an outcome.
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
        self.reference = serve.reference
        self.name = self.reference
        self.memory_cap = serve.memory_cap
        self.here = serve.here  # the referee's working folder, for the frames' names
        self.factory: Callable[..., Any] | None = None
        self.loaded: protocol.Loaded | protocol.Refused | None = None
        self.agent: Seat | None = None
        self.game_id = ""
        self.delta = Delta()
        self.over = False  # the game ended: the child exits after its answer

    # -- the conversation ------------------------------------------------------------------
    def serve(self) -> None:
        """Answer orders until the game is over or the referee closes the socket.

        What is not an order of a game is the referee's breach: this child exits.
        """
        while not self.over:
            try:
                message = self.channel.receive(protocol.GAME_ORDERS)
            except WireError:
                return
            self.send(self.answer(message))

    def answer(self, message: protocol.Message) -> protocol.Message:
        """The answer to one order; what this child cannot follow is said as data."""
        try:
            match message:
                case protocol.Load():
                    return self.load()
                case protocol.Begin(game_id=game_id, options=options, seed=seed):
                    return self.on_begin(game_id, options, seed)
                case protocol.Reset(seed=seed):
                    return self.on_reset(seed)
                case protocol.Act(step=step, obs=obs, whole=whole):
                    return self.on_act(step, obs, whole)
                case protocol.End():
                    return self.on_end()
                case protocol.Close():
                    return self.on_close()
        except Exception as e:  # a game's codec that fails on its own record, say
            return protocol.failed(self.game_id, getattr(message, "step", 0), "world",
                                   "ProtocolError", f"the player could not follow "
                                   f"{message.op!r}: {type(e).__name__}: {str(e)[:200]}")
        return protocol.failed(self.game_id, 0, "world", "ProtocolError",  # pragma: no cover
                               f"no handler for {message.op!r}")

    def send(self, answer: protocol.Message) -> None:
        """Send `answer`; one the agent filled with what is not data is its failure."""
        try:
            self.channel.send(answer)
        except WireError as e:
            if not e.not_data:
                raise
            match answer:
                case protocol.Failed(where=where):
                    pass
                case protocol.Ended():
                    where = "stats"
                case _:
                    where = "act"
            self.channel.send(protocol.failed(
                self.game_id, getattr(answer, "step", 0), where,
                "IllegalAction" if where == "act" else "ValueError",
                f"{where} gave what does not cross as data: {e}"))

    def failed(self, error: BaseException, where: str, step: int = 0) -> protocol.Failed:
        """The Failed answer of an error the agent's own call raised."""
        clock = Clock(Caps(None, None, self.memory_cap), own_interrupts=True)
        clock.agent, clock.here = self.name, self.here
        failure = clock.failure(error, where, step)
        return protocol.failed(self.game_id, step, where, failure.kind, failure.message,
                               failure.frames)

    # -- the orders --------------------------------------------------------------------------
    def load(self) -> protocol.Loaded | protocol.Refused:
        """Read the agent's module (once): its name, help and options, or why it cannot."""
        if self.loaded is not None:
            return self.loaded
        reference, file = self.reference, self.serve_order.file
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
        self.loaded = protocol.Loaded(self.name, summary_of(factory, reference)[:500],
                                      [_option_record(o) for o in _declared(factory)],
                                      sorted(set(sys.modules) - before)[:MAX_WARM])
        return self.loaded

    def on_begin(self, game_id: str, options: Record, seed: int | None) -> protocol.Message:
        """A new game: read the module, build the agent, then reset it (one trip)."""
        self.game_id = game_id
        self.delta.forget()
        loaded = self.load()
        if isinstance(loaded, protocol.Refused) or self.factory is None:
            words = loaded.message if isinstance(loaded, protocol.Refused) else "no agent"
            kind = loaded.kind if isinstance(loaded, protocol.Refused) else "UsageError"
            return protocol.failed(self.game_id, 0, "__init__", kind or "UsageError", words)
        try:
            agent = functools.partial(self.factory, **options)()
        except BaseException as e:
            return self.failed(e, "__init__")
        missing = missing_members(agent)
        if missing:
            return protocol.failed(
                self.game_id, 0, "__init__", "TypeError",
                f"it made a {type(agent).__name__}, which has no "
                f"{' or '.join(m + '()' for m in missing)}; an agent needs reset(seed=None) "
                "and act(observation)")
        self.agent = Seat(agent)
        return self.on_reset(seed)

    def on_reset(self, seed: int | None) -> protocol.Message:
        """Reset the agent with the referee's seed for it."""
        if self.agent is None:
            return self._no_agent("reset")
        try:
            self.agent.reset(seed)
        except BaseException as e:
            return self.failed(e, "reset")
        return protocol.Ok(self.game_id)

    def on_act(self, step: int, obs: Record, whole: bool) -> protocol.Message:
        """The agent's move for the observation the changed fields make."""
        if self.agent is None:  # an act out of turn: said before its record is read
            return self._no_agent("act")
        record = self.delta.unpack(obs, keep=step > 1 and not whole)
        observation = self.decode(record) if self.decode is not None else record
        try:
            action = self.agent.act(observation)
        except BaseException as e:
            return self.failed(e, "act", step)
        if action is None:
            return protocol.Action(self.game_id, step, None)
        encoded = to_jsonable(action)
        try:
            why = why_record(self.agent.why)
        except BaseException as e:
            return protocol.Action(self.game_id, step, encoded,
                                   why_failed=self.failed(e, "why", step))
        if why is not None:
            why["text"] = str(why.get("text", ""))[:MAX_WHY_CHARS]
        return protocol.Action(self.game_id, step, encoded, why)

    def on_end(self) -> protocol.Ended:
        """The game is over: the agent's stats, then its close(); then this child exits."""
        stats = self._stats()
        closed = self.on_close()
        return protocol.Ended(
            self.game_id, stats=stats if not isinstance(stats, protocol.Failed) else None,
            stats_failed=stats if isinstance(stats, protocol.Failed) else None,
            close_failed=closed if isinstance(closed, protocol.Failed) else None)

    def on_close(self) -> protocol.Message:
        """The game is abandoned (or over): the agent closes; then this child exits."""
        self.over = True
        agent, self.agent = self.agent, None
        if agent is not None:
            try:
                agent.close()
            except BaseException as e:
                return self.failed(e, "close")
        return protocol.Ok(self.game_id)

    def _stats(self) -> Record | protocol.Failed:
        if self.agent is None:
            return self._no_agent("stats")
        try:
            stats = self.agent.stats()
        except BaseException as e:
            return self.failed(e, "stats")
        if not isinstance(stats, dict):
            return protocol.failed(self.game_id, 0, "stats", "ValueError",
                                   f"stats() returned {type(stats).__name__}, not a dict")
        kept = {}
        for key, value in list(stats.items())[:MAX_STATS]:
            if isinstance(value, (bool, int, float)) or not isinstance(key, str):
                kept[key if isinstance(key, str) else repr(key)[:100]] = value
        return kept

    def _no_agent(self, where: str) -> protocol.Failed:
        return protocol.failed(self.game_id, 0, where, "ProtocolError", "no agent was built")


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
