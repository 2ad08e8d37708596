"""A Gymnasium policy as an agent, so it plays on the shared simulator beside satx.

Concepts:
- PolicyAgent(policy, game, name, encoding=None): `policy(observation, action_mask) -> index`
  (or a policy of one argument, the observation: told apart by its signature, once). It
  sees what the env would show it (the encoding of its first observation, or the one of the
  env it was trained on); an index that means no move the rules allow gives the game up (the
  env would answer it with -1).
- policy_agent(make_policy, game, name): a factory of PolicyAgents, a fresh policy per game.
- UniformRandom, MaskedRandom: two policies to measure against.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from logic_agents.ground.shapes import Record
from logic_agents.gym.encoding import Encoding
from logic_agents.world.registry import get_game


def _takes_mask(policy: Callable[..., object]) -> bool:
    try:
        parameters = inspect.signature(policy).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: the usual two
        return True
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters)


class PolicyAgent:
    """See the module docstring."""

    name = "policy"

    def __init__(self, policy: Callable[..., object], game: str, name: str | None = None,
                 encoding: Encoding | None = None):
        self.policy, self.spec_of_game = policy, get_game(game)
        self.takes_mask = _takes_mask(policy)
        if name is not None:
            self.name = name
        self.trained_on = encoding
        self.encoding = encoding

    def reset(self, seed: int | None = None) -> None:
        self.encoding = self.trained_on
        reset = getattr(self.policy, "reset", None)  # a policy may keep no state
        if callable(reset):
            reset(seed)

    def act(self, obs: object) -> object | None:
        if self.encoding is None:
            self.encoding = Encoding(self.spec_of_game, [obs])
        look = self.encoding.look(obs)
        index = self.policy(look.arrays, look.mask) if self.takes_mask else self.policy(look.arrays)
        if not isinstance(index, (int, np.integer)) or not 0 <= int(index) < len(look.mask) \
                or not look.mask[int(index)]:
            return None
        return self.encoding.action(obs, int(index), look.extent)


def policy_agent(make_policy: Callable[[], Callable[..., object]], game: str,
                 name: str = "policy", encoding: Encoding | None = None
                 ) -> Callable[[], PolicyAgent]:
    """A factory of PolicyAgents (a fresh policy per game, as a study needs), named `name`:
    `la.compare([policy_agent(MaskedRandom, "daggers", "masked-random"), "satx"], ["2018"])`."""

    def make() -> PolicyAgent:
        return PolicyAgent(make_policy(), game, name, encoding)

    make.name = name  # type: ignore[attr-defined]  # what tables call the agent
    return make


class UniformRandom:
    """A policy: a uniformly random index of the whole action space, as
    `env.action_space.sample()` (an index that means no move here gives the game up)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Record, mask: npt.NDArray[np.int8]) -> int:
        return int(self.rng.integers(len(mask)))


class MaskedRandom:
    """A policy: a uniformly random index among the masked-in ones (its own seeded RNG)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Record, mask: npt.NDArray[np.int8]) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))
