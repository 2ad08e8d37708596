"""A class's modules read beside its first games.

A study plays the agents it has read while a process of its own reads the others.

A class of two hundred took a minute and a half to read before its first game (a module
that hangs costs the import cap); the games of the agents read already need not wait.

Concepts:
- Read: what reading one agent found, as data a job carries to its worker: the library
  modules its module read (its server's warm list), or why it does not read (the kind and
  the words its error rows give).
- Reading(spec, entries): a process beside the study (pool.Beside) that describes every
  Unread agent side by side (agents.agent_entry, agents.readers at once) and sends each
  one's Read as it is made; `arrived()` gives those made since, never waits; an agent the
  process did not read (it died) gets a Read that says so; `stop()` ends it.
- read_entry(entry, read): the entry a worker seats: the Unread one as reading found it (a
  RemoteFactory with its warm list, or Unreadable with its words).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from logic_agents.errors import LogicAgentsError
from logic_agents.referee.agents import (
    Unread,
    Unreadable,
    agent_entry,
    named_as,
    readers,
)
from logic_agents.referee.pool import Beside
from logic_agents.referee.remote import RemoteFactory
from logic_agents.world.spec import AgentEntry, GameSpec

DIED = ("ProcessDied", "the process that read the class's modules ended before it read this "
        "one")


@dataclass(frozen=True)
class Read:
    """What reading one agent found: its warm list, or why it does not read (`kind`)."""

    warm: tuple[str, ...] = ()
    kind: str = ""  # "" when it reads
    words: str = ""


def read_of(entry: AgentEntry) -> Read:
    """The Read of an agent just described (agents.agent_entry with broken rows)."""
    factory = entry.factory
    if isinstance(factory, Unreadable):
        return Read(kind=factory.kind, words=factory.message)
    return Read(factory.warm if isinstance(factory, RemoteFactory) else ())


def _read_one(spec: GameSpec, entry: AgentEntry) -> Read:
    """Read one Unread agent (in the Reading's process), whatever that meets."""
    factory = entry.factory
    assert isinstance(factory, Unread)
    try:
        return read_of(agent_entry(spec, named_as(entry.name, factory.reference),
                                   isolation=factory.isolation, broken_rows=True))
    except LogicAgentsError as e:  # what is not a broken module (agents._broken): its words
        return Read(kind=type(e).__name__, words=str(e))


class Reading:
    """The Unread agents of a study, read in a process beside it (see the module's words)."""

    def __init__(self, spec: GameSpec, entries: Mapping[str, AgentEntry]):
        """Start reading `entries` (Unread, by the study's name) in a process beside."""
        self.waiting = dict(entries)  # by the study's name: those not arrived yet
        self.beside: Beside[tuple[str, Read]] = Beside(
            lambda send: _read_all(spec, dict(entries), send))

    @property
    def ended(self) -> bool:
        """Every agent's Read has arrived."""
        return not self.waiting

    def arrived(self) -> list[tuple[str, Read]]:
        """(name, Read) of the agents read since the last call, without waiting."""
        out = [(name, read) for name, read in self.beside.arrived() if name in self.waiting]
        for name, _ in out:
            del self.waiting[name]
        if self.beside.ended and self.waiting:  # it died: the rest are not read
            out += [(name, Read(kind=DIED[0], words=DIED[1])) for name in self.waiting]
            self.waiting.clear()
        return out

    def stop(self) -> None:
        """The reading process, and every player it had started, ended."""
        self.beside.stop()


def _read_all(spec: GameSpec, entries: dict[str, AgentEntry],
              send: Callable[[tuple[str, Read]], None]) -> None:
    """In the Reading's process: each agent described side by side, sent as it is read."""
    # concurrent.futures (and logging with it): in the reading process alone
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(readers(len(entries))) as threads:
        futures = {threads.submit(_read_one, spec, entry): name
                   for name, entry in entries.items()}
        for future in as_completed(futures):
            send((futures[future], future.result()))


def read_entry(entry: AgentEntry, read: Read) -> AgentEntry:
    """The entry a worker seats for an Unread agent, once `read` says what reading found.

    It is kept on the Unread factory (this worker's copy) for its next games.
    """
    factory = entry.factory
    if not isinstance(factory, Unread):
        return entry
    if read not in factory.seated:
        if read.kind:
            factory.seated[read] = AgentEntry(entry.name, Unreadable(
                factory.reference, read.kind, read.words), f"does not read: {read.words}"[:500],
                options=())
        else:  # its prints count against the same budget (made before the workers forked)
            fields = {f.name: getattr(factory, f.name) for f in dataclasses.fields(RemoteFactory)
                      if f.init}
            factory.seated[read] = dataclasses.replace(entry, factory=RemoteFactory(
                **{**fields, "warm": read.warm}))
    seated = factory.seated[read]
    assert isinstance(seated, AgentEntry)
    return seated
