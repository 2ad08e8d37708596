"""Who owns which processes: one Owner per referee process, and no registry beside it.

A worker of `compare`, `play`'s child and any process that plays isolated games holds the
player servers it started, and what it promised about them (its core, its sweep of stale
groups), in one object of its own. A forked child never uses its parent's: `owner()` is this
pid's, made on first use, so what a worker inherited from the study's process (which may have
described agents with servers of its own) is never taken for its own.

Concepts:
- Owner: `referee` (own_this_process made this process a child subreaper that owns its
  players' orphans), `slot` (the core it pins to, share_core), `pinned`, `players` (every
  player server it started and has not stopped, by id), `servers` (the servers it keeps for
  its agents' next games, the least recently used first: referee.remote), `stale_swept`
  (the cgroups of ended referees removed once: referee.cgroups), `stopping` (agents being
  described side by side were stopped: Ctrl-C, or the first that does not read).
- owner(): this process's Owner.
"""

from __future__ import annotations

import functools
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Protocol


class Player(Protocol):
    """What an owner asks of a player server it holds (referee.players.PlayerServer)."""

    owner: int  # the pid of the process that started it

    def alive(self) -> bool:
        """Whether its process still runs."""

    def stop(self) -> None:
        """The server, its games and everything they started, gone."""

    def pid(self) -> int:
        """Its process's id."""


@dataclass
class Owner:
    """What one referee process owns."""

    pid: int
    referee: bool = False
    slot: int = -1
    pinned: bool = False
    players: dict[int, Player] = field(default_factory=dict)  # by id()
    servers: OrderedDict[tuple[object, ...], Player] = field(default_factory=OrderedDict)
    stale_swept: bool = False
    stopping: bool = False  # its describing was stopped: no player server starts meanwhile


@functools.cache
def _owner_of(pid: int) -> Owner:
    return Owner(pid)


def owner() -> Owner:
    """This process's Owner (a forked child gets one of its own)."""
    return _owner_of(os.getpid())
