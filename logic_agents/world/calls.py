"""The guard every call into an agent and its world goes through, as the step loop sees it.

Concepts:
- Calls: the guard run_episode and build_agent call through. `call(where, fn, ...)` runs one
  of the agent's calls (__init__, reset, act, why, stats, close): an exception of the agent's
  or `sys.exit` comes out as errors.AgentFailed with the agent's own frames; `world(fn, ...)`
  runs the world's code, whose failures are the world's. Calls itself keeps no time: the
  referee's Clock (referee.clock) derives from it and adds the caps, the alarm and the watch a
  supervisor reads; `alarm=False` says a call keeps its own deadline (an agent in a player
  process).
- Watching: what a guard reports to a supervisor (referee.clock.Watch): the deadline of the
  call in progress, its step and where.
- PassThrough: raised by a hook the framework handed the agent (cnf's on_query); no failure.
- agent_frames: the frames of a traceback that lie in the agent's files: outside logic_agents,
  the standard library and the installed packages (those of an installed agent kept), never
  an absolute path under the working folder; a SignatureError's, the member's definition.
- world_failure: the failure a row records for a game that raised outside its agent's calls.
"""

from __future__ import annotations

import math
import os
import sys
import sysconfig
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar, TypeVarTuple, Unpack

from logic_agents.errors import AgentFailed, LogicAgentsError, SignatureError

R = TypeVar("R")
Ts = TypeVarTuple("Ts")

PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)
# the standard library and the installed packages: a frame there is not the agent's own line
_LIBRARIES = tuple(dict.fromkeys(
    str(Path(p).resolve()) + os.sep for p in (
        *(sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")),
        sys.base_prefix + os.sep + "lib") if p)) + ("<frozen ",)


class Watching(Protocol):
    """What a guard tells a supervisor about the call in progress."""

    def set(self, deadline: float, step: int, where: str) -> None:
        """The call `where` at `step` must end by `deadline` (0: no deadline)."""

    def clear(self) -> None:
        """Nothing is running."""


def agent_frames(error: BaseException, here: str | None = None) -> str:
    """The traceback of `error` as Python prints it, with the agent's frames only.

    It keeps the frames outside logic_agents, the standard library and the installed packages
    (the agent's own files: a student is shown the line of theirs that called into them), or
    those outside logic_agents when that is all there is (an agent installed as a package);
    none when every frame is the framework's. A SignatureError's one frame is the member's
    definition. Files under `here` (default: the working folder) are named relative to it.
    """
    if isinstance(error, SignatureError) and error.defined_at is not None:
        file, line, name = error.defined_at
        frames = traceback.StackSummary.from_list([(file, line, name, None)])
    else:
        frames = traceback.extract_tb(error.__traceback__)
    outside = [f for f in frames if not f.filename.startswith(PACKAGE_DIR)]
    own = [f for f in outside if not f.filename.startswith(_LIBRARIES)]
    kept = traceback.StackSummary.from_list(own or outside)
    here = (here or os.getcwd()) + os.sep
    for frame in kept:  # files under the working folder are named as the user named them
        if frame.filename.startswith(here):
            frame.filename = frame.filename[len(here):]
    return "".join(kept.format())


def first_line(error: BaseException) -> str:
    """The first line of an error's words (at most 300 characters)."""
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else ""


class PassThrough(BaseException):
    """Raised by a hook the framework itself handed the agent.

    `cnf`'s on_query stops the episode at the asked query: the guard lets it through, it is
    no failure of the agent.
    """


def world_failure(error: BaseException, step: int = 0) -> AgentFailed:
    """The failure a row records for a game that raised outside its agent's calls.

    That is a plug-in world's bug; the study goes on.
    """
    message = (f"the world called sys.exit({error.code!r})" if isinstance(error, SystemExit)
               else first_line(error))
    return AgentFailed("", "world", type(error).__name__, message, step=step)


class Calls:
    """The guard of an agent's calls and its world's, with no time caps.

    `own_interrupts`: KeyboardInterrupt can only be the agent's own (a worker ignores
    Ctrl-C), so it is a failure like any other; otherwise it is the user's and passes.
    """

    def __init__(self, watch: Watching | None = None, *, own_interrupts: bool = False):
        """A guard, reporting to `watch` (a supervisor's view) when given."""
        self.watch, self.own_interrupts = watch, own_interrupts
        self.agent = "agent"
        self.game_deadline = math.inf
        self.last_why: object = None  # the agent's why after its last move (run_episode sets it)
        self.here: str | None = None  # where the user is: frames are named from there

    def start_game(self) -> None:
        """A game starts (a guard with a game cap starts counting)."""

    def rest(self) -> None:
        """A game ended (a guard with an alarm clears it)."""

    def world(self, fn: Callable[[Unpack[Ts]], R], *args: Unpack[Ts], step: int = 0,
              passes: tuple[type[BaseException], ...] = ()) -> R:
        """A call into the world: not the agent's code, but its time counts to the game.

        What the world's code raises (a plug-in's bug, `sys.exit` in it) comes out as the
        world's AgentFailed, so the game is a row and `play` says the same; `passes` leave as
        they are (a step's IllegalAction is the agent's).
        """
        watch = self.watch
        if watch is not None:
            deadline = self.game_deadline
            watch.set(0.0 if math.isinf(deadline) else deadline, step, "world")
        # a LogicAgentsError is words already (a bad --pieces, say): it leaves as it is, as
        # `passes` do (two clauses, so that no tuple is built per call)
        try:
            return fn(*args)
        except (LogicAgentsError, PassThrough):
            raise
        except passes:
            raise
        except KeyboardInterrupt as e:
            if not self.own_interrupts:
                raise
            raise world_failure(e, step) from None
        except (Exception, SystemExit, GeneratorExit) as e:
            raise world_failure(e, step) from e
        finally:
            if watch is not None:
                watch.clear()

    def call(self, where: str, fn: Callable[[Unpack[Ts]], R], *args: Unpack[Ts],
             step: int = 0, alarm: bool = True) -> R:
        """fn(*args) as the agent's `where` call; its failures come out as AgentFailed.

        `alarm` says whether the call needs the guard's alarm (False: it keeps its own
        deadline); a guard with no caps has none to set.
        """
        try:
            return fn(*args)
        except BaseException as e:
            failed = self.converted(e, where, step)
            if failed is None:
                raise
            raise failed from (None if isinstance(e, KeyboardInterrupt) else e)

    def converted(self, error: BaseException, where: str, step: int) -> AgentFailed | None:
        """What an error raised in the agent's `where` call becomes: its AgentFailed, or None.

        None for one that leaves as it is: a failure already, a framework hook's PassThrough,
        the user's Ctrl-C, anything else the interpreter raises of its own.
        """
        if isinstance(error, (AgentFailed, PassThrough)):
            return None
        if isinstance(error, KeyboardInterrupt):
            return self.failure(error, where, step) if self.own_interrupts else None
        if isinstance(error, (Exception, SystemExit, GeneratorExit)):
            return self.failure(error, where, step)
        return None

    def failure(self, error: BaseException, where: str, step: int) -> AgentFailed:
        """The AgentFailed of an error the agent's call raised."""
        message = (f"the agent called sys.exit({error.code!r})" if isinstance(error, SystemExit)
                   else first_line(error))
        return AgentFailed(self.agent, where, type(error).__name__, message, step=step,
                           frames=agent_frames(error, self.here))
