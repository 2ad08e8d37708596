"""The first hour, round three (issue 54): what a new user types works from where they stand.

A path under the checkout's maps/ (maps/daggers/2018/HARD1.txt, as every page writes it)
names the package's shipped map in every verb and in the API, from any folder, so from an
installed wheel too; an example plug-in's game or map, asked for before it is installed, says
how to install it.
"""

from __future__ import annotations

import json

import pytest

import logic_agents as la
from logic_agents.cli import main
from logic_agents.world.detect import _undetected
from logic_agents.world.examples import example_plugin_hint
from logic_agents.world.registry import get_game


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A folder with no maps/ in it: where a user of the wheel stands."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_path_under_maps_names_the_shipped_map_from_anywhere(elsewhere, capsys):
    assert main(["play", "maps/daggers/2018/HARD1.txt", "--agent", "satx", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["map"] == "HARD1"
    assert main(["play", "maps/daggers/2018/HARD1.txt:1", "--agent", "spx", "--quiet"]) in (0, 1)
    capsys.readouterr()
    assert main(["compare", "maps/daggers/2018/EASY1.txt", "--agents", "spx", "--runs", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agents"]["spx"]["games"] == 1
    assert main(["cnf", "maps/daggers/2018/EASY1.txt", "-o", "easy1.cnf"]) == 0
    assert (elsewhere / "easy1.cnf").read_text().startswith("c ")
    assert la.load("maps/daggers/2018/HARD1.txt").name == "HARD1"
    assert la.play("maps/daggers/2018/EASY1.txt", agent="satx", seed=0).map == "EASY1"


def test_a_local_file_of_that_name_comes_first(elsewhere, capsys):
    mine = elsewhere / "maps" / "daggers" / "2018"
    mine.mkdir(parents=True)
    (mine / "HARD1.txt").write_text("not a map at all\n")
    assert main(["play", "maps/daggers/2018/HARD1.txt", "--agent", "satx"]) == 2
    assert "maps/daggers/2018/HARD1.txt" in capsys.readouterr().err


def test_a_path_under_maps_does_not_climb_out(elsewhere, capsys):
    assert main(["play", "maps/../../setup.py", "--agent", "satx"]) == 2
    assert main(["play", "maps/daggers/../../../pyproject.toml", "--agent", "satx"]) == 2
    capsys.readouterr()


def test_an_example_plug_in_says_how_to_install_it():
    daggers = {"daggers": get_game("daggers")}
    words = str(_undetected(["akari-7x7-a"], daggers))
    assert "pip install -e examples/plugin-game" in words and "make test" in words
    assert "pip install -e examples/lights-out" in example_plugin_hint("lights-out")
    assert example_plugin_hint("EASY1") == "" and example_plugin_hint("x" * 10_000) == ""


def test_a_trace_path_no_file_can_have_is_one_error(tmp_path):
    for name, words in (("a\x00b.jsonl", "NUL byte"), ("a\ud800.jsonl", "lone surrogate"),
                        ("/proc/self/mem", "cannot write trace")):
        with pytest.raises(la.LogicAgentsError, match=words):
            la.play("EASY1", agent="spx", trace=name)


def test_ctrl_c_while_the_command_line_starts_is_one_line():
    """Issue 54: a Ctrl-C as the CLI's modules were read printed a KeyboardInterrupt
    traceback. Here it lands, deterministically, inside the import of logic_agents.cli (a
    finder sends the signal as that import begins): one line, exit code 130."""
    import subprocess
    import sys

    # the child starts as a terminal's process does, whatever SIGINT disposition the test's
    # own process inherited (an ignored SIGINT is inherited, and the Ctrl-C would be lost)
    child = subprocess.run([sys.executable, "-c", """
import importlib.abc, os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "logic_agents.cli":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupt())
sys.argv = ["logic-agents", "play", "EASY1", "--agent", "satx"]
from logic_agents.console import main
sys.exit(main())
"""], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in child.stderr, child.stderr
    assert child.returncode == 130 and child.stderr.strip() == "logic-agents: interrupted"


def test_benchmark_commands_name_no_one_machines_paths():
    """Issue 54: BENCHMARKS.md's commands named /work/peers/... and /tmp/...; a reader's
    machine has neither. They name PEERS and OLD, which the page's head explains."""
    import re

    from .conftest import ROOT

    text = (ROOT / "docs" / "BENCHMARKS.md").read_text()
    spans = re.findall(r"`([^`]*)`", text)
    absolute = [s for s in spans if re.search(r"(^|\s)/(work|tmp|home|root|Users)/", s)]
    assert not absolute, absolute[:3]
    assert "PEERS is the" in text and "OLD the checkout" in text


def test_a_broken_observations_codec_is_charged_to_the_game(monkeypatch):
    """Issue 54: a game's Observations codec that raises on its own observation was the
    agent's error. It is the world's: the row says so, and says where."""
    from logic_agents.referee.remote import RemoteAgent

    started = RemoteAgent.start

    def with_a_broken_codec(self, options):
        started(self, options)

        def encode(observation):
            raise KeyError("the codec's own bug")

        self._encode = encode

    monkeypatch.setattr(RemoteAgent, "start", with_a_broken_codec)
    from .conftest import ROOT

    result = la.play("EASY1", agent=f"{ROOT / 'examples' / 'my_agent.py'}:MyAgent", seed=0)
    assert result.outcome.value == "error"
    assert "CodecError" in result.error and "(in the world at step 1)" in result.error


class _Evil:
    """A caller's object whose __repr__ and __fspath__ raise (os.PathLike by its method)."""

    def __repr__(self) -> str:
        raise RuntimeError("repr boom")

    def __fspath__(self) -> str:
        raise RuntimeError("fspath boom")


@pytest.mark.parametrize("call", [
    lambda e: la.load(e), lambda e: la.play(e), lambda e: la.view(e), lambda e: la.solve(e),
    lambda e: la.make_world(e), lambda e: la.play("EASY1", agent="spx", trace=e),
    lambda e: la.view("EASY1", agent="spx", output=e), lambda e: la.compare(["spx"], [e]),
    lambda e: la.compare(["spx"], ["EASY1"], out=e),
    lambda e: la.compare(["spx"], ["EASY1"], hide=[e]),
    lambda e: la.compare(["spx"], ["EASY1"], agent_options=e),
    lambda e: la.play("EASY1", agent="spx", seed=e),
    lambda e: la.compare(["spx"], ["EASY1"], runs=e),
    lambda e: la.compare(["spx"], ["EASY1"], game=e),
    lambda e: __import__("logic_agents").Study.load(e),
], ids=["load", "play", "view", "solve", "make_world", "trace", "output", "refs", "out",
        "hide", "agent_options", "seed", "runs", "game", "Study.load"])
def test_a_callers_object_whose_repr_or_fspath_raises_is_one_error(call):
    """Issue 54: such objects surfaced Python's RuntimeError from 11 entry points."""
    with pytest.raises(la.LogicAgentsError):
        call(_Evil())


def test_a_puzzles_status_line_has_no_score():
    """Issue 54: human play and `play --delay` showed `score 0` under a puzzle, which scores
    nothing; a game that scores (Ooze, Daggers) keeps its counter."""
    from logic_agents.display.human import Session

    for game, ref, scored in (("sudoku", "1.3.....2.4.4.2.", False),
                              ("daggers", "EASY1", True)):
        spec = get_game(game)
        session = Session(spec, la.load(ref, game), {}, 0)
        assert ("score" in session.status().plain) == scored, (game, session.status().plain)
