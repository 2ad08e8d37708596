"""The RNG a world or an agent holds before its first reset: there when read, its own, and
replaced by the seeded one at reset (so it never touches a trajectory)."""

import pickle
import random

from logic_agents.games.daggers.generate import PRESETS, generate_maps
from logic_agents.games.daggers.prob import ProbAgent
from logic_agents.games.daggers.world import DaggersWorld


def test_an_rng_before_reset_is_made_when_read_and_kept():
    agent, other = ProbAgent(), ProbAgent()
    assert "rng" not in vars(agent)  # not made yet: seeding one costs a game's 1%
    rng = agent.rng
    assert isinstance(rng, random.Random) and agent.rng is rng and other.rng is not rng


def test_reset_seeds_its_own_whatever_was_drawn_before():
    board = generate_maps(PRESETS["beginner"], 1, 3, (2, 2), True)[0]
    world, agent = DaggersWorld(board), ProbAgent()
    world.rng.random(), agent.rng.random()  # drawn from before any reset
    agent.reset(7)
    world.reset(seed=7)
    fresh_agent, fresh_world = ProbAgent(), DaggersWorld(board)
    fresh_agent.reset(7)
    fresh_world.reset(seed=7)
    assert agent.rng.random() == fresh_agent.rng.random()
    assert world.rng.random() == fresh_world.rng.random()


def test_an_agent_never_reset_pickles_and_keeps_its_rng():
    agent = ProbAgent()
    drawn = agent.rng.getstate()
    assert pickle.loads(pickle.dumps(agent)).rng.getstate() == drawn
