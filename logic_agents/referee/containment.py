"""Containing a player process: its caps, the referee's own role, and how a game is forked.

Concepts:
- caps_before_exec: what runs between fork and exec of a player: a session of its own, the
  parent-death signal, the memory and process caps (its cgroups where the machine gives
  them). Nothing of the agent's has run yet.
- own_this_process / share_core: a referee process of ours (a worker, play's child) is a
  child subreaper (referee.owner records it), so a player's process that double-forks is
  re-parented to it and swept; it is pinned to one core, which its players inherit (they
  take turns with it).
- fork_again: how a player server forks a game's child (its own, in the sandbox too, so it
  can say how the child ended): again while the process cap is full of what the last sweep
  killed.
- The sandbox itself is referee.sandbox's; the process tree and stop_referee,
  referee.process_tree's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable

from logic_agents.referee.cgroups import ProcessGroup
from logic_agents.referee.clock import HEADROOM_MIB
from logic_agents.referee.owner import owner


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

    What the last sweep killed counts to the cap until `reap` (the server, their subreaper)
    reaps it.
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
