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
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from logic_agents.errors import UsageError
from logic_agents.ground.shapes import Record
from logic_agents.referee.describe import describe
from logic_agents.referee.isolation import DEFAULT_ISOLATION, Isolation
from logic_agents.referee.remote import RemoteFactory
from logic_agents.world import agents as local
from logic_agents.world.declared import Option
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


def agent_entry(spec: GameSpec, agent: object, *, instance_ok: bool = False,
                isolation: Isolation = DEFAULT_ISOLATION) -> AgentEntry:
    """The AgentEntry of whatever names an agent (world.agents.agent_entry), under `isolation`."""
    return local.agent_entry(spec, agent, instance_ok=instance_ok,
                             resolve=functools.partial(resolve_agent, isolation=isolation))


def agent_entries(spec: GameSpec, agents: Sequence[object],
                  isolation: Isolation = DEFAULT_ISOLATION) -> list[AgentEntry]:
    """The entries of a study's agents, in their order, the isolated ones described side by side.

    Each is described by a player process of its own, which mostly waits: a class of a
    hundred is described at the pace of the machine's cores, not one after the other. The
    first error, in the agents' order, is raised.
    """
    if sum(isinstance(a, str) for a in agents) < 2:
        return [agent_entry(spec, a, isolation=isolation) for a in agents]
    with ThreadPoolExecutor(max(1, min(len(agents), 2 * (os.cpu_count() or 1)))) as threads:
        futures = [threads.submit(agent_entry, spec, a, isolation=isolation) for a in agents]
        return [f.result() for f in futures]


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
