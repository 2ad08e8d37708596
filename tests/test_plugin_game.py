"""The example plug-in game (examples/plugin-game, Akari), driven only through the entry
point and the public command line, as a user's own game would be. `make test` installs it."""

import itertools
import json
import random
from importlib import metadata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.cli import main

INSTALLED = any(ep.name == "akari" for ep in metadata.entry_points(group="logic_agents.games"))
pytestmark = pytest.mark.skipif(
    not INSTALLED and not __import__("os").environ.get("CI_REQUIRE_PLUGIN"),
    reason="examples/plugin-game is not installed (make test installs it)")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_the_plugin_and_its_origin(capsys):
    code, out, _ = run(capsys, "games", "--json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert code == 0 and {"daggers", "sudoku", "undead", "mazes", "ooze", "akari"} <= set(rows)
    akari = rows["akari"]
    assert akari["origin"] == "logic-agents-akari"
    assert {"play", "compare", "cnf", "solve", "replay", "generate"} <= set(akari["verbs"])
    # human play comes through the same door: the plug-in gives a View with Controls
    assert akari["agents"] == ["sat", "dfs", "human"] and akari["example"] == "akari-7x7-a"
    assert all(rows[g]["origin"] == "builtin" for g in ("daggers", "sudoku", "undead", "mazes",
                                                        "ooze"))
    assert {"name", "description", "origin", "agents", "verbs", "example"} <= set(akari)


def test_every_verb_works_on_the_plugin_example(capsys, tmp_path):
    trace = tmp_path / "akari.jsonl"
    code, out, _ = run(capsys, "play", "akari-7x7-a", "--agent", "dfs", "--json",
                       "--trace", str(trace))
    assert code == 0 and json.loads(out)["won"] is True
    code, out, _ = run(capsys, "replay", str(trace), "--json")
    assert code == 0 and json.loads(out)["steps"] == 10
    code, out, _ = run(capsys, "solve", "akari-7x7-a", "akari-10x10-a", "--unique", "--json")
    assert code == 0 and all(json.loads(line)["unique"] for line in out.splitlines())
    cnf = tmp_path / "a.cnf"
    code, out, _ = run(capsys, "cnf", "akari-7x7-a", "-o", str(cnf), "--json")
    assert code == 0 and json.loads(out)["named"] > 0 and "L_r0c0" in cnf.read_text()
    code, out, _ = run(capsys, "compare", "akari-7x7-a", "akari-7x7-b", "--agents", "sat,dfs",
                       "--runs", "2", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["agents"]["sat"]["wins"] == summary["agents"]["dfs"]["wins"] == 4
    code, out, _ = run(capsys, "generate", "akari", "--size", "5x5", "--count", "2", "-o",
                       str(tmp_path / "gen"), "--json")
    files = json.loads(out)["files"]
    assert code == 0 and len(files) == 2
    code, out, _ = run(capsys, "solve", *files, "--unique", "--json")
    assert code == 0 and all(json.loads(line)["unique"] for line in out.splitlines())
    code, _, err = run(capsys, "play", "akari-7x7-a", "--agent", "dfs", "--solver", "cadical195")
    assert code == 2 and "does not take --solver" in err
    code, out, _ = run(capsys, "play", "akari-7x7-a", "--agent", "dfs", "--node-cap", "3",
                       "--quiet")
    assert code == 0 and "GAVE_UP" in out


def _brute_force(puzzle):
    from akari_game.board import is_solution

    whites = puzzle.whites()
    return {frozenset(c for c, on in zip(whites, bits) if on)
            for bits in itertools.product((0, 1), repeat=len(whites))
            if is_solution(puzzle, [c for c, on in zip(whites, bits) if on])}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_the_encoding_agrees_with_brute_force(seed):
    from akari_game.board import AkariPuzzle
    from akari_game.encode import AkariSolver

    rng = random.Random(seed)
    h, w = rng.randint(1, 3), rng.randint(1, 4)
    rows = tuple("".join(rng.choice("....#01234") for _ in range(w)) for _ in range(h))
    puzzle = AkariPuzzle(rows)
    if not puzzle.whites() or len(puzzle.whites()) > 10:
        return
    with AkariSolver(puzzle) as sat:
        found = set(sat.solutions(2 ** len(puzzle.whites())))
    assert found == _brute_force(puzzle)
