"""Containing a player process: the tools, each made for it, and the sweeps.

Concepts:
- bubblewrap(): the `bwrap` executable where it is installed and works here (a container may
  forbid namespaces), else None. bwrap_argv: a player's sandbox: no network, a new PID
  namespace (everything in it dies with it), read-only libraries and the agent's own folder,
  a private /tmp, hidden folders shown empty and hidden files as /dev/null, nothing else.
- caps_before_exec: what runs between fork and exec of a player: a session of its own, the
  parent-death signal, the memory and process caps. Nothing of the agent's has run yet.
- own_this_process / share_core: a referee process of ours (a worker, play's child) is a
  child subreaper, so a player's process that double-forks is re-parented to it and swept;
  it is pinned to one core, which its players inherit (they take turns with it).
- stop_referee(proc): a worker stopped with every process under it (its players' games).
- descendants / last_pid: the processes under a root, found through /proc; the
  kernel's last process id says cheaply whether any process was created since a game began.
  running(pid): whether a process runs (a zombie does not).
- fork_beside_us / fork_again: how a player server forks a game's child: with CLONE_PARENT
  in the sandbox (the child's parent is the sandbox's init, not the server), and again while
  the process cap is full of what the last sweep killed.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from logic_agents.ground.processes import stop_process
from logic_agents.referee.cgroups import ProcessGroup, kill_all
from logic_agents.referee.clock import HEADROOM_MIB
from logic_agents.referee.owner import owner

SYSTEM_DIRS = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf")
# the size of each of a sandbox's two writable places (/tmp, /dev/shm) without a memory cap;
# with one, each is the cap's size
TMPFS_MIB = 1024


@functools.cache
def bubblewrap() -> str | None:
    """The path of bwrap when it is installed and works here (some containers forbid namespaces)."""
    path = shutil.which("bwrap")
    if path is not None:
        try:
            # what a player's sandbox needs (--size and --remount-ro: bubblewrap 0.5 on)
            done = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-all",
                                   "--die-with-parent", "--size", "1048576", "--tmpfs",
                                   "/tmp", "--remount-ro", "/tmp", "--", "/bin/true"],
                                  capture_output=True, timeout=10)
            path = path if done.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            path = None
    return path


def _inside(path: str, folders: set[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def bwrap_argv(tool: str, shown: list[str], hidden: list[str], workdir: str,
               tmpfs_mib: int = TMPFS_MIB) -> list[str]:
    """The bubblewrap command line a player runs under (its own command follows).

    A game can write in two places only, /tmp and /dev/shm (tmpfs of `tmpfs_mib` MiB each),
    and POSIX message queues (an mqueue file system of the sandbox's own); the sandbox's root,
    /dev and every folder shown or hidden are read-only. The server puts the writable places
    back after each game and proves it (referee.leftovers).
    """
    size = str(tmpfs_mib << 20)
    argv = [tool, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm",
            "--mqueue", "/dev/mqueue", "--remount-ro", "/dev",
            "--size", size, "--tmpfs", "/tmp", "--setenv", "HOME", "/tmp",
            "--setenv", "TMPDIR", "/tmp", "--unsetenv", "PYTHONPATH"]
    for folder in SYSTEM_DIRS:
        argv += ["--ro-bind-try", folder, folder]
    for path in SYSTEM_FILES:
        argv += ["--ro-bind-try", path, path]
    seen: set[str] = set()
    for folder in sorted(shown, key=len):
        if not _inside(folder, seen):
            seen.add(folder)
            argv += ["--ro-bind", folder, folder]
    gone: set[str] = set()
    for path in sorted(hidden, key=len):  # shipped maps, the study's maps and results, --hide
        if not _inside(path, seen) or _inside(workdir, {path}) or _inside(path, gone):
            continue  # not shown anyway; or it holds the agent's own folder, which must show;
            # or it lies in a folder hidden already (read-only and empty)
        gone.add(path)
        if os.path.isdir(path):
            argv += ["--tmpfs", path, "--remount-ro", path]
        elif os.path.isfile(path):
            argv += ["--ro-bind", "/dev/null", path]
    # last: every mount point above is made on the root's tmpfs, which then goes read-only
    # (a game wrote there before: the folders bubblewrap made for the agent's own)
    return [*argv, "--remount-ro", "/", "--chdir", workdir]


def own_this_process(slot: int | None = None) -> None:
    """Make this process (a worker, play's child) a referee that owns its players.

    Orphans of players are re-parented here (a child subreaper), so none escapes the sweep.
    `slot` (a worker's index) picks the core this process and its players will share (see
    share_core).
    """
    mine = owner()
    mine.referee, mine.slot = True, -1 if slot is None else slot
    with contextlib.suppress(OSError, AttributeError):  # no C library, or no prctl (not Linux)
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER




def share_core() -> None:
    """Pin this referee process to one core, which the players it starts inherit.

    A referee and its player take turns (one waits while the other plays), so one core costs
    nothing, and a move's round trip stays on one core. Only a worker of a local pool pins (its
    slot picks the core, so workers spread over the cores); play's child and a Ray task's
    worker, which know nothing of their neighbours, leave the scheduler free.
    """
    mine = owner()
    slot = mine.slot
    if not mine.referee or mine.pinned or slot < 0:
        return
    mine.pinned = True
    with contextlib.suppress(AttributeError, OSError):
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) > 1:
            os.sched_setaffinity(0, {cores[slot % len(cores)]})


def last_pid() -> int:
    """The last process id the kernel handed out (/proc/loadavg), -1 where unknown."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().rsplit(b" ", 1)[1])
    except (OSError, ValueError, IndexError):
        return -1


def _stat_fields(pid: int | str) -> list[bytes]:
    """The fields of /proc/PID/stat after the command name: state, parent pid, ...

    The name may hold ")" itself. Raises OSError (no such process) or IndexError.
    """
    with open(f"/proc/{pid}/stat", "rb") as f:
        return f.read().rsplit(b")", 1)[1].split()


def parents() -> dict[int, int]:
    """{pid: parent pid} of every process this user can see."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                out[int(name)] = int(_stat_fields(name)[1])
            except (OSError, ValueError, IndexError):
                continue
    return out


def running(pid: int) -> bool:
    """Whether process `pid` runs: a zombie (ended, not yet reaped by its parent) does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it runs
        return True
    with contextlib.suppress(OSError, IndexError):
        return _stat_fields(pid)[0] != b"Z"
    return True


def descendants(roots: set[int], family: dict[int, int] | None = None) -> set[int]:
    """Every process under `roots` (`family`: a parents() reading, else a new one)."""
    children: dict[int, list[int]] = {}
    for pid, parent in (parents() if family is None else family).items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def stop_referee(proc: Any) -> None:
    """Stop a referee process of ours (a worker; a multiprocessing Process) and all under it.

    SIGTERM ends it at once (leave_signals_to), before it can stop its player servers; they
    die with it, but a game one had forked ran on under init (a student's endless loop, after
    a Ctrl-C). So what runs under it is killed first (while each pid is still its process, not
    one a later process was given), and once it has ended its cgroups are emptied and removed.
    """
    with contextlib.suppress(OSError):  # no /proc (not Linux): the parent-death signal alone
        kill_all(descendants({proc.pid}) if proc.pid else set())
    stop_process(proc)
    if proc.pid:
        ProcessGroup.remove_made_by(proc.pid)


def caps_before_exec(memory_mib: int | None, max_processes: int,
                     group: ProcessGroup | None = None) -> Callable[[], None]:
    """What runs in the child between fork and exec.

    A session of its own, death with the referee, the memory and process caps (its own pids
    cgroup where there is one). Nothing of the agent's has run yet.
    """
    parent = os.getpid()
    try:
        users = sum(1 for p in os.listdir("/proc") if p.isdigit())
    except OSError:
        users = 0
    # imported and opened here, in the parent: between fork and exec the child must take no
    # lock another thread of the parent may have held at the fork (the import lock, the
    # dynamic loader's), or it waits forever (agents are described side by side, by threads)
    import resource

    libc = None
    with contextlib.suppress(OSError):  # no C library to load: no parent-death signal
        import ctypes

        libc = ctypes.CDLL(None)

    def settle() -> None:
        os.setsid()
        if group is not None:
            group.join()
        if libc is not None:
            with contextlib.suppress(AttributeError):  # no prctl: not Linux
                libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if memory_mib:
            limit = (memory_mib + HEADROOM_MIB) << 20
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        # counted per user, what runs already and the cap: only where no pids cgroup counts
        # the player's own processes (on a busy machine an agent once got 0 of its 4)
        if users and max_processes and (group is None or group.path is None):
            limit = users + max_processes + 8
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))

    return settle


FORK_WAIT_S = 2.0  # how long a fork waits for the last game's killed processes to be reaped


def fork_again(fork: Callable[[], int], reap: Callable[[], None]) -> int:
    """fork(), tried again for at most FORK_WAIT_S while the process cap is full.

    What the last sweep killed counts to the cap until it is reaped (by the sandbox's init,
    or by `reap`: this server, the subreaper without the sandbox).
    """
    waited = 0.0
    while True:
        try:
            return fork()
        except BlockingIOError:
            if waited >= FORK_WAIT_S:
                raise
            time.sleep(0.002)
            waited += 0.002
            reap()


CLONE_PARENT = 0x8000
SYS_CLONE = {"x86_64": 56, "aarch64": 220}


def fork_beside_us() -> int:
    """fork(), but the child's parent is ours: the sandbox's init (clone with CLONE_PARENT).

    As os.fork does, with the interpreter's own before- and after-fork steps around the
    system call, which runs holding the GIL. -1 where it cannot be had (another machine):
    the caller forks twice instead.
    """
    number = SYS_CLONE.get(os.uname().machine)
    if number is None or sys.platform != "linux":
        return -1
    try:
        import ctypes

        api = ctypes.pythonapi
        syscall = ctypes.PyDLL(None, use_errno=True).syscall
        syscall.restype = ctypes.c_long
        syscall.argtypes = [ctypes.c_long] * 6
    except (ImportError, OSError, AttributeError):
        return -1
    api.PyOS_BeforeFork()
    pid = syscall(number, CLONE_PARENT | signal.SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        api.PyOS_AfterFork_Child()
        return 0
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        code = ctypes.get_errno()
        if code in (errno.EAGAIN, errno.ENOMEM):  # the process cap, full of the last game's
            raise BlockingIOError(code, os.strerror(code))  # dead until its init reaps them
        return -1
    return int(pid)
