"""compare is generic: it finds every instance file a game loads, groups as asked, and
summarises and plots each game by its objective (win rates, or scores)."""

import json

import pytest

from logic_agents.cli import main

from .conftest import ROOT


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_folder_of_tsv_files_is_every_puzzle_in_them(capsys):
    code, out, _ = run(capsys, "compare", str(ROOT / "maps/undead"), "--agents", "sat",
                       "--runs", "1", "--jobs", "1", "--json")
    sat = json.loads(out)["agents"]["sat"]
    assert code == 0 and sat["games"] > 200 and sat["wins"] == sat["games"]
    assert {"4x4de", "7x7dn"} <= set(sat["groups"])


@pytest.mark.parametrize("group_by,expected", [("map", {"EASY1", "EASY2"}), ("folder", {"2018"}),
                                               ("preset", {"(no preset)"})])
def test_group_by(capsys, group_by, expected):
    code, out, _ = run(capsys, "compare", "EASY1", "EASY2", "--agents", "spx", "--runs", "2",
                       "--jobs", "1", "--group-by", group_by, "--json")
    assert code == 0 and set(json.loads(out)["agents"]["spx"]["groups"]) == expected


def test_a_scored_game_is_summarised_and_plotted_by_score(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "ooze.png"
    code, out, _ = run(capsys, "compare", "ooze", "--agents", "greedy,rbfs", "--runs", "3",
                       "--jobs", "1", "--json", "--plot", str(png))
    summary = json.loads(out)
    assert code == 0 and summary["objective"] == "score"
    assert list(summary["agents"]["greedy"]["groups"]) == ["ooze"]  # not "."
    assert summary["agents"]["greedy"]["score"]["mean"] > 0
    assert png.stat().st_size > 1000
