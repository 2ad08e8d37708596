"""The processes that play agents' games, so that no agent can take its caller down.

Concepts:
- Pool: worker processes that play jobs one at a time, each with its own pipe. A worker that
  runs past a deadline (plus GRACE_S) is killed and replaced, one that dies (os._exit, a
  signal, the memory cap) is replaced, and either way its game becomes a row through `lost`
  and the games it had not begun go to another worker; jobs are pulled from an iterator only
  when a worker is free, so a study never holds them all. A worker whose games are quick
  (QUICK_S) is sent BATCH of them in one message; each row still comes back as it is made.
- Beside: one call in a forked child beside the caller's own work (a study reads its agents
  while it plays the ones read), whose results are taken as they come, never waited for.
- run_child: one call in one forked child under the same watch (`play`, `view`); what the
  child prints is relayed to the parent's own streams (a terminal, pytest's capture).
- A playing child ignores Ctrl-C and leaves the terminal's process group (the parent stops
  it, so an interrupt never lands inside a C solver), dies with its parent, and caps its
  memory. leave_signals_to: the signal part of that, which logic/portfolio's racers share.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TextIO, TypeVar

from logic_agents.errors import AgentFailed, LogicAgentsError
from logic_agents.ground.processes import fork_context, leave_signals_to
from logic_agents.referee.clock import (
    GRACE_S,
    NO_CAPS,
    Caps,
    Clock,
    Watch,
    lost_failure,
    set_memory_cap,
)
from logic_agents.referee.containment import own_this_process
from logic_agents.referee.players import stop_players
from logic_agents.referee.process_tree import stop_referee
from logic_agents.world.calls import world_failure

Job = TypeVar("Job")  # what a worker is sent (batch.Job): picklable
Out = TypeVar("Out")  # what it sends back (a results Row), or what a child returns

# plays of a game whose worker was killed under it by a signal (an agent in another process
# outside a sandbox, the kernel's OOM killer) before that game is a row; a worker that exits
# by itself (os._exit) or is stopped past its deadline is its own agent's doing, not retried.
# A killer kills one worker a move at most, so the retries a study needs are bounded by its
# moves; such games are played after the others, when fewer killers are still playing.
RETRIES = 100
# a worker whose last game took less than QUICK_S (wall, as the pool saw it) is sent BATCH
# jobs a message: a message each way cost about 0.1 ms of a 1 ms game; slower games go one
# by one, so the last of a study are spread over the workers
QUICK_S = 0.02
BATCH = 16
SEND_TRIES = 3  # a worker that dies as its games are sent is replaced, this many times
LATER_S = 0.05  # how soon a pool asks again for a job that was not ready (Later)


class Later:
    """What a pool's jobs yield when none is ready yet but more will come (LATER)."""


LATER = Later()


def _settle_child(parent: int, caps: Caps, quiet_stdout: bool, slot: int | None = None,
                  referee: bool = True) -> None:
    """What every playing child does first.

    Ctrl-C is the parent's to handle (the child leaves the terminal's group, so a solver is
    not interrupted mid-call), it dies with its parent, and its memory is capped. With
    `quiet_stdout` (a worker, `play --json`) whatever it prints, an agent's own prints
    included, goes to stderr: stdout is the parent's output. A `referee` owns its players'
    orphans and sweeps them (not one that starts players from threads side by side: a
    player just started, not yet its own, would be taken for an orphan).
    """
    leave_signals_to(parent)
    if referee:
        own_this_process(slot)  # players' orphans come here, to be swept
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    set_memory_cap(caps.memory_cap)
    if quiet_stdout:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            os.dup2(2, 1)


def _has_data(conn: Connection) -> bool:
    try:
        return bool(conn.poll())
    except (OSError, ValueError, EOFError):
        return False


def _readable(conns: list[Connection], timeout: float) -> list[Connection]:
    """The connections with a message (or an end) to read, waiting up to `timeout` s.

    One poll(2) where there is one: multiprocessing's wait builds a selector per call, a tenth
    of the referee's cost per game.
    """
    if not hasattr(select, "poll"):
        from multiprocessing.connection import wait

        return [c for c in wait(conns, timeout) if isinstance(c, Connection)]
    poller = select.poll()
    by_fd = {}
    for conn in conns:
        by_fd[conn.fileno()] = conn
        poller.register(conn.fileno(), select.POLLIN)
    return [by_fd[fd] for fd, _ in poller.poll(timeout * 1000)]


def _overdue(watch: Watch) -> bool:
    deadline = watch.deadline
    return deadline > 0 and time.monotonic() > deadline + GRACE_S


@dataclass
class _Slot(Generic[Job]):
    proc: BaseProcess
    conn: Connection
    watch: Watch
    jobs: list[Job] = field(default_factory=list)  # in hand, in the order they are played
    since: float = 0.0  # when its last job was sent or its last row came
    quick: bool = False  # its last game took less than QUICK_S


def _serve(conn: Connection, watch: Watch, caps: Caps, parent: int,
           play: Callable[[Job, Clock], Out], lost: Callable[[Job, AgentFailed], Out],
           slot: int | None = None) -> None:
    """A worker: play each job of each list it is sent; None ends it.

    Each row is sent back as it is made. What the game raises outside the agent's calls (a
    plug-in world's bug) is that game's row too.
    """
    _settle_child(parent, caps, quiet_stdout=True, slot=slot)
    clock = Clock(caps, watch, own_interrupts=True)
    try:
        while True:
            try:
                jobs = conn.recv()
            except (EOFError, OSError):
                return
            if jobs is None:
                return
            for job in jobs:
                try:
                    row = play(job, clock)
                except Exception as e:
                    row = lost(job, world_failure(e, watch.step))
                conn.send(row)
    finally:
        stop_players()


class Pool(Generic[Job, Out]):
    """`workers` processes playing jobs under `caps`; see the module docstring."""

    def __init__(self, workers: int, caps: Caps, play: Callable[[Job, Clock], Out],
                 lost: Callable[[Job, AgentFailed], Out], spread: bool = True):
        """A pool of `workers` processes that play jobs with `play`.

        `lost` makes the row of a job whose worker died.
        """
        self.context = fork_context()
        self.workers, self.caps, self.play, self.lost = max(1, workers), caps, play, lost
        self.spread = spread  # each worker (and its players) on a core of its own
        self.slots: list[_Slot[Job]] = []
        # a game whose worker died under it (killed from outside: an agent in another
        # process, the memory cap) is played again, up to RETRIES times, before it is a row
        self.again: list[Job] = []
        self.tries: dict[int, int] = {}
        self.returned: list[Job] = []  # the games a lost worker had not begun, played next
        self.emit: Callable[[Out], None] = lambda row: None  # where run() sends each row

    def _spawn(self, slot: int) -> _Slot[Job]:
        mine, theirs = self.context.Pipe()
        watch = Watch(self.context)
        proc = self.context.Process(target=_serve, args=(theirs, watch, self.caps, os.getpid(),
                                                         self.play, self.lost,
                                                         slot if self.spread else None),
                                    daemon=True)
        proc.start()
        theirs.close()
        return _Slot(proc, mine, watch)

    def run(self, jobs: Iterator[Job | Later], emit: Callable[[Out], None],
            stop: threading.Event) -> None:
        """Play every job, emitting each row as it comes; return early once `stop` is set.

        `jobs` may yield LATER: none is ready now, more will come (agents still being read);
        the workers play what they hold, and the next job is asked for a moment later.
        """
        self.emit = emit
        queued = iter(jobs)
        exhausted = False  # `jobs` has ended: only games to play again are left
        waiting = False  # `jobs` said LATER: asked again once the workers were looked at

        def take(count: int) -> list[Job]:
            """Up to `count` jobs.

            Those a lost worker had not begun, then new ones, then those to play again
            once no new one will come.
            """
            nonlocal exhausted, waiting
            taken: list[Job] = []
            while len(taken) < count:
                if self.returned:
                    taken.append(self.returned.pop(0))
                    continue
                job = LATER if exhausted else next(queued, None)
                if job is None:
                    exhausted = True
                    continue
                if isinstance(job, Later):
                    if not exhausted or not self.again:
                        waiting = not exhausted
                        break
                    job = self.again.pop(0)
                taken.append(job)
            return taken

        try:
            while not stop.is_set():
                waiting = False
                for index, slot in enumerate(self.slots):  # a free worker takes the next jobs
                    if not slot.jobs:
                        batch = take(BATCH if slot.quick else 1)
                        if not batch:
                            break
                        self._send(index, batch)
                while len(self.slots) < self.workers:
                    batch = take(1)
                    if not batch:
                        break
                    self.slots.append(self._spawn(len(self.slots)))
                    self._send(len(self.slots) - 1, batch)
                busy = [s for s in self.slots if s.jobs]
                if not busy:
                    if exhausted and not self.again and not self.returned:
                        return
                    if waiting:  # nothing to play until the next job is ready
                        time.sleep(LATER_S)
                    continue  # a send that failed made its games rows: on to the next
                for conn in _readable([s.conn for s in busy], LATER_S if waiting else 0.2):
                    index = next(i for i, s in enumerate(self.slots) if s.conn is conn)
                    self._receive(index, emit)
                for index, slot in enumerate(self.slots):
                    if not slot.jobs:
                        continue
                    if slot.proc.exitcode is not None and not _has_data(slot.conn):
                        # dead, though a process it started may still hold its pipe open:
                        # said as the death it is, not as a game past its deadline
                        self._replace(index, emit, killed=False)
                    elif _overdue(slot.watch):
                        self._replace(index, emit, killed=True)
        finally:
            for slot in self.slots:
                with contextlib.suppress(OSError, ValueError):
                    slot.conn.send(None)
            for slot in self.slots:
                if not slot.jobs:
                    slot.proc.join(0.5)
                stop_referee(slot.proc)
                slot.conn.close()

    def _send(self, index: int, jobs: list[Job]) -> None:
        """Send `jobs` to the worker at `index`.

        One that died (while idle, or as they were sent) is replaced and they are sent
        again. A worker that dies at every one of SEND_TRIES sends costs these games their
        rows (ProcessDied), never the study.
        """
        for _ in range(SEND_TRIES):
            slot = self.slots[index]
            slot.jobs, slot.since = jobs, time.monotonic()
            try:
                slot.conn.send(jobs)
                return
            except (OSError, ValueError):
                slot.jobs = []
                stop_referee(slot.proc)
                slot.conn.close()
                self.slots[index] = self._spawn(index)
        for job in jobs:
            self.emit(self.lost(job, AgentFailed("", "world", "ProcessDied", "the worker process "
                                            f"died {SEND_TRIES} times as its game was sent")))

    def _receive(self, index: int, emit: Callable[[Out], None]) -> None:
        slot = self.slots[index]
        try:
            row = slot.conn.recv()
        except (EOFError, OSError):
            self._replace(index, emit, killed=False)
            return
        now = time.monotonic()
        slot.quick, slot.since = now - slot.since < QUICK_S, now
        slot.jobs.pop(0)
        emit(row)

    def _replace(self, index: int, emit: Callable[[Out], None], killed: bool) -> None:
        """Replace the worker at `index`, overdue (killed) or dead.

        Its game becomes a row, and a fresh worker takes its place.
        """
        slot = self.slots[index]
        stop_referee(slot.proc)
        slot.conn.close()
        failure = lost_failure("", slot.watch, self.caps, slot.proc.exitcode, killed)
        jobs, slot.jobs = slot.jobs, []
        self.slots[index] = self._spawn(index)
        if not jobs:  # it died with no game in hand: the fresh worker is all it needs
            return
        job = jobs[0]  # the game it was playing; the others it had not begun are played next
        self.returned[:0] = jobs[1:]
        tries = self.tries.get(id(job), 0)
        code = slot.proc.exitcode
        if not killed and code is not None and code < 0 and tries < RETRIES:
            self.tries[id(job)] = tries + 1
            self.again.append(job)
            return
        emit(self.lost(job, failure))


class Beside(Generic[Out]):
    """fn(send) in a forked child beside the caller's own work.

    A study reads its agents so while it plays. What the child sends is taken here as it
    comes (`arrived`), never waited for. The child ignores Ctrl-C, dies with its parent and
    ends its players; one that dies ends what it would have sent (`ended`), and `stop()`
    ends it and all under it.
    """

    def __init__(self, fn: Callable[[Callable[[Out], None]], None]):
        """Start fn(send) in a forked child; each item it sends comes to `arrived`."""
        context = fork_context()
        self.conn, theirs = context.Pipe(duplex=False)
        self.ended = False

        def child() -> None:
            _settle_child(os.getppid(), NO_CAPS, quiet_stdout=True, referee=False)
            lock = threading.Lock()  # fn may send from threads of its own

            def send(item: Out) -> None:
                with lock:
                    theirs.send(item)

            try:
                fn(send)
            finally:
                stop_players()

        self.proc = context.Process(target=child, daemon=True)
        self.proc.start()
        theirs.close()

    def arrived(self) -> list[Out]:
        """What the child has sent since the last call (nothing waited for)."""
        out: list[Out] = []
        while not self.ended and _has_data(self.conn):
            try:
                out.append(self.conn.recv())
            except (EOFError, OSError):  # it has ended (or died): nothing more comes
                self.ended = True
        return out

    def stop(self) -> None:
        """The child and everything under it, ended."""
        self.ended = True
        stop_referee(self.proc)
        self.conn.close()


class _Relay:
    """A child's stdout or stderr, relayed to the parent.

    Each write goes to the parent as a message, to be written to the parent's own stream
    (`like` is that stream, asked whether it is a terminal).
    """

    def __init__(self, conn: Connection, number: int, like: TextIO, lock: threading.Lock):
        self.conn, self.number, self.like, self.lock = conn, number, like, lock
        # sys.stdout may be anything a caller put there (a writer without these): probed
        self.encoding = getattr(like, "encoding", None) or "utf-8"
        self.errors = getattr(like, "errors", None) or "strict"

    def write(self, text: str) -> int:
        if text:
            with self.lock:  # a player's output is relayed from a thread of its own
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
        return int(self.like.fileno())


def run_child(fn: Callable[[Clock], Any], caps: Caps,
              quiet_stdout: bool = False) -> tuple[Any, AgentFailed | None]:
    """fn(clock) in a forked child under `caps`.

    Returns (its picklable return value, None), or (None, the failure) when the child had to
    be killed past its deadline or died. Ctrl-C
    here stops the child and raises KeyboardInterrupt. Without fork, fn runs in this process
    (the alarm still caps code that runs Python).
    """
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
        lock = threading.Lock()
        sys.stdout = _Relay(theirs, 2 if quiet_stdout else 1, streams[1 if quiet_stdout else 0],
                            lock)
        sys.stderr = _Relay(theirs, 2, streams[1], lock)
        try:
            outcome: tuple[Any, ...] = ("ok", fn(Clock(caps, watch, own_interrupts=True)))
        except BaseException as e:  # the parent raises it, as if fn had run there
            outcome = ("raise", e)
        stop_players()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        try:
            with lock:
                theirs.send(outcome)
        except Exception:  # an exception that does not pickle: its words still travel
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
                stop_referee(proc)
                return None, lost_failure("", watch, caps, proc.exitcode, killed=True)
    finally:
        stop_referee(proc)
        mine.close()
