"""The referee's one way in: how a study's games are refereed, as one value that plays a game.

Concepts:
- Referee: the isolation (who plays in a player process, and how it is contained), the caps
  and the seed policy (the key the agents' seeds are derived with, world.seeds), frozen. It
  travels in a study's settings and its jobs; nothing of it is process-wide.
- Referee.entry(spec, agent): the AgentEntry of a name, a reference, a class or a factory,
  seated by the isolation (referee.agents).
- Referee.play(...): one game: the agent built under the clock, the world made, run_episode
  with the agent's seed derived under the key. What the agent's code or the world's does
  wrong before the first move is an errors.AgentFailed the caller makes a row of; after it,
  the result's outcome.
- Referee.clock(watch) and Referee.pool(...): the Clock a playing process keeps, the Pool of
  compare's workers, under the caps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from logic_agents.errors import AgentFailed, LogicAgentsError
from logic_agents.ground.shapes import Record
from logic_agents.referee.agents import agent_entry, resolve_agent
from logic_agents.referee.clock import DEFAULT_CAPS, Caps, Clock, Watch
from logic_agents.referee.isolation import DEFAULT_ISOLATION, Isolation
from logic_agents.referee.pool import Pool
from logic_agents.world.agents import build_agent
from logic_agents.world.core import EpisodeResult
from logic_agents.world.runner import run_episode
from logic_agents.world.seeds import PUBLIC_KEY
from logic_agents.world.spec import AgentEntry, GameSpec
from logic_agents.world.trace import Trace

Job = TypeVar("Job")
Out = TypeVar("Out")


@dataclass(frozen=True)
class Referee:
    """How games are refereed: who plays where, under which caps, with which seeds."""

    isolation: Isolation = DEFAULT_ISOLATION
    caps: Caps = DEFAULT_CAPS
    agent_key: bytes = PUBLIC_KEY  # the study's key for its agents' seeds (world.seeds)

    def entry(self, spec: GameSpec, agent: object, *, instance_ok: bool = False) -> AgentEntry:
        """The entry of whatever names an agent, seated by this referee's isolation."""
        return agent_entry(spec, agent, instance_ok=instance_ok, isolation=self.isolation)

    def clock(self, watch: Watch | None = None) -> Clock:
        """The clock of a process that plays under these caps (its interrupts are its own)."""
        return Clock(self.caps, watch, own_interrupts=True)

    def play(self, spec: GameSpec, agent: str | AgentEntry, options: Record, instance: object,
             world_options: Record, seed: int | None, clock: Clock, *, map_name: str = "",
             trace: Trace | None = None) -> EpisodeResult:
        """One game of `agent` on `instance`, world seed `seed`, under `clock`.

        Each move is written to `trace`, when one is given.

        Raises:
            AgentFailed: the agent could not be built, or the world could not be made (a row
                the caller writes); everything after the first move is the result's outcome.
        """
        clock.start_game()
        try:
            entry = agent if isinstance(agent, AgentEntry) else resolve_agent(
                spec, agent, self.isolation)
            built = build_agent(entry, dict(options), clock)
        except AgentFailed:
            raise
        except LogicAgentsError as e:  # the agent cannot be had here (a file gone since)
            name = agent.name if isinstance(agent, AgentEntry) else agent
            raise AgentFailed(name, "__init__", type(e).__name__, str(e)) from None
        world = clock.world(lambda: spec.make_world(instance, **dict(world_options)))
        return run_episode(world, built, seed, trace, game=spec.name, map_name=map_name or
                           str(getattr(instance, "name", "")), clock=clock,
                           agent_key=self.agent_key)

    def pool(self, workers: int, play: Callable[[Job, Clock], Out],
             lost: Callable[[Job, AgentFailed], Out], spread: bool = True) -> Pool[Job, Out]:
        """Compare's worker processes, playing under these caps."""
        return Pool(workers, self.caps, play, lost, spread)
