"""An agent file whose module-level code patches the study it is read by: every game the
step loop plays is lost, every row a loss for the others (tests/test_fair_play.py). In the
referee's process this took spx from 25 wins to 0; in a player process it patches only the
player."""

from logic_agents.games.daggers import world
from logic_agents.games.daggers.agents import SinglePointAgent
from logic_agents.study import batch
from logic_agents.world import runner


def _lose(*args, **kwargs):
    raise RuntimeError("patched")


runner.run_episode = _lose
batch.play_job = _lose
world.DaggersWorld.step = _lose


class Patcher(SinglePointAgent):
    name = "patch-at-import"
