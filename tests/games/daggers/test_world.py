"""The Daggers world follows RULES.md section 1 and passes check_world."""

import pytest

from logic_agents.errors import FormatError, IllegalAction
from logic_agents.games.daggers import (
    AGENTS,
    DaggersAction,
    DaggersWorld,
    flag,
    illegal_actions,
    parse,
    probe,
)
from logic_agents.games.daggers.world import COVERED, FLAGGED, HIT
from logic_agents.world.check import check_world
from logic_agents.world.core import Outcome

TINY = parse("name: tiny\n0 1 d\n0 1 1\ng 0 0\n")
TWO = parse("name: two\n0 1 d\n1 2 1\nd 1 0\n")


def test_reset_opens_the_start_cell_and_cascades():
    world = DaggersWorld(TINY)
    obs, info = world.reset(seed=0)
    assert info["starts"] == ((0, 0),)
    # the 0 at [0][0] cascades through the other zeros and the gold; only the dagger stays covered
    assert obs.grid[0] == ("0", "1", COVERED)
    assert world.outcome is Outcome.WON


def test_probe_flag_unflag_and_gold():
    world = DaggersWorld(TWO, lives=2)
    obs, info = world.reset(seed=0)
    assert world.outcome is None
    assert obs.at((0, 0)) == "0" and obs.at((1, 1)) == "2"
    assert obs.at((2, 2)) == COVERED
    obs, reward, term, trunc, info = world.step(flag(0, 2))
    assert obs.at((0, 2)) == FLAGGED and reward == 0 and info["event"] == "flag"
    with pytest.raises(IllegalAction, match="unflag"):
        world.step(probe(0, 2))
    obs, *_ = world.step(DaggersAction("unflag", (0, 2)))
    assert obs.at((0, 2)) == COVERED
    obs, reward, term, trunc, info = world.step(probe(2, 0))
    assert obs.at((2, 0)) == HIT and obs.lives == 1 and reward == -1 and not term
    obs, reward, term, trunc, info = world.step(probe(2, 2))  # a 0 cascades
    assert obs.at((1, 2)) == "1" and obs.at((2, 1)) == "1"
    assert term and world.outcome is Outcome.WON and reward == 1.0
    assert world.summary() == {"lives_left": 1}
    with pytest.raises(IllegalAction, match="ended"):
        world.step(probe(0, 2))


def test_gold_gives_a_life():
    m = parse("name: g\n0 0 0 1 d\n0 g 0 1 1\n0 0 0 0 0\n")
    obs, _ = DaggersWorld(m).reset(seed=0)
    assert obs.lives == 2


def test_losing_the_last_life():
    world = DaggersWorld(TWO)
    world.reset(seed=0)
    obs, reward, term, trunc, info = world.step(probe(0, 2))
    assert term and world.outcome is Outcome.LOST and obs.lives == 0


@pytest.mark.parametrize(
    "action,words",
    [(probe(-1, 0), "off the"), (probe(0, 3), "off the"), (probe(0, 0), "already uncovered"),
     (flag(1, 1), "covered"), (DaggersAction("unflag", (0, 2)), "not flagged"), ("probe 0 0", "not a")],
)
def test_illegal_actions(action, words):
    world = DaggersWorld(TWO)
    world.reset(seed=0)
    with pytest.raises(IllegalAction, match=words):
        world.step(action)


def test_truncation_after_max_steps():
    world = DaggersWorld(TWO, max_steps=2)
    world.reset(seed=0)
    world.step(flag(0, 2))
    _, _, term, trunc, _ = world.step(DaggersAction("unflag", (0, 2)))
    assert trunc and not term


def test_action_json_round_trip():
    action = probe(3, 4)
    assert DaggersAction.from_json(action.to_json()) == action
    with pytest.raises(FormatError):
        DaggersAction.from_json("dig 1 2")


def test_observations_of_hidden_twins_are_equal():
    """Two maps that differ only under covered cells look the same to the agent."""
    a = parse(". . d d\n. . d .\n. . d .\n")
    b = parse(". . d .\n. . d .\n. . d d\n")
    obs_a, _ = DaggersWorld(a).reset(seed=1)
    obs_b, _ = DaggersWorld(b).reset(seed=1)
    assert obs_a == obs_b


@pytest.mark.parametrize("agent", sorted(AGENTS), ids=lambda a: f"agent={a}")
@pytest.mark.parametrize("map_name", ["EASY1", "MEDIUM6", "HARD10"], ids=lambda m: f"map={m}")
def test_check_world(official_maps, agent, map_name):
    instance = official_maps[map_name]
    check_world(lambda: DaggersWorld(instance), lambda: AGENTS[agent](), illegal_actions, seeds=(0, 1))


HEX = parse("name: hex\ntopology: hex\nstart: 0,0 2,2\n"
            ". . . d .\n. . . . .\nd . . . .\n. . . . d\n. d . . .\n")


def test_hex_world_probes_every_hint_and_counts_six_neighbours():
    obs, _ = DaggersWorld(HEX).reset(seed=0)
    assert obs.topology == "hex"
    assert obs.at((2, 2)) == "0" and obs.at((0, 0)) == "0"
    assert len(obs.neighbours[(2, 2)]) == 6
    assert max(int(t) for row in HEX.tokens for t in row if t.isdigit()) <= 6


@pytest.mark.parametrize("agent", sorted(AGENTS), ids=lambda a: f"agent={a}")
def test_check_world_on_hex(agent):
    check_world(lambda: DaggersWorld(HEX), lambda: AGENTS[agent](), illegal_actions, seeds=(0, 1, 2))
