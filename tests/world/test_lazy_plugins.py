"""Issue 41: a plug-in whose entry point imports sympy at its top made `play EASY1` 0.5 s slower,
although EASY1 is a built-in game's map. A plug-in's entry point now loads only when its game
is used (named, or the built-in games cannot place a reference) or a listing needs every game.

Each check runs the command line in a fresh interpreter with such a plug-in installed (a
module and its dist-info on PYTHONPATH, as pip would leave them) and looks at which modules
it imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from logic_agents.world import detect

from ..conftest import ROOT
from ..plugins import install, lights, plugged

HEAVY_PLUGIN = lights("heavy-game", before="import sympy")


def _imports(root, *argv: str) -> tuple[bool, bool, int]:
    """(heavy plug-in imported, sympy imported, exit code) of one command."""
    code = ("import json, sys\nfrom logic_agents.cli import main\n"
            f"try:\n    code = main({list(argv)!r})\nexcept SystemExit as e:\n    code = e.code\n"
            "print(json.dumps(['heavy_game' in sys.modules, 'sympy' in sys.modules, code]))")
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    heavy, sympy, status = json.loads(done.stdout.strip().splitlines()[-1])
    return heavy, sympy, status


@pytest.fixture(scope="module")
def heavy_root(tmp_path_factory):
    return install(tmp_path_factory.mktemp("heavy"), "heavy_game", HEAVY_PLUGIN)


@pytest.mark.parametrize("argv", [
    ("play", "EASY1", "--agent", "satx", "--json", "--in-process"),
    ("play", "maps/daggers/2018/HARD1.txt", "--json", "--in-process"),
    ("solve", "4x4de:1", "--json"),
    ("compare", "maps/daggers/2018", "--agents", "spx", "--runs", "1", "--json"),
    ("play", "--help"),
    ("maps", "--game", "daggers"),
])
def test_a_built_in_games_command_never_imports_a_plugin(heavy_root, argv):
    heavy, sympy, status = _imports(heavy_root, *argv)
    assert (heavy, sympy, status) == (False, False, 0)


def test_the_plugin_loads_when_its_game_is_named_or_listed(heavy_root):
    assert _imports(heavy_root, "play", "lights-5x5-a", "--game", "heavy-game", "--json",
                    "--in-process")[:1] == (True,)
    assert _imports(heavy_root, "games", "--json")[0] is True


def test_a_plugins_map_is_still_found_when_no_built_in_game_places_it(tmp_path):
    """lights-5x5-a is the Lights Out plug-in's shipped map: the built-in games cannot place
    it, so every plug-in is asked, as before."""
    with plugged(install(tmp_path, "heavy_game", HEAVY_PLUGIN)):
        assert detect.detect_game(["lights-5x5-a"]) == "lights-out"


def test_a_header_or_folder_naming_a_plugin_loads_that_plugin_only(tmp_path):
    root = install(tmp_path / "site", "heavy_game", HEAVY_PLUGIN)
    install(root, "other_game", lights("other-game"))
    board = tmp_path / "board.txt"
    board.write_text("# game: heavy-game\n5 5\n.....\n.....\n.....\n.....\n.....\n")
    folder = tmp_path / "other-game"
    folder.mkdir()
    (folder / "x.txt").write_text("5 5\n")
    with plugged(root):
        assert detect.detect_game([str(board)]) == "heavy-game"
        assert "heavy_game" in sys.modules and "other_game" not in sys.modules
        assert detect.detect_game([str(folder)]) == "other-game"
        assert "other_game" in sys.modules


def test_solve_and_cnf_say_what_a_game_lacks(tmp_path, capsys):
    """Issue 41: `solve` said "is not a static puzzle" and `cnf` "has no agent that asks a SAT
    solver", which a plug-in's author could not act on; both now name what is missing."""
    from logic_agents.cli import main

    source = lights("no-puzzle", "capabilities=tuple(c for c in _LIGHTS.capabilities if type(c)"
                    " is not spec.Puzzle)", before="from logic_agents.world import spec\n")
    with plugged(install(tmp_path, "no_puzzle", source)):
        assert main(["solve", "lights-5x5-a", "--game", "no-puzzle"]) == 2
        err = capsys.readouterr().err
        assert "no-puzzle has no Puzzle capability, which `solve` needs: add a Puzzle(...)" in err
        assert main(["cnf", "lights-5x5-a", "--game", "no-puzzle"]) == 2
        err = capsys.readouterr().err
        assert "no-puzzle has no Puzzle capability and none of its agents" in err
        assert "on_query" in err
