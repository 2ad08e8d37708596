"""The referee's side of fair play: untrusted agents play in player processes of their own.

Concepts:
- describe (referee.describe): what the referee knows of an agent, reported by a player as
  data. The referee never imports agent code.
- RemoteFactory / RemoteAgent: what an AgentEntry holds for an isolated agent; the runner
  calls a RemoteAgent as it calls any agent. Each game is a fresh child of the agent's player
  server (referee.server), on a socket of its own. Each answer must name the game and step it
  answers; the action is decoded by the game's own Actions codec; `why` and `stats` are
  checked data. Any breach is the agent's failure (errors.AgentFailed), never the referee's.
- Servers per worker: at most SERVERS_PER_WORKER live at once (the least recently used is
  stopped), so a class of a hundred agents does not hold a hundred interpreters a worker.
- The servers themselves, the isolation settings and the sandbox are in referee.players and
  referee.containment; the frames in referee.wire, the messages in referee.protocol.
"""

from __future__ import annotations

import contextlib
import math
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn, TypeVar

from logic_agents.errors import AgentFailed, FormatError, LogicAgentsError, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.referee import protocol
from logic_agents.referee.clock import Caps, Clock
from logic_agents.referee.containment import (
    own_this_process,  # noqa: F401
    share_core,
)
from logic_agents.referee.describe import locate
from logic_agents.referee.dump import dumped_frames, own_folders
from logic_agents.referee.isolation import (
    Isolation,
)
from logic_agents.referee.output import OutputBudget
from logic_agents.referee.owner import owner
from logic_agents.referee.players import PlayerServer, Unclean
from logic_agents.referee.wire import Channel, Delta, WireError
from logic_agents.world.calls import Calls
from logic_agents.world.core import Why
from logic_agents.world.registry import get_game
from logic_agents.world.seat import Elsewhere, Seated
from logic_agents.world.spec import Observations


@dataclass
class RemoteFactory(Elsewhere):
    """An isolated agent's factory.

    `make(options, clock)` starts (or reuses) this process's player for it and has the
    player build a fresh agent.
    """

    game: str
    reference: str
    isolation: Isolation
    name: str = ""
    hidden: tuple[str, ...] = ()
    file: str | None = None
    paths: list[str] = field(default_factory=list)
    output: OutputBudget | None = field(default=None, repr=False)  # what of its prints is shown
    warm: tuple[str, ...] = ()  # library modules its module read when it was described

    def __post_init__(self) -> None:
        """Locate the reference's code: its file and the paths its module imports from."""
        self.file, self.paths = locate(self.reference)
        if self.output is None:
            self.output = OutputBudget(self.name or self.reference, None,
                                       self.isolation.output_dir)

    def __call__(self, **options: object) -> RemoteAgent:
        """An agent in a player process, built with `options`."""
        return self.make(options, Clock())

    def source_file(self) -> str | None:
        """The file of the agent's module, found without running it (for the study record)."""
        if self.file:
            return self.file
        module = self.reference.rpartition(":")[0].split(".")
        for root in self.paths:
            for candidate in (Path(root, *module).with_suffix(".py"),
                              Path(root, *module, "__init__.py")):
                if candidate.is_file():
                    return str(candidate)
        return None

    def server(self, caps: Caps) -> PlayerServer:
        """This worker's player server of this agent, started on first use and kept."""
        key = (self.game, self.reference, self.file, self.isolation, self.hidden,
               caps.memory_cap)
        servers = owner().servers
        held = servers.pop(key, None)
        if isinstance(held, PlayerServer) and held.alive() and held.owner == os.getpid():
            servers[key] = held  # the most recently used, last
            return held
        if held is not None and held.owner == os.getpid():
            held.stop()
        while len(servers) >= SERVERS_PER_WORKER:  # a class of many agents: one at a time
            _, old = servers.popitem(last=False)
            if old.owner == os.getpid():
                old.stop()
        share_core()
        server = PlayerServer(self.game, self.reference, self.file, self.paths, caps,
                              self.isolation, list(self.hidden), self.output, self.warm)
        server.owner = os.getpid()  # a forked process never uses its parent's
        servers[key] = server
        return server

    def make(self, options: dict[str, object], calls: Calls) -> RemoteAgent:
        """Build the agent in a fresh child of its player server; its remote handle."""
        clock = calls if isinstance(calls, Clock) else Clock()
        label = clock.agent = calls.agent
        try:
            server = self.server(clock.caps)
            try:
                game = server.fork()
            except Unclean:  # what the last game left: this game starts on a fresh server
                server = self.server(clock.caps)
                game = server.fork()
        except UsageError as e:  # the server could not start, or start the game
            raise AgentFailed(label, "__init__", "ProcessDied" if "ended" in str(e) else
                              "UsageError", str(e)) from None
        agent = RemoteAgent(self, server, game, clock, label)
        agent.start(options)
        return agent


A = TypeVar("A", bound=protocol.Message)
SERVERS_PER_WORKER = 2  # live player servers a worker keeps (the least recently used goes)


class RemoteAgent(Seated):
    """An agent playing one game in a fresh child of its player server.

    The runner calls it like any agent. Its calls keep their own deadline, asked of the
    Clock (`needs_alarm` is False).
    """

    needs_alarm = False

    def __init__(self, factory: RemoteFactory, server: PlayerServer, game: socket.socket,
                 clock: Clock, name: str):
        """The handle of an agent that plays its game on the socket `game`."""
        self.factory, self.server, self.clock, self.name = factory, server, clock, name
        self.game: socket.socket | None = game
        self.channel = Channel(game.fileno(), game.fileno())
        self.game_id = os.urandom(8).hex()  # as secrets.token_hex, without hashlib at start-up
        self.step = 0
        self.delta = Delta()
        self._why: Why | None = None
        self._why_failed: AgentFailed | None = None
        self._encode: Callable[[object], Record] = _unset
        self._decode_action: Callable[[object], object] = _unset
        self._options: Record = {}
        self._begun = False
        self._ended: protocol.Ended | None = None  # the end's answer, once stats() ran

    # -- the conversation --------------------------------------------------------------------
    def _ask(self, where: str, order: protocol.Message, expect: tuple[type[A], ...],
             step: int = 0) -> A:
        """Send `order` and judge the trip (protocol.Verdict).

        The answer due, or the agent's failure in words (the player lost where it is
        mid-call or in breach).
        """
        deadline, is_game = self.clock.deadline(where)
        try:
            self.channel.send(order)
        except WireError as e:
            if e.not_data:  # nothing was sent: what we had to send is not data. Only an
                # observation carries what is not ours, so it is the game's codec that gave it
                raise AgentFailed(self.name, "world", "CodecError", "the game's Observations "
                                  "codec gave what the wire cannot carry (JSON data only): "
                                  f"{e}", step=step) from None
            verdict, answer, words = self._judged(e, None, step)
        else:
            try:
                answer = self.channel.receive((*expect, protocol.Failed),
                                              None if math.isinf(deadline) else deadline)
            except WireError as e:
                verdict, answer, words = self._judged(e, None, step)
            except BaseException:  # the alarm (a cap) or Ctrl-C inside the wait: the player
                self._lose()  # is mid-call, and is not asked again
                raise
            else:
                verdict, answer, words = self._judged(None, answer, step)
        match verdict:
            case protocol.Verdict.ANSWERED:
                return answer  # type: ignore[return-value]
            case protocol.Verdict.FAILED:
                raise self._failure(answer, where, step)  # type: ignore[arg-type]
            case protocol.Verdict.DIED:  # the game's child ended: its server says how
                how = self.server.ended()
                self._end_game()
                self.server.sweep()  # what the game left, killed now
                raise AgentFailed(self.name, where, "ProcessDied", "the player process "
                                  f"ended ({how or 'it exited'})", step=step)
            case protocol.Verdict.TIMEOUT:
                frames = self._where_now()  # asked before the kill
                self._lose()
                late = self.clock.timeout(where, step, is_game)
                raise AgentFailed(late.agent, late.where, late.kind, late.message + "; its "
                                  "player process was killed", step=step, frames=frames,
                                  timeout=True)
            case protocol.Verdict.BREACH:
                self._lose()
                raise AgentFailed(self.name, where, "ProtocolError", words, step=step)
        raise AssertionError(verdict)  # pragma: no cover - every verdict is matched above

    def _judged(self, error: WireError | None, answer: protocol.Message | None, step: int
                ) -> tuple[protocol.Verdict, protocol.Message | None, str]:
        """The verdict on one trip: what the wire said, or the answer it brought."""
        if error is not None:
            if error.closed:
                return protocol.Verdict.DIED, None, str(error)
            if error.timeout:
                return protocol.Verdict.TIMEOUT, None, str(error)
            return protocol.Verdict.BREACH, None, str(error)
        game_id = getattr(answer, "game_id", None)
        said_step = getattr(answer, "step", step)
        if game_id != self.game_id or (step and said_step != step):
            return protocol.Verdict.BREACH, answer, (
                f"the player answered for another game or step ({str(game_id)[:20]}, step "
                f"{str(said_step)[:12]}) instead of step {step}")
        if isinstance(answer, protocol.Failed):
            return protocol.Verdict.FAILED, answer, answer.message
        return protocol.Verdict.ANSWERED, answer, ""

    def _where_now(self) -> str:
        """The agent's own frames where its game stands now (referee.dump)."""
        source = self.factory.source_file()
        return dumped_frames(self.server.where_now(),
                             own_folders(self.factory.file, self.factory.paths),
                             [source] if source else [])

    def _failure(self, answer: protocol.Failed, where: str, step: int) -> AgentFailed:
        said = answer.where
        return AgentFailed(self.name, said if said in ("__init__", "reset", "act", "why",
                                                       "stats", "close") else where,
                           answer.kind[:80] or "Error", answer.message[:2000], step=step,
                           frames=answer.frames[-8000:])

    def start(self, options: Record) -> None:
        """Build the agent with `options` at the next `begin`."""
        spec = get_game(self.factory.game)
        observations = spec.get(Observations)
        if observations is None:
            raise AgentFailed(self.name, "__init__", "UsageError", f"{spec.name} declares "
                              "no Observations codec, so its agents cannot play isolated")
        self._encode = observations.encode
        self._decode_action = spec.actions.from_json
        self._options = options  # the player builds the agent at the first reset: one trip

    def reset(self, seed: int | None = None) -> None:
        """Start a game: the agent is built (once per game) and reset with `seed`."""
        self.step = 0
        self.delta.forget()
        if self._begun:
            self._ask("reset", protocol.Reset(self.game_id, seed), (protocol.Ok,))
            return
        self._begun = True
        self._ask("reset", protocol.Begin(self.game_id, self._options, seed), (protocol.Ok,))

    def act(self, observation: object) -> object:
        """The agent's action for `observation`, sent as data and checked when it comes back."""
        self.step += 1
        step = self.step
        try:
            encoded = self._encode(observation)
        except Exception as e:  # the game's Observations codec: the game's fault, not the agent's
            raise AgentFailed(self.name, "world", "CodecError", f"the game's Observations "
                              f"codec failed on its own observation: {type(e).__name__}: "
                              f"{str(e)[:200]}", step=step) from None
        record, whole = self.delta.pack(encoded)
        answer = self._ask("act", protocol.Act(self.game_id, step, record, whole),
                           (protocol.Action,), step)
        self._why, self._why_failed = None, None
        if answer.why_failed is not None:
            self._why_failed = self._failure(answer.why_failed, "why", step)
        elif answer.why is not None:
            try:
                self._why = _why(answer.why)
            except (TypeError, ValueError, KeyError, IndexError, OverflowError):
                self._why_failed = AgentFailed(self.name, "why", "ValueError",
                                               "its why is not a reason's data", step=step)
        action = answer.action
        if action is None:
            return None
        try:
            return self._decode_action(action)
        except LogicAgentsError as e:
            raise AgentFailed(self.name, "act", "IllegalAction",
                              (e.message if isinstance(e, FormatError) else str(e))[:300],
                              step=step) from None
        except Exception as e:  # a plug-in's codec that raises on odd data
            raise AgentFailed(self.name, "act", "IllegalAction", f"not an action: "
                              f"{type(e).__name__}: {str(e)[:200]}", step=step) from None

    @property
    def why(self) -> Why | None:
        """The agent's why for its last move (checked data), or None."""
        if self._why_failed is not None:
            failure, self._why_failed = self._why_failed, None
            raise failure
        return self._why

    def stats(self) -> Record:
        """The agent's stats; its close() runs in the same trip (the runner's next call)."""
        answer = self._ask("stats", protocol.End(self.game_id), (protocol.Ended,))
        self._ended = answer
        if answer.stats_failed is not None:
            raise self._failure(answer.stats_failed, "stats", 0)
        if answer.stats is None:
            raise AgentFailed(self.name, "stats", "ValueError", "stats() is not a dict")
        return answer.stats

    def close(self) -> None:
        """End the game: the agent closes, its child exits, the server sweeps what it left."""
        if self.game is None:
            return
        try:
            if self._ended is not None:  # closed with stats()
                if self._ended.close_failed is not None:
                    raise self._failure(self._ended.close_failed, "close", 0)
            elif self._begun:
                self._ask("close", protocol.Close(self.game_id), (protocol.Ok,))
        finally:
            self._end_game()
            # a worker keeps the server for the agent's next game (a fresh child each);
            # anywhere else (a game played from the Python API, in the caller's own process)
            # it goes with its game, as it does with --player-per-game
            if self.factory.isolation.player_per_game or not owner().referee:
                self.server.stop()
            elif self.server.alive():
                self.server.sweep()

    def _end_game(self) -> None:
        """Close this game's socket (its child exits at the end of it)."""
        if self.game is not None:
            with contextlib.suppress(OSError):
                self.game.close()
            self.game = None

    def _lose(self) -> None:
        """The game's child is mid-call or breached the protocol: its server goes, and it."""
        self._end_game()
        self.server.stop()


def _unset(value: object) -> NoReturn:
    raise AssertionError("start() sets the codecs before the first move")


def _text(value: object, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _why(record: Record) -> Why:
    """A Why from a player's record, bounded: words, cells and odds that are numbers."""
    text = _text(record.get("text"), 20_000)
    cells = record.get("cells") or []
    odds = record.get("odds") or []
    if not isinstance(cells, list) or not isinstance(odds, list) or len(cells) + len(odds) > 100_000:
        raise ValueError("cells and odds are lists")
    checked_odds = {}
    for r, c, p in odds:
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise ValueError("odds are numbers")
        checked_odds[(int(r), int(c))] = float(p)
    # `certified` is never read: a player's word that its proofs checked is no certificate
    # (the checker must run in the referee's process, not the agent's)
    return Why(text, [(int(r), int(c)) for r, c in cells], checked_odds,
               record.get("guess") is True, record.get("path") is True,
               record.get("proved") is True)
