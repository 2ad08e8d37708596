"""check_game: every registered game passes it, and each way a game can break the contract
is caught and named, including a world written to Gymnasium's step contract alone."""

import dataclasses
import json
import random
from pathlib import Path

import pytest

from logic_agents.errors import ContractError
from logic_agents.world.contract import CHECKS, check_game
from logic_agents.world.core import Outcome
from logic_agents.world.registry import get_game, register
from logic_agents.world.runner import run_episode

from ..conftest import project_games


@pytest.mark.parametrize("game", project_games())
def test_every_registered_game_keeps_the_contract(game):
    report = check_game(game)
    assert [r.name for r in report.results] == list(CHECKS)
    assert report.ok, [r for r in report.results if not r.passed]


class GymOnly:
    """A world written to Gymnasium's step contract alone: `terminated` says the episode
    ended, nothing says whether it was won."""

    def __init__(self, inner):
        self.inner = inner

    def reset(self, *, seed=None):
        return self.inner.reset(seed=seed)

    def step(self, action):
        return self.inner.step(action)

    def hidden_state(self):
        return self.inner.hidden_state()


def variant(**changes):
    return dataclasses.replace(get_game("daggers"), **changes)


def failed(report):
    return {r.name: r.detail for r in report.results if not r.passed}


def test_a_gymnasium_world_is_refused_not_mis_scored():
    spec = get_game("daggers")
    gym = variant(make_world=lambda instance, **kw: GymOnly(spec.make_world(instance, **kw)))
    assert "says no outcome" in failed(check_game(gym))["world"]
    world = gym.make_world(spec.instances.read(Path("maps/daggers/2018/EASY1.txt"))[0])
    with pytest.raises(ContractError, match="Outcome.WON, Outcome.LOST or Outcome.ENDED"):
        run_episode(world, spec.make_agent("satx"), seed=0)


def test_a_world_that_shows_its_hidden_state_fails():
    from logic_agents.games.daggers.world import DaggersObservation

    spec = get_game("daggers")

    @dataclasses.dataclass(frozen=True)
    class LeakyObservation(DaggersObservation):
        secret: object = None

    class Leaky(GymOnly):
        outcome = property(lambda self: self.inner.outcome)

        def reset(self, *, seed=None):
            obs, info = self.inner.reset(seed=seed)
            fields = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
            return LeakyObservation(**fields, secret=self.inner.instance), info

    leaky = variant(make_world=lambda instance, **kw: Leaky(spec.make_world(instance, **kw)))
    assert "hidden state" in failed(check_game(leaky))["world"]


def test_a_world_that_ignores_its_seed_fails():
    spec = get_game("ooze")

    class Unseeded(GymOnly):
        outcome = property(lambda self: self.inner.outcome)

        def reset(self, *, seed=None):
            return self.inner.reset(seed=random.randrange(10**9))

    unseeded = dataclasses.replace(
        spec, make_world=lambda instance, **kw: Unseeded(spec.make_world(instance, **kw)))
    assert "reset(seed) gave two different observations" in failed(check_game(unseeded))["world"]


def test_an_action_codec_that_does_not_round_trip_fails():
    spec = get_game("daggers")
    broken = variant(actions=dataclasses.replace(spec.actions, from_json=lambda text: (
        spec.actions.from_json(str(text).replace("probe", "flag")))))
    assert "read back" in failed(check_game(broken))["actions"]


def test_an_instance_codec_that_loses_the_name_fails():
    spec = get_game("daggers")
    broken = variant(instances=dataclasses.replace(spec.instances, format=lambda m: (
        spec.instances.format(dataclasses.replace(m, name="other")))))
    assert "differs" in failed(check_game(broken))["instance"]


def test_a_missing_default_agent_stops_the_other_checks():
    report = check_game(variant(default_agent="nobody"))
    assert "not one of its agents" in failed(report)["spec"]
    assert all(not r.passed for r in report.results if r.name != "load")  # load is apart


def test_games_check_exits_1_and_names_the_failure(capsys):
    from logic_agents.cli import main

    spec = get_game("daggers")
    register(variant(name="gym-daggers", make_world=lambda instance, **kw: GymOnly(
        spec.make_world(instance, **kw))))
    try:
        assert main(["games", "--check", "gym-daggers", "--json"]) == 1
        report = json.loads(capsys.readouterr().out)[0]
        assert report["game"] == "gym-daggers" and not report["ok"]
        world = next(c for c in report["checks"] if c["name"] == "world")
        assert "says no outcome" in world["detail"]
        assert main(["games", "--check", "daggers"]) == 0
        assert "daggers: ok" in capsys.readouterr().out
    finally:
        from logic_agents.world import registry

        registry._GAMES.pop("gym-daggers", None)
        registry._ORIGINS.pop("gym-daggers", None)


def test_outcomes_are_typed_on_every_built_in_world():
    spec = get_game("daggers")
    world = spec.make_world(spec.instances.read(Path("maps/daggers/2018/EASY1.txt"))[0])
    result = run_episode(world, spec.make_agent("satx"), seed=0)
    assert world.outcome is result.outcome and result.outcome in (Outcome.WON, Outcome.LOST)


def test_a_world_base_without_its_hooks_is_refused_when_made():
    from logic_agents.world.base import PuzzleWorld, WorldBase

    class NoObserve(WorldBase):
        def play(self, action):
            return 0.0, {}

    class NoSolved(PuzzleWorld):
        def apply(self, action):
            pass

        def observe(self):
            return ()

    for cls, missing in ((NoObserve, "observe"), (NoSolved, "solved")):
        with pytest.raises(TypeError, match=missing):
            cls() if cls is NoObserve else cls(puzzle=None)
