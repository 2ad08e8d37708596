"""A study's seeds: which games it plays, and what its players may learn of them.

Concepts:
- seed_for(seed, map, run): the world's seed in run `run` on `map`, the same for every agent
  (paired); stable across processes and Python versions (unlike hash()).
- study_seed(seed, isolated, out, resume): the study's seed and whether it is secret. A whole
  number is public; "random", or no seed when any agent plays in a player process, is drawn
  from the operating system's randomness and never shown (world.seeds.secret_seed); a resume
  takes the seed of the study it continues.
- plays_isolated(game, agents, isolation): whether any agent plays in a player process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from logic_agents.errors import UsageError
from logic_agents.referee.isolation import Isolation
from logic_agents.study.record import read_study
from logic_agents.world.agents import is_reference
from logic_agents.world.registry import get_game
from logic_agents.world.seeds import secret_seed


def plays_isolated(game: str, agents: Sequence[object], isolation: Isolation) -> bool:
    """Whether any of `agents` (names, references, objects) plays in a player process."""
    registered = get_game(game).agents
    return any(isinstance(a, str) and (a in registered or is_reference(a))
               and isolation.isolates(a in registered, a) for a in agents)


def study_seed(seed: int | str | None, isolated: bool, out: str | Path | None = None,
               resume: bool = False) -> tuple[int, bool]:
    """(the study's seed, whether it is secret), from what the user gave.

    A whole number is public. "random", or None when any agent plays isolated, is drawn
    from the operating system's randomness (world.seeds.secret_seed) and kept secret; a
    resume takes the seed of the study it continues from its record. None with only trusted
    agents is 0, as before.
    """
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed, False
    if seed not in (None, "random"):
        raise UsageError(f"seed must be a whole number or 'random', not {seed!r}")
    if resume and out is not None:
        held = read_study(Path(out))
        value = held.get("seed")
        if isinstance(value, int) and not isinstance(value, bool):
            return value, held.get("seed_secret") is True
    if seed == "random" or isolated:
        return secret_seed(), True
    return 0, False


def seed_for(seed: int, map_name: str, run: int) -> int:
    """hash(S, m, i): stable across processes and Python versions (unlike hash())."""
    digest = hashlib.blake2b(f"{seed}:{map_name}:{run}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")
