"""The World contract, run over every registered game with its example instance."""

import pytest

from logic_agents.world.check import check_world
from logic_agents.world.registry import games

CASES = [(name, agent) for name, spec in sorted(games().items()) for agent in spec.agents]


@pytest.mark.parametrize("game,agent", CASES, ids=[f"{g}-{a}" for g, a in CASES])
def test_check_world_for_every_registered_game(game, agent):
    spec = games()[game]
    assert spec.example is not None, f"{game} registers no example instance"
    instance = spec.example()
    check_world(lambda: spec.make_world(instance), lambda: spec.make_agent(agent),
                spec.illegal_actions, seeds=(0, 1))
