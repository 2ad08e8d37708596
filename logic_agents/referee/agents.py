"""Which agents the referee seats where: in its own process, or in a player process.

Concepts:
- resolve_agent(spec, reference, isolation): the AgentEntry of a registered name or a
  `file.py:Class` / `module:Class` reference. An agent that `isolation` isolates (by default
  every reference: code the referee did not write) is described by a player process, its code
  never run here, and its factory is a RemoteFactory (a world.seat.Elsewhere); any other is
  world.agents.resolve_agent's, read in this process.
- agent_entry(spec, agent, isolation=...): what the Python API and the command line take
  wherever an agent is named (a name, a reference, a class, a factory, an agent object), under
  `isolation`; agent_entries: a study's, the isolated ones described side by side.
- remote_entry: the entry of an isolated agent, from what its player reported as data.
- named_reference: `NAME=file.py:Class`, a reference played under NAME (a submission's
  folder). distinct_names: a study's agents under names no two share (NAME-2 after a
  clash), with a note for each one renamed.
- Unreadable: the factory of a submission whose module does not read; with `broken_rows`
  such a submission plays (and fails) every game, as error rows that say why, and the study
  goes on.
- Unread: the factory of a named submission not read yet (`later`, reads_later): a study
  plays the agents already read while a process beside it reads these (referee.reading),
  and each of their games carries what reading found (a Read).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from logic_agents.errors import AgentFailed, AgentUnreadable, LogicAgentsError, UsageError
from logic_agents.ground.processes import fork_context
from logic_agents.ground.shapes import Record
from logic_agents.referee.describe import describe
from logic_agents.referee.describe import forget as forget_described
from logic_agents.referee.isolation import DEFAULT_ISOLATION, Isolation, own_files
from logic_agents.referee.owner import owner
from logic_agents.referee.players import stop_players
from logic_agents.referee.remote import RemoteAgent, RemoteFactory
from logic_agents.world import agents as local
from logic_agents.world.calls import Calls
from logic_agents.world.declared import Option
from logic_agents.world.seat import Elsewhere, Seated
from logic_agents.world.spec import AgentEntry, GameSpec, Observations


def resolve_agent(spec: GameSpec, reference: str, isolation: Isolation = DEFAULT_ISOLATION
                  ) -> AgentEntry:
    """The agent an --agent value names, for game `spec`.

    An agent that `isolation` isolates is described by a player process: its code never runs
    here.
    """
    if reference in spec.agents:
        entry = spec.agents[reference]
        if entry.interactive or not isolation.isolates(True, reference):
            return entry
        return AgentEntry(reference, RemoteFactory(spec.name, reference, isolation), entry.help,
                          options=entry.declared())
    if local.is_reference(reference) and isolation.isolates(False, reference):
        return remote_entry(spec, reference, isolation)
    return local.resolve_agent(spec, reference)


def named_reference(text: str) -> tuple[str, str]:
    r"""(the name, the reference) of `NAME=file.py:Class`; ("", text) for anything else.

    A name holds no slash, backslash or colon, so a path with `=` in it is still a path. A
    name that holds `=` writes it `\=` (named_as: a student's folder called `=2+3`).
    """
    cut = 0
    while True:
        cut = text.find("=", cut)
        if cut <= 0 or text[cut - 1] != "\\":
            break
        cut += 1
    if cut < 0:
        return "", text
    name, reference = text[:cut].replace("\\=", "=").strip(), text[cut + 1:]
    if name and ":" in reference and not any(c in name for c in "/\\:"):
        return name, reference.strip()
    return "", text


def named_as(name: str, reference: str) -> str:
    """`NAME=reference`, as named_reference reads it back (a `=` in the name escaped)."""
    return f"{name.replace('=', chr(92) + '=')}={reference}"


@dataclass(frozen=True)
class Unreadable(Elsewhere):
    """The factory of a submission whose module does not read.

    Every game it is seated in ends before the first move, in an error row that says why
    (the module's own file:line); the study goes on.
    """

    reference: str
    kind: str
    message: str

    def make(self, options: dict[str, object], calls: Calls) -> Seated:
        """Never an agent: the reason its module does not read."""
        raise AgentFailed(calls.agent, "import", self.kind, self.message)

    def __call__(self, **options: object) -> Seated:
        """As make()."""
        raise AgentFailed(self.reference, "import", self.kind, self.message)

    def source_file(self) -> str | None:
        """The file the reference names (its hash goes in the study record)."""
        module_text = self.reference.rpartition(":")[0]
        return str(Path(module_text).resolve()) if _names_file(self.reference) and \
            Path(module_text).is_file() else None


@dataclass
class Unread(RemoteFactory):
    """A named submission's factory before its module is read.

    Its file is located (never run); it has its name and caps, no help and no options yet.
    Its games are played once referee.reading has read it, with what that found
    (reading.read_entry); played without it, a game refuses (a referee's bug, said so).
    """

    # what a worker seats once reading has said what it found (reading.read_entry), by Read
    seated: dict[object, object] = field(default_factory=dict, repr=False, compare=False)

    def make(self, options: dict[str, object], calls: Calls) -> RemoteAgent:
        """Never an agent: a game of an agent not read is the referee's mistake."""
        raise LogicAgentsError(f"{self.name or self.reference} was seated before its module "
                               "was read (a bug in logic-agents)")


def reads_later(spec: GameSpec, agent: object, isolation: Isolation) -> bool:
    """Whether `agent` may be read beside a study's first games.

    So may a named submission's file (`NAME=file.py:Class`, a class's folder) that plays in
    a player process, where the platform forks: its name is known before it is read, and a
    module that does not read plays error rows whenever that is found.
    """
    if not isinstance(agent, str) or spec.get(Observations) is None:
        return False
    name, reference = named_reference(agent)
    return bool(name) and reference not in spec.agents and _names_file(reference) and \
        isolation.isolates(False, reference) and \
        fork_context().get_start_method() == "fork"


def _unread(spec: GameSpec, agent: str, isolation: Isolation) -> AgentEntry | None:
    """The entry of a named submission not read yet.

    None where its file is not there: it is read now (its words are quick to find).
    """
    name, reference = named_reference(agent)
    try:
        factory = Unread(spec.name, reference, isolation, name=name)
    except UsageError:
        return None
    return AgentEntry(name, factory, "", options=())


def _broken(error: UsageError, name: str, reference: str) -> bool:
    """Whether `error` makes the agent a broken submission rather than the user's mistake.

    A broken submission's games are error rows; a mistake stops the command.

    A named submission's file (a folder of a class, a glob's match) is the student's:
    whatever keeps it from reading, a missing agent.py too. A file named on the command
    line is broken when it does not read (its syntax, its imports, the import cap, memory);
    a reference to what is not there, or to what is no agent, is the user's typo.
    """
    if not _names_file(reference):
        return False  # a module reference (json:loads): the user's words
    if name:
        return isinstance(error, AgentUnreadable) or "no such file" in str(error)
    return isinstance(error, AgentUnreadable) and error.kind not in NAMING_KINDS


NAMING_KINDS = ("TypeError", "AttributeError")  # a reference that names no agent (check_factory)


def _names_file(reference: str) -> bool:
    return local.names_a_file(reference.rpartition(":")[0])


def renamed(entry: AgentEntry, name: str) -> AgentEntry:
    """`entry` under another name (a submission's folder, or a distinct one after a clash)."""
    factory = entry.factory
    if isinstance(factory, RemoteFactory):  # its prints are shown under the new name too
        factory = dataclasses.replace(factory, name=name, output=None)
    return dataclasses.replace(entry, name=name, factory=factory)


def agent_entry(spec: GameSpec, agent: object, *, instance_ok: bool = False,
                isolation: Isolation = DEFAULT_ISOLATION, broken_rows: bool = False
                ) -> AgentEntry:
    """The AgentEntry of whatever names an agent (world.agents.agent_entry), under `isolation`.

    `NAME=reference` plays the reference under NAME. With `broken_rows`, a file agent whose
    module does not read (errors.AgentUnreadable) is an entry all the same, whose games are
    error rows saying why (Unreadable), named NAME or its reference.
    """
    name, reference = named_reference(agent) if isinstance(agent, str) else ("", agent)
    try:
        entry = local.agent_entry(spec, reference, instance_ok=instance_ok,
                                  resolve=functools.partial(resolve_agent, isolation=isolation))
    except UsageError as e:
        if not broken_rows or not isinstance(reference, str) or not _broken(e, name, reference):
            raise
        words = str(e).removeprefix(f"--agent {reference}: ")
        kind = e.kind if isinstance(e, AgentUnreadable) else "FileNotFoundError"
        entry = AgentEntry(name or reference, Unreadable(reference, kind, words),
                           f"does not read: {words}"[:500], options=())
    return renamed(entry, name) if name else entry


def agent_entries(spec: GameSpec, agents: Sequence[object],
                  isolation: Isolation = DEFAULT_ISOLATION, broken_rows: bool = False,
                  later: bool = False) -> list[AgentEntry]:
    """The entries of a study's agents, in their order, the isolated ones described side by side.

    Each is described by a player process of its own, which mostly waits: a class of a
    hundred is described at the pace of the machine's cores, not one after the other. The
    first error, in the agents' order, is raised (`broken_rows`: see agent_entry). With
    `later` (and `broken_rows`), a named submission (reads_later) is not read here: its entry
    is Unread, for referee.reading to read beside the study's first games.
    """
    isolation.refuse_unsandboxed(others_agents(spec, agents, isolation))
    isolation = dataclasses.replace(isolation, file_only=own_files(_agent_files(agents)))
    unread = {k: entry for k, a in enumerate(agents)
              if later and broken_rows and reads_later(spec, a, isolation)
              and (entry := _unread(spec, str(a), isolation)) is not None}
    read = iter(_side_by_side(spec, [a for k, a in enumerate(agents) if k not in unread],
                              isolation, broken_rows))
    return [unread[k] if k in unread else next(read) for k in range(len(agents))]


def readers(count: int) -> int:
    """How many agents are described at once: each player mostly waits, so two a core."""
    return max(1, min(count, 2 * (os.cpu_count() or 1)))


def _side_by_side(spec: GameSpec, agents: Sequence[object], isolation: Isolation,
                  broken_rows: bool) -> list[AgentEntry]:
    """agent_entries' reading, under the study's isolation (its files' own already)."""
    make = functools.partial(agent_entry, spec, isolation=isolation, broken_rows=broken_rows)
    if sum(isinstance(a, str) for a in agents) < 2:
        return [make(a) for a in agents]
    # concurrent.futures (and logging with it) only where agents are described side by side
    from concurrent.futures import ThreadPoolExecutor

    threads = ThreadPoolExecutor(readers(len(agents)))
    futures = [threads.submit(make, a) for a in agents]
    try:
        return [f.result() for f in futures]
    except BaseException:  # Ctrl-C, or the first that does not read: every player still
        # describing stops now, not at its import cap (a second, not a minute)
        mine = owner()
        mine.stopping = True
        for future in futures:
            future.cancel()
        stop_players()
        forget_described()
        raise
    finally:
        threads.shutdown(wait=True, cancel_futures=True)
        owner().stopping = False


def _agent_files(agents: Sequence[object]) -> list[str]:
    """The files (absolute) of the agents named by a file reference."""
    files = []
    for agent in agents:
        if isinstance(agent, str):
            module_text = named_reference(agent)[1].rpartition(":")[0]
            if local.names_a_file(module_text) and Path(module_text).is_file():
                files.append(str(Path(module_text).resolve()))
    return files


def others_agents(spec: GameSpec, agents: Sequence[object], isolation: Isolation) -> str:
    """Words for a study's isolated agents when they are others', else "".

    Others' are two or more files or modules (a class); a person playing their own file
    beside built-in agents is not a class.
    """
    sources = set()
    for agent in agents:
        if isinstance(agent, str):
            reference = named_reference(agent)[1]
            if isolation.isolates(reference in spec.agents, reference) and \
                    reference not in spec.agents:
                sources.add(reference.rpartition(":")[0])
    return f"{len(sources)} agents' files" if len(sources) >= 2 else ""


def distinct_names(entries: Sequence[AgentEntry], agents: Sequence[object] = ()
                   ) -> tuple[list[AgentEntry], list[str]]:
    """The entries, each under a name no other has, and a note for each one renamed.

    The first of a name keeps it (a registered agent before a student's that took its
    name); the next, named by a reference (a file), are NAME-2, NAME-3, ... Two agents given
    as objects under one name are the caller's mistake: UsageError.
    """
    taken = {e.name for e in entries}
    seen: set[str] = set()
    out, notes = [], []
    for k, entry in enumerate(entries):
        if entry.name not in seen:
            seen.add(entry.name)
            out.append(entry)
            continue
        if not (k < len(agents) and isinstance(agents[k], str)):  # two objects: the caller's
            raise UsageError(f"two agents are named {entry.name!r}; give each its own name "
                             "(a `name` attribute)")
        n = 2
        while f"{entry.name}-{n}" in taken or f"{entry.name}-{n}" in seen:
            n += 1
        new = f"{entry.name}-{n}"
        seen.add(new)
        notes.append(f"{agents[k]} is named {entry.name!r} too; it plays as {new!r}")
        out.append(renamed(entry, new))
    return out, notes


def remote_entry(spec: GameSpec, reference: str, isolation: Isolation) -> AgentEntry:
    """The entry of an agent a player process describes: its name, help and options as data.

    Its factory is a RemoteFactory.
    """
    if spec.get(Observations) is None:
        raise UsageError(f"--agent {reference}: {spec.name} declares no Observations codec, so "
                         "an agent you did not write cannot play it in a player process of its "
                         "own; trust the agent (--trust) to play it in-process, or give the game "
                         "an Observations capability (docs/write-a-game.md)")
    described = describe(spec.name, reference, isolation)
    name = described.get("name")
    warm = described.get("warm")
    factory = RemoteFactory(spec.name, reference, isolation,
                            name=name if isinstance(name, str) and name != reference else "",
                            warm=tuple(w for w in warm if isinstance(w, str))
                            if isinstance(warm, list) else ())
    options = tuple(_option_of(o) for o in described.get("options") or ()
                    if isinstance(o, dict))
    return AgentEntry(reference, factory, str(described.get("help", ""))[:500], options=options)


def _option_of(record: Record) -> Option:
    """An Option a player reported as data (referee.player's _option_record)."""
    kinds = {"bool": bool, "int": int, "float": float, "str": str}
    metavar = record.get("metavar")
    return Option(str(record.get("name", "option")), kinds.get(str(record.get("type")), str),
                  record.get("default"), str(record.get("help", "")),
                  tuple(record.get("choices") or ()),
                  metavar if isinstance(metavar, str) else None,
                  required=record.get("required") is True)
