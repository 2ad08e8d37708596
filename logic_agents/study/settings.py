"""How a study is played: everything but who plays and on what, in one frozen object.

Concepts:
- StudySettings: runs per agent and map, the study seed (each game's seed is drawn from it:
  a number, "random", or None for a secret one when any agent plays isolated, else 0),
  workers, the game, the results file and whether to resume it (and to play its failed games
  again), the backend (process pool or Ray, at an address), per-agent and world options, the
  caps and who plays isolated, and whether an agent that does not read stops the study.
  batch.compare takes one; `replace` gives a changed copy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import DEFAULT_CAPS, Caps
from logic_agents.referee.isolation import Isolation

BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class StudySettings:
    runs: int = 10
    # a whole number (public: anyone can rebuild the games), "random" (drawn, kept secret), or
    # None: "random" when any agent plays in a player process, else 0 (study.seeding.study_seed)
    seed: int | str | None = None
    seed_secret: bool = False  # the seed was drawn here: never shown on a page or to a player
    # whether the user asked for this seed (--seed): None says so for a whole-number `seed`;
    # a caller that resolved the seed itself (the command line) passes what the user gave
    seed_asked: bool | None = None
    jobs: int | None = None  # worker processes (None: one per core)
    game: str | None = None  # None: the game the instances belong to
    out: str | Path | None = None  # the results file rows stream to (CSV or JSON lines)
    resume: bool = False  # continue `out`, keeping the games it holds
    retry_errors: bool = False  # on resume, play again the games an agent failed
    only: tuple[str, ...] = ()  # on resume, read and play these agents alone (study.regrade)
    backend: str = "process"  # one of BACKENDS
    address: str | None = None  # the Ray cluster's (backend "ray")
    agent_options: Mapping[str, Record] = field(default_factory=dict)  # agent -> options
    world_options: Record = field(default_factory=dict)
    caps: Caps = DEFAULT_CAPS
    isolation: Isolation | None = None  # who plays in a player process (None: the default)
    # a file agent whose module does not read stops the study (else: its games are error rows)
    stop_on_broken: bool = False

    def replace(self, **changes: object) -> StudySettings:
        """A copy with `changes` (their names as the fields'); an unknown name is a
        TypeError that names it."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
