"""Detection's fast path for a shipped map of a built-in game (world/detect.py): it answers
what the full search answers, without importing any game, and steps aside whenever the full
search could answer otherwise."""

import json
import subprocess
import sys

import pytest

from logic_agents.world import detect, registry
from logic_agents.world.registry import builtin_names, game_names, games_at_hand, get_game
from logic_agents.world.resolve import MAP_SUFFIXES, builtin_maps_folder, maps_folder


@pytest.fixture(autouse=True)
def only_builtins_loaded(monkeypatch):
    """The registry as a command starts: other tests of this worker may have loaded plug-ins,
    and then the fast path rightly steps aside."""
    builtin = set(builtin_names())
    monkeypatch.setattr(registry, "_GAMES",
                        {k: v for k, v in registry._GAMES.items() if k in builtin})


def test_a_builtin_game_ships_its_maps_in_the_package_maps_folder():
    for name in builtin_names():
        assert maps_folder(get_game(name)) == builtin_maps_folder(name), name


def names_of_shipped_maps() -> list[str]:
    """Every way the docs name a shipped map or folder: HARD1, 2018/HARD1, 2018, daggers/2018."""
    names = set()
    for game in builtin_names():
        root = builtin_maps_folder(game)
        if root is None:
            continue
        for path in root.rglob("*"):
            relative = path.relative_to(root)
            if path.is_file() and path.suffix in MAP_SUFFIXES:
                names |= {path.stem, str(relative.with_suffix(""))}
            elif path.is_dir():
                names |= {str(relative), f"{game}/{relative}"}
    return sorted(names)


def test_the_fast_path_answers_as_the_full_search():
    named = set(game_names())
    at_hand = games_at_hand()
    answered = found = 0
    for name in names_of_shipped_maps():
        fast = detect._builtin_shipped([name], named)
        try:
            full = detect._detect([name], at_hand, named, sure=True)
        except Exception as e:  # an ambiguous name: the fast path must have stepped aside
            assert fast is None, (name, e)
            continue
        found += full is not None
        if fast is not None:
            answered += 1
            assert fast == full, name
    # every name the full search places is placed without importing a game (99 today)
    assert answered == found > 50


def test_it_steps_aside_when_a_game_beyond_the_builtins_is_loaded(monkeypatch):
    named = set(game_names())
    assert detect._builtin_shipped(["EASY1"], named) == "daggers"
    monkeypatch.setitem(registry._GAMES, "other", get_game("daggers"))
    assert detect._builtin_shipped(["EASY1"], named) is None


@pytest.mark.parametrize("item", ["EASY1", "./EASY1"])
def test_it_steps_aside_for_a_path_that_exists(tmp_path, monkeypatch, item):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "EASY1").write_text("not a map")
    assert detect._builtin_shipped([item], set(game_names())) is None


def test_play_easy1_imports_no_other_game():
    code = ("import json, sys; from logic_agents.world.detect import detect_game; "
            "print(json.dumps([detect_game(['EASY1']), sorted(m for m in sys.modules "
            "if m.startswith('logic_agents.games.'))]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    game, modules = json.loads(done.stdout)
    assert game == "daggers"
    assert not [m for m in modules if not m.startswith("logic_agents.games.daggers")], modules
