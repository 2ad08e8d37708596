"""A study's seeds: which games it plays, and what its players may learn of them.

Concepts:
- seed_for(seed, map, run): the world's seed in run `run` on `map`, the same for every agent
  (paired); stable across processes and Python versions (unlike hash()).
- study_seed(seed, isolated, out, resume) -> StudySeed: the study's seed, whether it is
  secret and whether the user asked for it. A whole number is public; "random", or no seed
  when any agent plays in a player process (read or not), is drawn from the operating
  system's randomness and never shown (world.seeds.secret_seed); a resume takes the seed of
  the study it continues, and refuses a public seed nobody asked for where agents play
  isolated.
- plays_isolated(game, agents, isolation): whether any agent plays in a player process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class StudySeed:
    """A study's seed, whether it is secret, and whether the user asked for it (`--seed`)."""

    value: int
    secret: bool
    asked: bool


def study_seed(seed: int | str | None, isolated: bool, out: str | Path | None = None,
               resume: bool = False) -> StudySeed:
    """The study's seed, from what the user gave.

    A whole number is public, and asked for. "random", or None when any agent plays isolated
    (whether or not its module reads), is drawn from the operating system's randomness
    (world.seeds.secret_seed) and kept secret; a resume takes the seed of the study it
    continues from its record. None with only trusted agents is 0, as before.

    Raises:
        UsageError: a resume of a study with an isolated agent whose record holds a public
            seed that nobody asked for (a study of an older version whose file agents did not
            read was given the public seed 0, and its players could rebuild its boards).
    """
    if isinstance(seed, int) and not isinstance(seed, bool):
        return StudySeed(seed, False, True)
    if seed not in (None, "random"):
        raise UsageError(f"seed must be a whole number or 'random', not {seed!r}")
    if resume and out is not None:
        held = read_study(Path(out))
        value = held.get("seed")
        if isinstance(value, int) and not isinstance(value, bool):
            secret, asked = held.get("seed_secret") is True, held.get("seed_asked") is True
            if isolated and not secret and not asked and seed is None:
                raise UsageError(
                    f"{out}: its study has the public seed {value}, which nobody asked for "
                    "(--seed), and agents that play in player processes: they could rebuild "
                    f"its games. Start a new --out for a secret seed, or give --seed {value} "
                    "to go on with it in public")
            return StudySeed(value, secret, asked)
    if seed == "random" or isolated:
        return StudySeed(secret_seed(), True, False)
    return StudySeed(0, False, False)


def seed_for(seed: int, map_name: str, run: int) -> int:
    """hash(S, m, i): stable across processes and Python versions (unlike hash())."""
    digest = hashlib.blake2b(f"{seed}:{map_name}:{run}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")
