"""The stumbles a new user met in the first ten minutes (issue 28, part 4), one test each."""

import io
import json
import re

import pytest
from rich.console import Console

from logic_agents.cli import main
from logic_agents.world.registry import games


def narrow(monkeypatch, module, width):
    """Run `module`'s output through a console `width` columns wide; returns its text."""
    out = io.StringIO()
    console = Console(width=width, file=out, highlight=False, emoji=False, soft_wrap=False)
    monkeypatch.setattr(module, "make_console", lambda *a, **k: console)
    return out


@pytest.mark.parametrize("width", [80, 60])
def test_games_never_cuts_a_name_a_user_types(monkeypatch, width):
    from logic_agents.cli import games as games_verb

    out = narrow(monkeypatch, games_verb, width)
    assert main(["games"]) == 0
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    lines = text.splitlines()
    assert all(line.rstrip().endswith(("┓", "┃", "┩", "│", "┘")) for line in lines[1:] if line.strip()), \
        "the table is wider than the console (its right edge is cropped)"
    for name, spec in games().items():
        for word in [name, spec.example, *spec.agents]:
            assert word in text, f"{word!r} is cut at {width} columns"
    assert "…" not in text


@pytest.mark.parametrize("width", [80, 60])
def test_maps_never_cuts_a_name_a_user_types(monkeypatch, width):
    from logic_agents.cli import maps as maps_verb

    out = narrow(monkeypatch, maps_verb, width)
    assert main(["maps", "--game", "sudoku"]) == 0
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    assert all(line.rstrip().endswith(("┓", "┃", "┩", "│", "┘")) for line in text.splitlines()[1:]
               if line.strip()), "the table is wider than the console (its right edge is cropped)"
    for name in ("norvig_top95", "norvig_hardest", "inst25x25_p045", "royle17_first10000"):
        assert name in text, f"{name!r} is cut at {width} columns"
    assert "…" not in text


@pytest.mark.parametrize("typed,suggested", [("hard1", "HARD1"), ("HARD11", "HARD1"),
                                             ("EASYY1", "EASY1"), ("norvig_top96", "norvig_top95")])
def test_a_near_name_is_offered(capsys, typed, suggested):
    assert main(["play", typed, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"did you mean {suggested}" in err and "give --game" not in err


def test_a_sudoku_line_of_the_wrong_length_says_so(capsys):
    assert main(["solve", "1" * 80]) == 2
    assert "80 cells is no Sudoku size" in capsys.readouterr().err


def test_two_games_that_claim_a_file_are_named_not_guessed(capsys, tmp_path):
    both = tmp_path / "both.txt"
    both.write_text("....\n....\n")  # an Akari grid of white cells, and Lights Out all off
    assert {"akari", "lights-out"} <= set(games()), "make test installs both example plug-ins"
    assert main(["play", str(both), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "reads as akari and as lights-out; give --game NAME" in err
    assert main(["play", str(both), "--game", "lights-out", "--quiet"]) == 0


def test_compare_generate_works_as_the_daggers_guide_writes_it(capsys):
    """docs/games/daggers.md: `compare --generate expert --start 3,3 ...`, no --game: the
    preset names the one game that generates for compare."""
    assert main(["compare", "--generate", "beginner", "--start", "3,3", "--count", "2",
                 "--runs", "1", "--agents", "spx", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agents"]["spx"]["games"] == 2


def test_piped_play_prints_the_moves_not_every_board(capsys):
    assert main(["play", "HARD1", "--agent", "satx"]) == 0
    out = capsys.readouterr().out
    status = re.compile(r"^step \d+  lives", re.MULTILINE)  # each board's first line
    steps = int(out.rsplit("with satx: ", 1)[1].split(" steps")[0])
    assert len(status.findall(out)) == 2 and out.count("\n") < steps + 40  # first and last
    assert main(["play", "HARD1", "--agent", "satx", "--every-board"]) == 0
    assert len(status.findall(capsys.readouterr().out)) == steps + 1


def test_play_on_a_terminal_redraws_one_board(monkeypatch):
    from logic_agents.cli import play as play_verb

    watched = []
    monkeypatch.setattr(play_verb, "make_console", lambda *a, **k: Console(
        file=io.StringIO(), force_terminal=True, width=100))
    original = play_verb._watch
    monkeypatch.setattr(play_verb, "_watch", lambda args, *rest: watched.append(args.delay)
                        or original(args, *rest))
    assert main(["play", "EASY1", "--in-process"]) == 0
    assert watched == [0.0]  # the --delay drawing, with no wait between moves


def test_the_name_a_game_shows_is_a_reference_that_loads_it_again():
    """`play 4x4de:1` used to show `4x4de#rs-0` (the real game's seed ID), which no command
    takes; every shipped puzzle, first and last of each file, now shows a name that loads the
    same puzzle again."""
    from logic_agents.world.resolve import maps_folder, resolve

    checked = 0
    for spec in games().values():
        root = maps_folder(spec)
        if root is None:
            continue
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".txt", ".tsv")):
            count = len(list(spec.instances.read(path)))
            for k in sorted({1, count}):
                instance = resolve(f"{path.stem}:{k}" if count > 1 else path.stem, spec)[1][0]
                again = resolve(instance.name, spec)[1][0]
                assert again == instance, (spec.name, path.name, k, instance.name)
                checked += 1
    assert checked >= 30
    undead = resolve("4x4de:1", games()["undead"])[1][0]
    assert undead.name == "4x4de:1" and undead.seed_id == "4x4de#rs-0"
