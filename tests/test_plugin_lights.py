"""The second example plug-in (examples/lights-out, Lights Out), written from
docs/write-a-game.md and world.base alone, driven through its entry point and the public
command line. `make test` installs it."""

import itertools
import json
from importlib import metadata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.cli import main

INSTALLED = any(ep.name == "lights-out"
                for ep in metadata.entry_points(group="logic_agents.games"))
assert INSTALLED, "examples/lights-out is not installed: `make test` installs it (pip install -e)"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_verb_works_on_it(capsys, tmp_path):
    code, out, _ = run(capsys, "games", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert code == 0 and rows["lights-out"]["origin"] == "logic-agents-lights-out"
    # the project's seven (a user's own plug-in installed beside them may add more)
    assert set(rows) >= {"daggers", "sudoku", "undead", "mazes", "ooze", "akari", "lights-out"}
    # the plug-in keeps the contract, through the verb. That every game does, the plug-ins
    # beside the built-in ones, is checked once a game in world/test_contract.py, and
    # `games --check` of every installed game once in test_install.py (on the wheel): the
    # same checks here again cost 17 s, 12 of them Ooze's SAT planner
    code, out, _ = run(capsys, "games", "--check", "lights-out", "--json")
    checked = {row["game"]: row["ok"] for row in json.loads(out)}
    assert code == 0 and checked == {"lights-out": True}, checked
    assert run(capsys, "games", "--check", "lights-out")[0] == 0
    trace = tmp_path / "lights.jsonl"
    code, out, _ = run(capsys, "play", "lights-5x5-a", "--json", "--trace", str(trace))
    played = json.loads(out)
    assert code == 0 and played["won"] is True
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] == played["steps"] > 0
    code, out, _ = run(capsys, "compare", "lights-5x5-a", "lights-5x5-b", "lights-7x7-a",
                       "--agents", "sat,chase", "--runs", "1", "--json")
    summary = json.loads(out)["agents"]
    assert code == 0 and summary["sat"]["wins"] == summary["chase"]["wins"] == 3
    code, out, _ = run(capsys, "view", "lights-7x7-a", "-o", str(tmp_path / "page.html"))
    page = (tmp_path / "page.html").read_text()
    assert code == 0 and 'id="board-wrap"' in page and "lights-7x7-a" in page
    code, out, _ = run(capsys, "maps", "--game", "lights-out", "--json")
    assert code == 0 and [r["name"] for r in json.loads(out)] == [
        "lights-5x5-a", "lights-5x5-b", "lights-7x7-a"]
    code, _, err = run(capsys, "play", "lights-5x5-a", "--agent", "chase", "--node-cap", "x")
    assert code == 2 and "--node-cap" in err


def _solvable(rows):
    from lights_game.board import is_solution, parse

    puzzle = parse("\n".join(rows))
    cells = puzzle.cells()
    return any(is_solution(puzzle, [c for c, p in zip(cells, pattern) if p])
               for pattern in itertools.product((False, True), repeat=len(cells)))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_both_agents_agree_with_brute_force(h, w, data):
    """sat and chase solve a board exactly when some set of presses does (brute force over
    all 2^(h*w)), and what they play is checked by the independent is_solution."""
    from lights_game import SPEC
    from lights_game.board import is_solution, parse

    from logic_agents.world.runner import run_episode

    rows = ["".join(data.draw(st.sampled_from("*.")) for _ in range(w)) for _ in range(h)]
    puzzle = parse("\n".join(rows))
    for agent in ("sat", "chase"):
        presses = []
        result = run_episode(SPEC.make_world(puzzle), SPEC.make_agent(agent), seed=0,
                             on_step=lambda obs, action, reward, out=presses: out.append(
                                 action.cell))
        assert result.won == _solvable(rows), (agent, rows)
        assert result.won == is_solution(puzzle, presses)


def test_bad_files_name_line_and_column(tmp_path):
    from lights_game.board import load

    from logic_agents.errors import FormatError

    bad = tmp_path / "bad.txt"
    bad.write_text("# name: bad\n*.*\n*x*\n")
    with pytest.raises(FormatError, match=r"bad.txt:3:2: 'x' is not a light"):
        load(bad)
