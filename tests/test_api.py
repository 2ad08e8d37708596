"""The Python API: the calls a notebook or a script makes, with results that name their game
and map, and a namespace without stray names."""

import html
import re

import pytest

import logic_agents as la


def test_the_namespace_holds_the_api_and_nothing_stray():
    names = {n for n in dir(la) if not n.startswith("_")}
    assert {"load", "play", "compare", "solve", "registered_games", "make_world", "make_agent",
            "run_episode", "LogicAgentsError", "games"} <= names
    assert not names & {"Any", "Path", "annotations"}
    for name in ("load", "play", "compare", "solve", "make_world", "make_agent"):
        assert getattr(la, name).__doc__, name


def test_play_names_its_game_and_map_and_takes_file_agents():
    result = la.play("HARD1", agent="satx", seed=0)
    assert (result.game, result.map, result.won) == ("daggers", "HARD1", True)
    same = la.play("maps/daggers/2018/HARD1.txt", agent="satx", seed=0)
    assert (same.steps, same.outcome) == (result.steps, result.outcome)
    mine = la.play("EASY2", agent="examples/my_agent.py:MyAgent", seed=1)
    assert mine.agent == "my-agent" and mine.game == "daggers"


def test_compare_and_solve():
    summary = la.compare(["spx", "satx"], ["EASY1", "EASY2"], runs=4, jobs=1)
    assert summary["objective"] == "win" and summary["agents"]["satx"]["games"] == 8
    result = la.solve("norvig_top95:1")
    assert result.status == "unique" and len(result.solution) == 81
    assert set(la.registered_games()) >= {"daggers", "sudoku", "undead", "mazes", "ooze"}


class _Mine:
    """An agent written in a notebook: the single-point strategy under another name."""

    name = "mine"

    def reset(self, seed=None):
        from logic_agents.games.daggers.agents import SinglePointAgent

        self.inner = SinglePointAgent()
        self.inner.reset(seed)

    def act(self, observation):
        return self.inner.act(observation)


def test_objects_in_wherever_an_agent_is_named():
    """Issue 27: classes, factories and (for one episode) instances, named by their `name`."""
    from logic_agents.games.daggers.agents import SinglePointAgent

    by_name = la.play("EASY1", agent="spx", seed=1)
    for agent in (SinglePointAgent, SinglePointAgent(), lambda: SinglePointAgent()):
        result = la.play("EASY1", agent=agent, seed=1)
        assert (result.agent, result.steps, result.outcome) == ("spx", by_name.steps,
                                                                by_name.outcome)
    assert la.play("EASY1", agent=_Mine, seed=1).agent == "mine"
    assert isinstance(la.make_agent(SinglePointAgent, "daggers"), SinglePointAgent)
    summary = la.compare([_Mine, "spx", "satx"], ["EASY1", "EASY2"], runs=2, jobs=2)
    assert list(summary["agents"]) == ["mine", "spx", "satx"]
    assert summary["agents"]["mine"]["wins"] == summary["agents"]["spx"]["wins"]  # same play


def test_mistakes_in_naming_agents_are_the_librarys_errors():
    import pytest

    from logic_agents.games.daggers.agents import SinglePointAgent

    for agents, words in (([], "at least one agent"), ([object()], "is not an agent"),
                          ([SinglePointAgent()], "fresh agent for each"),
                          ([_Mine, _Mine], "two agents are named 'mine'")):
        with pytest.raises(la.LogicAgentsError, match=words):
            la.compare(agents, ["EASY1"], runs=1)
    with pytest.raises(la.LogicAgentsError, match="is not an agent"):
        la.play("EASY1", agent=42)


def test_a_game_registers_at_run_time():
    from logic_agents.world.registry import get_game

    spec = get_game("daggers")
    assert la.register(spec) is spec and "register" in la.__all__


def test_view_takes_objects_and_returns_the_page(tmp_path):
    from logic_agents.games.daggers.agents import SinglePointAgent

    out = tmp_path / "page.html"
    page = la.view("EASY1", agent=SinglePointAgent, output=out)
    assert page.startswith("<!DOCTYPE html>") and out.read_text(encoding="utf-8") == page
    assert "EASY1" in page and "spx" in page
    assert "view" in la.__all__ and la.view.__doc__


def test_compare_returns_a_study_for_notebooks(monkeypatch):
    study = la.compare(["spx", "satx"], ["EASY1", "EASY2"], runs=3, jobs=1)
    assert isinstance(study, la.Study) and len(study.rows) == 12
    assert {r.agent for r in study.rows} == {"spx", "satx"} and study.objective == "win"
    assert study.pairs == study.summary.pairs and study.pairs[0]["paired_games"] == 6
    assert [p.to_json() for p in study.pairs] == study["pairs"] == study.summary["pairs"]
    assert study.pairs[0].paired_games == 6 and study.summary.objective == "win"
    frame = study.to_pandas()
    assert len(frame) == 12 and {"agent", "map", "seed", "outcome", "won"} <= set(frame.columns)
    assert frame.groupby("agent")["won"].sum()["satx"] == study["agents"]["satx"]["wins"]
    page = study._repr_html_()
    assert page.startswith("<!") and "satx" in page
    assert [m["map"] for m in study.by_map] == ["EASY1", "EASY2"]
    assert study.meta["call"].startswith("logic_agents.compare(['spx', 'satx'], ['EASY1'")
    assert html.escape(study.meta["call"]) in page
    assert not re.search(r"(src|href)=\"https?:", page)  # no network
    assert repr(study) == "<Study daggers: 12 games of spx, satx>"
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)
    with pytest.raises(la.LogicAgentsError, match=r"pip install 'logic-agents\[pandas\]'"):
        study.to_pandas()


def test_tab_completion_shows_the_public_names():
    import logic_agents.logic as logic
    import logic_agents.world as world

    for module in (logic, world):
        listed = dir(module)
        assert set(module.__all__) <= set(listed)
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{module.__name__}.{name}"
    assert {"KnowledgeBase", "SatOracle", "Exactly", "sym"} <= set(logic.__all__)
    assert {"GameSpec", "WorldBase", "PlanningAgent", "check_game", "Puzzle"} <= set(world.__all__)


def test_a_scored_study_shows_score_and_time_per_map():
    study = la.compare(["greedy", "rbfs"], ["ooze"], runs=2, jobs=1)
    (entry,) = study.by_map
    scores = {a: [r.score for r in study.rows if r.agent == a] for a in ("greedy", "rbfs")}
    for agent, mine in scores.items():
        assert entry["agents"][agent]["score"]["mean"] == sum(mine) / 2
    (pair,) = study.pairs
    assert pair["difference"] == (sum(scores["greedy"]) - sum(scores["rbfs"])) / 2
    table = re.search(r'<table id="maps".*?</table>', study.to_html(), re.S).group(0)
    assert "greedy score [95% CI]" in table and "rbfs time/game s" in table


def test_the_game_is_inferred_where_it_is_unique():
    """Issue 41: `make_world(instance)` finds the game from the instance's type and
    `make_agent("satx")` from a registered name only one game has; otherwise the error asks
    for game= and says why."""
    import pytest

    from logic_agents.errors import UsageError

    instance = la.load("maps/daggers/2018/HARD1.txt")
    result = la.run_episode(la.make_world(instance), la.make_agent("satx"), seed=0)
    assert result.won and result.steps > 0
    # the games that have a `sat` agent, whatever plug-ins are installed (issue 54: a user's
    # own plug-in game turned this red when the list was written out here)
    with_sat = sorted(n for n, s in la.registered_games().items() if "sat" in s.agents)
    with pytest.raises(UsageError, match="give game=.*" + re.escape(", ".join(with_sat))):
        la.make_agent("sat")
    with pytest.raises(UsageError, match="give game=.*no registered game"):
        la.make_world(3)
    with pytest.raises(UsageError, match="backend must be one of process, ray"):
        la.compare(["spx"], ["EASY1"], backend="spark")


def test_print_study_is_the_table_compare_prints_and_pandas_rows_are_in_order():
    """Issue 41: `print(study)` shows what `compare` prints, not the object's repr, and
    to_pandas() orders its rows by agent, map (EASY2 before EASY10) and run."""
    study = la.compare(["spx", "satx"], ["EASY10", "EASY2", "EASY1"], runs=3, seed=5, jobs=2,
                       progress=False)
    text = str(study)
    assert text.startswith(" ") or "3 maps x 3 runs, seed 5 (paired)" in text.splitlines()[0]
    assert "win rate % [95% CI]" in text and "satx means per game" in text
    assert "\x1b[" not in text and repr(study).startswith("<Study daggers")
    frame = study.to_pandas()
    assert list(frame["agent"]) == ["spx"] * 9 + ["satx"] * 9
    assert list(frame["map"][:9]) == ["EASY1"] * 3 + ["EASY2"] * 3 + ["EASY10"] * 3
    assert list(frame["run"][:3]) == [0, 1, 2]
