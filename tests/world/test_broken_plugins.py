"""One broken plug-in game never takes the program down (issue 39, item 3): a plug-in that
exits, interrupts, prints or sleeps at import, whose sniff raises, lies, hangs or claims every
file, or whose name is another game's, is named in one warning line and left out; the other
games work, and `--json` stays JSON."""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from pathlib import Path

import pytest

import logic_agents as la
from logic_agents.cli import main
from logic_agents.errors import ContractError, LogicAgentsError
from logic_agents.world import detect, registry
from logic_agents.world.resolve import shipped_path
from tests.plugins import install, lights, plugged


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def easy1_copy(tmp_path: Path) -> str:
    target = tmp_path / "mine.txt"
    shutil.copy(shipped_path("EASY1", registry.get_game("daggers")), target)
    return str(target)


@pytest.mark.parametrize("body, words", [
    ("import sys\nsys.exit(5)\n", "called sys.exit(5)"),
    ("raise KeyboardInterrupt\n", "raised KeyboardInterrupt by itself"),
    ("raise ImportError('no such thing')\n", "ImportError: no such thing"),
    ("print('hello from a plug-in')\nSPEC = 42\n", "is int, not the GameSpec"),
])
def test_a_plugin_that_fails_at_import_is_named_and_left_out(tmp_path, capsys, body, words):
    root = install(tmp_path / "site", "bad_game", body)
    with plugged(root):
        code, out, err = run(capsys, "games", "--json")
        assert code == 0
        names = {row["name"] for row in json.loads(out)}  # stdout is JSON, prints or not
        assert {"daggers", "sudoku", "mazes"} <= names and "bad-game" not in names
        assert err.count("warning: plug-in game 'bad-game' is left out") == 1 and words in err
        code, out, err = run(capsys, "play", "EASY1", "--agent", "spx", "--json")
        assert code == 0 and json.loads(out)["map"] == "EASY1"
        code, _, err = run(capsys, "play", "x", "--game", "bad-game")
        assert code == 2 and "installed but broken" in err and words in err


def test_a_plugin_that_sleeps_at_import_is_stopped_at_its_limit(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(registry, "IMPORT_LIMIT_S", 0.5)
    root = install(tmp_path / "site", "slow_game", "import time\ntime.sleep(30)\n")
    with plugged(root):
        started = time.monotonic()
        code, out, err = run(capsys, "maps", "--json")
        assert code == 0 and time.monotonic() - started < 10
        assert "'slow-game' is left out: importing slow_game:SPEC ran past its 0.5 s" in err


@pytest.mark.parametrize("sniff, words", [
    ("def sniff(text, file=None):\n    raise RuntimeError('boom')\n", "RuntimeError: boom"),
    ("def sniff(text, file=None):\n    return '2'\n", "returned '2', not 0, 1 or 2"),
    ("def sniff(text, file=None):\n    import time\n    time.sleep(30)\n", "ran past its 0.3"),
    ("def sniff(text, file=None):\n    import sys\n    sys.exit(3)\n", "called sys.exit(3)"),
])
def test_a_faulty_sniff_is_left_out_of_detection(tmp_path, capsys, monkeypatch, sniff, words):
    monkeypatch.setattr(detect, "SNIFF_LIMIT_S", 0.3)
    source = lights("bad-sniff", "capabilities=tuple(c for c in _LIGHTS.capabilities if type(c)"
                    " is not spec.Detection) + (spec.Detection(sniff),)",
                    before=f"from logic_agents.world import spec\n{sniff}")
    root = install(tmp_path / "site", "bad_sniff", source)
    # a Lights Out board with no `game:` line: no built-in game claims it, so every plug-in's
    # sniff is asked (a map a built-in game is sure of never reaches a plug-in)
    mine = tmp_path / "mine.txt"
    mine.write_text("# name: mine\n.*.\n***\n.*.\n", encoding="utf-8")
    with plugged(root):
        code, out, err = run(capsys, "play", str(mine), "--json")
        assert code == 0 and json.loads(out)["game"] == "lights-out"
        assert "game 'bad-sniff''s sniff is left out of detection" in err and words in err
        code, out, err = run(capsys, "play", str(mine), "--json")
        assert code == 0 and "sniff" not in err  # once per process


def test_a_sniff_that_claims_every_file_cannot_take_another_games_map(tmp_path, capsys):
    source = lights("greedy", "capabilities=tuple(c for c in _LIGHTS.capabilities if type(c) is"
                    " not spec.Detection) + (spec.Detection(lambda text, file=None: 2),)",
                    before="from logic_agents.world import spec\n")
    root = install(tmp_path / "site", "greedy", source)
    mine = easy1_copy(tmp_path)
    lights_map = tmp_path / "lights.txt"
    lights_map.write_text("# game: lights-out\n# name: tiny\n*.\n**\n", encoding="utf-8")
    with plugged(root):
        assert detect.detect_game([mine]) == "daggers"  # greedy cannot read it
        assert detect.detect_game([str(lights_map)]) == "lights-out"  # the file says so
        code, out, err = run(capsys, "play", mine, "--agent", "spx", "--json")
        assert code == 0 and json.loads(out)["map"] == "EASY1"


def test_a_plugin_named_like_a_built_in_game_is_refused_with_both_sources(tmp_path, capsys):
    root = install(tmp_path / "site", "fake_daggers", lights("daggers"), entry="daggers",
                   dist="evil-daggers")
    with plugged(root):
        code, out, err = run(capsys, "games", "--json")
        rows = {row["name"]: row for row in json.loads(out)}
        assert code == 0 and rows["daggers"]["origin"] == "builtin"
        assert "'daggers' from evil-daggers is left out: its name is taken by the game from " \
               "builtin" in err
        assert registry.get_game("daggers").description.startswith("Daggers")


def test_an_entry_point_name_that_is_not_a_game_name_is_refused(tmp_path, capsys):
    root = install(tmp_path / "site", "slashed", lights("slashed"), entry="a/b")
    with plugged(root):
        code, out, err = run(capsys, "games", "--json")
        assert code == 0 and "a/b" not in out and "'a/b' is left out" in err


def test_register_refuses_a_name_that_is_taken_and_a_name_that_is_not_a_name():
    mazes = registry.get_game("mazes")
    copy = dataclasses.replace(registry.get_game("sudoku"), name="mazes")
    with pytest.raises(LogicAgentsError, match="'mazes' is already registered .*replace=True"):
        la.register(copy)
    assert registry.get_game("mazes") is mazes and la.register(mazes) is mazes
    with pytest.raises(ContractError, match="not 7"):
        dataclasses.replace(mazes, name=7)
    with pytest.raises(ContractError, match="objective must be one of win, score"):
        dataclasses.replace(mazes, name="banana-game", objective="banana")
    assert "mazes" in la.registered_games() and all(isinstance(n, str) for n in la.registered_games())
    fresh = dataclasses.replace(mazes, name="mazes-again")
    try:
        assert la.register(fresh) is fresh and la.registered_games()["mazes-again"] is fresh
    finally:
        registry.unregister("mazes-again")
    with pytest.raises(LogicAgentsError, match="installed .*not registered at run time"):
        registry.unregister("mazes")
