"""Reward shaping a Daggers policy needs to learn to play, not to stall.

Concepts:
- ProbesOnly(env, per_cell=0.05): a wrapper of a Daggers env. The world's reward alone (+1 a
  win, -1 a dagger hit) teaches a policy that may flag to flag and unflag one cell until the
  step cap, which never loses (examples/train_maskable_ppo.py's first run learnt exactly
  that: 1% wins). So its mask keeps the probes only (the primary key's indices, the first
  `len(encoding.cells)`), and each step adds `per_cell` for every cell a probe opened.
  `probes_only(mask, encoding)` is that mask, for a trained policy playing as an agent.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from logic_agents.errors import UsageError
from logic_agents.gym.encoding import Encoding
from logic_agents.gym.env import GameEnv


def probes_only(mask: npt.NDArray[np.int8], encoding: Encoding) -> npt.NDArray[np.int8]:
    """The mask less every index of a key other than the primary one (a probe)."""
    out = mask.copy()
    out[len(encoding.cells):] = 0
    return out


class ProbesOnly(gymnasium.Wrapper):  # type: ignore[misc, unused-ignore]
    """Probes only, and `per_cell` for each cell a probe opens (see the module's words)."""

    def __init__(self, env: gymnasium.Env[Any, Any], per_cell: float = 0.05) -> None:
        """Wrap a Daggers env (`gymnasium.make("logic_agents/Daggers-v0", ...)`)."""
        super().__init__(env)
        kinds = getattr(env.unwrapped, "kinds", ())
        if "covered" not in kinds:
            raise UsageError("ProbesOnly wraps a Daggers env (its board has covered cells)")
        self.covered_kind = list(kinds).index("covered")
        self.per_cell = float(per_cell)
        self.left = 0

    def _covered(self, obs: dict[str, Any]) -> int:
        return int((obs["kinds"] == self.covered_kind).sum())

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.left = self._covered(obs)
        info["action_mask"] = self.action_masks()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        now = self._covered(obs)
        reward = float(reward) + self.per_cell * max(0, self.left - now)
        self.left = now
        info["action_mask"] = self.action_masks()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The env's mask, probes only (what MaskablePPO reads)."""
        inner = self.env.unwrapped
        if not isinstance(inner, GameEnv):
            raise UsageError("ProbesOnly wraps a logic-agents env")
        return probes_only(inner.action_masks(), inner.encoding)
