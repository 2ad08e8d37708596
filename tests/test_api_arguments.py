"""The library answers in its own words (issue 39, item 6): every public function checks its
arguments at the door and raises a LogicAgentsError naming the argument; a property test
drives the API with odd values and accepts only results or library errors."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import logic_agents as la
from logic_agents.errors import LogicAgentsError
from logic_agents.games.daggers.agents import SinglePointAgent

ODD = st.one_of(
    st.none(), st.booleans(), st.sampled_from([-1, 0, 1, 2, 10**12, 2**63, -(2**70)]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1.5, math.nan, 1e30]),
    st.text(max_size=4), st.binary(max_size=3), st.lists(st.integers(-2, 2), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(-1, 2), max_size=2),
    st.just(np.int64(3)), st.just(np.float64(2.0)), st.just(object()), st.just(Path("EASY1")),
    st.just(iter(["EASY1"])), st.just(["EASY1"]), st.just("EASY1"), st.just(SinglePointAgent),
)


def only_results_or_library_errors(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except LogicAgentsError as e:
        assert str(e), "a library error says something"
        return e


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_odd_values_give_results_or_library_errors(tmp_path_factory, data):
    which = data.draw(st.sampled_from(["play", "view", "compare", "board", "load", "solve",
                                       "make_world", "make_agent"]))
    odd = data.draw(ODD)
    if which == "play":
        key = data.draw(st.sampled_from(["ref", "agent", "game", "seed", "lives", "trace",
                                         "node_cap"]))
        kwargs = {"ref": "EASY1", key: odd} if key != "node_cap" else {"ref": "EASY1",
                                                                        "agent": "satx",
                                                                        key: odd}
        if key == "trace" and isinstance(odd, (str, Path)) and odd:
            kwargs["trace"] = tmp_path_factory.mktemp("t") / "t.jsonl"
        only_results_or_library_errors(la.play, **kwargs)
    elif which == "view":
        key = data.draw(st.sampled_from(["ref", "agent", "seed", "lives", "output"]))
        kwargs = {"ref": "EASY1", key: odd}
        if key == "output" and isinstance(odd, (str, Path)) and odd:
            kwargs["output"] = tmp_path_factory.mktemp("v") / "v.html"
        only_results_or_library_errors(la.view, **kwargs)
    elif which == "compare":
        key = data.draw(st.sampled_from(["agents", "refs", "runs", "seed", "jobs", "out",
                                         "resume", "agent_options", "world_options",
                                         "progress", "game"]))
        kwargs = {"agents": ["rpx"], "refs": ["EASY1"], "runs": 1, "jobs": 1,
                  "progress": False, key: odd}
        if key == "out" and isinstance(odd, (str, Path)) and odd:
            kwargs["out"] = tmp_path_factory.mktemp("o") / "r.csv"
        if key == "runs" and isinstance(odd, (int, np.integer)) and 2 < odd < 10**7:
            kwargs["runs"] = 3  # a valid count: kept small
        if key == "jobs":
            kwargs["runs"] = 1
        only_results_or_library_errors(la.compare, **kwargs)
    elif which == "board":
        key = data.draw(st.sampled_from(["ref", "seed", "game", "observation"]))
        kwargs = {"ref": "EASY1", key: odd}
        if key == "observation":
            kwargs["game"] = "daggers"
        only_results_or_library_errors(la.board, **kwargs)
    elif which == "load":
        only_results_or_library_errors(la.load, odd, data.draw(st.sampled_from([None, "daggers"])))
    elif which == "solve":
        key = data.draw(st.sampled_from(["ref", "unique", "solver", "game"]))
        only_results_or_library_errors(la.solve, **{"ref": "norvig_easy50:1", key: odd})
    elif which == "make_world":
        key = data.draw(st.sampled_from(["instance", "game", "lives", "banana"]))
        args = {"instance": la.load("EASY1"), "game": "daggers"}
        options = {}
        if key in ("instance", "game"):
            args[key] = odd
        else:
            options[key] = odd
        only_results_or_library_errors(la.make_world, args["instance"], args["game"], **options)
    else:
        key = data.draw(st.sampled_from(["agent", "game", "node_cap"]))
        args = {"agent": "satx", "game": "daggers"}
        options = {}
        if key == "node_cap":
            options[key] = odd
        else:
            args[key] = odd
        only_results_or_library_errors(la.make_agent, args["agent"], args["game"], **options)


class _BadName(SinglePointAgent):
    @property
    def name(self):
        raise RuntimeError("no name for you")


@pytest.mark.parametrize("call, words", [
    (lambda: la.compare(42, ["EASY1"], runs=1), "agents must be an agent or a list"),
    (lambda: la.compare(["spx"], []), "refs is empty"),
    (lambda: la.compare(["spx"], 42), "refs must be a list"),
    (lambda: la.compare(["spx"], ["EASY1"], runs=-1), "runs must be from 1"),
    (lambda: la.compare(["spx"], ["EASY1"], runs="3"), "runs must be a whole number"),
    (lambda: la.compare(["spx"], ["EASY1"], runs=10**12), "runs must be from 1"),
    (lambda: la.compare(["spx"], ["EASY1"], jobs="2"), "jobs must be a whole number"),
    (lambda: la.compare(["spx"], ["EASY1"], agent_options={"spx": None}),
     "agent_options\\['spx'\\] must be a dict"),
    (lambda: la.compare(["spx"], ["EASY1"], out=123), "out must be a file path"),
    (lambda: la.compare(["spx"], ["EASY1"], world_options={"lives": 0}),
     "world_options\\['lives'\\] must be from 1"),
    (lambda: la.compare(["spx"], ["EASY1"], world_options={"lives": "3"}),
     "must be a whole number"),
    (lambda: la.compare(["spx"], ["EASY1"], resume=True), "resume=True continues a results"),
    (lambda: la.board(42, game="daggers"), "ref must be a daggers instance"),
    (lambda: la.make_world(None, "daggers"), "instance must be a daggers instance"),
    (lambda: la.make_world(la.load("EASY1"), "daggers", banana=1), "takes no option 'banana'"),
    (lambda: la.play("EASY1", seed=1.5), "seed must be a whole number"),
    (lambda: la.play("EASY1", lives=1.5), "lives"),
    (lambda: la.play("4x4de:1", lives=3), "lives is for games with lives"),
    (lambda: la.play(42), "ref must name an instance"),
])
def test_odd_arguments_are_named_in_words(call, words):
    with pytest.raises(LogicAgentsError, match=words):
        call()


def test_an_agent_whose_name_raises_is_played_under_its_class_name():
    assert la.play("EASY1", agent=_BadName()).agent == "_BadName"
    assert la.make_agent(_BadName, "daggers") is not None
    study = la.compare([_BadName], ["EASY1"], runs=1, jobs=1, progress=False)
    assert study.rows[0].error == "" and study.rows[0].agent == "_BadName"


def test_a_numpy_seed_is_a_seed():
    assert la.play("EASY1", seed=np.int64(3)).seed == 3
