"""Running agents you did not write: their failures and time caps become outcomes.

Concepts:
- Caps: the move and game time caps (seconds) and the memory cap (MiB) an episode is played
  under; DEFAULT_CAPS are generous enough that no built-in agent meets them.
- Clock: the caps in the process that plays, a world.calls.Calls that keeps time.
  `call(where, fn, ...)` runs one of the agent's
  calls (__init__, reset, act, why, stats, close): an exception of the agent's, `sys.exit`,
  or a call past its cap (SIGALRM, where there is one) comes out as errors.AgentFailed with
  the agent's own frames. The alarm cannot stop code stuck in C; the supervisor can.
- Watch: a few numbers the playing process shares with its supervisor (the deadline of the
  call it is in, the step, where), so the supervisor can kill a process whose agent ignores
  the alarm, and say where it was.
- The processes that play (referee.pool): Pool for compare, run_child for play and view.
- Clock.deadline(where): when a call must end; an agent that keeps its own deadline (in a
  player process) asks it here and is called with `alarm=False`.
"""

from __future__ import annotations

import contextlib
import errno
import math
import signal
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Unpack

from logic_agents.errors import AgentFailed
from logic_agents.ground.processes import CAN_TIME
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB
from logic_agents.world.calls import Calls, R, Ts

if TYPE_CHECKING:  # multiprocessing is loaded where a child is started, not by every command
    from multiprocessing.context import BaseContext

GRACE_S = 1.0  # past a deadline by this much, the alarm has failed: kill the process
HEADROOM_MIB = 512  # the interpreter and its libraries, on top of what an agent may hold
WHERE = ("", "__init__", "reset", "act", "why", "stats", "close", "world")
_WHERE_AT = {where: float(i) for i, where in enumerate(WHERE)}
DEFAULT_MOVE_TIMEOUT_S = 120.0
DEFAULT_GAME_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class Caps:
    """Time caps in seconds (None: no cap) and the memory cap in MiB (None: no cap)."""

    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT_S
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT_S
    memory_cap: int | None = DEFAULT_MEMORY_CAP_MIB

    def describe(self) -> str:
        """The caps in words, for a study page."""
        parts = [f"move {self.move_timeout:g} s" if self.move_timeout else "no move cap",
                 f"game {self.game_timeout:g} s" if self.game_timeout else "no game cap",
                 f"memory {self.memory_cap} MiB" if self.memory_cap else "no memory cap"]
        return ", ".join(parts)


DEFAULT_CAPS = Caps()
NO_CAPS = Caps(None, None, None)


def process_capped() -> bool:
    """Whether this process's memory is capped (the command line caps its own process)."""
    return memory_cap_mib() is not None


def memory_cap_mib() -> int | None:
    """This process's memory cap (MiB, headroom aside), if any, as the kernel holds it.

    That is RLIMIT_DATA, which set_memory_cap sets and a forked child inherits.
    """
    try:
        import resource
    except ImportError:  # not POSIX: no cap
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft == resource.RLIM_INFINITY or (soft >> 20) <= HEADROOM_MIB:
        return None
    return int(soft >> 20) - HEADROOM_MIB


def set_memory_cap(mib: int | None) -> None:
    """Cap this process's data (heap and private mappings) at `mib` MiB plus HEADROOM_MIB.

    An allocation past it fails (MemoryError) instead of taking the machine's memory.
    """
    if not mib:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource  # POSIX only: where it is missing, the process is left uncapped

        limit = (mib + HEADROOM_MIB) << 20
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


class _TimeUp(BaseException):
    """Raised by the alarm inside an agent's call.

    A BaseException, so `except Exception` in the agent does not swallow it.
    """


class Watch:
    """Numbers a playing process shares with its supervisor.

    [deadline on the system-wide monotonic clock (0: none), step, where (an index of
    WHERE)].
    """

    def __init__(self, context: BaseContext):
        """Shared values in `context` (a multiprocessing context)."""
        self.cells = context.RawArray("d", 3)
        self._view()

    def _view(self) -> None:
        # written through a memoryview: a third of a ctypes item store's cost, and set twice
        # per call into the agent or the world
        self.floats = memoryview(self.cells).cast("B").cast("d")

    def __getstate__(self) -> dict[str, object]:
        """The shared array alone: a memoryview does not pickle (it is made again)."""
        return {"cells": self.cells}

    def __setstate__(self, state: dict[str, object]) -> None:
        """The shared array, and a view of it."""
        self.cells = state["cells"]
        self._view()

    def set(self, deadline: float, step: int, where: str) -> None:
        """Say what the agent is doing and by when it must finish (0: no deadline)."""
        floats = self.floats
        floats[1] = float(step)
        floats[2] = _WHERE_AT[where]
        floats[0] = deadline

    def clear(self) -> None:
        """Nothing is running (the step stays as it was)."""
        floats = self.floats
        floats[0] = 0.0
        floats[2] = 0.0

    @property
    def deadline(self) -> float:
        """The deadline of the call in progress (0: none)."""
        return float(self.cells[0])

    @property
    def step(self) -> int:
        """The step of the call in progress."""
        return int(self.cells[1])

    @property
    def where(self) -> str:
        """The call in progress: act, reset, ..."""
        return WHERE[int(self.cells[2])]


class Clock(Calls):
    """The caps of the episodes one process plays, and the guard of the agent's calls.

    A Calls (world.calls) that keeps time: the move and game caps, the alarm that stops an
    agent's call past its deadline, and the watch its supervisor reads.
    `own_interrupts`: KeyboardInterrupt can only be the agent's own (a worker ignores
    Ctrl-C), so it is a failure like any other; otherwise it is the user's and passes.
    """

    def __init__(self, caps: Caps = NO_CAPS, watch: Watch | None = None, *,
                 own_interrupts: bool = False):
        """A clock with `caps`, reporting to `watch` (a supervisor's view) when given."""
        super().__init__(watch, own_interrupts=own_interrupts)
        self.caps = caps
        self._armed = False  # in an agent's call that the alarm guards
        # the alarm is set once and left pending across calls (two system calls a call cost
        # 6% of a small game): _timer_at is when the pending one rings (0: none), _until the
        # deadline of the call in progress; a ring before it sets the alarm again
        self._timer_at = 0.0
        self._until = math.inf
        self._previous_alarm: Callable[[int, types.FrameType | None], object] | int | None = None

    def start_game(self) -> None:
        """Start a game's clock (its game cap counts from here)."""
        self.game_deadline = (time.monotonic() + self.caps.game_timeout
                              if self.caps.game_timeout else math.inf)

    def deadline(self, where: str, now: float | None = None) -> tuple[float, bool]:
        """(when the call `where` must end, whether that is the game's cap, not the move's).

        For a call starting `now` (default: the clock's time); inf: no cap. A caller that
        keeps its own deadline (referee.remote.RemoteAgent) asks it here.
        """
        move = ((time.monotonic() if now is None else now) + self.caps.move_timeout
                if self.caps.move_timeout and where != "world" else math.inf)
        return min(move, self.game_deadline), self.game_deadline <= move

    def call(self, where: str, fn: Callable[[Unpack[Ts]], R], *args: Unpack[Ts],
             step: int = 0, alarm: bool = True) -> R:
        """fn(*args) as the agent's `where` call; its failures come out as AgentFailed.

        `alarm`: whether the call needs the alarm; False for one that keeps its own deadline
        (an agent in a player process). Reading `why` is left to the supervisor's watch: the
        alarm costs two system calls.
        """
        now = time.monotonic()  # read once: this runs for every move
        deadline, is_game = self.deadline(where, now)
        if deadline <= now:
            raise self.timeout(where, step, is_game)
        alarm = alarm and deadline != math.inf and where != "why" and self._install_alarm()
        try:
            if self.watch is not None:
                self.watch.set(0.0 if math.isinf(deadline) else deadline, step, where)
            try:
                if alarm:
                    self._until = deadline
                    if not self._timer_at or self._timer_at > deadline:
                        self._set_timer(deadline)
                    self._armed = True
                return fn(*args)
            finally:  # disarmed before anything of ours runs: the alarm is for the agent only
                self._armed = False
        except _TimeUp:
            raise self.timeout(where, step, is_game) from None
        except BaseException as e:
            failed = self.converted(e, where, step)
            if failed is None:
                raise
            raise failed from (None if isinstance(e, KeyboardInterrupt) else e)
        finally:
            if self.watch is not None:
                self.watch.clear()

    def _install_alarm(self) -> bool:
        """Make SIGALRM ours; False where there is no alarm (Windows, a thread).

        Once: a handler that was there before is still called when the alarm is not ours.
        """
        if self._previous_alarm is not None:
            return True
        if not CAN_TIME or \
                threading.current_thread() is not threading.main_thread():
            return False
        self._previous_alarm = signal.signal(signal.SIGALRM, self._ring)
        return True

    def _set_timer(self, deadline: float) -> None:
        self._timer_at = deadline
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, deadline - time.monotonic()))

    def _ring(self, signum: int, frame: types.FrameType | None) -> None:
        if self._timer_at:  # ours: a call's deadline, or a finished call's
            self._timer_at = 0.0
            if self._armed:
                if time.monotonic() >= self._until - 1e-3:
                    self._armed = False
                    raise _TimeUp()
                self._set_timer(self._until)  # rung for an earlier call: wait for this one's
            return
        if callable(self._previous_alarm):
            self._previous_alarm(signum, frame)

    def rest(self) -> None:
        """Clear a pending alarm (a game's end): nothing of ours rings between games."""
        if self._timer_at:
            self._timer_at = 0.0
            signal.setitimer(signal.ITIMER_REAL, 0)

    def timeout(self, where: str, step: int, is_game: bool) -> AgentFailed:
        """The failure of a call `where` past its cap (the game's, if `is_game`)."""
        cap = (f"the game's {self.caps.game_timeout:g} s cap" if is_game
               else f"the {self.caps.move_timeout:g} s move cap")
        return AgentFailed(self.agent, where, "Timeout", f"{where} ran past {cap}", step=step,
                           timeout=True)

    def failure(self, error: BaseException, where: str, step: int) -> AgentFailed:
        """The AgentFailed of an error the agent's call raised (one under the cap says so)."""
        failed = super().failure(error, where, step)
        if isinstance(error, MemoryError) and self.caps.memory_cap:
            return AgentFailed(self.agent, where, failed.kind, "out of memory under the memory "
                               f"cap ({self.caps.memory_cap} MiB, +{HEADROOM_MIB} MiB for the "
                               "interpreter)", step=step, frames=failed.frames)
        if isinstance(error, BlockingIOError) and error.errno == errno.EAGAIN:
            # what fork() says when the process cap is met (a multiprocessing.Pool of 64)
            return AgentFailed(self.agent, where, failed.kind, f"{failed.message} (starting "
                               "a process: an agent may start only as many as the study's "
                               "--max-processes)", step=step, frames=failed.frames)
        return failed


def signal_hint(exitcode: int | None) -> str:
    """Words for a process ended by a signal.

    The memory cap makes an allocation fail (a MemoryError, or an abort in C); a SIGKILL comes
    from outside: another process, or the kernel's out-of-memory killer.
    """
    return {-signal.SIGKILL: " (killed from outside: by another process, or by the kernel's "
                             "out-of-memory killer)",
            -signal.SIGABRT: " (aborted: an allocation that failed under the memory cap?)"
            }.get(exitcode or 0, "")


def lost_failure(agent: str, watch: Watch, caps: Caps, exitcode: int | None,
                 killed: bool) -> AgentFailed:
    """What to say of a game whose process was killed past its deadline, or died."""
    where = watch.where or "act"
    step = watch.step
    if killed:
        # the world's own time counts to the game only: a hung world is past the game's cap
        cap = (f"the {caps.move_timeout:g} s move cap" if caps.move_timeout and where != "world"
               else f"the game's {caps.game_timeout:g} s cap")
        if where == "world":  # the world's code has no alarm of its own: only the game cap
            return AgentFailed(agent, where, "Timeout", f"the world ran past {cap}; its "
                               "process was killed", step=step, timeout=True)
        return AgentFailed(agent, where, "Timeout", f"{where} ran past {cap} and did not "
                           "answer the alarm (stuck in C?); its process was killed",
                           step=step, timeout=True)
    how = (f"killed by signal {-exitcode}" if exitcode is not None and exitcode < 0
           else f"exit code {exitcode}")
    hint = signal_hint(exitcode)
    return AgentFailed(agent, where, "ProcessDied", f"the process playing the game ended "
                       f"({how}){hint}", step=step)
