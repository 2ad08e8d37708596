"""A player's cgroups: its process and memory caps, and a sweep that finds every process.

Concepts:
- ProcessGroup: a pids cgroup of a player server's own, named `<PID namespace>-<maker
  pid>-<n>` under `logic-agents/` (where this process may make one: as root, or in a
  delegated hierarchy). The kernel refuses a fork past its limit, and kill() finds every
  process in it, whatever session or parent it took. With `memory_bytes`, a memory cgroup
  of the same name too (cgroup v1's memory hierarchy, or v2's memory.max): it counts what
  RLIMIT_DATA does not, shared memory (MAP_SHARED, /dev/shm) and files on the sandbox's
  tmpfs, for the server and every process of its games together.
- memory_cgroups(): whether this machine gives this process memory cgroups (else the memory
  cap is RLIMIT_DATA's alone, and a study says so in one line).
- kill_all(pids): SIGKILL to each (every sweep of the referee's ends in it).
- remove_made_by(pid) / remove_stale(): the groups of a referee process that has ended (a
  worker stopped by its pool; one killed outright), emptied and removed, so nothing its
  players' games started outlives it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import time
from collections.abc import Callable

from logic_agents.referee.owner import owner


def kill_all(pids: set[int]) -> None:
    """SIGKILL every process of `pids` that still runs."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


PIDS_ROOTS = ("/sys/fs/cgroup/pids", "/sys/fs/cgroup")  # cgroup v1's pids hierarchy; v2
MEMORY_ROOTS = ("/sys/fs/cgroup/memory", "/sys/fs/cgroup")  # cgroup v1's memory hierarchy; v2


class ProcessGroup:
    """A pids cgroup of a player's own, where this process may make one.

    That is as root, or in a delegated hierarchy: the kernel refuses its processes a fork
    past `limit`, and `kill()` finds every one of them, whatever session or parent it took.
    Else `path` is None, and the process cap is RLIMIT_NPROC's (which the kernel does not
    apply to root).
    """

    _made = itertools.count(1)  # next() is atomic: servers are started from threads too

    def __init__(self, limit: int, *, path: str | None = None,
                 memory_bytes: int | None = None):
        """A pids cgroup of its own that holds at most `limit` processes.

        Or the one at `path`; with `memory_bytes`, a memory cgroup that holds at most that much.
        """
        self.path: str | None = path
        self.memory: str | None = None  # the memory cgroup (v2: the same folder as `path`)
        if path is not None:
            return
        name = f"{_namespace()}-{os.getpid()}-{next(ProcessGroup._made)}"
        for root in PIDS_ROOTS:
            v1 = root.endswith("/pids") and os.path.isfile(os.path.join(root, "tasks"))
            if not v1 and not _v2_has(root, "pids"):
                continue
            self.path = _made(os.path.join(root, "logic-agents", name), {"pids.max": limit})
            if self.path is not None:
                break
        if memory_bytes:
            self.memory = _memory_group(name, memory_bytes, self.path)

    def join(self) -> None:
        """Move the calling process in (between fork and exec)."""
        for folder in {self.path, self.memory} - {None}:
            with contextlib.suppress(OSError):  # os.open, not open(): no codec after a fork
                fd = os.open(os.path.join(str(folder), "cgroup.procs"), os.O_WRONLY)
                try:
                    os.write(fd, b"0")
                finally:
                    os.close(fd)

    def members(self) -> set[int]:
        """The processes in the group now."""
        if self.path is None:
            return set()
        try:
            with open(os.path.join(self.path, "cgroup.procs")) as f:
                return {int(line) for line in f if line.strip()}
        except (OSError, ValueError):
            return set()

    def kill(self, keep: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        """SIGKILL every process in the group but `keep`."""
        for _ in range(20):
            left = self.members() - keep
            if not left:
                return
            kill_all(left)

    def remove(self) -> None:
        """Remove the group (once it is empty), its memory cgroup too."""
        if self.path is not None:
            self.kill()
        for folder in [f for f in (self.memory, self.path) if f is not None]:
            for _ in range(50):  # the killed take a moment to leave
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)

    @classmethod
    def remove_made_by(cls, pid: int) -> None:
        """Empty and remove every group process `pid` made (it has ended)."""
        for path, maker in _groups():
            if maker == pid:
                cls(0, path=path).remove()

    @classmethod
    def remove_stale(cls, running: Callable[[int], bool]) -> None:
        """Empty and remove every group whose maker has ended (once per process).

        A referee killed outright (SIGKILL) leaves its groups, and in them whatever its
        players' games still ran. `running(pid)`: whether a process runs (containment's,
        where a zombie has ended).
        """
        mine = owner()
        if mine.stale_swept:
            return
        mine.stale_swept = True
        for path, maker in _groups():
            if not running(maker):
                cls(0, path=path).remove()




def _groups() -> list[tuple[str, int]]:
    """Every group made in this PID namespace, with the pid of the process that made it.

    A pid names a process in its own namespace only: a group another container made (where
    the hierarchy is shared) is never judged by our processes, so never removed.
    """
    found, ours = [], _namespace()
    for root in dict.fromkeys((*PIDS_ROOTS, *MEMORY_ROOTS)):
        folder = os.path.join(root, "logic-agents")
        with contextlib.suppress(OSError):
            for name in os.listdir(folder):
                namespace, maker, _ = (name.split("-") + ["", ""])[:3]
                if namespace == ours and maker.isdigit() and \
                        os.path.isdir(os.path.join(folder, name)):
                    found.append((os.path.join(folder, name), int(maker)))
    return found


def _namespace() -> str:
    """This process's PID namespace, as a number (its inode), "pidns" where unknown."""
    try:
        return os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:
        return "pidns"


def _v2_has(root: str, controller: str) -> bool:
    try:
        with open(os.path.join(root, "cgroup.subtree_control")) as f:
            return controller in f.read().split()
    except OSError:
        return False


def _made(path: str, limits: dict[str, int]) -> str | None:
    """The cgroup at `path`, made with `limits` written (file name -> value), or None."""
    try:
        os.makedirs(path, exist_ok=True)
        for file, value in limits.items():
            with open(os.path.join(path, file), "w") as f:
                f.write(str(value))
    except OSError:
        with contextlib.suppress(OSError):
            os.rmdir(path)
        return None
    return path


def _memory_group(name: str, limit: int, pids: str | None) -> str | None:
    """A memory cgroup named `name` that holds at most `limit` bytes.

    Swap is included where the kernel counts it; None where this process may make none.
    """
    for root in MEMORY_ROOTS:
        v1 = root.endswith("/memory") and os.path.isfile(os.path.join(root, "tasks"))
        if v1:
            path = _made(os.path.join(root, "logic-agents", name),
                         {"memory.limit_in_bytes": limit})
            if path is not None:  # and swap, where the kernel accounts for it
                with contextlib.suppress(OSError), \
                        open(os.path.join(path, "memory.memsw.limit_in_bytes"), "w") as f:
                    f.write(str(limit))
                return path
        elif _v2_has(root, "memory"):
            folder = pids if pids is not None and pids.startswith(root + "/") else \
                os.path.join(root, "logic-agents", name)
            path = _made(folder, {"memory.max": limit})
            if path is not None:
                with contextlib.suppress(OSError), \
                        open(os.path.join(path, "memory.swap.max"), "w") as f:
                    f.write("0")
                return path
    return None


@functools.cache
def memory_cgroups() -> bool:
    """Whether this process may make memory cgroups (tried once: one made and removed)."""
    group = _memory_group(f"{_namespace()}-{os.getpid()}-probe", 1 << 30, None)
    if group is None:
        return False
    with contextlib.suppress(OSError):
        os.rmdir(group)
    return True
