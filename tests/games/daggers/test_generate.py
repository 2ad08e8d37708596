"""Generated maps: the right sizes, hints that open an area, reproducible, loadable."""

import random

import pytest

from logic_agents.errors import GenerationError, UnknownName
from logic_agents.games.daggers import AGENTS, DaggersWorld, format_map, illegal_actions, parse
from logic_agents.games.daggers.generate import PRESETS, generate_map, generate_maps, get_preset
from logic_agents.world.check import check_world
from logic_agents.world.core import Outcome
from logic_agents.world.runner import run_episode


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_make_valid_maps_whose_hints_open_an_area(name):
    preset = PRESETS[name]
    maps = generate_maps(preset, 5, seed=11)
    assert maps == generate_maps(preset, 5, seed=11)
    assert maps != generate_maps(preset, 5, seed=12)
    for m in maps:
        assert (m.height, m.width, m.total_daggers, m.total_gold) == (
            preset.height, preset.width, preset.daggers, preset.gold)
        assert m.topology == preset.topology and m.preset == name
        assert len(m.starts) == (2 if preset.centre_hint else 1)
        for hint in m.starts:
            assert m.token(hint) == "0"  # no dagger on it or around it: it opens an area
        assert parse(format_map(m)) == m


def test_a_safe_start_is_clear_but_its_neighbours_need_not_be():
    preset = PRESETS["expert"]
    maps = generate_maps(preset, 60, seed=5, start=(3, 3), opening=False)
    assert maps == generate_maps(preset, 60, seed=5, start=(3, 3), opening=False)
    assert all(m.starts == ((3, 3),) and m.token((3, 3)).isdigit() for m in maps)
    assert any(m.token((3, 3)) != "0" for m in maps)
    assert all("safe start" in m.comments[0] for m in maps)
    assert all(parse(format_map(m)) == m for m in maps)


def test_impossible_requests_are_refused():
    with pytest.raises(GenerationError, match="do not fit"):
        generate_map(random.Random(0), height=3, width=3, daggers=6)
    with pytest.raises(GenerationError, match="gold"):
        generate_map(random.Random(0), height=3, width=3, daggers=5, gold=1)
    with pytest.raises(UnknownName, match="beginner"):
        get_preset("novice")


def test_agents_play_every_preset_and_the_world_contract_holds():
    for preset in PRESETS.values():
        instance = generate_maps(preset, 1, seed=3)[0]
        for agent in AGENTS:
            result = run_episode(DaggersWorld(instance), AGENTS[agent](), seed=1)
            assert result.outcome in (Outcome.WON, Outcome.LOST), (preset.name, agent)
        if preset.height * preset.width <= 100:
            check_world(lambda i=instance: DaggersWorld(i), lambda: AGENTS["satx"](), illegal_actions,
                        seeds=(0,))
