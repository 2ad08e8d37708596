"""One broken plug-in game never takes the program down (issue 39, item 3): a plug-in that
exits, interrupts, prints or sleeps at import (or, issue 54, ends its process with os._exit,
kills it, or starts a thread that never ends), whose sniff raises, lies, hangs or claims every
file, or whose name is another game's, is named in one warning line and left out; the other
games work, and `--json` stays JSON."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import logic_agents as la
from logic_agents.cli import main
from logic_agents.errors import ContractError, LogicAgentsError
from logic_agents.world import detect, registry
from logic_agents.world.resolve import shipped_path
from logic_agents.world.trial import trial_import
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


# issue 54: what Python cannot catch in the importing process, tried in a process of its own
_MARKS = "open({mark!r}, 'a').write(str(os.getpid()) + '\\n')\n"
_ENDS = {
    "exit_game": ("import os\n" + _MARKS + "os._exit(0)\n", "ended its process at once with "
                  "exit status 0 (os._exit or the like"),
    "kill_game": ("import os, signal\n" + _MARKS + "os.kill(os.getpid(), signal.SIGKILL)\n",
                  "killed its own process with SIGKILL"),
    "thread_game": ("import os, threading, time\n" + _MARKS + "threading.Thread(target="
                    "time.sleep, args=(600,), name='forever').start()\n",
                    "starts a thread that does not end ('forever', not a daemon)"),
}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_plugin_that_ends_or_holds_its_process_at_import_leaves_every_command_standing(
        tmp_path):
    mark = tmp_path / "pids"
    site = tmp_path / "site"
    for module, (body, _) in _ENDS.items():
        install(site, module, body.format(mark=str(mark)))
    env = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "COLUMNS": "250"}
    runs = [(["games"], 0, list(_ENDS))] + [(["games", "--check", m.replace("_", "-")], 1, [m])
                                            for m in _ENDS]
    for argv, expected, modules in runs:
        done = subprocess.run([sys.executable, "-m", "logic_agents", *argv], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == expected, (argv, done.stderr[-2000:])
        assert "Traceback" not in done.stderr
        for module in modules:
            game, words = module.replace("_", "-"), _ENDS[module][1]
            assert f"plug-in game '{game}' is left out: importing {module}:SPEC {words}" in \
                " ".join(done.stderr.split()), done.stderr
            if expected:  # the check reports it in words, and fails
                assert f"{game}: FAILED  load" in done.stdout
                assert words in " ".join(done.stdout.split())
            else:
                assert "daggers" in done.stdout
    pids = [int(p) for p in mark.read_text().split()]
    assert len(pids) == 2 * len(_ENDS)  # each imported once per command, in its trial only
    assert not any(_alive(pid) for pid in pids), "a trial process outlived its command"


def test_the_trial_of_a_threaded_process_runs_in_a_fresh_interpreter(tmp_path):
    mark = tmp_path / "pids"
    for module, (body, _) in _ENDS.items():
        install(tmp_path / "site", module, body.format(mark=str(mark)))
    holder = threading.Event()
    other = threading.Thread(target=holder.wait, daemon=True)
    other.start()  # a fork of a threaded process may inherit another thread's lock
    try:
        with plugged(tmp_path / "site"):
            for module, (_, words) in _ENDS.items():
                said = trial_import(f"{module}:SPEC", 30.0)
                assert said is not None and words in said, said
            assert trial_import("lights_game:SPEC", 30.0) is None
    finally:
        holder.set()
    assert all(int(pid) != os.getpid() for pid in mark.read_text().split())


def test_a_clean_trial_is_remembered_until_a_file_of_the_plugin_changes(tmp_path):
    """A clean trial costs a fork and a second import on every command; remembered with the
    stamps of the files the import loaded, the next command imports the plug-in once. A
    changed file, or `games --check`, tries it again."""
    mark = tmp_path / "imports"
    site = tmp_path / "site"
    body = ("import os\nopen({mark!r}, 'a').write(str(os.getpid()) + '\\n')\n"
            "from lights_game import SPEC as _L\nimport dataclasses\n"
            "SPEC = dataclasses.replace(_L, name='remembered-game')\n")
    install(site, "remembered_game", body.format(mark=str(mark)))
    env = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "LOGIC_AGENTS_CACHE": str(tmp_path / "cache")}

    def imports(*argv: str) -> int:
        before = len(mark.read_text().split()) if mark.exists() else 0
        done = subprocess.run([sys.executable, "-m", "logic_agents", *argv], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and "remembered-game" in done.stdout, done.stderr
        return len(mark.read_text().split()) - before

    assert imports("games") == 2  # the trial's import, then the command's own
    assert imports("games") == 1  # remembered: the command's own alone
    source = site / "remembered_game.py"
    source.write_text(source.read_text() + "# changed\n")
    assert imports("games") == 2  # a file of it changed: tried again
    assert imports("games") == 1
    # a check tries afresh: its trial, the command's own, and the import-cost probe's
    assert imports("games", "--check", "remembered-game") == 3
