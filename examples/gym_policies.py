"""Gymnasium policies as logic-agents agents, for `compare` on the command line.

A policy maps the env's observation (and its action mask) to an action index; PolicyAgent
plays it on the shared simulator, so it meets the same boards as satx (paired seeds):

    logic-agents compare 2018 --agents examples/gym_policies.py:MaskedRandomPolicy,spx,satx

A trained model is a policy too (examples/train_maskable_ppo.py):
`PolicyAgent(lambda obs, mask: int(model.predict(obs, action_masks=mask)[0]), "daggers")`.
"""

from logic_agents.gym import MaskedRandom, PolicyAgent, UniformRandom


class RandomPolicy(PolicyAgent):
    """random: a uniformly random index, as env.action_space.sample()."""

    name = "random"

    def __init__(self) -> None:
        super().__init__(UniformRandom(), "daggers")


class MaskedRandomPolicy(PolicyAgent):
    """masked-random: a uniformly random index among info["action_mask"]."""

    name = "masked-random"

    def __init__(self) -> None:
        super().__init__(MaskedRandom(), "daggers")
