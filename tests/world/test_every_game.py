"""The World contract, run over every game of the project with its example instance (a
plug-in a user installed beside them is checked by `games --check`, not by these tests)."""

import pytest

from logic_agents.world.check import check_world
from logic_agents.world.registry import games

from ..conftest import project_games

CASES = [(name, agent) for name in project_games() for agent in games()[name].playing_agents()]


@pytest.mark.parametrize("game,agent", CASES, ids=[f"{g}-{a}" for g, a in CASES])
def test_check_world_for_every_registered_game(game, agent):
    spec = games()[game]
    instance = spec.instances.sample()
    check_world(lambda: spec.make_world(instance), lambda: spec.make_agent(agent),
                spec.actions.illegal, seeds=(0, 1))


@pytest.mark.parametrize("game", project_games())
def test_every_game_names_an_example_that_play_accepts(game, capsys):
    from logic_agents.cli import main

    spec = games()[game]
    assert spec.example, f"{game} names no shipped example"
    assert main(["play", spec.example, "--game", game, "--quiet"]) == 0
    assert main(["play", spec.example, "--quiet"]) == 0  # and it is detected as this game
    assert capsys.readouterr().out.count(spec.default_agent) == 2
