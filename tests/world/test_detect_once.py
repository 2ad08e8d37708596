"""Detection reads a file's puzzles once (issue 69, item 5: `solve FILE:K` on a file of 400
Undead boards parsed it three times, a third of the command's CPU): a game sniffs a text
once per detect_game, though it is asked in both rounds, and an Undead file of game IDs is
claimed from its first line, so the reader alone parses the file whole."""

import json

import pytest

import logic_agents.games.sudoku as sudoku_game
import logic_agents.games.undead as undead_game
from logic_agents.cli import main
from logic_agents.games.undead import files as undead_files
from logic_agents.world import detect, registry
from logic_agents.world.registry import builtin_names

from ..conftest import ROOT
from ..games.undead.test_undead_board import EXAMPLE_PICTURE

IDS = ROOT / "logic_agents/maps/undead/7x7dn.tsv"


@pytest.fixture(autouse=True)
def only_builtins_loaded(monkeypatch):
    """The registry as a command starts (another test of this worker may have loaded a
    plug-in)."""
    builtin = set(builtin_names())
    for name in builtin:
        registry.get_game(name)
    monkeypatch.setattr(registry, "_GAMES",
                        {k: v for k, v in registry._GAMES.items() if k in builtin})


def counted(monkeypatch, module, name):
    """Patch module.name with a wrapper that counts its calls; the list of calls."""
    calls = []
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_a_game_that_is_not_sure_sniffs_a_file_once(monkeypatch, tmp_path):
    copied = tmp_path / "puzzles.txt"  # no `game:` line, no folder named after a game
    copied.write_text((ROOT / "maps/sudoku/norvig_hardest.txt").read_text())
    calls = counted(monkeypatch, sudoku_game, "sniff")
    assert detect.detect_game([str(copied)]) == "sudoku"
    # Sudoku's sniff says 1 (it parses), so the plug-ins' round asks it again: from the memo
    assert len(calls) == 1


def test_solve_one_board_of_an_undead_file_parses_the_file_once(monkeypatch, tmp_path, capsys):
    copied = tmp_path / "boards.tsv"
    copied.write_text(IDS.read_text())
    count = len(undead_files.load_entries(copied))
    in_files = counted(monkeypatch, undead_files, "parse_game_id")
    in_sniff = counted(monkeypatch, undead_game, "parse_game_id")
    assert main(["solve", f"{copied}:3", "--unique", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unique"] is True
    assert len(in_files) == count and len(in_sniff) == 1  # the reader's parse; the first line


def test_the_undead_sniff_is_sure_of_game_ids_and_only_of_them():
    text = IDS.read_text()
    assert undead_game.sniff(text, "f.tsv") == 2
    assert undead_game.sniff("# 7x7 boards\n\n" + text, "f.tsv") == 2
    assert undead_game.sniff(EXAMPLE_PICTURE, "f.txt") == 1  # a picture parses: not sure
    assert undead_game.sniff("7x7:9,13,8,bLL\n", "f.tsv") == 0  # an ID's head, then broken
    assert undead_game.sniff("12..3..2.1.34..1\n", "f.txt") == 0


def test_a_broken_later_line_is_the_readers_error(tmp_path, capsys):
    lines = IDS.read_text().splitlines()
    lines[2] = lines[2].replace("7x7:", "7x7:x", 1)
    broken = tmp_path / "boards.tsv"
    broken.write_text("\n".join(lines) + "\n")
    assert undead_game.sniff(broken.read_text(), str(broken)) == 2  # the first line says so
    assert main(["solve", f"{broken}:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{broken}:3:" in err
