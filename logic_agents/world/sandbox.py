"""Running agents you did not write: their failures and time caps become outcomes.

Concepts:
- Caps: the move and game time caps (seconds) and the memory cap (MiB) an episode is played
  under; DEFAULT_CAPS are generous enough that no built-in agent meets them.
- Clock: the caps in the process that plays. `call(where, fn, ...)` runs one of the agent's
  calls (__init__, reset, act, why, stats, close): an exception of the agent's, `sys.exit`,
  or a call past its cap (SIGALRM, where there is one) comes out as errors.AgentFailed with
  the agent's own frames. The alarm cannot stop code stuck in C; the supervisor can.
- Watch: a few numbers the playing process shares with its supervisor (the deadline of the
  call it is in, the step, where), so the supervisor can kill a process whose agent ignores
  the alarm, and say where it was.
- Pool: worker processes that play jobs one at a time, each with its own pipe. A worker that
  runs past a deadline (plus GRACE_S) is killed and replaced, one that dies (os._exit, a
  signal, the memory cap) is replaced, and either way its game becomes a row through `lost`;
  jobs are pulled from an iterator only when a worker is free, so a study never holds them all.
- run_child: one call in one forked child under the same watch (`play`).
- agent_frames: the frames of a traceback that lie outside logic_agents (the agent's files).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logic_agents.errors import AgentFailed
from logic_agents.world.budget import DEFAULT_MEMORY_CAP_MIB

PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)
GRACE_S = 1.0  # past a deadline by this much, the alarm has failed: kill the process
HEADROOM_MIB = 512  # the interpreter and its libraries, on top of what an agent may hold
WHERE = ("", "__init__", "reset", "act", "why", "stats", "close", "world")
DEFAULT_MOVE_TIMEOUT_S = 120.0
DEFAULT_GAME_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class Caps:
    """Time caps in seconds (None: no cap) and the memory cap in MiB (None: no cap)."""

    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT_S
    game_timeout: float | None = DEFAULT_GAME_TIMEOUT_S
    memory_cap: int | None = DEFAULT_MEMORY_CAP_MIB

    def describe(self) -> str:
        parts = [f"move {self.move_timeout:g} s" if self.move_timeout else "no move cap",
                 f"game {self.game_timeout:g} s" if self.game_timeout else "no game cap",
                 f"memory {self.memory_cap} MiB" if self.memory_cap else "no memory cap"]
        return ", ".join(parts)


DEFAULT_CAPS = Caps()
NO_CAPS = Caps(None, None, None)


_CAPPED: dict[str, Any] = {"process": False, "mib": None}


def process_capped() -> bool:
    """Whether this process's memory is capped (the command line caps its own process)."""
    return _CAPPED["process"]


def memory_cap_mib() -> int | None:
    """The cap set_memory_cap last set on this process (MiB, headroom aside), if any."""
    return _CAPPED["mib"]


def set_memory_cap(mib: int | None) -> None:
    """Cap this process's data (heap and private mappings) at `mib` MiB plus HEADROOM_MIB:
    an allocation past it fails (MemoryError) instead of taking the machine's memory."""
    if not mib:
        return
    _CAPPED["process"], _CAPPED["mib"] = True, mib
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        limit = (mib + HEADROOM_MIB) << 20
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def agent_frames(error: BaseException) -> str:
    """The traceback of `error` as Python prints it, keeping only the frames outside
    logic_agents (the agent's own files); the innermost frame when every frame is ours."""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [f for f in frames if not f.filename.startswith(PACKAGE_DIR)]
    kept = traceback.StackSummary.from_list(mine or frames[-1:])
    here = os.getcwd() + os.sep
    for frame in kept:  # files under the working folder are named as the user named them
        if frame.filename.startswith(here):
            frame.filename = frame.filename[len(here):]
    return "".join(kept.format())


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else ""


class PassThrough(BaseException):
    """Raised by a hook the framework itself handed the agent (`cnf`'s on_query stops the
    episode at the asked query): the Clock lets it through, it is no failure of the agent."""


class _TimeUp(BaseException):
    """Raised by the alarm inside an agent's call (a BaseException, so `except Exception` in
    the agent does not swallow it)."""


class Watch:
    """Numbers a playing process shares with its supervisor: [deadline on the system-wide
    monotonic clock (0: none), step, where (an index of WHERE)]."""

    def __init__(self, context: Any):
        self.cells = context.RawArray("d", 3)

    def set(self, deadline: float, step: int, where: str) -> None:
        self.cells[1], self.cells[2] = step, WHERE.index(where)
        self.cells[0] = deadline

    @property
    def deadline(self) -> float:
        return self.cells[0]

    @property
    def step(self) -> int:
        return int(self.cells[1])

    @property
    def where(self) -> str:
        return WHERE[int(self.cells[2])]


class Clock:
    """The caps of the episodes one process plays, and the guard of the agent's calls.

    `own_interrupts`: KeyboardInterrupt can only be the agent's own (a worker ignores
    Ctrl-C), so it is a failure like any other; otherwise it is the user's and passes."""

    def __init__(self, caps: Caps = NO_CAPS, watch: Watch | None = None, *,
                 own_interrupts: bool = False):
        self.caps, self.watch, self.own_interrupts = caps, watch, own_interrupts
        self.agent = "agent"
        self.game_deadline = math.inf
        self._armed = False

    def start_game(self) -> None:
        self.game_deadline = (time.monotonic() + self.caps.game_timeout
                              if self.caps.game_timeout else math.inf)

    def _deadline(self, where: str) -> tuple[float, bool]:
        """(when the call must end, whether that is the game's cap rather than the move's)."""
        move = (time.monotonic() + self.caps.move_timeout
                if self.caps.move_timeout and where != "world" else math.inf)
        return min(move, self.game_deadline), self.game_deadline <= move

    def world(self, fn: Callable[..., Any], *args: Any, step: int = 0, **kwargs: Any) -> Any:
        """A call into the world: not the agent's code, but its time counts to the game."""
        if self.watch is not None:
            deadline = self.game_deadline
            self.watch.set(0.0 if math.isinf(deadline) else deadline, step, "world")
        try:
            return fn(*args, **kwargs)
        finally:
            if self.watch is not None:
                self.watch.set(0.0, step, "")

    def call(self, where: str, fn: Callable[..., Any], *args: Any, step: int = 0) -> Any:
        """fn(*args) as the agent's `where` call; its failures come out as AgentFailed."""
        deadline, is_game = self._deadline(where)
        if deadline <= time.monotonic():
            raise self._timeout(where, step, is_game)
        alarm = (not math.isinf(deadline) and hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())
        previous = None
        try:
            if self.watch is not None:
                self.watch.set(0.0 if math.isinf(deadline) else deadline, step, where)
            if alarm:
                previous = signal.signal(signal.SIGALRM, self._ring)
                self._armed = True
                signal.setitimer(signal.ITIMER_REAL, max(1e-3, deadline - time.monotonic()))
            return fn(*args)
        except _TimeUp:
            raise self._timeout(where, step, is_game) from None
        except (AgentFailed, PassThrough):
            raise
        except KeyboardInterrupt as e:
            if not self.own_interrupts:
                raise
            raise self.failure(e, where, step) from None
        except (Exception, SystemExit, GeneratorExit) as e:
            raise self.failure(e, where, step) from e
        finally:
            if alarm:
                self._armed = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous or signal.SIG_DFL)
            if self.watch is not None:
                self.watch.set(0.0, step, "")

    def _ring(self, signum: int, frame: Any) -> None:
        if self._armed:
            self._armed = False
            raise _TimeUp()

    def _timeout(self, where: str, step: int, is_game: bool) -> AgentFailed:
        cap = (f"the game's {self.caps.game_timeout:g} s cap" if is_game
               else f"the {self.caps.move_timeout:g} s move cap")
        return AgentFailed(self.agent, where, "Timeout", f"{where} ran past {cap}", step=step,
                           timeout=True)

    def failure(self, error: BaseException, where: str, step: int) -> AgentFailed:
        kind = type(error).__name__
        message = _first_line(error)
        if isinstance(error, SystemExit):
            message = f"the agent called sys.exit({error.code!r})"
        elif isinstance(error, MemoryError) and self.caps.memory_cap:
            message = (f"out of memory under the memory cap ({self.caps.memory_cap} MiB, "
                       f"+{HEADROOM_MIB} MiB for the interpreter)")
        return AgentFailed(self.agent, where, kind, message, step=step,
                           frames=agent_frames(error))


def lost_failure(agent: str, watch: Watch, caps: Caps, exitcode: int | None,
                 killed: bool) -> AgentFailed:
    """What to say of a game whose process was killed past its deadline, or died."""
    where = watch.where or "act"
    step = watch.step
    if killed:
        cap = (f"the {caps.move_timeout:g} s move cap" if caps.move_timeout
               else f"the game's {caps.game_timeout:g} s cap")
        return AgentFailed(agent, where, "Timeout", f"{where} ran past {cap} and did not "
                           "answer the alarm (stuck in C?); its process was killed",
                           step=step, timeout=True)
    how = (f"killed by signal {-exitcode}" if exitcode is not None and exitcode < 0
           else f"exit code {exitcode}")
    hint = " (over the memory cap?)" if exitcode in (-signal.SIGKILL, -signal.SIGABRT) else ""
    return AgentFailed(agent, where, "ProcessDied", f"the process playing the game ended "
                       f"({how}){hint}", step=step)


# -- processes ---------------------------------------------------------------------------
def fork_context() -> Any:
    """A fork context where the platform has one (children need nothing pickled to start)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _die_with_parent(parent: int) -> None:
    """Make a child exit when the process that started it dies, even by SIGKILL: Linux's
    parent-death signal where there is one, and a watchdog thread everywhere."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _settle_child(parent: int, caps: Caps, quiet_stdout: bool) -> None:
    """What every playing child does first: Ctrl-C is the parent's to handle (the child leaves
    the terminal's group, so a solver is not interrupted mid-call), it dies with its parent,
    and its memory is capped. With `quiet_stdout` (a worker, `play --json`) whatever it
    prints, an agent's own prints included, goes to stderr: stdout is the parent's output."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _die_with_parent(parent)
    set_memory_cap(caps.memory_cap)
    if quiet_stdout:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            os.dup2(2, 1)


def _stop(proc: Any) -> None:
    if proc.is_alive():
        proc.terminate()
        proc.join(1.0)
    if proc.is_alive():
        proc.kill()
    proc.join()


def _overdue(watch: Watch) -> bool:
    deadline = watch.deadline
    return deadline > 0 and time.monotonic() > deadline + GRACE_S


@dataclass
class _Slot:
    proc: Any
    conn: Any
    watch: Watch
    job: Any = None


def _serve(conn: Any, watch: Watch, caps: Caps, parent: int,
           play: Callable[[Any, Clock], Any]) -> None:
    """A worker: play each job it is sent, send back its row; None ends it."""
    _settle_child(parent, caps, quiet_stdout=True)
    clock = Clock(caps, watch, own_interrupts=True)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        conn.send(play(job, clock))


class Pool:
    """`workers` processes playing jobs under `caps`; see the module docstring."""

    def __init__(self, workers: int, caps: Caps, play: Callable[[Any, Clock], Any],
                 lost: Callable[[Any, AgentFailed], Any]):
        self.context = fork_context()
        self.workers, self.caps, self.play, self.lost = max(1, workers), caps, play, lost
        self.slots: list[_Slot] = []

    def _spawn(self) -> _Slot:
        mine, theirs = self.context.Pipe()
        watch = Watch(self.context)
        proc = self.context.Process(target=_serve, args=(theirs, watch, self.caps, os.getpid(),
                                                         self.play), daemon=True)
        proc.start()
        theirs.close()
        return _Slot(proc, mine, watch)

    def run(self, jobs: Iterator[Any], emit: Callable[[Any], None],
            stop: threading.Event) -> None:
        """Play every job, emitting each row as it comes; return early once `stop` is set."""
        from multiprocessing.connection import wait

        pending = iter(jobs)
        exhausted = False
        try:
            while not stop.is_set():
                for index, slot in enumerate(self.slots):  # a free worker takes the next job
                    if slot.job is None and not exhausted:
                        job = next(pending, None)
                        if job is None:
                            exhausted = True
                            break
                        self._send(index, job)
                while not exhausted and len(self.slots) < self.workers:
                    job = next(pending, None)
                    if job is None:
                        exhausted = True
                        break
                    self.slots.append(self._spawn())
                    self._send(len(self.slots) - 1, job)
                busy = [s for s in self.slots if s.job is not None]
                if not busy:
                    return
                for conn in wait([s.conn for s in busy], timeout=0.2):
                    index = next(i for i, s in enumerate(self.slots) if s.conn is conn)
                    self._receive(index, emit)
                for index, slot in enumerate(self.slots):
                    if slot.job is not None and _overdue(slot.watch):
                        self._replace(index, emit, killed=True)
        finally:
            for slot in self.slots:
                with contextlib.suppress(OSError, ValueError):
                    slot.conn.send(None)
            for slot in self.slots:
                if slot.job is None:
                    slot.proc.join(0.5)
                _stop(slot.proc)
                slot.conn.close()

    def _send(self, index: int, job: Any) -> None:
        slot = self.slots[index]
        slot.job = job
        try:
            slot.conn.send(job)
        except (OSError, ValueError):  # the worker died while idle: a new one takes the job
            _stop(slot.proc)
            slot.conn.close()
            self.slots[index] = self._spawn()
            self.slots[index].job = job
            self.slots[index].conn.send(job)

    def _receive(self, index: int, emit: Callable[[Any], None]) -> None:
        slot = self.slots[index]
        try:
            row = slot.conn.recv()
        except (EOFError, OSError):
            self._replace(index, emit, killed=False)
            return
        slot.job = None
        emit(row)

    def _replace(self, index: int, emit: Callable[[Any], None], killed: bool) -> None:
        """The worker at `index` is overdue (kill it) or dead: its game becomes a row, and a
        fresh worker takes its place."""
        slot = self.slots[index]
        _stop(slot.proc)
        slot.conn.close()
        failure = lost_failure("", slot.watch, self.caps, slot.proc.exitcode, killed)
        job, slot.job = slot.job, None
        self.slots[index] = self._spawn()
        emit(self.lost(job, failure))


class _Relay:
    """A child's stdout or stderr: each write goes to the parent as a message, to be written
    to the parent's own stream (`like` is that stream, asked whether it is a terminal)."""

    def __init__(self, conn: Any, number: int, like: Any):
        self.conn, self.number, self.like = conn, number, like
        self.encoding = getattr(like, "encoding", None) or "utf-8"
        self.errors = getattr(like, "errors", None) or "strict"

    def write(self, text: str) -> int:
        if text:
            self.conn.send((self.number, text))
        return len(text)

    def flush(self) -> None:
        pass

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        try:
            return bool(self.like.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def fileno(self) -> int:
        return self.like.fileno()


def run_child(fn: Callable[[Clock], Any], caps: Caps,
              quiet_stdout: bool = False) -> tuple[Any, AgentFailed | None]:
    """fn(clock) in a forked child under `caps`; (its picklable return value, None), or
    (None, the failure) when the child had to be killed past its deadline or died. Ctrl-C
    here stops the child and raises KeyboardInterrupt. Without fork, fn runs in this process
    (the alarm still caps code that runs Python)."""
    context = fork_context()
    if context.get_start_method() != "fork":
        return fn(Clock(caps)), None
    mine, theirs = context.Pipe(duplex=False)
    watch = Watch(context)
    streams = (sys.stdout, sys.stderr)

    def child() -> None:
        _settle_child(os.getppid(), caps, quiet_stdout=False)
        # what the child prints travels to the parent's own stdout and stderr objects, so it
        # lands wherever they write (a terminal, a pipe, pytest's capture, a notebook)
        sys.stdout = _Relay(theirs, 2 if quiet_stdout else 1, streams[1 if quiet_stdout else 0])
        sys.stderr = _Relay(theirs, 2, streams[1])
        try:
            outcome: tuple = ("ok", fn(Clock(caps, watch, own_interrupts=True)))
        except BaseException as e:  # the parent raises it, as if fn had run there
            outcome = ("raise", e)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        try:
            theirs.send(outcome)
        except Exception:  # an exception that does not pickle: its words still travel
            from logic_agents.errors import LogicAgentsError

            theirs.send(("raise", LogicAgentsError(str(outcome[1]))))

    proc = context.Process(target=child, daemon=True)
    proc.start()
    theirs.close()
    from multiprocessing.connection import wait

    try:
        while True:
            if wait([mine], timeout=0.2):
                try:
                    kind, value = mine.recv()
                except (EOFError, OSError):
                    proc.join(1.0)
                    return None, lost_failure("", watch, caps, proc.exitcode, killed=False)
                if kind in (1, 2):  # a write to stdout or stderr
                    streams[kind - 1].write(value)
                    streams[kind - 1].flush()
                    continue
                if kind == "raise":
                    raise value
                return value, None
            if _overdue(watch):
                _stop(proc)
                return None, lost_failure("", watch, caps, proc.exitcode, killed=True)
    finally:
        _stop(proc)
        mine.close()
