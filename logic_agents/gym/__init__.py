"""Every game as a Gymnasium environment, and a Gymnasium policy as an agent (extra `gym`).

Concepts:
- Importing this module registers one env per registered game, plug-ins included:
  `gymnasium.make("logic_agents/Daggers-v0", map="beginner")` (`lights-out` is
  LightsOut-v0). Without importing it first, Gymnasium's own "module:id" form imports it:
  `gymnasium.make("logic_agents.gym:logic_agents/Daggers-v0")`.
- GameEnv (env): the boards a seed draws, the checks at the door, the end, the mask,
  `action_masks()`, pickling. Encoding (encoding): the spaces, from the game's View, the one
  picture every viewer draws: small integer channels `kinds`, `numbers`, `glyphs` and the
  `counters` beside the board; one Discrete index of (key, cell) per action.
- render_mode "ansi" (the terminal's drawing, its colours as ANSI sequences) and "rgb_array"
  (tiles in their palette colours, numbers drawn): render.
- SatTeacher (teacher): a wrapper that adds to `info` what the game's SAT reasoning proves:
  the indices of moves proved safe and the cells proved dangerous, labels for imitation and
  curriculum learning.
- PolicyAgent, policy_agent, UniformRandom, MaskedRandom (policy): a policy plays as an agent,
  in `compare`, beside satx, with paired seeds.
- ProbesOnly, probes_only (shaping): the reward and mask a Daggers policy learns to play with
  rather than stall (probes only, a little for each cell opened).
"""

from __future__ import annotations

from logic_agents.errors import DependencyNotInstalled

try:
    import gymnasium  # noqa: F401 - the extra's check, before the modules that need it
    import numpy  # noqa: F401
except ImportError:  # pragma: no cover - exercised without the extra
    raise DependencyNotInstalled(
        "logic_agents.gym needs the 'gym' extra: pip install 'logic-agents[gym]'") from None

from logic_agents.gym.encoding import Encoding
from logic_agents.gym.env import ILLEGAL_REWARD, NAMESPACE, GameEnv, env_id, register_envs
from logic_agents.gym.policy import MaskedRandom, PolicyAgent, UniformRandom, policy_agent
from logic_agents.gym.render import TILE_PIXELS
from logic_agents.gym.shaping import ProbesOnly, probes_only
from logic_agents.gym.teacher import SatTeacher

__all__ = ["ENV_IDS", "ILLEGAL_REWARD", "NAMESPACE", "TILE_PIXELS", "Encoding", "GameEnv",
           "MaskedRandom", "PolicyAgent", "ProbesOnly", "SatTeacher", "UniformRandom",
           "env_id", "policy_agent", "probes_only", "register_envs"]

ENV_IDS = register_envs()
