"""Fair play, round three (issue 66): the referee fails closed. Each break of the third hostile
round is a test here, with and without the sandbox and at --jobs 1 and 2 where it applies.

- once the world has ended a game, its outcome is the world's: an agent that fails after it
  (its why on the last move, stats(), close()) has a note on its row, never an `error` that
  --retry-errors would play again;
- a row is sealed in the form it is read back in (tests/test_results_files.py).
"""

from __future__ import annotations

import pytest

from logic_agents.games.daggers.board import parse
from logic_agents.games.daggers.world import DaggersAction, DaggersWorld
from logic_agents.referee.isolation import Isolation
from logic_agents.study import batch
from logic_agents.world.core import Outcome
from logic_agents.world.runner import AFTER_THE_GAME, run_episode

from .agents import cheats
from .test_fair_play import cheat
from .test_fair_play_two import SETUPS, _expert


# -- break 3: a loss turned into an error and re-rolled ---------------------------------------
@pytest.mark.parametrize("jobs, sandbox", SETUPS)
def test_a_loss_stays_a_loss_when_stats_or_close_raise_after_it(jobs, sandbox, tmp_path):
    """The row keeps the world's outcome and notes the failure; --retry-errors plays none
    of its games again, so the losses cannot be re-rolled."""
    out = tmp_path / "r.csv"
    agents = ["spx", cheat(cheats.RaisesAfterTheGame)]
    study = dict(runs=3, seed=7, jobs=jobs, out=out, isolation=Isolation(sandbox=sandbox))
    rows = batch.compare(agents, _expert(2), **study)
    spx = [r for r in rows if r.agent == "spx"]
    raising = [r for r in rows if r.agent != "spx"]
    # the same outcomes, game for game (its guesses are in the stats that failed)
    assert outcomes(raising) == outcomes(spx)
    assert not any(r.failed for r in raising) and any(not r.won for r in raising)
    assert all(r.error.startswith(AFTER_THE_GAME) and "stats after a loss" in r.error
               and "(and 1 more)" in r.error for r in raising)
    before = out.read_bytes()
    again = batch.compare(agents, _expert(2), resume=True, retry_errors=True, **study)
    assert out.read_bytes() == before and again == rows  # nothing played again


def outcomes(rows):
    return sorted((r.map, r.run, r.seed, r.outcome, r.won, r.steps) for r in rows)


class _WhyFailsOnTheLastMove:
    """Probes the dagger of a one-life board (the game ends at once), then its why raises."""

    def reset(self, seed=None):
        pass

    def act(self, obs):
        return DaggersAction("probe", (0, 1))

    @property
    def why(self):
        raise RuntimeError("no reason")


def test_a_why_that_fails_on_the_move_that_ends_the_game_is_a_note():
    world = DaggersWorld(parse("name: one\n1 d 1\n"), lives=1)
    result = run_episode(world, _WhyFailsOnTheLastMove(), 0)
    assert result.outcome is Outcome.LOST
    assert result.error.startswith(AFTER_THE_GAME) and "no reason" in result.error
