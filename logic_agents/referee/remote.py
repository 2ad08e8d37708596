"""The referee's side of fair play: untrusted agents play in player processes of their own.

Concepts:
- describe(game, reference): what the referee knows of an agent, reported by a player as
  data: its name, help line and declared options. The referee never imports agent code.
- RemoteFactory / RemoteAgent: what an AgentEntry holds for an isolated agent; the runner
  calls a RemoteAgent as it calls any agent. Each answer must name the game and step it
  answers; the action is decoded by the game's own Actions codec; `why` and `stats` are
  checked data. Any breach is the agent's failure (errors.AgentFailed), never the referee's.
- The player processes themselves, the isolation settings and the sandbox are in
  referee.players and referee.containment; the frames in referee.wire.
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from logic_agents.errors import AgentFailed, FormatError, LogicAgentsError, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import DEFAULT_CAPS, Caps, Clock
from logic_agents.referee.containment import (
    OWNED,
    last_pid,
    own_this_process,  # noqa: F401
    share_core,
)
from logic_agents.referee.output import OutputBudget
from logic_agents.referee.players import (  # noqa: F401  (the names callers import from here)
    DEFAULT_IMPORT_TIMEOUT_S,
    DEFAULT_ISOLATION,
    DEFAULT_MAX_PROCESSES,
    PLAYERS,
    Isolation,
    PlayerProcess,
    stop_players,
)
from logic_agents.referee.wire import Delta, WireError
from logic_agents.world.core import Why
from logic_agents.world.registry import get_game
from logic_agents.world.seat import Elsewhere, Seated
from logic_agents.world.spec import Observations


# -- what the referee knows of an agent ------------------------------------------------------
def _locate(reference: str) -> tuple[str | None, list[str]]:
    """(the agent file, absolute) or (None, [the folder a module reference's package is in]).

    Found without running the module: find_spec of a top-level name imports nothing.
    """
    module_text, _, _ = reference.rpartition(":")
    if module_text.endswith(".py") or "/" in module_text or "\\" in module_text:
        path = Path(module_text)
        if not path.is_file():
            raise UsageError(f"--agent {reference}: no such file {module_text}")
        return str(path.resolve()), []

    top = module_text.split(".")[0]
    try:
        found = importlib.util.find_spec(top) if top.isidentifier() else None
    except (ImportError, ValueError):
        found = None
    if found is None or found.origin in (None, "built-in", "frozen"):
        return None, []
    origin = Path(found.origin).resolve()
    root = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    return None, [str(root)]


def describe(game: str, reference: str, isolation: Isolation, caps: Caps = DEFAULT_CAPS
             ) -> Record:
    """What a player reports of the agent `reference`: {name, help, options} (data only)."""
    # what a player reports depends on the agent's file and on what may stop its reading
    key = (game, reference, _stamp(reference), isolation.tool(), isolation.import_timeout,
           isolation.max_processes, caps.memory_cap)
    if key not in _DESCRIBED:
        file, paths = _locate(reference)
        player = PlayerProcess(game, reference, file, paths, caps, isolation, [])
        _DESCRIBED[key] = player.description
        with contextlib.suppress(WireError):
            player.channel.send({"op": "bye"})
        player.stop()
    return _DESCRIBED[key]


_DESCRIBED: dict[tuple[object, ...], Record] = {}


def _stamp(reference: str) -> tuple[int, ...]:
    module_text = reference.rpartition(":")[0]
    with contextlib.suppress(OSError):
        status = os.stat(module_text)
        return (status.st_size, status.st_mtime_ns)
    return ()


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
    _players: dict[int, PlayerProcess] = field(default_factory=dict, repr=False)
    output: OutputBudget | None = field(default=None, repr=False)  # what of its prints is shown

    def __post_init__(self) -> None:
        """Locate the reference's code: its file and the paths its module imports from."""
        self.file, self.paths = _locate(self.reference)
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

    def __getstate__(self) -> Record:  # crosses to a Ray worker without its players
        """Pickled without its players (they stay with the process that started them)."""
        return {**self.__dict__, "_players": {}}

    def player(self, caps: Caps) -> PlayerProcess:
        """A player process of this agent, started on first use and kept per worker."""
        held = self._players.get(os.getpid())
        if held is not None and held.alive():
            return held
        if held is not None:
            held.stop()
        share_core()
        player = PlayerProcess(self.game, self.reference, self.file, self.paths, caps,
                               self.isolation, list(self.hidden), self.output)
        self._players = {os.getpid(): player}  # a forked process never uses its parent's
        PLAYERS[id(player)] = player
        return player

    def make(self, options: Record, clock: Clock) -> RemoteAgent:
        """Build the agent in its player process; returns its remote handle."""
        label = clock.agent
        try:
            player = self.player(clock.caps)
        except UsageError as e:  # the module no longer reads (it changed since the start)
            raise AgentFailed(label, "__init__", "UsageError", str(e)) from None
        agent = RemoteAgent(self, player, clock, label)
        agent.start(options)
        return agent


class RemoteAgent(Seated):
    """An agent playing in a player process, called by the runner like any agent.

    Its calls keep their own deadline, asked of the Clock (`needs_alarm` is False).
    """

    needs_alarm = False

    def __init__(self, factory: RemoteFactory, player: PlayerProcess, clock: Clock, name: str):
        """The handle of an agent that plays in `player`."""
        self.factory, self.player, self.clock, self.name = factory, player, clock, name
        self.game_id = os.urandom(8).hex()  # as secrets.token_hex, without hashlib at start-up
        self.step = 0
        self.delta = Delta()
        self._why: Why | None = None
        self._why_failed: AgentFailed | None = None
        self._encode: Callable[[object], Record] = _unset
        self._decode_action: Callable[[object], object] = _unset
        self._options: Record = {}
        self._begun = False
        self._ended: Record | None = None  # close()'s answer, once stats() ran

    # -- the conversation --------------------------------------------------------------------
    def _ask(self, where: str, message: Record, expect: str, step: int = 0
             ) -> Record:
        deadline, is_game = self.clock.deadline(where)
        try:
            self.player.channel.send({**message, "game_id": self.game_id})
            answer = self.player.channel.receive(None if math.isinf(deadline) else deadline)
        except WireError as e:
            self.player.stop()
            if e.timeout:
                late = self.clock.timeout(where, step, is_game)
                late.message += "; its player process was killed"
                raise late from None
            if e.closed:
                raise AgentFailed(self.name, where, "ProcessDied", "the player process "
                                  f"ended ({self.player.exit_words()})", step=step) from None
            raise AgentFailed(self.name, where, "ProtocolError", str(e), step=step) from None
        except BaseException:  # the alarm (a cap) or Ctrl-C inside the wait: the player is
            self.player.stop()  # mid-call, and is not asked again
            raise
        op = answer.get("op")
        if answer.get("game_id") != self.game_id or (step and answer.get("step") != step):
            self.player.stop()
            raise AgentFailed(self.name, where, "ProtocolError", "the player answered for "
                              f"another game or step ({str(answer.get('game_id'))[:20]}, step "
                              f"{str(answer.get('step'))[:12]}) instead of step {step}",
                              step=step)
        if op == "failed":
            raise self._failure(answer, where, step)
        if op != expect:
            self.player.stop()
            raise AgentFailed(self.name, where, "ProtocolError",
                              f"the player answered {str(op)[:40]!r} where {expect!r} was due",
                              step=step)
        return answer

    def _failure(self, answer: Record, where: str, step: int) -> AgentFailed:
        said = str(answer.get("where", where))
        return AgentFailed(self.name, said if said in ("__init__", "reset", "act", "why",
                                                       "stats", "close") else where,
                           _text(answer.get("kind"), 80) or "Error",
                           _text(answer.get("message"), 2000), step=step,
                           frames=_text(answer.get("frames"), 8000))

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
            self._ask("reset", {"op": "reset", "seed": seed}, "ok")
            return
        self._begun = True
        self.player.last_pid = last_pid()
        self._ask("reset", {"op": "begin", "options": self._options, "seed": seed}, "ok")

    def act(self, observation: object) -> object:
        """The agent's action for `observation`, sent as data and checked when it comes back."""
        self.step += 1
        step = self.step
        record, whole = self.delta.pack(self._encode(observation))
        answer = self._ask("act", {"op": "act", "step": step, "obs": record, "whole": whole},
                           "action", step)
        self._why, self._why_failed = None, None
        if "why_failed" in answer:
            failed = answer["why_failed"]
            self._why_failed = self._failure(failed if isinstance(failed, dict) else {},
                                             "why", step)
        elif isinstance(answer.get("why"), dict):
            try:
                self._why = _why(answer["why"])
            except (TypeError, ValueError, KeyError, IndexError, OverflowError):
                self._why_failed = AgentFailed(self.name, "why", "ValueError",
                                               "its why is not a reason's data", step=step)
        action = answer.get("action")
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
        answer = self._ask("stats", {"op": "end"}, "ended")
        self._ended = answer.get("close_failed") or {}
        failed = answer.get("stats_failed")
        if isinstance(failed, dict):
            raise self._failure(failed, "stats", 0)
        stats = answer.get("stats")
        if not isinstance(stats, dict):
            raise AgentFailed(self.name, "stats", "ValueError", "stats() is not a dict")
        return stats

    def close(self) -> None:
        """End the game: the agent closes, and every process it started is stopped."""
        if not self.player.alive():
            return
        try:
            if self._ended is not None:  # closed with stats()
                if isinstance(self._ended, dict) and self._ended:
                    raise self._failure(self._ended, "close", 0)
            elif self._begun:
                self._ask("close", {"op": "close"}, "ok")
        finally:
            # a worker keeps its player for the agent's next game; anywhere else (a game
            # played from the Python API, in the caller's own process) it goes with its game
            if self.factory.isolation.player_per_game or OWNED["pid"] != os.getpid():
                self.player.stop()
            elif self.player.alive():
                self.player.sweep()


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
    return Why(text, [(int(r), int(c)) for r, c in cells], checked_odds,
                record.get("guess") is True, record.get("path") is True)
