"""The player server: one fresh child forked per game of an untrusted agent.

A process that has read the framework and a game, but no agent code. Run as
`python -E -P -m logic_agents.referee.server --control FD` by referee.players (under
bubblewrap where it is installed), never imported by the referee. Nothing an agent does in one
game reaches its next: each game is a child forked from this process's state, every process
a game started is killed before the next is forked, and in the sandbox every place a game can
write (its writable mounts, its System V IPC objects) is put back and proven as the first game
found it (referee.leftovers), or this server serves no other game; without the sandbox a game
has a private TMPDIR, removed after it.

Concepts:
- The control socket (SOCK_SEQPACKET, one message a packet, referee.protocol's classes read
  by referee.wire.Packets and `match`ed): Serve, Fork (the game's socket rides with it,
  SCM_RIGHTS, and the pipe its stack is dumped on), Dump (SIGUSR1 to the game: faulthandler
  writes where the agent is, before a kill), Sweep, Bye.
- warm: the library modules a server reads before its first game besides the game's own, so
  a fork has them already: those that reading the agent's module read when the referee first
  described it, before any game (never what a game asked for, which would carry a bit from
  one game to the next), each checked to lie among the installed libraries, not the agent's
  own files; an agent of the logic layer gets the parts it loads on first use (LOGIC).
- A game's child is this server's own child, in the sandbox and out, and whatever a game
  started and left comes back here too: in the sandbox this server is the PID namespace's
  init (bubblewrap's --as-pid-1), whom the kernel shields from every signal a game sends it
  but those it handles (SIGCHLD, a wakeup); without the sandbox it is a child subreaper.
  sweep() kills every process the game left (in the sandbox: every process of its PID
  namespace but this server; without: every child), then puts back and proves what the game wrote (in the
  sandbox), or removes its TMPDIR (without).
- The game's status pipe (its own channel, as in CPython's forkserver): a SIGCHLD wakes the
  server (signal.set_wakeup_fd, beside the control socket in its select), which reaps the
  game's child and writes Exited(code) there, then closes it; the referee reads it when the
  game's socket ends without an answer. The child closes its copy before any agent code runs.
- The caps (memory, processes) were set before this interpreter started and hold for every
  child; the time caps are the referee's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import importlib
import importlib.util
import io
import os
import select
import shutil
import signal
import site
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from logic_agents.ground.processes import parent_death_signal
from logic_agents.referee import leftovers, protocol
from logic_agents.referee.containment import fork_again
from logic_agents.referee.player import play_one_game
from logic_agents.referee.wire import ORDER_LIMIT, Channel, Packets, WireError
from logic_agents.world.registry import ENTRY_POINT_GROUP, get_game, register
from logic_agents.world.spec import GameSpec

if TYPE_CHECKING:  # read in on_serve, before the freeze (a game's gc never sees it)
    import ctypes

PACKET_LIMIT = 1 << 20  # the largest order a server reads (serve's paths)
MAX_WARM = 2000  # library modules a server reads before its first game
LOGIC = ("logic_agents.logic.formula", "logic_agents.logic.kb", "logic_agents.logic.oracle",
         "logic_agents.logic.card", "sympy", "pysat.solvers", "pysat.card")
SWEEPS = 50  # rounds of killing a game's leftovers (each round reaps what the last orphaned)
LEFTOVERS = "Leftovers"  # the kind of a refusal for what a game left (the referee starts anew)
GONE_WAIT_S = 1.0  # how long a sweep in the sandbox waits for the processes it killed


class Server:
    """The orders of one referee, on its control socket."""

    def __init__(self, control: socket.socket):
        """A server that answers on `control`."""
        self.control = control
        self.serving: protocol.Serve | None = None
        self.spec: GameSpec | None = None
        self.child = 0  # the pid of the last game's child (0: none yet, or reaped)
        self.status = -1  # the write end of its status pipe (-1: written and closed)
        self.temp: str | None = None  # the last game's private TMPDIR (without the sandbox)
        # what each writable mount of the sandbox held before the first game (leftovers)
        self.writable: leftovers.Snapshot = {}
        self.libc: ctypes.CDLL | None = None  # the C library (IPC objects, a subreaper's prctl)
        self.pid = os.getpid()
        # a SIGCHLD writes a byte here (signal.set_wakeup_fd): serve() then reaps the game
        self.wakeup_read, self.wakeup_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def serve(self) -> None:
        """Answer orders until `bye` or the referee goes away.

        What is not an order of a server is the referee's breach: the server exits.
        """
        packets = Packets(self.control, limit=PACKET_LIMIT)
        signal.set_wakeup_fd(self.wakeup_write)
        signal.signal(signal.SIGCHLD, _noted)  # a handler, so that the wakeup byte is written
        while True:
            readable, _, _ = select.select([self.control.fileno(), self.wakeup_read], [], [])
            if self.wakeup_read in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wakeup_read, 4096)
                self._reap_ended()
            if self.control.fileno() not in readable:
                continue
            try:
                order, fds = packets.receive_with_fds(protocol.SERVER_ORDERS, most=3)
            except WireError:
                return
            answer: protocol.Message
            match order:
                case protocol.Bye():
                    for fd in fds:
                        os.close(fd)
                    return
                case protocol.Fork() if len(fds) == 3 and self.spec is not None:
                    # the game's socket, the pipe its stack is dumped on, its status pipe
                    fd, dump, status = fds
                    fds = []
                    try:
                        answer = self.fork(fd, dump, status)
                    except OSError as e:  # the process cap, still full: no game can start
                        for each in (fd, dump, status):
                            os.close(each)
                        answer = protocol.refused(f"no process for the game: {e}")
                case protocol.Dump():
                    answer = self.dump()
                case protocol.Serve() if self.spec is None:
                    answer = self.on_serve(order)
                case protocol.Sweep():  # a game's end: killed and put back; the fork proves
                    self.sweep()
                    answer = protocol.Swept()
                case _:
                    answer = protocol.refused(f"the server cannot follow {order.op!r} now")
            for fd in fds:
                os.close(fd)
            packets.send(answer)
            if isinstance(answer, protocol.Refused) and \
                    isinstance(order, (protocol.Fork, protocol.Serve)):
                return  # fail closed: a sandbox not proven empty serves no other game

    def on_serve(self, order: protocol.Serve) -> protocol.Message:
        """Read the game and the modules agents use; no agent code."""
        for path in reversed(order.paths):
            sys.path.insert(0, path)  # where a module reference's package lies
        try:
            self.spec = _game(order.game, order.spec)
        except Exception as e:  # the game's own code, read here: refused, in its words
            return protocol.refused(f"the game cannot be read: {type(e).__name__}: "
                                    f"{str(e)[:200]}")
        memory = order.memory_cap
        self.serving = dataclasses.replace(
            order, game=self.spec.name, spec=None, warm=[],
            memory_cap=memory if memory is not None and memory > 0 else None)
        self.warm(order.warm)
        import ctypes  # before the freeze below: a game's gc.get_objects() never sees it

        self.libc = ctypes.CDLL(None, use_errno=True)
        if self.serving.sandboxed:
            mounts = leftovers.writable_mounts()
            cannot = leftovers.unsweepable(mounts)
            if cannot:  # fail closed: what a game wrote there would reach the next one
                return protocol.refused("the sandbox has a writable mount that cannot be "
                                        f"emptied between games: {', '.join(cannot)}")
            self.writable = leftovers.snapshot(mounts)
        self.libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: a game's orphans come here
        # (in the sandbox they would anyway: this server is its PID namespace's init)
        gc.collect()
        gc.freeze()  # a child's collections leave the server's objects (and their pages) be
        return protocol.Serving()

    def warm(self, names: list[str]) -> None:
        """Read the library modules among `names` (and the logic layer's lazy parts)."""
        if any(n == "logic_agents.logic" or n.startswith("logic_agents.logic.") for n in names):
            names = [*names, *LOGIC]
        assert self.serving is not None
        agents_own = [str(Path(p).resolve()) for p in self.serving.paths]
        if self.serving.file is not None:
            agents_own.append(str(Path(self.serving.file).resolve().parent))
        for name in names[:MAX_WARM]:
            if name in sys.modules or not all(part.isidentifier() for part in name.split(".")):
                continue
            # the other of the referee's two broad catches: reading a library module ahead
            # of the games may raise anything its own code raises; the game reads it itself
            with contextlib.suppress(Exception):
                found = importlib.util.find_spec(name)
                origin = found.origin if found is not None else None
                if origin in (None, "built-in", "frozen") or _library(origin, agents_own):
                    importlib.import_module(name)

    def fork(self, fd: int, dump: int, status: int) -> protocol.Message:
        """A fresh child plays one game on the socket `fd`.

        On SIGUSR1 it writes its stack to the pipe `dump` (the referee asks, through the
        `dump` order, before it kills a game that ran past a cap); how it ended is written on
        the pipe `status` once it is reaped. Refused when what the last game left cannot be
        removed (the server then exits).
        """
        assert self.serving is not None and self.spec is not None
        left = self.sweep(prove=True)
        if left:
            for each in (fd, dump, status):
                os.close(each)
            return protocol.refused(_left_words(left), LEFTOVERS)
        self._forget_status()  # the last game's child, killed but not yet reaped: unsaid
        self.status = status
        if not self.serving.sandboxed:
            self.temp = tempfile.mkdtemp(prefix="game-", dir=self.serving.temp)
        self.child = fork_again(os.fork, self._reap_ended)
        if self.child == 0:
            self._play(fd, dump)
        os.close(fd)
        os.close(dump)
        return protocol.Forked()

    def dump(self) -> protocol.Message:
        """Have the game's child write where it is (its Python stack) to its dump pipe."""
        if self.child > 0:
            with contextlib.suppress(OSError):
                os.kill(self.child, signal.SIGUSR1)
        return protocol.Dumped()

    def _play(self, fd: int, dump: int = -1) -> NoReturn:
        """The game's child: play on the socket `fd`, then exit (it never returns)."""
        assert self.serving is not None and self.spec is not None
        code = 0
        try:
            # the server's own: the agent cannot speak to it, nor say how the game ended
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for own in (self.status, self.wakeup_read, self.wakeup_write):
                os.close(own)
            self.control.close()
            os.setpgid(0, 0)
            parent_death_signal(self.pid, self.libc)  # this server's death ends the game
            if dump >= 0:  # faulthandler's handler runs in C: it answers a loop stuck in C too
                import faulthandler

                faulthandler.register(signal.SIGUSR1, file=dump, all_threads=True)
            if self.temp is not None:
                os.environ["TMPDIR"] = tempfile.tempdir = self.temp
            play_one_game(Channel(fd, fd, limit=ORDER_LIMIT), self.serving, self.spec)
        except BaseException:
            code = 70
        finally:
            # the streams this process started with (the agent may have put objects of its
            # own in sys.stdout; theirs are not ours to call)
            for stream in (sys.__stdout__, sys.__stderr__):
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    stream.flush()  # type: ignore[union-attr]
            os._exit(code)  # no atexit hook of the agent's runs

    def sweep(self, prove: bool = False) -> list[str]:
        """Kill every process the last game left, then put back what it wrote.

        In the sandbox every writable mount goes back to what it held before the first game
        and every System V IPC object goes; with `prove` (the sweep before each fork) the
        sweep first waits (a second at most) until the killed processes are gone, so that no
        write still under way lands after it, and then proves the result
        (referee.leftovers): what is still there is returned in words, and the server serves
        no other game. At a game's end (the referee's Sweep) it kills and puts back without
        waiting: by the next fork the processes are gone, and the proof binds there. Without
        the sandbox the game's TMPDIR goes ([]: nothing more is proven there); SIGKILL is
        not waited for (a process it reached runs none of the agent's code again).
        """
        self._reap_ended()
        sandboxed = self.serving is not None and self.serving.sandboxed
        killed: set[int] = set()
        for _ in range(SWEEPS):  # each round finds what the last one's processes had started
            alive = [p for p in (_others_in_the_sandbox() if sandboxed else _children())
                     if p not in killed]
            if not alive:
                break
            for pid in alive:
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            killed.update(alive)
        self._reap_ended()
        if not sandboxed:
            if self.temp is not None:
                shutil.rmtree(self.temp, ignore_errors=True)
                self.temp = None
            return []
        if not prove:  # the game's end: put back what it wrote; the next fork proves it
            leftovers.restore(self.writable, self.libc)
            return []
        _wait_until_gone(_others_in_the_sandbox, GONE_WAIT_S)
        self._reap_ended()  # a zombie counts to the process cap until it is reaped
        leftovers.restore(self.writable, self.libc)
        return leftovers.leftovers(self.writable)

    def _reap_ended(self) -> None:
        """Reap the children that have ended (noting how the game's own did)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self._note(pid, status)

    def _note(self, pid: int, status: int) -> None:
        """Say on the game's status pipe how its child ended (once), then close the pipe."""
        if pid != self.child:
            return
        if self.status >= 0:
            with contextlib.suppress(WireError):  # the referee no longer listens
                Channel(-1, self.status).send(
                    protocol.Exited(os.waitstatus_to_exitcode(status)))
        self._forget_status()

    def _forget_status(self) -> None:
        """The game's child is reaped, or no longer ours to say: its status pipe closes."""
        self.child = 0
        if self.status >= 0:
            os.close(self.status)
            self.status = -1


def _noted(signum: int, frame: object) -> None:
    """SIGCHLD's handler: nothing; the wakeup byte it lets through has serve() reap."""


def _left_words(left: list[str]) -> str:
    return ("what a game left in the sandbox could not be removed, so its player serves no "
            f"other game: {'; '.join(left)[:1500]}")


def _wait_until_gone(processes: Callable[[], list[int]], seconds: float) -> None:
    """Wait until none of `processes()` runs (a zombie has ended), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_runs(pid) for pid in processes()):
            return
        time.sleep(0.001)


def _runs(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def _library(origin: str, agents_own: list[str]) -> bool:
    """Whether a module's file lies among the installed libraries, not the agent's files."""
    path = str(Path(origin).resolve())
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages(),
             site.getusersitepackages(), str(Path(__file__).resolve().parent.parent)}
    inside = any(path.startswith(str(Path(root).resolve()) + os.sep) for root in roots if root)
    return inside and not any(path.startswith(own + os.sep) for own in agents_own)


def _others_in_the_sandbox() -> list[int]:
    """Every process of this sandbox (a PID namespace of its own) but us (its init)."""
    ours = {1, os.getpid()}
    with contextlib.suppress(OSError):
        return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in ours]
    return []


def _children() -> list[int]:
    """The pids of this process's children (Linux: /proc/self/task/*/children)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    return found


def _game(name: str, entry_point: object) -> GameSpec:
    """The game's spec, from the entry point the referee named, else looked up as usual.

    No scan of every distribution's metadata: that is a fifth of a player's start.
    """
    if isinstance(entry_point, str) and ":" in entry_point:
        # what its module raises is the game's failure: on_serve refuses with its words
        spec = metadata.EntryPoint(name, entry_point, ENTRY_POINT_GROUP).load()
        if isinstance(spec, GameSpec) and spec.name == name:
            return register(spec, origin="entry point", replace=True)
    return get_game(name)


def _settle_streams() -> None:
    """Standard input reads nothing; standard output goes to standard error (the relay)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    for stream in (sys.stdout, sys.stderr):  # an agent's prints leave as they are made
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(line_buffering=True)


def main() -> None:
    """Serve the referee's orders on the control socket, then exit without atexit hooks."""
    args = sys.argv[1:]
    if len(args) != 2 or args[0] != "--control" or not args[1].isdigit():
        print("usage: python -m logic_agents.referee.server --control FD (the referee starts "
              "this process; it is not a command)", file=sys.stderr)
        raise SystemExit(2)
    _settle_streams()
    server = Server(socket.socket(fileno=int(args[1])))
    code = 0
    try:
        server.serve()
    except Exception as e:  # the server's own failure: said (the relay shows it), exit 70
        print(f"logic-agents player server failed: {type(e).__name__}: {str(e)[:300]}",
              file=sys.stderr)
        code = 70
    server.sweep()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
