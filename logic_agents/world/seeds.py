"""Seeds: a world and its agent draw from independent streams.

Concepts:
- agent_seed(seed, key): the seed an agent's reset is given in a game whose world is reset
  with `seed`. It is a keyed one-way function of it (BLAKE2b in keyed mode), so an agent's
  seed tells nothing about the world's draws: Ooze's piece queue, a world's other randomness,
  or which generated board it plays. Every agent of a paired study gets the same one for the
  same game, so the study stays paired.
- PUBLIC_KEY: the key of a single game (`play`, `view`, the Python API): anyone can derive
  the agent's seed, and the world's seed is the user's own.
- study_key(study_seed): the key of a study. It is derived from the study's seed, so a study
  is reproduced whole from its seed. A secret study seed (compare's default when any agent
  plays isolated) keeps every game's world seed and the key secret; a public one (`--seed N`)
  makes both public.
- SECRET_SEED_BITS: the size of a drawn study seed; 64 bits cannot be searched from an
  agent's seed in a game's time, while a 32-bit one could be.
"""

from __future__ import annotations

import hashlib
import os

PUBLIC_KEY = b""
SECRET_SEED_BITS = 64
_AGENT = b"la-agent-seed"  # BLAKE2b's personalisation: these hashes are no other's
_STUDY = b"la-study-key"


def agent_seed(seed: int | None, key: bytes = PUBLIC_KEY) -> int | None:
    """The agent's seed in a game whose world has `seed` (None stays None), under `key`."""
    if seed is None:
        return None
    digest = hashlib.blake2b(str(seed).encode(), digest_size=4, key=key, person=_AGENT)
    return int.from_bytes(digest.digest(), "big")


def study_key(study_seed: int) -> bytes:
    """The key a study derives its agents' seeds with, from the study's own seed."""
    return hashlib.blake2b(str(study_seed).encode(), digest_size=32, person=_STUDY).digest()


def secret_seed() -> int:
    """A study seed drawn from the operating system's randomness, never shown to a player."""
    return int.from_bytes(os.urandom(SECRET_SEED_BITS // 8), "big")
