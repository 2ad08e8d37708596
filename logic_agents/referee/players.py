"""Player servers: where an agent the referee does not trust plays.

Concepts:
- Isolation (referee.isolation): who plays in player processes, and how they are contained.
- PlayerServer: a fresh interpreter (`python -E -P -m logic_agents.referee.server`, never a
  fork of the referee), started with its caps already set, optionally inside bubblewrap
  (referee.containment), ordered on a control socket (referee.wire.Packets). It reads the
  game, never the agent; `fork()` gives the socket of a fresh child that reads the agent's
  module and plays one game (referee.player); `ended()` reads how the game's child ended on
  its own status pipe (the server writes it when it reaps the child); `sweep()` kills what a
  game left and empties its temporary files; `where_now()` asks the game where its agent is
  (a faulthandler dump, read before a game past its cap is killed); `stop()` ends the
  server, its games and everything they started.
- stop_players(): every server this process started, stopped (a worker at its end).
"""

from __future__ import annotations

import contextlib
import functools
import os
import select
import shutil
import signal
import site
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TypeVar

from logic_agents.errors import LogicAgentsError, UsageError
from logic_agents.ground.inputs import printable
from logic_agents.referee import protocol
from logic_agents.referee.cgroups import ProcessGroup, kill_all
from logic_agents.referee.clock import HEADROOM_MIB, Caps, signal_hint
from logic_agents.referee.containment import caps_before_exec
from logic_agents.referee.isolation import Isolation, player_environment
from logic_agents.referee.output import OutputBudget, relay
from logic_agents.referee.owner import owner
from logic_agents.referee.process_tree import descendants, parents, running
from logic_agents.referee.sandbox import SANDBOX_OWN, TMPFS_MIB, bwrap_argv
from logic_agents.referee.wire import Channel, Packets, WireError
from logic_agents.world.registry import entry_point_of, get_game
from logic_agents.world.spec import Shipped


def _holds_the_sandboxs_own(file: str) -> bool:
    """Whether the agent's folder is, or holds, a place the sandbox makes for itself.

    An agent saved as /tmp/agent.py would otherwise bring the whole of the machine's /tmp
    over the sandbox's own (read-only, and walked by every sweep): it is shown alone.
    """
    folder = Path(file).parent
    return any(Path(place) == folder or folder in Path(place).parents for place in SANDBOX_OWN)


def _user_site() -> list[str]:
    """The user's site-packages, where `pip install --user` put logic-agents, if it exists."""
    with contextlib.suppress(AttributeError):  # an old virtualenv's site module has none
        folder = site.getusersitepackages()
        if os.path.isdir(folder):
            return [folder]
    return []


def _shipped(game: str) -> list[str]:
    """The folders of shipped instances (the built-in games' and this game's): hidden.

    Raises:
        UsageError: the game declares shipped instances whose folder cannot be had. It
            fails closed: a game whose hidden files cannot be hidden does not run (once, a
            folder that could not be read was simply not hidden).
    """
    folders = [str(Path(__file__).resolve().parent.parent / "maps")]
    shipped = get_game(game).get(Shipped)
    if shipped is not None:
        try:
            folders.append(str(Path(shipped.folder).resolve(strict=True)))
        except (OSError, TypeError, ValueError, RuntimeError) as e:
            raise UsageError(f"{game}: its shipped instances' folder "
                             f"({str(getattr(shipped, 'folder', '?'))[:200]}) cannot be hidden "
                             f"from its players ({type(e).__name__}), so none of its agents "
                             "plays isolated") from None
    return folders


def _package_dir(module: str) -> str | None:
    found = sys.modules.get(module)
    path = getattr(found, "__file__", None)  # a built-in or made module has none
    return str(Path(path).resolve().parent) if path else None


class PlayerServer:
    """One player server, forking a fresh child for each game of one agent (referee.server).

    A fresh interpreter that has read the game and no agent code.
    """

    def __init__(self, game: str, reference: str, file: str | None, paths: list[str],
                 caps: Caps, isolation: Isolation, hidden: list[str],
                 budget: OutputBudget | None = None, warm: tuple[str, ...] = ()):
        """A server for one agent reference of `game`, started and serving.

        `warm`: the library modules its games will need (what describing the agent read).

        What its games print is relayed as `budget` allows (referee.output).

        Raises:
            UsageError: it could not start, or could not read the game in time.
        """
        self.reference = reference
        self.dump_read = -1  # the read end of the last game's dump pipe (where_now)
        self.status_read = -1  # the read end of the last game's status pipe (ended)
        self.isolation = isolation
        self.caps = caps
        self.owner = os.getpid()  # the process that started it, and alone may use it
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # -E: no PYTHON* variable of the user's reaches it; -P (3.11): no working folder on its
        # path. Not -I, which would also drop the user's site-packages (`pip install --user`)
        python = [sys.executable, "-E", *(["-P"] if sys.version_info >= (3, 11) else []),
                  "-m", "logic_agents.referee.server", "--control", str(theirs.fileno())]
        tool = isolation.tool()
        if tool is not None:
            shown = [sys.prefix, sys.base_prefix, sys.exec_prefix, *paths, *_user_site()]
            shown += [d for d in (_package_dir("logic_agents"), _game_dir(game)) if d]
            if file:  # its folder; or, beside another agent of the study, its file alone
                alone = file in isolation.file_only or _holds_the_sandboxs_own(file)
                shown.append(file if alone else str(Path(file).parent))
            workdir = str(Path(file).parent) if file else "/tmp"
            hidden = [*hidden, *isolation.hide, *_shipped(game),
                      *([isolation.output_dir] if isolation.output_dir else [])]
            python = bwrap_argv(tool, shown, hidden, workdir,
                                caps.memory_cap or TMPFS_MIB) + python
        self.sandboxed = tool is not None
        # without the sandbox each game's TMPDIR is made in a folder of the server's, which
        # goes with it however it ends (the sandbox has a /tmp of its own)
        if not self.sandboxed:
            _remove_stale_folders()
        ProcessGroup.remove_stale(running)  # what a referee killed outright left
        self.temp = None if self.sandboxed else tempfile.mkdtemp(
            prefix=f"{TEMP_PREFIX}{os.getpid()}-")
        # the server's own processes (bubblewrap's two, the interpreter) are not the agent's
        # the memory cgroup holds the server and its game together, one headroom above a
        # process's RLIMIT_DATA: a heap that grows meets RLIMIT_DATA first (a MemoryError,
        # in words); shared memory and tmpfs files, which only the cgroup counts, meet it
        self.group = ProcessGroup(
            isolation.max_processes + 3,
            memory_bytes=(caps.memory_cap + 2 * HEADROOM_MIB) << 20 if caps.memory_cap else None)
        try:
            self.proc = subprocess.Popen(
                python, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, pass_fds=(theirs.fileno(),),
                env=player_environment(isolation.env),
                preexec_fn=caps_before_exec(caps.memory_cap, isolation.max_processes,
                                            self.group))
        except OSError as e:
            mine.close()
            if self.temp is not None:
                _remove_folder(self.temp)
            raise UsageError(f"--agent {reference}: the player process could not start: "
                             f"{e}") from None
        finally:
            theirs.close()
        self.control = Packets(mine)
        self._pump = threading.Thread(
            target=relay, args=(self.proc.stdout, budget or OutputBudget(reference, None,
                                                                          isolation.output_dir)),
            daemon=True)
        self._pump.start()
        owner().players[id(self)] = self
        if owner().stopping:  # its describing was stopped as it started: it goes too
            self.stop()
            raise UsageError(f"--agent {reference}: stopped")
        self._serve(game, reference, file, paths, list(warm))

    def _serve(self, game: str, reference: str, file: str | None, paths: list[str],
               warm: list[str]) -> None:
        order = protocol.Serve(game, _entry_point(game), reference, file, paths, os.getcwd(),
                               self.caps.memory_cap, self.sandboxed, self.temp, warm)
        answer = self._order(order, (protocol.Serving,),
                             time.monotonic() + self.isolation.import_timeout, "starting")
        if isinstance(answer, protocol.Refused):
            self.stop()
            raise UsageError(answer.message[:2000])

    def _order(self, message: protocol.Message, expect: tuple[type[A], ...], deadline: float,
               doing: str, fds: tuple[int, ...] = ()) -> A | protocol.Refused:
        """Send an order and wait for its answer: one of `expect`, or Refused.

        After Refused the server has exited; UsageError when the server is lost (stopped).
        """
        try:
            self.control.send(message, fds)
            return self.control.receive((*expect, protocol.Refused), deadline)
        except WireError as e:
            words = str(e) if not (e.timeout or e.closed) else "" if e.timeout else \
                self.exit_words()
            self.stop()
            if e.timeout:
                raise UsageError(f"--agent {self.reference}: its player took more than "
                                 f"its time {doing} (the import cap is "
                                 f"{self.isolation.import_timeout:g} s); its process was "
                                 "killed") from None
            raise UsageError(f"--agent {self.reference}: the player process ended while "
                             f"{doing} ({words})") from None

    def fork(self) -> socket.socket:
        """A fresh child to play one game: the referee's end of its socket.

        Raises:
            UsageError: the server is lost (it is stopped).
        """
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        dump_read, dump_write = os.pipe()  # where the game writes its stack when asked
        os.set_blocking(dump_read, False)
        status_read, status_write = os.pipe()  # where the server says how the game ended
        self._forget_dump()
        self.dump_read, self.status_read = dump_read, status_read
        try:
            answer = self._order(protocol.Fork(), (protocol.Forked,),
                                 time.monotonic() + FORK_TIMEOUT_S, "starting a game",
                                 (theirs.fileno(), dump_write, status_write))
        finally:
            theirs.close()
            os.close(dump_write)
            os.close(status_write)
        if isinstance(answer, protocol.Refused):
            mine.close()
            self.stop()
            if answer.kind == "Leftovers":  # the last game's, not this one's: said once
                _warn_once(f"logic-agents: a player of {self.reference}: {answer.message}")
                raise Unclean(answer.message)
            raise UsageError(f"--agent {self.reference}: its player could not start a game "
                             f"({answer.message[:200]})")
        return mine

    def ended(self, wait: float | None = None) -> str:
        """How the last game's child ended, in words, as its server saw it reap the child.

        Read from the game's own status pipe, waiting at most `wait` seconds (ENDED_WAIT_S
        unless told); "" when the
        server did not say (the child still runs, or the server is gone: its own end is
        said instead).
        """
        if self.status_read < 0:
            return ""
        try:
            code = Channel(self.status_read, -1).receive(
                (protocol.Exited,), time.monotonic() + (ENDED_WAIT_S if wait is None else wait)
            ).code
        except WireError as e:
            if e.timeout:
                return "it closed its socket and still runs"
            return "" if self.alive() else f"its server ended: {self.exit_words()}"
        finally:
            self._forget_dump()
        return f"killed by signal {-code}{signal_hint(code)}" if code < 0 else \
            f"exit code {code}"

    def sweep(self) -> None:
        """Kill what the last game left and empty its temporary files."""
        if not self.alive():
            return
        with contextlib.suppress(UsageError):  # the server is lost: it was stopped
            answer = self._order(protocol.Sweep(), (protocol.Swept,),
                                 time.monotonic() + FORK_TIMEOUT_S, "ending a game")
            if isinstance(answer, protocol.Refused):  # not a sweep's answer: the server is lost
                self.stop()

    def where_now(self) -> str:
        """Where the last game's agent is now, or "" when it cannot say.

        Its Python stack, as faulthandler dumps it (all threads, innermost frame first).

        Asked before the referee kills a game that ran past a cap; the dump is read for at
        most DUMP_WAIT_S and DUMP_LIMIT bytes.
        """
        if self.dump_read < 0 or not self.alive():
            return ""
        try:
            self._order(protocol.Dump(), (protocol.Dumped,), time.monotonic() + DUMP_WAIT_S,
                        "asking where")
        except UsageError:
            return ""
        data = b""
        end = time.monotonic() + DUMP_WAIT_S
        while len(data) < DUMP_LIMIT and (left := end - time.monotonic()) > 0:
            # faulthandler writes the whole dump at once: a short quiet spell ends it
            readable, _, _ = select.select([self.dump_read], [], [], min(left, 0.05)
                                           if data else left)
            if not readable:
                if data:
                    break
                continue
            try:
                chunk = os.read(self.dump_read, DUMP_LIMIT)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        return data[:DUMP_LIMIT].decode("utf-8", "replace")

    def _forget_dump(self) -> None:
        """The last game's pipes (its dump, its status) close."""
        for fd in (self.dump_read, self.status_read):
            if fd >= 0:
                os.close(fd)
        self.dump_read = self.status_read = -1

    def pid(self) -> int:
        """Its process's id."""
        return self.proc.pid

    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.proc.poll() is None

    def exit_words(self) -> str:
        """How the process ended, in words (its exit code or signal)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(0.5)
        code = self.proc.returncode
        if code is None:
            return "still running"
        if code < 0:
            return f"killed by signal {-code}{signal_hint(code)}"
        return f"exit code {code}"

    def stop(self) -> None:
        """The server, its games and everything they started, gone."""
        if owner().players.pop(id(self), None) is None and self.proc.returncode is not None:
            return
        with contextlib.suppress(OSError):
            if self.alive():
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.proc.kill()
        kill_all(descendants({self.proc.pid}))
        self.group.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(2.0)
        self.group.remove()
        _sweep_orphans()
        self._pump.join(1.0)  # what the agent printed is out before its result
        with contextlib.suppress(OSError):
            self.control.sock.close()
        self._forget_dump()
        if self.temp is not None:
            _remove_folder(self.temp)


A = TypeVar("A", bound=protocol.Message)
TEMP_PREFIX = "logic-agents-player-"  # then the pid of the process that made the folder


def _remove_stale_folders() -> None:
    """Remove the games' folders of player servers whose referee process is gone.

    A referee removes its servers' folders when it stops them; one killed with SIGKILL (by a
    cheat without the sandbox, by the user, by the kernel's OOM killer) cannot, and its last
    game's files stayed in the temporary folder. Only this user's folders, named with a pid
    that no process has now, are removed.
    """
    root = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(root):
            pid = name[len(TEMP_PREFIX):].split("-", 1)[0]
            if not name.startswith(TEMP_PREFIX) or not pid.isdigit() or running(int(pid)):
                continue
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                found = os.lstat(path)  # a folder of this user's, never a link to one
                if found.st_uid == os.getuid() and stat.S_ISDIR(found.st_mode):
                    _remove_folder(path)


def _remove_folder(folder: str) -> None:
    """Remove a folder an agent wrote in, whatever modes it left on what it wrote."""
    def writable(function: object, path: str, error: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)

    shutil.rmtree(folder, onerror=writable)


def _sweep_orphans() -> None:
    """Kill what a stopped server's games left that was re-parented to this referee."""
    if not owner().referee:
        return
    for _ in range(5):
        family = parents()
        extra = {p for p, parent in family.items()
                 if parent == os.getpid() and p not in known_players()}
        extra |= descendants(extra, family)
        if not extra:
            return
        kill_all(extra)
        time.sleep(0.01)
        for pid in extra:  # an orphan re-parented here is ours to reap
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)


class Unclean(UsageError):
    """A server that could not prove its sandbox empty after a game.

    It has exited; the next game starts on a fresh one.
    """


@functools.cache
def _warn_once(words: str) -> None:
    """A referee's cleanup that failed, said once a process (what was left, in words)."""
    print(printable(words)[:2000], file=sys.stderr, flush=True)


def _entry_point(game: str) -> str | None:
    """The game's entry point, for the server's fast path; None sends it the usual way.

    One of the referee's two broad catches: a plug-in's distribution metadata can raise
    anything when read, and the usual way (the server's registry) says it in words.
    """
    with contextlib.suppress(Exception):
        return entry_point_of(game)
    return None


def _game_dir(game: str) -> str | None:
    with contextlib.suppress(LogicAgentsError, AttributeError):  # a made world has no module
        module = get_game(game).make_world.__module__.split(".")[0]
        return _package_dir(module)
    return None


FORK_TIMEOUT_S = 30.0  # a server that takes longer to fork a game (or sweep one) is lost
DUMP_WAIT_S = 0.5  # how long the referee waits for a game's stack before its kill
ENDED_WAIT_S = 1.0  # how long the referee waits to hear how a game's child ended
DUMP_LIMIT = 64 << 10  # bytes of a stack dump read


def known_players() -> set[int]:
    """The pids of every player server this process started."""
    return {p.pid() for p in owner().players.values()}


def stop_players() -> None:
    """Stop every player server this process started (a worker at its end)."""
    for player in list(owner().players.values()):
        player.stop()
