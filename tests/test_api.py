"""The Python API: the calls a notebook or a script makes, with results that name their game
and map, and a namespace without stray names."""

import logic_agents as la


def test_the_namespace_holds_the_api_and_nothing_stray():
    names = {n for n in dir(la) if not n.startswith("_")}
    assert {"load", "play", "compare", "solve", "games", "make_world", "make_agent",
            "run_episode", "LogicAgentsError"} <= names
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
    assert set(la.games()) >= {"daggers", "sudoku", "undead", "mazes", "ooze"}
