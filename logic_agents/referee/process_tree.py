"""The processes under a referee, found through /proc, and a worker stopped with all of them.

Concepts:
- parents / descendants: every process's parent, and the processes under a set of roots
  (read while each pid is still that process, so no pid handed out later is hit).
- running(pid): whether a process runs (a zombie has ended); last_pid: the kernel's last
  process id, which says cheaply whether any process was created since a game began.
- stop_referee(proc): a worker stopped with every process under it (its players' games),
  then the pids cgroups it made removed; without /proc, the parent-death signal does it.
"""

from __future__ import annotations

import contextlib
import os
from multiprocessing.process import BaseProcess

from logic_agents.ground.processes import stop_process
from logic_agents.referee.cgroups import ProcessGroup, kill_all


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


def stop_referee(proc: BaseProcess) -> None:
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
